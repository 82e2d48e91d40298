/*
 * groups.c - rows split into groups by the values of some columns.
 */
#include "input/groups.h"
#include "base/number.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void
sf_groups_free(sf_groups *g)
{
	if (g == NULL)
		return;
	for (size_t i = 0; i < g->count; i++) {
		sf_group *gr = &g->groups[i];
		free(gr->label);
		if (gr->key != NULL)
			for (size_t c = 0; c < g->ncolumns; c++)
				free(gr->key[c].text);
		free(gr->key);
		free(gr->rows);
	}
	free(g->groups);
	free(g->by_label);
	for (size_t c = 0; c < g->ncolumns; c++)
		free(g->columns[c]);
	free(g->columns);
	free(g);
}

/* An error about the name at byte offset off of by: at its position in
 * the model file when by came from there. */
static int
name_error(sf_error *err, int code, const char *file, const sf_model_text *at,
           size_t off, const char *message)
{
	if (at == NULL)
		return sf_error_at(err, code, NULL, 0, 0, "--by: %s", message);
	return sf_error_at(err, code, file, at->line, at->column + (int)off,
	                   "data.by: %s", message);
}

/* The by columns: names split at commas, found in the table. */
static int
find_columns(const sf_table *t, const char *by, const char *file,
             const sf_model_text *at, sf_groups *g, size_t *cols, sf_error *err)
{
	const char *p = by;

	for (;;) {
		const char *end = p + strcspn(p, ",");
		const char *a = p, *b = end;
		char name[256], message[SF_ERROR_MESSAGE_MAX - 16];
		size_t col;

		while (a < b && (*a == ' ' || *a == '\t'))
			a++;
		while (b > a && (b[-1] == ' ' || b[-1] == '\t'))
			b--;
		if (a == b) {
			snprintf(message, sizeof message,
			         "an empty column name in '%s'", by);
			return name_error(err, SF_ESYNTAX, file, at,
			                  (size_t)(a - by), message);
		}
		snprintf(name, sizeof name, "%.*s", (int)(b - a), a);
		if (g->ncolumns == SF_GROUPS_MAX_COLUMNS) {
			snprintf(message, sizeof message,
			         "more than %d columns in '%s'",
			         SF_GROUPS_MAX_COLUMNS, by);
			return name_error(err, SF_ESYNTAX, file, at,
			                  (size_t)(a - by), message);
		}
		col = sf_table_column_find(t, name);
		if (col == SF_CSV_NONE) {
			size_t near = sf_table_column_nearest(t, name);
			if (near != SF_CSV_NONE)
				snprintf(message, sizeof message,
				         "the data has no column named '%s'; "
				         "did you mean '%s'?",
				         name, sf_table_column_name(t, near));
			else
				snprintf(message, sizeof message,
				         "the data has no column named '%s'",
				         name);
			return name_error(err, SF_ENAME, file, at,
			                  (size_t)(a - by), message);
		}
		for (size_t c = 0; c < g->ncolumns; c++)
			if (cols[c] == col) {
				snprintf(message, sizeof message,
				         "column '%s' is named twice", name);
				return name_error(err, SF_ESYNTAX, file, at,
				                  (size_t)(a - by), message);
			}
		cols[g->ncolumns] = col;
		if ((g->columns[g->ncolumns] = strdup(name)) == NULL)
			return sf_error_set(err, SF_ENOMEM, "out of memory");
		g->ncolumns++;
		if (*end == '\0')
			return SF_OK;
		p = end + 1;
	}
}

/* A row of the table with its place in the dataset. */
typedef struct group_row {
	size_t table_row;
	size_t kept; /* its dataset row, or SIZE_MAX when skipped */
} group_row;

typedef struct sort_ctx {
	const sf_table *t;
	const size_t *cols;
	size_t ncols;
} sort_ctx;

/* Order of two cells of one column: text codes follow the strings'
 * order; an empty cell (NaN) comes last. */
static int
compare_cell(double a, double b)
{
	if (isnan(a) || isnan(b))
		return isnan(a) - isnan(b);
	return (a > b) - (a < b);
}

static int
compare_key(const sort_ctx *s, size_t ra, size_t rb)
{
	for (size_t c = 0; c < s->ncols; c++) {
		const double *v = sf_table_column_values(s->t, s->cols[c]);
		int k = compare_cell(v[ra], v[rb]);
		if (k != 0)
			return k;
	}
	return 0;
}

/* A stable merge sort by key, then table row (qsort has no context). */
static void
sort_rows(const sort_ctx *s, group_row *r, group_row *tmp, size_t n)
{
	size_t half = n / 2, i = 0, j = half, k = 0;

	if (n < 2)
		return;
	sort_rows(s, r, tmp, half);
	sort_rows(s, r + half, tmp, n - half);
	while (i < half && j < n) {
		int c = compare_key(s, r[i].table_row, r[j].table_row);
		if (c < 0 || (c == 0 && r[i].table_row < r[j].table_row))
			tmp[k++] = r[i++];
		else
			tmp[k++] = r[j++];
	}
	while (i < half)
		tmp[k++] = r[i++];
	while (j < n)
		tmp[k++] = r[j++];
	memcpy(r, tmp, n * sizeof *r);
}

/* Fill group gr from rows r[0..n-1], all with one key. */
static int
make_group(const sf_table *t, const size_t *cols, const sf_groups *g,
           const group_row *r, size_t n, sf_group *gr)
{
	char label[1024], number[40];
	size_t used = 0;

	gr->key = calloc(g->ncolumns, sizeof *gr->key);
	gr->rows = malloc(n * sizeof *gr->rows);
	if (gr->key == NULL || gr->rows == NULL)
		return SF_ENOMEM;
	gr->first_line = sf_table_row_lines(t)[r[0].table_row];
	for (size_t i = 0; i < n; i++) {
		if (r[i].kept == SIZE_MAX)
			gr->skipped++;
		else
			gr->rows[gr->nrows++] = r[i].kept;
		if (sf_table_row_lines(t)[r[i].table_row] < gr->first_line)
			gr->first_line = sf_table_row_lines(t)[r[i].table_row];
	}
	label[0] = '\0';
	for (size_t c = 0; c < g->ncolumns; c++) {
		double v = sf_table_column_values(t, cols[c])[r[0].table_row];
		sf_group_value *kv = &gr->key[c];
		const char *text;

		if (sf_table_column_kind(t, cols[c]) == SF_CSV_TEXT) {
			size_t count;
			const char *const *levels =
			    sf_table_column_levels(t, cols[c], &count);
			kv->is_text = 1;
			text = isnan(v) || v < 0 || (size_t)v >= count
			           ? ""
			           : levels[(size_t)v];
			if ((kv->text = strdup(text)) == NULL)
				return SF_ENOMEM;
		} else {
			kv->number = v;
			text = isnan(v)
			           ? ""
			           : sf_format_double(number, sizeof number, v);
		}
		if (used < sizeof label)
			used += (size_t)snprintf(
			    label + used, sizeof label - used, "%s%s=%s",
			    c > 0 ? "," : "", g->columns[c], text);
	}
	return (gr->label = strdup(label)) == NULL ? SF_ENOMEM : SF_OK;
}

/* A label and its group, for sorting by label. */
typedef struct label_index {
	const char *label;
	size_t index;
} label_index;

static int
compare_labels(const void *a, const void *b)
{
	return strcmp(((const label_index *)a)->label,
	              ((const label_index *)b)->label);
}

/* g->by_label: the groups in strcmp order of their labels. */
static int
index_labels(sf_groups *g)
{
	label_index *v = malloc((g->count + 1) * sizeof *v);

	if (v == NULL || (g->by_label = malloc((g->count + 1) *
	                                       sizeof *g->by_label)) == NULL) {
		free(v);
		return SF_ENOMEM;
	}
	for (size_t i = 0; i < g->count; i++)
		v[i] = (label_index){g->groups[i].label, i};
	qsort(v, g->count, sizeof *v, compare_labels);
	for (size_t i = 0; i < g->count; i++)
		g->by_label[i] = v[i].index;
	free(v);
	return SF_OK;
}

size_t
sf_groups_find(const sf_groups *g, const char *label)
{
	size_t lo = 0, hi = g->count;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int c = strcmp(g->groups[g->by_label[mid]].label, label);
		if (c == 0)
			return g->by_label[mid];
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return SIZE_MAX;
}

int
sf_groups_split(const sf_table *t, const sf_dataset *d, const char *by,
                const char *file, const sf_model_text *at, sf_groups **out,
                sf_error *err)
{
	size_t cols[SF_GROUPS_MAX_COLUMNS];
	size_t n = d->rows + d->skipped, count = 0;
	group_row *rows = NULL, *tmp = NULL;
	sf_groups *g = calloc(1, sizeof *g);
	sort_ctx s;
	int rc;

	*out = NULL;
	if (g == NULL || (g->columns = calloc(SF_GROUPS_MAX_COLUMNS,
	                                      sizeof *g->columns)) == NULL)
		goto oom;
	if ((rc = find_columns(t, by, file, at, g, cols, err)) != SF_OK)
		goto fail;
	rows = malloc((n + 1) * sizeof *rows);
	tmp = malloc((n + 1) * sizeof *tmp);
	if (rows == NULL || tmp == NULL)
		goto oom;
	for (size_t i = 0; i < d->rows; i++)
		rows[i] = (group_row){d->table_row[i], i};
	for (size_t i = 0; i < d->skipped; i++)
		rows[d->rows + i] = (group_row){d->skipped_row[i], SIZE_MAX};
	s = (sort_ctx){t, cols, g->ncolumns};
	sort_rows(&s, rows, tmp, n);
	for (size_t i = 0; i < n; i++)
		count += i == 0 || compare_key(&s, rows[i - 1].table_row,
		                               rows[i].table_row) != 0;
	if ((g->groups = calloc(count + 1, sizeof *g->groups)) == NULL)
		goto oom;
	for (size_t i = 0, start = 0; i < n; i++) {
		if (i + 1 < n && compare_key(&s, rows[i].table_row,
		                             rows[i + 1].table_row) == 0)
			continue;
		if (make_group(t, cols, g, rows + start, i + 1 - start,
		               &g->groups[g->count++]) != SF_OK)
			goto oom;
		start = i + 1;
	}
	if (index_labels(g) != SF_OK)
		goto oom;
	free(rows);
	free(tmp);
	*out = g;
	return SF_OK;
oom:
	rc = sf_error_set(err, SF_ENOMEM, "out of memory");
fail:
	free(rows);
	free(tmp);
	sf_groups_free(g);
	return rc;
}
