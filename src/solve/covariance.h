/*
 * covariance.h - the linearised statistics of a least-squares fit: the
 * covariance of the parameters, their standard errors, the condition number
 * of the Jacobian, the correlation matrix and Student t quantiles.
 *
 * At the fitted theta, with the Jacobian J (m x n, row-major, exact) and the
 * residuals r, the covariance is
 *
 *     cov = s^2 (J_F^T J_F)^+,   s^2 = S / (m - n_free),   S = sum r_i^2,
 *
 * over the free parameters F.  Choices, stated once here:
 *  - A parameter held at a bound by the fit (polish's active[j] != 0) is
 *    not estimated from the data but pinned by the constraint: it is left
 *    out of n_free (so it does not cost a degree of freedom), and its
 *    standard error, its row and column of cov and of the correlation
 *    matrix are NaN.  A parameter that merely touches a bound with zero
 *    gradient is free.
 *  - The inverse is a pseudo-inverse from the SVD of J_F D^-1, where D
 *    scales every free column to unit 2-norm (so the rank decision does not
 *    depend on the parameters' units).  Singular values s_k <= rcond * s_max
 *    are dropped; the default rcond is max(m, n_free) * DBL_EPSILON, the
 *    LAPACK/NumPy convention.  info->rank < info->n_free reports rank
 *    deficiency; the variances of the remaining directions are then those
 *    of the minimum-norm solution and understate the true (infinite)
 *    uncertainty of the unidentifiable combination, so callers should show
 *    the deficiency rather than the numbers.
 *  - The condition number is s_max / s_min of that same column-scaled
 *    matrix (all singular values, none dropped), +INFINITY when s_min is 0.
 *
 * Ownership: the workspace owns its memory; sf_covariance_alloc() is the only
 * function that allocates.  Inputs are read, never kept; outputs go to
 * caller-owned arrays.
 *
 * Thread safety: one workspace per thread; the other functions are pure.
 * GSL's default error handler aborts; programs should call
 * gsl_set_error_handler_off() at start-up (this module never passes GSL
 * arguments it rejects, and checks every status).
 */
#ifndef SF_COVARIANCE_H
#define SF_COVARIANCE_H

#include <stddef.h>

#include "base/error.h"

/* The workspace: opaque, made by sf_covariance_alloc(). */
typedef struct sf_covariance sf_covariance;

/* A parameter whose squared share in the Jacobian's null space exceeds
 * this is not determined by the data: its standard error is +INFINITY
 * (cov keeps the pseudo-inverse, right for determined combinations). */
#define SF_COVARIANCE_NULL_SHARE 1e-6

/* What sf_covariance_compute() found besides the matrix. */
typedef struct sf_covariance_info {
	size_t n_free;      /* parameters not held at a bound */
	size_t rank;        /* numerical rank of the scaled free columns */
	size_t dof;         /* m - n_free, or 0 when m <= n_free */
	int rank_deficient; /* 1 when rank < n_free */
	double rss;         /* S = sum r_i^2 */
	double s2;          /* S / dof; NaN when dof == 0 */
	double condition;   /* of the column-scaled free Jacobian; +INFINITY
	                       when singular; NaN when n_free == 0 */
	double rcond;       /* the threshold actually used */
} sf_covariance_info;

/*
 * Allocate a workspace for m residuals and n parameters (m, n >= 1).
 * Returns NULL when out of memory or a size is 0.
 */
sf_covariance *sf_covariance_alloc(size_t m, size_t n);

/* Free a workspace.  Accepts NULL. */
void sf_covariance_free(sf_covariance *w);

/*
 * Compute the covariance of a fit from its Jacobian J (m x n, row-major) and
 * residuals r (m).  active (n values, may be NULL for "all free") marks
 * parameters held at a bound (non-zero).  rcond <= 0 selects the default
 * rank threshold.  Outputs, each optional (NULL to skip): cov (n x n,
 * row-major), se (n standard errors, sqrt of cov's diagonal), info.
 * Returns SF_OK; SF_EVALUE (err filled) when J or r has a non-finite value;
 * SF_EINTERNAL when the SVD fails.  A rank-deficient J is not an error: see
 * info->rank.
 */
int sf_covariance_compute(sf_covariance *w, const double *J, const double *r,
                          const int *active, double rcond, double *cov,
                          double *se, sf_covariance_info *info, sf_error *err);

/*
 * The correlation matrix of an n x n covariance: corr[i][j] = cov[i][j] /
 * sqrt(cov[i][i] cov[j][j]).  Entries whose variances are not positive
 * and finite are NaN (so a held parameter's row is NaN).  corr may be cov.
 */
void sf_covariance_correlation(size_t n, const double *cov, double *corr);

/*
 * The two-sided Student t quantile for a confidence level (0.95 gives the
 * t_{0.975, dof} of a 95 % interval theta +- t * se), by GSL's
 * gsl_cdf_tdist_Pinv.  Returns NaN when level is not inside (0, 1) or
 * dof < 1.
 */
double sf_covariance_t_quantile(double level, double dof);

#endif /* SF_COVARIANCE_H */
