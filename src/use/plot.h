/*
 * plot.h - the scaling chart of `scalefit scale --plot`: two panels
 * sharing the swept variable's axis.
 *
 *   top      the predicted time as a line with its confidence band shaded,
 *            the measured times as dots, the fastest point and the
 *            crossover of communication over compute marked;
 *   bottom   the parallel efficiency with its 50% line (worker sweeps), or
 *            else each term's share of the time, stacked.
 *
 * A legend sits between the title and the panels, where it cannot hide
 * data.  Colours are Okabe and Ito's, which stay apart for colour-blind
 * readers and in grey print.
 *
 * Ownership: the chart reads the caller's arrays during the call only.
 */
#ifndef SF_PLOT_H
#define SF_PLOT_H

#include "base/error.h"
#include "use/svg.h"

#include <stddef.h>

/* What the chart shows. */
typedef struct sf_plot_scale {
	const char *title;    /* first line above the chart */
	const char *subtitle; /* second line (what is held fixed), may be "" */
	const char *xlabel, *ylabel;
	int xlog, ylog;    /* logarithmic axes */
	int powers_of_two; /* label the x axis 1, 2, 4, ... */
	size_t n;          /* points of the curve */
	const double *x, *time;
	const double *lo, *hi; /* the band (entries may be NaN); may be NULL */
	const char *band_label;
	size_t nmeasured; /* measured points to show */
	const double *mx, *my;
	const char *measured_label;
	double fastest_x, fastest_time; /* NaN: not marked */
	const char *fastest_label;
	double crossover_x; /* NaN: not marked */
	const char *crossover_label;
	/* bottom panel: the efficiency (n values), or when NULL the shares */
	const double *efficiency;
	size_t nshares; /* stacked series */
	const char *const *share_names;
	const double *shares; /* nshares x n, series-major, fractions */
} sf_plot_scale;

/* Draw the chart into a new document *out (free with sf_svg_free()).
 * Returns SF_OK or SF_ENOMEM / SF_EVALUE (no finite point to draw). */
int sf_plot_scale_draw(const sf_plot_scale *p, sf_svg **out, sf_error *err);

#endif /* SF_PLOT_H */
