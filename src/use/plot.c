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
#include "use/chart.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { TOP_HEIGHT = 300, BOTTOM_HEIGHT = 150, GAP = 18 };

/* 1 when the x axis from lo to hi reaches beyond the fitted range (known:
 * there is one) - only then is there a grey region to name. */
static int
reaches_beyond(int known, double fit_lo, double fit_hi, double lo, double hi)
{
	return known && isfinite(fit_lo) && isfinite(fit_hi) &&
	       (lo < fit_lo || hi > fit_hi);
}

static void
draw_legend(const sf_plot_scale *p, sf_chart_legend *l)
{
	sf_chart_legend_entry(l, SF_CHART_LINE, sf_chart_palette[0],
	                      "prediction");
	if (p->pi_lo != NULL && p->pi_label != NULL)
		sf_chart_legend_entry(l, SF_CHART_WIDE, sf_chart_palette[0],
		                      p->pi_label);
	if (p->lo != NULL && p->band_label != NULL)
		sf_chart_legend_entry(l, SF_CHART_BAND, sf_chart_palette[0],
		                      p->band_label);
	if (p->n > 0 && reaches_beyond(p->has_fit_range, p->fit_lo, p->fit_hi,
	                               p->x[0], p->x[p->n - 1]))
		sf_chart_legend_entry(l, SF_CHART_GREY, SF_CHART_BEYOND,
		                      "beyond the fitted range");
	if (p->nmeasured > 0)
		sf_chart_legend_entry(l, SF_CHART_DOT, SF_CHART_MEASURED,
		                      p->measured_label);
	if (p->nheld > 0 && p->held_label != NULL)
		sf_chart_legend_entry(l, SF_CHART_RING, SF_CHART_MEASURED,
		                      p->held_label);
	if (isfinite(p->fastest_x) && p->fastest_label != NULL)
		sf_chart_legend_entry(l, SF_CHART_DIAMOND, SF_CHART_FASTEST,
		                      p->fastest_label);
	if (isfinite(p->crossover_x) && p->crossover_label != NULL)
		sf_chart_legend_entry(l, SF_CHART_DASHED, SF_CHART_AXIS,
		                      p->crossover_label);
}

/* The stacked shares' legend, under the x axis. */
static void
draw_share_legend(const sf_plot_scale *p, sf_chart_legend *l)
{
	if (p->efficiency != NULL)
		return;
	for (size_t k = 0; k < p->nshares; k++)
		sf_chart_legend_entry(
		    l, p->term_values ? SF_CHART_LINE : SF_CHART_AREA,
		    sf_chart_palette[k % SF_CHART_PALETTE_SIZE],
		    p->share_names[k]);
}

/* What a chart knows of the fitted range of x: beyond it the chart greys
 * the axis, and marks its ends. */
typedef struct fit_range {
	int known; /* 0: nothing to grey or mark */
	double lo, hi;
} fit_range;

/* Grey the parts of the x axis beyond the fitted range. */
static void
draw_beyond(sf_svg *s, const fit_range *fit, const sf_chart_panel *pn)
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
		              x0, top, fmin(a, x1) - x0, height,
		              SF_CHART_BEYOND);
	if (b < x1)
		sf_svg_printf(s,
		              "<rect class=\"beyond\" x=\"%.2f\" y=\"%.2f\" "
		              "width=\"%.2f\" height=\"%.2f\" fill=\"%s\" "
		              "fill-opacity=\"0.15\"/>\n",
		              fmax(b, x0), top, x1 - fmax(b, x0), height,
		              SF_CHART_BEYOND);
}

/* The label "fitted range" over the span from pixel a to b, centred, or
 * beside the crossover's line when that would cross it (x: the line's
 * value, NaN when none): on the side with more room. */
static void
draw_fit_label(sf_svg *s, const sf_chart_panel *pn, double a, double b,
               double top, double x)
{
	static const char text[] = "fitted range";
	const double half = (sizeof text - 1) * SF_CHART_CHAR_WIDTH / 2 + 4;
	double at = (a + b) / 2, line;

	if (isfinite(x) && fabs((line = sf_axis_map(&pn->x, x)) - at) < half) {
		int left = line - a >= b - line;

		sf_svg_text(s, left ? line - 6 : line + 6, top + 15,
		            left ? "class=\"fit-label\" text-anchor=\"end\" "
		                   "fill=\"#555555\" " SF_CHART_HALO
		                 : "class=\"fit-label\" text-anchor=\"start\" "
		                   "fill=\"#555555\" " SF_CHART_HALO,
		            text);
		return;
	}
	sf_svg_text(s, at, top + 15,
	            "class=\"fit-label\" text-anchor=\"middle\" "
	            "fill=\"#555555\" " SF_CHART_HALO,
	            text);
}

/* Mark the ends of the fitted range that lie inside the axis, and label
 * the span between them "fitted range" (top panel only), off the
 * crossover's line at x (NaN: none). */
static void
draw_fit_edges(sf_svg *s, const fit_range *fit, const sf_chart_panel *pn,
               double x)
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
		              a, top, a, bottom, SF_CHART_BEYOND);
	if (b < x1)
		sf_svg_printf(s,
		              "<line class=\"fit-edge\" x1=\"%.2f\" "
		              "y1=\"%.2f\" x2=\"%.2f\" y2=\"%.2f\" "
		              "stroke=\"%s\" stroke-width=\"1.5\"/>\n",
		              b, top, b, bottom, SF_CHART_BEYOND);
	if (b > a)
		draw_fit_label(s, pn, a, b, top, x);
}

/* The dashed vertical line at the crossover x, when there is one. */
static void
draw_crossover(sf_svg *s, const sf_chart_panel *pn, double x)
{
	if (!isfinite(x))
		return;
	sf_svg_line(s, sf_axis_map(&pn->x, x), pn->y0, sf_axis_map(&pn->x, x),
	            pn->y1, SF_CHART_AXIS,
	            "stroke-width=\"1.5\" stroke-dasharray=\"5 3\"");
}

/* The dotted line of 50% parallel efficiency across the panel. */
static void
draw_half(sf_svg *s, const sf_chart_panel *pn)
{
	double y = sf_axis_map(&pn->y, 0.5);

	sf_svg_line(s, pn->x0, y, pn->x1, y, "#888888",
	            "stroke-dasharray=\"2 3\"");
}

static void
draw_top(sf_svg *s, const sf_plot_scale *p, const sf_chart_panel *pn,
         sf_chart_scratch *w)
{
	const fit_range fit = {p->has_fit_range, p->fit_lo, p->fit_hi};
	size_t n = p->n;

	sf_svg_printf(s, "<g clip-path=\"url(#%s)\">\n", pn->clip);
	draw_beyond(s, &fit, pn);
	if (p->pi_lo != NULL && p->pi_hi != NULL)
		sf_chart_band(s, p->x, n, pn, p->pi_lo, p->pi_hi,
		              "class=\"interval\" fill=\"#0072B2\" "
		              "fill-opacity=\"0.12\" stroke=\"none\"",
		              w->bx, w->by);
	if (p->lo != NULL && p->hi != NULL)
		sf_chart_band(s, p->x, n, pn, p->lo, p->hi,
		              "class=\"band\" fill=\"#0072B2\" "
		              "fill-opacity=\"0.3\" stroke=\"none\"",
		              w->bx, w->by);
	sf_chart_curve(s, pn, p->x, p->time, n, sf_chart_palette[0], "", w);
	draw_fit_edges(s, &fit, pn, p->crossover_x);
	draw_crossover(s, pn, p->crossover_x);
	/* The measurements last, on top of what the model says. */
	if (isfinite(p->fastest_x) && isfinite(p->fastest_time))
		sf_chart_diamond(s, sf_axis_map(&pn->x, p->fastest_x),
		                 sf_axis_map(&pn->y, p->fastest_time), 6,
		                 SF_CHART_FASTEST);
	sf_chart_points(s, pn, p->mx, p->my, p->nmeasured, SF_CHART_MEASURED,
	                0);
	sf_chart_points(s, pn, p->hx, p->hy, p->nheld, SF_CHART_MEASURED, 1);
	sf_svg_printf(s, "</g>\n");
}

/* The shares stacked: each series an area between the running sums. */
static void
draw_stacked(sf_svg *s, const sf_plot_scale *p, const sf_chart_panel *pn,
             sf_chart_scratch *w)
{
	size_t n = p->n;
	double *below = calloc(n + 1, sizeof *below);

	sf_chart_map_all(&pn->x, p->x, n, w->px);
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
		         sf_chart_palette[j % SF_CHART_PALETTE_SIZE]);
		sf_svg_polygon(s, w->bx, w->by, m, attrs);
	}
	free(below);
}

static void
draw_bottom(sf_svg *s, const sf_plot_scale *p, const sf_chart_panel *pn,
            sf_chart_scratch *w)
{
	size_t n = p->n;

	sf_svg_printf(s, "<g clip-path=\"url(#%s)\">\n", pn->clip);
	if (p->efficiency != NULL) {
		draw_half(s, pn);
		sf_chart_curve(s, pn, p->x, p->efficiency, n,
		               sf_chart_palette[0], "", w);
	} else if (p->term_values) {
		/* Each term's value, a line each. */
		for (size_t j = 0; j < p->nshares; j++)
			sf_chart_curve(
			    s, pn, p->x, &p->shares[j * n], n,
			    sf_chart_palette[j % SF_CHART_PALETTE_SIZE], "", w);
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
	sf_chart_extend(&r->ylo, &r->yhi, p->time, p->n, ylog);
	if (!(r->ylo <= r->yhi) || p->n == 0)
		return 0;
	sf_chart_extend(&r->ylo, &r->yhi, p->my, p->nmeasured, ylog);
	sf_chart_extend(&r->ylo, &r->yhi, p->hy, p->nheld, ylog);
	/* The bands widen the axis, but by at most a factor of 4 (log) or
	 * the curve's span (linear): a band exploding where the fit knows
	 * nothing must not squash the curve into a line. */
	sf_chart_extend(&blo, &bhi, p->lo, p->n, ylog);
	sf_chart_extend(&blo, &bhi, p->hi, p->n, ylog);
	if (p->pi_lo != NULL && p->pi_hi != NULL) {
		sf_chart_extend(&blo, &bhi, p->pi_lo, p->n, ylog);
		sf_chart_extend(&blo, &bhi, p->pi_hi, p->n, ylog);
	}
	if (blo <= bhi) {
		double span = fmax(r->yhi - r->ylo, 0.1 * fabs(r->yhi));

		r->ylo =
		    fmax(fmin(r->ylo, blo), ylog ? r->ylo / 4 : r->ylo - span);
		r->yhi =
		    fmin(fmax(r->yhi, bhi), ylog ? r->yhi * 4 : r->yhi + span);
	}
	sf_chart_pad(&r->ylo, &r->yhi, ylog, 0.04);
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
		sf_chart_extend(&r->elo, &r->ehi, p->efficiency, p->n, 0);
		r->elo = 0;
		r->ehi = fmax(1, r->ehi) * 1.05;
	} else if (p->term_values) {
		/* The terms' own scale: log when they are positive and
		 * span two decades or more (a step count and a step time). */
		double vlo = INFINITY, vhi = -INFINITY;

		sf_chart_extend(&vlo, &vhi, p->shares, p->nshares * p->n, 0);
		if (!(vlo <= vhi))
			vlo = 0, vhi = 1;
		r->elog = vlo > 0 && vhi >= 100 * vlo;
		r->elo = r->elog ? vlo : fmin(0, vlo);
		r->ehi = vhi;
		sf_chart_pad(&r->elo, &r->ehi, r->elog, 0.04);
	}
}

/* The two panels, one above the other under a legend whose last row is
 * at legend_y (the bottom one bottom_height high), with r's axes. */
static void
place_panels(sf_chart_panel *top, sf_chart_panel *bottom, const ranges *r,
             double legend_y, double bottom_height)
{
	top->x0 = bottom->x0 = SF_CHART_LEFT;
	top->x1 = bottom->x1 = SF_CHART_WIDTH - SF_CHART_RIGHT;
	top->y0 = legend_y + 16;
	top->y1 = top->y0 + TOP_HEIGHT;
	bottom->y0 = top->y1 + GAP;
	bottom->y1 = bottom->y0 + bottom_height;
	top->clip = "top-panel";
	bottom->clip = "bottom-panel";
	top->x = (sf_axis){r->xlo, r->xhi, r->xlog, top->x0 + SF_CHART_INSET,
	                   top->x1 - SF_CHART_INSET};
	bottom->x = top->x;
	top->y = (sf_axis){r->ylo, r->yhi, r->ylog, top->y1, top->y0};
	bottom->y = (sf_axis){r->elo, r->ehi, r->elog, bottom->y1, bottom->y0};
}

/* The clip paths of the top panel and, unless NULL, the bottom one. */
static void
clip_paths(sf_svg *s, const sf_chart_panel *top, const sf_chart_panel *bottom)
{
	sf_svg_printf(s, "<defs>\n");
	sf_chart_clip_path(s, top);
	if (bottom != NULL)
		sf_chart_clip_path(s, bottom);
	sf_svg_printf(s, "</defs>\n");
}

int
sf_plot_scale_draw(const sf_plot_scale *p, sf_svg **out, sf_error *err)
{
	sf_chart_legend measure = {NULL, SF_CHART_LEFT, 78, 1},
	                below = {NULL, SF_CHART_LEFT, 0, 0}, draw;
	sf_chart_scratch w = {0};
	sf_chart_panel top, bottom;
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
	if (!sf_chart_scratch_alloc(&w, p->n) ||
	    (s = sf_chart_new(height, p->title, p->subtitle)) == NULL) {
		sf_chart_scratch_free(&w);
		return sf_error_set(err, SF_ENOMEM, "out of memory");
	}
	draw = (sf_chart_legend){s, SF_CHART_LEFT, 78, 1};
	draw_legend(p, &draw);
	draw = (sf_chart_legend){s, SF_CHART_LEFT, bottom.y1 + 72, 0};
	draw_share_legend(p, &draw);
	clip_paths(s, &top, &bottom);
	sf_chart_grid(s, &top, p->powers_of_two, 0, 0);
	sf_chart_grid(s, &bottom, p->powers_of_two, 1, !p->term_values);
	draw_top(s, p, &top, &w);
	draw_bottom(s, p, &bottom, &w);
	sf_chart_scratch_free(&w);
	sf_chart_frame(s, &top);
	sf_chart_frame(s, &bottom);
	sf_chart_y_title(s, &top, p->ylabel);
	sf_chart_y_title(s, &bottom,
	                 p->efficiency != NULL ? "parallel efficiency"
	                 : p->term_values      ? "value of each term"
	                                       : "share of time");
	if (p->note != NULL)
		sf_svg_text(s, bottom.x1 - 8, bottom.y0 + 16,
		            "class=\"note\" text-anchor=\"end\" "
		            "fill=\"#555555\" " SF_CHART_HALO,
		            p->note);
	sf_svg_text(s, (top.x0 + top.x1) / 2, bottom.y1 + 42,
	            "text-anchor=\"middle\"", p->xlabel);
	return sf_chart_finish(s, out, err);
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

/* Widen the time axis to the new-run intervals of the lines, by at most a
 * factor of 4 (log) or the curves' span (linear), as one study's chart
 * does: an interval exploding beyond the fitted range must not squash the
 * curves into lines.  The bands of the mean stay inside, as they always
 * did. */
static void
lines_bands_range(const sf_plot_lines *p, ranges *r)
{
	double blo = INFINITY, bhi = -INFINITY, span;

	for (size_t j = 0; j < p->nlines; j++) {
		const sf_plot_line *l = &p->lines[j];

		if (l->pi_lo == NULL || l->pi_hi == NULL)
			continue;
		sf_chart_extend(&blo, &bhi, l->pi_lo, l->n, p->ylog);
		sf_chart_extend(&blo, &bhi, l->pi_hi, l->n, p->ylog);
	}
	if (!(blo <= bhi))
		return;
	span = fmax(r->yhi - r->ylo, 0.1 * fabs(r->yhi));
	r->ylo = fmax(fmin(r->ylo, blo), p->ylog ? r->ylo / 4 : r->ylo - span);
	r->yhi = fmin(fmax(r->yhi, bhi), p->ylog ? r->yhi * 4 : r->yhi + span);
}

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

		sf_chart_extend(&r->ylo, &r->yhi, l->time, l->n, p->ylog);
		sf_chart_extend(&r->xlo, &r->xhi, l->x, l->n, p->xlog);
		*most = l->n > *most ? l->n : *most;
	}
	if (!(r->ylo <= r->yhi) || !(r->xlo <= r->xhi))
		return 0;
	for (size_t j = 0; j < p->nlines; j++) {
		const sf_plot_line *l = &p->lines[j];

		sf_chart_extend(&r->ylo, &r->yhi, l->my, l->nmeasured, p->ylog);
		sf_chart_extend(&r->ylo, &r->yhi, l->hy, l->nheld, p->ylog);
		if (p->efficiency && l->efficiency != NULL)
			sf_chart_extend(&r->elo, &r->ehi, l->efficiency, l->n,
			                0);
	}
	lines_bands_range(p, r);
	sf_chart_pad(&r->ylo, &r->yhi, p->ylog, 0.04);
	r->elo = 0;
	r->ehi = fmax(1, r->ehi) * 1.05;
	return 1;
}

/* The legend of a chart of several lines: one entry a line, the band, and
 * the greyed range beyond the fit's. */
static void
lines_legend(const sf_plot_lines *p, sf_chart_legend *l)
{
	int interval = 0, held = 0, fitted = 0, beyond = 0;

	for (size_t j = 0; j < p->nlines; j++) {
		const sf_plot_line *line = &p->lines[j];

		sf_chart_legend_entry(
		    l, SF_CHART_LINE,
		    sf_chart_palette[j % SF_CHART_PALETTE_SIZE], line->label);
		interval |= line->pi_lo != NULL;
		held |= line->nheld > 0;
		fitted |= line->nmeasured > 0;
		beyond |= line->n > 0 &&
		          reaches_beyond(p->has_fit_range, p->fit_lo, p->fit_hi,
		                         line->x[0], line->x[line->n - 1]);
	}
	if (interval)
		sf_chart_legend_entry(l, SF_CHART_WIDE, "#888888",
		                      "95% interval of a new run");
	sf_chart_legend_entry(l, SF_CHART_BAND, "#888888",
	                      "95% band of the mean");
	if (beyond)
		sf_chart_legend_entry(l, SF_CHART_GREY, SF_CHART_BEYOND,
		                      "beyond the fitted range");
	/* The kinds of point only when both are drawn: alone, a dot on its
	 * line's curve needs no name. */
	if (held && fitted)
		sf_chart_legend_entry(l, SF_CHART_DOT, "#888888",
		                      "measured, fitted");
	if (held)
		sf_chart_legend_entry(l, SF_CHART_RING, "#888888",
		                      "measured, not fitted");
}

/* The top panel of several lines: every band first, then every curve
 * with its measured points, each line in its colour. */
static void
draw_lines_top(sf_svg *s, const sf_plot_lines *p, const sf_chart_panel *pn,
               sf_chart_scratch *w)
{
	const fit_range fit = {p->has_fit_range, p->fit_lo, p->fit_hi};

	sf_svg_printf(s, "<g clip-path=\"url(#%s)\">\n", pn->clip);
	draw_beyond(s, &fit, pn);
	for (size_t j = 0; j < p->nlines; j++) {
		const sf_plot_line *l = &p->lines[j];
		const char *colour =
		    sf_chart_palette[j % SF_CHART_PALETTE_SIZE];
		char attrs[160];

		if (l->pi_lo != NULL && l->pi_hi != NULL) {
			snprintf(attrs, sizeof attrs,
			         "class=\"interval\" fill=\"%s\" "
			         "fill-opacity=\"0.08\" stroke=\"none\"",
			         colour);
			sf_chart_band(s, l->x, l->n, pn, l->pi_lo, l->pi_hi,
			              attrs, w->bx, w->by);
		}
		if (l->lo == NULL || l->hi == NULL)
			continue;
		snprintf(attrs, sizeof attrs,
		         "class=\"band\" fill=\"%s\" "
		         "fill-opacity=\"0.2\" stroke=\"none\"",
		         colour);
		sf_chart_band(s, l->x, l->n, pn, l->lo, l->hi, attrs, w->bx,
		              w->by);
	}
	for (size_t j = 0; j < p->nlines; j++) {
		const sf_plot_line *l = &p->lines[j];
		const char *colour =
		    sf_chart_palette[j % SF_CHART_PALETTE_SIZE];

		sf_chart_curve(s, pn, l->x, l->time, l->n, colour,
		               "class=\"series\" ", w);
		sf_chart_points(s, pn, l->mx, l->my, l->nmeasured, colour, 0);
		sf_chart_points(s, pn, l->hx, l->hy, l->nheld, colour, 1);
	}
	draw_fit_edges(s, &fit, pn, NAN);
	sf_svg_printf(s, "</g>\n");
}

/* The bottom panel of several lines: each one's efficiency and the 50%
 * line, framed and titled. */
static void
draw_lines_efficiency(sf_svg *s, const sf_plot_lines *p,
                      const sf_chart_panel *pn, sf_chart_scratch *w)
{
	sf_svg_printf(s, "<g clip-path=\"url(#%s)\">\n", pn->clip);
	draw_half(s, pn);
	for (size_t j = 0; j < p->nlines; j++) {
		const sf_plot_line *l = &p->lines[j];

		if (l->efficiency != NULL)
			sf_chart_curve(
			    s, pn, l->x, l->efficiency, l->n,
			    sf_chart_palette[j % SF_CHART_PALETTE_SIZE], "", w);
	}
	sf_svg_printf(s, "</g>\n");
	sf_chart_frame(s, pn);
	sf_chart_y_title(s, pn, "parallel efficiency");
}

int
sf_plot_lines_draw(const sf_plot_lines *p, sf_svg **out, sf_error *err)
{
	sf_chart_legend measure = {NULL, SF_CHART_LEFT, 78, 1}, draw;
	sf_chart_scratch w = {0};
	sf_chart_panel top, bottom;
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
	if (!sf_chart_scratch_alloc(&w, most) ||
	    (s = sf_chart_new((p->efficiency ? bottom.y1 : top.y1) + 52,
	                      p->title, p->subtitle)) == NULL) {
		sf_chart_scratch_free(&w);
		return sf_error_set(err, SF_ENOMEM, "out of memory");
	}
	draw = (sf_chart_legend){s, SF_CHART_LEFT, 78, 1};
	lines_legend(p, &draw);
	clip_paths(s, &top, p->efficiency ? &bottom : NULL);
	sf_chart_grid(s, &top, p->powers_of_two, !p->efficiency, 0);
	if (p->efficiency)
		sf_chart_grid(s, &bottom, p->powers_of_two, 1, 1);
	draw_lines_top(s, p, &top, &w);
	if (p->efficiency)
		draw_lines_efficiency(s, p, &bottom, &w);
	sf_chart_scratch_free(&w);
	sf_chart_frame(s, &top);
	sf_chart_y_title(s, &top, p->ylabel);
	sf_svg_text(s, (top.x0 + top.x1) / 2,
	            (p->efficiency ? bottom.y1 : top.y1) + 42,
	            "text-anchor=\"middle\"", p->xlabel);
	return sf_chart_finish(s, out, err);
}

/* The arrays of a line of a chart of several. */
enum { LINE_ARRAYS = 7 };

/* One study's line on a chart of several: its sweep into *w, its curve,
 * band, new-run interval and measured points into the LINE_ARRAYS arrays
 * mem[] (freed by the caller), all described in *line with the points it
 * did not fit. */
static int
study_line(const sf_scale *c, const char *label, sf_sweep **w,
           sf_plot_line *line, double **mem, sf_error *err)
{
	const sf_fitfile *f = c->f;
	double *time, *lo, *hi, *pi_lo, *pi_hi, *mx, *my;
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
	mem[5] = pi_lo = malloc((m + 1) * sizeof *pi_lo);
	mem[6] = pi_hi = malloc((m + 1) * sizeof *pi_hi);
	if (lo == NULL || hi == NULL || mx == NULL || my == NULL ||
	    time == NULL || pi_lo == NULL || pi_hi == NULL)
		return sf_error_set(err, SF_ENOMEM, "out of memory");
	for (size_t k = 0; k < m; k++) {
		sf_band b = sf_prediction_band((*w)->pred, k);

		lo[k] = b.lo;
		hi[k] = b.hi;
		time[k] = (*w)->pred->points[k].time;
		pi_lo[k] = (*w)->pred->points[k].pi.lo;
		pi_hi[k] = (*w)->pred->points[k].pi.hi;
	}
	line->label = label;
	line->n = m;
	line->x = (*w)->x;
	line->time = time;
	line->lo = lo;
	line->hi = hi;
	if ((*w)->pred->interval) {
		line->pi_lo = pi_lo;
		line->pi_hi = pi_hi;
	}
	line->efficiency = (*w)->efficiency;
	line->nmeasured = sf_scale_measured(c, mx, my);
	line->mx = mx;
	line->my = my;
	line->nheld = c->nheld;
	line->hx = c->held_x;
	line->hy = c->held_y;
	return SF_OK;
}

int
sf_plot_studies(const sf_scale *const *sc, const char *const *labels, size_t n,
                sf_svg **out, sf_error *err)
{
	sf_plot_line *lines = calloc(n + 1, sizeof *lines);
	sf_sweep **w = calloc(n + 1, sizeof *w);
	double **mem = calloc(LINE_ARRAYS * n + 1, sizeof *mem);
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
		rc = study_line(sc[j], labels[j], &w[j], &lines[j],
		                &mem[LINE_ARRAYS * j], err);
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
	for (size_t j = 0; mem != NULL && j < LINE_ARRAYS * n; j++)
		free(mem[j]);
	free(mem);
	free(w);
	free(lines);
	return rc;
}
