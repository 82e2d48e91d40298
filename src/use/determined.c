/*
 * determined.c - which inputs the others determine in the fitted rows:
 * the rows sorted by the columns compared (base/sort's merge sort of
 * indices), neighbours compared.
 */
#include "use/determined.h"
#include "base/sort.h"

#include <stdlib.h>
#include <string.h>

/* The rows' columns and which of them a comparison skips. */
typedef struct rows {
	const double *x;
	size_t k;
	size_t skip[2]; /* columns not compared (k: none) */
} rows;

/* Rows a and b over the compared columns: -1, 0 or 1. */
static int
compare(const rows *r, size_t a, size_t b)
{
	const double *u = r->x + a * r->k, *v = r->x + b * r->k;

	for (size_t c = 0; c < r->k; c++) {
		if (c == r->skip[0] || c == r->skip[1] || u[c] == v[c])
			continue;
		return u[c] < v[c] ? -1 : 1;
	}
	return 0;
}

/* compare() for sf_sort_indices. */
static int
compare_rows(const void *ctx, size_t a, size_t b)
{
	return compare(ctx, a, b);
}

/* 1 when, among the rows sorted by r's columns, two neighbours equal in
 * them differ in column y. */
static int
y_varies(const rows *r, const size_t *idx, size_t n, size_t y)
{
	for (size_t i = 1; i < n; i++)
		if (compare(r, idx[i - 1], idx[i]) == 0 &&
		    r->x[idx[i - 1] * r->k + y] != r->x[idx[i] * r->k + y])
			return 1;
	return 0;
}

int
sf_determined_moves(const double *x, size_t n, size_t k, size_t y, size_t w,
                    int *out)
{
	size_t *idx = malloc((2 * n + 1) * sizeof *idx);
	rows r = {x, k, {y, k}};

	*out = 0;
	if (idx == NULL)
		return -1;
	for (size_t i = 0; i < n; i++)
		idx[i] = i;
	/* y a function of the others: no rows equal in them differ in y */
	sf_sort_indices(idx, idx + n, n, compare_rows, &r);
	if (!y_varies(&r, idx, n, y)) {
		/* it moves with w: rows equal in all but y and w differ in y */
		r.skip[1] = w;
		sf_sort_indices(idx, idx + n, n, compare_rows, &r);
		*out = y_varies(&r, idx, n, y);
	}
	free(idx);
	return 0;
}

/* The distinct values of column c of the n rows of x (k columns); 0 when
 * out of memory. */
static size_t
distinct(const double *x, size_t n, size_t k, size_t c)
{
	double *v = malloc((n + 1) * sizeof *v);
	size_t count = 0;

	if (v == NULL)
		return 0;
	for (size_t r = 0; r < n; r++)
		v[r] = x[r * k + c];
	qsort(v, n, sizeof *v, sf_sort_compare_doubles);
	for (size_t r = 0; r < n; r++)
		count += r == 0 || v[r] != v[r - 1];
	free(v);
	return count;
}

int
sf_determined_held(const double *x, size_t n, size_t k, size_t s,
                   const int *skip, size_t *out)
{
	size_t most = 0;

	*out = k;
	for (size_t c = 0; c < k; c++) {
		size_t values;
		int moves;

		if (c == s || (skip != NULL && skip[c]))
			continue;
		if (sf_determined_moves(x, n, k, c, s, &moves) != 0)
			return -1;
		if (moves && (values = distinct(x, n, k, c)) > most) {
			most = values;
			*out = c;
		}
	}
	return 0;
}
