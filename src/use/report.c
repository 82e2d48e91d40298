/*
 * report.c - the text and JSON reports of a fit.
 *
 * The JSON tree is built with jansson; every insertion goes through put(),
 * which records an allocation failure once, so out-of-memory is handled in
 * one place (sf_report_json returns NULL).
 */
#include "use/report.h"
#include "base/escape.h"
#include "base/atomic.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Insert value under key; remember any failure in *ok. */
static void
put(json_t *obj, const char *key, json_t *value, int *ok)
{
	if (value == NULL || json_object_set_new(obj, key, value) != 0)
		*ok = 0;
}

static void
append(json_t *array, json_t *value, int *ok)
{
	if (value == NULL || json_array_append_new(array, value) != 0)
		*ok = 0;
}

json_t *
sf_json_number(double x)
{
	if (!isfinite(x))
		return json_null();
	if (x == floor(x) && fabs(x) <= 9007199254740992.0 &&
	    !(x == 0 && signbit(x)))
		return json_integer((json_int_t)x);
	return json_real(x);
}

static json_t *
json_text(const char *s)
{
	return json_string(s != NULL ? s : "");
}

static json_t *
model_json(const sf_report *r, int *ok)
{
	const sf_model *m = r->model;
	json_t *model = json_object(), *terms = json_object();
	json_t *inputs = json_object(), *fixed = json_object();
	json_t *fit = json_object();

	if (model == NULL || terms == NULL || inputs == NULL || fixed == NULL ||
	    fit == NULL) {
		*ok = 0;
		json_decref(terms);
		json_decref(inputs);
		json_decref(fixed);
		json_decref(fit);
		return model;
	}
	put(model, "name", json_text(m->name), ok);
	put(model, "description", json_text(m->description), ok);
	put(model, "time", json_text(m->time.text), ok);
	for (size_t k = 0; k < m->nterms; k++) {
		json_t *t = json_object();
		if (t == NULL) {
			*ok = 0;
			continue;
		}
		put(t, "expr", json_text(m->terms[k].expr.text), ok);
		put(t, "kind", json_text(sf_term_kind_name(m->terms[k].kind)),
		    ok);
		put(terms, m->terms[k].name, t, ok);
	}
	put(model, "terms", terms, ok);
	for (size_t i = 0; i < m->ninputs; i++) {
		const sf_dataset_input *in = &r->data->inputs[i];
		if (in->levels == NULL) {
			put(inputs, m->inputs[i].name,
			    json_text(m->inputs[i].expr.text), ok);
			continue;
		}
		/* A text input: its column and its values' codes. */
		json_t *t = json_object(), *levels = json_array();
		if (t == NULL || levels == NULL) {
			*ok = 0;
			json_decref(t);
			json_decref(levels);
			continue;
		}
		for (size_t k = 0; k < in->nlevels; k++)
			append(levels, json_text(in->levels[k]), ok);
		put(t, "column", json_text(m->inputs[i].expr.text), ok);
		put(t, "levels", levels, ok);
		put(inputs, m->inputs[i].name, t, ok);
	}
	put(model, "inputs", inputs, ok);
	for (size_t i = 0; i < m->nparams; i++)
		if (m->params[i].fixed)
			put(fixed, m->params[i].name,
			    sf_json_number(m->params[i].value), ok);
	put(model, "fixed", fixed, ok);
	put(model, "output",
	    json_text(m->output.text != NULL ? m->output.text : "time"), ok);
	if (m->unit != NULL)
		put(model, "unit", json_text(m->unit), ok);
	put(fit, "loss", json_text(sf_loss_name(r->fit->settings.loss)), ok);
	put(fit, "regularization",
	    json_text(sf_penalty_name(r->fit->settings.penalty)), ok);
	put(fit, "lambda", sf_json_number(r->fit->settings.lambda), ok);
	put(model, "fit", fit, ok);
	return model;
}

static json_t *
data_json(const sf_report *r, int *ok)
{
	const sf_dataset *d = r->data;
	json_t *data = json_object();

	if (data == NULL) {
		*ok = 0;
		return NULL;
	}
	put(data, "file", json_text(d->file), ok);
	put(data, "sha256", json_text(d->sha256), ok);
	put(data, "rows", json_integer((json_int_t)d->rows), ok);
	put(data, "where",
	    r->model->where.text != NULL ? json_text(r->model->where.text)
	                                 : json_null(),
	    ok);
	put(data, "file_rows", json_integer((json_int_t)d->table_rows), ok);
	put(data, "filtered_out", json_integer((json_int_t)d->filtered_out),
	    ok);
	put(data, "skipped", json_integer((json_int_t)d->skipped), ok);
	put(data, "configurations", json_integer((json_int_t)d->nconfigs), ok);
	return data;
}

static json_t *
parameters_json(const sf_report *r, int *ok)
{
	const sf_model *m = r->model;
	const sf_formula *f = r->formula;
	json_t *params = json_object();
	size_t j = 0;

	if (params == NULL) {
		*ok = 0;
		return NULL;
	}
	for (size_t i = 0; i < m->nparams; i++) {
		const sf_model_param *p = &m->params[i];
		json_t *o = json_object(), *ci;

		if (o == NULL) {
			*ok = 0;
			continue;
		}
		if (p->fixed) {
			put(o, "value", sf_json_number(p->value), ok);
			put(o, "fixed", json_true(), ok);
			put(params, p->name, o, ok);
			continue;
		}
		put(o, "value", sf_json_number(r->fit->theta[j]), ok);
		put(o, "stderr",
		    sf_json_number(r->stats != NULL ? r->stats->se[j] : NAN),
		    ok);
		if ((ci = json_array()) != NULL) {
			append(ci,
			       sf_json_number(r->stats != NULL
			                          ? r->stats->ci_low[j]
			                          : NAN),
			       ok);
			append(ci,
			       sf_json_number(r->stats != NULL
			                          ? r->stats->ci_high[j]
			                          : NAN),
			       ok);
		}
		put(o, "ci95", ci, ok);
		put(o, "min", sf_json_number(f->lower[j]), ok);
		put(o, "max", sf_json_number(f->upper[j]), ok);
		put(o, "at_bound", json_boolean(r->fit->at_bound[j] != 0), ok);
		/* An infinite error: the data does not pin this one down. */
		put(o, "determined",
		    json_boolean(r->stats == NULL || !isinf(r->stats->se[j])),
		    ok);
		put(o, "poorly_determined",
		    json_boolean(sf_stats_poorly_determined(
		        r->stats, r->formula, r->fit, j)),
		    ok);
		put(o, "search_value", sf_json_number(r->fit->theta_search[j]),
		    ok);
		put(params, p->name, o, ok);
		j++;
	}
	return params;
}

static json_t *
metrics_json(const sf_report *r, int *ok)
{
	const sf_stats *s = r->stats;
	json_t *o = json_object();

	if (o == NULL) {
		*ok = 0;
		return NULL;
	}
	put(o, "sse", sf_json_number(s != NULL ? s->sse : NAN), ok);
	put(o, "rmse", sf_json_number(s != NULL ? s->rmse : NAN), ok);
	put(o, "mape", sf_json_number(s != NULL ? s->mape : NAN), ok);
	put(o, "max_ape", sf_json_number(s != NULL ? s->max_ape : NAN), ok);
	put(o, "r2", sf_json_number(s != NULL ? s->r2 : NAN), ok);
	put(o, "r2_adjusted", sf_json_number(s != NULL ? s->r2_adj : NAN), ok);
	put(o, "chisqr", sf_json_number(s != NULL ? s->chisqr : NAN), ok);
	put(o, "aic", sf_json_number(s != NULL ? s->aic : NAN), ok);
	put(o, "aicc", sf_json_number(s != NULL ? s->aicc : NAN), ok);
	put(o, "bic", sf_json_number(s != NULL ? s->bic : NAN), ok);
	put(o, "loss", sf_json_number(r->fit->loss), ok);
	put(o, "penalty", sf_json_number(r->fit->penalty), ok);
	put(o, "cost", sf_json_number(r->fit->cost), ok);
	put(o, "condition_number",
	    sf_json_number(s != NULL ? s->condition : NAN), ok);
	put(o, "dof", json_integer(s != NULL ? (json_int_t)s->dof : 0), ok);
	put(o, "rank", json_integer(s != NULL ? (json_int_t)s->rank : 0), ok);
	put(o, "rank_deficient", json_boolean(s != NULL && s->rank_deficient),
	    ok);
	return o;
}

/* Every run of the global search (the first of each search space and its
 * restarts), in the order they ran. */
static json_t *
runs_json(const sf_fit_result *fit, int *ok)
{
	json_t *a = json_array();

	for (size_t i = 0; a != NULL && i < fit->nruns; i++) {
		const sf_fit_search_run *u = &fit->runs[i];
		json_t *o = json_object();

		if (o == NULL) {
			*ok = 0;
			break;
		}
		put(o, "scale", json_text(sf_search_scale_name(u->scale)), ok);
		put(o, "population", json_integer((json_int_t)u->population),
		    ok);
		put(o, "evaluations", json_integer((json_int_t)u->evaluations),
		    ok);
		put(o, "cost", sf_json_number(u->cost), ok);
		put(o, "stop_reason", json_text(u->stop_reason), ok);
		append(a, o, ok);
	}
	return a;
}

static json_t *
optimizer_json(const sf_report *r, int *ok)
{
	const sf_fit_result *fit = r->fit;
	json_t *o = json_object(), *polish = json_object();
	char seed[24];

	if (o == NULL || polish == NULL) {
		*ok = 0;
		json_decref(polish);
		return o;
	}
	put(o, "algorithm",
	    json_text(sf_de_algorithm_name(fit->settings.algorithm)), ok);
	if (!sf_de_method_get(fit->settings.algorithm)->adaptive)
		put(o, "strategy", json_text(fit->settings.strategy), ok);
	/* A 64-bit seed may not fit JSON's integers: give it as text too. */
	snprintf(seed, sizeof seed, "%llu",
	         (unsigned long long)fit->settings.seed);
	put(o, "seed",
	    fit->settings.seed <= 9007199254740992ULL
	        ? json_integer((json_int_t)fit->settings.seed)
	        : json_string(seed),
	    ok);
	put(o, "scale", json_text(sf_search_scale_name(fit->settings.scale)),
	    ok);
	put(o, "chosen_scale", json_text(sf_search_scale_name(fit->scale)), ok);
	{
		json_t *solved = json_array();

		for (size_t j = 0; solved != NULL && j < fit->nparams; j++)
			if (fit->linear[j])
				append(
				    solved,
				    json_text(
				        r->model->params[r->formula->fitted[j]]
				            .name),
				    ok);
		put(o, "separable", solved, ok);
	}
	put(o, "threads", json_integer(fit->threads), ok);
	put(o, "population", json_integer((json_int_t)fit->population), ok);
	put(o, "evaluations", json_integer((json_int_t)fit->evaluations), ok);
	put(o, "generations", json_integer((json_int_t)fit->generations), ok);
	put(o, "restarts", json_integer((json_int_t)fit->restarts), ok);
	put(o, "runs", runs_json(fit, ok), ok);
	put(o, "stop_reason", json_text(fit->stop_reason), ok);
	put(o, "search_cost", sf_json_number(fit->cost_search), ok);
	put(o, "seconds", sf_json_number(fit->seconds), ok);
	put(polish, "ran", json_boolean(fit->polish_ran), ok);
	put(polish, "kept", json_boolean(fit->polish_kept), ok);
	if (fit->polish_stop != NULL)
		put(polish, "stop", json_text(fit->polish_stop), ok);
	put(polish, "iterations",
	    json_integer((json_int_t)fit->polish_iterations), ok);
	if (fit->polish_note != NULL)
		put(polish, "note", json_text(fit->polish_note), ok);
	put(o, "polish", polish, ok);
	return o;
}

static json_t *
matrix_json(const double *m, size_t n, int *ok)
{
	json_t *rows = json_array();

	if (rows == NULL) {
		*ok = 0;
		return NULL;
	}
	for (size_t i = 0; i < n; i++) {
		json_t *row = json_array();
		if (row == NULL) {
			*ok = 0;
			continue;
		}
		for (size_t j = 0; j < n; j++)
			append(row,
			       sf_json_number(m != NULL ? m[i * n + j] : NAN),
			       ok);
		append(rows, row, ok);
	}
	return rows;
}

static json_t *
residuals_json(const sf_report *r, int *ok)
{
	const sf_dataset *d = r->data;
	json_t *rows = json_array();

	if (rows == NULL) {
		*ok = 0;
		return NULL;
	}
	for (size_t i = 0; i < d->rows; i++) {
		json_t *o = json_object(), *in = json_object();
		if (o == NULL || in == NULL) {
			*ok = 0;
			json_decref(o);
			json_decref(in);
			continue;
		}
		put(o, "row", json_integer((json_int_t)i), ok);
		put(o, "line", json_integer(d->lines[i]), ok);
		for (size_t k = 0; k < d->ninputs; k++)
			put(in, d->inputs[k].name,
			    sf_json_number(d->inputs[k].values[i]), ok);
		put(o, "inputs", in, ok);
		put(o, "observed", sf_json_number(d->output[i]), ok);
		put(o, "predicted",
		    sf_json_number(r->stats != NULL ? r->stats->predicted[i]
		                                    : NAN),
		    ok);
		append(rows, o, ok);
	}
	return rows;
}

static json_t *
ranges_json(const sf_dataset *d, int *ok)
{
	json_t *o = json_object();

	if (o == NULL) {
		*ok = 0;
		return NULL;
	}
	for (size_t k = 0; k < d->ninputs; k++) {
		double lo = INFINITY, hi = -INFINITY;
		json_t *pair = json_array();

		for (size_t i = 0; i < d->rows; i++) {
			lo = fmin(lo, d->inputs[k].values[i]);
			hi = fmax(hi, d->inputs[k].values[i]);
		}
		if (pair == NULL) {
			*ok = 0;
			continue;
		}
		append(pair, sf_json_number(lo), ok);
		append(pair, sf_json_number(hi), ok);
		put(o, d->inputs[k].name, pair, ok);
	}
	return o;
}

/* lambda: auto - the choice and the cross-validation curve behind it. */
static json_t *
lambda_json(const sf_fit_result *fit, int *ok)
{
	json_t *o = json_object(), *curve = json_array();

	if (o == NULL || curve == NULL) {
		*ok = 0;
		json_decref(curve);
		return o;
	}
	put(o, "lambda", sf_json_number(fit->settings.lambda), ok);
	put(o, "folds", json_integer((json_int_t)fit->lambda_folds), ok);
	put(o, "criterion", json_string("cv_mape"), ok);
	for (size_t g = 0; g < SF_LAMBDA_GRID; g++)
		append(curve,
		       json_pack("{s:o, s:o}", "lambda",
		                 sf_json_number(fit->lambda_grid[g]), "cv_mape",
		                 sf_json_number(fit->lambda_cv_mape[g])),
		       ok);
	put(o, "curve", curve, ok);
	return o;
}

/* Bootstrap or restarts: per-parameter summaries, costs and samples. */
static json_t *
resample_json(const sf_report *r, const sf_resample *x, int bootstrap, int *ok)
{
	const sf_model *m = r->model;
	const size_t P = x->nparams;
	json_t *o = json_object(), *params = json_object();
	json_t *samples = json_array(), *costs = json_array();

	if (o == NULL || params == NULL || samples == NULL || costs == NULL) {
		*ok = 0;
		json_decref(params);
		json_decref(samples);
		json_decref(costs);
		return o;
	}
	put(o, bootstrap ? "replicates" : "count",
	    json_integer((json_int_t)x->count), ok);
	put(o, "failed", json_integer((json_int_t)x->failed), ok);
	put(o, "evaluations", json_integer((json_int_t)x->evaluations), ok);
	for (size_t j = 0; j < P; j++) {
		json_t *p = json_object(), *ci = json_array();

		if (p == NULL || ci == NULL) {
			*ok = 0;
			json_decref(p);
			json_decref(ci);
			continue;
		}
		append(ci, sf_json_number(x->low[j]), ok);
		append(ci, sf_json_number(x->high[j]), ok);
		put(p, bootstrap ? "ci95" : "range95", ci, ok);
		put(p, "median", sf_json_number(x->median[j]), ok);
		put(p, "sd", sf_json_number(x->sd[j]), ok);
		put(params, m->params[r->formula->fitted[j]].name, p, ok);
	}
	for (size_t b = 0; b < x->count; b++) {
		json_t *row = json_array();

		if (row == NULL) {
			*ok = 0;
			continue;
		}
		for (size_t j = 0; j < P; j++)
			append(row, sf_json_number(x->samples[b * P + j]), ok);
		append(samples, row, ok);
		append(costs, sf_json_number(x->costs[b]), ok);
	}
	put(o, "parameters", params, ok);
	put(o, "costs", costs, ok);
	put(o, "samples", samples, ok);
	return o;
}

/* The prior of the model error per doubling (interval.h), the formulas'
 * disagreement when known, its scale at the fit's noise, and along a
 * hardware speed when the model names one. */
static json_t *
prior_json(const sf_report *r, const sf_interval_model *im, int *ok)
{
	const sf_interval_prior *p = &im->prior;
	json_t *o = json_object();

	if (o == NULL) {
		*ok = 0;
		return NULL;
	}
	put(o, "scale", sf_json_number(p->scale), ok);
	put(o, "dof", sf_json_number(p->dof), ok);
	put(o, "bias_weight", sf_json_number(p->bias_weight), ok);
	put(o, "noise_weight", sf_json_number(p->noise_weight), ok);
	if (isfinite(im->disagreement)) {
		put(o, "disagreement", sf_json_number(im->disagreement), ok);
		put(o, "agreed_scale", sf_json_number(p->agreed_scale), ok);
		put(o, "disagreement_weight",
		    sf_json_number(p->disagreement_weight), ok);
	}
	if (isfinite(im->regime_prior))
		put(o, "regime", sf_json_number(im->regime_prior), ok);
	put(o, "scale_at_noise", sf_json_number(im->prior_scale), ok);
	if (sf_interval_is_hardware(im, im->hardware) &&
	    im->hardware < r->data->ninputs) {
		put(o, "hardware",
		    json_string(r->data->inputs[im->hardware].name), ok);
		put(o, "hardware_scale", sf_json_number(p->hardware_scale), ok);
		put(o, "hardware_scale_at_noise",
		    sf_json_number(im->hardware_prior_scale), ok);
	}
	return o;
}

/* The forward chain's cuts (interval.h), as bench/prior.py reads them. */
static json_t *
chain_json(const sf_report *r, const sf_interval_model *im, int *ok)
{
	json_t *a = json_array();

	for (size_t i = 0;
	     a != NULL && i < im->chain_cuts && i < SF_INTERVAL_CUTS_KEPT;
	     i++) {
		const sf_interval_cut *k = &im->cuts[i];
		json_t *o = json_object();

		put(o, "input", json_string(r->data->inputs[k->input].name),
		    ok);
		put(o, "upto", sf_json_number(k->upto), ok);
		put(o, "below", sf_json_number(k->below), ok);
		put(o, "slope", sf_json_number(k->slope), ok);
		put(o, "reach", sf_json_number(k->reach), ok);
		put(o, "noise", sf_json_number(k->noise), ok);
		if (o == NULL || json_array_append_new(a, o) != 0)
			*ok = 0;
	}
	if (a == NULL)
		*ok = 0;
	return a;
}

/* The model error along each numeric input (interval.h). */
static json_t *
model_error_json(const sf_report *r, const sf_interval_model *im, int *ok)
{
	json_t *a = json_array();

	for (size_t j = 0; a != NULL && j < r->data->ninputs; j++) {
		const sf_interval_along *e = sf_interval_along_of(im, j);
		json_t *o;

		if (r->data->inputs[j].levels != NULL)
			continue;
		o = json_object();
		put(o, "input", json_string(r->data->inputs[j].name), ok);
		put(o, "bias", sf_json_number(e->bias), ok);
		put(o, "growth", sf_json_number(e->growth), ok);
		put(o, "growth_dof", sf_json_number(e->growth_dof), ok);
		put(o, "evidence", sf_json_number(e->evidence), ok);
		/* only where the chain draws a line whose slope carries on;
		 * a file without them reads as none */
		if (sf_interval_slope_carried(e)) {
			put(o, "trend", sf_json_number(e->trend), ok);
			put(o, "trend_sd", sf_json_number(sqrt(e->trend_var)),
			    ok);
			put(o, "trend_cov", sf_json_number(e->trend_cov), ok);
		}
		/* only where the top level gives it; a file without it
		 * reads as unknown (sigma serves) */
		if (e->noise > 0) {
			put(o, "noise_above", sf_json_number(e->noise), ok);
			put(o, "noise_above_dof", sf_json_number(e->noise_dof),
			    ok);
		}
		if (o == NULL || json_array_append_new(a, o) != 0)
			*ok = 0;
	}
	if (a == NULL)
		*ok = 0;
	return a;
}

/* The pace check (interval.h), or null when no input could be checked. */
static json_t *
pace_json(const sf_report *r, const sf_interval_model *im, int *ok)
{
	json_t *o;

	if (!im->pace_checked || im->pace_input >= r->data->ninputs)
		return json_null();
	o = json_object();
	put(o, "input", json_string(r->data->inputs[im->pace_input].name), ok);
	put(o, "measured", sf_json_number(im->pace_measured), ok);
	put(o, "beyond", sf_json_number(im->pace_beyond), ok);
	put(o, "widened", json_boolean(im->pace_widened), ok);
	return o;
}

/* What predict needs for a new measurement's interval (interval.h). */
static json_t *
interval_json(const sf_report *r, const sf_interval_model *im, int *ok)
{
	json_t *o = json_object();

	if (o == NULL) {
		*ok = 0;
		return NULL;
	}
	put(o, "level", sf_json_number(SF_INTERVAL_LEVEL), ok);
	put(o, "errors",
	    json_string(im->multiplicative ? "multiplicative" : "additive"),
	    ok);
	put(o, "sigma", sf_json_number(im->sigma), ok);
	put(o, "sigma_residual", sf_json_number(im->sigma_residual), ok);
	put(o, "sigma_replicates", sf_json_number(im->sigma_replicates), ok);
	put(o, "replicate_dof", json_integer((json_int_t)im->replicate_dof),
	    ok);
	put(o, "dof", sf_json_number(im->dof), ok);
	put(o, "t", sf_json_number(im->t), ok);
	put(o, "model_error", model_error_json(r, im, ok), ok);
	put(o, "model_weight", sf_json_number(im->weight), ok);
	if (im->weight_chain >= 0)
		put(o, "model_weight_from",
		    json_string(im->weight_chain ? "chain" : "posterior"), ok);
	put(o, "prior", prior_json(r, im, ok), ok);
	put(o, "chain_fits", json_integer((json_int_t)im->chain_fits), ok);
	put(o, "chain_points", json_integer((json_int_t)im->chain_points), ok);
	put(o, "chain_cuts", json_integer((json_int_t)im->chain_cuts), ok);
	put(o, "chain", chain_json(r, im, ok), ok);
	put(o, "regime",
	    im->regime ? json_string(r->data->inputs[im->regime_input].name)
	               : json_null(),
	    ok);
	put(o, "pace", pace_json(r, im, ok), ok);
	return o;
}

int
sf_report_has_residuals(const sf_report *r, sf_residuals w)
{
	switch (w) {
	case SF_RESIDUALS_ALL:
		return 1;
	case SF_RESIDUALS_NONE:
		return 0;
	default:
		return r->data->rows <= SF_RESIDUALS_AUTO_MAX;
	}
}

json_t *
sf_report_json(const sf_report *r)
{
	return sf_report_json_residuals(r, SF_RESIDUALS_AUTO);
}

json_t *
sf_report_json_residuals(const sf_report *r, sf_residuals w)
{
	json_t *root = json_object();
	int ok = root != NULL;

	if (!ok)
		return NULL;
	put(root, "scalefit_version", json_string(PACKAGE_VERSION), &ok);
	put(root, "model", model_json(r, &ok), &ok);
	put(root, "data", data_json(r, &ok), &ok);
	put(root, "parameters", parameters_json(r, &ok), &ok);
	put(root, "metrics", metrics_json(r, &ok), &ok);
	put(root, "optimizer", optimizer_json(r, &ok), &ok);
	put(root, "correlations",
	    matrix_json(r->stats != NULL ? r->stats->corr : NULL,
	                r->formula->nparams, &ok),
	    &ok);
	put(root, "covariance",
	    matrix_json(r->stats != NULL ? r->stats->cov : NULL,
	                r->formula->nparams, &ok),
	    &ok);
	put(root, "input_ranges", ranges_json(r->data, &ok), &ok);
	if (r->interval != NULL)
		put(root, "prediction_interval",
		    interval_json(r, r->interval, &ok), &ok);
	if (sf_report_has_residuals(r, w))
		put(root, "residuals", residuals_json(r, &ok), &ok);
	else
		put(root, "residuals_omitted",
		    json_integer((json_int_t)r->data->rows), &ok);
	if (r->fit->lambda_auto)
		put(root, "lambda_selection", lambda_json(r->fit, &ok), &ok);
	if (r->bootstrap != NULL)
		put(root, "bootstrap", resample_json(r, r->bootstrap, 1, &ok),
		    &ok);
	if (r->restarts != NULL)
		put(root, "restarts", resample_json(r, r->restarts, 0, &ok),
		    &ok);
	if (!ok) {
		json_decref(root);
		return NULL;
	}
	return root;
}

static const size_t json_flags = JSON_INDENT(2) | JSON_REAL_PRECISION(17);

int
sf_report_print_json(const json_t *json, FILE *out, sf_error *err)
{
	if (json_dumpf(json, out, json_flags) != 0 || fputc('\n', out) == EOF)
		return sf_error_set(err, SF_EIO, "could not write the report");
	return SF_OK;
}

int
sf_report_save(const json_t *json, const char *path, sf_error *err)
{
	char *text = json_dumps(json, json_flags);
	size_t n;
	int rc;

	if (text == NULL)
		return sf_error_set(err, SF_ENOMEM, "out of memory");
	/* json_dumps leaves room for nothing more: add the newline. */
	n = strlen(text);
	{
		char *line = realloc(text, n + 2);
		if (line == NULL) {
			free(text);
			return sf_error_set(err, SF_ENOMEM, "out of memory");
		}
		text = line;
	}
	text[n] = '\n';
	text[n + 1] = '\0';
	rc = sf_write_atomic(path, text, n + 1, "the report", err);
	free(text);
	return rc;
}

/* ---- text ---------------------------------------------------------------- */

static int
param_width(const sf_model *m)
{
	int w = 9;

	for (size_t i = 0; i < m->nparams; i++)
		if ((int)strlen(m->params[i].name) > w)
			w = (int)strlen(m->params[i].name);
	return w;
}

static void
print_resample(const sf_report *r, const sf_resample *x, int bootstrap,
               FILE *out)
{
	if (x == NULL)
		return;
	if (bootstrap)
		fprintf(out,
		        "\n  bootstrap: %zu replicates resampling "
		        "configurations (%zu failed)\n  %-12s %15s   %s\n",
		        x->count, x->failed, "parameter", "median",
		        "95% percentile interval");
	else
		fprintf(out,
		        "\n  restarts: %zu seeds (%zu failed); the spread of "
		        "their best constants\n  %-12s %15s %-29s %s\n",
		        x->count, x->failed, "parameter", "median",
		        "  2.5% to 97.5% of restarts", "sd");
	for (size_t j = 0; j < x->nparams; j++) {
		char interval[64];

		snprintf(interval, sizeof interval, "[%.6g, %.6g]", x->low[j],
		         x->high[j]);
		fprintf(out, "  %-12s %15.8g   ",
		        r->model->params[r->formula->fitted[j]].name,
		        x->median[j]);
		if (bootstrap)
			fputs(interval, out);
		else
			fprintf(out, "%-29s %.3g", interval, x->sd[j]);
		fputc('\n', out);
	}
}

/* The noise above the range of the inputs whose top level gives it
 * (interval.h: sf_interval_along.noise), one line; none, nothing. */
static void
print_top_noise(const sf_report *r, const sf_interval_model *im, FILE *out)
{
	size_t shown = 0;

	for (size_t j = 0; j < r->data->ninputs; j++) {
		const sf_interval_along *e = sf_interval_along_of(im, j);

		if (r->data->inputs[j].levels != NULL || !(e->noise > 0))
			continue;
		fprintf(out, "%s%s %s%.3g%s (%.0f dof)",
		        shown++ == 0 ? "    noise above the range (the runs at "
		                       "each input's top level):\n      "
		                     : ", ",
		        r->data->inputs[j].name, im->multiplicative ? "" : "+-",
		        im->multiplicative ? 100 * e->noise : e->noise,
		        im->multiplicative ? "%" : "", e->noise_dof);
	}
	if (shown > 0)
		fputc('\n', out);
}

/* The error model of a new measurement, in a few lines. */
static void
print_interval(const sf_report *r, const sf_interval_model *im, FILE *out)
{
	fprintf(out, "  new runs: noise %s%.3g%s (%s scatter), ",
	        im->multiplicative ? "" : "+-",
	        im->multiplicative ? 100 * im->sigma : im->sigma,
	        im->multiplicative ? "%" : "",
	        im->sigma > im->sigma_residual ? "replicate" : "residual");
	fprintf(out, "model error per doubling beyond the fitted range:");
	for (size_t j = 0; j < r->data->ninputs; j++) {
		const sf_interval_along *e = sf_interval_along_of(im, j);

		if (r->data->inputs[j].levels != NULL)
			continue;
		fprintf(out, "\n    along %s %.3g%%", r->data->inputs[j].name,
		        100 * e->growth);
		if (e->evidence == 0)
			fprintf(out, " (the prior alone: fewer than 3 levels)");
		else if (fabs(e->bias) >= SF_INTERVAL_SHOWN)
			fprintf(
			    out,
			    ", centred %+.3g%% (its chain's runs came out %s "
			    "than the formula:\n      the interval is skewed "
			    "%s)",
			    100 * e->bias, e->bias > 0 ? "slower" : "faster",
			    e->bias > 0 ? "up" : "down");
		if (sf_interval_slope_shown(e))
			fprintf(
			    out,
			    "\n      and %s %.3g points a doubling beyond "
			    "the top (the nearer the top its chain's\n      "
			    "cuts end, the %s their runs against the "
			    "formula)",
			    e->trend > 0 ? "rising" : "falling",
			    100 * fabs(e->trend),
			    e->trend > 0 ? "slower" : "faster");
		if (sf_interval_is_hardware(im, j))
			fprintf(
			    out,
			    "\n      (a hardware speed, fit.prior.hardware: "
			    "the prior's scale %.3g%% at this noise)",
			    100 * im->hardware_prior_scale);
	}
	if (im->chain_cuts > 0)
		fprintf(out,
		        "\n    (the corpus prior and forward chaining: %zu "
		        "refits, %zu cuts, %zu predictions)\n",
		        im->chain_fits, im->chain_cuts, im->chain_points);
	else
		fprintf(out, "\n    (the corpus prior alone: no input with 3 "
		             "levels to chain along)\n");
	print_top_noise(r, im, out);
	if (isfinite(im->disagreement) && im->disagreement > 0)
		fprintf(
		    out,
		    "    (the prior's scale counts formulas that fit as well "
		    "parting %.3g%% per doubling\n    beyond the range: "
		    "fit.prior.disagreement)\n",
		    100 * im->disagreement);
	else if (isfinite(im->disagreement))
		fprintf(out,
		        "    (the prior's scale is the one beside formulas "
		        "that fit as well and agree beyond\n    the range, "
		        "or whose parting the ensemble shows: "
		        "fit.prior.disagreement 0)\n");
	if (im->regime && im->regime_carried)
		fprintf(
		    out,
		    "  warning: the largest measured levels of %s scale "
		    "worse than the model file's\n    formula (its top "
		    "level %+.3g%% per doubling above it: fit.prior.regime);"
		    "\n    beyond them the interval is wide on purpose\n",
		    r->data->inputs[im->regime_input].name,
		    100 * im->regime_slope);
	else if (im->regime)
		fprintf(out,
		        "  warning: the largest measured levels of %s scale "
		        "worse than the formula;\n    beyond them the interval "
		        "is wide on purpose\n",
		        r->data->inputs[im->regime_input].name);
	if (im->pace_checked && im->pace_widened &&
	    im->pace_input < r->data->ninputs)
		fprintf(
		    out,
		    "  warning: beyond the fitted range of %s the formula "
		    "speeds up more than its\n    largest measured levels "
		    "did (x%.3g per doubling against x%.3g measured);\n"
		    "    the interval holds the measured pace carrying on\n",
		    r->data->inputs[im->pace_input].name, im->pace_beyond,
		    im->pace_measured);
}

/* The table of parameters: value, standard error, 95% interval, bounds. */
static void
print_parameters(const sf_report *r, FILE *out)
{
	const sf_model *m = r->model;
	const sf_fit_result *fit = r->fit;
	const sf_stats *s = r->stats;
	int w = param_width(m);
	size_t j = 0;

	fprintf(out, "  %-*s %15s %12s   %-29s %s\n", w, "parameter", "value",
	        "std. error", "95% interval", "bounds");
	for (size_t i = 0; i < m->nparams; i++) {
		const sf_model_param *p = &m->params[i];

		if (p->fixed) {
			fprintf(out, "  %-*s %15.8g %12s   %-29s\n", w, p->name,
			        p->value, "(fixed)", "");
			continue;
		}
		char interval[64] = "";
		if (s != NULL && isfinite(s->se[j]))
			snprintf(interval, sizeof interval, "[%.6g, %.6g]",
			         s->ci_low[j], s->ci_high[j]);
		fprintf(out, "  %-*s %15.8g ", w, p->name, fit->theta[j]);
		if (s != NULL && isfinite(s->se[j]))
			fprintf(out, "%12.4g", s->se[j]);
		else
			fprintf(out, "%12s",
			        fit->at_bound[j]               ? "at bound"
			        : s != NULL && isinf(s->se[j]) ? "undetermined"
			                                       : "-");
		fprintf(out, "   %-29s [%g, %g]%s\n", interval, p->min, p->max,
		        fit->at_bound[j] == 1   ? "  at min"
		        : fit->at_bound[j] == 2 ? "  at max"
		                                : "");
		j++;
	}
}

/* The loss, the penalty and the metrics of the fit. */
static void
print_metrics(const sf_report *r, FILE *out)
{
	const sf_fit_result *fit = r->fit;
	const sf_stats *s = r->stats;

	fprintf(out, "\n  loss (%s) %.6g", sf_loss_name(fit->settings.loss),
	        fit->loss);
	if (fit->settings.penalty != SF_PENALTY_NONE)
		fprintf(out, ", penalty (%s) %.6g x lambda %g",
		        sf_penalty_name(fit->settings.penalty), fit->penalty,
		        fit->settings.lambda);
	fprintf(out, "\n");
	if (s != NULL)
		fprintf(out,
		        "  RMSE %.6g   MAPE %.4g%%   max error %.4g%%   R^2 "
		        "%.6f   AICc %.6g   BIC %.6g\n",
		        s->rmse, s->mape, s->max_ape, s->r2, s->aicc, s->bic);
}

/* How the search went: the algorithm and its counts, the two searches of
 * scale auto. */
static void
print_search(const sf_fit_result *fit, FILE *out)
{
	char restarts[48] = "";

	if (fit->restarts > 0)
		snprintf(restarts, sizeof restarts, " %zu restart%s,",
		         fit->restarts, fit->restarts == 1 ? "" : "s");
	if (fit->nlinear == fit->nparams && fit->generations == 0)
		fprintf(out, "\n  no global search needed: %.3g s\n",
		        fit->seconds);
	else
		fprintf(out,
		        "\n  %s, seed %llu, %d thread%s: %zu evaluations, %zu "
		        "generations,%s stopped by %s; %.3g s\n",
		        sf_de_algorithm_name(fit->settings.algorithm),
		        (unsigned long long)fit->settings.seed, fit->threads,
		        fit->threads == 1 ? "" : "s", fit->evaluations,
		        fit->generations, restarts, fit->stop_reason,
		        fit->seconds);
	if (fit->searches == 2)
		fprintf(out,
		        "  scale auto: searched the parameters as they are and "
		        "by log magnitude;\n    the %s search won (cost %.6g, "
		        "the %s one %.6g)\n",
		        fit->scale == SF_SCALE_LOG ? "log" : "linear",
		        fit->cost,
		        fit->scale == SF_SCALE_LOG ? "linear" : "log",
		        fit->cost_other);
}

/* What besides the search shaped the answer: the constants solved
 * separably, the polish, lambda auto. */
static void
print_refinements(const sf_report *r, FILE *out)
{
	const sf_model *m = r->model;
	const sf_fit_result *fit = r->fit;

	if (fit->nlinear > 0) {
		fprintf(out,
		        "  separable: %zu of %zu constants solved by "
		        "bounded linear least squares (",
		        fit->nlinear, fit->nparams);
		for (size_t q = 0, k = 0; q < fit->nparams; q++)
			if (fit->linear[q])
				fprintf(out, "%s%s", k++ ? ", " : "",
				        m->params[r->formula->fitted[q]].name);
		fprintf(out, ")%s\n",
		        fit->nlinear == fit->nparams
		            ? ", nothing left to search"
		            : "");
	}
	if (fit->polish_ran)
		fprintf(out, "  polish: %s (%s after %zu iteration%s)\n",
		        fit->polish_kept ? "improved the search's answer"
		                         : "kept the search's answer",
		        fit->polish_stop, fit->polish_iterations,
		        fit->polish_iterations == 1 ? "" : "s");
	else if (fit->polish_note != NULL)
		fprintf(out, "  polish: skipped: %s\n", fit->polish_note);
	if (fit->lambda_auto) {
		fprintf(out,
		        "  lambda auto: %g, the lowest %zu-fold "
		        "cross-validated MAPE of\n   ",
		        fit->settings.lambda, fit->lambda_folds);
		for (size_t g = 0; g < SF_LAMBDA_GRID; g++)
			fprintf(out, " %g: %.3g%%%s", fit->lambda_grid[g],
			        fit->lambda_cv_mape[g],
			        g + 1 < SF_LAMBDA_GRID ? "," : "\n");
	}
}

/* Warnings on the parameters: poorly determined, not determined (rank
 * deficiency), strongly correlated pairs. */
static void
print_warnings(const sf_report *r, FILE *out)
{
	const sf_model *m = r->model;
	const sf_fit_result *fit = r->fit;
	const sf_stats *s = r->stats;

	for (size_t q = 0; q < r->formula->nparams; q++)
		if (sf_stats_poorly_determined(s, r->formula, fit, q))
			fprintf(
			    out,
			    "  warning: %s is poorly determined: its 95%% "
			    "interval [%.6g, %.6g] spans most of its bounds "
			    "[%g, %g]; many values fit the data about as "
			    "well\n",
			    m->params[r->formula->fitted[q]].name, s->ci_low[q],
			    s->ci_high[q], r->formula->lower[q],
			    r->formula->upper[q]);
	if (s->rank_deficient)
		fprintf(out,
		        "  warning: the Jacobian is rank-deficient: some "
		        "combination of parameters is not determined by "
		        "the data (rank %zu of %zu); the parameters in it "
		        "have no finite standard error\n",
		        s->rank, s->n_free);
	for (size_t a = 0; a < r->formula->nparams; a++)
		for (size_t b = a + 1; b < r->formula->nparams; b++) {
			double c = s->corr[a * r->formula->nparams + b];
			if (fabs(c) > 0.95)
				fprintf(out,
				        "  warning: %s and %s are strongly "
				        "correlated (%.3f): the data hardly "
				        "tells them apart\n",
				        m->params[r->formula->fitted[a]].name,
				        m->params[r->formula->fitted[b]].name,
				        c);
		}
}

void
sf_report_print_text(const sf_report *r, FILE *out)
{
	/* The names come from files: escaped. */
	fputs("fit of ", out);
	sf_escape_print(out, r->model->name, 0);
	fputs(" to ", out);
	sf_escape_print(out, r->data->file, 0);
	fprintf(out, ": %zu rows\n\n", r->data->rows);
	print_parameters(r, out);
	print_metrics(r, out);
	print_search(r->fit, out);
	print_refinements(r, out);
	if (r->interval != NULL)
		print_interval(r, r->interval, out);
	print_resample(r, r->restarts, 0, out);
	print_resample(r, r->bootstrap, 1, out);
	if (r->stats != NULL)
		print_warnings(r, out);
}
