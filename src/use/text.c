/*
 * text.c - values formatted for the predict and scale tables.
 */
#include "use/text.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

int
sf_text_width(const char *name, int least)
{
	int n = (int)strlen(name);

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
		snprintf(out, size, "%s", f->inputs[i].levels[(size_t)x]);
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
		/* an ensemble: its members' weights */
		n = snprintf(out, size, "the mixture of %zu formulas' (",
		             f->nmembers);
		for (size_t m = 0;
		     m < f->nmembers && n >= 0 && (size_t)n < size; m++)
			n += snprintf(out + n, size - (size_t)n, "%s%s %.2f",
			              m > 0 ? ", " : "", f->members[m]->name,
			              f->weights[m]);
		if (n >= 0 && (size_t)n < size)
			snprintf(out + n, size - (size_t)n, ")");
		return;
	}
	n = im->multiplicative
	        ? snprintf(out, size, "%.3g%%", 100 * im->sigma)
	        : snprintf(out, size, "+-%.3g %s", im->sigma, f->output);
	if (!isnan(im->growth) && n >= 0 && (size_t)n < size)
		snprintf(out + n, size - (size_t)n,
		         ", +%.3g%% per doubling beyond the fitted range",
		         100 * im->growth);
}

void
sf_text_time_header(const sf_fitfile *f, const char *unit, char *out,
                    size_t size)
{
	if (unit != NULL)
		snprintf(out, size, "%s (%s)", f->output, unit);
	else
		snprintf(out, size, "%s", f->output);
}
