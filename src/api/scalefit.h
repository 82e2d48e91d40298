/*
 * scalefit.h - libscalefit, the C API of scalefit: fit the constants of an
 * execution-time formula to measured run times, judge the fit, and predict
 * and study how the time scales, from a program instead of the command
 * line.  Every command's work is one call here, with the same settings,
 * the same numbers (bit for bit), the same JSON and the same messages as
 * the `scalefit` command prints; scalefit(3) is this header as a manual
 * page, scalefit(1) documents the commands, their options and their JSON.
 *
 * The shape (NLopt's create / set / run, SQLite's handles and errors):
 *
 *   scalefit_model     a model file: a path, "@NAME" (a formula of the
 *                      library), YAML text, or a formula from its parts
 *   scalefit_data      the rows: a CSV path, or columns in memory
 *   scalefit_settings  the command line's options by name: "seed", "42"
 *   scalefit_run_fit() a model fitted to rows        -> scalefit_fit
 *   scalefit_run_validate(), _compare(), _discover()  -> scalefit_report
 *   scalefit_run_predict(), _scale(), _next() with fits -> scalefit_report
 *
 * A fit is read through typed accessors (its constants, standard errors,
 * intervals, metrics), saved as FIT.json and loaded back; every result is
 * read as the JSON text the command prints with --json, as its text
 * report, through accessors of its JSON by path, and (scale) as its SVG
 * chart.
 *
 *     scalefit_model *m;  scalefit_fit *f;  scalefit_error e;
 *     if (scalefit_model_open("@ddp-generic", &m, &e) != SCALEFIT_OK ||
 *         scalefit_run_fit(m, NULL, NULL, &f, &e) != SCALEFIT_OK)
 *             fprintf(stderr, "%s\n", e.text);
 *
 * Errors.  A function that can fail returns an int: SCALEFIT_OK (0) or
 * one of enum scalefit_code, and fills the caller's scalefit_error when
 * err is not NULL: the code, the place (FILE, LINE, COLUMN; an option's
 * name for a fault in an option's value) and the message, and in text all
 * of it as the command line prints it after "scalefit: error: ", the
 * offending line quoted with a caret under the place.  On failure every
 * output handle is set to NULL.
 *
 * Handles given to a function must not be NULL unless it says so (the
 * data and settings of a run may be).
 *
 * Ownership.  Every handle a function makes (its **out) belongs to the
 * caller, who frees it with the matching _free, which accepts NULL.
 * Strings and numbers returned by accessors belong to their handle and
 * live until it is freed.  Arguments are copied or only read during the
 * call, except where a function says otherwise (a data handle's columns
 * are copied when added).
 *
 * Threads.  The library keeps no global state: a model, a data handle, a
 * settings handle, a fit and a report may each be used by any number of
 * threads at once once made (models and data by several concurrent runs),
 * as long as no thread changes it meanwhile (adding a column, setting an
 * option).  Runs use OpenMP threads inside (the "threads" setting) and
 * give the same bytes at any thread count.  Three pieces of process state
 * are the library's business: it turns GSL's error handler off the first
 * time it runs (GSL's default aborts the process; the library checks
 * every status instead), it writes files (a fit saved, a chart) one at a
 * time across threads, and each call reads and writes numbers in the C
 * locale whatever the program's (uselocale, for the calling thread only).
 * Built with MPI, the library runs in one process unless the program
 * called MPI_Init, and then its calls are collective (scalefit(1), MPI).
 *
 * The library never prints and never exits.  Warnings (an extrapolated
 * point, a row skipped) are kept in each result, in the order the command
 * line would print them (scalefit_report_warning).
 *
 * Link with `pkg-config --cflags --libs scalefit`.  Versions: the shared
 * library's soname changes when an interface is removed or changed.
 */
#ifndef SCALEFIT_H
#define SCALEFIT_H

#include <stddef.h>
#include <stdint.h>

#if defined(__GNUC__)
#define SCALEFIT_API __attribute__((visibility("default")))
#else
#define SCALEFIT_API
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* ---- errors -------------------------------------------------------------- */

/* What went wrong: the value of every int a fallible function returns,
 * and of scalefit_error.code.  The command line's exit status for each is
 * given: 1 for SCALEFIT_EFAIL, 3 for SCALEFIT_ENOMEM and
 * SCALEFIT_EINTERNAL, 2 for the others. */
enum scalefit_code {
	SCALEFIT_OK = 0,    /* success */
	SCALEFIT_ENOMEM,    /* memory could not be allocated */
	SCALEFIT_EIO,       /* a file could not be opened, read or written */
	SCALEFIT_ESYNTAX,   /* malformed text: a formula, YAML, CSV, JSON */
	SCALEFIT_ENAME,     /* an unknown, duplicate or misused name */
	SCALEFIT_ETYPE,     /* a value of the wrong kind (text for a number) */
	SCALEFIT_EVALUE,    /* a well-formed value outside what is allowed */
	SCALEFIT_EUSAGE,    /* a call or input that does not make sense */
	SCALEFIT_EFAIL,     /* the work ran but failed its goal (no finite
	                       cost: no fit) */
	SCALEFIT_EINTERNAL, /* a bug: an invariant did not hold */
	SCALEFIT_EREQUEST   /* a setting's value, or settings that do not go
	                       together (the command line's usage errors) */
};

/*
 * What went wrong and where: filled by every fallible function given one.
 * Plain data in fixed buffers (it can report running out of memory);
 * one per thread.
 */
typedef struct scalefit_error {
	int code;          /* SCALEFIT_OK, or an enum scalefit_code */
	int line;          /* 1-based line in file; 0: none */
	int column;        /* 1-based byte column in that line; 0: none */
	char file[512];    /* the file, or the option ("--where") or name
	                      ("<columns>") the place is in; "" when none */
	char message[512]; /* the message alone */
	char text[4096];   /* as the command line prints it after
	                      "scalefit: error: ": "FILE:LINE:COL: message",
	                      then, when a line is quoted, the line and a
	                      caret on two more lines; no final newline */
} scalefit_error;

/* A short English name of code ("out of memory", "syntax error"), or
 * "unknown error".  Never NULL; thread-safe. */
SCALEFIT_API const char *scalefit_code_name(int code);

/* The library's version, "0.1.0": the version of scalefit it is part of. */
SCALEFIT_API const char *scalefit_version(void);

/* "No such parameter, point or member": what the index lookups return. */
#define SCALEFIT_NONE ((size_t)-1)

/* ---- models -------------------------------------------------------------- */

typedef struct scalefit_model scalefit_model;

/*
 * Open the model file at path (scalefit-model(5)), or "@NAME": the formula
 * NAME of the formula library (`scalefit formulas`; the directory
 * $SCALEFIT_LIBRARY when set, else the installed one).  The file may hold
 * one model or a `models:` list.  It is read and checked now (YAML, keys,
 * bounds); its formula is compiled against the rows when a run opens them.
 * A model without a formula (`time:`) is accepted for
 * scalefit_run_discover(); the other runs refuse it with the message the
 * command line gives.  Returns SCALEFIT_OK and a new model in *out, or an
 * error (SCALEFIT_EIO, SCALEFIT_ESYNTAX, ... at FILE:LINE:COL) and NULL.
 * Warnings of the loading are repeated in every result of a run on it.
 */
SCALEFIT_API int scalefit_model_open(const char *path, scalefit_model **out,
                                     scalefit_error *err);

/*
 * The same for the YAML text of a model file (NUL-terminated).  name is
 * the path the model is known by (messages say "name:LINE:COL", and a
 * relative data.file is read from name's directory); NULL: "<model>", in
 * the current directory.
 */
SCALEFIT_API int scalefit_model_parse(const char *yaml, const char *name,
                                      scalefit_model **out,
                                      scalefit_error *err);

/*
 * A model from its parts: the formula time (the expression language of
 * scalefit-model(5)); its ninputs inputs, "NAME=EXPR" each (the variable
 * and the data column or expression over columns it is read from: "p=gpus");
 * its nparameters constants, "NAME=MIN:MAX" for one fitted within bounds or
 * "NAME=VALUE" for one held fixed.  The model is named "formula", measures
 * the column "time" (the setting "output-column" says otherwise) and fits
 * with the defaults.  Errors name the part at fault: an input or parameter
 * text without '=', bounds that do not parse (SCALEFIT_ESYNTAX), and those
 * of the model file the parts make ("<formula>:LINE:COL", the line
 * quoted).
 */
SCALEFIT_API int
scalefit_model_formula(const char *time, const char *const *inputs,
                       size_t ninputs, const char *const *parameters,
                       size_t nparameters, scalefit_model **out,
                       scalefit_error *err);

/* How many models m holds (a `models:` list: several), and the name of
 * model i (NULL when i >= that count). */
SCALEFIT_API size_t scalefit_model_count(const scalefit_model *m);
SCALEFIT_API const char *scalefit_model_name(const scalefit_model *m, size_t i);

/* Release m.  Accepts NULL.  No run may be using it. */
SCALEFIT_API void scalefit_model_free(scalefit_model *m);

/* ---- data ---------------------------------------------------------------- */

typedef struct scalefit_data scalefit_data;

/*
 * Rows from the CSV file at path (scalefit(1), DATA), read by each run as
 * the command line reads DATA.csv: nothing is read now.  Returns
 * SCALEFIT_OK and a new handle in *out, or SCALEFIT_ENOMEM.
 */
SCALEFIT_API int scalefit_data_csv(const char *path, scalefit_data **out,
                                   scalefit_error *err);

/*
 * Rows given as columns in memory, added one by one with the two calls
 * below; every column has the same number of rows.  name stands for the
 * rows in messages and in a report's data.file (NULL: "<columns>").  The
 * columns are the CSV file they would be: the same typing of cells (a
 * column is numeric when its cells are numbers, text otherwise), the same
 * messages (a cell of row i, counting from 0, is at line i + 2 of name,
 * after the header) and the same constants, bit for bit, as the file.
 * Returns SCALEFIT_OK and a new empty handle in *out, or SCALEFIT_ENOMEM.
 */
SCALEFIT_API int scalefit_data_new(const char *name, scalefit_data **out,
                                   scalefit_error *err);

/*
 * Add a numeric column called column with the n values of values (copied;
 * NaN: an empty cell, a missing value).  Returns SCALEFIT_OK, or
 * SCALEFIT_EVALUE (an infinite value, a count of rows unlike the other
 * columns', no rows), SCALEFIT_ENAME (an empty name or one already
 * added), SCALEFIT_EUSAGE (d was made by scalefit_data_csv),
 * SCALEFIT_ENOMEM.  Not while a run reads d.
 */
SCALEFIT_API int scalefit_data_add_numbers(scalefit_data *d, const char *column,
                                           const double *values, size_t n,
                                           scalefit_error *err);

/* The same for a text column: n NUL-terminated strings (copied; NULL or
 * "": an empty cell).  A column whose every cell is a number is numeric,
 * as in a CSV file. */
SCALEFIT_API int scalefit_data_add_texts(scalefit_data *d, const char *column,
                                         const char *const *values, size_t n,
                                         scalefit_error *err);

/*
 * The same for a text column given as codes into its distinct values, as
 * data frames keep categories: row i holds levels[codes[i]], an empty cell
 * when codes[i] is negative.  Returns the errors above, and
 * SCALEFIT_EVALUE for a code >= nlevels.
 */
SCALEFIT_API int scalefit_data_add_levels(scalefit_data *d, const char *column,
                                          const char *const *levels,
                                          size_t nlevels, const int64_t *codes,
                                          size_t n, scalefit_error *err);

/* Release d.  Accepts NULL.  No run may be using it. */
SCALEFIT_API void scalefit_data_free(scalefit_data *d);

/* ---- settings ------------------------------------------------------------ */

typedef struct scalefit_settings scalefit_settings;

/* A new empty settings handle (every run's defaults) in *out.  Returns
 * SCALEFIT_OK or SCALEFIT_ENOMEM. */
SCALEFIT_API int scalefit_settings_new(scalefit_settings **out,
                                       scalefit_error *err);

/*
 * Set option key to value: the names and values of the command line's
 * options, without the dashes in front ("seed", "42"; "where",
 * "p <= 8"); an option without a value (a flag: "loo", "no-polish",
 * "quiet") takes value NULL.  Setting an option again replaces its value,
 * except for the options a command takes more than once ("input", "at",
 * "set"), whose values add up in order.  The value is checked by the run
 * it is given to, with the command line's message (SCALEFIT_EREQUEST:
 * "--seed needs a whole number from 0 to 2^64-1, not 'x'"), and a run
 * refuses an option its command does not take.  Returns SCALEFIT_OK, or
 * SCALEFIT_EREQUEST (an option no command has, with the nearest name: "did
 * you mean 'seed'?"; a value given to a flag, or none to an option that
 * needs one), SCALEFIT_ENOMEM.
 *
 * The options, and the runs that take them (scalefit(1) says what each
 * does):
 *   fit, validate, compare, discover: seed, threads, algorithm,
 *       max-evals, loss, lambda, time-limit, scale, no-polish,
 *       no-separable; the data's where, output-column, input; by,
 *       details (a fleet: one run per group); quiet
 *   fit: bootstrap, restarts, model, residuals, output (also write the
 *       JSON report to this file)
 *   validate: train, kfold, loo, model
 *   compare: train, kfold
 *   discover: train, extrapolate, max-terms, beam, budget, top, shapes,
 *       members, output (write the ensemble, or the best, as a model
 *       file)
 *   predict: at, grid, weights, group, unit, quiet
 *   scale: over, set, points, log, linear, cost, unit (or time-unit),
 *       workers, panel, plot (write the chart), data, group, weights
 *       (two fits or more averaged into one study), quiet, and chart
 *       (the library's own: draw the chart in memory for
 *       scalefit_report_svg without writing a file)
 *   next: target, over, set, candidates, budget, runs, top, weights
 *       (of two fits or more), quiet
 * "json" is accepted by every run and changes nothing: every result has
 * its JSON.  "quiet" keeps no warnings.
 */
SCALEFIT_API int scalefit_settings_set(scalefit_settings *s, const char *key,
                                       const char *value, scalefit_error *err);

/* Remove every value of option key (back to the default).  Unknown keys
 * are ignored. */
SCALEFIT_API void scalefit_settings_unset(scalefit_settings *s,
                                          const char *key);

/* Release s.  Accepts NULL. */
SCALEFIT_API void scalefit_settings_free(scalefit_settings *s);

/* ---- results ------------------------------------------------------------- */

typedef struct scalefit_fit scalefit_fit;
typedef struct scalefit_report scalefit_report;

/*
 * `scalefit fit`: the constants of model m (the model the setting "model"
 * names, in a `models:` file) fitted to the rows of d (NULL: the model's
 * data.file) with settings s (NULL: the defaults).  With "by" or the
 * model's data.by, every group of rows is fitted alone (a fleet): the
 * fit's JSON is then the groups document, its typed accessors see no
 * parameters, and predict and scale choose groups with "group".  Returns
 * SCALEFIT_OK and a new fit in *out, or an error and NULL: those of the
 * model, rows, settings, and SCALEFIT_EFAIL when no constants give a
 * finite cost.  A fleet whose groups failed is a fit (see
 * scalefit_report_status).
 */
SCALEFIT_API int scalefit_run_fit(const scalefit_model *m,
                                  const scalefit_data *d,
                                  const scalefit_settings *s,
                                  scalefit_fit **out, scalefit_error *err);

/*
 * A fit saved before (FIT.json, from scalefit_fit_save or `scalefit fit
 * -o`, a groups file of a fleet too) read back from path.  Returns
 * SCALEFIT_OK and a new fit in *out, or the errors of reading it
 * (SCALEFIT_EIO, SCALEFIT_ESYNTAX at FILE:LINE:COL, SCALEFIT_ENAME: a key
 * missing, ...) and NULL.  A loaded fit has no text report.
 */
SCALEFIT_API int scalefit_fit_load(const char *path, scalefit_fit **out,
                                   scalefit_error *err);

/* Write f's JSON to path atomically (a reader never sees half a file; a
 * failure leaves it as it was), as `scalefit fit -o` writes it.  Returns
 * SCALEFIT_OK or SCALEFIT_EIO, SCALEFIT_ENOMEM. */
SCALEFIT_API int scalefit_fit_save(const scalefit_fit *f, const char *path,
                                   scalefit_error *err);

/*
 * The constants of f, in the order of the JSON's "parameters" (the fitted
 * ones, then those held fixed): their count, the name of constant i (NULL
 * when i is past the end), the index of the constant called name
 * (SCALEFIT_NONE when there is none), its value, standard error and 95%
 * interval (NaN when not estimated, as for a fixed constant or a fit
 * without statistics).
 */
SCALEFIT_API size_t scalefit_fit_parameter_count(const scalefit_fit *f);
SCALEFIT_API const char *scalefit_fit_parameter_name(const scalefit_fit *f,
                                                     size_t i);
SCALEFIT_API size_t scalefit_fit_parameter_index(const scalefit_fit *f,
                                                 const char *name);
SCALEFIT_API double scalefit_fit_value(const scalefit_fit *f, size_t i);
SCALEFIT_API double scalefit_fit_stderr(const scalefit_fit *f, size_t i);
SCALEFIT_API void scalefit_fit_ci95(const scalefit_fit *f, size_t i,
                                    double *lower, double *upper);

/* Metric name of f's JSON "metrics" ("mape", "rmse", "r2", "aicc", "bic",
 * "sse", "dof", ...; scalefit(1)), or NaN when it has no such number. */
SCALEFIT_API double scalefit_fit_metric(const scalefit_fit *f,
                                        const char *name);

/* f's report: its JSON, text and warnings, read with the scalefit_report
 * accessors below.  Borrowed: it lives as long as f. */
SCALEFIT_API const scalefit_report *scalefit_fit_report(const scalefit_fit *f);

/* Release f.  Accepts NULL. */
SCALEFIT_API void scalefit_fit_free(scalefit_fit *f);

/*
 * `scalefit validate`: fit without some rows of m's (d: the rows, NULL:
 * the model's data.file), predict them and score the predictions; the
 * setting "train", "kfold" or "loo" (exactly one) says which rows.
 */
SCALEFIT_API int scalefit_run_validate(const scalefit_model *m,
                                       const scalefit_data *d,
                                       const scalefit_settings *s,
                                       scalefit_report **out,
                                       scalefit_error *err);

/* `scalefit compare`: every model of the n models fitted to the same rows
 * (d; NULL: each model's data.file), scored and ranked. */
SCALEFIT_API int scalefit_run_compare(const scalefit_model *const *models,
                                      size_t n, const scalefit_data *d,
                                      const scalefit_settings *s,
                                      scalefit_report **out,
                                      scalefit_error *err);

/* `scalefit discover`: the formula found from m's data and inputs (its
 * `time:` optional), chosen by how well it extrapolates; with "output",
 * the best written as a model file (with "members" above 1, the ensemble
 * of the winner and the tied formulas after it, with the model file's own
 * tied or not where the search did not pay for itself or one fold judged
 * it; the model file's own formulas alone when discover's held-back
 * check refuted the search), which
 * names its data
 * file: d must be a CSV file's (columns in memory are refused,
 * SCALEFIT_EREQUEST).  With "shapes", the report is {"shapes": [...]},
 * the grammar's term shapes. */
SCALEFIT_API int scalefit_run_discover(const scalefit_model *m,
                                       const scalefit_data *d,
                                       const scalefit_settings *s,
                                       scalefit_report **out,
                                       scalefit_error *err);

/* `scalefit predict`: the time at the points of the settings "at"
 * ("NAME=VALUE,..." each, a value for every input) and "grid" (a CSV
 * path), with a new run's 95% interval; with two fits or more their
 * average. */
SCALEFIT_API int scalefit_run_predict(const scalefit_fit *const *fits, size_t n,
                                      const scalefit_settings *s,
                                      scalefit_report **out,
                                      scalefit_error *err);

/* `scalefit scale`: the time along the input of the setting "over"
 * ("p=1:64"), the others held at "set"; one study per fit, or with
 * "weights" one of their average. */
SCALEFIT_API int scalefit_run_scale(const scalefit_fit *const *fits, size_t n,
                                    const scalefit_settings *s,
                                    scalefit_report **out, scalefit_error *err);

/* `scalefit next`: the runs that narrow the interval at the setting
 * "target" most, among "over" or "candidates"; with two fits or more,
 * for their average ("weights"), ranked as an ensemble's. */
SCALEFIT_API int scalefit_run_next(const scalefit_fit *const *fits, size_t n,
                                   const scalefit_settings *s,
                                   scalefit_report **out, scalefit_error *err);

/*
 * Every scalefit_run_ function above returns SCALEFIT_OK with a new report
 * in *out, or an error and NULL: the errors of its inputs (the model and
 * rows at FILE:LINE:COL, a fit), SCALEFIT_EREQUEST for its settings (an
 * option the command does not take, a bad value, options that do not go
 * together), and those of its work.
 */

/* The name of the command that made r: "fit", "validate", "compare",
 * "discover", "predict", "scale" or "next". */
SCALEFIT_API const char *scalefit_report_command(const scalefit_report *r);

/*
 * What the command line's exit status would be: 0, or 1 when the work ran
 * but failed its goal (validate predicted no row; a group of a fleet
 * failed, its JSON says which).
 */
SCALEFIT_API int scalefit_report_status(const scalefit_report *r);

/* The JSON document as `--json` prints it (two-space indent, numbers with
 * 17 significant digits, a final newline). */
SCALEFIT_API const char *scalefit_report_json(const scalefit_report *r);

/* The text report as the command prints it without --json; NULL for a
 * loaded fit, which has none. */
SCALEFIT_API const char *scalefit_report_text(const scalefit_report *r);

/* The chart of a scale study (SVG) when the settings asked for one
 * ("chart" or "plot"), else NULL. */
SCALEFIT_API const char *scalefit_report_svg(const scalefit_report *r);

/* The warnings of the run, in order, as the command line prints them
 * after "scalefit: warning: ": their count, and warning i (NULL past the
 * end). */
SCALEFIT_API size_t scalefit_report_warning_count(const scalefit_report *r);
SCALEFIT_API const char *scalefit_report_warning(const scalefit_report *r,
                                                 size_t i);

/*
 * The JSON document read by path: members by key after '.', elements by
 * index in brackets ("metrics.mape", "points[3].interval95[0]",
 * "validation.groups.p[0].mape"); a key holding '.' or '[' cannot be
 * named.  scalefit(1) lists every command's keys.
 *
 * scalefit_report_number: the number at path (true 1, false 0); NaN when
 *     there is none there (a missing member, null, text, an array).
 * scalefit_report_string: the text at path, or NULL.
 * scalefit_report_size: the elements of the array or members of the
 *     object at path; 0 for anything else.
 * scalefit_report_key: the name of member i of the object at path, in
 *     the document's order; NULL past the end.
 */
SCALEFIT_API double scalefit_report_number(const scalefit_report *r,
                                           const char *path);
SCALEFIT_API const char *scalefit_report_string(const scalefit_report *r,
                                                const char *path);
SCALEFIT_API size_t scalefit_report_size(const scalefit_report *r,
                                         const char *path);
SCALEFIT_API const char *scalefit_report_key(const scalefit_report *r,
                                             const char *path, size_t i);

/*
 * The points of a prediction or a scale study (its "points"): their count
 * (0 for other reports, and for a groups file's predictions, read by
 * path), and what point k says under column: "time"; "lower95" and
 * "upper95", the 95% interval of a new run; "band_lower95" and
 * "band_upper95", the 95% band of the mean; "stderr"; "extrapolated" (1
 * when an input lies outside its fitted range, else 0); "speedup",
 * "efficiency", "cost" (scale); or an input's name, its value (NaN for a
 * text input: read "points[k].inputs.NAME" with scalefit_report_string).
 * NaN when the point has no such number.
 */
SCALEFIT_API size_t scalefit_report_point_count(const scalefit_report *r);
SCALEFIT_API double scalefit_report_point(const scalefit_report *r, size_t k,
                                          const char *column);

/* Release r.  Accepts NULL. */
SCALEFIT_API void scalefit_report_free(scalefit_report *r);

#ifdef __cplusplus
}
#endif

#endif /* SCALEFIT_H */
