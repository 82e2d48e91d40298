/*
 * problem.h - one model made ready to fit: its data read and bound, its
 * formula compiled.  The front of every command's pipeline
 * (model file -> table -> dataset -> formula), shared by the commands and
 * the tests.
 *
 * Ownership: a problem borrows its model (which must outlive it) and owns
 * the table (when it read it), dataset and formula; sf_problem_close()
 * releases them.
 */
#ifndef SF_PROBLEM_H
#define SF_PROBLEM_H

#include "input/csv.h"
#include "input/dataset.h"
#include "base/error.h"
#include "input/formula.h"
#include "input/model.h"

typedef struct sf_problem {
	const sf_model *model; /* borrowed */
	sf_table *table;
	sf_dataset *data;
	sf_formula *formula;
} sf_problem;

/*
 * For model m: read the data (data_path when not NULL, else the model's
 * data.file), bind it for the given loss (which decides whether outputs
 * must be > 0) and compile the formula.  Warnings go to warn (may be
 * NULL).  Returns SF_OK, or an error in err (SF_EUSAGE when there is no
 * data file at all) with *p zeroed.
 */
int sf_problem_open(const sf_model *m, const char *data_path, sf_loss loss,
                    sf_warn_fn warn, void *warn_ctx, sf_problem *p,
                    sf_error *err);

/*
 * sf_problem_open on rows already read: table t (borrowed; it must
 * outlive the problem, whose table stays NULL), so one table read from
 * standard input serves several models.
 */
int sf_problem_open_table(const sf_model *m, const sf_table *t, sf_loss loss,
                          sf_warn_fn warn, void *warn_ctx, sf_problem *p,
                          sf_error *err);

/*
 * The rows of model m from table t when it is not NULL
 * (sf_problem_open_table), else from data_path (sf_problem_open), with
 * warnings prefixed "model 'NAME': " when named (a model of a models:
 * file, one candidate of several).
 */
int sf_problem_open_rows(const sf_model *m, const char *data_path,
                         const sf_table *t, sf_loss loss, int named,
                         sf_warn_fn warn, void *warn_ctx, sf_problem *p,
                         sf_error *err);

/*
 * What a writer of model files checks of what it wrote: text, read as if
 * from path, parsed and its first model opened on table t with the
 * model's own loss, as `scalefit check` opens it (no warnings).  On SF_OK
 * the caller owns *set and *p (sf_problem_close(p), then
 * sf_model_set_free(*set)).  Otherwise *set is NULL, *p zeroed, and the
 * writer (named by who: "init") has a bug: SF_EINTERNAL with the loader's
 * message ("the model init wrote does not check against DATA (a bug):
 * line N: ..."), SF_ENOMEM as itself.
 */
int sf_problem_open_written(const char *who, const char *path, const char *text,
                            const sf_table *t, sf_model_set **set,
                            sf_problem *p, sf_error *err);

/* Release what p owns and zero it.  Accepts a zeroed problem. */
void sf_problem_close(sf_problem *p);

#endif /* SF_PROBLEM_H */
