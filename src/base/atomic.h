/*
 * atomic.h - writing an output file so a reader never sees half of it,
 * and never replacing what is not an ordinary file.
 *
 * What the path names decides how it is written:
 * - a symbolic link is followed (to its final target, which may not exist
 *   yet), so the link stays and its target gets the text;
 * - a regular file, or nothing yet: the text goes to a temporary file
 *   beside the target (same directory, so the rename cannot cross file
 *   systems; a short name, so a long target name still fits), is synced,
 *   given the target's permission bits (or 0666 less the umask for a new
 *   file: mkstemp's 0600 would make a report private), and renamed over
 *   the target.  A target that is not writable (or has no write bit at
 *   all, even for root) is refused, not replaced.
 *   On any failure, and on any signal whose default action ends the
 *   process (SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGPIPE, SIGALRM, SIGUSR1,
 *   SIGXCPU, the real-time ones, ...; scalefit(1) SIGNALS) while the
 *   temporary file exists, it is removed and the target is left as it
 *   was; the signal is then raised again with its default action;
 * - a character device (/dev/null, a terminal) or a FIFO is written
 *   directly, never replaced (opening a FIFO waits for its reader);
 * - anything else (a directory, a socket, a block device) is refused.
 *
 * The signal handlers are the one piece of hidden state: they are
 * installed only while a temporary file exists, only for signals whose
 * action was the default, and put that default back before returning.
 * Thread safety: do not write two files at once from two threads.
 */
#ifndef SF_ATOMIC_H
#define SF_ATOMIC_H

#include "base/error.h"

#include <stddef.h>

/* Write length bytes of text to path as above; what names the file in an
 * error ("the report", "the plot").  Returns SF_OK, SF_EIO (an error
 * naming path) or SF_ENOMEM.  On a rank other than 0 of an MPI job
 * (base/units.h) it writes nothing and returns SF_OK: rank 0 writes every
 * output of the job, once. */
int sf_write_atomic(const char *path, const char *text, size_t length,
                    const char *what, sf_error *err);

/* 1 when paths a and b both exist and name the same file (after symbolic
 * links), else 0: a command refuses to write over one of its inputs. */
int sf_file_same(const char *a, const char *b);

#endif /* SF_ATOMIC_H */
