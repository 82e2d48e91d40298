/*
 * result.h - what the C API's runs give back: a report (scalefit_report:
 * the JSON document and its text as --json prints it, the text report,
 * a chart, the warnings, the status the command would exit with) and a
 * fit (scalefit_fit: a fit's report, read through its constants and
 * metrics, and used by predict, scale and next as its FIT.json text).
 *
 * Every accessor reads the JSON document a run built (run/), the same
 * values --json prints: numbers keep their bits (17 significant digits
 * read back to the same double).  A result is never changed once made,
 * so any number of threads may read it at once.
 *
 * Ownership: a report owns its document (json_decref), texts and
 * warnings; sf_result_make takes a run's output and the warnings it is
 * given.  A fit owns its report.
 */
#ifndef SF_RESULT_H
#define SF_RESULT_H

#include "api/call.h"
#include "api/scalefit.h"
#include "base/error.h"
#include "run/output.h"

#include <jansson.h>

struct scalefit_report {
	const char *command; /* "fit", "validate", ... (static) */
	json_t *json;        /* the document */
	char *json_text;     /* as --json prints it */
	char *text;          /* the text report; NULL: none */
	char *svg;           /* scale's chart; NULL: none */
	sf_warnings warnings;
	int status; /* the command's exit status: 0, or 1 (a goal failed) */
};

struct scalefit_fit {
	scalefit_report report; /* command "fit" */
	char *name;             /* names the fit in predict's, scale's and
	                           next's messages: a file's path, or "fit of
	                           MODEL" */
	json_t *parameters;     /* the document's "parameters", borrowed */
};

/*
 * Make r (zeroed by the caller) from a run's output out (its JSON and text
 * are taken: out is cleared), the warnings w (taken: w is zeroed), the
 * command's name and status.  Returns SF_OK, or SF_ENOMEM (also when a
 * warning was lost), SF_EINTERNAL (no JSON) with err; r is then cleared.
 */
int sf_result_make(scalefit_report *r, const char *command, sf_run_output *out,
                   sf_warnings *w, int status, sf_error *err);

/* Release what r holds and zero it.  Accepts NULL. */
void sf_result_clear(scalefit_report *r);

/* A new report in *out holding made report r (taken).  Returns SF_OK, or
 * SF_ENOMEM (r cleared). */
int sf_result_hand(scalefit_report *r, scalefit_report **out, sf_error *err);

/* A new fit from a made report r (taken), named name.  Returns SF_OK with
 * *out, or SF_ENOMEM (r cleared). */
int sf_result_fit(scalefit_report *r, const char *name, scalefit_fit **out,
                  sf_error *err);

#endif /* SF_RESULT_H */
