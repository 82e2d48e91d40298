/*
 * test_ensemble.c - several formulas read as one prediction
 * (fit/ensemble.h): the weights, the point and the mixture's quantiles
 * against hand computations, and an ensemble model file (`ensemble: true`)
 * fitted, saved, read back as one fit and predicted, and validated: its
 * predictions midway between its members' (or as their weight: says), its
 * file's mistakes reported at their place; and which run to measure next
 * for it (use/separate.h).
 */
#include "fit/ensemble.h"
#include "base/rng.h"
#include "run/fit.h"
#include "run/output.h"
#include "run/validate.h"
#include "use/average.h"
#include "use/fitgroups.h"
#include "use/predict.h"
#include "use/separate.h"
#include "testing.h"

#include <gsl/gsl_cdf.h>
#include <gsl/gsl_errno.h>
#include <gsl/gsl_randist.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define MODEL "tests/data/ensemble/two.yaml"
#define SAME "tests/data/ensemble/same.yaml"

static int
close_to(double x, double y, double rel)
{
	return fabs(x - y) <= rel * fabs(y);
}

static void
test_normalise(void)
{
	double w[4] = {1, NAN, -2, 3}, z[2] = {0, 0};

	CU_ASSERT_TRUE(sf_ensemble_normalise(w, 4));
	CU_ASSERT_DOUBLE_EQUAL(w[0], 0.25, 1e-15);
	CU_ASSERT_EQUAL(w[1], 0);
	CU_ASSERT_EQUAL(w[2], 0);
	CU_ASSERT_DOUBLE_EQUAL(w[3], 0.75, 1e-15);
	CU_ASSERT_FALSE(sf_ensemble_normalise(z, 2));
}

/* One member with all the weight: its own t quantiles; two members far
 * apart with equal weights: the mean between them, the interval holding
 * both; errors multiplicative: the same on the log, returned as times; a
 * bias beyond the range moves the interval, not the prediction. */
static void
test_mix(void)
{
	sf_interval_t t[2] = {{10, 1, 5, 0}, {20, 2, 8, 0}};
	double w[2] = {1, 0}, m, lo, hi, q = gsl_cdf_tdist_Pinv(0.975, 5);

	CU_ASSERT_TRUE(sf_ensemble_mix(w, t, 2, 0, &m, &lo, &hi));
	CU_ASSERT(close_to(m, 10, 1e-9));
	CU_ASSERT(close_to(lo, 10 - q, 1e-9));
	CU_ASSERT(close_to(hi, 10 + q, 1e-9));
	w[0] = w[1] = 0.5;
	t[1].centre = 40;
	CU_ASSERT_TRUE(sf_ensemble_mix(w, t, 2, 0, &m, &lo, &hi));
	/* the weighted mean, however wide each member's interval */
	CU_ASSERT(close_to(m, 25, 1e-12));
	CU_ASSERT(lo < 10 && hi > 40);
	t[0].centre = log(10);
	t[0].scale = 0.1;
	w[0] = 1;
	w[1] = 0;
	CU_ASSERT_TRUE(sf_ensemble_mix(w, t, 2, 1, &m, &lo, &hi));
	CU_ASSERT(close_to(m, 10, 1e-9));
	CU_ASSERT(close_to(hi, 10 * exp(0.1 * q), 1e-9));
	/* a member whose model error leans up by 0.05: its interval leans,
	 * its prediction stays its formula's */
	t[0].centre = log(10) + 0.05;
	t[0].shift = 0.05;
	CU_ASSERT_TRUE(sf_ensemble_mix(w, t, 2, 1, &m, &lo, &hi));
	CU_ASSERT(close_to(m, 10, 1e-9));
	CU_ASSERT(close_to(lo, 10 * exp(0.05 - 0.1 * q), 1e-9));
	CU_ASSERT(close_to(hi, 10 * exp(0.05 + 0.1 * q), 1e-9));
	/* nothing to mix */
	t[0].scale = NAN;
	CU_ASSERT_FALSE(sf_ensemble_mix(w, t, 2, 1, &m, &lo, &hi));
	CU_ASSERT_TRUE(isnan(m) && isnan(lo) && isnan(hi));
}

static sf_model_set *
load(void)
{
	sf_model_set *set = NULL;
	sf_error err;

	if (sf_run_data_load(sf_test_path(MODEL), NULL, 0, NULL, NULL, NULL,
	                     &set, &err) != SF_OK)
		fprintf(stderr, "%s: %s\n", err.file, err.message);
	return set;
}

/* The two-formula ensemble set fitted (one thread, with its JSON), its
 * first formula weighing w0 and the second 1 - w0, its JSON's weights
 * named how; NULL when the fit fails. */
static sf_run_fit_result *
fit_two(sf_model_set *set, double w0, const char *how)
{
	sf_run_fit_settings s;
	sf_run_fit_result *r = NULL;
	sf_error err;

	sf_run_fit_settings_init(&s);
	s.options.threads = 1;
	s.json = 1;
	CU_ASSERT_EQUAL(sf_run_fit(set, &s, &r, &err), SF_OK);
	if (r == NULL)
		return NULL;
	CU_ASSERT_EQUAL(r->nmembers, 2);
	CU_ASSERT_DOUBLE_EQUAL(r->weights[0], w0, 1e-15);
	CU_ASSERT_DOUBLE_EQUAL(r->weights[1], 1 - w0, 1e-15);
	CU_ASSERT_STRING_EQUAL(
	    json_string_value(json_object_get(
	        json_object_get(r->out.json, "ensemble"), "weights")),
	    how);
	return r;
}

/* Whether x is the mixture's point of a (weight wa) and b (1 - wa): their
 * weighted mean, or with multiplicative errors that of their logs. */
static int
weighed_between(double x, double a, double b, double wa, int multiplicative)
{
	return close_to(x,
	                multiplicative ? exp(wa * log(a) + (1 - wa) * log(b))
	                               : wa * a + (1 - wa) * b,
	                1e-9);
}

/* The ensemble fitted, saved and read back as one fit of two members
 * that weigh the same, whose predictions lie midway between theirs. */
static void
test_fit_and_predict(void)
{
	char path[] = "/tmp/scalefit-ensemble-XXXXXX";
	sf_model_set *set = load();
	sf_run_fit_result *r = NULL;
	sf_fitfile_set *fs = NULL;
	sf_prediction *p = NULL, *each[2] = {NULL, NULL};
	double p_col[2] = {2, 16}, b_col[2] = {32, 32},
	       n_col[2] = {388288, 388288};
	const double *cols[3] = {p_col, b_col, n_col};
	sf_error err;
	int fd = mkstemp(path);

	CU_ASSERT_PTR_NOT_NULL_FATAL(set);
	CU_ASSERT_TRUE(set->ensemble);
	/* the members weigh the same (fit/ensemble.h) */
	r = fit_two(set, 0.5, "equal");
	CU_ASSERT_PTR_NOT_NULL_FATAL(r);
	CU_ASSERT_EQUAL(json_array_size(json_object_get(r->out.json, "fits")),
	                2);
	CU_ASSERT_PTR_NOT_NULL(strstr(r->out.text, "ensemble of 2 formulas"));
	CU_ASSERT_TRUE_FATAL(fd >= 0);
	close(fd);
	CU_ASSERT_EQUAL_FATAL(sf_run_json_save(r->out.json, path, NULL), SF_OK);
	CU_ASSERT_EQUAL_FATAL(sf_fitfile_load_groups(path, NULL, &fs, &err),
	                      SF_OK);
	CU_ASSERT_EQUAL_FATAL(fs->count, 1);
	CU_ASSERT_EQUAL_FATAL(fs->fits[0]->nmembers, 2);
	CU_ASSERT_EQUAL(sf_predict(fs->fits[0], cols, 2, &p, &err), SF_OK);
	for (size_t m = 0; m < 2; m++)
		CU_ASSERT_EQUAL(sf_predict(fs->fits[0]->members[m], cols, 2,
		                           &each[m], &err),
		                SF_OK);
	for (size_t k = 0; p != NULL && each[1] != NULL && k < 2; k++) {
		double a = each[0]->points[k].time, b = each[1]->points[k].time;

		CU_ASSERT(
		    weighed_between(p->points[k].time, a, b, 0.5,
		                    fs->fits[0]->interval.multiplicative));
		CU_ASSERT(p->points[k].pi.lo < p->points[k].time);
		CU_ASSERT(p->points[k].pi.hi > p->points[k].time);
	}
	/* an ensemble's fit is not averaged again with another */
	{
		const sf_fitfile *two[2] = {fs->fits[0], fs->fits[0]};

		CU_ASSERT_NOT_EQUAL(sf_average_check(two, 2, &err), SF_OK);
	}
	sf_prediction_free(p);
	sf_prediction_free(each[0]);
	sf_prediction_free(each[1]);
	sf_fitfile_set_free(fs);
	sf_run_fit_result_free(r);
	sf_model_set_free(set);
	unlink(path);
}

/* validate on set (an ensemble) fitted on p <= 2, one thread; *mult:
 * whether its errors are multiplicative. */
static sf_run_validate_result *
validated(const sf_model_set *set, int *mult)
{
	sf_run_validate_settings s;
	sf_run_validate_result *r = NULL;
	sf_error err;

	sf_run_validate_settings_init(&s);
	s.options.threads = 1;
	s.train = "p <= 2";
	CU_ASSERT_EQUAL(sf_run_validate(set, &s, &r, &err), SF_OK);
	*mult = sf_loss_get(sf_fit_loss(set->models[0], &s.options))
	            ->multiplicative;
	return r;
}

/* How many of r's held-out rows the mixture predicts as the point of its
 * two members weighing wa and 1 - wa (weighed_between); *rows gets how
 * many it predicts. */
static size_t
rows_mixed(const sf_run_validate_result *r, double wa, int mult, size_t *rows)
{
	size_t mixed = 0;

	*rows = 0;
	for (size_t i = 0; i < r->holdout->rows; i++) {
		double x = r->holdout->predicted[i];

		if (isnan(x))
			continue;
		(*rows)++;
		mixed += weighed_between(x, r->member_holdouts[0]->predicted[i],
		                         r->member_holdouts[1]->predicted[i],
		                         wa, mult);
	}
	return mixed;
}

/* validate on the ensemble: every member on the same folds, the mixture's
 * prediction of each held-out row midway between its members'. */
static void
test_validate(void)
{
	sf_model_set *set = load();
	sf_run_validate_result *r;
	size_t rows;
	int mult;

	CU_ASSERT_PTR_NOT_NULL_FATAL(set);
	r = validated(set, &mult);
	CU_ASSERT_PTR_NOT_NULL_FATAL(r);
	CU_ASSERT_EQUAL_FATAL(r->nmembers, 2);
	CU_ASSERT(r->holdout->predicted_rows > 0);
	CU_ASSERT(r->holdout->interval_rows == r->holdout->predicted_rows);
	CU_ASSERT_EQUAL(rows_mixed(r, 0.5, mult, &rows), rows);
	CU_ASSERT(rows > 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(r->out.text, "each formula alone"));
	sf_run_validate_result_free(r);
	sf_model_set_free(set);
}

/* A models: item's weight: (input/model.h: ensemble_weight, 3 against 1
 * here) is its share: in fit's weights and report, and in validate's
 * mixture of each held-out row. */
static void
test_model_weights(void)
{
	sf_model_set *set = load();
	sf_run_fit_result *f = NULL;
	sf_run_validate_result *v;
	size_t rows;
	int mult;

	CU_ASSERT_PTR_NOT_NULL_FATAL(set);
	set->models[0]->ensemble_weight = 3;
	f = fit_two(set, 0.75, "model file");
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	CU_ASSERT_PTR_NOT_NULL(
	    strstr(f->out.text, "weighed by their weight: keys"));
	v = validated(set, &mult);
	CU_ASSERT_PTR_NOT_NULL_FATAL(v);
	CU_ASSERT_EQUAL(rows_mixed(v, 0.75, mult, &rows), rows);
	CU_ASSERT(rows > 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(v->out.text, "each by its share below"));
	sf_run_validate_result_free(v);
	sf_run_fit_result_free(f);
	sf_model_set_free(set);
}

/* The ensemble of model file path fitted, saved and read back: its fit
 * file set (NULL on failure); with weights, written with them (as an
 * older version's, "extrapolation"), member no_interval without its
 * error model (SIZE_MAX: none), as fit writes one whose calibration
 * failed. */
static sf_fitfile_set *
fitted(const char *path, const double *weights, size_t no_interval)
{
	char file[] = "/tmp/scalefit-ensemble-XXXXXX";
	sf_model_set *set = NULL;
	sf_fitfile_set *fs = NULL;
	sf_run_fit_settings s;
	sf_run_fit_result *r = NULL;
	sf_error err;
	int fd = mkstemp(file), rc;

	if (fd < 0)
		return NULL;
	close(fd);
	sf_run_fit_settings_init(&s);
	s.options.threads = 1;
	s.json = 1;
	rc = sf_run_data_load(sf_test_path(path), NULL, 0, NULL, NULL, NULL,
	                      &set, &err);
	if (rc == SF_OK)
		rc = sf_run_fit(set, &s, &r, &err);
	if (rc == SF_OK && weights != NULL) {
		json_t *e = json_object_get(r->out.json, "ensemble");
		json_t *m = json_object_get(e, "members");

		json_object_set_new(e, "weights", json_string("extrapolation"));
		for (size_t i = 0; i < json_array_size(m); i++)
			json_object_set_new(json_array_get(m, i), "weight",
			                    json_real(weights[i]));
		json_object_del(
		    json_array_get(json_object_get(r->out.json, "fits"),
		                   no_interval),
		    "prediction_interval");
	}
	if (rc == SF_OK &&
	    (rc = sf_run_json_save(r->out.json, file, NULL)) == SF_OK)
		rc = sf_fitfile_load_groups(file, NULL, &fs, &err);
	if (rc != SF_OK)
		fprintf(stderr, "%s: %s\n", err.file, err.message);
	sf_run_fit_result_free(r);
	sf_model_set_free(set);
	unlink(file);
	return fs;
}

/* Candidates p = 1, 2, 4, 8, 16 (b = 32, n = 388288), the runs measured
 * p = 1-4, and the target p = 16. */
static const double cand_p[5] = {1, 2, 4, 8, 16},
                    cand_b[5] = {32, 32, 32, 32, 32},
                    cand_n[5] = {388288, 388288, 388288, 388288, 388288};
static const double target16[3] = {16, 32, 388288};

/*
 * x, next for two-formula ensemble e at target16 over the five
 * candidates, against a simulation of a run at candidate q: a formula
 * drawn by its weight, then its result from its distribution there, the
 * weights that result leaves and the mixture at the target of each
 * formula's own distribution after the run, its centre moved by the
 * bias up to the run and pulled by the result (sf_separate_pulls), its
 * bounds relative to its point (20,000 draws, a fixed seed):
 * the expected half-width within 1% of it, the information within 0.01
 * nats.
 */
static void
agrees_with_simulation(const sf_fitfile *e, const sf_next *x, size_t q)
{
	const double *cols[3] = {cand_p, cand_b, cand_n};
	const double *one[3] = {&cand_p[q], &cand_b[q], &cand_n[q]};
	const double *t16[3] = {&target16[0], &target16[1], &target16[2]};
	const int mult = e->interval.multiplicative;
	sf_interval_t at[2], after[2], moved[2];
	double w[2], pull[2], lean[2], lo = 0, hi = 0, h = 0, prior = 0, mc_pct;
	const int draws = 20000;
	int mixed = 0;
	sf_error err;
	sf_rng rng;

	for (size_t m = 0; m < 2; m++) {
		sf_prediction *p = NULL, *pt = NULL;
		sf_next *own = NULL;

		prior -= e->weights[m] * log(e->weights[m]);
		CU_ASSERT_EQUAL_FATAL(
		    sf_predict(e->members[m], one, 1, &p, &err), SF_OK);
		CU_ASSERT_EQUAL_FATAL(
		    sf_predict(e->members[m], t16, 1, &pt, &err), SF_OK);
		CU_ASSERT_FATAL(sf_interval_shape(
		    &e->members[m]->interval, p->points[0].time,
		    p->points[0].se * p->points[0].se, &p->points[0].beyond,
		    &at[m]));
		CU_ASSERT_EQUAL_FATAL(sf_next_run(e->members[m], target16, cols,
		                                  5, INFINITY, 1, &own, &err),
		                      SF_OK);
		after[m] = own->gains[q].shape;
		sf_separate_pulls(e->members[m], target16, pt, p, &at[m],
		                  &pull[m], &lean[m]);
		/* the bias up to the run and the interval after it carry
		 * today's bias at the target: the centre is a martingale */
		CU_ASSERT(fabs(after[m].centre + lean[m] -
		               own->now.shape.centre) < 1e-9);
		/* a run at the target itself: the regression of the target's
		 * error on the run's is all but the run's own noise */
		if (q == 4) {
			double noise = sf_interval_noise(
			    &e->members[m]->interval, &p->points[0].beyond);

			CU_ASSERT(close_to(pull[m],
			                   1 - noise * noise /
			                           (at[m].scale * at[m].scale),
			                   1e-9));
		}
		sf_prediction_free(p);
		sf_prediction_free(pt);
		sf_next_free(own);
	}
	sf_rng_seed(&rng, 20261128, 7);
	for (int d = 0; d < draws; d++) {
		size_t j = sf_rng_uniform(&rng) < e->weights[0] ? 0 : 1;
		double u = (sf_rng_next(&rng) + 0.5) / 4294967296.0;
		double y = at[j].centre +
		           at[j].scale * gsl_cdf_tdist_Pinv(u, at[j].dof);
		double point, l, hgh;

		for (size_t m = 0; m < 2; m++) {
			moved[m] = after[m];
			moved[m].centre +=
			    lean[m] + pull[m] * (y - at[m].centre);
		}
		for (size_t m = 0; m < 2; m++)
			w[m] =
			    e->weights[m] *
			    gsl_ran_tdist_pdf((y - at[m].centre) / at[m].scale,
			                      at[m].dof) /
			    at[m].scale;
		mixed += sf_ensemble_normalise(w, 2) &&
		         sf_ensemble_mix(w, moved, 2, mult, &point, &l, &hgh);
		lo += (mult ? l / point : l - point) / draws;
		hi += (mult ? hgh / point : hgh - point) / draws;
		for (size_t m = 0; m < 2; m++)
			h -= w[m] > 0 ? w[m] * log(w[m]) / draws : 0;
	}
	CU_ASSERT_EQUAL(mixed, draws);
	mc_pct =
	    mult ? 100 * (hi - lo) / 2 : 100 * (hi - lo) / (2 * x->target_time);
	CU_ASSERT(close_to(x->gains[q].halfwidth_pct, mc_pct, 0.01));
	CU_ASSERT(fabs(x->gains[q].formula_info - (prior - h)) < 0.01);
	CU_ASSERT(close_to(x->formula_entropy, prior, 1e-12));
}

/* Each formula's centre after a run, averaged over its own results, is
 * today's (separate.h): the bias the interval after the run no longer
 * carries (lean) makes it up, for a run before the target, past it, and
 * beyond the range where the target is not (b = 256 against 2-64). */
static void
test_pulls_martingale(void)
{
	const double tp[3] = {8, 32, 388288};
	const double cp[3] = {6, 16, 2}, cb[3] = {32, 32, 256},
	             cn[3] = {388288, 388288, 388288};
	const double *cols[3] = {cp, cb, cn};
	const double *tcol[3] = {&tp[0], &tp[1], &tp[2]};
	sf_fitfile_set *fs = fitted(MODEL, NULL, 0);
	sf_error err;

	CU_ASSERT_PTR_NOT_NULL_FATAL(fs);
	for (size_t m = 0; m < 2; m++) {
		const sf_fitfile *f = fs->fits[0]->members[m];
		sf_prediction *pt = NULL, *pc = NULL;
		sf_next *own = NULL;
		sf_interval_t at[3];
		double pull[3], lean[3];

		CU_ASSERT_EQUAL_FATAL(sf_predict(f, tcol, 1, &pt, &err), SF_OK);
		CU_ASSERT_EQUAL_FATAL(sf_predict(f, cols, 3, &pc, &err), SF_OK);
		CU_ASSERT_EQUAL_FATAL(
		    sf_next_run(f, tp, cols, 3, INFINITY, 1, &own, &err),
		    SF_OK);
		for (size_t q = 0; q < 3; q++)
			CU_ASSERT_FATAL(sf_interval_shape(
			    &f->interval, pc->points[q].time,
			    pc->points[q].se * pc->points[q].se,
			    &pc->points[q].beyond, &at[q]));
		sf_separate_pulls(f, tp, pt, pc, at, pull, lean);
		for (size_t q = 0; q < 3; q++) {
			CU_ASSERT(fabs(own->gains[q].shape.centre + lean[q] -
			               own->now.shape.centre) < 1e-9);
			CU_ASSERT(isfinite(pull[q]));
		}
		/* what a run tells of the target's error, pull^2 var(run):
		 * more from a run past the target (which shares all of its
		 * model error) than from one before it (a part) */
		CU_ASSERT(pull[1] * pull[1] * at[1].scale * at[1].scale >
		          pull[0] * pull[0] * at[0].scale * at[0].scale);
		/* beyond along b alone (the target is not): no model error
		 * shared, only the constants' little covariance */
		CU_ASSERT(fabs(pull[2]) < 0.05);
		sf_prediction_free(pt);
		sf_prediction_free(pc);
		sf_next_free(own);
	}
	sf_fitfile_set_free(fs);
}

/*
 * next for ensemble e at target16 over the five candidates is member m's
 * own next: members formulas mixed, today's interval and each run's
 * after it the formula's (to 1e-6), the same ranking, and what a run
 * tells of which formula holds at most info_tol nats.
 */
static void
next_is_members_own(const sf_fitfile *e, size_t m, size_t members,
                    double info_tol)
{
	const double *cols[3] = {cand_p, cand_b, cand_n};
	sf_next *x = NULL, *own = NULL;
	sf_error err;

	CU_ASSERT_EQUAL_FATAL(sf_next_ensemble(e, target16, cols, 5, &x, &err),
	                      SF_OK);
	CU_ASSERT_EQUAL_FATAL(sf_next_run(e->members[m], target16, cols, 5,
	                                  INFINITY, 1, &own, &err),
	                      SF_OK);
	CU_ASSERT_EQUAL(x->members, members);
	CU_ASSERT_EQUAL(x->nranked, 5);
	CU_ASSERT(close_to(x->now.halfwidth_pct, own->now.halfwidth_pct, 1e-6));
	for (size_t k = 0; k < 5; k++) {
		CU_ASSERT(fabs(x->gains[k].formula_info) <= info_tol);
		CU_ASSERT(close_to(x->gains[k].halfwidth_pct,
		                   own->gains[k].halfwidth_pct, 1e-6));
		CU_ASSERT_EQUAL(x->rank[k], own->rank[k]);
	}
	sf_next_free(x);
	sf_next_free(own);
}

/* A FIT.json written with other weights (an older version's, by
 * extrapolation evidence) is read with them: its prediction is their
 * weighted mean, and next's mixture has them too (agreeing with a
 * simulation; all the weight on one formula: that formula's own next,
 * nothing told apart). */
static void
test_stored_weights(void)
{
	const double w[2] = {0.2, 0.8}, all[2] = {1, 0};
	const double p_col[1] = {16}, b_col[1] = {32}, n_col[1] = {388288};
	const double *cols[3] = {p_col, b_col, n_col};
	sf_fitfile_set *fs = fitted(MODEL, w, SIZE_MAX),
	               *one = fitted(MODEL, all, SIZE_MAX);
	sf_prediction *p = NULL, *each[2] = {NULL, NULL};
	sf_error err;

	CU_ASSERT_PTR_NOT_NULL_FATAL(fs);
	CU_ASSERT_PTR_NOT_NULL_FATAL(one);
	CU_ASSERT_DOUBLE_EQUAL(fs->fits[0]->weights[1], 0.8, 1e-12);
	CU_ASSERT_EQUAL_FATAL(sf_predict(fs->fits[0], cols, 1, &p, &err),
	                      SF_OK);
	for (size_t m = 0; m < 2; m++)
		CU_ASSERT_EQUAL_FATAL(sf_predict(fs->fits[0]->members[m], cols,
		                                 1, &each[m], &err),
		                      SF_OK);
	{
		double a = each[0]->points[0].time, b = each[1]->points[0].time;

		CU_ASSERT(close_to(p->points[0].time,
		                   fs->fits[0]->interval.multiplicative
		                       ? exp(0.2 * log(a) + 0.8 * log(b))
		                       : 0.2 * a + 0.8 * b,
		                   1e-9));
	}
	{
		const double *c[3] = {cand_p, cand_b, cand_n};
		sf_next *y = NULL;

		CU_ASSERT_EQUAL_FATAL(
		    sf_next_ensemble(fs->fits[0], target16, c, 5, &y, &err),
		    SF_OK);
		agrees_with_simulation(fs->fits[0], y, 3);
		sf_next_free(y);
		next_is_members_own(one->fits[0], 0, 1, 0);
	}
	sf_prediction_free(p);
	sf_prediction_free(each[0]);
	sf_prediction_free(each[1]);
	sf_fitfile_set_free(fs);
	sf_fitfile_set_free(one);
	/* a member without an error model weighs nothing and is no other
	 * kind of error: the file loads and predicts as the other alone */
	{
		sf_fitfile_set *lone = fitted(MODEL, all, 1);
		sf_prediction *a = NULL, *b = NULL;

		CU_ASSERT_PTR_NOT_NULL_FATAL(lone);
		CU_ASSERT_FALSE(lone->fits[0]->members[1]->has_interval);
		CU_ASSERT_EQUAL(sf_predict(lone->fits[0], cols, 1, &a, &err),
		                SF_OK);
		CU_ASSERT_EQUAL(
		    sf_predict(lone->fits[0]->members[0], cols, 1, &b, &err),
		    SF_OK);
		if (a != NULL && b != NULL)
			CU_ASSERT(close_to(a->points[0].time, b->points[0].time,
			                   1e-12));
		sf_prediction_free(a);
		sf_prediction_free(b);
		sf_fitfile_set_free(lone);
	}
}

/* One formula twice: a run tells nothing of which holds, and the
 * mixture's interval after each run is the formula's own (design.h). */
static void
test_next_same(void)
{
	sf_fitfile_set *fs = fitted(SAME, NULL, 0);

	CU_ASSERT_PTR_NOT_NULL_FATAL(fs);
	CU_ASSERT_EQUAL_FATAL(fs->fits[0]->nmembers, 2);
	next_is_members_own(fs->fits[0], 0, 2, 1e-9);
	sf_fitfile_set_free(fs);
}

/* Two formulas that part beyond the runs: every run leaves the interval
 * no wider, the farther out the narrower, the target itself the
 * narrowest, as narrow as one formula's there; what a run tells of which
 * formula holds stays within ln 2; the expectation over the run's result
 * agrees with a simulation. */
static void
test_next_apart(void)
{
	const double *cols[3] = {cand_p, cand_b, cand_n};
	sf_fitfile_set *fs = fitted(MODEL, NULL, 0);
	sf_next *x = NULL;
	sf_error err;

	CU_ASSERT_PTR_NOT_NULL_FATAL(fs);
	CU_ASSERT_EQUAL_FATAL(
	    sf_next_ensemble(fs->fits[0], target16, cols, 5, &x, &err), SF_OK);
	CU_ASSERT_EQUAL(x->nranked, 5);
	CU_ASSERT_EQUAL(x->rank[0], 4);
	for (size_t k = 0; k < 5; k++) {
		CU_ASSERT(x->gains[k].formula_info >= -1e-12 &&
		          x->gains[k].formula_info <= log(2) + 1e-12);
		CU_ASSERT(x->gains[k].halfwidth_pct <=
		          x->now.halfwidth_pct * (1 + 1e-9));
	}
	CU_ASSERT_EQUAL(x->rank[1], 3);
	CU_ASSERT(x->gains[4].halfwidth_pct < 0.5 * x->now.halfwidth_pct);
	CU_ASSERT(x->gains[3].halfwidth_pct < x->gains[0].halfwidth_pct);
	/* a run at the target itself moves every formula's prediction there
	 * to what it measures: the interval left is about the widest of the
	 * formulas' own after such a run (noise and constants), not their
	 * disagreement */
	{
		double widest = 0;

		for (size_t m = 0; m < 2; m++) {
			sf_next *own = NULL;

			CU_ASSERT_EQUAL_FATAL(
			    sf_next_run(fs->fits[0]->members[m], target16, cols,
			                5, INFINITY, 1, &own, &err),
			    SF_OK);
			widest = fmax(widest, own->gains[4].halfwidth_pct);
			sf_next_free(own);
		}
		CU_ASSERT(x->gains[4].halfwidth_pct <= 1.05 * widest);
	}
	/* the expectation over the run's result against a simulation, at
	 * p = 8 and at the target */
	agrees_with_simulation(fs->fits[0], x, 3);
	agrees_with_simulation(fs->fits[0], x, 4);
	sf_next_free(x);
	sf_fitfile_set_free(fs);
}

/* A file's mistakes about ensembles, at their place. */
static void
test_model_errors(void)
{
	static const struct {
		const char *yaml, *message;
		int line;
	} bad[] = {
	    {"name: x\ndata: {file: d.csv}\nensemble: true\ntime: a\n"
	     "parameters: {a: {min: 0, max: 1}}\n",
	     "needs a 'models:' list", 3},
	    {"name: x\ndata: {file: d.csv}\nensemble: maybe\nmodels:\n"
	     "  - {name: a, time: a, parameters: {a: {min: 0, max: 1}}}\n",
	     "ensemble", 3},
	};

	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		sf_model_set *set = NULL;
		sf_error err;

		CU_ASSERT_NOT_EQUAL(sf_model_parse("m.yaml", bad[i].yaml,
		                                   strlen(bad[i].yaml), &set,
		                                   NULL, NULL, &err),
		                    SF_OK);
		CU_ASSERT_PTR_NOT_NULL(strstr(err.message, bad[i].message));
		CU_ASSERT_EQUAL(err.line, bad[i].line);
		sf_model_set_free(set);
	}
}

int
main(void)
{
	CU_TestInfo tests[] = {
	    {"weights normalised", test_normalise},
	    {"the point and the mixture's quantiles", test_mix},
	    {"fitted, saved, read back as one fit", test_fit_and_predict},
	    {"validated on its members' folds", test_validate},
	    {"a model file's weight: keys", test_model_weights},
	    {"a file's mistakes about ensembles", test_model_errors},
	    {"next: one formula twice tells nothing apart", test_next_same},
	    {"next: formulas that part, told apart", test_next_apart},
	    {"a file's own weights, kept", test_stored_weights},
	    {"next: a formula's centre, on average, stays",
	     test_pulls_martingale},
	    CU_TEST_INFO_NULL,
	};
	CU_SuiteInfo suites[] = {
	    {"ensemble", NULL, NULL, NULL, NULL, tests},
	    CU_SUITE_INFO_NULL,
	};

	/* as the command does: a singular system is the caller's to handle */
	gsl_set_error_handler_off();
	return sf_test_main(suites);
}
