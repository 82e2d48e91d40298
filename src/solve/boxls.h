/*
 * boxls.h - bounded linear least squares for a few unknowns:
 *
 *     minimise || r0 + J x ||^2   subject to  lower <= x <= upper,
 *
 * J an m x k matrix (k small: the constants a formula is linear in), by
 * the primal active-set method on the normal equations (Nocedal & Wright,
 * Numerical Optimization, 2nd ed., section 16.5), with the columns scaled
 * to unit norm and each free subsystem solved by a Cholesky factorisation
 * (a 1e-10 ridge on the unit diagonal when it fails).  Squaring the
 * condition number is acceptable here: the rows' answer seeds a global
 * search and is refined afterwards by the polish on the residuals
 * themselves.  With bounds [0, inf) this is non-negative least squares
 * (NNLS), as Ernest fits its model: every unknown starts free, so the
 * first solve is the unconstrained answer, which most fits keep.
 *
 * Two forms, one method: sf_boxls_solve() takes the rows (J, r0) and
 * factorises with GSL; sf_boxls_solve_gram() takes the normal equations
 * themselves (G = J^T W J, h = J^T W y), which a caller that fits many
 * subsets of rows or columns sums once and reuses (discover's folds: a
 * fold's Gram matrix is the sum of its levels'), and factorises inline
 * (no calls: millions of solves a second of a few unknowns).
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
 * wider matrix: column c of the problem is J[i * ld + col[c]], or
 * J[i * ld + c] when col is NULL).  Returns 0
 * on success, -1 when the inputs are not finite or the bounds are empty.
 */
int sf_boxls_solve(sf_boxls *w, size_t m, size_t k, const double *r0,
                   const double *J, size_t ld, const size_t *col,
                   const double *lower, const double *upper, double *x);

/*
 * Minimise x^T G x - 2 h^T x (that is, sum w (J x - y)^2 less a constant,
 * for G = J^T W J and h = J^T W y) subject to lower <= x <= upper, for k
 * unknowns: G is k x k, symmetric, with row stride ldg >= k (it may be
 * the top left of a larger matrix); h has k values.  lower NULL means 0
 * for every unknown, upper NULL no upper bound, so (NULL, NULL) is NNLS.
 * ridge (>= 0) is added to the diagonal of the scaled G, whose diagonal
 * is 1: collinear columns still give a (minimum-norm-like) answer, and
 * no well-posed fit moves by more than about ridge, relative.  An unknown
 * whose diagonal is 0 or not finite (its column is zero on the rows, or
 * overflows) is held at the feasible point nearest 0.  Returns 0, -1 when
 * k exceeds the workspace or a box is empty.
 */
int sf_boxls_solve_gram(sf_boxls *w, size_t k, const double *G, size_t ldg,
                        const double *h, double ridge, const double *lower,
                        const double *upper, double *x);

#endif /* SF_BOXLS_H */
