/*
 * given.h - the formulas given on the board (discover.h): the model
 * file's own, and the formula library's that take its inputs (named
 * @NAME; run/discover.c grafts them onto the file's rows).  Each is
 * scored as the search scores its own - the same training rows and folds,
 * the same standard error - but through the fit pipeline (sf_tune_fit),
 * as `scalefit fit` fits it, so that the board compares what was found
 * with what was written; and kept as written, for an ensemble's member.
 *
 * Ownership: the candidate is the caller's (sf_board_candidate_free).
 */
#ifndef SF_DISCOVER_GIVEN_H
#define SF_DISCOVER_GIVEN_H

#include "base/error.h"
#include "discover/discover.h"
#include "discover/grammar.h"
#include "input/problem.h"

/*
 * Score problem p's formula (its own table and rows, split by o->train)
 * into the candidate c: each of g's folds fitted by sf_tune_fit and
 * predicting the rows above, then every training row.  Each fit runs
 * without its restarts: these fits are scores for the board, and the
 * restarts (each twice the first run) of a formula with max() took most of
 * discover's time.  The AICc is in the search's loss, from the
 * predictions, so that it compares with the discovered formulas' whatever
 * the model's own loss.  Scores that would not compare (other training
 * rows, a fold that failed) are NaN.  Returns SF_OK, SF_ENOMEM, or the
 * split's errors.
 */
int sf_given_score(const sf_problem *p, const sf_discover_options *o,
                   const sf_setup *st, const sf_grammar *g,
                   sf_discover_candidate *c, sf_error *err);

/*
 * The regime check (fit/interval.h) of problem p's formula, fitted as
 * sf_given_score fits it on its training rows (o->train), along the
 * input named along, under the prior of the file discover writes (its
 * fit.prior.disagreement, when >= 0: the check tests the top cut against
 * the spread the written file's intervals assume): its top cut's error
 * per doubling when the largest levels scale worse than the formula,
 * else NaN in *regime - its own check, not the fit.prior.regime a file
 * discover wrote carries.  Only
 * out of memory and the split's errors are errors: a formula whose fit
 * fails, or that has no interval, has no check.
 */
int sf_given_regime(const sf_problem *p, const sf_discover_options *o,
                    const char *along, double disagreement, double *regime,
                    sf_error *err);

#endif /* SF_DISCOVER_GIVEN_H */
