/*
 * validate.h - how well a formula predicts rows it was not fitted on.
 *
 * Every row is given a fold: rows of fold k are predicted by a fit on the
 * rows of every other fold (and on the rows that are always trained on,
 * fold SF_FOLD_TRAIN).  Three ways to make the folds:
 *   - a split: `--train EXPR` trains on the rows where EXPR (over the
 *     formula's inputs) holds and predicts the others, one fold - the
 *     extrapolation test (fit on 1-8 workers, predict 64);
 *   - K-fold cross-validation over configurations: repetitions of one
 *     configuration stay in one fold (else a fold would be "predicted" from
 *     its own repeats), configurations dealt to folds by a seeded shuffle;
 *   - leave-one-configuration-out (K = the number of configurations).
 * Each fold is fitted with the same model settings and options, so the
 * scores describe the whole procedure, search included.
 *
 * Scores over the predicted rows, with e_i = (f_i - y_i) / y_i:
 *   mape = 100 mean |e_i|, max_ape = 100 max |e_i|, bias = 100 mean e_i
 * (positive: the formula over-predicts the time).
 *
 * With intervals, each fold's fit also gives every predicted row its 95%
 * prediction interval [l_i, u_i] (interval.h: noise, parameters and the
 * model error calibrated by forward chaining on the fold's own training
 * rows), scored by
 *   coverage95          100 mean [l_i <= y_i <= u_i]
 *   mean_halfwidth_pct  100 mean (u_i - l_i) / (2 f_i)
 *   interval_score      100 mean W_i / y_i, W_i = (u_i - l_i)
 *                       + (2 / 0.05) (l_i - y_i) [y_i < l_i]
 *                       + (2 / 0.05) (y_i - u_i) [y_i > u_i]
 * the Winkler (interval) score relative to the measured time: the width,
 * plus a penalty for a miss; lower is better.
 *
 * Ownership: sf_holdout owns its arrays (sf_holdout_free).
 */
#ifndef SF_VALIDATE_H
#define SF_VALIDATE_H

#include "input/dataset.h"
#include "base/error.h"
#include "fit/fit.h"
#include "fit/interval.h"
#include "input/formula.h"
#include "input/model.h"

#include <stdint.h>

enum { SF_FOLD_TRAIN = -1 };

/* The predictions of held-out rows. */
typedef struct sf_holdout {
	size_t rows; /* of the dataset */
	int *fold;   /* per row: its fold, or SF_FOLD_TRAIN */
	size_t nfolds;
	double *predicted; /* per row: by the fit without its fold; NaN
	                    * for training rows */
	size_t predicted_rows;
	double mape, max_ape, bias;
	double *lo95, *hi95;  /* per row: its prediction interval (NaN where
	                       * none); NULL without intervals */
	double *distance;     /* per row: how far beyond its fold's training
	                       * range (interval.h), NaN for training rows;
	                       * NULL without intervals */
	sf_interval_t *shape; /* per row: a new run's distribution there
	                       * (interval.h); NULL unless asked for
	                       * (SF_HOLDOUT_SHAPES) */
	size_t interval_rows; /* predicted rows with an interval */
	double coverage95, mean_halfwidth_pct, interval_score;
	size_t failed_folds; /* folds whose fit failed (rows left NaN) */
	size_t evaluations;  /* cost evaluations over every fold's fit */
} sf_holdout;

/*
 * Folds from a condition: fold 0 where EXPR is false (predicted), training
 * where it holds.  EXPR is over the formula's inputs and, when it names
 * something else, the data file's columns too (sf_dataset_eval).  Errors: a bad
 * expression (SF_ESYNTAX, SF_ENAME with the column in EXPR), SF_EVALUE when
 * either side is empty.
 */
int sf_folds_split(const sf_formula *f, const sf_dataset *d, const char *expr,
                   int *fold, sf_error *err);

/*
 * K folds over d's configurations, dealt by a shuffle seeded with seed;
 * k = 0 means one fold per configuration (leave one out).  Returns the
 * number of folds made (min(k, configurations)), or 0 when there are
 * fewer than 2 configurations.
 */
size_t sf_folds_kfold(const sf_dataset *d, size_t k, uint64_t seed, int *fold);

/*
 * The folds of a validation as its options ask: with train (not NULL), a
 * split (sf_folds_split; an error's column within train is given the file
 * name "--train"); else k folds (k = 0: leave one configuration out)
 * dealt with the effective seed of m and o (sf_fit_settings_effective).
 * Sets *nfolds.  Errors: those of the split, SF_EUSAGE when there are
 * fewer than 2 configurations to cross-validate, SF_ENOMEM.
 */
int sf_folds_make(const sf_model *m, const sf_formula *f, const sf_dataset *d,
                  const sf_fit_options *o, const char *train, size_t k,
                  int *fold, size_t *nfolds, sf_error *err);

/* What a holdout holds besides the predictions (flags of sf_holdout_run). */
enum {
	SF_HOLDOUT_INTERVALS = 1, /* each row's interval and distance */
	SF_HOLDOUT_SHAPES = 2     /* also its distribution (for ensembles;
	                             implies the intervals) */
};

/*
 * Fit each fold's training rows with the procedure fit (sf_fit_run, or
 * sf_tune_fit to validate the lambda choice too) and predict its rows,
 * with what flags ask for (0, or SF_HOLDOUT_* or-ed).  fold is copied.
 * A fold whose fit fails leaves its rows unpredicted and is counted; a
 * fold whose fit has no interval (no residual degrees of freedom) leaves
 * its intervals NaN; only running out of memory is an error.
 */
int sf_holdout_run(const sf_model *m, const sf_dataset *d, const sf_formula *f,
                   const sf_fit_options *o, sf_fit_fn *fit, const int *fold,
                   size_t nfolds, unsigned flags, sf_holdout **out,
                   sf_error *err);

void sf_holdout_free(sf_holdout *h);

/* The scores of a set of predicted rows. */
typedef struct sf_holdout_scores {
	size_t count; /* predicted rows scored */
	double mape, max_ape, bias;
	size_t interval_rows; /* of them, with an interval */
	double coverage95, mean_halfwidth_pct, interval_score;
} sf_holdout_scores;

/*
 * Row i of a set of scored rows: 1 with its measured value *y, prediction
 * *f and interval [*lo, *hi] (NaN: none), or 0 when it is not scored.
 */
typedef int (*sf_score_row_fn)(const void *ctx, size_t i, double *y, double *f,
                               double *lo, double *hi);

/* The scores above of rows 0 .. n-1 as row gives them; NaN where there is
 * none (predict --grid's rows against their measured output are scored as
 * a validation's held-out rows are). */
void sf_scores_rows(size_t n, sf_score_row_fn row, const void *ctx,
                    sf_holdout_scores *out);

/* Scores of the predicted rows among those with mask[i] != 0 (mask may be
 * NULL for all); NaN where there is none. */
void sf_holdout_score(const sf_holdout *h, const sf_dataset *d,
                      const unsigned char *mask, sf_holdout_scores *out);

/* Score every predicted row of h (sf_holdout_score) into h's own summary
 * (predicted_rows, mape, ..., interval_score). */
void sf_holdout_score_all(sf_holdout *h, const sf_dataset *d);

/*
 * Distance bands beyond the training range, in doublings (interval.h):
 * within the range, at most 1, at most 2, farther.  Intervals are scored
 * per band, since a formula's error grows with the distance.
 */
enum { SF_HOLDOUT_BANDS = 4 };

/* The band of distance D (NaN: none, returns SF_HOLDOUT_BANDS). */
size_t sf_holdout_band(double distance);

/* The band's name: "within", "<= 1", "<= 2", "> 2" (doublings). */
const char *sf_holdout_band_name(size_t band);

/* The scores of the predicted rows in each band, into out[SF_HOLDOUT_BANDS]
 * (count 0 where a band has none; all 0 without intervals).  Returns
 * SF_OK or SF_ENOMEM. */
int sf_holdout_score_bands(const sf_holdout *h, const sf_dataset *d,
                           sf_holdout_scores *out, sf_error *err);

/* Inputs with more held-out values than this get no scores by value. */
enum { SF_HOLDOUT_LEVELS_MAX = 16 };

/*
 * The distinct values of input i among h's predicted rows, ascending, in
 * values (room for SF_HOLDOUT_LEVELS_MAX).  Returns how many, or 0 when
 * there are more than SF_HOLDOUT_LEVELS_MAX.
 */
size_t sf_holdout_levels(const sf_holdout *h, const sf_dataset *d, size_t i,
                         double *values);

/*
 * The scores of the predicted rows whose input i equals value (a group of
 * the table by value).  Returns SF_OK, or SF_ENOMEM (out zeroed).
 */
int sf_holdout_score_level(const sf_holdout *h, const sf_dataset *d, size_t i,
                           double value, sf_holdout_scores *out, sf_error *err);

/*
 * 1 when input i is an extrapolated input of h: a number (not a text
 * input) whose value at every held-out row lies outside the range of its
 * values at the training rows (as p is for a split 'p <= 8'); else 0, and
 * 0 when h holds nothing out or trains on nothing.
 */
int sf_holdout_extrapolated(const sf_holdout *h, const sf_dataset *d, size_t i);

/* The predictions f_i of formula f at theta for every row of d. */
int sf_predict_rows(const sf_formula *f, const sf_dataset *d,
                    const double *theta, double *predicted, sf_error *err);

#endif /* SF_VALIDATE_H */
