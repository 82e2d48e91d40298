/*
 * interval.h - how far a new measurement may lie from the fitted formula:
 * 95% prediction intervals, with the formula's own error when it
 * extrapolates estimated from the training rows.
 *
 * A new run's time y at a point x differs from the prediction f(x) for
 * three reasons, each with its variance on the loss's scale:
 *
 *   noise       the scatter of runs around the formula: s^2, the larger of
 *               the residual mean square chisqr / dof and the pooled
 *               variance of repeated configurations (the runs' own
 *               scatter, which the residuals can understate when the
 *               formula has room to follow it).
 *   parameters  the fitted constants' uncertainty: the delta method's
 *               g^T C g (stats.h), the variance of the fitted mean.
 *   model       the formula's error beyond the fitted range, which no
 *               residual shows.  It is taken to grow linearly with the
 *               distance D of x beyond the range: sd = c D.  D is the
 *               Euclidean norm over the numeric inputs of how far each
 *               lies outside its fitted [lo, hi] - in doublings,
 *               log2(x / hi) or log2(lo / x), when lo > 0, else in range
 *               widths - and is 0 inside the range.
 *
 * The growth c is calibrated by forward chaining on the fitted rows
 * themselves: along each numeric input with at least 3 levels (values
 * within 10% of each other are one level), the rows up to a level (at
 * least two levels of it, and more rows than constants) are refitted and
 * the rows beyond it predicted, as `validate --train` would, at up to
 * SF_INTERVAL_CUTS levels per input.  Each such prediction i at distance
 * D_i > 0 from its refit's range needs
 *   c_i = sqrt(max(0, (r_i / t)^2 - s^2 - v_i)) / D_i
 * to be covered, with r_i its error and v_i the refit's own variance of
 * its mean there, on the loss's scale; c is the ceil((N + 1) 0.95)-th
 * smallest of the N values c_i, split conformal prediction's quantile, or
 * their largest when N < 19 (then `conservative` is set).  The refits start
 * from the full fit's constants and only polish (as bootstrap replicates
 * do), at the fit's lambda.  See scalefit(1), PREDICTION INTERVALS, for
 * what this catches and misses.
 *
 * Scales: with the relative, log and Huber losses errors are relative
 * (multiplicative): s and c D are fractions of the time, r_i =
 * ln(f_i / y_i), and the interval is f exp(+-t sqrt(s^2 + g^T C g / f^2 +
 * (c D)^2)), never below zero.  With the sse and absolute losses errors are
 * additive: s is in the output's unit, r_i = f_i - y_i, the model part is
 * c D |f| and the interval f +- t sqrt(s^2 + g^T C g + (c D f)^2).
 * t = t(0.975, dof).
 *
 * Ownership: an sf_interval_model is a plain value (no pointers).
 * Thread safety: sf_interval_calibrate runs fits one after another (each
 * with the threads its options ask for); the rest is pure.
 */
#ifndef SF_INTERVAL_H
#define SF_INTERVAL_H

#include "base/error.h"
#include "fit/fit.h"
#include "fit/stats.h"
#include "input/dataset.h"
#include "input/formula.h"
#include "input/model.h"

#include <stddef.h>

/* Levels per input at which the forward chain refits, at most. */
enum { SF_INTERVAL_CUTS = 8 };

/* Values of an input closer than this (a ratio above 1, or a share of its
 * range) are one level of it for the forward chain. */
#define SF_INTERVAL_LEVEL_GAP 0.1

/* The 95% level, and the fewest chained points for a conformal quantile. */
#define SF_INTERVAL_LEVEL 0.95
enum { SF_INTERVAL_MIN_POINTS = 19 };

/* What a fit says about the error of a new measurement. */
typedef struct sf_interval_model {
	int multiplicative;      /* 1: errors relative to the time */
	double sigma;            /* noise sd used: max of the two below */
	double sigma_residual;   /* sqrt(chisqr / dof) on the loss's scale */
	double sigma_replicates; /* pooled sd of repeated configurations;
	                            NaN without repeats */
	size_t replicate_dof;    /* sum over configurations of count - 1 */
	double dof;              /* of the residual variance */
	double t;                /* t(0.975, dof) */
	double growth;           /* c: model-error sd per unit of distance;
	                            NaN when nothing could be chained */
	size_t chain_fits;       /* refits made by the forward chain */
	size_t chain_points;     /* their predictions beyond the range */
	int conservative;        /* fewer than SF_INTERVAL_MIN_POINTS */
} sf_interval_model;

/*
 * The error model of fit r (with statistics s) of formula f of model m to
 * d, the forward chain run with options o (at r's lambda and seed).
 * Returns SF_OK and fills *out; SF_ENOMEM; SF_EVALUE when s has no
 * residual degrees of freedom (s->dof < 1).  A chained refit that fails is
 * skipped, not an error.
 */
int sf_interval_calibrate(const sf_model *m, const sf_dataset *d,
                          const sf_formula *f, const sf_fit_options *o,
                          const sf_fit_result *r, const sf_stats *s,
                          sf_interval_model *out, sf_error *err);

/*
 * The distance D of point x beyond the box [lo_i, hi_i] over n inputs
 * (entries with numeric[i] == 0, or a non-finite range, are skipped;
 * numeric may be NULL for all).  0 inside.
 */
double sf_interval_distance(size_t n, const double *lo, const double *hi,
                            const unsigned char *numeric, const double *x);

/*
 * The 95% prediction interval [*lo, *hi] of a new measurement at a point
 * whose prediction is time, whose fitted mean has variance mean_var (g^T
 * C g; NaN or negative counts as 0) and which lies at distance D beyond
 * the fitted range.  A NaN growth counts as 0 (the caller says that the
 * model error is unknown).  NaN bounds when time is not finite.
 */
void sf_interval_at(const sf_interval_model *im, double time, double mean_var,
                    double distance, double *lo, double *hi);

/*
 * The 95% prediction intervals [lo_i, hi_i] of every row of d from the fit
 * theta (covariance cov, P x P, NULL for none) of formula f to the rows of
 * fitted, whose input ranges define the distances.  d and fitted have the
 * same inputs (one may be a selection of the other).  Returns SF_OK,
 * SF_ENOMEM.
 */
int sf_interval_rows(const sf_interval_model *im, const sf_formula *f,
                     const sf_dataset *fitted, const sf_dataset *d,
                     const double *theta, const double *cov, double *lo,
                     double *hi, sf_error *err);

#endif /* SF_INTERVAL_H */
