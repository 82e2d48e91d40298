/*
 * test_validate.c - folds, held-out predictions, bootstrap, restarts and
 * lambda: auto, against hand-computed answers: leave-one-out predictions
 * of a straight line equal the closed form (y_hat_i - h_ii y_i) /
 * (1 - h_ii), repetitions stay in one fold, the same seed gives the same
 * samples, percentiles follow the type-7 definition.
 */
#include "fit/fit.h"
#include "input/model.h"
#include "input/problem.h"
#include "fit/resample.h"
#include "testing.h"
#include "fit/tune.h"
#include "fit/validate.h"
#include "use/validation.h"

#include <gsl/gsl_errno.h>
#include <math.h>
#include <string.h>

/* The straight line a + b x over tests/data/fit/CSV, fitted by sse with
 * extra_fit appended to its fit: block. */
static int
line_open(sf_test_problem *fx, const char *csv, const char *extra_fit)
{
	char yaml[1024];

	snprintf(yaml, sizeof yaml,
	         "name: line\n"
	         "data: {file: %s, output: y}\n"
	         "inputs: {x: x}\n"
	         "parameters:\n"
	         "  a: {min: -10, max: 10}\n"
	         "  b: {min: -5, max: 5}\n"
	         "time: a + b * x\n"
	         "fit: {loss: sse%s}\n",
	         csv, extra_fit);
	return sf_test_problem_parse(fx, "fit/model.yaml", yaml);
}

static void
test_kfold_keeps_repetitions(void)
{
	sf_test_problem fx;
	int fold[64], again[64], count[3] = {0, 0, 0};
	const sf_dataset *d;

	CU_ASSERT_FATAL(line_open(&fx, "reps.csv", "") == 0);
	d = fx.p.data;
	CU_ASSERT_EQUAL_FATAL(d->rows, 24);
	CU_ASSERT_EQUAL_FATAL(d->nconfigs, 8);
	CU_ASSERT_EQUAL(sf_folds_kfold(d, 3, 9, fold), 3);
	for (size_t r = 0; r < d->rows; r++) {
		CU_ASSERT(fold[r] >= 0 && fold[r] < 3);
		/* every repetition with its configuration's first row */
		CU_ASSERT_EQUAL(fold[r],
		                fold[d->configs[d->config[r]].first_row]);
	}
	for (size_t c = 0; c < d->nconfigs; c++)
		count[fold[d->configs[c].first_row]]++;
	/* 8 configurations dealt to 3 folds: 3, 3, 2 */
	CU_ASSERT(count[0] >= 2 && count[0] <= 3);
	CU_ASSERT(count[1] >= 2 && count[1] <= 3);
	CU_ASSERT(count[2] >= 2 && count[2] <= 3);
	CU_ASSERT_EQUAL(count[0] + count[1] + count[2], 8);
	sf_folds_kfold(d, 3, 9, again);
	CU_ASSERT(memcmp(fold, again, d->rows * sizeof *fold) == 0);
	/* leave one out: one fold per configuration */
	CU_ASSERT_EQUAL(sf_folds_kfold(d, 0, 9, fold), 8);
	CU_ASSERT_EQUAL(sf_folds_kfold(d, 100, 9, fold), 8);
	sf_test_problem_close(&fx);
}

static void
test_split(void)
{
	sf_test_problem fx;
	int fold[64];
	sf_error err;

	CU_ASSERT_FATAL(line_open(&fx, "line.csv", "") == 0);
	CU_ASSERT_EQUAL(
	    sf_folds_split(fx.p.formula, fx.p.data, "x <= 7", fold, &err),
	    SF_OK);
	for (size_t r = 0; r < fx.p.data->rows; r++)
		CU_ASSERT_EQUAL(fold[r], fx.p.data->inputs[0].values[r] <= 7
		                             ? SF_FOLD_TRAIN
		                             : 0);
	CU_ASSERT_EQUAL(
	    sf_folds_split(fx.p.formula, fx.p.data, "x > 100", fold, &err),
	    SF_EVALUE);
	CU_ASSERT_EQUAL(
	    sf_folds_split(fx.p.formula, fx.p.data, "x <= a", fold, &err),
	    SF_ENAME); /* a parameter where only inputs may be */
	CU_ASSERT_EQUAL(err.column, 6);
	/* a column of the data that is not an input: the output y */
	CU_ASSERT_EQUAL(
	    sf_folds_split(fx.p.formula, fx.p.data, "y <= 4", fold, &err),
	    SF_OK);
	for (size_t r = 0; r < fx.p.data->rows; r++)
		CU_ASSERT_EQUAL(fold[r],
		                fx.p.data->output[r] <= 4 ? SF_FOLD_TRAIN : 0);
	CU_ASSERT_EQUAL(
	    sf_folds_split(fx.p.formula, fx.p.data, "z <= 3", fold, &err),
	    SF_ENAME);
	CU_ASSERT_EQUAL(err.column, 1);
	sf_test_problem_close(&fx);
}

/* Leave-one-out of least squares has a closed form: the prediction of
 * row i without it is (y_hat_i - h_ii y_i) / (1 - h_ii). */
static void
test_loo_closed_form(void)
{
	sf_test_problem fx;
	int fold[64];
	sf_fit_options o;
	sf_holdout *h;
	sf_error err;
	const sf_dataset *d;
	double xbar = 0, ybar = 0, sxx = 0, sxy = 0, a, b, mape = 0;
	size_t n, nf;

	CU_ASSERT_FATAL(line_open(&fx, "line.csv", "") == 0);
	d = fx.p.data;
	n = d->rows;
	nf = sf_folds_kfold(d, 0, 1, fold);
	CU_ASSERT_EQUAL_FATAL(nf, n);
	sf_fit_options_init(&o);
	CU_ASSERT_FATAL(sf_holdout_run(fx.p.model, d, fx.p.formula, &o,
	                               sf_fit_run, fold, nf, 0, &h,
	                               &err) == SF_OK);
	for (size_t i = 0; i < n; i++) {
		xbar += d->inputs[0].values[i] / (double)n;
		ybar += d->output[i] / (double)n;
	}
	for (size_t i = 0; i < n; i++) {
		double dx = d->inputs[0].values[i] - xbar;
		sxx += dx * dx;
		sxy += dx * (d->output[i] - ybar);
	}
	b = sxy / sxx;
	a = ybar - b * xbar;
	for (size_t i = 0; i < n; i++) {
		double x = d->inputs[0].values[i], y = d->output[i];
		double hii = 1.0 / (double)n + (x - xbar) * (x - xbar) / sxx;
		double want = (a + b * x - hii * y) / (1 - hii);

		CU_ASSERT(fabs(h->predicted[i] - want) <= 1e-9 * fabs(want));
		mape += 100 * fabs((want - y) / y) / (double)n;
	}
	CU_ASSERT_EQUAL(h->predicted_rows, n);
	CU_ASSERT(fabs(h->mape - mape) <= 1e-8 * mape);
	sf_holdout_free(h);
	sf_test_problem_close(&fx);
}

static void
test_bootstrap(void)
{
	sf_test_problem fx;
	sf_fit_options o;
	sf_fit_result *full;
	sf_resample *b1, *b2;
	sf_error err;
	double v[200];
	size_t n = 0;

	CU_ASSERT_FATAL(line_open(&fx, "reps.csv", "") == 0);
	sf_fit_options_init(&o);
	CU_ASSERT_FATAL(sf_fit_run(fx.p.model, fx.p.data, fx.p.formula, &o,
	                           &full, &err) == SF_OK);
	CU_ASSERT_FATAL(sf_bootstrap_run(fx.p.model, fx.p.data, fx.p.formula,
	                                 &o, full, 200, &b1, &err) == SF_OK);
	o.threads = 1;
	CU_ASSERT_FATAL(sf_bootstrap_run(fx.p.model, fx.p.data, fx.p.formula,
	                                 &o, full, 200, &b2, &err) == SF_OK);
	CU_ASSERT_EQUAL(b1->failed, 0);
	CU_ASSERT(memcmp(b1->samples, b2->samples, 200 * 2 * sizeof(double)) ==
	          0);
	/* the slope's interval holds the full fit and is narrow (noise of
	 * +-0.2 on 24 rows) */
	CU_ASSERT(b1->low[1] < full->theta[1] && full->theta[1] < b1->high[1]);
	CU_ASSERT(b1->high[1] - b1->low[1] < 0.1);
	/* type-7 percentiles of the slope samples */
	for (size_t k = 0; k < 200; k++)
		v[n++] = b1->samples[k * 2 + 1];
	for (size_t i = 1; i < n; i++)
		for (size_t j = i; j > 0 && v[j - 1] > v[j]; j--) {
			double t = v[j];
			v[j] = v[j - 1];
			v[j - 1] = t;
		}
	/* h = 0.025 * 199 = 4.975 */
	CU_ASSERT(fabs(b1->low[1] - (v[4] + 0.975 * (v[5] - v[4]))) <= 1e-15);
	/* h = 0.5 * 199 = 99.5 */
	CU_ASSERT(fabs(b1->median[1] - 0.5 * (v[99] + v[100])) <= 1e-15);
	sf_resample_free(b1);
	sf_resample_free(b2);
	sf_fit_result_free(full);
	sf_test_problem_close(&fx);
}

static void
test_restarts(void)
{
	sf_test_problem fx;
	sf_fit_options o;
	sf_fit_result *best;
	sf_resample *r;
	sf_error err;

	CU_ASSERT_FATAL(line_open(&fx, "line.csv", "") == 0);
	sf_fit_options_init(&o);
	CU_ASSERT_FATAL(sf_restarts_run(fx.p.model, fx.p.data, fx.p.formula, &o,
	                                4, &best, &r, &err) == SF_OK);
	CU_ASSERT_EQUAL(r->count, 4);
	for (size_t k = 0; k < 4; k++)
		CU_ASSERT(best->cost <= r->costs[k]);
	/* a linear least-squares problem has one answer */
	CU_ASSERT(r->sd[1] < 1e-9);
	sf_resample_free(r);
	sf_fit_result_free(best);
	sf_test_problem_close(&fx);
}

/* lambda: auto fills the curve and fits with the lambda of its minimum. */
static void
test_lambda_auto(void)
{
	sf_test_problem fx;
	sf_fit_options o;
	sf_fit_result *r;
	sf_error err;
	double best = INFINITY;

	CU_ASSERT_FATAL(line_open(&fx, "reps.csv",
	                          ", regularization: {type: l2, lambda: "
	                          "auto}") == 0);
	sf_fit_options_init(&o);
	/* The choice is the tuner's: a plain fit refuses it. */
	CU_ASSERT_EQUAL(
	    sf_fit_run(fx.p.model, fx.p.data, fx.p.formula, &o, &r, &err),
	    SF_EINTERNAL);
	CU_ASSERT_PTR_NULL(r);
	CU_ASSERT_FATAL(sf_tune_fit(fx.p.model, fx.p.data, fx.p.formula, &o, &r,
	                            &err) == SF_OK);
	CU_ASSERT(r->lambda_auto);
	CU_ASSERT_EQUAL(r->lambda_folds, 5);
	for (size_t g = 0; g < SF_LAMBDA_GRID; g++)
		if (r->lambda_cv_mape[g] < best)
			best = r->lambda_cv_mape[g];
	for (size_t g = 0; g < SF_LAMBDA_GRID; g++)
		if (r->lambda_grid[g] == r->settings.lambda)
			CU_ASSERT_EQUAL(r->lambda_cv_mape[g], best);
	/* a large penalty hurts an exact line: lambda = 1 is not chosen */
	CU_ASSERT(r->settings.lambda < 1);
	CU_ASSERT(r->lambda_cv_mape[SF_LAMBDA_GRID - 1] > best);
	sf_fit_result_free(r);
	sf_test_problem_close(&fx);
}

/* The folds as the options ask, and their errors. */
static void
test_folds_make(void)
{
	sf_test_problem fx;
	int fold[64], want[64];
	size_t nf;
	sf_fit_options o;
	sf_error err;

	CU_ASSERT_FATAL(line_open(&fx, "reps.csv", "") == 0);
	sf_fit_options_init(&o);
	CU_ASSERT_EQUAL(sf_folds_make(fx.p.model, fx.p.formula, fx.p.data, &o,
	                              "x <= 5", 3, fold, &nf, &err),
	                SF_OK);
	CU_ASSERT_EQUAL(nf, 1);
	sf_folds_split(fx.p.formula, fx.p.data, "x <= 5", want, &err);
	CU_ASSERT(memcmp(fold, want, fx.p.data->rows * sizeof *fold) == 0);
	/* k folds with the effective seed: the options', else 1 */
	o.seed = 9;
	o.has_seed = 1;
	CU_ASSERT_EQUAL(sf_folds_make(fx.p.model, fx.p.formula, fx.p.data, &o,
	                              NULL, 3, fold, &nf, &err),
	                SF_OK);
	CU_ASSERT_EQUAL(nf, 3);
	sf_folds_kfold(fx.p.data, 3, 9, want);
	CU_ASSERT(memcmp(fold, want, fx.p.data->rows * sizeof *fold) == 0);
	CU_ASSERT_EQUAL(sf_folds_make(fx.p.model, fx.p.formula, fx.p.data, &o,
	                              NULL, 0, fold, &nf, &err),
	                SF_OK);
	CU_ASSERT_EQUAL(nf, 8); /* leave one configuration out */
	/* a bad condition: its column, in the file "--train" */
	CU_ASSERT_EQUAL(sf_folds_make(fx.p.model, fx.p.formula, fx.p.data, &o,
	                              "x <= q", 3, fold, &nf, &err),
	                SF_ENAME);
	CU_ASSERT_STRING_EQUAL(err.file, "--train");
	CU_ASSERT_EQUAL(err.column, 6);
	CU_ASSERT_EQUAL(nf, 0);
	CU_ASSERT_EQUAL(sf_folds_make(fx.p.model, fx.p.formula, fx.p.data, &o,
	                              "x > 100", 3, fold, &nf, &err),
	                SF_EVALUE);
	sf_test_problem_close(&fx);
	/* one configuration: nothing to cross-validate */
	CU_ASSERT_FATAL(line_open(&fx, "one-config.csv", "") == 0);
	CU_ASSERT_EQUAL(sf_folds_make(fx.p.model, fx.p.formula, fx.p.data, &o,
	                              NULL, 3, fold, &nf, &err),
	                SF_EUSAGE);
	CU_ASSERT_STRING_EQUAL(err.message, "cross-validation needs at least 2 "
	                                    "configurations; the data has 1");
	sf_test_problem_close(&fx);
}

/* The held-out values of an input and their scores, against the scores
 * of a mask made by hand; the JSON document carries them. */
static void
test_levels(void)
{
	sf_test_problem fx;
	int fold[64];
	double values[SF_HOLDOUT_LEVELS_MAX];
	unsigned char mask[64];
	sf_fit_options o;
	sf_holdout *h;
	sf_holdout_scores got, want;
	sf_error err;
	const sf_dataset *d;
	json_t *json, *v, *groups, *p;
	double *x;
	char text[32];

	CU_ASSERT_FATAL(line_open(&fx, "reps.csv", "") == 0);
	d = fx.p.data;
	sf_fit_options_init(&o);
	CU_ASSERT_FATAL(sf_folds_split(fx.p.formula, d, "x <= 5", fold, &err) ==
	                SF_OK);
	CU_ASSERT_FATAL(sf_holdout_run(fx.p.model, d, fx.p.formula, &o,
	                               sf_fit_run, fold, 1, 1, &h,
	                               &err) == SF_OK);
	CU_ASSERT_EQUAL_FATAL(sf_holdout_levels(h, d, 0, values), 3);
	for (size_t g = 0; g < 3; g++) {
		CU_ASSERT_EQUAL(values[g], 6 + (double)g);
		for (size_t r = 0; r < d->rows; r++)
			mask[r] = d->inputs[0].values[r] == values[g];
		sf_holdout_score(h, d, mask, &want);
		CU_ASSERT_EQUAL(
		    sf_holdout_score_level(h, d, 0, values[g], &got, &err),
		    SF_OK);
		CU_ASSERT_EQUAL(got.count, 3);
		CU_ASSERT(memcmp(&got, &want, sizeof got) == 0);
	}
	json = sf_validation_json(fx.p.model, d, h, "split", "x <= 5");
	CU_ASSERT_FATAL(json != NULL);
	v = json_object_get(json, "validation");
	CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(v, "train")),
	                       "x <= 5");
	CU_ASSERT_EQUAL(
	    json_integer_value(json_object_get(v, "rows_predicted")), 9);
	CU_ASSERT_EQUAL(json_number_value(json_object_get(v, "mape")), h->mape);
	groups = json_object_get(json_object_get(v, "groups"), "x");
	CU_ASSERT_EQUAL_FATAL(json_array_size(groups), 3);
	CU_ASSERT_EQUAL(json_number_value(json_object_get(
	                    json_array_get(groups, 2), "value")),
	                8);
	CU_ASSERT_EQUAL(json_number_value(
	                    json_object_get(json_array_get(groups, 2), "mape")),
	                got.mape);
	p = json_object_get(v, "predictions");
	CU_ASSERT_EQUAL_FATAL(json_array_size(p), 9);
	CU_ASSERT_EQUAL(
	    json_integer_value(json_object_get(json_array_get(p, 0), "fold")),
	    0);
	CU_ASSERT_EQUAL(json_array_size(json_object_get(json_array_get(p, 0),
	                                                "interval95")),
	                2);
	json_decref(json);
	/* x = 6..8 held out beyond the trained 1..5: extrapolated */
	CU_ASSERT_EQUAL(sf_holdout_extrapolated(h, d, 0), 1);
	for (size_t r = 0; r < d->rows; r++)
		h->fold[r] = d->inputs[0].values[r] == 3 ? 0 : SF_FOLD_TRAIN;
	CU_ASSERT_EQUAL(sf_holdout_extrapolated(h, d, 0), 0); /* inside */
	for (size_t r = 0; r < d->rows; r++)
		h->fold[r] = d->inputs[0].values[r] <= 7 ? 0 : SF_FOLD_TRAIN;
	CU_ASSERT_EQUAL(sf_holdout_extrapolated(h, d, 0), 1); /* below */
	for (size_t r = 0; r < d->rows; r++)
		h->fold[r] = SF_FOLD_TRAIN;
	CU_ASSERT_EQUAL(sf_holdout_extrapolated(h, d, 0), 0); /* none out */
	for (size_t r = 0; r < d->rows; r++)
		h->fold[r] = 0;
	CU_ASSERT_EQUAL(sf_holdout_extrapolated(h, d, 0), 0); /* none in */
	/* more than SF_HOLDOUT_LEVELS_MAX values: none */
	sf_holdout_free(h);
	sf_test_problem_close(&fx);
	CU_ASSERT_FATAL(line_open(&fx, "reps.csv", "") == 0);
	d = fx.p.data;
	CU_ASSERT_EQUAL(sf_folds_kfold(d, 0, 1, fold), 8);
	CU_ASSERT_FATAL(sf_holdout_run(fx.p.model, d, fx.p.formula, &o,
	                               sf_fit_run, fold, 8, 0, &h,
	                               &err) == SF_OK);
	CU_ASSERT_EQUAL(sf_holdout_levels(h, d, 0, values), 8);
	/* the outputs as the input's values: 24 distinct, too many */
	x = fx.p.data->inputs[0].values;
	fx.p.data->inputs[0].values = fx.p.data->output;
	CU_ASSERT_EQUAL(sf_holdout_levels(h, d, 0, values), 0);
	fx.p.data->inputs[0].values = x;
	sf_holdout_free(h);
	sf_test_problem_close(&fx);
	/* a value for people */
	{
		const char *levels[] = {"small", "large"};
		sf_dataset_input in = {0};

		sf_validation_value(&in, 0.25, text, sizeof text);
		CU_ASSERT_STRING_EQUAL(text, "0.25");
		in.levels = (char **)levels;
		in.nlevels = 2;
		sf_validation_value(&in, 1, text, sizeof text);
		CU_ASSERT_STRING_EQUAL(text, "large");
		sf_validation_value(&in, 2, text, sizeof text);
		CU_ASSERT_STRING_EQUAL(text, "2");
	}
}

int
main(void)
{
	CU_TestInfo folds[] = {
	    {"k-fold keeps repetitions together, sizes even, seeded",
	     test_kfold_keeps_repetitions},
	    {"--train split, and its errors", test_split},
	    {"folds as the options ask, and their errors", test_folds_make},
	    CU_TEST_INFO_NULL,
	};
	CU_TestInfo holdout[] = {
	    {"leave-one-out equals the closed form of a line",
	     test_loo_closed_form},
	    {"held-out values of an input, their scores, the JSON",
	     test_levels},
	    CU_TEST_INFO_NULL,
	};
	CU_TestInfo resample[] = {
	    {"bootstrap: seeded, thread-independent, type-7 percentiles",
	     test_bootstrap},
	    {"restarts keep the lowest cost", test_restarts},
	    {"lambda: auto picks the curve's minimum", test_lambda_auto},
	    CU_TEST_INFO_NULL,
	};
	CU_SuiteInfo suites[] = {
	    {"folds", NULL, NULL, NULL, NULL, folds},
	    {"holdout", NULL, NULL, NULL, NULL, holdout},
	    {"resample", NULL, NULL, NULL, NULL, resample},
	    CU_SUITE_INFO_NULL,
	};

	gsl_set_error_handler_off();
	return sf_test_main(suites);
}
