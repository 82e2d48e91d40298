/*
 * discover.h (run/) - `scalefit discover` as one library call: the formula
 * of a model's data found by the search of discover/discover.h, its board
 * and reports, and the winner written as a model file (in memory).
 *
 * sf_run_discover() reads the rows of the set's first model (a CSV file:
 * the model file it writes names its data, so rows already read, such as
 * standard input, are refused), puts the file's own formulas on the board
 * beside the found ones, and runs the pipeline of one search:
 *
 *   search      the grammar's formulas scored by forward chaining along
 *               the extrapolated input, the board ranked
 *               (sf_discover_run)
 *   model file  the winner's model text (sf_discover_model_text), with
 *               data.file relative to where it goes; fitted through the
 *               fit pipeline as `scalefit fit` fits the file
 *               (sf_discover_refit), then written again with those
 *               constants in its comments
 *   report      the text, and the JSON when asked (discover/report.h)
 *
 * The model file goes where s->output says (its directory must exist);
 * without an output it is made as if it were beside the model file, named
 * after the model with each byte a file name should not hold replaced by
 * '_' (a name is not a path: `sub/dir` gives sub_dir-discovered.yaml),
 * and not written.  Writing it is the caller's (base/atomic.h:
 * sf_write_atomic).
 *
 * With groups (s->data.by, or the model's data.by) the search runs on
 * every group alone (run/fleet.h), each seeded from the run's seed and the
 * group's index, the file's own formulas on the group's rows.  With an
 * output too, s->output is a directory, which must exist (the command
 * line makes it), and each group's winner becomes a model file in it
 * (r->files), named after the group's label made safe as above
 * ("model=cnn,gpu=v100" gives model_cnn_gpu_v100.yaml; a name another
 * group's has, compared without case, gets "-2", "-3", ...), whose
 * data.where keeps the group's rows (the model's where, and each by
 * column equal to the group's value: `model == 'cnn'`, an empty numeric
 * cell as `x != x`); each file is loaded and bound to the data as
 * `scalefit check` does, and must keep exactly the group's rows, before
 * it is returned.  The by columns must then be names an expression can
 * use.  With s->shapes the run lists the grammar's term shapes instead of
 * searching.
 *
 * Ownership: the result owns its search, model text and path, shapes,
 * fleet, JSON and text; it borrows the model set (which must outlive it)
 * and the settings' texts.  Thread safety: one thread per call; the search
 * uses OpenMP and gives the same bytes at any thread count.
 */
#ifndef SF_RUN_DISCOVER_H
#define SF_RUN_DISCOVER_H

#include "base/error.h"
#include "discover/discover.h"
#include "run/data.h"
#include "run/fleet.h"
#include "run/output.h"

/* What `scalefit discover` is asked. */
typedef struct sf_run_discover_settings {
	sf_run_data data; /* DATA.csv (NULL: the model's data.file), the
	                     data options, --by and --details; a table is
	                     refused, and data.model unused (the set's first
	                     model is searched, the others go on the board) */
	sf_discover_options options; /* --train, --max-terms, --beam,
	                                --budget, --extrapolate, --top and
	                                the fit options */
	const char *output;  /* -o: where the winner's model file will be
	                        written (it names its data relative to it),
	                        with groups the directory of theirs; NULL:
	                        nowhere */
	const char *library; /* the formula library's directory
	                        (input/library.h): its formulas that take the
	                        model's inputs are scored beside the found
	                        ones, unless discover.library is false; NULL:
	                        none */
	int shapes;          /* 1: list the grammar's shapes, no search */
	int json;            /* 1: build the JSON document too */
	sf_warn_fn warn;     /* warnings; NULL: none */
	void *warn_ctx;
} sf_run_discover_settings;

/* Zero everything, with sf_discover_options_init()'s "no override". */
void sf_run_discover_settings_init(sf_run_discover_settings *s);

/* A group's model file: where it goes, its text, the group's label. */
typedef struct sf_run_discover_file {
	char *path, *text, *label;
} sf_run_discover_file;

/* What it gives back. */
typedef struct sf_run_discover_result {
	const sf_model *model;      /* the model searched for, borrowed */
	const char *data_path;      /* its CSV file, borrowed */
	sf_discover_result *search; /* the board; NULL for shapes or a
	                               fleet */
	char *model_text;           /* the winner's model file, or NULL */
	char *model_path;           /* where it goes (above), or NULL */
	char **shapes;              /* with s->shapes: nshapes shapes */
	size_t nshapes;
	sf_fleet *fleet;             /* a --by run: every group's board */
	sf_run_discover_file *files; /* a --by run with an output: each
	                                group's model file, in group order
	                                (failed groups have none) */
	size_t nfiles;
	sf_run_output out; /* JSON (when asked) and text: the report, or the
	                      shapes one a line */
} sf_run_discover_result;

/*
 * Search the data of set's first model as above.  Returns SF_OK with a
 * new result in *out, or an error with *out NULL: SF_EREQUEST (a table
 * instead of a file; an output that is the model or data file, or in a
 * directory that does not exist; with groups, an output that is not a
 * directory, a group's file that would be an input, a by column that is
 * not a name, --shapes), SF_EUSAGE (no data file, naming the model
 * file), the errors of reading the rows and of the search (--train's
 * position in it as "--train"), SF_ENOMEM.  A group that fails is counted
 * in the fleet, not an error.
 */
int sf_run_discover(const sf_model_set *set, const sf_run_discover_settings *s,
                    sf_run_discover_result **out, sf_error *err);

/* Release r.  Accepts NULL. */
void sf_run_discover_result_free(sf_run_discover_result *r);

#endif /* SF_RUN_DISCOVER_H */
