/*
 * test_predict.c - FIT.json loading, predictions and their bands, warnings
 * and JSON, text cells, sweeps and their answers, input assignments, SVG
 * axes and charts, against values computed by hand on
 * tests/data/fit/simple.json:
 *
 *   T(p, n) = a + b n / p + c p^e + d n,  a = 1, b = 64, c = 1, d = 0 (held
 *   at its bound, no covariance), e = 1 fixed; dof = 5;
 *   C over (a, b, c) = [[0.01, -0.1, 0], [-0.1, 4, 0], [0, 0, 0.0004]].
 *
 * At n = 1: T(p) = 1 + 64 / p + p, least at p = 8 (T = 17); communication
 * (p) exceeds compute (64 / p) from p = 9 on; efficiency against p = 1 is
 * 66 / (p T(p)) = 66 / (p^2 + p + 64), >= 50% up to p = 7; the cost
 * 3.6 * p * T / 3600 = (p^2 + p + 64) / 1000 is least at p = 1 (0.066).
 * At p = 8, n = 1: g = (1, n / p, p) = (1, 0.125, 8), g^T C g = 0.01 +
 * 4 / 64 + 0.0004 * 64 - 2 * 0.1 * 0.125 = 0.0731.
 */
#include "base/rng.h"
#include "use/assign.h"
#include "use/fitfile.h"
#include "use/json.h"
#include "use/report.h"
#include "use/plot.h"
#include "use/predict.h"
#include "use/svg.h"
#include "use/sweep.h"
#include "use/text.h"
#include "testing.h"

#include <math.h>
#include <string.h>

/* t(0.975, 5), from any table (R: qt(0.975, 5)). */
#define T975_5 2.5705818366147395

#define CLOSE(x, y, tol) CU_ASSERT_DOUBLE_EQUAL((x), (y), (tol))

/* Predict at the single point (p, n). */
static sf_prediction *
predict_at(const sf_fitfile *f, double p, double n)
{
	const double *columns[2] = {&p, &n};
	sf_prediction *out = NULL;

	CU_ASSERT_EQUAL_FATAL(sf_predict(f, columns, 1, &out, NULL), SF_OK);
	return out;
}

/* ---- loading ------------------------------------------------------------- */

static void
test_load(void)
{
	sf_fitfile *f = sf_test_fitfile("fit/simple.json");

	CU_ASSERT_STRING_EQUAL(f->name, "simple");
	CU_ASSERT_STRING_EQUAL(f->output, "epoch_s");
	CU_ASSERT_EQUAL(f->ninputs, 2);
	CU_ASSERT_STRING_EQUAL(f->inputs[0].name, "p");
	CU_ASSERT_STRING_EQUAL(f->inputs[0].column, "workers");
	CU_ASSERT_EQUAL(f->inputs[0].lo, 2);
	CU_ASSERT_EQUAL(f->inputs[0].hi, 16);
	/* Theta: the fitted parameters in file order, e (fixed) left out. */
	CU_ASSERT_EQUAL(f->nparams, 4);
	CU_ASSERT_STRING_EQUAL(f->param_names[1], "b");
	CU_ASSERT_EQUAL(f->theta[1], 64);
	CU_ASSERT_EQUAL(f->dof, 5);
	CU_ASSERT_EQUAL(f->cov[0 * 4 + 1], -0.1);
	CU_ASSERT(isnan(f->cov[3 * 4 + 3]));
	/* Terms: kinds given, and guessed from the name ("io"). */
	CU_ASSERT_EQUAL(f->nterms, 4);
	CU_ASSERT_EQUAL(f->terms[1].kind, SF_TERM_COMPUTE);
	CU_ASSERT_EQUAL(f->terms[2].kind, SF_TERM_COMMUNICATION);
	CU_ASSERT_EQUAL(f->terms[3].kind, SF_TERM_IO);
	CU_ASSERT(f->terms[3].component);
	/* The row with a null observation is not a measured point. */
	CU_ASSERT_EQUAL(f->nmeasured, 4);
	CU_ASSERT_EQUAL(f->measured[2], 17.2);
	CU_ASSERT_EQUAL(f->measured_inputs[2 * 2 + 0], 8);
	CU_ASSERT_EQUAL(f->nsamples, 0);
	CU_ASSERT_EQUAL(sf_fitfile_input_find(f, "n"), 1);
	CU_ASSERT_EQUAL(sf_fitfile_input_find(f, "q"), SF_FITFILE_NONE);
	sf_fitfile_free(f);
}

/* A term used by another is a building block, not a part of the time. */
static void
test_building_blocks(void)
{
	sf_fitfile *f = sf_test_fitfile("fit/ddp.json");

	CU_ASSERT_STRING_EQUAL(f->terms[0].name, "steps");
	CU_ASSERT_FALSE(f->terms[0].component);
	CU_ASSERT_TRUE(f->terms[1].component);
	CU_ASSERT_EQUAL(f->terms[1].kind, SF_TERM_COMPUTE); /* guessed */
	CU_ASSERT_EQUAL(f->terms[2].kind, SF_TERM_COMMUNICATION);
	CU_ASSERT_PTR_NULL(f->cov);
	CU_ASSERT_EQUAL(f->inputs[3].nlevels, 2);
	CU_ASSERT_EQUAL(sf_fitfile_level_find(f, 3, "rnn"), 1);
	CU_ASSERT_EQUAL(sf_fitfile_level_find(f, 3, "gnn"), SF_FITFILE_NONE);
	sf_fitfile_free(f);
}

/* Bad files: the status, where, and words the message must hold. */
static void
test_load_errors(void)
{
	static const struct {
		const char *text;
		int rc, line, column;
		const char *words;
	} cases[] = {
	    {"{\"model\": {,}}", SF_ESYNTAX, 1, 12, "not valid JSON"},
	    {"", SF_ESYNTAX, 1, 1, "not valid JSON"},
	    {"[1]", SF_ETYPE, 1, 1, "should be an object"},
	    {"{\"model\": {\"a\": 1, \"a\": 2}}", SF_ESYNTAX, 1, 0,
	     "duplicate"},
	    {"{\"parameters\": {}}", SF_ENAME, 1, 1,
	     "the file has no key 'model'"},
	    {"{\"model\": {\n  \"terms\": {}}}", SF_ENAME, 1, 11,
	     "model has no key 'time'"},
	    {"{\"model\": {\"time\": 5}}", SF_ETYPE, 1, 20,
	     "model.time should be a string, not a number"},
	    {"{\"model\": {\"time\": \"a\", \"terms\": {}, \"inputs\": {}},\n"
	     " \"parameters\": {\"a\": {\"value\": \"x\"}}}",
	     SF_ETYPE, 2, 32, "parameters.a.value should be a number"},
	    /* a fitted parameter's name was leaked when its bound had the
	     * wrong type (the FIT.json fuzz target; leak-checked in the
	     * sanitizer build) */
	    {"{\"model\": {\"time\": \"a\", \"terms\": {}, \"inputs\": {}},\n"
	     " \"parameters\": {\"a\": {\"value\": 1, \"max\": true}}}",
	     SF_ETYPE, 2, 42, "parameters.a.max should be a number"},
	    {"{\"model\": {\"time\": \"a + nn\", \"terms\": {}, "
	     "\"inputs\": {\"n\": \"c\"}},\n"
	     " \"parameters\": {\"a\": {\"value\": 1}}}",
	     SF_ENAME, 1, 25, "did you mean 'n'"},
	    {"{\"model\": {\"time\": \"t\", \"terms\": {\"t\": {\"expr\": "
	     "\"a +\"}}, \"inputs\": {}},\n"
	     " \"parameters\": {\"a\": {\"value\": 1}}}",
	     SF_ESYNTAX, 1, 0, "model.terms.t.expr"},
	    {"{\"model\": {\"time\": \"a\", \"terms\": {}, \"inputs\": {}},\n"
	     " \"parameters\": {\"a\": {\"value\": 1}},\n"
	     " \"covariance\": [[1, 2]]}",
	     SF_EVALUE, 3, 17, "covariance[0] has 2 values, not 1"},
	    {"{\"model\": {\"time\": \"a\", \"terms\": {}, \"inputs\": {}},\n"
	     " \"parameters\": {\"a\": {\"value\": 1}},\n"
	     " \"bootstrap\": {\"samples\": [[1], [1, 2]]}}",
	     SF_EVALUE, 3, 33, "bootstrap.samples[1] has 2 values"},
	    {"{\"model\": {\"time\": \"a\", \"terms\": {}, \"inputs\": {}},\n"
	     " \"parameters\": {\"a\": {\"value\": 1}},\n"
	     " \"input_ranges\": {}, \"metrics\": {\"dof\": -1}}",
	     SF_EVALUE, 3, 41, "metrics.dof should be >= 0"},
	};

	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		sf_fitfile *f = (sf_fitfile *)1;
		sf_error err;
		int rc = sf_fitfile_parse(cases[i].text, strlen(cases[i].text),
		                          "bad.json", &f, &err);

		CU_ASSERT_EQUAL(rc, cases[i].rc);
		CU_ASSERT_PTR_NULL(f);
		CU_ASSERT_STRING_EQUAL(err.file, "bad.json");
		CU_ASSERT_EQUAL(err.line, cases[i].line);
		if (cases[i].column > 0)
			CU_ASSERT_EQUAL(err.column, cases[i].column);
		CU_ASSERT_PTR_NOT_NULL(strstr(err.message, cases[i].words));
		if (rc != cases[i].rc || err.line != cases[i].line ||
		    (cases[i].column > 0 && err.column != cases[i].column) ||
		    strstr(err.message, cases[i].words) == NULL)
			fprintf(stderr, "\ncase %zu: %d %d:%d %s\n", i, rc,
			        err.line, err.column, err.message);
	}
}

static void
test_load_missing_file(void)
{
	sf_fitfile *f;
	sf_error err;

	CU_ASSERT_EQUAL(sf_fitfile_load("no/such/fit.json", &f, &err), SF_EIO);
	CU_ASSERT_PTR_NULL(f);
	CU_ASSERT_STRING_EQUAL(err.file, "no/such/fit.json");
}

/* SF_FITFILE_NO_MEASURED: the same fit without its measured rows, and a
 * file whose residuals are not an array is still read (and refused) by the
 * parser. */
static void
test_load_no_measured(void)
{
	sf_fitfile *all = sf_test_fitfile("fit/simple.json"), *f = NULL;
	sf_error err;
	FILE *out;
	char path[] = "/tmp/scalefit-test-predict-XXXXXX";
	int fd;

	CU_ASSERT_EQUAL_FATAL(
	    sf_fitfile_load_flags(sf_test_data("fit/simple.json"),
	                          SF_FITFILE_NO_MEASURED, &f, &err),
	    SF_OK);
	CU_ASSERT(all->nmeasured > 0);
	CU_ASSERT_EQUAL(f->nmeasured, 0);
	CU_ASSERT_EQUAL(f->nparams, all->nparams);
	for (size_t j = 0; j < f->nparams; j++)
		CU_ASSERT_EQUAL(f->theta[j], all->theta[j]);
	sf_fitfile_free(f);
	sf_fitfile_free(all);

	/* residuals that are not an array: left for the loader's message,
	 * at its place on line 2 (the blanking kept every line) */
	fd = mkstemp(path);
	CU_ASSERT_FATAL(fd >= 0);
	out = fdopen(fd, "w");
	CU_ASSERT_FATAL(out != NULL);
	fputs("{\"model\": {},\n \"residuals\": 7,\n \"x\": [}\n", out);
	fclose(out);
	f = (sf_fitfile *)&err;
	CU_ASSERT_NOT_EQUAL(
	    sf_fitfile_load_flags(path, SF_FITFILE_NO_MEASURED, &f, &err),
	    SF_OK);
	CU_ASSERT_PTR_NULL(f);
	CU_ASSERT_EQUAL(err.line, 3);
	remove(path);
}

/* ---- predictions ------------------------------------------------------------
 */

static void
test_predict_delta(void)
{
	sf_fitfile *f = sf_test_fitfile("fit/simple.json");
	sf_prediction *p = predict_at(f, 8, 1);
	double se = sqrt(0.0731);

	CLOSE(p->points[0].time, 17, 1e-12);
	CLOSE(p->t, T975_5, 1e-9);
	CLOSE(p->points[0].se, se, 1e-12);
	CLOSE(p->points[0].ci.lo, 17 - T975_5 * se, 1e-9);
	CLOSE(p->points[0].ci.hi, 17 + T975_5 * se, 1e-9);
	CLOSE(p->terms[0], 1, 1e-12); /* serial */
	CLOSE(p->terms[1], 8, 1e-12); /* compute */
	CLOSE(p->terms[2], 8, 1e-12); /* comm */
	CLOSE(p->terms[3], 0, 1e-12); /* io: d = 0 */
	/* Without replicates: no bootstrap band, the delta band shown. */
	CU_ASSERT_FALSE(p->bootstrap);
	CU_ASSERT(isnan(p->points[0].boot.lo) && isnan(p->points[0].boot.hi));
	CU_ASSERT_EQUAL(sf_prediction_band(p, 0).lo, p->points[0].ci.lo);
	CU_ASSERT_EQUAL(sf_prediction_band(p, 0).hi, p->points[0].ci.hi);
	CU_ASSERT_FALSE(sf_prediction_outside(p, 0));
	sf_prediction_free(p);
	sf_fitfile_free(f);
}

static void
test_predict_extrapolation(void)
{
	sf_fitfile *f = sf_test_fitfile("fit/simple.json");
	double pv[3] = {1, 16, 32}, nv[3] = {1, 1, 2};
	const double *columns[2] = {pv, nv};
	sf_prediction *p;

	CU_ASSERT_EQUAL_FATAL(sf_predict(f, columns, 3, &p, NULL), SF_OK);
	CU_ASSERT_EQUAL(p->range[0 * 3 + 0], SF_PREDICT_BELOW);
	CU_ASSERT_EQUAL(p->range[0 * 3 + 1], SF_PREDICT_INSIDE);
	CU_ASSERT_EQUAL(p->range[0 * 3 + 2], SF_PREDICT_ABOVE);
	CU_ASSERT_EQUAL(p->range[1 * 3 + 2], SF_PREDICT_ABOVE); /* n = 2 */
	CU_ASSERT_TRUE(sf_prediction_outside(p, 0));
	CU_ASSERT_FALSE(sf_prediction_outside(p, 1));
	/* T(32, 2) = 1 + 128 / 32 + 32 = 37. */
	CLOSE(p->points[2].time, 37, 1e-12);
	sf_prediction_free(p);
	CU_ASSERT_EQUAL(sf_predict(f, columns, 0, &p, NULL), SF_EVALUE);
	sf_fitfile_free(f);
}

/* Replicates differ in a only: T(8, 1) = 16 + a over a = 0.5 .. 2.5. */
static void
test_predict_bootstrap(void)
{
	sf_fitfile *f = sf_test_fitfile("fit/bootstrap.json");
	sf_prediction *p = predict_at(f, 8, 1);

	CU_ASSERT_EQUAL(f->nsamples, 5);
	CU_ASSERT_TRUE(p->bootstrap);
	CU_ASSERT_EQUAL(p->boot_used, 5);
	/* Sorted 16.5 .. 18.5 by 0.5: h = 4 * 0.025 = 0.1, 4 * 0.975 = 3.9. */
	CLOSE(p->points[0].boot.lo, 16.55, 1e-12);
	CLOSE(p->points[0].boot.hi, 18.45, 1e-12);
	/* The band shown where there is room for one is the bootstrap's. */
	CLOSE(sf_prediction_band(p, 0).lo, 16.55, 1e-12);
	CLOSE(sf_prediction_band(p, 0).hi, 18.45, 1e-12);
	sf_prediction_free(p);
	sf_fitfile_free(f);
}

/* One warning per point outside, naming every input that is. */
static void
test_predict_warn(void)
{
	sf_fitfile *f = sf_test_fitfile("fit/simple.json");
	double pv[3] = {8, 32, 1}, nv[3] = {1, 2, 1};
	const double *columns[2] = {pv, nv};
	sf_prediction *p;
	sf_test_warnings w = {0};

	CU_ASSERT_EQUAL_FATAL(sf_predict(f, columns, 3, &p, NULL), SF_OK);
	sf_prediction_warn(f, p, sf_test_warn, &w);
	CU_ASSERT_EQUAL_FATAL(w.count, 2);
	CU_ASSERT_EQUAL(w.w[0].code, SF_OK);
	CU_ASSERT_EQUAL(w.w[1].code, SF_OK);
	CU_ASSERT_PTR_NOT_NULL(strstr(w.w[1].file, "fit/simple.json"));
	CU_ASSERT_STRING_EQUAL(w.w[0].message,
	                       "point 2 lies outside the fitted range (p = 32 "
	                       "> 16, n = 2 > 1): the prediction is an "
	                       "extrapolation");
	CU_ASSERT_PTR_NOT_NULL(strstr(w.w[1].message, "point 3 "));
	CU_ASSERT_PTR_NOT_NULL(strstr(w.w[1].message, "(p = 1 < 2)"));
	sf_prediction_warn(f, p, NULL, NULL); /* no one to tell: nothing */
	sf_prediction_free(p);
	sf_fitfile_free(f);
}

static void
test_predict_json(void)
{
	sf_fitfile *f = sf_test_fitfile("fit/simple.json");
	double pv[2] = {8, 32}, nv[2] = {1, 1};
	const double *columns[2] = {pv, nv};
	sf_prediction *p;
	json_t *root, *pt, *band;
	char keys[256];
	double se = sqrt(0.0731);

	CU_ASSERT_EQUAL_FATAL(sf_predict(f, columns, 2, &p, NULL), SF_OK);
	root = sf_prediction_json(f, p);
	CU_ASSERT_PTR_NOT_NULL_FATAL(root);
	sf_test_keys(root, keys, sizeof keys);
	CU_ASSERT_STRING_EQUAL(keys, "fit model output level_percent dof t "
	                             "bootstrap_samples points");
	CU_ASSERT_STRING_EQUAL(
	    json_string_value(json_object_get(root, "model")), "simple");
	CU_ASSERT_EQUAL(sf_test_number(root, "level_percent"), 95);
	CU_ASSERT_EQUAL(sf_test_number(root, "dof"), 5);
	CLOSE(sf_test_number(root, "t"), T975_5, 1e-9);
	CU_ASSERT_EQUAL(sf_test_number(root, "bootstrap_samples"), 0);
	CU_ASSERT_EQUAL(json_array_size(json_object_get(root, "points")), 2);
	pt = json_array_get(json_object_get(root, "points"), 0);
	sf_test_keys(pt, keys, sizeof keys);
	CU_ASSERT_STRING_EQUAL(keys, "inputs time stderr ci95 terms "
	                             "extrapolated outside");
	CU_ASSERT_EQUAL(sf_test_number(json_object_get(pt, "inputs"), "p"), 8);
	CU_ASSERT_EQUAL(sf_test_number(pt, "time"), 17);
	CLOSE(sf_test_number(pt, "stderr"), se, 1e-12);
	band = json_object_get(pt, "ci95");
	CLOSE(json_number_value(json_array_get(band, 0)), 17 - T975_5 * se,
	      1e-9);
	CLOSE(json_number_value(json_array_get(band, 1)), 17 + T975_5 * se,
	      1e-9);
	CU_ASSERT_EQUAL(sf_test_number(json_object_get(pt, "terms"), "compute"),
	                8);
	CU_ASSERT_TRUE(json_is_false(json_object_get(pt, "extrapolated")));
	CU_ASSERT_EQUAL(json_array_size(json_object_get(pt, "outside")), 0);
	pt = json_array_get(json_object_get(root, "points"), 1);
	CU_ASSERT_TRUE(json_is_true(json_object_get(pt, "extrapolated")));
	CU_ASSERT_STRING_EQUAL(json_string_value(json_array_get(
	                           json_object_get(pt, "outside"), 0)),
	                       "p");
	json_decref(root);
	sf_prediction_free(p);
	sf_fitfile_free(f);

	/* With replicates, the bootstrap band follows the delta one. */
	f = sf_test_fitfile("fit/bootstrap.json");
	p = predict_at(f, 8, 1);
	root = sf_prediction_json(f, p);
	CU_ASSERT_PTR_NOT_NULL_FATAL(root);
	CU_ASSERT_EQUAL(sf_test_number(root, "bootstrap_samples"), 5);
	pt = json_array_get(json_object_get(root, "points"), 0);
	sf_test_keys(pt, keys, sizeof keys);
	CU_ASSERT_STRING_EQUAL(keys, "inputs time stderr ci95 ci95_bootstrap "
	                             "terms extrapolated outside");
	band = json_object_get(pt, "ci95_bootstrap");
	CLOSE(json_number_value(json_array_get(band, 0)), 16.55, 1e-12);
	CLOSE(json_number_value(json_array_get(band, 1)), 18.45, 1e-12);
	json_decref(root);
	sf_prediction_free(p);
	sf_fitfile_free(f);
}

/* A text input is written by name; no covariance: the band is null. */
static void
test_predict_json_text_input(void)
{
	sf_fitfile *f = sf_test_fitfile("fit/ddp.json");
	double p4 = 4, b = 32, n = 1.28e6, model = 0;
	const double *columns[4] = {&p4, &b, &n, &model};
	sf_prediction *p;
	json_t *root, *pt;

	CU_ASSERT_EQUAL_FATAL(sf_predict(f, columns, 1, &p, NULL), SF_OK);
	root = sf_prediction_json(f, p);
	CU_ASSERT_PTR_NOT_NULL_FATAL(root);
	pt = json_array_get(json_object_get(root, "points"), 0);
	CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(
	                           json_object_get(pt, "inputs"), "model")),
	                       "cnn");
	CU_ASSERT_TRUE(json_is_null(json_object_get(pt, "stderr")));
	CU_ASSERT_TRUE(
	    json_is_null(json_array_get(json_object_get(pt, "ci95"), 0)));
	CU_ASSERT_TRUE(json_is_null(json_object_get(root, "t")));
	json_decref(root);
	sf_prediction_free(p);
	sf_fitfile_free(f);
}

/* ---- text cells and JSON helpers -------------------------------------------
 */

static void
test_text(void)
{
	static const struct {
		sf_band band;
		int digits;
		const char *want;
	} bands[] = {
	    {{16.30503, 17.69497}, 5, "[16.305, 17.695]"},
	    {{16.30503, 17.69497}, 6, "[16.305, 17.695]"},
	    {{1e-7, 2.5e6}, 6, "[1e-07, 2.5e+06]"},
	    {{1, NAN}, 6, "-"},
	    {{-INFINITY, 3}, 5, "-"},
	};
	sf_fitfile *f = sf_test_fitfile("fit/ddp.json");
	char cell[64];

	for (size_t k = 0; k < sizeof bands / sizeof bands[0]; k++) {
		sf_text_band(bands[k].band, bands[k].digits, cell, sizeof cell);
		CU_ASSERT_STRING_EQUAL(cell, bands[k].want);
	}
	CU_ASSERT_EQUAL(sf_text_width("p", 8), 8);
	CU_ASSERT_EQUAL(sf_text_width("step_time_s", 8), 11);
	sf_text_input(f, 3, 1, cell, sizeof cell);
	CU_ASSERT_STRING_EQUAL(cell, "rnn");
	sf_text_input(f, 2, 1.28e6, cell, sizeof cell);
	CU_ASSERT_STRING_EQUAL(cell, "1.28e+06");
	sf_text_input(f, 0, 1.0 / 3, cell, sizeof cell);
	CU_ASSERT_STRING_EQUAL(cell, "0.333333");
	sf_text_band(bands[0].band, 5, cell, 6); /* cut, still terminated */
	CU_ASSERT_STRING_EQUAL(cell, "[16.3");
	sf_fitfile_free(f);
}

/* The writer's numbers and strings are jansson's, byte for byte: numbers
 * of every size and sign (whole ones, reals, exponents, subnormals) and
 * strings with quotes, backslashes, every control and UTF-8. */
static void
test_json_writer_like_jansson(void)
{
	const size_t flags = JSON_ENCODE_ANY | JSON_REAL_PRECISION(17);
	sf_rng r;
	size_t bad = 0;

	sf_rng_seed(&r, 25, 7);
	for (int k = 0; k < 200000; k++) {
		uint64_t bits =
		    (uint64_t)sf_rng_next(&r) << 32 | sf_rng_next(&r);
		double x;
		char mine[32], *theirs;
		json_t *v;

		/* all bit patterns, then scaled and rounded ones */
		memcpy(&x, &bits, sizeof x);
		if (k % 4 == 1)
			x = ldexp((double)(bits >> 11), (int)(k % 200) - 100);
		else if (k % 4 == 2)
			x = (double)((int64_t)bits >> (k % 60));
		else if (k % 4 == 3)
			x = round(ldexp((double)(bits >> 11), -53) * 1e6) / 1e3;
		sf_json_number_text(x, mine);
		v = sf_json_number(x);
		theirs = json_dumps(v, flags);
		if (strcmp(mine, theirs) != 0 && bad++ < 5)
			printf("\n    %.17g: %s, jansson %s", x, mine, theirs);
		free(theirs);
		json_decref(v);
	}
	CU_ASSERT_EQUAL(bad, 0);
	{
		const char *texts[] = {
		    "",
		    "plain",
		    "q\"uote\\back/slash",
		    "\b\f\n\r\t\v\001\037\177 end",
		    "caf\xc3\xa9 \xe2\x82\xac \xf0\x9d\x84\x9e",
		    "\033]0;title\a"};
		for (size_t i = 0; i < sizeof texts / sizeof texts[0]; i++) {
			char *mine = NULL, *theirs;
			size_t length = 0;
			FILE *out = open_memstream(&mine, &length);
			sf_json_writer w;
			json_t *v = json_string(texts[i]);

			sf_json_writer_init(&w, out, 0);
			sf_json_writer_string(&w, texts[i]);
			fclose(out);
			theirs = json_dumps(v, flags);
			CU_ASSERT_STRING_EQUAL(mine, theirs);
			free(mine);
			free(theirs);
			json_decref(v);
		}
	}
}

static void
test_json_helpers(void)
{
	json_t *o = json_object(), *pair = sf_json_pair(2.5, NAN);
	int ok = 1;

	CU_ASSERT_PTR_NOT_NULL_FATAL(pair);
	CU_ASSERT_EQUAL(json_array_size(pair), 2);
	CU_ASSERT_EQUAL(json_number_value(json_array_get(pair, 0)), 2.5);
	CU_ASSERT_TRUE(json_is_null(json_array_get(pair, 1)));
	sf_json_put(o, "band", pair, &ok);
	CU_ASSERT_TRUE(ok);
	CU_ASSERT_PTR_EQUAL(json_object_get(o, "band"), pair);
	/* A value that could not be made clears ok; so does a bad key. */
	sf_json_put(o, "missing", NULL, &ok);
	CU_ASSERT_FALSE(ok);
	ok = 1;
	sf_json_put(o, "\xff", json_integer(1), &ok);
	CU_ASSERT_FALSE(ok);
	json_decref(o);
}

/* ---- sweeps ----------------------------------------------------------------
 */

static void
check_values(double lo, double hi, int integer, int log, size_t points,
             const double *want, size_t nwant)
{
	double *v;
	size_t n;

	CU_ASSERT_EQUAL_FATAL(
	    sf_sweep_values(lo, hi, integer, log, points, &v, &n, NULL), SF_OK);
	CU_ASSERT_EQUAL(n, nwant);
	for (size_t k = 0; k < n && k < nwant; k++)
		CLOSE(v[k], want[k], 1e-12 * fabs(want[k]));
	free(v);
}

static void
test_sweep_values(void)
{
	static const double pow2[] = {1,  2,   4,   8,   16,  32,
	                              64, 128, 256, 512, 1024};
	static const double odd[] = {3, 4, 8, 16, 32, 64, 100};
	static const double whole[] = {1, 2, 3, 4, 5, 6};
	static const double nice[] = {0.001, 0.002, 0.005, 0.01, 0.02,
	                              0.05,  0.1,   0.2,   0.5,  1};
	static const double five[] = {0, 0.25, 0.5, 0.75, 1};
	static const double rounded[] = {1, 3, 10, 32, 100};
	static const double seven[] = {7};
	double *v;
	size_t n;

	check_values(1, 1024, 1, 1, 0, pow2, 11);
	check_values(3, 100, 1, 1, 0, odd, 7);
	check_values(1, 6, 1, 0, 0, whole, 6);
	check_values(0.001, 1, 0, 1, 0, nice, 10);
	check_values(0, 1, 0, 0, 5, five, 5);
	check_values(1, 100, 1, 1, 5, rounded, 5);
	check_values(7, 7, 1, 1, 0, seven, 1);
	CU_ASSERT_EQUAL(sf_sweep_values(0, 10, 0, 1, 0, &v, &n, NULL),
	                SF_EVALUE);
	CU_ASSERT_EQUAL(sf_sweep_values(5, 1, 0, 0, 0, &v, &n, NULL),
	                SF_EVALUE);
	CU_ASSERT_EQUAL(sf_sweep_values(1.5, 8, 1, 0, 0, &v, &n, NULL),
	                SF_EVALUE);
	CU_ASSERT_TRUE(sf_sweep_is_log(1, 10, SF_SWEEP_AUTO));
	CU_ASSERT_FALSE(sf_sweep_is_log(1, 9, SF_SWEEP_AUTO));
	CU_ASSERT_FALSE(sf_sweep_is_log(0, 100, SF_SWEEP_AUTO));
	CU_ASSERT_TRUE(sf_sweep_is_log(1, 2, SF_SWEEP_LOG));
}

/* A worker sweep of simple.json with n = 1. */
static sf_sweep_settings
worker_settings(const double *base)
{
	sf_sweep_settings s;

	memset(&s, 0, sizeof s);
	s.var = 0;
	s.base = base;
	s.workers = 1;
	s.worker_input = 0;
	s.integer = 1;
	s.log = 1;
	s.price = 3.6;
	s.hours_per_unit = 1 / 3600.0;
	return s;
}

static void
test_sweep_run(void)
{
	static const double x[] = {1, 2, 4, 8, 16};
	double base[2] = {0, 1};
	sf_fitfile *f = sf_test_fitfile("fit/simple.json");
	sf_sweep_settings s = worker_settings(base);
	sf_sweep *w;

	CU_ASSERT_EQUAL_FATAL(sf_sweep_run(f, &s, x, 5, &w, NULL), SF_OK);
	for (size_t k = 0; k < 5; k++) {
		double t = 1 + 64 / x[k] + x[k];

		CLOSE(w->pred->points[k].time, t, 1e-12);
		CLOSE(w->speedup[k], 66 / t, 1e-12);
		CLOSE(w->efficiency[k], 66 / (x[k] * t), 1e-12);
		CLOSE(w->cost[k], 3.6 * x[k] * t / 3600, 1e-12);
		CLOSE(w->share[0 * 5 + k], 1 / t, 1e-12);
		CLOSE(w->share[1 * 5 + k], 64 / x[k] / t, 1e-12);
		CLOSE(w->share[2 * 5 + k], x[k] / t, 1e-12);
		CLOSE(w->rest[k], 0, 1e-12);
		CLOSE(w->kind[SF_TERM_COMPUTE * 5 + k], 64 / x[k], 1e-12);
		CLOSE(w->kind[SF_TERM_COMMUNICATION * 5 + k], x[k], 1e-12);
		CLOSE(w->kind[SF_TERM_OVERHEAD * 5 + k], 1, 1e-12);
	}
	/* At p = 8: 1/17, 8/17, 8/17 of the time. */
	CLOSE(w->share[1 * 5 + 3], 8.0 / 17, 1e-12);
	/* The terms explain the whole time: the rest is rounding. */
	CU_ASSERT_FALSE(sf_sweep_rest_matters(w));
	sf_sweep_free(w);
	/* Not a worker sweep, no price: no speedup, efficiency, cost. */
	s.workers = 0;
	s.price = NAN;
	CU_ASSERT_EQUAL_FATAL(sf_sweep_run(f, &s, x, 5, &w, NULL), SF_OK);
	CU_ASSERT_PTR_NULL(w->speedup);
	CU_ASSERT_PTR_NULL(w->efficiency);
	CU_ASSERT_PTR_NULL(w->cost);
	sf_sweep_free(w);
	sf_fitfile_free(f);
}

static void
test_sweep_answers(void)
{
	double base[2] = {0, 1};
	sf_fitfile *f = sf_test_fitfile("fit/simple.json");
	sf_sweep_settings s = worker_settings(base);
	sf_sweep_answers a;
	double se = sqrt(0.0731);

	CU_ASSERT_EQUAL_FATAL(sf_sweep_answer(f, &s, 1, 64, &a, NULL), SF_OK);
	CU_ASSERT_EQUAL(a.searched, 64);
	CU_ASSERT_TRUE(a.every_whole);
	CU_ASSERT_EQUAL(a.fastest, 8);
	CLOSE(a.fastest_time, 17, 1e-12);
	CLOSE(a.fastest_band.lo, 17 - T975_5 * se, 1e-9);
	CLOSE(a.fastest_band.hi, 17 + T975_5 * se, 1e-9);
	CU_ASSERT_EQUAL(a.efficient, 7);
	CU_ASSERT_EQUAL(a.crossover, SF_SWEEP_CROSS_AT);
	CU_ASSERT_FALSE(a.comm_first);
	CU_ASSERT_EQUAL(a.crossover_x, 9);
	CU_ASSERT_EQUAL(a.cheapest, 1);
	CLOSE(a.cheapest_cost, 0.066, 1e-12);
	CLOSE(a.cheapest_time, 66, 1e-12);
	/* Time in minutes: 60 times the cost. */
	s.hours_per_unit = 1 / 60.0;
	CU_ASSERT_EQUAL_FATAL(sf_sweep_answer(f, &s, 1, 64, &a, NULL), SF_OK);
	CLOSE(a.cheapest_cost, 3.96, 1e-12);
	/* From p = 10 on communication leads throughout. */
	CU_ASSERT_EQUAL_FATAL(sf_sweep_answer(f, &s, 10, 64, &a, NULL), SF_OK);
	CU_ASSERT_EQUAL(a.crossover, SF_SWEEP_CROSS_NEVER);
	CU_ASSERT_TRUE(a.comm_first);
	CU_ASSERT_EQUAL(a.fastest, 10);
	sf_fitfile_free(f);
}

/* Along n at p = 8: compute 8 n, communication 8, so compute overtakes
 * communication at n = 1, found by bisection between grid points. */
static void
test_sweep_crossover_real(void)
{
	double base[2] = {8, 0};
	sf_fitfile *f = sf_test_fitfile("fit/simple.json");
	sf_sweep_settings s;
	sf_sweep_answers a;

	memset(&s, 0, sizeof s);
	s.var = 1;
	s.base = base;
	s.worker_input = 0;
	s.log = 1;
	s.price = NAN;
	s.hours_per_unit = 1 / 3600.0;
	CU_ASSERT_EQUAL_FATAL(sf_sweep_answer(f, &s, 0.1, 10, &a, NULL), SF_OK);
	CU_ASSERT_EQUAL(a.searched, SF_SWEEP_DENSE_POINTS);
	CU_ASSERT_FALSE(a.every_whole);
	CU_ASSERT_EQUAL(a.crossover, SF_SWEEP_CROSS_AT);
	CU_ASSERT_TRUE(a.comm_first);
	CLOSE(a.crossover_x, 1, 1e-12);
	CU_ASSERT(isnan(a.efficient));
	CU_ASSERT(isnan(a.cheapest));
	CLOSE(a.fastest, 0.1, 1e-15);
	sf_fitfile_free(f);
}

/* ddp.json's terms have no kind tag for the time's rest (t0). */
static void
test_sweep_rest(void)
{
	sf_fitfile *f = sf_test_fitfile("fit/ddp.json");
	double base[4] = {0, 32, 1.28e6, 0}, x = 4;
	sf_sweep_settings s = worker_settings(base);
	sf_sweep *w;

	s.price = NAN;
	CU_ASSERT_EQUAL_FATAL(sf_sweep_run(f, &s, &x, 1, &w, NULL), SF_OK);
	/* steps = 10000: compute 320, comm 200, t0 = 2: T = 522. */
	CLOSE(w->pred->points[0].time, 522, 1e-9);
	CU_ASSERT(isnan(w->share[0]));
	CLOSE(w->rest[0], 2.0 / 522, 1e-12);
	CU_ASSERT_TRUE(sf_sweep_rest_matters(w));
	CU_ASSERT(isnan(w->pred->points[0].ci.lo));
	sf_sweep_free(w);
	sf_fitfile_free(f);
}

/* ---- assignments -----------------------------------------------------------
 */

static void
test_assign(void)
{
	static const struct {
		const char *text;
		int rc;
		const char *words;
	} bad[] = {
	    {"", SF_ESYNTAX, "empty"},
	    {"p", SF_ESYNTAX, "'p' is not NAME=VALUE"},
	    {"=4", SF_ESYNTAX, "is not NAME=VALUE"},
	    {"p=4,", SF_ESYNTAX, "is not NAME=VALUE"},
	    {"pp=4", SF_ENAME, "did you mean 'p'?"},
	    {"zzzzz=4", SF_ENAME,
	     "unknown input 'zzzzz' (inputs: p, b, n, "
	     "model)"},
	    {"p=4x", SF_ESYNTAX, "'4x' is not a number (for p)"},
	    {"p=1e999", SF_EVALUE, "out of range"},
	    {"p=4,p=5", SF_ENAME, "p is given twice"},
	    {"model=cnm", SF_ENAME, "did you mean 'cnn'?"},
	};
	sf_fitfile *f = sf_test_fitfile("fit/ddp.json");
	double v[4] = {0};
	unsigned char given[4] = {0};
	sf_error err;

	CU_ASSERT_EQUAL(
	    sf_assign_parse(f, "p=64,b=32,n=1.28e6,model=rnn", v, given, &err),
	    SF_OK);
	CU_ASSERT_EQUAL(v[0], 64);
	CU_ASSERT_EQUAL(v[2], 1.28e6);
	CU_ASSERT_EQUAL(v[3], 1); /* rnn's code */
	CU_ASSERT(given[0] && given[1] && given[2] && given[3]);
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		memset(given, 0, sizeof given);
		CU_ASSERT_EQUAL(sf_assign_parse(f, bad[i].text, v, given, &err),
		                bad[i].rc);
		CU_ASSERT_PTR_NOT_NULL(strstr(err.message, bad[i].words));
		if (strstr(err.message, bad[i].words) == NULL)
			fprintf(stderr, "\n'%s': %s\n", bad[i].text,
			        err.message);
	}
	sf_fitfile_free(f);
}

static void
test_assign_grid(void)
{
	static const char good[] = "p,n,extra\n8,1,x\n32,2,y\n";
	static const char missing[] = "p,N\n8,1\n";
	static const char empty[] = "p,n\n8,1\n16,\n";
	sf_fitfile *f = sf_test_fitfile("fit/simple.json");
	sf_table *t;
	double **columns;
	sf_error err;

	CU_ASSERT_EQUAL_FATAL(
	    sf_table_parse(good, strlen(good), "g.csv", NULL, &t, NULL), SF_OK);
	CU_ASSERT_EQUAL_FATAL(sf_assign_table(f, t, &columns, &err), SF_OK);
	CU_ASSERT_EQUAL(columns[0][1], 32);
	CU_ASSERT_EQUAL(columns[1][1], 2);
	sf_assign_columns_free(columns, 2);
	sf_table_free(t);

	CU_ASSERT_EQUAL_FATAL(
	    sf_table_parse(missing, strlen(missing), "g.csv", NULL, &t, NULL),
	    SF_OK);
	CU_ASSERT_EQUAL(sf_assign_table(f, t, &columns, &err), SF_ENAME);
	CU_ASSERT_PTR_NOT_NULL(strstr(err.message, "did you mean 'N'"));
	CU_ASSERT_EQUAL(err.line, 1);
	sf_table_free(t);

	CU_ASSERT_EQUAL_FATAL(
	    sf_table_parse(empty, strlen(empty), "g.csv", NULL, &t, NULL),
	    SF_OK);
	CU_ASSERT_EQUAL(sf_assign_table(f, t, &columns, &err), SF_EVALUE);
	CU_ASSERT_EQUAL(err.line, 3);
	CU_ASSERT_PTR_NOT_NULL(strstr(err.message, "empty cell"));
	sf_table_free(t);
	sf_fitfile_free(f);
}

/* ---- SVG -------------------------------------------------------------------
 */

static void
test_axis_ticks(void)
{
	double major[64], minor[64];
	size_t nminor, n;
	sf_axis a = {1, 1024, 1, 0, 100};
	char label[160];

	n = sf_axis_ticks(&a, 1, major, 64, minor, 64, &nminor);
	CU_ASSERT_EQUAL(n, 11);
	CU_ASSERT_EQUAL(major[10], 1024);
	CLOSE(sf_axis_map(&a, 32), 50, 1e-12);
	a = (sf_axis){0, 1, 0, 0, 100};
	n = sf_axis_ticks(&a, 0, major, 64, minor, 64, &nminor);
	CU_ASSERT_EQUAL(n, 6);
	CU_ASSERT_EQUAL(major[3], 0.6); /* exactly, not 3 * 0.2 */
	CU_ASSERT_EQUAL(nminor, 15);    /* by 0.05, between the majors */
	a = (sf_axis){1, 1000, 1, 0, 100};
	n = sf_axis_ticks(&a, 0, major, 64, minor, 64, &nminor);
	CU_ASSERT_EQUAL(n, 4);
	CU_ASSERT_EQUAL(major[2], 100);
	CU_ASSERT_EQUAL(nminor, 24);
	/* Labelled ends: a log y axis from 230 to 4500 (300 px tall) has
	 * majors 500, 1000 and 2000 and gets 300 and 4000 too; on 3
	 * decades over 300 px the minor 5 below the major 10 is 30 px
	 * away, labelled on a vertical axis, not on a horizontal one (a
	 * label's width). */
	a = (sf_axis){230, 4500, 1, 300, 0};
	n = sf_axis_ticks(&a, 0, major, 64, minor, 64, &nminor);
	CU_ASSERT(n >= 2);
	CU_ASSERT_EQUAL(major[0], 300);
	CU_ASSERT_EQUAL(major[n - 1], 4000);
	for (size_t k = 0; k < nminor; k++)
		CU_ASSERT(minor[k] > 300 && minor[k] < 4000);
	a = (sf_axis){5, 5000, 1, 300, 0};
	n = sf_axis_ticks(&a, 0, major, 64, minor, 64, &nminor);
	CU_ASSERT_EQUAL(major[0], 5);
	CU_ASSERT_EQUAL(major[n - 1], 5000);
	a = (sf_axis){5, 5000, 1, 0, 300};
	n = sf_axis_ticks(&a, 0, major, 64, minor, 64, &nminor);
	CU_ASSERT_EQUAL(major[0], 10);
	CU_ASSERT_EQUAL(major[n - 1], 5000);
	/* Under a decade: linear steps on the log scale. */
	a = (sf_axis){6, 13, 1, 0, 100};
	n = sf_axis_ticks(&a, 0, major, 64, minor, 64, &nminor);
	CU_ASSERT(n >= 3);
	CU_ASSERT_EQUAL(major[0], 6);
	sf_axis_label(0.5, label, sizeof label);
	CU_ASSERT_STRING_EQUAL(label, "0.5");
	sf_axis_label(1024, label, sizeof label);
	CU_ASSERT_STRING_EQUAL(label, "1024");
	sf_axis_label(1e6, label, sizeof label);
	CU_ASSERT_PTR_NOT_NULL(strstr(label, "10<tspan"));
	CU_ASSERT_PTR_NOT_NULL(strstr(label, ">6</tspan>"));
	sf_axis_label(2e-5, label, sizeof label);
	CU_ASSERT_PTR_NOT_NULL(strstr(label, "2\xc3\x97"
	                                     "10"));
}

/*
 * A small well-formedness check: tags nest and close, attributes are
 * quoted, and text holds no bare '<' or '&' that is not an entity.  (The
 * shell test runs xmllint too, when it is installed.)
 */
static int
well_formed(const char *s)
{
	const char *stack[64];
	size_t depth = 0, lens[64];

	if (strncmp(s, "<?xml", 5) == 0 && (s = strstr(s, "?>")) != NULL)
		s += 2;
	while (s != NULL && *s != '\0') {
		if (*s == '&') {
			if (strncmp(s, "&amp;", 5) && strncmp(s, "&lt;", 4) &&
			    strncmp(s, "&gt;", 4) && strncmp(s, "&quot;", 6) &&
			    strncmp(s, "&apos;", 6))
				return 0;
			s++;
			continue;
		}
		if (*s != '<') {
			s++;
			continue;
		}
		if (s[1] == '/') {
			size_t n = strcspn(s + 2, ">");

			if (depth == 0 || n != lens[depth - 1] ||
			    strncmp(s + 2, stack[depth - 1], n) != 0)
				return 0;
			depth--;
			s += n + 3;
			continue;
		}
		const char *name = s + 1;
		size_t n = strcspn(name, " />");
		const char *p = name + n;
		int quote = 0;

		while (*p != '\0' && (quote || *p != '>')) {
			if (*p == '"')
				quote = !quote;
			else if (*p == '<')
				return 0;
			p++;
		}
		if (*p != '>')
			return 0;
		if (p[-1] != '/') {
			if (depth == 64)
				return 0;
			stack[depth] = name;
			lens[depth++] = n;
		}
		s = p + 1;
	}
	return depth == 0;
}

static void
test_well_formed_checker(void)
{
	CU_ASSERT_TRUE(well_formed("<a><b x=\"1\"/>t&amp;</a>"));
	CU_ASSERT_FALSE(well_formed("<a><b></a>"));
	CU_ASSERT_FALSE(well_formed("<a>&</a>"));
	CU_ASSERT_FALSE(well_formed("<a>"));
}

static void
test_plot(void)
{
	static const double x[] = {1, 2, 4, 8, 16}, t[] = {66, 35, 21, 17, 21};
	static const double lo[] = {60, NAN, 19, 16, 20};
	static const double hi[] = {70, 36, 23, 18, 22};
	static const double eff[] = {1, 0.94, 0.78, 0.49, 0.2};
	static const double mx[] = {8}, my[] = {17.2};
	static const double shares[] = {0.2, 0.2, 0.2, 0.2, 0.2,
	                                0.8, 0.8, 0.8, 0.8, 0.8};
	static const char *const names[] = {"a <&> b", "c"};
	sf_plot_scale p;
	sf_svg *svg;
	const char *text;

	memset(&p, 0, sizeof p);
	p.title = "t & \"q\"";
	p.subtitle = "n = 1";
	p.xlabel = "p (workers)";
	p.ylabel = "epoch_s";
	p.xlog = p.ylog = p.powers_of_two = 1;
	p.n = 5;
	p.x = x;
	p.time = t;
	p.lo = lo;
	p.hi = hi;
	p.band_label = "95% band";
	p.nmeasured = 1;
	p.mx = mx;
	p.my = my;
	p.measured_label = "measured";
	p.fastest_x = 8;
	p.fastest_time = 17;
	p.fastest_label = "fastest: p = 8";
	p.crossover_x = 9;
	p.crossover_label = "communication > compute from p = 9";
	p.efficiency = eff;
	CU_ASSERT_EQUAL_FATAL(sf_plot_scale_draw(&p, &svg, NULL), SF_OK);
	text = sf_svg_text_of(svg, NULL);
	CU_ASSERT_TRUE(well_formed(text));
	CU_ASSERT_PTR_NOT_NULL(strstr(text, "t &amp; &quot;q&quot;"));
	CU_ASSERT_PTR_NOT_NULL(strstr(text, ">16</text>"));
	CU_ASSERT_PTR_NOT_NULL(strstr(text, "parallel efficiency"));
	sf_svg_free(svg);
	/* The shares panel instead. */
	p.efficiency = NULL;
	p.nshares = 2;
	p.share_names = names;
	p.shares = shares;
	CU_ASSERT_EQUAL_FATAL(sf_plot_scale_draw(&p, &svg, NULL), SF_OK);
	text = sf_svg_text_of(svg, NULL);
	CU_ASSERT_TRUE(well_formed(text));
	CU_ASSERT_PTR_NOT_NULL(strstr(text, "a &lt;&amp;&gt; b"));
	CU_ASSERT_PTR_NOT_NULL(strstr(text, "share of time"));
	sf_svg_free(svg);
	/* Nothing finite to draw. */
	p.time = lo + 1;
	p.n = 1;
	CU_ASSERT_EQUAL(sf_plot_scale_draw(&p, &svg, NULL), SF_EVALUE);
}

int
main(void)
{
	static CU_TestInfo load_tests[] = {
	    {"a FIT.json fixture", test_load},
	    {"building blocks and text inputs", test_building_blocks},
	    {"errors at FILE:LINE:COL", test_load_errors},
	    {"without the measured rows", test_load_no_measured},
	    {"a missing file", test_load_missing_file},
	    CU_TEST_INFO_NULL,
	};
	static CU_TestInfo predict_tests[] = {
	    {"delta-method band", test_predict_delta},
	    {"extrapolation", test_predict_extrapolation},
	    {"bootstrap band", test_predict_bootstrap},
	    {"extrapolation warnings", test_predict_warn},
	    {"the predict document", test_predict_json},
	    {"a text input in JSON", test_predict_json_text_input},
	    CU_TEST_INFO_NULL,
	};
	static CU_TestInfo text_tests[] = {
	    {"columns, bands and inputs", test_text},
	    {"put and pair", test_json_helpers},
	    {"written like jansson", test_json_writer_like_jansson},
	    CU_TEST_INFO_NULL,
	};
	static CU_TestInfo sweep_tests[] = {
	    {"points of a sweep", test_sweep_values},
	    {"speedup, efficiency, cost, shares", test_sweep_run},
	    {"fastest, efficient, crossover, cheapest", test_sweep_answers},
	    {"a crossover between grid points", test_sweep_crossover_real},
	    {"the rest of the time", test_sweep_rest},
	    CU_TEST_INFO_NULL,
	};
	static CU_TestInfo assign_tests[] = {
	    {"NAME=VALUE lists", test_assign},
	    {"CSV grids", test_assign_grid},
	    CU_TEST_INFO_NULL,
	};
	static CU_TestInfo svg_tests[] = {
	    {"ticks and labels", test_axis_ticks},
	    {"the well-formedness checker", test_well_formed_checker},
	    {"the scaling chart", test_plot},
	    CU_TEST_INFO_NULL,
	};
	static CU_SuiteInfo suites[] = {
	    {"fitfile", NULL, NULL, NULL, NULL, load_tests},
	    {"predict", NULL, NULL, NULL, NULL, predict_tests},
	    {"text", NULL, NULL, NULL, NULL, text_tests},
	    {"sweep", NULL, NULL, NULL, NULL, sweep_tests},
	    {"assign", NULL, NULL, NULL, NULL, assign_tests},
	    {"svg", NULL, NULL, NULL, NULL, svg_tests},
	    CU_SUITE_INFO_NULL,
	};

	return sf_test_main(suites);
}
