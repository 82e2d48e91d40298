/*
 * validate.c - folds, the fits without each fold, and their scores.
 */
#include "fit/validate.h"
#include "base/units.h"
#include "fit/cost.h"
#include "fit/interval.h"
#include "fit/stats.h"
#include "base/rng.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The stream of the fold shuffle, apart from every other use of a seed. */
static const uint64_t fold_stream = 0x666f6c64; /* "fold" */

void
sf_holdout_free(sf_holdout *h)
{
	if (h == NULL)
		return;
	free(h->fold);
	free(h->predicted);
	free(h->lo95);
	free(h->hi95);
	free(h->distance);
	free(h->shape);
	free(h);
}

int
sf_predict_rows(const sf_formula *f, const sf_dataset *d, const double *theta,
                double *predicted, sf_error *err)
{
	sf_cost_settings cs = {SF_LOSS_SSE, 1, SF_PENALTY_NONE, 0, 1, 0};
	sf_cost *c = sf_cost_alloc(f, d, NULL, &cs, err);

	if (c == NULL)
		return err != NULL ? err->code : SF_ENOMEM;
	sf_cost_predict(c, theta, predicted);
	sf_cost_free(c);
	return SF_OK;
}

int
sf_folds_split(const sf_formula *f, const sf_dataset *d, const char *expr,
               int *fold, sf_error *err)
{
	const double **columns = malloc((d->ninputs + 1) * sizeof *columns);
	double *keep = malloc(d->rows * sizeof *keep);
	size_t train = 0;
	sf_error first;
	int rc;

	if (columns == NULL || keep == NULL) {
		rc = sf_error_set(err, SF_ENOMEM, "out of memory");
		goto done;
	}
	for (size_t i = 0; i < d->ninputs; i++)
		columns[i] = d->inputs[i].values;
	sf_error_clear(&first);
	rc = sf_expr_eval_columns(f->scope, expr, columns, d->rows, keep,
	                          &first);
	/* not an input: a column of the data file ('workers <= 8') */
	if (rc == SF_ENAME && d->ncolumns > 0 &&
	    strncmp(first.message, "unknown name", 12) == 0)
		rc = sf_dataset_eval(d, expr, keep, err);
	else if (rc != SF_OK && err != NULL)
		*err = first;
	if (rc != SF_OK)
		goto done;
	for (size_t r = 0; r < d->rows; r++) {
		/* NaN (an undefined comparison) is not "true": predict it */
		fold[r] = keep[r] != 0 && !isnan(keep[r]) ? SF_FOLD_TRAIN : 0;
		train += fold[r] == SF_FOLD_TRAIN;
	}
	if (train == 0 || train == d->rows)
		rc =
		    sf_error_set(err, SF_EVALUE,
		                 "--train '%.200s' selects %s of the %zu rows: "
		                 "nothing %s",
		                 expr, train == 0 ? "none" : "all", d->rows,
		                 train == 0 ? "to fit on" : "left to predict");
done:
	free(columns);
	free(keep);
	return rc;
}

int
sf_folds_make(const sf_model *m, const sf_formula *f, const sf_dataset *d,
              const sf_fit_options *o, const char *train, size_t k, int *fold,
              size_t *nfolds, sf_error *err)
{
	int rc;

	*nfolds = 0;
	if (train != NULL) {
		if ((rc = sf_folds_split(f, d, train, fold, err)) != SF_OK) {
			/* the column is within the condition's text */
			if (err != NULL && err->file[0] == '\0' &&
			    err->column > 0)
				snprintf(err->file, sizeof err->file,
				         "--train");
			return rc;
		}
		*nfolds = 1;
		return SF_OK;
	}
	*nfolds =
	    sf_folds_kfold(d, k, sf_fit_settings_effective(m, o).seed, fold);
	if (*nfolds == 0)
		return sf_error_set(err, SF_EUSAGE,
		                    "cross-validation needs at least 2 "
		                    "configurations; the data has %zu",
		                    d->nconfigs);
	return SF_OK;
}

size_t
sf_folds_kfold(const sf_dataset *d, size_t k, uint64_t seed, int *fold)
{
	size_t n = d->nconfigs, *order;
	sf_rng rng;

	if (n < 2)
		return 0;
	if (k == 0 || k > n)
		k = n;
	if ((order = malloc(n * sizeof *order)) == NULL)
		return 0;
	for (size_t c = 0; c < n; c++)
		order[c] = c;
	/* Fisher-Yates with unbiased draws; then deal round-robin, so fold
	 * sizes differ by at most one configuration. */
	sf_rng_seed(&rng, seed, fold_stream);
	for (size_t c = n - 1; c > 0; c--) {
		size_t j = sf_rng_bounded(&rng, (uint32_t)(c + 1));
		size_t t = order[c];
		order[c] = order[j];
		order[j] = t;
	}
	{
		int *config_fold = malloc(n * sizeof *config_fold);
		if (config_fold == NULL) {
			free(order);
			return 0;
		}
		for (size_t c = 0; c < n; c++)
			config_fold[order[c]] = (int)(c % k);
		for (size_t r = 0; r < d->rows; r++)
			fold[r] = config_fold[d->config[r]];
		free(config_fold);
	}
	free(order);
	return k;
}

/*
 * The prediction intervals of fold k's rows from fit r of the training
 * rows sub (and, when h holds shapes, their distributions): none (NaN)
 * when the fit has no statistics or no residual degrees of freedom.
 */
static int
fold_intervals(const sf_model *m, const sf_dataset *d, const sf_dataset *sub,
               const sf_formula *f, const sf_fit_options *o,
               const sf_fit_result *r, int k, sf_holdout *h, sf_error *err)
{
	sf_stats *s = NULL;
	sf_interval_model im;
	double *lo = NULL, *hi = NULL, *dist = NULL;
	sf_interval_t *shape = NULL;
	sf_error quiet;
	int rc;

	rc = sf_stats_compute(f, sub, r, &s, &quiet);
	if (rc == SF_OK)
		rc = sf_interval_calibrate(m, sub, f, o, r, s, NULL, &im,
		                           &quiet);
	if (rc != SF_OK) {
		sf_stats_free(s);
		if (rc == SF_ENOMEM && err != NULL)
			*err = quiet;
		return rc == SF_ENOMEM ? rc : SF_OK;
	}
	lo = malloc((d->rows + 1) * sizeof *lo);
	hi = malloc((d->rows + 1) * sizeof *hi);
	dist = malloc((d->rows + 1) * sizeof *dist);
	if (h->shape != NULL)
		shape = malloc((d->rows + 1) * sizeof *shape);
	if (lo == NULL || hi == NULL || dist == NULL ||
	    (h->shape != NULL && shape == NULL))
		rc = sf_error_set(err, SF_ENOMEM, "out of memory");
	else
		rc = sf_interval_rows(&im, f, sub, d, r->theta, s->cov, lo, hi,
		                      dist, shape, err);
	for (size_t i = 0; rc == SF_OK && i < d->rows; i++)
		if (h->fold[i] == k) {
			h->lo95[i] = lo[i];
			h->hi95[i] = hi[i];
			h->distance[i] = dist[i];
			if (shape != NULL)
				h->shape[i] = shape[i];
		}
	free(lo);
	free(hi);
	free(dist);
	free(shape);
	sf_stats_free(s);
	return rc;
}

/* Fit the rows outside fold k (its training rows) and predict fold k. */
static int
run_fold(const sf_model *m, const sf_dataset *d, const sf_formula *f,
         const sf_fit_options *o, sf_fit_fn *fit, int k, sf_holdout *h,
         sf_error *err)
{
	size_t *train = malloc(d->rows * sizeof *train), ntrain = 0;
	sf_dataset *sub = NULL;
	sf_fit_result *r = NULL;
	double *pred = NULL;
	sf_error fold_err;
	int rc;

	if (train == NULL)
		return sf_error_set(err, SF_ENOMEM, "out of memory");
	for (size_t i = 0; i < d->rows; i++)
		if (h->fold[i] != k)
			train[ntrain++] = i;
	rc = sf_dataset_select(d, train, ntrain, &sub, err);
	if (rc != SF_OK)
		goto done;
	rc = fit(m, sub, f, o, &r, &fold_err);
	if (r != NULL)
		h->evaluations += r->evaluations;
	if (rc == SF_ENOMEM) {
		*err = fold_err;
		goto done;
	}
	if (rc != SF_OK) {
		h->failed_folds++;
		rc = SF_OK;
		goto done;
	}
	if ((pred = malloc(d->rows * sizeof *pred)) == NULL) {
		rc = sf_error_set(err, SF_ENOMEM, "out of memory");
		goto done;
	}
	if ((rc = sf_predict_rows(f, d, r->theta, pred, err)) != SF_OK)
		goto done;
	for (size_t i = 0; i < d->rows; i++)
		if (h->fold[i] == k)
			h->predicted[i] = pred[i];
	if (h->lo95 != NULL)
		rc = fold_intervals(m, d, sub, f, o, r, k, h, err);
done:
	free(pred);
	free(train);
	sf_fit_result_free(r);
	sf_dataset_free(sub);
	return rc;
}

/* What every fold shares. */
typedef struct fold_ctx {
	const sf_model *m;
	const sf_dataset *d;
	const sf_formula *f;
	const sf_fit_options *o;
	sf_fit_fn *fit;
	const sf_holdout *h; /* its folds, and which per-row arrays it has */
} fold_ctx;

/* The per-row numbers a holdout holds: the prediction, then with
 * intervals lo95, hi95, distance, then with shapes centre, scale, dof,
 * shift. */
static size_t
channels(const sf_holdout *h)
{
	return h->shape != NULL ? 8 : h->lo95 != NULL ? 4 : 1;
}

/* The address of row i's channel q in h. */
static double *
channel(sf_holdout *h, size_t q, size_t i)
{
	switch (q) {
	case 0:
		return &h->predicted[i];
	case 1:
		return &h->lo95[i];
	case 2:
		return &h->hi95[i];
	case 3:
		return &h->distance[i];
	case 4:
		return &h->shape[i].centre;
	case 5:
		return &h->shape[i].scale;
	case 6:
		return &h->shape[i].dof;
	default:
		return &h->shape[i].shift;
	}
}

/* Allocate h's per-row arrays for n rows and what flags ask for, every
 * number NaN; SF_OK or SF_ENOMEM. */
static int
holdout_arrays(sf_holdout *h, size_t n, unsigned flags)
{
	if (flags & SF_HOLDOUT_SHAPES)
		flags |= SF_HOLDOUT_INTERVALS;
	h->predicted = malloc((n + 1) * sizeof *h->predicted);
	h->lo95 = h->hi95 = h->distance = NULL;
	h->shape = NULL;
	if (flags & SF_HOLDOUT_INTERVALS) {
		h->lo95 = malloc((n + 1) * sizeof *h->lo95);
		h->hi95 = malloc((n + 1) * sizeof *h->hi95);
		h->distance = malloc((n + 1) * sizeof *h->distance);
	}
	if (flags & SF_HOLDOUT_SHAPES)
		h->shape = malloc((n + 1) * sizeof *h->shape);
	if (h->predicted == NULL ||
	    ((flags & SF_HOLDOUT_INTERVALS) &&
	     (h->lo95 == NULL || h->hi95 == NULL || h->distance == NULL)) ||
	    ((flags & SF_HOLDOUT_SHAPES) && h->shape == NULL))
		return SF_ENOMEM;
	for (size_t i = 0; i < n; i++)
		for (size_t q = 0; q < channels(h); q++)
			*channel(h, q, i) = NAN;
	return SF_OK;
}

/* The flags that made h. */
static unsigned
holdout_flags(const sf_holdout *h)
{
	return (h->lo95 != NULL ? SF_HOLDOUT_INTERVALS : 0u) |
	       (h->shape != NULL ? SF_HOLDOUT_SHAPES : 0u);
}

/*
 * Fold k as a unit of work (base/units.h): run it into a holdout of its
 * own and pack what it found as doubles - failed folds, evaluations, then
 * for each row of the fold in order its channels.
 */
static int
fold_unit(void *ctx, size_t k, char **out, size_t *size, sf_error *err)
{
	const fold_ctx *c = ctx;
	const size_t n = c->d->rows, per = channels(c->h);
	sf_holdout t = *c->h;
	double *v = NULL;
	size_t used = 2;
	int rc;

	v = malloc((2 + per * n) * sizeof *v);
	if (holdout_arrays(&t, n, holdout_flags(c->h)) != SF_OK || v == NULL) {
		rc = sf_error_set(err, SF_ENOMEM, "out of memory");
		goto done;
	}
	t.evaluations = t.failed_folds = 0;
	if ((rc = run_fold(c->m, c->d, c->f, c->o, c->fit, (int)k, &t, err)) !=
	    SF_OK)
		goto done;
	v[0] = (double)t.failed_folds;
	v[1] = (double)t.evaluations;
	for (size_t i = 0; i < n; i++)
		if (t.fold[i] == (int)k)
			for (size_t q = 0; q < per; q++)
				v[used++] = *channel(&t, q, i);
	*out = (char *)v;
	*size = used * sizeof *v;
	v = NULL;
done:
	free(v);
	free(t.predicted);
	free(t.lo95);
	free(t.hi95);
	free(t.distance);
	free(t.shape);
	return rc;
}

/* Fold k's packed outcome (fold_unit) into h. */
static void
unpack_fold(sf_holdout *h, int k, const char *bytes)
{
	const size_t per = channels(h);
	size_t used = 2;
	double v[2];

	memcpy(v, bytes, sizeof v);
	h->failed_folds += (size_t)v[0];
	h->evaluations += (size_t)v[1];
	for (size_t i = 0; i < h->rows; i++)
		if (h->fold[i] == k)
			for (size_t q = 0; q < per; q++)
				memcpy(channel(h, q, i),
				       bytes + used++ * sizeof(double),
				       sizeof(double));
}

int
sf_holdout_run(const sf_model *m, const sf_dataset *d, const sf_formula *f,
               const sf_fit_options *o, sf_fit_fn *fit, const int *fold,
               size_t nfolds, unsigned flags, sf_holdout **out, sf_error *err)
{
	sf_holdout *h = calloc(1, sizeof *h);
	int rc = SF_OK;

	*out = NULL;
	if (h == NULL ||
	    (h->fold = malloc((d->rows + 1) * sizeof *h->fold)) == NULL ||
	    holdout_arrays(h, d->rows, flags) != SF_OK) {
		sf_holdout_free(h);
		return sf_error_set(err, SF_ENOMEM, "out of memory");
	}
	h->rows = d->rows;
	h->nfolds = nfolds;
	memcpy(h->fold, fold, d->rows * sizeof *fold);
	/* The folds are the units of work (over an MPI job's ranks). */
	{
		fold_ctx c = {m, d, f, o, fit, h};
		char **results = calloc(nfolds + 1, sizeof *results);
		size_t *sizes = calloc(nfolds + 1, sizeof *sizes);

		if (results == NULL || sizes == NULL)
			rc = sf_error_set(err, SF_ENOMEM, "out of memory");
		else
			rc = sf_units_run(nfolds, fold_unit, &c, results, sizes,
			                  err);
		for (size_t k = 0; rc == SF_OK && k < nfolds; k++)
			unpack_fold(h, (int)k, results[k]);
		for (size_t k = 0; results != NULL && k < nfolds; k++)
			free(results[k]);
		free(results);
		free(sizes);
	}
	if (rc != SF_OK) {
		sf_holdout_free(h);
		return rc;
	}
	sf_holdout_score_all(h, d);
	*out = h;
	return SF_OK;
}

void
sf_holdout_score_all(sf_holdout *h, const sf_dataset *d)
{
	sf_holdout_scores all;

	sf_holdout_score(h, d, NULL, &all);
	h->predicted_rows = all.count;
	h->mape = all.mape;
	h->max_ape = all.max_ape;
	h->bias = all.bias;
	h->interval_rows = all.interval_rows;
	h->coverage95 = all.coverage95;
	h->mean_halfwidth_pct = all.mean_halfwidth_pct;
	h->interval_score = all.interval_score;
}

void
sf_scores_rows(size_t n, sf_score_row_fn row, const void *ctx,
               sf_holdout_scores *out)
{
	const double alpha = 1 - SF_INTERVAL_LEVEL;
	double sum_abs = 0, sum = 0, max = 0;
	double covered = 0, half = 0, winkler = 0;
	size_t count = 0, ni = 0;

	for (size_t i = 0; i < n; i++) {
		double e, y, f, lo, hi, w;

		if (!row(ctx, i, &y, &f, &lo, &hi))
			continue;
		e = (f - y) / y;
		sum_abs += fabs(e);
		sum += e;
		max = fabs(e) > max ? fabs(e) : max;
		count++;
		if (isnan(lo) || isnan(hi))
			continue;
		covered += lo <= y && y <= hi;
		half += (hi - lo) / (2 * fabs(f));
		w = hi - lo;
		if (y < lo)
			w += 2 / alpha * (lo - y);
		else if (y > hi)
			w += 2 / alpha * (y - hi);
		winkler += w / fabs(y);
		ni++;
	}
	out->count = count;
	out->mape = count > 0 ? 100 * sum_abs / (double)count : NAN;
	out->bias = count > 0 ? 100 * sum / (double)count : NAN;
	out->max_ape = count > 0 ? 100 * max : NAN;
	out->interval_rows = ni;
	out->coverage95 = ni > 0 ? 100 * covered / (double)ni : NAN;
	out->mean_halfwidth_pct = ni > 0 ? 100 * half / (double)ni : NAN;
	out->interval_score = ni > 0 ? 100 * winkler / (double)ni : NAN;
}

/* sf_holdout_score()'s rows. */
typedef struct holdout_rows {
	const sf_holdout *h;
	const sf_dataset *d;
	const unsigned char *mask;
} holdout_rows;

/* Row i of a holdout: an sf_score_row_fn. */
static int
holdout_row(const void *ctx, size_t i, double *y, double *f, double *lo,
            double *hi)
{
	const holdout_rows *r = ctx;
	const sf_holdout *h = r->h;

	if (h->fold[i] == SF_FOLD_TRAIN || isnan(h->predicted[i]) ||
	    (r->mask != NULL && !r->mask[i]))
		return 0;
	*y = r->d->output[i];
	*f = h->predicted[i];
	*lo = h->lo95 != NULL ? h->lo95[i] : NAN;
	*hi = h->lo95 != NULL ? h->hi95[i] : NAN;
	return 1;
}

void
sf_holdout_score(const sf_holdout *h, const sf_dataset *d,
                 const unsigned char *mask, sf_holdout_scores *out)
{
	holdout_rows r = {h, d, mask};

	sf_scores_rows(h->rows, holdout_row, &r, out);
}

size_t
sf_holdout_levels(const sf_holdout *h, const sf_dataset *d, size_t i,
                  double *values)
{
	size_t n = 0;

	for (size_t r = 0; r < d->rows; r++) {
		double v = d->inputs[i].values[r];
		size_t k = 0;

		if (h->fold[r] == SF_FOLD_TRAIN || isnan(h->predicted[r]))
			continue;
		while (k < n && values[k] < v)
			k++;
		if (k < n && values[k] == v)
			continue;
		if (n == SF_HOLDOUT_LEVELS_MAX)
			return 0;
		memmove(values + k + 1, values + k, (n - k) * sizeof *values);
		values[k] = v;
		n++;
	}
	return n;
}

int
sf_holdout_score_level(const sf_holdout *h, const sf_dataset *d, size_t i,
                       double value, sf_holdout_scores *out, sf_error *err)
{
	unsigned char *mask = malloc(d->rows + 1);

	if (mask == NULL) {
		memset(out, 0, sizeof *out);
		return sf_error_set(err, SF_ENOMEM, "out of memory");
	}
	for (size_t r = 0; r < d->rows; r++)
		mask[r] = d->inputs[i].values[r] == value;
	sf_holdout_score(h, d, mask, out);
	free(mask);
	return SF_OK;
}

int
sf_holdout_extrapolated(const sf_holdout *h, const sf_dataset *d, size_t i)
{
	const double *x = d->inputs[i].values;
	double lo = INFINITY, hi = -INFINITY;
	size_t out = 0;

	if (d->inputs[i].levels != NULL)
		return 0;
	for (size_t r = 0; r < d->rows; r++)
		if (h->fold[r] == SF_FOLD_TRAIN) {
			lo = fmin(lo, x[r]);
			hi = fmax(hi, x[r]);
		}
	if (lo > hi)
		return 0; /* no training row */
	for (size_t r = 0; r < d->rows; r++) {
		if (h->fold[r] == SF_FOLD_TRAIN)
			continue;
		if (!(x[r] < lo || x[r] > hi))
			return 0;
		out++;
	}
	return out > 0;
}

size_t
sf_holdout_band(double distance)
{
	if (isnan(distance))
		return SF_HOLDOUT_BANDS;
	if (!(distance > 0))
		return 0;
	return distance <= 1 ? 1 : distance <= 2 ? 2 : 3;
}

const char *
sf_holdout_band_name(size_t band)
{
	static const char *const names[SF_HOLDOUT_BANDS] = {"within", "<= 1",
	                                                    "<= 2", "> 2"};

	return band < SF_HOLDOUT_BANDS ? names[band] : "";
}

int
sf_holdout_score_bands(const sf_holdout *h, const sf_dataset *d,
                       sf_holdout_scores *out, sf_error *err)
{
	unsigned char *mask = malloc(h->rows + 1);

	if (mask == NULL)
		return sf_error_set(err, SF_ENOMEM, "out of memory");
	for (size_t b = 0; b < SF_HOLDOUT_BANDS; b++) {
		memset(&out[b], 0, sizeof out[b]);
		if (h->distance == NULL)
			continue;
		for (size_t i = 0; i < h->rows; i++)
			mask[i] = sf_holdout_band(h->distance[i]) == b;
		sf_holdout_score(h, d, mask, &out[b]);
	}
	free(mask);
	return SF_OK;
}
