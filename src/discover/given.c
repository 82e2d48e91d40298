/*
 * given.c - the model file's own formulas, scored through the fit
 * pipeline on the search's folds (given.h).
 */
#include "discover/given.h"
#include "base/text.h"
#include "discover/score.h"
#include "fit/interval.h"
#include "fit/stats.h"
#include "fit/tune.h"
#include "fit/validate.h"
#include "input/formula.h"
#include "input/library.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* m's formula into g, as its file writes it: its constants (with their
 * bounds; fitted ones valued NaN until fitted), its derived inputs and
 * terms, its time.  Returns 0, or -1 when out of memory. */
static int
copy_formula(const sf_model *m, sf_discover_given *g)
{
	g->params = calloc(m->nparams + 1, sizeof *g->params);
	g->terms = calloc(m->nterms + 1, sizeof *g->terms);
	if (g->params == NULL || g->terms == NULL ||
	    (g->time = sf_text_dup(m->time.text)) == NULL)
		return -1;
	for (size_t i = 0; i < m->nparams; i++, g->nparams++) {
		const sf_model_param *x = &m->params[i];
		sf_discover_param *y = &g->params[i];

		if ((y->name = sf_text_dup(x->name)) == NULL)
			return -1;
		y->fixed = x->fixed;
		y->value = x->fixed ? x->value : NAN;
		y->lower = x->min;
		y->upper = x->max;
	}
	for (size_t t = 0; t < m->nterms; t++, g->nterms++) {
		const sf_model_term *x = &m->terms[t];
		sf_discover_given_term *y = &g->terms[t];

		if ((y->name = sf_text_dup(x->name)) == NULL ||
		    (y->expr = sf_text_dup(x->expr.text)) == NULL)
			return -1;
		y->kind = x->kind;
		y->derived = x->derived;
	}
	return 0;
}

/* c for p's formula before it is scored: its name, its formula as the
 * file writes it, its constants; every score NaN. */
static int
given_candidate(const sf_problem *p, size_t nfolds, sf_discover_candidate *c,
                sf_error *err)
{
	const sf_model *m = p->model;
	sf_text b = SF_TEXT_INIT;
	char *canonical;

	memset(c, 0, sizeof *c);
	c->score = c->se = c->mape = c->aicc = NAN;
	c->library = m->name[0] == SF_LIBRARY_PREFIX;
	if ((c->model = sf_text_dup(m->name)) == NULL ||
	    (c->fold_mape = malloc((nfolds + 1) * sizeof *c->fold_mape)) ==
	        NULL ||
	    copy_formula(m, &c->given) != 0)
		return sf_error_set(err, SF_ENOMEM, "out of memory");
	for (size_t f = 0; f < nfolds; f++)
		c->fold_mape[f] = NAN;
	c->k = p->formula->nparams;
	canonical = sf_formula_canonical_time(p->formula, m);
	sf_text_printf(&b, "%s: %s", m->name,
	               canonical != NULL ? canonical : "?");
	free(canonical);
	if ((c->formula = sf_text_take(&b)) == NULL)
		return sf_error_set(err, SF_ENOMEM, "out of memory");
	return SF_OK;
}

/* Fold f of p's formula on train (sorted by ch, as g's rows are): fitted
 * by the pipeline on the rows at levels up to ch->last[f], its MAPE
 * predicting the rows above into *mape and the variance of that mean
 * (sf_score_ape_mean, with g's configurations; ws is scratch) into *var,
 * *ok = 1; *ok = 0 when the fit or the prediction failed.  rows and pred
 * are scratch of train->rows.  Returns SF_OK, or SF_ENOMEM and the
 * selection's errors. */
static int
given_fold(const sf_problem *p, const sf_dataset *train, const sf_chain *ch,
           const sf_grammar *g, sf_score_ws *ws, size_t f,
           const sf_fit_options *fo, size_t *rows, double *pred, double *mape,
           double *var, int *ok, sf_error *err)
{
	size_t l = ch->last[f], n = ch->start[l + 1];
	sf_dataset *sub = NULL;
	sf_fit_result *r = NULL;
	sf_error fold_err;
	int rc;

	*ok = 0;
	for (size_t q = 0; q < n; q++)
		rows[q] = ch->row[q];
	if ((rc = sf_dataset_select(train, rows, n, &sub, err)) != SF_OK)
		return rc;
	rc = sf_tune_fit(p->model, sub, p->formula, fo, &r, &fold_err);
	sf_dataset_free(sub);
	if (rc == SF_ENOMEM) {
		*err = fold_err;
		return rc;
	}
	if (rc == SF_OK)
		rc = sf_predict_rows(p->formula, train, r->theta, pred, err);
	sf_fit_result_free(r);
	if (rc != SF_OK)
		return SF_OK;
	for (size_t q = n; q < train->rows; q++) {
		size_t row = ch->row[q];
		ws->ape[q] = fabs(pred[row] - train->output[row]) /
		             fabs(train->output[row]);
	}
	*mape = 100 * sf_score_ape_mean(g, ws, n, train->rows, var);
	*ok = 1;
	return SF_OK;
}

/* p's formula fitted by the pipeline on every training row: c's MAPE,
 * its constants, and its AICc with g's weights (g's rows are train's sorted:
 * the same weights, row by row); *fitted = 0 when the fit failed (SF_EFAIL).
 * Returns SF_OK, or the fit's and the prediction's other errors. */
static int
given_all_rows(const sf_problem *p, const sf_dataset *train,
               const sf_grammar *g, const sf_fit_options *fo, double *pred,
               sf_discover_candidate *c, int *fitted, sf_error *err)
{
	sf_fit_result *r = NULL;
	double chisqr = 0, ape = 0;
	int rc = sf_tune_fit(p->model, train, p->formula, fo, &r, err);

	*fitted = 0;
	if (rc == SF_EFAIL)
		rc = SF_OK;
	else if (rc == SF_OK &&
	         (rc = sf_predict_rows(p->formula, train, r->theta, pred,
	                               err)) == SF_OK) {
		for (size_t q = 0; q < g->rows; q++) {
			size_t row = g->ch.row[q];
			double e = pred[row] - train->output[row];
			chisqr += g->w[q] * e * e;
			ape += fabs(e) / fabs(train->output[row]);
		}
		c->mape = 100 * ape / (double)g->rows;
		c->aicc = sf_score_aicc(chisqr, g->rows, c->k);
		for (size_t j = 0; j < p->formula->nparams; j++)
			c->given.params[p->formula->fitted[j]].value =
			    r->theta[j];
		*fitted = 1;
	}
	sf_fit_result_free(r);
	return rc;
}

int
sf_given_score(const sf_problem *p, const sf_discover_options *o,
               const sf_setup *st, const sf_grammar *g,
               sf_discover_candidate *c, sf_error *err)
{
	sf_fit_options fo = o->fit;
	sf_dataset *train = NULL;
	double *pred = NULL, sum = 0, se = 0;
	size_t held, *rows = NULL, x = SIZE_MAX, failed = 0;
	sf_chain ch = {0};
	sf_score_ws ws = {0};
	int rc, fitted = 0;

	fo.progress = NULL;
	fo.first_run_only = 1; /* a score: see given.h */
	if ((rc = given_candidate(p, g->ch.nfolds, c, err)) != SF_OK ||
	    (rc = sf_discover_split(p->data, o->train, &train, &held, err)) !=
	        SF_OK)
		return rc;
	for (size_t i = 0; i < train->ninputs; i++)
		if (strcmp(train->inputs[i].name,
		           g->d->inputs[st->extrap].name) == 0)
			x = i;
	/* Scores on other rows would not compare: leave them out. */
	if (x == SIZE_MAX || train->rows != g->rows)
		goto done;
	if ((rc = sf_chain_make(train, x, &ch, err)) != SF_OK)
		goto done;
	rows = malloc((train->rows + 1) * sizeof *rows);
	pred = malloc((train->rows + 1) * sizeof *pred);
	if (rows == NULL || pred == NULL || !sf_score_ws_alloc(&ws, g)) {
		rc = sf_error_set(err, SF_ENOMEM, "out of memory");
		goto done;
	}
	for (size_t f = 0; f < ch.nfolds && f < g->ch.nfolds; f++) {
		double v = 0;
		int ok;

		if ((rc = given_fold(p, train, &ch, g, &ws, f, &fo, rows, pred,
		                     &c->fold_mape[f], &v, &ok, err)) != SF_OK)
			goto done;
		if (ok) {
			sum += sf_chain_fold_weight(&ch, f) * c->fold_mape[f];
			se += sf_chain_fold_weight(&ch, f) * sqrt(v);
		} else {
			failed++;
		}
	}
	rc = given_all_rows(p, train, g, &fo, pred, c, &fitted, err);
	if (rc == SF_OK && fitted && failed == 0 && ch.nfolds == g->ch.nfolds) {
		/* as the search's scores (score.c: finish) */
		c->score = sum / sf_chain_fold_weights(&ch);
		c->se = 100 * se / sf_chain_fold_weights(&ch);
	}
done:
	sf_score_ws_free(&ws);
	sf_dataset_free(train);
	free(rows);
	free(pred);
	sf_chain_free(&ch);
	return rc;
}

int
sf_given_regime(const sf_problem *p, const sf_discover_options *o,
                const char *along, double disagreement, double *regime,
                sf_error *err)
{
	sf_model own = *p->model; /* read only: its pointers are shared */
	sf_fit_options fo = o->fit;
	sf_dataset *train = NULL;
	sf_fit_result *r = NULL;
	sf_stats *s = NULL;
	sf_interval_model im;
	sf_error quiet;
	size_t held, x = SIZE_MAX;
	int rc;

	*regime = NAN;
	/* the fit sf_given_score made of every training row, again */
	fo.progress = NULL;
	fo.first_run_only = 1;
	/* its own check, not one a file discover wrote carries */
	own.fit.prior_regime = -1;
	if (disagreement >= 0)
		own.fit.prior_disagreement = disagreement;
	if ((rc = sf_discover_split(p->data, o->train, &train, &held, err)) !=
	    SF_OK)
		return rc;
	for (size_t i = 0; i < train->ninputs; i++)
		if (strcmp(train->inputs[i].name, along) == 0)
			x = i;
	rc = sf_tune_fit(&own, train, p->formula, &fo, &r, &quiet);
	if (rc == SF_OK)
		rc = sf_stats_compute(p->formula, train, r, &s, &quiet);
	if (rc == SF_OK)
		rc = sf_interval_calibrate(&own, train, p->formula, &fo, r, s,
		                           NULL, &im, &quiet);
	if (rc == SF_OK && im.regime && im.regime_input == x)
		*regime = im.regime_slope;
	sf_stats_free(s);
	sf_fit_result_free(r);
	sf_dataset_free(train);
	if (rc == SF_ENOMEM) {
		*err = quiet;
		return rc;
	}
	return SF_OK;
}
