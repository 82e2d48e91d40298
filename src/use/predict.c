/*
 * predict.c - predictions with delta-method and bootstrap bands.
 */
#include "use/predict.h"
#include "fit/ensemble.h"
#include "base/sort.h"

#include "solve/covariance.h"
#include "use/json.h"
#include "use/validation.h"
#include "use/report.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void
sf_prediction_free(sf_prediction *p)
{
	if (p == NULL)
		return;
	free(p->inputs);
	free(p->points);
	free(p->terms);
	free(p->gradient);
	free(p->range);
	free(p->observed);
	free(p);
}

int
sf_prediction_outside(const sf_prediction *p, size_t k)
{
	for (size_t i = 0; i < p->ninputs; i++)
		if (p->range[i * p->n + k] != SF_PREDICT_INSIDE)
			return 1;
	return 0;
}

sf_band
sf_prediction_band(const sf_prediction *p, size_t k)
{
	return p->bootstrap ? p->points[k].boot : p->points[k].ci;
}

/* Evaluate every output of program p over data d at theta into out. */
static int
evaluate(const sf_program *p, const sf_expr_data *d, const double *theta,
         size_t n, double *out)
{
	double *scratch =
	    malloc((sf_program_scratch_size(p) + 1) * sizeof *scratch);

	if (scratch == NULL)
		return SF_ENOMEM;
	sf_program_eval(p, d, theta, 0, n, out, scratch);
	free(scratch);
	return SF_OK;
}

/* sqrt(g^T C g) for the gradient of point k (g_j at grad[(1 + j) n + k]).
 * Parameters whose variance is NaN (held at a bound) are left out. */
static double
delta_se(const sf_fitfile *f, const double *grad, size_t n, size_t k)
{
	size_t p = f->nparams;
	double var = 0;

	if (f->cov == NULL)
		return NAN;
	for (size_t a = 0; a < p; a++) {
		double ga = grad[(1 + a) * n + k];

		if (isnan(f->cov[a * p + a]))
			continue;
		for (size_t b = 0; b < p; b++) {
			if (isnan(f->cov[b * p + b]))
				continue;
			var += ga * f->cov[a * p + b] * grad[(1 + b) * n + k];
		}
	}
	/* Rounding can make a vanishing variance slightly negative. */
	return isnan(var) ? NAN : sqrt(fmax(var, 0));
}

/* The bootstrap band: each replicate's times, then per point the
 * percentiles over the replicates finite at every point. */
static int
bootstrap_band(const sf_fitfile *f, const sf_expr_data *d, sf_prediction *p)
{
	size_t n = p->n, b = f->nsamples, used = 0;
	double *times = malloc((b * n + 1) * sizeof *times);
	double *column = malloc((b + 1) * sizeof *column);
	int rc = SF_ENOMEM;

	if (times == NULL || column == NULL)
		goto done;
	for (size_t s = 0; s < b; s++) {
		double *row = &times[used * n];
		int finite = 1;

		if (evaluate(f->formula->value, d, &f->samples[s * f->nparams],
		             n, row) != SF_OK)
			goto done;
		for (size_t k = 0; k < n; k++)
			finite &= isfinite(row[k]) != 0;
		used += finite;
	}
	for (size_t k = 0; k < n; k++) {
		for (size_t s = 0; s < used; s++)
			column[s] = times[s * n + k];
		qsort(column, used, sizeof *column, sf_sort_compare_doubles);
		p->points[k].boot.lo =
		    sf_sort_quantile(column, used, (1 - SF_PREDICT_LEVEL) / 2);
		p->points[k].boot.hi =
		    sf_sort_quantile(column, used, (1 + SF_PREDICT_LEVEL) / 2);
	}
	p->bootstrap = 1;
	p->boot_used = used;
	rc = SF_OK;
done:
	free(times);
	free(column);
	return rc;
}

const char *
sf_part_name(int part)
{
	static const char *const names[SF_PARTS] = {
	    "noise", "constants", "model error", "formula disagreement"};

	return part >= 0 && part < SF_PARTS ? names[part] : "";
}

/* The shares of a single fit's new-run variance at pt: noise, the
 * constants (on the loss's scale) and the model error, its centre
 * counted with its spread; of that, but a hardware speed's own, the
 * formulas' disagreement its model file gave (fit.prior) takes its share
 * of the prior's variance (q G)^2 / s0^2 (interval.h: the prior, not the
 * chain, holds most of it). */
static void
parts_of(const sf_fitfile *f, sf_predict_point *pt)
{
	const sf_interval_model *im = &f->interval;
	double v = isfinite(pt->se) ? pt->se * pt->se : 0, total, noise;
	double mu = pt->beyond.shift;

	for (int q = 0; q < SF_PARTS; q++)
		pt->parts[q] = q == SF_PART_FORMULAS ? 0 : NAN;
	if (!f->has_interval || !(pt->time != 0) || !isfinite(pt->time))
		return;
	noise = sf_interval_noise(im, &pt->beyond);
	pt->parts[SF_PART_NOISE] = noise * noise;
	pt->parts[SF_PART_CONSTANTS] =
	    im->multiplicative ? v / (pt->time * pt->time) : v;
	pt->parts[SF_PART_MODEL] = pt->beyond.var + mu * mu;
	if (!im->multiplicative)
		pt->parts[SF_PART_MODEL] *= pt->time * pt->time;
	if (isfinite(im->disagreement) && im->prior_scale > 0) {
		double g = im->prior.disagreement_weight * im->disagreement,
		       own = fmax(0, pt->beyond.var + mu * mu -
		                         pt->beyond.hardware);

		if (!im->multiplicative)
			own *= pt->time * pt->time;
		pt->parts[SF_PART_FORMULAS] =
		    own * fmin(1, g * g / (im->prior_scale * im->prior_scale));
		pt->parts[SF_PART_MODEL] -= pt->parts[SF_PART_FORMULAS];
	}
	total = pt->parts[SF_PART_NOISE] + pt->parts[SF_PART_CONSTANTS] +
	        pt->parts[SF_PART_MODEL] + pt->parts[SF_PART_FORMULAS];
	for (int q = 0; q < SF_PARTS; q++)
		pt->parts[q] = total > 0 ? pt->parts[q] / total : NAN;
}

/* Point k's distance beyond the fitted range and, when the fit has the
 * error model of a new run, its prediction interval. */
static void
interval_of(const sf_fitfile *f, sf_prediction *p, size_t k)
{
	sf_predict_point *pt = &p->points[k];
	const sf_interval_model *im = f->has_interval ? &f->interval : NULL;
	sf_interval_beyond b = {0, 0, 0, 0, 0, 0, 0};
	int unknown = 0;

	for (size_t i = 0; i < f->ninputs; i++) {
		const sf_fitfile_input *in = &f->inputs[i];

		if (in->levels != NULL)
			continue;
		sf_interval_beyond_add(
		    im, i,
		    sf_interval_signed_doublings(in->lo, in->hi,
		                                 p->inputs[i * p->n + k]),
		    &b);
		unknown |=
		    im != NULL && isnan(sf_interval_along_of(im, i)->growth);
	}
	pt->beyond = b;
	pt->pi.lo = pt->pi.hi = NAN;
	p->interval = f->has_interval;
	p->growth_unknown = unknown;
	if (f->has_interval)
		sf_interval_at(im, pt->time, pt->se * pt->se, &pt->beyond,
		               &pt->pi.lo, &pt->pi.hi);
	parts_of(f, pt);
}

static int
fill(const sf_fitfile *f, sf_prediction *p, sf_error *err)
{
	const sf_formula *fm = f->formula;
	size_t n = p->n, np = f->nparams, nt = f->nterms;
	const double **columns = calloc(p->ninputs + 1, sizeof *columns);
	sf_expr_data *dg = NULL, *dt = NULL;
	double *grad = malloc(((1 + np) * n + 1) * sizeof *grad);
	double *terms = malloc(((1 + nt) * n + 1) * sizeof *terms);
	int rc = SF_ENOMEM;

	if (columns == NULL || grad == NULL || terms == NULL) {
		sf_error_set(err, SF_ENOMEM, "out of memory");
		goto done;
	}
	for (size_t i = 0; i < p->ninputs; i++)
		columns[i] = &p->inputs[i * n];
	/* The value program binds to the same columns as these two. */
	if ((dg = sf_expr_data_new(fm->gradient, columns, n, err)) == NULL ||
	    (dt = sf_expr_data_new(fm->terms, columns, n, err)) == NULL) {
		rc = err != NULL ? err->code : SF_ENOMEM;
		goto done;
	}
	if (evaluate(fm->gradient, dg, f->theta, n, grad) != SF_OK ||
	    evaluate(fm->terms, dt, f->theta, n, terms) != SF_OK) {
		sf_error_set(err, SF_ENOMEM, "out of memory");
		goto done;
	}
	p->t = f->dof >= 1 ? sf_covariance_t_quantile(SF_PREDICT_LEVEL, f->dof)
	                   : NAN;
	for (size_t k = 0; k < n; k++) {
		sf_predict_point *pt = &p->points[k];

		pt->time = grad[k];
		pt->se = delta_se(f, grad, n, k);
		pt->ci.lo = pt->time - p->t * pt->se;
		pt->ci.hi = pt->time + p->t * pt->se;
		pt->boot.lo = pt->boot.hi = NAN;
		interval_of(f, p, k);
	}
	memcpy(p->terms, terms + n, nt * n * sizeof *terms);
	memcpy(p->gradient, grad + n, np * n * sizeof *grad);
	if (f->nsamples > 0) {
		sf_expr_data *dv = sf_expr_data_new(fm->value, columns, n, err);

		if (dv == NULL) {
			rc = err != NULL ? err->code : SF_ENOMEM;
			goto done;
		}
		rc = bootstrap_band(f, dv, p);
		sf_expr_data_free(dv);
		if (rc != SF_OK) {
			sf_error_set(err, rc, "out of memory");
			goto done;
		}
	}
	rc = SF_OK;
done:
	sf_expr_data_free(dg);
	sf_expr_data_free(dt);
	free(columns);
	free(grad);
	free(terms);
	return rc;
}

/*
 * The shares of an ensemble's new-run variance at point q: its members'
 * own parts, weighted, and their disagreement, the weighted variance of
 * their centres t[m].centre (on the loss's scale), with any their model
 * file gave.
 */
static void
ensemble_parts(const sf_fitfile *f, sf_prediction *const *each, size_t q,
               const sf_interval_t *t, sf_predict_point *pt)
{
	double mean = 0, spread = 0, own[SF_PARTS] = {0}, var = 0, total;

	for (size_t m = 0; m < f->nmembers; m++)
		if (isfinite(t[m].centre))
			mean += f->weights[m] * t[m].centre;
	for (size_t m = 0; m < f->nmembers; m++) {
		const sf_predict_point *x = &each[m]->points[q];
		double s2 = t[m].scale * t[m].scale;

		if (!isfinite(t[m].centre) || !isfinite(s2))
			continue;
		spread +=
		    f->weights[m] * (t[m].centre - mean) * (t[m].centre - mean);
		var += f->weights[m] * s2;
		for (int k = 0; k < SF_PARTS; k++)
			if (isfinite(x->parts[k]))
				own[k] += f->weights[m] * x->parts[k] * s2;
	}
	total = var + spread;
	own[SF_PART_FORMULAS] += spread;
	for (int k = 0; k < SF_PARTS; k++)
		pt->parts[k] = total > 0 ? own[k] / total : NAN;
}

/*
 * An ensemble's prediction (fitfile.h): each member's at the points, then
 * at each point the time and the 95% interval of a new run of their
 * mixture with the ensemble's weights (fit/ensemble.h), and the band of
 * the mean as the mixture of the members' mean bands.  It has no terms
 * and no gradient; how far beyond the range is the first member's.
 */
static int
mix_members(const sf_fitfile *f, const double *const *columns, sf_prediction *p,
            sf_error *err)
{
	const size_t k = f->nmembers, n = p->n;
	sf_prediction **each = calloc(k + 1, sizeof *each);
	sf_interval_t *t = malloc((k + 1) * sizeof *t);
	sf_interval_t *mean = malloc((k + 1) * sizeof *mean);
	const double **own = calloc(f->ninputs + 1, sizeof *own);
	int rc = SF_OK;

	if (each == NULL || t == NULL || mean == NULL || own == NULL)
		rc = sf_error_set(err, SF_ENOMEM, "out of memory");
	for (size_t m = 0; m < k && rc == SF_OK; m++) {
		sf_fitfile_member_columns(f, f->members[m], columns, own);
		rc = sf_predict(f->members[m], own, n, &each[m], err);
	}
	for (size_t q = 0; q < n && rc == SF_OK; q++) {
		sf_predict_point *pt = &p->points[q];
		double point;
		int ok = 1;

		for (size_t m = 0; m < k; m++) {
			const sf_predict_point *x = &each[m]->points[q];
			const sf_fitfile *fm = f->members[m];

			ok &= sf_interval_shape(&fm->interval, x->time,
			                        x->se * x->se, &x->beyond,
			                        &t[m]) ||
			      f->weights[m] == 0;
			mean[m].centre = x->time;
			mean[m].scale = x->se;
			mean[m].dof = fm->dof >= 1 ? fm->dof : 1;
			mean[m].shift = 0;
		}
		ensemble_parts(f, each, q, t, pt);
		pt->se = NAN;
		pt->beyond = each[0]->points[q].beyond;
		pt->boot.lo = pt->boot.hi = NAN;
		pt->pi.lo = pt->pi.hi = pt->time = NAN;
		if (ok)
			sf_ensemble_mix(f->weights, t, k,
			                f->interval.multiplicative, &pt->time,
			                &pt->pi.lo, &pt->pi.hi);
		if (!sf_ensemble_mix(f->weights, mean, k, 0, &point, &pt->ci.lo,
		                     &pt->ci.hi))
			pt->ci.lo = pt->ci.hi = NAN;
		if (isnan(pt->time))
			pt->time = point;
	}
	p->interval = f->has_interval;
	p->t = NAN;
	for (size_t m = 0; each != NULL && m < k; m++)
		sf_prediction_free(each[m]);
	free(each);
	free(t);
	free(mean);
	free(own);
	return rc;
}

int
sf_predict(const sf_fitfile *f, const double *const *columns, size_t n,
           sf_prediction **out, sf_error *err)
{
	size_t ni = f->ninputs;
	sf_prediction *p;
	int rc;

	*out = NULL;
	if (n == 0)
		return sf_error_set(err, SF_EVALUE, "no points to predict at");
	if ((p = calloc(1, sizeof *p)) == NULL)
		return sf_error_set(err, SF_ENOMEM, "out of memory");
	p->n = n;
	p->ninputs = ni;
	p->nterms = f->nterms;
	p->inputs = malloc((ni * n + 1) * sizeof *p->inputs);
	p->points = malloc(n * sizeof *p->points);
	p->terms = malloc((f->nterms * n + 1) * sizeof *p->terms);
	p->gradient = malloc((f->nparams * n + 1) * sizeof *p->gradient);
	p->range = calloc(ni * n + 1, 1);
	if (p->inputs == NULL || p->points == NULL || p->terms == NULL ||
	    p->gradient == NULL || p->range == NULL) {
		sf_prediction_free(p);
		return sf_error_set(err, SF_ENOMEM, "out of memory");
	}
	for (size_t i = 0; i < ni; i++) {
		const sf_fitfile_input *in = &f->inputs[i];

		memcpy(&p->inputs[i * n], columns[i], n * sizeof *p->inputs);
		for (size_t k = 0; k < n; k++) {
			double x = columns[i][k];

			if (in->levels != NULL)
				continue;
			if (x < in->lo)
				p->range[i * n + k] = SF_PREDICT_BELOW;
			else if (x > in->hi)
				p->range[i * n + k] = SF_PREDICT_ABOVE;
		}
	}
	rc =
	    f->nmembers > 0 ? mix_members(f, columns, p, err) : fill(f, p, err);
	if (rc != SF_OK) {
		sf_prediction_free(p);
		return rc;
	}
	*out = p;
	return SF_OK;
}

void
sf_prediction_warn(const sf_fitfile *f, const sf_prediction *p, sf_warn_fn warn,
                   void *ctx)
{
	for (size_t k = 0; k < p->n && warn != NULL; k++) {
		char what[SF_ERROR_MESSAGE_MAX / 2] = "";
		size_t used = 0;
		sf_error w;

		for (size_t i = 0; i < p->ninputs; i++) {
			unsigned char r = p->range[i * p->n + k];
			int len;

			if (r == SF_PREDICT_INSIDE || used >= sizeof what)
				continue;
			len =
			    snprintf(what + used, sizeof what - used,
			             "%s%s = %.6g %s %.6g", used ? ", " : "",
			             f->inputs[i].name, p->inputs[i * p->n + k],
			             r == SF_PREDICT_BELOW ? "<" : ">",
			             r == SF_PREDICT_BELOW ? f->inputs[i].lo
			                                   : f->inputs[i].hi);
			used += len > 0 ? (size_t)len : 0;
		}
		if (used == 0)
			continue;
		sf_error_at(&w, SF_OK, f->path, 0, 0,
		            "point %zu lies outside the fitted range (%s): "
		            "the prediction is an extrapolation",
		            k + 1, what);
		warn(ctx, &w);
	}
}

size_t
sf_prediction_nonfinite(const sf_fitfile *f, const sf_prediction *p,
                        const char **what, double *value)
{
	for (size_t k = 0; k < p->n; k++) {
		*what = "time";
		*value = p->points[k].time;
		for (size_t j = 0; j < f->nterms && isfinite(*value); j++) {
			*what = f->terms[j].name;
			*value = p->terms[j * p->n + k];
		}
		if (!isfinite(*value))
			return k;
	}
	return p->n;
}

double
sf_prediction_error(const sf_prediction *p, size_t k)
{
	double y, e;

	if (p->observed == NULL)
		return NAN;
	y = p->observed[k];
	e = 100 * (p->points[k].time - y) / y;
	return isfinite(e) ? e : NAN;
}

/* Point k as a scored row: an sf_score_row_fn. */
static int
scored_point(const void *ctx, size_t k, double *y, double *f, double *lo,
             double *hi)
{
	const sf_prediction *p = ctx;

	if (isnan(sf_prediction_error(p, k)))
		return 0;
	*y = p->observed[k];
	*f = p->points[k].time;
	*lo = p->interval ? p->points[k].pi.lo : NAN;
	*hi = p->interval ? p->points[k].pi.hi : NAN;
	return 1;
}

void
sf_prediction_scores(const sf_prediction *p, sf_holdout_scores *out)
{
	sf_scores_rows(p->observed != NULL ? p->n : 0, scored_point, p, out);
}

void
sf_prediction_level_json(json_t *o, const sf_fitfile *f, const sf_prediction *p,
                         int *ok)
{
	sf_json_put(o, "level_percent", sf_json_number(100 * SF_PREDICT_LEVEL),
	            ok);
	sf_json_put(o, "dof", sf_json_number(f->dof), ok);
	sf_json_put(o, "t", sf_json_number(p->t), ok);
	sf_json_put(o, "bootstrap_samples",
	            json_integer((json_int_t)p->boot_used), ok);
}

void
sf_prediction_bands_json(json_t *o, const sf_prediction *p, size_t k, int *ok)
{
	const sf_predict_point *pt = &p->points[k];

	sf_json_put(o, "ci95", sf_json_pair(pt->ci.lo, pt->ci.hi), ok);
	if (p->interval)
		sf_json_put(o, "interval95", sf_json_pair(pt->pi.lo, pt->pi.hi),
		            ok);
	if (p->bootstrap)
		sf_json_put(o, "ci95_bootstrap",
		            sf_json_pair(pt->boot.lo, pt->boot.hi), ok);
}

/* What writing the points needs. */
typedef struct points_ctx {
	const sf_fitfile *f;
	const sf_prediction *p;
} points_ctx;

/*
 * Point k: its inputs (a text input by its value), time, stderr, bands
 * (sf_prediction_bands_json()'s), terms, whether it extrapolates and the
 * inputs outside their fitted range; written without a jansson value (an
 * sf_json_element_fn), a million points in the memory of one.
 */
static int
write_point(FILE *out, const void *ctx, size_t k, int depth)
{
	const sf_fitfile *f = ((const points_ctx *)ctx)->f;
	const sf_prediction *p = ((const points_ctx *)ctx)->p;
	const sf_predict_point *pt = &p->points[k];
	sf_json_writer w;

	sf_json_writer_init(&w, out, depth);
	sf_json_writer_open(&w, '{');
	sf_json_writer_next(&w, "inputs");
	sf_json_writer_open(&w, '{');
	for (size_t i = 0; i < f->ninputs; i++) {
		double x = p->inputs[i * p->n + k];

		sf_json_writer_next(&w, f->inputs[i].name);
		if (f->inputs[i].levels != NULL)
			sf_json_writer_string(&w,
			                      f->inputs[i].levels[(size_t)x]);
		else
			sf_json_writer_number(&w, x);
	}
	sf_json_writer_close(&w, '}');
	sf_json_writer_next(&w, "time");
	sf_json_writer_number(&w, pt->time);
	sf_json_writer_next(&w, "stderr");
	sf_json_writer_number(&w, pt->se);
	sf_json_writer_pair(&w, "ci95", pt->ci.lo, pt->ci.hi);
	if (p->interval) {
		sf_json_writer_pair(&w, "interval95", pt->pi.lo, pt->pi.hi);
		sf_json_writer_next(&w, "interval_parts");
		sf_json_writer_open(&w, '{');
		for (int q = 0; q < SF_PARTS; q++) {
			sf_json_writer_next(&w, sf_part_name(q));
			sf_json_writer_number(&w, pt->parts[q]);
		}
		sf_json_writer_close(&w, '}');
	}
	if (p->bootstrap)
		sf_json_writer_pair(&w, "ci95_bootstrap", pt->boot.lo,
		                    pt->boot.hi);
	sf_json_writer_next(&w, "terms");
	sf_json_writer_open(&w, '{');
	for (size_t j = 0; j < f->nterms; j++) {
		sf_json_writer_next(&w, f->terms[j].name);
		sf_json_writer_number(&w, p->terms[j * p->n + k]);
	}
	sf_json_writer_close(&w, '}');
	if (p->observed != NULL) {
		sf_json_writer_next(&w, "observed");
		sf_json_writer_number(&w, p->observed[k]);
		sf_json_writer_next(&w, "error_pct");
		sf_json_writer_number(&w, sf_prediction_error(p, k));
	}
	sf_json_writer_next(&w, "extrapolated");
	sf_json_writer_bool(&w, sf_prediction_outside(p, k));
	sf_json_writer_next(&w, "outside");
	sf_json_writer_open(&w, '[');
	for (size_t i = 0; i < f->ninputs; i++)
		if (p->range[i * p->n + k] != SF_PREDICT_INSIDE) {
			sf_json_writer_next(&w, NULL);
			sf_json_writer_string(&w, f->inputs[i].name);
		}
	sf_json_writer_close(&w, ']');
	sf_json_writer_close(&w, '}');
	return w.rc;
}

int
sf_prediction_head_json(json_t *o, const sf_fitfile *f, const sf_prediction *p)
{
	int ok = 1;

	sf_json_put(o, "fit", json_string(f->path), &ok);
	sf_json_put(o, "model", json_string(f->name), &ok);
	sf_json_put(o, "output", json_string(f->output), &ok);
	sf_prediction_level_json(o, f, p, &ok);
	if (p->observed != NULL) {
		json_t *scores = json_object();
		sf_holdout_scores s;

		sf_prediction_scores(p, &s);
		if (scores != NULL)
			sf_validation_scores_json(scores, &s, &ok);
		sf_json_put(o, "observed_scores", scores, &ok);
	}
	return ok ? SF_OK : SF_ENOMEM;
}

int
sf_prediction_write_json(FILE *out, const json_t *head, const sf_fitfile *f,
                         const sf_prediction *p, int depth)
{
	points_ctx c = {f, p};

	return sf_json_write_tail(out, head, depth, "points", p->n, write_point,
	                          &c);
}

/* The whole document written: an sf_json_print_fn of sf_json_tree(). */
static int
write_document(FILE *out, const void *arg)
{
	const points_ctx *c = arg;
	json_t *head = json_object();
	int rc = SF_ENOMEM;

	if (head != NULL && sf_prediction_head_json(head, c->f, c->p) == SF_OK)
		rc = sf_prediction_write_json(out, head, c->f, c->p, 0);
	json_decref(head);
	return rc;
}

json_t *
sf_prediction_json(const sf_fitfile *f, const sf_prediction *p)
{
	points_ctx c = {f, p};

	return sf_json_tree(write_document, &c);
}
