/*
 * atomic.c - temporary file, sync, rename.
 */
#include "base/atomic.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int
sf_write_atomic(const char *path, const char *text, size_t length,
                const char *what, sf_error *err)
{
	size_t n = strlen(path);
	char *tmp = malloc(n + 16);
	mode_t mask;
	int fd;

	if (tmp == NULL)
		return sf_error_set(err, SF_ENOMEM, "out of memory");
	snprintf(tmp, n + 16, "%s.tmp.XXXXXX", path);
	if ((fd = mkstemp(tmp)) < 0) {
		sf_error_at(err, SF_EIO, path, 0, 0,
		            "cannot create a file beside it: %s",
		            strerror(errno));
		free(tmp);
		return SF_EIO;
	}
	mask = umask(0);
	umask(mask);
	for (size_t done = 0; done < length;) {
		ssize_t w = write(fd, text + done, length - done);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			goto fail;
		done += (size_t)w;
	}
	if (fchmod(fd, 0666 & ~mask) != 0 || fsync(fd) != 0)
		goto fail;
	if (close(fd) != 0) {
		fd = -1;
		goto fail;
	}
	fd = -1;
	if (rename(tmp, path) != 0)
		goto fail;
	free(tmp);
	return SF_OK;
fail:
	sf_error_at(err, SF_EIO, path, 0, 0, "cannot write %s: %s", what,
	            strerror(errno));
	if (fd >= 0)
		close(fd);
	remove(tmp);
	free(tmp);
	return SF_EIO;
}
