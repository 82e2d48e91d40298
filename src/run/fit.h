/*
 * fit.h (run/) - `scalefit fit` as one library call: a model's constants
 * fitted to its rows, with everything the command reports.
 *
 * sf_run_fit() chooses the model (data.model), opens its rows (run/data.h)
 * and runs the pipeline of one fit:
 *
 *   restarts > 1   K fits from consecutive seeds, the best kept, their
 *                  spread reported (fit/resample.h)
 *   else           one fit, with lambda: auto tuned (fit/tune.h)
 *   bootstrap > 0  replicates resampling configurations (fit/resample.h)
 *   statistics     covariance, metrics, AICc (fit/stats.h); a fit without
 *                  them is still reported, with a warning
 *   interval       the error model of a new run (fit/interval.h), which
 *                  predict, scale and next read from FIT.json
 *   report         the text, and the JSON (FIT.json) when asked
 *                  (use/report.h)
 *
 * With groups (data.by, or the model's data.by) it runs that pipeline on
 * every group instead (run/fleet.h), each group's fits seeded from the
 * run's seed and the group's index, and gives back the groups JSON and
 * the summary.
 *
 * Ownership: the result owns its problem (rows and formula), typed
 * results, JSON and text; it borrows the model set, which must outlive
 * it.  Thread safety: one thread per call; the fits inside use OpenMP and
 * give the same bytes at any thread count.
 */
#ifndef SF_RUN_FIT_H
#define SF_RUN_FIT_H

#include "base/error.h"
#include "fit/cost.h" /* SF_THREADS_MAX: the most options.threads takes */
#include "fit/fit.h"
#include "fit/interval.h"
#include "fit/resample.h"
#include "fit/stats.h"
#include "run/data.h"
#include "run/fleet.h"
#include "run/output.h"
#include "use/report.h"

/* What `scalefit fit` is asked. */
typedef struct sf_run_fit_settings {
	sf_run_data data;       /* the rows, the model, the groups */
	sf_fit_options options; /* overrides of the model's fit: block */
	size_t bootstrap;       /* replicates; 0: none */
	size_t restarts;        /* fits from consecutive seeds; 0: one */
	sf_residuals residuals; /* the rows the JSON report lists */
	int json;               /* 1: build the JSON report too (a fleet's
	                           groups always have theirs) */
	sf_warn_fn warn;        /* warnings; NULL: none */
	void *warn_ctx;
} sf_run_fit_settings;

/* Zero everything, with sf_fit_options_init()'s "no override". */
void sf_run_fit_settings_init(sf_run_fit_settings *s);

/* What it gives back. */
typedef struct sf_run_fit_result {
	const sf_model *model;      /* the model fitted, borrowed */
	sf_problem problem;         /* its rows and compiled formula */
	sf_fit_result *fit;         /* the fit; NULL for a fleet */
	sf_stats *stats;            /* NULL when not computed (warned) */
	sf_resample *bootstrap;     /* NULL without bootstrap */
	sf_resample *restarts;      /* NULL without restarts */
	sf_interval_model interval; /* valid when has_interval */
	int has_interval;
	sf_fleet *fleet;   /* a --by run: every group's report; the typed
	                      results above are then empty */
	sf_run_output out; /* JSON (when asked) and text */
	/* An ensemble (input/model.h: set->ensemble, no --model): every
	 * member's own result and its weight (fit/ensemble.h); the typed
	 * results above are then empty and model is the first member. */
	size_t nmembers;
	struct sf_run_fit_result **members;
	double *weights;
	int weighed; /* the model file's weight: keys gave the weights
	                (input/model.h: sf_model_set_weighed), else equal */
} sf_run_fit_result;

/*
 * Fit model s->data.model of set (an ensemble file without it: every
 * member, weighed as its weight: says, equally without (fit/ensemble.h); its
 * JSON is
 * {"ensemble": {...}, "fits": [...]}, scalefit(1)) (the model file is named
 * set->models[0]->path in messages) as above.  Returns SF_OK with a new
 * result in *out, or an error with *out NULL: SF_EREQUEST (no such model),
 * the errors of opening the rows, of the fit (SF_EFAIL: no finite cost),
 * of splitting the groups, SF_ENOMEM.  A group that fails is counted in
 * the fleet, not an error.
 */
int sf_run_fit(const sf_model_set *set, const sf_run_fit_settings *s,
               sf_run_fit_result **out, sf_error *err);

/* Release r.  Accepts NULL. */
void sf_run_fit_result_free(sf_run_fit_result *r);

#endif /* SF_RUN_FIT_H */
