/*
 * test_compare.c - candidates fitted, scored and ranked: the scores are
 * those of the fit, the K-fold cross-validation and the --train holdout
 * run directly; the ranking is by AICc (or a MAPE) with failed fits last and
 * the Akaike weights follow their definition; an over-parameterised and a
 * poorly determined candidate are flagged; the JSON document carries it
 * all; and every error path (data, --train) is provoked.
 */
#include "fit/compare.h"
#include "fit/stats.h"
#include "fit/tune.h"
#include "fit/validate.h"
#include "testing.h"
#include "use/comparison.h"

#include <gsl/gsl_errno.h>
#include <math.h>
#include <string.h>

static sf_model_set *
load(const char *name)
{
	sf_model_set *set = NULL;
	sf_error err;

	if (sf_model_load(sf_test_data(name), &set, NULL, NULL, &err) != SF_OK)
		fprintf(stderr, "%s:%d:%d: %s\n", err.file, err.line,
		        err.column, err.message);
	return set;
}

static void
settings_init(sf_compare_settings *s, const char *train)
{
	memset(s, 0, sizeof *s);
	s->train = train;
	s->kfold = 4;
	sf_fit_options_init(&s->options);
}

/* A comparison of every model of set, each added and fitted. */
static sf_compare *
compare_all(const sf_compare_settings *s, sf_model_set *const *sets,
            size_t nsets)
{
	sf_compare *cmp = sf_compare_alloc(s);
	sf_error err;

	CU_ASSERT_FATAL(cmp != NULL);
	for (size_t f = 0; f < nsets; f++)
		for (size_t i = 0; i < sets[f]->count; i++) {
			CU_ASSERT_FATAL(sf_compare_add(cmp, sets[f]->models[i],
			                               &err) == SF_OK);
			CU_ASSERT_FATAL(sf_compare_fit(cmp, cmp->n - 1, &err) ==
			                SF_OK);
		}
	return cmp;
}

/* Each score equals the same computation done directly. */
static void
test_scores(void)
{
	sf_model_set *set = load("compare/candidates.yaml");
	sf_compare_settings s;
	sf_compare *cmp;

	CU_ASSERT_FATAL(set != NULL);
	settings_init(&s, "x <= 5");
	cmp = compare_all(&s, &set, 1);
	CU_ASSERT_EQUAL_FATAL(cmp->n, 3);
	for (size_t i = 0; i < cmp->n; i++) {
		const sf_compare_candidate *c = cmp->c[i];
		const sf_problem *p = &c->problem;
		sf_fit_result *r;
		sf_stats *st;
		sf_holdout *h;
		int fold[64];
		size_t nf;
		sf_error err;

		CU_ASSERT_EQUAL(c->n, 24);
		CU_ASSERT_EQUAL(c->k, i + 1);
		CU_ASSERT_FALSE(c->failed);
		CU_ASSERT_FATAL(sf_tune_fit(c->model, p->data, p->formula,
		                            &s.options, &r, &err) == SF_OK);
		CU_ASSERT_FATAL(sf_stats_compute(p->formula, p->data, r, &st,
		                                 &err) == SF_OK);
		CU_ASSERT_EQUAL(c->sse, st->sse);
		CU_ASSERT_EQUAL(c->aicc, st->aicc);
		CU_ASSERT_EQUAL(c->bic, st->bic);
		CU_ASSERT_EQUAL(c->mape, st->mape);
		sf_stats_free(st);
		sf_fit_result_free(r);
		/* the folds are dealt with the model's effective seed */
		nf = sf_folds_kfold(
		    p->data, 4,
		    sf_fit_settings_effective(c->model, &s.options).seed, fold);
		CU_ASSERT_FATAL(sf_holdout_run(c->model, p->data, p->formula,
		                               &s.options, sf_tune_fit, fold,
		                               nf, 0, &h, &err) == SF_OK);
		CU_ASSERT_EQUAL(c->cv_mape, h->mape);
		sf_holdout_free(h);
		CU_ASSERT_FATAL(sf_folds_split(p->formula, p->data, "x <= 5",
		                               fold, &err) == SF_OK);
		CU_ASSERT_FATAL(sf_holdout_run(c->model, p->data, p->formula,
		                               &s.options, sf_tune_fit, fold, 1,
		                               0, &h, &err) == SF_OK);
		CU_ASSERT_EQUAL(c->extra_mape, h->mape);
		CU_ASSERT(isfinite(c->extra_mape));
		/* x = 6, 7, 8 held out, each by its own scores */
		CU_ASSERT_EQUAL_FATAL(c->nby_level, 3);
		for (size_t l = 0; l < 3; l++) {
			sf_holdout_scores want;

			CU_ASSERT_STRING_EQUAL(c->by_level[l].input, "x");
			CU_ASSERT_EQUAL(c->by_level[l].value, 6 + (double)l);
			sf_holdout_score_level(h, p->data, 0, 6 + (double)l,
			                       &want, &err);
			CU_ASSERT_EQUAL(c->by_level[l].rows, 3);
			CU_ASSERT_EQUAL(c->by_level[l].mape, want.mape);
			CU_ASSERT_EQUAL(c->by_level[l].bias, want.bias);
			CU_ASSERT(
			    sf_compare_level_find(c, "x", 6 + (double)l) ==
			    &c->by_level[l]);
		}
		CU_ASSERT_PTR_NULL(sf_compare_level_find(c, "x", 5));
		CU_ASSERT_PTR_NULL(sf_compare_level_find(c, "y", 6));
		sf_holdout_free(h);
	}
	/* a single parameter has no correlation; the split slope's two are
	 * perfectly (anti-)correlated: over-parameterised */
	CU_ASSERT(isnan(cmp->c[0]->max_corr));
	CU_ASSERT_FALSE(cmp->c[0]->over);
	CU_ASSERT_FALSE(cmp->c[1]->over);
	CU_ASSERT(cmp->c[1]->max_corr < 0.95);
	CU_ASSERT(cmp->c[2]->over);
	sf_compare_free(cmp);
	sf_model_set_free(set);
}

/* Every candidate fitted as a unit of work: the scores of one by one. */
static void
test_fit_all(void)
{
	sf_model_set *set = load("compare/candidates.yaml");
	sf_compare_settings s;
	sf_compare *one, *all;
	sf_error err;

	CU_ASSERT_FATAL(set != NULL);
	settings_init(&s, "x <= 5");
	one = compare_all(&s, &set, 1);
	all = sf_compare_alloc(&s);
	CU_ASSERT_FATAL(all != NULL);
	for (size_t i = 0; i < set->count; i++)
		CU_ASSERT_FATAL(sf_compare_add(all, set->models[i], &err) ==
		                SF_OK);
	CU_ASSERT_FATAL(sf_compare_split(all, &err) == SF_OK);
	CU_ASSERT_FATAL(sf_compare_fit_all(all, &err) == SF_OK);
	CU_ASSERT_EQUAL_FATAL(all->n, one->n);
	for (size_t i = 0; i < all->n; i++) {
		const sf_compare_candidate *a = all->c[i], *b = one->c[i];

		CU_ASSERT(a->fitted);
		CU_ASSERT_EQUAL(a->failed, b->failed);
		CU_ASSERT_EQUAL(a->at_bound, b->at_bound);
		CU_ASSERT_EQUAL(a->sse, b->sse);
		CU_ASSERT_EQUAL(a->aicc, b->aicc);
		CU_ASSERT_EQUAL(a->bic, b->bic);
		CU_ASSERT_EQUAL(a->cv_mape, b->cv_mape);
		CU_ASSERT_EQUAL(a->extra_mape, b->extra_mape);
		CU_ASSERT(a->max_corr == b->max_corr ||
		          (isnan(a->max_corr) && isnan(b->max_corr)));
		CU_ASSERT_EQUAL(a->over, b->over);
		CU_ASSERT_STRING_EQUAL(a->poor, b->poor);
		CU_ASSERT_EQUAL_FATAL(a->nby_level, b->nby_level);
		for (size_t l = 0; l < a->nby_level; l++) {
			CU_ASSERT_STRING_EQUAL(a->by_level[l].input,
			                       b->by_level[l].input);
			CU_ASSERT_EQUAL(a->by_level[l].value,
			                b->by_level[l].value);
			CU_ASSERT_EQUAL(a->by_level[l].rows,
			                b->by_level[l].rows);
			CU_ASSERT_EQUAL(a->by_level[l].mape,
			                b->by_level[l].mape);
			CU_ASSERT_EQUAL(a->by_level[l].bias,
			                b->by_level[l].bias);
		}
	}
	CU_ASSERT(all->c[0]->nby_level == 3);
	sf_compare_free(one);
	sf_compare_free(all);
	sf_model_set_free(set);
}

/* A candidate of some rows (a group of --by) borrows the opened
 * problem's formula and scores exactly as a fit of those rows. */
static void
test_rows(void)
{
	sf_model_set *set = load("compare/candidates.yaml");
	sf_compare_settings s;
	sf_compare *all, *sub;
	sf_dataset *d = NULL;
	sf_fit_result *r = NULL;
	sf_stats *st = NULL;
	size_t rows[12];
	sf_error err;

	CU_ASSERT_FATAL(set != NULL);
	settings_init(&s, NULL);
	all = sf_compare_alloc(&s);
	sub = sf_compare_alloc(&s);
	CU_ASSERT_FATAL(all != NULL && sub != NULL);
	CU_ASSERT_FATAL(sf_compare_add(all, set->models[1], &err) == SF_OK);
	for (size_t i = 0; i < 12; i++)
		rows[i] = 2 * i;
	CU_ASSERT_EQUAL(sf_compare_add_rows(sub, set->models[1],
	                                    &all->c[0]->problem, rows, 0, &err),
	                SF_EVALUE);
	CU_ASSERT_EQUAL(sub->n, 0);
	CU_ASSERT_FATAL(sf_compare_add_rows(sub, set->models[1],
	                                    &all->c[0]->problem, rows, 12,
	                                    &err) == SF_OK);
	CU_ASSERT_FATAL(sf_compare_fit(sub, 0, &err) == SF_OK);
	CU_ASSERT_EQUAL(sub->c[0]->n, 12);
	CU_ASSERT_EQUAL(sub->c[0]->k, 2);
	CU_ASSERT_PTR_EQUAL(sub->c[0]->problem.formula,
	                    all->c[0]->problem.formula);
	CU_ASSERT_FATAL(sf_dataset_select(all->c[0]->problem.data, rows, 12, &d,
	                                  &err) == SF_OK);
	CU_ASSERT_FATAL(sf_tune_fit(set->models[1], d,
	                            all->c[0]->problem.formula, &s.options, &r,
	                            &err) == SF_OK);
	CU_ASSERT_FATAL(sf_stats_compute(all->c[0]->problem.formula, d, r, &st,
	                                 &err) == SF_OK);
	CU_ASSERT_EQUAL(sub->c[0]->sse, st->sse);
	CU_ASSERT_EQUAL(sub->c[0]->aicc, st->aicc);
	sf_stats_free(st);
	sf_fit_result_free(r);
	sf_dataset_free(d);
	/* Freeing the group's comparison leaves the opened one whole. */
	sf_compare_free(sub);
	CU_ASSERT_FATAL(sf_compare_fit(all, 0, &err) == SF_OK);
	CU_ASSERT_EQUAL(all->c[0]->n, 24);
	sf_compare_free(all);
	sf_model_set_free(set);
}

/* Ranked by AICc, weights exp(-delta / 2) normalised; a failed fit last
 * with weight 0. */
static void
test_rank(void)
{
	sf_model_set *sets[2] = {load("compare/candidates.yaml"),
	                         load("fit/nan.yaml")};
	sf_compare_settings s;
	sf_compare *cmp;
	double total = 0, best;

	CU_ASSERT_FATAL(sets[0] != NULL && sets[1] != NULL);
	settings_init(&s, NULL);
	cmp = compare_all(&s, sets, 2);
	CU_ASSERT_EQUAL_FATAL(cmp->n, 4);
	CU_ASSERT(isnan(cmp->c[0]->extra_mape)); /* no --train */
	CU_ASSERT(cmp->c[3]->failed);
	sf_compare_rank(cmp);
	/* the line, then the split slope (same fit, one more constant), then
	 * the constant; the failed fit last */
	CU_ASSERT_EQUAL(cmp->order[0], 1);
	CU_ASSERT_EQUAL(cmp->order[1], 2);
	CU_ASSERT_EQUAL(cmp->order[2], 0);
	CU_ASSERT_EQUAL(cmp->order[3], 3);
	best = cmp->c[1]->aicc;
	for (size_t i = 0; i < 3; i++) {
		const sf_compare_candidate *c = cmp->c[i];
		double want = exp(-(c->aicc - best) / 2) /
		              (1 + exp(-(cmp->c[0]->aicc - best) / 2) +
		               exp(-(cmp->c[2]->aicc - best) / 2));

		CU_ASSERT(fabs(c->weight - want) <= 1e-12);
		total += c->weight;
	}
	CU_ASSERT_EQUAL(cmp->c[3]->weight, 0);
	CU_ASSERT(fabs(total - 1) <= 1e-12);
	/* ties keep the order added; a NaN AICc goes with the failed */
	cmp->c[0]->aicc = cmp->c[2]->aicc = cmp->c[1]->aicc;
	cmp->c[1]->aicc = NAN;
	sf_compare_rank(cmp);
	CU_ASSERT_EQUAL(cmp->order[0], 0);
	CU_ASSERT_EQUAL(cmp->order[1], 2);
	CU_ASSERT_EQUAL(cmp->order[2], 1);
	CU_ASSERT_EQUAL(cmp->order[3], 3);
	CU_ASSERT(fabs(cmp->c[0]->weight - 0.5) <= 1e-15);
	CU_ASSERT_EQUAL(cmp->c[1]->weight, 0);
	/* exact fits (AICc -inf) share the weight; the others get 0,
	 * never NaN (issue 25, finding 13) */
	cmp->c[0]->aicc = cmp->c[2]->aicc = -INFINITY;
	cmp->c[1]->aicc = 5;
	sf_compare_rank(cmp);
	CU_ASSERT_EQUAL(sf_compare_exact(cmp), 2);
	CU_ASSERT_EQUAL(cmp->order[0], 0);
	CU_ASSERT_EQUAL(cmp->order[1], 2);
	CU_ASSERT_EQUAL(cmp->order[2], 1);
	CU_ASSERT_EQUAL(cmp->c[0]->weight, 0.5);
	CU_ASSERT_EQUAL(cmp->c[2]->weight, 0.5);
	CU_ASSERT_EQUAL(cmp->c[1]->weight, 0);
	CU_ASSERT_EQUAL(cmp->c[3]->weight, 0);
	cmp->c[2]->aicc = 4;
	sf_compare_rank(cmp);
	CU_ASSERT_EQUAL(cmp->c[0]->weight, 1);
	CU_ASSERT_EQUAL(cmp->c[2]->weight, 0);
	/* nan.yaml's rows are line.csv's: other rows */
	CU_ASSERT_EQUAL(sf_compare_other_rows(cmp), 3);
	CU_ASSERT_EQUAL(sf_compare_other_output(cmp), 0);
	sf_compare_free(cmp);
	sf_model_set_free(sets[0]);
	sf_model_set_free(sets[1]);
}

/* The table of rankings; ranked by a MAPE with AICc breaking ties
 * (MAPEs within SF_COMPARE_TIE), NaN last; the default follows the train
 * condition. */
static void
test_rank_by(void)
{
	sf_model_set *sets[1] = {load("compare/candidates.yaml")};
	sf_compare_settings s;
	sf_compare *cmp;

	CU_ASSERT_FATAL(sets[0] != NULL);
	CU_ASSERT_EQUAL(sf_compare_ranking_find("cv"), SF_COMPARE_RANK_CV);
	CU_ASSERT_EQUAL(sf_compare_ranking_find("extrapolation"),
	                SF_COMPARE_RANK_EXTRAPOLATION);
	CU_ASSERT_EQUAL(sf_compare_ranking_find("AICC"), SF_COMPARE_RANKINGS);
	CU_ASSERT(sf_compare_ranking_get(SF_COMPARE_RANK_DEFAULT) == NULL);
	CU_ASSERT_STRING_EQUAL(
	    sf_compare_ranking_get(SF_COMPARE_RANK_AICC)->name, "aicc");
	settings_init(&s, NULL);
	s.rank = SF_COMPARE_RANK_CV;
	cmp = compare_all(&s, sets, 1);
	CU_ASSERT_EQUAL_FATAL(cmp->n, 3);
	CU_ASSERT_EQUAL(sf_compare_rank_used(cmp), SF_COMPARE_RANK_CV);
	cmp->c[0]->cv_mape = 1;
	cmp->c[1]->cv_mape = 3;
	cmp->c[2]->cv_mape = NAN;
	sf_compare_rank(cmp);
	CU_ASSERT_EQUAL(cmp->order[0], 0);
	CU_ASSERT_EQUAL(cmp->order[1], 1);
	CU_ASSERT_EQUAL(cmp->order[2], 2);
	CU_ASSERT_EQUAL(sf_compare_first_by(cmp, SF_COMPARE_RANK_DEFAULT), 0);
	/* a tie within SF_COMPARE_TIE: the lower AICc first, though c0's
	 * MAPE is a hair lower (without the tie rule c0 would lead) */
	cmp->c[0]->cv_mape = 3 * (1 - SF_COMPARE_TIE / 2);
	cmp->c[0]->aicc = cmp->c[1]->aicc + 1;
	sf_compare_rank(cmp);
	CU_ASSERT_EQUAL(cmp->order[0], 1);
	CU_ASSERT_EQUAL(cmp->order[1], 0);
	CU_ASSERT_EQUAL(sf_compare_first_by(cmp, SF_COMPARE_RANK_AICC), 1);
	/* the default: AICc without a train condition */
	cmp->s.rank = SF_COMPARE_RANK_DEFAULT;
	CU_ASSERT_EQUAL(sf_compare_rank_used(cmp), SF_COMPARE_RANK_AICC);
	cmp->s.train = "x <= 2"; /* only read by sf_compare_rank_used() */
	CU_ASSERT_EQUAL(sf_compare_rank_used(cmp),
	                SF_COMPARE_RANK_EXTRAPOLATION);
	cmp->s.train = NULL;
	sf_compare_free(cmp);
	sf_model_set_free(sets[0]);
}

/* Another output; a poorly determined constant. */
static void
test_warnings_and_notes(void)
{
	sf_model_set *sets[3] = {load("compare/candidates.yaml"),
	                         load("compare/half.yaml"),
	                         load("fit/poor.yaml")};
	sf_compare_settings s;
	sf_compare *cmp = NULL;
	sf_error err;

	CU_ASSERT_FATAL(sets[0] && sets[1] && sets[2]);
	settings_init(&s, NULL);
	cmp = sf_compare_alloc(&s);
	CU_ASSERT_FATAL(cmp != NULL);
	for (size_t f = 0; f < 3; f++)
		CU_ASSERT_FATAL(sf_compare_add(cmp, sets[f]->models[0], &err) ==
		                SF_OK);
	CU_ASSERT_EQUAL(sf_compare_other_output(cmp), 1);
	CU_ASSERT_EQUAL(sf_compare_other_rows(cmp), 2);
	CU_ASSERT_FATAL(sf_compare_fit(cmp, 2, &err) == SF_OK);
	CU_ASSERT_STRING_EQUAL(cmp->c[2]->poor, "g");
	CU_ASSERT_STRING_EQUAL(cmp->c[0]->poor, "");
	sf_compare_free(cmp);
	for (size_t f = 0; f < 3; f++)
		sf_model_set_free(sets[f]);
}

/* The same count of rows of the same file, but other rows (the where
 * filters pick another model's runs): other rows all the same; the same
 * model twice: the same rows, and distinct labels. */
static void
test_other_row_set(void)
{
	sf_model_set *sets[2] = {load("compare/cnn.yaml"),
	                         load("compare/mlp-cands.yaml")};
	sf_compare_settings s;
	sf_compare *cmp = NULL;
	sf_error err;

	CU_ASSERT_FATAL(sets[0] != NULL && sets[1] != NULL);
	settings_init(&s, NULL);
	cmp = sf_compare_alloc(&s);
	CU_ASSERT_FATAL(cmp != NULL);
	CU_ASSERT_FATAL(sf_compare_add(cmp, sets[0]->models[0], &err) == SF_OK);
	CU_ASSERT_FATAL(sf_compare_add(cmp, sets[0]->models[0], &err) == SF_OK);
	CU_ASSERT_EQUAL(sf_compare_other_row_set(cmp), 0);
	CU_ASSERT_EQUAL(sf_compare_other_rows(cmp), 0);
	CU_ASSERT_STRING_EQUAL(cmp->c[0]->label, "cnn");
	CU_ASSERT_STRING_EQUAL(cmp->c[1]->label, "cnn (2)");
	for (size_t i = 0; i < sets[1]->count; i++)
		CU_ASSERT_FATAL(sf_compare_add(cmp, sets[1]->models[i], &err) ==
		                SF_OK);
	CU_ASSERT_EQUAL(cmp->c[2]->n, cmp->c[0]->n);
	CU_ASSERT_STRING_EQUAL(cmp->c[2]->data_sha, cmp->c[0]->data_sha);
	CU_ASSERT_EQUAL(sf_compare_other_row_set(cmp), 2);
	CU_ASSERT_EQUAL(sf_compare_other_rows(cmp), 2);
	CU_ASSERT_STRING_EQUAL(cmp->c[3]->rows_sha, cmp->c[2]->rows_sha);
	CU_ASSERT_STRING_EQUAL(cmp->c[3]->label, "linear");
	sf_compare_free(cmp);
	sf_model_set_free(sets[0]);
	sf_model_set_free(sets[1]);
}

/* The table by value across candidates of other data: the union of
 * their values; no levels without --train or for an interpolation. */
static void
test_levels(void)
{
	sf_model_set *sets[2] = {load("compare/candidates.yaml"),
	                         load("fit/poor.yaml")};
	sf_compare_settings s;
	sf_compare *cmp;
	const char *names[4];
	double values[SF_HOLDOUT_LEVELS_MAX];

	CU_ASSERT_FATAL(sets[0] != NULL && sets[1] != NULL);
	settings_init(&s, "x <= 5");
	cmp = compare_all(&s, sets, 2);
	sf_compare_rank(cmp);
	CU_ASSERT_EQUAL(sf_compare_level_inputs(cmp, names, 4), 1);
	CU_ASSERT_STRING_EQUAL(names[0], "x");
	/* reps.csv holds out 6..8, line.csv 6..10 */
	CU_ASSERT_EQUAL_FATAL(
	    sf_compare_level_values(cmp, "x", values, SF_HOLDOUT_LEVELS_MAX),
	    5);
	for (size_t g = 0; g < 5; g++)
		CU_ASSERT_EQUAL(values[g], 6 + (double)g);
	CU_ASSERT_EQUAL(sf_compare_level_values(cmp, "x", values, 4), 0);
	CU_ASSERT_EQUAL(sf_compare_level_values(cmp, "z", values, 4), 0);
	CU_ASSERT_EQUAL(cmp->c[3]->nby_level, 5);
	CU_ASSERT_PTR_NULL(sf_compare_level_find(cmp->c[0], "x", 9));
	CU_ASSERT_PTR_NOT_NULL(sf_compare_level_find(cmp->c[3], "x", 9));
	sf_compare_free(cmp);
	/* held out inside the trained range: not an extrapolation */
	settings_init(&s, "x != 4");
	cmp = compare_all(&s, sets, 1);
	CU_ASSERT(isfinite(cmp->c[1]->extra_mape));
	CU_ASSERT_EQUAL(cmp->c[1]->nby_level, 0);
	CU_ASSERT_EQUAL(sf_compare_level_inputs(cmp, names, 4), 0);
	sf_compare_free(cmp);
	sf_model_set_free(sets[0]);
	sf_model_set_free(sets[1]);
}

static void
test_errors(void)
{
	sf_model_set *set = load("compare/candidates.yaml"), *bad;
	sf_compare_settings s;
	sf_compare *cmp;
	sf_error err;

	CU_ASSERT_FATAL(set != NULL);
	/* data that cannot be read: not added */
	settings_init(&s, NULL);
	s.data_path = sf_test_data("compare/no-such.csv");
	cmp = sf_compare_alloc(&s);
	CU_ASSERT_FATAL(cmp != NULL);
	CU_ASSERT_EQUAL(sf_compare_add(cmp, set->models[0], &err), SF_EIO);
	CU_ASSERT_EQUAL(cmp->n, 0);
	sf_compare_free(cmp);
	/* a candidate naming a column the data lacks: its FILE:LINE:COL */
	settings_init(&s, NULL);
	cmp = sf_compare_alloc(&s);
	CU_ASSERT_FATAL(cmp != NULL);
	bad = load("compare/bad-column.yaml");
	CU_ASSERT_FATAL(bad != NULL);
	CU_ASSERT_FATAL(sf_compare_add(cmp, set->models[0], &err) == SF_OK);
	CU_ASSERT_EQUAL(sf_compare_add(cmp, bad->models[0], &err), SF_ENAME);
	CU_ASSERT(strstr(err.file, "compare/bad-column.yaml") != NULL);
	CU_ASSERT_EQUAL(err.line, 5);
	CU_ASSERT_EQUAL(err.column, 13);
	CU_ASSERT_EQUAL(cmp->n, 1);
	sf_compare_free(cmp);
	sf_model_set_free(bad);
	/* an unknown name in --train, with its column: every split is made
	 * before any fit */
	settings_init(&s, "q <= 3");
	cmp = sf_compare_alloc(&s);
	CU_ASSERT_FATAL(cmp != NULL);
	CU_ASSERT_FATAL(sf_compare_add(cmp, set->models[0], &err) == SF_OK);
	CU_ASSERT_EQUAL(sf_compare_split(cmp, &err), SF_ENAME);
	CU_ASSERT_STRING_EQUAL(err.file, "--train");
	CU_ASSERT_EQUAL(err.column, 1);
	CU_ASSERT_FALSE(cmp->c[0]->fitted);
	CU_ASSERT_PTR_NULL(cmp->c[0]->train_fold);
	/* and sf_compare_fit() makes it too when not made */
	CU_ASSERT_EQUAL(sf_compare_fit(cmp, 0, &err), SF_ENAME);
	CU_ASSERT_STRING_EQUAL(err.file, "--train");
	sf_compare_free(cmp);
	/* a good condition: one training fold per candidate, the rows it
	 * holds trained on */
	settings_init(&s, "x <= 5");
	cmp = sf_compare_alloc(&s);
	CU_ASSERT_FATAL(cmp != NULL);
	CU_ASSERT_FATAL(sf_compare_add(cmp, set->models[1], &err) == SF_OK);
	CU_ASSERT_EQUAL(sf_compare_split(cmp, &err), SF_OK);
	CU_ASSERT_FATAL(cmp->c[0]->train_fold != NULL);
	for (size_t r = 0; r < cmp->c[0]->n; r++)
		CU_ASSERT_EQUAL(cmp->c[0]->train_fold[r],
		                cmp->c[0]->problem.data->inputs[0].values[r] <=
		                        5
		                    ? SF_FOLD_TRAIN
		                    : 0);
	sf_compare_free(cmp);
	/* --train keeping every row */
	settings_init(&s, "x <= 100");
	cmp = sf_compare_alloc(&s);
	CU_ASSERT_FATAL(cmp != NULL);
	CU_ASSERT_FATAL(sf_compare_add(cmp, set->models[0], &err) == SF_OK);
	CU_ASSERT_EQUAL(sf_compare_split(cmp, &err), SF_EVALUE);
	CU_ASSERT(strstr(err.message, "selects all of the 24 rows") != NULL);
	sf_compare_free(cmp);
	sf_compare_free(NULL);
	sf_model_set_free(set);
}

static void
test_json(void)
{
	sf_model_set *set = load("compare/candidates.yaml");
	sf_compare_settings s;
	sf_compare *cmp;
	json_t *json, *list, *first, *levels;

	CU_ASSERT_FATAL(set != NULL);
	settings_init(&s, "x <= 5");
	cmp = compare_all(&s, &set, 1);
	sf_compare_rank(cmp);
	json = sf_comparison_json(cmp);
	CU_ASSERT_FATAL(json != NULL);
	CU_ASSERT_EQUAL(json_integer_value(json_object_get(
	                    json_object_get(json, "comparison"), "kfold")),
	                4);
	CU_ASSERT_STRING_EQUAL(
	    json_string_value(
	        json_object_get(json_object_get(json, "comparison"), "train")),
	    "x <= 5");
	list =
	    json_object_get(json_object_get(json, "comparison"), "candidates");
	CU_ASSERT_EQUAL_FATAL(json_array_size(list), 3);
	for (size_t i = 0; i < 3; i++) {
		const sf_compare_candidate *c = cmp->c[cmp->order[i]];
		json_t *o = json_array_get(list, i);

		CU_ASSERT_EQUAL(json_integer_value(json_object_get(o, "rank")),
		                (json_int_t)i + 1);
		CU_ASSERT_STRING_EQUAL(
		    json_string_value(json_object_get(o, "model")),
		    c->model->name);
		CU_ASSERT_EQUAL(
		    json_number_value(json_object_get(o, "extrapolation_mape")),
		    c->extra_mape);
		CU_ASSERT_EQUAL(
		    json_is_true(json_object_get(o, "over_parameterised")),
		    c->over);
		levels = json_object_get(
		    json_object_get(o, "extrapolation_by_level"), "x");
		CU_ASSERT_EQUAL_FATAL(json_array_size(levels), 3);
		for (size_t l = 0; l < 3; l++) {
			json_t *e = json_array_get(levels, l);

			CU_ASSERT_EQUAL(
			    json_number_value(json_object_get(e, "value")),
			    c->by_level[l].value);
			CU_ASSERT_EQUAL(
			    json_integer_value(json_object_get(e, "rows")), 3);
			CU_ASSERT_EQUAL(
			    json_number_value(json_object_get(e, "mape")),
			    c->by_level[l].mape);
		}
	}
	first = json_array_get(list, 0);
	CU_ASSERT_STRING_EQUAL(
	    json_string_value(json_object_get(first, "model")), "line");
	CU_ASSERT(json_is_null(json_object_get(
	    json_array_get(list, 2), "max_abs_correlation"))); /* constant */
	json_decref(json);
	sf_compare_free(cmp);
	/* without --train: null */
	settings_init(&s, NULL);
	cmp = sf_compare_alloc(&s);
	CU_ASSERT_FATAL(cmp != NULL);
	CU_ASSERT_FATAL(sf_compare_add(cmp, set->models[0], NULL) == SF_OK);
	cmp->c[0]->fitted = 1; /* its scores do not matter here */
	sf_compare_rank(cmp);
	json = sf_comparison_json(cmp);
	CU_ASSERT_FATAL(json != NULL);
	list =
	    json_object_get(json_object_get(json, "comparison"), "candidates");
	CU_ASSERT(json_is_null(json_object_get(json_array_get(list, 0),
	                                       "extrapolation_by_level")));
	CU_ASSERT(json_is_null(
	    json_object_get(json_object_get(json, "comparison"), "train")));
	json_decref(json);
	sf_compare_free(cmp);
	sf_model_set_free(set);
}

int
main(void)
{
	CU_TestInfo compare[] = {
	    {"scores equal the fit, K-fold and --train run directly",
	     test_scores},
	    {"a candidate of some rows (a --by group)", test_rows},
	    {"every candidate as a unit of work", test_fit_all},
	    {"ranked by AICc, Akaike weights, failed and NaN last", test_rank},
	    {"the table of rankings; ties within SF_COMPARE_TIE", test_rank_by},
	    {"other outputs, other rows, poorly determined constants",
	     test_warnings_and_notes},
	    {"unreadable data, a bad column, bad --train, before any fit",
	     test_errors},
	    {"extrapolation by held-out value, across candidates", test_levels},
	    {"other rows of the same file and count; duplicate names",
	     test_other_row_set},
	    {"the JSON document", test_json},
	    CU_TEST_INFO_NULL,
	};
	CU_SuiteInfo suites[] = {
	    {"compare", NULL, NULL, NULL, NULL, compare},
	    CU_SUITE_INFO_NULL,
	};

	gsl_set_error_handler_off();
	return sf_test_main(suites);
}
