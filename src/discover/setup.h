/*
 * setup.h - the settings of one search (discover.h): the discover: block's,
 * the command line's overrides and the defaults, and the roles of the
 * inputs - the one extrapolated along, the count, the workers, the batch
 * (per worker and step) and those the factors may use - resolved against
 * the data's inputs, an unknown or text input reported at its place in the
 * model file.
 *
 * The loss is the model's or the options', mapped to the two the search
 * knows: sse, else relative.
 *
 * Ownership: an sf_setup owns its use array (sf_setup_free).  Thread-safe.
 */
#ifndef SF_DISCOVER_SETUP_H
#define SF_DISCOVER_SETUP_H

#include "base/error.h"
#include "discover/discover.h"
#include "input/dataset.h"
#include "input/model.h"

#include <stddef.h>
#include <time.h>

/* Why a search stopped before it was done (sf_setup_stop). */
enum { SF_DISCOVER_STOP_BUDGET = 1, SF_DISCOVER_STOP_TIME = 2 };

/* The settings of one search: the block's, the options' overrides and
 * the defaults, and the roles of the inputs (indices into the dataset's
 * inputs, -1 for none). */
typedef struct sf_setup {
	size_t factors, max_terms, beam, budget, top, members;
	struct timespec start; /* when the search began (base/clock.h) */
	double time_limit;     /* seconds from start; 0: none */
	sf_discover_space space;
	int extrap, count, workers;
	int batch; /* -1 without a count and workers too: the whole steps
	              ceil(count / (workers batch)) need all three */
	int *use;  /* per input: 1 when factors may use it */
	sf_loss loss;
} sf_setup;

/*
 * The settings of the search of m's data d (all rows) under the block s
 * and the options o into st.  Returns SF_OK; SF_ENAME for a name in s or
 * o that is not a numeric input (at its position in m's file when it
 * comes from there), a count that is the extrapolated input or among
 * discover.inputs, a discover.batch that is the count, the workers or the
 * extrapolated input; SF_EVALUE when no input says which to extrapolate
 * along, or for a discover.budget above SF_DISCOVER_MAX_BUDGET (at the
 * block); SF_EUSAGE for --max-terms above SF_DISCOVER_MAX_TERMS, or a
 * --budget above SF_DISCOVER_MAX_BUDGET; SF_ENOMEM.  st is the caller's to free
 * (sf_setup_free) either way.
 */
int sf_setup_make(const sf_model *m, const sf_model_discover *s,
                  const sf_dataset *d, const sf_discover_options *o,
                  sf_setup *st, sf_error *err);

/*
 * Why a search of st holding n formulas must score no more:
 * SF_DISCOVER_STOP_BUDGET when n has reached the budget,
 * SF_DISCOVER_STOP_TIME when the time limit has passed since st->start,
 * else 0.  The search asks before each formula it adds, so a step's
 * formulas are scored whole.  Thread-safe (it reads the clock).
 */
int sf_setup_stop(const sf_setup *st, size_t n);

/* Release st's use array. */
void sf_setup_free(sf_setup *st);

#endif /* SF_DISCOVER_SETUP_H */
