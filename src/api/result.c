/*
 * result.c - reports and fits: made from a run's output, read by path.
 */
#include "api/result.h"

#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

int
sf_result_make(scalefit_report *r, const char *command, sf_run_output *out,
               sf_warnings *w, int status, sf_error *err)
{
	int rc = SF_OK;

	/* A document written as it is printed (predict's points) is made a
	 * tree here: a report answers values by their JSON path. */
	if (out->json == NULL && out->write_json != NULL) {
		char *text = NULL;
		json_error_t jerr;

		if ((rc = sf_run_output_json_text(out, &text, err)) != SF_OK)
			return rc;
		out->json = json_loads(text, 0, &jerr);
		free(text);
		if (out->json == NULL)
			return sf_error_set(err, SF_ENOMEM, "out of memory");
		out->write_json = NULL;
	}
	r->command = command;
	r->json = out->json;
	r->text = out->text;
	r->warnings = *w;
	r->status = status;
	out->json = NULL;
	out->text = NULL;
	memset(w, 0, sizeof *w);
	if (r->json == NULL)
		rc =
		    sf_error_set(err, SF_EINTERNAL, "%s gave no JSON", command);
	else if (r->warnings.lost)
		rc = sf_error_set(err, SF_ENOMEM, "out of memory");
	else
		rc = sf_run_json_text(r->json, &r->json_text, err);
	if (rc != SF_OK)
		sf_result_clear(r);
	return rc;
}

void
sf_result_clear(scalefit_report *r)
{
	if (r == NULL)
		return;
	json_decref(r->json);
	free(r->json_text);
	free(r->text);
	free(r->svg);
	sf_warnings_clear(&r->warnings);
	memset(r, 0, sizeof *r);
}

int
sf_result_hand(scalefit_report *r, scalefit_report **out, sf_error *err)
{
	if ((*out = malloc(sizeof **out)) == NULL) {
		sf_result_clear(r);
		return sf_error_set(err, SF_ENOMEM, "out of memory");
	}
	**out = *r;
	memset(r, 0, sizeof *r);
	return SF_OK;
}

int
sf_result_fit(scalefit_report *r, const char *name, scalefit_fit **out,
              sf_error *err)
{
	scalefit_fit *f = calloc(1, sizeof *f);

	*out = NULL;
	if (f == NULL || (f->name = strdup(name)) == NULL) {
		free(f);
		sf_result_clear(r);
		return sf_error_set(err, SF_ENOMEM, "out of memory");
	}
	f->report = *r;
	memset(r, 0, sizeof *r);
	f->parameters = json_object_get(f->report.json, "parameters");
	if (!json_is_object(f->parameters))
		f->parameters = NULL;
	*out = f;
	return SF_OK;
}

void
scalefit_report_free(scalefit_report *r)
{
	sf_result_clear(r);
	free(r);
}

void
scalefit_fit_free(scalefit_fit *f)
{
	if (f == NULL)
		return;
	sf_result_clear(&f->report);
	free(f->name);
	free(f);
}

/* ---- a report read by path ----------------------------------------------- */

/* The value at path in doc: ".key" or "[index]" steps, the first key
 * without its dot; NULL when there is none. */
static const json_t *
lookup(const json_t *doc, const char *path)
{
	const json_t *v = doc;
	const char *p = path;

	while (v != NULL && *p != '\0') {
		if (*p == '[') {
			char *end;
			unsigned long i = strtoul(p + 1, &end, 10);

			if (!isdigit((unsigned char)p[1]) || *end != ']')
				return NULL;
			v = json_array_get(v, i);
			p = end + 1;
			continue;
		}
		if (*p == '.' && p != path)
			p++;
		size_t n = strcspn(p, ".[");
		char key[256];

		if (n == 0 || n >= sizeof key)
			return NULL;
		memcpy(key, p, n);
		key[n] = '\0';
		v = json_object_get(v, key);
		p += n;
	}
	return v;
}

double
scalefit_report_number(const scalefit_report *r, const char *path)
{
	const json_t *v = lookup(r->json, path);

	if (json_is_number(v))
		return json_number_value(v);
	if (json_is_boolean(v))
		return json_is_true(v) ? 1 : 0;
	return NAN;
}

const char *
scalefit_report_string(const scalefit_report *r, const char *path)
{
	return json_string_value(lookup(r->json, path));
}

size_t
scalefit_report_size(const scalefit_report *r, const char *path)
{
	const json_t *v = lookup(r->json, path);

	if (json_is_array(v))
		return json_array_size(v);
	return json_is_object(v) ? json_object_size(v) : 0;
}

/* Member i of object o, or NULL: its key in *key. */
static json_t *
member(const json_t *o, size_t i, const char **key)
{
	void *it = json_object_iter((json_t *)o);

	for (; it != NULL && i > 0; i--)
		it = json_object_iter_next((json_t *)o, it);
	if (it == NULL)
		return NULL;
	*key = json_object_iter_key(it);
	return json_object_iter_value(it);
}

const char *
scalefit_report_key(const scalefit_report *r, const char *path, size_t i)
{
	const json_t *o = lookup(r->json, path);
	const char *key = NULL;

	if (!json_is_object(o))
		return NULL;
	member(o, i, &key);
	return key;
}

const char *
scalefit_report_command(const scalefit_report *r)
{
	return r->command;
}

int
scalefit_report_status(const scalefit_report *r)
{
	return r->status;
}

const char *
scalefit_report_json(const scalefit_report *r)
{
	return r->json_text;
}

const char *
scalefit_report_text(const scalefit_report *r)
{
	return r->text;
}

const char *
scalefit_report_svg(const scalefit_report *r)
{
	return r->svg;
}

size_t
scalefit_report_warning_count(const scalefit_report *r)
{
	return r->warnings.count;
}

const char *
scalefit_report_warning(const scalefit_report *r, size_t i)
{
	return i < r->warnings.count ? r->warnings.texts[i] : NULL;
}

/* ---- points -------------------------------------------------------------- */

size_t
scalefit_report_point_count(const scalefit_report *r)
{
	return json_array_size(json_object_get(r->json, "points"));
}

/* The point columns named for what they hold, and where that is. */
static const struct {
	const char *column, *key;
	size_t index; /* of a pair; 2: a number, not a pair */
} point_columns[] = {
    {"lower95", "interval95", 0},
    {"upper95", "interval95", 1},
    {"band_lower95", "ci95", 0},
    {"band_upper95", "ci95", 1},
    {"time", "time", 2},
    {"stderr", "stderr", 2},
    {"extrapolated", "extrapolated", 2},
    {"speedup", "speedup", 2},
    {"efficiency", "efficiency", 2},
    {"cost", "cost", 2},
};

/* v as a number (true 1, false 0), NaN when it is none. */
static double
number_of(const json_t *v)
{
	if (json_is_boolean(v))
		return json_is_true(v) ? 1 : 0;
	return json_is_number(v) ? json_number_value(v) : NAN;
}

double
scalefit_report_point(const scalefit_report *r, size_t k, const char *column)
{
	const json_t *p = json_array_get(json_object_get(r->json, "points"), k);
	const json_t *v;

	if (p == NULL)
		return NAN;
	for (size_t i = 0; i < sizeof point_columns / sizeof *point_columns;
	     i++) {
		if (strcmp(column, point_columns[i].column) != 0)
			continue;
		v = json_object_get(p, point_columns[i].key);
		return number_of(point_columns[i].index < 2
		                     ? json_array_get(v, point_columns[i].index)
		                     : v);
	}
	/* An input: predict's points list them under "inputs", scale's
	 * carry the swept one and the study the fixed ones. */
	if ((v = json_object_get(json_object_get(p, "inputs"), column)) ||
	    (v = json_object_get(p, column)) ||
	    (v = json_object_get(json_object_get(r->json, "fixed"), column)))
		return number_of(v);
	return NAN;
}

/* ---- a fit's constants --------------------------------------------------- */

const scalefit_report *
scalefit_fit_report(const scalefit_fit *f)
{
	return &f->report;
}

size_t
scalefit_fit_parameter_count(const scalefit_fit *f)
{
	return f->parameters != NULL ? json_object_size(f->parameters) : 0;
}

const char *
scalefit_fit_parameter_name(const scalefit_fit *f, size_t i)
{
	const char *key = NULL;

	if (f->parameters == NULL || member(f->parameters, i, &key) == NULL)
		return NULL;
	return key;
}

size_t
scalefit_fit_parameter_index(const scalefit_fit *f, const char *name)
{
	const char *key;
	json_t *v;
	size_t i = 0;

	if (f->parameters == NULL)
		return SCALEFIT_NONE;
	json_object_foreach(f->parameters, key, v)
	{
		if (strcmp(key, name) == 0)
			return i;
		i++;
	}
	return SCALEFIT_NONE;
}

/* Member what of constant i's object. */
static const json_t *
parameter(const scalefit_fit *f, size_t i, const char *what)
{
	const char *key;
	const json_t *p =
	    f->parameters != NULL ? member(f->parameters, i, &key) : NULL;

	return json_object_get(p, what);
}

double
scalefit_fit_value(const scalefit_fit *f, size_t i)
{
	return number_of(parameter(f, i, "value"));
}

double
scalefit_fit_stderr(const scalefit_fit *f, size_t i)
{
	return number_of(parameter(f, i, "stderr"));
}

void
scalefit_fit_ci95(const scalefit_fit *f, size_t i, double *lower, double *upper)
{
	const json_t *ci = parameter(f, i, "ci95");

	*lower = number_of(json_array_get(ci, 0));
	*upper = number_of(json_array_get(ci, 1));
}

double
scalefit_fit_metric(const scalefit_fit *f, const char *name)
{
	return number_of(
	    json_object_get(json_object_get(f->report.json, "metrics"), name));
}
