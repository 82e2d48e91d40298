/*
 * inputs.c - models and rows for the C API's runs.
 */
#include "api/inputs.h"
#include "base/number.h"

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
	for (size_t i = 0; rc == SF_OK && change != NULL && i < (*out)->count;
	     i++)
		rc = sf_model_override((*out)->models[i], change, err);
	if (rc != SF_OK) {
		sf_model_set_free(*out);
		*out = NULL;
	}
	return rc;
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

/* text into out as a YAML double-quoted scalar. */
static void
put_quoted(FILE *out, const char *text)
{
	fputc('"', out);
	for (const unsigned char *p = (const unsigned char *)text; *p; p++) {
		if (*p == '"' || *p == '\\')
			fprintf(out, "\\%c", *p);
		else if (*p < 0x20 || *p == 0x7f)
			fprintf(out, "\\x%02x", *p);
		else
			fputc(*p, out);
	}
	fputc('"', out);
}

/* part ("NAME=REST") split at its '=' into out's key; *rest after it.
 * SF_ESYNTAX names what when there is no '=' or no name. */
static int
put_key(FILE *out, const char *what, const char *part, const char **rest,
        sf_error *err)
{
	const char *eq = strchr(part, '=');

	if (eq == NULL || eq == part)
		return sf_error_set(err, SF_ESYNTAX, "%s '%s': write NAME=%s",
		                    what, part,
		                    strcmp(what, "input") == 0 ? "EXPR"
		                                               : "MIN:MAX or "
		                                                 "NAME=VALUE");
	fprintf(out, "  %.*s: ", (int)(eq - part), part);
	*rest = eq + 1;
	return SF_OK;
}

/* One parameter, "NAME=MIN:MAX" (fitted) or "NAME=VALUE" (fixed). */
static int
put_parameter(FILE *out, const char *part, sf_error *err)
{
	const char *rest, *colon;
	char lo[64], hi[64];
	double x;
	int rc;

	if ((rc = put_key(out, "parameter", part, &rest, err)) != SF_OK)
		return rc;
	colon = strchr(rest, ':');
	if (colon == NULL && sf_parse_double(rest, &x) == SF_OK) {
		fprintf(out, "%s\n", sf_format_double(lo, sizeof lo, x));
		return SF_OK;
	}
	if (colon != NULL && (size_t)(colon - rest) < sizeof lo) {
		memcpy(lo, rest, (size_t)(colon - rest));
		lo[colon - rest] = '\0';
		if (sf_parse_double(lo, &x) == SF_OK &&
		    sf_parse_double(colon + 1, &x) == SF_OK) {
			snprintf(hi, sizeof hi, "%s", colon + 1);
			fprintf(out, "{min: %s, max: %s}\n", lo, hi);
			return SF_OK;
		}
	}
	return sf_error_set(err, SF_ESYNTAX,
	                    "parameter '%s': write NAME=MIN:MAX (fitted "
	                    "within bounds) or NAME=VALUE (fixed), with "
	                    "numbers",
	                    part);
}

/* The model file the parts make, into *yaml. */
static int
parts_text(const char *time, const char *const *inputs, size_t ninputs,
           const char *const *parameters, size_t nparameters, char **yaml,
           sf_error *err)
{
	size_t length = 0;
	FILE *out = open_memstream(yaml, &length);
	const char *rest;
	int rc = SF_OK;

	if (out == NULL)
		return sf_error_set(err, SF_ENOMEM, "out of memory");
	fprintf(out, "name: formula\ninputs:\n");
	for (size_t i = 0; i < ninputs && rc == SF_OK; i++)
		if ((rc = put_key(out, "input", inputs[i], &rest, err)) ==
		    SF_OK) {
			put_quoted(out, rest);
			fputc('\n', out);
		}
	fprintf(out, "parameters:\n");
	for (size_t i = 0; i < nparameters && rc == SF_OK; i++)
		rc = put_parameter(out, parameters[i], err);
	fprintf(out, "time: ");
	put_quoted(out, time);
	fputc('\n', out);
	if (fclose(out) != 0 && rc == SF_OK)
		rc = sf_error_set(err, SF_ENOMEM, "out of memory");
	if (rc != SF_OK) {
		free(*yaml);
		*yaml = NULL;
	}
	return rc;
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

/* x as a CSV cell that reads back as exactly x (17 significant digits;
 * whole numbers as digits, faster), into buf. */
static int
number_cell(double x, char *buf, size_t size)
{
	if (isnan(x))
		return buf[0] = '\0', 0;
	if (x == floor(x) && fabs(x) < 1e15 && !(x == 0 && signbit(x)))
		return snprintf(buf, size, "%" PRId64, (int64_t)x);
	return snprintf(buf, size, "%.17g", x);
}

/* text as a quoted CSV cell ("" for NULL or empty) to out. */
static void
text_cell(FILE *out, const char *text)
{
	if (text == NULL || text[0] == '\0')
		return;
	fputc('"', out);
	for (const char *p = text; *p; p++) {
		if (*p == '"')
			fputc('"', out);
		fputc(*p, out);
	}
	fputc('"', out);
}

/* A column's cells as they come: numbers, texts, or codes into levels. */
typedef struct cells {
	const double *values;
	const char *const *texts;
	const int64_t *codes;
	const char *const *levels;
	size_t nlevels;
} cells;

/* Cell i of c to out (SF_OK), or why it cannot be a cell, in err. */
static int
put_cell(FILE *out, const scalefit_data *d, const char *name, const cells *c,
         size_t i, sf_error *err)
{
	char cell[40];

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
	if (c->values != NULL) {
		number_cell(c->values[i], cell, sizeof cell);
		fputs(cell, out);
	} else if (c->texts != NULL)
		text_cell(out, c->texts[i]);
	else if (c->codes[i] >= 0)
		text_cell(out, c->levels[c->codes[i]]);
	fputc('\0', out);
	return SF_OK;
}

/* Add column name of n cells c. */
static int
add_column(scalefit_data *d, const char *name, const cells *c, size_t n,
           scalefit_error *err)
{
	data_column col = {NULL, NULL, calloc(n + 1, sizeof(size_t))};
	size_t length = 0;
	FILE *out = NULL;
	data_column *more;
	sf_error e;
	int rc;

	sf_error_clear(&e);
	sf_call_clear(err);
	if ((rc = check_column(d, name, n, &e)) != SF_OK)
		goto fail;
	if (col.start == NULL || (col.name = strdup(name)) == NULL ||
	    (out = open_memstream(&col.text, &length)) == NULL)
		goto nomem;
	for (size_t i = 0; i < n; i++) {
		col.start[i] = (size_t)ftell(out);
		if ((rc = put_cell(out, d, name, c, i, &e)) != SF_OK)
			goto fail;
	}
	rc = fclose(out);
	out = NULL;
	if (rc != 0 || (more = realloc(d->columns, (d->ncolumns + 1) *
	                                               sizeof *more)) == NULL)
		goto nomem;
	d->columns = more;
	d->columns[d->ncolumns++] = col;
	d->rows = n;
	return SCALEFIT_OK;
nomem:
	rc = sf_error_set(&e, SF_ENOMEM, "out of memory");
fail:
	if (out != NULL)
		fclose(out);
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
	char *text = NULL;
	FILE *out = open_memstream(&text, length);

	if (out == NULL)
		return NULL;
	for (size_t j = 0; j < d->ncolumns; j++) {
		if (j > 0)
			fputc(',', out);
		text_cell(out, d->columns[j].name);
	}
	fputc('\n', out);
	for (size_t i = 0; i < d->rows; i++) {
		for (size_t j = 0; j < d->ncolumns; j++) {
			if (j > 0)
				fputc(',', out);
			fputs(d->columns[j].text + d->columns[j].start[i], out);
		}
		fputc('\n', out);
	}
	if (fclose(out) != 0) {
		free(text);
		return NULL;
	}
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
