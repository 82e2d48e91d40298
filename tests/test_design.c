/*
 * test_design.c - which run to measure next (use/design.h): the
 * information update against a direct inverse of the information matrix,
 * the range a run extends, the plan within a budget, and on the quick-start
 * data (expressions/ddp-generic.yaml, fitted on 1-2 GPUs) that the run
 * `next` suggests, once measured (its rows taken from the held-out ones)
 * and refitted, narrows the interval at the target more than an extra run
 * picked at random does on average.
 */
#include "fit/interval.h"
#include "fit/stats.h"
#include "fit/tune.h"
#include "input/dataset.h"
#include "use/design.h"
#include "use/fitfile.h"
#include "use/predict.h"
#include "use/report.h"
#include "testing.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* y = a + b x with a known covariance: one new run at x = 4, compared
 * with inverting the information matrix C^-1 + g g^T / s^2 directly. */
static void
test_update(void)
{
	const double cov[4] = {0.5, -0.1, -0.1, 0.05};
	const double lo[1] = {1}, hi[1] = {2};
	double tx[1] = {8}, cx[1] = {4};
	const double tg[2] = {1, 8}, cg[2] = {1, 4};
	sf_interval_model im;
	sf_design_fit df = {2, cov, 1, lo, hi, NULL, &im};
	sf_design_point t = {tx, 10, tg, 0}, c = {cx, 6, cg, 24};
	sf_design_gain now, after;
	double info[4], det, inv[4], v, s2 = 0.25;

	memset(&im, 0, sizeof im);
	im.sigma = 0.5; /* additive */
	im.t = 2;
	for (size_t j = 0; j <= SF_INTERVAL_INPUTS; j++)
		im.along[j].growth = 0.1;
	CU_ASSERT_EQUAL_FATAL(
	    sf_design_rank(&df, &t, &c, 1, &now, &after, NULL), SF_OK);
	/* today: g^T C g = 0.5 - 1.6 + 3.2 = 2.1; two doublings out */
	CU_ASSERT_DOUBLE_EQUAL(now.mean_var, 2.1, 1e-12);
	CU_ASSERT_DOUBLE_EQUAL(now.distance, 2, 1e-12);
	/* after: C' = (C^-1 + g g^T / s^2)^-1 by a 2 x 2 inverse */
	det = cov[0] * cov[3] - cov[1] * cov[2];
	info[0] = cov[3] / det + cg[0] * cg[0] / s2;
	info[1] = -cov[1] / det + cg[0] * cg[1] / s2;
	info[2] = -cov[2] / det + cg[1] * cg[0] / s2;
	info[3] = cov[0] / det + cg[1] * cg[1] / s2;
	det = info[0] * info[3] - info[1] * info[2];
	inv[0] = info[3] / det;
	inv[1] = -info[1] / det;
	inv[2] = -info[2] / det;
	inv[3] = info[0] / det;
	v = tg[0] * (inv[0] * tg[0] + inv[1] * tg[1]) +
	    tg[1] * (inv[2] * tg[0] + inv[3] * tg[1]);
	CU_ASSERT_DOUBLE_EQUAL(after.mean_var, v, 1e-12);
	/* the run at 4 extends the range to [1, 4]: one doubling left */
	CU_ASSERT_DOUBLE_EQUAL(after.distance, 1, 1e-12);
	CU_ASSERT_DOUBLE_EQUAL(after.hi - 10,
	                       2 * sqrt(0.25 + v + (0.1 * 1 * 10) * (0.1 * 10)),
	                       1e-12);
	CU_ASSERT_DOUBLE_EQUAL(
	    after.d_gain,
	    log1p((cg[0] * (cov[0] * cg[0] + cov[1] * cg[1]) +
	           cg[1] * (cov[2] * cg[0] + cov[3] * cg[1])) /
	          s2),
	    1e-12);
	CU_ASSERT(after.halfwidth_pct < now.halfwidth_pct);
}

/* The plan: the most narrowing per cost, within the budget, each run once. */
static void
test_plan(void)
{
	const double cov[4] = {0.5, -0.1, -0.1, 0.05};
	const double lo[1] = {1}, hi[1] = {2};
	double tx[1] = {8}, x4[1] = {4}, x2[1] = {2}, x8[1] = {8};
	const double tg[2] = {1, 8}, g4[2] = {1, 4}, g2[2] = {1, 2},
	             g8[2] = {1, 8};
	sf_interval_model im;
	sf_design_fit df = {2, cov, 1, lo, hi, NULL, &im};
	sf_design_point t = {tx, 10, tg, 0};
	sf_design_point c[3] = {
	    {x2, 4, g2, 8}, {x4, 6, g4, 24}, {x8, 10, g8, 80}};
	sf_design_gain after[3];
	size_t order[3], runs;
	int small = -1;

	memset(&im, 0, sizeof im);
	im.sigma = 0.5;
	im.t = 2;
	for (size_t j = 0; j <= SF_INTERVAL_INPUTS; j++)
		im.along[j].growth = 0.1;
	/* 30 affords the run at 2 and the run at 4 (8 + 24 > 30: one of
	 * them), never the one at 8 */
	runs = sf_design_plan(&df, &t, c, 3, 30, 10, 0, order, after, NULL);
	CU_ASSERT(runs >= 1 && runs <= 2);
	for (size_t r = 0; r < runs; r++)
		CU_ASSERT(order[r] != 2);
	/* without a budget, all three, each once, the interval narrowing */
	runs =
	    sf_design_plan(&df, &t, c, 3, INFINITY, 10, 0, order, after, NULL);
	CU_ASSERT_EQUAL(runs, 3);
	CU_ASSERT(order[0] != order[1] && order[1] != order[2] &&
	          order[0] != order[2]);
	CU_ASSERT(after[1].halfwidth_pct <= after[0].halfwidth_pct);
	CU_ASSERT(after[2].halfwidth_pct <= after[1].halfwidth_pct);
	CU_ASSERT_DOUBLE_EQUAL(after[2].distance, 0, 0);
	/* nothing affordable */
	CU_ASSERT_EQUAL(
	    sf_design_plan(&df, &t, c, 3, 1, 10, 0, order, after, &small), 0);
	CU_ASSERT_EQUAL(small, 0);
	/* a threshold no run reaches: nothing planned, and it says why */
	CU_ASSERT_EQUAL(sf_design_plan(&df, &t, c, 3, INFINITY, 10, 0.999,
	                               order, after, &small),
	                0);
	CU_ASSERT_EQUAL(small, 1);
}

/* ---- on the quick-start data ------------------------------------------- */

/* Fit rows of fx's dataset and read the report back as a FIT file. */
static sf_fitfile *
fit_rows(sf_test_problem *fx, const size_t *rows, size_t n)
{
	const sf_model *m = fx->p.model;
	sf_dataset *sub = NULL;
	sf_fit_result *r = NULL;
	sf_stats *s = NULL;
	sf_interval_model im;
	sf_fit_options o;
	sf_fitfile *ff = NULL;
	sf_error err;
	json_t *j = NULL;
	char *text = NULL;

	sf_fit_options_init(&o);
	o.threads = 1;
	if (sf_dataset_select(fx->p.data, rows, n, &sub, &err) == SF_OK &&
	    sf_tune_fit(m, sub, fx->p.formula, &o, &r, &err) == SF_OK &&
	    sf_stats_compute(fx->p.formula, sub, r, &s, &err) == SF_OK &&
	    sf_interval_calibrate(m, sub, fx->p.formula, &o, r, s, NULL, &im,
	                          &err) == SF_OK) {
		sf_report rep = {m, sub, fx->p.formula, r, s, NULL, NULL, &im};

		j = sf_report_json(&rep);
		text = j != NULL ? json_dumps(j, 0) : NULL;
		if (text == NULL ||
		    sf_fitfile_parse(text, strlen(text), "fit.json", &ff,
		                     &err) != SF_OK)
			ff = NULL;
	}
	free(text);
	json_decref(j);
	sf_stats_free(s);
	sf_fit_result_free(r);
	sf_dataset_free(sub);
	return ff;
}

/* The half-width (percent) of a new run's interval at the target. */
static double
halfwidth_at(const sf_fitfile *ff, const double *target)
{
	const double *cols[8];
	sf_prediction *p = NULL;
	double w;

	for (size_t i = 0; i < ff->ninputs; i++)
		cols[i] = &target[i];
	if (sf_predict(ff, cols, 1, &p, NULL) != SF_OK)
		return NAN;
	w = 100 * (p->points[0].pi.hi - p->points[0].pi.lo) /
	    (2 * p->points[0].time);
	sf_prediction_free(p);
	return w;
}

/* x's ranking is the total order of next: narrower, then cheaper, then
 * earlier; a candidate listed twice keeps its two places in list order. */
static void
check_ranking(const sf_next *x)
{
	for (size_t r = 1; r < x->nranked; r++) {
		size_t a = x->rank[r - 1], b = x->rank[r];
		double wa = x->gains[a].halfwidth_pct,
		       wb = x->gains[b].halfwidth_pct;

		CU_ASSERT(wa < wb ||
		          (wa == wb && (x->cost[a] < x->cost[b] ||
		                        (x->cost[a] == x->cost[b] && a < b))));
	}
}

/* The candidates of x listed twice: ties broken by list order; and with
 * p = 0 and p = -4 first, where the time is not finite: left out, never
 * ranked as NaN (issue 25, finding 11). */
static void
check_twice_and_domain(const sf_fitfile *base, const double *target,
                       double **cols, size_t ncand, const sf_next *x)
{
	double *twice[3];
	sf_next *y = NULL;

	for (size_t i = 0; i < 3; i++) {
		twice[i] = malloc(2 * ncand * sizeof **twice);
		memcpy(twice[i], cols[i], ncand * sizeof **twice);
		memcpy(twice[i] + ncand, cols[i], ncand * sizeof **twice);
	}
	CU_ASSERT_EQUAL_FATAL(sf_next_run(base, target,
	                                  (const double *const *)twice,
	                                  2 * ncand, INFINITY, 1, &y, NULL),
	                      SF_OK);
	check_ranking(y);
	for (size_t r = 0; r < ncand; r++) {
		CU_ASSERT_EQUAL(y->rank[2 * r], x->rank[r]);
		CU_ASSERT_EQUAL(y->rank[2 * r + 1], x->rank[r] + ncand);
	}
	sf_next_free(y);
	twice[0][0] = 0;
	twice[0][1] = -4;
	CU_ASSERT_EQUAL_FATAL(sf_next_run(base, target,
	                                  (const double *const *)twice, ncand,
	                                  INFINITY, 3, &y, NULL),
	                      SF_OK);
	CU_ASSERT_EQUAL(y->skipped[0], SF_NEXT_TIME);
	CU_ASSERT_EQUAL(y->skipped[1], SF_NEXT_TIME);
	CU_ASSERT_EQUAL(y->nranked, ncand - 2);
	for (size_t r = 0; r < y->nranked; r++)
		CU_ASSERT(y->rank[r] >= 2 && isfinite(y->time[y->rank[r]]));
	for (size_t r = 0; r < y->nplan; r++)
		CU_ASSERT(y->plan[r] >= 2);
	check_ranking(y);
	sf_next_free(y);
	for (size_t i = 0; i < 3; i++)
		free(twice[i]);
}

/* How many of next's first suggestions test_quick_start scores. */
#define TOP_RUNS 3

static void
test_quick_start(void)
{
	sf_test_problem fx;
	const sf_dataset *d;
	size_t *train, ntrain = 0, *rows, ncand = 0, *cfg;
	double target[3] = {8, 16, 256000}, **cols, mean = 0, top = 0;
	sf_fitfile *base;
	sf_next *x = NULL;

	CU_ASSERT_FATAL(sf_test_problem_load(&fx,
	                                     "expressions/ddp-generic.yaml",
	                                     SF_TEST_MODEL_LOSS) == 0);
	d = fx.p.data;
	CU_ASSERT_EQUAL_FATAL(d->ninputs, 3);
	train = malloc(d->rows * sizeof *train);
	rows = malloc(d->rows * sizeof *rows);
	cfg = malloc(d->nconfigs * sizeof *cfg);
	cols = malloc(3 * sizeof *cols);
	for (size_t i = 0; i < 3; i++)
		cols[i] = malloc(d->nconfigs * sizeof **cols);
	/* fitted: 1-2 GPUs; candidates: every other configuration */
	for (size_t r = 0; r < d->rows; r++)
		if (d->inputs[0].values[r] <= 2)
			train[ntrain++] = r;
	for (size_t c = 0; c < d->nconfigs; c++) {
		size_t r = d->configs[c].first_row;

		if (d->inputs[0].values[r] <= 2)
			continue;
		for (size_t i = 0; i < 3; i++)
			cols[i][ncand] = d->inputs[i].values[r];
		cfg[ncand++] = c;
	}
	CU_ASSERT_FATAL(ncand >= 10);
	base = fit_rows(&fx, train, ntrain);
	CU_ASSERT_PTR_NOT_NULL_FATAL(base);
	CU_ASSERT_EQUAL_FATAL(sf_next_run(base, target,
	                                  (const double *const *)cols, ncand,
	                                  INFINITY, 1, &x, NULL),
	                      SF_OK);
	check_ranking(x);
	check_twice_and_domain(base, target, cols, ncand, x);
	/* Measure each candidate (its rows from the data), refit, and look
	 * at the interval at the target. */
	for (size_t k = 0; k < ncand; k++) {
		size_t n = ntrain;
		sf_fitfile *ff;
		double w;

		memcpy(rows, train, ntrain * sizeof *rows);
		for (size_t r = 0; r < d->rows; r++)
			if (d->config[r] == cfg[k])
				rows[n++] = r;
		ff = fit_rows(&fx, rows, n);
		CU_ASSERT_PTR_NOT_NULL_FATAL(ff);
		w = halfwidth_at(ff, target);
		mean += w / (double)ncand;
		for (size_t r = 0; r < TOP_RUNS; r++)
			if (k == x->rank[r])
				top += w / TOP_RUNS;
		sf_fitfile_free(ff);
	}
	printf("\n    target p = 8: +-%.2f%% today; after one of the %d "
	       "suggested first +-%.2f%%, after a random run +-%.2f%% on "
	       "average\n",
	       halfwidth_at(base, target), TOP_RUNS, top, mean);
	/* The mean of next's first few, not its first alone: a run's
	 * outcome is one draw (the first here holds the data's 36% outlier,
	 * whose scatter widens its refit), and next ranks by expectation. */
	CU_ASSERT(top < mean);
	CU_ASSERT(top < halfwidth_at(base, target));
	sf_next_free(x);
	sf_fitfile_free(base);
	for (size_t i = 0; i < 3; i++)
		free(cols[i]);
	free(cols);
	free(cfg);
	free(rows);
	free(train);
	sf_test_problem_close(&fx);
}

int
main(void)
{
	CU_TestInfo design_tests[] = {
	    {"one run: the information update", test_update},
	    {"a plan within a budget", test_plan},
	    {"quick-start data: the first suggestions beat a random run",
	     test_quick_start},
	    CU_TEST_INFO_NULL,
	};
	CU_SuiteInfo suites[] = {
	    {"design", NULL, NULL, NULL, NULL, design_tests},
	    CU_SUITE_INFO_NULL,
	};

	return sf_test_main(suites);
}
