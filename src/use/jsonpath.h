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

#include <jansson.h>
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

/*
 * Parse the JSON text t (n bytes) with jansson (flags as json_loadb's)
 * but for the elements of the top-level member key, when it is an array
 * well-formed bracket-wise: those are left out (read as blanks, so every
 * position stays), and its brackets' offsets set in *open and *close, for
 * the caller to parse them one at a time (sf_jsonpath_element()); else
 * both are 0.  A million rows never become one tree.  Returns the tree, or
 * NULL with jerr filled.
 */
json_t *sf_jsonpath_load_without(const char *t, size_t n, const char *key,
                                 size_t flags, size_t *open, size_t *close,
                                 json_error_t *jerr);

/*
 * The next element of the array whose ']' is at close: *at is at its '['
 * (first call) or at the ',' after the last element.  Returns 1 with the
 * element's bytes at [*start, *end) and *at at what follows it (its ','
 * or the ']'); 0 at the end, with *problem NULL, or on a syntax error
 * (a missing ',', a ',' before ']') with *problem saying what and *at
 * where.  The element itself is for jansson to judge.
 */
int sf_jsonpath_element(const char *t, size_t close, size_t *at, size_t *start,
                        size_t *end, const char **problem);

#endif /* SF_JSONPATH_H */
