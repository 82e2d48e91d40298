/*
 * expr_parse.c - recursive-descent parser from text to syntax tree, and the
 * canonical printer that turns a tree back into text.
 *
 * One function per grammar rule, the rule written above it.  The tree keeps
 * every node's byte offset so that later passes (name resolution, type
 * checks) can point at the column of the offending name or operator.
 * Function names and arities are checked by resolution (expr_scope.c), not
 * here, so that the message can say "'p' is an input, not a function".
 *
 * Recursion is bounded: nesting deeper than SF_EXPR_MAX_DEPTH and trees
 * taller than 4 * SF_EXPR_MAX_DEPTH are syntax errors, so no input can
 * exhaust the stack of this or any later pass.
 */
#include "expr/internal.h"
#include "base/number.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The tallest tree later (recursive) passes accept. */
#define SF_AST_MAX_HEIGHT (4 * SF_EXPR_MAX_DEPTH)

typedef struct parser {
	sf_lexer lx;
	sf_ast *t;
	sf_error *err;
	int depth;
	int *height; /* per node, for the height limit */
	size_t height_cap;
} parser;

/* ---- Tree building ------------------------------------------------------ */

/*
 * The error of a tree taller than SF_AST_MAX_HEIGHT at operator pos.  A
 * flat sum or product (a + b + c + ..., its operators one under the other
 * on the left) is not nested, only long: say so, and how to shorten it.
 */
static void
too_tall(parser *p, int kind, int op, size_t pos, int a)
{
	const sf_ast_node *left = &p->t->nodes[a];
	int additive = op == SF_OP_ADD || op == SF_OP_SUB;

	if (kind == SF_AST_BINARY && left->kind == SF_AST_BINARY &&
	    (additive ? left->op == SF_OP_ADD || left->op == SF_OP_SUB
	              : (op == SF_OP_MUL || op == SF_OP_DIV) &&
	                    (left->op == SF_OP_MUL || left->op == SF_OP_DIV)))
		sf_error_at(p->err, SF_ESYNTAX, NULL, 1, (int)pos + 1,
		            "a %s of more than %d %s in a row, the most an "
		            "expression holds: group them in parentheses, %s, "
		            "or give parts of it as terms",
		            additive ? "sum" : "product", SF_AST_MAX_HEIGHT,
		            additive ? "terms" : "factors",
		            additive ? "(a + b + ...) + (c + d + ...)"
		                     : "(a * b * ...) * (c * d * ...)");
	else
		sf_error_at(p->err, SF_ESYNTAX, NULL, 1, (int)pos + 1,
		            "expression is too deeply nested (more than %d "
		            "operators)",
		            SF_AST_MAX_HEIGHT);
}

static int
ast_add(parser *p, int kind, int op, size_t pos, int a, int b)
{
	sf_ast *t = p->t;
	sf_ast_node *n;
	int h = 1;

	if (t->n == t->cap) {
		size_t cap = t->cap ? 2 * t->cap : 16;
		sf_ast_node *nodes = realloc(t->nodes, cap * sizeof *nodes);
		int *height = realloc(p->height, cap * sizeof *height);

		if (nodes != NULL)
			t->nodes = nodes;
		if (height != NULL)
			p->height = height;
		if (nodes == NULL || height == NULL) {
			sf_error_at(p->err, SF_ENOMEM, NULL, 1, 0,
			            "out of memory");
			return -1;
		}
		t->cap = cap;
	}
	if (kind == SF_AST_UNARY || kind == SF_AST_BINARY)
		h = 1 + p->height[a];
	if (kind == SF_AST_BINARY && 1 + p->height[b] > h)
		h = 1 + p->height[b];
	if (h > SF_AST_MAX_HEIGHT) {
		too_tall(p, kind, op, pos, a);
		return -1;
	}
	n = &t->nodes[t->n];
	memset(n, 0, sizeof *n);
	n->kind = kind;
	n->op = op;
	n->pos = pos;
	n->a = a;
	n->b = b;
	n->next = -1;
	p->height[t->n] = h;
	return (int)t->n++;
}

/* A call's height is that of its tallest argument, plus one. */
static int
ast_call_height(parser *p, int call)
{
	int h = 1;

	for (int k = p->t->nodes[call].a; k >= 0; k = p->t->nodes[k].next)
		if (1 + p->height[k] > h)
			h = 1 + p->height[k];
	p->height[call] = h;
	if (h > SF_AST_MAX_HEIGHT)
		return sf_error_at(p->err, SF_ESYNTAX, NULL, 1,
		                   (int)p->t->nodes[call].pos + 1,
		                   "expression is too deeply nested (more "
		                   "than %d operators)",
		                   SF_AST_MAX_HEIGHT);
	return SF_OK;
}

/* ---- Tokens ------------------------------------------------------------- */

static int
next(parser *p)
{
	return sf_lex_next(&p->lx, p->err);
}

static const sf_token *
tok(const parser *p)
{
	return &p->lx.tok;
}

/* Describe the current token for a message: "name 'b'", "'+'", ... */
static void
describe(const parser *p, char *buf, size_t size)
{
	const sf_token *k = tok(p);
	int len = k->len > 40 ? 40 : (int)k->len;
	const char *at = p->lx.text + k->pos;

	switch (k->type) {
	case SF_TOK_NUMBER:
		snprintf(buf, size, "number '%.*s'", len, at);
		break;
	case SF_TOK_NAME:
		snprintf(buf, size, "name '%.*s'", len, at);
		break;
	case SF_TOK_STRING:
		snprintf(buf, size, "string %.*s", len, at);
		break;
	case SF_TOK_POW:
		snprintf(buf, size, "'%.*s'", len, at);
		break;
	default:
		snprintf(buf, size, "%s", sf_lex_describe(k->type));
		break;
	}
}

static int
column(const parser *p)
{
	return (int)tok(p)->pos + 1;
}

static int
deeper(parser *p)
{
	if (++p->depth > SF_EXPR_MAX_DEPTH)
		return sf_error_at(p->err, SF_ESYNTAX, NULL, 1, column(p),
		                   "expression is too deeply nested (more "
		                   "than %d levels)",
		                   SF_EXPR_MAX_DEPTH);
	return SF_OK;
}

/* ---- Grammar ------------------------------------------------------------ */

static int parse_or(parser *p);
static int parse_unary(parser *p);

/* The error for a token where an operand should start. */
static int
expected_operand(parser *p)
{
	char what[64];

	if (tok(p)->type == SF_TOK_END)
		return sf_error_at(p->err, SF_ESYNTAX, NULL, 1, column(p),
		                   "unexpected end of expression; expected "
		                   "an operand");
	describe(p, what, sizeof what);
	return sf_error_at(p->err, SF_ESYNTAX, NULL, 1, column(p),
	                   "unexpected %s; expected an operand", what);
}

/* arguments = [ or { "," or } ] ")"   (after "name(") */
static int
parse_arguments(parser *p, int call)
{
	int last = -1, count = 0;
	const char *name = p->lx.text + p->t->nodes[call].pos;
	int namelen = (int)p->t->nodes[call].len;

	if (tok(p)->type == SF_TOK_RPAREN)
		return next(p);
	for (;;) {
		int arg = parse_or(p);
		char what[64];

		if (arg < 0)
			return -1;
		if (last < 0)
			p->t->nodes[call].a = arg;
		else
			p->t->nodes[last].next = arg;
		last = arg;
		count++;
		p->t->nodes[call].b = count;
		if (tok(p)->type == SF_TOK_COMMA) {
			if (next(p) != SF_OK)
				return -1;
			continue;
		}
		if (tok(p)->type == SF_TOK_RPAREN)
			break;
		if (tok(p)->type == SF_TOK_END)
			return sf_error_at(
			    p->err, SF_ESYNTAX, NULL, 1, column(p),
			    "missing ')' to close '%.*s(' at "
			    "column %zu",
			    namelen, name, p->t->nodes[call].pos + 1);
		describe(p, what, sizeof what);
		return sf_error_at(p->err, SF_ESYNTAX, NULL, 1, column(p),
		                   "unexpected %s in the arguments of '%.*s'; "
		                   "expected ',' or ')'",
		                   what, namelen, name);
	}
	return next(p);
}

/*
 * primary = NUMBER | STRING | NAME | NAME "(" arguments
 *         | "(" or ")"
 */
static int
parse_primary(parser *p)
{
	const sf_token k = *tok(p);
	int node;

	switch (k.type) {
	case SF_TOK_NUMBER:
		node = ast_add(p, SF_AST_NUM, SF_OP_CONST, k.pos, -1, -1);
		if (node < 0)
			return -1;
		p->t->nodes[node].value = k.value;
		p->t->nodes[node].len = k.len;
		return next(p) == SF_OK ? node : -1;
	case SF_TOK_STRING:
		node = ast_add(p, SF_AST_STR, SF_OP_CONST, k.pos, -1, -1);
		if (node < 0)
			return -1;
		p->t->nodes[node].len = k.len;
		return next(p) == SF_OK ? node : -1;
	case SF_TOK_NAME:
		if (next(p) != SF_OK)
			return -1;
		if (tok(p)->type != SF_TOK_LPAREN) {
			node =
			    ast_add(p, SF_AST_NAME, SF_OP_CONST, k.pos, -1, -1);
			if (node >= 0)
				p->t->nodes[node].len = k.len;
			return node;
		}
		node = ast_add(p, SF_AST_CALL, -1, k.pos, -1, 0);
		if (node < 0)
			return -1;
		p->t->nodes[node].len = k.len;
		if (deeper(p) != SF_OK || next(p) != SF_OK ||
		    parse_arguments(p, node) != SF_OK)
			return -1;
		p->depth--;
		return ast_call_height(p, node) == SF_OK ? node : -1;
	case SF_TOK_LPAREN: {
		size_t open = k.pos;

		if (deeper(p) != SF_OK || next(p) != SF_OK)
			return -1;
		node = parse_or(p);
		if (node < 0)
			return -1;
		if (tok(p)->type != SF_TOK_RPAREN) {
			char what[64];

			if (tok(p)->type == SF_TOK_END) {
				sf_error_at(p->err, SF_ESYNTAX, NULL, 1,
				            column(p),
				            "missing ')' to close the '(' at "
				            "column %zu",
				            open + 1);
				return -1;
			}
			describe(p, what, sizeof what);
			sf_error_at(p->err, SF_ESYNTAX, NULL, 1, column(p),
			            "unexpected %s; expected an operator or "
			            "')' to close the '(' at column %zu",
			            what, open + 1);
			return -1;
		}
		p->depth--;
		p->t->nodes[node].paren = 1;
		return next(p) == SF_OK ? node : -1;
	}
	default:
		expected_operand(p);
		return -1;
	}
}

/* exponent = ("-" | "+") exponent | power */
static int parse_power(parser *p);

static int
parse_exponent(parser *p)
{
	const sf_token k = *tok(p);
	int a;

	if (k.type != SF_TOK_MINUS && k.type != SF_TOK_PLUS)
		return parse_power(p);
	if (deeper(p) != SF_OK || next(p) != SF_OK)
		return -1;
	a = parse_exponent(p);
	if (a < 0)
		return -1;
	p->depth--;
	if (k.type == SF_TOK_PLUS)
		return a;
	return ast_add(p, SF_AST_UNARY, SF_OP_NEG, k.pos, a, -1);
}

/* power = primary [ ("^" | "**") exponent ] */
static int
parse_power(parser *p)
{
	int a = parse_primary(p), b;
	size_t pos;

	if (a < 0 || tok(p)->type != SF_TOK_POW)
		return a;
	pos = tok(p)->pos;
	if (deeper(p) != SF_OK || next(p) != SF_OK)
		return -1;
	b = parse_exponent(p);
	if (b < 0)
		return -1;
	p->depth--;
	return ast_add(p, SF_AST_BINARY, SF_OP_POW, pos, a, b);
}

/* unary = ("-" | "+" | "!") unary | power */
static int
parse_unary(parser *p)
{
	const sf_token k = *tok(p);
	int a;

	if (k.type != SF_TOK_MINUS && k.type != SF_TOK_PLUS &&
	    k.type != SF_TOK_NOT)
		return parse_power(p);
	if (deeper(p) != SF_OK || next(p) != SF_OK)
		return -1;
	a = parse_unary(p);
	if (a < 0)
		return -1;
	p->depth--;
	if (k.type == SF_TOK_PLUS)
		return a;
	return ast_add(p, SF_AST_UNARY,
	               k.type == SF_TOK_MINUS ? SF_OP_NEG : SF_OP_NOT, k.pos, a,
	               -1);
}

/* product = unary { ("*" | "/") unary } */
static int
parse_product(parser *p)
{
	int a = parse_unary(p);

	while (a >= 0 &&
	       (tok(p)->type == SF_TOK_STAR || tok(p)->type == SF_TOK_SLASH)) {
		const sf_token k = *tok(p);
		int b;

		if (next(p) != SF_OK)
			return -1;
		b = parse_unary(p);
		if (b < 0)
			return -1;
		a = ast_add(p, SF_AST_BINARY,
		            k.type == SF_TOK_STAR ? SF_OP_MUL : SF_OP_DIV,
		            k.pos, a, b);
	}
	return a;
}

/* sum = product { ("+" | "-") product } */
static int
parse_sum(parser *p)
{
	int a = parse_product(p);

	while (a >= 0 &&
	       (tok(p)->type == SF_TOK_PLUS || tok(p)->type == SF_TOK_MINUS)) {
		const sf_token k = *tok(p);
		int b;

		if (next(p) != SF_OK)
			return -1;
		b = parse_product(p);
		if (b < 0)
			return -1;
		a = ast_add(p, SF_AST_BINARY,
		            k.type == SF_TOK_PLUS ? SF_OP_ADD : SF_OP_SUB,
		            k.pos, a, b);
	}
	return a;
}

/* The comparison operator of a token type, or -1. */
static int
comparison_op(sf_tok_type t)
{
	switch (t) {
	case SF_TOK_LT:
		return SF_OP_LT;
	case SF_TOK_LE:
		return SF_OP_LE;
	case SF_TOK_GT:
		return SF_OP_GT;
	case SF_TOK_GE:
		return SF_OP_GE;
	case SF_TOK_EQ:
		return SF_OP_EQ;
	case SF_TOK_NE:
		return SF_OP_NE;
	default:
		return -1;
	}
}

/* comparison = sum [ ("<" | "<=" | ">" | ">=" | "==" | "!=") sum ] */
static int
parse_comparison(parser *p)
{
	int a = parse_sum(p), b, op;
	size_t pos;

	if (a < 0 || (op = comparison_op(tok(p)->type)) < 0)
		return a;
	pos = tok(p)->pos;
	if (next(p) != SF_OK)
		return -1;
	b = parse_sum(p);
	if (b < 0)
		return -1;
	if (comparison_op(tok(p)->type) >= 0) {
		sf_error_at(p->err, SF_ESYNTAX, NULL, 1, column(p),
		            "comparisons do not chain; write 'a < b && b < "
		            "c', or use parentheses");
		return -1;
	}
	return ast_add(p, SF_AST_BINARY, op, pos, a, b);
}

/* and = comparison { "&&" comparison } */
static int
parse_and(parser *p)
{
	int a = parse_comparison(p);

	while (a >= 0 && tok(p)->type == SF_TOK_AND) {
		size_t pos = tok(p)->pos;
		int b;

		if (next(p) != SF_OK)
			return -1;
		b = parse_comparison(p);
		if (b < 0)
			return -1;
		a = ast_add(p, SF_AST_BINARY, SF_OP_AND, pos, a, b);
	}
	return a;
}

/* or = and { "||" and } */
static int
parse_or(parser *p)
{
	int a = parse_and(p);

	while (a >= 0 && tok(p)->type == SF_TOK_OR) {
		size_t pos = tok(p)->pos;
		int b;

		if (next(p) != SF_OK)
			return -1;
		b = parse_and(p);
		if (b < 0)
			return -1;
		a = ast_add(p, SF_AST_BINARY, SF_OP_OR, pos, a, b);
	}
	return a;
}

/* expression = or END */
int
sf_ast_parse(const char *text, sf_ast **out, sf_error *err)
{
	parser p;
	sf_ast *t;
	int rc = SF_OK;

	*out = NULL;
	t = calloc(1, sizeof *t);
	if (t == NULL)
		return sf_error_at(err, SF_ENOMEM, NULL, 1, 0, "out of memory");
	t->root = -1;
	t->text = malloc(strlen(text) + 1);
	if (t->text == NULL) {
		free(t);
		return sf_error_at(err, SF_ENOMEM, NULL, 1, 0, "out of memory");
	}
	strcpy(t->text, text);
	memset(&p, 0, sizeof p);
	p.lx.text = t->text;
	p.t = t;
	p.err = err;
	if (next(&p) != SF_OK)
		goto fail;
	if (tok(&p)->type == SF_TOK_END) {
		sf_error_at(err, SF_ESYNTAX, NULL, 1, 1, "empty expression");
		goto fail;
	}
	t->root = parse_or(&p);
	if (t->root < 0)
		goto fail;
	if (tok(&p)->type != SF_TOK_END) {
		char what[64];

		describe(&p, what, sizeof what);
		if (tok(&p)->type == SF_TOK_RPAREN)
			sf_error_at(err, SF_ESYNTAX, NULL, 1, column(&p),
			            "unexpected ')' with no '(' open");
		else
			sf_error_at(err, SF_ESYNTAX, NULL, 1, column(&p),
			            "unexpected %s; expected an operator",
			            what);
		goto fail;
	}
	free(p.height);
	*out = t;
	return SF_OK;
fail:
	rc = err != NULL && err->code != SF_OK ? err->code : SF_ESYNTAX;
	free(p.height);
	sf_ast_free(t);
	return rc;
}

void
sf_ast_free(sf_ast *t)
{
	if (t == NULL)
		return;
	free(t->text);
	free(t->nodes);
	free(t);
}

char *
sf_ast_string(const sf_ast *t, int k)
{
	const sf_ast_node *n = &t->nodes[k];
	const char *s = t->text + n->pos + 1;
	size_t len = n->len - 2, j = 0;
	char *out = malloc(len + 1);

	if (out == NULL)
		return NULL;
	for (size_t i = 0; i < len; i++) {
		out[j++] = s[i];
		if (s[i] == '\'')
			i++; /* '' stands for one quote */
	}
	out[j] = '\0';
	return out;
}

/* ---- Canonical printing ------------------------------------------------- */

/* Binding strength of a node's operator; higher binds tighter. */
enum {
	PREC_OR = 1,
	PREC_AND,
	PREC_CMP,
	PREC_SUM,
	PREC_PRODUCT,
	PREC_UNARY,
	PREC_POWER,
	PREC_PRIMARY
};

static int
precedence(const sf_ast_node *n)
{
	if (n->kind == SF_AST_UNARY)
		return PREC_UNARY;
	if (n->kind != SF_AST_BINARY)
		return PREC_PRIMARY;
	switch (n->op) {
	case SF_OP_OR:
		return PREC_OR;
	case SF_OP_AND:
		return PREC_AND;
	case SF_OP_ADD:
	case SF_OP_SUB:
		return PREC_SUM;
	case SF_OP_MUL:
	case SF_OP_DIV:
		return PREC_PRODUCT;
	case SF_OP_POW:
		return PREC_POWER;
	default:
		return PREC_CMP;
	}
}

typedef struct strbuf {
	char *s;
	size_t len, cap;
	int failed;
} strbuf;

static void
sb_add(strbuf *b, const char *s, size_t n)
{
	if (b->failed)
		return;
	if (b->len + n + 1 > b->cap) {
		size_t cap = b->cap ? b->cap : 64;
		char *m;

		while (cap < b->len + n + 1)
			cap *= 2;
		m = realloc(b->s, cap);
		if (m == NULL) {
			b->failed = 1;
			return;
		}
		b->s = m;
		b->cap = cap;
	}
	memcpy(b->s + b->len, s, n);
	b->len += n;
	b->s[b->len] = '\0';
}

static void
sb_str(strbuf *b, const char *s)
{
	sb_add(b, s, strlen(s));
}

/* The shortest %g form of v that reads back as v. */
static void
print_number(strbuf *b, double v)
{
	char buf[40];

	sb_str(b, sf_format_double(buf, sizeof buf, v));
}

static const char *
op_spelling(int op)
{
	switch (op) {
	case SF_OP_ADD:
		return " + ";
	case SF_OP_SUB:
		return " - ";
	case SF_OP_MUL:
		return " * ";
	case SF_OP_DIV:
		return " / ";
	case SF_OP_POW:
		return "^";
	case SF_OP_LT:
		return " < ";
	case SF_OP_LE:
		return " <= ";
	case SF_OP_GT:
		return " > ";
	case SF_OP_GE:
		return " >= ";
	case SF_OP_EQ:
		return " == ";
	case SF_OP_NE:
		return " != ";
	case SF_OP_AND:
		return " && ";
	case SF_OP_OR:
		return " || ";
	case SF_OP_NEG:
		return "-";
	case SF_OP_NOT:
		return "!";
	default:
		return "?";
	}
}

static void print_node(strbuf *b, const sf_ast *t, int k);

static void
print_wrapped(strbuf *b, const sf_ast *t, int k, int parens)
{
	if (parens)
		sb_str(b, "(");
	print_node(b, t, k);
	if (parens)
		sb_str(b, ")");
}

/* Whether node k may stand unparenthesised as the exponent of ^, which
 * the grammar reads as  exponent = ("-"|"+") exponent | power. */
static int
fits_exponent(const sf_ast *t, int k)
{
	const sf_ast_node *n = &t->nodes[k];

	if (n->kind == SF_AST_UNARY)
		return n->op == SF_OP_NEG && fits_exponent(t, n->a);
	return precedence(n) >= PREC_POWER;
}

static void
print_node(strbuf *b, const sf_ast *t, int k)
{
	const sf_ast_node *n = &t->nodes[k];
	int prec = precedence(n);

	switch (n->kind) {
	case SF_AST_NUM:
		print_number(b, n->value);
		break;
	case SF_AST_STR:
	case SF_AST_NAME:
		sb_add(b, t->text + n->pos, n->len);
		break;
	case SF_AST_UNARY:
		sb_str(b, op_spelling(n->op));
		/* "- -x" rather than "--x", which reads the same but looks
		 * like a decrement */
		if (t->nodes[n->a].kind == SF_AST_UNARY &&
		    t->nodes[n->a].op == n->op && n->op == SF_OP_NEG)
			sb_str(b, " ");
		print_wrapped(b, t, n->a, precedence(&t->nodes[n->a]) < prec);
		break;
	case SF_AST_BINARY:
		if (n->op == SF_OP_POW) {
			print_wrapped(b, t, n->a,
			              precedence(&t->nodes[n->a]) <= prec);
			sb_str(b, "^");
			print_wrapped(b, t, n->b, !fits_exponent(t, n->b));
		} else if (prec == PREC_CMP) {
			print_wrapped(b, t, n->a,
			              precedence(&t->nodes[n->a]) <= prec);
			sb_str(b, op_spelling(n->op));
			print_wrapped(b, t, n->b,
			              precedence(&t->nodes[n->b]) <= prec);
		} else {
			print_wrapped(b, t, n->a,
			              precedence(&t->nodes[n->a]) < prec);
			sb_str(b, op_spelling(n->op));
			print_wrapped(b, t, n->b,
			              precedence(&t->nodes[n->b]) <= prec);
		}
		break;
	case SF_AST_CALL:
		sb_add(b, t->text + n->pos, n->len);
		sb_str(b, "(");
		for (int a = n->a; a >= 0; a = t->nodes[a].next) {
			print_node(b, t, a);
			if (t->nodes[a].next >= 0)
				sb_str(b, ", ");
		}
		sb_str(b, ")");
		break;
	default:
		break;
	}
}

char *
sf_ast_print(const sf_ast *t)
{
	strbuf b = {NULL, 0, 0, 0};

	print_node(&b, t, t->root);
	if (b.failed) {
		free(b.s);
		return NULL;
	}
	return b.s;
}

/* ---- sums of names ------------------------------------------------------ */

/* Count in added[j] the summands of the sum at node k (added when sign >
 * 0, subtracted otherwise) that are exactly names[j].  A sum is read
 * through + and - at any depth of parentheses; anything else is one
 * summand. */
static void
count_summands(const sf_ast *t, int k, int sign, const char *const *names,
               size_t n, size_t *added)
{
	const sf_ast_node *node = &t->nodes[k];

	if (node->kind == SF_AST_BINARY &&
	    (node->op == SF_OP_ADD || node->op == SF_OP_SUB)) {
		count_summands(t, node->a, sign, names, n, added);
		count_summands(t, node->b, node->op == SF_OP_ADD ? sign : -sign,
		               names, n, added);
		return;
	}
	if (node->kind != SF_AST_NAME || sign < 0)
		return;
	for (size_t j = 0; j < n; j++)
		if (strlen(names[j]) == node->len &&
		    memcmp(t->text + node->pos, names[j], node->len) == 0)
			added[j]++;
}

/* How many times name is written in text (as sf_expr_mentions() reads). */
static size_t
count_mentions(const char *text, const char *name)
{
	size_t len = strlen(name), count = 0;
	sf_lexer lx = {text, 0, {SF_TOK_END, 0, 0, 0.0}};

	while (sf_lex_next(&lx, NULL) == SF_OK && lx.tok.type != SF_TOK_END)
		count += lx.tok.type == SF_TOK_NAME && lx.tok.len == len &&
		         memcmp(text + lx.tok.pos, name, len) == 0;
	return count;
}

int
sf_expr_sum_of(const char *text, const char *const *names, size_t n)
{
	sf_ast *t = NULL;
	size_t *added;
	int sum = 1;

	if (sf_ast_parse(text, &t, NULL) != SF_OK)
		return 0;
	if ((added = calloc(n + 1, sizeof *added)) == NULL) {
		sf_ast_free(t);
		return 0;
	}
	count_summands(t, t->root, 1, names, n, added);
	for (size_t j = 0; j < n && sum; j++)
		sum = added[j] == 1 && count_mentions(text, names[j]) == 1;
	free(added);
	sf_ast_free(t);
	return sum;
}
