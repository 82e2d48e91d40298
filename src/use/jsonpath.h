/*
 * jsonpath.h - JSON text read where it lies, without a tree: where the
 * value named by a path is (so that an error about a value jansson
 * returned, which keeps no positions, is still reported at
 * FILE:LINE:COL), where a member of the top-level object starts, where
 * a top-level array lies (to parse its elements one at a time) or that
 * array emptied in place before the text is parsed.
 *
 * A path names a value as "model.terms.comm.expr" or "covariance[2][1]":
 * object members by key after '.', array elements by index in brackets.
 * A key holding '.' or '[' cannot be named.
 *
 * Ownership: nothing is kept; the text is the caller's.  Thread-safe.
 */
#ifndef SF_JSONPATH_H
#define SF_JSONPATH_H

#include <stddef.h>

/*
 * The byte offset, in the valid JSON text t (n bytes), of the value at
 * path, or of the deepest value on the way that exists (so a missing key
 * is reported at the object that lacks it).
 */
size_t sf_jsonpath_locate(const char *t, size_t n, const char *path);

/*
 * Where the value of the top-level object's member key starts in the JSON
 * text t (n bytes): the index of its first byte, or n when the object has
 * no such member (or the text is not an object there).  A scan of the
 * text only, which need not be valid JSON.
 */
size_t sf_jsonpath_member(const char *t, size_t n, const char *key);

/*
 * Make the top-level object's member key, when it is an array, an empty
 * one: its bytes become spaces, its line breaks kept, so every position
 * after it stays.  Text that is not a well-formed array there is left as
 * it is, for the parser to judge.
 */
void sf_jsonpath_blank(char *t, size_t n, const char *key);

/*
 * Where the top-level object's member key, when it is an array
 * well-formed bracket-wise, lies: its '[' at *open and its ']' at *close;
 * returns 1, or 0 (and sets nothing) when it is absent or not such an
 * array.  A scan of the text only, which need not be valid JSON.
 */
int sf_jsonpath_array(const char *t, size_t n, const char *key, size_t *open,
                      size_t *close);

/* The index after the value that starts at t[i] (blanks before it
 * skipped), or n.  A scan only: a value that is not valid JSON ends where
 * its brackets and quotes say. */
size_t sf_jsonpath_skip(const char *t, size_t n, size_t i);

/* The index of the first byte at or after i that is not a JSON blank (a
 * space, tab, line feed or carriage return), or n. */
size_t sf_jsonpath_blanks(const char *t, size_t n, size_t i);

#endif /* SF_JSONPATH_H */
