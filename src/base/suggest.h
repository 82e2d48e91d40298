/*
 * suggest.h - "did you mean ...?" for every name a user can mistype.
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

#endif /* SF_SUGGEST_H */
