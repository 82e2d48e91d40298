/*
 * fit.h - fitting a model's constants: the global search, then the polish.
 *
 * sf_fit_run() drives the differential-evolution optimiser (de.h) with
 * the cost (cost.h): each generation it asks for the trial vectors,
 * evaluates their costs in parallel, and tells them back, until a stopping
 * rule fires; then, when the cost is a sum of squares, it refines the best
 * vector by bounded least squares (polish.h) and keeps the refinement only
 * if it lowers the cost; the best distinct members of the population at a
 * quarter and half of a run's budget are polished too (probes, fit.c),
 * and a deeper minimum found from them becomes the answer.  With
 * `scale: auto` (the default) this is done twice, searching the parameters
 * as they are and by log magnitude, and the lower cost wins (see
 * search_space in fit.c).  Constants the residuals are linear in are not
 * searched but solved for each candidate by bounded linear least squares
 * (separable, cost.h); when every constant is, there is no search at all.
 * Random numbers are drawn only by the optimiser, serially, so a seed
 * gives the same result whatever the thread count.  Every run of the
 * search (restarts included) is recorded in the result for the report.
 *
 * Settings come from the model's `fit:` block, overridden by the caller's
 * sf_fit_options (the command-line flags).
 *
 * Ownership: the result is the caller's (sf_fit_result_free).  Nothing is
 * kept from the arguments.
 */
#ifndef SF_FIT_H
#define SF_FIT_H

#include "input/dataset.h"
#include "base/error.h"
#include "input/formula.h"
#include "input/model.h"

#include <stdint.h>

/* A snapshot for a progress display, once per generation. */
typedef struct sf_fit_progress {
	size_t generation;
	size_t evaluations;
	size_t max_evals;
	double best_cost;
	double spread; /* std(costs) / |mean(costs)| of the population */
	double seconds;
} sf_fit_progress;

/* Overrides of the model's fit settings.  sf_fit_options_init() sets
 * "no override" everywhere. */
typedef struct sf_fit_options {
	int has_seed;
	uint64_t seed;
	int threads;         /* <= 0: all available */
	int parallel_always; /* 1: threads even for small problems (tests) */
	int has_algorithm;
	sf_de_algorithm algorithm;
	size_t max_evals; /* 0: the model's or the default */
	int has_loss;
	sf_loss loss;
	int has_lambda;
	double lambda;
	int has_scale;
	sf_search_scale scale;
	double time_limit; /* seconds; 0: the model's or none */
	/* When not NULL and the cost is a sum of squares with the polish on:
	 * no global search, only the polish from this theta (a warm start,
	 * for bootstrap replicates near a known optimum). */
	const double *warm_start;
	int first_run_only; /* 1: no restarts (a score, not an answer) */
	int polish;         /* -1: the model's; 0 off; 1 on */
	int separable;      /* -1: the model's; 0 off; 1 on */
	/* Called once per generation when not NULL; must not touch the fit. */
	void (*progress)(void *ctx, const sf_fit_progress *p);
	void *progress_ctx;
} sf_fit_options;

/* One run of the global search: the first run in a search space, or one
 * of its restarts (fit.c), in the order they ran. */
typedef struct sf_fit_search_run {
	sf_search_scale scale;   /* the space: SF_SCALE_LINEAR or _LOG */
	size_t population;       /* its initial population */
	size_t evaluations;      /* its cost evaluations */
	double cost;             /* its lowest cost, polished when the
	                            polish applies */
	const char *stop_reason; /* how it ended (a static string) */
} sf_fit_search_run;

/* The lambdas `lambda: auto` tries: 0, then 1e-6 to 1 by decades. */
enum { SF_LAMBDA_GRID = 8 };

typedef struct sf_fit_result {
	size_t nparams;
	double *theta;        /* the fitted parameters (theta order) */
	double *theta_search; /* the global search's best, before polish */
	double cost;          /* loss + lambda * penalty at theta */
	double loss;
	double penalty;          /* before lambda */
	double cost_search;      /* the global search's best cost */
	size_t evaluations;      /* cost evaluations of the global search(es) */
	size_t generations;      /* generations of the global search(es) */
	size_t population;       /* the initial population size */
	sf_search_scale scale;   /* the search space of the kept answer */
	int searches;            /* 2 when scale: auto searched both ways
	                            (else 1, or 0 when not recorded) */
	double cost_other;       /* then the other search's final cost */
	const char *stop_reason; /* "tol", "max_evals", "time_limit", ... */
	double seconds;          /* wall time, search and polish */
	int polish_ran;          /* 1 when the polish was run */
	int polish_kept;         /* 1 when its result replaced the search's */
	const char *polish_note; /* why it did not run or was not kept */
	const char *polish_stop; /* its stopping rule when it ran */
	size_t polish_iterations;
	int *at_bound; /* per parameter: 1 at lower, 2 at upper */
	int *linear;   /* per parameter: 1 when solved separably
	                * (cost.h), not searched */
	size_t nlinear;
	sf_fit_settings settings; /* what was actually used */
	/* lambda: auto - the grid, its cross-validated MAPE (percent; NaN
	 * where a fold failed), the folds; settings.lambda is the choice. */
	int lambda_auto;
	size_t lambda_folds;
	double lambda_grid[SF_LAMBDA_GRID];
	double lambda_cv_mape[SF_LAMBDA_GRID];
	int threads;
	size_t restarts; /* runs of the search after the first (fit.c) */
	/* Every run of the global search(es), nruns of them: restarts +
	 * searches (0 for a warm start or when nothing was searched). */
	sf_fit_search_run *runs;
	size_t nruns;
} sf_fit_result;

/* Fill o with "no override". */
void sf_fit_options_init(sf_fit_options *o);

/*
 * The settings a fit of m with options o uses: the model's, with o's
 * overrides applied, and the seed rule - o's seed, else the model's, else
 * 1 - so every fit, fold and replicate derives its seed the same way.
 */
sf_fit_settings sf_fit_settings_effective(const sf_model *m,
                                          const sf_fit_options *o);

/* The loss a fit of m with options o uses: o's (--loss), else the
 * model's; what sf_fit_settings_effective() says, without the rest. */
sf_loss sf_fit_loss(const sf_model *m, const sf_fit_options *o);

/*
 * Fit formula f of model m to dataset d at one lambda.  Returns SF_OK and
 * a new result in *out; SF_EFAIL when no candidate had a finite cost (then
 * *out still holds the result, with cost +INFINITY, for the report);
 * SF_EVALUE for bad settings; SF_ENOMEM.  `lambda: auto` is not this
 * function's job (SF_EINTERNAL): sf_tune_fit (tune.h) chooses lambda and
 * then calls it, and is what commands call.
 */
int sf_fit_run(const sf_model *m, const sf_dataset *d, const sf_formula *f,
               const sf_fit_options *o, sf_fit_result **out, sf_error *err);

/* A fitting procedure: sf_fit_run, or sf_tune_fit with lambda: auto. */
typedef int sf_fit_fn(const sf_model *m, const sf_dataset *d,
                      const sf_formula *f, const sf_fit_options *o,
                      sf_fit_result **out, sf_error *err);

/* Release r.  Accepts NULL. */
void sf_fit_result_free(sf_fit_result *r);

/*
 * The weights the settings call for (d->rows values), or NULL for none:
 * data.weight as given, or the inverse of the spread of repetitions (see
 * scalefit-model(5)).  *weights is malloc'd; the caller frees it.
 */
int sf_fit_weights(const sf_fit_settings *s, const sf_dataset *d,
                   double **weights, sf_error *err);

#endif /* SF_FIT_H */
