/*
 * cmd_compare.c - `scalefit compare MODEL.yaml... [DATA.csv]`: fit every
 * candidate formula on the same rows and rank them.
 *
 * The fitting, scoring and ranking are fit/compare.h's, the JSON
 * document use/comparison.h's; this file parses the arguments, prints the
 * table and the warnings, and turns errors into exit statuses.
 */
#define _GNU_SOURCE /* getopt_long */

#include "cli/cli.h"
#include "fit/compare.h"
#include "use/comparison.h"
#include "use/report.h"

#include <getopt.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

enum { COMPARE_MAX = 64, COMPARE_DEFAULT_KFOLD = 5 };

typedef struct compare_args {
	const char *paths[COMPARE_MAX], *data_path, *train;
	size_t npaths, kfold;
	int json, quiet;
	sf_fit_options options;
	cli_data data;
	cli_fleet_args fleet; /* --by, --details */
} compare_args;

static int
has_suffix(const char *s, const char *suffix)
{
	size_t n = strlen(s), m = strlen(suffix);

	return n >= m && strcmp(s + n - m, suffix) == 0;
}

static int
parse_args(const sf_command *cmd, int argc, char **argv, compare_args *a)
{
	static const struct option options[] = {
	    {"train", required_argument, NULL, 'r'},
	    {"kfold", required_argument, NULL, 'k'},
	    {"json", no_argument, NULL, 'j'},
	    CLI_FIT_OPTIONS,
	    CLI_DATA_OPTIONS,
	    {"quiet", no_argument, NULL, 'q'},
	    CLI_FLEET_OPTIONS,
	    {"help", no_argument, NULL, 'h'},
	    {NULL, 0, NULL, 0},
	};
	int c, rc;

	memset(a, 0, sizeof *a);
	a->kfold = COMPARE_DEFAULT_KFOLD;
	sf_fit_options_init(&a->options);
	while ((c = getopt_long(argc, argv, "qh", options, NULL)) != -1) {
		switch (c) {
		case 'r':
			a->train = optarg;
			break;
		case 'k':
			if (cli_count(cmd->name, "kfold", optarg, 2, 1000000,
			              &a->kfold) != SF_EXIT_OK)
				return SF_EXIT_USAGE;
			break;
		case 'j':
			a->json = 1;
			break;
		case 'q':
			a->quiet = 1;
			break;
		case CLI_OPT_BY:
		case CLI_OPT_DETAILS:
			cli_fleet_option(c, optarg, &a->fleet);
			break;
		case CLI_OPT_WHERE:
		case CLI_OPT_OUTPUT_COLUMN:
		case CLI_OPT_INPUT:
			if (cli_data_option(cmd->name, c, optarg, &a->data) !=
			    SF_EXIT_OK)
				return SF_EXIT_USAGE;
			break;
		default:
			rc = cli_other_option(cmd, c, argc, argv, options,
			                      &a->options);
			if (rc != SF_EXIT_OK)
				return rc;
		}
	}
	for (int i = optind; i < argc; i++) {
		if ((has_suffix(argv[i], ".csv") ||
		     strcmp(argv[i], "-") == 0) &&
		    i == argc - 1) {
			a->data_path = argv[i];
		} else if (a->npaths == COMPARE_MAX) {
			return cli_usage(cmd->name, NULL,
			                 "at most %d model files", COMPARE_MAX);
		} else {
			a->paths[a->npaths++] = argv[i];
		}
	}
	if (a->npaths == 0)
		return cli_usage(cmd->name, NULL,
		                 "compare needs at least one model file");
	return SF_EXIT_OK;
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

		if (x->failed) {
			fprintf(out,
			        "%4zu %-22.22s %3zu %5zu  no finite cost: the "
			        "fit failed\n",
			        i + 1, x->label, x->k, x->n);
			continue;
		}
		fprintf(out,
		        "%4zu %-22.22s %3zu %5zu %12.6g %10.4g %10.4g %7.3f "
		        "%7.3g%% %7.3g%% ",
		        i + 1, x->label, x->k, x->n, x->sse, x->aicc, x->bic,
		        x->weight, x->mape, x->cv_mape);
		if (train != NULL)
			fprintf(out, "%7.3g%% ", x->extra_mape);
		else
			fprintf(out, "%8s ", "");
		if (isnan(x->max_corr))
			fprintf(out, "%6s  ", "-");
		else
			fprintf(out, "%6.3f  ", x->max_corr);
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

/* Candidates x and y were fitted to different rows: say how. */
static void
warn_other_rows(const sf_compare_candidate *x, const sf_compare_candidate *y)
{
	const sf_dataset *dx = x->problem.data, *dy = y->problem.data;
	const char *wx = x->model->where.text, *wy = y->model->where.text;

	if (strcmp(dx->sha256, dy->sha256) != 0)
		fprintf(stderr,
		        "scalefit: warning: '%s' and '%s' are fitted to "
		        "different data (%zu rows of %s, %zu rows of %s): "
		        "their AICc and weights do not compare\n",
		        x->label, y->label, x->n, dx->file, y->n, dy->file);
	else
		fprintf(stderr,
		        "scalefit: warning: '%s' and '%s' are fitted to "
		        "different rows of %s (%zu rows %s%s, %zu rows %s%s): "
		        "their AICc and weights do not compare\n",
		        x->label, y->label, dx->file, x->n,
		        wx ? "where " : "without a filter", wx ? wx : "", y->n,
		        wy ? "where " : "without a filter", wy ? wy : "");
}

/* A --by run: the candidates' rows split alike, each group compared on
 * its own. */
typedef struct group_ctx {
	const sf_compare *all; /* every candidate, opened on all its rows */
	sf_groups **groups;    /* each candidate's rows split by the columns */
	uint64_t seed;         /* the run's */
} group_ctx;

static int
compare_group(void *ctx, const sf_dataset *group, size_t index, sf_warn_fn warn,
              void *warn_ctx, json_t **report, char **text, sf_error *err)
{
	const group_ctx *g = ctx;
	const char *label = g->groups[0]->groups[index].label;
	sf_compare_settings s = g->all->s;
	sf_compare *cmp = NULL;
	size_t length = 0;
	FILE *out = NULL;
	int rc = SF_OK;

	(void)group;
	s.options.has_seed = 1;
	s.options.seed = sf_fleet_seed(g->seed, index);
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
	if ((*report = sf_comparison_json(cmp)) == NULL ||
	    (out = open_memstream(text, &length)) == NULL) {
		rc = sf_error_set(err, SF_ENOMEM, "out of memory");
		goto done;
	}
	print_table(out, cmp);
	print_levels(out, cmp);
	if (fclose(out) != 0)
		rc = sf_error_set(err, SF_ENOMEM, "out of memory");
done:
	sf_compare_free(cmp);
	return rc;
}

/* Compare every group of cmp's rows (split as a.fleet says) alone. */
static int
compare_fleet(const compare_args *a, const sf_compare *cmp, const sf_table *in)
{
	const sf_model *m = cmp->c[0]->model;
	const char *by = a->fleet.by != NULL ? a->fleet.by : m->by.text;
	group_ctx g = {cmp, calloc(cmp->n, sizeof *g.groups),
	               sf_fit_settings_effective(m, &a->options).seed};
	sf_error err;
	int status = SF_EXIT_OK;

	sf_error_clear(&err);
	if (g.groups == NULL) {
		sf_error_set(&err, SF_ENOMEM, "out of memory");
		return cli_error(&err);
	}
	/* The other candidates' rows, split by the same columns (the
	 * first's split is cli_fleet's, checked there). */
	for (size_t i = 0; i < cmp->n && status == SF_EXIT_OK; i++) {
		const sf_compare_candidate *c = cmp->c[i];
		const sf_model *cm = c->model;
		int from_file = a->fleet.by == NULL;

		if (sf_groups_split(c->problem.table != NULL ? c->problem.table
		                                             : in,
		                    c->problem.data, by, cm->path,
		                    from_file ? &m->by : NULL, &g.groups[i],
		                    &err) != SF_OK) {
			if (from_file && i == 0)
				sf_error_quote(&err, m->source,
				               m->source_length);
			status = cli_error(&err);
		}
	}
	if (status == SF_EXIT_OK) {
		sf_problem rows = cmp->c[0]->problem;

		if (rows.table == NULL) /* read from stdin */
			rows.table = (sf_table *)in;
		status = cli_fleet(&a->fleet, m, &rows, compare_group, &g,
		                   a->json, NULL, a->quiet);
	}
	for (size_t i = 0; i < cmp->n; i++)
		sf_groups_free(g.groups[i]);
	free(g.groups);
	return status;
}

int
sf_command_compare(const sf_command *cmd, int argc, char **argv)
{
	sf_model_set *sets[COMPARE_MAX] = {0};
	sf_compare_settings settings;
	sf_compare *cmp = NULL;
	sf_table *in = NULL; /* DATA.csv "-": standard input */
	compare_args a;
	sf_error err;
	size_t other;
	int status = SF_EXIT_OK;

	sf_error_clear(&err);
	if ((status = parse_args(cmd, argc, argv, &a)) != SF_EXIT_OK)
		return status;
	if (cli_stdin_table(a.data_path, &in, &err) != SF_OK)
		return cli_error(&err);
	settings = (sf_compare_settings){
	    .data_path = a.data_path,
	    .table = in,
	    .train = a.train,
	    .kfold = a.kfold,
	    .options = a.options,
	    .warn = a.quiet ? NULL : cli_warning,
	};
	if ((cmp = sf_compare_alloc(&settings)) == NULL) {
		sf_error_set(&err, SF_ENOMEM, "out of memory");
		sf_table_free(in);
		return cli_error(&err);
	}
	/* every model, data file and the --train condition checked before
	 * the first fit, so a bad last candidate fails at once */
	for (size_t f = 0; f < a.npaths; f++)
		if (cli_load_data_models(a.paths[f], &a.data, &sets[f], a.quiet,
		                         &err) != SF_OK) {
			status = cli_error(&err);
			goto done;
		}
	for (size_t f = 0; f < a.npaths; f++)
		for (size_t i = 0; i < sets[f]->count; i++) {
			if (cmp->n == COMPARE_MAX) {
				status =
				    cli_usage(cmd->name, NULL,
				              "at most %d models", COMPARE_MAX);
				goto done;
			}
			if (sf_compare_add(cmp, sets[f]->models[i], &err) !=
			    SF_OK) {
				status = cli_error(&err);
				goto done;
			}
		}
	if (sf_compare_split(cmp, &err) != SF_OK) {
		status = cli_error(&err);
		goto done;
	}
	if (a.fleet.by != NULL || cmp->c[0]->model->by.text != NULL) {
		status = compare_fleet(&a, cmp, in);
		goto done;
	}
	if (sf_compare_fit_all(cmp, &err) != SF_OK) {
		status = cli_error(&err);
		goto done;
	}
	if (!a.quiet && (other = sf_compare_other_output(cmp)) > 0)
		fprintf(stderr,
		        "scalefit: warning: '%s' and '%s' fit different "
		        "outputs ('%s' and '%s'): their SSE are in "
		        "different units\n",
		        cmp->c[0]->label, cmp->c[other]->label,
		        sf_model_output(cmp->c[0]->model),
		        sf_model_output(cmp->c[other]->model));
	if (!a.quiet && (other = sf_compare_other_row_set(cmp)) > 0)
		warn_other_rows(cmp->c[0], cmp->c[other]);
	else if (!a.quiet && (other = sf_compare_other_rows(cmp)) > 0)
		fprintf(stderr,
		        "scalefit: warning: '%s' and '%s' are not "
		        "fitted to the same rows with the same loss; "
		        "their AICc and weights do not compare\n",
		        cmp->c[0]->label, cmp->c[other]->label);
	sf_compare_rank(cmp);
	if (a.json) {
		json_t *json = sf_comparison_json(cmp);

		if (json == NULL ||
		    sf_report_print_json(json, stdout, &err) != SF_OK) {
			if (json == NULL)
				sf_error_set(&err, SF_ENOMEM, "out of memory");
			status = cli_error(&err);
		}
		json_decref(json);
	} else {
		print_table(stdout, cmp);
		print_levels(stdout, cmp);
	}
done:
	sf_compare_free(cmp);
	sf_table_free(in);
	for (size_t f = 0; f < a.npaths; f++)
		sf_model_set_free(sets[f]);
	return status;
}
