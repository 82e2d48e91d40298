/*
 * report.h - what `scalefit discover` reports (discover.h): the JSON
 * document of a search and its board, and the text a person reads - the
 * training rows and folds, the grammar, the board with its tie, and the
 * winner's constants.
 *
 * The JSON's numbers go through sf_json_number (use/report.h): non-finite
 * ones are null, whole ones integers.  The text is built in memory; the
 * caller prints it where it wants (a fleet collects each group's).
 *
 * Ownership: the caller owns what is returned (json_decref, free).
 * Thread-safe.
 */
#ifndef SF_DISCOVER_REPORT_H
#define SF_DISCOVER_REPORT_H

#include "discover/discover.h"
#include "input/model.h"

#include <jansson.h>

/*
 * The JSON report of search r of model m's data (data: the CSV's path as
 * given) with its board; output is the -o path the winner was written to,
 * or NULL.  Returns a new object, or NULL when out of memory.
 */
json_t *sf_discover_report_json(const sf_model *m, const char *data,
                                const sf_discover_result *r,
                                const char *output);

/*
 * The text report of the same, malloc'd, or NULL when out of memory.  The
 * winner's constants are said to be the search's, and each is marked
 * "(search)", unless sf_discover_refit() fitted them through the pipeline
 * (not when the held-back check refuted the search: the file written
 * does not hold the winner).
 */
char *sf_discover_report_text(const sf_model *m, const char *data,
                              const sf_discover_result *r, const char *output);

#endif /* SF_DISCOVER_REPORT_H */
