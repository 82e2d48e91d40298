/*
 * expr_level.c - parts of a formula computed once per distinct value of
 * the few inputs they read.
 *
 * Training runs are measured on grids: a handful of worker counts and
 * batch sizes, each configuration often run several times.  A part of the
 * formula that reads a few inputs only, such as b^g or exp(-b / h), or the
 * whole formula over (p, b, n), then has no more distinct values in an
 * evaluation than those inputs have distinct combinations: their levels.
 * When such a part costs enough, it is computed once per level into a
 * table and every row reads its level's entry.  The same operations on the
 * same operands give the same bits as computing it row by row, so whether
 * a binding or a range of rows uses the tables never shows in a result.
 *
 * sf_level_plan() (compile time) finds the candidate tables: row-stage
 * instructions that depend on at most SF_SET_MAX inputs, are read by an
 * instruction of other inputs or by an output, and whose work within
 * their inputs (an exp, log or pow counting as many arithmetic
 * instructions) is worth more than a lookup per row.  Each gets a register
 * block after the row stage's: its table.
 *
 * sf_level_bind() (bind time) counts the levels of each candidate's input
 * set, by bit pattern (-0 and 0 differ), and takes the sets with at most
 * one level for every two rows and a block's worth at most.  The gather
 * code is the row stage with those tables' instructions replaced by
 * lookups of the row's level, and what only fed them dropped.  The level
 * code of a set computes the tables the gather code still reads, from the
 * levels' values of the columns (inputs, and data-stage results of them)
 * the set determines; where it needs a table of a levelled subset (b^g
 * inside the whole formula over p, b and n), it looks it up by the map
 * from its levels to the subset's, so the costly part runs once per level
 * of the subset (10 batch sizes) rather than of the set (28 runs).
 */
#include "expr/internal.h"

#include <stdlib.h>
#include <string.h>

#define B SF_EXPR_BLOCK

/* Slots of the hash table that finds a set's levels: a power of two, at
 * least twice the most levels a table holds (a block's worth, so that a
 * level fits in a byte). */
enum { LEVEL_SLOTS = 2 * B };
_Static_assert(B <= 256, "a level is a byte");

/* The most tables a program has (each is a register block of scratch) and
 * the most input sets a binding levels. */
enum { TABLES_MAX = 64, SETS_MAX = SF_LEVEL_SETS };

/* What a table is worth, in arithmetic instructions: an instruction that
 * calls libm or runs the exp or log kernel, and the least a table must be
 * worth (a lookup per row costs about as much as two instructions, and a
 * table has at most half as many levels as rows). */
enum { COSTLY_WEIGHT = 16, TABLE_WEIGHT = 6, WEIGHT_CAP = 1 << 20 };

static const sf_input_set no_inputs = {0, {0}};

static int
set_equal(const sf_input_set *a, const sf_input_set *b)
{
	if (a->n != b->n)
		return 0;
	for (int i = 0; i < a->n; i++)
		if (a->in[i] != b->in[i])
			return 0;
	return 1;
}

/* The union of a and b, or n = -1 when it has more than SF_SET_MAX. */
static sf_input_set
set_join(const sf_input_set *a, const sf_input_set *b)
{
	sf_input_set u = {0, {0}};
	int i = 0, j = 0;

	if (a->n < 0 || b->n < 0)
		return (sf_input_set){-1, {0}};
	while (i < a->n || j < b->n) {
		uint32_t v;

		if (j == b->n || (i < a->n && a->in[i] < b->in[j]))
			v = a->in[i++];
		else if (i == a->n || b->in[j] < a->in[i])
			v = b->in[j++];
		else
			v = a->in[i++], j++;
		if (u.n == SF_SET_MAX)
			return (sf_input_set){-1, {0}};
		u.in[u.n++] = v;
	}
	return u;
}

/* An instruction that calls libm or runs the exp or log kernel. */
static int
costly(const sf_instr *in)
{
	if (in->shape != SF_SHAPE_V && in->shape != SF_SHAPE_VV &&
	    in->shape != SF_SHAPE_VS && in->shape != SF_SHAPE_SV &&
	    in->shape != SF_SHAPE_GEN)
		return 0;
	switch (in->op) {
	case SF_OP_EXP:
	case SF_OP_LOG:
	case SF_OP_LOG2:
	case SF_OP_LOG10:
	case SF_OP_SIN:
	case SF_OP_COS:
	case SF_OP_TAN:
	case SF_OP_ATAN:
	case SF_OP_VEXP:
	case SF_OP_VLOG:
	case SF_OP_POW:
	case SF_OP_POWLOG:
		return 1;
	default:
		return 0;
	}
}

int
sf_level_plan(sf_program *p)
{
	size_t ncols = p->ninputs + p->nhoisted, n = p->nrow_code;
	sf_input_set *cset, *dreg, *iset;
	int32_t *writer;
	uint32_t *weight;
	unsigned char *wide;
	int rc = SF_ENOMEM;

	p->row_table = malloc((n ? n : 1) * sizeof *p->row_table);
	p->table_inputs = malloc((n ? n : 1) * sizeof *p->table_inputs);
	cset = malloc((ncols ? ncols : 1) * sizeof *cset);
	dreg = malloc((p->data_regs ? p->data_regs : 1) * sizeof *dreg);
	iset = malloc((n ? n : 1) * sizeof *iset);
	writer = malloc((p->row_regs ? p->row_regs : 1) * sizeof *writer);
	weight = calloc(n ? n : 1, sizeof *weight);
	wide = calloc(n ? n : 1, 1);
	if (p->row_table == NULL || p->table_inputs == NULL || cset == NULL ||
	    dreg == NULL || iset == NULL || writer == NULL || weight == NULL ||
	    wide == NULL)
		goto out;

	/* the columns: an input is its own set; a hoisted column has the
	 * inputs the data stage computed it from */
	for (size_t c = 0; c < ncols; c++)
		cset[c] = c < p->ninputs ? (sf_input_set){1, {(uint32_t)c}}
		                         : no_inputs;
	for (size_t k = 0; k < p->ndata_code; k++) {
		const sf_instr *in = &p->data_code[k];
		sf_input_set s = no_inputs;

		for (int i = 1; i < 5; i++)
			if (in->kind[i] == SF_OPND_COL)
				s = set_join(&s, &cset[in->idx[i]]);
			else if (in->kind[i] == SF_OPND_REG)
				s = set_join(&s, &dreg[in->idx[i]]);
		if (in->kind[0] == SF_OPND_COL)
			cset[in->idx[0]] = s;
		else
			dreg[in->idx[0]] = s;
	}

	/* the row stage, in order: each instruction's inputs, its work
	 * within them, and whether something of other inputs (or an
	 * output) reads it */
	for (size_t k = 0; k < n; k++) {
		const sf_instr *in = &p->row_code[k];
		sf_input_set s = no_inputs;
		uint32_t w = costly(in) ? COSTLY_WEIGHT : 1;

		if (in->shape == SF_SHAPE_COPY) {
			if (in->kind[1] == SF_OPND_REG)
				wide[writer[in->idx[1]]] = 1;
			continue;
		}
		for (int i = 1; i < 5; i++)
			if (in->kind[i] == SF_OPND_COL)
				s = set_join(&s, &cset[in->idx[i]]);
			else if (in->kind[i] == SF_OPND_REG)
				s = set_join(&s, &iset[writer[in->idx[i]]]);
		for (int i = 1; i < 5; i++) {
			int32_t r;

			if (in->kind[i] != SF_OPND_REG)
				continue;
			/* its operands' work is within its inputs too
			 * (shared work counts twice: an estimate) */
			r = writer[in->idx[i]];
			w += weight[r];
			if (!set_equal(&iset[r], &s))
				wide[r] = 1;
		}
		iset[k] = s;
		weight[k] = w < WEIGHT_CAP ? w : WEIGHT_CAP;
		if (in->kind[0] == SF_OPND_REG)
			writer[in->idx[0]] = (int32_t)k;
	}
	p->ntables = 0;
	for (size_t k = 0; k < n; k++) {
		const sf_instr *in = &p->row_code[k];

		p->row_table[k] = -1;
		if (in->shape == SF_SHAPE_COPY || in->kind[0] != SF_OPND_REG ||
		    iset[k].n <= 0 || !wide[k] || weight[k] < TABLE_WEIGHT ||
		    p->ntables == TABLES_MAX)
			continue;
		p->table_inputs[p->ntables] = iset[k];
		p->row_table[k] = (int32_t)p->ntables++;
	}
	rc = SF_OK;
out:
	free(cset);
	free(dreg);
	free(iset);
	free(writer);
	free(weight);
	free(wide);
	return rc;
}

/* Whether rows r and q of d have the same bits in every input of set. */
static int
same_row(const sf_expr_data *d, const sf_input_set *set, size_t r, size_t q)
{
	for (int i = 0; i < set->n; i++)
		if (memcmp(&d->cols[set->in[i]][r], &d->cols[set->in[i]][q],
		           sizeof(double)) != 0)
			return 0;
	return 1;
}

/*
 * The levels of set in d's rows: each row's level in index (numbered in
 * order of first appearance), the first row of each level in first.
 * Returns how many levels there are, or max + 1 as soon as there are more
 * than max (max <= B).
 */
static size_t
find_levels(const sf_expr_data *d, const sf_input_set *set, size_t max,
            uint8_t *index, size_t *first)
{
	int32_t level[LEVEL_SLOTS];
	size_t count = 0;

	for (size_t s = 0; s < LEVEL_SLOTS; s++)
		level[s] = -1;
	for (size_t r = 0; r < d->nrows; r++) {
		uint64_t h = 0, bits;
		size_t s;

		for (int i = 0; i < set->n; i++) {
			memcpy(&bits, &d->cols[set->in[i]][r], sizeof bits);
			h = (h ^ bits) * 0x9e3779b97f4a7c15u;
		}
		s = (size_t)(h >> 32) & (LEVEL_SLOTS - 1);
		while (level[s] >= 0 && !same_row(d, set, first[level[s]], r))
			s = (s + 1) & (LEVEL_SLOTS - 1);
		if (level[s] < 0) {
			if (count == max)
				return max + 1;
			level[s] = (int32_t)count;
			first[count++] = r;
		}
		index[r] = (uint8_t)level[s];
	}
	return count;
}

/* A lookup into register dest of table t's entry for each row's level in
 * index slot (SF_SHAPE_GATHER). */
static sf_instr
lookup(const sf_program *p, uint32_t dest, int32_t t, int32_t slot)
{
	sf_instr in;

	memset(&in, 0, sizeof in);
	in.shape = SF_SHAPE_GATHER;
	in.kind[0] = SF_OPND_REG;
	in.idx[0] = dest;
	in.kind[1] = SF_OPND_REG;
	in.idx[1] = (uint32_t)(p->row_regs + (size_t)t);
	in.idx[2] = (uint32_t)slot;
	return in;
}

/*
 * The gather code: the row stage with the tables of the levelled sets
 * (slot[t] >= 0: table t's set's place in d->levels) read by level, and
 * the instructions nothing reads any more dropped (live backwards).
 * read[t]: whether table t is read.
 */
static int
gather_code(sf_expr_data *d, const int32_t *slot, unsigned char *read)
{
	const sf_program *p = d->prog;
	size_t n = p->nrow_code, nregs = p->row_regs + p->ntables, m = 0;
	sf_instr *code = malloc((n ? n : 1) * sizeof *code);
	unsigned char *keep = calloc(n ? n : 1, 1), *live = calloc(nregs, 1);

	if (code == NULL || keep == NULL || live == NULL) {
		free(code);
		free(keep);
		free(live);
		return SF_ENOMEM;
	}
	for (size_t k = 0; k < n; k++) {
		int32_t t = p->row_table[k];

		code[k] = t >= 0 && slot[t] >= 0
		              ? lookup(p, p->row_code[k].idx[0], t, slot[t])
		              : p->row_code[k];
	}
	for (size_t k = n; k-- > 0;) {
		const sf_instr *in = &code[k];

		if (in->shape != SF_SHAPE_COPY) {
			if (in->kind[0] == SF_OPND_REG && !live[in->idx[0]])
				continue;
			live[in->idx[0]] = 0;
		}
		keep[k] = 1;
		if (in->shape == SF_SHAPE_GATHER)
			read[in->idx[1] - p->row_regs] = 1;
		for (int j = 1; j < 5; j++)
			if (in->kind[j] == SF_OPND_REG)
				live[in->idx[j]] = 1;
	}
	for (size_t k = 0; k < n; k++)
		if (keep[k])
			code[m++] = code[k];
	for (size_t k = 0; k < m && d->gather_out0 == NULL; k++)
		if (code[k].shape == SF_SHAPE_COPY && code[k].idx[0] == 0)
			d->gather_out0 = &code[k];
	d->gather_code = code;
	d->ngather_code = m;
	free(keep);
	free(live);
	return SF_OK;
}

/* Whether set a is a proper subset of set b. */
static int
set_within(const sf_input_set *a, const sf_input_set *b)
{
	int j = 0;

	if (a->n >= b->n)
		return 0;
	for (int i = 0; i < a->n; i++) {
		while (j < b->n && b->in[j] < a->in[i])
			j++;
		if (j == b->n || b->in[j] != a->in[i])
			return 0;
	}
	return 1;
}

/*
 * The level code of level s (l): the row-stage instructions its read
 * tables need (live backwards from them), in order, each table's writing
 * its table's register and later readers reading it there; a table of a
 * levelled subset of the set is looked up in that table instead (marked
 * read, so its code, built later, computes it), by the map of each level
 * to the subset's level.  Also the levels' values of the columns the code
 * reads.  first: each level's first row.
 */
static int
level_code(sf_expr_data *d, const int32_t *slot, int32_t s, unsigned char *read,
           const size_t *first)
{
	sf_level *l = &d->levels[s];
	const sf_program *p = d->prog;
	size_t n = p->nrow_code, nregs = p->row_regs + p->ntables;
	unsigned char *need = calloc(n ? n : 1, 1), *live = calloc(nregs, 1);
	int32_t *holds =
	    malloc((p->row_regs ? p->row_regs : 1) * sizeof *holds);
	int rc = SF_ENOMEM;

	l->code = malloc((n ? n : 1) * sizeof *l->code);
	l->cols = calloc(d->ncols ? d->ncols : 1, sizeof *l->cols);
	if (need == NULL || live == NULL || holds == NULL || l->code == NULL ||
	    l->cols == NULL)
		goto out;
	for (size_t k = n; k-- > 0;) {
		const sf_instr *in = &p->row_code[k];
		int32_t t = p->row_table[k];

		if (in->shape == SF_SHAPE_COPY ||
		    !((t >= 0 && slot[t] == s && read[t]) ||
		      (in->kind[0] == SF_OPND_REG && live[in->idx[0]])))
			continue;
		need[k] = 1;
		live[in->idx[0]] = 0;
		if (t >= 0 && slot[t] >= 0 && slot[t] != s &&
		    set_within(&d->levels[slot[t]].set, &l->set)) {
			need[k] = 2; /* looked up */
			read[t] = 1;
			continue;
		}
		for (int j = 1; j < 5; j++)
			if (in->kind[j] == SF_OPND_REG)
				live[in->idx[j]] = 1;
	}
	for (size_t r = 0; r < p->row_regs; r++)
		holds[r] = -1;
	l->ncode = 0;
	for (size_t k = 0; k < n; k++) {
		sf_instr in = p->row_code[k];
		int32_t t = p->row_table[k];

		if (!need[k])
			continue;
		if (need[k] == 2) {
			uint8_t **map = &l->maps[slot[t]];

			if (*map == NULL) {
				const uint8_t *sub = d->levels[slot[t]].index;

				if ((*map = calloc(B, 1)) == NULL)
					goto out;
				for (size_t v = 0; v < l->nlevels; v++)
					(*map)[v] = sub[first[v]];
			}
			holds[in.idx[0]] = -1;
			l->code[l->ncode++] = lookup(p, in.idx[0], t, slot[t]);
			continue;
		}
		for (int j = 1; j < 5; j++) {
			double *c;

			if (in.kind[j] == SF_OPND_REG && holds[in.idx[j]] >= 0)
				in.idx[j] =
				    (uint32_t)(p->row_regs + holds[in.idx[j]]);
			if (in.kind[j] != SF_OPND_COL ||
			    l->cols[in.idx[j]] != NULL)
				continue;
			/* a column the set determines, at each level */
			if ((c = malloc(B * sizeof *c)) == NULL)
				goto out;
			for (size_t v = 0; v < B; v++)
				c[v] = v < l->nlevels
				           ? d->cols[in.idx[j]][first[v]]
				           : 1.0;
			l->cols[in.idx[j]] = c;
		}
		if (t >= 0 && slot[t] == s && read[t]) {
			holds[in.idx[0]] = t;
			in.idx[0] = (uint32_t)(p->row_regs + (size_t)t);
		} else {
			holds[in.idx[0]] = -1;
		}
		l->code[l->ncode++] = in;
	}
	rc = SF_OK;
out:
	free(need);
	free(live);
	free(holds);
	return rc;
}

int
sf_level_bind(sf_expr_data *d)
{
	const sf_program *p = d->prog;
	size_t max = d->nrows / 2 < B ? d->nrows / 2 : B, (*first)[B] = NULL;
	int32_t *slot = NULL;
	unsigned char *read = NULL;
	int rc = SF_ENOMEM;

	if (p->ntables == 0 || max == 0)
		return SF_OK;
	slot = malloc(p->ntables * sizeof *slot);
	read = calloc(p->ntables, 1);
	first = malloc(SETS_MAX * sizeof *first);
	d->levels = calloc(SETS_MAX, sizeof *d->levels);
	if (slot == NULL || read == NULL || first == NULL || d->levels == NULL)
		goto out;
	/* each table's set, levelled when it has few levels */
	for (size_t t = 0; t < p->ntables; t++) {
		const sf_input_set *set = &p->table_inputs[t];
		sf_level *l = &d->levels[d->nlevels];
		size_t u;

		slot[t] = -1;
		for (size_t v = 0; v < t && slot[t] == -1; v++)
			if (set_equal(&p->table_inputs[v], set))
				slot[t] = slot[v] >= 0 ? slot[v] : -2;
		if (slot[t] != -1 || d->nlevels == SETS_MAX)
			continue; /* the set was looked at, or enough */
		slot[t] = -2;
		if (l->index == NULL &&
		    (l->index = malloc((d->nrows + B) * sizeof *l->index)) ==
		        NULL)
			goto out;
		u = find_levels(d, set, max, l->index, first[d->nlevels]);
		if (u > max)
			continue; /* its index array serves the next set */
		/* rows past the end (the kernels' padding) read level 0 */
		for (size_t r = d->nrows; r < d->nrows + B; r++)
			l->index[r] = 0;
		l->set = *set;
		l->nlevels = u;
		slot[t] = (int32_t)d->nlevels++;
	}
	if (d->nlevels == 0) {
		rc = SF_OK;
		goto out;
	}
	if (gather_code(d, slot, read) != SF_OK)
		goto out;
	/* the codes run a subset before its supersets (fewer inputs
	 * first); they are built the other way round, so that a superset's
	 * lookups mark the subset's tables read before its code is built */
	for (size_t s = 0; s < d->nlevels; s++) {
		size_t o = s;

		for (; o > 0 &&
		       d->levels[d->order[o - 1]].set.n > d->levels[s].set.n;
		     o--)
			d->order[o] = d->order[o - 1];
		d->order[o] = s;
		d->index[s] = d->levels[s].index;
	}
	for (size_t o = d->nlevels; o-- > 0;) {
		size_t s = d->order[o];

		if (level_code(d, slot, (int32_t)s, read, first[s]) != SF_OK)
			goto out;
		if (d->levels[s].ncode > 0)
			d->level_rows += d->levels[s].nlevels;
	}
	rc = SF_OK;
out:
	free(slot);
	free(read);
	free(first);
	return rc;
}

void
sf_level_unbind(sf_expr_data *d)
{
	if (d->levels != NULL)
		for (size_t s = 0; s < SETS_MAX; s++) {
			sf_level *l = &d->levels[s];

			if (l->cols != NULL)
				for (size_t c = 0; c < d->ncols; c++)
					free(l->cols[c]);
			free(l->cols);
			free(l->index);
			free(l->code);
			for (size_t m = 0; m < SETS_MAX; m++)
				free(l->maps[m]);
		}
	free(d->levels);
	free(d->gather_code);
}
