/*
 * fitinterval.c - a fit file's prediction_interval read back (the error
 * model of a new run, fit/interval.h): the noise, each input's model
 * error beyond the range (its line's slope where one is carried), the
 * prior (its scale at the noise, the formulas' disagreement, a hardware
 * speed's), each value checked and refused at its JSON path.
 */
#include "use/fitfile.h"

#include <jansson.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

/* What every section needs: the document and the fit being filled. */
typedef struct reader {
	sf_jsondoc *doc;
	sf_fitfile *f;
} reader;

/* One number of prediction_interval (or of its part at parent): finite,
 * at least lo (NaN allowed for null when null_ok). */
static int
interval_number(reader *ld, const json_t *pi, const char *parent,
                const char *key, int null_ok, double lo, double *out)
{
	char path[SF_JSONDOC_PATH_MAX];
	json_t *v;
	int rc;

	sf_jsondoc_member_path(path, parent, key);
	v = json_object_get(pi, key);
	if (v == NULL)
		return sf_jsondoc_fail(ld->doc, parent, SF_ENAME,
		                       "%s has no key '%s'", parent, key);
	if ((rc = sf_jsondoc_number(ld->doc, v, path, null_ok, out)) != SF_OK)
		return rc;
	if (isnan(*out) && null_ok)
		return SF_OK;
	if (!isfinite(*out) || *out < lo)
		return sf_jsondoc_fail(
		    ld->doc, path, SF_EVALUE,
		    "%s should be a finite number >= %g, not %g", path, lo,
		    *out);
	return SF_OK;
}

/* A number of prediction_interval that older files lack (model_weight:
 * 0 when absent, the weight then taken from the model error). */
static int
optional_interval_number(reader *ld, const json_t *pi, const char *parent,
                         const char *key, double lo, double *out)
{
	*out = 0;
	if (json_object_get(pi, key) == NULL)
		return SF_OK;
	return interval_number(ld, pi, parent, key, 0, lo, out);
}

/* What model_weight was made from (interval.h: weight_chain): "chain" or
 * "posterior"; a file before the key does not say (-1: builds wrote
 * either without it). */
static int
load_weight_from(reader *ld, const json_t *pi)
{
	static const char path[] = "prediction_interval.model_weight_from";
	const json_t *v = json_object_get(pi, "model_weight_from");
	const char *s = json_string_value(v);

	ld->f->interval.weight_chain = -1;
	if (v == NULL)
		return SF_OK;
	if (s == NULL ||
	    (strcmp(s, "chain") != 0 && strcmp(s, "posterior") != 0))
		return sf_jsondoc_fail(
		    ld->doc, path, SF_EVALUE,
		    "%s should be \"chain\" or \"posterior\"", path);
	ld->f->interval.weight_chain = strcmp(s, "chain") == 0;
	return SF_OK;
}

/*
 * The slope a model error's line carries beyond the top (interval.h), of
 * the entry e at path into *a (its growth read): trend, trend_sd and
 * trend_cov together or none of them (none: no line), beside a known
 * growth, with a variance that stays one: trend_sd positive with a finite
 * square and |trend_cov| at most trend_sd times the growth (the bias's
 * spread is part of the growth; then the error's variance is never
 * negative at any distance).
 */
static int
load_trend(reader *ld, const json_t *e, const char *path, sf_interval_along *a)
{
	static const char *const keys[] = {"trend", "trend_sd", "trend_cov"};
	enum { KEYS = sizeof keys / sizeof keys[0] };
	char at[SF_JSONDOC_PATH_MAX];
	size_t given = 0;
	double sd, bound;
	int rc;

	for (size_t k = 0; k < KEYS; k++)
		given += json_object_get(e, keys[k]) != NULL;
	if (given == 0)
		return SF_OK;
	if (given < KEYS || isnan(a->growth))
		return sf_jsondoc_fail(
		    ld->doc, path, SF_EVALUE,
		    given < KEYS
		        ? "%s should have all of trend, trend_sd and "
		          "trend_cov or none of them"
		        : "%s has a trend beside a null growth: a slope "
		          "carried needs the model error it moves",
		    path);
	if ((rc = interval_number(ld, e, path, "trend", 0, -INFINITY,
	                          &a->trend)) != SF_OK ||
	    (rc = interval_number(ld, e, path, "trend_sd", 0, 0, &sd)) !=
	        SF_OK ||
	    (rc = interval_number(ld, e, path, "trend_cov", 0, -INFINITY,
	                          &a->trend_cov)) != SF_OK)
		return rc;
	a->trend_var = sd * sd;
	bound = sd * a->growth;
	if (!(a->trend_var > 0) || !isfinite(a->trend_var)) {
		sf_jsondoc_member_path(at, path, "trend_sd");
		return sf_jsondoc_fail(ld->doc, at, SF_EVALUE,
		                       "%s should be positive with a finite "
		                       "square, not %g",
		                       at, sd);
	}
	if (!(fabs(a->trend_cov) <= bound)) {
		sf_jsondoc_member_path(at, path, "trend_cov");
		return sf_jsondoc_fail(
		    ld->doc, at, SF_EVALUE,
		    "%s should be at most trend_sd times growth in size "
		    "(%g), not %g",
		    at, bound, a->trend_cov);
	}
	return SF_OK;
}

/* The input of the fit a string at path names, into *j. */
static int
input_named(reader *ld, const json_t *name, const char *path, size_t *j)
{
	*j = sf_fitfile_input_find(ld->f, json_string_value(name));
	if (*j == SF_FITFILE_NONE)
		return sf_jsondoc_fail(
		    ld->doc, path, SF_ENAME,
		    "%s names '%s', which is not an input of the fit", path,
		    json_string_value(name));
	return SF_OK;
}

/* The model error of one input: prediction_interval.model_error[i]. */
static int
load_along(reader *ld, const json_t *e, size_t i)
{
	sf_interval_model *im = &ld->f->interval;
	const json_t *name = json_object_get(e, "input");
	char path[SF_JSONDOC_PATH_MAX];
	sf_interval_along a = {0};
	size_t j;
	int rc;

	snprintf(path, sizeof path, "prediction_interval.model_error[%zu]", i);
	if (!json_is_object(e) || !json_is_string(name))
		return sf_jsondoc_fail(
		    ld->doc, path, SF_EVALUE,
		    "%s should be an object whose \"input\" names an "
		    "input of the fit",
		    path);
	if ((rc = input_named(ld, name, path, &j)) != SF_OK)
		return rc;
	if ((rc = interval_number(ld, e, path, "growth", 1, 0, &a.growth)) !=
	        SF_OK ||
	    (rc = interval_number(ld, e, path, "bias", 0, -INFINITY,
	                          &a.bias)) != SF_OK ||
	    (rc = interval_number(ld, e, path, "growth_dof", 0, 0,
	                          &a.growth_dof)) != SF_OK ||
	    (rc = interval_number(ld, e, path, "evidence", 0, 0,
	                          &a.evidence)) != SF_OK ||
	    (rc = optional_interval_number(ld, e, path, "noise_above", 0,
	                                   &a.noise)) != SF_OK ||
	    (rc = optional_interval_number(ld, e, path, "noise_above_dof", 0,
	                                   &a.noise_dof)) != SF_OK ||
	    (rc = load_trend(ld, e, path, &a)) != SF_OK)
		return rc;
	im->along[j < SF_INTERVAL_INPUTS ? j : SF_INTERVAL_INPUTS] = a;
	return SF_OK;
}

/* The model error beyond the range along each input.  A file before
 * model_error had one model_growth for every input, from a posterior
 * that pooled them: the error is unknown, as the reports say. */
static int
load_model_error(reader *ld, const json_t *pi)
{
	sf_interval_model *im = &ld->f->interval;
	const json_t *list = json_object_get(pi, "model_error"), *e;
	const sf_interval_along unknown = {.growth = NAN};
	size_t i;
	int rc;

	im->ninputs = ld->f->ninputs;
	for (size_t j = 0; j <= SF_INTERVAL_INPUTS; j++)
		im->along[j] = unknown;
	if (list == NULL)
		return SF_OK;
	if (!json_is_array(list))
		return sf_jsondoc_fail(
		    ld->doc, "prediction_interval.model_error", SF_EVALUE,
		    "prediction_interval.model_error should be a list");
	json_array_foreach(list, i, e)
	{
		if ((rc = load_along(ld, e, i)) != SF_OK)
			return rc;
	}
	return SF_OK;
}

/* The input of prior that is a hardware speed, and with it the prior's
 * scale along it at the fit's noise: none when it names none. */
static int
load_hardware(reader *ld, const json_t *prior, const char *path)
{
	sf_interval_model *im = &ld->f->interval;
	const json_t *name = json_object_get(prior, "hardware");
	char at[SF_JSONDOC_PATH_MAX];
	size_t j;
	int rc;

	im->hardware = SIZE_MAX;
	im->hardware_prior_scale = 0;
	if (name == NULL)
		return SF_OK;
	sf_jsondoc_member_path(at, path, "hardware");
	if (!json_is_string(name))
		return sf_jsondoc_fail(ld->doc, at, SF_ETYPE,
		                       "%s should be an input's name", at);
	if ((rc = input_named(ld, name, at, &j)) != SF_OK)
		return rc;
	if (ld->f->inputs[j].levels != NULL)
		return sf_jsondoc_fail(
		    ld->doc, at, SF_ETYPE,
		    "%s names '%s', a text input: a hardware "
		    "speed is a number",
		    at, json_string_value(name));
	im->hardware = j;
	return interval_number(ld, prior, path, "hardware_scale_at_noise", 0,
	                       1e-12, &im->hardware_prior_scale);
}

/* The prior's scale at the fit's noise and its degrees of freedom (the
 * model error below the range), the formulas' disagreement it counted
 * with its weight (what the interval's parts split the model error by)
 * and its input that is a hardware speed: prediction_interval.prior; the
 * scale 0 and the disagreement NaN when the file is older, or the fit
 * had none. */
static int
load_prior(reader *ld, const json_t *pi)
{
	static const char path[] = "prediction_interval.prior";
	sf_interval_model *im = &ld->f->interval;
	const json_t *prior = json_object_get(pi, "prior");
	double g, q;
	int rc;

	im->disagreement = NAN;
	/* the model error read is widened for a regime already */
	im->regime_prior = NAN;
	im->prior_scale = 0;
	im->hardware = SIZE_MAX;
	im->hardware_prior_scale = 0;
	if (!json_is_object(prior))
		return SF_OK;
	if ((rc = optional_interval_number(ld, prior, path, "scale_at_noise", 0,
	                                   &im->prior_scale)) != SF_OK ||
	    (rc = optional_interval_number(ld, prior, path, "dof", 0,
	                                   &im->prior.dof)) != SF_OK ||
	    (rc = load_hardware(ld, prior, path)) != SF_OK)
		return rc;
	if (json_object_get(prior, "disagreement") == NULL)
		return SF_OK;
	if ((rc = interval_number(ld, prior, path, "disagreement", 0, 0, &g)) !=
	        SF_OK ||
	    (rc = interval_number(ld, prior, path, "disagreement_weight", 0, 0,
	                          &q)) != SF_OK ||
	    (rc = interval_number(ld, prior, path, "scale_at_noise", 0, 0,
	                          &im->prior_scale)) != SF_OK)
		return rc;
	im->disagreement = g;
	im->prior.disagreement_weight = q;
	return SF_OK;
}

int
sf_fitfile_load_interval(sf_jsondoc *doc, sf_fitfile *f, const json_t *root)
{
	reader r = {doc, f}, *ld = &r;
	sf_interval_model *im = &ld->f->interval;
	json_t *pi, *errors;
	const char *kind;
	int rc;

	pi = sf_jsondoc_member(ld->doc, root, "", "prediction_interval",
	                       "object", 0, &rc);
	if (pi == NULL)
		return rc;
	errors = sf_jsondoc_member(ld->doc, pi, "prediction_interval", "errors",
	                           "string", 1, &rc);
	if (errors == NULL)
		return rc;
	kind = json_string_value(errors);
	if (strcmp(kind, "multiplicative") != 0 &&
	    strcmp(kind, "additive") != 0)
		return sf_jsondoc_fail(
		    ld->doc, "prediction_interval.errors", SF_EVALUE,
		    "prediction_interval.errors should be "
		    "\"multiplicative\" or \"additive\", not \"%s\"",
		    kind);
	/* This version's intervals are 95% ones: another level would be
	 * printed as 95% (a tampered "level": 7 was). */
	{
		json_t *level =
		    sf_jsondoc_member(ld->doc, pi, "prediction_interval",
		                      "level", "number", 0, &rc);

		if (rc != SF_OK)
			return rc;
		if (level != NULL &&
		    fabs(json_number_value(level) - SF_INTERVAL_LEVEL) > 1e-9)
			return sf_jsondoc_fail(
			    ld->doc, "prediction_interval.level", SF_EVALUE,
			    "prediction_interval.level is %g, but this "
			    "version computes %g%% intervals only (%g)",
			    json_number_value(level), 100 * SF_INTERVAL_LEVEL,
			    SF_INTERVAL_LEVEL);
	}
	memset(im, 0, sizeof *im);
	im->multiplicative = kind[0] == 'm';
	if ((rc = interval_number(ld, pi, "prediction_interval", "sigma", 0, 0,
	                          &im->sigma)) != SF_OK ||
	    (rc = interval_number(ld, pi, "prediction_interval", "t", 0, 0,
	                          &im->t)) != SF_OK ||
	    (rc = interval_number(ld, pi, "prediction_interval", "dof", 0, 0,
	                          &im->dof)) != SF_OK ||
	    (rc = load_model_error(ld, pi)) != SF_OK ||
	    (rc = load_prior(ld, pi)) != SF_OK ||
	    (rc = optional_interval_number(ld, pi, "prediction_interval",
	                                   "model_weight", 0, &im->weight)) !=
	        SF_OK ||
	    (rc = load_weight_from(ld, pi)) != SF_OK)
		return rc;
	if (!(im->t > 0))
		return sf_jsondoc_fail(ld->doc, "prediction_interval.t",
		                       SF_EVALUE,
		                       "prediction_interval.t should be > 0");
	ld->f->has_interval = 1;
	return SF_OK;
}
