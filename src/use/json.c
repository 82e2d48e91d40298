/*
 * json.c - building JSON documents with one failure flag.
 */
#define _GNU_SOURCE /* open_memstream */

#include "use/json.h"

#include "use/report.h"
#include "base/error.h"

#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

void
sf_json_put(json_t *o, const char *key, json_t *v, int *ok)
{
	if (v == NULL || json_object_set_new(o, key, v) != 0)
		*ok = 0;
}

json_t *
sf_json_done(json_t *root, int ok)
{
	if (ok)
		return root;
	json_decref(root);
	return NULL;
}

json_t *
sf_json_pair(double a, double b)
{
	json_t *v = json_array();

	if (v != NULL && (json_array_append_new(v, sf_json_number(a)) != 0 ||
	                  json_array_append_new(v, sf_json_number(b)) != 0)) {
		json_decref(v);
		return NULL;
	}
	return v;
}

int
sf_json_new(int *ok, const char *kinds, ...)
{
	va_list ap;
	int made = 1;

	va_start(ap, kinds);
	for (const char *k = kinds; *k != '\0'; k++) {
		json_t **v = va_arg(ap, json_t **);

		*v = *k == 'a' ? json_array() : json_object();
		made &= *v != NULL;
	}
	va_end(ap);
	if (made)
		return 1;
	va_start(ap, kinds);
	for (const char *k = kinds; *k != '\0'; k++) {
		json_t **v = va_arg(ap, json_t **);

		json_decref(*v);
		*v = NULL;
	}
	va_end(ap);
	*ok = 0;
	return 0;
}

/* The flags of every document (report.c). */
static const size_t dump_flags = JSON_INDENT(2) | JSON_REAL_PRECISION(17);

/* A line break and the indent of depth levels (one fwrite: a million
 * points have thirty million of them). */
static int
newline(FILE *out, int depth)
{
	static const char line[] = "\n                                "
	                           "                                ";
	size_t n = 1 + 2 * (size_t)depth;

	if (n > sizeof line - 1)
		return fprintf(out, "\n%*s", 2 * depth, "") < 0 ? SF_EIO
		                                                : SF_OK;
	return fwrite(line, 1, n, out) == n ? SF_OK : SF_EIO;
}

/* Write text, a dump, with every line after the first indented by depth
 * levels more: a dump's line breaks are all layout (a string's own are
 * written "\n"). */
static int
write_indented(FILE *out, const char *text, int depth)
{
	int rc = SF_OK;

	for (const char *p = text; *p != '\0' && rc == SF_OK;) {
		size_t n = strcspn(p, "\n");

		if (fwrite(p, 1, n, out) != n)
			rc = SF_EIO;
		else if (p[n] == '\n')
			rc = newline(out, depth);
		p += n + (p[n] == '\n');
	}
	return rc;
}

int
sf_json_write(FILE *out, const json_t *v, int depth)
{
	char *text = json_dumps(v, dump_flags | JSON_ENCODE_ANY);
	int rc;

	if (text == NULL)
		return SF_ENOMEM;
	rc = write_indented(out, text, depth);
	free(text);
	return rc;
}

json_t *
sf_json_tree(sf_json_print_fn print, const void *arg)
{
	char *text = NULL;
	size_t length = 0;
	FILE *out = open_memstream(&text, &length);
	json_t *tree = NULL;
	int rc;

	if (out == NULL)
		return NULL;
	rc = print(out, arg);
	if (fclose(out) == 0 && rc == SF_OK)
		tree = json_loadb(text, length, 0, NULL);
	free(text);
	return tree;
}

int
sf_json_write_tail(FILE *out, const json_t *head, int depth, const char *key,
                   size_t n, sf_json_element_fn element, const void *ctx)
{
	json_t *name = json_string(key);
	int rc = SF_OK;

	if (name == NULL)
		return SF_ENOMEM;
	/* The head's dump but its closing "\n}" (or "{}" when empty). */
	if (json_object_size(head) == 0) {
		rc = fputc('{', out) == EOF ? SF_EIO : SF_OK;
	} else {
		char *text = json_dumps(head, dump_flags);
		size_t length = text != NULL ? strlen(text) : 0;

		if (text == NULL)
			rc = SF_ENOMEM;
		else if (length >= 2) {
			text[length - 2] = '\0';
			rc = write_indented(out, text, depth);
		}
		if (rc == SF_OK && fputc(',', out) == EOF)
			rc = SF_EIO;
		free(text);
	}
	if (rc == SF_OK && (rc = newline(out, depth + 1)) == SF_OK &&
	    (rc = sf_json_write(out, name, depth + 1)) == SF_OK &&
	    fputs(n > 0 ? ": [" : ": []", out) == EOF)
		rc = SF_EIO;
	for (size_t k = 0; k < n && rc == SF_OK; k++) {
		if (k > 0 && fputc(',', out) == EOF)
			rc = SF_EIO;
		if (rc == SF_OK && (rc = newline(out, depth + 2)) == SF_OK)
			rc = element(out, ctx, k, depth + 2);
	}
	if (rc == SF_OK && n > 0 && (rc = newline(out, depth + 1)) == SF_OK &&
	    fputc(']', out) == EOF)
		rc = SF_EIO;
	if (rc == SF_OK && (rc = newline(out, depth)) == SF_OK &&
	    fputc('}', out) == EOF)
		rc = SF_EIO;
	json_decref(name);
	return rc;
}

/* ---- written as made ------------------------------------------------------
 */

void
sf_json_writer_init(sf_json_writer *w, FILE *out, int depth)
{
	memset(w, 0, sizeof *w);
	w->out = out;
	w->depth = depth;
}

void
sf_json_writer_open(sf_json_writer *w, char bracket)
{
	if (w->rc != SF_OK ||
	    w->open >= (int)sizeof w->empty) { /* deeper: a bug */
		w->rc = w->rc != SF_OK ? w->rc : SF_EINTERNAL;
		return;
	}
	if (fputc(bracket, w->out) == EOF)
		w->rc = SF_EIO;
	w->empty[w->open++] = 1;
	w->depth++;
}

void
sf_json_writer_close(sf_json_writer *w, char bracket)
{
	if (w->rc != SF_OK || w->open == 0)
		return;
	w->depth--;
	/* jansson: "{}" and "[]" when empty, else the bracket on a line of
	 * its own */
	if (!w->empty[--w->open])
		w->rc = newline(w->out, w->depth);
	if (w->rc == SF_OK && fputc(bracket, w->out) == EOF)
		w->rc = SF_EIO;
}

void
sf_json_writer_next(sf_json_writer *w, const char *key)
{
	if (w->rc != SF_OK || w->open == 0)
		return;
	if (!w->empty[w->open - 1] && fputc(',', w->out) == EOF)
		w->rc = SF_EIO;
	w->empty[w->open - 1] = 0;
	if (w->rc == SF_OK)
		w->rc = newline(w->out, w->depth);
	if (key != NULL) {
		sf_json_writer_string(w, key);
		if (w->rc == SF_OK && fputs(": ", w->out) == EOF)
			w->rc = SF_EIO;
	}
}

void
sf_json_writer_pair(sf_json_writer *w, const char *key, double lo, double hi)
{
	sf_json_writer_next(w, key);
	sf_json_writer_open(w, '[');
	sf_json_writer_next(w, NULL);
	sf_json_writer_number(w, lo);
	sf_json_writer_next(w, NULL);
	sf_json_writer_number(w, hi);
	sf_json_writer_close(w, ']');
}

void
sf_json_number_text(double x, char *buf)
{
	char *e, *from;
	size_t n;

	if (!isfinite(x)) {
		strcpy(buf, "null");
		return;
	}
	/* sf_json_number(): a whole number is a JSON integer */
	if (x == floor(x) && fabs(x) <= 9007199254740992.0 &&
	    !(x == 0 && signbit(x))) {
		snprintf(buf, 32, "%lld", (long long)x);
		return;
	}
	/* jansson's real: "%.17g", a ".0" when it has neither '.' nor
	 * 'e', the exponent without '+' or leading zeros */
	n = (size_t)snprintf(buf, 32, "%.17g", x);
	if ((e = strchr(buf, ',')) != NULL) /* a locale's decimal point */
		*e = '.';
	if (strchr(buf, '.') == NULL && strchr(buf, 'e') == NULL) {
		strcpy(buf + n, ".0");
		return;
	}
	if ((e = strchr(buf, 'e')) == NULL)
		return;
	from = ++e;
	if (*e == '-')
		from = ++e;
	else if (*e == '+')
		from = e + 1;
	while (*from == '0' && from[1] != '\0')
		from++;
	memmove(e, from, strlen(from) + 1);
}

void
sf_json_writer_number(sf_json_writer *w, double x)
{
	char buf[32];

	if (w->rc != SF_OK)
		return;
	sf_json_number_text(x, buf);
	if (fputs(buf, w->out) == EOF)
		w->rc = SF_EIO;
}

void
sf_json_writer_bool(sf_json_writer *w, int b)
{
	if (w->rc == SF_OK && fputs(b ? "true" : "false", w->out) == EOF)
		w->rc = SF_EIO;
}

void
sf_json_writer_string(sf_json_writer *w, const char *s)
{
	FILE *out = w->out;
	const char *run = s;

	if (w->rc != SF_OK)
		return;
	/* jansson's escapes: '"', '\\', the controls (\b \f \n \r \t
	 * by name, the others \u00XX); UTF-8 as it is */
	if (fputc('"', out) == EOF)
		w->rc = SF_EIO;
	for (const char *c = s; w->rc == SF_OK; c++) {
		static const char names[] = "btn\0fr";
		unsigned char b = (unsigned char)*c;
		size_t n = (size_t)(c - run);
		int ok;

		if (b >= 0x20 && b != '"' && b != '\\')
			continue;
		/* the plain run before c, then c escaped */
		if (n > 0 && fwrite(run, 1, n, out) != n) {
			w->rc = SF_EIO;
			break;
		}
		run = c + 1;
		if (b == '\0')
			break;
		if (b == '"' || b == '\\')
			ok = fprintf(out, "\\%c", b) >= 0;
		else if (b >= '\b' && b <= '\r' && b != 0x0b)
			ok = fprintf(out, "\\%c", names[b - '\b']) >= 0;
		else
			ok = fprintf(out, "\\u%04X", b) >= 0;
		if (!ok)
			w->rc = SF_EIO;
	}
	if (w->rc == SF_OK && fputc('"', out) == EOF)
		w->rc = SF_EIO;
}
