/*
 * standalone.c - main() for a fuzz target without libFuzzer: runs the
 * target's LLVMFuzzerTestOneInput once on every file named on the command
 * line or found in the directories named there, then prints
 * "NAME: N inputs run" (NAME from argv[0]) for tests/fuzz/smoke.sh.  make
 * check links it to each tests/fuzz/fuzz_*.c; tests/fuzz/libfuzzer.sh
 * leaves it out, as libFuzzer brings its own main().
 */
#define _POSIX_C_SOURCE 200809L

#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "fuzz.h"

/* Run the target on the file at path; returns 0, or 1 if unreadable. */
static int
fuzz_file(const char *path)
{
	FILE *f = fopen(path, "rb");
	unsigned char *buf = NULL;
	size_t len = 0, cap = 0, n;

	if (f == NULL) {
		perror(path);
		return 1;
	}
	do {
		if (len == cap) {
			unsigned char *more;

			cap = cap ? 2 * cap : 4096;
			more = realloc(buf, cap);
			if (more == NULL) {
				free(buf);
				fclose(f);
				return 1;
			}
			buf = more;
		}
		n = fread(buf + len, 1, cap - len, f);
		len += n;
	} while (n > 0);
	fclose(f);
	LLVMFuzzerTestOneInput(buf, len);
	free(buf);
	return 0;
}

int
main(int argc, char **argv)
{
	const char *name = strrchr(argv[0], '/');
	int failed = 0, runs = 0;

	for (int i = 1; i < argc; i++) {
		struct stat st;
		DIR *dir;
		struct dirent *e;

		if (stat(argv[i], &st) != 0 || !S_ISDIR(st.st_mode)) {
			failed |= fuzz_file(argv[i]);
			runs++;
			continue;
		}
		if ((dir = opendir(argv[i])) == NULL) {
			perror(argv[i]);
			failed = 1;
			continue;
		}
		while ((e = readdir(dir)) != NULL) {
			char path[4096];

			if (e->d_name[0] == '.')
				continue;
			snprintf(path, sizeof path, "%s/%s", argv[i],
			         e->d_name);
			failed |= fuzz_file(path);
			runs++;
		}
		closedir(dir);
	}
	fprintf(stderr, "%s: %d inputs run\n",
	        name != NULL ? name + 1 : argv[0], runs);
	return failed;
}
