/*
 * predict.h - the fitted formula's predictions at new points, with their
 * uncertainty and each term's part.
 *
 * At each point x (one value per input) the prediction is the time
 * f(x, theta) at the fitted theta, and its 95% confidence band - the
 * uncertainty of the fitted mean time, not of a single new measurement -
 * is computed two ways:
 *
 *   delta method   f +- t(0.975, dof) sqrt(g^T C g), g = d f / d theta at
 *                  x (from the compiled derivatives) and C the fit's
 *                  covariance.  A parameter the fit held at a bound has no
 *                  covariance (NaN row and column): the constraint, not
 *                  the data, fixes it, so it contributes no variance.
 *                  NaN when the fit has no covariance or dof < 1.
 *   bootstrap      when the fit carries bootstrap replicates of theta: the
 *                  2.5% and 97.5% percentiles (linear interpolation
 *                  between order statistics, Hyndman and Fan's type 7) of
 *                  f(x, theta_b) over the replicates whose time is finite.
 *
 * A point is "outside" when an input lies outside the range it had in the
 * fitted rows: the prediction is then an extrapolation.
 *
 * The JSON document of `scalefit predict --json` is built here too, and
 * the warnings about extrapolated points, so the command only prints.
 *
 * Ownership: sf_predict() returns a new sf_prediction the caller frees with
 * sf_prediction_free(); it copies the points and keeps no pointer to the
 * fit.  sf_prediction_json() returns a new jansson value the caller
 * releases with json_decref().  Thread safety: sf_predict() only reads the
 * fit, so several threads may predict from one fit at once.
 */
#ifndef SF_PREDICT_H
#define SF_PREDICT_H

#include "base/error.h"
#include "fit/validate.h"
#include "use/fitfile.h"

#include <jansson.h>
#include <stddef.h>
#include <stdio.h>

/* The confidence level of every band. */
#define SF_PREDICT_LEVEL 0.95

/* Where an input lies relative to its fitted range. */
enum sf_predict_range {
	SF_PREDICT_INSIDE = 0,
	SF_PREDICT_BELOW = 1,
	SF_PREDICT_ABOVE = 2
};

/* An interval around a predicted time; both ends NaN when unknown. */
typedef struct sf_band {
	double lo, hi;
} sf_band;

/* What makes a new run's interval wide at a point: each part's share of
 * its variance (sf_predict_point.parts). */
enum {
	SF_PART_NOISE = 0, /* the scatter of runs */
	SF_PART_CONSTANTS, /* the fitted constants' uncertainty */
	SF_PART_MODEL,     /* the formula's error beyond the range */
	SF_PART_FORMULAS,  /* an ensemble's formulas disagreeing */
	SF_PARTS
};

/* "noise", "constants", "model error", "formula disagreement". */
const char *sf_part_name(int part);

/*
 * The prediction at one point.  Every interval of a point lives here, so
 * a new kind of interval is one more member, not one more pair of arrays.
 */
typedef struct sf_predict_point {
	double time;               /* the predicted time f(x, theta) */
	double se;                 /* sqrt(g^T C g); NaN when unknown */
	sf_band ci;                /* the delta-method band */
	sf_band boot;              /* the bootstrap band; NaN unless the fit has
	                              replicates (sf_prediction.bootstrap) */
	sf_band pi;                /* the 95% prediction interval of a new run
	                              (interval.h); NaN unless the fit has its error
	                              model (sf_prediction.interval) */
	sf_interval_beyond beyond; /* how far beyond the fitted range, along
	                              each input (distance2: the squared
	                              distance, 0 inside), with the fit's
	                              model error there (interval.h) */
	double parts[SF_PARTS];    /* each part's share of the new run's
	                              variance there (summing to 1); NaN
	                              without an interval */
} sf_predict_point;

/* Predictions at n points. */
typedef struct sf_prediction {
	size_t n, ninputs, nterms;
	double *inputs;           /* ninputs x n, input-major (column i at
	                             i * n) */
	sf_predict_point *points; /* n */
	int bootstrap;            /* 1 when the fit has bootstrap replicates:
	                             points[k].boot is their band */
	size_t boot_used;     /* replicates with a finite time at every point */
	int interval;         /* 1 when the fit has the error model of a new
	                         run: points[k].pi is its interval */
	int growth_unknown;   /* 1 when that model has no model-error growth
	                         (nothing to chain along): pi beyond the
	                         range holds noise and parameters only */
	double *terms;        /* nterms x n, term-major (term k at k * n) */
	double *gradient;     /* nparams x n: d time / d theta_j of point k
	                         at j * n + k */
	unsigned char *range; /* ninputs x n: enum sf_predict_range */
	double t;             /* the t quantile of the delta-method band */
	double *observed;     /* n: the output measured at each point (a
	                         grid's output column; NaN where none), or
	                         NULL when there is none (set by the caller;
	                         sf_prediction_free() frees it) */
} sf_prediction;

/*
 * Predict at n >= 1 points: columns[i] holds the n values of input i (for
 * a text input, its level codes).  Returns SF_OK and a new prediction in
 * *out, or SF_ENOMEM / SF_EVALUE (n == 0) with err filled.
 */
int sf_predict(const sf_fitfile *f, const double *const *columns, size_t n,
               sf_prediction **out, sf_error *err);

/* Release p.  Accepts NULL. */
void sf_prediction_free(sf_prediction *p);

/*
 * The first point of p whose time, or a term of f, is not finite (a point
 * outside the formula's domain: p = 0 in 1 / p, a logarithm of a negative
 * number), or p->n when every one is finite; *what names that value
 * ("the time", or the term) and *value holds it.  Bands are not looked
 * at: one the fit cannot give is NaN, shown as "-" (null in JSON).
 */
size_t sf_prediction_nonfinite(const sf_fitfile *f, const sf_prediction *p,
                               const char **what, double *value);

/* 1 when any input of point k lies outside its fitted range. */
int sf_prediction_outside(const sf_prediction *p, size_t k);

/*
 * The band of point k shown where there is room for one (the scale table,
 * its chart and answers): the bootstrap band when the fit has replicates,
 * else the delta-method band.
 */
sf_band sf_prediction_band(const sf_prediction *p, size_t k);

/*
 * The error of point k against its observed value, 100 (time - y) / y, or
 * NaN when it has none (no observed values, an empty cell, y = 0).
 */
double sf_prediction_error(const sf_prediction *p, size_t k);

/*
 * The scores of p's points against their observed values, as a
 * validation's held-out rows are scored (fit/validate.h: MAPE, max error,
 * bias; coverage of the new-run interval, its mean half-width and the
 * interval score), over the points with an error (NaN where none).
 */
void sf_prediction_scores(const sf_prediction *p, sf_holdout_scores *out);

/*
 * Warn through warn (nothing when NULL) of every point of p that lies
 * outside the fitted ranges, one warning at f's path per point: "point 2
 * lies outside the fitted range (p = 32 > 16): the prediction is an
 * extrapolation".
 */
void sf_prediction_warn(const sf_fitfile *f, const sf_prediction *p,
                        sf_warn_fn warn, void *ctx);

/*
 * Put what p's bands rest on into the JSON object o: "level_percent",
 * "dof" (f's), "t" and "bootstrap_samples".  predict's and scale's
 * documents both carry them.  A failure clears *ok (json.h).
 */
void sf_prediction_level_json(json_t *o, const sf_fitfile *f,
                              const sf_prediction *p, int *ok);

/*
 * Put point k's bands into the JSON object o: "ci95" (the delta method's)
 * and, when the fit has replicates, "ci95_bootstrap".  predict's and
 * scale's points both carry them.  A failure clears *ok (json.h).
 */
void sf_prediction_bands_json(json_t *o, const sf_prediction *p, size_t k,
                              int *ok);

/*
 * The JSON document of `scalefit predict --json`: fit, model, output,
 * level_percent, dof, t, bootstrap_samples, with observed values the
 * scores against them ("observed_scores": sf_prediction_scores() with
 * use/validation.h's keys), and per point its inputs (a text input by
 * name), time, stderr, bands, terms, extrapolated, the inputs outside
 * their fitted range and, with observed values, "observed" and
 * "error_pct" (sf_prediction_error()).  NULL when out of memory.  One tree:
 * for many points write it with sf_prediction_write_json().
 */
json_t *sf_prediction_json(const sf_fitfile *f, const sf_prediction *p);

/* Put the document's members but its points into the JSON object o.
 * Returns SF_OK or SF_ENOMEM. */
int sf_prediction_head_json(json_t *o, const sf_fitfile *f,
                            const sf_prediction *p);

/*
 * Write the object head with the points of p at its end to out, nested
 * depth levels deep (json.h: sf_json_write_tail()): with the head of
 * sf_prediction_head_json(), the text of sf_prediction_json(), one point
 * in memory at a time.  Returns SF_OK, SF_ENOMEM or SF_EIO.
 */
int sf_prediction_write_json(FILE *out, const json_t *head, const sf_fitfile *f,
                             const sf_prediction *p, int depth);

#endif /* SF_PREDICT_H */
