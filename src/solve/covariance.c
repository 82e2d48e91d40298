/*
 * covariance.c - covariance, standard errors, condition number and
 * correlations of a least-squares fit, from the SVD of its Jacobian.
 *
 * Working from the SVD of J (never from J^T J) keeps the small singular
 * values accurate: forming J^T J would square the condition number and
 * lose half the digits on problems such as NIST's Lanczos or Thurber.
 * GSL's one-sided Jacobi SVD is used because, on a column-scaled matrix,
 * it finds small singular values to high relative accuracy.  With fewer
 * rows than free parameters (m < nf) it decomposes the transpose, nf x m,
 * whose U is J's V: padding J with zero rows to nf x nf made 1,000
 * parameters on 8 rows take 28 s in a cubic SVD of mostly zeros.
 */
#include "solve/covariance.h"

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
	gsl_matrix *A;   /* max(m, n) x n: the scaled free columns, then U */
	gsl_matrix *V;   /* n x n */
	gsl_vector *sv;  /* n singular values */
	double *scale;   /* n column norms */
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
	w->A = gsl_matrix_alloc(m > n ? m : n, n);
	w->V = gsl_matrix_alloc(n, n);
	w->sv = gsl_vector_alloc(n);
	w->scale = malloc(n * sizeof(double));
	w->freeidx = malloc(n * sizeof(size_t));
	if (w->A == NULL || w->V == NULL || w->sv == NULL || w->scale == NULL ||
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
	gsl_matrix_free(w->A);
	gsl_matrix_free(w->V);
	gsl_vector_free(w->sv);
	free(w->scale);
	free(w->freeidx);
	free(w);
}

int
sf_covariance_compute(sf_covariance *w, const double *J, const double *r,
                      const int *active, double rcond, double *cov, double *se,
                      sf_covariance_info *info, sf_error *err)
{
	sf_covariance_info in;
	size_t m, n, nf = 0, rows, ns;
	double smax = 0.0, smin = INFINITY, cut;
	/* The right singular vectors, column k for singular value k < ns:
	 * V, or with m < nf the transpose's U (in A). */
	const gsl_matrix *right;
	int wide;

	if (w == NULL || J == NULL || r == NULL)
		return sf_error_set(err, SF_EVALUE,
		                    "covariance: missing workspace, Jacobian "
		                    "or residuals");
	m = w->m;
	n = w->n;
	memset(&in, 0, sizeof in);
	for (size_t i = 0; i < m * n; i++)
		if (!isfinite(J[i]))
			return sf_error_set(err, SF_EVALUE,
			                    "covariance: the Jacobian has a "
			                    "non-finite value (row %zu, "
			                    "column %zu)",
			                    i / n, i % n);
	{
		gsl_vector_const_view rv = gsl_vector_const_view_array(r, m);
		double norm;

		for (size_t i = 0; i < m; i++)
			if (!isfinite(r[i]))
				return sf_error_set(err, SF_EVALUE,
				                    "covariance: residual %zu "
				                    "is not finite",
				                    i);
		norm = gsl_blas_dnrm2(&rv.vector);
		in.rss = norm * norm;
	}

	for (size_t j = 0; j < n; j++)
		if (active == NULL || active[j] == 0)
			w->freeidx[nf++] = j;
	in.n_free = nf;
	in.dof = m > nf ? m - nf : 0;
	in.s2 = in.dof > 0 ? in.rss / (double)in.dof : NAN;
	in.rcond =
	    rcond > 0.0 ? rcond : (double)(m > nf ? m : nf) * DBL_EPSILON;
	in.condition = NAN;

	/* Scale each free column to unit norm; a zero column stays zero. */
	wide = m < nf;
	rows = wide ? nf : m;
	ns = wide ? m : nf;
	right = wide ? w->A : w->V;
	if (nf > 0) {
		gsl_matrix_view Av =
		    gsl_matrix_submatrix(w->A, 0, 0, rows, wide ? m : nf);
		gsl_matrix_view Vv = gsl_matrix_submatrix(w->V, 0, 0, ns, ns);
		gsl_vector_view sv = gsl_vector_subvector(w->sv, 0, ns);
		int status;

		for (size_t k = 0; k < nf; k++) {
			gsl_vector_const_view c =
			    gsl_vector_const_view_array_with_stride(
			        J + w->freeidx[k], n, m);
			double norm = gsl_blas_dnrm2(&c.vector);
			w->scale[k] = norm > 0.0 ? norm : 1.0;
		}
		for (size_t i = 0; i < m; i++)
			for (size_t k = 0; k < nf; k++) {
				double a =
				    J[i * n + w->freeidx[k]] / w->scale[k];

				if (wide)
					gsl_matrix_set(&Av.matrix, k, i, a);
				else
					gsl_matrix_set(&Av.matrix, i, k, a);
			}
		status = gsl_linalg_SV_decomp_jacobi(&Av.matrix, &Vv.matrix,
		                                     &sv.vector);
		if (status != GSL_SUCCESS && status != GSL_ETOL)
			return sf_error_set(err, SF_EINTERNAL,
			                    "covariance: SVD failed: %s",
			                    gsl_strerror(status));
		/* The nf - m singular values the transpose lacks are 0. */
		for (size_t k = ns; k < nf; k++)
			gsl_vector_set(w->sv, k, 0.0);
		for (size_t k = 0; k < nf; k++) {
			double s = gsl_vector_get(w->sv, k);
			if (s > smax)
				smax = s;
			if (s < smin)
				smin = s;
		}
		in.condition = smin > 0.0 ? smax / smin : INFINITY;
	}
	cut = in.rcond * smax;
	for (size_t k = 0; k < nf; k++)
		if (gsl_vector_get(w->sv, k) > cut)
			in.rank++;
	in.rank_deficient = in.rank < nf;

	if (cov != NULL || se != NULL) {
		/* cov_F = s2 D^-1 V diag(1/s_k^2) V^T D^-1 over kept k */
		for (size_t j = 0; j < n; j++) {
			if (se != NULL)
				se[j] = NAN;
			if (cov != NULL)
				for (size_t l = 0; l < n; l++)
					cov[j * n + l] = NAN;
		}
		for (size_t a = 0; a < nf; a++)
			for (size_t b = a; b < nf; b++) {
				double sum = 0.0, c;

				for (size_t k = 0; k < ns; k++) {
					double s = gsl_vector_get(w->sv, k);
					if (s > cut)
						sum += gsl_matrix_get(right, a,
						                      k) *
						       gsl_matrix_get(right, b,
						                      k) /
						       (s * s);
				}
				c = in.s2 * sum / (w->scale[a] * w->scale[b]);
				if (cov != NULL) {
					cov[w->freeidx[a] * n + w->freeidx[b]] =
					    c;
					cov[w->freeidx[b] * n + w->freeidx[a]] =
					    c;
				}
				if (a == b && se != NULL)
					se[w->freeidx[a]] = sqrt(c);
			}
		/* A parameter with a share in a dropped singular direction
		 * can move along it without changing the fit: its own error
		 * is unbounded.  The pseudo-inverse stays in cov, as it is
		 * right for the combinations the data does determine (such
		 * as the predictions at the data's own points). */
		for (size_t a = 0; in.rank_deficient && a < nf; a++) {
			double share = 0.0;

			/* With m < nf, the directions the transpose does not
			 * give are null ones: V's row a has unit norm, so
			 * their share is 1 less the kept directions'. */
			for (size_t k = 0; wide && k < ns; k++)
				if (gsl_vector_get(w->sv, k) > cut)
					share -= gsl_matrix_get(right, a, k) *
					         gsl_matrix_get(right, a, k);
			if (wide)
				share += 1.0;
			for (size_t k = 0; !wide && k < nf; k++)
				if (!(gsl_vector_get(w->sv, k) > cut))
					share += gsl_matrix_get(w->V, a, k) *
					         gsl_matrix_get(w->V, a, k);
			if (share <= SF_COVARIANCE_NULL_SHARE)
				continue;
			if (se != NULL)
				se[w->freeidx[a]] = INFINITY;
		}
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
