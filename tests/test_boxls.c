/*
 * test_boxls.c - bounded linear least squares: the unconstrained answer
 * against GSL's multifit, Ernest's NNLS answer, active upper bounds, and
 * the KKT conditions on random problems; the Gram form against the rows'
 * form on random boxes and NNLS problems, on degenerate Gram matrices
 * (repeated, zero and overflowing columns) and where the answer is 0.
 */
#include "solve/boxls.h"
#include "base/rng.h"
#include "testing.h"

#include <gsl/gsl_errno.h>
#include <gsl/gsl_multifit.h>
#include <math.h>
#include <string.h>

/* Ernest's Spark RCV1 example: cores, input fraction, seconds. */
static const double ernest[7][3] = {
    {32, 0.125, 7.94516801834},    {4, 0.015625, 4.72029209137},
    {4, 0.021382, 4.87661099434},  {12, 0.050164, 6.71376490593},
    {12, 0.055921, 6.71519398689}, {12, 0.061678, 6.6739718914},
    {16, 0.061678, 6.83566999435},
};

static void
test_unconstrained_matches_gsl(void)
{
	enum { M = 30, K = 3 };
	double J[M * K], r0[M], lo[K], hi[K], x[K];
	size_t col[K] = {0, 1, 2};
	gsl_matrix *X = gsl_matrix_alloc(M, K), *cov = gsl_matrix_alloc(K, K);
	gsl_vector *y = gsl_vector_alloc(M), *c = gsl_vector_alloc(K);
	gsl_multifit_linear_workspace *ws = gsl_multifit_linear_alloc(M, K);
	sf_boxls *w = sf_boxls_alloc(K);
	sf_rng rng;
	double chisq;

	sf_rng_seed(&rng, 7, 1);
	for (size_t i = 0; i < M; i++) {
		double t = (double)i / 3;
		double yi =
		    1 + 0.5 * t - 0.02 * t * t + sf_rng_normal(&rng, 0, 0.1);
		J[i * K] = 1;
		J[i * K + 1] = t;
		J[i * K + 2] = t * t;
		r0[i] = -yi;
		for (size_t j = 0; j < K; j++)
			gsl_matrix_set(X, i, j, J[i * K + j]);
		gsl_vector_set(y, i, yi);
	}
	for (size_t j = 0; j < K; j++) {
		lo[j] = -100;
		hi[j] = 100;
	}
	gsl_multifit_linear(X, y, c, cov, &chisq, ws);
	CU_ASSERT_EQUAL_FATAL(sf_boxls_solve(w, M, K, r0, J, K, col, lo, hi, x),
	                      0);
	for (size_t j = 0; j < K; j++)
		CU_ASSERT(fabs(x[j] - gsl_vector_get(c, j)) <=
		          1e-9 * (1 + fabs(gsl_vector_get(c, j))));
	sf_boxls_free(w);
	gsl_multifit_linear_free(ws);
	gsl_matrix_free(X);
	gsl_matrix_free(cov);
	gsl_vector_free(y);
	gsl_vector_free(c);
}

/* Ernest's own fit is NNLS: theta2 = 0 at its bound. */
static void
test_ernest_nnls(void)
{
	enum { K = 4 };
	double J[7 * K], r0[7], x[K];
	double lo[K] = {0, 0, 0, 0};
	double hi[K] = {INFINITY, INFINITY, INFINITY, INFINITY};
	size_t col[K] = {0, 1, 2, 3};
	sf_boxls *w = sf_boxls_alloc(K);

	for (size_t i = 0; i < 7; i++) {
		double p = ernest[i][0], n = ernest[i][1];
		J[i * K] = 1;
		J[i * K + 1] = n / p;
		J[i * K + 2] = p;
		J[i * K + 3] = log(p);
		r0[i] = -ernest[i][2];
	}
	CU_ASSERT_EQUAL_FATAL(sf_boxls_solve(w, 7, K, r0, J, K, col, lo, hi, x),
	                      0);
	CU_ASSERT(fabs(x[0] - 1.90013) < 1e-5 * 1.9);
	CU_ASSERT(fabs(x[1] - 162.19821) < 1e-5 * 162);
	CU_ASSERT_EQUAL(x[2], 0);
	CU_ASSERT(fabs(x[3] - 1.58832) < 1e-5 * 1.6);
	sf_boxls_free(w);
}

/* y = 2 t, slope boxed to [0, 1]: the answer is the bound; columns taken
 * from a wider matrix through col and ld. */
static void
test_upper_bound_and_stride(void)
{
	double J[5 * 3], r0[5], x[1], lo[1] = {0}, hi[1] = {1};
	size_t col[1] = {2};
	sf_boxls *w = sf_boxls_alloc(1);

	for (size_t i = 0; i < 5; i++) {
		J[i * 3] = NAN; /* columns not asked for are never read */
		J[i * 3 + 1] = NAN;
		J[i * 3 + 2] = (double)i + 1;
		r0[i] = -2 * ((double)i + 1);
	}
	CU_ASSERT_EQUAL(sf_boxls_solve(w, 5, 1, r0, J, 3, col, lo, hi, x), 0);
	CU_ASSERT_EQUAL(x[0], 1);
	lo[0] = 3;
	hi[0] = 2;
	CU_ASSERT_EQUAL(sf_boxls_solve(w, 5, 1, r0, J, 3, col, lo, hi, x), -1);
	sf_boxls_free(w);
}

/* Random boxed problems of 1-6 unknowns (those summed in registers and
 * those summed in the workspace): the answer is feasible and satisfies
 * the KKT conditions (zero gradient where free, the right sign at a
 * bound). */
static void
test_kkt_random(void)
{
	enum { M = 12, KMAX = 6, PROBLEMS = 300 };
	double J[M * KMAX], r0[M], lo[KMAX], hi[KMAX], x[KMAX];
	size_t col[KMAX] = {0, 1, 2, 3, 4, 5};
	sf_boxls *w = sf_boxls_alloc(KMAX);
	sf_rng rng;

	sf_rng_seed(&rng, 2026, 11);
	for (size_t K = 1; K <= KMAX; K++) {
		size_t at_bounds = 0;

		for (int p = 0; p < PROBLEMS; p++) {
			double scale = 0;

			for (size_t i = 0; i < M * K; i++)
				J[i] = sf_rng_normal(&rng, 0, 1);
			for (size_t i = 0; i < M; i++)
				r0[i] = sf_rng_normal(&rng, 0, 3);
			for (size_t j = 0; j < K; j++) {
				lo[j] = -sf_rng_uniform(&rng);
				hi[j] = sf_rng_uniform(&rng);
			}
			CU_ASSERT_EQUAL_FATAL(
			    sf_boxls_solve(w, M, K, r0, J, K, col, lo, hi, x),
			    0);
			for (size_t i = 0; i < M; i++)
				scale = fmax(scale, fabs(r0[i]));
			for (size_t j = 0; j < K; j++) {
				double g = 0; /* d/dx_j of ||r0 + J x||^2 / 2 */

				CU_ASSERT(x[j] >= lo[j] && x[j] <= hi[j]);
				for (size_t i = 0; i < M; i++) {
					double r = r0[i];
					for (size_t c = 0; c < K; c++)
						r += J[i * K + c] * x[c];
					g += J[i * K + j] * r;
				}
				if (x[j] == lo[j]) {
					CU_ASSERT(g >= -1e-9 * scale);
					at_bounds++;
				} else if (x[j] == hi[j]) {
					CU_ASSERT(g <= 1e-9 * scale);
					at_bounds++;
				} else {
					CU_ASSERT(fabs(g) <= 1e-9 * scale * M);
				}
			}
		}
		/* the boxes are tight enough that many answers sit on
		 * them */
		CU_ASSERT(at_bounds > PROBLEMS * K / 2);
	}
	sf_boxls_free(w);
}

/* Every count of unknowns gives the answer of the same problem laid out
 * as some columns of a wider matrix: 1-4 are summed in registers, more in
 * the workspace, and the sums are the same bits either way. */
static void
test_layouts(void)
{
	enum { M = 9, W = 8 };
	double wide[M * W], r0[M];
	sf_boxls *w = sf_boxls_alloc(W);
	sf_rng rng;

	sf_rng_seed(&rng, 2026, 27);
	for (size_t i = 0; i < M * W; i++)
		wide[i] = sf_rng_normal(&rng, 0, 1);
	for (size_t i = 0; i < M; i++)
		r0[i] = sf_rng_normal(&rng, 0, 3);
	for (size_t k = 1; k <= 6; k++) {
		/* columns k..2k-1 of wide (reversed), and the same packed */
		double packed[M * W], x_wide[W], x_packed[W], l[W], h[W];
		size_t col[W];

		for (size_t a = 0; a < k; a++) {
			col[a] = 2 * k - 1 - a < W ? 2 * k - 1 - a : a;
			l[a] = -sf_rng_uniform(&rng);
			h[a] = sf_rng_uniform(&rng);
			for (size_t i = 0; i < M; i++)
				packed[i * k + a] = wide[i * W + col[a]];
		}
		CU_ASSERT_EQUAL_FATAL(
		    sf_boxls_solve(w, M, k, r0, wide, W, col, l, h, x_wide), 0);
		CU_ASSERT_EQUAL_FATAL(sf_boxls_solve(w, M, k, r0, packed, k,
		                                     NULL, l, h, x_packed),
		                      0);
		CU_ASSERT(memcmp(x_wide, x_packed, k * sizeof *x_wide) == 0);
	}
	sf_boxls_free(w);
}

/* G = J^T J (stride ldg) and h = -J^T r0 of m rows, k columns. */
static void
gram_of(size_t m, size_t k, const double *J, const double *r0, double *G,
        size_t ldg, double *h)
{
	for (size_t a = 0; a < k; a++) {
		h[a] = 0;
		for (size_t i = 0; i < m; i++)
			h[a] -= J[i * k + a] * r0[i];
		for (size_t c = 0; c < k; c++) {
			G[a * ldg + c] = 0;
			for (size_t i = 0; i < m; i++)
				G[a * ldg + c] += J[i * k + a] * J[i * k + c];
		}
	}
}

/* ||r0 + J x||^2 */
static double
loss_of(size_t m, size_t k, const double *J, const double *r0, const double *x)
{
	double sum = 0;

	for (size_t i = 0; i < m; i++) {
		double r = r0[i];
		for (size_t c = 0; c < k; c++)
			r += J[i * k + c] * x[c];
		sum += r * r;
	}
	return sum;
}

/* Random problems, boxed and NNLS (NULL bounds): the Gram form's answer
 * is the rows' form's, up to rounding, bounds exactly. */
static void
test_gram_matches_rows(void)
{
	enum { M = 15, K = 5, LDG = 7, PROBLEMS = 400 };
	double J[M * K], r0[M], lo[K], hi[K], x[K], xg[K], G[K * LDG], h[K];
	size_t col[K] = {0, 1, 2, 3, 4}, at_bounds = 0;
	sf_boxls *w = sf_boxls_alloc(K), *wg = sf_boxls_alloc(K);
	sf_rng rng;

	sf_rng_seed(&rng, 2026, 12);
	for (int p = 0; p < PROBLEMS; p++) {
		int nnls = p % 2;

		for (size_t i = 0; i < M * K; i++)
			J[i] = nnls ? sf_rng_uniform(&rng)
			            : sf_rng_normal(&rng, 0, 1);
		for (size_t i = 0; i < M; i++)
			r0[i] = sf_rng_normal(&rng, 0, 3);
		for (size_t j = 0; j < K; j++) {
			lo[j] = nnls ? 0 : -sf_rng_uniform(&rng);
			hi[j] = nnls ? INFINITY : sf_rng_uniform(&rng);
		}
		gram_of(M, K, J, r0, G, LDG, h);
		CU_ASSERT_EQUAL_FATAL(
		    sf_boxls_solve(w, M, K, r0, J, K, col, lo, hi, x), 0);
		CU_ASSERT_EQUAL_FATAL(sf_boxls_solve_gram(wg, K, G, LDG, h, 0,
		                                          nnls ? NULL : lo,
		                                          nnls ? NULL : hi, xg),
		                      0);
		for (size_t j = 0; j < K; j++) {
			CU_ASSERT(fabs(x[j] - xg[j]) <=
			          1e-9 * (1 + fabs(x[j])));
			CU_ASSERT(xg[j] >= lo[j] && xg[j] <= hi[j]);
			if (x[j] == lo[j] || x[j] == hi[j]) {
				CU_ASSERT_EQUAL(x[j], xg[j]);
				at_bounds++;
			}
		}
	}
	CU_ASSERT(at_bounds > PROBLEMS);
	sf_boxls_free(w);
	sf_boxls_free(wg);
}

/* Degenerate Gram matrices: a repeated column (singular G: the ridge
 * makes the answer unique and it fits as well as any), a zero column and
 * one whose diagonal overflows (held at 0), too many unknowns and an
 * empty box (-1). */
static void
test_gram_degenerate(void)
{
	enum { M = 10, K = 3 };
	double J[M * K], r0[M], G[K * K], h[K], x[K];
	double lo[K] = {0, 0, 0}, hi[K] = {1, 1, -1};
	sf_boxls *w = sf_boxls_alloc(K), *w2 = sf_boxls_alloc(2);

	/* columns t, t (again) and 1; y = 3 t + 1 */
	for (size_t i = 0; i < M; i++) {
		double t = (double)i + 1;
		J[i * K] = J[i * K + 1] = t;
		J[i * K + 2] = 1;
		r0[i] = -(3 * t + 1);
	}
	gram_of(M, K, J, r0, G, K, h);
	CU_ASSERT_EQUAL_FATAL(
	    sf_boxls_solve_gram(w, K, G, K, h, 1e-10, NULL, NULL, x), 0);
	CU_ASSERT(fabs(x[0] + x[1] - 3) < 1e-6);
	CU_ASSERT(fabs(x[0] - x[1]) < 1e-6); /* the ridge splits it evenly */
	CU_ASSERT(fabs(x[2] - 1) < 1e-6);
	CU_ASSERT(loss_of(M, K, J, r0, x) < 1e-9);

	/* the repeated column zero instead: its unknown stays 0 */
	for (size_t i = 0; i < M; i++)
		J[i * K + 1] = 0;
	gram_of(M, K, J, r0, G, K, h);
	CU_ASSERT_EQUAL_FATAL(
	    sf_boxls_solve_gram(w, K, G, K, h, 1e-10, NULL, NULL, x), 0);
	CU_ASSERT_EQUAL(x[1], 0);
	CU_ASSERT(fabs(x[0] - 3) < 1e-6 && fabs(x[2] - 1) < 1e-6);

	/* its diagonal overflowing: held at 0, the others still fitted */
	G[1 * K + 1] = INFINITY;
	CU_ASSERT_EQUAL_FATAL(
	    sf_boxls_solve_gram(w, K, G, K, h, 1e-10, NULL, NULL, x), 0);
	CU_ASSERT_EQUAL(x[1], 0);
	CU_ASSERT(fabs(x[0] - 3) < 1e-6 && fabs(x[2] - 1) < 1e-6);

	/* more unknowns than the workspace; an empty box */
	CU_ASSERT_EQUAL(sf_boxls_solve_gram(w2, K, G, K, h, 0, NULL, NULL, x),
	                -1);
	CU_ASSERT_EQUAL(sf_boxls_solve_gram(w, K, G, K, h, 0, lo, hi, x), -1);
	sf_boxls_free(w);
	sf_boxls_free(w2);
}

/* Every column pointing away from y: NNLS answers exactly 0, however
 * the active set gets there; and a single column at its upper bound. */
static void
test_gram_zero_answer(void)
{
	enum { M = 8, K = 4 };
	double J[M * K], r0[M], G[K * K], h[K], x[K];
	double lo[1] = {0}, hi[1] = {0.5};
	sf_boxls *w = sf_boxls_alloc(K);
	sf_rng rng;

	sf_rng_seed(&rng, 7, 3);
	for (int p = 0; p < 50; p++) {
		for (size_t i = 0; i < M * K; i++)
			J[i] = sf_rng_uniform(&rng);
		for (size_t i = 0; i < M; i++)
			r0[i] = 1 + sf_rng_uniform(&rng); /* y < 0 */
		gram_of(M, K, J, r0, G, K, h);
		CU_ASSERT_EQUAL_FATAL(
		    sf_boxls_solve_gram(w, K, G, K, h, 1e-10, NULL, NULL, x),
		    0);
		for (size_t j = 0; j < K; j++)
			CU_ASSERT(x[j] == 0 && !signbit(x[j]));
	}
	/* y = t, x boxed to [0, 0.5]: the bound */
	for (size_t i = 0; i < M; i++) {
		J[i] = (double)i;
		r0[i] = -(double)i;
	}
	gram_of(M, 1, J, r0, G, 1, h);
	CU_ASSERT_EQUAL(sf_boxls_solve_gram(w, 1, G, 1, h, 0, lo, hi, x), 0);
	CU_ASSERT_EQUAL(x[0], 0.5);
	sf_boxls_free(w);
}

int
main(void)
{
	CU_TestInfo tests[] = {
	    {"wide bounds: GSL's multifit answer",
	     test_unconstrained_matches_gsl},
	    {"NNLS: Ernest's answer, theta2 at 0", test_ernest_nnls},
	    {"an upper bound, strided columns, empty box",
	     test_upper_bound_and_stride},
	    {"300 random boxes of each 1-6 unknowns: feasible, KKT",
	     test_kkt_random},
	    {"a packed J without col: the answer of the same columns of a "
	     "wider one",
	     test_layouts},
	    {"Gram form: the rows' answer on 400 random problems",
	     test_gram_matches_rows},
	    {"Gram form: repeated, zero, overflowing columns",
	     test_gram_degenerate},
	    {"Gram form: an all-zero answer, an upper bound",
	     test_gram_zero_answer},
	    CU_TEST_INFO_NULL,
	};
	CU_SuiteInfo suites[] = {
	    {"boxls", NULL, NULL, NULL, NULL, tests},
	    CU_SUITE_INFO_NULL,
	};

	gsl_set_error_handler_off();
	return sf_test_main(suites);
}
