/*
 * average.h - one prediction from several candidate formulas fitted to the
 * same rows: their weighted mean, and a 95% interval of a new run that
 * holds the spread between the formulas as well as each one's own.
 *
 * Weights are by extrapolation evidence (the default: each fit's inverse
 * expected squared error a doubling beyond its range, as its forward
 * chain measured it: fit/interval.h, sf_interval_weight),
 * Akaike weights w_i = exp(-D_i / 2) / sum_j exp(-D_j / 2), D_i the AICc
 * of fit i above the lowest (Burnham and Anderson), or equal.  Each fit's
 * prediction interval
 * (predict.h, interval.h) is read as its predictive distribution - a
 * Student t with the fit's degrees of freedom, on the log of the time when
 * errors are multiplicative, centred on f_i with the scale that gives its
 * own 95% interval - and the averaged time is their weighted mean (of
 * the logs: a geometric mean, when errors are multiplicative; each fit's
 * own prediction, without its bias beyond the range) and the interval the
 * 2.5% and 97.5% quantiles of their mixture with the weights: one fit's
 * interval when it has all the weight, wider than every one of them when the
 * formulas disagree (the weighted mean of the times where a weighted fit has no
 * interval).
 *
 * Fits can be averaged when they are not ensembles (an ensemble's fit is
 * already a mixture), were fitted to the same rows with the same loss
 * (data.sha256, data.rows, data.where and model.fit.loss agree), have the same
 * inputs (by name, in any order) and each carries its error model (FIT.json's
 * prediction_interval).
 *
 * scale and next take the fits as one ensemble's fit instead
 * (sf_average_ensemble: the same checks, weights and mixture), which they
 * sweep and rank runs for as they do an ensemble's fit file.
 *
 * Ownership: an sf_average owns its arrays and the fits' predictions.
 */
#ifndef SF_AVERAGE_H
#define SF_AVERAGE_H

#include "base/error.h"
#include "use/fitfile.h"
#include "use/predict.h"

#include <jansson.h>
#include <stddef.h>

typedef enum sf_average_weights {
	SF_AVERAGE_EXTRAPOLATION = 0, /* by extrapolation evidence: each fit's
	                                 sf_interval_weight (fit/interval.h) */
	SF_AVERAGE_AICC,              /* Akaike weights */
	SF_AVERAGE_EQUAL,             /* 1 / k each */
	SF_AVERAGE_GIVEN              /* as given, one a fit, normalised */
} sf_average_weights;

/* The most weights --weights W1,W2,... gives. */
enum { SF_AVERAGE_MAX_GIVEN = 64 };

/* How a command is asked to average several fit files (--weights). */
typedef struct sf_average_asked {
	sf_average_weights how; /* the weights */
	int given;              /* 1: asked for (it needs two or more fits) */
	size_t ngiven;          /* SF_AVERAGE_GIVEN: the weights, in the */
	double weights[SF_AVERAGE_MAX_GIVEN]; /* order of the fit files */
} sf_average_asked;

/* --weights text into *w (given set): a name ("extrapolation", "aicc",
 * "equal") or a weight per fit file, "W1,W2,..." (at most
 * SF_AVERAGE_MAX_GIVEN numbers >= 0, not all 0).  0, or -1 when text is
 * neither (*w unchanged). */
int sf_average_asked_parse(const char *text, sf_average_asked *w);

/* What the weights how are called in a text ("Akaike weights"). */
const char *sf_average_weights_said(sf_average_weights how);

/* The averaged predictions at n points. */
typedef struct sf_average {
	size_t nfits, n;
	double *weight;       /* nfits */
	double *time;         /* n: the weighted mean time */
	sf_band *interval;    /* n: the mixture's 95% interval */
	sf_prediction **each; /* nfits: each fit's own predictions */
} sf_average;

/*
 * Check that the k >= 2 fits can be averaged (see above); SF_OK, or
 * SF_EVALUE with err naming the first fit that differs from the first and
 * how.
 */
int sf_average_check(const sf_fitfile *const *fits, size_t k, sf_error *err);

/*
 * Average the k fits at n points, columns[i] holding input i's values in
 * the order of fits[0]'s inputs, weighted as how says.  Returns SF_OK and
 * a new average in *out,
 * or an error of sf_average_check() or sf_predict(), SF_EVALUE (AICc
 * weights asked where a fit has no AICc), SF_ENOMEM.
 */
int sf_average_run(const sf_fitfile *const *fits, size_t k,
                   const sf_average_asked *how, const double *const *columns,
                   size_t n, sf_average **out, sf_error *err);

/*
 * The k fits (sf_average_check) as one ensemble's fit (fitfile.h) at path,
 * called "average", its members the fits weighted as how says: what scale
 * and next take several fit files as, so that the sweep and the ranking
 * are their mixture's, as of an ensemble's fit file.  Once they pass the
 * check the fits are moved into it (fits[i] NULL; freed if it then runs
 * out of memory); before, they stay the caller's.  Returns SF_OK, the
 * errors of sf_average_check(), SF_EVALUE (AICc weights asked where a fit
 * has no AICc), SF_ENOMEM.
 */
int sf_average_ensemble(const char *path, sf_fitfile **fits, size_t k,
                        const sf_average_asked *how, sf_fitfile **out,
                        sf_error *err);

/* Release a.  Accepts NULL. */
void sf_average_free(sf_average *a);

/* The k fits and their weights as the JSON documents of an average list
 * them: [{"fit", "model", "aicc", "weight"}]; NULL when out of memory. */
json_t *sf_average_models_json(const sf_fitfile *const *fits,
                               const double *weights, size_t k);

/* The JSON document of `predict` over several fits (scalefit(1)); NULL when
 * out of memory.  One tree: for many points write it with
 * sf_average_write_json(). */
json_t *sf_average_json(const sf_fitfile *const *fits, const sf_average *a);

/* The text of sf_average_json() written to out (without a final newline),
 * one point in memory at a time (json.h).  Returns SF_OK, SF_ENOMEM or
 * SF_EIO. */
int sf_average_write_json(FILE *out, const sf_fitfile *const *fits,
                          const sf_average *a);

#endif /* SF_AVERAGE_H */
