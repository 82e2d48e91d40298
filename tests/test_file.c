/*
 * test_file.c - input files opened as regular files only: a FIFO, a
 * directory and a device refused at once with what they are, a regular
 * file read; and the formula library skipping a FIFO with a warning.
 */
#include "base/file.h"
#include "input/library.h"
#include "testing.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static char dir[] = "/tmp/scalefit-test-file.XXXXXX";

static int
setup(void)
{
	return mkdtemp(dir) == NULL;
}

static int
teardown(void)
{
	char cmd[sizeof dir + 16];

	snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
	return system(cmd) != 0;
}

static void
test_open_kinds(void)
{
	char path[256];
	struct stat st;
	sf_error err;
	FILE *f;
	int fd;

	sf_error_clear(&err);
	snprintf(path, sizeof path, "%s/fifo", dir);
	CU_ASSERT_EQUAL_FATAL(mkfifo(path, 0600), 0);
	/* returns at once, no writer needed */
	CU_ASSERT_EQUAL(sf_file_open(path, &fd, &st, &err), SF_EIO);
	CU_ASSERT_EQUAL(fd, -1);
	CU_ASSERT_TRUE(S_ISFIFO(st.st_mode));
	CU_ASSERT_STRING_EQUAL(err.message, "is a FIFO, not a regular file");
	CU_ASSERT_EQUAL(sf_file_fopen(dir, &f, &err), SF_EIO);
	CU_ASSERT_PTR_NULL(f);
	CU_ASSERT_STRING_EQUAL(err.message,
	                       "is a directory, not a regular file");
	CU_ASSERT_EQUAL(sf_file_fopen("/dev/null", &f, &err), SF_EIO);
	CU_ASSERT_STRING_EQUAL(err.message,
	                       "is a character device, not a regular file");
	snprintf(path, sizeof path, "%s/missing", dir);
	CU_ASSERT_EQUAL(sf_file_open(path, &fd, &st, &err), SF_EIO);
	CU_ASSERT_EQUAL(st.st_mode, 0u);
	CU_ASSERT_PTR_NOT_NULL(strstr(err.message, "cannot open: "));
	CU_ASSERT_STRING_EQUAL(err.file, path);
	/* a regular file reads, blocking as usual */
	snprintf(path, sizeof path, "%s/text", dir);
	f = fopen(path, "w");
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	fputs("abc", f);
	fclose(f);
	CU_ASSERT_EQUAL_FATAL(sf_file_fopen(path, &f, &err), SF_OK);
	{
		char buf[8] = "";

		CU_ASSERT_EQUAL(fread(buf, 1, sizeof buf, f), 3u);
		CU_ASSERT_STRING_EQUAL(buf, "abc");
	}
	fclose(f);
}

static void
collect(void *ctx, const sf_error *w)
{
	snprintf(ctx, SF_ERROR_MESSAGE_MAX, "%s", w->message);
}

static void
test_library_skips_fifo(void)
{
	char path[256], warned[SF_ERROR_MESSAGE_MAX] = "", *found = NULL;
	sf_library_entry *e = NULL;
	size_t n = 0;
	sf_error err;
	FILE *f;

	sf_error_clear(&err);
	snprintf(path, sizeof path, "%s/expressions", dir);
	CU_ASSERT_EQUAL_FATAL(mkdir(path, 0700), 0);
	snprintf(path, sizeof path, "%s/expressions/fifo.yaml", dir);
	CU_ASSERT_EQUAL_FATAL(mkfifo(path, 0600), 0);
	snprintf(path, sizeof path, "%s/expressions/one.yaml", dir);
	CU_ASSERT_PTR_NOT_NULL_FATAL(f = fopen(path, "w"));
	fputs("# the one formula\n", f);
	fclose(f);
	CU_ASSERT_EQUAL_FATAL(
	    sf_library_list(dir, collect, warned, &e, &n, &err), SF_OK);
	CU_ASSERT_EQUAL(n, 1u);
	CU_ASSERT_STRING_EQUAL(e[0].name, "one");
	CU_ASSERT_STRING_EQUAL(e[0].description, "the one formula");
	CU_ASSERT_STRING_EQUAL(
	    warned, "is a FIFO, not a regular file: skipped, not a formula");
	sf_library_entries_free(e, n);
	CU_ASSERT_EQUAL(sf_library_find(dir, "fifo", NULL, NULL, &found, &err),
	                SF_ENAME);
	CU_ASSERT_PTR_NULL(found);
}

int
main(void)
{
	CU_TestInfo tests[] = {
	    {"a FIFO, directory or device is refused", test_open_kinds},
	    {"the library skips a FIFO", test_library_skips_fifo},
	    CU_TEST_INFO_NULL,
	};
	CU_SuiteInfo suites[] = {{"file", setup, teardown, NULL, NULL, tests},
	                         CU_SUITE_INFO_NULL};

	return sf_test_main(suites);
}
