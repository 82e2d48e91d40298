/*
 * cmd_compare.c - `scalefit compare MODEL.yaml... [DATA.csv]`: fit every
 * candidate formula on the same rows and rank them.
 *
 * The fitting, scoring, ranking and the texts are run/compare.h's; this
 * file parses the arguments, prints, and turns errors into exit statuses.
 */
#include "base/suggest.h"
#include "cli/parse.h"
#include "run/compare.h"

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
parse_rank(const char *cmd, int val, const char *arg, void *to)
{
	sf_compare_rank_by *rank = to;
	const char *names[SF_COMPARE_RANKINGS];
	size_t n = 0;

	(void)val;
	if ((*rank = sf_compare_ranking_find(arg)) != SF_COMPARE_RANKINGS)
		return SF_EXIT_OK;
	for (int r = SF_COMPARE_RANK_AICC; r < SF_COMPARE_RANKINGS; r++)
		names[n++] =
		    sf_compare_ranking_get((sf_compare_rank_by)r)->name;
	return cli_usage(cmd, sf_suggest_nearest(arg, names, n),
	                 "--rank is aicc, cv or extrapolation, not '%s'", arg);
}

static int
parse_args(const sf_command *cmd, int argc, char **argv, compare_args *a)
{
	const cli_option options[] = {
	    CLI_TEXT("train", 'r', &a->s.train),
	    CLI_COUNT("kfold", 'k', 2, 1000000, &a->s.kfold),
	    CLI_CALL("rank", 'R', required_argument, parse_rank, &a->s.rank),
	    CLI_FLAG("json", 'j', &a->json),
	    CLI_FLAG("csv", 'c', &a->s.csv),
	    CLI_FIT_OPTIONS(&a->s.options),
	    CLI_DATA_OPTIONS(&a->data),
	    CLI_FLAG("quiet", 'q' | CLI_SHORT, &a->quiet),
	    CLI_FLEET_OPTIONS(&a->data),
	    CLI_END,
	};
	int rc;

	memset(a, 0, sizeof *a);
	sf_run_compare_settings_init(&a->s);
	if ((rc = cli_parse(cmd, options, argc, argv)) != SF_EXIT_OK)
		return rc;
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
	if ((status = cli_stdin_data(&a.data, &in)) != SF_EXIT_OK)
		return status;
	for (size_t f = 0; f < a.npaths && status == SF_EXIT_OK; f++)
		if (cli_load_models(a.paths[f], 0, &a.data, &sets[f], a.quiet,
		                    &err) != SF_OK)
			status = cli_error(&err);
	if (status != SF_EXIT_OK)
		goto done;
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
