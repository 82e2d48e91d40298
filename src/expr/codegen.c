/*
 * codegen.c - a program's code from the compiler's DAG: staging and code
 * generation.
 *
 * A node's class is whether it depends on data and/or parameters.
 * Data-only nodes run in the data stage; those a later stage reads are
 * stored as columns (hoisted).  Parameter-only nodes run once per
 * evaluation as scalars.  The rest run per row in blocks: instructions are
 * emitted in depth-first order per output, and register blocks are reused
 * once their value's last reader has run, never as the destination of an
 * instruction that reads them (so the kernels may use restrict pointers).
 * A multiplication read only by an add or subtract is fused into it: one
 * pass over the rows.
 */
#include "expr/codegen.h"

#include <stdlib.h>
#include <string.h>

enum { STAGE_DATA, STAGE_ROW };

typedef struct codegen {
	dag *g;
	sf_program *p;
	size_t n;             /* nodes */
	unsigned char *reach; /* node is needed by some output */
	unsigned char *hoist; /* data node stored as a column */
	unsigned char *done;  /* emitted in the current stage */
	int32_t *slot;        /* scalar slot, or -1 */
	int32_t *col;         /* column, or -1 */
	int32_t *reg;         /* register in the current stage, or -1 */
	int32_t *last;        /* last reader's position in the stage */
	int32_t *items;       /* the stage's sequence; -(k + 2): output k */
	size_t nitems;
	unsigned char *fused; /* add/sub computing its operand a (bit 0), b
	                         (bit 1), a product, itself */
	int32_t *stack;
	const int32_t *roots;
	size_t nroots;
} codegen;

/* Whether node x lives in a register of stage st. */
static int
in_regs(const codegen *cg, int32_t x, int st)
{
	const dnode *n = N(cg->g, x);

	if (st == STAGE_DATA)
		return n->cls == CLS_DATA && n->op != SF_OP_INPUT &&
		       !cg->hoist[x];
	return n->cls == CLS_ROW;
}

/*
 * The operands instruction x reads: a node's own operands, except that an
 * add or subtract reads the two factors of a fused product in its place.
 * Returns how many (at most 4; unused ones are -1).
 */
static int
instr_operands(const codegen *cg, int32_t x, int32_t ops[4])
{
	const dnode *n = N(cg->g, x);
	int32_t side[2] = {n->a, n->b};
	int k = 0;

	ops[0] = ops[1] = ops[2] = ops[3] = -1;
	if (!cg->fused[x]) {
		ops[0] = n->a;
		ops[1] = n->b;
		ops[2] = n->c;
		return sf_expr_op_info[n->op].arity;
	}
	for (int i = 0; i < 2; i++) {
		const dnode *m = N(cg->g, side[i]);
		int s;

		if (!(cg->fused[x] & (1u << i))) {
			ops[k++] = side[i];
			continue;
		}
		/* the kernels take a vector first: x * y == y * x */
		s = cg->slot[m->a] >= 0;
		ops[k + s] = m->a;
		ops[k + !s] = m->b;
		k += 2;
	}
	return k;
}

static void
operand(const codegen *cg, int32_t x, uint8_t *kind, uint32_t *idx)
{
	if (cg->slot[x] >= 0) {
		*kind = SF_OPND_SCAL;
		*idx = (uint32_t)cg->slot[x];
	} else if (cg->col[x] >= 0) {
		*kind = SF_OPND_COL;
		*idx = (uint32_t)cg->col[x];
	} else {
		*kind = SF_OPND_REG;
		*idx = (uint32_t)cg->reg[x];
	}
}

/* Append to the stage's sequence, in depth-first post-order, node x and
 * whatever of its operands the stage computes and has not yet. */
static void
schedule(codegen *cg, int32_t root, int st)
{
	size_t top = 0;

	if (cg->done[root] ||
	    !(in_regs(cg, root, st) || (st == STAGE_DATA && cg->hoist[root])))
		return;
	cg->stack[top++] = root;
	while (top > 0) {
		int32_t x = cg->stack[top - 1];
		int32_t ops[4];
		int pushed = 0;

		instr_operands(cg, x, ops);
		for (int i = 0; i < 4 && !pushed; i++) {
			int32_t y = ops[i];

			if (y >= 0 && !cg->done[y] && in_regs(cg, y, st)) {
				cg->stack[top++] = y;
				pushed = 1;
			}
		}
		if (pushed)
			continue;
		top--;
		if (!cg->done[x]) {
			cg->done[x] = 1;
			cg->items[cg->nitems++] = x;
		}
	}
}

/* Turn the stage's sequence into instructions with register reuse.
 * Returns the code (or NULL when out of memory) and the register count. */
static sf_instr *
emit(codegen *cg, int st, size_t *ncode, size_t *nregs)
{
	sf_instr *code = calloc(cg->nitems ? cg->nitems : 1, sizeof *code);
	int32_t *free_regs = malloc((cg->nitems + 1) * sizeof *free_regs);
	size_t nfree = 0, regs = 0;

	if (code == NULL || free_regs == NULL) {
		free(code);
		free(free_regs);
		return NULL;
	}
	/* last readers */
	for (size_t pos = 0; pos < cg->nitems; pos++) {
		int32_t it = cg->items[pos];

		if (it <= -2) {
			int32_t x = cg->roots[-(it + 2)];

			if (in_regs(cg, x, st))
				cg->last[x] = (int32_t)pos;
			continue;
		}
		int32_t ops[4];

		instr_operands(cg, it, ops);
		for (int i = 0; i < 4; i++)
			if (ops[i] >= 0 && in_regs(cg, ops[i], st))
				cg->last[ops[i]] = (int32_t)pos;
	}
	for (size_t pos = 0; pos < cg->nitems; pos++) {
		int32_t it = cg->items[pos];
		sf_instr *in = &code[pos];
		int32_t ops[4] = {-1, -1, -1, -1};

		if (it <= -2) {
			int32_t x = cg->roots[-(it + 2)];

			in->shape = SF_SHAPE_COPY;
			in->kind[0] = SF_OPND_OUT;
			in->idx[0] = (uint32_t)(-(it + 2));
			operand(cg, x, &in->kind[1], &in->idx[1]);
			ops[0] = x;
		} else {
			const dnode *n = N(cg->g, it);
			int arity = instr_operands(cg, it, ops);

			in->op = n->op;
			for (int i = 0; i < arity; i++)
				operand(cg, ops[i], &in->kind[1 + i],
				        &in->idx[1 + i]);
			if (cg->col[it] >= 0) {
				in->kind[0] = SF_OPND_COL;
				in->idx[0] = (uint32_t)cg->col[it];
			} else {
				/* a fresh register: never one of the
				 * operands, which are freed below */
				cg->reg[it] = nfree > 0 ? free_regs[--nfree]
				                        : (int32_t)regs++;
				in->kind[0] = SF_OPND_REG;
				in->idx[0] = (uint32_t)cg->reg[it];
			}
			if (cg->fused[it])
				in->shape = cg->fused[it] == 1 ? SF_SHAPE_MULOP
				            : cg->fused[it] == 2
				                ? SF_SHAPE_OPMUL
				                : SF_SHAPE_MULMUL;
			else if (arity == 1)
				in->shape = SF_SHAPE_V;
			else if (arity == 3)
				in->shape = SF_SHAPE_GEN;
			else if (in->kind[1] == SF_OPND_SCAL)
				in->shape = SF_SHAPE_SV;
			else if (in->kind[2] == SF_OPND_SCAL)
				in->shape = SF_SHAPE_VS;
			else
				in->shape = SF_SHAPE_VV;
		}
		for (int i = 0; i < 4; i++) {
			int32_t y = ops[i];

			if (y >= 0 && in_regs(cg, y, st) &&
			    cg->last[y] == (int32_t)pos && cg->reg[y] >= 0) {
				free_regs[nfree++] = cg->reg[y];
				cg->reg[y] = -1; /* freed once, even for x*x */
			}
		}
	}
	free(free_regs);
	*ncode = cg->nitems;
	*nregs = regs;
	return code;
}

/*
 * Fuse a multiplication into the add or subtract that is its only reader,
 * in the row and data stages, one product or both: one pass over a block
 * instead of two or three, and the products never stored.  The kernels
 * round each product before adding, as separate instructions would: the
 * same bits.  Returns SF_OK or SF_ENOMEM.
 */
static int
choose_fusions(codegen *cg)
{
	uint32_t *uses = calloc(cg->n ? cg->n : 1, sizeof *uses);

	if (uses == NULL)
		return SF_ENOMEM;
	for (size_t x = 0; x < cg->n; x++) {
		const dnode *n = N(cg->g, (int32_t)x);
		int32_t ops[3] = {n->a, n->b, n->c};

		for (int i = 0; cg->reach[x] && i < 3; i++)
			if (ops[i] >= 0)
				uses[ops[i]]++;
	}
	for (size_t k = 0; k < cg->nroots; k++)
		uses[cg->roots[k]]++; /* an output is read by its copy */
	for (size_t x = 0; x < cg->n; x++) {
		const dnode *n = N(cg->g, (int32_t)x);
		int st = n->cls == CLS_ROW ? STAGE_ROW : STAGE_DATA;
		int32_t side[2] = {n->a, n->b};

		if (!cg->reach[x] ||
		    (n->op != SF_OP_ADD && n->op != SF_OP_SUB) ||
		    (n->cls != CLS_ROW && n->cls != CLS_DATA))
			continue;
		for (int i = 0; i < 2; i++) {
			const dnode *m = N(cg->g, side[i]);

			if (m->op == SF_OP_MUL && uses[side[i]] == 1 &&
			    in_regs(cg, side[i], st) &&
			    (cg->slot[m->a] < 0 || cg->slot[m->b] < 0))
				cg->fused[x] |= (unsigned char)(1u << i);
		}
	}
	free(uses);
	return SF_OK;
}

/* Mark what the roots need, from the highest id down: operands always have
 * lower ids than their users. */
static void
mark_reachable(codegen *cg, const int32_t *roots, size_t nroots)
{
	for (size_t k = 0; k < nroots; k++)
		cg->reach[roots[k]] = 1;
	for (size_t x = cg->n; x-- > 0;) {
		const dnode *n = N(cg->g, (int32_t)x);

		if (!cg->reach[x])
			continue;
		if (n->a >= 0)
			cg->reach[n->a] = 1;
		if (n->b >= 0)
			cg->reach[n->b] = 1;
		if (n->c >= 0)
			cg->reach[n->c] = 1;
	}
}

/*
 * Which parameters each output reads, for sf_program_output_uses_param():
 * one reachability pass per output, in the scratch mark (n bytes).
 */
static void
mark_output_params(codegen *cg, unsigned char *mark)
{
	sf_program *p = cg->p;

	for (size_t k = 0; k < cg->nroots; k++) {
		memset(mark, 0, cg->n);
		mark[cg->roots[k]] = 1;
		for (size_t x = cg->n; x-- > 0;) {
			const dnode *d = N(cg->g, (int32_t)x);

			if (!mark[x])
				continue;
			if (d->op == SF_OP_PARAM)
				p->output_uses_param[k * p->nparams +
				                     d->index] = 1;
			if (d->a >= 0)
				mark[d->a] = 1;
			if (d->b >= 0)
				mark[d->b] = 1;
			if (d->c >= 0)
				mark[d->c] = 1;
		}
	}
}

/*
 * What the program uses, for sf_program_uses_*() and
 * sf_program_output_uses_param(): the inputs and parameters the first
 * nvalues roots (the values) read, and the inputs the derivatives read
 * too; then every node any root needs is marked reachable.
 */
static int
mark_uses(codegen *cg, size_t nvalues)
{
	sf_program *p = cg->p;
	dag *g = cg->g;
	size_t n = cg->n;
	unsigned char *mark = malloc(n ? n : 1);

	if (mark == NULL)
		return SF_ENOMEM;
	mark_output_params(cg, mark);
	free(mark);
	mark_reachable(cg, cg->roots, nvalues);
	for (size_t x = 0; x < n; x++) {
		const dnode *d = N(g, (int32_t)x);

		if (!cg->reach[x])
			continue;
		if (d->op == SF_OP_INPUT)
			p->uses_input[d->index] = 1;
		if (d->op == SF_OP_PARAM)
			p->uses_param[d->index] = 1;
	}
	mark_reachable(cg, cg->roots, cg->nroots);
	/* derivatives read no input the values do not; make sure */
	for (size_t x = 0; x < n; x++)
		if (cg->reach[x] && N(g, (int32_t)x)->op == SF_OP_INPUT)
			p->uses_input[N(g, (int32_t)x)->index] = 1;
	return SF_OK;
}

/* The scalar slots: the constants (their values into p->consts), theta,
 * then the parameter-only nodes the parameter stage computes. */
static int
assign_scalars(codegen *cg)
{
	sf_program *p = cg->p;
	dag *g = cg->g;
	size_t n = cg->n, nslots;

	for (size_t x = 0; x < n; x++)
		if (cg->reach[x] && N(g, (int32_t)x)->op == SF_OP_CONST)
			cg->slot[x] = (int32_t)p->nconst++;
	p->consts = malloc((p->nconst ? p->nconst : 1) * sizeof *p->consts);
	if (p->consts == NULL)
		return SF_ENOMEM;
	for (size_t x = 0; x < n; x++)
		if (cg->slot[x] >= 0)
			p->consts[cg->slot[x]] = N(g, (int32_t)x)->value;
	nslots = p->nconst + p->nparams;
	for (size_t x = 0; x < n; x++) {
		const dnode *d = N(g, (int32_t)x);

		/* parameter-only nodes (and, defensively, constant ones,
		 * which folding never leaves) */
		if (!cg->reach[x] || d->op == SF_OP_CONST ||
		    (d->cls & CLS_DATA))
			continue;
		if (d->op == SF_OP_PARAM)
			cg->slot[x] = (int32_t)(p->nconst + d->index);
		else
			cg->slot[x] = (int32_t)nslots++, p->nparam_code++;
	}
	p->nscalars = nslots;
	return SF_OK;
}

/* The parameter stage's code: one scalar instruction per slot that is
 * neither a constant nor theta, in node order. */
static int
emit_param_stage(codegen *cg)
{
	sf_program *p = cg->p;
	size_t i = 0;

	p->param_code =
	    calloc(p->nparam_code ? p->nparam_code : 1, sizeof *p->param_code);
	if (p->param_code == NULL)
		return SF_ENOMEM;
	for (size_t x = 0; x < cg->n; x++) {
		const dnode *d = N(cg->g, (int32_t)x);
		sf_instr *in;

		if (cg->slot[x] < 0 || d->op == SF_OP_CONST ||
		    d->op == SF_OP_PARAM)
			continue;
		in = &p->param_code[i++];
		in->op = d->op;
		in->kind[0] = SF_OPND_SCAL;
		in->idx[0] = (uint32_t)cg->slot[x];
		in->kind[1] = SF_OPND_SCAL;
		in->idx[1] = (uint32_t)cg->slot[d->a];
		if (d->b >= 0) {
			in->kind[2] = SF_OPND_SCAL;
			in->idx[2] = (uint32_t)cg->slot[d->b];
		}
		if (d->c >= 0) {
			in->kind[3] = SF_OPND_SCAL;
			in->idx[3] = (uint32_t)cg->slot[d->c];
		}
	}
	return SF_OK;
}

/* The columns: the inputs, then the data nodes hoisted into columns of
 * their own because the row stage or an output reads them. */
static void
assign_columns(codegen *cg)
{
	sf_program *p = cg->p;
	dag *g = cg->g;
	size_t n = cg->n, ncols = p->ninputs;

	for (size_t x = 0; x < n; x++) {
		const dnode *d = N(g, (int32_t)x);

		if (!cg->reach[x])
			continue;
		if (d->op == SF_OP_INPUT)
			cg->col[x] = (int32_t)d->index;
		if (d->cls != CLS_ROW)
			continue;
		if (d->a >= 0 && N(g, d->a)->cls == CLS_DATA)
			cg->hoist[d->a] = 1;
		if (d->b >= 0 && N(g, d->b)->cls == CLS_DATA)
			cg->hoist[d->b] = 1;
		if (d->c >= 0 && N(g, d->c)->cls == CLS_DATA)
			cg->hoist[d->c] = 1;
	}
	for (size_t k = 0; k < cg->nroots; k++)
		if (N(g, cg->roots[k])->cls == CLS_DATA)
			cg->hoist[cg->roots[k]] = 1;
	for (size_t x = 0; x < n; x++) {
		if (N(g, (int32_t)x)->op == SF_OP_INPUT)
			cg->hoist[x] = 0;
		if (cg->hoist[x]) {
			cg->col[x] = (int32_t)ncols++;
			p->nhoisted++;
		}
	}
}

/* Start a stage: nothing scheduled in it, nothing emitted. */
static void
begin_stage(codegen *cg)
{
	cg->nitems = 0;
	memset(cg->done, 0, cg->n);
}

/* The data stage's code: every hoisted column computed once per row. */
static int
emit_data_stage(codegen *cg)
{
	sf_program *p = cg->p;

	begin_stage(cg);
	for (size_t x = 0; x < cg->n; x++)
		if (cg->hoist[x])
			schedule(cg, (int32_t)x, STAGE_DATA);
	p->data_code = emit(cg, STAGE_DATA, &p->ndata_code, &p->data_regs);
	return p->data_code != NULL ? SF_OK : SF_ENOMEM;
}

/* The row stage's code, with an output copy after each output's value,
 * and where sf_program_eval_sumsq() reads output 0 from. */
static int
emit_row_stage(codegen *cg)
{
	sf_program *p = cg->p;

	begin_stage(cg);
	for (size_t x = 0; x < cg->n; x++)
		cg->reg[x] = -1;
	for (size_t k = 0; k < cg->nroots; k++) {
		schedule(cg, cg->roots[k], STAGE_ROW);
		cg->items[cg->nitems++] = -(int32_t)k - 2;
	}
	p->row_code = emit(cg, STAGE_ROW, &p->nrow_code, &p->row_regs);
	if (p->row_code == NULL)
		return SF_ENOMEM;
	for (size_t k = 0; k < p->nrow_code && p->out0_copy == NULL; k++)
		if (p->row_code[k].shape == SF_SHAPE_COPY &&
		    p->row_code[k].idx[0] == 0)
			p->out0_copy = &p->row_code[k];
	return SF_OK;
}

/* The program's code from the DAG: what it uses, its scalars and
 * columns, the fusions, the three stages, and the plan of its tables. */
static int
generate(codegen *cg, size_t nvalues)
{
	if (mark_uses(cg, nvalues) != SF_OK || assign_scalars(cg) != SF_OK ||
	    emit_param_stage(cg) != SF_OK)
		return SF_ENOMEM;
	assign_columns(cg);
	if (choose_fusions(cg) != SF_OK || emit_data_stage(cg) != SF_OK ||
	    emit_row_stage(cg) != SF_OK)
		return SF_ENOMEM;
	for (size_t x = 0; x < cg->n; x++)
		cg->p->nnodes += cg->reach[x];
	return sf_level_plan(cg->p);
}

static void
codegen_free(codegen *cg)
{
	free(cg->reach);
	free(cg->hoist);
	free(cg->done);
	free(cg->slot);
	free(cg->col);
	free(cg->reg);
	free(cg->last);
	free(cg->items);
	free(cg->stack);
	free(cg->fused);
}

/* The code generator of program p from DAG g with its nroots roots,
 * every node's slot, column, register and last reader unset (-1).
 * SF_OK, or SF_ENOMEM (free with codegen_free() either way). */
static int
codegen_init(codegen *cg, dag *g, sf_program *p, const int32_t *roots,
             size_t nroots)
{
	const size_t n = g->n;

	cg->g = g;
	cg->p = p;
	cg->n = n;
	cg->roots = roots;
	cg->nroots = nroots;
	cg->reach = calloc(n, 1);
	cg->hoist = calloc(n, 1);
	cg->done = calloc(n, 1);
	cg->slot = malloc(n * sizeof *cg->slot);
	cg->col = malloc(n * sizeof *cg->col);
	cg->reg = malloc(n * sizeof *cg->reg);
	cg->last = malloc(n * sizeof *cg->last);
	cg->items = malloc((n + nroots) * sizeof *cg->items);
	cg->stack = malloc(n * sizeof *cg->stack);
	cg->fused = calloc(n, 1);
	if (cg->reach == NULL || cg->hoist == NULL || cg->done == NULL ||
	    cg->slot == NULL || cg->col == NULL || cg->reg == NULL ||
	    cg->last == NULL || cg->items == NULL || cg->stack == NULL ||
	    cg->fused == NULL)
		return SF_ENOMEM;
	for (size_t x = 0; x < n; x++)
		cg->slot[x] = cg->col[x] = cg->reg[x] = cg->last[x] = -1;
	return SF_OK;
}

int
sf_codegen_generate(dag *g, sf_program *p, const int32_t *roots, size_t nroots,
                    size_t nvalues)
{
	codegen cg;
	int rc;

	memset(&cg, 0, sizeof cg);
	rc = codegen_init(&cg, g, p, roots, nroots);
	if (rc == SF_OK)
		rc = generate(&cg, nvalues);
	codegen_free(&cg);
	return rc;
}
