/*
 * cmd_check.c - `scalefit check MODEL.yaml [DATA.csv]`: validate a model
 * and its data without fitting, and show what scalefit understood
 * (run/check.h does the work).
 */
#define _GNU_SOURCE /* getopt_long */

#include "cli/cli.h"
#include "base/escape.h"
#include "run/check.h"

#include <getopt.h>
#include <stdlib.h>
#include <string.h>

/* Check model i of set on the rows d says: print what was understood, and
 * its data.by's groups. */
static int
check_model(const sf_model_set *set, size_t i, const sf_run_data *d, int quiet)
{
	const sf_model *m = set->models[i];
	sf_run_check_result *r = NULL;
	sf_error err;
	int status = SF_EXIT_OK;

	sf_error_clear(&err);
	if (sf_run_check(m, d, set->count > 1, quiet ? NULL : cli_warning, NULL,
	                 &r, &err) != SF_OK)
		return cli_error(&err);
	if (i > 0)
		printf("\n");
	fputs(r->out.text, stdout);
	/* data.by: its columns exist, as fit would require. */
	if (sf_run_check_groups(r, d, &err) != SF_OK)
		status = cli_error(&err);
	else if (r->groups != NULL) {
		fputs("by:    ", stdout);
		sf_escape_print(stdout, m->by.text, 0);
		printf(": %zu groups\n", r->groups->count);
	}
	sf_run_check_result_free(r);
	return status;
}

int
sf_command_check(const sf_command *cmd, int argc, char **argv)
{
	static const struct option options[] = {
	    {"quiet", no_argument, NULL, 'q'},
	    {"help", no_argument, NULL, 'h'},
	    CLI_DATA_OPTIONS,
	    {NULL, 0, NULL, 0},
	};
	const char *model_path;
	cli_data data;
	sf_table *in = NULL; /* DATA.csv "-": standard input */
	sf_model_set *set = NULL;
	sf_error err;
	int quiet = 0, c, status = SF_EXIT_OK;

	memset(&data, 0, sizeof data);
	sf_error_clear(&err);
	while ((c = getopt_long(argc, argv, "qh", options, NULL)) != -1) {
		switch (c) {
		case 'q':
			quiet = 1;
			break;
		case 'h':
			cli_print_help(stdout, cmd);
			return SF_EXIT_OK;
		default:
			status = cli_data_option(cmd->name, c, optarg, &data);
			if (status == SF_EXIT_OK)
				break;
			if (status > 0)
				return status;
			return cli_bad_option(cmd->name, argc, argv, optopt,
			                      options);
		}
	}
	if (argc - optind < 1)
		return cli_usage(cmd->name, NULL, "check needs a model file");
	if (argc - optind > 2)
		return cli_usage(cmd->name, NULL, "unexpected argument '%s'",
		                 argv[optind + 2]);
	model_path = argv[optind];
	if (argc - optind == 2)
		data.run.path = argv[optind + 1];
	if (cli_load_models(model_path, 0, &data, &set, quiet, &err) != SF_OK)
		return cli_error(&err);
	if (cli_stdin_table(data.run.path, &in, &err) != SF_OK) {
		sf_model_set_free(set);
		return cli_error(&err);
	}
	data.run.table = in;
	for (size_t i = 0; i < set->count && status == SF_EXIT_OK; i++)
		status = check_model(set, i, &data.run, quiet);
	if (status == SF_EXIT_OK)
		printf("\nok: %zu model%s ready to fit\n", set->count,
		       set->count == 1 ? "" : "s");
	sf_table_free(in);
	sf_model_set_free(set);
	return status;
}
