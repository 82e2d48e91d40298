/*
 * number.c - complete, locale-proof number parsing.
 *
 * strtod honours LC_NUMERIC, so "2.5" would stop at the '.' under a
 * German locale.  Rather than switch the thread's locale, which costs a
 * system call and is invisible state, we accept only the characters of a
 * C-locale decimal number and rewrite the '.' to the current locale's
 * radix character before calling strtod when the two differ.
 */
#include "base/number.h"
#include "base/error.h"

#include <ctype.h>
#include <errno.h>
#include <locale.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { NUMBER_MAX = 128 };

/* Copy the number in text, trimmed, into buf if it has the shape
 * [+-]digits[.digits][(e|E)[+-]digits]; return its length or 0. */
static size_t
number_shape(const char *text, char *buf)
{
	const char *s = text, *end;
	size_t n = 0, digits = 0;

	while (isspace((unsigned char)*s))
		s++;
	end = s + strlen(s);
	while (end > s && isspace((unsigned char)end[-1]))
		end--;
	if (end - s >= NUMBER_MAX)
		return 0;
	if (*s == '+' || *s == '-')
		buf[n++] = *s++;
	while (s < end && isdigit((unsigned char)*s))
		buf[n++] = *s++, digits++;
	if (s < end && *s == '.') {
		buf[n++] = *s++;
		while (s < end && isdigit((unsigned char)*s))
			buf[n++] = *s++, digits++;
	}
	if (digits == 0)
		return 0;
	if (s < end && (*s == 'e' || *s == 'E')) {
		size_t exp_digits = 0;

		buf[n++] = *s++;
		if (s < end && (*s == '+' || *s == '-'))
			buf[n++] = *s++;
		while (s < end && isdigit((unsigned char)*s))
			buf[n++] = *s++, exp_digits++;
		if (exp_digits == 0)
			return 0;
	}
	if (s != end)
		return 0;
	buf[n] = '\0';
	return n;
}

int
sf_parse_double(const char *text, double *value)
{
	char buf[NUMBER_MAX + 8];
	const char *radix;
	char *dot, *end;
	double v;

	if (number_shape(text, buf) == 0)
		return SF_ESYNTAX;
	radix = localeconv()->decimal_point;
	dot = strchr(buf, '.');
	if (dot != NULL && strcmp(radix, ".") != 0 && strlen(radix) == 1)
		*dot = radix[0];
	errno = 0;
	v = strtod(buf, &end);
	if (*end != '\0')
		return SF_ESYNTAX;
	if (!isfinite(v) || (errno == ERANGE && fabs(v) > 1.0))
		return SF_EVALUE;
	*value = v;
	return SF_OK;
}

int
sf_parse_count(const char *text, uint64_t *value)
{
	double v;
	int rc = sf_parse_double(text, &v);

	if (rc != SF_OK)
		return rc;
	if (v < 0 || v != floor(v) || v > 9007199254740992.0)
		return SF_EVALUE;
	*value = (uint64_t)v;
	return SF_OK;
}

int
sf_parse_u64(const char *text, uint64_t *value)
{
	const char *s = text;
	uint64_t v = 0;

	while (isspace((unsigned char)*s))
		s++;
	if (*s == '+')
		s++;
	if (*s == '-')
		return SF_EVALUE;
	if (!isdigit((unsigned char)*s))
		return SF_ESYNTAX;
	for (; isdigit((unsigned char)*s); s++) {
		unsigned d = (unsigned)(*s - '0');

		if (v > (UINT64_MAX - d) / 10)
			return SF_EVALUE;
		v = v * 10 + d;
	}
	while (isspace((unsigned char)*s))
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
