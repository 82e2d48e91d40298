/*
 * fitfile.h - a fit read back from its JSON report (FIT.json), compiled and
 * ready to evaluate: what `predict` and `scale` start from.
 *
 * FIT.json is self-contained (report.h): it carries the formula, its
 * terms and inputs, the fitted parameters' values in theta order, the
 * fixed constants, the covariance, the residual degrees of freedom, the
 * range of every input over the fitted rows, the measured rows and,
 * optionally, bootstrap replicates of theta.  The keys read here:
 *
 *   model.time              string, the formula                  required
 *   model.terms             {name: {"expr": s, "kind": k}} or
 *                           {name: s}, in definition order       required
 *   model.inputs            {name: column} or
 *                           {name: {"column": c, "levels": [..]}} required
 *   model.fixed             {name: number}                       optional
 *   model.name, model.output  strings                            optional
 *   model.unit              the output's unit: s, ms, min or h   optional
 *   parameters              {name: {"value": x, "min": .., "max": ..}},
 *                           the fitted ones in theta order; an entry with
 *                           "fixed": true is a fixed constant     required
 *   covariance              P x P numbers (null: not estimated)  optional
 *   metrics.dof             residual degrees of freedom          optional
 *   metrics.aicc            for model averaging (NaN: absent)    optional
 *   data.sha256, data.rows, data.where, model.fit.loss
 *                           which rows, and how, the fit used:
 *                           fits averaged must agree on them     optional
 *   input_ranges            {name: [lo, hi]}                     optional
 *   residuals               [{"inputs": {..}, "observed": y}]    optional
 *   bootstrap.samples       [[theta_0 .. theta_P-1], ...]        optional
 *   prediction_interval     {"errors": "multiplicative" or "additive",
 *                           "sigma": s >= 0, "t": t > 0, "dof": n >= 0,
 *                           "model_error": [{"input": name,
 *                           "growth": s >= 0 or null, "bias", "growth_dof",
 *                           "evidence", optionally "noise_above" and
 *                           "noise_above_dof", and "trend", "trend_sd"
 *                           and "trend_cov" together}], "prior":
 *                           {"scale_at_noise", "dof", the disagreement
 *                           and its weight, a "hardware" input with its
 *                           "hardware_scale_at_noise"}}, the error model
 *                           of a new run (interval.h; read by
 *                           use/fitinterval.c)                   optional
 *
 * Values that contradict what fit writes are errors (SF_EVALUE) at the
 * value: a constant outside its bounds, min > max, a covariance not
 * symmetric, with a correlation outside [-1, 1] or nulls where variances
 * are known, prediction_interval.level other than 0.95, bootstrap samples
 * outside the bounds, bootstrap.replicates or bootstrap.parameters that
 * are not the samples' and the fit's, replicates all equal to a value
 * other than a constant's with a standard error; a fitted value outside
 * its replicates' range is a warning (warnings, sf_fitfile_warn()).
 *
 * Other keys are ignored.  A term's kind, when absent or unknown to this
 * version, is guessed from its name (sf_term_kind_guess()).  Errors name
 * FILE:LINE:COL: for a JSON syntax error, where jansson stopped; for a
 * missing key, the object that lacks it; for a value of the wrong type,
 * the value; for a formula that does not compile, the place inside the
 * formula's string.
 *
 * Ownership: an sf_fitfile owns everything it points to, copies of the
 * file's strings included; nothing of jansson's outlives the loader.
 * sf_fitfile_free() releases it all.  A loaded fit is read-only and may be
 * shared by threads (its programs are, see expr.h).
 */
#ifndef SF_FITFILE_H
#define SF_FITFILE_H

#include "base/error.h"
#include "fit/interval.h"
#include "input/formula.h"
#include "input/model.h"
#include "use/jsondoc.h"

#include <jansson.h>
#include <stddef.h>

/* "No such input": returned by sf_fitfile_input_find(). */
#define SF_FITFILE_NONE ((size_t)-1)

/* A formula variable. */
/* The fewest usable bootstrap replicates a band is drawn from: with
 * fewer the 95% band is the range of a handful of points (one gives zero
 * width), so the covariance gives the band.  Half of fit --bootstrap's
 * least, so a run where some replicates failed keeps its band. */
enum { SF_FITFILE_MIN_SAMPLES = 5 };

typedef struct sf_fitfile_input {
	char *name;
	char *column;  /* the data column or expression it was read from */
	char **levels; /* a text input's values, sorted; NULL when numeric */
	size_t nlevels;
	double lo, hi; /* its range over the fitted rows; NaN when unknown */
} sf_fitfile_input;

/* A named sub-expression of the formula. */
typedef struct sf_fitfile_term {
	char *name;
	char *expr;
	sf_term_kind kind;
	/* 1 when no other term uses it, so it is a part of the time rather
	 * than a building block of other terms (like a step count). */
	int component;
	/* 1 when no other term of a kind other than SF_TERM_OTHER uses it:
	 * its time counts towards its kind's total (compute, ...). */
	int counts_for_kind;
} sf_fitfile_term;

/* A loaded fit. */
typedef struct sf_fitfile {
	char *path;       /* as given to sf_fitfile_load() */
	char *name;       /* the model's name ("" when absent) */
	char *time;       /* the formula */
	char *output;     /* what was measured ("time" when absent) */
	const char *unit; /* model.unit, one of sf_model_units; NULL when
	                     absent or unknown */
	size_t ninputs;
	sf_fitfile_input *inputs; /* in slot order of the programs */
	size_t nparams;           /* P, the fitted parameters */
	char **param_names;       /* P names, theta order */
	double *theta;            /* P fitted values */
	double *cov;              /* P x P row-major, NaN where not estimated
	                             (a parameter held at a bound); NULL when
	                             the file has no covariance */
	double dof;               /* residual degrees of freedom; 0 unknown */
	double aicc;              /* NaN when absent */
	char *data_sha256;        /* the fitted rows: NULL or "" when absent */
	char *data_where;
	char *loss;
	double data_rows; /* NaN when absent */
	size_t nterms;
	sf_fitfile_term *terms; /* in definition order */
	int terms_sum;          /* 1 when the time is the sum of its component
	                           terms and a remainder (sf_expr_sum_of()), so
	                           their shares of it mean something */
	int has_interval;       /* 1 when the file has prediction_interval */
	sf_interval_model interval; /* the error model of a new run: the
	                               members read above, the rest zero */
	char version[32];           /* scalefit_version, "" when absent */
	int version_newer;       /* its major version is above this program's */
	size_t nsamples;         /* bootstrap replicates, 0 when none or
	                            fewer than SF_FITFILE_MIN_SAMPLES;
	                            failed (all-null) ones skipped */
	double *samples;         /* nsamples x P, row-major */
	size_t nmeasured;        /* measured rows with every input known */
	double *measured_inputs; /* nmeasured x ninputs, row-major */
	double *measured;        /* nmeasured observed times */
	/* The compiled formula: value (1 output), gradient (1 + P outputs)
	 * and terms (1 + nterms outputs), inputs in the order above; NULL
	 * for an ensemble. */
	sf_formula *formula;
	/* An ensemble's fit (use/fitgroups.h): its members' fits and
	 * weights (summing to 1), predicted as their mixture
	 * (use/predict.h).  It has their inputs, output and loss, no
	 * parameters, terms or formula of its own. */
	size_t nmembers;
	struct sf_fitfile **members;
	double *weights;
	sf_error *warnings; /* what loading found suspicious */
	size_t nwarnings;   /* (sf_fitfile_warn() reports them) */
} sf_fitfile;

/*
 * Read and compile the FIT.json at path.  Returns SF_OK with a new fit in
 * *out (NULL on failure), or SF_EIO (cannot read), SF_ESYNTAX (not JSON,
 * a duplicate key, a formula that does not parse), SF_ENAME (a missing
 * key, an unknown name in a formula), SF_ETYPE (a value of the wrong
 * type), SF_EVALUE (a matrix of the wrong size, a non-finite value, an
 * empty range), SF_ENOMEM; err (optional) says where.
 */
int sf_fitfile_load(const char *path, sf_fitfile **out, sf_error *err);

/* Flags of sf_fitfile_load_flags(). */
enum sf_fitfile_flag {
	/* Skip the residuals (no measured rows): what predict needs, in
	 * less time for a fit of many rows. */
	SF_FITFILE_NO_MEASURED = 1u << 0
};

/* sf_fitfile_load() with flags (enum sf_fitfile_flag). */
int sf_fitfile_load_flags(const char *path, unsigned flags, sf_fitfile **out,
                          sf_error *err);

/*
 * The same for length bytes of JSON text (need not be NUL-terminated); name
 * is used as the file name in errors and kept as path.
 */
int sf_fitfile_parse(const char *text, size_t length, const char *name,
                     sf_fitfile **out, sf_error *err);

/* sf_fitfile_parse() with flags.  The text is not changed (it was once:
 * the residuals blanked in place).  Whatever the flags, the residuals
 * never become one jansson tree: their rows are parsed one at a time
 * (memory: the text and the rows' numbers), or skipped with
 * SF_FITFILE_NO_MEASURED. */
int sf_fitfile_parse_flags(char *text, size_t length, const char *name,
                           unsigned flags, sf_fitfile **out, sf_error *err);

/*
 * The text of the fit file at path, read whole into *text (malloc'd,
 * *length bytes, no NUL added): under MPI rank 0 reads and every rank gets
 * the same bytes (base/units.h).  Returns SF_OK, or SF_EIO (cannot read),
 * SF_EVALUE (larger than 1 GiB), SF_ENOMEM.
 */
int sf_fitfile_read(const char *path, char **text, size_t *length,
                    sf_error *err);

/* Release f.  Accepts NULL. */
void sf_fitfile_free(sf_fitfile *f);

/*
 * Why fit f has no error model (has_interval 0), into buf (size n) and
 * returned: its rows leave no residual degree of freedom for its
 * constants (fit calibrates none then), it was written by another
 * version (refit it with this one), or its calibration failed.
 */
const char *sf_fitfile_no_interval(const sf_fitfile *f, char *buf, size_t n);

/*
 * Warn through warn (nothing when NULL) about what loading f found
 * suspicious: a later major version of scalefit wrote it (version_newer:
 * what it says may mean what this version reads otherwise), a fitted
 * value outside the range of its bootstrap replicates (f->warnings, at
 * FILE:LINE:COL).
 */
void sf_fitfile_warn(const sf_fitfile *f, sf_warn_fn warn, void *ctx);

/*
 * For the loader alone (fitfile.c): f's interval (and has_interval) from
 * root's prediction_interval when the file has one, SF_OK without it; a
 * value of the wrong type or out of its range fails through doc at its
 * path.  fitinterval.c reads that section.
 */
int sf_fitfile_load_interval(sf_jsondoc *doc, sf_fitfile *f,
                             const json_t *root);

/* The slot of the input called name, or SF_FITFILE_NONE. */
size_t sf_fitfile_input_find(const sf_fitfile *f, const char *name);

/* Columns in ensemble e's order of inputs (columns[i]: input i's values)
 * in the order of its member m's, into out[0..m->ninputs): the fit files
 * an average makes an ensemble of (use/average.h) may hold the same
 * inputs in other orders. */
void sf_fitfile_member_columns(const sf_fitfile *e, const sf_fitfile *m,
                               const double *const *columns,
                               const double **out);

/* The code of text value text of input i (its index in the levels), or
 * SF_FITFILE_NONE when i is numeric or has no such value. */
size_t sf_fitfile_level_find(const sf_fitfile *f, size_t i, const char *text);

#endif /* SF_FITFILE_H */
