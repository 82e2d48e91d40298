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
	const char *group; /* --group: the group of a --by fit file */
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
				    "unknown --time-unit '%s' (s, ms, min "
				    "or h)",
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
	if (argc - optind > 1)
		return cli_usage(cmd->name, NULL, "unexpected argument '%s'",
		                 argv[optind + 1]);
	if (q->over == NULL)
		return cli_usage(cmd->name, NULL,
		                 "say what to sweep: --over NAME=LO:HI (for "
		                 "example --over p=1:1024)");
	a->fit_path = argv[optind];
	q->set = a->set;
	return SF_EXIT_OK;
}

/* ---- text -----------------------------------------------------------------
 */

static void
print_answers(const sf_scale *sc)
{
	const sf_fitfile *f = sc->f;
	const sf_sweep_answers *a = &sc->answers;
	const char *x = f->inputs[sc->s.var].name;
	char comm[256], comp[256];

	printf("\n");
	printf("  fastest            %s = %.6g: %.5g %s", x, a->fastest,
	       a->fastest_time, f->output);
	if (isfinite(a->fastest_interval.lo) &&
	    isfinite(a->fastest_interval.hi))
		printf(" (a new run: 95%% in %.5g to %.5g)",
		       a->fastest_interval.lo, a->fastest_interval.hi);
	else if (isfinite(a->fastest_band.lo) && isfinite(a->fastest_band.hi))
		printf(" (95%% band %.5g to %.5g)", a->fastest_band.lo,
		       a->fastest_band.hi);
	printf("\n");
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
		printf("  crossover          unknown: no term has kind: "
		       "compute and another kind: communication\n");
	}
	if (isfinite(a->cheapest))
		printf("  cheapest           %s = %.6g: cost %.5g per run "
		       "(%g per worker-hour, %s in %s%s)\n",
		       x, a->cheapest, a->cheapest_cost, sc->s.price, f->output,
		       sf_scale_unit_name(sc->unit),
		       sc->unit_guessed ? ", from its name" : "");
	if (a->every_whole)
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
	char fixed[256], cell[96];

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
	printf("\n%*s  %*s  ", sf_text_width(in->name, 8), in->name,
	       sf_text_width(f->output, 10), f->output);
	if (p->interval)
		printf("%-22s", "95% new run");
	printf("%-22s", "95% band");
	if (sc->s.workers)
		printf("  %8s  %10s", "speedup", "efficiency");
	if (w->cost != NULL)
		printf("  %10s", "cost");
	for (size_t j = 0; j < f->nterms; j++)
		if (f->terms[j].component)
			printf("  %*s", sf_text_width(f->terms[j].name, 7),
			       f->terms[j].name);
	if (rest)
		printf("  %7s", "rest");
	printf("\n");
	for (size_t k = 0; k < w->n; k++) {
		int outside = sf_prediction_outside(p, k);

		any_outside |= outside;
		printf("%*.6g  %*.5g  ", sf_text_width(in->name, 8), w->x[k],
		       sf_text_width(f->output, 10), p->points[k].time);
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
			if (f->terms[j].component)
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
	print_answers(sc);
}

/* ---- the command ----------------------------------------------------------
 */

/* The fit to study: the file's, or with --group one group of a --by
 * fit file (a study draws one fit). */
static int
load_fit(const sf_command *cmd, const scale_args *a, sf_fitfile **f)
{
	sf_fitfile_set *set = NULL;
	sf_error err;
	int status;

	sf_error_clear(&err);
	*f = NULL;
	if (sf_fitfile_load_groups(a->fit_path, a->group, &set, &err) != SF_OK)
		return cli_error(&err);
	if (set->count > 1 && a->group == NULL) {
		status = cli_usage(cmd->name, NULL,
		                   "%s holds the fits of %zu groups (a --by "
		                   "fit): scale studies one; choose it with "
		                   "--group KEY, e.g. --group %s",
		                   a->fit_path, set->count, set->labels[0]);
		sf_fitfile_set_free(set);
		return status;
	}
	if (set->count > 1) {
		status =
		    cli_usage(cmd->name, NULL,
		              "%s: --group %s matches %zu groups (%s, %s%s): "
		              "scale studies one; give more of its key",
		              a->fit_path, a->group, set->count, set->labels[0],
		              set->labels[1], set->count > 2 ? ", ..." : "");
		sf_fitfile_set_free(set);
		return status;
	}
	*f = set->fits[0];
	set->fits[0] = NULL;
	sf_fitfile_set_free(set);
	return SF_EXIT_OK;
}

int
sf_command_scale(const sf_command *cmd, int argc, char **argv)
{
	scale_args a = {0};
	sf_fitfile *f = NULL;
	sf_scale *sc = NULL;
	sf_svg *svg = NULL;
	sf_table *table = NULL;
	double *hx = NULL, *hy = NULL;
	json_t *json = NULL;
	sf_error err;
	int status, rc;

	sf_error_clear(&err);
	if ((a.set = calloc((size_t)argc + 1, sizeof *a.set)) == NULL) {
		sf_error_set(&err, SF_ENOMEM, "out of memory");
		return cli_error(&err);
	}
	if ((status = parse_args(cmd, argc, argv, &a)) != SF_EXIT_OK)
		goto done;
	if ((status = cli_output_not_input(cmd->name, "--plot", a.plot,
	                                   a.fit_path, "the fit file")) !=
	    SF_EXIT_OK)
		goto done;
	if ((status = load_fit(cmd, &a, &f)) != SF_EXIT_OK)
		goto done;
	cli_fitfile_version(a.fit_path, f);
	/* A study the fit cannot answer is a usage error. */
	if ((rc = sf_scale_new(f, &a.q, &sc, &err)) != SF_OK) {
		status = rc == SF_ENOMEM
		             ? cli_error(&err)
		             : cli_usage(cmd->name, NULL, "%s", err.message);
		goto done;
	}
	if (sf_scale_run(sc, &err) != SF_OK) {
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
		    sf_scale_held_out(sc, table, &hx, &hy, &sc->nheld, &err) !=
		        SF_OK) {
			status = cli_error(&err);
			goto done;
		}
		sc->held_x = hx;
		sc->held_y = hy;
	}
	/* The chart first: if it cannot be written, nothing is printed. */
	if (a.plot != NULL && (sf_plot_study(sc, &svg, &err) != SF_OK ||
	                       sf_svg_save(svg, a.plot, &err) != SF_OK)) {
		status = cli_error(&err);
		goto done;
	}
	if (!a.quiet)
		sf_scale_warn(sc, cli_warning, NULL);
	if (a.json) {
		if ((json = sf_scale_json(sc)) == NULL) {
			sf_error_set(&err, SF_ENOMEM, "out of memory");
			status = cli_error(&err);
			goto done;
		}
		if (sf_report_print_json(json, stdout, &err) != SF_OK) {
			status = cli_error(&err);
			goto done;
		}
	} else {
		print_text(sc);
	}
	status = SF_EXIT_OK;
done:
	json_decref(json);
	sf_svg_free(svg);
	sf_table_free(table);
	free(hx);
	free(hy);
	sf_scale_free(sc);
	sf_fitfile_free(f);
	free(a.set);
	return status;
}
