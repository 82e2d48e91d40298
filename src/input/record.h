/*
 * record.h - a CSV text read record by record and split into fields: the
 * reader under input/csv.c's table (csv.h documents the format).
 *
 * The reader works over a window of bytes: the whole text (a string in
 * memory), or a buffer refilled from a file descriptor, which it hashes
 * (SHA-256) as it reads.  A record is first delimited (its end is the
 * first LF outside quotes, found with memchr; only a record holding a
 * quote is scanned byte by byte), so the field splitter never runs out of
 * bytes and a refill never happens inside a record.  Byte order marks,
 * comment lines and blank lines are skipped; a NUL byte, a bare CR and a
 * record too long for an int are errors.  A cell points into the window,
 * or for a quoted field into the reader's scratch: nothing is copied per
 * unquoted cell.
 *
 * Errors name FILE:LINE:COL (the column in bytes) and quote the physical
 * line; sf_record_error() and its kin are the loader's way to report at a
 * place it was handed.
 *
 * Ownership: the reader borrows the text, the file name and the error
 * record; it owns its buffer and scratch (sf_record_reader_free), not the
 * descriptor.  A cell is valid until the next call on the reader.  One
 * reader, one thread.
 */
#ifndef SF_RECORD_H
#define SF_RECORD_H

#include "base/error.h"
#include "base/sha256.h"

#include <stddef.h>
#include <stdint.h>

/* The streaming buffer's first size (1 MiB), doubled for longer
 * records. */
enum { SF_RECORD_CHUNK = 1 << 20 };

/* The state of a read (its fields are the loader's to set up and read;
 * the functions below move them). */
typedef struct sf_record_reader {
	char delimiter;   /* between fields */
	char comment;     /* starts a comment line; '\0': none */
	const char *file; /* for messages; may be NULL */
	sf_error *err;
	int fd;    /* streamed file, or -1 for memory */
	char *buf; /* streaming buffer (owned) */
	size_t cap;
	const char *data; /* the window: data[0..len) */
	size_t len;
	size_t pos;   /* first byte not yet consumed */
	int eof;      /* no bytes beyond data[len] */
	int at_start; /* a byte order mark may come next */
	int has_nul;  /* the input holds a NUL somewhere */
	int line;     /* line of data[pos] */
	int cur_line; /* physical line inside the record being split */
	const char *cur_line_start;
	uint64_t bytes; /* bytes read in this pass */
	sf_sha256 sha;  /* of the bytes read (streaming) */
	char *scratch;  /* unquoted content of a quoted field */
	size_t scratch_cap;
} sf_record_reader;

/* One cell, as the splitter hands it over. */
typedef struct sf_record_cell {
	const char *text; /* unquoted content (maybe in scratch) */
	size_t length;
	const char *at;         /* its first byte in the record */
	int line;               /* the physical line of at */
	const char *line_start; /* and where that line starts */
} sf_record_cell;

/* Release the reader's buffer and scratch. */
void sf_record_reader_free(sf_record_reader *r);

/*
 * Streaming only: keep the unconsumed bytes, make room (doubling the
 * buffer when they fill it), and read until the buffer is full or the
 * file ends, hashing what arrives.  Returns SF_OK or the error.
 */
int sf_record_refill(sf_record_reader *r);

/*
 * Find the next record that is neither a comment nor blank.  Returns 1
 * and sets [*start, *end) (line end excluded), with r->line its first
 * line and *nlines the physical lines it spans; 0 at the end of the
 * input; or an error code negated (codes are positive).  *quoted says
 * whether the record holds a '"'.  The caller sets r->cur_line and
 * r->cur_line_start to the record's start before splitting it, and adds
 * *nlines to r->line after.
 */
int sf_record_next(sf_record_reader *r, const char **start, const char **end,
                   int *quoted, int *nlines);

/*
 * Split the field starting at *pp (in a record ending at end, holding a
 * quote when quoted) into cell; leaves *pp at the delimiter after the
 * field or at end.  Returns SF_OK or SF_ESYNTAX (an unterminated quote,
 * text after a closing quote, a quote inside an unquoted field), or
 * SF_ENOMEM.
 */
int sf_record_split(sf_record_reader *r, const char **pp, const char *end,
                    int quoted, sf_record_cell *cell);

/* The number of fields of the rest of a record, from just after a
 * delimiter at p. */
size_t sf_record_count_rest(const sf_record_reader *r, const char *p,
                            const char *end);

/* ---- errors -------------------------------------------------------------- */

/*
 * An error into e (may be NULL) at byte at of the physical line `line`
 * starting at line_start (at NULL: no column; line_start NULL: no quoted
 * line), the message made of fmt.  Returns code.
 */
int sf_record_error_into(const sf_record_reader *r, sf_error *e, int code,
                         int line, const char *line_start, const char *at,
                         const char *fmt, ...)
    __attribute__((format(printf, 7, 8)));

/* The same into r->err. */
int sf_record_error(const sf_record_reader *r, int code, int line,
                    const char *line_start, const char *at, const char *fmt,
                    ...) __attribute__((format(printf, 6, 7)));

/* An error at byte at of the record being split. */
int sf_record_error_here(const sf_record_reader *r, int code, const char *at,
                         const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

/* "out of memory" into r->err; returns SF_ENOMEM. */
int sf_record_nomem(const sf_record_reader *r);

/* "WHAT: the reason" for errno (strerror_r) into err, at file; returns
 * SF_EIO.  Call it before anything that may change errno. */
int sf_record_errno(sf_error *err, const char *file, const char *what);

#endif /* SF_RECORD_H */
