/*
 * fitplot.h - the chart of a fit (`scalefit plot`): where the formula
 * misses, row by row.
 *
 *   top      each row's observed time against the time the fit predicts
 *            for it, on log-log axes when every time is positive, with
 *            the diagonal observed = predicted: a row above it ran slower
 *            than the formula says;
 *   below    a panel per numeric input whose value varies among the rows
 *            (at most SF_FITPLOT_PANELS): each row's error, predicted /
 *            observed - 1 in percent (as validate reports it), against
 *            the input, with the line of no error; a trend there is what
 *            the formula leaves out.
 *
 * The rows are those the fit measured (FIT.json's residuals, an
 * ensemble's those of its first formula, which all fitted: dots) and,
 * when given, rows of a data file it did not see (held out, or run since:
 * rings), read as `scale --data` reads them: a column named after every
 * input (a text input's values among its levels) and one named after the
 * output; a row with the same inputs and time as a fitted row is that row,
 * not drawn twice.  FIT.json holds only the rows it fitted, so the others
 * come from the data file.
 *
 * Ownership: an sf_fitplot owns its rows and borrows its fit, which must
 * outlive it; sf_fitplot_free() releases it.  Thread safety: read-only
 * once made.
 */
#ifndef SF_FITPLOT_H
#define SF_FITPLOT_H

#include "base/error.h"
#include "input/csv.h"
#include "use/fitfile.h"
#include "use/svg.h"

#include <stddef.h>

/* The most panels of errors by input. */
#define SF_FITPLOT_PANELS 8

/* Rows of the chart: their inputs, observed and predicted times. */
typedef struct sf_fitplot_rows {
	size_t n;
	double *inputs;    /* f->ninputs x n, input-major (input i at i * n) */
	double *observed;  /* n */
	double *predicted; /* n */
	double mape;       /* the mean of |predicted / observed - 1|, in
	                      percent, over the rows with a finite error;
	                      NaN when none */
	size_t worst;      /* the row of the largest |error|; n when none */
} sf_fitplot_rows;

/* A fit's chart, before it is drawn. */
typedef struct sf_fitplot {
	const sf_fitfile *f;    /* borrowed */
	sf_fitplot_rows fitted; /* the fit's measured rows */
	sf_fitplot_rows held;   /* the data file's other rows (n may be 0) */
} sf_fitplot;

/*
 * The rows of fit f, and of table data (NULL: none) those that are not
 * f's fitted rows, predicted, into a new chart *out.  Returns SF_OK, or
 * SF_EVALUE (no row to draw: the fit file has no residuals and the data
 * no usable row), an error of reading the data (SF_ENAME: no column for
 * an input or the output, a text value the fit did not see; SF_ETYPE:
 * text in a numeric column; at FILE:LINE:COL), SF_ENOMEM.
 */
int sf_fitplot_new(const sf_fitfile *f, const sf_table *data, sf_fitplot **out,
                   sf_error *err);

/* Release p.  Accepts NULL. */
void sf_fitplot_free(sf_fitplot *p);

/*
 * Draw p's chart (above) into a new document *out (free with
 * sf_svg_free()): the fit's name and output as title, the rows and their
 * MAPE as subtitle, a legend (fitted, not fitted, the diagonal).  Returns
 * SF_OK, SF_EVALUE (no finite time to draw) or SF_ENOMEM.
 */
int sf_fitplot_draw(const sf_fitplot *p, sf_svg **out, sf_error *err);

#endif /* SF_FITPLOT_H */
