/*
 * number.h - reading numbers that people write in files and options.
 *
 * Every number scalefit reads from text (YAML scalars, command-line
 * options) goes through here, so all of them are parsed the same way: in
 * the C locale whatever the process locale, completely (no trailing text),
 * and finite.  Thread-safe.
 */
#ifndef SF_NUMBER_H
#define SF_NUMBER_H

#include <stddef.h>
#include <stdint.h>

/*
 * Parse all of text as a finite double ("1e-3", "-2.5", ".5", "  7 " with
 * surrounding blanks allowed).  Returns SF_OK and sets *value, or
 * SF_ESYNTAX when text is not a number or has text after it (hexadecimal,
 * "nan" and "inf" are not numbers here), or SF_EVALUE when it overflows to
 * infinity.  An underflow to zero or a subnormal is accepted.
 */
int sf_parse_double(const char *text, double *value);

/*
 * Parse all of text as a non-negative whole number of at most 2^53, also
 * written like "2e5" or "200000.0".  Returns SF_OK, SF_ESYNTAX or
 * SF_EVALUE (negative, fractional, too large).
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

#endif /* SF_NUMBER_H */
