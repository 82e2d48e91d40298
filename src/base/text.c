/*
 * text.c - a growing string (text.h): doubling capacity, out of memory
 * remembered in the text.
 */
#include "base/text.h"
#include "base/escape.h"

#include <ctype.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Room for n more bytes and the NUL; 0, or -1 (and t failed) when out of
 * memory. */
static int
reserve(sf_text *t, size_t n)
{
	size_t want;
	char *grown;

	if (t->failed)
		return -1;
	if (n < t->capacity - t->length)
		return 0;
	if (n > SIZE_MAX / 4 || t->capacity > SIZE_MAX / 4) {
		t->failed = 1;
		return -1;
	}
	want = 2 * t->capacity + n + 256;
	if ((grown = realloc(t->data, want)) == NULL) {
		t->failed = 1;
		return -1;
	}
	t->data = grown;
	t->capacity = want;
	return 0;
}

void
sf_text_append(sf_text *t, const char *s, size_t n)
{
	if (reserve(t, n) != 0)
		return;
	memcpy(t->data + t->length, s, n);
	t->length += n;
	t->data[t->length] = '\0';
}

void
sf_text_puts(sf_text *t, const char *s)
{
	sf_text_append(t, s, strlen(s));
}

void
sf_text_putc(sf_text *t, char c)
{
	sf_text_append(t, &c, 1);
}

void
sf_text_vprintf(sf_text *t, const char *fmt, va_list ap)
{
	va_list copy;
	int n;

	if (t->failed)
		return;
	va_copy(copy, ap);
	n = vsnprintf(NULL, 0, fmt, copy);
	va_end(copy);
	if (n < 0) {
		t->failed = 1;
		return;
	}
	if (reserve(t, (size_t)n) != 0)
		return;
	vsnprintf(t->data + t->length, t->capacity - t->length, fmt, ap);
	t->length += (size_t)n;
}

void
sf_text_escaped(sf_text *t, const char *s)
{
	size_t n = sf_escape_length(s, 0) + 1;
	char *e = malloc(n);

	if (e == NULL) {
		t->failed = 1;
		return;
	}
	sf_escape(e, n, s, 0);
	sf_text_puts(t, e);
	free(e);
}

void
sf_text_printf(sf_text *t, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	sf_text_vprintf(t, fmt, ap);
	va_end(ap);
}

const char *
sf_text_str(const sf_text *t)
{
	if (t->failed)
		return NULL;
	return t->data != NULL ? t->data : "";
}

char *
sf_text_take(sf_text *t)
{
	char *s = t->data;

	if (t->failed) {
		free(s);
		s = NULL;
	} else if (s == NULL) {
		s = sf_text_dup("");
	}
	memset(t, 0, sizeof *t);
	return s;
}

void
sf_text_free(sf_text *t)
{
	if (t == NULL)
		return;
	free(t->data);
	memset(t, 0, sizeof *t);
}

size_t
sf_text_lower(const char *s, char *out, size_t size)
{
	size_t n = 0;

	for (; s[n] != '\0' && n + 1 < size; n++)
		out[n] = (char)tolower((unsigned char)s[n]);
	out[n] = '\0';
	return n;
}

char *
sf_text_dup(const char *s)
{
	size_t n = strlen(s) + 1;
	char *copy = malloc(n);

	if (copy != NULL)
		memcpy(copy, s, n);
	return copy;
}
