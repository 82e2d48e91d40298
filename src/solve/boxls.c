/*
 * boxls.c - bounded linear least squares by a primal active-set method
 * on the scaled normal equations, given by the rows or by their Gram
 * matrix (boxls.h).
 */
#include "solve/boxls.h"

#include <gsl/gsl_errno.h>
#include <gsl/gsl_linalg.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

enum { FREE = 0, AT_LOWER, AT_UPPER };

/* Unknowns whose normal equations are summed in registers together. */
enum { BLOCK = 4 };

struct sf_boxls {
	size_t cap;
	double *A, *b;    /* scaled normal equations, k x k */
	double *d;        /* column scales: x = d y */
	double *lo, *hi;  /* bounds of y */
	double *y, *z;    /* the iterate and the free subproblem's answer */
	double *M, *rhs;  /* the free subsystem */
	size_t *free_idx; /* k free unknowns, then k fixed ones */
	size_t *col;      /* J's column of each unknown */
	int *state;
};

/* A bound's multiplier (relative to the largest |b|) below which the
 * bound is kept: what is left is rounding. */
static const double release_tol = 1e-13;

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
	free(w->col);
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
	w->free_idx = malloc(2 * n * sizeof *w->free_idx);
	w->col = malloc(n * sizeof *w->col);
	w->state = malloc(n * sizeof *w->state);
	if (w->A == NULL || w->M == NULL || w->b == NULL || w->d == NULL ||
	    w->lo == NULL || w->hi == NULL || w->y == NULL || w->z == NULL ||
	    w->rhs == NULL || w->free_idx == NULL || w->col == NULL ||
	    w->state == NULL) {
		sf_boxls_free(w);
		return NULL;
	}
	return w;
}

/* ---- the free subsystem ------------------------------------------------ */

/*
 * Factorise the free unknowns' block of A (free_idx[0..nf)), extra added
 * to its diagonal, and solve it for rhs in place: 0, or -1 when the block
 * is not positive definite.
 */
typedef int (*factor_fn)(sf_boxls *w, size_t k, size_t nf, double extra);

/* By GSL's Cholesky on a copy of the block, as the rows' form always
 * has. */
static inline int
cholesky_gsl(sf_boxls *w, size_t k, size_t nf, double extra)
{
	gsl_matrix_view m = gsl_matrix_view_array(w->M, nf, nf);
	gsl_vector_view v = gsl_vector_view_array(w->rhs, nf);

	for (size_t a = 0; a < nf; a++) {
		const double *Ai = w->A + w->free_idx[a] * k;
		for (size_t c = 0; c < nf; c++)
			w->M[a * nf + c] =
			    Ai[w->free_idx[c]] + (a == c ? extra : 0);
	}
	return gsl_linalg_cholesky_decomp1(&m.matrix) == GSL_SUCCESS &&
	               gsl_linalg_cholesky_svx(&m.matrix, &v.vector) ==
	                   GSL_SUCCESS
	           ? 0
	           : -1;
}

/* The same written out, L row by row into M straight from A's block: no
 * calls and no copy for the Gram form's few unknowns, solved on
 * discover's hot path. */
static inline int
cholesky_inline(sf_boxls *w, size_t k, size_t nf, double extra)
{
	const size_t *idx = w->free_idx;
	double *L = w->M, *t = w->rhs;

	for (size_t r = 0; r < nf; r++) {
		const double *Ar = w->A + idx[r] * k;
		double *Lr = L + r * nf;

		for (size_t c = 0; c < r; c++) {
			const double *Lc = L + c * nf;
			double sum = Ar[idx[c]];
			for (size_t q = 0; q < c; q++)
				sum -= Lr[q] * Lc[q];
			Lr[c] = sum / Lc[c];
		}
		{
			double sum = Ar[idx[r]] + extra;
			for (size_t q = 0; q < r; q++)
				sum -= Lr[q] * Lr[q];
			if (!(sum > 0))
				return -1;
			Lr[r] = sqrt(sum);
		}
	}
	for (size_t r = 0; r < nf; r++) {
		const double *Lr = L + r * nf;
		double sum = t[r];
		for (size_t q = 0; q < r; q++)
			sum -= Lr[q] * t[q];
		t[r] = sum / Lr[r];
	}
	for (size_t r = nf; r-- > 0;) {
		double sum = t[r];
		for (size_t q = r + 1; q < nf; q++)
			sum -= L[q * nf + r] * t[q];
		t[r] = sum / L[r * nf + r];
	}
	return 0;
}

/* Solve the free variables' subsystem for z (others held at y).  Returns
 * 0, or -1 when even a regularised factorisation fails. */
static inline int
solve_free(sf_boxls *w, size_t k, factor_fn factor)
{
	size_t nf = 0, nx = 0, *fixed = w->free_idx + k;

	for (size_t j = 0; j < k; j++)
		if (w->state[j] == FREE)
			w->free_idx[nf++] = j;
		else
			fixed[nx++] = j;
	if (nf == 0)
		return 0;
	/* Singular subsystems (a column that repeats another) get a small
	 * ridge: the scaled diagonal is 1, so 1e-10 is relative. */
	for (int attempt = 0; attempt < 2; attempt++) {
		for (size_t a = 0; a < nf; a++) {
			const double *Ai = w->A + w->free_idx[a] * k;
			double s = w->b[w->free_idx[a]];

			for (size_t q = 0; q < nx; q++)
				s -= Ai[fixed[q]] * w->y[fixed[q]];
			w->rhs[a] = s;
		}
		if (factor(w, k, nf, attempt > 0 ? 1e-10 : 0) == 0) {
			for (size_t a = 0; a < nf; a++)
				w->z[w->free_idx[a]] = w->rhs[a];
			return 0;
		}
	}
	return -1;
}

/* ---- the active-set method --------------------------------------------- */

/* The bounds of y = x / d (lower NULL: 0; upper NULL: +inf), the start at
 * the feasible point nearest 0, every unknown with a column and room to
 * move free.  Returns 0, or -1 when a box is empty. */
static inline int
start(sf_boxls *w, size_t k, const double *lower, const double *upper)
{
	if (lower == NULL && upper == NULL) { /* NNLS */
		for (size_t a = 0; a < k; a++) {
			w->lo[a] = w->y[a] = 0;
			w->hi[a] = INFINITY;
			w->state[a] = w->A[a * k + a] > 0 ? FREE : AT_LOWER;
		}
		return 0;
	}
	for (size_t a = 0; a < k; a++) {
		double l = lower != NULL ? lower[a] : 0;
		double u = upper != NULL ? upper[a] : INFINITY;

		if (!(l <= u))
			return -1;
		w->lo[a] = lower != NULL ? l / w->d[a] : 0;
		w->hi[a] = upper != NULL ? u / w->d[a] : INFINITY;
		w->y[a] = lower != NULL ? fmin(fmax(0, w->lo[a]), w->hi[a]) : 0;
		w->state[a] = w->A[a * k + a] > 0 && w->lo[a] < w->hi[a]
		                  ? FREE
		                  : AT_LOWER;
	}
	return 0;
}

/* Move y toward z until the first free unknown reaches a bound, and fix
 * it there; 0 when z is feasible and nothing moved. */
static inline int
block(sf_boxls *w, size_t k)
{
	double alpha = 1;
	size_t hit = k;

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
			hit = j;
		}
	}
	if (hit == k)
		return 0;
	for (size_t j = 0; j < k; j++)
		if (w->state[j] == FREE)
			w->y[j] += alpha * (w->z[j] - w->y[j]);
	w->state[hit] = w->z[hit] < w->lo[hit] ? AT_LOWER : AT_UPPER;
	w->y[hit] = w->state[hit] == AT_LOWER ? w->lo[hit] : w->hi[hit];
	return 1;
}

/* The fixed unknown whose bound's multiplier has the wrong sign by the
 * most, beyond tol; k when none. */
static inline size_t
release(const sf_boxls *w, size_t k, double tol)
{
	double worst = 0;
	size_t which = k;

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
			which = j;
		}
	}
	return worst > tol ? which : k;
}

/*
 * The primal active-set method (Nocedal & Wright, 16.5) on the scaled
 * system in w from the start: solve the free unknowns' subsystem; step
 * toward its answer until a bound blocks (fix that unknown), or take it
 * and free the fixed unknown whose multiplier has the wrong sign by the
 * most, until none has.  With bounds [0, inf) and every unknown free at
 * the start, the first solve is the unconstrained answer, which most
 * fits take as it is; otherwise the answer is the one Lawson and
 * Hanson's NNLS reaches from the other end (every unknown at 0): the
 * free set at the optimum is the same, and so is its last solve.
 */
static inline void
active_set(sf_boxls *w, size_t k, factor_fn factor)
{
	const size_t max_iter = 10 * k + 20;
	double scale = 0;

	for (size_t j = 0; j < k; j++) /* fmax, without a call */
		scale = fabs(w->b[j]) > scale ? fabs(w->b[j]) : scale;
	for (size_t iter = 0; iter < max_iter; iter++) {
		size_t j;

		if (solve_free(w, k, factor) != 0)
			break;
		if (block(w, k))
			continue;
		for (j = 0; j < k; j++)
			if (w->state[j] == FREE)
				w->y[j] = w->z[j];
		if ((j = release(w, k, release_tol * scale)) == k)
			break;
		w->state[j] = FREE;
	}
}

/* x from y: a bound exactly, not as d (bound / d). */
static inline void
answer(const sf_boxls *w, size_t k, const double *lower, const double *upper,
       double *x)
{
	if (lower == NULL && upper == NULL) { /* NNLS: at 0, or free */
		for (size_t a = 0; a < k; a++) {
			double v = w->d[a] * w->y[a];
			x[a] = w->state[a] == AT_LOWER || !(v >= 0) ? 0 : v;
		}
		return;
	}
	for (size_t a = 0; a < k; a++) {
		double l = lower != NULL ? lower[a] : 0;
		double u = upper != NULL ? upper[a] : INFINITY;

		x[a] = w->state[a] == AT_LOWER && w->A[a * k + a] > 0 ? l
		       : w->state[a] == AT_UPPER
		           ? u
		           : fmin(fmax(w->d[a] * w->y[a], l), u);
	}
}

/* ---- the normal equations from the rows --------------------------------
 *
 * A = J^T J and b = -J^T r0 in blocks of up to 4 unknowns, each block's
 * sums in registers through one pass over the rows.  Every sum adds its
 * rows in row order, from 0, as one pass per sum would: the same bits
 * whatever the blocking.
 */

/* For K (a constant where inlined) columns c[0..K): sb[a] = -sum J_a r0
 * and sA[a (a + 1) / 2 + e] = sum J_a J_e for e <= a. */
static inline void
diagonal_sums(size_t m, size_t K, const double *J, size_t ld, const size_t *c,
              const double *r0, double *restrict sb, double *restrict sA)
{
	double b[BLOCK] = {0}, A[BLOCK * (BLOCK + 1) / 2] = {0};

	for (size_t i = 0; i < m; i++) {
		const double *row = J + i * ld, r = r0[i];
		double v[BLOCK];

#pragma GCC unroll 4
		for (size_t a = 0; a < K; a++)
			v[a] = row[c[a]];
#pragma GCC unroll 4
		for (size_t a = 0; a < K; a++) {
			b[a] -= v[a] * r;
#pragma GCC unroll 4
			for (size_t e = 0; e <= a; e++)
				A[a * (a + 1) / 2 + e] += v[a] * v[e];
		}
	}
	for (size_t a = 0; a < K; a++) {
		sb[a] = b[a];
		for (size_t e = 0; e <= a; e++)
			sA[a * (a + 1) / 2 + e] = A[a * (a + 1) / 2 + e];
	}
}

/* s[a * 4 + e] = sum J_{c[a]} J_{d[e]}, four columns by four. */
static void
cross_sums(size_t m, const double *J, size_t ld, const size_t *c,
           const size_t *d, double *restrict s)
{
	double A[BLOCK * BLOCK] = {0};

	for (size_t i = 0; i < m; i++) {
		const double *row = J + i * ld;
		double u[BLOCK], v[BLOCK];

#pragma GCC unroll 4
		for (size_t a = 0; a < BLOCK; a++) {
			u[a] = row[c[a]];
			v[a] = row[d[a]];
		}
#pragma GCC unroll 4
		for (size_t a = 0; a < BLOCK; a++)
#pragma GCC unroll 4
			for (size_t e = 0; e < BLOCK; e++)
				A[a * BLOCK + e] += u[a] * v[e];
	}
	memcpy(s, A, sizeof A);
}

/* The K unknowns from a0 on (K <= 4, a constant where inlined): their
 * b and their block of A, in w. */
static inline void
diagonal_block(sf_boxls *w, size_t k, size_t a0, size_t K, size_t m,
               const double *J, size_t ld, const double *r0)
{
	double sb[BLOCK], sA[BLOCK * (BLOCK + 1) / 2];

	diagonal_sums(m, K, J, ld, w->col + a0, r0, sb, sA);
	for (size_t a = 0; a < K; a++) {
		w->b[a0 + a] = sb[a];
		for (size_t e = 0; e <= a; e++)
			w->A[(a0 + a) * k + a0 + e] =
			    w->A[(a0 + e) * k + a0 + a] =
			        sA[a * (a + 1) / 2 + e];
	}
}

/* w's A and b from J's rows (the columns col lists, or the first k). */
static void
normal_equations(sf_boxls *w, size_t m, size_t k, const double *r0,
                 const double *J, size_t ld, const size_t *col)
{
	size_t full = k / BLOCK * BLOCK;

	for (size_t a = 0; a < k; a++)
		w->col[a] = col != NULL ? col[a] : a;
	for (size_t a0 = 0; a0 < full; a0 += BLOCK) {
		diagonal_block(w, k, a0, BLOCK, m, J, ld, r0);
		for (size_t e0 = 0; e0 < a0; e0 += BLOCK) {
			double s[BLOCK * BLOCK];

			cross_sums(m, J, ld, w->col + a0, w->col + e0, s);
			for (size_t a = 0; a < BLOCK; a++)
				for (size_t e = 0; e < BLOCK; e++)
					w->A[(a0 + a) * k + e0 + e] =
					    w->A[(e0 + e) * k + a0 + a] =
					        s[a * BLOCK + e];
		}
	}
	/* The last k mod 4 unknowns: their own block, and their products
	 * with the full blocks' columns a sum per pass. */
	switch (k - full) {
	case 1:
		diagonal_block(w, k, full, 1, m, J, ld, r0);
		break;
	case 2:
		diagonal_block(w, k, full, 2, m, J, ld, r0);
		break;
	case 3:
		diagonal_block(w, k, full, 3, m, J, ld, r0);
		break;
	default:
		break;
	}
	for (size_t a = full; a < k; a++)
		for (size_t e = 0; e < full; e++) {
			const size_t ca = w->col[a], ce = w->col[e];
			double t = 0;

			for (size_t i = 0; i < m; i++)
				t += J[i * ld + ca] * J[i * ld + ce];
			w->A[a * k + e] = w->A[e * k + a] = t;
		}
}

/* ---- the two forms ----------------------------------------------------- */

int
sf_boxls_solve(sf_boxls *w, size_t m, size_t k, const double *r0,
               const double *J, size_t ld, const size_t *col,
               const double *lower, const double *upper, double *x)
{
	if (k > w->cap)
		return -1;
	normal_equations(w, m, k, r0, J, ld, col);
	/* Scale to a unit diagonal; a zero column leaves its unknown at the
	 * feasible point nearest 0 (it does not change the residuals). */
	for (size_t a = 0; a < k; a++) {
		if (!isfinite(w->A[a * k + a]) || !isfinite(w->b[a]))
			return -1;
		w->d[a] = w->A[a * k + a] > 0 ? 1 / sqrt(w->A[a * k + a]) : 1;
	}
	for (size_t a = 0; a < k; a++) {
		w->b[a] *= w->d[a];
		for (size_t c = 0; c < k; c++)
			w->A[a * k + c] *= w->d[a] * w->d[c];
	}
	if (start(w, k, lower, upper) != 0)
		return -1;
	active_set(w, k, cholesky_gsl);
	answer(w, k, lower, upper, x);
	return 0;
}

int
sf_boxls_solve_gram(sf_boxls *w, size_t k, const double *G, size_t ldg,
                    const double *h, double ridge, const double *lower,
                    const double *upper, double *x)
{
	size_t missing = 0;

	if (k > w->cap)
		return -1;
	/* Scale to a unit diagonal, the ridge on it; a column that is zero
	 * (or not finite) on the rows is left out, its unknown held at the
	 * feasible point nearest 0. */
	for (size_t a = 0; a < k; a++) {
		double gaa = G[a * ldg + a];

		w->d[a] = gaa > 0 && isfinite(gaa) ? 1 / sqrt(gaa) : 0;
		w->b[a] = h[a] * w->d[a];
		missing += w->d[a] == 0;
	}
	for (size_t a = 0; a < k; a++)
		for (size_t c = 0; c < k; c++)
			w->A[a * k + c] = G[a * ldg + c] * w->d[a] * w->d[c] +
			                  (a == c ? ridge : 0);
	for (size_t a = 0; missing > 0 && a < k; a++) {
		if (w->d[a] > 0)
			continue;
		for (size_t c = 0; c < k; c++)
			w->A[a * k + c] = w->A[c * k + a] = 0;
		w->b[a] = 0;
		w->d[a] = 1;
	}
	if (start(w, k, lower, upper) != 0)
		return -1;
	active_set(w, k, cholesky_inline);
	answer(w, k, lower, upper, x);
	return 0;
}
