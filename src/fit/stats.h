/*
 * stats.h - how good a fit is, and how well its constants are determined.
 *
 * Computed once at the fitted parameters from the dataset, the formula and
 * the fit's settings:
 *   sse      sum (f_i - y_i)^2 over the rows, unweighted
 *   rmse     sqrt(sse / n)
 *   mape     100/n sum |f_i - y_i| / |y_i|          (percent)
 *   max_ape  100 max |f_i - y_i| / |y_i|            (percent)
 *   r2       1 - sse / sum (y_i - mean y)^2
 *   r2_adj   1 - (1 - r2) (n - 1) / (n - k - 1)
 *   chisqr   sum of the fit's squared residuals (weighted, in the loss's
 *            scale: relative errors for the relative loss); sse for the
 *            absolute loss, which has no residuals of its own
 *   aic      n ln(chisqr / n) + 2k                   (lmfit's definitions)
 *   bic      n ln(chisqr / n) + k ln(n)
 *   aicc     aic + 2k(k + 1) / (n - k - 1)           (NaN when n <= k + 1)
 * with k the number of fitted parameters.  The parameters' covariance is
 * the linearised one of the loss residuals at the optimum (covariance.h),
 * s^2 (J^T J)^-1 with s^2 = chisqr / (n - free parameters); a parameter
 * held at a bound has no standard error (NaN).  The regularisation
 * penalty is left out of it: it describes the data's information only.
 * Intervals are theta_j +- t(0.975, n - free) se_j.
 *
 * Ownership: the caller frees with sf_stats_free().
 */
#ifndef SF_STATS_H
#define SF_STATS_H

#include "input/dataset.h"
#include "base/error.h"
#include "fit/fit.h"
#include "input/formula.h"

typedef struct sf_stats {
	size_t n, k;        /* rows, fitted parameters */
	size_t n_free, dof; /* parameters not at a bound; n - n_free */
	double sse, rmse, mape, max_ape, r2, r2_adj;
	double chisqr, aic, aicc, bic;
	double *predicted;        /* n predictions at the fit */
	double *se;               /* k standard errors (NaN at a bound) */
	double *ci_low, *ci_high; /* k 95% intervals */
	double *cov, *corr;       /* k x k, row-major */
	double condition;         /* of the column-scaled Jacobian */
	size_t rank;              /* numerical rank of the free Jacobian */
	int rank_deficient;       /* rank < n_free: some se are +INFINITY */
	double t95;               /* the t quantile used */
	const char *note;         /* why there are no uncertainties, or NULL */
} sf_stats;

/*
 * The statistics of fit r of formula f on dataset d.  Returns SF_OK and a
 * new sf_stats in *out, or SF_ENOMEM / SF_EVALUE (a non-finite Jacobian).
 */
int sf_stats_compute(const sf_formula *f, const sf_dataset *d,
                     const sf_fit_result *r, sf_stats **out, sf_error *err);

/* Release s.  Accepts NULL. */
void sf_stats_free(sf_stats *s);

/* The share of its bounds' width a searched constant's 95% interval must
 * span for it to be called poorly determined. */
#define SF_STATS_POOR_SHARE 0.5

/* An AICc this much above the lowest of a set of models fitted to the
 * same rows: essentially no support (Burnham and Anderson, 2002). */
#define SF_AICC_NO_SUPPORT 10.0

/*
 * 1 when theta_j is poorly determined: searched (not solved separably,
 * r->linear), not held at a bound, with a finite standard error and a 95%
 * interval that, clipped to the bounds, spans at least
 * SF_STATS_POOR_SHARE of them (an exponent 10.7 +- 150 inside [1, 20]).
 * Such a constant's value is one of many the data allows; undetermined
 * ones (infinite error) are reported as such instead.
 */
int sf_stats_poorly_determined(const sf_stats *s, const sf_formula *f,
                               const sf_fit_result *r, size_t j);

#endif /* SF_STATS_H */
