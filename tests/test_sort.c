/*
 * test_sort.c - the comparator of doubles, type-7 quantiles, and the
 * monotonic clock (base/sort.h, base/clock.h).
 */
#include "base/clock.h"
#include "base/sort.h"
#include "testing.h"

#include <math.h>
#include <stdlib.h>

#define CLOSE(a, b, tol) CU_ASSERT(fabs((a) - (b)) <= (tol))

static void
test_compare(void)
{
	double x[] = {3, -1, INFINITY, 0, -INFINITY, 2, 2};
	const double want[] = {-INFINITY, -1, 0, 2, 2, 3, INFINITY};
	double one = 1, two = 2;

	CU_ASSERT(sf_sort_compare_doubles(&one, &two) < 0);
	CU_ASSERT(sf_sort_compare_doubles(&two, &one) > 0);
	CU_ASSERT(sf_sort_compare_doubles(&one, &one) == 0);
	qsort(x, sizeof x / sizeof x[0], sizeof x[0], sf_sort_compare_doubles);
	for (size_t i = 0; i < sizeof x / sizeof x[0]; i++)
		CU_ASSERT(x[i] == want[i]);
}

static void
test_quantile(void)
{
	const double x[] = {1, 2, 3, 4};

	CU_ASSERT(isnan(sf_sort_quantile(x, 0, 0.5)));
	CLOSE(sf_sort_quantile(x, 4, 0), 1, 0);
	CLOSE(sf_sort_quantile(x, 4, 1), 4, 0);
	CLOSE(sf_sort_quantile(x, 4, 0.5), 2.5, 1e-15);
	/* h = 3 * 0.025 = 0.075: between the first two */
	CLOSE(sf_sort_quantile(x, 4, 0.025), 1.075, 1e-15);
	CLOSE(sf_sort_quantile(x, 1, 0.3), 1, 0);
}

/* Indices by their keys' tens: ties keep their order (stable). */
static int
by_tens(const void *ctx, size_t a, size_t b)
{
	const int *key = ctx;

	return (key[a] / 10 > key[b] / 10) - (key[a] / 10 < key[b] / 10);
}

/* Indices sorted by a comparator with a context, stably, at every size
 * up to 37 (the runs' edges of a bottom-up merge). */
static void
test_indices(void)
{
	int key[37] = {0};
	size_t idx[37], tmp[37];

	for (size_t n = 0; n <= 37; n++) {
		for (size_t i = 0; i < n; i++) {
			key[i] = (int)((i * 7919) % 53);
			idx[i] = i;
		}
		sf_sort_indices(idx, tmp, n, by_tens, key);
		for (size_t i = 1; i < n; i++) {
			CU_ASSERT(key[idx[i - 1]] / 10 <= key[idx[i]] / 10);
			if (key[idx[i - 1]] / 10 == key[idx[i]] / 10)
				CU_ASSERT(idx[i - 1] < idx[i]);
		}
	}
}

static void
test_clock(void)
{
	struct timespec start;
	double a, b;

	sf_clock_now(&start);
	a = sf_clock_seconds_since(&start);
	b = sf_clock_seconds_since(&start);
	CU_ASSERT(a >= 0 && a < 60);
	CU_ASSERT(b >= a);
}

int
main(void)
{
	static CU_TestInfo sort_tests[] = {
	    {"the comparator of doubles", test_compare},
	    {"type 7 quantiles", test_quantile},
	    {"indices by a comparator, stably", test_indices},
	    CU_TEST_INFO_NULL,
	};
	static CU_TestInfo clock_tests[] = {
	    {"seconds since a start", test_clock},
	    CU_TEST_INFO_NULL,
	};
	static CU_SuiteInfo suites[] = {
	    {"sort", NULL, NULL, NULL, NULL, sort_tests},
	    {"clock", NULL, NULL, NULL, NULL, clock_tests},
	    CU_SUITE_INFO_NULL,
	};
	return sf_test_main(suites);
}
