/*
 * test_expr.c - the expression engine against C's own arithmetic.
 *
 * Table-driven: every expression of the language is compiled (alone and
 * all together in one program), evaluated over rows that cross block
 * boundaries, and compared with the same formula written in C.  Then the
 * same with every name fixed (so everything folds), with simplification
 * off, and with derivatives checked by central differences.  Every error
 * path the front end has is provoked with its message and column.
 */
#include "expr/expr.h"
#include "expr/internal.h" /* SF_EXPR_BLOCK, sf_f_powlog */
#include "base/rng.h"
#include "testing.h"

#include <math.h>
#include <stdint.h>
#include <string.h>
#ifdef _OPENMP
#include <omp.h>
#endif

#define PI 3.14159265358979323846
#define EULER 2.71828182845904523536

/* ---- Helpers ------------------------------------------------------------- */

/* The NaN-propagating semantics expr.h documents, written independently. */
static double
t_min(double x, double y)
{
	if (isnan(x) || isnan(y))
		return NAN;
	return x < y ? x : y;
}

static double
t_max(double x, double y)
{
	if (isnan(x) || isnan(y))
		return NAN;
	return x > y ? x : y;
}

static double
t_not(double x)
{
	return isnan(x) ? NAN : (x == 0 ? 1.0 : 0.0);
}

static double
t_and(double x, double y)
{
	return isnan(x) || isnan(y) ? NAN : (x != 0 && y != 0 ? 1.0 : 0.0);
}

static double
t_or(double x, double y)
{
	return isnan(x) || isnan(y) ? NAN : (x != 0 || y != 0 ? 1.0 : 0.0);
}

static double
t_if(double c, double a, double b)
{
	return isnan(c) ? NAN : (c != 0 ? a : b);
}

static double
t_b(int truth)
{
	return truth ? 1.0 : 0.0;
}

/* Distance in units in the last place (NaN only matches NaN). */
static uint64_t
ulps(double x, double y)
{
	int64_t ix, iy;

	if (isnan(x) || isnan(y))
		return isnan(x) && isnan(y) ? 0 : UINT64_MAX;
	if (x == y)
		return 0; /* also +0 and -0 */
	memcpy(&ix, &x, sizeof ix);
	memcpy(&iy, &y, sizeof iy);
	if (ix < 0)
		ix = INT64_MIN - ix;
	if (iy < 0)
		iy = INT64_MIN - iy;
	return ix > iy ? (uint64_t)ix - (uint64_t)iy
	               : (uint64_t)iy - (uint64_t)ix;
}

/* Same value bit for bit, any NaN matching any NaN. */
static int
same(double x, double y)
{
	if (isnan(x) || isnan(y))
		return isnan(x) && isnan(y);
	return memcmp(&x, &y, sizeof x) == 0;
}

/* The scope most tests use: inputs x, y, z and the text input model
 * (values cnn, mlp, rnn), parameters a and b, fixed k = 3, terms
 * t1 = x * y and t2 = t1 + a * z.  With fixed != 0, x, y, z, a, b are
 * fixed constants with the given values instead, and model is absent. */
static sf_expr_scope *
make_scope(int fixed, const double *v)
{
	static const char *const models[] = {"cnn", "mlp", "rnn"};
	sf_expr_scope *s = sf_expr_scope_new();
	sf_error err;
	int rc = 0;

	CU_ASSERT_PTR_NOT_NULL_FATAL(s);
	if (!fixed) {
		rc |= sf_expr_scope_add_input(s, "x", &err);
		rc |= sf_expr_scope_add_input(s, "y", &err);
		rc |= sf_expr_scope_add_input(s, "z", &err);
		rc |= sf_expr_scope_add_text_input(s, "model", models, 3, &err);
		rc |= sf_expr_scope_add_param(s, "a", &err);
		rc |= sf_expr_scope_add_param(s, "b", &err);
	} else {
		rc |= sf_expr_scope_add_fixed(s, "x", v[0], &err);
		rc |= sf_expr_scope_add_fixed(s, "y", v[1], &err);
		rc |= sf_expr_scope_add_fixed(s, "z", v[2], &err);
		rc |= sf_expr_scope_add_fixed(s, "model", v[3], &err);
		rc |= sf_expr_scope_add_fixed(s, "a", v[4], &err);
		rc |= sf_expr_scope_add_fixed(s, "b", v[5], &err);
	}
	rc |= sf_expr_scope_add_fixed(s, "k", 3.0, &err);
	rc |= sf_expr_scope_add_term(s, "t1", "x * y", &err);
	rc |= sf_expr_scope_add_term(s, "t2", "t1 + a * z", &err);
	CU_ASSERT_EQUAL_FATAL(rc, SF_OK);
	return s;
}

/* ---- The table ----------------------------------------------------------- */

/*
 * pow through a volatile pointer: compilers rewrite pow(2, y) as exp2(y)
 * and pow(x, 2) as x * x, which may differ from pow in the last place;
 * the engine calls pow itself, so the reference must too.
 */
static double (*volatile c_pow)(double, double) = pow;

typedef struct tcase {
	const char *text;
	double want;
} tcase;

#define MAX_CASES 256

/*
 * The cases at one point: x, y, z inputs, m the text code of model, a and
 * b parameters.  Text-input cases (which need model as text) come last,
 * after *ntext_free of them; returns the count.
 */
static size_t
cases_at(double x, double y, double z, double m, double a, double b, tcase *out,
         size_t *ntext_free)
{
	const double k = 3.0, t1 = x * y, t2 = t1 + a * z, nan = NAN;
	const tcase c[] = {
	    /* numbers */
	    {"1", 1},
	    {"2.5", 2.5},
	    {"1e-3", 1e-3},
	    {".5", .5},
	    {"1.", 1.},
	    {"1E3", 1e3},
	    {"12.5e+2", 12.5e2},
	    {"0.000001", 1e-6},
	    /* arithmetic, precedence, associativity */
	    {"x", x},
	    {"x + y", x + y},
	    {"x - y", x - y},
	    {"x * y", x * y},
	    {"x / y", x / y},
	    {"x + y * z", x + y * z},
	    {"(x + y) * z", (x + y) * z},
	    {"x - y - z", x - y - z},
	    {"x - (y - z)", x - (y - z)},
	    {"x / y / z", x / y / z},
	    {"x / (y / z)", x / (y / z)},
	    {"x * y / z", x * y / z},
	    {"x / y * z", x / y * z},
	    {"x + y - z + x", x + y - z + x},
	    {"x+y*z-x/y", x + y * z - x / y},
	    {"  x\t+\n y  ", x + y},
	    {"((((x))))", x},
	    {"2 * (3 + 4)", 14},
	    {"10 - 2 - 3", 5},
	    {"x * (y + z) * (x - z)", x * (y + z) * (x - z)},
	    /* products fused into the sum or difference reading them */
	    {"x * y - z", x * y - z},
	    {"z - x * y", z - x * y},
	    {"z - a * x", z - a * x},
	    {"b - x * a", b - x * a},
	    {"x * a - b", x * a - b},
	    {"x * y + a", x * y + a},
	    {"x * a + y * z", x * a + y * z},
	    {"x * a - y * z", x * a - y * z},
	    {"x * y - z * b", x * y - z * b},
	    {"a * x + b * y", a * x + b * y},
	    {"x * y + x * z", x * y + x * z},
	    {"(x + a) * y - z * b", (x + a) * y - z * b},
	    {"x * b + (y + a) * (z + b)", x * b + (y + a) * (z + b)},
	    {"(x + a) * (y + b) - (z + a) * (x - b)",
	     (x + a) * (y + b) - (z + a) * (x - b)},
	    {"z - (x + a) * (y - b)", z - (x + a) * (y - b)},
	    /* unary */
	    {"-x", -x},
	    {"- -x", x},
	    {"+x", x},
	    {"x + +y", x + y},
	    {"x - -y", x - -y},
	    {"x * -y", x * -y},
	    {"-x * y", -x * y},
	    {"-(x + y)", -(x + y)},
	    {"1 - -1", 2},
	    /* power */
	    {"2^3", 8},
	    {"2^3^2", 512},
	    {"2 ^ 2 ^ 3", 256},
	    {"(2^3)^2", 64},
	    {"2^-1", 0.5},
	    {"2**-1", 0.5},
	    {"2 ** 3 ** 2", 512},
	    {"-2 ^ 2", -4},
	    {"(-2) ^ 2", 4},
	    {"-2 ^ -2", -0.25},
	    {"x^y", c_pow(x, y)},
	    {"x**y", c_pow(x, y)},
	    {"y^-x", c_pow(y, -x)},
	    {"-y^-x", -c_pow(y, -x)},
	    {"-x^2", -c_pow(x, 2)},
	    {"2^-x^2", c_pow(2, -c_pow(x, 2))},
	    {"x^2", c_pow(x, 2)},
	    {"y^0.5", c_pow(y, 0.5)},
	    {"x^0", 1},
	    {"x^1", x},
	    {"x^3", c_pow(x, 3)},
	    {"y^x^2", c_pow(y, c_pow(x, 2))},
	    {"pow(x, 3)", c_pow(x, 3)},
	    {"pow(y, x)", c_pow(y, x)},
	    {"pow(2, 10)", 1024},
	    /* comparisons */
	    {"x < y", t_b(x < y)},
	    {"x <= y", t_b(x <= y)},
	    {"x > y", t_b(x > y)},
	    {"x >= y", t_b(x >= y)},
	    {"x == y", t_b(x == y)},
	    {"x != y", t_b(x != y)},
	    {"x == x", t_b(x == x)},
	    {"x != x", t_b(x != x)},
	    {"x + 1 < y * 2", t_b(x + 1 < y * 2)},
	    {"(x < y) == (y > x)", t_b(t_b(x < y) == t_b(y > x))},
	    {"(x < y) < 1", t_b(t_b(x < y) < 1)},
	    {"-x < 0", t_b(-x < 0)},
	    {"(1 < 2) == 1", 1},
	    /* logic */
	    {"!x", t_not(x)},
	    {"!!x", t_not(t_not(x))},
	    {"!(x < y)", t_not(t_b(x < y))},
	    {"x && y", t_and(x, y)},
	    {"x || y", t_or(x, y)},
	    {"x && 0", t_and(x, 0)},
	    {"0 || x", t_or(0, x)},
	    {"x < y && y < z", t_and(t_b(x < y), t_b(y < z))},
	    {"x < y || y < z && z < x",
	     t_or(t_b(x < y), t_and(t_b(y < z), t_b(z < x)))},
	    {"(x < y || y < z) && z < x",
	     t_and(t_or(t_b(x < y), t_b(y < z)), t_b(z < x))},
	    {"!x && y", t_and(t_not(x), y)},
	    {"!x == 0", t_b(t_not(x) == 0)},
	    {"!0", 1},
	    {"!1", 0},
	    {"!-3", 0},
	    {"3 && 4", 1},
	    {"0 && 4", 0},
	    {"0 || 0", 0},
	    /* functions */
	    {"log(y)", log(y)},
	    {"log2(y)", log2(y)},
	    {"log10(y)", log10(y)},
	    {"exp(x)", exp(x)},
	    {"sqrt(y)", sqrt(y)},
	    {"sqrt(x)", sqrt(x)},
	    {"abs(x)", fabs(x)},
	    {"floor(x)", floor(x)},
	    {"ceil(x)", ceil(x)},
	    {"sin(x)", sin(x)},
	    {"cos(x)", cos(x)},
	    {"tan(x)", tan(x)},
	    {"atan(x)", atan(x)},
	    {"log(x)", log(x)},
	    {"min(x, y)", t_min(x, y)},
	    {"max(x, y)", t_max(x, y)},
	    {"min(x, y, z)", t_min(t_min(x, y), z)},
	    {"max(x, y, z)", t_max(t_max(x, y), z)},
	    {"min(x, y, z, 0, a)", t_min(t_min(t_min(t_min(x, y), z), 0), a)},
	    {"max(1, 2, 3, 4, 5, x)", t_max(5, x)},
	    {"min(x, x)", t_min(x, x)},
	    {"if(x < y, x, y)", t_if(t_b(x < y), x, y)},
	    {"if(x, y, z)", t_if(x, y, z)},
	    {"if(x > 0, log(x), 0)", t_if(t_b(x > 0), log(x), 0)},
	    {"if(0, x, y)", y},
	    {"if(1, x, y)", x},
	    {"min(2, 1)", 1},
	    {"max(-1, -2)", -1},
	    {"abs(-3)", 3},
	    {"log2(8)", 3},
	    {"log10(1000)", 3},
	    {"exp(0)", 1},
	    {"sqrt(16)", 4},
	    {"atan(1) * 4", atan(1.0) * 4},
	    {"tan(0)", 0},
	    {"cos(pi)", -1},
	    {"sin(0)", 0},
	    {"log(x * x + 1)", log(x * x + 1)},
	    /* constants, fixed constants, terms */
	    {"pi", PI},
	    {"e", EULER},
	    {"2 * pi * x", 2 * PI * x},
	    {"e^x", c_pow(EULER, x)},
	    {"log(e)", log(EULER)},
	    {"k", 3},
	    {"k * x", k * x},
	    {"x^k", c_pow(x, k)},
	    {"t1", t1},
	    {"t2 * 2", t2 * 2},
	    {"t1 + t2", t1 + t2},
	    {"log(t1 * t1 + 1)", log(t1 * t1 + 1)},
	    /* parameters mixed with data */
	    {"a", a},
	    {"a * x", a * x},
	    {"a * x + b", a * x + b},
	    {"a * x * y", a * x * y},
	    {"a * (x - 1) / x", a * (x - 1) / x},
	    {"b * x / y / z", b * x / y / z},
	    {"x * a * y * b", x * a * y * b},
	    {"a / x", a / x},
	    {"x / a", x / a},
	    {"a^x", c_pow(a, x)},
	    {"y^a", c_pow(y, a)},
	    {"a^b", c_pow(a, b)},
	    {"exp(a * x)", exp(a * x)},
	    {"log(a * y + b)", log(a * y + b)},
	    {"a + b", a + b},
	    {"a * b * x", a * b * x},
	    {"min(a, x)", t_min(a, x)},
	    {"max(a * x, b)", t_max(a * x, b)},
	    {"if(x < a, b, x)", t_if(t_b(x < a), b, x)},
	    {"abs(a - x)", fabs(a - x)},
	    {"sqrt(a * y)", sqrt(a * y)},
	    {"floor(y / a)", floor(y / a)},
	    {"ceil(a * x)", ceil(a * x)},
	    {"a * log2(y) + b * (y - 1) / y", a * log2(y) + b * (y - 1) / y},
	    {"2 * a * 3 * x", 2 * a * 3 * x},
	    {"a / b / x / y", a / b / x / y},
	    /* simplification must keep C's results */
	    {"x * 1", x * 1},
	    {"1 * x", 1 * x},
	    {"x + 0", x + 0},
	    {"0 + x", 0 + x},
	    {"x - 0", x - 0},
	    {"0 - x", 0 - x},
	    {"x / 1", x / 1},
	    {"x * -1", x * -1},
	    {"-1 * x", -1 * x},
	    {"x + -y", x + -y},
	    {"-x + y", -x + y},
	    {"-x * -y", -x * -y},
	    {"x * 0", x * 0},
	    {"0 * x", 0 * x},
	    {"(x + y) - (x + y)", (x + y) - (x + y)},
	    {"(x + y) * (x + y)", (x + y) * (x + y)},
	    {"(x + y) / (x + y)", (x + y) / (x + y)},
	    /* domain errors give NaN or infinity */
	    {"1 / x", 1 / x},
	    {"0 / 0", nan},
	    {"log(0)", -INFINITY},
	    {"sqrt(-1)", nan},
	    {"1e308 * 10", INFINITY},
	    {"-1e308 * 10", -INFINITY},
	    {"floor(1e300)", 1e300},
	    {"floor(-0.5)", -1},
	    {"ceil(-0.5)", -0.0},
	    {"floor(1e300 * 1e300)", INFINITY},
	    {"floor(0 / 0)", nan},
	    {"log(-1)", nan},
	    {"(-8)^(1/3)", nan},
	    {"0^-1", INFINITY},
	    /* NaN in logic, min, max, if */
	    {"min(x, 0/0)", nan},
	    {"max(0/0, x)", nan},
	    {"if(0/0, 1, 2)", nan},
	    {"!(0/0)", nan},
	    {"(0/0) && 0", nan},
	    {"0 || (0/0)", nan},
	    {"(0/0) < 1", 0},
	    {"(0/0) != (0/0)", 1},
	    {"(0/0) == (0/0)", 0},
	    /* text inputs: model in {cnn, mlp, rnn} */
	    {"model == 'cnn'", t_b(m == 0)},
	    {"model == 'mlp'", t_b(m == 1)},
	    {"model != 'rnn'", t_b(m != 2)},
	    {"model < 'mlp'", t_b(m < 1)},
	    {"model >= 'mlp'", t_b(m >= 1)},
	    {"'mlp' < model", t_b(1 < m)},
	    {"'rnn' == model", t_b(m == 2)},
	    {"model == 'abc'", 0},
	    {"model != 'abc'", 1},
	    {"model > 'abc'", 1},
	    {"model > 'lstm'", t_b(m > 0.5)},
	    {"model < 'zzz'", 1},
	    {"model <= 'mlp'", t_b(m <= 1)},
	    {"model == 'it''s'", 0},
	    {"model == 'cnn' && x > 0", t_and(t_b(m == 0), t_b(x > 0))},
	    {"if(model == 'rnn', x, y)", t_if(t_b(m == 2), x, y)},
	    {"(model) == 'cnn'", t_b(m == 0)},
	    {"2 * (model == 'mlp') + 1", 2 * t_b(m == 1) + 1},
	};
	size_t n = sizeof c / sizeof c[0];

	(void)b;
	CU_ASSERT_FATAL(n <= MAX_CASES);
	memcpy(out, c, sizeof c);
	*ntext_free = 0;
	while (*ntext_free < n && strstr(c[*ntext_free].text, "model") == NULL)
		(*ntext_free)++;
	return n;
}

/* Rows that cross several blocks and end in a partial one, with the
 * special values first. */
#define NROWS 700

static void
make_rows(double *x, double *y, double *z, double *m)
{
	static const double special[] = {0.0, -0.0,   1.0,    -1.0,
	                                 2.0, 0.5,    -2.5,   3.0,
	                                 NAN, 1e-300, -1e300, INFINITY};
	sf_rng r;

	sf_rng_seed(&r, 12345u, 7u);
	for (size_t i = 0; i < NROWS; i++) {
		x[i] = i < sizeof special / sizeof special[0]
		           ? special[i]
		           : 6.0 * sf_rng_uniform(&r) - 3.0;
		y[i] = 0.1 + 5.0 * sf_rng_uniform(&r);
		z[i] = 4.0 * sf_rng_uniform(&r) - 2.0;
		m[i] = (double)sf_rng_bounded(&r, 3);
	}
	y[1] = 1.0; /* y == x for a row or two */
	y[2] = 1.0;
}

/* Evaluate a whole program over the rows; out is nout * NROWS doubles. */
static void
eval_rows(const sf_program *p, const double *const *cols, const double *theta,
          double *out)
{
	sf_error err;
	sf_expr_data *d = sf_expr_data_new(p, cols, NROWS, &err);
	double *scratch;

	CU_ASSERT_PTR_NOT_NULL_FATAL(d);
	scratch = malloc(sf_program_scratch_size(p) * sizeof *scratch + 8);
	CU_ASSERT_PTR_NOT_NULL_FATAL(scratch);
	sf_program_eval(p, d, theta, 0, NROWS, out, scratch);
	free(scratch);
	sf_expr_data_free(d);
}

/*
 * Every case compiled in one program (max_ulps 0: bit-exact, for the
 * unsimplified program) and checked at every row against C.
 */
static void
check_table(unsigned flags, uint64_t max_ulps)
{
	double *x = malloc(4 * NROWS * sizeof *x), *y = x + NROWS,
	       *z = y + NROWS, *m = z + NROWS;
	const double *cols[4];
	const double theta[2] = {0.7, 1.3};
	tcase *cases = malloc(MAX_CASES * sizeof *cases);
	const char *texts[MAX_CASES];
	double *out;
	size_t n, nfree, bad = 0;
	sf_expr_scope *s;
	sf_program *p;
	sf_error err;
	int failed;

	CU_ASSERT_PTR_NOT_NULL_FATAL(x);
	CU_ASSERT_PTR_NOT_NULL_FATAL(cases);
	make_rows(x, y, z, m);
	cols[0] = x, cols[1] = y, cols[2] = z, cols[3] = m;
	n = cases_at(0, 1, 2, 0, theta[0], theta[1], cases, &nfree);
	CU_ASSERT(n >= 150);
	for (size_t c = 0; c < n; c++)
		texts[c] = cases[c].text;
	s = make_scope(0, NULL);
	p = sf_program_compile(s, texts, n, flags, &failed, &err);
	if (p == NULL)
		fprintf(stderr, "\ncase %d '%s': %s (column %d)\n", failed,
		        texts[failed >= 0 ? failed : 0], err.message,
		        err.column);
	CU_ASSERT_PTR_NOT_NULL_FATAL(p);
	CU_ASSERT_EQUAL(sf_program_outputs(p), n);
	out = malloc(n * NROWS * sizeof *out);
	CU_ASSERT_PTR_NOT_NULL_FATAL(out);
	eval_rows(p, cols, theta, out);
	for (size_t i = 0; i < NROWS; i++) {
		size_t nn = cases_at(x[i], y[i], z[i], m[i], theta[0], theta[1],
		                     cases, &nfree);

		for (size_t c = 0; c < nn; c++) {
			double got = out[c * NROWS + i];

			if (ulps(got, cases[c].want) <= max_ulps)
				continue;
			if (bad++ < 10)
				fprintf(stderr,
				        "\n'%s' at x=%g y=%g z=%g m=%g: got "
				        "%.17g, want %.17g\n",
				        cases[c].text, x[i], y[i], z[i], m[i],
				        got, cases[c].want);
		}
	}
	CU_ASSERT_EQUAL(bad, 0);
	sf_program_free(p);
	sf_expr_scope_free(s);
	free(out);
	free(cases);
	free(x);
}

static void
test_table_simplified(void)
{
	check_table(0, 4);
}

static void
test_table_unsimplified(void)
{
	/* as written, evaluated as C evaluates it: bit for bit */
	check_table(SF_EXPR_NO_SIMPLIFY, 0);
}

/* Each case compiled alone, its value at one row must equal its value in
 * the big program: outputs do not interfere. */
static void
test_table_one_by_one(void)
{
	double *x = malloc(4 * NROWS * sizeof *x), *y = x + NROWS,
	       *z = y + NROWS, *m = z + NROWS;
	const double *cols[4];
	const double theta[2] = {0.7, 1.3};
	tcase *cases = malloc(MAX_CASES * sizeof *cases);
	size_t n, nfree, bad = 0;
	sf_expr_scope *s = make_scope(0, NULL);
	double *out = malloc(NROWS * sizeof *out);

	CU_ASSERT_PTR_NOT_NULL_FATAL(x);
	CU_ASSERT_PTR_NOT_NULL_FATAL(cases);
	CU_ASSERT_PTR_NOT_NULL_FATAL(out);
	make_rows(x, y, z, m);
	cols[0] = x, cols[1] = y, cols[2] = z, cols[3] = m;
	n = cases_at(0, 1, 2, 0, 0.7, 1.3, cases, &nfree);
	for (size_t c = 0; c < n; c++) {
		const char *text = cases[c].text;
		sf_error err;
		sf_program *p = sf_program_compile(s, &text, 1, 0, NULL, &err);

		CU_ASSERT_PTR_NOT_NULL_FATAL(p);
		eval_rows(p, cols, theta, out);
		for (size_t i = 0; i < NROWS; i++) {
			tcase want[MAX_CASES];

			cases_at(x[i], y[i], z[i], m[i], 0.7, 1.3, want,
			         &nfree);
			if (ulps(out[i], want[c].want) > 4 && bad++ < 10)
				fprintf(stderr,
				        "\n'%s' row %zu: %.17g vs %.17g\n",
				        text, i, out[i], want[c].want);
		}
		sf_program_free(p);
	}
	CU_ASSERT_EQUAL(bad, 0);
	free(out);
	free(cases);
	free(x);
	sf_expr_scope_free(s);
}

/*
 * Folding does not change results: with every name a fixed constant the
 * whole expression folds to one constant at compile time, which must be
 * bit-identical to the unsimplified program computing it at run time.
 */
static void
test_folding_exact(void)
{
	static const double points[][6] = {
	    {0.3, 1.7, -0.4, 0, 0.7, 1.3},   {-2.2, 0.6, 1.9, 1, 1.1, 0.2},
	    {0.0, 1.0, 1.0, 2, 0.5, 2.0},    {1.5, 3.3, -1.2, 1, 2.0, 0.9},
	    {-0.7, 0.25, 0.0, 0, 0.0, -1.0}, {2.9, 4.1, 1.1, 2, -1.5, 3.5},
	};
	tcase *cases = malloc(MAX_CASES * sizeof *cases);
	const char *texts[MAX_CASES];
	size_t n, nfree, bad = 0;

	CU_ASSERT_PTR_NOT_NULL_FATAL(cases);
	for (size_t pt = 0; pt < sizeof points / sizeof points[0]; pt++) {
		const double *v = points[pt];
		double cx[1] = {v[0]}, cy[1] = {v[1]}, cz[1] = {v[2]},
		       cm[1] = {v[3]};
		const double *cols[4] = {cx, cy, cz, cm};
		sf_expr_scope *run = make_scope(0, NULL);
		sf_expr_scope *fold = make_scope(1, v);
		sf_program *pr, *pf;
		sf_program_stats st;
		sf_expr_data *dr, *df;
		double *outr, *outf, *scratch;
		sf_error err;

		n = cases_at(0, 0, 0, 0, 0, 0, cases, &nfree);
		for (size_t c = 0; c < nfree; c++)
			texts[c] = cases[c].text;
		pr = sf_program_compile(run, texts, nfree, SF_EXPR_NO_SIMPLIFY,
		                        NULL, &err);
		pf = sf_program_compile(fold, texts, nfree, 0, NULL, &err);
		CU_ASSERT_PTR_NOT_NULL_FATAL(pr);
		CU_ASSERT_PTR_NOT_NULL_FATAL(pf);
		sf_program_get_stats(pf, &st);
		CU_ASSERT_EQUAL(st.param_instructions, 0);
		CU_ASSERT_EQUAL(st.data_instructions, 0);
		CU_ASSERT_EQUAL(st.row_instructions, nfree); /* copies only */
		dr = sf_expr_data_new(pr, cols, 1, &err);
		df = sf_expr_data_new(pf, cols, 1, &err);
		outr = malloc(nfree * sizeof *outr);
		outf = malloc(nfree * sizeof *outf);
		scratch = malloc((sf_program_scratch_size(pr) +
		                  sf_program_scratch_size(pf) + 1) *
		                 sizeof *scratch);
		CU_ASSERT_FATAL(dr && df && outr && outf && scratch);
		sf_program_eval(pr, dr, v + 4, 0, 1, outr, scratch);
		sf_program_eval(pf, df, NULL, 0, 1, outf, scratch);
		for (size_t c = 0; c < nfree; c++)
			if (!same(outr[c], outf[c]) && bad++ < 10)
				fprintf(stderr,
				        "\n'%s': run %.17g, folded %.17g\n",
				        texts[c], outr[c], outf[c]);
		free(outr);
		free(outf);
		free(scratch);
		sf_expr_data_free(dr);
		sf_expr_data_free(df);
		sf_program_free(pr);
		sf_program_free(pf);
		sf_expr_scope_free(run);
		sf_expr_scope_free(fold);
	}
	(void)n;
	CU_ASSERT_EQUAL(bad, 0);
	free(cases);
}

/* ---- Errors -------------------------------------------------------------- */

typedef struct ecase {
	const char *text;
	int code;
	int column;
	const char *message; /* a substring of the message */
} ecase;

static void
check_error(sf_expr_scope *s, const ecase *c, unsigned flags)
{
	sf_error err;
	sf_program *p;
	int failed = -2;
	const char *texts[2] = {"x + 1", c->text};

	sf_error_clear(&err);
	p = sf_program_compile(s, texts, 2, flags, &failed, &err);
	CU_ASSERT_PTR_NULL(p);
	sf_program_free(p);
	if (err.code != c->code || err.column != c->column ||
	    strstr(err.message, c->message) == NULL || failed != 1) {
		fprintf(stderr,
		        "\n'%s': code %d column %d failed %d '%s'; want code "
		        "%d column %d '%s'\n",
		        c->text, err.code, err.column, failed, err.message,
		        c->code, c->column, c->message);
		CU_FAIL("error case");
	}
	/* the record names the unknown name, and only that: "" for every
	 * other error */
	if (strncmp(err.message, "unknown name '", 14) == 0) {
		size_t n = strcspn(err.message + 14, "'");

		CU_ASSERT_EQUAL(strlen(err.name), n);
		CU_ASSERT_EQUAL(strncmp(err.name, err.message + 14, n), 0);
	} else {
		CU_ASSERT_STRING_EQUAL(err.name, "");
	}
	/* the canonical printer reports the same error */
	if (!(flags & SF_EXPR_DATA_ONLY)) {
		char *canon = sf_expr_canonical(s, c->text, &err);

		CU_ASSERT_PTR_NULL(canon);
		free(canon);
		CU_ASSERT_EQUAL(err.column, c->column);
	}
}

static void
test_errors(void)
{
	char deep[700], chain[7000], minus[700];
	const ecase cases[] = {
	    {"", SF_ESYNTAX, 1, "empty expression"},
	    {"   ", SF_ESYNTAX, 1, "empty expression"},
	    {"x +", SF_ESYNTAX, 4, "unexpected end of expression"},
	    {"(x", SF_ESYNTAX, 3, "missing ')' to close the '(' at column 1"},
	    {"((x)", SF_ESYNTAX, 5, "missing ')' to close the '(' at column 1"},
	    {"x)", SF_ESYNTAX, 2, "unexpected ')' with no '(' open"},
	    {"sin(x))", SF_ESYNTAX, 7, "unexpected ')' with no '(' open"},
	    {"x y", SF_ESYNTAX, 3, "unexpected name 'y'; expected an operator"},
	    {"1 2", SF_ESYNTAX, 3, "unexpected number '2'"},
	    {"(x) (y)", SF_ESYNTAX, 5, "unexpected '('; expected an operator"},
	    {"x * / y", SF_ESYNTAX, 5, "unexpected '/'; expected an operand"},
	    {"x = y", SF_ESYNTAX, 3, "did you mean '=='?"},
	    {"x & y", SF_ESYNTAX, 3, "did you mean '&&'?"},
	    {"x | y", SF_ESYNTAX, 3, "did you mean '||'?"},
	    {"x < y < z", SF_ESYNTAX, 7, "comparisons do not chain"},
	    {"x == y != z", SF_ESYNTAX, 8, "comparisons do not chain"},
	    {"'abc", SF_ESYNTAX, 1, "unterminated string"},
	    {"x + 'it''s", SF_ESYNTAX, 5, "unterminated string"},
	    {"x $ y", SF_ESYNTAX, 3, "unexpected character '$'"},
	    {"x + \"s\"", SF_ESYNTAX, 5,
	     "strings are written in single quotes"},
	    {"x + \xc3\xa9", SF_ESYNTAX, 5, "unexpected byte 0xC3"},
	    {"log(x, y)", SF_ESYNTAX, 1, "log takes 1 argument, got 2"},
	    {"x + log()", SF_ESYNTAX, 5, "log takes 1 argument, got 0"},
	    {"max(x)", SF_ESYNTAX, 1, "max takes 2 or more arguments, got 1"},
	    {"min()", SF_ESYNTAX, 1, "min takes 2 or more arguments, got 0"},
	    {"if(x, y)", SF_ESYNTAX, 1, "if takes 3 arguments, got 2"},
	    {"pow(x)", SF_ESYNTAX, 1, "pow takes 2 arguments, got 1"},
	    {"log(x,", SF_ESYNTAX, 7, "unexpected end of expression"},
	    {"log(x y)", SF_ESYNTAX, 7, "expected ',' or ')'"},
	    {"log(x", SF_ESYNTAX, 6, "missing ')' to close 'log(' at column 1"},
	    {"log(,x)", SF_ESYNTAX, 5, "unexpected ','; expected an operand"},
	    {"min(x, )", SF_ESYNTAX, 8, "unexpected ')'; expected an operand"},
	    {"()", SF_ESYNTAX, 2, "unexpected ')'; expected an operand"},
	    {"x, y", SF_ESYNTAX, 2, "unexpected ','; expected an operator"},
	    {"x ^ ", SF_ESYNTAX, 5, "unexpected end of expression"},
	    {"2 ^ * 3", SF_ESYNTAX, 5, "unexpected '*'; expected an operand"},
	    {"x ** ** y", SF_ESYNTAX, 6, "unexpected '**'"},
	    {"x ^^ y", SF_ESYNTAX, 4, "unexpected '^'"},
	    {"x !", SF_ESYNTAX, 3, "unexpected '!'; expected an operator"},
	    {"2 ^ !x", SF_ESYNTAX, 5, "unexpected '!'; expected an operand"},
	    {"!", SF_ESYNTAX, 2, "unexpected end of expression"},
	    {"-", SF_ESYNTAX, 2, "unexpected end of expression"},
	    {"1e", SF_ESYNTAX, 1,
	     "malformed number '1e': the exponent has no digits"},
	    {"1e+", SF_ESYNTAX, 1, "the exponent has no digits"},
	    {"x * 3e-", SF_ESYNTAX, 5, "the exponent has no digits"},
	    {"1.2.3", SF_ESYNTAX, 1, "malformed number '1.2.3'"},
	    {"1..2", SF_ESYNTAX, 1, "malformed number '1..2'"},
	    {".", SF_ESYNTAX, 1, "malformed number '.'"},
	    {"0x10", SF_ESYNTAX, 1, "malformed number '0x10'"},
	    {"2x", SF_ESYNTAX, 1, "write '2 * x' to multiply"},
	    {"1 + 2pi", SF_ESYNTAX, 5, "write '2 * pi' to multiply"},
	    {"1e400", SF_EVALUE, 1, "too large for a double"},
	    {"foo(1)", SF_ENAME, 1, "unknown function 'foo'"},
	    {"lgo(x)", SF_ENAME, 1,
	     "unknown function 'lgo'; did you mean 'log'?"},
	    {"Log(x)", SF_ENAME, 1, "did you mean 'log'?"},
	    {"mxa(x, y)", SF_ENAME, 1, "did you mean 'max'?"},
	    {"x(1)", SF_ENAME, 1, "'x' is an input, not a function"},
	    {"a(1)", SF_ENAME, 1, "'a' is a parameter, not a function"},
	    {"k(1)", SF_ENAME, 1, "'k' is a fixed constant, not a function"},
	    {"t1(2)", SF_ENAME, 1, "'t1' is a term, not a function"},
	    {"pi(2)", SF_ENAME, 1, "'pi' is a constant, not a function"},
	    {"log", SF_ENAME, 1, "'log' is a function; call it as log(...)"},
	    {"xx + 1", SF_ENAME, 1, "unknown name 'xx'; did you mean 'x'?"},
	    {"2 * alpah", SF_ENAME, 5,
	     "unknown name 'alpah'; did you mean 'alpha'?"},
	    {"1 + modle", SF_ENAME, 5, "did you mean 'model'?"},
	    {"velocity", SF_ENAME, 1, "unknown name 'velocity'"},
	    {"t3 + 1", SF_ENAME, 1,
	     "term 't3' is declared but has no definition"},
	    {"'x' + 1", SF_ETYPE, 1,
	     "a string can only be compared with a text input"},
	    {"x == 'cnn'", SF_ETYPE, 6, "a string can only be compared"},
	    {"'a' == 'b'", SF_ETYPE, 1, "a string can only be compared"},
	    {"log('x')", SF_ETYPE, 5, "a string can only be compared"},
	    {"-'x'", SF_ETYPE, 2, "a string can only be compared"},
	    {"'cnn'", SF_ETYPE, 1, "a string can only be compared"},
	    {"model + 1", SF_ETYPE, 1,
	     "text input 'model' can only be compared with a string"},
	    {"model == 1", SF_ETYPE, 1, "text input 'model'"},
	    {"1 < model", SF_ETYPE, 5, "text input 'model'"},
	    {"model == model", SF_ETYPE, 1, "text input 'model'"},
	    {"if(model, 1, 2)", SF_ETYPE, 4, "text input 'model'"},
	    {"model", SF_ETYPE, 1, "text input 'model'"},
	    {"!model", SF_ETYPE, 2, "text input 'model'"},
	    {deep, SF_ESYNTAX, 513, "too deeply nested"},
	    {chain, SF_ESYNTAX, 4096,
	     "a sum of more than 2048 terms in a row, the most"},
	    {minus, SF_ESYNTAX, 513, "too deeply nested"},
	};
	const ecase data_only[] = {
	    {"x + a", SF_ENAME, 5,
	     "'a' is a parameter; only inputs may be used here"},
	    {"t2 * 2", SF_ENAME, 1, "term 't2' depends on parameters"},
	};
	sf_expr_scope *s = make_scope(0, NULL);
	sf_error err;
	size_t i;

	/* 600 parentheses; a 3000-term sum; 600 minus signs */
	for (i = 0; i < 600; i++)
		deep[i] = '(';
	deep[i] = '\0';
	strcat(deep, "x");
	for (i = 0; i < 3000; i++)
		memcpy(chain + 2 * i, "x+", 2);
	chain[2 * i] = 'x';
	chain[2 * i + 1] = '\0';
	for (i = 0; i < 600; i++)
		minus[i] = '-';
	minus[i] = 'x';
	minus[i + 1] = '\0';
	CU_ASSERT_EQUAL(sf_expr_scope_add_param(s, "alpha", &err),
	                SF_EINTERNAL);
	sf_expr_scope_free(s);

	/* the same scope, alpha added in time and t3 only declared */
	{
		static const char *const models[] = {"cnn", "mlp", "rnn"};
		int rc = 0;

		s = sf_expr_scope_new();
		rc |= sf_expr_scope_add_input(s, "x", &err);
		rc |= sf_expr_scope_add_input(s, "y", &err);
		rc |= sf_expr_scope_add_input(s, "z", &err);
		rc |= sf_expr_scope_add_text_input(s, "model", models, 3, &err);
		rc |= sf_expr_scope_add_param(s, "a", &err);
		rc |= sf_expr_scope_add_param(s, "b", &err);
		rc |= sf_expr_scope_add_param(s, "alpha", &err);
		rc |= sf_expr_scope_add_fixed(s, "k", 3.0, &err);
		rc |= sf_expr_scope_declare_term(s, "t3", &err);
		rc |= sf_expr_scope_add_term(s, "t1", "x * y", &err);
		rc |= sf_expr_scope_add_term(s, "t2", "t1 + a * z", &err);
		CU_ASSERT_EQUAL_FATAL(rc, SF_OK);
	}
	CU_ASSERT(sizeof cases / sizeof cases[0] >= 40);
	for (i = 0; i < sizeof cases / sizeof cases[0]; i++)
		check_error(s, &cases[i], 0);
	for (i = 0; i < sizeof data_only / sizeof data_only[0]; i++)
		check_error(s, &data_only[i], SF_EXPR_DATA_ONLY);
	sf_expr_scope_free(s);
}

/* Errors found while building a scope. */
static void
test_scope_errors(void)
{
	static const char *const unsorted[] = {"b", "a"};
	static const char *const dup[] = {"a", "a"};
	sf_expr_scope *s = sf_expr_scope_new();
	sf_error err;

	CU_ASSERT_EQUAL(sf_expr_scope_add_input(s, "1x", &err), SF_ENAME);
	CU_ASSERT_PTR_NOT_NULL(strstr(err.message, "invalid name '1x'"));
	CU_ASSERT_EQUAL(sf_expr_scope_add_input(s, "", &err), SF_ENAME);
	CU_ASSERT_EQUAL(sf_expr_scope_add_input(s, "a-b", &err), SF_ENAME);
	CU_ASSERT_EQUAL(sf_expr_scope_add_input(s, "x", &err), SF_OK);
	CU_ASSERT_EQUAL(sf_expr_scope_add_param(s, "x", &err), SF_ENAME);
	CU_ASSERT_PTR_NOT_NULL(
	    strstr(err.message, "duplicate name 'x': already an input"));
	CU_ASSERT_EQUAL(sf_expr_scope_add_text_input(s, "m", unsorted, 2, &err),
	                SF_EVALUE);
	CU_ASSERT_PTR_NOT_NULL(strstr(err.message, "not sorted"));
	CU_ASSERT_EQUAL(sf_expr_scope_add_text_input(s, "m", dup, 2, &err),
	                SF_EVALUE);
	CU_ASSERT_EQUAL(sf_expr_scope_add_text_input(s, "m", dup, 1, &err),
	                SF_OK);
	CU_ASSERT_EQUAL(sf_expr_scope_add_param(s, "a", &err), SF_OK);
	CU_ASSERT_EQUAL(sf_expr_scope_count(s, SF_EXPR_INPUT), 2);
	CU_ASSERT_EQUAL(sf_expr_scope_count(s, SF_EXPR_PARAM), 1);

	/* terms: syntax errors, self-reference, order */
	CU_ASSERT_EQUAL(sf_expr_scope_declare_term(s, "t4", &err), SF_OK);
	CU_ASSERT_EQUAL(sf_expr_scope_declare_term(s, "t5", &err), SF_OK);
	CU_ASSERT_EQUAL(sf_expr_scope_add_term(s, "t4", "2 * t5", &err),
	                SF_ENAME);
	CU_ASSERT_EQUAL(err.column, 5);
	CU_ASSERT_STRING_EQUAL(err.message,
	                       "term 't4' uses term 't5', which is defined "
	                       "after it");
	CU_ASSERT_EQUAL(sf_expr_scope_add_term(s, "t5", "x + t5", &err),
	                SF_ENAME);
	CU_ASSERT_EQUAL(err.column, 5);
	CU_ASSERT_STRING_EQUAL(err.message, "term 't5' refers to itself");
	CU_ASSERT_EQUAL(sf_expr_scope_add_term(s, "t6", "x +", &err),
	                SF_ESYNTAX);
	CU_ASSERT_EQUAL(err.column, 4);
	CU_ASSERT_EQUAL(sf_expr_scope_add_term(s, "t7", "m", &err), SF_ETYPE);
	CU_ASSERT_EQUAL(
	    sf_expr_scope_add_term(s, "t8", "undefined_thing", &err), SF_ENAME);
	/* the failed terms stay declared and can be defined again */
	CU_ASSERT_EQUAL(sf_expr_scope_add_term(s, "t5", "x * 2", &err), SF_OK);
	CU_ASSERT_EQUAL(sf_expr_scope_add_term(s, "t4", "2 * t5", &err), SF_OK);
	CU_ASSERT_EQUAL(sf_expr_scope_add_term(s, "t4", "1", &err), SF_ENAME);
	CU_ASSERT_EQUAL(sf_expr_scope_add_term(s, "x", "1", &err), SF_ENAME);
	/* after a term, no more inputs, parameters or fixed constants */
	CU_ASSERT_EQUAL(sf_expr_scope_add_input(s, "late", &err), SF_EINTERNAL);
	CU_ASSERT_EQUAL(sf_expr_scope_add_fixed(s, "late", 1, &err),
	                SF_EINTERNAL);
	{
		const char *texts[] = {"t4 + a", "1 +"};
		int failed = -2;
		sf_program *p =
		    sf_program_compile(s, texts, 2, 0, &failed, &err);

		CU_ASSERT_PTR_NULL(p);
		CU_ASSERT_EQUAL(failed, 1);
		p = sf_program_compile(s, texts, 0, 0, &failed, &err);
		CU_ASSERT_PTR_NULL(p);
		CU_ASSERT_EQUAL(failed, -1);
	}
	sf_expr_scope_free(s);
	sf_expr_scope_free(NULL);
	sf_program_free(NULL);
	sf_expr_data_free(NULL);
}

/* ---- Scope queries, shadowing, canonical form -----------------------------
 */

/* sf_expr_mentions: names as the lexer reads them, nothing else. */
static void
test_mentions(void)
{
	static const struct {
		const char *text, *name;
		int mentioned;
	} cases[] = {
	    {"steps * (a + c * b)", "steps", 1},
	    {"steps * (a + c * b)", "b", 1},
	    {"steps * (a + c * b)", "step", 0},
	    {"steps * (a + c * b)", "tep", 0},
	    {"n / (p * b)", "p", 1},
	    {"1e5 * x", "e5", 0},
	    {"1e5 * x", "e", 0},
	    {"2.5E-3*x+e", "e", 1},
	    {"m == 'cnn' && x", "cnn", 0},
	    {"m == 'it''s x' && y", "x", 0},
	    {"m == 'it''s x' && y", "y", 1},
	    {"max(a, b)", "max", 1},
	    {"_x1+x", "x1", 0},
	    {"_x1+x", "_x1", 1},
	    {"", "x", 0},
	};

	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
		CU_ASSERT_EQUAL(sf_expr_mentions(cases[i].text, cases[i].name),
		                cases[i].mentioned);
}

/* sf_expr_sum_of: a sum of the names and a remainder, by the syntax. */
static void
test_sum_of(void)
{
	static const char *const two[] = {"compute", "comm"};
	static const char *const product[] = {"steps", "step_time"};
	static const struct {
		const char *text;
		const char *const *names;
		size_t n;
		int sum;
	} cases[] = {
	    {"compute + comm", two, 2, 1},
	    {"comm + 1 + compute", two, 2, 1},
	    {"t0 + (compute + comm)", two, 2, 1},
	    {"((compute) + comm) - 2 * a", two, 2, 1},
	    {"compute + comm + steps * x", two, 2, 1},
	    {"t0 + steps * step_time", product, 2, 0},
	    {"t0 + steps + step_time * 0", product, 2, 0},
	    {"compute - comm", two, 2, 0},
	    {"compute - (1 - comm)", two, 2, 1},
	    {"compute - (1 + comm)", two, 2, 0},
	    {"compute + comm + compute", two, 2, 0},
	    {"compute + comm + log(comm)", two, 2, 0},
	    {"max(compute, comm)", two, 2, 0},
	    {"2 * (compute + comm)", two, 2, 0},
	    {"-compute + comm", two, 2, 0},
	    {"compute", two, 1, 1},
	    {"compute + comm_x", two, 2, 0},
	    {"a * b", two, 0, 1},
	    {"compute + ", two, 2, 0},
	};

	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		int got =
		    sf_expr_sum_of(cases[i].text, cases[i].names, cases[i].n);

		if (got != cases[i].sum)
			fprintf(stderr, "sum_of '%s': %d\n", cases[i].text,
			        got);
		CU_ASSERT_EQUAL(got, cases[i].sum);
	}
}

static void
test_shadowing(void)
{
	sf_expr_scope *s = sf_expr_scope_new();
	sf_test_warnings ws = {0};
	sf_error err;
	const char *texts[] = {"e * 2 + pi"};
	sf_program *p;
	sf_expr_data *d;
	double theta[1] = {10.0}, out[1], scratch[64];
	int kind;
	size_t index;

	sf_expr_scope_set_warning_handler(s, sf_test_warn, &ws);
	CU_ASSERT_EQUAL(sf_expr_scope_add_param(s, "e", &err), SF_OK);
	CU_ASSERT_EQUAL(ws.count, 1);
	CU_ASSERT_STRING_EQUAL(ws.last.message,
	                       "parameter 'e' shadows the constant e");
	CU_ASSERT(sf_expr_scope_lookup(s, "e", &kind, &index));
	CU_ASSERT_EQUAL(kind, SF_EXPR_PARAM);
	CU_ASSERT(sf_expr_scope_lookup(s, "pi", &kind, &index));
	CU_ASSERT_EQUAL(kind, SF_EXPR_CONSTANT);
	CU_ASSERT_FALSE(sf_expr_scope_lookup(s, "nothing", &kind, &index));
	CU_ASSERT_STRING_EQUAL(sf_expr_scope_name(s, SF_EXPR_PARAM, 0), "e");
	CU_ASSERT_PTR_NULL(sf_expr_scope_name(s, SF_EXPR_PARAM, 1));
	p = sf_program_compile(s, texts, 1, 0, NULL, &err);
	CU_ASSERT_PTR_NOT_NULL_FATAL(p);
	CU_ASSERT(sf_program_scratch_size(p) <= 64);
	d = sf_expr_data_new(p, NULL, 1, &err);
	CU_ASSERT_PTR_NOT_NULL_FATAL(d);
	sf_program_eval(p, d, theta, 0, 1, out, scratch);
	CU_ASSERT_EQUAL(out[0], 10.0 * 2 + PI);
	CU_ASSERT(sf_program_uses_param(p, 0));
	CU_ASSERT_STRING_EQUAL(sf_program_param_name(p, 0), "e");
	sf_expr_data_free(d);
	sf_program_free(p);

	CU_ASSERT_EQUAL(sf_expr_scope_add_input(s, "pi", &err), SF_OK);
	CU_ASSERT_EQUAL(ws.count, 2);
	CU_ASSERT_STRING_EQUAL(ws.last.message,
	                       "input 'pi' shadows the constant pi");
	sf_expr_scope_free(s);
}

static void
test_canonical(void)
{
	static const char *const cases[][2] = {
	    {"a**2", "a^2"},
	    {"(a + b) * c", "(a + b) * c"},
	    {"a+b*c", "a + b * c"},
	    {"a - (b - c)", "a - (b - c)"},
	    {"a - (b + c)", "a - (b + c)"},
	    {"(a - b) - c", "a - b - c"},
	    {"a + (b + c)", "a + (b + c)"},
	    {"a / (b * c)", "a / (b * c)"},
	    {"(a / b) * c", "a / b * c"},
	    {"-a^2", "-a^2"},
	    {"(-a)^2", "(-a)^2"},
	    {"-(a^2)", "-a^2"},
	    {"2^(-1)", "2^-1"},
	    {"2 ** -x ** 2", "2^-x^2"},
	    {"a^b^c", "a^b^c"},
	    {"(a^b)^c", "(a^b)^c"},
	    {"a^(b*c)", "a^(b * c)"},
	    {"a^(!b)", "a^(!b)"},
	    {"a^-(b+c)", "a^(-(b + c))"},
	    {"!(a < b)", "!(a < b)"},
	    {"(a < b) == 1", "(a < b) == 1"},
	    {"a<b&&c>=d||!e", "a < b && c >= d || !e"},
	    {"a && (b || c)", "a && (b || c)"},
	    {"(a && b) && c", "a && b && c"},
	    {"a && (b && c)", "a && (b && c)"},
	    {"min(a,b,  c)", "min(a, b, c)"},
	    {"if ( a , b , c )", "if(a, b, c)"},
	    {"1e-3", "0.001"},
	    {"2.50", "2.5"},
	    {"1e21", "1e+21"},
	    {"0.1", "0.1"},
	    {"123456789012", "123456789012"},
	    {"model=='cnn'", "model == 'cnn'"},
	    {"m == 'it''s'", "m == 'it''s'"},
	    {"--a", "- -a"},
	    {"-(-a)", "- -a"},
	    {"+a", "a"},
	    {"-a * -b", "-a * -b"},
	    {"a - -b", "a - -b"},
	    {"-(a * b)", "-(a * b)"},
	    {"(-a) * b", "-a * b"},
	    {"x / (y * z)", "x / (y * z)"},
	    {"((x))", "x"},
	    {"floor(n / (p * b))", "floor(n / (p * b))"},
	    {"steps*(l*log2(p)+w*(p-1)/p)",
	     "steps * (l * log2(p) + w * (p - 1) / p)"},
	};
	sf_error err;

	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		char *c = sf_expr_canonical(NULL, cases[i][0], &err);
		char *again;

		CU_ASSERT_PTR_NOT_NULL_FATAL(c);
		if (strcmp(c, cases[i][1]) != 0) {
			fprintf(stderr, "\n'%s' -> '%s', want '%s'\n",
			        cases[i][0], c, cases[i][1]);
			CU_FAIL("canonical form");
		}
		again = sf_expr_canonical(NULL, c, &err);
		CU_ASSERT_PTR_NOT_NULL_FATAL(again);
		CU_ASSERT_STRING_EQUAL(again, c);
		free(again);
		free(c);
	}
	/* with a scope: resolved, and terms by name */
	{
		sf_expr_scope *s = make_scope(0, NULL);
		char *c = sf_expr_canonical(s, "t2**2", &err);

		CU_ASSERT_PTR_NOT_NULL_FATAL(c);
		CU_ASSERT_STRING_EQUAL(c, "t2^2");
		free(c);
		c = sf_expr_term_canonical(s, "t2", &err);
		CU_ASSERT_PTR_NOT_NULL_FATAL(c);
		CU_ASSERT_STRING_EQUAL(c, "t1 + a * z");
		free(c);
		CU_ASSERT_PTR_NULL(sf_expr_term_canonical(s, "x", &err));
		CU_ASSERT_EQUAL(err.code, SF_ENAME);
		CU_ASSERT_PTR_NULL(sf_expr_canonical(s, "t9", &err));
		CU_ASSERT_EQUAL(err.code, SF_ENAME);
		sf_expr_scope_free(s);
	}
}

/* The canonical form of every table case computes the same bits. */
static void
test_canonical_same_values(void)
{
	double *x = malloc(4 * NROWS * sizeof *x), *y = x + NROWS,
	       *z = y + NROWS, *m = z + NROWS;
	const double *cols[4];
	const double theta[2] = {0.7, 1.3};
	tcase *cases = malloc(MAX_CASES * sizeof *cases);
	const char *texts[MAX_CASES];
	char *canon[MAX_CASES];
	size_t n, nfree, bad = 0;
	sf_expr_scope *s = make_scope(0, NULL);
	sf_program *p1, *p2;
	double *o1, *o2;
	sf_error err;

	CU_ASSERT_FATAL(x && cases);
	make_rows(x, y, z, m);
	cols[0] = x, cols[1] = y, cols[2] = z, cols[3] = m;
	n = cases_at(0, 1, 2, 0, 0.7, 1.3, cases, &nfree);
	for (size_t c = 0; c < n; c++) {
		texts[c] = cases[c].text;
		canon[c] = sf_expr_canonical(s, texts[c], &err);
		CU_ASSERT_PTR_NOT_NULL_FATAL(canon[c]);
	}
	p1 = sf_program_compile(s, texts, n, 0, NULL, &err);
	p2 =
	    sf_program_compile(s, (const char *const *)canon, n, 0, NULL, &err);
	CU_ASSERT_FATAL(p1 && p2);
	o1 = malloc(n * NROWS * sizeof *o1);
	o2 = malloc(n * NROWS * sizeof *o2);
	CU_ASSERT_FATAL(o1 && o2);
	eval_rows(p1, cols, theta, o1);
	eval_rows(p2, cols, theta, o2);
	for (size_t i = 0; i < n * NROWS; i++)
		if (!same(o1[i], o2[i]) && bad++ < 5)
			fprintf(stderr, "\n'%s' vs '%s'\n", texts[i / NROWS],
			        canon[i / NROWS]);
	CU_ASSERT_EQUAL(bad, 0);
	for (size_t c = 0; c < n; c++)
		free(canon[c]);
	free(o1);
	free(o2);
	sf_program_free(p1);
	sf_program_free(p2);
	sf_expr_scope_free(s);
	free(cases);
	free(x);
}

/* ---- Derivatives ----------------------------------------------------------
 */

/* Evaluate a program at one row (x, y) and theta. */
static void
eval_point(const sf_program *p, double x, double y, const double *theta,
           double *out)
{
	double cx[1] = {x}, cy[1] = {y}, cz[1] = {0}, cm[1] = {0};
	const double *cols[4] = {cx, cy, cz, cm};
	sf_error err;
	sf_expr_data *d = sf_expr_data_new(p, cols, 1, &err);
	double *scratch =
	    malloc(sf_program_scratch_size(p) * sizeof *scratch + 8);

	CU_ASSERT_FATAL(d && scratch);
	sf_program_eval(p, d, theta, 0, 1, out, scratch);
	free(scratch);
	sf_expr_data_free(d);
}

static void
test_derivatives(void)
{
	static const char *const texts[] = {
	    "a * x + b",
	    "a * b * x",
	    "a / (b + x * x)",
	    "a^2 * x",
	    "a^3 - b^-2",
	    "y^a",
	    "a^y",
	    "a^b",
	    "pow(a * y, b)",
	    "(a + y)^(b * x)",
	    "exp(a * x)",
	    "log(a * y)",
	    "log2(a + y)",
	    "log10(a * b + y)",
	    "sqrt(a * y + b)",
	    "abs(a - x)",
	    "abs(a * x - b)",
	    "sin(a * x)",
	    "cos(b * x)",
	    "tan(a * 0.3)",
	    "atan(a * x + b)",
	    "min(a * x, b)",
	    "max(a, b * y)",
	    "min(a, b, y)",
	    "max(a * y, b * y, x)",
	    "if(x < 0, a * x, b * x)",
	    "if(a < b, a * a, b * y)",
	    "floor(a * 10) * b",
	    "ceil(b * y) + a",
	    "a * x^3",
	    "-a^2",
	    "(a - b)^2 / y",
	    "a / b",
	    "1 / (a * b)",
	    "x / a^2",
	    "exp(-a * y) * b",
	    "log(1 + exp(a * x))",
	    "sqrt(a * a + b * b)",
	    "a * (x > 0) + b",
	    "(a < b) * a + !(a < b) * b",
	    "a * b / (a + b)",
	    "a * (y - 1) / y",
	    "t2 * a",
	    "t1 * b + t2",
	    "k * a^k",
	};
	const size_t n = sizeof texts / sizeof texts[0];
	sf_expr_scope *s = make_scope(0, NULL);
	sf_program *pv, *pd;
	sf_error err;
	sf_rng r;
	size_t bad = 0;

	pd = sf_program_compile(s, texts, n, SF_EXPR_DERIVATIVES, NULL, &err);
	pv = sf_program_compile(s, texts, n, 0, NULL, &err);
	CU_ASSERT_FATAL(pd && pv);
	CU_ASSERT_EQUAL(sf_program_outputs(pd), n * 3);
	sf_rng_seed(&r, 2024u, 3u);
	for (int trial = 0; trial < 40; trial++) {
		double x = 4.0 * sf_rng_uniform(&r) - 2.0;
		double y = 0.5 + 2.5 * sf_rng_uniform(&r);
		double theta[2] = {0.5 + 1.5 * sf_rng_uniform(&r),
		                   0.5 + 1.5 * sf_rng_uniform(&r)};
		double dout[3 * 64], vout[64], plus[64], minus[64];

		eval_point(pd, x, y, theta, dout);
		eval_point(pv, x, y, theta, vout);
		for (size_t j = 0; j < 2; j++) {
			double h = 1e-6 * fmax(1.0, fabs(theta[j]));
			double tp[2] = {theta[0], theta[1]};
			double tm[2] = {theta[0], theta[1]};

			tp[j] += h;
			tm[j] -= h;
			eval_point(pv, x, y, tp, plus);
			eval_point(pv, x, y, tm, minus);
			for (size_t k = 0; k < n; k++) {
				double fd = (plus[k] - minus[k]) / (2 * h);
				double an = dout[k * 3 + 1 + j];
				double tol = 1e-5 * fmax(1.0, fabs(fd));

				CU_ASSERT(same(dout[k * 3], vout[k]));
				if (fabs(an - fd) <= tol)
					continue;
				if (bad++ < 10)
					fprintf(stderr,
					        "\nd(%s)/d%c at x=%g y=%g a=%g "
					        "b=%g: %.10g, differences "
					        "%.10g\n",
					        texts[k], "ab"[j], x, y,
					        theta[0], theta[1], an, fd);
			}
		}
	}
	CU_ASSERT_EQUAL(bad, 0);
	sf_program_free(pd);
	sf_program_free(pv);
	sf_expr_scope_free(s);
}

/* A parameter an output does not use has derivative exactly 0. */
static void
test_derivative_zero(void)
{
	sf_expr_scope *s = make_scope(0, NULL);
	const char *texts[] = {"log(x) * a", "floor(a)"};
	sf_program *p;
	sf_error err;
	double theta[2] = {1.5, 2.0}, out[6];

	p = sf_program_compile(s, texts, 2, SF_EXPR_DERIVATIVES, NULL, &err);
	CU_ASSERT_PTR_NOT_NULL_FATAL(p);
	eval_point(p, -1.0, 1.0, theta, out);
	CU_ASSERT(isnan(out[0]));
	CU_ASSERT(isnan(out[1]));     /* d/da = log(x): NaN */
	CU_ASSERT(same(out[2], 0.0)); /* d/db: no dependence */
	CU_ASSERT_EQUAL(out[3], 1.0);
	CU_ASSERT(same(out[4], 0.0)); /* floor: 0 */
	CU_ASSERT(same(out[5], 0.0));
	CU_ASSERT(sf_program_uses_param(p, 0));
	CU_ASSERT_FALSE(sf_program_uses_param(p, 1));
	CU_ASSERT(sf_program_uses_input(p, 0));
	CU_ASSERT_FALSE(sf_program_uses_input(p, 1));
	CU_ASSERT_EQUAL(sf_program_inputs(p), 4);
	CU_ASSERT_EQUAL(sf_program_params(p), 2);
	CU_ASSERT_STRING_EQUAL(sf_program_input_name(p, 3), "model");
	CU_ASSERT_PTR_NULL(sf_program_input_name(p, 4));
	sf_program_free(p);
	sf_expr_scope_free(s);
}

/* Which parameters each output reads: the values and the derivatives. */
static void
test_output_uses_param(void)
{
	sf_expr_scope *s = make_scope(0, NULL);
	const char *texts[] = {"a + x * max(b, y)", "a * x + b"};
	sf_program *p;
	sf_error err;

	p = sf_program_compile(s, texts, 2, SF_EXPR_DERIVATIVES, NULL, &err);
	CU_ASSERT_PTR_NOT_NULL_FATAL(p);
	/* outputs: v0, dv0/da, dv0/db, v1, dv1/da, dv1/db */
	CU_ASSERT(sf_program_output_uses_param(p, 0, 0));
	CU_ASSERT(sf_program_output_uses_param(p, 0, 1));
	CU_ASSERT_FALSE(sf_program_output_uses_param(p, 1, 0)); /* 1 */
	CU_ASSERT_FALSE(sf_program_output_uses_param(p, 1, 1));
	CU_ASSERT(sf_program_output_uses_param(p, 2, 1)); /* the kink */
	CU_ASSERT_FALSE(sf_program_output_uses_param(p, 2, 0));
	CU_ASSERT_FALSE(sf_program_output_uses_param(p, 4, 0)); /* x */
	CU_ASSERT_FALSE(sf_program_output_uses_param(p, 4, 1));
	CU_ASSERT_FALSE(sf_program_output_uses_param(p, 5, 1)); /* 1 */
	CU_ASSERT_FALSE(sf_program_output_uses_param(p, 6, 0)); /* range */
	CU_ASSERT_FALSE(sf_program_output_uses_param(p, 0, 2));
	sf_program_free(p);
	sf_expr_scope_free(s);
}

/* ---- The DDP model of man/scalefit-model.5's EXAMPLES (its k is e here) -- */

enum { DDP_P, DDP_B, DDP_N };
static const char *const ddp_params[] = {"t0", "a", "c", "l", "w"};

static sf_expr_scope *
ddp_scope(void)
{
	sf_expr_scope *s = sf_expr_scope_new();
	sf_error err;
	int rc = 0;

	CU_ASSERT_PTR_NOT_NULL_FATAL(s);
	rc |= sf_expr_scope_add_input(s, "p", &err);
	rc |= sf_expr_scope_add_input(s, "b", &err);
	rc |= sf_expr_scope_add_input(s, "n", &err);
	for (int j = 0; j < 5; j++)
		rc |= sf_expr_scope_add_param(s, ddp_params[j], &err);
	rc |= sf_expr_scope_add_fixed(s, "e", 1.0, &err);
	rc |= sf_expr_scope_declare_term(s, "steps", &err);
	rc |= sf_expr_scope_declare_term(s, "compute", &err);
	rc |= sf_expr_scope_declare_term(s, "comm", &err);
	rc |= sf_expr_scope_add_term(s, "steps", "floor(n / (p * b))", &err);
	rc |=
	    sf_expr_scope_add_term(s, "compute", "steps * (a + c * b^e)", &err);
	rc |= sf_expr_scope_add_term(
	    s, "comm", "steps * (l * log2(p) + w * (p - 1) / p)", &err);
	CU_ASSERT_EQUAL_FATAL(rc, SF_OK);
	return s;
}

static double
ddp_c(double p, double b, double n, const double *th)
{
	double steps = floor(n / (p * b));

	return th[0] + steps * (th[1] + th[2] * pow(b, 1.0)) +
	       steps * (th[3] * log2(p) + th[4] * (p - 1) / p);
}

static void
ddp_data(size_t rows, double *p, double *b, double *n)
{
	sf_rng r;

	sf_rng_seed(&r, 99u, 1u);
	for (size_t i = 0; i < rows; i++) {
		p[i] = (double)(1u << sf_rng_bounded(&r, 7));
		b[i] = (double)(16u << sf_rng_bounded(&r, 4));
		n[i] = 1e4 + 1e6 * sf_rng_uniform(&r);
	}
}

static void
test_ddp(void)
{
	enum { ROWS = 1000 };
	sf_expr_scope *s = ddp_scope();
	const char *texts[] = {"t0 + compute + comm"};
	const double theta[5] = {0.5, 1e-3, 1e-5, 2e-3, 3e-3};
	double *p = malloc(3 * ROWS * sizeof *p), *b = p + ROWS, *n = b + ROWS;
	const double *cols[3] = {p, b, n};
	double *out = malloc(6 * ROWS * sizeof *out);
	sf_program *pv, *pd;
	sf_program_stats st;
	sf_error err;
	sf_rng r;
	size_t bad = 0;

	CU_ASSERT_FATAL(p && out);
	ddp_data(ROWS, p, b, n);
	pv = sf_program_compile(s, texts, 1, 0, NULL, &err);
	pd = sf_program_compile(s, texts, 1, SF_EXPR_DERIVATIVES, NULL, &err);
	CU_ASSERT_FATAL(pv && pd);
	{
		sf_expr_data *d = sf_expr_data_new(pv, cols, ROWS, &err);
		double scratch[4096];

		CU_ASSERT_FATAL(d != NULL);
		CU_ASSERT_FATAL(sf_program_scratch_size(pv) <= 4096);
		sf_program_eval(pv, d, theta, 0, ROWS, out, scratch);
		for (size_t i = 0; i < ROWS; i++)
			if (ulps(out[i], ddp_c(p[i], b[i], n[i], theta)) > 4)
				bad++;
		sf_expr_data_free(d);
	}
	CU_ASSERT_EQUAL(bad, 0);

	/* hoisting: steps, log2(p) and (p - 1) / p are data-only and
	 * computed once; per row only the parameter arithmetic is left */
	sf_program_get_stats(pv, &st);
	CU_ASSERT(st.hoisted_columns >= 3);
	CU_ASSERT(st.data_instructions >= 6);
	CU_ASSERT_EQUAL(st.param_instructions, 0);
	CU_ASSERT(st.row_instructions <= 10);
	CU_ASSERT(st.registers <= 4);

	/* derivatives against differences of the value, at random theta */
	sf_rng_seed(&r, 5u, 5u);
	for (int trial = 0; trial < 5; trial++) {
		double th[5], scratch[4096], plus[ROWS], minus[ROWS];
		sf_expr_data *dd = sf_expr_data_new(pd, cols, ROWS, &err);
		sf_expr_data *dv = sf_expr_data_new(pv, cols, ROWS, &err);

		CU_ASSERT_FATAL(dd && dv);
		for (int j = 0; j < 5; j++)
			th[j] = 1e-3 * (0.5 + sf_rng_uniform(&r));
		sf_program_eval(pd, dd, th, 0, ROWS, out, scratch);
		for (int j = 0; j < 5; j++) {
			double tp[5], tm[5], h = 1e-7;

			memcpy(tp, th, sizeof tp);
			memcpy(tm, th, sizeof tm);
			tp[j] += h;
			tm[j] -= h;
			sf_program_eval(pv, dv, tp, 0, ROWS, plus, scratch);
			sf_program_eval(pv, dv, tm, 0, ROWS, minus, scratch);
			for (size_t i = 0; i < ROWS; i++) {
				double fd = (plus[i] - minus[i]) / (2 * h);
				double an = out[(1 + (size_t)j) * ROWS + i];

				if (fabs(fd - an) > 1e-5 * fmax(1, fabs(an)))
					bad++;
			}
		}
		sf_expr_data_free(dd);
		sf_expr_data_free(dv);
	}
	CU_ASSERT_EQUAL(bad, 0);
	sf_program_free(pv);
	sf_program_free(pd);
	sf_expr_scope_free(s);
	free(p);
	free(out);
}

/* The derivatives by some parameters only: each output the bits of the
 * whole gradient's, for less work per row. */
static void
test_wrt(void)
{
	enum { ROWS = 300, P = 5 };
	sf_expr_scope *s = ddp_scope();
	const char *text = "t0 + max(compute, comm) + w * sqrt(c)";
	static const int masks[][P] = {
	    {1, 0, 0, 0, 0}, {1, 1, 0, 0, 1}, {0, 0, 0, 0, 0}, {1, 1, 1, 1, 1}};
	const double theta[P] = {0.5, 1e-3, 1e-5, 2e-3, 3e-3};
	double *p = malloc(3 * ROWS * sizeof *p), *b = p + ROWS, *n = b + ROWS;
	const double *cols[3] = {p, b, n};
	double *full = malloc((1 + P) * ROWS * sizeof *full);
	double *some = malloc((1 + P) * ROWS * sizeof *some);
	double scratch[4096];
	sf_program *pd;
	sf_expr_data *dd;
	sf_program_stats all;
	sf_error err;

	CU_ASSERT_FATAL(p && full && some);
	ddp_data(ROWS, p, b, n);
	pd = sf_program_compile(s, &text, 1, SF_EXPR_DERIVATIVES, NULL, &err);
	CU_ASSERT_PTR_NOT_NULL_FATAL(pd);
	dd = sf_expr_data_new(pd, cols, ROWS, &err);
	CU_ASSERT_PTR_NOT_NULL_FATAL(dd);
	CU_ASSERT_FATAL(sf_program_scratch_size(pd) <= 4096);
	sf_program_eval(pd, dd, theta, 0, ROWS, full, scratch);
	sf_program_get_stats(pd, &all);
	for (size_t m = 0; m < sizeof masks / sizeof masks[0]; m++) {
		sf_program *pw =
		    sf_program_compile_wrt(s, text, masks[m], &err);
		sf_expr_data *dw;
		sf_program_stats st;
		size_t o = 1, wanted = 0;

		CU_ASSERT_PTR_NOT_NULL_FATAL(pw);
		for (size_t j = 0; j < P; j++)
			wanted += masks[m][j] != 0;
		CU_ASSERT_EQUAL(sf_program_outputs(pw), 1 + wanted);
		dw = sf_expr_data_new(pw, cols, ROWS, &err);
		CU_ASSERT_PTR_NOT_NULL_FATAL(dw);
		CU_ASSERT_FATAL(sf_program_scratch_size(pw) <= 4096);
		sf_program_eval(pw, dw, theta, 0, ROWS, some, scratch);
		CU_ASSERT(memcmp(some, full, ROWS * sizeof *some) == 0);
		for (size_t j = 0; j < P; j++) {
			if (!masks[m][j])
				continue;
			CU_ASSERT(memcmp(some + o * ROWS, full + (1 + j) * ROWS,
			                 ROWS * sizeof *some) == 0);
			o++;
		}
		sf_program_get_stats(pw, &st);
		CU_ASSERT(wanted == P
		              ? st.row_instructions == all.row_instructions
		              : st.row_instructions < all.row_instructions);
		sf_expr_data_free(dw);
		sf_program_free(pw);
	}
	sf_expr_data_free(dd);
	sf_program_free(pd);
	sf_expr_scope_free(s);
	free(p);
	free(full);
	free(some);
}

/* Data-only and parameter-only work never runs per row. */
static void
test_hoisting(void)
{
	sf_expr_scope *s = make_scope(0, NULL);
	const char *data_only[] = {"log2(x) + floor(y / x) * (x - 1) / x"};
	const char *param_only[] = {"a * b + exp(a)"};
	const char *mixed[] = {"a * log2(y) + b * (y - 1) / y + a * b"};
	sf_program *p;
	sf_program_stats st;
	sf_error err;

	p = sf_program_compile(s, data_only, 1, 0, NULL, &err);
	CU_ASSERT_PTR_NOT_NULL_FATAL(p);
	sf_program_get_stats(p, &st);
	CU_ASSERT_EQUAL(st.row_instructions, 1); /* the output copy */
	CU_ASSERT_EQUAL(st.hoisted_columns, 1);
	CU_ASSERT(st.data_instructions >= 6);
	CU_ASSERT_EQUAL(st.registers, 0);
	sf_program_free(p);

	p = sf_program_compile(s, param_only, 1, 0, NULL, &err);
	CU_ASSERT_PTR_NOT_NULL_FATAL(p);
	sf_program_get_stats(p, &st);
	CU_ASSERT_EQUAL(st.row_instructions, 1);
	CU_ASSERT_EQUAL(st.param_instructions, 3);
	CU_ASSERT_EQUAL(st.data_instructions, 0);
	sf_program_free(p);

	/* a*L + b*Q + a*b: a*L + b*Q in one instruction (both products
	 * fused into the sum), an addition, 1 copy; a * b in the parameter
	 * stage, L = log2(y) and Q = (y - 1) / y hoisted */
	p = sf_program_compile(s, mixed, 1, 0, NULL, &err);
	CU_ASSERT_PTR_NOT_NULL_FATAL(p);
	sf_program_get_stats(p, &st);
	CU_ASSERT_EQUAL(st.row_instructions, 3);
	CU_ASSERT_EQUAL(st.param_instructions, 1);
	CU_ASSERT_EQUAL(st.hoisted_columns, 2);
	sf_program_free(p);

	/* common sub-expressions are shared across outputs */
	{
		const char *texts[] = {"a * exp(x * y)", "b * exp(x * y)",
		                       "exp(y * x) + t1"};

		p = sf_program_compile(s, texts, 3, 0, NULL, &err);
		CU_ASSERT_PTR_NOT_NULL_FATAL(p);
		sf_program_get_stats(p, &st);
		/* E = exp(x * y) once, read by two row instructions; the
		 * third output E + t1 is data-only: hoisted whole */
		CU_ASSERT_EQUAL(st.hoisted_columns, 2);
		CU_ASSERT_EQUAL(st.data_instructions, 3);
		sf_program_free(p);
	}
	sf_expr_scope_free(s);
}

/* Columns are copied: changing them after binding changes nothing. */
static void
test_data_copied(void)
{
	sf_expr_scope *s = make_scope(0, NULL);
	const char *texts[] = {"a * x + log(y)"};
	double x[3] = {1, 2, 3}, y[3] = {1, 2, 4};
	const double *cols[4] = {x, y, NULL, NULL};
	double theta[2] = {2, 0}, out[3], scratch[1024];
	sf_error err;
	sf_program *p = sf_program_compile(s, texts, 1, 0, NULL, &err);
	sf_expr_data *d;

	CU_ASSERT_PTR_NOT_NULL_FATAL(p);
	d = sf_expr_data_new(p, cols, 3, &err);
	CU_ASSERT_PTR_NOT_NULL_FATAL(d);
	CU_ASSERT_EQUAL(sf_expr_data_rows(d), 3);
	x[0] = y[0] = 100;
	sf_program_eval(p, d, theta, 0, 3, out, scratch);
	CU_ASSERT_EQUAL(out[0], 2.0);
	CU_ASSERT_EQUAL(out[2], 6.0 + log(4.0));
	/* a sub-range */
	sf_program_eval(p, d, theta, 1, 2, out, scratch);
	CU_ASSERT_EQUAL(out[0], 4.0 + log(2.0));
	sf_program_eval(p, d, theta, 2, 2, out, scratch); /* empty */
	/* data bound to another program: NaN, not a wild read */
	{
		const char *other[] = {"z * 2"};
		sf_program *q = sf_program_compile(s, other, 1, 0, NULL, &err);

		CU_ASSERT_PTR_NOT_NULL_FATAL(q);
		sf_program_eval(q, d, theta, 0, 3, out, scratch);
		CU_ASSERT(isnan(out[0]) && isnan(out[2]));
		sf_program_free(q);
	}
	sf_expr_data_free(d);

	/* a used input without a column */
	cols[1] = NULL;
	d = sf_expr_data_new(p, cols, 3, &err);
	CU_ASSERT_PTR_NULL(d);
	CU_ASSERT_EQUAL(err.code, SF_EVALUE);
	CU_ASSERT_PTR_NOT_NULL(strstr(err.message, "'y'"));
	/* zero rows */
	cols[1] = y;
	d = sf_expr_data_new(p, cols, 0, &err);
	CU_ASSERT_PTR_NOT_NULL(d);
	sf_expr_data_free(d);
	sf_program_free(p);
	sf_expr_scope_free(s);
}

/* Text inputs with absent literals, every operator, both sides. */
static void
test_text_inputs(void)
{
	static const char *const values[] = {"b", "d", "f"};
	static const char *const literals[] = {"a", "b", "c", "d",
	                                       "e", "f", "g", "dd"};
	static const char *const ops[] = {"==", "!=", "<", "<=", ">", ">="};
	double codes[3] = {0, 1, 2};
	const double *cols[1] = {codes};
	sf_expr_scope *s = sf_expr_scope_new();
	sf_error err;

	CU_ASSERT_EQUAL_FATAL(
	    sf_expr_scope_add_text_input(s, "t", values, 3, &err), SF_OK);
	CU_ASSERT(sf_expr_scope_input_is_text(s, 0));
	for (size_t l = 0; l < 8; l++) {
		for (size_t o = 0; o < 6; o++) {
			for (int flip = 0; flip < 2; flip++) {
				char text[64];
				double out[3];

				if (flip)
					snprintf(text, sizeof text, "'%s' %s t",
					         literals[l], ops[o]);
				else
					snprintf(text, sizeof text, "t %s '%s'",
					         ops[o], literals[l]);
				CU_ASSERT_EQUAL_FATAL(
				    sf_expr_eval_columns(s, text, cols, 3, out,
				                         &err),
				    SF_OK);
				for (int i = 0; i < 3; i++) {
					int c = strcmp(values[i], literals[l]);
					int want;

					if (flip)
						c = -c;
					switch (o) {
					case 0:
						want = c == 0;
						break;
					case 1:
						want = c != 0;
						break;
					case 2:
						want = c < 0;
						break;
					case 3:
						want = c <= 0;
						break;
					case 4:
						want = c > 0;
						break;
					default:
						want = c >= 0;
						break;
					}
					if (out[i] != (double)want) {
						fprintf(stderr, "\n%s row %d\n",
						        text, i);
						CU_FAIL("text comparison");
					}
				}
			}
		}
	}
	/* a scope with parameters: data-only texts need no theta */
	{
		double out[3];

		CU_ASSERT_EQUAL(sf_expr_scope_add_param(s, "q", &err), SF_OK);
		CU_ASSERT_EQUAL(
		    sf_expr_eval_columns(s, "t == 'd'", cols, 3, out, &err),
		    SF_OK);
		CU_ASSERT_EQUAL(out[1], 1.0);
		CU_ASSERT_EQUAL(sf_expr_eval_columns(s, "t == 'd' && q", cols,
		                                     3, out, &err),
		                SF_ENAME);
		CU_ASSERT_EQUAL(err.column, 13);
	}
	/* an empty dictionary: every literal is absent */
	{
		double out[1], code[1] = {0};
		const double *c1[2] = {codes, code};

		CU_ASSERT_EQUAL(
		    sf_expr_scope_add_text_input(s, "empty", NULL, 0, &err),
		    SF_OK);
		CU_ASSERT_EQUAL(
		    sf_expr_eval_columns(s, "empty == 'x'", c1, 1, out, &err),
		    SF_OK);
		CU_ASSERT_EQUAL(out[0], 0.0);
	}
	sf_expr_scope_free(s);
}

/* Results do not depend on the range split or the thread. */
static void
test_threads(void)
{
	enum { ROWS = 20011 };
	sf_expr_scope *s = ddp_scope();
	const char *texts[] = {"t0 + compute + comm", "compute", "comm",
	                       "exp(-a * p) * sin(n) + max(c, w * b)"};
	const double theta[5] = {0.5, 1e-3, 1e-5, 2e-3, 3e-3};
	double *p = malloc(3 * ROWS * sizeof *p), *b = p + ROWS, *n = b + ROWS;
	const double *cols[3] = {p, b, n};
	sf_program *prog;
	sf_expr_data *d;
	sf_error err;
	size_t nout, chunk = 997;
	double *one, *many, *pieces;

	CU_ASSERT_FATAL(p != NULL);
	ddp_data(ROWS, p, b, n);
	prog = sf_program_compile(s, texts, 4, SF_EXPR_DERIVATIVES, NULL, &err);
	CU_ASSERT_PTR_NOT_NULL_FATAL(prog);
	d = sf_expr_data_new(prog, cols, ROWS, &err);
	CU_ASSERT_PTR_NOT_NULL_FATAL(d);
	nout = sf_program_outputs(prog);
	CU_ASSERT_EQUAL(nout, 24);
	one = malloc(nout * ROWS * sizeof *one);
	many = malloc(nout * ROWS * sizeof *many);
	pieces = malloc(nout * ROWS * sizeof *pieces);
	CU_ASSERT_FATAL(one && many && pieces);
	{
		double *scratch =
		    malloc(sf_program_scratch_size(prog) * sizeof *scratch);

		sf_program_eval(prog, d, theta, 0, ROWS, one, scratch);
		free(scratch);
	}
#ifdef _OPENMP
#pragma omp parallel num_threads(4)
#endif
	{
		double *scratch =
		    malloc(sf_program_scratch_size(prog) * sizeof *scratch);
		double *buf = malloc(nout * chunk * sizeof *buf);
		long nchunks = (long)((ROWS + chunk - 1) / chunk);

#ifdef _OPENMP
#pragma omp for schedule(dynamic, 1)
#endif
		for (long c = 0; c < nchunks; c++) {
			size_t begin = (size_t)c * chunk;
			size_t end =
			    begin + chunk < ROWS ? begin + chunk : ROWS;

			sf_program_eval(prog, d, theta, begin, end, buf,
			                scratch);
			for (size_t k = 0; k < nout; k++)
				memcpy(many + k * ROWS + begin,
				       buf + k * (end - begin),
				       (end - begin) * sizeof *buf);
		}
		free(buf);
		free(scratch);
	}
	CU_ASSERT_EQUAL(memcmp(one, many, nout * ROWS * sizeof *one), 0);
	/* odd, unaligned ranges, one row at a time near a block edge */
	{
		double *scratch =
		    malloc(sf_program_scratch_size(prog) * sizeof *scratch);
		double buf[64];
		size_t begin = 0, step = 1;

		while (begin < ROWS) {
			size_t end = begin + step > ROWS ? ROWS : begin + step;

			sf_program_eval(prog, d, theta, begin, end, pieces,
			                scratch);
			for (size_t k = 0; k < nout; k++)
				for (size_t i = begin; i < end; i++)
					if (!same(pieces[k * (end - begin) + i -
					                 begin],
					          one[k * ROWS + i]))
						CU_FAIL("range split");
			begin = end;
			step = step * 3 % 1000 + 1;
		}
		(void)buf;
		free(scratch);
	}
	free(one);
	free(many);
	free(pieces);
	sf_expr_data_free(d);
	sf_program_free(prog);
	sf_expr_scope_free(s);
	free(p);
}

/* The loss sum_i q_i (f_i - y_i)^2 in the documented order, from
 * sf_program_eval()'s output. */
static double
sumsq_reference(const double *f, const double *y, const double *q, size_t n)
{
	double s[4] = {0, 0, 0, 0};
	size_t i = 0;

	for (; i + 4 <= n; i += 4)
		for (size_t k = 0; k < 4; k++)
			s[k] += q[i + k] * (f[i + k] - y[i + k]) *
			        (f[i + k] - y[i + k]);
	for (; i < n; i++)
		s[0] += q[i] * (f[i] - y[i]) * (f[i] - y[i]);
	return (s[0] + s[1]) + (s[2] + s[3]);
}

/* sf_program_eval_sumsq() gives the bits of the loss taken over
 * sf_program_eval()'s output, whether output 0 is computed per row, a
 * hoisted column or a scalar, over any range. */
static void
test_sumsq(void)
{
	enum { ROWS = 1111 };
	sf_expr_scope *s = ddp_scope();
	const char *texts[] = {"t0 + compute + comm", "log2(p) * n", "t0 * c",
	                       "max(c, w * b) - exp(-a * p)"};
	const double theta[5] = {0.5, 1e-3, 1e-5, 2e-3, 3e-3};
	const size_t ranges[][2] = {{0, ROWS},  {0, 1}, {3, 259},
	                            {256, 512}, {5, 6}, {1000, ROWS},
	                            {7, 7}};
	double *p = malloc(6 * ROWS * sizeof *p), *b = p + ROWS, *n = b + ROWS;
	double *y = n + ROWS, *q = y + ROWS, *out = q + ROWS;
	const double *cols[3] = {p, b, n};
	sf_error err;

	CU_ASSERT_FATAL(p != NULL);
	ddp_data(ROWS, p, b, n);
	for (size_t i = 0; i < ROWS; i++) {
		y[i] = 1 + (double)(i % 17);
		q[i] = 1 / (y[i] * y[i]);
	}
	for (size_t t = 0; t < sizeof texts / sizeof *texts; t++) {
		sf_program *prog =
		    sf_program_compile(s, &texts[t], 1, 0, NULL, &err);
		sf_expr_data *d;
		double *scratch;

		CU_ASSERT_PTR_NOT_NULL_FATAL(prog);
		d = sf_expr_data_new(prog, cols, ROWS, &err);
		scratch =
		    malloc(sf_program_scratch_size(prog) * sizeof *scratch + 8);
		CU_ASSERT_FATAL(d != NULL && scratch != NULL);
		for (size_t r = 0; r < sizeof ranges / sizeof *ranges; r++) {
			size_t begin = ranges[r][0], end = ranges[r][1];
			double got, want;

			sf_program_eval(prog, d, theta, begin, end, out,
			                scratch);
			want = sumsq_reference(out, y + begin, q + begin,
			                       end - begin);
			got = sf_program_eval_sumsq(prog, d, theta, begin, end,
			                            y, q, scratch);
			if (!same(got, want))
				CU_FAIL("sumsq differs from its reference");
		}
		sf_expr_data_free(d);
		free(scratch);
		sf_program_free(prog);
	}
	free(p);
	sf_expr_scope_free(s);
}

/*
 * x^a with data x and a parameter a goes through log(x), hoisted with the
 * data: one row instruction (and the copy), one hoisted column.  Its error
 * against pow is bounded by 2 + 2 |a ln x| ulps (internal.h), measured
 * here over x from 1e-12 to 1e12 and exponents from -3 to 3; the largest
 * is printed.  Where the rewrite does not apply (x <= 0, x = 1, infinite
 * or NaN x) the result is pow's, bit for bit.
 */
static void
test_powlog(void)
{
	enum { NX = 193, NY = 25 };
	sf_expr_scope *s = make_scope(0, NULL);
	const char *text[] = {"x ^ a"};
	static const double special[] = {0.0, -0.0,     -2.0,      -0.5,
	                                 1.0, INFINITY, -INFINITY, NAN};
	double x[NX + 8], out[NX + 8], scratch[4096], theta[2] = {0, 0};
	double worst = 0, worst_x = 0, worst_y = 0;
	const double *cols[4];
	sf_program *p;
	sf_expr_data *d;
	sf_program_stats st;
	sf_error err;
	size_t bad = 0;

	p = sf_program_compile(s, text, 1, 0, NULL, &err);
	CU_ASSERT_PTR_NOT_NULL_FATAL(p);
	sf_program_get_stats(p, &st);
	CU_ASSERT_EQUAL(st.hoisted_columns, 1);
	CU_ASSERT_EQUAL(st.row_instructions, 2);
	CU_ASSERT_FATAL(sf_program_scratch_size(p) <= 4096);
	for (size_t i = 0; i < NX; i++)
		x[i] = pow(10.0, -12.0 + 24.0 * (double)i / (NX - 1)) *
		       (1 + 0.37 * (double)(i % 3));
	for (size_t i = 0; i < 8; i++)
		x[NX + i] = special[i];
	cols[0] = x, cols[1] = x, cols[2] = x, cols[3] = x;
	d = sf_expr_data_new(p, cols, NX + 8, &err);
	CU_ASSERT_PTR_NOT_NULL_FATAL(d);
	for (size_t k = 0; k < NY + 4; k++) {
		/* -3 to 3 by 0.25, then 0, 1, 2, -1 exactly */
		static const double extra[] = {0, 1, 2, -1};
		double y = k < NY ? -3.0 + 0.25 * (double)k : extra[k - NY];

		theta[0] = y;
		sf_program_eval(p, d, theta, 0, NX + 8, out, scratch);
		for (size_t i = 0; i < NX + 8; i++) {
			double want = c_pow(x[i], y), u;

			if (i >= NX || x[i] == 1.0) {
				bad += !same(out[i], want);
				continue;
			}
			u = (double)ulps(out[i], want);
			bad += u > 2 + 2 * fabs(y * log(x[i]));
			if (u > worst) {
				worst = u;
				worst_x = x[i];
				worst_y = y;
			}
		}
	}
	CU_ASSERT_EQUAL(bad, 0);
	printf("\n    x^a through log(x): at most %.0f ulps (x %g, a %g) ",
	       worst, worst_x, worst_y);
	sf_expr_data_free(d);
	sf_program_free(p);
	sf_expr_scope_free(s);
}

/*
 * exp of per-row values, when the compiler simplifies, is sf_f_vexp
 * (internal.h): within 2 ulps of libm's exp over its whole range (the
 * largest error is printed), exactly libm's outside the polynomial's range
 * (NaN, infinities, overflow, subnormal results), and the same bits in a
 * vector lane as in the scalar remainder of a block.
 */
static void
test_vexp(void)
{
	enum { NROW = 13 };
	sf_expr_scope *s = make_scope(0, NULL);
	const char *text[] = {"exp(a * x)"};
	double worst = 0, worst_x = 0, x[NROW], out[NROW], scratch[4096];
	const double theta[2] = {1.0, 0.0};
	const double *cols[4] = {x, x, x, x};
	static const double outside[] = {NAN,    INFINITY, -INFINITY,
	                                 709.5,  710.0,    800.0,
	                                 -708.5, -745.0,   -746.0};
	sf_program *p;
	sf_expr_data *d;
	sf_error err;
	sf_rng r;
	size_t bad = 0;

	sf_rng_seed(&r, 17, 3);
	for (size_t i = 0; i <= 200000; i++) {
		double v = i < 100000 ? -708.0 + 1417.0 * (double)i / 100000
		                      : -20 + 40 * sf_rng_uniform(&r);
		double u = (double)ulps(sf_f_vexp(v), exp(v));

		bad += u > 2;
		if (u > worst) {
			worst = u;
			worst_x = v;
		}
	}
	for (size_t i = 0; i < sizeof outside / sizeof outside[0]; i++)
		bad += !same(sf_f_vexp(outside[i]), exp(outside[i]));
	CU_ASSERT_EQUAL(bad, 0);
	printf("\n    exp in blocks: at most %.0f ulps from libm (x %g) ",
	       worst, worst_x);

	/* the program: the same bits at row 0 (a vector lane) and row 12
	 * (the remainder), and exp's own bits where libm is used */
	p = sf_program_compile(s, text, 1, 0, NULL, &err);
	CU_ASSERT_PTR_NOT_NULL_FATAL(p);
	for (size_t trial = 0; trial < 50; trial++) {
		double v = -30 + 60 * sf_rng_uniform(&r);

		for (size_t i = 0; i < NROW; i++)
			x[i] = i % 4 == 1 ? outside[(trial + i) % 9] : v;
		d = sf_expr_data_new(p, cols, NROW, &err);
		CU_ASSERT_PTR_NOT_NULL_FATAL(d);
		sf_program_eval(p, d, theta, 0, NROW, out, scratch);
		for (size_t i = 0; i < NROW; i++)
			bad += !same(out[i], sf_f_vexp(x[i]));
		CU_ASSERT(same(out[0], out[NROW - 1]));
		sf_expr_data_free(d);
	}
	CU_ASSERT_EQUAL(bad, 0);
	sf_program_free(p);
	sf_expr_scope_free(s);
}

/*
 * log of per-row values, when the compiler simplifies, is sf_f_vlog
 * (internal.h): within 1 ulp of libm's log over the positive normal
 * doubles (the largest error is printed), exactly libm's elsewhere, the
 * same bits in every row of a block.
 */
static void
test_vlog(void)
{
	enum { NROW = 13 };
	sf_expr_scope *s = make_scope(0, NULL);
	const char *text[] = {"log(a * x)"};
	double worst = 0, worst_x = 0, x[NROW], out[NROW], scratch[4096];
	const double theta[2] = {1.0, 0.0};
	const double *cols[4] = {x, x, x, x};
	static const double outside[] = {0.0,       -0.0,      -1.0,
	                                 0x1p-1074, 0x1p-1030, INFINITY,
	                                 -INFINITY, NAN,       1.0};
	sf_program *p;
	sf_expr_data *d;
	sf_error err;
	sf_rng r;
	size_t bad = 0;

	sf_rng_seed(&r, 19, 3);
	for (size_t i = 0; i <= 300000; i++) {
		/* log-uniform over the normal range, then near 1 */
		double v = i < 200000
		               ? exp2(-1022.0 + 2046.0 * sf_rng_uniform(&r))
		               : 0.5 + 1.5 * sf_rng_uniform(&r);
		double u = (double)ulps(sf_f_vlog(v), log(v));

		bad += u > 1;
		if (u > worst) {
			worst = u;
			worst_x = v;
		}
	}
	for (size_t i = 0; i < sizeof outside / sizeof outside[0]; i++)
		bad += !same(sf_f_vlog(outside[i]), log(outside[i]));
	CU_ASSERT_EQUAL(bad, 0);
	printf("\n    log in blocks: at most %.0f ulps from libm (x %g) ",
	       worst, worst_x);

	p = sf_program_compile(s, text, 1, 0, NULL, &err);
	CU_ASSERT_PTR_NOT_NULL_FATAL(p);
	for (size_t trial = 0; trial < 50; trial++) {
		double v = exp(-30 + 60 * sf_rng_uniform(&r));

		for (size_t i = 0; i < NROW; i++)
			x[i] = i % 4 == 1 ? outside[(trial + i) % 9] : v;
		d = sf_expr_data_new(p, cols, NROW, &err);
		CU_ASSERT_PTR_NOT_NULL_FATAL(d);
		sf_program_eval(p, d, theta, 0, NROW, out, scratch);
		for (size_t i = 0; i < NROW; i++)
			bad += !same(out[i], sf_f_vlog(x[i]));
		CU_ASSERT(same(out[0], out[NROW - 1]));
		sf_expr_data_free(d);
	}
	CU_ASSERT_EQUAL(bad, 0);
	sf_program_free(p);
	sf_expr_scope_free(s);
}

/* Rows past a range's end are not computed beyond the vector width:
 * evaluating 3 rows leaves all but 8 rows of every register's block as
 * they were (the whole block was computed before issue 17). */
static void
test_rows_past_end(void)
{
	sf_expr_scope *s = make_scope(0, NULL);
	const char *text[] = {"exp(a * x) + log(y * b)"};
	const double theta[2] = {0.5, 2.0};
	double x[3] = {1, 2, 3}, out[3], *scratch;
	const double *cols[4] = {x, x, x, x};
	const double sentinel = -12345.25;
	sf_program *p;
	sf_expr_data *d;
	sf_program_stats st;
	sf_error err;
	size_t n, untouched = 0;

	p = sf_program_compile(s, text, 1, 0, NULL, &err);
	CU_ASSERT_PTR_NOT_NULL_FATAL(p);
	d = sf_expr_data_new(p, cols, 3, &err);
	CU_ASSERT_PTR_NOT_NULL_FATAL(d);
	sf_program_get_stats(p, &st);
	CU_ASSERT(st.registers >= 1);
	n = sf_program_scratch_size(p);
	scratch = malloc(n * sizeof *scratch);
	CU_ASSERT_PTR_NOT_NULL_FATAL(scratch);
	for (size_t i = 0; i < n; i++)
		scratch[i] = sentinel;
	sf_program_eval(p, d, theta, 0, 3, out, scratch);
	for (size_t i = 0; i < n; i++)
		untouched += scratch[i] == sentinel;
	/* every register block: 8 rows written, the other rows untouched */
	CU_ASSERT(untouched >= st.registers * (SF_EXPR_BLOCK - 8));
	CU_ASSERT(ulps(out[1], exp(0.5 * 2) + log(2 * 2.0)) <= 4);
	free(scratch);
	sf_expr_data_free(d);
	sf_program_free(p);
	sf_expr_scope_free(s);
}

/*
 * Parts of a formula that read inputs of few distinct values are computed
 * once per level (level.c): the same bits as row by row, for every output
 * (derivatives too) and the sum of squares, with -0 and 0 as different
 * levels and NaN and infinite inputs among them; ranges too short to repay
 * the tables, and inputs with more levels than half the rows, run the
 * program's own row stage.
 */
static void
test_levels(void)
{
	enum { ROWS = 600 };
	sf_expr_scope *s = ddp_scope();
	/* the whole formula over (p, b, n); tables of b and of p; n with
	 * many levels */
	const char *texts[] = {
	    "t0 + compute * b^(a / 4) + comm",
	    "c * b^a + exp(-b / (1 + w * w)) * n + l * log(1 + t0 * p)",
	    "1 / b * exp(a * p) + sin(w * n)"};
	const double theta[5] = {0.5, 0.75, 1e-5, 2e-3, 3e-3};
	const size_t ranges[][2] = {{0, 1}, {3, 259}, {256, 512}, {599, 600}};
	double *p = malloc(5 * ROWS * sizeof *p), *b = p + ROWS, *n = b + ROWS;
	double *y = n + ROWS, *q = y + ROWS, *got, *want;
	const double *cols[3] = {p, b, n};
	sf_error err;

	CU_ASSERT_FATAL(p != NULL);
	ddp_data(ROWS, p, b, n);
	for (size_t i = 0; i < ROWS; i++) {
		n[i] = 1e4 * (double)(1 + i % 3);
		y[i] = 1 + (double)(i % 17);
		q[i] = 1 / (y[i] * y[i]);
	}
	b[5] = -0.0, b[6] = 0.0, b[7] = NAN, b[8] = INFINITY, b[9] = -0.0;
	for (size_t t = 0; t < 2 * (sizeof texts / sizeof *texts); t++) {
		sf_program *prog = sf_program_compile(
		    s, &texts[t / 2], 1, t % 2 ? SF_EXPR_DERIVATIVES : 0, NULL,
		    &err);
		size_t nout, cells, bad = 0, rows_levelled;
		sf_expr_data *d;
		double *scratch, sa, sb;

		CU_ASSERT_PTR_NOT_NULL_FATAL(prog);
		if (t / 2 == 2) /* n: every row its own level */
			for (size_t i = 0; i < ROWS; i++)
				n[i] = 1e4 + (double)i;
		d = sf_expr_data_new(prog, cols, ROWS, &err);
		nout = sf_program_outputs(prog);
		cells = nout * ROWS;
		scratch =
		    malloc(sf_program_scratch_size(prog) * sizeof *scratch + 8);
		got = malloc(2 * cells * sizeof *got);
		CU_ASSERT_FATAL(d != NULL && scratch != NULL && got != NULL);
		want = got + cells;
		/* what is levelled: (p, b, n) for the whole formula; b and
		 * p for the second; p only (b's table is 1 / b * ..., of p
		 * and b) for the third */
		CU_ASSERT(d->nlevels > 0 && d->gather_code != NULL);
		CU_ASSERT(d->ngather_code < prog->nrow_code);
		for (size_t l = 0; l < d->nlevels; l++)
			CU_ASSERT(d->levels[l].nlevels <= ROWS / 2);
		sf_program_eval(prog, d, theta, 0, ROWS, got, scratch);
		sa = sf_program_eval_sumsq(prog, d, theta, 0, ROWS, y, q,
		                           scratch);
		/* the program's own row stage: a range shorter than twice
		 * the levels */
		rows_levelled = d->level_rows;
		d->level_rows = ROWS;
		sf_program_eval(prog, d, theta, 0, ROWS, want, scratch);
		sb = sf_program_eval_sumsq(prog, d, theta, 0, ROWS, y, q,
		                           scratch);
		d->level_rows = rows_levelled;
		for (size_t i = 0; i < cells; i++)
			bad += !same(got[i], want[i]);
		CU_ASSERT_EQUAL(bad, 0);
		if (nout == 1) /* the loss reads output 0 only */
			CU_ASSERT(same(sa, sb));
		/* 1 / b: -0 and 0 are different levels */
		if (t / 2 == 2) {
			CU_ASSERT(got[5] == -INFINITY && got[6] == INFINITY);
			CU_ASSERT(got[9] == -INFINITY && isnan(got[7]));
		}
		/* ranges short and long, each evaluated alone (mode 0), then
		 * run from theta loaded once with the tables for all the rows
		 * (mode 1): the same bits */
		for (int mode = 0; mode < 2; mode++) {
			if (mode == 1)
				sf_program_load(prog, d, theta, ROWS, scratch);
			for (size_t r = 0; r < sizeof ranges / sizeof *ranges;
			     r++) {
				size_t begin = ranges[r][0],
				       len = ranges[r][1] - begin;

				if (mode == 0)
					sf_program_eval(prog, d, theta, begin,
					                begin + len, got,
					                scratch);
				else
					sf_program_run(prog, d, begin,
					               begin + len, got,
					               scratch);
				for (size_t k = 0; k < nout; k++)
					for (size_t i = 0; i < len; i++)
						bad += !same(
						    got[k * len + i],
						    want[k * ROWS + begin + i]);
			}
			CU_ASSERT_EQUAL(bad, 0);
		}
		sf_expr_data_free(d);
		free(scratch);
		free(got);
		sf_program_free(prog);
	}
	free(p);
	sf_expr_scope_free(s);
}

int
main(void)
{
	CU_TestInfo expr_tests[] = {
	    {"table, simplified", test_table_simplified},
	    {"table, as written (bit-exact)", test_table_unsimplified},
	    {"table, one by one", test_table_one_by_one},
	    {"folding is exact", test_folding_exact},
	    {"errors", test_errors},
	    {"scope errors", test_scope_errors},
	    {"shadowing", test_shadowing},
	    {"names a text mentions", test_mentions},
	    {"sums of named terms", test_sum_of},
	    {"canonical form", test_canonical},
	    {"canonical form computes the same", test_canonical_same_values},
	    {"derivatives", test_derivatives},
	    {"derivative zero", test_derivative_zero},
	    {"which parameters each output reads", test_output_uses_param},
	    {"DDP model", test_ddp},
	    {"derivatives by some parameters: the same bits, less work",
	     test_wrt},
	    {"hoisting", test_hoisting},
	    {"data are copied", test_data_copied},
	    {"text inputs", test_text_inputs},
	    {"threads and ranges", test_threads},
	    {"least-squares loss", test_sumsq},
	    {"powers through a hoisted log", test_powlog},
	    {"rows past the end: at most 7 computed", test_rows_past_end},
	    {"exp in blocks", test_vexp},
	    {"log in blocks", test_vlog},
	    {"parts of few-valued inputs once per level", test_levels},
	    CU_TEST_INFO_NULL,
	};
	CU_SuiteInfo suites[] = {
	    {"expr", NULL, NULL, NULL, NULL, expr_tests},
	    CU_SUITE_INFO_NULL,
	};

	return sf_test_main(suites);
}
