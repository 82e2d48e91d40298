/*
 * sort.h - doubles in order: the comparator qsort() needs, and quantiles
 * of values already sorted; indices in the order of a comparator with a
 * context.
 *
 * Every module that sorts numbers (bootstrap percentiles, the levels of an
 * input, a scale study's values, prediction bands) orders them the same
 * way and interpolates its quantiles the same way.  Pure functions over
 * caller-owned arrays; thread-safe.
 */
#ifndef SF_SORT_H
#define SF_SORT_H

#include <stddef.h>

/*
 * Compare the doubles at a and b for qsort() and bsearch(): negative,
 * zero or positive as *a is below, equal to or above *b.  A NaN compares
 * equal to everything, so sort only finite values (or infinities).
 */
int sf_sort_compare_doubles(const void *a, const void *b);

/*
 * The q-quantile (0 <= q <= 1) of sorted[0..n), interpolating linearly
 * between order statistics (Hyndman and Fan's type 7, the default of numpy
 * and R): q = 0 gives the smallest, q = 1 the largest.  NaN when n is 0.
 */
double sf_sort_quantile(const double *sorted, size_t n, double q);

/*
 * Sort idx[0..n) stably by cmp(ctx, a, b) (negative, zero or positive as
 * index a goes before, with or after index b), using tmp (n more) as
 * scratch: a merge sort, O(n log n).  qsort() has no context argument in
 * C11, and a global would be hidden state.
 */
void sf_sort_indices(size_t *idx, size_t *tmp, size_t n,
                     int (*cmp)(const void *ctx, size_t a, size_t b),
                     const void *ctx);

#endif /* SF_SORT_H */
