/*
 * model.c - loading model files (YAML) into sf_model.
 *
 * This file checks the schema of scalefit-model(5) by hand, on the YAML
 * document input/schema.h opens: each mapping's keys against the table of
 * keys it may hold, each scalar against the type it must have, through
 * schema.h's typed access, which names every error's FILE:LINE:COL
 * (1-based, byte columns) and quotes the line; the fit: block is
 * input/settings.c's.  The tree is freed before returning, so no libyaml
 * memory outlives the loader; the model keeps a copy of the text to quote
 * errors found later (in formulas, by the expression engine).
 */
#include "input/model.h"
#include "input/schema.h"
#include "expr/expr.h"
#include "base/file.h"
#include "base/suggest.h"
#include "base/text.h"
#include "base/units.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The state of one load; its flags are enum sf_model_flag. */
typedef sf_schema loader;

/* Copy a non-empty scalar with its position into *t. */
static int
get_formula(loader *ld, const yaml_node_t *node, const char *what,
            sf_model_text *t)
{
	const char *text;
	sf_schema_position p;
	int rc = sf_schema_text(ld, node, what, &text);

	if (rc != SF_OK)
		return rc;
	while (isspace((unsigned char)*text))
		text++;
	if (*text == '\0')
		return sf_schema_fail(ld, node, SF_ESYNTAX, "%s is empty",
		                      what);
	p = sf_schema_at(ld, node);
	free(t->text);
	t->text = sf_text_dup(sf_schema_scalar(node));
	if (t->text == NULL)
		return sf_schema_oom(ld);
	t->line = p.line;
	t->column = p.column;
	t->offset = p.offset;
	t->end = sf_schema_mark(ld, node->end_mark).offset;
	return SF_OK;
}

/* ---- sections --------------------------------------------------------- */

static int
load_data(loader *ld, const yaml_node_t *node, sf_model *m)
{
	static const char *const keys[] = {"file",   "where", "output",
	                                   "weight", "unit",  "by"};
	yaml_node_t *v;
	int rc, unit;

	if ((rc = sf_schema_expect(ld, node, YAML_MAPPING_NODE, "data")) !=
	        SF_OK ||
	    (rc = sf_schema_keys(ld, node, "data", keys, 6)) != SF_OK)
		return rc;
	if ((v = sf_schema_get(ld, node, "by")) != NULL &&
	    (rc = get_formula(ld, v, "data.by", &m->by)) != SF_OK)
		return rc;
	if ((v = sf_schema_get(ld, node, "unit")) != NULL) {
		if ((rc = sf_schema_choice(ld, v, "data.unit", sf_model_units,
		                           SF_MODEL_UNITS, &unit)) != SF_OK)
			return rc;
		m->unit = sf_model_units[unit];
	}
	if ((v = sf_schema_get(ld, node, "file")) != NULL &&
	    ((rc = get_formula(ld, v, "data.file", &m->data_file_at)) !=
	         SF_OK ||
	     (rc = sf_schema_refuse_control(ld, v, "data.file",
	                                    m->data_file_at.text, 0)) != SF_OK))
		return rc;
	if ((v = sf_schema_get(ld, node, "where")) != NULL &&
	    (rc = get_formula(ld, v, "data.where", &m->where)) != SF_OK)
		return rc;
	if ((v = sf_schema_get(ld, node, "output")) != NULL &&
	    (rc = get_formula(ld, v, "data.output", &m->output)) != SF_OK)
		return rc;
	if ((v = sf_schema_get(ld, node, "weight")) != NULL) {
		if ((rc = get_formula(ld, v, "data.weight", &m->weight)) !=
		    SF_OK)
			return rc;
		m->fit.weighting = SF_WEIGHTS_COLUMN;
	}
	return SF_OK;
}

/* A section whose keys are names the user chooses (inputs, parameters,
 * terms): each must be an identifier, given once. */
static int
check_names(loader *ld, const yaml_node_t *map, const char *section)
{
	yaml_node_pair_t *pair;
	int rc = sf_schema_expect(ld, map, YAML_MAPPING_NODE, section);

	if (rc != SF_OK ||
	    (rc = sf_schema_keys(ld, map, section, NULL, 0)) != SF_OK)
		return rc;
	for (pair = map->data.mapping.pairs.start;
	     pair < map->data.mapping.pairs.top; pair++) {
		yaml_node_t *key = sf_schema_node(ld, pair->key);
		if (!sf_expr_is_name(sf_schema_scalar(key)))
			return sf_schema_fail(
			    ld, key, SF_ENAME,
			    "'%s' is not a valid name in %s: use letters, "
			    "digits and '_', not starting with a digit",
			    sf_schema_scalar(key), section);
	}
	return SF_OK;
}

/* An input's value into in: a column or an expression, or {derived:
 * EXPR}, an expression of the other inputs. */
static int
load_input_value(loader *ld, const yaml_node_t *value, const char *what,
                 sf_model_input *in)
{
	static const char *const keys[] = {"derived"};
	const yaml_node_t *derived;
	int rc;

	in->derived = 0;
	if (value->type != YAML_MAPPING_NODE)
		return get_formula(ld, value, what, &in->expr);
	if ((rc = sf_schema_keys(ld, value, what, keys, 1)) != SF_OK)
		return rc;
	if ((derived = sf_schema_get(ld, value, "derived")) == NULL)
		return sf_schema_fail(ld, value, SF_ESYNTAX,
		                      "%s is a column or an expression of "
		                      "columns, or {derived: EXPR}, an "
		                      "expression of the other inputs",
		                      what);
	in->derived = 1;
	return get_formula(ld, derived, what, &in->expr);
}

/* inputs: may be given at the top of a models: file and in each model;
 * a model's own entries replace shared ones of the same name. */
static int
load_inputs(loader *ld, const yaml_node_t *node, sf_model *m)
{
	yaml_node_pair_t *pair;
	sf_model_input *grown;
	int rc = check_names(ld, node, "inputs");

	if (rc != SF_OK)
		return rc;
	grown = realloc(m->inputs, (m->ninputs + sf_schema_pairs(node) + 1) *
	                               sizeof *grown);
	if (grown == NULL)
		return sf_schema_oom(ld);
	m->inputs = grown;
	for (pair = node->data.mapping.pairs.start;
	     pair < node->data.mapping.pairs.top; pair++) {
		const char *name =
		    sf_schema_scalar(sf_schema_node(ld, pair->key));
		sf_model_input *in = NULL;
		char what[160];

		for (size_t i = 0; i < m->ninputs && in == NULL; i++)
			if (strcmp(m->inputs[i].name, name) == 0)
				in = &m->inputs[i];
		if (in == NULL) {
			in = &m->inputs[m->ninputs++];
			memset(in, 0, sizeof *in);
			if ((in->name = sf_text_dup(name)) == NULL)
				return sf_schema_oom(ld);
		}
		{
			sf_schema_position at =
			    sf_schema_at(ld, sf_schema_node(ld, pair->key));
			in->line = at.line;
			in->column = at.column;
		}
		snprintf(what, sizeof what, "input '%s'", name);
		rc = load_input_value(ld, sf_schema_node(ld, pair->value), what,
		                      in);
		if (rc != SF_OK)
			return rc;
	}
	return SF_OK;
}

/* The derived inputs of m moved to the front of its terms (kind other,
 * derived), in their order: a derived input is computed as a term. */
static int
move_derived(loader *ld, sf_model *m)
{
	size_t nd = 0, kept = 0;
	sf_model_term *terms;

	for (size_t i = 0; i < m->ninputs; i++)
		nd += m->inputs[i].derived;
	if (nd == 0)
		return SF_OK;
	if ((terms = calloc(m->nterms + nd + 1, sizeof *terms)) == NULL)
		return sf_schema_oom(ld);
	for (size_t i = 0, t = 0; i < m->ninputs; i++) {
		sf_model_input *in = &m->inputs[i];

		if (!in->derived) {
			m->inputs[kept++] = *in;
			continue;
		}
		terms[t].name = in->name;
		terms[t].line = in->line;
		terms[t].column = in->column;
		terms[t].expr = in->expr;
		terms[t].kind = SF_TERM_OTHER;
		terms[t++].derived = 1;
	}
	m->ninputs = kept;
	if (m->nterms > 0)
		memcpy(terms + nd, m->terms, m->nterms * sizeof *terms);
	free(m->terms);
	m->terms = terms;
	m->nterms += nd;
	return SF_OK;
}

static int
load_param(loader *ld, const yaml_node_t *key, const yaml_node_t *value,
           sf_model_param *p)
{
	static const char *const keys[] = {"min", "max", "value", "init"};
	yaml_node_t *lo, *hi, *fixed, *init;
	char what[160];
	sf_schema_position at = sf_schema_at(ld, key);
	int rc;

	p->line = at.line;
	p->column = at.column;
	if (value->type == YAML_SCALAR_NODE) {
		/* `name: 1.5` is shorthand for `name: {value: 1.5}`. */
		snprintf(what, sizeof what, "the value of parameter '%s'",
		         p->name);
		p->fixed = 1;
		return sf_schema_number(ld, value, what, &p->value);
	}
	snprintf(what, sizeof what, "parameter '%s'", p->name);
	if ((rc = sf_schema_expect(ld, value, YAML_MAPPING_NODE, what)) !=
	        SF_OK ||
	    (rc = sf_schema_keys(ld, value, what, keys, 4)) != SF_OK)
		return rc;
	lo = sf_schema_get(ld, value, "min");
	hi = sf_schema_get(ld, value, "max");
	fixed = sf_schema_get(ld, value, "value");
	init = sf_schema_get(ld, value, "init");
	if (fixed != NULL) {
		if (lo != NULL || hi != NULL || init != NULL)
			return sf_schema_fail(
			    ld,
			    lo != NULL   ? lo
			    : hi != NULL ? hi
			                 : init,
			    SF_EVALUE,
			    "parameter '%s' has a fixed value, so it takes "
			    "no min, max or init",
			    p->name);
		snprintf(what, sizeof what, "the value of parameter '%s'",
		         p->name);
		p->fixed = 1;
		return sf_schema_number(ld, fixed, what, &p->value);
	}
	if (lo == NULL || hi == NULL)
		return sf_schema_fail(
		    ld, key, SF_EVALUE,
		    "parameter '%s' is fitted, so it needs "
		    "finite bounds: give both min and max (or "
		    "value: for a fixed constant)",
		    p->name);
	snprintf(what, sizeof what, "the min of parameter '%s'", p->name);
	if ((rc = sf_schema_number(ld, lo, what, &p->min)) != SF_OK)
		return rc;
	snprintf(what, sizeof what, "the max of parameter '%s'", p->name);
	if ((rc = sf_schema_number(ld, hi, what, &p->max)) != SF_OK)
		return rc;
	if (p->min > p->max)
		return sf_schema_fail(
		    ld, hi, SF_EVALUE, "parameter '%s' has min %s > max %s",
		    p->name, sf_schema_scalar(lo), sf_schema_scalar(hi));
	if (p->min == p->max)
		return sf_schema_fail(
		    ld, hi, SF_EVALUE,
		    "parameter '%s' has min = max = %s: write "
		    "value: %s for a fixed constant",
		    p->name, sf_schema_scalar(lo), sf_schema_scalar(lo));
	/* The search draws from max - min: it must be a finite double, or
	 * fit fails where check passed. */
	if (!isfinite(p->max - p->min))
		return sf_schema_fail(
		    ld, hi, SF_EVALUE,
		    "parameter '%s' has bounds [%s, %s] too far "
		    "apart: max - min must be below 1.7e308",
		    p->name, sf_schema_scalar(lo), sf_schema_scalar(hi));
	if (init != NULL) {
		snprintf(what, sizeof what, "the init of parameter '%s'",
		         p->name);
		if ((rc = sf_schema_number(ld, init, what, &p->init)) != SF_OK)
			return rc;
		if (p->init < p->min || p->init > p->max)
			return sf_schema_fail(
			    ld, init, SF_EVALUE,
			    "the init of parameter '%s' (%s) is "
			    "outside its bounds [%s, %s]",
			    p->name, sf_schema_scalar(init),
			    sf_schema_scalar(lo), sf_schema_scalar(hi));
		p->has_init = 1;
	}
	return SF_OK;
}

static int
load_parameters(loader *ld, const yaml_node_t *node, sf_model *m)
{
	yaml_node_pair_t *pair;
	int rc = check_names(ld, node, "parameters");

	if (rc != SF_OK)
		return rc;
	m->params = calloc(sf_schema_pairs(node) + 1, sizeof *m->params);
	if (m->params == NULL)
		return sf_schema_oom(ld);
	for (pair = node->data.mapping.pairs.start;
	     pair < node->data.mapping.pairs.top; pair++) {
		yaml_node_t *key = sf_schema_node(ld, pair->key);
		sf_model_param *p = &m->params[m->nparams++];

		if ((p->name = sf_text_dup(sf_schema_scalar(key))) == NULL)
			return sf_schema_oom(ld);
		rc = load_param(ld, key, sf_schema_node(ld, pair->value), p);
		if (rc != SF_OK)
			return rc;
	}
	return SF_OK;
}

/* A term's kind from words in its name, when no `kind:` is given. */
sf_term_kind
sf_term_kind_guess(const char *name)
{
	static const struct {
		const char *word;
		sf_term_kind kind;
	} words[] = {
	    {"comm", SF_TERM_COMMUNICATION},
	    {"allreduce", SF_TERM_COMMUNICATION},
	    {"sync", SF_TERM_COMMUNICATION},
	    {"network", SF_TERM_COMMUNICATION},
	    {"comp", SF_TERM_COMPUTE},
	    {"forward", SF_TERM_COMPUTE},
	    {"backward", SF_TERM_COMPUTE},
	    {"io", SF_TERM_IO},
	    {"read", SF_TERM_IO},
	    {"load", SF_TERM_IO},
	    {"overhead", SF_TERM_OVERHEAD},
	    {"setup", SF_TERM_OVERHEAD},
	    {"startup", SF_TERM_OVERHEAD},
	};
	char lower[64];

	sf_text_lower(name, lower, sizeof lower);
	for (size_t i = 0; i < sizeof words / sizeof words[0]; i++)
		if (strncmp(lower, words[i].word, strlen(words[i].word)) == 0)
			return words[i].kind;
	return SF_TERM_OTHER;
}

static const char *const term_kind_names[] = {
    [SF_TERM_OTHER] = "other",
    [SF_TERM_COMPUTE] = "compute",
    [SF_TERM_COMMUNICATION] = "communication",
    [SF_TERM_IO] = "io",
    [SF_TERM_OVERHEAD] = "overhead",
};

static int
load_terms(loader *ld, const yaml_node_t *node, sf_model *m)
{
	static const char *const keys[] = {"expr", "kind"};
	yaml_node_pair_t *pair;
	int rc = check_names(ld, node, "terms");

	if (rc != SF_OK)
		return rc;
	m->terms = calloc(sf_schema_pairs(node) + 1, sizeof *m->terms);
	if (m->terms == NULL)
		return sf_schema_oom(ld);
	for (pair = node->data.mapping.pairs.start;
	     pair < node->data.mapping.pairs.top; pair++) {
		yaml_node_t *key = sf_schema_node(ld, pair->key);
		yaml_node_t *value = sf_schema_node(ld, pair->value), *expr,
		            *kind;
		sf_model_term *t = &m->terms[m->nterms++];
		sf_schema_position at = sf_schema_at(ld, key);
		char what[160];

		t->line = at.line;
		t->column = at.column;
		if ((t->name = sf_text_dup(sf_schema_scalar(key))) == NULL)
			return sf_schema_oom(ld);
		snprintf(what, sizeof what, "term '%s'", t->name);
		t->kind = sf_term_kind_guess(t->name);
		if (value->type != YAML_MAPPING_NODE) {
			rc = get_formula(ld, value, what, &t->expr);
			if (rc != SF_OK)
				return rc;
			continue;
		}
		if ((rc = sf_schema_keys(ld, value, what, keys, 2)) != SF_OK)
			return rc;
		if ((expr = sf_schema_get(ld, value, "expr")) == NULL)
			return sf_schema_fail(ld, value, SF_ESYNTAX,
			                      "term '%s' has no expr", t->name);
		if ((rc = get_formula(ld, expr, what, &t->expr)) != SF_OK)
			return rc;
		if ((kind = sf_schema_get(ld, value, "kind")) != NULL) {
			int k;
			rc = sf_schema_choice(ld, kind, "term kind",
			                      term_kind_names, 5, &k);
			if (rc != SF_OK)
				return rc;
			t->kind = (sf_term_kind)k;
		}
	}
	return SF_OK;
}

/* ---- discover --------------------------------------------------------- */

static void free_text(sf_model_text *t);

static void
discover_default(sf_model_discover *d)
{
	memset(d, 0, sizeof *d);
	d->overlap = -1;
	d->continuous = -1;
	d->library = -1;
	d->growth_cap = -1;
	d->tie = -1;
}

static void
discover_free(sf_model_discover *d)
{
	free_text(&d->extrapolate);
	free_text(&d->count);
	free_text(&d->workers);
	free_text(&d->batch);
	for (size_t i = 0; i < d->ninputs; i++)
		free_text(&d->inputs[i]);
	d->ninputs = 0;
}

/* An input's name, or "none" where none_ok. */
static int
get_input_name(loader *ld, const yaml_node_t *node, const char *what,
               int none_ok, sf_model_text *t)
{
	int rc = get_formula(ld, node, what, t);

	if (rc != SF_OK)
		return rc;
	if (sf_expr_is_name(t->text) && (none_ok || strcmp(t->text, "none")))
		return SF_OK;
	return sf_schema_fail(ld, node, SF_EVALUE,
	                      "%s must be the name of an input%s, not '%s'",
	                      what, none_ok ? " or none" : "", t->text);
}

/* The items of a non-empty list of at most SF_DISCOVER_MAX_LIST. */
static int
get_list(loader *ld, const yaml_node_t *node, const char *what,
         yaml_node_item_t **items, size_t *n)
{
	int rc = sf_schema_expect(ld, node, YAML_SEQUENCE_NODE, what);

	if (rc != SF_OK)
		return rc;
	*items = node->data.sequence.items.start;
	*n = (size_t)(node->data.sequence.items.top - *items);
	if (*n == 0)
		return sf_schema_fail(ld, node, SF_EVALUE, "%s is empty", what);
	if (*n > SF_DISCOVER_MAX_LIST)
		return sf_schema_fail(ld, node, SF_EVALUE,
		                      "%s has %zu items; at most %d", what, *n,
		                      SF_DISCOVER_MAX_LIST);
	return SF_OK;
}

static int
load_discover_lists(loader *ld, const yaml_node_t *node, sf_model_discover *d)
{
	yaml_node_item_t *items;
	yaml_node_t *v;
	size_t n;
	int rc;

	if ((v = sf_schema_get(ld, node, "inputs")) != NULL) {
		if ((rc = get_list(ld, v, "discover.inputs", &items, &n)) !=
		    SF_OK)
			return rc;
		for (size_t i = 0; i < n; i++) {
			yaml_node_t *item = sf_schema_node(ld, items[i]);

			rc = get_input_name(ld, item, "each of discover.inputs",
			                    0, &d->inputs[d->ninputs++]);
			if (rc != SF_OK)
				return rc;
			for (size_t j = 0; j < i; j++)
				if (!strcmp(d->inputs[j].text,
				            d->inputs[i].text))
					return sf_schema_fail(
					    ld, item, SF_ENAME,
					    "discover.inputs names '%s' twice",
					    d->inputs[i].text);
		}
	}
	if ((v = sf_schema_get(ld, node, "exponents")) != NULL) {
		if ((rc = get_list(ld, v, "discover.exponents", &items, &n)) !=
		    SF_OK)
			return rc;
		for (size_t i = 0; i < n; i++) {
			yaml_node_t *item = sf_schema_node(ld, items[i]);
			double *e = &d->exponents[i];

			if ((rc = sf_schema_number_in(ld, item, "an exponent",
			                              -SF_DISCOVER_MAX_EXPONENT,
			                              SF_DISCOVER_MAX_EXPONENT,
			                              e)) != SF_OK)
				return rc;
			for (size_t j = 0; j < i; j++)
				if (d->exponents[j] == *e)
					return sf_schema_fail(
					    ld, item, SF_EVALUE,
					    "discover.exponents has %s "
					    "twice",
					    sf_schema_scalar(item));
		}
		d->nexponents = n;
	}
	if ((v = sf_schema_get(ld, node, "logs")) != NULL) {
		if ((rc = get_list(ld, v, "discover.logs", &items, &n)) !=
		    SF_OK)
			return rc;
		if (n > SF_DISCOVER_MAX_LOG + 1)
			return sf_schema_fail(
			    ld, v, SF_EVALUE,
			    "discover.logs has %zu items; the "
			    "powers of log2 are 0 to %d",
			    n, SF_DISCOVER_MAX_LOG);
		for (size_t i = 0; i < n; i++) {
			yaml_node_t *item = sf_schema_node(ld, items[i]);
			size_t j;

			if ((rc = sf_schema_count(ld, item, "a power of log2",
			                          0, &j)) != SF_OK)
				return rc;
			if (j > SF_DISCOVER_MAX_LOG)
				return sf_schema_fail(
				    ld, item, SF_EVALUE,
				    "a power of log2 must be 0 "
				    "to %d, not %s",
				    SF_DISCOVER_MAX_LOG,
				    sf_schema_scalar(item));
			for (size_t k = 0; k < i; k++)
				if (d->logs[k] == (int)j)
					return sf_schema_fail(
					    ld, item, SF_EVALUE,
					    "discover.logs has %zu twice", j);
			d->logs[i] = (int)j;
		}
		d->nlogs = n;
	}
	return SF_OK;
}

/* discover: how scalefit discover searches (scalefit-model(5)). */
static int
load_discover(loader *ld, const yaml_node_t *node, sf_model_discover *d)
{
	static const char *const keys[] = {
	    "extrapolate", "count",     "workers",    "batch",
	    "inputs",      "exponents", "logs",       "factors",
	    "max_terms",   "beam",      "budget",     "overlap",
	    "continuous",  "library",   "growth_cap", "tie"};
	const size_t nkeys = sizeof keys / sizeof keys[0];
	sf_schema_position at = sf_schema_at(ld, node);
	yaml_node_t *v;
	int rc;

	if ((rc = sf_schema_expect(ld, node, YAML_MAPPING_NODE, "discover")) !=
	        SF_OK ||
	    (rc = sf_schema_keys(ld, node, "discover", keys, nkeys)) != SF_OK)
		return rc;
	d->given = 1;
	d->line = at.line;
	d->column = at.column;
	if ((v = sf_schema_get(ld, node, "extrapolate")) != NULL &&
	    (rc = get_input_name(ld, v, "discover.extrapolate", 0,
	                         &d->extrapolate)) != SF_OK)
		return rc;
	if ((v = sf_schema_get(ld, node, "count")) != NULL &&
	    (rc = get_input_name(ld, v, "discover.count", 1, &d->count)) !=
	        SF_OK)
		return rc;
	if ((v = sf_schema_get(ld, node, "workers")) != NULL &&
	    (rc = get_input_name(ld, v, "discover.workers", 1, &d->workers)) !=
	        SF_OK)
		return rc;
	if ((v = sf_schema_get(ld, node, "batch")) != NULL &&
	    (rc = get_input_name(ld, v, "discover.batch", 1, &d->batch)) !=
	        SF_OK)
		return rc;
	if ((rc = load_discover_lists(ld, node, d)) != SF_OK)
		return rc;
	if ((v = sf_schema_get(ld, node, "factors")) != NULL &&
	    (rc = sf_schema_count_in(ld, v, "discover.factors", 1,
	                             SF_DISCOVER_MAX_FACTORS, &d->factors)) !=
	        SF_OK)
		return rc;
	if ((v = sf_schema_get(ld, node, "max_terms")) != NULL &&
	    (rc = sf_schema_count_in(ld, v, "discover.max_terms", 1,
	                             SF_DISCOVER_MAX_TERMS, &d->max_terms)) !=
	        SF_OK)
		return rc;
	if ((v = sf_schema_get(ld, node, "beam")) != NULL &&
	    (rc = sf_schema_count_in(ld, v, "discover.beam", 1, 10000,
	                             &d->beam)) != SF_OK)
		return rc;
	if ((v = sf_schema_get(ld, node, "budget")) != NULL &&
	    (rc = sf_schema_count(ld, v, "discover.budget", 1, &d->budget)) !=
	        SF_OK)
		return rc;
	if ((v = sf_schema_get(ld, node, "overlap")) != NULL &&
	    (rc = sf_schema_bool(ld, v, "discover.overlap", &d->overlap)) !=
	        SF_OK)
		return rc;
	if ((v = sf_schema_get(ld, node, "continuous")) != NULL &&
	    (rc = sf_schema_bool(ld, v, "discover.continuous",
	                         &d->continuous)) != SF_OK)
		return rc;
	if ((v = sf_schema_get(ld, node, "library")) != NULL &&
	    (rc = sf_schema_bool(ld, v, "discover.library", &d->library)) !=
	        SF_OK)
		return rc;
	if ((v = sf_schema_get(ld, node, "growth_cap")) != NULL &&
	    (rc = sf_schema_bool(ld, v, "discover.growth_cap",
	                         &d->growth_cap)) != SF_OK)
		return rc;
	if ((v = sf_schema_get(ld, node, "tie")) != NULL &&
	    (rc = sf_schema_number_in(ld, v, "discover.tie", 0, 1, &d->tie)) !=
	        SF_OK)
		return rc;
	return SF_OK;
}

/* ---- models ----------------------------------------------------------- */

static void
free_text(sf_model_text *t)
{
	free(t->text);
	free(t->origin);
	t->text = t->origin = NULL;
}

/* The file's text, shared by the models of one file: the number of its
 * holders, then the bytes (1,000 models of a 250 KB file held a copy
 * each, 250 MB). */
typedef struct shared_source {
	size_t holders;
	char text[];
} shared_source;

static shared_source *
source_block(char *text)
{
	return (shared_source *)(void *)(text - offsetof(shared_source, text));
}

/* A new holder of the text of ld (a new copy), or of the text held by
 * other (when not NULL); NULL when out of memory. */
static char *
source_hold(const loader *ld, char *other)
{
	shared_source *b;

	if (other != NULL) {
		source_block(other)->holders++;
		return other;
	}
	b = malloc(sizeof *b + ld->length + 1);
	if (b == NULL)
		return NULL;
	b->holders = 1;
	memcpy(b->text, ld->text, ld->length);
	b->text[ld->length] = '\0';
	return b->text;
}

static void
source_release(char *text)
{
	if (text != NULL && --source_block(text)->holders == 0)
		free(source_block(text));
}

static void
model_free(sf_model *m)
{
	if (m == NULL)
		return;
	free(m->name);
	free(m->description);
	free(m->path);
	free(m->data_file);
	free_text(&m->data_file_at);
	free_text(&m->where);
	free_text(&m->by);
	free_text(&m->output);
	free_text(&m->weight);
	for (size_t i = 0; i < m->ninputs; i++) {
		free(m->inputs[i].name);
		free_text(&m->inputs[i].expr);
	}
	free(m->inputs);
	for (size_t i = 0; i < m->nparams; i++)
		free(m->params[i].name);
	free(m->params);
	for (size_t i = 0; i < m->nterms; i++) {
		free(m->terms[i].name);
		free_text(&m->terms[i].expr);
	}
	free(m->terms);
	free_text(&m->time);
	source_release(m->source);
	free(m);
}

void
sf_model_set_free(sf_model_set *set)
{
	if (set == NULL)
		return;
	for (size_t i = 0; i < set->count; i++)
		model_free(set->models[i]);
	free(set->models);
	discover_free(&set->discover);
	free(set);
}

static int
copy_text(const sf_model_text *from, sf_model_text *to)
{
	*to = *from;
	if (from->text != NULL && (to->text = sf_text_dup(from->text)) == NULL)
		return SF_ENOMEM;
	return SF_OK;
}

/* A new model holding what a models: file shares: path, source, data, fit,
 * inputs. */
static sf_model *
model_new(loader *ld, const sf_model *shared)
{
	sf_model *m = calloc(1, sizeof *m);

	if (m == NULL)
		return NULL;
	sf_fit_settings_default(&m->fit);
	m->ensemble_weight = 1;
	m->path = sf_text_dup(ld->path);
	m->source = source_hold(ld, shared != NULL ? shared->source : NULL);
	if (m->path == NULL || m->source == NULL)
		goto fail;
	m->source_length = ld->length;
	if (shared == NULL)
		return m;
	m->fit = shared->fit;
	m->unit = shared->unit;
	if ((shared->description != NULL &&
	     (m->description = sf_text_dup(shared->description)) == NULL) ||
	    copy_text(&shared->data_file_at, &m->data_file_at) != SF_OK ||
	    copy_text(&shared->where, &m->where) != SF_OK ||
	    copy_text(&shared->by, &m->by) != SF_OK ||
	    copy_text(&shared->output, &m->output) != SF_OK ||
	    copy_text(&shared->weight, &m->weight) != SF_OK)
		goto fail;
	m->inputs = calloc(shared->ninputs + 1, sizeof *m->inputs);
	if (m->inputs == NULL)
		goto fail;
	for (size_t i = 0; i < shared->ninputs; i++) {
		m->inputs[i].name = sf_text_dup(shared->inputs[i].name);
		m->inputs[i].line = shared->inputs[i].line;
		m->inputs[i].column = shared->inputs[i].column;
		m->inputs[i].derived = shared->inputs[i].derived;
		m->ninputs++;
		if (m->inputs[i].name == NULL ||
		    copy_text(&shared->inputs[i].expr, &m->inputs[i].expr) !=
		        SF_OK)
			goto fail;
	}
	return m;
fail:
	model_free(m);
	return NULL;
}

/* data.file relative to the directory of the model file. */
static int
resolve_data_file(loader *ld, sf_model *m)
{
	const char *file = m->data_file_at.text, *slash;
	size_t dir;

	if (file == NULL)
		return SF_OK;
	slash = strrchr(ld->path, '/');
	dir = (file[0] == '/' || slash == NULL)
	          ? 0
	          : (size_t)(slash - ld->path) + 1;
	m->data_file = malloc(dir + strlen(file) + 1);
	if (m->data_file == NULL)
		return sf_schema_oom(ld);
	memcpy(m->data_file, ld->path, dir);
	strcpy(m->data_file + dir, file);
	return SF_OK;
}

/* A name means one thing: an input, a parameter or a term. */
static int
check_name_clashes(loader *ld, const sf_model *m)
{
	for (size_t i = 0; i < m->nterms; i++) {
		const sf_model_term *t = &m->terms[i];

		for (size_t j = 0; j < m->nparams; j++)
			if (strcmp(t->name, m->params[j].name) == 0)
				return sf_schema_fail_at(
				    ld, t->line, t->column, SF_ENAME,
				    "'%s' is both a parameter (line %d) "
				    "and a term",
				    t->name, m->params[j].line);
		for (size_t j = 0; j < m->ninputs; j++)
			if (strcmp(t->name, m->inputs[j].name) == 0)
				return sf_schema_fail_at(
				    ld, t->line, t->column, SF_ENAME,
				    "'%s' is both an input (line %d) and "
				    "a term",
				    t->name, m->inputs[j].line);
	}
	for (size_t i = 0; i < m->nparams; i++)
		for (size_t j = 0; j < m->ninputs; j++)
			if (strcmp(m->params[i].name, m->inputs[j].name) == 0)
				return sf_schema_fail_at(
				    ld, m->params[i].line, m->params[i].column,
				    SF_ENAME,
				    "'%s' is both an input (line %d) and "
				    "a parameter",
				    m->params[i].name, m->inputs[j].line);
	return SF_OK;
}

/* fit.prior.hardware, when given, names an input of m. */
static int
check_prior_hardware(loader *ld, const sf_model *m)
{
	const sf_fit_settings *fs = &m->fit;
	const char *names[256], *near;
	size_t n = 0;

	if (fs->prior_hardware[0] == '\0')
		return SF_OK;
	for (size_t j = 0; j < m->ninputs; j++) {
		if (strcmp(m->inputs[j].name, fs->prior_hardware) == 0)
			return SF_OK;
		if (n < sizeof names / sizeof *names)
			names[n++] = m->inputs[j].name;
	}
	for (size_t t = 0; t < m->nterms; t++)
		if (strcmp(m->terms[t].name, fs->prior_hardware) == 0)
			return sf_schema_fail_at(
			    ld, fs->prior_hardware_line,
			    fs->prior_hardware_column, SF_ENAME,
			    "fit.prior.hardware '%s' is computed from other "
			    "inputs (a term): name the input it is computed "
			    "from",
			    fs->prior_hardware);
	near = sf_suggest_nearest(fs->prior_hardware, names, n);
	return sf_schema_fail_at(
	    ld, fs->prior_hardware_line, fs->prior_hardware_column, SF_ENAME,
	    "fit.prior.hardware '%s' is not an input of the model%s%s%s",
	    fs->prior_hardware, near != NULL ? "; did you mean '" : "",
	    near != NULL ? near : "", near != NULL ? "'?" : "");
}

/* An optional text key: when present, *out becomes a copy of it. */
static int
load_text_key(loader *ld, const yaml_node_t *node, const char *key, char **out)
{
	const yaml_node_t *v = sf_schema_get(ld, node, key);
	const char *text;
	int rc;

	if (v == NULL)
		return SF_OK;
	if ((rc = sf_schema_text(ld, v, key, &text)) != SF_OK ||
	    (rc = sf_schema_refuse_control(
	         ld, v, key, text, strcmp(key, "description") == 0)) != SF_OK)
		return rc;
	free(*out);
	if ((*out = sf_text_dup(text)) == NULL)
		return sf_schema_oom(ld);
	return SF_OK;
}

/* The keys of one model: the file itself, or an item of models:. */
static int
load_model_body(loader *ld, const yaml_node_t *node, sf_model *m)
{
	yaml_node_t *v;
	int rc;

	if ((rc = load_text_key(ld, node, "name", &m->name)) != SF_OK ||
	    (rc = load_text_key(ld, node, "description", &m->description)) !=
	        SF_OK)
		return rc;
	if ((v = sf_schema_get(ld, node, "inputs")) != NULL &&
	    (rc = load_inputs(ld, v, m)) != SF_OK)
		return rc;
	if ((v = sf_schema_get(ld, node, "parameters")) != NULL &&
	    (rc = load_parameters(ld, v, m)) != SF_OK)
		return rc;
	if ((v = sf_schema_get(ld, node, "terms")) != NULL &&
	    (rc = load_terms(ld, v, m)) != SF_OK)
		return rc;
	if ((rc = move_derived(ld, m)) != SF_OK)
		return rc;
	if ((v = sf_schema_get(ld, node, "fit")) != NULL &&
	    (rc = sf_settings_load(ld, v, &m->fit)) != SF_OK)
		return rc;
	if ((rc = check_prior_hardware(ld, m)) != SF_OK)
		return rc;
	if ((v = sf_schema_get(ld, node, "time")) == NULL &&
	    (ld->flags & SF_MODEL_FORMULA_OPTIONAL)) {
		/* scalefit discover: the formula is what it looks for */
		if (m->description == NULL &&
		    (m->description = sf_text_dup("")) == NULL)
			return sf_schema_oom(ld);
		return check_name_clashes(ld, m);
	}
	if (v == NULL)
		return sf_schema_fail(ld, node, SF_ESYNTAX,
		                      "the model has no 'time': the formula to "
		                      "fit ('scalefit discover' can find one)");
	if ((rc = get_formula(ld, v, "time", &m->time)) != SF_OK)
		return rc;
	if (m->nparams == 0 || sf_model_fitted_count(m) == 0)
		return sf_schema_fail(
		    ld, node, SF_EVALUE,
		    "the model has no parameter to fit: add "
		    "one under 'parameters' with min and max");
	if (m->description == NULL &&
	    (m->description = sf_text_dup("")) == NULL)
		return sf_schema_oom(ld);
	return check_name_clashes(ld, m);
}

/* The model's default name: the file's base name without extension; in
 * a models: list (index != SIZE_MAX), the list's name or that base name,
 * then "-" and the model's place in the list from 1. */
static char *
default_name(const char *path, const char *list_name, size_t index)
{
	const char *base = strrchr(path, '/');
	char buf[256];
	size_t n;

	base = base != NULL ? base + 1 : path;
	n = strcspn(base, ".");
	if (list_name != NULL)
		snprintf(buf, sizeof buf, "%s-%zu", list_name, index + 1);
	else if (index != SIZE_MAX)
		snprintf(buf, sizeof buf, "%.*s-%zu", (int)n, base, index + 1);
	else
		snprintf(buf, sizeof buf, "%.*s", (int)n, base);
	return sf_text_dup(buf);
}

static int
append_model(loader *ld, sf_model_set *set, sf_model *m)
{
	sf_model **grown =
	    realloc(set->models, (set->count + 1) * sizeof *grown);

	if (grown == NULL) {
		model_free(m);
		return sf_schema_oom(ld);
	}
	set->models = grown;
	set->models[set->count++] = m;
	return SF_OK;
}

/* A file of one model: the root is the model.  Takes m (frees it on
 * failure). */
static int
load_single(loader *ld, const yaml_node_t *root, sf_model *m, sf_model_set *set)
{
	int rc;

	if ((rc = load_model_body(ld, root, m)) != SF_OK ||
	    (rc = resolve_data_file(ld, m)) != SF_OK) {
		model_free(m);
		return rc;
	}
	if (m->name == NULL &&
	    (m->name = default_name(ld->path, NULL, SIZE_MAX)) == NULL) {
		model_free(m);
		return sf_schema_oom(ld);
	}
	return append_model(ld, set, m);
}

/* What a models: file gives every model: fit: and inputs:, and its name:
 * and description: as their defaults; each model has its own formula, so
 * parameters:, terms: and time: belong in the items. */
static int
load_shared(loader *ld, const yaml_node_t *root, const yaml_node_t *models,
            sf_model *shared)
{
	static const char *const per_model[] = {"parameters", "terms", "time"};
	yaml_node_t *v;
	int rc;

	for (size_t i = 0; i < 3; i++)
		if ((v = sf_schema_get(ld, root, per_model[i])) != NULL)
			return sf_schema_fail(ld, v, SF_ENAME,
			                      "with 'models:', give '%s' "
			                      "in each model",
			                      per_model[i]);
	if ((rc = sf_schema_expect(ld, models, YAML_SEQUENCE_NODE, "models")) !=
	    SF_OK)
		return rc;
	if (models->data.sequence.items.top ==
	    models->data.sequence.items.start)
		return sf_schema_fail(ld, models, SF_EVALUE, "models is empty");
	if ((v = sf_schema_get(ld, root, "fit")) != NULL &&
	    (rc = sf_settings_load(ld, v, &shared->fit)) != SF_OK)
		return rc;
	if ((v = sf_schema_get(ld, root, "inputs")) != NULL &&
	    (rc = load_inputs(ld, v, shared)) != SF_OK)
		return rc;
	if ((rc = load_text_key(ld, root, "name", &shared->name)) != SF_OK ||
	    (rc = load_text_key(ld, root, "description",
	                        &shared->description)) != SF_OK)
		return rc;
	return SF_OK;
}

/* A models: item's weight: in its ensemble, a number in (0,
 * SF_MODEL_MAX_WEIGHT], into m. */
static int
load_ensemble_weight(loader *ld, const yaml_node_t *node, sf_model *m)
{
	const yaml_node_t *v = sf_schema_get(ld, node, "weight");
	int rc;

	if (v == NULL)
		return SF_OK;
	if ((rc = sf_schema_number(ld, v, "weight", &m->ensemble_weight)) !=
	    SF_OK)
		return rc;
	/* at most SF_MODEL_MAX_WEIGHT: the members' sum stays finite */
	if (!(m->ensemble_weight > 0) ||
	    m->ensemble_weight > SF_MODEL_MAX_WEIGHT)
		return sf_schema_fail(ld, v, SF_EVALUE,
		                      "weight must be > 0 and at most %g (the "
		                      "formula's share of the ensemble against "
		                      "the others'), not %s",
		                      SF_MODEL_MAX_WEIGHT, sf_schema_scalar(v));
	return SF_OK;
}

/* Item index of a models: list: a model made of what the file shares and
 * the item's keys, named (by default after the list and its place) and
 * appended to set. */
static int
load_item(loader *ld, const yaml_node_t *node, size_t index,
          const sf_model *shared, sf_model_set *set)
{
	static const char *const item_keys[] = {
	    "name",  "description", "inputs", "parameters",
	    "terms", "time",        "fit",    "weight"};
	sf_model *m;
	int rc;

	if ((rc = sf_schema_expect(ld, node, YAML_MAPPING_NODE,
	                           "each item of models")) != SF_OK ||
	    (rc = sf_schema_keys(ld, node, "a model", item_keys, 8)) != SF_OK)
		return rc;
	if ((m = model_new(ld, shared)) == NULL)
		return sf_schema_oom(ld);
	if ((rc = load_model_body(ld, node, m)) != SF_OK ||
	    (rc = resolve_data_file(ld, m)) != SF_OK ||
	    (rc = load_ensemble_weight(ld, node, m)) != SF_OK) {
		model_free(m);
		return rc;
	}
	if (m->name == NULL &&
	    (m->name = default_name(ld->path, shared->name, index)) == NULL) {
		model_free(m);
		return sf_schema_oom(ld);
	}
	for (size_t j = 0; j < set->count; j++)
		if (strcmp(set->models[j]->name, m->name) == 0) {
			rc = sf_schema_fail(ld, node, SF_ENAME,
			                    "two models are named '%s'",
			                    m->name);
			model_free(m);
			return rc;
		}
	return append_model(ld, set, m);
}

/* The root: one model, or a models: list sharing data:, fit: and
 * inputs:, and the file's discover: block. */
static int
load_root(loader *ld, const yaml_node_t *root, sf_model_set *set)
{
	static const char *const single_keys[] = {
	    "name", "description", "data",   "inputs",   "parameters", "terms",
	    "time", "fit",         "models", "discover", "ensemble"};
	yaml_node_t *models, *v;
	sf_model *shared;
	int rc;

	if (root->type != YAML_MAPPING_NODE)
		return sf_schema_fail(
		    ld, root, SF_ETYPE,
		    "a model file must be a mapping of keys "
		    "(name, data, parameters, time, ...), not "
		    "%s",
		    sf_schema_kind(root));
	if ((rc = sf_schema_keys(ld, root, "the model", single_keys, 11)) !=
	    SF_OK)
		return rc;
	if ((v = sf_schema_get(ld, root, "ensemble")) != NULL) {
		if ((rc = sf_schema_bool(ld, v, "ensemble", &set->ensemble)) !=
		    SF_OK)
			return rc;
		if (set->ensemble && sf_schema_get(ld, root, "models") == NULL)
			return sf_schema_fail(
			    ld, v, SF_EVALUE,
			    "ensemble: true needs a 'models:' "
			    "list: the formulas read as one");
	}
	if ((v = sf_schema_get(ld, root, "discover")) != NULL &&
	    (rc = load_discover(ld, v, &set->discover)) != SF_OK)
		return rc;
	if ((shared = model_new(ld, NULL)) == NULL)
		return sf_schema_oom(ld);
	if ((v = sf_schema_get(ld, root, "data")) != NULL &&
	    (rc = load_data(ld, v, shared)) != SF_OK) {
		model_free(shared);
		return rc;
	}
	models = sf_schema_get(ld, root, "models");
	if (models == NULL)
		return load_single(ld, root, shared, set);
	/* Every model of a list has a formula. */
	ld->flags &= ~(unsigned)SF_MODEL_FORMULA_OPTIONAL;
	rc = load_shared(ld, root, models, shared);
	for (yaml_node_item_t *item = models->data.sequence.items.start;
	     rc == SF_OK && item < models->data.sequence.items.top; item++)
		rc = load_item(
		    ld, sf_schema_node(ld, *item),
		    (size_t)(item - models->data.sequence.items.start), shared,
		    set);
	model_free(shared);
	return rc;
}

int
sf_model_set_weighed(const sf_model_set *set)
{
	for (size_t i = 1; i < set->count; i++)
		if (set->models[i]->ensemble_weight !=
		    set->models[0]->ensemble_weight)
			return 1;
	return 0;
}

double
sf_model_set_share(const sf_model_set *set, size_t i)
{
	double sum = 0;

	for (size_t j = 0; j < set->count; j++)
		sum += set->models[j]->ensemble_weight;
	return set->models[i]->ensemble_weight / sum;
}

int
sf_model_parse(const char *path, const char *text, size_t length,
               sf_model_set **out, sf_warn_fn warn, void *warn_ctx,
               sf_error *err)
{
	return sf_model_parse_flags(path, text, length, 0, out, warn, warn_ctx,
	                            err);
}

int
sf_model_parse_flags(const char *path, const char *text, size_t length,
                     unsigned flags, sf_model_set **out, sf_warn_fn warn,
                     void *warn_ctx, sf_error *err)
{
	sf_model_set *set = NULL;
	yaml_node_t *root;
	loader ld;
	int rc;

	*out = NULL;
	rc = sf_schema_open(&ld, "model", path, text, length, warn, warn_ctx,
	                    err, &root);
	ld.flags = flags;
	if (rc == SF_OK && (set = calloc(1, sizeof *set)) == NULL)
		rc = sf_schema_oom(&ld);
	if (rc == SF_OK) {
		discover_default(&set->discover);
		rc = load_root(&ld, root, set);
	}
	sf_schema_close(&ld);
	if (rc != SF_OK) {
		sf_model_set_free(set);
		return rc;
	}
	*out = set;
	return SF_OK;
}

enum { MODEL_MAX_BYTES = 16 << 20 };

int
sf_model_load(const char *path, sf_model_set **out, sf_warn_fn warn,
              void *warn_ctx, sf_error *err)
{
	return sf_model_load_flags(path, 0, out, warn, warn_ctx, err);
}

/* Read the model file at ctx (its path) whole into *out: an sf_read_fn. */
static int
read_model_file(void *ctx, char **out, size_t *out_length, sf_error *err)
{
	const char *path = ctx;
	FILE *f;

	*out = NULL;
	*out_length = 0;
	if ((f = fopen(path, "rb")) == NULL)
		return sf_error_at(err, SF_EIO, path, 0, 0,
		                   "cannot open the model file: %s",
		                   strerror(errno));
	return sf_file_read_all(f, path, MODEL_MAX_BYTES, "a model file", 0,
	                        out, out_length, err);
}

int
sf_model_load_flags(const char *path, unsigned flags, sf_model_set **out,
                    sf_warn_fn warn, void *warn_ctx, sf_error *err)
{
	char *text;
	size_t length;
	int rc;

	*out = NULL;
	/* Under MPI rank 0 reads, every rank parses the same bytes. */
	if ((rc = sf_units_read(read_model_file, (void *)path, &text, &length,
	                        err)) != SF_OK)
		return rc;
	rc = sf_model_parse_flags(path, text, length, flags, out, warn,
	                          warn_ctx, err);
	free(text);
	return rc;
}

/*
 * The file offset of column (1-based) of the value of at, or just past
 * its last character when column is past it, or of the scalar itself
 * (its quote or block indicator, if any) for columns 0 and 1.  The value's
 * characters appear in the scalar in order (a quoted or folded scalar adds
 * quotes, escapes and line breaks between them): follow them to the one column
 * points at.  A character an escape made is not in the file: it is passed over.
 * Returns 1 when the character column points at was found; else 0 with
 * the offset of the scalar's start, as the column has no one place in
 * the file.
 */
static int
locate_column(const sf_model *m, const sf_model_text *at, int column,
              size_t *off)
{
	size_t j = at->offset, len = strlen(at->text), target, k;
	size_t end = at->end > at->offset && at->end <= m->source_length
	                 ? at->end
	                 : m->source_length;

	*off = at->offset;
	if (column <= 1)
		return 1;
	/* A block scalar's value ends with its line break (clip, keep). */
	while (len > 0 && at->text[len - 1] == '\n')
		len--;
	target = (size_t)column - 1;
	for (size_t i = 0; i < target && i < len; i++) {
		for (k = j; k < end && m->source[k] != at->text[i]; k++)
			;
		if (k < end)
			j = k + 1;
	}
	if (target >= len) {
		*off = j;
		return 1;
	}
	for (k = j; k < end && m->source[k] != at->text[target]; k++)
		;
	if (k == end)
		return 0;
	*off = k;
	return 1;
}

/* A message's "at column N" (a place inside the formula, as the
 * expression engine words it) becomes the place in the file. */
static void
locate_message_column(const sf_model *m, const sf_model_text *at, sf_error *err)
{
	static const char phrase[] = " at column ";
	char *p = strstr(err->message, phrase), *end,
	     tail[SF_ERROR_MESSAGE_MAX];
	long column;
	size_t off;
	int line, col;

	if (p == NULL)
		return;
	column = strtol(p + sizeof phrase - 1, &end, 10);
	if (end == p + sizeof phrase - 1 || column < 1 || column > INT_MAX ||
	    !locate_column(m, at, (int)column, &off))
		return;
	sf_error_position(m->source, m->source_length, off, &line, &col);
	snprintf(tail, sizeof tail, "%s", end);
	snprintf(p, sizeof err->message - (size_t)(p - err->message),
	         " at line %d, column %d%s", line, col, tail);
}

void
sf_model_locate(const sf_model *m, const sf_model_text *at, sf_error *err)
{
	size_t j;

	if (err == NULL || at == NULL || at->text == NULL)
		return;
	if (at->origin != NULL) {
		sf_error_in_argument(err, at->origin, at->text);
		return;
	}
	locate_message_column(m, at, err);
	if (!locate_column(m, at, err->column, &j)) {
		size_t used = strlen(err->message);

		snprintf(err->message + used, sizeof err->message - used,
		         " (at column %d of the formula that starts here)",
		         err->column);
	}
	snprintf(err->file, sizeof err->file, "%s", m->path);
	sf_error_position(m->source, m->source_length, j, &err->line,
	                  &err->column);
	sf_error_quote(err, m->source, m->source_length);
}

size_t
sf_model_fitted_count(const sf_model *m)
{
	size_t n = 0;

	for (size_t i = 0; i < m->nparams; i++)
		n += !m->params[i].fixed;
	return n;
}

int
sf_model_inputs_within(const sf_model *a, const sf_model *b)
{
	for (size_t i = 0; i < a->ninputs; i++) {
		size_t j = 0;

		while (j < b->ninputs &&
		       strcmp(a->inputs[i].name, b->inputs[j].name) != 0)
			j++;
		if (j == b->ninputs)
			return 0;
	}
	return 1;
}

const char *const sf_model_units[SF_MODEL_UNITS] = {"s", "ms", "min", "h"};

const char *
sf_model_output(const sf_model *m)
{
	return m->output.text != NULL ? m->output.text
	                              : SF_MODEL_DEFAULT_OUTPUT;
}

const char *
sf_term_kind_name(sf_term_kind kind)
{
	return term_kind_names[kind];
}
