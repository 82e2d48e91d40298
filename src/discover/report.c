/*
 * report.c - discover's JSON document and text report (report.h).
 */
#include "discover/report.h"
#include "base/number.h"
#include "base/text.h"
#include "use/report.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Where a given formula c comes from, for the text. */
static const char *
given_origin(const sf_discover_candidate *c)
{
	return c->library ? "the library's formula"
	                  : "the model file's formula";
}

/* The candidate's board line. */
static void
print_candidate(sf_text *out, const sf_discover_result *r, size_t i)
{
	const sf_discover_candidate *c = &r->board[i];
	char rank[16];

	snprintf(rank, sizeof rank, c->model != NULL ? "(%zu)" : "%zu", i + 1);
	sf_text_printf(out, "%5s %c %2zu ", rank, c->tied ? '=' : ' ', c->k);
	if (isnan(c->score))
		sf_text_printf(out, "%8s ", "-");
	else
		sf_text_printf(out, "%7.3g%% ", c->score);
	if (isnan(c->mape))
		sf_text_printf(out, "%7s ", "-");
	else
		sf_text_printf(out, "%6.3g%% ", c->mape);
	sf_text_printf(out, "%10.6g  %s%s\n", c->aicc,
	               c->model != NULL ? "model " : "", c->formula);
}

/* The search's rows, folds, grammar and work. */
static void
text_setting(sf_text *out, const sf_model *m, const char *data,
             const sf_discover_result *r)
{
	char lv[32];

	sf_text_printf(out, "discover for %s on %s\n", m->name, data);
	sf_text_printf(out, "  %zu training rows", r->rows);
	if (r->held_out > 0)
		sf_text_printf(out, " (--train '%s'; %zu held out, never used)",
		               r->train, r->held_out);
	sf_text_printf(out, ", extrapolating along %s (%zu levels, %s to ",
	               r->extrapolate, r->nlevels,
	               sf_format_double(lv, sizeof lv, r->levels[0]));
	sf_text_printf(
	    out, "%s)\n",
	    sf_format_double(lv, sizeof lv, r->levels[r->nlevels - 1]));
	sf_text_printf(out, "  folds:");
	for (size_t f = 0; f < r->nfolds; f++)
		sf_text_printf(
		    out, "%s fit %s <= %s, predict %zu row%s", f > 0 ? ";" : "",
		    r->extrapolate,
		    sf_format_double(lv, sizeof lv, r->levels[r->fold_last[f]]),
		    r->fold_rows[f], r->fold_rows[f] == 1 ? "" : "s");
	sf_text_printf(out, "\n  grammar: %zu term shapes over", r->shapes);
	for (size_t i = 0; i < r->ninputs; i++)
		sf_text_printf(out, "%s %s", i > 0 ? "," : "", r->inputs[i]);
	if (r->steps)
		sf_text_printf(
		    out,
		    ", times the count %s, its whole steps ceil(%s / "
		    "(%s * %s)) or max(1, floor(.)), or neither",
		    r->count, r->count, r->workers, r->batch);
	else if (r->count != NULL)
		sf_text_printf(out, ", times the count %s or not", r->count);
	sf_text_printf(out, "; up to %zu terms, %zu factors each\n",
	               r->max_terms, r->factors);
	if (r->too_steep > 0)
		sf_text_printf(out,
		               "  (%zu more left out: their cost per step "
		               "would grow faster than %s^2)\n",
		               r->too_steep, r->workers);
	sf_text_printf(
	    out,
	    "  searched %zu formulas in %.3g s (%.0f a second), beam %zu%s\n",
	    r->evaluated, r->seconds,
	    r->seconds > 0 ? (double)r->evaluated / r->seconds : 0.0, r->beam,
	    r->budget_reached       ? "; stopped at the budget"
	    : r->time_limit_reached ? "; stopped at the time limit"
	                            : "");
}

/* The held-back check (discover.h), when it ran. */
static void
text_held_back(sf_text *out, const sf_discover_result *r)
{
	const sf_discover_heldback *h = &r->held;
	char lv[32];

	if (h->file == NULL)
		return;
	sf_text_printf(
	    out,
	    "\nheld-back check: searched again on the training rows below %s "
	    "= %s, the\n  search's choice predicted the %zu row%s there with "
	    "MAPE %.3g%%, the model\n  file's %s %.3g%%; %s\n",
	    r->extrapolate, sf_format_double(lv, sizeof lv, h->level), h->rows,
	    h->rows == 1 ? "" : "s", h->found_mape, h->file, h->file_mape,
	    h->refuted ? "on a level it did not see the search lost:\n  "
	                 "the answer is the model file's"
	               : "on a level it did not see the search\n  held: "
	                 "its answer stands");
}

/* A line per member of r's ensemble: its name, rank and score. */
static void
text_members(sf_text *out, const sf_discover_result *r)
{
	for (size_t i = 0; i < r->nmembers; i++) {
		const sf_discover_candidate *c = &r->board[r->members[i]];

		if (c->model != NULL)
			sf_text_printf(out,
			               "  %s  rank (%zu) extrap %6.3g%%  %s\n",
			               c->model, r->members[i] + 1, c->score,
			               given_origin(c));
		else
			sf_text_printf(
			    out, "  d%zu  rank %-3zu extrap %6.3g%%  %s\n",
			    i + 1, r->members[i] + 1, c->score, c->formula);
	}
}

/* Where the members' parting is shown, in words, into buf (size n): one
 * doubling beyond the training rows (the default), or as far as --to
 * asked: so many doublings beyond them, within their range or below it. */
static const char *
apart_where(const sf_discover_result *r, char *buf, size_t n)
{
	double top = r->nlevels > 0 ? r->levels[r->nlevels - 1] : NAN;
	double d = log2(r->apart_at / top);

	if (r->apart_at == 2 * top)
		snprintf(buf, n, "one doubling beyond the training rows");
	else if (d > 0)
		snprintf(buf, n, "%.3g doublings beyond the training rows", d);
	else if (r->apart_at >= r->levels[0])
		snprintf(buf, n, "within the training rows' range");
	else
		snprintf(buf, n, "below the training rows");
	return buf;
}

/* Shell word s, single-quoted unless it is made of characters no shell
 * reads specially (a leading = is zsh's: quoted). */
static void
put_word(sf_text *out, const char *s)
{
	if (s[0] != '\0' && s[0] != '=' &&
	    strspn(s, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
	              "0123456789_-+.,:=/@%") == strlen(s)) {
		sf_text_puts(out, s);
		return;
	}
	sf_text_putc(out, '\'');
	for (; *s != '\0'; s++)
		if (*s == '\'')
			sf_text_puts(out, "'\\''");
		else
			sf_text_putc(out, *s);
	sf_text_putc(out, '\'');
}

/* Path s as a shell word that no command reads as an option: ./ before
 * one that begins with -. */
static void
put_path(sf_text *out, const char *s)
{
	if (s[0] == '-') {
		sf_text_puts(out, "./");
		put_word(out, s);
		return;
	}
	put_word(out, s);
}

/* The commands that rank the runs telling r's members apart: `fit` of the
 * model file written at output into a FIT.json beside it (its extension
 * .json), then `next` on that at the point where they part. */
static void
text_next_commands(sf_text *out, const sf_discover_result *r,
                   const char *output)
{
	const char *dot = strrchr(output, '.'), *slash = strrchr(output, '/');
	int stem = dot != NULL && (slash == NULL || dot > slash) &&
	           (strcmp(dot, ".yaml") == 0 || strcmp(dot, ".yml") == 0);
	size_t n = stem ? (size_t)(dot - output) : strlen(output);
	char *fit = malloc(n + sizeof ".json");

	if (fit == NULL) {
		sf_text_printf(out, "  (out of memory)\n");
		return;
	}
	memcpy(fit, output, n);
	memcpy(fit + n, ".json", sizeof ".json");
	sf_text_puts(out, "    scalefit fit ");
	put_path(out, output);
	sf_text_puts(out, " -o ");
	put_path(out, fit);
	sf_text_puts(out, "\n    scalefit next ");
	put_path(out, fit);
	sf_text_puts(out, " --target ");
	put_word(out, r->apart_target);
	sf_text_puts(out, " --over ");
	put_word(out, r->apart_over);
	sf_text_putc(out, '\n');
	free(fit);
}

/* The ensemble the model file holds, and how to see where it parts ways. */
static void
text_ensemble(sf_text *out, const sf_discover_result *r, const char *output)
{
	char where[64], above[32];

	if (r->held.refuted) {
		sf_text_printf(out,
		               "\nthe %s%s: the model file's formula%s, not "
		               "the search's\n",
		               r->nmembers > 1 ? "ensemble" : "answer",
		               output != NULL ? " written" : "",
		               r->nmembers > 1 ? "s" : "");
		text_members(out, r);
		return;
	}
	if (r->nmembers < 2)
		return;
	sf_text_printf(out,
	               r->unpaid > 0 || r->one_fold
	                   ? "\nthe ensemble%s: the winner and %zu "
	                     "more formulas on the board\n"
	                   : "\nthe ensemble%s: the winner and the "
	                     "next %zu tied formulas on the board\n",
	               output != NULL ? " written" : "", r->nmembers - 1);
	if (r->one_fold)
		sf_text_printf(
		    out,
		    "  (one fold judged the search: its choice rests on the "
		    "predictions at one\n  level, the best of %zu scores; "
		    "the model file's formulas join, tied or not)\n",
		    r->evaluated);
	if (r->unpaid > 0)
		sf_text_printf(
		    out,
		    "  (the search did not pay for itself: formulas of the "
		    "model file fit the training\n  rows as well once "
		    "each found constant costs 2 ln(%zu shapes) of "
		    "AICc: they\n  join, and no found formula with "
		    "more than %zu constants does but the winner)\n",
		    r->shapes, r->unpaid);
	if (r->nested > 0)
		sf_text_printf(out,
		               "  (past %zu tied that are a member plus terms "
		               "that extrapolated no better)\n",
		               r->nested);
	text_members(out, r);
	if (r->apart_line > 0) {
		double pct = 100 * (r->apart_high / r->apart_low - 1);

		/* a percentage in thousands reads whole, not as 1.45e+03 */
		snprintf(above, sizeof above, pct < 1000 ? "%.3g" : "%.0f",
		         pct);
		sf_text_printf(
		    out,
		    "  %s (%s = %.6g, the other inputs those of\n  "
		    "line %d, the median time at the top level) they "
		    "predict %.5g to %.5g:\n  the highest %s%% "
		    "above the lowest\n",
		    apart_where(r, where, sizeof where), r->extrapolate,
		    r->apart_at, r->apart_line, r->apart_low, r->apart_high,
		    above);
	}
	if (sf_discover_weighed(r))
		sf_text_printf(
		    out,
		    "  they fit the training rows about equally well and "
		    "part ways beyond them:\n  `scalefit fit` weighs the "
		    "model file's formulas as much in all as the\n  "
		    "search's, whose formulas share one source, its folds' "
		    "luck (their\n  weight: keys); `scale` and `predict` "
		    "show the mixture's interval,\n  and a run beyond the "
		    "range tells the formulas\n  apart");
	else
		sf_text_printf(
		    out, "  they fit the training rows about equally well and "
		         "part ways beyond them:\n  `scalefit fit` weighs them "
		         "equally, `scale` and `predict` show the\n  mixture's "
		         "interval, and a run beyond the range tells the "
		         "formulas\n  apart");
	if (output == NULL || r->apart_target == NULL) {
		sf_text_printf(out, " (`next` ranks the runs that do)\n");
		return;
	}
	sf_text_printf(out, "; the runs that do, by what each tells and "
	                    "costs:\n");
	text_next_commands(out, r, output);
}

/* The members' weights in the file written (discover.h: weights). */
static json_t *
weights_json(const sf_discover_result *r)
{
	json_t *a = json_array();

	for (size_t i = 0; a != NULL && i < r->nmembers; i++)
		if (json_array_append_new(a, sf_json_number(r->weights[i])) !=
		    0) {
			json_decref(a);
			return NULL;
		}
	return a;
}

/* How far the ensemble's members part one doubling beyond the training
 * rows (discover.h: apart_*), or null. */
static json_t *
apart_json(const sf_discover_result *r)
{
	if (r->apart_line == 0)
		return json_null();
	return json_pack(
	    "{s:s, s:o, s:i, s:o, s:o, s:s?, s:s?}", "input", r->extrapolate,
	    "at", sf_json_number(r->apart_at), "line", r->apart_line, "low",
	    sf_json_number(r->apart_low), "high", sf_json_number(r->apart_high),
	    "next_target", r->apart_target, "next_over", r->apart_over);
}

/* How fast the winner and the model file's formula part ways beyond the
 * training rows (discover.h: disagreement), or null. */
static json_t *
disagreement_json(const sf_discover_result *r)
{
	if (r->disagreement_with == SIZE_MAX)
		return json_null();
	return json_pack("{s:s, s:o, s:b}", "with",
	                 r->board[r->disagreement_with].model, "per_doubling",
	                 sf_json_number(r->disagreement), "in_ensemble",
	                 r->disagreement_shown);
}

/* The model file's formula's regime check (discover.h: regime); only
 * when it fired. */
static json_t *
regime_json(const sf_discover_result *r)
{
	return json_pack("{s:s, s:s, s:o, s:b}", "input", r->extrapolate,
	                 "with", r->board[r->regime_with].model, "per_doubling",
	                 sf_json_number(r->regime), "bounded",
	                 r->regime_bounded);
}

/* The held-back check (discover.h), or null when it did not run. */
static json_t *
held_back_json(const sf_discover_result *r)
{
	const sf_discover_heldback *h = &r->held;

	if (h->file == NULL)
		return json_null();
	return json_pack("{s:s, s:o, s:I, s:s, s:o, s:s, s:o, s:b}", "input",
	                 r->extrapolate, "level", sf_json_number(h->level),
	                 "rows", (json_int_t)h->rows, "found", h->found,
	                 "found_mape", sf_json_number(h->found_mape), "file",
	                 h->file, "file_mape", sf_json_number(h->file_mape),
	                 "refuted", h->refuted);
}

/* The winner's pace beyond the training rows against the measured one
 * (discover.h: pace_*), or null. */
static json_t *
pace_json(const sf_discover_result *r)
{
	if (r->pace_line == 0)
		return json_null();
	return json_pack("{s:s, s:o, s:i, s:o, s:o, s:b}", "input",
	                 r->extrapolate, "from",
	                 sf_json_number(r->levels[r->nlevels - 1]), "line",
	                 r->pace_line, "beyond", sf_json_number(r->pace_beyond),
	                 "measured", sf_json_number(r->pace_measured),
	                 "faster_than_measured", r->pace_faster);
}

/* The board, the rule that ranked it, and the winner's constants. */
static void
text_board(sf_text *out, const sf_discover_result *r, const char *output)
{
	const sf_discover_candidate *w = &r->board[r->winner];

	sf_text_printf(out, "\n%5s %c %2s %8s %7s %10s  %s\n", "rank", ' ', "k",
	               "extrap", "MAPE", "AICc", "formula");
	for (size_t i = 0; i < r->nboard; i++)
		print_candidate(out, r, i);
	sf_text_printf(
	    out,
	    "\n  extrap: the MAPE of the folds' predictions, a mean weighted "
	    "toward the last\n  folds; '=': tied with the best (up to %.3g%%: "
	    "two standard errors, or\n  %.3g%% of it); the simplest tied "
	    "wins: fewest constants, then (among\n  those within 10 of the "
	    "lowest AICc) simplest shapes, then AICc\n",
	    r->best_score + r->band, 100 * r->space.tie);
	if (r->winner > 0)
		sf_text_printf(out, "  %s %s ranks above the best found\n",
		               given_origin(&r->board[0]), r->board[0].model);
	sf_text_printf(
	    out, "\nbest found, fitted on the %zu training rows %s:\n", r->rows,
	    w->refitted ? "as 'scalefit fit' fits the file" : "by the search");
	for (size_t t = 0; t < w->nterms; t++)
		for (size_t q = 0; q < w->terms[t].nparams; q++)
			sf_text_printf(out, "  %-16s %14.8g%s\n",
			               w->terms[t].param[q],
			               w->terms[t].value[q],
			               w->refitted ? "" : " (search)");
	sf_text_printf(out, "  MAPE %.3g%% on the training rows\n", w->mape);
	if (r->pace_faster)
		sf_text_printf(out,
		               "  warning: beyond the training rows it speeds "
		               "up more than "
		               "their largest\n  levels did: per doubling of "
		               "%s its time goes "
		               "x%.3g from %s = %.6g (line %d's\n  other "
		               "inputs), the measured "
		               "times x%.3g from the level below; the time "
		               "may\n  stop falling "
		               "sooner than it says\n",
		               r->extrapolate, r->pace_beyond, r->extrapolate,
		               r->levels[r->nlevels - 1], r->pace_line,
		               r->pace_measured);
	if (r->disagreement_with != SIZE_MAX)
		sf_text_printf(
		    out,
		    "  it and the model file's %s part ways by %+.1f%% per "
		    "doubling beyond the\n  training rows (log scale)%s\n",
		    r->board[r->disagreement_with].model,
		    /* no "-0.0%" for formulas that agree */
		    fabs(r->disagreement) < 5e-4 ? 0 : 100 * r->disagreement,
		    !r->disagreement_shown
		        ? ": the model file discover writes keeps it\n  as "
		          "fit.prior.disagreement, which widens its intervals "
		          "beyond the range"
		    : r->held.refuted
		        ? ": the held-back check refuted the search's\n  "
		          "choice, so the file written counts none of it"
		        : ": the ensemble holds both, and its mixture\n  shows "
		          "that beyond the range");
	if (r->regime_with != SIZE_MAX && r->regime_bounded)
		sf_text_printf(
		    out,
		    "  warning: the largest training levels of %s scale worse "
		    "than the model file's\n  %s and than the search made "
		    "without them (its choice came out up to\n  %+.1f%% per "
		    "doubling short of them): the found formulas bend to fit "
		    "them, so\n  their folds cannot show it; the model file "
		    "discover writes keeps it as\n  fit.prior.regime, which "
		    "widens every formula's interval beyond the range\n  "
		    "toward it\n",
		    r->extrapolate, r->board[r->regime_with].model,
		    100 * r->regime);
	else if (r->regime_with != SIZE_MAX)
		sf_text_printf(
		    out,
		    "  warning: the largest training levels of %s scale worse "
		    "than the model file's\n  %s (they came out %+.1f%% per "
		    "doubling above its refit on the levels\n  below): the "
		    "found formulas bend to fit them, so their folds cannot "
		    "show\n  it; the model file discover writes keeps it as "
		    "fit.prior.regime, which\n  widens every formula's "
		    "interval beyond the range toward it\n",
		    r->extrapolate, r->board[r->regime_with].model,
		    100 * r->regime);
	text_held_back(out, r);
	text_ensemble(out, r, output);
	if (output != NULL)
		sf_text_printf(out, "\nwrote %s\n", output);
}

char *
sf_discover_report_text(const sf_model *m, const char *data,
                        const sf_discover_result *r, const char *output)
{
	sf_text out = SF_TEXT_INIT;

	text_setting(&out, m, data, r);
	text_board(&out, r, output);
	return sf_text_take(&out);
}

static json_t *
candidate_json(const sf_discover_result *r, size_t i)
{
	const sf_discover_candidate *c = &r->board[i];
	json_t *folds = json_array(), *terms = json_array();
	json_t *o;

	for (size_t f = 0; f < r->nfolds; f++)
		json_array_append_new(folds, sf_json_number(c->fold_mape[f]));
	for (size_t t = 0; t < c->nterms; t++) {
		const sf_discover_term *x = &c->terms[t];
		json_t *constants = json_object();

		for (size_t q = 0; q < x->nparams; q++)
			json_object_set_new(constants, x->param[q],
			                    sf_json_number(x->value[q]));
		json_array_append_new(
		    terms,
		    json_pack("{s:s, s:s, s:s, s:s, s:o}", "name", x->name,
		              "kind", sf_term_kind_name(x->kind), "shape",
		              x->shape, "expr", x->expr, "constants",
		              constants));
	}
	o = json_pack("{s:I, s:o, s:s, s:I, s:o, s:o, s:o, s:o, s:b, s:b, "
	              "s:o}",
	              "rank", (json_int_t)(i + 1), "model",
	              c->model != NULL ? json_string(c->model) : json_null(),
	              "formula", c->formula, "constants", (json_int_t)c->k,
	              "extrapolation_mape", sf_json_number(c->score),
	              "fold_mape", folds, "mape", sf_json_number(c->mape),
	              "aicc", sf_json_number(c->aicc), "tied", c->tied,
	              "refitted", c->refitted, "terms", terms);
	return o;
}

json_t *
sf_discover_report_json(const sf_model *m, const char *data,
                        const sf_discover_result *r, const char *output)
{
	json_t *levels = json_array(), *folds = json_array(),
	       *inputs = json_array(), *board = json_array(),
	       *members = json_array(), *root;

	for (size_t l = 0; l < r->nlevels; l++)
		json_array_append_new(levels, sf_json_number(r->levels[l]));
	for (size_t f = 0; f < r->nfolds; f++)
		json_array_append_new(
		    folds,
		    json_pack("{s:o, s:I}", "fit_upto",
		              sf_json_number(r->levels[r->fold_last[f]]),
		              "predicted_rows", (json_int_t)r->fold_rows[f]));
	for (size_t i = 0; i < r->ninputs; i++)
		json_array_append_new(inputs, json_string(r->inputs[i]));
	for (size_t i = 0; i < r->nboard; i++)
		json_array_append_new(board, candidate_json(r, i));
	for (size_t i = 0; i < r->nmembers; i++)
		json_array_append_new(
		    members, json_integer((json_int_t)(r->members[i] + 1)));
	root = json_pack(
	    "{s:s, s:{s:s, s:s}, s:s, s:{s:s, s:o, s:o, s:o, s:o, s:s, s:o, "
	    "s:I, "
	    "s:I, s:o, s:o, s:I, s:I, s:I, s:b, s:b, s:{s:o, s:o}, s:{s:I, "
	    "s:I, "
	    "s:I, "
	    "s:I, s:o, s:b, s:b, s:b, s:b}, s:o, s:o, s:I, s:o, s:o, s:o}}",
	    "scalefit_version", PACKAGE_VERSION, "model", "name", m->name,
	    "file", m->path, "data", data, "discover", "extrapolate",
	    r->extrapolate, "count",
	    r->count != NULL ? json_string(r->count) : json_null(), "workers",
	    r->workers != NULL ? json_string(r->workers) : json_null(), "batch",
	    r->batch != NULL ? json_string(r->batch) : json_null(), "inputs",
	    inputs, "loss", sf_loss_name(r->loss), "train",
	    r->train != NULL ? json_string(r->train) : json_null(), "rows",
	    (json_int_t)r->rows, "held_out", (json_int_t)r->held_out, "levels",
	    levels, "folds", folds, "shapes", (json_int_t)r->shapes,
	    "shapes_too_steep", (json_int_t)r->too_steep, "evaluated",
	    (json_int_t)r->evaluated, "budget_reached", r->budget_reached,
	    "time_limit_reached", r->time_limit_reached, "seconds", "elapsed",
	    sf_json_number(r->seconds), "formulas_per_second",
	    sf_json_number(r->seconds > 0 ? (double)r->evaluated / r->seconds
	                                  : NAN),
	    "settings", "factors", (json_int_t)r->factors, "max_terms",
	    (json_int_t)r->max_terms, "beam", (json_int_t)r->beam, "budget",
	    (json_int_t)r->budget, "tie", sf_json_number(r->space.tie),
	    "overlap", r->space.overlap, "continuous", r->space.continuous,
	    "library", r->space.library, "growth_cap", r->space.growth_cap,
	    "best_extrapolation_mape", sf_json_number(r->best_score),
	    "tie_band", sf_json_number(r->band), "winner",
	    (json_int_t)(r->winner + 1), "ensemble", members, "board", board,
	    "output", output != NULL ? json_string(output) : json_null());
	if (root != NULL &&
	    (json_object_set_new(json_object_get(root, "discover"),
	                         "ensemble_apart", apart_json(r)) != 0 ||
	     json_object_set_new(json_object_get(root, "discover"),
	                         "ensemble_weights", weights_json(r)) != 0 ||
	     json_object_set_new(json_object_get(root, "discover"),
	                         "ensemble_nested",
	                         json_integer((json_int_t)r->nested)) != 0 ||
	     json_object_set_new(json_object_get(root, "discover"),
	                         "search_unpaid",
	                         json_integer((json_int_t)r->unpaid)) != 0 ||
	     json_object_set_new(json_object_get(root, "discover"),
	                         "search_one_fold",
	                         json_boolean(r->one_fold)) != 0 ||
	     json_object_set_new(json_object_get(root, "discover"), "pace",
	                         pace_json(r)) != 0 ||
	     json_object_set_new(json_object_get(root, "discover"),
	                         "disagreement", disagreement_json(r)) != 0 ||
	     json_object_set_new(json_object_get(root, "discover"), "held_back",
	                         held_back_json(r)) != 0 ||
	     /* only when it fired: other reports stay as they were */
	     (r->regime_with != SIZE_MAX &&
	      json_object_set_new(json_object_get(root, "discover"), "regime",
	                          regime_json(r)) != 0))) {
		json_decref(root);
		return NULL;
	}
	return root;
}
