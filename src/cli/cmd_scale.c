/*
 * cmd_scale.c - `scalefit scale FIT.json --over p=1:1024 [--set n=...]`:
 * the predicted time along one input, its speedup, efficiency, cost and
 * term shares, the headline answers, and optionally a chart.
 */
#define _GNU_SOURCE /* getopt_long */

#include "use/assign.h"
#include "cli/cli.h"
#include "use/fitfile.h"
#include "base/number.h"
#include "use/plot.h"
#include "use/report.h"
#include "base/suggest.h"
#include "use/json.h"
#include "use/sweep.h"
#include "use/text.h"

#include <ctype.h>
#include <getopt.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* Points of the chart's curves (whole values: at most this many). */
enum { PLOT_POINTS = 400, MAX_POINTS = 100000 };

/* A share this small everywhere is not worth a column. */
#define REST_NEGLIGIBLE 1e-9

typedef struct scale_args {
	const char *fit_path, *over, *plot, *workers, *panel;
	const char **set;
	size_t nset;
	double price;
	const char *time_unit;
	size_t points;
	sf_sweep_spacing spacing;
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
	    {"panel", required_argument, NULL, 'P'},
	    {"workers", required_argument, NULL, 'w'},
	    {"json", no_argument, NULL, 'j'},
	    {"quiet", no_argument, NULL, 'q'},
	    {"help", no_argument, NULL, 'h'},
	    {NULL, 0, NULL, 0},
	};
	static const char *const units[] = {"s", "ms", "min", "h"};
	static const char *const panels[] = {"efficiency", "shares"};
	int c;

	a->price = NAN;
	while ((c = getopt_long(argc, argv, "qh", options, NULL)) != -1) {
		switch (c) {
		case 'o':
			if (a->over != NULL)
				return cli_usage(cmd->name, NULL,
				                 "--over is given twice: a "
				                 "sweep moves one input");
			a->over = optarg;
			break;
		case 's':
			a->set[a->nset++] = optarg;
			break;
		case 'c':
			if (sf_parse_double(optarg, &a->price) != SF_OK ||
			    !(a->price > 0))
				return cli_usage(cmd->name, NULL,
				                 "--cost needs a price per "
				                 "worker-hour > 0, not '%s'",
				                 optarg);
			break;
		case 'u':
			a->time_unit = NULL;
			for (size_t k = 0; k < 4; k++)
				if (strcmp(optarg, units[k]) == 0)
					a->time_unit = units[k];
			if (a->time_unit == NULL)
				return cli_usage(
				    cmd->name,
				    sf_suggest_nearest(optarg, units, 4),
				    "unknown --time-unit '%s' (s, ms, min "
				    "or h)",
				    optarg);
			break;
		case 'n':
			if (cli_count(cmd->name, "points", optarg, 2,
			              MAX_POINTS, &a->points) != SF_EXIT_OK)
				return SF_EXIT_USAGE;
			break;
		case 'L':
		case 'l':
			if (a->spacing != SF_SWEEP_AUTO)
				return cli_usage(cmd->name, NULL,
				                 "give --log or --linear, not "
				                 "both");
			a->spacing = c == 'L' ? SF_SWEEP_LOG : SF_SWEEP_LINEAR;
			break;
		case 'p':
			a->plot = optarg;
			break;
		case 'P':
			if (strcmp(optarg, panels[0]) != 0 &&
			    strcmp(optarg, panels[1]) != 0)
				return cli_usage(
				    cmd->name,
				    sf_suggest_nearest(optarg, panels, 2),
				    "unknown --panel '%s' (efficiency or "
				    "shares)",
				    optarg);
			a->panel = optarg;
			break;
		case 'w':
			a->workers = optarg;
			break;
		case 'j':
			a->json = 1;
			break;
		case 'q':
			a->quiet = 1;
			break;
		case 'h':
			cli_print_help(stdout, cmd);
			exit(SF_EXIT_OK);
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
	if (a->over == NULL)
		return cli_usage(cmd->name, NULL,
		                 "say what to sweep: --over NAME=LO:HI (for "
		                 "example --over p=1:1024)");
	a->fit_path = argv[optind];
	return SF_EXIT_OK;
}

/* ---- the sweep's set-up ------------------------------------------------- */

/* Everything the outputs need. */
typedef struct scale_run {
	const sf_fitfile *f;
	sf_sweep_settings s;
	double *base;         /* a value per input */
	unsigned char *given; /* which came from --set */
	double lo, hi;        /* the swept range */
	double *table_x;      /* the table's points */
	size_t ntable;
	const char *unit; /* s, ms, min or h */
	int unit_guessed; /* 1: read from the output's name */
	int efficiency_panel;
	sf_sweep *table;
	sf_sweep_answers answers;
} scale_run;

/* The input counting workers: --workers, else p, else an input whose
 * name or column says workers. */
static size_t
find_workers(const sf_fitfile *f)
{
	static const char *const words[] = {"worker", "core",    "gpu",
	                                    "node",   "machine", "proc",
	                                    "rank",   "device",  "replica"};
	size_t i = sf_fitfile_input_find(f, "p");

	if (i != SF_FITFILE_NONE)
		return i;
	for (i = 0; i < f->ninputs; i++)
		for (size_t w = 0; w < sizeof words / sizeof words[0]; w++)
			if (strncasecmp(f->inputs[i].name, words[w],
			                strlen(words[w])) == 0 ||
			    strncasecmp(f->inputs[i].column, words[w],
			                strlen(words[w])) == 0)
				return i;
	return SF_FITFILE_NONE;
}

/* The time's unit from the output's name ("time_s", "epoch_ms"), else
 * seconds. */
static const char *
guess_unit(const char *output, int *guessed)
{
	static const struct {
		const char *suffix, *unit;
	} suffixes[] = {{"_ms", "ms"},    {"_s", "s"},     {"_sec", "s"},
	                {"seconds", "s"}, {"_min", "min"}, {"minutes", "min"},
	                {"_h", "h"},      {"hours", "h"}};
	size_t n = strlen(output);

	*guessed = 1;
	for (size_t k = 0; k < sizeof suffixes / sizeof suffixes[0]; k++) {
		size_t m = strlen(suffixes[k].suffix);
		if (n >= m &&
		    strcasecmp(output + n - m, suffixes[k].suffix) == 0)
			return suffixes[k].unit;
	}
	*guessed = 0;
	return "s";
}

static double
hours_per(const char *unit)
{
	return strcmp(unit, "ms") == 0    ? 1 / 3.6e6
	       : strcmp(unit, "min") == 0 ? 1 / 60.0
	       : strcmp(unit, "h") == 0   ? 1
	                                  : 1 / 3600.0;
}

static int
compare_doubles(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* --over NAME=LO:HI or NAME=V1,V2,... */
static int
parse_over(const sf_command *cmd, const scale_args *a, scale_run *r)
{
	const sf_fitfile *f = r->f;
	char name[128], *eq, *colon, *copy;
	sf_error err;
	size_t i;

	sf_error_clear(&err);
	snprintf(name, sizeof name, "%s", a->over);
	if ((eq = strchr(name, '=')) == NULL || eq == name)
		return cli_usage(cmd->name, NULL,
		                 "--over '%s' is not NAME=LO:HI", a->over);
	*eq = '\0';
	if ((i = sf_assign_input(f, name, &err)) == SF_FITFILE_NONE)
		return cli_usage(cmd->name, NULL, "--over '%s': %s", a->over,
		                 err.message);
	if (f->inputs[i].levels != NULL)
		return cli_usage(cmd->name, NULL,
		                 "--over '%s': %s is a text input; a sweep "
		                 "needs a number",
		                 a->over, name);
	r->s.var = i;
	if ((copy = strdup(strchr(a->over, '=') + 1)) == NULL)
		return cli_usage(cmd->name, NULL, "out of memory");
	colon = strchr(copy, ':');
	if (colon != NULL) {
		*colon = '\0';
		if (sf_assign_value(f, i, copy, &r->lo, &err) != SF_OK ||
		    sf_assign_value(f, i, colon + 1, &r->hi, &err) != SF_OK) {
			free(copy);
			return cli_usage(cmd->name, NULL, "--over '%s': %s",
			                 a->over, err.message);
		}
	} else {
		/* A list of values. */
		size_t n = 1;

		for (const char *p = copy; *p != '\0'; p++)
			n += *p == ',';
		if ((r->table_x = calloc(n, sizeof *r->table_x)) == NULL) {
			free(copy);
			return cli_usage(cmd->name, NULL, "out of memory");
		}
		for (char *p = copy, *next; p != NULL; p = next) {
			if ((next = strchr(p, ',')) != NULL)
				*next++ = '\0';
			if (sf_assign_value(f, i, p, &r->table_x[r->ntable++],
			                    &err) != SF_OK) {
				free(copy);
				return cli_usage(
				    cmd->name, NULL,
				    "--over '%s': %s (give "
				    "NAME=LO:HI or NAME=V1,V2,...)",
				    a->over, err.message);
			}
		}
		qsort(r->table_x, r->ntable, sizeof *r->table_x,
		      compare_doubles);
		r->lo = r->table_x[0];
		r->hi = r->table_x[r->ntable - 1];
	}
	free(copy);
	if (!(r->lo <= r->hi))
		return cli_usage(cmd->name, NULL,
		                 "--over '%s': the range is empty (%g > %g)",
		                 a->over, r->lo, r->hi);
	return SF_EXIT_OK;
}

/* --set, and the values of inputs it leaves out. */
static int
parse_set(const sf_command *cmd, const scale_args *a, scale_run *r)
{
	const sf_fitfile *f = r->f;
	sf_error err;

	sf_error_clear(&err);
	for (size_t k = 0; k < a->nset; k++)
		if (sf_assign_parse(f, a->set[k], r->base, r->given, &err) !=
		    SF_OK)
			return cli_usage(cmd->name, NULL, "--set '%s': %s",
			                 a->set[k], err.message);
	if (r->given[r->s.var])
		return cli_usage(cmd->name, NULL,
		                 "%s is swept by --over: leave it out of --set",
		                 f->inputs[r->s.var].name);
	for (size_t i = 0; i < f->ninputs; i++) {
		const sf_fitfile_input *in = &f->inputs[i];

		if (i == r->s.var || r->given[i])
			continue;
		/* An input that was constant in the fit needs no value. */
		if (in->levels == NULL && in->lo == in->hi) {
			r->base[i] = in->lo;
			continue;
		}
		if (in->levels != NULL && in->nlevels == 1) {
			r->base[i] = 0;
			continue;
		}
		if (in->levels != NULL)
			return cli_usage(cmd->name, NULL,
			                 "no value for input %s: give --set "
			                 "%s=VALUE (it was '%s' ... '%s' in "
			                 "the fit)",
			                 in->name, in->name, in->levels[0],
			                 in->levels[in->nlevels - 1]);
		return cli_usage(cmd->name, NULL,
		                 "no value for input %s: give --set %s=VALUE "
		                 "(it was fitted from %g to %g)",
		                 in->name, in->name, in->lo, in->hi);
	}
	return SF_EXIT_OK;
}

static int
set_up(const sf_command *cmd, const scale_args *a, scale_run *r)
{
	const sf_fitfile *f = r->f;
	sf_error err;
	int status;

	sf_error_clear(&err);
	if ((status = parse_over(cmd, a, r)) != SF_EXIT_OK ||
	    (status = parse_set(cmd, a, r)) != SF_EXIT_OK)
		return status;
	r->s.base = r->base;
	r->s.worker_input = find_workers(f);
	if (a->workers != NULL && (r->s.worker_input = sf_assign_input(
	                               f, a->workers, &err)) == SF_FITFILE_NONE)
		return cli_usage(cmd->name, NULL, "--workers: %s", err.message);
	r->s.workers = r->s.worker_input == r->s.var;
	r->s.integer = r->s.workers;
	if (r->s.integer &&
	    (r->lo != floor(r->lo) || r->hi != floor(r->hi) || r->lo < 1))
		return cli_usage(cmd->name, NULL,
		                 "--over '%s': %s counts workers, so its range "
		                 "needs whole numbers >= 1",
		                 a->over, f->inputs[r->s.var].name);
	if (a->spacing == SF_SWEEP_LOG && !(r->lo > 0))
		return cli_usage(cmd->name, NULL,
		                 "--log needs a range above 0, not from %g",
		                 r->lo);
	r->s.log = sf_sweep_is_log(r->lo, r->hi, a->spacing);
	r->unit = a->time_unit != NULL
	              ? a->time_unit
	              : guess_unit(f->output, &r->unit_guessed);
	r->s.hours_per_unit = hours_per(r->unit);
	r->s.price = a->price;
	if (isfinite(a->price) && r->s.worker_input == SF_FITFILE_NONE)
		return cli_usage(cmd->name, NULL,
		                 "--cost needs the worker count: no input is "
		                 "called p or looks like one; name it with "
		                 "--workers NAME");
	r->efficiency_panel = a->panel != NULL
	                          ? strcmp(a->panel, "efficiency") == 0
	                          : r->s.workers;
	if (r->efficiency_panel && !r->s.workers)
		return cli_usage(cmd->name, NULL,
		                 "--panel efficiency needs a sweep over the "
		                 "worker count");
	if (r->table_x == NULL &&
	    sf_sweep_values(r->lo, r->hi, r->s.integer, r->s.log, a->points,
	                    &r->table_x, &r->ntable, &err) != SF_OK)
		return cli_usage(cmd->name, NULL, "--over '%s': %s", a->over,
		                 err.message);
	return SF_EXIT_OK;
}

/* ---- text -----------------------------------------------------------------
 */

static int
rest_matters(const sf_sweep *w)
{
	for (size_t k = 0; k < w->n; k++)
		if (fabs(w->rest[k]) > REST_NEGLIGIBLE)
			return 1;
	return 0;
}

/* "n = 0.06, b = 32": the inputs held fixed. */
static void
fixed_text(const scale_run *r, char *out, size_t size)
{
	size_t used = 0;

	out[0] = '\0';
	for (size_t i = 0; i < r->f->ninputs && used < size; i++) {
		const sf_fitfile_input *in = &r->f->inputs[i];
		int n;

		if (i == r->s.var)
			continue;
		if (in->levels != NULL)
			n = snprintf(out + used, size - used, "%s%s = %s",
			             used ? ", " : "", in->name,
			             in->levels[(size_t)r->base[i]]);
		else
			n = snprintf(out + used, size - used, "%s%s = %g",
			             used ? ", " : "", in->name, r->base[i]);
		used += n > 0 ? (size_t)n : 0;
	}
}

/* The names of the terms that count for a kind, for the crossover. */
static void
kind_terms(const sf_fitfile *f, sf_term_kind kind, char *out, size_t size)
{
	size_t used = 0;

	out[0] = '\0';
	for (size_t j = 0; j < f->nterms && used < size; j++) {
		int n;

		if (!f->terms[j].counts_for_kind || f->terms[j].kind != kind)
			continue;
		n = snprintf(out + used, size - used, "%s%s", used ? ", " : "",
		             f->terms[j].name);
		used += n > 0 ? (size_t)n : 0;
	}
}

static const char *
unit_name(const char *unit)
{
	return strcmp(unit, "ms") == 0    ? "milliseconds"
	       : strcmp(unit, "min") == 0 ? "minutes"
	       : strcmp(unit, "h") == 0   ? "hours"
	                                  : "seconds";
}

static void
print_answers(const scale_run *r)
{
	const sf_fitfile *f = r->f;
	const sf_sweep_answers *a = &r->answers;
	const char *x = f->inputs[r->s.var].name;
	char comm[256], comp[256];

	printf("\n");
	printf("  fastest            %s = %.6g: %.5g %s", x, a->fastest,
	       a->fastest_time, f->output);
	if (isfinite(a->fastest_band.lo) && isfinite(a->fastest_band.hi))
		printf(" (95%% band %.5g to %.5g)", a->fastest_band.lo,
		       a->fastest_band.hi);
	printf("\n");
	if (r->s.workers)
		printf("  efficiency >= 50%%  up to %s = %.6g\n", x,
		       a->efficient);
	kind_terms(f, SF_TERM_COMMUNICATION, comm, sizeof comm);
	kind_terms(f, SF_TERM_COMPUTE, comp, sizeof comp);
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
		       a->comm_first ? comp : comm, x, r->lo, r->hi);
		break;
	default:
		printf("  crossover          unknown: no term has kind: "
		       "compute and another kind: communication\n");
	}
	if (isfinite(a->cheapest))
		printf("  cheapest           %s = %.6g: cost %.5g per run "
		       "(%g per worker-hour, %s in %s%s)\n",
		       x, a->cheapest, a->cheapest_cost, r->s.price, f->output,
		       unit_name(r->unit),
		       r->unit_guessed ? ", from its name" : "");
	if (r->s.integer && (double)a->searched == r->hi - r->lo + 1)
		printf("  (searched every whole %s from %g to %g)\n", x, r->lo,
		       r->hi);
	else
		printf("  (searched %zu points from %g to %g)\n", a->searched,
		       r->lo, r->hi);
}

static void
print_text(const scale_run *r)
{
	const sf_fitfile *f = r->f;
	const sf_sweep *w = r->table;
	const sf_prediction *p = w->pred;
	const sf_fitfile_input *in = &f->inputs[r->s.var];
	int rest = rest_matters(w), any_outside = 0;
	char fixed[256], cell[96];

	fixed_text(r, fixed, sizeof fixed);
	printf("%s: %s over %s", f->name[0] ? f->name : "fit", f->output,
	       in->name);
	if (strcmp(in->column, in->name) != 0)
		printf(" (%s)", in->column);
	printf(" from %g to %g%s%s\n", r->lo, r->hi, fixed[0] ? ", " : "",
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
	printf("\n%*s  %*s  %-22s", sf_text_width(in->name, 8), in->name,
	       sf_text_width(f->output, 10), f->output, "95% band");
	if (r->s.workers)
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
		sf_text_band(sf_prediction_band(p, k), 5, cell, sizeof cell);
		printf("%-22s", cell);
		if (r->s.workers)
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
	print_answers(r);
}

/* Warn about the parts of the sweep that extrapolate. */
static void
warn_extrapolation(const scale_run *r)
{
	const sf_fitfile *f = r->f;
	char message[SF_ERROR_MESSAGE_MAX];
	sf_error w;

	for (size_t i = 0; i < f->ninputs; i++) {
		const sf_fitfile_input *in = &f->inputs[i];

		if (in->levels != NULL || isnan(in->lo))
			continue;
		if (i == r->s.var && (r->lo < in->lo || r->hi > in->hi))
			snprintf(message, sizeof message,
			         "%s from %g to %g reaches outside its fitted "
			         "range [%g, %g]: the points outside it are "
			         "extrapolations",
			         in->name, r->lo, r->hi, in->lo, in->hi);
		else if (i != r->s.var &&
		         (r->base[i] < in->lo || r->base[i] > in->hi))
			snprintf(message, sizeof message,
			         "%s = %g lies outside its fitted range [%g, "
			         "%g]: every point is an extrapolation",
			         in->name, r->base[i], in->lo, in->hi);
		else
			continue;
		sf_error_at(&w, SF_OK, f->path, 0, 0, "%s", message);
		cli_warning(NULL, &w);
	}
}

/* ---- JSON -----------------------------------------------------------------
 */

static json_t *
object_or_fail(int *ok)
{
	json_t *o = json_object();

	if (o == NULL)
		*ok = 0;
	return o;
}

static json_t *
point_json(const scale_run *r, size_t k, int *ok)
{
	const sf_fitfile *f = r->f;
	const sf_sweep *w = r->table;
	const sf_prediction *p = w->pred;
	json_t *o = object_or_fail(ok), *terms = object_or_fail(ok);
	json_t *shares = object_or_fail(ok), *kinds = object_or_fail(ok);

	if (o == NULL || terms == NULL || shares == NULL || kinds == NULL) {
		json_decref(o);
		json_decref(terms);
		json_decref(shares);
		json_decref(kinds);
		return NULL;
	}
	sf_json_put(o, f->inputs[r->s.var].name, sf_json_number(w->x[k]), ok);
	sf_json_put(o, "time", sf_json_number(p->points[k].time), ok);
	sf_prediction_bands_json(o, p, k, ok);
	if (w->speedup != NULL) {
		sf_json_put(o, "speedup", sf_json_number(w->speedup[k]), ok);
		sf_json_put(o, "efficiency", sf_json_number(w->efficiency[k]),
		            ok);
	}
	if (w->cost != NULL)
		sf_json_put(o, "cost", sf_json_number(w->cost[k]), ok);
	for (size_t j = 0; j < f->nterms; j++) {
		sf_json_put(terms, f->terms[j].name,
		            sf_json_number(p->terms[j * w->n + k]), ok);
		if (f->terms[j].component)
			sf_json_put(shares, f->terms[j].name,
			            sf_json_number(w->share[j * w->n + k]), ok);
	}
	sf_json_put(shares, "rest", sf_json_number(w->rest[k]), ok);
	for (int c = SF_TERM_COMPUTE; c <= SF_TERM_OVERHEAD; c++)
		sf_json_put(kinds, sf_term_kind_name((sf_term_kind)c),
		            sf_json_number(w->kind[c * w->n + k]), ok);
	sf_json_put(o, "terms", terms, ok);
	sf_json_put(o, "shares", shares, ok);
	sf_json_put(o, "kinds", kinds, ok);
	sf_json_put(o, "extrapolated",
	            json_boolean(sf_prediction_outside(p, k)), ok);
	return o;
}

static json_t *
answers_json(const scale_run *r, int *ok)
{
	static const char *const states[] = {"unknown", "at", "never"};
	const sf_sweep_answers *a = &r->answers;
	json_t *o = object_or_fail(ok), *fastest = object_or_fail(ok);
	json_t *cross = object_or_fail(ok), *cheap = NULL;

	if (o == NULL || fastest == NULL || cross == NULL) {
		json_decref(o);
		json_decref(fastest);
		json_decref(cross);
		return NULL;
	}
	sf_json_put(o, "searched", json_integer((json_int_t)a->searched), ok);
	sf_json_put(fastest, "x", sf_json_number(a->fastest), ok);
	sf_json_put(fastest, "time", sf_json_number(a->fastest_time), ok);
	sf_json_put(fastest, "ci95",
	            sf_json_pair(a->fastest_band.lo, a->fastest_band.hi), ok);
	sf_json_put(o, "fastest", fastest, ok);
	sf_json_put(o, "efficient_up_to",
	            r->s.workers ? sf_json_number(a->efficient) : json_null(),
	            ok);
	sf_json_put(cross, "state", json_string(states[a->crossover]), ok);
	sf_json_put(cross, "x", sf_json_number(a->crossover_x), ok);
	if (a->crossover != SF_SWEEP_CROSS_NONE)
		sf_json_put(
		    cross, "first_leader",
		    json_string(a->comm_first ? "communication" : "compute"),
		    ok);
	sf_json_put(o, "crossover", cross, ok);
	if (isfinite(a->cheapest) && (cheap = object_or_fail(ok)) != NULL) {
		sf_json_put(cheap, "x", sf_json_number(a->cheapest), ok);
		sf_json_put(cheap, "cost", sf_json_number(a->cheapest_cost),
		            ok);
		sf_json_put(cheap, "time", sf_json_number(a->cheapest_time),
		            ok);
	}
	sf_json_put(o, "cheapest", cheap != NULL ? cheap : json_null(), ok);
	return o;
}

static json_t *
scale_json(const scale_run *r)
{
	const sf_fitfile *f = r->f;
	const sf_prediction *p = r->table->pred;
	json_t *root = json_object(), *fixed = json_object();
	json_t *points = json_array();
	int ok = root != NULL && fixed != NULL && points != NULL;

	if (!ok) {
		json_decref(root);
		json_decref(fixed);
		json_decref(points);
		return NULL;
	}
	sf_json_put(root, "fit", json_string(f->path), &ok);
	sf_json_put(root, "model", json_string(f->name), &ok);
	sf_json_put(root, "output", json_string(f->output), &ok);
	sf_json_put(root, "variable", json_string(f->inputs[r->s.var].name),
	            &ok);
	sf_json_put(root, "column", json_string(f->inputs[r->s.var].column),
	            &ok);
	sf_json_put(root, "workers", json_boolean(r->s.workers), &ok);
	sf_json_put(root, "spacing", json_string(r->s.log ? "log" : "linear"),
	            &ok);
	sf_json_put(root, "range", sf_json_pair(r->lo, r->hi), &ok);
	for (size_t i = 0; i < f->ninputs; i++) {
		const sf_fitfile_input *in = &f->inputs[i];

		if (i == r->s.var)
			continue;
		sf_json_put(fixed, in->name,
		            in->levels != NULL
		                ? json_string(in->levels[(size_t)r->base[i]])
		                : sf_json_number(r->base[i]),
		            &ok);
	}
	sf_json_put(root, "fixed", fixed, &ok);
	sf_json_put(root, "band",
	            json_string(p->bootstrap ? "bootstrap" : "delta"), &ok);
	sf_json_put(root, "level_percent",
	            sf_json_number(100 * SF_PREDICT_LEVEL), &ok);
	sf_json_put(root, "dof", sf_json_number(f->dof), &ok);
	sf_json_put(root, "t", sf_json_number(p->t), &ok);
	sf_json_put(root, "bootstrap_samples",
	            json_integer((json_int_t)p->boot_used), &ok);
	sf_json_put(root, "time_unit", json_string(r->unit), &ok);
	sf_json_put(root, "price", sf_json_number(r->s.price), &ok);
	for (size_t k = 0; k < r->table->n; k++)
		if (json_array_append_new(points, point_json(r, k, &ok)) != 0)
			ok = 0;
	sf_json_put(root, "points", points, &ok);
	sf_json_put(root, "answers", answers_json(r, &ok), &ok);
	if (!ok) {
		json_decref(root);
		return NULL;
	}
	return root;
}

/* ---- the chart ------------------------------------------------------------
 */

static int
same(double a, double b)
{
	return a == b || fabs(a - b) <= 1e-9 * fmax(fabs(a), fabs(b));
}

/* The measured rows whose other inputs are the sweep's fixed values. */
static size_t
measured_points(const scale_run *r, double *mx, double *my)
{
	const sf_fitfile *f = r->f;
	size_t n = 0, ni = f->ninputs;

	for (size_t m = 0; m < f->nmeasured; m++) {
		const double *in = &f->measured_inputs[m * ni];
		double x = in[r->s.var];
		int match = x >= r->lo && x <= r->hi;

		for (size_t i = 0; i < ni && match; i++)
			match = i == r->s.var || same(in[i], r->base[i]);
		if (!match)
			continue;
		mx[n] = x;
		my[n++] = f->measured[m];
	}
	return n;
}

/* 1 when a term takes no time anywhere (so it is left off the chart). */
static int
all_zero(const double *v, size_t n)
{
	for (size_t k = 0; k < n; k++)
		if (v[k] != 0)
			return 0;
	return 1;
}

static int
write_plot(const scale_run *r, const char *path, sf_error *err)
{
	const sf_fitfile *f = r->f;
	const sf_fitfile_input *in = &f->inputs[r->s.var];
	const sf_sweep_answers *a = &r->answers;
	double *x = NULL, *mx = NULL, *my = NULL, *shares = NULL;
	double *time = NULL, *lo = NULL, *hi = NULL;
	const char **names = NULL;
	sf_sweep *w = NULL;
	sf_svg *svg = NULL;
	sf_plot_scale p;
	char title[256], subtitle[512], fixed[256], xlabel[256];
	char fastest[128], cross[160], band[96];
	size_t n, ns = 0;
	int rc;

	memset(&p, 0, sizeof p);
	/* The curves are drawn smooth, through whole and fractional values
	 * alike; the answers marked on them are still whole ones. */
	if ((rc = sf_sweep_values(r->lo, r->hi, 0, r->s.log, PLOT_POINTS, &x,
	                          &n, err)) != SF_OK ||
	    (rc = sf_sweep_run(f, &r->s, x, n, &w, err)) != SF_OK)
		goto done;
	rc = SF_ENOMEM;
	mx = malloc((f->nmeasured + 1) * sizeof *mx);
	my = malloc((f->nmeasured + 1) * sizeof *my);
	shares = malloc(((f->nterms + 1) * n + 1) * sizeof *shares);
	names = calloc(f->nterms + 2, sizeof *names);
	time = malloc((n + 1) * sizeof *time);
	lo = malloc((n + 1) * sizeof *lo);
	hi = malloc((n + 1) * sizeof *hi);
	if (mx == NULL || my == NULL || shares == NULL || names == NULL ||
	    time == NULL || lo == NULL || hi == NULL) {
		sf_error_set(err, rc, "out of memory");
		goto done;
	}
	for (size_t j = 0; j < f->nterms; j++) {
		if (!f->terms[j].component || all_zero(&w->share[j * n], n))
			continue;
		names[ns] = f->terms[j].name;
		memcpy(&shares[ns++ * n], &w->share[j * n], n * sizeof *shares);
	}
	if (rest_matters(w)) {
		names[ns] = "rest";
		memcpy(&shares[ns++ * n], w->rest, n * sizeof *shares);
	}
	fixed_text(r, fixed, sizeof fixed);
	snprintf(title, sizeof title, "%.100s: predicted %.100s",
	         f->name[0] ? f->name : "fit", f->output);
	if (w->pred->bootstrap)
		snprintf(band, sizeof band, "95%% band (bootstrap, %zu)",
		         w->pred->boot_used);
	else
		snprintf(band, sizeof band, "95%% band (delta method)");
	snprintf(subtitle, sizeof subtitle, "%s%s%s over %g to %g", fixed,
	         fixed[0] ? "; " : "", in->name, r->lo, r->hi);
	if (strcmp(in->column, in->name) != 0)
		snprintf(xlabel, sizeof xlabel, "%.100s (%.100s)", in->name,
		         in->column);
	else
		snprintf(xlabel, sizeof xlabel, "%.200s", in->name);
	snprintf(fastest, sizeof fastest, "fastest: %.64s = %.6g", in->name,
	         a->fastest);
	snprintf(cross, sizeof cross, "%s from %.64s = %.6g",
	         a->comm_first ? "compute > communication"
	                       : "communication > compute",
	         in->name, a->crossover_x);
	p.title = title;
	p.subtitle = subtitle;
	p.xlabel = xlabel;
	p.ylabel = f->output;
	p.xlog = r->s.log;
	p.ylog = r->s.log;
	p.powers_of_two = r->s.integer && r->s.log;
	p.n = w->n;
	p.x = w->x;
	for (size_t k = 0; k < n; k++) {
		sf_band b = sf_prediction_band(w->pred, k);

		time[k] = w->pred->points[k].time;
		lo[k] = b.lo;
		hi[k] = b.hi;
	}
	p.time = time;
	p.lo = lo;
	p.hi = hi;
	p.band_label = band;
	p.nmeasured = measured_points(r, mx, my);
	p.mx = mx;
	p.my = my;
	p.measured_label = "measured";
	/* The least time is a sizing answer for workers only: along the
	 * data or batch size it is merely the smallest value. */
	p.fastest_x = r->s.workers ? a->fastest : NAN;
	p.fastest_time = a->fastest_time;
	p.fastest_label = fastest;
	p.crossover_x =
	    a->crossover == SF_SWEEP_CROSS_AT ? a->crossover_x : NAN;
	p.crossover_label = cross;
	p.efficiency = r->efficiency_panel ? w->efficiency : NULL;
	p.nshares = ns;
	p.share_names = names;
	p.shares = shares;
	if ((rc = sf_plot_scale_draw(&p, &svg, err)) != SF_OK)
		goto done;
	rc = sf_svg_save(svg, path, err);
done:
	sf_svg_free(svg);
	sf_sweep_free(w);
	free(x);
	free(mx);
	free(my);
	free(shares);
	free(names);
	free(time);
	free(lo);
	free(hi);
	return rc;
}

/* ---- the command ----------------------------------------------------------
 */

int
sf_command_scale(const sf_command *cmd, int argc, char **argv)
{
	scale_args a = {0};
	scale_run r = {0};
	sf_fitfile *f = NULL;
	json_t *json = NULL;
	sf_error err;
	int status;

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
	r.f = f;
	r.base = calloc(f->ninputs + 1, sizeof *r.base);
	r.given = calloc(f->ninputs + 1, 1);
	if (r.base == NULL || r.given == NULL) {
		sf_error_set(&err, SF_ENOMEM, "out of memory");
		status = cli_error(&err);
		goto done;
	}
	if ((status = set_up(cmd, &a, &r)) != SF_EXIT_OK)
		goto done;
	if (sf_sweep_run(f, &r.s, r.table_x, r.ntable, &r.table, &err) !=
	        SF_OK ||
	    sf_sweep_answer(f, &r.s, r.lo, r.hi, &r.answers, &err) != SF_OK) {
		status = cli_error(&err);
		goto done;
	}
	/* The chart first: if it cannot be written, nothing is printed. */
	if (a.plot != NULL && write_plot(&r, a.plot, &err) != SF_OK) {
		status = cli_error(&err);
		goto done;
	}
	if (!a.quiet)
		warn_extrapolation(&r);
	if (a.json) {
		if ((json = scale_json(&r)) == NULL) {
			sf_error_set(&err, SF_ENOMEM, "out of memory");
			status = cli_error(&err);
			goto done;
		}
		if (sf_report_print_json(json, stdout, &err) != SF_OK) {
			status = cli_error(&err);
			goto done;
		}
	} else {
		print_text(&r);
	}
	status = SF_EXIT_OK;
done:
	json_decref(json);
	sf_sweep_free(r.table);
	free(r.table_x);
	free(r.base);
	free(r.given);
	sf_fitfile_free(f);
	free(a.set);
	return status;
}
