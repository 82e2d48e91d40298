/*
 * output.h - what every command's run gives back besides its typed
 * results: the JSON document `--json` prints and the text report a person
 * reads, both built in memory.
 *
 * run/ is the work of each command as one library call: a settings
 * struct in, a result object out (run/fit.h, validate.h, compare.h,
 * predict.h, scale.h, next.h, check.h).  The command line is its first
 * client, the public C API and the Python module the next.  A run never
 * prints and never exits: its texts are written into memory by
 * sf_run_text(), its warnings go to the caller's sf_warn_fn, and a fault
 * of the request (an option's value) comes back as SF_EREQUEST with a
 * message meant to be shown as it is.
 *
 * Ownership: an sf_run_output owns its JSON (json_decref) and text (free);
 * sf_run_output_clear() releases both.  The print and save functions only
 * read it.  Thread safety: plain data; one thread per output.
 */
#ifndef SF_RUN_OUTPUT_H
#define SF_RUN_OUTPUT_H

#include "base/error.h"

#include <jansson.h>
#include <stdio.h>

/*
 * A printer of a text report: writes to out what arg describes.  Returns
 * SF_OK, or SF_ENOMEM when it needed memory it could not get (SF_EIO when
 * out could not be written).
 */
typedef int (*sf_run_print_fn)(FILE *out, const void *arg);

typedef struct sf_run_output {
	json_t *json; /* the JSON document, or NULL when it was not asked for
	                 or is written instead (write_json) */
	char *text;   /* the text report, or NULL when there is none */
	/* A JSON document too large to hold as one tree (predict's points:
	 * a grid of a million took 2.8 GB as jansson values) is written when
	 * it is printed, by write_json(out, json_arg), one point in memory
	 * at a time; json is then NULL.  json_arg points into the result
	 * that holds this output.  Read it with sf_run_output_json_print()
	 * or sf_run_output_json_text(), which serve both forms. */
	sf_run_print_fn write_json;
	const void *json_arg;
} sf_run_output;

/* Release what o holds and zero it.  Accepts NULL. */
void sf_run_output_clear(sf_run_output *o);

/*
 * o's JSON document as `--json` prints it (as sf_run_json_print()): o->json,
 * or what o->write_json writes, and a final newline.  Returns SF_OK (also
 * when o has no document: nothing is written), SF_EIO or SF_ENOMEM.
 */
int sf_run_output_json_print(const sf_run_output *o, FILE *out, sf_error *err);

/* The same text as a new string in *text (NULL when o has no document).
 * Returns SF_OK or SF_ENOMEM. */
int sf_run_output_json_text(const sf_run_output *o, char **text, sf_error *err);

/*
 * The text print writes for arg, in memory: a new NUL-terminated string in
 * *text (the caller frees it).  Returns SF_OK, or SF_ENOMEM with err
 * filled and *text NULL.
 */
int sf_run_text(sf_run_print_fn print, const void *arg, char **text,
                sf_error *err);

/*
 * The JSON document json as `--json` prints it (two-space indent, numbers
 * with 17 significant digits, a final newline): to out, or as a new string
 * in *text.  Returns SF_OK, SF_EIO (out could not be written) or
 * SF_ENOMEM.
 */
int sf_run_json_print(const json_t *json, FILE *out, sf_error *err);
int sf_run_json_text(const json_t *json, char **text, sf_error *err);

/*
 * Write json to the file at path atomically (`-o FILE`): a reader never
 * sees half a file, a failure leaves the file as it was.  Returns SF_OK or
 * SF_EIO / SF_ENOMEM with err.
 */
int sf_run_json_save(const json_t *json, const char *path, sf_error *err);

/*
 * A fault of the request (an option's value): err (may be NULL) gets
 * SF_EREQUEST, no position, and the message fmt makes, which may quote
 * err's own message.  Returns SF_EREQUEST.
 */
int sf_run_request(sf_error *err, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

#endif /* SF_RUN_OUTPUT_H */
