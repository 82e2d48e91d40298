/*
 * fuzz_init.c - fuzz target for the promise of `scalefit init` (issue 25):
 * for any CSV that init accepts, the model it writes passes `scalefit
 * check` against that CSV.
 *
 * With libFuzzer: tests/fuzz/libfuzzer.sh init [SECONDS].  Without it
 * (make check's smoke run), tests/fuzz/standalone.c gives it a main()
 * that runs the target once on every file named on the command line or
 * found in the directories named there:
 *   tests/fuzz/fuzz_init tests/fuzz/corpus_init
 *
 * The input: its first byte's low six bits are the length L of the data
 * file's name that follows (0: "runs.csv"; the name ends early at a NUL),
 * its top two the steps' rounding where the runs may take whole steps
 * (sf_scaffold_whole_steps: 0 and 3 the quotient, 1 down, 2 up; run/init
 * chooses it by fits, which a fuzzer has no time for), then the CSV text.  In
 * memory, with no file and no process: the CSV is parsed (sf_table_parse), the
 * columns guessed (sf_scaffold_guess) and the model written as init writes it
 * (sf_scaffold_name, sf_scaffold_write). Whenever init accepts, the model must
 * load (sf_model_parse, check's loader) and bind to the table with its formula
 * compiled (sf_problem_open_table, what check does with the rows); its name
 * must be the file's, with the control characters a name may not hold as _; its
 * data.file the name given; its output and inputs the table's columns; every
 * bound finite with min < max; and the text free of raw control characters.
 * init must never fail as a bug (SF_EINTERNAL: its own check of what it wrote).
 * A broken invariant aborts.
 */
#define _POSIX_C_SOURCE 200809L

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "input/csv.h"
#include "input/model.h"
#include "input/problem.h"
#include "input/scaffold.h"

/* The model text: no byte a terminal or a YAML reader could take for
 * something else (line breaks only between lines). */
static void
check_text(const char *text)
{
	for (const unsigned char *c = (const unsigned char *)text; *c != '\0';
	     c++)
		FUZZ_CHECK((*c >= 0x20 && *c != 0x7f) || *c == '\n');
}

/* The model m init wrote for t, named after file. */
static void
check_model(const sf_model *m, const sf_table *t, const char *file)
{
	char name[128];

	sf_scaffold_name(file, name, sizeof name);
	for (char *c = name; *c != '\0'; c++)
		if (((unsigned char)*c < 0x20 && *c != '\t') || *c == 0x7f)
			*c = '_';
	FUZZ_CHECK(strcmp(m->name, name) == 0);
	FUZZ_CHECK(m->data_file_at.text != NULL &&
	           strcmp(m->data_file_at.text, file) == 0);
	FUZZ_CHECK(m->output.text != NULL &&
	           sf_table_column_find(t, m->output.text) != SF_CSV_NONE);
	FUZZ_CHECK(m->nparams > 0);
	for (size_t i = 0; i < m->nparams; i++) {
		const sf_model_param *p = &m->params[i];

		FUZZ_CHECK(!p->fixed);
		FUZZ_CHECK(isfinite(p->min) && isfinite(p->max));
		FUZZ_CHECK(p->min == 0 && p->max > p->min);
	}
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char file[64] = "runs.csv", *text = NULL;
	sf_model_set *set = NULL;
	sf_table *t = NULL;
	sf_scaffold g;
	sf_problem p;
	size_t skip = 1;
	sf_error err;
	int rc;

	if (size == 0)
		return 0;
	if ((data[0] & 0x3f) > 0 && (size_t)(data[0] & 0x3f) < size) {
		size_t n = data[0] & 0x3f;

		memcpy(file, data + 1, n);
		file[n] = '\0';
		skip += n;
		if (file[0] == '\0')
			snprintf(file, sizeof file, "runs.csv");
	}
	if (sf_table_parse((const char *)data + skip, size - skip, file, NULL,
	                   &t, &err) != SF_OK)
		return 0;
	rc = sf_scaffold_guess(t, &g, &err);
	FUZZ_CHECK(rc == SF_OK || rc == SF_ENAME || rc == SF_ETYPE);
	if (rc == SF_OK) {
		char name[128];

		sf_scaffold_name(file, name, sizeof name);
		if (sf_scaffold_whole_steps(t, &g) && (data[0] >> 6) % 3 != 0) {
			g.steps_rounding = (sf_steps_rule)((data[0] >> 6) % 3);
			g.steps_note = "whole steps";
		}
		rc = sf_scaffold_write(t, &g, name, file, &text, &err);
		/* init refuses (no usable row, a control character in the
		 * file's name, a bound beyond a double) or runs out of
		 * memory; never does it fail its own check */
		FUZZ_CHECK(rc == SF_OK || rc == SF_EVALUE || rc == SF_ENOMEM);
		FUZZ_CHECK((rc == SF_OK) == (text != NULL));
	}
	if (text != NULL) {
		check_text(text);
		rc = sf_model_parse("MODEL.yaml", text, strlen(text), &set,
		                    NULL, NULL, &err);
		if (rc != SF_OK)
			fprintf(stderr, "fuzz_init: %d:%d: %s\n%s\n", err.line,
			        err.column, err.message, text);
		FUZZ_CHECK(rc == SF_OK && set->count == 1);
		check_model(set->models[0], t, file);
		rc = sf_problem_open_table(set->models[0], t,
		                           set->models[0]->fit.loss, NULL, NULL,
		                           &p, &err);
		if (rc != SF_OK)
			fprintf(stderr, "fuzz_init: %d:%d: %s\n%s\n", err.line,
			        err.column, err.message, text);
		FUZZ_CHECK(rc == SF_OK);
		sf_problem_close(&p);
	}
	sf_model_set_free(set);
	free(text);
	sf_table_free(t);
	return 0;
}
