/*
 * number.h - reading numbers that people write in files and options.
 *
 * Every number scalefit reads from text (CSV cells, formula literals, YAML
 * scalars, command-line options) goes through sf_parse_decimal(), so all
 * of them are read the same way: as the correctly rounded double (the same
 * bits as strtod() in the C locale) whatever the process locale, and
 * completely (no trailing text).  Thread-safe and allocation-free.
 */
#ifndef SF_NUMBER_H
#define SF_NUMBER_H

#include <stddef.h>
#include <stdint.h>

/* What sf_parse_decimal() found. */
typedef enum sf_number_kind {
	/* a decimal literal, converted to a finite double */
	SF_NUMBER_FINITE = 0,
	/* a decimal literal whose magnitude exceeds DBL_MAX */
	SF_NUMBER_OVERFLOW,
	/* nan, inf or infinity, any case, optional sign */
	SF_NUMBER_NONFINITE,
	/* anything else, the empty string included */
	SF_NUMBER_NOT
} sf_number_kind;

/*
 * Classify and convert the length bytes at s (need not be NUL-terminated;
 * no surrounding blanks allowed).  A decimal literal is
 * [+-]digits[.digits][(e|E)[+-]digits] with digits on at least one side of
 * the point; hexadecimal, thousands separators and decimal commas are not.
 * For SF_NUMBER_FINITE stores the correctly rounded double (round to
 * nearest even; an underflow gives 0 or a subnormal) in *value; for
 * SF_NUMBER_OVERFLOW a signed infinity; otherwise leaves *value alone.
 */
sf_number_kind sf_parse_decimal(const char *s, size_t length, double *value);

/*
 * Parse all of text as a finite double ("1e-3", "-2.5", ".5", "  7 " with
 * surrounding blanks allowed): sf_parse_decimal() of the text between the
 * blanks.  Returns SF_OK and sets *value, or SF_ESYNTAX when text is not a
 * decimal literal ("nan" and "inf" are not numbers here), or SF_EVALUE when
 * it overflows to infinity.  An underflow to zero or a subnormal is
 * accepted.
 */
int sf_parse_double(const char *text, double *value);

/*
 * Parse all of text as a non-negative whole number of at most 2^53, also
 * written like "2e5" or "200000.0".  Returns SF_OK, SF_ESYNTAX or
 * SF_EVALUE (negative, fractional, too large, or not read exactly: a
 * number of digits alone above 2^53, such as 2^53 + 1, or one written
 * otherwise with more than 15 significant digits).
 */
int sf_parse_count(const char *text, uint64_t *value);

/*
 * Parse all of text as a decimal unsigned 64-bit integer (a seed).
 * Returns SF_OK, SF_ESYNTAX or SF_EVALUE (out of range).
 */
int sf_parse_u64(const char *text, uint64_t *value);

/*
 * Write v in the shortest %g form that reads back as exactly v ("0.1",
 * not "0.10000000000000001") into buf of size n (32 bytes suffice), whole
 * numbers below 1e7 in digits.  Uses the process locale's radix, which is
 * C's: scalefit never calls setlocale.  Returns buf.
 */
char *sf_format_double(char *buf, size_t n, double v);

/*
 * n in decimal digits, after a '-' when negative, written backwards so
 * that it ends just before end (room for 21 bytes before it); returns
 * where it starts.  What printf's "%llu" writes, without printf: glibc
 * takes its slow path on every call in a process where a library
 * registered a printf hook (libquadmath does, as in a Python process that
 * imported numpy), and cells and exponents are written per number.
 */
char *sf_number_digits(char *end, unsigned long long n, int negative);

#endif /* SF_NUMBER_H */
