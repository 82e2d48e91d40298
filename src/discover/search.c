/*
 * search.c - the table of formulas, their scoring in parallel (threads,
 * or units of work over MPI ranks), the beams, the swaps and the
 * non-linear variants (search.h).
 */
#include "discover/search.h"
#include "base/grow.h"
#include "base/units.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#ifdef _OPENMP
#include <omp.h>
#endif

/* The Gram matrices' stride. */
enum { MAXC = SF_SCORE_MAXC };

/* The formulas of each number of terms whose terms are swapped, and how
 * many times (swap_search). */
enum { SWAP_WIDTH = 4, SWAP_ROUNDS = 1 };

static uint64_t
atoms_hash(const uint32_t *atom, size_t n)
{
	uint64_t h = 1469598103934665603u ^ n;

	for (size_t q = 0; q < n; q++)
		h = (h ^ atom[q]) * 1099511628211u;
	return h ^ (h >> 29);
}

static int
grow_hash(sf_search *s)
{
	size_t cap = s->hcap ? 2 * s->hcap : 4096;
	uint64_t *key = malloc(cap * sizeof *key);
	size_t *slot = malloc(cap * sizeof *slot);

	if (key == NULL || slot == NULL) {
		free(key);
		free(slot);
		return -1;
	}
	for (size_t t = 0; t < cap; t++)
		slot[t] = SIZE_MAX;
	for (size_t t = 0; t < s->hcap; t++) {
		size_t u;
		if (s->slot[t] == SIZE_MAX)
			continue;
		for (u = s->key[t] & (cap - 1); slot[u] != SIZE_MAX;
		     u = (u + 1) & (cap - 1))
			;
		key[u] = s->key[t];
		slot[u] = s->slot[t];
	}
	free(s->key);
	free(s->slot);
	s->key = key;
	s->slot = slot;
	s->hcap = cap;
	return 0;
}

/* The linear formula of atoms (ascending): its index, added (*added =
 * 1) unless it was seen; SIZE_MAX when out of memory. */
static size_t
add_formula(sf_search *s, const uint32_t *atom, size_t n, int *added)
{
	uint64_t h = atoms_hash(atom, n);
	size_t t;
	sf_entry *e, *grown;

	*added = 0;
	if (2 * (s->n + 1) > s->hcap && grow_hash(s) != 0)
		return SIZE_MAX;
	for (t = h & (s->hcap - 1); s->slot[t] != SIZE_MAX;
	     t = (t + 1) & (s->hcap - 1)) {
		const sf_entry *o = &s->e[s->slot[t]];
		if (s->key[t] == h && o->variant == SF_VARIANT_NONE &&
		    o->nterms == n &&
		    memcmp(o->atom, atom, n * sizeof *atom) == 0)
			return s->slot[t];
	}
	if ((grown = sf_grow(s->e, &s->cap, s->n, sizeof *grown, 1024)) == NULL)
		return SIZE_MAX;
	s->e = grown;
	e = &s->e[s->n];
	memset(e, 0, sizeof *e);
	memcpy(e->atom, atom, n * sizeof *atom);
	e->nterms = (unsigned char)n;
	e->k = n + 1;
	e->parent = SIZE_MAX;
	for (size_t q = 0; q < n; q++)
		e->cost += (size_t)(s->g->shapes[atom[q]].cost +
		                    s->g->shapes[atom[q]].count);
	s->key[t] = h;
	s->slot[t] = s->n;
	*added = 1;
	return s->n++;
}

/*
 * Score entries [a, b) of the range that starts at from in parallel, each
 * by one thread, so that the scores do not depend on how many there are;
 * s->parent_slot holds the range's parents (evaluate_range).
 */
static void
score_entries(sf_search *s, size_t from, size_t a, size_t b)
{
	const sf_grammar *g = s->g;
	const size_t *slot = s->parent_slot;
	long n = (long)(b - a);

#ifdef _OPENMP
#pragma omp parallel for num_threads(s->threads) schedule(dynamic, 16)
#endif
	for (long q = 0; q < n; q++) {
		sf_entry *e = &s->e[a + (size_t)q];
		size_t k = slot[a + (size_t)q - from];
		int t = 0;

#ifdef _OPENMP
		t = omp_get_thread_num();
#endif
		if (k != SIZE_MAX) {
			const double *pcols[MAXC];
			size_t kp =
			    sf_entry_columns(g, &s->e[s->parent_of[k]], pcols);
			sf_score_child(g, &s->ws[t], &s->parents[k], pcols, kp,
			               e);
		} else {
			sf_score_entry(g, &s->ws[t], e, NULL, NULL, NULL);
		}
	}
}

/*
 * A range of formulas to score as units of work (base/units.h): unit u is
 * entries [from + u per, from + (u + 1) per) (the last one shorter), its
 * result their scores, copied as bytes.
 */
typedef struct range_units {
	sf_search *s;
	size_t from, to, per;
} range_units;

/* A range is cut into UNITS_PER_RANK units per rank of an MPI job, of at
 * least UNIT_MIN formulas: enough for the queue to balance the ranks, few
 * enough that each unit's threads share a sizeable loop.  A range of
 * fewer than SPREAD_MIN formulas (the start-up alone, one parent's
 * children) is scored where it is, by every rank: a collective step
 * would cost more.  Without ranks to spread over, a range is one loop. */
enum { UNITS_PER_RANK = 16, UNIT_MIN = 8, SPREAD_MIN = 128 };

static int
range_unit(void *ctx, size_t u, char **out, size_t *size, sf_error *err)
{
	const range_units *c = ctx;
	size_t a = c->from + u * c->per;
	size_t b = c->to - a < c->per ? c->to : a + c->per;
	sf_score *v = malloc((b - a) * sizeof *v + 1);

	if (v == NULL)
		return sf_error_set(err, SF_ENOMEM, "out of memory");
	score_entries(c->s, c->from, a, b);
	for (size_t i = a; i < b; i++)
		v[i - a] = c->s->e[i].sc;
	*out = (char *)v;
	*size = (b - a) * sizeof *v;
	return SF_OK;
}

/*
 * Score entries [from, to).  A formula that extends a parent by one shape
 * starts from the parent's level Gram matrices, computed once per parent
 * (in s->parents, at most s->nparents) first, by every rank.  A large
 * range is scored as units of work, spread over an MPI job's ranks; each
 * formula's score is the same bytes whichever rank and thread computed
 * it.  Returns SF_OK or an error (out of memory; another rank stopped).
 */
static int
evaluate_range(sf_search *s, size_t from, size_t to, sf_error *err)
{
	const sf_grammar *g = s->g;
	size_t np = 0, *slot = s->parent_slot, nunits;
	range_units c = {s, from, to, 0};
	char **results = NULL;
	size_t *sizes = NULL;
	int rc;

	for (size_t i = from; i < to; i++) {
		size_t p = s->e[i].parent, q;

		slot[i - from] = SIZE_MAX;
		if (p == SIZE_MAX)
			continue;
		for (q = 0; q < np && s->parent_of[q] != p; q++)
			;
		if (q == np && np < s->nparents) {
			const double *pcols[MAXC];
			size_t kp = sf_entry_columns(g, &s->e[p], pcols);

			sf_score_level_grams(g, &s->parents[np], pcols, kp,
			                     g->ch.nlevels - 1);
			s->parent_of[np++] = p;
		}
		if (q < np)
			slot[i - from] = q;
	}
	if (to - from < SPREAD_MIN || !sf_units_spread()) {
		score_entries(s, from, from, to);
		return SF_OK;
	}
	nunits = UNITS_PER_RANK * (size_t)sf_units_ranks();
	c.per = (to - from + nunits - 1) / nunits;
	if (c.per < UNIT_MIN)
		c.per = UNIT_MIN;
	nunits = (to - from + c.per - 1) / c.per;
	results = calloc(nunits, sizeof *results);
	sizes = calloc(nunits, sizeof *sizes);
	if (results == NULL || sizes == NULL) {
		free(results);
		free(sizes);
		return sf_error_set(err, SF_ENOMEM, "out of memory");
	}
	if ((rc = sf_units_run(nunits, range_unit, &c, results, sizes, err)) ==
	    SF_OK)
		for (size_t u = 0; u < nunits; u++)
			for (size_t i = 0; i < sizes[u] / sizeof(sf_score); i++)
				memcpy(&s->e[from + u * c.per + i].sc,
				       results[u] + i * sizeof(sf_score),
				       sizeof(sf_score));
	for (size_t u = 0; u < nunits; u++)
		free(results[u]);
	free(results);
	free(sizes);
	return rc;
}

/* By score, then AICc, then place in the search. */
static int
by_score(const void *a, const void *b)
{
	const sf_ranked *x = a, *y = b;

	if (x->score != y->score)
		return x->score < y->score ? -1 : 1;
	if (x->aicc != y->aicc)
		return x->aicc < y->aicc ? -1 : 1;
	return x->index < y->index ? -1 : x->index > y->index;
}

int
sf_ranked_by_rule(const void *a, const void *b)
{
	const sf_ranked *x = a, *y = b;

	if (x->tied != y->tied)
		return x->tied ? -1 : 1;
	if (!x->tied)
		return by_score(a, b);
	if (x->k != y->k)
		return x->k < y->k ? -1 : 1;
	if (x->supported != y->supported)
		return x->supported ? -1 : 1;
	if (x->cost != y->cost)
		return x->cost < y->cost ? -1 : 1;
	if (x->aicc != y->aicc)
		return x->aicc < y->aicc ? -1 : 1;
	return by_score(a, b);
}

sf_ranked
sf_ranked_of(const sf_entry *e, size_t index)
{
	sf_ranked r = {e->sc.score, e->sc.se, e->sc.aicc, e->k,
	               e->cost,     index,    0,          0};

	if (!(r.aicc == r.aicc))
		r.aicc = INFINITY;
	return r;
}

/* By AICc on the training rows, then place in the search. */
static int
by_aicc(const void *a, const void *b)
{
	const sf_ranked *x = a, *y = b;

	if (x->aicc != y->aicc)
		return x->aicc < y->aicc ? -1 : 1;
	return x->index < y->index ? -1 : x->index > y->index;
}

/*
 * The beam: the width best of entries [from, to) by score, and the width
 * best by AICc not among them (up to 2 width in all).  The score chooses
 * the formula; the AICc, which sees every row rather than the folds'
 * predictions, is the surer guide to which terms are missing: a formula
 * lacking one of two large terms can extrapolate worse than a wrong one
 * that mimics both, and then only the AICc keeps it to be completed.
 */
static size_t
choose_beam(const sf_search *s, const size_t *list, size_t n, size_t *beam,
            sf_ranked *scratch)
{
	size_t width = s->st->beam, nscore = 0, naicc = 0, kept = 0;
	sf_ranked *by_s = scratch, *by_a = scratch + width + 1;
	const size_t awidth = 2 * width; /* width more than the score's */

	/* the width best of each order, by insertion: the lists are long */
	for (size_t i = 0; i < n; i++) {
		sf_ranked x;
		size_t at;

		if (!s->e[list[i]].sc.valid)
			continue;
		x = sf_ranked_of(&s->e[list[i]], list[i]);
		for (at = nscore; at > 0 && by_score(&x, &by_s[at - 1]) < 0;
		     at--)
			;
		if (at < width) {
			nscore -= nscore == width;
			memmove(by_s + at + 1, by_s + at,
			        (nscore - at) * sizeof *by_s);
			by_s[at] = x;
			nscore++;
		}
		for (at = naicc; at > 0 && by_aicc(&x, &by_a[at - 1]) < 0; at--)
			;
		if (at < awidth) {
			naicc -= naicc == awidth;
			memmove(by_a + at + 1, by_a + at,
			        (naicc - at) * sizeof *by_a);
			by_a[at] = x;
			naicc++;
		}
	}
	for (size_t i = 0; i < nscore; i++)
		beam[kept++] = by_s[i].index;
	for (size_t i = 0; i < naicc && kept < nscore + width; i++) {
		int seen = 0;
		for (size_t q = 0; q < nscore && !seen; q++)
			seen = beam[q] == by_a[i].index;
		if (!seen)
			beam[kept++] = by_a[i].index;
	}
	return kept;
}

static int
index_compare(const void *a, const void *b)
{
	size_t x = *(const size_t *)a, y = *(const size_t *)b;

	return x < y ? -1 : x > y;
}

/*
 * One stage of the search: a beam search over the number of terms from
 * the start-up alone, with the shapes of at most max_factors factors.
 * Formulas scored by an earlier stage are not scored again, but compete
 * for the beam; and the earlier stage's beam of each level (carry, with
 * ncarry[level] members) stays in this stage's, so that sums of simple
 * shapes are completed even where products of factors that mimic a sum
 * of them fit better with fewer terms.  This stage's beams go to carry.
 */
static int
beam_stage(sf_search *s, int max_factors, size_t **carry, size_t *ncarry,
           sf_error *err)
{
	const sf_grammar *g = s->g;
	size_t width = 2 * s->st->beam, nbeam = 1, *list = NULL, nlist;
	size_t cap = 2 * width + 1;
	size_t *beam = malloc(cap * sizeof *beam);
	sf_ranked *scratch = NULL;
	uint32_t atoms[SF_DISCOVER_MAX_TERMS];
	int rc = SF_OK, added;

	list = malloc((cap * g->nshapes + 1) * sizeof *list);
	scratch = malloc((3 * width + 2) * sizeof *scratch);
	if (beam == NULL || list == NULL || scratch == NULL ||
	    (beam[0] = add_formula(s, atoms, 0, &added)) == SIZE_MAX) {
		rc = sf_error_set(err, SF_ENOMEM, "out of memory");
		goto done;
	}
	if (added && (rc = evaluate_range(s, beam[0], s->n, err)) != SF_OK)
		goto done;
	for (size_t level = 1; level <= s->st->max_terms; level++) {
		size_t from = s->n;

		/* more constants than the first fold has configurations */
		if (level + 1 > g->min_configs)
			break;
		nlist = 0;
		for (size_t p = 0; p < nbeam && !s->budget_reached; p++) {
			const sf_entry parent = s->e[beam[p]];

			for (uint32_t a = 0; a < g->nshapes; a++) {
				size_t q = 0, n = 0, i;

				if (g->shapes[a].nfactors > max_factors)
					continue;
				if (sf_setup_stop(s->st, s->n) != 0) {
					s->budget_reached = 1;
					break;
				}
				while (q < parent.nterms && parent.atom[q] < a)
					atoms[n++] = parent.atom[q++];
				if (q < parent.nterms && parent.atom[q] == a)
					continue;
				atoms[n++] = a;
				while (q < parent.nterms)
					atoms[n++] = parent.atom[q++];
				if ((i = add_formula(s, atoms, n, &added)) ==
				    SIZE_MAX) {
					rc = sf_error_set(err, SF_ENOMEM,
					                  "out of memory");
					goto done;
				}
				if (added) {
					s->e[i].parent = beam[p];
					s->e[i].added = a;
				}
				list[nlist++] = i;
			}
		}
		if (nlist == 0)
			break;
		if ((rc = evaluate_range(s, from, s->n, err)) != SF_OK)
			goto done;
		/* a formula two parents make is one candidate */
		qsort(list, nlist, sizeof *list, index_compare);
		{
			size_t u = 0;
			for (size_t i = 0; i < nlist; i++)
				if (u == 0 || list[u - 1] != list[i])
					list[u++] = list[i];
			nlist = u;
		}
		nbeam = choose_beam(s, list, nlist, beam, scratch);
		for (size_t c = 0; c < ncarry[level] && nbeam < cap; c++) {
			int seen = 0;
			for (size_t q = 0; q < nbeam && !seen; q++)
				seen = beam[q] == carry[level][c];
			if (!seen)
				beam[nbeam++] = carry[level][c];
		}
		memcpy(carry[level], beam, nbeam * sizeof *beam);
		ncarry[level] = nbeam;
		if (nbeam == 0 || s->budget_reached)
			break;
	}
done:
	free(beam);
	free(list);
	free(scratch);
	return rc;
}

/* The search: a stage with one-factor shapes, then one with up to two,
 * and so on to `factors`, so that sums of simple shapes get their own
 * chance before products of factors, which can mimic a sum well enough
 * to crowd its parts out of a beam. */
static int
beam_search(sf_search *s, sf_error *err)
{
	size_t cap = 4 * s->st->beam + 1, levels = s->st->max_terms + 1;
	size_t **carry = calloc(levels, sizeof *carry);
	size_t *ncarry = calloc(levels, sizeof *ncarry);
	int rc = SF_OK;

	for (size_t l = 0; carry != NULL && l < levels; l++)
		if ((carry[l] = malloc(cap * sizeof **carry)) == NULL)
			rc = SF_ENOMEM;
	if (carry == NULL || ncarry == NULL || rc != SF_OK)
		rc = sf_error_set(err, SF_ENOMEM, "out of memory");
	for (size_t f = 1; f <= s->st->factors && rc == SF_OK; f++)
		rc = beam_stage(s, (int)f, carry, ncarry, err);
	for (size_t l = 0; carry != NULL && l < levels; l++)
		free(carry[l]);
	free(carry);
	free(ncarry);
	return rc;
}

/*
 * The formulas that replace term q of base by each other shape.  The
 * formula without term q is their parent: it is scored first if it was
 * not, and they start from its Gram matrices.
 */
static int
swap_term(sf_search *s, const sf_entry *base, size_t q, sf_error *err)
{
	const sf_grammar *g = s->g;
	uint32_t rest[SF_DISCOVER_MAX_TERMS], atoms[SF_DISCOVER_MAX_TERMS];
	size_t m = 0, sub, i;
	int added, rc;

	for (size_t z = 0; z < base->nterms; z++)
		if (z != q)
			rest[m++] = base->atom[z];
	if ((sub = add_formula(s, rest, m, &added)) == SIZE_MAX)
		return sf_error_set(err, SF_ENOMEM, "out of memory");
	if (added && (rc = evaluate_range(s, sub, s->n, err)) != SF_OK)
		return rc;
	for (uint32_t a = 0; a < g->nshapes; a++) {
		size_t n = 0, r = 0;

		if (a == base->atom[q])
			continue;
		if (sf_setup_stop(s->st, s->n) != 0) {
			s->budget_reached = 1;
			break;
		}
		while (r < m && rest[r] < a)
			atoms[n++] = rest[r++];
		if (r < m && rest[r] == a)
			continue;
		atoms[n++] = a;
		while (r < m)
			atoms[n++] = rest[r++];
		if ((i = add_formula(s, atoms, n, &added)) == SIZE_MAX)
			return sf_error_set(err, SF_ENOMEM, "out of memory");
		if (added) {
			s->e[i].parent = sub;
			s->e[i].added = a;
		}
	}
	return SF_OK;
}

/* The SWAP_WIDTH formulas of nterms terms with the lowest AICc (ties to
 * the earlier) into top; returns how many. */
static size_t
lowest_aicc(const sf_search *s, size_t nterms, sf_ranked *top)
{
	size_t ntop = 0;

	for (size_t i = 0; i < s->n; i++) {
		const sf_entry *e = &s->e[i];
		sf_ranked x = sf_ranked_of(e, i);
		size_t at = ntop;

		if (e->variant != SF_VARIANT_NONE || e->nterms != nterms ||
		    !e->sc.valid)
			continue;
		while (at > 0 && by_aicc(&x, &top[at - 1]) < 0)
			at--;
		if (at == SWAP_WIDTH)
			continue;
		if (ntop == SWAP_WIDTH)
			ntop--;
		memmove(top + at + 1, top + at, (ntop - at) * sizeof *top);
		top[at] = x;
		ntop++;
	}
	return ntop;
}

/*
 * Swaps: the SWAP_WIDTH formulas of each number of terms with the lowest
 * AICc, each with one term replaced by every other shape, SWAP_ROUNDS
 * times over.  A beam adds a term at a time and keeps what fits best so
 * far, so a term that stood in for two others until one of them arrived
 * is never taken back; a swap takes it back.
 */
static int
swap_search(sf_search *s, sf_error *err)
{
	sf_ranked top[SWAP_WIDTH];
	int rc = SF_OK;

	for (size_t terms = 2; terms <= s->st->max_terms; terms++)
		for (int round = 0; round < SWAP_ROUNDS; round++) {
			size_t ntop = lowest_aicc(s, terms, top), from = s->n;

			for (size_t t = 0; t < ntop && rc == SF_OK; t++) {
				const sf_entry base = s->e[top[t].index];
				for (size_t q = 0; q < terms && rc == SF_OK;
				     q++)
					rc = swap_term(s, &base, q, err);
			}
			if (rc != SF_OK)
				return rc;
			if (s->n == from)
				break;
			if ((rc = evaluate_range(s, from, s->n, err)) != SF_OK)
				return rc;
		}
	return SF_OK;
}

/* Append a variant of entry base. */
static int
add_variant(sf_search *s, size_t base, int variant, size_t a, size_t b,
            double lo, double hi)
{
	sf_entry *e, *grown;

	if ((grown = sf_grow(s->e, &s->cap, s->n, sizeof *grown, 1024)) == NULL)
		return -1;
	s->e = grown;
	e = &s->e[s->n++];
	*e = s->e[base];
	e->variant = (unsigned char)variant;
	e->parent = SIZE_MAX;
	e->a = (unsigned char)a;
	e->b = (unsigned char)b;
	e->lo = lo;
	e->hi = hi;
	/* an overlap keeps the count (two constants in the max); a fitted
	 * exponent adds one */
	e->k = e->nterms + 1 + (variant == SF_VARIANT_EXPONENT);
	e->cost++;
	memset(&e->sc, 0, sizeof e->sc);
	return 0;
}

/* The overlaps of every pair of base's terms. */
static int
add_overlaps(sf_search *s, size_t base)
{
	const sf_grammar *g = s->g;
	const sf_entry e = s->e[base];

	for (size_t a = 0; a < e.nterms; a++)
		for (size_t b = a + 1; b < e.nterms; b++) {
			const double *u = g->col + (size_t)e.atom[a] * g->rows;
			const double *v = g->col + (size_t)e.atom[b] * g->rows;
			double lo = INFINITY, hi = 0;

			for (size_t r = 0; r < g->rows; r++)
				if (u[r] > 0 && v[r] > 0) {
					double q = u[r] / v[r];
					lo = q < lo ? q : lo;
					hi = q > hi ? q : hi;
				}
			/* proportional: the max is one of them */
			if (!(lo < hi * (1 - 1e-9)) ||
			    sf_setup_stop(s->st, s->n) != 0)
				continue;
			if (add_variant(s, base, SF_VARIANT_OVERLAP, a, b, lo,
			                hi) != 0)
				return -1;
		}
	return 0;
}

/* Each grid exponent of base's terms fitted instead. */
static int
add_exponents(sf_search *s, size_t base)
{
	const sf_grammar *g = s->g;
	const sf_entry e = s->e[base];

	for (size_t a = 0; a < e.nterms; a++) {
		const sf_shape *sh = &g->shapes[e.atom[a]];

		for (int q = 0; q < sh->nfactors; q++) {
			const double *x =
			    g->x + (size_t)sh->f[q].input * g->rows;
			int positive = 1;
			double least, most;

			for (size_t r = 0; r < g->rows; r++)
				positive &= x[r] > 0;
			if (sh->f[q].kind != SF_FACTOR_POWER || !positive ||
			    e.k + 1 > g->min_configs ||
			    sf_setup_stop(s->st, s->n) != 0)
				continue;
			/* the shape's exponent passed both bounds, which
			 * are 2 - j / 2 >= 0.5 apart (logs up to 3): there
			 * is room either side of it or on one */
			least =
			    fmax(sh->f[q].i - 0.5,
			         sf_grammar_least_exponent(
			             s->st, &sh->f[q], sh->count, sh->steps));
			most =
			    fmin(sh->f[q].i + 0.5,
			         sf_grammar_most_exponent(
			             s->st, &sh->f[q], sh->count, sh->steps));
			if (add_variant(s, base, SF_VARIANT_EXPONENT, a,
			                (size_t)q, least, most) != 0)
				return -1;
		}
	}
	return 0;
}

/*
 * The non-linear variants: of the best formulas of each number of terms
 * (as the beam chooses them) the overlaps of their pairs of terms and,
 * when asked for, their fitted exponents; and the overlap of every pair
 * of the best single shapes, whose sum may have fitted too badly for a
 * beam to keep it (the max of two parts is not near their sum).
 */
static int
variants(sf_search *s, sf_error *err)
{
	size_t linear = s->n, *best, nbest = 0, nsingle = 0, *list;
	size_t width = 2 * s->st->beam;
	sf_ranked *scratch = malloc((3 * s->st->beam + 2) * sizeof *scratch);
	int added, rc;

	best = malloc((width * (s->st->max_terms + 1) + 1) * sizeof *best);
	list = malloc((linear + width * width + 1) * sizeof *list);
	if (scratch == NULL || best == NULL || list == NULL)
		goto oom;
	for (size_t terms = 1; terms <= s->st->max_terms; terms++) {
		size_t n = 0;
		for (size_t i = 0; i < linear; i++)
			if (s->e[i].variant == SF_VARIANT_NONE &&
			    s->e[i].nterms == terms)
				list[n++] = i;
		n = choose_beam(s, list, n, best + nbest, scratch);
		if (terms == 1)
			nsingle = n;
		nbest += n;
	}
	/* the sums of pairs of the best singles, to overlap */
	if (s->st->space.overlap && s->st->max_terms >= 2 &&
	    s->g->min_configs >= 3) {
		size_t from = s->n, npairs = 0;

		for (size_t i = 0; i < nsingle; i++)
			for (size_t j = i + 1; j < nsingle; j++) {
				uint32_t a = s->e[best[i]].atom[0];
				uint32_t b = s->e[best[j]].atom[0];
				uint32_t pair[2] = {a < b ? a : b,
				                    a < b ? b : a};
				size_t k = add_formula(s, pair, 2, &added);

				if (k == SIZE_MAX)
					goto oom;
				list[npairs++] = k;
			}
		if ((rc = evaluate_range(s, from, s->n, err)) != SF_OK)
			goto fail;
		for (size_t i = 0; i < npairs; i++)
			if (add_overlaps(s, list[i]) != 0)
				goto oom;
	}
	for (size_t i = 0; i < nbest; i++)
		if ((s->st->space.overlap && add_overlaps(s, best[i]) != 0) ||
		    (s->st->space.continuous && add_exponents(s, best[i]) != 0))
			goto oom;
	free(best);
	free(list);
	free(scratch);
	return evaluate_range(s, linear, s->n, err);
oom:
	rc = sf_error_set(err, SF_ENOMEM, "out of memory");
fail:
	free(best);
	free(list);
	free(scratch);
	return rc;
}

int
sf_search_open(sf_search *s, const sf_grammar *g, const sf_setup *st,
               int threads, sf_error *err)
{
	memset(s, 0, sizeof *s);
#ifdef _OPENMP
	s->threads = threads > 0 ? threads : omp_get_max_threads();
#else
	(void)threads;
	s->threads = 1;
#endif
	s->g = g;
	s->st = st;
	s->nparents = 4 * st->beam + 1;
	s->ws = calloc((size_t)s->threads, sizeof *s->ws);
	s->parents = calloc(s->nparents, sizeof *s->parents);
	s->parent_of = malloc(s->nparents * sizeof *s->parent_of);
	s->parent_slot = malloc((s->nparents * g->nshapes +
	                         st->beam * 64 * SF_DISCOVER_MAX_TERMS + 1) *
	                        sizeof *s->parent_slot);
	if (s->ws == NULL || s->parents == NULL || s->parent_of == NULL ||
	    s->parent_slot == NULL)
		return sf_error_set(err, SF_ENOMEM, "out of memory");
	for (size_t i = 0; i < s->nparents; i++)
		if (!sf_score_ws_alloc(&s->parents[i], g))
			return sf_error_set(err, SF_ENOMEM, "out of memory");
	for (int t = 0; t < s->threads; t++)
		if (!sf_score_ws_alloc(&s->ws[t], g))
			return sf_error_set(err, SF_ENOMEM, "out of memory");
	return SF_OK;
}

int
sf_search_run(sf_search *s, sf_error *err)
{
	int rc;

	if ((rc = beam_search(s, err)) != SF_OK ||
	    (rc = swap_search(s, err)) != SF_OK)
		return rc;
	return variants(s, err);
}

void
sf_search_close(sf_search *s)
{
	for (int t = 0; s->ws != NULL && t < s->threads; t++)
		sf_score_ws_free(&s->ws[t]);
	free(s->ws);
	for (size_t i = 0; s->parents != NULL && i < s->nparents; i++)
		sf_score_ws_free(&s->parents[i]);
	free(s->parents);
	free(s->parent_of);
	free(s->parent_slot);
	free(s->e);
	free(s->key);
	free(s->slot);
	memset(s, 0, sizeof *s);
}
