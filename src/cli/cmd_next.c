/*
 * cmd_next.c - `scalefit next FIT.json --target p=64,... --over p=1:32 |
 * --candidates FILE.csv [--budget COST] [--runs K]`: which run to measure
 * next so that the prediction interval at the target narrows most
 * (use/design.h does the work).
 */
#define _GNU_SOURCE /* getopt_long */

#include "base/number.h"
#include "cli/cli.h"
#include "input/csv.h"
#include "use/assign.h"
#include "use/design.h"
#include "use/fitfile.h"
#include "use/report.h"
#include "use/scale.h"
#include "use/sweep.h"
#include "use/text.h"

#include <getopt.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

typedef struct next_args {
	const char *fit_path, *target, *over, *candidates;
	const char **set;
	size_t nset, runs, top;
	double budget;
	int json, quiet;
} next_args;

static int
parse_args(const sf_command *cmd, int argc, char **argv, next_args *a)
{
	static const struct option options[] = {
	    {"target", required_argument, NULL, 't'},
	    {"over", required_argument, NULL, 'o'},
	    {"set", required_argument, NULL, 's'},
	    {"candidates", required_argument, NULL, 'c'},
	    {"budget", required_argument, NULL, 'b'},
	    {"runs", required_argument, NULL, 'r'},
	    {"top", required_argument, NULL, 'n'},
	    {"json", no_argument, NULL, 'j'},
	    {"quiet", no_argument, NULL, 'q'},
	    {"help", no_argument, NULL, 'h'},
	    {NULL, 0, NULL, 0},
	};
	int c;

	a->budget = INFINITY;
	a->top = 10;
	while ((c = getopt_long(argc, argv, "qh", options, NULL)) != -1) {
		switch (c) {
		case 't':
			if (a->target != NULL)
				return cli_usage(cmd->name, NULL,
				                 "--target is given twice");
			a->target = optarg;
			break;
		case 'o':
			if (a->over != NULL)
				return cli_usage(cmd->name, NULL,
				                 "--over is given twice");
			a->over = optarg;
			break;
		case 's':
			a->set[a->nset++] = optarg;
			break;
		case 'c':
			if (a->candidates != NULL)
				return cli_usage(cmd->name, NULL,
				                 "--candidates is given twice");
			a->candidates = optarg;
			break;
		case 'b':
			if (sf_parse_double(optarg, &a->budget) != SF_OK ||
			    !(a->budget > 0))
				return cli_usage(
				    cmd->name, NULL,
				    "--budget needs a cost > 0 (the "
				    "output's unit times workers), "
				    "not '%s'",
				    optarg);
			break;
		case 'r':
			if (cli_count(cmd->name, "runs", optarg, 1, 1000,
			              &a->runs) != SF_EXIT_OK)
				return SF_EXIT_USAGE;
			break;
		case 'n':
			if (cli_count(cmd->name, "top", optarg, 1, 1000000,
			              &a->top) != SF_EXIT_OK)
				return SF_EXIT_USAGE;
			break;
		case 'j':
			a->json = 1;
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
		                 "next needs a fit file (FIT.json, from "
		                 "'scalefit fit -o FIT.json')");
	if (argc - optind > 1)
		return cli_usage(cmd->name, NULL, "unexpected argument '%s'",
		                 argv[optind + 1]);
	if (a->target == NULL)
		return cli_usage(cmd->name, NULL,
		                 "say where the answer matters: --target "
		                 "NAME=VALUE,...");
	if ((a->over == NULL) == (a->candidates == NULL))
		return cli_usage(
		    cmd->name, NULL,
		    "give the runs to choose from: --over "
		    "NAME=LO:HI (or NAME=V1,V2,...) or --candidates "
		    "FILE.csv, one of them");
	if (a->nset > 0 && a->over == NULL)
		return cli_usage(cmd->name, NULL, "--set goes with --over");
	if (a->runs == 0)
		a->runs = isfinite(a->budget) ? 1000 : 1;
	a->fit_path = argv[optind];
	return SF_EXIT_OK;
}

/* Every input given: "--target 'p=64': no value for input b". */
static int
need_all(const sf_command *cmd, const sf_fitfile *f, const char *option,
         const char *text, const unsigned char *given)
{
	for (size_t i = 0; i < f->ninputs; i++)
		if (!given[i])
			return cli_usage(
			    cmd->name, NULL,
			    "%s '%s': no value for input %s (every "
			    "input needs one)",
			    option, text, f->inputs[i].name);
	return SF_EXIT_OK;
}

/*
 * The candidates of --over NAME=LO:HI (doublings from LO, whole for the
 * worker input) or NAME=V1,V2,...: the other inputs at the target's values
 * unless --set says otherwise.
 */
static int
over_candidates(const sf_command *cmd, const sf_fitfile *f, const next_args *a,
                const double *target, double ***columns, size_t *n)
{
	const size_t J = f->ninputs;
	char name[128];
	const char *eq = strchr(a->over, '='), *spec;
	double *values = NULL, *fixed = malloc((J + 1) * sizeof *fixed);
	unsigned char *given = calloc(J + 1, 1);
	size_t var, count = 0;
	sf_error err;
	int status = SF_EXIT_USAGE;

	sf_error_clear(&err);
	*columns = NULL;
	if (fixed == NULL || given == NULL)
		goto nomem;
	if (eq == NULL || eq == a->over ||
	    (size_t)(eq - a->over) >= sizeof name) {
		status = cli_usage(cmd->name, NULL,
		                   "--over '%s': write NAME=LO:HI or "
		                   "NAME=V1,V2,...",
		                   a->over);
		goto done;
	}
	memcpy(name, a->over, (size_t)(eq - a->over));
	name[eq - a->over] = '\0';
	spec = eq + 1;
	if ((var = sf_assign_input(f, name, &err)) == SF_FITFILE_NONE) {
		status = cli_usage(cmd->name, NULL, "--over: %s", err.message);
		goto done;
	}
	if (f->inputs[var].levels != NULL) {
		status = cli_usage(cmd->name, NULL,
		                   "--over: %s is a text input; list its "
		                   "candidates in --candidates FILE.csv",
		                   name);
		goto done;
	}
	memcpy(fixed, target, J * sizeof *fixed);
	for (size_t s = 0; s < a->nset; s++)
		if (sf_assign_parse(f, a->set[s], fixed, given, &err) !=
		    SF_OK) {
			status = cli_usage(cmd->name, NULL, "--set '%s': %s",
			                   a->set[s], err.message);
			goto done;
		}
	if (strchr(spec, ':') != NULL) {
		/* the ends read as every input's value is (assign.h) */
		char ends[128], *colon;
		double lo = NAN, hi = NAN;
		int whole = var == sf_scale_worker_input(f);

		snprintf(ends, sizeof ends, "%s", spec);
		colon = strchr(ends, ':');
		if (colon != NULL)
			*colon = '\0';
		if (strlen(spec) >= sizeof ends || colon == NULL ||
		    sf_assign_value(f, var, ends, &lo, &err) != SF_OK ||
		    sf_assign_value(f, var, colon + 1, &hi, &err) != SF_OK ||
		    lo > hi ||
		    (whole && (lo < 1 || lo != floor(lo) || hi != floor(hi)))) {
			status = cli_usage(
			    cmd->name, NULL,
			    "--over '%s': LO:HI needs numbers LO <= HI%s",
			    a->over,
			    whole ? ", whole and >= 1 for workers" : "");
			goto done;
		}
		if (sf_sweep_values(lo, hi, whole, lo > 0, 0, &values, &count,
		                    &err) != SF_OK) {
			status = cli_usage(cmd->name, NULL, "--over '%s': %s",
			                   a->over, err.message);
			goto done;
		}
	} else {
		const char *p = spec;

		values = malloc((strlen(spec) / 2 + 2) * sizeof *values);
		if (values == NULL)
			goto nomem;
		while (*p != '\0') {
			size_t len = strcspn(p, ",");
			char item[64];

			if (len == 0 || len >= sizeof item) {
				status = cli_usage(cmd->name, NULL,
				                   "--over '%s': an empty or "
				                   "overlong value",
				                   a->over);
				goto done;
			}
			memcpy(item, p, len);
			item[len] = '\0';
			if (sf_assign_value(f, var, item, &values[count],
			                    &err) != SF_OK) {
				status = cli_usage(cmd->name, NULL,
				                   "--over '%s': %s", a->over,
				                   err.message);
				goto done;
			}
			count++;
			p += len + (p[len] == ',');
		}
	}
	if ((*columns = calloc(J + 1, sizeof **columns)) == NULL)
		goto nomem;
	for (size_t i = 0; i < J; i++) {
		if (((*columns)[i] = malloc((count + 1) * sizeof ***columns)) ==
		    NULL)
			goto nomem;
		for (size_t k = 0; k < count; k++)
			(*columns)[i][k] = i == var ? values[k] : fixed[i];
	}
	*n = count;
	status = SF_EXIT_OK;
	goto done;
nomem:
	sf_error_set(&err, SF_ENOMEM, "out of memory");
	status = cli_error(&err);
done:
	if (status != SF_EXIT_OK && *columns != NULL) {
		sf_assign_columns_free(*columns, J);
		*columns = NULL;
	}
	free(values);
	free(fixed);
	free(given);
	return status;
}

static void
print_text(const sf_fitfile *f, const next_args *a, const double *target,
           const sf_next *x)
{
	const char *unit = f->output;
	char cell[96];

	printf("next run for %s: which measurement narrows the 95%% interval "
	       "of a new run at ",
	       f->name[0] ? f->name : "the fit");
	for (size_t i = 0; i < f->ninputs; i++) {
		sf_text_input(f, i, target[i], cell, sizeof cell);
		printf("%s%s = %s", i ? ", " : "", f->inputs[i].name, cell);
	}
	printf("\n  today: %.5g %s, 95%% in [%.5g, %.5g] (+-%.3g%%), %.3g "
	       "doublings beyond the fitted range\n",
	       x->target_time, f->output, x->now.lo, x->now.hi,
	       x->now.halfwidth_pct, x->now.distance);
	printf("  cost of a run: predicted %s%s\n\n", unit,
	       x->workers != SF_FITFILE_NONE ? " x workers" : "");
	printf("  %4s", "rank");
	for (size_t i = 0; i < f->ninputs; i++)
		printf("  %*s", sf_text_width(f->inputs[i].name, 8),
		       f->inputs[i].name);
	printf("  %10s  %10s  %-22s %8s %7s\n", "time", "cost",
	       "95% at target after", "+-", "D-gain");
	for (size_t r = 0; r < x->n && r < a->top; r++) {
		size_t k = x->rank[r];
		const sf_design_gain *g = &x->gains[k];

		printf("  %4zu", r + 1);
		for (size_t i = 0; i < f->ninputs; i++) {
			sf_text_input(f, i, x->inputs[i * x->n + k], cell,
			              sizeof cell);
			printf("  %*s", sf_text_width(f->inputs[i].name, 8),
			       cell);
		}
		snprintf(cell, sizeof cell, "[%.5g, %.5g]", g->lo, g->hi);
		printf("  %10.5g  %10.4g  %-22s %7.3g%% %7.3f\n", x->time[k],
		       x->cost[k], cell, g->halfwidth_pct, g->d_gain);
	}
	if (x->n > a->top)
		printf("  ... %zu more candidates (--top N shows more)\n",
		       x->n - a->top);
	if (a->runs > 1 || isfinite(a->budget)) {
		double spent = 0;

		printf("\n  plan");
		if (isfinite(a->budget))
			printf(" within a budget of %g", a->budget);
		printf(": the most narrowing per cost first\n");
		if (x->nplan == 0)
			printf("    nothing: no candidate costs %g or less\n",
			       a->budget);
		for (size_t r = 0; r < x->nplan; r++) {
			size_t k = x->plan[r];

			spent += x->cost[k];
			printf("    %zu. ", r + 1);
			for (size_t i = 0; i < f->ninputs; i++) {
				sf_text_input(f, i, x->inputs[i * x->n + k],
				              cell, sizeof cell);
				printf("%s%s = %s", i ? ", " : "",
				       f->inputs[i].name, cell);
			}
			printf("  (cost %.4g, total %.4g): then +-%.3g%%\n",
			       x->cost[k], spent, x->after[r].halfwidth_pct);
		}
	}
}

int
sf_command_next(const sf_command *cmd, int argc, char **argv)
{
	next_args a;
	sf_fitfile *f = NULL;
	sf_table *table = NULL;
	sf_next *x = NULL;
	double **columns = NULL, *target = NULL;
	unsigned char *given = NULL;
	json_t *json = NULL;
	size_t n = 0;
	sf_error err;
	int status;

	memset(&a, 0, sizeof a);
	sf_error_clear(&err);
	if ((a.set = calloc((size_t)argc + 1, sizeof *a.set)) == NULL) {
		sf_error_set(&err, SF_ENOMEM, "out of memory");
		return cli_error(&err);
	}
	if ((status = parse_args(cmd, argc, argv, &a)) != SF_EXIT_OK)
		goto done;
	if (sf_fitfile_load(a.fit_path, &f, &err) != SF_OK) {
		status = cli_error(&err);
		goto done;
	}
	cli_fitfile_version(a.fit_path, f);
	target = calloc(f->ninputs + 1, sizeof *target);
	given = calloc(f->ninputs + 1, 1);
	if (target == NULL || given == NULL) {
		sf_error_set(&err, SF_ENOMEM, "out of memory");
		status = cli_error(&err);
		goto done;
	}
	if (sf_assign_parse(f, a.target, target, given, &err) != SF_OK) {
		status = cli_usage(cmd->name, NULL, "--target '%s': %s",
		                   a.target, err.message);
		goto done;
	}
	if ((status = need_all(cmd, f, "--target", a.target, given)) !=
	    SF_EXIT_OK)
		goto done;
	if (a.over != NULL)
		status = over_candidates(cmd, f, &a, target, &columns, &n);
	else if (sf_table_load(a.candidates, NULL, &table, &err) != SF_OK ||
	         sf_assign_table(f, table, &columns, &err) != SF_OK)
		status = cli_error(&err);
	else
		n = sf_table_rows(table);
	if (status != SF_EXIT_OK)
		goto done;
	if (sf_next_run(f, target, (const double *const *)columns, n, a.budget,
	                a.runs, &x, &err) != SF_OK) {
		status = err.code == SF_ENOMEM
		             ? cli_error(&err)
		             : cli_usage(cmd->name, NULL, "%s", err.message);
		goto done;
	}
	if (a.json) {
		if ((json = sf_next_json(f, x, a.top)) == NULL) {
			sf_error_set(&err, SF_ENOMEM, "out of memory");
			status = cli_error(&err);
			goto done;
		}
		if (sf_report_print_json(json, stdout, &err) != SF_OK) {
			status = cli_error(&err);
			goto done;
		}
	} else {
		print_text(f, &a, target, x);
	}
	status = SF_EXIT_OK;
done:
	json_decref(json);
	sf_next_free(x);
	if (f != NULL && columns != NULL)
		sf_assign_columns_free(columns, f->ninputs);
	sf_table_free(table);
	sf_fitfile_free(f);
	free(target);
	free(given);
	free(a.set);
	return status;
}
