/*
 * test_roundtrip.c - a fit written as its JSON report (use/report.c) and
 * read back as a FIT file (use/fitfile.c, what predict and scale read)
 * must be the same fit: every fitted parameter, its bounds and place among
 * the model's parameters, the covariance (NaN where a parameter sits at a
 * bound), the residual degrees of freedom, the inputs with their columns,
 * levels and ranges, the formula and its terms with their kinds, the
 * measured rows and the bootstrap replicates, doubles bit for bit; and the
 * read file predicts what the fit in memory does, to the bit.
 *
 * The fit: tests/data/roundtrip/runs.csv (twelve runs, cpu and gpu),
 * time = a + s total + if(k == 'gpu', g, 0) with total = compute + comm,
 * compute = b n / p^e and comm = d log2(p) (kinds: compute, guessed
 * communication, overhead); s = 2 and d = 1/4 are fixed.
 * The gpu rows are faster than the formula, so g stays at its lower
 * bound 0; e is searched, a, b and g are solved separably.
 */
#include "fit/fit.h"
#include "fit/resample.h"
#include "fit/stats.h"
#include "use/fitfile.h"
#include "use/predict.h"
#include "use/report.h"
#include "testing.h"

#include <gsl/gsl_errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char model_yaml[] =
    "name: roundtrip\n"
    "description: report to fit file\n"
    "data:\n"
    "  file: runs.csv\n"
    "  output: t\n"
    "inputs:\n"
    "  p: p\n"
    "  n: n\n"
    "  k: kind\n"
    "parameters:\n"
    "  a: {min: 0, max: 5}\n"
    "  s: 2\n"
    "  b: {min: 0, max: 2}\n"
    "  e: {min: 0.5, max: 1.5}\n"
    "  d: {value: 0.25}\n"
    "  g: {min: 0, max: 1}\n"
    "terms:\n"
    "  compute: {expr: b * n / p^e, kind: compute}\n"
    "  comm: d * log2(p)\n"
    "  total: {expr: compute + comm, kind: overhead}\n"
    "time: a + s * total + if(k == 'gpu', g, 0)\n"
    "fit: {loss: relative, optimizer: {seed: 11}}\n";

/* Same double, bit for bit; or both NaN (null in JSON has no payload). */
static int
same(double a, double b)
{
	return memcmp(&a, &b, sizeof a) == 0 || (isnan(a) && isnan(b));
}

/* The fit in memory and the one read back. */
typedef struct trip {
	sf_test_problem fx;
	sf_fit_result *fit;
	sf_stats *stats;
	sf_resample *boot;
	sf_fitfile *file;
} trip;

/* CUnit's suite set-up takes no argument: the one fit every test reads. */
static trip T;

/* Fit, compute the statistics and a bootstrap, write the report to a
 * file and read it back: once, for every test of the suite. */
static int
trip_open(void)
{
	char dir[] = "/tmp/sf_test_roundtrip.XXXXXX", path[64];
	const sf_model *m;
	sf_fit_options o;
	sf_report r;
	sf_error err;
	json_t *j;
	int rc;

	gsl_set_error_handler_off();
	memset(&T, 0, sizeof T);
	if (sf_test_problem_parse(&T.fx, "roundtrip/model.yaml", model_yaml) !=
	    0)
		return -1;
	m = T.fx.p.model;
	sf_fit_options_init(&o);
	if (sf_fit_run(m, T.fx.p.data, T.fx.p.formula, &o, &T.fit, &err) !=
	        SF_OK ||
	    sf_stats_compute(T.fx.p.formula, T.fx.p.data, T.fit, &T.stats,
	                     &err) != SF_OK ||
	    sf_bootstrap_run(m, T.fx.p.data, T.fx.p.formula, &o, T.fit, 16,
	                     &T.boot, &err) != SF_OK) {
		fprintf(stderr, "fit: %s\n", err.message);
		return -1;
	}
	memset(&r, 0, sizeof r);
	r.model = m;
	r.data = T.fx.p.data;
	r.formula = T.fx.p.formula;
	r.fit = T.fit;
	r.stats = T.stats;
	r.bootstrap = T.boot;
	if ((j = sf_report_json(&r)) == NULL || mkdtemp(dir) == NULL)
		return -1;
	snprintf(path, sizeof path, "%s/fit.json", dir);
	rc = sf_report_save(j, path, &err);
	json_decref(j);
	if (rc == SF_OK)
		rc = sf_fitfile_load(path, &T.file, &err);
	if (rc != SF_OK)
		fprintf(stderr, "%s:%d:%d: %s\n", err.file, err.line,
		        err.column, err.message);
	unlink(path);
	rmdir(dir);
	return rc == SF_OK ? 0 : -1;
}

static int
trip_close(void)
{
	sf_fitfile_free(T.file);
	sf_resample_free(T.boot);
	sf_stats_free(T.stats);
	sf_fit_result_free(T.fit);
	sf_test_problem_close(&T.fx);
	return 0;
}

/* The fit is the one the test means: its preconditions. */
static void
test_the_fit(void)
{
	const sf_formula *f = T.fx.p.formula;

	CU_ASSERT_EQUAL_FATAL(f->nparams, 4);
	CU_ASSERT(isfinite(T.fit->cost));
	CU_ASSERT_EQUAL(T.fit->at_bound[3], 1); /* g at 0 */
	CU_ASSERT_EQUAL(T.fit->theta[3], 0);
	CU_ASSERT(isnan(T.stats->cov[3 * 4 + 3]));
	CU_ASSERT(isfinite(T.stats->cov[1 * 4 + 2]));
	CU_ASSERT(T.fit->linear[0] && !T.fit->linear[2]);
	CU_ASSERT_EQUAL(T.boot->count, 16);
	CU_ASSERT_EQUAL(T.boot->failed, 0);
}

static void
test_parameters(void)
{
	const sf_formula *f = T.fx.p.formula;
	const sf_model *m = T.fx.p.model;
	const sf_fitfile *ff = T.file;
	const size_t P = f->nparams;

	CU_ASSERT_STRING_EQUAL(ff->name, "roundtrip");
	CU_ASSERT_STRING_EQUAL(ff->output, "t");
	CU_ASSERT_EQUAL_FATAL(ff->nparams, P);
	CU_ASSERT_EQUAL_FATAL(ff->formula->nparams, P);
	for (size_t j = 0; j < P; j++) {
		CU_ASSERT_STRING_EQUAL(ff->param_names[j],
		                       m->params[f->fitted[j]].name);
		CU_ASSERT(same(ff->theta[j], T.fit->theta[j]));
		/* the file's formula lists its fitted parameters first
		 * (formula.h: fitted[j] indexes the source's params) */
		CU_ASSERT_EQUAL(ff->formula->fitted[j], j);
		CU_ASSERT(same(ff->formula->lower[j], f->lower[j]));
		CU_ASSERT(same(ff->formula->upper[j], f->upper[j]));
	}
	CU_ASSERT_PTR_NOT_NULL_FATAL(ff->cov);
	for (size_t k = 0; k < P * P; k++) {
		if (!same(ff->cov[k], T.stats->cov[k]))
			fprintf(stderr, "\ncov[%zu]: %.17g, %.17g\n", k,
			        ff->cov[k], T.stats->cov[k]);
		CU_ASSERT(same(ff->cov[k], T.stats->cov[k]));
	}
	CU_ASSERT_EQUAL(ff->dof, (double)T.stats->dof);
	CU_ASSERT_EQUAL_FATAL(ff->nsamples, T.boot->count);
	for (size_t k = 0; k < T.boot->count * P; k++)
		CU_ASSERT(same(ff->samples[k], T.boot->samples[k]));
}

static void
test_inputs(void)
{
	const sf_dataset *d = T.fx.p.data;
	const sf_model *m = T.fx.p.model;
	const sf_fitfile *ff = T.file;

	CU_ASSERT_EQUAL_FATAL(ff->ninputs, d->ninputs);
	for (size_t i = 0; i < d->ninputs; i++) {
		const sf_dataset_input *in = &d->inputs[i];
		double lo = INFINITY, hi = -INFINITY;

		CU_ASSERT_STRING_EQUAL(ff->inputs[i].name, in->name);
		CU_ASSERT_STRING_EQUAL(ff->inputs[i].column,
		                       m->inputs[i].expr.text);
		CU_ASSERT_EQUAL(sf_fitfile_input_find(ff, in->name), i);
		CU_ASSERT_EQUAL(ff->inputs[i].nlevels, in->nlevels);
		for (size_t k = 0; k < in->nlevels; k++) {
			CU_ASSERT_STRING_EQUAL(ff->inputs[i].levels[k],
			                       in->levels[k]);
			CU_ASSERT_EQUAL(
			    sf_fitfile_level_find(ff, i, in->levels[k]), k);
		}
		if (in->levels != NULL)
			continue;
		CU_ASSERT_PTR_NULL(ff->inputs[i].levels);
		for (size_t r = 0; r < d->rows; r++) {
			lo = in->values[r] < lo ? in->values[r] : lo;
			hi = in->values[r] > hi ? in->values[r] : hi;
		}
		CU_ASSERT(same(ff->inputs[i].lo, lo));
		CU_ASSERT(same(ff->inputs[i].hi, hi));
	}
	CU_ASSERT_EQUAL(sf_fitfile_input_find(ff, "t"), SF_FITFILE_NONE);
	/* the measured rows */
	CU_ASSERT_EQUAL_FATAL(ff->nmeasured, d->rows);
	for (size_t r = 0; r < d->rows; r++) {
		CU_ASSERT(same(ff->measured[r], d->output[r]));
		for (size_t i = 0; i < d->ninputs; i++)
			CU_ASSERT(same(ff->measured_inputs[r * d->ninputs + i],
			               d->inputs[i].values[r]));
	}
}

static void
test_formula_and_terms(void)
{
	const sf_model *m = T.fx.p.model;
	const sf_fitfile *ff = T.file;

	CU_ASSERT_STRING_EQUAL(ff->time, m->time.text);
	CU_ASSERT_EQUAL_FATAL(ff->nterms, m->nterms);
	CU_ASSERT_EQUAL(ff->formula->nterms, m->nterms);
	for (size_t k = 0; k < m->nterms; k++) {
		CU_ASSERT_STRING_EQUAL(ff->terms[k].name, m->terms[k].name);
		CU_ASSERT_STRING_EQUAL(ff->terms[k].expr,
		                       m->terms[k].expr.text);
		CU_ASSERT_EQUAL(ff->terms[k].kind, m->terms[k].kind);
	}
	CU_ASSERT_EQUAL(ff->terms[0].kind, SF_TERM_COMPUTE);
	CU_ASSERT_EQUAL(ff->terms[1].kind, SF_TERM_COMMUNICATION); /* guessed */
	CU_ASSERT_EQUAL(ff->terms[2].kind, SF_TERM_OVERHEAD);
	/* total uses compute and comm: they are building blocks */
	CU_ASSERT_EQUAL(ff->terms[0].component, 0);
	CU_ASSERT_EQUAL(ff->terms[1].component, 0);
	CU_ASSERT_EQUAL(ff->terms[2].component, 1);
	/* the same programs: as many inputs, parameters and outputs */
	CU_ASSERT_EQUAL(sf_program_outputs(ff->formula->value), 1);
	CU_ASSERT_EQUAL(sf_program_outputs(ff->formula->gradient),
	                1 + ff->nparams);
	CU_ASSERT_EQUAL(sf_program_outputs(ff->formula->terms), 1 + m->nterms);
	CU_ASSERT_EQUAL(sf_program_inputs(ff->formula->value), ff->ninputs);
}

/* All outputs of p at theta for n points (columns, input-major). */
static double *
evaluate(const sf_program *p, const double *const *columns, size_t n,
         const double *theta)
{
	size_t outputs = sf_program_outputs(p);
	double *out = malloc(outputs * n * sizeof *out);
	double *scratch =
	    malloc((sf_program_scratch_size(p) + 1) * sizeof *scratch);
	sf_expr_data *data;
	sf_error err;

	CU_ASSERT_FATAL(out != NULL && scratch != NULL);
	data = sf_expr_data_new(p, columns, n, &err);
	CU_ASSERT_PTR_NOT_NULL_FATAL(data);
	sf_program_eval(p, data, theta, 0, n, out, scratch);
	sf_expr_data_free(data);
	free(scratch);
	return out;
}

/* A prediction from the file is the fit's, to the bit: at the fitted
 * rows, and beyond them (64 gpu workers, n = 1000). */
static void
test_predictions(void)
{
	enum { N = 14 };
	const sf_dataset *d = T.fx.p.data;
	const sf_formula *f = T.fx.p.formula;
	const sf_fitfile *ff = T.file;
	double p[N], n[N], k[N], *mem, *grad_mem, *grad_file, *terms_mem;
	const double *columns[3] = {p, n, k};
	sf_prediction *pred = NULL;
	sf_error err;

	CU_ASSERT_EQUAL_FATAL(d->rows, 12);
	for (size_t r = 0; r < 12; r++) {
		p[r] = d->inputs[0].values[r];
		n[r] = d->inputs[1].values[r];
		k[r] = d->inputs[2].values[r];
	}
	p[12] = 64, n[12] = 1000, k[12] = 1;
	p[13] = 3, n[13] = 12, k[13] = 0;

	CU_ASSERT_EQUAL_FATAL(sf_predict(ff, columns, N, &pred, &err), SF_OK);
	mem = evaluate(f->value, columns, N, T.fit->theta);
	terms_mem = evaluate(f->terms, columns, N, T.fit->theta);
	for (size_t r = 0; r < N; r++) {
		CU_ASSERT(same(pred->points[r].time, mem[r]));
		for (size_t t = 0; t < f->nterms; t++)
			CU_ASSERT(same(pred->terms[t * N + r],
			               terms_mem[(1 + t) * N + r]));
	}
	/* the fitted rows' predictions of the statistics too */
	for (size_t r = 0; r < 12; r++)
		CU_ASSERT(same(pred->points[r].time, T.stats->predicted[r]));
	/* the point beyond the fitted range is flagged */
	CU_ASSERT(sf_prediction_outside(pred, 12));
	CU_ASSERT(!sf_prediction_outside(pred, 0));
	/* and the derivatives behind the bands */
	grad_mem = evaluate(f->gradient, columns, N, T.fit->theta);
	grad_file = evaluate(ff->formula->gradient, columns, N, ff->theta);
	CU_ASSERT(memcmp(grad_mem, grad_file,
	                 (1 + f->nparams) * N * sizeof *grad_mem) == 0);
	free(mem);
	free(terms_mem);
	free(grad_mem);
	free(grad_file);
	sf_prediction_free(pred);
}

int
main(void)
{
	CU_TestInfo trip_tests[] = {
	    {"the fit: g at its bound, e searched", test_the_fit},
	    {"parameters, bounds, covariance, dof, replicates",
	     test_parameters},
	    {"inputs, levels, ranges, measured rows", test_inputs},
	    {"the formula and its terms", test_formula_and_terms},
	    {"predictions equal the fit's, to the bit", test_predictions},
	    CU_TEST_INFO_NULL,
	};
	CU_SuiteInfo suites[] = {
	    {"report -> fit file", trip_open, trip_close, NULL, NULL,
	     trip_tests},
	    CU_SUITE_INFO_NULL,
	};

	return sf_test_main(suites);
}
