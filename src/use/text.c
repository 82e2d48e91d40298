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
sf_text_noise(const sf_fitfile *f, char *out, size_t size)
{
	const sf_interval_model *im = &f->interval;
	int n;

	if (!f->has_interval) {
		snprintf(out, size, "-");
		return;
	}
	if (f->nmembers > 0) {
		/* an ensemble: its members' weights (names escaped) */
		n = snprintf(out, size, "the mixture of %zu formulas' (",
		             f->nmembers);
		for (size_t m = 0;
		     m < f->nmembers && n >= 0 && (size_t)n < size; m++) {
			n += snprintf(out + n, size - (size_t)n, "%s",
			              m > 0 ? ", " : "");
			if (n >= 0 && (size_t)n < size)
				n += (int)sf_escape(out + n, size - (size_t)n,
				                    f->members[m]->name, 0);
			if (n >= 0 && (size_t)n < size)
				n += snprintf(out + n, size - (size_t)n,
				              " %.2f", f->weights[m]);
		}
		if (n >= 0 && (size_t)n < size)
			snprintf(out + n, size - (size_t)n, ")");
		return;
	}
	n = snprintf(out, size, im->multiplicative ? "%.3g%%" : "+-%.3g ",
	             (im->multiplicative ? 100 : 1) * im->sigma);
	if (!im->multiplicative && n >= 0 && (size_t)n < size)
		n += (int)sf_escape(out + n, size - (size_t)n, f->output, 0);
	/* the noise above the range where a top level gives it */
	size_t above = 0;
	for (size_t j = 0; j < f->ninputs; j++) {
		const sf_interval_along *a = sf_interval_along_of(im, j);

		if (f->inputs[j].levels != NULL || !(a->noise > 0) || n < 0 ||
		    (size_t)n >= size)
			continue;
		n += snprintf(out + n, size - (size_t)n, "%s",
		              above++ == 0 ? " (above the range: " : ", ");
		if (n >= 0 && (size_t)n < size)
			n += (int)sf_escape(out + n, size - (size_t)n,
			                    f->inputs[j].name, 0);
		if (n >= 0 && (size_t)n < size)
			n +=
			    snprintf(out + n, size - (size_t)n,
			             im->multiplicative ? " %.3g%%" : " +-%.3g",
			             (im->multiplicative ? 100 : 1) * a->noise);
	}
	if (above > 0 && n >= 0 && (size_t)n < size)
		n += snprintf(out + n, size - (size_t)n, ")");
	/* each input's model error, its name escaped as the output's */
	for (size_t j = 0, shown = 0; j < f->ninputs; j++) {
		const sf_interval_along *a = sf_interval_along_of(im, j);

		if (f->inputs[j].levels != NULL || isnan(a->growth) || n < 0 ||
		    (size_t)n >= size)
			continue;
		n += snprintf(out + n, size - (size_t)n, "%s+%.3g%% along ",
		              shown++ == 0 ? ", per doubling beyond the "
		                             "fitted range "
		                           : ", ",
		              100 * a->growth);
		if (n >= 0 && (size_t)n < size)
			n += (int)sf_escape(out + n, size - (size_t)n,
			                    f->inputs[j].name, 0);
	}
}

void
sf_text_new_run_line(FILE *out, const char *lead, const sf_fitfile *f,
                     int growth_unknown)
{
	char cell[512];

	sf_text_noise(f, cell, sizeof cell);
	fprintf(out, "%s%s%s%s\n", lead, f->nmembers > 0 ? "" : "noise ", cell,
	        growth_unknown ? "; model error beyond the fitted range not "
	                         "estimated"
	                       : "");
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
