/*
 * scale.h - a scaling study, the question `scalefit scale` answers: how
 * the predicted time moves along one input of a fit while the others are
 * held fixed.
 *
 * A study is asked in the words of the command's options (a
 * sf_scale_request: "--over p=1:1024", "--set n=0.06", ...) and set up
 * once, every check made before any work:
 *
 *   the swept input   --over NAME=LO:HI, or NAME=V1,V2,... (sorted); a
 *                     numeric input of the fit, LO <= HI
 *   the fixed inputs  --set NAME=VALUE,...; an input left out must have
 *                     had a single value in the fit, which it keeps
 *   the worker count  --workers NAME, else sf_scale_worker_input(); when
 *                     it is the swept input, the sweep is a worker sweep
 *                     (speedup, efficiency) and takes whole values >= 1:
 *                     both ends of a range, every value of a list
 *   whole values      the worker count, and an input whose fitted values
 *                     were all whole when the range asks for whole values
 *                     (sf_scale_whole_input()); powers of two by default
 *                     for the worker count and an input whose fitted
 *                     values all were powers of two (a batch)
 *   throughput        a sweep of the batch (sf_scale_batch_input())
 *                     answers the highest throughput and the knee (sweep.h)
 *   the time's unit   --unit (--time-unit), else the fit's data.unit, else
 *                     sf_scale_guess_unit(); a label (no conversion) that
 *                     turns the time into hours for --cost, into seconds
 *                     for a throughput, and names the unit on the chart
 *   the table         the listed values, or sf_sweep_values() of the
 *                     range (--points, --log or --linear)
 *
 * sf_scale_run() then evaluates the table and searches the headline
 * answers (sweep.h).  The library also writes the study's JSON document,
 * its extrapolation warnings and the pieces of its text (the held-fixed
 * inputs, the terms of a kind); plot.h draws its chart.
 *
 * Errors of the set-up are faults of the request: their messages name the
 * option ("--over 'p=1:x': 'x' is not a number (for p)") and are meant to
 * be shown as they are, as usage errors.
 *
 * Ownership: a study borrows its fit (which must outlive it) and copies
 * everything of the request; sf_scale_free() releases it.  sf_scale_json()
 * returns a new jansson value the caller releases with json_decref().
 * Thread safety: a study is read-only after sf_scale_run(); several
 * threads may then read it.
 */
#ifndef SF_SCALE_H
#define SF_SCALE_H

#include "base/error.h"
#include "input/csv.h"
#include "use/fitfile.h"
#include "use/sweep.h"

#include <jansson.h>
#include <stddef.h>

/* The time units --time-unit takes, in hours: s, ms, min and h. */
#define SF_SCALE_UNITS 4
extern const char *const sf_scale_units[SF_SCALE_UNITS];

/* What scale says (text, JSON, chart) instead of the terms' shares when
 * the time is not their sum (sf_fitfile's terms_sum). */
#define SF_SCALE_NOT_SUM "time is not the sum of its terms; shares not shown"

/* The lower panel of the chart. */
typedef enum sf_scale_panel {
	SF_SCALE_PANEL_AUTO = 0,   /* efficiency for a worker sweep, else
	                              shares */
	SF_SCALE_PANEL_EFFICIENCY, /* needs a worker sweep */
	SF_SCALE_PANEL_SHARES
} sf_scale_panel;

/* A study as asked: the options of `scalefit scale`.  Read during
 * sf_scale_new() only. */
typedef struct sf_scale_request {
	const char *over;         /* "NAME=LO:HI" or "NAME=V1,V2,..." */
	const char *const *set;   /* nset texts "NAME=VALUE,..."; each */
	size_t nset;              /* name once in all of them */
	const char *workers;      /* the input counting workers; NULL:
	                             sf_scale_worker_input() */
	const char *time_unit;    /* one of sf_scale_units; NULL: guessed */
	sf_sweep_spacing spacing; /* log, linear or auto */
	size_t points;            /* points of a LO:HI table; 0: default */
	double price;             /* per worker-hour; NaN (or <= 0): no
	                             cost */
	sf_scale_panel panel;
} sf_scale_request;

/* A study, set up and, after sf_scale_run(), answered. */
typedef struct sf_scale {
	const sf_fitfile *f;      /* borrowed */
	sf_sweep_settings s;      /* s.base is base */
	double *base;             /* f->ninputs values: every input's fixed
	                             value (a text input's level code) */
	double lo, hi;            /* the swept range */
	double *x;                /* the table's n points, increasing */
	size_t n;                 /*   (a list's values, or the range's) */
	int listed;               /* 1: a list was given; the answers are
	                             searched among its values only */
	const char *unit;         /* the time's unit, in sf_scale_units */
	int unit_guessed;         /* 1: read from the output's name */
	int unit_declared;        /* 1: given by --unit or the model's
	                             data.unit (f->unit) */
	int efficiency_panel;     /* 1: the chart's lower panel shows the
	                             efficiency, 0: the shares */
	sf_sweep *table;          /* the sweep at x; NULL until run */
	const double *held_x;     /* measurements the fit did not see, for */
	const double *held_y;     /*   the chart (sf_scale_held_out()); */
	size_t nheld;             /*   borrowed, none by default */
	sf_sweep_answers answers; /* valid once run */
} sf_scale;

/*
 * Set up the study request q asks of fit f (see the top of this file).
 * Returns SF_OK and a new study in *out, or, with err saying why and *out
 * NULL: SF_ENOMEM, or a fault of the request - SF_ESYNTAX (--over is not
 * NAME=..., a value is not a number), SF_ENAME (an unknown input, one
 * named twice), SF_ETYPE (a text input swept), SF_EVALUE (an empty range,
 * a worker count that is not a whole number >= 1 at an end of the range
 * or anywhere in a list, --log from 0, an unknown unit, a bad value),
 * SF_EUSAGE (no --over, an input without a value, --cost without a
 * worker input, --panel efficiency away from the worker count).
 */
int sf_scale_new(const sf_fitfile *f, const sf_scale_request *q, sf_scale **out,
                 sf_error *err);

/*
 * Evaluate the table and search the answers over [lo, hi].  Returns SF_OK,
 * or an error of sf_sweep_run() / sf_sweep_answer().
 */
int sf_scale_run(sf_scale *sc, sf_error *err);

/* Release sc.  Accepts NULL. */
void sf_scale_free(sf_scale *sc);

/*
 * The input that counts workers when the request names none: p, else the
 * first input whose name or data column starts (in any case) with worker,
 * core, gpu, node, machine, proc, rank, device or replica.
 * SF_FITFILE_NONE when there is none.
 */
size_t sf_scale_worker_input(const sf_fitfile *f);

/*
 * The batch input, whose sweep answers the highest throughput and the
 * knee: b, else the first input whose name or data column starts (in any
 * case) with batch.  SF_FITFILE_NONE when there is none.
 */
size_t sf_scale_batch_input(const sf_fitfile *f);

/*
 * The input counting the samples of a run: n, else the first input whose
 * name or column starts with sample, image, token, sequence or example.
 * SF_FITFILE_NONE when there is none.
 */
size_t sf_scale_samples_input(const sf_fitfile *f);

/*
 * 1 when input i took whole values only in the fit's measured rows (and
 * it has some), else 0; *pow2 becomes 1 when they were all powers of two
 * (1, 2, 4, ...).
 */
int sf_scale_whole_input(const sf_fitfile *f, size_t i, int *pow2);

/*
 * The time's unit read from the end of the output's name, in any case:
 * _ms -> ms; _s, _sec, seconds -> s; _min, minutes -> min; _h, hours -> h.
 * *guessed becomes 1 when a suffix matched; else the unit is s and
 * *guessed 0.  Returns one of sf_scale_units.
 */
const char *sf_scale_guess_unit(const char *output, int *guessed);

/* Hours in one unit (one of sf_scale_units; others count as seconds). */
double sf_scale_hours_per(const char *unit);

/* The unit's name for people: "seconds", "milliseconds", "minutes",
 * "hours". */
const char *sf_scale_unit_name(const char *unit);

/*
 * The inputs held fixed, as "n = 0.06, model = cnn" ("" when the swept
 * input is the only one), into out (size bytes, NUL-terminated).
 */
void sf_scale_fixed_text(const sf_scale *sc, char *out, size_t size);

/*
 * What a throughput counts, as "n / epoch_s" (the samples of a run) or
 * "b x p / epoch_s" (a step's), into out (size bytes, NUL-terminated).
 */
void sf_scale_samples_text(const sf_scale *sc, char *out, size_t size);

/*
 * The names of the terms that count for kind, as "comm, sync" ("" when
 * none), into out (size bytes, NUL-terminated).
 */
void sf_scale_kind_terms(const sf_fitfile *f, sf_term_kind kind, char *out,
                         size_t size);

/*
 * The measured rows of the fit that belong on the study's curve: the
 * swept input within [lo, hi], every other input equal to its fixed
 * value (to 1e-9 relative).  Their swept values go to mx and times to my,
 * which hold f->nmeasured values each; returns how many.
 */
size_t sf_scale_measured(const sf_scale *sc, double *mx, double *my);

/*
 * Measurements the fit did not see, for the chart (`scale --data`): the rows
 * of table t - with a column named after every input and one named after
 * the fit's output - that keep marks (keep[r] != 0 for row r; NULL: every
 * row) and that belong on the study's curve as sf_scale_measured()
 * decides, less the rows the fit measured (the same swept value and
 * time), which the chart shows as fitted already.  *hx and *hy get *n new
 * values each (the caller frees both; NULL when none).  Returns SF_OK, or
 * SF_ENAME (no column for an input or the output), SF_ETYPE (text in a numeric
 * column), SF_ENOMEM, with err at the column's FILE:LINE:COL.
 */
int sf_scale_held_out(const sf_scale *sc, const sf_table *t,
                      const unsigned char *keep, double **hx, double **hy,
                      size_t *n, sf_error *err);

/*
 * Warn through warn (nothing when NULL), at the fit's path, of each input
 * outside its fitted range: the swept range reaching beyond it ("p from 1
 * to 64 reaches outside its fitted range [2, 16]: the points outside it
 * are extrapolations"), or a fixed value outside it ("every point is an
 * extrapolation").  In input order.
 */
void sf_scale_warn(const sf_scale *sc, sf_warn_fn warn, void *ctx);

/*
 * The JSON document of `scalefit scale --json` for a study that has run:
 * fit, model, output, variable, column, workers, spacing, range, fixed,
 * band, level_percent, dof, t, bootstrap_samples, time_unit, price, the
 * points (the swept value, time, bands, speedup and efficiency for a
 * worker sweep, cost with a price, terms, shares, kinds, extrapolated) and
 * the answers (searched, fastest, efficient_up_to, crossover, cheapest).
 * NULL when out of memory.
 */
json_t *sf_scale_json(const sf_scale *sc);

/*
 * Several studies of one request (`scale A.json B.json ...`), set up and
 * not yet run: give each the points of the first, so their tables share
 * one column of x (a list, or the first fit's range points).  Returns
 * SF_OK or SF_ENOMEM.
 */
int sf_scale_share_points(sf_scale *const *sc, size_t n, sf_error *err);

/*
 * The name of study k of n in a table or legend: its model's name, or
 * "name (FIT.json)" when another study has the same name, or the fit
 * file's path when it has none; into out (size bytes, NUL-terminated).
 */
void sf_scale_label(const sf_scale *const *sc, size_t n, size_t k, char *out,
                    size_t size);

#endif /* SF_SCALE_H */
