/*
 * cmd_next.c - `scalefit next FIT.json --target p=64,... --over p=1:32 |
 * --candidates FILE.csv [--budget COST] [--runs K]`: which run to measure
 * next so that the prediction interval at the target narrows most
 * (run/next.h does the work).
 */
#define _GNU_SOURCE /* getopt_long */

#include "base/number.h"
#include "cli/cli.h"
#include "run/next.h"

#include <getopt.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

typedef struct next_args {
	const char **set; /* the --set texts, s.set */
	sf_run_next_settings s;
} next_args;

static int
parse_option(const sf_command *cmd, int c, next_args *a)
{
	sf_run_next_settings *s = &a->s;

	switch (c) {
	case 't':
		return cli_once(cmd->name, "target", NULL, &s->target, optarg);
	case 'o':
		return cli_once(cmd->name, "over", NULL, &s->over, optarg);
	case 's':
		a->set[s->nset++] = optarg;
		return SF_EXIT_OK;
	case 'c':
		return cli_once(cmd->name, "candidates", NULL, &s->candidates,
		                optarg);
	case 'G':
		return cli_once(cmd->name, "group", NULL, &s->group, optarg);
	case 'b':
		if (sf_parse_double(optarg, &s->budget) != SF_OK ||
		    !(s->budget > 0))
			return cli_usage(cmd->name, NULL,
			                 "--budget needs a cost > 0 (the "
			                 "output's unit times workers), not "
			                 "'%s'",
			                 optarg);
		return SF_EXIT_OK;
	case 'r':
		return cli_count(cmd->name, "runs", optarg, 1, 1000, &s->runs);
	case 'n':
		return cli_count(cmd->name, "top", optarg, 1, 1000000, &s->top);
	case 'j':
		s->json = 1;
		return SF_EXIT_OK;
	case 'q': /* nothing to silence */
		return SF_EXIT_OK;
	default:
		return -1;
	}
}

static int
parse_args(const sf_command *cmd, int argc, char **argv, next_args *a)
{
	static const struct option options[] = {
	    {"target", required_argument, NULL, 't'},
	    {"over", required_argument, NULL, 'o'},
	    {"set", required_argument, NULL, 's'},
	    {"candidates", required_argument, NULL, 'c'},
	    {"budget", required_argument, NULL, 'b'},
	    {"runs", required_argument, NULL, 'r'},
	    {"top", required_argument, NULL, 'n'},
	    {"group", required_argument, NULL, 'G'},
	    {"json", no_argument, NULL, 'j'},
	    {"quiet", no_argument, NULL, 'q'},
	    {"help", no_argument, NULL, 'h'},
	    {NULL, 0, NULL, 0},
	};
	const sf_run_next_settings *s = &a->s;
	int c, rc;

	while ((c = getopt_long(argc, argv, "qh", options, NULL)) != -1) {
		if (c == 'h')
			cli_help_exit(cmd);
		if ((rc = parse_option(cmd, c, a)) < 0)
			return cli_bad_option(cmd->name, argc, argv, optopt,
			                      options);
		if (rc != SF_EXIT_OK)
			return rc;
	}
	if (argc - optind < 1)
		return cli_usage(cmd->name, NULL,
		                 "next needs a fit file (FIT.json, from "
		                 "'scalefit fit -o FIT.json')");
	if (argc - optind > 1)
		return cli_usage(cmd->name, NULL, "unexpected argument '%s'",
		                 argv[optind + 1]);
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
	a->s.fit = argv[optind];
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
	if ((a.set = calloc((size_t)argc + 1, sizeof *a.set)) == NULL) {
		sf_error_set(&err, SF_ENOMEM, "out of memory");
		return cli_error(&err);
	}
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
