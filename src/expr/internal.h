/*
 * expr_internal.h - what the expression engine's files share, and nobody
 * else sees: tokens, the syntax tree, the scope's entries, the operators
 * with their scalar semantics, and the compiled program's layout.
 *
 * The scalar operator functions below are the single definition of what
 * each operator computes.  Constant folding and all three evaluation stages
 * call them, so a folded constant is bit-identical to the same value
 * computed at run time.
 */
#ifndef SF_EXPR_INTERNAL_H
#define SF_EXPR_INTERNAL_H

#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "base/error.h"
#include "base/names.h"
#include "expr/expr.h"

/* Rows per register block of the row and data stages.  A multiple of every
 * vector width, so the block loops need no remainder code. */
#define SF_EXPR_BLOCK 256

/* pi and e to double precision (M_PI is not in ISO C). */
#define SF_EXPR_PI 3.14159265358979323846
#define SF_EXPR_E 2.71828182845904523536
#define SF_EXPR_LN2 0.69314718055994530942
#define SF_EXPR_LN10 2.30258509299404568402

/* ---- Operators ---------------------------------------------------------- */

/* Every operator of the language and of the compiled program.  The order
 * groups leaves, unary and binary operators; sf_op_info[] follows it. */
typedef enum sf_op {
	SF_OP_CONST, /* a number */
	SF_OP_INPUT, /* input slot */
	SF_OP_PARAM, /* theta[j] */
	/* unary */
	SF_OP_NEG,
	SF_OP_NOT,
	SF_OP_ABS,
	SF_OP_SIGN, /* internal: derivative of abs */
	SF_OP_FLOOR,
	SF_OP_CEIL,
	SF_OP_SQRT,
	SF_OP_EXP,
	SF_OP_LOG,
	SF_OP_LOG2,
	SF_OP_LOG10,
	SF_OP_SIN,
	SF_OP_COS,
	SF_OP_TAN,
	SF_OP_ATAN,
	SF_OP_VEXP, /* internal: exp in blocks (sf_f_vexp), see below */
	SF_OP_VLOG, /* internal: log in blocks (sf_f_vlog), see below */
	/* binary */
	SF_OP_ADD,
	SF_OP_SUB,
	SF_OP_MUL,
	SF_OP_DIV,
	SF_OP_POW,
	SF_OP_MIN,
	SF_OP_MAX,
	SF_OP_LT,
	SF_OP_LE,
	SF_OP_GT,
	SF_OP_GE,
	SF_OP_EQ,
	SF_OP_NE,
	SF_OP_AND,
	SF_OP_OR,
	/* ternary */
	SF_OP_IF,
	SF_OP_POWLOG, /* internal: pow(x, y) given x and log(x), see below */
	SF_OP_COUNT
} sf_op;

/* Static facts about an operator. */
typedef struct sf_op_desc {
	const char *name; /* function name, or operator spelling */
	int arity;        /* 0 for leaves, else 1..3 */
	int commutative;  /* f(a, b) == f(b, a) bit for bit (up to NaN bits) */
} sf_op_desc;

extern const sf_op_desc sf_expr_op_info[SF_OP_COUNT];

/* The scalar semantics of each operator. */
static inline double
sf_f_not(double x)
{
	return x != x ? x : (x == 0.0 ? 1.0 : 0.0);
}

static inline double
sf_f_sign(double x)
{
	return x > 0.0 ? 1.0 : (x < 0.0 ? -1.0 : x);
}

static inline double
sf_f_min(double x, double y)
{
	return x != x ? x : (x < y ? x : y);
}

static inline double
sf_f_max(double x, double y)
{
	return x != x ? x : (x > y ? x : y);
}

static inline double
sf_f_and(double x, double y)
{
	if (x != x)
		return x;
	if (y != y)
		return y;
	return ((x != 0.0) & (y != 0.0)) ? 1.0 : 0.0;
}

static inline double
sf_f_or(double x, double y)
{
	if (x != x)
		return x;
	if (y != y)
		return y;
	return ((x != 0.0) | (y != 0.0)) ? 1.0 : 0.0;
}

static inline double
sf_f_if(double c, double a, double b)
{
	return c != c ? c : (c != 0.0 ? a : b);
}

/*
 * exp(x) with nothing but IEEE arithmetic on doubles and their bits, so
 * that a block loop of it vectorises (libm's exp is a call per element)
 * and every element gets the same bits whether it lands in a vector lane
 * or in the loop's scalar remainder: 2^k exp(r), k = round(x / ln 2),
 * r = x - k ln 2 in two parts (Cody and Waite), exp(r) by its Taylor
 * polynomial of degree 13 (|r| <= 0.35: truncation below 1e-17), 2^k
 * applied as two exact powers of two.  sf_f_vexp_core is it for
 * -708 <= x <= 709 (any other x gives garbage, never a trap);
 * sf_f_vexp is libm's exp outside that range (NaN, overflow, subnormal
 * results).  Within 2 units in the last place of libm's exp (measured by
 * tests/test_expr.c).  The compiler uses it for the exp of values that
 * change from row to row when it simplifies (SF_EXPR_NO_SIMPLIFY keeps
 * libm's); it relies on products and sums not being fused into FMAs (C11
 * mode: GCC does not contract; baseline x86-64 has no FMA).
 */
#define SF_VEXP_LO (-708.0)
#define SF_VEXP_HI 709.0

static inline double
sf_f_vexp_core(double x)
{
	const double shift = 0x1.8p52, log2e = 0x1.71547652b82fep0;
	const double ln2_hi = 0x1.62e42feep-1, ln2_lo = 0x1.a39ef35793c76p-33;
	double t = x * log2e + shift, k = t - shift, r, p, s1, s2;
	uint64_t bits, n, n1, b1, b2;

	r = (x - k * ln2_hi) - k * ln2_lo;
	p = 1.0 / 6227020800.0;
	p = p * r + 1.0 / 479001600.0;
	p = p * r + 1.0 / 39916800.0;
	p = p * r + 1.0 / 3628800.0;
	p = p * r + 1.0 / 362880.0;
	p = p * r + 1.0 / 40320.0;
	p = p * r + 1.0 / 5040.0;
	p = p * r + 1.0 / 720.0;
	p = p * r + 1.0 / 120.0;
	p = p * r + 1.0 / 24.0;
	p = p * r + 1.0 / 6.0;
	p = p * r + 0.5;
	p = p * r + 1.0;
	p = p * r + 1.0;
	/* n = k + 2048 >= 0 from t's low bits; 2^k = 2^(n1 - 1024) *
	 * 2^(n - n1 - 1024), each factor a normal double */
	memcpy(&bits, &t, sizeof bits);
	n = bits - 0x4338000000000000u + 2048u;
	n1 = n >> 1;
	b1 = (n1 - 1u) << 52;
	b2 = (n - n1 - 1u) << 52;
	memcpy(&s1, &b1, sizeof s1);
	memcpy(&s2, &b2, sizeof s2);
	return p * s1 * s2;
}

static inline double
sf_f_vexp(double x)
{
	return x >= SF_VEXP_LO && x <= SF_VEXP_HI ? sf_f_vexp_core(x) : exp(x);
}

/*
 * log(x) the same way (fdlibm's e_log.c algorithm with its coefficients,
 * on the bits of x instead of its branches): x = 2^k z with z in
 * [sqrt(1/2), sqrt(2)), f = z - 1, s = f / (2 + f), log(1 + f) = f -
 * f^2/2 + s (f^2/2 + R(s^2)) with R fdlibm's degree-14 minimax
 * polynomial, plus k ln 2 in two parts.  sf_f_vlog_core is it for
 * positive, normal, finite x (any other x gives garbage, never a trap);
 * sf_f_vlog is libm's log for the others (0, negatives, subnormals,
 * infinities, NaN).  Within 1 ulp of libm's log (measured by
 * tests/test_expr.c).
 */
#define SF_VLOG_LO 0x1p-1022
#define SF_VLOG_HI 0x1.fffffffffffffp1023

static inline double
sf_f_vlog_core(double x)
{
	const double ln2_hi = 6.93147180369123816490e-01,
	             ln2_lo = 1.90821492927058770002e-10;
	const double lg1 = 6.666666666666735130e-01,
	             lg2 = 3.999999999940941908e-01,
	             lg3 = 2.857142874366239149e-01,
	             lg4 = 2.222219843214978396e-01,
	             lg5 = 1.818357216161805012e-01,
	             lg6 = 1.531383769920937332e-01,
	             lg7 = 1.479819860511658591e-01;
	uint64_t ix, t, iz, kb;
	double z, k, f, s, z2, w, r, hfsq;

	memcpy(&ix, &x, sizeof ix);
	/* t's top 12 bits: k, the exponent of x / sqrt(1/2), two's
	 * complement; kb = k + 2048 as a double's low mantissa bits */
	t = ix - 0x3fe6a09e667f3bcdu;
	kb = ((t + 0x8000000000000000u) >> 52) | 0x4330000000000000u;
	iz = ix - (t & 0xfff0000000000000u);
	memcpy(&k, &kb, sizeof k);
	memcpy(&z, &iz, sizeof z);
	k = k - 0x1p52 - 2048.0;
	f = z - 1.0;
	s = f / (2.0 + f);
	z2 = s * s;
	w = z2 * z2;
	r = z2 * (lg1 + w * (lg3 + w * (lg5 + w * lg7))) +
	    w * (lg2 + w * (lg4 + w * lg6));
	hfsq = 0.5 * f * f;
	return k * ln2_hi - ((hfsq - (s * (hfsq + r) + k * ln2_lo)) - f);
}

static inline double
sf_f_vlog(double x)
{
	return x >= SF_VLOG_LO && x <= SF_VLOG_HI ? sf_f_vlog_core(x) : log(x);
}

/*
 * x^y for a data base x and a row-constant exponent y (compile.c rewrites
 * such powers): lx is log(x), hoisted into the data stage, so a row costs
 * one exp instead of one pow.  For 0 < x < inf, x != 1 this is
 * exp(y * lx), within 2 + 2 |y ln x| units in the last place of pow's
 * result (the rounding of lx and of the product, scaled by exp;
 * tests/test_expr.c bounds it); anywhere else (x <= 0, x = 1, infinite or
 * NaN x) pow(x, y) itself, so signs, zeros and pow's special cases stay
 * exact.
 */
static inline double
sf_f_powlog(double x, double lx, double y)
{
	return x > 0.0 && x < INFINITY && x != 1.0 ? sf_f_vexp(y * lx)
	                                           : pow(x, y);
}

/* Apply op to scalar operands (unused ones are ignored). */
static inline double
sf_op_apply(int op, double x, double y, double z)
{
	switch (op) {
	case SF_OP_NEG:
		return -x;
	case SF_OP_NOT:
		return sf_f_not(x);
	case SF_OP_ABS:
		return fabs(x);
	case SF_OP_SIGN:
		return sf_f_sign(x);
	case SF_OP_FLOOR:
		return floor(x);
	case SF_OP_CEIL:
		return ceil(x);
	case SF_OP_SQRT:
		return sqrt(x);
	case SF_OP_EXP:
		return exp(x);
	case SF_OP_LOG:
		return log(x);
	case SF_OP_LOG2:
		return log2(x);
	case SF_OP_LOG10:
		return log10(x);
	case SF_OP_SIN:
		return sin(x);
	case SF_OP_COS:
		return cos(x);
	case SF_OP_TAN:
		return tan(x);
	case SF_OP_ATAN:
		return atan(x);
	case SF_OP_VEXP:
		return sf_f_vexp(x);
	case SF_OP_VLOG:
		return sf_f_vlog(x);
	case SF_OP_ADD:
		return x + y;
	case SF_OP_SUB:
		return x - y;
	case SF_OP_MUL:
		return x * y;
	case SF_OP_DIV:
		return x / y;
	case SF_OP_POW:
		return pow(x, y);
	case SF_OP_MIN:
		return sf_f_min(x, y);
	case SF_OP_MAX:
		return sf_f_max(x, y);
	case SF_OP_LT:
		return x < y ? 1.0 : 0.0;
	case SF_OP_LE:
		return x <= y ? 1.0 : 0.0;
	case SF_OP_GT:
		return x > y ? 1.0 : 0.0;
	case SF_OP_GE:
		return x >= y ? 1.0 : 0.0;
	case SF_OP_EQ:
		return x == y ? 1.0 : 0.0;
	case SF_OP_NE:
		return x != y ? 1.0 : 0.0;
	case SF_OP_AND:
		return sf_f_and(x, y);
	case SF_OP_OR:
		return sf_f_or(x, y);
	case SF_OP_IF:
		return sf_f_if(x, y, z);
	case SF_OP_POWLOG:
		return sf_f_powlog(x, y, z);
	default:
		return NAN;
	}
}

/* ---- Tokens (expr_lex.c) ----------------------------------------------- */

typedef enum sf_tok_type {
	SF_TOK_END,
	SF_TOK_NUMBER,
	SF_TOK_NAME,
	SF_TOK_STRING,
	SF_TOK_PLUS,
	SF_TOK_MINUS,
	SF_TOK_STAR,
	SF_TOK_SLASH,
	SF_TOK_POW, /* ^ or ** */
	SF_TOK_LT,
	SF_TOK_LE,
	SF_TOK_GT,
	SF_TOK_GE,
	SF_TOK_EQ,
	SF_TOK_NE,
	SF_TOK_AND,
	SF_TOK_OR,
	SF_TOK_NOT,
	SF_TOK_LPAREN,
	SF_TOK_RPAREN,
	SF_TOK_COMMA
} sf_tok_type;

typedef struct sf_token {
	sf_tok_type type;
	size_t pos;   /* byte offset in the text */
	size_t len;   /* bytes of the token */
	double value; /* SF_TOK_NUMBER */
} sf_token;

typedef struct sf_lexer {
	const char *text;
	size_t pos; /* where the next token starts looking */
	sf_token tok;
} sf_lexer;

/* Read the next token into lx->tok.  Returns SF_OK or SF_ESYNTAX/SF_EVALUE
 * with err at the offending column. */
int sf_lex_next(sf_lexer *lx, sf_error *err);

/* A short human description of a token type ("'+'", "number"). */
const char *sf_lex_describe(sf_tok_type t);

/* ---- Syntax tree (expr_parse.c) ----------------------------------------- */

typedef enum sf_ast_kind {
	SF_AST_NUM,
	SF_AST_STR,
	SF_AST_NAME,
	SF_AST_UNARY,
	SF_AST_BINARY,
	SF_AST_CALL
} sf_ast_kind;

/* The types resolution gives a node. */
enum { SF_TYPE_NUM, SF_TYPE_TEXT, SF_TYPE_STR, SF_TYPE_ANY };

typedef struct sf_ast_node {
	int kind;     /* sf_ast_kind */
	int op;       /* sf_op of unary/binary/call nodes */
	size_t pos;   /* anchor: operator, name, literal or function name */
	size_t len;   /* bytes of a name or literal at pos */
	int a, b;     /* operands; call: a = first argument, b = count */
	int next;     /* next argument of a call, or -1 */
	int paren;    /* written in parentheses (kept for nothing but tests) */
	double value; /* number; after resolution also constants and codes */
	/* filled by resolution (expr_scope.c) */
	int ref_kind;     /* enum sf_expr_kind of a name */
	size_t ref_index; /* its index within the kind */
	int type;         /* SF_TYPE_* */
} sf_ast_node;

typedef struct sf_ast {
	char *text; /* a copy of the source */
	sf_ast_node *nodes;
	size_t n, cap;
	int root;
} sf_ast;

/* Parse text into a new tree (*out, free with sf_ast_free).  Returns SF_OK
 * or an error with the column in text. */
int sf_ast_parse(const char *text, sf_ast **out, sf_error *err);
void sf_ast_free(sf_ast *t);

/* Unescape the string literal at node k into a malloc'd C string. */
char *sf_ast_string(const sf_ast *t, int k);

/* The canonical text of a tree (malloc'd), or NULL when out of memory. */
char *sf_ast_print(const sf_ast *t);

/* ---- Scope (expr_scope.c) ----------------------------------------------- */

typedef struct sf_expr_entry {
	char *name;
	int kind;      /* enum sf_expr_kind */
	size_t index;  /* within the kind */
	double value;  /* fixed constants */
	char **values; /* text inputs: sorted dictionary */
	size_t nvalues;
	int is_text;     /* text input */
	sf_ast *ast;     /* terms: resolved tree, NULL while only declared */
	size_t order;    /* terms: definition order, from 0 */
	int uses_params; /* terms: depends on a parameter */
} sf_expr_entry;

struct sf_expr_scope {
	sf_expr_entry *entries;
	size_t n, cap;
	sf_names index; /* entry names -> their place in entries */
	size_t count[SF_EXPR_CONSTANT + 1]; /* per kind */
	/* at[kind][index]: that entry's place in entries (cap each) */
	size_t *at[SF_EXPR_CONSTANT + 1];
	size_t defined_terms;
	void (*warn)(void *ctx, const sf_error *w);
	void *warn_ctx;
};

/* The entry of kind and index, or NULL. */
const sf_expr_entry *sf_scope_entry(const sf_expr_scope *s, int kind,
                                    size_t index);

/*
 * Resolve the names of tree t in s and check types.  self is the term being
 * defined (or NULL for a plain expression); flags as in
 * sf_program_compile().  Returns SF_OK or an error with the column.
 */
int sf_scope_resolve(const sf_expr_scope *s, sf_ast *t, sf_expr_entry *self,
                     unsigned flags, sf_error *err);

/* ---- Program (expr_compile.c, expr_eval.c) ----------------------------- */

/* A set of at most SF_SET_MAX inputs, in increasing order (n = -1: more
 * than that). */
#define SF_SET_MAX 4
typedef struct sf_input_set {
	int n;
	uint32_t in[SF_SET_MAX];
} sf_input_set;

/* Operand kinds of an instruction. */
enum {
	SF_OPND_NONE,
	SF_OPND_REG,  /* a register block of the stage */
	SF_OPND_COL,  /* a column: input slot i, or ninputs + hoisted index */
	SF_OPND_SCAL, /* a scalar slot: constants, then theta, then params */
	SF_OPND_OUT   /* destination only: an output */
};

/* Loop shapes the block executor specialises. */
enum {
	SF_SHAPE_V,    /* unary on a vector */
	SF_SHAPE_VV,   /* binary, both vectors */
	SF_SHAPE_VS,   /* binary, vector and scalar */
	SF_SHAPE_SV,   /* binary, scalar and vector */
	SF_SHAPE_GEN,  /* anything else (if): strided generic loop */
	SF_SHAPE_COPY, /* output copy (op unused) */
	/* products fused into the add or subtract (op) reading them; the
	 * first factor of each is a vector, any other operand either */
	SF_SHAPE_MULOP,  /* (x * y) op z, operands x, y, z */
	SF_SHAPE_OPMUL,  /* z op (x * y), operands z, x, y */
	SF_SHAPE_MULMUL, /* (x * y) op (u * v), operands x, y, u, v */
	/* a table of values per level of an input (level.c): the row's
	 * entry of the table in register idx[1], by its level in the
	 * frame's index[idx[2]] (op unused) */
	SF_SHAPE_GATHER
};

typedef struct sf_instr {
	uint8_t op;      /* sf_op */
	uint8_t shape;   /* SF_SHAPE_* */
	uint8_t kind[5]; /* operand kinds: dest, then up to 4 read */
	uint32_t idx[5]; /* operand indices */
} sf_instr;

struct sf_program {
	size_t nout;
	size_t ninputs;
	size_t nparams;
	unsigned char *uses_input;
	unsigned char *uses_param;
	unsigned char *output_uses_param; /* nout x nparams, row-major */
	char **input_names;
	char **param_names;
	/* scalar slots: [0, nconst) constants, [nconst, nconst + P) theta,
	 * then the param stage's results */
	double *consts;
	size_t nconst;
	size_t nscalars;
	/* data stage */
	sf_instr *data_code;
	size_t ndata_code;
	size_t data_regs;
	size_t nhoisted;
	/* param stage: scalar instructions */
	sf_instr *param_code;
	size_t nparam_code;
	/* row stage, outputs copies included */
	sf_instr *row_code;
	size_t nrow_code;
	size_t row_regs;
	const sf_instr *out0_copy; /* the copy of output 0, in row_code */
	size_t nnodes;
	/* tables per level of a few inputs (level.c): each row
	 * instruction's table (or -1), each table's inputs; table t is
	 * register row_regs + t */
	int32_t *row_table;
	sf_input_set *table_inputs;
	size_t ntables;
};

/* The most input sets a binding levels (each costs a byte per row). */
#define SF_LEVEL_SETS 8

/* A set of inputs with few distinct values in the bound data, and the
 * code that fills its tables (level.c). */
typedef struct sf_level {
	sf_input_set set;
	size_t nlevels; /* its distinct values (bit patterns), <= a block */
	uint8_t *index; /* nrows + SF_EXPR_BLOCK: each row's level */
	double **cols;  /* ncols: the levels' values of each column the
	                   code reads (a block each), else NULL */
	sf_instr *code; /* row-stage instructions writing the tables */
	size_t ncode;
	/* per levelled subset of the set: each of its levels' level in the
	 * subset (a block each), read by the code's lookups of the
	 * subset's tables; else NULL */
	uint8_t *maps[SF_LEVEL_SETS];
} sf_level;

struct sf_expr_data {
	const sf_program *prog;
	size_t nrows;
	size_t ncols;  /* ninputs + nhoisted */
	double **cols; /* each nrows + SF_EXPR_BLOCK doubles, or NULL */
	/* the input sets with tables (level.c), in the order their codes
	 * run (a subset before its supersets), and the row stage reading
	 * them */
	sf_level *levels;
	size_t nlevels;
	size_t order[SF_LEVEL_SETS];
	const uint8_t *index[SF_LEVEL_SETS]; /* each level's index */
	size_t level_rows;                   /* their levels, all together */
	sf_instr *gather_code;
	size_t ngather_code;
	const sf_instr *gather_out0; /* the copy of output 0 in it */
};

/* Find the program's tables (after code generation).  Returns SF_OK or
 * SF_ENOMEM. */
int sf_level_plan(sf_program *p);

/* Count the levels of the input sets with tables in d's data and build
 * the code for those with few enough (after the data stage).  Returns
 * SF_OK or SF_ENOMEM. */
int sf_level_bind(sf_expr_data *d);

/* Free what sf_level_bind() built. */
void sf_level_unbind(sf_expr_data *d);

#endif /* SF_EXPR_INTERNAL_H */
