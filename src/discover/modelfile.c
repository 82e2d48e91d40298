/*
 * modelfile.c - the model file of a discovered formula and its fit
 * through the pipeline (sf_discover_model_text, sf_discover_refit,
 * discover.h): a complete, commented model whose data.file is relative to
 * where it is written, its constants bounded so that no bound is active,
 * and the discover: block that found it.
 */
#define _XOPEN_SOURCE 700 /* realpath */

#include "base/number.h"
#include "base/text.h"
#include "base/yaml_out.h"
#include "discover/board.h"
#include "discover/discover.h"
#include "fit/tune.h"
#include "fit/validate.h"
#include "input/problem.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* 1 when name is a whole name (identifier) in text. */
static int
mentions(const char *text, const char *name)
{
	size_t len = strlen(name);

	for (const char *p = text; *p != '\0';) {
		const char *start = p;

		if (!(*p == '_' || (*p >= 'a' && *p <= 'z') ||
		      (*p >= 'A' && *p <= 'Z'))) {
			/* a number's exponent is not a name: skip it whole */
			if (*p >= '0' && *p <= '9')
				while ((*p >= '0' && *p <= '9') || *p == '.' ||
				       *p == 'e' || *p == 'E')
					p++;
			else
				p++;
			continue;
		}
		while (*p == '_' || (*p >= 'a' && *p <= 'z') ||
		       (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9'))
			p++;
		if ((size_t)(p - start) == len && memcmp(start, name, len) == 0)
			return 1;
	}
	return 0;
}

/* The directory part of path ("." when it has none), malloc'd. */
static char *
directory_of(const char *path)
{
	const char *slash = strrchr(path, '/');
	char *dir;

	if (slash == NULL)
		return sf_text_dup(".");
	if (slash == path)
		return sf_text_dup("/");
	if ((dir = malloc((size_t)(slash - path) + 1)) != NULL) {
		memcpy(dir, path, (size_t)(slash - path));
		dir[slash - path] = '\0';
	}
	return dir;
}

/* The next component of an absolute path at *p ("a" of "/a/b"), its
 * length in *n; NULL at the end. */
static const char *
component(const char **p, size_t *n)
{
	const char *start;

	while (**p == '/')
		(*p)++;
	if (**p == '\0')
		return NULL;
	start = *p;
	while (**p != '\0' && **p != '/')
		(*p)++;
	*n = (size_t)(*p - start);
	return start;
}

/* file as a path relative to the directory of out_path, so that the
 * model file finds its data wherever it is written; file as given when
 * either cannot be resolved. */
static char *
relative_to(const char *out_path, const char *file)
{
	char *dir = directory_of(out_path), *from = NULL, *to = NULL;
	char *result = NULL;
	const char *a, *b, *ca, *cb;
	size_t na = 0, nb = 0;
	sf_text out = SF_TEXT_INIT;

	if (dir != NULL) {
		from = realpath(dir, NULL);
		to = realpath(file, NULL);
	}
	if (from == NULL || to == NULL) {
		result = sf_text_dup(file);
		goto done;
	}
	/* skip the common components, go up from the rest of from's */
	a = from, b = to;
	for (;;) {
		const char *sa = a, *sb = b;
		ca = component(&a, &na);
		cb = component(&b, &nb);
		if (ca == NULL || cb == NULL || na != nb ||
		    memcmp(ca, cb, na) != 0) {
			a = sa, b = sb;
			break;
		}
	}
	while (component(&a, &na) != NULL)
		sf_text_printf(&out, "../");
	for (int first = 1; (cb = component(&b, &nb)) != NULL; first = 0)
		sf_text_printf(&out, "%s%.*s", first ? "" : "/", (int)nb, cb);
	result = sf_text_take(&out);
done:
	free(dir);
	free(from);
	free(to);
	return result;
}

static const char *
kind_words(sf_term_kind kind)
{
	switch (kind) {
	case SF_TERM_OVERHEAD:
		return "start-up, once per run";
	case SF_TERM_COMPUTE:
		return "computation: each worker's share of the work";
	case SF_TERM_COMMUNICATION:
		return "grows with the workers: communication";
	case SF_TERM_IO:
		return "per sample, not split over the workers: the input "
		       "pipeline";
	default:
		return "";
	}
}

/* The head comment: where the formula comes from, how it was chosen, its
 * terms, and why its bounds are what they are. */
static void
write_story(sf_yaml_out *y, const sf_discover_result *r,
            const sf_discover_candidate *c, const char *model, const char *data)
{
	char held[128] = "", lv[32];

	if (c->model != NULL) {
		sf_yaml_out_comment(
		    y,
		    "%s-discovered: the model file's formula %s, "
		    "kept by scalefit",
		    model, c->model);
		sf_yaml_out_comment(y, "discover: the search's choice "
		                       "extrapolated worse.");
	} else {
		sf_yaml_out_comment(
		    y,
		    "%s-discovered: a formula found by scalefit "
		    "discover, chosen by how well",
		    model);
		sf_yaml_out_comment(y, "it extrapolates.");
	}
	sf_yaml_out_comment(y, "%s", "");
	if (r->held_out > 0)
		snprintf(held, sizeof held,
		         " (%zu more rows were held out by --train and not "
		         "used)",
		         r->held_out);
	sf_yaml_out_comment(y, "From %zu training rows of %s%s,", r->rows, data,
	                    held);
	sf_yaml_out_comment(y,
	                    "extrapolating along %s: each fold fits the rows "
	                    "up to a value of %s",
	                    r->extrapolate, r->extrapolate);
	sf_yaml_out_comment(y, "and predicts the rows above it; the MAPE of "
	                       "its predictions:");
	for (size_t f = 0; f < r->nfolds; f++)
		sf_yaml_out_comment(
		    y, "  fit %s <= %s: %.3g%%", r->extrapolate,
		    sf_format_double(lv, sizeof lv, r->levels[r->fold_last[f]]),
		    c->fold_mape[f]);
	sf_yaml_out_comment(y,
	                    "Weighted mean (the last folds weigh most) "
	                    "%.3g%%; MAPE %.3g%% on the training rows, "
	                    "AICc %.6g, %zu constants.",
	                    c->score, c->mape, c->aicc, c->k);
	sf_yaml_out_comment(y,
	                    "The choice among %zu formulas over %zu term "
	                    "shapes (up to %zu terms,",
	                    r->evaluated, r->shapes, r->max_terms);
	sf_yaml_out_comment(y, "beam %zu).", r->beam);
	sf_yaml_out_comment(y, "%s", "");
	sf_yaml_out_comment(y, "  time = %s", c->formula);
	sf_yaml_out_comment(y, "%s", "");
}

/* The terms' comment and the bounds'. */
static void
write_term_notes(sf_yaml_out *y, const sf_discover_candidate *c)
{
	static const char *const bounds[] = {
	    "Bounds: every constant of a term is >= 0 (a start-up at 0 is "
	    "one the rows",
	    "do without); each upper bound is ten times what the shortest run",
	    "allows (no term can exceed a measured time), rounded up to a "
	    "power of",
	    "10, so none is reached; a fitted exponent stays within half a "
	    "unit",
	    "of the grid's."};

	sf_yaml_out_comment(y, "Terms (the kinds are what the shapes suggest, "
	                       "for `scalefit scale`'s");
	sf_yaml_out_comment(y, "shares; check them):");
	for (size_t t = 0; t < c->nterms; t++)
		sf_yaml_out_comment(
		    y, "  %-10s %-26s %s", c->terms[t].name, c->terms[t].shape,
		    c->terms[t].nparams == 2 &&
		            strncmp(c->terms[t].shape, "max(", 4) == 0
		        ? "the slower of two overlapped parts"
		        : kind_words(c->terms[t].kind));
	for (size_t i = 0; i < sizeof bounds / sizeof bounds[0]; i++)
		sf_yaml_out_comment(y, "%s", bounds[i]);
}

/* name, description and data: m's, data.file relative to the file. */
static void
write_data(sf_yaml_out *y, const sf_discover_candidate *c, const sf_model *m,
           const char *file)
{
	sf_text name = SF_TEXT_INIT, about = SF_TEXT_INIT;

	sf_text_printf(&name, "%s-discovered", m->name);
	sf_text_printf(&about, "%s by scalefit discover: %s",
	               c->model != NULL ? "Kept" : "Found", c->formula);
	if (name.failed || about.failed)
		y->text->failed = 1;
	else {
		sf_yaml_out_pair(y, "name", name.data, NULL);
		sf_yaml_out_pair(y, "description", about.data, NULL);
	}
	sf_text_free(&name);
	sf_text_free(&about);
	sf_yaml_out_map(y, "data");
	if (file != NULL)
		sf_yaml_out_pair(y, "file", file, NULL);
	if (m->where.text != NULL)
		sf_yaml_out_pair(y, "where", m->where.text, NULL);
	if (m->output.text != NULL)
		sf_yaml_out_pair(y, "output", m->output.text, NULL);
	if (m->weight.text != NULL)
		sf_yaml_out_pair(y, "weight", m->weight.text, NULL);
	sf_yaml_out_end(y, NULL);
}

/* 1 when the file of the formulas c[0..n) has input name: the
 * extrapolated one, those --train names and those their terms use. */
static int
input_written(const sf_discover_result *r,
              const sf_discover_candidate *const *c, size_t n, const char *name)
{
	int used = strcmp(name, r->extrapolate) == 0 ||
	           (r->train != NULL && mentions(r->train, name));

	for (size_t f = 0; f < n; f++) {
		const sf_discover_given *g = &c[f]->given;

		for (size_t t = 0; t < c[f]->nterms; t++)
			used |= mentions(c[f]->terms[t].expr, name);
		for (size_t t = 0; t < g->nterms; t++)
			used |= mentions(g->terms[t].expr, name);
		used |= g->time != NULL && mentions(g->time, name);
	}
	return used;
}

int
sf_discover_written_input(const sf_discover_result *r, const char *name)
{
	const sf_discover_candidate *c[SF_DISCOVER_MAX_MEMBERS];

	for (size_t i = 0; i < r->nmembers; i++)
		c[i] = &r->board[r->members[i]];
	return input_written(r, c, r->nmembers, name);
}

/* The inputs of the formulas c[0..n) (input_written), as m defines
 * them. */
static void
write_inputs(sf_yaml_out *y, const sf_discover_result *r,
             const sf_discover_candidate *const *c, size_t n, const sf_model *m)
{
	sf_yaml_out_map(y, "inputs");
	for (size_t i = 0; i < m->ninputs; i++)
		if (input_written(r, c, n, m->inputs[i].name))
			sf_yaml_out_pair(y, m->inputs[i].name,
			                 m->inputs[i].expr.text, NULL);
	sf_yaml_out_end(y, NULL);
}

/* parameters:, terms: and time: of c. */
static void
write_formula(sf_yaml_out *y, const sf_discover_candidate *c)
{
	sf_text time = SF_TEXT_INIT;

	sf_yaml_out_map(y, "parameters");
	for (size_t t = 0; t < c->nterms; t++)
		for (size_t q = 0; q < c->terms[t].nparams; q++) {
			const sf_discover_term *x = &c->terms[t];
			char v[32], note[48];

			snprintf(note, sizeof note, "fitted %s",
			         sf_format_double(v, sizeof v, x->value[q]));
			sf_yaml_out_flow_map(y, x->param[q]);
			sf_yaml_out_number(y, "min", x->lower[q], NULL);
			sf_yaml_out_number(y, "max", x->upper[q], NULL);
			sf_yaml_out_end(y, note);
		}
	sf_yaml_out_end(y, NULL);
	sf_yaml_out_map(y, "terms");
	for (size_t t = 0; t < c->nterms; t++) {
		sf_yaml_out_flow_map(y, c->terms[t].name);
		sf_yaml_out_pair(y, "expr", c->terms[t].expr, NULL);
		sf_yaml_out_pair(y, "kind", sf_term_kind_name(c->terms[t].kind),
		                 NULL);
		sf_yaml_out_end(y, NULL);
	}
	sf_yaml_out_end(y, NULL);
	for (size_t t = 0; t < c->nterms; t++)
		sf_text_printf(&time, "%s%s", t > 0 ? " + " : "",
		               c->terms[t].name);
	if (time.failed)
		y->text->failed = 1;
	else
		sf_yaml_out_pair(y, "time", time.data, NULL);
	sf_text_free(&time);
}

/* A given formula g (the model file's, the library's) as a member writes
 * it: its derived inputs (under its own inputs:), constants (fitted ones
 * with bounds and a note of their fit), terms and time. */
static void
write_given(sf_yaml_out *y, const sf_discover_given *g)
{
	size_t derived = 0;

	for (size_t t = 0; t < g->nterms; t++)
		derived += g->terms[t].derived;
	if (derived > 0) {
		sf_yaml_out_map(y, "inputs");
		for (size_t t = 0; t < g->nterms; t++)
			if (g->terms[t].derived) {
				sf_yaml_out_flow_map(y, g->terms[t].name);
				sf_yaml_out_pair(y, "derived", g->terms[t].expr,
				                 NULL);
				sf_yaml_out_end(y, NULL);
			}
		sf_yaml_out_end(y, NULL);
	}
	sf_yaml_out_map(y, "parameters");
	for (size_t i = 0; i < g->nparams; i++) {
		const sf_discover_param *x = &g->params[i];
		char v[32], note[48];

		if (x->fixed) {
			sf_yaml_out_number(y, x->name, x->value, NULL);
			continue;
		}
		snprintf(note, sizeof note, "fitted %s",
		         sf_format_double(v, sizeof v, x->value));
		sf_yaml_out_flow_map(y, x->name);
		sf_yaml_out_number(y, "min", x->lower, NULL);
		sf_yaml_out_number(y, "max", x->upper, NULL);
		sf_yaml_out_end(y, note);
	}
	sf_yaml_out_end(y, NULL);
	if (derived < g->nterms) {
		sf_yaml_out_map(y, "terms");
		for (size_t t = 0; t < g->nterms; t++) {
			if (g->terms[t].derived)
				continue;
			sf_yaml_out_flow_map(y, g->terms[t].name);
			sf_yaml_out_pair(y, "expr", g->terms[t].expr, NULL);
			sf_yaml_out_pair(y, "kind",
			                 sf_term_kind_name(g->terms[t].kind),
			                 NULL);
			sf_yaml_out_end(y, NULL);
		}
		sf_yaml_out_end(y, NULL);
	}
	sf_yaml_out_pair(y, "time", g->time, NULL);
}

/* x to a hundredth of a percent: what the interval needs of a share. */
static double
to_hundredth_percent(double x)
{
	char g[32];

	snprintf(g, sizeof g, "%.4f", x);
	return strtod(g, NULL);
}

double
sf_discover_written_disagreement(const sf_discover_result *r)
{
	if (r->disagreement_with == SIZE_MAX)
		return -1;
	return to_hundredth_percent(
	    r->disagreement_shown ? 0 : fabs(r->disagreement));
}

/* fit: with the search's loss (and m's weights), the formulas'
 * disagreement beyond the range, the file's formula's regime check and,
 * when m's fit.prior.hardware is an input of the formulas c[0..n)
 * (input_written), it and the prior's scale along it that m gives; and
 * the discover: block that was used. */
static void
write_settings(sf_yaml_out *y, const sf_discover_result *r, const sf_model *m,
               const sf_discover_candidate *const *c, size_t n)
{
	const int hardware = m->fit.prior_hardware[0] != '\0' &&
	                     input_written(r, c, n, m->fit.prior_hardware);
	const int prior = r->disagreement_with != SIZE_MAX ||
	                  r->regime_with != SIZE_MAX || hardware;

	sf_yaml_out_map(y, "fit");
	sf_yaml_out_pair(y, "loss", sf_loss_name(r->loss), NULL);
	if (m->fit.weighting == SF_WEIGHTS_INVERSE_VARIANCE)
		sf_yaml_out_pair(y, "weights", "inverse_variance", NULL);
	if (prior)
		sf_yaml_out_map(y, "prior");
	if (r->disagreement_with != SIZE_MAX)
		sf_yaml_out_number(
		    y, "disagreement", sf_discover_written_disagreement(r),
		    !r->disagreement_shown
		        ? "how fast the search's winner and the file's formula "
		          "part ways per doubling beyond the rows: it widens "
		          "the intervals"
		    : r->held.refuted
		        ? "the held-back check refuted the search's "
		          "winner: its parting from the file's formula "
		          "is not counted"
		        : "the file's formula is a member: the ensemble's "
		          "mixture shows how far it and the search's part "
		          "ways");
	if (r->regime_with != SIZE_MAX)
		sf_yaml_out_number(
		    y, "regime", to_hundredth_percent(r->regime),
		    "the largest training levels came out this "
		    "much above the file's formula per doubling: "
		    "every formula's interval widens toward it");
	if (hardware) {
		sf_yaml_out_pair(y, "hardware", m->fit.prior_hardware,
		                 "a hardware speed, as the model file says");
		if (m->fit.prior_hardware_scale > 0)
			sf_yaml_out_number(y, "hardware_scale",
			                   m->fit.prior_hardware_scale, NULL);
	}
	if (prior)
		sf_yaml_out_end(y, NULL);
	sf_yaml_out_end(y, NULL);
	sf_yaml_out_map(y, "discover");
	sf_yaml_out_pair(y, "extrapolate", r->extrapolate, NULL);
	sf_yaml_out_pair(y, "count", r->count != NULL ? r->count : "none",
	                 NULL);
	sf_yaml_out_pair(y, "workers", r->workers != NULL ? r->workers : "none",
	                 NULL);
	sf_yaml_out_pair(y, "batch", r->batch != NULL ? r->batch : "none",
	                 NULL);
	sf_yaml_out_flow_seq(y, "inputs");
	for (size_t i = 0; i < r->ninputs; i++)
		sf_yaml_out_item(y, r->inputs[i]);
	sf_yaml_out_end(y, NULL);
	/* the same doubles the grid holds: 1/3 is 0.3333333333333333 */
	sf_yaml_out_flow_seq(y, "exponents");
	for (size_t i = 0; i < r->space.nexponents; i++)
		sf_yaml_out_item_number(y, r->space.exponents[i]);
	sf_yaml_out_end(y, NULL);
	sf_yaml_out_flow_seq(y, "logs");
	for (size_t i = 0; i < r->space.nlogs; i++)
		sf_yaml_out_item_number(y, r->space.logs[i]);
	sf_yaml_out_end(y, NULL);
	sf_yaml_out_count(y, "factors", r->factors, NULL);
	sf_yaml_out_count(y, "max_terms", r->max_terms, NULL);
	sf_yaml_out_count(y, "beam", r->beam, NULL);
	sf_yaml_out_count(y, "budget", r->budget, NULL);
	sf_yaml_out_bool(y, "overlap", r->space.overlap, NULL);
	sf_yaml_out_bool(y, "continuous", r->space.continuous, NULL);
	sf_yaml_out_bool(y, "library", r->space.library, NULL);
	sf_yaml_out_bool(y, "growth_cap", r->space.growth_cap, NULL);
	sf_yaml_out_number(y, "tie", r->space.tie, NULL);
	sf_yaml_out_end(y, NULL);
}

/* 1 when name is one of names[0..n) (NULL: none yet). */
static int
taken(char *const *names, size_t n, const char *name)
{
	for (size_t i = 0; i < n; i++)
		if (names[i] != NULL && strcmp(names[i], name) == 0)
			return 1;
	return 0;
}

/* The members' names into names[0..n) (malloc'd): dI for the I-th, a
 * discovered formula; a given one's name (the model file's, or @NAME for
 * the library's), with "-2", "-3", ... while another member has it (a d
 * and digits are the discovered ones' names).  Returns 0, or -1 when out
 * of memory. */
static int
member_names(const sf_discover_candidate *const *c, size_t n, char **names)
{
	for (size_t i = 0; i < n; i++)
		if (c[i]->model == NULL) {
			sf_text b = SF_TEXT_INIT;

			sf_text_printf(&b, "d%zu", i + 1);
			if ((names[i] = sf_text_take(&b)) == NULL)
				return -1;
		}
	for (size_t i = 0; i < n; i++) {
		sf_text b = SF_TEXT_INIT;

		if (c[i]->model == NULL)
			continue;
		sf_text_puts(&b, c[i]->model);
		for (size_t k = 2; b.data != NULL && taken(names, n, b.data);
		     k++) {
			sf_text_free(&b);
			sf_text_printf(&b, "%s-%zu", c[i]->model, k);
		}
		if ((names[i] = sf_text_take(&b)) == NULL)
			return -1;
	}
	return 0;
}

/* Why the ensemble of r, led by the winner w, holds its members. */
static void
write_company(sf_yaml_out *y, const sf_discover_result *r,
              const sf_discover_candidate *w)
{
	sf_yaml_out_comment(y,
	                    "An ensemble of %zu formulas that part ways beyond "
	                    "the training rows:",
	                    r->nmembers);
	if (w->tied)
		sf_yaml_out_comment(y, "d1, the winner, and those tied with "
		                       "the best score (within the tie");
	else
		sf_yaml_out_comment(y, "d1, the best found, and those that "
		                       "extrapolated better (within the tie");
	sf_yaml_out_comment(y, "of the best): the model file's own first "
	                       "(named as there; written");
	sf_yaml_out_comment(y, "before the rows were seen, they carry none of "
	                       "the search's luck), then");
	sf_yaml_out_comment(y, "the simplest others (found, or the library's "
	                       "as @NAME).  fit weighs");
	if (sf_discover_weighed(r)) {
		sf_yaml_out_comment(y, "them by their weight:, the model "
		                       "file's formulas as much in all as");
		sf_yaml_out_comment(y, "the search's (which share one source, "
		                       "its folds' luck); predict,");
		sf_yaml_out_comment(y, "scale and validate read them as one "
		                       "prediction, the weighted mean");
		sf_yaml_out_comment(y, "of their predictions, whose interval, "
		                       "their mixture's, holds their");
		sf_yaml_out_comment(y, "disagreement.");
	} else {
		sf_yaml_out_comment(y, "them equally; predict, scale and "
		                       "validate read them as one");
		sf_yaml_out_comment(y, "prediction, the mean of their "
		                       "predictions, whose interval, their");
		sf_yaml_out_comment(y, "mixture's, holds their disagreement.");
	}
	if (r->unpaid > 0) {
		sf_yaml_out_comment(y, "The search did not pay for itself: the "
		                       "model file's formulas that fit");
		sf_yaml_out_comment(y,
		                    "the training rows as well once each found "
		                    "constant costs 2 ln(%zu",
		                    r->shapes);
		sf_yaml_out_comment(y,
		                    "shapes) of AICc join, tied or not, and no "
		                    "found formula with more");
		sf_yaml_out_comment(
		    y, "than %zu constants does but the winner.", r->unpaid);
	}
	if (r->one_fold) {
		sf_yaml_out_comment(y, "One fold judged the search: its choice "
		                       "rests on the predictions at");
		sf_yaml_out_comment(y,
		                    "one level, the best of %zu scores; the "
		                    "model file's formulas join,",
		                    r->evaluated);
		sf_yaml_out_comment(y, "tied or not.");
	}
}

/* Why the ensemble of r holds the model file's formulas alone: the
 * held-back check refuted the search. */
static void
write_refuted(sf_yaml_out *y, const sf_discover_result *r)
{
	const sf_discover_heldback *h = &r->held;
	char lv[32];

	sf_yaml_out_comment(y, "The held-back check: searched again on the "
	                       "training rows below");
	sf_yaml_out_comment(y, "%s = %s, the search chose", r->extrapolate,
	                    sf_format_double(lv, sizeof lv, h->level));
	sf_yaml_out_comment(y, "  %s", h->found);
	sf_yaml_out_comment(y,
	                    "which predicted the %zu rows at %s = %s with MAPE "
	                    "%.3g%%; the model",
	                    h->rows, r->extrapolate, lv, h->found_mape);
	sf_yaml_out_comment(y, "file's %s, fitted on the same rows, %.3g%%.",
	                    h->file, h->file_mape);
	sf_yaml_out_comment(y, "On a level its folds did not see, the search "
	                       "lost to the formula");
	sf_yaml_out_comment(y, "written before the rows were seen: the "
	                       "answer is the model file's");
	sf_yaml_out_comment(y, "(its formulas that fit as well join it; no "
	                       "found or library formula");
	sf_yaml_out_comment(y, "does).");
	if (r->nmembers > 1) {
		sf_yaml_out_comment(y,
		                    "fit weighs them equally; predict, scale "
		                    "and validate read them");
		sf_yaml_out_comment(y, "as one prediction.");
	}
}

/* The ensemble of r's members c[0..r->nmembers): the story, data,
 * inputs, `ensemble: true` (with more than one) and each member's formula
 * in models: (the first member first: the winner, or the file's formula
 * the held-back check chose). */
static void
write_ensemble(sf_yaml_out *y, const sf_discover_result *r, const sf_model *m,
               const sf_discover_candidate *const *c, const char *data,
               const char *file)
{
	const sf_discover_candidate *w = c[0];
	char *names[SF_DISCOVER_MAX_MEMBERS] = {0};

	if (member_names(c, r->nmembers, names) != 0) {
		y->text->failed = 1;
		goto done;
	}
	write_story(y, r, w, m->name, data);
	if (r->held.refuted)
		write_refuted(y, r);
	else
		write_company(y, r, w);
	for (size_t i = 0; i < r->nmembers; i++)
		sf_yaml_out_comment(y, "  %s: score %.3g%%: %s", names[i],
		                    c[i]->score, c[i]->formula);
	sf_yaml_out_comment(y, "%s", "");
	if (w->model == NULL)
		write_term_notes(y, w);
	write_data(y, w, m, file);
	write_inputs(y, r, c, r->nmembers, m);
	if (r->nmembers > 1) /* else the file's formula alone */
		sf_yaml_out_bool(y, "ensemble", 1, NULL);
	sf_yaml_out_seq(y, "models");
	for (size_t i = 0; i < r->nmembers; i++) {
		sf_yaml_out_item_map(y);
		sf_yaml_out_pair(y, "name", names[i], NULL);
		sf_yaml_out_pair(y, "description", c[i]->formula, NULL);
		if (sf_discover_weighed(r))
			sf_yaml_out_number(y, "weight", r->weights[i],
			                   sf_board_file_member(c[i])
			                       ? "the model file's side"
			                       : "the search's side");
		if (c[i]->model != NULL)
			write_given(y, &c[i]->given);
		else
			write_formula(y, c[i]);
		sf_yaml_out_end(y, NULL);
	}
	sf_yaml_out_end(y, NULL);
done:
	for (size_t i = 0; i < r->nmembers; i++)
		free(names[i]);
}

int
sf_discover_model_text(const sf_discover_result *r, size_t index,
                       const sf_model *m, const char *out_path,
                       const char *data_path, char **text, sf_error *err)
{
	const sf_discover_candidate *c = &r->board[index];
	const sf_discover_candidate *members[SF_DISCOVER_MAX_MEMBERS] = {0};
	const char *base;
	char *file = NULL;
	sf_text b = SF_TEXT_INIT;
	sf_yaml_out y;

	*text = NULL;
	if (c->model != NULL && !(index == r->winner && r->held.refuted))
		return sf_error_set(err, SF_EVALUE,
		                    "'%s' is the model file's own formula",
		                    c->model);
	if (data_path == NULL)
		data_path = m->data_file;
	if (data_path != NULL &&
	    (file = relative_to(out_path, data_path)) == NULL)
		return sf_error_set(err, SF_ENOMEM, "out of memory");
	base = data_path != NULL ? strrchr(data_path, '/') : NULL;
	base = base != NULL ? base + 1 : data_path != NULL ? data_path : "?";
	sf_yaml_out_init(&y, &b);
	if (index == r->winner && (r->nmembers > 1 || r->held.refuted)) {
		for (size_t i = 0; i < r->nmembers; i++)
			members[i] = &r->board[r->members[i]];
		write_ensemble(&y, r, m, members, base, file);
		write_settings(&y, r, m, members, r->nmembers);
	} else {
		write_story(&y, r, c, m->name, base);
		write_term_notes(&y, c);
		write_data(&y, c, m, file);
		write_inputs(&y, r, &c, 1, m);
		write_formula(&y, c);
		write_settings(&y, r, m, &c, 1);
	}
	free(file);
	return sf_yaml_out_finish(&y, text, err);
}

int
sf_discover_refit(sf_discover_result *r, size_t index, const char *path,
                  const char *text, const sf_discover_options *o,
                  sf_fit_result **fit, sf_error *err)
{
	sf_discover_candidate *c = &r->board[index];
	sf_model_set *set = NULL;
	sf_problem p = {0};
	sf_dataset *train = NULL;
	sf_fit_result *res = NULL;
	sf_fit_options fo = o->fit;
	double *pred = NULL, ape = 0;
	size_t held;
	const sf_model *m;
	char *formula;
	int rc;

	if (fit != NULL)
		*fit = NULL;
	if (index == r->winner && r->held.refuted)
		return SF_OK; /* the text holds the model file's formulas */
	/* the file's own loss, as `scalefit fit FILE` would */
	fo.has_loss = 0;
	fo.progress = NULL;
	if ((rc = sf_model_parse(path, text, strlen(text), &set, NULL, NULL,
	                         err)) != SF_OK)
		return rc;
	m = set->models[0];
	if ((rc = sf_problem_open(m, NULL, m->fit.loss, NULL, NULL, &p, err)) !=
	        SF_OK ||
	    (rc = sf_discover_split(p.data, o->train, &train, &held, err)) !=
	        SF_OK ||
	    (rc = sf_tune_fit(m, train, p.formula, &fo, &res, err)) != SF_OK)
		goto done;
	if ((pred = malloc((train->rows + 1) * sizeof *pred)) == NULL) {
		rc = sf_error_set(err, SF_ENOMEM, "out of memory");
		goto done;
	}
	if ((rc = sf_predict_rows(p.formula, train, res->theta, pred, err)) !=
	    SF_OK)
		goto done;
	for (size_t q = 0; q < train->rows; q++)
		ape +=
		    fabs(pred[q] - train->output[q]) / fabs(train->output[q]);
	for (size_t t = 0; t < c->nterms; t++)
		for (size_t q = 0; q < c->terms[t].nparams; q++)
			for (size_t j = 0; j < p.formula->nparams; j++)
				if (strcmp(m->params[p.formula->fitted[j]].name,
				           c->terms[t].param[q]) == 0)
					c->terms[t].value[q] = res->theta[j];
	c->mape = 100 * ape / (double)train->rows;
	c->refitted = 1;
	if ((formula = sf_board_formula_text(c)) == NULL) {
		rc = sf_error_set(err, SF_ENOMEM, "out of memory");
		goto done;
	}
	free(c->formula);
	c->formula = formula;
	if (fit != NULL) {
		*fit = res;
		res = NULL;
	}
done:
	free(pred);
	sf_fit_result_free(res);
	sf_dataset_free(train);
	sf_problem_close(&p);
	sf_model_set_free(set);
	return rc;
}
