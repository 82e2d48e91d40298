/*
 * dataset.c - from a CSV table and a model's data section to fit rows.
 *
 * Every expression over columns (where, output, weight, each input) is
 * evaluated over the whole table with the expression engine, in a scope
 * whose names are the table's columns; the rows are then kept, filtered or
 * skipped in one pass, so each decision is made in one place.
 */
#include "input/dataset.h"
#include "expr/expr.h"
#include "base/sort.h"
#include "base/suggest.h"
#include "solve/loss.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Skipped rows reported one by one before the rest are only counted. */
enum { DATASET_REPORTED_ROWS = 5 };

/* The table's columns as an expression scope. */
typedef struct column_scope {
	sf_expr_scope *scope;
	const double **columns; /* per input slot */
	size_t nrows;
	const sf_table *table;
} column_scope;

static void
column_scope_free(column_scope *cs)
{
	sf_expr_scope_free(cs->scope);
	free(cs->columns);
}

/* Columns whose names are identifiers become inputs of the scope. */
static int
column_scope_init(column_scope *cs, const sf_table *t, sf_error *err)
{
	size_t ncols = sf_table_columns(t), slot = 0;
	int rc = SF_OK;

	cs->nrows = sf_table_rows(t);
	cs->table = t;
	cs->scope = sf_expr_scope_new();
	cs->columns = calloc(ncols + 1, sizeof *cs->columns);
	if (cs->scope == NULL || cs->columns == NULL)
		return sf_error_set(err, SF_ENOMEM, "out of memory");
	for (size_t c = 0; c < ncols && rc == SF_OK; c++) {
		const char *name = sf_table_column_name(t, c);

		if (!sf_expr_is_name(name))
			continue;
		if (sf_table_column_kind(t, c) == SF_CSV_TEXT) {
			size_t n;
			const char *const *levels =
			    sf_table_column_levels(t, c, &n);
			rc = sf_expr_scope_add_text_input(cs->scope, name,
			                                  levels, n, err);
		} else {
			rc = sf_expr_scope_add_input(cs->scope, name, err);
		}
		cs->columns[slot++] = sf_table_column_values(t, c);
	}
	return rc;
}

/* Append the table's column names to buf (size bytes) from used on,
 * cut with "..." when they do not fit. */
static void
list_columns(const sf_table *t, char *buf, size_t size)
{
	size_t used = 0, ncols = sf_table_columns(t);

	buf[0] = '\0';
	for (size_t c = 0; c < ncols; c++) {
		const char *name = sf_table_column_name(t, c);
		int w;

		if (used + strlen(name) + 8 >= size) {
			snprintf(buf + used, size - used, ", ...");
			return;
		}
		w = snprintf(buf + used, size - used, "%s%s", c > 0 ? ", " : "",
		             name);
		used += w > 0 ? (size_t)w : 0;
	}
}

/*
 * err is the engine's unknown name (err->name) for the model text at: the data
 * has no such column.  Say so from the data's side, with the table's
 * columns and the nearest of them; the position stays where the name is
 * used (the model file, or the command-line option the text came from).
 */
static void
no_such_column(const sf_model *m, const sf_table *t, const sf_model_text *at,
               sf_error *err)
{
	char name[SF_ERROR_NAME_MAX], columns[256], input_note[256] = "";
	const char *names[256], *near;
	size_t ncols = sf_table_columns(t), n = 0;

	/* the message below replaces the record's, name with it */
	snprintf(name, sizeof name, "%s", err->name);
	for (size_t c = 0; c < ncols && n < 256; c++)
		names[n++] = sf_table_column_name(t, c);
	near = sf_suggest_nearest(name, names, n);
	for (size_t i = 0; i < m->ninputs; i++)
		if (strcmp(m->inputs[i].name, name) == 0)
			snprintf(input_note, sizeof input_note,
			         "; '%s' is an input of the model, but where:, "
			         "output: and the inputs are written over "
			         "columns",
			         name);
	list_columns(t, columns, sizeof columns);
	sf_error_set(
	    err, err->code,
	    "%.200s has no column '%s'; its columns are: %s%s%s%s%s%s",
	    sf_table_file(t), name, columns,
	    near != NULL ? "; did you mean '" : "", near != NULL ? near : "",
	    near != NULL ? "'?" : "", input_note,
	    at == &m->where && at->origin == NULL && input_note[0] == '\0'
	        ? "; --where '' drops the model's filter"
	        : "");
	sf_model_locate(m, at, err);
}

/*
 * A type error in text that names a text column: say which cell made the
 * column text (its FILE:LINE:COL in the data file and its text), as the
 * error's position is in the model file.
 */
static void
explain_text_column(const sf_table *t, const char *text, sf_error *err)
{
	for (size_t c = 0; c < sf_table_columns(t); c++) {
		const sf_error *cell = sf_table_column_first_text(t, c);
		const char *name = sf_table_column_name(t, c);
		size_t used = strlen(err->message);

		if (cell == NULL || !sf_expr_mentions(text, name))
			continue;
		snprintf(err->message + used, sizeof err->message - used,
		         "; column '%s' is text because of its cell at "
		         "%s:%d:%d: %s",
		         name, cell->file, cell->line, cell->column,
		         cell->message);
		return;
	}
}

/*
 * Evaluate the model text at over every table row into out; an error is
 * placed in the model file (or at the command-line option the text came
 * from), an unknown name said to be a column the data lacks.
 */
static int
evaluate(const sf_model *m, const sf_table *t, const column_scope *cs,
         const sf_model_text *at, double *out, sf_error *err)
{
	int rc = sf_expr_eval_columns(cs->scope, at->text, cs->columns,
	                              cs->nrows, out, err);

	if (rc == SF_ETYPE && err != NULL)
		explain_text_column(cs->table, at->text, err);
	if (rc == SF_ENAME && err != NULL && err->name[0] != '\0')
		no_such_column(m, t, at, err);
	else if (rc != SF_OK && rc != SF_ENOMEM)
		sf_model_locate(m, at, err);
	return rc;
}

/*
 * The first string literal of the filter text that is compared with a
 * text column (the name next to it) and is not one of the column's
 * values: "'CNN' is not a value of column 'model' (its 2 values: cnn,
 * mlp)" into hint (size bytes), and the literal's 1-based column in the
 * text into *column.  Returns 1 when there is one, else 0 with hint "".
 */
static int
unknown_literal(const sf_table *t, const char *text, char *hint, size_t size,
                int *column)
{
	size_t len = strlen(text);

	hint[0] = '\0';
	for (size_t i = 0; i < len; i++) {
		char value[128], col_name[128];
		size_t start = i, k = 0, a, b, col, count;
		const char *const *levels;
		int found = 0, used;

		if (text[i] != '\'')
			continue;
		/* the literal, '' standing for a quote */
		for (i++; i < len; i++) {
			if (text[i] == '\'' && text[i + 1] == '\'')
				i++;
			else if (text[i] == '\'')
				break;
			if (k + 1 < sizeof value)
				value[k++] = text[i];
		}
		value[k] = '\0';
		/* the name before it (name == 'x'), else after ('x' == name) */
		a = start;
		while (a > 0 && strchr(" \t=!<>", text[a - 1]) != NULL)
			a--;
		b = a;
		while (b > 0 && (isalnum((unsigned char)text[b - 1]) ||
		                 text[b - 1] == '_'))
			b--;
		if (b == a) {
			b = i + 1 < len ? i + 1 : len;
			while (b < len && strchr(" \t=!<>", text[b]) != NULL)
				b++;
			a = b;
			while (a < len && (isalnum((unsigned char)text[a]) ||
			                   text[a] == '_'))
				a++;
		}
		/* text[b, a) is the name */
		snprintf(col_name, sizeof col_name, "%.*s", (int)(a - b),
		         text + b);
		col = sf_table_column_find(t, col_name);
		if (col == SF_CSV_NONE ||
		    sf_table_column_kind(t, col) != SF_CSV_TEXT)
			continue;
		levels = sf_table_column_levels(t, col, &count);
		for (size_t l = 0; l < count && !found; l++)
			found = strcmp(levels[l], value) == 0;
		if (found)
			continue;
		used = snprintf(hint, size,
		                "'%s' is not a value of column '%s' (its %zu "
		                "value%s: ",
		                value, col_name, count, count == 1 ? "" : "s");
		for (size_t l = 0;
		     l < count && l < 8 && used > 0 && (size_t)used < size; l++)
			used += snprintf(hint + used, size - (size_t)used,
			                 "%s%s", l > 0 ? ", " : "", levels[l]);
		if (used > 0 && (size_t)used < size)
			snprintf(hint + used, size - (size_t)used, "%s)",
			         count > 8 ? ", ..." : "");
		*column = (int)start + 1;
		return 1;
	}
	return 0;
}

size_t
sf_dataset_named_column(const sf_table *t, const char *text)
{
	char name[256];
	size_t n;

	while (isspace((unsigned char)*text))
		text++;
	n = strlen(text);
	while (n > 0 && isspace((unsigned char)text[n - 1]))
		n--;
	if (n == 0 || n >= sizeof name)
		return SF_CSV_NONE;
	memcpy(name, text, n);
	name[n] = '\0';
	return sf_table_column_find(t, name);
}

/* The trimmed text, if it is exactly the name of a text column. */
static size_t
text_column(const sf_table *t, const char *text)
{
	size_t col = sf_dataset_named_column(t, text);

	if (col == SF_CSV_NONE || sf_table_column_kind(t, col) != SF_CSV_TEXT)
		return SF_CSV_NONE;
	return col;
}

/*
 * 1 when text is exactly the name of a numeric column of t, whose values
 * are then copied into out: columns whose names are not identifiers
 * ("time (s)", "batch-size") can still be an output, a weight or an input
 * whole.  0 when it is an expression to evaluate.
 */
static int
copy_named_column(const sf_table *t, const char *text, double *out)
{
	size_t col = sf_dataset_named_column(t, text);

	if (col == SF_CSV_NONE || sf_table_column_kind(t, col) == SF_CSV_TEXT)
		return 0;
	memcpy(out, sf_table_column_values(t, col),
	       sf_table_rows(t) * sizeof *out);
	return 1;
}

/* Fill out with the model text at over every row: a numeric column named
 * whole, or an expression. */
static int
evaluate_or_copy(const sf_model *m, const sf_table *t, const column_scope *cs,
                 const sf_model_text *at, double *out, sf_error *err)
{
	if (copy_named_column(t, at->text, out))
		return SF_OK;
	return evaluate(m, t, cs, at, out, err);
}

void
sf_dataset_free(sf_dataset *d)
{
	if (d == NULL)
		return;
	free(d->file);
	free(d->lines);
	free(d->table_row);
	free(d->skipped_row);
	free(d->output);
	free(d->weight);
	for (size_t i = 0; i < d->ninputs; i++) {
		free(d->inputs[i].name);
		free(d->inputs[i].values);
		for (size_t k = 0; k < d->inputs[i].nlevels; k++)
			free(d->inputs[i].levels[k]);
		free(d->inputs[i].levels);
	}
	free(d->inputs);
	for (size_t i = 0; i < d->ncolumns; i++) {
		free(d->columns[i].name);
		free(d->columns[i].values);
		for (size_t k = 0; k < d->columns[i].nlevels; k++)
			free(d->columns[i].levels[k]);
		free(d->columns[i].levels);
	}
	free(d->columns);
	free(d->config);
	free(d->configs);
	free(d);
}

/* Report one skipped row, or only count it once enough have been shown. */
static void
report_skip(const sf_table *t, size_t row, size_t *reported, sf_warn_fn warn,
            void *ctx, const char *message)
{
	sf_error w;

	if (warn == NULL || (*reported)++ >= DATASET_REPORTED_ROWS)
		return;
	sf_error_at(&w, SF_OK, sf_table_file(t), sf_table_row_lines(t)[row], 0,
	            "row skipped: %s", message);
	warn(ctx, &w);
}

/* ---- configurations (repetitions) --------------------------------------- */

static int
same_inputs(const sf_dataset *d, size_t a, size_t b)
{
	for (size_t i = 0; i < d->ninputs; i++)
		if (!(d->inputs[i].values[a] == d->inputs[i].values[b]))
			return 0;
	return 1;
}

static int
compare_inputs(const sf_dataset *d, size_t a, size_t b)
{
	for (size_t i = 0; i < d->ninputs; i++) {
		double x = d->inputs[i].values[a], y = d->inputs[i].values[b];
		if (x < y)
			return -1;
		if (x > y)
			return 1;
	}
	return a < b ? -1 : a > b;
}

/* compare_inputs() for sf_sort_indices. */
static int
compare_rows(const void *d, size_t a, size_t b)
{
	return compare_inputs(d, a, b);
}

/* Number configurations in the order their first row appears. */
static int
group_configurations(sf_dataset *d)
{
	size_t n = d->rows, *order, *tmp, *group, ngroups = 0;
	int rc = SF_ENOMEM;

	order = malloc(n * sizeof *order);
	tmp = malloc(n * sizeof *tmp);
	group = malloc(n * sizeof *group);
	d->config = malloc(n * sizeof *d->config);
	if (order == NULL || tmp == NULL || group == NULL || d->config == NULL)
		goto done;
	for (size_t i = 0; i < n; i++)
		order[i] = i;
	sf_sort_indices(order, tmp, n, compare_rows, d);
	/* group[row] = sorted-group number; then renumber by first row. */
	for (size_t i = 0; i < n; i++) {
		if (i > 0 && !same_inputs(d, order[i - 1], order[i]))
			ngroups++;
		group[order[i]] = ngroups;
	}
	ngroups++;
	for (size_t g = 0; g < ngroups; g++)
		tmp[g] = SIZE_MAX;
	d->configs = calloc(ngroups, sizeof *d->configs);
	if (d->configs == NULL)
		goto done;
	for (size_t i = 0; i < n; i++) {
		size_t g = group[i];
		if (tmp[g] == SIZE_MAX) {
			tmp[g] = d->nconfigs++;
			d->configs[tmp[g]].first_row = i;
		}
		d->config[i] = tmp[g];
		d->configs[tmp[g]].count++;
		d->configs[tmp[g]].mean += d->output[i];
	}
	for (size_t c = 0; c < d->nconfigs; c++)
		d->configs[c].mean /= (double)d->configs[c].count;
	for (size_t i = 0; i < n; i++) {
		sf_dataset_config *c = &d->configs[d->config[i]];
		double dev = d->output[i] - c->mean;
		c->sd += dev * dev;
	}
	for (size_t c = 0; c < d->nconfigs; c++) {
		size_t k = d->configs[c].count;
		d->configs[c].sd =
		    k > 1 ? sqrt(d->configs[c].sd / (double)(k - 1)) : 0;
	}
	rc = SF_OK;
done:
	free(order);
	free(tmp);
	free(group);
	return rc;
}

static int
cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

void
sf_dataset_repetitions(const sf_dataset *d, size_t *repeated, size_t *max_count,
                       double *median_cv)
{
	double *cv = malloc((d->nconfigs + 1) * sizeof *cv);
	size_t n = 0, most = 0;

	for (size_t c = 0; c < d->nconfigs; c++) {
		const sf_dataset_config *k = &d->configs[c];
		most = k->count > most ? k->count : most;
		if (k->count > 1 && cv != NULL)
			cv[n++] = k->sd / fabs(k->mean);
	}
	*repeated = n;
	*max_count = most;
	*median_cv = NAN;
	if (cv != NULL && n > 0) {
		qsort(cv, n, sizeof *cv, cmp_double);
		*median_cv =
		    n % 2 ? cv[n / 2] : 0.5 * (cv[n / 2 - 1] + cv[n / 2]);
	}
	free(cv);
}

/* Row i's deviation from its configuration's mean, relative to it, or
 * NaN when the configuration is not repeated (or its mean is 0). */
static double
repeat_deviation(const sf_dataset *d, size_t i)
{
	const sf_dataset_config *c = &d->configs[d->config[i]];

	if (c->count < 2 || c->mean == 0)
		return NAN;
	return (d->output[i] - c->mean) / fabs(c->mean);
}

/* How much of the repeats' scatter text column c's levels explain (one
 * mean shift per level, over the configurations where c varies, marked
 * in varies[]); effect has room for its levels. */
static double
split_share(const sf_dataset *d, const sf_dataset_column *c,
            const unsigned char *varies, double *effect, size_t *count)
{
	double total = 0, resid = 0;

	for (size_t l = 0; l < c->nlevels; l++)
		effect[l] = 0, count[l] = 0;
	for (size_t i = 0; i < d->rows; i++) {
		double r = repeat_deviation(d, i);
		size_t l = (size_t)c->values[i];

		if (isnan(r) || isnan(c->values[i]))
			continue;
		total += r * r;
		if (varies[d->config[i]])
			effect[l] += r, count[l]++;
	}
	for (size_t l = 0; l < c->nlevels; l++)
		effect[l] = count[l] > 0 ? effect[l] / (double)count[l] : 0;
	for (size_t i = 0; i < d->rows; i++) {
		double r = repeat_deviation(d, i);

		if (isnan(r) || isnan(c->values[i]))
			continue;
		if (varies[d->config[i]])
			r -= effect[(size_t)c->values[i]];
		resid += r * r;
	}
	return total > 0 ? 1 - resid / total : 0;
}

/* Mark the repeated configurations where column c varies; how many. */
static size_t
mark_varies(const sf_dataset *d, const sf_dataset_column *c,
            unsigned char *varies)
{
	size_t n = 0;

	memset(varies, 0, d->nconfigs);
	for (size_t i = 0; i < d->rows; i++) {
		size_t k = d->config[i];
		double first = c->values[d->configs[k].first_row];

		if (!varies[k] && c->values[i] != first &&
		    !(isnan(first) && isnan(c->values[i]))) {
			varies[k] = 1;
			n++;
		}
	}
	return n;
}

int
sf_dataset_replicate_split(const sf_dataset *d, sf_dataset_split *out)
{
	unsigned char *varies = malloc(d->nconfigs + 1);
	int found = 0;

	memset(out, 0, sizeof *out);
	for (size_t k = 0; k < d->nconfigs; k++)
		out->repeated += d->configs[k].count > 1;
	for (size_t j = 0; j < d->ncolumns && varies != NULL; j++) {
		const sf_dataset_column *c = &d->columns[j];
		double *effect, share;
		size_t n, *count;

		if (c->levels == NULL || c->nlevels < 2 ||
		    (n = mark_varies(d, c, varies)) == 0)
			continue;
		effect = malloc(c->nlevels * sizeof *effect);
		count = malloc(c->nlevels * sizeof *count);
		share = effect != NULL && count != NULL
		            ? split_share(d, c, varies, effect, count)
		            : 0;
		if (share >= SF_DATASET_SPLIT_SHARE &&
		    (!found || share > out->share)) {
			found = 1;
			*out = (sf_dataset_split){j, n, out->repeated, share};
		}
		free(effect);
		free(count);
	}
	free(varies);
	return found;
}

const sf_dataset_input *
sf_dataset_input_find(const sf_dataset *d, const char *name)
{
	for (size_t i = 0; i < d->ninputs; i++)
		if (strcmp(d->inputs[i].name, name) == 0)
			return &d->inputs[i];
	return NULL;
}

/* ---- binding --------------------------------------------------------- */

/* The full-table values of everything a row needs. */
typedef struct table_values {
	double *where, *output, *weight;
	double **inputs;
} table_values;

static void
table_values_free(table_values *v, size_t ninputs)
{
	free(v->where);
	free(v->output);
	free(v->weight);
	if (v->inputs != NULL)
		for (size_t i = 0; i < ninputs; i++)
			free(v->inputs[i]);
	free(v->inputs);
}

/* The columns the model reads that the data lacks, reported at once. */
enum { MISSING_MAX = 8 };

typedef struct missing {
	const sf_model_text *at;      /* the text naming it */
	char name[SF_ERROR_NAME_MAX]; /* the column it names */
	int column;                   /* of the name in the text (1-based) */
	char what[80];                /* "input p", "the output", "where:" */
	char fix[160];                /* "--input p=workers" */
} missing;

/* Whether text at (compiled, not evaluated) names a column t lacks: its
 * name into x->name. */
static int
lacks_column(const sf_table *t, const column_scope *cs, const sf_model_text *at,
             missing *x)
{
	double none = 0;
	sf_error e;

	sf_error_clear(&e);
	if (at->text == NULL ||
	    sf_dataset_named_column(t, at->text) != SF_CSV_NONE ||
	    sf_expr_eval_columns(cs->scope, at->text, cs->columns, 0, &none,
	                         &e) != SF_ENAME ||
	    e.name[0] == '\0')
		return 0;
	x->at = at;
	x->column = e.column > 0 ? e.column : 1;
	snprintf(x->name, sizeof x->name, "%s", e.name);
	return 1;
}

/* x's option that maps it: option (with its NAME= when name is not NULL)
 * and the nearest column of t, else a placeholder. */
static void
missing_fix(const sf_table *t, missing *x, const char *option, const char *name)
{
	size_t near = sf_table_column_nearest(t, x->name);

	snprintf(x->fix, sizeof x->fix, "%s %s%s%s", option,
	         name != NULL ? name : "", name != NULL ? "=" : "",
	         near != SF_CSV_NONE ? sf_table_column_name(t, near)
	                             : "COLUMN");
}

/* The where filter, the output and the inputs that name columns t lacks,
 * into x (at most MISSING_MAX); how many. */
static size_t
find_missing(const sf_model *m, const sf_table *t, const column_scope *cs,
             const sf_model_text *output, missing *x)
{
	size_t n = 0;

	if (lacks_column(t, cs, &m->where, &x[n])) {
		size_t near = sf_table_column_nearest(t, x[n].name);

		/* A misspelt name is fixed in the filter, else dropped. */
		if (near != SF_CSV_NONE)
			snprintf(x[n].what, sizeof x[n].what,
			         "where:, did you mean '%.40s'?",
			         sf_table_column_name(t, near));
		else
			snprintf(x[n].what, sizeof x[n].what, "where:");
		snprintf(x[n++].fix, sizeof x[0].fix, "%s",
		         near != SF_CSV_NONE ? "" : "--where ''");
	}
	if (lacks_column(t, cs, output, &x[n])) {
		snprintf(x[n].what, sizeof x[n].what, "the output");
		missing_fix(t, &x[n++], "--output-column", NULL);
	}
	for (size_t i = 0; i < m->ninputs && n < MISSING_MAX; i++)
		if (lacks_column(t, cs, &m->inputs[i].expr, &x[n])) {
			snprintf(x[n].what, sizeof x[n].what, "input %s",
			         m->inputs[i].name);
			missing_fix(t, &x[n++], "--input", m->inputs[i].name);
		}
	return n;
}

/*
 * When two or more of the texts the data is read with (where:, the output,
 * the inputs) name columns the table lacks, one error for them all, at the
 * first: each column and what reads it, the table's columns and the
 * options that would map them to its nearest columns.  One alone is left
 * to the evaluation's error (no_such_column()).
 */
static int
report_missing(const sf_model *m, const sf_table *t, const column_scope *cs,
               const sf_model_text *output, sf_error *err)
{
	missing x[MISSING_MAX];
	size_t n = find_missing(m, t, cs, output, x), used;
	char columns[256], *msg;

	if (n < 2)
		return SF_OK;
	list_columns(t, columns, sizeof columns);
	sf_error_clear(err);
	err->code = SF_ENAME;
	err->column = x[0].column;
	msg = err->message;
	used = (size_t)snprintf(msg, SF_ERROR_MESSAGE_MAX,
	                        "%.120s lacks %zu "
	                        "columns the model reads:",
	                        sf_table_file(t), n);
	for (size_t k = 0; k < n && used < SF_ERROR_MESSAGE_MAX; k++)
		used += (size_t)snprintf(
		    msg + used, SF_ERROR_MESSAGE_MAX - used, "%s '%s' (%s)",
		    k > 0 ? "," : "", x[k].name, x[k].what);
	for (size_t k = 0, fixes = 0; k < n && used < SF_ERROR_MESSAGE_MAX; k++)
		if (x[k].fix[0] != '\0')
			used += (size_t)snprintf(
			    msg + used, SF_ERROR_MESSAGE_MAX - used, "%s%s",
			    fixes++ > 0 ? " " : "; try ", x[k].fix);
	if (used < SF_ERROR_MESSAGE_MAX)
		snprintf(msg + used, SF_ERROR_MESSAGE_MAX - used,
		         "; its columns are: %s", columns);
	sf_model_locate(m, x[0].at, err);
	return SF_ENAME;
}

static int
evaluate_all(const sf_model *m, const sf_table *t, const column_scope *cs,
             const sf_model_text *output, table_values *v, sf_error *err)
{
	size_t n = sf_table_rows(t);
	int rc;

	v->output = malloc(n * sizeof *v->output);
	v->inputs = calloc(m->ninputs + 1, sizeof *v->inputs);
	if (v->output == NULL || v->inputs == NULL)
		return sf_error_set(err, SF_ENOMEM, "out of memory");
	if (m->where.text != NULL) {
		if ((v->where = malloc(n * sizeof *v->where)) == NULL)
			return sf_error_set(err, SF_ENOMEM, "out of memory");
		if ((rc = evaluate(m, t, cs, &m->where, v->where, err)) !=
		    SF_OK)
			return rc;
	}
	if ((rc = evaluate_or_copy(m, t, cs, output, v->output, err)) != SF_OK)
		return rc;
	if (m->weight.text != NULL) {
		if ((v->weight = malloc(n * sizeof *v->weight)) == NULL)
			return sf_error_set(err, SF_ENOMEM, "out of memory");
		if ((rc = evaluate_or_copy(m, t, cs, &m->weight, v->weight,
		                           err)) != SF_OK)
			return rc;
	}
	for (size_t i = 0; i < m->ninputs; i++) {
		size_t col = text_column(t, m->inputs[i].expr.text);

		if ((v->inputs[i] = malloc(n * sizeof **v->inputs)) == NULL)
			return sf_error_set(err, SF_ENOMEM, "out of memory");
		if (col != SF_CSV_NONE) {
			memcpy(v->inputs[i], sf_table_column_values(t, col),
			       n * sizeof **v->inputs);
			continue;
		}
		rc = evaluate_or_copy(m, t, cs, &m->inputs[i].expr,
		                      v->inputs[i], err);
		if (rc != SF_OK)
			return rc;
	}
	return SF_OK;
}

/* Allocate d's per-row arrays for n rows and its inputs. */
static int
dataset_alloc_rows(sf_dataset *d, const sf_model *m, const sf_table *t,
                   size_t n, int weighted)
{
	d->lines = malloc(n * sizeof *d->lines);
	d->table_row = malloc(n * sizeof *d->table_row);
	d->output = malloc(n * sizeof *d->output);
	d->skipped_row = malloc(n * sizeof *d->skipped_row);
	d->inputs = calloc(m->ninputs + 1, sizeof *d->inputs);
	if (weighted)
		d->weight = malloc(n * sizeof *d->weight);
	if (d->lines == NULL || d->table_row == NULL || d->output == NULL ||
	    d->skipped_row == NULL || d->inputs == NULL ||
	    (weighted && d->weight == NULL))
		return SF_ENOMEM;
	for (size_t i = 0; i < m->ninputs; i++) {
		sf_dataset_input *in = &d->inputs[d->ninputs++];
		size_t col = text_column(t, m->inputs[i].expr.text);

		in->name = strdup(m->inputs[i].name);
		in->values = malloc(n * sizeof *in->values);
		if (in->name == NULL || in->values == NULL)
			return SF_ENOMEM;
		if (col != SF_CSV_NONE) {
			size_t count;
			const char *const *levels =
			    sf_table_column_levels(t, col, &count);

			in->levels = calloc(count + 1, sizeof *in->levels);
			if (in->levels == NULL)
				return SF_ENOMEM;
			for (size_t k = 0; k < count; k++, in->nlevels++)
				if ((in->levels[k] = strdup(levels[k])) == NULL)
					return SF_ENOMEM;
		}
	}
	return SF_OK;
}

/* Keep the table's columns (those with names, not an input's) over the
 * kept rows, for sf_dataset_eval. */
static int
keep_columns(sf_dataset *d, const sf_table *t)
{
	size_t ncols = sf_table_columns(t);

	d->columns = calloc(ncols + 1, sizeof *d->columns);
	if (d->columns == NULL)
		return SF_ENOMEM;
	for (size_t c = 0; c < ncols; c++) {
		const char *name = sf_table_column_name(t, c);
		const double *from = sf_table_column_values(t, c);
		sf_dataset_column *to;

		if (!sf_expr_is_name(name) ||
		    sf_dataset_input_find(d, name) != NULL)
			continue;
		to = &d->columns[d->ncolumns++];
		to->name = strdup(name);
		to->values = malloc((d->rows + 1) * sizeof *to->values);
		if (to->name == NULL || to->values == NULL)
			return SF_ENOMEM;
		for (size_t r = 0; r < d->rows; r++)
			to->values[r] = from[d->table_row[r]];
		if (sf_table_column_kind(t, c) == SF_CSV_TEXT) {
			size_t count;
			const char *const *levels =
			    sf_table_column_levels(t, c, &count);

			to->levels = calloc(count + 1, sizeof *to->levels);
			if (to->levels == NULL)
				return SF_ENOMEM;
			for (size_t k = 0; k < count; k++, to->nlevels++)
				if ((to->levels[k] = strdup(levels[k])) == NULL)
					return SF_ENOMEM;
		}
	}
	return SF_OK;
}

int
sf_dataset_eval(const sf_dataset *d, const char *text, double *out,
                sf_error *err)
{
	sf_expr_scope *s = sf_expr_scope_new();
	size_t n = d->ninputs + d->ncolumns;
	const double **columns = calloc(n + 1, sizeof *columns);
	int rc = SF_OK;

	if (s == NULL || columns == NULL) {
		rc = sf_error_set(err, SF_ENOMEM, "out of memory");
		goto done;
	}
	for (size_t i = 0; i < n && rc == SF_OK; i++) {
		const char *name;
		char *const *levels;
		size_t nlevels;

		if (i < d->ninputs) {
			name = d->inputs[i].name;
			levels = d->inputs[i].levels;
			nlevels = d->inputs[i].nlevels;
			columns[i] = d->inputs[i].values;
		} else {
			const sf_dataset_column *c =
			    &d->columns[i - d->ninputs];
			name = c->name;
			levels = c->levels;
			nlevels = c->nlevels;
			columns[i] = c->values;
		}
		rc = levels != NULL ? sf_expr_scope_add_text_input(
		                          s, name, (const char *const *)levels,
		                          nlevels, err)
		                    : sf_expr_scope_add_input(s, name, err);
	}
	if (rc == SF_OK)
		rc = sf_expr_eval_columns(s, text, columns, d->rows, out, err);
done:
	free(columns);
	sf_expr_scope_free(s);
	return rc;
}

int
sf_dataset_eval_table(const sf_table *t, const char *text, double *out,
                      sf_error *err)
{
	column_scope cs = {0};
	int rc;

	if (copy_named_column(t, text, out))
		return SF_OK;
	if ((rc = column_scope_init(&cs, t, err)) == SF_OK)
		rc = sf_expr_eval_columns(cs.scope, text, cs.columns, cs.nrows,
		                          out, err);
	if (rc == SF_ETYPE && err != NULL)
		explain_text_column(t, text, err);
	column_scope_free(&cs);
	return rc;
}

/* The measured time: data.output, or else the column named 'time' (an
 * error when the table has none). */
static int
output_text(const sf_model *m, const sf_table *t, sf_model_text *output,
            sf_error *err)
{
	*output = m->output;
	if (output->text != NULL)
		return SF_OK;
	if (sf_table_column_find(t, SF_MODEL_DEFAULT_OUTPUT) == SF_CSV_NONE)
		return sf_error_at(err, SF_ENAME, m->path, 0, 0,
		                   "the model has no data.output and %s "
		                   "has no column named 'time': say "
		                   "which column holds the measured time",
		                   sf_table_file(t));
	output->text = (char *)SF_MODEL_DEFAULT_OUTPUT;
	output->line = output->column = 0;
	return SF_OK;
}

/* A text literal of the where filter that no text column holds: a
 * warning at it, and the hint (into literal) for "no rows left". */
static void
warn_unknown_literal(const sf_model *m, const sf_table *t, char *literal,
                     size_t size, sf_warn_fn warn, void *warn_ctx)
{
	int column = 0;
	sf_error w;

	if (m->where.text == NULL ||
	    !unknown_literal(t, m->where.text, literal, size, &column) ||
	    warn == NULL)
		return;
	sf_error_at(&w, SF_OK, NULL, 0, column, "%s", literal);
	sf_model_locate(m, &m->where, &w);
	warn(warn_ctx, &w);
}

/* Why row cannot be fitted, into why (size bytes), or "" when it can:
 * an output that is not finite (or not > 0 when positive), an input or a
 * weight that is not usable. */
static void
skip_reason(const sf_model *m, const table_values *v, const char *output,
            size_t row, int positive, char *why, size_t size)
{
	double y = v->output[row];
	size_t bad_input = SIZE_MAX;
	char losses[128];

	for (size_t i = 0; i < m->ninputs && bad_input == SIZE_MAX; i++)
		if (!isfinite(v->inputs[i][row]))
			bad_input = i;
	why[0] = '\0';
	if (!isfinite(y))
		snprintf(why, size, "the output %s is %g", output, y);
	else if (positive && !(y > 0))
		snprintf(why, size,
		         "the output %s is %g; the loss (%s) needs "
		         "measurements > 0",
		         output, y, sf_loss_list(losses, sizeof losses, 1));
	else if (bad_input != SIZE_MAX)
		snprintf(why, size,
		         "input '%s' is %g (an empty cell, or a "
		         "domain error in its expression)",
		         m->inputs[bad_input].name, v->inputs[bad_input][row]);
	else if (v->weight != NULL &&
	         !(isfinite(v->weight[row]) && v->weight[row] >= 0))
		snprintf(why, size,
		         "its weight (%s) is %g; a weight must be "
		         "finite and >= 0",
		         m->weight.text, v->weight[row]);
}

/*
 * Every row of the table into d: left out by the where filter (*unset
 * counts those it is NaN for), skipped with a reason (the first few
 * reported to warn, all counted in *reported), or kept.
 */
static void
keep_rows(sf_dataset *d, const sf_model *m, const sf_table *t,
          const table_values *v, const char *output, int positive,
          sf_warn_fn warn, void *warn_ctx, size_t *reported, size_t *unset)
{
	for (size_t row = 0; row < d->table_rows; row++) {
		char why[SF_ERROR_MESSAGE_MAX - 32];

		if (v->where != NULL &&
		    (isnan(v->where[row]) || v->where[row] == 0)) {
			/* NaN: a filter column was empty in this row, or a
			 * domain error (log of a negative). */
			*unset += isnan(v->where[row]);
			d->filtered_out++;
			continue;
		}
		skip_reason(m, v, output, row, positive, why, sizeof why);
		if (why[0] != '\0') {
			report_skip(t, row, reported, warn, warn_ctx, why);
			d->skipped_row[d->skipped++] = row;
			continue;
		}
		d->lines[d->rows] = sf_table_row_lines(t)[row];
		d->table_row[d->rows] = row;
		d->output[d->rows] = v->output[row];
		if (v->weight != NULL)
			d->weight[d->rows] = v->weight[row];
		for (size_t i = 0; i < m->ninputs; i++)
			d->inputs[i].values[d->rows] = v->inputs[i][row];
		d->rows++;
	}
}

/* The counts of what keep_rows did not report row by row. */
static void
warn_counts(const sf_table *t, size_t reported, size_t unset, sf_warn_fn warn,
            void *warn_ctx)
{
	sf_error w;

	if (warn != NULL && reported > DATASET_REPORTED_ROWS) {
		sf_error_at(&w, SF_OK, sf_table_file(t), 0, 0,
		            "%zu more rows skipped for the same reasons",
		            reported - DATASET_REPORTED_ROWS);
		warn(warn_ctx, &w);
	}
	if (warn != NULL && unset > 0) {
		sf_error_at(&w, SF_OK, sf_table_file(t), 0, 0,
		            "%zu rows left out because the where filter is "
		            "NaN for them (an empty cell or a domain error)",
		            unset);
		warn(warn_ctx, &w);
	}
}

/* m's fit.prior.hardware, when it names an input of d, names a numeric
 * one (a speed, not a label) with a model error of its own. */
static int
check_hardware(const sf_model *m, const sf_dataset *d, sf_error *err)
{
	const sf_fit_settings *fs = &m->fit;
	const sf_dataset_input *in =
	    sf_dataset_input_find(d, fs->prior_hardware);
	size_t j = in != NULL ? (size_t)(in - d->inputs) : 0;

	if (in == NULL ||
	    (in->levels == NULL && j < SF_SETTINGS_HARDWARE_INPUTS))
		return SF_OK;
	if (in->levels != NULL)
		sf_error_at(err, SF_ETYPE, m->path, fs->prior_hardware_line,
		            fs->prior_hardware_column,
		            "fit.prior.hardware '%s' is a text input (its "
		            "values are labels): a hardware speed is a "
		            "number, such as a GPU's TFLOPS",
		            fs->prior_hardware);
	else
		sf_error_at(err, SF_ETYPE, m->path, fs->prior_hardware_line,
		            fs->prior_hardware_column,
		            "fit.prior.hardware '%s' is past the model's first "
		            "%d inputs, which alone have a model error of "
		            "their own",
		            fs->prior_hardware,
		            (int)SF_SETTINGS_HARDWARE_INPUTS);
	sf_error_quote(err, m->source, m->source_length);
	return SF_ETYPE;
}

int
sf_dataset_bind(const sf_model *m, const sf_table *t, int positive,
                sf_dataset **out, sf_warn_fn warn, void *warn_ctx,
                sf_error *err)
{
	column_scope cs = {0};
	table_values v = {0};
	sf_model_text output;
	size_t n = sf_table_rows(t), reported = 0, unset = 0;
	char literal[SF_ERROR_MESSAGE_MAX / 2] = "";
	sf_dataset *d;
	int rc;

	*out = NULL;
	if ((d = calloc(1, sizeof *d)) == NULL)
		return sf_error_set(err, SF_ENOMEM, "out of memory");
	d->file = strdup(sf_table_file(t));
	if (d->file == NULL) {
		rc = sf_error_set(err, SF_ENOMEM, "out of memory");
		goto done;
	}
	snprintf(d->sha256, sizeof d->sha256, "%s", sf_table_sha256(t));
	d->table_rows = n;
	if ((rc = output_text(m, t, &output, err)) != SF_OK ||
	    (rc = column_scope_init(&cs, t, err)) != SF_OK)
		goto done;
	/* Two or more missing columns are named in one message; they are
	 * looked for only when a name was missing, so that a bind that works
	 * compiles each expression once. */
	if ((rc = evaluate_all(m, t, &cs, &output, &v, err)) != SF_OK) {
		if (rc == SF_ENAME)
			(void)report_missing(m, t, &cs, &output, err);
		goto done;
	}
	warn_unknown_literal(m, t, literal, sizeof literal, warn, warn_ctx);
	if (dataset_alloc_rows(d, m, t, n, v.weight != NULL) != SF_OK) {
		rc = sf_error_set(err, SF_ENOMEM, "out of memory");
		goto done;
	}
	keep_rows(d, m, t, &v, output.text, positive, warn, warn_ctx, &reported,
	          &unset);
	warn_counts(t, reported, unset, warn, warn_ctx);
	if (d->rows == 0) {
		rc = sf_error_at(err, SF_EVALUE, sf_table_file(t), 0, 0,
		                 "no rows left to fit: of %zu rows, the where "
		                 "filter dropped %zu and %zu were unusable%s%s",
		                 n, d->filtered_out, d->skipped,
		                 literal[0] != '\0' ? "; " : "", literal);
		goto done;
	}
	if (group_configurations(d) != SF_OK || keep_columns(d, t) != SF_OK) {
		rc = sf_error_set(err, SF_ENOMEM, "out of memory");
		goto done;
	}
	rc = check_hardware(m, d, err);
done:
	table_values_free(&v, m->ninputs);
	column_scope_free(&cs);
	if (rc != SF_OK) {
		sf_dataset_free(d);
		return rc;
	}
	*out = d;
	return SF_OK;
}

int
sf_dataset_select(const sf_dataset *d, const size_t *rows, size_t n,
                  sf_dataset **out, sf_error *err)
{
	sf_dataset *s = calloc(1, sizeof *s);

	*out = NULL;
	if (n == 0) {
		free(s);
		return sf_error_set(err, SF_EVALUE, "no rows selected");
	}
	if (s == NULL)
		goto oom;
	memcpy(s->sha256, d->sha256, sizeof s->sha256);
	s->table_rows = d->table_rows;
	s->rows = n;
	s->file = strdup(d->file);
	s->lines = malloc(n * sizeof *s->lines);
	s->table_row = malloc(n * sizeof *s->table_row);
	s->output = malloc(n * sizeof *s->output);
	s->inputs = calloc(d->ninputs + 1, sizeof *s->inputs);
	if (d->weight != NULL)
		s->weight = malloc(n * sizeof *s->weight);
	if (s->file == NULL || s->lines == NULL || s->table_row == NULL ||
	    s->output == NULL || s->inputs == NULL ||
	    (d->weight != NULL && s->weight == NULL))
		goto oom;
	s->ninputs = d->ninputs;
	for (size_t i = 0; i < d->ninputs; i++) {
		const sf_dataset_input *from = &d->inputs[i];
		sf_dataset_input *to = &s->inputs[i];

		to->name = strdup(from->name);
		to->values = malloc(n * sizeof *to->values);
		if (to->name == NULL || to->values == NULL)
			goto oom;
		if (from->nlevels > 0) {
			to->levels = calloc(from->nlevels, sizeof *to->levels);
			if (to->levels == NULL)
				goto oom;
			for (size_t k = 0; k < from->nlevels; k++) {
				to->levels[k] = strdup(from->levels[k]);
				to->nlevels += to->levels[k] != NULL;
				if (to->levels[k] == NULL)
					goto oom;
			}
		}
		for (size_t r = 0; r < n; r++)
			to->values[r] = from->values[rows[r]];
	}
	for (size_t r = 0; r < n; r++) {
		s->lines[r] = d->lines[rows[r]];
		s->table_row[r] = d->table_row[rows[r]];
		s->output[r] = d->output[rows[r]];
		if (s->weight != NULL)
			s->weight[r] = d->weight[rows[r]];
	}
	if (group_configurations(s) != SF_OK)
		goto oom;
	*out = s;
	return SF_OK;
oom:
	sf_dataset_free(s);
	return sf_error_set(err, SF_ENOMEM, "out of memory");
}

int
sf_dataset_same_but(const sf_dataset *d, size_t a, size_t b, size_t j)
{
	for (size_t k = 0; k < d->ninputs; k++)
		if (k != j && d->inputs[k].values[a] != d->inputs[k].values[b])
			return 0;
	return 1;
}

int
sf_dataset_by_output(const void *ctx, size_t a, size_t b)
{
	const double *y = ((const sf_dataset *)ctx)->output;

	return (y[a] > y[b]) - (y[a] < y[b]);
}
