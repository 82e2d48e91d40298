/*
 * escape.c - text made safe to show on a terminal (escape.h).
 */
#include "base/escape.h"

#include <string.h>

/* 1 when c is a UTF-8 continuation byte. */
static int
continuation(unsigned char c)
{
	return (c & 0xc0) == 0x80;
}

/*
 * The length (1 to 4) of the well-formed UTF-8 sequence that starts at s,
 * or 0 when the byte at s starts none (RFC 3629: no overlong form, no
 * surrogate, nothing above U+10FFFF).  Reads no further than a NUL.
 */
static size_t
utf8_length(const unsigned char *s)
{
	unsigned char lo = 0x80, hi = 0xbf;

	if (s[0] < 0x80)
		return 1;
	if (s[0] >= 0xc2 && s[0] <= 0xdf)
		return continuation(s[1]) ? 2 : 0;
	if (s[0] >= 0xe0 && s[0] <= 0xef) {
		lo = s[0] == 0xe0 ? 0xa0 : lo;
		hi = s[0] == 0xed ? 0x9f : hi;
		return s[1] >= lo && s[1] <= hi && continuation(s[2]) ? 3 : 0;
	}
	if (s[0] >= 0xf0 && s[0] <= 0xf4) {
		lo = s[0] == 0xf0 ? 0x90 : lo;
		hi = s[0] == 0xf4 ? 0x8f : hi;
		return s[1] >= lo && s[1] <= hi && continuation(s[2]) &&
		               continuation(s[3])
		           ? 4
		           : 0;
	}
	return 0;
}

/* How many bytes at s (not at its end) pass as they are: 0 when the byte
 * at s is shown as an escape. */
static size_t
passes(const unsigned char *s, unsigned flags)
{
	size_t n;

	if (s[0] < 0x20)
		return (s[0] == '\t' && (flags & SF_ESCAPE_TAB)) ||
		               (s[0] == '\n' && (flags & SF_ESCAPE_NEWLINE))
		           ? 1
		           : 0;
	if (s[0] == 0x7f)
		return 0;
	n = utf8_length(s);
	/* U+0080..U+009F, the C1 controls: 0xc2 0x80..0x9f */
	if (n == 2 && s[0] == 0xc2 && s[1] < 0xa0)
		return 0;
	return n;
}

/* The escape of byte c, "\xHH", into out (4 bytes, no NUL). */
static void
escape_byte(unsigned char c, char *out)
{
	static const char hex[] = "0123456789abcdef";

	out[0] = '\\';
	out[1] = 'x';
	out[2] = hex[c >> 4];
	out[3] = hex[c & 15];
}

size_t
sf_escape(char *out, size_t size, const char *text, unsigned flags)
{
	const unsigned char *s = (const unsigned char *)text;
	size_t used = 0, written = 0;
	int full = 0;

	while (*s != '\0') {
		size_t n = passes(s, flags);
		char piece[4];
		const char *from = (const char *)s;
		size_t length = n;

		if (n == 0) {
			escape_byte(*s, piece);
			from = piece;
			length = 4;
			n = 1;
		}
		/* Cut before a piece that does not fit whole. */
		if (!full && written + length < size) {
			memcpy(out + written, from, length);
			written += length;
		} else {
			full = 1;
		}
		used += length;
		s += n;
	}
	if (size > 0)
		out[written] = '\0';
	return used;
}

size_t
sf_escape_length(const char *text, unsigned flags)
{
	return sf_escape(NULL, 0, text, flags);
}

int
sf_escape_print(FILE *out, const char *text, int width)
{
	const unsigned char *s = (const unsigned char *)text;
	size_t length = sf_escape_length(text, 0);
	size_t pad = (size_t)(width < 0 ? -(long)width : width);

	pad = pad > length ? pad - length : 0;
	if (width > 0 && fprintf(out, "%*s", (int)pad, "") < 0)
		return EOF;
	while (*s != '\0') {
		size_t n = passes(s, 0);
		char piece[4];

		if (n == 0) {
			escape_byte(*s, piece);
			if (fwrite(piece, 1, 4, out) != 4)
				return EOF;
			s++;
		} else {
			if (fwrite(s, 1, n, out) != n)
				return EOF;
			s += n;
		}
	}
	if (width < 0 && fprintf(out, "%*s", (int)pad, "") < 0)
		return EOF;
	return 0;
}
