/*
 * schema.h - a YAML file checked against a schema written by hand: the
 * document opened, and typed access to its nodes with every error at
 * FILE:LINE:COL.
 *
 * libyaml's document API gives a tree of nodes with 0-based marks, every
 * scalar as text, no opinion on duplicate keys, and an empty file as a
 * success with no root node.  sf_schema_open() loads the text and refuses
 * what libyaml lets through (a NUL byte, an empty file, a second document,
 * a "\0" escape in a scalar); the loader of a kind of file (input/model.c:
 * model files; input/settings.c: their fit: block) then walks the tree
 * with the functions below.  Each checks one node, a mapping's keys, a
 * scalar's type or value, and when it is wrong records the error in the
 * loader's sf_error at the node's position (1-based line, byte column,
 * as sf_error_quote() counts them), quotes the line, and returns its
 * code; messages name the value by the caller's `what` ("lambda", "each
 * item of models").  These functions know YAML and our error positions,
 * not any schema.
 *
 * Ownership: an sf_schema borrows the path, name and text (they must
 * outlive it) and owns the document and the index of positions until
 * sf_schema_close().  Nodes point into the document.  One load per
 * sf_schema, on one thread; distinct sf_schema objects are independent.
 */
#ifndef SF_SCHEMA_H
#define SF_SCHEMA_H

#include "base/error.h"

#include <stddef.h>
#include <yaml.h>

/* The state of one load (fields read-only to callers). */
typedef struct sf_schema {
	const char *path; /* the file, for messages */
	const char *name; /* what it is: "model" ("the model file is
	                     empty", "out of memory while loading the
	                     model") */
	const char *text; /* the file's bytes */
	size_t length;
	yaml_document_t doc;
	int have_doc;    /* 1 when doc holds a document */
	sf_warn_fn warn; /* warnings, or NULL */
	void *warn_ctx;
	sf_error *err;  /* the caller's error record, or NULL */
	unsigned flags; /* the caller's own: never read here */
	/* Where every few hundredth character is, so a position costs a
	 * bounded walk; NULL when it could not be allocated, then positions
	 * are counted from the start of the text. */
	struct sf_schema_stop *stops;
	size_t nstops;
} sf_schema;

/* A position in the file: 1-based line, 1-based byte column, byte
 * offset. */
typedef struct sf_schema_position {
	int line, column;
	size_t offset;
} sf_schema_position;

/*
 * Load the YAML text (length bytes, named path in messages) into s and
 * set *root to its root node.  Returns SF_OK, or with err filled:
 * SF_ESYNTAX for a NUL byte, a YAML syntax error, an empty file, a second
 * document or a "\0" escape; SF_ENOMEM.  s must be closed with
 * sf_schema_close() either way.
 */
int sf_schema_open(sf_schema *s, const char *name, const char *path,
                   const char *text, size_t length, sf_warn_fn warn,
                   void *warn_ctx, sf_error *err, yaml_node_t **root);

/* Release what s owns. */
void sf_schema_close(sf_schema *s);

/* ---- positions and messages ------------------------------------------- */

/* The position of a libyaml mark, and of a node's start. */
sf_schema_position sf_schema_mark(const sf_schema *s, yaml_mark_t mark);
sf_schema_position sf_schema_at(const sf_schema *s, const yaml_node_t *node);

/* Record an error at node (or at the top of the file when NULL), with
 * the line quoted; returns code. */
int sf_schema_fail(sf_schema *s, const yaml_node_t *node, int code,
                   const char *fmt, ...) __attribute__((format(printf, 4, 5)));

/* Record an error at a position remembered from an earlier node. */
int sf_schema_fail_at(sf_schema *s, int line, int column, int code,
                      const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));

/* A warning at node, to s->warn when it is not NULL. */
void sf_schema_warn(sf_schema *s, const yaml_node_t *node, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* Record "out of memory while loading the NAME"; returns SF_ENOMEM. */
int sf_schema_oom(sf_schema *s);

/* ---- nodes -------------------------------------------------------------- */

/* The node of id, a scalar's text, "a scalar", "a list" or "a mapping". */
yaml_node_t *sf_schema_node(const sf_schema *s, int id);
const char *sf_schema_scalar(const yaml_node_t *node);
const char *sf_schema_kind(const yaml_node_t *node);

/* SF_OK when node has type, else SF_ETYPE: "WHAT must be a mapping, not
 * a list". */
int sf_schema_expect(sf_schema *s, const yaml_node_t *node,
                     yaml_node_type_t type, const char *what);

/* A scalar's value into *text (pointing into the document). */
int sf_schema_text(sf_schema *s, const yaml_node_t *node, const char *what,
                   const char **text);

/* A number, read wholly and finite (base/number.h); one within [lo, hi]
 * (hi may be INFINITY). */
int sf_schema_number(sf_schema *s, const yaml_node_t *node, const char *what,
                     double *value);
int sf_schema_number_in(sf_schema *s, const yaml_node_t *node, const char *what,
                        double lo, double hi, double *value);

/* A whole number >= minimum, exactly as written; one from lo to hi. */
int sf_schema_count(sf_schema *s, const yaml_node_t *node, const char *what,
                    size_t minimum, size_t *value);
int sf_schema_count_in(sf_schema *s, const yaml_node_t *node, const char *what,
                       size_t lo, size_t hi, size_t *value);

/* true/yes/on or false/no/off, any case, into *value (1 or 0). */
int sf_schema_bool(sf_schema *s, const yaml_node_t *node, const char *what,
                   int *value);

/* One of the n names of choices (NULL entries are not offered); its
 * index into *index.  Else SF_EVALUE: "unknown WHAT 'x'; did you mean
 * 'y'?", or "(one of: a, b, c)". */
int sf_schema_choice(sf_schema *s, const yaml_node_t *node, const char *what,
                     const char *const *choices, size_t n, int *index);

/* Text printed as it is may not hold a control character (line breaks
 * may be allowed): SF_EVALUE naming it. */
int sf_schema_refuse_control(sf_schema *s, const yaml_node_t *node,
                             const char *what, const char *text,
                             int line_breaks);

/* ---- mappings ----------------------------------------------------------- */

/*
 * Every key of map is a scalar, given once (libyaml accepts duplicates
 * silently), and one of the n allowed (allowed NULL: any name), with a
 * suggestion when it is not.  section names the mapping in messages
 * ("unknown key 'x' in fit.optimizer").
 */
int sf_schema_keys(sf_schema *s, const yaml_node_t *map, const char *section,
                   const char *const *allowed, size_t n);

/* The value of key in map, or NULL. */
yaml_node_t *sf_schema_get(const sf_schema *s, const yaml_node_t *map,
                           const char *key);

/* The number of pairs of map. */
size_t sf_schema_pairs(const yaml_node_t *map);

#endif /* SF_SCHEMA_H */
