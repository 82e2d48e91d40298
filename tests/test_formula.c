/*
 * test_formula.c - a model's formula compiled against its dataset
 * (input/formula.[ch]), on tests/data/formula/runs.csv:
 *
 *   kind p n  t          model (the file tests/data/formula/model.yaml):
 *   cpu  1 8  10          parameters a [0, 10], s = 2, b [-1, 3], c = 0.5,
 *   gpu  2 8  6           d [1, 4]; terms compute = b n / p, comm =
 *   cpu  4 16 9           d log2(p), both = compute + comm;
 *   gpu  8 32 5           time = a + s both + c if(k == 'gpu', 1, 0)
 *
 * theta holds the fitted a, b, d (model parameters 0, 2, 4).  At theta =
 * (1, 1/2, 2): compute = 4, 2, 2, 2; comm = 0, 2, 4, 6; both = 4, 4, 6, 8;
 * time = 9, 9.5, 13, 17.5; d time / da = 1, d time / db = s n / p = 16, 8,
 * 8, 8, d time / dd = s log2(p) = 0, 2, 4, 6.
 */
#include "expr/expr.h"
#include "input/csv.h"
#include "input/dataset.h"
#include "input/formula.h"
#include "input/model.h"
#include "testing.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The model above with the given term and time texts:
 *
 *    1  name: f
 *    2  data: {file: runs.csv, output: t}
 *    3  inputs:
 *    4    p: p
 *    5    n: n
 *    6    k: kind
 *    7  parameters:
 *    8    a: {min: 0, max: 10}
 *    9    s: 2
 *   10    b: {min: -1, max: 3}
 *   11    c: {value: 0.5}
 *   12    d: {min: 1, max: 4}
 *   13  terms:
 *   14    compute: COMPUTE        (at column 12)
 *   15    comm: COMM              (at column 9)
 *   16    both: BOTH              (at column 9)
 *   17  time: TIME                (at column 7)
 */
static void
model_text(char *buf, size_t size, const char *compute, const char *comm,
           const char *both, const char *time)
{
	snprintf(buf, size,
	         "name: f\n"
	         "data: {file: runs.csv, output: t}\n"
	         "inputs:\n"
	         "  p: p\n"
	         "  n: n\n"
	         "  k: kind\n"
	         "parameters:\n"
	         "  a: {min: 0, max: 10}\n"
	         "  s: 2\n"
	         "  b: {min: -1, max: 3}\n"
	         "  c: {value: 0.5}\n"
	         "  d: {min: 1, max: 4}\n"
	         "terms:\n"
	         "  compute: %s\n"
	         "  comm: %s\n"
	         "  both: %s\n"
	         "time: %s\n",
	         compute, comm, both, time);
}

/* A model, its table and dataset, ready for sf_formula_compile(). */
typedef struct bound {
	sf_model_set *set;
	const sf_model *m;
	sf_table *table;
	sf_dataset *data;
	char path[4096]; /* of the model */
} bound;

static int
bound_open(bound *b, const char *yaml)
{
	sf_error err;

	memset(b, 0, sizeof *b);
	snprintf(b->path, sizeof b->path, "%s",
	         sf_test_data("formula/model.yaml"));
	if (sf_model_parse(b->path, yaml, strlen(yaml), &b->set, NULL, NULL,
	                   &err) != SF_OK ||
	    sf_table_load(b->set->models[0]->data_file, NULL, &b->table,
	                  &err) != SF_OK ||
	    sf_dataset_bind(b->set->models[0], b->table, 0, &b->data, NULL,
	                    NULL, &err) != SF_OK) {
		fprintf(stderr, "%s:%d:%d: %s\n", err.file, err.line,
		        err.column, err.message);
		return -1;
	}
	b->m = b->set->models[0];
	return 0;
}

static void
bound_close(bound *b)
{
	sf_dataset_free(b->data);
	sf_table_free(b->table);
	sf_model_set_free(b->set);
}

/* Compile, collecting warnings into ws; the status. */
static int
compile(const bound *b, sf_formula **f, sf_test_warnings *ws, sf_error *err)
{
	memset(ws, 0, sizeof *ws);
	sf_error_clear(err);
	return sf_formula_compile(b->m, b->data, f, sf_test_warn, ws, err);
}

/* Every output of program p over the dataset's rows at theta, into out
 * (outputs x rows, output-major). */
static void
eval_all(const sf_program *p, const sf_dataset *d, const double *theta,
         double *out)
{
	const double *columns[8];
	double *scratch =
	    malloc((sf_program_scratch_size(p) + 1) * sizeof *scratch);
	sf_expr_data *data;
	sf_error err;

	CU_ASSERT_FATAL(d->ninputs <= 8 && scratch != NULL);
	for (size_t i = 0; i < d->ninputs; i++)
		columns[i] = d->inputs[i].values;
	data = sf_expr_data_new(p, columns, d->rows, &err);
	CU_ASSERT_PTR_NOT_NULL_FATAL(data);
	sf_program_eval(p, data, theta, 0, d->rows, out, scratch);
	sf_expr_data_free(data);
	free(scratch);
}

/* ---- the scope, the parameter order, the programs ------------------------ */

static void
test_bind(void)
{
	char yaml[2048];
	bound b;
	sf_formula *f;
	sf_test_warnings ws;
	sf_error err;
	int kind;
	size_t index;

	model_text(yaml, sizeof yaml, "(b * n) / p", "d*log2(p)",
	           "compute+comm", "a + s * both + c * if(k == 'gpu', 1, 0)");
	CU_ASSERT_FATAL(bound_open(&b, yaml) == 0);
	CU_ASSERT_EQUAL_FATAL(compile(&b, &f, &ws, &err), SF_OK);
	CU_ASSERT_EQUAL(ws.count, 0);

	/* theta: the fitted parameters in the model's order */
	CU_ASSERT_EQUAL_FATAL(f->nparams, 3);
	CU_ASSERT_EQUAL(f->fitted[0], 0); /* a */
	CU_ASSERT_EQUAL(f->fitted[1], 2); /* b */
	CU_ASSERT_EQUAL(f->fitted[2], 4); /* d */
	CU_ASSERT_EQUAL(f->lower[0], 0);
	CU_ASSERT_EQUAL(f->upper[0], 10);
	CU_ASSERT_EQUAL(f->lower[1], -1);
	CU_ASSERT_EQUAL(f->upper[1], 3);
	CU_ASSERT_EQUAL(f->lower[2], 1);
	CU_ASSERT_EQUAL(f->upper[2], 4);
	CU_ASSERT_EQUAL(f->nterms, 3);

	/* the scope: inputs in the dataset's order, then parameters, fixed
	 * constants and terms */
	CU_ASSERT_EQUAL(sf_expr_scope_count(f->scope, SF_EXPR_INPUT), 3);
	CU_ASSERT_EQUAL(sf_expr_scope_count(f->scope, SF_EXPR_PARAM), 3);
	CU_ASSERT_EQUAL(sf_expr_scope_count(f->scope, SF_EXPR_FIXED), 2);
	CU_ASSERT_EQUAL(sf_expr_scope_count(f->scope, SF_EXPR_TERM), 3);
	CU_ASSERT(sf_expr_scope_lookup(f->scope, "k", &kind, &index));
	CU_ASSERT(kind == SF_EXPR_INPUT && index == 2);
	CU_ASSERT(sf_expr_scope_input_is_text(f->scope, 2));
	CU_ASSERT(!sf_expr_scope_input_is_text(f->scope, 0));
	CU_ASSERT(sf_expr_scope_lookup(f->scope, "d", &kind, &index));
	CU_ASSERT(kind == SF_EXPR_PARAM && index == 2);
	CU_ASSERT(sf_expr_scope_lookup(f->scope, "c", &kind, &index));
	CU_ASSERT(kind == SF_EXPR_FIXED && index == 1);
	CU_ASSERT(sf_expr_scope_lookup(f->scope, "both", &kind, &index));
	CU_ASSERT(kind == SF_EXPR_TERM && index == 2);
	CU_ASSERT(!sf_expr_scope_lookup(f->scope, "t", &kind, &index));

	/* the three programs */
	CU_ASSERT_EQUAL(sf_program_outputs(f->value), 1);
	CU_ASSERT_EQUAL(sf_program_outputs(f->gradient), 1 + 3);
	CU_ASSERT_EQUAL(sf_program_outputs(f->terms), 1 + 3);
	CU_ASSERT_EQUAL(sf_program_inputs(f->value), 3);
	CU_ASSERT_EQUAL(sf_program_params(f->value), 3);
	CU_ASSERT_STRING_EQUAL(sf_program_input_name(f->value, 0), "p");
	CU_ASSERT_STRING_EQUAL(sf_program_input_name(f->value, 2), "k");
	CU_ASSERT_STRING_EQUAL(sf_program_param_name(f->value, 1), "b");
	CU_ASSERT_STRING_EQUAL(sf_program_param_name(f->gradient, 2), "d");
	sf_formula_free(f);
	sf_formula_free(NULL);
	bound_close(&b);
}

static void
test_evaluate(void)
{
	static const double theta[3] = {1, 0.5, 2};
	static const double time[4] = {9, 9.5, 13, 17.5};
	static const double compute[4] = {4, 2, 2, 2}, comm[4] = {0, 2, 4, 6};
	static const double both[4] = {4, 4, 6, 8};
	static const double dtdb[4] = {16, 8, 8, 8};
	char yaml[2048];
	double out[4 * 4];
	bound b;
	sf_formula *f;
	sf_test_warnings ws;
	sf_error err;

	model_text(yaml, sizeof yaml, "(b * n) / p", "d*log2(p)",
	           "compute+comm", "a + s * both + c * if(k == 'gpu', 1, 0)");
	CU_ASSERT_FATAL(bound_open(&b, yaml) == 0);
	CU_ASSERT_EQUAL_FATAL(compile(&b, &f, &ws, &err), SF_OK);
	CU_ASSERT_EQUAL_FATAL(b.data->rows, 4);

	eval_all(f->value, b.data, theta, out);
	for (size_t i = 0; i < 4; i++)
		CU_ASSERT_EQUAL(out[i], time[i]);

	eval_all(f->gradient, b.data, theta, out);
	for (size_t i = 0; i < 4; i++) {
		CU_ASSERT_EQUAL(out[i], time[i]);
		CU_ASSERT_EQUAL(out[4 + i], 1);
		CU_ASSERT_EQUAL(out[8 + i], dtdb[i]);
		CU_ASSERT_EQUAL(out[12 + i], comm[i]); /* s log2(p) = comm */
	}

	eval_all(f->terms, b.data, theta, out);
	for (size_t i = 0; i < 4; i++) {
		CU_ASSERT_EQUAL(out[i], time[i]);
		CU_ASSERT_EQUAL(out[4 + i], compute[i]);
		CU_ASSERT_EQUAL(out[8 + i], comm[i]);
		CU_ASSERT_EQUAL(out[12 + i], both[i]);
	}
	sf_formula_free(f);
	bound_close(&b);
}

static void
test_canonical(void)
{
	char yaml[2048], *text;
	bound b;
	sf_formula *f;
	sf_test_warnings ws;
	sf_error err;

	model_text(yaml, sizeof yaml, "(b * n) / p", "d*log2(p)",
	           "compute+comm", "a+s*both + (c * if(k=='gpu', 1, 0))");
	CU_ASSERT_FATAL(bound_open(&b, yaml) == 0);
	CU_ASSERT_EQUAL_FATAL(compile(&b, &f, &ws, &err), SF_OK);
	text = sf_formula_canonical_time(f, b.m);
	CU_ASSERT_STRING_EQUAL(text, "a + s * both + c * if(k == 'gpu', 1, 0)");
	free(text);
	text = sf_formula_canonical_term(f, b.m, 0);
	CU_ASSERT_STRING_EQUAL(text, "b * n / p");
	free(text);
	text = sf_formula_canonical_term(f, b.m, 1);
	CU_ASSERT_STRING_EQUAL(text, "d * log2(p)");
	free(text);
	text = sf_formula_canonical_term(f, b.m, 2);
	CU_ASSERT_STRING_EQUAL(text, "compute + comm");
	free(text);
	sf_formula_free(f);
	bound_close(&b);
}

/* ---- warnings, placed at the name in the model file ---------------------- */

static void
test_warnings(void)
{
	/* e is fitted but unused; n is an unused input; pi shadows pi */
	static const char yaml[] = "name: w\n"
	                           "data: {file: runs.csv, output: t}\n"
	                           "inputs:\n"
	                           "  p: p\n"
	                           "  n: n\n"
	                           "  pi: p * 2\n"
	                           "parameters:\n"
	                           "  a: {min: 0, max: 10}\n"
	                           "  e: {min: 0, max: 1}\n"
	                           "time: a * p + pi\n";
	static const struct {
		int line, column;
		const char *message;
		const char *source;
	} want[] = {
	    {6, 3, "input 'pi' shadows the constant pi", "  pi: p * 2"},
	    {9, 3, "parameter 'e' shadows the constant e",
	     "  e: {min: 0, max: 1}"},
	    {9, 3,
	     "parameter 'e' is not used by the formula, so the data cannot "
	     "determine it",
	     "  e: {min: 0, max: 1}"},
	    {5, 3, "input 'n' is not used by the formula", "  n: n"},
	};
	bound b;
	sf_formula *f;
	sf_test_warnings ws;
	sf_error err;

	CU_ASSERT_FATAL(bound_open(&b, yaml) == 0);
	CU_ASSERT_EQUAL_FATAL(compile(&b, &f, &ws, &err), SF_OK);
	CU_ASSERT_EQUAL_FATAL(ws.count, 4);
	/* the formula's own warnings have no error code (the engine's
	 * shadowing warnings keep SF_ENAME, the code it gives them) */
	CU_ASSERT_EQUAL(ws.w[2].code, SF_OK);
	CU_ASSERT_EQUAL(ws.w[3].code, SF_OK);
	for (size_t k = 0; k < 4; k++) {
		CU_ASSERT_STRING_EQUAL(ws.w[k].file, b.path);
		CU_ASSERT_EQUAL(ws.w[k].line, want[k].line);
		CU_ASSERT_EQUAL(ws.w[k].column, want[k].column);
		CU_ASSERT_STRING_EQUAL(ws.w[k].message, want[k].message);
		CU_ASSERT_STRING_EQUAL(ws.w[k].source, want[k].source);
	}
	/* pi is the input: a * p + 2 p at a = 1 */
	{
		double theta[2] = {1, 0}, out[4];

		eval_all(f->value, b.data, theta, out);
		CU_ASSERT_EQUAL(out[0], 3);
		CU_ASSERT_EQUAL(out[3], 24);
	}
	sf_formula_free(f);
	/* without a callback: the same formula, nothing reported */
	CU_ASSERT_EQUAL(sf_formula_compile(b.m, b.data, &f, NULL, NULL, &err),
	                SF_OK);
	CU_ASSERT_EQUAL(f->nparams, 2);
	sf_formula_free(f);
	bound_close(&b);
}

/* ---- errors, placed in the model file ------------------------------------ */

static void
test_errors(void)
{
	static const struct {
		const char *compute, *comm, *both, *time;
		int code, line, column;
		const char *message;
	} cases[] = {
	    {"b * n / p", "d", "compute", "a + * b", SF_ESYNTAX, 17, 11,
	     "unexpected '*'; expected an operand"},
	    {"b * n / p", "d", "compute", "a + bb * n", SF_ENAME, 17, 11,
	     "unknown name 'bb'; did you mean 'b'?"},
	    {"b * nn / p", "d", "compute", "a", SF_ENAME, 14, 16,
	     "unknown name 'nn'; did you mean 'n'?"},
	    {"b * n / p + both", "d", "compute", "a", SF_ENAME, 14, 24,
	     "term 'compute' uses term 'both', which is defined after it"},
	    {"b * n / p", "comm", "compute", "a", SF_ENAME, 15, 9,
	     "term 'comm' refers to itself"},
	    {"b * n / p", "d", "compute", "a + k", SF_ETYPE, 17, 11,
	     "text input 'k' can only be compared with a string"},
	    {"k", "d", "compute", "a + b", SF_ETYPE, 14, 12,
	     "text input 'k' can only be compared with a string"},
	    {"b * n / p", "d", "compute + comm", "a(1) + both", SF_ENAME, 17, 7,
	     "'a' is a parameter, not a function"},
	    {"b * n / p", "d", "log(compute, comm)", "a + both", SF_ESYNTAX, 16,
	     9, "log takes 1 argument, got 2"},
	};

	for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
		char yaml[2048];
		bound b;
		sf_formula *f = (sf_formula *)1;
		sf_test_warnings ws;
		sf_error err;
		int rc;

		model_text(yaml, sizeof yaml, cases[k].compute, cases[k].comm,
		           cases[k].both, cases[k].time);
		CU_ASSERT_FATAL(bound_open(&b, yaml) == 0);
		rc = compile(&b, &f, &ws, &err);
		if (rc != cases[k].code || err.line != cases[k].line ||
		    err.column != cases[k].column)
			fprintf(stderr, "\ncase %zu: %d %s:%d:%d: %s\n", k, rc,
			        err.file, err.line, err.column, err.message);
		CU_ASSERT_EQUAL(rc, cases[k].code);
		CU_ASSERT_EQUAL(err.code, cases[k].code);
		CU_ASSERT_PTR_NULL(f);
		CU_ASSERT_STRING_EQUAL(err.file, b.path);
		CU_ASSERT_EQUAL(err.line, cases[k].line);
		CU_ASSERT_EQUAL(err.column, cases[k].column);
		CU_ASSERT_PTR_NOT_NULL(strstr(err.message, cases[k].message));
		/* the offending line is quoted, caret under the column */
		CU_ASSERT_PTR_NOT_NULL(strstr(yaml, err.source));
		CU_ASSERT(err.source_column > 0);
		bound_close(&b);
	}
}

int
main(void)
{
	CU_TestInfo formula[] = {
	    {"scope, parameter order, programs", test_bind},
	    {"value, gradient and terms by hand", test_evaluate},
	    {"canonical time and terms", test_canonical},
	    {"warnings placed at the name", test_warnings},
	    {"errors placed in the model file", test_errors},
	    CU_TEST_INFO_NULL,
	};
	CU_SuiteInfo suites[] = {
	    {"formula", NULL, NULL, NULL, NULL, formula},
	    CU_SUITE_INFO_NULL,
	};

	return sf_test_main(suites);
}
