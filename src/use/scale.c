/*
 * scale.c - a scaling study: its set-up from the request, its run, its
 * warnings, text pieces and JSON document.
 */
#include "use/scale.h"
#include "use/determined.h"
#include "base/sort.h"

#include "use/assign.h"
#include "use/json.h"
#include "use/report.h"
#include "use/text.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* The units, in the order of sf_scale_units. */
static const struct unit {
	const char *long_name;
	double hours;
} units[SF_SCALE_UNITS] = {
    {"seconds", 1 / 3600.0},
    {"milliseconds", 1 / 3.6e6},
    {"minutes", 1 / 60.0},
    {"hours", 1},
};

const char *const sf_scale_units[SF_SCALE_UNITS] = {"s", "ms", "min", "h"};

/* The index of unit in sf_scale_units; seconds when unknown. */
static size_t
unit_index(const char *unit)
{
	for (size_t k = 0; k < SF_SCALE_UNITS; k++)
		if (strcmp(unit, sf_scale_units[k]) == 0)
			return k;
	return 0;
}

double
sf_scale_hours_per(const char *unit)
{
	return units[unit_index(unit)].hours;
}

const char *
sf_scale_unit_name(const char *unit)
{
	return units[unit_index(unit)].long_name;
}

const char *
sf_scale_guess_unit(const char *output, int *guessed)
{
	/* Indices into sf_scale_units. */
	static const struct {
		const char *suffix;
		size_t unit;
	} suffixes[] = {{"_ms", 1},     {"_s", 0},   {"_sec", 0},
	                {"seconds", 0}, {"_min", 2}, {"minutes", 2},
	                {"_h", 3},      {"hours", 3}};
	size_t n = strlen(output);

	*guessed = 1;
	for (size_t k = 0; k < sizeof suffixes / sizeof suffixes[0]; k++) {
		size_t m = strlen(suffixes[k].suffix);
		if (n >= m &&
		    strcasecmp(output + n - m, suffixes[k].suffix) == 0)
			return sf_scale_units[suffixes[k].unit];
	}
	*guessed = 0;
	return sf_scale_units[0];
}

/* The first input named `name`, else whose name or data column starts (in
 * any case) with one of the words. */
static size_t
input_like(const sf_fitfile *f, const char *name, const char *const *words,
           size_t nwords)
{
	size_t i = sf_fitfile_input_find(f, name);

	if (i != SF_FITFILE_NONE)
		return i;
	for (i = 0; i < f->ninputs; i++)
		for (size_t w = 0; w < nwords; w++)
			if (strncasecmp(f->inputs[i].name, words[w],
			                strlen(words[w])) == 0 ||
			    strncasecmp(f->inputs[i].column, words[w],
			                strlen(words[w])) == 0)
				return i;
	return SF_FITFILE_NONE;
}

size_t
sf_scale_worker_input(const sf_fitfile *f)
{
	static const char *const words[] = {"worker", "core",    "gpu",
	                                    "node",   "machine", "proc",
	                                    "rank",   "device",  "replica"};

	return input_like(f, "p", words, sizeof words / sizeof words[0]);
}

size_t
sf_scale_batch_input(const sf_fitfile *f)
{
	static const char *const words[] = {"batch"};

	return input_like(f, "b", words, 1);
}

size_t
sf_scale_samples_input(const sf_fitfile *f)
{
	static const char *const words[] = {"sample", "image", "token",
	                                    "sequence", "example"};

	return input_like(f, "n", words, sizeof words / sizeof words[0]);
}

int
sf_scale_whole_input(const sf_fitfile *f, size_t i, int *pow2)
{
	int frexp_e;

	*pow2 = f->nmeasured > 0;
	for (size_t m = 0; m < f->nmeasured; m++) {
		double v = f->measured_inputs[m * f->ninputs + i];

		if (!isfinite(v) || v != floor(v)) {
			*pow2 = 0;
			return 0;
		}
		if (!(v >= 1) || frexp(v, &frexp_e) != 0.5)
			*pow2 = 0;
	}
	return f->nmeasured > 0;
}

void
sf_scale_free(sf_scale *sc)
{
	if (sc == NULL)
		return;
	sf_sweep_free(sc->table);
	free(sc->x);
	free(sc->base);
	free(sc);
}

/* ---- the set-up ---------------------------------------------------------- */

/* The values of a list "V1,V2,..." of input i, sorted, into sc->x. */
static int
parse_list(const sf_fitfile *f, const char *over, size_t i, char *list,
           sf_scale *sc, sf_error *err)
{
	sf_error e;
	size_t n = 1;

	for (const char *p = list; *p != '\0'; p++)
		n += *p == ',';
	if ((sc->x = calloc(n, sizeof *sc->x)) == NULL)
		return sf_error_set(err, SF_ENOMEM, "out of memory");
	for (char *p = list, *next; p != NULL; p = next) {
		if ((next = strchr(p, ',')) != NULL)
			*next++ = '\0';
		if (sf_assign_value(f, i, p, &sc->x[sc->n++], &e) != SF_OK)
			return sf_error_set(err, e.code,
			                    "--over '%s': %s (give NAME=LO:HI "
			                    "or NAME=V1,V2,...)",
			                    over, e.message);
	}
	qsort(sc->x, sc->n, sizeof *sc->x, sf_sort_compare_doubles);
	sc->listed = 1;
	sc->lo = sc->x[0];
	sc->hi = sc->x[sc->n - 1];
	return SF_OK;
}

/* --over NAME=LO:HI or NAME=V1,V2,...: the swept input and its range. */
static int
parse_over(const sf_fitfile *f, const char *over, sf_scale *sc, sf_error *err)
{
	char *name = strdup(over), *eq, *colon;
	sf_error e;
	size_t i;
	int rc = SF_OK;

	if (name == NULL)
		return sf_error_set(err, SF_ENOMEM, "out of memory");
	if ((eq = strchr(name, '=')) == NULL || eq == name) {
		rc = sf_error_set(err, SF_ESYNTAX,
		                  "--over '%s' is not NAME=LO:HI", over);
		goto done;
	}
	*eq = '\0';
	if ((i = sf_assign_input(f, name, &e)) == SF_FITFILE_NONE) {
		rc = sf_error_set(err, e.code, "--over '%s': %s", over,
		                  e.message);
		goto done;
	}
	if (f->inputs[i].levels != NULL) {
		rc = sf_error_set(err, SF_ETYPE,
		                  "--over '%s': %s is a text input; a sweep "
		                  "needs a number",
		                  over, name);
		goto done;
	}
	sc->s.var = i;
	if ((colon = strchr(eq + 1, ':')) != NULL) {
		*colon = '\0';
		if (sf_assign_value(f, i, eq + 1, &sc->lo, &e) != SF_OK ||
		    sf_assign_value(f, i, colon + 1, &sc->hi, &e) != SF_OK) {
			rc = sf_error_set(err, e.code, "--over '%s': %s", over,
			                  e.message);
			goto done;
		}
	} else if ((rc = parse_list(f, over, i, eq + 1, sc, err)) != SF_OK) {
		goto done;
	}
	if (!(sc->lo <= sc->hi))
		rc = sf_error_set(err, SF_EVALUE,
		                  "--over '%s': the range is empty (%g > %g)",
		                  over, sc->lo, sc->hi);
done:
	free(name);
	return rc;
}

/* --set, and the values of the inputs it leaves out. */
static int
parse_set(const sf_fitfile *f, const sf_scale_request *q, sf_scale *sc,
          unsigned char *given, sf_error *err)
{
	sf_error e;

	for (size_t k = 0; k < q->nset; k++)
		if (sf_assign_parse(f, q->set[k], sc->base, given, &e) != SF_OK)
			return sf_error_set(err, e.code, "--set '%s': %s",
			                    q->set[k], e.message);
	if (given[sc->s.var])
		return sf_error_set(err, SF_EUSAGE,
		                    "%s is swept by --over: leave it out of "
		                    "--set",
		                    f->inputs[sc->s.var].name);
	for (size_t i = 0; i < f->ninputs; i++) {
		const sf_fitfile_input *in = &f->inputs[i];

		if (i == sc->s.var || given[i])
			continue;
		/* An input that was constant in the fit needs no value. */
		if (in->levels == NULL && in->lo == in->hi) {
			sc->base[i] = in->lo;
			continue;
		}
		if (in->levels != NULL && in->nlevels == 1) {
			sc->base[i] = 0;
			continue;
		}
		if (in->levels != NULL)
			return sf_error_set(err, SF_EUSAGE,
			                    "no value for input %s: give --set "
			                    "%s=VALUE (it was '%s' ... '%s' in "
			                    "the fit)",
			                    in->name, in->name, in->levels[0],
			                    in->levels[in->nlevels - 1]);
		return sf_error_set(err, SF_EUSAGE,
		                    "no value for input %s: give --set "
		                    "%s=VALUE (it was fitted from %g to %g)",
		                    in->name, in->name, in->lo, in->hi);
	}
	return SF_OK;
}

/* The time's unit: the request's, else the fit's (the model's data.unit),
 * else guessed from the output's name. */
static int
choose_unit(const sf_fitfile *f, const char *unit, sf_scale *sc, sf_error *err)
{
	if (unit == NULL && f->unit != NULL)
		unit = f->unit; /* the model's data.unit */
	if (unit == NULL) {
		sc->unit = sf_scale_guess_unit(f->output, &sc->unit_guessed);
		return SF_OK;
	}
	sc->unit_declared = 1;
	for (size_t k = 0; k < SF_SCALE_UNITS; k++)
		if (strcmp(unit, sf_scale_units[k]) == 0) {
			sc->unit = sf_scale_units[k];
			return SF_OK;
		}
	return sf_error_set(err, SF_EVALUE,
	                    "unknown --unit '%s' (s, ms, min or h)", unit);
}

/* Everything after --over and --set: workers, spacing, unit, cost, panel,
 * the table's points. */
static int
settle(const sf_fitfile *f, const sf_scale_request *q, sf_scale *sc,
       sf_error *err)
{
	sf_sweep_settings *s = &sc->s;
	sf_error e;
	int rc;

	s->base = sc->base;
	s->worker_input = sf_scale_worker_input(f);
	if (q->workers != NULL && (s->worker_input = sf_assign_input(
	                               f, q->workers, &e)) == SF_FITFILE_NONE)
		return sf_error_set(err, e.code, "--workers: %s", e.message);
	s->workers = s->worker_input == s->var;
	s->integer = s->workers;
	/* Another input is whole when every fitted value of it was and the
	 * range asks for whole values (its ends, every listed value): no
	 * fractional batch, no floor() sawtooth between whole values. */
	if (!s->workers && f->inputs[s->var].levels == NULL &&
	    sf_scale_whole_input(f, s->var, &s->pow2)) {
		s->integer = sc->lo == floor(sc->lo) && sc->hi == floor(sc->hi);
		for (size_t k = 0; s->integer && k < sc->n; k++)
			s->integer = sc->x[k] == floor(sc->x[k]);
		s->pow2 = s->pow2 && s->integer && sc->lo >= 1;
	}
	s->samples_input = sf_scale_samples_input(f);
	s->throughput = !s->workers && s->var == sf_scale_batch_input(f) &&
	                s->var != s->samples_input;
	/* A list is swept as given, so every value of it is checked, not
	 * only its ends.  (For a range sc->n is still 0: its points are
	 * made below, whole when its ends are.) */
	for (size_t k = 0; s->workers && k < sc->n; k++)
		if (sc->x[k] != floor(sc->x[k]) || sc->x[k] < 1)
			return sf_error_set(
			    err, SF_EVALUE,
			    "--over '%s': %s counts workers, so its values "
			    "need to be whole numbers >= 1, not %g",
			    q->over, f->inputs[s->var].name, sc->x[k]);
	if (s->workers &&
	    (sc->lo != floor(sc->lo) || sc->hi != floor(sc->hi) || sc->lo < 1))
		return sf_error_set(err, SF_EVALUE,
		                    "--over '%s': %s counts workers, so its "
		                    "range needs whole numbers >= 1",
		                    q->over, f->inputs[s->var].name);
	if (q->spacing == SF_SWEEP_LOG && !(sc->lo > 0))
		return sf_error_set(err, SF_EVALUE,
		                    "--log needs a range above 0, not from %g",
		                    sc->lo);
	s->log = sf_sweep_is_log(sc->lo, sc->hi, q->spacing);
	if ((rc = choose_unit(f, q->time_unit, sc, err)) != SF_OK)
		return rc;
	s->hours_per_unit = sf_scale_hours_per(sc->unit);
	s->price = q->price;
	if (q->price > 0 && s->worker_input == SF_FITFILE_NONE)
		return sf_error_set(
		    err, SF_EUSAGE,
		    "--cost needs the worker count: no input is called p or "
		    "looks like one; name it with --workers NAME");
	sc->efficiency_panel = q->panel == SF_SCALE_PANEL_AUTO
	                           ? s->workers
	                           : q->panel == SF_SCALE_PANEL_EFFICIENCY;
	if (sc->efficiency_panel && !s->workers)
		return sf_error_set(err, SF_EUSAGE,
		                    "--panel efficiency needs a sweep over the "
		                    "worker count");
	if (sc->x == NULL &&
	    (rc = sf_sweep_values(sc->lo, sc->hi,
	                          !s->integer             ? SF_SWEEP_REAL
	                          : s->workers || s->pow2 ? SF_SWEEP_POW2
	                                                  : SF_SWEEP_WHOLE,
	                          s->log, q->points, &sc->x, &sc->n, &e)) !=
	        SF_OK)
		return sf_error_set(err, rc, "--over '%s': %s", q->over,
		                    e.message);
	return SF_OK;
}

int
sf_scale_new(const sf_fitfile *f, const sf_scale_request *q, sf_scale **out,
             sf_error *err)
{
	sf_scale *sc = calloc(1, sizeof *sc);
	unsigned char *given = calloc(f->ninputs + 1, 1);
	int rc = SF_ENOMEM;

	*out = NULL;
	sf_error_clear(err);
	if (sc == NULL || given == NULL ||
	    (sc->base = calloc(f->ninputs + 1, sizeof *sc->base)) == NULL) {
		sf_error_set(err, rc, "out of memory");
		goto done;
	}
	sc->f = f;
	if (q->over == NULL) {
		rc = sf_error_set(err, SF_EUSAGE,
		                  "no --over: say what to sweep");
		goto done;
	}
	if ((rc = parse_over(f, q->over, sc, err)) != SF_OK ||
	    (rc = parse_set(f, q, sc, given, err)) != SF_OK ||
	    (rc = settle(f, q, sc, err)) != SF_OK)
		goto done;
	*out = sc;
	sc = NULL;
done:
	sf_scale_free(sc);
	free(given);
	return rc;
}

int
sf_scale_run(sf_scale *sc, sf_error *err)
{
	int rc;

	sf_sweep_free(sc->table);
	sc->table = NULL;
	if ((rc = sf_sweep_run(sc->f, &sc->s, sc->x, sc->n, &sc->table, err)) !=
	    SF_OK)
		return rc;
	if ((rc = sf_sweep_answer_points(sc->f, &sc->s, sc->lo, sc->hi, sc->x,
	                                 sc->n, sc->listed, &sc->answers,
	                                 err)) != SF_OK)
		return rc;
	/* On absurd ranges or prices the answers overflow a double: an
	 * error, never an answer of inf or NaN. */
	{
		const sf_sweep_answers *a = &sc->answers;

		if (!isfinite(a->fastest) || !isfinite(a->fastest_time))
			return sf_error_set(
			    err, SF_EVALUE,
			    "the fastest %s over %g to %g is not "
			    "a finite number: narrow --over",
			    sc->f->inputs[sc->s.var].name, sc->lo, sc->hi);
		if (sc->s.throughput &&
		    (!isfinite(a->best_x) || !isfinite(a->best_throughput) ||
		     !isfinite(a->knee)))
			return sf_error_set(
			    err, SF_EVALUE,
			    "the highest throughput over %g to %g is not "
			    "a finite number: narrow --over",
			    sc->lo, sc->hi);
		if (!isnan(a->cheapest) &&
		    (!isfinite(a->cheapest) || !isfinite(a->cheapest_cost)))
			return sf_error_set(
			    err, SF_EVALUE,
			    "the least cost over %g to %g is not "
			    "a finite number: lower --cost or "
			    "narrow --over",
			    sc->lo, sc->hi);
	}
	{
		/* A point outside the formula's domain (log of a negative
		 * value): refused, never a row of NaN. */
		const char *what;
		double v;
		size_t k =
		    sf_prediction_nonfinite(sc->f, sc->table->pred, &what, &v);

		if (k < sc->table->n)
			return sf_error_set(
			    err, SF_EVALUE,
			    "at %s = %g %s%s is %s: the point lies outside the "
			    "formula's domain; narrow --over",
			    sc->f->inputs[sc->s.var].name, sc->table->x[k],
			    strcmp(what, "time") ? "term " : "the ", what,
			    isnan(v) ? "not a number" : "infinite");
	}
	return SF_OK;
}

/* ---- warnings and text ----------------------------------------------------
 */

/* Held input i (its value v) of f the fitted rows make a function of the
 * others moving with swept input x: a warning. */
static void
warn_held(const sf_fitfile *f, size_t i, double v, size_t x, sf_warn_fn warn,
          void *ctx)
{
	const char *y = f->inputs[i].name, *s = f->inputs[x].name;
	sf_error w;

	sf_error_at(&w, SF_OK, f->path, 0, 0,
	            "%s = %g is held while %s is swept, but in the fitted "
	            "rows %s is a function of the other inputs and changes "
	            "with %s, so the sweep pairs values no run paired; if %s "
	            "is computed from the others (a run's steps), declare it "
	            "derived (inputs: %s: {derived: EXPR}, scalefit-model(5)) "
	            "so that it follows %s",
	            y, v, s, y, s, y, y, s);
	warn(ctx, &w);
}

/*
 * Warn of a held input that the fitted rows make a function of the other
 * inputs and that changes with the swept one (a run's steps held while
 * its workers change: sf_determined_held); failing one, of the swept
 * input when it is such a function changing with a held one.  Either way
 * the sweep pairs values the runs never paired.
 */
static void
warn_determined(const sf_scale *sc, sf_warn_fn warn, void *ctx)
{
	const sf_fitfile *f = sc->f;
	const double *x = f->measured_inputs;
	size_t var = sc->s.var, n = f->nmeasured, k = f->ninputs, held;
	int *text = calloc(k + 1, sizeof *text), moves;
	sf_error w;

	if (text == NULL)
		return;
	for (size_t i = 0; i < k; i++)
		text[i] = f->inputs[i].levels != NULL;
	if (sf_determined_held(x, n, k, var, text, &held) == 0 && held < k)
		warn_held(f, held, sc->base[held], var, warn, ctx);
	for (size_t i = 0; i < k && held == k; i++) {
		if (i == var ||
		    sf_determined_moves(x, n, k, var, i, &moves) != 0 || !moves)
			continue;
		sf_error_at(
		    &w, SF_OK, f->path, 0, 0,
		    "%s is swept alone, but in the fitted rows it is a "
		    "function of the other inputs and changes with %s, so "
		    "the sweep pairs values no run paired; if %s is "
		    "computed from the others, declare it derived (inputs: "
		    "%s: {derived: EXPR}, scalefit-model(5))",
		    f->inputs[var].name, f->inputs[i].name, f->inputs[var].name,
		    f->inputs[var].name);
		warn(ctx, &w);
		break;
	}
	free(text);
}

void
sf_scale_warn(const sf_scale *sc, sf_warn_fn warn, void *ctx)
{
	const sf_fitfile *f = sc->f;
	sf_error w;

	for (size_t i = 0; i < f->ninputs && warn != NULL; i++) {
		const sf_fitfile_input *in = &f->inputs[i];

		if (in->levels != NULL || isnan(in->lo))
			continue;
		if (i == sc->s.var && (sc->lo < in->lo || sc->hi > in->hi))
			sf_error_at(&w, SF_OK, f->path, 0, 0,
			            "%s from %g to %g reaches outside its "
			            "fitted range [%g, %g]: the points outside "
			            "it are extrapolations",
			            in->name, sc->lo, sc->hi, in->lo, in->hi);
		else if (i != sc->s.var &&
		         (sc->base[i] < in->lo || sc->base[i] > in->hi))
			sf_error_at(
			    &w, SF_OK, f->path, 0, 0,
			    "%s = %g lies outside its fitted range [%g, "
			    "%g]: every point is an extrapolation",
			    in->name, sc->base[i], in->lo, in->hi);
		else
			continue;
		warn(ctx, &w);
	}
	if (warn != NULL && sc->f->nmeasured > 0)
		warn_determined(sc, warn, ctx);
}

void
sf_scale_fixed_text(const sf_scale *sc, char *out, size_t size)
{
	size_t used = 0;

	out[0] = '\0';
	for (size_t i = 0; i < sc->f->ninputs && used < size; i++) {
		char value[256];
		int n;

		if (i == sc->s.var)
			continue;
		sf_text_input(sc->f, i, sc->base[i], value, sizeof value);
		n = snprintf(out + used, size - used, "%s%s = %s",
		             used ? ", " : "", sc->f->inputs[i].name, value);
		used += n > 0 ? (size_t)n : 0;
	}
}

void
sf_scale_kind_terms(const sf_fitfile *f, sf_term_kind kind, char *out,
                    size_t size)
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

void
sf_scale_samples_text(const sf_scale *sc, char *out, size_t size)
{
	const sf_fitfile *f = sc->f;
	const sf_sweep_settings *s = &sc->s;

	if (s->samples_input != SF_FITFILE_NONE)
		snprintf(out, size, "%s / %s", f->inputs[s->samples_input].name,
		         f->output);
	else if (s->worker_input != SF_FITFILE_NONE)
		snprintf(out, size, "%s x %s / %s", f->inputs[s->var].name,
		         f->inputs[s->worker_input].name, f->output);
	else
		snprintf(out, size, "%s / %s", f->inputs[s->var].name,
		         f->output);
}

/* a and b equal but for rounding. */
static int
same(double a, double b)
{
	return a == b || fabs(a - b) <= 1e-9 * fmax(fabs(a), fabs(b));
}

size_t
sf_scale_measured(const sf_scale *sc, double *mx, double *my)
{
	const sf_fitfile *f = sc->f;
	size_t n = 0, ni = f->ninputs;

	for (size_t m = 0; m < f->nmeasured; m++) {
		const double *in = &f->measured_inputs[m * ni];
		double x = in[sc->s.var];
		int match = x >= sc->lo && x <= sc->hi;

		for (size_t i = 0; i < ni && match; i++)
			match = i == sc->s.var || same(in[i], sc->base[i]);
		if (!match)
			continue;
		mx[n] = x;
		my[n++] = f->measured[m];
	}
	return n;
}

/* ---- JSON ------------------------------------------------------------------
 */

/* A new object, or NULL with *ok cleared. */
static json_t *
object_or_fail(int *ok)
{
	json_t *o = json_object();

	if (o == NULL)
		*ok = 0;
	return o;
}

/* Point k of the table. */
static json_t *
point_json(const sf_scale *sc, size_t k, int *ok)
{
	const sf_fitfile *f = sc->f;
	const sf_sweep *w = sc->table;
	const sf_prediction *p = w->pred;
	json_t *o, *terms, *shares, *kinds;

	if (!sf_json_new(ok, "oooo", &o, &terms, &shares, &kinds))
		return NULL;
	sf_json_put(o, f->inputs[sc->s.var].name, sf_json_number(w->x[k]), ok);
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
	if (!f->terms_sum) {
		json_decref(shares);
		shares = json_null();
	}
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

/* {"x": x, "samples_per_second": v, "samples": "n / time"}. */
static json_t *
throughput_json(const sf_scale *sc, double x, double v, int *ok)
{
	json_t *o = object_or_fail(ok);
	char basis[256];

	if (o == NULL)
		return NULL;
	sf_scale_samples_text(sc, basis, sizeof basis);
	sf_json_put(o, "x", sf_json_number(x), ok);
	sf_json_put(o, "samples_per_second", sf_json_number(v), ok);
	sf_json_put(o, "samples", json_string(basis), ok);
	return o;
}

static json_t *
answers_json(const sf_scale *sc, int *ok)
{
	static const char *const states[] = {"unknown", "at", "never"};
	const sf_sweep_answers *a = &sc->answers;
	json_t *o, *fastest, *cross, *cheap = NULL;

	if (!sf_json_new(ok, "ooo", &o, &fastest, &cross))
		return NULL;
	sf_json_put(o, "searched", json_integer((json_int_t)a->searched), ok);
	sf_json_put(fastest, "x", sf_json_number(a->fastest), ok);
	sf_json_put(fastest, "time", sf_json_number(a->fastest_time), ok);
	sf_json_put(fastest, "ci95",
	            sf_json_pair(a->fastest_band.lo, a->fastest_band.hi), ok);
	if (sc->table->pred->interval)
		sf_json_put(o, "fastest_interval95",
		            sf_json_pair(a->fastest_interval.lo,
		                         a->fastest_interval.hi),
		            ok);
	sf_json_put(o, "fastest", fastest, ok);
	sf_json_put(o, "efficient_up_to",
	            sc->s.workers ? sf_json_number(a->efficient) : json_null(),
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
	sf_json_put(o, "highest_throughput",
	            isfinite(a->best_x)
	                ? throughput_json(sc, a->best_x, a->best_throughput, ok)
	                : json_null(),
	            ok);
	sf_json_put(o, "knee",
	            isfinite(a->knee)
	                ? throughput_json(sc, a->knee, a->knee_throughput, ok)
	                : json_null(),
	            ok);
	return o;
}

json_t *
sf_scale_json(const sf_scale *sc)
{
	const sf_fitfile *f = sc->f;
	const sf_prediction *p = sc->table->pred;
	json_t *root, *fixed, *points;
	int ok = 1;

	if (!sf_json_new(&ok, "ooa", &root, &fixed, &points))
		return NULL;
	sf_json_put(root, "fit", json_string(f->path), &ok);
	sf_json_put(root, "model", json_string(f->name), &ok);
	sf_json_put(root, "output", json_string(f->output), &ok);
	sf_json_put(root, "variable", json_string(f->inputs[sc->s.var].name),
	            &ok);
	sf_json_put(root, "column", json_string(f->inputs[sc->s.var].column),
	            &ok);
	sf_json_put(root, "workers", json_boolean(sc->s.workers), &ok);
	sf_json_put(root, "spacing", json_string(sc->s.log ? "log" : "linear"),
	            &ok);
	sf_json_put(root, "range", sf_json_pair(sc->lo, sc->hi), &ok);
	for (size_t i = 0; i < f->ninputs; i++) {
		const sf_fitfile_input *in = &f->inputs[i];

		if (i == sc->s.var)
			continue;
		sf_json_put(fixed, in->name,
		            in->levels != NULL
		                ? json_string(in->levels[(size_t)sc->base[i]])
		                : sf_json_number(sc->base[i]),
		            &ok);
	}
	sf_json_put(root, "fixed", fixed, &ok);
	sf_json_put(root, "band",
	            json_string(p->bootstrap ? "bootstrap" : "delta"), &ok);
	sf_prediction_level_json(root, f, p, &ok);
	sf_json_put(root, "time_unit", json_string(sc->unit), &ok);
	sf_json_put(root, "time_is_sum_of_terms", json_boolean(f->terms_sum),
	            &ok);
	if (!f->terms_sum)
		sf_json_put(root, "note", json_string(SF_SCALE_NOT_SUM), &ok);
	sf_json_put(root, "price", sf_json_number(sc->s.price), &ok);
	for (size_t k = 0; k < sc->table->n; k++)
		if (json_array_append_new(points, point_json(sc, k, &ok)) != 0)
			ok = 0;
	sf_json_put(root, "points", points, &ok);
	sf_json_put(root, "answers", answers_json(sc, &ok), &ok);
	return sf_json_done(root, ok);
}

/* A measured point of a curve: its swept value and time. */
typedef struct point {
	double x, y;
} point;

static int
compare_points(const void *a, const void *b)
{
	const point *p = a, *q = b;

	if (p->x != q->x)
		return p->x < q->x ? -1 : 1;
	return p->y < q->y ? -1 : p->y > q->y;
}

/* Drop from the *n points (hx, hy) those that are rows the fit measured
 * (the same swept value and time on the study's curve): a data file that
 * holds the fitted rows too draws only the others as not fitted.  Sorted
 * and searched, so a large file costs n log n.  SF_OK or SF_ENOMEM. */
static int
drop_fitted(const sf_scale *sc, double *hx, double *hy, size_t *n,
            sf_error *err)
{
	size_t nf = sc->f->nmeasured, m = 0;
	double *mx = malloc((nf + 1) * sizeof *mx);
	double *my = malloc((nf + 1) * sizeof *my);
	point *fitted = malloc((nf + 1) * sizeof *fitted);

	if (mx == NULL || my == NULL || fitted == NULL) {
		free(mx);
		free(my);
		free(fitted);
		return sf_error_set(err, SF_ENOMEM, "out of memory");
	}
	nf = sf_scale_measured(sc, mx, my);
	for (size_t k = 0; k < nf; k++)
		fitted[k] = (point){mx[k], my[k]};
	qsort(fitted, nf, sizeof *fitted, compare_points);
	for (size_t k = 0; k < *n; k++) {
		point key = {hx[k], hy[k]};

		if (nf > 0 && bsearch(&key, fitted, nf, sizeof *fitted,
		                      compare_points) != NULL)
			continue;
		hx[m] = hx[k];
		hy[m++] = hy[k];
	}
	*n = m;
	free(mx);
	free(my);
	free(fitted);
	return SF_OK;
}

int
sf_scale_held_out(const sf_scale *sc, const sf_table *t,
                  const unsigned char *keep, double **hx, double **hy,
                  size_t *n, sf_error *err)
{
	const sf_fitfile *f = sc->f;
	const size_t ni = f->ninputs, rows = sf_table_rows(t);
	size_t out = sf_table_column_find(t, f->output), m = 0;
	double **cols = NULL;
	int rc;

	*hx = *hy = NULL;
	*n = 0;
	if (out == SF_CSV_NONE)
		return sf_error_set(err, SF_ENAME,
		                    "the data has no column '%s' (the fit's "
		                    "output) to plot",
		                    f->output);
	if (sf_table_column_kind(t, out) != SF_CSV_NUMERIC)
		return sf_error_set(err, SF_ETYPE,
		                    "column '%s' holds text, not times",
		                    f->output);
	if ((rc = sf_assign_table(f, t, &cols, err)) != SF_OK)
		return rc;
	*hx = malloc((rows + 1) * sizeof **hx);
	*hy = malloc((rows + 1) * sizeof **hy);
	if (*hx == NULL || *hy == NULL) {
		free(*hx);
		free(*hy);
		*hx = *hy = NULL;
		sf_assign_columns_free(cols, ni);
		return sf_error_set(err, SF_ENOMEM, "out of memory");
	}
	for (size_t r = 0; r < rows; r++) {
		double x = cols[sc->s.var][r];
		double y = sf_table_column_values(t, out)[r];
		int match = x >= sc->lo && x <= sc->hi && isfinite(y) &&
		            (keep == NULL || keep[r]);

		for (size_t i = 0; i < ni && match; i++)
			match = i == sc->s.var || same(cols[i][r], sc->base[i]);
		if (!match)
			continue;
		(*hx)[m] = x;
		(*hy)[m++] = y;
	}
	sf_assign_columns_free(cols, ni);
	if ((rc = drop_fitted(sc, *hx, *hy, &m, err)) != SF_OK) {
		free(*hx);
		free(*hy);
		*hx = *hy = NULL;
		return rc;
	}
	*n = m;
	return SF_OK;
}

int
sf_scale_share_points(sf_scale *const *sc, size_t n, sf_error *err)
{
	for (size_t j = 1; j < n; j++) {
		double *x = malloc((sc[0]->n + 1) * sizeof *x);

		if (x == NULL)
			return sf_error_set(err, SF_ENOMEM, "out of memory");
		memcpy(x, sc[0]->x, sc[0]->n * sizeof *x);
		free(sc[j]->x);
		sc[j]->x = x;
		sc[j]->n = sc[0]->n;
		sc[j]->listed = sc[0]->listed;
	}
	return SF_OK;
}

void
sf_scale_label(const sf_scale *const *sc, size_t n, size_t k, char *out,
               size_t size)
{
	const sf_fitfile *f = sc[k]->f;
	int twin = f->name[0] == '\0';

	for (size_t j = 0; j < n && !twin; j++)
		twin = j != k && strcmp(sc[j]->f->name, f->name) == 0;
	if (!twin)
		snprintf(out, size, "%s", f->name);
	else if (f->name[0] != '\0')
		snprintf(out, size, "%s (%s)", f->name, f->path);
	else
		snprintf(out, size, "%s", f->path);
}
