/*
 * chain.c - the levels of the extrapolated input and the folds over them
 * (chain.h).
 */
#include "discover/chain.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

void
sf_chain_free(sf_chain *c)
{
	free(c->row);
	free(c->levels);
	free(c->start);
	free(c->last);
	memset(c, 0, sizeof *c);
}

typedef struct keyed {
	double value;
	size_t row;
} keyed;

static int
keyed_compare(const void *a, const void *b)
{
	const keyed *x = a, *y = b;

	if (x->value != y->value)
		return x->value < y->value ? -1 : 1;
	return x->row < y->row ? -1 : x->row > y->row;
}

/* Sort the rows of d by input x and make the folds (discover.h). */
int
sf_chain_make(const sf_dataset *d, size_t x, sf_chain *c, sf_error *err)
{
	const double *v = d->inputs[x].values;
	keyed *k = malloc((d->rows + 1) * sizeof *k);
	size_t first;

	memset(c, 0, sizeof *c);
	c->rows = d->rows;
	c->row = malloc((d->rows + 1) * sizeof *c->row);
	c->levels = malloc((d->rows + 1) * sizeof *c->levels);
	c->start = malloc((d->rows + 2) * sizeof *c->start);
	c->last = malloc((d->rows + 1) * sizeof *c->last);
	if (k == NULL || c->row == NULL || c->levels == NULL ||
	    c->start == NULL || c->last == NULL) {
		free(k);
		sf_chain_free(c);
		return sf_error_set(err, SF_ENOMEM, "out of memory");
	}
	for (size_t r = 0; r < d->rows; r++)
		k[r].value = v[r], k[r].row = r;
	qsort(k, d->rows, sizeof *k, keyed_compare);
	for (size_t r = 0; r < d->rows; r++) {
		c->row[r] = k[r].row;
		if (r == 0 || k[r].value != k[r - 1].value) {
			c->start[c->nlevels] = r;
			c->levels[c->nlevels++] = k[r].value;
		}
	}
	c->start[c->nlevels] = d->rows;
	free(k);
	if (c->nlevels < 3) {
		int n = (int)c->nlevels;
		sf_chain_free(c);
		return sf_error_set(
		    err, SF_EVALUE,
		    "the training rows hold %d value%s of %s: forward "
		    "chaining needs at least 3 (fit on two, predict the "
		    "next); widen --train or extrapolate along another "
		    "input",
		    n, n == 1 ? "" : "s", d->inputs[x].name);
	}
	first = (c->nlevels + 1) / 2 - 1;
	if (first < 1)
		first = 1;
	for (size_t l = first; l + 1 < c->nlevels; l++)
		c->last[c->nfolds++] = l;
	return SF_OK;
}

double
sf_chain_fold_weight(const sf_chain *c, size_t f)
{
	size_t back = c->nfolds - 1 - f;

	return ldexp(1.0, -(int)(back < 60 ? back : 60));
}

double
sf_chain_fold_weights(const sf_chain *c)
{
	double w = 0;

	for (size_t f = 0; f < c->nfolds; f++)
		w += sf_chain_fold_weight(c, f);
	return w;
}
