/*
 * json.h - the two jansson helpers the documents of predict and scale are
 * built with.
 *
 * An insertion records an allocation failure in *ok instead of returning
 * it, so a whole tree is built and checked once at the end (report.c does
 * the same for the fit's report).  Numbers go through sf_json_number()
 * (report.h): 17 significant digits, null when not finite.
 *
 * Ownership: sf_json_put() takes the reference of its value, also when it
 * fails; sf_json_pair() returns a new reference.  Thread-safe on distinct
 * trees.
 */
#ifndef SF_JSON_H
#define SF_JSON_H

#include <jansson.h>

/* Set o[key] = v, taking v's reference; a NULL v or a failure clears *ok. */
void sf_json_put(json_t *o, const char *key, json_t *v, int *ok);

/* The array [a, b] of two numbers (null when not finite), or NULL when out
 * of memory. */
json_t *sf_json_pair(double a, double b);

#endif /* SF_JSON_H */
