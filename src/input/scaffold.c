/*
 * scaffold.c - a starting model from a table's column names.
 */
#include "input/scaffold.h"
#include "expr/expr.h"

#include <ctype.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Text columns listed as where: choices, and values shown of each. */
enum { SCAFFOLD_TEXT_COLUMNS = 4, SCAFFOLD_VALUES_SHOWN = 6 };

/* 1 when word appears in the lower-cased name lower. */
static int
has(const char *lower, const char *word)
{
	return strstr(lower, word) != NULL;
}

sf_scaffold_role
sf_scaffold_role_of(const char *name)
{
	static const char *const workers[] = {
	    "worker", "gpus",  "gpu_count", "num_gpu", "nodes",
	    "ranks",  "procs", "processes", "devices", "world_size"};
	static const char *const counts[] = {"samples", "images", "tokens",
	                                     "examples"};
	char lower[128];
	size_t n = strlen(name);

	if (n >= sizeof lower)
		n = sizeof lower - 1;
	for (size_t i = 0; i < n; i++)
		lower[i] = (char)tolower((unsigned char)name[i]);
	lower[n] = '\0';
	/* a rate is none of them: images_per_sec, throughput */
	if (has(lower, "per_s") || has(lower, "per_min") || has(lower, "/s") ||
	    has(lower, "throughput") || has(lower, "rate") ||
	    has(lower, "speed"))
		return SF_ROLE_NONE;
	if (has(lower, "batch"))
		return has(lower, "global") || has(lower, "total")
		           ? SF_ROLE_GLOBAL_BATCH
		           : SF_ROLE_BATCH;
	if (has(lower, "time") || has(lower, "second") ||
	    has(lower, "duration") ||
	    (n > 2 && strcmp(lower + n - 2, "_s") == 0))
		return SF_ROLE_TIME;
	for (size_t i = 0; i < sizeof workers / sizeof workers[0]; i++)
		if (has(lower, workers[i]))
			return SF_ROLE_WORKERS;
	for (size_t i = 0; i < sizeof counts / sizeof counts[0]; i++)
		if (has(lower, counts[i]))
			return SF_ROLE_COUNT;
	if (has(lower, "iteration") || has(lower, "steps"))
		return SF_ROLE_STEPS;
	return SF_ROLE_NONE;
}

/* The table's column names, comma-separated, into buf. */
static void
columns_list(const sf_table *t, char *buf, size_t size)
{
	size_t used = 0;

	buf[0] = '\0';
	for (size_t c = 0; c < sf_table_columns(t) && used < size; c++) {
		int w = snprintf(buf + used, size - used, "%s%s",
		                 c > 0 ? ", " : "", sf_table_column_name(t, c));
		used += w > 0 ? (size_t)w : 0;
	}
}

/* 1 for a column of nodes (several workers each), else 0. */
static int
worker_rank(const char *name)
{
	char lower[128];
	size_t n = strlen(name);

	if (n >= sizeof lower)
		n = sizeof lower - 1;
	for (size_t i = 0; i < n; i++)
		lower[i] = (char)tolower((unsigned char)name[i]);
	lower[n] = '\0';
	return has(lower, "node") && !has(lower, "worker") &&
	       !has(lower, "gpu");
}

int
sf_scaffold_guess(const sf_table *t, sf_scaffold *g, sf_error *err)
{
	char columns[256];

	g->p = g->b = g->n = g->output = g->steps = SF_CSV_NONE;
	g->b_global = g->per_step = 0;
	for (size_t c = 0; c < sf_table_columns(t); c++) {
		sf_scaffold_role role =
		    sf_scaffold_role_of(sf_table_column_name(t, c));
		size_t *slot = NULL;

		if (sf_table_column_kind(t, c) == SF_CSV_TEXT)
			continue;
		switch (role) {
		case SF_ROLE_WORKERS:
			/* workers over nodes: a node holds several */
			if (g->p == SF_CSV_NONE ||
			    (worker_rank(sf_table_column_name(t, c)) <
			     worker_rank(sf_table_column_name(t, g->p))))
				g->p = c;
			break;
		case SF_ROLE_BATCH:
		case SF_ROLE_GLOBAL_BATCH:
			/* a per-worker batch is preferred to a global one */
			if (g->b != SF_CSV_NONE &&
			    !(g->b_global && role == SF_ROLE_BATCH))
				break;
			g->b = c;
			g->b_global = role == SF_ROLE_GLOBAL_BATCH;
			break;
		case SF_ROLE_COUNT:
			slot = &g->n;
			break;
		case SF_ROLE_STEPS:
			if (sf_expr_is_name(sf_table_column_name(t, c)))
				slot = &g->steps;
			break;
		case SF_ROLE_TIME:
			slot = &g->output;
			break;
		default:
			break;
		}
		if (slot != NULL && *slot == SF_CSV_NONE)
			*slot = c;
	}
	columns_list(t, columns, sizeof columns);
	if (g->output != SF_CSV_NONE) {
		char lower[128];
		const char *name = sf_table_column_name(t, g->output);
		size_t n = strlen(name) < 127 ? strlen(name) : 127;

		for (size_t i = 0; i < n; i++)
			lower[i] = (char)tolower((unsigned char)name[i]);
		lower[n] = '\0';
		/* the time of one step: no count of the data processed */
		if (has(lower, "step") || has(lower, "iter")) {
			g->per_step = 1;
			g->n = g->steps = SF_CSV_NONE;
		}
	}
	if (g->output == SF_CSV_NONE)
		return sf_error_at(err, SF_ENAME, sf_table_file(t), 0, 0,
		                   "no numeric column looks like the measured "
		                   "time (a name with time, seconds or "
		                   "duration, or ending in _s); its columns "
		                   "are: %s",
		                   columns);
	if (g->p == SF_CSV_NONE)
		return sf_error_at(err, SF_ENAME, sf_table_file(t), 0, 0,
		                   "no numeric column looks like the number "
		                   "of workers (a name with workers, gpus, "
		                   "nodes, ranks, procs, devices or "
		                   "world_size); its columns are: %s",
		                   columns);
	return SF_OK;
}

/* ---- the text -------------------------------------------------------- */

typedef struct buffer {
	char *text;
	size_t length, size;
	int failed;
} buffer;

static void
put(buffer *b, const char *fmt, ...)
{
	va_list ap;
	int w;

	if (b->failed)
		return;
	for (;;) {
		va_start(ap, fmt);
		w = vsnprintf(b->text + b->length, b->size - b->length, fmt,
		              ap);
		va_end(ap);
		if (w < 0) {
			b->failed = 1;
			return;
		}
		if ((size_t)w < b->size - b->length) {
			b->length += (size_t)w;
			return;
		}
		{
			size_t size = 2 * b->size + (size_t)w;
			char *more = realloc(b->text, size);

			if (more == NULL) {
				b->failed = 1;
				return;
			}
			b->text = more;
			b->size = size;
		}
	}
}

/* Text as a YAML scalar in double quotes. */
static void
put_quoted(buffer *b, const char *name)
{
	put(b, "\"");
	for (const char *s = name; *s != '\0'; s++)
		put(b, *s == '"' || *s == '\\' ? "\\%c" : "%c", *s);
	put(b, "\"");
}

/* A column's name as a YAML scalar: plain when it is a name, else in
 * double quotes. */
static void
put_column(buffer *b, const char *name)
{
	if (sf_expr_is_name(name))
		put(b, "%s", name);
	else
		put_quoted(b, name);
}

/* The smallest of 1, 2 and 5 times a power of ten that is >= x > 0. */
static double
nice_above(double x)
{
	double decade = pow(10, floor(log10(x)));

	for (int k = 0; k < 4; k++) {
		static const double steps[] = {1, 2, 5, 10};
		/* the product can round below x: step up when it does */
		if (steps[k] * decade >= x)
			return steps[k] * decade;
	}
	return 10 * decade;
}

/* The fitted constants, by what each multiplies per row. */
enum { K_T0, K_A, K_C, K_L, K_W, K_R, K_COUNT };

int
sf_scaffold_write(const sf_table *t, const sf_scaffold *g, const char *name,
                  const char *data_file, char **text, sf_error *err)
{
	const double *y = sf_table_column_values(t, g->output);
	const double *p = sf_table_column_values(t, g->p);
	const double *bc =
	    g->b != SF_CSV_NONE ? sf_table_column_values(t, g->b) : NULL;
	const double *nc =
	    g->n != SF_CSV_NONE ? sf_table_column_values(t, g->n) : NULL;
	double *from_steps = NULL; /* n = steps x the global batch */
	int n_from_steps = nc == NULL && bc != NULL &&
	                   g->steps != SF_CSV_NONE &&
	                   sf_expr_is_name(sf_table_column_name(t, g->b)) &&
	                   sf_expr_is_name(sf_table_column_name(t, g->p));
	double bound[K_COUNT] = {0};
	int used[K_COUNT] = {1, 0, 1, 0, 0, 0};
	size_t rows = 0, shown = 0;
	buffer b = {malloc(4096), 0, 4096, 0};
	const char *steps;

	*text = NULL;
	if (n_from_steps) {
		const double *sc = sf_table_column_values(t, g->steps);

		from_steps =
		    malloc((sf_table_rows(t) + 1) * sizeof *from_steps);
		if (from_steps == NULL) {
			free(b.text);
			return sf_error_set(err, SF_ENOMEM, "out of memory");
		}
		for (size_t r = 0; r < sf_table_rows(t); r++)
			from_steps[r] =
			    sc[r] * bc[r] * (g->b_global ? 1 : p[r]);
		nc = from_steps;
	}
	used[K_A] = bc != NULL;
	used[K_T0] = !g->per_step; /* a step has no start-up of its own */
	used[K_R] = nc != NULL;
	for (size_t r = 0; r < sf_table_rows(t); r++) {
		double pr = p[r], br = bc != NULL ? bc[r] : 1, mult[K_COUNT];
		double st;

		if (g->b_global)
			br /= pr;
		if (!(isfinite(y[r]) && y[r] > 0 && isfinite(pr) && pr >= 1 &&
		      isfinite(br) && br > 0 &&
		      (nc == NULL || (isfinite(nc[r]) && nc[r] > 0))))
			continue;
		rows++;
		st = g->per_step ? 1 : (nc != NULL ? nc[r] : 1) / (pr * br);
		mult[K_T0] = 1;
		mult[K_A] = st;
		mult[K_C] = st * br;
		mult[K_L] = st * log2(pr);
		mult[K_W] = st * (pr - 1) / pr;
		mult[K_R] = nc != NULL ? nc[r] : 0;
		for (int k = 0; k < K_COUNT; k++)
			if (mult[k] > 0 && y[r] / mult[k] > bound[k])
				bound[k] = y[r] / mult[k];
	}
	free(from_steps); /* nc is only tested against NULL from here on */
	if (b.text == NULL)
		return sf_error_set(err, SF_ENOMEM, "out of memory");
	if (rows == 0) {
		free(b.text);
		return sf_error_at(err, SF_EVALUE, sf_table_file(t), 0, 0,
		                   "no row has a time > 0, workers >= 1%s%s: "
		                   "nothing to start a model from",
		                   bc != NULL ? ", a batch > 0" : "",
		                   nc != NULL ? ", a count > 0" : "");
	}
	/* the communication terms need more than one worker in some row */
	used[K_L] = used[K_W] = bound[K_L] > 0;
	steps = g->per_step  ? "1"
	        : nc != NULL ? (bc != NULL ? "n / (p * b)" : "n / p")
	                     : (bc != NULL ? "1 / (p * b)" : "1 / p");

	put(&b,
	    "# A model to start from, written by `scalefit init` from the "
	    "columns of\n"
	    "# %s: the generic data-parallel training time of the formula\n"
	    "# library (@ddp-generic, after Kavarakuntla et al., IEEE Access "
	    "2024), cut\n"
	    "# to the inputs found.  Check the guesses, then run\n"
	    "#   scalefit check MODEL.yaml && scalefit fit MODEL.yaml\n"
	    "# The bounds come from the data: no term can take longer than "
	    "a run's\n"
	    "# measured time, so each constant is at most the largest time "
	    "over what\n"
	    "# it multiplies, rounded up.\n",
	    sf_table_file(t));
	put(&b, "name: %s\n", name);
	put(&b, "description: ");
	{
		char description[512];

		snprintf(description, sizeof description,
		         "Generic data-parallel training time on %.400s",
		         data_file);
		put_quoted(&b, description);
	}
	put(&b, "\n");
	put(&b, "data:\n  file: ");
	put_column(&b, data_file);
	put(&b, "   # relative to this file's directory\n  output: ");
	put_column(&b, sf_table_column_name(t, g->output));
	put(&b, "\n");
	for (size_t c = 0;
	     c < sf_table_columns(t) && shown < SCAFFOLD_TEXT_COLUMNS; c++) {
		size_t count;
		const char *const *levels;
		const char *col = sf_table_column_name(t, c);

		if (sf_table_column_kind(t, c) != SF_CSV_TEXT ||
		    !sf_expr_is_name(col))
			continue;
		levels = sf_table_column_levels(t, c, &count);
		if (count < 2)
			continue;
		if (shown++ == 0)
			put(&b,
			    "  # Rows of different jobs or machines follow "
			    "different constants:\n"
			    "  # fit one at a time with a filter such as\n");
		put(&b, "  # where: \"%s == '%s'\"   # %zu values:", col,
		    levels[0], count);
		for (size_t l = 0; l < count && l < SCAFFOLD_VALUES_SHOWN; l++)
			put(&b, " %s%s", levels[l], l + 1 < count ? "," : "");
		put(&b, "%s\n", count > SCAFFOLD_VALUES_SHOWN ? " ..." : "");
	}
	put(&b, "inputs:\n  p: ");
	put_column(&b, sf_table_column_name(t, g->p));
	put(&b, "   # data-parallel workers (GPUs or processes)\n");
	if (bc != NULL && g->b_global) {
		const char *bn = sf_table_column_name(t, g->b);
		const char *pn = sf_table_column_name(t, g->p);

		if (sf_expr_is_name(bn) && sf_expr_is_name(pn))
			put(&b,
			    "  b: %s / %s   # samples per worker per step\n",
			    bn, pn);
	} else if (bc != NULL) {
		put(&b, "  b: ");
		put_column(&b, sf_table_column_name(t, g->b));
		put(&b, "   # samples per worker per step\n");
	}
	if (n_from_steps)
		put(&b, "  n: %s * %s%s%s   # samples processed by the run\n",
		    sf_table_column_name(t, g->steps),
		    sf_table_column_name(t, g->b), g->b_global ? "" : " * ",
		    g->b_global ? "" : sf_table_column_name(t, g->p));
	else if (nc != NULL) {
		put(&b, "  n: ");
		put_column(&b, sf_table_column_name(t, g->n));
		put(&b, "   # samples processed by the run\n");
	}
	put(&b, "parameters:\n");
	{
		static const char *const notes[K_COUNT] = {
		    "s, start-up once per run",
		    "s per step",
		    "s per sample on one worker",
		    "s per step per doubling of p",
		    "s per step, the whole gradient once",
		    "s per sample, host side"};

		for (int k = 0; k < K_COUNT; k++)
			if (used[k])
				put(&b, "  %-3s {min: 0, max: %.6g}   # %s\n",
				    k == K_T0  ? "t0:"
				    : k == K_A ? "a:"
				    : k == K_C ? "c:"
				    : k == K_L ? "l:"
				    : k == K_W ? "w:"
				               : "r:",
				    nice_above(bound[k]), notes[k]);
	}
	put(&b, "terms:\n  steps: %s\n", steps);
	if (used[K_T0])
		put(&b, "  overhead: {expr: t0, kind: overhead}\n");
	put(&b, "  compute: {expr: steps * %s, kind: compute}\n",
	    bc != NULL ? "(a + c * b)" : "c");
	if (used[K_L])
		put(&b, "  comm: {expr: steps * (l * log2(p) + w * (p - 1) / "
		        "p), kind: communication}\n");
	if (nc != NULL)
		put(&b, "  io: {expr: r * n, kind: io}\n");
	put(&b, "time: %scompute%s%s\n", used[K_T0] ? "overhead + " : "",
	    used[K_L] ? " + comm" : "", nc != NULL ? " + io" : "");
	if (b.failed || b.text == NULL) {
		free(b.text);
		return sf_error_set(err, SF_ENOMEM, "out of memory");
	}
	*text = b.text;
	return SF_OK;
}
