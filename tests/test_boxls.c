/*
 * test_boxls.c - bounded linear least squares: the unconstrained answer
 * against GSL's multifit, Ernest's NNLS answer, active upper bounds, and
 * the KKT conditions on random problems.
 */
#include "solve/boxls.h"
#include "base/rng.h"
#include "testing.h"

#include <gsl/gsl_errno.h>
#include <gsl/gsl_multifit.h>
#include <math.h>

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

/* Random boxed problems: the answer is feasible and satisfies the KKT
 * conditions (zero gradient where free, the right sign at a bound). */
static void
test_kkt_random(void)
{
	enum { M = 12, K = 5, PROBLEMS = 300 };
	double J[M * K], r0[M], lo[K], hi[K], x[K];
	size_t col[K] = {0, 1, 2, 3, 4}, at_bounds = 0;
	sf_boxls *w = sf_boxls_alloc(K);
	sf_rng rng;

	sf_rng_seed(&rng, 2026, 11);
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
		    sf_boxls_solve(w, M, K, r0, J, K, col, lo, hi, x), 0);
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
	/* the boxes are tight enough that many answers sit on them */
	CU_ASSERT(at_bounds > PROBLEMS);
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
	    {"300 random boxes: feasible, KKT", test_kkt_random},
	    CU_TEST_INFO_NULL,
	};
	CU_SuiteInfo suites[] = {
	    {"boxls", NULL, NULL, NULL, NULL, tests},
	    CU_SUITE_INFO_NULL,
	};

	gsl_set_error_handler_off();
	return sf_test_main(suites);
}
