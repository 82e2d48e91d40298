/*
 * interval.c - prediction intervals: noise, parameters and the formula's
 * error beyond the fitted range, calibrated by forward chaining
 * (interval.h).
 */
#include "fit/interval.h"
#include "base/sort.h"
#include "fit/cost.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* The error of prediction pred of measurement y on the model's scale. */
static double
scaled_error(int multiplicative, double pred, double y)
{
	if (multiplicative)
		return pred > 0 && y > 0 ? log(pred / y) : NAN;
	return pred - y;
}

/* Pooled variance of repeated configurations, on the model's scale. */
static void
replicate_scatter(const sf_dataset *d, int multiplicative, double *sd,
                  size_t *dof)
{
	double sum = 0;
	size_t n = 0;

	for (size_t c = 0; c < d->nconfigs; c++) {
		const sf_dataset_config *k = &d->configs[c];
		double v = k->sd;

		if (k->count < 2 || !isfinite(v))
			continue;
		if (multiplicative) {
			if (!(k->mean > 0))
				continue;
			v /= k->mean;
		}
		sum += (double)(k->count - 1) * v * v;
		n += k->count - 1;
	}
	*dof = n;
	*sd = n > 0 ? sqrt(sum / (double)n) : NAN;
}

double
sf_interval_distance(size_t n, const double *lo, const double *hi,
                     const unsigned char *numeric, const double *x)
{
	double sum = 0;

	for (size_t i = 0; i < n; i++) {
		double d = 0;

		if ((numeric != NULL && !numeric[i]) || !isfinite(lo[i]) ||
		    !isfinite(hi[i]) || !isfinite(x[i]))
			continue;
		if (x[i] > hi[i])
			d = lo[i] > 0       ? log2(x[i] / hi[i])
			    : hi[i] > lo[i] ? (x[i] - hi[i]) / (hi[i] - lo[i])
			                    : 1;
		else if (x[i] < lo[i])
			d = lo[i] > 0 && x[i] > 0 ? log2(lo[i] / x[i])
			    : hi[i] > lo[i] ? (lo[i] - x[i]) / (hi[i] - lo[i])
			                    : 1;
		sum += d * d;
	}
	return sqrt(sum);
}

void
sf_interval_at(const sf_interval_model *im, double time, double mean_var,
               double distance, double *lo, double *hi)
{
	double c = isnan(im->growth) ? 0 : im->growth;
	double v = isfinite(mean_var) && mean_var > 0 ? mean_var : 0;
	double model = c * distance;

	*lo = *hi = NAN;
	if (!isfinite(time))
		return;
	if (im->multiplicative) {
		double s;

		if (!(time > 0))
			return;
		s = sqrt(im->sigma * im->sigma + v / (time * time) +
		         model * model);
		*lo = time * exp(-im->t * s);
		*hi = time * exp(im->t * s);
	} else {
		double m = model * fabs(time);
		double h = im->t * sqrt(im->sigma * im->sigma + v + m * m);

		*lo = time - h;
		*hi = time + h;
	}
}

/*
 * The predictions of f at theta over the rows of d and, when cov is not
 * NULL, the variance g^T C g of each (parameters with a NaN variance, held
 * at a bound, left out; var NaN everywhere when a derivative is not
 * finite).  var may be NULL.
 */
static int
rows_mean_var(const sf_formula *f, const sf_dataset *d, const double *theta,
              const double *cov, double *pred, double *var, sf_error *err)
{
	const size_t n = d->rows, P = f->nparams;
	sf_cost_settings cs = {SF_LOSS_SSE, 1, SF_PENALTY_NONE, 0, 1, 0};
	sf_cost *c = sf_cost_alloc(f, d, NULL, &cs, err);
	double *res = NULL, *J = NULL;
	int rc = SF_OK;

	if (c == NULL)
		return err != NULL ? err->code : SF_ENOMEM;
	sf_cost_predict(c, theta, pred);
	if (var == NULL)
		goto done;
	for (size_t i = 0; i < n; i++)
		var[i] = NAN;
	if (cov == NULL)
		goto done;
	res = malloc((n + 1) * sizeof *res);
	J = malloc((n * P + 1) * sizeof *J);
	if (res == NULL || J == NULL) {
		rc = sf_error_set(err, SF_ENOMEM, "out of memory");
		goto done;
	}
	if (sf_cost_residuals(c, theta, res, J) != SF_OK)
		goto done;
	for (size_t i = 0; i < n; i++) {
		const double *g = J + i * P;
		double v = 0;

		for (size_t a = 0; a < P; a++) {
			if (isnan(cov[a * P + a]))
				continue;
			for (size_t b = 0; b < P; b++)
				if (!isnan(cov[b * P + b]))
					v += g[a] * cov[a * P + b] * g[b];
		}
		var[i] = v;
	}
done:
	free(res);
	free(J);
	sf_cost_free(c);
	return rc;
}

/* The range of every input over rows[0..n). */
static void
ranges_of(const sf_dataset *d, const size_t *rows, size_t n, double *lo,
          double *hi)
{
	for (size_t j = 0; j < d->ninputs; j++) {
		lo[j] = INFINITY;
		hi[j] = -INFINITY;
		for (size_t k = 0; k < n; k++) {
			double v = d->inputs[j].values[rows[k]];

			lo[j] = v < lo[j] ? v : lo[j];
			hi[j] = v > hi[j] ? v : hi[j];
		}
	}
}

/*
 * The levels of an input along which to chain: the n sorted values x
 * grouped so that a level starts where a value lies SF_INTERVAL_LEVEL_GAP
 * above the previous one (in ratio for positive values, else as a share of
 * the range), each level stored as its largest value at the front of x.
 * Values closer than that (388,208 and 388,288 samples) are one level:
 * predicting one from the other is noise, not extrapolation.  Returns the
 * number of levels.
 */
static size_t
level_tops(double *x, size_t n)
{
	const double width = n > 0 ? x[n - 1] - x[0] : 0;
	size_t m = 0;

	for (size_t i = 0; i < n; i++) {
		int same =
		    m > 0 &&
		    (x[0] > 0
		         ? x[i] < x[m - 1] * (1 + SF_INTERVAL_LEVEL_GAP)
		         : x[i] - x[m - 1] < SF_INTERVAL_LEVEL_GAP * width);

		if (same)
			x[m - 1] = x[i];
		else
			x[m++] = x[i];
	}
	return m;
}

/* Growing arrays of the chained predictions' needed growths. */
typedef struct chain {
	double *need; /* c_i per prediction beyond the range */
	size_t n, cap;
} chain;

static int
chain_push(chain *c, double v)
{
	if (c->n == c->cap) {
		size_t cap = c->cap ? 2 * c->cap : 64;
		double *more = realloc(c->need, cap * sizeof *more);

		if (more == NULL)
			return SF_ENOMEM;
		c->need = more;
		c->cap = cap;
	}
	c->need[c->n++] = v;
	return SF_OK;
}

/*
 * Refit on the rows where input j is at most cut, predict the others, and
 * push each prediction's needed growth.  *fitted is set when the refit
 * succeeded.
 */
static int
chain_step(const sf_model *m, const sf_dataset *d, const sf_formula *f,
           const sf_fit_options *o, const sf_interval_model *im,
           const unsigned char *numeric, size_t j, double cut, size_t *rows,
           double *lo, double *hi, double *x, double *pred, double *var,
           chain *c, int *fitted, sf_error *err)
{
	size_t ntrain = 0;
	sf_dataset *sub = NULL;
	sf_fit_result *r = NULL;
	sf_stats *s = NULL;
	sf_error fit_err;
	int rc;

	*fitted = 0;
	for (size_t i = 0; i < d->rows; i++)
		if (d->inputs[j].values[i] <= cut)
			rows[ntrain++] = i;
	if (ntrain <= f->nparams || ntrain == d->rows)
		return SF_OK;
	ranges_of(d, rows, ntrain, lo, hi);
	if ((rc = sf_dataset_select(d, rows, ntrain, &sub, err)) != SF_OK)
		return rc;
	rc = sf_fit_run(m, sub, f, o, &r, &fit_err);
	/* The refit's own parameter uncertainty is not model error. */
	if (rc == SF_OK && r->cost < INFINITY)
		rc = sf_stats_compute(f, sub, r, &s, &fit_err);
	sf_dataset_free(sub);
	if (rc == SF_ENOMEM) {
		sf_fit_result_free(r);
		if (err != NULL)
			*err = fit_err;
		return rc;
	}
	if (r == NULL || !(r->cost < INFINITY)) {
		sf_fit_result_free(r);
		return SF_OK;
	}
	rc = rows_mean_var(f, d, r->theta, s != NULL ? s->cov : NULL, pred, var,
	                   err);
	sf_fit_result_free(r);
	sf_stats_free(s);
	if (rc != SF_OK)
		return rc;
	*fitted = 1;
	for (size_t i = 0; i < d->rows && rc == SF_OK; i++) {
		double D, e, scale, v, need;

		if (d->inputs[j].values[i] <= cut)
			continue;
		for (size_t k = 0; k < d->ninputs; k++)
			x[k] = d->inputs[k].values[i];
		D = sf_interval_distance(d->ninputs, lo, hi, numeric, x);
		e = scaled_error(im->multiplicative, pred[i], d->output[i]);
		scale = im->multiplicative ? 1 : fabs(pred[i]);
		if (!(D > 0) || !isfinite(e) || !(scale > 0))
			continue;
		v = isfinite(var[i]) && var[i] > 0 ? var[i] : 0;
		if (im->multiplicative)
			v /= pred[i] * pred[i];
		need = e / im->t;
		need = need * need - im->sigma * im->sigma - v;
		need = need > 0 ? sqrt(need) / (D * scale) : 0;
		rc = chain_push(c, need);
	}
	return rc == SF_OK ? SF_OK : sf_error_set(err, rc, "out of memory");
}

int
sf_interval_calibrate(const sf_model *m, const sf_dataset *d,
                      const sf_formula *f, const sf_fit_options *o,
                      const sf_fit_result *r, const sf_stats *s,
                      sf_interval_model *out, sf_error *err)
{
	const size_t n = d->rows, J = d->ninputs;
	sf_fit_options co = *o;
	unsigned char *numeric = NULL;
	size_t *rows = NULL;
	double *levels = NULL, *lo = NULL, *hi = NULL, *x = NULL, *pred = NULL;
	double *var = NULL;
	chain c = {NULL, 0, 0};
	int rc = SF_OK;

	memset(out, 0, sizeof *out);
	out->growth = NAN;
	/* Relative errors for the losses whose errors are (solve/loss.h). */
	out->multiplicative = sf_loss_get(r->settings.loss)->multiplicative;
	out->dof = (double)s->dof;
	out->t = s->t95;
	if (s->dof < 1 || !isfinite(s->t95))
		return sf_error_set(err, SF_EVALUE,
		                    "no residual degrees of freedom: a "
		                    "prediction interval needs more rows than "
		                    "fitted constants");
	out->sigma_residual = sqrt(s->chisqr / (double)s->dof);
	replicate_scatter(d, out->multiplicative, &out->sigma_replicates,
	                  &out->replicate_dof);
	out->sigma = out->sigma_residual;
	if (out->replicate_dof > 0 && out->sigma_replicates > out->sigma)
		out->sigma = out->sigma_replicates;

	numeric = malloc(J + 1);
	rows = malloc((n + 1) * sizeof *rows);
	levels = malloc((n + 1) * sizeof *levels);
	lo = malloc((J + 1) * sizeof *lo);
	hi = malloc((J + 1) * sizeof *hi);
	x = malloc((J + 1) * sizeof *x);
	pred = malloc((n + 1) * sizeof *pred);
	var = malloc((n + 1) * sizeof *var);
	if (numeric == NULL || rows == NULL || levels == NULL || lo == NULL ||
	    hi == NULL || x == NULL || pred == NULL || var == NULL) {
		rc = sf_error_set(err, SF_ENOMEM, "out of memory");
		goto done;
	}
	for (size_t j = 0; j < J; j++)
		numeric[j] = d->inputs[j].levels == NULL;
	/* The chain's refits: polish from the fit's constants, at its
	 * lambda and seed, quietly - with the polish on even when the fit
	 * had it off, or every refit would be a whole new search. */
	co.warm_start = r->theta;
	co.polish = 1;
	co.has_lambda = 1;
	co.lambda = r->settings.lambda;
	co.has_seed = 1;
	co.seed = r->settings.seed;
	co.progress = NULL;
	for (size_t j = 0; j < J && rc == SF_OK; j++) {
		size_t m_levels, cuts, step;

		if (!numeric[j])
			continue;
		memcpy(levels, d->inputs[j].values, n * sizeof *levels);
		qsort(levels, n, sizeof *levels, sf_sort_compare_doubles);
		m_levels = level_tops(levels, n);
		if (m_levels < 3)
			continue;
		/* Cut after level k = 1 .. m - 2 (at least two levels fitted,
		 * one predicted), at most SF_INTERVAL_CUTS of them, spread. */
		cuts = m_levels - 2;
		step = cuts > SF_INTERVAL_CUTS
		           ? (cuts + SF_INTERVAL_CUTS - 1) / SF_INTERVAL_CUTS
		           : 1;
		for (size_t i = 0; i * step < cuts && rc == SF_OK; i++) {
			int fitted;

			rc = chain_step(m, d, f, &co, out, numeric, j,
			                levels[m_levels - 2 - i * step], rows,
			                lo, hi, x, pred, var, &c, &fitted, err);
			out->chain_fits += (size_t)fitted;
		}
	}
	if (rc != SF_OK)
		goto done;
	out->chain_points = c.n;
	if (c.n > 0) {
		size_t q = (size_t)ceil((double)(c.n + 1) * SF_INTERVAL_LEVEL);

		qsort(c.need, c.n, sizeof *c.need, sf_sort_compare_doubles);
		out->conservative = q > c.n;
		out->growth = c.need[(q > c.n ? c.n : q) - 1];
	}
done:
	free(c.need);
	free(numeric);
	free(rows);
	free(levels);
	free(lo);
	free(hi);
	free(x);
	free(pred);
	free(var);
	return rc;
}

int
sf_interval_rows(const sf_interval_model *im, const sf_formula *f,
                 const sf_dataset *fitted, const sf_dataset *d,
                 const double *theta, const double *cov, double *lo, double *hi,
                 sf_error *err)
{
	const size_t n = d->rows, J = d->ninputs;
	double *pred = malloc((n + 1) * sizeof *pred);
	double *var = malloc((n + 1) * sizeof *var);
	double *rlo = malloc((J + 1) * sizeof *rlo);
	double *rhi = malloc((J + 1) * sizeof *rhi);
	double *x = malloc((J + 1) * sizeof *x);
	unsigned char *numeric = malloc(J + 1);
	size_t *all = malloc((fitted->rows + 1) * sizeof *all);
	int rc;

	if (pred == NULL || var == NULL || rlo == NULL || rhi == NULL ||
	    x == NULL || numeric == NULL || all == NULL) {
		rc = sf_error_set(err, SF_ENOMEM, "out of memory");
		goto done;
	}
	for (size_t i = 0; i < fitted->rows; i++)
		all[i] = i;
	ranges_of(fitted, all, fitted->rows, rlo, rhi);
	for (size_t j = 0; j < J; j++)
		numeric[j] = d->inputs[j].levels == NULL;
	if ((rc = rows_mean_var(f, d, theta, cov, pred, var, err)) != SF_OK)
		goto done;
	for (size_t i = 0; i < n; i++) {
		for (size_t j = 0; j < J; j++)
			x[j] = d->inputs[j].values[i];
		sf_interval_at(im, pred[i], var[i],
		               sf_interval_distance(J, rlo, rhi, numeric, x),
		               &lo[i], &hi[i]);
	}
done:
	free(pred);
	free(var);
	free(rlo);
	free(rhi);
	free(x);
	free(numeric);
	free(all);
	return rc;
}
