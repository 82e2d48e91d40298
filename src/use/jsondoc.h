/*
 * jsondoc.h - a JSON document's values, as jansson's tree returns them,
 * checked for their type, and any error or warning about one placed at
 * FILE:LINE:COL: what the FIT.json loader (fitfile.c) reads every
 * section through.
 *
 * jansson keeps no position for the values it returns, so every value is
 * named by its path ("model.terms.comm.expr", "covariance[2][1]") and
 * sf_jsonpath_locate() (jsonpath.h) finds that path in the text, known
 * to be valid JSON, when there is something to say about it.
 *
 * Ownership: a document borrows its text, error record and warnings
 * array; sf_jsondoc_warn() grows the array.
 */
#ifndef SF_JSONDOC_H
#define SF_JSONDOC_H

#include "base/error.h"

#include <jansson.h>
#include <stddef.h>

/* Bytes of a path (longer ones are cut: a path is only used for messages
 * and sf_jsonpath_locate()). */
enum { SF_JSONDOC_PATH_MAX = 384 };

/* A document: its text (for positions) and name, the error record, and
 * where its warnings are kept (warnings NULL: dropped). */
typedef struct sf_jsondoc {
	const char *name;
	const char *text;
	size_t length;
	sf_error *err;
	sf_error **warnings; /* an array grown by sf_jsondoc_warn() */
	size_t *nwarnings;   /* its length */
} sf_jsondoc;

/* Fill e (NULL: nothing) with an error at byte offset off of the text,
 * quoting its line; returns code. */
int sf_jsondoc_error_at(const sf_jsondoc *doc, sf_error *e, size_t off,
                        int code, const char *message);

/* An error at the value named path; returns code. */
int sf_jsondoc_fail(sf_jsondoc *doc, const char *path, int code,
                    const char *fmt, ...) __attribute__((format(printf, 4, 5)));

/* A warning at the value named path, kept in the document's warnings;
 * one that cannot be kept (no memory, no array) is dropped. */
void sf_jsondoc_warn(sf_jsondoc *doc, const char *path, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* SF_ENOMEM, said in the error record. */
int sf_jsondoc_oom(sf_jsondoc *doc);

/* The path of member key, or of element index, of the value at parent,
 * into out (SF_JSONDOC_PATH_MAX bytes). */
void sf_jsondoc_member_path(char *out, const char *parent, const char *key);
void sf_jsondoc_element_path(char *out, const char *parent, size_t index);

/* What v is, for a message: "an object", "a number", "null", ... */
const char *sf_jsondoc_type_name(const json_t *v);

/* 1 when v has the type wanted ("object", "array", "string", "number");
 * else fill the error at path and return 0. */
int sf_jsondoc_check_type(sf_jsondoc *doc, const json_t *v, const char *path,
                          const char *wanted);

/*
 * Member key of object obj (named parent) of type wanted.  required: a
 * missing member is an error; else NULL is returned with no error (and so
 * is a null member).  *rc is set to the status.
 */
json_t *sf_jsondoc_member(sf_jsondoc *doc, const json_t *obj,
                          const char *parent, const char *key,
                          const char *wanted, int required, int *rc);

/* A number into *out, or NaN for null (when null_ok); an error otherwise. */
int sf_jsondoc_number(sf_jsondoc *doc, const json_t *v, const char *path,
                      int null_ok, double *out);

#endif /* SF_JSONDOC_H */
