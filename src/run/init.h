/*
 * init.h (run/) - the model `scalefit init` writes: input/scaffold's
 * guess of the columns, and, where the runs may take whole steps the
 * quotient n / (p b) does not give (sf_scaffold_whole_steps), the
 * rounding that fits them: the formula written three ways (the quotient,
 * max(1, floor(.)), ceil(.)), each fitted on every row the model binds,
 * and a rounding kept when its AICc is lower than the quotient's by more
 * than SF_AICC_NO_SUPPORT (the quotient then has essentially no support),
 * the lower of the two roundings.  A comment above the steps says so.
 *
 * Ownership: *text is malloc'd, the caller frees it.  Thread safety: one
 * thread per call (the fits run on one thread).
 */
#ifndef SF_RUN_INIT_H
#define SF_RUN_INIT_H

#include "base/error.h"
#include "input/csv.h"
#include "input/scaffold.h"

/*
 * The model text for table t and guess g (its steps_rounding and
 * steps_note set as chosen), named name, its data.file data_file, as
 * sf_scaffold_write writes it.  Returns sf_scaffold_write's codes.
 */
int sf_run_init_model(const sf_table *t, sf_scaffold *g, const char *name,
                      const char *data_file, char **text, sf_error *err);

#endif /* SF_RUN_INIT_H */
