/*
 * atomic.c - symbolic links followed, devices written in place, regular
 * files through a temporary file, sync and rename.
 */
#include "base/atomic.h"
#include "base/units.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

enum { LINK_MAX_DEPTH = 40, TMP_PATH_MAX = 4096 };

/* The signals handled: 1 to SIGRTMAX at most (glibc's NSIG is 65). */
enum { SIGNALS = 65 };

/* The temporary file a signal handler removes: set, then armed. */
static char pending_tmp[TMP_PATH_MAX];
static volatile sig_atomic_t pending_armed;

/* 1 when sig's default action ends the process: every signal but those
 * that cannot be caught, stop the process or are ignored by default. */
static int
terminates(int sig)
{
	static const int spared[] = {
	    SIGKILL,  SIGSTOP, SIGCHLD, SIGCONT,
	    SIGTSTP,  SIGTTIN, SIGTTOU, SIGURG,
#ifdef SIGWINCH
	    SIGWINCH,
#endif
	};

	for (size_t k = 0; k < sizeof spared / sizeof spared[0]; k++)
		if (sig == spared[k])
			return 0;
	return 1;
}

/* Async-signal-safe: unlink, sigaction and raise only.  The default
 * action is back before the signal is raised again, so the process ends
 * as it would have without us (a core dump for SIGQUIT, SIGSEGV, ...). */
static void
on_signal(int sig)
{
	struct sigaction dfl;
	int saved = errno;

	if (pending_armed)
		unlink(pending_tmp);
	pending_armed = 0;
	memset(&dfl, 0, sizeof dfl);
	dfl.sa_handler = SIG_DFL;
	sigemptyset(&dfl.sa_mask);
	sigaction(sig, &dfl, NULL);
	raise(sig);
	errno = saved;
}

/* Install on_signal for every signal that would end the process and is
 * left at its default action (SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGPIPE,
 * SIGALRM, SIGUSR1, SIGXCPU, ...: a temporary file of 172 MB was left by
 * five of them); installed[sig] says which. */
static void
catch_signals(unsigned char installed[SIGNALS])
{
	for (int sig = 1; sig < SIGNALS; sig++) {
		struct sigaction old, act;

		installed[sig] = 0;
		if (!terminates(sig) || sigaction(sig, NULL, &old) != 0 ||
		    old.sa_handler != SIG_DFL ||
		    (old.sa_flags & SA_SIGINFO) != 0)
			continue;
		memset(&act, 0, sizeof act);
		act.sa_handler = on_signal;
		sigemptyset(&act.sa_mask);
		installed[sig] = sigaction(sig, &act, NULL) == 0;
	}
}

static void
release_signals(const unsigned char installed[SIGNALS])
{
	for (int sig = 1; sig < SIGNALS; sig++) {
		struct sigaction dfl;

		if (!installed[sig])
			continue;
		memset(&dfl, 0, sizeof dfl);
		dfl.sa_handler = SIG_DFL;
		sigemptyset(&dfl.sa_mask);
		sigaction(sig, &dfl, NULL);
	}
}

/* Block (or unblock) the caught signals around arming and disarming. */
static void
block_signals(int how, sigset_t *old)
{
	sigset_t set;

	sigemptyset(&set);
	for (int sig = 1; sig < SIGNALS; sig++)
		if (terminates(sig) && sig != SIGKILL && sig != SIGSTOP)
			sigaddset(&set, sig);
	sigprocmask(how, how == SIG_BLOCK ? &set : old,
	            how == SIG_BLOCK ? old : NULL);
}

/* The path's final target after symbolic links (a copy, which may not
 * exist yet), or NULL with errno set. */
static char *
follow_links(const char *path)
{
	char *cur = strdup(path);

	for (int depth = 0; cur != NULL; depth++) {
		struct stat st;
		char link[PATH_MAX + 1];
		ssize_t n;
		char *next;
		const char *slash;

		if (lstat(cur, &st) != 0 || !S_ISLNK(st.st_mode))
			return cur;
		if (depth == LINK_MAX_DEPTH) {
			free(cur);
			errno = ELOOP;
			return NULL;
		}
		if ((n = readlink(cur, link, PATH_MAX)) < 0) {
			free(cur);
			return NULL;
		}
		link[n] = '\0';
		slash = strrchr(cur, '/');
		if (link[0] == '/' || slash == NULL) {
			next = strdup(link);
		} else {
			size_t dir = (size_t)(slash - cur) + 1;

			if ((next = malloc(dir + (size_t)n + 1)) != NULL) {
				memcpy(next, cur, dir);
				memcpy(next + dir, link, (size_t)n + 1);
			}
		}
		free(cur);
		cur = next;
	}
	return NULL;
}

static int
write_all(int fd, const char *text, size_t length)
{
	for (size_t done = 0; done < length;) {
		ssize_t w = write(fd, text + done, length - done);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0) {
			if (w == 0)
				errno = EIO;
			return -1;
		}
		done += (size_t)w;
	}
	return 0;
}

/* A character device or FIFO: written in place, never replaced. */
static int
write_direct(const char *path, const char *target, const char *text,
             size_t length, const char *what, sf_error *err)
{
	int fd = open(target, O_WRONLY | O_NOCTTY);

	if (fd < 0 || write_all(fd, text, length) != 0) {
		int e = errno;

		if (fd >= 0)
			close(fd);
		return sf_error_at(err, SF_EIO, path, 0, 0,
		                   "cannot write %s: %s", what, strerror(e));
	}
	if (close(fd) != 0)
		return sf_error_at(err, SF_EIO, path, 0, 0,
		                   "cannot write %s: %s", what,
		                   strerror(errno));
	return SF_OK;
}

/* The temporary file's template: the target's directory and a short
 * name, so that a target name near NAME_MAX still has room. */
static char *
tmp_template(const char *target)
{
	const char *slash = strrchr(target, '/');
	size_t dir = slash == NULL ? 0 : (size_t)(slash - target) + 1;
	char *tmp = malloc(dir + sizeof ".scalefit-XXXXXX");

	if (tmp != NULL) {
		memcpy(tmp, target, dir);
		memcpy(tmp + dir, ".scalefit-XXXXXX",
		       sizeof ".scalefit-XXXXXX");
	}
	return tmp;
}

/* How the target is written: replaced through a temporary file with
 * *mode, or (*direct) written in place, a device or FIFO. */
static int
inspect_target(const char *path, const char *target, const char *what,
               mode_t *mode, int *direct, sf_error *err)
{
	struct stat st;
	int e;

	*direct = 0;
	if (stat(target, &st) == 0) {
		if (S_ISCHR(st.st_mode) || S_ISFIFO(st.st_mode)) {
			*direct = 1;
			return SF_OK;
		}
		if (!S_ISREG(st.st_mode))
			return sf_error_at(err, SF_EIO, path, 0, 0,
			                   "cannot write %s: not a regular "
			                   "file, character device or FIFO",
			                   what);
		/* No write bit at all is read-only even for root, who
		 * access() would let through. */
		if (access(target, W_OK) != 0 || (st.st_mode & 0222) == 0) {
			e = (st.st_mode & 0222) == 0 ? EACCES : errno;
			return sf_error_at(err, SF_EIO, path, 0, 0,
			                   "cannot write %s: %s", what,
			                   strerror(e));
		}
		*mode = st.st_mode & 07777;
	} else if (errno == ENOENT) {
		mode_t mask = umask(0);

		umask(mask);
		*mode = 0666 & ~mask;
	} else {
		e = errno;
		return sf_error_at(err, SF_EIO, path, 0, 0,
		                   "cannot write %s: %s", what, strerror(e));
	}
	return SF_OK;
}

/* Create the temporary file tmp (a template) and arm its removal by the
 * caught signals (installed says which handlers are ours).  Returns its
 * descriptor, or -1 with errno set. */
static int
create_tmp(char *tmp, unsigned char installed[SIGNALS])
{
	sigset_t old;
	int fd, e;

	block_signals(SIG_BLOCK, &old);
	fd = mkstemp(tmp);
	e = errno;
	if (fd >= 0 && strlen(tmp) < sizeof pending_tmp) {
		memcpy(pending_tmp, tmp, strlen(tmp) + 1);
		pending_armed = 1;
		catch_signals(installed);
	}
	block_signals(SIG_SETMASK, &old);
	errno = e;
	return fd;
}

/* Rename tmp over target and, when it is done, disarm the signals' removal
 * of tmp.  Returns rename's result, errno its. */
static int
install_tmp(const char *tmp, const char *target,
            const unsigned char installed[SIGNALS])
{
	sigset_t old;
	int rc, e;

	block_signals(SIG_BLOCK, &old);
	rc = rename(tmp, target);
	e = errno;
	if (rc == 0) {
		pending_armed = 0;
		release_signals(installed);
	}
	block_signals(SIG_SETMASK, &old);
	errno = e;
	return rc;
}

/* After a failure: close fd (unless -1), remove tmp and disarm. */
static void
discard_tmp(int fd, const char *tmp, const unsigned char installed[SIGNALS])
{
	sigset_t old;

	if (fd >= 0)
		close(fd);
	block_signals(SIG_BLOCK, &old);
	remove(tmp);
	pending_armed = 0;
	release_signals(installed);
	block_signals(SIG_SETMASK, &old);
}

int
sf_write_atomic(const char *path, const char *text, size_t length,
                const char *what, sf_error *err)
{
	char *target = NULL, *tmp = NULL;
	unsigned char installed[SIGNALS] = {0};
	mode_t mode = 0;
	int fd = -1, rc, direct;

	if (!sf_units_root())
		return SF_OK;

	if (path[0] == '\0')
		return sf_error_set(
		    err, SF_EIO, "cannot write %s to an empty file name", what);
	if ((target = follow_links(path)) == NULL)
		return errno == ENOMEM
		           ? sf_error_set(err, SF_ENOMEM, "out of memory")
		           : sf_error_at(err, SF_EIO, path, 0, 0,
		                         "cannot follow the symbolic link: %s",
		                         strerror(errno));
	rc = inspect_target(path, target, what, &mode, &direct, err);
	if (rc != SF_OK || direct) {
		if (rc == SF_OK)
			rc =
			    write_direct(path, target, text, length, what, err);
		free(target);
		return rc;
	}
	if ((tmp = tmp_template(target)) == NULL) {
		free(target);
		return sf_error_set(err, SF_ENOMEM, "out of memory");
	}
	if ((fd = create_tmp(tmp, installed)) < 0) {
		sf_error_at(err, SF_EIO, path, 0, 0,
		            "cannot create a file beside it: %s",
		            strerror(errno));
		free(tmp);
		free(target);
		return SF_EIO;
	}
	if (write_all(fd, text, length) != 0 || fchmod(fd, mode) != 0 ||
	    fsync(fd) != 0)
		goto fail;
	rc = close(fd);
	fd = -1;
	if (rc != 0 || install_tmp(tmp, target, installed) != 0)
		goto fail;
	free(tmp);
	free(target);
	return SF_OK;
fail:
	sf_error_at(err, SF_EIO, path, 0, 0, "cannot write %s: %s", what,
	            strerror(errno));
	discard_tmp(fd, tmp, installed);
	free(tmp);
	free(target);
	return SF_EIO;
}

int
sf_file_same(const char *a, const char *b)
{
	struct stat sa, sb;

	return stat(a, &sa) == 0 && stat(b, &sb) == 0 &&
	       sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
}
