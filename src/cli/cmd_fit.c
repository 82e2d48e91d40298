/*
 * cmd_fit.c - `scalefit fit MODEL.yaml [DATA.csv]`: fit the constants and
 * report them.
 */
#define _GNU_SOURCE /* getopt_long */

#include "cli/cli.h"
#include "fit/fit.h"
#include "fit/interval.h"
#include "fit/tune.h"
#include "use/fleet.h"
#include "use/report.h"
#include "base/units.h"
#include "fit/stats.h"
#include "base/suggest.h"

#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Progress on a terminal: a line redrawn a few times a second, from the
 * first second on (short fits print nothing). */
typedef struct progress_state {
	double next;
	int shown;
} progress_state;

static void
show_progress(void *ctx, const sf_fit_progress *p)
{
	progress_state *st = ctx;

	if (p->seconds < st->next)
		return;
	st->next = p->seconds + 0.25;
	st->shown = 1;
	fprintf(stderr,
	        "\rscalefit: generation %zu, %zu/%zu evaluations, best cost "
	        "%.6g, spread %.2g, %.1f s   ",
	        p->generation, p->evaluations, p->max_evals, p->best_cost,
	        p->spread, p->seconds);
	fflush(stderr);
}

/* The fit's options, as parsed from the command line. */
typedef struct fit_args {
	const char *model_path, *data_path, *output, *model_name;
	int json, quiet;
	size_t bootstrap, restarts; /* 0: none */
	sf_residuals residuals;
	sf_fit_options options;
	cli_fleet_args fleet; /* --by, --details */
	cli_data data;
} fit_args;

static int
parse_args(const sf_command *cmd, int argc, char **argv, fit_args *a)
{
	static const struct option options[] = {
	    {"output", required_argument, NULL, 'o'},
	    {"json", no_argument, NULL, 'j'},
	    CLI_FIT_OPTIONS,
	    CLI_DATA_OPTIONS,
	    {"bootstrap", required_argument, NULL, 'B'},
	    {"restarts", required_argument, NULL, 'R'},
	    {"model", required_argument, NULL, 'm'},
	    {"residuals", required_argument, NULL, 'E'},
	    {"quiet", no_argument, NULL, 'q'},
	    CLI_FLEET_OPTIONS,
	    {"help", no_argument, NULL, 'h'},
	    {NULL, 0, NULL, 0},
	};
	int c, rc;

	memset(a, 0, sizeof *a);
	sf_fit_options_init(&a->options);
	while ((c = getopt_long(argc, argv, "o:qh", options, NULL)) != -1) {
		switch (c) {
		case 'o':
			a->output = optarg;
			break;
		case 'j':
			a->json = 1;
			break;
		case 'B':
		case 'R':
			if (cli_count(cmd->name,
			              c == 'B' ? "bootstrap" : "restarts",
			              optarg, c == 'B' ? 10 : 2, 100000,
			              c == 'B' ? &a->bootstrap
			                       : &a->restarts) != SF_EXIT_OK)
				return SF_EXIT_USAGE;
			break;
		case 'm':
			a->model_name = optarg;
			break;
		case 'E':
			if (strcmp(optarg, "auto") == 0)
				a->residuals = SF_RESIDUALS_AUTO;
			else if (strcmp(optarg, "all") == 0)
				a->residuals = SF_RESIDUALS_ALL;
			else if (strcmp(optarg, "none") == 0)
				a->residuals = SF_RESIDUALS_NONE;
			else
				return cli_usage(
				    cmd->name, NULL,
				    "--residuals takes auto, all or "
				    "none, not '%s'",
				    optarg);
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
	if (argc - optind < 1)
		return cli_usage(cmd->name, NULL, "fit needs a model file");
	if (argc - optind > 2)
		return cli_usage(cmd->name, NULL, "unexpected argument '%s'",
		                 argv[optind + 2]);
	a->model_path = argv[optind];
	a->data_path = argc - optind == 2 ? argv[optind + 1] : NULL;
	return SF_EXIT_OK;
}

/* Fit data with formula f of model m (o's settings, bootstrap and
 * restarts as asked) and build the report: JSON in *json when want_json,
 * the text in *text.  Warnings go to warn.  The pipeline of one fit, shared
 * by a plain run and by every group of a --by run. */
static int
fit_pipeline(const fit_args *a, const sf_model *m, const sf_dataset *data,
             const sf_formula *f, const sf_fit_options *o, sf_warn_fn warn,
             void *warn_ctx, int want_json, json_t **json, char **text,
             sf_error *err)
{
	sf_fit_result *result = NULL;
	sf_stats *stats = NULL;
	sf_resample *bootstrap = NULL, *restarts = NULL;
	sf_interval_model interval;
	int have_interval = 0;
	size_t length = 0;
	FILE *out;
	int rc;

	*json = NULL;
	*text = NULL;
	if (a->restarts > 0)
		rc = sf_restarts_run(m, data, f, o, a->restarts, &result,
		                     &restarts, err);
	else
		rc = sf_tune_fit(m, data, f, o, &result, err);
	if (rc == SF_OK && a->bootstrap > 0)
		rc = sf_bootstrap_run(m, data, f, o, result, a->bootstrap,
		                      &bootstrap, err);
	if (rc != SF_OK)
		goto done;
	/* Without uncertainties the fit is still worth reporting. */
	if (sf_stats_compute(f, data, result, &stats, err) != SF_OK) {
		if (err->code == SF_ENOMEM) {
			rc = SF_ENOMEM;
			goto done;
		}
		if (warn != NULL)
			warn(warn_ctx, err);
	} else if (stats->note != NULL && warn != NULL) {
		sf_error_set(err, SF_OK, "%s", stats->note);
		warn(warn_ctx, err);
	}
	/* What a new run may measure: predict and scale read it. */
	if (stats != NULL && sf_interval_calibrate(m, data, f, o, result, stats,
	                                           &interval, err) == SF_OK)
		have_interval = 1;
	else if (stats != NULL && err->code == SF_ENOMEM) {
		rc = SF_ENOMEM;
		goto done;
	}
	{
		sf_report report = {m,        data,
		                    f,        result,
		                    stats,    bootstrap,
		                    restarts, have_interval ? &interval : NULL};

		if (want_json && warn != NULL &&
		    a->residuals == SF_RESIDUALS_AUTO &&
		    !sf_report_has_residuals(&report, a->residuals)) {
			sf_error w;

			sf_error_clear(&w);
			sf_error_set(
			    &w, SF_OK,
			    "the JSON report leaves out the residuals "
			    "of its %zu rows (more than %d; --residuals "
			    "all writes them)",
			    data->rows, SF_RESIDUALS_AUTO_MAX);
			warn(warn_ctx, &w);
		}
		if (want_json && (*json = sf_report_json_residuals(
		                      &report, a->residuals)) == NULL) {
			rc = sf_error_set(err, SF_ENOMEM, "out of memory");
			goto done;
		}
		if ((out = open_memstream(text, &length)) == NULL) {
			rc = sf_error_set(err, SF_ENOMEM, "out of memory");
			goto done;
		}
		sf_report_print_text(&report, out);
		if (fclose(out) != 0) {
			rc = sf_error_set(err, SF_ENOMEM, "out of memory");
			goto done;
		}
	}
	rc = SF_OK;
done:
	if (rc != SF_OK) {
		json_decref(*json);
		*json = NULL;
		free(*text);
		*text = NULL;
	}
	sf_resample_free(bootstrap);
	sf_resample_free(restarts);
	sf_stats_free(stats);
	sf_fit_result_free(result);
	return rc;
}

/* One group of a --by run. */
typedef struct group_ctx {
	const fit_args *a;
	const sf_model *m;
	const sf_formula *f;
	uint64_t seed; /* the run's */
} group_ctx;

static int
fit_group(void *ctx, const sf_dataset *group, size_t index, sf_warn_fn warn,
          void *warn_ctx, json_t **report, char **text, sf_error *err)
{
	const group_ctx *g = ctx;
	sf_fit_options o = g->a->options;

	o.has_seed = 1;
	o.seed = sf_fleet_seed(g->seed, index);
	o.progress = NULL;
	return fit_pipeline(g->a, g->m, group, g->f, &o, warn, warn_ctx, 1,
	                    report, text, err);
}

int
sf_command_fit(const sf_command *cmd, int argc, char **argv)
{
	progress_state progress = {1.0, 0};
	sf_model_set *set = NULL;
	json_t *json = NULL;
	char *text = NULL;
	sf_problem p = {0};
	sf_table *in = NULL; /* DATA.csv "-": standard input */
	const sf_model *m;
	sf_error err;
	fit_args a;
	int status, rc;

	sf_error_clear(&err);
	if ((status = parse_args(cmd, argc, argv, &a)) != SF_EXIT_OK)
		return status;
	if (cli_load_data_models(a.model_path, &a.data, &set, a.quiet, &err) !=
	    SF_OK)
		return cli_error(&err);
	if ((m = cli_choose_model(cmd->name, set, a.model_name,
	                          a.model_path)) == NULL) {
		status = SF_EXIT_USAGE;
		goto done;
	}
	/* Never write the report over one of the fit's own inputs. */
	if ((status = cli_output_not_input(cmd->name, "-o", a.output,
	                                   a.model_path, "the model file")) !=
	        SF_EXIT_OK ||
	    (status = cli_output_not_input(cmd->name, "-o", a.output,
	                                   a.data_path != NULL ? a.data_path
	                                                       : m->data_file,
	                                   "the data file")) != SF_EXIT_OK)
		goto done;
	if (cli_stdin_table(a.data_path, &in, &err) != SF_OK ||
	    cli_problem_open(m, a.data_path, in,
	                     a.options.has_loss ? a.options.loss : m->fit.loss,
	                     a.quiet, set->count > 1, &p, &err) != SF_OK) {
		status = cli_error(&err);
		goto done;
	}
	if (a.fleet.by != NULL || m->by.text != NULL) {
		group_ctx g = {&a, m, p.formula,
		               sf_fit_settings_effective(m, &a.options).seed};
		sf_problem rows = p; /* with the table read from stdin */

		if (rows.table == NULL)
			rows.table = in;
		status = cli_fleet(&a.fleet, m, &rows, fit_group, &g, a.json,
		                   a.output, a.quiet);
		goto done;
	}
	if (!a.quiet && isatty(STDERR_FILENO)) {
		a.options.progress = show_progress;
		a.options.progress_ctx = &progress;
	}
	rc = fit_pipeline(&a, m, p.data, p.formula, &a.options,
	                  a.quiet ? NULL : cli_warning, NULL,
	                  a.json || a.output != NULL, &json, &text, &err);
	if (progress.shown)
		fputs("\r\033[K", stderr);
	if (rc != SF_OK) {
		status = cli_error(&err);
		goto done;
	}
	if (a.json) {
		if (sf_report_print_json(json, stdout, &err) != SF_OK) {
			status = cli_error(&err);
			goto done;
		}
	} else {
		fputs(text, stdout);
	}
	/* Status 2 writes no file: -o only once stdout took the report. */
	if (fflush(stdout) != 0 || ferror(stdout)) {
		fputs("scalefit: error: could not write standard output\n",
		      stderr);
		status = SF_EXIT_USAGE;
		goto done;
	}
	if (a.output != NULL && sf_units_root() &&
	    sf_report_save(json, a.output, &err) != SF_OK) {
		status = cli_error(&err);
		goto done;
	}
	status = SF_EXIT_OK;
done:
	json_decref(json);
	free(text);
	sf_problem_close(&p);
	sf_table_free(in);
	sf_model_set_free(set);
	return status;
}
