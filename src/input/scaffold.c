/*
 * scaffold.c - a starting model from a table's column names.
 */
#include "input/scaffold.h"
#include "base/number.h"
#include "base/text.h"
#include "base/yaml_out.h"
#include "expr/expr.h"
#include "input/problem.h"
#include "input/steps.h"

#include <ctype.h>
#include <float.h>
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

/* The bytes of a column name the guesses match words in, lower-cased
 * (sf_text_lower). */
enum { LOWER_MAX = 128 };

/*
 * The words of each role, in the order they are tried: a rate first
 * (none of the roles), then the batch, the time, the workers, the count
 * and the steps.  A word matches anywhere in the lower-cased name, or at
 * its end when at_end.  Of the workers' words, rank says which column a
 * table with several takes (worker_rank): a worker over a core (a
 * processor's, when nothing names the workers), over a node or a machine
 * (several workers each).
 */
static const struct {
	const char *word;
	sf_scaffold_role role;
	int at_end, rank;
} vocabulary[] = {
    {"per_s", SF_ROLE_NONE, 0, 0},
    {"per_min", SF_ROLE_NONE, 0, 0},
    {"/s", SF_ROLE_NONE, 0, 0},
    {"throughput", SF_ROLE_NONE, 0, 0},
    {"rate", SF_ROLE_NONE, 0, 0},
    {"speed", SF_ROLE_NONE, 0, 0},
    {"batch", SF_ROLE_BATCH, 0, 0},
    {"time", SF_ROLE_TIME, 0, 0},
    {"second", SF_ROLE_TIME, 0, 0},
    {"duration", SF_ROLE_TIME, 0, 0},
    {"elapsed", SF_ROLE_TIME, 0, 0},
    {"latency", SF_ROLE_TIME, 0, 0},
    {"_s", SF_ROLE_TIME, 1, 0},
    {"_sec", SF_ROLE_TIME, 1, 0},
    {"_ms", SF_ROLE_TIME, 1, 0},
    {"worker", SF_ROLE_WORKERS, 0, 0},
    {"gpus", SF_ROLE_WORKERS, 0, 0},
    {"gpu_count", SF_ROLE_WORKERS, 0, 0},
    {"num_gpu", SF_ROLE_WORKERS, 0, 0},
    {"ranks", SF_ROLE_WORKERS, 0, 0},
    {"procs", SF_ROLE_WORKERS, 0, 0},
    {"nproc", SF_ROLE_WORKERS, 0, 0},
    {"processes", SF_ROLE_WORKERS, 0, 0},
    {"devices", SF_ROLE_WORKERS, 0, 0},
    {"accelerators", SF_ROLE_WORKERS, 0, 0},
    {"replicas", SF_ROLE_WORKERS, 0, 0},
    {"world_size", SF_ROLE_WORKERS, 0, 0},
    {"cores", SF_ROLE_WORKERS, 0, 1},
    {"executors", SF_ROLE_WORKERS, 0, 1},
    {"nodes", SF_ROLE_WORKERS, 0, 2},
    {"machines", SF_ROLE_WORKERS, 0, 2},
    {"samples", SF_ROLE_COUNT, 0, 0},
    {"images", SF_ROLE_COUNT, 0, 0},
    {"tokens", SF_ROLE_COUNT, 0, 0},
    {"examples", SF_ROLE_COUNT, 0, 0},
    {"sequences", SF_ROLE_COUNT, 0, 0},
    {"records", SF_ROLE_COUNT, 0, 0},
    {"chunks", SF_ROLE_COUNT, 0, 0},
    {"dataset_size", SF_ROLE_COUNT, 0, 0},
    {"data_size", SF_ROLE_COUNT, 0, 0},
    {"iteration", SF_ROLE_STEPS, 0, 0},
    {"iters", SF_ROLE_STEPS, 0, 0},
    {"steps", SF_ROLE_STEPS, 0, 0},
};
enum { VOCABULARY = sizeof vocabulary / sizeof vocabulary[0] };

/* The entry of the vocabulary a column name, lower-cased (lower, n bytes
 * long: sf_text_lower), matches, or -1. */
static int
word_of(const char *lower, size_t n)
{
	for (int k = 0; k < VOCABULARY; k++) {
		const char *w = vocabulary[k].word;
		size_t len = strlen(w);

		if (vocabulary[k].at_end
		        ? n > len && strcmp(lower + n - len, w) == 0
		        : has(lower, w))
			return k;
	}
	return -1;
}

sf_scaffold_role
sf_scaffold_role_of(const char *name)
{
	char lower[LOWER_MAX];
	int k = word_of(lower, sf_text_lower(name, lower, sizeof lower));

	if (k < 0)
		return SF_ROLE_NONE;
	if (vocabulary[k].role == SF_ROLE_BATCH &&
	    (has(lower, "global") || has(lower, "total")))
		return SF_ROLE_GLOBAL_BATCH;
	return vocabulary[k].role;
}

/* The words of role matched at_end or anywhere, "a, b or c", into buf. */
static size_t
words_list(sf_scaffold_role role, int at_end, char *buf, size_t size)
{
	size_t used = 0, count = 0, seen = 0;

	buf[0] = '\0';
	for (int k = 0; k < VOCABULARY; k++)
		count += vocabulary[k].role == role &&
		         vocabulary[k].at_end == at_end;
	for (int k = 0; k < VOCABULARY && used < size; k++) {
		int w;

		if (vocabulary[k].role != role ||
		    vocabulary[k].at_end != at_end)
			continue;
		seen++;
		w = snprintf(buf + used, size - used, "%s%s",
		             seen == 1       ? ""
		             : seen == count ? " or "
		                             : ", ",
		             vocabulary[k].word);
		used += w > 0 ? (size_t)w : 0;
	}
	return count;
}

/* What names of role look like, for the errors: "a name with a, b or c,
 * or ending in d or e", into buf. */
static void
role_words(sf_scaffold_role role, char *buf, size_t size)
{
	char anywhere[256], ending[64];
	size_t ends = words_list(role, 1, ending, sizeof ending);

	words_list(role, 0, anywhere, sizeof anywhere);
	snprintf(buf, size, "a name with %s%s%s", anywhere,
	         ends > 0 ? ", or ending in " : "", ends > 0 ? ending : "");
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

/* Which worker column a table with several takes: the lowest rank (the
 * vocabulary's), then the first; a count per node or machine
 * (accelerators_per_node beside accelerators) after every other. */
static int
worker_rank(const char *name)
{
	char lower[LOWER_MAX];
	int k = word_of(lower, sf_text_lower(name, lower, sizeof lower));

	if (has(lower, "per_node") || has(lower, "per_machine"))
		return 3;
	return k >= 0 ? vocabulary[k].rank : 0;
}

/*
 * A text column whose name says role (what: "the measured time") made
 * text by a cell that is not a number: err at that cell (FILE:LINE:COL,
 * the line quoted), naming the column and the cell.  Returns SF_ETYPE, or
 * SF_OK when no such column is there.
 */
static int
text_column(const sf_table *t, sf_scaffold_role role, const char *what,
            sf_error *err)
{
	for (size_t c = 0; c < sf_table_columns(t); c++) {
		const char *name = sf_table_column_name(t, c);
		const sf_error *cell = sf_table_column_first_text(t, c);

		if (sf_scaffold_role_of(name) != role || cell == NULL)
			continue;
		if (err != NULL) {
			*err = *cell;
			sf_error_prefix(err,
			                "column '%s' looks like %s, but it is "
			                "not numeric: ",
			                name, what);
		}
		return SF_ETYPE;
	}
	return SF_OK;
}

/* The longest column name a model's output or input names whole (the
 * loader looks a name up in a buffer of 256 bytes: input/dataset.c). */
enum { NAME_MAX_BYTES = 255 };

/* Why a model cannot name column name whole, at *at (its byte), or NULL
 * when it can: the loader trims white space around a column's name and
 * looks up at most NAME_MAX_BYTES bytes; YAML reads a byte that is not
 * UTF-8 back as another character. */
static const char *
unnameable(const char *name, size_t *at)
{
	size_t n = strlen(name);
	long bad = sf_yaml_out_invalid_utf8(name);

	*at = 0;
	if (n > NAME_MAX_BYTES)
		return "is longer than the 255 bytes a model can name";
	if (isspace((unsigned char)name[0]))
		return "starts with white space, which a model's column is "
		       "trimmed of";
	if (isspace((unsigned char)name[n - 1])) {
		*at = n - 1;
		return "ends with white space, which a model's column is "
		       "trimmed of";
	}
	*at = bad >= 0 ? (size_t)bad : 0;
	return bad >= 0 ? "holds a byte that is not UTF-8, which YAML reads "
	                  "back as another character"
	                : NULL;
}

/* SF_OK when the model can name every column g chose whole; else
 * SF_ENAME at the first it cannot, saying why. */
static int
nameable_columns(const sf_table *t, const sf_scaffold *g, sf_error *err)
{
	const size_t chosen[] = {g->output, g->p, g->b, g->n, g->steps};

	for (size_t i = 0; i < sizeof chosen / sizeof chosen[0]; i++) {
		const char *why;
		size_t at;
		int line, column;

		if (chosen[i] == SF_CSV_NONE ||
		    (why = unnameable(sf_table_column_name(t, chosen[i]),
		                      &at)) == NULL)
			continue;
		sf_table_column_position(t, chosen[i], &line, &column);
		return sf_error_at(err, SF_ENAME, sf_table_file(t), line,
		                   column + (int)at,
		                   "column %zu's name %s: a model file cannot "
		                   "name the column; rename it",
		                   chosen[i] + 1, why);
	}
	return SF_OK;
}

/*
 * The column of role the model needs (col: the one found, or SF_CSV_NONE):
 * SF_OK when found; else SF_ETYPE when a text column's name says role
 * (text_column), or SF_ENAME: no numeric column looks like what (its
 * name's hint, then the table's columns).
 */
static int
required(const sf_table *t, size_t col, sf_scaffold_role role, const char *what,
         const char *columns, sf_error *err)
{
	char words[512];

	if (col != SF_CSV_NONE)
		return SF_OK;
	if (text_column(t, role, what, err) != SF_OK)
		return SF_ETYPE;
	role_words(role, words, sizeof words);
	return sf_error_at(err, SF_ENAME, sf_table_file(t), 0, 0,
	                   "no numeric column looks like %s (%s); "
	                   "its columns are: %s",
	                   what, words, columns);
}

int
sf_scaffold_guess(const sf_table *t, sf_scaffold *g, sf_error *err)
{
	char columns[256];
	int rc;

	g->p = g->b = g->n = g->output = g->steps = SF_CSV_NONE;
	g->b_global = g->per_step = 0;
	g->steps_rounding = SF_STEPS_QUOTIENT;
	g->steps_note = NULL;
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
		char lower[LOWER_MAX];

		sf_text_lower(sf_table_column_name(t, g->output), lower,
		              sizeof lower);
		/* the time of one step: no count of the data processed */
		if (has(lower, "step") || has(lower, "iter")) {
			g->per_step = 1;
			g->n = g->steps = SF_CSV_NONE;
		}
	}
	if ((rc = required(t, g->output, SF_ROLE_TIME, "the measured time",
	                   columns, err)) != SF_OK ||
	    (rc = required(t, g->p, SF_ROLE_WORKERS, "the number of workers",
	                   columns, err)) != SF_OK)
		return rc;
	return nameable_columns(t, g, err);
}

/* 1 for a byte a model's name or data.file may not hold: a control
 * character (a tab aside) or DEL, which would reach a terminal as it is
 * (scalefit-model(5)). */
static int
unprintable(unsigned char c)
{
	return (c < 0x20 && c != '\t') || c == 0x7f;
}

/* name as a model's name can hold it, in place: each byte a name may not
 * hold, and each byte of invalid UTF-8 (which would read back as another
 * character), as _. */
static void
safe_name(char *name)
{
	long bad;

	for (char *c = name; *c != '\0'; c++)
		if (unprintable((unsigned char)*c))
			*c = '_';
	while ((bad = sf_yaml_out_invalid_utf8(name)) >= 0)
		name[bad] = '_';
}

void
sf_scaffold_name(const char *data_path, char *buf, size_t size)
{
	const char *base = strrchr(data_path, '/');
	size_t n;

	base = base != NULL ? base + 1 : data_path;
	n = strcspn(base, ".");
	if (n == 0 || strcmp(data_path, "-") == 0)
		snprintf(buf, size, "model");
	else
		snprintf(buf, size, "%.*s", (int)n, base);
	safe_name(buf);
}

/* ---- the text -------------------------------------------------------- */

/*
 * The smallest of 1, 2 and 5 times a power of ten that is >= x > 0, as
 * the double nearest that decimal, so that it is written as people write
 * it (2.0e-05, not 2.0000000000000002e-05); the largest double when
 * rounding up would overflow, the smallest normal one for an x below it.
 */
static double
nice_above(double x)
{
	static const int steps[] = {1, 2, 5};
	int e;

	if (!(x > DBL_MIN))
		return DBL_MIN;
	if (!(x < DBL_MAX))
		return DBL_MAX;
	/* from the decade below log10's, should it have rounded up */
	e = (int)floor(log10(x)) - 1;
	for (int d = 0; d < 3; d++, e++)
		for (int k = 0; k < 3; k++) {
			char text[32];
			double v;

			snprintf(text, sizeof text, "%de%d", steps[k], e);
			if (sf_parse_double(text, &v) != SF_OK)
				return DBL_MAX; /* beyond the largest double */
			if (v >= x)
				return v;
		}
	return DBL_MAX;
}

/* The fitted constants, by what each multiplies per row. */
enum { K_T0, K_A, K_C, K_L, K_W, K_R, K_COUNT };

/* What the data said of the steps column: tested or not, the rule
 * (input/steps.h, tried in its order) that reproduces it on every row
 * (SF_STEPS_RULES for none), and the rows. */
typedef struct steps_rule {
	int tested;
	sf_steps_rule rule;
	size_t rows;
} steps_rule;

/* What the model is written from: the columns, the constants it uses
 * and their bounds from the data. */
typedef struct plan {
	const double *p, *bc, *nc; /* workers, batch and count (or NULL) */
	double *from_steps;        /* n = steps x the global batch */
	int n_from_steps;
	int per_step;              /* the time of one step: steps = 1 */
	double bound[K_COUNT];     /* the largest time / multiplier */
	size_t over[K_COUNT];      /* the first row where that is beyond the
	                              largest double, else SIZE_MAX */
	double over_mult[K_COUNT]; /* its multiplier */
	int used[K_COUNT];
	size_t rows;      /* usable: time > 0, p >= 1, b > 0, n > 0 */
	steps_rule steps; /* the steps column against the rules */
	const double *sc; /* a whole-steps rule's column: each run's steps,
	                     else NULL (steps = n / (p b)) */
	sf_steps_rule rounding; /* without such a column, the guess's rule of
	                     the quotient (SF_STEPS_QUOTIENT: none) */
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
		     : pl->sc != NULL
		         ? pl->sc[r]
		         : sf_steps_apply(pl->rounding,
		                          (pl->nc != NULL ? pl->nc[r] : 1) /
		                              (pr * br));
		mult[K_T0] = 1;
		mult[K_A] = st;
		mult[K_C] = st * br;
		mult[K_L] = st * log2(pr);
		mult[K_W] = st * (pr - 1) / pr;
		mult[K_R] = pl->nc != NULL ? pl->nc[r] : 0;
		for (int k = 0; k < K_COUNT; k++) {
			double b = y[r] / mult[k];

			if (!(mult[k] > 0) || !(b > pl->bound[k]))
				continue;
			pl->bound[k] = b;
			if (isinf(b) && pl->over[k] == SIZE_MAX) {
				pl->over[k] = r;
				pl->over_mult[k] = mult[k];
			}
		}
	}
}

/*
 * SF_OK when every bound of a constant the plan uses is a double;
 * otherwise SF_EVALUE with err at the first row that makes one too large
 * (its line in t): a model file holds finite numbers only, so these times
 * must be given in larger units.
 */
static int
plan_finite(const sf_table *t, const sf_scaffold *g, const plan *pl,
            sf_error *err)
{
	static const char *const names[K_COUNT] = {"t0", "a", "c",
	                                           "l",  "w", "r"};
	char v[32], m[32];

	for (int k = 0; k < K_COUNT; k++) {
		size_t r = pl->over[k];

		if (!pl->used[k] || r == SIZE_MAX)
			continue;
		return sf_error_at(
		    err, SF_EVALUE, sf_table_file(t), sf_table_row_lines(t)[r],
		    0,
		    "the time %s of column '%s' is too large for a model: "
		    "constant %s, which multiplies %s on this row, would need "
		    "a bound above the largest number (1.8e+308); give the "
		    "times in larger units",
		    sf_format_double(v, sizeof v,
		                     sf_table_column_values(t, g->output)[r]),
		    sf_table_column_name(t, g->output), names[k],
		    sf_format_double(m, sizeof m, pl->over_mult[k]));
	}
	return SF_OK;
}

/* The plan of t's model for guess g, its steps as rule says.  Returns
 * SF_OK; SF_EVALUE when no row is usable, SF_ENOMEM. */
static int
plan_make(const sf_table *t, const sf_scaffold *g, const steps_rule *rule,
          plan *pl, sf_error *err)
{
	memset(pl, 0, sizeof *pl);
	pl->steps = *rule;
	if (rule->tested && rule->rule != SF_STEPS_QUOTIENT &&
	    rule->rule < SF_STEPS_RULES)
		pl->sc = sf_table_column_values(t, g->steps);
	for (int k = 0; k < K_COUNT; k++)
		pl->over[k] = SIZE_MAX;
	pl->p = sf_table_column_values(t, g->p);
	pl->bc = g->b != SF_CSV_NONE ? sf_table_column_values(t, g->b) : NULL;
	/* a global batch is an expression over both columns (b = batch /
	 * p), which can name identifiers only */
	if (g->b_global && !(sf_expr_is_name(sf_table_column_name(t, g->b)) &&
	                     sf_expr_is_name(sf_table_column_name(t, g->p))))
		pl->bc = NULL;
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
	/* whole steps need the count, the workers and the batch */
	pl->rounding = pl->sc == NULL && pl->nc != NULL && pl->bc != NULL &&
	                       !pl->n_from_steps &&
	                       g->steps_rounding < SF_STEPS_RULES
	                   ? g->steps_rounding
	                   : SF_STEPS_QUOTIENT;
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
	return plan_finite(t, g, pl, err);
}

int
sf_scaffold_whole_steps(const sf_table *t, const sf_scaffold *g)
{
	const steps_rule none = {0, SF_STEPS_RULES, 0};
	const double *y;
	sf_scaffold exact = *g;
	sf_error ignored;
	int fractional = 0;
	plan pl;

	if (g->per_step || g->steps != SF_CSV_NONE)
		return 0;
	exact.steps_rounding = SF_STEPS_QUOTIENT;
	if (plan_make(t, &exact, &none, &pl, &ignored) != SF_OK ||
	    pl.nc == NULL || pl.bc == NULL) {
		free(pl.from_steps);
		return 0;
	}
	y = sf_table_column_values(t, g->output);
	for (size_t r = 0; r < sf_table_rows(t) && !fractional; r++) {
		double pr = pl.p[r],
		       br = g->b_global ? pl.bc[r] / pr : pl.bc[r];
		double q = pl.nc[r] / (pr * br);

		/* the rows the bounds count, as discover's grammar asks */
		if (isfinite(y[r]) && y[r] > 0 && pr >= 1 && br > 0 &&
		    pl.nc[r] > 0 && isfinite(q))
			fractional = sf_steps_fractional(q);
	}
	free(pl.from_steps);
	return fractional;
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

/* name: the model's name, each byte it may not hold written as '_'. */
static void
write_name(sf_yaml_out *y, const char *name)
{
	char *safe = sf_text_dup(name);

	if (safe == NULL) {
		y->text->failed = 1;
		return;
	}
	safe_name(safe);
	sf_yaml_out_pair(y, "name", safe, NULL);
	free(safe);
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
	write_name(y, name);
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

/* The quotient a run's steps follow from: n / (p b), or its parts the
 * plan has. */
static const char *
steps_quotient(const plan *pl)
{
	return pl->nc != NULL ? (pl->bc != NULL ? "n / (p * b)" : "n / p")
	                      : (pl->bc != NULL ? "1 / (p * b)" : "1 / p");
}

/* 1 when the plan's steps reproduce the data's steps column: they are a
 * derived input, not a term. */
static int
steps_derived(const plan *pl)
{
	return pl->steps.tested && pl->steps.rule < SF_STEPS_RULES;
}

/* steps, when it belongs where in_inputs says (derived: in inputs:, else
 * in terms:): 1 for the time of one step, else the plan's rule of the
 * quotient; derived, {derived: RULE} after a comment that it reproduces
 * the steps column on every row; a column no rule reproduces is named in
 * a comment above the term. */
static void
write_steps(sf_yaml_out *y, const sf_table *t, const sf_scaffold *g,
            const plan *pl, int in_inputs)
{
	const steps_rule *sr = &pl->steps;
	char expr[64];

	if (steps_derived(pl) != in_inputs)
		return;
	if (pl->per_step) {
		sf_yaml_out_pair(y, "steps", "1", NULL);
		return;
	}
	sf_steps_text(in_inputs ? sr->rule : pl->rounding, steps_quotient(pl),
	              expr, sizeof expr);
	if (in_inputs) {
		sf_yaml_out_comment(y,
		                    "a run's steps: reproduces column '%s' on "
		                    "all %zu rows",
		                    sf_table_column_name(t, g->steps),
		                    sr->rows);
		sf_yaml_out_flow_map(y, "steps");
		sf_yaml_out_pair(y, "derived", expr, NULL);
		sf_yaml_out_end(y, NULL);
		return;
	}
	if (sr->tested)
		sf_yaml_out_comment(
		    y,
		    "column '%s' not reproduced: it is neither %s nor "
		    "its floor or ceiling on every row",
		    sf_table_column_name(t, g->steps), steps_quotient(pl));
	if (g->steps_note != NULL && !pl->per_step)
		sf_yaml_out_comment(y, "%s", g->steps_note);
	sf_yaml_out_pair(y, "steps", expr, NULL);
}

/* inputs: p, b and n from their columns, and steps when derived. */
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
	write_steps(y, t, g, pl, 1);
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
write_formula(sf_yaml_out *y, const sf_table *t, const sf_scaffold *g,
              const plan *pl)
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
	char time[64];

	sf_yaml_out_map(y, "parameters");
	for (int k = 0; k < K_COUNT; k++) {
		if (!used[k])
			continue;
		sf_yaml_out_flow_map(y, names[k]);
		sf_yaml_out_number(y, "min", 0, NULL);
		sf_yaml_out_number(y, "max", nice_above(pl->bound[k]), NULL);
		sf_yaml_out_end(y, notes[k]);
	}
	sf_yaml_out_end(y, NULL);
	sf_yaml_out_map(y, "terms");
	write_steps(y, t, g, pl, 0);
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

/* SF_OK when a model's data.file can name path as it is; else SF_EVALUE
 * saying why: a control character it may not hold, white space only
 * (which it reads as empty), or a byte that is not UTF-8 (YAML would read
 * it back as another character). */
static int
nameable_file(const char *path, sf_error *err)
{
	long bad = sf_yaml_out_invalid_utf8(path);
	const char *blank = path;

	for (const char *c = path; *c != '\0'; c++)
		if (unprintable((unsigned char)*c))
			return sf_error_set(
			    err, SF_EVALUE,
			    "the data file's path holds the "
			    "control character \\x%02X, which a "
			    "model's data.file may not hold: "
			    "rename the file",
			    (unsigned char)*c);
	while (isspace((unsigned char)*blank))
		blank++;
	if (*blank == '\0')
		return sf_error_set(err, SF_EVALUE,
		                    "the data file's path is white space only, "
		                    "which a model's data.file reads as empty: "
		                    "rename the file");
	if (bad >= 0)
		return sf_error_set(err, SF_EVALUE,
		                    "the data file's path holds the byte "
		                    "\\x%02X, which is not UTF-8: a model file "
		                    "cannot name it as it is; rename the file",
		                    (unsigned char)path[bad]);
	return SF_OK;
}

/*
 * Test the steps column (named column) of d's rows against each rule of
 * quotient in turn: sr says the first that gives the column's value on
 * every row (the exact quotient to a relative 1e-12, its whole-step
 * rules exactly), or SF_STEPS_RULES when none does.  Returns SF_OK, or the
 * error of evaluating them (SF_ENOMEM).
 */
static int
steps_test(const sf_dataset *d, const char *column, const char *quotient,
           steps_rule *sr, sf_error *err)
{
	double *col = malloc((d->rows + 1) * sizeof *col);
	double *v = malloc((d->rows + 1) * sizeof *v);
	int rc = col != NULL && v != NULL
	             ? sf_dataset_eval(d, column, col, err)
	             : sf_error_set(err, SF_ENOMEM, "out of memory");

	sr->tested = 1;
	sr->rule = SF_STEPS_RULES;
	sr->rows = d->rows;
	for (sf_steps_rule k = SF_STEPS_QUOTIENT;
	     k < SF_STEPS_RULES && rc == SF_OK; k++) {
		char expr[64];
		size_t r = 0;

		sf_steps_text(k, quotient, expr, sizeof expr);
		if ((rc = sf_dataset_eval(d, expr, v, err)) != SF_OK)
			break;
		while (r < d->rows &&
		       (k == SF_STEPS_QUOTIENT
		            ? fabs(v[r] - col[r]) <= 1e-12 * fabs(col[r])
		            : v[r] == col[r]))
			r++;
		if (r == d->rows) {
			sr->rule = k;
			break;
		}
	}
	free(col);
	free(v);
	return rc;
}

/*
 * SF_OK when model text checks against t as `scalefit check` checks it:
 * it loads, its rows bind and its formula compiles; then, when sr is not
 * NULL, the steps column of g is tested against the rules of quotient on
 * the rows it binds (steps_test, its errors as they are).  Otherwise init
 * has a bug: sf_problem_open_written()'s SF_EINTERNAL.
 */
static int
verify(const sf_table *t, const char *text, const sf_scaffold *g,
       const char *quotient, steps_rule *sr, sf_error *err)
{
	sf_model_set *set = NULL;
	sf_problem p;
	int rc = sf_problem_open_written("init", "MODEL.yaml", text, t, &set,
	                                 &p, err);

	if (rc == SF_OK && sr != NULL)
		rc = steps_test(p.data, sf_table_column_name(t, g->steps),
		                quotient, sr, err);
	sf_problem_close(&p);
	sf_model_set_free(set);
	return rc;
}

/*
 * The model text of t for guess g with its steps as sr says, in *text;
 * *quotient the steps' quotient when a steps column of the data can be
 * tested against it (a count n of its own, not made of the steps), else
 * NULL.  Returns what plan_make and the writer return.
 */
static int
compose(const sf_table *t, const sf_scaffold *g, const char *name,
        const char *data_file, const steps_rule *sr, const char **quotient,
        char **text, sf_error *err)
{
	sf_text b = SF_TEXT_INIT;
	sf_yaml_out y;
	plan pl;
	int rc;

	*quotient = NULL;
	if ((rc = plan_make(t, g, sr, &pl, err)) == SF_OK) {
		sf_yaml_out_init(&y, &b);
		write_data(&y, t, g, name, data_file);
		write_inputs(&y, t, g, &pl);
		write_formula(&y, t, g, &pl);
		rc = sf_yaml_out_finish(&y, text, err);
		if (g->steps != SF_CSV_NONE && !pl.n_from_steps &&
		    !pl.per_step && pl.nc != NULL)
			*quotient = steps_quotient(&pl);
	}
	free(pl.from_steps);
	return rc;
}

int
sf_scaffold_write(const sf_table *t, const sf_scaffold *g, const char *name,
                  const char *data_file, char **text, sf_error *err)
{
	steps_rule sr = {0, SF_STEPS_RULES, 0};
	const char *quotient;
	int rc;

	*text = NULL;
	if ((rc = nameable_file(data_file, err)) != SF_OK)
		return rc;
	rc = compose(t, g, name, data_file, &sr, &quotient, text, err);
	/* A steps column: the rule that reproduces it, tested on the rows
	 * the model binds, then the model written again with it. */
	if (rc == SF_OK && quotient != NULL &&
	    (rc = verify(t, *text, g, quotient, &sr, err)) == SF_OK) {
		free(*text);
		*text = NULL;
		rc = compose(t, g, name, data_file, &sr, &quotient, text, err);
	}
	/* The promise of init: what it writes, check takes. */
	if (rc == SF_OK &&
	    (rc = verify(t, *text, g, NULL, NULL, err)) != SF_OK) {
		free(*text);
		*text = NULL;
	}
	return rc;
}
