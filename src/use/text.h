/*
 * text.h - how predict and scale write their values for people: the width
 * of a column, a band as a cell, an input's value (a text input's by
 * name).  The commands print; these only format, so the two tables agree.
 *
 * Text that comes from the fit file (the output's name, a text input's
 * values) is escaped for the terminal (base/escape.h), and a width counts
 * the escaped text.  A function given out and size writes at most size
 * bytes there, always NUL-terminated when size > 0; sf_text_noise
 * appends to a growing text (base/text.h).  None keeps anything.
 * Thread-safe.
 */
#ifndef SF_USE_TEXT_H
#define SF_USE_TEXT_H

#include "base/text.h"
#include "use/fitfile.h"
#include "use/predict.h"

#include <stddef.h>
#include <stdio.h>

/* The width of a column headed name: its length escaped, but at least
 * least. */
int sf_text_width(const char *name, int least);

/* "[lo, hi]" with digits significant digits, or "-" when an end is not
 * finite (no band). */
void sf_text_band(sf_band b, int digits, char *out, size_t size);

/* Value x of input i of f: the name of a text input's level, else the
 * number with 6 significant digits ("%g"). */
void sf_text_input(const sf_fitfile *f, size_t i, double x, char *out,
                   size_t size);

/* The noise of a new run of fit f, "4.66%" (multiplicative errors) or
 * "+-0.243 UNIT" (additive, in the output's unit), with the noise above
 * the range where a top level gives it " (above the range: p 6.02%)"
 * and its model error ", +7.47% per doubling beyond the fitted range"
 * when known; "-" when f has no error model; appended to out (names
 * escaped), an ensemble's members and weights in place of all that. */
void sf_text_noise(const sf_fitfile *f, sf_text *out);

/* The line of a new run's error model on out: lead ("95% new run: "),
 * "noise " unless f is an ensemble, sf_text_noise's text, and that the
 * model error beyond the fitted range is not estimated when
 * growth_unknown. */
void sf_text_new_run_line(FILE *out, const char *lead, const sf_fitfile *f,
                          int growth_unknown);

/* The header of the time's column: f's output, and " (UNIT)" when unit
 * (one of s, ms, min, h) is not NULL: "epoch_time (min)". */
void sf_text_time_header(const sf_fitfile *f, const char *unit, char *out,
                         size_t size);

/*
 * The tables as CSV (--csv on predict, scale, validate and compare): a
 * field, after a comma unless first.  Text is escaped as above (a control
 * character, a line break included, becomes a visible escape), then
 * quoted as RFC 4180 asks when it holds a comma, a double quote or a
 * leading or trailing blank: in double quotes, each double quote doubled.
 * A number is written with 17 significant digits ("%.17g", as the JSON
 * documents), and as an empty field when it is not finite (no value).
 * Lines end with a line feed.
 */
void sf_text_csv_field(FILE *out, const char *text, int first);
void sf_text_csv_number(FILE *out, double x, int first);

#endif /* SF_USE_TEXT_H */
