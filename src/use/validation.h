/*
 * validation.h - what a validation (validate.h) tells its user: an
 * input's value as text, and the JSON document `scalefit validate --json`
 * prints:
 *
 *   {"scalefit_version": ..., "model": {"name", "file", "data"},
 *    "validation": {"method", "train", "folds", "rows", "rows_predicted",
 *    "failed_folds", "mape", "max_ape", "bias", "evaluations",
 *    "interval_rows", "coverage95", "mean_halfwidth_pct",
 *    "interval_score", "groups", "predictions"}}
 *
 * groups has, for each input with 2 to SF_HOLDOUT_LEVELS_MAX held-out
 * values, one object per value (value, rows, mape, max_ape, bias and the
 * interval scores); predictions one object per held-out row (row, line,
 * fold, observed, predicted, interval95 and the inputs' values).
 *
 * Ownership: sf_validation_json() returns a new jansson value the caller
 * releases with json_decref().  Thread-safe on distinct holdouts.
 */
#ifndef SF_VALIDATION_H
#define SF_VALIDATION_H

#include "fit/validate.h"
#include "input/dataset.h"
#include "input/model.h"

#include <jansson.h>
#include <stddef.h>

/* Value v of input in for people: the name of a text input's level
 * (escaped for the terminal, base/escape.h), else the number with "%g".
 * Writes at most size bytes, NUL-terminated. */
void sf_validation_value(const sf_dataset_input *in, double v, char *buf,
                         size_t size);

/* Scores s as members of o: "rows", "mape", "max_ape", "bias" and the
 * interval scores "interval_rows", "coverage95", "mean_halfwidth_pct",
 * "interval_score" (null where NaN).  A failure clears *ok (json.h). */
void sf_validation_scores_json(json_t *o, const sf_holdout_scores *s, int *ok);

/* The document of holdout h of model m over d, made by method ("split",
 * "kfold" or "leave-one-configuration-out") with condition train (NULL
 * but for a split); NULL when out of memory. */
json_t *sf_validation_json(const sf_model *m, const sf_dataset *d,
                           const sf_holdout *h, const char *method,
                           const char *train);

#endif /* SF_VALIDATION_H */
