/*
 * test_library.c - the formula library: its formulas listed by name with
 * their descriptions (the description: key, else the opening comment),
 * a formula found by name, and an unknown name or directory refused
 * with what to do.
 */
#include "input/library.h"
#include "testing.h"

#include <string.h>

static void
test_description(void)
{
	static const struct {
		const char *text, *want;
	} cases[] = {
	    {"# comment\nname: x\ndescription: Amdahl's law\n", "Amdahl's law"},
	    {"description: \"quoted: yes\"\n", "quoted: yes"},
	    {"#\n#   Four candidates.\nmodels:\n  - description: no\n",
	     "Four candidates."},
	    {"name: x\n", ""},
	};
	char buf[64];

	for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
		sf_library_description(cases[k].text, buf, sizeof buf);
		CU_ASSERT_STRING_EQUAL(buf, cases[k].want);
	}
}

static void
test_list_and_find(void)
{
	const char *dir = sf_test_path(".");
	sf_library_entry *e = NULL;
	size_t n = 0, generic = SIZE_MAX;
	char *path = NULL;
	sf_error err;

	CU_ASSERT_EQUAL_FATAL(sf_library_list(dir, NULL, NULL, &e, &n, &err),
	                      SF_OK);
	CU_ASSERT(n >= 2);
	for (size_t i = 0; i < n; i++) {
		if (i > 0)
			CU_ASSERT(strcmp(e[i - 1].name, e[i].name) < 0);
		if (strcmp(e[i].name, "ddp-generic") == 0)
			generic = i;
		CU_ASSERT(e[i].description[0] != '\0');
	}
	CU_ASSERT_FATAL(generic != SIZE_MAX);
	CU_ASSERT_PTR_NOT_NULL(
	    strstr(e[generic].description, "Generic data-parallel"));
	CU_ASSERT_PTR_NOT_NULL(
	    strstr(e[generic].path, "/expressions/ddp-generic.yaml"));
	CU_ASSERT_EQUAL(sf_library_path(dir, "ddp-generic", &path, &err),
	                SF_OK);
	CU_ASSERT_STRING_EQUAL(path, e[generic].path);
	free(path);
	CU_ASSERT_EQUAL(sf_library_path(dir, "ddp-gneric", &path, &err),
	                SF_ENAME);
	CU_ASSERT_PTR_NULL(path);
	CU_ASSERT_PTR_NOT_NULL(strstr(err.message, "did you mean "
	                                           "'@ddp-generic'?"));
	CU_ASSERT_PTR_NOT_NULL(strstr(err.message, "'scalefit formulas'"));
	sf_library_entries_free(e, n);
	CU_ASSERT_EQUAL(
	    sf_library_list(sf_test_data("none"), NULL, NULL, &e, &n, &err),
	    SF_EIO);
	CU_ASSERT_PTR_NOT_NULL(strstr(err.message, "SCALEFIT_LIBRARY"));
}

int
main(void)
{
	CU_TestInfo tests[] = {
	    {"a file's description", test_description},
	    {"listed by name; found; an unknown name", test_list_and_find},
	    CU_TEST_INFO_NULL,
	};
	CU_SuiteInfo suites[] = {
	    {"library", NULL, NULL, NULL, NULL, tests},
	    CU_SUITE_INFO_NULL,
	};

	return sf_test_main(suites);
}
