/*
 * board.c - the board: everything ranked, the tie band, and the
 * candidates written out with their terms, constants, bounds and texts
 * (board.h); a result freed (discover.h).
 */
#include "discover/board.h"
#include "fit/stats.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The Gram matrices' stride, and a formula's most columns. */
enum { MAXC = SF_SCORE_MAXC };

static void
term_free(sf_discover_term *t)
{
	free(t->name);
	free(t->shape);
	free(t->expr);
	for (size_t q = 0; q < SF_DISCOVER_TERM_PARAMS; q++)
		free(t->param[q]);
}

/* Release g's strings and arrays (not g). */
static void
given_free(sf_discover_given *g)
{
	for (size_t i = 0; i < g->nparams; i++)
		free(g->params[i].name);
	free(g->params);
	for (size_t t = 0; t < g->nterms; t++) {
		free(g->terms[t].name);
		free(g->terms[t].expr);
	}
	free(g->terms);
	free(g->time);
}

void
sf_board_candidate_free(sf_discover_candidate *c)
{
	free(c->model);
	given_free(&c->given);
	free(c->formula);
	for (size_t t = 0; t < c->nterms; t++)
		term_free(&c->terms[t]);
	free(c->terms);
	free(c->fold_mape);
}

void
sf_discover_result_free(sf_discover_result *r)
{
	if (r == NULL)
		return;
	free(r->extrapolate);
	free(r->train);
	free(r->count);
	free(r->workers);
	free(r->batch);
	for (size_t i = 0; i < r->ninputs; i++)
		free(r->inputs[i]);
	free(r->inputs);
	free(r->levels);
	free(r->fold_last);
	free(r->fold_rows);
	for (size_t i = 0; i < r->nboard; i++)
		sf_board_candidate_free(&r->board[i]);
	free(r->board);
	free(r->held.found);
	free(r->held.file);
	free(r->apart_target);
	free(r->apart_over);
	free(r);
}

/* An upper bound no fit will reach: a term of non-negative constants
 * cannot exceed the time of any row, so c <= min y / s over the rows
 * where s > 0; ten times that, rounded up to a power of 10. */
static double
upper_bound(const sf_grammar *g, const double *s)
{
	double least = INFINITY;

	for (size_t r = 0; r < g->rows; r++)
		if (s[r] > 0 && g->y[r] / s[r] < least)
			least = g->y[r] / s[r];
	if (!(least > 0) || !isfinite(least))
		return 1;
	return pow(10, ceil(log10(10 * least)));
}

/* The comma between the two parts of an overlap's shape "max(U, V)" (sh
 * starts "max("): the first outside U's parentheses, U and V may hold a
 * max() of their own (the whole steps rounded down, max(1, floor(n / (p *
 * b)))); NULL when sh is not one max() but a product that starts with
 * one. */
static const char *
overlap_comma(const char *sh)
{
	const char *comma = NULL;
	int depth = 0;

	for (const char *s = sh + 4; *s != '\0'; s++) {
		if (*s == '(')
			depth++;
		else if (*s == ')' && --depth < 0)
			return s[1] == '\0' ? comma : NULL;
		else if (*s == ',' && depth == 0 && comma == NULL)
			comma = s;
	}
	return NULL;
}

char *
sf_board_formula_text(const sf_discover_candidate *c)
{
	sf_text b = SF_TEXT_INIT;

	for (size_t t = 0; t < c->nterms; t++) {
		const sf_discover_term *x = &c->terms[t];
		char v[32], w[32];
		const char *sh = x->shape, *comma = NULL;

		snprintf(v, sizeof v, "%.4g", x->value[0]);
		if (t > 0)
			sf_text_printf(&b, " + ");
		if (x->nparams == 2 && strncmp(sh, "max(", 4) == 0 &&
		    (comma = overlap_comma(sh)) != NULL) {
			/* sh is "max(U, V)": the constants go in front */
			const char *u = sh + 4, *second = comma + 2;
			int nu = (int)(comma - u), nv = (int)strlen(second) - 1;

			snprintf(w, sizeof w, "%.4g", x->value[1]);
			sf_text_printf(&b, "max(%s", v);
			if (u[0] == '1' && u[1] == ' ')
				sf_text_printf(&b, "%.*s, ", nu - 1, u + 1);
			else
				sf_text_printf(&b, " * %.*s, ", nu, u);
			sf_text_printf(&b, "%s", w);
			if (second[0] == '1' && second[1] == ' ')
				sf_text_printf(&b, "%.*s)", nv - 1, second + 1);
			else
				sf_text_printf(&b, " * %.*s)", nv, second);
		} else if (strcmp(sh, "1") == 0) {
			sf_text_printf(&b, "%s", v);
		} else if (x->nparams == 2) {
			/* x^e: the fitted exponent written in */
			char e[32];
			const char *at = strstr(sh, "^e_");
			snprintf(e, sizeof e, "%.3g", x->value[1]);
			sf_text_printf(&b, "%s * %.*s^%s%s%s", v,
			               (int)(at - sh), sh,
			               x->value[1] < 0 ? "(" : "", e,
			               x->value[1] < 0 ? ")" : "");
			at += 1;
			while (*at == '_' || (*at >= 'a' && *at <= 'z') ||
			       (*at >= '0' && *at <= '9'))
				at++;
			sf_text_printf(&b, "%s", at);
		} else if (sh[0] == '1' && sh[1] == ' ') {
			sf_text_printf(&b, "%s%s", v, sh + 1);
		} else {
			sf_text_printf(&b, "%s * %s", v, sh);
		}
	}
	return sf_text_take(&b);
}

static const char *
kind_word(sf_term_kind kind)
{
	switch (kind) {
	case SF_TERM_COMPUTE:
		return "compute";
	case SF_TERM_COMMUNICATION:
		return "comm";
	case SF_TERM_IO:
		return "io";
	case SF_TERM_OVERHEAD:
		return "overhead";
	default:
		return "other";
	}
}

/* Name the terms by kind: compute, compute2, comm, ... */
static int
name_terms(sf_discover_candidate *c)
{
	size_t seen[5] = {0};

	for (size_t t = 0; t < c->nterms; t++) {
		sf_discover_term *x = &c->terms[t];
		char name[40];
		size_t n = ++seen[x->kind];

		if (n > 1)
			snprintf(name, sizeof name, "%s%zu", kind_word(x->kind),
			         n);
		else
			snprintf(name, sizeof name, "%s", kind_word(x->kind));
		if ((x->name = sf_text_dup(name)) == NULL)
			return -1;
	}
	return 0;
}

/* name, with '_' appended while it is the name of one of d's inputs: a
 * constant named as an input would not load (an input named t0). */
static void
avoid_inputs(char *name, size_t size, const sf_dataset *d)
{
	while (sf_dataset_input_find(d, name) != NULL &&
	       strlen(name) + 1 < size)
		strcat(name, "_");
}

/* The term's constants' names and its expression over them: u's
 * constant c_NAME; an overlap's other shape v's h_NAME when v is of the
 * term's kind, else h_KIND, named by the kind of that shape (vkind): in
 * max(c_comm * log2(p), h_compute / p^(1/2)) the second is split over
 * the workers.  A formula has one variant, so one h_ constant at most. */
static int
term_expression(const sf_dataset *d, sf_discover_term *x, const char *u,
                const char *v, sf_term_kind vkind)
{
	char p0[64], p1[64];
	sf_text b = SF_TEXT_INIT;

	if (x->kind == SF_TERM_OVERHEAD) {
		snprintf(p0, sizeof p0, "t0");
		avoid_inputs(p0, sizeof p0, d);
		sf_text_printf(&b, "%s", p0);
	} else {
		snprintf(p0, sizeof p0, "c_%s", x->name);
		avoid_inputs(p0, sizeof p0, d);
		snprintf(p1, sizeof p1, "%s_%s", v != NULL ? "h" : "e",
		         v != NULL && vkind != x->kind ? kind_word(vkind)
		                                       : x->name);
		avoid_inputs(p1, sizeof p1, d);
		if (v != NULL)
			sf_text_printf(&b, "max(%s * %s, %s * %s)", p0, u, p1,
			               v);
		else if (strcmp(u, "1") == 0)
			sf_text_printf(&b, "%s", p0);
		else if (u[0] == '1' && u[1] == ' ')
			sf_text_printf(&b, "%s%s", p0, u + 1);
		else
			sf_text_printf(&b, "%s * %s", p0, u);
		if (x->nparams == 2 && (x->param[1] = sf_text_dup(p1)) == NULL)
			b.failed = 1;
	}
	x->param[0] = sf_text_dup(p0);
	x->expr = sf_text_take(&b);
	return x->param[0] != NULL && x->expr != NULL ? 0 : -1;
}

/* Term t of c (the start-up, or from e's q-th shape) with its kind,
 * constants and bounds, from the constants x (k of them, a variant's
 * last; theta its non-linear one) and, for a fitted exponent, its column
 * in ws->z2. */
static void
term_constants(const sf_grammar *g, const sf_setup *st, const sf_score_ws *ws,
               const sf_entry *e, size_t q, const double *x, size_t k,
               double theta, const double *col, sf_discover_term *y)
{
	y->kind = sf_shape_kind(st, &g->shapes[e->atom[q]]);
	y->nparams = 1;
	if (e->variant == SF_VARIANT_NONE || q != e->a) {
		y->value[0] = *x;
		y->upper[0] = upper_bound(g, col);
		return;
	}
	/* the variant's column is the last; its constants */
	y->nparams = 2;
	y->value[0] = x[k - 1];
	if (e->variant == SF_VARIANT_OVERLAP) {
		y->value[1] = x[k - 1] * theta;
		y->upper[0] =
		    upper_bound(g, g->col + (size_t)e->atom[e->a] * g->rows);
		y->upper[1] =
		    upper_bound(g, g->col + (size_t)e->atom[e->b] * g->rows);
	} else {
		y->value[1] = theta;
		y->lower[1] = e->lo;
		y->upper[1] = e->hi;
		y->upper[0] = upper_bound(g, ws->z2);
	}
}

/* c's scores, folds and terms with their constants for e: from a fit that
 * takes the columns in order (the folds' MAPE and the MAPE on every row
 * with it), the score and AICc those the search ranked. */
static int
candidate_constants(const sf_grammar *g, const sf_setup *st, sf_score_ws *ws,
                    sf_entry *e, sf_discover_candidate *c)
{
	double fold[256], x[MAXC], theta = NAN;
	double *foldp = g->ch.nfolds <= 256 ? fold : NULL;
	const double *cols[MAXC];
	size_t k = sf_entry_columns(g, e, cols), t = 1, col = 1;
	sf_score searched = e->sc;

	sf_score_entry(g, ws, e, foldp, x, &theta);
	e->sc.score = searched.score;
	e->sc.aicc = searched.aicc;
	if (e->variant != SF_VARIANT_NONE)
		sf_entry_variant_column(g, e, theta, ws->z2, g->rows);
	c->k = e->k;
	c->score = e->sc.score;
	c->mape = e->sc.mape;
	c->aicc = e->sc.aicc;
	c->nterms = 1 + e->nterms - (e->variant == SF_VARIANT_OVERLAP);
	c->terms = calloc(c->nterms, sizeof *c->terms);
	c->fold_mape = malloc((g->ch.nfolds + 1) * sizeof *c->fold_mape);
	if (c->terms == NULL || c->fold_mape == NULL)
		return -1;
	for (size_t f = 0; f < g->ch.nfolds; f++)
		c->fold_mape[f] = foldp != NULL ? fold[f] : NAN;
	c->terms[0].kind = SF_TERM_OVERHEAD;
	c->terms[0].nparams = 1;
	c->terms[0].value[0] = x[0];
	c->terms[0].upper[0] = upper_bound(g, g->ones);
	if ((c->terms[0].shape = sf_text_dup("1")) == NULL)
		return -1;
	for (size_t q = 0; q < e->nterms; q++) {
		int linear = e->variant == SF_VARIANT_NONE || q != e->a;

		if (e->variant == SF_VARIANT_OVERLAP && q == e->b)
			continue;
		term_constants(g, st, ws, e, q, linear ? &x[col] : x, k, theta,
		               linear ? cols[col] : NULL, &c->terms[t++]);
		col += linear;
	}
	return 0;
}

/* Term y's shape (e's q-th; an overlap's pair in a max()) and its
 * expression, its name being known. */
static int
term_texts(const sf_grammar *g, const sf_setup *st, const sf_entry *e, size_t q,
           sf_discover_term *y)
{
	sf_text u = SF_TEXT_INIT, v = SF_TEXT_INIT, full = SF_TEXT_INIT;
	char ename[64];
	int named = -1, rc = -1;

	snprintf(ename, sizeof ename, "e_%s", y->name);
	avoid_inputs(ename, sizeof ename, g->d);
	if (e->variant == SF_VARIANT_EXPONENT && q == e->a)
		named = e->b;
	sf_shape_text(&u, g->d, st, &g->shapes[e->atom[q]], named, ename, NULL);
	if (e->variant != SF_VARIANT_OVERLAP || q != e->a) {
		y->shape = sf_text_take(&u);
		return y->shape != NULL ? term_expression(g->d, y, y->shape,
		                                          NULL, SF_TERM_OTHER)
		                        : -1;
	}
	sf_shape_text(&v, g->d, st, &g->shapes[e->atom[e->b]], -1, NULL, NULL);
	if (!u.failed && !v.failed) {
		sf_text_printf(&full, "max(%s, %s)", u.data, v.data);
		y->shape = sf_text_take(&full);
		if (y->shape != NULL)
			rc = term_expression(
			    g->d, y, u.data, v.data,
			    sf_shape_kind(st, &g->shapes[e->atom[e->b]]));
	}
	sf_text_free(&u);
	sf_text_free(&v);
	return rc;
}

/* Board entry c for discovered formula e: its constants, terms, texts.
 * Returns 0, or -1 when out of memory (c is the caller's to free). */
static int
candidate_from_entry(const sf_grammar *g, const sf_setup *st, sf_score_ws *ws,
                     sf_entry *e, sf_discover_candidate *c)
{
	size_t t = 1;

	memset(c, 0, sizeof *c);
	if (candidate_constants(g, st, ws, e, c) != 0 || name_terms(c) != 0)
		return -1;
	/* shapes and expressions, now that the names are known */
	for (size_t q = 0; q < e->nterms; q++) {
		if (e->variant == SF_VARIANT_OVERLAP && q == e->b)
			continue;
		if (term_texts(g, st, e, q, &c->terms[t++]) != 0)
			return -1;
	}
	if (term_expression(g->d, &c->terms[0], "1", NULL, SF_TERM_OTHER) !=
	        0 ||
	    (c->formula = sf_board_formula_text(c)) == NULL)
		return -1;
	return 0;
}

/* Everything ranked into all: the search's formulas (one that failed or
 * is its simpler self is not the answer, whatever its score) and the
 * given ones after them. */
static void
rank_all(const sf_search *s, const sf_discover_candidate *given, size_t ngiven,
         sf_ranked *all)
{
	for (size_t i = 0; i < s->n; i++) {
		all[i] = sf_ranked_of(&s->e[i], i);
		if (!s->e[i].sc.valid || s->e[i].sc.redundant)
			all[i].score = INFINITY;
	}
	for (size_t i = 0; i < ngiven; i++) {
		sf_ranked x = {given[i].score,
		               given[i].se,
		               given[i].aicc,
		               given[i].k,
		               SIZE_MAX,
		               s->n + i,
		               0,
		               0};
		if (!(x.score == x.score))
			x.score = INFINITY;
		if (!(x.aicc == x.aicc))
			x.aicc = INFINITY;
		all[s->n + i] = x;
	}
}

/* The tie: within two standard errors of the best score, or within tie
 * of it if that is wider.  Breiman's rule takes one; the best of
 * thousands of noisy scores is lower than its formula's real error by
 * about one more. */
static double
tie_band(sf_search *s, const sf_setup *st, const sf_ranked *all, size_t n,
         double best)
{
	double band = best * st->space.tie;

	for (size_t i = 0; i < n; i++) {
		double fold[256];
		sf_entry copy;

		if (all[i].score != best)
			continue;
		/* a given formula's was found with its score */
		if (all[i].index >= s->n) {
			if (2 * all[i].se > band)
				band = 2 * all[i].se;
			continue;
		}
		/* the search leaves standard errors out: only the best's
		 * is needed */
		if (s->g->ch.nfolds > 256)
			continue;
		copy = s->e[all[i].index];
		sf_score_entry(s->g, &s->ws[0], &copy, fold, NULL, NULL);
		if (2 * copy.sc.se > band)
			band = 2 * copy.sc.se;
	}
	return band;
}

/* Mark the tied, and among them the supported: the lowest AICc among the
 * tied of each number of constants, and those within 10 of it. */
static void
mark_tied(sf_ranked *all, size_t n, double best, double band)
{
	double lowest[MAXC + 2];

	for (size_t i = 0; i < n; i++)
		all[i].tied = all[i].score <= best + band + 1e-12;
	for (size_t k = 0; k < MAXC + 2; k++)
		lowest[k] = INFINITY;
	for (size_t i = 0; i < n; i++)
		if (all[i].tied && all[i].k < MAXC + 2 &&
		    all[i].aicc < lowest[all[i].k])
			lowest[all[i].k] = all[i].aicc;
	for (size_t i = 0; i < n; i++)
		all[i].supported =
		    all[i].tied && all[i].k < MAXC + 2 &&
		    (all[i].aicc <= lowest[all[i].k] + SF_AICC_NO_SUPPORT ||
		     !isfinite(lowest[all[i].k]));
}

/* 1 when a discovered formula of r's board reads as formula. */
static int
on_board(const sf_discover_result *r, const char *formula)
{
	for (size_t q = 0; q < r->nboard; q++)
		if (r->board[q].model == NULL &&
		    strcmp(r->board[q].formula, formula) == 0)
			return 1;
	return 0;
}

/* a and b alike to the normal equations' rounding (two twins' fits
 * solve differently scaled Gram matrices: they differ near 1e-8). */
static int
close_to(double a, double b)
{
	return fabs(a - b) <= 1e-6 * (fabs(a) + fabs(b)) + 1e-300;
}

/* 1 when a formula of r's board (a discovered one, or any with
 * any_origin) fits the training rows exactly as c does, with as many
 * constants: a twin (t0 + c (p - 1) and t0' + c p, or b and b^2 where b
 * takes two values, when both fits have a start-up >= 0; a library
 * formula that is the model file's own), the same answer on the rows and
 * their folds, shown once. */
static int
twin_on_board(const sf_discover_result *r, const sf_discover_candidate *c,
              int any_origin)
{
	for (size_t q = 0; q < r->nboard; q++) {
		const sf_discover_candidate *o = &r->board[q];

		if ((o->model == NULL || any_origin) && o->k == c->k &&
		    close_to(o->score, c->score) &&
		    close_to(o->aicc, c->aicc) && close_to(o->mape, c->mape))
			return 1;
	}
	return 0;
}

/* The board entry of x, if it has one: a given formula, moved over, or
 * one of the top discovered ones (*shown so far), once: an exponent
 * fitted from two grid values is one formula reached two ways.  Returns
 * 0, or -1 when out of memory. */
static int
board_add(sf_discover_result *r, sf_search *s, const sf_setup *st,
          sf_discover_candidate *given, const sf_ranked *x, size_t *shown)
{
	sf_discover_candidate *c = &r->board[r->nboard];

	if (x->index >= s->n) {
		sf_discover_candidate *g = &given[x->index - s->n];

		/* a library formula the file or the library has already */
		if (g->library && isfinite(g->score) && twin_on_board(r, g, 1))
			return 0;
		*c = *g;
		memset(g, 0, sizeof *g);
	} else if (*shown < st->top && isfinite(x->score)) {
		if (candidate_from_entry(s->g, st, &s->ws[0], &s->e[x->index],
		                         c) != 0) {
			sf_board_candidate_free(c);
			return -1;
		}
		if (on_board(r, c->formula) || twin_on_board(r, c, 0)) {
			sf_board_candidate_free(c);
			memset(c, 0, sizeof *c);
			return 0;
		}
		if (r->winner == SIZE_MAX)
			r->winner = r->nboard;
		(*shown)++;
	} else {
		return 0;
	}
	c->tied = x->tied;
	r->nboard++;
	return 0;
}

/* 1 when found formula big is found formula small plus terms (every
 * shape of small's is one of big's) whose folds did not reward them: its
 * score is no better. */
static int
adds_nothing(const sf_discover_candidate *big,
             const sf_discover_candidate *small)
{
	if (big->model != NULL || small->model != NULL ||
	    big->nterms <= small->nterms || big->score < small->score)
		return 0;
	for (size_t i = 0; i < small->nterms; i++) {
		size_t j = 0;

		while (j < big->nterms &&
		       strcmp(big->terms[j].shape, small->terms[i].shape) != 0)
			j++;
		if (j == big->nterms)
			return 0;
	}
	return 1;
}

/*
 * The tied found formulas' best AICc once the search is paid for: each
 * constant costs 2 ln M instead of 2, M the shapes the formula was chosen
 * among (Foster and George's risk inflation criterion: the best of many
 * candidate terms fits the rows better than its shape deserves).
 * INFINITY when no tied found formula has a finite AICc.
 */
static double
paid_aicc(const sf_discover_result *r)
{
	double paid = INFINITY, m = (double)r->shapes;

	if (!(m > 2))
		return INFINITY;
	for (size_t i = 0; i < r->nboard; i++) {
		const sf_discover_candidate *c = &r->board[i];
		double v = c->aicc + 2 * (double)c->k * (log(m) - 1);

		if (c->model == NULL && c->tied && isfinite(v) && v < paid)
			paid = v;
	}
	return paid;
}

int
sf_board_file_member(const sf_discover_candidate *c)
{
	return c->model != NULL && !c->library && !c->foreign;
}

/* 1 when c is a formula of the model file (written before the rows were
 * seen, it pays nothing) whose AICc is no higher than paid. */
static int
file_unpaid(const sf_discover_candidate *c, double paid)
{
	return sf_board_file_member(c) && isfinite(c->aicc) && c->aicc <= paid;
}

/* 1 when c is a formula of the model file with a score and one fold
 * judged the search: the search's choice rests on one level's predictions,
 * the best of thousands of scores (biased low), so the folds cannot tell
 * the file's formula from it. */
static int
one_fold_file(const sf_discover_result *r, const sf_discover_candidate *c)
{
	return r->nfolds == 1 && sf_board_file_member(c) && isfinite(c->score);
}

/* 1 when board formula i adds nothing to a member chosen so far. */
static int
nests_a_member(const sf_discover_result *r, size_t i)
{
	for (size_t m = 0; m < r->nmembers; m++)
		if (adds_nothing(&r->board[i], &r->board[r->members[m]]))
			return 1;
	return 0;
}

int
sf_discover_weighed(const sf_discover_result *r)
{
	for (size_t m = 0; m < r->nmembers; m++)
		if (r->weights[m] != 1)
			return 1;
	return 0;
}

/* The members' weights (discover.h: weights): the model file's side
 * and the search's weigh the same. */
static void
weigh_members(sf_discover_result *r)
{
	size_t file = 0;

	for (size_t m = 0; m < r->nmembers; m++)
		file += sf_board_file_member(&r->board[r->members[m]]);
	for (size_t m = 0; m < r->nmembers; m++) {
		const int own = sf_board_file_member(&r->board[r->members[m]]);

		if (file == 0 || file == r->nmembers)
			r->weights[m] = 1;
		else
			r->weights[m] =
			    (double)(own ? r->nmembers - file : file);
	}
}

/*
 * The ensemble (discover.h): the winner, then up to max - 1 more of the
 * tied formulas on the board: the model file's own first, then the
 * others (found or the library's), each in the board's order (the
 * simplest first).  The winner is the simplest of the tied, which is not
 * always the one that extrapolates best: the ensemble keeps the others
 * in the answer (weigh_members: the file's side as much as the
 * search's; fit/ensemble.h).  A formula of
 * the file goes first because it was written before the rows were seen:
 * it carries none of the search's luck (the best of thousands of folds'
 * scores is biased low), so where the folds cannot tell it from the found
 * ones the answer keeps it.  (The library's are as blind to the rows, but
 * many and generic: they take their place in the board's order.)
 *
 * Where one fold judged the search (one_fold_file), the file's formulas
 * join whether tied or not: the best of thousands of scores on one
 * level's rows says little of the next level (on Gavel's 24 groups
 * fitted on 1-4 GPUs, init's formula joined in 6 more, and the mean
 * interval score at 8 GPUs fell from 1333% to 438%).
 *
 * Where the search did not pay for itself (paid_aicc, file_unpaid), the
 * file's formulas that fit as well join even when not tied, and no
 * formula with more constants than they have does, the winner aside:
 * each constant costs such a formula more than the file's.  On ElasticFlow's
 * jobs fitted on up to 8 GPUs the found formulas' terms in 1 / b run away at 64
 * GPUs (a batch of 1 to 4): the file's generic formula does not.
 *
 * A found formula that is a member plus terms the folds did not reward
 * is left out (Madigan and Raftery's Occam's window): it predicts what
 * the member does inside the range, and beyond it adds only the spread
 * of constants the rows barely determine (an interval a billion times
 * the time, on ElasticFlow's ResNet-50 fitted on 1-4 GPUs).
 */
static void
choose_members(sf_discover_result *r, size_t lead, size_t max)
{
	double paid = paid_aicc(r);
	int file_only = lead != r->winner;

	r->members[0] = lead;
	r->nmembers = 1;
	r->nested = 0;
	r->unpaid = 0;
	r->one_fold = 0;
	for (size_t i = 0; i < r->nboard; i++)
		if (file_unpaid(&r->board[i], paid) &&
		    r->board[i].k > r->unpaid)
			r->unpaid = r->board[i].k;
	for (int own = 1; own >= 0; own--)
		for (size_t i = 0; i < r->nboard && r->nmembers < max; i++) {
			const sf_discover_candidate *c = &r->board[i];
			int file = c->model != NULL && !c->library;
			int tied = c->tied && isfinite(c->score);
			int unpaid = file_unpaid(c, paid);
			int one_fold = !tied && !unpaid && one_fold_file(r, c);

			if (i == lead || i == r->winner || file != own ||
			    !(tied || unpaid || one_fold) || c->foreign ||
			    (file_only && !file) ||
			    (r->unpaid > 0 && !file && c->k > r->unpaid))
				continue;
			if (nests_a_member(r, i)) {
				r->nested++;
			} else {
				r->members[r->nmembers++] = i;
				r->one_fold |= one_fold;
			}
		}
	weigh_members(r);
}

int
sf_board_make(sf_discover_result *r, sf_search *s, const sf_setup *st,
              sf_discover_candidate *given, size_t ngiven, sf_error *err)
{
	size_t n = s->n + ngiven, shown = 0;
	sf_ranked *all = malloc((n + 1) * sizeof *all);
	double best = INFINITY;
	int rc = SF_OK;

	if (all == NULL || (r->board = calloc(st->top + ngiven + 1,
	                                      sizeof *r->board)) == NULL) {
		free(all);
		return sf_error_set(err, SF_ENOMEM, "out of memory");
	}
	rank_all(s, given, ngiven, all);
	for (size_t i = 0; i < n; i++)
		best = all[i].score < best ? all[i].score : best;
	if (!isfinite(best)) {
		free(all);
		return sf_error_set(
		    err, SF_EFAIL,
		    "no formula could be fitted to the training "
		    "rows");
	}
	r->best_score = best;
	r->band = tie_band(s, st, all, n, best);
	mark_tied(all, n, best, r->band);
	qsort(all, n, sizeof *all, sf_ranked_by_rule);
	r->winner = SIZE_MAX;
	for (size_t i = 0; i < n && rc == SF_OK; i++)
		if (board_add(r, s, st, given, &all[i], &shown) != 0)
			rc = sf_error_set(err, SF_ENOMEM, "out of memory");
	free(all);
	if (rc == SF_OK && r->winner == SIZE_MAX)
		rc = sf_error_set(err, SF_EFAIL,
		                  "no formula of the grammar could be fitted "
		                  "to the training rows");
	if (rc == SF_OK)
		choose_members(r, r->winner, st->members);
	return rc;
}

void
sf_board_lead(sf_discover_result *r, size_t lead, size_t max)
{
	choose_members(r, lead, max);
}
