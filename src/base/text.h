/*
 * text.h - a growing string: text built piece by piece with printf-style
 * appends, then taken whole.
 *
 * Writers of text (model files, a formula for people, a path) append to
 * an sf_text and take the result at the end.  Out of memory is remembered
 * rather than reported at every append: the first failed append marks the
 * text failed, later appends do nothing, and sf_text_take() returns NULL,
 * so a writer checks once.
 *
 *     sf_text t = SF_TEXT_INIT;
 *     sf_text_printf(&t, "%s: %d\n", key, value);
 *     char *s = sf_text_take(&t);   // NULL: out of memory
 *
 * Ownership: an sf_text owns its bytes until sf_text_take() hands them to
 * the caller (who frees them) or sf_text_free() releases them; either
 * leaves it empty and ready for reuse.  Not shared between threads.
 */
#ifndef SF_TEXT_H
#define SF_TEXT_H

#include <stdarg.h>
#include <stddef.h>

typedef struct sf_text {
	char *data;    /* NUL-terminated once anything was appended */
	size_t length; /* bytes, without the NUL */
	size_t capacity;
	int failed; /* out of memory: the text is incomplete */
} sf_text;

/* An empty text (all zero, as `sf_text t = {0}` is too). */
#define SF_TEXT_INIT                                                           \
	{                                                                      \
		NULL, 0, 0, 0                                                  \
	}

/* Append the n bytes at s (which may hold NULs). */
void sf_text_append(sf_text *t, const char *s, size_t n);

/* Append the string s. */
void sf_text_puts(sf_text *t, const char *s);

/* Append one byte. */
void sf_text_putc(sf_text *t, char c);

/* Append the string s escaped for a terminal (base/escape.h, no flags:
 * control bytes, tabs and line breaks as \xHH and the like). */
void sf_text_escaped(sf_text *t, const char *s);

/* Append printf(fmt, ...). */
void sf_text_printf(sf_text *t, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
void sf_text_vprintf(sf_text *t, const char *fmt, va_list ap)
    __attribute__((format(printf, 2, 0)));

/* The text so far ("" when empty), owned by t and valid until the next
 * append; NULL when an append failed. */
const char *sf_text_str(const sf_text *t);

/*
 * The text, malloc'd and now the caller's ("" when nothing was appended),
 * or NULL when an append ran out of memory (the partial text is freed).
 * t is left empty either way.
 */
char *sf_text_take(sf_text *t);

/* Release t's bytes and leave it empty.  Accepts NULL. */
void sf_text_free(sf_text *t);

/* A malloc'd copy of s, or NULL when out of memory. */
char *sf_text_dup(const char *s);

/* The first size - 1 bytes of s (size >= 1) in ASCII lower case into out,
 * NUL-terminated (out may be s): what names are matched in, case-blind.
 * Returns the bytes written without the NUL. */
size_t sf_text_lower(const char *s, char *out, size_t size);

#endif /* SF_TEXT_H */
