/*
 * escape.h - text from a file made safe to show on a terminal.
 *
 * Every string that comes from data, a model or a fit file and reaches a
 * terminal (a CSV value in a --by summary, a FIT.json's model name, a
 * library file's comment, an error message quoting any of them) passes
 * through here: a byte that could drive the terminal is shown as a
 * visible escape "\xHH" (two lower-case hex digits) instead.  Those bytes
 * are the C0 controls (below 0x20: ESC starts every escape sequence, BEL
 * ends an OSC one), DEL (0x7f), the C1 controls U+0080..U+009F (CSI is
 * U+009B; each of their two UTF-8 bytes is shown), and every byte that is
 * not part of well-formed UTF-8 (a Latin-1 file, a truncated or overlong
 * sequence, a surrogate).  Well-formed UTF-8 above U+009F passes as it
 * is, and so does a backslash: the escapes are for a person to read, not
 * to be parsed back.
 *
 * Pure functions of their arguments; thread-safe.
 */
#ifndef SF_ESCAPE_H
#define SF_ESCAPE_H

#include <stddef.h>
#include <stdio.h>

/* Flags of the functions below: what may pass as it is. */
enum sf_escape_flag {
	SF_ESCAPE_TAB = 1u << 0,    /* a tab (a quoted line, which the caret
	                               under it must line up with) */
	SF_ESCAPE_NEWLINE = 1u << 1 /* a line break (a message of several
	                               lines) */
};

/*
 * Write text, escaped as above, to out (size bytes, NUL-terminated when
 * size > 0; out may be NULL when size is 0).  A text that does not fit is
 * cut before the escape or character that would not fit whole.  Returns
 * the length of the whole escaped text, without its NUL, as snprintf()
 * does: it fitted when the return is below size.  Each byte of text
 * becomes at most 4, so 4 * strlen(text) + 1 bytes are always enough.
 */
size_t sf_escape(char *out, size_t size, const char *text, unsigned flags);

/* The length of text escaped (sf_escape(NULL, 0, text, flags)). */
size_t sf_escape_length(const char *text, unsigned flags);

/*
 * Print text escaped (no flags: tabs and line breaks escaped too) to
 * out, padded to width columns as printf's "%*s" pads: a positive width
 * aligns it right, a negative one left; 0, no padding.  Returns 0, or EOF
 * when out could not be written.
 */
int sf_escape_print(FILE *out, const char *text, int width);

#endif /* SF_ESCAPE_H */
