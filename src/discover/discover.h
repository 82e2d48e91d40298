/*
 * discover.h - finding an execution-time formula from the data, chosen by
 * how well it extrapolates.
 *
 * The search space (the grammar; scalefit-model(5), DISCOVER) is
 *
 *     time = t0 + c_1 s_1 + ... + c_K s_K,      t0, c_k >= 0,
 *
 * each shape s_k being the count input (n, the samples a run processes)
 * or 1, times at most `factors` factors over distinct other inputs: x^i
 * log2(x)^j with i from an exponent grid and j from 0, 1, 2 (Extra-P's
 * performance model normal form), and for the workers input p also the
 * communication shapes (p - 1) p^i, i = -2, -1, 0 (so (p - 1) / p and
 * p - 1, per run or per step n / (p b)).  With a batch input b (per worker
 * and step) too, s_k may instead be the whole steps S = ceil(n / (p b))
 * (a loader keeping the last partial batch, PyTorch's default) or max(1,
 * floor(n / (p b))) (one dropping it) times
 * per-step factors: the batch's powers b^i, i > 0 (compute), or the
 * workers' log2(p)^j, p^i, i > 0, and communication shapes (exchange), not
 * both, and the other inputs' powers; only where n / (p b) is not whole on
 * some training row (else S is n / (p b)), and costing more than the
 * count's shapes, so the fractional steps win a tie.  Two variants have a
 * constant the time is not linear in: the overlap max(c_u s_u, c_v s_v) of
 * two terms (an input pipeline hidden behind the computation) and, when
 * asked for, a fitted exponent in place of a grid one.
 *
 * How it is fast: every shape's column is computed once over the training
 * rows, sorted by the level of the extrapolated input.  A formula is fitted
 * by non-negative least squares on its columns with the relative loss
 * (weights 1/y^2; 1 with loss: sse; times the data's weights), from Gram
 * matrices summed per level, so that every fold's fit costs a few small
 * solves: tens of thousands of formulas a second.  The non-linear variants
 * are one-dimensional in their constant (the ratio c_v / c_u of an
 * overlap, an exponent): for each value the rest is linear, so they are
 * fitted by a grid and golden-section search over it, each fold anew.
 *
 * How it chooses, on the training rows only: forward chaining along the
 * extrapolated input.  With its levels l_0 < ... < l_{L-1}, fold f fits
 * the rows at levels up to l_f and predicts every row above, for f from
 * ceil(L/2) - 1 (at least 1) to L - 2, so the first fold fits about half
 * the levels; a formula's score is the mean of its folds' MAPE.  Formulas
 * whose score is within two standard errors of the best one's (of its
 * absolute percentage errors, with the repetitions of a configuration
 * as one unit; the folds share rows, so their standard errors add), or
 * within a relative `tie` if that is wider, are tied:
 * Breiman's one-standard-error rule, widened because the best of
 * thousands of noisy scores is biased low.  The simplest tied formula
 * wins: the fewest constants; among as many, those whose AICc on all
 * training rows is within 10 of the lowest (beyond 10 a formula has
 * essentially no support, Burnham and Anderson) count as fitting equally
 * well, and the simplest shapes win, then the lowest AICc.  A formula with
 * more constants than the first fold has configurations is not
 * considered.  The answer is an ensemble: the winner, then the model
 * file's own tied formulas (written before the rows were seen, they
 * carry none of the search's luck; with the winner even when they beat
 * it), then the simplest other tied ones (members), leaving out a
 * found formula that is a member plus terms that extrapolated no better
 * (Occam's window, Madigan and Raftery 1994).  When a formula of the file
 * fits the training rows as well as every tied found one once each found
 * constant pays 2 ln M of AICc (M shapes searched: Foster and George's
 * risk inflation criterion), the search did not pay for itself: that
 * formula joins untied, and no found formula with more constants does
 * but the winner.  Last the held-back check (sf_discover_heldback)
 * searches again without the top level and, when the file's best formula
 * predicts that level better than the inner search's winner, gives the
 * answer to the file's formulas.
 *
 * The search: beam searches over the number of terms, first with
 * one-factor shapes, then with up to `factors`; at each number of terms
 * the `beam` best formulas by score and the `beam` best by AICc (which
 * sees every row, and so which terms are missing) are each extended by
 * every shape, and a simpler stage's beam stays in the next, so sums of
 * simple shapes are completed even where a product of factors mimics the
 * sum with fewer terms.  Then the four formulas of each number of terms
 * with the lowest AICc have each term swapped for every other shape (a
 * beam never takes back a term that stood in for two); and the overlaps
 * of the pairs of terms of the best formulas of each number of terms and
 * of every pair of the best single shapes, and (when asked for) their
 * exponent variants, are scored the same way.
 * A formula with a term whose constant is 0 on all rows, or an overlap
 * whose one side never wins, is its simpler self and is not chosen.  Shapes are
 * kept once: one whose column is c + d times a simpler one's on the
 * training rows, c >= 0 and d > 0 (b^0.5 and b where b takes two values),
 * gives the same formulas, the start-up (>= 0) taking c; with c < 0 (b^2,
 * p - 1) both stay, and a formula that fits the rows exactly as a simpler
 * one does (its twin) is left off the board.  With a count, a term without
 * it is a per-run cost and may use the workers only, and a term with it
 * (or its whole steps) may not cost less per step as workers join (n / p^2
 * is no shape: grammar.h); and where a count or a batch is beside the
 * workers (discover.growth_cap), no term's cost per step grows faster than
 * p^2 (p^2 log2(p) and n p log2(p) are no shapes).
 *
 * Determinism: formulas are fitted in parallel (OpenMP), each by one
 * thread with its own workspace, and chosen serially in a fixed order with
 * the candidate's place in the search as the last tie-break, so the result
 * does not depend on the number of threads.
 *
 * Where it lives (src/discover/): setup (the settings, the roles of the
 * inputs, the training rows), chain (levels and folds), grammar (the
 * shapes, their columns and text), score (a formula's fits and scores),
 * search (the formula table, beams, swaps, variants), board (ranking and
 * the candidates), given (the formulas given: the model file's own and
 * the library's), run.c
 * (sf_discover_run, the held-back check, sf_discover_shapes), modelfile.c (the
 * model file of a formula, its refit) and report (the JSON and text reports).
 * This header is the whole public API but the report's.
 *
 * Ownership: results are the caller's (sf_discover_result_free); nothing
 * is kept from the arguments.
 */
#ifndef SF_DISCOVER_H
#define SF_DISCOVER_H

#include "base/error.h"
#include "fit/fit.h"
#include "input/dataset.h"
#include "input/model.h"
#include "input/problem.h"

#include <stddef.h>

/* Defaults of the discover: block's settings. */
#define SF_DISCOVER_DEFAULT_FACTORS 2
#define SF_DISCOVER_DEFAULT_MAX_TERMS 4
#define SF_DISCOVER_DEFAULT_BEAM 8
#define SF_DISCOVER_DEFAULT_BUDGET 200000
#define SF_DISCOVER_DEFAULT_TIE 0.05
#define SF_DISCOVER_DEFAULT_TOP 10
/* Formulas of the ensemble discover writes (the winner, the model file's
 * tied formulas, the simplest other tied ones), and the most --members
 * takes. */
#define SF_DISCOVER_DEFAULT_MEMBERS 5
enum { SF_DISCOVER_MAX_MEMBERS = 8 };

/* How much lower per doubling a winner's pace beyond the training rows
 * may be than the measured pace between their two largest levels before
 * the report warns (a share of the time: a run's noise, not a trend). */
#define SF_DISCOVER_PACE_SLACK 0.05

/* The most formulas a search scores (--budget, discover.budget): it keeps
 * every one (about 0.5 KB each), so this bounds its table at about 0.5 GB
 * (scalefit(1), LIMITS). */
#define SF_DISCOVER_MAX_BUDGET 1000000

/* The search space's lists and variants and the tie: what a search used
 * (sf_setup) and reports (sf_discover_result). */
typedef struct sf_discover_space {
	double tie;
	int overlap, continuous;
	int library; /* the library's formulas scored beside (the caller's) */
	int growth_cap; /* no shape's cost per step above p^2 in the workers */
	double exponents[SF_DISCOVER_MAX_LIST];
	size_t nexponents;
	int logs[SF_DISCOVER_MAX_LOG + 1];
	size_t nlogs;
} sf_discover_space;

/* The command line's overrides, and what the command wants back. */
typedef struct sf_discover_options {
	const char *train;       /* --train EXPR: the training rows; NULL all */
	const char *extrapolate; /* overrides discover.extrapolate; NULL */
	size_t max_terms, beam;  /* 0: the block's, else the default */
	size_t budget;           /* formulas scored at most, up to
	                            SF_DISCOVER_MAX_BUDGET; 0: the block's, else the
	                            default */
	size_t top;     /* discovered formulas on the board; 0: default */
	size_t members; /* formulas of the ensemble; 0: default, 1: the
	                   winner alone */
	double to;      /* --to: the extrapolated input's value at which the
	                   report says how far the members part; 0: twice the
	                   top training level */
	int threads;    /* OpenMP threads of the search; <= 0: all */
	/* How the model file's own formulas and the winner are fitted. */
	sf_fit_options fit;
} sf_discover_options;

/* Fill o with "no override". */
void sf_discover_options_init(sf_discover_options *o);

/* 1 when the block s asks for the library's formulas beside the found
 * ones (discover.library, default true); the caller grafts them
 * (run/discover.c). */
int sf_discover_uses_library(const sf_model_discover *s);

enum { SF_DISCOVER_TERM_PARAMS = 2 };

/* A term of a formula, as it is written to a model file. */
typedef struct sf_discover_term {
	char *name;        /* "overhead", "compute", "comm2", ... */
	char *shape;       /* over the inputs: "1", "n / (p * b)", ... */
	char *expr;        /* with its constants: "c_compute * n / p" */
	sf_term_kind kind; /* what the shape says it is */
	size_t nparams;    /* 1; 2 for an overlap or a fitted exponent */
	char *param[SF_DISCOVER_TERM_PARAMS];  /* the constants' names */
	double value[SF_DISCOVER_TERM_PARAMS]; /* fitted on the training rows */
	double lower[SF_DISCOVER_TERM_PARAMS]; /* bounds for the model file */
	double upper[SF_DISCOVER_TERM_PARAMS];
} sf_discover_term;

/* A constant of the model file's formula: fixed at value, or fitted
 * (value, on the training rows) within [lower, upper]. */
typedef struct sf_discover_param {
	char *name;
	int fixed;
	double value, lower, upper;
} sf_discover_param;

/* A term of the model file's formula, or one of its derived inputs. */
typedef struct sf_discover_given_term {
	char *name, *expr;
	sf_term_kind kind;
	int derived;
} sf_discover_given_term;

/* The model file's formula, as an ensemble's member writes it. */
typedef struct sf_discover_given {
	sf_discover_param *params;
	size_t nparams;
	sf_discover_given_term *terms; /* in the file's order */
	size_t nterms;
	char *time;
} sf_discover_given;

/* A formula on the board. */
typedef struct sf_discover_candidate {
	char *model; /* a formula given (the model file's, or the library's,
	                named @NAME): its name; else NULL */
	int library; /* given by the library (its name starts with @) */
	int foreign; /* given, with an input the searched model has not (a
	                member's own input of a models: file): never in the
	                ensemble, whose inputs are the searched model's */
	sf_discover_given given; /* with model: that formula */
	char *formula;           /* for people: constants written in */
	size_t nterms; /* discovered formulas: terms[0] is the start-up */
	sf_discover_term *terms;
	size_t k;     /* fitted constants */
	double score; /* the mean of the folds' MAPE, percent */
	double se;    /* its standard error (a given formula's; NaN for a
	                 found one, whose the board computes for the best) */
	double
	    *fold_mape; /* per fold (NaN where a given formula's fit failed) */
	double mape;    /* on all training rows, percent */
	double aicc;    /* on all training rows, in the search's loss */
	int tied;       /* within the tie of the best score */
	int refitted;   /* the values are sf_discover_refit()'s */
} sf_discover_candidate;

/*
 * The search judged on a level it did not see (run.c: nested validation,
 * Cawley and Talbot 2010): run again, with the same settings, on the
 * training rows below the top level of the extrapolated input, its winner
 * and the model file's best formula there (each fitted on those rows)
 * predict the top level's training rows.  Its folds chose the winner, so
 * they flatter it (the best of thousands of scores is biased low); the
 * held-back level did not choose either.  When the file's formula
 * predicts it better the search did not earn its answer (refuted): the
 * file's formula leads the ensemble, with the file's other formulas that
 * join, and no found or library formula does.  level is NaN (found and
 * file NULL) when the check was not run: fewer than 4 levels (the inner search
 * needs 3), no formula of the model file that can join, an inner search the
 * time limit cut short (or no time left), or one that fitted nothing.
 */
typedef struct sf_discover_heldback {
	double level;      /* the level held back: the top training level */
	size_t rows;       /* its training rows */
	char *found;       /* the inner search's winner, constants written in */
	double found_mape; /* its MAPE there, percent */
	double found_slow; /* the mean of ln(time / its prediction) there,
	                      per doubling from the level below */
	double found_slow_se; /* and that mean's standard error */
	char *file;           /* the model file's formula: its name */
	double file_mape;
	int refuted; /* file_mape < found_mape */
} sf_discover_heldback;

/* What a search did and found. */
typedef struct sf_discover_result {
	char *extrapolate; /* the input extrapolated along */
	char *count;       /* the count input, or NULL */
	char *workers;     /* the input with communication shapes, or NULL */
	char *batch;       /* the batch per worker and step, or NULL */
	int steps;         /* the grammar has the whole steps (grammar.h) */
	char **inputs;     /* the inputs the factors use */
	size_t ninputs;
	char *train;        /* --train's expression, or NULL */
	sf_loss loss;       /* relative, or sse */
	size_t rows;        /* training rows */
	size_t held_out;    /* rows --train left out */
	size_t nlevels;     /* levels of the extrapolated input */
	double *levels;     /* in training, ascending */
	size_t nfolds;      /* forward-chaining folds */
	size_t *fold_last;  /* fold f fits levels[0..fold_last[f]] */
	size_t *fold_rows;  /* and predicts this many rows */
	size_t shapes;      /* distinct term shapes over the training rows */
	size_t too_steep;   /* shapes left out: cost per step above p^2 */
	size_t evaluated;   /* formulas scored */
	int budget_reached; /* the search stopped at the budget */
	int time_limit_reached; /* the search stopped at the time limit */
	double seconds;         /* of the search */
	size_t factors, max_terms, beam, budget; /* the settings used */
	sf_discover_space space;
	double best_score;            /* the lowest score */
	double band;                  /* scores up to best + band tie */
	sf_discover_candidate *board; /* best first */
	size_t nboard;
	size_t winner; /* board index of the best found */
	/* The ensemble written: board indices, the winner first, then the
	 * model file's tied formulas (tied or not where the search did not
	 * pay for itself, unpaid, or one fold judged it, one_fold), then the
	 * other tied ones (found or the library's), in the board's order
	 * (the simplest first); when
	 * the held-back check refuted the search, the file's formula it
	 * judged first, then the file's others that join. */
	size_t members[SF_DISCOVER_MAX_MEMBERS];
	size_t nmembers;
	/* Each member's weight in the file written (its weight: key, 1 when
	 * they are all 1): where both the model file's formulas and the
	 * search's (found, or the library's: chosen by the same folds) are
	 * members, the two sides weigh the same in all, as two forecasters
	 * (each file formula the count of the search's, each of the search's
	 * the count of the file's); else 1.  The search's formulas share one
	 * source, its folds' luck: weighed one by one they would outvote the
	 * formula written before the rows were seen by their number alone
	 * (fit/ensemble.h). */
	double weights[SF_DISCOVER_MAX_MEMBERS];
	/* Tied found formulas left out of it as a member plus terms that
	 * extrapolated no better (board.c: Occam's window). */
	size_t nested;
	/* The most constants of a formula of the model file that fits the
	 * training rows as well as every tied found one once the search is
	 * paid for (board.c: the risk inflation criterion), 0 when none:
	 * then it joins the ensemble, and no found formula with more
	 * constants does but the winner. */
	size_t unpaid;
	/* 1 when one fold judged the search (3 training levels) and a
	 * formula of the model file that was not tied joined the ensemble
	 * for it (board.c): the choice among the search's thousands rests on
	 * one level's predictions, the luckiest score of many. */
	int one_fold;
	/* How far the members part beyond the training rows: their lowest
	 * and highest prediction at the training row of the top level whose
	 * time is the median there (apart_line, its line in the data file),
	 * with the extrapolated input at apart_at: --to, else twice the top
	 * (one doubling beyond).  NaN (apart_line 0) with fewer than 2
	 * members or a top level <= 0. */
	double apart_at, apart_low, apart_high;
	int apart_line;
	/* `scalefit next`'s --target and --over there, so that the report
	 * can say which run tells the members apart: that row's values of
	 * the ensemble file's inputs (sf_discover_written_input), the
	 * extrapolated one at apart_at ("p=8,b=32,n=388288"); and the
	 * extrapolated input's candidates, its top training level and the
	 * doublings from there up to apart_at ("p=4,8").  NULL with
	 * apart_line 0, apart_at at or below the top level (--to: inside
	 * the rows the members agree), or when a text value holds ',' or
	 * '=' (--target could not read it back). */
	char *apart_target, *apart_over;
	/* The pace of the winner beyond the training rows against the
	 * measured one, at that row of the top level (pace_line, its line):
	 * per doubling of the extrapolated input the time goes times
	 * pace_beyond from the top level to twice it (the winner's
	 * prediction), and times pace_measured from the level below to the
	 * top (the row's time against the median of the level below's rows
	 * of the same configuration).  The winner speeds up more than the
	 * largest measured levels when pace_beyond < pace_measured -
	 * SF_DISCOVER_PACE_SLACK (pace_faster).  NaN (pace_line 0) when the
	 * winner is the model file's own formula, the level below has no row
	 * of that configuration, or a level or time is <= 0. */
	double pace_beyond, pace_measured;
	int pace_line, pace_faster;
	/* How fast the winner and the model file's best-scoring formula
	 * (board index disagreement_with) part ways beyond the training rows
	 * along the extrapolated input: the least-squares slope through the
	 * origin of ln(winner / file formula) on the doublings 1 and 2 beyond
	 * the top level, at every training row of the top level.  The
	 * written model file carries its size as fit.prior.disagreement,
	 * which widens the intervals (fit/interval.h), or 0 when that
	 * formula is a member of the ensemble (disagreement_shown): the
	 * members' mixture shows it already, or the held-back check refuted
	 * the winner (held.refuted: the file's formula leads, and the
	 * refuted formula's parting is not counted).  NaN (disagreement_with
	 * SIZE_MAX) when the model file has no formula with a score, the top
	 * level is <= 0, or no prediction there is positive. */
	double disagreement;
	size_t disagreement_with;
	int disagreement_shown;
	/* The regime check of the model file's best-scoring formula (board
	 * index regime_with) on the training rows (fit/interval.h), under the
	 * prior of the file written: the largest levels of the extrapolated
	 * input scale worse than it, its top cut missing by regime per
	 * doubling - at most, when the held-back check held (the search
	 * without the top level predicted it better than that formula), by
	 * as much as the search's choice there came out short per doubling
	 * plus the one-sided 95% of that mean's noise (regime_bounded when
	 * that bound set it): beyond it the miss is the formula's own shape's
	 * (whole steps it does not take), the search's shape being chosen
	 * without the level; none when that bound is not positive (the
	 * search foresaw the level).  The found formulas that fit those
	 * levels bend to them, so their own chains do not show it: the
	 * written model file carries it as fit.prior.regime, which widens
	 * every member's interval beyond the range toward it.  NaN
	 * (regime_with SIZE_MAX) when the check did not fire, the search
	 * foresaw the level, or the file's formula has no interval. */
	double regime;
	size_t regime_with;
	int regime_bounded;
	sf_discover_heldback held;
} sf_discover_result;

/*
 * The training rows of d: those where train (an expression over the
 * inputs) holds, or all when train is NULL.  *held_out gets the count left
 * out.  Errors: a bad expression (the column within train), SF_EVALUE when
 * no row is left.
 */
int sf_discover_split(const sf_dataset *d, const char *train, sf_dataset **out,
                      size_t *held_out, sf_error *err);

/*
 * Search for the formula of model m's data d (all rows; the split is
 * done here with o->train) under the block s, and score the formulas of
 * given[0..ngiven) (problems of the model file's own formulas, then of
 * the library's named @NAME as run/discover.c grafts them, may be 0)
 * the same way through the fit pipeline (sf_tune_fit) for the board.
 * The search stops adding formulas at the budget, and (with
 * o->fit.time_limit, else the model's fit.time_limit) once that many
 * seconds have passed since the call began: the formulas being scored are
 * finished, the board is made of those scored (budget_reached,
 * time_limit_reached).  The file's formulas and the winner's refit are
 * each fitted under that time limit too, as `scalefit fit` fits them.
 * Then the held-back check (sf_discover_heldback) searches again, under
 * the same budget and within what is left of the time limit, and may give
 * the ensemble to the file's formulas.
 * Returns SF_OK and a new result in *out.  Errors: a name in s or o that
 * is not a numeric input (SF_ENAME, at its position in m's file when it
 * comes from there), a budget above SF_DISCOVER_MAX_BUDGET (SF_EVALUE),
 * too few levels of the extrapolated input in the training rows
 * (SF_EVALUE: at least 3), no formula that could be fitted (SF_EFAIL),
 * the split's errors, SF_ENOMEM.
 */
int sf_discover_run(const sf_model *m, const sf_model_discover *s,
                    const sf_dataset *d, const sf_problem *given, size_t ngiven,
                    const sf_discover_options *o, sf_discover_result **out,
                    sf_error *err);

/* Release r.  Accepts NULL. */
void sf_discover_result_free(sf_discover_result *r);

/*
 * The grammar itself: the term shapes sf_discover_run would search for m's
 * data d under s and o (over the training rows, each kept once, simplest
 * first), as expressions over the inputs ("n / (p * b)").  *shapes gets
 * *n malloc'd strings in a malloc'd array; free each and the array.
 * Errors: as sf_discover_run's before the search.
 */
int sf_discover_shapes(const sf_model *m, const sf_model_discover *s,
                       const sf_dataset *d, const sf_discover_options *o,
                       char ***shapes, size_t *n, sf_error *err);

/*
 * A complete, commented model file for the discovered formula board[index]
 * of r (index r->winner with r->nmembers > 1, or when the held-back check
 * refuted the search: the ensemble of the members, a models: file with
 * `ensemble: true` whose first model is the first member): m's data block
 * (data.file written relative to the directory of out_path, data_path being the
 * CSV that was read), the inputs it uses, its constants with bounds that are
 * not active (>= 0, at most ten times what the shortest run allows, rounded up
 * to a power of 10), its terms with their kinds, fit: with the search's loss,
 * and the discover: block that was used.  The inputs are those the terms use,
 * the extrapolated one and those --train names, so `validate --train` takes the
 * file.  *text is malloc'd; the caller frees it.  Returns SF_OK, SF_EVALUE for
 * a formula of the model file, SF_ENOMEM.
 */
int sf_discover_model_text(const sf_discover_result *r, size_t index,
                           const sf_model *m, const char *out_path,
                           const char *data_path, char **text, sf_error *err);

/*
 * The fit.prior.disagreement the model file of r carries (to 1e-4): 0 when
 * the file's formula is a member (the mixture shows the parting), else
 * abs(r->disagreement); -1 when r measured none.
 */
double sf_discover_written_disagreement(const sf_discover_result *r);

/* 1 when r's members do not all weigh 1 (discover.h: weights): the file
 * written gives each its weight:. */
int sf_discover_weighed(const sf_discover_result *r);

/*
 * 1 when the ensemble file of r's members (sf_discover_model_text of the
 * winner, r->nmembers > 1) lists input name among its inputs: one a
 * member's formula, the extrapolation or --train uses.
 */
int sf_discover_written_input(const sf_discover_result *r, const char *name);

/*
 * Fit the model file text (written by sf_discover_model_text, read as if
 * it were at path) on the training rows (o->train) with the fit pipeline,
 * exactly as `scalefit fit` (or `validate --train`) fits it, and put the
 * constants into board[index] (refitted = 1, mape from this fit); the
 * winner is left as the search fitted it when the text does not hold it
 * (the held-back check refuted the search: *fit stays NULL).
 * *fit, when not NULL, gets the fit's result (the caller frees it).
 * Errors: those of loading the text, its data and the fit.
 */
int sf_discover_refit(sf_discover_result *r, size_t index, const char *path,
                      const char *text, const sf_discover_options *o,
                      sf_fit_result **fit, sf_error *err);

#endif /* SF_DISCOVER_H */
