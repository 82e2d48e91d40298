/*
 * covariance.c - covariance, standard errors, condition number and
 * correlations of a least-squares fit, from the SVD of its Jacobian.
 *
 * Working from the SVD of J (never from J^T J) keeps the small singular
 * values accurate: forming J^T J would square the condition number and
 * lose half the digits on problems such as NIST's Lanczos or Thurber.
 * The SVD is solve/svd's (GSL's one-sided Jacobi on the column-scaled
 * matrix, small singular values to high relative accuracy); with fewer
 * rows than free parameters (m < nf) it decomposes the transpose, nf x m,
 * whose U is J's V.
 */
#include "solve/covariance.h"
#include "solve/svd.h"

#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_blas.h>
#include <gsl/gsl_cdf.h>
#include <gsl/gsl_errno.h>
#include <gsl/gsl_linalg.h>
#include <gsl/gsl_matrix.h>
#include <gsl/gsl_vector.h>

struct sf_covariance {
	size_t m, n;
	sf_svd svd;      /* of the scaled free columns */
	double *scale;   /* n column norms, by J's column */
	size_t *freeidx; /* n */
};

sf_covariance *
sf_covariance_alloc(size_t m, size_t n)
{
	sf_covariance *w;

	if (m == 0 || n == 0)
		return NULL;
	w = calloc(1, sizeof *w);
	if (w == NULL)
		return NULL;
	w->m = m;
	w->n = n;
	w->scale = malloc(n * sizeof(double));
	w->freeidx = malloc(n * sizeof(size_t));
	if (sf_svd_alloc(&w->svd, m, n) != SF_OK || w->scale == NULL ||
	    w->freeidx == NULL) {
		sf_covariance_free(w);
		return NULL;
	}
	return w;
}

void
sf_covariance_free(sf_covariance *w)
{
	if (w == NULL)
		return;
	sf_svd_free(&w->svd);
	free(w->scale);
	free(w->freeidx);
	free(w);
}

/* Check that J and r are finite; store S = sum r_i^2 in *rss. */
static int
check_inputs(const sf_covariance *w, const double *J, const double *r,
             double *rss, sf_error *err)
{
	const size_t m = w->m, n = w->n;
	gsl_vector_const_view rv = gsl_vector_const_view_array(r, m);
	double norm;

	for (size_t i = 0; i < m * n; i++)
		if (!isfinite(J[i]))
			return sf_error_set(err, SF_EVALUE,
			                    "covariance: the Jacobian has a "
			                    "non-finite value (row %zu, "
			                    "column %zu)",
			                    i / n, i % n);
	for (size_t i = 0; i < m; i++)
		if (!isfinite(r[i]))
			return sf_error_set(err, SF_EVALUE,
			                    "covariance: residual %zu "
			                    "is not finite",
			                    i);
	norm = gsl_blas_dnrm2(&rv.vector);
	*rss = norm * norm;
	return SF_OK;
}

/*
 * The SVD of J's nf free columns, each scaled to unit norm (a zero column
 * stays zero), with the nf - m singular values a wide matrix lacks set to
 * 0; the largest singular value in *smax and the condition number in
 * *condition.
 */
static int
decompose(sf_covariance *w, const double *J, size_t nf, double *smax,
          double *condition, sf_error *err)
{
	const size_t m = w->m, n = w->n;
	size_t ns = m < nf ? m : nf;
	double smin = INFINITY;
	int status;

	for (size_t k = 0; k < nf; k++) {
		size_t j = w->freeidx[k];
		gsl_vector_const_view c =
		    gsl_vector_const_view_array_with_stride(J + j, n, m);
		double norm = gsl_blas_dnrm2(&c.vector);

		w->scale[j] = norm > 0.0 ? norm : 1.0;
	}
	status =
	    sf_svd_scaled_columns(&w->svd, J, m, n, w->freeidx, nf, w->scale);
	if (status != GSL_SUCCESS && status != GSL_ETOL)
		return sf_error_set(err, SF_EINTERNAL,
		                    "covariance: SVD failed: %s",
		                    gsl_strerror(status));
	for (size_t k = ns; k < nf; k++)
		gsl_vector_set(w->svd.sv, k, 0.0);
	*smax = 0.0;
	for (size_t k = 0; k < nf; k++) {
		double s = gsl_vector_get(w->svd.sv, k);
		if (s > *smax)
			*smax = s;
		if (s < smin)
			smin = s;
	}
	*condition = smin > 0.0 ? *smax / smin : INFINITY;
	return SF_OK;
}

/* The right singular vectors, column k for singular value k: V, or with
 * fewer rows than free columns the transpose's U (in A). */
static const gsl_matrix *
right_vectors(const sf_covariance *w, size_t nf)
{
	return w->m < nf ? w->svd.A : w->svd.V;
}

/*
 * cov_F = s2 D^-1 V diag(1/s_k^2) V^T D^-1 over the singular values above
 * cut, into cov and its diagonal's square roots into se (either may be
 * NULL); the held parameters' entries NaN.
 */
static void
pseudo_inverse(const sf_covariance *w, size_t nf, double cut, double s2,
               double *cov, double *se)
{
	const size_t n = w->n, ns = w->m < nf ? w->m : nf;
	const gsl_matrix *right = right_vectors(w, nf);

	for (size_t j = 0; j < n; j++) {
		if (se != NULL)
			se[j] = NAN;
		if (cov != NULL)
			for (size_t l = 0; l < n; l++)
				cov[j * n + l] = NAN;
	}
	for (size_t a = 0; a < nf; a++)
		for (size_t b = a; b < nf; b++) {
			size_t ja = w->freeidx[a], jb = w->freeidx[b];
			double sum = 0.0, c;

			for (size_t k = 0; k < ns; k++) {
				double s = gsl_vector_get(w->svd.sv, k);
				if (s > cut)
					sum += gsl_matrix_get(right, a, k) *
					       gsl_matrix_get(right, b, k) /
					       (s * s);
			}
			c = s2 * sum / (w->scale[ja] * w->scale[jb]);
			if (cov != NULL) {
				cov[ja * n + jb] = c;
				cov[jb * n + ja] = c;
			}
			if (a == b && se != NULL)
				se[ja] = sqrt(c);
		}
}

/*
 * A parameter with a share in a dropped singular direction can move along
 * it without changing the fit: its own error is unbounded, so se is
 * +INFINITY.  The pseudo-inverse stays in cov, as it is right for the
 * combinations the data does determine (such as the predictions at the
 * data's own points).
 */
static void
mark_undetermined(const sf_covariance *w, size_t nf, double cut, double *se)
{
	const int wide = w->m < nf;
	const size_t ns = wide ? w->m : nf;
	const gsl_matrix *right = right_vectors(w, nf);

	for (size_t a = 0; se != NULL && a < nf; a++) {
		double share = 0.0;

		/* With m < nf, the directions the transpose does not give
		 * are null ones: V's row a has unit norm, so their share is
		 * 1 less the kept directions'. */
		for (size_t k = 0; wide && k < ns; k++)
			if (gsl_vector_get(w->svd.sv, k) > cut)
				share -= gsl_matrix_get(right, a, k) *
				         gsl_matrix_get(right, a, k);
		if (wide)
			share += 1.0;
		for (size_t k = 0; !wide && k < nf; k++)
			if (!(gsl_vector_get(w->svd.sv, k) > cut))
				share += gsl_matrix_get(w->svd.V, a, k) *
				         gsl_matrix_get(w->svd.V, a, k);
		if (share > SF_COVARIANCE_NULL_SHARE)
			se[w->freeidx[a]] = INFINITY;
	}
}

int
sf_covariance_compute(sf_covariance *w, const double *J, const double *r,
                      const int *active, double rcond, double *cov, double *se,
                      sf_covariance_info *info, sf_error *err)
{
	sf_covariance_info in;
	size_t m, nf = 0;
	double smax = 0.0, cut;
	int rc;

	if (w == NULL || J == NULL || r == NULL)
		return sf_error_set(err, SF_EVALUE,
		                    "covariance: missing workspace, Jacobian "
		                    "or residuals");
	m = w->m;
	memset(&in, 0, sizeof in);
	if ((rc = check_inputs(w, J, r, &in.rss, err)) != SF_OK)
		return rc;
	for (size_t j = 0; j < w->n; j++)
		if (active == NULL || active[j] == 0)
			w->freeidx[nf++] = j;
	in.n_free = nf;
	in.dof = m > nf ? m - nf : 0;
	in.s2 = in.dof > 0 ? in.rss / (double)in.dof : NAN;
	in.rcond =
	    rcond > 0.0 ? rcond : (double)(m > nf ? m : nf) * DBL_EPSILON;
	in.condition = NAN;
	if (nf > 0 &&
	    (rc = decompose(w, J, nf, &smax, &in.condition, err)) != SF_OK)
		return rc;
	cut = in.rcond * smax;
	for (size_t k = 0; k < nf; k++)
		if (gsl_vector_get(w->svd.sv, k) > cut)
			in.rank++;
	in.rank_deficient = in.rank < nf;
	if (cov != NULL || se != NULL) {
		pseudo_inverse(w, nf, cut, in.s2, cov, se);
		if (in.rank_deficient)
			mark_undetermined(w, nf, cut, se);
	}
	if (info != NULL)
		*info = in;
	return SF_OK;
}

void
sf_covariance_correlation(size_t n, const double *cov, double *corr)
{
	/*
	 * Read the diagonal first (corr may be cov): the diagonal is only
	 * written last.
	 */
	for (size_t i = 0; i < n; i++)
		for (size_t j = 0; j < n; j++) {
			double vi, vj;

			if (i == j)
				continue;
			vi = cov[i * n + i];
			vj = cov[j * n + j];
			if (vi > 0.0 && vj > 0.0 && isfinite(vi) &&
			    isfinite(vj))
				corr[i * n + j] =
				    cov[i * n + j] / sqrt(vi) / sqrt(vj);
			else
				corr[i * n + j] = NAN;
		}
	for (size_t i = 0; i < n; i++) {
		double v = cov[i * n + i];
		corr[i * n + i] = v > 0.0 && isfinite(v) ? 1.0 : NAN;
	}
}

double
sf_covariance_t_quantile(double level, double dof)
{
	if (!(level > 0.0 && level < 1.0) || !(dof >= 1.0) || !isfinite(dof))
		return NAN;
	return gsl_cdf_tdist_Pinv(0.5 + 0.5 * level, dof);
}
