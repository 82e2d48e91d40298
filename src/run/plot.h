/*
 * plot.h (run/) - `scalefit plot` as one library call: the chart of a
 * fit, where its formula misses (use/fitplot.h draws it), written to an
 * SVG file, and a few lines saying what it shows.
 *
 * The fit is a FIT.json file, or one group of a groups file (from fit
 * --by) that the selector chooses.  Its rows are the residuals it holds
 * (the rows it fitted); the rows of a data file (a CSV with a column per
 * input and one for the output) that are not among them are drawn as not
 * fitted: held out, or run since.  The chart is written whole or not at
 * all (base/atomic.h): a chart that cannot be written fails the run and
 * leaves the file as it was.
 *
 * Ownership: the result owns the fits, the chart and the text; the
 * settings are only read during the call.  Thread safety: one thread per
 * call.
 */
#ifndef SF_RUN_PLOT_H
#define SF_RUN_PLOT_H

#include "base/error.h"
#include "run/output.h"
#include "use/fitgroups.h"
#include "use/fitplot.h"
#include "use/svg.h"

/* What `scalefit plot` is asked. */
typedef struct sf_run_plot_settings {
	const char *fit;    /* FIT.json */
	const char *group;  /* of a groups file: the one group
	                       (fitgroups.h's selector); NULL: a plain fit
	                       file, or a groups file of one group */
	const char *output; /* write the chart (SVG) here; NULL: only draw
	                       it */
	const char *data;   /* rows the fit did not see (a CSV); NULL: none */
	sf_warn_fn warn;    /* warnings; NULL: none */
	void *warn_ctx;
} sf_run_plot_settings;

typedef struct sf_run_plot_result {
	sf_fitfile_set *set; /* the file's fits; the chart's is fits[0] */
	sf_fitplot *plot;    /* the rows, predicted */
	sf_svg *chart;
	sf_run_output out; /* the text (no JSON) */
} sf_run_plot_result;

/*
 * Draw the chart as above.  Returns SF_OK with a new result in *out, or
 * an error with *out NULL: those of reading the fit file or the data,
 * SF_EREQUEST (a groups file of several groups without a --group that
 * chooses one), those of sf_fitplot_new() and sf_fitplot_draw(), of
 * writing the chart (SF_EIO), SF_ENOMEM.
 */
int sf_run_plot(const sf_run_plot_settings *s, sf_run_plot_result **out,
                sf_error *err);

/* Release r.  Accepts NULL. */
void sf_run_plot_result_free(sf_run_plot_result *r);

#endif /* SF_RUN_PLOT_H */
