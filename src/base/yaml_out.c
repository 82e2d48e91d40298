/*
 * yaml_out.c - a YAML writer whose every text scalar is double-quoted,
 * whose numbers are its own and finite, and whose comments hold no line
 * break (yaml_out.h).
 */
#include "base/yaml_out.h"
#include "base/number.h"

#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

/* ---- escaping ---------------------------------------------------------- */

/* The code point of the UTF-8 sequence at s (*len bytes), or -1 when the
 * bytes there are not a valid, shortest sequence (then *len is 1). */
static long
utf8_next(const unsigned char *s, size_t *len)
{
	static const long least[5] = {0, 0, 0x80, 0x800, 0x10000};
	size_t n = s[0] >= 0xF0 ? 4 : s[0] >= 0xE0 ? 3 : s[0] >= 0xC0 ? 2 : 0;
	long cp;

	*len = 1;
	if (n == 0 || s[0] > 0xF4)
		return -1;
	cp = s[0] & (0x3F >> (n - 1));
	for (size_t i = 1; i < n; i++) {
		if ((s[i] & 0xC0) != 0x80)
			return -1;
		cp = (cp << 6) | (s[i] & 0x3F);
	}
	if (cp < least[n] || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF))
		return -1;
	*len = n;
	return cp;
}

/* 1 for a character above the C1 controls that a YAML reader refuses
 * (U+FFFE, U+FFFF), or reads as a line break (the line and paragraph
 * separators) or a byte order mark (U+FEFF). */
static int
needs_escape(long cp)
{
	return cp == 0x2028 || cp == 0x2029 || cp == 0xFEFF || cp == 0xFFFE ||
	       cp == 0xFFFF;
}

/* Append text with the escapes of yaml_out.h; quotes and backslashes too
 * when scalar. */
static void
escape(sf_text *t, const char *text, int scalar)
{
	const unsigned char *s = (const unsigned char *)text;

	while (*s != '\0') {
		size_t len = 1;
		long cp = *s < 0x80 ? *s : utf8_next(s, &len);

		if (cp == '"' || cp == '\\')
			sf_text_printf(t, scalar ? "\\%c" : "%c", (int)cp);
		else if (cp == '\n')
			sf_text_puts(t, "\\n");
		else if (cp == '\t')
			sf_text_puts(t, "\\t");
		else if (cp < 0) /* an invalid byte */
			sf_text_printf(t, "\\x%02X", (unsigned)*s);
		else if (cp < 0x20 || cp == 0x7F || (cp >= 0x80 && cp <= 0x9F))
			sf_text_printf(t, "\\x%02X", (unsigned)cp);
		else if (needs_escape(cp))
			sf_text_printf(t, "\\u%04lX", (unsigned long)cp);
		else
			sf_text_append(t, (const char *)s, len);
		s += len;
	}
}

long
sf_yaml_out_invalid_utf8(const char *text)
{
	const unsigned char *s = (const unsigned char *)text;

	while (*s != '\0') {
		size_t len = 1;

		if (*s >= 0x80 && utf8_next(s, &len) < 0)
			return (long)(s - (const unsigned char *)text);
		s += len;
	}
	return -1;
}

void
sf_yaml_out_quote(sf_text *t, const char *text)
{
	sf_text_putc(t, '"');
	escape(t, text, 1);
	sf_text_putc(t, '"');
}

void
sf_yaml_out_comment_text(sf_text *t, const char *text)
{
	escape(t, text, 0);
}

int
sf_yaml_out_plain_key(const char *key)
{
	/* what YAML 1.1 readers (PyYAML among them) take for booleans and
	 * null, whatever their case */
	static const char *const words[] = {"true", "false", "yes", "no",
	                                    "on",   "off",   "null"};

	if (!((*key >= 'a' && *key <= 'z') || (*key >= 'A' && *key <= 'Z') ||
	      *key == '_'))
		return 0;
	for (const char *p = key; *p != '\0'; p++)
		if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
		      (*p >= '0' && *p <= '9') || *p == '_'))
			return 0;
	for (size_t i = 0; i < sizeof words / sizeof words[0]; i++) {
		size_t n = strlen(words[i]), j;

		for (j = 0; j < n && key[j] != '\0'; j++)
			if ((key[j] | 0x20) != words[i][j])
				break;
		if (j == n && key[j] == '\0')
			return 0;
	}
	return 1;
}

/* ---- the document ------------------------------------------------------ */

void
sf_yaml_out_init(sf_yaml_out *y, sf_text *text)
{
	memset(y, 0, sizeof *y);
	y->text = text;
}

/* Refuse the document: the first refusal's code and message are kept,
 * and the text is marked failed so that no half document is taken. */
static void refuse(sf_yaml_out *y, int code, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static void
refuse(sf_yaml_out *y, int code, const char *fmt, ...)
{
	va_list ap;

	y->text->failed = 1;
	if (y->refused != SF_OK)
		return;
	y->refused = code;
	va_start(ap, fmt);
	vsnprintf(y->why, sizeof y->why, fmt, ap);
	va_end(ap);
}

/* The writer's caller got the order of calls wrong: no document. */
static void
misuse(sf_yaml_out *y, const char *what)
{
	refuse(y, SF_EINTERNAL, "the YAML writer was misused: %s", what);
}

/* 1 inside a flow collection. */
static int
in_flow(const sf_yaml_out *y)
{
	return y->depth > 0 && y->open[y->depth - 1] != ':' &&
	       y->open[y->depth - 1] != '-';
}

/* The start of a block line, or of the next entry of a flow collection:
 * its indentation, or its separator. */
static void
entry(sf_yaml_out *y)
{
	if (in_flow(y)) {
		if (y->items++ > 0)
			sf_text_puts(y->text, ", ");
		return;
	}
	for (size_t i = 0; i < y->indent - (y->dash ? 2 : 0); i++)
		sf_text_putc(y->text, ' ');
	if (y->dash)
		sf_text_puts(y->text, "- ");
	y->dash = 0;
}

/* k at the start of an entry, plain or quoted, without the colon. */
static void
key(sf_yaml_out *y, const char *k)
{
	entry(y);
	if (sf_yaml_out_plain_key(k))
		sf_text_puts(y->text, k);
	else
		sf_yaml_out_quote(y->text, k);
}

/* The end of a block line: a comment after the value, if any. */
static void
line_end(sf_yaml_out *y, const char *note)
{
	if (in_flow(y))
		return;
	if (note != NULL) {
		sf_text_puts(y->text, "  # ");
		sf_yaml_out_comment_text(y->text, note);
	}
	sf_text_putc(y->text, '\n');
}

void
sf_yaml_out_comment(sf_yaml_out *y, const char *fmt, ...)
{
	sf_text body = SF_TEXT_INIT;
	va_list ap;

	if (in_flow(y)) {
		misuse(y, "a comment inside a flow collection would end its "
		          "line");
		return;
	}
	va_start(ap, fmt);
	sf_text_vprintf(&body, fmt, ap);
	va_end(ap);
	entry(y);
	sf_text_putc(y->text, '#');
	if (body.failed)
		y->text->failed = 1;
	else if (body.length > 0) {
		sf_text_putc(y->text, ' ');
		sf_yaml_out_comment_text(y->text, body.data);
	}
	sf_text_putc(y->text, '\n');
	sf_text_free(&body);
}

void
sf_yaml_out_pair(sf_yaml_out *y, const char *k, const char *value,
                 const char *note)
{
	key(y, k);
	sf_text_puts(y->text, ": ");
	sf_yaml_out_quote(y->text, value);
	line_end(y, note);
}

char *
sf_yaml_out_number_text(char *buf, size_t n, double v)
{
	char mantissa[32], *e;

	if (!isfinite(v))
		return NULL;
	sf_format_double(buf, n, v);
	/* 1e+21 is a number to YAML 1.2 but text to YAML 1.1, which wants
	 * a point: 1.0e+21 is a number to both. */
	if ((e = strchr(buf, 'e')) != NULL &&
	    memchr(buf, '.', (size_t)(e - buf)) == NULL) {
		snprintf(mantissa, sizeof mantissa, "%.*s", (int)(e - buf),
		         buf);
		snprintf(mantissa + strlen(mantissa),
		         sizeof mantissa - strlen(mantissa), ".0%s", e);
		snprintf(buf, n, "%s", mantissa);
	}
	return buf;
}

/* key: text, text written as it is (a number or a boolean). */
static void
plain_pair(sf_yaml_out *y, const char *k, const char *text, const char *note)
{
	key(y, k);
	sf_text_puts(y->text, ": ");
	sf_text_puts(y->text, text);
	line_end(y, note);
}

/* The text of v, or NULL after refusing the document for key k (NULL:
 * an item of the innermost collection). */
static const char *
finite_text(sf_yaml_out *y, const char *k, double v, char *buf, size_t n)
{
	if (sf_yaml_out_number_text(buf, n, v) != NULL)
		return buf;
	refuse(y, SF_EVALUE,
	       "%s%s%s would be %s: a model file holds finite numbers only",
	       y->where, y->where[0] != '\0' && k != NULL ? "." : "",
	       k != NULL ? k : "",
	       isnan(v) ? "nan"
	       : v > 0  ? "inf"
	                : "-inf");
	return NULL;
}

void
sf_yaml_out_number(sf_yaml_out *y, const char *k, double v, const char *note)
{
	char t[32];

	if (finite_text(y, k, v, t, sizeof t) != NULL)
		plain_pair(y, k, t, note);
}

void
sf_yaml_out_count(sf_yaml_out *y, const char *k, size_t n, const char *note)
{
	char t[32];

	snprintf(t, sizeof t, "%zu", n);
	plain_pair(y, k, t, note);
}

void
sf_yaml_out_bool(sf_yaml_out *y, const char *k, int v, const char *note)
{
	plain_pair(y, k, v ? "true" : "false", note);
}

/* Open a collection under key k: ':' a block mapping, '{' or '['.  A
 * flow collection holds scalars only. */
static void
open_collection(sf_yaml_out *y, const char *k, char kind)
{
	size_t n = strlen(y->where);

	if (y->depth == SF_YAML_OUT_DEPTH || in_flow(y)) {
		misuse(y, y->depth == SF_YAML_OUT_DEPTH
		              ? "collections nested too deep"
		              : "a collection inside a flow collection");
		return;
	}
	y->at[y->depth] = n;
	snprintf(y->where + n, sizeof y->where - n, "%s%s", n > 0 ? "." : "",
	         k);
	key(y, k);
	if (kind == ':' || kind == '-') {
		sf_text_puts(y->text, ":\n");
		y->indent += 2;
	} else {
		sf_text_puts(y->text, ": ");
		sf_text_putc(y->text, kind);
		y->items = 0;
	}
	y->open[y->depth++] = kind;
}

void
sf_yaml_out_map(sf_yaml_out *y, const char *k)
{
	open_collection(y, k, ':');
}

void
sf_yaml_out_seq(sf_yaml_out *y, const char *k)
{
	open_collection(y, k, '-');
}

void
sf_yaml_out_item_map(sf_yaml_out *y)
{
	if (y->depth == SF_YAML_OUT_DEPTH || y->depth == 0 ||
	    y->open[y->depth - 1] != '-') {
		y->text->failed = 1; /* only inside a block sequence */
		return;
	}
	y->open[y->depth++] = ':';
	y->indent += 2;
	y->dash = 1;
}

void
sf_yaml_out_flow_map(sf_yaml_out *y, const char *k)
{
	open_collection(y, k, '{');
}

void
sf_yaml_out_flow_seq(sf_yaml_out *y, const char *k)
{
	open_collection(y, k, '[');
}

void
sf_yaml_out_item(sf_yaml_out *y, const char *value)
{
	if (y->depth == 0 || y->open[y->depth - 1] != '[') {
		misuse(y, "an item outside a sequence");
		return;
	}
	entry(y);
	sf_yaml_out_quote(y->text, value);
}

void
sf_yaml_out_item_number(sf_yaml_out *y, double v)
{
	char t[32];

	if (y->depth == 0 || y->open[y->depth - 1] != '[') {
		misuse(y, "an item outside a sequence");
		return;
	}
	if (finite_text(y, NULL, v, t, sizeof t) == NULL)
		return;
	entry(y);
	sf_text_puts(y->text, t);
}

void
sf_yaml_out_end(sf_yaml_out *y, const char *note)
{
	char kind;

	if (y->depth == 0) {
		misuse(y, "an end with nothing open");
		return;
	}
	kind = y->open[--y->depth];
	y->where[y->at[y->depth]] = '\0';
	if (kind == ':' || kind == '-') {
		y->indent -= 2;
		return;
	}
	sf_text_putc(y->text, kind == '{' ? '}' : ']');
	line_end(y, note);
}

int
sf_yaml_out_finish(sf_yaml_out *y, char **text, sf_error *err)
{
	int refused;

	for (size_t i = 0; i < y->depth; i++)
		if (y->open[i] != ':')
			misuse(y, "a flow collection left open");
	refused = y->refused;
	*text = sf_text_take(y->text);
	if (refused != SF_OK)
		return sf_error_set(err, refused, "%s", y->why);
	if (*text == NULL)
		return sf_error_set(err, SF_ENOMEM, "out of memory");
	return SF_OK;
}
