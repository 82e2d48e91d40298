/*
 * compare.h - candidate formulas fitted on the same rows and ranked, the
 * question `scalefit compare` answers.
 *
 * Each candidate (a model) is opened against its data, fitted (with
 * lambda: auto when asked, tune.h), and scored by what the information
 * criteria see and by what they cannot see:
 *   sse, mape, aicc, bic  of the fit on every row (stats.h)
 *   cv_mape               the K-fold cross-validated MAPE (validate.h),
 *                         folds dealt with the fit's effective seed
 *   extra_mape            with a train condition, the MAPE of the rows it
 *                         leaves out, predicted by a fit on the others
 *   by_level              and the same per value of each extrapolated
 *                         input (sf_holdout_extrapolated: every held-out
 *                         value outside the trained range, such as p for
 *                         'p <= 8'), when it has at most
 *                         SF_HOLDOUT_LEVELS_MAX held-out values
 *   max_corr              the largest |correlation| of two parameters
 *                         (NaN when no two have one)
 *   at_bound              the parameters stuck at a bound
 *   over                  over-parameterised: a |correlation| above 0.95,
 *                         a standard error larger than the value (of a
 *                         parameter not at a bound) or a rank-deficient
 *                         Jacobian
 *   poor                  the poorly determined constants (stats.h),
 *                         comma-separated
 * sf_compare_rank() orders them by the settings' ranking (the table of
 * rankings: sf_compare_ranking_get()): AICc, the cross-validated MAPE or
 * the extrapolation MAPE, lowest first, AICc breaking ties (two MAPEs
 * within a relative SF_COMPARE_TIE are a tie: the same predictions up to
 * the search's convergence, as a formula and a copy with one constant
 * split in two give), failed fits and NaN last, ties in the order added; by
 * default by the extrapolation MAPE with a train condition, since the condition
 * asks how well each formula predicts the rows it holds out, else by AICc.
 * Whatever the order, each candidate gets its Akaike weight exp(-delta_i / 2) /
 * sum_j exp(-delta_j / 2) over the fitted candidates, delta_i the AICc above
 * the lowest.
 *
 * The life cycle: sf_compare_alloc(), sf_compare_add() for each candidate
 * (it opens the candidate's data, without fitting), sf_compare_split()
 * (every candidate's train split), sf_compare_fit() for each,
 * sf_compare_rank(), then read cmp->c[cmp->order[i]]; and
 * sf_compare_free().  Adding every candidate and splitting before the
 * first fit checks every model, data file and the condition at once, so
 * that a bad last candidate does not wait for the fits of the others.
 *
 * Ownership: a comparison borrows its models (which must outlive it) and
 * copies its settings' texts; each candidate owns its opened problem.
 * Thread safety: one thread per comparison; the fits inside use OpenMP
 * and give the same bytes at any thread count.
 */
#ifndef SF_COMPARE_H
#define SF_COMPARE_H

#include "base/error.h"
#include "fit/fit.h"
#include "fit/validate.h"
#include "input/model.h"
#include "input/problem.h"

#include <stddef.h>

/* What the candidates are ranked by; see the opening comment. */
typedef enum sf_compare_rank_by {
	SF_COMPARE_RANK_DEFAULT = 0,   /* extrapolation with a train
	                                  condition, else aicc */
	SF_COMPARE_RANK_AICC,          /* the in-sample AICc */
	SF_COMPARE_RANK_CV,            /* the K-fold cross-validated MAPE */
	SF_COMPARE_RANK_EXTRAPOLATION, /* the MAPE of the rows the train
	                                 condition holds out (needs one) */
	SF_COMPARE_RANKINGS
} sf_compare_rank_by;

struct sf_compare_candidate;

/* Two MAPEs closer than this, relative to the larger, rank as a tie. */
#define SF_COMPARE_TIE 1e-6

/* A row of the table of rankings. */
typedef struct sf_compare_ranking {
	const char *name;  /* as --rank takes it: "aicc", "cv", ... */
	const char *score; /* what it ranks by, in a sentence ("the
	                      extrapolation MAPE") */
	/* the candidate's score, lower is better (NaN: last) */
	double (*key)(const struct sf_compare_candidate *c);
} sf_compare_ranking;

/* The row of ranking r (not SF_COMPARE_RANK_DEFAULT: the row it stands
 * for is sf_compare_rank_used()'s). */
const sf_compare_ranking *sf_compare_ranking_get(sf_compare_rank_by r);

/* The ranking named name, or SF_COMPARE_RANKINGS when there is none. */
sf_compare_rank_by sf_compare_ranking_find(const char *name);

/* How every candidate is fitted and scored. */
typedef struct sf_compare_settings {
	const char *data_path;   /* the rows of every candidate; NULL: each
	                            model's data.file */
	const sf_table *table;   /* borrowed: when not NULL, the rows of
	                            every candidate instead of data_path (a
	                            table read from standard input) */
	const char *train;       /* the extrapolation holdout's condition
	                            (sf_folds_split); NULL: none */
	size_t kfold;            /* K of the cross-validation, >= 2 */
	sf_fit_options options;  /* fit options (its progress is not used) */
	sf_compare_rank_by rank; /* the order of sf_compare_rank() */
	sf_warn_fn warn;         /* warnings while opening the data, each
	                            prefixed "model 'NAME': "; may be NULL */
	void *warn_ctx;
} sf_compare_settings;

/* The extrapolation scores of one held-out value of an input. */
typedef struct sf_compare_level {
	const char *input; /* its name, the dataset's */
	double value;
	size_t rows; /* held-out rows with this value, predicted */
	double mape, bias;
} sf_compare_level;

/* One candidate's scores; see the opening comment. */
typedef struct sf_compare_candidate {
	const sf_model *model; /* borrowed */
	sf_problem problem;    /* open from sf_compare_add() to _free() */
	sf_loss loss;          /* the options' loss, else the model's */
	size_t n, k, at_bound; /* rows, fitted parameters */
	double sse, mape, aicc, bic, weight, cv_mape, extra_mape, max_corr;
	int over, failed; /* failed: the fit found no finite cost */
	char poor[128];
	char data_sha[65];          /* of the data file's bytes, hex */
	char rows_sha[65];          /* of the file's SHA-256 and the table
	                               indices of the kept rows, hex: equal
	                               for two candidates fitted to the same
	                               rows of the same file */
	char *label;                /* the model's name, made distinct:
	                               "cnn", then "cnn (2)" for another
	                               candidate of the same name */
	int fitted;                 /* sf_compare_fit() has run */
	sf_compare_level *by_level; /* nby_level, grouped by input in the */
	size_t nby_level;           /* dataset's order, values ascending */
	int *train_fold; /* the train split's folds (sf_folds_split), or
	                    NULL before sf_compare_split() or without one */
	int borrowed;    /* sf_compare_add_rows(): the formula is borrowed */
} sf_compare_candidate;

/* A comparison. */
typedef struct sf_compare {
	sf_compare_settings s; /* with its texts copied */
	size_t n;
	sf_compare_candidate **c; /* n candidates, in the order added */
	size_t *order;            /* after sf_compare_rank(): best first */
	size_t cap;
} sf_compare;

/* A comparison with no candidates, or NULL when out of memory.  s is
 * copied. */
sf_compare *sf_compare_alloc(const sf_compare_settings *s);

/* Release cmp and its candidates' problems; accepts NULL. */
void sf_compare_free(sf_compare *cmp);

/*
 * Add model m as candidate cmp->n: open its data and compile its formula
 * (sf_problem_open, with warnings to the settings' warn).  Nothing is
 * fitted.  Returns SF_OK, or the error of opening (the candidate is then
 * not added) or SF_ENOMEM.
 */
int sf_compare_add(sf_compare *cmp, const sf_model *m, sf_error *err);

/*
 * Add model m as a candidate fitted to the n rows of from's dataset listed
 * in rows (indices into from->data; a group of a --by run), with from's
 * compiled formula.  from must outlive cmp; the selected rows are the
 * candidate's own.  Nothing is fitted.  Returns SF_OK, SF_EVALUE (n == 0)
 * or SF_ENOMEM.
 */
int sf_compare_add_rows(sf_compare *cmp, const sf_model *m,
                        const sf_problem *from, const size_t *rows, size_t n,
                        sf_error *err);

/*
 * Make every candidate's train split (nothing without a train condition).
 * Returns SF_OK, or the first error (sf_compare_fit() lists them).
 */
int sf_compare_split(sf_compare *cmp, sf_error *err);

/*
 * Fit candidate i and score it: the fit, its statistics, the K-fold
 * cross-validation and, with a train condition, the extrapolation
 * holdout (its split made first when sf_compare_split() has not run).  A
 * fit with no finite cost (or no statistics) marks it failed and is not
 * an error.  Errors: a bad train condition (its column within
 * the text, file "--train"), SF_EVALUE when it selects all or none of the
 * rows, SF_ENOMEM.
 */
int sf_compare_fit(sf_compare *cmp, size_t i, sf_error *err);

/*
 * sf_compare_fit() for every candidate, the candidates being the units of
 * work of base/units.h (over an MPI job's ranks; their scores travel as
 * bytes and arrive exact).  Returns SF_OK or the error of the first
 * candidate (by index) that failed.
 */
int sf_compare_fit_all(sf_compare *cmp, sf_error *err);

/* The ranking sf_compare_rank() follows: the settings' rank, its default
 * resolved (SF_COMPARE_RANK_EXTRAPOLATION with a train condition, else
 * SF_COMPARE_RANK_AICC). */
sf_compare_rank_by sf_compare_rank_used(const sf_compare *cmp);

/* The candidate ranking r (resolved as sf_compare_rank_used() does when
 * SF_COMPARE_RANK_DEFAULT) puts first, by index into cmp->c, or SIZE_MAX
 * when every fit failed or has no such score.  Every candidate must have
 * been fitted. */
size_t sf_compare_first_by(const sf_compare *cmp, sf_compare_rank_by r);

/* Order the candidates (cmp->order) and set their Akaike weights; see the
 * opening comment.  Every candidate must have been fitted.  A candidate
 * that fits the rows exactly (SSE 0) has an AICc of -inf: those that do
 * share the weight equally and the others get 0. */
void sf_compare_rank(sf_compare *cmp);

/* How many candidates fit the rows exactly (an AICc of -inf): AICc cannot
 * tell them apart, and they share the Akaike weight. */
size_t sf_compare_exact(const sf_compare *cmp);

/*
 * For a table of the extrapolation by value, across candidates: the
 * distinct names of the inputs some candidate has levels of, in the
 * order of the ranking (names, at most max, borrowed from the
 * candidates); and the distinct values of input name over every
 * candidate's levels, ascending (0 when more than max).
 */
size_t sf_compare_level_inputs(const sf_compare *cmp, const char **names,
                               size_t max);
size_t sf_compare_level_values(const sf_compare *cmp, const char *name,
                               double *values, size_t max);

/* Candidate c's level of input name at value, or NULL when it has none. */
const sf_compare_level *sf_compare_level_find(const sf_compare_candidate *c,
                                              const char *name, double value);

/* The first candidate after the first whose model fits another output
 * (sf_model_output), or 0 when all fit the same one: their SSE are then
 * in different units. */
size_t sf_compare_other_output(const sf_compare *cmp);

/* The first candidate after the first that is fitted to other rows
 * (another file, another count or other rows of the file: rows_sha) or
 * with another loss, or 0 when there is none: their AICc and weights
 * then do not compare. */
size_t sf_compare_other_rows(const sf_compare *cmp);

/* The first candidate after the first fitted to other rows than it
 * (rows_sha differs), whatever the loss, or 0 when all have the same
 * rows. */
size_t sf_compare_other_row_set(const sf_compare *cmp);

#endif /* SF_COMPARE_H */
