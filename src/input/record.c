/*
 * record.c - CSV records delimited and split into fields over a window of
 * bytes (record.h).
 */
#define _POSIX_C_SOURCE 200809L

#include "input/record.h"

#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* ------------------------------------------------------------------ */
/* Errors                                                              */

/*
 * Fill e with an error at byte at of the physical line starting at
 * line_start (at NULL: no column), quoting that line.
 */
static int
record_verror(const sf_record_reader *r, sf_error *e, int code, int line,
              const char *line_start, const char *at, const char *fmt,
              va_list ap)
{
	char message[SF_ERROR_MESSAGE_MAX];
	int column = 0;

	if (e == NULL)
		return code;
	vsnprintf(message, sizeof message, fmt, ap);
	if (at != NULL && line_start != NULL)
		column = (int)(at - line_start) + 1;
	sf_error_at(e, code, r->file, line, column, "%s", message);
	if (line_start != NULL && line > 0) {
		const char *end = r->data + r->len;
		const char *nl =
		    memchr(line_start, '\n', (size_t)(end - line_start));
		size_t n = (size_t)((nl != NULL ? nl : end) - line_start);

		/* sf_error_quote() counts lines from the start of its text;
		 * ours starts at the line itself. */
		e->line = 1;
		sf_error_quote(e, line_start, n);
		e->line = line;
	}
	return code;
}

int
sf_record_error_into(const sf_record_reader *r, sf_error *e, int code, int line,
                     const char *line_start, const char *at, const char *fmt,
                     ...)
{
	va_list ap;

	va_start(ap, fmt);
	record_verror(r, e, code, line, line_start, at, fmt, ap);
	va_end(ap);
	return code;
}

int
sf_record_error(const sf_record_reader *r, int code, int line,
                const char *line_start, const char *at, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	record_verror(r, r->err, code, line, line_start, at, fmt, ap);
	va_end(ap);
	return code;
}

/* An error at byte at of the record being split. */
int
sf_record_error_here(const sf_record_reader *r, int code, const char *at,
                     const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	record_verror(r, r->err, code, r->cur_line, r->cur_line_start, at, fmt,
	              ap);
	va_end(ap);
	return code;
}

int
sf_record_nomem(const sf_record_reader *r)
{
	return sf_error_at(r->err, SF_ENOMEM, r->file, 0, 0, "out of memory");
}

/* ------------------------------------------------------------------ */
/* Input                                                               */

/*
 * Streaming only: keep the unconsumed bytes, make room (doubling the
 * buffer when they fill it), and read until the buffer is full or the file
 * ends, hashing what arrives.
 */
int
sf_record_refill(sf_record_reader *r)
{
	size_t keep = r->len - r->pos;

	if (r->pos > 0) {
		memmove(r->buf, r->buf + r->pos, keep);
		r->pos = 0;
		r->len = keep;
	}
	if (r->len == r->cap) {
		size_t cap = 2 * r->cap;
		char *buf;

		if (cap < r->cap || cap > (size_t)INT_MAX * 2)
			return sf_record_error(
			    r, SF_ESYNTAX, r->line, NULL, NULL,
			    "a record longer than %d bytes", INT_MAX);
		buf = realloc(r->buf, cap);
		if (buf == NULL)
			return sf_record_nomem(r);
		r->buf = buf;
		r->cap = cap;
	}
	r->data = r->buf;
	while (r->len < r->cap) {
		ssize_t n = read(r->fd, r->buf + r->len, r->cap - r->len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return sf_record_errno(r->err, r->file, "cannot read");
		if (n == 0) {
			r->eof = 1;
			break;
		}
		sf_sha256_update(&r->sha, r->buf + r->len, (size_t)n);
		if (memchr(r->buf + r->len, '\0', (size_t)n) != NULL)
			r->has_nul = 1;
		r->len += (size_t)n;
		r->bytes += (uint64_t)n;
	}
	return SF_OK;
}

/* The error for a NUL byte at nul, in the text starting at line start. */
static int
nul_error(sf_record_reader *r, const char *start, const char *nul)
{
	int line = r->line;
	const char *line_start = start;

	for (const char *q = start; q < nul; q++) {
		if (*q == '\n') {
			line++;
			line_start = q + 1;
		}
	}
	return sf_record_error(r, SF_ESYNTAX, line, line_start, nul,
	                       "a NUL byte: this is not a text file");
}

static int
is_blank(const sf_record_reader *r, int c)
{
	return (c == ' ' || c == '\t') && c != r->delimiter;
}

/* sf_record_next's steps say "look again": the window moved, or a line
 * was skipped.  (Its other answers: 1 a record, 0 the end, < 0 an
 * error.) */
enum { AGAIN = 2 };

/* More bytes are needed: refill, then look again. */
static int
more(sf_record_reader *r)
{
	int status = sf_record_refill(r);

	return status != SF_OK ? -status : AGAIN;
}

/* At the start of the input a byte order mark is skipped: AGAIN when it
 * was (or bytes were missing to tell), else 0. */
static int
skip_bom(sf_record_reader *r, const char *p, const char *limit)
{
	if (!r->at_start)
		return 0;
	if ((size_t)(limit - p) < 3 && !r->eof)
		return more(r);
	r->at_start = 0;
	if (limit - p >= 3 && memcmp(p, "\xEF\xBB\xBF", 3) == 0) {
		r->pos += 3;
		return AGAIN;
	}
	return 0;
}

/* The comment line at p (its LF at nl, or none in the window) is
 * skipped: AGAIN, or an error. */
static int
skip_comment(sf_record_reader *r, const char *p, const char *limit,
             const char *nl)
{
	const char *stop, *q;

	if (nl == NULL && !r->eof)
		return more(r);
	stop = nl != NULL ? nl : limit;
	if (r->has_nul && (q = memchr(p, '\0', (size_t)(stop - p))) != NULL)
		return -nul_error(r, p, q);
	r->pos = (size_t)(stop - r->data) + (nl != NULL);
	if (r->line == INT_MAX)
		return -sf_record_error(r, SF_ESYNTAX, r->line, NULL, NULL,
		                        "more than %d lines", INT_MAX - 1);
	r->line++;
	return AGAIN;
}

/* A record holding a quote (the first at q) ends at the first LF outside
 * quotes, where the count of quotes so far is even: that LF, or NULL when
 * the window holds none; *lines counts the LFs inside quotes too. */
static const char *
quoted_end(const char *q, const char *limit, int *lines)
{
	int inside = 0;

	for (; q < limit; q++) {
		if (*q == '"')
			inside = !inside;
		else if (*q == '\n' && !inside)
			return q;
		else if (*q == '\n')
			(*lines)++;
	}
	return NULL;
}

/* The record [p, stop) of `lines` lines, its LF at nl (or none), is
 * checked and handed over: 1, or AGAIN when it is blank (skipped), or an
 * error. */
static int
take_record(sf_record_reader *r, const char *p, const char *stop,
            const char *nl, int lines, const char **start, const char **end,
            int *quoted, int *nlines)
{
	const char *q;

	if (stop - p > INT_MAX - 2)
		return -sf_record_error(r, SF_ESYNTAX, r->line, NULL, NULL,
		                        "a record longer than %d bytes",
		                        INT_MAX - 2);
	if (r->has_nul && (q = memchr(p, '\0', (size_t)(stop - p))) != NULL)
		return -nul_error(r, p, q);
	*start = p;
	*end = stop > p && stop[-1] == '\r' ? stop - 1 : stop;
	*quoted = memchr(p, '"', (size_t)(stop - p)) != NULL;
	/* A bare CR outside quotes: lines that end with CR alone would
	 * otherwise read as one long record. */
	if (!*quoted && (q = memchr(p, '\r', (size_t)(*end - p))) != NULL)
		return -sf_record_error(r, SF_ESYNTAX, r->line, p, q,
		                        "a carriage return inside a line: "
		                        "lines must end with LF or CR LF, not "
		                        "CR alone");
	*nlines = lines;
	r->pos = (size_t)(stop - r->data) + (nl != NULL);
	if (lines > INT_MAX - r->line)
		return -sf_record_error(r, SF_ESYNTAX, r->line, NULL, NULL,
		                        "more than %d lines", INT_MAX - 1);
	/* A line of spaces and tabs only is blank. */
	q = p;
	while (q < *end && is_blank(r, (unsigned char)*q))
		q++;
	if (q == *end) {
		r->line += lines;
		return AGAIN;
	}
	return 1;
}

int
sf_record_next(sf_record_reader *r, const char **start, const char **end,
               int *quoted, int *nlines)
{
	int status = AGAIN;

	while (status == AGAIN) {
		const char *p = r->data + r->pos;
		const char *limit = r->data + r->len;
		const char *nl, *q;
		int lines = 1;

		if ((status = skip_bom(r, p, limit)) != 0)
			continue;
		if (p == limit) {
			status = r->eof ? 0 : more(r);
			continue;
		}
		nl = memchr(p, '\n', (size_t)(limit - p));
		if (r->comment != '\0' && *p == r->comment) {
			status = skip_comment(r, p, limit, nl);
			continue;
		}
		q = memchr(p, '"', (size_t)((nl != NULL ? nl : limit) - p));
		if (q != NULL)
			nl = quoted_end(q, limit, &lines);
		if (nl == NULL && !r->eof) {
			status = more(r);
			continue;
		}
		status = take_record(r, p, nl != NULL ? nl : limit, nl, lines,
		                     start, end, quoted, nlines);
	}
	return status;
}

/* ------------------------------------------------------------------ */
/* Fields                                                              */

static int
scratch_append(sf_record_reader *r, size_t *used, const char *s, size_t n)
{
	if (n == 0)
		return SF_OK; /* scratch may still be NULL */
	if (n > r->scratch_cap - *used) {
		size_t cap = r->scratch_cap ? r->scratch_cap : 256;
		char *scratch;

		while (n > cap - *used) {
			if (cap > SIZE_MAX / 2)
				return sf_record_nomem(r);
			cap *= 2;
		}
		scratch = realloc(r->scratch, cap);
		if (scratch == NULL)
			return sf_record_nomem(r);
		r->scratch = scratch;
		r->scratch_cap = cap;
	}
	memcpy(r->scratch + *used, s, n);
	*used += n;
	return SF_OK;
}

/* Follow the physical lines through text[0..n) inside a quoted field. */
static void
track_lines(sf_record_reader *r, const char *s, size_t n)
{
	const char *end = s + n, *nl;

	while ((nl = memchr(s, '\n', (size_t)(end - s))) != NULL) {
		r->cur_line++;
		r->cur_line_start = nl + 1;
		s = nl + 1;
	}
}

/*
 * Split the field starting at *pp (in a record ending at end) into cell.
 * Leaves *pp at the delimiter after the field or at end.
 */
int
sf_record_split(sf_record_reader *r, const char **pp, const char *end,
                int quoted, sf_record_cell *cell)
{
	const char *s = *pp, *f, *e;
	char delimiter = r->delimiter;

	while (s < end && is_blank(r, (unsigned char)*s))
		s++;
	cell->line = r->cur_line;
	cell->line_start = r->cur_line_start;
	if (s == end) {
		cell->text = s;
		cell->length = 0;
		cell->at = s;
		*pp = s;
		return SF_OK;
	}
	if (quoted && *s == '"') {
		const char *open = s, *q = s + 1, *close;
		int status;
		size_t used = 0;

		for (;;) {
			close = memchr(q, '"', (size_t)(end - q));
			if (close == NULL)
				return sf_record_error(
				    r, SF_ESYNTAX, cell->line, cell->line_start,
				    open,
				    "unterminated quoted field: "
				    "no closing quote for this "
				    "one");
			status =
			    scratch_append(r, &used, q, (size_t)(close - q));
			if (status != SF_OK)
				return status;
			track_lines(r, q, (size_t)(close - q));
			if (close + 1 < end && close[1] == '"') {
				if ((status = scratch_append(r, &used, "\"",
				                             1)) != SF_OK)
					return status;
				q = close + 2;
				continue;
			}
			q = close + 1;
			break;
		}
		while (q < end && is_blank(r, (unsigned char)*q))
			q++;
		if (q < end && *q != delimiter)
			return sf_record_error_here(
			    r, SF_ESYNTAX, q,
			    "'%c' after a closing quote: "
			    "expected '%c' or the line end",
			    *q, delimiter);
		cell->text = used > 0 ? r->scratch : "";
		cell->length = used;
		cell->at = open;
		*pp = q;
		return SF_OK;
	}
	f = memchr(s, delimiter, (size_t)(end - s));
	if (f == NULL)
		f = end;
	e = f;
	while (e > s && is_blank(r, (unsigned char)e[-1]))
		e--;
	if (quoted) {
		const char *q = memchr(s, '"', (size_t)(e - s));

		if (q != NULL)
			return sf_record_error_here(
			    r, SF_ESYNTAX, q,
			    "a quote inside an unquoted "
			    "field: quote the whole field "
			    "and double the quote");
	}
	cell->text = s;
	cell->length = (size_t)(e - s);
	cell->at = s;
	*pp = f;
	return SF_OK;
}

/* Count the fields of the rest of a record, from just after a delimiter. */
size_t
sf_record_count_rest(const sf_record_reader *r, const char *p, const char *end)
{
	size_t n = 1;
	int inside = 0;

	for (; p < end; p++) {
		if (*p == '"')
			inside = !inside;
		else if (*p == r->delimiter && !inside)
			n++;
	}
	return n;
}

int
sf_record_errno(sf_error *err, const char *file, const char *what)
{
	char why[128];

	if (strerror_r(errno, why, sizeof why) != 0)
		snprintf(why, sizeof why, "error %d", errno);
	return sf_error_at(err, SF_EIO, file, 0, 0, "%s: %s", what, why);
}

void
sf_record_reader_free(sf_record_reader *r)
{
	free(r->buf);
	free(r->scratch);
	r->buf = r->scratch = NULL;
}
