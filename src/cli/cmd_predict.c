/*
 * cmd_predict.c - `scalefit predict FIT.json --at p=64,n=0.1 | --grid
 * FILE.csv`: the fitted formula's time at new points, with its 95% band
 * and each term's part, and a warning for every extrapolation.
 */
#define _GNU_SOURCE /* getopt_long */

#include "base/suggest.h"
#include "use/assign.h"
#include "use/average.h"
#include "cli/cli.h"
#include "input/csv.h"
#include "use/fitfile.h"
#include "use/predict.h"
#include "use/report.h"
#include "use/text.h"

#include <getopt.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

typedef struct predict_args {
	const char *fit_path, *grid_path;
	char **fit_paths; /* all of them: more than one to average */
	size_t nfits;
	sf_average_weights weights;
	const char **at; /* the --at texts */
	size_t nat;
	const char *unit; /* --unit: one of sf_model_units, or NULL */
	int json, quiet;
	const char *group; /* --group: which groups of a --by fit file */
} predict_args;

static int
parse_args(const sf_command *cmd, int argc, char **argv, predict_args *a)
{
	static const struct option options[] = {
	    {"at", required_argument, NULL, 'a'},
	    {"grid", required_argument, NULL, 'g'},
	    {"json", no_argument, NULL, 'j'},
	    {"weights", required_argument, NULL, 'w'},
	    {"group", required_argument, NULL, 'G'},
	    {"unit", required_argument, NULL, 'u'},
	    {"quiet", no_argument, NULL, 'q'},
	    {"help", no_argument, NULL, 'h'},
	    {NULL, 0, NULL, 0},
	};
	int c, weights_given = 0;

	while ((c = getopt_long(argc, argv, "a:qh", options, NULL)) != -1) {
		switch (c) {
		case 'a':
			a->at[a->nat++] = optarg;
			break;
		case 'g':
			if (a->grid_path != NULL)
				return cli_usage(cmd->name, NULL,
				                 "--grid is given twice");
			a->grid_path = optarg;
			break;
		case 'j':
			a->json = 1;
			break;
		case 'w':
			if (strcmp(optarg, "aicc") == 0)
				a->weights = SF_AVERAGE_AICC;
			else if (strcmp(optarg, "equal") == 0)
				a->weights = SF_AVERAGE_EQUAL;
			else
				return cli_usage(
				    cmd->name, NULL,
				    "--weights is aicc or equal, not "
				    "'%s'",
				    optarg);
			weights_given = 1;
			break;
		case 'G':
			a->group = optarg;
			break;
		case 'u':
			a->unit = NULL;
			for (size_t k = 0; k < SF_MODEL_UNITS; k++)
				if (strcmp(optarg, sf_model_units[k]) == 0)
					a->unit = sf_model_units[k];
			if (a->unit == NULL)
				return cli_usage(
				    cmd->name,
				    sf_suggest_nearest(optarg, sf_model_units,
				                       SF_MODEL_UNITS),
				    "unknown --unit '%s' (s, ms, min or h)",
				    optarg);
			break;
		case 'q':
			a->quiet = 1;
			break;
		case 'h':
			cli_help_exit(cmd);
		default:
			return cli_bad_option(cmd->name, argc, argv, optopt,
			                      options);
		}
	}
	if (argc - optind < 1)
		return cli_usage(cmd->name, NULL,
		                 "predict needs a fit file (FIT.json, from "
		                 "'scalefit fit -o FIT.json')");
	if (a->group != NULL && argc - optind > 1)
		return cli_usage(cmd->name, NULL,
		                 "--group goes with one fit file, not an "
		                 "average of several");
	if (weights_given && argc - optind < 2)
		return cli_usage(cmd->name, NULL,
		                 "--weights goes with two or more fit files");
	if (a->nat == 0 && a->grid_path == NULL)
		return cli_usage(cmd->name, NULL,
		                 "say where to predict: --at NAME=VALUE,... "
		                 "or --grid FILE.csv");
	a->fit_path = argv[optind];
	a->fit_paths = argv + optind;
	a->nfits = (size_t)(argc - optind);
	return SF_EXIT_OK;
}

/* The points of every --at, then of the grid, as one column per input. */
static int
gather_points(const sf_command *cmd, const sf_fitfile *f, const predict_args *a,
              double ***columns, size_t *n)
{
	size_t ni = f->ninputs, rows = 0;
	double **grid = NULL, **out = calloc(ni + 1, sizeof *out);
	double *values = calloc(ni + 1, sizeof *values);
	unsigned char *given = calloc(ni + 1, 1);
	sf_table *table = NULL;
	sf_error err;
	int status = SF_EXIT_INTERNAL;

	sf_error_clear(&err);
	if (out == NULL || values == NULL || given == NULL)
		goto nomem;
	if (a->grid_path != NULL) {
		if (sf_table_load(a->grid_path, NULL, &table, &err) != SF_OK ||
		    sf_assign_table(f, table, &grid, &err) != SF_OK) {
			status = cli_error(&err);
			goto done;
		}
		rows = sf_table_rows(table);
	}
	for (size_t i = 0; i < ni; i++)
		if ((out[i] = malloc((a->nat + rows + 1) * sizeof *out[i])) ==
		    NULL)
			goto nomem;
	for (size_t k = 0; k < a->nat; k++) {
		memset(given, 0, ni);
		if (sf_assign_parse(f, a->at[k], values, given, &err) !=
		    SF_OK) {
			if (err.code == SF_ENOMEM)
				goto nomem;
			status = cli_usage(cmd->name, NULL, "--at '%s': %s",
			                   a->at[k], err.message);
			goto done;
		}
		for (size_t i = 0; i < ni; i++) {
			if (!given[i]) {
				status = cli_usage(
				    cmd->name, NULL,
				    "--at '%s': no value for input %s "
				    "(every input needs one)",
				    a->at[k], f->inputs[i].name);
				goto done;
			}
			out[i][k] = values[i];
		}
	}
	for (size_t i = 0; i < ni && grid != NULL; i++)
		memcpy(&out[i][a->nat], grid[i], rows * sizeof *grid[i]);
	*columns = out;
	*n = a->nat + rows;
	out = NULL;
	status = SF_EXIT_OK;
	goto done;
nomem:
	sf_error_set(&err, SF_ENOMEM, "out of memory");
	status = cli_error(&err);
done:
	sf_assign_columns_free(out, ni);
	sf_assign_columns_free(grid, ni);
	sf_table_free(table);
	free(values);
	free(given);
	return status;
}

static void
print_text(const sf_fitfile *f, const sf_prediction *p, const char *unit)
{
	int boot = p->bootstrap;
	char cell[96], head[160];

	printf("%s: predicted %s at %zu point%s", f->name[0] ? f->name : "fit",
	       f->output, p->n, p->n == 1 ? "" : "s");
	if (isfinite(p->t))
		printf("; 95%% confidence band by the delta method (t = %.4g, "
		       "%g degrees of freedom)",
		       p->t, f->dof);
	else
		printf("; no delta-method band (the fit has no covariance or "
		       "no degrees of freedom)");
	if (boot)
		printf(" and by the bootstrap (%zu replicates)", p->boot_used);
	printf("\n");
	if (p->interval) {
		sf_text_noise(f, cell, sizeof cell);
		printf("95%% interval for a new run: noise %s%s\n", cell,
		       p->growth_unknown ? "; model error beyond the fitted "
		                           "range not estimated"
		                         : "");
	} else
		printf("no interval for a new run: the fit file has no "
		       "prediction_interval (refit with this version)\n");
	printf("\n");
	for (size_t i = 0; i < f->ninputs; i++)
		printf("%*s  ", sf_text_width(f->inputs[i].name, 8),
		       f->inputs[i].name);
	/* --unit, else the model's data.unit, in the header. */
	sf_text_time_header(f, unit != NULL ? unit : f->unit, head,
	                    sizeof head);
	printf("%*s  ", sf_text_width(head, 12), head);
	if (p->interval)
		printf("%-28s", "95% new run");
	printf("%-28s", "95% band (mean)");
	if (boot)
		printf("%-28s", "bootstrap band");
	for (size_t j = 0; j < f->nterms; j++)
		printf("  %*s", sf_text_width(f->terms[j].name, 10),
		       f->terms[j].name);
	printf("\n");
	for (size_t k = 0; k < p->n; k++) {
		for (size_t i = 0; i < f->ninputs; i++) {
			sf_text_input(f, i, p->inputs[i * p->n + k], cell,
			              sizeof cell);
			printf("%*s  ", sf_text_width(f->inputs[i].name, 8),
			       cell);
		}
		printf("%*.6g  ", sf_text_width(head, 12), p->points[k].time);
		if (p->interval) {
			sf_text_band(p->points[k].pi, 6, cell, sizeof cell);
			printf("%-28s", cell);
		}
		sf_text_band(p->points[k].ci, 6, cell, sizeof cell);
		printf("%-28s", cell);
		if (boot) {
			sf_text_band(p->points[k].boot, 6, cell, sizeof cell);
			printf("%-28s", cell);
		}
		for (size_t j = 0; j < f->nterms; j++)
			printf("  %*.6g", sf_text_width(f->terms[j].name, 10),
			       p->terms[j * p->n + k]);
		printf("%s\n", sf_prediction_outside(p, k) ? "  *" : "");
	}
	for (size_t k = 0; k < p->n; k++)
		if (sf_prediction_outside(p, k)) {
			printf("\n* outside the inputs' fitted ranges: an "
			       "extrapolation\n");
			break;
		}
}

static void
print_average(const sf_fitfile *const *fits, const predict_args *a,
              const sf_average *avg)
{
	const sf_fitfile *f = fits[0];
	char cell[96], head[160];

	printf("%s averaged over %zu fits (%s weights):", f->output, a->nfits,
	       a->weights == SF_AVERAGE_AICC ? "Akaike" : "equal");
	for (size_t i = 0; i < a->nfits; i++)
		printf("%s %s %.3f", i ? "," : "",
		       fits[i]->name[0] ? fits[i]->name : fits[i]->path,
		       avg->weight[i]);
	printf("\n95%% interval for a new run: the mixture of each fit's\n\n");
	for (size_t i = 0; i < f->ninputs; i++)
		printf("%*s  ", sf_text_width(f->inputs[i].name, 8),
		       f->inputs[i].name);
	sf_text_time_header(f, a->unit != NULL ? a->unit : f->unit, head,
	                    sizeof head);
	printf("%*s  %-28s", sf_text_width(head, 12), head, "95% new run");
	for (size_t i = 0; i < a->nfits; i++)
		printf("  %*s", sf_text_width(fits[i]->name, 12),
		       fits[i]->name);
	printf("\n");
	for (size_t k = 0; k < avg->n; k++) {
		int outside = 0;

		for (size_t i = 0; i < f->ninputs; i++) {
			sf_text_input(f, i,
			              avg->each[0]->inputs[i * avg->n + k],
			              cell, sizeof cell);
			printf("%*s  ", sf_text_width(f->inputs[i].name, 8),
			       cell);
		}
		printf("%*.6g  ", sf_text_width(head, 12), avg->time[k]);
		sf_text_band(avg->interval[k], 6, cell, sizeof cell);
		printf("%-28s", cell);
		for (size_t i = 0; i < a->nfits; i++) {
			printf("  %*.6g", sf_text_width(fits[i]->name, 12),
			       avg->each[i]->points[k].time);
			outside |= sf_prediction_outside(avg->each[i], k);
		}
		printf("%s\n", outside ? "  *" : "");
	}
}

/* predict over several fits: their average (use/average.h). */
static int
predict_average(const sf_command *cmd, predict_args *a)
{
	sf_fitfile **fits = calloc(a->nfits, sizeof *fits);
	sf_average *avg = NULL;
	double **columns = NULL;
	json_t *json = NULL;
	size_t n = 0;
	sf_error err;
	int status;

	sf_error_clear(&err);
	if (fits == NULL) {
		sf_error_set(&err, SF_ENOMEM, "out of memory");
		return cli_error(&err);
	}
	for (size_t i = 0; i < a->nfits; i++)
		if (sf_fitfile_load_flags(a->fit_paths[i],
		                          SF_FITFILE_NO_MEASURED, &fits[i],
		                          &err) != SF_OK) {
			status = cli_error(&err);
			goto done;
		}
	if (sf_average_check((const sf_fitfile *const *)fits, a->nfits, &err) !=
	    SF_OK) {
		status = cli_usage(cmd->name, NULL, "%s", err.message);
		goto done;
	}
	if ((status = gather_points(cmd, fits[0], a, &columns, &n)) !=
	    SF_EXIT_OK)
		goto done;
	if (sf_average_run((const sf_fitfile *const *)fits, a->nfits,
	                   a->weights, (const double *const *)columns, n, &avg,
	                   &err) != SF_OK) {
		status = err.code == SF_EVALUE
		             ? cli_usage(cmd->name, NULL, "%s", err.message)
		             : cli_error(&err);
		goto done;
	}
	if (!a->quiet)
		for (size_t i = 0; i < a->nfits; i++)
			sf_prediction_warn(fits[i], avg->each[i], cli_warning,
			                   NULL);
	if (a->json) {
		if ((json = sf_average_json((const sf_fitfile *const *)fits,
		                            avg)) == NULL) {
			sf_error_set(&err, SF_ENOMEM, "out of memory");
			status = cli_error(&err);
			goto done;
		}
		if (sf_report_print_json(json, stdout, &err) != SF_OK) {
			status = cli_error(&err);
			goto done;
		}
	} else {
		print_average((const sf_fitfile *const *)fits, a, avg);
	}
	status = SF_EXIT_OK;
done:
	json_decref(json);
	sf_average_free(avg);
	if (columns != NULL)
		sf_assign_columns_free(columns, fits[0]->ninputs);
	for (size_t i = 0; i < a->nfits; i++)
		sf_fitfile_free(fits[i]);
	free(fits);
	return status;
}

/* Predict with fit f: its JSON in *json when a->json, else its text on
 * stdout. */
static int
predict_one(const sf_command *cmd, const predict_args *a, const sf_fitfile *f,
            json_t **json)
{
	sf_prediction *p = NULL;
	double **columns = NULL;
	size_t n = 0;
	sf_error err;
	int status;

	sf_error_clear(&err);
	*json = NULL;
	cli_fitfile_version(f->path, f);
	if ((status = gather_points(cmd, f, a, &columns, &n)) != SF_EXIT_OK)
		goto done;
	if (sf_predict(f, (const double *const *)columns, n, &p, &err) !=
	    SF_OK) {
		status = cli_error(&err);
		goto done;
	}
	if (!a->quiet)
		sf_prediction_warn(f, p, cli_warning, NULL);
	if (a->json) {
		if ((*json = sf_prediction_json(f, p)) == NULL) {
			sf_error_set(&err, SF_ENOMEM, "out of memory");
			status = cli_error(&err);
			goto done;
		}
	} else {
		print_text(f, p, a->unit);
	}
	status = SF_EXIT_OK;
done:
	sf_prediction_free(p);
	sf_assign_columns_free(columns, f->ninputs);
	return status;
}

int
sf_command_predict(const sf_command *cmd, int argc, char **argv)
{
	predict_args a = {0};
	sf_fitfile_set *set = NULL;
	json_t *json = NULL, *groups = NULL;
	sf_error err;
	int status;

	sf_error_clear(&err);
	if ((a.at = calloc((size_t)argc + 1, sizeof *a.at)) == NULL) {
		sf_error_set(&err, SF_ENOMEM, "out of memory");
		return cli_error(&err);
	}
	if ((status = parse_args(cmd, argc, argv, &a)) != SF_EXIT_OK)
		goto done;
	if (a.nfits > 1) {
		status = predict_average(cmd, &a);
		goto done;
	}
	if (sf_fitfile_load_groups_flags(a.fit_path, a.group,
	                                 SF_FITFILE_NO_MEASURED, &set,
	                                 &err) != SF_OK) {
		status = cli_error(&err);
		goto done;
	}
	/* A groups file answers for each group it selects; one group
	 * chosen with --group answers as a plain fit file does. */
	if (!set->grouped || (a.group != NULL && set->count == 1)) {
		status = predict_one(cmd, &a, set->fits[0], &json);
		if (status == SF_EXIT_OK && a.json &&
		    sf_report_print_json(json, stdout, &err) != SF_OK)
			status = cli_error(&err);
		goto done;
	}
	if (a.json && (groups = json_array()) == NULL) {
		sf_error_set(&err, SF_ENOMEM, "out of memory");
		status = cli_error(&err);
		goto done;
	}
	for (size_t i = 0; i < set->count; i++) {
		json_t *one = NULL;

		if (!a.json)
			printf("%s== group %s ==\n", i > 0 ? "\n" : "",
			       set->labels[i]);
		if ((status = predict_one(cmd, &a, set->fits[i], &one)) !=
		    SF_EXIT_OK)
			goto done;
		if (a.json) {
			json_t *g = json_pack("{s:O, s:s}", "key",
			                      json_array_get(set->keys, i),
			                      "label", set->labels[i]);
			if (g == NULL || json_object_update(g, one) != 0 ||
			    json_array_append_new(groups, g) != 0) {
				json_decref(one);
				sf_error_set(&err, SF_ENOMEM, "out of memory");
				status = cli_error(&err);
				goto done;
			}
			json_decref(one);
		}
	}
	if (a.json) {
		json = json_pack("{s:O}", "groups", groups);
		if (json == NULL) {
			sf_error_set(&err, SF_ENOMEM, "out of memory");
			status = cli_error(&err);
			goto done;
		}
		if (sf_report_print_json(json, stdout, &err) != SF_OK) {
			status = cli_error(&err);
			goto done;
		}
	}
	status = SF_EXIT_OK;
done:
	json_decref(json);
	json_decref(groups);
	sf_fitfile_set_free(set);
	free(a.at);
	return status;
}
