/*
 * override.c - command-line replacements of a model's data section.
 */
#include "input/override.h"
#include "base/suggest.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Replace *t with a copy of the first n bytes of text, from option. */
static int
replace(sf_model_text *t, const char *text, size_t n, const char *option,
        sf_error *err)
{
	char *copy = malloc(n + 1), *origin = malloc(strlen(option) + 1);

	if (copy == NULL || origin == NULL) {
		free(copy);
		free(origin);
		return sf_error_set(err, SF_ENOMEM, "out of memory");
	}
	memcpy(copy, text, n);
	copy[n] = '\0';
	strcpy(origin, option);
	free(t->text);
	free(t->origin);
	*t = (sf_model_text){.text = copy, .origin = origin};
	return SF_OK;
}

static int
blank(const char *text)
{
	while (isspace((unsigned char)*text))
		text++;
	return *text == '\0';
}

int
sf_override_input_split(const char *arg, char *name, size_t size,
                        const char **expr)
{
	const char *eq = strchr(arg, '=');
	size_t from = 0, n;

	if (eq == NULL || blank(eq + 1))
		return SF_ESYNTAX;
	n = (size_t)(eq - arg);
	while (from < n && isspace((unsigned char)arg[from]))
		from++;
	while (n > from && isspace((unsigned char)arg[n - 1]))
		n--;
	if (n == from || n - from >= size)
		return SF_ESYNTAX;
	memcpy(name, arg + from, n - from);
	name[n - from] = '\0';
	*expr = eq + 1;
	return SF_OK;
}

/* One "NAME=EXPR" into m's input NAME. */
static int
override_input(sf_model *m, const char *arg, sf_error *err)
{
	const char *expr, *names[64] = {NULL};
	char name[128], inputs[256];
	size_t used = 0, count = 0;

	if (sf_override_input_split(arg, name, sizeof name, &expr) != SF_OK)
		return sf_error_at(err, SF_ESYNTAX, "--input", 0, 0,
		                   "'%s' is not NAME=EXPR (an input of the "
		                   "model and the column or expression it "
		                   "takes, such as p=workers)",
		                   arg);
	for (size_t i = 0; i < m->ninputs; i++) {
		if (strcmp(m->inputs[i].name, name) == 0) {
			char option[160];

			snprintf(option, sizeof option, "--input %s", name);
			return replace(&m->inputs[i].expr, expr, strlen(expr),
			               option, err);
		}
		if (count < 64)
			names[count++] = m->inputs[i].name;
		used += (size_t)snprintf(inputs + used, sizeof inputs - used,
		                         "%s%s", i > 0 ? ", " : "",
		                         m->inputs[i].name);
		if (used >= sizeof inputs)
			used = sizeof inputs - 1;
	}
	{
		const char *near = sf_suggest_nearest(name, names, count);

		return sf_error_at(err, SF_ENAME, "--input", 0, 0,
		                   "%s has no input '%s'; its inputs are: "
		                   "%s%s%s%s",
		                   m->path, name, count > 0 ? inputs : "(none)",
		                   near != NULL ? "; did you mean '" : "",
		                   near != NULL ? near : "",
		                   near != NULL ? "'?" : "");
	}
}

/* The length of the NAME of "NAME=EXPR" text (spaces before '=' left
 * out), or 0 when it has no '='. */
static size_t
name_length(const char *text)
{
	const char *eq = strchr(text, '=');
	size_t n = eq != NULL ? (size_t)(eq - text) : 0;

	while (n > 0 && isspace((unsigned char)text[n - 1]))
		n--;
	return n;
}

/* Two --input options for one input: the last would silently win. */
static int
refuse_repeated_input(const sf_data_override *o, sf_error *err)
{
	for (size_t i = 1; i < o->ninputs; i++)
		for (size_t k = 0; k < i; k++) {
			size_t n = name_length(o->inputs[i]);

			if (n > 0 && n == name_length(o->inputs[k]) &&
			    memcmp(o->inputs[i], o->inputs[k], n) == 0)
				return sf_error_at(
				    err, SF_EVALUE, "--input", 0, 0,
				    "'%s' and '%s' both give input %.*s: give "
				    "it once",
				    o->inputs[k], o->inputs[i], (int)n,
				    o->inputs[i]);
		}
	return SF_OK;
}

int
sf_data_override_empty(const sf_data_override *o)
{
	return o == NULL ||
	       (o->where == NULL && o->output == NULL && o->ninputs == 0);
}

int
sf_model_override(sf_model *m, const sf_data_override *o, sf_error *err)
{
	int rc;

	if (sf_data_override_empty(o))
		return SF_OK;
	if ((rc = refuse_repeated_input(o, err)) != SF_OK)
		return rc;
	if (o->where != NULL && blank(o->where)) {
		free(m->where.text);
		free(m->where.origin);
		m->where = (sf_model_text){0};
	} else if (o->where != NULL &&
	           (rc = replace(&m->where, o->where, strlen(o->where),
	                         "--where", err)) != SF_OK)
		return rc;
	if (o->output != NULL && blank(o->output))
		return sf_error_at(err, SF_EVALUE, "--output-column", 0, 0,
		                   "the output is empty: give the column (or "
		                   "expression) of the measured time");
	if (o->output != NULL &&
	    (rc = replace(&m->output, o->output, strlen(o->output),
	                  "--output-column", err)) != SF_OK)
		return rc;
	for (size_t i = 0; i < o->ninputs; i++)
		if ((rc = override_input(m, o->inputs[i], err)) != SF_OK)
			return rc;
	return SF_OK;
}
