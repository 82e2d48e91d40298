/*
 * next.c (run/) - the pipeline of `scalefit next`, and its text.
 */
#include "run/next.h"
#include "base/escape.h"
#include "input/csv.h"
#include "use/assign.h"
#include "use/fitgroups.h"
#include "use/scale.h"
#include "use/separate.h"
#include "use/sweep.h"
#include "use/text.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

void
sf_run_next_settings_init(sf_run_next_settings *s)
{
	memset(s, 0, sizeof *s);
	s->budget = INFINITY;
	s->top = 10;
}

void
sf_run_next_result_free(sf_run_next_result *r)
{
	if (r == NULL)
		return;
	sf_next_free(r->next);
	free(r->target);
	sf_fitfile_free(r->fit);
	sf_run_output_clear(&r->out);
	free(r);
}

/* ---- the candidates of --over -------------------------------------------- */

/* The input --over moves: a numeric input of f named before its '='. */
static int
over_input(const sf_fitfile *f, const char *over, size_t *var, sf_error *err)
{
	const char *eq = strchr(over, '=');
	char name[128];

	if (eq == NULL || eq == over || (size_t)(eq - over) >= sizeof name)
		return sf_run_request(err,
		                      "--over '%s': write NAME=LO:HI or "
		                      "NAME=V1,V2,...",
		                      over);
	memcpy(name, over, (size_t)(eq - over));
	name[eq - over] = '\0';
	if ((*var = sf_assign_input(f, name, err)) == SF_FITFILE_NONE)
		return sf_run_request(err, "--over: %s", err->message);
	if (f->inputs[*var].levels != NULL)
		return sf_run_request(err,
		                      "--over: %s is a text input; list its "
		                      "candidates in --candidates FILE.csv",
		                      name);
	return SF_OK;
}

/* The values of LO:HI: doublings from LO, whole for the worker input. */
static int
over_range(const sf_fitfile *f, const char *over, size_t var, const char *spec,
           double **values, size_t *count, sf_error *err)
{
	/* the ends read as every input's value is (assign.h) */
	char ends[128], *colon;
	double lo = NAN, hi = NAN;
	int whole = var == sf_scale_worker_input(f);

	snprintf(ends, sizeof ends, "%s", spec);
	colon = strchr(ends, ':');
	if (colon != NULL)
		*colon = '\0';
	if (strlen(spec) >= sizeof ends || colon == NULL ||
	    sf_assign_value(f, var, ends, &lo, err) != SF_OK ||
	    sf_assign_value(f, var, colon + 1, &hi, err) != SF_OK || lo > hi ||
	    (whole && (lo < 1 || lo != floor(lo) || hi != floor(hi))))
		return sf_run_request(
		    err, "--over '%s': LO:HI needs numbers LO <= HI%s", over,
		    whole ? ", whole and >= 1 for workers" : "");
	if (sf_sweep_values(lo, hi, whole, lo > 0, 0, values, count, err) !=
	    SF_OK)
		return sf_run_request(err, "--over '%s': %s", over,
		                      err->message);
	return SF_OK;
}

/* The values of V1,V2,... */
static int
over_list(const sf_fitfile *f, const char *over, size_t var, const char *spec,
          double **values, size_t *count, sf_error *err)
{
	const char *p = spec;

	if ((*values = malloc((strlen(spec) / 2 + 2) * sizeof **values)) ==
	    NULL)
		return sf_error_set(err, SF_ENOMEM, "out of memory");
	while (*p != '\0') {
		size_t len = strcspn(p, ",");
		char item[64];

		if (len == 0 || len >= sizeof item)
			return sf_run_request(
			    err,
			    "--over '%s': an empty or overlong "
			    "value",
			    over);
		memcpy(item, p, len);
		item[len] = '\0';
		if (sf_assign_value(f, var, item, &(*values)[*count], err) !=
		    SF_OK)
			return sf_run_request(err, "--over '%s': %s", over,
			                      err->message);
		(*count)++;
		p += len + (p[len] == ',');
	}
	return SF_OK;
}

/* The other inputs' values: the target's, unless --set says otherwise. */
static int
over_fixed(const sf_fitfile *f, const sf_run_next_settings *s,
           const double *target, double *fixed, sf_error *err)
{
	unsigned char *given = calloc(f->ninputs + 1, 1);
	int rc = SF_OK;

	if (given == NULL)
		return sf_error_set(err, SF_ENOMEM, "out of memory");
	memcpy(fixed, target, f->ninputs * sizeof *fixed);
	for (size_t k = 0; k < s->nset && rc == SF_OK; k++)
		if (sf_assign_parse(f, s->set[k], fixed, given, err) != SF_OK)
			rc = sf_run_request(err, "--set '%s': %s", s->set[k],
			                    err->message);
	free(given);
	return rc;
}

/*
 * The candidates of --over NAME=LO:HI or NAME=V1,V2,...: *columns (one
 * per input, sf_assign_columns_free) of *n candidates.
 */
static int
over_candidates(const sf_fitfile *f, const sf_run_next_settings *s,
                const double *target, double ***columns, size_t *n,
                sf_error *err)
{
	const size_t J = f->ninputs;
	double *values = NULL, *fixed = malloc((J + 1) * sizeof *fixed);
	double **out = NULL;
	size_t var = SF_FITFILE_NONE, count = 0;
	int rc;

	if (fixed == NULL) {
		rc = sf_error_set(err, SF_ENOMEM, "out of memory");
		goto done;
	}
	if ((rc = over_input(f, s->over, &var, err)) != SF_OK ||
	    (rc = over_fixed(f, s, target, fixed, err)) != SF_OK)
		goto done;
	{
		const char *spec = strchr(s->over, '=') + 1;

		rc = strchr(spec, ':') != NULL
		         ? over_range(f, s->over, var, spec, &values, &count,
		                      err)
		         : over_list(f, s->over, var, spec, &values, &count,
		                     err);
	}
	if (rc != SF_OK)
		goto done;
	if ((out = calloc(J + 1, sizeof *out)) == NULL)
		rc = sf_error_set(err, SF_ENOMEM, "out of memory");
	for (size_t i = 0; i < J && rc == SF_OK; i++) {
		if ((out[i] = malloc((count + 1) * sizeof *out[i])) == NULL)
			rc = sf_error_set(err, SF_ENOMEM, "out of memory");
		for (size_t k = 0; k < count && rc == SF_OK; k++)
			out[i][k] = i == var ? values[k] : fixed[i];
	}
	if (rc == SF_OK) {
		*columns = out;
		*n = count;
		out = NULL;
	}
done:
	sf_assign_columns_free(out, J);
	free(values);
	free(fixed);
	return rc;
}

/* ---- text ---------------------------------------------------------------- */

/* What the text shows. */
typedef struct next_text {
	const sf_fitfile *f;
	const double *target;
	const sf_next *x;
	size_t top, runs;
	double budget;
	const sf_average_weights *averaged; /* how several fit files were
	                                       averaged; NULL: one */
} next_text;

/* Candidate k's inputs, "p = 8, b = 32". */
static void
print_inputs(FILE *out, const sf_fitfile *f, const sf_next *x, size_t k)
{
	char cell[96];

	for (size_t i = 0; i < f->ninputs; i++) {
		sf_text_input(f, i, x->inputs[i * x->n + k], cell, sizeof cell);
		fprintf(out, "%s%s = %s", i ? ", " : "", f->inputs[i].name,
		        cell);
	}
}

/* The target today and the candidates ranked, the first t->top. */
static void
print_ranking(FILE *out, const next_text *t)
{
	const sf_fitfile *f = t->f;
	const sf_next *x = t->x;
	char cell[96];

	/* The name and output come from the file: escaped. */
	if (x->members > 0 && t->averaged != NULL) {
		fprintf(out, "next run for the average of %zu fits (%s:",
		        f->nmembers, sf_average_weights_said(*t->averaged));
		for (size_t m = 0; m < f->nmembers; m++) {
			fputs(m > 0 ? ", " : " ", out);
			sf_escape_print(out, f->members[m]->name, 0);
			fprintf(out, " %.3f", f->weights[m]);
		}
		fputs(")", out);
	} else if (x->members > 0) {
		fprintf(out, "next run for the ensemble of %zu formulas",
		        x->members);
	} else {
		fputs("next run for ", out);
		sf_escape_print(out, f->name[0] ? f->name : "the fit", 0);
	}
	fputs(": which measurement narrows the 95% interval of a new run "
	      "at ",
	      out);
	for (size_t i = 0; i < f->ninputs; i++) {
		sf_text_input(f, i, t->target[i], cell, sizeof cell);
		fprintf(out, "%s%s = %s", i ? ", " : "", f->inputs[i].name,
		        cell);
	}
	fprintf(out, "\n  today: %.5g ", x->target_time);
	sf_escape_print(out, f->output, 0);
	fprintf(out,
	        ", 95%% in [%.5g, %.5g] (+-%.3g%%), %.3g doublings beyond "
	        "the fitted range\n",
	        x->now.lo, x->now.hi, x->now.halfwidth_pct, x->now.distance);
	if (sf_next_all_noise(x))
		fprintf(out,
		        "  nearly all noise: the scatter of runs is %.0f%% of "
		        "that interval's variance (+-%.3g%% alone), so no run "
		        "will narrow it much\n",
		        100 * x->noise_share, x->noise_pct);
	if (x->members > 0)
		fprintf(
		    out,
		    "  a run narrows each formula's interval and tells them "
		    "apart, whatever it measures:\n  the interval after is "
		    "expected over its result; info is what the result\n  "
		    "tells of which formula holds (nats; %.2f tells all)\n",
		    x->formula_entropy);
	fputs("  cost of a run: predicted ", out);
	sf_escape_print(out, f->output, 0);
	fprintf(out, "%s\n\n",
	        x->workers != SF_FITFILE_NONE ? " x workers" : "");
	fprintf(out, "  %4s", "rank");
	for (size_t i = 0; i < f->ninputs; i++)
		fprintf(out, "  %*s", sf_text_width(f->inputs[i].name, 8),
		        f->inputs[i].name);
	fprintf(out, "  %10s  %10s  %-22s %8s %7s\n", "time", "cost",
	        "95% at target after", "+-",
	        x->members > 0 ? "info" : "D-gain");
	for (size_t r = 0; r < x->nranked && r < t->top; r++) {
		size_t k = x->rank[r];
		const sf_design_gain *g = &x->gains[k];

		fprintf(out, "  %4zu", r + 1);
		for (size_t i = 0; i < f->ninputs; i++) {
			sf_text_input(f, i, x->inputs[i * x->n + k], cell,
			              sizeof cell);
			fprintf(out, "  %*s",
			        sf_text_width(f->inputs[i].name, 8), cell);
		}
		/* what the fit cannot tell (no noise: sigma 0) is "-" */
		sf_text_band((sf_band){g->lo, g->hi}, 5, cell, sizeof cell);
		fprintf(out, "  %10.5g  %10.4g  %-22s ", x->time[k], x->cost[k],
		        cell);
		if (isfinite(g->halfwidth_pct))
			fprintf(out, "%7.3g%% ", g->halfwidth_pct);
		else
			fprintf(out, "%8s ", "-");
		if (x->members > 0 && isfinite(g->formula_info))
			fprintf(out, "%7.3f\n", g->formula_info);
		else if (x->members == 0 && isfinite(g->d_gain))
			fprintf(out, "%7.3f\n", g->d_gain);
		else
			fprintf(out, "%7s\n", "-");
	}
	if (x->nranked > t->top)
		fprintf(out, "  ... %zu more candidates (--top N shows more)\n",
		        x->nranked - t->top);
}

/* The plan within the budget. */
static void
print_plan(FILE *out, const next_text *t)
{
	const sf_next *x = t->x;
	double spent = 0;

	fprintf(out, "\n  plan");
	if (isfinite(t->budget))
		fprintf(out,
		        " within a budget of %g, leaving out runs that narrow "
		        "the interval by less than %g%% of its half-width",
		        t->budget, 100 * SF_DESIGN_MIN_NARROWING);
	fprintf(out, ": the most narrowing per cost first\n");
	if (x->nplan == 0 && !x->plan_small)
		fprintf(out, "    nothing: no candidate costs %g or less\n",
		        t->budget);
	for (size_t r = 0; r < x->nplan; r++) {
		size_t k = x->plan[r];

		spent += x->cost[k];
		fprintf(out, "    %zu. ", r + 1);
		print_inputs(out, t->f, x, k);
		fprintf(out, "  (cost %.4g, total %.4g): then +-%.3g%%\n",
		        x->cost[k], spent, x->after[r].halfwidth_pct);
	}
	if (x->plan_small)
		fprintf(out,
		        "    %s: every run the rest of the budget (%.4g) "
		        "affords narrows the interval by less than %g%%\n",
		        x->nplan > 0 ? "then stop" : "nothing",
		        t->budget - spent, 100 * SF_DESIGN_MIN_NARROWING);
}

static int
print_text(FILE *out, const void *arg)
{
	const next_text *t = arg;

	print_ranking(out, t);
	if (t->runs > 1 || isfinite(t->budget))
		print_plan(out, t);
	return SF_OK;
}

/* ---- the run ------------------------------------------------------------- */

/* The target: a value for every input of r's fit. */
static int
read_target(const sf_run_next_settings *s, sf_run_next_result *r, sf_error *err)
{
	const sf_fitfile *f = r->fit;
	unsigned char *given = calloc(f->ninputs + 1, 1);
	int rc = SF_OK;

	if ((r->target = calloc(f->ninputs + 1, sizeof *r->target)) == NULL ||
	    given == NULL)
		rc = sf_error_set(err, SF_ENOMEM, "out of memory");
	else if (sf_assign_parse(f, s->target, r->target, given, err) != SF_OK)
		rc = sf_run_request(err, "--target '%s': %s", s->target,
		                    err->message);
	for (size_t i = 0; i < f->ninputs && rc == SF_OK; i++)
		if (!given[i])
			rc = sf_run_request(err,
			                    "--target '%s': no value for input "
			                    "%s (every input needs one)",
			                    s->target, f->inputs[i].name);
	free(given);
	return rc;
}

/* The candidates: along --over, or the rows of the CSV (their lines in
 * *lines, malloc'd). */
static int
read_candidates(const sf_run_next_settings *s, const sf_run_next_result *r,
                double ***columns, size_t *n, int **lines, sf_error *err)
{
	sf_table *table = NULL;
	int rc;

	if (s->over != NULL)
		return over_candidates(r->fit, s, r->target, columns, n, err);
	if ((rc = sf_table_load(s->candidates, NULL, &table, err)) == SF_OK &&
	    (rc = sf_assign_table(r->fit, table, columns, err)) == SF_OK) {
		*n = sf_table_rows(table);
		if ((*lines = malloc((*n + 1) * sizeof **lines)) == NULL)
			rc = sf_error_set(err, SF_ENOMEM, "out of memory");
		else
			memcpy(*lines, sf_table_row_lines(table),
			       *n * sizeof **lines);
	}
	sf_table_free(table);
	return rc;
}

/*
 * Warn about each candidate next skipped (the formula is not finite
 * there): named by its CSV line (lines) or, along --over, its values.
 * Then refuse when none is left.
 */
static int
warn_skipped(const sf_run_next_settings *s, const sf_run_next_result *r,
             const int *lines, sf_error *err)
{
	static const char *const why[] = {
	    [SF_NEXT_TIME] = "the predicted time is not finite there",
	    [SF_NEXT_COST] = "its cost (time times workers) is not finite",
	    [SF_NEXT_GRADIENT] = "the time's derivative in a fitted "
	                         "constant is not finite there",
	};
	const sf_next *x = r->next;

	for (size_t k = 0; k < x->n && s->warn != NULL; k++) {
		char *point = NULL;
		size_t length = 0;
		FILE *out;
		sf_error w;

		if (x->skipped[k] == SF_NEXT_KEPT)
			continue;
		if ((out = open_memstream(&point, &length)) == NULL)
			return sf_error_set(err, SF_ENOMEM, "out of memory");
		print_inputs(out, r->fit, x, k);
		if (fclose(out) != 0) {
			free(point);
			return sf_error_set(err, SF_ENOMEM, "out of memory");
		}
		sf_error_clear(&w);
		sf_error_at(&w, SF_OK, lines != NULL ? s->candidates : "--over",
		            lines != NULL ? lines[k] : 0, 0,
		            "candidate %s left out: %s (a point outside the "
		            "formula's domain)",
		            point, why[x->skipped[k]]);
		free(point);
		s->warn(s->warn_ctx, &w);
	}
	if (x->nranked == 0)
		return sf_run_request(
		    err,
		    "no candidate is left: the formula is not "
		    "finite at any of the %zu",
		    x->n);
	return SF_OK;
}

/* How many of ensemble e's formulas have weight (0 for a plain fit), the
 * last of them into *last. */
static size_t
weighted_members(const sf_fitfile *e, size_t *last)
{
	size_t weighted = 0;

	for (size_t m = 0; m < e->nmembers; m++)
		if (e->weights[m] > 0) {
			weighted++;
			*last = m;
		}
	return weighted;
}

/* An ensemble's fit r->fit with all its weight on one formula (a file
 * written with such weights) becomes that formula's, said in a warning:
 * there is nothing to tell apart. */
static void
sole_member(const sf_run_next_settings *s, sf_run_next_result *r)
{
	sf_fitfile *e = r->fit;
	size_t only = 0;

	if (weighted_members(e, &only) != 1)
		return;
	r->fit = e->members[only];
	e->members[only] = NULL;
	if (s->warn != NULL) {
		sf_error w;

		sf_error_clear(&w);
		sf_error_at(&w, SF_OK, e->path, 0, 0,
		            "an ensemble with all its weight on '%s': next "
		            "answers for that formula",
		            r->fit->name);
		s->warn(s->warn_ctx, &w);
	}
	sf_fitfile_free(e);
}

/* The fit: a plain fit file's, the group of a groups file that s->group
 * chooses (next answers for one fit), an ensemble's (use/separate.h), or
 * several fit files' average, ranked for as an ensemble's. */
static int
load_fit(const sf_run_next_settings *s, sf_run_next_result *r, sf_error *err)
{
	const char *path = s->fits[0];
	sf_fitfile_set *set = NULL;
	int rc;

	if ((rc = sf_run_average_asked(s->nfits > 1, &s->weights, s->nfits,
	                               s->group, err)) != SF_OK)
		return rc;
	if (s->nfits > 1) {
		/* an average stays one, whatever its weights */
		return sf_run_average_ensemble(
		    "rank runs for", s->fits, s->texts, s->nfits, &s->weights,
		    s->warn, s->warn_ctx, &r->fit, err);
	}
	if ((rc = sf_fitfile_load_groups_text(
	         path, s->texts != NULL ? s->texts[0] : NULL, s->group, 0, &set,
	         err)) != SF_OK)
		return rc;
	if (set->count > 1) {
		rc = sf_run_request(err,
		                    "%s holds the fits of %zu groups%s: next "
		                    "answers for one; choose it with --group "
		                    "KEY (e.g. --group %s)",
		                    path, set->count,
		                    s->group != NULL ? " that match --group"
		                                     : " (a --by fit)",
		                    set->labels[0]);
		sf_fitfile_set_free(set);
		return rc;
	}
	r->fit = set->fits[0];
	set->fits[0] = NULL;
	sf_fitfile_set_free(set);
	sole_member(s, r);
	return SF_OK;
}

/* The study of r->fit's candidates: one formula's design (use/design.h),
 * or an ensemble's (use/separate.h), which ranks single runs only. */
static int
study(const sf_run_next_settings *s, sf_run_next_result *r,
      const double *const *columns, size_t n, size_t runs, sf_error *err)
{
	size_t last;

	if (r->fit->nmembers == 0)
		return sf_next_run(r->fit, r->target, columns, n, s->budget,
		                   runs, &r->next, err);
	if (runs > 1 || isfinite(s->budget))
		return sf_error_set(
		    err, SF_EVALUE,
		    "%s is an ensemble of %zu formulas: next ranks single runs "
		    "for it, without --budget or --runs above 1 (what a second "
		    "run is worth depends on which formulas the first rules "
		    "out: measure it, refit, and ask again)",
		    r->fit->path, weighted_members(r->fit, &last));
	return sf_next_ensemble(r->fit, r->target, columns, n, &r->next, err);
}

/* The JSON document of r's ranking (use/design.h), with the fits an
 * average was made of and their weights ("models", as predict's). */
static int
next_json(sf_run_next_result *r, size_t top, int averaged, sf_error *err)
{
	if ((r->out.json = sf_next_json(r->fit, r->next, top)) == NULL)
		return sf_error_set(err, SF_ENOMEM, "out of memory");
	return averaged ? sf_run_average_models(r->out.json, r->fit, err)
	                : SF_OK;
}

int
sf_run_next(const sf_run_next_settings *s, sf_run_next_result **out,
            sf_error *err)
{
	sf_run_next_result *r = calloc(1, sizeof *r);
	size_t runs = s->runs > 0 ? s->runs : isfinite(s->budget) ? 1000 : 1;
	double **columns = NULL;
	int *lines = NULL;
	size_t n = 0;
	int rc, averaged;

	*out = NULL;
	if (r == NULL)
		return sf_error_set(err, SF_ENOMEM, "out of memory");
	if ((s->over == NULL) == (s->candidates == NULL)) {
		rc = sf_run_request(err, "give the candidates along one input "
		                         "or in a CSV file, one of them");
		goto done;
	}
	if (s->nfits == 0) {
		rc = sf_run_request(err, "next needs a fit file");
		goto done;
	}
	if ((rc = load_fit(s, r, err)) != SF_OK)
		goto done;
	sf_fitfile_warn(r->fit, s->warn, s->warn_ctx);
	if ((rc = read_target(s, r, err)) != SF_OK ||
	    (rc = read_candidates(s, r, &columns, &n, &lines, err)) != SF_OK)
		goto done;
	if ((rc = study(s, r, (const double *const *)columns, n, runs, err)) !=
	    SF_OK) {
		if (rc != SF_ENOMEM)
			rc = sf_run_request(err, "%s", err->message);
		goto done;
	}
	if ((rc = warn_skipped(s, r, lines, err)) != SF_OK)
		goto done;
	averaged = s->nfits > 1;
	if (s->json && (rc = next_json(r, s->top, averaged, err)) != SF_OK)
		goto done;
	{
		next_text t = {r->fit,
		               r->target,
		               r->next,
		               s->top,
		               runs,
		               s->budget,
		               averaged ? &s->weights.how : NULL};

		rc = sf_run_text(print_text, &t, &r->out.text, err);
	}
done:
	free(lines);
	if (r->fit != NULL)
		sf_assign_columns_free(columns, r->fit->ninputs);
	if (rc != SF_OK) {
		sf_run_next_result_free(r);
		return rc;
	}
	*out = r;
	return SF_OK;
}
