/*
 * test_writers.c - the promise of the two commands that write model files
 * (issue 25), on generated cases: for any CSV that init accepts, the model
 * it writes passes check against that CSV; for any model discover -o
 * writes, check passes.
 *
 * init: 400 CSVs drawn from fixed seeds, with column names people write
 * and hostile ones (YAML syntax, line breaks, ESC, bytes that are not
 * UTF-8, white space at an end), text cells the same, data file names the
 * same, and numbers at the edges of a double (the largest, the smallest
 * subnormal, 0, negative, empty).  Whatever init (sf_scaffold_guess,
 * sf_scaffold_write) accepts must load (sf_model_parse) and bind to the
 * table with its formula compiled (sf_problem_open_table), as check does;
 * what it refuses, it refuses with SF_ENAME, SF_ETYPE or SF_EVALUE - never
 * SF_EINTERNAL.  Enough of them are accepted for the promise to be tested.
 *
 * discover -o: 24 searches (run/discover.h) of data drawn from formulas of
 * the grammar, with hostile model names and output columns; the model
 * file each gives back loads and binds to its data file through the path
 * it would be written to, as `scalefit check FILE` reads it.
 */
#include "base/rng.h"
#include "base/text.h"
#include "input/model.h"
#include "input/problem.h"
#include "input/scaffold.h"
#include "run/discover.h"
#include "testing.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Where the discover cases write their data: a fresh directory. */
static char dir[256];

static int
suite_init(void)
{
	return sf_test_dir_make(dir, sizeof dir, "writers");
}

static int
suite_clean(void)
{
	return sf_test_dir_remove(dir);
}

/* One of the n texts of list. */
static const char *
pick(sf_rng *r, const char *const *list, size_t n)
{
	return list[sf_rng_bounded(r, (uint32_t)n)];
}

#define PICK(r, list) pick(r, list, sizeof list / sizeof list[0])

/* Texts YAML, a terminal or the CSV reader would take for something else,
 * put into names and cells. */
static const char *const hostile[] = {
    "a: b",
    "[x",
    "*x",
    "#x",
    "&x",
    "x #y",
    "{x}",
    "!x",
    "- x",
    "'q'",
    "\"q\"",
    "yes",
    "null",
    "1e3",
    "x\nwhere: p > 1",
    "esc\x1b[1m",
    "t\tb",
    "nul\xc2\x85",
    "caf\xc3\xa9",
    "bad\xff",
    "sp \v",
    "\x7f",
    "\\back",
    "ls\xe2\x80\xa8",
    "",
};

/* A CSV field: text, quoted as CSV quotes it. */
static void
field(sf_text *csv, const char *text)
{
	sf_text_putc(csv, '"');
	for (const char *c = text; *c != '\0'; c++) {
		if (*c == '"')
			sf_text_putc(csv, '"');
		sf_text_putc(csv, *c);
	}
	sf_text_putc(csv, '"');
}

/* A column name: one a role reads as itself, with a hostile text around
 * it now and then. */
static void
column_name(sf_rng *r, sf_text *csv, const char *base)
{
	sf_text name = SF_TEXT_INIT;
	uint32_t how = sf_rng_bounded(r, 6);

	if (how == 0)
		sf_text_printf(&name, "%s%s", base, PICK(r, hostile));
	else if (how == 1)
		sf_text_printf(&name, "%s %s", PICK(r, hostile), base);
	else
		sf_text_puts(&name, base);
	field(csv, sf_text_str(&name) != NULL ? sf_text_str(&name) : "x");
	sf_text_free(&name);
}

/* A number cell: mostly ordinary, sometimes at an edge. */
static void
number_cell(sf_rng *r, sf_text *csv, double typical)
{
	static const char *const edges[] = {"1e308",  "1.7976931348623157e308",
	                                    "5e-324", "2.2250738585072014e-308",
	                                    "0",      "-1",
	                                    "",       "1e-300",
	                                    "1e300",  "0x10"};

	if (sf_rng_bounded(r, 12) == 0)
		sf_text_puts(csv, PICK(r, edges));
	else
		sf_text_printf(csv, "%.6g",
		               typical * (0.5 + sf_rng_uniform(r)));
}

/* A generated table: some of workers, batch, samples, steps, time and a
 * text column, in a random order. */
static void
generated_csv(sf_rng *r, sf_text *csv)
{
	static const char *const workers[] = {"gpus", "workers", "nodes",
	                                      "world_size", "num_gpu"};
	static const char *const batches[] = {"batch", "global_batch",
	                                      "batch_per_gpu", "total_batch"};
	static const char *const counts[] = {"samples", "images", "tokens"};
	static const char *const steps[] = {"iterations", "steps"};
	static const char *const times[] = {"time_s", "epoch_time_s", "seconds",
	                                    "step_time_s", "duration"};
	const char *names[6];
	double typical[6];
	size_t n = 0, rows = 2 + sf_rng_bounded(r, 6);

	names[n] = PICK(r, workers), typical[n++] = 4;
	if (sf_rng_bounded(r, 2))
		names[n] = PICK(r, batches), typical[n++] = 64;
	if (sf_rng_bounded(r, 2))
		names[n] = PICK(r, counts), typical[n++] = 1e5;
	if (sf_rng_bounded(r, 3) == 0)
		names[n] = PICK(r, steps), typical[n++] = 100;
	names[n] = PICK(r, times), typical[n++] = 50;
	names[n] = "job", typical[n++] = NAN; /* a text column */
	for (size_t c = 0; c < n; c++) {
		if (c > 0)
			sf_text_putc(csv, ',');
		column_name(r, csv, names[c]);
	}
	sf_text_putc(csv, '\n');
	for (size_t row = 0; row < rows; row++) {
		for (size_t c = 0; c < n; c++) {
			if (c > 0)
				sf_text_putc(csv, ',');
			if (isnan(typical[c]))
				field(csv, PICK(r, hostile));
			else
				number_cell(r, csv, typical[c]);
		}
		sf_text_putc(csv, '\n');
	}
}

/* The outcome of init on one CSV: 1 accepted (and checked), 0 refused. */
static int
init_case(const char *csv, const char *file)
{
	sf_model_set *set = NULL;
	sf_table *t = NULL;
	sf_scaffold g;
	sf_problem p;
	sf_error err;
	char name[128], *text = NULL;
	int rc, accepted = 0;

	if (sf_table_parse(csv, strlen(csv), file, NULL, &t, &err) != SF_OK)
		return 0;
	rc = sf_scaffold_guess(t, &g, &err);
	CU_ASSERT(rc == SF_OK || rc == SF_ENAME || rc == SF_ETYPE);
	if (rc == SF_OK) {
		sf_scaffold_name(file, name, sizeof name);
		rc = sf_scaffold_write(t, &g, name, file, &text, &err);
		if (rc != SF_OK && rc != SF_EVALUE)
			fprintf(stderr, "\ninit: %s\n%s\n", err.message, csv);
		CU_ASSERT(rc == SF_OK || rc == SF_EVALUE);
	}
	if (text != NULL) {
		accepted = 1;
		rc = sf_model_parse("MODEL.yaml", text, strlen(text), &set,
		                    NULL, NULL, &err);
		CU_ASSERT_EQUAL(rc, SF_OK);
		if (rc == SF_OK) {
			rc = sf_problem_open_table(set->models[0], t,
			                           set->models[0]->fit.loss,
			                           NULL, NULL, &p, &err);
			CU_ASSERT_EQUAL(rc, SF_OK);
			if (rc == SF_OK)
				sf_problem_close(&p);
			CU_ASSERT_STRING_EQUAL(
			    set->models[0]->data_file_at.text, file);
		}
		if (rc != SF_OK)
			fprintf(stderr, "\ncheck: %d:%d: %s\n%s\n", err.line,
			        err.column, err.message, text);
	}
	sf_model_set_free(set);
	free(text);
	sf_table_free(t);
	return accepted;
}

static void
test_init(void)
{
	static const char *const files[] = {
	    "runs.csv",        "a: b.csv",  "[x.csv",   "#x.csv",
	    "dir/x.y.csv",     "tab\t.csv", "nl\n.csv", "\xff.csv",
	    "caf\xc3\xa9.csv", "-",         ".hidden",  "x #y.csv"};
	size_t accepted = 0, cases = 400;
	sf_rng r;

	sf_rng_seed(&r, 25, 1);
	for (size_t i = 0; i < cases; i++) {
		sf_text csv = SF_TEXT_INIT;

		generated_csv(&r, &csv);
		CU_ASSERT_PTR_NOT_NULL_FATAL(sf_text_str(&csv));
		accepted += (size_t)init_case(csv.data, PICK(&r, files));
		sf_text_free(&csv);
	}
	/* enough accepted that the promise was tested */
	if (accepted < cases / 4)
		fprintf(stderr, "\ninit accepted %zu of %zu\n", accepted,
		        cases);
	CU_ASSERT(accepted >= cases / 4);
}

/* ---- discover -o ----------------------------------------------------------
 */

/* Data of a formula of the grammar: t = a + b / p + c log2(p) (+ noise),
 * over p = 1..32 and two batch sizes, written to path with the output
 * column called output. */
static int
write_data(sf_rng *r, const char *path, const char *output)
{
	double a = 0.5 + sf_rng_uniform(r), b = 10 * (1 + sf_rng_uniform(r));
	double c = sf_rng_uniform(r);
	sf_text csv = SF_TEXT_INIT;
	FILE *f;
	int ok;

	sf_text_puts(&csv, "p,bs,");
	field(&csv, output);
	sf_text_putc(&csv, '\n');
	for (int p = 1; p <= 32; p *= 2)
		for (int bs = 16; bs <= 32; bs *= 2)
			sf_text_printf(
			    &csv, "%d,%d,%.9g\n", p, bs,
			    (a + b / p + c * log2(p)) *
			        (1 + 0.02 * (sf_rng_uniform(r) - 0.5)));
	if (sf_text_str(&csv) == NULL || (f = fopen(path, "w")) == NULL) {
		sf_text_free(&csv);
		return 0;
	}
	ok = fputs(csv.data, f) >= 0;
	ok &= fclose(f) == 0;
	sf_text_free(&csv);
	return ok;
}

/* The model discover starts from: name and output quoted for YAML by
 * hand (the test's own writer, not the one under test). */
static char *
start_model(const char *name, const char *output)
{
	sf_text y = SF_TEXT_INIT;
	const char *texts[2] = {name, output};

	for (int i = 0; i < 2; i++) {
		sf_text_puts(&y, i == 0 ? "name: \""
		                        : "data:\n  file: d.csv\n"
		                          "  output: \"");
		for (const unsigned char *c = (const unsigned char *)texts[i];
		     *c != '\0'; c++)
			if (*c == '"' || *c == '\\')
				sf_text_printf(&y, "\\%c", *c);
			else if (*c < 0x20 || *c == 0x7f)
				sf_text_printf(&y, "\\x%02X", *c);
			else
				sf_text_putc(&y, (char)*c);
		sf_text_puts(&y, "\"\n");
	}
	sf_text_puts(&y, "inputs:\n  p: p\n  b: bs\n");
	return sf_text_take(&y);
}

static void
test_discover(void)
{
	static const char *const names[] = {
	    "a: b",        "[x",     "*x",   "#x",    "&x",  "x #y",
	    "{x}",         "- x",    "'q'",  "\"q\"", "yes", "sub/dir",
	    "caf\xc3\xa9", "\\back", "t\tb", "m"};
	static const char *const outputs[] = {
	    "t", "time (s)", "t: x", "#t", "t\"q", "[t", "t #1", "caf\xc3\xa9"};
	sf_rng r;
	char data[300], model[300], out[300];

	sf_rng_seed(&r, 25, 2);
	snprintf(data, sizeof data, "%s/d.csv", dir);
	snprintf(model, sizeof model, "%s/m.yaml", dir);
	snprintf(out, sizeof out, "%s/found.yaml", dir);
	for (size_t i = 0; i < 24; i++) {
		const char *output = PICK(&r, outputs);
		char *yaml = start_model(PICK(&r, names), output);
		sf_model_set *set = NULL, *found = NULL;
		sf_run_discover_settings s;
		sf_run_discover_result *res = NULL;
		sf_problem p;
		sf_error err;
		int rc;

		CU_ASSERT_PTR_NOT_NULL_FATAL(yaml);
		CU_ASSERT_FATAL(write_data(&r, data, output));
		rc = sf_model_parse_flags(model, yaml, strlen(yaml),
		                          SF_MODEL_FORMULA_OPTIONAL, &set, NULL,
		                          NULL, &err);
		CU_ASSERT_EQUAL_FATAL(rc, SF_OK);
		sf_run_discover_settings_init(&s);
		s.options.threads = 1;
		s.options.max_terms = 2;
		s.output = i % 2 == 0 ? out : NULL;
		rc = sf_run_discover(set, &s, &res, &err);
		if (rc != SF_OK)
			fprintf(stderr, "\ndiscover: %s\n%s", err.message,
			        yaml);
		CU_ASSERT_EQUAL_FATAL(rc, SF_OK);
		/* as check reads the file where it would be written */
		rc = sf_model_parse(res->model_path, res->model_text,
		                    strlen(res->model_text), &found, NULL, NULL,
		                    &err);
		CU_ASSERT_EQUAL(rc, SF_OK);
		if (rc == SF_OK) {
			rc = sf_problem_open(found->models[0], NULL,
			                     found->models[0]->fit.loss, NULL,
			                     NULL, &p, &err);
			CU_ASSERT_EQUAL(rc, SF_OK);
			if (rc == SF_OK)
				sf_problem_close(&p);
			CU_ASSERT_STRING_EQUAL(found->models[0]->output.text,
			                       output);
		}
		if (rc != SF_OK)
			fprintf(stderr, "\ncheck: %d:%d: %s\n%s\n", err.line,
			        err.column, err.message, res->model_text);
		sf_model_set_free(found);
		sf_run_discover_result_free(res);
		sf_model_set_free(set);
		free(yaml);
	}
}

int
main(void)
{
	CU_TestInfo tests[] = {
	    {"init: 400 generated CSVs, what it writes checks", test_init},
	    {"discover -o: 24 searches, what it writes checks", test_discover},
	    CU_TEST_INFO_NULL,
	};
	CU_SuiteInfo suites[] = {
	    {"writers", suite_init, suite_clean, NULL, NULL, tests},
	    CU_SUITE_INFO_NULL,
	};

	return sf_test_main(suites);
}
