/*
 * override.h - the command line's say over a model's data section.
 *
 * `--where EXPR`, `--output-column EXPR` and `--input NAME=EXPR` let a
 * model written for one CSV (a formula of the library, say) run on
 * another without editing the file: they replace the model's data.where,
 * data.output and the expression of input NAME.  A replaced text carries
 * its option's name (sf_model_text.origin), so an error inside it points
 * at the command-line argument ("--where: column 9: ...") rather than at
 * the model file.  An empty --where drops the model's filter.
 *
 * Ownership: the override borrows its texts; sf_model_override() copies
 * what it puts in the model, which owns it from then on.  Not thread-safe
 * on one model (it writes it); apply it before the model is shared.
 */
#ifndef SF_OVERRIDE_H
#define SF_OVERRIDE_H

#include "base/error.h"
#include "input/model.h"

#include <stddef.h>

/* What the command line replaces; NULL or 0 leaves the model's. */
typedef struct sf_data_override {
	const char *where;         /* data.where; "" drops the filter */
	const char *output;        /* data.output */
	const char *const *inputs; /* ninputs "NAME=EXPR" texts */
	size_t ninputs;
} sf_data_override;

/*
 * The NAME and EXPR of an --input text arg, "NAME=EXPR": the name, blanks
 * around it left out, into name (size bytes), and *expr past the '='.
 * Returns SF_OK, or SF_ESYNTAX (no message: the caller says what the
 * option is for) when arg has no '=', an empty name, a name of size bytes
 * or more, or a blank expression.  fit's --input and predict's (over a
 * grid's columns) read their texts with it.
 */
int sf_override_input_split(const char *arg, char *name, size_t size,
                            const char **expr);

/* 1 when o replaces nothing (o may be NULL). */
int sf_data_override_empty(const sf_data_override *o);

/*
 * Apply o to m.  Returns SF_OK, or with m unchanged in the parts not yet
 * replaced: SF_ESYNTAX for an --input without "NAME=" or with an empty
 * expression, SF_ENAME for an input the model does not have (listing its
 * inputs, with a suggestion), SF_EVALUE for an empty --output-column,
 * SF_ENOMEM.  Errors name the option (err->file "--input").
 */
int sf_model_override(sf_model *m, const sf_data_override *o, sf_error *err);

#endif /* SF_OVERRIDE_H */
