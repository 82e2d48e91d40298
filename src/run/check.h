/*
 * check.h (run/) - `scalefit check` as library calls: a model and its
 * rows checked without fitting (the rows read and bound, the formula
 * compiled), and what scalefit understood of them, as text: the data (its
 * rows, those left out by where, those skipped, the configurations and
 * their repetitions, the output's range), each input's column and range,
 * the parameters' bounds, the terms and time as compiled, the fit's
 * settings.  A data.by's groups are counted by a second call, so a
 * caller can show the model before an error in its groups.
 *
 * Ownership: the result owns its problem, groups and text; it borrows the
 * model, which must outlive it.  Thread safety: one thread per result.
 */
#ifndef SF_RUN_CHECK_H
#define SF_RUN_CHECK_H

#include "base/error.h"
#include "input/groups.h"
#include "run/data.h"
#include "run/output.h"

typedef struct sf_run_check_result {
	const sf_model *model; /* borrowed */
	sf_problem problem;    /* the rows and compiled formula */
	sf_groups *groups;     /* data.by's groups, after
	                          sf_run_check_groups(); NULL without */
	sf_run_output out;     /* the text; no JSON */
} sf_run_check_result;

/*
 * Check model m on the rows d says (run/data.h; d->model, by and details
 * are not used), with m's loss; warnings to warn (may be NULL), prefixed
 * with the model's name when named.  Returns SF_OK with a new result in
 * *out, or the error of opening the rows (*out NULL).
 */
int sf_run_check(const sf_model *m, const sf_run_data *d, int named,
                 sf_warn_fn warn, void *warn_ctx, sf_run_check_result **out,
                 sf_error *err);

/*
 * Split r's rows by its model's data.by (nothing without one), as fit
 * would: r->groups.  Returns SF_OK, or the error (quoted from the model
 * file).  d: the rows r was checked on.
 */
int sf_run_check_groups(sf_run_check_result *r, const sf_run_data *d,
                        sf_error *err);

/* Release r.  Accepts NULL. */
void sf_run_check_result_free(sf_run_check_result *r);

#endif /* SF_RUN_CHECK_H */
