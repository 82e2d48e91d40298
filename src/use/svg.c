/*
 * svg.c - SVG documents in memory, atomic saving, axis ticks.
 */
#include "use/svg.h"
#include "base/atomic.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct sf_svg {
	char *text;
	size_t length, size;
	int failed;   /* an allocation failed: the document is lost */
	int finished; /* "</svg>" appended */
};

static void
append(sf_svg *s, const char *text, size_t n)
{
	if (s->failed)
		return;
	if (s->length + n + 1 > s->size) {
		size_t size = (s->length + n + 1) * 2;
		char *grown = realloc(s->text, size);

		if (grown == NULL) {
			s->failed = 1;
			return;
		}
		s->text = grown;
		s->size = size;
	}
	memcpy(s->text + s->length, text, n);
	s->length += n;
	s->text[s->length] = '\0';
}

static void
vprint(sf_svg *s, const char *fmt, va_list ap)
{
	char small[512];
	va_list copy;
	int n;

	va_copy(copy, ap);
	n = vsnprintf(small, sizeof small, fmt, copy);
	va_end(copy);
	if (n < 0) {
		s->failed = 1;
		return;
	}
	if ((size_t)n < sizeof small) {
		append(s, small, (size_t)n);
		return;
	}
	char *big = malloc((size_t)n + 1);
	if (big == NULL) {
		s->failed = 1;
		return;
	}
	vsnprintf(big, (size_t)n + 1, fmt, ap);
	append(s, big, (size_t)n);
	free(big);
}

void
sf_svg_printf(sf_svg *s, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vprint(s, fmt, ap);
	va_end(ap);
}

sf_svg *
sf_svg_new(double width, double height)
{
	sf_svg *s = calloc(1, sizeof *s);

	if (s == NULL)
		return NULL;
	sf_svg_printf(s,
	              "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
	              "<svg xmlns=\"http://www.w3.org/2000/svg\" "
	              "width=\"%g\" height=\"%g\" viewBox=\"0 0 %g %g\" "
	              "font-family=\"DejaVu Sans, Helvetica, Arial, "
	              "sans-serif\" font-size=\"13\">\n"
	              "<rect width=\"100%%\" height=\"100%%\" "
	              "fill=\"white\"/>\n",
	              width, height, width, height);
	if (s->failed) {
		sf_svg_free(s);
		return NULL;
	}
	return s;
}

void
sf_svg_free(sf_svg *s)
{
	if (s == NULL)
		return;
	free(s->text);
	free(s);
}

void
sf_svg_escaped(sf_svg *s, const char *text)
{
	for (const char *p = text; *p != '\0'; p++) {
		switch (*p) {
		case '&':
			append(s, "&amp;", 5);
			break;
		case '<':
			append(s, "&lt;", 4);
			break;
		case '>':
			append(s, "&gt;", 4);
			break;
		case '"':
			append(s, "&quot;", 6);
			break;
		case '\'':
			append(s, "&apos;", 6);
			break;
		default:
			/* Control characters are not allowed in XML 1.0. */
			if ((unsigned char)*p < 0x20 && *p != '\t' &&
			    *p != '\n')
				append(s, "?", 1);
			else
				append(s, p, 1);
		}
	}
}

void
sf_svg_text(sf_svg *s, double x, double y, const char *attrs, const char *text)
{
	sf_svg_printf(s, "<text x=\"%.2f\" y=\"%.2f\"%s%s>", x, y,
	              attrs[0] != '\0' ? " " : "", attrs);
	sf_svg_escaped(s, text);
	sf_svg_printf(s, "</text>\n");
}

void
sf_svg_line(sf_svg *s, double x1, double y1, double x2, double y2,
            const char *stroke, const char *attrs)
{
	sf_svg_printf(s,
	              "<line x1=\"%.2f\" y1=\"%.2f\" x2=\"%.2f\" y2=\"%.2f\" "
	              "stroke=\"%s\"%s%s/>\n",
	              x1, y1, x2, y2, stroke, attrs[0] != '\0' ? " " : "",
	              attrs);
}

void
sf_svg_polyline(sf_svg *s, const double *x, const double *y, size_t n,
                const char *attrs)
{
	int pen = 0, any = 0;

	for (size_t k = 0; k < n; k++) {
		if (!isfinite(x[k]) || !isfinite(y[k])) {
			pen = 0;
			continue;
		}
		if (!any)
			sf_svg_printf(s, "<path d=\"");
		sf_svg_printf(s, "%s%.2f %.2f",
		              pen   ? " L"
		              : any ? " M"
		                    : "M",
		              x[k], y[k]);
		pen = any = 1;
	}
	if (any)
		sf_svg_printf(s, "\" fill=\"none\" %s/>\n", attrs);
}

void
sf_svg_polygon(sf_svg *s, const double *x, const double *y, size_t n,
               const char *attrs)
{
	int any = 0;

	for (size_t k = 0; k < n; k++) {
		if (!isfinite(x[k]) || !isfinite(y[k]))
			continue;
		sf_svg_printf(s, "%s%.2f,%.2f",
		              any ? " " : "<polygon points=\"", x[k], y[k]);
		any = 1;
	}
	if (any)
		sf_svg_printf(s, "\" %s/>\n", attrs);
}

const char *
sf_svg_text_of(sf_svg *s, size_t *length)
{
	if (!s->finished) {
		sf_svg_printf(s, "</svg>\n");
		s->finished = 1;
	}
	if (s->failed)
		return NULL;
	if (length != NULL)
		*length = s->length;
	return s->text;
}

int
sf_svg_save(sf_svg *s, const char *path, sf_error *err)
{
	size_t length;
	const char *text = sf_svg_text_of(s, &length);

	if (text == NULL)
		return sf_error_set(err, SF_ENOMEM, "out of memory");
	return sf_write_atomic(path, text, length, "the plot", err);
}

/* ---- axes ------------------------------------------------------------------
 */

double
sf_axis_map(const sf_axis *a, double v)
{
	double t = a->log ? log(v / a->lo) / log(a->hi / a->lo)
	                  : (v - a->lo) / (a->hi - a->lo);

	if (a->hi == a->lo)
		t = 0.5;
	return a->from + t * (a->to - a->from);
}

/* A list of ticks that ignores what does not fit. */
typedef struct ticks {
	double *v;
	size_t n, max;
} ticks;

static void
add_tick(ticks *t, const sf_axis *a, double v)
{
	double slack = 1e-9 * fmax(fabs(a->lo), fabs(a->hi));

	if (v < a->lo - slack || v > a->hi + slack || t->n >= t->max)
		return;
	if (t->n > 0 && fabs(v - t->v[t->n - 1]) <= slack)
		return;
	t->v[t->n++] = v;
}

/* A step of 1, 2 or 5 x 10^e near span / target: *mult (1, 2 or 5), *e,
 * and in *minor_div how many minor intervals a major one holds. */
static void
nice_step(double span, double target, int *mult, int *e, int *minor_div)
{
	double raw = span / target;
	double norm;

	*e = (int)floor(log10(raw));
	norm = raw / pow(10, *e);
	*minor_div = 5;
	if (norm < 1.5) {
		*mult = 1;
	} else if (norm < 3.5) {
		*mult = 2;
		*minor_div = 4;
	} else if (norm < 7.5) {
		*mult = 5;
	} else {
		*mult = 1;
		(*e)++;
	}
}

/* k * mult * 10^e, computed so that 3 * 0.2 is 0.6 and not
 * 0.6000000000000001: by dividing by the exact 10^-e when e < 0. */
static double
step_value(double k, int mult, int e, int div, int m)
{
	double units = (k * div + m) * mult; /* in 10^e / div */

	if (e < 0)
		return units / (pow(10, -e) * div);
	return units * pow(10, e) / div;
}

/* Linear steps (also used on a log axis spanning under a decade). */
static void
linear_ticks(const sf_axis *a, ticks *major, ticks *minor)
{
	int mult, e, div;
	double first, last;

	nice_step(a->hi - a->lo, 5, &mult, &e, &div);
	first = floor(a->lo / step_value(1, mult, e, 1, 0)) - 1;
	last = ceil(a->hi / step_value(1, mult, e, 1, 0)) + 1;
	if (!isfinite(first) || !isfinite(last) || last - first > 1000)
		return;
	for (double k = first; k <= last; k++) {
		add_tick(major, a, step_value(k, mult, e, 1, 0));
		for (int m = 1; m < div; m++)
			add_tick(minor, a, step_value(k, mult, e, div, m));
	}
}

/* The least distance in pixels between a tick promoted at an end of a log
 * axis and the nearest labelled one: a label's height on a vertical axis,
 * about its width on a horizontal one. */
#define END_GAP_VERTICAL 22
#define END_GAP_HORIZONTAL 40

/* Label the ends of a log axis: the outermost minor tick beyond the first
 * (or last) major one becomes major, unless its label would touch the
 * major's.  The reader then sees the values the axis spans, not a major
 * tick somewhere inside it. */
static void
label_ends(const sf_axis *a, ticks *mj, ticks *mn)
{
	double gap = a->to < a->from ? END_GAP_VERTICAL : END_GAP_HORIZONTAL;

	if (mj->n == 0 || mn->n == 0 || mj->n >= mj->max)
		return;
	if (mn->v[0] < mj->v[0] &&
	    fabs(sf_axis_map(a, mn->v[0]) - sf_axis_map(a, mj->v[0])) >= gap) {
		memmove(&mj->v[1], &mj->v[0], mj->n * sizeof *mj->v);
		mj->v[0] = mn->v[0];
		mj->n++;
		memmove(&mn->v[0], &mn->v[1], --mn->n * sizeof *mn->v);
	}
	if (mn->n > 0 && mj->n < mj->max &&
	    mn->v[mn->n - 1] > mj->v[mj->n - 1] &&
	    fabs(sf_axis_map(a, mn->v[mn->n - 1]) -
	         sf_axis_map(a, mj->v[mj->n - 1])) >= gap)
		mj->v[mj->n++] = mn->v[--mn->n];
}

size_t
sf_axis_ticks(const sf_axis *a, int powers_of_two, double *major,
              size_t max_major, double *minor, size_t max_minor, size_t *nminor)
{
	ticks mj = {major, 0, max_major}, mn = {minor, 0, max_minor};
	double decades;

	*nminor = 0;
	if (!(a->hi > a->lo) || !isfinite(a->lo) || !isfinite(a->hi))
		return 0;
	if (!a->log || !(a->lo > 0)) {
		linear_ticks(a, &mj, &mn);
		*nminor = mn.n;
		return mj.n;
	}
	decades = log10(a->hi / a->lo);
	if (powers_of_two) {
		int first = (int)ceil(log2(a->lo) - 1e-9);
		int last = (int)floor(log2(a->hi) + 1e-9);
		int every = (last - first) / 12 + 1;

		for (int k = first; k <= last; k++)
			add_tick((k - first) % every == 0 ? &mj : &mn, a,
			         ldexp(1, k));
	} else if (decades < 1) {
		linear_ticks(a, &mj, &mn);
	} else {
		int first = (int)floor(log10(a->lo)),
		    last = (int)ceil(log10(a->hi));
		int every = decades > 8 ? (int)ceil(decades / 8) : 1;

		for (int d = first; d <= last; d++) {
			double p = pow(10, d);

			for (int m = 1; m <= 9; m++) {
				int is_major =
				    m == 1 ? (d - first) % every == 0
				           : decades < 3 && (m == 2 || m == 5);
				if (every > 1 && m > 1)
					continue;
				add_tick(is_major ? &mj : &mn, a, m * p);
			}
		}
	}
	if (decades >= 1 || powers_of_two)
		label_ends(a, &mj, &mn);
	*nminor = mn.n;
	return mj.n;
}

void
sf_axis_label(double v, char *buf, size_t size)
{
	double a = fabs(v);

	if (v == 0 || (a >= 1e-3 && a < 1e5)) {
		snprintf(buf, size, "%.6g", v);
		return;
	}
	int e = (int)floor(log10(a));
	double m = v / pow(10, e);

	/* 9.9999999 rounds to 10: carry it into the exponent. */
	if (fabs(m) >= 9.9999995) {
		m /= 10;
		e++;
	}
	if (fabs(m - 1) < 1e-6)
		snprintf(buf, size,
		         "10<tspan dy=\"-0.5em\" font-size=\"75%%\">%d</tspan>",
		         e);
	else
		snprintf(buf, size,
		         "%.3g\xc3\x97"
		         "10<tspan dy=\"-0.5em\" font-size=\"75%%\">%d</tspan>",
		         m, e);
}
