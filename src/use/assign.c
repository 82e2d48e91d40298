/*
 * assign.c - input values from the command line and from CSV grids.
 */
#include "use/assign.h"

#include "base/number.h"
#include "base/suggest.h"
#include "input/dataset.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Longest item of "name=value" text looked at; longer ones are cut in
 * messages only. */
enum { ITEM_MAX = 256 };

/* "p, b, n": the inputs' names, for messages. */
static void
input_list(const sf_fitfile *f, char *out, size_t size)
{
	size_t used = 0;

	out[0] = '\0';
	for (size_t i = 0; i < f->ninputs && used < size; i++) {
		int n = snprintf(out + used, size - used, "%s%s",
		                 i > 0 ? ", " : "", f->inputs[i].name);
		if (n < 0)
			break;
		used += (size_t)n;
	}
}

size_t
sf_assign_input(const sf_fitfile *f, const char *name, sf_error *err)
{
	size_t i = sf_fitfile_input_find(f, name);
	const char **names;
	const char *near = NULL;
	char list[SF_ERROR_MESSAGE_MAX / 2];

	if (i != SF_FITFILE_NONE)
		return i;
	if ((names = calloc(f->ninputs + 1, sizeof *names)) != NULL) {
		for (size_t k = 0; k < f->ninputs; k++)
			names[k] = f->inputs[k].name;
		near = sf_suggest_nearest(name, names, f->ninputs);
		free(names);
	}
	input_list(f, list, sizeof list);
	if (near != NULL)
		sf_error_set(err, SF_ENAME,
		             "unknown input '%.64s'; did you mean '%s'? "
		             "(inputs: %s)",
		             name, near, list);
	else
		sf_error_set(err, SF_ENAME,
		             "unknown input '%.64s' (inputs: %s)", name, list);
	return SF_FITFILE_NONE;
}

/* A text input's value: its code, with a suggestion when unknown. */
static int
level_value(const sf_fitfile *f, size_t i, const char *text, double *value,
            sf_error *err)
{
	const sf_fitfile_input *in = &f->inputs[i];
	size_t k = sf_fitfile_level_find(f, i, text);
	const char *near;

	if (k != SF_FITFILE_NONE) {
		*value = (double)k;
		return SF_OK;
	}
	near = sf_suggest_nearest(text, (const char *const *)in->levels,
	                          in->nlevels);
	if (near != NULL)
		return sf_error_set(err, SF_ENAME,
		                    "'%.64s' is not a value of %s; did you "
		                    "mean '%s'?",
		                    text, in->name, near);
	return sf_error_set(err, SF_ENAME,
	                    "'%.64s' is not a value of %s (it had %zu values "
	                    "in the fit, from '%s')",
	                    text, in->name, in->nlevels,
	                    in->nlevels > 0 ? in->levels[0] : "");
}

int
sf_assign_value(const sf_fitfile *f, size_t i, const char *text, double *value,
                sf_error *err)
{
	double x;
	int rc;

	if (f->inputs[i].levels != NULL)
		return level_value(f, i, text, value, err);
	if ((rc = sf_parse_double(text, &x)) == SF_OK) {
		*value = x;
		return SF_OK;
	}
	if (rc == SF_EVALUE)
		return sf_error_set(err, rc, "'%.64s' is out of range for %s",
		                    text, f->inputs[i].name);
	return sf_error_set(err, rc, "'%.64s' is not a number (for %s)", text,
	                    f->inputs[i].name);
}

int
sf_assign_parse(const sf_fitfile *f, const char *text, double *values,
                unsigned char *given, sf_error *err)
{
	const char *p = text;

	if (*p == '\0')
		return sf_error_set(
		    err, SF_ESYNTAX,
		    "empty; expected NAME=VALUE[,NAME=VALUE]...");
	for (;;) {
		size_t len = strcspn(p, ",");
		char item[ITEM_MAX], *eq;
		size_t i;
		int rc;

		snprintf(item, sizeof item, "%.*s", (int)len, p);
		eq = strchr(item, '=');
		if (len == 0 || eq == NULL || eq == item)
			return sf_error_set(err, SF_ESYNTAX,
			                    "'%.64s' is not NAME=VALUE", item);
		*eq = '\0';
		if ((i = sf_assign_input(f, item, err)) == SF_FITFILE_NONE)
			return SF_ENAME;
		if (given[i])
			return sf_error_set(err, SF_ENAME, "%s is given twice",
			                    item);
		if ((rc = sf_assign_value(f, i, eq + 1, &values[i], err)) !=
		    SF_OK)
			return rc;
		given[i] = 1;
		if (p[len] == '\0')
			return SF_OK;
		p += len + 1;
	}
}

void
sf_assign_columns_free(double **columns, size_t n)
{
	if (columns == NULL)
		return;
	for (size_t i = 0; i < n; i++)
		free(columns[i]);
	free(columns);
}

/* Where row r's record starts (no column: cells keep no position). */
static int
row_error(const sf_table *t, size_t r, int code, const char *message,
          sf_error *err)
{
	sf_error_at(err, code, sf_table_file(t), sf_table_row_lines(t)[r], 0,
	            "%s", message);
	return code;
}

/* Column col of t as the values of input i, into out. */
static int
read_column(const sf_fitfile *f, size_t i, const sf_table *t, size_t col,
            double *out, sf_error *err)
{
	const sf_fitfile_input *in = &f->inputs[i];
	const double *v = sf_table_column_values(t, col);
	size_t rows = sf_table_rows(t), nlevels;
	char message[SF_ERROR_MESSAGE_MAX];

	if (in->levels == NULL && sf_table_column_kind(t, col) == SF_CSV_TEXT) {
		const sf_error *first = sf_table_column_first_text(t, col);

		if (err != NULL && first != NULL)
			*err = *first;
		return sf_error_set(err, SF_ETYPE,
		                    "column '%s' should hold numbers for input "
		                    "%s: %s",
		                    sf_table_column_name(t, col), in->name,
		                    first != NULL ? first->message : "text");
	}
	if (in->levels == NULL) {
		for (size_t r = 0; r < rows; r++) {
			if (isnan(v[r])) {
				snprintf(message, sizeof message,
				         "empty cell in column '%s'",
				         sf_table_column_name(t, col));
				return row_error(t, r, SF_EVALUE, message, err);
			}
			out[r] = v[r];
		}
		return SF_OK;
	}
	/* A text input: translate the grid's strings to the fit's codes. */
	const char *const *levels = sf_table_column_levels(t, col, &nlevels);
	for (size_t r = 0; r < rows; r++) {
		char text[64];
		sf_error e;

		if (levels != NULL)
			snprintf(text, sizeof text, "%s", levels[(size_t)v[r]]);
		else
			snprintf(text, sizeof text, "%.17g", v[r]);
		if (level_value(f, i, text, &out[r], &e) != SF_OK)
			return row_error(t, r, e.code, e.message, err);
	}
	return SF_OK;
}

/* A grid without the column of input i's own name: "no column 'p' for
 * input p", with the nearest column. */
static int
no_input_column(const sf_fitfile *f, size_t i, const sf_table *t, sf_error *err)
{
	const char *name = f->inputs[i].name;
	size_t near = sf_table_column_nearest(t, name);
	int line, column;

	sf_table_column_position(t, 0, &line, &column);
	if (near != SF_CSV_NONE)
		return sf_error_at(err, SF_ENAME, sf_table_file(t), line, 0,
		                   "no column '%s' for input %s; did you mean "
		                   "'%s'?",
		                   name, name, sf_table_column_name(t, near));
	return sf_error_at(err, SF_ENAME, sf_table_file(t), line, 0,
	                   "no column '%s' for input %s (a grid has a column "
	                   "per input, or the data's columns)",
	                   name, name);
}

/* Error e of evaluating input i's text over grid t (from: "--input", or
 * NULL for the fit's inputs), placed at the grid's header: a column it
 * lacks named with the nearest one. */
static int
mapped_error(const sf_fitfile *f, size_t i, const char *text, const char *from,
             const sf_table *t, const sf_error *e, sf_error *err)
{
	const char *name = f->inputs[i].name;
	char missing[ITEM_MAX] = "", hint[ITEM_MAX + 32] = "";
	char own[ITEM_MAX + 32] = "";
	size_t near;
	int line, column;

	sf_table_column_position(t, 0, &line, &column);
	if (e->code != SF_ENAME || e->name[0] == '\0')
		return sf_error_at(
		    err, e->code, sf_table_file(t), line, 0,
		    "input %s (%s = %s in %s): %s", name, name, text,
		    from != NULL ? from : "the fit's inputs", e->message);
	snprintf(missing, sizeof missing, "%s", e->name);
	if ((near = sf_table_column_nearest(t, missing)) == SF_CSV_NONE &&
	    from == NULL)
		near = sf_table_column_nearest(t, name);
	if (near != SF_CSV_NONE)
		snprintf(hint, sizeof hint, "; did you mean '%s'?",
		         sf_table_column_name(t, near));
	if (from == NULL)
		snprintf(own, sizeof own, "'%s' for input %s, nor ", name,
		         name);
	return sf_error_at(err, SF_ENAME, sf_table_file(t), line, 0,
	                   "no column %s'%s' (%s = %s in %s)%s", own, missing,
	                   name, text, from != NULL ? from : "the fit's inputs",
	                   hint);
}

/* Input i's values from its text over grid t, as fit read them from the
 * data (from: "--input", or NULL for the fit's inputs): a column of that name
 * whole (a text input's values translated to the fit's codes), else the
 * expression over the grid's numeric columns. */
static int
mapped_column(const sf_fitfile *f, size_t i, const char *text, const char *from,
              const sf_table *t, double *out, sf_error *err)
{
	size_t col = sf_dataset_named_column(t, text), rows = sf_table_rows(t);
	char message[SF_ERROR_MESSAGE_MAX];
	sf_error e;
	int rc;

	sf_error_clear(&e);
	if (col != SF_CSV_NONE)
		return read_column(f, i, t, col, out, err);
	if (f->inputs[i].levels != NULL) {
		/* a text input is a column whole: no column, no input */
		sf_error_set(&e, SF_ENAME, "unknown name '%s'", text);
		snprintf(e.name, sizeof e.name, "%s", text);
		return mapped_error(f, i, text, from, t, &e, err);
	}
	if ((rc = sf_dataset_eval_table(t, text, out, &e)) != SF_OK)
		return rc == SF_ENOMEM
		           ? sf_error_set(err, rc, "out of memory")
		           : mapped_error(f, i, text, from, t, &e, err);
	for (size_t r = 0; r < rows; r++)
		if (!isfinite(out[r])) {
			snprintf(message, sizeof message,
			         "input %s (%s = %s in %s) is %s on this row",
			         f->inputs[i].name, f->inputs[i].name, text,
			         from != NULL ? from : "the fit's inputs",
			         isnan(out[r]) ? "not a number (an empty cell?)"
			                       : "infinite");
			return row_error(t, r, SF_EVALUE, message, err);
		}
	return SF_OK;
}

/* Input i's values from grid t into out: the column of its name, unless
 * exprs gives it a text; else its text (exprs', or the fit's inputs'). */
static int
grid_column(const sf_fitfile *f, size_t i, const sf_table *t,
            const char *const *exprs, double *out, sf_error *err)
{
	const sf_fitfile_input *in = &f->inputs[i];
	const char *text = in->column != NULL ? in->column : in->name;
	const char *from = NULL;
	size_t col = sf_table_column_find(t, in->name);

	if (exprs != NULL && exprs[i] != NULL) {
		text = exprs[i];
		from = "--input";
	} else if (col != SF_CSV_NONE)
		return read_column(f, i, t, col, out, err);
	else if (strcmp(text, in->name) == 0)
		return no_input_column(f, i, t, err);
	return mapped_column(f, i, text, from, t, out, err);
}

int
sf_assign_grid(const sf_fitfile *f, const sf_table *t, const char *const *exprs,
               double ***columns, sf_error *err)
{
	size_t rows = sf_table_rows(t);
	double **out = calloc(f->ninputs + 1, sizeof *out);
	int rc;

	*columns = NULL;
	if (out == NULL)
		return sf_error_set(err, SF_ENOMEM, "out of memory");
	for (size_t i = 0; i < f->ninputs; i++) {
		if ((out[i] = malloc((rows + 1) * sizeof *out[i])) == NULL) {
			sf_assign_columns_free(out, f->ninputs);
			return sf_error_set(err, SF_ENOMEM, "out of memory");
		}
		if ((rc = grid_column(f, i, t, exprs, out[i], err)) != SF_OK) {
			sf_assign_columns_free(out, f->ninputs);
			return rc;
		}
	}
	*columns = out;
	return SF_OK;
}

int
sf_assign_table(const sf_fitfile *f, const sf_table *t, double ***columns,
                sf_error *err)
{
	return sf_assign_grid(f, t, NULL, columns, err);
}
