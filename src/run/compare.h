/*
 * compare.h (run/) - `scalefit compare` as one library call: every
 * candidate formula fitted on the same rows, scored and ranked
 * (fit/compare.h does the work, use/comparison.h writes the JSON).
 *
 * The candidates are every model of every set given, in order; each is
 * opened on the rows data says (the same file, or each model's data.file),
 * checked, and only then fitted, so a bad last candidate fails at once.
 * After the fits the run warns when candidates fit different outputs
 * (their SSE are in different units) or different rows or losses (their
 * AICc and weights do not compare).  With groups (data.by, or the first
 * candidate's data.by) each group's rows are compared alone
 * (run/fleet.h), every candidate's rows split by the same columns.
 *
 * The text report is the ranking table, and with a train condition the
 * extrapolation MAPE of every candidate per held-out value of each
 * extrapolated input.  The ranking follows rank (fit/compare.h: by
 * default the extrapolation MAPE with a train condition, else AICc); a
 * line above the table says which and why, unless it is AICc by default
 * (the report of a comparison without --train is as it always was), and
 * the JSON's comparison.ranked_by and .ranked_because say it always.
 *
 * Ownership: the result owns the comparison (its candidates' problems),
 * JSON and text; it borrows the model sets, which must outlive it.
 * Thread safety: one thread per call.
 */
#ifndef SF_RUN_COMPARE_H
#define SF_RUN_COMPARE_H

#include "base/error.h"
#include "fit/compare.h"
#include "fit/fit.h"
#include "run/data.h"
#include "run/fleet.h"
#include "run/output.h"

/* The most candidates a comparison takes. */
enum { SF_RUN_COMPARE_MAX = 64 };

/* What `scalefit compare` is asked. */
typedef struct sf_run_compare_settings {
	sf_run_data data;        /* the rows of every candidate, the groups
	                            (data.model is not used) */
	sf_fit_options options;  /* overrides of the models' fit: blocks */
	const char *train;       /* the extrapolation holdout; NULL: none */
	size_t kfold;            /* K of the cross-validation, >= 2 */
	sf_compare_rank_by rank; /* the order; SF_COMPARE_RANK_DEFAULT:
	                            extrapolation with train, else aicc */
	int json;                /* 1: build the JSON document too */
	int csv;                 /* 1: the text is the ranking as CSV
	                            (use/text.h); not with groups */
	sf_warn_fn warn;         /* warnings; NULL: none */
	void *warn_ctx;
} sf_run_compare_settings;

/* Zero everything, with sf_fit_options_init()'s "no override" and
 * kfold 5. */
void sf_run_compare_settings_init(sf_run_compare_settings *s);

typedef struct sf_run_compare_result {
	sf_compare *compare; /* the candidates: fitted and ranked, or for a
	                        fleet opened on all their rows */
	sf_fleet *fleet;     /* a --by run: every group's report */
	sf_run_output out;   /* JSON (when asked) and text */
} sf_run_compare_result;

/*
 * Compare every model of the nsets sets as above.  Returns SF_OK with a
 * new result in *out, or an error with *out NULL: SF_EREQUEST (more than
 * SF_RUN_COMPARE_MAX models; a ranking by extrapolation without train), the
 * errors of opening a candidate's rows, of the train condition, of splitting
 * the groups, SF_ENOMEM.  A fit with no finite cost marks its candidate failed,
 * not an error.
 */
int sf_run_compare(sf_model_set *const *sets, size_t nsets,
                   const sf_run_compare_settings *s,
                   sf_run_compare_result **out, sf_error *err);

/* Release r.  Accepts NULL. */
void sf_run_compare_result_free(sf_run_compare_result *r);

#endif /* SF_RUN_COMPARE_H */
