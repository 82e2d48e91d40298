/*
 * test_cost.c - the cost a fit minimises (fit/cost.[ch]), against hand
 * computations on four rows (tests/data/cost/rows.csv):
 *
 *   x = 1, 2, 3, 4    y = 2, 4, 4, 8    time = a + b x
 *   a in [-4, 2], b in [0, 8]: the penalty divides a by 4 and b by 8.
 *
 * At theta = (1, 1) the predictions are f = 2, 3, 4, 5, so f - y = 0, -1,
 * 0, -3 and the relative errors u = (f - y) / y = 0, -1/4, 0, -3/8; with the
 * weights w = 1, 2, 1/2, 4 every loss below is a sum of dyadic fractions,
 * exact in doubles whatever the order of the sum.  The line's least-squares
 * fit is a = 0, b = 9/5 (xbar = 5/2, ybar = 9/2, Sxx = 5, Sxy = 9).
 *
 * A generated table of 2500 rows (x = i, y = 1) crosses the cost's
 * 1024-row chunks: at theta = (1, 2^-10), f - y = i / 1024, so the sse is
 * sum i^2 / 2^20 = 5211458750 / 2^20 and the absolute loss 3126250 / 2^10,
 * both exact.  It also serves the thread-count determinism checks.
 */
#include "fit/cost.h"
#include "base/rng.h"
#include "input/csv.h"
#include "input/dataset.h"
#include "input/formula.h"
#include "input/model.h"
#include "testing.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define AB "  a: {min: -4, max: 2}\n  b: {min: 0, max: 8}\n"

static const double weights[4] = {1, 2, 0.5, 4};

/* |x - want| within rel of |want| (exactly equal when rel is 0). */
static int
close_to(double x, double want, double rel)
{
	if (rel == 0)
		return x == want;
	return fabs(x - want) <= rel * fabs(want);
}

/* Four rows, formula time over the parameters params (YAML lines). */
static int
rows_open(sf_test_problem *fx, const char *time, const char *params)
{
	char yaml[1024];

	snprintf(yaml, sizeof yaml,
	         "name: cost\n"
	         "data: {file: rows.csv, output: y}\n"
	         "inputs: {x: x}\n"
	         "parameters:\n%s"
	         "time: %s\n"
	         "fit: {loss: sse}\n",
	         params, time);
	return sf_test_problem_parse(fx, "cost/model.yaml", yaml);
}

static sf_cost_settings
settings(sf_loss loss, double delta, sf_penalty penalty, double lambda)
{
	sf_cost_settings s;

	memset(&s, 0, sizeof s);
	s.loss = loss;
	s.huber_delta = delta;
	s.penalty = penalty;
	s.lambda = lambda;
	s.threads = 1;
	return s;
}

static sf_cost *
cost_new(const sf_test_problem *fx, const double *w, sf_cost_settings s)
{
	sf_error err;
	sf_cost *c = sf_cost_alloc(fx->p.formula, fx->p.data, w, &s, &err);

	if (c == NULL)
		fprintf(stderr, "sf_cost_alloc: %s\n", err.message);
	return c;
}

/* ---- losses and penalties ----------------------------------------------- */

static void
test_losses(void)
{
	/* ln(3/4)^2 and ln(5/8)^2: rows 2 and 4 of the log loss. */
	const double l2 = log(3.0 / 4) * log(3.0 / 4);
	const double l4 = log(5.0 / 8) * log(5.0 / 8);
	const struct {
		sf_loss loss;
		double delta;
		int weighted;
		double want, rel;
	} cases[] = {
	    /* sum (f - y)^2 = 1 + 9; weighted 2 * 1 + 4 * 9 */
	    {SF_LOSS_SSE, 0, 0, 10, 0},
	    {SF_LOSS_SSE, 0, 1, 38, 0},
	    /* sum u^2 = 1/16 + 9/64; weighted 2/16 + 4 * 9/64 */
	    {SF_LOSS_RELATIVE, 0, 0, 13.0 / 64, 0},
	    {SF_LOSS_RELATIVE, 0, 1, 44.0 / 64, 0},
	    /* sum |f - y| = 1 + 3; weighted 2 * 1 + 4 * 3 */
	    {SF_LOSS_ABSOLUTE, 0, 0, 4, 0},
	    {SF_LOSS_ABSOLUTE, 0, 1, 14, 0},
	    /* delta 1/2: both errors quadratic, as relative */
	    {SF_LOSS_HUBER, 0.5, 0, 13.0 / 64, 0},
	    /* delta 1/4: |u| = 1/4 is still quadratic (1/16), 3/8 is
	     * linear: 2 (1/4)(3/8) - 1/16 = 1/8 */
	    {SF_LOSS_HUBER, 0.25, 0, 4.0 / 64 + 8.0 / 64, 0},
	    {SF_LOSS_HUBER, 0.25, 1, 2 * 4.0 / 64 + 4 * 8.0 / 64, 0},
	    /* delta 1/8: 2 (1/8)(1/4) - 1/64 = 3/64, 2 (1/8)(3/8) - 1/64 =
	     * 5/64 */
	    {SF_LOSS_HUBER, 0.125, 0, 3.0 / 64 + 5.0 / 64, 0},
	    {SF_LOSS_HUBER, 0.125, 1, 2 * 3.0 / 64 + 4 * 5.0 / 64, 0},
	    /* sum ln(f / y)^2 */
	    {SF_LOSS_LOG, 0, 0, l2 + l4, 1e-15},
	    {SF_LOSS_LOG, 0, 1, 2 * l2 + 4 * l4, 1e-15},
	};
	const double theta[2] = {1, 1};
	sf_test_problem fx;

	CU_ASSERT_FATAL(rows_open(&fx, "a + b * x", AB) == 0);
	for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
		sf_cost *c = cost_new(&fx, cases[k].weighted ? weights : NULL,
		                      settings(cases[k].loss, cases[k].delta,
		                               SF_PENALTY_NONE, 0));
		double loss, total;

		CU_ASSERT_PTR_NOT_NULL_FATAL(c);
		loss = sf_cost_loss(c, theta, 0);
		total = sf_cost_total(c, theta, 0);
		if (!close_to(loss, cases[k].want, cases[k].rel))
			fprintf(stderr, "\ncase %zu: loss %.17g, want %.17g\n",
			        k, loss, cases[k].want);
		CU_ASSERT(close_to(loss, cases[k].want, cases[k].rel));
		CU_ASSERT_EQUAL(total, loss);
		CU_ASSERT_EQUAL(sf_cost_penalty(c, theta), 0);
		sf_cost_free(c);
	}
	sf_test_problem_close(&fx);
}

static void
test_penalties(void)
{
	/* At (-2, 1): f = -1, 0, 1, 2, f - y = -3, -4, -3, -6, sse 70. */
	static const struct {
		sf_penalty penalty;
		double lambda, a, b, penalty_want, total_want;
	} cases[] = {
	    {SF_PENALTY_NONE, 2, 1, 1, 0, 10},
	    /* (1/4)^2 + (1/8)^2 = 5/64 */
	    {SF_PENALTY_L2, 2, 1, 1, 5.0 / 64, 10 + 2 * 5.0 / 64},
	    {SF_PENALTY_L2, 0, 1, 1, 5.0 / 64, 10},
	    /* 1/4 + 1/8 */
	    {SF_PENALTY_L1, 2, 1, 1, 3.0 / 8, 10 + 2 * 3.0 / 8},
	    /* |-2| / 4 + 1/8 = 5/8; (-2/4)^2 + (1/8)^2 = 17/64 */
	    {SF_PENALTY_L1, 0.5, -2, 1, 5.0 / 8, 70 + 0.5 * 5.0 / 8},
	    {SF_PENALTY_L2, 0.5, -2, 1, 17.0 / 64, 70 + 0.5 * 17.0 / 64},
	};
	sf_test_problem fx;

	CU_ASSERT_FATAL(rows_open(&fx, "a + b * x", AB) == 0);
	for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
		const double theta[2] = {cases[k].a, cases[k].b};
		sf_cost *c = cost_new(&fx, NULL,
		                      settings(SF_LOSS_SSE, 0, cases[k].penalty,
		                               cases[k].lambda));

		CU_ASSERT_PTR_NOT_NULL_FATAL(c);
		CU_ASSERT_EQUAL(sf_cost_penalty(c, theta),
		                cases[k].penalty_want);
		CU_ASSERT_EQUAL(sf_cost_total(c, theta, 0),
		                cases[k].total_want);
		sf_cost_free(c);
	}
	sf_test_problem_close(&fx);
}

/* The weights are copied: changing the caller's array changes nothing. */
static void
test_weights_copied(void)
{
	double w[4] = {1, 2, 0.5, 4};
	const double theta[2] = {1, 1};
	sf_test_problem fx;
	sf_cost *c;

	CU_ASSERT_FATAL(rows_open(&fx, "a + b * x", AB) == 0);
	c = cost_new(&fx, w, settings(SF_LOSS_SSE, 0, SF_PENALTY_NONE, 0));
	CU_ASSERT_PTR_NOT_NULL_FATAL(c);
	w[1] = w[3] = 0;
	CU_ASSERT_EQUAL(sf_cost_loss(c, theta, 0), 38);
	sf_cost_free(c);
	sf_test_problem_close(&fx);
}

static void
test_accessors_and_predict(void)
{
	const double theta[2] = {0.5, 1.5};
	double f[4];
	sf_cost_settings s = settings(SF_LOSS_SSE, 0, SF_PENALTY_NONE, 0);
	sf_test_problem fx;
	sf_cost *c;

	CU_ASSERT_FATAL(rows_open(&fx, "a + b * x", AB) == 0);
	s.threads = 3;
	c = cost_new(&fx, NULL, s);
	CU_ASSERT_PTR_NOT_NULL_FATAL(c);
	CU_ASSERT_EQUAL(sf_cost_rows(c), 4);
	CU_ASSERT_EQUAL(sf_cost_params(c), 2);
#ifdef _OPENMP
	CU_ASSERT_EQUAL(sf_cost_threads(c), 3);
#else
	CU_ASSERT_EQUAL(sf_cost_threads(c), 1);
#endif
	sf_cost_predict(c, theta, f);
	CU_ASSERT_EQUAL(f[0], 2);
	CU_ASSERT_EQUAL(f[1], 3.5);
	CU_ASSERT_EQUAL(f[2], 5);
	CU_ASSERT_EQUAL(f[3], 6.5);
	sf_cost_free(c);
	sf_test_problem_close(&fx);
}

/* Bad settings: SF_EVALUE and no cost; err may be NULL. */
static void
test_alloc_errors(void)
{
	static const struct {
		sf_loss loss;
		double delta, lambda;
		const char *message;
	} cases[] = {
	    {SF_LOSS_SSE, 0, -1, "lambda must be finite and >= 0"},
	    {SF_LOSS_SSE, 0, NAN, "lambda must be finite and >= 0"},
	    {SF_LOSS_SSE, 0, INFINITY, "lambda must be finite and >= 0"},
	    {SF_LOSS_HUBER, 0, 0, "huber_delta must be > 0"},
	    {SF_LOSS_HUBER, -0.1, 0, "huber_delta must be > 0"},
	    {SF_LOSS_HUBER, NAN, 0, "huber_delta must be > 0"},
	};
	sf_test_problem fx;
	sf_cost *c;

	CU_ASSERT_FATAL(rows_open(&fx, "a + b * x", AB) == 0);
	for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
		sf_cost_settings s = settings(cases[k].loss, cases[k].delta,
		                              SF_PENALTY_L2, cases[k].lambda);
		sf_error err;

		sf_error_clear(&err);
		c = sf_cost_alloc(fx.p.formula, fx.p.data, NULL, &s, &err);
		CU_ASSERT_PTR_NULL(c);
		CU_ASSERT_EQUAL(err.code, SF_EVALUE);
		CU_ASSERT_STRING_EQUAL(err.message, cases[k].message);
		sf_cost_free(c);
		CU_ASSERT_PTR_NULL(
		    sf_cost_alloc(fx.p.formula, fx.p.data, NULL, &s, NULL));
	}
	/* huber_delta matters to huber only */
	c = cost_new(&fx, NULL, settings(SF_LOSS_SSE, 0, SF_PENALTY_NONE, 0));
	CU_ASSERT_PTR_NOT_NULL(c);
	sf_cost_free(c);
	sf_cost_free(NULL);
	sf_test_problem_close(&fx);
}

/* ---- non-finite costs ---------------------------------------------------- */

static void
test_nonfinite(void)
{
	/* overflow: whether (1e300 + 8 x)^2 is computed (not for absolute,
	 * huber's linear part or log, which stay finite) */
	static const struct {
		sf_loss loss;
		int overflows;
	} losses[] = {
	    {SF_LOSS_SSE, 1},      {SF_LOSS_RELATIVE, 1}, {SF_LOSS_LOG, 0},
	    {SF_LOSS_ABSOLUTE, 0}, {SF_LOSS_HUBER, 0},
	};
	/* a NaN, an infinite and an overflowing prediction */
	const double bad[3][2] = {{NAN, 1}, {1, INFINITY}, {1e300, 8}};
	sf_test_problem fx;

	CU_ASSERT_FATAL(rows_open(&fx, "a + b * x", AB) == 0);
	for (size_t l = 0; l < sizeof losses / sizeof losses[0]; l++) {
		sf_cost *c =
		    cost_new(&fx, weights,
		             settings(losses[l].loss, 0.1, SF_PENALTY_NONE, 0));
		double pop[4 * 2] = {NAN, 1, 1, INFINITY, NAN, 1, 1, 1};
		double costs[4];

		CU_ASSERT_PTR_NOT_NULL_FATAL(c);
		for (size_t k = 0; k < 3; k++) {
			if (k == 2 && !losses[l].overflows) {
				CU_ASSERT(isfinite(sf_cost_loss(c, bad[k], 0)));
				continue;
			}
			CU_ASSERT_EQUAL(sf_cost_loss(c, bad[k], 0), INFINITY);
			CU_ASSERT_EQUAL(sf_cost_total(c, bad[k], 0), INFINITY);
		}
		/* in a population, between good candidates */
		sf_cost_population(c, pop, 4, costs);
		CU_ASSERT_EQUAL(costs[0], INFINITY);
		CU_ASSERT_EQUAL(costs[1], INFINITY);
		CU_ASSERT_EQUAL(costs[2], INFINITY);
		CU_ASSERT(isfinite(costs[3]));
		sf_cost_free(c);
	}
	/* with a penalty, a finite loss but an infinite penalty */
	{
		const double huge[2] = {1e300, 8};
		sf_cost *c = cost_new(
		    &fx, NULL, settings(SF_LOSS_LOG, 0, SF_PENALTY_L2, 1));

		CU_ASSERT_PTR_NOT_NULL_FATAL(c);
		CU_ASSERT(isfinite(sf_cost_loss(c, huge, 0)));
		CU_ASSERT_EQUAL(sf_cost_penalty(c, huge), INFINITY);
		CU_ASSERT_EQUAL(sf_cost_total(c, huge, 0), INFINITY);
		sf_cost_free(c);
	}
	/* The log of a prediction <= 0: a = -4, b = 0 predicts -4. */
	{
		const double neg[2] = {-4, 0}, zero[2] = {-1, 1};
		sf_cost *c = cost_new(
		    &fx, NULL, settings(SF_LOSS_LOG, 0, SF_PENALTY_NONE, 0));

		CU_ASSERT_PTR_NOT_NULL_FATAL(c);
		CU_ASSERT_EQUAL(sf_cost_loss(c, neg, 0), INFINITY);
		CU_ASSERT_EQUAL(sf_cost_total(c, zero, 0), INFINITY);
		sf_cost_free(c);
	}
	sf_test_problem_close(&fx);
}

/* ---- residuals and their Jacobian ---------------------------------------- */

/* r and J (4 rows + extra, 2 columns) against the wanted values. */
static void
check_residuals(const sf_cost *c, const double *theta, size_t m,
                const double *r_want, const double *J_want, double rel)
{
	double r[8], J[16], sum = 0;

	CU_ASSERT_EQUAL_FATAL(sf_cost_residual_count(c), m);
	CU_ASSERT_EQUAL_FATAL(sf_cost_residuals(c, theta, r, J), SF_OK);
	for (size_t i = 0; i < m; i++) {
		CU_ASSERT(close_to(r[i], r_want[i], rel));
		CU_ASSERT(close_to(J[2 * i], J_want[2 * i], rel));
		CU_ASSERT(close_to(J[2 * i + 1], J_want[2 * i + 1], rel));
		sum += r[i] * r[i];
	}
	/* their squares sum to the cost the search minimises */
	CU_ASSERT(close_to(sum, sf_cost_total(c, theta, 0), 1e-15));
	/* without J, the same residuals */
	CU_ASSERT_EQUAL(sf_cost_residuals(c, theta, r, NULL), SF_OK);
	for (size_t i = 0; i < m; i++)
		CU_ASSERT(close_to(r[i], r_want[i], rel));
}

static void
test_residuals(void)
{
	const double theta[2] = {1, 1};
	const double x[4] = {1, 2, 3, 4}, y[4] = {2, 4, 4, 8};
	const double f[4] = {2, 3, 4, 5};
	double r[6], J[12];
	sf_test_problem fx;
	sf_cost *c;

	CU_ASSERT_FATAL(rows_open(&fx, "a + b * x", AB) == 0);

	/* sse: r = f - y, J = (1, x) */
	c = cost_new(&fx, NULL, settings(SF_LOSS_SSE, 0, SF_PENALTY_NONE, 0));
	CU_ASSERT_PTR_NOT_NULL_FATAL(c);
	CU_ASSERT(sf_cost_is_least_squares(c));
	for (size_t i = 0; i < 4; i++) {
		r[i] = f[i] - y[i];
		J[2 * i] = 1;
		J[2 * i + 1] = x[i];
	}
	check_residuals(c, theta, 4, r, J, 0);
	sf_cost_free(c);

	/* sse with an l2 penalty, lambda 4: two more rows, sqrt(4) z_j =
	 * 2 / 4 and 2 / 8, whose Jacobian is diag(2 / 4, 2 / 8) */
	c = cost_new(&fx, NULL, settings(SF_LOSS_SSE, 0, SF_PENALTY_L2, 4));
	CU_ASSERT_PTR_NOT_NULL_FATAL(c);
	r[4] = 0.5;
	r[5] = 0.25;
	J[8] = 0.5;
	J[9] = 0;
	J[10] = 0;
	J[11] = 0.25;
	check_residuals(c, theta, 6, r, J, 0);
	sf_cost_free(c);

	/* weighted relative: r = sqrt(w) (f - y) / y, J = sqrt(w) / y (1, x) */
	c = cost_new(&fx, weights,
	             settings(SF_LOSS_RELATIVE, 0, SF_PENALTY_NONE, 0));
	CU_ASSERT_PTR_NOT_NULL_FATAL(c);
	for (size_t i = 0; i < 4; i++) {
		double sw = sqrt(weights[i]);
		r[i] = sw * (f[i] - y[i]) / y[i];
		J[2 * i] = sw / y[i];
		J[2 * i + 1] = sw / y[i] * x[i];
	}
	check_residuals(c, theta, 4, r, J, 1e-15);
	sf_cost_free(c);

	/* log: r = ln(f / y), J = (1, x) / f */
	c = cost_new(&fx, NULL, settings(SF_LOSS_LOG, 0, SF_PENALTY_NONE, 0));
	CU_ASSERT_PTR_NOT_NULL_FATAL(c);
	for (size_t i = 0; i < 4; i++) {
		r[i] = log(f[i] / y[i]);
		J[2 * i] = 1 / f[i];
		J[2 * i + 1] = x[i] / f[i];
	}
	/* row 1 and 3 are exactly 0 */
	check_residuals(c, theta, 4, r, J, 1e-15);
	sf_cost_free(c);

	/* huber, delta 1/4: row 2 (|u| = 1/4) is relative, r = -1/4 and
	 * J = (1, 2) / 4; row 4 (|u| = 3/8) is sign(u) sqrt(1/8), with
	 * dr/df = delta / sqrt(1/8) / y = (1/4) / sqrt(1/8) / 8 */
	c = cost_new(&fx, NULL,
	             settings(SF_LOSS_HUBER, 0.25, SF_PENALTY_NONE, 0));
	CU_ASSERT_PTR_NOT_NULL_FATAL(c);
	r[0] = r[2] = 0;
	r[1] = -0.25;
	r[3] = -sqrt(0.125);
	J[0] = 0.5; /* dr/df = 1 / y */
	J[1] = 0.5;
	J[2] = 0.25;
	J[3] = 0.5;
	J[4] = 0.25;
	J[5] = 0.75;
	J[6] = 0.25 / sqrt(0.125) / 8;
	J[7] = 4 * J[6];
	check_residuals(c, theta, 4, r, J, 1e-15);
	sf_cost_free(c);

	/* which costs are sums of squares */
	{
		static const struct {
			sf_loss loss;
			sf_penalty penalty;
			double lambda;
			int least_squares, separable_loss;
		} kinds[] = {
		    {SF_LOSS_SSE, SF_PENALTY_NONE, 0, 1, 1},
		    {SF_LOSS_RELATIVE, SF_PENALTY_L2, 1, 1, 1},
		    {SF_LOSS_SSE, SF_PENALTY_L2, 0, 1, 1}, /* no extra rows */
		    {SF_LOSS_LOG, SF_PENALTY_NONE, 0, 1, 0},
		    {SF_LOSS_HUBER, SF_PENALTY_L2, 1, 1, 0},
		    {SF_LOSS_ABSOLUTE, SF_PENALTY_NONE, 0, 0, 0},
		    {SF_LOSS_SSE, SF_PENALTY_L1, 1, 0, 0},
		    {SF_LOSS_SSE, SF_PENALTY_L1, 0, 1, 1},
		};
		for (size_t k = 0; k < sizeof kinds / sizeof kinds[0]; k++) {
			c = cost_new(&fx, NULL,
			             settings(kinds[k].loss, 0.1,
			                      kinds[k].penalty,
			                      kinds[k].lambda));
			CU_ASSERT_PTR_NOT_NULL_FATAL(c);
			CU_ASSERT_EQUAL(sf_cost_is_least_squares(c),
			                kinds[k].least_squares);
			CU_ASSERT_EQUAL(sf_cost_is_separable_loss(c),
			                kinds[k].separable_loss);
			/* l1's rows are not residuals: never extra rows */
			CU_ASSERT_EQUAL(sf_cost_residual_count(c),
			                kinds[k].penalty == SF_PENALTY_L2 &&
			                        kinds[k].lambda > 0
			                    ? 6
			                    : 4);
			sf_cost_free(c);
		}
	}
	sf_test_problem_close(&fx);
}

/* A residual or a derivative that is not finite: SF_EVALUE. */
static void
test_residual_errors(void)
{
	const double neg[2] = {-4, 0}, nan_theta[2] = {NAN, 1};
	const double at_zero[2] = {1, 0};
	double r[4], J[8];
	sf_test_problem fx;
	sf_cost *c;

	CU_ASSERT_FATAL(rows_open(&fx, "a + b * x", AB) == 0);
	c = cost_new(&fx, NULL, settings(SF_LOSS_LOG, 0, SF_PENALTY_NONE, 0));
	CU_ASSERT_PTR_NOT_NULL_FATAL(c);
	CU_ASSERT_EQUAL(sf_cost_residuals(c, neg, r, J), SF_EVALUE);
	CU_ASSERT_EQUAL(sf_cost_residuals(c, neg, r, NULL), SF_EVALUE);
	sf_cost_free(c);
	c = cost_new(&fx, NULL, settings(SF_LOSS_SSE, 0, SF_PENALTY_NONE, 0));
	CU_ASSERT_PTR_NOT_NULL_FATAL(c);
	CU_ASSERT_EQUAL(sf_cost_residuals(c, nan_theta, r, J), SF_EVALUE);
	sf_cost_free(c);
	sf_test_problem_close(&fx);

	/* a + sqrt(b) x at b = 0: the value is a, d/db is infinite */
	CU_ASSERT_FATAL(rows_open(&fx, "a + sqrt(b) * x", AB) == 0);
	c = cost_new(&fx, NULL, settings(SF_LOSS_SSE, 0, SF_PENALTY_NONE, 0));
	CU_ASSERT_PTR_NOT_NULL_FATAL(c);
	CU_ASSERT_EQUAL(sf_cost_residuals(c, at_zero, r, NULL), SF_OK);
	CU_ASSERT_EQUAL(r[0], 1 - 2);
	CU_ASSERT_EQUAL(sf_cost_residuals(c, at_zero, r, J), SF_EVALUE);
	sf_cost_free(c);
	sf_test_problem_close(&fx);
}

/* ---- separable least squares -------------------------------------------- */

static void
test_find_linear(void)
{
	static const char abc[] = AB "  c: {min: 0, max: 1}\n";
	static const struct {
		const char *time, *params;
		sf_loss loss;
		sf_penalty penalty;
		double lambda;
		int linear[3];
	} cases[] = {
	    {"a + b * x", AB, SF_LOSS_SSE, SF_PENALTY_NONE, 0, {1, 1}},
	    {"a + b * x", AB, SF_LOSS_RELATIVE, SF_PENALTY_NONE, 0, {1, 1}},
	    /* the l2 penalty's residuals are linear too */
	    {"a + b * x", AB, SF_LOSS_SSE, SF_PENALTY_L2, 1, {1, 1}},
	    {"a + b * x", AB, SF_LOSS_SSE, SF_PENALTY_L1, 0, {1, 1}},
	    /* losses and penalties that are not separable */
	    {"a + b * x", AB, SF_LOSS_SSE, SF_PENALTY_L1, 1, {0, 0}},
	    {"a + b * x", AB, SF_LOSS_LOG, SF_PENALTY_NONE, 0, {0, 0}},
	    {"a + b * x", AB, SF_LOSS_ABSOLUTE, SF_PENALTY_NONE, 0, {0, 0}},
	    {"a + b * x", AB, SF_LOSS_HUBER, SF_PENALTY_NONE, 0, {0, 0}},
	    /* a product: a joins first, then b's derivative reads a */
	    {"a * b * x", AB, SF_LOSS_SSE, SF_PENALTY_NONE, 0, {1, 0}},
	    {"a * exp(-b * x)", AB, SF_LOSS_SSE, SF_PENALTY_NONE, 0, {1, 0}},
	    /* a and b in front of x^c, c in the exponent */
	    {"a + b * x^c", abc, SF_LOSS_SSE, SF_PENALTY_NONE, 0, {1, 1, 0}},
	    /* floor's derivative is 0: only the probes see b is not linear */
	    {"a + floor(b) * x", AB, SF_LOSS_SSE, SF_PENALTY_NONE, 0, {1, 0}},
	    /* a kink the probes rarely cross: the derivatives tell */
	    {"a + x * max(c, b / 40)",
	     abc,
	     SF_LOSS_SSE,
	     SF_PENALTY_NONE,
	     0,
	     {1, 0, 0}},
	};

	for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
		sf_test_problem fx;
		sf_cost *c;
		int linear[3] = {-1, -1, -1};
		size_t count, want = 0, P;
		sf_error err;

		CU_ASSERT_FATAL(
		    rows_open(&fx, cases[k].time, cases[k].params) == 0);
		c = cost_new(&fx, NULL,
		             settings(cases[k].loss, 0.1, cases[k].penalty,
		                      cases[k].lambda));
		CU_ASSERT_PTR_NOT_NULL_FATAL(c);
		P = sf_cost_params(c);
		count = sf_cost_find_linear(c, linear, &err);
		for (size_t j = 0; j < P; j++) {
			want += (size_t)cases[k].linear[j];
			if (linear[j] != cases[k].linear[j])
				fprintf(stderr,
				        "\ncase %zu (%s): linear[%zu] %d\n", k,
				        cases[k].time, j, linear[j]);
			CU_ASSERT_EQUAL(linear[j], cases[k].linear[j]);
		}
		CU_ASSERT_EQUAL(count, want);
		/* and the same answer a second time (a fixed seed) */
		CU_ASSERT_EQUAL(sf_cost_find_linear(c, linear, &err), want);
		sf_cost_free(c);
		sf_test_problem_close(&fx);
	}
}

/* The bounded linear solve against the normal equations. */
static void
test_profile(void)
{
	static const int both[2] = {1, 1}, first[2] = {1, 0};
	double theta[2];
	sf_test_problem fx;
	sf_cost *c;
	sf_error err;

	/* sse: a = 0, b = 9/5; sse at it 0.04 + 0.16 + 1.96 + 0.64 */
	CU_ASSERT_FATAL(rows_open(&fx, "a + b * x", AB) == 0);
	c = cost_new(&fx, NULL, settings(SF_LOSS_SSE, 0, SF_PENALTY_NONE, 0));
	CU_ASSERT_PTR_NOT_NULL_FATAL(c);
	CU_ASSERT_EQUAL(sf_cost_separable_count(c), 0);
	CU_ASSERT_EQUAL_FATAL(sf_cost_set_separable(c, both, &err), SF_OK);
	CU_ASSERT_EQUAL(sf_cost_separable_count(c), 2);
	theta[0] = 7; /* ignored: solved */
	theta[1] = -7;
	CU_ASSERT(close_to(sf_cost_profile(c, theta, 0), 2.8, 1e-12));
	CU_ASSERT(fabs(theta[0]) < 1e-12);
	CU_ASSERT(close_to(theta[1], 1.8, 1e-12));
	sf_cost_free(c);

	/* relative: weights q = 1 / y^2; from the weighted normal
	 * equations */
	c = cost_new(&fx, NULL,
	             settings(SF_LOSS_RELATIVE, 0, SF_PENALTY_NONE, 0));
	CU_ASSERT_PTR_NOT_NULL_FATAL(c);
	CU_ASSERT_EQUAL_FATAL(sf_cost_set_separable(c, both, &err), SF_OK);
	{
		const double x[4] = {1, 2, 3, 4}, y[4] = {2, 4, 4, 8};
		double s = 0, sx = 0, sxx = 0, sy = 0, sxy = 0, det, a, b;
		double want = 0;

		for (size_t i = 0; i < 4; i++) {
			double q = 1 / (y[i] * y[i]);
			s += q;
			sx += q * x[i];
			sxx += q * x[i] * x[i];
			sy += q * y[i];
			sxy += q * x[i] * y[i];
		}
		det = s * sxx - sx * sx;
		a = (sy * sxx - sx * sxy) / det;
		b = (s * sxy - sx * sy) / det;
		for (size_t i = 0; i < 4; i++) {
			double u = (a + b * x[i] - y[i]) / y[i];
			want += u * u;
		}
		CU_ASSERT(close_to(sf_cost_profile(c, theta, 0), want, 1e-12));
		CU_ASSERT(close_to(theta[0], a, 1e-12));
		CU_ASSERT(close_to(theta[1], b, 1e-12));
	}
	sf_cost_free(c);
	sf_test_problem_close(&fx);

	/* b in [0, 3/2] excludes 9/5: b = 3/2 at its bound, a = ybar - b
	 * xbar = 3/4, sse 2 (1/4)^2 + 2 (5/4)^2 = 13/4 */
	CU_ASSERT_FATAL(rows_open(&fx, "a + b * x",
	                          "  a: {min: -4, max: 2}\n"
	                          "  b: {min: 0, max: 1.5}\n") == 0);
	c = cost_new(&fx, NULL, settings(SF_LOSS_SSE, 0, SF_PENALTY_NONE, 0));
	CU_ASSERT_PTR_NOT_NULL_FATAL(c);
	CU_ASSERT_EQUAL_FATAL(sf_cost_set_separable(c, both, &err), SF_OK);
	CU_ASSERT(close_to(sf_cost_profile(c, theta, 0), 3.25, 1e-12));
	CU_ASSERT_EQUAL(theta[1], 1.5);
	CU_ASSERT(close_to(theta[0], 0.75, 1e-12));
	sf_cost_free(c);
	sf_test_problem_close(&fx);

	/* a exp(b x) with b given: a = sum g y / sum g^2, g = exp(b x) */
	CU_ASSERT_FATAL(rows_open(&fx, "a * exp(b * x)",
	                          "  a: {min: 0, max: 20}\n"
	                          "  b: {min: -1, max: 1}\n") == 0);
	c = cost_new(&fx, NULL, settings(SF_LOSS_SSE, 0, SF_PENALTY_NONE, 0));
	CU_ASSERT_PTR_NOT_NULL_FATAL(c);
	CU_ASSERT_EQUAL_FATAL(sf_cost_set_separable(c, first, &err), SF_OK);
	CU_ASSERT_EQUAL(sf_cost_separable_count(c), 1);
	{
		const double x[4] = {1, 2, 3, 4}, y[4] = {2, 4, 4, 8};
		double gy = 0, gg = 0, a, want = 0;

		for (size_t i = 0; i < 4; i++) {
			double g = exp(0.25 * x[i]);
			gy += g * y[i];
			gg += g * g;
		}
		a = gy / gg;
		for (size_t i = 0; i < 4; i++) {
			double e = a * exp(0.25 * x[i]) - y[i];
			want += e * e;
		}
		theta[0] = 19;
		theta[1] = 0.25;
		CU_ASSERT(close_to(sf_cost_profile(c, theta, 0), want, 1e-12));
		CU_ASSERT(close_to(theta[0], a, 1e-12));
		CU_ASSERT_EQUAL(theta[1], 0.25); /* searched: untouched */
		/* a NaN searched constant: no solve, +INFINITY */
		theta[1] = NAN;
		CU_ASSERT_EQUAL(sf_cost_profile(c, theta, 0), INFINITY);
	}
	/* a population is evaluated separably from now on: each
	 * candidate's a is replaced by its best value */
	{
		double pop[3 * 2] = {0, 0.25, 5, -0.5, 20, NAN};
		double costs[3], one[2] = {0, 0.25}, two[2] = {5, -0.5};
		double p1 = sf_cost_profile(c, one, 0);
		double p2 = sf_cost_profile(c, two, 0);

		sf_cost_population(c, pop, 3, costs);
		CU_ASSERT_EQUAL(costs[0], p1);
		CU_ASSERT_EQUAL(costs[1], p2);
		CU_ASSERT_EQUAL(costs[2], INFINITY);
		CU_ASSERT_EQUAL(pop[0], one[0]);
		CU_ASSERT_EQUAL(pop[2], two[0]);
		CU_ASSERT_EQUAL(costs[0], sf_cost_total(c, pop, 0));
		/* switched off again: the candidates as they are */
		CU_ASSERT_EQUAL(
		    sf_cost_set_separable(c, (const int[]){0, 0}, &err), SF_OK);
		CU_ASSERT_EQUAL(sf_cost_separable_count(c), 0);
		pop[0] = 19;
		sf_cost_population(c, pop, 1, costs);
		CU_ASSERT_EQUAL(pop[0], 19);
		CU_ASSERT_EQUAL(costs[0], sf_cost_total(c, pop, 0));
	}
	sf_cost_free(c);
	sf_test_problem_close(&fx);

	/* The solve needs the derivatives by the solved constants only: at
	 * b = 0 the one by b is infinite, yet the candidate has a cost,
	 * a = mean y = 4.5 and sse 19 (the whole Jacobian is not finite). */
	CU_ASSERT_FATAL(rows_open(&fx, "a + sqrt(b) * x",
	                          "  a: {min: -10, max: 10}\n"
	                          "  b: {min: 0, max: 4}\n") == 0);
	c = cost_new(&fx, NULL, settings(SF_LOSS_SSE, 0, SF_PENALTY_NONE, 0));
	CU_ASSERT_PTR_NOT_NULL_FATAL(c);
	theta[0] = 1;
	theta[1] = 0;
	{
		double r[4], J[4 * 2];

		CU_ASSERT_EQUAL(sf_cost_residuals(c, theta, r, J), SF_EVALUE);
	}
	CU_ASSERT_EQUAL_FATAL(sf_cost_set_separable(c, first, &err), SF_OK);
	CU_ASSERT(close_to(sf_cost_profile(c, theta, 0), 19, 1e-12));
	CU_ASSERT(close_to(theta[0], 4.5, 1e-12));
	sf_cost_free(c);
	sf_test_problem_close(&fx);
}

/* ---- many rows: chunks and threads ----------------------------------------
 */

enum { BIG_ROWS = 2500 };

/* The line over x = 1..BIG_ROWS, y = 1, bound from a generated table. */
typedef struct big {
	sf_model_set *set;
	sf_table *table;
	sf_dataset *data;
	sf_formula *formula;
} big;

static void
big_close(big *b)
{
	sf_formula_free(b->formula);
	sf_dataset_free(b->data);
	sf_table_free(b->table);
	sf_model_set_free(b->set);
}

static int
big_open(big *b)
{
	static const char yaml[] = "name: big\n"
	                           "data: {output: y}\n"
	                           "inputs: {x: x}\n"
	                           "parameters:\n" AB "time: a + b * x\n";
	size_t size = 16 * BIG_ROWS + 8, len;
	char *text = malloc(size);
	sf_error err;
	int rc;

	memset(b, 0, sizeof *b);
	if (text == NULL)
		return -1;
	len = (size_t)snprintf(text, size, "x,y\n");
	for (int i = 1; i <= BIG_ROWS; i++)
		len += (size_t)snprintf(text + len, size - len, "%d,1\n", i);
	rc = sf_model_parse("big.yaml", yaml, strlen(yaml), &b->set, NULL, NULL,
	                    &err);
	if (rc == SF_OK)
		rc =
		    sf_table_parse(text, len, "big.csv", NULL, &b->table, &err);
	if (rc == SF_OK)
		rc = sf_dataset_bind(b->set->models[0], b->table, 1, &b->data,
		                     NULL, NULL, &err);
	if (rc == SF_OK)
		rc = sf_formula_compile(b->set->models[0], b->data, &b->formula,
		                        NULL, NULL, &err);
	free(text);
	if (rc != SF_OK)
		fprintf(stderr, "big: %s\n", err.message);
	return rc == SF_OK ? 0 : -1;
}

static sf_cost *
big_cost(const big *b, sf_cost_settings s)
{
	sf_error err;

	return sf_cost_alloc(b->formula, b->data, NULL, &s, &err);
}

/* Every row counted once, across the 1024-row chunks. */
static void
test_chunks(void)
{
	/* sum_{i=1}^{2500} i^2 = 2500 * 2501 * 5001 / 6 */
	const double sum_i2 = 5211458750.0, sum_i = 3126250.0;
	const double theta[2] = {1, 1.0 / 1024};
	double *f = malloc(BIG_ROWS * sizeof *f);
	double *r = malloc(BIG_ROWS * sizeof *r);
	big b;
	sf_cost *c;

	CU_ASSERT_FATAL(f != NULL && r != NULL);
	CU_ASSERT_FATAL(big_open(&b) == 0);
	CU_ASSERT_EQUAL_FATAL(b.data->rows, BIG_ROWS);
	c = big_cost(&b, settings(SF_LOSS_SSE, 0, SF_PENALTY_NONE, 0));
	CU_ASSERT_PTR_NOT_NULL_FATAL(c);
	CU_ASSERT_EQUAL(sf_cost_loss(c, theta, 0), sum_i2 / 1048576);
	sf_cost_predict(c, theta, f);
	CU_ASSERT_EQUAL(sf_cost_residuals(c, theta, r, NULL), SF_OK);
	for (size_t i = 0; i < BIG_ROWS; i++) {
		double want = (double)(i + 1) / 1024;
		if (f[i] != 1 + want || r[i] != want) {
			CU_FAIL("prediction or residual of a row");
			break;
		}
	}
	sf_cost_free(c);
	/* relative with y = 1 is sse again; absolute sums i / 1024 */
	c = big_cost(&b, settings(SF_LOSS_RELATIVE, 0, SF_PENALTY_NONE, 0));
	CU_ASSERT_PTR_NOT_NULL_FATAL(c);
	CU_ASSERT_EQUAL(sf_cost_loss(c, theta, 0), sum_i2 / 1048576);
	sf_cost_free(c);
	c = big_cost(&b, settings(SF_LOSS_ABSOLUTE, 0, SF_PENALTY_NONE, 0));
	CU_ASSERT_PTR_NOT_NULL_FATAL(c);
	CU_ASSERT_EQUAL(sf_cost_loss(c, theta, 0), sum_i / 1024);
	sf_cost_free(c);
	big_close(&b);
	free(f);
	free(r);
}

/* The costs of a population, bit for bit the same on 1, 2 and 7 threads,
 * and equal to each candidate's cost computed alone. */
static void
test_threads(void)
{
	enum { N = 48 };
	static const struct {
		sf_loss loss;
		sf_penalty penalty;
		int separable;
	} cases[] = {
	    {SF_LOSS_SSE, SF_PENALTY_NONE, 0},
	    {SF_LOSS_RELATIVE, SF_PENALTY_L2, 0},
	    {SF_LOSS_LOG, SF_PENALTY_NONE, 0},
	    {SF_LOSS_ABSOLUTE, SF_PENALTY_L1, 0},
	    {SF_LOSS_HUBER, SF_PENALTY_L2, 0},
	    {SF_LOSS_RELATIVE, SF_PENALTY_NONE, 1},
	};
	static const int threads[] = {1, 2, 7};
	double start[N * 2], pop[3][N * 2], costs[3][N];
	sf_rng rng;
	big b;

	CU_ASSERT_FATAL(big_open(&b) == 0);
	sf_rng_seed(&rng, 42, 7);
	for (size_t k = 0; k < N; k++) {
		start[2 * k] = -4 + 6 * sf_rng_uniform(&rng);
		start[2 * k + 1] = 8 * sf_rng_uniform(&rng);
	}
	start[2 * 5 + 1] = NAN; /* b: searched in every case */
	for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
		for (size_t t = 0; t < 3; t++) {
			sf_cost_settings s = settings(cases[k].loss, 0.1,
			                              cases[k].penalty, 0.01);
			sf_cost *c;

			s.threads = threads[t];
			s.parallel_always = 1;
			c = big_cost(&b, s);
			CU_ASSERT_PTR_NOT_NULL_FATAL(c);
			if (cases[k].separable)
				CU_ASSERT_EQUAL_FATAL(
				    sf_cost_set_separable(
				        c, (const int[]){1, 0}, NULL),
				    SF_OK);
			memcpy(pop[t], start, sizeof start);
			sf_cost_population(c, pop[t], N, costs[t]);
			for (size_t i = 0; t == 0 && i < N; i++) {
				double one[2] = {start[2 * i],
				                 start[2 * i + 1]};
				double alone = cases[k].separable
				                   ? sf_cost_profile(c, one, 0)
				                   : sf_cost_total(c, one, 0);
				CU_ASSERT(memcmp(&alone, &costs[0][i],
				                 sizeof alone) == 0);
			}
			sf_cost_free(c);
		}
		CU_ASSERT_EQUAL(costs[0][5], INFINITY);
		for (size_t t = 1; t < 3; t++) {
			CU_ASSERT(memcmp(costs[0], costs[t], sizeof costs[0]) ==
			          0);
			CU_ASSERT(memcmp(pop[0], pop[t], sizeof pop[0]) == 0);
		}
	}
	big_close(&b);
}

int
main(void)
{
	CU_TestInfo losses[] = {
	    {"every loss, weighted and not, by hand", test_losses},
	    {"l2 and l1 penalties on bound-scaled parameters", test_penalties},
	    {"weights are copied", test_weights_copied},
	    {"row and parameter counts, threads, predictions",
	     test_accessors_and_predict},
	    {"bad lambda or huber_delta: SF_EVALUE", test_alloc_errors},
	    {"non-finite predictions cost +INFINITY", test_nonfinite},
	    CU_TEST_INFO_NULL,
	};
	CU_TestInfo residuals[] = {
	    {"residuals and Jacobian of each least-squares cost",
	     test_residuals},
	    {"non-finite residual or derivative: SF_EVALUE",
	     test_residual_errors},
	    CU_TEST_INFO_NULL,
	};
	CU_TestInfo separable[] = {
	    {"which constants are linear", test_find_linear},
	    {"the bounded solve equals the normal equations", test_profile},
	    CU_TEST_INFO_NULL,
	};
	CU_TestInfo rows[] = {
	    {"2500 rows: each counted once across chunks", test_chunks},
	    {"1, 2, 7 threads: the same costs, bit for bit", test_threads},
	    CU_TEST_INFO_NULL,
	};
	CU_SuiteInfo suites[] = {
	    {"losses", NULL, NULL, NULL, NULL, losses},
	    {"residuals", NULL, NULL, NULL, NULL, residuals},
	    {"separable", NULL, NULL, NULL, NULL, separable},
	    {"many rows", NULL, NULL, NULL, NULL, rows},
	    CU_SUITE_INFO_NULL,
	};

	return sf_test_main(suites);
}
