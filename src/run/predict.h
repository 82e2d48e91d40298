/*
 * predict.h (run/) - `scalefit predict` as one library call: a fitted
 * formula's time at new points, with its bands, a new run's interval and
 * each term's part (use/predict.h), or the average of several fits'
 * predictions (use/average.h).
 *
 * The fits are FIT.json files.  One file answers for each of its fits: a
 * plain fit file for its fit, a groups file (from fit --by) for each group
 * the selector chooses, one after the other ("== group LABEL ==" in the
 * text; {"groups": [{"key", "label", ...}]} in the JSON), or as a plain
 * file when the selector chooses one group.  Two files or more are
 * averaged (Akaike or equal weights).
 *
 * The points are written as people write them (use/assign.h): each text
 * of at is one point, "NAME=VALUE,..." with a value for every input, then
 * the rows of the grid, a CSV with a column per input or the data's own
 * columns read through the fit's inputs (inputs: "NAME=EXPR" overrides,
 * sf_assign_grid()).  When the grid holds the fit's output (model.output,
 * read as the fit read it), one fit's prediction carries it as observed
 * values (use/predict.h), and its text and JSON add each row's error and
 * the scores against them.  A point that is not understood is a fault of
 * the request (SF_EREQUEST, its message naming --at or --input); a grid's
 * faults are placed at FILE:LINE:COL.
 *
 * Ownership: the result owns the fits, predictions, JSON and text; the
 * settings' texts are only read during the call.  Thread safety: one
 * thread per call; fits are read-only once loaded.
 */
#ifndef SF_RUN_PREDICT_H
#define SF_RUN_PREDICT_H

#include "base/error.h"
#include "run/output.h"
#include "use/average.h"
#include "use/fitfile.h"
#include "use/fitgroups.h"
#include "use/predict.h"

/* What `scalefit predict` is asked. */
typedef struct sf_run_predict_settings {
	const char *const *fits;  /* FIT.json paths; two or more: */
	size_t nfits;             /*   their average */
	const char *const *texts; /* NULL, or the files' texts already in
	                             memory (NUL-terminated; NULL: read
	                             fits[i]); fits[i] names texts[i] in
	                             messages (the C API's fits) */
	const char *group;        /* with one file: the groups of a groups
	                             file (fitfile.h's selector); NULL:
	                             every group */
	const char *const *at;    /* points, "NAME=VALUE,..." each */
	size_t nat;
	const char *grid;          /* a CSV of points; NULL: none */
	const char *const *inputs; /* "NAME=EXPR" each: input NAME's */
	size_t ninputs;            /* column or expression in the grid */
	sf_average_asked weights;  /* of an average */
	const char *unit;          /* the time's unit in the text's header
	                              (one of sf_model_units); NULL: the
	                              fit's data.unit */
	int json;                  /* 1: build the JSON document too */
	int csv;                   /* 1: the text is the table as CSV
	                              (use/text.h): a header line, a line a
	                              point (a group's points after the
	                              other's, a group column first) */
	sf_warn_fn warn;           /* warnings; NULL: none */
	void *warn_ctx;
	int quiet; /* 1: warn only that a fit file was written by a later
	              major version, not of extrapolated points */
} sf_run_predict_settings;

typedef struct sf_run_predict_result {
	/* One file: its fits and the prediction of each. */
	sf_fitfile_set *set;
	sf_prediction **predictions; /* set->count */
	/* Several files: the fits and their average. */
	sf_fitfile **fits; /* nfits */
	size_t nfits;
	sf_average *average;
	int groups_document; /* 1: the groups' ({"groups": [...]}) */
	/* The text, and the JSON when asked: written when printed, one
	 * point at a time (out.write_json, run/output.h), never one tree. */
	sf_run_output out;
} sf_run_predict_result;

/*
 * Predict as above.  Returns SF_OK with a new result in *out, or an error
 * with *out NULL: those of reading a fit file or the grid, SF_EREQUEST (a
 * point not understood; fits that cannot be averaged, with why), those of
 * predicting, SF_ENOMEM.
 */
int sf_run_predict(const sf_run_predict_settings *s,
                   sf_run_predict_result **out, sf_error *err);

/* Release r.  Accepts NULL. */
void sf_run_predict_result_free(sf_run_predict_result *r);

#endif /* SF_RUN_PREDICT_H */
