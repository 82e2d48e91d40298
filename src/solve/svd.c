/*
 * svd.c - the Jacobi SVD of a Jacobian's scaled free columns.
 */
#include "solve/svd.h"

#include <gsl/gsl_linalg.h>

int
sf_svd_alloc(sf_svd *s, size_t m, size_t n)
{
	s->A = gsl_matrix_alloc(m > n ? m : n, n);
	s->V = gsl_matrix_alloc(n, n);
	s->sv = gsl_vector_alloc(n);
	return s->A != NULL && s->V != NULL && s->sv != NULL ? SF_OK
	                                                     : SF_ENOMEM;
}

void
sf_svd_free(sf_svd *s)
{
	gsl_matrix_free(s->A);
	gsl_matrix_free(s->V);
	gsl_vector_free(s->sv);
}

int
sf_svd_scaled_columns(sf_svd *s, const double *J, size_t m, size_t n,
                      const size_t *freeidx, size_t nf, const double *scale)
{
	int wide = m < nf;
	size_t ns = wide ? m : nf; /* singular values computed */
	gsl_matrix_view Av =
	    gsl_matrix_submatrix(s->A, 0, 0, wide ? nf : m, wide ? m : nf);
	gsl_matrix_view Vv = gsl_matrix_submatrix(s->V, 0, 0, ns, ns);
	gsl_vector_view sub = gsl_vector_subvector(s->sv, 0, ns);

	for (size_t i = 0; i < m; i++)
		for (size_t k = 0; k < nf; k++) {
			size_t j = freeidx[k];
			double a = J[i * n + j] / scale[j];

			if (wide)
				gsl_matrix_set(&Av.matrix, k, i, a);
			else
				gsl_matrix_set(&Av.matrix, i, k, a);
		}
	return gsl_linalg_SV_decomp_jacobi(&Av.matrix, &Vv.matrix, &sub.vector);
}
