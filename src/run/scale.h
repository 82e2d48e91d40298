/*
 * scale.h (run/) - `scalefit scale` as one library call: the predicted
 * time along one input of a fit while the others are held fixed, its
 * speedup, efficiency, cost and term shares, the headline answers, and a
 * chart (use/scale.h sets up and answers each study, use/plot.h draws).
 *
 * The fits are FIT.json files; a groups file (from fit --by) gives each
 * group the selector chooses (every group that fitted without one).  Each
 * fit is one study of the same request; several studies share the
 * points of the first, so their table has one column of the swept input
 * and a time column per study, each named by its label (its group, its
 * model, or its file).
 *
 * The chart, when asked, is drawn after the studies have run and written
 * (plot) before any warning about extrapolated points: a chart that
 * cannot be written fails the run.  Measurements the fits did not see
 * (data, a CSV) go on the chart: each study's rows (those on its curve,
 * sf_scale_held_out()), a group's only those whose --by columns hold its
 * key.
 *
 * Ownership: the result owns the fits, studies, labels, chart, JSON and
 * text; the settings are only read during the call.  Thread safety: one
 * thread per call; a study is read-only once run.
 */
#ifndef SF_RUN_SCALE_H
#define SF_RUN_SCALE_H

#include "base/error.h"
#include "run/output.h"
#include "run/average.h"
#include "use/fitfile.h"
#include "use/fitgroups.h"
#include "use/scale.h"
#include "use/svg.h"

/* What `scalefit scale` is asked. */
typedef struct sf_run_scale_settings {
	const char *const *fits; /* FIT.json paths, one study per fit */
	size_t nfits;
	const char *const *texts; /* NULL, or the files' texts already in
	                             memory (NUL-terminated; NULL: read
	                             fits[i]); fits[i] names texts[i] in
	                             messages (the C API's fits) */
	const char *group;        /* the groups of a groups file (fitfile.h's
	                             selector); NULL: every group */
	sf_average_asked weights; /* given: the fits averaged into one
	                             study (run/average.h), not one each */
	sf_scale_request request; /* --over, --set, --workers, ... */
	const char *plot;         /* write the chart (SVG) here; NULL: no
	                             file */
	int chart;                /* 1: draw the chart even without plot */
	const char *data;         /* measurements for the chart (a CSV);
	                             needs a chart */
	int json;                 /* 1: build the JSON document too */
	int csv;                  /* 1: the text is the table as CSV
	                             (use/text.h) */
	sf_warn_fn warn;          /* warnings; NULL: none */
	void *warn_ctx;
	int quiet; /* 1: warn only that a fit file was written by a later
	              major version, not of extrapolated ranges */
} sf_run_scale_settings;

/* Zero everything, with no price (NaN). */
void sf_run_scale_settings_init(sf_run_scale_settings *s);

typedef struct sf_run_scale_result {
	sf_fitfile_set **sets; /* each file's fits */
	size_t nsets;
	size_t count;              /* studies: every fit of every file */
	sf_scale **studies;        /* count, run */
	char **labels;             /* count: each study's name */
	sf_svg *chart;             /* NULL unless asked */
	double **held_x, **held_y; /* count: each study's measurements on
	                              the chart (--data); NULL without */
	sf_run_output out;         /* JSON (when asked) and text */
} sf_run_scale_result;

/*
 * Run the studies as above.  Returns SF_OK with a new result in *out, or
 * an error with *out NULL: those of reading a fit file or the data,
 * SF_EREQUEST (a study the fit cannot answer, its message naming the
 * option, prefixed by the fit file's path when there are several; data
 * without a chart), those of running, drawing or writing the chart,
 * SF_ENOMEM.
 */
int sf_run_scale(const sf_run_scale_settings *s, sf_run_scale_result **out,
                 sf_error *err);

/* Release r.  Accepts NULL. */
void sf_run_scale_result_free(sf_run_scale_result *r);

#endif /* SF_RUN_SCALE_H */
