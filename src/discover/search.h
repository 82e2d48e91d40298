/*
 * search.h - the search over formulas of the grammar (discover.h): a table
 * of every formula scored, each kept once, and the strategy that fills it.
 *
 * Beam searches over the number of terms, first with one-factor shapes,
 * then with up to `factors`: at each number of terms the `beam` best
 * formulas by score and the `beam` best by AICc (which sees every row,
 * and so which terms are missing) are each extended by every shape, and a
 * simpler stage's beam stays in the next.  Then the SWAP_WIDTH formulas
 * of each number of terms with the lowest AICc have each term swapped for
 * every other shape (a beam never takes back a term that stood in for
 * two); and the overlaps of the pairs of terms of the best formulas and of
 * the best single shapes and, when asked for, their exponent variants.
 * The search stops adding formulas at the budget.
 *
 * Scoring is parallel: each step's new formulas are scored by OpenMP
 * threads (each with its own workspace) or, in an MPI job, spread over
 * the ranks as units of work (base/units.h); a formula's score is the
 * same bytes whichever thread or rank computed it, and every choice is
 * made serially in a fixed order with the formula's place in the table as
 * the last tie-break, so the result does not depend on either count.
 *
 * Ownership: an sf_search owns its table and workspaces (sf_search_close)
 * and borrows the grammar and the setup.
 */
#ifndef SF_DISCOVER_SEARCH_H
#define SF_DISCOVER_SEARCH_H

#include "base/error.h"
#include "discover/score.h"

#include <stddef.h>
#include <stdint.h>

/* The search: the formulas scored (e[0..n)) and the scratch to score
 * more. */
typedef struct sf_search {
	const sf_grammar *g;
	const sf_setup *st;
	sf_entry *e;
	size_t n, cap;
	uint64_t *key; /* open addressing over linear formulas */
	size_t *slot, hcap;
	int threads;
	sf_score_ws *ws;
	/* the level Gram matrices of the parents of the formulas being
	 * scored (nparents slots), shared by the threads */
	sf_score_ws *parents;
	size_t *parent_of, nparents;
	size_t *parent_slot; /* per formula being scored */
	int budget_reached;
} sf_search;

/* An index with the keys it is ranked by. */
typedef struct sf_ranked {
	double score, se, aicc;
	size_t k, cost, index;
	int tied;
	int supported; /* tied, its AICc within 10 of its k's lowest */
} sf_ranked;

/*
 * Open a search of g under st, scored by threads OpenMP threads (<= 0:
 * as many as OpenMP offers): the table empty, the workspaces allocated.
 * Returns SF_OK or SF_ENOMEM; s is the caller's to close either way.
 */
int sf_search_open(sf_search *s, const sf_grammar *g, const sf_setup *st,
                   int threads, sf_error *err);

/* Search: the beams, the swaps, the variants (above).  Returns SF_OK;
 * SF_ENOMEM; an error of the units of work (another rank stopped). */
int sf_search_run(sf_search *s, sf_error *err);

/* Release s's table and workspaces. */
void sf_search_close(sf_search *s);

/* Formula e, at index in the table, with the keys it is ranked by. */
sf_ranked sf_ranked_of(const sf_entry *e, size_t index);

/*
 * The selection rule, for qsort over sf_ranked: the tied first, the
 * simplest first - fewer constants; then, among as many constants, those
 * whose AICc is within 10 of the lowest (Burnham and Anderson: beyond 10
 * a formula has essentially no support; closer than that, the rows do not
 * tell them apart), by simpler shapes, then AICc - then the rest by
 * score, AICc and place in the search.
 */
int sf_ranked_by_rule(const void *a, const void *b);

#endif /* SF_DISCOVER_SEARCH_H */
