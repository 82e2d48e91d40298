/*
 * svd.h - the singular value decomposition of a Jacobian's free columns,
 * each divided by its scale: what the polish (its steps) and the
 * covariance (its pseudo-inverse) both factor.
 *
 * GSL's one-sided Jacobi SVD is used because, on a column-scaled matrix,
 * it finds the small singular values to high relative accuracy (NIST's
 * Lanczos, Thurber and MGH09 need them).  Jacobi needs at least as many
 * rows as columns: with fewer rows than free columns the transpose is
 * decomposed, not the matrix padded with zero rows to a square (a cubic
 * SVD of mostly zeros: 1,000 parameters on 8 rows took 28 s).
 *
 * Ownership: an sf_svd owns its matrices (sf_svd_alloc, sf_svd_free);
 * J, freeidx and scale are read during the call only.  Thread safety: one
 * sf_svd per thread.
 */
#ifndef SF_SVD_H
#define SF_SVD_H

#include <stddef.h>

#include "base/error.h"

#include <gsl/gsl_matrix.h>
#include <gsl/gsl_vector.h>

/* The matrices of one decomposition: made by sf_svd_alloc(), overwritten
 * by every sf_svd_scaled_columns(). */
typedef struct sf_svd {
	gsl_matrix *A;  /* max(m, n) x n: the scaled columns, then U (or V) */
	gsl_matrix *V;  /* n x n: V (or U) */
	gsl_vector *sv; /* n singular values */
} sf_svd;

/* Allocate *s for matrices of up to m rows and n columns.  Returns SF_OK
 * or SF_ENOMEM; free with sf_svd_free() either way. */
int sf_svd_alloc(sf_svd *s, size_t m, size_t n);

/* Release what s holds (s itself is the caller's); accepts a zeroed or
 * partly allocated one. */
void sf_svd_free(sf_svd *s);

/*
 * Decompose B = U S V^T, the m x nf matrix whose column k is column
 * freeidx[k] of J (m x n, row-major) divided by scale[freeidx[k]] (so
 * scale has n entries, indexed by J's column), with s allocated for m
 * rows and at least nf columns.
 *   m >= nf: U goes to s->A's top-left m x nf, V to s->V's top-left
 *            nf x nf and the nf singular values to s->sv[0..nf);
 *   m < nf:  B^T = V S U^T is decomposed instead: s->A's top-left nf x m
 *            holds V (B's right singular vectors, one column per singular
 *            value), s->V's top-left m x m holds U, and the m singular
 *            values go to s->sv[0..m); the other nf - m are 0 and left
 *            unwritten.
 * Returns GSL_SUCCESS, GSL_ETOL (the sweeps ran out; the factors are still
 * usable) or another GSL status (a failure).
 */
int sf_svd_scaled_columns(sf_svd *s, const double *J, size_t m, size_t n,
                          const size_t *freeidx, size_t nf,
                          const double *scale);

#endif /* SF_SVD_H */
