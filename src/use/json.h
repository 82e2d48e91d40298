/*
 * json.h - the jansson helpers the documents of predict and scale are
 * built with.
 *
 * An insertion records an allocation failure in *ok instead of returning
 * it, so a whole tree is built and checked once at the end (report.c does
 * the same for the fit's report).  Numbers go through sf_json_number()
 * (report.h): 17 significant digits, null when not finite.
 *
 * Ownership: sf_json_put() takes the reference of its value, also when it
 * fails; sf_json_pair() and sf_json_new() return new references.  Thread-safe
 * on distinct trees.
 */
#ifndef SF_JSON_H
#define SF_JSON_H

#include <jansson.h>

/* Set o[key] = v, taking v's reference; a NULL v or a failure clears *ok. */
void sf_json_put(json_t *o, const char *key, json_t *v, int *ok);

/* The array [a, b] of two numbers (null when not finite), or NULL when out
 * of memory. */
json_t *sf_json_pair(double a, double b);

/*
 * Make a new container for each letter of kinds, 'o' an object and 'a' an
 * array, into the json_t * each following argument points at, in order:
 * sf_json_new(ok, "ooa", &root, &fixed, &points).  Returns 1; or, when one
 * cannot be made, releases those made, sets every one to NULL, clears *ok
 * and returns 0.
 */
int sf_json_new(int *ok, const char *kinds, ...);

#endif /* SF_JSON_H */
