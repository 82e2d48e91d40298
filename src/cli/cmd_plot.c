/*
 * cmd_plot.c - `scalefit plot FIT.json -o FIT.svg [--data DATA.csv]`: the
 * chart of a fit, observed against predicted and each row's error by
 * input, with the rows it did not fit marked (run/plot.h does the work).
 */
#define _GNU_SOURCE /* getopt_long */

#include "cli/cli.h"
#include "run/plot.h"

#include <getopt.h>
#include <stdlib.h>
#include <string.h>

static int
parse_args(const sf_command *cmd, int argc, char **argv,
           sf_run_plot_settings *s, int *quiet)
{
	static const struct option options[] = {
	    {"output", required_argument, NULL, 'o'},
	    {"data", required_argument, NULL, 'd'},
	    {"group", required_argument, NULL, 'G'},
	    {"quiet", no_argument, NULL, 'q'},
	    {"help", no_argument, NULL, 'h'},
	    {NULL, 0, NULL, 0},
	};
	int c, rc;

	while ((c = getopt_long(argc, argv, "o:qh", options, NULL)) != -1) {
		switch (c) {
		case 'o':
			rc = cli_once(cmd->name, "output", NULL, &s->output,
			              optarg);
			break;
		case 'd':
			rc =
			    cli_once(cmd->name, "data", NULL, &s->data, optarg);
			break;
		case 'G':
			rc = cli_once(cmd->name, "group", NULL, &s->group,
			              optarg);
			break;
		case 'q':
			*quiet = 1;
			rc = SF_EXIT_OK;
			break;
		case 'h':
			cli_help_exit(cmd);
		default:
			return cli_bad_option(cmd->name, argc, argv, optopt,
			                      options);
		}
		if (rc != SF_EXIT_OK)
			return rc;
	}
	if (argc - optind < 1)
		return cli_usage(cmd->name, NULL,
		                 "plot needs a fit file (FIT.json, from "
		                 "'scalefit fit -o FIT.json')");
	if (argc - optind > 1)
		return cli_usage(cmd->name, NULL,
		                 "unexpected argument '%s': plot draws one fit",
		                 argv[optind + 1]);
	if (s->output == NULL)
		return cli_usage(cmd->name, NULL,
		                 "say where to write the chart: -o FILE.svg");
	s->fit = argv[optind];
	/* Never draw the chart over the fit file or the data. */
	if ((rc = cli_output_not_input(cmd->name, "-o", s->output, s->fit,
	                               "the fit file")) != SF_EXIT_OK)
		return rc;
	return cli_output_not_input(cmd->name, "-o", s->output, s->data,
	                            "the data file");
}

int
sf_command_plot(const sf_command *cmd, int argc, char **argv)
{
	sf_run_plot_settings s;
	sf_run_plot_result *r = NULL;
	sf_error err;
	int status, quiet = 0;

	memset(&s, 0, sizeof s);
	sf_error_clear(&err);
	if ((status = parse_args(cmd, argc, argv, &s, &quiet)) != SF_EXIT_OK)
		return status;
	s.warn = quiet ? NULL : cli_warning;
	if (sf_run_plot(&s, &r, &err) != SF_OK)
		status = cli_fail(cmd->name, &err);
	else
		status = cli_print(&r->out, 0);
	sf_run_plot_result_free(r);
	return status;
}
