/*
 * json.h - the jansson helpers the documents of predict and scale are
 * built with, and written without one tree when they are large.
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
#include <stdio.h>

/* Set o[key] = v, taking v's reference; a NULL v or a failure clears *ok. */
void sf_json_put(json_t *o, const char *key, json_t *v, int *ok);

/* The end of a tree built with *ok: root when ok, else NULL after
 * releasing root (which may be NULL). */
json_t *sf_json_done(json_t *root, int ok);

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

/*
 * Documents too large for one tree (predict's points: a grid of a
 * million points took 2.8 GB as jansson values) are written as they are
 * made: a small tree for the rest, and the large array element by element,
 * each element a small tree written and released.  The text is byte for
 * byte what json_dumps() of the whole tree would give with the flags of
 * every document (report.h: JSON_INDENT(2) | JSON_REAL_PRECISION(17)),
 * without its final newline.
 */

/* Writes a whole document to out: SF_OK, SF_ENOMEM or SF_EIO. */
typedef int (*sf_json_print_fn)(FILE *out, const void *arg);

/* The tree of the document print(out, arg) writes, read back by jansson
 * (for a caller that wants a tree of a document written as it is made):
 * a new reference, or NULL when out of memory. */
json_t *sf_json_tree(sf_json_print_fn print, const void *arg);

/* Writes element k of an array, nested depth levels deep: an sf_json_write()
 * of a small tree, or another sf_json_write_tail().  Returns SF_OK,
 * SF_ENOMEM or SF_EIO. */
typedef int (*sf_json_element_fn)(FILE *out, const void *ctx, size_t k,
                                  int depth);

/* Write v to out as json_dumps() would, nested depth levels deep (its
 * lines after the first indented by 2 * depth more).  Returns SF_OK,
 * SF_ENOMEM or SF_EIO. */
int sf_json_write(FILE *out, const json_t *v, int depth);

/*
 * Write the object head (its members; it may be empty) with one member
 * more at its end, key: an array of n elements, element k written by
 * element(out, ctx, k, depth + 2), all nested depth levels deep.  Returns
 * SF_OK, or the first failure (SF_ENOMEM, SF_EIO).
 */
int sf_json_write_tail(FILE *out, const json_t *head, int depth,
                       const char *key, size_t n, sf_json_element_fn element,
                       const void *ctx);

/*
 * A JSON value written as it is made, without jansson values: what a
 * large array's elements (a million points) are written with, in the
 * layout json_dumps() gives the same tree.  Numbers are written as
 * sf_json_number()'s values dump (null when not finite, an integer when
 * whole, else 17 significant digits as jansson writes them), strings
 * escaped as jansson escapes them.  A failure to write is kept in rc and
 * every later call does nothing.
 */
typedef struct sf_json_writer {
	FILE *out;
	int depth;               /* levels of nesting, the outer ones too */
	int open;                /* containers opened here */
	unsigned char empty[32]; /* per container: nothing in it yet */
	int rc;                  /* SF_OK, or SF_EIO */
} sf_json_writer;

/* Start writing a value to out nested depth levels deep. */
void sf_json_writer_init(sf_json_writer *w, FILE *out, int depth);

/* Open an object ('{') or array ('['), and close it ('}' or ']'); at
 * most 32 open at once. */
void sf_json_writer_open(sf_json_writer *w, char bracket);
void sf_json_writer_close(sf_json_writer *w, char bracket);

/* The next member of the open object, named key; or the next element of
 * the open array (key NULL).  Then write its value. */
void sf_json_writer_next(sf_json_writer *w, const char *key);

/* Member key of the open object: the array [lo, hi] (sf_json_pair()). */
void sf_json_writer_pair(sf_json_writer *w, const char *key, double lo,
                         double hi);

/* A value: a number (as above), a string, or true / false. */
void sf_json_writer_number(sf_json_writer *w, double x);
void sf_json_writer_string(sf_json_writer *w, const char *s);
void sf_json_writer_bool(sf_json_writer *w, int b);

/* Number x as sf_json_writer_number() writes it, into buf (32 bytes):
 * the text of json_dumps() of sf_json_number(x). */
void sf_json_number_text(double x, char *buf);

#endif /* SF_JSON_H */
