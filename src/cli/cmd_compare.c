/*
 * cmd_compare.c - `scalefit compare MODEL.yaml... [DATA.csv]`: fit every
 * candidate formula on the same rows and rank them.
 *
 * The fitting, scoring, ranking and the texts are run/compare.h's; this
 * file parses the arguments, prints, and turns errors into exit statuses.
 */
#define _GNU_SOURCE /* getopt_long */

#include "base/suggest.h"
#include "cli/cli.h"
#include "run/compare.h"

#include <getopt.h>
#include <stdlib.h>
#include <string.h>

enum { COMPARE_MAX = SF_RUN_COMPARE_MAX };

typedef struct compare_args {
	const char *paths[COMPARE_MAX];
	size_t npaths;
	int json, quiet;
	sf_run_compare_settings s; /* s.data: data.run, once parsed */
	cli_data data;
} compare_args;

static int
has_suffix(const char *s, const char *suffix)
{
	size_t n = strlen(s), m = strlen(suffix);

	return n >= m && strcmp(s + n - m, suffix) == 0;
}

/* --rank: a name of fit/compare.h's table of rankings. */
static int
parse_rank(const sf_command *cmd, const char *arg, sf_compare_rank_by *rank)
{
	const char *names[SF_COMPARE_RANKINGS];
	size_t n = 0;

	if ((*rank = sf_compare_ranking_find(arg)) != SF_COMPARE_RANKINGS)
		return SF_EXIT_OK;
	for (int r = SF_COMPARE_RANK_AICC; r < SF_COMPARE_RANKINGS; r++)
		names[n++] =
		    sf_compare_ranking_get((sf_compare_rank_by)r)->name;
	return cli_usage(cmd->name, sf_suggest_nearest(arg, names, n),
	                 "--rank is aicc, cv or extrapolation, not '%s'", arg);
}

static int
parse_args(const sf_command *cmd, int argc, char **argv, compare_args *a)
{
	static const struct option options[] = {
	    {"train", required_argument, NULL, 'r'},
	    {"kfold", required_argument, NULL, 'k'},
	    {"rank", required_argument, NULL, 'R'},
	    {"json", no_argument, NULL, 'j'},
	    {"csv", no_argument, NULL, 'c'},
	    CLI_FIT_OPTIONS,
	    CLI_DATA_OPTIONS,
	    {"quiet", no_argument, NULL, 'q'},
	    CLI_FLEET_OPTIONS,
	    {"help", no_argument, NULL, 'h'},
	    {NULL, 0, NULL, 0},
	};
	int c, rc;

	memset(a, 0, sizeof *a);
	sf_run_compare_settings_init(&a->s);
	while ((c = getopt_long(argc, argv, "qh", options, NULL)) != -1) {
		switch (c) {
		case 'r':
			a->s.train = optarg;
			break;
		case 'k':
			if (cli_count(cmd->name, "kfold", optarg, 2, 1000000,
			              &a->s.kfold) != SF_EXIT_OK)
				return SF_EXIT_USAGE;
			break;
		case 'R':
			if ((rc = parse_rank(cmd, optarg, &a->s.rank)) !=
			    SF_EXIT_OK)
				return rc;
			break;
		case 'j':
			a->json = 1;
			break;
		case 'c':
			a->s.csv = 1;
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
	for (int i = optind; i < argc; i++) {
		if ((has_suffix(argv[i], ".csv") ||
		     strcmp(argv[i], "-") == 0) &&
		    i == argc - 1) {
			a->data.run.path = argv[i];
		} else if (a->npaths == COMPARE_MAX) {
			return cli_usage(cmd->name, NULL,
			                 "at most %d model files", COMPARE_MAX);
		} else {
			a->paths[a->npaths++] = argv[i];
		}
	}
	if (a->npaths == 0)
		return cli_usage(cmd->name, NULL,
		                 "compare needs at least one model file");
	return SF_EXIT_OK;
}

int
sf_command_compare(const sf_command *cmd, int argc, char **argv)
{
	sf_model_set *sets[COMPARE_MAX] = {0};
	sf_run_compare_result *r = NULL;
	sf_table *in = NULL; /* DATA.csv "-": standard input */
	compare_args a;
	sf_error err;
	int status = SF_EXIT_OK;

	sf_error_clear(&err);
	if ((status = parse_args(cmd, argc, argv, &a)) != SF_EXIT_OK)
		return status;
	if (cli_stdin_table(a.data.run.path, &in, &err) != SF_OK)
		return cli_error(&err);
	for (size_t f = 0; f < a.npaths && status == SF_EXIT_OK; f++)
		if (cli_load_models(a.paths[f], 0, &a.data, &sets[f], a.quiet,
		                    &err) != SF_OK)
			status = cli_error(&err);
	if (status != SF_EXIT_OK)
		goto done;
	a.data.run.table = in;
	a.s.data = a.data.run;
	a.s.json = a.json;
	a.s.warn = a.quiet ? NULL : cli_warning;
	if (sf_run_compare(sets, a.npaths, &a.s, &r, &err) != SF_OK)
		status = cli_fail(cmd->name, &err);
	else if (r->fleet != NULL)
		status = cli_fleet_print(r->fleet, &r->out, a.json, NULL);
	else
		status = cli_print(&r->out, a.json);
done:
	sf_run_compare_result_free(r);
	sf_table_free(in);
	for (size_t f = 0; f < a.npaths; f++)
		sf_model_set_free(sets[f]);
	return status;
}
