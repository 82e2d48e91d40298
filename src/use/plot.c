/*
 * plot.c - the two-panel scaling chart.
 *
 * Layout, in pixels: the title and subtitle, the legend rows, the top
 * panel (time), a gap, the bottom panel (efficiency or shares), then the
 * shared x axis's labels and title.  Data are mapped inside each panel's
 * frame with a small inset, so points at the ends of the range are not cut
 * in half by the frame.
 */
#include "use/plot.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum {
	WIDTH = 720,
	LEFT = 84, /* room for the y tick labels and title */
	RIGHT = 24,
	TOP_HEIGHT = 300,
	BOTTOM_HEIGHT = 150,
	GAP = 18,
	LEGEND_ROW = 20,
	INSET = 8, /* data inset from the frame */
	MAX_TICKS = 64
};

/* Okabe and Ito's palette; the first is the prediction's. */
static const char *const palette[] = {
    "#0072B2", "#E69F00", "#009E73", "#CC79A7",
    "#56B4E9", "#D55E00", "#F0E442", "#000000",
};
#define PALETTE_SIZE (sizeof palette / sizeof palette[0])
#define MEASURED_COLOUR "#D55E00"
#define FASTEST_COLOUR "#009E73"
#define GRID_COLOUR "#e3e3e3"
#define AXIS_COLOUR "#333333"

/* Average advance of a character at the legend's font size. */
#define CHAR_WIDTH 7.3

/* The kinds of legend swatch. */
enum swatch { LINE, BAND, DOT, DIAMOND, DASHED, AREA, WIDE, RING, GREY };
#define BEYOND_COLOUR "#999999"
/* A white outline under text drawn over data, so lines do not cross it. */
#define HALO                                                                   \
	"stroke=\"white\" stroke-width=\"4\" stroke-linejoin=\"round\" "       \
	"paint-order=\"stroke\""

typedef struct legend {
	sf_svg *svg; /* NULL: only measure */
	double x, y;
	int rows;
} legend;

static void
diamond(sf_svg *s, double x, double y, double r, const char *fill)
{
	sf_svg_printf(s,
	              "<path d=\"M%.2f %.2f L%.2f %.2f L%.2f %.2f L%.2f %.2f "
	              "Z\" fill=\"%s\" stroke=\"black\" stroke-width=\"1\"/>\n",
	              x, y - r, x + r, y, x, y + r, x - r, y, fill);
}

/* One legend entry; wraps to a new row when the line is full. */
static void
legend_entry(legend *l, enum swatch kind, const char *colour, const char *text)
{
	double width = 28 + CHAR_WIDTH * (double)strlen(text) + 18;
	double x, y;

	if (l->x + width > WIDTH - RIGHT && l->x > LEFT) {
		l->x = LEFT;
		l->y += LEGEND_ROW;
		l->rows++;
	}
	x = l->x;
	y = l->y;
	l->x += width;
	if (l->svg == NULL)
		return;
	switch (kind) {
	case LINE:
		sf_svg_printf(
		    l->svg,
		    "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" "
		    "y2=\"%.1f\" stroke=\"%s\" stroke-width=\"2\"/>\n",
		    x, y - 4, x + 22, y - 4, colour);
		break;
	case BAND:
	case AREA:
	case WIDE:
	case GREY:
		sf_svg_printf(
		    l->svg,
		    "<rect x=\"%.1f\" y=\"%.1f\" width=\"22\" "
		    "height=\"10\" fill=\"%s\" fill-opacity=\"%s\"/>\n",
		    x, y - 9, colour,
		    kind == BAND   ? "0.3"
		    : kind == WIDE ? "0.12"
		    : kind == GREY ? "0.15"
		                   : "0.85");
		break;
	case RING:
		sf_svg_printf(l->svg,
		              "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"4\" "
		              "fill=\"white\" stroke=\"%s\" "
		              "stroke-width=\"2\"/>\n",
		              x + 11, y - 4, colour);
		break;
	case DOT:
		sf_svg_printf(l->svg,
		              "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"4\" "
		              "fill=\"%s\" stroke=\"white\"/>\n",
		              x + 11, y - 4, colour);
		break;
	case DIAMOND:
		diamond(l->svg, x + 11, y - 4, 5, colour);
		break;
	case DASHED:
		sf_svg_printf(l->svg,
		              "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" "
		              "y2=\"%.1f\" stroke=\"%s\" stroke-width=\"1.5\" "
		              "stroke-dasharray=\"5 3\"/>\n",
		              x, y - 4, x + 22, y - 4, colour);
		break;
	}
	sf_svg_text(l->svg, x + 28, y, "", text);
}

static void
draw_legend(const sf_plot_scale *p, legend *l)
{
	legend_entry(l, LINE, palette[0], "prediction");
	if (p->pi_lo != NULL && p->pi_label != NULL)
		legend_entry(l, WIDE, palette[0], p->pi_label);
	if (p->lo != NULL && p->band_label != NULL)
		legend_entry(l, BAND, palette[0], p->band_label);
	if (p->has_fit_range)
		legend_entry(l, GREY, BEYOND_COLOUR, "beyond the fitted range");
	if (p->nmeasured > 0)
		legend_entry(l, DOT, MEASURED_COLOUR, p->measured_label);
	if (p->nheld > 0 && p->held_label != NULL)
		legend_entry(l, RING, MEASURED_COLOUR, p->held_label);
	if (isfinite(p->fastest_x) && p->fastest_label != NULL)
		legend_entry(l, DIAMOND, FASTEST_COLOUR, p->fastest_label);
	if (isfinite(p->crossover_x) && p->crossover_label != NULL)
		legend_entry(l, DASHED, AXIS_COLOUR, p->crossover_label);
}

/* The stacked shares' legend, under the x axis. */
static void
draw_share_legend(const sf_plot_scale *p, legend *l)
{
	if (p->efficiency != NULL)
		return;
	for (size_t k = 0; k < p->nshares; k++)
		legend_entry(l, p->term_values ? LINE : AREA,
		             palette[k % PALETTE_SIZE], p->share_names[k]);
}

/* The smallest and largest finite (and, for a log axis, positive) values. */
static void
extend(double *lo, double *hi, const double *v, size_t n, int log)
{
	for (size_t k = 0; v != NULL && k < n; k++) {
		if (!isfinite(v[k]) || (log && !(v[k] > 0)))
			continue;
		*lo = fmin(*lo, v[k]);
		*hi = fmax(*hi, v[k]);
	}
}

/* Widen [lo, hi] by a fraction on each side (in log space for log). */
static void
pad(double *lo, double *hi, int log, double fraction)
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
typedef struct panel {
	double x0, y0, x1, y1; /* frame */
	sf_axis x, y;
	const char *clip; /* id of its clip path */
} panel;

static void
grid_and_ticks(sf_svg *s, const panel *pn, int powers_of_two, int x_labels,
               int percent)
{
	double major[MAX_TICKS], minor[MAX_TICKS];
	size_t nmajor, nminor;
	char label[160];

	/* y axis */
	nmajor = sf_axis_ticks(&pn->y, 0, major, MAX_TICKS, minor, MAX_TICKS,
	                       &nminor);
	for (size_t k = 0; k < nmajor; k++) {
		double y = sf_axis_map(&pn->y, major[k]);

		sf_svg_printf(s,
		              "<line x1=\"%.2f\" y1=\"%.2f\" x2=\"%.2f\" "
		              "y2=\"%.2f\" stroke=\"%s\"/>\n"
		              "<line x1=\"%.2f\" y1=\"%.2f\" x2=\"%.2f\" "
		              "y2=\"%.2f\" stroke=\"%s\"/>\n",
		              pn->x0, y, pn->x1, y, GRID_COLOUR, pn->x0 - 5, y,
		              pn->x0, y, AXIS_COLOUR);
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
		sf_svg_printf(s,
		              "<line x1=\"%.2f\" y1=\"%.2f\" x2=\"%.2f\" "
		              "y2=\"%.2f\" stroke=\"%s\"/>\n",
		              pn->x0 - 3, y, pn->x0, y, AXIS_COLOUR);
	}
	/* x axis */
	nmajor = sf_axis_ticks(&pn->x, powers_of_two, major, MAX_TICKS, minor,
	                       MAX_TICKS, &nminor);
	for (size_t k = 0; k < nmajor; k++) {
		double x = sf_axis_map(&pn->x, major[k]);

		sf_svg_printf(s,
		              "<line x1=\"%.2f\" y1=\"%.2f\" x2=\"%.2f\" "
		              "y2=\"%.2f\" stroke=\"%s\"/>\n"
		              "<line x1=\"%.2f\" y1=\"%.2f\" x2=\"%.2f\" "
		              "y2=\"%.2f\" stroke=\"%s\"/>\n",
		              x, pn->y0, x, pn->y1, GRID_COLOUR, x, pn->y1, x,
		              pn->y1 + 5, AXIS_COLOUR);
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
		sf_svg_printf(s,
		              "<line x1=\"%.2f\" y1=\"%.2f\" x2=\"%.2f\" "
		              "y2=\"%.2f\" stroke=\"%s\"/>\n",
		              x, pn->y1, x, pn->y1 + 3, AXIS_COLOUR);
	}
}

static void
frame(sf_svg *s, const panel *pn)
{
	sf_svg_printf(s,
	              "<rect x=\"%.2f\" y=\"%.2f\" width=\"%.2f\" "
	              "height=\"%.2f\" fill=\"none\" stroke=\"%s\"/>\n",
	              pn->x0, pn->y0, pn->x1 - pn->x0, pn->y1 - pn->y0,
	              AXIS_COLOUR);
}

static void
clip_path(sf_svg *s, const panel *pn)
{
	sf_svg_printf(s,
	              "<clipPath id=\"%s\"><rect x=\"%.2f\" y=\"%.2f\" "
	              "width=\"%.2f\" height=\"%.2f\"/></clipPath>\n",
	              pn->clip, pn->x0, pn->y0, pn->x1 - pn->x0,
	              pn->y1 - pn->y0);
}

/* A vertical axis title, centred on the panel. */
static void
y_title(sf_svg *s, const panel *pn, const char *text)
{
	double y = (pn->y0 + pn->y1) / 2;
	char attrs[128];

	snprintf(attrs, sizeof attrs,
	         "text-anchor=\"middle\" transform=\"rotate(-90 %.2f %.2f)\"",
	         20.0, y);
	sf_svg_text(s, 20, y, attrs, text);
}

/* Map n values through an axis (NaN stays NaN). */
static void
map_all(const sf_axis *a, const double *v, size_t n, double *out)
{
	for (size_t k = 0; k < n; k++)
		out[k] = isfinite(v[k]) && (!a->log || v[k] > 0)
		             ? sf_axis_map(a, v[k])
		             : NAN;
}

/* A band: along the upper edge, back along the lower. */
static void
draw_band(sf_svg *s, const double *x, size_t n, const panel *pn,
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

/* What a chart knows of the fitted range of x: beyond it the chart greys
 * the axis, and marks its ends. */
typedef struct fit_range {
	int known; /* 0: nothing to grey or mark */
	double lo, hi;
} fit_range;

/* Grey the parts of the x axis beyond the fitted range. */
static void
draw_beyond(sf_svg *s, const fit_range *fit, const panel *pn)
{
	double x0 = fmin(pn->x0, pn->x1), x1 = fmax(pn->x0, pn->x1);
	double top = fmin(pn->y0, pn->y1), height = fabs(pn->y1 - pn->y0);
	double a = x0, b = x1;

	if (!fit->known || !isfinite(fit->lo) || !isfinite(fit->hi))
		return;
	if (fit->lo > pn->x.lo)
		a = sf_axis_map(&pn->x, fit->lo);
	if (fit->hi < pn->x.hi)
		b = sf_axis_map(&pn->x, fit->hi);
	if (a > x0)
		sf_svg_printf(s,
		              "<rect class=\"beyond\" x=\"%.2f\" y=\"%.2f\" "
		              "width=\"%.2f\" height=\"%.2f\" fill=\"%s\" "
		              "fill-opacity=\"0.15\"/>\n",
		              x0, top, fmin(a, x1) - x0, height, BEYOND_COLOUR);
	if (b < x1)
		sf_svg_printf(s,
		              "<rect class=\"beyond\" x=\"%.2f\" y=\"%.2f\" "
		              "width=\"%.2f\" height=\"%.2f\" fill=\"%s\" "
		              "fill-opacity=\"0.15\"/>\n",
		              fmax(b, x0), top, x1 - fmax(b, x0), height,
		              BEYOND_COLOUR);
}

/* Mark the ends of the fitted range that lie inside the axis, and label
 * the span between them "fitted range" (top panel only). */
static void
draw_fit_edges(sf_svg *s, const fit_range *fit, const panel *pn)
{
	double x0 = fmin(pn->x0, pn->x1), x1 = fmax(pn->x0, pn->x1);
	double top = fmin(pn->y0, pn->y1), bottom = fmax(pn->y0, pn->y1);
	double a = x0, b = x1;
	int inside = 0;

	if (!fit->known || !isfinite(fit->lo) || !isfinite(fit->hi))
		return;
	if (fit->lo > pn->x.lo) {
		a = fmin(sf_axis_map(&pn->x, fit->lo), x1);
		inside = 1;
	}
	if (fit->hi < pn->x.hi) {
		b = fmax(sf_axis_map(&pn->x, fit->hi), x0);
		inside = 1;
	}
	/* Nothing to mark when the whole axis was fitted. */
	if (!inside)
		return;
	if (a > x0)
		sf_svg_printf(s,
		              "<line class=\"fit-edge\" x1=\"%.2f\" "
		              "y1=\"%.2f\" x2=\"%.2f\" y2=\"%.2f\" "
		              "stroke=\"%s\" stroke-width=\"1.5\"/>\n",
		              a, top, a, bottom, BEYOND_COLOUR);
	if (b < x1)
		sf_svg_printf(s,
		              "<line class=\"fit-edge\" x1=\"%.2f\" "
		              "y1=\"%.2f\" x2=\"%.2f\" y2=\"%.2f\" "
		              "stroke=\"%s\" stroke-width=\"1.5\"/>\n",
		              b, top, b, bottom, BEYOND_COLOUR);
	if (b > a)
		sf_svg_text(s, (a + b) / 2, top + 15,
		            "class=\"fit-label\" text-anchor=\"middle\" "
		            "fill=\"#555555\" " HALO,
		            "fitted range");
}

/* The work arrays of a drawing: a curve's points mapped to pixels (px,
 * py) and a band's outline, twice as long (bx, by).  Allocated once per
 * chart, so no curve allocates. */
typedef struct scratch {
	double *px, *py, *bx, *by;
} scratch;

static void
scratch_free(scratch *w)
{
	free(w->px);
	free(w->py);
	free(w->bx);
	free(w->by);
}

/* Room for curves of up to n points in *w (zeroed by the caller): 1, or 0
 * when out of memory (free with scratch_free() either way). */
static int
scratch_alloc(scratch *w, size_t n)
{
	w->px = malloc((n + 1) * sizeof *w->px);
	w->py = malloc((n + 1) * sizeof *w->py);
	w->bx = malloc((2 * n + 1) * sizeof *w->bx);
	w->by = malloc((2 * n + 1) * sizeof *w->by);
	return w->px != NULL && w->py != NULL && w->bx != NULL && w->by != NULL;
}

/* The curve (x[k], y[k]), k < n, in colour; prefix is "" or the
 * attributes that go first ("class=\"series\" "). */
static void
draw_curve(sf_svg *s, const panel *pn, const double *x, const double *y,
           size_t n, const char *colour, const char *prefix, scratch *w)
{
	char attrs[160];

	map_all(&pn->x, x, n, w->px);
	map_all(&pn->y, y, n, w->py);
	snprintf(attrs, sizeof attrs,
	         "%sstroke=\"%s\" stroke-width=\"2\" stroke-linejoin=\"round\"",
	         prefix, colour);
	sf_svg_polyline(s, w->px, w->py, n, attrs);
}

/* Measured points (x[k], y[k]), k < n, that the axes can show: dots in
 * colour, or rings when held (measured, not fitted). */
static void
draw_points(sf_svg *s, const panel *pn, const double *x, const double *y,
            size_t n, const char *colour, int held)
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

/* The dashed vertical line at the crossover x, when there is one. */
static void
draw_crossover(sf_svg *s, const panel *pn, double x)
{
	if (!isfinite(x))
		return;
	sf_svg_printf(s,
	              "<line x1=\"%.2f\" y1=\"%.2f\" x2=\"%.2f\" "
	              "y2=\"%.2f\" stroke=\"%s\" stroke-width=\"1.5\" "
	              "stroke-dasharray=\"5 3\"/>\n",
	              sf_axis_map(&pn->x, x), pn->y0, sf_axis_map(&pn->x, x),
	              pn->y1, AXIS_COLOUR);
}

/* The dotted line of 50% parallel efficiency across the panel. */
static void
draw_half(sf_svg *s, const panel *pn)
{
	double y = sf_axis_map(&pn->y, 0.5);

	sf_svg_printf(s,
	              "<line x1=\"%.2f\" y1=\"%.2f\" x2=\"%.2f\" "
	              "y2=\"%.2f\" stroke=\"#888888\" "
	              "stroke-dasharray=\"2 3\"/>\n",
	              pn->x0, y, pn->x1, y);
}

static void
draw_top(sf_svg *s, const sf_plot_scale *p, const panel *pn, scratch *w)
{
	const fit_range fit = {p->has_fit_range, p->fit_lo, p->fit_hi};
	size_t n = p->n;

	sf_svg_printf(s, "<g clip-path=\"url(#%s)\">\n", pn->clip);
	draw_beyond(s, &fit, pn);
	if (p->pi_lo != NULL && p->pi_hi != NULL)
		draw_band(s, p->x, n, pn, p->pi_lo, p->pi_hi,
		          "class=\"interval\" fill=\"#0072B2\" "
		          "fill-opacity=\"0.12\" stroke=\"none\"",
		          w->bx, w->by);
	if (p->lo != NULL && p->hi != NULL)
		draw_band(s, p->x, n, pn, p->lo, p->hi,
		          "class=\"band\" fill=\"#0072B2\" "
		          "fill-opacity=\"0.3\" stroke=\"none\"",
		          w->bx, w->by);
	draw_curve(s, pn, p->x, p->time, n, palette[0], "", w);
	draw_fit_edges(s, &fit, pn);
	draw_crossover(s, pn, p->crossover_x);
	/* The measurements last, on top of what the model says. */
	if (isfinite(p->fastest_x) && isfinite(p->fastest_time))
		diamond(s, sf_axis_map(&pn->x, p->fastest_x),
		        sf_axis_map(&pn->y, p->fastest_time), 6,
		        FASTEST_COLOUR);
	draw_points(s, pn, p->mx, p->my, p->nmeasured, MEASURED_COLOUR, 0);
	draw_points(s, pn, p->hx, p->hy, p->nheld, MEASURED_COLOUR, 1);
	sf_svg_printf(s, "</g>\n");
}

/* The shares stacked: each series an area between the running sums. */
static void
draw_stacked(sf_svg *s, const sf_plot_scale *p, const panel *pn, scratch *w)
{
	size_t n = p->n;
	double *below = calloc(n + 1, sizeof *below);

	map_all(&pn->x, p->x, n, w->px);
	for (size_t j = 0; below != NULL && j < p->nshares; j++) {
		char attrs[96];
		size_t m = 0;

		for (size_t k = 0; k < n; k++) {
			w->bx[m] = w->px[k];
			w->by[m++] = sf_axis_map(&pn->y, below[k]);
		}
		for (size_t k = n; k-- > 0;) {
			double v = p->shares[j * n + k];

			below[k] += isfinite(v) && v > 0 ? v : 0;
			w->bx[m] = w->px[k];
			w->by[m++] = sf_axis_map(&pn->y, below[k]);
		}
		snprintf(attrs, sizeof attrs,
		         "fill=\"%s\" fill-opacity=\"0.85\" "
		         "stroke=\"white\" stroke-width=\"0.5\"",
		         palette[j % PALETTE_SIZE]);
		sf_svg_polygon(s, w->bx, w->by, m, attrs);
	}
	free(below);
}

static void
draw_bottom(sf_svg *s, const sf_plot_scale *p, const panel *pn, scratch *w)
{
	size_t n = p->n;

	sf_svg_printf(s, "<g clip-path=\"url(#%s)\">\n", pn->clip);
	if (p->efficiency != NULL) {
		draw_half(s, pn);
		draw_curve(s, pn, p->x, p->efficiency, n, palette[0], "", w);
	} else if (p->term_values) {
		/* Each term's value, a line each. */
		for (size_t j = 0; j < p->nshares; j++)
			draw_curve(s, pn, p->x, &p->shares[j * n], n,
			           palette[j % PALETTE_SIZE], "", w);
	} else {
		draw_stacked(s, p, pn, w);
	}
	draw_crossover(s, pn, p->crossover_x);
	sf_svg_printf(s, "</g>\n");
}

/* The ranges of a chart's axes: x, the time (y) and the bottom panel's
 * (e). */
typedef struct ranges {
	double xlo, xhi, ylo, yhi, elo, ehi;
	int xlog, ylog, elog;
} ranges;

/* The time axis of a study's chart: the curve, the measurements, and
 * the bands within limits.  0 when there is no finite time to show. */
static int
scale_time_range(const sf_plot_scale *p, ranges *r)
{
	double blo = INFINITY, bhi = -INFINITY;
	int ylog = p->ylog;

	r->ylo = INFINITY;
	r->yhi = -INFINITY;
	extend(&r->ylo, &r->yhi, p->time, p->n, ylog);
	if (!(r->ylo <= r->yhi) || p->n == 0)
		return 0;
	extend(&r->ylo, &r->yhi, p->my, p->nmeasured, ylog);
	extend(&r->ylo, &r->yhi, p->hy, p->nheld, ylog);
	/* The bands widen the axis, but by at most a factor of 4 (log) or
	 * the curve's span (linear): a band exploding where the fit knows
	 * nothing must not squash the curve into a line. */
	extend(&blo, &bhi, p->lo, p->n, ylog);
	extend(&blo, &bhi, p->hi, p->n, ylog);
	if (p->pi_lo != NULL && p->pi_hi != NULL) {
		extend(&blo, &bhi, p->pi_lo, p->n, ylog);
		extend(&blo, &bhi, p->pi_hi, p->n, ylog);
	}
	if (blo <= bhi) {
		double span = fmax(r->yhi - r->ylo, 0.1 * fabs(r->yhi));

		r->ylo =
		    fmax(fmin(r->ylo, blo), ylog ? r->ylo / 4 : r->ylo - span);
		r->yhi =
		    fmin(fmax(r->yhi, bhi), ylog ? r->yhi * 4 : r->yhi + span);
	}
	pad(&r->ylo, &r->yhi, ylog, 0.04);
	return 1;
}

/* The bottom panel's axis of a study's chart: the efficiency from 0, the
 * terms' values, or the shares from 0 to 1. */
static void
scale_bottom_range(const sf_plot_scale *p, ranges *r)
{
	r->elo = 0;
	r->ehi = 1;
	r->elog = 0;
	if (p->efficiency != NULL) {
		extend(&r->elo, &r->ehi, p->efficiency, p->n, 0);
		r->elo = 0;
		r->ehi = fmax(1, r->ehi) * 1.05;
	} else if (p->term_values) {
		/* The terms' own scale: log when they are positive and
		 * span two decades or more (a step count and a step time). */
		double vlo = INFINITY, vhi = -INFINITY;

		extend(&vlo, &vhi, p->shares, p->nshares * p->n, 0);
		if (!(vlo <= vhi))
			vlo = 0, vhi = 1;
		r->elog = vlo > 0 && vhi >= 100 * vlo;
		r->elo = r->elog ? vlo : fmin(0, vlo);
		r->ehi = vhi;
		pad(&r->elo, &r->ehi, r->elog, 0.04);
	}
}

/* The two panels, one above the other under a legend whose last row is
 * at legend_y (the bottom one bottom_height high), with r's axes. */
static void
place_panels(panel *top, panel *bottom, const ranges *r, double legend_y,
             double bottom_height)
{
	top->x0 = bottom->x0 = LEFT;
	top->x1 = bottom->x1 = WIDTH - RIGHT;
	top->y0 = legend_y + 16;
	top->y1 = top->y0 + TOP_HEIGHT;
	bottom->y0 = top->y1 + GAP;
	bottom->y1 = bottom->y0 + bottom_height;
	top->clip = "top-panel";
	bottom->clip = "bottom-panel";
	top->x = (sf_axis){r->xlo, r->xhi, r->xlog, top->x0 + INSET,
	                   top->x1 - INSET};
	bottom->x = top->x;
	top->y = (sf_axis){r->ylo, r->yhi, r->ylog, top->y1, top->y0};
	bottom->y = (sf_axis){r->elo, r->ehi, r->elog, bottom->y1, bottom->y0};
}

/* The clip paths of the top panel and, unless NULL, the bottom one. */
static void
clip_paths(sf_svg *s, const panel *top, const panel *bottom)
{
	sf_svg_printf(s, "<defs>\n");
	clip_path(s, top);
	if (bottom != NULL)
		clip_path(s, bottom);
	sf_svg_printf(s, "</defs>\n");
}

/* A new document of the chart's width and the given height with the title
 * and subtitle (may be NULL or "") drawn; NULL when out of memory. */
static sf_svg *
chart_new(double height, const char *title, const char *subtitle)
{
	sf_svg *s = sf_svg_new(WIDTH, height);

	if (s == NULL)
		return NULL;
	sf_svg_text(s, LEFT, 28, "font-size=\"16\" font-weight=\"bold\"",
	            title);
	if (subtitle != NULL && subtitle[0] != '\0')
		sf_svg_text(s, LEFT, 48, "fill=\"#555555\"", subtitle);
	return s;
}

/* Hand the drawn document s to *out; or, when a drawing call ran out of
 * memory (the document remembers), free it and say so. */
static int
chart_finish(sf_svg *s, sf_svg **out, sf_error *err)
{
	if (sf_svg_text_of(s, NULL) == NULL) {
		sf_svg_free(s);
		return sf_error_set(err, SF_ENOMEM, "out of memory");
	}
	*out = s;
	return SF_OK;
}

int
sf_plot_scale_draw(const sf_plot_scale *p, sf_svg **out, sf_error *err)
{
	legend measure = {NULL, LEFT, 78, 1}, below = {NULL, LEFT, 0, 0}, draw;
	scratch w = {0};
	panel top, bottom;
	ranges r;
	double height;
	sf_svg *s = NULL;

	*out = NULL;
	if (!scale_time_range(p, &r))
		return sf_error_set(err, SF_EVALUE,
		                    "no finite predicted time to plot");
	scale_bottom_range(p, &r);
	r.xlo = p->x[0];
	r.xhi = p->x[p->n - 1];
	r.xlog = p->xlog;
	r.ylog = p->ylog;
	/* Measure the legends first: they decide where the panels go. */
	draw_legend(p, &measure);
	place_panels(&top, &bottom, &r, measure.y, BOTTOM_HEIGHT);
	below.y = bottom.y1 + 72;
	draw_share_legend(p, &below);
	height = bottom.y1 + 52 +
	         (p->efficiency == NULL && p->nshares > 0
	              ? below.y - bottom.y1 - 52 + 14
	              : 0);
	if (!scratch_alloc(&w, p->n) ||
	    (s = chart_new(height, p->title, p->subtitle)) == NULL) {
		scratch_free(&w);
		return sf_error_set(err, SF_ENOMEM, "out of memory");
	}
	draw = (legend){s, LEFT, 78, 1};
	draw_legend(p, &draw);
	draw = (legend){s, LEFT, bottom.y1 + 72, 0};
	draw_share_legend(p, &draw);
	clip_paths(s, &top, &bottom);
	grid_and_ticks(s, &top, p->powers_of_two, 0, 0);
	grid_and_ticks(s, &bottom, p->powers_of_two, 1, !p->term_values);
	draw_top(s, p, &top, &w);
	draw_bottom(s, p, &bottom, &w);
	scratch_free(&w);
	frame(s, &top);
	frame(s, &bottom);
	y_title(s, &top, p->ylabel);
	y_title(s, &bottom,
	        p->efficiency != NULL ? "parallel efficiency"
	        : p->term_values      ? "value of each term"
	                              : "share of time");
	if (p->note != NULL)
		sf_svg_text(s, bottom.x1 - 8, bottom.y0 + 16,
		            "class=\"note\" text-anchor=\"end\" "
		            "fill=\"#555555\" " HALO,
		            p->note);
	sf_svg_text(s, (top.x0 + top.x1) / 2, bottom.y1 + 42,
	            "text-anchor=\"middle\"", p->xlabel);
	return chart_finish(s, out, err);
}

/* ---- the chart of a study ------------------------------------------------ */

/* 1 when a term takes no time anywhere (so it is left off the chart). */
static int
all_zero(const double *v, size_t n)
{
	for (size_t k = 0; k < n; k++)
		if (v[k] != 0)
			return 0;
	return 1;
}

/* Run study sc along the chart's points into *w: SF_PLOT_POINTS spaced as
 * the study is, through whole values only when the input takes nothing
 * else (a formula with floor(n / p) is a sawtooth between them, which no
 * run can show), else through fractional ones. */
static int
sweep_study(const sf_scale *sc, sf_sweep **w, sf_error *err)
{
	double *x = NULL;
	size_t n;
	int rc;

	*w = NULL;
	rc = sf_sweep_values(sc->lo, sc->hi,
	                     sc->s.integer ? SF_SWEEP_WHOLE : SF_SWEEP_REAL,
	                     sc->s.log, SF_PLOT_POINTS, &x, &n, err);
	if (rc == SF_OK)
		rc = sf_sweep_run(sc->f, &sc->s, x, n, w, err);
	free(x);
	return rc;
}

/* The texts every chart of study sc shows: the inputs held fixed and the
 * range, the swept input (and its column), the output (and its unit,
 * declared or read from the name). */
typedef struct study_labels {
	char subtitle[512], xlabel[256], ylabel[160];
} study_labels;

static void
label_study(const sf_scale *sc, study_labels *l)
{
	const sf_fitfile *f = sc->f;
	const sf_fitfile_input *in = &f->inputs[sc->s.var];
	char fixed[256];

	sf_scale_fixed_text(sc, fixed, sizeof fixed);
	snprintf(l->subtitle, sizeof l->subtitle, "%s%s%s over %g to %g", fixed,
	         fixed[0] ? "; " : "", in->name, sc->lo, sc->hi);
	if (strcmp(in->column, in->name) != 0)
		snprintf(l->xlabel, sizeof l->xlabel, "%.100s (%.100s)",
		         in->name, in->column);
	else
		snprintf(l->xlabel, sizeof l->xlabel, "%.200s", in->name);
	if (sc->unit_declared || sc->unit_guessed)
		snprintf(l->ylabel, sizeof l->ylabel, "%.100s (%s)", f->output,
		         sf_scale_unit_name(sc->unit));
	else
		snprintf(l->ylabel, sizeof l->ylabel, "%.100s", f->output);
}

/* What the chart of one study draws besides the sweep's own arrays. */
typedef struct study_chart {
	double *time, *lo, *hi, *pi_lo, *pi_hi; /* the curve and its bands */
	double *mx, *my;                        /* the measured points */
	double *shares;     /* the bottom panel's ns series of n points */
	const char **names; /* and their names */
	size_t ns;
	study_labels l;
	char title[256], band[96], fastest[160], cross[160];
} study_chart;

static void
study_chart_free(study_chart *c)
{
	free(c->time);
	free(c->lo);
	free(c->hi);
	free(c->pi_lo);
	free(c->pi_hi);
	free(c->mx);
	free(c->my);
	free(c->shares);
	free(c->names);
}

/* The arrays of c (zeroed by the caller) for f's chart of n points: 1, or
 * 0 when out of memory (free with study_chart_free() either way). */
static int
study_chart_alloc(study_chart *c, const sf_fitfile *f, size_t n)
{
	c->time = malloc((n + 1) * sizeof *c->time);
	c->lo = malloc((n + 1) * sizeof *c->lo);
	c->hi = malloc((n + 1) * sizeof *c->hi);
	c->pi_lo = malloc((n + 1) * sizeof *c->pi_lo);
	c->pi_hi = malloc((n + 1) * sizeof *c->pi_hi);
	c->mx = malloc((f->nmeasured + 1) * sizeof *c->mx);
	c->my = malloc((f->nmeasured + 1) * sizeof *c->my);
	c->shares = malloc(((f->nterms + 1) * n + 1) * sizeof *c->shares);
	c->names = calloc(f->nterms + 2, sizeof *c->names);
	return c->time != NULL && c->lo != NULL && c->hi != NULL &&
	       c->pi_lo != NULL && c->pi_hi != NULL && c->mx != NULL &&
	       c->my != NULL && c->shares != NULL && c->names != NULL;
}

/* The predicted time of every point, the band of its mean and the
 * interval of a new run, from the sweep's predictions. */
static void
study_curves(const sf_sweep *w, study_chart *c)
{
	for (size_t k = 0; k < w->n; k++) {
		sf_band b = sf_prediction_band(w->pred, k);

		c->time[k] = w->pred->points[k].time;
		c->lo[k] = b.lo;
		c->hi[k] = b.hi;
		c->pi_lo[k] = w->pred->points[k].pi.lo;
		c->pi_hi[k] = w->pred->points[k].pi.hi;
	}
}

/* The series of the bottom panel: each term's share that takes time
 * somewhere (its value when the time is not the sum of the terms), then
 * the rest when it matters. */
static void
study_shares(const sf_fitfile *f, const sf_sweep *w, study_chart *c)
{
	size_t n = w->n;

	c->ns = 0;
	for (size_t j = 0; j < f->nterms; j++) {
		const double *v =
		    f->terms_sum ? &w->share[j * n] : &w->pred->terms[j * n];

		if ((f->terms_sum && !f->terms[j].component) || all_zero(v, n))
			continue;
		c->names[c->ns] = f->terms[j].name;
		memcpy(&c->shares[c->ns++ * n], v, n * sizeof *c->shares);
	}
	if (f->terms_sum && sf_sweep_rest_matters(w)) {
		c->names[c->ns] = "rest";
		memcpy(&c->shares[c->ns++ * n], w->rest, n * sizeof *c->shares);
	}
}

/* The texts of the chart of study sc: titles, the band's and the marked
 * points' legends (along the batch the knee is the point to mark). */
static void
study_texts(const sf_scale *sc, const sf_sweep *w, study_chart *c)
{
	const sf_fitfile *f = sc->f;
	const sf_fitfile_input *in = &f->inputs[sc->s.var];
	const sf_sweep_answers *a = &sc->answers;

	label_study(sc, &c->l);
	snprintf(c->title, sizeof c->title, "%.100s: predicted %.100s",
	         f->name[0] ? f->name : "fit", f->output);
	if (w->pred->bootstrap)
		snprintf(c->band, sizeof c->band,
		         "95%% band of the mean (bootstrap, %zu)",
		         w->pred->boot_used);
	else
		snprintf(c->band, sizeof c->band, "95%% band of the mean");
	if (isfinite(a->knee))
		snprintf(c->fastest, sizeof c->fastest,
		         "knee: %.64s = %.6g (within %g%% of the highest "
		         "throughput)",
		         in->name, a->knee, 100 * SF_SWEEP_KNEE);
	else
		snprintf(c->fastest, sizeof c->fastest, "fastest: %.64s = %.6g",
		         in->name, a->fastest);
	snprintf(c->cross, sizeof c->cross, "%s from %.64s = %.6g",
	         a->comm_first ? "compute > communication"
	                       : "communication > compute",
	         in->name, a->crossover_x);
}

/* The chart of study sc, swept into w, with c's arrays and texts. */
static void
describe_study(const sf_scale *sc, const sf_sweep *w, const study_chart *c,
               sf_plot_scale *p)
{
	const sf_fitfile *f = sc->f;
	const sf_fitfile_input *in = &f->inputs[sc->s.var];
	const sf_sweep_answers *a = &sc->answers;

	memset(p, 0, sizeof *p);
	p->title = c->title;
	p->subtitle = c->l.subtitle;
	p->xlabel = c->l.xlabel;
	p->ylabel = c->l.ylabel;
	p->xlog = p->ylog = sc->s.log;
	p->powers_of_two = sc->s.integer && sc->s.log;
	p->n = w->n;
	p->x = w->x;
	p->time = c->time;
	p->lo = c->lo;
	p->hi = c->hi;
	p->band_label = c->band;
	if (w->pred->interval) {
		p->pi_lo = c->pi_lo;
		p->pi_hi = c->pi_hi;
		p->pi_label = "95% interval of a new run";
	}
	p->has_fit_range = in->levels == NULL;
	p->fit_lo = in->lo;
	p->fit_hi = in->hi;
	p->nmeasured = sf_scale_measured(sc, c->mx, c->my);
	p->mx = c->mx;
	p->my = c->my;
	p->measured_label = sc->nheld > 0 ? "measured, fitted" : "measured";
	p->nheld = sc->nheld;
	p->hx = sc->held_x;
	p->hy = sc->held_y;
	p->held_label = "measured, not fitted";
	/* The fastest point along workers (elsewhere the least time is
	 * merely an end of the range), or the knee along the batch. */
	p->fastest_x = isfinite(a->knee) ? a->knee
	               : sc->s.workers   ? a->fastest
	                                 : NAN;
	p->fastest_time = isfinite(a->knee) ? a->knee_time : a->fastest_time;
	p->fastest_label = c->fastest;
	p->crossover_x =
	    a->crossover == SF_SWEEP_CROSS_AT ? a->crossover_x : NAN;
	p->crossover_label = c->cross;
	p->efficiency = sc->efficiency_panel ? w->efficiency : NULL;
	p->nshares = c->ns;
	p->share_names = c->names;
	p->shares = c->shares;
	if (!f->terms_sum && p->efficiency == NULL) {
		p->term_values = 1;
		p->note = SF_SCALE_NOT_SUM;
	}
}

int
sf_plot_study(const sf_scale *sc, sf_svg **out, sf_error *err)
{
	study_chart c = {0};
	sf_sweep *w = NULL;
	sf_plot_scale p;
	int rc;

	*out = NULL;
	if ((rc = sweep_study(sc, &w, err)) != SF_OK)
		goto done;
	if (!study_chart_alloc(&c, sc->f, w->n)) {
		rc = sf_error_set(err, SF_ENOMEM, "out of memory");
		goto done;
	}
	study_curves(w, &c);
	study_shares(sc->f, w, &c);
	study_texts(sc, w, &c);
	describe_study(sc, w, &c, &p);
	rc = sf_plot_scale_draw(&p, out, err);
done:
	study_chart_free(&c);
	sf_sweep_free(w);
	return rc;
}

/* ---- several fits on one chart ------------------------------------------ */

/* The axes of a chart of several lines: x and the time over every line
 * (the measured times too), the efficiency from 0 to at least 105%; the
 * longest line's length in *most.  0 when there is no finite time or x. */
static int
lines_ranges(const sf_plot_lines *p, ranges *r, size_t *most)
{
	r->xlo = r->ylo = INFINITY;
	r->xhi = r->yhi = -INFINITY;
	r->elo = 0;
	r->ehi = 1;
	r->xlog = p->xlog;
	r->ylog = p->ylog;
	r->elog = 0;
	*most = 0;
	for (size_t j = 0; j < p->nlines; j++) {
		const sf_plot_line *l = &p->lines[j];

		extend(&r->ylo, &r->yhi, l->time, l->n, p->ylog);
		extend(&r->xlo, &r->xhi, l->x, l->n, p->xlog);
		*most = l->n > *most ? l->n : *most;
	}
	if (!(r->ylo <= r->yhi) || !(r->xlo <= r->xhi))
		return 0;
	for (size_t j = 0; j < p->nlines; j++) {
		const sf_plot_line *l = &p->lines[j];

		extend(&r->ylo, &r->yhi, l->my, l->nmeasured, p->ylog);
		if (p->efficiency && l->efficiency != NULL)
			extend(&r->elo, &r->ehi, l->efficiency, l->n, 0);
	}
	pad(&r->ylo, &r->yhi, p->ylog, 0.04);
	r->elo = 0;
	r->ehi = fmax(1, r->ehi) * 1.05;
	return 1;
}

/* The legend of a chart of several lines: one entry a line, the band, and
 * the greyed range beyond the fit's. */
static void
lines_legend(const sf_plot_lines *p, legend *l)
{
	for (size_t j = 0; j < p->nlines; j++)
		legend_entry(l, LINE, palette[j % PALETTE_SIZE],
		             p->lines[j].label);
	legend_entry(l, BAND, "#888888", "95% band of the mean");
	if (p->has_fit_range)
		legend_entry(l, GREY, BEYOND_COLOUR, "beyond the fitted range");
}

/* The top panel of several lines: every band first, then every curve
 * with its measured points, each line in its colour. */
static void
draw_lines_top(sf_svg *s, const sf_plot_lines *p, const panel *pn, scratch *w)
{
	const fit_range fit = {p->has_fit_range, p->fit_lo, p->fit_hi};

	sf_svg_printf(s, "<g clip-path=\"url(#%s)\">\n", pn->clip);
	draw_beyond(s, &fit, pn);
	for (size_t j = 0; j < p->nlines; j++) {
		const sf_plot_line *l = &p->lines[j];
		char attrs[160];

		if (l->lo == NULL || l->hi == NULL)
			continue;
		snprintf(attrs, sizeof attrs,
		         "class=\"band\" fill=\"%s\" "
		         "fill-opacity=\"0.2\" stroke=\"none\"",
		         palette[j % PALETTE_SIZE]);
		draw_band(s, l->x, l->n, pn, l->lo, l->hi, attrs, w->bx, w->by);
	}
	for (size_t j = 0; j < p->nlines; j++) {
		const sf_plot_line *l = &p->lines[j];
		const char *colour = palette[j % PALETTE_SIZE];

		draw_curve(s, pn, l->x, l->time, l->n, colour,
		           "class=\"series\" ", w);
		draw_points(s, pn, l->mx, l->my, l->nmeasured, colour, 0);
	}
	draw_fit_edges(s, &fit, pn);
	sf_svg_printf(s, "</g>\n");
}

/* The bottom panel of several lines: each one's efficiency and the 50%
 * line, framed and titled. */
static void
draw_lines_efficiency(sf_svg *s, const sf_plot_lines *p, const panel *pn,
                      scratch *w)
{
	sf_svg_printf(s, "<g clip-path=\"url(#%s)\">\n", pn->clip);
	draw_half(s, pn);
	for (size_t j = 0; j < p->nlines; j++) {
		const sf_plot_line *l = &p->lines[j];

		if (l->efficiency != NULL)
			draw_curve(s, pn, l->x, l->efficiency, l->n,
			           palette[j % PALETTE_SIZE], "", w);
	}
	sf_svg_printf(s, "</g>\n");
	frame(s, pn);
	y_title(s, pn, "parallel efficiency");
}

int
sf_plot_lines_draw(const sf_plot_lines *p, sf_svg **out, sf_error *err)
{
	legend measure = {NULL, LEFT, 78, 1}, draw;
	scratch w = {0};
	panel top, bottom;
	ranges r;
	size_t most;
	sf_svg *s = NULL;

	*out = NULL;
	if (!lines_ranges(p, &r, &most))
		return sf_error_set(err, SF_EVALUE,
		                    "no finite predicted time to plot");
	/* Measure the legend first: it decides where the panels go. */
	lines_legend(p, &measure);
	place_panels(&top, &bottom, &r, measure.y,
	             p->efficiency ? BOTTOM_HEIGHT : 0);
	if (!scratch_alloc(&w, most) ||
	    (s = chart_new((p->efficiency ? bottom.y1 : top.y1) + 52, p->title,
	                   p->subtitle)) == NULL) {
		scratch_free(&w);
		return sf_error_set(err, SF_ENOMEM, "out of memory");
	}
	draw = (legend){s, LEFT, 78, 1};
	lines_legend(p, &draw);
	clip_paths(s, &top, p->efficiency ? &bottom : NULL);
	grid_and_ticks(s, &top, p->powers_of_two, !p->efficiency, 0);
	if (p->efficiency)
		grid_and_ticks(s, &bottom, p->powers_of_two, 1, 1);
	draw_lines_top(s, p, &top, &w);
	if (p->efficiency)
		draw_lines_efficiency(s, p, &bottom, &w);
	scratch_free(&w);
	frame(s, &top);
	y_title(s, &top, p->ylabel);
	sf_svg_text(s, (top.x0 + top.x1) / 2,
	            (p->efficiency ? bottom.y1 : top.y1) + 42,
	            "text-anchor=\"middle\"", p->xlabel);
	return chart_finish(s, out, err);
}

/* One study's line on a chart of several: its sweep into *w, its curve,
 * band and measured points into the 5 arrays mem[0..4] (freed by the
 * caller), all described in *line. */
static int
study_line(const sf_scale *c, const char *label, sf_sweep **w,
           sf_plot_line *line, double **mem, sf_error *err)
{
	const sf_fitfile *f = c->f;
	double *time, *lo, *hi, *mx, *my;
	size_t m;
	int rc;

	if ((rc = sweep_study(c, w, err)) != SF_OK)
		return rc;
	m = (*w)->n;
	mem[0] = lo = malloc((m + 1) * sizeof *lo);
	mem[1] = hi = malloc((m + 1) * sizeof *hi);
	mem[2] = mx = malloc((f->nmeasured + 1) * sizeof *mx);
	mem[3] = my = malloc((f->nmeasured + 1) * sizeof *my);
	mem[4] = time = malloc((m + 1) * sizeof *time);
	if (lo == NULL || hi == NULL || mx == NULL || my == NULL ||
	    time == NULL)
		return sf_error_set(err, SF_ENOMEM, "out of memory");
	for (size_t k = 0; k < m; k++) {
		sf_band b = sf_prediction_band((*w)->pred, k);

		lo[k] = b.lo;
		hi[k] = b.hi;
		time[k] = (*w)->pred->points[k].time;
	}
	line->label = label;
	line->n = m;
	line->x = (*w)->x;
	line->time = time;
	line->lo = lo;
	line->hi = hi;
	line->efficiency = (*w)->efficiency;
	line->nmeasured = sf_scale_measured(c, mx, my);
	line->mx = mx;
	line->my = my;
	return SF_OK;
}

int
sf_plot_studies(const sf_scale *const *sc, const char *const *labels, size_t n,
                sf_svg **out, sf_error *err)
{
	sf_plot_line *lines = calloc(n + 1, sizeof *lines);
	sf_sweep **w = calloc(n + 1, sizeof *w);
	double **mem = calloc(5 * n + 1, sizeof *mem);
	const sf_scale *first = sc[0];
	const sf_fitfile_input *in = &first->f->inputs[first->s.var];
	study_labels l;
	char title[256];
	sf_plot_lines p;
	int rc = SF_ENOMEM, efficiency = 1;

	*out = NULL;
	if (lines == NULL || w == NULL || mem == NULL) {
		sf_error_set(err, rc, "out of memory");
		goto done;
	}
	for (size_t j = 0; j < n; j++) {
		rc = study_line(sc[j], labels[j], &w[j], &lines[j], &mem[5 * j],
		                err);
		if (rc != SF_OK)
			goto done;
		efficiency &=
		    sc[j]->efficiency_panel && w[j]->efficiency != NULL;
	}
	label_study(first, &l);
	snprintf(title, sizeof title, "predicted %.100s of %zu fits",
	         first->f->output, n);
	memset(&p, 0, sizeof p);
	p.title = title;
	p.subtitle = l.subtitle;
	p.xlabel = l.xlabel;
	p.ylabel = l.ylabel;
	p.xlog = p.ylog = first->s.log;
	p.powers_of_two = first->s.integer && first->s.log;
	p.nlines = n;
	p.lines = lines;
	p.efficiency = efficiency;
	/* The fitted range when every fit had the same one. */
	p.has_fit_range = in->levels == NULL && isfinite(in->lo);
	p.fit_lo = in->lo;
	p.fit_hi = in->hi;
	for (size_t j = 1; j < n; j++) {
		const sf_fitfile_input *other = &sc[j]->f->inputs[sc[j]->s.var];

		p.has_fit_range &= other->lo == in->lo && other->hi == in->hi;
	}
	rc = sf_plot_lines_draw(&p, out, err);
done:
	for (size_t j = 0; w != NULL && j < n; j++)
		sf_sweep_free(w[j]);
	for (size_t j = 0; mem != NULL && j < 5 * n; j++)
		free(mem[j]);
	free(mem);
	free(w);
	free(lines);
	return rc;
}
