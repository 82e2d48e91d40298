/*
 * average.c - predictions averaged over candidate formulas (average.h).
 */
#include "use/average.h"
#include "base/number.h"
#include "fit/ensemble.h"
#include "use/fitgroups.h"
#include "use/json.h"
#include "use/report.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

void
sf_average_free(sf_average *a)
{
	if (a == NULL)
		return;
	for (size_t i = 0; a->each != NULL && i < a->nfits; i++)
		sf_prediction_free(a->each[i]);
	free(a->each);
	free(a->weight);
	free(a->time);
	free(a->interval);
	free(a);
}

const char *
sf_average_weights_said(sf_average_weights how)
{
	switch (how) {
	case SF_AVERAGE_AICC:
		return "Akaike weights";
	case SF_AVERAGE_EQUAL:
		return "equal weights";
	case SF_AVERAGE_GIVEN:
		return "the weights given";
	default:
		return "weighted by extrapolation evidence";
	}
}

static int
same_text(const char *a, const char *b)
{
	return strcmp(a != NULL ? a : "", b != NULL ? b : "") == 0;
}

/* The weights W1,W2,... of text into w; 0, or -1 when text is not such
 * a list. */
static int
given_weights(const char *text, sf_average_asked *w)
{
	char cell[64];
	double most = 0;
	size_t n = 0;

	for (const char *p = text, *comma;; p = comma + 1) {
		size_t len;

		comma = strchr(p, ',');
		len = comma != NULL ? (size_t)(comma - p) : strlen(p);
		if (n == SF_AVERAGE_MAX_GIVEN || len == 0 || len >= sizeof cell)
			return -1;
		memcpy(cell, p, len);
		cell[len] = '\0';
		if (sf_parse_double(cell, &w->weights[n]) != SF_OK ||
		    !(w->weights[n] >= 0) || !isfinite(w->weights[n]))
			return -1;
		w->weights[n] += 0.0; /* -0 is 0 */
		most = w->weights[n] > most ? w->weights[n] : most;
		n++;
		if (comma == NULL)
			break;
	}
	if (!(most > 0))
		return -1;
	/* as shares of the largest, so that their sum is finite */
	for (size_t i = 0; i < n; i++)
		w->weights[i] /= most;
	w->ngiven = n;
	return 0;
}

int
sf_average_asked_parse(const char *text, sf_average_asked *w)
{
	static const char *const names[] = {"extrapolation", "aicc", "equal"};
	sf_average_asked x = *w;

	x.how = SF_AVERAGE_GIVEN;
	for (size_t k = 0; k < sizeof names / sizeof names[0]; k++)
		if (strcmp(text, names[k]) == 0)
			x.how = (sf_average_weights)k;
	if (x.how == SF_AVERAGE_GIVEN && given_weights(text, &x) != 0)
		return -1;
	x.given = 1;
	*w = x;
	return 0;
}

/* Whether a and b (NULL: "") are one expression, spaces outside quotes
 * aside ("global_batch / gpus" and "global_batch/gpus"). */
static int
same_expression(const char *a, const char *b)
{
	char quote = 0; /* the quote a and b are inside, alike */

	a = a != NULL ? a : "";
	b = b != NULL ? b : "";
	for (;;) {
		while (!quote && (*a == ' ' || *a == '\t'))
			a++;
		while (!quote && (*b == ' ' || *b == '\t'))
			b++;
		if (*a != *b)
			return 0;
		if (*a == '\0')
			return 1;
		if (*a == '\'' || *a == '"')
			quote = quote == *a ? 0 : quote ? quote : *a;
		a++;
		b++;
	}
}

/* Whether fit b reads input j of fit a as a does: by its name, a number
 * in both or text in both, with the same values (a text's values are
 * coded by their place in its levels).  SF_OK, else SF_EVALUE and why. */
static int
same_input(const sf_fitfile *a, const sf_fitfile *b, size_t j, sf_error *err)
{
	const sf_fitfile_input *x = &a->inputs[j];
	size_t m = sf_fitfile_input_find(b, x->name);
	const sf_fitfile_input *y = m != SF_FITFILE_NONE ? &b->inputs[m] : NULL;

	if (y == NULL)
		return sf_error_set(err, SF_EVALUE,
		                    "%s has no input '%s' (which %s has)",
		                    b->path, x->name, a->path);
	if ((x->levels == NULL) != (y->levels == NULL))
		return sf_error_set(
		    err, SF_EVALUE, "%s reads input '%s' as %s, %s as %s",
		    a->path, x->name, x->levels != NULL ? "text" : "a number",
		    b->path, y->levels != NULL ? "text" : "a number");
	if (!same_expression(x->column, y->column))
		return sf_error_set(
		    err, SF_EVALUE, "%s reads input '%s' as '%s', %s as '%s'",
		    a->path, x->name, x->column ? x->column : "", b->path,
		    y->column ? y->column : "");
	if (x->levels == NULL)
		return SF_OK;
	for (size_t l = 0; l < x->nlevels || l < y->nlevels; l++)
		if (l >= x->nlevels || l >= y->nlevels ||
		    strcmp(x->levels[l], y->levels[l]) != 0)
			return sf_error_set(err, SF_EVALUE,
			                    "%s and %s know different values "
			                    "of text input '%s'",
			                    a->path, b->path, x->name);
	return SF_OK;
}

int
sf_average_check(const sf_fitfile *const *fits, size_t k, sf_error *err)
{
	const sf_fitfile *a = fits[0];
	int rc;

	if (k < 2)
		return sf_error_set(err, SF_EVALUE,
		                    "averaging needs at least two fits");
	for (size_t i = 0; i < k; i++) {
		const sf_fitfile *b = fits[i];

		if (b->nmembers > 0)
			return sf_error_set(
			    err, SF_EVALUE,
			    "%s is an ensemble's fit, already a mixture of "
			    "formulas: predict with it alone",
			    b->path);
		if (!b->has_interval) {
			char why[160];

			return sf_error_set(
			    err, SF_EVALUE,
			    "%s cannot be averaged: %s (an average mixes "
			    "the fits' intervals)",
			    b->path,
			    sf_fitfile_no_interval(b, why, sizeof why));
		}
		if (i == 0)
			continue;
		if (!same_text(a->data_sha256, b->data_sha256) ||
		    !same_text(a->data_where, b->data_where) ||
		    !(a->data_rows == b->data_rows))
			return sf_error_set(
			    err, SF_EVALUE,
			    "%s and %s were not fitted to the "
			    "same rows (data file, where: or row "
			    "count differ): their weights would "
			    "not compare",
			    a->path, b->path);
		if (!same_text(a->loss, b->loss))
			return sf_error_set(
			    err, SF_EVALUE,
			    "%s and %s were fitted with different "
			    "losses (%s, %s)",
			    a->path, b->path, a->loss, b->loss);
		if (!same_text(a->output, b->output))
			return sf_error_set(
			    err, SF_EVALUE,
			    "%s and %s predict different outputs "
			    "('%s', '%s')",
			    a->path, b->path, a->output, b->output);
		if (b->ninputs != a->ninputs)
			return sf_error_set(err, SF_EVALUE,
			                    "%s and %s have different inputs",
			                    a->path, b->path);
		for (size_t j = 0; j < a->ninputs; j++)
			if ((rc = same_input(a, b, j, err)) != SF_OK)
				return rc;
	}
	return SF_OK;
}

/* What an extrapolation weight was made from, as its messages say
 * (interval.h: weight_chain). */
static const char *
weight_grounds(int chain)
{
	return chain > 0    ? "its forward chain"
	       : chain == 0 ? "its posterior"
	                    : "what its file does not say (written before "
	                      "model_weight_from)";
}

/* The weights of the fits, summing to 1; SF_EVALUE when an AICc is
 * missing or the weights given are not one a fit. */
static int
weights_of(const sf_fitfile *const *fits, size_t k, const sf_average_asked *a,
           double *w, sf_error *err)
{
	const sf_average_weights how = a->how;
	double best = INFINITY, sum = 0;

	if (how == SF_AVERAGE_GIVEN) {
		if (a->ngiven != k)
			return sf_error_set(
			    err, SF_EVALUE,
			    "--weights gives %zu weight%s for %zu "
			    "fit files: one a file, in their order",
			    a->ngiven, a->ngiven == 1 ? "" : "s", k);
		for (size_t i = 0; i < k; i++)
			w[i] = a->weights[i];
		sf_ensemble_normalise(w, k); /* the sum is from 1 to k */
		return SF_OK;
	}
	if (how == SF_AVERAGE_EXTRAPOLATION) {
		for (size_t i = 1; i < k; i++)
			if (fits[i]->interval.weight_chain !=
			    fits[0]->interval.weight_chain)
				return sf_error_set(
				    err, SF_EVALUE,
				    "%s weighs its evidence beyond the range "
				    "by "
				    "%s, %s by %s: the weights would not "
				    "compare "
				    "(refit them with this version, or give "
				    "--weights aicc, equal or W1,W2,...)",
				    fits[0]->path,
				    weight_grounds(
				        fits[0]->interval.weight_chain),
				    fits[i]->path,
				    weight_grounds(
				        fits[i]->interval.weight_chain));
		for (size_t i = 0; i < k; i++)
			w[i] = sf_interval_weight(&fits[i]->interval);
		if (!sf_ensemble_normalise(w, k))
			for (size_t i = 0; i < k; i++)
				w[i] = 1.0 / (double)k;
		return SF_OK;
	}
	for (size_t i = 0; i < k; i++) {
		if (how == SF_AVERAGE_EQUAL)
			continue;
		if (!isfinite(fits[i]->aicc))
			return sf_error_set(
			    err, SF_EVALUE,
			    "%s has no AICc (too few rows for its "
			    "constants?): use equal weights",
			    fits[i]->path);
		best = fits[i]->aicc < best ? fits[i]->aicc : best;
	}
	for (size_t i = 0; i < k; i++) {
		w[i] = how == SF_AVERAGE_EQUAL
		           ? 1
		           : exp(-(fits[i]->aicc - best) / 2);
		sum += w[i];
	}
	for (size_t i = 0; i < k; i++)
		w[i] /= sum;
	return SF_OK;
}

int
sf_average_run(const sf_fitfile *const *fits, size_t k,
               const sf_average_asked *how, const double *const *columns,
               size_t n, sf_average **out, sf_error *err)
{
	const sf_fitfile *first = fits[0];
	const int mult = first->interval.multiplicative;
	const double **cols = calloc(first->ninputs + 1, sizeof *cols);
	sf_interval_t *c = calloc(k + 1, sizeof *c);
	sf_average *a = calloc(1, sizeof *a);
	int rc;

	*out = NULL;
	if (cols == NULL || c == NULL || a == NULL ||
	    (a->weight = malloc(k * sizeof *a->weight)) == NULL ||
	    (a->time = malloc((n + 1) * sizeof *a->time)) == NULL ||
	    (a->interval = malloc((n + 1) * sizeof *a->interval)) == NULL ||
	    (a->each = calloc(k, sizeof *a->each)) == NULL) {
		rc = sf_error_set(err, SF_ENOMEM, "out of memory");
		goto done;
	}
	a->nfits = k;
	a->n = n;
	if ((rc = sf_average_check(fits, k, err)) != SF_OK ||
	    (rc = weights_of(fits, k, how, a->weight, err)) != SF_OK)
		goto done;
	for (size_t i = 0; i < k; i++) {
		/* the columns in fit i's order of inputs */
		for (size_t j = 0; j < first->ninputs; j++)
			cols[sf_fitfile_input_find(
			    fits[i], first->inputs[j].name)] = columns[j];
		if ((rc = sf_predict(fits[i], cols, n, &a->each[i], err)) !=
		    SF_OK)
			goto done;
	}
	for (size_t p = 0; p < n; p++) {
		double mean = 0, point;
		int ok = 1;

		for (size_t i = 0; i < k; i++) {
			const sf_predict_point *pt = &a->each[i]->points[p];

			mean += a->weight[i] * pt->time;
			if (!sf_interval_shape(&fits[i]->interval, pt->time,
			                       pt->se * pt->se, &pt->beyond,
			                       &c[i]) ||
			    !(c[i].scale > 0))
				ok &= a->weight[i] == 0;
		}
		/* The mixture's point (fit/ensemble.h) when every weighted fit
		 * has its distribution there; else the weighted mean of the
		 * times, without an interval. */
		a->time[p] = mean;
		a->interval[p].lo = a->interval[p].hi = NAN;
		if (ok &&
		    sf_ensemble_mix(a->weight, c, k, mult, &point,
		                    &a->interval[p].lo, &a->interval[p].hi))
			a->time[p] = point;
	}
	*out = a;
	a = NULL;
	rc = SF_OK;
done:
	sf_average_free(a);
	free(cols);
	free(c);
	return rc;
}

int
sf_average_ensemble(const char *path, sf_fitfile **fits, size_t k,
                    const sf_average_asked *how, sf_fitfile **out,
                    sf_error *err)
{
	sf_fitfile **members = calloc(k + 1, sizeof *members);
	double *w = calloc(k + 1, sizeof *w);
	int rc;

	*out = NULL;
	if (members == NULL || w == NULL)
		rc = sf_error_set(err, SF_ENOMEM, "out of memory");
	else if ((rc = sf_average_check((const sf_fitfile *const *)fits, k,
	                                err)) == SF_OK)
		rc =
		    weights_of((const sf_fitfile *const *)fits, k, how, w, err);
	if (rc != SF_OK) {
		free(members);
		free(w);
		return rc;
	}
	for (size_t i = 0; i < k; i++) {
		members[i] = fits[i];
		fits[i] = NULL;
	}
	return sf_fitfile_ensemble(path, "average", members, w, k, out, err);
}

/* What writing the points needs. */
typedef struct points_ctx {
	const sf_fitfile *const *fits;
	const sf_average *a;
} points_ctx;

/* Averaged point p: its inputs, time, interval and each fit's, written
 * without a jansson value (an sf_json_element_fn). */
static int
write_point(FILE *out, const void *ctx, size_t p, int depth)
{
	const points_ctx *c = ctx;
	const sf_fitfile *first = c->fits[0];
	const sf_average *a = c->a;
	sf_json_writer w;

	sf_json_writer_init(&w, out, depth);
	sf_json_writer_open(&w, '{');
	sf_json_writer_next(&w, "inputs");
	sf_json_writer_open(&w, '{');
	for (size_t j = 0; j < first->ninputs; j++) {
		const sf_fitfile_input *fi = &first->inputs[j];
		double v = a->each[0]->inputs[j * a->n + p];

		sf_json_writer_next(&w, fi->name);
		if (fi->levels != NULL && v >= 0 && v < (double)fi->nlevels)
			sf_json_writer_string(&w, fi->levels[(size_t)v]);
		else
			sf_json_writer_number(&w, v);
	}
	sf_json_writer_close(&w, '}');
	sf_json_writer_next(&w, "time");
	sf_json_writer_number(&w, a->time[p]);
	sf_json_writer_pair(&w, "interval95", a->interval[p].lo,
	                    a->interval[p].hi);
	sf_json_writer_next(&w, "models");
	sf_json_writer_open(&w, '[');
	for (size_t i = 0; i < a->nfits; i++) {
		const sf_predict_point *q = &a->each[i]->points[p];

		sf_json_writer_next(&w, NULL);
		sf_json_writer_open(&w, '{');
		sf_json_writer_next(&w, "time");
		sf_json_writer_number(&w, q->time);
		sf_json_writer_pair(&w, "interval95", q->pi.lo, q->pi.hi);
		sf_json_writer_close(&w, '}');
	}
	sf_json_writer_close(&w, ']');
	sf_json_writer_close(&w, '}');
	return w.rc;
}

json_t *
sf_average_models_json(const sf_fitfile *const *fits, const double *weights,
                       size_t k)
{
	json_t *models = json_array();
	int ok = models != NULL;

	for (size_t i = 0; ok && i < k; i++) {
		json_t *m = json_object();

		sf_json_put(m, "fit", json_string(fits[i]->path), &ok);
		sf_json_put(m, "model", json_string(fits[i]->name), &ok);
		sf_json_put(m, "aicc", sf_json_number(fits[i]->aicc), &ok);
		sf_json_put(m, "weight", sf_json_number(weights[i]), &ok);
		if (json_array_append_new(models, m) != 0)
			ok = 0;
	}
	return sf_json_done(models, ok);
}

/* The document's members but its points: version, output, models. */
static json_t *
head_json(const sf_fitfile *const *fits, const sf_average *a)
{
	json_t *root = json_object(),
	       *models = sf_average_models_json(fits, a->weight, a->nfits);
	int ok = root != NULL && models != NULL;

	if (root != NULL) {
		sf_json_put(root, "scalefit_version",
		            json_string(PACKAGE_VERSION), &ok);
		sf_json_put(root, "output", json_string(fits[0]->output), &ok);
		sf_json_put(root, "models", models, &ok);
		models = NULL;
	}
	json_decref(models);
	return sf_json_done(root, ok);
}

int
sf_average_write_json(FILE *out, const sf_fitfile *const *fits,
                      const sf_average *a)
{
	json_t *head = head_json(fits, a);
	points_ctx c = {fits, a};
	int rc;

	if (head == NULL)
		return SF_ENOMEM;
	rc = sf_json_write_tail(out, head, 0, "points", a->n, write_point, &c);
	json_decref(head);
	return rc;
}

/* sf_average_write_json() as an sf_json_print_fn. */
static int
write_document(FILE *out, const void *arg)
{
	const points_ctx *c = arg;

	return sf_average_write_json(out, c->fits, c->a);
}

json_t *
sf_average_json(const sf_fitfile *const *fits, const sf_average *a)
{
	points_ctx c = {fits, a};

	return sf_json_tree(write_document, &c);
}
