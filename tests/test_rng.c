/*
 * test_rng.c - PCG32 known answers and statistical sanity checks.
 */
#include "base/rng.h"
#include "testing.h"

#include <math.h>

/* pcg32-global-demo / pcg32_random_r with initstate 42, initseq 54. */
static void
test_known_answers(void)
{
	static const uint32_t expected[] = {
	    0xa15c02b7, 0x7b47f409, 0xba1d3330,
	    0x83d2f293, 0xbfa4784b, 0xcbed606e,
	};
	sf_rng r;

	sf_rng_seed(&r, 42u, 54u);
	for (size_t i = 0; i < sizeof expected / sizeof expected[0]; i++)
		CU_ASSERT_EQUAL(sf_rng_next(&r), expected[i]);
}

/* The published demo's "Coins" and "Rolls" rows for the same seed. */
static void
test_known_bounded(void)
{
	static const char coins[] =
	    "HHTTTHTHHHTHTTTHHHHHTTTHHHTHTHTHTTHTTTHHHHHHTTTTHHTTTTTHTTTTTTTHT";
	static const unsigned rolls[] = {3, 4, 1, 1, 2, 2, 3, 2, 4, 3, 2,
	                                 4, 3, 3, 5, 2, 3, 1, 3, 1, 5, 1,
	                                 4, 1, 5, 6, 4, 6, 6, 2, 6, 3, 3};
	sf_rng r;

	sf_rng_seed(&r, 42u, 54u);
	for (int i = 0; i < 6; i++)
		sf_rng_next(&r);
	for (size_t i = 0; i + 1 < sizeof coins; i++)
		CU_ASSERT_EQUAL(sf_rng_bounded(&r, 2) ? 'H' : 'T', coins[i]);
	for (size_t i = 0; i < sizeof rolls / sizeof rolls[0]; i++)
		CU_ASSERT_EQUAL(sf_rng_bounded(&r, 6) + 1, rolls[i]);
}

static void
test_streams_differ(void)
{
	sf_rng a, b;
	int same = 0;

	sf_rng_seed(&a, 7u, 1u);
	sf_rng_seed(&b, 7u, 2u);
	for (int i = 0; i < 100; i++)
		same += sf_rng_next(&a) == sf_rng_next(&b);
	CU_ASSERT(same < 3);
}

static void
test_advance(void)
{
	sf_rng a, b;

	sf_rng_seed(&a, 123u, 9u);
	b = a;
	for (int i = 0; i < 1000; i++)
		sf_rng_next(&a);
	sf_rng_advance(&b, 1000u);
	CU_ASSERT_EQUAL(a.state, b.state);
	CU_ASSERT_EQUAL(sf_rng_next(&a), sf_rng_next(&b));
}

static void
test_uniform_moments(void)
{
	const int n = 1000000;
	double sum = 0, sum2 = 0, lo = 1, hi = 0;
	sf_rng r;

	sf_rng_seed(&r, 2024u, 3u);
	for (int i = 0; i < n; i++) {
		double u = sf_rng_uniform(&r);
		sum += u;
		sum2 += u * u;
		lo = u < lo ? u : lo;
		hi = u > hi ? u : hi;
	}
	CU_ASSERT(lo >= 0.0 && hi < 1.0);
	/* Mean 1/2 with sd sqrt(1/12/n) ~ 2.9e-4; variance 1/12. */
	CU_ASSERT(fabs(sum / n - 0.5) < 1.5e-3);
	CU_ASSERT(fabs(sum2 / n - sum * sum / ((double)n * n) - 1.0 / 12) <
	          1e-3);
}

/* 53 bits: the low bit of the mantissa must vary. */
static void
test_uniform_resolution(void)
{
	sf_rng r;
	int odd = 0;

	sf_rng_seed(&r, 5u, 5u);
	for (int i = 0; i < 1000; i++) {
		double u = sf_rng_uniform(&r);
		odd += (uint64_t)ldexp(u, 53) & 1u;
	}
	CU_ASSERT(odd > 400 && odd < 600);
}

/* Chi-square of sf_rng_bounded over a range that is not a power of two. */
static void
test_bounded_chi_square(void)
{
	enum { k = 10, n = 200000 };
	long count[k] = {0};
	double chi2 = 0, expected = (double)n / k;
	sf_rng r;

	sf_rng_seed(&r, 99u, 11u);
	for (int i = 0; i < n; i++) {
		uint32_t x = sf_rng_bounded(&r, k);
		CU_ASSERT_FATAL(x < k);
		count[x]++;
	}
	for (int i = 0; i < k; i++)
		chi2 +=
		    (count[i] - expected) * (count[i] - expected) / expected;
	/* 9 degrees of freedom: P(chi2 > 27.88) = 0.001. */
	CU_ASSERT(chi2 < 27.88);
}

/* A bound just above 2^31 is where modulo bias would be worst. */
static void
test_bounded_no_bias(void)
{
	const uint32_t bound = 0x80000001u;
	long low = 0;
	sf_rng r;

	sf_rng_seed(&r, 1u, 1u);
	for (int i = 0; i < 100000; i++)
		low += sf_rng_bounded(&r, bound) < bound / 2;
	/* Unbiased: half below bound/2.  Modulo bias would give ~2/3. */
	CU_ASSERT(low > 49000 && low < 51000);
	CU_ASSERT_EQUAL(sf_rng_bounded(&r, 1), 0u);
}

static void
test_normal_moments(void)
{
	const int n = 400000;
	double sum = 0, sum2 = 0;
	sf_rng r;

	sf_rng_seed(&r, 8u, 8u);
	for (int i = 0; i < n; i++) {
		double x = sf_rng_normal(&r, 3.0, 2.0);
		CU_ASSERT_FATAL(isfinite(x));
		sum += x;
		sum2 += x * x;
	}
	double mean = sum / n, var = sum2 / n - mean * mean;
	CU_ASSERT(fabs(mean - 3.0) < 0.02);
	CU_ASSERT(fabs(var - 4.0) < 0.05);
}

/* Cauchy has no mean: check its median and quartiles instead. */
static void
test_cauchy_quartiles(void)
{
	const int n = 200000;
	long below_loc = 0, inside_iqr = 0;
	sf_rng r;

	sf_rng_seed(&r, 4u, 4u);
	for (int i = 0; i < n; i++) {
		double x = sf_rng_cauchy(&r, 0.5, 0.1);
		CU_ASSERT_FATAL(isfinite(x));
		below_loc += x < 0.5;
		inside_iqr += fabs(x - 0.5) < 0.1;
	}
	CU_ASSERT(fabs((double)below_loc / n - 0.5) < 0.005);
	CU_ASSERT(fabs((double)inside_iqr / n - 0.5) < 0.005);
}

/* sf_rng_below with a prepared range (and so sf_rng_bounded) draws what
 * rejection and a remainder draw, from the same stream, for bounds small,
 * odd, powers of two and the largest; its remainder is exact for every
 * edge of x. */
static void
test_below_is_bounded(void)
{
	static const uint32_t bounds[] = {
	    1,    2,     3,        7,           54,          100,
	    1000, 65536, 1u << 31, 0x80000001u, 0xfffffffeu, 0xffffffffu};
	size_t differ = 0;

	for (size_t k = 0; k < sizeof bounds / sizeof *bounds; k++) {
		sf_rng a, b;
		sf_rng_range g = sf_rng_range_of(bounds[k]);

		sf_rng_seed(&a, 2024u, k);
		sf_rng_seed(&b, 2024u, k);
		for (int i = 0; i < 20000; i++) {
			/* the definition: reject the 2^32 mod bound lowest
			 * outputs, take the next one mod bound */
			uint32_t threshold = (-bounds[k]) % bounds[k], x;

			do
				x = sf_rng_next(&a);
			while (x < threshold);
			differ += x % bounds[k] != sf_rng_below(&b, &g);
		}
		differ += a.state != b.state;
	}
	CU_ASSERT_EQUAL(differ, 0);
}

int
main(void)
{
	static CU_TestInfo tests[] = {
	    {"known answers (42, 54)", test_known_answers},
	    {"known bounded draws (coins, rolls)", test_known_bounded},
	    {"prepared bounds draw the same", test_below_is_bounded},
	    {"streams differ", test_streams_differ},
	    {"advance equals stepping", test_advance},
	    {"uniform moments and range", test_uniform_moments},
	    {"uniform has 53 bits", test_uniform_resolution},
	    {"bounded chi-square", test_bounded_chi_square},
	    {"bounded has no modulo bias", test_bounded_no_bias},
	    {"normal moments", test_normal_moments},
	    {"cauchy quartiles", test_cauchy_quartiles},
	    CU_TEST_INFO_NULL,
	};
	static CU_SuiteInfo suites[] = {
	    {"rng", NULL, NULL, NULL, NULL, tests},
	    CU_SUITE_INFO_NULL,
	};
	return sf_test_main(suites);
}
