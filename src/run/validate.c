/*
 * validate.c (run/) - the pipeline of `scalefit validate`, and its text.
 */
#include "run/validate.h"
#include "use/text.h"
#include "base/escape.h"
#include "fit/ensemble.h"
#include "fit/tune.h"
#include "use/json.h"
#include "use/report.h"
#include "use/validation.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* The held-out rows listed of a split (the JSON lists all). */
enum { ROWS_SHOWN = 40 };

void
sf_run_validate_settings_init(sf_run_validate_settings *s)
{
	memset(s, 0, sizeof *s);
	sf_fit_options_init(&s->options);
}

void
sf_run_validate_result_free(sf_run_validate_result *r)
{
	if (r == NULL)
		return;
	sf_holdout_free(r->holdout);
	sf_fleet_free(r->fleet);
	sf_run_output_clear(&r->out);
	for (size_t i = 0; i < r->nmembers; i++) {
		if (r->member_holdouts != NULL)
			sf_holdout_free(r->member_holdouts[i]);
		if (r->members != NULL && i > 0)
			sf_problem_close(&r->members[i]);
	}
	free(r->members);
	free(r->member_holdouts);
	sf_problem_close(&r->problem);
	free(r);
}

/* What the text report shows. */
typedef struct validation {
	const sf_model *m;
	const sf_dataset *d;
	const sf_holdout *h;
	const char *train, *method;
	/* an ensemble's members and their own holdouts, else 0 */
	size_t nmembers;
	const sf_problem *members;
	sf_holdout *const *member_holdouts;
	const sf_model_set *set; /* an ensemble's: its members' weights */
} validation;

/* The header: which rows were fitted, which predicted. */
static void
print_header(FILE *out, const validation *v)
{
	const sf_dataset *d = v->d;
	const sf_holdout *h = v->h;
	size_t trained = 0;

	for (size_t r = 0; r < d->rows; r++)
		trained += h->fold[r] == SF_FOLD_TRAIN;
	/* The names come from files: escaped. */
	if (v->nmembers > 0) {
		fprintf(out, "validation of the ensemble of %zu formulas of ",
		        v->nmembers);
		sf_escape_print(out, v->m->path, 0);
	} else {
		fputs("validation of ", out);
		sf_escape_print(out, v->m->name, 0);
	}
	fputs(" on ", out);
	sf_escape_print(out, d->file, 0);
	fprintf(out, " (%zu rows)\n", d->rows);
	if (v->train != NULL)
		fprintf(out,
		        "  fitted on the %zu rows where %s, predicting the "
		        "other %zu\n",
		        trained, v->train, d->rows - trained);
	else
		fprintf(out,
		        "  %s: %zu folds over %zu configurations (repetitions "
		        "kept together)\n",
		        v->method, h->nfolds, d->nconfigs);
	if (h->failed_folds > 0)
		fprintf(out,
		        "  %zu folds could not be fitted; their rows are not "
		        "scored\n",
		        h->failed_folds);
}

/* A split's held-out rows, the first ROWS_SHOWN of them. */
static void
print_rows(FILE *out, const validation *v)
{
	const sf_dataset *d = v->d;
	const sf_holdout *h = v->h;
	size_t shown = 0;

	fprintf(out, "\n  %6s", "line");
	for (size_t i = 0; i < d->ninputs; i++)
		fprintf(out, " %12s", d->inputs[i].name);
	fprintf(out, " %12s %12s %8s  %-25s\n", "observed", "predicted",
	        "error", "95% prediction interval");
	for (size_t r = 0; r < d->rows && shown < ROWS_SHOWN; r++) {
		char buf[64];

		if (h->fold[r] == SF_FOLD_TRAIN)
			continue;
		fprintf(out, "  %6d", d->lines[r]);
		for (size_t i = 0; i < d->ninputs; i++) {
			sf_validation_value(&d->inputs[i],
			                    d->inputs[i].values[r], buf,
			                    sizeof buf);
			fprintf(out, " %12.12s", buf);
		}
		snprintf(buf, sizeof buf, "[%.6g, %.6g]", h->lo95[r],
		         h->hi95[r]);
		fprintf(out, " %12.6g %12.6g %+7.2f%%  %-25s%s\n", d->output[r],
		        h->predicted[r],
		        100 * (h->predicted[r] - d->output[r]) / d->output[r],
		        buf,
		        d->output[r] < h->lo95[r] || d->output[r] > h->hi95[r]
		            ? "  outside"
		            : "");
		shown++;
	}
	if (shown < h->predicted_rows)
		fprintf(out, "  ... %zu more rows (--json lists all)\n",
		        h->predicted_rows - shown);
}

/* The scores of the predicted rows and of their intervals. */
static void
print_scores(FILE *out, const sf_holdout *h)
{
	fprintf(out,
	        "\n  predicted %zu rows: MAPE %.3g%%, max error %.3g%%, bias "
	        "%+.3g%%\n",
	        h->predicted_rows, h->mape, h->max_ape, h->bias);
	if (h->interval_rows > 0)
		fprintf(
		    out,
		    "  95%% prediction intervals: %.3g%% of %zu rows inside, "
		    "mean half-width %.3g%%, interval score %.3g%%\n",
		    h->coverage95, h->interval_rows, h->mean_halfwidth_pct,
		    h->interval_score);
	else
		fprintf(out,
		        "  95%% prediction intervals: none (no fold's fit had "
		        "residual degrees of freedom)\n");
}

/* The scores by value of each input with at least two held-out values. */
static int
print_levels(FILE *out, const validation *v)
{
	const sf_dataset *d = v->d;
	double values[SF_HOLDOUT_LEVELS_MAX];

	for (size_t i = 0; i < d->ninputs; i++) {
		size_t n = sf_holdout_levels(v->h, d, i, values);

		if (n < 2)
			continue;
		fprintf(out, "\n  by %s:\n  %12s %6s %9s %9s %9s %9s %9s\n",
		        d->inputs[i].name, d->inputs[i].name, "rows", "MAPE",
		        "max", "bias", "covered", "+-width");
		for (size_t g = 0; g < n; g++) {
			sf_holdout_scores s;
			char label[64];

			if (sf_holdout_score_level(v->h, d, i, values[g], &s,
			                           NULL) != SF_OK)
				return SF_ENOMEM;
			sf_validation_value(&d->inputs[i], values[g], label,
			                    sizeof label);
			fprintf(
			    out,
			    "  %12.12s %6zu %8.3g%% %8.3g%% %+8.3g%% %8.3g%% "
			    "%8.3g%%\n",
			    label, s.count, s.mape, s.max_ape, s.bias,
			    s.coverage95, s.mean_halfwidth_pct);
		}
	}
	return SF_OK;
}

/* The interval scores by distance beyond each fold's training range. */
static int
print_bands(FILE *out, const validation *v)
{
	sf_holdout_scores s[SF_HOLDOUT_BANDS];

	if (v->h->distance == NULL || v->h->interval_rows == 0)
		return SF_OK;
	if (sf_holdout_score_bands(v->h, v->d, s, NULL) != SF_OK)
		return SF_ENOMEM;
	fprintf(out,
	        "\n  by distance beyond the training range (doublings):\n"
	        "  %12s %6s %9s %9s %9s %9s\n",
	        "doublings", "rows", "MAPE", "bias", "covered", "+-width");
	for (size_t b = 0; b < SF_HOLDOUT_BANDS; b++)
		if (s[b].count > 0)
			fprintf(
			    out,
			    "  %12s %6zu %8.3g%% %+8.3g%% %8.3g%% %8.3g%%\n",
			    sf_holdout_band_name(b), s[b].count, s[b].mape,
			    s[b].bias, s[b].coverage95,
			    s[b].mean_halfwidth_pct);
	return SF_OK;
}

/* An ensemble's members, each scored alone on the same rows. */
static void
print_members(FILE *out, const validation *v)
{
	int weighed;

	if (v->nmembers == 0)
		return;
	weighed = sf_model_set_weighed(v->set);
	fprintf(out, "\n  each formula alone (the ensemble mixes them%s):\n",
	        weighed ? ", each by its share below" : ", weighed equally");
	fprintf(out, "  %-16s %9s %9s %9s%s\n", "model", "MAPE", "covered",
	        "+-width", weighed ? "    weight" : "");
	for (size_t i = 0; i < v->nmembers; i++) {
		const sf_holdout *h = v->member_holdouts[i];

		fprintf(out, "  %-16.16s %8.3g%% %8.3g%% %8.3g%%",
		        v->members[i].model->name, h->mape, h->coverage95,
		        h->mean_halfwidth_pct);
		if (weighed)
			fprintf(out, " %9.3f", sf_model_set_share(v->set, i));
		fputc('\n', out);
	}
}

static int
print_text(FILE *out, const void *arg)
{
	const validation *v = arg;

	print_header(out, v);
	if (v->train != NULL)
		print_rows(out, v);
	print_scores(out, v->h);
	print_members(out, v);
	if (print_bands(out, v) != SF_OK)
		return SF_ENOMEM;
	return print_levels(out, v);
}

/* Every predicted row as CSV (--csv): an sf_run_print_fn, the names of
 * the JSON's predictions. */
static int
print_csv(FILE *out, const void *arg)
{
	const validation *v = arg;
	const sf_dataset *d = v->d;
	const sf_holdout *h = v->h;
	static const char *const head[] = {"row", "line", "fold"};
	static const char *const tail[] = {"observed",      "predicted",
	                                   "error_pct",     "interval95_lo",
	                                   "interval95_hi", "distance"};

	for (size_t k = 0; k < 3; k++)
		sf_text_csv_field(out, head[k], k == 0);
	for (size_t i = 0; i < d->ninputs; i++)
		sf_text_csv_field(out, d->inputs[i].name, 0);
	for (size_t k = 0; k < 6; k++)
		sf_text_csv_field(out, tail[k], 0);
	putc('\n', out);
	for (size_t r = 0; r < d->rows; r++) {
		double y = d->output[r], f = h->predicted[r];

		if (h->fold[r] == SF_FOLD_TRAIN || isnan(f))
			continue;
		fprintf(out, "%zu,%d,%d", r, d->lines[r], h->fold[r]);
		for (size_t i = 0; i < d->ninputs; i++) {
			const sf_dataset_input *in = &d->inputs[i];
			double x = in->values[r];

			if (in->levels != NULL)
				sf_text_csv_field(out, in->levels[(size_t)x],
				                  0);
			else
				sf_text_csv_number(out, x, 0);
		}
		sf_text_csv_number(out, y, 0);
		sf_text_csv_number(out, f, 0);
		sf_text_csv_number(out, 100 * (f - y) / y, 0);
		sf_text_csv_number(out, h->lo95 != NULL ? h->lo95[r] : NAN, 0);
		sf_text_csv_number(out, h->lo95 != NULL ? h->hi95[r] : NAN, 0);
		sf_text_csv_number(
		    out, h->distance != NULL ? h->distance[r] : NAN, 0);
		putc('\n', out);
	}
	return SF_OK;
}

/* The name of the way s holds rows out. */
static const char *
method_of(const sf_run_validate_settings *s)
{
	return s->train != NULL ? "split"
	       : s->loo         ? "leave-one-configuration-out"
	                        : "kfold";
}

/* Validate model m (formula f) on data with options o: the holdout in
 * *holdout, its JSON when want_json and text in out. */
static int
validate_one(const sf_run_validate_settings *s, const sf_model *m,
             const sf_dataset *data, const sf_formula *f,
             const sf_fit_options *o, int want_json, sf_holdout **holdout,
             sf_run_output *out, sf_error *err)
{
	const char *method = method_of(s);
	int *fold = malloc((data->rows + 1) * sizeof *fold);
	sf_holdout *h = NULL;
	size_t nfolds = 1;
	int rc;

	*holdout = NULL;
	if (fold == NULL) {
		rc = sf_error_set(err, SF_ENOMEM, "out of memory");
		goto done;
	}
	if ((rc = sf_folds_make(m, f, data, o, s->train, s->loo ? 0 : s->kfold,
	                        fold, &nfolds, err)) != SF_OK ||
	    (rc = sf_holdout_run(m, data, f, o, sf_tune_fit, fold, nfolds, 1,
	                         &h, err)) != SF_OK)
		goto done;
	if (want_json && (out->json = sf_validation_json(m, data, h, method,
	                                                 s->train)) == NULL) {
		rc = sf_error_set(err, SF_ENOMEM, "out of memory");
		goto done;
	}
	{
		validation v = {m, data, h,    s->train, method,
		                0, NULL, NULL, NULL};

		rc = sf_run_text(s->csv ? print_csv : print_text, &v,
		                 &out->text, err);
	}
done:
	free(fold);
	if (rc != SF_OK) {
		sf_holdout_free(h);
		sf_run_output_clear(out);
		return rc;
	}
	*holdout = h;
	return SF_OK;
}

/* The JSON of an ensemble's validation: the mixture's, with each member's
 * own scores under validation.ensemble. */
static json_t *
ensemble_json(const sf_run_validate_settings *s, const sf_model_set *set,
              const sf_run_validate_result *r)
{
	json_t *root = sf_validation_json(set->models[0], r->problem.data,
	                                  r->holdout, method_of(s), s->train);
	json_t *members = json_array(), *v;
	int ok = root != NULL && members != NULL;

	for (size_t i = 0; ok && i < r->nmembers; i++) {
		const sf_holdout *h = r->member_holdouts[i];
		json_t *o = json_pack(
		    "{s:s, s:o, s:o, s:o, s:o}", "model",
		    r->members[i].model->name, "weight",
		    sf_json_number(sf_model_set_share(set, i)), "mape",
		    sf_json_number(h->mape), "coverage95",
		    sf_json_number(h->coverage95), "mean_halfwidth_pct",
		    sf_json_number(h->mean_halfwidth_pct));

		ok = o != NULL && json_array_append_new(members, o) == 0;
	}
	if (ok) {
		v = json_object_get(root, "validation");
		ok = json_object_set_new(json_object_get(root, "model"), "name",
		                         json_string("ensemble")) == 0 &&
		     json_object_set_new(
		         v, "ensemble",
		         json_pack("{s:o}", "members", members)) == 0;
		members = NULL;
	}
	json_decref(members);
	return sf_json_done(root, ok);
}

/* Every member of ensemble set validated on the same folds (the first
 * member's), their holdouts mixed into r->holdout. */
static int
validate_ensemble(const sf_model_set *set, const sf_run_validate_settings *s,
                  sf_run_validate_result *r, sf_error *err)
{
	const size_t k = set->count;
	int *fold = NULL;
	double *weights = NULL;
	size_t nfolds = 1;
	int rc = SF_OK;

	r->members = calloc(k, sizeof *r->members);
	r->member_holdouts = calloc(k, sizeof *r->member_holdouts);
	if (r->members == NULL || r->member_holdouts == NULL)
		return sf_error_set(err, SF_ENOMEM, "out of memory");
	r->nmembers = k;
	r->model = set->models[0];
	for (size_t i = 0; i < k && rc == SF_OK; i++) {
		const sf_model *m = set->models[i];
		sf_loss loss = sf_fit_loss(m, &s->options);

		rc = sf_run_data_open(
		    m, &s->data, loss, 1, s->warn, s->warn_ctx,
		    i == 0 ? &r->problem : &r->members[i], err);
		if (rc == SF_OK && i == 0)
			r->members[0] = r->problem;
		if (rc == SF_OK &&
		    r->members[i].data->rows != r->problem.data->rows)
			rc = sf_error_set(
			    err, SF_EVALUE,
			    "the formulas of an ensemble must read the same "
			    "rows: "
			    "model '%s' reads %zu, model '%s' %zu",
			    m->name, r->members[i].data->rows,
			    set->models[0]->name, r->problem.data->rows);
	}
	if (rc == SF_OK &&
	    (fold = malloc((r->problem.data->rows + 1) * sizeof *fold)) == NULL)
		rc = sf_error_set(err, SF_ENOMEM, "out of memory");
	if (rc == SF_OK)
		rc = sf_folds_make(set->models[0], r->problem.formula,
		                   r->problem.data, &s->options, s->train,
		                   s->loo ? 0 : s->kfold, fold, &nfolds, err);
	for (size_t i = 0; i < k && rc == SF_OK; i++)
		rc = sf_holdout_run(
		    set->models[i], r->members[i].data, r->members[i].formula,
		    &s->options, sf_tune_fit, fold, nfolds, SF_HOLDOUT_SHAPES,
		    &r->member_holdouts[i], err);
	free(fold);
	if (rc == SF_OK && (weights = malloc(k * sizeof *weights)) == NULL)
		rc = sf_error_set(err, SF_ENOMEM, "out of memory");
	for (size_t i = 0; i < k && rc == SF_OK; i++)
		weights[i] = set->models[i]->ensemble_weight;
	if (rc == SF_OK)
		rc = sf_ensemble_holdout(
		    (const sf_holdout *const *)r->member_holdouts, weights, k,
		    r->problem.data,
		    sf_loss_get(sf_fit_loss(set->models[0], &s->options))
		        ->multiplicative,
		    &r->holdout, err);
	free(weights);
	if (rc == SF_OK && s->json &&
	    (r->out.json = ensemble_json(s, set, r)) == NULL)
		rc = sf_error_set(err, SF_ENOMEM, "out of memory");
	if (rc == SF_OK) {
		validation v = {set->models[0], r->problem.data,    r->holdout,
		                s->train,       method_of(s),       k,
		                r->members,     r->member_holdouts, set};

		rc = sf_run_text(s->csv ? print_csv : print_text, &v,
		                 &r->out.text, err);
	}
	return rc;
}

/* One group of a --by run (ctx: an sf_fleet_job). */
static int
validate_group(void *ctx, const sf_dataset *group, size_t index,
               sf_warn_fn warn, void *warn_ctx, json_t **report, char **text,
               sf_error *err)
{
	const sf_fleet_job *job = ctx;
	const sf_run_validate_settings *s = job->settings;
	sf_fit_options o = sf_fleet_options(job, &s->options, index);
	sf_run_output out = {0};
	sf_holdout *h = NULL;
	int rc;

	(void)warn;
	(void)warn_ctx;
	rc = validate_one(s, job->model, group, job->formula, &o, 1, &h, &out,
	                  err);
	if (rc == SF_OK && h->predicted_rows == 0)
		rc = sf_error_set(err, SF_EFAIL, "no row could be predicted");
	sf_holdout_free(h);
	*report = out.json;
	*text = out.text;
	return rc;
}

int
sf_run_validate(const sf_model_set *set, const sf_run_validate_settings *s,
                sf_run_validate_result **out, sf_error *err)
{
	sf_run_validate_result *r;
	int ensemble, rc;

	*out = NULL;
	if ((s->train != NULL) + (s->kfold > 0) + (s->loo != 0) != 1)
		return sf_error_set(err, SF_EREQUEST,
		                    "validate needs exactly one of --train "
		                    "EXPR, --kfold K and --loo");
	if (s->csv && s->json)
		return sf_error_set(err, SF_EREQUEST,
		                    "--json and --csv: choose one");
	if ((r = calloc(1, sizeof *r)) == NULL)
		return sf_error_set(err, SF_ENOMEM, "out of memory");
	r->method = method_of(s);
	if ((rc = sf_run_data_ensemble(set, &s->data, &s->options, &ensemble,
	                               err)) != SF_OK) {
		sf_run_validate_result_free(r);
		return rc;
	}
	if (ensemble) {
		if ((rc = validate_ensemble(set, s, r, err)) != SF_OK) {
			/* the first member's problem is r->problem's copy */
			if (r->members != NULL)
				memset(&r->members[0], 0, sizeof r->members[0]);
			sf_run_validate_result_free(r);
			return rc;
		}
		*out = r;
		return SF_OK;
	}
	rc = sf_run_data_prepare(set, &s->data, &s->options, s->warn,
	                         s->warn_ctx, &r->model, &r->problem, err);
	if (rc == SF_OK && s->csv && sf_run_data_grouped(r->model, &s->data))
		rc = sf_error_set(err, SF_EREQUEST,
		                  "--csv prints one table: not with groups "
		                  "(--by, or the model's by:)");
	else if (rc == SF_OK && sf_run_data_grouped(r->model, &s->data)) {
		sf_fleet_job job = {
		    s, r->model, r->problem.formula,
		    sf_fit_settings_effective(r->model, &s->options).seed};

		rc = sf_run_fleet(r->model, &r->problem, &s->data,
		                  validate_group, &job, s->warn, s->warn_ctx,
		                  &r->fleet, &r->out, err);
	} else if (rc == SF_OK) {
		rc = validate_one(s, r->model, r->problem.data,
		                  r->problem.formula, &s->options, s->json,
		                  &r->holdout, &r->out, err);
	}
	if (rc != SF_OK) {
		sf_run_validate_result_free(r);
		return rc;
	}
	*out = r;
	return SF_OK;
}
