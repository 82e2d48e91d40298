/*
 * file.c - input files opened as regular files only (file.h).
 */
#include "base/file.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

const char *
sf_file_kind(unsigned mode)
{
	if (S_ISREG(mode))
		return "a regular file";
	if (S_ISDIR(mode))
		return "a directory";
	if (S_ISFIFO(mode))
		return "a FIFO";
	if (S_ISCHR(mode))
		return "a character device";
	if (S_ISBLK(mode))
		return "a block device";
	if (S_ISSOCK(mode))
		return "a socket";
	return "not a file";
}

int
sf_file_open(const char *path, int *fd, struct stat *st, sf_error *err)
{
	int flags;

	memset(st, 0, sizeof *st);
	/* O_NONBLOCK: a FIFO's open returns at once instead of waiting for
	 * a writer; fstat then tells what was opened. */
	*fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
	if (*fd < 0 || fstat(*fd, st) != 0) {
		int saved = errno;

		if (*fd >= 0)
			close(*fd);
		*fd = -1;
		memset(st, 0, sizeof *st);
		return sf_error_at(err, SF_EIO, path, 0, 0, "cannot open: %s",
		                   strerror(saved));
	}
	if (!S_ISREG(st->st_mode)) {
		close(*fd);
		*fd = -1;
		return sf_error_at(err, SF_EIO, path, 0, 0,
		                   "is %s, not a regular file",
		                   sf_file_kind(st->st_mode));
	}
	if ((flags = fcntl(*fd, F_GETFL)) == -1 ||
	    fcntl(*fd, F_SETFL, flags & ~O_NONBLOCK) == -1) {
		int saved = errno;

		close(*fd);
		*fd = -1;
		return sf_error_at(err, SF_EIO, path, 0, 0, "cannot open: %s",
		                   strerror(saved));
	}
	return SF_OK;
}

int
sf_file_fopen(const char *path, FILE **f, sf_error *err)
{
	struct stat st;
	int fd, rc;

	*f = NULL;
	if ((rc = sf_file_open(path, &fd, &st, err)) != SF_OK)
		return rc;
	if ((*f = fdopen(fd, "rb")) == NULL) {
		int saved = errno;

		close(fd);
		return sf_error_at(err, SF_EIO, path, 0, 0, "cannot open: %s",
		                   strerror(saved));
	}
	return SF_OK;
}

int
sf_file_read_all(FILE *in, const char *path, size_t max, const char *what,
                 int stop_at_nul, char **out, size_t *out_length, sf_error *err)
{
	char *text = NULL;
	size_t length = 0, size = 0;
	struct stat st;
	int rc = SF_OK;

	*out = NULL;
	*out_length = 0;
	for (;;) {
		size_t got;

		/* A bound on memory: /dev/zero fails instead of growing
		 * until the process is killed (scalefit(1) LIMITS). */
		if (length > max ||
		    (length == 0 && fstat(fileno(in), &st) == 0 &&
		     S_ISREG(st.st_mode) && (uintmax_t)st.st_size > max)) {
			rc = sf_error_at(err, SF_EVALUE, path, 0, 0,
			                 "larger than the %zu MiB %s may have",
			                 max >> 20, what);
			goto done;
		}
		if (size - length < 4096) {
			char *grown = realloc(text, size * 2 + 65536);

			if (grown == NULL) {
				rc = sf_error_set(err, SF_ENOMEM,
				                  "out of memory");
				goto done;
			}
			text = grown;
			size = size * 2 + 65536;
		}
		got = fread(text + length, 1, size - length, in);
		length += got;
		if (got == 0 || (stop_at_nul && memchr(text + length - got,
		                                       '\0', got) != NULL))
			break;
	}
	if (ferror(in))
		rc = sf_error_at(err, SF_EIO, path, 0, 0, "cannot read: %s",
		                 strerror(errno));
done:
	fclose(in);
	if (rc != SF_OK) {
		free(text);
		return rc;
	}
	*out = text;
	*out_length = length;
	return SF_OK;
}
