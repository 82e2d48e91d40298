/*
 * report.h - what a fit tells its user: the text report, and the JSON
 * report (FIT.json) that `predict` and `scale` read back.
 *
 * The JSON report has the keys scalefit(1) lists (scalefit_version, model,
 * data, parameters, metrics, optimizer, correlations, residuals) and, so that
 * it is self-contained, also: model.parameters' fixed values and bounds,
 * model.output, model.fit (loss, penalty, lambda), covariance (the fitted
 * parameters' covariance matrix, in theta order), input_ranges (the
 * smallest and largest value of each input in the fitted rows), and for
 * each residual its file line and input values.  Numbers are written with
 * 17 significant digits (they read back to the same double); a number that
 * is not finite is written as null.
 *
 * Ownership: sf_report_json() returns a new jansson value the caller
 * releases with json_decref().
 */
#ifndef SF_REPORT_H
#define SF_REPORT_H

#include "input/dataset.h"
#include "base/error.h"
#include "fit/fit.h"
#include "fit/interval.h"
#include "input/formula.h"
#include "input/model.h"
#include "fit/resample.h"
#include "fit/stats.h"

#include <jansson.h>
#include <stdio.h>

/* Everything a report shows. */
/* Which fitted rows the JSON report lists under "residuals". */
typedef enum sf_residuals {
	SF_RESIDUALS_AUTO = 0, /* all of them up to SF_RESIDUALS_AUTO_MAX
	                          rows, none beyond */
	SF_RESIDUALS_ALL,
	SF_RESIDUALS_NONE
} sf_residuals;

/* The most rows whose residuals are written by default: about 20 MB of
 * JSON.  4.1 million rows wrote 778 MB (32 s, 6.9 GB of memory), and a
 * predict reading it back needed 5.7 GB for one point. */
enum { SF_RESIDUALS_AUTO_MAX = 100000 };

typedef struct sf_report {
	const sf_model *model;
	const sf_dataset *data;
	const sf_formula *formula;
	const sf_fit_result *fit;
	const sf_stats *stats; /* may be NULL when it could not be computed */
	const sf_resample *bootstrap;      /* NULL without --bootstrap */
	const sf_resample *restarts;       /* NULL without --restarts */
	const sf_interval_model *interval; /* NULL when not computed */
} sf_report;

/* 1 when the JSON report of r lists the residuals of its rows, which w
 * asks for. */
int sf_report_has_residuals(const sf_report *r, sf_residuals w);

/* The JSON report, or NULL when out of memory. */
json_t *sf_report_json(const sf_report *r);

/* The same with the residuals w asks for (sf_report_json(): auto); when
 * they are left out, "residuals_omitted" gives the rows' count. */
json_t *sf_report_json_residuals(const sf_report *r, sf_residuals w);

/*
 * Write json to path atomically: into a temporary file beside it, flushed
 * and synced, then renamed over path, so a reader never sees half a file
 * and a failure leaves path as it was.  Returns SF_OK or SF_EIO.
 */
int sf_report_save(const json_t *json, const char *path, sf_error *err);

/* Write json to out (stdout for --json).  Returns SF_OK or SF_EIO. */
int sf_report_print_json(const json_t *json, FILE *out, sf_error *err);

/* The text report for a person. */
void sf_report_print_text(const sf_report *r, FILE *out);

/* A double for JSON: null when not finite, an integer when it is one
 * (so 0 prints as 0, as %.17g does), else a real. */
json_t *sf_json_number(double x);

#endif /* SF_REPORT_H */
