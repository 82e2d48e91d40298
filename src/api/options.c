/*
 * options.c - the settings handle, the table of every command's options,
 * and their values read into each run's settings with the command line's
 * messages.
 */
#include "api/options.h"
#include "api/call.h"
#include "base/number.h"
#include "base/suggest.h"
#include "input/model.h"

#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* The commands, as the bits of an option's row. */
enum {
	FIT = 1u << 0,
	VALIDATE = 1u << 1,
	COMPARE = 1u << 2,
	DISCOVER = 1u << 3,
	PREDICT = 1u << 4,
	SCALE = 1u << 5,
	NEXT = 1u << 6,
	FITTING = FIT | VALIDATE | COMPARE | DISCOVER,
	EVERY = FITTING | PREDICT | SCALE | NEXT
};

/* How many values an option takes. */
enum { NONE, ONE, MANY };

/* Every option, in the table's order. */
enum option_id {
	O_SEED,
	O_THREADS,
	O_ALGORITHM,
	O_MAX_EVALS,
	O_LOSS,
	O_LAMBDA,
	O_TIME_LIMIT,
	O_NO_POLISH,
	O_NO_SEPARABLE,
	O_SCALE,
	O_WHERE,
	O_OUTPUT_COLUMN,
	O_INPUT,
	O_BY,
	O_DETAILS,
	O_QUIET,
	O_JSON,
	O_MODEL,
	O_OUTPUT,
	O_BOOTSTRAP,
	O_RESTARTS,
	O_RESIDUALS,
	O_TRAIN,
	O_KFOLD,
	O_LOO,
	O_EXTRAPOLATE,
	O_MAX_TERMS,
	O_BEAM,
	O_BUDGET,
	O_TOP,
	O_SHAPES,
	O_MEMBERS,
	O_TO,
	O_AT,
	O_GRID,
	O_WEIGHTS,
	O_GROUP,
	O_UNIT,
	O_TIME_UNIT,
	O_OVER,
	O_SET,
	O_POINTS,
	O_LOG,
	O_LINEAR,
	O_COST,
	O_WORKERS,
	O_PANEL,
	O_PLOT,
	O_DATA,
	O_CHART,
	O_TARGET,
	O_CANDIDATES,
	O_RUNS,
	O_COUNT
};

typedef struct option {
	const char *name; /* as the command line spells it, no dashes */
	int takes;        /* NONE, ONE or MANY values */
	unsigned commands;
} option;

static const option options[O_COUNT] = {
    [O_SEED] = {"seed", ONE, FITTING},
    [O_THREADS] = {"threads", ONE, FITTING},
    [O_ALGORITHM] = {"algorithm", ONE, FITTING},
    [O_MAX_EVALS] = {"max-evals", ONE, FITTING},
    [O_LOSS] = {"loss", ONE, FITTING},
    [O_LAMBDA] = {"lambda", ONE, FITTING},
    [O_TIME_LIMIT] = {"time-limit", ONE, FITTING},
    [O_NO_POLISH] = {"no-polish", NONE, FITTING},
    [O_NO_SEPARABLE] = {"no-separable", NONE, FITTING},
    [O_SCALE] = {"scale", ONE, FITTING},
    [O_WHERE] = {"where", ONE, FITTING},
    [O_OUTPUT_COLUMN] = {"output-column", ONE, FITTING},
    [O_INPUT] = {"input", MANY, FITTING},
    [O_BY] = {"by", ONE, FITTING},
    [O_DETAILS] = {"details", NONE, FITTING},
    [O_QUIET] = {"quiet", NONE, EVERY},
    [O_JSON] = {"json", NONE, EVERY},
    [O_MODEL] = {"model", ONE, FIT | VALIDATE},
    [O_OUTPUT] = {"output", ONE, FIT | DISCOVER},
    [O_BOOTSTRAP] = {"bootstrap", ONE, FIT},
    [O_RESTARTS] = {"restarts", ONE, FIT},
    [O_RESIDUALS] = {"residuals", ONE, FIT},
    [O_TRAIN] = {"train", ONE, VALIDATE | COMPARE | DISCOVER},
    [O_KFOLD] = {"kfold", ONE, VALIDATE | COMPARE},
    [O_LOO] = {"loo", NONE, VALIDATE},
    [O_EXTRAPOLATE] = {"extrapolate", ONE, DISCOVER},
    [O_MAX_TERMS] = {"max-terms", ONE, DISCOVER},
    [O_BEAM] = {"beam", ONE, DISCOVER},
    [O_BUDGET] = {"budget", ONE, DISCOVER | NEXT},
    [O_TOP] = {"top", ONE, DISCOVER | NEXT},
    [O_SHAPES] = {"shapes", NONE, DISCOVER},
    [O_MEMBERS] = {"members", ONE, DISCOVER},
    [O_TO] = {"to", ONE, DISCOVER},
    [O_AT] = {"at", MANY, PREDICT},
    [O_GRID] = {"grid", ONE, PREDICT},
    [O_WEIGHTS] = {"weights", ONE, PREDICT | SCALE | NEXT},
    [O_GROUP] = {"group", ONE, PREDICT | SCALE},
    [O_UNIT] = {"unit", ONE, PREDICT | SCALE},
    [O_TIME_UNIT] = {"time-unit", ONE, SCALE},
    [O_OVER] = {"over", ONE, SCALE | NEXT},
    [O_SET] = {"set", MANY, SCALE | NEXT},
    [O_POINTS] = {"points", ONE, SCALE},
    [O_LOG] = {"log", NONE, SCALE},
    [O_LINEAR] = {"linear", NONE, SCALE},
    [O_COST] = {"cost", ONE, SCALE},
    [O_WORKERS] = {"workers", ONE, SCALE},
    [O_PANEL] = {"panel", ONE, SCALE},
    [O_PLOT] = {"plot", ONE, SCALE},
    [O_DATA] = {"data", ONE, SCALE},
    [O_CHART] = {"chart", NONE, SCALE},
    [O_TARGET] = {"target", ONE, NEXT},
    [O_CANDIDATES] = {"candidates", ONE, NEXT},
    [O_RUNS] = {"runs", ONE, NEXT},
};

/* ---- the settings handle ------------------------------------------------- */

typedef struct setting {
	int id;
	char *value; /* NULL for a flag */
} setting;

struct scalefit_settings {
	setting *items; /* in the order set */
	size_t count, cap;
};

int
scalefit_settings_new(scalefit_settings **out, scalefit_error *err)
{
	sf_error e;

	sf_call_clear(err);
	if ((*out = calloc(1, sizeof **out)) != NULL)
		return SCALEFIT_OK;
	sf_error_clear(&e);
	sf_error_set(&e, SF_ENOMEM, "out of memory");
	return sf_call_error(err, &e);
}

void
scalefit_settings_free(scalefit_settings *s)
{
	if (s == NULL)
		return;
	for (size_t i = 0; i < s->count; i++)
		free(s->items[i].value);
	free(s->items);
	free(s);
}

/* The option called name, or -1. */
static int
option_find(const char *name)
{
	for (int i = 0; i < O_COUNT; i++)
		if (strcmp(options[i].name, name) == 0)
			return i;
	return -1;
}

/* The nearest name of the options commands take (any when every). */
static const char *
option_nearest(const char *name, unsigned commands)
{
	const char *names[O_COUNT];
	size_t n = 0;

	for (int i = 0; i < O_COUNT; i++)
		if (options[i].commands & commands)
			names[n++] = options[i].name;
	return sf_suggest_nearest(name, names, n);
}

/* A fault of the request in err, with "; did you mean 'near'?" when
 * near is not NULL. */
static int refuse(sf_error *err, const char *near, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static int
refuse(sf_error *err, const char *near, const char *fmt, ...)
{
	char message[SF_ERROR_MESSAGE_MAX];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(message, sizeof message, fmt, ap);
	va_end(ap);
	if (near != NULL)
		return sf_run_request(err, "%s; did you mean '%s'?", message,
		                      near);
	return sf_run_request(err, "%s", message);
}

/* Remove every value of option id from s. */
static void
remove_all(scalefit_settings *s, int id)
{
	size_t kept = 0;

	for (size_t i = 0; i < s->count; i++) {
		if (s->items[i].id == id)
			free(s->items[i].value);
		else
			s->items[kept++] = s->items[i];
	}
	s->count = kept;
}

/* Check key and value against the table: the option's index, or -1
 * with err. */
static int
check_setting(const char *key, const char *value, sf_error *err)
{
	int id = option_find(key);

	if (id < 0) {
		refuse(err, option_nearest(key, EVERY), "unknown option '%s'",
		       key);
		return -1;
	}
	if (options[id].takes == NONE && value != NULL) {
		refuse(err, NULL, "option '%s' takes no value", key);
		return -1;
	}
	if (options[id].takes != NONE && value == NULL) {
		refuse(err, NULL, "option '%s' needs a value", key);
		return -1;
	}
	return id;
}

int
scalefit_settings_set(scalefit_settings *s, const char *key, const char *value,
                      scalefit_error *err)
{
	char *copy = NULL;
	sf_error e;
	int id;

	sf_error_clear(&e);
	if ((id = check_setting(key, value, &e)) < 0)
		goto fail;
	if (options[id].takes != MANY)
		remove_all(s, id);
	if (s->count == s->cap) {
		size_t cap = s->cap > 0 ? 2 * s->cap : 16;
		setting *more = realloc(s->items, cap * sizeof *more);

		if (more == NULL)
			goto nomem;
		s->items = more;
		s->cap = cap;
	}
	if (value != NULL && (copy = strdup(value)) == NULL)
		goto nomem;
	s->items[s->count].id = id;
	s->items[s->count++].value = copy;
	sf_call_clear(err);
	return SCALEFIT_OK;
nomem:
	sf_error_set(&e, SF_ENOMEM, "out of memory");
fail:
	return sf_call_error(err, &e);
}

void
scalefit_settings_unset(scalefit_settings *s, const char *key)
{
	int id = option_find(key);

	if (s != NULL && id >= 0)
		remove_all(s, id);
}

void
sf_options_free(sf_options *o)
{
	if (o == NULL)
		return;
	free(o->texts);
	memset(o, 0, sizeof *o);
}

/* ---- values, read as the command line reads them ----------------------- */

/* A whole number from lo to hi (SIZE_MAX: no limit) for --name. */
static int
read_count(const char *name, const char *text, size_t lo, size_t hi,
           size_t *out, sf_error *err)
{
	uint64_t count;

	if (sf_parse_count(text, &count) == SF_OK && count >= lo &&
	    count <= hi) {
		*out = (size_t)count;
		return SF_OK;
	}
	if (hi == SIZE_MAX)
		return sf_run_request(
		    err, "--%s needs a whole number >= %zu, not '%s'", name, lo,
		    text);
	return sf_run_request(
	    err, "--%s needs a whole number from %zu to %zu, not '%s'", name,
	    lo, hi, text);
}

/* One of the n names for what ("loss", "--unit"), a message's tail after
 * the text (" (s, ms, min or h)" or ""): its index in *k. */
static int
read_choice(const char *what, const char *text, const char *const *names,
            size_t n, const char *tail, int *k, sf_error *err)
{
	for (size_t i = 0; i < n; i++)
		if (strcmp(text, names[i]) == 0) {
			*k = (int)i;
			return SF_OK;
		}
	return refuse(err, sf_suggest_nearest(text, names, n),
	              "unknown %s '%s'%s", what, text, tail);
}

/* A number for --name: > 0, or >= 0 when zero is allowed; a bad one
 * is answered with "--NAME needs WHAT, not 'TEXT'". */
static int
read_number(const char *name, const char *what, const char *text, int zero,
            double *out, sf_error *err)
{
	if (sf_parse_double(text, out) == SF_OK &&
	    (*out > 0 || (zero && *out == 0)))
		return SF_OK;
	return sf_run_request(err, "--%s needs %s, not '%s'", name, what, text);
}

/* ---- the options every fitting command takes ---------------------------- */

/* A fit option id with value v into o: SF_OK, an error, or -1 when id is
 * not a fit option. */
static int
fit_option(int id, const char *v, sf_fit_options *o, sf_error *err)
{
	static const char *const scales[] = {"auto", "linear", "log"};
	const char *near = NULL;
	size_t count = 0;
	int k = 0, rc = SF_OK;

	switch (id) {
	case O_SEED:
		if (sf_parse_u64(v, &o->seed) != SF_OK)
			return sf_run_request(err,
			                      "--seed needs a whole number "
			                      "from 0 to 2^64-1, not '%s'",
			                      v);
		o->has_seed = 1;
		return SF_OK;
	case O_THREADS:
		rc = read_count("threads", v, 1, SF_THREADS_MAX, &count, err);
		o->threads = (int)count;
		return rc;
	case O_ALGORITHM:
		if (sf_de_algorithm_find(v, &o->algorithm, &near) != SF_OK)
			return refuse(err, near, "unknown algorithm '%s'", v);
		o->has_algorithm = 1;
		return SF_OK;
	case O_MAX_EVALS:
		return read_count("max-evals", v, 1, SIZE_MAX, &o->max_evals,
		                  err);
	case O_LOSS:
		if (sf_loss_find(v, &o->loss, &near) != SF_OK)
			return refuse(err, near, "unknown loss '%s'", v);
		o->has_loss = 1;
		return SF_OK;
	case O_LAMBDA:
		o->has_lambda = 1;
		return read_number("lambda", "a number >= 0", v, 1, &o->lambda,
		                   err);
	case O_TIME_LIMIT:
		return read_number("time-limit", "a number of seconds > 0", v,
		                   0, &o->time_limit, err);
	case O_NO_POLISH:
		o->polish = 0;
		return SF_OK;
	case O_NO_SEPARABLE:
		o->separable = 0;
		return SF_OK;
	case O_SCALE:
		rc = read_choice("scale", v, scales, 3, "", &k, err);
		o->has_scale = 1;
		o->scale = (sf_search_scale)k;
		return rc;
	default:
		return -1;
	}
}

/* Where the data options of a command go. */
typedef struct data_dest {
	sf_data_override *change; /* where, output-column, input */
	const char **by;          /* NULL: the command has no fleet */
	int *details;
} data_dest;

/* A data or fleet option id with value v into d (the "input" texts into
 * o->texts, counted by d->change): SF_OK, an error, or -1. */
static int
data_option(int id, const char *v, const data_dest *d, sf_options *o,
            sf_error *err)
{
	sf_data_override *c = d->change;

	switch (id) {
	case O_WHERE:
		c->where = v;
		return SF_OK;
	case O_OUTPUT_COLUMN:
		c->output = v;
		return SF_OK;
	case O_INPUT:
		if (c->ninputs == SF_OPTIONS_INPUTS_MAX)
			return sf_run_request(err, "at most %d --input options",
			                      SF_OPTIONS_INPUTS_MAX);
		o->texts[c->ninputs++] = v;
		c->inputs = o->texts;
		return SF_OK;
	case O_BY:
		*d->by = v;
		return SF_OK;
	case O_DETAILS:
		*d->details = 1;
		return SF_OK;
	default:
		return -1;
	}
}

/* ---- reading a command's settings ---------------------------------------- */

/* One option of a command: id with value v into the command's context. */
typedef int (*apply_fn)(void *ctx, int id, const char *v, sf_options *o,
                        sf_error *err);

static const char *
command_name(unsigned command)
{
	static const char *const names[] = {"fit",      "validate", "compare",
	                                    "discover", "predict",  "scale",
	                                    "next"};
	size_t i = 0;

	while ((command >> i) != 1)
		i++;
	return names[i];
}

/* Read every setting of s for command (one bit) through apply, after
 * the options every command takes; o->texts gets room for a text per
 * setting (the lists point into it). */
static int
read_settings(const scalefit_settings *s, unsigned command, apply_fn apply,
              void *ctx, sf_options *o, sf_error *err)
{
	size_t n = s != NULL ? s->count : 0;
	int rc;

	memset(o, 0, sizeof *o);
	if ((o->texts = calloc(n + 1, sizeof *o->texts)) == NULL)
		return sf_error_set(err, SF_ENOMEM, "out of memory");
	for (size_t i = 0; i < n; i++) {
		const setting *x = &s->items[i];
		const char *name = options[x->id].name;

		if (!(options[x->id].commands & command))
			return refuse(err, option_nearest(name, command),
			              "%s takes no option '%s'",
			              command_name(command), name);
		if (x->id == O_QUIET)
			o->quiet = 1;
		else if (x->id != O_JSON &&
		         (rc = apply(ctx, x->id, x->value, o, err)) != SF_OK)
			return rc;
	}
	return SF_OK;
}

/* ---- fit, validate, compare, discover ------------------------------------ */

/* A fit, data or fleet option id with value v into fit and data (--model
 * too, which read_settings lets only fit and validate take): SF_OK, an
 * error, or -1 when id is none of them. */
static int
fitting_option(int id, const char *v, sf_fit_options *fit, sf_run_data *data,
               sf_options *o, sf_error *err)
{
	data_dest d = {&data->change, &data->by, &data->details};
	int rc;

	if ((rc = fit_option(id, v, fit, err)) >= 0)
		return rc;
	if (id == O_MODEL) {
		data->model = v;
		return SF_OK;
	}
	return data_option(id, v, &d, o, err);
}

static int
apply_fit(void *ctx, int id, const char *v, sf_options *o, sf_error *err)
{
	sf_run_fit_settings *r = ctx;
	int rc;

	if ((rc = fitting_option(id, v, &r->options, &r->data, o, err)) >= 0)
		return rc;
	switch (id) {
	case O_OUTPUT:
		o->output = v;
		return SF_OK;
	case O_BOOTSTRAP:
		return read_count("bootstrap", v, 10, 100000, &r->bootstrap,
		                  err);
	case O_RESTARTS:
		return read_count("restarts", v, 2, 100000, &r->restarts, err);
	default: /* O_RESIDUALS */
		if (strcmp(v, "auto") == 0)
			r->residuals = SF_RESIDUALS_AUTO;
		else if (strcmp(v, "all") == 0)
			r->residuals = SF_RESIDUALS_ALL;
		else if (strcmp(v, "none") == 0)
			r->residuals = SF_RESIDUALS_NONE;
		else
			return sf_run_request(err,
			                      "--residuals takes auto, all or "
			                      "none, not '%s'",
			                      v);
		return SF_OK;
	}
}

int
sf_options_fit(const scalefit_settings *s, sf_run_fit_settings *r,
               sf_options *o, sf_error *err)
{
	return read_settings(s, FIT, apply_fit, r, o, err);
}

/* validate's settings, and how many ways of holding out were given. */
typedef struct validate_ctx {
	sf_run_validate_settings *r;
	int methods;
} validate_ctx;

static int
apply_validate(void *ctx, int id, const char *v, sf_options *o, sf_error *err)
{
	validate_ctx *c = ctx;
	sf_run_validate_settings *r = c->r;
	int rc;

	if ((rc = fitting_option(id, v, &r->options, &r->data, o, err)) >= 0)
		return rc;
	switch (id) {
	case O_TRAIN:
		r->train = v;
		break;
	case O_KFOLD:
		if ((rc = read_count("kfold", v, 2, 1000000, &r->kfold, err)) !=
		    SF_OK)
			return rc;
		break;
	default: /* O_LOO */
		r->loo = 1;
		break;
	}
	c->methods++;
	return SF_OK;
}

int
sf_options_validate(const scalefit_settings *s, sf_run_validate_settings *r,
                    sf_options *o, sf_error *err)
{
	validate_ctx c = {r, 0};
	int rc;

	if ((rc = read_settings(s, VALIDATE, apply_validate, &c, o, err)) !=
	    SF_OK)
		return rc;
	if (c.methods != 1)
		return sf_run_request(err, "validate needs exactly one of "
		                           "--train EXPR, --kfold K and --loo");
	return SF_OK;
}

static int
apply_compare(void *ctx, int id, const char *v, sf_options *o, sf_error *err)
{
	sf_run_compare_settings *r = ctx;
	int rc;

	if ((rc = fitting_option(id, v, &r->options, &r->data, o, err)) >= 0)
		return rc;
	if (id == O_TRAIN) {
		r->train = v;
		return SF_OK;
	}
	return read_count("kfold", v, 2, 1000000, &r->kfold, err);
}

int
sf_options_compare(const scalefit_settings *s, sf_run_compare_settings *r,
                   sf_options *o, sf_error *err)
{
	return read_settings(s, COMPARE, apply_compare, r, o, err);
}

/* discover's options, and its data's changes. */
typedef struct discover_ctx {
	sf_discover_options *r;
	sf_data_override *change;
} discover_ctx;

static int
apply_discover(void *ctx, int id, const char *v, sf_options *o, sf_error *err)
{
	discover_ctx *c = ctx;
	sf_discover_options *r = c->r;
	data_dest d = {c->change, &o->by, &o->details};
	int rc;

	if ((rc = fit_option(id, v, &r->fit, err)) >= 0 ||
	    (rc = data_option(id, v, &d, o, err)) >= 0)
		return rc;
	switch (id) {
	case O_TRAIN:
		r->train = v;
		return SF_OK;
	case O_EXTRAPOLATE:
		r->extrapolate = v;
		return SF_OK;
	case O_MAX_TERMS:
		return read_count("max-terms", v, 1, SF_DISCOVER_MAX_TERMS,
		                  &r->max_terms, err);
	case O_BEAM:
		return read_count("beam", v, 1, 10000, &r->beam, err);
	case O_BUDGET:
		return read_count("budget", v, 1, SF_DISCOVER_MAX_BUDGET,
		                  &r->budget, err);
	case O_TOP:
		return read_count("top", v, 1, 1000, &r->top, err);
	case O_MEMBERS:
		return read_count("members", v, 1, SF_DISCOVER_MAX_MEMBERS,
		                  &r->members, err);
	case O_TO:
		return read_number("to",
		                   "a value of the extrapolated input > 0", v,
		                   0, &r->to, err);
	case O_OUTPUT:
		o->output = v;
		return SF_OK;
	default: /* O_SHAPES */
		o->shapes = 1;
		return SF_OK;
	}
}

int
sf_options_discover(const scalefit_settings *s, sf_discover_options *r,
                    sf_data_override *change, sf_options *o, sf_error *err)
{
	discover_ctx c = {r, change};
	int rc = read_settings(s, DISCOVER, apply_discover, &c, o, err);

	r->threads = r->fit.threads;
	return rc;
}

/* ---- predict, scale, next ------------------------------------------------ */

/* --weights: how several fits are averaged. */
static int
read_weights(const char *v, sf_average_asked *w, sf_error *err)
{
	if (sf_average_asked_parse(v, w) != 0)
		return sf_run_request(
		    err,
		    "--weights is extrapolation, aicc, equal or "
		    "a weight per fit file (W1,W2,...: at most %d "
		    "numbers >= 0, not all 0), not '%s'",
		    SF_AVERAGE_MAX_GIVEN, v);
	return SF_OK;
}

static int
apply_predict(void *ctx, int id, const char *v, sf_options *o, sf_error *err)
{
	sf_run_predict_settings *r = ctx;
	int k = 0, rc;

	switch (id) {
	case O_AT:
		o->texts[r->nat++] = v;
		r->at = o->texts;
		return SF_OK;
	case O_GRID:
		r->grid = v;
		return SF_OK;
	case O_WEIGHTS:
		return read_weights(v, &r->weights, err);
	case O_GROUP:
		r->group = v;
		return SF_OK;
	default: /* O_UNIT */
		rc = read_choice("--unit", v, sf_model_units, SF_MODEL_UNITS,
		                 " (s, ms, min or h)", &k, err);
		r->unit = sf_model_units[k];
		return rc;
	}
}

int
sf_options_predict(const scalefit_settings *s, size_t nfits,
                   sf_run_predict_settings *r, sf_options *o, sf_error *err)
{
	int rc;

	(void)nfits; /* sf_run_predict checks the request against it */
	if ((rc = read_settings(s, PREDICT, apply_predict, r, o, err)) != SF_OK)
		return rc;
	r->quiet = o->quiet;
	return SF_OK;
}

/* The options of scale's study itself: into the request q. */
static int
scale_request(int id, const char *v, sf_scale_request *q, sf_options *o,
              sf_error *err)
{
	static const char *const panels[] = {"efficiency", "shares"};
	int k = 0, rc;

	switch (id) {
	case O_OVER:
		q->over = v;
		return SF_OK;
	case O_SET:
		o->texts[q->nset++] = v;
		q->set = o->texts;
		return SF_OK;
	case O_COST:
		return read_number("cost", "a price per worker-hour > 0", v, 0,
		                   &q->price, err);
	case O_UNIT:
	case O_TIME_UNIT:
		rc = read_choice("--unit", v, sf_scale_units, SF_SCALE_UNITS,
		                 " (s, ms, min or h)", &k, err);
		q->time_unit = sf_scale_units[k];
		return rc;
	case O_POINTS:
		return read_count("points", v, 2, 100000, &q->points, err);
	case O_LOG:
	case O_LINEAR:
		if (q->spacing != SF_SWEEP_AUTO)
			return sf_run_request(
			    err, "give --log or --linear, not both");
		q->spacing = id == O_LOG ? SF_SWEEP_LOG : SF_SWEEP_LINEAR;
		return SF_OK;
	case O_PANEL:
		rc = read_choice("--panel", v, panels, 2,
		                 " (efficiency or shares)", &k, err);
		q->panel =
		    k == 0 ? SF_SCALE_PANEL_EFFICIENCY : SF_SCALE_PANEL_SHARES;
		return rc;
	case O_WORKERS:
		q->workers = v;
		return SF_OK;
	default:
		return -1;
	}
}

static int
apply_scale(void *ctx, int id, const char *v, sf_options *o, sf_error *err)
{
	sf_run_scale_settings *r = ctx;
	int rc;

	if ((rc = scale_request(id, v, &r->request, o, err)) >= 0)
		return rc;
	switch (id) {
	case O_PLOT:
		r->plot = v;
		return SF_OK;
	case O_DATA:
		r->data = v;
		return SF_OK;
	case O_GROUP:
		r->group = v;
		return SF_OK;
	case O_WEIGHTS:
		return read_weights(v, &r->weights, err);
	default: /* O_CHART */
		r->chart = 1;
		o->chart = 1;
		return SF_OK;
	}
}

int
sf_options_scale(const scalefit_settings *s, sf_run_scale_settings *r,
                 sf_options *o, sf_error *err)
{
	int rc;

	if ((rc = read_settings(s, SCALE, apply_scale, r, o, err)) != SF_OK)
		return rc;
	r->quiet = o->quiet;
	if (r->request.over == NULL)
		return sf_run_request(err, "say what to sweep: --over "
		                           "NAME=LO:HI (for example --over "
		                           "p=1:1024)");
	return SF_OK;
}

static int
apply_next(void *ctx, int id, const char *v, sf_options *o, sf_error *err)
{
	sf_run_next_settings *r = ctx;

	switch (id) {
	case O_TARGET:
		r->target = v;
		return SF_OK;
	case O_OVER:
		r->over = v;
		return SF_OK;
	case O_SET:
		o->texts[r->nset++] = v;
		r->set = o->texts;
		return SF_OK;
	case O_CANDIDATES:
		r->candidates = v;
		return SF_OK;
	case O_BUDGET:
		return read_number(
		    "budget", "a cost > 0 (the output's unit times workers)", v,
		    0, &r->budget, err);
	case O_RUNS:
		return read_count("runs", v, 1, 1000, &r->runs, err);
	case O_WEIGHTS:
		return read_weights(v, &r->weights, err);
	default: /* O_TOP */
		return read_count("top", v, 1, 1000000, &r->top, err);
	}
}

int
sf_options_next(const scalefit_settings *s, sf_run_next_settings *r,
                sf_options *o, sf_error *err)
{
	int rc;

	if ((rc = read_settings(s, NEXT, apply_next, r, o, err)) != SF_OK)
		return rc;
	if (r->target == NULL)
		return sf_run_request(err, "say where the answer matters: "
		                           "--target NAME=VALUE,...");
	if ((r->over == NULL) == (r->candidates == NULL))
		return sf_run_request(err,
		                      "give the runs to choose from: --over "
		                      "NAME=LO:HI (or NAME=V1,V2,...) or "
		                      "--candidates FILE.csv, one of them");
	if (r->nset > 0 && r->over == NULL)
		return sf_run_request(err, "--set goes with --over");
	return SF_OK;
}
