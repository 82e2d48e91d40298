/*
 * testing.h - the one way every scalefit CUnit program runs its suites.
 *
 * CUnit's own example returns 0 even when assertions fail, because
 * CU_cleanup_registry() resets the failure count.  sf_test_main() reads
 * the count first, so `make check` fails whenever any assertion does.
 * It also locates test data through the `srcdir` variable that automake's
 * test harness exports, so tests pass in VPATH builds (make distcheck).
 */
#ifndef SF_TESTING_H
#define SF_TESTING_H

#include <CUnit/Basic.h>
#include <stdio.h>
#include <stdlib.h>

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
 * The path of a test data file: $srcdir/tests/data/NAME, or
 * tests/data/NAME when srcdir is unset.  Returns a static buffer that the
 * next call overwrites (tests are single-threaded here).
 */
static inline const char *
sf_test_data(const char *name)
{
	static char path[4096];
	const char *srcdir = getenv("srcdir");

	snprintf(path, sizeof path, "%s/tests/data/%s",
	         srcdir != NULL ? srcdir : ".", name);
	return path;
}

#endif /* SF_TESTING_H */
