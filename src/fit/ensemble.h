/*
 * ensemble.h - several formulas fitted to the same rows, read as one
 * prediction: the members weigh the same, the prediction is the mean of
 * theirs (on the log of the time when errors are multiplicative), and a
 * new run's 95% interval the 2.5% and 97.5% quantiles of the mixture of
 * their predictive distributions.
 *
 * Why: beyond the measured range formulas that fit it equally well part
 * ways, and the one a search ranks first is often not the one that
 * extrapolates best.  The mixture holds their disagreement: one member's
 * interval when it has all the weight, wider than every one of them when
 * they part ways, and skewed toward the side where more of them lie.
 *
 * Weights: as the model file gives them (a models: item's weight:,
 * equal when it gives none), never estimated from the evidence beyond
 * the range.  The members are formulas kept together (discover's
 * ensemble, or a models: list); weights estimated from the few
 * forward-chain cuts beyond the range are noise, and for a found formula
 * its cuts are the very folds that chose it (the search's luck).  Equal
 * weights beat the inverse of each member's expected squared error per
 * doubling from its posterior (Bates and Granger 1969) on the campaigns
 * measured (HACKING):
 * the forecast combination puzzle (Stock and Watson 2004).  discover
 * weighs by source: its found formulas, chosen by the same folds, are
 * one forecaster's answers, and share the weight the model file's own
 * formulas share (discover.h).  Averaging fit files that no search
 * chose can still weigh by that evidence (use/average.h,
 * sf_interval_weight).
 *
 * Ownership: the functions fill caller-owned arrays; sf_ensemble_holdout
 * returns a new holdout (validate.h) the caller frees.
 */
#ifndef SF_ENSEMBLE_H
#define SF_ENSEMBLE_H

#include "base/error.h"
#include "fit/interval.h"
#include "fit/validate.h"
#include "input/dataset.h"

#include <stddef.h>

/*
 * Scale w[0..k) to sum 1, non-finite or negative entries counting 0.
 * Returns 0 when nothing is left to weigh (every entry 0), else 1.
 */
int sf_ensemble_normalise(double *w, size_t k);

/*
 * The point and the 2.5% and 97.5% quantiles of the mixture of k t
 * distributions t[i] with weights w[i] (summing to 1; members with weight
 * 0 or a non-finite or non-positive scale are left out): the point is
 * the weighted mean of their centres without their shifts (the formulas'
 * own predictions: the interval leans by the model error's bias, the
 * prediction does not), the quantiles the mixture's.  With
 * multiplicative errors the distributions are of the log of the time and
 * the results are returned as times.  Returns 1, or 0 (NaN results) when
 * no member is left.
 */
int sf_ensemble_mix(const double *w, const sf_interval_t *t, size_t k,
                    int multiplicative, double *point, double *lo, double *hi);

/*
 * The holdout of an ensemble from its k members' holdouts over the same
 * rows and folds, each run with shapes (validate.h): a row's prediction is
 * the point of its members' mixture, weighed by weights[0..k) (scaled to
 * sum 1; NULL: equally), and its interval the mixture's quantiles; the
 * scores are recomputed.  Rows a member did not predict are left out.
 * Returns SF_OK and a new holdout in *out, or SF_ENOMEM.
 */
int sf_ensemble_holdout(const sf_holdout *const *members, const double *weights,
                        size_t k, const sf_dataset *d, int multiplicative,
                        sf_holdout **out, sf_error *err);

#endif /* SF_ENSEMBLE_H */
