/*
 * cmd_fit.c - `scalefit fit MODEL.yaml [DATA.csv]`: fit the constants and
 * report them.
 */
#define _GNU_SOURCE /* getopt_long */

#include "cli/cli.h"
#include "base/units.h"
#include "run/fit.h"

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
	const char *model_path, *output;
	int json, quiet;
	sf_run_fit_settings s; /* s.data: data.run, once parsed */
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
	sf_run_fit_settings_init(&a->s);
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
			              c == 'B' ? &a->s.bootstrap
			                       : &a->s.restarts) != SF_EXIT_OK)
				return SF_EXIT_USAGE;
			break;
		case 'm':
			a->data.run.model = optarg;
			break;
		case 'E':
			if (strcmp(optarg, "auto") == 0)
				a->s.residuals = SF_RESIDUALS_AUTO;
			else if (strcmp(optarg, "all") == 0)
				a->s.residuals = SF_RESIDUALS_ALL;
			else if (strcmp(optarg, "none") == 0)
				a->s.residuals = SF_RESIDUALS_NONE;
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
		default:
			if ((rc = cli_data_option(cmd->name, c, optarg,
			                          &a->data)) < 0)
				rc = cli_other_option(cmd, c, argc, argv,
				                      options, &a->s.options);
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
	a->data.run.path = argc - optind == 2 ? argv[optind + 1] : NULL;
	return SF_EXIT_OK;
}

/* Print r as asked; -o only once stdout took the report. */
static int
report(const fit_args *a, const sf_run_fit_result *r)
{
	sf_error err;
	int status;

	sf_error_clear(&err);
	if (r->fleet != NULL)
		return cli_fleet_print(r->fleet, &r->out, a->json, a->output);
	if ((status = cli_print(&r->out, a->json)) != SF_EXIT_OK)
		return status;
	/* Status 2 writes no file: -o only once stdout took the report. */
	if ((status = cli_flush_stdout()) != SF_EXIT_OK)
		return status;
	if (a->output != NULL && sf_units_root() &&
	    sf_run_json_save(r->out.json, a->output, &err) != SF_OK)
		return cli_error(&err);
	return SF_EXIT_OK;
}

int
sf_command_fit(const sf_command *cmd, int argc, char **argv)
{
	progress_state progress = {1.0, 0};
	sf_model_set *set = NULL;
	sf_run_fit_result *r = NULL;
	sf_table *in = NULL; /* DATA.csv "-": standard input */
	const sf_model *m;
	sf_error err;
	fit_args a;
	int status;

	sf_error_clear(&err);
	if ((status = parse_args(cmd, argc, argv, &a)) != SF_EXIT_OK)
		return status;
	if (cli_load_models(a.model_path, 0, &a.data, &set, a.quiet, &err) !=
	    SF_OK)
		return cli_error(&err);
	if ((m = cli_choose_model(cmd->name, set, a.data.run.model,
	                          a.model_path)) == NULL) {
		status = SF_EXIT_USAGE;
		goto done;
	}
	/* Never write the report over one of the fit's own inputs. */
	if ((status = cli_output_not_input(cmd->name, "-o", a.output,
	                                   a.model_path, "the model file")) !=
	        SF_EXIT_OK ||
	    (status = cli_output_not_input(
	         cmd->name, "-o", a.output,
	         a.data.run.path != NULL ? a.data.run.path : m->data_file,
	         "the data file")) != SF_EXIT_OK)
		goto done;
	if (cli_stdin_table(a.data.run.path, &in, &err) != SF_OK) {
		status = cli_error(&err);
		goto done;
	}
	a.data.run.table = in;
	a.s.data = a.data.run;
	a.s.json = a.json || a.output != NULL;
	a.s.warn = a.quiet ? NULL : cli_warning;
	if (!a.quiet && isatty(STDERR_FILENO)) {
		a.s.options.progress = show_progress;
		a.s.options.progress_ctx = &progress;
	}
	status = sf_run_fit(set, &a.s, &r, &err);
	if (progress.shown)
		fputs("\r\033[K", stderr);
	status = status != SF_OK ? cli_fail(cmd->name, &err) : report(&a, r);
done:
	sf_run_fit_result_free(r);
	sf_table_free(in);
	sf_model_set_free(set);
	return status;
}
