/*
 * model.h - a scalefit model, as loaded from its YAML file.
 *
 * A model names an execution-time formula (`time`, built from named `terms`),
 * the constants it fits (`parameters`, with bounds) or fixes, the formula's
 * variables (`inputs`, each a column or an expression over columns), where
 * its measurements are (`data`) and how to fit (`fit`, input/settings.h).
 * The loader checks
 * everything that can be checked without the data or the expression engine:
 * keys, types, numbers, bounds, settings.  Formulas are kept as text with
 * their position in the YAML file, so later errors inside a formula can be
 * reported at the right FILE:LINE:COL (sf_model_locate()).
 *
 * Ownership: an sf_model owns every string and array in it, and a copy of
 * the file's text; sf_model_free() releases it all.  No libyaml memory
 * outlives sf_model_load().  A loaded model is read-only and may be shared
 * between threads.
 */
#ifndef SF_MODEL_H
#define SF_MODEL_H

#include "base/error.h"
#include "input/settings.h"

#include <stddef.h>
#include <stdint.h>

/* A formula or other text from the model file, and where it starts. */
typedef struct sf_model_text {
	char *text;    /* the scalar's value; NULL when the key is absent */
	int line;      /* 1-based line of the scalar in the model file */
	int column;    /* 1-based byte column of the scalar */
	size_t offset; /* byte offset of the scalar in the model file */
	char *origin;  /* NULL: from the model file; else the command-line
	                  option that replaced it ("--where"), owned, and
	                  errors in text point at the option (see
	                  input/override.h) */
	size_t end;    /* just past the scalar's end in the file (0: unknown) */
} sf_model_text;

/* A formula variable: a name and the column or expression it comes from
 * (while loading, also a derived input: `NAME: {derived: EXPR}`, an
 * expression of the other inputs, which becomes a term; see
 * sf_model_term). */
typedef struct sf_model_input {
	char *name;
	int line, column; /* where the name is */
	sf_model_text expr;
	int derived; /* 1: {derived: EXPR} (only until the model is loaded) */
} sf_model_input;

/* A constant of the formula: fitted within [min, max], or fixed. */
typedef struct sf_model_param {
	char *name;
	int line, column; /* where the name is */
	int fixed;        /* 1: value is used as is; 0: fitted */
	double value;     /* the fixed value */
	double min, max;  /* bounds of a fitted parameter */
	int has_init;     /* 1 when init seeds the optimiser */
	double init;      /* a starting value within [min, max] */
} sf_model_param;

/* What a term stands for, for the scaling report's "who dominates". */
typedef enum sf_term_kind {
	SF_TERM_OTHER = 0,
	SF_TERM_COMPUTE,
	SF_TERM_COMMUNICATION,
	SF_TERM_IO,
	SF_TERM_OVERHEAD
} sf_term_kind;

/*
 * A named sub-expression; it may use earlier terms.  A derived input
 * (`inputs: steps: {derived: "max(1, floor(n / (p * b)))"}`) is a term
 * too, the one place it is computed: the loader moves it from the inputs
 * to the front of the terms (kind other, derived 1), so the fit computes
 * it on every row and predict, scale and next from the inputs they are
 * given or sweep, never holding it fixed; it may use inputs only (no
 * parameter: input/formula.h refuses one).
 */
typedef struct sf_model_term {
	char *name;
	int line, column; /* where the name is */
	sf_model_text expr;
	sf_term_kind kind; /* from `kind:`, or guessed from the name */
	int derived;       /* 1: a derived input of inputs: */
} sf_model_term;

/* One model. */
typedef struct sf_model {
	char *name;
	char *description;          /* "" when absent */
	char *path;                 /* the model file, as given */
	char *data_file;            /* data.file resolved against the model's
	                             * directory; NULL when absent */
	sf_model_text data_file_at; /* where data.file was written */
	sf_model_text where;        /* row filter; text NULL when absent */
	sf_model_text by;           /* data.by: the columns that split the
	                             * rows into groups, comma-separated;
	                             * text NULL when absent */
	sf_model_text output;       /* the measured time */
	const char *unit;           /* data.unit, one of sf_model_units;
	                             * NULL when absent */
	sf_model_text weight;       /* data.weight; text NULL when absent */
	sf_model_input *inputs;
	size_t ninputs;
	sf_model_param *params;
	size_t nparams;
	sf_model_term *terms;
	size_t nterms;
	sf_model_text time;
	sf_fit_settings fit;
	double ensemble_weight; /* a models: item's weight: its share of the
	                           ensemble, relative to the others' (1 when
	                           absent; used with ensemble: true), in
	                           (0, SF_MODEL_MAX_WEIGHT] */
	char *source;           /* the file's text, for quoting errors */
	size_t source_length;
} sf_model;

/* The largest weight: of a models: item (a share against the others':
 * any sum of them stays finite). */
#define SF_MODEL_MAX_WEIGHT 1e9

/* Limits of the `discover:` block (scalefit-model(5)). */
enum {
	SF_DISCOVER_MAX_LIST = 16,   /* inputs: and exponents: items */
	SF_DISCOVER_MAX_LOG = 3,     /* the largest power of log2 */
	SF_DISCOVER_MAX_TERMS = 8,   /* max_terms */
	SF_DISCOVER_MAX_FACTORS = 3, /* factors */
	SF_DISCOVER_MAX_EXPONENT = 4 /* |exponent| */
};

/*
 * The `discover:` block: the grammar and the search of `scalefit
 * discover`.  The loader checks types, ranges and repetitions; whether a
 * name is one of the model's inputs is checked by the discover module
 * (discover/discover.h), which reports it at the name's position.  Counts
 * left at 0, tie < 0 and overlap, continuous, library or growth_cap < 0
 * mean "the default".
 */
typedef struct sf_model_discover {
	int given;                 /* 1 when the file has the block */
	int line, column;          /* where the block is */
	sf_model_text extrapolate; /* an input's name; text NULL: absent */
	sf_model_text count;       /* an input's name or "none" */
	sf_model_text workers;     /* an input's name or "none" */
	sf_model_text batch;       /* an input's name or "none" */
	sf_model_text inputs[SF_DISCOVER_MAX_LIST];
	size_t ninputs; /* 0: every numeric input */
	double exponents[SF_DISCOVER_MAX_LIST];
	size_t nexponents; /* 0: the default grid */
	int logs[SF_DISCOVER_MAX_LOG + 1];
	size_t nlogs;     /* 0: the default (0, 1, 2) */
	size_t factors;   /* factors per term besides the count */
	size_t max_terms; /* terms besides the start-up constant */
	size_t beam;      /* width of the beam search */
	size_t budget;    /* formulas fitted at most */
	int overlap;      /* max(term, term) candidates: 1, 0, -1 default */
	int continuous;   /* fitted exponents: 1, 0, -1 default */
	int library;      /* the formula library's formulas that take the
	                     model's inputs on the board: 1, 0, -1 default */
	int growth_cap;   /* no shape's cost per step grows faster than p^2
	                     in the workers: 1, 0, -1 default */
	double tie;       /* relative tolerance of the selection's tie */
} sf_model_discover;

/* Every model of a file: one, or the `models:` list, and the file's
 * `discover:` block. */
typedef struct sf_model_set {
	sf_model **models;
	size_t count;
	sf_model_discover discover;
	int ensemble; /* a models: file with `ensemble: true`: its models
	                 are read as one prediction (fit/ensemble.h) */
} sf_model_set;

/* 1 when the models of set do not all have the same ensemble_weight (its
 * items' weight: keys weigh an ensemble unequally), else 0. */
int sf_model_set_weighed(const sf_model_set *set);

/* Model i's share of set's ensemble: its weight: over the sum of all. */
double sf_model_set_share(const sf_model_set *set, size_t i);

/* Flags of sf_model_load_flags() and sf_model_parse_flags(). */
enum sf_model_flag {
	/* A single model may leave out `time:` (and with it `parameters:`),
	 * for `scalefit discover`, which finds the formula; its time.text is
	 * then NULL.  A `models:` list still needs a formula in each item. */
	SF_MODEL_FORMULA_OPTIONAL = 1u << 0
};

/*
 * Load the model file at path.  On success returns SF_OK and sets *out to
 * a new set (free with sf_model_set_free) holding at least one model.  On
 * failure returns the status, sets *out to NULL and fills err with the
 * file, line and column (1-based) and the offending line: a missing or
 * empty file, YAML syntax, unknown or duplicate keys, wrong types, numbers
 * that do not parse completely or are not finite, bounds missing or
 * min > max, an init outside its bounds, invalid names, names defined
 * twice.  Warnings (none fatal) go to warn when it is not NULL.
 */
int sf_model_load(const char *path, sf_model_set **out, sf_warn_fn warn,
                  void *warn_ctx, sf_error *err);

/* Same as sf_model_load, from text in memory; path names it in messages
 * and resolves data.file. */
int sf_model_parse(const char *path, const char *text, size_t length,
                   sf_model_set **out, sf_warn_fn warn, void *warn_ctx,
                   sf_error *err);

/* sf_model_load and sf_model_parse with flags (enum sf_model_flag); the
 * two are these with flags 0. */
int sf_model_load_flags(const char *path, unsigned flags, sf_model_set **out,
                        sf_warn_fn warn, void *warn_ctx, sf_error *err);
int sf_model_parse_flags(const char *path, const char *text, size_t length,
                         unsigned flags, sf_model_set **out, sf_warn_fn warn,
                         void *warn_ctx, sf_error *err);

/* Release a set and every model in it.  Accepts NULL. */
void sf_model_set_free(sf_model_set *set);

/*
 * Turn an error whose column points into the text of at (1-based, as the
 * expression engine reports it) into a position in the model file, and
 * quote that line.  err->file becomes the model's path; for a text from
 * the command line (at->origin), the option's name, with the column in
 * the message ("--where: column 5: ...") and the text quoted.
 */
void sf_model_locate(const sf_model *m, const sf_model_text *at, sf_error *err);

/* The number of fitted (not fixed) parameters. */
size_t sf_model_fitted_count(const sf_model *m);

/* 1 when every input of a is an input of b (by name), else 0. */
int sf_model_inputs_within(const sf_model *a, const sf_model *b);

/* The units data.unit takes: seconds, milliseconds, minutes, hours. */
#define SF_MODEL_UNITS 4
extern const char *const sf_model_units[SF_MODEL_UNITS];

/* Without data.output, the measured time is the column of this name. */
#define SF_MODEL_DEFAULT_OUTPUT "time"

/* The text of m's output: data.output, or SF_MODEL_DEFAULT_OUTPUT. */
const char *sf_model_output(const sf_model *m);

/* A term kind's name for the report: "compute", ... (the fit settings'
 * names are input/settings.h's). */
const char *sf_term_kind_name(sf_term_kind kind);

/*
 * A term's kind guessed from the start of its name, as the loader does
 * when a term has no `kind:` ("comm_allreduce" is communication,
 * "compute" compute, "io_read" io, "setup" overhead), else SF_TERM_OTHER.
 * Case-insensitive; thread-safe.  For files written without kinds.
 */
sf_term_kind sf_term_kind_guess(const char *name);

#endif /* SF_MODEL_H */
