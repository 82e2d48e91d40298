/*
 * test_discover.c - scalefit discover (discover/discover.h): the grammar's
 * shapes for known grids, the settings' errors, the selection (a formula
 * that fits the training rows best but extrapolates worse is not chosen),
 * the same board whatever the thread count, the model file of the winner
 * (it loads, and the pipeline's fit of it gives the search's constants;
 * hostile names and texts in it read back as they were),
 * the non-linear variants (a fitted exponent, an overlap max()), and
 * recovery: data simulated from 22 formulas of the grammar with 2-5%
 * multiplicative noise (fixed seeds), the true shape or one equal to it on
 * the data found for at least 20 of them, and from 5 with whole steps
 * ceil(n / (p b)) over a fixed data set, found for at least 4.
 */
#include "base/number.h"
#include "base/rng.h"
#include "base/text.h"
#include "base/yaml_out.h"
#include "expr/expr.h"
#include "base/clock.h"
#include "discover/discover.h"
#include "discover/given.h"
#include "discover/report.h"
#include "discover/setup.h"
#include "input/csv.h"
#include "input/formula.h"
#include "testing.h"

#include <gsl/gsl_errno.h>
#include <math.h>
#include <string.h>
#include <unistd.h>

/* ---- fixtures ---------------------------------------------------------- */

typedef struct fixture {
	sf_model_set *set;
	sf_table *table;
	sf_dataset *data;
} fixture;

static void
fixture_close(fixture *fx)
{
	sf_dataset_free(fx->data);
	sf_table_free(fx->table);
	sf_model_set_free(fx->set);
	memset(fx, 0, sizeof *fx);
}

/* The model yaml (data: output y) over the CSV text csv. */
static int
fixture_open(fixture *fx, const char *yaml, const char *csv)
{
	sf_error err;

	memset(fx, 0, sizeof *fx);
	sf_error_clear(&err);
	if (sf_model_parse_flags("discover.yaml", yaml, strlen(yaml),
	                         SF_MODEL_FORMULA_OPTIONAL, &fx->set, NULL,
	                         NULL, &err) != SF_OK ||
	    sf_table_parse(csv, strlen(csv), "discover.csv", NULL, &fx->table,
	                   &err) != SF_OK ||
	    sf_dataset_bind(fx->set->models[0], fx->table, 1, &fx->data, NULL,
	                    NULL, &err) != SF_OK) {
		fprintf(stderr, "\nfixture: %s (line %d col %d)\n", err.message,
		        err.line, err.column);
		fixture_close(fx);
		return -1;
	}
	return 0;
}

static sf_discover_result *
run(fixture *fx, const sf_discover_options *o)
{
	sf_discover_result *r = NULL;
	sf_error err;

	sf_error_clear(&err);
	if (sf_discover_run(fx->set->models[0], &fx->set->discover, fx->data,
	                    NULL, 0, o, &r, &err) != SF_OK)
		fprintf(stderr, "\ndiscover: %s\n", err.message);
	return r;
}

/* ---- the grammar --------------------------------------------------------- */

static const char *grammar_csv = "p,b,n,y\n"
                                 "1,16,160,10\n"
                                 "1,32,640,12\n"
                                 "1,64,1280,14\n"
                                 "2,16,320,9\n"
                                 "2,32,1280,11\n"
                                 "2,64,2560,13\n"
                                 "4,16,640,8\n"
                                 "4,32,2560,10\n"
                                 "4,64,5120,12\n"
                                 "8,16,1280,7\n"
                                 "8,32,5120,9\n"
                                 "8,64,10240,11\n";

/* 1 when the n strings of got are exactly those of want (any order). */
static int
same_set(char **got, size_t n, const char *const *want, size_t m)
{
	int ok = n == m;

	for (size_t i = 0; i < m && ok; i++) {
		int found = 0;
		for (size_t j = 0; j < n; j++)
			found |= strcmp(got[j], want[i]) == 0;
		ok = found;
	}
	if (!ok) {
		fprintf(stderr, "\n  got %zu shapes:", n);
		for (size_t j = 0; j < n; j++)
			fprintf(stderr, " [%s]", got[j]);
		fprintf(stderr, "\n");
	}
	return ok;
}

static void
check_shapes(const char *block, const char *csv, const char *const *want,
             size_t m)
{
	char yaml[1024];
	sf_discover_options o;
	fixture fx;
	char **shapes = NULL;
	size_t n = 0;
	sf_error err;

	snprintf(yaml, sizeof yaml,
	         "data: {output: y}\n"
	         "inputs: {p: p, b: b, n: n}\n%s",
	         block);
	CU_ASSERT_EQUAL_FATAL(fixture_open(&fx, yaml, csv), 0);
	sf_discover_options_init(&o);
	CU_ASSERT_EQUAL(sf_discover_shapes(fx.set->models[0], &fx.set->discover,
	                                   fx.data, &o, &shapes, &n, &err),
	                SF_OK);
	CU_ASSERT_TRUE(same_set(shapes, n, want, m));
	for (size_t i = 0; i < n; i++)
		free(shapes[i]);
	free(shapes);
	fixture_close(&fx);
}

/*
 * The shapes of small grids, by hand.  With exponents -1, 1 and log
 * powers 0, 1, one factor: p gives 1/p, log2(p)/p, p, p log2(p) and the
 * communication shapes p - 1, (p - 1)/p, (p - 1)/p^2; p - 1 is p shifted
 * down, which with a start-up >= 0 is not the same formulas (t0 + c (p -
 * 1) may need t0 < c as t0 + c p), so both stay; b gives the same four
 * powers.  Without the count only the workers' factors; with it the count
 * alone, times a p factor or a b factor - none a cost per step that falls
 * with p (n / p is the same per step, n / p^2 would fall), nor one that
 * grows faster than p^2 (n p log2(p) costs p^2 b log2(p) a step).
 */
static void
test_grammar(void)
{
	static const char *const small[] = {
	    "1 / p",
	    "log2(p) / p",
	    "p",
	    "p * log2(p)",
	    "(p - 1)",
	    "(p - 1) / p",
	    "(p - 1) / p^2",
	    "n",
	    "n / p",
	    "n * log2(p) / p",
	    "n * p",
	    "n * (p - 1)",
	    "n * (p - 1) / p",
	    "n * (p - 1) / p^2",
	    "n / b",
	    "n * log2(b) / b",
	    "n * b",
	    "n * b * log2(b)",
	};
	/* b takes two values: b^0.5 is 3.3 + 0.073 b, the same formulas as
	 * b's; b^2 is 96 b - 2048, whose formulas b's cannot write with a
	 * start-up >= 0, so it stays; 1/b is another (decreasing); exponents
	 * as the language reads them back. */
	static const char *const two_b[] = {"1 / b", "b", "b^2"};
	/* With the count, n / p^2 would cost less per step as workers join
	 * and is no shape; 1 / p^2 without the count is a cost per run and
	 * stays. */
	static const char *const monotone[] = {
	    "1 / p^2",     "1 / p",           "p",
	    "(p - 1)",     "(p - 1) / p",     "(p - 1) / p^2",
	    "n",           "n / p",           "n * p",
	    "n * (p - 1)", "n * (p - 1) / p", "n * (p - 1) / p^2",
	};
	/* A step's cost grows at most as p^2, a log2(p) counting as p^0.5:
	 * p^2 log2(p) and, with the count (p b a step), n p log2(p), n p^1.5
	 * and n p^2 are no shapes; p^1.5 log2(p) and n p are.  With logs up to
	 * 2: n log2(p)^2 and n p^0.5 log2(p) are, n p^0.5 log2(p)^2 is not; a
	 * term of the whole steps costs its factor a step, so S p^2 is a shape
	 * where n p^2 is not.  Without a count or a batch the workers are no
	 * data-parallel training's (a problem size, as Extra-P extrapolates)
	 * and p^2 log2(p) stays, unless discover.growth_cap says so; a batch
	 * without a count caps it, as growth_cap: false lifts it. */
	static const char *const logs[] = {
	    "n",
	    "log2(p)",
	    "p",
	    "(p - 1)",
	    "(p - 1) / p",
	    "log2(p)^2",
	    "p^(1/2)",
	    "p * log2(p)",
	    "(p - 1) / p^2",
	    "n * log2(p)",
	    "n * p",
	    "n * (p - 1)",
	    "n * (p - 1) / p",
	    "p^(1/2) * log2(p)",
	    "p * log2(p)^2",
	    "n * log2(p)^2",
	    "n * p^(1/2)",
	    "n * (p - 1) / p^2",
	    "p^(1/2) * log2(p)^2",
	    "n * p^(1/2) * log2(p)",
	};
	static const char *const square_steps[] = {
	    "n",
	    "p",
	    "(p - 1)",
	    "(p - 1) / p",
	    "p^2",
	    "(p - 1) / p^2",
	    "n * p",
	    "n * (p - 1)",
	    "n * (p - 1) / p",
	    "n * b",
	    "n * (p - 1) / p^2",
	    "n * b^2",
	    "ceil(n / (p * b))",
	    "ceil(n / (p * b)) * p",
	    "ceil(n / (p * b)) * (p - 1)",
	    "ceil(n / (p * b)) * (p - 1) / p",
	    "ceil(n / (p * b)) * b",
	    "ceil(n / (p * b)) * p^2",
	    "ceil(n / (p * b)) * b^2",
	    "max(1, floor(n / (p * b)))",
	    "max(1, floor(n / (p * b))) * p",
	    "max(1, floor(n / (p * b))) * (p - 1)",
	    "max(1, floor(n / (p * b))) * (p - 1) / p",
	    "max(1, floor(n / (p * b))) * b",
	    "max(1, floor(n / (p * b))) * p^2",
	    "max(1, floor(n / (p * b))) * b^2",
	};
	static const char *const size_input[] = {
	    "(p - 1)", "(p - 1) / p", "p^2", "(p - 1) / p^2", "p^2 * log2(p)",
	};
	static const char *const growth[] = {
	    "p",
	    "p * log2(p)",
	    "p^(3/2)",
	    "p^(3/2) * log2(p)",
	    "p^2",
	    "(p - 1)",
	    "(p - 1) / p",
	    "(p - 1) / p^2",
	    "n",
	    "n * p",
	    "n * (p - 1)",
	    "n * (p - 1) / p",
	    "n * (p - 1) / p^2",
	};
	static const char *const fractions[] = {
	    "1 / p^(1/2)", "p^(1/3)", "p^(1/4)", "p^(3/2)", "1 / p^0.3",
	};
	/* A fixed data set: n / (p b) is not whole, so the whole steps S
	 * come in, rounded up and down (a data loader that keeps the last
	 * partial batch, or drops it: at 8 workers and a batch of 32 the 100
	 * samples make less than one step, which is then 1 either way), times
	 * the b and p factors that make a per-step cost: b, p and the
	 * communication shapes that do not fall with p, not p log2(p),
	 * b log2(b) or (p - 1) / p^2. */
	static const char *const steps[] = {
	    "p",
	    "(p - 1)",
	    "(p - 1) / p",
	    "p * log2(p)",
	    "(p - 1) / p^2",
	    "n",
	    "n * p",
	    "n * (p - 1)",
	    "n * (p - 1) / p",
	    "n * b",
	    "n * (p - 1) / p^2",
	    "n * b * log2(b)",
	    "ceil(n / (p * b))",
	    "ceil(n / (p * b)) * p",
	    "ceil(n / (p * b)) * (p - 1)",
	    "ceil(n / (p * b)) * (p - 1) / p",
	    "ceil(n / (p * b)) * b",
	    "max(1, floor(n / (p * b)))",
	    "max(1, floor(n / (p * b))) * p",
	    "max(1, floor(n / (p * b))) * (p - 1)",
	    "max(1, floor(n / (p * b))) * (p - 1) / p",
	    "max(1, floor(n / (p * b))) * b",
	};
	static const char *const steps_csv = "p,b,n,y\n"
	                                     "1,16,100,10\n"
	                                     "1,32,300,12\n"
	                                     "2,16,300,9\n"
	                                     "2,32,100,11\n"
	                                     "4,16,100,8\n"
	                                     "4,32,300,10\n"
	                                     "8,16,300,7\n"
	                                     "8,32,100,9\n";
	static const char *const two_b_csv = "p,b,n,y\n"
	                                     "1,32,1,3\n"
	                                     "1,64,1,4\n"
	                                     "2,32,1,5\n"
	                                     "2,64,1,6\n"
	                                     "3,32,1,7\n";

	check_shapes("discover: {exponents: [-1, 1], logs: [0, 1], factors: "
	             "1}\n",
	             grammar_csv, small, sizeof small / sizeof *small);
	check_shapes("discover: {inputs: [b], count: none, exponents: [-1, "
	             "0.5, 1, 2], logs: [0]}\n",
	             two_b_csv, two_b, sizeof two_b / sizeof *two_b);
	check_shapes("discover: {exponents: [1], logs: [0, 1], factors: 1}\n",
	             steps_csv, steps, sizeof steps / sizeof *steps);
	/* without a batch, steps[] but its whole steps */
	check_shapes("discover: {exponents: [1], logs: [0, 1], factors: 1, "
	             "batch: none}\n",
	             steps_csv, steps, sizeof steps / sizeof *steps - 10);
	check_shapes("discover: {inputs: [p], exponents: [-2, -1, 1], logs: "
	             "[0], factors: 1}\n",
	             grammar_csv, monotone, sizeof monotone / sizeof *monotone);
	check_shapes("discover: {inputs: [p], exponents: [1, 1.5, 2], logs: "
	             "[0, 1], factors: 1}\n",
	             grammar_csv, growth, sizeof growth / sizeof *growth);
	check_shapes("discover: {inputs: [p], exponents: [0, 0.5, 1], logs: "
	             "[0, 1, 2], factors: 1}\n",
	             grammar_csv, logs, sizeof logs / sizeof *logs);
	check_shapes("discover: {exponents: [1, 2], logs: [0], factors: 1}\n",
	             steps_csv, square_steps,
	             sizeof square_steps / sizeof *square_steps);
	check_shapes("discover: {inputs: [p], count: none, batch: none, "
	             "exponents: [2], logs: [0, 1], factors: 1}\n",
	             grammar_csv, size_input,
	             sizeof size_input / sizeof *size_input);
	check_shapes("discover: {inputs: [p], count: none, batch: none, "
	             "growth_cap: true, exponents: [2], logs: [0, 1], factors: "
	             "1}\n",
	             grammar_csv, size_input,
	             sizeof size_input / sizeof *size_input - 1);
	check_shapes("discover: {inputs: [p], count: none, exponents: [2], "
	             "logs: [0, 1], factors: 1}\n",
	             grammar_csv, size_input,
	             sizeof size_input / sizeof *size_input - 1);
	check_shapes("discover: {inputs: [p], count: none, growth_cap: false, "
	             "exponents: [2], logs: [0, 1], factors: 1}\n",
	             grammar_csv, size_input,
	             sizeof size_input / sizeof *size_input);
	check_shapes("discover: {inputs: [p], count: none, workers: none, "
	             "exponents: [-0.5, 0.3333333333333333, 0.25, 1.5, -0.3], "
	             "logs: [0]}\n",
	             grammar_csv, fractions,
	             sizeof fractions / sizeof *fractions);
}

/* How many shapes the grammar of fx's rows has. */
static size_t
count_shapes(const fixture *fx, const sf_discover_options *o)
{
	char **shapes = NULL;
	size_t n = 0;
	sf_error err;

	CU_ASSERT_EQUAL(sf_discover_shapes(fx->set->models[0],
	                                   &fx->set->discover, fx->data, o,
	                                   &shapes, &n, &err),
	                SF_OK);
	for (size_t i = 0; i < n; i++)
		free(shapes[i]);
	free(shapes);
	return n;
}

/* The shapes the cap on growth leaves out are counted once each: the
 * grammar with the cap has that many distinct shapes fewer than without,
 * and the search reports them (and whether it capped). */
static void
test_too_steep(void)
{
	static const char *const capped =
	    "data: {output: y}\n"
	    "inputs: {p: p, b: b, n: n}\n"
	    "discover: {factors: 1, max_terms: 1, growth_cap: true}\n";
	static const char *const free_growth =
	    "data: {output: y}\n"
	    "inputs: {p: p, b: b, n: n}\n"
	    "discover: {factors: 1, max_terms: 1, growth_cap: false}\n";
	sf_discover_options o;
	sf_discover_result *r = NULL;
	fixture fx;
	size_t n_capped, n_free;

	sf_discover_options_init(&o);
	o.threads = 1;
	CU_ASSERT_EQUAL_FATAL(fixture_open(&fx, free_growth, grammar_csv), 0);
	n_free = count_shapes(&fx, &o);
	r = run(&fx, &o);
	CU_ASSERT_PTR_NOT_NULL_FATAL(r);
	CU_ASSERT_EQUAL(r->too_steep, 0);
	CU_ASSERT_FALSE(r->space.growth_cap);
	sf_discover_result_free(r);
	fixture_close(&fx);

	CU_ASSERT_EQUAL_FATAL(fixture_open(&fx, capped, grammar_csv), 0);
	n_capped = count_shapes(&fx, &o);
	r = run(&fx, &o);
	CU_ASSERT_PTR_NOT_NULL_FATAL(r);
	CU_ASSERT_TRUE(r->space.growth_cap);
	CU_ASSERT_TRUE(n_capped < n_free);
	CU_ASSERT_EQUAL(r->shapes, n_capped);
	CU_ASSERT_EQUAL(r->too_steep, n_free - n_capped);
	sf_discover_result_free(r);
	fixture_close(&fx);
}

/* Bad names in the block are reported at their place in the file (the
 * batch's like the count's); too few levels and an empty --train are
 * clear errors. */
static void
test_errors(void)
{
	static const struct {
		const char *block, *train, *extrapolate;
		int code, line, column;
		const char *message;
	} cases[] = {
	    {"discover: {extrapolate: q}\n", NULL, NULL, SF_ENAME, 3, 25,
	     "discover.extrapolate: 'q' is not an input; did you mean 'p'?"},
	    {"discover:\n  inputs: [p, zz]\n", NULL, NULL, SF_ENAME, 4, 15,
	     "'zz' is not an input (the numeric inputs: p, b, n)"},
	    {"discover: {count: p}\n", NULL, NULL, SF_ENAME, 3, 19,
	     "is the extrapolated input"},
	    {"discover: {inputs: [n]}\n", NULL, NULL, SF_ENAME, 3, 21,
	     "is the count"},
	    {"", "p <= 2", NULL, SF_EVALUE, 0, 0,
	     "hold 2 values of p: forward chaining needs at least 3"},
	    {"", "p > 100", NULL, SF_EVALUE, 0, 0, "selects none of the 12"},
	    {"", NULL, "bb", SF_ENAME, 0, 0,
	     "--extrapolate: 'bb' is not an input; did you mean 'b'?"},
	    {"discover: {budget: 1000001}\n", NULL, NULL, SF_EVALUE, 3, 11,
	     "discover.budget must be at most 1000000 formulas"},
	    {"discover: {batch: bb}\n", NULL, NULL, SF_ENAME, 3, 19,
	     "discover.batch: 'bb' is not an input; did you mean 'b'?"},
	    {"discover: {batch: n}\n", NULL, NULL, SF_ENAME, 3, 19,
	     "discover.batch: 'n' is the count"},
	    {"discover: {batch: p}\n", NULL, NULL, SF_ENAME, 3, 19,
	     "discover.batch: 'p' is the workers input"},
	    {"discover: {extrapolate: b, workers: p, batch: b}\n", NULL, NULL,
	     SF_ENAME, 3, 47, "discover.batch: 'b' is the extrapolated input"},
	};

	for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
		char yaml[512];
		sf_discover_options o;
		sf_discover_result *r = NULL;
		fixture fx;
		sf_error err;
		int rc;

		snprintf(yaml, sizeof yaml,
		         "data: {output: y}\n"
		         "inputs: {p: p, b: b, n: n}\n%s",
		         cases[i].block);
		CU_ASSERT_EQUAL_FATAL(fixture_open(&fx, yaml, grammar_csv), 0);
		sf_discover_options_init(&o);
		o.train = cases[i].train;
		o.extrapolate = cases[i].extrapolate;
		o.threads = 1;
		sf_error_clear(&err);
		rc = sf_discover_run(fx.set->models[0], &fx.set->discover,
		                     fx.data, NULL, 0, &o, &r, &err);
		CU_ASSERT_EQUAL(rc, cases[i].code);
		CU_ASSERT_PTR_NULL(r);
		CU_ASSERT_EQUAL(err.line, cases[i].line);
		CU_ASSERT_EQUAL(err.column, cases[i].column);
		CU_ASSERT_PTR_NOT_NULL(strstr(err.message, cases[i].message));
		if (cases[i].line > 0)
			CU_ASSERT_TRUE(err.source_column > 0);
		if (rc != cases[i].code || err.line != cases[i].line ||
		    err.column != cases[i].column ||
		    strstr(err.message, cases[i].message) == NULL)
			fprintf(stderr, "\n  case %zu: %d at %d:%d '%s'\n", i,
			        rc, err.line, err.column, err.message);
		sf_discover_result_free(r);
		fixture_close(&fx);
	}
}

/* ---- simulated data ------------------------------------------------------ */

/* The design: 8 levels of p, 5 batch sizes, 2 run lengths, 2 repetitions
 * (160 rows); n = p b iterations. */
static const double design_p[] = {1, 2, 3, 4, 6, 8, 12, 16};
static const double design_b[] = {8, 16, 32, 64, 128};
static const double design_it[] = {50, 200};
/* The whole-steps design: a fixed data set of n samples whatever p and b,
 * a little over a whole number of the largest global batches (2048), so
 * that at p = 8..16 and the large batches a run takes 2-4 steps where
 * n / (p b) is 1.03-3.1. */
static const double design_n[] = {2100, 6300};
enum { DESIGN_REPS = 2 };

enum { MAX_TRUE = 4, NTRUTHS = 22 };

/* A formula of the grammar: t0 plus up to MAX_TRUE shapes, each given
 * the share of the mean time its term takes. */
typedef struct truth {
	int per_step; /* 1: no count, the inputs are p and b; 2: n from
	                 design_n (whole steps), not p b iterations */
	const char *shape[MAX_TRUE];
	double share[MAX_TRUE];
} truth;

/* Evaluate text over the design's columns (p, b, n) into out. */
static int
columns_eval(const char *text, const double *const *cols, size_t rows,
             const char *const *names, const double *values, size_t nfixed,
             double *out)
{
	sf_expr_scope *s = sf_expr_scope_new();
	sf_error err;
	int rc = SF_OK;

	rc |= sf_expr_scope_add_input(s, "p", &err);
	rc |= sf_expr_scope_add_input(s, "b", &err);
	rc |= sf_expr_scope_add_input(s, "n", &err);
	for (size_t i = 0; i < nfixed && rc == SF_OK; i++)
		rc = sf_expr_scope_add_fixed(s, names[i], values[i], &err);
	if (rc == SF_OK)
		rc = sf_expr_eval_columns(s, text, cols, rows, out, &err);
	if (rc != SF_OK)
		fprintf(stderr, "\n  eval '%s': %s\n", text, err.message);
	sf_expr_scope_free(s);
	return rc;
}

/* Rows of the design and the time of truth t with multiplicative noise
 * sigma, as CSV; cols get p, b, n per row. */
static void
simulate(const truth *t, double sigma, uint64_t seed, sf_text *csv,
         double *cols[3], size_t *rows)
{
	double *term = malloc(256 * sizeof *term), y[256];
	size_t n = 0;
	sf_rng rng;

	for (size_t a = 0; a < 8; a++)
		for (size_t b = 0; b < 5; b++)
			for (size_t i = 0; i < 2; i++)
				for (size_t r = 0; r < DESIGN_REPS; r++) {
					cols[0][n] = design_p[a];
					cols[1][n] = design_b[b];
					cols[2][n] = t->per_step == 2
					                 ? design_n[i]
					                 : design_p[a] *
					                       design_b[b] *
					                       design_it[i];
					y[n++] = 0;
				}
	/* t0 takes a tenth of the mean time, the terms their shares */
	for (size_t r = 0; r < n; r++)
		y[r] = 100;
	for (size_t k = 0; k < MAX_TRUE && t->shape[k] != NULL; k++) {
		double mean = 0;
		columns_eval(t->shape[k], (const double *const *)cols, n, NULL,
		             NULL, 0, term);
		for (size_t r = 0; r < n; r++)
			mean += term[r] / (double)n;
		for (size_t r = 0; r < n; r++)
			y[r] += 1000 * t->share[k] * term[r] / mean;
	}
	sf_rng_seed(&rng, seed, 7);
	sf_text_printf(csv, "p,b,n,y\n");
	for (size_t r = 0; r < n; r++)
		sf_text_printf(csv, "%.17g,%.17g,%.17g,%.17g\n", cols[0][r],
		               cols[1][r], cols[2][r],
		               y[r] * (1 + sf_rng_normal(&rng, 0, sigma)));
	*rows = n;
	free(term);
}

/* Orthonormalise the m columns of A (rows x m, column-major) in place by
 * modified Gram-Schmidt, twice; drops columns that vanish. */
static size_t
orthonormalise(double *A, size_t rows, size_t m)
{
	size_t kept = 0;

	for (size_t j = 0; j < m; j++) {
		double *v = A + j * rows, norm0 = 0, norm = 0;

		for (size_t r = 0; r < rows; r++)
			norm0 += v[r] * v[r];
		for (int pass = 0; pass < 2; pass++)
			for (size_t q = 0; q < kept; q++) {
				const double *u = A + q * rows;
				double d = 0;
				for (size_t r = 0; r < rows; r++)
					d += u[r] * v[r];
				for (size_t r = 0; r < rows; r++)
					v[r] -= d * u[r];
			}
		for (size_t r = 0; r < rows; r++)
			norm += v[r] * v[r];
		if (norm <= 1e-20 * norm0 || norm == 0)
			continue;
		for (size_t r = 0; r < rows; r++)
			A[kept * rows + r] = v[r] / sqrt(norm);
		kept++;
	}
	return kept;
}

/* 1 when every column of B (m of them) lies in the span of the
 * orthonormal columns Q (k of them), to 1e-6 relative. */
static int
in_span(const double *Q, size_t k, const double *B, size_t m, size_t rows)
{
	for (size_t j = 0; j < m; j++) {
		const double *v = B + j * rows;
		double norm = 0, rest = 0;

		for (size_t r = 0; r < rows; r++)
			norm += v[r] * v[r];
		for (size_t r = 0; r < rows; r++) {
			double x = v[r];
			for (size_t q = 0; q < k; q++) {
				double d = 0;
				for (size_t s = 0; s < rows; s++)
					d += Q[q * rows + s] * v[s];
				x -= d * Q[q * rows + r];
			}
			rest += x * x;
		}
		if (rest > 1e-12 * norm)
			return 0;
	}
	return 1;
}

/*
 * 1 when the winner of r is truth t on the data: the span of the constant
 * and its terms (each term evaluated with its fitted constants, so a max()
 * that one side always wins counts as that side) is the span of the
 * constant and the true shapes.
 */
static int
recovered(const sf_discover_result *res, const truth *t, double *const cols[3],
          size_t rows)
{
	const sf_discover_candidate *w = &res->board[res->winner];
	double *found = calloc((w->nterms + 1) * rows, sizeof *found);
	double *truth_cols = calloc((MAX_TRUE + 1) * rows, sizeof *truth_cols);
	double *A = calloc((MAX_TRUE + w->nterms + 2) * rows, sizeof *A);
	const char *names[2 * 9];
	double values[2 * 9];
	size_t nfixed = 0, nf = 0, nt = 0, k;
	int ok = 1;

	for (size_t i = 0; i < w->nterms; i++)
		for (size_t q = 0; q < w->terms[i].nparams; q++) {
			names[nfixed] = w->terms[i].param[q];
			values[nfixed++] = w->terms[i].value[q];
		}
	for (size_t r = 0; r < rows; r++)
		found[r] = truth_cols[r] = 1;
	nf = nt = 1;
	for (size_t i = 1; i < w->nterms && ok; i++)
		ok = columns_eval(w->terms[i].expr, (const double *const *)cols,
		                  rows, names, values, nfixed,
		                  found + nf++ * rows) == SF_OK;
	for (size_t i = 0; i < MAX_TRUE && t->shape[i] != NULL && ok; i++)
		ok = columns_eval(t->shape[i], (const double *const *)cols,
		                  rows, NULL, NULL, 0,
		                  truth_cols + nt++ * rows) == SF_OK;
	if (ok) {
		memcpy(A, found, nf * rows * sizeof *A);
		k = orthonormalise(A, rows, nf);
		ok = in_span(A, k, truth_cols, nt, rows);
	}
	if (ok) {
		memcpy(A, truth_cols, nt * rows * sizeof *A);
		k = orthonormalise(A, rows, nt);
		ok = in_span(A, k, found, nf, rows);
	}
	free(found);
	free(truth_cols);
	free(A);
	return ok;
}

static const truth truths[NTRUTHS] = {
    {0, {"n / p"}, {0.9}},
    {0, {"n / p", "n / (p * b)"}, {0.6, 0.3}},
    {0, {"n / p", "n * log2(p) / (p * b)"}, {0.6, 0.3}},
    {0, {"n / p", "n * (p - 1) / (p^2 * b)"}, {0.6, 0.3}},
    {0, {"n / p", "n"}, {0.6, 0.3}},
    {0, {"n / (p * b)", "n * (p - 1) / (p * b)"}, {0.5, 0.4}},
    {0, {"n / p", "n / (p * b)", "n * log2(p) / (p * b)"}, {0.4, 0.25, 0.25}},
    {0, {"n / p", "n / (p * b)", "n"}, {0.4, 0.25, 0.25}},
    {0, {"n / p", "n * log2(p) / (p * b)", "n"}, {0.4, 0.25, 0.25}},
    {0, {"n / p^(1/2)"}, {0.9}},
    {0, {"n * b^(1/2) / p"}, {0.9}},
    {0, {"n / p", "p"}, {0.6, 0.3}},
    {0, {"n / p", "log2(p)"}, {0.6, 0.3}},
    {0, {"n * log2(b) / p"}, {0.9}},
    {0, {"n / p", "n * (p - 1) / (p^2 * b)", "n"}, {0.4, 0.25, 0.25}},
    {1, {"b"}, {0.9}},
    {1, {"b", "log2(p)"}, {0.6, 0.3}},
    {1, {"b", "(p - 1) / p"}, {0.6, 0.3}},
    {1, {"b", "p"}, {0.6, 0.3}},
    {1, {"b^(1/2)", "log2(p)^2"}, {0.6, 0.3}},
    /* contention: an exchange per step whose cost grows with the workers
     * (a parameter server's incast, p messages a step; p log p for a
     * tree of them), so the time stops falling as p grows */
    {0, {"n / p", "n / b"}, {0.6, 0.3}},
    {0, {"n / p", "n * log2(p) / b"}, {0.6, 0.3}},
};

/* Whole steps: per-step compute (the batch) and exchange (log2(p), a
 * parameter server's p), over a fixed data set, where the steps are few
 * at the top levels and n / (p b) is not them; rounded up (a data loader
 * that keeps the last partial batch) and down (one that drops it).  Not
 * here: a fixed cost per step, or the ring's (p - 1) / p, at a share of
 * 0.3: at the top levels they differ from n / (p b) and n (p - 1) /
 * (p^2 b) by about the noise (their AICc within 10), and the tie rule
 * rightly takes those simpler shapes; nor the exchange rounded down
 * (log2(p) or p a step): there n / (p b) is 1.03-3.1 and its floor 1-3,
 * so they are n log2(p) / (p b) and n / b but for the noise. */
enum { NSTEPS = 7 };
static const truth step_truths[NSTEPS] = {
    {2, {"ceil(n / (p * b)) * b"}, {0.9}},
    {2, {"ceil(n / (p * b)) * b", "ceil(n / (p * b)) * log2(p)"}, {0.6, 0.3}},
    {2, {"ceil(n / (p * b)) * b", "ceil(n / (p * b)) * p"}, {0.6, 0.3}},
    {2, {"ceil(n / (p * b)) * b", "n"}, {0.6, 0.3}},
    {2,
     {"ceil(n / (p * b)) * b", "ceil(n / (p * b)) * log2(p)", "n"},
     {0.4, 0.25, 0.25}},
    {2, {"max(1, floor(n / (p * b))) * b"}, {0.9}},
    {2, {"max(1, floor(n / (p * b))) * b", "n"}, {0.6, 0.3}},
};

/* Simulate truth t (noise sigma, seed) and discover it (one thread or
 * threads) with *fx open over its rows, left open for the caller to
 * close; NULL (fx zeroed, closing it is safe) when the rows did not
 * load. */
static sf_discover_result *
discover_open(const truth *t, double sigma, uint64_t seed, int threads,
              fixture *fx, double *cols[3], size_t *rows)
{
	sf_discover_options o;
	sf_discover_result *r;
	sf_text csv = SF_TEXT_INIT;

	simulate(t, sigma, seed, &csv, cols, rows);
	if (fixture_open(fx,
	                 t->per_step == 1
	                     ? "data: {output: y}\ninputs: {p: p, b: b}\n"
	                     : "data: {output: y}\n"
	                       "inputs: {p: p, b: b, n: n}\n",
	                 csv.data) != 0) {
		sf_text_free(&csv);
		return NULL;
	}
	sf_discover_options_init(&o);
	o.threads = threads;
	r = run(fx, &o);
	sf_text_free(&csv);
	return r;
}

/* Simulate truth i of list (of count) and discover it; the noise grows
 * from 2% to 5% along the list, the seed is base + i. */
static sf_discover_result *
discover_in(const truth *list, size_t count, uint64_t base, size_t i,
            int threads, double *cols[3], size_t *rows)
{
	fixture fx;
	sf_discover_result *r = discover_open(
	    &list[i], 0.02 + 0.03 * (double)i / (double)(count - 1), base + i,
	    threads, &fx, cols, rows);

	fixture_close(&fx); /* safe when it did not open: it is zeroed */
	return r;
}

/* Simulate truth i of truths and discover it. */
static sf_discover_result *
discover_truth(size_t i, int threads, double *cols[3], size_t *rows)
{
	return discover_in(truths, NTRUTHS, 1000, i, threads, cols, rows);
}

/* How many truths of list (of count, seeds from base) discover finds,
 * each reporting the steps shapes in its grammar when steps is set. */
static size_t
recover_all(const truth *list, size_t count, uint64_t base, int steps)
{
	size_t found = 0;
	double *cols[3];

	for (int c = 0; c < 3; c++)
		cols[c] = malloc(256 * sizeof **cols);
	for (size_t i = 0; i < count; i++) {
		size_t rows;
		sf_discover_result *r =
		    discover_in(list, count, base, i, 0, cols, &rows);

		CU_ASSERT_PTR_NOT_NULL_FATAL(r);
		if (steps)
			CU_ASSERT_TRUE(r->steps);
		if (recovered(r, &list[i], cols, rows))
			found++;
		else
			fprintf(stderr,
			        "\n  %struth %zu (%s, ...) not found: %s",
			        steps ? "steps " : "", i, list[i].shape[0],
			        r->board[r->winner].formula);
		sf_discover_result_free(r);
	}
	fprintf(stderr, "\n  recovered %zu of %zu ", found, count);
	for (int c = 0; c < 3; c++)
		free(cols[c]);
	return found;
}

static void
test_recovery(void)
{
	CU_ASSERT_TRUE(recover_all(truths, NTRUTHS, 1000, 0) >= NTRUTHS - 2);
}

/* The whole-steps truths, recovered as the others are. */
static void
test_recovery_steps(void)
{
	CU_ASSERT_TRUE(recover_all(step_truths, NSTEPS, 2000, 1) >= NSTEPS - 1);
}

/* A formula with the whole steps rounded down (step_truths' first such)
 * found, and written to a model file that reads back and compiles: its
 * max(1, floor(n / (p * b))) is the expression language's, and the
 * board's text of it is the file's. */
static void
test_floor_file(void)
{
	const char *floor_steps = "max(1, floor(n / (p * b)))";
	double *cols[3];
	size_t rows;
	fixture fx;
	sf_discover_result *r;
	sf_model_set *set = NULL;
	sf_formula *f = NULL;
	char *text = NULL;
	sf_error err;

	for (int c = 0; c < 3; c++)
		cols[c] = malloc(256 * sizeof **cols);
	r = discover_open(&step_truths[5], 0.02, 77, 1, &fx, cols, &rows);
	CU_ASSERT_PTR_NOT_NULL_FATAL(r);
	CU_ASSERT_PTR_NOT_NULL(
	    strstr(r->board[r->winner].formula, floor_steps));
	CU_ASSERT_EQUAL_FATAL(
	    sf_discover_model_text(r, r->winner, fx.set->models[0], "out.yaml",
	                           "rows.csv", &text, &err),
	    SF_OK);
	CU_ASSERT_PTR_NOT_NULL(strstr(text, floor_steps));
	CU_ASSERT_EQUAL_FATAL(sf_model_parse("out.yaml", text, strlen(text),
	                                     &set, NULL, NULL, &err),
	                      SF_OK);
	CU_ASSERT_EQUAL(
	    sf_formula_compile(set->models[0], fx.data, &f, NULL, NULL, &err),
	    SF_OK);
	sf_formula_free(f);
	sf_model_set_free(set);
	free(text);
	sf_discover_result_free(r);
	fixture_close(&fx);
	for (int c = 0; c < 3; c++)
		free(cols[c]);
}

/* ElasticFlow's ResNet-50 at 1-8 GPUs (a global batch of 64, 128 or 256,
 * datasets/elasticflow_a100). */
static const char resnet50_csv[] = "p,b,y\n"
                                   "1,64,0.14613521496454876\n"
                                   "2,32,0.08447038412094116\n"
                                   "4,16,0.05464801629384358\n"
                                   "8,8,0.04702483812967936\n"
                                   "1,128,0.2735698954264323\n"
                                   "2,64,0.15106815735499057\n"
                                   "4,32,0.0890931979815165\n"
                                   "8,16,0.06048091967900594\n"
                                   "1,256,0.542483231226603\n"
                                   "2,128,0.28997141440709434\n"
                                   "4,64,0.16152969121932978\n"
                                   "8,32,0.0963511562347412\n";

/* The default search (one thread) of the model yaml over the rows of csv
 * where train holds (NULL: all), into *fx (the caller closes it). */
static sf_discover_result *
search_rows(fixture *fx, const char *yaml, const char *csv, const char *train)
{
	sf_discover_options o;

	CU_ASSERT_EQUAL_FATAL(fixture_open(fx, yaml, csv), 0);
	sf_discover_options_init(&o);
	o.threads = 1;
	o.train = train;
	return run(fx, &o);
}

/*
 * Twins: where b takes two values, b and b^2 both stay in the grammar (b^2
 * is 96 b - 2048, which b cannot write with a start-up >= 0), but when
 * both fits have a start-up >= 0 they fit the rows exactly alike: the
 * board shows the simpler, b, alone.
 */
static void
test_twins(void)
{
	static const char yaml[] = "data: {output: y}\n"
	                           "inputs: {p: p, b: b}\n"
	                           "discover: {count: none, inputs: [b], "
	                           "exponents: [1, 2], logs: [0], "
	                           "max_terms: 1, overlap: false}\n";
	static const char csv[] = "p,b,y\n"
	                          "1,32,3.62\n1,64,5.17\n"
	                          "2,32,3.58\n2,64,5.25\n"
	                          "4,32,3.61\n4,64,5.19\n"
	                          "8,32,3.63\n8,64,5.21\n";
	fixture fx;
	sf_discover_result *r = search_rows(&fx, yaml, csv, NULL);
	size_t with_b = 0;

	CU_ASSERT_PTR_NOT_NULL_FATAL(r);
	for (size_t i = 0; i < r->nboard; i++) {
		with_b += r->board[i].k == 2;
		CU_ASSERT_PTR_NULL(strstr(r->board[i].formula, "b^2"));
	}
	CU_ASSERT_EQUAL(with_b, 1);
	CU_ASSERT_PTR_NOT_NULL(strstr(r->board[r->winner].formula, "* b"));
	sf_discover_result_free(r);
	fixture_close(&fx);
}

/* The file discover writes from a model whose fit.prior.hardware names
 * input b, searched over the inputs of factors (b, or p alone): the
 * hardware speed comes along where the file has the input, and is left
 * out where it does not (the file would not read back); both read back. */
static void
test_hardware_file(void)
{
	static const char *const yaml[2] = {
	    "data: {output: y}\n"
	    "inputs: {p: p, b: b}\n"
	    "fit: {prior: {hardware: b, hardware_scale: 0.5}}\n"
	    "discover: {count: none, inputs: [b], exponents: [1], logs: [0], "
	    "max_terms: 1, library: false}\n",
	    "data: {output: y}\n"
	    "inputs: {p: p, b: b}\n"
	    "fit: {prior: {hardware: b, hardware_scale: 0.5}}\n"
	    "discover: {count: none, inputs: [p], exponents: [1], logs: [0], "
	    "max_terms: 1, library: false}\n"};
	static const char csv[] = "p,b,y\n"
	                          "1,32,3.62\n1,64,5.17\n"
	                          "2,32,3.58\n2,64,5.25\n"
	                          "4,32,3.61\n4,64,5.19\n"
	                          "8,32,3.63\n8,64,5.21\n";

	for (int k = 0; k < 2; k++) {
		fixture fx;
		sf_discover_result *r = search_rows(&fx, yaml[k], csv, NULL);
		sf_model_set *set = NULL;
		char *text = NULL;
		sf_error err;

		CU_ASSERT_PTR_NOT_NULL_FATAL(r);
		CU_ASSERT_EQUAL_FATAL(
		    sf_discover_model_text(r, r->winner, fx.set->models[0],
		                           "out.yaml", "rows.csv", &text, &err),
		    SF_OK);
		CU_ASSERT_EQUAL((strstr(text, "\n  b: ") != NULL), k == 0);
		CU_ASSERT_EQUAL((strstr(text, "hardware: \"b\"") != NULL),
		                k == 0);
		CU_ASSERT_EQUAL((strstr(text, "hardware_scale: 0.5") != NULL),
		                k == 0);
		CU_ASSERT_EQUAL(sf_model_parse("out.yaml", text, strlen(text),
		                               &set, NULL, NULL, &err),
		                SF_OK);
		if (set != NULL)
			CU_ASSERT_STRING_EQUAL(
			    set->models[0]->fit.prior_hardware,
			    k == 0 ? "b" : "");
		sf_model_set_free(set);
		free(text);
		sf_discover_result_free(r);
		fixture_close(&fx);
	}
}

/* 1 when found formula big holds every term shape of small, and more. */
static int
holds_terms_of(const sf_discover_candidate *big,
               const sf_discover_candidate *small)
{
	if (big->model != NULL || small->model != NULL ||
	    big->nterms <= small->nterms)
		return 0;
	for (size_t i = 0; i < small->nterms; i++) {
		int found = 0;

		for (size_t j = 0; j < big->nterms; j++)
			found |= strcmp(big->terms[j].shape,
			                small->terms[i].shape) == 0;
		if (!found)
			return 0;
	}
	return 1;
}

/*
 * Occam's window.  ElasticFlow's ResNet-50 at 1-4 GPUs (resnet50_csv's
 * rows where p <= 4): several tied formulas are a tied simpler one plus a
 * term with a constant near 0, which the folds score no better.  None of them
 * joins the ensemble (the search counts them), and every member left is a
 * different formula.
 */
static void
test_occam(void)
{
	static const char yaml[] = "data: {output: y}\n"
	                           "inputs: {p: p, b: b}\n";
	fixture fx;
	sf_discover_result *r = search_rows(&fx, yaml, resnet50_csv, "p <= 4");

	CU_ASSERT_PTR_NOT_NULL_FATAL(r);
	CU_ASSERT_TRUE(r->nested > 0);
	CU_ASSERT_TRUE(r->nmembers >= 2);
	for (size_t i = 0; i < r->nmembers; i++)
		for (size_t j = 0; j < r->nmembers; j++) {
			const sf_discover_candidate
			    *a = &r->board[r->members[i]],
			    *b = &r->board[r->members[j]];

			CU_ASSERT_FALSE(holds_terms_of(a, b) &&
			                !(a->score < b->score));
		}
	sf_discover_result_free(r);
	fixture_close(&fx);
}

/* The same board, bit for bit, on 1 and 3 threads. */
static void
test_threads(void)
{
	double *cols[3];
	size_t rows;
	sf_discover_result *a, *b;

	for (int c = 0; c < 3; c++)
		cols[c] = malloc(256 * sizeof **cols);
	a = discover_truth(7, 1, cols, &rows);
	b = discover_truth(7, 3, cols, &rows);
	CU_ASSERT_PTR_NOT_NULL_FATAL(a);
	CU_ASSERT_PTR_NOT_NULL_FATAL(b);
	CU_ASSERT_EQUAL(a->evaluated, b->evaluated);
	CU_ASSERT_EQUAL_FATAL(a->nboard, b->nboard);
	CU_ASSERT_EQUAL(a->winner, b->winner);
	for (size_t i = 0; i < a->nboard; i++) {
		const sf_discover_candidate *x = &a->board[i],
		                            *y = &b->board[i];

		CU_ASSERT_STRING_EQUAL(x->formula, y->formula);
		CU_ASSERT_EQUAL(memcmp(&x->score, &y->score, sizeof x->score),
		                0);
		CU_ASSERT_EQUAL(memcmp(&x->aicc, &y->aicc, sizeof x->aicc), 0);
		CU_ASSERT_EQUAL(memcmp(x->fold_mape, y->fold_mape,
		                       a->nfolds * sizeof *x->fold_mape),
		                0);
	}
	sf_discover_result_free(a);
	sf_discover_result_free(b);
	for (int c = 0; c < 3; c++)
		free(cols[c]);
}

/* Candidate c's prediction at the one-row columns cols (p, b, n). */
static double
member_at(const sf_discover_candidate *c, double *const cols[3])
{
	const char *names[2 * 9];
	double values[2 * 9], sum = 0, term;
	size_t nfixed = 0;

	for (size_t t = 0; t < c->nterms; t++)
		for (size_t q = 0; q < c->terms[t].nparams; q++) {
			names[nfixed] = c->terms[t].param[q];
			values[nfixed++] = c->terms[t].value[q];
		}
	for (size_t t = 0; t < c->nterms; t++) {
		if (columns_eval(c->terms[t].expr, (const double *const *)cols,
		                 1, names, values, nfixed, &term) != SF_OK)
			return NAN;
		sum += term;
	}
	return sum;
}

/* next's arguments where r's members part, at[] (p, b, n): the written
 * inputs among p, b, n at those values as their shortest text, and the
 * top level 16 with its doubling. */
static void
next_arguments_are(const sf_discover_result *r, const double at[3])
{
	static const char *const names[3] = {"p", "b", "n"};
	sf_text want = SF_TEXT_INIT;
	const char *sep = "";
	char num[40];

	CU_ASSERT_TRUE(sf_discover_written_input(r, "p"));
	for (int c = 0; c < 3; c++)
		if (sf_discover_written_input(r, names[c])) {
			sf_text_printf(
			    &want, "%s%s=%s", sep, names[c],
			    sf_format_double(num, sizeof num, at[c]));
			sep = ",";
		}
	CU_ASSERT_PTR_NOT_NULL_FATAL(r->apart_target);
	CU_ASSERT_STRING_EQUAL(r->apart_target, sf_text_str(&want));
	CU_ASSERT_STRING_EQUAL(r->apart_over, "p=16,32");
	sf_text_free(&want);
}

/*
 * How far the ensemble parts one doubling beyond the training rows: at
 * p = 32 (the design's top level is 16) with the named row's b and n, the
 * members' predictions, recomputed here from their terms, span exactly
 * low to high.  The first simulated formulas whose search ties several
 * formulas are taken; at least one must.
 */
static void
test_members_apart(void)
{
	double *cols[3], *at[3], one[3];
	size_t rows, seen = 0;

	for (int c = 0; c < 3; c++) {
		cols[c] = malloc(256 * sizeof **cols);
		at[c] = &one[c];
	}
	for (size_t i = 0; i < NTRUTHS && seen < 3; i++) {
		sf_discover_result *r = discover_truth(i, 1, cols, &rows);
		double low = INFINITY, high = -INFINITY;
		size_t row;

		CU_ASSERT_PTR_NOT_NULL_FATAL(r);
		if (r->nmembers < 2) {
			CU_ASSERT_EQUAL(r->apart_line, 0);
			CU_ASSERT(isnan(r->apart_low));
			sf_discover_result_free(r);
			continue;
		}
		seen++;
		/* the CSV's header is line 1: row k is line k + 2 */
		CU_ASSERT_FATAL(r->apart_line >= 2 &&
		                (size_t)r->apart_line - 2 < rows);
		row = (size_t)r->apart_line - 2;
		CU_ASSERT_EQUAL(cols[0][row], 16);
		CU_ASSERT_EQUAL(r->apart_at, 32);
		one[0] = 32;
		one[1] = cols[1][row];
		one[2] = cols[2][row];
		for (size_t m = 0; m < r->nmembers; m++) {
			double y = member_at(&r->board[r->members[m]], at);

			low = y < low ? y : low;
			high = y > high ? y : high;
		}
		CU_ASSERT(low > 0 && low <= high);
		CU_ASSERT_DOUBLE_EQUAL(r->apart_low, low, 1e-12 * low);
		CU_ASSERT_DOUBLE_EQUAL(r->apart_high, high, 1e-12 * high);
		next_arguments_are(r, one);
		sf_discover_result_free(r);
	}
	CU_ASSERT(seen > 0);
	for (int c = 0; c < 3; c++)
		free(cols[c]);
}

/*
 * The pace beyond the rows: times that halve from p = 1 to 4, then hardly
 * fall from 4 to 8 (contention), and a grammar of 1 / p alone, so that the
 * winner t0 + c / p keeps halving its variable part beyond p = 8: it
 * speeds up more than the two largest levels did, and the report says so.
 * With times that keep halving, it does not.
 */
static void
test_pace(void)
{
	static const char yaml[] =
	    "name: pace\ndata: {file: discover.csv, output: y}\n"
	    "inputs: {p: p, b: b}\n"
	    "discover: {exponents: [-1], logs: [0], max_terms: 1, "
	    "overlap: false}\n";
	static const char *const csv[2] = {
	    "p,b,y\n1,8,40\n1,16,41\n2,8,20.5\n2,16,21\n4,8,11\n4,16,11.5\n"
	    "8,8,10\n8,16,10.5\n",
	    "p,b,y\n1,8,40\n1,16,41\n2,8,20.5\n2,16,21\n4,8,10.5\n4,16,11\n"
	    "8,8,5.5\n8,16,5.75\n"};
	sf_discover_options o;

	sf_discover_options_init(&o);
	o.threads = 1;
	for (int k = 0; k < 2; k++) {
		fixture fx;
		sf_discover_result *r;

		CU_ASSERT_EQUAL_FATAL(fixture_open(&fx, yaml, csv[k]), 0);
		r = run(&fx, &o);
		CU_ASSERT_PTR_NOT_NULL_FATAL(r);
		/* the top level's median-time row and its b's row at p = 4 */
		CU_ASSERT(r->pace_line == 8 || r->pace_line == 9);
		CU_ASSERT(r->pace_measured > 0 && r->pace_beyond > 0);
		CU_ASSERT_EQUAL(r->pace_faster, k == 0);
		if (k == 0)
			CU_ASSERT(r->pace_measured > 0.85 &&
			          r->pace_beyond < 0.8);
		sf_discover_result_free(r);
		fixture_close(&fx);
	}
}

/* The search of fx's first model with given's formula (its model and
 * data set by the caller; compiled here: the caller frees it) scored
 * beside, for an ensemble of at most members (0: the default). */
static sf_discover_result *
search_given(fixture *fx, sf_problem *given, size_t members)
{
	sf_discover_options o;
	sf_discover_result *r = NULL;
	sf_error err;

	CU_ASSERT_EQUAL_FATAL(sf_formula_compile(given->model, given->data,
	                                         &given->formula, NULL, NULL,
	                                         &err),
	                      SF_OK);
	sf_discover_options_init(&o);
	o.threads = 1;
	o.members = members;
	CU_ASSERT_EQUAL(sf_discover_run(fx->set->models[0], &fx->set->discover,
	                                fx->data, given, 1, &o, &r, &err),
	                SF_OK);
	return r;
}

/* The search of the model yaml over csv, the model's own formula given
 * (given->formula compiled: the caller frees it). */
static sf_discover_result *
search_with_file(const char *yaml, const char *csv, fixture *fx,
                 sf_problem *given)
{
	CU_ASSERT_EQUAL_FATAL(fixture_open(fx, yaml, csv), 0);
	given->model = fx->set->models[0];
	given->data = fx->data;
	return search_given(fx, given, 0);
}

/* A search of the rows of test_selection's truth (1/p work plus a
 * per-sample cost growing as p^1.2, 1% noise) with the own formula of the
 * model file yaml scored beside: the result, or NULL; *fx and *given
 * (its formula compiled) are the caller's to close and free. */
static sf_discover_result *
given_search(const char *yaml, fixture *fx, sf_problem *given)
{
	truth t = {0, {"n / p", "n * p^1.2"}, {0.63, 0.27}};
	double *cols[3];
	sf_text csv = SF_TEXT_INIT;
	size_t rows;
	sf_discover_result *r;

	for (int c = 0; c < 3; c++)
		cols[c] = malloc(256 * sizeof **cols);
	simulate(&t, 0.01, 77, &csv, cols, &rows);
	r = search_with_file(yaml, csv.data, fx, given);
	sf_text_free(&csv);
	for (int c = 0; c < 3; c++)
		free(cols[c]);
	return r;
}

/*
 * The selection.  The time is 1/p work plus a per-sample cost growing as
 * p^1.2, an exponent the grid does not have; the model file's own formula
 * has that exact term and two more, p^2 and p^3, which follow the noise.
 * It fits the training rows as closely as the winner (its MAPE), but
 * fitted on the lower levels its extra terms bend away: forward chaining
 * sees that, and it is neither chosen nor tied.
 */
static void
test_selection(void)
{
	static const char yaml[] =
	    "name: poly\n"
	    "data: {output: y}\n"
	    "inputs: {p: p, b: b, n: n}\n"
	    "parameters:\n"
	    "  t0: {min: 0, max: 1e4}\n"
	    "  a: {min: 0, max: 100}\n"
	    "  c: {min: 0, max: 100}\n"
	    "  d: {min: -100, max: 100}\n"
	    "  e: {min: -100, max: 100}\n"
	    "time: t0 + a * n / p + c * n * p^1.2 + d * n * p^2 + e * n * "
	    "p^3\n";
	sf_problem given = {0};
	fixture fx;
	sf_discover_result *r = given_search(yaml, &fx, &given);
	size_t gi = SIZE_MAX;

	CU_ASSERT_PTR_NOT_NULL_FATAL(r);
	for (size_t i = 0; i < r->nboard; i++)
		if (r->board[i].model != NULL)
			gi = i;
	CU_ASSERT_NOT_EQUAL_FATAL(gi, SIZE_MAX);
	/* the model's formula fits the rows as closely as the winner ... */
	CU_ASSERT_TRUE(r->board[gi].mape <= r->board[r->winner].mape);
	/* ... extrapolates worse, and is not chosen */
	CU_ASSERT_TRUE(r->board[gi].score > r->board[r->winner].score);
	CU_ASSERT_TRUE(gi > r->winner);
	CU_ASSERT_FALSE(r->board[gi].tied);
	sf_discover_result_free(r);
	sf_formula_free(given.formula);
	fixture_close(&fx);
}

/*
 * The model file's formula in the answer.  The time is the one
 * test_selection simulates (a p^1.2 the grid does not have), and the file's
 * formula is that truth, written with a derived input and a helper term:
 * it extrapolates better than anything found and is tied (two of its
 * score's standard errors).  Searched again without the top level, the
 * search's choice predicts it worse than the truth does: the held-back
 * check gives the answer to the file's formula.  The ensemble's file
 * holds it as the file writes it (its derived input under its own
 * inputs:, its constants fitted), under its name ("d1", a discovered
 * formula's: the winner is not in the file), and loads.
 */
static void
test_given_member(void)
{
	static const char yaml[] =
	    "name: d1\n"
	    "data: {output: y}\n"
	    "inputs: {p: p, b: b, n: n, per: {derived: n / p}}\n"
	    "parameters:\n"
	    "  t0: {min: 0, max: 1e4}\n"
	    "  a: {min: 0, max: 100}\n"
	    "  c: {min: 0, max: 100}\n"
	    "  u: 1\n"
	    "terms:\n"
	    "  work: {expr: a * per * u, kind: compute}\n"
	    "  comm: {expr: c * n * p^1.2, kind: communication}\n"
	    "time: t0 + work + comm\n";
	sf_problem given = {0};
	sf_model_set *set = NULL;
	fixture fx;
	sf_error err;
	char *model = NULL;
	sf_discover_result *r = given_search(yaml, &fx, &given);

	CU_ASSERT_PTR_NOT_NULL_FATAL(r);
	CU_ASSERT_TRUE(r->held.refuted);
	CU_ASSERT_STRING_EQUAL(r->held.file, "d1");
	{
		const sf_discover_candidate *g = &r->board[r->members[0]];

		CU_ASSERT_PTR_NOT_NULL_FATAL(g->model);
		CU_ASSERT_STRING_EQUAL(g->model, "d1");
		CU_ASSERT_TRUE(g->tied);
		/* fitted on the training rows: the truth's start-up (100)
		 * and its 1% noise */
		CU_ASSERT_EQUAL_FATAL(g->given.nparams, 4);
		CU_ASSERT_DOUBLE_EQUAL(g->given.params[0].value, 100, 5);
		CU_ASSERT_TRUE(g->given.params[1].value > 0);
		CU_ASSERT_TRUE(g->given.params[2].value > 0);
		CU_ASSERT_TRUE(g->given.params[3].fixed);
		CU_ASSERT_TRUE(g->mape < 1.5);
		/* the truth scores best; its score's standard error is
		 * found as a found one's, and the tie is two of them */
		CU_ASSERT_TRUE(isfinite(g->se) && g->se > 0);
		CU_ASSERT_EQUAL(g->score, r->best_score);
		CU_ASSERT_TRUE(r->band >= 2 * g->se);
	}
	CU_ASSERT_EQUAL_FATAL(
	    sf_discover_model_text(r, r->winner, fx.set->models[0], "out.yaml",
	                           "sim.csv", &model, &err),
	    SF_OK);
	CU_ASSERT_PTR_NOT_NULL(strstr(model, "  - name: \"d1\"\n"));
	CU_ASSERT_PTR_NOT_NULL(
	    strstr(model, "    inputs:\n      per: {derived: \"n / p\"}\n"));
	CU_ASSERT_PTR_NOT_NULL(strstr(model, "      u: 1\n"));
	CU_ASSERT_PTR_NOT_NULL(
	    strstr(model, "    time: \"t0 + work + comm\"\n"));
	CU_ASSERT_EQUAL(sf_model_parse("out.yaml", model, strlen(model), &set,
	                               NULL, NULL, &err),
	                SF_OK);
	if (set != NULL) {
		CU_ASSERT_FALSE(set->ensemble);
		CU_ASSERT_STRING_EQUAL(set->models[0]->name, "d1");
	}
	sf_model_set_free(set);
	free(model);
	sf_discover_result_free(r);
	sf_formula_free(given.formula);
	fixture_close(&fx);
}

/* ElasticFlow's Inception-v3 at 1-8 GPUs (a global batch of 64 or 128,
 * datasets/elasticflow_a100). */
static const char inception3_csv[] = "p,b,y\n"
                                     "1,64,0.2074409990310669\n"
                                     "2,32,0.12209928226470947\n"
                                     "4,16,0.08551974201202393\n"
                                     "8,8,0.0746685037612915\n"
                                     "1,128,0.39027439022064214\n"
                                     "2,64,0.2146250286102295\n"
                                     "4,32,0.1281457748413086\n"
                                     "8,16,0.09213003826141358\n";

/* The generic data-parallel formula, as init writes it for p and b. */
static const char generic_yaml[] =
    "name: generic\n"
    "data: {output: y}\n"
    "inputs: {p: p, b: b}\n"
    "parameters:\n"
    "  a: {min: 0, max: 1}\n"
    "  c: {min: 0, max: 1}\n"
    "  l: {min: 0, max: 1}\n"
    "  w: {min: 0, max: 1}\n"
    "time: a + c * b + l * log2(p) + w * (p - 1) / p\n";

/*
 * A search that does not pay for itself.  ElasticFlow's ResNet-50 at 1-8
 * GPUs (a global batch of 64 or 128, datasets/elasticflow_a100), the
 * model file's formula init's generic one.  The found formulas score
 * about 1% on the folds against its 5.5%, but once each of their
 * constants pays for the hundreds of shapes it was chosen among, the
 * file's fits the twelve rows as well: it joins the ensemble, untied, and
 * no found formula with more constants than its four does but the
 * winner (at 64 GPUs, where the batch is 1 or 2, those with a term in
 * 1 / b predicted 3 to 8 times the time).
 */
static void
test_unpaid(void)
{
	sf_text yaml = SF_TEXT_INIT;
	sf_problem given = {0};
	sf_model_set *set = NULL;
	fixture fx;
	sf_discover_result *r;
	char *model = NULL;
	int file_member = 0;
	sf_error err;

	/* named as a found formula: the written ensemble tells them apart */
	sf_text_printf(&yaml, "name: d1\n%s", strchr(generic_yaml, '\n') + 1);
	r = search_with_file(yaml.data, resnet50_csv, &fx, &given);

	CU_ASSERT_PTR_NOT_NULL_FATAL(r);
	CU_ASSERT_EQUAL(r->unpaid, 4);
	/* searched on 1-4 GPUs, the search's choice predicted 8 better
	 * than the file's formula: its answer stands */
	CU_ASSERT_EQUAL(r->held.level, 8);
	CU_ASSERT_FALSE(r->held.refuted);
	for (size_t i = 0; i < r->nmembers; i++) {
		const sf_discover_candidate *c = &r->board[r->members[i]];

		if (c->model != NULL) {
			file_member = 1;
			CU_ASSERT_FALSE(c->tied);
		} else if (i > 0) {
			CU_ASSERT_TRUE(c->k <= 4);
		}
	}
	CU_ASSERT_TRUE(file_member);
	CU_ASSERT_EQUAL_FATAL(
	    sf_discover_model_text(r, r->winner, fx.set->models[0], "out.yaml",
	                           "rows.csv", &model, &err),
	    SF_OK);
	CU_ASSERT_PTR_NOT_NULL(strstr(model, "  - name: \"d1-2\"\n"));
	CU_ASSERT_PTR_NOT_NULL(strstr(model, "The search did not pay"));
	CU_ASSERT_EQUAL(sf_model_parse("out.yaml", model, strlen(model), &set,
	                               NULL, NULL, &err),
	                SF_OK);
	if (set != NULL)
		CU_ASSERT_STRING_EQUAL(set->models[0]->name, "d1");
	sf_model_set_free(set);
	free(model);
	sf_text_free(&yaml);
	sf_discover_result_free(r);
	sf_formula_free(given.formula);
	fixture_close(&fx);
}

/*
 * The held-back check refutes the search.  On ElasticFlow's Inception-v3
 * at 1-8 GPUs the found formulas score under 1% on the folds against the
 * generic formula's 5%, but searched again on 1-4 GPUs the search's
 * choice misses the rows at 8 by 12.9%, the generic formula (fitted on
 * the same rows) by 4.4%.  The answer is the model file's formula alone:
 * the written file holds it (no ensemble: true), and the winner, not in
 * it, is not refitted.  (At 16-64 GPUs init's formula missed by 1.95%, the
 * search's ensemble by 17.6%: bench/init_discover.py elasticflow.)
 */
static void
test_held_back(void)
{
	sf_problem given = {0};
	fixture fx;
	sf_discover_result *r =
	    search_with_file(generic_yaml, inception3_csv, &fx, &given);
	sf_model_set *set = NULL;
	char *text = NULL;
	sf_error err;

	CU_ASSERT_PTR_NOT_NULL_FATAL(r);
	CU_ASSERT_EQUAL(r->held.level, 8);
	CU_ASSERT_EQUAL(r->held.rows, 2);
	CU_ASSERT_STRING_EQUAL(r->held.file, "generic");
	CU_ASSERT_PTR_NOT_NULL(r->held.found);
	CU_ASSERT_TRUE(r->held.file_mape < r->held.found_mape);
	CU_ASSERT_TRUE(r->held.refuted);
	CU_ASSERT_EQUAL(r->nmembers, 1);
	CU_ASSERT_STRING_EQUAL(r->board[r->members[0]].model, "generic");
	CU_ASSERT_NOT_EQUAL(r->members[0], r->winner);
	CU_ASSERT_EQUAL_FATAL(
	    sf_discover_model_text(r, r->winner, fx.set->models[0], "out.yaml",
	                           "rows.csv", &text, &err),
	    SF_OK);
	CU_ASSERT_PTR_NOT_NULL(strstr(text, "The held-back check"));
	CU_ASSERT_EQUAL(sf_model_parse("out.yaml", text, strlen(text), &set,
	                               NULL, NULL, &err),
	                SF_OK);
	if (set != NULL) { /* the file's formula alone: no ensemble */
		CU_ASSERT_FALSE(set->ensemble);
		CU_ASSERT_EQUAL(set->count, 1);
		CU_ASSERT_STRING_EQUAL(set->models[0]->name, "generic");
	}
	CU_ASSERT_EQUAL(sf_discover_refit(r, r->winner, "out.yaml", text,
	                                  &(sf_discover_options){0}, NULL,
	                                  &err),
	                SF_OK);
	CU_ASSERT_FALSE(r->board[r->winner].refitted);
	sf_model_set_free(set);
	free(text);
	sf_discover_result_free(r);
	sf_formula_free(given.formula);
	fixture_close(&fx);

	/* on 1-4 GPUs the inner search would have two levels: no check */
	given = (sf_problem){0};
	r = search_with_file(generic_yaml,
	                     "p,b,y\n1,64,0.2074\n2,32,0.1221\n4,16,0.0855\n"
	                     "1,128,0.3903\n2,64,0.2146\n4,32,0.1281\n",
	                     &fx, &given);
	CU_ASSERT_PTR_NOT_NULL_FATAL(r);
	CU_ASSERT_TRUE(isnan(r->held.level));
	CU_ASSERT_PTR_NULL(r->held.file);
	CU_ASSERT_FALSE(r->held.refuted);
	CU_ASSERT_EQUAL(r->members[0], r->winner);
	sf_discover_result_free(r);
	sf_formula_free(given.formula);
	fixture_close(&fx);
}

/*
 * One fold judges a search of 3 levels: Gavel's LSTM language model on
 * V100s at 1, 2 and 4 GPUs (datasets/gavel_throughputs; its step time
 * triples at 4 and falls back at 8).  Among 75,000 formulas one fits the
 * jump at 4 from 1 and 2 within 0.5%, where init's generic formula misses
 * it by half: the generic one is not tied and pays for itself, yet it
 * joins the ensemble, first after the winner, and the file says why.
 * The two part ways fast beyond 4 GPUs (the winner's time climbs with the
 * jump, the generic one's barely moves): the ensemble's mixture shows
 * that, so the file's fit.prior.disagreement is 0; an ensemble of the
 * winner alone (--members 1) carries it instead.
 */
static void
test_one_fold(void)
{
	static const char csv[] = "p,b,y\n"
	                          "1,5,0.009160309451351925\n"
	                          "2,5,0.010768677282948117\n"
	                          "4,5,0.03156672319954303\n"
	                          "1,10,0.012247152197186239\n"
	                          "2,10,0.012260234224667264\n"
	                          "4,10,0.032927876044464004\n"
	                          "1,20,0.015445816223517237\n"
	                          "2,20,0.015131553594844431\n"
	                          "4,20,0.036037055506828695\n"
	                          "1,40,0.022105616787340486\n"
	                          "2,40,0.021835811502587996\n"
	                          "4,40,0.041653109807956966\n"
	                          "1,80,0.035410821231294506\n"
	                          "2,80,0.034428422248536025\n"
	                          "4,80,0.053470720280741166\n";
	sf_problem given = {0};
	fixture fx;
	sf_discover_result *r =
	    search_with_file(generic_yaml, csv, &fx, &given);
	char *text = NULL, line[64];
	double g;
	sf_error err;

	CU_ASSERT_PTR_NOT_NULL_FATAL(r);
	CU_ASSERT_EQUAL(r->nfolds, 1);
	CU_ASSERT_PTR_NULL(r->held.file); /* no check: 3 levels */
	CU_ASSERT_EQUAL(r->unpaid, 0);
	CU_ASSERT_TRUE(r->one_fold);
	CU_ASSERT_FATAL(r->nmembers >= 2);
	CU_ASSERT_EQUAL(r->members[0], r->winner);
	CU_ASSERT_PTR_NOT_NULL_FATAL(r->board[r->members[1]].model);
	CU_ASSERT_STRING_EQUAL(r->board[r->members[1]].model, "generic");
	CU_ASSERT_FALSE(r->board[r->members[1]].tied);
	CU_ASSERT_TRUE(r->board[r->members[1]].score >
	               10 * r->board[r->winner].score);
	CU_ASSERT_EQUAL_FATAL(
	    sf_discover_model_text(r, r->winner, fx.set->models[0], "out.yaml",
	                           "rows.csv", &text, &err),
	    SF_OK);
	CU_ASSERT_PTR_NOT_NULL(strstr(text, "One fold judged the search"));
	CU_ASSERT_EQUAL(r->disagreement_with, r->members[1]);
	CU_ASSERT_TRUE(r->disagreement_shown);
	CU_ASSERT(r->disagreement > 1); /* e^1 times per doubling and more */
	CU_ASSERT_PTR_NOT_NULL(
	    strstr(text, "  prior:\n    disagreement: 0  #"));
	free(text);
	g = r->disagreement;
	sf_discover_result_free(r);
	sf_formula_free(given.formula);
	r = search_given(&fx, &given, 1);
	CU_ASSERT_PTR_NOT_NULL_FATAL(r);
	CU_ASSERT_EQUAL(r->nmembers, 1);
	CU_ASSERT_FALSE(r->disagreement_shown);
	/* the same search, the members aside */
	CU_ASSERT_EQUAL(r->disagreement, g);
	CU_ASSERT_EQUAL_FATAL(
	    sf_discover_model_text(r, r->winner, fx.set->models[0], "out.yaml",
	                           "rows.csv", &text, &err),
	    SF_OK);
	snprintf(line, sizeof line, "    disagreement: %.4f  #", g);
	CU_ASSERT_PTR_NOT_NULL(strstr(text, line));
	free(text);
	sf_discover_result_free(r);
	sf_formula_free(given.formula);
	fixture_close(&fx);
}

/*
 * Contention that sets in at the top of the training rows
 * (bench/contention.py's runs at k = 0.2: a step's compute, a ring
 * all-reduce and 0.004 (p - 6)^1.5 above 6 workers, 3% noise; p = 1-8, b
 * = 16, 32, 64, three runs each).  The generic formula, fitted on every
 * level, misses the top one on the slow side (its regime check fires);
 * the found formulas bend to fit it.  The file discover writes carries
 * the generic formula's regime, to the hundredth of a percent, and says
 * why; the report says so too.
 */
static void
test_file_regime(void)
{
	sf_text csv = SF_TEXT_INIT;
	sf_problem given = {0};
	sf_discover_result *r;
	sf_rng rng;
	fixture fx;
	char *text = NULL, *report = NULL, line[64];
	sf_error err;

	sf_rng_seed(&rng, 20261128, 3);
	sf_text_printf(&csv, "p,b,y\n");
	for (int p = 1; p <= 8; p++)
		for (int b = 16; b <= 64; b *= 2)
			for (int k = 0; k < 3; k++)
				sf_text_printf(
				    &csv, "%d,%d,%.17g\n", p, b,
				    (0.01 + 0.002 * b + 0.03 * (p - 1) / p +
				     0.004 * log2(p) +
				     (p > 6 ? 0.004 * pow(p - 6, 1.5) : 0)) *
				        exp(sf_rng_normal(&rng, 0, 0.03)));
	r = search_with_file(generic_yaml, csv.data, &fx, &given);
	sf_text_free(&csv);
	CU_ASSERT_PTR_NOT_NULL_FATAL(r);
	CU_ASSERT_FATAL(r->regime_with < r->nboard);
	CU_ASSERT_STRING_EQUAL(r->board[r->regime_with].model, "generic");
	/* the held-back check's choice came out short of the top level too,
	 * by as much within its noise: the file's formula's miss stands */
	CU_ASSERT_FATAL(isfinite(r->held.level));
	CU_ASSERT(r->held.found_slow > 0.2);
	CU_ASSERT(!r->regime_bounded);
	CU_ASSERT(r->regime > 0.4);
	CU_ASSERT_EQUAL_FATAL(
	    sf_discover_model_text(r, r->winner, fx.set->models[0], "out.yaml",
	                           "rows.csv", &text, &err),
	    SF_OK);
	snprintf(line, sizeof line, "\n    regime: %.4f  # the largest",
	         r->regime);
	CU_ASSERT_PTR_NOT_NULL(strstr(text, line));
	report = sf_discover_report_text(fx.set->models[0], "rows.csv", r,
	                                 "out.yaml");
	CU_ASSERT_PTR_NOT_NULL_FATAL(report);
	CU_ASSERT_PTR_NOT_NULL(strstr(report, "above its refit on the levels"));
	CU_ASSERT_PTR_NOT_NULL(strstr(report, "fit.prior.regime, which"));
	free(report);
	free(text);
	sf_discover_result_free(r);
	sf_formula_free(given.formula);
	fixture_close(&fx);
}

/* Rows of generic_yaml's formula at p = 1-8, b = 16, 32, 64, 3 repeats,
 * with contention k (p - 6)^1.5 above 6 workers, 3% noise from seed. */
static void
contention_rows(double k, uint64_t seed, sf_text *csv)
{
	sf_rng rng;

	sf_rng_seed(&rng, seed, 3);
	sf_text_printf(csv, "p,b,y\n");
	for (int p = 1; p <= 8; p++)
		for (int b = 16; b <= 64; b *= 2)
			for (int r = 0; r < 3; r++)
				sf_text_printf(
				    csv, "%d,%d,%.17g\n", p, b,
				    (0.01 + 0.002 * b + 0.03 * (p - 1) / p +
				     0.004 * log2(p) +
				     (p > 6 ? k * pow(p - 6, 1.5) : 0)) *
				        exp(sf_rng_normal(&rng, 0, 0.03)));
}

/* The regime check of generic_yaml's formula on contention_rows(k, seed)
 * under a prior with the formulas' disagreement (< 0: none known). */
static double
regime_under(double k, uint64_t seed, double disagreement)
{
	sf_text csv = SF_TEXT_INIT;
	sf_problem given = {0};
	sf_discover_options o;
	fixture fx;
	double regime = NAN;
	sf_error err;

	contention_rows(k, seed, &csv);
	CU_ASSERT_EQUAL_FATAL(fixture_open(&fx, generic_yaml, csv.data), 0);
	sf_text_free(&csv);
	given.model = fx.set->models[0];
	given.data = fx.data;
	CU_ASSERT_EQUAL_FATAL(sf_formula_compile(given.model, given.data,
	                                         &given.formula, NULL, NULL,
	                                         &err),
	                      SF_OK);
	sf_discover_options_init(&o);
	o.threads = 1;
	CU_ASSERT_EQUAL(
	    sf_given_regime(&given, &o, "p", disagreement, &regime, &err),
	    SF_OK);
	sf_formula_free(given.formula);
	fixture_close(&fx);
	return regime;
}

/*
 * The file's formula's regime check runs under the prior of the file
 * discover writes: where the found formulas and the file's agree beyond
 * the rows (a disagreement of 0 written), the model error they leave is
 * the agreed scale's, smaller than the corpus's, so a top cut that misses
 * on the slow side stands out sooner.  Contention of 0.002 (p - 6)^1.5
 * (bench/contention.py's k = 0.1: 1-5% at 7 and 8 workers): the check
 * fires in 33 of 40 seeds under the written prior, 13 under the model
 * file's; without contention in 5 of 200 (0 of 200): about the one-sided
 * 5% it is set at.  And discover carries the written prior's check.
 */
static void
test_regime_prior(void)
{
	int fired = 0, fired_file = 0, false_alarms = 0;
	sf_text csv = SF_TEXT_INIT;
	sf_problem given = {0};
	sf_discover_result *r;
	fixture fx;

	for (uint64_t seed = 1; seed <= 40; seed++) {
		fired += isfinite(regime_under(0.002, seed, 0));
		fired_file += isfinite(regime_under(0.002, seed, -1));
	}
	CU_ASSERT(fired >= 30);
	CU_ASSERT(fired_file <= 20);
	for (uint64_t seed = 1; seed <= 200; seed++)
		false_alarms += isfinite(regime_under(0, seed, 0));
	CU_ASSERT(false_alarms <= 10);
	/* seed 3: the written prior's check fires, the model file's not */
	contention_rows(0.002, 3, &csv);
	r = search_with_file(generic_yaml, csv.data, &fx, &given);
	sf_text_free(&csv);
	CU_ASSERT_PTR_NOT_NULL_FATAL(r);
	CU_ASSERT_EQUAL(sf_discover_written_disagreement(r), 0);
	CU_ASSERT(isnan(regime_under(0.002, 3, -1)));
	CU_ASSERT_FATAL(r->regime_with < r->nboard);
	CU_ASSERT(!r->regime_bounded);
	CU_ASSERT_DOUBLE_EQUAL(r->regime, regime_under(0.002, 3, 0), 1e-12);
	CU_ASSERT(r->regime > 0.15);
	sf_discover_result_free(r);
	sf_formula_free(given.formula);
	fixture_close(&fx);
}

static const char steps_yaml[] =
    "name: generic\n"
    "data: {output: y}\n"
    "inputs: {p: p, b: b, n: n}\n"
    "parameters:\n"
    "  a: {min: 0, max: 1}\n"
    "  c: {min: 0, max: 1}\n"
    "  l: {min: 0, max: 1}\n"
    "  w: {min: 0, max: 1}\n"
    "terms: {steps: n / (p * b)}\n"
    "time: steps * (a + c * b + l * log2(p) + w * (p - 1) / p)\n";

/*
 * Whole runs whose steps are whole, max(1, floor(n / (p b))), and a model
 * file whose formula takes n / (p b): at 4-8 workers and 256 samples a
 * run takes 1 step where the file's formula has a fraction of one, so its
 * refit on the levels below misses the top level on the slow side and
 * its regime check fires (about +90% per doubling) with no change of
 * regime in the runs.  The search without the top level takes the whole
 * steps and predicts that level better (the held-back check holds): the
 * regime carried is at most its own miss there and that mean's noise, a
 * tenth of the file formula's (measured: 17 of 20 seeds carry one, 0.02
 * to 0.21 per doubling).
 */
static void
test_regime_bounded(void)
{
	int fired = 0, carried = 0;
	double sum = 0;

	for (uint64_t seed = 1; seed <= 20; seed++) {
		sf_text csv = SF_TEXT_INIT;
		sf_problem given = {0};
		sf_discover_options o;
		sf_discover_result *r;
		sf_rng rng;
		fixture fx;
		double file = NAN;
		sf_error err;

		sf_rng_seed(&rng, seed, 5);
		sf_text_printf(&csv, "p,b,n,y\n");
		for (int p = 1; p <= 8; p++)
			for (int b = 16; b <= 64; b *= 2)
				for (int n = 256; n <= 4096; n *= 4)
					for (int k = 0; k < 2; k++) {
						double s = floor(n / (p * b));

						sf_text_printf(
						    &csv, "%d,%d,%d,%.17g\n", p,
						    b, n,
						    (s > 1 ? s : 1) *
						        (0.01 + 0.002 * b +
						         0.03 * (p - 1) / p +
						         0.004 * log2(p)) *
						        exp(sf_rng_normal(
						            &rng, 0, 0.03)));
					}
		r = search_with_file(steps_yaml, csv.data, &fx, &given);
		sf_text_free(&csv);
		CU_ASSERT_PTR_NOT_NULL_FATAL(r);
		sf_discover_options_init(&o);
		o.threads = 1;
		CU_ASSERT_EQUAL(
		    sf_given_regime(&given, &o, "p",
		                    sf_discover_written_disagreement(r), &file,
		                    &err),
		    SF_OK);
		fired += file > 0.5;
		CU_ASSERT(isfinite(r->held.level));
		if (r->regime_with != SIZE_MAX) {
			carried++;
			CU_ASSERT(r->regime_bounded);
			CU_ASSERT(r->regime < 0.25);
			sum += r->regime;
		}
		sf_discover_result_free(r);
		sf_formula_free(given.formula);
		fixture_close(&fx);
	}
	CU_ASSERT(fired >= 18);
	/* measured: 17 carried, 0.02 to 0.21, mean 0.09 */
	CU_ASSERT(carried > 0 && sum / carried < 0.15);
}

/*
 * A formula of a models: file whose member has an input of its own (t
 * here, as gpu-upgrade.yaml's replicate-kepler has cpu_threads) is
 * scored, but never joins the ensemble, whose inputs are the searched
 * model's: not even where the search does not pay for itself (the rows
 * of test_unpaid, where the same formula without t joins).
 */
static void
test_foreign(void)
{
	static const char yaml[] =
	    "data: {output: y}\n"
	    "inputs: {p: p, b: b}\n"
	    "models:\n"
	    "  - name: generic\n"
	    "    parameters: {a: {min: 0, max: 1}, c: {min: 0, max: 1}}\n"
	    "    time: a + c * b\n"
	    "  - name: threads\n"
	    "    inputs: {t: t}\n"
	    "    parameters: {a: {min: 0, max: 1}, c: {min: 0, max: 1}, "
	    "l: {min: 0, max: 1}, w: {min: 0, max: 1}}\n"
	    "    time: a + c * b * t + l * log2(p) + w * (p - 1) / p\n";
	sf_text csv = SF_TEXT_INIT;
	sf_problem given = {0};
	sf_dataset *own = NULL;
	fixture fx;
	sf_discover_result *r = NULL;
	sf_error err;
	size_t gi = SIZE_MAX;

	/* the rows of test_unpaid with a column t of ones */
	for (const char *c = resnet50_csv; *c != '\0'; c++)
		if (*c == '\n')
			sf_text_printf(&csv, c == strchr(resnet50_csv, '\n')
			                         ? ",t\n"
			                         : ",1\n");
		else
			sf_text_printf(&csv, "%c", *c);
	CU_ASSERT_EQUAL_FATAL(fixture_open(&fx, yaml, csv.data), 0);
	CU_ASSERT_EQUAL_FATAL(sf_dataset_bind(fx.set->models[1], fx.table, 1,
	                                      &own, NULL, NULL, &err),
	                      SF_OK);
	given.model = fx.set->models[1];
	given.data = own;
	r = search_given(&fx, &given, 0);
	CU_ASSERT_PTR_NOT_NULL_FATAL(r);
	for (size_t i = 0; i < r->nboard; i++)
		if (r->board[i].model != NULL)
			gi = i;
	CU_ASSERT_TRUE_FATAL(gi != SIZE_MAX);
	CU_ASSERT_TRUE(r->board[gi].foreign);
	CU_ASSERT_TRUE(isfinite(r->board[gi].aicc));
	CU_ASSERT_EQUAL(r->unpaid, 0);
	for (size_t i = 0; i < r->nmembers; i++)
		CU_ASSERT_NOT_EQUAL(r->members[i], gi);
	sf_discover_result_free(r);
	sf_formula_free(given.formula);
	sf_dataset_free(own);
	sf_text_free(&csv);
	fixture_close(&fx);
}

/*
 * The winner's model file: it loads as a model, names its terms with
 * kinds, keeps p for --train, and the pipeline's fit of it (refit) gives
 * the search's constants, none at an upper bound.
 */
static void
test_model_file(void)
{
	double *cols[3];
	sf_text csv = SF_TEXT_INIT;
	size_t rows;
	truth t = {0, {"n / p", "n * log2(p) / (p * b)", "n"}, {0.4, 0.3, 0.2}};
	sf_discover_options o;
	sf_discover_result *r;
	sf_model_set *set = NULL;
	sf_fit_result *fit = NULL;
	fixture fx;
	sf_error err;
	char *model = NULL, path[4096];
	FILE *f;

	for (int c = 0; c < 3; c++)
		cols[c] = malloc(256 * sizeof **cols);
	simulate(&t, 0.02, 5, &csv, cols, &rows);
	/* the refit reads the data from the file the model names */
	snprintf(path, sizeof path, "%s/scalefit-discover-%d.csv",
	         getenv("TMPDIR") != NULL ? getenv("TMPDIR") : "/tmp",
	         (int)getpid());
	f = fopen(path, "w");
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	fputs(csv.data, f);
	fclose(f);
	CU_ASSERT_EQUAL_FATAL(fixture_open(&fx,
	                                   "name: sim\n"
	                                   "data: {output: y}\n"
	                                   "inputs: {p: p, b: b, n: n}\n",
	                                   csv.data),
	                      0);
	sf_discover_options_init(&o);
	o.threads = 1;
	o.train = "p <= 12";
	r = run(&fx, &o);
	CU_ASSERT_PTR_NOT_NULL_FATAL(r);
	CU_ASSERT_EQUAL(r->held_out, 20);
	CU_ASSERT_EQUAL(sf_discover_model_text(r, r->winner, fx.set->models[0],
	                                       "out.yaml", path, &model, &err),
	                SF_OK);
	CU_ASSERT_PTR_NOT_NULL_FATAL(model);
	CU_ASSERT_PTR_NOT_NULL(strstr(model, "kind: \"compute\"}"));
	CU_ASSERT_PTR_NOT_NULL(strstr(model, "kind: \"communication\"}"));
	CU_ASSERT_PTR_NOT_NULL(strstr(model, "kind: \"io\"}"));
	CU_ASSERT_PTR_NOT_NULL(strstr(model, "  p: \"p\"\n"));
	CU_ASSERT_EQUAL(sf_model_parse("out.yaml", model, strlen(model), &set,
	                               NULL, NULL, &err),
	                SF_OK);
	sf_model_set_free(set);
	{
		sf_discover_candidate before = r->board[r->winner];
		double values[16];
		size_t nv = 0;

		for (size_t i = 0; i < before.nterms; i++)
			values[nv++] = before.terms[i].value[0];
		CU_ASSERT_EQUAL_FATAL(sf_discover_refit(r, r->winner,
		                                        "out.yaml", model, &o,
		                                        &fit, &err),
		                      SF_OK);
		CU_ASSERT_TRUE(r->board[r->winner].refitted);
		nv = 0;
		for (size_t i = 0; i < before.nterms; i++) {
			const sf_discover_term *x =
			    &r->board[r->winner].terms[i];
			double v = values[nv++];
			CU_ASSERT_DOUBLE_EQUAL(x->value[0], v,
			                       1e-6 * fabs(v) + 1e-12);
			CU_ASSERT_TRUE(x->value[0] < x->upper[0] / 5);
		}
		for (size_t j = 0; j < fit->nparams; j++)
			CU_ASSERT_NOT_EQUAL(fit->at_bound[j], 2);
	}
	sf_fit_result_free(fit);
	free(model);
	sf_discover_result_free(r);
	fixture_close(&fx);
	remove(path);
	sf_text_free(&csv);
	for (int c = 0; c < 3; c++)
		free(cols[c]);
}

/* The rows of p in {1, 2, 3, 4, 6, 8, 12, 16}, x in xs, n = 64 p it for
 * it in {50, 200}, and the time y(p, x, n) with 1% noise, as CSV with the
 * columns p, x (named xname), n and y. */
static void
simulate_with(const char *xname, const double *xs, size_t nx,
              double (*y)(double p, double x, double n), uint64_t seed,
              sf_text *csv)
{
	sf_rng rng;

	sf_rng_seed(&rng, seed, 7);
	sf_text_printf(csv, "p,%s,n,y\n", xname);
	for (size_t a = 0; a < 8; a++)
		for (size_t i = 0; i < nx; i++)
			for (size_t k = 0; k < 2; k++) {
				double p = design_p[a], x = xs[i];
				double n = 64 * p * design_it[k];
				sf_text_printf(
				    csv, "%.17g,%.17g,%.17g,%.17g\n", p, x, n,
				    y(p, x, n) *
				        (1 + sf_rng_normal(&rng, 0, 0.01)));
			}
}

static double
power_time(double p, double b, double n)
{
	(void)b;
	return 100 + 0.05 * n * pow(p, -0.8);
}

static double
overlap_time(double p, double t, double n)
{
	double gpu = 0.05 * n / p, cpu = 0.4 * n / (p * t);
	return 100 + (gpu > cpu ? gpu : cpu);
}

/* An input pipeline on t threads hidden behind an all-reduce that grows
 * with log2(p): an overlap of a communication and a compute shape. */
static double
overlap_comm_time(double p, double t, double n)
{
	double comm = 0.02 * n * log2(p) / p, cpu = 0.4 * n / (p * t);
	return 100 + (comm > cpu ? comm : cpu);
}

/* What a variant's test simulates and expects. */
typedef struct variant_case {
	const char *xname;                         /* the second input */
	const double *xs;                          /* its 5 values */
	double (*y)(double p, double x, double n); /* the time */
	uint64_t seed;
	const char *model; /* the model file */
	const char *expr;  /* the winner's non-linear term */
	double v0, v1;     /* its constants, when not NaN */
} variant_case;

/* The winner of vc's simulated rows has the one term vc->expr besides
 * the start-up, with constants vc->v0 and vc->v1 when they are given. */
static void
variant_found(const variant_case *vc)
{
	sf_text csv = SF_TEXT_INIT;
	sf_discover_options o;
	sf_discover_result *r;
	const sf_discover_candidate *w;
	fixture fx;

	sf_discover_options_init(&o);
	o.threads = 1;
	simulate_with(vc->xname, vc->xs, 5, vc->y, vc->seed, &csv);
	CU_ASSERT_EQUAL_FATAL(fixture_open(&fx, vc->model, csv.data), 0);
	r = run(&fx, &o);
	CU_ASSERT_PTR_NOT_NULL_FATAL(r);
	w = &r->board[r->winner];
	CU_ASSERT_EQUAL_FATAL(w->nterms, 2);
	CU_ASSERT_EQUAL(w->terms[1].nparams, 2);
	CU_ASSERT_STRING_EQUAL(w->terms[1].expr, vc->expr);
	if (!isnan(vc->v0))
		CU_ASSERT_DOUBLE_EQUAL(w->terms[1].value[0], vc->v0, 0.002);
	if (!isnan(vc->v1))
		CU_ASSERT_DOUBLE_EQUAL(w->terms[1].value[1], vc->v1, 0.02);
	sf_discover_result_free(r);
	fixture_close(&fx);
	sf_text_free(&csv);
}

/*
 * The non-linear variants.  A time n p^-0.8 (an exponent the grid lacks)
 * is found with continuous: true as one term whose exponent is fitted to
 * -0.8; a time max(0.05 n / p, 0.4 n / (p t)) (the GPU or the input
 * pipeline on t threads, whichever is slower) as the overlap of those two
 * terms, with both constants; each constant named by the kind of its
 * shape (an overlap of an all-reduce and a pipeline: c_comm, h_compute).
 */
static void
test_variants(void)
{
	static const double b[] = {8, 16, 32, 64, 128};
	static const double t[] = {2, 4, 8, 16, 32};
	static const char *const pt = "data: {output: y}\n"
	                              "inputs: {p: p, t: t, n: n}\n";
	const variant_case cases[] = {
	    {"b", b, power_time, 11,
	     "data: {output: y}\n"
	     "inputs: {p: p, b: b, n: n}\n"
	     "discover: {continuous: true}\n",
	     "c_compute * n * p^e_compute", 0.05, -0.8},
	    {"t", t, overlap_time, 12, pt,
	     "max(c_compute * n / p, h_compute * n / (p * t))", 0.05, 0.4},
	    {"t", t, overlap_comm_time, 13, pt,
	     "max(c_comm * n * log2(p) / p, h_compute * n / (p * t))", NAN,
	     NAN},
	};

	for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++)
		variant_found(&cases[k]);
}

/* Texts a model file may hold that YAML would read otherwise. */
static const char *const hostile[] = {
    "x\nwhere: p > 1", "a: b", "[x",          "*x", "#x", "&x", "x #y",
    "esc\x1b[1m",      "q\"q", "back\\slash",
};

/* 1 when text has a byte the model loader refuses in a name or a file
 * (control characters). */
static int
has_control(const char *text)
{
	for (const unsigned char *c = (const unsigned char *)text; *c; c++)
		if (*c < 0x20 || *c == 0x7f)
			return 1;
	return 0;
}

/*
 * The winner's model file of a model whose name, data.where (a string
 * in it) and data file hold hostile text: it loads back with the same
 * name, where and file, nothing else becoming YAML.  The loader refuses
 * control characters in a name or a file name, so those take the other
 * texts; the where takes every one.
 */
static void
test_hostile_model_file(void)
{
	static const char *const csv = "p,b,n,tag,y\n"
	                               "1,16,160,a,10\n"
	                               "1,32,640,a,12\n"
	                               "2,16,320,a,9\n"
	                               "2,32,1280,a,11\n"
	                               "4,16,640,a,8\n"
	                               "4,32,2560,a,10\n"
	                               "8,16,1280,a,7\n"
	                               "8,32,5120,a,9\n";

	for (size_t i = 0; i < sizeof hostile / sizeof hostile[0]; i++) {
		const char *h = hostile[i];
		const char *name = has_control(h) ? "plain" : h;
		sf_text where = SF_TEXT_INIT, src = SF_TEXT_INIT;
		sf_text want = SF_TEXT_INIT, file = SF_TEXT_INIT;
		sf_yaml_out y;
		sf_discover_options o;
		sf_discover_result *r;
		sf_model_set *set = NULL;
		const sf_model *m;
		char *model = NULL;
		sf_error err;
		fixture fx;

		sf_text_puts(&where, "p > 0 || tag == '");
		for (const char *c = h; *c != '\0'; c++) {
			if (*c == '\'')
				sf_text_putc(&where, '\'');
			sf_text_putc(&where, *c);
		}
		sf_text_puts(&where, "'");
		sf_yaml_out_init(&y, &src);
		sf_yaml_out_pair(&y, "name", name, NULL);
		sf_yaml_out_map(&y, "data");
		sf_yaml_out_pair(&y, "output", "y", NULL);
		sf_yaml_out_pair(&y, "where", where.data, NULL);
		sf_yaml_out_end(&y, NULL);
		sf_text_puts(&src, "inputs: {p: p, b: b, n: n}\n");
		CU_ASSERT_EQUAL_FATAL(fixture_open(&fx, src.data, csv), 0);
		sf_discover_options_init(&o);
		o.threads = 1;
		o.max_terms = 2;
		r = run(&fx, &o);
		CU_ASSERT_PTR_NOT_NULL_FATAL(r);
		sf_text_printf(&file, "runs %s.csv", name);
		CU_ASSERT_EQUAL(
		    sf_discover_model_text(r, r->winner, fx.set->models[0],
		                           "out.yaml", file.data, &model, &err),
		    SF_OK);
		CU_ASSERT_PTR_NOT_NULL_FATAL(model);
		if (sf_model_parse("out.yaml", model, strlen(model), &set, NULL,
		                   NULL, &err) != SF_OK)
			fprintf(stderr, "\n%s\n%s\n", err.message, model);
		CU_ASSERT_PTR_NOT_NULL_FATAL(set);
		m = set->models[0];
		sf_text_printf(&want, "%s-discovered", name);
		CU_ASSERT_EQUAL(set->count, 1);
		CU_ASSERT_STRING_EQUAL(m->name, want.data);
		CU_ASSERT_PTR_NOT_NULL_FATAL(m->where.text);
		CU_ASSERT_STRING_EQUAL(m->where.text, where.data);
		CU_ASSERT_PTR_NOT_NULL_FATAL(m->data_file_at.text);
		CU_ASSERT_STRING_EQUAL(m->data_file_at.text, file.data);
		CU_ASSERT_STRING_EQUAL(m->output.text, "y");
		sf_model_set_free(set);
		free(model);
		sf_discover_result_free(r);
		fixture_close(&fx);
		sf_text_free(&where);
		sf_text_free(&src);
		sf_text_free(&want);
		sf_text_free(&file);
	}
}

/* Inputs named as discover names its constants (t0, c_compute): the
 * constants take a '_' until they are names of their own, so the written
 * model loads (it was refused: "'t0' is both an input and a parameter"). */
static void
test_input_names(void)
{
	static const char *const csv = "p,b,n,y\n"
	                               "1,16,160,10\n"
	                               "1,32,640,12\n"
	                               "2,16,320,9\n"
	                               "2,32,1280,11\n"
	                               "4,16,640,8\n"
	                               "4,32,2560,10\n"
	                               "8,16,1280,7\n"
	                               "8,32,5120,9\n";
	sf_discover_options o;
	sf_discover_result *r;
	sf_model_set *set = NULL;
	char *model = NULL;
	sf_error err;
	fixture fx;

	CU_ASSERT_EQUAL_FATAL(
	    fixture_open(&fx,
	                 "data: {output: y}\n"
	                 "inputs: {t0: p, c_compute: b, n: n}\n"
	                 "discover: {extrapolate: t0}\n",
	                 csv),
	    0);
	sf_discover_options_init(&o);
	o.threads = 1;
	o.max_terms = 2;
	r = run(&fx, &o);
	CU_ASSERT_PTR_NOT_NULL_FATAL(r);
	for (size_t i = 0; i < r->nboard; i++)
		for (size_t t = 0; t < r->board[i].nterms; t++)
			for (size_t q = 0; q < r->board[i].terms[t].nparams;
			     q++) {
				const char *c = r->board[i].terms[t].param[q];

				CU_ASSERT(strcmp(c, "t0") != 0 &&
				          strcmp(c, "c_compute") != 0 &&
				          strcmp(c, "n") != 0);
			}
	CU_ASSERT_STRING_EQUAL(r->board[r->winner].terms[0].param[0], "t0_");
	CU_ASSERT_EQUAL(sf_discover_model_text(r, r->winner, fx.set->models[0],
	                                       "out.yaml", "runs.csv", &model,
	                                       &err),
	                SF_OK);
	CU_ASSERT_PTR_NOT_NULL_FATAL(model);
	if (sf_model_parse("out.yaml", model, strlen(model), &set, NULL, NULL,
	                   &err) != SF_OK)
		fprintf(stderr, "\n%s\n%s\n", err.message, model);
	CU_ASSERT_PTR_NOT_NULL(set);
	sf_model_set_free(set);
	free(model);
	sf_discover_result_free(r);
	fixture_close(&fx);
}

/* A search stops adding formulas at its budget or its time limit. */
static void
test_stop(void)
{
	sf_setup st = {0};

	st.budget = 10;
	sf_clock_now(&st.start);
	CU_ASSERT_EQUAL(sf_setup_stop(&st, 9), 0);
	CU_ASSERT_EQUAL(sf_setup_stop(&st, 10), SF_DISCOVER_STOP_BUDGET);
	st.time_limit = 3600;
	CU_ASSERT_EQUAL(sf_setup_stop(&st, 9), 0);
	st.time_limit = 1e-9; /* already past */
	CU_ASSERT_EQUAL(sf_setup_stop(&st, 9), SF_DISCOVER_STOP_TIME);
	CU_ASSERT_EQUAL(sf_setup_stop(&st, 10), SF_DISCOVER_STOP_BUDGET);
}

/* The search asks sf_setup_stop before each formula it adds: a budget
 * and a time limit already past both stop it early, and it says which. */
static void
test_search_stops(void)
{
	sf_discover_options o;
	sf_discover_result *all, *r;
	fixture fx;

	CU_ASSERT_EQUAL_FATAL(fixture_open(&fx,
	                                   "data: {output: y}\n"
	                                   "inputs: {p: p, b: b, n: n}\n",
	                                   grammar_csv),
	                      0);
	sf_discover_options_init(&o);
	o.threads = 1;
	all = run(&fx, &o);
	CU_ASSERT_PTR_NOT_NULL_FATAL(all);
	CU_ASSERT_FALSE(all->budget_reached || all->time_limit_reached);
	o.budget = all->evaluated / 2;
	r = run(&fx, &o);
	CU_ASSERT_PTR_NOT_NULL_FATAL(r);
	CU_ASSERT(r->budget_reached && !r->time_limit_reached);
	CU_ASSERT(r->evaluated < all->evaluated);
	sf_discover_result_free(r);
	o.budget = 0;
	o.fit.time_limit = 1e-9;
	r = run(&fx, &o);
	CU_ASSERT_PTR_NOT_NULL_FATAL(r);
	CU_ASSERT(r->time_limit_reached && !r->budget_reached);
	CU_ASSERT(r->evaluated < all->evaluated);
	sf_discover_result_free(r);
	sf_discover_result_free(all);
	fixture_close(&fx);
}

int
main(void)
{
	static CU_TestInfo tests[] = {
	    {"grammar: shapes of small grids", test_grammar},
	    {"grammar: the shapes too steep, counted", test_too_steep},
	    {"errors: names, levels, --train", test_errors},
	    {"the budget and the time limit stop a search", test_stop},
	    {"a search stops early at its budget or time limit",
	     test_search_stops},
	    {"selection: best in sample, worse beyond, not chosen",
	     test_selection},
	    {"twins: one of two formulas that fit alike", test_twins},
	    {"a hardware speed: the file carries it where it has the input",
	     test_hardware_file},
	    {"Occam's window: no member is another plus terms", test_occam},
	    {"a search that does not pay: the file's formula joins",
	     test_unpaid},
	    {"the held-back check: the file's formula predicts the top "
	     "level better",
	     test_held_back},
	    {"one fold: the file's formula joins, tied or not", test_one_fold},
	    {"the file's formula's regime: the file carries it",
	     test_file_regime},
	    {"the file's formula's regime bounded by the held-back search",
	     test_regime_bounded},
	    {"the regime check under the written file's prior",
	     test_regime_prior},
	    {"a member's own input: scored, never in the ensemble",
	     test_foreign},
	    {"the model file's tied formula joins the ensemble",
	     test_given_member},
	    {"the same board on 1 and 3 threads", test_threads},
	    {"the winner's model file and its refit", test_model_file},
	    {"hostile names and texts: the model file reads back",
	     test_hostile_model_file},
	    {"variants: a fitted exponent, an overlap", test_variants},
	    {"recovery: 20 of 22 simulated formulas", test_recovery},
	    {"recovery: whole steps, 6 of 7", test_recovery_steps},
	    {"whole steps rounded down: the model file reads back",
	     test_floor_file},
	    {"how far the ensemble parts beyond the rows", test_members_apart},
	    {"the pace beyond the rows against the measured", test_pace},
	    {"inputs named as the constants", test_input_names},
	    CU_TEST_INFO_NULL,
	};
	static CU_SuiteInfo suites[] = {
	    {"discover", NULL, NULL, NULL, NULL, tests},
	    CU_SUITE_INFO_NULL,
	};

	gsl_set_error_handler_off();
	return sf_test_main(suites);
}
