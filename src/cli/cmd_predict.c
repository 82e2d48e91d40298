/*
 * cmd_predict.c - `scalefit predict FIT.json --at p=64,n=0.1 | --grid
 * FILE.csv [--input p=workers]`: the fitted formula's time at new points, with
 * its 95% band and each term's part, and a warning for every extrapolation
 * (run/predict.h does the work).
 */
#define _GNU_SOURCE /* getopt_long */

#include "base/suggest.h"
#include "cli/cli.h"
#include "run/predict.h"

#include <getopt.h>
#include <stdlib.h>
#include <string.h>

typedef struct predict_args {
	const char **at;     /* the --at texts, s.at */
	const char **inputs; /* the --input texts, s.inputs */
	int weights_given;
	sf_run_predict_settings s;
} predict_args;

/* --unit: one of sf_model_units. */
static int
parse_unit(const sf_command *cmd, const char *arg, const char **unit)
{
	*unit = NULL;
	for (size_t k = 0; k < SF_MODEL_UNITS; k++)
		if (strcmp(arg, sf_model_units[k]) == 0)
			*unit = sf_model_units[k];
	if (*unit == NULL)
		return cli_usage(
		    cmd->name,
		    sf_suggest_nearest(arg, sf_model_units, SF_MODEL_UNITS),
		    "unknown --unit '%s' (s, ms, min or h)", arg);
	return SF_EXIT_OK;
}

static int
parse_option(const sf_command *cmd, int c, predict_args *a)
{
	sf_run_predict_settings *s = &a->s;

	switch (c) {
	case 'a':
		a->at[s->nat++] = optarg;
		return SF_EXIT_OK;
	case 'g':
		if (s->grid != NULL)
			return cli_usage(cmd->name, NULL,
			                 "--grid is given twice");
		s->grid = optarg;
		return SF_EXIT_OK;
	case 'i':
		a->inputs[s->ninputs++] = optarg;
		return SF_EXIT_OK;
	case 'j':
		s->json = 1;
		return SF_EXIT_OK;
	case 'c':
		s->csv = 1;
		return SF_EXIT_OK;
	case 'w':
		if (strcmp(optarg, "extrapolation") == 0)
			s->weights = SF_AVERAGE_EXTRAPOLATION;
		else if (strcmp(optarg, "aicc") == 0)
			s->weights = SF_AVERAGE_AICC;
		else if (strcmp(optarg, "equal") == 0)
			s->weights = SF_AVERAGE_EQUAL;
		else
			return cli_usage(cmd->name, NULL,
			                 "--weights is extrapolation, aicc or "
			                 "equal, not '%s'",
			                 optarg);
		a->weights_given = 1;
		return SF_EXIT_OK;
	case 'G':
		return cli_once(cmd->name, "group", NULL, &s->group, optarg);
	case 'u':
		return parse_unit(cmd, optarg, &s->unit);
	case 'q':
		s->quiet = 1;
		return SF_EXIT_OK;
	default:
		return -1;
	}
}

static int
parse_args(const sf_command *cmd, int argc, char **argv, predict_args *a)
{
	static const struct option options[] = {
	    {"at", required_argument, NULL, 'a'},
	    {"grid", required_argument, NULL, 'g'},
	    {"input", required_argument, NULL, 'i'},
	    {"json", no_argument, NULL, 'j'},
	    {"csv", no_argument, NULL, 'c'},
	    {"weights", required_argument, NULL, 'w'},
	    {"group", required_argument, NULL, 'G'},
	    {"unit", required_argument, NULL, 'u'},
	    {"quiet", no_argument, NULL, 'q'},
	    {"help", no_argument, NULL, 'h'},
	    {NULL, 0, NULL, 0},
	};
	int c, rc;

	while ((c = getopt_long(argc, argv, "a:qh", options, NULL)) != -1) {
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
		                 "predict needs a fit file (FIT.json, from "
		                 "'scalefit fit -o FIT.json')");
	if (a->s.group != NULL && argc - optind > 1)
		return cli_usage(cmd->name, NULL,
		                 "--group goes with one fit file, not an "
		                 "average of several");
	if (a->weights_given && argc - optind < 2)
		return cli_usage(cmd->name, NULL,
		                 "--weights goes with two or more fit files");
	if (a->s.nat == 0 && a->s.grid == NULL)
		return cli_usage(cmd->name, NULL,
		                 "say where to predict: --at NAME=VALUE,... "
		                 "or --grid FILE.csv");
	if (a->s.json && a->s.csv)
		return cli_usage(cmd->name, NULL,
		                 "--json and --csv: choose one");
	if (a->s.ninputs > 0 && a->s.grid == NULL)
		return cli_usage(cmd->name, NULL,
		                 "--input maps the columns of a --grid "
		                 "FILE.csv to the fit's inputs: give a grid");
	a->s.fits = (const char *const *)argv + optind;
	a->s.nfits = (size_t)(argc - optind);
	return SF_EXIT_OK;
}

int
sf_command_predict(const sf_command *cmd, int argc, char **argv)
{
	predict_args a;
	sf_run_predict_result *r = NULL;
	sf_error err;
	int status;

	memset(&a, 0, sizeof a);
	sf_error_clear(&err);
	if ((a.at = calloc((size_t)argc + 1, sizeof *a.at)) == NULL ||
	    (a.inputs = calloc((size_t)argc + 1, sizeof *a.inputs)) == NULL) {
		free(a.at);
		sf_error_set(&err, SF_ENOMEM, "out of memory");
		return cli_error(&err);
	}
	a.s.at = a.at;
	a.s.inputs = a.inputs;
	a.s.warn = cli_warning;
	if ((status = parse_args(cmd, argc, argv, &a)) == SF_EXIT_OK) {
		if (sf_run_predict(&a.s, &r, &err) != SF_OK)
			status = cli_fail(cmd->name, &err);
		else
			status = cli_print(&r->out, a.s.json);
	}
	sf_run_predict_result_free(r);
	free(a.at);
	free(a.inputs);
	return status;
}
