/*
 * cmd_fit.c - `scalefit fit MODEL.yaml [DATA.csv]`: fit the constants and
 * report them.
 */
#include "cli/parse.h"
#include "base/units.h"
#include "run/fit.h"

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

/* --residuals: auto, all or none. */
static int
parse_residuals(const char *cmd, int val, const char *arg, void *to)
{
	sf_residuals *residuals = to;

	(void)val;
	if (strcmp(arg, "auto") == 0)
		*residuals = SF_RESIDUALS_AUTO;
	else if (strcmp(arg, "all") == 0)
		*residuals = SF_RESIDUALS_ALL;
	else if (strcmp(arg, "none") == 0)
		*residuals = SF_RESIDUALS_NONE;
	else
		return cli_usage(
		    cmd, NULL, "--residuals takes auto, all or none, not '%s'",
		    arg);
	return SF_EXIT_OK;
}

static int
parse_args(const sf_command *cmd, int argc, char **argv, fit_args *a)
{
	sf_run_fit_settings *s = &a->s;
	const cli_option options[] = {
	    CLI_TEXT("output", 'o' | CLI_SHORT, &a->output),
	    CLI_FLAG("json", 'j', &a->json),
	    CLI_FIT_OPTIONS(&s->options),
	    CLI_DATA_OPTIONS(&a->data),
	    CLI_COUNT("bootstrap", 'B', 10, 100000, &s->bootstrap),
	    CLI_COUNT("restarts", 'R', 2, 100000, &s->restarts),
	    CLI_TEXT("model", 'm', &a->data.run.model),
	    CLI_CALL("residuals", 'E', required_argument, parse_residuals,
	             &s->residuals),
	    CLI_FLAG("quiet", 'q' | CLI_SHORT, &a->quiet),
	    CLI_FLEET_OPTIONS(&a->data),
	    CLI_END,
	};
	int rc;

	memset(a, 0, sizeof *a);
	sf_run_fit_settings_init(s);
	if ((rc = cli_parse(cmd, options, argc, argv)) != SF_EXIT_OK)
		return rc;
	return cli_model_operands(cmd->name, argc, argv, &a->model_path,
	                          &a->data.run.path);
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
	if ((status = cli_open_model(cmd->name, a.model_path, &a.data, a.quiet,
	                             &set, &m)) != SF_EXIT_OK)
		goto done;
	/* Never write the report over one of the fit's own inputs. */
	if ((status = cli_output_not_input(cmd->name, "-o", a.output,
	                                   a.model_path, "the model file")) !=
	        SF_EXIT_OK ||
	    (status = cli_output_not_input(
	         cmd->name, "-o", a.output,
	         a.data.run.path != NULL ? a.data.run.path : m->data_file,
	         "the data file")) != SF_EXIT_OK)
		goto done;
	if ((status = cli_stdin_data(&a.data, &in)) != SF_EXIT_OK)
		goto done;
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
