/*
 * boxls.h - bounded linear least squares for a few unknowns:
 *
 *     minimise || r0 + J x ||^2   subject to  lower <= x <= upper,
 *
 * J an m x k matrix (k small: the constants a formula is linear in), by
 * the primal active-set method on the normal equations (Nocedal & Wright,
 * Numerical Optimization, 2nd ed., section 16.5), with the columns scaled
 * to unit norm and each free subsystem solved by GSL's Cholesky
 * factorisation.  Squaring the condition number is acceptable here: the
 * answer seeds a global search and is refined afterwards by the polish on
 * the residuals themselves.  With bounds [0, inf) this is non-negative
 * least squares (NNLS), as Ernest fits its model.
 *
 * A workspace serves one thread; solving allocates nothing.
 */
#ifndef SF_BOXLS_H
#define SF_BOXLS_H

#include <stddef.h>

typedef struct sf_boxls sf_boxls;

/* A workspace for up to k unknowns, or NULL when out of memory. */
sf_boxls *sf_boxls_alloc(size_t k);
void sf_boxls_free(sf_boxls *w);

/*
 * Solve for x (k values; its input is ignored) given r0 (m values) and J
 * (m x k, row-major, with row stride ld >= k so J may be some columns of a
 * wider matrix: column c of the problem is J[i * ld + col[c]]).  Returns 0
 * on success, -1 when the inputs are not finite or the bounds are empty.
 */
int sf_boxls_solve(sf_boxls *w, size_t m, size_t k, const double *r0,
                   const double *J, size_t ld, const size_t *col,
                   const double *lower, const double *upper, double *x);

#endif /* SF_BOXLS_H */
