/*
 * tune.c - `lambda: auto`: the regularisation strength chosen by
 * cross-validation, then the fit (tune.h).
 */
#include "fit/tune.h"
#include "base/clock.h"
#include "fit/validate.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* The grid: 0 (no penalty), then 1e-6 to 1 by decades. */
static const double lambda_grid[SF_LAMBDA_GRID] = {
    0, 1e-6, 1e-5, 1e-4, 1e-3, 1e-2, 1e-1, 1,
};
enum { LAMBDA_FOLDS = 5 };

/*
 * Score each lambda of the grid by the K-fold cross-validated MAPE over
 * configurations; the lowest wins (ties to the larger lambda: the simpler
 * fit).  Folds and fits are seeded from the fit's seed, so the choice is
 * reproducible.
 */
static int
choose_lambda(const sf_model *m, const sf_dataset *d, const sf_formula *f,
              const sf_fit_options *o, uint64_t seed, double *curve,
              size_t *folds_used, double *chosen, sf_error *err)
{
	int *fold = malloc((d->rows + 1) * sizeof *fold);
	size_t nfolds;
	double best = INFINITY;
	int rc = SF_OK;

	*chosen = 0;
	if (fold == NULL)
		return sf_error_set(err, SF_ENOMEM, "out of memory");
	nfolds = sf_folds_kfold(d, LAMBDA_FOLDS, seed, fold);
	*folds_used = nfolds;
	for (size_t g = 0; g < SF_LAMBDA_GRID; g++) {
		sf_fit_options lo = *o;
		sf_holdout *h = NULL;

		curve[g] = NAN;
		if (nfolds == 0)
			continue;
		lo.has_lambda = 1;
		lo.lambda = lambda_grid[g];
		lo.has_seed = 1;
		lo.seed = seed;
		lo.progress = NULL;
		rc = sf_holdout_run(m, d, f, &lo, sf_fit_run, fold, nfolds, 0,
		                    &h, err);
		if (rc != SF_OK)
			break;
		curve[g] = h->failed_folds == 0 ? h->mape : NAN;
		sf_holdout_free(h);
		if (curve[g] <= best) {
			best = curve[g];
			*chosen = lambda_grid[g];
		}
	}
	free(fold);
	return rc;
}

int
sf_tune_fit(const sf_model *m, const sf_dataset *d, const sf_formula *f,
            const sf_fit_options *o, sf_fit_result **out, sf_error *err)
{
	sf_fit_settings settings = sf_fit_settings_effective(m, o);
	double curve[SF_LAMBDA_GRID], chosen;
	size_t folds = 0;
	sf_fit_options with = *o;
	struct timespec start;
	int rc;

	*out = NULL;
	if (!settings.lambda_auto)
		return sf_fit_run(m, d, f, o, out, err);
	sf_clock_now(&start);
	rc = choose_lambda(m, d, f, o, settings.seed, curve, &folds, &chosen,
	                   err);
	if (rc != SF_OK)
		return rc;
	with.has_lambda = 1;
	with.lambda = chosen;
	rc = sf_fit_run(m, d, f, &with, out, err);
	if (*out != NULL) {
		(*out)->lambda_auto = 1;
		(*out)->lambda_folds = folds;
		memcpy((*out)->lambda_grid, lambda_grid, sizeof lambda_grid);
		memcpy((*out)->lambda_cv_mape, curve, sizeof curve);
		(*out)->settings.lambda_auto = 1;
		(*out)->seconds = sf_clock_seconds_since(&start);
	}
	return rc;
}
