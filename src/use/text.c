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
