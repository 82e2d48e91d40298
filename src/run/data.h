/*
 * data.h - what every command that reads a model and its rows shares, so
 * the rows are opened one way: the model file (a path, or "@NAME": a
 * formula of the library) with the caller's say over its data section
 * (--where, --output-column, --input), the model chosen of a models:
 * file (--model), the rows (a CSV file, the model's data.file, or a table
 * already read, such as standard input) and the groups of a fleet (--by,
 * --details).
 *
 * Errors are those of the modules below (input/model.h, input/problem.h,
 * input/override.h), with FILE:LINE:COL; choosing a model that is not
 * there is a fault of the request (SF_EREQUEST).
 *
 * Ownership: an sf_run_data borrows every text and its table, which must
 * outlive the run that reads it.  sf_run_data_load() returns a model set
 * the caller frees (sf_model_set_free).  Thread safety: loading and
 * opening touch no shared state; the data of one call may be read by
 * several runs at once.
 */
#ifndef SF_RUN_DATA_H
#define SF_RUN_DATA_H

#include "base/error.h"
#include "base/units.h"
#include "fit/fit.h"
#include "input/csv.h"
#include "input/model.h"
#include "input/override.h"
#include "input/problem.h"

/* The rows a command works on, and how they are grouped. */
typedef struct sf_run_data {
	const char *path;        /* DATA.csv; NULL: the model's data.file */
	const sf_table *table;   /* when not NULL, the rows instead of path
	                            (a table already read: standard input) */
	const char *model;       /* which model of a models: file (--model);
	                            NULL: the file's only one */
	sf_data_override change; /* --where, --output-column, --input; apply
	                            them with sf_run_data_load() */
	const char *by;          /* --by: one run per group of rows with
	                            equal values of these columns (comma-
	                            separated); NULL: the model's data.by */
	int details;             /* with groups: each group's text report
	                            after the summary */
} sf_run_data;

/*
 * Load the model file at path ("@NAME": NAME of the formula library in
 * directory library, input/library.h) with flags (input/model.h: enum
 * sf_model_flag), and apply change (may be NULL) to every model.
 * Warnings go to warn (may be NULL).  Returns SF_OK and a new set in *out,
 * or the error of finding, loading or changing it (*out NULL).
 */
int sf_run_data_load(const char *path, const char *library, unsigned flags,
                     const sf_data_override *change, sf_warn_fn warn,
                     void *warn_ctx, sf_model_set **out, sf_error *err);

/*
 * Apply change (may be NULL) to every model of *set, as sf_run_data_load
 * does: SF_OK, or the error of input/override.h with *set freed and NULL.
 */
int sf_run_data_change(sf_model_set **set, const sf_data_override *change,
                       sf_error *err);

/*
 * The model to work on: the set's only one (an ensemble's first, which
 * stands for it) when name is NULL, else the one called name.  NULL with err
 * (SF_EREQUEST, naming path, the model file as the caller knows it) when there
 * is none such: "PATH holds 3 models: choose one with --model NAME, ...", or
 * "PATH has no model named 'x'; did you mean 'y'?".
 */
const sf_model *sf_run_data_choose(const sf_model_set *set, const char *name,
                                   const char *path, sf_error *err);

/*
 * Open model m's rows as d says (sf_problem_open on d->path, or
 * sf_problem_open_table on d->table) for loss.  Warnings go to warn (may
 * be NULL), prefixed "model 'NAME': " when named (a model of a models:
 * file).  Returns SF_OK, or the error with *p zeroed.
 */
int sf_run_data_open(const sf_model *m, const sf_run_data *d, sf_loss loss,
                     int named, sf_warn_fn warn, void *warn_ctx, sf_problem *p,
                     sf_error *err);

/*
 * The start of a run on a model set: the model d->model names
 * (sf_run_data_choose, the file named by its first model's path) in *m,
 * and its rows opened (sf_run_data_open) into *p for the loss of options
 * o, else the model's, named when the set holds several models.  Returns
 * SF_OK or the error (SF_EREQUEST: no such model), *p zeroed.
 */
int sf_run_data_prepare(const sf_model_set *set, const sf_run_data *d,
                        const sf_fit_options *o, sf_warn_fn warn,
                        void *warn_ctx, const sf_model **m, sf_problem *p,
                        sf_error *err);

/* 1 when model m's rows run as a fleet: d->by, or the model's data.by. */
int sf_run_data_grouped(const sf_model *m, const sf_run_data *d);

/* Whether set runs as an ensemble (fit/ensemble.h: `ensemble: true` and
 * no --model choosing one formula) into *ensemble: SF_OK, or SF_EREQUEST
 * with err when it would and its rows are grouped (an ensemble is fitted
 * on all its rows; --model NAME fits one formula by group) or its
 * formulas' losses (with options o) differ in whether errors are
 * multiplicative (their mixture is of one scale: log or time). */
int sf_run_data_ensemble(const sf_model_set *set, const sf_run_data *d,
                         const sf_fit_options *o, int *ensemble, sf_error *err);

/*
 * The formula library's directory (input/library.h): $SCALEFIT_LIBRARY
 * when set and not empty, else the installed package data directory,
 * else, for a program or library used from the tree it was built in
 * before make install, the source tree's.  The command line and the C API
 * find "@NAME" there.
 */
const char *sf_run_library_dir(void);

/*
 * A CSV table from the bytes read returns (base/units.h: under MPI rank 0
 * reads and every rank parses the same bytes), named name in messages:
 * standard input is read this way.  Returns SF_OK and a new table in *out
 * (sf_table_free), or the error of reading or parsing it.
 */
int sf_run_data_read(sf_read_fn read, void *ctx, const char *name,
                     sf_table **out, sf_error *err);

#endif /* SF_RUN_DATA_H */
