/*
 * scaffold.c - a starting model from a table's column names.
 */
#include "input/scaffold.h"
#include "base/text.h"
#include "base/yaml_out.h"
#include "expr/expr.h"

#include <ctype.h>
#include <math.h>
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

/* What the model is written from: the columns, the constants it uses
 * and their bounds from the data. */
typedef struct plan {
	const double *p, *bc, *nc; /* workers, batch and count (or NULL) */
	double *from_steps;        /* n = steps x the global batch */
	int n_from_steps;
	int per_step;          /* the time of one step: steps = 1 */
	double bound[K_COUNT]; /* the largest time / multiplier */
	int used[K_COUNT];
	size_t rows; /* usable: time > 0, p >= 1, b > 0, n > 0 */
} plan;

/* The bounds of every constant over the usable rows of t. */
static void
plan_bounds(const sf_table *t, const sf_scaffold *g, plan *pl)
{
	const double *y = sf_table_column_values(t, g->output);

	for (size_t r = 0; r < sf_table_rows(t); r++) {
		double pr = pl->p[r], br = pl->bc != NULL ? pl->bc[r] : 1;
		double mult[K_COUNT], st;

		if (g->b_global)
			br /= pr;
		if (!(isfinite(y[r]) && y[r] > 0 && isfinite(pr) && pr >= 1 &&
		      isfinite(br) && br > 0 &&
		      (pl->nc == NULL ||
		       (isfinite(pl->nc[r]) && pl->nc[r] > 0))))
			continue;
		pl->rows++;
		st = g->per_step ? 1
		                 : (pl->nc != NULL ? pl->nc[r] : 1) / (pr * br);
		mult[K_T0] = 1;
		mult[K_A] = st;
		mult[K_C] = st * br;
		mult[K_L] = st * log2(pr);
		mult[K_W] = st * (pr - 1) / pr;
		mult[K_R] = pl->nc != NULL ? pl->nc[r] : 0;
		for (int k = 0; k < K_COUNT; k++)
			if (mult[k] > 0 && y[r] / mult[k] > pl->bound[k])
				pl->bound[k] = y[r] / mult[k];
	}
}

/* The plan of t's model for guess g.  Returns SF_OK; SF_EVALUE when no
 * row is usable, SF_ENOMEM. */
static int
plan_make(const sf_table *t, const sf_scaffold *g, plan *pl, sf_error *err)
{
	memset(pl, 0, sizeof *pl);
	pl->p = sf_table_column_values(t, g->p);
	pl->bc = g->b != SF_CSV_NONE ? sf_table_column_values(t, g->b) : NULL;
	pl->nc = g->n != SF_CSV_NONE ? sf_table_column_values(t, g->n) : NULL;
	pl->n_from_steps = pl->nc == NULL && pl->bc != NULL &&
	                   g->steps != SF_CSV_NONE &&
	                   sf_expr_is_name(sf_table_column_name(t, g->b)) &&
	                   sf_expr_is_name(sf_table_column_name(t, g->p));
	if (pl->n_from_steps) {
		const double *sc = sf_table_column_values(t, g->steps);

		pl->from_steps =
		    malloc((sf_table_rows(t) + 1) * sizeof *pl->from_steps);
		if (pl->from_steps == NULL)
			return sf_error_set(err, SF_ENOMEM, "out of memory");
		for (size_t r = 0; r < sf_table_rows(t); r++)
			pl->from_steps[r] =
			    sc[r] * pl->bc[r] * (g->b_global ? 1 : pl->p[r]);
		pl->nc = pl->from_steps;
	}
	pl->per_step = g->per_step;
	pl->used[K_T0] = !g->per_step; /* a step has no start-up of its own */
	pl->used[K_A] = pl->bc != NULL;
	pl->used[K_C] = 1;
	pl->used[K_R] = pl->nc != NULL;
	plan_bounds(t, g, pl);
	/* the communication terms need more than one worker in some row */
	pl->used[K_L] = pl->used[K_W] = pl->bound[K_L] > 0;
	if (pl->rows == 0)
		return sf_error_at(err, SF_EVALUE, sf_table_file(t), 0, 0,
		                   "no row has a time > 0, workers >= 1%s%s: "
		                   "nothing to start a model from",
		                   pl->bc != NULL ? ", a batch > 0" : "",
		                   pl->nc != NULL ? ", a count > 0" : "");
	return SF_OK;
}

/* A text column of t that a where: could pick rows by, as a comment: the
 * filter on its first value, and the values. */
static void
write_where_hint(sf_yaml_out *y, const char *col, const char *const *levels,
                 size_t count)
{
	sf_text expr = SF_TEXT_INIT, filter = SF_TEXT_INIT, list = SF_TEXT_INIT;

	/* col == 'value', a quote in the value doubled */
	sf_text_printf(&expr, "%s == '", col);
	for (const char *c = levels[0]; *c != '\0'; c++) {
		if (*c == '\'')
			sf_text_putc(&expr, '\'');
		sf_text_putc(&expr, *c);
	}
	sf_text_putc(&expr, '\'');
	if (!expr.failed)
		sf_yaml_out_quote(&filter, expr.data);
	for (size_t l = 0; l < count && l < SCAFFOLD_VALUES_SHOWN; l++)
		sf_text_printf(&list, " %s%s", levels[l],
		               l + 1 < count ? "," : "");
	if (count > SCAFFOLD_VALUES_SHOWN)
		sf_text_puts(&list, " ...");
	if (expr.failed || filter.failed || list.failed)
		y->text->failed = 1;
	else
		sf_yaml_out_comment(y, "where: %s  # %zu values:%s",
		                    filter.data, count, list.data);
	sf_text_free(&expr);
	sf_text_free(&filter);
	sf_text_free(&list);
}

/* The head comment, name, description and data: of t's model. */
static void
write_data(sf_yaml_out *y, const sf_table *t, const sf_scaffold *g,
           const char *name, const char *data_file)
{
	char description[512];
	size_t shown = 0;

	sf_yaml_out_comment(y, "A model to start from, written by `scalefit "
	                       "init` from the columns of");
	sf_yaml_out_comment(y,
	                    "%s: the generic data-parallel training time of "
	                    "the formula",
	                    sf_table_file(t));
	sf_yaml_out_comment(y, "library (@ddp-generic, after Kavarakuntla et "
	                       "al., IEEE Access 2024), cut");
	sf_yaml_out_comment(y, "to the inputs found.  Check the guesses, then "
	                       "run");
	sf_yaml_out_comment(y, "  scalefit check MODEL.yaml && scalefit fit "
	                       "MODEL.yaml");
	sf_yaml_out_comment(y, "The bounds come from the data: no term can "
	                       "take longer than a run's");
	sf_yaml_out_comment(y, "measured time, so each constant is at most the "
	                       "largest time over what");
	sf_yaml_out_comment(y, "it multiplies, rounded up.");
	sf_yaml_out_pair(y, "name", name, NULL);
	snprintf(description, sizeof description,
	         "Generic data-parallel training time on %.400s", data_file);
	sf_yaml_out_pair(y, "description", description, NULL);
	sf_yaml_out_map(y, "data");
	sf_yaml_out_pair(y, "file", data_file,
	                 "relative to this file's directory");
	sf_yaml_out_pair(y, "output", sf_table_column_name(t, g->output), NULL);
	for (size_t c = 0;
	     c < sf_table_columns(t) && shown < SCAFFOLD_TEXT_COLUMNS; c++) {
		const char *col = sf_table_column_name(t, c);
		const char *const *levels;
		size_t count;

		if (sf_table_column_kind(t, c) != SF_CSV_TEXT ||
		    !sf_expr_is_name(col))
			continue;
		levels = sf_table_column_levels(t, c, &count);
		if (count < 2)
			continue;
		if (shown++ == 0) {
			sf_yaml_out_comment(y, "Rows of different jobs or "
			                       "machines follow different "
			                       "constants:");
			sf_yaml_out_comment(y,
			                    "fit one at a time with a filter "
			                    "such as");
		}
		write_where_hint(y, col, levels, count);
	}
	sf_yaml_out_end(y, NULL);
}

/* inputs: p, b and n from their columns. */
static void
write_inputs(sf_yaml_out *y, const sf_table *t, const sf_scaffold *g,
             const plan *pl)
{
	static const char *const per_step = "samples per worker per step";
	static const char *const samples = "samples processed by the run";
	sf_text expr = SF_TEXT_INIT;

	sf_yaml_out_map(y, "inputs");
	sf_yaml_out_pair(y, "p", sf_table_column_name(t, g->p),
	                 "data-parallel workers (GPUs or processes)");
	if (pl->bc != NULL && g->b_global) {
		const char *bn = sf_table_column_name(t, g->b);
		const char *pn = sf_table_column_name(t, g->p);

		if (sf_expr_is_name(bn) && sf_expr_is_name(pn))
			sf_text_printf(&expr, "%s / %s", bn, pn);
		if (expr.length > 0)
			sf_yaml_out_pair(y, "b", expr.data, per_step);
	} else if (pl->bc != NULL) {
		sf_yaml_out_pair(y, "b", sf_table_column_name(t, g->b),
		                 per_step);
	}
	sf_text_free(&expr);
	if (pl->n_from_steps) {
		sf_text_printf(
		    &expr, "%s * %s%s%s", sf_table_column_name(t, g->steps),
		    sf_table_column_name(t, g->b), g->b_global ? "" : " * ",
		    g->b_global ? "" : sf_table_column_name(t, g->p));
		if (expr.length > 0)
			sf_yaml_out_pair(y, "n", expr.data, samples);
	} else if (pl->nc != NULL) {
		sf_yaml_out_pair(y, "n", sf_table_column_name(t, g->n),
		                 samples);
	}
	if (expr.failed)
		y->text->failed = 1;
	sf_text_free(&expr);
	sf_yaml_out_end(y, NULL);
}

/* A term: {expr: "...", kind: "..."}. */
static void
write_term(sf_yaml_out *y, const char *name, const char *expr, const char *kind)
{
	sf_yaml_out_flow_map(y, name);
	sf_yaml_out_pair(y, "expr", expr, NULL);
	sf_yaml_out_pair(y, "kind", kind, NULL);
	sf_yaml_out_end(y, NULL);
}

/* parameters:, terms: and time: of the formula cut to the plan. */
static void
write_formula(sf_yaml_out *y, const plan *pl)
{
	static const char *const names[K_COUNT] = {"t0", "a", "c",
	                                           "l",  "w", "r"};
	static const char *const notes[K_COUNT] = {
	    "s, start-up once per run",
	    "s per step",
	    "s per sample on one worker",
	    "s per step per doubling of p",
	    "s per step, the whole gradient once",
	    "s per sample, host side"};
	const int *used = pl->used;
	char max[32], time[64];

	sf_yaml_out_map(y, "parameters");
	for (int k = 0; k < K_COUNT; k++) {
		if (!used[k])
			continue;
		snprintf(max, sizeof max, "%.6g", nice_above(pl->bound[k]));
		sf_yaml_out_flow_map(y, names[k]);
		sf_yaml_out_pair(y, "min", "0", NULL);
		sf_yaml_out_pair(y, "max", max, NULL);
		sf_yaml_out_end(y, notes[k]);
	}
	sf_yaml_out_end(y, NULL);
	sf_yaml_out_map(y, "terms");
	sf_yaml_out_pair(y, "steps",
	                 pl->per_step ? "1"
	                 : pl->nc != NULL
	                     ? (pl->bc != NULL ? "n / (p * b)" : "n / p")
	                     : (pl->bc != NULL ? "1 / (p * b)" : "1 / p"),
	                 NULL);
	if (used[K_T0])
		write_term(y, "overhead", "t0", "overhead");
	write_term(y, "compute",
	           pl->bc != NULL ? "steps * (a + c * b)" : "steps * c",
	           "compute");
	if (used[K_L])
		write_term(y, "comm", "steps * (l * log2(p) + w * (p - 1) / p)",
		           "communication");
	if (pl->nc != NULL)
		write_term(y, "io", "r * n", "io");
	sf_yaml_out_end(y, NULL);
	snprintf(time, sizeof time, "%scompute%s%s",
	         used[K_T0] ? "overhead + " : "", used[K_L] ? " + comm" : "",
	         pl->nc != NULL ? " + io" : "");
	sf_yaml_out_pair(y, "time", time, NULL);
}

int
sf_scaffold_write(const sf_table *t, const sf_scaffold *g, const char *name,
                  const char *data_file, char **text, sf_error *err)
{
	sf_text b = SF_TEXT_INIT;
	sf_yaml_out y;
	plan pl;
	int rc;

	*text = NULL;
	if ((rc = plan_make(t, g, &pl, err)) == SF_OK) {
		sf_yaml_out_init(&y, &b);
		write_data(&y, t, g, name, data_file);
		write_inputs(&y, t, g, &pl);
		write_formula(&y, &pl);
		if ((*text = sf_text_take(&b)) == NULL)
			rc = sf_error_set(err, SF_ENOMEM, "out of memory");
	}
	free(pl.from_steps);
	return rc;
}
