/*
 * cmd_discover.c - `scalefit discover MODEL.yaml [DATA.csv] [--train EXPR]
 * [--max-terms K] [-o OUT.yaml] [--json]`: search the grammar of
 * formulas for the one that extrapolates best (discover/discover.h), print the
 * board, and write the winner as a model file.
 */
#define _GNU_SOURCE /* getopt_long, realpath */

#include "base/atomic.h"
#include "cli/cli.h"
#include "discover/discover.h"
#include "discover/report.h"
#include "input/library.h"
#include "input/csv.h"
#include "use/report.h"

#include <getopt.h>
#include <stdlib.h>
#include <string.h>

typedef struct discover_args {
	const char *model_path, *data_path, *output;
	int json, quiet, shapes;
	sf_discover_options options;
	cli_data data; /* with --by, --details */
} discover_args;

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
	sf_discover_options_init(&a->options);
	while ((c = getopt_long(argc, argv, "o:qh", options, NULL)) != -1) {
		switch (c) {
		case 'r':
			a->options.train = optarg;
			break;
		case 'K':
			if (cli_count(cmd->name, "max-terms", optarg, 1,
			              SF_DISCOVER_MAX_TERMS,
			              &a->options.max_terms) != SF_EXIT_OK)
				return SF_EXIT_USAGE;
			break;
		case 'W':
			if (cli_count(cmd->name, "beam", optarg, 1, 10000,
			              &a->options.beam) != SF_EXIT_OK)
				return SF_EXIT_USAGE;
			break;
		case 'B':
			if (cli_count(cmd->name, "budget", optarg, 1, SIZE_MAX,
			              &a->options.budget) != SF_EXIT_OK)
				return SF_EXIT_USAGE;
			break;
		case 'n':
			if (cli_count(cmd->name, "top", optarg, 1, 1000,
			              &a->options.top) != SF_EXIT_OK)
				return SF_EXIT_USAGE;
			break;
		case 'M':
			if (cli_count(cmd->name, "members", optarg, 1,
			              SF_DISCOVER_MAX_MEMBERS,
			              &a->options.members) != SF_EXIT_OK)
				return SF_EXIT_USAGE;
			break;
		case 'X':
			a->options.extrapolate = optarg;
			break;
		case 'o':
			a->output = optarg;
			break;
		case 'j':
			a->json = 1;
			break;
		case 'S' + 256:
			a->shapes = 1;
			break;
		case 'q':
			a->quiet = 1;
			break;
		default:
			if ((rc = cli_data_option(cmd->name, c, optarg,
			                          &a->data)) < 0)
				rc = cli_other_option(cmd, c, argc, argv,
				                      options, &a->options.fit);
			if (rc != SF_EXIT_OK)
				return rc;
		}
	}
	if (argc - optind < 1)
		return cli_usage(cmd->name, NULL,
		                 "discover needs a model file");
	if (argc - optind > 2)
		return cli_usage(cmd->name, NULL, "unexpected argument '%s'",
		                 argv[optind + 2]);
	a->model_path = argv[optind];
	a->data_path = argc - optind == 2 ? argv[optind + 1] : NULL;
	a->options.threads = a->options.fit.threads;
	return SF_EXIT_OK;
}

/* 1 when a and b name the same existing file. */
static int
same_file(const char *a, const char *b)
{
	char *x = realpath(a, NULL), *y = b != NULL ? realpath(b, NULL) : NULL;
	int same = x != NULL && y != NULL && strcmp(x, y) == 0;

	free(x);
	free(y);
	return same;
}

/* The path the winner's file is written to, or (without -o) would be
 * beside the model file: data.file is made relative to it. */
static char *
output_path(const discover_args *a, const sf_model *m)
{
	const char *slash = strrchr(a->model_path, '/');
	size_t dir = slash != NULL ? (size_t)(slash - a->model_path) + 1 : 0;
	size_t n = dir + strlen(m->name) + 32;
	char *path;

	if (a->output != NULL)
		return strdup(a->output);
	if ((path = malloc(n)) != NULL)
		snprintf(path, n, "%.*s%s-discovered.yaml", (int)dir,
		         a->model_path, m->name);
	return path;
}

/* A --by run: each group's rows searched alone. */
typedef struct group_ctx {
	const discover_args *a;
	const sf_model *m;
	const sf_model_discover *grammar;
	const char *data_path;
	const sf_groups *groups;  /* the rows split (as cli_fleet splits) */
	const sf_problem *given;  /* the file's own formulas, all rows */
	sf_groups **given_groups; /* their rows split alike */
	size_t ngiven;
	uint64_t seed; /* the run's */
} group_ctx;

static int
discover_group(void *ctx, const sf_dataset *group, size_t index,
               sf_warn_fn warn, void *warn_ctx, json_t **report, char **text,
               sf_error *err)
{
	const group_ctx *g = ctx;
	const char *label = g->groups->groups[index].label;
	discover_args a = *g->a;
	sf_problem *given = calloc(g->ngiven + 1, sizeof *given);
	sf_discover_result *r = NULL;
	size_t ngiven = 0;
	int rc = SF_OK;

	(void)warn;
	(void)warn_ctx;
	if (given == NULL)
		return sf_error_set(err, SF_ENOMEM, "out of memory");
	a.options.fit.has_seed = 1;
	a.options.fit.seed = sf_fleet_seed(g->seed, index);
	/* The file's formulas on this group's rows, where they have some:
	 * their own tables and formulas, the group's rows. */
	for (size_t i = 0; i < g->ngiven && rc == SF_OK; i++) {
		size_t k = sf_groups_find(g->given_groups[i], label);
		const sf_group *gr =
		    k == SIZE_MAX ? NULL : &g->given_groups[i]->groups[k];

		if (gr == NULL || gr->nrows == 0)
			continue;
		given[ngiven] = g->given[i];
		rc = sf_dataset_select(g->given[i].data, gr->rows, gr->nrows,
		                       &given[ngiven].data, err);
		ngiven += rc == SF_OK;
	}
	if (rc != SF_OK ||
	    (rc = sf_discover_run(g->m, g->grammar, group, given, ngiven,
	                          &a.options, &r, err)) != SF_OK)
		goto done;
	if ((*report = sf_discover_report_json(g->m, g->data_path, r,
	                                       a.output)) == NULL ||
	    (*text = sf_discover_report_text(g->m, g->data_path, r,
	                                     a.output)) == NULL)
		rc = sf_error_set(err, SF_ENOMEM, "out of memory");
done:
	for (size_t i = 0; i < ngiven; i++)
		sf_dataset_free(given[i].data);
	free(given);
	sf_discover_result_free(r);
	return rc;
}

/* Search every group of data's rows (split as a->fleet says) alone. */
static int
discover_fleet(const discover_args *a, const sf_model_set *set,
               const sf_table *table, const sf_dataset *data,
               const char *data_path, const sf_problem *given, size_t ngiven)
{
	const sf_model *m = set->models[0];
	const char *by = a->data.run.by != NULL ? a->data.run.by : m->by.text;
	const sf_model_text *at = a->data.run.by != NULL ? NULL : &m->by;
	sf_problem p = {m, (sf_table *)table, (sf_dataset *)data, NULL};
	sf_groups *groups = NULL;
	group_ctx g = {a,
	               m,
	               &set->discover,
	               data_path,
	               NULL,
	               given,
	               calloc(ngiven + 1, sizeof *g.given_groups),
	               ngiven,
	               sf_fit_settings_effective(m, &a->options.fit).seed};
	sf_error err;
	int status = SF_EXIT_OK;

	sf_error_clear(&err);
	if (g.given_groups == NULL) {
		sf_error_set(&err, SF_ENOMEM, "out of memory");
		return cli_error(&err);
	}
	if (sf_groups_split(table, data, by, m->path, at, &groups, &err) !=
	    SF_OK) {
		if (at != NULL)
			sf_error_quote(&err, m->source, m->source_length);
		status = cli_error(&err);
		goto done;
	}
	g.groups = groups;
	for (size_t i = 0; i < ngiven && status == SF_EXIT_OK; i++)
		if (sf_groups_split(given[i].table != NULL ? given[i].table
		                                           : table,
		                    given[i].data, by, m->path, at,
		                    &g.given_groups[i], &err) != SF_OK)
			status = cli_error(&err);
	if (status == SF_EXIT_OK)
		status = cli_fleet(&a->data, m, &p, discover_group, &g, a->json,
		                   NULL, a->quiet);
done:
	for (size_t i = 0; i < ngiven; i++)
		sf_groups_free(g.given_groups[i]);
	free(g.given_groups);
	sf_groups_free(groups);
	return status;
}

/* The search's report on standard output: its JSON or its text. */
static int
print_report(const sf_model *m, const char *data_path,
             const sf_discover_result *r, const discover_args *a)
{
	json_t *json = NULL;
	char *text = NULL;
	sf_error err;
	int rc = SF_OK;

	sf_error_clear(&err);
	if (a->json && (json = sf_discover_report_json(m, data_path, r,
	                                               a->output)) != NULL)
		rc = sf_report_print_json(json, stdout, &err);
	else if (!a->json && (text = sf_discover_report_text(
	                          m, data_path, r, a->output)) != NULL)
		fputs(text, stdout);
	else
		rc = sf_error_set(&err, SF_ENOMEM, "out of memory");
	json_decref(json);
	free(text);
	return rc == SF_OK ? SF_EXIT_OK : cli_error(&err);
}

int
sf_command_discover(const sf_command *cmd, int argc, char **argv)
{
	sf_model_set *set = NULL;
	sf_table *table = NULL;
	sf_dataset *data = NULL;
	sf_problem *given = NULL;
	sf_discover_result *r = NULL;
	sf_fit_result *fit = NULL;
	size_t ngiven = 0;
	char *text = NULL, *path = NULL, *library_path = NULL;
	const char *data_path;
	const sf_model *m;
	discover_args a;
	sf_error err;
	sf_loss loss;
	int status;

	sf_error_clear(&err);
	if ((status = parse_args(cmd, argc, argv, &a)) != SF_EXIT_OK)
		return status;
	if (a.model_path[0] == SF_LIBRARY_PREFIX) {
		if (sf_library_path(cli_library_dir(), a.model_path + 1,
		                    &library_path, &err) != SF_OK)
			return cli_error(&err);
		a.model_path = library_path;
	}
	if (cli_load_models(a.model_path, SF_MODEL_FORMULA_OPTIONAL, &a.data,
	                    &set, a.quiet, &err) != SF_OK) {
		status = cli_error(&err);
		goto done;
	}
	m = set->models[0];
	data_path = a.data_path != NULL ? a.data_path : m->data_file;
	if (data_path == NULL) {
		sf_error_at(&err, SF_EUSAGE, m->path, 0, 0,
		            "no data: give DATA.csv on the command line or "
		            "data.file in the model");
		status = cli_error(&err);
		goto done;
	}
	/* Never clobber an input. */
	if (a.output != NULL && (same_file(a.output, a.model_path) ||
	                         same_file(a.output, data_path))) {
		status = cli_usage(cmd->name, NULL,
		                   "-o %s would overwrite an input; choose "
		                   "another file",
		                   a.output);
		goto done;
	}
	loss = a.options.fit.has_loss ? a.options.fit.loss : m->fit.loss;
	/* The winner's model file names its data, and its refit reads it. */
	if (strcmp(data_path, "-") == 0) {
		status =
		    cli_usage(cmd->name, NULL,
		              "discover writes a model that names its data "
		              "file: give DATA.csv, not standard input");
		goto done;
	}
	if (sf_table_load(data_path, NULL, &table, &err) != SF_OK ||
	    sf_dataset_bind(m, table, sf_loss_needs_positive(loss), &data,
	                    a.quiet ? NULL : cli_warning, NULL,
	                    &err) != SF_OK) {
		status = cli_error(&err);
		goto done;
	}
	/* The file's own formulas go on the board beside the found ones. */
	if ((given = calloc(set->count + 1, sizeof *given)) == NULL) {
		sf_error_set(&err, SF_ENOMEM, "out of memory");
		status = cli_error(&err);
		goto done;
	}
	for (size_t i = 0; i < set->count; i++) {
		const sf_model *g = set->models[i];
		if (g->time.text == NULL)
			continue;
		if (sf_problem_open_table(
		        g, table,
		        a.options.fit.has_loss ? a.options.fit.loss
		                               : g->fit.loss,
		        NULL, NULL, &given[ngiven], &err) != SF_OK) {
			status = cli_error(&err);
			goto done;
		}
		ngiven++;
	}
	if (a.data.run.by != NULL || m->by.text != NULL) {
		if (a.output != NULL || a.shapes) {
			status = cli_usage(cmd->name, NULL,
			                   "%s reports each group's board: it "
			                   "takes neither -o nor --shapes",
			                   a.data.run.by != NULL ? "--by"
			                                         : "data.by");
			goto done;
		}
		status = discover_fleet(&a, set, table, data, data_path, given,
		                        ngiven);
		goto done;
	}
	if (a.shapes) {
		char **shapes = NULL;
		size_t n = 0;

		if (sf_discover_shapes(m, &set->discover, data, &a.options,
		                       &shapes, &n, &err) != SF_OK) {
			status = cli_error(&err);
			goto done;
		}
		for (size_t i = 0; i < n; i++) {
			puts(shapes[i]);
			free(shapes[i]);
		}
		free(shapes);
		status = SF_EXIT_OK;
		goto done;
	}
	if (sf_discover_run(m, &set->discover, data, given, ngiven, &a.options,
	                    &r, &err) != SF_OK) {
		if (err.file[0] == '\0' && err.column > 0 &&
		    a.options.train != NULL)
			snprintf(err.file, sizeof err.file, "--train");
		status = cli_error(&err);
		goto done;
	}
	/* The winner's file: fitted through the pipeline, then written with
	 * those constants in its comments. */
	if ((path = output_path(&a, m)) == NULL ||
	    sf_discover_model_text(r, r->winner, m, path, data_path, &text,
	                           &err) != SF_OK ||
	    sf_discover_refit(r, r->winner, path, text, &a.options, &fit,
	                      &err) != SF_OK) {
		if (path == NULL)
			sf_error_set(&err, SF_ENOMEM, "out of memory");
		status = cli_error(&err);
		goto done;
	}
	free(text);
	text = NULL;
	if (sf_discover_model_text(r, r->winner, m, path, data_path, &text,
	                           &err) != SF_OK ||
	    (a.output != NULL &&
	     sf_write_atomic(a.output, text, strlen(text), "the model file",
	                     &err) != SF_OK)) {
		status = cli_error(&err);
		goto done;
	}
	status = print_report(m, data_path, r, &a);
done:
	free(text);
	free(path);
	sf_fit_result_free(fit);
	sf_discover_result_free(r);
	for (size_t i = 0; i < ngiven; i++)
		sf_problem_close(&given[i]);
	free(given);
	sf_dataset_free(data);
	sf_table_free(table);
	free(library_path);
	sf_model_set_free(set);
	return status;
}
