/*
 * design.h - which run to measure next: candidate configurations ranked by
 * how much measuring them would narrow the 95% prediction interval at a
 * target configuration.
 *
 * The fit is linearised at its constants (as the covariance is).  A new run
 * at candidate x adds one row to the information; with g~ its gradient on
 * the loss's scale (df/dtheta, divided by f(x) when errors are
 * multiplicative) and s^2 the noise variance of a run at x (above the
 * fitted range its top level's: interval.h), the covariance becomes, by
 * Sherman and Morrison,
 *   C' = C - C g~ g~^T C / (s^2 + g~^T C g~),
 * so the fitted mean's variance at the target t drops by
 *   (g_t^T C g~)^2 / (s^2 + g~^T C g~):
 * the c-optimal design criterion for the target's prediction (Ernest and
 * Extra-P rank experiments by how much they inform the whole model, the
 * D-optimal criterion, reported too: the gain ln(1 + g~^T C g~ / s^2) in
 * ln det of the information).  A run also extends the fitted range when it
 * lies beyond it, which shortens the target's distance D and so the model
 * error c D of interval.h - usually the larger effect far out.  The
 * interval expected after the run is interval.h's at the target with the
 * new variance and distance; the measurement's own value is not needed.
 *
 * Each candidate's cost is its predicted time times its worker count
 * (worker-seconds, or the output's unit), or its time when no input counts
 * workers.  With a budget, a plan picks runs one at a time, each the one
 * that narrows the interval most per unit of cost among those the rest of
 * the budget affords, updating C and the range after each.
 *
 * Ownership: the caller owns every array.  Thread safety: pure functions.
 */
#ifndef SF_DESIGN_H
#define SF_DESIGN_H

#include "base/error.h"
#include "fit/interval.h"
#include "use/fitfile.h"

#include <jansson.h>
#include <stddef.h>

/* A configuration, linearised: its inputs, predicted time and gradient. */
typedef struct sf_design_point {
	const double *x;    /* ninputs values */
	double time;        /* f(x) */
	const double *grad; /* P values: df / dtheta at x */
	double cost;        /* of measuring it (time x workers) */
} sf_design_point;

/* The linearised fit every point belongs to. */
typedef struct sf_design_fit {
	size_t nparams;    /* P */
	const double *cov; /* P x P; NaN rows: held at a bound */
	size_t ninputs;
	const double *lo, *hi;          /* the fitted range of each input */
	const unsigned char *numeric;   /* per input, or NULL for all */
	const sf_interval_model *error; /* noise, t, growth */
} sf_design_fit;

/* What measuring one candidate would give. */
typedef struct sf_design_gain {
	double mean_var;      /* the target's fitted-mean variance after */
	double distance;      /* the target's distance beyond the range after */
	double lo, hi;        /* its 95% prediction interval after */
	double halfwidth_pct; /* 100 (hi - lo) / (2 f_t) */
	double d_gain;        /* ln(1 + g~^T C g~ / s^2), D-optimality */
	double formula_info;  /* an ensemble's: what the run tells of which
	                         formula holds, nats (separate.h); else NaN */
	sf_interval_t shape;  /* a new run's distribution at the target
	                         (interval.h; NaN where none) */
} sf_design_gain;

/*
 * The target's interval now (*now, with mean_var and distance of today's
 * fit; d_gain 0) and after measuring each of the n candidates (gains[i]).
 * Returns SF_OK, SF_ENOMEM, or SF_EVALUE when the target's time is not
 * finite.
 */
int sf_design_rank(const sf_design_fit *fit, const sf_design_point *target,
                   const sf_design_point *cand, size_t n, sf_design_gain *now,
                   sf_design_gain *gains, sf_error *err);

/*
 * A plan within budget: up to max_runs candidates (indices into cand, in
 * the order to run them) chosen greedily by the narrowing per unit of cost
 * among those the rest of the budget affords and that narrow the target's
 * half-width by at least min_narrowing of it (a fraction; 0: any); a
 * candidate may be chosen once.  after[k] is the target's interval after
 * the first k + 1 runs.  *small (may be NULL) becomes 1 when the plan
 * stopped because every run the budget still affords narrows less than
 * min_narrowing.  Returns the number of runs planned (0 when none is
 * affordable), or (size_t)-1 when out of memory.
 */
size_t sf_design_plan(const sf_design_fit *fit, const sf_design_point *target,
                      const sf_design_point *cand, size_t n, double budget,
                      size_t max_runs, double min_narrowing, size_t *order,
                      sf_design_gain *after, int *small);

/* With a budget, a run is planned only when it narrows the target's
 * interval by at least this fraction of its half-width (1%). */
#define SF_DESIGN_MIN_NARROWING 0.01

/* The target's interval is nearly all noise when the scatter of runs is at
 * least this share of its variance (the squared ratio of the interval of
 * noise alone to today's): no run will narrow it much. */
#define SF_DESIGN_NOISE_SHARE 0.9

/*
 * `scalefit next`: for fit f (which must carry its error model, FIT.json's
 * prediction_interval), the target point (one value per input) and n
 * candidate points (columns[i] holds input i's n values), the target's
 * interval now and after each candidate, the candidates ranked by the
 * interval they leave (narrowest first; ties to the cheaper, then the
 * earlier), and with a budget (INFINITY: none) or max_runs > 1 a plan of
 * up to max_runs runs.  A candidate where the formula is not finite (its
 * time, its cost or the time's derivative in a constant: a point outside
 * the formula's domain, such as p = 0 in 1 / p) is neither ranked nor
 * planned: skipped[k] says why (enum sf_next_skip).
 */
enum sf_next_skip {
	SF_NEXT_KEPT = 0,
	SF_NEXT_TIME,    /* the predicted time is not finite */
	SF_NEXT_COST,    /* its cost (time times workers) is not */
	SF_NEXT_GRADIENT /* the time's derivative in a constant is not */
};

typedef struct sf_next {
	size_t n, ninputs;
	unsigned char *skipped; /* n: enum sf_next_skip */
	size_t nranked;         /* the candidates ranked: n less those
	                           skipped (rank[0..nranked)) */
	double *inputs;         /* ninputs x n, input-major */
	double *time, *cost;    /* n each */
	size_t workers;         /* the input counting workers, or
	                           SF_FITFILE_NONE: cost is then the time */
	double target_time;
	sf_design_gain now;    /* the target's interval today */
	sf_design_gain *gains; /* n: after each candidate */
	size_t *rank;          /* nranked candidate indices, best first */
	size_t nplan;          /* runs planned */
	size_t *plan;          /* nplan candidate indices, in order */
	sf_design_gain *after; /* nplan: the target after each of them */
	double budget;
	int plan_small;         /* the plan stopped at runs narrowing less than
	                           SF_DESIGN_MIN_NARROWING (with a budget) */
	double noise_pct;       /* the half-width of noise alone at the target
	                           (no constants' or model error), % */
	double noise_share;     /* (noise_pct / now.halfwidth_pct)^2: its share
	                           of today's interval (NaN when unknown) */
	size_t members;         /* an ensemble's formulas mixed (separate.h);
	                           0 for one formula */
	double formula_entropy; /* an ensemble's: its weights' entropy, the
	                           most a run can tell (nats); else 0 */
} sf_next;

/*
 * Run the study.  Returns SF_OK and a new sf_next in *out (free with
 * sf_next_free(); every candidate may be skipped, nranked 0), SF_EVALUE
 * (f has no error model; no candidate; the target's prediction not
 * finite) or SF_ENOMEM, with err filled.
 */
int sf_next_run(const sf_fitfile *f, const double *target,
                const double *const *columns, size_t n, double budget,
                size_t max_runs, sf_next **out, sf_error *err);

/* Release x.  Accepts NULL. */
void sf_next_free(sf_next *x);

/* The covariance of fit f's fitted means at two points whose gradients
 * (df / dtheta) are u[0], u[su], ... and v[0], v[sv], ...: u^T C v over
 * the constants not held at a bound (NaN gradients count 0). */
double sf_design_mean_cov(const sf_fitfile *f, const double *u, size_t su,
                          const double *v, size_t sv);

/* A new answer for n candidates over J inputs with its arrays allocated
 * (nothing ranked or planned yet); NULL when out of memory. */
sf_next *sf_next_alloc(size_t J, size_t n, double budget);

/* Candidate k's predicted time into x and its cost: the time times its
 * worker count (columns[x->workers]), or the time when no input counts
 * workers. */
void sf_next_set_time(sf_next *x, const double *const *columns, size_t k,
                      double time);

/* The target's half-width of noise alone into x (%), and its share of
 * today's interval, (noise_pct / now.halfwidth_pct)^2. */
void sf_next_set_noise(sf_next *x, double noise_pct);

/* Rank x's candidates that are not skipped by the half-width they leave
 * (then the cost, then the order given): SF_OK or SF_ENOMEM. */
int sf_next_rank(sf_next *x);

/* 1 when the target's interval is nearly all noise (x->noise_share at
 * least SF_DESIGN_NOISE_SHARE): no run will narrow it much. */
int sf_next_all_noise(const sf_next *x);

/* The JSON document of `scalefit next --json` (scalefit(1)), at most top
 * ranked candidates; NULL when out of memory. */
json_t *sf_next_json(const sf_fitfile *f, const sf_next *x, size_t top);

#endif /* SF_DESIGN_H */
