/*
 * cmd_next.c - `scalefit next FIT.json... --target p=64,... --over p=1:32 |
 * --candidates FILE.csv [--budget COST] [--runs K] [--weights W]`: which
 * run to measure next so that the prediction interval at the target
 * narrows most (run/next.h does the work).
 */
#include "base/number.h"
#include "cli/parse.h"
#include "run/next.h"

#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

typedef struct next_args {
	const char **set; /* the --set texts, s.set */
	int quiet;        /* taken; next has nothing to silence */
	sf_run_next_settings s;
} next_args;

static int
parse_args(const sf_command *cmd, int argc, char **argv, next_args *a)
{
	sf_run_next_settings *s = &a->s;
	const cli_option options[] = {
	    CLI_ONCE("target", 't', &s->target),
	    CLI_ONCE("over", 'o', &s->over),
	    CLI_LIST("set", 's', a->set, &s->nset),
	    CLI_ONCE("candidates", 'c', &s->candidates),
	    CLI_NUMBER("budget", 'b',
	               "a cost > 0 (the output's unit times workers)",
	               &s->budget),
	    CLI_COUNT("runs", 'r', 1, 1000, &s->runs),
	    CLI_COUNT("top", 'n', 1, 1000000, &s->top),
	    CLI_ONCE("group", 'G', &s->group),
	    CLI_CALL("weights", 'w', required_argument, cli_weights_option,
	             &s->weights),
	    CLI_FLAG("json", 'j', &s->json),
	    CLI_FLAG("quiet", 'q' | CLI_SHORT, &a->quiet),
	    CLI_END,
	};
	int rc;

	if ((rc = cli_parse_fits(cmd, options, argc, argv, INT_MAX, &s->fits,
	                         &s->nfits)) != SF_EXIT_OK)
		return rc;
	if (s->target == NULL)
		return cli_usage(cmd->name, NULL,
		                 "say where the answer matters: --target "
		                 "NAME=VALUE,...");
	if ((s->over == NULL) == (s->candidates == NULL))
		return cli_usage(
		    cmd->name, NULL,
		    "give the runs to choose from: --over "
		    "NAME=LO:HI (or NAME=V1,V2,...) or --candidates "
		    "FILE.csv, one of them");
	if (s->nset > 0 && s->over == NULL)
		return cli_usage(cmd->name, NULL, "--set goes with --over");
	return SF_EXIT_OK;
}

int
sf_command_next(const sf_command *cmd, int argc, char **argv)
{
	next_args a;
	sf_run_next_result *r = NULL;
	sf_error err;
	int status;

	sf_error_clear(&err);
	sf_run_next_settings_init(&a.s);
	if ((a.set = calloc((size_t)argc + 1, sizeof *a.set)) == NULL)
		return cli_out_of_memory();
	a.s.set = a.set;
	a.s.warn = cli_warning;
	if ((status = parse_args(cmd, argc, argv, &a)) == SF_EXIT_OK) {
		if (sf_run_next(&a.s, &r, &err) != SF_OK)
			status = cli_fail(cmd->name, &err);
		else
			status = cli_print(&r->out, a.s.json);
	}
	sf_run_next_result_free(r);
	free(a.set);
	return status;
}
