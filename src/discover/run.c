/*
 * run.c - a search from start to board (sf_discover_run, discover.h): the
 * setup, the training rows, the grammar, the search, the model file's own
 * formulas scored alike, and the board; and the grammar alone
 * (sf_discover_shapes).
 */
#include "base/clock.h"
#include "base/number.h"
#include "base/sort.h"
#include "base/text.h"
#include "discover/board.h"
#include "discover/discover.h"
#include "discover/given.h"
#include "discover/grammar.h"
#include "discover/search.h"
#include "discover/setup.h"
#include "expr/expr.h"
#include "fit/interval.h"
#include "input/library.h"

#include <gsl/gsl_cdf.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* The settings and the grammar, recorded in the result. */
static int
describe(sf_discover_result *r, const sf_grammar *g, const sf_setup *st,
         const char *train)
{
	const sf_dataset *d = g->d;

	r->extrapolate = sf_text_dup(d->inputs[st->extrap].name);
	r->count =
	    st->count >= 0 ? sf_text_dup(d->inputs[st->count].name) : NULL;
	r->workers =
	    st->workers >= 0 ? sf_text_dup(d->inputs[st->workers].name) : NULL;
	r->batch =
	    st->batch >= 0 ? sf_text_dup(d->inputs[st->batch].name) : NULL;
	r->steps = g->steps[SF_STEPS_CEIL] != NULL;
	r->inputs = calloc(d->ninputs + 1, sizeof *r->inputs);
	r->levels = malloc((g->ch.nlevels + 1) * sizeof *r->levels);
	r->fold_last = malloc((g->ch.nfolds + 1) * sizeof *r->fold_last);
	r->fold_rows = malloc((g->ch.nfolds + 1) * sizeof *r->fold_rows);
	if (r->extrapolate == NULL || (st->count >= 0 && r->count == NULL) ||
	    (st->workers >= 0 && r->workers == NULL) ||
	    (st->batch >= 0 && r->batch == NULL) || r->inputs == NULL ||
	    r->levels == NULL || r->fold_last == NULL || r->fold_rows == NULL)
		return -1;
	for (size_t i = 0; i < d->ninputs; i++)
		if (st->use[i] && (r->inputs[r->ninputs++] =
		                       sf_text_dup(d->inputs[i].name)) == NULL)
			return -1;
	r->loss = st->loss;
	r->rows = g->rows;
	if (train != NULL && (r->train = sf_text_dup(train)) == NULL)
		return -1;
	r->nlevels = g->ch.nlevels;
	memcpy(r->levels, g->ch.levels, g->ch.nlevels * sizeof *r->levels);
	r->nfolds = g->ch.nfolds;
	for (size_t f = 0; f < g->ch.nfolds; f++) {
		r->fold_last[f] = g->ch.last[f];
		r->fold_rows[f] = g->rows - g->ch.start[g->ch.last[f] + 1];
	}
	r->shapes = g->nshapes;
	r->too_steep = g->too_steep;
	r->factors = st->factors;
	r->max_terms = st->max_terms;
	r->beam = st->beam;
	r->budget = st->budget;
	r->space = st->space;
	return 0;
}

/* The file's own formulas scored as the search scores its own, into
 * *scored (ngiven of them; the caller frees them), each marked foreign
 * when it has an input the searched model m has not. */
static int
score_given(const sf_model *m, const sf_problem *given, size_t ngiven,
            const sf_discover_options *o, const sf_setup *st,
            const sf_grammar *g, sf_discover_candidate **scored, sf_error *err)
{
	int rc = SF_OK;

	*scored = NULL;
	if (ngiven > 0 && (*scored = calloc(ngiven, sizeof **scored)) == NULL)
		return sf_error_set(err, SF_ENOMEM, "out of memory");
	for (size_t i = 0; i < ngiven && rc == SF_OK; i++) {
		rc = sf_given_score(&given[i], o, st, g, &(*scored)[i], err);
		(*scored)[i].foreign =
		    !sf_model_inputs_within(given[i].model, m);
	}
	return rc;
}

/* A given formula g (the model file's, the library's) at the inputs of
 * scope s, with its fitted constants:
 * its terms (each may use those before it) and its time into *out.
 * Returns SF_OK or the expression's error. */
static int
given_at(const sf_discover_given *g, sf_expr_scope *s, double *out,
         sf_error *err)
{
	double v;
	int rc = SF_OK;

	for (size_t i = 0; i < g->nparams && rc == SF_OK; i++)
		rc = sf_expr_scope_add_fixed(s, g->params[i].name,
		                             g->params[i].value, err);
	for (size_t t = 0; t < g->nterms && rc == SF_OK; t++)
		if ((rc = sf_expr_eval_columns(s, g->terms[t].expr, NULL, 1, &v,
		                               err)) == SF_OK)
			rc = sf_expr_scope_add_fixed(s, g->terms[t].name, v,
			                             err);
	if (rc == SF_OK)
		rc = sf_expr_eval_columns(s, g->time, NULL, 1, out, err);
	return rc;
}

/* Candidate c's prediction at row of d with input x at value at: the sum
 * of its terms, each with its fitted constants (a given formula: its
 * time).  Returns SF_OK or the expression's error. */
static int
predict_at(const sf_discover_candidate *c, const sf_dataset *d, size_t row,
           size_t x, double at, double *out, sf_error *err)
{
	sf_expr_scope *s = sf_expr_scope_new();
	double sum = 0, term;
	int rc =
	    s == NULL ? sf_error_set(err, SF_ENOMEM, "out of memory") : SF_OK;

	for (size_t i = 0; i < d->ninputs && rc == SF_OK; i++)
		rc = sf_expr_scope_add_fixed(
		    s, d->inputs[i].name,
		    i == x ? at : d->inputs[i].values[row], err);
	if (c->model != NULL && rc == SF_OK) {
		rc = given_at(&c->given, s, out, err);
		sf_expr_scope_free(s);
		return rc;
	}
	for (size_t t = 0; t < c->nterms && rc == SF_OK; t++)
		for (size_t q = 0; q < c->terms[t].nparams && rc == SF_OK; q++)
			rc = sf_expr_scope_add_fixed(s, c->terms[t].param[q],
			                             c->terms[t].value[q], err);
	for (size_t t = 0; t < c->nterms && rc == SF_OK; t++)
		if ((rc = sf_expr_eval_columns(s, c->terms[t].expr, NULL, 1,
		                               &term, err)) == SF_OK)
			sum += term;
	sf_expr_scope_free(s);
	*out = sum;
	return rc;
}

/* The training row of level l of g's chain whose time is the median
 * there (the lower of two middle ones), among the rows of row like's
 * configuration but for input x when like is not SIZE_MAX: SF_OK and
 * *row, SIZE_MAX when there is none; SF_ENOMEM. */
static int
median_row(const sf_grammar *g, size_t l, size_t like, size_t x, size_t *row,
           sf_error *err)
{
	const sf_chain *ch = &g->ch;
	size_t first = ch->start[l], n = ch->start[l + 1] - first, k = 0;
	/* the level's rows, then the sort's scratch */
	size_t *idx = malloc((2 * n + 1) * sizeof *idx);

	*row = SIZE_MAX;
	if (idx == NULL)
		return sf_error_set(err, SF_ENOMEM, "out of memory");
	for (size_t i = 0; i < n; i++) {
		size_t r = ch->row[first + i];

		if (like == SIZE_MAX || sf_dataset_same_but(g->d, r, like, x))
			idx[k++] = r;
	}
	sf_sort_indices(idx, idx + k, k, sf_dataset_by_output, g->d);
	if (k > 0)
		*row = idx[(k - 1) / 2];
	free(idx);
	return SF_OK;
}

/* Value at of d's input j as --target reads it back (a text input's
 * string), appended to b; 0, or -1 when a text value holds ',' or '='. */
static int
put_value(sf_text *b, const sf_dataset *d, size_t j, double at)
{
	const sf_dataset_input *in = &d->inputs[j];
	char num[40];

	if (in->levels == NULL) {
		sf_text_puts(b, sf_format_double(num, sizeof num, at));
		return 0;
	}
	if (strpbrk(in->levels[(size_t)at], ",=") != NULL)
		return -1;
	sf_text_puts(b, in->levels[(size_t)at]);
	return 0;
}

/* `scalefit next`'s --target and --over where r's members part (x at
 * r->apart_at, the rest at row of g's training rows; discover.h:
 * apart_target), when that lies beyond the training rows: inside them the
 * members agree, fitted there.  Returns SF_OK or SF_ENOMEM. */
static int
next_arguments(sf_discover_result *r, const sf_grammar *g, size_t x, size_t row,
               sf_error *err)
{
	const sf_dataset *d = g->d;
	const double top = g->ch.levels[g->ch.nlevels - 1];
	sf_text target = SF_TEXT_INIT, over = SF_TEXT_INIT;
	const char *sep = "";
	char num[40];
	int bad = 0;

	if (!(r->apart_at > top))
		return SF_OK;
	for (size_t j = 0; j < d->ninputs; j++) {
		if (!sf_discover_written_input(r, d->inputs[j].name))
			continue;
		sf_text_printf(&target, "%s%s=", sep, d->inputs[j].name);
		bad |=
		    put_value(&target, d, j,
		              j == x ? r->apart_at : d->inputs[j].values[row]);
		sep = ",";
	}
	/* the top level and its doublings up to the point: the runs whose
	 * results the members predict apart */
	sf_text_printf(&over, "%s=", d->inputs[x].name);
	for (double v = top; v < r->apart_at; v *= 2)
		sf_text_printf(&over, "%s,",
		               sf_format_double(num, sizeof num, v));
	sf_text_puts(&over, sf_format_double(num, sizeof num, r->apart_at));
	if (!bad) {
		r->apart_target = sf_text_take(&target);
		r->apart_over = sf_text_take(&over);
		if (r->apart_target == NULL || r->apart_over == NULL)
			return sf_error_set(err, SF_ENOMEM, "out of memory");
	}
	sf_text_free(&target);
	sf_text_free(&over);
	return SF_OK;
}

/* How far r's members part beyond g's training rows along input x, the
 * chain's, at the top level's median-time row with x at `to` (0: twice
 * the top level; discover.h: apart_*).  Returns SF_OK or an evaluation's
 * error. */
static int
members_apart(sf_discover_result *r, const sf_grammar *g, size_t x, size_t row,
              double to, sf_error *err)
{
	const sf_dataset *d = g->d;
	double top = g->ch.levels[g->ch.nlevels - 1];
	int rc = SF_OK;

	r->apart_at = r->apart_low = r->apart_high = NAN;
	r->apart_line = 0;
	if (r->nmembers < 2 || !(top > 0))
		return SF_OK;
	r->apart_at = to > 0 ? to : 2 * top;
	r->apart_low = INFINITY;
	r->apart_high = -INFINITY;
	for (size_t i = 0; i < r->nmembers && rc == SF_OK; i++) {
		double y;

		if ((rc = predict_at(&r->board[r->members[i]], d, row, x,
		                     r->apart_at, &y, err)) != SF_OK)
			break;
		r->apart_low = y < r->apart_low ? y : r->apart_low;
		r->apart_high = y > r->apart_high ? y : r->apart_high;
	}
	r->apart_line = d->lines[row];
	return rc == SF_OK ? next_arguments(r, g, x, row, err) : rc;
}

/* The winner's pace beyond g's training rows along input x against the
 * measured pace of their two largest levels, at the top level's
 * median-time row (discover.h: pace_*).  Returns SF_OK, SF_ENOMEM or an
 * evaluation's error. */
static int
winner_pace(sf_discover_result *r, const sf_grammar *g, size_t x, size_t row,
            sf_error *err)
{
	const sf_chain *ch = &g->ch;
	const double top = ch->levels[ch->nlevels - 1];
	const double below = ch->levels[ch->nlevels - 2];
	const sf_discover_candidate *w = &r->board[r->winner];
	double y_below, at_top, beyond;
	size_t at_below;
	int rc;

	r->pace_beyond = r->pace_measured = NAN;
	r->pace_line = r->pace_faster = 0;
	if (!(below > 0) || w->model != NULL)
		return SF_OK;
	if ((rc = median_row(g, ch->nlevels - 2, row, x, &at_below, err)) !=
	        SF_OK ||
	    at_below == SIZE_MAX)
		return rc;
	y_below = g->d->output[at_below];
	if (!(y_below > 0) || !(g->d->output[row] > 0))
		return SF_OK;
	if ((rc = predict_at(w, g->d, row, x, top, &at_top, err)) != SF_OK ||
	    (rc = predict_at(w, g->d, row, x, 2 * top, &beyond, err)) != SF_OK)
		return rc;
	if (!(at_top > 0) || !isfinite(beyond))
		return SF_OK;
	r->pace_beyond = beyond / at_top;
	r->pace_measured =
	    pow(g->d->output[row] / y_below, 1 / log2(top / below));
	r->pace_line = g->d->lines[row];
	r->pace_faster =
	    r->pace_beyond < r->pace_measured - SF_DISCOVER_PACE_SLACK;
	return SF_OK;
}

/* The model file's formula of r's board with the best score that can lead
 * an ensemble (not the library's, no input of its own): its index, or
 * SIZE_MAX. */
static size_t
best_file_formula(const sf_discover_result *r)
{
	size_t best = SIZE_MAX;

	for (size_t i = 0; i < r->nboard; i++) {
		const sf_discover_candidate *c = &r->board[i];

		if (sf_board_file_member(c) && isfinite(c->score) &&
		    (best == SIZE_MAX || c->score < r->board[best].score))
			best = i;
	}
	return best;
}

/* How fast r's winner and the model file's best formula part ways beyond
 * g's training rows along input x (discover.h: disagreement).  Returns
 * SF_OK or an evaluation's error. */
static int
formulas_part(sf_discover_result *r, const sf_grammar *g, size_t x,
              sf_error *err)
{
	const sf_chain *ch = &g->ch;
	const size_t top = ch->nlevels - 1, file = best_file_formula(r);
	const double level = ch->levels[top];
	double sxy = 0, sxx = 0;
	int rc = SF_OK;

	r->disagreement = NAN;
	r->disagreement_with = SIZE_MAX;
	r->disagreement_shown = 0;
	if (file == SIZE_MAX || !(level > 0))
		return SF_OK;
	for (size_t i = ch->start[top]; i < ch->start[top + 1]; i++)
		for (int k = 1; k <= 2 && rc == SF_OK; k++) {
			double found, given;

			if ((rc = predict_at(&r->board[r->winner], g->d,
			                     ch->row[i], x, ldexp(level, k),
			                     &found, err)) != SF_OK ||
			    (rc = predict_at(&r->board[file], g->d, ch->row[i],
			                     x, ldexp(level, k), &given,
			                     err)) != SF_OK)
				break;
			if (found > 0 && given > 0 && isfinite(found) &&
			    isfinite(given)) {
				sxy += k * log(found / given);
				sxx += k * k;
			}
		}
	if (rc == SF_OK && sxx > 0) {
		r->disagreement = sxy / sxx;
		r->disagreement_with = file;
		for (size_t m = 0; m < r->nmembers; m++)
			if (r->members[m] == file)
				r->disagreement_shown = 1;
	}
	return rc;
}

/* 1 when the held-back check ran and held: the search without the top
 * level predicted it better than the file's formula did. */
static int
check_held(const sf_discover_heldback *h)
{
	return isfinite(h->level) && isfinite(h->found_slow) && h->rows >= 2 &&
	       !h->refuted;
}

/* The most the change of regime at the top level may be by what a held
 * search without that level saw: its choice's miss there per doubling
 * and the one-sided 95% of that mean's noise (INFINITY when the check did
 * not hold).  The file's formula's miss beyond it is its own shape's
 * (whole steps it does not take, a term it lacks): the search's shape was
 * chosen without the level.  Below 0 the search foresaw the level. */
static double
regime_bound(const sf_discover_heldback *h)
{
	if (!check_held(h))
		return INFINITY;
	return h->found_slow +
	       gsl_cdf_tdist_Pinv(SF_INTERVAL_LEVEL, (double)(h->rows - 1)) *
	           h->found_slow_se;
}

/* The regime check of the model file's best formula (discover.h:
 * regime) into r: that formula of given[0..ngiven), fitted again on the
 * training rows of o under the prior of the file r writes (its
 * disagreement: formulas_part first).  Returns SF_OK, or
 * sf_given_regime's errors. */
static int
file_regime(sf_discover_result *r, const sf_problem *given, size_t ngiven,
            const sf_discover_options *o, sf_error *err)
{
	const size_t file = best_file_formula(r);
	double regime = NAN, bound;
	int rc = SF_OK;

	for (size_t i = 0; i < ngiven && file != SIZE_MAX; i++)
		if (strcmp(given[i].model->name, r->board[file].model) == 0) {
			rc = sf_given_regime(
			    &given[i], o, r->extrapolate,
			    sf_discover_written_disagreement(r), &regime, err);
			break;
		}
	bound = regime_bound(&r->held);
	if (rc == SF_OK && isfinite(regime) && bound > 0) {
		r->regime = fmin(regime, bound);
		r->regime_bounded = bound < regime;
		r->regime_with = file;
	}
	return rc;
}

/* The MAPE, percent, of candidate c over the rows of level l of g's chain
 * (INFINITY when a prediction is not finite) into *mape; when slow is not
 * NULL, the mean of ln(time / prediction) there into *slow (NaN when a
 * time or prediction is not positive) and its standard error into *se.
 * Returns SF_OK or an evaluation's error. */
static int
level_errors(const sf_discover_candidate *c, const sf_grammar *g, size_t l,
             size_t x, double *mape, double *slow, double *se, sf_error *err)
{
	const sf_chain *ch = &g->ch;
	const size_t n = ch->start[l + 1] - ch->start[l];
	double sum = 0, s1 = 0, s2 = 0;
	int rc = SF_OK;

	for (size_t i = ch->start[l]; i < ch->start[l + 1] && rc == SF_OK;
	     i++) {
		size_t row = ch->row[i];
		double y = g->d->output[row], f, e;

		if ((rc = predict_at(c, g->d, row, x,
		                     g->d->inputs[x].values[row], &f, err)) !=
		    SF_OK)
			break;
		sum += isfinite(f) ? fabs(y - f) / fabs(y) : INFINITY;
		e = y > 0 && f > 0 && isfinite(f) ? log(y / f) : NAN;
		s1 += e;
		s2 += e * e;
	}
	*mape = 100 * sum / (double)n;
	if (slow != NULL) {
		double m = s1 / (double)n;
		double v =
		    n > 1 ? (s2 - (double)n * m * m) / (double)(n - 1) : NAN;

		*slow = m;
		*se = sqrt((v > 0 ? v : 0) / (double)n);
	}
	return rc;
}

static int search(const sf_model *m, const sf_model_discover *s,
                  const sf_dataset *d, const sf_problem *given, size_t ngiven,
                  const sf_discover_options *o, int check,
                  sf_discover_result **out, sf_error *err);

/* The held-back check (discover.h: sf_discover_heldback) of r, whose
 * training rows g holds along input st's extrapolated one, searched with
 * m, s, d, given and o as r was; on a refutation r's ensemble is chosen
 * again.  The inner search has what is left of st's time limit: none
 * left, no check.  Returns SF_OK (also when the check cannot run),
 * SF_ENOMEM or an evaluation's error. */
static int
held_back(sf_discover_result *r, const sf_model *m, const sf_model_discover *s,
          const sf_dataset *d, const sf_problem *given, size_t ngiven,
          const sf_discover_options *o, const sf_setup *st, const sf_grammar *g,
          sf_error *err)
{
	sf_discover_heldback *h = &r->held;
	const size_t top = g->ch.nlevels - 1, x = (size_t)st->extrap;
	const double left = st->time_limit - sf_clock_seconds_since(&st->start);
	sf_discover_options inner = *o;
	sf_discover_result *n = NULL;
	sf_text train = SF_TEXT_INIT;
	size_t found, file, lead = SIZE_MAX, nfile = 0;
	sf_error ignored;
	int rc;

	h->level = h->found_mape = h->file_mape = NAN;
	h->found_slow = h->found_slow_se = NAN;
	if (g->ch.nlevels < 4 || best_file_formula(r) == SIZE_MAX ||
	    (st->time_limit > 0 && !(left > 0)))
		return SF_OK;
	if (st->time_limit > 0)
		inner.fit.time_limit = left;
	/* the rows below the top level: its value written exactly */
	sf_text_printf(&train, "%s%s%s%s < %.17g", o->train != NULL ? "(" : "",
	               o->train != NULL ? o->train : "",
	               o->train != NULL ? ") && " : "", r->extrapolate,
	               g->ch.levels[top]);
	if (train.failed) {
		sf_text_free(&train);
		return sf_error_set(err, SF_ENOMEM, "out of memory");
	}
	inner.train = train.data;
	/* the model file's formulas only (the library's follow them): the
	 * check judges the search against the file */
	while (nfile < ngiven &&
	       given[nfile].model->name[0] != SF_LIBRARY_PREFIX)
		nfile++;
	rc = search(m, s, d, given, nfile, &inner, 0, &n, &ignored);
	sf_text_free(&train);
	if (rc != SF_OK)
		return rc == SF_ENOMEM
		           ? sf_error_set(err, SF_ENOMEM, "out of memory")
		           : SF_OK;
	found = n->winner;
	/* a search the time limit cut short is not the one judged */
	file = n->time_limit_reached ? SIZE_MAX : best_file_formula(n);
	if (file != SIZE_MAX &&
	    (rc = level_errors(&n->board[found], g, top, x, &h->found_mape,
	                       &h->found_slow, &h->found_slow_se, err)) ==
	        SF_OK &&
	    (rc = level_errors(&n->board[file], g, top, x, &h->file_mape, NULL,
	                       NULL, err)) == SF_OK) {
		const double doublings =
		    log2(g->ch.levels[top] / g->ch.levels[top - 1]);

		h->level = g->ch.levels[top];
		h->rows = g->ch.start[top + 1] - g->ch.start[top];
		/* per doubling from the level below, where the inner search's
		 * rows end (none for levels that are not positive) */
		h->found_slow = doublings > 0 ? h->found_slow / doublings : NAN;
		h->found_slow_se =
		    doublings > 0 ? h->found_slow_se / doublings : NAN;
		h->found = sf_text_dup(n->board[found].formula);
		h->file = sf_text_dup(n->board[file].model);
		if (h->found == NULL || h->file == NULL)
			rc = sf_error_set(err, SF_ENOMEM, "out of memory");
	}
	h->refuted =
	    rc == SF_OK && h->file != NULL && h->file_mape < h->found_mape;
	for (size_t i = 0; h->refuted && i < r->nboard; i++)
		if (r->board[i].model != NULL && !r->board[i].library &&
		    strcmp(r->board[i].model, h->file) == 0)
			lead = i;
	if (lead != SIZE_MAX)
		sf_board_lead(r, lead, st->members);
	else
		h->refuted = 0;
	sf_discover_result_free(n);
	return rc;
}

int
sf_discover_run(const sf_model *m, const sf_model_discover *s,
                const sf_dataset *d, const sf_problem *given, size_t ngiven,
                const sf_discover_options *o, sf_discover_result **out,
                sf_error *err)
{
	return search(m, s, d, given, ngiven, o, 1, out, err);
}

/* sf_discover_run; with check 0 (the held-back check's inner search, read
 * for its winner) without the check and without what the report says
 * beyond the rows. */
static int
search(const sf_model *m, const sf_model_discover *s, const sf_dataset *d,
       const sf_problem *given, size_t ngiven, const sf_discover_options *o,
       int check, sf_discover_result **out, sf_error *err)
{
	sf_discover_result *r = calloc(1, sizeof *r);
	sf_discover_candidate *scored = NULL;
	sf_dataset *train = NULL;
	struct timespec start;
	sf_search se = {0};
	sf_grammar g = {0};
	sf_setup st = {0};
	size_t top_row = 0;
	int rc;

	*out = NULL;
	sf_clock_now(&start);
	if (r == NULL)
		return sf_error_set(err, SF_ENOMEM, "out of memory");
	r->disagreement = NAN; /* not measured (check 0) */
	r->disagreement_with = SIZE_MAX;
	r->regime = NAN;
	r->regime_with = SIZE_MAX;
	if ((rc = sf_setup_make(m, s, d, o, &st, err)) != SF_OK ||
	    (rc = sf_discover_split(d, o->train, &train, &r->held_out, err)) !=
	        SF_OK ||
	    (rc = sf_grammar_make(m, train, &st, &g, err)) != SF_OK)
		goto done;
	if (describe(r, &g, &st, o->train) != 0) {
		rc = sf_error_set(err, SF_ENOMEM, "out of memory");
		goto done;
	}
	if ((rc = sf_search_open(&se, &g, &st, o->threads, err)) != SF_OK ||
	    (rc = sf_search_run(&se, err)) != SF_OK)
		goto done;
	r->evaluated = se.n;
	/* the search says that it stopped early; at fewer formulas than
	 * the budget it was the time limit (sf_setup_stop) */
	r->budget_reached = se.budget_reached && se.n >= st.budget;
	r->time_limit_reached = se.budget_reached && se.n < st.budget;
	r->seconds = sf_clock_seconds_since(&start);
	if ((rc = score_given(m, given, ngiven, o, &st, &g, &scored, err)) ==
	    SF_OK)
		rc = sf_board_make(r, &se, &st, scored, ngiven, err);
	/* the held-back check and what the report says beyond the rows: the
	 * outer search's (the check's inner one is read for its winner) */
	if (check) {
		if (rc == SF_OK)
			rc = held_back(r, m, s, d, given, ngiven, o, &st, &g,
			               err);
		if (rc == SF_OK)
			rc = median_row(&g, g.ch.nlevels - 1, SIZE_MAX, 0,
			                &top_row, err);
		if (rc == SF_OK)
			rc = members_apart(r, &g, (size_t)st.extrap, top_row,
			                   o->to, err);
		if (rc == SF_OK)
			rc =
			    winner_pace(r, &g, (size_t)st.extrap, top_row, err);
		if (rc == SF_OK)
			rc = formulas_part(r, &g, (size_t)st.extrap, err);
		if (rc == SF_OK)
			rc = file_regime(r, given, ngiven, o, err);
	}
done:
	for (size_t i = 0; scored != NULL && i < ngiven; i++)
		sf_board_candidate_free(&scored[i]);
	free(scored);
	sf_search_close(&se);
	sf_grammar_free(&g);
	sf_dataset_free(train);
	sf_setup_free(&st);
	if (rc != SF_OK) {
		sf_discover_result_free(r);
		return rc;
	}
	*out = r;
	return SF_OK;
}

int
sf_discover_shapes(const sf_model *m, const sf_model_discover *s,
                   const sf_dataset *d, const sf_discover_options *o,
                   char ***shapes, size_t *n, sf_error *err)
{
	sf_dataset *train = NULL;
	size_t held;
	sf_grammar g = {0};
	sf_setup st = {0};
	int rc;

	*shapes = NULL;
	*n = 0;
	if ((rc = sf_setup_make(m, s, d, o, &st, err)) != SF_OK ||
	    (rc = sf_discover_split(d, o->train, &train, &held, err)) !=
	        SF_OK ||
	    (rc = sf_grammar_make(m, train, &st, &g, err)) != SF_OK)
		goto done;
	if ((*shapes = calloc(g.nshapes + 1, sizeof **shapes)) == NULL) {
		rc = sf_error_set(err, SF_ENOMEM, "out of memory");
		goto done;
	}
	for (size_t i = 0; i < g.nshapes; i++) {
		sf_text b = SF_TEXT_INIT;

		sf_shape_text(&b, train, &st, &g.shapes[i], -1, NULL, NULL);
		if (((*shapes)[i] = sf_text_take(&b)) == NULL) {
			rc = sf_error_set(err, SF_ENOMEM, "out of memory");
			goto done;
		}
		(*n)++;
	}
done:
	if (rc != SF_OK && *shapes != NULL) {
		for (size_t i = 0; i < *n; i++)
			free((*shapes)[i]);
		free(*shapes);
		*shapes = NULL;
		*n = 0;
	}
	sf_grammar_free(&g);
	sf_dataset_free(train);
	sf_setup_free(&st);
	return rc;
}
