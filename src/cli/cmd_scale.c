/*
 * cmd_scale.c - `scalefit scale FIT.json --over p=1:1024 [--set n=...]`:
 * the predicted time along one input, its speedup, efficiency, cost and
 * term shares, the headline answers, and optionally a chart
 * (run/scale.h does the work).
 */
#include "base/number.h"
#include "cli/parse.h"
#include "run/scale.h"

#include <math.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

/* The most points --points takes. */
enum { MAX_POINTS = 100000 };

typedef struct scale_args {
	const char **set; /* the --set texts, s.request.set */
	sf_run_scale_settings s;
} scale_args;

/* --panel: efficiency or shares. */
static int
parse_panel(const char *cmd, int val, const char *arg, void *to)
{
	static const char *const panels[] = {"efficiency", "shares"};
	sf_scale_panel *panel = to;
	int k = 0;

	(void)val;
	if (cli_choice(cmd, "--panel", arg, panels, 2, 1, &k) != SF_EXIT_OK)
		return SF_EXIT_USAGE;
	*panel = k == 0 ? SF_SCALE_PANEL_EFFICIENCY : SF_SCALE_PANEL_SHARES;
	return SF_EXIT_OK;
}

/* --log or --linear: how the points are spaced. */
static int
parse_spacing(const char *cmd, int val, const char *arg, void *to)
{
	sf_sweep_spacing *spacing = to;

	(void)arg;
	if (*spacing != SF_SWEEP_AUTO)
		return cli_usage(cmd, NULL, "give --log or --linear, not both");
	*spacing = val == 'L' ? SF_SWEEP_LOG : SF_SWEEP_LINEAR;
	return SF_EXIT_OK;
}

static int
parse_args(const sf_command *cmd, int argc, char **argv, scale_args *a)
{
	sf_scale_request *q = &a->s.request;
	const cli_option options[] = {
	    CLI_ONCE_SAYING("over", 'o',
	                    "--over is given twice: a sweep moves one input",
	                    &q->over),
	    CLI_LIST("set", 's', a->set, &q->nset),
	    CLI_NUMBER("cost", 'c', "a price per worker-hour > 0", &q->price),
	    CLI_NAME("time-unit", 'u', "--unit", sf_scale_units, SF_SCALE_UNITS,
	             &q->time_unit),
	    CLI_NAME("unit", 'u', "--unit", sf_scale_units, SF_SCALE_UNITS,
	             &q->time_unit),
	    CLI_COUNT("points", 'n', 2, MAX_POINTS, &q->points),
	    CLI_CALL("log", 'L', no_argument, parse_spacing, &q->spacing),
	    CLI_CALL("linear", 'l', no_argument, parse_spacing, &q->spacing),
	    CLI_TEXT("plot", 'p', &a->s.plot),
	    CLI_TEXT("data", 'd', &a->s.data),
	    CLI_CALL("panel", 'P', required_argument, parse_panel, &q->panel),
	    CLI_TEXT("workers", 'w', &q->workers),
	    CLI_FLAG("json", 'j', &a->s.json),
	    CLI_FLAG("csv", 'V', &a->s.csv),
	    CLI_ONCE("group", 'G', &a->s.group),
	    CLI_CALL("weights", 'W', required_argument, cli_weights_option,
	             &a->s.weights),
	    CLI_FLAG("quiet", 'q' | CLI_SHORT, &a->s.quiet),
	    CLI_END,
	};
	int rc;

	if ((rc = cli_parse_fits(cmd, options, argc, argv, INT_MAX, &a->s.fits,
	                         &a->s.nfits)) != SF_EXIT_OK)
		return rc;
	if (a->s.request.over == NULL)
		return cli_usage(cmd->name, NULL,
		                 "say what to sweep: --over NAME=LO:HI (for "
		                 "example --over p=1:1024)");
	a->s.request.set = a->set;
	return SF_EXIT_OK;
}

int
sf_command_scale(const sf_command *cmd, int argc, char **argv)
{
	scale_args a;
	sf_run_scale_result *r = NULL;
	sf_error err;
	int status;

	sf_error_clear(&err);
	sf_run_scale_settings_init(&a.s);
	if ((a.set = calloc((size_t)argc + 1, sizeof *a.set)) == NULL)
		return cli_out_of_memory();
	a.s.warn = cli_warning;
	if ((status = parse_args(cmd, argc, argv, &a)) != SF_EXIT_OK)
		goto done;
	/* Never draw the chart over a fit file. */
	for (size_t j = 0; j < a.s.nfits; j++)
		if ((status = cli_output_not_input(
		         cmd->name, "--plot", a.s.plot, a.s.fits[j],
		         "the fit file")) != SF_EXIT_OK)
			goto done;
	if (sf_run_scale(&a.s, &r, &err) != SF_OK)
		status = cli_fail(cmd->name, &err);
	else
		status = cli_print(&r->out, a.s.json);
done:
	sf_run_scale_result_free(r);
	free(a.set);
	return status;
}
