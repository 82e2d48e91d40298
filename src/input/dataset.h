/*
 * dataset.h - the rows a model is fitted to.
 *
 * A dataset is what a model's `data:` and `inputs:` make of a CSV table:
 * the rows the `where:` filter keeps, each with its measured output (a
 * column, or an expression over columns), its weight, and the value of
 * every formula input (each a column or an expression over columns).  Rows
 * whose output, weight or an input is not a usable number are skipped and
 * reported (with FILE:LINE) through the warning callback, never silently.
 * Rows with identical inputs are repetitions of one configuration; the
 * dataset groups them, so `check` can show their spread and the fit can
 * weight by inverse variance or resample whole configurations.
 *
 * Ownership: a dataset owns copies of everything; the model and table may
 * be freed after sf_dataset_bind() returns.  Read-only afterwards, so any
 * number of threads may read it.
 */
#ifndef SF_DATASET_H
#define SF_DATASET_H

#include "input/csv.h"
#include "base/error.h"
#include "input/model.h"

#include <stddef.h>

/* One formula input over the kept rows. */
typedef struct sf_dataset_input {
	char *name;     /* the formula's name for it (model input) */
	double *values; /* one per kept row */
	char **levels;  /* a text input: its sorted strings, else NULL */
	size_t nlevels;
} sf_dataset_input;

/* Rows with identical inputs: one measured configuration. */
typedef struct sf_dataset_config {
	size_t first_row; /* the first kept row of the configuration */
	size_t count;     /* how many kept rows it has (repetitions) */
	double mean;      /* of the output */
	double sd;        /* sample standard deviation; 0 when count == 1 */
} sf_dataset_config;

/* A column of the data file over the kept rows (see sf_dataset_eval). */
typedef struct sf_dataset_column {
	char *name;
	double *values; /* one per kept row; a text column's codes */
	char **levels;  /* a text column: its sorted strings, else NULL */
	size_t nlevels;
} sf_dataset_column;

typedef struct sf_dataset {
	char *file;          /* the data file, as loaded */
	char sha256[65];     /* of the file's bytes */
	size_t table_rows;   /* data rows in the file */
	size_t filtered_out; /* rows the where: filter dropped */
	size_t skipped;      /* rows dropped as unusable (reported) */
	size_t *skipped_row; /* their table indices (NULL in a selection) */
	size_t rows;         /* rows kept: the fit's rows */
	int *lines;          /* the file line of each kept row */
	size_t *table_row;   /* each kept row's index in the table */
	double *output;      /* the measured value of each kept row */
	double *weight;      /* each kept row's weight, or NULL for 1 */
	sf_dataset_input *inputs;
	size_t ninputs;
	sf_dataset_column *columns; /* the file's columns whose names are
	                               names, except the inputs' names; only
	                               in a bound dataset (NULL in a
	                               selection) */
	size_t ncolumns;
	size_t *config; /* each kept row's configuration index */
	sf_dataset_config *configs;
	size_t nconfigs;
} sf_dataset;

/*
 * Apply model m's data and inputs to table t.  With positive, rows whose
 * output is not > 0 are skipped (for losses that divide by it or take its
 * log; see sf_loss_needs_positive); rows whose output is not finite always
 * are.  On success returns SF_OK
 * and a new dataset in *out (free with sf_dataset_free).  Errors, with the
 * position in the model file (for a bad expression or an unknown column)
 * or in the data file: SF_ENAME an unknown column (with a suggestion),
 * SF_ESYNTAX/SF_ETYPE a bad expression, SF_ETYPE an input or output that
 * is a text column, SF_EVALUE no row left to fit, SF_ENOMEM.  Skipped rows
 * are reported to warn (which may be NULL) one by one up to a few, then as
 * a count.
 */
int sf_dataset_bind(const sf_model *m, const sf_table *t, int positive,
                    sf_dataset **out, sf_warn_fn warn, void *warn_ctx,
                    sf_error *err);

/*
 * A new dataset of the n rows of d listed in rows (in that order; a row
 * may be listed more than once, as a bootstrap resample does), with its
 * configurations grouped anew.  For validation splits, cross-validation
 * folds and resamples.  Returns SF_OK, SF_EVALUE for n == 0, SF_ENOMEM.
 */
int sf_dataset_select(const sf_dataset *d, const size_t *rows, size_t n,
                      sf_dataset **out, sf_error *err);

/*
 * Evaluate text, a data-only expression, over d's kept rows into out (one
 * value per row): over the formula's inputs and, in a bound dataset, the
 * data file's other columns (so a condition may name `workers` as well
 * as the input p made of it).  Returns SF_OK or the expression's error,
 * its column within text.
 */
int sf_dataset_eval(const sf_dataset *d, const char *text, double *out,
                    sf_error *err);

/* The column of t whose name is exactly text without its surrounding
 * blanks (an input's or the output's text that names a column whole), or
 * SF_CSV_NONE. */
size_t sf_dataset_named_column(const sf_table *t, const char *text);

/*
 * Evaluate text, a data-only expression as a model's inputs: and output
 * take one, over every row of table t into out (sf_table_rows(t) values):
 * over t's columns whose names are names, a text that is exactly the name
 * of a numeric column taking it whole (as sf_dataset_bind() does).  For
 * predict --grid over the data's own columns.  Returns SF_OK or the
 * expression's error, its column within text: SF_ENAME "unknown name
 * 'x'" for a column t lacks, SF_ETYPE a text column in arithmetic.
 */
int sf_dataset_eval_table(const sf_table *t, const char *text, double *out,
                          sf_error *err);

/* Release d.  Accepts NULL. */
void sf_dataset_free(sf_dataset *d);

/* The input named name, or NULL. */
const sf_dataset_input *sf_dataset_input_find(const sf_dataset *d,
                                              const char *name);

/* A text column that splits the repetitions: see
 * sf_dataset_replicate_split(). */
typedef struct sf_dataset_split {
	size_t column;   /* into d->columns */
	size_t configs;  /* repeated configurations where it varies */
	size_t repeated; /* repeated configurations */
	double share;    /* of the repetitions' scatter its levels explain */
} sf_dataset_split;

/* The share of the repetitions' scatter above which a column splits them. */
#define SF_DATASET_SPLIT_SHARE 0.5

/*
 * Whether rows taken as repetitions of one configuration (equal inputs)
 * look like different jobs: a text column of the data file (not an input)
 * whose value differs between the rows of a repeated configuration, and
 * whose levels explain at least SF_DATASET_SPLIT_SHARE of the repetitions'
 * scatter (each level one shift of the time relative to its
 * configuration's mean, over the configurations where the column varies),
 * as two models measured at the same (p, b, n) would; a column of hosts
 * or dates that only scatters the times explains little.  Returns 1 with
 * the column explaining most in *out, else 0 (also when out of memory:
 * it is a hint).
 */
int sf_dataset_replicate_split(const sf_dataset *d, sf_dataset_split *out);

/*
 * Summary of the repetitions: how many configurations have more than one
 * row, the largest count, and the median coefficient of variation (sd /
 * mean) over those configurations (NaN when there are none).
 */
void sf_dataset_repetitions(const sf_dataset *d, size_t *repeated,
                            size_t *max_count, double *median_cv);

/* 1 when rows a and b of d agree on every input but input j. */
int sf_dataset_same_but(const sf_dataset *d, size_t a, size_t b, size_t j);

/* Rows of d (ctx) by their time, for sf_sort_indices (base/sort.h). */
int sf_dataset_by_output(const void *ctx, size_t a, size_t b);

#endif /* SF_DATASET_H */
