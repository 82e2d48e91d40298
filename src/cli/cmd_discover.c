/*
 * cmd_discover.c - `scalefit discover MODEL.yaml [DATA.csv] [--train EXPR]
 * [--max-terms K] [-o OUT.yaml] [--json]`: search the grammar of formulas
 * for the one that extrapolates best, print the board, and write the
 * winner as a model file (run/discover.h does the work); with --by and
 * -o DIR, each group's winner as a file in DIR.
 */
#include "base/atomic.h"
#include "base/number.h"
#include "base/units.h"
#include "cli/parse.h"
#include "run/discover.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

typedef struct discover_args {
	const char *model_path;
	int quiet;
	sf_run_discover_settings s; /* s.data: data.run, once parsed */
	cli_data data;              /* with --by, --details */
} discover_args;

/* --budget: formulas scored at most. */
static int
parse_budget(const char *cmd, int val, const char *arg, void *to)
{
	size_t *budget = to;
	uint64_t count;

	(void)val;
	if (sf_parse_count(arg, &count) == SF_OK && count >= 1 &&
	    count <= SF_DISCOVER_MAX_BUDGET) {
		*budget = (size_t)count;
		return SF_EXIT_OK;
	}
	return cli_usage(cmd, NULL,
	                 "--budget needs a whole number from 1 to %d (a search "
	                 "keeps every formula it scores: about 0.5 GB at the "
	                 "most), not '%s'",
	                 SF_DISCOVER_MAX_BUDGET, arg);
}

static int
parse_args(const sf_command *cmd, int argc, char **argv, discover_args *a)
{
	sf_discover_options *o = &a->s.options;
	const cli_option options[] = {
	    CLI_TEXT("train", 'r', &o->train),
	    CLI_COUNT("max-terms", 'K', 1, SF_DISCOVER_MAX_TERMS,
	              &o->max_terms),
	    CLI_COUNT("beam", 'W', 1, 10000, &o->beam),
	    CLI_CALL("budget", 'B', required_argument, parse_budget,
	             &o->budget),
	    CLI_TEXT("extrapolate", 'X', &o->extrapolate),
	    CLI_COUNT("top", 'n', 1, 1000, &o->top),
	    CLI_COUNT("members", 'M', 1, SF_DISCOVER_MAX_MEMBERS, &o->members),
	    CLI_NUMBER("to", 'T', "a value of the extrapolated input > 0",
	               &o->to),
	    CLI_TEXT("output", 'o' | CLI_SHORT, &a->s.output),
	    CLI_FLAG("json", 'j', &a->s.json),
	    CLI_FLAG("shapes", 'S' + 256, &a->s.shapes),
	    CLI_FIT_OPTIONS(&o->fit),
	    CLI_DATA_OPTIONS(&a->data),
	    CLI_FLAG("quiet", 'q' | CLI_SHORT, &a->quiet),
	    CLI_FLEET_OPTIONS(&a->data),
	    CLI_END,
	};
	int rc;

	memset(a, 0, sizeof *a);
	sf_run_discover_settings_init(&a->s);
	if ((rc = cli_parse(cmd, options, argc, argv)) != SF_EXIT_OK)
		return rc;
	if ((rc = cli_model_operands(cmd->name, argc, argv, &a->model_path,
	                             &a->data.run.path)) != SF_EXIT_OK)
		return rc;
	a->s.options.threads = a->s.options.fit.threads;
	a->s.library = cli_library_dir();
	if (a->s.shapes && a->s.output != NULL)
		return cli_usage(cmd->name, NULL,
		                 "--shapes lists the grammar's term shapes: it "
		                 "writes no model file (-o)");
	return cli_output_not_input(cmd->name, "-o", a->s.output, a->model_path,
	                            "the model file");
}

/* With groups and -o DIR: DIR made when missing (mode 0777 less the
 * umask), so that each group's file can name its data relative to it.
 * Returns SF_OK, or SF_EUSAGE with err when it cannot be made. */
static int
make_directory(const sf_model_set *set, const discover_args *a, sf_error *err)
{
	if (a->s.output == NULL ||
	    !sf_run_data_grouped(set->models[0], &a->data.run) ||
	    mkdir(a->s.output, 0777) == 0 || errno == EEXIST)
		return SF_OK;
	return sf_error_set(err, SF_EUSAGE,
	                    "-o %s: cannot make the directory: %s", a->s.output,
	                    strerror(errno));
}

/* Each group's model file written (atomically). */
static int
write_files(const sf_run_discover_result *r, sf_error *err)
{
	int rc = SF_OK;

	for (size_t i = 0; i < r->nfiles && rc == SF_OK; i++)
		rc = sf_write_atomic(r->files[i].path, r->files[i].text,
		                     strlen(r->files[i].text), "the model file",
		                     err);
	return rc;
}

/* Print r as asked; -o only once stdout took the report (status 2 writes
 * no file), on the job's rank 0. */
static int
report(const discover_args *a, const sf_run_discover_result *r)
{
	sf_error err;
	int status;

	sf_error_clear(&err);
	if ((status = cli_print(&r->out, a->s.json)) != SF_EXIT_OK ||
	    (status = cli_flush_stdout()) != SF_EXIT_OK)
		return status;
	if (a->s.output != NULL && r->model_text != NULL && sf_units_root() &&
	    sf_write_atomic(a->s.output, r->model_text, strlen(r->model_text),
	                    "the model file", &err) != SF_OK)
		return cli_error(&err);
	return SF_EXIT_OK;
}

int
sf_command_discover(const sf_command *cmd, int argc, char **argv)
{
	sf_model_set *set = NULL;
	sf_run_discover_result *r = NULL;
	discover_args a;
	sf_error err;
	int status;

	sf_error_clear(&err);
	if ((status = parse_args(cmd, argc, argv, &a)) != SF_EXIT_OK)
		return status;
	if (cli_load_models(a.model_path, SF_MODEL_FORMULA_OPTIONAL, &a.data,
	                    &set, a.quiet, &err) != SF_OK)
		return cli_error(&err);
	a.s.data = a.data.run;
	a.s.warn = a.quiet ? NULL : cli_warning;
	if (make_directory(set, &a, &err) != SF_OK)
		status = cli_error(&err);
	else if (sf_run_discover(set, &a.s, &r, &err) != SF_OK)
		status = cli_fail(cmd->name, &err);
	else if (r->fleet != NULL && write_files(r, &err) != SF_OK)
		status = cli_error(&err);
	else if (r->fleet != NULL)
		status = cli_fleet_print(r->fleet, &r->out, a.s.json, NULL);
	else
		status = report(&a, r);
	sf_run_discover_result_free(r);
	sf_model_set_free(set);
	return status;
}
