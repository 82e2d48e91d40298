/*
 * compile.c - from resolved syntax trees to a staged program.
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
 * 4. Staging and code generation: codegen.c.
 */
#include "expr/codegen.h"
#include "base/grow.h"
#include "expr/internal.h"

#include <stdlib.h>
#include <string.h>

/* No dependence: the structural zero of derivatives. */
#define Z (-1)

/* Longest product chain the regrouping looks at. */
#define REGROUP_MAX 32

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
	dnode *m;
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
	if (g->n >= INT32_MAX - 1 ||
	    (m = sf_grow(g->nodes, &g->cap, g->n, sizeof *m, 256)) == NULL)
		goto oom;
	g->nodes = m;
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

/* d(v = a^b) from the operands' derivatives da and db. */
static int32_t
derive_pow(dag *g, int32_t v, int32_t a, int32_t b, int32_t da, int32_t db)
{
	if (db == Z) {
		/* b * a^(b - 1) * da, constant b folded */
		int32_t bm1 = op2(g, SF_OP_SUB, b, dag_const(g, 1.0));

		return d_mul(g, op2(g, SF_OP_MUL, b, op2(g, SF_OP_POW, a, bm1)),
		             da);
	}
	/* v log(a) db; where v = 0 (a zero base, a positive exponent) the
	 * limit 0, not 0 * -inf = NaN */
	if (da == Z)
		return d_mul(g,
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
		return derive_pow(g, v, a, b, da, db);
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

/* ---- The compiler's entry point ----------------------------------------- */

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
		    strdup(sf_expr_scope_name(s, SF_EXPR_INPUT, i));
		if (p->input_names[i] == NULL)
			return SF_ENOMEM;
	}
	for (size_t j = 0; j < p->nparams; j++) {
		p->param_names[j] =
		    strdup(sf_expr_scope_name(s, SF_EXPR_PARAM, j));
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

/* Parse and resolve every text into trees[k]; on an error that is not
 * out of memory, *failed_index (may be NULL) is the text's index. */
static int
parse_all(const sf_expr_scope *s, const char *const *texts, size_t n,
          unsigned flags, sf_ast **trees, int *failed_index, sf_error *err)
{
	for (size_t k = 0; k < n; k++) {
		int rc = sf_ast_parse(texts[k] != NULL ? texts[k] : "",
		                      &trees[k], err);

		if (rc == SF_OK)
			rc = sf_scope_resolve(s, trees[k], NULL, flags, err);
		if (rc != SF_OK) {
			if (failed_index != NULL && rc != SF_ENOMEM)
				*failed_index = (int)k;
			return rc;
		}
	}
	return SF_OK;
}

/* Keep of the n * (1 + P) roots each text's value and its derivatives by
 * the parameters flagged in wrt, in place, in order. */
static void
keep_wrt(int32_t *roots, size_t n, size_t P, const int *wrt)
{
	size_t kept = 0;

	for (size_t k = 0; k < n; k++)
		for (size_t o = 0; o <= P; o++)
			if (o == 0 || wrt[o - 1])
				roots[kept++] = roots[k * (1 + P) + o];
}

/* sf_program_compile, or with wrt (and SF_EXPR_DERIVATIVES) the
 * derivatives by the flagged parameters only: sf_program_compile_wrt. */
static sf_program *
compile_program(const sf_expr_scope *s, const char *const *texts, size_t n,
                unsigned flags, const int *wrt, int *failed_index,
                sf_error *err)
{
	sf_program *p = NULL;
	sf_ast **trees = NULL;
	int32_t *roots = NULL;
	dag g;
	size_t P, nout, W = 0;

	memset(&g, 0, sizeof g);
	if (failed_index != NULL)
		*failed_index = -1;
	if (s == NULL || texts == NULL || n == 0) {
		sf_error_at(err, SF_EINTERNAL, NULL, 0, 0,
		            "sf_program_compile: no scope or no texts");
		return NULL;
	}
	P = s->count[SF_EXPR_PARAM];
	for (size_t j = 0; wrt != NULL && j < P; j++)
		W += wrt[j] != 0;
	nout = !(flags & SF_EXPR_DERIVATIVES) ? n
	       : wrt != NULL                  ? n * (1 + W)
	                                      : n * (1 + P);
	trees = calloc(n, sizeof *trees);
	roots = malloc(n * (1 + P) * sizeof *roots);
	p = calloc(1, sizeof *p);
	if (trees == NULL || roots == NULL || p == NULL)
		goto oom;
	p->nout = nout;
	p->ninputs = s->count[SF_EXPR_INPUT];
	p->nparams = P;
	if (program_tables(p, s) != SF_OK)
		goto oom;
	if (parse_all(s, texts, n, flags, trees, failed_index, err) != SF_OK)
		goto fail;
	/* the DAG: node 0 is the constant 0, the stand-in after OOM */
	g.simplify = !(flags & SF_EXPR_NO_SIMPLIFY);
	dag_const(&g, 0.0);
	if (g.failed || lower_all(&g, s, trees, n, roots) != SF_OK)
		goto oom;
	if ((flags & SF_EXPR_DERIVATIVES) &&
	    differentiate(&g, roots, n, P) != SF_OK)
		goto oom;
	/* the same DAG, fewer outputs: the kept ones' bits do not change */
	if ((flags & SF_EXPR_DERIVATIVES) && wrt != NULL)
		keep_wrt(roots, n, P, wrt);
	/* stages and code */
	if (sf_codegen_generate(&g, p, roots, nout, n) != SF_OK)
		goto oom;
	goto done;
oom:
	sf_error_at(err, SF_ENOMEM, NULL, 0, 0, "out of memory");
fail:
	sf_program_free(p);
	p = NULL;
done:
	if (trees != NULL)
		for (size_t k = 0; k < n; k++)
			sf_ast_free(trees[k]);
	free(trees);
	free(roots);
	free(g.nodes);
	free(g.table);
	return p;
}

sf_program *
sf_program_compile(const sf_expr_scope *s, const char *const *texts, size_t n,
                   unsigned flags, int *failed_index, sf_error *err)
{
	return compile_program(s, texts, n, flags, NULL, failed_index, err);
}

sf_program *
sf_program_compile_wrt(const sf_expr_scope *s, const char *text, const int *wrt,
                       sf_error *err)
{
	return compile_program(s, &text, 1, SF_EXPR_DERIVATIVES, wrt, NULL,
	                       err);
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
