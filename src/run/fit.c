/*
 * fit.c (run/) - the pipeline of `scalefit fit`: one fit and its report,
 * or one per group.
 */
#include "run/fit.h"
#include "fit/ensemble.h"
#include "fit/tune.h"
#include "use/json.h"

#include <math.h>

#include <stdlib.h>
#include <string.h>

void
sf_run_fit_settings_init(sf_run_fit_settings *s)
{
	memset(s, 0, sizeof *s);
	sf_fit_options_init(&s->options);
}

/* Release the typed results and output of r, keeping the problem. */
static void
clear_results(sf_run_fit_result *r)
{
	sf_resample_free(r->bootstrap);
	sf_resample_free(r->restarts);
	sf_stats_free(r->stats);
	sf_fit_result_free(r->fit);
	sf_run_output_clear(&r->out);
	r->bootstrap = r->restarts = NULL;
	r->stats = NULL;
	r->fit = NULL;
	r->has_interval = 0;
}

void
sf_run_fit_result_free(sf_run_fit_result *r)
{
	if (r == NULL)
		return;
	clear_results(r);
	for (size_t i = 0; r->members != NULL && i < r->nmembers; i++)
		sf_run_fit_result_free(r->members[i]);
	free(r->members);
	free(r->weights);
	sf_fleet_free(r->fleet);
	sf_problem_close(&r->problem);
	free(r);
}

/* The fit, bootstrap, statistics and interval of r on data (formula f). */
static int
fit_compute(const sf_run_fit_settings *s, const sf_model *m,
            const sf_dataset *data, const sf_formula *f,
            const sf_fit_options *o, sf_warn_fn warn, void *warn_ctx,
            sf_run_fit_result *r, sf_error *err)
{
	int rc;

	if (s->restarts > 0)
		rc = sf_restarts_run(m, data, f, o, s->restarts, &r->fit,
		                     &r->restarts, err);
	else
		rc = sf_tune_fit(m, data, f, o, &r->fit, err);
	if (rc == SF_OK && s->bootstrap > 0)
		rc = sf_bootstrap_run(m, data, f, o, r->fit, s->bootstrap,
		                      &r->bootstrap, err);
	if (rc != SF_OK)
		return rc;
	/* Without uncertainties the fit is still worth reporting. */
	if (sf_stats_compute(f, data, r->fit, &r->stats, err) != SF_OK) {
		if (err->code == SF_ENOMEM)
			return SF_ENOMEM;
		if (warn != NULL)
			warn(warn_ctx, err);
	} else if (r->stats->note != NULL && warn != NULL) {
		sf_error_set(err, SF_OK, "%s", r->stats->note);
		warn(warn_ctx, err);
	}
	/* What a new run may measure: predict and scale read it. */
	if (r->stats != NULL &&
	    sf_interval_calibrate(m, data, f, o, r->fit, r->stats, NULL,
	                          &r->interval, err) == SF_OK)
		r->has_interval = 1;
	else if (r->stats != NULL && err->code == SF_ENOMEM)
		return SF_ENOMEM;
	return SF_OK;
}

/* sf_report_print_text() as an sf_run_print_fn. */
static int
print_report(FILE *out, const void *arg)
{
	sf_report_print_text(arg, out);
	return SF_OK;
}

/* r's report: the JSON when want_json, the text. */
static int
fit_report(const sf_run_fit_settings *s, const sf_model *m,
           const sf_dataset *data, const sf_formula *f, sf_warn_fn warn,
           void *warn_ctx, int want_json, sf_run_fit_result *r, sf_error *err)
{
	sf_report report = {m,           data,
	                    f,           r->fit,
	                    r->stats,    r->bootstrap,
	                    r->restarts, r->has_interval ? &r->interval : NULL};

	if (want_json && warn != NULL && s->residuals == SF_RESIDUALS_AUTO &&
	    !sf_report_has_residuals(&report, s->residuals)) {
		sf_error w;

		sf_error_clear(&w);
		sf_error_set(&w, SF_OK,
		             "the JSON report leaves out the residuals of its "
		             "%zu rows (more than %d; --residuals all writes "
		             "them)",
		             data->rows, SF_RESIDUALS_AUTO_MAX);
		warn(warn_ctx, &w);
	}
	if (want_json && (r->out.json = sf_report_json_residuals(
	                      &report, s->residuals)) == NULL)
		return sf_error_set(err, SF_ENOMEM, "out of memory");
	return sf_run_text(print_report, &report, &r->out.text, err);
}

/* The pipeline of one fit, shared by a plain run and by every group of a
 * --by run; on failure r holds no results. */
static int
fit_one(const sf_run_fit_settings *s, const sf_model *m, const sf_dataset *data,
        const sf_formula *f, const sf_fit_options *o, sf_warn_fn warn,
        void *warn_ctx, int want_json, sf_run_fit_result *r, sf_error *err)
{
	int rc = fit_compute(s, m, data, f, o, warn, warn_ctx, r, err);

	if (rc == SF_OK)
		rc = fit_report(s, m, data, f, warn, warn_ctx, want_json, r,
		                err);
	if (rc != SF_OK)
		clear_results(r);
	return rc;
}

/* One group of a --by run (ctx: an sf_fleet_job). */
static int
fit_group(void *ctx, const sf_dataset *group, size_t index, sf_warn_fn warn,
          void *warn_ctx, json_t **report, char **text, sf_error *err)
{
	const sf_fleet_job *job = ctx;
	const sf_run_fit_settings *s = job->settings;
	sf_fit_options o = sf_fleet_options(job, &s->options, index);
	sf_run_fit_result r;
	int rc;

	memset(&r, 0, sizeof r);
	rc = fit_one(s, job->model, group, job->formula, &o, warn, warn_ctx, 1,
	             &r, err);
	*report = r.out.json;
	*text = r.out.text;
	r.out.json = NULL;
	r.out.text = NULL;
	clear_results(&r);
	return rc;
}

/* The ensemble's table: each member's weight and scores. */
static int
print_ensemble(FILE *out, const void *arg)
{
	const sf_run_fit_result *r = arg;
	size_t none = 0;

	for (size_t i = 0; i < r->nmembers; i++)
		none += r->weights[i] == 0;
	fprintf(out,
	        "ensemble of %zu formulas of %s, weighed %s%s\n(the "
	        "evidence beyond the range is too thin to rank them; the last "
	        "column\nis each one's expected error a doubling beyond the "
	        "fitted range):\n\n  %-16s %8s %9s %11s %11s\n",
	        r->nmembers, r->members[0]->model->path,
	        r->weighed ? "by their weight: keys" : "equally",
	        none > 0 ? " but those without an error model (weight 0)" : "",
	        "model", "weight", "MAPE", "AICc", "error");
	for (size_t i = 0; i < r->nmembers; i++) {
		const sf_run_fit_result *m = r->members[i];
		char growth[32] = "-";

		if (m->has_interval && sf_interval_weight(&m->interval) > 0)
			snprintf(growth, sizeof growth, "%.2g%%",
			         100 / sqrt(sf_interval_weight(&m->interval)));
		fprintf(out, "  %-16.16s %8.3f %8.3g%% %11.5g %11s\n",
		        m->model->name, r->weights[i],
		        m->stats != NULL ? m->stats->mape : NAN,
		        m->stats != NULL ? m->stats->aicc : NAN, growth);
	}
	fprintf(out, "\npredict, scale and next read the ensemble's FIT.json "
	             "as one prediction:\nthe weighted mean of the members' "
	             "predictions, and their mixture's interval.\n");
	for (size_t i = 0; i < r->nmembers; i++)
		fprintf(out, "\n--- %s (weight %.3f) ---\n%s",
		        r->members[i]->model->name, r->weights[i],
		        r->members[i]->out.text);
	return SF_OK;
}

/* The ensemble's JSON: {"ensemble": {"weights", "members"}, "fits"}. */
static json_t *
ensemble_json(const sf_run_fit_result *r)
{
	json_t *root = json_object(), *members = json_array(),
	       *fits = json_array();
	int ok = root != NULL && members != NULL && fits != NULL;

	for (size_t i = 0; ok && i < r->nmembers; i++) {
		const sf_run_fit_result *m = r->members[i];
		json_t *o = json_object();

		sf_json_put(o, "model", json_string(m->model->name), &ok);
		sf_json_put(o, "weight", sf_json_number(r->weights[i]), &ok);
		ok = ok && json_array_append_new(members, o) == 0 &&
		     json_array_append(fits, m->out.json) == 0;
	}
	sf_json_put(root, "scalefit_version", json_string(PACKAGE_VERSION),
	            &ok);
	sf_json_put(root, "ensemble",
	            json_pack("{s:s, s:O}", "weights",
	                      r->weighed ? "model file" : "equal", "members",
	                      members),
	            &ok);
	sf_json_put(root, "fits", fits, &ok);
	json_decref(members);
	return sf_json_done(root, ok);
}

/* Every member of ensemble set fitted to its rows; those with an interval
 * weigh as the model file's weight: says, equally without
 * (fit/ensemble.h), the rest nothing. */
static int
fit_ensemble(const sf_model_set *set, const sf_run_fit_settings *s,
             sf_run_fit_result *r, sf_error *err)
{
	const size_t k = set->count;
	int rc = SF_OK;

	r->members = calloc(k, sizeof *r->members);
	r->weights = calloc(k, sizeof *r->weights);
	if (r->members == NULL || r->weights == NULL)
		return sf_error_set(err, SF_ENOMEM, "out of memory");
	r->nmembers = k;
	r->model = set->models[0];
	r->weighed = sf_model_set_weighed(set);
	for (size_t i = 0; i < k && rc == SF_OK; i++) {
		const sf_model *m = set->models[i];
		sf_run_fit_result *x = calloc(1, sizeof *x);
		sf_loss loss = sf_fit_loss(m, &s->options);

		if ((r->members[i] = x) == NULL) {
			rc = sf_error_set(err, SF_ENOMEM, "out of memory");
			break;
		}
		x->model = m;
		rc = sf_run_data_open(m, &s->data, loss, 1, s->warn,
		                      s->warn_ctx, &x->problem, err);
		if (rc == SF_OK)
			rc = fit_one(s, m, x->problem.data, x->problem.formula,
			             &s->options, s->warn, s->warn_ctx, 1, x,
			             err);
		if (rc == SF_OK && x->has_interval)
			r->weights[i] = m->ensemble_weight;
	}
	if (rc != SF_OK)
		return rc;
	if (!sf_ensemble_normalise(r->weights, k)) {
		/* no member has an error model: each as the file weighs it */
		for (size_t i = 0; i < k; i++)
			r->weights[i] = set->models[i]->ensemble_weight;
		sf_ensemble_normalise(r->weights, k);
	}
	if (s->json && (r->out.json = ensemble_json(r)) == NULL)
		return sf_error_set(err, SF_ENOMEM, "out of memory");
	return sf_run_text(print_ensemble, r, &r->out.text, err);
}

/* Warn when a text column of the data splits the rows fitted as repeats
 * of one configuration (input/dataset.h): they may be different jobs. */
static void
warn_split_repeats(const sf_dataset *d, sf_warn_fn warn, void *warn_ctx)
{
	sf_dataset_split split;
	const sf_dataset_column *c;
	sf_error w;

	if (warn == NULL || !sf_dataset_replicate_split(d, &split))
		return;
	c = &d->columns[split.column];
	sf_error_clear(&w);
	sf_error_at(&w, SF_OK, d->file, 0, 0,
	            "rows with equal inputs are fitted as repeats of one run, "
	            "but column '%s' differs between them in %zu of %zu "
	            "repeated configurations (its values account for %.0f%% "
	            "of their scatter): if they are different jobs, fit each "
	            "with --by %s, or keep one with --where \"%s == '%s'\"",
	            c->name, split.configs, split.repeated, 100 * split.share,
	            c->name, c->name, c->levels[0]);
	warn(warn_ctx, &w);
}

int
sf_run_fit(const sf_model_set *set, const sf_run_fit_settings *s,
           sf_run_fit_result **out, sf_error *err)
{
	sf_run_fit_result *r = calloc(1, sizeof *r);
	int ensemble, rc;

	*out = NULL;
	if (r == NULL)
		return sf_error_set(err, SF_ENOMEM, "out of memory");
	if ((rc = sf_run_data_ensemble(set, &s->data, &s->options, &ensemble,
	                               err)) != SF_OK) {
		sf_run_fit_result_free(r);
		return rc;
	}
	if (ensemble) {
		if ((rc = fit_ensemble(set, s, r, err)) != SF_OK) {
			sf_run_fit_result_free(r);
			return rc;
		}
		*out = r;
		return SF_OK;
	}
	rc = sf_run_data_prepare(set, &s->data, &s->options, s->warn,
	                         s->warn_ctx, &r->model, &r->problem, err);
	if (rc == SF_OK && sf_run_data_grouped(r->model, &s->data)) {
		sf_fleet_job job = {
		    s, r->model, r->problem.formula,
		    sf_fit_settings_effective(r->model, &s->options).seed};

		rc = sf_run_fleet(r->model, &r->problem, &s->data, fit_group,
		                  &job, s->warn, s->warn_ctx, &r->fleet,
		                  &r->out, err);
	} else if (rc == SF_OK) {
		warn_split_repeats(r->problem.data, s->warn, s->warn_ctx);
		rc =
		    fit_one(s, r->model, r->problem.data, r->problem.formula,
		            &s->options, s->warn, s->warn_ctx, s->json, r, err);
	}
	if (rc != SF_OK) {
		sf_run_fit_result_free(r);
		return rc;
	}
	*out = r;
	return SF_OK;
}
