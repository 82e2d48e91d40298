/*
 * cmd_discover.c - `scalefit discover MODEL.yaml [DATA.csv] [--train EXPR]
 * [--max-terms K] [-o OUT.yaml] [--json]`: search the grammar of formulas
 * for the one that extrapolates best, print the board, and write the
 * winner as a model file (run/discover.h does the work); with --by and
 * -o DIR, each group's winner as a file in DIR.
 */
#define _GNU_SOURCE /* getopt_long */

#include "base/atomic.h"
#include "base/number.h"
#include "cli/cli.h"
#include "run/discover.h"

#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

typedef struct discover_args {
	const char *model_path;
	int quiet;
	sf_run_discover_settings s; /* s.data: data.run, once parsed */
	cli_data data;              /* with --by, --details */
} discover_args;

/* A discover option c with argument arg into a: SF_EXIT_OK, SF_EXIT_USAGE
 * after the message, or -1 when c is none of discover's own. */
static int
discover_option(const sf_command *cmd, int c, const char *arg, discover_args *a)
{
	sf_discover_options *o = &a->s.options;
	uint64_t count;

	switch (c) {
	case 'r':
		o->train = arg;
		return SF_EXIT_OK;
	case 'K':
		return cli_count(cmd->name, "max-terms", arg, 1,
		                 SF_DISCOVER_MAX_TERMS, &o->max_terms);
	case 'W':
		return cli_count(cmd->name, "beam", arg, 1, 10000, &o->beam);
	case 'B':
		if (sf_parse_count(arg, &count) == SF_OK && count >= 1 &&
		    count <= SF_DISCOVER_MAX_BUDGET) {
			o->budget = (size_t)count;
			return SF_EXIT_OK;
		}
		return cli_usage(cmd->name, NULL,
		                 "--budget needs a whole number from 1 to %d "
		                 "(a search keeps every formula it scores: "
		                 "about 0.5 GB at the most), not '%s'",
		                 SF_DISCOVER_MAX_BUDGET, arg);
	case 'n':
		return cli_count(cmd->name, "top", arg, 1, 1000, &o->top);
	case 'M':
		return cli_count(cmd->name, "members", arg, 1,
		                 SF_DISCOVER_MAX_MEMBERS, &o->members);
	case 'X':
		o->extrapolate = arg;
		return SF_EXIT_OK;
	case 'o':
		a->s.output = arg;
		return SF_EXIT_OK;
	case 'j':
		a->s.json = 1;
		return SF_EXIT_OK;
	case 'S' + 256:
		a->s.shapes = 1;
		return SF_EXIT_OK;
	case 'q':
		a->quiet = 1;
		return SF_EXIT_OK;
	default:
		return -1;
	}
}

static int
parse_args(const sf_command *cmd, int argc, char **argv, discover_args *a)
{
	static const struct option options[] = {
	    {"train", required_argument, NULL, 'r'},
	    {"max-terms", required_argument, NULL, 'K'},
	    {"beam", required_argument, NULL, 'W'},
	    {"budget", required_argument, NULL, 'B'},
	    {"extrapolate", required_argument, NULL, 'X'},
	    {"top", required_argument, NULL, 'n'},
	    {"members", required_argument, NULL, 'M'},
	    {"output", required_argument, NULL, 'o'},
	    {"json", no_argument, NULL, 'j'},
	    {"shapes", no_argument, NULL, 'S' + 256},
	    CLI_FIT_OPTIONS,
	    CLI_DATA_OPTIONS,
	    {"quiet", no_argument, NULL, 'q'},
	    CLI_FLEET_OPTIONS,
	    {"help", no_argument, NULL, 'h'},
	    {NULL, 0, NULL, 0},
	};
	int c, rc;

	memset(a, 0, sizeof *a);
	sf_run_discover_settings_init(&a->s);
	while ((c = getopt_long(argc, argv, "o:qh", options, NULL)) != -1) {
		if ((rc = discover_option(cmd, c, optarg, a)) < 0 &&
		    (rc = cli_data_option(cmd->name, c, optarg, &a->data)) < 0)
			rc = cli_other_option(cmd, c, argc, argv, options,
			                      &a->s.options.fit);
		if (rc != SF_EXIT_OK)
			return rc;
	}
	if (argc - optind < 1)
		return cli_usage(cmd->name, NULL,
		                 "discover needs a model file");
	if (argc - optind > 2)
		return cli_usage(cmd->name, NULL, "unexpected argument '%s'",
		                 argv[optind + 2]);
	a->model_path = argv[optind];
	a->data.run.path = argc - optind == 2 ? argv[optind + 1] : NULL;
	a->s.options.threads = a->s.options.fit.threads;
	return SF_EXIT_OK;
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
	else if (a.s.output != NULL && r->model_text != NULL &&
	         sf_write_atomic(a.s.output, r->model_text,
	                         strlen(r->model_text), "the model file",
	                         &err) != SF_OK)
		status = cli_error(&err);
	else
		status = cli_print(&r->out, a.s.json && !a.s.shapes);
	sf_run_discover_result_free(r);
	sf_model_set_free(set);
	return status;
}
