/*
 * rng.h - PCG32, the random generator of every stochastic part of scalefit.
 *
 * This is O'Neill's PCG32 (XSH-RR output on a 64-bit LCG state, "PCG: A
 * Family of Simple Fast Space-Efficient Statistically Good Algorithms for
 * Random Number Generation", 2014), written here because Debian packages no
 * C library for it.  Its outputs match the published pcg32 reference: seeded
 * with (42, 54) the first outputs are 0xa15c02b7, 0x7b47f409, ...
 *
 * A generator is a small value owned by its user; there is no global state.
 * Distinct streams with the same seed are independent sequences, which is
 * how parallel work gets reproducible per-task generators.
 *
 * Thread safety: a generator must not be used by two threads at once;
 * give each task its own.
 */
#ifndef SF_RNG_H
#define SF_RNG_H

#include <stdint.h>

typedef struct sf_rng {
	uint64_t state; /* LCG state */
	uint64_t inc;   /* LCG increment; always odd, selects the stream */
} sf_rng;

/* The 64-bit LCG multiplier of the PCG paper. */
#define SF_RNG_MULTIPLIER 6364136223846793005ULL

/* Seed r with an initial state and a stream selector (any 64-bit values). */
void sf_rng_seed(sf_rng *r, uint64_t initstate, uint64_t stream);

/* The draws the optimiser makes per member and coordinate are inline
 * here: a call each was a measurable share of a search on small data. */

/* The next 32 uniformly distributed random bits. */
static inline uint32_t
sf_rng_next(sf_rng *r)
{
	uint64_t old = r->state;
	uint32_t xorshifted, rot;

	r->state = old * SF_RNG_MULTIPLIER + r->inc;
	xorshifted = (uint32_t)(((old >> 18u) ^ old) >> 27u);
	rot = (uint32_t)(old >> 59u);
	return (xorshifted >> rot) | (xorshifted << ((-rot) & 31u));
}

/*
 * A bound prepared for many draws: sf_rng_below(r, &g) draws a uniform
 * integer in [0, g.bound) by rejecting the low 2^32 mod bound outputs and
 * taking the next one mod bound, as sf_rng_bounded(r, g.bound) does,
 * without two integer divisions per draw (a tenth of a search on small
 * data): the rejection threshold is computed once, and x mod bound by two
 * multiplications (Lemire, Kaser and Kurz, "Faster remainder by direct
 * computation", 2019: exact for every 32-bit x and bound) where the
 * compiler has 128-bit products.
 */
typedef struct sf_rng_range {
	uint32_t bound;     /* >= 1 */
	uint32_t threshold; /* 2^32 mod bound */
	uint64_t magic;     /* 2^64 / bound rounded up (0 for bound 1) */
} sf_rng_range;

static inline sf_rng_range
sf_rng_range_of(uint32_t bound)
{
	sf_rng_range g = {bound, (-bound) % bound,
	                  UINT64_C(0xffffffffffffffff) / bound + 1};
	return g;
}

static inline uint32_t
sf_rng_below(sf_rng *r, const sf_rng_range *g)
{
	for (;;) {
		uint32_t x = sf_rng_next(r);
		if (x >= g->threshold) {
#ifdef __SIZEOF_INT128__
			__extension__ typedef unsigned __int128 u128;
			return (uint32_t)(((u128)(g->magic * x) * g->bound) >>
			                  64);
#else
			return x % g->bound;
#endif
		}
	}
}

/*
 * A uniform integer in [0, bound), without modulo bias (rejection of the
 * low 2^32 mod bound values).  bound must be >= 1.
 */
static inline uint32_t
sf_rng_bounded(sf_rng *r, uint32_t bound)
{
	sf_rng_range g = sf_rng_range_of(bound);

	return sf_rng_below(r, &g);
}

/* A double uniform in [0, 1) with 53 random bits (two outputs). */
static inline double
sf_rng_uniform(sf_rng *r)
{
	/* 27 high bits of one output and 26 of the next make 53 bits. */
	uint64_t hi = sf_rng_next(r) >> 5;
	uint64_t lo = sf_rng_next(r) >> 6;

	return (double)(hi * 67108864u + lo) * (1.0 / 9007199254740992.0);
}

/* A normal draw with mean mu and standard deviation sigma (Box-Muller). */
double sf_rng_normal(sf_rng *r, double mu, double sigma);

/* A Cauchy draw with location loc and scale (inverse CDF). */
double sf_rng_cauchy(sf_rng *r, double loc, double scale);

/* Jump r ahead by delta steps in O(log delta) (Brown's LCG jump-ahead). */
void sf_rng_advance(sf_rng *r, uint64_t delta);

#endif /* SF_RNG_H */
