/*
 * board.h - the board of `scalefit discover` (discover.h): every formula
 * the search scored and every formula of the model file ranked by the
 * selection rule, the top discovered ones and the file's own written out
 * as candidates - their terms named by kind (compute, comm, io, ...),
 * their shapes and expressions, their constants fitted on the training
 * rows with bounds for a model file, and the formula for people.
 *
 * The tie: formulas whose score is within two standard errors of the best
 * one's (or within a relative `tie`, if that is wider) are tied, and the
 * simplest tied one wins (sf_ranked_by_rule).  A formula that is its
 * simpler self (a constant 0 on every row, an overlap whose one side never
 * wins) is not chosen, and a formula reached two ways is shown once.
 *
 * Ownership: candidates own their strings and arrays
 * (sf_board_candidate_free).
 */
#ifndef SF_DISCOVER_BOARD_H
#define SF_DISCOVER_BOARD_H

#include "base/error.h"
#include "discover/discover.h"
#include "discover/search.h"

#include <stddef.h>

/*
 * Rank the search's formulas and given[0..ngiven) (the model file's own,
 * scored alike; each is moved onto the board and left zeroed) and fill
 * r's board, best_score, band and winner: the st->top best discovered
 * formulas and every given one, in the rule's order.  Uses the search's
 * first workspace.  Returns SF_OK; SF_EFAIL when no formula could be
 * fitted; SF_ENOMEM.
 */
int sf_board_make(sf_discover_result *r, sf_search *s, const sf_setup *st,
                  sf_discover_candidate *given, size_t ngiven, sf_error *err);

/* 1 when c is a formula of the model file that can be in an ensemble:
 * not the library's, and no input of its own. */
int sf_board_file_member(const sf_discover_candidate *c);

/*
 * Choose r's ensemble again with board formula lead first (the held-back
 * check's answer when it refuted the search: a formula of the model
 * file): then only the model file's formulas join, by the rule that
 * sf_board_make applies to the winner's company, at most max in all.
 */
void sf_board_lead(sf_discover_result *r, size_t lead, size_t max);

/* The formula of c for people, its constants written in ("0.019 +
 * 0.47 / p"), malloc'd; NULL when out of memory. */
char *sf_board_formula_text(const sf_discover_candidate *c);

/* Release c's strings and arrays (not c). */
void sf_board_candidate_free(sf_discover_candidate *c);

#endif /* SF_DISCOVER_BOARD_H */
