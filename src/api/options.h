/*
 * options.h - the C API's settings (scalefit_settings): the command
 * line's options by name, kept as texts, and read into a run's settings
 * (run/) when a run is given them.
 *
 * One table lists every option of every command: its name as the
 * command line spells it (without the dashes), whether it takes a value,
 * one or several, and which commands take it.  Setting an option checks
 * its name only (an unknown one is refused with the nearest name); its
 * value is read by the run it is given to, with the command line's
 * message for a bad one, as a fault of the request (SF_EREQUEST), and so
 * are the command line's checks of options that go together ("validate
 * needs exactly one of --train EXPR, --kfold K and --loo").
 *
 * Ownership: a settings handle owns copies of its texts; the run
 * settings filled point into them and into an sf_options, so both must
 * outlive the run.  Thread safety: reading a settings handle (the
 * sf_options_ functions) from several threads at once is safe; changing
 * it is not, while anyone reads it.
 */
#ifndef SF_OPTIONS_H
#define SF_OPTIONS_H

#include "api/scalefit.h"
#include "base/error.h"
#include "discover/discover.h"
#include "run/compare.h"
#include "run/fit.h"
#include "run/next.h"
#include "run/predict.h"
#include "run/scale.h"
#include "run/validate.h"

/* The most "input" options a run takes, as the command line. */
enum { SF_OPTIONS_INPUTS_MAX = 64 };

/* What a run reads of its settings besides its run/ settings. */
typedef struct sf_options {
	int quiet;          /* keep no warnings */
	int chart;          /* scale: draw the chart in memory */
	const char *output; /* fit, discover: write the result here */
	const char *by;     /* discover: --by */
	int details;        /* discover: --details */
	int shapes;         /* discover: --shapes */
	const char **texts; /* storage the run settings' lists point into:
	                       the "input" texts, then "at" or "set" */
} sf_options;

/* Release what o holds.  Accepts NULL. */
void sf_options_free(sf_options *o);

/*
 * Read settings s (NULL: none) for a run of each command: into the run's
 * settings r (initialised by the caller with its _init, or zeroed) and
 * o.  Returns SF_OK, or with err: SF_EREQUEST (an option the command does
 * not take, a bad value, options that do not go together; the message
 * the command line gives), SF_ENOMEM.  For predict, nfits is the number
 * of fits the run is given, which some checks need.
 */
int sf_options_fit(const scalefit_settings *s, sf_run_fit_settings *r,
                   sf_options *o, sf_error *err);
int sf_options_validate(const scalefit_settings *s, sf_run_validate_settings *r,
                        sf_options *o, sf_error *err);
int sf_options_compare(const scalefit_settings *s, sf_run_compare_settings *r,
                       sf_options *o, sf_error *err);
int sf_options_discover(const scalefit_settings *s, sf_discover_options *r,
                        sf_data_override *change, sf_options *o, sf_error *err);
int sf_options_predict(const scalefit_settings *s, size_t nfits,
                       sf_run_predict_settings *r, sf_options *o,
                       sf_error *err);
int sf_options_scale(const scalefit_settings *s, sf_run_scale_settings *r,
                     sf_options *o, sf_error *err);
int sf_options_next(const scalefit_settings *s, sf_run_next_settings *r,
                    sf_options *o, sf_error *err);

#endif /* SF_OPTIONS_H */
