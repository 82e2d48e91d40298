/*
 * separate.h - which run to measure next for an ensemble (fit/ensemble.h):
 * a run narrows each formula's own interval (design.h) and tells the
 * formulas apart, and both narrow the mixture's interval at the target.
 *
 * Beyond the measured range an ensemble's interval is mostly its
 * formulas' disagreement, which no single formula's design sees: a run
 * where they part, measured, leaves the weight with those that predicted
 * it (Box and Hill 1967, model discrimination).  For each candidate x the
 * run's result y is not known, so the interval after it is an expectation
 * over y from today's mixture at x (each formula's distribution there cut
 * into equally likely slices, each taken at its middle quantile and
 * weighted by that formula's weight):
 *   w_m(y) = w_m p_m(y | x) / sum_j w_j p_j(y | x),
 * p_m a new run's distribution under formula m (interval.h, a Student t),
 * and the target's interval is the mixture, with w(y), of each formula's
 * distribution at the target after the run: its own design's (the
 * constants' variance and the distance the run leaves), its centre
 * pulled toward the run's surprise by the regression of its error at the
 * target on its error at the run (sf_separate_pulls).  Its bounds
 * relative to its point are averaged over y and placed about today's
 * point, as one formula's design places its interval after a run.  What
 * the run tells of which formula holds is the expected drop in the
 * weights' entropy, H(w) - E_y H(w(y)) (nats; H(w), ln K for K formulas
 * weighed equally, tells it all).
 *
 * A plan of several runs is not made for an ensemble: what a second run
 * is worth depends on which formulas the first rules out.
 *
 * Ownership: the result is new (sf_next_free).  Thread safety: pure.
 */
#ifndef SF_SEPARATE_H
#define SF_SEPARATE_H

#include "base/error.h"
#include "use/design.h"
#include "use/fitfile.h"
#include "use/predict.h"

#include <stddef.h>

/*
 * How far formula f's centre at the target (inputs target, prediction
 * pt) moves per unit of a run's surprise (its result less its centre
 * there) at each of pc's points (at: their distributions, shapes of
 * interval.h), into pull[0..pc->n): the regression of f's error at the
 * target on the run's, cov / var(run), on the loss's scale.  The
 * covariance is its fitted means' at the two points (design.h) and,
 * along each input where both lie on one side of the range, the model
 * error they share, sqrt(V(Dx) (V(Dt) - V(Dt - Dx))) with V the model
 * error's variance at a distance (V(Dt - Dx) 0 when the run lies past
 * the target): what makes the spread of the centre after the run and
 * design.h's interval after it (its range moved to the run) add up to
 * today's.  lean[q] gets the model error's bias the two share (up to the
 * nearer of them, along those inputs), on the target's scale, which
 * design.h's interval after the run no longer carries.
 * pull is 0 where the run's variance is not positive.
 */
void sf_separate_pulls(const sf_fitfile *f, const double *target,
                       const sf_prediction *pt, const sf_prediction *pc,
                       const sf_interval_t *at, double *pull, double *lean);

/* Slices of each formula's distribution of a run's result in the
 * expectation over it. */
#define SF_SEPARATE_NODES 10

/*
 * `scalefit next` for ensemble e (e->nmembers > 0, each member with its
 * error model and covariance), as sf_next_run for one fit (design.h) but
 * without a plan: x->members is the number of formulas mixed,
 * x->formula_entropy their weights' entropy, each gain's formula_info
 * what the run tells of which holds (NaN where a formula has no
 * distribution at the candidate), its mean_var and d_gain NaN.
 * Returns SF_OK and a new sf_next in *out, SF_EVALUE (a member with
 * weight but without an error model or covariance, no formula with
 * weight, no candidate, the target's prediction not finite) or
 * SF_ENOMEM, with err filled.
 */
int sf_next_ensemble(const sf_fitfile *e, const double *target,
                     const double *const *columns, size_t n, sf_next **out,
                     sf_error *err);

#endif /* SF_SEPARATE_H */
