/*
 * cmd_scale.c - `scalefit scale FIT.json --over p=1:1024 [--set n=...]`:
 * the predicted time along one input, its speedup, efficiency, cost and
 * term shares, the headline answers, and optionally a chart.
 */
#define _GNU_SOURCE /* getopt_long */

#include "base/number.h"
#include "base/suggest.h"
#include "cli/cli.h"
#include "input/csv.h"
#include "use/fitfile.h"
#include "use/plot.h"
#include "use/report.h"
#include "use/scale.h"
#include "use/text.h"

#include <getopt.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* The most points --points takes. */
enum { MAX_POINTS = 100000 };

typedef struct scale_args {
	const char *fit_path, *plot, *data;
	char **fit_paths; /* nfits fit files; fit_path is the first */
	size_t nfits;
	const char *group; /* --group: groups of a --by fit file */
	const char **set;  /* the --set texts (q.set) */
	sf_scale_request q;
	int json, quiet;
} scale_args;

static int
parse_args(const sf_command *cmd, int argc, char **argv, scale_args *a)
{
	static const struct option options[] = {
	    {"over", required_argument, NULL, 'o'},
	    {"set", required_argument, NULL, 's'},
	    {"cost", required_argument, NULL, 'c'},
	    {"time-unit", required_argument, NULL, 'u'},
	    {"unit", required_argument, NULL, 'u'},
	    {"points", required_argument, NULL, 'n'},
	    {"log", no_argument, NULL, 'L'},
	    {"linear", no_argument, NULL, 'l'},
	    {"plot", required_argument, NULL, 'p'},
	    {"data", required_argument, NULL, 'd'},
	    {"panel", required_argument, NULL, 'P'},
	    {"workers", required_argument, NULL, 'w'},
	    {"json", no_argument, NULL, 'j'},
	    {"group", required_argument, NULL, 'G'},
	    {"quiet", no_argument, NULL, 'q'},
	    {"help", no_argument, NULL, 'h'},
	    {NULL, 0, NULL, 0},
	};
	static const char *const panels[] = {"efficiency", "shares"};
	sf_scale_request *q = &a->q;
	int c;

	q->price = NAN;
	while ((c = getopt_long(argc, argv, "qh", options, NULL)) != -1) {
		switch (c) {
		case 'o':
			if (q->over != NULL)
				return cli_usage(cmd->name, NULL,
				                 "--over is given twice: a "
				                 "sweep moves one input");
			q->over = optarg;
			break;
		case 's':
			a->set[q->nset++] = optarg;
			break;
		case 'c':
			if (sf_parse_double(optarg, &q->price) != SF_OK ||
			    !(q->price > 0))
				return cli_usage(cmd->name, NULL,
				                 "--cost needs a price per "
				                 "worker-hour > 0, not '%s'",
				                 optarg);
			break;
		case 'u':
			q->time_unit = NULL;
			for (size_t k = 0; k < SF_SCALE_UNITS; k++)
				if (strcmp(optarg, sf_scale_units[k]) == 0)
					q->time_unit = sf_scale_units[k];
			if (q->time_unit == NULL)
				return cli_usage(
				    cmd->name,
				    sf_suggest_nearest(optarg, sf_scale_units,
				                       SF_SCALE_UNITS),
				    "unknown --unit '%s' (s, ms, min or "
				    "h)",
				    optarg);
			break;
		case 'n':
			if (cli_count(cmd->name, "points", optarg, 2,
			              MAX_POINTS, &q->points) != SF_EXIT_OK)
				return SF_EXIT_USAGE;
			break;
		case 'L':
		case 'l':
			if (q->spacing != SF_SWEEP_AUTO)
				return cli_usage(cmd->name, NULL,
				                 "give --log or --linear, not "
				                 "both");
			q->spacing = c == 'L' ? SF_SWEEP_LOG : SF_SWEEP_LINEAR;
			break;
		case 'd':
			a->data = optarg;
			break;
		case 'p':
			a->plot = optarg;
			break;
		case 'P':
			if (strcmp(optarg, panels[0]) == 0)
				q->panel = SF_SCALE_PANEL_EFFICIENCY;
			else if (strcmp(optarg, panels[1]) == 0)
				q->panel = SF_SCALE_PANEL_SHARES;
			else
				return cli_usage(
				    cmd->name,
				    sf_suggest_nearest(optarg, panels, 2),
				    "unknown --panel '%s' (efficiency or "
				    "shares)",
				    optarg);
			break;
		case 'w':
			q->workers = optarg;
			break;
		case 'j':
			a->json = 1;
			break;
		case 'G':
			a->group = optarg;
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
		                 "scale needs a fit file (FIT.json, from "
		                 "'scalefit fit -o FIT.json')");

	if (q->over == NULL)
		return cli_usage(cmd->name, NULL,
		                 "say what to sweep: --over NAME=LO:HI (for "
		                 "example --over p=1:1024)");
	a->fit_path = argv[optind];
	a->fit_paths = argv + optind;
	a->nfits = (size_t)(argc - optind);
	if (a->nfits > 1 && a->data != NULL)
		return cli_usage(cmd->name, NULL,
		                 "--data goes with one fit file, not %zu",
		                 a->nfits);
	q->set = a->set;
	return SF_EXIT_OK;
}

/* ---- text -----------------------------------------------------------------
 */

static void
print_fastest(const sf_scale *sc)
{
	const sf_sweep_answers *a = &sc->answers;

	printf("  fastest            %s = %.6g: %.5g %s",
	       sc->f->inputs[sc->s.var].name, a->fastest, a->fastest_time,
	       sc->f->output);
	if (isfinite(a->fastest_interval.lo) &&
	    isfinite(a->fastest_interval.hi))
		printf(" (a new run: 95%% in %.5g to %.5g)",
		       a->fastest_interval.lo, a->fastest_interval.hi);
	else if (isfinite(a->fastest_band.lo) && isfinite(a->fastest_band.hi))
		printf(" (95%% band %.5g to %.5g)", a->fastest_band.lo,
		       a->fastest_band.hi);
	printf("\n");
}

static void
print_answers(const sf_scale *sc)
{
	const sf_fitfile *f = sc->f;
	const sf_sweep_answers *a = &sc->answers;
	const char *x = f->inputs[sc->s.var].name;
	char comm[256], comp[256];

	printf("\n");
	/* Along the batch the least time is an end of the range, not an
	 * answer: the throughput and its knee are. */
	if (isfinite(a->best_x)) {
		char basis[128];

		sf_scale_samples_text(sc, basis, sizeof basis);
		printf("  highest throughput %s = %.6g: %.5g samples/s (%s)\n",
		       x, a->best_x, a->best_throughput, basis);
		printf("  knee               %s = %.6g: %.5g samples/s, within "
		       "%g%% of the highest\n",
		       x, a->knee, a->knee_throughput, 100 * SF_SWEEP_KNEE);
	} else {
		print_fastest(sc);
	}
	if (sc->s.workers)
		if (sc->s.workers)
			printf("  efficiency >= 50%%  up to %s = %.6g\n", x,
			       a->efficient);
	sf_scale_kind_terms(f, SF_TERM_COMMUNICATION, comm, sizeof comm);
	sf_scale_kind_terms(f, SF_TERM_COMPUTE, comp, sizeof comp);
	switch (a->crossover) {
	case SF_SWEEP_CROSS_AT:
		printf("  crossover          %s (%s) overtakes %s (%s) at %s = "
		       "%.6g\n",
		       a->comm_first ? "compute" : "communication",
		       a->comm_first ? comp : comm,
		       a->comm_first ? "communication" : "compute",
		       a->comm_first ? comm : comp, x, a->crossover_x);
		break;
	case SF_SWEEP_CROSS_NEVER:
		printf("  crossover          none: %s (%s) stays above %s (%s) "
		       "from %s = %g to %g\n",
		       a->comm_first ? "communication" : "compute",
		       a->comm_first ? comm : comp,
		       a->comm_first ? "compute" : "communication",
		       a->comm_first ? comp : comm, x, sc->lo, sc->hi);
		break;
	default:
		/* No term of kind compute or none of communication: the
		 * question does not apply, and no line says otherwise. */
		break;
	}
	if (isfinite(a->cheapest))
		printf("  cheapest           %s = %.6g: cost %.5g per run "
		       "(%g per worker-hour, %s in %s%s)\n",
		       x, a->cheapest, a->cheapest_cost, sc->s.price, f->output,
		       sf_scale_unit_name(sc->unit),
		       sc->unit_guessed ? ", from its name" : "");
	if (a->listed)
		printf("  (searched the %zu values listed)\n", a->searched);
	else if (a->on_pow2)
		printf("  (searched the powers of two from %g to %g)\n", sc->lo,
		       sc->hi);
	else if (a->every_whole)
		printf("  (searched every whole %s from %g to %g)\n", x, sc->lo,
		       sc->hi);
	else
		printf("  (searched %zu points from %g to %g)\n", a->searched,
		       sc->lo, sc->hi);
}

static void
print_text(const sf_scale *sc)
{
	const sf_fitfile *f = sc->f;
	const sf_sweep *w = sc->table;
	const sf_prediction *p = w->pred;
	const sf_fitfile_input *in = &f->inputs[sc->s.var];
	int rest = sf_sweep_rest_matters(w), any_outside = 0;
	char fixed[256], cell[96], head[160];

	sf_scale_fixed_text(sc, fixed, sizeof fixed);
	printf("%s: %s over %s", f->name[0] ? f->name : "fit", f->output,
	       in->name);
	if (strcmp(in->column, in->name) != 0)
		printf(" (%s)", in->column);
	printf(" from %g to %g%s%s\n", sc->lo, sc->hi, fixed[0] ? ", " : "",
	       fixed);
	if (p->bootstrap)
		printf("95%% band: bootstrap percentiles (%zu replicates)\n",
		       p->boot_used);
	else if (isfinite(p->t))
		printf("95%% band: delta method (t = %.4g, %g degrees of "
		       "freedom)\n",
		       p->t, f->dof);
	else
		printf("95%% band: none (the fit has no covariance)\n");
	if (p->interval) {
		sf_text_noise(f, cell, sizeof cell);
		printf("95%% new run: noise %s%s\n", cell,
		       p->growth_unknown ? "; model error beyond the fitted "
		                           "range not estimated"
		                         : "");
	}
	/* The unit in the header when declared (a guessed one is in the
	 * output's name already). */
	sf_text_time_header(f, sc->unit_declared ? sc->unit : NULL, head,
	                    sizeof head);
	printf("\n%*s  %*s  ", sf_text_width(in->name, 8), in->name,
	       sf_text_width(head, 10), head);
	if (p->interval)
		printf("%-22s", "95% new run");
	printf("%-22s", "95% band");
	if (sc->s.workers)
		printf("  %8s  %10s", "speedup", "efficiency");
	if (w->cost != NULL)
		printf("  %10s", "cost");
	/* Shares when the time is the sum of its terms, else their values. */
	for (size_t j = 0; j < f->nterms; j++)
		if (f->terms[j].component || !f->terms_sum)
			printf("  %*s", sf_text_width(f->terms[j].name, 7),
			       f->terms[j].name);
	if (rest)
		printf("  %7s", "rest");
	printf("\n");
	for (size_t k = 0; k < w->n; k++) {
		int outside = sf_prediction_outside(p, k);

		any_outside |= outside;
		printf("%*.6g  %*.5g  ", sf_text_width(in->name, 8), w->x[k],
		       sf_text_width(head, 10), p->points[k].time);
		if (p->interval) {
			sf_text_band(p->points[k].pi, 5, cell, sizeof cell);
			printf("%-22s", cell);
		}
		sf_text_band(sf_prediction_band(p, k), 5, cell, sizeof cell);
		printf("%-22s", cell);
		if (sc->s.workers)
			printf("  %8.3f  %9.1f%%", w->speedup[k],
			       100 * w->efficiency[k]);
		if (w->cost != NULL)
			printf("  %10.4g", w->cost[k]);
		for (size_t j = 0; j < f->nterms; j++)
			if (!f->terms_sum)
				printf("  %*.5g",
				       sf_text_width(f->terms[j].name, 7),
				       p->terms[j * w->n + k]);
			else if (f->terms[j].component)
				printf("  %*.1f%%",
				       sf_text_width(f->terms[j].name, 7) - 1,
				       100 * w->share[j * w->n + k]);
		if (rest)
			printf("  %6.1f%%", 100 * w->rest[k]);
		printf("%s\n", outside ? "  *" : "");
	}
	if (any_outside)
		printf("\n* outside the inputs' fitted ranges: an "
		       "extrapolation\n");
	if (!f->terms_sum && f->nterms > 0)
		printf("\n%s: the columns after the time are the terms' "
		       "values\n",
		       SF_SCALE_NOT_SUM);
	print_answers(sc);
}

/* ---- the command ----------------------------------------------------------
 */

/* Several fits, one series each: a table with a time column per fit, the
 * answers of each, a chart with a line per fit, or {"studies": [...]}. */
static void
print_several(sf_scale *const *sc, char *const *labels, size_t n)
{
	const sf_scale *first = sc[0];
	const sf_fitfile_input *in = &first->f->inputs[first->s.var];
	char fixed[256], head[160];

	sf_scale_fixed_text(first, fixed, sizeof fixed);
	sf_text_time_header(first->f, first->unit_declared ? first->unit : NULL,
	                    head, sizeof head);
	printf("%s of %zu fits over %s from %g to %g%s%s\n", head, n, in->name,
	       first->lo, first->hi, fixed[0] ? ", " : "", fixed);
	printf("\n%*s", sf_text_width(in->name, 8), in->name);
	for (size_t j = 0; j < n; j++) {
		printf("  %*s", sf_text_width(labels[j], 10), labels[j]);
	}
	printf("\n");
	for (size_t k = 0; k < first->table->n; k++) {
		int outside = 0;

		printf("%*.6g", sf_text_width(in->name, 8), first->table->x[k]);
		for (size_t j = 0; j < n; j++) {
			printf("  %*.5g", sf_text_width(labels[j], 10),
			       sc[j]->table->pred->points[k].time);
			outside |= sf_prediction_outside(sc[j]->table->pred, k);
		}
		printf("%s\n", outside ? "  *" : "");
	}
	for (size_t j = 0; j < n; j++) {
		printf("\n%s:", labels[j]);
		print_answers(sc[j]);
	}
}

/* {"studies": [each study's document with its "label"]}. */
static json_t *
several_json(sf_scale *const *sc, char *const *labels, size_t n)
{
	json_t *root = json_object(), *list = json_array();
	int ok = root != NULL && list != NULL;

	for (size_t j = 0; ok && j < n; j++) {
		json_t *one = sf_scale_json(sc[j]);

		ok = one != NULL &&
		     json_object_set_new(one, "label",
		                         json_string(labels[j])) == 0 &&
		     json_array_append_new(list, one) == 0;
	}
	if (!ok || json_object_set_new(root, "studies", list) != 0) {
		json_decref(root);
		json_decref(list);
		return NULL;
	}
	return root;
}

int
sf_command_scale(const sf_command *cmd, int argc, char **argv)
{
	scale_args a = {0};
	sf_fitfile **fits = NULL;
	sf_fitfile_set **sets = NULL;
	sf_scale **sc = NULL;
	char **labels = NULL;
	const char **group = NULL, **path = NULL; /* each fit's group, file */
	size_t total = 0;
	sf_svg *svg = NULL;
	sf_table *table = NULL;
	double *hx = NULL, *hy = NULL;
	json_t *json = NULL;
	sf_error err;
	size_t n = 0;
	int status, rc;

	sf_error_clear(&err);
	if ((a.set = calloc((size_t)argc + 1, sizeof *a.set)) == NULL) {
		sf_error_set(&err, SF_ENOMEM, "out of memory");
		return cli_error(&err);
	}
	if ((status = parse_args(cmd, argc, argv, &a)) != SF_EXIT_OK)
		goto done;
	for (size_t j = 0; j < a.nfits; j++)
		if ((status = cli_output_not_input(
		         cmd->name, "--plot", a.plot, a.fit_paths[j],
		         "the fit file")) != SF_EXIT_OK)
			goto done;
	/* Every fit of every file: a groups file (from fit --by) gives
	 * each group --group selects (every group without it), one series
	 * each, labelled by its group. */
	if ((sets = calloc(a.nfits + 1, sizeof *sets)) == NULL) {
		sf_error_set(&err, SF_ENOMEM, "out of memory");
		status = cli_error(&err);
		goto done;
	}
	for (size_t p = 0; p < a.nfits; p++) {
		if (sf_fitfile_load_groups(a.fit_paths[p], a.group, &sets[p],
		                           &err) != SF_OK) {
			status = cli_error(&err);
			goto done;
		}
		total += sets[p]->count;
	}
	fits = calloc(total + 1, sizeof *fits);
	sc = calloc(total + 1, sizeof *sc);
	labels = calloc(total + 1, sizeof *labels);
	group = calloc(total + 1, sizeof *group);
	path = calloc(total + 1, sizeof *path);
	if (fits == NULL || sc == NULL || labels == NULL || group == NULL ||
	    path == NULL) {
		sf_error_set(&err, SF_ENOMEM, "out of memory");
		status = cli_error(&err);
		goto done;
	}
	for (size_t p = 0, m = 0; p < a.nfits; p++)
		for (size_t k = 0; k < sets[p]->count; k++, m++) {
			fits[m] = sets[p]->fits[k];
			sets[p]->fits[k] = NULL;
			group[m] = sets[p]->labels[k];
			path[m] = a.fit_paths[p];
		}
	for (n = 0; n < total; n++) {
		cli_fitfile_version(path[n], fits[n]);
		/* A study the fit cannot answer is a usage error. */
		if ((rc = sf_scale_new(fits[n], &a.q, &sc[n], &err)) != SF_OK) {
			if (total > 1 && rc != SF_ENOMEM) {
				status = cli_usage(cmd->name, NULL, "%s: %s",
				                   fits[n]->path, err.message);
			} else {
				status = rc == SF_ENOMEM
				             ? cli_error(&err)
				             : cli_usage(cmd->name, NULL, "%s",
				                         err.message);
			}
			n++;
			goto done;
		}
	}
	if (sf_scale_share_points(sc, n, &err) != SF_OK) {
		status = cli_error(&err);
		goto done;
	}
	for (size_t j = 0; j < n; j++)
		if (sf_scale_run(sc[j], &err) != SF_OK) {
			status = cli_error(&err);
			goto done;
		}
	if (a.data != NULL) {
		if (a.plot == NULL) {
			status = cli_usage(cmd->name, NULL,
			                   "--data draws measurements on the "
			                   "chart: it goes with --plot");
			goto done;
		}
		if (sf_table_load(a.data, NULL, &table, &err) != SF_OK ||
		    sf_scale_held_out(sc[0], table, &hx, &hy, &sc[0]->nheld,
		                      &err) != SF_OK) {
			status = cli_error(&err);
			goto done;
		}
		sc[0]->held_x = hx;
		sc[0]->held_y = hy;
	}
	for (size_t j = 0; j < n; j++) {
		char label[512];

		if (group[j] != NULL && a.nfits == 1)
			snprintf(label, sizeof label, "%s", group[j]);
		else if (group[j] != NULL)
			snprintf(label, sizeof label, "%s %s", fits[j]->name,
			         group[j]);
		else
			sf_scale_label((const sf_scale *const *)sc, n, j, label,
			               sizeof label);
		if ((labels[j] = strdup(label)) == NULL) {
			sf_error_set(&err, SF_ENOMEM, "out of memory");
			status = cli_error(&err);
			goto done;
		}
	}
	/* The chart first: if it cannot be written, nothing is printed. */
	if (a.plot != NULL &&
	    ((n == 1 ? sf_plot_study(sc[0], &svg, &err)
	             : sf_plot_studies((const sf_scale *const *)sc,
	                               (const char *const *)labels, n, &svg,
	                               &err)) != SF_OK ||
	     sf_svg_save(svg, a.plot, &err) != SF_OK)) {
		status = cli_error(&err);
		goto done;
	}
	if (!a.quiet)
		for (size_t j = 0; j < n; j++)
			sf_scale_warn(sc[j], cli_warning, NULL);
	if (a.json) {
		if ((json = n == 1 ? sf_scale_json(sc[0])
		                   : several_json(sc, labels, n)) == NULL) {
			sf_error_set(&err, SF_ENOMEM, "out of memory");
			status = cli_error(&err);
			goto done;
		}
		if (sf_report_print_json(json, stdout, &err) != SF_OK) {
			status = cli_error(&err);
			goto done;
		}
	} else if (n == 1) {
		print_text(sc[0]);
	} else {
		print_several(sc, labels, n);
	}
	status = SF_EXIT_OK;
done:
	json_decref(json);
	sf_svg_free(svg);
	sf_table_free(table);
	free(hx);
	free(hy);
	for (size_t j = 0; j < total; j++) {
		if (j < n)
			sf_scale_free(sc[j]);
		if (fits != NULL)
			sf_fitfile_free(fits[j]);
		if (labels != NULL)
			free(labels[j]);
	}
	for (size_t p = 0; sets != NULL && p < a.nfits; p++)
		sf_fitfile_set_free(sets[p]);
	free(sets);
	free(group);
	free(path);
	free(sc);
	free(fits);
	free(labels);
	free(a.set);
	return status;
}
