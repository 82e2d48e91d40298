/*
 * formula.h - a model's formula compiled against its inputs.
 *
 * The bridge between a file and the expression engine: builds the scope
 * (the inputs, the fitted parameters in order, the fixed constants and the
 * terms), compiles the time formula three ways - value only (the
 * optimiser's hot path), value with every derivative (the Jacobian for the
 * polish and the covariance), and value with every term (the report's
 * shares) - and maps any error inside a formula to its FILE:LINE:COL.  A
 * model file and its dataset are compiled by sf_formula_compile(); any
 * other file that holds a formula (a saved fit) describes it in an
 * sf_formula_source and places errors itself.
 *
 * theta, the vector every program takes, holds the fitted parameters in the
 * model's order; fitted[j] is the index in the model (in the source's
 * params) of theta_j.
 *
 * Ownership: a formula owns its scope and programs; it keeps no pointer to
 * the model or dataset.  Compiled programs are read-only and may be
 * evaluated from any number of threads, each with its own scratch.
 */
#ifndef SF_FORMULA_H
#define SF_FORMULA_H

#include "input/dataset.h"
#include "base/error.h"
#include "expr/expr.h"
#include "input/model.h"

typedef struct sf_formula {
	sf_expr_scope *scope;
	char *time;            /* the time's text, compiled in scope */
	sf_program *value;     /* 1 output: the time */
	sf_program *gradient;  /* 1 + P outputs: time, d time / d theta_j */
	sf_program *terms;     /* 1 + T outputs: time, then each term */
	size_t nparams;        /* P, fitted parameters */
	size_t *fitted;        /* theta_j is model parameter fitted[j] */
	double *lower, *upper; /* bounds of theta */
	size_t nterms;
} sf_formula;

/* A formula variable: its name and, for a text input, its sorted values
 * (levels NULL for a numeric input). */
typedef struct sf_formula_input {
	const char *name;
	const char *const *levels;
	size_t nlevels;
} sf_formula_input;

/* A constant of the formula: fitted within [min, max] (either may be NaN
 * when unknown), or fixed at value. */
typedef struct sf_formula_param {
	const char *name;
	int fixed;
	double value;
	double min, max;
} sf_formula_param;

/* A named sub-expression; it may use earlier terms. */
typedef struct sf_formula_term {
	const char *name;
	const char *text;
} sf_formula_term;

/* What an error or warning of sf_formula_build() is about. */
typedef enum sf_formula_part {
	SF_FORMULA_INPUT,     /* the name of inputs[index] */
	SF_FORMULA_PARAM,     /* the name of params[index] */
	SF_FORMULA_TERM_NAME, /* the name of terms[index] */
	SF_FORMULA_TERM,      /* the text of terms[index] */
	SF_FORMULA_TIME       /* the text of the time formula */
} sf_formula_part;

/*
 * A formula as some file gives it (a model file, a saved fit), so that one
 * builder serves them all.  The scope holds the inputs (slot i is
 * inputs[i]), the fitted parameters in the order of params (theta_j is the
 * j-th one not fixed, and fitted[j] its index in params), the fixed ones,
 * then the terms in order.
 *
 * place, when not NULL, says where something is in the file: it is called
 * with every error but out of memory, and every warning, that the engine
 * raised about part (index is within inputs, params or terms; 0 for the
 * time), whose column, when not 0, counts bytes of that part's text from
 * 1.  It rewrites e - file, line, column, quoted line, and the message if
 * it likes - and must keep e->code.  place_ctx is passed to it.
 */
typedef struct sf_formula_source {
	const char *time;
	const sf_formula_input *inputs;
	size_t ninputs;
	const sf_formula_param *params;
	size_t nparams;
	const sf_formula_term *terms;
	size_t nterms;
	void (*place)(void *ctx, sf_formula_part part, size_t index,
	              sf_error *e);
	void *place_ctx;
} sf_formula_source;

/*
 * Compile the formula src describes.  Returns SF_OK and a new formula in
 * *out, or an error placed by src->place: SF_ESYNTAX, SF_ENAME (an invalid
 * or duplicate name, an unknown name with a suggestion, a term used before
 * its definition), SF_ETYPE, SF_ENOMEM.  Warnings - a fitted parameter or
 * an input the formula never uses, a name shadowing pi or e - go to warn
 * (may be NULL).  Nothing of src is kept.
 */
int sf_formula_build(const sf_formula_source *src, sf_formula **out,
                     sf_warn_fn warn, void *warn_ctx, sf_error *err);

/*
 * Compile model m's formula with the inputs of d (its input names, and
 * the levels of text inputs): sf_formula_build() with every error and
 * warning placed in the model file.
 */
int sf_formula_compile(const sf_model *m, const sf_dataset *d, sf_formula **out,
                       sf_warn_fn warn, void *warn_ctx, sf_error *err);

/* Release f.  Accepts NULL. */
void sf_formula_free(sf_formula *f);

/*
 * The canonical text of the time formula and of term k (k < nterms), for
 * `check` and the report: malloc'd strings the caller frees, or NULL when
 * out of memory.
 */
char *sf_formula_canonical_time(const sf_formula *f, const sf_model *m);
char *sf_formula_canonical_term(const sf_formula *f, const sf_model *m,
                                size_t k);

#endif /* SF_FORMULA_H */
