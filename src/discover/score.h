/*
 * score.h - a formula of the search and its score (discover.h): the
 * formula's fit by non-negative least squares on its columns from Gram
 * matrices summed per level, every forward-chaining fold's predictions of
 * the rows above it, and the fit on every training row (its AICc).
 *
 * A linear formula is the start-up plus shapes of the grammar; a variant
 * has one constant the time is not linear in - the ratio of the two sides
 * of an overlap max(c_u s_u, c_v s_v), or a fitted exponent - and for each
 * value of it the rest is linear, so it is fitted by a grid and golden
 * sections over that value, anew in every fold.  A formula's score is the
 * mean of its folds' MAPE (percent).
 *
 * How it is fast: a fold's Gram matrix is the sum of its levels', so a
 * formula's level matrices are computed once (sf_score_level_grams) and
 * every fold costs a small solve; a formula that adds one shape to
 * another starts from that parent's matrices (sf_score_child).
 *
 * Ownership and threads: a workspace (sf_score_ws) is one thread's; the
 * grammar is shared read-only.  Scoring allocates nothing.
 */
#ifndef SF_DISCOVER_SCORE_H
#define SF_DISCOVER_SCORE_H

#include "discover/grammar.h"
#include "solve/boxls.h"

#include <stddef.h>
#include <stdint.h>

/* Columns of a formula: the start-up constant and at most max_terms; the
 * stride of every Gram matrix. */
enum { SF_SCORE_MAXC = SF_DISCOVER_MAX_TERMS + 1 };

/* One thread's scratch. */
typedef struct sf_score_ws {
	double *G; /* per level: k x k at stride SF_SCORE_MAXC */
	double *h; /* per level: k */
	double *z; /* a variant's column (rows) */
	double *z2;
	double *ape;     /* absolute percentage errors (rows) */
	double *cluster; /* per configuration: a sum (zero between uses) */
	size_t *touched; /* configurations a sum touched */
	unsigned char
	    *seen;    /* per configuration: touched (zero between uses) */
	sf_boxls *ls; /* the non-negative least squares of the fits */
} sf_score_ws;

/* What scoring a formula gives. */
typedef struct sf_score {
	double score, se, mape, aicc, chisqr;
	int valid;
	/* a term's constant is 0 on every row: the formula without it
	 * gives the same predictions with fewer constants */
	int redundant;
} sf_score;

/* What a formula is: linear, or with an overlap or a fitted exponent. */
enum { SF_VARIANT_NONE, SF_VARIANT_OVERLAP, SF_VARIANT_EXPONENT };

/*
 * A formula: the start-up plus the shapes atom[0..nterms) (ascending).
 * An overlap turns terms a and b into max(c_a s_a, c_b s_b), evaluated
 * as c_a max(s_a, theta s_b) with theta = c_b / c_a in [lo, hi]; an
 * exponent variant replaces factor b of term a's exponent by theta in
 * [lo, hi].
 */
typedef struct sf_entry {
	uint32_t atom[SF_DISCOVER_MAX_TERMS];
	unsigned char nterms, variant, a, b;
	double lo, hi;
	size_t k;    /* fitted constants */
	size_t cost; /* how complicated its shapes read (factor_cost) */
	/* the formula it extends by shape added, SIZE_MAX for none */
	size_t parent;
	uint32_t added;
	sf_score sc;
} sf_entry;

/* Allocate w's arrays for g's rows, levels and configurations; 1 on
 * success, 0 when out of memory (then sf_score_ws_free still applies). */
int sf_score_ws_alloc(sf_score_ws *w, const sf_grammar *g);

/* Release w's arrays. */
void sf_score_ws_free(sf_score_ws *w);

/* Gram matrices G_l = sum w x x^T and h_l = sum w x y of columns
 * cols[0..k) over the rows of levels 0..upto, into ws. */
void sf_score_level_grams(const sf_grammar *g, sf_score_ws *ws,
                          const double *const *cols, size_t k, size_t upto);

/* AICc of a fit with loss chisqr and k constants on n rows (stats.h);
 * +INFINITY when n <= k + 1. */
double sf_score_aicc(double chisqr, size_t n, size_t k);

/*
 * The mean of ws->ape over g's sorted rows [from, to), and in *var (when
 * not NULL) the variance of that mean, clustered by configuration:
 * repetitions of one configuration are not independent evidence (their
 * errors share the configuration's), so the sums of deviations per
 * configuration are the units (the cluster-robust estimator, C / (C - 1)
 * sum_c S_c^2 / n^2).  NaN for no rows.
 */
double sf_score_ape_mean(const sf_grammar *g, sf_score_ws *ws, size_t from,
                         size_t to, double *var);

/* The columns of e into cols (the start-up's first; a variant's, computed
 * per value of its constant, last and left NULL); returns how many. */
size_t sf_entry_columns(const sf_grammar *g, const sf_entry *e,
                        const double **cols);

/* Variant e's column at theta, rows [0, rows), into out. */
void sf_entry_variant_column(const sf_grammar *g, const sf_entry *e,
                             double theta, double *out, size_t rows);

/*
 * Score e into e->sc.  fold (may be NULL) gets each fold's MAPE (and then
 * e->sc.se the folds' standard errors and e->sc.mape the MAPE on every
 * row), c (may be NULL) the constants of the fit on every row in the
 * order of sf_entry_columns, theta (may be NULL) a variant's non-linear
 * constant on every row.
 */
void sf_score_entry(const sf_grammar *g, sf_score_ws *ws, sf_entry *e,
                    double *fold, double *c, double *theta);

/*
 * Score linear e, whose parent's level Gram matrices (its kp columns
 * pcols) are in P: each level's matrix gains the products of e's new
 * column, e->added, which goes last.
 */
void sf_score_child(const sf_grammar *g, sf_score_ws *ws, const sf_score_ws *P,
                    const double *const *pcols, size_t kp, sf_entry *e);

#endif /* SF_DISCOVER_SCORE_H */
