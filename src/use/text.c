/*
 * text.c - values formatted for the predict and scale tables.
 */
#include "use/text.h"
#include "base/escape.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int
sf_text_width(const char *name, int least)
{
	int n = (int)sf_escape_length(name, 0);

	return n > least ? n : least;
}

void
sf_text_band(sf_band b, int digits, char *out, size_t size)
{
	if (isfinite(b.lo) && isfinite(b.hi))
		snprintf(out, size, "[%.*g, %.*g]", digits, b.lo, digits, b.hi);
	else
		snprintf(out, size, "-");
}

void
sf_text_input(const sf_fitfile *f, size_t i, double x, char *out, size_t size)
{
	if (f->inputs[i].levels != NULL)
		sf_escape(out, size, f->inputs[i].levels[(size_t)x], 0);
	else
		snprintf(out, size, "%g", x);
}

void
sf_text_noise(const sf_fitfile *f, sf_text *out)
{
	const sf_interval_model *im = &f->interval;
	const char *unit = im->multiplicative ? "%" : "";
	const double scale = im->multiplicative ? 100 : 1;
	size_t shown = 0;

	if (!f->has_interval) {
		sf_text_puts(out, "-");
		return;
	}
	if (f->nmembers > 0) {
		/* an ensemble: its members' weights (names escaped) */
		sf_text_printf(out, "the mixture of %zu formulas' (",
		               f->nmembers);
		for (size_t m = 0; m < f->nmembers; m++) {
			sf_text_puts(out, m > 0 ? ", " : "");
			sf_text_escaped(out, f->members[m]->name);
			sf_text_printf(out, " %.2f", f->weights[m]);
		}
		sf_text_puts(out, ")");
		return;
	}
	sf_text_printf(out, im->multiplicative ? "%.3g%%" : "+-%.3g ",
	               scale * im->sigma);
	if (!im->multiplicative)
		sf_text_escaped(out, f->output);
	/* the noise above the range where a top level gives it */
	for (size_t j = 0; j < f->ninputs; j++) {
		const sf_interval_along *a = sf_interval_along_of(im, j);

		if (f->inputs[j].levels != NULL || !(a->noise > 0))
			continue;
		sf_text_puts(out, shown++ == 0 ? " (above the range: " : ", ");
		sf_text_escaped(out, f->inputs[j].name);
		sf_text_printf(out, " %s%.3g%s", im->multiplicative ? "" : "+-",
		               scale * a->noise, unit);
	}
	if (shown > 0)
		sf_text_puts(out, ")");
	/* each input's model error, its name escaped as the output's */
	shown = 0;
	for (size_t j = 0; j < f->ninputs; j++) {
		const sf_interval_along *a = sf_interval_along_of(im, j);

		if (f->inputs[j].levels != NULL || isnan(a->growth))
			continue;
		sf_text_printf(out, "%s+%.3g%% along ",
		               shown++ == 0
		                   ? ", per doubling beyond the fitted range "
		                   : ", ",
		               100 * a->growth);
		sf_text_escaped(out, f->inputs[j].name);
		if (sf_interval_slope_shown(a))
			sf_text_printf(out, " (%s %.3g points a doubling)",
			               a->trend > 0 ? "rising" : "falling",
			               100 * fabs(a->trend));
	}
}

void
sf_text_new_run_line(FILE *out, const char *lead, const sf_fitfile *f,
                     int growth_unknown)
{
	sf_text cell = SF_TEXT_INIT;

	sf_text_noise(f, &cell);
	fprintf(out, "%s%s%s%s\n", lead, f->nmembers > 0 ? "" : "noise ",
	        cell.failed ? "(out of memory)" : sf_text_str(&cell),
	        growth_unknown ? "; model error beyond the fitted range not "
	                         "estimated"
	                       : "");
	sf_text_free(&cell);
}

void
sf_text_time_header(const sf_fitfile *f, const char *unit, char *out,
                    size_t size)
{
	size_t n = sf_escape(out, size, f->output, 0);

	if (unit != NULL && n < size)
		snprintf(out + n, size - n, " (%s)", unit);
}

void
sf_text_csv_field(FILE *out, const char *text, int first)
{
	size_t n = strlen(text);
	char *escaped = malloc(4 * n + 1);

	if (!first)
		putc(',', out);
	if (escaped == NULL) { /* out of memory: still a field */
		sf_escape_print(out, "", 0);
		return;
	}
	sf_escape(escaped, 4 * n + 1, text, 0);
	n = strlen(escaped);
	if (strpbrk(escaped, ",\"") == NULL &&
	    (n == 0 || (escaped[0] != ' ' && escaped[n - 1] != ' '))) {
		fputs(escaped, out);
	} else {
		putc('"', out);
		for (const char *c = escaped; *c != '\0'; c++) {
			if (*c == '"')
				putc('"', out);
			putc(*c, out);
		}
		putc('"', out);
	}
	free(escaped);
}

void
sf_text_csv_number(FILE *out, double x, int first)
{
	if (!first)
		putc(',', out);
	if (isfinite(x))
		fprintf(out, "%.17g", x);
}
