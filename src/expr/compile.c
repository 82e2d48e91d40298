/*
 * expr_compile.c - from resolved syntax trees to a staged program.
 *
 * 1. Lowering.  Every term (in definition order) and every text becomes a
 *    node of one DAG.  Nodes are hash-consed: asking twice for the same
 *    operator on the same operands gives the same node, so a common
 *    sub-expression, within a text, across texts, terms and derivatives, is
 *    computed once.  Each request is first folded (all operands constant:
 *    computed now with sf_op_apply(), the evaluator's own code) and
 *    simplified (see expr.h for the rules and their exactness).
 * 2. Reassociation for hoisting.  A product or quotient chain that mixes
 *    parameter-only and data-only factors is regrouped as (parameter part)
 *    * (data part) * (the rest), so that w * (p - 1) / p costs one
 *    multiplication per row instead of two operations, the data part being
 *    computed once per data set.  This changes results by a few units in
 *    the last place; SF_EXPR_NO_SIMPLIFY turns it off.
 * 3. Derivatives.  Node ids grow from operands to users, so one pass over
 *    the ids in order computes d(node)/d(theta_j) from the operands'
 *    derivatives, with "no dependence" kept as a structural zero (-1 below)
 *    that products and sums drop.  No recursion: any DAG depth is fine.
 * 4. Staging and code generation.  A node's class is whether it depends on
 *    data and/or parameters.  Data-only nodes run in the data stage;
 *    those a later stage reads are stored as columns (hoisted).  Parameter-
 *    only nodes run once per evaluation as scalars.  The rest run per row
 *    in blocks: instructions are emitted in depth-first order per output,
 *    and register blocks are reused once their value's last reader has
 *    run, never as the destination of an instruction that reads them (so
 *    the kernels may use restrict pointers).  A multiplication read only
 *    by an add or subtract is fused into it: one pass over the rows.
 */
#include "expr/internal.h"

#include <stdlib.h>
#include <string.h>

/* No dependence: the structural zero of derivatives. */
#define Z (-1)

/* Longest product chain the regrouping looks at. */
#define REGROUP_MAX 32

/* Node classes: what a node depends on. */
enum { CLS_CONST = 0, CLS_DATA = 1, CLS_PARAM = 2, CLS_ROW = 3 };

typedef struct dnode {
	uint8_t op;
	uint8_t cls;
	int32_t a, b, c;
	uint32_t index; /* input slot or parameter */
	double value;   /* constants */
} dnode;

typedef struct dag {
	dnode *nodes;
	size_t n, cap;
	int32_t *table; /* hash table of node ids, -1 when empty */
	size_t tcap;
	int simplify;
	int failed; /* out of memory: results are garbage, node 0 */
} dag;

const sf_op_desc sf_expr_op_info[SF_OP_COUNT] = {
    [SF_OP_CONST] = {"const", 0, 0},   [SF_OP_INPUT] = {"input", 0, 0},
    [SF_OP_PARAM] = {"param", 0, 0},   [SF_OP_NEG] = {"-", 1, 0},
    [SF_OP_NOT] = {"!", 1, 0},         [SF_OP_ABS] = {"abs", 1, 0},
    [SF_OP_SIGN] = {"sign", 1, 0},     [SF_OP_FLOOR] = {"floor", 1, 0},
    [SF_OP_CEIL] = {"ceil", 1, 0},     [SF_OP_SQRT] = {"sqrt", 1, 0},
    [SF_OP_EXP] = {"exp", 1, 0},       [SF_OP_VEXP] = {"vexp", 1, 0},
    [SF_OP_VLOG] = {"vlog", 1, 0},     [SF_OP_LOG] = {"log", 1, 0},
    [SF_OP_LOG2] = {"log2", 1, 0},     [SF_OP_LOG10] = {"log10", 1, 0},
    [SF_OP_SIN] = {"sin", 1, 0},       [SF_OP_COS] = {"cos", 1, 0},
    [SF_OP_TAN] = {"tan", 1, 0},       [SF_OP_ATAN] = {"atan", 1, 0},
    [SF_OP_ADD] = {"+", 2, 1},         [SF_OP_SUB] = {"-", 2, 0},
    [SF_OP_MUL] = {"*", 2, 1},         [SF_OP_DIV] = {"/", 2, 0},
    [SF_OP_POW] = {"^", 2, 0},         [SF_OP_MIN] = {"min", 2, 1},
    [SF_OP_MAX] = {"max", 2, 1},       [SF_OP_LT] = {"<", 2, 0},
    [SF_OP_LE] = {"<=", 2, 0},         [SF_OP_GT] = {">", 2, 0},
    [SF_OP_GE] = {">=", 2, 0},         [SF_OP_EQ] = {"==", 2, 1},
    [SF_OP_NE] = {"!=", 2, 1},         [SF_OP_AND] = {"&&", 2, 1},
    [SF_OP_OR] = {"||", 2, 1},         [SF_OP_IF] = {"if", 3, 0},
    [SF_OP_POWLOG] = {"powlog", 3, 0},
};

/* ---- The DAG ------------------------------------------------------------ */

static uint64_t
node_hash(const dnode *k)
{
	uint64_t h = 1469598103934665603u, v;

	memcpy(&v, &k->value, sizeof v);
	h = (h ^ k->op) * 1099511628211u;
	h = (h ^ (uint32_t)k->a) * 1099511628211u;
	h = (h ^ (uint32_t)k->b) * 1099511628211u;
	h = (h ^ (uint32_t)k->c) * 1099511628211u;
	h = (h ^ k->index) * 1099511628211u;
	h = (h ^ v) * 1099511628211u;
	return h ^ (h >> 29);
}

static int
node_same(const dnode *x, const dnode *y)
{
	return x->op == y->op && x->a == y->a && x->b == y->b && x->c == y->c &&
	       x->index == y->index &&
	       memcmp(&x->value, &y->value, sizeof x->value) == 0;
}

static int
dag_rehash(dag *g, size_t tcap)
{
	int32_t *table = malloc(tcap * sizeof *table);

	if (table == NULL)
		return -1;
	for (size_t i = 0; i < tcap; i++)
		table[i] = -1;
	for (size_t id = 0; id < g->n; id++) {
		size_t h = node_hash(&g->nodes[id]) & (tcap - 1);

		while (table[h] >= 0)
			h = (h + 1) & (tcap - 1);
		table[h] = (int32_t)id;
	}
	free(g->table);
	g->table = table;
	g->tcap = tcap;
	return 0;
}

/* The id of the node equal to *k, created if new.  On out of memory sets
 * g->failed and returns 0, a valid node, so callers need not check. */
static int32_t
dag_intern(dag *g, const dnode *k)
{
	size_t h;

	if (g->failed)
		return 0;
	if (2 * (g->n + 1) > g->tcap &&
	    dag_rehash(g, g->tcap ? 2 * g->tcap : 256) != 0)
		goto oom;
	h = node_hash(k) & (g->tcap - 1);
	while (g->table[h] >= 0) {
		if (node_same(&g->nodes[g->table[h]], k))
			return g->table[h];
		h = (h + 1) & (g->tcap - 1);
	}
	if (g->n == g->cap) {
		size_t cap = g->cap ? 2 * g->cap : 256;
		dnode *m = realloc(g->nodes, cap * sizeof *m);

		if (m == NULL || g->n >= INT32_MAX - 1)
			goto oom;
		g->nodes = m;
		g->cap = cap;
	}
	g->nodes[g->n] = *k;
	g->table[h] = (int32_t)g->n;
	return (int32_t)g->n++;
oom:
	g->failed = 1;
	return 0;
}

static int32_t
dag_const(dag *g, double v)
{
	dnode k;

	memset(&k, 0, sizeof k);
	k.op = SF_OP_CONST;
	k.a = k.b = k.c = -1;
	k.value = v;
	k.cls = CLS_CONST;
	return dag_intern(g, &k);
}

static int32_t
dag_leaf(dag *g, int op, size_t index)
{
	dnode k;

	memset(&k, 0, sizeof k);
	k.op = (uint8_t)op;
	k.a = k.b = k.c = -1;
	k.index = (uint32_t)index;
	k.cls = op == SF_OP_INPUT ? CLS_DATA : CLS_PARAM;
	return dag_intern(g, &k);
}

static const dnode *
N(const dag *g, int32_t id)
{
	return &g->nodes[id];
}

static int
is_const(const dag *g, int32_t id, double v)
{
	return N(g, id)->op == SF_OP_CONST && N(g, id)->value == v;
}

static int32_t dag_op(dag *g, int op, int32_t a, int32_t b, int32_t c);
static int32_t dag_make(dag *g, int op, int32_t a, int32_t b, int32_t c,
                        int regroup);

static int32_t
op1(dag *g, int op, int32_t a)
{
	return dag_op(g, op, a, -1, -1);
}

static int32_t
op2(dag *g, int op, int32_t a, int32_t b)
{
	return dag_op(g, op, a, b, -1);
}

/*
 * The simplifications that keep C's result (see expr.h): returns the
 * replacement node, or -1 when none applies.
 */
static int32_t
dag_simplify(dag *g, int op, int32_t a, int32_t b, int32_t c)
{
	const dnode *na = a >= 0 ? N(g, a) : NULL;
	const dnode *nb = b >= 0 ? N(g, b) : NULL;

	switch (op) {
	case SF_OP_NEG:
		if (na->op == SF_OP_NEG)
			return na->a;
		break;
	case SF_OP_ADD:
		if (is_const(g, a, 0.0))
			return b;
		if (is_const(g, b, 0.0))
			return a;
		if (nb->op == SF_OP_NEG)
			return op2(g, SF_OP_SUB, a, nb->a);
		if (na->op == SF_OP_NEG)
			return op2(g, SF_OP_SUB, b, na->a);
		break;
	case SF_OP_SUB:
		if (is_const(g, b, 0.0))
			return a;
		if (is_const(g, a, 0.0))
			return op1(g, SF_OP_NEG, b);
		if (nb->op == SF_OP_NEG)
			return op2(g, SF_OP_ADD, a, nb->a);
		break;
	case SF_OP_MUL:
		if (is_const(g, a, 1.0))
			return b;
		if (is_const(g, b, 1.0))
			return a;
		if (is_const(g, a, -1.0))
			return op1(g, SF_OP_NEG, b);
		if (is_const(g, b, -1.0))
			return op1(g, SF_OP_NEG, a);
		if (na->op == SF_OP_NEG && nb->op == SF_OP_NEG)
			return op2(g, SF_OP_MUL, na->a, nb->a);
		break;
	case SF_OP_DIV:
		if (is_const(g, b, 1.0))
			return a;
		break;
	case SF_OP_EXP:
		/* per row: the exp a block loop vectorises (internal.h) */
		if (na->cls == CLS_ROW)
			return op1(g, SF_OP_VEXP, a);
		break;
	case SF_OP_LOG:
		/* per row: the log a block loop vectorises (internal.h) */
		if (na->cls == CLS_ROW)
			return op1(g, SF_OP_VLOG, a);
		break;
	case SF_OP_POW:
		if (is_const(g, b, 1.0))
			return a;
		if (is_const(g, b, 0.0))
			return dag_const(g, 1.0); /* pow(x, 0) is 1, even NaN */
		if (is_const(g, b, 2.0))
			return op2(g, SF_OP_MUL, a, a);
		/* a data base, an exponent the same in every row: through
		 * the base's logarithm, computed once with the data */
		if (na->cls == CLS_DATA && nb->cls == CLS_PARAM)
			return dag_op(g, SF_OP_POWLOG, a, op1(g, SF_OP_LOG, a),
			              b);
		break;
	case SF_OP_MIN:
	case SF_OP_MAX:
		if (a == b)
			return a;
		break;
	case SF_OP_GT:
		return op2(g, SF_OP_LT, b, a);
	case SF_OP_GE:
		return op2(g, SF_OP_LE, b, a);
	case SF_OP_IF:
		if (na->op == SF_OP_CONST)
			return na->value != na->value
			           ? a
			           : (na->value != 0.0 ? b : c);
		break;
	default:
		break;
	}
	return -1;
}

/* Collect the factors of a product chain rooted at op(a, b): the numerator
 * and denominator factors in order.  Returns the count, or -1 when the
 * chain is longer than REGROUP_MAX. */
static int
dag_factors(const dag *g, int op, int32_t a, int32_t b, int32_t *id, int *den)
{
	int32_t stack[REGROUP_MAX + 2];
	int sden[REGROUP_MAX + 2];
	int top = 0, n = 0;

	stack[top] = b;
	sden[top++] = op == SF_OP_DIV;
	stack[top] = a;
	sden[top++] = 0;
	while (top > 0) {
		int32_t x = stack[--top];
		int d = sden[top];
		const dnode *nx = N(g, x);

		if ((nx->op == SF_OP_MUL || nx->op == SF_OP_DIV) &&
		    nx->cls == CLS_ROW && top + 2 <= REGROUP_MAX) {
			stack[top] = nx->b;
			sden[top++] = d ^ (nx->op == SF_OP_DIV);
			stack[top] = nx->a;
			sden[top++] = d;
			continue;
		}
		if (n == REGROUP_MAX)
			return -1;
		id[n] = x;
		den[n++] = d;
	}
	return n;
}

/* The product (den == 0) or product of denominators (den == 1) of the
 * factors of class cls, or -1 when there are none. */
static int32_t
dag_product(dag *g, const int32_t *id, const int *den, int n, int cls,
            int want_den)
{
	int32_t r = -1;

	for (int i = 0; i < n; i++) {
		int c = N(g, id[i])->cls == CLS_CONST ? CLS_PARAM
		                                      : N(g, id[i])->cls;

		if (c != cls || den[i] != want_den)
			continue;
		r = r < 0 ? id[i] : dag_make(g, SF_OP_MUL, r, id[i], -1, 0);
	}
	return r;
}

/* num / den, where either may be -1 (absent, 1). */
static int32_t
dag_ratio(dag *g, int32_t num, int32_t den)
{
	if (den < 0)
		return num;
	if (num < 0)
		num = dag_const(g, 1.0);
	return dag_make(g, SF_OP_DIV, num, den, -1, 0);
}

/*
 * Regroup the product chain op(a, b) when it has two or more data-only
 * factors or two or more parameter-only ones (constants count as these).
 * Returns the new node or -1 to keep the chain as written.
 */
static int32_t
dag_regroup(dag *g, int op, int32_t a, int32_t b)
{
	int32_t id[REGROUP_MAX], scal, vec, r;
	int den[REGROUP_MAX], n, nd = 0, np = 0;

	n = dag_factors(g, op, a, b, id, den);
	if (n < 0)
		return -1;
	for (int i = 0; i < n; i++) {
		int c = N(g, id[i])->cls;

		nd += c == CLS_DATA;
		np += c == CLS_PARAM || c == CLS_CONST;
	}
	if (nd < 2 && np < 2)
		return -1;
	scal = dag_ratio(g, dag_product(g, id, den, n, CLS_PARAM, 0),
	                 dag_product(g, id, den, n, CLS_PARAM, 1));
	vec = dag_ratio(g, dag_product(g, id, den, n, CLS_DATA, 0),
	                dag_product(g, id, den, n, CLS_DATA, 1));
	if (scal >= 0 && vec >= 0)
		r = dag_make(g, SF_OP_MUL, scal, vec, -1, 0);
	else
		r = scal >= 0 ? scal : vec;
	for (int i = 0; i < n; i++) {
		if (N(g, id[i])->cls != CLS_ROW)
			continue;
		if (r < 0)
			r = den[i] ? dag_ratio(g, -1, id[i]) : id[i];
		else
			r = dag_make(g, den[i] ? SF_OP_DIV : SF_OP_MUL, r,
			             id[i], -1, 0);
	}
	return r;
}

/* The node op(a, b, c) after folding, simplification and (optionally)
 * regrouping; unused operands are -1. */
static int32_t
dag_make(dag *g, int op, int32_t a, int32_t b, int32_t c, int regroup)
{
	int arity = sf_expr_op_info[op].arity;
	dnode k;

	if (g->failed)
		return 0;
	if (N(g, a)->op == SF_OP_CONST &&
	    (arity < 2 || N(g, b)->op == SF_OP_CONST) &&
	    (arity < 3 || N(g, c)->op == SF_OP_CONST))
		return dag_const(g,
		                 sf_op_apply(op, N(g, a)->value,
		                             arity >= 2 ? N(g, b)->value : 0,
		                             arity >= 3 ? N(g, c)->value : 0));
	if (g->simplify || op == SF_OP_GT || op == SF_OP_GE) {
		/* > and >= always become < and <= with swapped operands:
		 * exact, and halves the kernels the evaluator needs */
		int32_t r = dag_simplify(g, op, a, b, c);

		if (r >= 0)
			return r;
	}
	if (sf_expr_op_info[op].commutative && a > b) {
		int32_t t = a;

		a = b;
		b = t;
	}
	memset(&k, 0, sizeof k);
	k.op = (uint8_t)op;
	k.a = a;
	k.b = arity >= 2 ? b : -1;
	k.c = arity >= 3 ? c : -1;
	k.cls = N(g, a)->cls;
	if (arity >= 2)
		k.cls |= N(g, b)->cls;
	if (arity >= 3)
		k.cls |= N(g, c)->cls;
	if (regroup && g->simplify && k.cls == CLS_ROW &&
	    (op == SF_OP_MUL || op == SF_OP_DIV)) {
		int32_t r = dag_regroup(g, op, a, b);

		if (r >= 0)
			return r;
	}
	return dag_intern(g, &k);
}

static int32_t
dag_op(dag *g, int op, int32_t a, int32_t b, int32_t c)
{
	return dag_make(g, op, a, b, c, 1);
}

/* ---- Lowering trees to the DAG ------------------------------------------ */

typedef struct lowering {
	dag *g;
	const int32_t *terms; /* node of each defined term, by index */
} lowering;

static int32_t
lower(lowering *L, const sf_ast *t, int k)
{
	const sf_ast_node *n = &t->nodes[k];
	dag *g = L->g;

	switch (n->kind) {
	case SF_AST_NUM:
	case SF_AST_STR:
		return dag_const(g, n->value);
	case SF_AST_NAME:
		switch (n->ref_kind) {
		case SF_EXPR_INPUT:
			return dag_leaf(g, SF_OP_INPUT, n->ref_index);
		case SF_EXPR_PARAM:
			return dag_leaf(g, SF_OP_PARAM, n->ref_index);
		case SF_EXPR_TERM:
			return L->terms[n->ref_index];
		default:
			return dag_const(g, n->value);
		}
	case SF_AST_UNARY:
		return op1(g, n->op, lower(L, t, n->a));
	case SF_AST_BINARY: {
		int32_t a = lower(L, t, n->a);

		return op2(g, n->op, a, lower(L, t, n->b));
	}
	case SF_AST_CALL: {
		int32_t args[3], r;
		int i = 0, x = n->a;

		if (n->op == SF_OP_MIN || n->op == SF_OP_MAX) {
			r = lower(L, t, x);
			for (x = t->nodes[x].next; x >= 0; x = t->nodes[x].next)
				r = op2(g, n->op, r, lower(L, t, x));
			return r;
		}
		for (; x >= 0 && i < 3; x = t->nodes[x].next)
			args[i++] = lower(L, t, x);
		return dag_op(g, n->op, args[0], i > 1 ? args[1] : -1,
		              i > 2 ? args[2] : -1);
	}
	default:
		return 0;
	}
}

/* ---- Derivatives -------------------------------------------------------- */

static int32_t
d_add(dag *g, int32_t x, int32_t y)
{
	if (x == Z)
		return y;
	if (y == Z)
		return x;
	return op2(g, SF_OP_ADD, x, y);
}

static int32_t
d_sub(dag *g, int32_t x, int32_t y)
{
	if (y == Z)
		return x;
	if (x == Z)
		return op1(g, SF_OP_NEG, y);
	return op2(g, SF_OP_SUB, x, y);
}

static int32_t
d_mul(dag *g, int32_t x, int32_t y)
{
	if (x == Z || y == Z)
		return Z;
	return op2(g, SF_OP_MUL, x, y);
}

static int32_t
d_div(dag *g, int32_t x, int32_t y)
{
	if (x == Z)
		return Z;
	return op2(g, SF_OP_DIV, x, y);
}

static int32_t
d_neg(dag *g, int32_t x)
{
	return x == Z ? Z : op1(g, SF_OP_NEG, x);
}

/* A derivative as a node, structural zero as the constant 0. */
static int32_t
d_node(dag *g, int32_t x)
{
	return x == Z ? dag_const(g, 0.0) : x;
}

/* d(node v)/d(theta_j), given the derivatives D of the operands. */
static int32_t
derive(dag *g, int32_t v, size_t j, const int32_t *D)
{
	const dnode n = *N(g, v);
	int32_t a = n.a, b = n.b, da, db, dc;

	if (!(n.cls & CLS_PARAM))
		return Z;
	if (n.op == SF_OP_PARAM)
		return n.index == j ? dag_const(g, 1.0) : Z;
	da = a >= 0 ? D[a] : Z;
	db = b >= 0 ? D[b] : Z;
	dc = n.c >= 0 ? D[n.c] : Z;
	switch (n.op) {
	case SF_OP_NEG:
		return d_neg(g, da);
	case SF_OP_ADD:
		return d_add(g, da, db);
	case SF_OP_SUB:
		return d_sub(g, da, db);
	case SF_OP_MUL:
		return d_add(g, d_mul(g, da, b), d_mul(g, a, db));
	case SF_OP_DIV:
		/* (da - v * db) / b */
		return d_div(g, d_sub(g, da, d_mul(g, v, db)), b);
	case SF_OP_POW:
		if (db == Z) {
			/* b * a^(b - 1) * da, constant b folded */
			int32_t bm1 = op2(g, SF_OP_SUB, b, dag_const(g, 1.0));

			return d_mul(
			    g, op2(g, SF_OP_MUL, b, op2(g, SF_OP_POW, a, bm1)),
			    da);
		}
		/* v log(a) db; where v = 0 (a zero base, a positive
		 * exponent) the limit 0, not 0 * -inf = NaN */
		if (da == Z)
			return d_mul(
			    g,
			    dag_op(g, SF_OP_IF,
			           op2(g, SF_OP_EQ, v, dag_const(g, 0.0)),
			           dag_const(g, 0.0),
			           op2(g, SF_OP_MUL, v, op1(g, SF_OP_LOG, a))),
			    db);
		/* v * (db * log(a) + b * da / a) */
		return op2(g, SF_OP_MUL, v,
		           op2(g, SF_OP_ADD,
		               op2(g, SF_OP_MUL, db, op1(g, SF_OP_LOG, a)),
		               op2(g, SF_OP_DIV, op2(g, SF_OP_MUL, b, da), a)));
	case SF_OP_MIN:
	case SF_OP_MAX:
		if (da == Z && db == Z)
			return Z;
		/* at a tie, follow the first argument */
		return dag_op(
		    g, SF_OP_IF,
		    op2(g, n.op == SF_OP_MIN ? SF_OP_LE : SF_OP_GE, a, b),
		    d_node(g, da), d_node(g, db));
	case SF_OP_POWLOG:
		/* v log(a) dc (a and log(a) are data); 0 where v is 0 */
		return d_mul(g,
		             dag_op(g, SF_OP_IF,
		                    op2(g, SF_OP_EQ, v, dag_const(g, 0.0)),
		                    dag_const(g, 0.0), op2(g, SF_OP_MUL, v, b)),
		             dc);
	case SF_OP_IF:
		if (db == Z && dc == Z)
			return Z;
		return dag_op(g, SF_OP_IF, a, d_node(g, db), d_node(g, dc));
	case SF_OP_ABS:
		return d_mul(g, op1(g, SF_OP_SIGN, a), da);
	case SF_OP_SQRT:
		return d_div(g, da, op2(g, SF_OP_MUL, dag_const(g, 2.0), v));
	case SF_OP_EXP:
	case SF_OP_VEXP:
		return d_mul(g, v, da);
	case SF_OP_LOG:
	case SF_OP_VLOG:
		return d_div(g, da, a);
	case SF_OP_LOG2:
		return d_div(g, da,
		             op2(g, SF_OP_MUL, a, dag_const(g, SF_EXPR_LN2)));
	case SF_OP_LOG10:
		return d_div(g, da,
		             op2(g, SF_OP_MUL, a, dag_const(g, SF_EXPR_LN10)));
	case SF_OP_SIN:
		return d_mul(g, op1(g, SF_OP_COS, a), da);
	case SF_OP_COS:
		return d_mul(g, op1(g, SF_OP_NEG, op1(g, SF_OP_SIN, a)), da);
	case SF_OP_TAN:
		return d_mul(g,
		             op2(g, SF_OP_ADD, dag_const(g, 1.0),
		                 op2(g, SF_OP_MUL, v, v)),
		             da);
	case SF_OP_ATAN:
		return d_div(g, da,
		             op2(g, SF_OP_ADD, dag_const(g, 1.0),
		                 op2(g, SF_OP_MUL, a, a)));
	default:
		/* floor, ceil, sign, comparisons, logic: derivative 0 */
		return Z;
	}
}

/* ---- Code generation ---------------------------------------------------- */

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

static int
generate(codegen *cg, size_t nvalues)
{
	sf_program *p = cg->p;
	dag *g = cg->g;
	size_t n = cg->n, nslots = 0, ncols = p->ninputs;
	unsigned char *mark = malloc(n ? n : 1);

	if (mark == NULL)
		return SF_ENOMEM;
	mark_output_params(cg, mark);
	free(mark);
	/* what the values use, for sf_program_uses_*() */
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

	/* scalars: constants, theta, then the parameter stage */
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
	p->param_code =
	    calloc(p->nparam_code ? p->nparam_code : 1, sizeof *p->param_code);
	if (p->param_code == NULL)
		return SF_ENOMEM;
	{
		size_t i = 0;

		for (size_t x = 0; x < n; x++) {
			const dnode *d = N(g, (int32_t)x);
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
	}

	/* columns: inputs, then hoisted data nodes (read by the row stage
	 * or an output) */
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

	if (choose_fusions(cg) != SF_OK)
		return SF_ENOMEM;

	/* data stage */
	cg->nitems = 0;
	memset(cg->done, 0, n);
	for (size_t x = 0; x < n; x++)
		if (cg->hoist[x])
			schedule(cg, (int32_t)x, STAGE_DATA);
	p->data_code = emit(cg, STAGE_DATA, &p->ndata_code, &p->data_regs);
	if (p->data_code == NULL)
		return SF_ENOMEM;

	/* row stage, with an output copy after each output's value */
	cg->nitems = 0;
	memset(cg->done, 0, n);
	for (size_t x = 0; x < n; x++)
		cg->reg[x] = -1;
	for (size_t k = 0; k < cg->nroots; k++) {
		schedule(cg, cg->roots[k], STAGE_ROW);
		cg->items[cg->nitems++] = -(int32_t)k - 2;
	}
	p->row_code = emit(cg, STAGE_ROW, &p->nrow_code, &p->row_regs);
	if (p->row_code == NULL)
		return SF_ENOMEM;
	/* where sf_program_eval_sumsq() reads output 0 from */
	for (size_t k = 0; k < p->nrow_code && p->out0_copy == NULL; k++)
		if (p->row_code[k].shape == SF_SHAPE_COPY &&
		    p->row_code[k].idx[0] == 0)
			p->out0_copy = &p->row_code[k];
	for (size_t x = 0; x < n; x++)
		p->nnodes += cg->reach[x];
	return sf_level_plan(p);
}

/* ---- The compiler's entry point ----------------------------------------- */

static char *
copy_string(const char *s)
{
	char *c = malloc(strlen(s) + 1);

	if (c != NULL)
		strcpy(c, s);
	return c;
}

/* Allocate the program's per-input and per-parameter tables. */
static int
program_tables(sf_program *p, const sf_expr_scope *s)
{
	size_t ni = p->ninputs ? p->ninputs : 1;
	size_t np = p->nparams ? p->nparams : 1;

	p->uses_input = calloc(ni, 1);
	p->uses_param = calloc(np, 1);
	p->output_uses_param = calloc(p->nout * np, 1);
	p->input_names = calloc(ni, sizeof *p->input_names);
	p->param_names = calloc(np, sizeof *p->param_names);
	if (p->uses_input == NULL || p->uses_param == NULL ||
	    p->output_uses_param == NULL || p->input_names == NULL ||
	    p->param_names == NULL)
		return SF_ENOMEM;
	for (size_t i = 0; i < p->ninputs; i++) {
		p->input_names[i] =
		    copy_string(sf_expr_scope_name(s, SF_EXPR_INPUT, i));
		if (p->input_names[i] == NULL)
			return SF_ENOMEM;
	}
	for (size_t j = 0; j < p->nparams; j++) {
		p->param_names[j] =
		    copy_string(sf_expr_scope_name(s, SF_EXPR_PARAM, j));
		if (p->param_names[j] == NULL)
			return SF_ENOMEM;
	}
	return SF_OK;
}

/* Lower terms and texts to g; roots[k] gets text k's node. */
static int
lower_all(dag *g, const sf_expr_scope *s, sf_ast **trees, size_t n,
          int32_t *roots)
{
	size_t nterms = s->count[SF_EXPR_TERM];
	int32_t *terms = calloc(nterms ? nterms : 1, sizeof *terms);
	lowering L;

	if (terms == NULL)
		return SF_ENOMEM;
	L.g = g;
	L.terms = terms;
	/* definition order: a term only uses terms defined before it */
	for (size_t order = 0; order < s->defined_terms; order++) {
		for (size_t i = 0; i < s->n; i++) {
			const sf_expr_entry *e = &s->entries[i];

			if (e->kind == SF_EXPR_TERM && e->ast != NULL &&
			    e->order == order) {
				terms[e->index] =
				    lower(&L, e->ast, e->ast->root);
				break;
			}
		}
	}
	for (size_t k = 0; k < n; k++)
		roots[k] = lower(&L, trees[k], trees[k]->root);
	free(terms);
	return g->failed ? SF_ENOMEM : SF_OK;
}

/* Append the derivative roots: roots[k * (1 + P) + 1 + j]. */
static int
differentiate(dag *g, int32_t *roots, size_t n, size_t P)
{
	size_t n0 = g->n;
	int32_t *D = malloc((n0 ? n0 : 1) * sizeof *D);
	/* leaf[j]: the node of parameter j (the DAG interns it once), or n0 */
	size_t *leaf = malloc((P ? P : 1) * sizeof *leaf);

	if (D == NULL || leaf == NULL) {
		free(D);
		free(leaf);
		return SF_ENOMEM;
	}
	for (size_t j = 0; j < P; j++)
		leaf[j] = n0;
	for (size_t x = 0; x < n0; x++) {
		D[x] = Z;
		if (N(g, (int32_t)x)->op == SF_OP_PARAM &&
		    N(g, (int32_t)x)->index < P &&
		    leaf[N(g, (int32_t)x)->index] == n0)
			leaf[N(g, (int32_t)x)->index] = x;
	}
	/* spread the values to their places first */
	for (size_t k = n; k-- > 0;)
		roots[k * (1 + P)] = roots[k];
	for (size_t j = 0; j < P; j++) {
		/* Operands come before their nodes, so only the nodes from
		 * theta_j's own onwards can depend on it, and a node depends
		 * on it when an operand does: the others keep the structural
		 * zero without being derived.  One scan per parameter from its
		 * node, where deriving every node for every parameter took
		 * seconds for thousands of constants. */
		for (size_t x = leaf[j]; x < n0; x++) {
			const dnode *v = N(g, (int32_t)x);

			if (x == leaf[j] || (v->a >= 0 && D[v->a] != Z) ||
			    (v->b >= 0 && D[v->b] != Z) ||
			    (v->c >= 0 && D[v->c] != Z))
				D[x] = derive(g, (int32_t)x, j, D);
		}
		for (size_t k = 0; k < n; k++)
			roots[k * (1 + P) + 1 + j] =
			    d_node(g, D[roots[k * (1 + P)]]);
		for (size_t x = leaf[j]; x < n0; x++)
			D[x] = Z;
	}
	free(D);
	free(leaf);
	return g->failed ? SF_ENOMEM : SF_OK;
}

sf_program *
sf_program_compile(const sf_expr_scope *s, const char *const *texts, size_t n,
                   unsigned flags, int *failed_index, sf_error *err)
{
	sf_program *p = NULL;
	sf_ast **trees = NULL;
	int32_t *roots = NULL;
	dag g;
	codegen cg;
	size_t P, nout;
	int rc = SF_OK;

	memset(&g, 0, sizeof g);
	memset(&cg, 0, sizeof cg);
	if (failed_index != NULL)
		*failed_index = -1;
	if (s == NULL || texts == NULL || n == 0) {
		sf_error_at(err, SF_EINTERNAL, NULL, 0, 0,
		            "sf_program_compile: no scope or no texts");
		return NULL;
	}
	P = s->count[SF_EXPR_PARAM];
	nout = (flags & SF_EXPR_DERIVATIVES) ? n * (1 + P) : n;
	trees = calloc(n, sizeof *trees);
	roots = malloc(nout * sizeof *roots);
	p = calloc(1, sizeof *p);
	if (trees == NULL || roots == NULL || p == NULL)
		goto oom;
	p->nout = nout;
	p->ninputs = s->count[SF_EXPR_INPUT];
	p->nparams = P;
	if (program_tables(p, s) != SF_OK)
		goto oom;

	/* parse and resolve every text */
	for (size_t k = 0; k < n; k++) {
		rc = sf_ast_parse(texts[k] != NULL ? texts[k] : "", &trees[k],
		                  err);
		if (rc == SF_OK)
			rc = sf_scope_resolve(s, trees[k], NULL, flags, err);
		if (rc != SF_OK) {
			if (failed_index != NULL && rc != SF_ENOMEM)
				*failed_index = (int)k;
			goto fail;
		}
	}

	/* the DAG: node 0 is the constant 0, the stand-in after OOM */
	g.simplify = !(flags & SF_EXPR_NO_SIMPLIFY);
	dag_const(&g, 0.0);
	if (g.failed || lower_all(&g, s, trees, n, roots) != SF_OK)
		goto oom;
	if ((flags & SF_EXPR_DERIVATIVES) &&
	    differentiate(&g, roots, n, P) != SF_OK)
		goto oom;

	/* stages and code */
	cg.g = &g;
	cg.p = p;
	cg.n = g.n;
	cg.roots = roots;
	cg.nroots = nout;
	cg.reach = calloc(g.n, 1);
	cg.hoist = calloc(g.n, 1);
	cg.done = calloc(g.n, 1);
	cg.slot = malloc(g.n * sizeof *cg.slot);
	cg.col = malloc(g.n * sizeof *cg.col);
	cg.reg = malloc(g.n * sizeof *cg.reg);
	cg.last = malloc(g.n * sizeof *cg.last);
	cg.items = malloc((g.n + nout) * sizeof *cg.items);
	cg.stack = malloc(g.n * sizeof *cg.stack);
	cg.fused = calloc(g.n, 1);
	if (cg.reach == NULL || cg.hoist == NULL || cg.done == NULL ||
	    cg.slot == NULL || cg.col == NULL || cg.reg == NULL ||
	    cg.last == NULL || cg.items == NULL || cg.stack == NULL ||
	    cg.fused == NULL)
		goto oom;
	for (size_t x = 0; x < g.n; x++)
		cg.slot[x] = cg.col[x] = cg.reg[x] = cg.last[x] = -1;
	if (generate(&cg, n) != SF_OK)
		goto oom;
	goto done;
oom:
	rc = sf_error_at(err, SF_ENOMEM, NULL, 0, 0, "out of memory");
fail:
	sf_program_free(p);
	p = NULL;
done:
	(void)rc;
	if (trees != NULL)
		for (size_t k = 0; k < n; k++)
			sf_ast_free(trees[k]);
	free(trees);
	free(roots);
	free(g.nodes);
	free(g.table);
	free(cg.reach);
	free(cg.hoist);
	free(cg.done);
	free(cg.slot);
	free(cg.col);
	free(cg.reg);
	free(cg.last);
	free(cg.items);
	free(cg.stack);
	free(cg.fused);
	return p;
}

void
sf_program_free(sf_program *p)
{
	if (p == NULL)
		return;
	if (p->input_names != NULL)
		for (size_t i = 0; i < p->ninputs; i++)
			free(p->input_names[i]);
	if (p->param_names != NULL)
		for (size_t j = 0; j < p->nparams; j++)
			free(p->param_names[j]);
	free(p->input_names);
	free(p->param_names);
	free(p->uses_input);
	free(p->uses_param);
	free(p->output_uses_param);
	free(p->consts);
	free(p->data_code);
	free(p->param_code);
	free(p->row_code);
	free(p->row_table);
	free(p->table_inputs);
	free(p);
}

size_t
sf_program_outputs(const sf_program *p)
{
	return p->nout;
}

size_t
sf_program_inputs(const sf_program *p)
{
	return p->ninputs;
}

size_t
sf_program_params(const sf_program *p)
{
	return p->nparams;
}

int
sf_program_uses_input(const sf_program *p, size_t i)
{
	return i < p->ninputs && p->uses_input[i];
}

int
sf_program_uses_param(const sf_program *p, size_t j)
{
	return j < p->nparams && p->uses_param[j];
}

int
sf_program_output_uses_param(const sf_program *p, size_t k, size_t j)
{
	return k < p->nout && j < p->nparams &&
	       p->output_uses_param[k * p->nparams + j];
}

const char *
sf_program_input_name(const sf_program *p, size_t i)
{
	return i < p->ninputs ? p->input_names[i] : NULL;
}

const char *
sf_program_param_name(const sf_program *p, size_t j)
{
	return j < p->nparams ? p->param_names[j] : NULL;
}

void
sf_program_get_stats(const sf_program *p, sf_program_stats *st)
{
	memset(st, 0, sizeof *st);
	st->nodes = p->nnodes;
	st->constants = p->nconst;
	st->data_instructions = p->ndata_code;
	st->hoisted_columns = p->nhoisted;
	st->param_instructions = p->nparam_code;
	st->row_instructions = p->nrow_code;
	st->registers = p->row_regs;
	st->block_rows = SF_EXPR_BLOCK;
}
