/*
 * cmd_plot.c - `scalefit plot FIT.json -o FIT.svg [--data DATA.csv]`: the
 * chart of a fit, observed against predicted and each row's error by
 * input, with the rows it did not fit marked (run/plot.h does the work).
 */
#include "cli/parse.h"
#include "run/plot.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

static int
parse_args(const sf_command *cmd, int argc, char **argv,
           sf_run_plot_settings *s, int *quiet)
{
	const cli_option options[] = {
	    CLI_ONCE("output", 'o' | CLI_SHORT, &s->output),
	    CLI_ONCE("data", 'd', &s->data),
	    CLI_ONCE("group", 'G', &s->group),
	    CLI_FLAG("quiet", 'q' | CLI_SHORT, quiet),
	    CLI_END,
	};
	const char *const *fits;
	size_t nfits;
	int rc;

	if ((rc = cli_parse_fits(cmd, options, argc, argv, INT_MAX, &fits,
	                         &nfits)) != SF_EXIT_OK)
		return rc;
	if (nfits > 1)
		return cli_usage(cmd->name, NULL,
		                 "unexpected argument '%s': plot draws one fit",
		                 fits[1]);
	if (s->output == NULL)
		return cli_usage(cmd->name, NULL,
		                 "say where to write the chart: -o FILE.svg");
	s->fit = fits[0];
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
