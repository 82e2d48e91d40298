/*
 * jsondoc.c - a JSON document's values checked for their type, and any
 * error or warning about one placed at FILE:LINE:COL by its path
 * (jsondoc.h).
 */
#include "use/jsondoc.h"
#include "use/jsonpath.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Fill e with an error at byte offset off, quoting its line. */
int
sf_jsondoc_error_at(const sf_jsondoc *doc, sf_error *e, size_t off, int code,
                    const char *message)
{
	int line, column;

	if (e == NULL)
		return code;
	sf_error_position(doc->text, doc->length, off, &line, &column);
	sf_error_at(e, code, doc->name, line, column, "%s", message);
	sf_error_quote(e, doc->text, doc->length);
	return code;
}

/* An error at the value named path (see sf_jsonpath_locate()). */
int
sf_jsondoc_fail(sf_jsondoc *doc, const char *path, int code, const char *fmt,
                ...)
{
	char message[SF_ERROR_MESSAGE_MAX];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(message, sizeof message, fmt, ap);
	va_end(ap);
	return sf_jsondoc_error_at(
	    doc, doc->err, sf_jsonpath_locate(doc->text, doc->length, path),
	    code, message);
}

/* A warning at the value named path, kept in the fit; dropped when it
 * cannot be kept (no memory). */
void
sf_jsondoc_warn(sf_jsondoc *doc, const char *path, const char *fmt, ...)
{
	char message[SF_ERROR_MESSAGE_MAX];
	sf_error *more;
	va_list ap;

	if (doc->warnings == NULL ||
	    (more = realloc(*doc->warnings,
	                    (*doc->nwarnings + 1) * sizeof *more)) == NULL)
		return;
	*doc->warnings = more;
	va_start(ap, fmt);
	vsnprintf(message, sizeof message, fmt, ap);
	va_end(ap);
	sf_error_clear(&more[*doc->nwarnings]);
	sf_jsondoc_error_at(doc, &more[(*doc->nwarnings)++],
	                    sf_jsonpath_locate(doc->text, doc->length, path),
	                    SF_OK, message);
}

int
sf_jsondoc_oom(sf_jsondoc *doc)
{
	return sf_error_set(doc->err, SF_ENOMEM, "out of memory");
}

const char *
sf_jsondoc_type_name(const json_t *v)
{
	switch (json_typeof(v)) {
	case JSON_OBJECT:
		return "an object";
	case JSON_ARRAY:
		return "an array";
	case JSON_STRING:
		return "a string";
	case JSON_INTEGER:
	case JSON_REAL:
		return "a number";
	case JSON_TRUE:
	case JSON_FALSE:
		return "a boolean";
	default:
		return "null";
	}
}

/* Copy parent, then the pieces, into out (SF_JSONDOC_PATH_MAX), cutting what
 * does not fit: a path is only used for messages and sf_jsonpath_locate(). */
static void
join(char *out, const char *parent, const char *sep, const char *piece)
{
	size_t used = 0;
	const char *parts[3] = {parent, sep, piece};

	for (size_t k = 0; k < 3; k++) {
		size_t n = strlen(parts[k]);

		if (n > SF_JSONDOC_PATH_MAX - 1 - used)
			n = SF_JSONDOC_PATH_MAX - 1 - used;
		memmove(out + used, parts[k], n);
		used += n;
	}
	out[used] = '\0';
}

void
sf_jsondoc_member_path(char *out, const char *parent, const char *key)
{
	join(out, parent, parent[0] != '\0' ? "." : "", key);
}

void
sf_jsondoc_element_path(char *out, const char *parent, size_t index)
{
	char number[32];

	snprintf(number, sizeof number, "[%zu]", index);
	join(out, parent, "", number);
}

int
sf_jsondoc_check_type(sf_jsondoc *doc, const json_t *v, const char *path,
                      const char *wanted)
{
	int ok = (strcmp(wanted, "object") == 0 && json_is_object(v)) ||
	         (strcmp(wanted, "array") == 0 && json_is_array(v)) ||
	         (strcmp(wanted, "string") == 0 && json_is_string(v)) ||
	         (strcmp(wanted, "number") == 0 && json_is_number(v));
	const char *article = strchr("aeiou", wanted[0]) != NULL ? "an" : "a";

	if (!ok)
		sf_jsondoc_fail(doc, path, SF_ETYPE,
		                "%s should be %s %s, not %s",
		                path[0] != '\0' ? path : "the file's top level",
		                article, wanted, sf_jsondoc_type_name(v));
	return ok;
}

json_t *
sf_jsondoc_member(sf_jsondoc *doc, const json_t *obj, const char *parent,
                  const char *key, const char *wanted, int required, int *rc)
{
	char path[SF_JSONDOC_PATH_MAX];
	json_t *v = json_object_get(obj, key);

	*rc = SF_OK;
	sf_jsondoc_member_path(path, parent, key);
	if (v == NULL || (json_is_null(v) && !required)) {
		if (required)
			*rc = sf_jsondoc_fail(
			    doc, parent, SF_ENAME, "%s has no key '%s'",
			    parent[0] != '\0' ? parent : "the file", key);
		return NULL;
	}
	if (!sf_jsondoc_check_type(doc, v, path, wanted)) {
		*rc = SF_ETYPE;
		return NULL;
	}
	return v;
}

int
sf_jsondoc_number(sf_jsondoc *doc, const json_t *v, const char *path,
                  int null_ok, double *out)
{
	if (json_is_null(v) && null_ok) {
		*out = NAN;
		return SF_OK;
	}
	if (!sf_jsondoc_check_type(doc, v, path, "number"))
		return SF_ETYPE;
	*out = json_number_value(v);
	return SF_OK;
}
