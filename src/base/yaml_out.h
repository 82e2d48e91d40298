/*
 * yaml_out.h - writing YAML documents such as model files: block
 * mappings, one-line flow mappings and sequences ({min: 0, max: 1000},
 * ["p", "b"]), comment lines and comments after a value, in the style of
 * the model files people write.
 *
 * Whatever the text, it stays what it is: every text scalar is written as
 * a YAML double-quoted scalar with escapes (\" \\ \n \t, other control
 * characters and DEL as \xNN, the characters a YAML reader takes for line
 * breaks or refuses as \uNNNN, invalid UTF-8 bytes as \xNN; other UTF-8
 * passes through), so a CSV cell or a model's name can never turn into a
 * key; a key is written plain only when it is a safe identifier (letters,
 * digits and _, not starting with a digit, not a word a YAML 1.1 reader
 * takes for a boolean or null), else quoted; a comment never holds a line
 * break or a control character (escaped alike, quotes and backslashes
 * left as they are).
 *
 * Numbers and booleans are the writer's own: a number is written plain
 * from a double, as the shortest text that reads back as exactly that
 * double (1/3 is 0.3333333333333333, 1000 is 1000), an exponent form with
 * a point in its mantissa (1.0e+21) so that YAML 1.1 readers too take it
 * for a number; a number that is not finite is refused, never written;
 * booleans are true and false.
 *
 *     sf_yaml_out y;
 *     sf_yaml_out_init(&y, &text);
 *     sf_yaml_out_comment(&y, "written by %s", who);
 *     sf_yaml_out_pair(&y, "name", name, NULL);      // name: "..."
 *     sf_yaml_out_map(&y, "data");                   // data:
 *     sf_yaml_out_pair(&y, "file", path, "relative");
 *                                        //   file: "..."  # relative
 *     sf_yaml_out_end(&y, NULL);
 *     sf_yaml_out_flow_map(&y, "t0");    // t0: {min: 0}  # fitted 0.2
 *     sf_yaml_out_number(&y, "min", 0, NULL);
 *     sf_yaml_out_end(&y, "fitted 0.2");
 *     rc = sf_yaml_out_finish(&y, &doc, err);
 *
 * Errors are kept, not returned by every call: the first refusal (a
 * number not finite; the writer misused, such as an item outside a
 * sequence) leaves no document, and sf_yaml_out_finish() reports it, or
 * that memory ran out.
 *
 * Ownership: the writer appends to the caller's sf_text (base/text.h),
 * which remembers running out of memory; it keeps nothing else.  One
 * writer per document; not shared between threads.
 */
#ifndef SF_YAML_OUT_H
#define SF_YAML_OUT_H

#include "base/error.h"
#include "base/text.h"

#include <stddef.h>

/* Block mappings and flow collections a writer can have open; the bytes
 * of the keys that lead to a value, kept for a message. */
enum { SF_YAML_OUT_DEPTH = 16, SF_YAML_OUT_WHERE = 128 };

typedef struct sf_yaml_out {
	sf_text *text;
	size_t depth;                 /* collections open */
	char open[SF_YAML_OUT_DEPTH]; /* each: ':' block mapping, '{', '[' */
	size_t items;  /* written in the innermost flow collection */
	size_t indent; /* spaces before a block line: 2 per block mapping */
	int dash;      /* the next block line starts a sequence's item */
	char where[SF_YAML_OUT_WHERE];  /* the open collections' keys:
	                                   "parameters.t0" */
	size_t at[SF_YAML_OUT_DEPTH];   /* where's length before each */
	int refused;                    /* SF_OK, or the first refusal's
	                                   code: SF_EVALUE, SF_EINTERNAL */
	char why[SF_ERROR_MESSAGE_MAX]; /* its message */
} sf_yaml_out;

/* Start a document written to text (appended to). */
void sf_yaml_out_init(sf_yaml_out *y, sf_text *text);

/* A comment line at the current indentation: "# " and the formatted
 * text, escaped; "#" alone when it is empty.  Not inside a flow
 * collection. */
void sf_yaml_out_comment(sf_yaml_out *y, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/*
 * key: "value".  In a block mapping (or at the top) a line of its own,
 * note (may be NULL) a comment after the value; in a flow mapping the
 * next pair of the line, note ignored.
 */
void sf_yaml_out_pair(sf_yaml_out *y, const char *key, const char *value,
                      const char *note);

/* key: v, v written plain as the shortest text that reads back exactly
 * (1/3 is 0.3333333333333333, 1e21 1.0e+21); v not finite is refused. */
void sf_yaml_out_number(sf_yaml_out *y, const char *key, double v,
                        const char *note);

/* key: n, plain. */
void sf_yaml_out_count(sf_yaml_out *y, const char *key, size_t n,
                       const char *note);

/* key: true or false, plain. */
void sf_yaml_out_bool(sf_yaml_out *y, const char *key, int v, const char *note);

/* "key:" and a block mapping below it, indented two more spaces, until
 * sf_yaml_out_end(). */
void sf_yaml_out_map(sf_yaml_out *y, const char *key);

/* "key:" and a block sequence below it, indented two more spaces, until
 * sf_yaml_out_end(); its items are mappings (sf_yaml_out_item_map). */
void sf_yaml_out_seq(sf_yaml_out *y, const char *key);

/* The next item of a block sequence, a block mapping whose first line
 * starts with "- ", until sf_yaml_out_end(). */
void sf_yaml_out_item_map(sf_yaml_out *y);

/* "key: {" and a flow mapping on the same line (pairs), until
 * sf_yaml_out_end(). */
void sf_yaml_out_flow_map(sf_yaml_out *y, const char *key);

/* "key: [" and a flow sequence on the same line (items), until
 * sf_yaml_out_end(). */
void sf_yaml_out_flow_seq(sf_yaml_out *y, const char *key);

/* The next item of a flow sequence: "value" quoted, or a number as
 * sf_yaml_out_number writes it. */
void sf_yaml_out_item(sf_yaml_out *y, const char *value);
void sf_yaml_out_item_number(sf_yaml_out *y, double v);

/* Close the innermost collection: a flow collection's bracket, note (may
 * be NULL) a comment after it, and the end of its line; a block mapping
 * ends by writing at the indentation it was opened at again (note
 * ignored). */
void sf_yaml_out_end(sf_yaml_out *y, const char *note);

/*
 * The document written, as a new string in *text (the caller frees it).
 * Returns SF_OK; SF_EVALUE when a number was not finite (err says which:
 * "parameters.t0.max would be inf: ..."), SF_EINTERNAL when the writer
 * was misused, SF_ENOMEM; then *text is NULL.  Either way the sf_text is
 * left empty.
 */
int sf_yaml_out_finish(sf_yaml_out *y, char **text, sf_error *err);

/*
 * The text of number v as the writer writes it into buf (32 bytes
 * suffice), or NULL (buf untouched) when v is not finite.
 */
char *sf_yaml_out_number_text(char *buf, size_t n, double v);

/*
 * The offset of the first byte of text that is not part of valid UTF-8,
 * or -1 when there is none.  YAML is Unicode: such a byte is written as
 * \xNN and reads back as another character, so a text that must read
 * back as the same bytes (a file name, a column a model names) cannot be
 * written when this is not -1.
 */
long sf_yaml_out_invalid_utf8(const char *text);

/* Append text as a YAML double-quoted scalar (the escapes above). */
void sf_yaml_out_quote(sf_text *t, const char *text);

/* Append text as comment text: line breaks, control characters, DEL,
 * characters a YAML reader refuses and invalid UTF-8 escaped as in a
 * scalar; quotes and backslashes as they are. */
void sf_yaml_out_comment_text(sf_text *t, const char *text);

/* 1 when key may be written plain: a safe identifier (above). */
int sf_yaml_out_plain_key(const char *key);

#endif /* SF_YAML_OUT_H */
