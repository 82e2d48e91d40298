/*
 * resample.c - bootstrap replicates and restarts.
 */
#include "fit/resample.h"
#include "base/rng.h"
#include "base/sort.h"
#include "base/units.h"
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
		qsort(v, n, sizeof *v, sf_sort_compare_doubles);
		r->low[j] = sf_sort_quantile(v, n, 0.025);
		r->high[j] = sf_sort_quantile(v, n, 0.975);
		r->median[j] = sf_sort_quantile(v, n, 0.5);
		for (size_t i = 0; i < n; i++)
			mean += v[i] / (double)n;
		for (size_t i = 0; i < n; i++)
			ss += (v[i] - mean) * (v[i] - mean);
		r->sd[j] = n > 1 ? sqrt(ss / (double)(n - 1)) : 0;
	}
	free(v);
	return SF_OK;
}

/*
 * A replicate's or restart's outcome as it travels between ranks
 * (base/units.h): 3 + P doubles - 1 when it fitted (else 0), its cost,
 * its evaluations, then its constants.  Doubles are copied as bytes, so
 * they arrive exact.
 */
static int
pack_outcome(const sf_fit_result *x, int fitted, size_t P, char **out,
             size_t *size, sf_error *err)
{
	double *v = malloc((3 + P) * sizeof *v);

	if (v == NULL)
		return sf_error_set(err, SF_ENOMEM, "out of memory");
	v[0] = fitted;
	v[1] = fitted ? x->cost : NAN;
	v[2] = x != NULL ? (double)x->evaluations : 0;
	for (size_t j = 0; j < P; j++)
		v[3 + j] = fitted ? x->theta[j] : NAN;
	*out = (char *)v;
	*size = (3 + P) * sizeof *v;
	return SF_OK;
}

/* Unpack outcome k (bytes of pack_outcome) into r. */
static void
unpack_outcome(sf_resample *r, size_t k, const char *bytes)
{
	double v[3];

	memcpy(v, bytes, sizeof v);
	for (size_t j = 0; j < r->nparams; j++)
		memcpy(&r->samples[k * r->nparams + j],
		       bytes + (3 + j) * sizeof(double), sizeof(double));
	r->costs[k] = v[1];
	r->failed += v[0] == 0;
	r->evaluations += (size_t)v[2];
}

/* What every bootstrap replicate shares. */
typedef struct bootstrap_ctx {
	const sf_model *m;
	const sf_dataset *d;
	const sf_formula *f;
	const sf_fit_options *o; /* warm-started at the full fit */
	uint64_t seed;
	size_t **members; /* the rows of each configuration */
} bootstrap_ctx;

/* Replicate b: draw configurations with replacement and refit. */
static int
bootstrap_unit(void *ctx, size_t b, char **out, size_t *size, sf_error *err)
{
	const bootstrap_ctx *c = ctx;
	const sf_dataset *d = c->d;
	const size_t C = d->nconfigs;
	size_t nrows = 0, cap = d->rows * 2 + 1;
	size_t *rows = malloc(cap * sizeof *rows);
	sf_dataset *sub = NULL;
	sf_fit_result *x = NULL;
	sf_error rep_err;
	sf_rng rng;
	int rc;

	if (rows == NULL)
		return sf_error_set(err, SF_ENOMEM, "out of memory");
	sf_rng_seed(&rng, c->seed, bootstrap_stream + b);
	for (size_t k = 0; k < C; k++) {
		size_t cfg = sf_rng_bounded(&rng, (uint32_t)C);
		for (size_t i = 0; i < d->configs[cfg].count; i++) {
			if (nrows == cap) {
				size_t *more =
				    realloc(rows, 2 * cap * sizeof *rows);
				if (more == NULL) {
					free(rows);
					return sf_error_set(err, SF_ENOMEM,
					                    "out of memory");
				}
				rows = more;
				cap *= 2;
			}
			rows[nrows++] = c->members[cfg][i];
		}
	}
	rc = sf_dataset_select(d, rows, nrows, &sub, err);
	free(rows);
	if (rc != SF_OK)
		return rc;
	rc = sf_tune_fit(c->m, sub, c->f, c->o, &x, &rep_err);
	sf_dataset_free(sub);
	if (rc == SF_ENOMEM) {
		sf_fit_result_free(x);
		*err = rep_err;
		return rc;
	}
	rc = pack_outcome(x, rc == SF_OK, c->f->nparams, out, size, err);
	sf_fit_result_free(x);
	return rc;
}

int
sf_bootstrap_run(const sf_model *m, const sf_dataset *d, const sf_formula *f,
                 const sf_fit_options *o, const sf_fit_result *full, size_t n,
                 sf_resample **out, sf_error *err)
{
	const size_t P = f->nparams, C = d->nconfigs;
	sf_resample *r = resample_alloc(n, P);
	char **results = calloc(n + 1, sizeof *results);
	size_t *sizes = calloc(n + 1, sizeof *sizes);
	size_t **members = NULL;
	sf_fit_options ro = *o;
	bootstrap_ctx c;
	int rc = SF_OK;

	*out = NULL;
	ro.warm_start = full->theta;
	ro.progress = NULL;
	if (r == NULL || results == NULL || sizes == NULL)
		goto oom;
	/* The rows of each configuration, for drawing whole ones. */
	if ((members = calloc(C + 1, sizeof *members)) == NULL)
		goto oom;
	for (size_t k = 0; k < C; k++) {
		members[k] = malloc(d->configs[k].count * sizeof **members);
		if (members[k] == NULL)
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
	/* The replicates are the units of work (over an MPI job's ranks). */
	c = (bootstrap_ctx){m, d, f, &ro, full->settings.seed, members};
	if ((rc = sf_units_run(n, bootstrap_unit, &c, results, sizes, err)) !=
	    SF_OK)
		goto done;
	for (size_t b = 0; b < n; b++)
		unpack_outcome(r, b, results[b]);
	if (summarise(r) != SF_OK)
		goto oom;
	*out = r;
	r = NULL;
	goto done;
oom:
	rc = sf_error_set(err, SF_ENOMEM, "out of memory");
done:
	if (members != NULL)
		for (size_t k = 0; k < C; k++)
			free(members[k]);
	free(members);
	for (size_t b = 0; results != NULL && b < n; b++)
		free(results[b]);
	free(results);
	free(sizes);
	sf_resample_free(r);
	return rc;
}

/* What every restart shares; fits keeps the ones this process ran. */
typedef struct restarts_ctx {
	const sf_model *m;
	const sf_dataset *d;
	const sf_formula *f;
	const sf_fit_options *o;
	uint64_t seed;
	sf_fit_result **fits;
} restarts_ctx;

/* Restart i: a whole fit from seed + i. */
static int
restart_unit(void *ctx, size_t i, char **out, size_t *size, sf_error *err)
{
	const restarts_ctx *c = ctx;
	sf_fit_options ro = *c->o;
	sf_fit_result *x = NULL;
	sf_error fit_err;
	int rc;

	ro.has_seed = 1;
	ro.seed = c->seed + i;
	rc = sf_tune_fit(c->m, c->d, c->f, &ro, &x, &fit_err);
	if (rc == SF_ENOMEM) {
		sf_fit_result_free(x);
		*err = fit_err;
		return rc;
	}
	if (pack_outcome(x, rc == SF_OK, c->f->nparams, out, size, err) !=
	    SF_OK) {
		sf_fit_result_free(x);
		return SF_ENOMEM;
	}
	if (rc == SF_OK)
		c->fits[i] = x;
	else
		sf_fit_result_free(x);
	return SF_OK;
}

int
sf_restarts_run(const sf_model *m, const sf_dataset *d, const sf_formula *f,
                const sf_fit_options *o, size_t k, sf_fit_result **best,
                sf_resample **out, sf_error *err)
{
	sf_resample *r = resample_alloc(k, f->nparams);
	sf_fit_result **fits = calloc(k + 1, sizeof *fits);
	char **results = calloc(k + 1, sizeof *results);
	size_t *sizes = calloc(k + 1, sizeof *sizes);
	uint64_t seed = sf_fit_settings_effective(m, o).seed;
	restarts_ctx c = {m, d, f, o, seed, fits};
	size_t chosen = SIZE_MAX;
	int rc = SF_OK;

	*best = NULL;
	*out = NULL;
	if (r == NULL || fits == NULL || results == NULL || sizes == NULL) {
		rc = sf_error_set(err, SF_ENOMEM, "out of memory");
		goto done;
	}
	r->evaluations = 0;
	if ((rc = sf_units_run(k, restart_unit, &c, results, sizes, err)) !=
	    SF_OK)
		goto done;
	/* The lowest cost wins; the first of equal ones. */
	for (size_t i = 0; i < k; i++) {
		unpack_outcome(r, i, results[i]);
		if (!isnan(r->costs[i]) &&
		    (chosen == SIZE_MAX || r->costs[i] < r->costs[chosen]))
			chosen = i;
	}
	if (chosen == SIZE_MAX) {
		rc = sf_error_set(err, SF_EFAIL,
		                  "none of the %zu restarts found a finite "
		                  "cost",
		                  k);
		goto done;
	}
	if (fits[chosen] != NULL) {
		*best = fits[chosen];
		fits[chosen] = NULL;
	} else {
		/* Another rank ran it: the same seed fits the same bytes. */
		sf_fit_options ro = *o;
		ro.has_seed = 1;
		ro.seed = seed + chosen;
		if ((rc = sf_tune_fit(m, d, f, &ro, best, err)) != SF_OK)
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
	for (size_t i = 0; i < k; i++) {
		if (fits != NULL)
			sf_fit_result_free(fits[i]);
		if (results != NULL)
			free(results[i]);
	}
	free(fits);
	free(results);
	free(sizes);
	sf_resample_free(r);
	return rc;
}
