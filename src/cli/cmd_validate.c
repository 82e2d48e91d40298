/*
 * cmd_validate.c - `scalefit validate MODEL.yaml [DATA.csv] --train EXPR |
 * --kfold K | --loo`: fit without some rows, predict them, and say how
 * far off the predictions are, overall and per value of each input
 * (run/validate.h does the work).
 */
#include "cli/parse.h"
#include "run/validate.h"

#include <stdlib.h>
#include <string.h>

typedef struct validate_args {
	const char *model_path;
	int json, quiet;
	int methods; /* of --train, --kfold and --loo, how many were given */
	sf_run_validate_settings s; /* s.data: data.run, once parsed */
	cli_data data;
} validate_args;

/* --train, --kfold or --loo: a way of holding rows out, counted. */
static int
parse_method(const char *cmd, int val, const char *arg, void *to)
{
	validate_args *a = to;

	a->methods++;
	if (val == 'r')
		a->s.train = arg;
	else if (val == 'O')
		a->s.loo = 1;
	else
		return cli_count(cmd, "kfold", arg, 2, 1000000, &a->s.kfold);
	return SF_EXIT_OK;
}

static int
parse_args(const sf_command *cmd, int argc, char **argv, validate_args *a)
{
	const cli_option options[] = {
	    CLI_CALL("train", 'r', required_argument, parse_method, a),
	    CLI_CALL("kfold", 'k', required_argument, parse_method, a),
	    CLI_CALL("loo", 'O', no_argument, parse_method, a),
	    CLI_FLAG("json", 'j', &a->json),
	    CLI_FLAG("csv", 'c', &a->s.csv),
	    CLI_FIT_OPTIONS(&a->s.options),
	    CLI_DATA_OPTIONS(&a->data),
	    CLI_TEXT("model", 'm', &a->data.run.model),
	    CLI_FLAG("quiet", 'q' | CLI_SHORT, &a->quiet),
	    CLI_FLEET_OPTIONS(&a->data),
	    CLI_END,
	};
	int rc;

	memset(a, 0, sizeof *a);
	sf_run_validate_settings_init(&a->s);
	if ((rc = cli_parse(cmd, options, argc, argv)) != SF_EXIT_OK)
		return rc;
	if (a->methods != 1)
		return cli_usage(cmd->name, NULL,
		                 "validate needs exactly one of --train EXPR, "
		                 "--kfold K and --loo");
	return cli_model_operands(cmd->name, argc, argv, &a->model_path,
	                          &a->data.run.path);
}

int
sf_command_validate(const sf_command *cmd, int argc, char **argv)
{
	sf_model_set *set = NULL;
	sf_run_validate_result *r = NULL;
	sf_table *in = NULL; /* DATA.csv "-": standard input */
	const sf_model *m;
	validate_args a;
	sf_error err;
	int status;

	sf_error_clear(&err);
	if ((status = parse_args(cmd, argc, argv, &a)) != SF_EXIT_OK)
		return status;
	if ((status = cli_open_model(cmd->name, a.model_path, &a.data, a.quiet,
	                             &set, &m)) != SF_EXIT_OK ||
	    (status = cli_stdin_data(&a.data, &in)) != SF_EXIT_OK)
		goto done;
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
