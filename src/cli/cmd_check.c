/*
 * cmd_check.c - `scalefit check MODEL.yaml [DATA.csv]`: validate a model
 * and its data without fitting, and show what scalefit understood
 * (run/check.h does the work).
 */
#include "cli/parse.h"
#include "base/escape.h"
#include "run/check.h"

#include <stdlib.h>
#include <string.h>

/* Model i of ensemble set: its place and its share of the mixture (as
 * fit weighs them before any lacks an error model). */
static void
print_member(const sf_model_set *set, size_t i)
{
	printf("ensemble: formula %zu of %zu read as one, weight %g (%.3g%% "
	       "of the mixture)\n",
	       i + 1, set->count, set->models[i]->ensemble_weight,
	       100 * sf_model_set_share(set, i));
}

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
	if (set->ensemble)
		print_member(set, i);
	sf_run_check_result_free(r);
	return status;
}

int
sf_command_check(const sf_command *cmd, int argc, char **argv)
{
	const char *model_path;
	cli_data data;
	sf_table *in = NULL; /* DATA.csv "-": standard input */
	sf_model_set *set = NULL;
	sf_error err;
	int quiet = 0, status = SF_EXIT_OK;
	/* --help returns (through main's check of stdout) where the other
	 * commands exit. */
	const cli_option options[] = {
	    CLI_FLAG("quiet", 'q' | CLI_SHORT, &quiet),
	    CLI_HELP_RETURN,
	    CLI_DATA_OPTIONS(&data),
	    CLI_END,
	};

	memset(&data, 0, sizeof data);
	sf_error_clear(&err);
	if ((status = cli_parse(cmd, options, argc, argv)) != SF_EXIT_OK)
		return status == CLI_HELP_SHOWN ? SF_EXIT_OK : status;
	if ((status = cli_model_operands(cmd->name, argc, argv, &model_path,
	                                 &data.run.path)) != SF_EXIT_OK)
		return status;
	if (cli_load_models(model_path, 0, &data, &set, quiet, &err) != SF_OK)
		return cli_error(&err);
	if ((status = cli_stdin_data(&data, &in)) != SF_EXIT_OK) {
		sf_model_set_free(set);
		return status;
	}
	for (size_t i = 0; i < set->count && status == SF_EXIT_OK; i++)
		status = check_model(set, i, &data.run, quiet);
	if (status == SF_EXIT_OK)
		printf("\nok: %zu model%s ready to fit\n", set->count,
		       set->count == 1 ? "" : "s");
	sf_table_free(in);
	sf_model_set_free(set);
	return status;
}
