/*
 * names.h - a set of names, each with a number: the index of CSV columns
 * and the duplicate check of a model file's keys, in constant time per
 * name where a scan of the names seen before made both quadratic (a
 * 100,000-column header took 24 s).
 *
 * An open-addressing hash table (FNV-1a, linear probing, kept at most
 * half full, doubled when it would be fuller).  glibc's hsearch_r() was
 * not used: it is a GNU extension, has a fixed size chosen up front, and
 * cannot say how many lookups a key took; this one is about 80 lines.
 *
 * The table does not copy the names: each must outlive the table.  Not
 * thread-safe to modify; lookups may be shared once it is built.
 */
#ifndef SF_NAMES_H
#define SF_NAMES_H

#include <stddef.h>

/* "No such name": returned by sf_names_find() and sf_names_add(). */
#define SF_NAMES_NONE ((size_t)-1)

typedef struct sf_names {
	size_t capacity; /* slots, a power of two; 0 before the first add */
	size_t count;    /* names held */
	const char **keys;
	size_t *values;
} sf_names;

/* An empty table (no allocation until the first add). */
void sf_names_init(sf_names *t);

/* Release t's slots (not the names) and empty it.  Accepts NULL. */
void sf_names_free(sf_names *t);

/*
 * Add name with value.  When name is already there, it is left as it is
 * and *existing (optional) gets its value; otherwise *existing gets
 * SF_NAMES_NONE.  Returns SF_OK or SF_ENOMEM.
 */
int sf_names_add(sf_names *t, const char *name, size_t value, size_t *existing);

/* The value of name, or SF_NAMES_NONE. */
size_t sf_names_find(const sf_names *t, const char *name);

/* The same for the len bytes at name (need not be NUL-terminated). */
size_t sf_names_find_n(const sf_names *t, const char *name, size_t len);

#endif /* SF_NAMES_H */
