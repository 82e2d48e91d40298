/*
 * setup.c - the settings of one search and the roles of the inputs
 * (setup.h), and the training rows (sf_discover_split, discover.h).
 */
#include "discover/setup.h"
#include "base/clock.h"
#include "base/suggest.h"
#include "expr/expr.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The grid of exponents and log powers when the block gives none: Extra-P's
 * PMNF choices for one parameter. */
static const double default_exponents[] = {-1,      -0.5, 0,   1.0 / 3, 0.5,
                                           2.0 / 3, 1,    1.5, 2};
static const int default_logs[] = {0, 1, 2};

int
sf_setup_stop(const sf_setup *st, size_t n)
{
	if (n >= st->budget)
		return SF_DISCOVER_STOP_BUDGET;
	if (st->time_limit > 0 &&
	    sf_clock_seconds_since(&st->start) >= st->time_limit)
		return SF_DISCOVER_STOP_TIME;
	return 0;
}

void
sf_discover_options_init(sf_discover_options *o)
{
	memset(o, 0, sizeof *o);
	sf_fit_options_init(&o->fit);
}

int
sf_discover_uses_library(const sf_model_discover *s)
{
	return s->library != 0;
}

static size_t
pick(size_t option, size_t block, size_t fallback)
{
	return option > 0 ? option : block > 0 ? block : fallback;
}

/* An error about a name: at its place in the model file when it comes
 * from there (at != NULL), else about the option what. */
static int
name_error(const sf_model *m, const sf_model_text *at, const sf_dataset *d,
           const char *what, const char *name, const char *why, sf_error *err)
{
	const char *names[64], *near = NULL;
	char list[256] = "";
	size_t n = 0;

	for (size_t i = 0; i < d->ninputs && n < 64; i++)
		if (d->inputs[i].levels == NULL) {
			names[n++] = d->inputs[i].name;
			if (list[0] != '\0')
				strncat(list, ", ",
				        sizeof list - strlen(list) - 1);
			strncat(list, d->inputs[i].name,
			        sizeof list - strlen(list) - 1);
		}
	if (why == NULL)
		near = sf_suggest_nearest(name, names, n);
	if (at != NULL)
		sf_error_at(err, SF_ENAME, m->path, at->line, at->column, "%s",
		            "");
	else
		sf_error_at(err, SF_ENAME, NULL, 0, 0, "%s", "");
	if (err == NULL)
		return SF_ENAME;
	if (why != NULL)
		snprintf(err->message, sizeof err->message, "%s: '%s' %s", what,
		         name, why);
	else if (near != NULL)
		snprintf(err->message, sizeof err->message,
		         "%s: '%s' is not an input; did you mean '%s'?", what,
		         name, near);
	else
		snprintf(err->message, sizeof err->message,
		         "%s: '%s' is not an input (the numeric inputs: %s)",
		         what, name, list);
	if (at != NULL)
		sf_error_quote(err, m->source, m->source_length);
	return SF_ENAME;
}

/* The numeric input called name: its index, or an error. */
static int
resolve_input(const sf_model *m, const sf_model_text *at, const sf_dataset *d,
              const char *what, const char *name, int *index, sf_error *err)
{
	for (size_t i = 0; i < d->ninputs; i++) {
		if (strcmp(d->inputs[i].name, name) != 0)
			continue;
		if (d->inputs[i].levels != NULL)
			return name_error(m, at, d, what, name,
			                  "is a text input: formulas need "
			                  "numbers",
			                  err);
		*index = (int)i;
		return SF_OK;
	}
	return name_error(m, at, d, what, name, NULL, err);
}

/* The numeric input called name, or -1. */
static int
numeric_input(const sf_dataset *d, const char *name)
{
	for (size_t i = 0; i < d->ninputs; i++)
		if (strcmp(d->inputs[i].name, name) == 0 &&
		    d->inputs[i].levels == NULL)
			return (int)i;
	return -1;
}

/* The numbers and grids: the options', else the block's, else the
 * defaults. */
static int
setup_settings(const sf_model *m, const sf_model_discover *s,
               const sf_discover_options *o, sf_setup *st, sf_error *err)
{
	sf_loss loss = sf_fit_loss(m, &o->fit);

	st->factors = pick(0, s->factors, SF_DISCOVER_DEFAULT_FACTORS);
	st->max_terms =
	    pick(o->max_terms, s->max_terms, SF_DISCOVER_DEFAULT_MAX_TERMS);
	st->beam = pick(o->beam, s->beam, SF_DISCOVER_DEFAULT_BEAM);
	st->budget = pick(o->budget, s->budget, SF_DISCOVER_DEFAULT_BUDGET);
	st->time_limit =
	    o->fit.time_limit > 0 ? o->fit.time_limit : m->fit.time_limit;
	sf_clock_now(&st->start);
	if (st->budget > SF_DISCOVER_MAX_BUDGET) {
		const char *why = "formulas: a search keeps every formula it "
		                  "scores, about 0.5 GB at the most";

		if (o->budget > 0)
			return sf_error_set(err, SF_EUSAGE,
			                    "--budget must be at most %d %s",
			                    SF_DISCOVER_MAX_BUDGET, why);
		sf_error_at(err, SF_EVALUE, m->path, s->line, s->column,
		            "discover.budget must be at most %d %s",
		            SF_DISCOVER_MAX_BUDGET, why);
		sf_error_quote(err, m->source, m->source_length);
		return SF_EVALUE;
	}
	st->top = pick(o->top, 0, SF_DISCOVER_DEFAULT_TOP);
	st->members = pick(o->members, 0, SF_DISCOVER_DEFAULT_MEMBERS);
	if (st->members > SF_DISCOVER_MAX_MEMBERS)
		st->members = SF_DISCOVER_MAX_MEMBERS;
	st->space.tie = s->tie >= 0 ? s->tie : SF_DISCOVER_DEFAULT_TIE;
	st->space.overlap = s->overlap >= 0 ? s->overlap : 1;
	st->space.continuous = s->continuous >= 0 ? s->continuous : 0;
	st->space.library = sf_discover_uses_library(s);
	st->loss = loss == SF_LOSS_SSE ? SF_LOSS_SSE : SF_LOSS_RELATIVE;
	if (st->max_terms > SF_DISCOVER_MAX_TERMS)
		return sf_error_set(err, SF_EUSAGE,
		                    "--max-terms must be at most %d",
		                    SF_DISCOVER_MAX_TERMS);
	if (s->nexponents > 0) {
		memcpy(st->space.exponents, s->exponents,
		       s->nexponents * sizeof *s->exponents);
		st->space.nexponents = s->nexponents;
	} else {
		st->space.nexponents =
		    sizeof default_exponents / sizeof default_exponents[0];
		memcpy(st->space.exponents, default_exponents,
		       sizeof default_exponents);
	}
	if (s->nlogs > 0) {
		memcpy(st->space.logs, s->logs, s->nlogs * sizeof *s->logs);
		st->space.nlogs = s->nlogs;
	} else {
		st->space.nlogs = sizeof default_logs / sizeof default_logs[0];
		memcpy(st->space.logs, default_logs, sizeof default_logs);
	}
	return SF_OK;
}

/* The extrapolated input: the option, the block, p, the only one. */
static int
setup_extrapolate(const sf_model *m, const sf_model_discover *s,
                  const sf_dataset *d, const sf_discover_options *o,
                  sf_setup *st, sf_error *err)
{
	st->extrap = -1;
	if (o->extrapolate != NULL)
		return resolve_input(m, NULL, d, "--extrapolate",
		                     o->extrapolate, &st->extrap, err);
	if (s->extrapolate.text != NULL)
		return resolve_input(m, &s->extrapolate, d,
		                     "discover.extrapolate",
		                     s->extrapolate.text, &st->extrap, err);
	if ((st->extrap = numeric_input(d, "p")) < 0) {
		size_t numeric = 0;
		for (size_t i = 0; i < d->ninputs; i++)
			if (d->inputs[i].levels == NULL)
				numeric++, st->extrap = (int)i;
		if (numeric != 1)
			return sf_error_at(
			    err, SF_EVALUE, m->path, 0, 0,
			    "which input do the predictions extrapolate "
			    "along? No input is called p: name one with "
			    "discover: {extrapolate: NAME} or --extrapolate");
	}
	return SF_OK;
}

/* The batch per worker and step: the block's, else an input called b;
 * and whether the workers' shapes are held to p^2 a step (growth_cap).
 * The whole steps of n / (p b) need the count and the workers too, so
 * without them there is none.  A batch that is the count or the workers
 * would make the steps 1 / p or n / p^2; one that is the extrapolated
 * input is refused as the count is, so each role is an input of its own.
 * Errors when the block names such a batch; the default's b is then
 * simply no batch. */
static int
setup_batch(const sf_model *m, const sf_model_discover *s, const sf_dataset *d,
            sf_setup *st, sf_error *err)
{
	static const char *const why[] = {
	    "is the count; the steps divide it by the workers and the batch",
	    "is the workers input; the steps divide the count by the workers "
	    "and the batch",
	    "is the extrapolated input; name the batch per worker, or none"};
	int rc, clash;

	st->batch = -1;
	if (s->batch.text == NULL) {
		st->batch = numeric_input(d, "b");
	} else if (strcmp(s->batch.text, "none") != 0 &&
	           (rc = resolve_input(m, &s->batch, d, "discover.batch",
	                               s->batch.text, &st->batch, err)) !=
	               SF_OK) {
		return rc;
	}
	clash = st->batch < 0              ? -1
	        : st->batch == st->count   ? 0
	        : st->batch == st->workers ? 1
	        : st->batch == st->extrap  ? 2
	                                   : -1;
	if (clash >= 0 && s->batch.text != NULL)
		return name_error(m, &s->batch, d, "discover.batch",
		                  s->batch.text, why[clash], err);
	/* by default the workers are data-parallel training's where a count
	 * or a batch is beside them, and their shapes are held to p^2 a step
	 * (a problem size extrapolated as Extra-P does has neither) */
	st->space.growth_cap =
	    s->growth_cap >= 0
	        ? s->growth_cap
	        : st->workers >= 0 &&
	              (st->count >= 0 || (st->batch >= 0 && clash < 0));
	if (clash >= 0 || st->count < 0 || st->workers < 0)
		st->batch = -1;
	return SF_OK;
}

/* The count (the block's, else an input called n), the workers (the
 * block's, else the extrapolated input) and the batch. */
static int
setup_roles(const sf_model *m, const sf_model_discover *s, const sf_dataset *d,
            sf_setup *st, sf_error *err)
{
	int rc;

	st->count = -1;
	if (s->count.text != NULL) {
		if (strcmp(s->count.text, "none") != 0 &&
		    (rc = resolve_input(m, &s->count, d, "discover.count",
		                        s->count.text, &st->count, err)) !=
		        SF_OK)
			return rc;
	} else {
		st->count = numeric_input(d, "n");
	}
	st->workers = st->extrap;
	if (s->workers.text != NULL) {
		st->workers = -1;
		if (strcmp(s->workers.text, "none") != 0 &&
		    (rc = resolve_input(m, &s->workers, d, "discover.workers",
		                        s->workers.text, &st->workers, err)) !=
		        SF_OK)
			return rc;
	}
	if (st->count >= 0 && st->count == st->extrap)
		return name_error(m, s->count.text ? &s->count : NULL, d,
		                  "discover.count", d->inputs[st->count].name,
		                  "is the extrapolated input; the count "
		                  "multiplies every term instead",
		                  err);
	return setup_batch(m, s, d, st, err);
}

/* The inputs factors may use: the block's list, else every numeric input
 * but the count. */
static int
setup_inputs(const sf_model *m, const sf_model_discover *s, const sf_dataset *d,
             sf_setup *st, sf_error *err)
{
	int rc;

	if ((st->use = calloc(d->ninputs + 1, sizeof *st->use)) == NULL)
		return sf_error_set(err, SF_ENOMEM, "out of memory");
	if (s->ninputs == 0) {
		for (size_t i = 0; i < d->ninputs; i++)
			st->use[i] =
			    d->inputs[i].levels == NULL && (int)i != st->count;
		return SF_OK;
	}
	for (size_t k = 0; k < s->ninputs; k++) {
		int i;
		if ((rc = resolve_input(m, &s->inputs[k], d, "discover.inputs",
		                        s->inputs[k].text, &i, err)) != SF_OK)
			return rc;
		if (i == st->count)
			return name_error(m, &s->inputs[k], d,
			                  "discover.inputs", s->inputs[k].text,
			                  "is the count, which multiplies a "
			                  "whole term",
			                  err);
		st->use[i] = 1;
	}
	return SF_OK;
}

int
sf_setup_make(const sf_model *m, const sf_model_discover *s,
              const sf_dataset *d, const sf_discover_options *o, sf_setup *st,
              sf_error *err)
{
	int rc;

	memset(st, 0, sizeof *st);
	if ((rc = setup_settings(m, s, o, st, err)) != SF_OK ||
	    (rc = setup_extrapolate(m, s, d, o, st, err)) != SF_OK ||
	    (rc = setup_roles(m, s, d, st, err)) != SF_OK)
		return rc;
	return setup_inputs(m, s, d, st, err);
}

void
sf_setup_free(sf_setup *st)
{
	free(st->use);
	st->use = NULL;
}

int
sf_discover_split(const sf_dataset *d, const char *train, sf_dataset **out,
                  size_t *held_out, sf_error *err)
{
	sf_expr_scope *scope = NULL;
	const double **columns = NULL;
	double *keep = NULL;
	size_t *rows = NULL, n = 0;
	int rc = SF_ENOMEM;

	*out = NULL;
	*held_out = 0;
	rows = malloc((d->rows + 1) * sizeof *rows);
	if (rows == NULL)
		return sf_error_set(err, SF_ENOMEM, "out of memory");
	if (train == NULL) {
		for (size_t r = 0; r < d->rows; r++)
			rows[n++] = r;
		rc = sf_dataset_select(d, rows, n, out, err);
		free(rows);
		return rc;
	}
	scope = sf_expr_scope_new();
	columns = malloc((d->ninputs + 1) * sizeof *columns);
	keep = malloc((d->rows + 1) * sizeof *keep);
	if (scope == NULL || columns == NULL || keep == NULL) {
		rc = sf_error_set(err, SF_ENOMEM, "out of memory");
		goto done;
	}
	for (size_t i = 0; i < d->ninputs; i++) {
		const sf_dataset_input *in = &d->inputs[i];

		columns[i] = in->values;
		rc = in->levels != NULL
		         ? sf_expr_scope_add_text_input(
		               scope, in->name, (const char *const *)in->levels,
		               in->nlevels, err)
		         : sf_expr_scope_add_input(scope, in->name, err);
		if (rc != SF_OK)
			goto done;
	}
	if ((rc = sf_expr_eval_columns(scope, train, columns, d->rows, keep,
	                               err)) != SF_OK)
		goto done;
	for (size_t r = 0; r < d->rows; r++)
		/* NaN (an undefined comparison) is not "true" */
		if (keep[r] != 0 && !isnan(keep[r]))
			rows[n++] = r;
	if (n == 0) {
		rc = sf_error_set(err, SF_EVALUE,
		                  "--train '%.200s' selects none of the %zu "
		                  "rows: nothing to discover from",
		                  train, d->rows);
		goto done;
	}
	*held_out = d->rows - n;
	rc = sf_dataset_select(d, rows, n, out, err);
done:
	sf_expr_scope_free(scope);
	free(columns);
	free(keep);
	free(rows);
	return rc;
}
