/*
 * resample.c - bootstrap replicates and restarts.
 */
#include "fit/resample.h"
#include "base/rng.h"
#include "fit/tune.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* The streams of bootstrap draws: replicate b uses stream base + b. */
static const uint64_t bootstrap_stream = 0x626f6f74; /* "boot" */

void
sf_resample_free(sf_resample *r)
{
	if (r == NULL)
		return;
	free(r->samples);
	free(r->costs);
	free(r->low);
	free(r->high);
	free(r->median);
	free(r->sd);
	free(r);
}

static sf_resample *
resample_alloc(size_t count, size_t P)
{
	sf_resample *r = calloc(1, sizeof *r);

	if (r == NULL)
		return NULL;
	r->count = count;
	r->nparams = P;
	r->samples = malloc((count * P + 1) * sizeof *r->samples);
	r->costs = malloc((count + 1) * sizeof *r->costs);
	r->low = malloc((P + 1) * sizeof *r->low);
	r->high = malloc((P + 1) * sizeof *r->high);
	r->median = malloc((P + 1) * sizeof *r->median);
	r->sd = malloc((P + 1) * sizeof *r->sd);
	if (r->samples == NULL || r->costs == NULL || r->low == NULL ||
	    r->high == NULL || r->median == NULL || r->sd == NULL) {
		sf_resample_free(r);
		return NULL;
	}
	return r;
}

static int
compare_doubles(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* The q-quantile of sorted x[0..n-1], interpolating between order
 * statistics (type 7, as numpy's and R's default). */
static double
quantile(const double *x, size_t n, double q)
{
	double h = q * (double)(n - 1);
	size_t i = (size_t)h;

	if (i + 1 >= n)
		return x[n - 1];
	return x[i] + (h - (double)i) * (x[i + 1] - x[i]);
}

/* Percentiles, median and standard deviation of each parameter. */
static int
summarise(sf_resample *r)
{
	double *v = malloc((r->count + 1) * sizeof *v);

	if (v == NULL)
		return SF_ENOMEM;
	for (size_t j = 0; j < r->nparams; j++) {
		size_t n = 0;
		double mean = 0, ss = 0;

		for (size_t b = 0; b < r->count; b++) {
			double x = r->samples[b * r->nparams + j];
			if (!isnan(x))
				v[n++] = x;
		}
		if (n == 0) {
			r->low[j] = r->high[j] = r->median[j] = r->sd[j] = NAN;
			continue;
		}
		qsort(v, n, sizeof *v, compare_doubles);
		r->low[j] = quantile(v, n, 0.025);
		r->high[j] = quantile(v, n, 0.975);
		r->median[j] = quantile(v, n, 0.5);
		for (size_t i = 0; i < n; i++)
			mean += v[i] / (double)n;
		for (size_t i = 0; i < n; i++)
			ss += (v[i] - mean) * (v[i] - mean);
		r->sd[j] = n > 1 ? sqrt(ss / (double)(n - 1)) : 0;
	}
	free(v);
	return SF_OK;
}

/* Keep fit result x as sample b of r. */
static void
record(sf_resample *r, size_t b, const sf_fit_result *x)
{
	for (size_t j = 0; j < r->nparams; j++)
		r->samples[b * r->nparams + j] = x != NULL ? x->theta[j] : NAN;
	r->costs[b] = x != NULL ? x->cost : NAN;
	r->failed += x == NULL;
}

int
sf_bootstrap_run(const sf_model *m, const sf_dataset *d, const sf_formula *f,
                 const sf_fit_options *o, const sf_fit_result *full, size_t n,
                 sf_resample **out, sf_error *err)
{
	const size_t P = f->nparams, C = d->nconfigs;
	sf_resample *r = resample_alloc(n, P);
	size_t *rows = malloc((d->rows * 2 + 1) * sizeof *rows);
	size_t **members = NULL;
	sf_fit_options ro = *o;
	int rc = SF_OK;

	*out = NULL;
	ro.warm_start = full->theta;
	ro.progress = NULL;
	if (r == NULL || rows == NULL)
		goto oom;
	/* The rows of each configuration, for drawing whole ones. */
	if ((members = calloc(C + 1, sizeof *members)) == NULL)
		goto oom;
	for (size_t c = 0; c < C; c++) {
		members[c] = malloc(d->configs[c].count * sizeof **members);
		if (members[c] == NULL)
			goto oom;
	}
	{
		size_t *fill = calloc(C + 1, sizeof *fill);
		if (fill == NULL)
			goto oom;
		for (size_t i = 0; i < d->rows; i++)
			members[d->config[i]][fill[d->config[i]]++] = i;
		free(fill);
	}
	for (size_t b = 0; b < n; b++) {
		sf_rng rng;
		size_t nrows = 0, cap = d->rows * 2;
		sf_dataset *sub = NULL;
		sf_fit_result *x = NULL;
		sf_error rep_err;

		sf_rng_seed(&rng, full->settings.seed, bootstrap_stream + b);
		for (size_t k = 0; k < C; k++) {
			size_t c = sf_rng_bounded(&rng, (uint32_t)C);
			for (size_t i = 0; i < d->configs[c].count; i++) {
				if (nrows == cap) {
					size_t *more = realloc(
					    rows, 2 * cap * sizeof *rows);
					if (more == NULL)
						goto oom;
					rows = more;
					cap *= 2;
				}
				rows[nrows++] = members[c][i];
			}
		}
		if ((rc = sf_dataset_select(d, rows, nrows, &sub, err)) !=
		    SF_OK)
			goto done;
		rc = sf_tune_fit(m, sub, f, &ro, &x, &rep_err);
		sf_dataset_free(sub);
		if (x != NULL)
			r->evaluations += x->evaluations;
		if (rc == SF_ENOMEM) {
			sf_fit_result_free(x);
			*err = rep_err;
			goto done;
		}
		record(r, b, rc == SF_OK ? x : NULL);
		sf_fit_result_free(x);
		rc = SF_OK;
	}
	if (summarise(r) != SF_OK)
		goto oom;
	*out = r;
	r = NULL;
	goto done;
oom:
	rc = sf_error_set(err, SF_ENOMEM, "out of memory");
done:
	if (members != NULL)
		for (size_t c = 0; c < C; c++)
			free(members[c]);
	free(members);
	free(rows);
	sf_resample_free(r);
	return rc;
}

int
sf_restarts_run(const sf_model *m, const sf_dataset *d, const sf_formula *f,
                const sf_fit_options *o, size_t k, sf_fit_result **best,
                sf_resample **out, sf_error *err)
{
	sf_resample *r = resample_alloc(k, f->nparams);
	sf_fit_options ro = *o;
	uint64_t seed = sf_fit_settings_effective(m, o).seed;
	int rc = SF_OK;

	*best = NULL;
	*out = NULL;
	if (r == NULL)
		return sf_error_set(err, SF_ENOMEM, "out of memory");
	ro.has_seed = 1;
	for (size_t i = 0; i < k; i++) {
		sf_fit_result *x = NULL;

		ro.seed = seed + i;
		rc = sf_tune_fit(m, d, f, &ro, &x, err);
		if (x != NULL)
			r->evaluations += x->evaluations;
		if (rc == SF_ENOMEM) {
			sf_fit_result_free(x);
			goto done;
		}
		record(r, i, rc == SF_OK ? x : NULL);
		if (rc == SF_OK && (*best == NULL || x->cost < (*best)->cost)) {
			sf_fit_result_free(*best);
			*best = x;
		} else {
			sf_fit_result_free(x);
		}
		rc = SF_OK;
	}
	if (*best == NULL) {
		rc = sf_error_set(err, SF_EFAIL,
		                  "none of the %zu restarts found a finite "
		                  "cost",
		                  k);
		goto done;
	}
	if (summarise(r) != SF_OK) {
		rc = sf_error_set(err, SF_ENOMEM, "out of memory");
		goto done;
	}
	*out = r;
	r = NULL;
done:
	if (rc != SF_OK) {
		sf_fit_result_free(*best);
		*best = NULL;
	}
	sf_resample_free(r);
	return rc;
}
