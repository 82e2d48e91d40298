/*
 * compare.c - fit candidate formulas on the same rows, score and rank them.
 */
#include "fit/compare.h"
#include "base/units.h"
#include "fit/stats.h"
#include "fit/tune.h"
#include "base/sha256.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char *
copy_text(const char *s)
{
	char *t;

	if (s == NULL)
		return NULL;
	if ((t = malloc(strlen(s) + 1)) != NULL)
		strcpy(t, s);
	return t;
}

sf_compare *
sf_compare_alloc(const sf_compare_settings *s)
{
	sf_compare *cmp = calloc(1, sizeof *cmp);

	if (cmp == NULL)
		return NULL;
	cmp->s = *s;
	cmp->s.options.progress = NULL;
	cmp->s.data_path = copy_text(s->data_path);
	cmp->s.train = copy_text(s->train);
	if ((s->data_path != NULL && cmp->s.data_path == NULL) ||
	    (s->train != NULL && cmp->s.train == NULL)) {
		sf_compare_free(cmp);
		return NULL;
	}
	return cmp;
}

void
sf_compare_free(sf_compare *cmp)
{
	if (cmp == NULL)
		return;
	for (size_t i = 0; i < cmp->n; i++) {
		if (cmp->c[i]->borrowed) {
			/* sf_compare_add_rows: its rows only are its own */
			sf_dataset_free(cmp->c[i]->problem.data);
			cmp->c[i]->problem.data = NULL;
			cmp->c[i]->problem.formula = NULL;
		}
		sf_problem_close(&cmp->c[i]->problem);
		free(cmp->c[i]->train_fold);
		free(cmp->c[i]->by_level);
		free(cmp->c[i]->label);
		free(cmp->c[i]);
	}
	free(cmp->c);
	free(cmp->order);
	free((char *)cmp->s.data_path);
	free((char *)cmp->s.train);
	free(cmp);
}

/* The SHA-256 of the rows d holds: the file's hash, then each kept
 * row's index in the table, as 8 little-endian bytes. */
static void
rows_hash(const sf_dataset *d, char hex[SF_SHA256_HEX_SIZE])
{
	unsigned char digest[SF_SHA256_SIZE], bytes[8];
	sf_sha256 ctx;

	sf_sha256_init(&ctx);
	sf_sha256_update(&ctx, d->sha256, strlen(d->sha256));
	for (size_t r = 0; r < d->rows; r++) {
		uint64_t row = d->table_row[r];

		for (int b = 0; b < 8; b++)
			bytes[b] = (unsigned char)(row >> (8 * b));
		sf_sha256_update(&ctx, bytes, sizeof bytes);
	}
	sf_sha256_final(&ctx, digest);
	sf_sha256_hex(digest, hex);
}

/* The model's name, with " (K)" when K - 1 earlier candidates have it. */
static char *
distinct_label(const sf_compare *cmp, const char *name)
{
	size_t same = 0, size = strlen(name) + 24;
	char *label;

	for (size_t i = 0; i < cmp->n; i++)
		same += strcmp(cmp->c[i]->model->name, name) == 0;
	if ((label = malloc(size)) == NULL)
		return NULL;
	if (same == 0)
		snprintf(label, size, "%s", name);
	else
		snprintf(label, size, "%s (%zu)", name, same + 1);
	return label;
}

/* Room for one more candidate. */
static int
grow(sf_compare *cmp, sf_error *err)
{
	if (cmp->n == cmp->cap) {
		size_t cap = cmp->cap > 0 ? 2 * cmp->cap : 8;
		sf_compare_candidate **more =
		    realloc(cmp->c, cap * sizeof *more);
		size_t *order;

		if (more == NULL)
			return sf_error_set(err, SF_ENOMEM, "out of memory");
		cmp->c = more;
		if ((order = realloc(cmp->order, cap * sizeof *order)) == NULL)
			return sf_error_set(err, SF_ENOMEM, "out of memory");
		cmp->order = order;
		cmp->cap = cap;
	}
	return SF_OK;
}

/* A new candidate of model m, not yet in cmp: its settings and label, no
 * data.  NULL when out of memory (err filled). */
static sf_compare_candidate *
candidate_new(sf_compare *cmp, const sf_model *m, sf_error *err)
{
	sf_compare_candidate *c;

	if (grow(cmp, err) != SF_OK)
		return NULL;
	if ((c = calloc(1, sizeof *c)) == NULL ||
	    (c->label = distinct_label(cmp, m->name)) == NULL) {
		free(c);
		sf_error_set(err, SF_ENOMEM, "out of memory");
		return NULL;
	}
	c->model = m;
	c->loss = sf_fit_loss(m, &cmp->s.options);
	c->cv_mape = c->extra_mape = NAN;
	c->max_corr = NAN; /* none: no two parameters with a correlation */
	return c;
}

/* Candidate c, whose problem is open, joins cmp (grow() made room). */
static void
candidate_enlist(sf_compare *cmp, sf_compare_candidate *c)
{
	c->n = c->problem.data->rows;
	c->k = c->problem.formula->nparams;
	memcpy(c->data_sha, c->problem.data->sha256, sizeof c->data_sha);
	rows_hash(c->problem.data, c->rows_sha);
	cmp->order[cmp->n] = cmp->n;
	cmp->c[cmp->n++] = c;
}

int
sf_compare_add_rows(sf_compare *cmp, const sf_model *m, const sf_problem *from,
                    const size_t *rows, size_t n, sf_error *err)
{
	sf_compare_candidate *c = candidate_new(cmp, m, err);
	int rc;

	if (c == NULL)
		return SF_ENOMEM;
	c->borrowed = 1;
	c->problem.model = m;
	c->problem.formula = from->formula;
	if ((rc = sf_dataset_select(from->data, rows, n, &c->problem.data,
	                            err)) != SF_OK) {
		free(c->label);
		free(c);
		return rc;
	}
	candidate_enlist(cmp, c);
	return SF_OK;
}

int
sf_compare_add(sf_compare *cmp, const sf_model *m, sf_error *err)
{
	sf_compare_candidate *c = candidate_new(cmp, m, err);
	int rc;

	if (c == NULL)
		return SF_ENOMEM;
	/* Warnings name the candidate's model: several come from one
	 * models: file, and a row skipped is reported at the data's line,
	 * which says nothing of the model. */
	rc = sf_problem_open_rows(m, cmp->s.data_path, cmp->s.table, c->loss, 1,
	                          cmp->s.warn, cmp->s.warn_ctx, &c->problem,
	                          err);
	if (rc != SF_OK) {
		free(c->label);
		free(c);
		return rc;
	}
	candidate_enlist(cmp, c);
	return SF_OK;
}

/* Candidate c's train split, when there is a condition and none yet. */
static int
split(const sf_compare *cmp, sf_compare_candidate *c, sf_error *err)
{
	int rc;
	size_t nfolds;

	if (cmp->s.train == NULL || c->train_fold != NULL)
		return SF_OK;
	if ((c->train_fold = malloc((c->n + 1) * sizeof *c->train_fold)) ==
	    NULL)
		return sf_error_set(err, SF_ENOMEM, "out of memory");
	if ((rc = sf_folds_make(c->model, c->problem.formula, c->problem.data,
	                        &cmp->s.options, cmp->s.train, 0, c->train_fold,
	                        &nfolds, err)) != SF_OK) {
		free(c->train_fold);
		c->train_fold = NULL;
	}
	return rc;
}

int
sf_compare_split(sf_compare *cmp, sf_error *err)
{
	for (size_t i = 0; i < cmp->n; i++) {
		int rc = split(cmp, cmp->c[i], err);

		if (rc != SF_OK)
			return rc;
	}
	return SF_OK;
}

/* The extrapolation scores of c by value of each extrapolated input of
 * holdout h. */
static int
score_levels(sf_compare_candidate *c, const sf_holdout *h, sf_error *err)
{
	const sf_dataset *d = c->problem.data;
	double values[SF_HOLDOUT_LEVELS_MAX];
	size_t most = 0;
	int rc;

	for (size_t i = 0; i < d->ninputs; i++)
		if (sf_holdout_extrapolated(h, d, i))
			most += SF_HOLDOUT_LEVELS_MAX;
	if (most == 0)
		return SF_OK;
	if ((c->by_level = malloc(most * sizeof *c->by_level)) == NULL)
		return sf_error_set(err, SF_ENOMEM, "out of memory");
	for (size_t i = 0; i < d->ninputs; i++) {
		size_t n;

		if (!sf_holdout_extrapolated(h, d, i))
			continue;
		n = sf_holdout_levels(h, d, i, values);
		for (size_t g = 0; g < n; g++) {
			sf_compare_level *l = &c->by_level[c->nby_level++];
			sf_holdout_scores s;

			if ((rc = sf_holdout_score_level(h, d, i, values[g], &s,
			                                 err)) != SF_OK)
				return rc;
			l->input = d->inputs[i].name;
			l->value = values[g];
			l->rows = s.count;
			l->mape = s.mape;
			l->bias = s.bias;
		}
	}
	return SF_OK;
}

/* The statistics of fit r of candidate c. */
static void
score_fit(sf_compare_candidate *c, const sf_fit_result *r, const sf_stats *s)
{
	const sf_formula *f = c->problem.formula;

	c->sse = s->sse;
	c->mape = s->mape;
	c->aicc = s->aicc;
	c->bic = s->bic;
	c->over = s->rank_deficient;
	for (size_t j = 0; j < c->k; j++) {
		if (sf_stats_poorly_determined(s, f, r, j)) {
			size_t used = strlen(c->poor);

			snprintf(c->poor + used, sizeof c->poor - used, "%s%s",
			         used > 0 ? ", " : "",
			         c->model->params[f->fitted[j]].name);
		}
		c->at_bound += r->at_bound[j] != 0;
		if (!r->at_bound[j] && s->se[j] > fabs(r->theta[j]))
			c->over = 1;
		for (size_t l = 0; l < j; l++) {
			double q = fabs(s->corr[j * c->k + l]);
			if (isfinite(q) && !(q <= c->max_corr))
				c->max_corr = q;
		}
	}
	c->over |= c->max_corr > 0.95;
}

int
sf_compare_fit(sf_compare *cmp, size_t i, sf_error *err)
{
	sf_compare_candidate *c = cmp->c[i];
	const sf_model *m = c->model;
	const sf_dataset *d = c->problem.data;
	const sf_formula *f = c->problem.formula;
	const sf_fit_options *o = &cmp->s.options;
	sf_fit_result *r = NULL;
	sf_stats *s = NULL;
	sf_holdout *h = NULL;
	int *fold = NULL, rc;
	size_t nfolds;

	c->fitted = 1;
	if ((rc = split(cmp, c, err)) != SF_OK)
		return rc;
	rc = sf_tune_fit(m, d, f, o, &r, err);
	if (rc == SF_EFAIL) {
		c->failed = 1;
		rc = SF_OK;
		goto done;
	}
	if (rc != SF_OK)
		goto done;
	if ((rc = sf_stats_compute(f, d, r, &s, err)) != SF_OK) {
		if (rc == SF_ENOMEM)
			goto done;
		c->failed = 1;
		rc = SF_OK;
		goto done;
	}
	score_fit(c, r, s);
	if ((fold = malloc((c->n + 1) * sizeof *fold)) == NULL) {
		rc = sf_error_set(err, SF_ENOMEM, "out of memory");
		goto done;
	}
	nfolds = sf_folds_kfold(d, cmp->s.kfold,
	                        sf_fit_settings_effective(m, o).seed, fold);
	if (nfolds > 0) {
		if ((rc = sf_holdout_run(m, d, f, o, sf_tune_fit, fold, nfolds,
		                         0, &h, err)) != SF_OK)
			goto done;
		c->cv_mape = h->mape;
		sf_holdout_free(h);
		h = NULL;
	}
	if (c->train_fold != NULL) {
		if ((rc = sf_holdout_run(m, d, f, o, sf_tune_fit, c->train_fold,
		                         1, 0, &h, err)) != SF_OK)
			goto done;
		c->extra_mape = h->mape;
		if ((rc = score_levels(c, h, err)) != SF_OK)
			goto done;
	}
done:
	free(fold);
	sf_holdout_free(h);
	sf_stats_free(s);
	sf_fit_result_free(r);
	return rc;
}

/*
 * Candidate i's scores as they travel between ranks (base/units.h), as
 * doubles copied byte for byte: failed, at_bound, sse, mape, aicc, bic,
 * cv_mape, extra_mape, max_corr, over, nby_level, then per level its
 * input's index in the dataset, value, rows, mape and bias; then the
 * poor list's bytes.
 */
enum { SCORES_HEAD = 11, SCORES_LEVEL = 5 };

static int
fit_unit(void *ctx, size_t i, char **out, size_t *size, sf_error *err)
{
	sf_compare *cmp = ctx;
	const sf_compare_candidate *c;
	size_t nv, used = 0;
	double *v;
	int rc;

	if ((rc = sf_compare_fit(cmp, i, err)) != SF_OK)
		return rc;
	c = cmp->c[i];
	nv = SCORES_HEAD + SCORES_LEVEL * c->nby_level;
	if ((v = malloc(nv * sizeof *v + sizeof c->poor)) == NULL)
		return sf_error_set(err, SF_ENOMEM, "out of memory");
	v[used++] = c->failed;
	v[used++] = (double)c->at_bound;
	v[used++] = c->sse;
	v[used++] = c->mape;
	v[used++] = c->aicc;
	v[used++] = c->bic;
	v[used++] = c->cv_mape;
	v[used++] = c->extra_mape;
	v[used++] = c->max_corr;
	v[used++] = c->over;
	v[used++] = (double)c->nby_level;
	for (size_t l = 0; l < c->nby_level; l++) {
		const sf_dataset *d = c->problem.data;
		size_t in = 0;

		while (in < d->ninputs &&
		       d->inputs[in].name != c->by_level[l].input)
			in++;
		v[used++] = (double)in;
		v[used++] = c->by_level[l].value;
		v[used++] = (double)c->by_level[l].rows;
		v[used++] = c->by_level[l].mape;
		v[used++] = c->by_level[l].bias;
	}
	memcpy(v + used, c->poor, sizeof c->poor);
	*out = (char *)v;
	*size = nv * sizeof *v + sizeof c->poor;
	return SF_OK;
}

/* Candidate c's scores from bytes (fit_unit's). */
static int
unpack_scores(sf_compare_candidate *c, const char *bytes, sf_error *err)
{
	double v[SCORES_HEAD], w[SCORES_LEVEL];
	const sf_dataset *d = c->problem.data;
	size_t n;

	memcpy(v, bytes, sizeof v);
	c->fitted = 1;
	c->failed = v[0] != 0;
	c->at_bound = (size_t)v[1];
	c->sse = v[2];
	c->mape = v[3];
	c->aicc = v[4];
	c->bic = v[5];
	c->cv_mape = v[6];
	c->extra_mape = v[7];
	c->max_corr = v[8];
	c->over = v[9] != 0;
	n = (size_t)v[10];
	free(c->by_level);
	c->by_level = NULL;
	c->nby_level = 0;
	if (n > 0 && (c->by_level = malloc(n * sizeof *c->by_level)) == NULL)
		return sf_error_set(err, SF_ENOMEM, "out of memory");
	for (size_t l = 0; l < n; l++) {
		memcpy(w,
		       bytes +
		           (SCORES_HEAD + SCORES_LEVEL * l) * sizeof(double),
		       sizeof w);
		c->by_level[l].input = d->inputs[(size_t)w[0]].name;
		c->by_level[l].value = w[1];
		c->by_level[l].rows = (size_t)w[2];
		c->by_level[l].mape = w[3];
		c->by_level[l].bias = w[4];
	}
	c->nby_level = n;
	memcpy(c->poor,
	       bytes + (SCORES_HEAD + SCORES_LEVEL * n) * sizeof(double),
	       sizeof c->poor);
	return SF_OK;
}

int
sf_compare_fit_all(sf_compare *cmp, sf_error *err)
{
	char **results = calloc(cmp->n + 1, sizeof *results);
	size_t *sizes = calloc(cmp->n + 1, sizeof *sizes);
	int rc;

	if (results == NULL || sizes == NULL)
		rc = sf_error_set(err, SF_ENOMEM, "out of memory");
	else
		rc = sf_units_run(cmp->n, fit_unit, cmp, results, sizes, err);
	for (size_t i = 0; rc == SF_OK && i < cmp->n; i++)
		rc = unpack_scores(cmp->c[i], results[i], err);
	for (size_t i = 0; results != NULL && i < cmp->n; i++)
		free(results[i]);
	free(results);
	free(sizes);
	return rc;
}

static double
key_aicc(const sf_compare_candidate *c)
{
	return c->aicc;
}

static double
key_cv(const sf_compare_candidate *c)
{
	return c->cv_mape;
}

static double
key_extrapolation(const sf_compare_candidate *c)
{
	return c->extra_mape;
}

/* The table of rankings, in the order of sf_compare_rank_by. */
static const sf_compare_ranking rankings[SF_COMPARE_RANKINGS] = {
    [SF_COMPARE_RANK_AICC] = {"aicc", "AICc", key_aicc},
    [SF_COMPARE_RANK_CV] = {"cv", "the cross-validated MAPE", key_cv},
    [SF_COMPARE_RANK_EXTRAPOLATION] = {"extrapolation",
                                       "the extrapolation MAPE",
                                       key_extrapolation},
};

const sf_compare_ranking *
sf_compare_ranking_get(sf_compare_rank_by r)
{
	return r > SF_COMPARE_RANK_DEFAULT && r < SF_COMPARE_RANKINGS
	           ? &rankings[r]
	           : NULL;
}

sf_compare_rank_by
sf_compare_ranking_find(const char *name)
{
	for (int r = SF_COMPARE_RANK_AICC; r < SF_COMPARE_RANKINGS; r++)
		if (strcmp(rankings[r].name, name) == 0)
			return (sf_compare_rank_by)r;
	return SF_COMPARE_RANKINGS;
}

sf_compare_rank_by
sf_compare_rank_used(const sf_compare *cmp)
{
	if (cmp->s.rank != SF_COMPARE_RANK_DEFAULT)
		return cmp->s.rank;
	return cmp->s.train != NULL ? SF_COMPARE_RANK_EXTRAPOLATION
	                            : SF_COMPARE_RANK_AICC;
}

/* A candidate's key for the order: failed fits and NaN last. */
static double
rank_key(const sf_compare_candidate *c, const sf_compare_ranking *by)
{
	double k = by->key(c);

	return c->failed || isnan(k) ? INFINITY : k;
}

/* 1 when candidate a ranks after b: a higher key, or a key equal to
 * b's (for a MAPE, within SF_COMPARE_TIE of it) and a higher AICc. */
static int
ranks_after(const sf_compare_candidate *a, const sf_compare_candidate *b,
            const sf_compare_ranking *by)
{
	const sf_compare_ranking *aicc = &rankings[SF_COMPARE_RANK_AICC];
	double ka = rank_key(a, by), kb = rank_key(b, by);
	int tie = ka == kb ||
	          (by != aicc && isfinite(ka) && isfinite(kb) &&
	           fabs(ka - kb) <= SF_COMPARE_TIE * fmax(fabs(ka), fabs(kb)));

	if (!tie)
		return ka > kb;
	return rank_key(a, aicc) > rank_key(b, aicc);
}

size_t
sf_compare_first_by(const sf_compare *cmp, sf_compare_rank_by r)
{
	const sf_compare_ranking *by =
	    &rankings[r == SF_COMPARE_RANK_DEFAULT ? sf_compare_rank_used(cmp)
	                                           : r];
	size_t first = SIZE_MAX;

	for (size_t i = 0; i < cmp->n; i++)
		if (rank_key(cmp->c[i], by) < INFINITY &&
		    (first == SIZE_MAX ||
		     ranks_after(cmp->c[first], cmp->c[i], by)))
			first = i;
	return first;
}

void
sf_compare_rank(sf_compare *cmp)
{
	sf_compare_candidate **c = cmp->c;
	size_t n = cmp->n, *order = cmp->order;
	const sf_compare_ranking *by = &rankings[sf_compare_rank_used(cmp)];
	double best = INFINITY, total = 0;

	for (size_t i = 0; i < n; i++) {
		order[i] = i;
		if (!c[i]->failed && c[i]->aicc < best)
			best = c[i]->aicc;
	}
	/* A formula that fits the rows exactly (SSE 0) has an AICc of
	 * -inf: against it every other weight is 0, and those that do tie
	 * (inf - inf is no difference), so they share the weight equally. */
	for (size_t i = 0; i < n; i++) {
		if (c[i]->failed || isnan(c[i]->aicc))
			c[i]->weight = 0;
		else if (best == -INFINITY)
			c[i]->weight = c[i]->aicc == -INFINITY;
		else
			c[i]->weight = isfinite(c[i]->aicc)
			                   ? exp(-(c[i]->aicc - best) / 2)
			                   : 0;
		total += c[i]->weight;
	}
	for (size_t i = 0; i < n; i++)
		c[i]->weight = total > 0 ? c[i]->weight / total : NAN;
	/* insertion sort: stable, so ties keep the order added */
	for (size_t i = 1; i < n; i++)
		for (size_t j = i; j > 0; j--) {
			if (!ranks_after(c[order[j - 1]], c[order[j]], by))
				break;
			size_t t = order[j];
			order[j] = order[j - 1];
			order[j - 1] = t;
		}
}

size_t
sf_compare_exact(const sf_compare *cmp)
{
	size_t n = 0;

	for (size_t i = 0; i < cmp->n; i++)
		n += !cmp->c[i]->failed && cmp->c[i]->aicc == -INFINITY;
	return n;
}

size_t
sf_compare_other_output(const sf_compare *cmp)
{
	for (size_t i = 1; i < cmp->n; i++)
		if (strcmp(sf_model_output(cmp->c[i]->model),
		           sf_model_output(cmp->c[0]->model)) != 0)
			return i;
	return 0;
}

size_t
sf_compare_other_rows(const sf_compare *cmp)
{
	const sf_compare_candidate *a = cmp->n > 0 ? cmp->c[0] : NULL;

	for (size_t i = 1; i < cmp->n; i++)
		if (cmp->c[i]->n != a->n ||
		    strcmp(cmp->c[i]->rows_sha, a->rows_sha) != 0 ||
		    cmp->c[i]->loss != a->loss)
			return i;
	return 0;
}

size_t
sf_compare_other_row_set(const sf_compare *cmp)
{
	for (size_t i = 1; i < cmp->n; i++)
		if (strcmp(cmp->c[i]->rows_sha, cmp->c[0]->rows_sha) != 0)
			return i;
	return 0;
}

size_t
sf_compare_level_inputs(const sf_compare *cmp, const char **names, size_t max)
{
	size_t n = 0;

	for (size_t i = 0; i < cmp->n; i++) {
		const sf_compare_candidate *c = cmp->c[cmp->order[i]];

		for (size_t l = 0; l < c->nby_level; l++) {
			size_t k = 0;

			while (k < n && strcmp(names[k], c->by_level[l].input))
				k++;
			if (k == n && n < max)
				names[n++] = c->by_level[l].input;
		}
	}
	return n;
}

size_t
sf_compare_level_values(const sf_compare *cmp, const char *name, double *values,
                        size_t max)
{
	size_t n = 0;

	for (size_t i = 0; i < cmp->n; i++) {
		const sf_compare_candidate *c = cmp->c[i];

		for (size_t l = 0; l < c->nby_level; l++) {
			double v = c->by_level[l].value;
			size_t k = 0;

			if (strcmp(c->by_level[l].input, name) != 0)
				continue;
			while (k < n && values[k] < v)
				k++;
			if (k < n && values[k] == v)
				continue;
			if (n == max)
				return 0;
			memmove(values + k + 1, values + k,
			        (n - k) * sizeof *values);
			values[k] = v;
			n++;
		}
	}
	return n;
}

const sf_compare_level *
sf_compare_level_find(const sf_compare_candidate *c, const char *name,
                      double value)
{
	for (size_t l = 0; l < c->nby_level; l++)
		if (c->by_level[l].value == value &&
		    strcmp(c->by_level[l].input, name) == 0)
			return &c->by_level[l];
	return NULL;
}
