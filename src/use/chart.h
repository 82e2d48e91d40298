/*
 * chart.h - what every chart of scalefit is drawn with: the page (its
 * width, title and subtitle), legends that wrap, panels (a frame with
 * grid lines, ticks, tick labels, a clip path and an axis title), data
 * mapped to pixels as curves, bands and points, Okabe and Ito's colours,
 * and labels placed where they cover no line and no other label.
 *
 * plot.h's scaling charts and fitplot.h's chart of a fit are made of these
 * pieces, so the two look alike: the same fonts, colours, swatches, ticks
 * and margins.
 *
 * Ownership: nothing is kept; the drawing calls append to the caller's
 * document (svg.h, which remembers an allocation failure), read the
 * caller's arrays during the call only and write pixels into the caller's
 * scratch.  Thread safety: as svg.h - a document belongs to one thread.
 */
#ifndef SF_CHART_H
#define SF_CHART_H

#include "base/error.h"
#include "use/svg.h"

#include <stddef.h>

/* The page, in pixels. */
enum {
	SF_CHART_WIDTH = 720,
	SF_CHART_LEFT = 84, /* room for the y tick labels and title */
	SF_CHART_RIGHT = 24,
	SF_CHART_LEGEND_ROW = 20,
	SF_CHART_INSET = 8, /* data inset from the frame */
	SF_CHART_MAX_TICKS = 64
};

/* Okabe and Ito's palette, which stays apart for colour-blind readers and
 * in grey print; the first is a single prediction's. */
#define SF_CHART_PALETTE_SIZE 8
extern const char *const sf_chart_palette[SF_CHART_PALETTE_SIZE];
#define SF_CHART_MEASURED "#D55E00"
#define SF_CHART_FASTEST "#009E73"
#define SF_CHART_GRID "#e3e3e3"
#define SF_CHART_AXIS "#333333"
#define SF_CHART_BEYOND "#999999"

/* Average advance of a character at the legend's font size. */
#define SF_CHART_CHAR_WIDTH 7.3

/* A white outline under text drawn over data, so lines do not cross it. */
#define SF_CHART_HALO                                                          \
	"stroke=\"white\" stroke-width=\"4\" stroke-linejoin=\"round\" "       \
	"paint-order=\"stroke\""

/* The kinds of legend swatch. */
typedef enum sf_chart_swatch {
	SF_CHART_LINE,    /* a curve */
	SF_CHART_BAND,    /* a band of the mean (darker) */
	SF_CHART_DOT,     /* a measured point */
	SF_CHART_DIAMOND, /* a marked point */
	SF_CHART_DASHED,  /* a dashed line */
	SF_CHART_AREA,    /* a stacked share */
	SF_CHART_WIDE,    /* a new run's interval (light) */
	SF_CHART_RING,    /* a point not fitted */
	SF_CHART_GREY     /* the range beyond the fit's */
} sf_chart_swatch;

/* A legend being laid out: entries go left to right from (x, y) and wrap
 * to a new row at the right margin. */
typedef struct sf_chart_legend {
	sf_svg *svg; /* NULL: only measure */
	double x, y;
	int rows;
} sf_chart_legend;

/* One legend entry (its swatch in colour, then text, escaped); wraps to a
 * new row when the line is full. */
void sf_chart_legend_entry(sf_chart_legend *l, sf_chart_swatch kind,
                           const char *colour, const char *text);

/* A diamond of radius r at (x, y), filled. */
void sf_chart_diamond(sf_svg *s, double x, double y, double r,
                      const char *fill);

/* Widen [*lo, *hi] to the n values of v (v may be NULL) that are finite
 * and, for a log axis, positive. */
void sf_chart_extend(double *lo, double *hi, const double *v, size_t n,
                     int log);

/* Widen [lo, hi] by a fraction on each side (in log space for log); an
 * empty range gets a width. */
void sf_chart_pad(double *lo, double *hi, int log, double fraction);

/* A panel: its frame in pixels, its axes, the id of its clip path. */
typedef struct sf_chart_panel {
	double x0, y0, x1, y1; /* frame */
	sf_axis x, y;
	const char *clip; /* id of its clip path */
} sf_chart_panel;

/* The panel's grid lines, ticks and tick labels (the x axis's labels
 * when x_labels; the y axis's as percentages when percent). */
void sf_chart_grid(sf_svg *s, const sf_chart_panel *pn, int powers_of_two,
                   int x_labels, int percent);

/* The panel's frame. */
void sf_chart_frame(sf_svg *s, const sf_chart_panel *pn);

/* The panel's clip path (inside a <defs>). */
void sf_chart_clip_path(sf_svg *s, const sf_chart_panel *pn);

/* A vertical axis title, centred on the panel, at x = 20. */
void sf_chart_y_title(sf_svg *s, const sf_chart_panel *pn, const char *text);

/* Map n values through an axis into out (NaN, and for a log axis values
 * <= 0, become NaN). */
void sf_chart_map_all(const sf_axis *a, const double *v, size_t n, double *out);

/* The work arrays of a drawing: a curve's points mapped to pixels (px,
 * py) and a band's outline, twice as long (bx, by).  Allocated once per
 * chart, so no curve allocates. */
typedef struct sf_chart_scratch {
	double *px, *py, *bx, *by;
} sf_chart_scratch;

/* Room for curves of up to n points in *w (zeroed by the caller): 1, or 0
 * when out of memory (free with sf_chart_scratch_free() either way). */
int sf_chart_scratch_alloc(sf_chart_scratch *w, size_t n);
void sf_chart_scratch_free(sf_chart_scratch *w);

/* A band between lo[k] and hi[k] over x[k], k < n (points where either
 * is not finite skipped), with the given attributes; bx and by hold 2n
 * points. */
void sf_chart_band(sf_svg *s, const double *x, size_t n,
                   const sf_chart_panel *pn, const double *lo, const double *hi,
                   const char *attrs, double *bx, double *by);

/* The curve (x[k], y[k]), k < n, in colour; prefix is "" or the
 * attributes that go first ("class=\"series\" "). */
void sf_chart_curve(sf_svg *s, const sf_chart_panel *pn, const double *x,
                    const double *y, size_t n, const char *colour,
                    const char *prefix, sf_chart_scratch *w);

/* Measured points (x[k], y[k]), k < n, that the axes can show: dots in
 * colour, or rings when held (measured, not fitted). */
void sf_chart_points(sf_svg *s, const sf_chart_panel *pn, const double *x,
                     const double *y, size_t n, const char *colour, int held);

/* A new document of the chart's width and the given height with the title
 * and subtitle (may be NULL or "") drawn; NULL when out of memory. */
sf_svg *sf_chart_new(double height, const char *title, const char *subtitle);

/* Hand the drawn document s to *out; or, when a drawing call ran out of
 * memory (the document remembers), free it and say so (SF_ENOMEM). */
int sf_chart_finish(sf_svg *s, sf_svg **out, sf_error *err);

#endif /* SF_CHART_H */
