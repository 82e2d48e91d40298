/*
 * suggest.h - "did you mean ...?" for every name a user can mistype, and
 * the list of choices a message or a help line offers.
 *
 * Commands, options, YAML keys, column names and formula names all go
 * through here, so every module suggests the same way: the candidate with
 * the smallest Damerau-Levenshtein (optimal string alignment) distance,
 * offered only when it is close enough to be a plausible typo.
 *
 * Pure functions over caller-owned strings; thread-safe.
 */
#ifndef SF_SUGGEST_H
#define SF_SUGGEST_H

#include <stddef.h>

/*
 * The optimal-string-alignment distance between a and b (insertions,
 * deletions, substitutions and adjacent transpositions each cost 1),
 * compared case-insensitively for ASCII.  Strings longer than 64 bytes
 * are compared on their first 64 bytes.
 */
int sf_suggest_distance(const char *a, const char *b);

/*
 * The candidate nearest to name among the n strings of candidates (NULL
 * entries are skipped), or NULL when none is within
 * max(1, strlen(name) / 3) edits.  Returns a pointer into candidates.
 */
const char *sf_suggest_nearest(const char *name, const char *const *candidates,
                               size_t n);

/*
 * The index of name among the n names (NULL entries skipped), or n when
 * it is none of them (or NULL); then *nearest, when nearest is not NULL,
 * is sf_suggest_nearest's candidate, or NULL.  Exact, case-sensitive.
 */
size_t sf_suggest_match(const char *name, const char *const *names, size_t n,
                        const char **nearest);

/*
 * The n names (NULL entries skipped) as a message or help line offers
 * them: "a, b or c" ("a or b", "a").  Written into buf, size bytes,
 * cut short when it does not fit and always terminated; returns buf.
 */
char *sf_suggest_list(const char *const *names, size_t n, char *buf,
                      size_t size);

#endif /* SF_SUGGEST_H */
