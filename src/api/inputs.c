/*
 * inputs.c - models and rows for the C API's runs.
 */
/* strfromd (ISO/IEC TS 18661-1, C23), which glibc declares on request. */
#define __STDC_WANT_IEC_60559_BFP_EXT__ 1

#include "api/inputs.h"
#include "base/number.h"
#include "base/text.h"
#include "base/yaml_out.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- models -------------------------------------------------------------- */

void
scalefit_model_free(scalefit_model *m)
{
	if (m == NULL)
		return;
	free(m->path);
	free(m->name);
	free(m->text);
	sf_model_set_free(m->set);
	sf_warnings_clear(&m->loaded);
	free(m);
}

/* Load m (its path or text) with flags and change into *out, warnings to
 * w (may be NULL). */
static int
load(const scalefit_model *m, unsigned flags, const sf_data_override *change,
     sf_warnings *w, sf_model_set **out, sf_error *err)
{
	sf_warn_fn warn = w != NULL ? sf_warnings_keep : NULL;
	int rc;

	if (m->path != NULL)
		return sf_run_data_load(m->path, sf_run_library_dir(), flags,
		                        change, warn, w, out, err);
	rc = sf_model_parse_flags(m->name, m->text, strlen(m->text), flags, out,
	                          warn, w, err);
	return rc == SF_OK ? sf_run_data_change(out, change, err) : rc;
}

/* A new model from path or text (named name), loaded: SF_OK or err. */
static int
model_new(const char *path, const char *text, const char *name,
          scalefit_model **out, scalefit_error *err)
{
	scalefit_model *m = calloc(1, sizeof *m);
	sf_call call;
	sf_error e;
	int rc = SF_ENOMEM;

	sf_call_begin(&call);
	sf_error_clear(&e);
	sf_call_clear(err);
	*out = NULL;
	if (m == NULL || (path != NULL && (m->path = strdup(path)) == NULL) ||
	    (text != NULL && ((m->text = strdup(text)) == NULL ||
	                      (m->name = strdup(name)) == NULL)))
		sf_error_set(&e, SF_ENOMEM, "out of memory");
	else
		rc = load(m, SF_MODEL_FORMULA_OPTIONAL, NULL, &m->loaded,
		          &m->set, &e);
	if (rc == SF_OK && m->loaded.lost)
		rc = sf_error_set(&e, SF_ENOMEM, "out of memory");
	sf_call_end(&call);
	if (rc != SF_OK) {
		scalefit_model_free(m);
		return sf_call_error(err, &e);
	}
	*out = m;
	return SCALEFIT_OK;
}

int
scalefit_model_open(const char *path, scalefit_model **out, scalefit_error *err)
{
	return model_new(path, NULL, NULL, out, err);
}

int
scalefit_model_parse(const char *yaml, const char *name, scalefit_model **out,
                     scalefit_error *err)
{
	return model_new(NULL, yaml, name != NULL ? name : "<model>", out, err);
}

size_t
scalefit_model_count(const scalefit_model *m)
{
	return m->set->count;
}

const char *
scalefit_model_name(const scalefit_model *m, size_t i)
{
	return i < m->set->count ? m->set->models[i]->name : NULL;
}

/* 1 when every model of set has a formula. */
static int
has_formulas(const sf_model_set *set)
{
	for (size_t i = 0; i < set->count; i++)
		if (set->models[i]->time.text == NULL)
			return 0;
	return 1;
}

int
sf_inputs_models(const scalefit_model *m, unsigned flags,
                 const sf_data_override *change, int quiet, sf_warnings *w,
                 const sf_model_set **set, sf_model_set **owned, sf_error *err)
{
	int rc;

	*set = NULL;
	*owned = NULL;
	if (sf_data_override_empty(change) &&
	    ((flags & SF_MODEL_FORMULA_OPTIONAL) || has_formulas(m->set))) {
		*set = m->set;
		return quiet ? SF_OK : sf_warnings_append(w, &m->loaded);
	}
	if ((rc = load(m, flags, change, quiet ? NULL : w, owned, err)) ==
	    SF_OK)
		*set = *owned;
	return rc;
}

/* ---- a model from its parts ---------------------------------------------- */

/* part ("NAME=REST") split at its '=': the name into key (size bytes),
 * *rest after it; SF_ESYNTAX (what: "input" or "parameter") without. */
static int
split_part(const char *what, const char *part, char *key, size_t size,
           const char **rest, sf_error *err)
{
	const char *eq = strchr(part, '=');

	if (eq == NULL || eq == part || (size_t)(eq - part) >= size)
		return sf_error_set(
		    err, SF_ESYNTAX, "%s '%s': write %s", what, part,
		    strcmp(what, "input") == 0 ? "NAME=EXPR"
		                               : "NAME=MIN:MAX or NAME=VALUE");
	memcpy(key, part, (size_t)(eq - part));
	key[eq - part] = '\0';
	*rest = eq + 1;
	return SF_OK;
}

/* One parameter, "NAME=MIN:MAX" (fitted) or "NAME=VALUE" (fixed). */
static int
put_parameter(sf_yaml_out *y, const char *part, sf_error *err)
{
	const char *rest, *colon;
	char key[256], lo[64];
	double a, b;
	int rc;

	if ((rc = split_part("parameter", part, key, sizeof key, &rest, err)) !=
	    SF_OK)
		return rc;
	colon = strchr(rest, ':');
	if (colon == NULL && sf_parse_double(rest, &a) == SF_OK) {
		sf_yaml_out_number(y, key, a, NULL);
		return SF_OK;
	}
	if (colon != NULL && (size_t)(colon - rest) < sizeof lo) {
		memcpy(lo, rest, (size_t)(colon - rest));
		lo[colon - rest] = '\0';
		if (sf_parse_double(lo, &a) == SF_OK &&
		    sf_parse_double(colon + 1, &b) == SF_OK) {
			sf_yaml_out_flow_map(y, key);
			sf_yaml_out_number(y, "min", a, NULL);
			sf_yaml_out_number(y, "max", b, NULL);
			sf_yaml_out_end(y, NULL);
			return SF_OK;
		}
	}
	return sf_error_set(err, SF_ESYNTAX,
	                    "parameter '%s': write NAME=MIN:MAX (fitted "
	                    "within bounds) or NAME=VALUE (fixed), with "
	                    "numbers",
	                    part);
}

/* The model file the parts make, into *yaml (base/yaml_out: every
 * scalar quoted, so a part is never taken for YAML). */
static int
parts_text(const char *time, const char *const *inputs, size_t ninputs,
           const char *const *parameters, size_t nparameters, char **yaml,
           sf_error *err)
{
	sf_text t = SF_TEXT_INIT;
	sf_yaml_out y;
	const char *rest;
	char key[256];
	int rc = SF_OK;

	sf_yaml_out_init(&y, &t);
	sf_yaml_out_pair(&y, "name", "formula", NULL);
	sf_yaml_out_map(&y, "inputs");
	for (size_t i = 0; i < ninputs && rc == SF_OK; i++)
		if ((rc = split_part("input", inputs[i], key, sizeof key, &rest,
		                     err)) == SF_OK)
			sf_yaml_out_pair(&y, key, rest, NULL);
	sf_yaml_out_end(&y, NULL);
	sf_yaml_out_map(&y, "parameters");
	for (size_t i = 0; i < nparameters && rc == SF_OK; i++)
		rc = put_parameter(&y, parameters[i], err);
	sf_yaml_out_end(&y, NULL);
	sf_yaml_out_pair(&y, "time", time, NULL);
	if (rc != SF_OK) {
		sf_text_free(&t);
		return rc;
	}
	if ((*yaml = sf_text_take(&t)) == NULL)
		return sf_error_set(err, SF_ENOMEM, "out of memory");
	return SF_OK;
}

int
scalefit_model_formula(const char *time, const char *const *inputs,
                       size_t ninputs, const char *const *parameters,
                       size_t nparameters, scalefit_model **out,
                       scalefit_error *err)
{
	char *yaml = NULL;
	sf_error e;
	int rc;

	*out = NULL;
	sf_error_clear(&e);
	if (parts_text(time, inputs, ninputs, parameters, nparameters, &yaml,
	               &e) != SF_OK)
		return sf_call_error(err, &e);
	rc = model_new(NULL, yaml, "<formula>", out, err);
	free(yaml);
	return rc;
}

/* ---- rows ---------------------------------------------------------------- */

/* A column's cells as CSV text: cell i is text + start[i], NUL-ended. */
typedef struct data_column {
	char *name;
	char *text;
	size_t *start;
} data_column;

struct scalefit_data {
	char *path; /* a CSV file; NULL: columns */
	char *name; /* the columns' name in messages */
	size_t rows;
	data_column *columns;
	size_t ncolumns;
};

/* A new data handle, of the file at path or named name. */
static int
data_new(const char *path, const char *name, scalefit_data **out,
         scalefit_error *err)
{
	scalefit_data *d = calloc(1, sizeof *d);
	sf_error e;

	sf_call_clear(err);
	*out = NULL;
	if (d == NULL || (path != NULL && (d->path = strdup(path)) == NULL) ||
	    (name != NULL && (d->name = strdup(name)) == NULL)) {
		scalefit_data_free(d);
		sf_error_clear(&e);
		sf_error_set(&e, SF_ENOMEM, "out of memory");
		return sf_call_error(err, &e);
	}
	*out = d;
	return SCALEFIT_OK;
}

int
scalefit_data_csv(const char *path, scalefit_data **out, scalefit_error *err)
{
	return data_new(path, NULL, out, err);
}

int
scalefit_data_new(const char *name, scalefit_data **out, scalefit_error *err)
{
	return data_new(NULL, name != NULL ? name : "<columns>", out, err);
}

void
scalefit_data_free(scalefit_data *d)
{
	if (d == NULL)
		return;
	for (size_t i = 0; i < d->ncolumns; i++) {
		free(d->columns[i].name);
		free(d->columns[i].text);
		free(d->columns[i].start);
	}
	free(d->columns);
	free(d->path);
	free(d->name);
	free(d);
}

/* Whether column name of n rows may join d: SF_OK or err. */
static int
check_column(const scalefit_data *d, const char *name, size_t n, sf_error *err)
{
	if (d->path != NULL)
		return sf_error_set(
		    err, SF_EUSAGE,
		    "%s: the rows of a CSV file take no columns", d->path);
	if (name == NULL || name[0] == '\0')
		return sf_error_at(err, SF_ENAME, d->name, 0, 0,
		                   "a column needs a name");
	for (size_t i = 0; i < d->ncolumns; i++)
		if (strcmp(d->columns[i].name, name) == 0)
			return sf_error_at(err, SF_ENAME, d->name, 0, 0,
			                   "column '%s' is there already",
			                   name);
	if (n == 0)
		return sf_error_at(err, SF_EVALUE, d->name, 0, 0,
		                   "column '%s' has no rows", name);
	if (d->ncolumns > 0 && n != d->rows)
		return sf_error_at(err, SF_EVALUE, d->name, 0, 0,
		                   "column '%s' has %zu rows, the others %zu",
		                   name, n, d->rows);
	return SF_OK;
}

/* Whole number x (|x| < 1e15) in digits, appended to t: what printf's
 * "%.0f" writes, without its cost per cell. */
static void
put_whole(sf_text *t, double x)
{
	char digits[24], *end = digits + sizeof digits;
	char *p = sf_number_digits(end, (unsigned long long)fabs(x), x < 0);

	sf_text_append(t, p, (size_t)(end - p));
}

/*
 * x with 17 significant digits, as printf's "%.17g" writes it, into cell
 * (size bytes); returns its length.  glibc's strfromd writes the same
 * digits through the same conversion without parsing a format, and
 * without printf's slow path, which glibc takes in every process where
 * a library registered a printf hook: libquadmath does when it is loaded,
 * as in any Python process that imported numpy.  The caller holds the C
 * locale (sf_call_begin), so the point is '.'.
 */
static int
seventeen_digits(char *cell, size_t size, double x)
{
#if defined(__GLIBC__) &&                                                      \
    (__GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 25))
	return strfromd(cell, size, "%.17g", x);
#else
	return snprintf(cell, size, "%.17g", x);
#endif
}

/* x as a CSV cell that reads back as exactly x, appended to t: whole
 * numbers in digits, others with 17 significant digits; NaN empty. */
static void
number_cell(sf_text *t, double x)
{
	if (isnan(x))
		return;
	char cell[32];
	int n;

	if (x == floor(x) && fabs(x) < 1e15 && !(x == 0 && signbit(x)))
		put_whole(t, x);
	else if ((n = seventeen_digits(cell, sizeof cell, x)) > 0)
		sf_text_append(t, cell, (size_t)n);
}

/* text as a quoted CSV cell ("" for NULL or empty) appended to t. */
static void
text_cell(sf_text *t, const char *text)
{
	if (text == NULL || text[0] == '\0')
		return;
	sf_text_putc(t, '"');
	for (const char *p = text; *p; p++) {
		if (*p == '"')
			sf_text_putc(t, '"');
		sf_text_putc(t, *p);
	}
	sf_text_putc(t, '"');
}

/* A column's cells as they come: numbers, texts, or codes into levels. */
typedef struct cells {
	const double *values;
	const char *const *texts;
	const int64_t *codes;
	const char *const *levels;
	size_t nlevels;
} cells;

/* Cell i of c appended to t (SF_OK), or why it cannot be a cell. */
static int
put_cell(sf_text *t, const scalefit_data *d, const char *name, const cells *c,
         size_t i, sf_error *err)
{
	if (c->values != NULL && isinf(c->values[i]))
		return sf_error_at(
		    err, SF_EVALUE, d->name, (int)i + 2, 0,
		    "column '%s' row %zu: a measurement is finite "
		    "(NaN leaves the cell empty)",
		    name, i);
	if (c->codes != NULL && c->codes[i] >= (int64_t)c->nlevels)
		return sf_error_at(err, SF_EVALUE, d->name, (int)i + 2, 0,
		                   "column '%s' row %zu: code %" PRId64
		                   " of %zu values",
		                   name, i, c->codes[i], c->nlevels);
	if (c->values != NULL)
		number_cell(t, c->values[i]);
	else if (c->texts != NULL)
		text_cell(t, c->texts[i]);
	else if (c->codes[i] >= 0)
		text_cell(t, c->levels[c->codes[i]]);
	sf_text_putc(t, '\0');
	return SF_OK;
}

/* Add column name of n cells c.  The cells are written in the C locale,
 * whatever the program's (a decimal comma would split a cell in two). */
static int
add_column(scalefit_data *d, const char *name, const cells *c, size_t n,
           scalefit_error *err)
{
	data_column col = {NULL, NULL, calloc(n + 1, sizeof(size_t))};
	sf_text t = SF_TEXT_INIT;
	data_column *more;
	sf_call call;
	sf_error e;
	int rc;

	sf_error_clear(&e);
	sf_call_clear(err);
	if ((rc = check_column(d, name, n, &e)) != SF_OK)
		goto fail;
	if (c->values == NULL && c->texts == NULL &&
	    (c->codes == NULL || c->levels == NULL)) {
		rc = sf_error_set(&e, SF_EUSAGE, "column '%s': no values given",
		                  name);
		goto fail;
	}
	if (col.start == NULL) {
		rc = sf_error_set(&e, SF_ENOMEM, "out of memory");
		goto fail;
	}
	sf_call_begin(&call);
	for (size_t i = 0; i < n && rc == SF_OK; i++) {
		col.start[i] = t.length;
		rc = put_cell(&t, d, name, c, i, &e);
	}
	sf_call_end(&call);
	if (rc != SF_OK)
		goto fail;
	col.text = sf_text_take(&t);
	if (col.text == NULL || (col.name = strdup(name)) == NULL ||
	    (more = realloc(d->columns, (d->ncolumns + 1) * sizeof *more)) ==
	        NULL) {
		rc = sf_error_set(&e, SF_ENOMEM, "out of memory");
		goto fail;
	}
	d->columns = more;
	d->columns[d->ncolumns++] = col;
	d->rows = n;
	return SCALEFIT_OK;
fail:
	sf_text_free(&t);
	free(col.name);
	free(col.text);
	free(col.start);
	return sf_call_error(err, &e);
}

int
scalefit_data_add_numbers(scalefit_data *d, const char *column,
                          const double *values, size_t n, scalefit_error *err)
{
	cells c = {values, NULL, NULL, NULL, 0};

	return add_column(d, column, &c, n, err);
}

int
scalefit_data_add_texts(scalefit_data *d, const char *column,
                        const char *const *values, size_t n,
                        scalefit_error *err)
{
	cells c = {NULL, values, NULL, NULL, 0};

	return add_column(d, column, &c, n, err);
}

int
scalefit_data_add_levels(scalefit_data *d, const char *column,
                         const char *const *levels, size_t nlevels,
                         const int64_t *codes, size_t n, scalefit_error *err)
{
	cells c = {NULL, NULL, codes, levels, nlevels};

	return add_column(d, column, &c, n, err);
}

/* The CSV text of d's columns: a new string of *length bytes. */
static char *
csv_text(const scalefit_data *d, size_t *length)
{
	sf_text t = SF_TEXT_INIT;
	char *text;

	for (size_t j = 0; j < d->ncolumns; j++) {
		if (j > 0)
			sf_text_putc(&t, ',');
		text_cell(&t, d->columns[j].name);
	}
	sf_text_putc(&t, '\n');
	for (size_t i = 0; i < d->rows; i++) {
		for (size_t j = 0; j < d->ncolumns; j++) {
			if (j > 0)
				sf_text_putc(&t, ',');
			sf_text_puts(&t, d->columns[j].text +
			                     d->columns[j].start[i]);
		}
		sf_text_putc(&t, '\n');
	}
	*length = t.length;
	text = sf_text_take(&t);
	return text;
}

int
sf_inputs_rows(const scalefit_data *d, sf_run_data *r, sf_table **table,
               sf_error *err)
{
	size_t length = 0;
	char *text;
	int rc;

	*table = NULL;
	if (d == NULL)
		return SF_OK;
	if (d->path != NULL) {
		r->path = d->path;
		return SF_OK;
	}
	if (d->ncolumns == 0)
		return sf_error_at(err, SF_EVALUE, d->name, 0, 0,
		                   "no columns: add some before a run");
	if ((text = csv_text(d, &length)) == NULL)
		return sf_error_set(err, SF_ENOMEM, "out of memory");
	rc = sf_table_parse(text, length, d->name, NULL, table, err);
	free(text);
	r->table = *table;
	return rc;
}

const char *
sf_inputs_path(const scalefit_data *d)
{
	return d != NULL ? d->path : NULL;
}
