/*
 * sort.c - the comparator of doubles and the type-7 quantile.
 */
#include "base/sort.h"

#include <math.h>

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
