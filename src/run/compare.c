/*
 * compare.c (run/) - the pipeline of `scalefit compare`, and its text.
 */
#include "run/compare.h"
#include "use/text.h"
#include "base/escape.h"
#include "use/comparison.h"

#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void
sf_run_compare_settings_init(sf_run_compare_settings *s)
{
	memset(s, 0, sizeof *s);
	s->kfold = 5;
	sf_fit_options_init(&s->options);
}

void
sf_run_compare_result_free(sf_run_compare_result *r)
{
	if (r == NULL)
		return;
	sf_compare_free(r->compare);
	sf_fleet_free(r->fleet);
	sf_run_output_clear(&r->out);
	free(r);
}

/* Under the table, when candidates fit the rows exactly: why their AICc
 * is -inf and how their weights are shared. */
static void
print_exact(FILE *out, const sf_compare *cmp)
{
	size_t k = sf_compare_exact(cmp);

	if (k == 0)
		return;
	fprintf(out,
	        "\nAICc and BIC -inf: %zu candidate%s fit%s the rows exactly "
	        "(SSE 0), and AICc cannot tell exact fits apart: %s the "
	        "Akaike weight %s; compare on held-out rows (validate "
	        "--train, or --kfold)\n",
	        k, k == 1 ? "" : "s", k == 1 ? "s" : "",
	        k == 1 ? "it takes" : "they share",
	        k == 1 ? "whole" : "equally, the others none");
}

static void
print_table(FILE *out, const sf_compare *cmp)
{
	const char *train = cmp->s.train;

	fprintf(out,
	        "%4s %-22s %3s %5s %12s %10s %10s %7s %8s %8s %8s %6s  %s\n",
	        "rank", "model", "k", "rows", "SSE", "AICc", "BIC", "weight",
	        "MAPE", "CV MAPE", train != NULL ? "extrap" : "", "|corr|",
	        "notes");
	for (size_t i = 0; i < cmp->n; i++) {
		const sf_compare_candidate *x = cmp->c[cmp->order[i]];
		char label[23];

		/* A model's name, escaped and cut to its column. */
		sf_escape(label, sizeof label, x->label, 0);
		if (x->failed) {
			fprintf(out,
			        "%4zu %-22s %3zu %5zu  no finite cost: the "
			        "fit failed\n",
			        i + 1, label, x->k, x->n);
			continue;
		}
		fprintf(out,
		        "%4zu %-22s %3zu %5zu %12.6g %10.4g %10.4g %7.3f "
		        "%7.3g%% %7.3g%% ",
		        i + 1, label, x->k, x->n, x->sse, x->aicc, x->bic,
		        x->weight, x->mape, x->cv_mape);
		if (train != NULL)
			fprintf(out, "%7.3g%% ", x->extra_mape);
		else
			fprintf(out, "%8s ", "");
		if (isnan(x->max_corr))
			fprintf(out, "%6s", "-");
		else
			fprintf(out, "%6.3f", x->max_corr);
		/* No line ends in spaces: the notes' gap only before one. */
		if (x->at_bound > 0 || x->over || x->poor[0])
			fputs("  ", out);
		if (x->at_bound > 0)
			fprintf(out, "%zu at bound%s", x->at_bound,
			        x->over || x->poor[0] ? "; " : "");
		if (x->over)
			fprintf(out, "over-parameterised%s",
			        x->poor[0] ? "; " : "");
		if (x->poor[0])
			fprintf(out, "poorly determined: %s", x->poor);
		fputc('\n', out);
	}
}

/* The ranking as CSV (--csv): an sf_run_print_fn, the JSON's names. */
static int
print_csv(FILE *out, const void *arg)
{
	const sf_compare *cmp = arg;
	static const char *const head[] = {"rank",
	                                   "model",
	                                   "k",
	                                   "rows",
	                                   "failed",
	                                   "sse",
	                                   "aicc",
	                                   "bic",
	                                   "akaike_weight",
	                                   "mape",
	                                   "cv_mape",
	                                   "extrapolation_mape",
	                                   "max_abs_correlation",
	                                   "at_bound",
	                                   "over_parameterised",
	                                   "poorly_determined"};

	for (size_t h = 0; h < sizeof head / sizeof *head; h++)
		sf_text_csv_field(out, head[h], h == 0);
	putc('\n', out);
	for (size_t i = 0; i < cmp->n; i++) {
		const sf_compare_candidate *x = cmp->c[cmp->order[i]];
		const double v[] = {x->sse,        x->aicc,    x->bic,
		                    x->weight,     x->mape,    x->cv_mape,
		                    x->extra_mape, x->max_corr};

		fprintf(out, "%zu", i + 1);
		sf_text_csv_field(out, x->label, 0);
		fprintf(out, ",%zu,%zu,%s", x->k, x->n,
		        x->failed ? "true" : "false");
		for (size_t k = 0; k < sizeof v / sizeof *v; k++)
			sf_text_csv_number(out, v[k], 0);
		fprintf(out, ",%zu,%s", x->at_bound,
		        x->over ? "true" : "false");
		sf_text_csv_field(out, x->poor, 0);
		putc('\n', out);
	}
	return SF_OK;
}

/* Under the ranking, with --train: the extrapolation MAPE of every
 * candidate per held-out value of each extrapolated input. */
static void
print_levels(FILE *out, const sf_compare *cmp)
{
	const char *names[64]; /* the extrapolated inputs shown */
	double values[SF_HOLDOUT_LEVELS_MAX];
	size_t ninputs = sf_compare_level_inputs(cmp, names, 64);

	for (size_t k = 0; k < ninputs; k++) {
		size_t n = sf_compare_level_values(cmp, names[k], values,
		                                   SF_HOLDOUT_LEVELS_MAX);

		if (n == 0)
			continue;
		fprintf(out,
		        "\nextrapolation MAPE by %s (the rows --train holds "
		        "out):\n%4s %-22s",
		        names[k], "rank", "model");
		for (size_t g = 0; g < n; g++)
			fprintf(out, " %8.6g", values[g]);
		fputc('\n', out);
		for (size_t i = 0; i < cmp->n; i++) {
			const sf_compare_candidate *x = cmp->c[cmp->order[i]];

			if (x->failed)
				continue;
			fprintf(out, "%4zu %-22.22s", i + 1, x->label);
			for (size_t g = 0; g < n; g++) {
				const sf_compare_level *l =
				    sf_compare_level_find(x, names[k],
				                          values[g]);

				if (l != NULL)
					fprintf(out, " %7.3g%%", l->mape);
				else
					fprintf(out, " %8s", "-");
			}
			fputc('\n', out);
		}
	}
}

/* Above the table: what the ranking follows and why, and what AICc (the
 * weights' criterion) would put first when that is another candidate.
 * Nothing for the old default, AICc without --train. */
static void
print_ranking(FILE *out, const sf_compare *cmp)
{
	sf_compare_rank_by used = sf_compare_rank_used(cmp);
	const sf_compare_ranking *by = sf_compare_ranking_get(used);
	size_t first = cmp->n > 0 ? cmp->order[0] : SIZE_MAX;
	size_t aicc = sf_compare_first_by(cmp, SF_COMPARE_RANK_AICC);

	if (cmp->s.rank == SF_COMPARE_RANK_DEFAULT && cmp->s.train == NULL)
		return;
	fprintf(out, "ranked by %s", by->score);
	if (cmp->s.rank != SF_COMPARE_RANK_DEFAULT)
		fprintf(out, " (--rank %s)", by->name);
	else
		fprintf(out, ": --train asks how well each formula predicts "
		             "the rows it holds out (--rank aicc ranks by the "
		             "fit to every row)");
	if (used != SF_COMPARE_RANK_AICC) {
		fprintf(out, "; the weights are Akaike's, from AICc");
		if (aicc != SIZE_MAX && first != SIZE_MAX && aicc != first) {
			fputs(", and AICc ranks '", out);
			sf_escape_print(out, cmp->c[aicc]->label, 0);
			fputs("' first", out);
		}
	}
	fputs("\n\n", out);
}

/* The ranking and the extrapolation by value: an sf_run_print_fn. */
static int
print_text(FILE *out, const void *arg)
{
	print_ranking(out, arg);
	print_table(out, arg);
	print_exact(out, arg);
	print_levels(out, arg);
	return SF_OK;
}

/* Warn through warn (not NULL) with a message and no position. */
static void warn_text(sf_warn_fn warn, void *ctx, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static void
warn_text(sf_warn_fn warn, void *ctx, const char *fmt, ...)
{
	sf_error w;
	va_list ap;

	sf_error_clear(&w);
	va_start(ap, fmt);
	vsnprintf(w.message, sizeof w.message, fmt, ap);
	va_end(ap);
	warn(ctx, &w);
}

/* Candidates x and y were fitted to different rows: say how. */
static void
warn_other_rows(sf_warn_fn warn, void *ctx, const sf_compare_candidate *x,
                const sf_compare_candidate *y)
{
	const sf_dataset *dx = x->problem.data, *dy = y->problem.data;
	const char *wx = x->model->where.text, *wy = y->model->where.text;

	if (strcmp(dx->sha256, dy->sha256) != 0)
		warn_text(warn, ctx,
		          "'%s' and '%s' are fitted to different data (%zu "
		          "rows of %s, %zu rows of %s): their AICc and weights "
		          "do not compare",
		          x->label, y->label, x->n, dx->file, y->n, dy->file);
	else
		warn_text(warn, ctx,
		          "'%s' and '%s' are fitted to different rows of %s "
		          "(%zu rows %s%s, %zu rows %s%s): their AICc and "
		          "weights do not compare",
		          x->label, y->label, dx->file, x->n,
		          wx ? "where " : "without a filter", wx ? wx : "",
		          y->n, wy ? "where " : "without a filter",
		          wy ? wy : "");
}

/* What a person should know before reading the ranking: outputs, rows or
 * losses that differ between the candidates. */
static void
warn_incomparable(const sf_compare *cmp, sf_warn_fn warn, void *ctx)
{
	size_t other;

	if (warn == NULL)
		return;
	if ((other = sf_compare_other_output(cmp)) > 0)
		warn_text(
		    warn, ctx,
		    "'%s' and '%s' fit different outputs ('%s' and '%s'): "
		    "their SSE are in different units",
		    cmp->c[0]->label, cmp->c[other]->label,
		    sf_model_output(cmp->c[0]->model),
		    sf_model_output(cmp->c[other]->model));
	if ((other = sf_compare_other_row_set(cmp)) > 0)
		warn_other_rows(warn, ctx, cmp->c[0], cmp->c[other]);
	else if ((other = sf_compare_other_rows(cmp)) > 0)
		warn_text(
		    warn, ctx,
		    "'%s' and '%s' are not fitted to the same rows with "
		    "the same loss; their AICc and weights do not compare",
		    cmp->c[0]->label, cmp->c[other]->label);
}

/* A --by run: the candidates' rows split alike, each group compared on
 * its own (job.settings). */
typedef struct group_ctx {
	sf_fleet_job job;      /* the run's seed */
	const sf_compare *all; /* every candidate, opened on all its rows */
	sf_groups **groups;    /* each candidate's rows split by the columns */
} group_ctx;

static int
compare_group(void *ctx, const sf_dataset *group, size_t index, sf_warn_fn warn,
              void *warn_ctx, json_t **report, char **text, sf_error *err)
{
	const group_ctx *g = ctx;
	const char *label = g->groups[0]->groups[index].label;
	sf_compare_settings s = g->all->s;
	sf_compare *cmp = NULL;
	int rc = SF_OK;

	(void)group;
	s.options = sf_fleet_options(&g->job, &s.options, index);
	s.warn = warn;
	s.warn_ctx = warn_ctx;
	if ((cmp = sf_compare_alloc(&s)) == NULL)
		return sf_error_set(err, SF_ENOMEM, "out of memory");
	for (size_t i = 0; i < g->all->n && rc == SF_OK; i++) {
		const sf_compare_candidate *c = g->all->c[i];
		size_t k = i == 0 ? index : sf_groups_find(g->groups[i], label);
		const sf_group *gr =
		    k == SIZE_MAX ? NULL : &g->groups[i]->groups[k];

		if (gr == NULL || gr->nrows < c->k)
			rc = sf_error_set(err, SF_EVALUE,
			                  "candidate '%s' has %zu usable rows "
			                  "here, fewer than its %zu fitted "
			                  "constants",
			                  c->model->name,
			                  gr != NULL ? gr->nrows : 0, c->k);
		else
			rc = sf_compare_add_rows(cmp, c->model, &c->problem,
			                         gr->rows, gr->nrows, err);
	}
	if (rc == SF_OK)
		rc = sf_compare_split(cmp, err);
	if (rc == SF_OK)
		rc = sf_compare_fit_all(cmp, err);
	if (rc != SF_OK)
		goto done;
	sf_compare_rank(cmp);
	if ((*report = sf_comparison_json(cmp)) == NULL)
		rc = sf_error_set(err, SF_ENOMEM, "out of memory");
	else
		rc = sf_run_text(print_text, cmp, text, err);
done:
	sf_compare_free(cmp);
	return rc;
}

/* Compare every group of cmp's rows (split as s->data says) alone. */
static int
compare_fleet(const sf_run_compare_settings *s, sf_run_compare_result *r,
              sf_error *err)
{
	const sf_compare *cmp = r->compare;
	const sf_model *m = cmp->c[0]->model;
	const char *by = s->data.by != NULL ? s->data.by : m->by.text;
	int from_file = s->data.by == NULL;
	group_ctx g = {
	    {s, m, NULL, sf_fit_settings_effective(m, &s->options).seed},
	    cmp,
	    calloc(cmp->n, sizeof *g.groups)};
	int rc = SF_OK;

	if (g.groups == NULL)
		return sf_error_set(err, SF_ENOMEM, "out of memory");
	/* The other candidates' rows, split by the same columns (the
	 * first's split is sf_run_fleet's, checked there). */
	for (size_t i = 0; i < cmp->n && rc == SF_OK; i++) {
		const sf_compare_candidate *c = cmp->c[i];

		rc = sf_groups_split(
		    c->problem.table != NULL ? c->problem.table : s->data.table,
		    c->problem.data, by, c->model->path,
		    from_file ? &m->by : NULL, &g.groups[i], err);
		if (rc != SF_OK && from_file && i == 0)
			sf_error_quote(err, m->source, m->source_length);
	}
	if (rc == SF_OK)
		rc = sf_run_fleet(m, &cmp->c[0]->problem, &s->data,
		                  compare_group, &g, s->warn, s->warn_ctx,
		                  &r->fleet, &r->out, err);
	for (size_t i = 0; i < cmp->n; i++)
		sf_groups_free(g.groups[i]);
	free(g.groups);
	return rc;
}

/* Every model of every set, a candidate of cmp: opened, not fitted. */
static int
add_candidates(sf_compare *cmp, sf_model_set *const *sets, size_t nsets,
               sf_error *err)
{
	int rc;

	for (size_t f = 0; f < nsets; f++)
		for (size_t i = 0; i < sets[f]->count; i++) {
			if (cmp->n == SF_RUN_COMPARE_MAX)
				return sf_error_set(err, SF_EREQUEST,
				                    "at most %d models",
				                    SF_RUN_COMPARE_MAX);
			if ((rc = sf_compare_add(cmp, sets[f]->models[i],
			                         err)) != SF_OK)
				return rc;
		}
	return SF_OK;
}

/* Fit and rank every candidate of r: the warnings, the JSON when asked,
 * the text. */
static int
compare_all(const sf_run_compare_settings *s, sf_run_compare_result *r,
            sf_error *err)
{
	int rc;

	if ((rc = sf_compare_fit_all(r->compare, err)) != SF_OK)
		return rc;
	warn_incomparable(r->compare, s->warn, s->warn_ctx);
	sf_compare_rank(r->compare);
	if (s->json && (r->out.json = sf_comparison_json(r->compare)) == NULL)
		return sf_error_set(err, SF_ENOMEM, "out of memory");
	return sf_run_text(s->csv ? print_csv : print_text, r->compare,
	                   &r->out.text, err);
}

int
sf_run_compare(sf_model_set *const *sets, size_t nsets,
               const sf_run_compare_settings *s, sf_run_compare_result **out,
               sf_error *err)
{
	sf_compare_settings settings = {
	    .data_path = s->data.path,
	    .table = s->data.table,
	    .train = s->train,
	    .kfold = s->kfold,
	    .options = s->options,
	    .rank = s->rank,
	    .warn = s->warn,
	    .warn_ctx = s->warn_ctx,
	};
	sf_run_compare_result *r = calloc(1, sizeof *r);
	int rc;

	*out = NULL;
	if (s->rank == SF_COMPARE_RANK_EXTRAPOLATION && s->train == NULL) {
		free(r);
		return sf_run_request(err, "--rank extrapolation needs --train "
		                           "(the rows to extrapolate to)");
	}
	if (s->csv && s->json) {
		free(r);
		return sf_run_request(err, "--json and --csv: choose one");
	}
	if (r == NULL || (r->compare = sf_compare_alloc(&settings)) == NULL) {
		free(r);
		return sf_error_set(err, SF_ENOMEM, "out of memory");
	}
	/* every model, data file and the --train condition checked before
	 * the first fit, so a bad last candidate fails at once */
	if ((rc = add_candidates(r->compare, sets, nsets, err)) == SF_OK &&
	    r->compare->n == 0)
		rc = sf_run_request(err, "no model to compare");
	if (rc == SF_OK && s->csv &&
	    sf_run_data_grouped(r->compare->c[0]->model, &s->data))
		rc = sf_run_request(err, "--csv prints one ranking: not with "
		                         "groups (--by, or the model's by:)");
	if (rc == SF_OK && (rc = sf_compare_split(r->compare, err)) == SF_OK)
		rc = sf_run_data_grouped(r->compare->c[0]->model, &s->data)
		         ? compare_fleet(s, r, err)
		         : compare_all(s, r, err);
	if (rc != SF_OK) {
		sf_run_compare_result_free(r);
		return rc;
	}
	*out = r;
	return SF_OK;
}
