/*
 * cmd_validate.c - `scalefit validate MODEL.yaml [DATA.csv] --train EXPR |
 * --kfold K | --loo`: fit without some rows, predict them, and say how
 * far off the predictions are, overall and per value of each input
 * (run/validate.h does the work).
 */
#define _GNU_SOURCE /* getopt_long */

#include "cli/cli.h"
#include "run/validate.h"

#include <getopt.h>
#include <stdlib.h>
#include <string.h>

typedef struct validate_args {
	const char *model_path;
	int json, quiet;
	sf_run_validate_settings s; /* s.data: data.run, once parsed */
	cli_data data;
} validate_args;

static int
parse_args(const sf_command *cmd, int argc, char **argv, validate_args *a)
{
	static const struct option options[] = {
	    {"train", required_argument, NULL, 'r'},
	    {"kfold", required_argument, NULL, 'k'},
	    {"loo", no_argument, NULL, 'O'},
	    {"json", no_argument, NULL, 'j'},
	    {"csv", no_argument, NULL, 'c'},
	    CLI_FIT_OPTIONS,
	    CLI_DATA_OPTIONS,
	    {"model", required_argument, NULL, 'm'},
	    {"quiet", no_argument, NULL, 'q'},
	    CLI_FLEET_OPTIONS,
	    {"help", no_argument, NULL, 'h'},
	    {NULL, 0, NULL, 0},
	};
	int c, rc, methods = 0;

	memset(a, 0, sizeof *a);
	sf_run_validate_settings_init(&a->s);
	while ((c = getopt_long(argc, argv, "qh", options, NULL)) != -1) {
		switch (c) {
		case 'r':
			a->s.train = optarg;
			methods++;
			break;
		case 'k':
			if (cli_count(cmd->name, "kfold", optarg, 2, 1000000,
			              &a->s.kfold) != SF_EXIT_OK)
				return SF_EXIT_USAGE;
			methods++;
			break;
		case 'O':
			a->s.loo = 1;
			methods++;
			break;
		case 'c':
			a->s.csv = 1;
			break;
		case 'j':
			a->json = 1;
			break;
		case 'm':
			a->data.run.model = optarg;
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
	if (methods != 1)
		return cli_usage(cmd->name, NULL,
		                 "validate needs exactly one of --train EXPR, "
		                 "--kfold K and --loo");
	if (argc - optind < 1)
		return cli_usage(cmd->name, NULL,
		                 "validate needs a model file");
	if (argc - optind > 2)
		return cli_usage(cmd->name, NULL, "unexpected argument '%s'",
		                 argv[optind + 2]);
	a->model_path = argv[optind];
	a->data.run.path = argc - optind == 2 ? argv[optind + 1] : NULL;
	return SF_EXIT_OK;
}

int
sf_command_validate(const sf_command *cmd, int argc, char **argv)
{
	sf_model_set *set = NULL;
	sf_run_validate_result *r = NULL;
	sf_table *in = NULL; /* DATA.csv "-": standard input */
	validate_args a;
	sf_error err;
	int status;

	sf_error_clear(&err);
	if ((status = parse_args(cmd, argc, argv, &a)) != SF_EXIT_OK)
		return status;
	if (cli_load_models(a.model_path, 0, &a.data, &set, a.quiet, &err) !=
	    SF_OK)
		return cli_error(&err);
	if (cli_choose_model(cmd->name, set, a.data.run.model, a.model_path) ==
	    NULL) {
		status = SF_EXIT_USAGE;
		goto done;
	}
	if (cli_stdin_table(a.data.run.path, &in, &err) != SF_OK) {
		status = cli_error(&err);
		goto done;
	}
	a.data.run.table = in;
	a.s.data = a.data.run;
	a.s.json = a.json;
	a.s.warn = a.quiet ? NULL : cli_warning;
	if (sf_run_validate(set, &a.s, &r, &err) != SF_OK)
		status = cli_fail(cmd->name, &err);
	else if (r->fleet != NULL)
		status = cli_fleet_print(r->fleet, &r->out, a.json, NULL);
	else if ((status = cli_print(&r->out, a.json)) == SF_EXIT_OK &&
	         r->holdout->predicted_rows == 0)
		status = SF_EXIT_GOAL; /* no row could be predicted */
done:
	sf_run_validate_result_free(r);
	sf_table_free(in);
	sf_model_set_free(set);
	return status;
}
