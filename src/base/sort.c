/*
 * sort.c - the comparator of doubles and the type-7 quantile.
 */
#include "base/sort.h"

#include <math.h>
#include <string.h>

int
sf_sort_compare_doubles(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

double
sf_sort_quantile(const double *sorted, size_t n, double q)
{
	double h, lower;
	size_t k;

	if (n == 0)
		return NAN;
	h = (double)(n - 1) * q;
	lower = floor(h);
	k = (size_t)lower;
	if (k + 1 >= n)
		return sorted[n - 1];
	return sorted[k] + (h - lower) * (sorted[k + 1] - sorted[k]);
}

void
sf_sort_indices(size_t *idx, size_t *tmp, size_t n,
                int (*cmp)(const void *ctx, size_t a, size_t b),
                const void *ctx)
{
	for (size_t width = 1; width < n; width *= 2) {
		for (size_t lo = 0; lo < n; lo += 2 * width) {
			size_t mid = lo + width < n ? lo + width : n;
			size_t hi = n - mid > width ? mid + width : n;
			size_t i = lo, j = mid, t = lo;

			/* the left run's first on ties: stable */
			while (i < mid && j < hi)
				tmp[t++] = cmp(ctx, idx[j], idx[i]) < 0
				               ? idx[j++]
				               : idx[i++];
			while (i < mid)
				tmp[t++] = idx[i++];
			while (j < hi)
				tmp[t++] = idx[j++];
		}
		memcpy(idx, tmp, n * sizeof *idx);
	}
}
