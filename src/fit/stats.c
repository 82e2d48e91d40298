/*
 * stats.c - fit metrics and parameter uncertainties.
 */
#include "fit/stats.h"
#include "fit/cost.h"
#include "solve/covariance.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

void
sf_stats_free(sf_stats *s)
{
	if (s == NULL)
		return;
	free(s->predicted);
	free(s->se);
	free(s->ci_low);
	free(s->ci_high);
	free(s->cov);
	free(s->corr);
	free(s);
}

static void
metrics(sf_stats *s, const sf_dataset *d)
{
	const double *y = d->output, *f = s->predicted;
	double mean = 0, sst = 0, ape_sum = 0;
	size_t n = s->n;

	s->sse = 0;
	s->max_ape = 0;
	for (size_t i = 0; i < n; i++)
		mean += y[i];
	mean /= (double)n;
	for (size_t i = 0; i < n; i++) {
		double e = f[i] - y[i], ape = fabs(e) / fabs(y[i]);
		s->sse += e * e;
		sst += (y[i] - mean) * (y[i] - mean);
		ape_sum += ape;
		s->max_ape = ape > s->max_ape ? ape : s->max_ape;
	}
	s->rmse = sqrt(s->sse / (double)n);
	s->mape = 100 * ape_sum / (double)n;
	s->max_ape *= 100;
	s->r2 = sst > 0 ? 1 - s->sse / sst : NAN;
	s->r2_adj = (double)n - (double)s->k - 1 > 0
	                ? 1 - (1 - s->r2) * ((double)n - 1) /
	                          ((double)n - (double)s->k - 1)
	                : NAN;
}

static void
information_criteria(sf_stats *s)
{
	double n = (double)s->n, k = (double)s->k;
	double neg2loglik = n * log(s->chisqr / n);

	s->aic = neg2loglik + 2 * k;
	s->bic = neg2loglik + log(n) * k;
	s->aicc = n - k - 1 > 0 ? s->aic + 2 * k * (k + 1) / (n - k - 1) : NAN;
}

/* A result for n rows and P parameters, its arrays allocated; NULL when
 * out of memory. */
static sf_stats *
stats_alloc(size_t n, size_t P)
{
	sf_stats *s = calloc(1, sizeof *s);

	if (s == NULL)
		return NULL;
	s->n = n;
	s->k = P;
	s->predicted = malloc(n * sizeof *s->predicted);
	s->se = malloc((P + 1) * sizeof *s->se);
	s->ci_low = malloc((P + 1) * sizeof *s->ci_low);
	s->ci_high = malloc((P + 1) * sizeof *s->ci_high);
	s->cov = malloc((P * P + 1) * sizeof *s->cov);
	s->corr = malloc((P * P + 1) * sizeof *s->corr);
	if (s->predicted == NULL || s->se == NULL || s->ci_low == NULL ||
	    s->ci_high == NULL || s->cov == NULL || s->corr == NULL) {
		sf_stats_free(s);
		return NULL;
	}
	return s;
}

/*
 * The fit's metrics without uncertainties, when the Jacobian is not
 * finite at the fitted parameters (a fitted exponent on a zero base has
 * no finite derivative there): every parameter free, no covariance.
 */
static void
no_uncertainties(sf_stats *s, const double *res)
{
	const size_t n = s->n, P = s->k;

	s->chisqr = 0;
	for (size_t i = 0; i < n; i++)
		s->chisqr += res[i] * res[i];
	s->n_free = P;
	s->dof = n > P ? n - P : 0;
	s->condition = NAN;
	s->t95 = NAN;
	information_criteria(s);
	for (size_t j = 0; j < P * P; j++)
		s->cov[j] = s->corr[j] = NAN;
	for (size_t j = 0; j < P; j++)
		s->se[j] = s->ci_low[j] = s->ci_high[j] = NAN;
	s->note = "the Jacobian is not finite at the fitted "
	          "parameters, so no standard errors can be given";
}

/* The covariance from the residuals res and Jacobian J at r's theta (the
 * parameters held at a bound, active, left out), the correlations, the
 * standard errors and the 95% intervals. */
static int
uncertainties(sf_stats *s, const sf_fit_result *r, sf_covariance *cw,
              const double *J, const double *res, const int *active,
              sf_error *err)
{
	const size_t P = s->k;
	sf_covariance_info info;
	int rc = sf_covariance_compute(cw, J, res, active, 0, s->cov, s->se,
	                               &info, err);

	if (rc != SF_OK)
		return rc;
	s->chisqr = info.rss;
	s->n_free = info.n_free;
	s->dof = info.dof;
	s->condition = info.condition;
	s->rank = info.rank;
	s->rank_deficient = info.rank_deficient;
	information_criteria(s);
	sf_covariance_correlation(P, s->cov, s->corr);
	/* An undetermined parameter's correlations would be those of the
	 * pseudo-inverse, not of the parameter: give none. */
	for (size_t j = 0; j < P; j++)
		for (size_t l = 0; isinf(s->se[j]) && l < P; l++)
			if (l != j)
				s->corr[j * P + l] = s->corr[l * P + j] = NAN;
	s->t95 = info.dof > 0 ? sf_covariance_t_quantile(0.95, (double)info.dof)
	                      : NAN;
	for (size_t j = 0; j < P; j++) {
		s->ci_low[j] = r->theta[j] - s->t95 * s->se[j];
		s->ci_high[j] = r->theta[j] + s->t95 * s->se[j];
	}
	return SF_OK;
}

int
sf_stats_compute(const sf_formula *f, const sf_dataset *d,
                 const sf_fit_result *r, sf_stats **out, sf_error *err)
{
	const size_t n = d->rows, P = f->nparams;
	sf_cost_settings cs = {r->settings.loss,
	                       r->settings.huber_delta,
	                       SF_PENALTY_NONE,
	                       0,
	                       1,
	                       0};
	sf_covariance *cw = NULL;
	double *weights = NULL, *res = NULL, *J = NULL;
	int *active = NULL, rc = SF_ENOMEM;
	sf_cost *cost = NULL;
	sf_stats *s;

	*out = NULL;
	if ((s = stats_alloc(n, P)) == NULL)
		return sf_error_set(err, SF_ENOMEM, "out of memory");
	res = malloc(n * sizeof *res);
	J = malloc((n * P + 1) * sizeof *J);
	active = calloc(P + 1, sizeof *active);
	cw = sf_covariance_alloc(n, P);
	if (res == NULL || J == NULL || active == NULL || cw == NULL)
		goto oom;
	if ((rc = sf_fit_weights(&r->settings, d, &weights, err)) != SF_OK)
		goto done;
	/* The loss alone (no penalty rows), on one thread; a loss that is
	 * not a sum of squares (absolute) has sse's residuals. */
	if (sf_loss_get(cs.loss)->residual == NULL)
		cs.loss = SF_LOSS_SSE;
	if ((cost = sf_cost_alloc(f, d, weights, &cs, err)) == NULL) {
		rc = err != NULL ? err->code : SF_ENOMEM;
		goto done;
	}
	sf_cost_predict(cost, r->theta, s->predicted);
	metrics(s, d);
	for (size_t j = 0; j < P; j++)
		active[j] = r->at_bound[j] != 0;
	if (sf_cost_residuals(cost, r->theta, res, J) == SF_OK)
		rc = uncertainties(s, r, cw, J, res, active, err);
	else if (sf_cost_residuals(cost, r->theta, res, NULL) == SF_OK)
		no_uncertainties(s, res);
	else
		rc = sf_error_set(err, SF_EVALUE,
		                  "the residuals are not finite at "
		                  "the fitted parameters");
	if (rc != SF_OK)
		goto done;
	*out = s;
	s = NULL;
	rc = SF_OK;
	goto done;
oom:
	rc = sf_error_set(err, SF_ENOMEM, "out of memory");
done:
	sf_covariance_free(cw);
	sf_cost_free(cost);
	free(weights);
	free(res);
	free(J);
	free(active);
	sf_stats_free(s);
	return rc;
}

int
sf_stats_poorly_determined(const sf_stats *s, const sf_formula *f,
                           const sf_fit_result *r, size_t j)
{
	double lo, hi, width = f->upper[j] - f->lower[j];

	if (s == NULL || (r->linear != NULL && r->linear[j]) ||
	    r->at_bound[j] || !isfinite(s->se[j]) || !isfinite(width) ||
	    !(width > 0))
		return 0;
	lo = s->ci_low[j] > f->lower[j] ? s->ci_low[j] : f->lower[j];
	hi = s->ci_high[j] < f->upper[j] ? s->ci_high[j] : f->upper[j];
	return hi - lo >= SF_STATS_POOR_SHARE * width;
}
