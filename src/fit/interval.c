/*
 * interval.c - prediction intervals: noise, parameters and the formula's
 * error beyond the fitted range, calibrated by forward chaining
 * (interval.h).
 */
#include "fit/interval.h"
#include "base/grow.h"
#include "base/sort.h"
#include "fit/cost.h"

#include <gsl/gsl_cdf.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* How far measurement y lies above prediction pred, on the model's
 * scale: ln(y / pred), or (y - pred) / |pred| for additive errors. */
static double
signed_error(int multiplicative, double pred, double y)
{
	if (multiplicative)
		return pred > 0 && y > 0 ? log(y / pred) : NAN;
	return pred != 0 ? (y - pred) / fabs(pred) : NAN;
}

/* Pooled variance of repeated configurations, on the model's scale: of
 * every one when j is SIZE_MAX, else of those whose input j is at
 * level. */
static void
replicate_scatter(const sf_dataset *d, int multiplicative, size_t j,
                  double level, double *sd, size_t *dof)
{
	double sum = 0;
	size_t n = 0;

	for (size_t c = 0; c < d->nconfigs; c++) {
		const sf_dataset_config *k = &d->configs[c];
		double v = k->sd;

		if (k->count < 2 || !isfinite(v) ||
		    (j != SIZE_MAX &&
		     d->inputs[j].values[k->first_row] != level))
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
sf_interval_doublings(double lo, double hi, double x)
{
	if (!isfinite(lo) || !isfinite(hi) || !isfinite(x))
		return 0;
	if (x > hi)
		return lo > 0    ? log2(x / hi)
		       : hi > lo ? (x - hi) / (hi - lo)
		                 : 1;
	if (x < lo)
		return lo > 0 && x > 0 ? log2(lo / x)
		       : hi > lo       ? (lo - x) / (hi - lo)
		                       : 1;
	return 0;
}

double
sf_interval_signed_doublings(double lo, double hi, double x)
{
	double d = sf_interval_doublings(lo, hi, x);

	return x < lo ? -d : d;
}

const sf_interval_along *
sf_interval_along_of(const sf_interval_model *im, size_t j)
{
	return &im->along[j < im->ninputs && j < SF_INTERVAL_INPUTS
	                      ? j
	                      : SF_INTERVAL_INPUTS];
}

int
sf_interval_is_hardware(const sf_interval_model *im, size_t j)
{
	return j == im->hardware && im->hardware_prior_scale > 0;
}

/* The prior's scale s0 along input j of im: a hardware speed's, or the
 * one of every other input. */
static double
prior_scale_along(const sf_interval_model *im, size_t j)
{
	return sf_interval_is_hardware(im, j) ? im->hardware_prior_scale
	                                      : im->prior_scale;
}

int
sf_interval_slope_carried(const sf_interval_along *a)
{
	return a->trend_var > 0;
}

int
sf_interval_slope_shown(const sf_interval_along *a)
{
	return sf_interval_slope_carried(a) &&
	       fabs(a->trend) >= SF_INTERVAL_SHOWN;
}

void
sf_interval_along_moved(sf_interval_along *a, double e)
{
	if (!sf_interval_slope_carried(a) || !(e > 0))
		return;
	a->bias += a->trend * e;
	if (!isnan(a->growth))
		a->growth = sqrt(a->growth * a->growth + e * e * a->trend_var +
		                 2 * e * a->trend_cov);
	a->trend_cov += e * a->trend_var;
}

void
sf_interval_beyond_add(const sf_interval_model *im, size_t j, double d,
                       sf_interval_beyond *b)
{
	const sf_interval_along *a;
	int prior;
	double c, v, nu, shift;

	b->distance2 += d * d;
	if (im == NULL || d == 0)
		return;
	a = sf_interval_along_of(im, j);
	/* above the range the input's posterior; below it the prior alone
	 * (a fit file without the prior's scale: the posterior): the chain
	 * refits smaller levels and predicts larger ones, and says nothing
	 * of the formula's error going down (a batch per worker that falls
	 * as workers join a fixed global batch) */
	prior = d < 0 && prior_scale_along(im, j) > 0;
	c = isnan(a->growth) ? 0 : prior ? prior_scale_along(im, j) : a->growth;
	nu = prior ? im->prior.dof : a->growth_dof;
	v = c * d * c * d;
	shift = !prior && isfinite(a->bias) ? a->bias * fabs(d) : 0;
	/* above the range, an error per doubling that moves by gamma per
	 * doubling: integrated over the d doublings, mu d + gamma d^2 / 2,
	 * whose variance adds var(gamma) d^4 / 4 + cov(mu, gamma) d^3 */
	if (!prior && d > 0 && sf_interval_slope_carried(a)) {
		shift += a->trend * d * d / 2;
		v +=
		    a->trend_var * d * d * d * d / 4 + a->trend_cov * d * d * d;
	}
	b->shift += shift;
	b->var += v;
	if (sf_interval_is_hardware(im, j))
		b->hardware += v + shift * shift;
	if (nu > 0)
		b->var_over_dof += v * v / nu;
	/* above the range the noise is the top level's (the runs nearest),
	 * the pooled one's where that is unknown; the largest over inputs */
	if (d > 0) {
		int known = a->noise > 0 && isfinite(a->noise);
		double n = known ? a->noise : im->sigma;

		if (n > b->noise) {
			b->noise = n;
			b->noise_dof = known ? a->noise_dof : 0;
		}
	}
}

double
sf_interval_noise(const sf_interval_model *im, const sf_interval_beyond *b)
{
	return b->noise > 0 ? b->noise : im->sigma;
}

sf_interval_beyond
sf_interval_beyond_at(const sf_interval_model *im, size_t n, const double *lo,
                      const double *hi, const unsigned char *numeric,
                      const double *x)
{
	sf_interval_beyond b = {0, 0, 0, 0, 0, 0, 0};

	for (size_t i = 0; i < n; i++)
		if (numeric == NULL || numeric[i])
			sf_interval_beyond_add(
			    im, i,
			    sf_interval_signed_doublings(lo[i], hi[i], x[i]),
			    &b);
	return b;
}

int
sf_interval_shape(const sf_interval_model *im, double time, double mean_var,
                  const sf_interval_beyond *beyond, sf_interval_t *out)
{
	double v = isfinite(mean_var) && mean_var > 0 ? mean_var : 0;
	double A = beyond->var, Aq = beyond->var_over_dof, B;
	double noise = sf_interval_noise(im, beyond);

	if (!isfinite(time) || (im->multiplicative && !(time > 0))) {
		*out = (sf_interval_t){NAN, NAN, NAN, NAN};
		return 0;
	}
	if (im->multiplicative) {
		B = noise * noise + v / (time * time);
		out->shift = beyond->shift;
	} else {
		A *= time * time;
		Aq *= time * time * time * time;
		B = noise * noise + v;
		out->shift = beyond->shift * fabs(time);
	}
	out->centre = (im->multiplicative ? log(time) : time) + out->shift;
	out->scale = sqrt(A + B);
	/* Welch-Satterthwaite: the model part has each input's growth_dof
	 * degrees of freedom, the noise and parameters the fit's dof (a top
	 * level's scatter: its runs') */
	out->dof = im->dof >= 1 ? im->dof : 1;
	if (beyond->noise > 0 && beyond->noise_dof >= 1)
		out->dof = beyond->noise_dof;
	if (A > 0 && Aq > 0)
		out->dof = (A + B) * (A + B) / (Aq + B * B / out->dof);
	return 1;
}

void
sf_interval_at(const sf_interval_model *im, double time, double mean_var,
               const sf_interval_beyond *beyond, double *lo, double *hi)
{
	sf_interval_t t;
	double q;

	*lo = *hi = NAN;
	if (!sf_interval_shape(im, time, mean_var, beyond, &t))
		return;
	/* Inside the range (or from an older FIT.json) the fit's own t. */
	q = t.dof == (im->dof >= 1 ? im->dof : 1)
	        ? im->t
	        : gsl_cdf_tdist_Pinv(0.5 + SF_INTERVAL_LEVEL / 2, t.dof);
	*lo = t.centre - q * t.scale;
	*hi = t.centre + q * t.scale;
	if (im->multiplicative) {
		*lo = exp(*lo);
		*hi = exp(*hi);
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

/* What the chain learned: one entry per cut that gave evidence. */
typedef struct cut {
	size_t input;     /* the input chained along */
	size_t rank;      /* 0 for the input's top cut, 1 for the next, ... */
	double upto;      /* its refit's rows: the input at most this */
	double below;     /* doublings from its top level up to the input's */
	double slope;     /* m_k: its error per doubling */
	double reach;     /* S = sum of its predictions' squared distances */
	double spread;    /* (sum of D_i sqrt(v_i))^2: its refit's own
	                     uncertainty (shared by its predictions), which adds
	                     (sigma^2 S + spread) / S^2 to the slope's variance
	                     besides the model error */
	size_t ntrain;    /* its refit's rows: how many, and */
	uint64_t rows_id; /* a hash of which (two inputs that split the
	                     rows alike give the same cut once) */
} cut;

typedef struct chain {
	cut *cuts;
	size_t n, cap;
	size_t fits, points;
} chain;

static int
chain_push(chain *c, cut k)
{
	cut *cuts = sf_grow(c->cuts, &c->cap, c->n, sizeof *cuts, 16);

	if (cuts == NULL)
		return SF_ENOMEM;
	c->cuts = cuts;
	c->cuts[c->n++] = k;
	return SF_OK;
}

/* Work arrays of the chain, sized for d. */
typedef struct chain_work {
	unsigned char *numeric;
	size_t *rows, *tmp;
	double *levels, *lo, *hi, *x, *pred, *var;
} chain_work;

static void
chain_work_free(chain_work *w)
{
	free(w->numeric);
	free(w->rows);
	free(w->tmp);
	free(w->levels);
	free(w->lo);
	free(w->hi);
	free(w->x);
	free(w->pred);
	free(w->var);
}

static int
chain_work_alloc(chain_work *w, const sf_dataset *d)
{
	const size_t n = d->rows, J = d->ninputs;

	w->numeric = malloc(J + 1);
	w->rows = malloc((n + 1) * sizeof *w->rows);
	w->tmp = malloc((n + 1) * sizeof *w->tmp);
	w->levels = malloc((n + 1) * sizeof *w->levels);
	w->lo = malloc((J + 1) * sizeof *w->lo);
	w->hi = malloc((J + 1) * sizeof *w->hi);
	w->x = malloc((J + 1) * sizeof *w->x);
	w->pred = malloc((n + 1) * sizeof *w->pred);
	w->var = malloc((n + 1) * sizeof *w->var);
	if (w->numeric == NULL || w->rows == NULL || w->tmp == NULL ||
	    w->levels == NULL || w->lo == NULL || w->hi == NULL ||
	    w->x == NULL || w->pred == NULL || w->var == NULL)
		return SF_ENOMEM;
	for (size_t j = 0; j < J; j++)
		w->numeric[j] = d->inputs[j].levels == NULL;
	return SF_OK;
}

/*
 * The least-squares slope through the origin of the refit's errors on
 * the rows beyond the cut against their distances: its error per
 * doubling.  Sets *reach to the sum of squared distances (0: no row
 * beyond the range gave an error).
 */
static double
cut_slope(const sf_dataset *d, const chain_work *w, int multiplicative,
          size_t j, double cut_value, double *reach, double *spread)
{
	double sde = 0, sdd = 0, sdv = 0;

	for (size_t i = 0; i < d->rows; i++) {
		double D, e, v;

		if (d->inputs[j].values[i] <= cut_value)
			continue;
		for (size_t k = 0; k < d->ninputs; k++)
			w->x[k] = d->inputs[k].values[i];
		D = sqrt(sf_interval_beyond_at(NULL, d->ninputs, w->lo, w->hi,
		                               w->numeric, w->x)
		             .distance2);
		e = signed_error(multiplicative, w->pred[i], d->output[i]);
		if (!(D > 0) || !isfinite(e))
			continue;
		v = isfinite(w->var[i]) && w->var[i] > 0 ? w->var[i] : 0;
		v /= w->pred[i] * w->pred[i];
		sde += D * e;
		sdd += D * D;
		sdv += D * sqrt(v);
	}
	*reach = sdd;
	/* The refit's parameter error moves all its predictions together. */
	*spread = sdv * sdv;
	return sdd > 0 ? sde / sdd : NAN;
}

/* FNV-1a of the n row indices rows: which rows a cut refits on. */
static uint64_t
rows_hash(const size_t *rows, size_t n)
{
	uint64_t h = 14695981039346656037u;

	for (size_t i = 0; i < n; i++)
		for (size_t b = 0; b < sizeof rows[i]; b++) {
			h ^= (rows[i] >> (8 * b)) & 0xff;
			h *= 1099511628211u;
		}
	return h;
}

/* The cut of c that refit on the same rows, or NULL: the same evidence
 * (two inputs that move together, as Ernest's cores and data size). */
static const cut *
chain_find(const chain *c, size_t ntrain, uint64_t id)
{
	for (size_t i = 0; i < c->n; i++)
		if (c->cuts[i].ntrain == ntrain && c->cuts[i].rows_id == id)
			return &c->cuts[i];
	return NULL;
}

/*
 * Refit on the rows where input j is at most cut_value and record the
 * cut's error per doubling on the rows beyond it.  A refit that fails
 * or a cut with too few rows on either side records nothing; one whose
 * rows an earlier cut refit on records that cut again, along j.
 */
static int
chain_step(const sf_model *m, const sf_dataset *d, const sf_formula *f,
           const sf_fit_options *o, int multiplicative, size_t j, size_t rank,
           double cut_value, double top, chain_work *w, chain *c, sf_error *err)
{
	size_t ntrain = 0;
	sf_dataset *sub = NULL;
	sf_fit_result *r = NULL;
	sf_stats *st = NULL;
	sf_error fit_err;
	cut k = {j, rank, cut_value, 0, NAN, 0, 0, 0, 0};
	const cut *same;
	int rc;

	for (size_t i = 0; i < d->rows; i++)
		if (d->inputs[j].values[i] <= cut_value)
			w->rows[ntrain++] = i;
	if (ntrain <= f->nparams || ntrain == d->rows)
		return SF_OK;
	k.ntrain = ntrain;
	k.rows_id = rows_hash(w->rows, ntrain);
	k.below = cut_value > 0 ? log2(top / cut_value)
	          : top > w->levels[0]
	              ? (top - cut_value) / (top - w->levels[0])
	              : 0;
	if ((same = chain_find(c, k.ntrain, k.rows_id)) != NULL) {
		k.slope = same->slope;
		k.reach = same->reach;
		k.spread = same->spread;
		return chain_push(c, k) != SF_OK
		           ? sf_error_set(err, SF_ENOMEM, "out of memory")
		           : SF_OK;
	}
	ranges_of(d, w->rows, ntrain, w->lo, w->hi);
	if ((rc = sf_dataset_select(d, w->rows, ntrain, &sub, err)) != SF_OK)
		return rc;
	rc = sf_fit_run(m, sub, f, o, &r, &fit_err);
	/* The refit's own parameter uncertainty is not model error. */
	if (rc == SF_OK && r->cost < INFINITY)
		rc = sf_stats_compute(f, sub, r, &st, &fit_err);
	sf_dataset_free(sub);
	if (rc == SF_ENOMEM) {
		sf_fit_result_free(r);
		if (err != NULL)
			*err = fit_err;
		return rc;
	}
	if (r == NULL || !(r->cost < INFINITY)) {
		sf_fit_result_free(r);
		sf_stats_free(st);
		return SF_OK;
	}
	rc = rows_mean_var(f, d, r->theta, st != NULL ? st->cov : NULL, w->pred,
	                   w->var, err);
	sf_fit_result_free(r);
	sf_stats_free(st);
	if (rc != SF_OK)
		return rc;
	c->fits++;
	k.slope =
	    cut_slope(d, w, multiplicative, j, cut_value, &k.reach, &k.spread);
	if (!(k.reach > 0) || !isfinite(k.slope))
		return SF_OK;
	for (size_t i = 0; i < d->rows; i++)
		c->points += d->inputs[j].values[i] > cut_value;
	if (chain_push(c, k) != SF_OK)
		return sf_error_set(err, SF_ENOMEM, "out of memory");
	return SF_OK;
}

/*
 * Chain along input j: cut after level k = 1 .. L - 2 of its L levels (at
 * least two levels fitted, one predicted), at most SF_INTERVAL_CUTS of
 * them, spread, from the top down.  *nlevels is set to L.
 */
static int
chain_input(const sf_model *m, const sf_dataset *d, const sf_formula *f,
            const sf_fit_options *o, int multiplicative, size_t j,
            chain_work *w, chain *c, size_t *nlevels, sf_error *err)
{
	const size_t n = d->rows;
	size_t L, cuts, step;
	int rc = SF_OK;

	memcpy(w->levels, d->inputs[j].values, n * sizeof *w->levels);
	qsort(w->levels, n, sizeof *w->levels, sf_sort_compare_doubles);
	L = *nlevels = level_tops(w->levels, n);
	if (L < 3)
		return SF_OK;
	cuts = L - 2;
	step = cuts > SF_INTERVAL_CUTS
	           ? (cuts + SF_INTERVAL_CUTS - 1) / SF_INTERVAL_CUTS
	           : 1;
	for (size_t i = 0; i * step < cuts && rc == SF_OK; i++)
		rc = chain_step(m, d, f, o, multiplicative, j, i,
		                w->levels[L - 2 - i * step], w->levels[L - 1],
		                w, c, err);
	return rc;
}

/* The variance of cut k's slope that its noise and its refit's own
 * uncertainty explain. */
static double
noise_var(const cut *k, double sigma)
{
	return (sigma * sigma * k->reach + k->spread) / (k->reach * k->reach);
}

/* How a posterior weighs the cuts: as scattering about their line by the
 * prior's scale s0, or, on a chain of SF_INTERVAL_TREND_CUTS cuts or more,
 * as a line of its own (chain_line). */
enum { SCATTER_PRIOR, SCATTER_CHAIN };

/*
 * Whether the cuts along j are weighed as a line of their own (interval.h):
 * with SCATTER_CHAIN, on a chain of at least SF_INTERVAL_TREND_CUTS cuts
 * (enough to show a line and check it; the top cut counts, as
 * SCATTER_CHAIN is never asked with skip_top).
 */
static int
chain_line(const chain *c, size_t j, int scatter)
{
	size_t n = 0;

	if (scatter == SCATTER_PRIOR)
		return 0;
	for (size_t i = 0; i < c->n; i++)
		n += c->cuts[i].input == j;
	return n >= SF_INTERVAL_TREND_CUTS;
}

/*
 * The posterior along input j (interval.h) from its cuts, the top one left
 * out when skip_top, weighed as scatter says, and the prior at im's scale.
 */
static sf_interval_along
posterior(const sf_interval_model *im, const chain *c, size_t j, int skip_top,
          int scatter)
{
	const sf_interval_prior *p = &im->prior;
	const double s0 = prior_scale_along(im, j), c2 = s0 * s0;
	const int line = chain_line(c, j, scatter);
	/* how far the cuts scatter about their line, squared */
	const double w2 =
	    line ? SF_INTERVAL_CUT_SCATTER * SF_INTERVAL_CUT_SCATTER * c2 : c2;
	/* the bias's prior variance: N(0, s0^2 / kappa0) */
	const double prior_var = c2 / p->bias_weight;
	double S0 = 0, S1 = 0, S2 = 0, T0 = 0, T1 = 0, det, a, slope;
	double A0, Adet, ss = 0, E = 0;
	sf_interval_along out = {0};

	/* The cuts' slopes m_k against how far below the top their levels
	 * end, b_k: m = a - beta b, by weighted least squares (weights
	 * 1 / (noise + w2)) with beta held near 0 by a ridge (a change of s0
	 * per doubling of level as likely as not).  a is the error per
	 * doubling the cuts point to at the top. */
	for (size_t i = 0; i < c->n; i++) {
		const cut *k = &c->cuts[i];
		double u;

		if (k->input != j || (skip_top && k->rank == 0))
			continue;
		u = 1 / (noise_var(k, im->sigma) + w2);
		S0 += u;
		S1 += u * k->below;
		S2 += u * k->below * k->below;
		T0 += u * k->slope;
		T1 += u * k->slope * k->below;
		E += 1;
	}
	S2 += 1 / c2; /* the ridge on beta */
	det = S0 * S2 - S1 * S1;
	a = det > 0 ? (T0 * S2 - T1 * S1) / det : 0;
	slope = det > 0 ? (S0 * T1 - S1 * T0) / det : 0; /* -beta */
	for (size_t i = 0; i < c->n; i++) {
		const cut *k = &c->cuts[i];
		double r;

		if (k->input != j || (skip_top && k->rank == 0))
			continue;
		r = k->slope - (a + slope * k->below);
		r = r * r - noise_var(k, im->sigma);
		ss += r > 0 ? r : 0;
	}
	/* (a, beta) with the bias's prior too, jointly: mu_j and var(mu_j)
	 * are a's, shrunk toward 0; the line's slope moves with it (their
	 * correlation), so a climb is never read off a line whose level the
	 * prior has pulled elsewhere */
	A0 = S0 + 1 / prior_var;
	Adet = A0 * S2 - S1 * S1;
	out.bias = (T0 * S2 - T1 * S1) / Adet;
	/* a chain that draws its own line carries its slope beyond the
	 * top, whichever way it goes: gamma_j = beta */
	if (line) {
		out.trend = -(A0 * T1 - S1 * T0) / Adet;
		out.trend_var = A0 / Adet;
		out.trend_cov = S1 / Adet; /* cov(mu_j, gamma_j) */
	}
	out.evidence = E;
	out.growth_dof = p->dof + E;
	out.growth = sqrt((p->dof * c2 + ss) / out.growth_dof + S2 / Adet);
	return out;
}

/*
 * The regime check (interval.h): input j's top cut against the posterior
 * of its other cuts and the prior, one-sided at 95% (the slow side is the
 * change that matters).  On a change, *top gets the top cut's error per
 * doubling.
 */
static int
regime_change(const sf_interval_model *im, const chain *c, size_t j,
              double *top)
{
	for (size_t i = 0; i < c->n; i++) {
		const cut *k = &c->cuts[i];
		sf_interval_along others;

		if (k->input != j || k->rank != 0)
			continue;
		others = posterior(im, c, j, 1, SCATTER_PRIOR);
		*top = k->slope;
		return k->slope - others.bias >
		       gsl_cdf_tdist_Pinv(SF_INTERVAL_LEVEL,
		                          others.growth_dof) *
		           others.growth;
	}
	return 0;
}

/*
 * Widen a towards another answer, an error of other per doubling (a
 * regime change's top cut, the measured pace): the model error beyond is
 * an equal mixture of the two, each with a's spread; its centre is their
 * mean and its spread adds half their distance (the mixture's variance).
 */
static void
widen_towards(sf_interval_along *a, double other)
{
	const double half = (other - a->bias) / 2;

	a->bias += half;
	a->growth = sqrt(a->growth * a->growth + half * half);
}

/* The mean over im's numeric inputs (numeric[j]) of the expected squared
 * error a doubling beyond the range, (mu + gamma / 2)^2 + s^2 + var(gamma)
 * / 4 + cov(mu, gamma) (sf_interval_beyond_add at d = 1); NaN when a
 * growth is unknown. */
static double
mean_square_error(const sf_interval_model *im, const unsigned char *numeric)
{
	double sum = 0;
	size_t n = 0;

	for (size_t j = 0; j < im->ninputs; j++) {
		const sf_interval_along *a = sf_interval_along_of(im, j);
		double b = (isfinite(a->bias) ? a->bias : 0) +
		           (sf_interval_slope_carried(a) ? a->trend / 2 : 0);

		if (numeric != NULL && !numeric[j])
			continue;
		sum += b * b + a->growth * a->growth + a->trend_var / 4 +
		       a->trend_cov;
		n++;
	}
	return n > 0 ? sum / (double)n : NAN;
}

double
sf_interval_weight(const sf_interval_model *im)
{
	double e;

	if (im->weight > 0 && isfinite(im->weight))
		return im->weight;
	e = mean_square_error(im, NULL);
	return e > 0 && isfinite(e) ? 1 / e : 0;
}

/* The error model along every input of im from chain c (numeric[j]: input
 * j is numeric), the regime check on input top included with the model
 * file's (im->regime_prior, NaN none: interval.h),
 * from the prior's scale at im->prior_scale.  Returns the mean over the
 * numeric inputs of the expected squared error a doubling beyond
 * (mean_square_error) before any regime's widening. */
static double
error_model(sf_interval_model *im, const chain *c, const unsigned char *numeric,
            size_t top)
{
	double top_slope = 0, mse;

	for (size_t j = 0; j < im->ninputs && j < SF_INTERVAL_INPUTS; j++)
		im->along[j] = posterior(im, c, j, 0, SCATTER_CHAIN);
	im->along[SF_INTERVAL_INPUTS] =
	    posterior(im, c, SIZE_MAX, 0, SCATTER_CHAIN);
	mse = mean_square_error(im, numeric);
	if (top == SIZE_MAX || top >= SF_INTERVAL_INPUTS)
		return mse;
	if (!regime_change(im, c, top, &top_slope))
		top_slope = -INFINITY;
	if (im->regime_prior > top_slope) {
		top_slope = im->regime_prior;
		im->regime_carried = 1;
	}
	if (isfinite(top_slope)) {
		const sf_interval_along line = im->along[top];

		im->regime = 1;
		im->regime_input = top;
		im->regime_slope = top_slope;
		/* the top cut breaks from the line: the mixture is of the
		 * cuts as the prior's scatter about one and the break.  The
		 * line's slope (with the top cut: contention that has begun
		 * steepens it) carries on under both, as without a regime:
		 * dropped, init's path at bench/contention.py's k = 0.2 held
		 * 78.5% of the runs at 12-16 workers, not 82.6% */
		im->along[top] = posterior(im, c, top, 0, SCATTER_PRIOR);
		im->along[top].trend = line.trend;
		im->along[top].trend_var = line.trend_var;
		im->along[top].trend_cov = line.trend_cov;
		widen_towards(&im->along[top], top_slope);
	}
	return mse;
}

/* The median-time row of d (the lower middle one) whose input j is at
 * level and, when like is not SIZE_MAX, whose other inputs are like's;
 * SIZE_MAX when there is none.  rows and tmp hold d->rows each. */
static size_t
median_time_row(const sf_dataset *d, size_t j, double level, size_t like,
                size_t *rows, size_t *tmp)
{
	size_t n = 0;

	for (size_t i = 0; i < d->rows; i++)
		if (d->inputs[j].values[i] == level &&
		    (like == SIZE_MAX || sf_dataset_same_but(d, i, like, j)))
			rows[n++] = i;
	sf_sort_indices(rows, tmp, n, sf_dataset_by_output, d);
	return n > 0 ? rows[(n - 1) / 2] : SIZE_MAX;
}

/*
 * The pace check along input j (interval.h) of formula f at theta: the
 * time's factor per doubling between the median-time row of j's top value
 * and the median row of its configuration at the next value below
 * (*measured) and the standard deviation of its log from the noise of
 * the two rows (*spread: im's repeats' scatter, else its noise), the
 * formula's between the same two rows
 * (*own), and the formula's from that top row to twice its j (*beyond);
 * all NaN when j's top values are not positive, no row of the
 * configuration lies below, or the formula's time does not fall beyond (j
 * does not speed the run up).  Returns SF_OK, SF_ENOMEM or a prediction's
 * error.
 */
static int
pace_along(const sf_interval_model *im, const sf_formula *f,
           const sf_dataset *d, const double *theta, size_t j, chain_work *w,
           double *measured, double *spread, double *own, double *beyond,
           sf_error *err)
{
	const double *x = d->inputs[j].values;
	double top = -INFINITY, below = -INFINITY, y_top, y_below, at[3];
	size_t row, under, pair[2];
	sf_dataset *two = NULL;
	int rc;

	*measured = *spread = *own = *beyond = NAN;
	for (size_t i = 0; i < d->rows; i++)
		top = x[i] > top ? x[i] : top;
	row = median_time_row(d, j, top, SIZE_MAX, w->rows, w->tmp);
	if (!(top > 0) || row == SIZE_MAX)
		return SF_OK;
	for (size_t i = 0; i < d->rows; i++)
		if (x[i] < top && x[i] > below &&
		    sf_dataset_same_but(d, i, row, j))
			below = x[i];
	if (!(below > 0))
		return SF_OK;
	under = median_time_row(d, j, below, row, w->rows, w->tmp);
	y_top = d->output[row];
	y_below = d->output[under];
	if (!(y_top > 0) || !(y_below > 0))
		return SF_OK;
	pair[0] = row;
	pair[1] = under;
	if ((rc = sf_dataset_select(d, pair, 2, &two, err)) != SF_OK)
		return rc;
	/* at: the formula at the top row, at that row with twice its j, at
	 * the row below (the second call writes the last two) */
	rc = rows_mean_var(f, two, theta, NULL, at, NULL, err);
	two->inputs[j].values[0] = 2 * top;
	if (rc == SF_OK)
		rc = rows_mean_var(f, two, theta, NULL, &at[1], NULL, err);
	sf_dataset_free(two);
	if (rc != SF_OK)
		return rc;
	if (at[0] > 0 && at[1] < at[0] && at[2] > 0) {
		/* each row's noise on the log scale: its repeats' scatter
		 * where known (a formula's misfit is not the rows' noise) */
		const double sigma = isfinite(im->sigma_replicates)
		                         ? im->sigma_replicates
		                         : im->sigma;
		double n_top = im->multiplicative ? sigma : sigma / y_top;
		double n_below = im->multiplicative ? sigma : sigma / y_below;
		const double doublings = log2(top / below);

		*measured = pow(y_top / y_below, 1 / doublings);
		*spread = sqrt(n_top * n_top + n_below * n_below) / doublings;
		*own = pow(at[0] / at[2], 1 / doublings);
		*beyond = at[1] / at[0];
	}
	return SF_OK;
}

/*
 * The pace check of every numeric input of d (interval.h): each whose
 * formula speeds up beyond its range by more than the measured pace allows,
 * and misses that pace between the measured rows too by more than their
 * noise allows (one-sided, 95%), is widened; im's pace_* tell of the input
 * with the largest gap.
 */
static int
check_pace(sf_interval_model *im, const sf_formula *f, const sf_dataset *d,
           const double *theta, chain_work *w, sf_error *err)
{
	double worst = -INFINITY;

	im->pace_checked = im->pace_widened = 0;
	im->pace_measured = im->pace_beyond = NAN;
	for (size_t j = 0; j < d->ninputs && j < SF_INTERVAL_INPUTS; j++) {
		double measured, spread, own, beyond, gap;
		int rc, faster;

		if (!w->numeric[j])
			continue;
		if ((rc = pace_along(im, f, d, theta, j, w, &measured, &spread,
		                     &own, &beyond, err)) != SF_OK)
			return rc;
		if (!isfinite(measured) || !(beyond > 0))
			continue;
		gap = log(measured / beyond);
		/* a formula that gives the measured pace itself, within the
		 * two rows' noise (levels a fifth of a doubling apart make
		 * it five times a row's), and is faster beyond is not smooth
		 * there (its whole steps fall from 2 to 1): the convexity
		 * behind the check is not its */
		faster = beyond < measured - SF_INTERVAL_PACE_SLACK &&
		         own < measured - SF_INTERVAL_PACE_SLACK &&
		         log(measured / own) >
		             gsl_cdf_ugaussian_Pinv(SF_INTERVAL_LEVEL) * spread;
		if (faster)
			widen_towards(&im->along[j], gap);
		if (gap > worst) {
			worst = gap;
			im->pace_checked = 1;
			im->pace_input = j;
			im->pace_measured = measured;
			im->pace_beyond = beyond;
			im->pace_widened = faster;
		}
	}
	return SF_OK;
}

sf_interval_prior
sf_interval_prior_default(void)
{
	sf_interval_prior p = {SF_INTERVAL_PRIOR_SCALE,
	                       SF_INTERVAL_PRIOR_DOF,
	                       SF_INTERVAL_PRIOR_BIAS_WEIGHT,
	                       SF_INTERVAL_PRIOR_NOISE_WEIGHT,
	                       SF_INTERVAL_PRIOR_AGREED_SCALE,
	                       SF_INTERVAL_PRIOR_DISAGREEMENT_WEIGHT,
	                       SF_INTERVAL_PRIOR_HARDWARE_SCALE};

	return p;
}

/* The noise part of im from fit statistics s over d. */
static void
noise_of(sf_interval_model *im, const sf_dataset *d, const sf_stats *s)
{
	im->dof = (double)s->dof;
	im->t = s->t95;
	im->sigma_residual = sqrt(s->chisqr / (double)s->dof);
	replicate_scatter(d, im->multiplicative, SIZE_MAX, 0,
	                  &im->sigma_replicates, &im->replicate_dof);
	im->sigma = im->sigma_residual;
	if (im->replicate_dof > 0 && im->sigma_replicates > im->sigma)
		im->sigma = im->sigma_replicates;
}

/* The root mean square of the fit's residuals (on the model's scale;
 * the predictions pred) over the rows of d whose input j is at level, each
 * counted with the fit's share of degrees of freedom per row (dof_share),
 * into *rms and its degrees of freedom into *dof. */
static void
residual_scatter(const sf_dataset *d, int multiplicative, const double *pred,
                 double dof_share, size_t j, double level, double *rms,
                 double *dof)
{
	double sum = 0, n = 0;

	for (size_t i = 0; i < d->rows; i++) {
		double e, w = d->weight != NULL ? d->weight[i] : 1;

		if (d->inputs[j].values[i] != level)
			continue;
		e = multiplicative ? signed_error(1, pred[i], d->output[i])
		                   : d->output[i] - pred[i];
		if (!isfinite(e))
			continue;
		sum += w * e * e;
		n += 1;
	}
	*dof = n * dof_share;
	*rms = *dof > 0 ? sqrt(sum / *dof) : NAN;
}

/* Each numeric input's noise above the range (interval.h): the noise of
 * the runs at its top level - the larger of their repeats' scatter and
 * of the fit's residuals there, as sigma is of both over every row -
 * shrunk toward sigma as toward a prior worth
 * SF_INTERVAL_TOP_NOISE_PRIOR_DOF runs (the scaled-inverse-chi-squared
 * update).  The pooled scatter mixes every level's, and runs spread over
 * machines in more ways at a few workers than at many (Pollux's
 * placements: bert's repeats scatter 48% at 2 GPUs, 15% at 8 and 3-5% at
 * 9-16) would widen every prediction beyond by the smallest levels'
 * noise. */
static void
top_noise(sf_interval_model *im, const sf_dataset *d, const sf_stats *s,
          const unsigned char *numeric)
{
	const double s2 = im->sigma * im->sigma,
	             n0 = SF_INTERVAL_TOP_NOISE_PRIOR_DOF,
	             share = (double)s->dof / (double)d->rows;

	for (size_t j = 0; j < d->ninputs && j < SF_INTERVAL_INPUTS; j++) {
		double top = -INFINITY, sd, rms, n, nr;
		size_t dof;

		im->along[j].noise = im->along[j].noise_dof = 0;
		if (!numeric[j])
			continue;
		for (size_t i = 0; i < d->rows; i++)
			if (d->inputs[j].values[i] > top)
				top = d->inputs[j].values[i];
		replicate_scatter(d, im->multiplicative, j, top, &sd, &dof);
		residual_scatter(d, im->multiplicative, s->predicted, share, j,
		                 top, &rms, &nr);
		n = (double)dof;
		if (!(dof > 0 && sd > 0) || (nr > 0 && rms > sd)) {
			sd = rms;
			n = nr;
		}
		if (n > 0 && sd > 0 && isfinite(sd)) {
			im->along[j].noise =
			    sqrt((n * sd * sd + n0 * s2) / (n + n0));
			im->along[j].noise_dof = n + n0;
		}
	}
	im->along[SF_INTERVAL_INPUTS].noise = 0;
	im->along[SF_INTERVAL_INPUTS].noise_dof = 0;
}

/* im's noise sigma as a share of the time (of the mean |time| of d with
 * additive errors); 0 when unknown. */
static double
noise_share(const sf_interval_model *im, const sf_dataset *d)
{
	double share = im->sigma;

	if (!im->multiplicative) {
		double sum = 0;

		for (size_t i = 0; i < d->rows; i++)
			sum += fabs(d->output[i]);
		share = sum > 0 ? im->sigma * (double)d->rows / sum : 0;
	}
	return isfinite(share) ? share : 0;
}

/* The prior's scale at im's noise, its part r = r sigma given, and the
 * formulas' disagreement (interval.h): s0 = sqrt(a^2 + (r sigma)^2), or
 * sqrt(a'^2 + (r sigma)^2 + (q G)^2) with G known. */
static double
prior_scale_at(const sf_interval_model *im, double r)
{
	if (isfinite(im->disagreement)) {
		double a = im->prior.agreed_scale,
		       g = im->prior.disagreement_weight * im->disagreement;

		return sqrt(a * a + r * r + g * g);
	}
	return sqrt(im->prior.scale * im->prior.scale + r * r);
}

/* The prior's scale along a hardware speed at im's noise, its part r =
 * r sigma given (interval.h): s0 = sqrt(h^2 + (r sigma)^2), the formulas'
 * disagreement aside (it is measured along the extrapolated input). */
static double
hardware_scale_at(const sf_interval_model *im, double r)
{
	double h = im->prior.hardware_scale;

	return sqrt(h * h + r * r);
}

_Static_assert((int)SF_INTERVAL_INPUTS == (int)SF_SETTINGS_HARDWARE_INPUTS,
               "fit.prior.hardware names an input with an error of its own");

/* The input of d that m's fit.prior.hardware names, or SIZE_MAX. */
static size_t
hardware_input(const sf_model *m, const sf_dataset *d)
{
	const sf_dataset_input *in =
	    m->fit.prior_hardware[0] != '\0'
	        ? sf_dataset_input_find(d, m->fit.prior_hardware)
	        : NULL;

	return in != NULL ? (size_t)(in - d->inputs) : SIZE_MAX;
}

/*
 * The weight of im's fit when fit files are averaged by extrapolation
 * evidence (use/average.h), into im->weight: 1 / the expected squared
 * error of a new run a doubling beyond, v^2 + the mean square of the
 * errors per doubling m_k of chain c's cuts along the inputs with the
 * most levels (levels[j]: input j's; every such input's, so that the
 * order the inputs are declared in does not choose), v the noise as a
 * share of the time: the forward chain's own evidence beyond the range,
 * as extrapolation cross-validation measures it (im->weight_chain 1).
 * Not the posterior's: its prior, the same for every fit, outweighed
 * each fit's evidence and left the weights near equal
 * (bench/average_weights.py: a-GPUBench's interval score 189.1 against
 * 156.5 now, Pollux's 89.1 against 88.5, tf_cnn_benchmarks' 70.3 against
 * 60.1).  Without a cut along them, the posterior's model error a
 * doubling beyond from the prior at no noise (at each formula's own noise
 * the prior would favour the one that follows its rows most closely,
 * twice), before any regime's widening (a hedge of the interval, not
 * evidence against the formula; im->weight_chain 0).
 */
static void
averaging_weight(sf_interval_model *im, const chain *c, double v,
                 const unsigned char *numeric, const size_t *levels)
{
	sf_interval_model shared = *im;
	double sum = 0, mse;
	size_t n = 0, most = 0;

	for (size_t j = 0; j < im->ninputs; j++)
		most = levels[j] > most ? levels[j] : most;
	for (size_t i = 0; i < c->n; i++)
		if (most > 0 && c->cuts[i].input < im->ninputs &&
		    levels[c->cuts[i].input] == most &&
		    isfinite(c->cuts[i].slope)) {
			sum += c->cuts[i].slope * c->cuts[i].slope;
			n++;
		}
	im->weight_chain = n > 0;
	if (n > 0) {
		mse = sum / (double)n;
	} else {
		shared.prior_scale = im->prior.scale;
		/* a hardware speed's wider prior too is the same for every
		 * fit: it would only flatten the weights */
		shared.hardware_prior_scale = 0;
		mse = error_model(&shared, c, numeric, SIZE_MAX);
	}
	im->weight = isfinite(mse) && v * v + mse > 0 ? 1 / (v * v + mse) : 0;
}

/* The built-in prior with what the model file's fit.prior gives of it in
 * place (settings.h: 0, or < 0 for the weights, is not given). */
static sf_interval_prior
prior_of_file(const sf_fit_settings *fs)
{
	sf_interval_prior p = sf_interval_prior_default();

	if (fs->prior_scale > 0)
		p.scale = fs->prior_scale;
	if (fs->prior_dof > 0)
		p.dof = fs->prior_dof;
	if (fs->prior_bias_weight > 0)
		p.bias_weight = fs->prior_bias_weight;
	if (fs->prior_noise_weight >= 0)
		p.noise_weight = fs->prior_noise_weight;
	if (fs->prior_agreed_scale > 0)
		p.agreed_scale = fs->prior_agreed_scale;
	if (fs->prior_disagreement_weight >= 0)
		p.disagreement_weight = fs->prior_disagreement_weight;
	if (fs->prior_hardware_scale > 0)
		p.hardware_scale = fs->prior_hardware_scale;
	return p;
}

int
sf_interval_calibrate(const sf_model *m, const sf_dataset *d,
                      const sf_formula *f, const sf_fit_options *o,
                      const sf_fit_result *r, const sf_stats *s,
                      const sf_interval_prior *prior, sf_interval_model *out,
                      sf_error *err)
{
	sf_fit_options co = *o;
	chain_work w = {0};
	chain c = {0};
	size_t most = 0, top = SIZE_MAX, *levels = NULL;
	double noise_part; /* r sigma, the prior's scale's noise part */
	int rc = SF_OK;

	memset(out, 0, sizeof *out);
	out->prior = prior != NULL ? *prior : prior_of_file(&m->fit);
	out->disagreement =
	    m->fit.prior_disagreement >= 0 ? m->fit.prior_disagreement : NAN;
	out->regime_prior =
	    m->fit.prior_regime >= 0 ? m->fit.prior_regime : NAN;
	/* Relative errors for the losses whose errors are (solve/loss.h). */
	out->multiplicative = sf_loss_get(r->settings.loss)->multiplicative;
	if (s->dof < 1 || !isfinite(s->t95))
		return sf_error_set(err, SF_EVALUE,
		                    "no residual degrees of freedom: a "
		                    "prediction interval needs more rows than "
		                    "fitted constants");
	noise_of(out, d, s);
	noise_part = out->prior.noise_weight * noise_share(out, d);
	out->prior_scale = prior_scale_at(out, noise_part);
	out->hardware = hardware_input(m, d);
	out->hardware_prior_scale =
	    out->hardware != SIZE_MAX ? hardware_scale_at(out, noise_part) : 0;
	out->ninputs = d->ninputs;
	if (chain_work_alloc(&w, d) != SF_OK ||
	    (levels = calloc(d->ninputs + 1, sizeof *levels)) == NULL) {
		rc = sf_error_set(err, SF_ENOMEM, "out of memory");
		goto done;
	}
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
	for (size_t j = 0; j < d->ninputs && rc == SF_OK; j++) {
		size_t L = 0;

		if (!w.numeric[j])
			continue;
		rc = chain_input(m, d, f, &co, out->multiplicative, j, &w, &c,
		                 &L, err);
		levels[j] = L;
		if (L > most) {
			most = L;
			top = j;
		}
	}
	if (rc != SF_OK)
		goto done;
	out->chain_fits = c.fits;
	out->chain_points = c.points;
	out->chain_cuts = c.n;
	averaging_weight(out, &c, noise_share(out, d), w.numeric, levels);
	error_model(out, &c, w.numeric, top);
	top_noise(out, d, s, w.numeric);
	rc = check_pace(out, f, d, r->theta, &w, err);
	for (size_t i = 0; i < c.n && i < SF_INTERVAL_CUTS_KEPT; i++) {
		const cut *k = &c.cuts[i];
		sf_interval_cut x = {k->input, k->upto,
		                     k->below, k->slope,
		                     k->reach, noise_var(k, out->sigma)};

		out->cuts[i] = x;
	}
done:
	free(c.cuts);
	free(levels);
	chain_work_free(&w);
	return rc;
}

int
sf_interval_rows(const sf_interval_model *im, const sf_formula *f,
                 const sf_dataset *fitted, const sf_dataset *d,
                 const double *theta, const double *cov, double *lo, double *hi,
                 double *distance, sf_interval_t *shape, sf_error *err)
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
		sf_interval_beyond b;

		for (size_t j = 0; j < J; j++)
			x[j] = d->inputs[j].values[i];
		b = sf_interval_beyond_at(im, J, rlo, rhi, numeric, x);
		if (distance != NULL)
			distance[i] = sqrt(b.distance2);
		if (shape != NULL)
			sf_interval_shape(im, pred[i], var[i], &b, &shape[i]);
		sf_interval_at(im, pred[i], var[i], &b, &lo[i], &hi[i]);
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
