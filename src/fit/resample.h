/*
 * resample.h - how much the fitted constants move: bootstrap replicates
 * and independent restarts.
 *
 * Bootstrap: each replicate draws the dataset's configurations with
 * replacement (a configuration's repetitions travel together, so the
 * resample keeps the data's structure) and refits.  For a least-squares
 * cost the refit is warm-started - the polish alone, from the full fit's
 * constants - which is the usual "bootstrap around the optimum" and costs
 * a few Jacobians per replicate; for other costs each replicate is a full
 * search.  Replicate b's draws come from its own PCG stream, so the
 * samples are the same for a seed whatever the thread count.  Intervals
 * are the 2.5th and 97.5th percentiles (linear interpolation between order
 * statistics) of the replicates that fitted.
 *
 * Restarts: K complete fits with seeds seed, seed + 1, ...; the spread of
 * their best constants shows when a formula is not identifiable from the
 * data (different constants, equal cost).
 *
 * Ownership: results are the caller's (sf_resample_free).
 */
#ifndef SF_RESAMPLE_H
#define SF_RESAMPLE_H

#include "input/dataset.h"
#include "base/error.h"
#include "fit/fit.h"
#include "input/formula.h"
#include "input/model.h"

typedef struct sf_resample {
	size_t count; /* replicates or restarts */
	size_t nparams;
	double *samples; /* count x nparams; a failed one is all NaN */
	double *costs;   /* count */
	size_t failed;
	double *low, *high, *median, *sd; /* per parameter */
	size_t evaluations;
} sf_resample;

/* N bootstrap replicates around fit full of formula f on d. */
int sf_bootstrap_run(const sf_model *m, const sf_dataset *d,
                     const sf_formula *f, const sf_fit_options *o,
                     const sf_fit_result *full, size_t n, sf_resample **out,
                     sf_error *err);

/*
 * K fits with consecutive seeds from o's (or the model's) seed.  *best
 * gets the lowest-cost fit (the caller frees it), *out the spread.
 */
int sf_restarts_run(const sf_model *m, const sf_dataset *d, const sf_formula *f,
                    const sf_fit_options *o, size_t k, sf_fit_result **best,
                    sf_resample **out, sf_error *err);

void sf_resample_free(sf_resample *r);

#endif /* SF_RESAMPLE_H */
