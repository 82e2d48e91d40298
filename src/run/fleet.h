/*
 * fleet.h - a fleet of fits: one command's work (fit, validate, compare,
 * discover) done for every group of rows (input/groups.h), and the
 * groups' reports gathered into one.  sf_run_fleet() is a command's whole
 * --by run: the rows split, every group's work, its warnings, the groups
 * JSON and the summary a person reads.
 *
 * The groups are the units of work of base/units.h: under MPI they spread
 * over the ranks, and each group's report travels as JSON text (jansson's,
 * numbers with 17 digits, so it reads back to the same doubles and prints
 * the same bytes).  A group that fails in an expected way (no usable row,
 * too few rows, no finite cost) is recorded with its error and the others
 * go on; a bad setting, out-of-memory or a bug fails the whole fleet.
 *
 * The fleet's JSON: {"by": [COLUMN...], "groups": [...], "failed": N}, each
 * group an object that starts with "key" ({"model": "cnn"}, a number for
 * a numeric column, null for an empty cell), "label" ("model=cnn") and
 * "rows", followed by the command's whole report for the group, or by
 * "skipped" and "error" (the message) when the group failed.
 *
 * Ownership: a fleet owns its JSON, texts and warnings (sf_fleet_free).
 */
#ifndef SF_FLEET_H
#define SF_FLEET_H

#include "base/error.h"
#include "fit/fit.h"
#include "input/dataset.h"
#include "input/groups.h"
#include "input/problem.h"
#include "run/data.h"
#include "run/output.h"

#include <jansson.h>
#include <stdint.h>
#include <stdio.h>

/*
 * One group's work: the command's pipeline on dataset group (the group's
 * rows); index is the group's index in the fleet, from which the seed of
 * its fits derives (sf_fleet_seed), never from a rank or thread.  Fills *report
 * with the command's JSON report (a new object) and *text with its text report
 * (malloc'd; may stay NULL), and sends warnings to warn(warn_ctx, ...).
 * Returns SF_OK, or an error code with err: SF_EFAIL (no finite cost) and
 * SF_EVALUE (what the group's rows cannot give) mark this group failed;
 * any other code (a bad setting or input, which would fail every group;
 * out of memory) stops the fleet with that error.
 */
typedef int (*sf_fleet_fn)(void *ctx, const sf_dataset *group, size_t index,
                           sf_warn_fn warn, void *warn_ctx, json_t **report,
                           char **text, sf_error *err);

typedef struct sf_fleet {
	json_t *json;        /* the fleet's JSON, above */
	size_t count;        /* groups */
	size_t failed;       /* of them, failed */
	char **labels;       /* each group's label */
	char **texts;        /* each group's text report, NULL when none */
	char **errors;       /* each failed group's message, else NULL */
	sf_error **warnings; /* each group's warnings in the order given,
	                        prefixed "group LABEL: " (nwarnings[i] of
	                        them; NULL when none) */
	size_t *nwarnings;
} sf_fleet;

/* The seed of group index of a run whose seed is seed. */
uint64_t sf_fleet_seed(uint64_t seed, size_t index);

/* What a command's sf_fleet_fn reads besides the group: its settings, the
 * model, its formula compiled on every row (the groups share it), and the
 * run's seed (sf_fit_settings_effective). */
typedef struct sf_fleet_job {
	const void *settings;
	const sf_model *model;
	const sf_formula *formula;
	uint64_t seed;
} sf_fleet_job;

/* The fit options of group index of job: o with the seed
 * sf_fleet_seed(job->seed, index), and no progress display. */
sf_fit_options sf_fleet_options(const sf_fleet_job *job,
                                const sf_fit_options *o, size_t index);

/*
 * Run fn (ctx passed through) on each group of g, a split of dataset d,
 * over the ranks of the job (base/units.h), and gather the reports in
 * group order on rank 0 (the other ranks of an MPI job get a fleet of no
 * groups and no JSON: they print and write nothing).  A group with fewer than
 * min_rows usable rows (the fitted constants: fewer rows leave them
 * undetermined) fails without a call.  Returns SF_OK with a new fleet in *out,
 * or SF_ENOMEM / SF_EINTERNAL (or a rank's failure under MPI) with err.
 */
int sf_fleet_run(const sf_groups *g, const sf_dataset *d, size_t min_rows,
                 sf_fleet_fn fn, void *ctx, sf_fleet **out, sf_error *err);

/* Release f.  Accepts NULL. */
void sf_fleet_free(sf_fleet *f);

/*
 * The summary table for a person: one line per group with its label, rows,
 * its fitted constants (at most a few, "a=1.2 b=3.4"), MAPE (and the
 * held-out rows' MAPE of a validation report: with --train, the
 * extrapolation MAPE), and how the search stopped, or the error of a
 * failed group; then the count of failed groups.  Reads the reports' keys
 * (parameters, metrics.mape or validation.mape, optimizer.stop_reason; of
 * a comparison, the best-ranked candidate's name, Akaike weight and
 * MAPE; of a discover search, the winner's formula, extrapolation MAPE and
 * MAPE); a report without them shows "-".
 */
void sf_fleet_print_summary(const sf_fleet *f, FILE *out);

/*
 * A command's --by run on model m's rows, problem p (its table, else
 * d->table: rows read from standard input): split them by d->by, else by
 * m's data.by (an error in it then quoted from the model file); warn when
 * that makes one group only; run fn (ctx passed through) on every group
 * with sf_fleet_run(); then, on the job's rank 0, send each group's
 * warnings to warn (may be NULL) in group order, and fill out with the
 * fleet's JSON and its text: the summary, and with d->details each
 * group's text report ("== group LABEL ==").  The other ranks of an MPI
 * job get a fleet of no groups and an empty out.  Returns SF_OK with the
 * new fleet in *fleet (failed groups are counted in it, not errors), or
 * the error of splitting or running.
 */
int sf_run_fleet(const sf_model *m, const sf_problem *p, const sf_run_data *d,
                 sf_fleet_fn fn, void *ctx, sf_warn_fn warn, void *warn_ctx,
                 sf_fleet **fleet, sf_run_output *out, sf_error *err);

#endif /* SF_FLEET_H */
