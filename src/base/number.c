/*
 * number.c - the one reader of decimal numbers: CSV cells, formula
 * literals, YAML scalars and options all go through sf_parse_decimal().
 *
 * A decimal literal with at most 19 significant digits and a power of ten
 * within 10^+-22 is converted exactly by one IEEE multiplication or
 * division (Clinger's fast path), which covers measured values; any other
 * literal is rewritten as "DIGITSeEXP", which has no decimal point and so
 * reads the same in every locale, and given to strtod().  Neither path
 * depends on LC_NUMERIC (strtod honours it, so "2.5" would stop at the '.'
 * under a German locale), so nothing here touches the locale, and the
 * result is the correctly rounded double, the same bits as strtod() in the
 * C locale.
 */
#include "base/number.h"
#include "base/error.h"

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum {
	NUMBER_FAST_DIGITS = 19, /* significant digits that fit a uint64_t */
	NUMBER_FAST_POW10 = 22,  /* 10^22 is the largest exact power of ten */
	NUMBER_SLOW_DIGITS = 780 /* digits kept for strtod (> 767, see
	                            number_slow) */
};

/* Every integer up to 2^53 is exactly a double. */
#define NUMBER_EXACT_INTEGER ((uint64_t)1 << 53)

static int
number_is_digit(int c)
{
	return c >= '0' && c <= '9';
}

/* Case-insensitive match of the ASCII word w (lower case) at s[0..n). */
static int
number_is_word(const char *s, size_t n, const char *w)
{
	size_t k = strlen(w);

	if (n != k)
		return 0;
	for (size_t i = 0; i < k; i++) {
		int c = (unsigned char)s[i];

		if (c >= 'A' && c <= 'Z')
			c += 'a' - 'A';
		if (c != w[i])
			return 0;
	}
	return 1;
}

/* "e" and the exponent e (|e| <= 99999999) in digits, written at out
 * with a NUL: what snprintf's "e%lld" writes (sf_number_digits: why not
 * printf). */
static void
number_put_exponent(char *out, long long e)
{
	char digits[24], *end = digits + sizeof digits;
	char *p = sf_number_digits(
	    end, e < 0 ? (unsigned long long)-e : (unsigned long long)e, e < 0);

	*out++ = 'e';
	memcpy(out, p, (size_t)(end - p));
	out[end - p] = '\0';
}

/*
 * The general conversion.  The literal (already checked) is rewritten with
 * its significant digits only, no point, and a matching exponent, so strtod
 * finds nothing a locale could change.  Digits past NUMBER_SLOW_DIGITS are
 * replaced by a single '1' when any of them is not zero: a midpoint between
 * two doubles has at most 767 significant digits, so no rounding boundary
 * lies between the true value and the shortened one.
 */
static sf_number_kind
number_slow(const char *s, const char *end, int negative, long long exponent,
            double *value)
{
	char digits[NUMBER_SLOW_DIGITS + 32];
	size_t kept = 0;
	long long scale = 0; /* value = digits * 10^(scale + exponent) */
	int seen_point = 0, sticky = 0;
	const char *p = s;
	char *stop;
	double v;

	for (; p < end && (number_is_digit(*p) || *p == '.'); p++) {
		if (*p == '.') {
			seen_point = 1;
			continue;
		}
		if (seen_point)
			scale--;
		if (kept == 0 && *p == '0')
			continue;
		if (kept < NUMBER_SLOW_DIGITS) {
			digits[kept++] = *p;
		} else {
			/* A dropped digit moves the kept ones up a place. */
			scale++;
			if (*p != '0')
				sticky = 1;
		}
	}
	if (kept == 0) {
		*value = negative ? -0.0 : 0.0;
		return SF_NUMBER_FINITE;
	}
	if (sticky) {
		digits[kept++] = '1';
		scale--;
	}
	exponent += scale;
	if (exponent > 99999999)
		exponent = 99999999;
	if (exponent < -99999999)
		exponent = -99999999;
	number_put_exponent(digits + kept, exponent);
	v = strtod(digits, &stop);
	if (negative)
		v = -v;
	if (isinf(v)) {
		*value = v;
		return SF_NUMBER_OVERFLOW;
	}
	*value = v;
	return SF_NUMBER_FINITE;
}

sf_number_kind
sf_parse_decimal(const char *s, size_t length, double *value)
{
	/* Powers of ten that are exact doubles. */
	static const double pow10[NUMBER_FAST_POW10 + 1] = {
	    1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,
	    1e8,  1e9,  1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
	    1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};
	const char *p = s, *end = s + length, *digits;
	uint64_t mantissa = 0;
	int significant = 0, negative = 0, ndigits = 0;
	long long fraction = 0, exponent = 0;

	if (p < end && (*p == '+' || *p == '-'))
		negative = *p++ == '-';
	digits = p;
	for (; p < end && number_is_digit(*p); p++, ndigits++) {
		if (significant > 0 || *p != '0') {
			if (significant < NUMBER_FAST_DIGITS)
				mantissa = mantissa * 10 + (uint64_t)(*p - '0');
			significant++;
		}
	}
	if (p < end && *p == '.') {
		for (p++; p < end && number_is_digit(*p); p++, ndigits++) {
			fraction++;
			if (significant > 0 || *p != '0') {
				if (significant < NUMBER_FAST_DIGITS)
					mantissa = mantissa * 10 +
					           (uint64_t)(*p - '0');
				significant++;
			}
		}
	}
	if (ndigits == 0) {
		if (number_is_word(digits, (size_t)(end - digits), "nan") ||
		    number_is_word(digits, (size_t)(end - digits), "inf") ||
		    number_is_word(digits, (size_t)(end - digits), "infinity"))
			return SF_NUMBER_NONFINITE;
		return SF_NUMBER_NOT;
	}
	if (p < end && (*p == 'e' || *p == 'E')) {
		int eneg = 0, edigits = 0;

		p++;
		if (p < end && (*p == '+' || *p == '-'))
			eneg = *p++ == '-';
		for (; p < end && number_is_digit(*p); p++, edigits++) {
			/* Saturate: beyond this any value over/underflows. */
			if (exponent < 1000000000000LL)
				exponent = exponent * 10 + (*p - '0');
		}
		if (edigits == 0)
			return SF_NUMBER_NOT;
		if (eneg)
			exponent = -exponent;
	}
	if (p != end)
		return SF_NUMBER_NOT;
	if (significant == 0) {
		*value = negative ? -0.0 : 0.0;
		return SF_NUMBER_FINITE;
	}
#if FLT_EVAL_METHOD == 0
	/* Clinger's fast path: both operands exact, one rounding.  Only
	 * valid when doubles are evaluated as doubles (not x87). */
	if (significant <= NUMBER_FAST_DIGITS &&
	    mantissa <= NUMBER_EXACT_INTEGER) {
		long long e10 = exponent - fraction;

		if (e10 >= -NUMBER_FAST_POW10 && e10 <= NUMBER_FAST_POW10) {
			double v = (double)mantissa;

			v = e10 >= 0 ? v * pow10[e10] : v / pow10[-e10];
			*value = negative ? -v : v;
			return SF_NUMBER_FINITE;
		}
	}
#endif
	return number_slow(digits, end, negative, exponent, value);
}

/* The blanks a number may be written between: C's isspace() in the C
 * locale, whatever the process locale. */
static int
number_is_space(int c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' ||
	       c == '\r';
}

int
sf_parse_double(const char *text, double *value)
{
	const char *s = text, *end;
	double v;

	while (number_is_space((unsigned char)*s))
		s++;
	end = s + strlen(s);
	while (end > s && number_is_space((unsigned char)end[-1]))
		end--;
	switch (sf_parse_decimal(s, (size_t)(end - s), &v)) {
	case SF_NUMBER_FINITE:
		*value = v;
		return SF_OK;
	case SF_NUMBER_OVERFLOW:
		return SF_EVALUE;
	default:
		return SF_ESYNTAX;
	}
}

/* The significant digits of a decimal literal's mantissa: its digits
 * without the leading zeros and, after a point, the trailing ones. */
static int
significant_digits(const char *s)
{
	int n = 0, zeros = 0, started = 0, point = 0;

	for (; *s != '\0' && *s != 'e' && *s != 'E'; s++) {
		if (*s == '.') {
			point = 1;
			n += zeros;
			zeros = 0;
			continue;
		}
		if (!number_is_digit((unsigned char)*s))
			continue;
		if (*s == '0' && !started)
			continue;
		started = 1;
		if (*s == '0') {
			zeros++;
			continue;
		}
		n += zeros + 1;
		zeros = 0;
	}
	/* Zeros before a point count ("1000" has 4 digits, "10.00" 2),
	 * zeros after the last other digit behind it do not. */
	return point ? n : n + zeros;
}

int
sf_parse_count(const char *text, uint64_t *value)
{
	double v;
	uint64_t exact;
	int rc = sf_parse_double(text, &v);

	if (rc != SF_OK)
		return rc;
	if (v < 0 || v != floor(v) || v > 9007199254740992.0)
		return SF_EVALUE;
	/* Digits alone are read exactly: 9007199254740993 (2^53 + 1) would
	 * be rounded to 2^53.  Otherwise the double is the number only with
	 * at most 15 significant digits: "4503599627370495.9" rounds to a
	 * whole number. */
	rc = sf_parse_u64(text, &exact);
	if (rc == SF_OK) {
		if (exact > 9007199254740992u)
			return SF_EVALUE;
		*value = exact;
		return SF_OK;
	}
	if (rc == SF_EVALUE || significant_digits(text) > DBL_DIG)
		return SF_EVALUE;
	*value = (uint64_t)v;
	return SF_OK;
}

int
sf_parse_u64(const char *text, uint64_t *value)
{
	const char *s = text;
	uint64_t v = 0;

	while (number_is_space((unsigned char)*s))
		s++;
	if (*s == '+')
		s++;
	if (*s == '-')
		return SF_EVALUE;
	if (!number_is_digit((unsigned char)*s))
		return SF_ESYNTAX;
	for (; number_is_digit((unsigned char)*s); s++) {
		unsigned d = (unsigned)(*s - '0');

		if (v > (UINT64_MAX - d) / 10)
			return SF_EVALUE;
		v = v * 10 + d;
	}
	while (number_is_space((unsigned char)*s))
		s++;
	if (*s != '\0')
		return SF_ESYNTAX;
	*value = v;
	return SF_OK;
}

char *
sf_format_double(char *buf, size_t n, double v)
{
	for (int prec = 1; prec <= 17; prec++) {
		snprintf(buf, n, "%.*g", prec, v);
		if (strtod(buf, NULL) == v)
			break;
	}
	/* Whole numbers people write as digits read better so: 1000, not
	 * 1e+03 (up to a million; 1e+07 is clearer than 10000000). */
	if (strchr(buf, 'e') != NULL && v == floor(v) && fabs(v) < 1e7)
		snprintf(buf, n, "%.0f", v);
	return buf;
}

char *
sf_number_digits(char *end, unsigned long long n, int negative)
{
	char *p = end;

	do
		*--p = (char)('0' + n % 10);
	while ((n /= 10) > 0);
	if (negative)
		*--p = '-';
	return p;
}
