/*
 * chart.c - the pieces of scalefit's charts: legends, panels, curves,
 * bands, points, the page.
 */
#include "use/chart.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *const sf_chart_palette[SF_CHART_PALETTE_SIZE] = {
    "#0072B2", "#E69F00", "#009E73", "#CC79A7",
    "#56B4E9", "#D55E00", "#F0E442", "#000000",
};

void
sf_chart_diamond(sf_svg *s, double x, double y, double r, const char *fill)
{
	sf_svg_printf(s,
	              "<path d=\"M%.2f %.2f L%.2f %.2f L%.2f %.2f L%.2f %.2f "
	              "Z\" fill=\"%s\" stroke=\"black\" stroke-width=\"1\"/>\n",
	              x, y - r, x + r, y, x, y + r, x - r, y, fill);
}

/* One legend entry; wraps to a new row when the line is full. */
void
sf_chart_legend_entry(sf_chart_legend *l, sf_chart_swatch kind,
                      const char *colour, const char *text)
{
	double width = 28 + SF_CHART_CHAR_WIDTH * (double)strlen(text) + 18;
	double x, y;

	if (l->x + width > SF_CHART_WIDTH - SF_CHART_RIGHT &&
	    l->x > SF_CHART_LEFT) {
		l->x = SF_CHART_LEFT;
		l->y += SF_CHART_LEGEND_ROW;
		l->rows++;
	}
	x = l->x;
	y = l->y;
	l->x += width;
	if (l->svg == NULL)
		return;
	switch (kind) {
	case SF_CHART_LINE:
		sf_svg_printf(
		    l->svg,
		    "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" "
		    "y2=\"%.1f\" stroke=\"%s\" stroke-width=\"2\"/>\n",
		    x, y - 4, x + 22, y - 4, colour);
		break;
	case SF_CHART_BAND:
	case SF_CHART_AREA:
	case SF_CHART_WIDE:
	case SF_CHART_GREY:
		sf_svg_printf(
		    l->svg,
		    "<rect x=\"%.1f\" y=\"%.1f\" width=\"22\" "
		    "height=\"10\" fill=\"%s\" fill-opacity=\"%s\"/>\n",
		    x, y - 9, colour,
		    kind == SF_CHART_BAND   ? "0.3"
		    : kind == SF_CHART_WIDE ? "0.12"
		    : kind == SF_CHART_GREY ? "0.15"
		                            : "0.85");
		break;
	case SF_CHART_RING:
		sf_svg_printf(l->svg,
		              "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"4\" "
		              "fill=\"white\" stroke=\"%s\" "
		              "stroke-width=\"2\"/>\n",
		              x + 11, y - 4, colour);
		break;
	case SF_CHART_DOT:
		sf_svg_printf(l->svg,
		              "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"4\" "
		              "fill=\"%s\" stroke=\"white\"/>\n",
		              x + 11, y - 4, colour);
		break;
	case SF_CHART_DIAMOND:
		sf_chart_diamond(l->svg, x + 11, y - 4, 5, colour);
		break;
	case SF_CHART_DASHED:
		sf_svg_printf(l->svg,
		              "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" "
		              "y2=\"%.1f\" stroke=\"%s\" stroke-width=\"1.5\" "
		              "stroke-dasharray=\"5 3\"/>\n",
		              x, y - 4, x + 22, y - 4, colour);
		break;
	}
	sf_svg_text(l->svg, x + 28, y, "", text);
}
/* The smallest and largest finite (and, for a log axis, positive) values. */
void
sf_chart_extend(double *lo, double *hi, const double *v, size_t n, int log)
{
	for (size_t k = 0; v != NULL && k < n; k++) {
		if (!isfinite(v[k]) || (log && !(v[k] > 0)))
			continue;
		*lo = fmin(*lo, v[k]);
		*hi = fmax(*hi, v[k]);
	}
}

/* Widen [lo, hi] by a fraction on each side (in log space for log). */
void
sf_chart_pad(double *lo, double *hi, int log, double fraction)
{
	if (*lo == *hi) {
		*lo = log ? *lo / 1.25 : *lo - fmax(fabs(*lo) * 0.1, 1);
		*hi = log ? *hi * 1.25 : *hi + fmax(fabs(*hi) * 0.1, 1);
		return;
	}
	if (log) {
		double r = pow(*hi / *lo, fraction);
		*lo /= r;
		*hi *= r;
	} else {
		double d = (*hi - *lo) * fraction;
		*lo -= d;
		*hi += d;
	}
}
/* The frame of a panel, its grid lines, ticks and tick labels. */

void
sf_chart_grid(sf_svg *s, const sf_chart_panel *pn, int powers_of_two,
              int x_labels, int percent)
{
	double major[SF_CHART_MAX_TICKS], minor[SF_CHART_MAX_TICKS];
	size_t nmajor, nminor;
	char label[160];

	/* y axis */
	nmajor = sf_axis_ticks(&pn->y, 0, major, SF_CHART_MAX_TICKS, minor,
	                       SF_CHART_MAX_TICKS, &nminor);
	for (size_t k = 0; k < nmajor; k++) {
		double y = sf_axis_map(&pn->y, major[k]);

		sf_svg_line(s, pn->x0, y, pn->x1, y, SF_CHART_GRID, "");
		sf_svg_line(s, pn->x0 - 5, y, pn->x0, y, SF_CHART_AXIS, "");
		if (percent)
			snprintf(label, sizeof label, "%.0f%%", major[k] * 100);
		else
			sf_axis_label(major[k], label, sizeof label);
		sf_svg_printf(s,
		              "<text x=\"%.2f\" y=\"%.2f\" "
		              "text-anchor=\"end\">%s</text>\n",
		              pn->x0 - 8, y + 4.5, label);
	}
	for (size_t k = 0; k < nminor; k++) {
		double y = sf_axis_map(&pn->y, minor[k]);
		sf_svg_line(s, pn->x0 - 3, y, pn->x0, y, SF_CHART_AXIS, "");
	}
	/* x axis */
	nmajor = sf_axis_ticks(&pn->x, powers_of_two, major, SF_CHART_MAX_TICKS,
	                       minor, SF_CHART_MAX_TICKS, &nminor);
	for (size_t k = 0; k < nmajor; k++) {
		double x = sf_axis_map(&pn->x, major[k]);

		sf_svg_line(s, x, pn->y0, x, pn->y1, SF_CHART_GRID, "");
		sf_svg_line(s, x, pn->y1, x, pn->y1 + 5, SF_CHART_AXIS, "");
		if (!x_labels)
			continue;
		sf_axis_label(major[k], label, sizeof label);
		sf_svg_printf(s,
		              "<text x=\"%.2f\" y=\"%.2f\" "
		              "text-anchor=\"middle\">%s</text>\n",
		              x, pn->y1 + 19, label);
	}
	for (size_t k = 0; k < nminor; k++) {
		double x = sf_axis_map(&pn->x, minor[k]);
		sf_svg_line(s, x, pn->y1, x, pn->y1 + 3, SF_CHART_AXIS, "");
	}
}

void
sf_chart_frame(sf_svg *s, const sf_chart_panel *pn)
{
	sf_svg_printf(s,
	              "<rect x=\"%.2f\" y=\"%.2f\" width=\"%.2f\" "
	              "height=\"%.2f\" fill=\"none\" stroke=\"%s\"/>\n",
	              pn->x0, pn->y0, pn->x1 - pn->x0, pn->y1 - pn->y0,
	              SF_CHART_AXIS);
}

void
sf_chart_clip_path(sf_svg *s, const sf_chart_panel *pn)
{
	sf_svg_printf(s,
	              "<clipPath id=\"%s\"><rect x=\"%.2f\" y=\"%.2f\" "
	              "width=\"%.2f\" height=\"%.2f\"/></clipPath>\n",
	              pn->clip, pn->x0, pn->y0, pn->x1 - pn->x0,
	              pn->y1 - pn->y0);
}

/* A vertical axis title, centred on the panel. */
void
sf_chart_y_title(sf_svg *s, const sf_chart_panel *pn, const char *text)
{
	double y = (pn->y0 + pn->y1) / 2;
	char attrs[128];

	snprintf(attrs, sizeof attrs,
	         "text-anchor=\"middle\" transform=\"rotate(-90 %.2f %.2f)\"",
	         20.0, y);
	sf_svg_text(s, 20, y, attrs, text);
}

/* Map n values through an axis (NaN stays NaN). */
void
sf_chart_map_all(const sf_axis *a, const double *v, size_t n, double *out)
{
	for (size_t k = 0; k < n; k++)
		out[k] = isfinite(v[k]) && (!a->log || v[k] > 0)
		             ? sf_axis_map(a, v[k])
		             : NAN;
}

/* A band: along the upper edge, back along the lower. */
void
sf_chart_band(sf_svg *s, const double *x, size_t n, const sf_chart_panel *pn,
              const double *lo, const double *hi, const char *attrs, double *bx,
              double *by)
{
	size_t m = 0;

	for (size_t k = 0; k < n; k++) {
		if (!isfinite(lo[k]) || !isfinite(hi[k]))
			continue;
		bx[m] = sf_axis_map(&pn->x, x[k]);
		by[m++] = sf_axis_map(&pn->y, fmin(hi[k], pn->y.hi));
	}
	for (size_t k = n; k-- > 0;) {
		if (!isfinite(lo[k]) || !isfinite(hi[k]))
			continue;
		bx[m] = sf_axis_map(&pn->x, x[k]);
		by[m++] = sf_axis_map(&pn->y, pn->y.log ? fmax(lo[k], pn->y.lo)
		                                        : lo[k]);
	}
	sf_svg_polygon(s, bx, by, m, attrs);
}

void
sf_chart_scratch_free(sf_chart_scratch *w)
{
	free(w->px);
	free(w->py);
	free(w->bx);
	free(w->by);
}

/* Room for curves of up to n points in *w (zeroed by the caller): 1, or 0
 * when out of memory (free with sf_chart_scratch_free() either way). */
int
sf_chart_scratch_alloc(sf_chart_scratch *w, size_t n)
{
	w->px = malloc((n + 1) * sizeof *w->px);
	w->py = malloc((n + 1) * sizeof *w->py);
	w->bx = malloc((2 * n + 1) * sizeof *w->bx);
	w->by = malloc((2 * n + 1) * sizeof *w->by);
	return w->px != NULL && w->py != NULL && w->bx != NULL && w->by != NULL;
}

/* The curve (x[k], y[k]), k < n, in colour; prefix is "" or the
 * attributes that go first ("class=\"series\" "). */
void
sf_chart_curve(sf_svg *s, const sf_chart_panel *pn, const double *x,
               const double *y, size_t n, const char *colour,
               const char *prefix, sf_chart_scratch *w)
{
	char attrs[160];

	sf_chart_map_all(&pn->x, x, n, w->px);
	sf_chart_map_all(&pn->y, y, n, w->py);
	snprintf(attrs, sizeof attrs,
	         "%sstroke=\"%s\" stroke-width=\"2\" stroke-linejoin=\"round\"",
	         prefix, colour);
	sf_svg_polyline(s, w->px, w->py, n, attrs);
}

/* Measured points (x[k], y[k]), k < n, that the axes can show: dots in
 * colour, or rings when held (measured, not fitted). */
void
sf_chart_points(sf_svg *s, const sf_chart_panel *pn, const double *x,
                const double *y, size_t n, const char *colour, int held)
{
	for (size_t k = 0; k < n; k++) {
		if (!isfinite(x[k]) || !isfinite(y[k]) ||
		    (pn->y.log && !(y[k] > 0)))
			continue;
		if (held)
			sf_svg_printf(s,
			              "<circle class=\"held\" cx=\"%.2f\" "
			              "cy=\"%.2f\" r=\"4\" fill=\"white\" "
			              "stroke=\"%s\" stroke-width=\"2\"/>\n",
			              sf_axis_map(&pn->x, x[k]),
			              sf_axis_map(&pn->y, y[k]), colour);
		else
			sf_svg_printf(s,
			              "<circle cx=\"%.2f\" cy=\"%.2f\" r=\"4\" "
			              "fill=\"%s\" stroke=\"white\"/>\n",
			              sf_axis_map(&pn->x, x[k]),
			              sf_axis_map(&pn->y, y[k]), colour);
	}
}
/* A new document of the chart's width and the given height with the title
 * and subtitle (may be NULL or "") drawn; NULL when out of memory. */
sf_svg *
sf_chart_new(double height, const char *title, const char *subtitle)
{
	sf_svg *s = sf_svg_new(SF_CHART_WIDTH, height);

	if (s == NULL)
		return NULL;
	sf_svg_text(s, SF_CHART_LEFT, 28,
	            "font-size=\"16\" font-weight=\"bold\"", title);
	if (subtitle != NULL && subtitle[0] != '\0')
		sf_svg_text(s, SF_CHART_LEFT, 48, "fill=\"#555555\"", subtitle);
	return s;
}

/* Hand the drawn document s to *out; or, when a drawing call ran out of
 * memory (the document remembers), free it and say so. */
int
sf_chart_finish(sf_svg *s, sf_svg **out, sf_error *err)
{
	if (sf_svg_text_of(s, NULL) == NULL) {
		sf_svg_free(s);
		return sf_error_set(err, SF_ENOMEM, "out of memory");
	}
	*out = s;
	return SF_OK;
}
