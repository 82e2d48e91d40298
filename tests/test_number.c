/*
 * test_number.c - the one number reader: complete, correctly rounded,
 * locale-proof.
 */
#include "base/error.h"
#include "base/number.h"
#include "testing.h"

#include <float.h>
#include <locale.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

enum { RANDOM_LITERALS = 2000000 };

/* Are a and b the same double, bit for bit (so -0 != 0, NaN == NaN)? */
static int
same_bits(double a, double b)
{
	return memcmp(&a, &b, sizeof a) == 0;
}

static void
test_decimal_table(void)
{
	static const struct {
		const char *text;
		sf_number_kind kind;
		double value;
	} cases[] = {
	    {"0", SF_NUMBER_FINITE, 0.0},
	    {"-0", SF_NUMBER_FINITE, -0.0},
	    {"+1", SF_NUMBER_FINITE, 1.0},
	    {"1.", SF_NUMBER_FINITE, 1.0},
	    {".5", SF_NUMBER_FINITE, 0.5},
	    {"-.5e1", SF_NUMBER_FINITE, -5.0},
	    {"1E+3", SF_NUMBER_FINITE, 1000.0},
	    {"1234.5678", SF_NUMBER_FINITE, 1234.5678},
	    {"3.2e-05", SF_NUMBER_FINITE, 3.2e-05},
	    {"0.1", SF_NUMBER_FINITE, 0.1},
	    {"00012", SF_NUMBER_FINITE, 12.0},
	    {"9007199254740993", SF_NUMBER_FINITE, 9007199254740992.0},
	    {"1.7976931348623157e308", SF_NUMBER_FINITE, DBL_MAX},
	    {"4.9406564584124654e-324", SF_NUMBER_FINITE,
	     4.9406564584124654e-324},
	    {"1e-400", SF_NUMBER_FINITE, 0.0},
	    {"0e99999999999999999999", SF_NUMBER_FINITE, 0.0},
	    {"1e999", SF_NUMBER_OVERFLOW, INFINITY},
	    {"-1e999", SF_NUMBER_OVERFLOW, -INFINITY},
	    {"1e99999999999999999999", SF_NUMBER_OVERFLOW, INFINITY},
	    {"nan", SF_NUMBER_NONFINITE, 0},
	    {"-INF", SF_NUMBER_NONFINITE, 0},
	    {"Infinity", SF_NUMBER_NONFINITE, 0},
	    {"", SF_NUMBER_NOT, 0},
	    {".", SF_NUMBER_NOT, 0},
	    {"-", SF_NUMBER_NOT, 0},
	    {"1e", SF_NUMBER_NOT, 0},
	    {"1e+", SF_NUMBER_NOT, 0},
	    {"e5", SF_NUMBER_NOT, 0},
	    {"0x10", SF_NUMBER_NOT, 0},
	    {"0x1p3", SF_NUMBER_NOT, 0},
	    {" 1", SF_NUMBER_NOT, 0},
	    {"1 ", SF_NUMBER_NOT, 0},
	    {"1,5", SF_NUMBER_NOT, 0},
	    {"1_000", SF_NUMBER_NOT, 0},
	    {"nan(1)", SF_NUMBER_NOT, 0},
	    {"12.5x", SF_NUMBER_NOT, 0},
	    {"++1", SF_NUMBER_NOT, 0},
	};

	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		double v = 12345.0;
		sf_number_kind k =
		    sf_parse_decimal(cases[i].text, strlen(cases[i].text), &v);

		CU_ASSERT_EQUAL(k, cases[i].kind);
		if (k != cases[i].kind)
			fprintf(stderr, "\n'%s': kind %d\n", cases[i].text, k);
		/* CU_ASSERT is a block: braces keep the else attached. */
		if (cases[i].kind == SF_NUMBER_FINITE ||
		    cases[i].kind == SF_NUMBER_OVERFLOW) {
			CU_ASSERT(same_bits(v, cases[i].value));
		} else {
			CU_ASSERT(v == 12345.0); /* left alone */
		}
	}
	/* Only length bytes are read: the digits after them do not count. */
	{
		double v = 0;

		CU_ASSERT_EQUAL(sf_parse_decimal("12345", 2, &v),
		                SF_NUMBER_FINITE);
		CU_ASSERT_EQUAL(v, 12.0);
	}
}

/* SplitMix64 for the generated literals. */
static uint64_t
next_random(uint64_t *state)
{
	uint64_t z = (*state += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/* A random literal of one of several shapes, into buf. */
static void
random_literal(uint64_t *state, char *buf, size_t size)
{
	uint64_t r = next_random(state);
	int shape = (int)(r % 6);
	double x;
	uint64_t bits;

	switch (shape) {
	case 0: /* any finite double, shortest-ish round trip */
	case 1: /* any finite double, fewer digits: not exactly a double */
		do {
			bits = next_random(state);
			memcpy(&x, &bits, sizeof x);
		} while (!isfinite(x));
		snprintf(buf, size, "%.*g",
		         shape == 0 ? 17 : 1 + (int)((r >> 8) % 16), x);
		break;
	case 2: { /* measurement-like: fixed point */
		double m = (double)(next_random(state) >> 11) * 0x1.0p-53;

		snprintf(buf, size, "%.*f", (int)((r >> 8) % 12),
		         m * pow(10, (int)((r >> 16) % 12) - 3));
		break;
	}
	case 3: { /* digit strings: long mantissas, any exponent */
		size_t n = 0;
		int ndig = 1 + (int)((r >> 8) % 40);
		int point = (int)((r >> 16) % (unsigned)(ndig + 2)) - 1;

		if (r & (1u << 30))
			buf[n++] = '-';
		for (int i = 0; i < ndig && n + 16 < size; i++) {
			if (i == point)
				buf[n++] = '.';
			buf[n++] = (char)('0' + next_random(state) % 10);
		}
		if (r & (1u << 31))
			n += (size_t)snprintf(buf + n, size - n, "e%d",
			                      (int)((r >> 32) % 700) - 350);
		buf[n] = '\0';
		break;
	}
	case 4: { /* near a midpoint between two doubles */
		long double lo, hi;

		do {
			bits = next_random(state);
			memcpy(&x, &bits, sizeof x);
		} while (!isfinite(x) || isinf(nextafter(x, INFINITY)));
		lo = x;
		hi = nextafter(x, INFINITY);
		snprintf(buf, size, "%.*Le", 16 + (int)((r >> 8) % 25),
		         (lo + hi) / 2);
		break;
	}
	default: /* small integers and short decimals, the fast path */
		snprintf(buf, size, "%s%llu.%0*llue%d", (r >> 63) ? "-" : "",
		         (unsigned long long)(next_random(state) % 100000),
		         (int)((r >> 8) % 8) + 1,
		         (unsigned long long)(next_random(state) % 1000),
		         (int)((r >> 16) % 45) - 22);
		break;
	}
}

/* sf_parse_decimal() and sf_parse_double() against strtod() in the
 * current locale (C here). */
static size_t
compare_with_strtod(size_t count)
{
	uint64_t state = 42;
	size_t failures = 0;
	char buf[256];

	for (size_t i = 0; i < count; i++) {
		char *end;
		double mine = 0, whole = 0, ref;
		sf_number_kind k;
		int rc;

		random_literal(&state, buf, sizeof buf);
		k = sf_parse_decimal(buf, strlen(buf), &mine);
		rc = sf_parse_double(buf, &whole);
		ref = strtod(buf, &end);
		if (*end != '\0' ||
		    k != (isinf(ref) ? SF_NUMBER_OVERFLOW : SF_NUMBER_FINITE) ||
		    !same_bits(mine, ref) ||
		    rc != (isinf(ref) ? SF_EVALUE : SF_OK) ||
		    (rc == SF_OK && !same_bits(whole, ref))) {
			if (failures++ < 5)
				fprintf(stderr,
				        "\n'%s': %.17g (kind %d), "
				        "strtod %.17g\n",
				        buf, mine, k, ref);
		}
	}
	return failures;
}

enum { LITERAL_SIZE = 96 };

/* count generated literals, LITERAL_SIZE bytes apart (printf-made, so
 * call this in the C locale). */
static char *
make_literals(size_t count)
{
	uint64_t state = 7;
	char *all = malloc(count * LITERAL_SIZE);

	for (size_t i = 0; all != NULL && i < count; i++)
		random_literal(&state, all + i * LITERAL_SIZE, LITERAL_SIZE);
	return all;
}

/* A hash of the kinds and bits sf_parse_decimal() gives for the literals. */
static uint64_t
number_fingerprint(const char *all, size_t count)
{
	uint64_t h = 14695981039346656037ULL;

	for (size_t i = 0; i < count; i++) {
		const char *s = all + i * LITERAL_SIZE;
		double v = 0;
		uint64_t bits;

		h = (h ^ (uint64_t)sf_parse_decimal(s, strlen(s), &v)) *
		    1099511628211ULL;
		memcpy(&bits, &v, sizeof bits);
		h = (h ^ bits) * 1099511628211ULL;
	}
	return h;
}

static void
test_decimal_random(void)
{
	CU_ASSERT_EQUAL(compare_with_strtod(RANDOM_LITERALS), 0);
}

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
	} /* A literal of any length, as in a CSV cell or a formula. */
	{
		char text[300] = " 0.";
		double v = 0;

		memset(text + 3, '0', 250);
		strcpy(text + 253, "15e251 ");
		CU_ASSERT_EQUAL(sf_parse_double(text, &v), SF_OK);
		CU_ASSERT_EQUAL(v, 1.5);
	}
}

/* A locale whose radix is ',' must not change what "2.5" means. */
static void
test_locale(void)
{
	static const char *const names[] = {"de_DE.UTF-8", "de_DE.utf8",
	                                    "fr_FR.UTF-8", "nl_NL.UTF-8"};
	enum { COUNT = 200000 };
	char *literals = make_literals(COUNT);
	const char *set = NULL;
	uint64_t fingerprint;
	double v = 0;

	CU_ASSERT_PTR_NOT_NULL_FATAL(literals);
	fingerprint = number_fingerprint(literals, COUNT);
	for (size_t i = 0; i < 4 && set == NULL; i++)
		set = setlocale(LC_NUMERIC, names[i]);
	if (set == NULL) {
		fprintf(stderr, "(no comma-radix locale installed; checked "
		                "the C locale only) ");
	} else {
		/* Prove the locale is in force: strtod stops at the point. */
		CU_ASSERT_EQUAL(strtod("1.5", NULL), 1.0);
	}
	CU_ASSERT_EQUAL(number_fingerprint(literals, COUNT), fingerprint);
	CU_ASSERT_EQUAL(sf_parse_decimal("1234.5678", 9, &v), SF_NUMBER_FINITE);
	CU_ASSERT_EQUAL(v, 1234.5678);
	CU_ASSERT_EQUAL(sf_parse_decimal("0.1234567890123456789012", 24, &v),
	                SF_NUMBER_FINITE);
	CU_ASSERT_EQUAL(v, 0.1234567890123456789012);
	CU_ASSERT_EQUAL(sf_parse_decimal("1,5", 3, &v), SF_NUMBER_NOT);
	CU_ASSERT_EQUAL(sf_parse_double("2.5", &v), SF_OK);
	CU_ASSERT_EQUAL(v, 2.5);
	CU_ASSERT_EQUAL(sf_parse_double("2,5", &v), SF_ESYNTAX);
	setlocale(LC_NUMERIC, "C");
	free(literals);
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
	/* 2^53 is the largest; 2^53 + 1 is not rounded to it */
	CU_ASSERT_EQUAL(sf_parse_count("9007199254740992", &v), SF_OK);
	CU_ASSERT_EQUAL(v, 9007199254740992u);
	CU_ASSERT_EQUAL(sf_parse_count("9007199254740993", &v), SF_EVALUE);
	CU_ASSERT_EQUAL(sf_parse_count("9007199254740991", &v), SF_OK);
	CU_ASSERT_EQUAL(v, 9007199254740991u);
	/* written otherwise, a number read exactly only with 15 digits */
	CU_ASSERT_EQUAL(sf_parse_count("9.007199254740993e15", &v), SF_EVALUE);
	CU_ASSERT_EQUAL(sf_parse_count("4503599627370495.9", &v), SF_EVALUE);
	CU_ASSERT_EQUAL(sf_parse_count("3.0000000000000001", &v), SF_EVALUE);
	CU_ASSERT_EQUAL(sf_parse_count("1.23456789012345e14", &v), SF_OK);
	CU_ASSERT_EQUAL(v, 123456789012345u);
	CU_ASSERT_EQUAL(sf_parse_count("100000000000000.000", &v), SF_OK);
	CU_ASSERT_EQUAL(v, 100000000000000u);
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
	    {"decimal literals", test_decimal_table},
	    {"decimal literals vs strtod, random", test_decimal_random},
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
