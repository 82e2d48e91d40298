/*
 * testing.h - the one way every scalefit CUnit program runs its suites, and
 * the fixtures several of them share.
 *
 * CUnit's own example returns 0 even when assertions fail, because
 * CU_cleanup_registry() resets the failure count.  sf_test_main() reads
 * the count first, so `make check` fails whenever any assertion does.
 * It also locates test data through the `srcdir` variable that automake's
 * test harness exports, so tests pass in VPATH builds (make distcheck).
 *
 * Fixtures: sf_test_problem is a model made ready to fit (model file ->
 * table -> dataset -> formula), from YAML text placed under tests/data/ or
 * from a model file of the source tree; sf_test_warnings collects the
 * warnings a library call reports through its sf_warn_fn; sf_test_fitfile
 * loads a fit file of tests/data/, and sf_test_keys and sf_test_number
 * read the JSON documents the library writes; sf_test_dir_make and
 * sf_test_dir_remove give a suite a directory of its own.  Everything here is
 * static inline, so each test program takes what it uses.
 */
#ifndef SF_TESTING_H
#define SF_TESTING_H

#include "base/error.h"
#include "input/model.h"
#include "input/problem.h"
#include "use/fitfile.h"

#include <CUnit/Basic.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/*
 * Register the NULL-terminated suites and run them in verbose basic mode.
 * Returns 0 when every assertion passed, 1 otherwise (or when CUnit could
 * not start).
 */
static inline int
sf_test_main(CU_SuiteInfo *suites)
{
	unsigned failures;

	if (CU_initialize_registry() != CUE_SUCCESS)
		return 1;
	if (CU_register_suites(suites) != CUE_SUCCESS) {
		fprintf(stderr, "CUnit: %s\n", CU_get_error_msg());
		CU_cleanup_registry();
		return 1;
	}
	CU_basic_set_mode(CU_BRM_VERBOSE);
	CU_basic_run_tests();
	failures =
	    CU_get_number_of_failures() + CU_get_number_of_suites_failed();
	CU_cleanup_registry();
	return failures == 0 ? 0 : 1;
}

/*
 * The path of a file of the source tree: $srcdir/REL, or ./REL when srcdir
 * is unset.  Returns a static buffer that the next call overwrites (tests
 * are single-threaded here).
 */
static inline const char *
sf_test_path(const char *rel)
{
	static char path[4096];
	const char *top = getenv("srcdir") != NULL ? getenv("srcdir") : ".";

	if (snprintf(path, sizeof path, "%s/%s", top, rel) >=
	    (int)sizeof path) {
		fprintf(stderr, "test path too long: %s/%s\n", top, rel);
		abort();
	}
	return path;
}

/*
 * The path of a test data file: $srcdir/tests/data/NAME, or
 * ./tests/data/NAME when srcdir is unset.  Returns a static buffer that
 * the next call overwrites.
 */
static inline const char *
sf_test_data(const char *name)
{
	char rel[4096];

	snprintf(rel, sizeof rel, "tests/data/%s", name);
	return sf_test_path(rel);
}

/* ---- a model made ready to fit ------------------------------------------ */

/* A model file's set and the problem of its first model. */
typedef struct sf_test_problem {
	sf_model_set *set;
	sf_problem p;
} sf_test_problem;

/* For sf_test_problem_load(): open with the model's own loss. */
#define SF_TEST_MODEL_LOSS (-1)

static inline int
sf_test_problem_open_(sf_test_problem *fx, int loss, sf_error *err)
{
	const sf_model *m = fx->set->models[0];

	if (sf_problem_open(m, NULL,
	                    loss == SF_TEST_MODEL_LOSS ? m->fit.loss
	                                               : (sf_loss)loss,
	                    NULL, NULL, &fx->p, err) != SF_OK) {
		fprintf(stderr, "%s:%d:%d: %s\n", err->file, err->line,
		        err->column, err->message);
		return -1;
	}
	return 0;
}

/*
 * Parse yaml as if it were the model file tests/data/NAME (so a relative
 * data.file is found beside it) and open its first model's problem with
 * the model's loss.  Returns 0, or -1 after printing the error to stderr.
 * Close with sf_test_problem_close() either way.
 */
static inline int
sf_test_problem_parse(sf_test_problem *fx, const char *name, const char *yaml)
{
	char path[4096];
	sf_error err;

	memset(fx, 0, sizeof *fx);
	snprintf(path, sizeof path, "%s", sf_test_data(name));
	if (sf_model_parse(path, yaml, strlen(yaml), &fx->set, NULL, NULL,
	                   &err) != SF_OK) {
		fprintf(stderr, "%s:%d:%d: %s\n", err.file, err.line,
		        err.column, err.message);
		return -1;
	}
	return sf_test_problem_open_(fx, SF_TEST_MODEL_LOSS, &err);
}

/*
 * Load the model file REL of the source tree (sf_test_path) and open its
 * first model's problem with loss (an sf_loss, or SF_TEST_MODEL_LOSS).
 * Returns 0, or -1 after printing the error.  Close either way.
 */
static inline int
sf_test_problem_load(sf_test_problem *fx, const char *rel, int loss)
{
	sf_error err;

	memset(fx, 0, sizeof *fx);
	if (sf_model_load(sf_test_path(rel), &fx->set, NULL, NULL, &err) !=
	    SF_OK) {
		fprintf(stderr, "%s:%d:%d: %s\n", err.file, err.line,
		        err.column, err.message);
		return -1;
	}
	return sf_test_problem_open_(fx, loss, &err);
}

/* Release what fx holds; accepts a fixture whose open failed. */
static inline void
sf_test_problem_close(sf_test_problem *fx)
{
	sf_problem_close(&fx->p);
	sf_model_set_free(fx->set);
	memset(fx, 0, sizeof *fx);
}

/* ---- warnings ----------------------------------------------------------- */

enum { SF_TEST_WARNINGS_MAX = 16 };

/* The warnings a call reported: the first SF_TEST_WARNINGS_MAX in w, the
 * last in last, and how many there were. */
typedef struct sf_test_warnings {
	size_t count;
	sf_error w[SF_TEST_WARNINGS_MAX];
	sf_error last;
} sf_test_warnings;

/* An sf_warn_fn: ctx is an sf_test_warnings the caller zeroed. */
static inline void
sf_test_warn(void *ctx, const sf_error *warning)
{
	sf_test_warnings *ws = ctx;

	if (ws->count < SF_TEST_WARNINGS_MAX)
		ws->w[ws->count] = *warning;
	ws->last = *warning;
	ws->count++;
}

/* ---- fit files and JSON ------------------------------------------------- */

/*
 * Load the fit file tests/data/NAME; a failure prints the error and ends
 * the test (CUnit's fatal assertion).  Free with sf_fitfile_free().
 */
static inline sf_fitfile *
sf_test_fitfile(const char *name)
{
	sf_fitfile *f = NULL;
	sf_error err;
	int rc = sf_fitfile_load(sf_test_data(name), &f, &err);

	if (rc != SF_OK)
		fprintf(stderr, "%s: %s\n", name, err.message);
	CU_ASSERT_EQUAL_FATAL(rc, SF_OK);
	return f;
}

/* The keys of object o, in order, joined by spaces, into out of size
 * bytes (cut short when they do not fit). */
static inline void
sf_test_keys(const json_t *o, char *out, size_t size)
{
	size_t used = 0;

	out[0] = '\0';
	for (void *it = json_object_iter((json_t *)o); it != NULL;
	     it = json_object_iter_next((json_t *)o, it)) {
		int n = snprintf(out + used, size - used, "%s%s",
		                 used ? " " : "", json_object_iter_key(it));

		used += n > 0 ? (size_t)n : 0;
		if (used >= size)
			break;
	}
}

/* The number at key of object o (0 when there is none, or not a number). */
static inline double
sf_test_number(const json_t *o, const char *key)
{
	return json_number_value(json_object_get(o, key));
}

/*
 * A fresh directory for a suite's files under $TMPDIR (else /tmp), named
 * scalefit-PREFIX.XXXXXX: its path into dir (size bytes).  Returns 0, or
 * -1 when it could not be made, as a suite's init function returns.
 */
static inline int
sf_test_dir_make(char *dir, size_t size, const char *prefix)
{
	const char *tmp = getenv("TMPDIR");

	snprintf(dir, size, "%s/scalefit-%s.XXXXXX", tmp != NULL ? tmp : "/tmp",
	         prefix);
	return mkdtemp(dir) == NULL ? -1 : 0;
}

/* Remove directory dir and all it holds: 0, or -1 as a suite's cleanup
 * function returns. */
static inline int
sf_test_dir_remove(const char *dir)
{
	char cmd[600];

	snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
	return system(cmd) != 0 ? -1 : 0;
}

#endif /* SF_TESTING_H */
