/*
 * comparison.h - the JSON document of a comparison (compare.h), what
 * `scalefit compare --json` prints:
 *
 *   {"scalefit_version": ..., "comparison": {"kfold": K, "train": EXPR or
 *    null, "same_rows": B, "comparable": B, "candidates": [...]}}
 *
 * same_rows is false when some candidate was fitted to other rows than
 * the first (sf_compare_other_row_set), comparable false also when one
 * was fitted with another loss (sf_compare_other_rows): their AICc and
 * weights do not compare then.  The candidates come best first, each
 * with its rank, model, label (the name made distinct), rows_sha256, file,
 * parameters, rows, failed, sse, mape, aicc, bic, akaike_weight, cv_mape,
 * extrapolation_mape, extrapolation_by_level, max_abs_correlation,
 * at_bound, over_parameterised and poorly_determined.
 * extrapolation_by_level is null without a train condition, else an
 * object with, for each extrapolated input (compare.h's by_level), the
 * list of its held-out values ascending, each {"value", "rows", "mape",
 * "bias"}.  Numbers as sf_json_number() writes them (null
 * when not finite).
 *
 * Ownership: sf_comparison_json() returns a new jansson value the caller
 * releases with json_decref().  Thread-safe on distinct comparisons.
 */
#ifndef SF_COMPARISON_H
#define SF_COMPARISON_H

#include "fit/compare.h"

#include <jansson.h>

/* The document of cmp, ranked (sf_compare_rank), or NULL when out of
 * memory. */
json_t *sf_comparison_json(const sf_compare *cmp);

#endif /* SF_COMPARISON_H */
