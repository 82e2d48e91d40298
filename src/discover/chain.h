/*
 * chain.h - the levels of the extrapolated input and the forward-chaining
 * folds over them (discover.h): the training rows sorted by that input's
 * value, the rows of each level, and for each fold the last level it fits.
 *
 * With levels l_0 < ... < l_{L-1}, fold f fits the rows at levels up to
 * last[f] and predicts every row above; the first fold fits about half the
 * levels (ceil(L/2) - 1, at least 1) and the last one all but the top.
 * A formula's score weighs the folds toward the last (sf_chain_fold_weight).
 *
 * Ownership: an sf_chain owns its arrays (sf_chain_free).  Thread-safe.
 */
#ifndef SF_DISCOVER_CHAIN_H
#define SF_DISCOVER_CHAIN_H

#include "base/error.h"
#include "input/dataset.h"

#include <stddef.h>

/* The levels of the extrapolated input and the folds over them. */
typedef struct sf_chain {
	size_t rows;
	size_t *row; /* sorted position -> row, by level then row */
	size_t nlevels;
	double *levels; /* ascending */
	size_t *start;  /* rows of level l: [start[l], start[l + 1]) */
	size_t nfolds;
	size_t *last; /* fold f fits levels 0..last[f] */
} sf_chain;

/*
 * Sort the rows of d by input x (ties by row) into c, and make the folds.
 * Returns SF_OK; SF_EVALUE when x takes fewer than 3 values (forward
 * chaining needs two to fit and one to predict), SF_ENOMEM.  On error c
 * is left empty.
 */
int sf_chain_make(const sf_dataset *d, size_t x, sf_chain *c, sf_error *err);

/* Release c's arrays and leave it empty. */
void sf_chain_free(sf_chain *c);

/*
 * Fold f's weight in a formula's score: 1 for the last fold (it fits all
 * but the top level, so it sees most of what the answer will
 * extrapolate from), halved for each fold before it: the largest
 * training levels count most, as in the intervals' chain (interval.h).
 */
double sf_chain_fold_weight(const sf_chain *c, size_t f);

/* The sum of every fold's weight. */
double sf_chain_fold_weights(const sf_chain *c);

#endif /* SF_DISCOVER_CHAIN_H */
