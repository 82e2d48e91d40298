/*
 * test_atomic.c - outputs written whole, and never over what is not an
 * ordinary file: modes kept, read-only targets refused, links followed,
 * FIFOs written in place, long names, and no temporary file left by a
 * signal.
 */
#define _GNU_SOURCE /* timer_create's sigevent */

#include "base/atomic.h"
#include "base/error.h"
#include "testing.h"

#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static char dir[64];

static int
setup(void)
{
	strcpy(dir, "/tmp/sf-atomic.XXXXXX");
	return mkdtemp(dir) == NULL;
}

static int
teardown(void)
{
	char cmd[128];

	snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
	return system(cmd) != 0;
}

static char *
in_dir(const char *name)
{
	static char path[1024];

	snprintf(path, sizeof path, "%s/%s", dir, name);
	return path;
}

/* Files in dir whose name starts with prefix. */
static int
count_files(const char *prefix)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int n = 0;

	while (d != NULL && (e = readdir(d)) != NULL)
		n += strncmp(e->d_name, prefix, strlen(prefix)) == 0;
	if (d != NULL)
		closedir(d);
	return n;
}

/* Entries of directory path, but . and .. */
static int
count_entries(const char *path)
{
	DIR *d = opendir(path);
	struct dirent *e;
	int n = 0;

	while (d != NULL && (e = readdir(d)) != NULL)
		n +=
		    strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0;
	if (d != NULL)
		closedir(d);
	return n;
}

static void
slurp(const char *path, char *buf, size_t size)
{
	FILE *f = fopen(path, "r");
	size_t n = f != NULL ? fread(buf, 1, size - 1, f) : 0;

	buf[n] = '\0';
	if (f != NULL)
		fclose(f);
}

static void
test_mode_kept(void)
{
	char *path = in_dir("mode.json");
	struct stat st;
	char buf[64];
	sf_error err;

	CU_ASSERT(sf_write_atomic(path, "old\n", 4, "the report", &err) ==
	          SF_OK);
	CU_ASSERT(chmod(path, 0664) == 0);
	CU_ASSERT(sf_write_atomic(path, "new\n", 4, "the report", &err) ==
	          SF_OK);
	CU_ASSERT(stat(path, &st) == 0 && (st.st_mode & 07777) == 0664);
	slurp(path, buf, sizeof buf);
	CU_ASSERT_STRING_EQUAL(buf, "new\n");
	CU_ASSERT(count_files(".scalefit-") == 0);
}

static void
test_read_only_refused(void)
{
	char *path = in_dir("ro.json");
	char buf[64];
	sf_error err;

	CU_ASSERT(sf_write_atomic(path, "old\n", 4, "the report", &err) ==
	          SF_OK);
	CU_ASSERT(chmod(path, 0444) == 0);
	CU_ASSERT(sf_write_atomic(path, "new\n", 4, "the report", &err) ==
	          SF_EIO);
	CU_ASSERT(strstr(err.message, "Permission denied") != NULL);
	slurp(path, buf, sizeof buf);
	CU_ASSERT_STRING_EQUAL(buf, "old\n");
	CU_ASSERT(count_files(".scalefit-") == 0);
}

static void
test_symlink_followed(void)
{
	char target[1024], buf[64];
	struct stat st;
	sf_error err;

	snprintf(target, sizeof target, "%s", in_dir("target.json"));
	CU_ASSERT(symlink("target.json", in_dir("link.json")) == 0);
	/* Dangling: the target is created, the link stays. */
	CU_ASSERT(sf_write_atomic(in_dir("link.json"), "one\n", 4, "the plot",
	                          &err) == SF_OK);
	CU_ASSERT(lstat(in_dir("link.json"), &st) == 0 && S_ISLNK(st.st_mode));
	slurp(target, buf, sizeof buf);
	CU_ASSERT_STRING_EQUAL(buf, "one\n");
	CU_ASSERT(sf_write_atomic(in_dir("link.json"), "two\n", 4, "the plot",
	                          &err) == SF_OK);
	CU_ASSERT(lstat(in_dir("link.json"), &st) == 0 && S_ISLNK(st.st_mode));
	slurp(target, buf, sizeof buf);
	CU_ASSERT_STRING_EQUAL(buf, "two\n");
	CU_ASSERT(sf_file_same(in_dir("link.json"), target));
	snprintf(target, sizeof target, "%s", in_dir("mode.json"));
	CU_ASSERT(!sf_file_same(in_dir("link.json"), target));
}

static void
test_fifo_in_place(void)
{
	char *path = in_dir("fifo");
	char buf[64] = {0};
	struct stat st;
	sf_error err;
	pid_t pid;
	int fd, status;

	CU_ASSERT_FATAL(mkfifo(path, 0600) == 0);
	/* The reader first, not blocking, so a writer that replaced the
	 * FIFO fails the test instead of hanging it. */
	fd = open(path, O_RDONLY | O_NONBLOCK);
	CU_ASSERT_FATAL(fd >= 0);
	fflush(NULL);
	if ((pid = fork()) == 0)
		_exit(sf_write_atomic(path, "fifo\n", 5, "the report", &err));
	CU_ASSERT(waitpid(pid, &status, 0) == pid && WIFEXITED(status) &&
	          WEXITSTATUS(status) == SF_OK);
	CU_ASSERT(read(fd, buf, sizeof buf - 1) == 5);
	close(fd);
	CU_ASSERT_STRING_EQUAL(buf, "fifo\n");
	CU_ASSERT(lstat(path, &st) == 0 && S_ISFIFO(st.st_mode));
	/* A directory is neither replaced nor written. */
	CU_ASSERT(sf_write_atomic(dir, "x", 1, "the report", &err) == SF_EIO);
	CU_ASSERT(strstr(err.message, "not a regular file") != NULL);
	CU_ASSERT(sf_write_atomic("", "x", 1, "the report", &err) == SF_EIO);
	CU_ASSERT(strstr(err.message, "empty file name") != NULL);
}

static void
test_long_name(void)
{
	char name[251], buf[64];
	sf_error err;

	memset(name, 'a', 250);
	name[250] = '\0';
	CU_ASSERT(sf_write_atomic(in_dir(name), "long\n", 5, "the report",
	                          &err) == SF_OK);
	slurp(in_dir(name), buf, sizeof buf);
	CU_ASSERT_STRING_EQUAL(buf, "long\n");
}

/* Signal sig while a large text is written: the process ends by the
 * signal and leaves neither the target nor a temporary file. */
static void
signal_removes_tmp(int sig, const char *name)
{
	size_t length = (size_t)64 << 20;
	char sub[1024];
	int status;
	pid_t pid;

	snprintf(sub, sizeof sub, "%s", in_dir(name));
	CU_ASSERT_FATAL(mkdir(sub, 0700) == 0);
	fflush(NULL);
	if ((pid = fork()) == 0) {
		char *text = malloc(length), path[1100];
		struct sigevent ev = {0};
		struct itimerspec at = {{0, 0}, {0, 2000000}};
		struct rlimit none = {0, 0};
		timer_t timer;
		sf_error err;

		if (text == NULL)
			_exit(99);
		setrlimit(RLIMIT_CORE, &none); /* SIGQUIT dumps core */
		/* A shell's background job inherits SIGINT and SIGQUIT
		 * ignored, which sf_write_atomic keeps ignored: the test is of
		 * the default action. */
		signal(sig, SIG_DFL);
		memset(text, 'x', length);
		snprintf(path, sizeof path, "%s/big.json", sub);
		ev.sigev_notify = SIGEV_SIGNAL;
		ev.sigev_signo = sig;
		if (timer_create(CLOCK_MONOTONIC, &ev, &timer) != 0 ||
		    timer_settime(timer, 0, &at, NULL) != 0)
			_exit(98);
		/* The timer fires in 2 ms: a few writes at most, never a
		 * hang when the signal does not end the process. */
		for (int i = 0; i < 1000; i++)
			sf_write_atomic(path, text, length, "the report", &err);
		_exit(97);
	}
	CU_ASSERT(waitpid(pid, &status, 0) == pid && WIFSIGNALED(status) &&
	          WTERMSIG(status) == sig);
	if (count_entries(sub) != 0)
		printf("\n    %s left a file", name);
	CU_ASSERT(count_entries(sub) == 0);
}

/* Every signal whose default action ends the process cleans up: SIGTERM,
 * SIGINT, SIGHUP, and the five the third campaign found leaving 172 MB
 * behind (SIGQUIT, SIGUSR1, SIGALRM, SIGXCPU, SIGPIPE), SIGUSR2 and a
 * real-time signal. */
static void
test_signal_removes_tmp(void)
{
	static const struct {
		int sig;
		const char *name;
	} sigs[] = {{SIGTERM, "term"}, {SIGINT, "int"},   {SIGHUP, "hup"},
	            {SIGQUIT, "quit"}, {SIGUSR1, "usr1"}, {SIGALRM, "alrm"},
	            {SIGXCPU, "xcpu"}, {SIGPIPE, "pipe"}, {SIGUSR2, "usr2"}};

	for (size_t k = 0; k < sizeof sigs / sizeof sigs[0]; k++)
		signal_removes_tmp(sigs[k].sig, sigs[k].name);
	signal_removes_tmp(SIGRTMIN + 1, "rt");
	/* What the process had is back after a write (the default action,
	 * or SIG_IGN for a shell's background job's SIGINT and SIGQUIT). */
	{
		struct sigaction term, quit, now;
		sf_error err;

		CU_ASSERT(sigaction(SIGTERM, NULL, &term) == 0);
		CU_ASSERT(sigaction(SIGQUIT, NULL, &quit) == 0);
		CU_ASSERT(sf_write_atomic(in_dir("small.json"), "s", 1,
		                          "the report", &err) == SF_OK);
		CU_ASSERT(sigaction(SIGTERM, NULL, &now) == 0 &&
		          now.sa_handler == term.sa_handler);
		CU_ASSERT(sigaction(SIGQUIT, NULL, &now) == 0 &&
		          now.sa_handler == quit.sa_handler);
	}
}

int
main(void)
{
	static CU_TestInfo tests[] = {
	    {"the target's mode is kept", test_mode_kept},
	    {"a read-only target is refused", test_read_only_refused},
	    {"a symbolic link is followed", test_symlink_followed},
	    {"a FIFO is written in place", test_fifo_in_place},
	    {"a 250-character name", test_long_name},
	    {"a signal removes the temporary file", test_signal_removes_tmp},
	    CU_TEST_INFO_NULL,
	};
	static CU_SuiteInfo suites[] = {
	    {"atomic", setup, teardown, NULL, NULL, tests},
	    CU_SUITE_INFO_NULL,
	};
	return sf_test_main(suites);
}
