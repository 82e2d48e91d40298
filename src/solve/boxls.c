/*
 * boxls.c - bounded linear least squares by a primal active-set method.
 */
#include "solve/boxls.h"

#include <gsl/gsl_errno.h>
#include <gsl/gsl_linalg.h>
#include <math.h>
#include <stdlib.h>

enum { FREE = 0, AT_LOWER, AT_UPPER };

struct sf_boxls {
	size_t cap;
	double *A, *b;   /* scaled normal equations */
	double *d;       /* column scales: x = d y */
	double *lo, *hi; /* bounds of y */
	double *y, *z;   /* the iterate and the free subproblem's answer */
	double *M, *rhs; /* the free subsystem */
	size_t *free_idx;
	int *state;
};

void
sf_boxls_free(sf_boxls *w)
{
	if (w == NULL)
		return;
	free(w->A);
	free(w->b);
	free(w->d);
	free(w->lo);
	free(w->hi);
	free(w->y);
	free(w->z);
	free(w->M);
	free(w->rhs);
	free(w->free_idx);
	free(w->state);
	free(w);
}

sf_boxls *
sf_boxls_alloc(size_t k)
{
	sf_boxls *w = calloc(1, sizeof *w);
	size_t n = k + 1;

	if (w == NULL)
		return NULL;
	w->cap = k;
	w->A = malloc(n * n * sizeof *w->A);
	w->M = malloc(n * n * sizeof *w->M);
	w->b = malloc(n * sizeof *w->b);
	w->d = malloc(n * sizeof *w->d);
	w->lo = malloc(n * sizeof *w->lo);
	w->hi = malloc(n * sizeof *w->hi);
	w->y = malloc(n * sizeof *w->y);
	w->z = malloc(n * sizeof *w->z);
	w->rhs = malloc(n * sizeof *w->rhs);
	w->free_idx = malloc(n * sizeof *w->free_idx);
	w->state = malloc(n * sizeof *w->state);
	if (w->A == NULL || w->M == NULL || w->b == NULL || w->d == NULL ||
	    w->lo == NULL || w->hi == NULL || w->y == NULL || w->z == NULL ||
	    w->rhs == NULL || w->free_idx == NULL || w->state == NULL) {
		sf_boxls_free(w);
		return NULL;
	}
	return w;
}

/* Solve the free variables' subsystem for z (others held at y).  Returns
 * 0, or -1 when even a regularised factorisation fails. */
static int
solve_free(sf_boxls *w, size_t k)
{
	size_t nf = 0;

	for (size_t j = 0; j < k; j++)
		if (w->state[j] == FREE)
			w->free_idx[nf++] = j;
	if (nf == 0)
		return 0;
	/* Singular subsystems (a column that repeats another) get a small
	 * ridge: the scaled diagonal is 1, so 1e-10 is relative. */
	for (int attempt = 0; attempt < 2; attempt++) {
		for (size_t a = 0; a < nf; a++) {
			size_t i = w->free_idx[a];
			double s = w->b[i];

			for (size_t j = 0; j < k; j++)
				if (w->state[j] != FREE)
					s -= w->A[i * k + j] * w->y[j];
			w->rhs[a] = s;
			for (size_t c = 0; c < nf; c++)
				w->M[a * nf + c] =
				    w->A[i * k + w->free_idx[c]] +
				    (attempt > 0 && a == c ? 1e-10 : 0);
		}
		gsl_matrix_view M = gsl_matrix_view_array(w->M, nf, nf);
		gsl_vector_view v = gsl_vector_view_array(w->rhs, nf);

		if (gsl_linalg_cholesky_decomp1(&M.matrix) == GSL_SUCCESS &&
		    gsl_linalg_cholesky_svx(&M.matrix, &v.vector) ==
		        GSL_SUCCESS) {
			for (size_t a = 0; a < nf; a++)
				w->z[w->free_idx[a]] = w->rhs[a];
			return 0;
		}
	}
	return -1;
}

int
sf_boxls_solve(sf_boxls *w, size_t m, size_t k, const double *r0,
               const double *J, size_t ld, const size_t *col,
               const double *lower, const double *upper, double *x)
{
	const size_t max_iter = 10 * k + 20;

	if (k > w->cap)
		return -1;
	/* A = J^T J, b = -J^T r0 */
	for (size_t a = 0; a < k; a++) {
		double s = 0;

		for (size_t i = 0; i < m; i++)
			s -= J[i * ld + col[a]] * r0[i];
		w->b[a] = s;
		for (size_t c = 0; c <= a; c++) {
			double t = 0;

			for (size_t i = 0; i < m; i++)
				t += J[i * ld + col[a]] * J[i * ld + col[c]];
			w->A[a * k + c] = w->A[c * k + a] = t;
		}
	}
	/* Scale to a unit diagonal; a zero column leaves its unknown at the
	 * feasible point nearest 0 (it does not change the residuals). */
	for (size_t a = 0; a < k; a++) {
		if (!(lower[a] <= upper[a]) || !isfinite(w->A[a * k + a]) ||
		    !isfinite(w->b[a]))
			return -1;
		w->d[a] = w->A[a * k + a] > 0 ? 1 / sqrt(w->A[a * k + a]) : 1;
		w->lo[a] = lower[a] / w->d[a];
		w->hi[a] = upper[a] / w->d[a];
		w->y[a] = fmin(fmax(0, w->lo[a]), w->hi[a]);
		w->state[a] = w->A[a * k + a] > 0 && w->lo[a] < w->hi[a]
		                  ? FREE
		                  : AT_LOWER;
	}
	for (size_t a = 0; a < k; a++) {
		w->b[a] *= w->d[a];
		for (size_t c = 0; c < k; c++)
			w->A[a * k + c] *= w->d[a] * w->d[c];
	}
	for (size_t iter = 0; iter < max_iter; iter++) {
		double alpha = 1, worst = 0, tol = 0;
		size_t block = k, release = k;

		if (solve_free(w, k) != 0)
			break;
		for (size_t j = 0; j < k; j++) {
			double step = w->z[j] - w->y[j], a;

			if (w->state[j] != FREE)
				continue;
			if (w->z[j] < w->lo[j])
				a = (w->lo[j] - w->y[j]) / step;
			else if (w->z[j] > w->hi[j])
				a = (w->hi[j] - w->y[j]) / step;
			else
				continue;
			if (a < alpha) {
				alpha = a > 0 ? a : 0;
				block = j;
			}
		}
		if (block < k) {
			/* Move toward z until the first bound, and fix it. */
			for (size_t j = 0; j < k; j++)
				if (w->state[j] == FREE)
					w->y[j] += alpha * (w->z[j] - w->y[j]);
			w->state[block] =
			    w->z[block] < w->lo[block] ? AT_LOWER : AT_UPPER;
			w->y[block] = w->state[block] == AT_LOWER
			                  ? w->lo[block]
			                  : w->hi[block];
			continue;
		}
		for (size_t j = 0; j < k; j++)
			if (w->state[j] == FREE)
				w->y[j] = w->z[j];
		/* Optimal unless a bound's multiplier has the wrong sign:
		 * then free the worst offender. */
		for (size_t j = 0; j < k; j++)
			tol = fmax(tol, fabs(w->b[j]));
		tol *= 1e-12;
		for (size_t j = 0; j < k; j++) {
			double g = -w->b[j], v;

			if (w->state[j] == FREE || !(w->A[j * k + j] > 0) ||
			    !(w->lo[j] < w->hi[j]))
				continue;
			for (size_t c = 0; c < k; c++)
				g += w->A[j * k + c] * w->y[c];
			v = w->state[j] == AT_LOWER ? -g : g;
			if (v > worst) {
				worst = v;
				release = j;
			}
		}
		if (release == k || worst <= tol)
			break;
		w->state[release] = FREE;
	}
	/* A bound is returned exactly, not as d (bound / d). */
	for (size_t a = 0; a < k; a++)
		x[a] = w->state[a] == AT_LOWER && w->A[a * k + a] > 0 ? lower[a]
		       : w->state[a] == AT_UPPER
		           ? upper[a]
		           : fmin(fmax(w->d[a] * w->y[a], lower[a]), upper[a]);
	return 0;
}
