/*
 * tune.h - the fitting procedure commands run: `lambda: auto` chosen by
 * cross-validation, then the fit.
 *
 * The regularisation strength of `lambda: auto` is chosen from a log grid
 * (SF_LAMBDA_GRID values, fit.h) by the K-fold cross-validated MAPE over
 * configurations (validate.h); the fit is then run with the choice.  The
 * module sits above both fit.c and validate.c, so that neither includes the
 * other: validation takes the procedure to validate as an sf_fit_fn, and
 * validating sf_tune_fit repeats the lambda choice inside every fold, as a
 * user's own run would.
 *
 * Ownership: as sf_fit_run.  Thread safety: as sf_fit_run (fits run one
 * after another; each uses the threads its options ask for).
 */
#ifndef SF_TUNE_H
#define SF_TUNE_H

#include "base/error.h"
#include "fit/fit.h"
#include "input/dataset.h"
#include "input/formula.h"
#include "input/model.h"

/*
 * Fit f of m to d: with `lambda: auto` (and no lambda in o), choose lambda
 * by 5-fold cross-validation - folds dealt with the fit's seed, the lowest
 * MAPE wins, ties to the larger lambda - and fit with it, filling the
 * result's lambda_auto, lambda_folds, lambda_grid and lambda_cv_mape;
 * otherwise exactly sf_fit_run.  Returns as sf_fit_run.  An sf_fit_fn.
 */
int sf_tune_fit(const sf_model *m, const sf_dataset *d, const sf_formula *f,
                const sf_fit_options *o, sf_fit_result **out, sf_error *err);

#endif /* SF_TUNE_H */
