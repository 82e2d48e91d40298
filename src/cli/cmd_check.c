/*
 * cmd_check.c - `scalefit check MODEL.yaml [DATA.csv]`: validate a model
 * and its data without fitting, and show what scalefit understood.
 */
#define _GNU_SOURCE /* getopt_long */

#include "cli/cli.h"
#include "input/groups.h"
#include "base/number.h"

#include <getopt.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static void
print_range(const double *v, size_t n)
{
	double lo = INFINITY, hi = -INFINITY;

	for (size_t i = 0; i < n; i++) {
		lo = v[i] < lo ? v[i] : lo;
		hi = v[i] > hi ? v[i] : hi;
	}
	if (lo == hi)
		printf("always %g", lo);
	else
		printf("%g to %g", lo, hi);
}

static size_t
name_width(const sf_model *m)
{
	size_t w = 4;

	for (size_t i = 0; i < m->ninputs; i++)
		w = strlen(m->inputs[i].name) > w ? strlen(m->inputs[i].name)
		                                  : w;
	for (size_t i = 0; i < m->nparams; i++)
		w = strlen(m->params[i].name) > w ? strlen(m->params[i].name)
		                                  : w;
	for (size_t i = 0; i < m->nterms; i++)
		w = strlen(m->terms[i].name) > w ? strlen(m->terms[i].name) : w;
	return w;
}

static void
print_data(const sf_problem *p)
{
	const sf_dataset *d = p->data;
	size_t repeated, most;
	double cv;

	printf("data:  %s\n", d->file);
	printf("       %zu rows in the file", d->table_rows);
	if (p->model->where.text != NULL)
		printf(", %zu left out by where: %s", d->filtered_out,
		       p->model->where.text);
	if (d->skipped > 0)
		printf(", %zu skipped as unusable", d->skipped);
	printf("; %zu rows to fit\n", d->rows);
	sf_dataset_repetitions(d, &repeated, &most, &cv);
	printf("       %zu configurations", d->nconfigs);
	if (repeated > 0)
		printf(", %zu repeated (up to %zu times; median coefficient "
		       "of variation %.2g%%)",
		       repeated, most, 100 * cv);
	else
		printf(", none repeated");
	printf("\n       output: %s, ", sf_model_output(p->model));
	print_range(d->output, d->rows);
	printf("\n");
}

static void
print_model(const sf_problem *p)
{
	const sf_model *m = p->model;
	const sf_dataset *d = p->data;
	int w = (int)name_width(m);
	/* classic DE's strategy; the adaptive algorithms have none */
	int strategy = !sf_de_method_get(m->fit.algorithm)->adaptive;
	char *text;

	printf("model: %s (%s)\n", m->name, m->path);
	if (m->description[0] != '\0')
		printf("       %s\n", m->description);
	print_data(p);
	printf("\ninputs:\n");
	for (size_t i = 0; i < m->ninputs; i++) {
		printf("  %-*s = %-20s ", w, m->inputs[i].name,
		       m->inputs[i].expr.text);
		if (d->inputs[i].levels != NULL)
			printf("text, %zu values", d->inputs[i].nlevels);
		else
			print_range(d->inputs[i].values, d->rows);
		printf("\n");
	}
	printf("\nparameters: %zu fitted, %zu fixed\n", p->formula->nparams,
	       m->nparams - p->formula->nparams);
	for (size_t i = 0; i < m->nparams; i++) {
		const sf_model_param *q = &m->params[i];
		char a[32], b[32];

		if (q->fixed) {
			printf("  %-*s = %s (fixed)\n", w, q->name,
			       sf_format_double(a, sizeof a, q->value));
			continue;
		}
		printf("  %-*s in [%s, %s]", w, q->name,
		       sf_format_double(a, sizeof a, q->min),
		       sf_format_double(b, sizeof b, q->max));
		if (q->has_init)
			printf(", starting at %s",
			       sf_format_double(a, sizeof a, q->init));
		printf("\n");
	}
	if (m->nterms > 0)
		printf("\nterms:\n");
	for (size_t k = 0; k < m->nterms; k++) {
		text = sf_formula_canonical_term(p->formula, m, k);
		printf("  %-*s = %s   [%s]\n", w, m->terms[k].name,
		       text != NULL ? text : m->terms[k].expr.text,
		       sf_term_kind_name(m->terms[k].kind));
		free(text);
	}
	text = sf_formula_canonical_time(p->formula, m);
	printf("\ntime = %s\n", text != NULL ? text : m->time.text);
	free(text);
	printf("\nfit:   loss %s, regularization %s", sf_loss_name(m->fit.loss),
	       sf_penalty_name(m->fit.penalty));
	if (m->fit.penalty != SF_PENALTY_NONE) {
		if (m->fit.lambda_auto)
			printf(" (lambda auto)");
		else
			printf(" (lambda %g)", m->fit.lambda);
	}
	printf(", optimizer %s%s%s\n", sf_de_algorithm_name(m->fit.algorithm),
	       strategy ? " " : "", strategy ? m->fit.strategy : "");
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
	const char *model_path, *data_path = NULL;
	cli_data data = {0};
	sf_table *in = NULL; /* DATA.csv "-": standard input */
	sf_model_set *set = NULL;
	sf_error err;
	int quiet = 0, c, status = SF_EXIT_OK;

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
		data_path = argv[optind + 1];
	if (cli_load_data_models(model_path, &data, &set, quiet, &err) != SF_OK)
		return cli_error(&err);
	if (cli_stdin_table(data_path, &in, &err) != SF_OK) {
		sf_model_set_free(set);
		return cli_error(&err);
	}
	for (size_t i = 0; i < set->count && status == SF_EXIT_OK; i++) {
		sf_problem p;

		if (cli_problem_open(set->models[i], data_path, in,
		                     set->models[i]->fit.loss, quiet,
		                     set->count > 1, &p, &err) != SF_OK) {
			status = cli_error(&err);
			break;
		}
		if (i > 0)
			printf("\n");
		print_model(&p);
		/* data.by: its columns exist, as fit would require. */
		if (set->models[i]->by.text != NULL) {
			const sf_model *m = set->models[i];
			sf_groups *g = NULL;

			if (sf_groups_split(p.table, p.data, m->by.text,
			                    m->path, &m->by, &g,
			                    &err) != SF_OK) {
				sf_error_quote(&err, m->source,
				               m->source_length);
				status = cli_error(&err);
			} else {
				printf("by:    %s: %zu groups\n", m->by.text,
				       g->count);
			}
			sf_groups_free(g);
		}
		sf_problem_close(&p);
	}
	if (status == SF_EXIT_OK)
		printf("\nok: %zu model%s ready to fit\n", set->count,
		       set->count == 1 ? "" : "s");
	sf_table_free(in);
	sf_model_set_free(set);
	return status;
}
