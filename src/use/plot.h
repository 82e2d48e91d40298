/*
 * plot.h - the scaling chart of `scalefit scale --plot`: two panels
 * sharing the swept variable's axis.
 *
 *   top      the predicted time as a line with the 95% interval of a new
 *            run shaded light and the confidence band of its mean darker,
 *            the region beyond the fitted range greyed, the measured
 *            times as dots (fitted: filled; not fitted: rings), the
 *            fastest point and the crossover of communication over
 *            compute marked;
 *   bottom   the parallel efficiency with its 50% line (worker sweeps), or
 *            else each term's share of the time, stacked (or, when the
 *            time is not the sum of its terms, each term's value as a
 *            line, with a note saying why).
 *
 * A legend sits between the title and the panels, where it cannot hide
 * data.  Colours are Okabe and Ito's, which stay apart for colour-blind
 * readers and in grey print.
 *
 * sf_plot_study() describes the chart of a scaling study (scale.h) and
 * draws it: what `scalefit scale --plot` writes.
 *
 * Ownership: the chart reads the caller's arrays during the call only.
 */
#ifndef SF_PLOT_H
#define SF_PLOT_H

#include "base/error.h"
#include "use/scale.h"
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
	const double *pi_lo, *pi_hi; /* a new run's interval; may be NULL */
	const char *pi_label;
	int has_fit_range;     /* 1: grey x beyond [fit_lo, fit_hi] */
	double fit_lo, fit_hi; /* the fitted range of x */
	size_t nmeasured;      /* measured points to show */
	const double *mx, *my;
	const char *measured_label;
	size_t nheld; /* measured points that were not fitted */
	const double *hx, *hy;
	const char *held_label;
	double fastest_x, fastest_time; /* NaN: not marked */
	const char *fastest_label;
	double crossover_x; /* NaN: not marked */
	const char *crossover_label;
	/* bottom panel: the efficiency (n values), or when NULL the shares */
	const double *efficiency;
	size_t nshares; /* stacked series */
	const char *const *share_names;
	const double *shares; /* nshares x n, series-major, fractions */
	/* 1: the series are the terms' values, not shares (the time is not
	 * their sum): drawn as lines, with note said in the panel */
	int term_values;
	const char *note;
} sf_plot_scale;

/* Draw the chart into a new document *out (free with sf_svg_free()).
 * Returns SF_OK or SF_ENOMEM / SF_EVALUE (no finite point to draw). */
int sf_plot_scale_draw(const sf_plot_scale *p, sf_svg **out, sf_error *err);

/* Points of a study's curves. */
#define SF_PLOT_POINTS 400

/*
 * Draw the chart of study sc, which has run, into a new document *out
 * (free with sf_svg_free()):
 *   - the curves through SF_PLOT_POINTS points spaced as the study is,
 *     whole values only when the study's input takes only those (a
 *     worker count, sf_scale_whole_input()), with the band of
 *     sf_prediction_band();
 *   - the model and output as title, the inputs held fixed and the range
 *     as subtitle, the swept input (and its column) as x label;
 *   - the measured points of sf_scale_measured();
 *   - the fastest point (worker sweeps only: along another input the least
 *     time is merely an end of the range), or the knee of a batch sweep,
 *     and the crossover from sc's answers;
 *   - below, the efficiency when sc->efficiency_panel, else the shares of
 *     the terms that take time somewhere, and the rest when it matters;
 *     when the time is not the sum of its terms, their values instead,
 *     with SF_SCALE_NOT_SUM as a note.
 * Returns SF_OK, or an error of sf_sweep_run(), SF_ENOMEM or SF_EVALUE (no
 * finite time to draw).
 */
int sf_plot_study(const sf_scale *sc, sf_svg **out, sf_error *err);

/* ---- several fits on one chart ---------------------------------------- */

/* One fit's series: its curve, its band, a new run's interval, its
 * efficiency, its measured points (fitted, and not fitted). */
typedef struct sf_plot_line {
	const char *label; /* in the legend */
	size_t n;
	const double *x, *time;
	const double *lo, *hi;       /* the band of the mean; may be NULL */
	const double *pi_lo, *pi_hi; /* a new run's interval; may be NULL */
	const double *efficiency;    /* n values; may be NULL */
	size_t nmeasured;
	const double *mx, *my;
	size_t nheld; /* measured points that were not fitted: rings */
	const double *hx, *hy;
} sf_plot_line;

/* A chart of several series: the time of each on top, in its colour with
 * its band, a new run's interval (lighter) and measured points (dots,
 * rings when not fitted), named in the legend; below, when efficiency,
 * each one's parallel efficiency with the 50% line. */
typedef struct sf_plot_lines {
	const char *title, *subtitle, *xlabel, *ylabel;
	int xlog, ylog, powers_of_two;
	size_t nlines;
	const sf_plot_line *lines;
	int efficiency;
	int has_fit_range;     /* 1: every fit had [fit_lo, fit_hi]: mark */
	double fit_lo, fit_hi; /*   it and grey beyond, as one study's chart */
} sf_plot_lines;

/* Draw it into a new document *out (free with sf_svg_free()).  Returns
 * SF_OK, SF_ENOMEM or SF_EVALUE (no finite point to draw). */
int sf_plot_lines_draw(const sf_plot_lines *p, sf_svg **out, sf_error *err);

/*
 * The chart of n studies (n >= 1, each run, the same swept input and
 * range: `scalefit scale A.json B.json ...`, or the groups of one fit file
 * later), one series each named labels[k] (the fit's name, say), into a
 * new document *out: each curve through SF_PLOT_POINTS points spaced as
 * its study is, with its band, a new run's interval (when its fit has the
 * error model), its measured points and the points it did not fit
 * (sc[k]->held_x, as rings); the efficiency panel when every study is a
 * worker sweep that shows it; the first study's
 * fixed inputs, range and unit in the titles.  Returns SF_OK, or an error
 * of sf_sweep_run(), SF_ENOMEM or SF_EVALUE.
 */
int sf_plot_studies(const sf_scale *const *sc, const char *const *labels,
                    size_t n, sf_svg **out, sf_error *err);

#endif /* SF_PLOT_H */
