/*
 * cost.h - the cost a fit minimises: loss over the rows plus lambda times
 * a penalty on the parameters, and its evaluation for a whole population.
 *
 * For row i with prediction f_i, measurement y_i and weight w_i (1 when
 * the dataset has none) the loss is sum w_i row(f_i, y_i), row being the
 * loss's function in solve/loss.h's table (relative, sse, log, absolute,
 * huber; their definitions are there).  The penalty works on the parameters
 * scaled by their bounds, z_j = theta_j / max(|lower_j|, |upper_j|), so lambda
 * is unit-free: l2: sum z_j^2    l1: sum |z_j|    none: 0 A loss with a
 * residual function (every one but absolute) is a sum of squared residuals, and
 * so is the l2 penalty; sf_cost_residuals() gives them, with their Jacobian, so
 * the least-squares polish minimises exactly the same cost.
 *
 * Any non-finite cost (a NaN prediction, a log of a negative) is +INFINITY,
 * so such a candidate always loses a comparison and can be replaced.
 *
 * Ownership: a cost borrows the formula and dataset (they must outlive
 * it) and owns the data bound to the programs and per-thread scratch.
 * Thread safety: sf_cost_population() runs its own OpenMP team; the other
 * evaluation functions use the scratch of the thread slot they are given.
 */
#ifndef SF_COST_H
#define SF_COST_H

#include "input/dataset.h"
#include "base/error.h"
#include "input/formula.h"
#include "input/model.h"
#include "solve/loss.h"

typedef struct sf_cost sf_cost;

/* What a cost is made of; see the top of this file. */
typedef struct sf_cost_settings {
	sf_loss loss;
	double huber_delta;
	sf_penalty penalty;
	double lambda;
	int threads; /* OpenMP threads for sf_cost_population; <= 0: all */
	int parallel_always; /* 1: use the threads even for small work (tests)
	                      */
} sf_cost_settings;

/*
 * A cost over the rows of d for formula f, both of which must outlive
 * it.  weights (d->rows values) may be NULL for 1 each, and is copied.  Returns
 * NULL with err filled (SF_ENOMEM; SF_EVALUE for lambda < 0, an unknown loss,
 * or a non-positive huber_delta for a loss that uses it).
 */
sf_cost *sf_cost_alloc(const sf_formula *f, const sf_dataset *d,
                       const double *weights, const sf_cost_settings *s,
                       sf_error *err);

/* Release c.  Accepts NULL. */
void sf_cost_free(sf_cost *c);

/* The number of rows, and of parameters (theta's length). */
size_t sf_cost_rows(const sf_cost *c);
size_t sf_cost_params(const sf_cost *c);

/* The most threads a cost uses, whatever OMP_NUM_THREADS says: tens of
 * thousands crash the OpenMP runtime or fail to start (scalefit(1)
 * LIMITS). */
enum { SF_THREADS_MAX = 1024 };

/* The thread slots sf_cost_population uses (scratch was made for them). */
int sf_cost_threads(const sf_cost *c);

/*
 * The loss and the penalty (not yet times lambda) at theta, using the
 * scratch of thread slot `slot` (< sf_cost_threads).  The total cost is
 * loss + lambda * penalty; a non-finite loss is +INFINITY.
 */
double sf_cost_loss(const sf_cost *c, const double *theta, int slot);
double sf_cost_penalty(const sf_cost *c, const double *theta);
double sf_cost_total(const sf_cost *c, const double *theta, int slot);

/*
 * The costs of n candidates (row-major, n x P) into costs, in parallel
 * with OpenMP.  Each candidate is computed whole by one thread, so the
 * costs are bit-identical whatever the number of threads.
 */
void sf_cost_population(const sf_cost *c, double *candidates, size_t n,
                        double *costs);

/*
 * 1 when the cost is a sum of squared residuals (a loss with a residual
 * function, with a none or l2 penalty), so the least-squares polish
 * applies.
 */
int sf_cost_is_least_squares(const sf_cost *c);

/*
 * The number of residuals: one per row, plus one per parameter with an l2
 * penalty and lambda > 0.
 */
size_t sf_cost_residual_count(const sf_cost *c);

/*
 * The residuals r (sf_cost_residual_count values) whose squares sum to the
 * total cost at theta, and when J is not NULL their Jacobian (row-major,
 * residuals x P).  Returns SF_OK, or SF_EVALUE when a residual or
 * derivative is not finite or the loss has no residuals.  Uses thread
 * slot 0's scratch.  Only for a least-squares cost.
 */
int sf_cost_residuals(const sf_cost *c, const double *theta, double *r,
                      double *J);

/* The predictions f_i at theta (d->rows values), with thread slot 0. */
void sf_cost_predict(const sf_cost *c, const double *theta, double *f);

/*
 * Separable least squares (variable projection, Golub & Pereyra 1973).
 * Timing formulas are mostly sums of terms with a constant in front
 * (t0 + steps * (a + c * b) + ...): the residuals are affine in those
 * constants.  For such a constant the best value given the others is a
 * bounded linear least-squares solve (boxls.h), so the global search only
 * needs to look at the others - often none at all.  Applies to the
 * quadratic losses (sse, relative: solve/loss.h) with no or an l2
 * penalty.
 */

/* 1 when the loss and penalty allow separable evaluation. */
int sf_cost_is_separable_loss(const sf_cost *c);

/*
 * Which parameters the residuals are jointly affine in: no derivative by
 * one of them reads any of them (the symbolic derivatives), and probing
 * the residuals and Jacobian at random points of the box (fixed seed)
 * agrees, which catches what derivatives hide (floor, comparisons):
 * linear[j] = 1 or 0 (P values); returns the count.  0 when the loss does
 * not allow it.  SF_ENOMEM goes to err (and 0 is returned).
 */
size_t sf_cost_find_linear(sf_cost *c, int *linear, sf_error *err);

/*
 * Evaluate separably from now on: sf_cost_population() then replaces each
 * candidate's linear entries by their best values within bounds and
 * returns the cost there.  Returns SF_OK or SF_ENOMEM.
 */
int sf_cost_set_separable(sf_cost *c, const int *linear, sf_error *err);

/* How many parameters are solved rather than searched (0: not separable). */
size_t sf_cost_separable_count(const sf_cost *c);

/* Set theta's linear entries to their best values given the others, with
 * thread slot's workspace; returns the total cost there (+INFINITY when
 * the residuals are not finite). */
double sf_cost_profile(const sf_cost *c, double *theta, int slot);

#endif /* SF_COST_H */
