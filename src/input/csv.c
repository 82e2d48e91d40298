/*
 * csv.c - loading a CSV file into a typed, immutable sf_table.
 *
 * The records come from input/record.h's reader, over a window of bytes:
 * the whole text for sf_table_parse(), a fixed-size buffer refilled from
 * the file for sf_table_load().  Cells go straight into per-column
 * double arrays: the number, NaN for an empty cell, or for a text cell the
 * provisional id of its string in the column's hash dictionary.  Types are
 * decided when all rows are in (csv.h, "Column types"); a text column that
 * held numbers had their spellings thrown away, so it is reread in a second
 * pass that interns every cell.  Last, each dictionary is sorted and the
 * ids are replaced by sorted codes.
 *
 * Numbers are converted by sf_parse_decimal() (base/number.h), as every
 * number scalefit reads is: correctly rounded and independent of
 * LC_NUMERIC, so the loader never touches the locale.
 */
#define _POSIX_C_SOURCE 200809L

#include "input/csv.h"
#include "base/grow.h"
#include "input/record.h"

#include <errno.h>
#include <fcntl.h>
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/number.h"
#include "base/sha256.h"
#include "base/suggest.h"
#include "base/units.h"

enum {
	/* The largest CSV file read (1 GiB, scalefit(1) LIMITS): a bound on
	 * memory, and /dev/zero or an endless pipe fails instead of
	 * growing until the process is killed. */
	CSV_MAX_BYTES = 1 << 30,
	CSV_FIRST_ROWS = 1024,   /* initial row capacity, doubled as needed, */
	CSV_FIRST_CELLS = 65536, /* but at most this many cells over all
	                            columns (100,000 columns of 8 rows took
	                            445 MB at 1024 rows each) */
	CSV_SNIPPET = 40         /* bytes of a cell quoted in a message */
};

/* One distinct string of a text column: text + offset, length bytes. */
typedef struct csv_entry {
	size_t offset;
	size_t length;
	uint64_t hash;
} csv_entry;

/* A column's distinct strings, ids in order of first appearance. */
typedef struct csv_dict {
	char *text; /* the strings, each followed by a NUL */
	size_t text_used, text_cap;
	csv_entry *entries;
	size_t count, cap;
	size_t *slots; /* open addressing: 0 empty, else id + 1 */
	size_t nslots; /* a power of two, or 0 */
} csv_dict;

typedef struct csv_column {
	char *name;
	int line, column; /* header position */
	sf_csv_kind kind;
	double *values;
	size_t missing;   /* empty cells */
	size_t numbers;   /* finite decimal literals */
	size_t overflows; /* decimal literals beyond DBL_MAX */
	size_t markers;   /* nan, inf, infinity */
	size_t others;    /* any other non-empty cell */
	csv_dict dict;
	const char **levels; /* sorted strings, into dict.text */
	size_t nlevels;
	sf_error *first_bad; /* first non-empty cell not a finite number */
	sf_number_kind first_bad_kind;
	char first_bad_text[CSV_SNIPPET + 8];
	int reread; /* intern every cell in pass 2 */
} csv_column;

struct sf_table {
	char *file;
	char sha256[SF_SHA256_HEX_SIZE];
	size_t ncols;
	size_t nrows;
	size_t cap; /* rows allocated in each array */
	csv_column *cols;
	int *lines;
};

/* A load: the records (input/record.h) and the table they fill. */
typedef struct csv_parser {
	sf_record_reader in;
	sf_csv_options opt;
	sf_table *t;
	int pass;   /* 1: load; 2: reread text columns */
	size_t row; /* the current data row */
} csv_parser;

/* Copy at most CSV_SNIPPET bytes of s into out for a message, with "..."
 * when cut and control bytes shown as '?'. */
static void
csv_snippet(char *out, const char *s, size_t n)
{
	size_t k = n > CSV_SNIPPET ? CSV_SNIPPET : n;

	for (size_t i = 0; i < k; i++)
		out[i] = (unsigned char)s[i] < 0x20 ? '?' : s[i];
	if (k < n)
		memcpy(out + k, "...", 4);
	else
		out[k] = '\0';
}

/* ------------------------------------------------------------------ */
/* Dictionaries                                                        */

static uint64_t
csv_hash(const char *s, size_t n)
{
	uint64_t h = 14695981039346656037ULL; /* FNV-1a, 64 bits */

	for (size_t i = 0; i < n; i++) {
		h ^= (unsigned char)s[i];
		h *= 1099511628211ULL;
	}
	return h;
}

static void
csv_dict_free(csv_dict *d)
{
	free(d->text);
	free(d->entries);
	free(d->slots);
}

static int
csv_dict_rehash(csv_dict *d)
{
	size_t n = d->nslots ? 2 * d->nslots : 16;
	size_t *slots;

	if (n > SIZE_MAX / sizeof *slots)
		return SF_ENOMEM;
	slots = calloc(n, sizeof *slots);
	if (slots == NULL)
		return SF_ENOMEM;
	for (size_t id = 0; id < d->count; id++) {
		size_t i = (size_t)d->entries[id].hash & (n - 1);

		while (slots[i] != 0)
			i = (i + 1) & (n - 1);
		slots[i] = id + 1;
	}
	free(d->slots);
	d->slots = slots;
	d->nslots = n;
	return SF_OK;
}

/* The id of s[0..n) in d, adding it when new. */
static int
csv_dict_intern(csv_dict *d, const char *s, size_t n, size_t *id)
{
	uint64_t h = csv_hash(s, n);
	csv_entry *entries;
	size_t i;

	if (2 * (d->count + 1) > d->nslots && csv_dict_rehash(d) != SF_OK)
		return SF_ENOMEM;
	for (i = (size_t)h & (d->nslots - 1); d->slots[i] != 0;
	     i = (i + 1) & (d->nslots - 1)) {
		const csv_entry *e = &d->entries[d->slots[i] - 1];

		if (e->hash == h && e->length == n &&
		    memcmp(d->text + e->offset, s, n) == 0) {
			*id = d->slots[i] - 1;
			return SF_OK;
		}
	}
	if ((entries = sf_grow(d->entries, &d->cap, d->count, sizeof *entries,
	                       16)) == NULL)
		return SF_ENOMEM;
	d->entries = entries;
	if (n + 1 > d->text_cap - d->text_used) {
		size_t cap = d->text_cap ? d->text_cap : 256;
		char *text;

		while (n + 1 > cap - d->text_used) {
			if (cap > SIZE_MAX / 2)
				return SF_ENOMEM;
			cap *= 2;
		}
		text = realloc(d->text, cap);
		if (text == NULL)
			return SF_ENOMEM;
		d->text = text;
		d->text_cap = cap;
	}
	memcpy(d->text + d->text_used, s, n);
	d->text[d->text_used + n] = '\0';
	d->entries[d->count] = (csv_entry){d->text_used, n, h};
	d->text_used += n + 1;
	d->slots[i] = d->count + 1;
	*id = d->count++;
	return SF_OK;
}

typedef struct csv_level {
	const char *text;
	size_t id;
} csv_level;

static int
csv_level_compare(const void *a, const void *b)
{
	return strcmp(((const csv_level *)a)->text,
	              ((const csv_level *)b)->text);
}

/*
 * Sort the strings of text column c and turn its ids into codes: the
 * index of each row's string in the sorted list.
 */
static int
csv_sort_levels(csv_column *c, size_t nrows)
{
	csv_dict *d = &c->dict;
	csv_level *order;
	size_t *code;

	order = malloc((d->count ? d->count : 1) * sizeof *order);
	code = malloc((d->count ? d->count : 1) * sizeof *code);
	c->levels = malloc((d->count ? d->count : 1) * sizeof *c->levels);
	if (order == NULL || code == NULL || c->levels == NULL) {
		free(order);
		free(code);
		return SF_ENOMEM;
	}
	for (size_t id = 0; id < d->count; id++)
		order[id] = (csv_level){d->text + d->entries[id].offset, id};
	qsort(order, d->count, sizeof *order, csv_level_compare);
	for (size_t k = 0; k < d->count; k++) {
		c->levels[k] = order[k].text;
		code[order[k].id] = k;
	}
	for (size_t r = 0; r < nrows; r++)
		c->values[r] = (double)code[(size_t)c->values[r]];
	c->nlevels = d->count;
	free(order);
	free(code);
	/* The strings stay; the lookup structures are no longer needed. */
	free(d->entries);
	free(d->slots);
	d->entries = NULL;
	d->slots = NULL;
	return SF_OK;
}

/* ------------------------------------------------------------------ */
/* The header                                                          */

typedef struct csv_name {
	const char *name;
	size_t index;
} csv_name;

static int
csv_name_compare(const void *a, const void *b)
{
	const csv_name *x = a, *y = b;
	int c = strcmp(x->name, y->name);

	if (c != 0)
		return c;
	return x->index < y->index ? -1 : x->index > y->index;
}

/* Check that no two names are equal: sorted, equal names are adjacent. */
static int
csv_check_names(csv_parser *ps, const sf_record_cell *cells)
{
	sf_table *t = ps->t;
	csv_name *order = malloc(t->ncols * sizeof *order);
	size_t dup = SF_CSV_NONE, first = 0;

	if (order == NULL)
		return sf_record_nomem(&ps->in);
	for (size_t i = 0; i < t->ncols; i++)
		order[i] = (csv_name){t->cols[i].name, i};
	qsort(order, t->ncols, sizeof *order, csv_name_compare);
	/* Report the earliest second occurrence, against its first. */
	for (size_t i = 1; i < t->ncols; i++) {
		if (strcmp(order[i].name, order[i - 1].name) == 0 &&
		    (i < 2 ||
		     strcmp(order[i - 1].name, order[i - 2].name) != 0) &&
		    (dup == SF_CSV_NONE || order[i].index < dup)) {
			dup = order[i].index;
			first = order[i - 1].index;
		}
	}
	free(order);
	if (dup == SF_CSV_NONE)
		return SF_OK;
	return sf_record_error(&ps->in, SF_ENAME, cells[dup].line,
	                       cells[dup].line_start, cells[dup].at,
	                       "duplicate column name '%s' (first at line %d, "
	                       "column %d)",
	                       t->cols[dup].name, t->cols[first].line,
	                       t->cols[first].column);
}

/* Keep s[0..n) trimmed of spaces and tabs as a new string. */
static char *
csv_trimmed_copy(const char *s, size_t n)
{
	char *copy;

	while (n > 0 && (*s == ' ' || *s == '\t')) {
		s++;
		n--;
	}
	while (n > 0 && (s[n - 1] == ' ' || s[n - 1] == '\t'))
		n--;
	copy = malloc(n + 1);
	if (copy != NULL) {
		memcpy(copy, s, n);
		copy[n] = '\0';
	}
	return copy;
}

static int
csv_header(csv_parser *ps, const char *start, const char *end, int quoted)
{
	sf_table *t = ps->t;
	sf_record_cell *cells = NULL;
	size_t cap = 0;
	const char *p = start;
	int status = SF_OK;

	for (;;) {
		csv_column *col;
		sf_record_cell cell;

		if ((status = sf_record_split(&ps->in, &p, end, quoted,
		                              &cell)) != SF_OK)
			goto done;
		if (t->ncols == cap) {
			size_t n = cap ? 2 * cap : 16;
			csv_column *cols;
			sf_record_cell *more;

			if (n > SIZE_MAX / sizeof *cols) {
				status = sf_record_nomem(&ps->in);
				goto done;
			}
			cols = realloc(t->cols, n * sizeof *cols);
			if (cols != NULL)
				t->cols = cols;
			more = realloc(cells, n * sizeof *cells);
			if (more != NULL)
				cells = more;
			if (cols == NULL || more == NULL) {
				status = sf_record_nomem(&ps->in);
				goto done;
			}
			cap = n;
		}
		col = &t->cols[t->ncols];
		memset(col, 0, sizeof *col);
		col->name = csv_trimmed_copy(cell.text, cell.length);
		if (col->name == NULL) {
			status = sf_record_nomem(&ps->in);
			goto done;
		}
		t->ncols++;
		col->line = cell.line;
		col->column = (int)(cell.at - cell.line_start) + 1;
		cells[t->ncols - 1] = cell;
		if (col->name[0] == '\0') {
			status =
			    sf_record_error(&ps->in, SF_ENAME, cell.line,
			                    cell.line_start, cell.at,
			                    "empty column name (field %zu of "
			                    "the header)",
			                    t->ncols);
			goto done;
		}
		if (p == end)
			break;
		p++; /* the delimiter */
	}
	status = csv_check_names(ps, cells);
done:
	free(cells);
	return status;
}

/* ------------------------------------------------------------------ */
/* Rows                                                                */

static int
csv_grow(csv_parser *ps)
{
	sf_table *t = ps->t;
	size_t cap = t->cap ? 2 * t->cap : CSV_FIRST_ROWS;
	int *lines;

	if (t->cap == 0 && t->ncols > CSV_FIRST_CELLS / CSV_FIRST_ROWS)
		cap = CSV_FIRST_CELLS / t->ncols > 8
		          ? CSV_FIRST_CELLS / t->ncols
		          : 8;
	if (cap > SIZE_MAX / sizeof(double))
		return sf_record_nomem(&ps->in);
	/* A failure part way leaves some arrays larger than t->cap: fine. */
	for (size_t c = 0; c < t->ncols; c++) {
		double *v = realloc(t->cols[c].values, cap * sizeof *v);

		if (v == NULL)
			return sf_record_nomem(&ps->in);
		t->cols[c].values = v;
	}
	lines = realloc(t->lines, cap * sizeof *lines);
	if (lines == NULL)
		return sf_record_nomem(&ps->in);
	t->lines = lines;
	t->cap = cap;
	return SF_OK;
}

/* Note where column c first holds a cell that is not a finite number. */
static int
csv_note_bad(csv_parser *ps, csv_column *c, const sf_record_cell *cell,
             sf_number_kind kind)
{
	c->first_bad = malloc(sizeof *c->first_bad);
	if (c->first_bad == NULL)
		return sf_record_nomem(&ps->in);
	csv_snippet(c->first_bad_text, cell->text, cell->length);
	c->first_bad_kind = kind;
	sf_record_error_into(&ps->in, c->first_bad, SF_ETYPE, cell->line,
	                     cell->line_start, cell->at, "'%s' is not a number",
	                     c->first_bad_text);
	return SF_OK;
}

/* Pass 1: store the cell of column c in the current row. */
static int
csv_store(csv_parser *ps, csv_column *c, const sf_record_cell *cell)
{
	double *slot = &c->values[ps->row];
	sf_number_kind kind;
	size_t id;
	double v;

	if (cell->length == 0) {
		*slot = NAN;
		c->missing++;
		return SF_OK;
	}
	kind = sf_parse_decimal(cell->text, cell->length, &v);
	if (kind == SF_NUMBER_FINITE) {
		*slot = v;
		c->numbers++;
		return SF_OK;
	}
	if (kind == SF_NUMBER_OVERFLOW)
		c->overflows++;
	else if (kind == SF_NUMBER_NONFINITE)
		c->markers++;
	else
		c->others++;
	if (c->first_bad == NULL && csv_note_bad(ps, c, cell, kind) != SF_OK)
		return SF_ENOMEM;
	if (csv_dict_intern(&c->dict, cell->text, cell->length, &id) != SF_OK)
		return sf_record_nomem(&ps->in);
	*slot = (double)id;
	return SF_OK;
}

/* Pass 2: a column being reread keeps every cell as text. */
static int
csv_restore(csv_parser *ps, csv_column *c, const sf_record_cell *cell)
{
	size_t id;

	if (csv_dict_intern(&c->dict, cell->text, cell->length, &id) != SF_OK)
		return sf_record_nomem(&ps->in);
	c->values[ps->row] = (double)id;
	return SF_OK;
}

/* Split the data record [start, end) into the current row. */
static int
csv_row(csv_parser *ps, const char *start, const char *end, int quoted)
{
	sf_table *t = ps->t;
	const char *p = start;
	size_t c = 0;
	int status;

	if (ps->pass == 1) {
		if (ps->row == t->cap && (status = csv_grow(ps)) != SF_OK)
			return status;
		t->lines[ps->row] = ps->in.line;
	} else if (ps->row >= t->nrows || t->lines[ps->row] != ps->in.line) {
		return sf_error_at(ps->in.err, SF_EIO, ps->in.file, ps->in.line,
		                   0, "the file changed while it was read");
	}
	for (;;) {
		sf_record_cell cell;
		csv_column *col = &t->cols[c];

		if ((status = sf_record_split(&ps->in, &p, end, quoted,
		                              &cell)) != SF_OK)
			return status;
		if (ps->pass == 1)
			status = csv_store(ps, col, &cell);
		else if (col->reread)
			status = csv_restore(ps, col, &cell);
		if (status != SF_OK)
			return status;
		c++;
		if (p == end)
			break;
		p++; /* the delimiter */
		if (c == t->ncols)
			return sf_record_error_here(
			    &ps->in, SF_ESYNTAX, p,
			    "expected %zu field%s (as in "
			    "the header), got %zu",
			    t->ncols, t->ncols == 1 ? "" : "s",
			    t->ncols + sf_record_count_rest(&ps->in, p, end));
	}
	if (c < t->ncols)
		return sf_record_error_here(
		    &ps->in, SF_ESYNTAX, end,
		    "expected %zu fields (as in the header), "
		    "got %zu",
		    t->ncols, c);
	ps->row++;
	return SF_OK;
}

/* Read every record after the header (pass 1), or reread them (pass 2). */
static int
csv_rows(csv_parser *ps)
{
	const char *start, *end;
	int quoted, nlines, r;

	while ((r = sf_record_next(&ps->in, &start, &end, &quoted, &nlines)) >
	       0) {
		int status;

		ps->in.cur_line = ps->in.line;
		ps->in.cur_line_start = start;
		if ((status = csv_row(ps, start, end, quoted)) != SF_OK)
			return status;
		ps->in.line += nlines;
	}
	return -r;
}

/* The header (pass 1 only) and the rows. */
static int
csv_read(csv_parser *ps)
{
	const char *start, *end;
	int quoted, nlines, r, status;

	if (ps->pass == 1) {
		r = sf_record_next(&ps->in, &start, &end, &quoted, &nlines);
		if (r < 0)
			return -r;
		if (r == 0)
			return sf_error_at(
			    ps->in.err, SF_ESYNTAX, ps->in.file, 0, 0,
			    ps->in.bytes == 0 ? "empty file: expected a "
			                        "header line of column "
			                        "names"
			                      : "no header line: the file "
			                        "holds only comments and "
			                        "blank lines");
		ps->in.cur_line = ps->in.line;
		ps->in.cur_line_start = start;
		if ((status = csv_header(ps, start, end, quoted)) != SF_OK)
			return status;
		ps->in.line += nlines;
	} else {
		/* Skip the header, already checked in pass 1. */
		r = sf_record_next(&ps->in, &start, &end, &quoted, &nlines);
		if (r <= 0)
			return r < 0 ? -r
			             : sf_error_at(ps->in.err, SF_EIO,
			                           ps->in.file, 0, 0,
			                           "the file changed while it "
			                           "was read");
		ps->in.line += nlines;
	}
	if ((status = csv_rows(ps)) != SF_OK)
		return status;
	if (ps->pass == 1) {
		ps->t->nrows = ps->row;
		if (ps->row == 0)
			return sf_record_error(&ps->in, SF_EVALUE,
			                       ps->t->cols[0].line, NULL, NULL,
			                       "no data rows after the header");
	} else if (ps->row != ps->t->nrows) {
		return sf_error_at(ps->in.err, SF_EIO, ps->in.file, 0, 0,
		                   "the file changed while it was read");
	}
	return SF_OK;
}

/* Does a sit before b in the file? */
static int
csv_before(const sf_error *a, const sf_error *b)
{
	return a->line < b->line ||
	       (a->line == b->line && a->column < b->column);
}

/*
 * Give each column its type (csv.h, "Column types").  Returns the first
 * error in file order, or SF_OK; sets reread on text columns that held
 * numbers.
 */
static int
csv_decide(csv_parser *ps, int *reread)
{
	sf_table *t = ps->t;
	const csv_column *worst = NULL;
	int worst_code = SF_OK;
	char why[SF_ERROR_MESSAGE_MAX];

	*reread = 0;
	for (size_t i = 0; i < t->ncols; i++) {
		csv_column *c = &t->cols[i];
		size_t numeric = c->numbers + c->overflows;
		size_t cells = numeric + c->markers + c->others;
		int bad = 0;

		c->kind = SF_CSV_NUMERIC;
		if (c->others == 0 && numeric > 0) {
			bad = c->overflows + c->markers > 0;
		} else if (c->others > 0 &&
		           (double)numeric >=
		               ps->opt.numeric_share * (double)cells) {
			bad = 1;
		} else if (cells > 0) {
			c->kind = SF_CSV_TEXT;
			c->reread = c->numbers > 0;
			*reread |= c->reread;
		}
		if (bad && (worst == NULL ||
		            csv_before(c->first_bad, worst->first_bad))) {
			worst = c;
			worst_code = c->first_bad_kind == SF_NUMBER_NOT
			                 ? SF_ETYPE
			                 : SF_EVALUE;
		}
	}
	if (worst == NULL)
		return SF_OK;
	switch (worst->first_bad_kind) {
	case SF_NUMBER_OVERFLOW:
		snprintf(why, sizeof why,
		         "'%s' is out of the range of a double, in numeric "
		         "column '%s'",
		         worst->first_bad_text, worst->name);
		break;
	case SF_NUMBER_NONFINITE:
		snprintf(why, sizeof why,
		         "non-finite value '%s' in numeric column '%s': "
		         "leave the cell empty for a missing value",
		         worst->first_bad_text, worst->name);
		break;
	default: {
		size_t numeric = worst->numbers + worst->overflows;
		size_t cells = numeric + worst->markers + worst->others;

		snprintf(
		    why, sizeof why,
		    "'%s' is not a number, but column '%s' is numeric "
		    "(%zu of its %zu non-empty cells are numbers): a typo?",
		    worst->first_bad_text, worst->name, numeric, cells);
		break;
	}
	}
	if (ps->in.err != NULL) {
		*ps->in.err = *worst->first_bad;
		sf_error_set(ps->in.err, worst_code, "%s", why);
	}
	return worst_code;
}

/* Turn the provisional ids of text columns into sorted codes. */
static int
csv_finish(csv_parser *ps)
{
	sf_table *t = ps->t;

	for (size_t i = 0; i < t->ncols; i++) {
		csv_column *c = &t->cols[i];

		if (c->kind != SF_CSV_TEXT) {
			/* A numeric column needs no dictionary. */
			csv_dict_free(&c->dict);
			memset(&c->dict, 0, sizeof c->dict);
			free(c->first_bad);
			c->first_bad = NULL;
			continue;
		}
		if (c->missing > 0 && !c->reread) {
			size_t empty;

			if (csv_dict_intern(&c->dict, "", 0, &empty) != SF_OK)
				return sf_record_nomem(&ps->in);
			for (size_t r = 0; r < t->nrows; r++)
				if (isnan(c->values[r]))
					c->values[r] = (double)empty;
		}
		c->missing = 0;
		if (csv_sort_levels(c, t->nrows) != SF_OK)
			return sf_record_nomem(&ps->in);
	}
	return SF_OK;
}

/* Reset the window for another pass over the same input. */
static int
csv_rewind(csv_parser *ps)
{
	ps->pass = 2;
	ps->row = 0;
	ps->in.line = 1;
	ps->in.pos = 0;
	ps->in.at_start = 1;
	if (ps->in.fd < 0)
		return SF_OK;
	if (lseek(ps->in.fd, 0, SEEK_SET) != 0)
		return sf_error_at(ps->in.err, SF_EIO, ps->in.file, 0, 0,
		                   "cannot reread the file");
	ps->in.len = 0;
	ps->in.eof = 0;
	ps->in.bytes = 0;
	ps->in.has_nul = 0;
	sf_sha256_init(&ps->in.sha);
	return SF_OK;
}

/* Everything after the input is set up: both passes and the types. */
static int
csv_run(csv_parser *ps)
{
	unsigned char digest[SF_SHA256_SIZE];
	int status, reread;

	ps->t = calloc(1, sizeof *ps->t);
	if (ps->t == NULL)
		return sf_record_nomem(&ps->in);
	ps->t->file = csv_trimmed_copy("", 0);
	if (ps->in.file != NULL) {
		free(ps->t->file);
		ps->t->file = malloc(strlen(ps->in.file) + 1);
		if (ps->t->file != NULL)
			strcpy(ps->t->file, ps->in.file);
	}
	if (ps->t->file == NULL)
		return sf_record_nomem(&ps->in);
	ps->pass = 1;
	ps->in.line = 1;
	ps->in.at_start = 1;
	if ((status = csv_read(ps)) != SF_OK)
		return status;
	/* The hash covers every byte, even past the last record. */
	while (!ps->in.eof) {
		ps->in.pos = ps->in.len;
		if ((status = sf_record_refill(&ps->in)) != SF_OK)
			return status;
	}
	sf_sha256_final(&ps->in.sha, digest);
	sf_sha256_hex(digest, ps->t->sha256);
	if ((status = csv_decide(ps, &reread)) != SF_OK)
		return status;
	if (reread) {
		if ((status = csv_rewind(ps)) != SF_OK)
			return status;
		if ((status = csv_read(ps)) != SF_OK)
			return status;
		if (ps->in.fd >= 0) {
			char hex[SF_SHA256_HEX_SIZE];

			while (!ps->in.eof) {
				ps->in.pos = ps->in.len;
				if ((status = sf_record_refill(&ps->in)) !=
				    SF_OK)
					return status;
			}
			sf_sha256_final(&ps->in.sha, digest);
			sf_sha256_hex(digest, hex);
			if (strcmp(hex, ps->t->sha256) != 0)
				return sf_error_at(ps->in.err, SF_EIO,
				                   ps->in.file, 0, 0,
				                   "the file changed while "
				                   "it was read");
		}
	}
	return csv_finish(ps);
}

static int
csv_check_options(csv_parser *ps, const sf_csv_options *opt)
{
	if (opt == NULL)
		sf_csv_options_init(&ps->opt);
	else
		ps->opt = *opt;
	ps->in.delimiter = ps->opt.delimiter;
	ps->in.comment = ps->opt.comment;
	if (opt == NULL)
		return SF_OK;
	if (opt->delimiter == '"' || opt->delimiter == '\n' ||
	    opt->delimiter == '\r' || opt->delimiter == '\0' ||
	    opt->delimiter == ' ' || opt->delimiter == opt->comment)
		return sf_error_set(ps->in.err, SF_EVALUE,
		                    "the CSV delimiter cannot be a quote, a "
		                    "line end, NUL, a space or the comment "
		                    "character");
	if (opt->comment == '"' || opt->comment == '\n' ||
	    opt->comment == '\r' || opt->comment == ' ' || opt->comment == '\t')
		return sf_error_set(ps->in.err, SF_EVALUE,
		                    "the CSV comment character cannot be a "
		                    "quote, a line end or a blank");
	if (!(opt->numeric_share > 0.0))
		return sf_error_set(ps->in.err, SF_EVALUE,
		                    "numeric_share must be a number > 0");
	return SF_OK;
}

/* Finish a load: hand over the table or free it. */
static int
csv_done(csv_parser *ps, int status, sf_table **out)
{
	if (status == SF_OK) {
		*out = ps->t;
		sf_error_clear(ps->in.err);
	} else {
		sf_table_free(ps->t);
	}
	sf_record_reader_free(&ps->in);
	return status;
}

void
sf_csv_options_init(sf_csv_options *opt)
{
	opt->delimiter = ',';
	opt->comment = '#';
	opt->numeric_share = 0.9;
}

int
sf_table_parse(const char *text, size_t length, const char *name,
               const sf_csv_options *opt, sf_table **out, sf_error *err)
{
	csv_parser ps = {.in = {.fd = -1, .err = err, .file = name}};
	int status;

	*out = NULL;
	if ((status = csv_check_options(&ps, opt)) != SF_OK)
		return status;
	ps.in.data = text != NULL ? text : "";
	ps.in.len = text != NULL ? length : 0;
	ps.in.eof = 1;
	ps.in.bytes = ps.in.len;
	ps.in.has_nul = memchr(ps.in.data, '\0', ps.in.len) != NULL;
	sf_sha256_init(&ps.in.sha);
	sf_sha256_update(&ps.in.sha, ps.in.data, ps.in.len);
	return csv_done(&ps, csv_run(&ps), out);
}

static int
too_large(const char *path, sf_error *err)
{
	return sf_error_at(err, SF_EVALUE, path, 0, 0,
	                   "larger than the %zu MiB a CSV file may have",
	                   (size_t)CSV_MAX_BYTES >> 20);
}

/* Read all of fd (a pipe, or a file read whole) into *out, *size bytes,
 * up to a NUL byte's chunk: the parser reports a NUL wherever it is. */
static int
csv_read_fd(int fd, const char *path, char **out, size_t *size, sf_error *err)
{
	size_t len = 0, cap = SF_RECORD_CHUNK;
	char *text = malloc(cap), *grown;

	*out = NULL;
	*size = 0;
	while (text != NULL) {
		ssize_t n;

		if (len == cap && cap >= CSV_MAX_BYTES) {
			free(text);
			return too_large(path, err);
		}
		if (len == cap) {
			grown =
			    cap <= SIZE_MAX / 2 ? realloc(text, 2 * cap) : NULL;
			if (grown == NULL)
				break;
			text = grown;
			cap *= 2;
		}
		n = read(fd, text + len, cap - len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			int rc = sf_record_errno(err, path, "cannot read");

			free(text);
			return rc;
		}
		if (n > 0 && memchr(text + len, '\0', (size_t)n) != NULL) {
			len += (size_t)n;
			n = 0;
		}
		if (n == 0) {
			*out = text;
			*size = len;
			return SF_OK;
		}
		len += (size_t)n;
	}
	free(text);
	return sf_error_at(err, SF_ENOMEM, path, 0, 0, "out of memory");
}

/* Open the file at path and check it is one a table may be read from:
 * its descriptor in *fd, its status in *st. */
static int
csv_open(const char *path, int *fd, struct stat *st, sf_error *err)
{
	*fd = open(path, O_RDONLY | O_CLOEXEC);
	if (*fd < 0 || fstat(*fd, st) != 0) {
		int rc = sf_record_errno(err, path, "cannot open");

		if (*fd >= 0)
			close(*fd);
		*fd = -1;
		return rc;
	}
	if (S_ISDIR(st->st_mode)) {
		close(*fd);
		*fd = -1;
		return sf_error_at(err, SF_EIO, path, 0, 0,
		                   "cannot read: a directory, not a file");
	}
	if (S_ISREG(st->st_mode) && (uintmax_t)st->st_size > CSV_MAX_BYTES) {
		close(*fd);
		*fd = -1;
		return too_large(path, err);
	}
	return SF_OK;
}

/* Read the CSV file at ctx (its path) whole: an sf_read_fn. */
static int
csv_read_file(void *ctx, char **out, size_t *size, sf_error *err)
{
	const char *path = ctx;
	struct stat st;
	int fd, status;

	*out = NULL;
	*size = 0;
	if ((status = csv_open(path, &fd, &st, err)) != SF_OK)
		return status;
	status = csv_read_fd(fd, path, out, size, err);
	close(fd);
	return status;
}

/* The file read whole by rank 0 of an MPI job, parsed by every rank. */
static int
csv_load_shared(const char *path, const sf_csv_options *opt, sf_table **out,
                sf_error *err)
{
	char *text;
	size_t len;
	int status;

	if ((status = sf_units_read(csv_read_file, (void *)path, &text, &len,
	                            err)) != SF_OK)
		return status;
	status = sf_table_parse(text, len, path, opt, out, err);
	free(text);
	return status;
}

int
sf_table_load(const char *path, const sf_csv_options *opt, sf_table **out,
              sf_error *err)
{
	csv_parser ps = {.in = {.fd = -1, .err = err, .file = path}};
	struct stat st;
	int status;

	*out = NULL;
	if ((status = csv_check_options(&ps, opt)) != SF_OK)
		return status;
	/* Under MPI rank 0 reads, every rank parses the same bytes. */
	if (sf_units_sharing())
		return csv_load_shared(path, opt, out, err);
	if ((status = csv_open(path, &ps.in.fd, &st, err)) != SF_OK)
		return status;
	if (!S_ISREG(st.st_mode)) {
		char *text;
		size_t len;

		/* A pipe: read whole, then parsed. */
		status = csv_read_fd(ps.in.fd, path, &text, &len, err);
		close(ps.in.fd);
		if (status != SF_OK)
			return status;
		status = sf_table_parse(text, len, path, opt, out, err);
		free(text);
		return status;
	}
	ps.in.cap = SF_RECORD_CHUNK;
	ps.in.buf = malloc(ps.in.cap);
	if (ps.in.buf == NULL) {
		close(ps.in.fd);
		return sf_record_nomem(&ps.in);
	}
	ps.in.data = ps.in.buf;
	sf_sha256_init(&ps.in.sha);
	status = csv_run(&ps);
	close(ps.in.fd);
	return csv_done(&ps, status, out);
}

void
sf_table_free(sf_table *t)
{
	if (t == NULL)
		return;
	for (size_t i = 0; i < t->ncols; i++) {
		csv_column *c = &t->cols[i];

		free(c->name);
		free(c->values);
		csv_dict_free(&c->dict);
		free(c->levels);
		free(c->first_bad);
	}
	free(t->cols);
	free(t->lines);
	free(t->file);
	free(t);
}

/* ------------------------------------------------------------------ */
/* Accessors                                                           */

const char *
sf_table_file(const sf_table *t)
{
	return t->file;
}

const char *
sf_table_sha256(const sf_table *t)
{
	return t->sha256;
}

size_t
sf_table_rows(const sf_table *t)
{
	return t->nrows;
}

size_t
sf_table_columns(const sf_table *t)
{
	return t->ncols;
}

const int *
sf_table_row_lines(const sf_table *t)
{
	return t->lines;
}

const char *
sf_table_column_name(const sf_table *t, size_t col)
{
	return t->cols[col].name;
}

void
sf_table_column_position(const sf_table *t, size_t col, int *line, int *column)
{
	*line = t->cols[col].line;
	*column = t->cols[col].column;
}

size_t
sf_table_column_find(const sf_table *t, const char *name)
{
	for (size_t i = 0; i < t->ncols; i++)
		if (strcmp(t->cols[i].name, name) == 0)
			return i;
	return SF_CSV_NONE;
}

size_t
sf_table_column_nearest(const sf_table *t, const char *name)
{
	const char **names = malloc(t->ncols * sizeof *names);
	const char *near;
	size_t best = SF_CSV_NONE;

	/* Out of memory: no hint, rather than an error in an error path. */
	if (names == NULL)
		return SF_CSV_NONE;
	for (size_t i = 0; i < t->ncols; i++)
		names[i] = t->cols[i].name;
	near = sf_suggest_nearest(name, names, t->ncols);
	for (size_t i = 0; i < t->ncols && best == SF_CSV_NONE; i++)
		if (names[i] == near)
			best = i;
	free(names);
	return best;
}

sf_csv_kind
sf_table_column_kind(const sf_table *t, size_t col)
{
	return t->cols[col].kind;
}

const double *
sf_table_column_values(const sf_table *t, size_t col)
{
	return t->cols[col].values;
}

size_t
sf_table_column_missing(const sf_table *t, size_t col)
{
	return t->cols[col].missing;
}

const char *const *
sf_table_column_levels(const sf_table *t, size_t col, size_t *count)
{
	const csv_column *c = &t->cols[col];

	*count = c->nlevels;
	return c->kind == SF_CSV_TEXT ? c->levels : NULL;
}

size_t
sf_table_column_code(const sf_table *t, size_t col, const char *text)
{
	const csv_column *c = &t->cols[col];
	size_t lo = 0, hi = c->nlevels;

	if (c->kind != SF_CSV_TEXT)
		return SF_CSV_NONE;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int cmp = strcmp(c->levels[mid], text);

		if (cmp == 0)
			return mid;
		if (cmp < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return SF_CSV_NONE;
}

const sf_error *
sf_table_column_first_text(const sf_table *t, size_t col)
{
	const csv_column *c = &t->cols[col];

	return c->kind == SF_CSV_TEXT ? c->first_bad : NULL;
}
