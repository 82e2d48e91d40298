/*
 * atomic.h - writing an output file so a reader never sees half of it.
 *
 * The text goes to a temporary file beside the target (same directory,
 * so the rename cannot cross file systems), is synced, given the usual
 * permissions (0666 less the umask: mkstemp's 0600 would make a report
 * private), and renamed over the target.  On any failure the temporary
 * file is removed and the target is left as it was.
 */
#ifndef SF_ATOMIC_H
#define SF_ATOMIC_H

#include "base/error.h"

#include <stddef.h>

/* Write length bytes of text to path atomically; what names the file in
 * an error ("the report", "the plot").  Returns SF_OK, SF_EIO or
 * SF_ENOMEM. */
int sf_write_atomic(const char *path, const char *text, size_t length,
                    const char *what, sf_error *err);

#endif /* SF_ATOMIC_H */
