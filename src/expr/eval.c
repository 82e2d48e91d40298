/*
 * expr_eval.c - binding data to a program and running it.
 *
 * sf_expr_data_new() copies the input columns a program uses into padded
 * columns (SF_EXPR_BLOCK spare rows, so every block loop runs a fixed,
 * whole block) and runs the data stage once over them, keeping the hoisted
 * results as more columns.  sf_program_eval() runs the parameter stage
 * into the caller's scratch, then the row stage block by block.
 *
 * Every block loop runs over the block's rows that count (at most
 * SF_EXPR_BLOCK), rounded up to a multiple of 8, in chunks of 8 with
 * restrict-qualified pointers (the compiler never makes an instruction
 * write a register it reads), so GCC and Clang vectorise the arithmetic
 * ones, and exp (sf_f_vexp), even at -O2.  Every element is computed by
 * the same code whatever the block or thread, and library functions (log,
 * pow, ...) are called per element, so a row's result never depends on
 * how rows are split.  At most 7 rows past the end of a range are
 * computed, on padding, and discarded: a 72-row dataset costs 72 rows of
 * work, not a whole block's 256.  With GCC on x86-64 Linux the exp
 * kernels are also built for AVX2 and chosen at load time (the same
 * operations, four lanes instead of two: the same bits).
 */
#include "expr/internal.h"

#include <stdlib.h>
#include <string.h>

#define B SF_EXPR_BLOCK

/* ---- Block kernels ------------------------------------------------------ */

/*
 * Each kernel runs over the rows of its block that count, n <= SF_EXPR_BLOCK,
 * rounded up to a multiple of 8 (VEC_ROWS), in chunks of 8 rows: a fixed
 * trip count that GCC's cheap vectoriser at -O2 takes.  So every row of
 * every range is computed by the same vector code, whatever its place
 * (a scalar remainder loop could propagate a NaN's bits differently), and
 * at most 7 rows past a range's end are computed, on padding, and never
 * stored in an output.
 */
#define VEC_ROWS(n) (((n) + 7) & ~(size_t)7)

/* The exp kernels in two builds, AVX2 and baseline, one chosen when the
 * program loads (GCC's ifunc); the same IEEE operations in both, no FMA
 * (AVX2 alone does not enable it), so the same bits. */
#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__) &&         \
    defined(__linux__) && defined(__has_attribute)
#if __has_attribute(target_clones)
#define VEC_CLONES __attribute__((target_clones("avx2", "default")))
#endif
#endif
#ifndef VEC_CLONES
#define VEC_CLONES
#endif
#define FOR_VEC(i, n)                                                          \
	for (size_t c_ = 0; c_ < VEC_ROWS(n); c_ += 8)                         \
		for (size_t j_ = 0, i = c_; j_ < 8; i = c_ + ++j_)

#define UNARY_KERNEL(NAME, EXPR)                                               \
	static void NAME(double *restrict d, const double *restrict a,         \
	                 size_t n)                                             \
	{                                                                      \
		FOR_VEC(i, n)                                                  \
		{                                                              \
			double x = a[i];                                       \
			d[i] = (EXPR);                                         \
		}                                                              \
	}

/* x op y with a (x) and b (y) each a vector or a scalar passed by value:
 * the three shapes of every binary operator. */
#define BINARY_KERNEL(NAME, A, B, X, Y, EXPR)                                  \
	static void NAME(double *restrict d, A a, B b, size_t n)               \
	{                                                                      \
		FOR_VEC(i, n)                                                  \
		{                                                              \
			double x = (X), y = (Y);                               \
			d[i] = (EXPR);                                         \
		}                                                              \
	}
#define VEC_ARG const double *restrict
#define BINARY_KERNELS(NAME, EXPR)                                             \
	BINARY_KERNEL(NAME##_vv, VEC_ARG, VEC_ARG, a[i], b[i], EXPR)           \
	BINARY_KERNEL(NAME##_vs, VEC_ARG, double, a[i], b, EXPR)               \
	BINARY_KERNEL(NAME##_sv, double, VEC_ARG, a, b[i], EXPR)

UNARY_KERNEL(k_neg, -x)
UNARY_KERNEL(k_not, sf_f_not(x))
UNARY_KERNEL(k_abs, fabs(x))
UNARY_KERNEL(k_sign, sf_f_sign(x))
UNARY_KERNEL(k_floor, floor(x))
UNARY_KERNEL(k_ceil, ceil(x))
UNARY_KERNEL(k_sqrt, sqrt(x))
UNARY_KERNEL(k_exp, exp(x))
UNARY_KERNEL(k_log, log(x))
UNARY_KERNEL(k_log2, log2(x))
UNARY_KERNEL(k_log10, log10(x))
UNARY_KERNEL(k_sin, sin(x))
UNARY_KERNEL(k_cos, cos(x))
UNARY_KERNEL(k_tan, tan(x))
UNARY_KERNEL(k_atan, atan(x))

/* exp and log in blocks (sf_f_vexp, sf_f_vlog): the vectorised core over
 * every row, then libm's function for the rare rows outside the core's
 * range [LO, HI]. */
#define CORE_KERNEL(NAME, CORE, LO, HI, LIBM)                                  \
	VEC_CLONES static void NAME(double *restrict d,                        \
	                            const double *restrict a, size_t n)        \
	{                                                                      \
		FOR_VEC(i, n) d[i] = CORE(a[i]);                               \
		for (size_t i = 0; i < n; i++)                                 \
			if (!(a[i] >= (LO) && a[i] <= (HI)))                   \
				d[i] = LIBM(a[i]);                             \
	}

CORE_KERNEL(k_vexp, sf_f_vexp_core, SF_VEXP_LO, SF_VEXP_HI, exp)
CORE_KERNEL(k_vlog, sf_f_vlog_core, SF_VLOG_LO, SF_VLOG_HI, log)

BINARY_KERNELS(k_add, x + y)
BINARY_KERNELS(k_sub, x - y)
BINARY_KERNELS(k_mul, x *y)
BINARY_KERNELS(k_div, x / y)
BINARY_KERNELS(k_pow, pow(x, y))
BINARY_KERNELS(k_min, sf_f_min(x, y))
BINARY_KERNELS(k_max, sf_f_max(x, y))
BINARY_KERNELS(k_lt, x < y ? 1.0 : 0.0)
BINARY_KERNELS(k_le, x <= y ? 1.0 : 0.0)
BINARY_KERNELS(k_gt, x > y ? 1.0 : 0.0)
BINARY_KERNELS(k_ge, x >= y ? 1.0 : 0.0)
BINARY_KERNELS(k_eq, x == y ? 1.0 : 0.0)
BINARY_KERNELS(k_ne, x != y ? 1.0 : 0.0)
BINARY_KERNELS(k_and, sf_f_and(x, y))
BINARY_KERNELS(k_or, sf_f_or(x, y))

typedef void (*unary_fn)(double *restrict, const double *restrict, size_t);
typedef void (*vv_fn)(double *restrict, const double *restrict,
                      const double *restrict, size_t);
typedef void (*vs_fn)(double *restrict, const double *restrict, double, size_t);
typedef void (*sv_fn)(double *restrict, double, const double *restrict, size_t);

static const unary_fn unary_kernels[SF_OP_COUNT] = {
    [SF_OP_NEG] = k_neg,   [SF_OP_NOT] = k_not,     [SF_OP_ABS] = k_abs,
    [SF_OP_SIGN] = k_sign, [SF_OP_FLOOR] = k_floor, [SF_OP_CEIL] = k_ceil,
    [SF_OP_SQRT] = k_sqrt, [SF_OP_EXP] = k_exp,     [SF_OP_LOG] = k_log,
    [SF_OP_LOG2] = k_log2, [SF_OP_LOG10] = k_log10, [SF_OP_SIN] = k_sin,
    [SF_OP_COS] = k_cos,   [SF_OP_TAN] = k_tan,     [SF_OP_ATAN] = k_atan,
    [SF_OP_VEXP] = k_vexp, [SF_OP_VLOG] = k_vlog,
};

#define BINARY_TABLE(SUFFIX)                                                   \
	{                                                                      \
		[SF_OP_ADD] = k_add_##SUFFIX, [SF_OP_SUB] = k_sub_##SUFFIX,    \
		[SF_OP_MUL] = k_mul_##SUFFIX, [SF_OP_DIV] = k_div_##SUFFIX,    \
		[SF_OP_POW] = k_pow_##SUFFIX, [SF_OP_MIN] = k_min_##SUFFIX,    \
		[SF_OP_MAX] = k_max_##SUFFIX, [SF_OP_LT] = k_lt_##SUFFIX,      \
		[SF_OP_LE] = k_le_##SUFFIX, [SF_OP_GT] = k_gt_##SUFFIX,        \
		[SF_OP_GE] = k_ge_##SUFFIX, [SF_OP_EQ] = k_eq_##SUFFIX,        \
		[SF_OP_NE] = k_ne_##SUFFIX, [SF_OP_AND] = k_and_##SUFFIX,      \
		[SF_OP_OR] = k_or_##SUFFIX,                                    \
	}

static const vv_fn vv_kernels[SF_OP_COUNT] = BINARY_TABLE(vv);
static const vs_fn vs_kernels[SF_OP_COUNT] = BINARY_TABLE(vs);
static const sv_fn sv_kernels[SF_OP_COUNT] = BINARY_TABLE(sv);

/*
 * A product fused into the add or subtract reading it: x a vector, y and z
 * vectors or scalars (a scalar is read through its pointer, loaded once:
 * restrict promises no store reaches it).  p = x * y is rounded before z
 * comes in, exactly as two instructions would compute it.
 */
#define FUSED_KERNEL(NAME, EXPR, Y, Z)                                         \
	static void NAME(double *restrict d, const double *restrict a,         \
	                 const double *restrict b, const double *restrict c,   \
	                 size_t n)                                             \
	{                                                                      \
		FOR_VEC(i, n)                                                  \
		{                                                              \
			double p = a[i] * (Y), z = (Z);                        \
			d[i] = (EXPR);                                         \
		}                                                              \
	}
#define FUSED_KERNELS(NAME, EXPR)                                              \
	FUSED_KERNEL(NAME##_vvv, EXPR, b[i], c[i])                             \
	FUSED_KERNEL(NAME##_vvs, EXPR, b[i], *c)                               \
	FUSED_KERNEL(NAME##_vsv, EXPR, *b, c[i])                               \
	FUSED_KERNEL(NAME##_vss, EXPR, *b, *c)

FUSED_KERNELS(k_muladd, p + z)
FUSED_KERNELS(k_mulsub, p - z)
FUSED_KERNELS(k_submul, z - p)

typedef void (*fused_fn)(double *restrict, const double *restrict,
                         const double *restrict, const double *restrict,
                         size_t);

/* By variant (x * y + z, x * y - z, z - x * y), then by which of y and z
 * are scalars (2 for y, 1 for z). */
#define FUSED_ROW(NAME)                                                        \
	{                                                                      \
		NAME##_vvv, NAME##_vvs, NAME##_vsv, NAME##_vss                 \
	}
static const fused_fn fused_kernels[3][4] = {
    FUSED_ROW(k_muladd), FUSED_ROW(k_mulsub), FUSED_ROW(k_submul)};

/* (x * y) op (u * v): x and u vectors, y and v vectors or scalars; each
 * product rounded before op, as three instructions would. */
#define MULMUL_KERNEL(NAME, Y, V)                                              \
	static void NAME(double *restrict d, const double *restrict x,         \
	                 const double *restrict y, const double *restrict u,   \
	                 const double *restrict v, size_t n)                   \
	{                                                                      \
		FOR_VEC(i, n)                                                  \
		{                                                              \
			double p = x[i] * (Y), r = u[i] * (V);                 \
			d[i] = OP(p, r);                                       \
		}                                                              \
	}
#define MULMUL_KERNELS(NAME)                                                   \
	MULMUL_KERNEL(NAME##_vv, y[i], v[i])                                   \
	MULMUL_KERNEL(NAME##_vs, y[i], *v)                                     \
	MULMUL_KERNEL(NAME##_sv, *y, v[i])                                     \
	MULMUL_KERNEL(NAME##_ss, *y, *v)

#define OP(p, r) ((p) + (r))
MULMUL_KERNELS(k_mulmuladd)
#undef OP
#define OP(p, r) ((p) - (r))
MULMUL_KERNELS(k_mulmulsub)
#undef OP

typedef void (*mulmul_fn)(double *restrict, const double *restrict,
                          const double *restrict, const double *restrict,
                          const double *restrict, size_t);

/* By op (add, sub), then by which of y and v are scalars (2 for y, 1 for
 * v). */
static const mulmul_fn mulmul_kernels[2][4] = {
    {k_mulmuladd_vv, k_mulmuladd_vs, k_mulmuladd_sv, k_mulmuladd_ss},
    {k_mulmulsub_vv, k_mulmulsub_vs, k_mulmulsub_sv, k_mulmulsub_ss}};

/* if(c, a, b) with any mix of vector (stride 1) and scalar (stride 0)
 * operands. */
static void
k_if(double *restrict d, const double *c, size_t sc, const double *a, size_t sa,
     const double *b, size_t sb, size_t n)
{
	FOR_VEC(i, n)
	d[i] = sf_f_if(c[i * sc], a[i * sa], b[i * sb]);
}

/* x^y through log(x) (sf_f_powlog): x and lx vectors, y a vector or a
 * scalar (stride 0).  With a scalar y, exp's vectorised core over every
 * row, then sf_f_powlog itself for the rows it does not cover. */
VEC_CLONES static void
k_powlog(double *restrict d, const double *restrict x,
         const double *restrict lx, const double *y, size_t sy, size_t n)
{
	if (sy == 0) {
		const double e = *y;

		FOR_VEC(i, n) d[i] = sf_f_vexp_core(e * lx[i]);
		for (size_t i = 0; i < n; i++) {
			double u = e * lx[i];
			if (!(x[i] > 0.0 && x[i] < INFINITY && x[i] != 1.0 &&
			      u >= SF_VEXP_LO && u <= SF_VEXP_HI))
				d[i] = sf_f_powlog(x[i], lx[i], e);
		}
		return;
	}
	for (size_t i = 0; i < n; i++)
		d[i] = sf_f_powlog(x[i], lx[i], y[i]);
}

/* A table's entry per row (SF_SHAPE_GATHER): t[ix[i]]. */
static void
k_gather(double *restrict d, const double *restrict t,
         const uint8_t *restrict ix, size_t n)
{
	FOR_VEC(i, n) d[i] = t[ix[i]];
}

/* ---- The block executor ------------------------------------------------- */

/* Where a block's operand lives. */
typedef struct frame {
	double *regs;                /* the stage's register blocks */
	double *const *cols;         /* padded columns */
	const double *scal;          /* scalar slots */
	size_t row0;                 /* first row of the block */
	size_t n;                    /* rows of the block that count */
	double *out;                 /* outputs, or NULL: no copies */
	size_t out_stride;           /* rows per output */
	size_t out_off;              /* the block's offset in an output */
	const uint8_t *const *index; /* each row's level, per input set */
} frame;

static const double *
source(const frame *f, int kind, uint32_t idx)
{
	switch (kind) {
	case SF_OPND_REG:
		return f->regs + (size_t)idx * B;
	case SF_OPND_COL:
		return f->cols[idx] + f->row0;
	default:
		return f->scal + idx;
	}
}

/* An instruction with fused products (see SF_SHAPE_MULOP). */
static void
run_fused(const frame *f, const sf_instr *in, double *d)
{
	const double *o[4];
	int sc[4], sub = in->op == SF_OP_SUB;

	for (int i = 0; i < 4; i++) {
		o[i] = source(f, in->kind[1 + i], in->idx[1 + i]);
		sc[i] = in->kind[1 + i] == SF_OPND_SCAL;
	}
	switch (in->shape) {
	case SF_SHAPE_MULOP:
		fused_kernels[sub][2 * sc[1] + sc[2]](d, o[0], o[1], o[2],
		                                      f->n);
		break;
	case SF_SHAPE_OPMUL:
		/* z + x * y is x * y + z, bit for bit */
		fused_kernels[sub ? 2 : 0][2 * sc[2] + sc[0]](d, o[1], o[2],
		                                              o[0], f->n);
		break;
	default:
		mulmul_kernels[sub][2 * sc[1] + sc[3]](d, o[0], o[1], o[2],
		                                       o[3], f->n);
		break;
	}
}

static void
run_block(const sf_instr *code, size_t ncode, const frame *f)
{
	for (size_t k = 0; k < ncode; k++) {
		const sf_instr *in = &code[k];
		const double *a = source(f, in->kind[1], in->idx[1]);
		double *d;

		if (in->shape == SF_SHAPE_COPY) {
			if (f->out == NULL) /* the caller reads registers */
				continue;
			d = f->out + (size_t)in->idx[0] * f->out_stride +
			    f->out_off;
			if (in->kind[1] == SF_OPND_SCAL) {
				for (size_t i = 0; i < f->n; i++)
					d[i] = *a;
			} else {
				memcpy(d, a, f->n * sizeof *d);
			}
			continue;
		}
		d = in->kind[0] == SF_OPND_REG
		        ? f->regs + (size_t)in->idx[0] * B
		        : f->cols[in->idx[0]] + f->row0;
		switch (in->shape) {
		case SF_SHAPE_V:
			unary_kernels[in->op](d, a, f->n);
			break;
		case SF_SHAPE_VV:
			vv_kernels[in->op](
			    d, a, source(f, in->kind[2], in->idx[2]), f->n);
			break;
		case SF_SHAPE_VS:
			vs_kernels[in->op](
			    d, a, *source(f, in->kind[2], in->idx[2]), f->n);
			break;
		case SF_SHAPE_SV:
			sv_kernels[in->op](
			    d, *a, source(f, in->kind[2], in->idx[2]), f->n);
			break;
		case SF_SHAPE_MULOP:
		case SF_SHAPE_OPMUL:
		case SF_SHAPE_MULMUL:
			run_fused(f, in, d);
			break;
		case SF_SHAPE_GATHER:
			k_gather(d, a, f->index[in->idx[2]] + f->row0, f->n);
			break;
		default:
			if (in->op == SF_OP_POWLOG) {
				k_powlog(d, a,
				         source(f, in->kind[2], in->idx[2]),
				         source(f, in->kind[3], in->idx[3]),
				         in->kind[3] != SF_OPND_SCAL, f->n);
				break;
			}
			k_if(d, a, in->kind[1] != SF_OPND_SCAL,
			     source(f, in->kind[2], in->idx[2]),
			     in->kind[2] != SF_OPND_SCAL,
			     source(f, in->kind[3], in->idx[3]),
			     in->kind[3] != SF_OPND_SCAL, f->n);
			break;
		}
	}
}

/* Run the parameter stage into scal (constants and theta already there). */
static void
run_params(const sf_program *p, double *scal)
{
	for (size_t k = 0; k < p->nparam_code; k++) {
		const sf_instr *in = &p->param_code[k];

		scal[in->idx[0]] =
		    sf_op_apply(in->op, scal[in->idx[1]], scal[in->idx[2]],
		                scal[in->idx[3]]);
	}
}

/* ---- Data binding ------------------------------------------------------- */

sf_expr_data *
sf_expr_data_new(const sf_program *p, const double *const *columns,
                 size_t nrows, sf_error *err)
{
	sf_expr_data *d;
	double *regs = NULL, *scal = NULL;
	size_t len;

	if (nrows > (SIZE_MAX / sizeof(double)) - B) {
		sf_error_set(err, SF_ENOMEM, "too many rows");
		return NULL;
	}
	len = nrows + B;
	d = calloc(1, sizeof *d);
	if (d == NULL)
		goto oom;
	d->prog = p;
	d->nrows = nrows;
	d->ncols = p->ninputs + p->nhoisted;
	d->cols = calloc(d->ncols ? d->ncols : 1, sizeof *d->cols);
	if (d->cols == NULL)
		goto oom;
	for (size_t i = 0; i < p->ninputs; i++) {
		if (!p->uses_input[i])
			continue;
		if (columns == NULL || columns[i] == NULL) {
			sf_error_set(err, SF_EVALUE,
			             "input '%s' is used but has no column",
			             p->input_names[i]);
			sf_expr_data_free(d);
			return NULL;
		}
	}
	for (size_t i = 0; i < d->ncols; i++) {
		if (i < p->ninputs && !p->uses_input[i])
			continue;
		d->cols[i] = malloc(len * sizeof(double));
		if (d->cols[i] == NULL)
			goto oom;
		if (i < p->ninputs && nrows > 0)
			memcpy(d->cols[i], columns[i], nrows * sizeof(double));
		/* padding, read by the few rows past a range's end that the
		 * kernels compute (hoisted columns: until the data stage
		 * writes them) */
		for (size_t r = nrows; r < len; r++)
			d->cols[i][r] = 1.0;
	}
	if (p->ndata_code > 0) {
		frame f;

		regs = malloc((p->data_regs ? p->data_regs : 1) * B *
		              sizeof *regs);
		scal = malloc((p->nconst ? p->nconst : 1) * sizeof *scal);
		if (regs == NULL || scal == NULL)
			goto oom;
		memcpy(scal, p->consts, p->nconst * sizeof *scal);
		f.regs = regs;
		f.cols = d->cols;
		f.scal = scal;
		f.out = NULL;
		f.out_stride = f.out_off = 0;
		f.index = NULL;
		for (size_t row0 = 0; row0 < nrows; row0 += B) {
			f.row0 = row0;
			f.n = nrows - row0 < B ? nrows - row0 : B;
			run_block(p->data_code, p->ndata_code, &f);
		}
	}
	free(regs);
	free(scal);
	regs = scal = NULL;
	if (sf_level_bind(d) != SF_OK)
		goto oom;
	return d;
oom:
	free(regs);
	free(scal);
	sf_expr_data_free(d);
	sf_error_set(err, SF_ENOMEM, "out of memory");
	return NULL;
}

void
sf_expr_data_free(sf_expr_data *d)
{
	if (d == NULL)
		return;
	sf_level_unbind(d);
	if (d->cols != NULL)
		for (size_t i = 0; i < d->ncols; i++)
			free(d->cols[i]);
	free(d->cols);
	free(d);
}

size_t
sf_expr_data_rows(const sf_expr_data *d)
{
	return d->nrows;
}

/* ---- Evaluation --------------------------------------------------------- */

/* Scratch: the scalars, then one slot saying whether the tables are
 * filled, rounded up to a cache line; the row stage's registers; the
 * tables. */
static size_t
scalar_space(const sf_program *p)
{
	return (p->nscalars + 1 + 7) & ~(size_t)7;
}

size_t
sf_program_scratch_size(const sf_program *p)
{
	return scalar_space(p) + (p->row_regs + p->ntables) * B;
}

void
sf_program_load(const sf_program *p, const sf_expr_data *d, const double *theta,
                size_t rows, double *scratch)
{
	double *scal = scratch;
	frame f;

	if (p->nconst > 0)
		memcpy(scal, p->consts, p->nconst * sizeof *scal);
	for (size_t j = 0; j < p->nparams; j++)
		scal[p->nconst + j] = theta != NULL ? theta[j] : NAN;
	run_params(p, scal);
	/* the tables, when the rows to come have at least two rows for
	 * each level of the data's levelled inputs (below that they would
	 * cost more than they save) */
	scal[p->nscalars] = 0.0;
	if (d->prog != p || d->gather_code == NULL || rows < 2 * d->level_rows)
		return;
	f.regs = scratch + scalar_space(p);
	f.scal = scal;
	f.out = NULL;
	f.out_stride = f.out_off = 0;
	f.row0 = 0;
	for (size_t o = 0; o < d->nlevels; o++) {
		const sf_level *l = &d->levels[d->order[o]];

		f.cols = l->cols;
		f.index = (const uint8_t *const *)l->maps;
		f.n = l->nlevels;
		run_block(l->code, l->ncode, &f);
	}
	scal[p->nscalars] = 1.0;
}

/* The frame fields every block shares, from the scratch sf_program_load()
 * filled; return the row stage (its length in *ncode, its copy of output
 * 0 in *out0): the gather code when the tables are filled, else the
 * program's own.  Either gives the same bits. */
static const sf_instr *
run_setup(const sf_program *p, const sf_expr_data *d, double *scratch, frame *f,
          size_t *ncode, const sf_instr **out0)
{
	f->regs = scratch + scalar_space(p);
	f->cols = d->cols;
	f->scal = scratch;
	f->out = NULL;
	f->out_stride = f->out_off = 0;
	f->index = d->index;
	if (scratch[p->nscalars] == 0.0) {
		*ncode = p->nrow_code;
		*out0 = p->out0_copy;
		return p->row_code;
	}
	*ncode = d->ngather_code;
	*out0 = d->gather_out0;
	return d->gather_code;
}

void
sf_program_run(const sf_program *p, const sf_expr_data *d, size_t begin,
               size_t end, double *out, double *scratch)
{
	frame f;
	const sf_instr *code, *out0;
	size_t ncode;

	if (d->prog != p) {
		/* a caller's bug; say so in the results rather than read
		 * columns of another program */
		for (size_t i = 0; i < p->nout * (end - begin); i++)
			out[i] = NAN;
		return;
	}
	code = run_setup(p, d, scratch, &f, &ncode, &out0);
	f.out = out;
	f.out_stride = end - begin;
	for (size_t row0 = begin; row0 < end; row0 += B) {
		f.row0 = row0;
		f.n = end - row0 < B ? end - row0 : B;
		f.out_off = row0 - begin;
		run_block(code, ncode, &f);
	}
}

void
sf_program_eval(const sf_program *p, const sf_expr_data *d, const double *theta,
                size_t begin, size_t end, double *out, double *scratch)
{
	sf_program_load(p, d, theta, end - begin, scratch);
	sf_program_run(p, d, begin, end, out, scratch);
}

/* Add n rows to the four partial sums s of sf_program_eval_sumsq(), row k
 * to sum k mod 4; a last n mod 4 rows go to s[0], in order. */
static void
sumsq_block(double *s, const double *restrict f, const double *restrict y,
            const double *restrict q, size_t n)
{
	double s0 = s[0], s1 = s[1], s2 = s[2], s3 = s[3], d0, d1, d2, d3;
	size_t i = 0;

	/* named locals, not s[]: an array would be kept in memory */
	for (; i + 4 <= n; i += 4) {
		d0 = f[i] - y[i];
		d1 = f[i + 1] - y[i + 1];
		d2 = f[i + 2] - y[i + 2];
		d3 = f[i + 3] - y[i + 3];
		s0 += q[i] * d0 * d0;
		s1 += q[i + 1] * d1 * d1;
		s2 += q[i + 2] * d2 * d2;
		s3 += q[i + 3] * d3 * d3;
	}
	for (; i < n; i++) {
		d0 = f[i] - y[i];
		s0 += q[i] * d0 * d0;
	}
	s[0] = s0;
	s[1] = s1;
	s[2] = s2;
	s[3] = s3;
}

double
sf_program_run_sumsq(const sf_program *p, const sf_expr_data *d, size_t begin,
                     size_t end, const double *y, const double *q,
                     double *scratch)
{
	const sf_instr *code, *copy;
	double s[4] = {0, 0, 0, 0}, spread[B];
	size_t ncode;
	frame f;

	if (d->prog != p || p->out0_copy == NULL)
		return NAN;
	code = run_setup(p, d, scratch, &f, &ncode, &copy);
	for (size_t row0 = begin; row0 < end; row0 += B) {
		const double *out0;

		f.row0 = row0;
		f.n = end - row0 < B ? end - row0 : B;
		/* every instruction but the copies, then the loss straight
		 * from output 0's register (or column) while it is in L1 */
		run_block(code, ncode, &f);
		out0 = source(&f, copy->kind[1], copy->idx[1]);
		if (copy->kind[1] == SF_OPND_SCAL) {
			/* an output that is the same in every row */
			for (size_t i = 0; i < f.n; i++)
				spread[i] = *out0;
			out0 = spread;
		}
		sumsq_block(s, out0, y + row0, q + row0, f.n);
	}
	return (s[0] + s[1]) + (s[2] + s[3]);
}

double
sf_program_eval_sumsq(const sf_program *p, const sf_expr_data *d,
                      const double *theta, size_t begin, size_t end,
                      const double *y, const double *q, double *scratch)
{
	sf_program_load(p, d, theta, end - begin, scratch);
	return sf_program_run_sumsq(p, d, begin, end, y, q, scratch);
}

int
sf_expr_eval_columns(const sf_expr_scope *s, const char *text,
                     const double *const *columns, size_t nrows, double *out,
                     sf_error *err)
{
	sf_program *p;
	sf_expr_data *d;
	double *scratch;

	p = sf_program_compile(s, &text, 1, SF_EXPR_DATA_ONLY, NULL, err);
	if (p == NULL)
		return err != NULL ? err->code : SF_ESYNTAX;
	d = sf_expr_data_new(p, columns, nrows, err);
	if (d == NULL) {
		sf_program_free(p);
		return err != NULL ? err->code : SF_ENOMEM;
	}
	scratch = malloc((sf_program_scratch_size(p) + 1) * sizeof *scratch);
	if (scratch == NULL) {
		sf_expr_data_free(d);
		sf_program_free(p);
		return sf_error_set(err, SF_ENOMEM, "out of memory");
	}
	sf_program_eval(p, d, NULL, 0, nrows, out, scratch);
	free(scratch);
	sf_expr_data_free(d);
	sf_program_free(p);
	return SF_OK;
}

/* ---- Canonical printing (here because it needs the whole front end) ----- */

char *
sf_expr_canonical(const sf_expr_scope *s, const char *text, sf_error *err)
{
	sf_ast *t;
	char *out;

	if (sf_ast_parse(text != NULL ? text : "", &t, err) != SF_OK)
		return NULL;
	if (sf_scope_resolve(s, t, NULL, 0, err) != SF_OK) {
		sf_ast_free(t);
		return NULL;
	}
	out = sf_ast_print(t);
	if (out == NULL)
		sf_error_set(err, SF_ENOMEM, "out of memory");
	sf_ast_free(t);
	return out;
}

char *
sf_expr_term_canonical(const sf_expr_scope *s, const char *name, sf_error *err)
{
	int kind;
	size_t index;
	const sf_expr_entry *e;
	char *out;

	if (!sf_expr_scope_lookup(s, name, &kind, &index) ||
	    kind != SF_EXPR_TERM ||
	    (e = sf_scope_entry(s, SF_EXPR_TERM, index)) == NULL ||
	    e->ast == NULL) {
		sf_error_set(err, SF_ENAME, "no term called '%.64s'",
		             name != NULL ? name : "");
		return NULL;
	}
	out = sf_ast_print(e->ast);
	if (out == NULL)
		sf_error_set(err, SF_ENOMEM, "out of memory");
	return out;
}
