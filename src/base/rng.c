/*
 * rng.c - PCG32 (XSH-RR 64/32) and the distributions the optimiser draws.
 *
 * The generator follows O'Neill's minimal C implementation (pcg32_random_r,
 * pcg32_srandom_r, pcg32_boundedrand_r, pcg32_advance_r) so that its
 * outputs equal the published reference stream for every seed and stream.
 */
#include "base/rng.h"

#include <math.h>

/* Strict C11 has no rng_pi. */
static const double rng_pi = 3.14159265358979323846;

void
sf_rng_seed(sf_rng *r, uint64_t initstate, uint64_t stream)
{
	r->state = 0u;
	r->inc = (stream << 1u) | 1u;
	sf_rng_next(r);
	r->state += initstate;
	sf_rng_next(r);
}

double
sf_rng_normal(sf_rng *r, double mu, double sigma)
{
	/* Box-Muller; 1 - u lies in (0, 1], so the log is finite.  The second
	 * variate is dropped: keeping it would be hidden state. */
	double u = 1.0 - sf_rng_uniform(r);
	double v = sf_rng_uniform(r);

	return mu + sigma * sqrt(-2.0 * log(u)) * cos(2.0 * rng_pi * v);
}

double
sf_rng_cauchy(sf_rng *r, double loc, double scale)
{
	double u = sf_rng_uniform(r);

	/* u in [0, 1): tan(pi * (u - 0.5)) is finite for every such u. */
	return loc + scale * tan(rng_pi * (u - 0.5));
}

void
sf_rng_advance(sf_rng *r, uint64_t delta)
{
	uint64_t cur_mult = SF_RNG_MULTIPLIER, cur_plus = r->inc;
	uint64_t acc_mult = 1u, acc_plus = 0u;

	while (delta > 0) {
		if (delta & 1u) {
			acc_mult *= cur_mult;
			acc_plus = acc_plus * cur_mult + cur_plus;
		}
		cur_plus = (cur_mult + 1u) * cur_plus;
		cur_mult *= cur_mult;
		delta /= 2u;
	}
	r->state = acc_mult * r->state + acc_plus;
}
