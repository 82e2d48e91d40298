/*
 * expr.h - scalefit's expression engine: the formula language (specified
 * for users in man/scalefit-model.5, EXPRESSION LANGUAGE), compiled to a
 * staged bytecode with symbolic derivatives.
 *
 * A model's names live in a scope: numeric inputs (data columns), text
 * inputs (dictionary-encoded text columns), fitted parameters, fixed
 * constants and terms (named sub-expressions).  Expressions are compiled in
 * a scope into a program, an immutable object that every thread may share.
 * Compiling builds one DAG for all outputs (hash-consed, so identical
 * sub-expressions are computed once), folds constants, simplifies trivial
 * algebra, optionally differentiates every output by every parameter, and
 * splits the work into three stages by what each node depends on:
 *
 *   data stage   nodes over inputs only (log2(p), floor(n / (p * b)), ...)
 *                run once, in sf_expr_data_new(), and kept as columns;
 *   param stage  nodes over parameters only, run once per sf_program_load();
 *   row stage    the rest, run per row over blocks of rows by a register
 *                bytecode whose loops the C compiler vectorises.
 *
 * Semantics, fixed here because users can observe them:
 * - Arithmetic is IEEE double, as C does it: domain errors give NaN or
 *   infinity (log(0) = -inf, sqrt(-1) = NaN), never a trap.  No value is
 *   ever converted to an integer.
 * - ^ and ** are the same operator, C's pow(); right-associative and
 *   binding tighter than unary minus: -a^2 = -(a^2), 2^-1 = 0.5.
 * - Comparisons give 1 or 0 (false when an operand is NaN, except !=, as in
 *   C) and do not chain: `a < b < c` is an error.
 * - Truth is "nonzero".  NaN is neither true nor false: !x, x && y, x || y
 *   and if(x, a, b) give NaN when a condition operand is NaN (both operands
 *   of && and || are always evaluated, so 0 && NaN is NaN too).  if()
 *   computes both branches; a domain error in the branch not taken does
 *   not matter.
 * - min and max take two or more arguments and give NaN if any is NaN.
 * - Strings are single-quoted; a quote inside one is written twice
 *   ('it''s').  They may only be compared with a text input.
 * - Derivatives: floor, ceil, comparisons and logic have derivative 0;
 *   abs, min, max and if are differentiated piecewise (at a tie min and max
 *   follow their first argument).  A parameter an expression does not
 *   depend on has derivative exactly 0, even where the value is NaN.
 *
 * Simplification keeps C's results except for the sign of a zero and at
 * most one unit in the last place: x + 0, x - 0, x * 1, x / 1, x ^ 1 and
 * -(-x) become x, x ^ 0 becomes 1 (as pow does), x ^ 2 becomes x * x, and
 * x + -y becomes x - y.  x * 0 is NOT simplified in user text (NaN * 0 is
 * NaN); only derivatives use structural zeros.  Constant sub-expressions
 * are computed at compile time with exactly the code the evaluator runs.
 * Simplification also evaluates exp and log of per-row values in blocks
 * with vector arithmetic (within 1 ulp of libm's, libm's where they do
 * not apply) and a power with a data-only base b and a parameter-only
 * exponent g as exp(g log b), log b hoisted (within 2 + 2 |g ln b| ulps
 * of pow, pow itself for b <= 0, b = 1, infinite or NaN b); see
 * expr/internal.h.  SF_EXPR_NO_SIMPLIFY computes what C computes, bit for
 * bit.
 *
 * Ownership: every object here is created by a _new or _compile function
 * and released by the matching _free, which accepts NULL.  Names, texts and
 * columns passed in are copied; nothing returned borrows from arguments
 * except where stated.  Errors fill a caller-owned sf_error (may be NULL)
 * whose column counts bytes of the expression text from 1; its file and
 * line are left for the caller (the model loader) to set.
 *
 * Thread safety: a scope must not be modified while another thread uses
 * it.  A compiled program and a bound sf_expr_data are read-only and may be
 * used by any number of threads at once, each with its own scratch.
 */
#ifndef SF_EXPR_H
#define SF_EXPR_H

#include <stddef.h>

#include "base/error.h"

/* The kinds of name a scope defines (see sf_expr_scope_count()). */
enum sf_expr_kind {
	SF_EXPR_INPUT = 1, /* a data column, numeric or text */
	SF_EXPR_PARAM,     /* a fitted parameter */
	SF_EXPR_FIXED,     /* a constant with a fixed value */
	SF_EXPR_TERM,      /* a named sub-expression */
	SF_EXPR_CONSTANT   /* a builtin constant (pi, e); lookup only */
};

/* Flags for sf_program_compile(). */
enum sf_expr_flag {
	/* Also compute d(output)/d(theta_j) for every output and parameter. */
	SF_EXPR_DERIVATIVES = 1u << 0,
	/* Keep the text's algebra as written: no x * 1 -> x and the like.
	 * Constants are still computed at compile time.  For testing. */
	SF_EXPR_NO_SIMPLIFY = 1u << 1,
	/* Reject parameters (directly or through terms): for expressions
	 * over data columns (filters, output and input definitions). */
	SF_EXPR_DATA_ONLY = 1u << 2
};

/* Nesting deeper than this (parentheses, unary operators, exponents,
 * calls) is a syntax error, as is a tree more than 4 * SF_EXPR_MAX_DEPTH
 * operators tall (a sum of 3000 terms): no text can exhaust the stack. */
#define SF_EXPR_MAX_DEPTH 512

/* ---- Scope: the names a model defines ---------------------------------- */

typedef struct sf_expr_scope sf_expr_scope;

/* A new empty scope, or NULL when out of memory.  Free with _free. */
sf_expr_scope *sf_expr_scope_new(void);

/* Release s and everything it holds.  Accepts NULL. */
void sf_expr_scope_free(sf_expr_scope *s);

/*
 * Route warnings (a name shadowing the constant pi or e) to fn(ctx, w).
 * Without a handler warnings are dropped.  w is valid during the call only.
 */
void sf_expr_scope_set_warning_handler(sf_expr_scope *s,
                                       void (*fn)(void *ctx,
                                                  const sf_error *warning),
                                       void *ctx);

/*
 * Add a numeric input.  Inputs (numeric and text) share one index space,
 * assigned in call order from 0: the index is the input's column slot in
 * sf_expr_data_new().  Returns SF_OK, SF_ENAME (invalid or duplicate
 * name), SF_ENOMEM, or SF_EINTERNAL when a term was already added (add
 * inputs, parameters and fixed constants before terms, because a term's
 * names are resolved when it is added).  The name is copied.
 */
int sf_expr_scope_add_input(sf_expr_scope *s, const char *name, sf_error *err);

/*
 * Add a text input: a text column, dictionary-encoded.  Its numeric value in
 * a row is the index of the row's string in sorted_values (nvalues distinct
 * strings in strictly increasing strcmp order, copied; SF_EVALUE
 * otherwise).  A text input may appear only in a comparison with a string
 * literal; a literal absent from the values compares as if it sat between
 * its neighbours (insertion position - 0.5), so every comparison operator
 * works.  Same returns and index space as sf_expr_scope_add_input().
 */
int sf_expr_scope_add_text_input(sf_expr_scope *s, const char *name,
                                 const char *const *sorted_values,
                                 size_t nvalues, sf_error *err);

/* Add a fitted parameter; its index (from 0, in call order) is its
 * position in theta.  Returns as sf_expr_scope_add_input(). */
int sf_expr_scope_add_param(sf_expr_scope *s, const char *name, sf_error *err);

/* Add a fixed constant, folded into every expression that uses it.
 * Returns as sf_expr_scope_add_input(). */
int sf_expr_scope_add_fixed(sf_expr_scope *s, const char *name, double value,
                            sf_error *err);

/*
 * Declare that a term of this name will be added, so that a term using it
 * too early gets "term 'a' uses term 'b', which is defined after it"
 * instead of "unknown name 'b'".  Optional: the loader declares all terms
 * first, then adds them in order.  Returns as sf_expr_scope_add_input().
 */
int sf_expr_scope_declare_term(sf_expr_scope *s, const char *name,
                               sf_error *err);

/*
 * Add a term: parse text and resolve its names now, against the inputs,
 * parameters, fixed constants and terms added before it.  Errors carry the
 * column in text: SF_ESYNTAX, SF_ENAME (unknown name, a term defined
 * later, the term itself), SF_ETYPE (text misused).  The name may have been
 * declared before; otherwise it is declared here.  Text is copied.
 */
int sf_expr_scope_add_term(sf_expr_scope *s, const char *name, const char *text,
                           sf_error *err);

/* How many names of a kind (an enum sf_expr_kind) the scope holds.  For
 * SF_EXPR_TERM it counts declared terms. */
size_t sf_expr_scope_count(const sf_expr_scope *s, int kind);

/*
 * Find a name: returns 1 and sets *kind (and *index, the index within its
 * kind; for SF_EXPR_CONSTANT 0 for pi, 1 for e) when name is known, else
 * returns 0.  kind and index may be NULL.  A name shadowing a builtin
 * constant is found as what shadows it.
 */
int sf_expr_scope_lookup(const sf_expr_scope *s, const char *name, int *kind,
                         size_t *index);

/* The name of entry index of a kind, or NULL when out of range.  The
 * string belongs to the scope. */
const char *sf_expr_scope_name(const sf_expr_scope *s, int kind, size_t index);

/* 1 when input slot index is a text input, else 0. */
int sf_expr_scope_input_is_text(const sf_expr_scope *s, size_t index);

/* 1 when the term (by index) uses a parameter, directly or through other
 * terms, else 0. */
int sf_expr_scope_term_uses_params(const sf_expr_scope *s, size_t index);

/* 1 when text is a name of the language (a letter or '_', then letters,
 * digits and '_'; ASCII whatever the locale), else 0. */
int sf_expr_is_name(const char *text);

/* 1 when name is one of the names text is written with (as a variable or
 * a function; not inside a string), else 0.  Reads text with the
 * language's lexer, up to the first error if it has one. */
int sf_expr_mentions(const char *text, const char *name);

/* 1 when text is a sum with each of the n names as a summand of its own,
 * added, and written nowhere else in text: names[0] + ... + names[n-1] +
 * a remainder that mentions none of them, in any order, sums in
 * parentheses read through ("t0 + (compute + comm)", "compute + comm - 2"
 * are; "t0 + steps * step_time", "compute - comm", "compute + compute",
 * "max(compute, comm)" are not).  Decided on the syntax alone: a name is
 * not looked up.  0 when text does not parse or memory runs out; 1 for n ==
 * 0.  Reentrant. */
int sf_expr_sum_of(const char *text, const char *const *names, size_t n);

/* ---- Programs ---------------------------------------------------------- */

typedef struct sf_program sf_program;

/*
 * Compile the n expressions texts[0..n-1] in scope s into one program with
 * n outputs (a text may be just a term's name).  flags: enum sf_expr_flag.
 * With SF_EXPR_DERIVATIVES the program has n * (1 + P) outputs, P =
 * sf_expr_scope_count(s, SF_EXPR_PARAM): the value of text k is output
 * k * (1 + P) and d(text k)/d(theta_j) is output k * (1 + P) + 1 + j;
 * without, text k is output k.
 *
 * Returns the program, or NULL with err filled (the column within the
 * failing text) and *failed_index set to the index of that text (or -1
 * when no text is to blame: out of memory, n == 0, a term declared but
 * never added).  failed_index may be NULL.  The program copies what it
 * needs: s may be freed or changed afterwards.
 */
sf_program *sf_program_compile(const sf_expr_scope *s, const char *const *texts,
                               size_t n, unsigned flags, int *failed_index,
                               sf_error *err);

/*
 * One text and its derivatives by the parameters flagged in wrt (P
 * flags) only: output 0 is the value, output 1 + a the derivative by the
 * a-th flagged parameter.  Each output has the bits of the same output of
 * sf_program_compile(s, &text, 1, SF_EXPR_DERIVATIVES, ...), for less
 * work when few derivatives are wanted (the separable fit's linear
 * constants).  Returns the program, or NULL with err filled.
 */
sf_program *sf_program_compile_wrt(const sf_expr_scope *s, const char *text,
                                   const int *wrt, sf_error *err);

/* Release p.  Accepts NULL.  Data bound to p must be freed first. */
void sf_program_free(sf_program *p);

/* The number of outputs (n or n * (1 + P)). */
size_t sf_program_outputs(const sf_program *p);

/* The number of input slots sf_expr_data_new() takes (all inputs of the
 * scope, used or not). */
size_t sf_program_inputs(const sf_program *p);

/* P, the number of fitted parameters theta holds. */
size_t sf_program_params(const sf_program *p);

/* 1 when some output depends on input slot i (or parameter j), else 0;
 * so that unused columns and parameters can be reported. */
int sf_program_uses_input(const sf_program *p, size_t i);
int sf_program_uses_param(const sf_program *p, size_t j);

/* 1 when output k reads parameter j, else 0 (also out of range).  With
 * derivatives, d(text)/d(theta_j) not reading theta_j or any other theta
 * of a set shows, structurally, that the text is affine in that set. */
int sf_program_output_uses_param(const sf_program *p, size_t k, size_t j);

/* The name of input slot i / parameter j, owned by p; NULL out of range. */
const char *sf_program_input_name(const sf_program *p, size_t i);
const char *sf_program_param_name(const sf_program *p, size_t j);

/* What the compiler made of the expressions: for tests and `check -v`. */
typedef struct sf_program_stats {
	size_t nodes;              /* distinct DAG nodes in the program */
	size_t constants;          /* distinct constants */
	size_t data_instructions;  /* run once per row in sf_expr_data_new */
	size_t hoisted_columns;    /* data-stage results kept as columns */
	size_t param_instructions; /* run once per sf_program_load call */
	size_t row_instructions;   /* run per row, outputs copies included */
	size_t registers;          /* row-stage register blocks */
	size_t block_rows;         /* rows per register block */
} sf_program_stats;

/* Fill *st with p's statistics. */
void sf_program_get_stats(const sf_program *p, sf_program_stats *st);

/* ---- Data bound to a program, and evaluation ---------------------------- */

typedef struct sf_expr_data sf_expr_data;

/*
 * Bind nrows rows of input columns to p: columns[i] holds nrows doubles for
 * input slot i (for a text input, the dictionary codes), or NULL when p does
 * not use input i.  Every data-only sub-expression is computed here, once.
 * The used columns are copied: the caller may free them on return.  Returns
 * NULL with err filled (SF_EVALUE when a used input has no column,
 * SF_ENOMEM).  The result refers to p, which must outlive it.
 */
sf_expr_data *sf_expr_data_new(const sf_program *p,
                               const double *const *columns, size_t nrows,
                               sf_error *err);

/* Release d.  Accepts NULL. */
void sf_expr_data_free(sf_expr_data *d);

/* The number of rows d holds. */
size_t sf_expr_data_rows(const sf_expr_data *d);

/* How many doubles of scratch one thread needs for sf_program_eval(). */
size_t sf_program_scratch_size(const sf_program *p);

/*
 * Evaluate every output of p for rows [begin, end) of d (begin <= end <=
 * rows; d bound to p, else every output is NaN) at parameters theta (P
 * doubles; NULL makes every parameter NaN, for programs that use none) into
 * out,
 * output-major: output k of row i goes to out[k * (end - begin) + (i -
 * begin)].  scratch is caller-owned, sf_program_scratch_size(p) doubles,
 * one per concurrent caller.  Re-entrant and allocation-free; each row's
 * results are bit-identical whatever the range and the thread that
 * computes them.
 */
void sf_program_eval(const sf_program *p, const sf_expr_data *d,
                     const double *theta, size_t begin, size_t end, double *out,
                     double *scratch);

/*
 * sum_i q[i] (f_i - y[i])^2 over rows i in [begin, end) of d, f_i being
 * output 0 of p at theta: a weighted least-squares loss, without the
 * outputs ever being stored.  y and q are indexed by row (nrows doubles
 * each, or at least end).  Same arguments, scratch and thread safety as
 * sf_program_eval().  The order of the sum is fixed: row begin + i is
 * added to partial sum i mod 4, except a last (end - begin) mod 4 rows,
 * which go to partial sum 0 in order; the sums are combined as
 * (s0 + s1) + (s2 + s3).  So the result is bit-identical whatever the
 * thread, and equal to that loop run over sf_program_eval()'s output.
 * Returns NaN when d is not bound to p.
 */
double sf_program_eval_sumsq(const sf_program *p, const sf_expr_data *d,
                             const double *theta, size_t begin, size_t end,
                             const double *y, const double *q, double *scratch);

/*
 * The two halves of the calls above, for a caller that evaluates one theta
 * over many ranges (chunks of rows): sf_program_load() computes the
 * parameter stage into scratch, and the tables of the parts of the formula
 * over few-valued inputs when `rows` (the rows the ranges to come cover in
 * all) repays them; sf_program_run() and sf_program_run_sumsq() then
 * evaluate ranges of d as sf_program_eval() and sf_program_eval_sumsq()
 * do, from that scratch, with the same bits.  sf_program_eval() is
 * sf_program_load() over end - begin rows, then sf_program_run().
 */
void sf_program_load(const sf_program *p, const sf_expr_data *d,
                     const double *theta, size_t rows, double *scratch);
void sf_program_run(const sf_program *p, const sf_expr_data *d, size_t begin,
                    size_t end, double *out, double *scratch);
double sf_program_run_sumsq(const sf_program *p, const sf_expr_data *d,
                            size_t begin, size_t end, const double *y,
                            const double *q, double *scratch);

/*
 * Evaluate one data-only expression over columns, a convenience for row
 * filters and derived columns: compiles text in s with SF_EXPR_DATA_ONLY,
 * binds columns (as sf_expr_data_new) and writes nrows values to out.
 * Returns SF_OK or an error with the column in text.
 */
int sf_expr_eval_columns(const sf_expr_scope *s, const char *text,
                         const double *const *columns, size_t nrows,
                         double *out, sf_error *err);

/* ---- Printing ---------------------------------------------------------- */

/*
 * The canonical form of text, for `scalefit check`: single spaces around
 * binary operators except ^ (`**` is printed as ^), parentheses only
 * where the structure needs them (so reading it back gives the same
 * tree), numbers in the shortest form that reads back exactly.  With s
 * non-NULL the names are also resolved and type-checked in s; with NULL
 * only the syntax is checked.  Returns a malloc'd string the caller frees,
 * or NULL with err filled.
 */
char *sf_expr_canonical(const sf_expr_scope *s, const char *text,
                        sf_error *err);

/* The canonical form of the term called name in s (see above), or NULL
 * with err filled (SF_ENAME when there is no such term). */
char *sf_expr_term_canonical(const sf_expr_scope *s, const char *name,
                             sf_error *err);

#endif /* SF_EXPR_H */
