/*
 * polish.c - projected, scaled Levenberg-Marquardt with an active set, for
 * least squares inside a box.
 *
 * The method.  At the current point theta (always inside the box) with
 * residuals r, exact Jacobian J and gradient g = J^T r (half the gradient of
 * S), each iteration
 *
 *  1. holds ("freezes") every parameter that sits exactly on a bound while
 *     the gradient pushes it outward: theta_j == lower_j with g_j > 0, or
 *     theta_j == upper_j with g_j < 0 (Bertsekas' projected-Newton active
 *     set; a held parameter's Lagrange multiplier has the right sign).  The
 *     other parameters are free.  A parameter with lower == upper is always
 *     held.
 *  2. scales the free columns by Moré's diagonal D (D_j is the largest norm
 *     column j of J has had so far, so the method does not depend on the
 *     parameters' units) and takes the singular value decomposition
 *     J_F D_F^-1 = U Sigma V^T by GSL's one-sided Jacobi method, which is
 *     accurate in the small singular values of a column-scaled matrix (on
 *     the R of a QR decomposition first when J_F is tall: see
 *     polish_svd_tall).  The factorisation is made once per accepted
 *     point.
 *  3. solves the damped least-squares subproblem
 *         minimise || J_F dx_F + r ||^2 + mu || D_F dx_F ||^2
 *     from that factorisation: D_F dx_F = -V diag(s/(s^2+mu)) U^T r.  This
 *     is the solution of [J_F; sqrt(mu) D_F] dx_F = [-r; 0] in the
 *     least-squares sense, computed without forming J^T J, so it keeps its
 *     accuracy on ill-conditioned problems (NIST's MGH09, Bennett5,
 *     Thurber, Lanczos); a rejected step costs O(n^2), not a new
 *     factorisation.
 *  4. makes the step feasible two ways - projecting theta + dx onto the box,
 *     and truncating dx at the first bound it crosses - and keeps the one
 *     whose model reduction pred = ||r||^2 - ||r + J p||^2 is larger
 *     (projection usually; truncation when projection bends the step
 *     uphill).
 *  5. evaluates S at the trial point and the gain ratio rho = actual
 *     reduction / pred.  The step is accepted when rho >= 1e-4 and S
 *     really decreased; then mu *= max(1/3, 1 - (2 rho - 1)^3) and nu = 2.
 *     Otherwise mu *= nu, nu *= 2 (Nielsen's updating).  On acceptance the
 *     Jacobian is evaluated at the new point and steps 1-2 are redone.
 *
 * Refinement.  Near the optimum S stops being a usable judge: a step that
 * changes S by less than its rounding noise (a relative 1e-15 for easy
 * problems, 1e-12 for Bennett5) can still move a poorly determined
 * parameter by a relative 1e-7, so gain ratios become noise and MINPACK's
 * ftol test (or the rejections that noise causes) would stop the iteration
 * at 6 to 8 correct digits.  So once S cannot confirm progress - the
 * Gauss-Newton step predicts a relative reduction ||U U^T r||^2 / S <=
 * ftol, or MINPACK's test |actred|, pred <= ftol S holds, or a step is
 * rejected while the Gauss-Newton step predicts less than 1e-8 S - the
 * method switches to Gauss-Newton refinement, like iterative refinement
 * of a linear system: it takes undamped (mu = 0), feasible Gauss-Newton
 * corrections, judged by their size instead of by S, for as long as each
 * relative correction max_j |p_j| / (|theta_j| + xtol) is smaller than the
 * one before and S does not rise by more than 1e-8 of itself.  When a
 * correction stops shrinking, the parameters are as accurate as the
 * rounding in r and J allows and the polish stops with FTOL.  With this the
 * 27 NIST StRD problems reach 10 to 11 correct digits instead of 6 to 8.
 *
 * It stops on xtol (every |p_j| <= xtol (|theta_j| + xtol)), ftol (the
 * refinement above converged), gtol (the cosine between r and every free
 * column of J <= gtol, which is the projected gradient test, and S == 0),
 * max_iter, or a damping that exceeds 1e20 (the step is then far below any
 * xtol).  Every trial point is inside the box; outside refinement only
 * steps that lower S are accepted, and refinement may not raise S by more
 * than 1e-8 of itself; sf_polish_finish() returns the start unless the
 * answer's S is strictly lower.  So the answer is never worse than the
 * start and never leaves the box.
 */
#include "solve/polish.h"
#include "solve/svd.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_blas.h>
#include <gsl/gsl_errno.h>
#include <gsl/gsl_linalg.h>
#include <gsl/gsl_matrix.h>
#include <gsl/gsl_vector.h>

/* Smallest gain ratio of an accepted step (Moré 1978 uses the same). */
static const double polish_accept = 1e-4;
/*
 * Damping limits, relative to the column-scaled J^T J (diagonal <= 1).  Above
 * the maximum the step is below 1e-20 of the gradient step: stalled.  The
 * minimum keeps mu positive so that increases can act (2 * 0 == 0).
 */
static const double polish_mu_max = 1e20;
static const double polish_mu_min = 1e-30;
/*
 * The refinement band.  Near the optimum the change of S made by a step is
 * smaller than the rounding noise of S itself, so gain ratios become noise
 * and rejected steps would stop the iteration long before the parameters
 * are accurate (a relative change of S of 1e-15 can hide a parameter error
 * of 1e-7).  Once the Gauss-Newton step predicts a relative reduction below
 * ftol, or a step is rejected while it predicts less than this band, the
 * method switches to Gauss-Newton refinement (see the file comment); in it
 * S may not rise by more than this fraction either.
 */
static const double polish_refine_band = 1e-8;

struct sf_polish {
	size_t m, n;
	sf_polish_fn fn;
	void *ctx;
	sf_polish_settings set;
	double *lower, *upper; /* the box (n) */
	double *theta0;        /* the start (n) */
	double *theta;         /* the current, best point (n) */
	double *trial;         /* the trial point (n) */
	double *step;          /* the damped step dx (n) */
	double *pa, *pb;       /* projected and truncated steps (n) */
	double *r, *J;         /* residuals (m) and Jacobian (m x n) at theta */
	double *rtrial;        /* residuals at the trial point (m) */
	double *Jtrial;        /* Jacobian at an accepted trial point */
	double *rscratch;      /* residuals of the Jacobian call (m) */
	double *Jpa, *Jpb;     /* J pa, J pb (m) */
	double *g;             /* J^T r (n) */
	double *colnorm;       /* column norms of J (n) */
	double *D;             /* Moré's scaling (n) */
	double *utr;           /* U^T r (n) */
	double *coef;          /* damped coefficients (n) */
	size_t *freeidx;       /* indices of the free parameters */
	size_t nfree;
	/* 1 when m < nfree: A holds the transpose's U, which is J_F's V
	 * (nfree x m), and V the transpose's V, which is J_F's U (m x m). */
	int wide;
	int *active;        /* -1 held at lower, +1 at upper, 0 free */
	sf_svd svd;         /* of the scaled J_F (A: U, V, singular values) */
	gsl_matrix *R;      /* n x n: a tall J_F's R, then its U */
	gsl_vector *tau;    /* n: the Householder factors of Q */
	gsl_vector *qtr;    /* m: Q^T r */
	double cost, cost0; /* S at theta and at theta0 */
	double gradient;    /* the largest cosine of the gtol test */
	double mu, nu;      /* damping and its growth factor */
	double pred_gn;     /* ||U U^T r||^2: the Gauss-Newton model
	                       reduction of S over the free columns */
	int refine;         /* in Gauss-Newton refinement */
	double last_rel;    /* refinement: the previous relative step */
	size_t iter, nfev, njev;
	int stop;
};

void
sf_polish_settings_default(sf_polish_settings *s)
{
	s->xtol = 1e-15;
	s->ftol = 1e-15;
	s->gtol = 1e-15;
	s->max_iter = 1000;
	s->damping = 1e-3;
}

/* An array of the workspace and how many doubles it holds. */
typedef struct polish_array {
	double **p;
	size_t length;
} polish_array;

enum { POLISH_ARRAYS = 20 };

/* The workspace's arrays of doubles, for one loop to allocate and one to
 * free them: an array added is one line here. */
static void
polish_arrays(sf_polish *w, polish_array a[POLISH_ARRAYS])
{
	const size_t m = w->m, n = w->n;
	const polish_array list[] = {
	    {&w->lower, n},    {&w->upper, n},   {&w->theta0, n},
	    {&w->theta, n},    {&w->trial, n},   {&w->step, n},
	    {&w->pa, n},       {&w->pb, n},      {&w->r, m},
	    {&w->J, m * n},    {&w->rtrial, m},  {&w->Jtrial, m * n},
	    {&w->rscratch, m}, {&w->Jpa, m},     {&w->Jpb, m},
	    {&w->g, n},        {&w->colnorm, n}, {&w->D, n},
	    {&w->utr, n},      {&w->coef, n},
	};

	_Static_assert(sizeof list / sizeof list[0] == POLISH_ARRAYS,
	               "POLISH_ARRAYS counts the list");
	memcpy(a, list, sizeof list);
}

sf_polish *
sf_polish_alloc(size_t m, size_t n)
{
	polish_array a[POLISH_ARRAYS];
	sf_polish *w;
	int ok;

	if (m == 0 || n == 0 || m > ((size_t)-1) / sizeof(double) / n)
		return NULL;
	w = calloc(1, sizeof *w);
	if (w == NULL)
		return NULL;
	w->m = m;
	w->n = n;
	polish_arrays(w, a);
	ok = sf_svd_alloc(&w->svd, m, n) == SF_OK;
	/* zeroed: theta0 is the start until sf_polish_init() sets one */
	for (size_t k = 0; k < POLISH_ARRAYS; k++)
		ok &= (*a[k].p = calloc(a[k].length, sizeof(double))) != NULL;
	w->freeidx = malloc(n * sizeof(size_t));
	w->active = calloc(n, sizeof(int));
	w->R = gsl_matrix_alloc(n, n);
	w->tau = gsl_vector_alloc(n);
	w->qtr = gsl_vector_alloc(m);
	if (!ok || w->freeidx == NULL || w->active == NULL || w->R == NULL ||
	    w->tau == NULL || w->qtr == NULL) {
		sf_polish_free(w);
		return NULL;
	}
	w->stop = SF_POLISH_BADSTART; /* until sf_polish_init() succeeds */
	w->cost = w->cost0 = INFINITY;
	return w;
}

void
sf_polish_free(sf_polish *w)
{
	polish_array a[POLISH_ARRAYS];

	if (w == NULL)
		return;
	polish_arrays(w, a);
	for (size_t k = 0; k < POLISH_ARRAYS; k++)
		free(*a[k].p);
	free(w->freeidx);
	free(w->active);
	sf_svd_free(&w->svd);
	gsl_matrix_free(w->R);
	gsl_vector_free(w->tau);
	gsl_vector_free(w->qtr);
	free(w);
}

static int
all_finite(const double *x, size_t k)
{
	for (size_t i = 0; i < k; i++)
		if (!isfinite(x[i]))
			return 0;
	return 1;
}

/* ||x||^2, by GSL's overflow-safe norm; +INFINITY when not finite. */
static double
sum_squares(const double *x, size_t k)
{
	gsl_vector_const_view v = gsl_vector_const_view_array(x, k);
	double norm = gsl_blas_dnrm2(&v.vector);
	double s = norm * norm;

	return isfinite(s) ? s : INFINITY;
}

/*
 * Call the callback at theta; J may be NULL.  Returns 1 when it succeeded
 * and everything it filled is finite.
 */
static int
polish_eval(sf_polish *w, const double *theta, double *r, double *J)
{
	int rc;

	if (J != NULL)
		w->njev++;
	else
		w->nfev++;
	rc = w->fn(theta, r, J, w->ctx);
	if (rc != 0 || !all_finite(r, w->m))
		return 0;
	return J == NULL || all_finite(J, w->m * w->n);
}

/*
 * The SVD of a tall J_F D_F^-1 (more rows than free columns) through its
 * QR factorisation: J_F D_F^-1 = Q R, R = U_R S V^T by one-sided Jacobi,
 * so U^T r = U_R^T (Q^T r)'s first nf entries.  Householder QR is
 * backward stable column by column, so Jacobi keeps its accuracy in the
 * small singular values of a column-scaled matrix (Drmac and Veselic's
 * preconditioning), and its sweeps work on columns of nf entries instead
 * of m.  Fills sv, V, utr and pred_gn; returns SF_OK or SF_EINTERNAL.
 */
static int
polish_svd_tall(sf_polish *w, size_t nf, sf_error *err)
{
	const size_t m = w->m, n = w->n;
	gsl_matrix_view Av = gsl_matrix_submatrix(w->svd.A, 0, 0, m, nf);
	gsl_matrix_view Rv = gsl_matrix_submatrix(w->R, 0, 0, nf, nf);
	gsl_matrix_view Vv = gsl_matrix_submatrix(w->svd.V, 0, 0, nf, nf);
	gsl_vector_view sv = gsl_vector_subvector(w->svd.sv, 0, nf);
	gsl_vector_view tv = gsl_vector_subvector(w->tau, 0, nf);
	gsl_vector_const_view rv = gsl_vector_const_view_array(w->r, m);
	int status;

	for (size_t i = 0; i < m; i++)
		for (size_t k = 0; k < nf; k++) {
			size_t j = w->freeidx[k];

			gsl_matrix_set(&Av.matrix, i, k,
			               w->J[i * n + j] / w->D[j]);
		}
	status = gsl_linalg_QR_decomp(&Av.matrix, &tv.vector);
	if (status == GSL_SUCCESS) {
		for (size_t i = 0; i < nf; i++)
			for (size_t k = 0; k < nf; k++)
				gsl_matrix_set(
				    &Rv.matrix, i, k,
				    k >= i ? gsl_matrix_get(&Av.matrix, i, k)
				           : 0.0);
		status = gsl_linalg_SV_decomp_jacobi(&Rv.matrix, &Vv.matrix,
		                                     &sv.vector);
	}
	/* GSL_ETOL: sweeps ran out; the factors are still usable. */
	if (status != GSL_SUCCESS && status != GSL_ETOL)
		return sf_error_set(err, SF_EINTERNAL, "polish: SVD failed: %s",
		                    gsl_strerror(status));
	gsl_vector_memcpy(w->qtr, &rv.vector);
	gsl_linalg_QR_QTvec(&Av.matrix, &tv.vector, w->qtr);
	w->pred_gn = 0.0;
	for (size_t k = 0; k < nf; k++) {
		double s = 0.0;

		for (size_t i = 0; i < nf; i++)
			s += gsl_matrix_get(&Rv.matrix, i, k) *
			     gsl_vector_get(w->qtr, i);
		w->utr[k] = s;
		if (gsl_vector_get(w->svd.sv, k) > 0.0)
			w->pred_gn += s * s;
	}
	return SF_OK;
}

/*
 * Everything that depends only on the current point: gradient, column norms,
 * Moré's scaling, the active set, the gtol cosine and the SVD of the scaled
 * free columns with U^T r.  Returns SF_OK or SF_EINTERNAL.
 */
static int
polish_prepare(sf_polish *w, sf_error *err)
{
	const size_t m = w->m, n = w->n;
	gsl_matrix_view Jv = gsl_matrix_view_array(w->J, m, n);
	gsl_vector_view rv = gsl_vector_view_array(w->r, m);
	gsl_vector_view gv = gsl_vector_view_array(w->g, n);
	double rnorm;
	size_t nf = 0;

	gsl_blas_dgemv(CblasTrans, 1.0, &Jv.matrix, &rv.vector, 0.0,
	               &gv.vector);
	rnorm = gsl_blas_dnrm2(&rv.vector);
	w->gradient = 0.0;
	for (size_t j = 0; j < n; j++) {
		gsl_vector_view c = gsl_matrix_column(&Jv.matrix, j);
		double gj = w->g[j];
		int a = 0;

		w->colnorm[j] = gsl_blas_dnrm2(&c.vector);
		if (w->colnorm[j] > w->D[j])
			w->D[j] = w->colnorm[j];
		if (w->D[j] == 0.0)
			w->D[j] = 1.0; /* a zero column: leave it unscaled */
		if (w->lower[j] == w->upper[j])
			a = gj < 0.0 ? 1 : -1;
		else if (w->theta[j] <= w->lower[j] && gj > 0.0)
			a = -1;
		else if (w->theta[j] >= w->upper[j] && gj < 0.0)
			a = 1;
		w->active[j] = a;
		if (a != 0)
			continue;
		w->freeidx[nf++] = j;
		if (w->colnorm[j] > 0.0 && rnorm > 0.0) {
			double c_j = fabs(gj) / w->colnorm[j] / rnorm;
			if (c_j > w->gradient)
				w->gradient = c_j;
		}
	}
	w->nfree = nf;
	w->pred_gn = 0.0;
	if (nf == 0)
		return SF_OK;

	/* Jacobi needs rows >= columns: with fewer rows than free
	 * parameters, decompose the transpose (J_F^T = V S U^T), not J_F
	 * padded with zero rows to nf x nf, a cubic SVD of mostly zeros
	 * (1,000 parameters on 8 rows took 28 s). */
	w->wide = m < nf;
	if (m > nf) {
		int rc = polish_svd_tall(w, nf, err);

		if (rc != SF_OK)
			return rc;
	} else {
		size_t ns = w->wide ? m : nf; /* singular values computed */
		/* U: the wide matrix's is the transpose's V */
		const gsl_matrix *U = w->wide ? w->svd.V : w->svd.A;
		int status = sf_svd_scaled_columns(&w->svd, w->J, m, n,
		                                   w->freeidx, nf, w->D);

		/* GSL_ETOL: sweeps ran out; the factors are still usable. */
		if (status != GSL_SUCCESS && status != GSL_ETOL)
			return sf_error_set(err, SF_EINTERNAL,
			                    "polish: SVD failed: %s",
			                    gsl_strerror(status));
		w->pred_gn = 0.0;
		for (size_t k = 0; k < nf; k++) {
			double s = 0.0;

			/* The singular values the transpose lacks are 0. */
			if (k >= ns)
				gsl_vector_set(w->svd.sv, k, 0.0);
			for (size_t i = 0; i < m && k < ns; i++)
				s += gsl_matrix_get(U, i, k) * w->r[i];
			w->utr[k] = s;
			if (gsl_vector_get(w->svd.sv, k) > 0.0)
				w->pred_gn += s * s;
		}
	}
	if (w->pred_gn <= w->set.ftol * w->cost)
		w->refine = 1;
	return SF_OK;
}

/* The damped step for damping mu: D_F dx_F = -V diag(s/(s^2+mu)) U^T r. */
static void
polish_step(sf_polish *w, double mu)
{
	const size_t nf = w->nfree;

	for (size_t k = 0; k < nf; k++) {
		double s = gsl_vector_get(w->svd.sv, k);
		w->coef[k] = s > 0.0 ? s / (s * s + mu) * w->utr[k] : 0.0;
	}
	for (size_t j = 0; j < w->n; j++)
		w->step[j] = 0.0;
	for (size_t k = 0; k < nf; k++) {
		size_t j = w->freeidx[k];
		double q = 0.0;

		/* coef is 0 past the m singular values of a wide J_F */
		if (w->wide)
			for (size_t l = 0; l < w->m; l++)
				q +=
				    gsl_matrix_get(w->svd.A, k, l) * w->coef[l];
		else
			for (size_t l = 0; l < nf; l++)
				q +=
				    gsl_matrix_get(w->svd.V, k, l) * w->coef[l];
		w->step[j] = -q / w->D[j];
	}
}

/* pred = ||r||^2 - ||r + J p||^2 = -(2 r + J p)^T (J p); Jp receives J p. */
static double
polish_predicted(const sf_polish *w, const double *p, double *Jp)
{
	gsl_matrix_const_view Jv =
	    gsl_matrix_const_view_array(w->J, w->m, w->n);
	gsl_vector_const_view pv = gsl_vector_const_view_array(p, w->n);
	gsl_vector_view jpv = gsl_vector_view_array(Jp, w->m);
	double pred = 0.0;

	gsl_blas_dgemv(CblasNoTrans, 1.0, &Jv.matrix, &pv.vector, 0.0,
	               &jpv.vector);
	for (size_t i = 0; i < w->m; i++)
		pred -= (2.0 * w->r[i] + Jp[i]) * Jp[i];
	return pred;
}

static double
clamp(double x, double lo, double hi)
{
	return x < lo ? lo : (x > hi ? hi : x);
}

/*
 * The feasible step p (n) from w->step, into w->pa: the projected step, or
 * the truncated one when its model reduction is larger.  Returns pred of p.
 */
static double
polish_feasible_step(sf_polish *w)
{
	const size_t n = w->n;
	double alpha = 1.0, pred_a, pred_b;
	int clipped = 0;

	for (size_t j = 0; j < n; j++) {
		double t = w->theta[j] + w->step[j];
		double c = clamp(t, w->lower[j], w->upper[j]);

		if (c != t) {
			/* the largest fraction of step_j that stays inside */
			double room = (c - w->theta[j]) / w->step[j];
			clipped = 1;
			if (room < alpha)
				alpha = room > 0.0 ? room : 0.0;
		}
		w->pa[j] = c - w->theta[j];
	}
	pred_a = polish_predicted(w, w->pa, w->Jpa);
	if (!clipped || alpha <= 0.0)
		return pred_a;
	for (size_t j = 0; j < n; j++) {
		double c = clamp(w->theta[j] + alpha * w->step[j], w->lower[j],
		                 w->upper[j]);
		w->pb[j] = c - w->theta[j];
	}
	pred_b = polish_predicted(w, w->pb, w->Jpb);
	if (!(pred_b > pred_a))
		return pred_a;
	memcpy(w->pa, w->pb, n * sizeof(double));
	return pred_b;
}

int
sf_polish_init(sf_polish *w, const sf_polish_problem *p,
               const sf_polish_settings *s, const double *theta0, sf_error *err)
{
	sf_polish_settings set;
	size_t n;
	int status;

	if (w == NULL || p == NULL || p->fn == NULL || p->lower == NULL ||
	    p->upper == NULL || theta0 == NULL)
		return sf_error_set(err, SF_EVALUE,
		                    "polish: missing workspace, callback, "
		                    "bounds or starting point");
	n = w->n;
	w->stop = SF_POLISH_BADSTART;
	if (s != NULL)
		set = *s;
	else
		sf_polish_settings_default(&set);
	if (!(set.xtol >= 0.0) || !(set.ftol >= 0.0) || !(set.gtol >= 0.0) ||
	    !(set.damping >= 0.0) || !isfinite(set.damping))
		return sf_error_set(err, SF_EVALUE,
		                    "polish: tolerances and damping must be "
		                    "finite and >= 0");
	for (size_t j = 0; j < n; j++) {
		double lo = p->lower[j], hi = p->upper[j], t = theta0[j];

		if (!isfinite(lo) || !isfinite(hi) || lo > hi)
			return sf_error_set(
			    err, SF_EVALUE,
			    "polish: parameter %zu: bounds "
			    "[%g, %g] are not a finite interval",
			    j, lo, hi);
		if (!isfinite(t) || t < lo || t > hi)
			return sf_error_set(
			    err, SF_EVALUE,
			    "polish: parameter %zu: start %g is "
			    "outside [%g, %g]",
			    j, t, lo, hi);
	}
	w->fn = p->fn;
	w->ctx = p->ctx;
	w->set = set;
	memcpy(w->lower, p->lower, n * sizeof(double));
	memcpy(w->upper, p->upper, n * sizeof(double));
	memcpy(w->theta0, theta0, n * sizeof(double));
	memcpy(w->theta, theta0, n * sizeof(double));
	memset(w->active, 0, n * sizeof(int));
	for (size_t j = 0; j < n; j++)
		w->D[j] = 0.0;
	w->iter = w->nfev = w->njev = 0;
	w->mu = set.damping > polish_mu_min ? set.damping : polish_mu_min;
	w->nu = 2.0;
	w->gradient = NAN;
	w->cost = w->cost0 = INFINITY;
	w->refine = 0;
	w->last_rel = INFINITY;

	if (!polish_eval(w, w->theta, w->r, w->J))
		return sf_error_set(err, SF_EFAIL,
		                    "polish: the residuals or the Jacobian are "
		                    "not finite at the starting point");
	w->cost = w->cost0 = sum_squares(w->r, w->m);
	if (!isfinite(w->cost))
		return sf_error_set(err, SF_EFAIL,
		                    "polish: the sum of squares overflows at "
		                    "the starting point");
	w->stop = SF_POLISH_RUNNING;
	status = polish_prepare(w, err);
	if (status != SF_OK) {
		w->stop = SF_POLISH_FAILED;
		return status;
	}
	if (w->cost == 0.0 || w->gradient <= set.gtol)
		w->stop = SF_POLISH_GTOL;
	else if (set.max_iter == 0)
		w->stop = SF_POLISH_MAXITER;
	return SF_OK;
}

/*
 * Move to the accepted trial point: evaluate the Jacobian there and redo the
 * point-dependent work.  Returns SF_OK (w->stop set to SF_POLISH_BADJAC when
 * the Jacobian is unusable, leaving the point unchanged) or SF_EINTERNAL.
 */
static int
polish_accept_trial(sf_polish *w, sf_error *err)
{
	double *tmp;
	int status;

	if (!polish_eval(w, w->trial, w->rscratch, w->Jtrial)) {
		w->stop = SF_POLISH_BADJAC;
		return SF_OK;
	}
	memcpy(w->theta, w->trial, w->n * sizeof(double));
	/* keep the residuals S was judged by; swap buffers, no copying */
	tmp = w->r;
	w->r = w->rtrial;
	w->rtrial = tmp;
	tmp = w->J;
	w->J = w->Jtrial;
	w->Jtrial = tmp;
	status = polish_prepare(w, err);
	if (status != SF_OK)
		w->stop = SF_POLISH_FAILED;
	return status;
}

/*
 * One Gauss-Newton refinement step (mu = 0, made feasible as usual).  It is
 * taken while the relative corrections keep shrinking: when a correction is
 * no larger than the previous one, the parameters are as accurate as the
 * rounding in r and J allows, and the iteration stops (FTOL) without it.
 */
static int
polish_refine_step(sf_polish *w, sf_error *err)
{
	const double xtol = w->set.xtol, cost_old = w->cost;
	double rel = 0.0, cost_t = INFINITY;
	int status;

	polish_step(w, 0.0);
	(void)polish_feasible_step(w);
	for (size_t j = 0; j < w->n; j++) {
		double scale = fabs(w->theta[j]) + xtol;
		double q = scale > 0.0 ? fabs(w->pa[j]) / scale
		                       : (w->pa[j] != 0.0 ? INFINITY : 0.0);

		w->trial[j] =
		    clamp(w->theta[j] + w->pa[j], w->lower[j], w->upper[j]);
		if (q > rel)
			rel = q;
	}
	if (rel <= xtol) {
		w->stop = SF_POLISH_XTOL;
		return SF_OK;
	}
	if (!(rel < w->last_rel)) {
		w->stop = SF_POLISH_FTOL;
		return SF_OK;
	}
	if (polish_eval(w, w->trial, w->rtrial, NULL))
		cost_t = sum_squares(w->rtrial, w->m);
	if (!(cost_t <= cost_old * (1.0 + polish_refine_band))) {
		w->stop = SF_POLISH_FTOL;
		return SF_OK;
	}
	w->cost = cost_t;
	status = polish_accept_trial(w, err);
	if (w->stop == SF_POLISH_BADJAC)
		w->cost = cost_old;
	if (status != SF_OK || w->stop != SF_POLISH_RUNNING)
		return status;
	w->last_rel = rel;
	if (w->cost == 0.0 || w->gradient <= w->set.gtol)
		w->stop = SF_POLISH_GTOL;
	return SF_OK;
}

int
sf_polish_iterate(sf_polish *w, sf_error *err)
{
	const sf_polish_settings *set;
	double pred, actred = 0.0, ratio = -INFINITY, cost_old;
	int small = 1, evaluated = 0, status;

	if (w == NULL)
		return sf_error_set(err, SF_EVALUE, "polish: no workspace");
	if (w->stop != SF_POLISH_RUNNING)
		return SF_OK;
	set = &w->set;
	w->iter++;
	if (w->refine) {
		status = polish_refine_step(w, err);
		if (w->stop == SF_POLISH_RUNNING && w->iter >= set->max_iter)
			w->stop = SF_POLISH_MAXITER;
		return status;
	}
	cost_old = w->cost;

	polish_step(w, w->mu);
	pred = polish_feasible_step(w);
	for (size_t j = 0; j < w->n; j++) {
		w->trial[j] =
		    clamp(w->theta[j] + w->pa[j], w->lower[j], w->upper[j]);
		if (fabs(w->pa[j]) >
		    set->xtol * (fabs(w->theta[j]) + set->xtol))
			small = 0;
	}

	if (pred > 0.0 && isfinite(pred)) {
		double cost_t = INFINITY;

		evaluated = 1;
		if (polish_eval(w, w->trial, w->rtrial, NULL))
			cost_t = sum_squares(w->rtrial, w->m);
		actred = cost_old - cost_t; /* -INFINITY when not finite */
		ratio = actred / pred;
	}

	if (evaluated && actred > 0.0 && ratio >= polish_accept) {
		double t = 2.0 * ratio - 1.0;
		double shrink = 1.0 - t * t * t;

		w->cost = cost_old - actred;
		status = polish_accept_trial(w, err);
		if (w->stop == SF_POLISH_BADJAC)
			w->cost = cost_old;
		if (status != SF_OK || w->stop != SF_POLISH_RUNNING)
			return status;
		w->mu *= shrink > 1.0 / 3.0 ? shrink : 1.0 / 3.0;
		if (w->mu < polish_mu_min)
			w->mu = polish_mu_min;
		w->nu = 2.0;
	} else {
		w->mu *= w->nu;
		w->nu *= 2.0;
		/* near the optimum a rejection is rounding noise */
		if (w->pred_gn <= polish_refine_band * cost_old)
			w->refine = 1;
	}
	/* MINPACK's ftol test: S no longer changes measurably */
	if (evaluated && isfinite(actred) && pred <= set->ftol * cost_old &&
	    fabs(actred) <= set->ftol * cost_old && ratio <= 2.0)
		w->refine = 1;

	if (w->cost == 0.0 || w->gradient <= set->gtol)
		w->stop = SF_POLISH_GTOL;
	else if (small && !w->refine)
		w->stop = SF_POLISH_XTOL;
	else if (!(w->mu <= polish_mu_max))
		w->stop = SF_POLISH_STALLED;
	else if (w->iter >= set->max_iter)
		w->stop = SF_POLISH_MAXITER;
	return SF_OK;
}

int
sf_polish_test(const sf_polish *w)
{
	return w != NULL ? w->stop : SF_POLISH_BADSTART;
}

const double *
sf_polish_theta(const sf_polish *w)
{
	return w->theta;
}

double
sf_polish_cost(const sf_polish *w)
{
	return w->cost;
}

void
sf_polish_finish(const sf_polish *w, double *theta, int *active,
                 sf_polish_result *res)
{
	int improved = w->stop != SF_POLISH_BADSTART && w->cost < w->cost0;
	size_t held = 0;

	if (theta != NULL)
		memcpy(theta, improved ? w->theta : w->theta0,
		       w->n * sizeof(double));
	/*
	 * Without improvement the point never moved, so w->active still
	 * describes the start.
	 */
	for (size_t j = 0; j < w->n; j++) {
		if (active != NULL)
			active[j] = w->active[j];
		held += w->active[j] != 0;
	}
	if (res != NULL) {
		res->stop = w->stop;
		res->improved = improved;
		res->iterations = w->iter;
		res->nfev = w->nfev;
		res->njev = w->njev;
		res->n_active = held;
		res->cost_start = w->cost0;
		res->cost = improved ? w->cost : w->cost0;
		res->gradient = w->gradient;
	}
}

int
sf_polish_run(sf_polish *w, const sf_polish_problem *p,
              const sf_polish_settings *s, double *theta, int *active,
              sf_polish_result *res, sf_error *err)
{
	int status;

	status = sf_polish_init(w, p, s, theta, err);
	if (status == SF_EVALUE) {
		/* nothing was copied or evaluated: report only */
		if (res != NULL) {
			memset(res, 0, sizeof *res);
			res->stop = SF_POLISH_BADSTART;
			res->cost_start = res->cost = INFINITY;
			res->gradient = NAN;
		}
		return status;
	}
	while (status == SF_OK && sf_polish_test(w) == SF_POLISH_RUNNING)
		status = sf_polish_iterate(w, err);
	sf_polish_finish(w, theta, active, res);
	return status;
}

const char *
sf_polish_stop_name(int stop)
{
	static const char *const names[] = {
	    [SF_POLISH_RUNNING] = "running",
	    [SF_POLISH_XTOL] = "xtol",
	    [SF_POLISH_FTOL] = "ftol",
	    [SF_POLISH_GTOL] = "gtol",
	    [SF_POLISH_MAXITER] = "max_iter",
	    [SF_POLISH_STALLED] = "stalled",
	    [SF_POLISH_BADJAC] = "jacobian_not_finite",
	    [SF_POLISH_BADSTART] = "start_not_finite",
	    [SF_POLISH_FAILED] = "internal_error",
	};

	if (stop < 0 || (size_t)stop >= sizeof names / sizeof names[0])
		return "unknown";
	return names[stop];
}
