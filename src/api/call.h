/*
 * call.h - what every entry point of the C API (api/scalefit.h) shares:
 * the scope of a call (the C locale for the calling thread, GSL's error
 * handler off), an error as the API gives it, the warnings a result keeps,
 * and the lock the library's file writes take.
 *
 * The library's process state is here and nowhere else in api/: GSL's
 * error handler, turned off once (GSL's default aborts the process), and
 * one mutex around writing files, because base/atomic.c's signal handler
 * holds one pending temporary file per process (atomic.h: "do not write
 * two files at once from two threads").  A call's locale is the calling
 * thread's own (uselocale), put back when the call ends.
 *
 * Ownership: a warnings list owns its texts (sf_warnings_clear).  Thread
 * safety: every function may be called from any thread; one list and one
 * scope per thread.
 */
#ifndef SF_CALL_H
#define SF_CALL_H

#include "api/scalefit.h"
#include "base/error.h"

#include <locale.h>

/* The scope of one call: what sf_call_begin changed, for sf_call_end. */
typedef struct sf_call {
	locale_t c;   /* the C locale made for the call; 0 when none */
	locale_t old; /* the thread's locale before it */
} sf_call;

/* Begin a call: GSL's error handler off (once per process), the C locale
 * for this thread, so numbers are written as the command writes them. */
void sf_call_begin(sf_call *call);

/* End it: the thread's locale as it was. */
void sf_call_end(sf_call *call);

/* "No error" in out (may be NULL). */
void sf_call_clear(scalefit_error *out);

/* e as the API gives it, in out (may be NULL): its code, place, message
 * and text as the command line prints it.  Returns e->code. */
int sf_call_error(scalefit_error *out, const sf_error *e);

/*
 * The text the command line prints for e after "scalefit: SEVERITY: ":
 * "FILE:LINE:COL: message", and the quoted line with its caret on two
 * more lines, no final newline; a new string (NULL: out of memory).
 */
char *sf_call_text(const sf_error *e, const char *severity);

/* Take and give back the lock of the library's file writes. */
void sf_call_write_lock(void);
void sf_call_write_unlock(void);

/* The warnings of a run, in order: each as sf_call_text() writes it. */
typedef struct sf_warnings {
	char **texts;
	size_t count, cap;
	int lost; /* 1: memory ran out while keeping one */
} sf_warnings;

/* An sf_warn_fn keeping each warning in the sf_warnings ctx points to. */
void sf_warnings_keep(void *ctx, const sf_error *warning);

/* Add the texts of from to the end of to.  Returns SF_OK or SF_ENOMEM. */
int sf_warnings_append(sf_warnings *to, const sf_warnings *from);

/* Release what w holds and zero it.  Accepts NULL. */
void sf_warnings_clear(sf_warnings *w);

#endif /* SF_CALL_H */
