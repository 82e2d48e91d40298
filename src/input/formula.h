/*
 * formula.h - a model's formula compiled against its inputs.
 *
 * The bridge between the model file and the expression engine: builds the
 * scope (the dataset's inputs, the model's fitted parameters in order,
 * its fixed constants and its terms), compiles the time formula three
 * ways - value only (the optimiser's hot path), value with every
 * derivative (the Jacobian for the polish and the covariance), and value
 * with every term (the report's shares) - and maps any error inside a
 * formula to its FILE:LINE:COL in the model file.
 *
 * theta, the vector every program takes, holds the fitted parameters in the
 * model's order; fitted[j] is the index in the model of theta_j.
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
	sf_program *value;     /* 1 output: the time */
	sf_program *gradient;  /* 1 + P outputs: time, d time / d theta_j */
	sf_program *terms;     /* 1 + T outputs: time, then each term */
	size_t nparams;        /* P, fitted parameters */
	size_t *fitted;        /* theta_j is model parameter fitted[j] */
	double *lower, *upper; /* bounds of theta */
	size_t nterms;
} sf_formula;

/*
 * Compile model m's formula with the inputs of d (its input names, and
 * the levels of text inputs).  Returns SF_OK and a new formula in *out, or
 * an error placed in the model file: SF_ESYNTAX, SF_ENAME (an unknown
 * name, with a suggestion; a term used before its definition), SF_ETYPE.
 * Warnings - a parameter or input the formula never uses, a name
 * shadowing pi or e - go to warn (may be NULL).
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
