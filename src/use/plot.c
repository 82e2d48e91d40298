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

/* Grey the parts of the x axis beyond the fitted range [fit_lo, fit_hi]. */
static void
draw_beyond(sf_svg *s, const sf_plot_scale *p, const panel *pn)
{
	double x0 = fmin(pn->x0, pn->x1), x1 = fmax(pn->x0, pn->x1);
	double top = fmin(pn->y0, pn->y1), height = fabs(pn->y1 - pn->y0);
	double a = x0, b = x1;

	if (!p->has_fit_range || !isfinite(p->fit_lo) || !isfinite(p->fit_hi))
		return;
	if (p->fit_lo > pn->x.lo)
		a = sf_axis_map(&pn->x, p->fit_lo);
	if (p->fit_hi < pn->x.hi)
		b = sf_axis_map(&pn->x, p->fit_hi);
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
draw_fit_edges(sf_svg *s, const sf_plot_scale *p, const panel *pn)
{
	double x0 = fmin(pn->x0, pn->x1), x1 = fmax(pn->x0, pn->x1);
	double top = fmin(pn->y0, pn->y1), bottom = fmax(pn->y0, pn->y1);
	double a = x0, b = x1;
	int inside = 0;

	if (!p->has_fit_range || !isfinite(p->fit_lo) || !isfinite(p->fit_hi))
		return;
	if (p->fit_lo > pn->x.lo) {
		a = fmin(sf_axis_map(&pn->x, p->fit_lo), x1);
		inside = 1;
	}
	if (p->fit_hi < pn->x.hi) {
		b = fmax(sf_axis_map(&pn->x, p->fit_hi), x0);
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

static void
draw_top(sf_svg *s, const sf_plot_scale *p, const panel *pn, double *px,
         double *py, double *bx, double *by)
{
	size_t n = p->n;

	sf_svg_printf(s, "<g clip-path=\"url(#%s)\">\n", pn->clip);
	draw_beyond(s, p, pn);
	if (p->pi_lo != NULL && p->pi_hi != NULL)
		draw_band(s, p->x, n, pn, p->pi_lo, p->pi_hi,
		          "class=\"interval\" fill=\"#0072B2\" "
		          "fill-opacity=\"0.12\" stroke=\"none\"",
		          bx, by);
	if (p->lo != NULL && p->hi != NULL)
		draw_band(s, p->x, n, pn, p->lo, p->hi,
		          "class=\"band\" fill=\"#0072B2\" "
		          "fill-opacity=\"0.3\" stroke=\"none\"",
		          bx, by);
	map_all(&pn->x, p->x, n, px);
	map_all(&pn->y, p->time, n, py);
	sf_svg_polyline(s, px, py, n,
	                "stroke=\"#0072B2\" stroke-width=\"2\" "
	                "stroke-linejoin=\"round\"");
	draw_fit_edges(s, p, pn);
	if (isfinite(p->crossover_x))
		sf_svg_printf(s,
		              "<line x1=\"%.2f\" y1=\"%.2f\" x2=\"%.2f\" "
		              "y2=\"%.2f\" stroke=\"%s\" stroke-width=\"1.5\" "
		              "stroke-dasharray=\"5 3\"/>\n",
		              sf_axis_map(&pn->x, p->crossover_x), pn->y0,
		              sf_axis_map(&pn->x, p->crossover_x), pn->y1,
		              AXIS_COLOUR);
	/* The measurements last, on top of what the model says. */
	if (isfinite(p->fastest_x) && isfinite(p->fastest_time))
		diamond(s, sf_axis_map(&pn->x, p->fastest_x),
		        sf_axis_map(&pn->y, p->fastest_time), 6,
		        FASTEST_COLOUR);
	for (size_t k = 0; k < p->nmeasured; k++) {
		if (!isfinite(p->mx[k]) || !isfinite(p->my[k]) ||
		    (pn->y.log && !(p->my[k] > 0)))
			continue;
		sf_svg_printf(s,
		              "<circle cx=\"%.2f\" cy=\"%.2f\" r=\"4\" "
		              "fill=\"%s\" stroke=\"white\"/>\n",
		              sf_axis_map(&pn->x, p->mx[k]),
		              sf_axis_map(&pn->y, p->my[k]), MEASURED_COLOUR);
	}
	for (size_t k = 0; k < p->nheld; k++) {
		if (!isfinite(p->hx[k]) || !isfinite(p->hy[k]) ||
		    (pn->y.log && !(p->hy[k] > 0)))
			continue;
		sf_svg_printf(s,
		              "<circle class=\"held\" cx=\"%.2f\" cy=\"%.2f\" "
		              "r=\"4\" fill=\"white\" stroke=\"%s\" "
		              "stroke-width=\"2\"/>\n",
		              sf_axis_map(&pn->x, p->hx[k]),
		              sf_axis_map(&pn->y, p->hy[k]), MEASURED_COLOUR);
	}
	sf_svg_printf(s, "</g>\n");
}

static void
draw_bottom(sf_svg *s, const sf_plot_scale *p, const panel *pn, double *px,
            double *py, double *bx, double *by)
{
	size_t n = p->n;

	sf_svg_printf(s, "<g clip-path=\"url(#%s)\">\n", pn->clip);
	map_all(&pn->x, p->x, n, px);
	if (p->efficiency != NULL) {
		double y = sf_axis_map(&pn->y, 0.5);

		sf_svg_printf(s,
		              "<line x1=\"%.2f\" y1=\"%.2f\" x2=\"%.2f\" "
		              "y2=\"%.2f\" stroke=\"#888888\" "
		              "stroke-dasharray=\"2 3\"/>\n",
		              pn->x0, y, pn->x1, y);
		map_all(&pn->y, p->efficiency, n, py);
		sf_svg_polyline(s, px, py, n,
		                "stroke=\"#0072B2\" stroke-width=\"2\" "
		                "stroke-linejoin=\"round\"");
	} else if (p->term_values) {
		/* Each term's value, a line each. */
		for (size_t j = 0; j < p->nshares; j++) {
			char attrs[96];

			map_all(&pn->y, &p->shares[j * n], n, py);
			snprintf(attrs, sizeof attrs,
			         "stroke=\"%s\" stroke-width=\"2\" "
			         "stroke-linejoin=\"round\"",
			         palette[j % PALETTE_SIZE]);
			sf_svg_polyline(s, px, py, n, attrs);
		}
	} else {
		/* Stacked shares: each series between the running sums. */
		double *below = calloc(n + 1, sizeof *below);

		for (size_t j = 0; below != NULL && j < p->nshares; j++) {
			char attrs[96];
			size_t m = 0;

			for (size_t k = 0; k < n; k++) {
				bx[m] = px[k];
				by[m++] = sf_axis_map(&pn->y, below[k]);
			}
			for (size_t k = n; k-- > 0;) {
				double v = p->shares[j * n + k];

				below[k] += isfinite(v) && v > 0 ? v : 0;
				bx[m] = px[k];
				by[m++] = sf_axis_map(&pn->y, below[k]);
			}
			snprintf(attrs, sizeof attrs,
			         "fill=\"%s\" fill-opacity=\"0.85\" "
			         "stroke=\"white\" stroke-width=\"0.5\"",
			         palette[j % PALETTE_SIZE]);
			sf_svg_polygon(s, bx, by, m, attrs);
		}
		free(below);
	}
	if (isfinite(p->crossover_x))
		sf_svg_printf(s,
		              "<line x1=\"%.2f\" y1=\"%.2f\" x2=\"%.2f\" "
		              "y2=\"%.2f\" stroke=\"%s\" stroke-width=\"1.5\" "
		              "stroke-dasharray=\"5 3\"/>\n",
		              sf_axis_map(&pn->x, p->crossover_x), pn->y0,
		              sf_axis_map(&pn->x, p->crossover_x), pn->y1,
		              AXIS_COLOUR);
	sf_svg_printf(s, "</g>\n");
}

int
sf_plot_scale_draw(const sf_plot_scale *p, sf_svg **out, sf_error *err)
{
	double ylo = INFINITY, yhi = -INFINITY, elo = 0, ehi = 1;
	double blo = INFINITY, bhi = -INFINITY;
	double *px = NULL, *py = NULL, *bx = NULL, *by = NULL;
	legend measure = {NULL, LEFT, 78, 1}, below = {NULL, LEFT, 0, 0}, draw;
	panel top, bottom;
	int ylog = p->ylog;
	int blog = 0; /* the bottom panel's y axis is logarithmic */
	double height;
	sf_svg *s;

	*out = NULL;
	extend(&ylo, &yhi, p->time, p->n, ylog);
	if (!(ylo <= yhi) || p->n == 0)
		return sf_error_set(err, SF_EVALUE,
		                    "no finite predicted time to plot");
	extend(&ylo, &yhi, p->my, p->nmeasured, ylog);
	extend(&ylo, &yhi, p->hy, p->nheld, ylog);
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
		double span = fmax(yhi - ylo, 0.1 * fabs(yhi));

		ylo = fmax(fmin(ylo, blo), ylog ? ylo / 4 : ylo - span);
		yhi = fmin(fmax(yhi, bhi), ylog ? yhi * 4 : yhi + span);
	}
	pad(&ylo, &yhi, ylog, 0.04);
	if (p->efficiency != NULL) {
		extend(&elo, &ehi, p->efficiency, p->n, 0);
		elo = 0;
		ehi = fmax(1, ehi) * 1.05;
	} else if (p->term_values) {
		/* The terms' own scale: log when they are positive and
		 * span two decades or more (a step count and a step time). */
		double vlo = INFINITY, vhi = -INFINITY;

		extend(&vlo, &vhi, p->shares, p->nshares * p->n, 0);
		if (!(vlo <= vhi))
			vlo = 0, vhi = 1;
		blog = vlo > 0 && vhi >= 100 * vlo;
		elo = blog ? vlo : fmin(0, vlo);
		ehi = vhi;
		pad(&elo, &ehi, blog, 0.04);
	}
	draw_legend(p, &measure);
	top.x0 = bottom.x0 = LEFT;
	top.x1 = bottom.x1 = WIDTH - RIGHT;
	top.y0 = measure.y + 16;
	top.y1 = top.y0 + TOP_HEIGHT;
	bottom.y0 = top.y1 + GAP;
	bottom.y1 = bottom.y0 + BOTTOM_HEIGHT;
	below.y = bottom.y1 + 72;
	draw_share_legend(p, &below);
	height = bottom.y1 + 52 +
	         (p->efficiency == NULL && p->nshares > 0
	              ? below.y - bottom.y1 - 52 + 14
	              : 0);
	top.clip = "top-panel";
	bottom.clip = "bottom-panel";
	top.x = (sf_axis){p->x[0], p->x[p->n - 1], p->xlog, top.x0 + INSET,
	                  top.x1 - INSET};
	bottom.x = top.x;
	top.y = (sf_axis){ylo, yhi, ylog, top.y1, top.y0};
	bottom.y =
	    (sf_axis){elo, p->efficiency != NULL || p->term_values ? ehi : 1,
	              blog, bottom.y1, bottom.y0};
	px = malloc((p->n + 1) * sizeof *px);
	py = malloc((p->n + 1) * sizeof *py);
	bx = malloc((2 * p->n + 1) * sizeof *bx);
	by = malloc((2 * p->n + 1) * sizeof *by);
	s = sf_svg_new(WIDTH, height);
	if (px == NULL || py == NULL || bx == NULL || by == NULL || s == NULL)
		goto nomem;
	sf_svg_text(s, LEFT, 28, "font-size=\"16\" font-weight=\"bold\"",
	            p->title);
	if (p->subtitle != NULL && p->subtitle[0] != '\0')
		sf_svg_text(s, LEFT, 48, "fill=\"#555555\"", p->subtitle);
	draw = (legend){s, LEFT, 78, 1};
	draw_legend(p, &draw);
	draw = (legend){s, LEFT, bottom.y1 + 72, 0};
	draw_share_legend(p, &draw);
	sf_svg_printf(s, "<defs>\n");
	clip_path(s, &top);
	clip_path(s, &bottom);
	sf_svg_printf(s, "</defs>\n");
	grid_and_ticks(s, &top, p->powers_of_two, 0, 0);
	grid_and_ticks(s, &bottom, p->powers_of_two, 1, !p->term_values);
	draw_top(s, p, &top, px, py, bx, by);
	draw_bottom(s, p, &bottom, px, py, bx, by);
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
	if (sf_svg_text_of(s, NULL) == NULL)
		goto nomem;
	free(px);
	free(py);
	free(bx);
	free(by);
	*out = s;
	return SF_OK;
nomem:
	sf_svg_free(s);
	free(px);
	free(py);
	free(bx);
	free(by);
	return sf_error_set(err, SF_ENOMEM, "out of memory");
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

int
sf_plot_study(const sf_scale *sc, sf_svg **out, sf_error *err)
{
	const sf_fitfile *f = sc->f;
	const sf_fitfile_input *in = &f->inputs[sc->s.var];
	const sf_sweep_answers *a = &sc->answers;
	double *x = NULL, *mx = NULL, *my = NULL, *shares = NULL;
	double *time = NULL, *lo = NULL, *hi = NULL, *pi_lo = NULL,
	       *pi_hi = NULL;
	const char **names = NULL;
	sf_sweep *w = NULL;
	sf_plot_scale p;
	char title[256], subtitle[512], fixed[256], xlabel[256];
	char fastest[160], cross[160], band[96], ylabel[160];
	size_t n, ns = 0;
	int rc;

	*out = NULL;
	memset(&p, 0, sizeof p);
	/* The curves go through whole values only when the input takes
	 * nothing else (a formula with floor(n / p) is a sawtooth between
	 * them, which no run can show), else through fractional ones. */
	if ((rc = sf_sweep_values(
	         sc->lo, sc->hi, sc->s.integer ? SF_SWEEP_WHOLE : SF_SWEEP_REAL,
	         sc->s.log, SF_PLOT_POINTS, &x, &n, err)) != SF_OK ||
	    (rc = sf_sweep_run(f, &sc->s, x, n, &w, err)) != SF_OK)
		goto done;
	rc = SF_ENOMEM;
	mx = malloc((f->nmeasured + 1) * sizeof *mx);
	my = malloc((f->nmeasured + 1) * sizeof *my);
	shares = malloc(((f->nterms + 1) * n + 1) * sizeof *shares);
	names = calloc(f->nterms + 2, sizeof *names);
	time = malloc((n + 1) * sizeof *time);
	lo = malloc((n + 1) * sizeof *lo);
	hi = malloc((n + 1) * sizeof *hi);
	pi_lo = malloc((n + 1) * sizeof *pi_lo);
	pi_hi = malloc((n + 1) * sizeof *pi_hi);
	if (mx == NULL || my == NULL || shares == NULL || names == NULL ||
	    time == NULL || lo == NULL || hi == NULL || pi_lo == NULL ||
	    pi_hi == NULL) {
		sf_error_set(err, rc, "out of memory");
		goto done;
	}
	for (size_t k = 0; k < n; k++) {
		sf_band b = sf_prediction_band(w->pred, k);

		time[k] = w->pred->points[k].time;
		lo[k] = b.lo;
		hi[k] = b.hi;
		pi_lo[k] = w->pred->points[k].pi.lo;
		pi_hi[k] = w->pred->points[k].pi.hi;
	}
	for (size_t j = 0; j < f->nterms; j++) {
		/* The shares, or the values when the time is not their sum. */
		const double *v =
		    f->terms_sum ? &w->share[j * n] : &w->pred->terms[j * n];

		if ((f->terms_sum && !f->terms[j].component) || all_zero(v, n))
			continue;
		names[ns] = f->terms[j].name;
		memcpy(&shares[ns++ * n], v, n * sizeof *shares);
	}
	if (f->terms_sum && sf_sweep_rest_matters(w)) {
		names[ns] = "rest";
		memcpy(&shares[ns++ * n], w->rest, n * sizeof *shares);
	}
	sf_scale_fixed_text(sc, fixed, sizeof fixed);
	snprintf(title, sizeof title, "%.100s: predicted %.100s",
	         f->name[0] ? f->name : "fit", f->output);
	if (w->pred->bootstrap)
		snprintf(band, sizeof band,
		         "95%% band of the mean (bootstrap, %zu)",
		         w->pred->boot_used);
	else
		snprintf(band, sizeof band, "95%% band of the mean");
	snprintf(subtitle, sizeof subtitle, "%s%s%s over %g to %g", fixed,
	         fixed[0] ? "; " : "", in->name, sc->lo, sc->hi);
	if (strcmp(in->column, in->name) != 0)
		snprintf(xlabel, sizeof xlabel, "%.100s (%.100s)", in->name,
		         in->column);
	else
		snprintf(xlabel, sizeof xlabel, "%.200s", in->name);
	snprintf(fastest, sizeof fastest, "fastest: %.64s = %.6g", in->name,
	         a->fastest);
	snprintf(cross, sizeof cross, "%s from %.64s = %.6g",
	         a->comm_first ? "compute > communication"
	                       : "communication > compute",
	         in->name, a->crossover_x);
	p.title = title;
	p.subtitle = subtitle;
	p.xlabel = xlabel;
	/* The unit's word when known: declared, or read from the name. */
	if (sc->unit_declared || sc->unit_guessed)
		snprintf(ylabel, sizeof ylabel, "%.100s (%s)", f->output,
		         sf_scale_unit_name(sc->unit));
	else
		snprintf(ylabel, sizeof ylabel, "%.100s", f->output);
	p.ylabel = ylabel;
	p.xlog = sc->s.log;
	p.ylog = sc->s.log;
	p.powers_of_two = sc->s.integer && sc->s.log;
	p.n = w->n;
	p.x = w->x;
	p.time = time;
	p.lo = lo;
	p.hi = hi;
	p.band_label = band;
	if (w->pred->interval) {
		p.pi_lo = pi_lo;
		p.pi_hi = pi_hi;
		p.pi_label = "95% interval of a new run";
	}
	p.has_fit_range = in->levels == NULL;
	p.fit_lo = in->lo;
	p.fit_hi = in->hi;
	p.nmeasured = sf_scale_measured(sc, mx, my);
	p.mx = mx;
	p.my = my;
	p.measured_label = sc->nheld > 0 ? "measured, fitted" : "measured";
	p.nheld = sc->nheld;
	p.hx = sc->held_x;
	p.hy = sc->held_y;
	p.held_label = "measured, not fitted";
	p.fastest_x = sc->s.workers ? a->fastest : NAN;
	p.fastest_time = a->fastest_time;
	p.fastest_label = fastest;
	if (isfinite(a->knee)) {
		/* Along the batch the knee is the answer to mark. */
		snprintf(fastest, sizeof fastest,
		         "knee: %.64s = %.6g (within %g%% of the highest "
		         "throughput)",
		         in->name, a->knee, 100 * SF_SWEEP_KNEE);
		p.fastest_x = a->knee;
		p.fastest_time = a->knee_time;
	}
	p.crossover_x =
	    a->crossover == SF_SWEEP_CROSS_AT ? a->crossover_x : NAN;
	p.crossover_label = cross;
	p.efficiency = sc->efficiency_panel ? w->efficiency : NULL;
	p.nshares = ns;
	p.share_names = names;
	p.shares = shares;
	if (!f->terms_sum && p.efficiency == NULL) {
		p.term_values = 1;
		p.note = SF_SCALE_NOT_SUM;
	}
	rc = sf_plot_scale_draw(&p, out, err);
done:
	sf_sweep_free(w);
	free(x);
	free(mx);
	free(my);
	free(shares);
	free(names);
	free(time);
	free(lo);
	free(hi);
	free(pi_lo);
	free(pi_hi);
	return rc;
}

/* ---- several fits on one chart ------------------------------------------ */

int
sf_plot_lines_draw(const sf_plot_lines *p, sf_svg **out, sf_error *err)
{
	double ylo = INFINITY, yhi = -INFINITY, elo = 0, ehi = 1;
	double *px = NULL, *py = NULL, *bx = NULL, *by = NULL;
	double xlo = INFINITY, xhi = -INFINITY;
	legend measure = {NULL, LEFT, 78, 1}, draw;
	sf_plot_scale fit; /* the fitted range, for draw_beyond() */
	size_t most = 0;
	panel top, bottom;
	double height;
	sf_svg *s = NULL;

	*out = NULL;
	memset(&fit, 0, sizeof fit);
	for (size_t j = 0; j < p->nlines; j++) {
		const sf_plot_line *l = &p->lines[j];

		extend(&ylo, &yhi, l->time, l->n, p->ylog);
		extend(&xlo, &xhi, l->x, l->n, p->xlog);
		most = l->n > most ? l->n : most;
	}
	if (!(ylo <= yhi) || !(xlo <= xhi))
		return sf_error_set(err, SF_EVALUE,
		                    "no finite predicted time to plot");
	for (size_t j = 0; j < p->nlines; j++) {
		const sf_plot_line *l = &p->lines[j];

		extend(&ylo, &yhi, l->my, l->nmeasured, p->ylog);
		if (p->efficiency && l->efficiency != NULL)
			extend(&elo, &ehi, l->efficiency, l->n, 0);
	}
	pad(&ylo, &yhi, p->ylog, 0.04);
	elo = 0;
	ehi = fmax(1, ehi) * 1.05;
	fit.has_fit_range = p->has_fit_range;
	fit.fit_lo = p->fit_lo;
	fit.fit_hi = p->fit_hi;
	for (size_t j = 0; j < p->nlines; j++)
		legend_entry(&measure, LINE, palette[j % PALETTE_SIZE],
		             p->lines[j].label);
	legend_entry(&measure, BAND, "#888888", "95% band of the mean");
	if (p->has_fit_range)
		legend_entry(&measure, GREY, BEYOND_COLOUR,
		             "beyond the fitted range");
	top.x0 = bottom.x0 = LEFT;
	top.x1 = bottom.x1 = WIDTH - RIGHT;
	top.y0 = measure.y + 16;
	top.y1 = top.y0 + TOP_HEIGHT;
	bottom.y0 = top.y1 + GAP;
	bottom.y1 = bottom.y0 + (p->efficiency ? BOTTOM_HEIGHT : 0);
	height = bottom.y1 + 52;
	top.clip = "top-panel";
	bottom.clip = "bottom-panel";
	top.x = (sf_axis){xlo, xhi, p->xlog, top.x0 + INSET, top.x1 - INSET};
	bottom.x = top.x;
	top.y = (sf_axis){ylo, yhi, p->ylog, top.y1, top.y0};
	bottom.y = (sf_axis){elo, ehi, 0, bottom.y1, bottom.y0};
	px = malloc((most + 1) * sizeof *px);
	py = malloc((most + 1) * sizeof *py);
	bx = malloc((2 * most + 1) * sizeof *bx);
	by = malloc((2 * most + 1) * sizeof *by);
	s = sf_svg_new(WIDTH, p->efficiency ? height : top.y1 + 52);
	if (px == NULL || py == NULL || bx == NULL || by == NULL || s == NULL)
		goto nomem;
	sf_svg_text(s, LEFT, 28, "font-size=\"16\" font-weight=\"bold\"",
	            p->title);
	if (p->subtitle != NULL && p->subtitle[0] != '\0')
		sf_svg_text(s, LEFT, 48, "fill=\"#555555\"", p->subtitle);
	draw = (legend){s, LEFT, 78, 1};
	for (size_t j = 0; j < p->nlines; j++)
		legend_entry(&draw, LINE, palette[j % PALETTE_SIZE],
		             p->lines[j].label);
	legend_entry(&draw, BAND, "#888888", "95% band of the mean");
	if (p->has_fit_range)
		legend_entry(&draw, GREY, BEYOND_COLOUR,
		             "beyond the fitted range");
	sf_svg_printf(s, "<defs>\n");
	clip_path(s, &top);
	if (p->efficiency)
		clip_path(s, &bottom);
	sf_svg_printf(s, "</defs>\n");
	grid_and_ticks(s, &top, p->powers_of_two, !p->efficiency, 0);
	if (p->efficiency)
		grid_and_ticks(s, &bottom, p->powers_of_two, 1, 1);
	sf_svg_printf(s, "<g clip-path=\"url(#%s)\">\n", top.clip);
	draw_beyond(s, &fit, &top);
	for (size_t j = 0; j < p->nlines; j++) {
		const sf_plot_line *l = &p->lines[j];
		const char *colour = palette[j % PALETTE_SIZE];
		char attrs[160];

		if (l->lo != NULL && l->hi != NULL) {
			snprintf(attrs, sizeof attrs,
			         "class=\"band\" fill=\"%s\" "
			         "fill-opacity=\"0.2\" stroke=\"none\"",
			         colour);
			draw_band(s, l->x, l->n, &top, l->lo, l->hi, attrs, bx,
			          by);
		}
	}
	for (size_t j = 0; j < p->nlines; j++) {
		const sf_plot_line *l = &p->lines[j];
		const char *colour = palette[j % PALETTE_SIZE];
		char attrs[160];

		map_all(&top.x, l->x, l->n, px);
		map_all(&top.y, l->time, l->n, py);
		snprintf(attrs, sizeof attrs,
		         "class=\"series\" stroke=\"%s\" stroke-width=\"2\" "
		         "stroke-linejoin=\"round\"",
		         colour);
		sf_svg_polyline(s, px, py, l->n, attrs);
		for (size_t k = 0; k < l->nmeasured; k++) {
			if (!isfinite(l->mx[k]) || !isfinite(l->my[k]) ||
			    (top.y.log && !(l->my[k] > 0)))
				continue;
			sf_svg_printf(s,
			              "<circle cx=\"%.2f\" cy=\"%.2f\" r=\"4\" "
			              "fill=\"%s\" stroke=\"white\"/>\n",
			              sf_axis_map(&top.x, l->mx[k]),
			              sf_axis_map(&top.y, l->my[k]), colour);
		}
	}
	draw_fit_edges(s, &fit, &top);
	sf_svg_printf(s, "</g>\n");
	if (p->efficiency) {
		double y = sf_axis_map(&bottom.y, 0.5);

		sf_svg_printf(s, "<g clip-path=\"url(#%s)\">\n", bottom.clip);
		sf_svg_printf(s,
		              "<line x1=\"%.2f\" y1=\"%.2f\" x2=\"%.2f\" "
		              "y2=\"%.2f\" stroke=\"#888888\" "
		              "stroke-dasharray=\"2 3\"/>\n",
		              bottom.x0, y, bottom.x1, y);
		for (size_t j = 0; j < p->nlines; j++) {
			const sf_plot_line *l = &p->lines[j];
			char attrs[128];

			if (l->efficiency == NULL)
				continue;
			map_all(&bottom.x, l->x, l->n, px);
			map_all(&bottom.y, l->efficiency, l->n, py);
			snprintf(attrs, sizeof attrs,
			         "stroke=\"%s\" stroke-width=\"2\" "
			         "stroke-linejoin=\"round\"",
			         palette[j % PALETTE_SIZE]);
			sf_svg_polyline(s, px, py, l->n, attrs);
		}
		sf_svg_printf(s, "</g>\n");
		frame(s, &bottom);
		y_title(s, &bottom, "parallel efficiency");
	}
	frame(s, &top);
	y_title(s, &top, p->ylabel);
	sf_svg_text(s, (top.x0 + top.x1) / 2,
	            (p->efficiency ? bottom.y1 : top.y1) + 42,
	            "text-anchor=\"middle\"", p->xlabel);
	if (sf_svg_text_of(s, NULL) == NULL)
		goto nomem;
	free(px);
	free(py);
	free(bx);
	free(by);
	*out = s;
	return SF_OK;
nomem:
	sf_svg_free(s);
	free(px);
	free(py);
	free(bx);
	free(by);
	return sf_error_set(err, SF_ENOMEM, "out of memory");
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
	char title[256], subtitle[512], fixed[256], xlabel[256], ylabel[160];
	sf_plot_lines p;
	int rc = SF_ENOMEM, efficiency = 1;

	*out = NULL;
	if (lines == NULL || w == NULL || mem == NULL) {
		sf_error_set(err, rc, "out of memory");
		goto done;
	}
	for (size_t j = 0; j < n; j++) {
		const sf_scale *c = sc[j];
		const sf_fitfile *f = c->f;
		double *x = NULL, *lo, *hi, *mx, *my;
		size_t m;

		if ((rc = sf_sweep_values(
		         c->lo, c->hi,
		         c->s.integer ? SF_SWEEP_WHOLE : SF_SWEEP_REAL,
		         c->s.log, SF_PLOT_POINTS, &x, &m, err)) != SF_OK)
			goto done;
		rc = sf_sweep_run(f, &c->s, x, m, &w[j], err);
		free(x);
		if (rc != SF_OK)
			goto done;
		rc = SF_ENOMEM;
		mem[5 * j] = lo = malloc((m + 1) * sizeof *lo);
		mem[5 * j + 1] = hi = malloc((m + 1) * sizeof *hi);
		mem[5 * j + 2] = mx = malloc((f->nmeasured + 1) * sizeof *mx);
		mem[5 * j + 3] = my = malloc((f->nmeasured + 1) * sizeof *my);
		mem[5 * j + 4] = malloc((m + 1) * sizeof *mem[0]);
		if (lo == NULL || hi == NULL || mx == NULL || my == NULL ||
		    mem[5 * j + 4] == NULL) {
			sf_error_set(err, rc, "out of memory");
			goto done;
		}
		for (size_t k = 0; k < m; k++) {
			sf_band b = sf_prediction_band(w[j]->pred, k);

			lo[k] = b.lo;
			hi[k] = b.hi;
			mem[5 * j + 4][k] = w[j]->pred->points[k].time;
		}
		lines[j].label = labels[j];
		lines[j].n = m;
		lines[j].x = w[j]->x;
		lines[j].time = mem[5 * j + 4];
		lines[j].lo = lo;
		lines[j].hi = hi;
		lines[j].efficiency = w[j]->efficiency;
		lines[j].nmeasured = sf_scale_measured(c, mx, my);
		lines[j].mx = mx;
		lines[j].my = my;
		efficiency &= c->efficiency_panel && w[j]->efficiency != NULL;
	}
	sf_scale_fixed_text(first, fixed, sizeof fixed);
	snprintf(title, sizeof title, "predicted %.100s of %zu fits",
	         first->f->output, n);
	snprintf(subtitle, sizeof subtitle, "%s%s%s over %g to %g", fixed,
	         fixed[0] ? "; " : "", in->name, first->lo, first->hi);
	if (strcmp(in->column, in->name) != 0)
		snprintf(xlabel, sizeof xlabel, "%.100s (%.100s)", in->name,
		         in->column);
	else
		snprintf(xlabel, sizeof xlabel, "%.200s", in->name);
	if (first->unit_declared || first->unit_guessed)
		snprintf(ylabel, sizeof ylabel, "%.100s (%s)", first->f->output,
		         sf_scale_unit_name(first->unit));
	else
		snprintf(ylabel, sizeof ylabel, "%.100s", first->f->output);
	memset(&p, 0, sizeof p);
	p.title = title;
	p.subtitle = subtitle;
	p.xlabel = xlabel;
	p.ylabel = ylabel;
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
