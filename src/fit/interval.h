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
 *               residual shows.  Per doubling beyond the range along input
 *               j it is a bias mu_j and a spread s_j: at a point d_j
 *               doublings beyond along each input (log2(x / hi) or log2(lo
 *               / x) when lo > 0, else in range widths; 0 inside) its
 *               centre is sum_j mu_j d_j and its variance sum_j (s_j
 *               d_j)^2; above the range, where the posterior below
 *               carries its line's slope gamma_j, the centre adds
 *               gamma_j d_j^2 / 2 and the variance its spread.  Each
 *               input has its own because a formula may follow one input
 *               well and another badly (a-GPUBench's formulas in the CPU
 *               threads, not in the GPUs); in the corpus the worker
 *               count's own cuts give its misses a far higher likelihood
 *               than every input's pooled, and a better interval score
 *               (1.46 against 1.54, bench/prior.py).  D, the Euclidean
 *               norm of the d_j, is the distance the reports show.
 *
 * mu_j and s_j are never taken from the data alone: a formula that predicted
 * its own larger levels well once may still miss the next doubling (a
 * lucky chain, or the formula chosen because its chain looked best).
 * They are the posterior of a normal-inverse-chi^2 model whose prior
 * comes from a reference corpus of real scaling campaigns (bench/prior.py
 * fits it: how far fitted formulas missed per doubling beyond their
 * range), updated by the data's own forward chain:
 *
 *   prior       s^2 ~ scaled-Inv-chi^2(nu0, s0^2), mu | s ~ N(0, s^2 /
 *               kappa0), s0 = sqrt(a^2 + (r sigma)^2): the scale grows
 *               with the noise sigma the formula leaves inside the range
 *               (as a share of the time), because in the corpus a formula
 *               that fits its range loosely misses beyond it by more.
 *               bench/prior.py fits a, r, nu0 and kappa0 as the prior
 *               whose 95% intervals for the corpus's misses have the
 *               least interval score (leave-one-dataset-out, 1.46 against
 *               2.20 for one scale for every noise).
 *               When two formulas that fit the rows equally well are known
 *               to part ways beyond them at G per doubling (`discover`
 *               writes G, the slope of the log of its winner's prediction
 *               over the model file's formula's, into fit.prior), G is
 *               evidence of this dataset's own model error: s0 =
 *               sqrt(a'^2 + (r sigma)^2 + (q G)^2), a' the scale the
 *               disagreement does not show (bench/prior.py fits a' and q
 *               on the corpus's discovered formulas, the rest held:
 *               leave-one-dataset-out their interval score falls from
 *               1.94 to 1.02).  discover writes G = 0 when the file's
 *               formula is a member of its ensemble, whose mixture shows
 *               the disagreement already.
 *               Along the input the model file calls a hardware speed
 *               (fit.prior.hardware: a GPU's TFLOPS), s0 = sqrt(h^2 + (r
 *               sigma)^2) instead, above the range and below it: a
 *               formula fitted on some GPU generations misses a faster
 *               one by a median 0.47 per doubling of its speed, against
 *               0.05 along the workers (bench/prior.py fits h on Gavel's
 *               and a-GPUBench's GPUs, the rest held).
 *   the chain   along each numeric input with at least 3 levels (values
 *               within 10% of each other are one level), the rows up to a
 *               level (at least two levels of it, and more rows than
 *               constants) are refitted and the rows beyond it predicted,
 *               as `validate --train` would, at up to SF_INTERVAL_CUTS
 *               levels per input.  A cut k gives m_k, its error per
 *               doubling: the least-squares slope through the origin of
 *               its predictions' errors e_i = ln(y_i / f_i) (additive
 *               errors: (y_i - f_i) / |f_i|) on their distances D_i from
 *               the cut's range, and v_k, the variance of m_k that the
 *               noise and the refit's own uncertainty explain.  A cut
 *               whose rows an earlier cut refitted on (two inputs that
 *               move together) is evidence along both inputs.
 *   posterior   per input j, from its cuts alone: their slopes m_k
 *               against how far below the input's top their levels end,
 *               b_k, as m = a - beta b by weighted least squares (weights
 *               1 / (v_k + v): v = (w s0)^2 on a chain of at least
 *               SF_INTERVAL_TREND_CUTS cuts, else s0^2; beta held near
 *               0 by a ridge of 1 / s0^2), a is the error per doubling
 *               the cuts point to at the top; mu_j = a shrunk towards 0
 *               by the prior N(0, s0^2 / kappa0); nu_j = nu0 + E (E
 *               cuts), and s_j^2 = (nu0 s0^2 + sum_k max(0, r_k^2 -
 *               v_k)) / nu_j + var(mu_j), r_k the cuts' residuals from
 *               the line.  On a chain of at least SF_INTERVAL_TREND_CUTS
 *               cuts (a line of its own) the line's slope carries on
 *               beyond the top: the error per doubling d doublings above
 *               it is mu_j + gamma_j d, gamma_j = beta (> 0: the cuts miss
 *               more the nearer the top they end, as when contention
 *               sets in; < 0: less), so the error there is mu_j d +
 *               gamma_j d^2 / 2 at the centre and its variance (s_j d)^2
 *               + var(gamma_j) d^4 / 4 + cov(mu_j, gamma_j) d^3.  mu_j
 *               and gamma_j are one posterior, a and beta's under both
 *               priors: beta moves with a as the bias's prior pulls a
 *               toward 0 (they are correlated), so the slope carried is
 *               of the line whose level the interval uses (but on a
 *               regime's input, below, whose level is the regime's
 *               mixture).  Either way, as the data say: carried only
 *               when it climbed, a right formula's intervals leaned up
 *               (test_interval).  An
 *               input with no cut (fewer than 3 levels) has the prior
 *               alone: mu 0, s0 and nu0.
 *
 * so the spread is never zero, and the data's evidence outweighs the
 * prior as it holds more levels.  The model part is a t with, per input,
 * nu_j degrees of freedom; with the noise and parameters (a t with dof
 * degrees of freedom) the interval's quantile is taken at
 * Welch-Satterthwaite's degrees of freedom.  A positive mu_j (the chain's
 * runs came out slower than the formula) moves the interval up: the
 * interval is skewed, the point prediction stays the formula's.
 *
 * Regime change: when the top cut of the extrapolated input (the input
 * with the most levels) misses on the slow side by more than the spread
 * its other cuts and the prior allow, at a one-sided 95% (their t's
 * quantile at their degrees of freedom: only a slowdown counts), the
 * largest measured levels scale worse than the formula; `regime` is set,
 * the report says so and that input's error is widened (interval.c)
 * toward the top cut's error per doubling, from the posterior with its
 * cuts weighed as scattering s0 (they do not lie on one line); a slope its
 * line carried carries on (with the top cut: contention that has begun
 * steepens it; without it, bench/contention.py's k = 0.2 runs lost 4
 * points of coverage on init's path).  The check
 * weighs the other cuts so too: a line drawn tightly through them leans
 * toward a break that has begun, and the check would see none.  A model
 * file that `discover` wrote carries the check of the file's own formula
 * on the training rows (fit.prior.regime, its top cut's error per
 * doubling when it fired): a found formula that bends to fit the largest
 * levels hides the change from its own chain (its shape was chosen on
 * those rows), so every
 * formula fitted from the file widens toward the larger of the two
 * (`regime_carried` when it was the file's).
 *
 * Pace: along an input that speeds the run up (the formula's time falls
 * beyond the range), data-parallel training has diminishing returns: a
 * doubling beyond the range gains at most what the last measured one did
 * (with non-negative terms, a / p + b + c p^k and the like, ln t is convex
 * in ln p).  When the formula's time falls faster over the doubling
 * beyond the top than the measurements did over the one below it (its
 * factor per doubling lower by more than SF_INTERVAL_PACE_SLACK, at the
 * top level's median-time row against the row of its configuration at
 * the level below, whose time may even be lower: contention) and its own
 * factor between those two rows is lower too, by more than the two rows'
 * noise allows at a one-sided 95% (their repeats' scatter, else the
 * fit's: levels a fifth of a doubling apart make it five times a row's;
 * and one that gives the measured pace and falls faster beyond is not
 * smooth there: whole steps that drop from 2 to 1), the measured
 * pace carrying on is an answer the interval must hold: that input's
 * error is widened as for a regime change, to an equal mixture of the
 * posterior as it stands (the chain's line: the cuts do not break from
 * it) and an error of ln(measured / formula factor) per doubling,
 * and the report says so (`pace_*`).
 *
 * Scales: with the relative, log and Huber losses errors are relative
 * (multiplicative): s_j and mu_j are fractions of the time, and the interval
 * is f exp(M +- q sqrt(sigma^2 + g^T C g / f^2 + V)), never below zero, M
 * and V the model part's centre and variance above.  With the sse and
 * absolute losses errors are additive: sigma is in the output's unit and
 * the interval is f (1 + M) +- q sqrt(sigma^2 + g^T C g + V f^2).  Inside the
 * range q = t(0.975, dof), as before.
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

/* How much lower than the measured time factor per doubling the
 * formula's beyond the range may be before the pace check widens. */
#define SF_INTERVAL_PACE_SLACK 0.05

/* The 95% level. */
#define SF_INTERVAL_LEVEL 0.95

/* A model error's centre worth a word in the reports: half a percent per
 * doubling (its slope beyond the top: half a point per doubling, per
 * doubling). */
#define SF_INTERVAL_SHOWN 0.005

/* The prior of the model error per doubling beyond the fitted range:
 * its scale a at no noise and noise_weight r, how much of the noise
 * sigma it adds (s0 = sqrt(a^2 + (r sigma)^2)); its degrees of freedom
 * nu0 (how many cuts' worth of evidence it holds); and kappa0, how
 * strongly the bias mu is held at 0.  The defaults were fitted by
 * bench/prior.py on the bundled corpus; a model file's fit.prior replaces
 * any of them. */
typedef struct sf_interval_prior {
	double scale, dof, bias_weight, noise_weight;
	/* with the formulas' disagreement G known: a' in place of scale, and
	 * q, how much of G it adds (above) */
	double agreed_scale, disagreement_weight;
	/* along an input that is a hardware speed (fit.prior.hardware): h
	 * in place of a (or a'), s0 = sqrt(h^2 + (r sigma)^2) */
	double hardware_scale;
} sf_interval_prior;

#define SF_INTERVAL_PRIOR_SCALE 0.123
#define SF_INTERVAL_PRIOR_DOF 49.938
#define SF_INTERVAL_PRIOR_BIAS_WEIGHT 7.000
#define SF_INTERVAL_PRIOR_NOISE_WEIGHT 0.861
#define SF_INTERVAL_PRIOR_AGREED_SCALE 0.074
#define SF_INTERVAL_PRIOR_DISAGREEMENT_WEIGHT 0.974
#define SF_INTERVAL_PRIOR_HARDWARE_SCALE 0.753

/* w: how far the cuts of a chain of at least SF_INTERVAL_TREND_CUTS cuts
 * (a line's two constants and a cut to check it) scatter about their
 * line, as a share of the prior's scale s0 (the posterior's weights:
 * interval.c's chain_line).  Weighed as scattering s0, a chain whose
 * cuts miss more the nearer the top they end (contention setting in) had
 * its trend shrunk away; a shorter chain's line is its cuts' noise as
 * much as their trend, and keeps s0.  bench/prior.py's corpus cannot
 * tell w = 0.05 from 1 (few of its chains are that long); 0.3, and 3
 * cuts rather than 4, were chosen on bench/contention.py's simulated
 * runs. */
#define SF_INTERVAL_CUT_SCATTER 0.3
#define SF_INTERVAL_TREND_CUTS 3

/* The defaults above. */
sf_interval_prior sf_interval_prior_default(void);

/* A cut of the forward chain (interval.c): what the report shows and what
 * bench/prior.py fits the prior from. */
typedef struct sf_interval_cut {
	size_t input; /* the input chained along */
	double upto;  /* the refit's rows: that input at most this */
	double below; /* doublings from upto to the input's top level */
	double slope; /* m: its error per doubling */
	double reach; /* S: the sum of its predictions' squared distances */
	double noise; /* the variance of m that noise and the refit's own
	                 uncertainty explain */
} sf_interval_cut;

/* Cuts kept for the report, at most (the posterior uses every one). */
enum { SF_INTERVAL_CUTS_KEPT = 32 };

/* Inputs whose model error has an entry of its own: the error along any
 * further input is the prior's alone (the entry after them). */
enum { SF_INTERVAL_INPUTS = 16 };

/* The model error per doubling beyond the range along one input. */
typedef struct sf_interval_along {
	double bias;       /* mu_j: its centre */
	double growth;     /* s_j: its scale (NaN: unknown, an older file) */
	double growth_dof; /* nu_j: its degrees of freedom (0: normal) */
	double evidence;   /* E: the cuts along the input (0: the prior
	                      alone) */
	double noise;      /* the noise of a new run above the range along
	                      it (sigma's scale): the runs' at its top level
	                      (their repeats' scatter, or the fit's residuals
	                      there if larger), shrunk toward sigma; 0
	                      unknown (sigma serves) */
	double noise_dof;  /* its degrees of freedom: the top level's and
	                      the prior's */
	double trend;      /* gamma_j: how much the error per doubling
	                      moves per doubling beyond the top (see the
	                      posterior above) */
	double trend_var;  /* its variance; 0: no line, nothing carried */
	double trend_cov;  /* cov(mu_j, gamma_j) */
} sf_interval_along;

/* How many runs' worth the pooled scatter sigma counts as, as the prior of
 * a top level's noise: a level with as many repeats moves it half way
 * (chosen at 10 between 10 and 30 on Pollux <= 8 -> 12-16, <= 16 ->
 * 20-64 and a-GPUBench 1-4 -> 8: README). */
#define SF_INTERVAL_TOP_NOISE_PRIOR_DOF 10

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
	sf_interval_prior prior; /* the prior the posterior started from */
	double disagreement;     /* G, the formulas' disagreement per
	                            doubling (fit.prior); NaN unknown */
	double regime_prior;     /* R, the model file's formula's regime
	                            (fit.prior.regime); NaN none */
	double prior_scale;      /* s0 at this fit's noise (above) */
	size_t hardware;         /* the input that is a hardware speed, or
	                            SIZE_MAX none */
	double hardware_prior_scale; /* s0 along it at this fit's noise */
	size_t ninputs;              /* the data's inputs */
	sf_interval_along along[SF_INTERVAL_INPUTS + 1]; /* per input (see
	                            sf_interval_along_of); non-numeric inputs'
	                            are never used */
	size_t chain_fits;    /* refits made by the forward chain */
	size_t chain_points;  /* their predictions beyond the range */
	size_t chain_cuts;    /* cuts whose predictions gave evidence */
	int regime;           /* the largest levels scale worse than
	                         the formula (see above) */
	double weight;        /* 1 / (sigma^2 + the mean square of the
	                         chain's errors per doubling along the input
	                         with the most levels), sigma as a share of
	                         the time: a new run's expected squared error
	                         a doubling beyond as the forward chain
	                         measured it, what averaged fit files weigh
	                         it by (interval.c: averaging_weight); 0
	                         unknown */
	int weight_chain;     /* 1: weight is the chain's evidence, 0: its
	                         posterior's (no cut along the inputs with
	                         the most levels), -1: unknown (a fit file
	                         that does not say) */
	size_t regime_input;  /* which input, when regime is set */
	double regime_slope;  /* the error per doubling it widened toward */
	int regime_carried;   /* that was R, not the formula's own top cut */
	int pace_checked;     /* an input's pace could be checked: */
	size_t pace_input;    /* the one with the largest gap */
	double pace_measured; /* its top levels' time factor per doubling */
	double pace_beyond;   /* the formula's over the doubling beyond */
	int pace_widened;     /* beyond is faster than measured: widened */
	sf_interval_cut cuts[SF_INTERVAL_CUTS_KEPT]; /* the first chain_cuts
	                            of them (at most the array) */
} sf_interval_model;

/* The model error along input j of im: its own entry, or past
 * SF_INTERVAL_INPUTS the prior's. */
const sf_interval_along *sf_interval_along_of(const sf_interval_model *im,
                                              size_t j);

/* 1 when input j of im is its hardware speed (fit.prior.hardware) with
 * the prior's scale of one (0 on a model read without it, whose hardware
 * a zeroed model leaves at input 0). */
int sf_interval_is_hardware(const sf_interval_model *im, size_t j);

/* Whether a's line carries a slope beyond the top (trend_var > 0: the
 * posterior found a line, or a fit file gave one); the slope's terms
 * count nowhere else. */
int sf_interval_slope_carried(const sf_interval_along *a);

/* Whether the slope a carries is worth a word in the reports
 * (SF_INTERVAL_SHOWN). */
int sf_interval_slope_shown(const sf_interval_along *a);

/* *a as seen from e doublings above its top, where a line's slope has
 * moved the error per doubling to mu + gamma e: its bias that, its
 * growth^2 plus e^2 var(gamma) + 2 e cov(mu, gamma), its covariance plus
 * e var(gamma).  Nothing moves without a slope carried. */
void sf_interval_along_moved(sf_interval_along *a, double e);

/* How far a point lies beyond the fitted range, as the model error sees
 * it: the sums over inputs of mu_j d_j + gamma_j d_j^2 / 2 (shift), v_j =
 * (s_j d_j)^2 + var(gamma_j) d_j^4 / 4 + cov(mu_j, gamma_j) d_j^3 (var)
 * and v_j^2 / nu_j
 * (var_over_dof, for Welch-Satterthwaite), on the relative scale, above
 * the range (below it the prior alone: s_j the prior's scale s0, mu_j and
 * gamma_j 0, nu_j its dof; without the prior's scale, an older fit file,
 * mu_j and s_j without gamma_j); and D^2 = sum d_j^2.  All 0
 * inside the range.  noise:
 * the largest of the top levels' noises (sf_interval_along.noise) of the
 * inputs the point lies above, or the pooled sigma for one whose is
 * unknown; 0 when it lies above none (the pooled sigma serves), with its
 * degrees of freedom noise_dof (0: the fit's). */
typedef struct sf_interval_beyond {
	double shift, var, var_over_dof, distance2;
	double noise, noise_dof;
	double hardware; /* of var + shift^2, the hardware speed's own
	                    (fit.prior.hardware): no formulas' disagreement
	                    is in it */
} sf_interval_beyond;

/* Input j's doublings beyond [lo, hi] at x (sf_interval_doublings),
 * negative below the range. */
double sf_interval_signed_doublings(double lo, double hi, double x);

/* Add d doublings beyond the range along input j to *b: above it when
 * d > 0, below when d < 0 (sf_interval_signed_doublings). */
void sf_interval_beyond_add(const sf_interval_model *im, size_t j, double d,
                            sf_interval_beyond *b);

/* The noise sd of a new run at a point b beyond the range: its top
 * level's (b->noise), else the fit's sigma. */
double sf_interval_noise(const sf_interval_model *im,
                         const sf_interval_beyond *b);

/*
 * How far point x lies beyond the box [lo_i, hi_i] over n inputs (entries
 * with numeric[i] == 0, or a non-finite range, are skipped; numeric may be
 * NULL for all), with im's model error along each (im may be NULL: the
 * distance alone).
 */
sf_interval_beyond sf_interval_beyond_at(const sf_interval_model *im, size_t n,
                                         const double *lo, const double *hi,
                                         const unsigned char *numeric,
                                         const double *x);

/* Doublings of x beyond [lo, hi] (in range widths when lo <= 0); 0
 * inside, or when the range is not finite. */
double sf_interval_doublings(double lo, double hi, double x);

/*
 * The error model of fit r (with statistics s) of formula f of model m to
 * d, the forward chain run with options o (at r's lambda and seed), from
 * prior (NULL: m's fit.prior, each value it leaves 0 from
 * sf_interval_prior_default()).  Returns SF_OK and fills
 * *out; SF_ENOMEM; SF_EVALUE when s has no residual degrees of freedom
 * (s->dof < 1).  A chained refit that fails is skipped, not an error.
 */
int sf_interval_calibrate(const sf_model *m, const sf_dataset *d,
                          const sf_formula *f, const sf_fit_options *o,
                          const sf_fit_result *r, const sf_stats *s,
                          const sf_interval_prior *prior,
                          sf_interval_model *out, sf_error *err);

/* A new measurement's distribution at a point: a t with dof degrees of
 * freedom, centre and scale, on the log of the time (multiplicative
 * errors) or on the time.  shift is the part of centre that is the model
 * error's bias beyond the range (sum mu_j d_j, on the same scale; 0
 * inside): the interval leans by it, the prediction does not. */
typedef struct sf_interval_t {
	double centre, scale, dof, shift;
} sf_interval_t;

/*
 * The distribution of a new measurement at a point whose prediction is
 * time, whose fitted mean has variance mean_var and which lies *beyond
 * the fitted range (see sf_interval_at).  Returns 1 and fills *out, or 0
 * with every number of *out NaN when time is not finite (or not positive
 * with multiplicative errors).
 */
int sf_interval_shape(const sf_interval_model *im, double time, double mean_var,
                      const sf_interval_beyond *beyond, sf_interval_t *out);

/*
 * The 95% prediction interval [*lo, *hi] of a new measurement at a point
 * whose prediction is time, whose fitted mean has variance mean_var (g^T
 * C g; NaN or negative counts as 0) and which lies *beyond the fitted
 * range.  A NaN growth counts as 0 (a FIT.json of an older version may
 * lack it).  NaN bounds when time is not finite.
 */
void sf_interval_at(const sf_interval_model *im, double time, double mean_var,
                    const sf_interval_beyond *beyond, double *lo, double *hi);

/*
 * The 95% prediction intervals [lo_i, hi_i] of every row of d from the fit
 * theta (covariance cov, P x P, NULL for none) of formula f to the rows of
 * fitted, whose input ranges define the distances (into distance[i]
 * when distance is not NULL; each row's distribution, sf_interval_shape,
 * into shape[i] when shape is not NULL, NaN where there is none).  d and
 * fitted have the same inputs (one may be a selection of the other).
 * Returns SF_OK, SF_ENOMEM.
 */
int sf_interval_rows(const sf_interval_model *im, const sf_formula *f,
                     const sf_dataset *fitted, const sf_dataset *d,
                     const double *theta, const double *cov, double *lo,
                     double *hi, double *distance, sf_interval_t *shape,
                     sf_error *err);

/*
 * A fit's weight by its extrapolation evidence, when several fit files are
 * averaged (use/average.h; an ensemble's members weigh the same: ensemble.h):
 * im's weight, else (a FIT.json before it had one) 1 / the mean over
 * inputs of the expected squared error a doubling beyond the range
 * (mean_square_error in interval.c: bias^2 + growth^2 and the line's
 * slope's part); 0 when the growth is unknown.
 */
double sf_interval_weight(const sf_interval_model *im);

#endif /* SF_INTERVAL_H */
