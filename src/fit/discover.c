/*
 * discover.c - the grammar's shapes and their columns, non-negative least
 * squares from per-level Gram matrices, forward-chaining scores, the beam
 * search and its non-linear variants, the board, and the model file of a
 * formula (discover.h).
 */
#define _XOPEN_SOURCE 700 /* realpath */

#include "fit/discover.h"
#include "base/number.h"
#include "base/suggest.h"
#include "base/text.h"
#include "base/units.h"
#include "expr/expr.h"
#include "fit/tune.h"
#include "fit/validate.h"

#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#ifdef _OPENMP
#include <omp.h>
#endif

/* Columns of a formula: the start-up constant and at most max_terms. */
enum { MAXC = SF_DISCOVER_MAX_TERMS + 1 };

/* The grid of exponents and log powers when the block gives none: Extra-P's
 * PMNF choices for one parameter. */
static const double default_exponents[] = {-1,      -0.5, 0,   1.0 / 3, 0.5,
                                           2.0 / 3, 1,    1.5, 2};
static const int default_logs[] = {0, 1, 2};

/* The communication shapes of the workers input: (p - 1) p^i. */
static const double comm_exponents[] = {0, -1, -2};

/* More shapes than this is a grammar to narrow, not to search. */
enum { MAX_SHAPES = 200000 };

/* The formulas of each number of terms whose terms are swapped, and how
 * many times (swap_search). */
enum { SWAP_WIDTH = 4, SWAP_ROUNDS = 1 };

/* Points of the grid over a non-linear constant, and golden-section steps
 * between the best point's neighbours. */
enum { PROFILE_GRID = 17, PROFILE_STEPS = 28 };

/* A ridge on the unit diagonal of the scaled normal equations: collinear
 * columns still give a (minimum-norm-like) solution, and no well-posed fit
 * moves by more than about 1e-10 relative. */
static const double ridge = 1e-10;

static double
seconds_since(const struct timespec *start)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	return (double)(now.tv_sec - start->tv_sec) +
	       1e-9 * (double)(now.tv_nsec - start->tv_nsec);
}

/* ---- settings --------------------------------------------------------- */

void
sf_discover_options_init(sf_discover_options *o)
{
	memset(o, 0, sizeof *o);
	sf_fit_options_init(&o->fit);
}

/* The settings of one search: the block's, the options' overrides and
 * the defaults, and the roles of the inputs (indices into the dataset's
 * inputs, -1 for none). */
typedef struct setup {
	size_t factors, max_terms, beam, budget, top;
	double tie;
	int overlap, continuous;
	double exponents[SF_DISCOVER_MAX_LIST];
	size_t nexponents;
	int logs[SF_DISCOVER_MAX_LOG + 1];
	size_t nlogs;
	int extrap, count, workers;
	int *use; /* per input: 1 when factors may use it */
	sf_loss loss;
} setup;

static size_t
pick(size_t option, size_t block, size_t fallback)
{
	return option > 0 ? option : block > 0 ? block : fallback;
}

/* An error about a name: at its place in the model file when it comes
 * from there (at != NULL), else about the option what. */
static int
name_error(const sf_model *m, const sf_model_text *at, const sf_dataset *d,
           const char *what, const char *name, const char *why, sf_error *err)
{
	const char *names[64], *near = NULL;
	char list[256] = "";
	size_t n = 0;

	for (size_t i = 0; i < d->ninputs && n < 64; i++)
		if (d->inputs[i].levels == NULL) {
			names[n++] = d->inputs[i].name;
			if (list[0] != '\0')
				strncat(list, ", ",
				        sizeof list - strlen(list) - 1);
			strncat(list, d->inputs[i].name,
			        sizeof list - strlen(list) - 1);
		}
	if (why == NULL)
		near = sf_suggest_nearest(name, names, n);
	if (at != NULL)
		sf_error_at(err, SF_ENAME, m->path, at->line, at->column, "%s",
		            "");
	else
		sf_error_at(err, SF_ENAME, NULL, 0, 0, "%s", "");
	if (err == NULL)
		return SF_ENAME;
	if (why != NULL)
		snprintf(err->message, sizeof err->message, "%s: '%s' %s", what,
		         name, why);
	else if (near != NULL)
		snprintf(err->message, sizeof err->message,
		         "%s: '%s' is not an input; did you mean '%s'?", what,
		         name, near);
	else
		snprintf(err->message, sizeof err->message,
		         "%s: '%s' is not an input (the numeric inputs: %s)",
		         what, name, list);
	if (at != NULL)
		sf_error_quote(err, m->source, m->source_length);
	return SF_ENAME;
}

/* The numeric input called name: its index, or an error. */
static int
resolve_input(const sf_model *m, const sf_model_text *at, const sf_dataset *d,
              const char *what, const char *name, int *index, sf_error *err)
{
	for (size_t i = 0; i < d->ninputs; i++) {
		if (strcmp(d->inputs[i].name, name) != 0)
			continue;
		if (d->inputs[i].levels != NULL)
			return name_error(m, at, d, what, name,
			                  "is a text input: formulas need "
			                  "numbers",
			                  err);
		*index = (int)i;
		return SF_OK;
	}
	return name_error(m, at, d, what, name, NULL, err);
}

/* The numeric input called name, or -1. */
static int
numeric_input(const sf_dataset *d, const char *name)
{
	for (size_t i = 0; i < d->ninputs; i++)
		if (strcmp(d->inputs[i].name, name) == 0 &&
		    d->inputs[i].levels == NULL)
			return (int)i;
	return -1;
}

static int
make_setup(const sf_model *m, const sf_model_discover *s, const sf_dataset *d,
           const sf_discover_options *o, setup *st, sf_error *err)
{
	sf_loss loss = o->fit.has_loss ? o->fit.loss : m->fit.loss;
	int rc;

	memset(st, 0, sizeof *st);
	st->factors = pick(0, s->factors, SF_DISCOVER_DEFAULT_FACTORS);
	st->max_terms =
	    pick(o->max_terms, s->max_terms, SF_DISCOVER_DEFAULT_MAX_TERMS);
	st->beam = pick(o->beam, s->beam, SF_DISCOVER_DEFAULT_BEAM);
	st->budget = pick(o->budget, s->budget, SF_DISCOVER_DEFAULT_BUDGET);
	st->top = pick(o->top, 0, SF_DISCOVER_DEFAULT_TOP);
	st->tie = s->tie >= 0 ? s->tie : SF_DISCOVER_DEFAULT_TIE;
	st->overlap = s->overlap >= 0 ? s->overlap : 1;
	st->continuous = s->continuous >= 0 ? s->continuous : 0;
	st->loss = loss == SF_LOSS_SSE ? SF_LOSS_SSE : SF_LOSS_RELATIVE;
	if (st->max_terms > SF_DISCOVER_MAX_TERMS)
		return sf_error_set(err, SF_EUSAGE,
		                    "--max-terms must be at most %d",
		                    SF_DISCOVER_MAX_TERMS);
	if (s->nexponents > 0) {
		memcpy(st->exponents, s->exponents,
		       s->nexponents * sizeof *s->exponents);
		st->nexponents = s->nexponents;
	} else {
		st->nexponents =
		    sizeof default_exponents / sizeof default_exponents[0];
		memcpy(st->exponents, default_exponents,
		       sizeof default_exponents);
	}
	if (s->nlogs > 0) {
		memcpy(st->logs, s->logs, s->nlogs * sizeof *s->logs);
		st->nlogs = s->nlogs;
	} else {
		st->nlogs = sizeof default_logs / sizeof default_logs[0];
		memcpy(st->logs, default_logs, sizeof default_logs);
	}

	/* The extrapolated input: the option, the block, p, the only one. */
	st->extrap = -1;
	if (o->extrapolate != NULL) {
		rc = resolve_input(m, NULL, d, "--extrapolate", o->extrapolate,
		                   &st->extrap, err);
		if (rc != SF_OK)
			return rc;
	} else if (s->extrapolate.text != NULL) {
		rc =
		    resolve_input(m, &s->extrapolate, d, "discover.extrapolate",
		                  s->extrapolate.text, &st->extrap, err);
		if (rc != SF_OK)
			return rc;
	} else if ((st->extrap = numeric_input(d, "p")) < 0) {
		size_t numeric = 0;
		for (size_t i = 0; i < d->ninputs; i++)
			if (d->inputs[i].levels == NULL)
				numeric++, st->extrap = (int)i;
		if (numeric != 1)
			return sf_error_at(
			    err, SF_EVALUE, m->path, 0, 0,
			    "which input do the predictions extrapolate "
			    "along? No input is called p: name one with "
			    "discover: {extrapolate: NAME} or --extrapolate");
	}

	/* The count: the block's, else an input called n. */
	st->count = -1;
	if (s->count.text != NULL) {
		if (strcmp(s->count.text, "none") != 0 &&
		    (rc = resolve_input(m, &s->count, d, "discover.count",
		                        s->count.text, &st->count, err)) !=
		        SF_OK)
			return rc;
	} else {
		st->count = numeric_input(d, "n");
	}
	/* The workers: the block's, else the extrapolated input. */
	st->workers = st->extrap;
	if (s->workers.text != NULL) {
		st->workers = -1;
		if (strcmp(s->workers.text, "none") != 0 &&
		    (rc = resolve_input(m, &s->workers, d, "discover.workers",
		                        s->workers.text, &st->workers, err)) !=
		        SF_OK)
			return rc;
	}
	if (st->count >= 0 && st->count == st->extrap)
		return name_error(m, s->count.text ? &s->count : NULL, d,
		                  "discover.count", d->inputs[st->count].name,
		                  "is the extrapolated input; the count "
		                  "multiplies every term instead",
		                  err);

	if ((st->use = calloc(d->ninputs + 1, sizeof *st->use)) == NULL)
		return sf_error_set(err, SF_ENOMEM, "out of memory");
	if (s->ninputs == 0) {
		for (size_t i = 0; i < d->ninputs; i++)
			st->use[i] =
			    d->inputs[i].levels == NULL && (int)i != st->count;
		return SF_OK;
	}
	for (size_t k = 0; k < s->ninputs; k++) {
		int i;
		if ((rc = resolve_input(m, &s->inputs[k], d, "discover.inputs",
		                        s->inputs[k].text, &i, err)) != SF_OK)
			return rc;
		if (i == st->count)
			return name_error(m, &s->inputs[k], d,
			                  "discover.inputs", s->inputs[k].text,
			                  "is the count, which multiplies a "
			                  "whole term",
			                  err);
		st->use[i] = 1;
	}
	return SF_OK;
}

/* ---- the training rows ------------------------------------------------ */

int
sf_discover_split(const sf_dataset *d, const char *train, sf_dataset **out,
                  size_t *held_out, sf_error *err)
{
	sf_expr_scope *scope = NULL;
	const double **columns = NULL;
	double *keep = NULL;
	size_t *rows = NULL, n = 0;
	int rc = SF_ENOMEM;

	*out = NULL;
	*held_out = 0;
	rows = malloc((d->rows + 1) * sizeof *rows);
	if (rows == NULL)
		return sf_error_set(err, SF_ENOMEM, "out of memory");
	if (train == NULL) {
		for (size_t r = 0; r < d->rows; r++)
			rows[n++] = r;
		rc = sf_dataset_select(d, rows, n, out, err);
		free(rows);
		return rc;
	}
	scope = sf_expr_scope_new();
	columns = malloc((d->ninputs + 1) * sizeof *columns);
	keep = malloc((d->rows + 1) * sizeof *keep);
	if (scope == NULL || columns == NULL || keep == NULL) {
		rc = sf_error_set(err, SF_ENOMEM, "out of memory");
		goto done;
	}
	for (size_t i = 0; i < d->ninputs; i++) {
		const sf_dataset_input *in = &d->inputs[i];

		columns[i] = in->values;
		rc = in->levels != NULL
		         ? sf_expr_scope_add_text_input(
		               scope, in->name, (const char *const *)in->levels,
		               in->nlevels, err)
		         : sf_expr_scope_add_input(scope, in->name, err);
		if (rc != SF_OK)
			goto done;
	}
	if ((rc = sf_expr_eval_columns(scope, train, columns, d->rows, keep,
	                               err)) != SF_OK)
		goto done;
	for (size_t r = 0; r < d->rows; r++)
		/* NaN (an undefined comparison) is not "true" */
		if (keep[r] != 0 && !isnan(keep[r]))
			rows[n++] = r;
	if (n == 0) {
		rc = sf_error_set(err, SF_EVALUE,
		                  "--train '%.200s' selects none of the %zu "
		                  "rows: nothing to discover from",
		                  train, d->rows);
		goto done;
	}
	*held_out = d->rows - n;
	rc = sf_dataset_select(d, rows, n, out, err);
done:
	sf_expr_scope_free(scope);
	free(columns);
	free(keep);
	free(rows);
	return rc;
}

/* ---- levels and folds ------------------------------------------------- */

/* The levels of the extrapolated input and the folds over them. */
typedef struct chain {
	size_t rows;
	size_t *row; /* sorted position -> row, by level then row */
	size_t nlevels;
	double *levels; /* ascending */
	size_t *start;  /* rows of level l: [start[l], start[l + 1]) */
	size_t nfolds;
	size_t *last; /* fold f fits levels 0..last[f] */
} chain;

static void
chain_free(chain *c)
{
	free(c->row);
	free(c->levels);
	free(c->start);
	free(c->last);
	memset(c, 0, sizeof *c);
}

typedef struct keyed {
	double value;
	size_t row;
} keyed;

static int
keyed_compare(const void *a, const void *b)
{
	const keyed *x = a, *y = b;

	if (x->value != y->value)
		return x->value < y->value ? -1 : 1;
	return x->row < y->row ? -1 : x->row > y->row;
}

/* Sort the rows of d by input x and make the folds (discover.h). */
static int
chain_make(const sf_dataset *d, size_t x, chain *c, sf_error *err)
{
	const double *v = d->inputs[x].values;
	keyed *k = malloc((d->rows + 1) * sizeof *k);
	size_t first;

	memset(c, 0, sizeof *c);
	c->rows = d->rows;
	c->row = malloc((d->rows + 1) * sizeof *c->row);
	c->levels = malloc((d->rows + 1) * sizeof *c->levels);
	c->start = malloc((d->rows + 2) * sizeof *c->start);
	c->last = malloc((d->rows + 1) * sizeof *c->last);
	if (k == NULL || c->row == NULL || c->levels == NULL ||
	    c->start == NULL || c->last == NULL) {
		free(k);
		chain_free(c);
		return sf_error_set(err, SF_ENOMEM, "out of memory");
	}
	for (size_t r = 0; r < d->rows; r++)
		k[r].value = v[r], k[r].row = r;
	qsort(k, d->rows, sizeof *k, keyed_compare);
	for (size_t r = 0; r < d->rows; r++) {
		c->row[r] = k[r].row;
		if (r == 0 || k[r].value != k[r - 1].value) {
			c->start[c->nlevels] = r;
			c->levels[c->nlevels++] = k[r].value;
		}
	}
	c->start[c->nlevels] = d->rows;
	free(k);
	if (c->nlevels < 3) {
		int n = (int)c->nlevels;
		chain_free(c);
		return sf_error_set(
		    err, SF_EVALUE,
		    "the training rows hold %d value%s of %s: forward "
		    "chaining needs at least 3 (fit on two, predict the "
		    "next); widen --train or extrapolate along another "
		    "input",
		    n, n == 1 ? "" : "s", d->inputs[x].name);
	}
	first = (c->nlevels + 1) / 2 - 1;
	if (first < 1)
		first = 1;
	for (size_t l = first; l + 1 < c->nlevels; l++)
		c->last[c->nfolds++] = l;
	return SF_OK;
}

/* ---- the grammar ------------------------------------------------------ */

enum { FACTOR_POWER, FACTOR_COMM };

/* x^i log2(x)^j, or (x - 1) x^i. */
typedef struct factor {
	int input, kind, j;
	double i;
} factor;

/* The count (or 1) times the factors, over distinct inputs. */
typedef struct shape {
	int count, nfactors, cost;
	factor f[SF_DISCOVER_MAX_FACTORS];
	size_t order; /* of enumeration: the last tie-break */
} shape;

/* Everything a fit needs, over the training rows sorted by level. */
typedef struct grammar {
	const sf_dataset *d; /* the training rows */
	chain ch;
	size_t rows;
	double *y, *w;      /* per sorted row */
	double *yy;         /* per level: sum w y^2 */
	size_t min_configs; /* configurations the first fold fits */
	size_t nshapes;
	shape *shapes;
	double *col;  /* nshapes x rows */
	double *ones; /* the start-up's column */
	double *x;    /* d->ninputs x rows: the inputs, sorted */
	size_t *cfg;  /* each sorted row's configuration */
} grammar;

static void
grammar_free(grammar *g)
{
	chain_free(&g->ch);
	free(g->y);
	free(g->w);
	free(g->yy);
	free(g->shapes);
	free(g->col);
	free(g->ones);
	free(g->x);
	free(g->cfg);
	memset(g, 0, sizeof *g);
}

static int
is_integer(double v)
{
	return v == floor(v);
}

/* How complicated a factor reads: x, 1/x, log2(x), p - 1, (p - 1)/p are
 * 1; a fractional, larger or logged power costs more. */
static int
factor_cost(const factor *f)
{
	if (f->kind == FACTOR_COMM)
		return 1 + (f->i < -1);
	if (f->i == 0)
		return f->j;
	return 1 + !is_integer(f->i) + (fabs(f->i) > 1) + f->j;
}

static double
factor_value(const factor *f, double x)
{
	if (f->kind == FACTOR_COMM)
		return (x - 1) * pow(x, f->i);
	return (f->i == 0   ? 1
	        : f->i == 1 ? x
	                    : pow(x, f->i)) *
	       (f->j == 0 ? 1 : pow(log2(x), f->j));
}

/* The factors input x may contribute, given its values over the rows:
 * powers needing a positive x (fractional or negative exponents, logs)
 * only when every value is > 0; none when x is constant. */
static size_t
input_factors(const setup *st, int x, const double *v, size_t rows, factor *out)
{
	double lo = INFINITY, hi = -INFINITY;
	size_t n = 0;

	for (size_t r = 0; r < rows; r++) {
		lo = v[r] < lo ? v[r] : lo;
		hi = v[r] > hi ? v[r] : hi;
	}
	if (!(lo < hi))
		return 0;
	for (size_t a = 0; a < st->nexponents; a++)
		for (size_t b = 0; b < st->nlogs; b++) {
			factor f = {x, FACTOR_POWER, st->logs[b],
			            st->exponents[a]};
			int positive_only =
			    f.j > 0 || f.i < 0 || !is_integer(f.i);

			if (f.i == 0 && f.j == 0)
				continue;
			if (positive_only && !(lo > 0))
				continue;
			out[n++] = f;
		}
	if (x == st->workers && lo >= 1)
		for (size_t a = 0;
		     a < sizeof comm_exponents / sizeof comm_exponents[0];
		     a++) {
			factor f = {x, FACTOR_COMM, 0, comm_exponents[a]};
			out[n++] = f;
		}
	return n;
}

static int
shape_compare(const void *a, const void *b)
{
	const shape *x = a, *y = b;
	int cx = x->cost + x->count, cy = y->cost + y->count;

	if (cx != cy)
		return cx < cy ? -1 : 1;
	return x->order < y->order ? -1 : x->order > y->order;
}

/* The column of shape s over the sorted rows into out; 0 when it is not
 * finite, all zero or constant (then it is the start-up's). */
static int
shape_column(const grammar *g, const shape *s, int count, double *out)
{
	double lo = INFINITY, hi = -INFINITY, big = 0;

	for (size_t r = 0; r < g->rows; r++) {
		double v = count >= 0 ? g->x[(size_t)count * g->rows + r] : 1;

		for (int k = 0; k < s->nfactors; k++)
			v *= factor_value(
			    &s->f[k],
			    g->x[(size_t)s->f[k].input * g->rows + r]);
		if (!isfinite(v))
			return 0;
		out[r] = v;
		lo = v < lo ? v : lo;
		hi = v > hi ? v : hi;
		big = fabs(v) > big ? fabs(v) : big;
	}
	return big > 0 && hi - lo > 1e-12 * big;
}

/* A hash of a column up to an affine map a + b v, b > 0: every formula
 * has the start-up constant, so two such columns give the same formulas
 * (b^x is a + b' b when b takes two values).  *center and *scale make
 * (v - center) * scale the column compared. */
static uint64_t
column_signature(const double *v, size_t rows, double *center, double *scale)
{
	double mean = 0, norm = 0;
	uint64_t h = 1469598103934665603u;

	for (size_t r = 0; r < rows; r++)
		mean += v[r];
	mean /= (double)rows;
	for (size_t r = 0; r < rows; r++)
		norm += (v[r] - mean) * (v[r] - mean);
	norm = sqrt(norm);
	*center = mean;
	*scale = 1 / norm;
	for (size_t r = 0; r < rows; r++) {
		double q = nearbyint((v[r] - mean) * *scale * 1e7);
		h = (h ^ (uint64_t)(int64_t)q) * 1099511628211u;
	}
	return h;
}

static int
same_column(const double *a, double ca, double sa, const double *b, double cb,
            double sb, size_t rows)
{
	for (size_t r = 0; r < rows; r++)
		if (fabs((a[r] - ca) * sa - (b[r] - cb) * sb) > 1e-8)
			return 0;
	return 1;
}

/* Every shape of the grammar over the inputs st->use, by increasing
 * complexity, each kept once: a shape whose column is an increasing
 * affine map of a simpler one's on these rows is the same shape here. */
static int
make_shapes(grammar *g, const setup *st, sf_error *err)
{
	const sf_dataset *d = g->d;
	factor *lists = NULL;
	size_t *nlist = NULL, ninputs = 0, *inputs = NULL, total = 0;
	size_t max_list = st->nexponents * st->nlogs + 3;
	shape *all = NULL;
	uint64_t *sig_key = NULL;
	size_t *sig_shape = NULL, table = 0;
	double *scale = NULL, *center = NULL;
	int rc = SF_ENOMEM;

	lists = malloc((d->ninputs + 1) * max_list * sizeof *lists);
	nlist = calloc(d->ninputs + 1, sizeof *nlist);
	inputs = malloc((d->ninputs + 1) * sizeof *inputs);
	if (lists == NULL || nlist == NULL || inputs == NULL)
		goto oom;
	for (size_t i = 0; i < d->ninputs; i++) {
		if (!st->use[i])
			continue;
		nlist[i] = input_factors(st, (int)i, g->x + i * g->rows,
		                         g->rows, lists + i * max_list);
		if (nlist[i] > 0)
			inputs[ninputs++] = i;
	}
	if (ninputs > 16) {
		rc = sf_error_set(err, SF_EVALUE,
		                  "%zu inputs vary in the training rows; the "
		                  "grammar takes at most 16: choose them with "
		                  "discover: inputs",
		                  ninputs);
		goto fail;
	}
	/* Count, then enumerate: subsets of the inputs (at most factors of
	 * them), the product of their lists, with and without the count. */
	size_t kept = 0;
	for (int pass = 0; pass < 2; pass++) {
		size_t n = 0;

		for (unsigned long mask = 0; mask < (1ul << ninputs); mask++) {
			size_t pick_[SF_DISCOVER_MAX_FACTORS], np = 0,
			                                       combos = 1;
			size_t bits = 0;

			for (size_t b = 0; b < ninputs; b++)
				bits += (mask >> b) & 1;
			if (bits > st->factors)
				continue;
			for (size_t b = 0; b < ninputs; b++)
				if (mask & (1ul << b))
					pick_[np++] = inputs[b];
			for (size_t q = 0; q < np; q++)
				combos *= nlist[pick_[q]];
			for (int count = 0; count <= (st->count >= 0);
			     count++) {
				/* With a count, a term without it is a
				 * per-run cost, which can depend on the
				 * workers only (launching them, setting up
				 * their communication), not on the batch. */
				if (!count &&
				    (np == 0 || (st->count >= 0 &&
				                 (np > 1 || (int)pick_[0] !=
				                                st->workers))))
					continue;
				for (size_t c = 0; c < combos; c++, n++) {
					size_t rest = c;
					shape *s;

					if (pass == 0)
						continue;
					s = &all[kept];
					memset(s, 0, sizeof *s);
					s->count = count;
					s->nfactors = (int)np;
					s->order = n;
					for (size_t q = 0; q < np; q++) {
						size_t len = nlist[pick_[q]];
						s->f[q] =
						    lists[pick_[q] * max_list +
						          rest % len];
						rest /= len;
						s->cost +=
						    factor_cost(&s->f[q]);
					}
					kept++;
				}
			}
		}
		if (pass == 0) {
			total = n;
			if (total > MAX_SHAPES) {
				rc = sf_error_set(
				    err, SF_EVALUE,
				    "the grammar has %zu term shapes over "
				    "these inputs; at most %d: narrow it "
				    "with discover: inputs, exponents, logs "
				    "or factors",
				    total, MAX_SHAPES);
				goto fail;
			}
			if ((all = malloc((total + 1) * sizeof *all)) == NULL)
				goto oom;
		}
	}
	total = kept;
	qsort(all, total, sizeof *all, shape_compare);

	/* Columns, kept once each (open addressing on the signature). */
	table = 1;
	while (table < 2 * total + 2)
		table <<= 1;
	g->col = malloc((total + 1) * g->rows * sizeof *g->col);
	g->shapes = malloc((total + 1) * sizeof *g->shapes);
	sig_key = malloc(table * sizeof *sig_key);
	sig_shape = malloc(table * sizeof *sig_shape);
	scale = malloc((total + 1) * sizeof *scale);
	center = malloc((total + 1) * sizeof *center);
	if (g->col == NULL || g->shapes == NULL || sig_key == NULL ||
	    sig_shape == NULL || scale == NULL || center == NULL)
		goto oom;
	for (size_t t = 0; t < table; t++)
		sig_shape[t] = SIZE_MAX;
	for (size_t s = 0; s < total; s++) {
		double *v = g->col + g->nshapes * g->rows, sc, cc;
		uint64_t h;
		size_t t;
		int dup = 0;

		if (!shape_column(g, &all[s], all[s].count ? st->count : -1, v))
			continue;
		h = column_signature(v, g->rows, &cc, &sc);
		for (t = h & (table - 1); sig_shape[t] != SIZE_MAX;
		     t = (t + 1) & (table - 1)) {
			size_t o = sig_shape[t];
			if (sig_key[t] == h &&
			    same_column(g->col + o * g->rows, center[o],
			                scale[o], v, cc, sc, g->rows)) {
				dup = 1;
				break;
			}
		}
		if (dup)
			continue;
		sig_key[t] = h;
		sig_shape[t] = g->nshapes;
		scale[g->nshapes] = sc;
		center[g->nshapes] = cc;
		g->shapes[g->nshapes++] = all[s];
	}
	rc = SF_OK;
	goto done;
oom:
	rc = sf_error_set(err, SF_ENOMEM, "out of memory");
fail:
done:
	free(lists);
	free(nlist);
	free(inputs);
	free(all);
	free(sig_key);
	free(sig_shape);
	free(scale);
	free(center);
	return rc;
}

/* The training rows sorted by level, their weights, and the columns. */
static int
grammar_make(const sf_model *m, const sf_dataset *d, const setup *st,
             grammar *g, sf_error *err)
{
	sf_fit_settings fs = m->fit;
	double *base = NULL;
	int rc;

	memset(g, 0, sizeof *g);
	g->d = d;
	if ((rc = chain_make(d, (size_t)st->extrap, &g->ch, err)) != SF_OK)
		return rc;
	g->rows = d->rows;
	fs.loss = st->loss;
	if ((rc = sf_fit_weights(&fs, d, &base, err)) != SF_OK)
		return rc;
	g->y = malloc((g->rows + 1) * sizeof *g->y);
	g->w = malloc((g->rows + 1) * sizeof *g->w);
	g->yy = calloc(g->ch.nlevels + 1, sizeof *g->yy);
	g->ones = malloc((g->rows + 1) * sizeof *g->ones);
	g->x = malloc((d->ninputs * g->rows + 1) * sizeof *g->x);
	g->cfg = malloc((g->rows + 1) * sizeof *g->cfg);
	if (g->y == NULL || g->w == NULL || g->yy == NULL || g->ones == NULL ||
	    g->x == NULL || g->cfg == NULL) {
		free(base);
		return sf_error_set(err, SF_ENOMEM, "out of memory");
	}
	for (size_t r = 0; r < g->rows; r++) {
		size_t row = g->ch.row[r];
		double y = d->output[row];

		g->y[r] = y;
		g->w[r] = (base != NULL ? base[row] : 1) *
		          (st->loss == SF_LOSS_RELATIVE ? 1 / (y * y) : 1);
		g->ones[r] = 1;
		g->cfg[r] = d->config[row];
		for (size_t i = 0; i < d->ninputs; i++)
			g->x[i * g->rows + r] = d->inputs[i].values[row];
	}
	free(base);
	for (size_t l = 0; l < g->ch.nlevels; l++)
		for (size_t r = g->ch.start[l]; r < g->ch.start[l + 1]; r++)
			g->yy[l] += g->w[r] * g->y[r] * g->y[r];
	/* Configurations in the first fold's rows: a formula with more
	 * constants than that cannot be determined there. */
	{
		double top = g->ch.levels[g->ch.last[0]];
		const double *v = d->inputs[st->extrap].values;

		for (size_t c = 0; c < d->nconfigs; c++)
			g->min_configs += v[d->configs[c].first_row] <= top;
	}
	return make_shapes(g, st, err);
}

/* ---- non-negative least squares ---------------------------------------- */

/* Solve A_PP z_P = b_P (A symmetric, stride MAXC) by Cholesky for the
 * passive set P; z is 0 elsewhere.  Returns -1 when not positive. */
static int
solve_passive(size_t k, const double *A, const double *b, const int *passive,
              double *z)
{
	double L[MAXC * MAXC], t[MAXC];
	size_t idx[MAXC], n = 0;

	for (size_t a = 0; a < k; a++) {
		z[a] = 0;
		if (passive[a])
			idx[n++] = a;
	}
	for (size_t r = 0; r < n; r++)
		for (size_t c = 0; c <= r; c++) {
			double sum = A[idx[r] * MAXC + idx[c]];
			for (size_t q = 0; q < c; q++)
				sum -= L[r * MAXC + q] * L[c * MAXC + q];
			if (r == c) {
				if (!(sum > 0))
					return -1;
				L[r * MAXC + r] = sqrt(sum);
			} else {
				L[r * MAXC + c] = sum / L[c * MAXC + c];
			}
		}
	for (size_t r = 0; r < n; r++) {
		double sum = b[idx[r]];
		for (size_t q = 0; q < r; q++)
			sum -= L[r * MAXC + q] * t[q];
		t[r] = sum / L[r * MAXC + r];
	}
	for (size_t r = n; r-- > 0;) {
		double sum = t[r];
		for (size_t q = r + 1; q < n; q++)
			sum -= L[q * MAXC + r] * t[q];
		t[r] = sum / L[r * MAXC + r];
	}
	for (size_t r = 0; r < n; r++)
		z[idx[r]] = t[r];
	return 0;
}

/*
 * Minimise sum w (X c - y)^2 over c >= 0 given G = X^T W X (k x k,
 * symmetric, stride MAXC) and h = X^T W y: Lawson and Hanson's active-set
 * method on the normal equations (Bro and De Jong's "fast NNLS"), with the
 * columns scaled to unit norm and the ridge on the diagonal.  A column
 * that is zero on these rows gets 0.  This is boxls.h's method; it is
 * written again here on a Gram matrix because a formula's Gram matrix for
 * every fold is a sum of per-level ones, computed once per formula, where
 * boxls takes the rows.
 */
static void
nnls(size_t k, const double *G, const double *h, double *c)
{
	double s[MAXC], A[MAXC * MAXC], b[MAXC], x[MAXC], z[MAXC];
	double bmax = 0, tol;
	int passive[MAXC], usable[MAXC];

	for (size_t a = 0; a < k; a++) {
		double gaa = G[a * MAXC + a];

		usable[a] = gaa > 0 && isfinite(gaa);
		s[a] = usable[a] ? 1 / sqrt(gaa) : 0;
		b[a] = usable[a] ? h[a] * s[a] : 0;
		x[a] = 0;
		passive[a] = 0;
		bmax = fabs(b[a]) > bmax ? fabs(b[a]) : bmax;
	}
	for (size_t a = 0; a < k; a++)
		for (size_t q = 0; q < k; q++)
			A[a * MAXC + q] = G[a * MAXC + q] * s[a] * s[q] +
			                  (a == q ? ridge : 0);
	tol = 1e-13 * (bmax > 0 ? bmax : 1);
	/* Most fits need no bound: when the unconstrained solution is
	 * positive it is the answer, and the active-set method would end on
	 * this very system. */
	if (solve_passive(k, A, b, usable, z) == 0) {
		int positive = 1;
		for (size_t a = 0; a < k; a++)
			positive &= !usable[a] || z[a] > 0;
		if (positive) {
			for (size_t a = 0; a < k; a++)
				c[a] = z[a] * s[a];
			return;
		}
	}
	for (size_t iter = 0; iter < 3 * k + 3; iter++) {
		double best_w = tol;
		size_t best = SIZE_MAX;

		for (size_t a = 0; a < k; a++) {
			double w = b[a];
			if (passive[a] || !usable[a])
				continue;
			for (size_t q = 0; q < k; q++)
				w -= A[a * MAXC + q] * x[q];
			if (w > best_w)
				best_w = w, best = a;
		}
		if (best == SIZE_MAX)
			break;
		passive[best] = 1;
		for (size_t inner = 0; inner <= k; inner++) {
			double alpha = 2;
			size_t hit = SIZE_MAX;

			if (solve_passive(k, A, b, passive, z) != 0) {
				passive[best] = 0;
				break;
			}
			for (size_t a = 0; a < k; a++)
				if (passive[a] && z[a] <= 0) {
					double t = x[a] / (x[a] - z[a]);
					if (t < alpha)
						alpha = t, hit = a;
				}
			if (hit == SIZE_MAX) {
				memcpy(x, z, k * sizeof *x);
				break;
			}
			for (size_t a = 0; a < k; a++)
				if (passive[a])
					x[a] += alpha * (z[a] - x[a]);
			x[hit] = 0;
			for (size_t a = 0; a < k; a++)
				if (passive[a] && (a == hit || x[a] <= 0))
					passive[a] = 0, x[a] = 0;
		}
		/* Let go of a constant that cannot move off zero (rounding
		 * said it could): picking it again would cycle. */
		if (!passive[best])
			usable[best] = 0;
	}
	for (size_t a = 0; a < k; a++)
		c[a] = x[a] * s[a];
}

/* ---- scoring a formula ------------------------------------------------- */

/* One thread's scratch. */
typedef struct workspace {
	double *G; /* per level: k x k at stride MAXC */
	double *h; /* per level: k */
	double *z; /* a variant's column (rows) */
	double *z2;
	double *ape;     /* absolute percentage errors (rows) */
	double *cluster; /* per configuration: a sum (zero between uses) */
	size_t *touched; /* configurations a sum touched */
	unsigned char
	    *seen; /* per configuration: touched (zero between uses) */
} workspace;

static void
workspace_free(workspace *w)
{
	free(w->G);
	free(w->h);
	free(w->z);
	free(w->z2);
	free(w->ape);
	free(w->cluster);
	free(w->touched);
	free(w->seen);
}

static int
workspace_alloc(workspace *w, const grammar *g)
{
	size_t L = g->ch.nlevels + 1;

	w->G = malloc(L * MAXC * MAXC * sizeof *w->G);
	w->h = malloc(L * MAXC * sizeof *w->h);
	w->z = malloc((g->rows + 1) * sizeof *w->z);
	w->z2 = malloc((g->rows + 1) * sizeof *w->z2);
	w->ape = malloc((g->rows + 1) * sizeof *w->ape);
	w->cluster = calloc(g->d->nconfigs + 1, sizeof *w->cluster);
	w->touched = malloc((g->d->nconfigs + 1) * sizeof *w->touched);
	w->seen = calloc(g->d->nconfigs + 1, sizeof *w->seen);
	return w->G != NULL && w->h != NULL && w->z != NULL && w->z2 != NULL &&
	       w->ape != NULL && w->cluster != NULL && w->touched != NULL &&
	       w->seen != NULL;
}

/* Gram matrices G_l = sum w x x^T and h_l = sum w x y of columns
 * cols[0..k) over the rows of levels 0..upto. */
static void
level_grams(const grammar *g, workspace *ws, const double *const *cols,
            size_t k, size_t upto)
{
	for (size_t l = 0; l <= upto; l++) {
		double *G = ws->G + l * MAXC * MAXC, *h = ws->h + l * MAXC;

		for (size_t a = 0; a < k; a++) {
			h[a] = 0;
			for (size_t q = 0; q <= a; q++)
				G[a * MAXC + q] = 0;
		}
		for (size_t r = g->ch.start[l]; r < g->ch.start[l + 1]; r++) {
			double w = g->w[r], wy = w * g->y[r];
			for (size_t a = 0; a < k; a++) {
				double xa = cols[a][r], wxa = w * xa;
				h[a] += xa * wy;
				for (size_t q = 0; q <= a; q++)
					G[a * MAXC + q] += wxa * cols[q][r];
			}
		}
		for (size_t a = 0; a < k; a++)
			for (size_t q = a + 1; q < k; q++)
				G[a * MAXC + q] = G[q * MAXC + a];
	}
}

/* Add level l's matrices to the running sums S, t. */
static void
accumulate(const workspace *ws, size_t l, size_t k, double *S, double *t)
{
	const double *G = ws->G + l * MAXC * MAXC, *h = ws->h + l * MAXC;

	for (size_t a = 0; a < k; a++) {
		t[a] += h[a];
		for (size_t q = 0; q < k; q++)
			S[a * MAXC + q] += G[a * MAXC + q];
	}
}

/* The loss sum w (f - y)^2 of c from the sums: yy - 2 c.h + c^T S c. */
static double
gram_loss(size_t k, const double *S, const double *t, double yy,
          const double *c)
{
	double loss = yy;

	for (size_t a = 0; a < k; a++) {
		double Sc = 0;
		for (size_t q = 0; q < k; q++)
			Sc += S[a * MAXC + q] * c[q];
		loss += c[a] * (Sc - 2 * t[a]);
	}
	return loss;
}

/*
 * Mean |f - y| / |y| of c over sorted rows [from, to), and in *var (when
 * not NULL) the variance of that mean, clustered by configuration: repetitions
 * of one configuration are not independent evidence (their errors share the
 * configuration's), so the sums of deviations per configuration are the
 * units (the cluster-robust estimator, C / (C - 1) sum_c S_c^2 / n^2).
 */
static double
mean_ape(const grammar *g, workspace *ws, const double *const *cols, size_t k,
         const double *c, size_t from, size_t to, double *var)
{
	double sum = 0, mean, n = (double)(to - from), ss = 0;
	size_t nc = 0;

	for (size_t r = from; r < to; r++) {
		double f = 0;
		for (size_t a = 0; a < k; a++)
			f += c[a] * cols[a][r];
		ws->ape[r] = fabs(f - g->y[r]) / fabs(g->y[r]);
		sum += ws->ape[r];
	}
	mean = to > from ? sum / n : NAN;
	if (var == NULL)
		return mean;
	for (size_t r = from; r < to; r++) {
		size_t q = g->cfg[r];
		if (!ws->seen[q])
			ws->seen[q] = 1, ws->touched[nc++] = q;
		ws->cluster[q] += ws->ape[r] - mean;
	}
	for (size_t i = 0; i < nc; i++) {
		size_t q = ws->touched[i];
		ss += ws->cluster[q] * ws->cluster[q];
		ws->cluster[q] = 0;
		ws->seen[q] = 0;
	}
	*var = nc > 1 ? (double)nc / (double)(nc - 1) * ss / (n * n) : 0;
	return mean;
}

/* AICc of a fit with loss chisqr and k constants on n rows (stats.h);
 * +INFINITY when n <= k + 1. */
static double
aicc_of(double chisqr, size_t n, size_t k)
{
	double dn = (double)n, dk = (double)k;

	if (n <= k + 1)
		return INFINITY;
	if (!(chisqr > 1e-300))
		chisqr = 1e-300;
	return dn * log(chisqr / dn) + 2 * dk +
	       2 * dk * (dk + 1) / (dn - dk - 1);
}

/* What scoring a formula gives. */
typedef struct score {
	double score, se, mape, aicc, chisqr;
	int valid;
	/* a term's constant is 0 on every row: the formula without it
	 * gives the same predictions with fewer constants */
	int redundant;
} score;

/*
 * The score of a formula whose folds' MAPE sum to sum (percent) and
 * whose fit x on every row has loss chisqr, columns cols[0..k) and kp
 * constants.  se (0 unless the folds' MAPE are asked for) sums the
 * folds' standard errors of the mean: their standard error is their
 * mean, not the root mean square over F, because the folds predict
 * overlapping rows (the top level's in every fold).
 * With detail, the loss is recomputed row by row (the sum from the Gram
 * matrices is enough to rank) and the MAPE on every row found too.
 */
static score
finish(const grammar *g, const double *const *cols, size_t k, size_t kp,
       const double *x, double sum, double se, double chisqr, int detail)
{
	double ape = 0, F = (double)g->ch.nfolds;
	score sc = {INFINITY, NAN, NAN, INFINITY, NAN, 0, 0};

	for (size_t r = 0; detail && r < g->rows; r++) {
		double v = 0;
		if (r == 0)
			chisqr = 0;
		for (size_t a = 0; a < k; a++)
			v += x[a] * cols[a][r];
		chisqr += g->w[r] * (v - g->y[r]) * (v - g->y[r]);
		ape += fabs(v - g->y[r]) / fabs(g->y[r]);
	}
	sc.score = sum / F;
	sc.se = 100 * se / F;
	sc.mape = detail ? 100 * ape / (double)g->rows : NAN;
	sc.chisqr = chisqr;
	sc.aicc = aicc_of(chisqr, g->rows, kp);
	sc.valid = isfinite(sc.score) && isfinite(chisqr);
	if (!sc.valid)
		sc.score = INFINITY;
	for (size_t a = 1; a < k; a++)
		sc.redundant |= x[a] == 0;
	return sc;
}

/* score_linear's work once the level Gram matrices are in ws. */
static score
score_grams(const grammar *g, workspace *ws, const double *const *cols,
            size_t k, double *fold, double *c)
{
	double S[MAXC * MAXC] = {0}, t[MAXC] = {0}, x[MAXC];
	double sum = 0, se = 0, yy = 0;
	size_t f = 0, L = g->ch.nlevels;

	for (size_t l = 0; l < L; l++) {
		accumulate(ws, l, k, S, t);
		if (f < g->ch.nfolds && g->ch.last[f] == l) {
			double e, v = 0;
			nnls(k, S, t, x);
			e = 100 * mean_ape(g, ws, cols, k, x,
			                   g->ch.start[l + 1], g->rows,
			                   fold != NULL ? &v : NULL);
			if (fold != NULL)
				fold[f] = e;
			sum += e;
			se += sqrt(v);
			f++;
		}
	}
	nnls(k, S, t, x);
	if (c != NULL)
		memcpy(c, x, k * sizeof *c);
	for (size_t l = 0; l < L; l++)
		yy += g->yy[l];
	return finish(g, cols, k, k, x, sum, se, gram_loss(k, S, t, yy, x),
	              c != NULL);
}

/*
 * Score the linear formula with columns cols[0..k): each fold's fit
 * (levels up to last[f]) predicts the rows above; then the fit on every
 * row.  fold (may be NULL) gets each fold's MAPE, c (may be NULL) the
 * constants of the fit on every row.
 */
static score
score_linear(const grammar *g, workspace *ws, const double *const *cols,
             size_t k, double *fold, double *c)
{
	level_grams(g, ws, cols, k, g->ch.nlevels - 1);
	return score_grams(g, ws, cols, k, fold, c);
}

/* ---- formulas: linear ones and their variants -------------------------- */

enum { VARIANT_NONE, VARIANT_OVERLAP, VARIANT_EXPONENT };

/*
 * A formula: the start-up plus the shapes atom[0..nterms) (ascending).
 * An overlap turns terms a and b into max(c_a s_a, c_b s_b), evaluated
 * as c_a max(s_a, theta s_b) with theta = c_b / c_a in [lo, hi]; an
 * exponent variant replaces factor b of term a's exponent by theta in
 * [lo, hi].
 */
typedef struct entry {
	uint32_t atom[SF_DISCOVER_MAX_TERMS];
	unsigned char nterms, variant, a, b;
	double lo, hi;
	size_t k;    /* fitted constants */
	size_t cost; /* how complicated its shapes read (factor_cost) */
	/* the formula it extends by shape added, SIZE_MAX for none */
	size_t parent;
	uint32_t added;
	score sc;
} entry;

/* The columns of e (the variant's, if any, last and left NULL); returns
 * how many. */
static size_t
entry_columns(const grammar *g, const entry *e, const double **cols)
{
	size_t k = 0;

	cols[k++] = g->ones;
	for (size_t q = 0; q < e->nterms; q++) {
		if (e->variant == VARIANT_OVERLAP && (q == e->a || q == e->b))
			continue;
		if (e->variant == VARIANT_EXPONENT && q == e->a)
			continue;
		cols[k++] = g->col + (size_t)e->atom[q] * g->rows;
	}
	if (e->variant != VARIANT_NONE)
		cols[k++] = NULL;
	return k;
}

/* The variant's column at theta, rows [0, rows). */
static void
variant_column(const grammar *g, const entry *e, double theta, double *out,
               size_t rows)
{
	const double *u = g->col + (size_t)e->atom[e->a] * g->rows;

	if (e->variant == VARIANT_OVERLAP) {
		const double *v = g->col + (size_t)e->atom[e->b] * g->rows;
		for (size_t r = 0; r < rows; r++)
			out[r] = u[r] > theta * v[r] ? u[r] : theta * v[r];
	} else {
		const factor *f = &g->shapes[e->atom[e->a]].f[e->b];
		const double *x = g->x + (size_t)f->input * g->rows;
		for (size_t r = 0; r < rows; r++)
			out[r] = u[r] * pow(x[r], theta - f->i);
	}
}

/*
 * Fit the variant at theta on levels 0..L: constants into c, the loss
 * returned, cols[k - 1] pointing at its column, computed for rows
 * [0, rows) (at least those levels).  ws->G holds the level Gram
 * matrices of the other columns (score_variant computes them once), so
 * only the variant's column's products are summed here.
 */
static double
variant_fit(const grammar *g, workspace *ws, const entry *e,
            const double **cols, size_t k, double theta, size_t L, size_t rows,
            double *c)
{
	double S[MAXC * MAXC] = {0}, t[MAXC] = {0}, row[MAXC] = {0};
	double yy = 0, hz = 0, loss;
	size_t kp = k - 1, end = g->ch.start[L + 1];
	const double *z = ws->z;

	variant_column(g, e, theta, ws->z, rows);
	cols[kp] = ws->z;
	for (size_t l = 0; l <= L; l++) {
		accumulate(ws, l, kp, S, t);
		yy += g->yy[l];
	}
	for (size_t r = 0; r < end; r++) {
		double wz = g->w[r] * z[r];
		for (size_t a = 0; a < kp; a++)
			row[a] += wz * cols[a][r];
		row[kp] += wz * z[r];
		hz += wz * g->y[r];
	}
	for (size_t a = 0; a < kp; a++)
		S[kp * MAXC + a] = S[a * MAXC + kp] = row[a];
	S[kp * MAXC + kp] = row[kp];
	t[kp] = hz;
	nnls(k, S, t, c);
	loss = gram_loss(k, S, t, yy, c);
	return isfinite(loss) ? loss : INFINITY;
}

/* The theta in [lo, hi] that fits levels 0..L best: the best of a grid
 * (geometric for an overlap's ratio), refined by golden sections between
 * its neighbours. */
static double
variant_best(const grammar *g, workspace *ws, const entry *e,
             const double **cols, size_t k, size_t L)
{
	const int geometric = e->variant == VARIANT_OVERLAP;
	const double lo = geometric ? log(e->lo) : e->lo;
	const double hi = geometric ? log(e->hi) : e->hi;
	const double phi = (sqrt(5.0) - 1) / 2;
	double c[MAXC], best = INFINITY, at = lo, a, b, x1, x2, f1, f2;
	const size_t end = g->ch.start[L + 1];
	size_t bi = 0;

#define THETA(u) (geometric ? exp(u) : (u))
	for (size_t q = 0; q < PROFILE_GRID; q++) {
		double u = lo + (hi - lo) * (double)q / (PROFILE_GRID - 1);
		double loss =
		    variant_fit(g, ws, e, cols, k, THETA(u), L, end, c);
		if (loss < best)
			best = loss, at = u, bi = q;
	}
	a = lo + (hi - lo) * (double)(bi > 0 ? bi - 1 : 0) / (PROFILE_GRID - 1);
	b = lo + (hi - lo) * (double)(bi + 1 < PROFILE_GRID ? bi + 1 : bi) /
	             (PROFILE_GRID - 1);
	x1 = b - phi * (b - a);
	x2 = a + phi * (b - a);
	f1 = variant_fit(g, ws, e, cols, k, THETA(x1), L, end, c);
	f2 = variant_fit(g, ws, e, cols, k, THETA(x2), L, end, c);
	for (size_t q = 0; q < PROFILE_STEPS; q++) {
		if (f1 < f2) {
			b = x2, x2 = x1, f2 = f1;
			x1 = b - phi * (b - a);
			f1 = variant_fit(g, ws, e, cols, k, THETA(x1), L, end,
			                 c);
		} else {
			a = x1, x1 = x2, f1 = f2;
			x2 = a + phi * (b - a);
			f2 = variant_fit(g, ws, e, cols, k, THETA(x2), L, end,
			                 c);
		}
	}
	if (f1 < best)
		best = f1, at = x1;
	if (f2 < best)
		at = x2;
	return THETA(at);
#undef THETA
}

/* Score a variant as score_linear does a linear formula, its constant
 * fitted anew for every fold; theta (may be NULL) gets the value on every
 * row. */
static score
score_variant(const grammar *g, workspace *ws, const entry *e, double *fold,
              double *c, double *theta)
{
	const double *cols[MAXC];
	size_t k = entry_columns(g, e, cols), L = g->ch.nlevels;
	double x[MAXC], sum = 0, se = 0, th, loss;
	score sc;

	level_grams(g, ws, cols, k - 1, L - 1);
	for (size_t f = 0; f < g->ch.nfolds; f++) {
		size_t l = g->ch.last[f];
		double err, v = 0;

		th = variant_best(g, ws, e, cols, k, l);
		variant_fit(g, ws, e, cols, k, th, l, g->rows, x);
		err = 100 * mean_ape(g, ws, cols, k, x, g->ch.start[l + 1],
		                     g->rows, fold != NULL ? &v : NULL);
		if (fold != NULL)
			fold[f] = err;
		sum += err;
		se += sqrt(v);
	}
	th = variant_best(g, ws, e, cols, k, L - 1);
	loss = variant_fit(g, ws, e, cols, k, th, L - 1, g->rows, x);
	if (c != NULL)
		memcpy(c, x, k * sizeof *c);
	if (theta != NULL)
		*theta = th;
	sc = finish(g, cols, k, e->k, x, sum, se, loss, c != NULL);
	if (e->variant == VARIANT_OVERLAP) {
		/* one side never wins: the max is the other term alone */
		const double *u = g->col + (size_t)e->atom[e->a] * g->rows;
		const double *v = g->col + (size_t)e->atom[e->b] * g->rows;
		size_t first = 0, second = 0;

		for (size_t r = 0; r < g->rows; r++) {
			first += u[r] > th * v[r];
			second += th * v[r] > u[r];
		}
		sc.redundant |= first == 0 || second == 0;
	}
	return sc;
}

/* Score e; fold, c and theta as above (each may be NULL). */
static void
evaluate(const grammar *g, workspace *ws, entry *e, double *fold, double *c,
         double *theta)
{
	const double *cols[MAXC];
	size_t k;

	if (e->variant != VARIANT_NONE) {
		e->sc = score_variant(g, ws, e, fold, c, theta);
		return;
	}
	k = entry_columns(g, e, cols);
	e->sc = score_linear(g, ws, cols, k, fold, c);
	/* The AICc counts the constants, which the columns are here. */
}

/* ---- the search ------------------------------------------------------- */

typedef struct search {
	const grammar *g;
	const setup *st;
	entry *e;
	size_t n, cap;
	uint64_t *key; /* open addressing over linear formulas */
	size_t *slot, hcap;
	int threads;
	workspace *ws;
	/* the level Gram matrices of the parents of the formulas being
	 * scored (nparents slots), shared by the threads */
	workspace *parents;
	size_t *parent_of, nparents;
	size_t *parent_slot; /* per formula being scored */
	int budget_reached;
} search;

static uint64_t
atoms_hash(const uint32_t *atom, size_t n)
{
	uint64_t h = 1469598103934665603u ^ n;

	for (size_t q = 0; q < n; q++)
		h = (h ^ atom[q]) * 1099511628211u;
	return h ^ (h >> 29);
}

static int
grow_hash(search *s)
{
	size_t cap = s->hcap ? 2 * s->hcap : 4096;
	uint64_t *key = malloc(cap * sizeof *key);
	size_t *slot = malloc(cap * sizeof *slot);

	if (key == NULL || slot == NULL) {
		free(key);
		free(slot);
		return -1;
	}
	for (size_t t = 0; t < cap; t++)
		slot[t] = SIZE_MAX;
	for (size_t t = 0; t < s->hcap; t++) {
		size_t u;
		if (s->slot[t] == SIZE_MAX)
			continue;
		for (u = s->key[t] & (cap - 1); slot[u] != SIZE_MAX;
		     u = (u + 1) & (cap - 1))
			;
		key[u] = s->key[t];
		slot[u] = s->slot[t];
	}
	free(s->key);
	free(s->slot);
	s->key = key;
	s->slot = slot;
	s->hcap = cap;
	return 0;
}

/* The linear formula of atoms (ascending): its index, added (*added =
 * 1) unless it was seen; SIZE_MAX when out of memory. */
static size_t
add_formula(search *s, const uint32_t *atom, size_t n, int *added)
{
	uint64_t h = atoms_hash(atom, n);
	size_t t;
	entry *e;

	*added = 0;
	if (2 * (s->n + 1) > s->hcap && grow_hash(s) != 0)
		return SIZE_MAX;
	for (t = h & (s->hcap - 1); s->slot[t] != SIZE_MAX;
	     t = (t + 1) & (s->hcap - 1)) {
		const entry *o = &s->e[s->slot[t]];
		if (s->key[t] == h && o->variant == VARIANT_NONE &&
		    o->nterms == n &&
		    memcmp(o->atom, atom, n * sizeof *atom) == 0)
			return s->slot[t];
	}
	if (s->n == s->cap) {
		size_t cap = s->cap ? 2 * s->cap : 1024;
		entry *grown = realloc(s->e, cap * sizeof *grown);
		if (grown == NULL)
			return SIZE_MAX;
		s->e = grown;
		s->cap = cap;
	}
	e = &s->e[s->n];
	memset(e, 0, sizeof *e);
	memcpy(e->atom, atom, n * sizeof *atom);
	e->nterms = (unsigned char)n;
	e->k = n + 1;
	e->parent = SIZE_MAX;
	for (size_t q = 0; q < n; q++)
		e->cost += (size_t)(s->g->shapes[atom[q]].cost +
		                    s->g->shapes[atom[q]].count);
	s->key[t] = h;
	s->slot[t] = s->n;
	*added = 1;
	return s->n++;
}

/*
 * Score child e, whose parent's level Gram matrices (kp columns pcols)
 * are in P: each level's matrix gains the products of the child's new
 * column, the last.
 */
static void
evaluate_child(const grammar *g, workspace *ws, const workspace *P,
               const double *const *pcols, size_t kp, entry *e)
{
	const double *cols[MAXC], *x;
	size_t L = g->ch.nlevels;

	memcpy(cols, pcols, kp * sizeof *cols);
	x = cols[kp] = g->col + (size_t)e->added * g->rows;
	for (size_t l = 0; l < L; l++) {
		const double *PG = P->G + l * MAXC * MAXC,
		             *ph = P->h + l * MAXC;
		double *G = ws->G + l * MAXC * MAXC, *h = ws->h + l * MAXC;
		double row[MAXC] = {0}, hx = 0;

		for (size_t a = 0; a < kp; a++) {
			memcpy(G + a * MAXC, PG + a * MAXC, kp * sizeof *G);
			h[a] = ph[a];
		}
		for (size_t r = g->ch.start[l]; r < g->ch.start[l + 1]; r++) {
			double wx = g->w[r] * x[r];
			for (size_t a = 0; a < kp; a++)
				row[a] += wx * pcols[a][r];
			row[kp] += wx * x[r];
			hx += wx * g->y[r];
		}
		for (size_t a = 0; a < kp; a++)
			G[kp * MAXC + a] = G[a * MAXC + kp] = row[a];
		G[kp * MAXC + kp] = row[kp];
		h[kp] = hx;
	}
	e->sc = score_grams(g, ws, cols, kp + 1, NULL, NULL);
}

/*
 * Score entries [a, b) of the range that starts at from in parallel, each
 * by one thread, so that the scores do not depend on how many there are;
 * s->parent_slot holds the range's parents (evaluate_range).
 */
static void
score_entries(search *s, size_t from, size_t a, size_t b)
{
	const grammar *g = s->g;
	const size_t *slot = s->parent_slot;
	long n = (long)(b - a);

#ifdef _OPENMP
#pragma omp parallel for num_threads(s->threads) schedule(dynamic, 16)
#endif
	for (long q = 0; q < n; q++) {
		entry *e = &s->e[a + (size_t)q];
		size_t k = slot[a + (size_t)q - from];
		int t = 0;

#ifdef _OPENMP
		t = omp_get_thread_num();
#endif
		if (k != SIZE_MAX) {
			const double *pcols[MAXC];
			size_t kp =
			    entry_columns(g, &s->e[s->parent_of[k]], pcols);
			evaluate_child(g, &s->ws[t], &s->parents[k], pcols, kp,
			               e);
		} else {
			evaluate(g, &s->ws[t], e, NULL, NULL, NULL);
		}
	}
}

/*
 * A range of formulas to score as units of work (base/units.h): unit u is
 * entries [from + u per, from + (u + 1) per) (the last one shorter), its
 * result their scores, copied as bytes.
 */
typedef struct range_units {
	search *s;
	size_t from, to, per;
} range_units;

/* A range is cut into UNITS_PER_RANK units per rank of an MPI job, of at
 * least UNIT_MIN formulas: enough for the queue to balance the ranks, few
 * enough that each unit's threads share a sizeable loop.  A range of
 * fewer than SPREAD_MIN formulas (the start-up alone, one parent's
 * children) is scored where it is, by every rank: a collective step
 * would cost more.  Without ranks to spread over, a range is one loop. */
enum { UNITS_PER_RANK = 16, UNIT_MIN = 8, SPREAD_MIN = 128 };

static int
range_unit(void *ctx, size_t u, char **out, size_t *size, sf_error *err)
{
	const range_units *c = ctx;
	size_t a = c->from + u * c->per;
	size_t b = c->to - a < c->per ? c->to : a + c->per;
	score *v = malloc((b - a) * sizeof *v + 1);

	if (v == NULL)
		return sf_error_set(err, SF_ENOMEM, "out of memory");
	score_entries(c->s, c->from, a, b);
	for (size_t i = a; i < b; i++)
		v[i - a] = c->s->e[i].sc;
	*out = (char *)v;
	*size = (b - a) * sizeof *v;
	return SF_OK;
}

/*
 * Score entries [from, to).  A formula that extends a parent by one shape
 * starts from the parent's level Gram matrices, computed once per parent
 * (in s->parents, at most s->nparents) first, by every rank.  A large
 * range is scored as units of work, spread over an MPI job's ranks; each
 * formula's score is the same bytes whichever rank and thread computed
 * it.  Returns SF_OK or an error (out of memory; another rank stopped).
 */
static int
evaluate_range(search *s, size_t from, size_t to, sf_error *err)
{
	const grammar *g = s->g;
	size_t np = 0, *slot = s->parent_slot, nunits;
	range_units c = {s, from, to, 0};
	char **results = NULL;
	size_t *sizes = NULL;
	int rc;

	for (size_t i = from; i < to; i++) {
		size_t p = s->e[i].parent, q;

		slot[i - from] = SIZE_MAX;
		if (p == SIZE_MAX)
			continue;
		for (q = 0; q < np && s->parent_of[q] != p; q++)
			;
		if (q == np && np < s->nparents) {
			const double *pcols[MAXC];
			size_t kp = entry_columns(g, &s->e[p], pcols);

			level_grams(g, &s->parents[np], pcols, kp,
			            g->ch.nlevels - 1);
			s->parent_of[np++] = p;
		}
		if (q < np)
			slot[i - from] = q;
	}
	if (to - from < SPREAD_MIN || !sf_units_spread()) {
		score_entries(s, from, from, to);
		return SF_OK;
	}
	nunits = UNITS_PER_RANK * (size_t)sf_units_ranks();
	c.per = (to - from + nunits - 1) / nunits;
	if (c.per < UNIT_MIN)
		c.per = UNIT_MIN;
	nunits = (to - from + c.per - 1) / c.per;
	results = calloc(nunits, sizeof *results);
	sizes = calloc(nunits, sizeof *sizes);
	if (results == NULL || sizes == NULL) {
		free(results);
		free(sizes);
		return sf_error_set(err, SF_ENOMEM, "out of memory");
	}
	if ((rc = sf_units_run(nunits, range_unit, &c, results, sizes, err)) ==
	    SF_OK)
		for (size_t u = 0; u < nunits; u++)
			for (size_t i = 0; i < sizes[u] / sizeof(score); i++)
				memcpy(&s->e[from + u * c.per + i].sc,
				       results[u] + i * sizeof(score),
				       sizeof(score));
	for (size_t u = 0; u < nunits; u++)
		free(results[u]);
	free(results);
	free(sizes);
	return rc;
}

/* An index with the keys it is ranked by. */
typedef struct ranked {
	double score, se, aicc;
	size_t k, cost, index;
	int tied;
	int supported; /* tied, its AICc within 10 of its k's lowest */
} ranked;

/* By score, then AICc, then place in the search. */
static int
by_score(const void *a, const void *b)
{
	const ranked *x = a, *y = b;

	if (x->score != y->score)
		return x->score < y->score ? -1 : 1;
	if (x->aicc != y->aicc)
		return x->aicc < y->aicc ? -1 : 1;
	return x->index < y->index ? -1 : x->index > y->index;
}

/*
 * The selection rule: the tied first, the simplest first - fewer
 * constants; then, among as many constants, those whose AICc is within
 * 10 of the lowest (Burnham and Anderson: beyond 10 a formula has
 * essentially no support; closer than that, the rows do not tell them
 * apart), by simpler shapes, then AICc - then the rest by score.
 */
static int
by_rule(const void *a, const void *b)
{
	const ranked *x = a, *y = b;

	if (x->tied != y->tied)
		return x->tied ? -1 : 1;
	if (!x->tied)
		return by_score(a, b);
	if (x->k != y->k)
		return x->k < y->k ? -1 : 1;
	if (x->supported != y->supported)
		return x->supported ? -1 : 1;
	if (x->cost != y->cost)
		return x->cost < y->cost ? -1 : 1;
	if (x->aicc != y->aicc)
		return x->aicc < y->aicc ? -1 : 1;
	return by_score(a, b);
}

static ranked
rank_of(const entry *e, size_t index)
{
	ranked r = {e->sc.score, e->sc.se, e->sc.aicc, e->k,
	            e->cost,     index,    0,          0};

	if (!(r.aicc == r.aicc))
		r.aicc = INFINITY;
	return r;
}

/* By AICc on the training rows, then place in the search. */
static int
by_aicc(const void *a, const void *b)
{
	const ranked *x = a, *y = b;

	if (x->aicc != y->aicc)
		return x->aicc < y->aicc ? -1 : 1;
	return x->index < y->index ? -1 : x->index > y->index;
}

/*
 * The beam: the width best of entries [from, to) by score, and the width
 * best by AICc not among them (up to 2 width in all).  The score chooses
 * the formula; the AICc, which sees every row rather than the folds'
 * predictions, is the surer guide to which terms are missing: a formula
 * lacking one of two large terms can extrapolate worse than a wrong one
 * that mimics both, and then only the AICc keeps it to be completed.
 */
static size_t
choose_beam(const search *s, const size_t *list, size_t n, size_t *beam,
            ranked *scratch)
{
	size_t width = s->st->beam, nscore = 0, naicc = 0, kept = 0;
	ranked *by_s = scratch, *by_a = scratch + width + 1;
	const size_t awidth = 2 * width; /* width more than the score's */

	/* the width best of each order, by insertion: the lists are long */
	for (size_t i = 0; i < n; i++) {
		ranked x;
		size_t at;

		if (!s->e[list[i]].sc.valid)
			continue;
		x = rank_of(&s->e[list[i]], list[i]);
		for (at = nscore; at > 0 && by_score(&x, &by_s[at - 1]) < 0;
		     at--)
			;
		if (at < width) {
			nscore -= nscore == width;
			memmove(by_s + at + 1, by_s + at,
			        (nscore - at) * sizeof *by_s);
			by_s[at] = x;
			nscore++;
		}
		for (at = naicc; at > 0 && by_aicc(&x, &by_a[at - 1]) < 0; at--)
			;
		if (at < awidth) {
			naicc -= naicc == awidth;
			memmove(by_a + at + 1, by_a + at,
			        (naicc - at) * sizeof *by_a);
			by_a[at] = x;
			naicc++;
		}
	}
	for (size_t i = 0; i < nscore; i++)
		beam[kept++] = by_s[i].index;
	for (size_t i = 0; i < naicc && kept < nscore + width; i++) {
		int seen = 0;
		for (size_t q = 0; q < nscore && !seen; q++)
			seen = beam[q] == by_a[i].index;
		if (!seen)
			beam[kept++] = by_a[i].index;
	}
	return kept;
}

static int
index_compare(const void *a, const void *b)
{
	size_t x = *(const size_t *)a, y = *(const size_t *)b;

	return x < y ? -1 : x > y;
}

/*
 * One stage of the search: a beam search over the number of terms from
 * the start-up alone, with the shapes of at most max_factors factors.
 * Formulas scored by an earlier stage are not scored again, but compete
 * for the beam; and the earlier stage's beam of each level (carry, with
 * ncarry[level] members) stays in this stage's, so that sums of simple
 * shapes are completed even where products of factors that mimic a sum
 * of them fit better with fewer terms.  This stage's beams go to carry.
 */
static int
beam_stage(search *s, int max_factors, size_t **carry, size_t *ncarry,
           sf_error *err)
{
	const grammar *g = s->g;
	size_t width = 2 * s->st->beam, nbeam = 1, *list = NULL, nlist;
	size_t cap = 2 * width + 1;
	size_t *beam = malloc(cap * sizeof *beam);
	ranked *scratch = NULL;
	uint32_t atoms[SF_DISCOVER_MAX_TERMS];
	int rc = SF_OK, added;

	list = malloc((cap * g->nshapes + 1) * sizeof *list);
	scratch = malloc((3 * width + 2) * sizeof *scratch);
	if (beam == NULL || list == NULL || scratch == NULL ||
	    (beam[0] = add_formula(s, atoms, 0, &added)) == SIZE_MAX) {
		rc = sf_error_set(err, SF_ENOMEM, "out of memory");
		goto done;
	}
	if (added && (rc = evaluate_range(s, beam[0], s->n, err)) != SF_OK)
		goto done;
	for (size_t level = 1; level <= s->st->max_terms; level++) {
		size_t from = s->n;

		/* more constants than the first fold has configurations */
		if (level + 1 > g->min_configs)
			break;
		nlist = 0;
		for (size_t p = 0; p < nbeam && !s->budget_reached; p++) {
			const entry parent = s->e[beam[p]];

			for (uint32_t a = 0; a < g->nshapes; a++) {
				size_t q = 0, n = 0, i;

				if (g->shapes[a].nfactors > max_factors)
					continue;
				if (s->n >= s->st->budget) {
					s->budget_reached = 1;
					break;
				}
				while (q < parent.nterms && parent.atom[q] < a)
					atoms[n++] = parent.atom[q++];
				if (q < parent.nterms && parent.atom[q] == a)
					continue;
				atoms[n++] = a;
				while (q < parent.nterms)
					atoms[n++] = parent.atom[q++];
				if ((i = add_formula(s, atoms, n, &added)) ==
				    SIZE_MAX) {
					rc = sf_error_set(err, SF_ENOMEM,
					                  "out of memory");
					goto done;
				}
				if (added) {
					s->e[i].parent = beam[p];
					s->e[i].added = a;
				}
				list[nlist++] = i;
			}
		}
		if (nlist == 0)
			break;
		if ((rc = evaluate_range(s, from, s->n, err)) != SF_OK)
			goto done;
		/* a formula two parents make is one candidate */
		qsort(list, nlist, sizeof *list, index_compare);
		{
			size_t u = 0;
			for (size_t i = 0; i < nlist; i++)
				if (u == 0 || list[u - 1] != list[i])
					list[u++] = list[i];
			nlist = u;
		}
		nbeam = choose_beam(s, list, nlist, beam, scratch);
		for (size_t c = 0; c < ncarry[level] && nbeam < cap; c++) {
			int seen = 0;
			for (size_t q = 0; q < nbeam && !seen; q++)
				seen = beam[q] == carry[level][c];
			if (!seen)
				beam[nbeam++] = carry[level][c];
		}
		memcpy(carry[level], beam, nbeam * sizeof *beam);
		ncarry[level] = nbeam;
		if (nbeam == 0 || s->budget_reached)
			break;
	}
done:
	free(beam);
	free(list);
	free(scratch);
	return rc;
}

/* The search: a stage with one-factor shapes, then one with up to two,
 * and so on to `factors`, so that sums of simple shapes get their own
 * chance before products of factors, which can mimic a sum well enough
 * to crowd its parts out of a beam. */
static int
beam_search(search *s, sf_error *err)
{
	size_t cap = 4 * s->st->beam + 1, levels = s->st->max_terms + 1;
	size_t **carry = calloc(levels, sizeof *carry);
	size_t *ncarry = calloc(levels, sizeof *ncarry);
	int rc = SF_OK;

	for (size_t l = 0; carry != NULL && l < levels; l++)
		if ((carry[l] = malloc(cap * sizeof **carry)) == NULL)
			rc = SF_ENOMEM;
	if (carry == NULL || ncarry == NULL || rc != SF_OK)
		rc = sf_error_set(err, SF_ENOMEM, "out of memory");
	for (size_t f = 1; f <= s->st->factors && rc == SF_OK; f++)
		rc = beam_stage(s, (int)f, carry, ncarry, err);
	for (size_t l = 0; carry != NULL && l < levels; l++)
		free(carry[l]);
	free(carry);
	free(ncarry);
	return rc;
}

/*
 * The formulas that replace term q of base by each other shape.  The
 * formula without term q is their parent: it is scored first if it was
 * not, and they start from its Gram matrices.
 */
static int
swap_term(search *s, const entry *base, size_t q, sf_error *err)
{
	const grammar *g = s->g;
	uint32_t rest[SF_DISCOVER_MAX_TERMS], atoms[SF_DISCOVER_MAX_TERMS];
	size_t m = 0, sub, i;
	int added, rc;

	for (size_t z = 0; z < base->nterms; z++)
		if (z != q)
			rest[m++] = base->atom[z];
	if ((sub = add_formula(s, rest, m, &added)) == SIZE_MAX)
		return sf_error_set(err, SF_ENOMEM, "out of memory");
	if (added && (rc = evaluate_range(s, sub, s->n, err)) != SF_OK)
		return rc;
	for (uint32_t a = 0; a < g->nshapes; a++) {
		size_t n = 0, r = 0;

		if (a == base->atom[q])
			continue;
		if (s->n >= s->st->budget) {
			s->budget_reached = 1;
			break;
		}
		while (r < m && rest[r] < a)
			atoms[n++] = rest[r++];
		if (r < m && rest[r] == a)
			continue;
		atoms[n++] = a;
		while (r < m)
			atoms[n++] = rest[r++];
		if ((i = add_formula(s, atoms, n, &added)) == SIZE_MAX)
			return sf_error_set(err, SF_ENOMEM, "out of memory");
		if (added) {
			s->e[i].parent = sub;
			s->e[i].added = a;
		}
	}
	return SF_OK;
}

/* The SWAP_WIDTH formulas of nterms terms with the lowest AICc (ties to
 * the earlier) into top; returns how many. */
static size_t
lowest_aicc(const search *s, size_t nterms, ranked *top)
{
	size_t ntop = 0;

	for (size_t i = 0; i < s->n; i++) {
		const entry *e = &s->e[i];
		ranked x = rank_of(e, i);
		size_t at = ntop;

		if (e->variant != VARIANT_NONE || e->nterms != nterms ||
		    !e->sc.valid)
			continue;
		while (at > 0 && by_aicc(&x, &top[at - 1]) < 0)
			at--;
		if (at == SWAP_WIDTH)
			continue;
		if (ntop == SWAP_WIDTH)
			ntop--;
		memmove(top + at + 1, top + at, (ntop - at) * sizeof *top);
		top[at] = x;
		ntop++;
	}
	return ntop;
}

/*
 * Swaps: the SWAP_WIDTH formulas of each number of terms with the lowest
 * AICc, each with one term replaced by every other shape, SWAP_ROUNDS
 * times over.  A beam adds a term at a time and keeps what fits best so
 * far, so a term that stood in for two others until one of them arrived
 * is never taken back; a swap takes it back.
 */
static int
swap_search(search *s, sf_error *err)
{
	ranked top[SWAP_WIDTH];
	int rc = SF_OK;

	for (size_t terms = 2; terms <= s->st->max_terms; terms++)
		for (int round = 0; round < SWAP_ROUNDS; round++) {
			size_t ntop = lowest_aicc(s, terms, top), from = s->n;

			for (size_t t = 0; t < ntop && rc == SF_OK; t++) {
				const entry base = s->e[top[t].index];
				for (size_t q = 0; q < terms && rc == SF_OK;
				     q++)
					rc = swap_term(s, &base, q, err);
			}
			if (rc != SF_OK)
				return rc;
			if (s->n == from)
				break;
			if ((rc = evaluate_range(s, from, s->n, err)) != SF_OK)
				return rc;
		}
	return SF_OK;
}

/* Append a variant of entry base. */
static int
add_variant(search *s, size_t base, int variant, size_t a, size_t b, double lo,
            double hi)
{
	entry *e;

	if (s->n == s->cap) {
		size_t cap = s->cap ? 2 * s->cap : 1024;
		entry *grown = realloc(s->e, cap * sizeof *grown);
		if (grown == NULL)
			return -1;
		s->e = grown;
		s->cap = cap;
	}
	e = &s->e[s->n++];
	*e = s->e[base];
	e->variant = (unsigned char)variant;
	e->parent = SIZE_MAX;
	e->a = (unsigned char)a;
	e->b = (unsigned char)b;
	e->lo = lo;
	e->hi = hi;
	/* an overlap keeps the count (two constants in the max); a fitted
	 * exponent adds one */
	e->k = e->nterms + 1 + (variant == VARIANT_EXPONENT);
	e->cost++;
	memset(&e->sc, 0, sizeof e->sc);
	return 0;
}

/* The overlaps of every pair of base's terms. */
static int
add_overlaps(search *s, size_t base)
{
	const grammar *g = s->g;
	const entry e = s->e[base];

	for (size_t a = 0; a < e.nterms; a++)
		for (size_t b = a + 1; b < e.nterms; b++) {
			const double *u = g->col + (size_t)e.atom[a] * g->rows;
			const double *v = g->col + (size_t)e.atom[b] * g->rows;
			double lo = INFINITY, hi = 0;

			for (size_t r = 0; r < g->rows; r++)
				if (u[r] > 0 && v[r] > 0) {
					double q = u[r] / v[r];
					lo = q < lo ? q : lo;
					hi = q > hi ? q : hi;
				}
			/* proportional: the max is one of them */
			if (!(lo < hi * (1 - 1e-9)) || s->n >= s->st->budget)
				continue;
			if (add_variant(s, base, VARIANT_OVERLAP, a, b, lo,
			                hi) != 0)
				return -1;
		}
	return 0;
}

/* Each grid exponent of base's terms fitted instead. */
static int
add_exponents(search *s, size_t base)
{
	const grammar *g = s->g;
	const entry e = s->e[base];

	for (size_t a = 0; a < e.nterms; a++) {
		const shape *sh = &g->shapes[e.atom[a]];

		for (int q = 0; q < sh->nfactors; q++) {
			const double *x =
			    g->x + (size_t)sh->f[q].input * g->rows;
			int positive = 1;

			for (size_t r = 0; r < g->rows; r++)
				positive &= x[r] > 0;
			if (sh->f[q].kind != FACTOR_POWER || !positive ||
			    e.k + 1 > g->min_configs || s->n >= s->st->budget)
				continue;
			if (add_variant(s, base, VARIANT_EXPONENT, a, (size_t)q,
			                sh->f[q].i - 0.5,
			                sh->f[q].i + 0.5) != 0)
				return -1;
		}
	}
	return 0;
}

/*
 * The non-linear variants: of the best formulas of each number of terms
 * (as the beam chooses them) the overlaps of their pairs of terms and,
 * when asked for, their fitted exponents; and the overlap of every pair
 * of the best single shapes, whose sum may have fitted too badly for a
 * beam to keep it (the max of two parts is not near their sum).
 */
static int
variants(search *s, sf_error *err)
{
	size_t linear = s->n, *best, nbest = 0, nsingle = 0, *list;
	size_t width = 2 * s->st->beam;
	ranked *scratch = malloc((3 * s->st->beam + 2) * sizeof *scratch);
	int added, rc;

	best = malloc((width * (s->st->max_terms + 1) + 1) * sizeof *best);
	list = malloc((linear + width * width + 1) * sizeof *list);
	if (scratch == NULL || best == NULL || list == NULL)
		goto oom;
	for (size_t terms = 1; terms <= s->st->max_terms; terms++) {
		size_t n = 0;
		for (size_t i = 0; i < linear; i++)
			if (s->e[i].variant == VARIANT_NONE &&
			    s->e[i].nterms == terms)
				list[n++] = i;
		n = choose_beam(s, list, n, best + nbest, scratch);
		if (terms == 1)
			nsingle = n;
		nbest += n;
	}
	/* the sums of pairs of the best singles, to overlap */
	if (s->st->overlap && s->st->max_terms >= 2 && s->g->min_configs >= 3) {
		size_t from = s->n, npairs = 0;

		for (size_t i = 0; i < nsingle; i++)
			for (size_t j = i + 1; j < nsingle; j++) {
				uint32_t a = s->e[best[i]].atom[0];
				uint32_t b = s->e[best[j]].atom[0];
				uint32_t pair[2] = {a < b ? a : b,
				                    a < b ? b : a};
				size_t k = add_formula(s, pair, 2, &added);

				if (k == SIZE_MAX)
					goto oom;
				list[npairs++] = k;
			}
		if ((rc = evaluate_range(s, from, s->n, err)) != SF_OK)
			goto fail;
		for (size_t i = 0; i < npairs; i++)
			if (add_overlaps(s, list[i]) != 0)
				goto oom;
	}
	for (size_t i = 0; i < nbest; i++)
		if ((s->st->overlap && add_overlaps(s, best[i]) != 0) ||
		    (s->st->continuous && add_exponents(s, best[i]) != 0))
			goto oom;
	free(best);
	free(list);
	free(scratch);
	return evaluate_range(s, linear, s->n, err);
oom:
	rc = sf_error_set(err, SF_ENOMEM, "out of memory");
fail:
	free(best);
	free(list);
	free(scratch);
	return rc;
}

/* ---- shapes as text --------------------------------------------------- */

/* An exponent as the expression language reads it back exactly: a small
 * fraction as (p/q), else the shortest decimal, in parentheses when it
 * has a sign or an exponent. */
static void
exponent_text(double e, char *out, size_t size)
{
	static const int denominators[] = {2, 3, 4, 6};
	char num[32];

	if (is_integer(e)) {
		snprintf(out, size, e < 0 ? "(%.0f)" : "%.0f", e);
		return;
	}
	for (size_t q = 0; q < sizeof denominators / sizeof *denominators;
	     q++) {
		double p = nearbyint(e * denominators[q]);
		if (p / denominators[q] == e) {
			snprintf(out, size, "(%.0f/%d)", p, denominators[q]);
			return;
		}
	}
	sf_format_double(num, sizeof num, e);
	if (strpbrk(num, "-e") != NULL)
		snprintf(out, size, "(%s)", num);
	else
		snprintf(out, size, "%s", num);
}

/* x^e for e > 0 (x for 1). */
static void
put_power(sf_text *b, const char *x, double e)
{
	char t[48];

	if (e == 1) {
		sf_text_printf(b, "%s", x);
		return;
	}
	exponent_text(e, t, sizeof t);
	sf_text_printf(b, "%s^%s", x, t);
}

/*
 * The shape as an expression over the inputs, "n * log2(p) / (p * b)":
 * the count and the factors' positive parts over their negative ones.
 * With name, factor `named` is written x^name (a fitted exponent).  With
 * coefficient, the text is the term: coefficient times the shape.
 */
static void
shape_text(sf_text *b, const sf_dataset *d, const setup *st, const shape *s,
           int named, const char *name, const char *coefficient)
{
	const char *num[2 * SF_DISCOVER_MAX_FACTORS + 2];
	double num_e[2 * SF_DISCOVER_MAX_FACTORS + 2];
	int num_log[2 * SF_DISCOVER_MAX_FACTORS + 2];
	const char *den[SF_DISCOVER_MAX_FACTORS];
	double den_e[SF_DISCOVER_MAX_FACTORS];
	size_t nn = 0, nd = 0;
	int first = 1;

	if (coefficient != NULL)
		num[nn] = coefficient, num_e[nn] = 1, num_log[nn++] = 0;
	if (s->count)
		num[nn] = d->inputs[st->count].name, num_e[nn] = 1,
		num_log[nn++] = 0;
	for (int q = 0; q < s->nfactors; q++) {
		const factor *f = &s->f[q];
		const char *x = d->inputs[f->input].name;

		if (q == named) {
			num[nn] = x, num_e[nn] = NAN, num_log[nn++] = 0;
		} else if (f->kind == FACTOR_COMM) {
			num[nn] = x, num_e[nn] = 0, num_log[nn++] = -1;
			if (f->i < 0)
				den[nd] = x, den_e[nd++] = -f->i;
			continue;
		} else if (f->i > 0) {
			num[nn] = x, num_e[nn] = f->i, num_log[nn++] = 0;
		} else if (f->i < 0) {
			den[nd] = x, den_e[nd++] = -f->i;
		}
		if (f->j > 0)
			num[nn] = x, num_e[nn] = f->j, num_log[nn++] = 1;
	}
	for (size_t q = 0; q < nn; q++) {
		sf_text_printf(b, "%s", first ? "" : " * ");
		first = 0;
		if (num_log[q] < 0)
			sf_text_printf(b, "(%s - 1)", num[q]);
		else if (num_log[q] > 0 && num_e[q] == 1)
			sf_text_printf(b, "log2(%s)", num[q]);
		else if (num_log[q] > 0)
			sf_text_printf(b, "log2(%s)^%.0f", num[q], num_e[q]);
		else if (isnan(num_e[q]))
			sf_text_printf(b, "%s^%s", num[q], name);
		else
			put_power(b, num[q], num_e[q]);
	}
	if (nn == 0)
		sf_text_printf(b, "1");
	if (nd == 0)
		return;
	sf_text_printf(b, " / %s", nd > 1 ? "(" : "");
	for (size_t q = 0; q < nd; q++) {
		sf_text_printf(b, "%s", q > 0 ? " * " : "");
		put_power(b, den[q], den_e[q]);
	}
	sf_text_printf(b, "%s", nd > 1 ? ")" : "");
}

/* What a shape says its term is: growing with the workers (a power or
 * log of p, p - 1) is communication; a count split over the workers is
 * compute, a count that is not is the input pipeline (io); without a
 * count, per-step work is compute. */
static sf_term_kind
shape_kind(const setup *st, const shape *s)
{
	int comm = 0, split = 0;

	for (int q = 0; q < s->nfactors; q++) {
		const factor *f = &s->f[q];
		if (f->input != st->workers)
			continue;
		if (f->kind == FACTOR_COMM || f->j > 0 || f->i > 0)
			comm = 1;
		else if (f->i < 0)
			split = 1;
	}
	if (comm)
		return SF_TERM_COMMUNICATION;
	if (s->count && !split)
		return SF_TERM_IO;
	return SF_TERM_COMPUTE;
}

static const char *
kind_word(sf_term_kind kind)
{
	switch (kind) {
	case SF_TERM_COMPUTE:
		return "compute";
	case SF_TERM_COMMUNICATION:
		return "comm";
	case SF_TERM_IO:
		return "io";
	case SF_TERM_OVERHEAD:
		return "overhead";
	default:
		return "other";
	}
}

/* ---- the board -------------------------------------------------------- */

static void
term_free(sf_discover_term *t)
{
	free(t->name);
	free(t->shape);
	free(t->expr);
	for (size_t q = 0; q < SF_DISCOVER_TERM_PARAMS; q++)
		free(t->param[q]);
}

static void
candidate_free(sf_discover_candidate *c)
{
	free(c->model);
	free(c->formula);
	for (size_t t = 0; t < c->nterms; t++)
		term_free(&c->terms[t]);
	free(c->terms);
	free(c->fold_mape);
}

void
sf_discover_result_free(sf_discover_result *r)
{
	if (r == NULL)
		return;
	free(r->extrapolate);
	free(r->train);
	free(r->count);
	free(r->workers);
	for (size_t i = 0; i < r->ninputs; i++)
		free(r->inputs[i]);
	free(r->inputs);
	free(r->levels);
	free(r->fold_last);
	free(r->fold_rows);
	for (size_t i = 0; i < r->nboard; i++)
		candidate_free(&r->board[i]);
	free(r->board);
	free(r);
}

/* An upper bound no fit will reach: a term of non-negative constants
 * cannot exceed the time of any row, so c <= min y / s over the rows
 * where s > 0; ten times that, rounded up to a power of 10. */
static double
upper_bound(const grammar *g, const double *s)
{
	double least = INFINITY;

	for (size_t r = 0; r < g->rows; r++)
		if (s[r] > 0 && g->y[r] / s[r] < least)
			least = g->y[r] / s[r];
	if (!(least > 0) || !isfinite(least))
		return 1;
	return pow(10, ceil(log10(10 * least)));
}

/* The formula for people: constants written in. */
static char *
formula_text(const sf_discover_candidate *c)
{
	sf_text b = SF_TEXT_INIT;

	for (size_t t = 0; t < c->nterms; t++) {
		const sf_discover_term *x = &c->terms[t];
		char v[32], w[32];
		const char *sh = x->shape;

		snprintf(v, sizeof v, "%.4g", x->value[0]);
		if (t > 0)
			sf_text_printf(&b, " + ");
		if (strncmp(sh, "max(", 4) == 0) {
			/* sh is "max(U, V)": the constants go in front */
			const char *u = sh + 4, *comma = strstr(sh, ", ");
			const char *second = comma + 2;
			int nu = (int)(comma - u), nv = (int)strlen(second) - 1;

			snprintf(w, sizeof w, "%.4g", x->value[1]);
			sf_text_printf(&b, "max(%s", v);
			if (u[0] == '1' && u[1] == ' ')
				sf_text_printf(&b, "%.*s, ", nu - 1, u + 1);
			else
				sf_text_printf(&b, " * %.*s, ", nu, u);
			sf_text_printf(&b, "%s", w);
			if (second[0] == '1' && second[1] == ' ')
				sf_text_printf(&b, "%.*s)", nv - 1, second + 1);
			else
				sf_text_printf(&b, " * %.*s)", nv, second);
		} else if (strcmp(sh, "1") == 0) {
			sf_text_printf(&b, "%s", v);
		} else if (x->nparams == 2) {
			/* x^e: the fitted exponent written in */
			char e[32];
			const char *at = strstr(sh, "^e_");
			snprintf(e, sizeof e, "%.3g", x->value[1]);
			sf_text_printf(&b, "%s * %.*s^%s%s%s", v,
			               (int)(at - sh), sh,
			               x->value[1] < 0 ? "(" : "", e,
			               x->value[1] < 0 ? ")" : "");
			at += 1;
			while (*at == '_' || (*at >= 'a' && *at <= 'z') ||
			       (*at >= '0' && *at <= '9'))
				at++;
			sf_text_printf(&b, "%s", at);
		} else if (sh[0] == '1' && sh[1] == ' ') {
			sf_text_printf(&b, "%s%s", v, sh + 1);
		} else {
			sf_text_printf(&b, "%s * %s", v, sh);
		}
	}
	return sf_text_take(&b);
}

/* Name the terms by kind: compute, compute2, comm, ... */
static int
name_terms(sf_discover_candidate *c)
{
	size_t seen[5] = {0};

	for (size_t t = 0; t < c->nterms; t++) {
		sf_discover_term *x = &c->terms[t];
		char name[40];
		size_t n = ++seen[x->kind];

		if (n > 1)
			snprintf(name, sizeof name, "%s%zu", kind_word(x->kind),
			         n);
		else
			snprintf(name, sizeof name, "%s", kind_word(x->kind));
		if ((x->name = sf_text_dup(name)) == NULL)
			return -1;
	}
	return 0;
}

/* The term's constants' names and its expression over them. */
static int
term_expression(sf_discover_term *x, const char *u, const char *v)
{
	char p0[64], p1[64];
	sf_text b = SF_TEXT_INIT;

	if (x->kind == SF_TERM_OVERHEAD) {
		snprintf(p0, sizeof p0, "t0");
		sf_text_printf(&b, "t0");
	} else {
		snprintf(p0, sizeof p0, "c_%s", x->name);
		snprintf(p1, sizeof p1, "%s_%s", v != NULL ? "h" : "e",
		         x->name);
		if (v != NULL)
			sf_text_printf(&b, "max(%s * %s, %s * %s)", p0, u, p1,
			               v);
		else if (strcmp(u, "1") == 0)
			sf_text_printf(&b, "%s", p0);
		else if (u[0] == '1' && u[1] == ' ')
			sf_text_printf(&b, "%s%s", p0, u + 1);
		else
			sf_text_printf(&b, "%s * %s", p0, u);
		if (x->nparams == 2 && (x->param[1] = sf_text_dup(p1)) == NULL)
			b.failed = 1;
	}
	x->param[0] = sf_text_dup(p0);
	x->expr = sf_text_take(&b);
	return x->param[0] != NULL && x->expr != NULL ? 0 : -1;
}

/* Board entry for a discovered formula: its constants, terms, texts. */
static int
candidate_from_entry(const grammar *g, const setup *st, workspace *ws, entry *e,
                     sf_discover_candidate *c)
{
	double fold[256], x[MAXC], theta = NAN;
	score searched;
	double *foldp = g->ch.nfolds <= 256 ? fold : NULL;
	const double *cols[MAXC];
	size_t k = entry_columns(g, e, cols), t = 1, col = 1;
	int rc = -1;

	memset(c, 0, sizeof *c);
	/* the constants, the folds' MAPE and the MAPE on every row, from a
	 * fit that takes the columns in order; the score and AICc ranked */
	searched = e->sc;
	evaluate(g, ws, e, foldp, x, &theta);
	e->sc.score = searched.score;
	e->sc.aicc = searched.aicc;
	if (e->variant != VARIANT_NONE)
		variant_column(g, e, theta, ws->z2, g->rows);
	c->k = e->k;
	c->score = e->sc.score;
	c->mape = e->sc.mape;
	c->aicc = e->sc.aicc;
	c->nterms = 1 + e->nterms - (e->variant == VARIANT_OVERLAP);
	c->terms = calloc(c->nterms, sizeof *c->terms);
	c->fold_mape = malloc((g->ch.nfolds + 1) * sizeof *c->fold_mape);
	if (c->terms == NULL || c->fold_mape == NULL)
		return -1;
	for (size_t f = 0; f < g->ch.nfolds; f++)
		c->fold_mape[f] = foldp != NULL ? fold[f] : NAN;

	c->terms[0].kind = SF_TERM_OVERHEAD;
	c->terms[0].nparams = 1;
	c->terms[0].value[0] = x[0];
	c->terms[0].upper[0] = upper_bound(g, g->ones);
	if ((c->terms[0].shape = sf_text_dup("1")) == NULL)
		return -1;
	for (size_t q = 0; q < e->nterms; q++) {
		const shape *sh = &g->shapes[e->atom[q]];
		sf_discover_term *y;

		if (e->variant == VARIANT_OVERLAP && q == e->b)
			continue;
		y = &c->terms[t++];
		y->kind = shape_kind(st, sh);
		y->nparams = 1;
		if (e->variant != VARIANT_NONE && q == e->a) {
			/* the variant's column is the last; its constants */
			y->nparams = 2;
			y->value[0] = x[k - 1];
			if (e->variant == VARIANT_OVERLAP) {
				y->value[1] = x[k - 1] * theta;
				y->upper[0] = upper_bound(
				    g,
				    g->col + (size_t)e->atom[e->a] * g->rows);
				y->upper[1] = upper_bound(
				    g,
				    g->col + (size_t)e->atom[e->b] * g->rows);
			} else {
				y->value[1] = theta;
				y->lower[1] = e->lo;
				y->upper[1] = e->hi;
				y->upper[0] = upper_bound(g, ws->z2);
			}
		} else {
			y->value[0] = x[col];
			y->upper[0] = upper_bound(g, cols[col]);
			col++;
		}
	}
	if (name_terms(c) != 0)
		goto done;
	/* shapes and expressions, now that the names are known */
	t = 1;
	for (size_t q = 0; q < e->nterms; q++) {
		const shape *sh = &g->shapes[e->atom[q]];
		sf_discover_term *y;
		sf_text u = SF_TEXT_INIT, v = {0}, full = {0};
		char ename[64];
		int named = -1;

		if (e->variant == VARIANT_OVERLAP && q == e->b)
			continue;
		y = &c->terms[t++];
		snprintf(ename, sizeof ename, "e_%s", y->name);
		if (e->variant == VARIANT_EXPONENT && q == e->a)
			named = e->b;
		shape_text(&u, g->d, st, sh, named, ename, NULL);
		if (e->variant == VARIANT_OVERLAP && q == e->a) {
			shape_text(&v, g->d, st, &g->shapes[e->atom[e->b]], -1,
			           NULL, NULL);
			if (u.failed || v.failed) {
				sf_text_free(&u);
				sf_text_free(&v);
				goto done;
			}
			sf_text_printf(&full, "max(%s, %s)", u.data, v.data);
			y->shape = sf_text_take(&full);
			if (term_expression(y, u.data, v.data) != 0) {
				sf_text_free(&u);
				sf_text_free(&v);
				goto done;
			}
			sf_text_free(&u);
			sf_text_free(&v);
		} else {
			y->shape = sf_text_take(&u);
			if (y->shape == NULL ||
			    term_expression(y, y->shape, NULL) != 0)
				goto done;
		}
		if (y->shape == NULL)
			goto done;
	}
	if (term_expression(&c->terms[0], "1", NULL) != 0 ||
	    (c->formula = formula_text(c)) == NULL)
		goto done;
	rc = 0;
done:
	return rc;
}

/* ---- the model file's own formulas -------------------------------------- */

/*
 * Score problem p's formula as the search scores its own, through the fit
 * pipeline: the same training rows and folds, each fold fitted by
 * sf_tune_fit.  The AICc is in the search's loss, from the predictions,
 * so that it compares with the discovered formulas' whatever the
 * model's own loss.
 */
static int
score_given(const sf_problem *p, const sf_discover_options *o, const setup *st,
            const grammar *g, sf_discover_candidate *c, sf_error *err)
{
	const sf_model *m = p->model;
	sf_fit_options fo = o->fit;
	sf_dataset *train = NULL, *sub = NULL;
	sf_fit_result *r = NULL;
	double *pred = NULL, sum = 0, chisqr = 0, ape = 0;
	size_t held, *rows = NULL, x = SIZE_MAX, failed = 0;
	char *canonical = NULL;
	sf_text b = SF_TEXT_INIT;
	chain ch = {0};
	int rc;

	memset(c, 0, sizeof *c);
	c->score = c->mape = c->aicc = NAN;
	fo.progress = NULL;
	if ((c->model = sf_text_dup(m->name)) == NULL ||
	    (c->fold_mape =
	         malloc((g->ch.nfolds + 1) * sizeof *c->fold_mape)) == NULL)
		return sf_error_set(err, SF_ENOMEM, "out of memory");
	for (size_t f = 0; f < g->ch.nfolds; f++)
		c->fold_mape[f] = NAN;
	c->k = p->formula->nparams;
	canonical = sf_formula_canonical_time(p->formula, m);
	sf_text_printf(&b, "%s: %s", m->name,
	               canonical != NULL ? canonical : "?");
	free(canonical);
	if ((c->formula = sf_text_take(&b)) == NULL)
		return sf_error_set(err, SF_ENOMEM, "out of memory");
	if ((rc = sf_discover_split(p->data, o->train, &train, &held, err)) !=
	    SF_OK)
		return rc;
	for (size_t i = 0; i < train->ninputs; i++)
		if (strcmp(train->inputs[i].name,
		           g->d->inputs[st->extrap].name) == 0)
			x = i;
	/* Scores on other rows would not compare: leave them out. */
	if (x == SIZE_MAX || train->rows != g->rows) {
		rc = SF_OK;
		goto done;
	}
	if ((rc = chain_make(train, x, &ch, err)) != SF_OK)
		goto done;
	rows = malloc((train->rows + 1) * sizeof *rows);
	pred = malloc((train->rows + 1) * sizeof *pred);
	if (rows == NULL || pred == NULL) {
		rc = sf_error_set(err, SF_ENOMEM, "out of memory");
		goto done;
	}
	for (size_t f = 0; f < ch.nfolds && f < g->ch.nfolds; f++) {
		size_t l = ch.last[f], n = ch.start[l + 1];
		double e = 0;
		sf_error fold_err;

		for (size_t q = 0; q < n; q++)
			rows[q] = ch.row[q];
		if ((rc = sf_dataset_select(train, rows, n, &sub, err)) !=
		    SF_OK)
			goto done;
		rc = sf_tune_fit(m, sub, p->formula, &fo, &r, &fold_err);
		sf_dataset_free(sub);
		sub = NULL;
		if (rc == SF_ENOMEM) {
			*err = fold_err;
			goto done;
		}
		if (rc == SF_OK)
			rc = sf_predict_rows(p->formula, train, r->theta, pred,
			                     err);
		sf_fit_result_free(r);
		r = NULL;
		if (rc != SF_OK) {
			failed++;
			continue;
		}
		for (size_t q = n; q < train->rows; q++) {
			size_t row = ch.row[q];
			e += fabs(pred[row] - train->output[row]) /
			     fabs(train->output[row]);
		}
		c->fold_mape[f] = 100 * e / (double)(train->rows - n);
		sum += c->fold_mape[f];
	}
	rc = sf_tune_fit(m, train, p->formula, &fo, &r, err);
	if (rc == SF_EFAIL) {
		rc = SF_OK;
		goto done;
	}
	if (rc != SF_OK || (rc = sf_predict_rows(p->formula, train, r->theta,
	                                         pred, err)) != SF_OK)
		goto done;
	/* g's rows are train's sorted: the same weights, row by row */
	for (size_t q = 0; q < g->rows; q++) {
		size_t row = g->ch.row[q];
		double e = pred[row] - train->output[row];
		chisqr += g->w[q] * e * e;
		ape += fabs(e) / fabs(train->output[row]);
	}
	c->mape = 100 * ape / (double)g->rows;
	c->aicc = aicc_of(chisqr, g->rows, c->k);
	c->score = failed == 0 && ch.nfolds == g->ch.nfolds
	               ? sum / (double)ch.nfolds
	               : NAN;
done:
	sf_fit_result_free(r);
	sf_dataset_free(train);
	free(rows);
	free(pred);
	chain_free(&ch);
	return rc;
}

/* ---- the run ---------------------------------------------------------- */

/* The settings and the grammar, recorded in the result. */
static int
describe(sf_discover_result *r, const grammar *g, const setup *st,
         const char *train)
{
	const sf_dataset *d = g->d;

	r->extrapolate = sf_text_dup(d->inputs[st->extrap].name);
	r->count =
	    st->count >= 0 ? sf_text_dup(d->inputs[st->count].name) : NULL;
	r->workers =
	    st->workers >= 0 ? sf_text_dup(d->inputs[st->workers].name) : NULL;
	r->inputs = calloc(d->ninputs + 1, sizeof *r->inputs);
	r->levels = malloc((g->ch.nlevels + 1) * sizeof *r->levels);
	r->fold_last = malloc((g->ch.nfolds + 1) * sizeof *r->fold_last);
	r->fold_rows = malloc((g->ch.nfolds + 1) * sizeof *r->fold_rows);
	if (r->extrapolate == NULL || (st->count >= 0 && r->count == NULL) ||
	    (st->workers >= 0 && r->workers == NULL) || r->inputs == NULL ||
	    r->levels == NULL || r->fold_last == NULL || r->fold_rows == NULL)
		return -1;
	for (size_t i = 0; i < d->ninputs; i++)
		if (st->use[i] && (r->inputs[r->ninputs++] =
		                       sf_text_dup(d->inputs[i].name)) == NULL)
			return -1;
	r->loss = st->loss;
	r->rows = g->rows;
	if (train != NULL && (r->train = sf_text_dup(train)) == NULL)
		return -1;
	r->nlevels = g->ch.nlevels;
	memcpy(r->levels, g->ch.levels, g->ch.nlevels * sizeof *r->levels);
	r->nfolds = g->ch.nfolds;
	for (size_t f = 0; f < g->ch.nfolds; f++) {
		r->fold_last[f] = g->ch.last[f];
		r->fold_rows[f] = g->rows - g->ch.start[g->ch.last[f] + 1];
	}
	r->shapes = g->nshapes;
	r->factors = st->factors;
	r->max_terms = st->max_terms;
	r->beam = st->beam;
	r->budget = st->budget;
	r->tie = st->tie;
	r->overlap = st->overlap;
	r->continuous = st->continuous;
	memcpy(r->exponents, st->exponents, sizeof r->exponents);
	r->nexponents = st->nexponents;
	memcpy(r->logs, st->logs, sizeof r->logs);
	r->nlogs = st->nlogs;
	return 0;
}

/* Rank everything, and fill the board: the top discovered formulas and
 * every given one, in the rule's order. */
static int
make_board(sf_discover_result *r, search *s, const setup *st,
           sf_discover_candidate *given, size_t ngiven, sf_error *err)
{
	size_t n = s->n + ngiven, shown = 0;
	ranked *all = malloc((n + 1) * sizeof *all);
	double best = INFINITY, band;

	if (all == NULL || (r->board = calloc(st->top + ngiven + 1,
	                                      sizeof *r->board)) == NULL) {
		free(all);
		return sf_error_set(err, SF_ENOMEM, "out of memory");
	}
	for (size_t i = 0; i < s->n; i++) {
		all[i] = rank_of(&s->e[i], i);
		/* not the answer, whatever its score */
		if (!s->e[i].sc.valid || s->e[i].sc.redundant)
			all[i].score = INFINITY;
	}
	for (size_t i = 0; i < ngiven; i++) {
		ranked x = {given[i].score,
		            0,
		            given[i].aicc,
		            given[i].k,
		            SIZE_MAX,
		            s->n + i,
		            0,
		            0};
		if (!(x.score == x.score))
			x.score = INFINITY;
		if (!(x.aicc == x.aicc))
			x.aicc = INFINITY;
		all[s->n + i] = x;
	}
	for (size_t i = 0; i < n; i++)
		best = all[i].score < best ? all[i].score : best;
	band = best * st->tie;
	if (!isfinite(best)) {
		free(all);
		return sf_error_set(
		    err, SF_EFAIL,
		    "no formula could be fitted to the training "
		    "rows");
	}
	/* The tie: within two standard errors of the best score, or within
	 * tie of it if that is wider.  Breiman's rule takes one; the best
	 * of thousands of noisy scores is lower than its formula's real
	 * error by about one more. */
	for (size_t i = 0; i < n; i++) {
		double fold[256];
		entry copy;

		/* the search leaves standard errors out: only the best's
		 * is needed */
		if (all[i].score != best || all[i].index >= s->n ||
		    s->g->ch.nfolds > 256)
			continue;
		copy = s->e[all[i].index];
		evaluate(s->g, &s->ws[0], &copy, fold, NULL, NULL);
		if (2 * copy.sc.se > band)
			band = 2 * copy.sc.se;
	}
	for (size_t i = 0; i < n; i++)
		all[i].tied = all[i].score <= best + band + 1e-12;
	/* the lowest AICc among the tied of each number of constants */
	{
		double lowest[MAXC + 2];

		for (size_t k = 0; k < MAXC + 2; k++)
			lowest[k] = INFINITY;
		for (size_t i = 0; i < n; i++)
			if (all[i].tied && all[i].k < MAXC + 2 &&
			    all[i].aicc < lowest[all[i].k])
				lowest[all[i].k] = all[i].aicc;
		for (size_t i = 0; i < n; i++)
			all[i].supported =
			    all[i].tied && all[i].k < MAXC + 2 &&
			    (all[i].aicc <= lowest[all[i].k] + 10 ||
			     !isfinite(lowest[all[i].k]));
	}
	qsort(all, n, sizeof *all, by_rule);
	r->best_score = best;
	r->band = band;
	r->winner = SIZE_MAX;
	for (size_t i = 0; i < n; i++) {
		sf_discover_candidate *c = &r->board[r->nboard];

		if (all[i].index >= s->n) {
			*c = given[all[i].index - s->n];
			memset(&given[all[i].index - s->n], 0, sizeof *given);
		} else if (shown < st->top && isfinite(all[i].score)) {
			if (candidate_from_entry(s->g, st, &s->ws[0],
			                         &s->e[all[i].index], c) != 0) {
				candidate_free(c);
				free(all);
				return sf_error_set(err, SF_ENOMEM,
				                    "out of memory");
			}
			/* two ways to one formula (an exponent fitted from
			 * two grid values): show it once */
			{
				int twice = 0;
				for (size_t q = 0; q < r->nboard && !twice; q++)
					twice = r->board[q].model == NULL &&
					        !strcmp(r->board[q].formula,
					                c->formula);
				if (twice) {
					candidate_free(c);
					memset(c, 0, sizeof *c);
					continue;
				}
			}
			if (r->winner == SIZE_MAX)
				r->winner = r->nboard;
			shown++;
		} else {
			continue;
		}
		c->tied = all[i].tied;
		r->nboard++;
	}
	free(all);
	if (r->winner == SIZE_MAX)
		return sf_error_set(err, SF_EFAIL,
		                    "no formula of the grammar could be fitted "
		                    "to the training rows");
	return SF_OK;
}

int
sf_discover_run(const sf_model *m, const sf_model_discover *s,
                const sf_dataset *d, const sf_problem *given, size_t ngiven,
                const sf_discover_options *o, sf_discover_result **out,
                sf_error *err)
{
	sf_discover_result *r = calloc(1, sizeof *r);
	sf_discover_candidate *scored = NULL;
	sf_dataset *train = NULL;
	struct timespec start;
	search se = {0};
	grammar g = {0};
	setup st = {0};
	int rc;

	*out = NULL;
	clock_gettime(CLOCK_MONOTONIC, &start);
	if (r == NULL)
		return sf_error_set(err, SF_ENOMEM, "out of memory");
	if ((rc = make_setup(m, s, d, o, &st, err)) != SF_OK ||
	    (rc = sf_discover_split(d, o->train, &train, &r->held_out, err)) !=
	        SF_OK ||
	    (rc = grammar_make(m, train, &st, &g, err)) != SF_OK)
		goto done;
	if (describe(r, &g, &st, o->train) != 0) {
		rc = sf_error_set(err, SF_ENOMEM, "out of memory");
		goto done;
	}
#ifdef _OPENMP
	se.threads = o->threads > 0 ? o->threads : omp_get_max_threads();
#else
	se.threads = 1;
#endif
	se.g = &g;
	se.st = &st;
	if ((se.ws = calloc((size_t)se.threads, sizeof *se.ws)) == NULL) {
		rc = sf_error_set(err, SF_ENOMEM, "out of memory");
		goto done;
	}
	se.nparents = 4 * st.beam + 1;
	se.parents = calloc(se.nparents, sizeof *se.parents);
	se.parent_of = malloc(se.nparents * sizeof *se.parent_of);
	se.parent_slot = malloc((se.nparents * g.nshapes +
	                         st.beam * 64 * SF_DISCOVER_MAX_TERMS + 1) *
	                        sizeof *se.parent_slot);
	if (se.parents == NULL || se.parent_of == NULL ||
	    se.parent_slot == NULL) {
		rc = sf_error_set(err, SF_ENOMEM, "out of memory");
		goto done;
	}
	for (size_t i = 0; i < se.nparents; i++)
		if (!workspace_alloc(&se.parents[i], &g)) {
			rc = sf_error_set(err, SF_ENOMEM, "out of memory");
			goto done;
		}
	for (int t = 0; t < se.threads; t++)
		if (!workspace_alloc(&se.ws[t], &g)) {
			rc = sf_error_set(err, SF_ENOMEM, "out of memory");
			goto done;
		}
	if ((rc = beam_search(&se, err)) != SF_OK ||
	    (rc = swap_search(&se, err)) != SF_OK ||
	    (rc = variants(&se, err)) != SF_OK)
		goto done;
	r->evaluated = se.n;
	r->budget_reached = se.budget_reached;
	r->seconds = seconds_since(&start);
	if (ngiven > 0 && (scored = calloc(ngiven, sizeof *scored)) == NULL) {
		rc = sf_error_set(err, SF_ENOMEM, "out of memory");
		goto done;
	}
	for (size_t i = 0; i < ngiven; i++)
		if ((rc = score_given(&given[i], o, &st, &g, &scored[i],
		                      err)) != SF_OK)
			goto done;
	rc = make_board(r, &se, &st, scored, ngiven, err);
done:
	for (size_t i = 0; scored != NULL && i < ngiven; i++)
		candidate_free(&scored[i]);
	free(scored);
	for (int t = 0; se.ws != NULL && t < se.threads; t++)
		workspace_free(&se.ws[t]);
	free(se.ws);
	for (size_t i = 0; se.parents != NULL && i < se.nparents; i++)
		workspace_free(&se.parents[i]);
	free(se.parents);
	free(se.parent_of);
	free(se.parent_slot);
	free(se.e);
	free(se.key);
	free(se.slot);
	grammar_free(&g);
	sf_dataset_free(train);
	free(st.use);
	if (rc != SF_OK) {
		sf_discover_result_free(r);
		return rc;
	}
	*out = r;
	return SF_OK;
}

/* ---- the model file of a formula ---------------------------------------- */

/* 1 when name is a whole name (identifier) in text. */
static int
mentions(const char *text, const char *name)
{
	size_t len = strlen(name);

	for (const char *p = text; *p != '\0';) {
		const char *start = p;

		if (!(*p == '_' || (*p >= 'a' && *p <= 'z') ||
		      (*p >= 'A' && *p <= 'Z'))) {
			/* a number's exponent is not a name: skip it whole */
			if (*p >= '0' && *p <= '9')
				while ((*p >= '0' && *p <= '9') || *p == '.' ||
				       *p == 'e' || *p == 'E')
					p++;
			else
				p++;
			continue;
		}
		while (*p == '_' || (*p >= 'a' && *p <= 'z') ||
		       (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9'))
			p++;
		if ((size_t)(p - start) == len && memcmp(start, name, len) == 0)
			return 1;
	}
	return 0;
}

/* text as a YAML double-quoted scalar. */
static void
put_quoted(sf_text *b, const char *text)
{
	sf_text_printf(b, "\"");
	for (const char *p = text; *p != '\0'; p++) {
		if (*p == '"' || *p == '\\')
			sf_text_printf(b, "\\%c", *p);
		else if ((unsigned char)*p < 0x20)
			sf_text_printf(b, "\\x%02x", (unsigned char)*p);
		else
			sf_text_printf(b, "%c", *p);
	}
	sf_text_printf(b, "\"");
}

/* The directory part of path ("." when it has none), malloc'd. */
static char *
directory_of(const char *path)
{
	const char *slash = strrchr(path, '/');
	char *dir;

	if (slash == NULL)
		return sf_text_dup(".");
	if (slash == path)
		return sf_text_dup("/");
	if ((dir = malloc((size_t)(slash - path) + 1)) != NULL) {
		memcpy(dir, path, (size_t)(slash - path));
		dir[slash - path] = '\0';
	}
	return dir;
}

/* The next component of an absolute path at *p ("a" of "/a/b"), its
 * length in *n; NULL at the end. */
static const char *
component(const char **p, size_t *n)
{
	const char *start;

	while (**p == '/')
		(*p)++;
	if (**p == '\0')
		return NULL;
	start = *p;
	while (**p != '\0' && **p != '/')
		(*p)++;
	*n = (size_t)(*p - start);
	return start;
}

/* file as a path relative to the directory of out_path, so that the
 * model file finds its data wherever it is written; file as given when
 * either cannot be resolved. */
static char *
relative_to(const char *out_path, const char *file)
{
	char *dir = directory_of(out_path), *from = NULL, *to = NULL;
	char *result = NULL;
	const char *a, *b, *ca, *cb;
	size_t na = 0, nb = 0;
	sf_text out = SF_TEXT_INIT;

	if (dir != NULL) {
		from = realpath(dir, NULL);
		to = realpath(file, NULL);
	}
	if (from == NULL || to == NULL) {
		result = sf_text_dup(file);
		goto done;
	}
	/* skip the common components, go up from the rest of from's */
	a = from, b = to;
	for (;;) {
		const char *sa = a, *sb = b;
		ca = component(&a, &na);
		cb = component(&b, &nb);
		if (ca == NULL || cb == NULL || na != nb ||
		    memcmp(ca, cb, na) != 0) {
			a = sa, b = sb;
			break;
		}
	}
	while (component(&a, &na) != NULL)
		sf_text_printf(&out, "../");
	for (int first = 1; (cb = component(&b, &nb)) != NULL; first = 0)
		sf_text_printf(&out, "%s%.*s", first ? "" : "/", (int)nb, cb);
	result = sf_text_take(&out);
done:
	free(dir);
	free(from);
	free(to);
	return result;
}

static const char *
kind_words(sf_term_kind kind)
{
	switch (kind) {
	case SF_TERM_OVERHEAD:
		return "start-up, once per run";
	case SF_TERM_COMPUTE:
		return "computation: each worker's share of the work";
	case SF_TERM_COMMUNICATION:
		return "grows with the workers: communication";
	case SF_TERM_IO:
		return "per sample, not split over the workers: the input "
		       "pipeline";
	default:
		return "";
	}
}

static void
put_number(sf_text *b, double v)
{
	char t[32];

	sf_text_printf(b, "%s", sf_format_double(t, sizeof t, v));
}

/* The discover: block that was used. */
static void
put_discover(sf_text *b, const sf_discover_result *r)
{
	sf_text_printf(
	    b, "discover:\n  extrapolate: %s\n  count: %s\n  workers: %s\n",
	    r->extrapolate, r->count != NULL ? r->count : "none",
	    r->workers != NULL ? r->workers : "none");
	sf_text_printf(b, "  inputs: [");
	for (size_t i = 0; i < r->ninputs; i++)
		sf_text_printf(b, "%s%s", i > 0 ? ", " : "", r->inputs[i]);
	sf_text_printf(b, "]\n  exponents: [");
	for (size_t i = 0; i < r->nexponents; i++) {
		char t[48];
		sf_text_printf(b, "%s", i > 0 ? ", " : "");
		/* the same double the grid holds: 1/3 is 0.3333333333333333 */
		sf_text_printf(b, "%s",
		               sf_format_double(t, sizeof t, r->exponents[i]));
	}
	sf_text_printf(b, "]\n  logs: [");
	for (size_t i = 0; i < r->nlogs; i++)
		sf_text_printf(b, "%s%d", i > 0 ? ", " : "", r->logs[i]);
	sf_text_printf(b, "]\n  factors: %zu\n  max_terms: %zu\n  beam: %zu\n",
	               r->factors, r->max_terms, r->beam);
	sf_text_printf(
	    b, "  budget: %zu\n  overlap: %s\n  continuous: %s\n  tie: ",
	    r->budget, r->overlap ? "true" : "false",
	    r->continuous ? "true" : "false");
	put_number(b, r->tie);
	sf_text_printf(b, "\n");
}

int
sf_discover_model_text(const sf_discover_result *r, size_t index,
                       const sf_model *m, const char *out_path,
                       const char *data_path, char **text, sf_error *err)
{
	const sf_discover_candidate *c = &r->board[index];
	const char *base;
	char *file = NULL;
	sf_text b = SF_TEXT_INIT;

	*text = NULL;
	if (c->model != NULL)
		return sf_error_set(err, SF_EVALUE,
		                    "'%s' is the model file's own formula",
		                    c->model);
	if (data_path == NULL)
		data_path = m->data_file;
	if (data_path != NULL &&
	    (file = relative_to(out_path, data_path)) == NULL)
		return sf_error_set(err, SF_ENOMEM, "out of memory");
	base = data_path != NULL ? strrchr(data_path, '/') : NULL;
	base = base != NULL ? base + 1 : data_path != NULL ? data_path : "?";

	sf_text_printf(
	    &b,
	    "# %s-discovered: a formula found by scalefit discover, chosen "
	    "by how well\n# it extrapolates.\n#\n",
	    m->name);
	sf_text_printf(&b, "# From %zu training rows of %s", r->rows, base);
	if (r->held_out > 0)
		sf_text_printf(
		    &b,
		    " (%zu more rows were held out by --train and not "
		    "used)",
		    r->held_out);
	sf_text_printf(
	    &b,
	    ",\n# extrapolating along %s: each fold fits the rows up to a "
	    "value of %s\n# and predicts the rows above it; the MAPE of "
	    "its predictions:\n",
	    r->extrapolate, r->extrapolate);
	for (size_t f = 0; f < r->nfolds; f++) {
		char lv[32];
		sf_text_printf(
		    &b, "#   fit %s <= %s: %.3g%%\n", r->extrapolate,
		    sf_format_double(lv, sizeof lv, r->levels[r->fold_last[f]]),
		    c->fold_mape[f]);
	}
	sf_text_printf(
	    &b,
	    "# Mean %.3g%%; MAPE %.3g%% on the training rows, AICc %.6g, "
	    "%zu constants.\n# The choice among %zu formulas over %zu "
	    "term shapes (up to %zu terms,\n# beam %zu).\n#\n",
	    c->score, c->mape, c->aicc, c->k, r->evaluated, r->shapes,
	    r->max_terms, r->beam);
	sf_text_printf(&b, "#   time = %s\n#\n", c->formula);
	sf_text_printf(
	    &b, "# Terms (the kinds are what the shapes suggest, for `scalefit "
	        "scale`'s\n# shares; check them):\n");
	for (size_t t = 0; t < c->nterms; t++)
		sf_text_printf(&b, "#   %-10s %-26s %s\n", c->terms[t].name,
		               c->terms[t].shape,
		               c->terms[t].nparams == 2 &&
		                       strncmp(c->terms[t].shape, "max(", 4) ==
		                           0
		                   ? "the slower of two overlapped parts"
		                   : kind_words(c->terms[t].kind));
	sf_text_printf(
	    &b,
	    "# Bounds: every constant of a term is >= 0 (a start-up at 0 is "
	    "one the rows\n# do without); each upper bound is ten times "
	    "what the shortest run\n# allows (no term can exceed a "
	    "measured time), rounded up to a power of\n# 10, so none is "
	    "reached; a fitted exponent stays within half a unit\n# of "
	    "the grid's.\n");
	sf_text_printf(&b, "name: %s-discovered\ndescription: ", m->name);
	{
		sf_text d = SF_TEXT_INIT;
		sf_text_printf(&d, "Found by scalefit discover: %s",
		               c->formula);
		if (d.failed) {
			b.failed = 1;
		} else {
			put_quoted(&b, d.data);
			sf_text_free(&d);
		}
	}
	sf_text_printf(&b, "\ndata:\n");
	if (file != NULL) {
		sf_text_printf(&b, "  file: ");
		put_quoted(&b, file);
		sf_text_printf(&b, "\n");
	}
	if (m->where.text != NULL) {
		sf_text_printf(&b, "  where: ");
		put_quoted(&b, m->where.text);
		sf_text_printf(&b, "\n");
	}
	if (m->output.text != NULL) {
		sf_text_printf(&b, "  output: ");
		put_quoted(&b, m->output.text);
		sf_text_printf(&b, "\n");
	}
	if (m->weight.text != NULL) {
		sf_text_printf(&b, "  weight: ");
		put_quoted(&b, m->weight.text);
		sf_text_printf(&b, "\n");
	}
	sf_text_printf(&b, "inputs:\n");
	for (size_t i = 0; i < m->ninputs; i++) {
		const char *name = m->inputs[i].name;
		int used = strcmp(name, r->extrapolate) == 0 ||
		           (r->train != NULL && mentions(r->train, name));
		for (size_t t = 0; t < c->nterms; t++)
			used |= mentions(c->terms[t].expr, name);
		if (!used)
			continue;
		sf_text_printf(&b, "  %s: ", m->inputs[i].name);
		put_quoted(&b, m->inputs[i].expr.text);
		sf_text_printf(&b, "\n");
	}
	sf_text_printf(&b, "parameters:\n");
	for (size_t t = 0; t < c->nterms; t++)
		for (size_t q = 0; q < c->terms[t].nparams; q++) {
			const sf_discover_term *x = &c->terms[t];
			char v[32];
			sf_text_printf(&b, "  %s: {min: ", x->param[q]);
			put_number(&b, x->lower[q]);
			sf_text_printf(&b, ", max: ");
			put_number(&b, x->upper[q]);
			sf_text_printf(
			    &b, "}  # fitted %s\n",
			    sf_format_double(v, sizeof v, x->value[q]));
		}
	sf_text_printf(&b, "terms:\n");
	for (size_t t = 0; t < c->nterms; t++) {
		sf_text_printf(&b, "  %s: {expr: ", c->terms[t].name);
		put_quoted(&b, c->terms[t].expr);
		sf_text_printf(&b, ", kind: %s}\n",
		               sf_term_kind_name(c->terms[t].kind));
	}
	sf_text_printf(&b, "time: ");
	for (size_t t = 0; t < c->nterms; t++)
		sf_text_printf(&b, "%s%s", t > 0 ? " + " : "",
		               c->terms[t].name);
	sf_text_printf(&b, "\nfit:\n  loss: %s\n", sf_loss_name(r->loss));
	if (m->fit.weighting == SF_WEIGHTS_INVERSE_VARIANCE)
		sf_text_printf(&b, "  weights: inverse_variance\n");
	put_discover(&b, r);
	free(file);
	if ((*text = sf_text_take(&b)) == NULL)
		return sf_error_set(err, SF_ENOMEM, "out of memory");
	return SF_OK;
}

int
sf_discover_refit(sf_discover_result *r, size_t index, const char *path,
                  const char *text, const sf_discover_options *o,
                  sf_fit_result **fit, sf_error *err)
{
	sf_discover_candidate *c = &r->board[index];
	sf_model_set *set = NULL;
	sf_problem p = {0};
	sf_dataset *train = NULL;
	sf_fit_result *res = NULL;
	sf_fit_options fo = o->fit;
	double *pred = NULL, ape = 0;
	size_t held;
	const sf_model *m;
	char *formula;
	int rc;

	if (fit != NULL)
		*fit = NULL;
	/* the file's own loss, as `scalefit fit FILE` would */
	fo.has_loss = 0;
	fo.progress = NULL;
	if ((rc = sf_model_parse(path, text, strlen(text), &set, NULL, NULL,
	                         err)) != SF_OK)
		return rc;
	m = set->models[0];
	if ((rc = sf_problem_open(m, NULL, m->fit.loss, NULL, NULL, &p, err)) !=
	        SF_OK ||
	    (rc = sf_discover_split(p.data, o->train, &train, &held, err)) !=
	        SF_OK ||
	    (rc = sf_tune_fit(m, train, p.formula, &fo, &res, err)) != SF_OK)
		goto done;
	if ((pred = malloc((train->rows + 1) * sizeof *pred)) == NULL) {
		rc = sf_error_set(err, SF_ENOMEM, "out of memory");
		goto done;
	}
	if ((rc = sf_predict_rows(p.formula, train, res->theta, pred, err)) !=
	    SF_OK)
		goto done;
	for (size_t q = 0; q < train->rows; q++)
		ape +=
		    fabs(pred[q] - train->output[q]) / fabs(train->output[q]);
	for (size_t t = 0; t < c->nterms; t++)
		for (size_t q = 0; q < c->terms[t].nparams; q++)
			for (size_t j = 0; j < p.formula->nparams; j++)
				if (strcmp(m->params[p.formula->fitted[j]].name,
				           c->terms[t].param[q]) == 0)
					c->terms[t].value[q] = res->theta[j];
	c->mape = 100 * ape / (double)train->rows;
	c->refitted = 1;
	if ((formula = formula_text(c)) == NULL) {
		rc = sf_error_set(err, SF_ENOMEM, "out of memory");
		goto done;
	}
	free(c->formula);
	c->formula = formula;
	if (fit != NULL) {
		*fit = res;
		res = NULL;
	}
done:
	free(pred);
	sf_fit_result_free(res);
	sf_dataset_free(train);
	sf_problem_close(&p);
	sf_model_set_free(set);
	return rc;
}

int
sf_discover_shapes(const sf_model *m, const sf_model_discover *s,
                   const sf_dataset *d, const sf_discover_options *o,
                   char ***shapes, size_t *n, sf_error *err)
{
	sf_dataset *train = NULL;
	size_t held;
	grammar g = {0};
	setup st = {0};
	int rc;

	*shapes = NULL;
	*n = 0;
	if ((rc = make_setup(m, s, d, o, &st, err)) != SF_OK ||
	    (rc = sf_discover_split(d, o->train, &train, &held, err)) !=
	        SF_OK ||
	    (rc = grammar_make(m, train, &st, &g, err)) != SF_OK)
		goto done;
	if ((*shapes = calloc(g.nshapes + 1, sizeof **shapes)) == NULL) {
		rc = sf_error_set(err, SF_ENOMEM, "out of memory");
		goto done;
	}
	for (size_t i = 0; i < g.nshapes; i++) {
		sf_text b = SF_TEXT_INIT;

		shape_text(&b, train, &st, &g.shapes[i], -1, NULL, NULL);
		if (((*shapes)[i] = sf_text_take(&b)) == NULL) {
			rc = sf_error_set(err, SF_ENOMEM, "out of memory");
			goto done;
		}
		(*n)++;
	}
done:
	if (rc != SF_OK && *shapes != NULL) {
		for (size_t i = 0; i < *n; i++)
			free((*shapes)[i]);
		free(*shapes);
		*shapes = NULL;
		*n = 0;
	}
	grammar_free(&g);
	sf_dataset_free(train);
	free(st.use);
	return rc;
}
