/*
 * grammar.c - the term shapes of the grammar, their columns over the
 * training rows, and their text (grammar.h).
 */
#include "discover/grammar.h"
#include "base/number.h"
#include "fit/fit.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The communication shapes of the workers input: (p - 1) p^i. */
static const double comm_exponents[] = {0, -1, -2};

/* More shapes than this is a grammar to narrow, not to search. */
enum { MAX_SHAPES = 200000 };

/* What the whole steps ceil(n / (p b)) cost beyond the count they round:
 * the quotient's two factors and the rounding.  A steps shape S F then
 * reads as more complicated than n F / (p b) (whose factors cost at most
 * one more than F's and the quotient's), so that where the two columns
 * are equal the count's shape is the one kept, and a tie is won by it.
 * Rounded down, max(1, floor(.)) reads as one more. */
static const int steps_cost[SF_STEPS_RULES] = {0, 4, 3};

/* The whole steps' rules, in the order of enumeration. */
static const sf_steps_rule whole_steps[] = {SF_STEPS_CEIL, SF_STEPS_FLOOR};
enum { WHOLE_STEPS = sizeof whole_steps / sizeof whole_steps[0] };

void
sf_grammar_free(sf_grammar *g)
{
	sf_chain_free(&g->ch);
	free(g->y);
	free(g->w);
	free(g->yy);
	free(g->shapes);
	free(g->col);
	free(g->ones);
	for (size_t k = 0; k < WHOLE_STEPS; k++)
		free(g->steps[whole_steps[k]]);
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
factor_cost(const sf_factor *f)
{
	if (f->kind == SF_FACTOR_COMM)
		return 1 + (f->i < -1);
	if (f->i == 0)
		return f->j;
	return 1 + !is_integer(f->i) + (fabs(f->i) > 1) + f->j;
}

static double
factor_value(const sf_factor *f, double x)
{
	if (f->kind == SF_FACTOR_COMM)
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
input_factors(const sf_setup *st, int x, const double *v, size_t rows,
              sf_factor *out)
{
	double lo = INFINITY, hi = -INFINITY;
	size_t n = 0;

	for (size_t r = 0; r < rows; r++) {
		lo = v[r] < lo ? v[r] : lo;
		hi = v[r] > hi ? v[r] : hi;
	}
	if (!(lo < hi))
		return 0;
	for (size_t a = 0; a < st->space.nexponents; a++)
		for (size_t b = 0; b < st->space.nlogs; b++) {
			sf_factor f = {x, SF_FACTOR_POWER, st->space.logs[b],
			               st->space.exponents[a]};
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
			sf_factor f = {x, SF_FACTOR_COMM, 0, comm_exponents[a]};
			out[n++] = f;
		}
	return n;
}

static int
shape_compare(const void *a, const void *b)
{
	const sf_shape *x = a, *y = b;
	int cx = x->cost + x->count, cy = y->cost + y->count;

	if (x->too_steep != y->too_steep)
		return x->too_steep ? 1 : -1;
	if (cx != cy)
		return cx < cy ? -1 : 1;
	return x->order < y->order ? -1 : x->order > y->order;
}

/* The column of shape s over the sorted rows into out; 0 when it is not
 * finite, all zero or constant (then it is the start-up's). */
static int
shape_column(const sf_grammar *g, const sf_setup *st, const sf_shape *s,
             double *out)
{
	const double *unit = s->steps   ? g->steps[s->steps]
	                     : s->count ? g->x + (size_t)st->count * g->rows
	                                : NULL;
	double lo = INFINITY, hi = -INFINITY, big = 0;

	for (size_t r = 0; r < g->rows; r++) {
		double v = unit != NULL ? unit[r] : 1;

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
 * has the start-up constant, so two such columns may give the same
 * formulas (b^x is a + b' b when b takes two values; same_column says
 * when they do).  *center and *scale make (v - center) * scale the column
 * compared. */
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

/* 1 when column b is c + d a for columns a with c >= 0 and d > 0 (each
 * as column_signature normalised it): a formula's term d' b is then
 * d' d a plus d' c >= 0 that the start-up takes, so a's formulas are
 * b's.  With c < 0 they are not, the start-up being >= 0 (b, with the
 * batch at 32 or 64, is 32 log2(b) - 128), and both are kept. */
static int
same_column(const double *a, double ca, double sa, const double *b, double cb,
            double sb, size_t rows)
{
	double c = cb - ca * sa / sb;

	for (size_t r = 0; r < rows; r++)
		if (fabs((a[r] - ca) * sa - (b[r] - cb) * sb) > 1e-8)
			return 0;
	return c >= -1e-9 * fabs(cb);
}

/* The factors each input the grammar uses contributes: input i's are
 * list[i * max_list ..] (n[i] of them); inputs[0..ninputs) are those
 * with any, ascending. */
typedef struct factor_lists {
	sf_factor *list;
	size_t *n, max_list;
	size_t *inputs, ninputs;
} factor_lists;

static void
factor_lists_free(factor_lists *fl)
{
	free(fl->list);
	free(fl->n);
	free(fl->inputs);
}

/* The factor lists of the inputs st->use over g's rows.  Errors: more
 * than 16 inputs that vary (SF_EVALUE), SF_ENOMEM; fl is freed then. */
static int
factor_lists_make(const sf_grammar *g, const sf_setup *st, factor_lists *fl,
                  sf_error *err)
{
	const sf_dataset *d = g->d;

	memset(fl, 0, sizeof *fl);
	fl->max_list = st->space.nexponents * st->space.nlogs + 3;
	fl->list = malloc((d->ninputs + 1) * fl->max_list * sizeof *fl->list);
	fl->n = calloc(d->ninputs + 1, sizeof *fl->n);
	fl->inputs = malloc((d->ninputs + 1) * sizeof *fl->inputs);
	if (fl->list == NULL || fl->n == NULL || fl->inputs == NULL) {
		factor_lists_free(fl);
		return sf_error_set(err, SF_ENOMEM, "out of memory");
	}
	for (size_t i = 0; i < d->ninputs; i++) {
		if (!st->use[i])
			continue;
		fl->n[i] = input_factors(st, (int)i, g->x + i * g->rows,
		                         g->rows, fl->list + i * fl->max_list);
		if (fl->n[i] > 0)
			fl->inputs[fl->ninputs++] = i;
	}
	if (fl->ninputs > 16) {
		size_t n = fl->ninputs;
		factor_lists_free(fl);
		return sf_error_set(
		    err, SF_EVALUE,
		    "%zu inputs vary in the training rows; the "
		    "grammar takes at most 16: choose them with "
		    "discover: inputs",
		    n);
	}
	return SF_OK;
}

/* May f multiply the steps?  Per-step compute grows with the batch
 * (b^i, i > 0), per-step exchange with the workers (log2(p)^j or p^i,
 * i > 0, and the communication shapes); other inputs (a model's size) by
 * their powers.  The count is in the steps already. */
static int
steps_factor(const sf_setup *st, const sf_factor *f)
{
	if (f->kind == SF_FACTOR_COMM)
		return 1;
	if (f->input == st->batch)
		return f->i > 0 && f->j == 0;
	if (f->input == st->workers)
		return f->i >= 0 && (f->i == 0 || f->j == 0);
	return f->j == 0;
}

/* The lists of fl that steps_factor keeps, into sl (its own arrays, to
 * free with factor_lists_free). */
static int
steps_lists_make(const factor_lists *fl, const sf_setup *st, size_t ninputs,
                 factor_lists *sl, sf_error *err)
{
	memset(sl, 0, sizeof *sl);
	sl->max_list = fl->max_list;
	sl->list = malloc((ninputs + 1) * sl->max_list * sizeof *sl->list);
	sl->n = calloc(ninputs + 1, sizeof *sl->n);
	sl->inputs = malloc((ninputs + 1) * sizeof *sl->inputs);
	if (sl->list == NULL || sl->n == NULL || sl->inputs == NULL) {
		factor_lists_free(sl);
		return sf_error_set(err, SF_ENOMEM, "out of memory");
	}
	for (size_t k = 0; k < fl->ninputs; k++) {
		size_t i = fl->inputs[k];

		for (size_t a = 0; a < fl->n[i]; a++) {
			const sf_factor *f = &fl->list[i * fl->max_list + a];
			if (steps_factor(st, f))
				sl->list[i * sl->max_list + sl->n[i]++] = *f;
		}
		if (sl->n[i] > 0)
			sl->inputs[sl->ninputs++] = i;
	}
	return SF_OK;
}

/* Combination c (in mixed radix) of the lists of inputs pick[0..np),
 * times the count, the steps or neither, the order-th shape enumerated. */
static sf_shape
shape_of(const factor_lists *fl, const size_t *pick, size_t np, int count,
         sf_steps_rule steps, size_t c, size_t order)
{
	sf_shape s;

	memset(&s, 0, sizeof s);
	s.count = count;
	s.steps = steps;
	s.cost = steps_cost[steps];
	s.nfactors = (int)np;
	s.order = order;
	for (size_t q = 0; q < np; q++) {
		size_t len = fl->n[pick[q]];
		s.f[q] = fl->list[pick[q] * fl->max_list + c % len];
		c /= len;
		s.cost += factor_cost(&s.f[q]);
	}
	return s;
}

/* May factors over the inputs pick[0..np) make a shape without the count,
 * with it, or with the steps?  With a count, a term without it is a
 * per-run cost, which can depend on the workers only (launching them,
 * setting up their communication), not on the batch.  A step's cost is
 * its compute (the batch) or its exchange (the workers), not a product of
 * the two. */
static int
shape_allowed(const sf_setup *st, const size_t *pick, size_t np, int count,
              int steps)
{
	int batch = 0, workers = 0;

	for (size_t q = 0; q < np; q++) {
		batch |= (int)pick[q] == st->batch;
		workers |= (int)pick[q] == st->workers;
	}
	if (steps)
		return !(batch && workers);
	if (count)
		return 1;
	return np > 0 && (st->count < 0 || (np == 1 && workers));
}

/* What a workers factor f of a term adds to its exponent i, as a power
 * of p, in the term's cost per step, a log2(p) counting as p^log_power: a
 * run of data-parallel training takes n / (p b) steps (or the whole
 * steps), so a term n f(p) costs p b f(p) a step, one power more, and a
 * term of the steps f(p); (p - 1) p^i grows as p^(i + 1). */
static double
extra_step_power(const sf_factor *f, int count, int steps, double log_power)
{
	return (f->kind == SF_FACTOR_COMM ? 1 : log_power * f->j) +
	       (count && !steps ? 1 : 0);
}

/* The least exponent: a cost per step does not fall as workers join,
 * each computing its own batch, and an exchange does not shrink, so a
 * term's cost per step must not fall in p >= 1 (a log2(p) never makes it
 * fall: it counts as p^0 here; n / p^2 would be a superlinear speed-up).
 * A term without the count may be a cost per run that does fall (a fixed
 * evaluation shared by the workers), and without a count a row may be a
 * step or a whole run: nothing is pruned there. */
double
sf_grammar_least_exponent(const sf_setup *st, const sf_factor *f, int count,
                          int steps)
{
	if (f->input != st->workers || st->count < 0 || !count)
		return -INFINITY;
	return -extra_step_power(f, count, steps, 0);
}

/* The most exponent: nothing in data-parallel training costs more a step
 * than p^2 (every pair of workers contending, an exchange of all to all),
 * and a shape fitted to the small scales that grows faster runs away
 * beyond them (Gavel's LSTM on V100s: p^2 log2(p)^2 and p^(3/2)
 * log2(p)^2, a 4-GPU level 3 times as slow as its neighbours, missed the
 * 8-GPU runs by far).  A log2(p) counts as p^SF_GRAMMAR_LOG_POWER here,
 * its growth over 4-16 workers, where runs are extrapolated.  Only where
 * the search caps the growth (st->space.growth_cap). */
double
sf_grammar_most_exponent(const sf_setup *st, const sf_factor *f, int count,
                         int steps)
{
	if (f->input != st->workers || !st->space.growth_cap)
		return INFINITY;
	return SF_GRAMMAR_MOST_ORDER -
	       extra_step_power(f, count, steps, SF_GRAMMAR_LOG_POWER);
}

enum { SHAPE_ALLOWED, SHAPE_FALLS, SHAPE_TOO_STEEP };

/* Whether every factor of s has an exponent its term's cost per step
 * allows: SHAPE_ALLOWED, else SHAPE_FALLS (below the least) or
 * SHAPE_TOO_STEEP (above the most). */
static int
shape_exponents(const sf_setup *st, const sf_shape *s)
{
	for (int q = 0; q < s->nfactors; q++) {
		const sf_factor *f = &s->f[q];

		if (f->i < sf_grammar_least_exponent(st, f, s->count, s->steps))
			return SHAPE_FALLS;
		if (f->i > sf_grammar_most_exponent(st, f, s->count, s->steps))
			return SHAPE_TOO_STEEP;
	}
	return SHAPE_ALLOWED;
}

/* The shapes of the lists fl in the order of enumeration - subsets of the
 * inputs (at most st->factors of them), the product of their lists,
 * without and with the count, or (steps other than SF_STEPS_QUOTIENT)
 * with the steps so rounded, those too steep marked - into out from index
 * n when out is not NULL; returns n plus how many there are. */
static size_t
enumerate_shapes(const factor_lists *fl, const sf_setup *st,
                 sf_steps_rule steps, size_t n, sf_shape *out)
{
	for (unsigned long mask = 0; mask < (1ul << fl->ninputs); mask++) {
		size_t pick[SF_DISCOVER_MAX_FACTORS], np = 0, combos = 1;
		size_t bits = 0;

		for (size_t b = 0; b < fl->ninputs; b++)
			bits += (mask >> b) & 1;
		if (bits > st->factors)
			continue;
		for (size_t b = 0; b < fl->ninputs; b++)
			if (mask & (1ul << b))
				pick[np++] = fl->inputs[b];
		for (size_t q = 0; q < np; q++)
			combos *= fl->n[pick[q]];
		for (int count = steps != SF_STEPS_QUOTIENT;
		     count <= (steps != SF_STEPS_QUOTIENT || st->count >= 0);
		     count++) {
			if (!shape_allowed(st, pick, np, count, steps))
				continue;
			for (size_t c = 0; c < combos; c++) {
				sf_shape sh =
				    shape_of(fl, pick, np, count, steps, c, n);

				int allowed = shape_exponents(st, &sh);

				if (allowed == SHAPE_FALLS)
					continue;
				sh.too_steep = allowed == SHAPE_TOO_STEEP;
				if (out != NULL)
					out[n] = sh;
				n++;
			}
		}
	}
	return n;
}

/* The columns of all[0..total) over the sorted rows into g->col, their
 * shapes into g->shapes, each column kept once (open addressing on its
 * signature): a shape whose column is not finite, zero or constant, or an
 * increasing affine map of an earlier one's, is left out. */
static int
keep_distinct(sf_grammar *g, const sf_setup *st, const sf_shape *all,
              size_t total, sf_error *err)
{
	size_t table = 1, *sig_shape;
	uint64_t *sig_key;
	double *scale, *center;
	int rc = SF_OK;

	while (table < 2 * total + 2)
		table <<= 1;
	g->col = malloc((total + 1) * g->rows * sizeof *g->col);
	g->shapes = malloc((total + 1) * sizeof *g->shapes);
	sig_key = malloc(table * sizeof *sig_key);
	sig_shape = malloc(table * sizeof *sig_shape);
	scale = malloc((total + 1) * sizeof *scale);
	center = malloc((total + 1) * sizeof *center);
	if (g->col == NULL || g->shapes == NULL || sig_key == NULL ||
	    sig_shape == NULL || scale == NULL || center == NULL) {
		rc = sf_error_set(err, SF_ENOMEM, "out of memory");
		goto done;
	}
	for (size_t t = 0; t < table; t++)
		sig_shape[t] = SIZE_MAX;
	for (size_t s = 0; s < total; s++) {
		double *v = g->col + g->nshapes * g->rows, sc, cc;
		uint64_t h;
		size_t t;
		int dup = 0;

		if (!shape_column(g, st, &all[s], v))
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
done:
	free(sig_key);
	free(sig_shape);
	free(scale);
	free(center);
	return rc;
}

/* Every shape of the grammar over the inputs st->use, by increasing
 * complexity, each kept once: a shape whose column is an increasing
 * affine map of a simpler one's on these rows is the same shape here;
 * and how many distinct ones the cap on growth leaves out. */
static int
make_shapes(sf_grammar *g, const sf_setup *st, sf_error *err)
{
	factor_lists fl, sl;
	sf_shape *all = NULL;
	size_t total;
	int rc;

	memset(&sl, 0, sizeof sl);
	if ((rc = factor_lists_make(g, st, &fl, err)) != SF_OK)
		return rc;
	if (g->steps[SF_STEPS_CEIL] != NULL &&
	    (rc = steps_lists_make(&fl, st, g->d->ninputs, &sl, err)) !=
	        SF_OK) {
		factor_lists_free(&fl);
		return rc;
	}
	total = enumerate_shapes(&fl, st, SF_STEPS_QUOTIENT, 0, NULL);
	if (g->steps[SF_STEPS_CEIL] != NULL)
		for (size_t k = 0; k < WHOLE_STEPS; k++)
			total = enumerate_shapes(&sl, st, whole_steps[k], total,
			                         NULL);
	if (total > MAX_SHAPES)
		rc =
		    sf_error_set(err, SF_EVALUE,
		                 "the grammar has %zu term shapes over these "
		                 "inputs; at most %d: narrow it with discover: "
		                 "inputs, exponents, logs or factors",
		                 total, MAX_SHAPES);
	else if ((all = malloc((total + 1) * sizeof *all)) == NULL)
		rc = sf_error_set(err, SF_ENOMEM, "out of memory");
	if (rc == SF_OK) {
		size_t n = enumerate_shapes(&fl, st, SF_STEPS_QUOTIENT, 0, all);

		if (g->steps[SF_STEPS_CEIL] != NULL)
			for (size_t k = 0; k < WHOLE_STEPS; k++)
				n = enumerate_shapes(&sl, st, whole_steps[k], n,
				                     all);
		qsort(all, total, sizeof *all, shape_compare);
		rc = keep_distinct(g, st, all, total, err);
	}
	/* the too steep sort last: those distinct from every shape kept
	 * before them are counted, and left out */
	while (rc == SF_OK && g->nshapes > 0 &&
	       g->shapes[g->nshapes - 1].too_steep) {
		g->nshapes--;
		g->too_steep++;
	}
	factor_lists_free(&fl);
	factor_lists_free(&sl);
	free(all);
	return rc;
}

/* The whole steps of each sorted row, rounded up, ceil(n / (p b)), and
 * down, max(1, floor(n / (p b))), into g->steps, as the expression
 * language computes them (the model file's text), when the setup has a
 * batch and n / (p b) > 0 is not whole on some row; a quotient within
 * 1e-9 of a whole number is whole (a batch B / p whose product with p is
 * B but for rounding).  Else g->steps stay NULL: there S is n / (p b),
 * which the count's shapes already write. */
static int
make_steps(sf_grammar *g, const sf_setup *st, sf_error *err)
{
	const double *n, *p, *b;
	int fractional = 0;

	if (st->batch < 0 || st->count < 0 || st->workers < 0)
		return SF_OK;
	n = g->x + (size_t)st->count * g->rows;
	p = g->x + (size_t)st->workers * g->rows;
	b = g->x + (size_t)st->batch * g->rows;
	for (size_t r = 0; r < g->rows; r++) {
		double q = n[r] / (p[r] * b[r]);

		if (!(q > 0) || !isfinite(q))
			return SF_OK;
		fractional |= sf_steps_fractional(q);
	}
	if (!fractional)
		return SF_OK;
	for (size_t k = 0; k < WHOLE_STEPS; k++) {
		double *s = malloc((g->rows + 1) * sizeof *s);

		if ((g->steps[whole_steps[k]] = s) == NULL)
			return sf_error_set(err, SF_ENOMEM, "out of memory");
		for (size_t r = 0; r < g->rows; r++)
			s[r] = sf_steps_apply(whole_steps[k],
			                      n[r] / (p[r] * b[r]));
	}
	return SF_OK;
}

/* The training rows sorted by level, their weights, and the columns. */
int
sf_grammar_make(const sf_model *m, const sf_dataset *d, const sf_setup *st,
                sf_grammar *g, sf_error *err)
{
	sf_fit_settings fs = m->fit;
	double *base = NULL;
	int rc;

	memset(g, 0, sizeof *g);
	g->d = d;
	if ((rc = sf_chain_make(d, (size_t)st->extrap, &g->ch, err)) != SF_OK)
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
	if ((rc = make_steps(g, st, err)) != SF_OK)
		return rc;
	return make_shapes(g, st, err);
}

/* ---- shapes as text ---------------------------------------------------- */

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

/* The numerator collects the coefficient, the count (or the steps: NULL
 * in num) and every factor's positive power, log power or p - 1; the
 * denominator the negative powers. */
void
sf_shape_text(sf_text *b, const sf_dataset *d, const sf_setup *st,
              const sf_shape *s, int named, const char *name,
              const char *coefficient)
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
	if (s->steps)
		num[nn] = NULL, num_e[nn] = 1, num_log[nn++] = 0;
	else if (s->count)
		num[nn] = d->inputs[st->count].name, num_e[nn] = 1,
		num_log[nn++] = 0;
	for (int q = 0; q < s->nfactors; q++) {
		const sf_factor *f = &s->f[q];
		const char *x = d->inputs[f->input].name;

		if (q == named) {
			num[nn] = x, num_e[nn] = NAN, num_log[nn++] = 0;
		} else if (f->kind == SF_FACTOR_COMM) {
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
		if (num[q] == NULL)
			sf_text_printf(b, "%s%s / (%s * %s)%s",
			               sf_steps_open(s->steps),
			               d->inputs[st->count].name,
			               d->inputs[st->workers].name,
			               d->inputs[st->batch].name,
			               sf_steps_close(s->steps));
		else if (num_log[q] < 0)
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

sf_term_kind
sf_shape_kind(const sf_setup *st, const sf_shape *s)
{
	int comm = 0, split = 0;

	for (int q = 0; q < s->nfactors; q++) {
		const sf_factor *f = &s->f[q];
		if (f->input != st->workers)
			continue;
		if (f->kind == SF_FACTOR_COMM || f->j > 0 || f->i > 0)
			comm = 1;
		else if (f->i < 0)
			split = 1;
	}
	if (comm)
		return SF_TERM_COMMUNICATION;
	if (s->count && !s->steps && !split)
		return SF_TERM_IO;
	return SF_TERM_COMPUTE;
}
