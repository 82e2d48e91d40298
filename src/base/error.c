/*
 * error.c - filling and formatting sf_error records.
 *
 * Formatting follows the compilers people know: a "FILE:LINE:COL:" prefix
 * that editors can jump to, then the offending line and a caret under the
 * column.  Tabs in the quoted line are kept in the caret line so the caret
 * lands under the right character in any terminal.
 */
#include "base/error.h"
#include "base/escape.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

void
sf_error_clear(sf_error *e)
{
	if (e == NULL)
		return;
	memset(e, 0, sizeof *e);
}

static void
error_vmessage(sf_error *e, const char *fmt, va_list ap)
{
	vsnprintf(e->message, sizeof e->message, fmt, ap);
}

int
sf_error_set(sf_error *e, int code, const char *fmt, ...)
{
	va_list ap;

	if (e == NULL)
		return code;
	e->code = code;
	e->name[0] = '\0';
	va_start(ap, fmt);
	error_vmessage(e, fmt, ap);
	va_end(ap);
	return code;
}

int
sf_error_at(sf_error *e, int code, const char *file, int line, int column,
            const char *fmt, ...)
{
	va_list ap;

	if (e == NULL)
		return code;
	e->code = code;
	snprintf(e->file, sizeof e->file, "%s", file != NULL ? file : "");
	e->line = line;
	e->column = column;
	e->source[0] = '\0';
	e->source_column = 0;
	e->name[0] = '\0';
	va_start(ap, fmt);
	error_vmessage(e, fmt, ap);
	va_end(ap);
	return code;
}

void
sf_error_prefix(sf_error *e, const char *fmt, ...)
{
	char joined[SF_ERROR_MESSAGE_MAX];
	size_t used, rest;
	va_list ap;
	int w;

	if (e == NULL)
		return;
	va_start(ap, fmt);
	w = vsnprintf(joined, sizeof joined, fmt, ap);
	va_end(ap);
	used = w < 0 ? 0 : (size_t)w;
	if (used >= sizeof joined)
		used = sizeof joined - 1;
	rest = strlen(e->message);
	if (rest > sizeof joined - 1 - used)
		rest = sizeof joined - 1 - used;
	memcpy(joined + used, e->message, rest);
	joined[used + rest] = '\0';
	memcpy(e->message, joined, sizeof e->message);
}

void
sf_error_in_argument(sf_error *e, const char *option, const char *text)
{
	int column;

	if (e == NULL)
		return;
	column = e->column;
	snprintf(e->file, sizeof e->file, "%s", option);
	if (column > 0)
		sf_error_prefix(e, "column %d: ", column);
	e->line = 1;
	e->column = column > 0 ? column : 1;
	sf_error_quote(e, text, strlen(text));
	e->line = e->column = 0;
}

void
sf_error_position(const char *text, size_t length, size_t off, int *line,
                  int *column)
{
	size_t start = 0;

	*line = 1;
	if (off > length)
		off = length;
	for (size_t i = 0; i < off; i++)
		if (text[i] == '\n') {
			(*line)++;
			start = i + 1;
		}
	*column = (int)(off - start) + 1;
}

void
sf_error_quote(sf_error *e, const char *text, size_t length)
{
	size_t start = 0, end, width, col, skip = 0;
	int line = 1;

	if (e == NULL || e->line <= 0 || text == NULL)
		return;
	while (line < e->line) {
		const char *nl = memchr(text + start, '\n', length - start);
		if (nl == NULL)
			return;
		start = (size_t)(nl - text) + 1;
		line++;
	}
	end = start;
	while (end < length && text[end] != '\n' && text[end] != '\r')
		end++;
	width = end - start;
	col = e->column > 0 ? (size_t)e->column : 0;
	/* A long line is cut to a window that keeps the column in view. */
	if (width >= sizeof e->source) {
		size_t room = sizeof e->source - 1;
		if (col > room - 20)
			skip = col - (room - 20);
		if (skip > width - room)
			skip = width - room;
		width = room;
	}
	memcpy(e->source, text + start + skip, width);
	e->source[width] = '\0';
	/* A NUL byte in the line would hide what follows; show it as a '?'. */
	for (size_t i = 0; i < width; i++)
		if (e->source[i] == '\0')
			e->source[i] = '?';
	e->source_column = col > skip ? (int)(col - skip) : 0;
}

size_t
sf_error_format(const sf_error *e, const char *severity, char *buf, size_t size)
{
	char where[4 * SF_ERROR_FILE_MAX + 48];
	char file[4 * SF_ERROR_FILE_MAX], message[4 * SF_ERROR_MESSAGE_MAX];
	char source[4 * SF_ERROR_SOURCE_MAX];
	size_t n = 0, need;
	int w;

	if (buf != NULL && size > 0)
		buf[0] = '\0';
	if (e == NULL)
		return 0;
	/* A file's "\e]0;...\a" would retitle the terminal, or worse. */
	sf_escape(file, sizeof file, e->file, SF_ESCAPE_TAB);
	sf_escape(message, sizeof message, e->message,
	          SF_ESCAPE_TAB | SF_ESCAPE_NEWLINE);
	sf_escape(source, sizeof source, e->source, SF_ESCAPE_TAB);
	where[0] = '\0';
	if (e->file[0] != '\0') {
		if (e->line > 0 && e->column > 0)
			snprintf(where, sizeof where, "%s:%d:%d: ", file,
			         e->line, e->column);
		else if (e->line > 0)
			snprintf(where, sizeof where, "%s:%d: ", file, e->line);
		else
			snprintf(where, sizeof where, "%s: ", file);
	}
	w = snprintf(buf, size, "scalefit: %s: %s%s\n", severity, where,
	             message);
	need = w > 0 ? (size_t)w : 0;
	if (e->source[0] != '\0' && e->source_column > 0) {
		char caret[4 * SF_ERROR_SOURCE_MAX + 2];
		size_t c, before = (size_t)e->source_column - 1;
		char prefix[SF_ERROR_SOURCE_MAX];

		/* The caret goes under the escaped line: blanks as wide as
		 * what precedes its column, tabs kept so it lines up. */
		if (before > strlen(e->source))
			before = strlen(e->source);
		memcpy(prefix, e->source, before);
		prefix[before] = '\0';
		c = sf_escape(caret, sizeof caret - 1, prefix, SF_ESCAPE_TAB);
		for (size_t i = 0; i < c; i++)
			if (caret[i] != '\t')
				caret[i] = ' ';
		caret[c++] = '^';
		caret[c] = '\0';
		n = need < size ? need : (size > 0 ? size - 1 : 0);
		w = snprintf(buf != NULL ? buf + n : NULL,
		             size > n ? size - n : 0, "    %s\n    %s\n",
		             source, caret);
		need += w > 0 ? (size_t)w : 0;
	}
	return need;
}

const char *
sf_status_name(int code)
{
	static const char *const names[] = {
	    [SF_OK] = "success",
	    [SF_ENOMEM] = "out of memory",
	    [SF_EIO] = "input/output error",
	    [SF_ESYNTAX] = "syntax error",
	    [SF_ENAME] = "name error",
	    [SF_ETYPE] = "type error",
	    [SF_EVALUE] = "value error",
	    [SF_EUSAGE] = "usage error",
	    [SF_EFAIL] = "failed",
	    [SF_EINTERNAL] = "internal error",
	    [SF_EREQUEST] = "bad request",
	};

	if (code < 0 || (size_t)code >= sizeof names / sizeof names[0])
		return "unknown error";
	return names[code];
}
