/*
 * validate.h (run/) - `scalefit validate` as one library call: fit
 * without some rows, predict them, and say how far off the predictions
 * are, overall and per value of each input (fit/validate.h does the work).
 *
 * The rows held out are those where a train condition is false (a split:
 * the extrapolation test), or K folds of configurations, or one
 * configuration at a time (leave one out).  With groups (data.by or the
 * model's data.by) every group is validated alone (run/fleet.h), each
 * seeded from the run's seed and the group's index.
 *
 * The text report lists the held-out rows of a split (the first 40; the
 * JSON lists all), the scores, and the scores by value of each input; the
 * JSON is use/validation.h's.
 *
 * Ownership: the result owns its problem, holdout, JSON and text; it
 * borrows the model set, which must outlive it.  Thread safety: one
 * thread per call.
 */
#ifndef SF_RUN_VALIDATE_H
#define SF_RUN_VALIDATE_H

#include "base/error.h"
#include "fit/fit.h"
#include "fit/validate.h"
#include "run/data.h"
#include "run/fleet.h"
#include "run/output.h"

/* What `scalefit validate` is asked: exactly one of train, kfold, loo. */
typedef struct sf_run_validate_settings {
	sf_run_data data;       /* the rows, the model, the groups */
	sf_fit_options options; /* overrides of the model's fit: block */
	const char *train;      /* a split: fit where this holds, predict
	                           the other rows */
	size_t kfold;           /* K-fold cross-validation, K >= 2 */
	int loo;                /* leave one configuration out */
	int json;               /* 1: build the JSON document too */
	int csv;                /* 1: the text is every predicted row as CSV
	                           (use/text.h); not with groups */
	sf_warn_fn warn;        /* warnings; NULL: none */
	void *warn_ctx;
} sf_run_validate_settings;

/* Zero everything, with sf_fit_options_init()'s "no override". */
void sf_run_validate_settings_init(sf_run_validate_settings *s);

typedef struct sf_run_validate_result {
	const sf_model *model; /* borrowed */
	sf_problem problem;    /* the rows and compiled formula */
	const char *method;    /* "split", "kfold" or
	                          "leave-one-configuration-out" */
	sf_holdout *holdout;   /* the predictions and scores; NULL for a
	                          fleet.  holdout->predicted_rows == 0: no
	                          row could be predicted (a failed goal) */
	sf_fleet *fleet;       /* a --by run: every group's report */
	sf_run_output out;     /* JSON (when asked) and text */
	/* An ensemble (input/model.h: set->ensemble, no --model): every
	 * member validated on the same folds; holdout is their mixture
	 * (fit/ensemble.h) and problem the first member's. */
	size_t nmembers;
	sf_problem *members;          /* nmembers; [0] is problem's copy */
	sf_holdout **member_holdouts; /* nmembers */
} sf_run_validate_result;

/*
 * Validate model s->data.model of set as above; an ensemble file without
 * s->data.model is validated as one (its members' mixture).  Returns SF_OK with
 * a new result in *out, or an error with *out NULL: SF_EREQUEST (no such model;
 * not exactly one way of holding out), the errors of opening the rows, of
 * the train condition (its position in it), SF_EUSAGE (fewer than 2
 * configurations to cross-validate), SF_ENOMEM.
 */
int sf_run_validate(const sf_model_set *set, const sf_run_validate_settings *s,
                    sf_run_validate_result **out, sf_error *err);

/* Release r.  Accepts NULL. */
void sf_run_validate_result_free(sf_run_validate_result *r);

#endif /* SF_RUN_VALIDATE_H */
