/*
 * library.h - the formula library: the model files shipped with scalefit.
 *
 * `make install` puts the library's model files in PKGDATADIR/expressions
 * and the datasets they point at in PKGDATADIR/datasets, so a formula's
 * data.file (../datasets/...) still resolves; a source tree has the same
 * layout at its top.  A formula is named by its file's name without
 * ".yaml": `@ddp-generic` on the command line is
 * DIR/expressions/ddp-generic.yaml.  The caller says which DIR (the
 * command line takes $SCALEFIT_LIBRARY, else the installed PKGDATADIR):
 * this module reads no environment.
 *
 * Ownership: the returned paths and entries are malloc'd and the
 * caller's (sf_library_entries_free).  Thread-safe.
 */
#ifndef SF_LIBRARY_H
#define SF_LIBRARY_H

#include "base/error.h"

#include <stddef.h>

/* The prefix that names a library formula instead of a file. */
#define SF_LIBRARY_PREFIX '@'

/* One formula of the library. */
typedef struct sf_library_entry {
	char *name;        /* "ddp-generic" */
	char *path;        /* DIR/expressions/ddp-generic.yaml */
	char *description; /* the file's top-level description:, else the
	                      first line of its opening comment, else "" */
} sf_library_entry;

/*
 * The names of the inputs of the model file at path ("p, b, n"; every
 * model's of a models: list, each once, in the order first met) into buf
 * (size bytes, cut when longer); "" when the file does not load.  For the
 * listing of `scalefit formulas`.
 */
void sf_library_inputs(const char *path, char *buf, size_t size);

/*
 * The formulas of the library at dir, sorted by name, into a new array
 * *out of *n entries (free with sf_library_entries_free).  A .yaml file
 * that is not a regular file (a FIFO, whose open would wait for a writer
 * for ever; a directory) is no formula: it is left out, with a warning
 * through warn (NULL: none).  Returns SF_OK, SF_EIO when dir/expressions
 * cannot be read (the message says which directory and that
 * $SCALEFIT_LIBRARY overrides it), SF_ENOMEM.  Under MPI rank 0 reads the
 * folder and every rank gets its list (sf_units_read), so the library
 * needs to exist only where rank 0 runs.
 */
int sf_library_list(const char *dir, sf_warn_fn warn, void *warn_ctx,
                    sf_library_entry **out, size_t *n, sf_error *err);

/* Release n entries.  Accepts NULL. */
void sf_library_entries_free(sf_library_entry *e, size_t n);

/*
 * The model file of the library formula name (without the '@') into
 * *path (malloc'd), the files skipped warned about through warn (NULL:
 * none).  Returns SF_OK; SF_ENAME when the library has no such formula
 * (with the nearest name and how to list them all), or the errors of
 * sf_library_list.
 */
int sf_library_find(const char *dir, const char *name, sf_warn_fn warn,
                    void *warn_ctx, char **path, sf_error *err);

/* sf_library_find() without warnings. */
int sf_library_path(const char *dir, const char *name, char **path,
                    sf_error *err);

/* The description of the model file text (see sf_library_entry) into buf
 * (size bytes). */
void sf_library_description(const char *text, char *buf, size_t size);

#endif /* SF_LIBRARY_H */
