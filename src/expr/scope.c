/*
 * expr_scope.c - the names a model defines, and name resolution with type
 * checking of syntax trees against them.
 *
 * A scope is a flat list of entries with a hashed index of their names: a
 * dataset's scope has a name per CSV column, and a 100,000-column header
 * searched linearly took 24 s.  Terms are parsed and resolved when added, so
 * every error in a term's text is reported by sf_expr_scope_add_term() with
 * the column in that text.  Because resolution happens then, inputs,
 * parameters and fixed constants must all be added before the first term;
 * adding one later is refused rather than silently leaving earlier terms
 * resolved against an incomplete scope.
 */
#include "expr/internal.h"
#include "base/suggest.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The builtin constants, found after every scope entry. */
static const struct {
	const char *name;
	double value;
} scope_constants[] = {
    {"pi", SF_EXPR_PI},
    {"e", SF_EXPR_E},
};

#define NCONSTANTS (sizeof scope_constants / sizeof scope_constants[0])

/* The functions of the language: name, operator, argument counts
 * (maxargs -1: any number). */
static const struct {
	const char *name;
	int op;
	int minargs, maxargs;
} scope_functions[] = {
    {"log", SF_OP_LOG, 1, 1},     {"log2", SF_OP_LOG2, 1, 1},
    {"log10", SF_OP_LOG10, 1, 1}, {"exp", SF_OP_EXP, 1, 1},
    {"sqrt", SF_OP_SQRT, 1, 1},   {"abs", SF_OP_ABS, 1, 1},
    {"pow", SF_OP_POW, 2, 2},     {"min", SF_OP_MIN, 2, -1},
    {"max", SF_OP_MAX, 2, -1},    {"floor", SF_OP_FLOOR, 1, 1},
    {"ceil", SF_OP_CEIL, 1, 1},   {"sin", SF_OP_SIN, 1, 1},
    {"cos", SF_OP_COS, 1, 1},     {"tan", SF_OP_TAN, 1, 1},
    {"atan", SF_OP_ATAN, 1, 1},   {"if", SF_OP_IF, 3, 3},
};

#define NFUNCTIONS (sizeof scope_functions / sizeof scope_functions[0])

static const char *const kind_names[] = {
    [SF_EXPR_INPUT] = "input",          [SF_EXPR_PARAM] = "parameter",
    [SF_EXPR_FIXED] = "fixed constant", [SF_EXPR_TERM] = "term",
    [SF_EXPR_CONSTANT] = "constant",
};

/* The same with an article, for "'x' is an input". */
static const char *const kind_nouns[] = {
    [SF_EXPR_INPUT] = "an input",         [SF_EXPR_PARAM] = "a parameter",
    [SF_EXPR_FIXED] = "a fixed constant", [SF_EXPR_TERM] = "a term",
    [SF_EXPR_CONSTANT] = "a constant",
};

/* ---- The scope ---------------------------------------------------------- */

sf_expr_scope *
sf_expr_scope_new(void)
{
	return calloc(1, sizeof(sf_expr_scope));
}

static void
entry_release(sf_expr_entry *e)
{
	free(e->name);
	for (size_t i = 0; i < e->nvalues; i++)
		free(e->values[i]);
	free(e->values);
	sf_ast_free(e->ast);
}

void
sf_expr_scope_free(sf_expr_scope *s)
{
	if (s == NULL)
		return;
	for (size_t i = 0; i < s->n; i++)
		entry_release(&s->entries[i]);
	free(s->entries);
	for (int k = 0; k <= SF_EXPR_CONSTANT; k++)
		free(s->at[k]);
	sf_names_free(&s->index);
	free(s);
}

void
sf_expr_scope_set_warning_handler(sf_expr_scope *s,
                                  void (*fn)(void *ctx, const sf_error *w),
                                  void *ctx)
{
	s->warn = fn;
	s->warn_ctx = ctx;
}

/* The entry called name (len bytes, need not be terminated), or NULL. */
static sf_expr_entry *
scope_find(const sf_expr_scope *s, const char *name, size_t len)
{
	size_t i = sf_names_find_n(&s->index, name, len);

	return i == SF_NAMES_NONE ? NULL : &s->entries[i];
}

/* The builtin constant called name, or -1. */
static int
constant_find(const char *name, size_t len)
{
	for (size_t i = 0; i < NCONSTANTS; i++)
		if (strlen(scope_constants[i].name) == len &&
		    strncmp(scope_constants[i].name, name, len) == 0)
			return (int)i;
	return -1;
}

static int
function_find(const char *name, size_t len)
{
	for (size_t i = 0; i < NFUNCTIONS; i++)
		if (strlen(scope_functions[i].name) == len &&
		    strncmp(scope_functions[i].name, name, len) == 0)
			return (int)i;
	return -1;
}

const sf_expr_entry *
sf_scope_entry(const sf_expr_scope *s, int kind, size_t index)
{
	if (kind < 0 || kind > SF_EXPR_CONSTANT || index >= s->count[kind])
		return NULL;
	return &s->entries[s->at[kind][index]];
}

/*
 * Append an entry of kind called name; checks the name and the order rule.
 * Returns the entry (zeroed but for name, kind and index) or NULL with err.
 */
static sf_expr_entry *
scope_append(sf_expr_scope *s, int kind, const char *name, sf_error *err)
{
	sf_expr_entry *e;
	const sf_expr_entry *old;

	if (!sf_expr_is_name(name)) {
		sf_error_at(err, SF_ENAME, NULL, 0, 0,
		            "invalid name '%.64s': a name is a letter or '_' "
		            "followed by letters, digits and '_'",
		            name != NULL ? name : "(null)");
		return NULL;
	}
	old = scope_find(s, name, strlen(name));
	if (old != NULL) {
		sf_error_at(err, SF_ENAME, NULL, 0, 0,
		            "duplicate name '%.64s': already %s", name,
		            kind_nouns[old->kind]);
		return NULL;
	}
	if (kind != SF_EXPR_TERM && s->defined_terms > 0) {
		sf_error_at(err, SF_EINTERNAL, NULL, 0, 0,
		            "%s '%.64s' added after a term; add inputs, "
		            "parameters and fixed constants first",
		            kind_names[kind], name);
		return NULL;
	}
	if (s->n == s->cap) {
		size_t cap = s->cap ? 2 * s->cap : 16;
		sf_expr_entry *m = realloc(s->entries, cap * sizeof *m);

		if (m == NULL) {
			sf_error_at(err, SF_ENOMEM, NULL, 0, 0,
			            "out of memory");
			return NULL;
		}
		s->entries = m;
		for (int k = 0; k <= SF_EXPR_CONSTANT; k++) {
			size_t *at = realloc(s->at[k], cap * sizeof *at);

			if (at == NULL) {
				sf_error_at(err, SF_ENOMEM, NULL, 0, 0,
				            "out of memory");
				return NULL;
			}
			s->at[k] = at;
		}
		s->cap = cap;
	}
	e = &s->entries[s->n];
	memset(e, 0, sizeof *e);
	e->name = malloc(strlen(name) + 1);
	if (e->name == NULL) {
		sf_error_at(err, SF_ENOMEM, NULL, 0, 0, "out of memory");
		return NULL;
	}
	strcpy(e->name, name);
	if (sf_names_add(&s->index, e->name, s->n, NULL) != SF_OK) {
		free(e->name);
		sf_error_at(err, SF_ENOMEM, NULL, 0, 0, "out of memory");
		return NULL;
	}
	e->kind = kind;
	e->index = s->count[kind]++;
	s->at[kind][e->index] = s->n;
	s->n++;
	if (constant_find(name, strlen(name)) >= 0 && s->warn != NULL) {
		sf_error w;

		sf_error_clear(&w);
		sf_error_at(&w, SF_ENAME, NULL, 0, 0,
		            "%s '%s' shadows the constant %s", kind_names[kind],
		            name, name);
		s->warn(s->warn_ctx, &w);
	}
	return e;
}

int
sf_expr_scope_add_input(sf_expr_scope *s, const char *name, sf_error *err)
{
	return scope_append(s, SF_EXPR_INPUT, name, err) != NULL
	           ? SF_OK
	           : (err != NULL ? err->code : SF_ENAME);
}

int
sf_expr_scope_add_text_input(sf_expr_scope *s, const char *name,
                             const char *const *sorted_values, size_t nvalues,
                             sf_error *err)
{
	sf_expr_entry *e;
	char **values;

	for (size_t i = 0; i < nvalues; i++) {
		if (sorted_values[i] == NULL)
			return sf_error_at(err, SF_EVALUE, NULL, 0, 0,
			                   "text input '%.64s': value %zu is "
			                   "NULL",
			                   name != NULL ? name : "", i);
		if (i > 0 &&
		    strcmp(sorted_values[i - 1], sorted_values[i]) >= 0)
			return sf_error_at(err, SF_EVALUE, NULL, 0, 0,
			                   "text input '%.64s': values are not "
			                   "sorted and distinct ('%.64s' then "
			                   "'%.64s')",
			                   name != NULL ? name : "",
			                   sorted_values[i - 1],
			                   sorted_values[i]);
	}
	values = calloc(nvalues > 0 ? nvalues : 1, sizeof *values);
	if (values == NULL)
		return sf_error_at(err, SF_ENOMEM, NULL, 0, 0, "out of memory");
	for (size_t i = 0; i < nvalues; i++) {
		values[i] = malloc(strlen(sorted_values[i]) + 1);
		if (values[i] == NULL) {
			for (size_t j = 0; j < i; j++)
				free(values[j]);
			free(values);
			return sf_error_at(err, SF_ENOMEM, NULL, 0, 0,
			                   "out of memory");
		}
		strcpy(values[i], sorted_values[i]);
	}
	e = scope_append(s, SF_EXPR_INPUT, name, err);
	if (e == NULL) {
		for (size_t i = 0; i < nvalues; i++)
			free(values[i]);
		free(values);
		return err != NULL ? err->code : SF_ENAME;
	}
	e->is_text = 1;
	e->values = values;
	e->nvalues = nvalues;
	return SF_OK;
}

int
sf_expr_scope_add_param(sf_expr_scope *s, const char *name, sf_error *err)
{
	return scope_append(s, SF_EXPR_PARAM, name, err) != NULL
	           ? SF_OK
	           : (err != NULL ? err->code : SF_ENAME);
}

int
sf_expr_scope_add_fixed(sf_expr_scope *s, const char *name, double value,
                        sf_error *err)
{
	sf_expr_entry *e = scope_append(s, SF_EXPR_FIXED, name, err);

	if (e == NULL)
		return err != NULL ? err->code : SF_ENAME;
	e->value = value;
	return SF_OK;
}

int
sf_expr_scope_declare_term(sf_expr_scope *s, const char *name, sf_error *err)
{
	return scope_append(s, SF_EXPR_TERM, name, err) != NULL
	           ? SF_OK
	           : (err != NULL ? err->code : SF_ENAME);
}

int
sf_expr_scope_add_term(sf_expr_scope *s, const char *name, const char *text,
                       sf_error *err)
{
	sf_expr_entry *e;
	sf_ast *t;
	size_t index;
	int rc;

	e = name != NULL ? scope_find(s, name, strlen(name)) : NULL;
	if (e != NULL && (e->kind != SF_EXPR_TERM || e->ast != NULL))
		return sf_error_at(err, SF_ENAME, NULL, 0, 0,
		                   "duplicate name '%.64s': already %s", name,
		                   kind_nouns[e->kind]);
	if (e == NULL) {
		e = scope_append(s, SF_EXPR_TERM, name, err);
		if (e == NULL)
			return err != NULL ? err->code : SF_ENAME;
	}
	index = (size_t)(e - s->entries);
	rc = sf_ast_parse(text != NULL ? text : "", &t, err);
	if (rc != SF_OK)
		return rc;
	rc = sf_scope_resolve(s, t, &s->entries[index], 0, err);
	if (rc != SF_OK) {
		sf_ast_free(t);
		return rc;
	}
	e = &s->entries[index];
	e->ast = t;
	e->order = s->defined_terms++;
	/* uses_params was accumulated by resolution */
	return SF_OK;
}

size_t
sf_expr_scope_count(const sf_expr_scope *s, int kind)
{
	if (s == NULL || kind < SF_EXPR_INPUT || kind > SF_EXPR_CONSTANT)
		return 0;
	if (kind == SF_EXPR_CONSTANT)
		return NCONSTANTS;
	return s->count[kind];
}

int
sf_expr_scope_lookup(const sf_expr_scope *s, const char *name, int *kind,
                     size_t *index)
{
	const sf_expr_entry *e;
	int c;

	if (name == NULL)
		return 0;
	e = s != NULL ? scope_find(s, name, strlen(name)) : NULL;
	if (e != NULL) {
		if (kind != NULL)
			*kind = e->kind;
		if (index != NULL)
			*index = e->index;
		return 1;
	}
	c = constant_find(name, strlen(name));
	if (c < 0)
		return 0;
	if (kind != NULL)
		*kind = SF_EXPR_CONSTANT;
	if (index != NULL)
		*index = (size_t)c;
	return 1;
}

const char *
sf_expr_scope_name(const sf_expr_scope *s, int kind, size_t index)
{
	const sf_expr_entry *e;

	if (kind == SF_EXPR_CONSTANT)
		return index < NCONSTANTS ? scope_constants[index].name : NULL;
	e = s != NULL ? sf_scope_entry(s, kind, index) : NULL;
	return e != NULL ? e->name : NULL;
}

int
sf_expr_scope_input_is_text(const sf_expr_scope *s, size_t index)
{
	const sf_expr_entry *e = sf_scope_entry(s, SF_EXPR_INPUT, index);

	return e != NULL && e->is_text;
}

int
sf_expr_scope_term_uses_params(const sf_expr_scope *s, size_t index)
{
	const sf_expr_entry *e = sf_scope_entry(s, SF_EXPR_TERM, index);

	return e != NULL && e->uses_params;
}

/* ---- Resolution --------------------------------------------------------- */

typedef struct resolver {
	const sf_expr_scope *s;
	sf_ast *t;
	sf_expr_entry *self; /* the term being defined, or NULL */
	unsigned flags;
	sf_error *err;
} resolver;

static int
node_column(const resolver *r, int k)
{
	return (int)r->t->nodes[k].pos + 1;
}

static const char *
node_text(const resolver *r, int k)
{
	return r->t->text + r->t->nodes[k].pos;
}

static int
node_len(const resolver *r, int k)
{
	size_t len = r->t->nodes[k].len;

	return len > 64 ? 64 : (int)len;
}

/* Copy node k's name into buf (cut to size - 1 bytes). */
static void
node_name(const resolver *r, int k, char *buf, size_t size)
{
	size_t len = r->t->nodes[k].len;

	if (len >= size)
		len = size - 1;
	memcpy(buf, node_text(r, k), len);
	buf[len] = '\0';
}

/* ", did you mean 'X'?" for an unknown variable name, or "". */
static void
suggest_name(const resolver *r, const char *name, char *buf, size_t size)
{
	const sf_expr_scope *s = r->s;
	const char **names = malloc((s->n + NCONSTANTS) * sizeof *names);
	const char *best;
	size_t n = 0;

	buf[0] = '\0';
	if (names == NULL)
		return;
	for (size_t i = 0; i < s->n; i++)
		names[n++] = s->entries[i].name;
	for (size_t i = 0; i < NCONSTANTS; i++)
		names[n++] = scope_constants[i].name;
	best = sf_suggest_nearest(name, names, n);
	if (best != NULL)
		snprintf(buf, size, "; did you mean '%s'?", best);
	free(names);
}

static void
suggest_function(const char *name, char *buf, size_t size)
{
	const char *names[NFUNCTIONS];
	const char *best;

	for (size_t i = 0; i < NFUNCTIONS; i++)
		names[i] = scope_functions[i].name;
	best = sf_suggest_nearest(name, names, NFUNCTIONS);
	buf[0] = '\0';
	if (best != NULL)
		snprintf(buf, size, "; did you mean '%s'?", best);
}

static int
type_error(const resolver *r, int k)
{
	const sf_ast_node *n = &r->t->nodes[k];

	if (n->type == SF_TYPE_TEXT)
		return sf_error_at(r->err, SF_ETYPE, NULL, 1, node_column(r, k),
		                   "text input '%.*s' can only be compared "
		                   "with a string, as in %.*s == '...'",
		                   node_len(r, k), node_text(r, k),
		                   node_len(r, k), node_text(r, k));
	return sf_error_at(r->err, SF_ETYPE, NULL, 1, node_column(r, k),
	                   "a string can only be compared with a text input");
}

static int resolve(resolver *r, int k);

/* Resolve node k and require a number. */
static int
resolve_number(resolver *r, int k)
{
	int rc = resolve(r, k);

	if (rc != SF_OK)
		return rc;
	if (r->t->nodes[k].type != SF_TYPE_NUM &&
	    r->t->nodes[k].type != SF_TYPE_ANY)
		return type_error(r, k);
	return SF_OK;
}

static int
resolve_name(resolver *r, int k)
{
	sf_ast_node *n = &r->t->nodes[k];
	const sf_expr_entry *e;
	char name[128], hint[160];
	int c;

	n->type = SF_TYPE_NUM;
	if (r->s == NULL) {
		n->type = SF_TYPE_ANY; /* syntax check only */
		return SF_OK;
	}
	e = scope_find(r->s, node_text(r, k), n->len);
	if (e != NULL) {
		n->ref_kind = e->kind;
		n->ref_index = e->index;
		switch (e->kind) {
		case SF_EXPR_INPUT:
			if (e->is_text)
				n->type = SF_TYPE_TEXT;
			break;
		case SF_EXPR_PARAM:
			if (r->flags & SF_EXPR_DATA_ONLY)
				return sf_error_at(r->err, SF_ENAME, NULL, 1,
				                   node_column(r, k),
				                   "'%.*s' is a parameter; "
				                   "only inputs may be used "
				                   "here",
				                   node_len(r, k),
				                   node_text(r, k));
			if (r->self != NULL)
				r->self->uses_params = 1;
			break;
		case SF_EXPR_FIXED:
			n->value = e->value;
			break;
		case SF_EXPR_TERM:
			if (e == r->self)
				return sf_error_at(r->err, SF_ENAME, NULL, 1,
				                   node_column(r, k),
				                   "term '%s' refers to itself",
				                   e->name);
			if (e->ast == NULL && r->self != NULL)
				return sf_error_at(
				    r->err, SF_ENAME, NULL, 1,
				    node_column(r, k),
				    "term '%s' uses term '%s', which is "
				    "defined after it",
				    r->self->name, e->name);
			if (e->ast == NULL)
				return sf_error_at(r->err, SF_ENAME, NULL, 1,
				                   node_column(r, k),
				                   "term '%s' is declared but "
				                   "has no definition",
				                   e->name);
			if (e->uses_params && (r->flags & SF_EXPR_DATA_ONLY))
				return sf_error_at(r->err, SF_ENAME, NULL, 1,
				                   node_column(r, k),
				                   "term '%s' depends on "
				                   "parameters; only inputs "
				                   "may be used here",
				                   e->name);
			if (e->uses_params && r->self != NULL)
				r->self->uses_params = 1;
			break;
		default:
			break;
		}
		return SF_OK;
	}
	c = constant_find(node_text(r, k), n->len);
	if (c >= 0) {
		n->ref_kind = SF_EXPR_CONSTANT;
		n->ref_index = (size_t)c;
		n->value = scope_constants[c].value;
		return SF_OK;
	}
	node_name(r, k, name, sizeof name);
	if (function_find(node_text(r, k), n->len) >= 0)
		return sf_error_at(r->err, SF_ENAME, NULL, 1, node_column(r, k),
		                   "'%s' is a function; call it as %s(...)",
		                   name, name);
	suggest_name(r, name, hint, sizeof hint);
	sf_error_at(r->err, SF_ENAME, NULL, 1, node_column(r, k),
	            "unknown name '%s'%s", name, hint);
	if (r->err != NULL)
		snprintf(r->err->name, sizeof r->err->name, "%s", name);
	return SF_ENAME;
}

/* The code a string literal gets against text input e: its index among
 * the sorted values, or the insertion position - 0.5 when absent. */
static double
literal_code(const sf_expr_entry *e, const char *value)
{
	size_t lo = 0, hi = e->nvalues;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int c = strcmp(e->values[mid], value);

		if (c == 0)
			return (double)mid;
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return (double)lo - 0.5;
}

static int
resolve_comparison(resolver *r, int k)
{
	sf_ast_node *n = &r->t->nodes[k];
	int a = n->a, b = n->b, rc, text, str;
	const sf_expr_entry *e;
	char *value;

	n->type = SF_TYPE_NUM;
	rc = resolve(r, a);
	if (rc == SF_OK)
		rc = resolve(r, b);
	if (rc != SF_OK)
		return rc;
	{
		int ta = r->t->nodes[a].type, tb = r->t->nodes[b].type;

		if (ta == SF_TYPE_NUM && tb == SF_TYPE_NUM)
			return SF_OK;
		if ((ta == SF_TYPE_ANY && tb != SF_TYPE_TEXT) ||
		    (tb == SF_TYPE_ANY && ta != SF_TYPE_TEXT))
			return SF_OK; /* no scope: names are unchecked */
		if (ta == SF_TYPE_TEXT && tb == SF_TYPE_STR) {
			text = a;
			str = b;
		} else if (ta == SF_TYPE_STR && tb == SF_TYPE_TEXT) {
			text = b;
			str = a;
		} else {
			/* blame the operand that is not a number, the left
			 * one when both are not */
			return type_error(r, ta != SF_TYPE_NUM ? a : b);
		}
	}
	if (r->s == NULL)
		return SF_OK;
	e = sf_scope_entry(r->s, SF_EXPR_INPUT, r->t->nodes[text].ref_index);
	value = sf_ast_string(r->t, str);
	if (e == NULL || value == NULL) {
		free(value);
		return sf_error_at(r->err, SF_ENOMEM, NULL, 1, 0,
		                   "out of memory");
	}
	r->t->nodes[str].value = literal_code(e, value);
	free(value);
	return SF_OK;
}

static int
resolve_call(resolver *r, int k)
{
	sf_ast_node *n = &r->t->nodes[k];
	char name[128], hint[160];
	int f, rc;

	n->type = SF_TYPE_NUM;
	node_name(r, k, name, sizeof name);
	f = function_find(node_text(r, k), n->len);
	if (f < 0) {
		int kind;

		if (sf_expr_scope_lookup(r->s, name, &kind, NULL))
			return sf_error_at(r->err, SF_ENAME, NULL, 1,
			                   node_column(r, k),
			                   "'%s' is %s, not a function", name,
			                   kind_nouns[kind]);
		suggest_function(name, hint, sizeof hint);
		return sf_error_at(r->err, SF_ENAME, NULL, 1, node_column(r, k),
		                   "unknown function '%s'%s", name, hint);
	}
	if (n->b < scope_functions[f].minargs ||
	    (scope_functions[f].maxargs >= 0 &&
	     n->b > scope_functions[f].maxargs)) {
		if (scope_functions[f].maxargs < 0)
			return sf_error_at(r->err, SF_ESYNTAX, NULL, 1,
			                   node_column(r, k),
			                   "%s takes 2 or more arguments, "
			                   "got %d",
			                   name, n->b);
		return sf_error_at(
		    r->err, SF_ESYNTAX, NULL, 1, node_column(r, k),
		    "%s takes %d argument%s, got %d", name,
		    scope_functions[f].minargs,
		    scope_functions[f].minargs == 1 ? "" : "s", n->b);
	}
	n->op = scope_functions[f].op;
	for (int a = n->a; a >= 0; a = r->t->nodes[a].next) {
		rc = resolve_number(r, a);
		if (rc != SF_OK)
			return rc;
	}
	return SF_OK;
}

static int
resolve(resolver *r, int k)
{
	sf_ast_node *n = &r->t->nodes[k];

	switch (n->kind) {
	case SF_AST_NUM:
		n->type = SF_TYPE_NUM;
		return SF_OK;
	case SF_AST_STR:
		n->type = SF_TYPE_STR;
		return SF_OK;
	case SF_AST_NAME:
		return resolve_name(r, k);
	case SF_AST_UNARY:
		n->type = SF_TYPE_NUM;
		return resolve_number(r, n->a);
	case SF_AST_BINARY:
		if (n->op >= SF_OP_LT && n->op <= SF_OP_NE)
			return resolve_comparison(r, k);
		{
			int rc;

			n->type = SF_TYPE_NUM;
			rc = resolve_number(r, n->a);
			return rc != SF_OK
			           ? rc
			           : resolve_number(r, r->t->nodes[k].b);
		}
	case SF_AST_CALL:
		return resolve_call(r, k);
	default:
		return sf_error_at(r->err, SF_EINTERNAL, NULL, 1, 0,
		                   "bad syntax tree node");
	}
}

int
sf_scope_resolve(const sf_expr_scope *s, sf_ast *t, sf_expr_entry *self,
                 unsigned flags, sf_error *err)
{
	resolver r;
	int rc;

	r.s = s;
	r.t = t;
	r.self = self;
	r.flags = flags;
	r.err = err;
	rc = resolve(&r, t->root);
	if (rc == SF_OK && t->nodes[t->root].type != SF_TYPE_NUM &&
	    t->nodes[t->root].type != SF_TYPE_ANY)
		return type_error(&r, t->root);
	return rc;
}
