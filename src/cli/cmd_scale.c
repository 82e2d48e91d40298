/*
 * cmd_scale.c - `scalefit scale FIT.json --over p=1:1024 [--set n=...]`:
 * the predicted time along one input, its speedup, efficiency, cost and
 * term shares, the headline answers, and optionally a chart
 * (run/scale.h does the work).
 */
#define _GNU_SOURCE /* getopt_long */

#include "base/number.h"
#include "base/suggest.h"
#include "cli/cli.h"
#include "run/scale.h"

#include <getopt.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* The most points --points takes. */
enum { MAX_POINTS = 100000 };

typedef struct scale_args {
	const char **set; /* the --set texts, s.request.set */
	sf_run_scale_settings s;
} scale_args;

/* --unit (--time-unit): one of sf_scale_units. */
static int
parse_unit(const sf_command *cmd, const char *arg, const char **unit)
{
	*unit = NULL;
	for (size_t k = 0; k < SF_SCALE_UNITS; k++)
		if (strcmp(arg, sf_scale_units[k]) == 0)
			*unit = sf_scale_units[k];
	if (*unit == NULL)
		return cli_usage(
		    cmd->name,
		    sf_suggest_nearest(arg, sf_scale_units, SF_SCALE_UNITS),
		    "unknown --unit '%s' (s, ms, min or h)", arg);
	return SF_EXIT_OK;
}

/* --panel: efficiency or shares. */
static int
parse_panel(const sf_command *cmd, const char *arg, sf_scale_panel *panel)
{
	static const char *const panels[] = {"efficiency", "shares"};

	if (strcmp(arg, panels[0]) == 0)
		*panel = SF_SCALE_PANEL_EFFICIENCY;
	else if (strcmp(arg, panels[1]) == 0)
		*panel = SF_SCALE_PANEL_SHARES;
	else
		return cli_usage(cmd->name, sf_suggest_nearest(arg, panels, 2),
		                 "unknown --panel '%s' (efficiency or shares)",
		                 arg);
	return SF_EXIT_OK;
}

/* The options of the study itself: into the request q. */
static int
parse_request(const sf_command *cmd, int c, scale_args *a)
{
	sf_scale_request *q = &a->s.request;

	switch (c) {
	case 'o':
		if (q->over != NULL)
			return cli_usage(cmd->name, NULL,
			                 "--over is given twice: a sweep moves "
			                 "one input");
		q->over = optarg;
		return SF_EXIT_OK;
	case 's':
		a->set[q->nset++] = optarg;
		return SF_EXIT_OK;
	case 'c':
		if (sf_parse_double(optarg, &q->price) != SF_OK ||
		    !(q->price > 0))
			return cli_usage(cmd->name, NULL,
			                 "--cost needs a price per worker-hour "
			                 "> 0, not '%s'",
			                 optarg);
		return SF_EXIT_OK;
	case 'u':
		return parse_unit(cmd, optarg, &q->time_unit);
	case 'n':
		return cli_count(cmd->name, "points", optarg, 2, MAX_POINTS,
		                 &q->points);
	case 'L':
	case 'l':
		if (q->spacing != SF_SWEEP_AUTO)
			return cli_usage(cmd->name, NULL,
			                 "give --log or --linear, not both");
		q->spacing = c == 'L' ? SF_SWEEP_LOG : SF_SWEEP_LINEAR;
		return SF_EXIT_OK;
	case 'P':
		return parse_panel(cmd, optarg, &q->panel);
	case 'w':
		q->workers = optarg;
		return SF_EXIT_OK;
	default:
		return -1;
	}
}

/* The options of what is reported: into the settings. */
static int
parse_report(int c, scale_args *a)
{
	switch (c) {
	case 'd':
		a->s.data = optarg;
		return SF_EXIT_OK;
	case 'p':
		a->s.plot = optarg;
		return SF_EXIT_OK;
	case 'j':
		a->s.json = 1;
		return SF_EXIT_OK;
	case 'V':
		a->s.csv = 1;
		return SF_EXIT_OK;
	case 'G':
		return cli_once("scale", "group", NULL, &a->s.group, optarg);
	case 'q':
		a->s.quiet = 1;
		return SF_EXIT_OK;
	default:
		return -1;
	}
}

static int
parse_args(const sf_command *cmd, int argc, char **argv, scale_args *a)
{
	static const struct option options[] = {
	    {"over", required_argument, NULL, 'o'},
	    {"set", required_argument, NULL, 's'},
	    {"cost", required_argument, NULL, 'c'},
	    {"time-unit", required_argument, NULL, 'u'},
	    {"unit", required_argument, NULL, 'u'},
	    {"points", required_argument, NULL, 'n'},
	    {"log", no_argument, NULL, 'L'},
	    {"linear", no_argument, NULL, 'l'},
	    {"plot", required_argument, NULL, 'p'},
	    {"data", required_argument, NULL, 'd'},
	    {"panel", required_argument, NULL, 'P'},
	    {"workers", required_argument, NULL, 'w'},
	    {"json", no_argument, NULL, 'j'},
	    {"csv", no_argument, NULL, 'V'},
	    {"group", required_argument, NULL, 'G'},
	    {"quiet", no_argument, NULL, 'q'},
	    {"help", no_argument, NULL, 'h'},
	    {NULL, 0, NULL, 0},
	};
	int c, rc;

	while ((c = getopt_long(argc, argv, "qh", options, NULL)) != -1) {
		if (c == 'h')
			cli_help_exit(cmd);
		if ((rc = parse_request(cmd, c, a)) < 0 &&
		    (rc = parse_report(c, a)) < 0)
			return cli_bad_option(cmd->name, argc, argv, optopt,
			                      options);
		if (rc != SF_EXIT_OK)
			return rc;
	}
	if (argc - optind < 1)
		return cli_usage(cmd->name, NULL,
		                 "scale needs a fit file (FIT.json, from "
		                 "'scalefit fit -o FIT.json')");

	if (a->s.request.over == NULL)
		return cli_usage(cmd->name, NULL,
		                 "say what to sweep: --over NAME=LO:HI (for "
		                 "example --over p=1:1024)");
	a->s.fits = (const char *const *)argv + optind;
	a->s.nfits = (size_t)(argc - optind);
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
	if ((a.set = calloc((size_t)argc + 1, sizeof *a.set)) == NULL) {
		sf_error_set(&err, SF_ENOMEM, "out of memory");
		return cli_error(&err);
	}
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
