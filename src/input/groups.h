/*
 * groups.h - a dataset split into groups of rows by the values of some
 * columns (`--by COLUMN,...` or the model's `data.by`), for fleets of fits:
 * one fit per model x framework x GPU, or per job of a cluster trace.
 *
 * The groups are formed over the rows the `where:` filter keeps, usable
 * or not, so that a group whose every row was skipped as unusable is still
 * seen (and reported as failed) rather than silently missing.  They are
 * ordered by their key: a text column by its strings (strcmp), a numeric
 * column by value, an empty cell last; so the order never depends on the
 * rows' order in the file, and a group's index (from which its seed
 * derives) is the same on every run and every rank.
 *
 * Ownership: an sf_groups owns copies of everything (the column names, the
 * keys' text, the row lists); the table and dataset may be freed after
 * sf_groups_split() returns.  Read-only afterwards.
 */
#ifndef SF_GROUPS_H
#define SF_GROUPS_H

#include "base/error.h"
#include "input/csv.h"
#include "input/dataset.h"
#include "input/model.h"

#include <stddef.h>

/* At most this many columns in one --by. */
enum { SF_GROUPS_MAX_COLUMNS = 16 };

/* One group's value of one by column. */
typedef struct sf_group_value {
	int is_text;   /* 1: text holds the string; 0: number holds it */
	char *text;    /* a text column's string; NULL for a number */
	double number; /* a numeric column's value; NaN: an empty cell */
} sf_group_value;

/* One group. */
typedef struct sf_group {
	char *label;         /* "model=cnn,gpu=v100", for people */
	sf_group_value *key; /* one value per by column */
	size_t *rows;        /* its usable rows: indices into the dataset */
	size_t nrows;
	size_t skipped; /* its rows the dataset skipped as unusable */
	int first_line; /* the file line of its first row */
} sf_group;

typedef struct sf_groups {
	char **columns; /* the by columns' names, in the order given */
	size_t ncolumns;
	sf_group *groups; /* ordered by key */
	size_t count;
	size_t *by_label; /* group indices in strcmp order of their labels */
} sf_groups;

/*
 * Split the rows of dataset d (bound from table t) by the columns listed
 * in by ("model" or "model,gpu", blanks around names ignored).  at says
 * where by was written: a model file's data.by (then file is its path),
 * or NULL when it came from the command line (--by).  Returns SF_OK with
 * new groups in *out (free with sf_groups_free), or SF_ESYNTAX (an empty
 * name, a repeated one, more than SF_GROUPS_MAX_COLUMNS), SF_ENAME (a
 * column the table does not have, with the nearest name), SF_ENOMEM; err
 * says where (the file, line and column of the name when at is given).
 * One group only is not an error: the caller decides what to say.
 */
int sf_groups_split(const sf_table *t, const sf_dataset *d, const char *by,
                    const char *file, const sf_model_text *at, sf_groups **out,
                    sf_error *err);

/* Release g.  Accepts NULL. */
void sf_groups_free(sf_groups *g);

/* The index of the group labelled label (another split's group by the
 * same columns has the same label for the same values), or SIZE_MAX.
 * O(log count). */
size_t sf_groups_find(const sf_groups *g, const char *label);

#endif /* SF_GROUPS_H */
