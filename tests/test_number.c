/*
 * test_number.c - complete, locale-proof number parsing.
 */
#include "base/error.h"
#include "base/number.h"
#include "testing.h"

#include <locale.h>
#include <math.h>

static void
test_doubles(void)
{
	static const struct {
		const char *text;
		int rc;
		double value;
	} cases[] = {
	    {"1", SF_OK, 1},          {"2.5", SF_OK, 2.5},
	    {"-2.5", SF_OK, -2.5},    {"+7", SF_OK, 7},
	    {".5", SF_OK, 0.5},       {"5.", SF_OK, 5},
	    {"1e-3", SF_OK, 1e-3},    {"1E+3", SF_OK, 1e3},
	    {"  42  ", SF_OK, 42},    {"1e-400", SF_OK, 0},
	    {"15.00E0", SF_OK, 15},   {"", SF_ESYNTAX, 0},
	    {" ", SF_ESYNTAX, 0},     {"-", SF_ESYNTAX, 0},
	    {".", SF_ESYNTAX, 0},     {"1e", SF_ESYNTAX, 0},
	    {"1e+", SF_ESYNTAX, 0},   {"1.5x", SF_ESYNTAX, 0},
	    {"0x10", SF_ESYNTAX, 0},  {"nan", SF_ESYNTAX, 0},
	    {"inf", SF_ESYNTAX, 0},   {"1,5", SF_ESYNTAX, 0},
	    {"1 2", SF_ESYNTAX, 0},   {"1e999", SF_EVALUE, 0},
	    {"-1e999", SF_EVALUE, 0},
	};

	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		double v = -99;
		int rc = sf_parse_double(cases[i].text, &v);

		CU_ASSERT_EQUAL(rc, cases[i].rc);
		if (rc == SF_OK) {
			CU_ASSERT_EQUAL(v, cases[i].value);
		} else {
			CU_ASSERT_EQUAL(v, -99); /* untouched on failure */
		}
	}
}

/* A locale whose radix is ',' must not change what "2.5" means. */
static void
test_locale(void)
{
	static const char *const names[] = {"de_DE.UTF-8", "de_DE.utf8",
	                                    "fr_FR.UTF-8", "nl_NL.UTF-8"};
	const char *set = NULL;
	double v = 0;

	for (size_t i = 0; i < 4 && set == NULL; i++)
		set = setlocale(LC_NUMERIC, names[i]);
	if (set == NULL) {
		fprintf(stderr, "(no comma-radix locale installed; checked "
		                "the C locale only) ");
	}
	CU_ASSERT_EQUAL(sf_parse_double("2.5", &v), SF_OK);
	CU_ASSERT_EQUAL(v, 2.5);
	CU_ASSERT_EQUAL(sf_parse_double("2,5", &v), SF_ESYNTAX);
	setlocale(LC_NUMERIC, "C");
}

static void
test_counts(void)
{
	uint64_t v = 0;

	CU_ASSERT_EQUAL(sf_parse_count("200000", &v), SF_OK);
	CU_ASSERT_EQUAL(v, 200000);
	CU_ASSERT_EQUAL(sf_parse_count("2e5", &v), SF_OK);
	CU_ASSERT_EQUAL(v, 200000);
	CU_ASSERT_EQUAL(sf_parse_count("10.0", &v), SF_OK);
	CU_ASSERT_EQUAL(v, 10);
	CU_ASSERT_EQUAL(sf_parse_count("10.5", &v), SF_EVALUE);
	CU_ASSERT_EQUAL(sf_parse_count("-1", &v), SF_EVALUE);
	CU_ASSERT_EQUAL(sf_parse_count("1e300", &v), SF_EVALUE);
	CU_ASSERT_EQUAL(sf_parse_count("ten", &v), SF_ESYNTAX);
}

static void
test_u64(void)
{
	uint64_t v = 0;

	CU_ASSERT_EQUAL(sf_parse_u64("18446744073709551615", &v), SF_OK);
	CU_ASSERT_EQUAL(v, UINT64_MAX);
	CU_ASSERT_EQUAL(sf_parse_u64("18446744073709551616", &v), SF_EVALUE);
	CU_ASSERT_EQUAL(sf_parse_u64(" 7 ", &v), SF_OK);
	CU_ASSERT_EQUAL(v, 7);
	CU_ASSERT_EQUAL(sf_parse_u64("-1", &v), SF_EVALUE);
	CU_ASSERT_EQUAL(sf_parse_u64("1e3", &v), SF_ESYNTAX);
	CU_ASSERT_EQUAL(sf_parse_u64("", &v), SF_ESYNTAX);
}

/* Shortest text that reads back exactly; whole numbers in digits. */
static void
test_format(void)
{
	static const struct {
		double v;
		const char *want;
	} cases[] = {
	    {0.1, "0.1"},
	    {0, "0"},
	    {-0.0, "-0"},
	    {1000, "1000"},
	    {1e6, "1000000"},
	    {1e7, "1e+07"},
	    {-250, "-250"},
	    {1.5e-9, "1.5e-09"},
	    {1.0 / 3, "0.3333333333333333"},
	    {2.5e300, "2.5e+300"},
	    {0.30000000000000004, "0.30000000000000004"},
	};
	char buf[32];

	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		sf_format_double(buf, sizeof buf, cases[i].v);
		CU_ASSERT_STRING_EQUAL(buf, cases[i].want);
	}
	/* every double of a sweep reads back */
	for (double v = 1e-12; v < 1e12; v *= 1.37) {
		double back;
		sf_format_double(buf, sizeof buf, v * 0.999999999);
		CU_ASSERT(sf_parse_double(buf, &back) == SF_OK &&
		          back == v * 0.999999999);
	}
}

int
main(void)
{
	static CU_TestInfo tests[] = {
	    {"doubles", test_doubles},
	    {"doubles under a comma-radix locale", test_locale},
	    {"counts", test_counts},
	    {"unsigned 64-bit", test_u64},
	    {"shortest exact text", test_format},
	    CU_TEST_INFO_NULL,
	};
	static CU_SuiteInfo suites[] = {
	    {"number", NULL, NULL, NULL, NULL, tests},
	    CU_SUITE_INFO_NULL,
	};
	return sf_test_main(suites);
}
