/*
 * test_names.c - the set of names with a number each (base/names.h).
 */
#include "base/names.h"
#include "base/error.h"
#include "testing.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Added names are found with their values; others are not. */
static void
test_add_find(void)
{
	sf_names t;
	size_t old = 7;

	sf_names_init(&t);
	CU_ASSERT_EQUAL(sf_names_find(&t, "a"), SF_NAMES_NONE);
	CU_ASSERT_EQUAL(sf_names_add(&t, "a", 3, &old), SF_OK);
	CU_ASSERT_EQUAL(old, SF_NAMES_NONE);
	CU_ASSERT_EQUAL(sf_names_add(&t, "b", 4, NULL), SF_OK);
	CU_ASSERT_EQUAL(sf_names_find(&t, "a"), 3);
	CU_ASSERT_EQUAL(sf_names_find(&t, "b"), 4);
	CU_ASSERT_EQUAL(sf_names_find(&t, "c"), SF_NAMES_NONE);
	CU_ASSERT_EQUAL(sf_names_find(&t, ""), SF_NAMES_NONE);
	CU_ASSERT_EQUAL(t.count, 2);
	sf_names_free(&t);
	CU_ASSERT_EQUAL(t.count, 0);
	CU_ASSERT_EQUAL(sf_names_find(&t, "a"), SF_NAMES_NONE);
}

/* A name added twice keeps its first value and says what it was. */
static void
test_duplicate(void)
{
	sf_names t;
	size_t old = 0;

	sf_names_init(&t);
	CU_ASSERT_EQUAL(sf_names_add(&t, "x", 1, NULL), SF_OK);
	CU_ASSERT_EQUAL(sf_names_add(&t, "x", 2, &old), SF_OK);
	CU_ASSERT_EQUAL(old, 1);
	CU_ASSERT_EQUAL(sf_names_find(&t, "x"), 1);
	CU_ASSERT_EQUAL(t.count, 1);
	sf_names_free(&t);
}

/* Lookups by length: a prefix of a name is not the name. */
static void
test_find_n(void)
{
	sf_names t;

	sf_names_init(&t);
	CU_ASSERT_EQUAL(sf_names_add(&t, "abc", 9, NULL), SF_OK);
	CU_ASSERT_EQUAL(sf_names_find_n(&t, "abcdef", 3), 9);
	CU_ASSERT_EQUAL(sf_names_find_n(&t, "abcdef", 2), SF_NAMES_NONE);
	CU_ASSERT_EQUAL(sf_names_find_n(&t, "abcdef", 4), SF_NAMES_NONE);
	sf_names_free(&t);
}

/* 100,000 names: every one found after the table grew many times, half
 * full at most. */
static void
test_many(void)
{
	enum { N = 100000 };
	char(*names)[16] = malloc(N * sizeof *names);
	sf_names t;

	CU_ASSERT_PTR_NOT_NULL_FATAL(names);
	sf_names_init(&t);
	for (size_t i = 0; i < N; i++) {
		snprintf(names[i], sizeof names[i], "c%zu", i);
		CU_ASSERT_EQUAL_FATAL(sf_names_add(&t, names[i], i, NULL),
		                      SF_OK);
	}
	CU_ASSERT_EQUAL(t.count, N);
	CU_ASSERT(2 * t.count <= t.capacity);
	for (size_t i = 0; i < N; i++)
		CU_ASSERT_EQUAL_FATAL(sf_names_find(&t, names[i]), i);
	CU_ASSERT_EQUAL(sf_names_find(&t, "c100000"), SF_NAMES_NONE);
	sf_names_free(&t);
	free(names);
}

int
main(void)
{
	static CU_TestInfo tests[] = {
	    {"add and find", test_add_find},
	    {"a duplicate keeps its first value", test_duplicate},
	    {"find by length", test_find_n},
	    {"100000 names", test_many},
	    CU_TEST_INFO_NULL,
	};
	static CU_SuiteInfo suites[] = {
	    {"names", NULL, NULL, NULL, NULL, tests},
	    CU_SUITE_INFO_NULL,
	};
	return sf_test_main(suites);
}
