/*
 * grammar.h - the grammar of `scalefit discover` (discover.h): every term
 * shape over the inputs the search may use, and each shape's column over
 * the training rows, sorted by the level of the extrapolated input.
 *
 * A shape is the count input (or 1) times at most `factors` factors over
 * distinct other inputs: x^i log2(x)^j (i from the exponent grid, j from
 * the log powers), and for the workers input also (p - 1) p^i, i = 0, -1,
 * -2.  Powers that need x > 0 are offered only when every value is; an
 * input that does not vary offers none.  With a count, a term without it
 * is a per-run cost and may use the workers only.  With a batch b too, the
 * whole steps S may stand for the count, rounded either way a data
 * loader rounds them - ceil(n / (p b)) keeps the last partial batch,
 * max(1, floor(n / (p b))) drops it - times per-step factors: powers of
 * the batch (compute) or the workers' log2(p)^j, p^i and communication
 * shapes (exchange), not both, and powers of the other inputs; they are
 * offered only when n / (p b) is not whole on some training row (else S
 * is n / (p b), which the count's shapes write), and the folds tell the
 * roundings apart.
 * Shapes are ordered by how complicated they read (factor costs, the
 * count, the steps' rounding), then by their place in the enumeration, and
 * kept once: a shape whose column is c + d times a simpler one's on the
 * training rows, c >= 0 and d > 0 (b^0.5 and b where b takes two values),
 * gives the same formulas, the start-up (>= 0) taking c, and so is left
 * out; with c < 0 (b^2, p - 1) it is not.  With a count, no shape costs
 * less per step as workers join (sf_grammar_least_exponent): in
 * data-parallel training each worker computes its own batch and an
 * exchange does not shrink; and, where the search caps the growth
 * (discover.growth_cap), no shape's cost per step grows faster than p^2
 * (sf_grammar_most_exponent).  Those are still enumerated and kept once,
 * last, so that the count of those left out (too_steep) is of distinct
 * columns.
 *
 * The grammar also holds what every fit needs: the rows' outputs and
 * weights (the relative loss's 1 / y^2, times the data's weights), each
 * level's sum of w y^2, the inputs' columns and the rows' configurations.
 *
 * Ownership: an sf_grammar owns its arrays (sf_grammar_free) and borrows
 * the dataset it was made from.  Immutable once made: threads share it.
 */
#ifndef SF_DISCOVER_GRAMMAR_H
#define SF_DISCOVER_GRAMMAR_H

#include "base/error.h"
#include "base/text.h"
#include "discover/chain.h"
#include "discover/setup.h"
#include "input/dataset.h"
#include "input/model.h"
#include "input/steps.h"

#include <stddef.h>

/* A factor's form: x^i log2(x)^j, or (x - 1) x^i (communication). */
enum { SF_FACTOR_POWER, SF_FACTOR_COMM };

/* x^i log2(x)^j, or (x - 1) x^i. */
typedef struct sf_factor {
	int input, kind, j;
	double i;
} sf_factor;

/* The count (or 1, or the whole steps) times the factors, over distinct
 * inputs. */
typedef struct sf_shape {
	int count;           /* 1: the count, or the steps, multiplies it */
	sf_steps_rule steps; /* input/steps.h: SF_STEPS_QUOTIENT none, else
	                       the whole steps do, so rounded */
	int nfactors, cost;  /* cost: the factors', and the steps' over the
	                        count's */
	sf_factor f[SF_DISCOVER_MAX_FACTORS];
	size_t order;  /* of enumeration: the last tie-break */
	int too_steep; /* its cost per step grows faster than the cap allows:
	                  enumerated, kept once and counted, never searched */
} sf_shape;

/* Everything a fit needs, over the training rows sorted by level. */
typedef struct sf_grammar {
	const sf_dataset *d; /* the training rows */
	sf_chain ch;
	size_t rows;
	double *y, *w;      /* per sorted row */
	double *yy;         /* per level: sum w y^2 */
	size_t min_configs; /* configurations the first fold fits */
	size_t nshapes;
	size_t too_steep; /* shapes left out: cost per step above p^2 */
	sf_shape *shapes;
	double *col;                   /* nshapes x rows */
	double *ones;                  /* the start-up's column */
	double *steps[SF_STEPS_RULES]; /* [SF_STEPS_FLOOR], [SF_STEPS_CEIL]:
	                  the whole steps per sorted row; NULL when the
	                  grammar has none (no batch, or n / (p b) whole) */
	double *x;   /* d->ninputs x rows: the inputs, sorted */
	size_t *cfg; /* each sorted row's configuration */
} sf_grammar;

/*
 * The grammar of m's training rows d under st: the rows sorted by the
 * extrapolated input's levels (the folds over them), their outputs and
 * weights in st's loss (m's weighting), and every shape's column.
 * Returns SF_OK; the chain's errors (fewer than 3 levels), SF_EVALUE when
 * more than 16 inputs vary or the grammar has more than 200,000 shapes,
 * SF_ENOMEM.  g is the caller's to free (sf_grammar_free) either way.
 */
int sf_grammar_make(const sf_model *m, const sf_dataset *d, const sf_setup *st,
                    sf_grammar *g, sf_error *err);

/* Release g's arrays and leave it empty. */
void sf_grammar_free(sf_grammar *g);

/*
 * Append shape s as an expression over d's inputs to b, "n * log2(p) /
 * (p * b)": the count (or the steps, "ceil(n / (p * b))" or "max(1,
 * floor(n / (p * b)))") and the
 * factors' positive parts over their negative ones.  With named >= 0, factor
 * `named` is written x^name (a fitted exponent).  With coefficient, the text is
 * the term: coefficient times the shape.
 */
void sf_shape_text(sf_text *b, const sf_dataset *d, const sf_setup *st,
                   const sf_shape *s, int named, const char *name,
                   const char *coefficient);

/* The least exponent i that factor f (x^i log2(x)^j, or (x - 1) x^i) of
 * a shape may have, the count (count) or its whole steps (steps too)
 * multiplying it or not: a workers factor's cost per step must not fall
 * as workers join (grammar.c); -INFINITY for any other input, a term
 * without the count, and without a count. */
double sf_grammar_least_exponent(const sf_setup *st, const sf_factor *f,
                                 int count, int steps);

/* A step's cost grows at most as p^2 in the workers p (contention
 * between every pair of workers, an exchange of all to all; a ring's
 * all-reduce grows as p, a tree's as log2(p)): a shape that grows faster
 * extrapolates a runaway, not a cost of data-parallel training. */
#define SF_GRAMMAR_MOST_ORDER 2.0

/* A log2(p) counts as p^0.5 against it, a convention: log2(p) goes 2, 3,
 * 4 from 4 to 16 workers, where runs are extrapolated (as p^0.58, then
 * p^0.42; faster below, slower above). */
#define SF_GRAMMAR_LOG_POWER 0.5

/* The largest exponent i that factor f of a shape may have, the count
 * (count) or its whole steps (steps too) multiplying it or not: a workers
 * factor's term costs at most p^SF_GRAMMAR_MOST_ORDER a step, counting
 * p^i log2(p)^j as p^(i + SF_GRAMMAR_LOG_POWER j), (p - 1) p^i as
 * p^(i + 1), and a term of the count, n f(p), as p b f(p) a step (its
 * steps are n / (p b)); INFINITY for any other input, and where the
 * search does not cap the growth (discover.growth_cap; by default it
 * does where a count or a batch is beside the workers: a problem size
 * extrapolated as Extra-P does has neither). */
double sf_grammar_most_exponent(const sf_setup *st, const sf_factor *f,
                                int count, int steps);

/* What a shape says its term is: growing with the workers (a power or
 * log of p, p - 1) is communication; a count split over the workers is
 * compute, a count that is not is the input pipeline (io); without a
 * count, per-step work is compute, and so is the steps' (each worker's
 * batch, every step). */
sf_term_kind sf_shape_kind(const sf_setup *st, const sf_shape *s);

#endif /* SF_DISCOVER_GRAMMAR_H */
