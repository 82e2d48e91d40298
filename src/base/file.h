/*
 * file.h - opening an input file: regular files only, without waiting.
 *
 * Every reader of a path it was given (a fit file, a library formula)
 * opens it here.  open(2) of a FIFO with no writer blocks until one comes,
 * for ever in a library folder; a device such as /dev/zero or a terminal
 * never ends.  So the path is opened with O_NONBLOCK (which makes that
 * open return at once), its type checked with fstat(2) on the descriptor
 * (no race with a rename between a stat and the open), anything but a
 * regular file refused with an error that says what it is, and
 * O_NONBLOCK cleared for the reads.  Symbolic links are followed.
 *
 * Ownership: the caller closes what it is given.  Thread-safe.
 */
#ifndef SF_FILE_H
#define SF_FILE_H

#include "base/error.h"

#include <stdio.h>
#include <sys/stat.h>

/*
 * Open the regular file at path to read: its descriptor in *fd (close(2)
 * it) and its status in *st.  Returns SF_OK; or SF_EIO with *fd -1 and err
 * at path: "cannot open: REASON" (*st zeroed), or "is a FIFO, not a
 * regular file" (a directory, a character device, ...; *st is what was
 * found, so st_mode tells the two apart).
 */
int sf_file_open(const char *path, int *fd, struct stat *st, sf_error *err);

/* sf_file_open() as a stream opened "rb" in *f (fclose(3) it; NULL on an
 * error). */
int sf_file_fopen(const char *path, FILE **f, sf_error *err);

/* What the file of mode st_mode is, as the errors above name it: "a
 * FIFO", "a directory", "a character device", ... ("a regular file"). */
const char *sf_file_kind(unsigned mode);

/*
 * Read stream in, opened from path, whole into *out (malloc'd, *length
 * bytes), and close it.  More than max bytes is SF_EVALUE at path:
 * "larger than the N MiB WHAT may have" (what: "a model file"), before
 * reading when a regular file's size says so; with stop_at_nul the read
 * ends after a NUL byte (a format that holds none reports it at its
 * place).  SF_EIO on a read error, SF_ENOMEM.
 */
int sf_file_read_all(FILE *in, const char *path, size_t max, const char *what,
                     int stop_at_nul, char **out, size_t *length,
                     sf_error *err);

#endif /* SF_FILE_H */
