/*
 * inputs.h - what a run of the C API reads: models (scalefit_model: a
 * file, "@NAME", YAML text or a formula's parts) and rows (scalefit_data:
 * a CSV path, or columns in memory), and how a run gets them in the form
 * run/ takes (a model set, an sf_run_data).
 *
 * A model is loaded once, when it is opened, with the formula optional
 * (discover finds one); a run that changes its data section ("where",
 * "output-column", "input") loads its own copy with the change applied,
 * as the command line does, and a run that needs a formula reloads a
 * model lacking one to give the loader's own message.  Columns in memory
 * are kept as the cells of the CSV file they stand for, and each run
 * parses that text (input/csv.h), so the rows, their typing and their
 * messages are those of the file.
 *
 * Ownership: a model owns its set, text and warnings; a data handle its
 * cells.  What sf_inputs_* give a run is freed with the matching call.
 * Thread safety: a model or data handle is only read by runs, which may
 * be concurrent; adding a column is not, while a run reads it.
 */
#ifndef SF_INPUTS_H
#define SF_INPUTS_H

#include "api/call.h"
#include "api/scalefit.h"
#include "base/error.h"
#include "input/csv.h"
#include "input/model.h"
#include "input/override.h"
#include "run/data.h"

struct scalefit_model {
	char *path;         /* the file or "@NAME" as given; NULL for text */
	char *name;         /* text: the name it is parsed under */
	char *text;         /* text: the YAML, NUL-terminated */
	sf_model_set *set;  /* loaded with the formula optional */
	sf_warnings loaded; /* the warnings of loading it */
};

/*
 * The model set a run of m works on, with flags (SF_MODEL_FORMULA_OPTIONAL
 * for discover, else 0) and the data change (may be NULL): m's own set
 * (*owned NULL) when change is empty and the flags accept it, else a new
 * one in *owned (the caller frees it).  The warnings of the loading go to
 * w unless quiet.  Returns SF_OK with *set, or the loader's error.
 */
int sf_inputs_models(const scalefit_model *m, unsigned flags,
                     const sf_data_override *change, int quiet, sf_warnings *w,
                     const sf_model_set **set, sf_model_set **owned,
                     sf_error *err);

/*
 * The rows of d for a run, into r (path or table; d NULL: the model's
 * data.file): a table parsed from columns goes to *table, which the caller
 * frees after the run.  Returns SF_OK, or the error of parsing the
 * columns' cells.
 */
int sf_inputs_rows(const scalefit_data *d, sf_run_data *r, sf_table **table,
                   sf_error *err);

/* The path of d's CSV file, or NULL for columns or no d: the file a run
 * must not write over. */
const char *sf_inputs_path(const scalefit_data *d);

#endif /* SF_INPUTS_H */
