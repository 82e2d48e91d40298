/*
 * fuzz_expr.c - fuzz target for the expression engine: lexer, parser,
 * resolution, compiler (folding, regrouping, derivatives, staging) and
 * evaluator, in a small fixed scope.
 *
 * With libFuzzer (tests/fuzz/libfuzzer.sh does this):
 *   clang -g -O1 -fsanitize=fuzzer,address,undefined \
 *       -Isrc src/error.c src/suggest.c src/number.c src/expr_*.c \
 *       tests/fuzz/fuzz_expr.c -lm -o fuzz_expr
 *   ./fuzz_expr -dict=tests/fuzz/expr.dict tests/fuzz/corpus_expr
 * Without it (any C compiler, for CI smoke runs), tests/fuzz/standalone.c
 * gives it a main() that runs the target once on every file named on the
 * command line or found in the directories named there; make check
 * builds it and tests/fuzz/smoke.sh runs it:
 *   tests/fuzz/fuzz_expr tests/fuzz/corpus_expr
 *
 * The first input byte picks the compile flags; the rest is up to four
 * expressions separated by ';' (a byte the language never uses).  Beyond
 * "no crash, no hang, no leak", the target checks what callers rely on:
 * - a failure leaves no program, an error code, a message, a column
 *   within the text (or 0) and the index of the failing text;
 * - the canonical form of a text that compiles reads back, is a fixed
 *   point of canonicalisation and computes the same bits;
 * - every row's results are the same bits whether rows are evaluated
 *   together or one at a time;
 * - the values of a program with derivatives are those without.
 * A broken invariant aborts, which the fuzzer reports.
 */
#define _POSIX_C_SOURCE 200809L

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "expr/expr.h"

#define MAX_TEXTS 4
/* The awkward values of each column, then ROWS rows that repeat them:
 * row i has the values of BASE row (5 i) mod BASE, so that parts of a
 * formula over few inputs are computed once per level (expr/level.c) when
 * all rows are evaluated together and row by row when one is. */
#define BASE 9
#define ROWS (4 * BASE)

static const double base_p[BASE] = {1, 2, 8, 0, -1, NAN, INFINITY, 1e300, 3};
static const double base_b[BASE] = {32, 16,        0.5, 0,  1e-300,
                                    2,  -INFINITY, 64,  NAN};
static const double base_n[BASE] = {1e6, 5e4, 1, -0.0, 7, 1e308, 3, 0, 2};
static const double base_m[BASE] = {0, 1, 2, 0, 1, 2, -1, NAN, 0};
static double col_p[ROWS], col_b[ROWS], col_n[ROWS], col_m[ROWS];
static const double theta[4] = {1e-3, 2.5, -0.5, 7};

static sf_expr_scope *
fuzz_scope(void)
{
	static const char *const models[] = {"cnn", "mlp", "rnn"};
	sf_expr_scope *s = sf_expr_scope_new();
	int rc = 0;

	if (s == NULL)
		return NULL;
	for (size_t i = 0; i < ROWS; i++) {
		col_p[i] = base_p[5 * i % BASE];
		col_b[i] = base_b[5 * i % BASE];
		col_n[i] = base_n[5 * i % BASE];
		col_m[i] = base_m[5 * i % BASE];
	}
	rc |= sf_expr_scope_add_input(s, "p", NULL);
	rc |= sf_expr_scope_add_input(s, "b", NULL);
	rc |= sf_expr_scope_add_input(s, "n", NULL);
	rc |= sf_expr_scope_add_text_input(s, "model", models, 3, NULL);
	rc |= sf_expr_scope_add_param(s, "a", NULL);
	rc |= sf_expr_scope_add_param(s, "c", NULL);
	rc |= sf_expr_scope_add_param(s, "e", NULL); /* shadows e */
	rc |= sf_expr_scope_add_param(s, "w", NULL);
	rc |= sf_expr_scope_add_fixed(s, "k", 2.0, NULL);
	rc |= sf_expr_scope_declare_term(s, "steps", NULL);
	rc |= sf_expr_scope_declare_term(s, "comp", NULL);
	rc |= sf_expr_scope_declare_term(s, "later", NULL);
	rc |= sf_expr_scope_add_term(s, "steps", "floor(n / (p * b))", NULL);
	rc |= sf_expr_scope_add_term(s, "comp", "steps * (a + c * b^e)", NULL);
	FUZZ_CHECK(rc == SF_OK);
	return s;
}

/* Same bits, any NaN matching any NaN. */
static int
same(double x, double y)
{
	if (isnan(x) || isnan(y))
		return isnan(x) && isnan(y);
	return memcmp(&x, &y, sizeof x) == 0;
}

/* Evaluate p over all rows at once into out (nout * ROWS), and check
 * that row-by-row evaluation gives the same bits. */
static void
fuzz_eval(const sf_program *p, double *out)
{
	const double *cols[4] = {col_p, col_b, col_n, col_m};
	size_t nout = sf_program_outputs(p);
	sf_error err;
	sf_expr_data *d = sf_expr_data_new(p, cols, ROWS, &err);
	double *scratch, *one;

	if (d == NULL) {
		FUZZ_CHECK(err.code == SF_ENOMEM);
		return;
	}
	scratch = malloc((sf_program_scratch_size(p) + 1) * sizeof *scratch);
	one = malloc(nout * sizeof *one);
	if (scratch != NULL && one != NULL) {
		sf_program_eval(p, d, theta, 0, ROWS, out, scratch);
		for (size_t i = 0; i < ROWS; i++) {
			sf_program_eval(p, d, theta, i, i + 1, one, scratch);
			for (size_t k = 0; k < nout; k++)
				FUZZ_CHECK(memcmp(&one[k], &out[k * ROWS + i],
				                  sizeof one[k]) == 0);
		}
	}
	free(one);
	free(scratch);
	sf_expr_data_free(d);
}

/* The checks on one text that compiled: its canonical form. */
static void
fuzz_canonical(const sf_expr_scope *s, const char *text, unsigned flags,
               const double *values)
{
	sf_error err;
	char *c1 = sf_expr_canonical(s, text, &err), *c2;
	const char *texts[1];
	sf_program *p;
	double out[ROWS];

	if (c1 == NULL) {
		FUZZ_CHECK(err.code == SF_ENOMEM);
		return;
	}
	c2 = sf_expr_canonical(s, c1, &err);
	if (c2 != NULL)
		FUZZ_CHECK(strcmp(c1, c2) == 0);
	else
		FUZZ_CHECK(err.code == SF_ENOMEM);
	texts[0] = c1;
	p = sf_program_compile(s, texts, 1, flags & ~SF_EXPR_DERIVATIVES, NULL,
	                       &err);
	if (p != NULL) {
		fuzz_eval(p, out);
		for (size_t i = 0; i < ROWS; i++)
			FUZZ_CHECK(same(out[i], values[i]));
		sf_program_free(p);
	} else {
		FUZZ_CHECK(err.code == SF_ENOMEM);
	}
	free(c2);
	free(c1);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	sf_expr_scope *s;
	char *buf, *texts[MAX_TEXTS];
	size_t n = 0;
	unsigned flags;
	sf_program *p, *pv;
	sf_error err;
	int failed = -2;

	if (size < 1)
		return 0;
	flags = data[0] &
	        (SF_EXPR_DERIVATIVES | SF_EXPR_NO_SIMPLIFY | SF_EXPR_DATA_ONLY);
	buf = malloc(size);
	if (buf == NULL)
		return 0;
	memcpy(buf, data + 1, size - 1);
	buf[size - 1] = '\0';
	/* a NUL ends the text, as it would in a C string */
	texts[n++] = buf;
	for (char *c = buf; *c != '\0'; c++) {
		if (*c == ';' && n < MAX_TEXTS) {
			*c = '\0';
			texts[n++] = c + 1;
		}
	}
	s = fuzz_scope();
	if (s == NULL) {
		free(buf);
		return 0;
	}
	sf_error_clear(&err);
	p = sf_program_compile(s, (const char *const *)texts, n, flags, &failed,
	                       &err);
	if (p == NULL) {
		FUZZ_CHECK(err.code != SF_OK);
		FUZZ_CHECK(err.message[0] != '\0');
		FUZZ_CHECK(failed >= -1 && failed < (int)n);
		if (failed >= 0)
			FUZZ_CHECK(err.column >= 0 &&
			           (size_t)err.column <=
			               strlen(texts[failed]) + 1);
		else
			FUZZ_CHECK(err.code == SF_ENOMEM);
	} else {
		size_t nout = sf_program_outputs(p);
		size_t P = sf_program_params(p);
		double *out = malloc(nout * ROWS * sizeof *out);

		FUZZ_CHECK(nout ==
		           ((flags & SF_EXPR_DERIVATIVES) ? n * (1 + P) : n));
		FUZZ_CHECK(sf_program_inputs(p) == 4 && P == 4);
		if (out != NULL) {
			fuzz_eval(p, out);
			pv = sf_program_compile(s, (const char *const *)texts,
			                        n, flags & ~SF_EXPR_DERIVATIVES,
			                        NULL, &err);
			if (pv != NULL) {
				double *v = malloc(n * ROWS * sizeof *v);
				size_t stride = nout / n;

				if (v != NULL) {
					fuzz_eval(pv, v);
					for (size_t k = 0; k < n; k++)
						for (size_t i = 0; i < ROWS;
						     i++)
							FUZZ_CHECK(same(
							    out[k * stride *
							            ROWS +
							        i],
							    v[k * ROWS + i]));
					for (size_t k = 0; k < n; k++)
						fuzz_canonical(s, texts[k],
						               flags,
						               v + k * ROWS);
				}
				free(v);
				sf_program_free(pv);
			}
		}
		free(out);
		sf_program_free(p);
	}
	sf_expr_scope_free(s);
	free(buf);
	return 0;
}
