/*
 * error.h - the error record every scalefit module fills, and its formatting.
 *
 * A function that can fail returns an int status (SF_OK or one of the codes
 * below) and, when the caller passes one, fills an sf_error with the code,
 * where the problem is (file, 1-based line and column) and a message.  The
 * record holds fixed-size buffers, so it never allocates: it can report an
 * out-of-memory error too.  The caller owns the record; library code never
 * prints it: main.c decides what reaches stderr.
 *
 * Thread safety: an sf_error is plain data; do not share one between threads.
 */
#ifndef SF_ERROR_H
#define SF_ERROR_H

#include <stddef.h>

/* Status codes.  Every fallible function returns one of these. */
typedef enum sf_status {
	SF_OK = 0,    /* success */
	SF_ENOMEM,    /* memory could not be allocated */
	SF_EIO,       /* a file could not be opened, read or written */
	SF_ESYNTAX,   /* malformed text: a formula, YAML, CSV, an option */
	SF_ENAME,     /* an unknown, duplicate or misused name */
	SF_ETYPE,     /* a value of the wrong kind (text for a number, ...) */
	SF_EVALUE,    /* a well-formed value outside what is allowed */
	SF_EUSAGE,    /* bad command-line usage */
	SF_EFAIL,     /* the work ran but failed its goal (no finite cost) */
	SF_EINTERNAL, /* a bug: an invariant did not hold */
	SF_EREQUEST   /* a request the work cannot answer as asked: an
	                 option's value, options that do not go together;
	                 the message names the option and is meant to be
	                 shown as it is (a usage error) */
} sf_status;

enum {
	SF_ERROR_FILE_MAX = 512,    /* bytes kept of a file name */
	SF_ERROR_MESSAGE_MAX = 512, /* bytes kept of a message */
	SF_ERROR_SOURCE_MAX = 160,  /* bytes kept of the offending line */
	SF_ERROR_NAME_MAX = 128     /* bytes kept of an unknown name */
};

/*
 * What went wrong and where.  line and column count from 1; 0 means "no
 * such position" (a whole-file error has line 0, a whole-line error column
 * 0).  column counts bytes of the source line.  source holds (part of) the
 * offending line and source_column the caret's 1-based position in it, or 0
 * when no line was quoted.  name is the name an expression used that its
 * scope does not know (SF_ENAME, "unknown name 'X'"), for callers that say
 * so in the data's terms (no such column); "" for every other error.
 */
typedef struct sf_error {
	int code;
	int line;
	int column;
	int source_column;
	char file[SF_ERROR_FILE_MAX];
	char message[SF_ERROR_MESSAGE_MAX];
	char source[SF_ERROR_SOURCE_MAX];
	char name[SF_ERROR_NAME_MAX];
} sf_error;

/* Reset e to "no error".  Accepts NULL. */
void sf_error_clear(sf_error *e);

/*
 * Record an error of the given code with a printf-style message, keeping
 * any position already set.  Accepts e == NULL (then only returns code).
 * Returns code, so callers can write `return sf_error_set(e, SF_EVALUE, ...)`.
 */
int sf_error_set(sf_error *e, int code, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

/*
 * Record an error with its position: file (may be NULL), 1-based line and
 * column (0 for none), and a printf-style message.  Returns code.  Accepts
 * e == NULL.  The source line is not quoted; see sf_error_quote().
 */
int sf_error_at(sf_error *e, int code, const char *file, int line, int column,
                const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 6, 7)))
#endif
    ;

/*
 * The position of byte offset off in text (length bytes; an offset past the
 * end counts as the end), as sf_error_quote() counts lines: *line is 1 plus
 * the number of '\n' before off, *column 1 plus the bytes between the last
 * of them and off.  Every error placed by a byte offset counts this way.
 */
void sf_error_position(const char *text, size_t length, size_t off, int *line,
                       int *column);

/*
 * Copy line e->line of text (length bytes, need not be NUL-terminated) into
 * e->source so the error can be shown with a caret.  A line longer than the
 * buffer is cut to a window around e->column.  Does nothing when e is NULL,
 * e->line is 0 or text has fewer lines.
 */
void sf_error_quote(sf_error *e, const char *text, size_t length);

/*
 * Place e, whose column points into text (1-based), in a command-line
 * argument instead of a file: e->file becomes option ("--where"), the
 * line 0, the column moves into the message ("column 5: ...") and text is
 * quoted with the caret under that column.  Accepts e == NULL.
 */
void sf_error_in_argument(sf_error *e, const char *option, const char *text);

/*
 * Add a prefix to the message ("in term 'comm': ..."), keeping the rest.
 * Accepts NULL.
 */
void sf_error_prefix(sf_error *e, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

/*
 * Format e for a person, as
 *     scalefit: error: FILE:LINE:COL: message
 *         the offending line
 *                ^
 * with the position parts that are known, into buf (size bytes, always
 * NUL-terminated when size > 0).  severity is "error" or "warning".
 * Returns the length the full text needs, like snprintf.
 */
size_t sf_error_format(const sf_error *e, const char *severity, char *buf,
                       size_t size);

/*
 * Where a module sends warnings (a shadowed constant, a skipped row): the
 * caller's function, called synchronously with a record that is valid only
 * during the call.  Library code never prints; main.c prints these.
 */
typedef void (*sf_warn_fn)(void *ctx, const sf_error *warning);

/* A short English name for a status code ("out of memory", ...). */
const char *sf_status_name(int code);

#endif /* SF_ERROR_H */
