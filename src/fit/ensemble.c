/*
 * ensemble.c - several formulas read as one prediction: weights, the
 * point (the mean of the formulas' own predictions) and the mixture's
 * quantiles, an ensemble's holdout (ensemble.h).
 */
#include "fit/ensemble.h"

#include <gsl/gsl_cdf.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Bisection steps for a quantile: far below a double's resolution. */
enum { QUANTILE_STEPS = 200 };

/* A mixture's members are searched this many scales either side. */
#define MIX_REACH 60.0

int
sf_ensemble_normalise(double *w, size_t k)
{
	double sum = 0;

	for (size_t i = 0; i < k; i++) {
		if (!isfinite(w[i]) || w[i] < 0)
			w[i] = 0;
		sum += w[i];
	}
	if (!(sum > 0) || !isfinite(sum))
		return 0;
	for (size_t i = 0; i < k; i++)
		w[i] /= sum;
	return 1;
}

/* Whether member i takes part in the mixture. */
static int
usable(const double *w, const sf_interval_t *t, size_t i)
{
	return w[i] > 0 && isfinite(t[i].centre) && t[i].scale > 0 &&
	       isfinite(t[i].scale) && t[i].dof > 0 && isfinite(t[i].shift);
}

static double
mixture_cdf(const double *w, const sf_interval_t *t, size_t k, double g)
{
	double p = 0;

	for (size_t i = 0; i < k; i++)
		if (usable(w, t, i))
			p += w[i] *
			     gsl_cdf_tdist_P((g - t[i].centre) / t[i].scale,
			                     t[i].dof);
	return p;
}

/* The q-quantile of the mixture, by bisection between lo and hi (cdf(lo)
 * < q <= cdf(hi) throughout).  It stops when lo and hi are neighbouring
 * doubles, the midpoint one of them: a further step would change
 * neither. */
static double
mixture_quantile(const double *w, const sf_interval_t *t, size_t k, double q,
                 double lo, double hi)
{
	for (int s = 0; s < QUANTILE_STEPS; s++) {
		double mid = 0.5 * (lo + hi);

		if (mid <= lo || mid >= hi)
			break;
		if (mixture_cdf(w, t, k, mid) < q)
			lo = mid;
		else
			hi = mid;
	}
	return 0.5 * (lo + hi);
}

int
sf_ensemble_mix(const double *w, const sf_interval_t *t, size_t k,
                int multiplicative, double *point, double *lo, double *hi)
{
	double a = INFINITY, b = -INFINITY, used = 0, sum = 0, tail;

	*point = *lo = *hi = NAN;
	for (size_t i = 0; i < k; i++) {
		if (!usable(w, t, i))
			continue;
		used += w[i];
		sum += w[i] * (t[i].centre - t[i].shift);
		a = fmin(a, t[i].centre - MIX_REACH * t[i].scale);
		b = fmax(b, t[i].centre + MIX_REACH * t[i].scale);
	}
	if (!(used > 0) || !(a < b))
		return 0;
	/* The members left out do not count: the quantiles of what is.  The
	 * point is the weighted mean of the formulas' own predictions
	 * (Bates and Granger's combination; a single fit's prediction is its
	 * formula's, without its bias beyond the range), so that how wide a
	 * member's interval is does not move it; the interval leans by the
	 * biases. */
	tail = (1 - SF_INTERVAL_LEVEL) / 2 * used;
	*point = sum / used;
	*lo = mixture_quantile(w, t, k, tail, a, b);
	*hi = mixture_quantile(w, t, k, used - tail, a, b);
	if (multiplicative) {
		*point = exp(*point);
		*lo = exp(*lo);
		*hi = exp(*hi);
	}
	return 1;
}

/* Row i of the ensemble from its members' rows, weighed by w (summing to
 * 1); 0 when a member did not predict it. */
static int
mix_row(const sf_holdout *const *members, size_t k, size_t i,
        int multiplicative, const double *w, sf_interval_t *t, sf_holdout *h)
{
	for (size_t m = 0; m < k; m++) {
		const sf_holdout *x = members[m];

		if (isnan(x->predicted[i]))
			return 0;
		t[m] = x->shape[i];
	}
	h->distance[i] = members[0]->distance[i];
	if (!sf_ensemble_mix(w, t, k, multiplicative, &h->predicted[i],
	                     &h->lo95[i], &h->hi95[i])) {
		/* no member has a distribution here: their weighted mean,
		 * without an interval */
		double mean = 0;

		for (size_t m = 0; m < k; m++)
			mean += w[m] * members[m]->predicted[i];
		h->predicted[i] = mean;
	}
	return 1;
}

int
sf_ensemble_holdout(const sf_holdout *const *members, const double *weights,
                    size_t k, const sf_dataset *d, int multiplicative,
                    sf_holdout **out, sf_error *err)
{
	const size_t n = d->rows;
	sf_holdout *h = calloc(1, sizeof *h);
	double *w = malloc((k + 1) * sizeof *w);
	sf_interval_t *t = malloc((k + 1) * sizeof *t);

	*out = NULL;
	if (h == NULL || w == NULL || t == NULL ||
	    (h->fold = malloc((n + 1) * sizeof *h->fold)) == NULL ||
	    (h->predicted = malloc((n + 1) * sizeof *h->predicted)) == NULL ||
	    (h->lo95 = malloc((n + 1) * sizeof *h->lo95)) == NULL ||
	    (h->hi95 = malloc((n + 1) * sizeof *h->hi95)) == NULL ||
	    (h->distance = malloc((n + 1) * sizeof *h->distance)) == NULL) {
		free(w);
		free(t);
		sf_holdout_free(h);
		return sf_error_set(err, SF_ENOMEM, "out of memory");
	}
	for (size_t m = 0; m < k; m++)
		w[m] = weights != NULL ? weights[m] : 1;
	if (!sf_ensemble_normalise(w, k))
		for (size_t m = 0; m < k; m++)
			w[m] = 1.0 / (double)k;
	h->rows = n;
	h->nfolds = members[0]->nfolds;
	memcpy(h->fold, members[0]->fold, n * sizeof *h->fold);
	for (size_t i = 0; i < n; i++) {
		h->predicted[i] = h->lo95[i] = h->hi95[i] = h->distance[i] =
		    NAN;
		if (h->fold[i] != SF_FOLD_TRAIN)
			mix_row(members, k, i, multiplicative, w, t, h);
	}
	for (size_t m = 0; m < k; m++) {
		h->evaluations += members[m]->evaluations;
		h->failed_folds = members[m]->failed_folds > h->failed_folds
		                      ? members[m]->failed_folds
		                      : h->failed_folds;
	}
	sf_holdout_score_all(h, d);
	free(w);
	free(t);
	*out = h;
	return SF_OK;
}
