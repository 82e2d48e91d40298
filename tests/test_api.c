/*
 * test_api.c - the public C API (src/api/scalefit.h) through the shared
 * library, as a program uses it: every entry point, its errors, rows given
 * as columns giving the constants of the CSV file bit for bit, settings
 * read with the command line's messages, and runs from two threads at
 * once.
 */
#include "api/scalefit.h"
#include "testing.h"

#include <locale.h>
#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The model most tests fit: 7 rows of Amdahl's law, two constants. */
#define MODEL "expressions/amdahl.yaml"
#define CSV "datasets/elasticflow_a100/throughputs.csv"

/* Where the tests write files: a fresh directory. */
static char dir[256];

static int
suite_init(void)
{
	snprintf(dir, sizeof dir, "%s/scalefit-api.XXXXXX",
	         getenv("TMPDIR") != NULL ? getenv("TMPDIR") : "/tmp");
	return mkdtemp(dir) == NULL;
}

static int
suite_clean(void)
{
	char cmd[300];

	snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
	return system(cmd) != 0;
}

/* MODEL, opened. */
static scalefit_model *
open_model(const char *rel)
{
	scalefit_model *m = NULL;
	scalefit_error e;

	if (scalefit_model_open(sf_test_path(rel), &m, &e) != SCALEFIT_OK)
		fprintf(stderr, "%s\n", e.text);
	return m;
}

/* Settings from pairs key, value, ..., NULL (a value may be NULL). */
static scalefit_settings *
settings(const char *key, ...)
{
	scalefit_settings *s = NULL;
	scalefit_error e;
	va_list ap;

	if (scalefit_settings_new(&s, &e) != SCALEFIT_OK)
		return NULL;
	va_start(ap, key);
	for (const char *k = key; k != NULL; k = va_arg(ap, const char *)) {
		const char *v = va_arg(ap, const char *);

		if (scalefit_settings_set(s, k, v, &e) != SCALEFIT_OK)
			fprintf(stderr, "%s\n", e.text);
	}
	va_end(ap);
	return s;
}

/* A fit of MODEL with seed 1 on d's rows (NULL: its data.file). */
static scalefit_fit *
fit_amdahl(const scalefit_data *d)
{
	scalefit_model *m = open_model(MODEL);
	scalefit_settings *s = settings("seed", "1", "threads", "1", NULL);
	scalefit_fit *f = NULL;
	scalefit_error e;

	if (scalefit_run_fit(m, d, s, &f, &e) != SCALEFIT_OK)
		fprintf(stderr, "%s\n", e.text);
	scalefit_settings_free(s);
	scalefit_model_free(m);
	return f;
}

static void
test_version_and_codes(void)
{
	CU_ASSERT_STRING_EQUAL(scalefit_version(), PACKAGE_VERSION);
	CU_ASSERT_STRING_EQUAL(scalefit_code_name(SCALEFIT_ENOMEM),
	                       "out of memory");
	CU_ASSERT_STRING_EQUAL(scalefit_code_name(99), "unknown error");
}

static void
test_fit(void)
{
	scalefit_fit *f = fit_amdahl(NULL);
	const scalefit_report *r;
	double lo = 0, hi = 0;
	size_t f_at;

	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	CU_ASSERT_EQUAL(scalefit_fit_parameter_count(f), 2);
	CU_ASSERT_STRING_EQUAL(scalefit_fit_parameter_name(f, 0), "t1");
	CU_ASSERT_PTR_NULL(scalefit_fit_parameter_name(f, 2));
	f_at = scalefit_fit_parameter_index(f, "f");
	CU_ASSERT_EQUAL(f_at, 1);
	CU_ASSERT_EQUAL(scalefit_fit_parameter_index(f, "g"), SCALEFIT_NONE);
	CU_ASSERT(scalefit_fit_value(f, f_at) > 0.9);
	CU_ASSERT(scalefit_fit_stderr(f, f_at) > 0);
	scalefit_fit_ci95(f, f_at, &lo, &hi);
	CU_ASSERT(lo < scalefit_fit_value(f, f_at) &&
	          scalefit_fit_value(f, f_at) < hi);
	CU_ASSERT(isnan(scalefit_fit_value(f, 7)));
	CU_ASSERT(scalefit_fit_metric(f, "mape") > 0);
	CU_ASSERT(isnan(scalefit_fit_metric(f, "nope")));
	r = scalefit_fit_report(f);
	CU_ASSERT_STRING_EQUAL(scalefit_report_command(r), "fit");
	CU_ASSERT_EQUAL(scalefit_report_status(r), 0);
	CU_ASSERT_PTR_NOT_NULL(
	    strstr(scalefit_report_text(r), "fit of amdahl"));
	CU_ASSERT_PTR_NOT_NULL(strstr(scalefit_report_json(r), "\"t1\""));
	CU_ASSERT_PTR_NULL(scalefit_report_svg(r));
	/* By path: the same numbers. */
	CU_ASSERT_EQUAL(scalefit_report_number(r, "parameters.f.value"),
	                scalefit_fit_value(f, f_at));
	CU_ASSERT_EQUAL(scalefit_report_number(r, "parameters.f.ci95[1]"), hi);
	CU_ASSERT_STRING_EQUAL(scalefit_report_string(r, "model.name"),
	                       "amdahl");
	CU_ASSERT_EQUAL(scalefit_report_size(r, "parameters"), 2);
	CU_ASSERT_EQUAL(scalefit_report_size(r, "covariance"), 2);
	CU_ASSERT_STRING_EQUAL(scalefit_report_key(r, "parameters", 1), "f");
	CU_ASSERT_PTR_NULL(scalefit_report_key(r, "parameters", 2));
	CU_ASSERT(isnan(scalefit_report_number(r, "model.name")));
	CU_ASSERT(isnan(scalefit_report_number(r, "covariance[9][0]")));
	CU_ASSERT_PTR_NULL(scalefit_report_string(r, "no.such.path"));
	CU_ASSERT_EQUAL(scalefit_report_number(r, "metrics.rank_deficient"), 0);
	scalefit_fit_free(f);
	scalefit_fit_free(NULL);
}

/* The CSV's columns as the caller's arrays, added to a new data handle:
 * numbers for the numeric columns, texts or codes for the others. */
static scalefit_data *
columns_of_csv(int codes)
{
	FILE *in = fopen(sf_test_path(CSV), "r");
	char line[512], *names[16] = {0}, *cells[16][128] = {{0}};
	size_t ncols = 0, nrows = 0;
	scalefit_data *d = NULL;
	scalefit_error e;

	CU_ASSERT_PTR_NOT_NULL_FATAL(in);
	while (fgets(line, sizeof line, in) != NULL && nrows < 128) {
		char *save = NULL, *tok = strtok_r(line, ",\n", &save);
		size_t c = 0;

		for (; tok != NULL && c < 16;
		     tok = strtok_r(NULL, ",\n", &save), c++) {
			if (ncols == 0 || names[c] == NULL)
				names[c] = strdup(tok);
			else
				cells[c][nrows] = strdup(tok);
		}
		if (ncols == 0)
			ncols = c;
		else
			nrows++;
	}
	fclose(in);
	CU_ASSERT_EQUAL_FATAL(scalefit_data_new("<columns>", &d, &e),
	                      SCALEFIT_OK);
	for (size_t c = 0; c < ncols; c++) {
		double values[128];
		int64_t code[128];
		char *end;
		int numeric = 1;

		for (size_t i = 0; i < nrows; i++) {
			values[i] = strtod(cells[c][i], &end);
			numeric &= *end == '\0';
			code[i] = (int64_t)i;
		}
		if (numeric)
			CU_ASSERT_EQUAL(scalefit_data_add_numbers(
			                    d, names[c], values, nrows, &e),
			                SCALEFIT_OK)
		else if (codes)
			CU_ASSERT_EQUAL(scalefit_data_add_levels(
			                    d, names[c],
			                    (const char *const *)cells[c],
			                    nrows, code, nrows, &e),
			                SCALEFIT_OK)
		else
			CU_ASSERT_EQUAL(scalefit_data_add_texts(
			                    d, names[c],
			                    (const char *const *)cells[c],
			                    nrows, &e),
			                SCALEFIT_OK)
		free(names[c]);
		for (size_t i = 0; i < nrows; i++)
			free(cells[c][i]);
	}
	return d;
}

/* Columns in memory give the constants of the CSV file, bit for bit. */
static void
test_columns_as_csv(void)
{
	scalefit_data *csv = NULL, *texts = columns_of_csv(0),
	              *codes = columns_of_csv(1);
	scalefit_fit *a, *b, *c;
	scalefit_error e;

	CU_ASSERT_EQUAL_FATAL(scalefit_data_csv(sf_test_path(CSV), &csv, &e),
	                      SCALEFIT_OK);
	a = fit_amdahl(csv);
	b = fit_amdahl(texts);
	c = fit_amdahl(codes);
	CU_ASSERT_PTR_NOT_NULL_FATAL(a);
	CU_ASSERT_PTR_NOT_NULL_FATAL(b);
	CU_ASSERT_PTR_NOT_NULL_FATAL(c);
	for (size_t i = 0; i < 2; i++) {
		CU_ASSERT_EQUAL(scalefit_fit_value(a, i),
		                scalefit_fit_value(b, i));
		CU_ASSERT_EQUAL(scalefit_fit_value(a, i),
		                scalefit_fit_value(c, i));
		CU_ASSERT_EQUAL(scalefit_fit_stderr(a, i),
		                scalefit_fit_stderr(b, i));
	}
	CU_ASSERT_EQUAL(scalefit_fit_metric(a, "aicc"),
	                scalefit_fit_metric(b, "aicc"));
	CU_ASSERT_STRING_EQUAL(
	    scalefit_report_string(scalefit_fit_report(b), "data.file"),
	    "<columns>");
	scalefit_fit_free(a);
	scalefit_fit_free(b);
	scalefit_fit_free(c);
	scalefit_data_free(csv);
	scalefit_data_free(texts);
	scalefit_data_free(codes);
}

/* A line's constant from columns added in the program's locale, which
 * the test sets with setlocale before adding them. */
static double
line_slope(void)
{
	const char *inputs[] = {"p=x"}, *params[] = {"a=0:10", "b=0:10"};
	double x[8], y[8], slope = NAN;
	scalefit_model *m = NULL;
	scalefit_data *d = NULL;
	scalefit_fit *f = NULL;
	scalefit_error e;

	for (int i = 0; i < 8; i++) {
		x[i] = i + 1.5;
		y[i] = 2.25 + 3.125 * x[i];
	}
	if (scalefit_model_formula("a + b * p", inputs, 1, params, 2, &m, &e) ==
	        SCALEFIT_OK &&
	    scalefit_data_new(NULL, &d, &e) == SCALEFIT_OK &&
	    scalefit_data_add_numbers(d, "x", x, 8, &e) == SCALEFIT_OK &&
	    scalefit_data_add_numbers(d, "time", y, 8, &e) == SCALEFIT_OK &&
	    scalefit_run_fit(m, d, NULL, &f, &e) == SCALEFIT_OK)
		slope = scalefit_fit_value(f, 1);
	else
		fprintf(stderr, "%s\n", e.text);
	scalefit_fit_free(f);
	scalefit_data_free(d);
	scalefit_model_free(m);
	return slope;
}

/* Numbers are written as cells in the C locale whatever the program's:
 * a decimal comma once split each fractional cell in two. */
static void
test_columns_in_a_comma_locale(void)
{
	const char *names[] = {"de_DE.UTF-8", "de_DE.utf8", "fr_FR.UTF-8",
	                       "fr_FR.utf8"};
	double c = line_slope(), comma = NAN;
	int found = 0;

	CU_ASSERT(fabs(c - 3.125) < 1e-6);
	for (size_t i = 0; i < sizeof names / sizeof *names && !found; i++)
		found = setlocale(LC_ALL, names[i]) != NULL;
	if (!found)
		return; /* no such locale installed: nothing to check */
	comma = line_slope();
	setlocale(LC_ALL, "C");
	CU_ASSERT_EQUAL(comma, c);
}

static void
test_data_errors(void)
{
	const double x[] = {1, 2, 3}, inf[] = {1, INFINITY};
	const char *t[] = {"a", "b"};
	const int64_t bad[] = {0, 5};
	scalefit_data *d = NULL, *csv = NULL;
	scalefit_error e;

	CU_ASSERT_EQUAL_FATAL(scalefit_data_new(NULL, &d, &e), SCALEFIT_OK);
	CU_ASSERT_EQUAL(scalefit_data_add_numbers(d, "x", x, 3, &e),
	                SCALEFIT_OK);
	CU_ASSERT_EQUAL(scalefit_data_add_numbers(d, "x", x, 3, &e),
	                SCALEFIT_ENAME);
	CU_ASSERT_PTR_NOT_NULL(strstr(e.text, "<columns>: column 'x' is"));
	CU_ASSERT_EQUAL(scalefit_data_add_texts(d, "t", t, 2, &e),
	                SCALEFIT_EVALUE);
	CU_ASSERT_PTR_NOT_NULL(strstr(e.message, "has 2 rows, the others 3"));
	CU_ASSERT_EQUAL(scalefit_data_add_numbers(d, "", x, 3, &e),
	                SCALEFIT_ENAME);
	CU_ASSERT_EQUAL(scalefit_data_add_numbers(d, "i", inf, 2, &e),
	                SCALEFIT_EVALUE);
	CU_ASSERT_EQUAL(scalefit_data_add_levels(d, "c", t, 2, bad, 2, NULL),
	                SCALEFIT_EVALUE);
	CU_ASSERT_EQUAL(scalefit_data_add_numbers(d, "z", NULL, 3, &e),
	                SCALEFIT_EUSAGE);
	CU_ASSERT_PTR_NOT_NULL(strstr(e.message, "no values given"));
	CU_ASSERT_EQUAL(scalefit_data_add_texts(d, "z", NULL, 3, &e),
	                SCALEFIT_EUSAGE);
	scalefit_data_free(d);
	CU_ASSERT_EQUAL(scalefit_data_csv("x.csv", &csv, &e), SCALEFIT_OK);
	CU_ASSERT_EQUAL(scalefit_data_add_numbers(csv, "x", x, 3, &e),
	                SCALEFIT_EUSAGE);
	scalefit_data_free(csv);
	scalefit_data_free(NULL);
}

static void
test_model_errors(void)
{
	scalefit_model *m = NULL;
	scalefit_error e;

	CU_ASSERT_EQUAL(scalefit_model_open("/no/such.yaml", &m, &e),
	                SCALEFIT_EIO);
	CU_ASSERT_PTR_NULL(m);
	CU_ASSERT_EQUAL(e.code, SCALEFIT_EIO);
	CU_ASSERT_STRING_EQUAL(e.file, "/no/such.yaml");
	CU_ASSERT_EQUAL(
	    scalefit_model_parse("name: x\ntime: [a\n", "m.yaml", &m, &e),
	    SCALEFIT_ESYNTAX);
	CU_ASSERT_STRING_EQUAL(e.file, "m.yaml");
	CU_ASSERT(e.line > 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(e.text, "m.yaml:"));
	CU_ASSERT_EQUAL(scalefit_model_open("@no-such-formula", &m, &e),
	                SCALEFIT_ENAME);
	/* A model without a formula opens (for discover); fit refuses it
	 * with the loader's message. */
	CU_ASSERT_EQUAL_FATAL(
	    scalefit_model_parse("name: d\ninputs: {p: gpus}\n", NULL, &m, &e),
	    SCALEFIT_OK);
	CU_ASSERT_EQUAL(scalefit_model_count(m), 1);
	CU_ASSERT_STRING_EQUAL(scalefit_model_name(m, 0), "d");
	CU_ASSERT_PTR_NULL(scalefit_model_name(m, 1));
	{
		scalefit_fit *f = NULL;

		CU_ASSERT_EQUAL(scalefit_run_fit(m, NULL, NULL, &f, &e),
		                SCALEFIT_ESYNTAX);
		CU_ASSERT_PTR_NOT_NULL(
		    strstr(e.text, "the model has no 'time'"));
		CU_ASSERT_PTR_NULL(f);
	}
	scalefit_model_free(m);
	scalefit_model_free(NULL);
}

static void
test_model_from_parts(void)
{
	const char *inputs[] = {"p=gpus"};
	const char *params[] = {"t1=0.001:10", "f=0:1"};
	const char *bad[] = {"t1=zero:10"};
	scalefit_settings *s =
	    settings("where", "job == 'resnet50' && global_batch == 256",
	             "output-column", "step_time_s", "seed", "1", NULL);
	scalefit_data *d = NULL;
	scalefit_model *m = NULL;
	scalefit_fit *f = NULL;
	scalefit_error e;

	CU_ASSERT_EQUAL_FATAL(
	    scalefit_model_formula("t1 * (1 - f) + t1 * f / p", inputs, 1,
	                           params, 2, &m, &e),
	    SCALEFIT_OK);
	CU_ASSERT_STRING_EQUAL(scalefit_model_name(m, 0), "formula");
	CU_ASSERT_EQUAL(scalefit_data_csv(sf_test_path(CSV), &d, &e),
	                SCALEFIT_OK);
	CU_ASSERT_EQUAL(scalefit_run_fit(m, d, s, &f, &e), SCALEFIT_OK);
	CU_ASSERT(fabs(scalefit_fit_value(f, 1) - 0.921) < 0.01);
	scalefit_fit_free(f);
	scalefit_model_free(m);
	CU_ASSERT_EQUAL(scalefit_model_formula("t1", inputs, 1, bad, 1, &m, &e),
	                SCALEFIT_ESYNTAX);
	CU_ASSERT_PTR_NOT_NULL(strstr(e.message, "parameter 't1=zero:10'"));
	/* A formula that does not compile: placed in the model the parts
	 * make, when a run compiles it. */
	CU_ASSERT_EQUAL_FATAL(
	    scalefit_model_formula("t1 +", inputs, 1, params, 2, &m, &e),
	    SCALEFIT_OK);
	CU_ASSERT_EQUAL(scalefit_run_fit(m, d, s, &f, &e), SCALEFIT_ESYNTAX);
	CU_ASSERT_STRING_EQUAL(e.file, "<formula>");
	CU_ASSERT_PTR_NOT_NULL(strstr(e.text, "time: \"t1 +\""));
	scalefit_model_free(m);
	scalefit_data_free(d);
	scalefit_settings_free(s);
}

/* Settings: unknown names with the nearest, values the command line's
 * way, options the command does not take. */
static void
test_settings(void)
{
	scalefit_settings *s = NULL;
	scalefit_model *m = open_model(MODEL);
	scalefit_fit *f = NULL;
	scalefit_report *r = NULL;
	scalefit_error e;

	CU_ASSERT_EQUAL_FATAL(scalefit_settings_new(&s, &e), SCALEFIT_OK);
	CU_ASSERT_EQUAL(scalefit_settings_set(s, "sed", "1", &e),
	                SCALEFIT_EREQUEST);
	CU_ASSERT_STRING_EQUAL(e.text,
	                       "unknown option 'sed'; did you mean 'seed'?");
	CU_ASSERT_EQUAL(scalefit_settings_set(s, "loo", "1", &e),
	                SCALEFIT_EREQUEST);
	CU_ASSERT_EQUAL(scalefit_settings_set(s, "seed", NULL, &e),
	                SCALEFIT_EREQUEST);
	CU_ASSERT_EQUAL(scalefit_settings_set(s, "seed", "x", &e), SCALEFIT_OK);
	CU_ASSERT_EQUAL(scalefit_run_fit(m, NULL, s, &f, &e),
	                SCALEFIT_EREQUEST);
	CU_ASSERT_STRING_EQUAL(e.text, "--seed needs a whole number from 0 to "
	                               "2^64-1, not 'x'");
	scalefit_settings_set(s, "seed", "2", &e); /* replaces */
	scalefit_settings_set(s, "loo", NULL, &e);
	CU_ASSERT_EQUAL(scalefit_run_fit(m, NULL, s, &f, &e),
	                SCALEFIT_EREQUEST);
	CU_ASSERT_STRING_EQUAL(e.text, "fit takes no option 'loo'");
	scalefit_settings_unset(s, "loo");
	scalefit_settings_set(s, "json", NULL, &e);
	scalefit_settings_set(s, "quiet", NULL, &e);
	CU_ASSERT_EQUAL(scalefit_run_fit(m, NULL, s, &f, &e), SCALEFIT_OK);
	CU_ASSERT_EQUAL(scalefit_report_warning_count(scalefit_fit_report(f)),
	                0);
	/* validate: exactly one way of holding out. */
	CU_ASSERT_EQUAL(scalefit_run_validate(m, NULL, s, &r, &e),
	                SCALEFIT_EREQUEST);
	CU_ASSERT_STRING_EQUAL(e.text, "validate needs exactly one of --train "
	                               "EXPR, --kfold K and --loo");
	CU_ASSERT_PTR_NULL(r);
	scalefit_fit_free(f);
	scalefit_model_free(m);
	scalefit_settings_free(s);
	scalefit_settings_free(NULL);
}

/* The data options change a run's copy of the model, not the model. */
static void
test_data_options(void)
{
	scalefit_model *m = open_model(MODEL);
	scalefit_settings *s = settings("where", "gpus <= 8", NULL);
	scalefit_fit *f = NULL, *g = NULL;
	scalefit_error e;

	CU_ASSERT_EQUAL_FATAL(scalefit_run_fit(m, NULL, s, &f, &e),
	                      SCALEFIT_OK);
	CU_ASSERT_STRING_EQUAL(
	    scalefit_report_string(scalefit_fit_report(f), "data.where"),
	    "gpus <= 8");
	CU_ASSERT_EQUAL_FATAL(scalefit_run_fit(m, NULL, NULL, &g, &e),
	                      SCALEFIT_OK);
	CU_ASSERT_STRING_EQUAL(
	    scalefit_report_string(scalefit_fit_report(g), "data.where"),
	    "job == 'resnet50' && global_batch == 256");
	scalefit_settings_free(s);
	scalefit_fit_free(f);
	scalefit_fit_free(g);
	s = settings("input", "q=gpus", NULL);
	CU_ASSERT_EQUAL(scalefit_run_fit(m, NULL, s, &f, &e), SCALEFIT_ENAME);
	CU_ASSERT_STRING_EQUAL(e.file, "--input");
	scalefit_settings_free(s);
	scalefit_model_free(m);
}

static void
test_validate_compare(void)
{
	scalefit_model *m = open_model(MODEL);
	const scalefit_model *two[2] = {m, m};
	scalefit_settings *s =
	    settings("train", "gpus <= 8", "seed", "1", NULL);
	scalefit_report *r = NULL;
	scalefit_error e;

	CU_ASSERT_EQUAL_FATAL(scalefit_run_validate(m, NULL, s, &r, &e),
	                      SCALEFIT_OK);
	CU_ASSERT_STRING_EQUAL(scalefit_report_command(r), "validate");
	CU_ASSERT_STRING_EQUAL(scalefit_report_string(r, "validation.method"),
	                       "split");
	CU_ASSERT(scalefit_report_number(r, "validation.mape") > 0);
	CU_ASSERT_EQUAL(scalefit_report_status(r), 0);
	scalefit_report_free(r);
	scalefit_settings_free(s);
	s = settings("kfold", "3", NULL);
	CU_ASSERT_EQUAL_FATAL(scalefit_run_compare(two, 2, NULL, s, &r, &e),
	                      SCALEFIT_OK);
	CU_ASSERT_EQUAL(scalefit_report_size(r, "comparison.candidates"), 2);
	CU_ASSERT_PTR_NOT_NULL(strstr(scalefit_report_text(r), "rank"));
	scalefit_report_free(r);
	CU_ASSERT_EQUAL(scalefit_run_compare(two, 0, NULL, s, &r, &e),
	                SCALEFIT_EREQUEST);
	scalefit_settings_free(s);
	scalefit_model_free(m);
}

/* discover: the board and the winner's model file written where "output"
 * says (a model that opens), the grammar's shapes, and its refusals:
 * rows in memory (the model file names its data file) and a budget
 * beyond the most. */
static void
test_discover(void)
{
	scalefit_model *m = open_model(MODEL), *written = NULL;
	scalefit_data *cols = columns_of_csv(0);
	scalefit_settings *s;
	scalefit_report *r = NULL;
	scalefit_error e;
	char path[300];

	snprintf(path, sizeof path, "%s/discovered.yaml", dir);
	s = settings("seed", "1", "threads", "1", "output", path, NULL);
	CU_ASSERT_EQUAL_FATAL(scalefit_run_discover(m, NULL, s, &r, &e),
	                      SCALEFIT_OK);
	CU_ASSERT_STRING_EQUAL(scalefit_report_command(r), "discover");
	CU_ASSERT(scalefit_report_size(r, "discover.board") > 1);
	CU_ASSERT(scalefit_report_number(r, "discover.winner") >= 1);
	CU_ASSERT_STRING_EQUAL(scalefit_report_string(r, "discover.output"),
	                       path);
	CU_ASSERT_PTR_NOT_NULL(strstr(scalefit_report_text(r), "best found"));
	scalefit_report_free(r);
	CU_ASSERT_EQUAL(scalefit_model_open(path, &written, &e), SCALEFIT_OK);
	CU_ASSERT(scalefit_model_count(written) >= 1);
	scalefit_model_free(written);
	scalefit_settings_free(s);
	s = settings("shapes", NULL, NULL);
	CU_ASSERT_EQUAL_FATAL(scalefit_run_discover(m, NULL, s, &r, &e),
	                      SCALEFIT_OK);
	CU_ASSERT(scalefit_report_size(r, "shapes") > 5);
	scalefit_report_free(r);
	scalefit_settings_free(s);
	s = settings("threads", "1", NULL);
	CU_ASSERT_EQUAL(scalefit_run_discover(m, cols, s, &r, &e),
	                SCALEFIT_EREQUEST);
	CU_ASSERT_PTR_NOT_NULL(strstr(e.text, "names its data file"));
	CU_ASSERT_PTR_NULL(r);
	scalefit_settings_free(s);
	CU_ASSERT_EQUAL(scalefit_settings_new(&s, &e), SCALEFIT_OK);
	CU_ASSERT_EQUAL(scalefit_settings_set(s, "budget", "1000001", &e),
	                SCALEFIT_OK);
	CU_ASSERT_NOT_EQUAL(scalefit_run_discover(m, NULL, s, &r, &e),
	                    SCALEFIT_OK);
	CU_ASSERT_PTR_NOT_NULL(strstr(e.text, "budget"));
	scalefit_settings_free(s);
	scalefit_data_free(cols);
	scalefit_model_free(m);
	/* A model without a formula, what discover is for: with a data
	 * change too (the run reloads it). */
	{
		char text[4096 + 200];

		snprintf(text, sizeof text,
		         "name: nf\ndata:\n  file: \"%s\"\n  output: "
		         "step_time_s\n  where: \"job == 'resnet50' && "
		         "global_batch == 256\"\ninputs: {p: gpus}\n",
		         sf_test_path(CSV));
		CU_ASSERT_EQUAL_FATAL(scalefit_model_parse(text, NULL, &m, &e),
		                      SCALEFIT_OK);
	}
	s = settings("threads", "1", NULL);
	CU_ASSERT_EQUAL(scalefit_run_discover(m, NULL, s, &r, &e), SCALEFIT_OK);
	CU_ASSERT(scalefit_report_size(r, "discover.board") > 1);
	scalefit_report_free(r);
	CU_ASSERT_EQUAL(scalefit_settings_set(s, "where", "gpus >= 1", &e),
	                SCALEFIT_OK);
	CU_ASSERT_EQUAL(scalefit_run_discover(m, NULL, s, &r, &e), SCALEFIT_OK);
	scalefit_report_free(r);
	scalefit_settings_free(s);
	scalefit_model_free(m);
}

static void
test_predict_scale_next(void)
{
	scalefit_fit *f = fit_amdahl(NULL);
	const scalefit_fit *fits[2] = {f, f};
	scalefit_settings *s = settings("at", "p=64", "at", "p=2", NULL);
	scalefit_report *r = NULL;
	scalefit_error e;

	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	CU_ASSERT_EQUAL_FATAL(scalefit_run_predict(fits, 1, s, &r, &e),
	                      SCALEFIT_OK);
	CU_ASSERT_EQUAL(scalefit_report_point_count(r), 2);
	CU_ASSERT_EQUAL(scalefit_report_point(r, 0, "p"), 64);
	CU_ASSERT_EQUAL(scalefit_report_point(r, 0, "time"),
	                scalefit_report_number(r, "points[0].time"));
	CU_ASSERT_EQUAL(scalefit_report_point(r, 0, "upper95"),
	                scalefit_report_number(r, "points[0].interval95[1]"));
	CU_ASSERT(scalefit_report_point(r, 0, "lower95") <
	          scalefit_report_point(r, 0, "time"));
	CU_ASSERT_EQUAL(scalefit_report_point(r, 0, "extrapolated"), 0);
	CU_ASSERT(isnan(scalefit_report_point(r, 0, "nope")));
	CU_ASSERT(isnan(scalefit_report_point(r, 5, "time")));
	scalefit_report_free(r);
	/* Two fits: their average. */
	CU_ASSERT_EQUAL_FATAL(scalefit_run_predict(fits, 2, s, &r, &e),
	                      SCALEFIT_OK);
	CU_ASSERT_EQUAL(scalefit_report_size(r, "models"), 2);
	scalefit_report_free(r);
	scalefit_settings_free(s);
	s = settings("at", "p=1024", NULL);
	CU_ASSERT_EQUAL(scalefit_run_predict(fits, 1, s, &r, &e), SCALEFIT_OK);
	CU_ASSERT_EQUAL(scalefit_report_point(r, 0, "extrapolated"), 1);
	CU_ASSERT_EQUAL(scalefit_report_warning_count(r), 1);
	CU_ASSERT_PTR_NOT_NULL(strstr(scalefit_report_warning(r, 0),
	                              "fit of amdahl: point 1 lies outside"));
	CU_ASSERT_PTR_NULL(scalefit_report_warning(r, 1));
	scalefit_report_free(r);
	scalefit_settings_free(s);
	/* scale, with its chart in memory */
	s = settings("over", "p=1:64", "chart", NULL, NULL);
	CU_ASSERT_EQUAL_FATAL(scalefit_run_scale(fits, 1, s, &r, &e),
	                      SCALEFIT_OK);
	CU_ASSERT(scalefit_report_point_count(r) >= 7);
	CU_ASSERT_EQUAL(scalefit_report_point(r, 0, "speedup"), 1);
	CU_ASSERT_PTR_NOT_NULL(strstr(scalefit_report_svg(r), "</svg>"));
	scalefit_report_free(r);
	scalefit_settings_free(s);
	s = settings("set", "p=2", NULL);
	CU_ASSERT_EQUAL(scalefit_run_scale(fits, 1, s, &r, &e),
	                SCALEFIT_EREQUEST);
	CU_ASSERT_PTR_NOT_NULL(strstr(e.text, "say what to sweep"));
	scalefit_settings_free(s);
	/* next */
	s = settings("target", "p=256", "over", "p=1:128", NULL);
	CU_ASSERT_EQUAL_FATAL(scalefit_run_next(fits, 1, s, &r, &e),
	                      SCALEFIT_OK);
	CU_ASSERT(scalefit_report_size(r, "candidates") >= 8);
	CU_ASSERT_PTR_NOT_NULL(
	    strstr(scalefit_report_text(r), "next run for amdahl"));
	scalefit_report_free(r);
	scalefit_settings_free(s);
	scalefit_fit_free(f);
}

static void
test_save_load(void)
{
	scalefit_fit *f = fit_amdahl(NULL), *g = NULL;
	char path[400];
	scalefit_error e;

	snprintf(path, sizeof path, "%s/fit.json", dir);
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	CU_ASSERT_EQUAL(scalefit_fit_save(f, path, &e), SCALEFIT_OK);
	if (scalefit_fit_load(path, &g, &e) != SCALEFIT_OK)
		fprintf(stderr, "%s\n", e.text);
	CU_ASSERT_PTR_NOT_NULL_FATAL(g);
	CU_ASSERT_EQUAL(scalefit_fit_value(g, 1), scalefit_fit_value(f, 1));
	CU_ASSERT_STRING_EQUAL(scalefit_report_json(scalefit_fit_report(g)),
	                       scalefit_report_json(scalefit_fit_report(f)));
	CU_ASSERT_PTR_NULL(scalefit_report_text(scalefit_fit_report(g)));
	scalefit_fit_free(g);
	CU_ASSERT_EQUAL(scalefit_fit_save(f, "/no/such/dir/fit.json", &e),
	                SCALEFIT_EIO);
	CU_ASSERT_EQUAL(scalefit_fit_load("/no/such.json", &g, &e),
	                SCALEFIT_EIO);
	CU_ASSERT_PTR_NULL(g);
	CU_ASSERT_EQUAL(scalefit_fit_load(sf_test_path(MODEL), &g, &e),
	                SCALEFIT_ESYNTAX);
	CU_ASSERT(e.line > 0);
	scalefit_fit_free(f);
}

/* A fit and a prediction in each of two threads at once: the same bits. */
typedef struct job {
	const scalefit_model *m;
	const scalefit_data *d;
	const scalefit_settings *s;
	double value[2];
	int rc;
} job;

static void *
run_job(void *arg)
{
	job *j = arg;
	scalefit_fit *f = NULL;
	scalefit_report *r = NULL;
	scalefit_error e;

	scalefit_settings *at = NULL;

	j->rc = scalefit_run_fit(j->m, j->d, j->s, &f, &e);
	if (j->rc == SCALEFIT_OK)
		j->rc = scalefit_settings_new(&at, &e);
	if (j->rc == SCALEFIT_OK)
		j->rc = scalefit_settings_set(at, "at", "p=16", &e);
	if (j->rc == SCALEFIT_OK)
		j->rc = scalefit_run_predict((const scalefit_fit *const *)&f, 1,
		                             at, &r, &e);
	if (j->rc == SCALEFIT_OK) {
		j->value[0] = scalefit_fit_value(f, 0);
		j->value[1] = scalefit_report_point(r, 0, "upper95");
	}
	scalefit_settings_free(at);
	scalefit_report_free(r);
	scalefit_fit_free(f);
	return NULL;
}

static void
test_threads(void)
{
	scalefit_model *m = open_model(MODEL);
	scalefit_data *d = columns_of_csv(0);
	scalefit_settings *s = settings("seed", "1", "threads", "2", NULL);
	job jobs[2] = {{m, d, s, {0, 0}, -1}, {m, d, s, {0, 0}, -1}};
	pthread_t t[2];

	for (size_t i = 0; i < 2; i++)
		CU_ASSERT_EQUAL_FATAL(
		    pthread_create(&t[i], NULL, run_job, &jobs[i]), 0);
	for (size_t i = 0; i < 2; i++)
		pthread_join(t[i], NULL);
	CU_ASSERT_EQUAL(jobs[0].rc, SCALEFIT_OK);
	CU_ASSERT_EQUAL(jobs[1].rc, SCALEFIT_OK);
	CU_ASSERT_EQUAL(jobs[0].value[0], jobs[1].value[0]);
	CU_ASSERT_EQUAL(jobs[0].value[1], jobs[1].value[1]);
	scalefit_settings_free(s);
	scalefit_data_free(d);
	scalefit_model_free(m);
}

int
main(void)
{
	static CU_TestInfo tests[] = {
	    {"version and codes", test_version_and_codes},
	    {"fit: constants, metrics, report by path", test_fit},
	    {"columns give the CSV's constants bit for bit",
	     test_columns_as_csv},
	    {"columns in a locale with a decimal comma",
	     test_columns_in_a_comma_locale},
	    {"data: errors", test_data_errors},
	    {"models: errors at FILE:LINE:COL", test_model_errors},
	    {"a model from its parts", test_model_from_parts},
	    {"settings: names, values, commands", test_settings},
	    {"data options change a run's copy", test_data_options},
	    {"validate and compare", test_validate_compare},
	    {"discover: board, model file, shapes, refusals", test_discover},
	    {"predict, scale and next", test_predict_scale_next},
	    {"save and load", test_save_load},
	    {"two threads at once", test_threads},
	    CU_TEST_INFO_NULL,
	};
	static CU_SuiteInfo suites[] = {
	    {"api", suite_init, suite_clean, NULL, NULL, tests},
	    CU_SUITE_INFO_NULL,
	};

	return sf_test_main(suites);
}
