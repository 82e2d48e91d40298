/*
 * bench_csv.c - how fast sf_table_load() reads a large numeric CSV, and how
 * much memory it needs.
 *
 * Writes a 1,000,000-row, 10-column CSV of realistic measurements (worker
 * counts, times like 1234.5678, rates like 3.2e-05; fixed seed, so every run
 * reads the same bytes) to a temporary file, then times sf_table_load() over
 * it five times and reports the median in seconds and MB/s, and the peak
 * resident memory against the 80 MB the doubles need.  As a yardstick it
 * times, on the same file in the same run, the simplest hand-written loader:
 * read the whole file, strtod() each field into preallocated arrays.
 *
 * Usage: bench_csv [ROWS [FILE]]   (defaults: 1000000, a file in /tmp that
 * is removed afterwards).  Peak RSS is measured in a child process that
 * does one load and nothing else (getrusage(RUSAGE_CHILDREN)), as the
 * command-line tool would: in this process, repeated loads and the
 * reference loop's whole-file buffer would set the high-water mark.
 */
#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "input/csv.h"

enum { BENCH_COLUMNS = 10, BENCH_RUNS = 5, BENCH_DEFAULT_ROWS = 1000000 };

/* SplitMix64: a tiny, well-mixed generator, enough for test data. */
static uint64_t
bench_next(uint64_t *state)
{
	uint64_t z = (*state += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/* A uniform double in [0, 1). */
static double
bench_uniform(uint64_t *state)
{
	return (double)(bench_next(state) >> 11) * 0x1.0p-53;
}

static double
bench_seconds(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Write the test file; returns its size in bytes, or -1. */
static long
bench_write(const char *path, long rows)
{
	static const char *const header =
	    "workers,batch,samples,epoch_time_s,compute_s,comm_s,"
	    "io_s,lr,loss,throughput\n";
	uint64_t state = 20240601;
	FILE *f = fopen(path, "w");
	long size;

	if (f == NULL)
		return -1;
	fputs(header, f);
	for (long r = 0; r < rows; r++) {
		int p = 1 << (int)(bench_next(&state) % 11);
		int b = 8 << (int)(bench_next(&state) % 6);
		double u = bench_uniform(&state);

		fprintf(f, "%d,%d,%.6g,%.4f,%.4f,%.5f,%.3e,%.1e,%.6f,%.2f\n", p,
		        b, 1.28e6 * (0.5 + u), 1000 + 9000 * u,
		        800 * bench_uniform(&state),
		        120 * bench_uniform(&state),
		        1e-3 * bench_uniform(&state) + 1e-6,
		        1e-5 * (1 + 9 * bench_uniform(&state)),
		        2.5 * bench_uniform(&state), 50000 * u + 1);
	}
	if (fflush(f) != 0 || ferror(f)) {
		fclose(f);
		return -1;
	}
	size = ftell(f);
	if (fclose(f) != 0)
		return -1;
	return size;
}

/*
 * The yardstick: read everything, then strtod() field after field into
 * BENCH_COLUMNS arrays sized from the row count.  Returns the seconds
 * taken, or a negative value on failure.
 */
static double
bench_reference(const char *path, long rows, double *checksum)
{
	double start = bench_seconds(), sum = 0;
	double *cols[BENCH_COLUMNS] = {0};
	FILE *f = fopen(path, "rb");
	char *text = NULL, *p, *end;
	long size, r = 0;
	int ok = 0;

	if (f == NULL || fseek(f, 0, SEEK_END) != 0 || (size = ftell(f)) < 0 ||
	    fseek(f, 0, SEEK_SET) != 0)
		goto done;
	text = malloc((size_t)size + 1);
	if (text == NULL || fread(text, 1, (size_t)size, f) != (size_t)size)
		goto done;
	text[size] = '\0';
	for (int c = 0; c < BENCH_COLUMNS; c++)
		if ((cols[c] = malloc((size_t)rows * sizeof(double))) == NULL)
			goto done;
	p = strchr(text, '\n') + 1; /* skip the header */
	end = text + size;
	for (; p < end && r < rows; r++) {
		for (int c = 0; c < BENCH_COLUMNS; c++) {
			cols[c][r] = strtod(p, &p);
			p++; /* ',' or '\n' */
		}
	}
	for (long i = 0; i < r; i++)
		sum += cols[BENCH_COLUMNS - 1][i];
	*checksum = sum;
	ok = r == rows;
done:
	for (int c = 0; c < BENCH_COLUMNS; c++)
		free(cols[c]);
	free(text);
	if (f != NULL)
		fclose(f);
	return ok ? bench_seconds() - start : -1.0;
}

/* Peak RSS in bytes of a child process that loads path once, or -1. */
static long
bench_peak_rss(const char *path)
{
	struct rusage ru;
	int wstatus;
	pid_t pid = fork();

	if (pid < 0)
		return -1;
	if (pid == 0) {
		sf_table *t;

		_exit(sf_table_load(path, NULL, &t, NULL) == SF_OK ? 0 : 1);
	}
	if (waitpid(pid, &wstatus, 0) != pid || !WIFEXITED(wstatus) ||
	    WEXITSTATUS(wstatus) != 0)
		return -1;
	if (getrusage(RUSAGE_CHILDREN, &ru) != 0)
		return -1;
	return ru.ru_maxrss * 1024L; /* Linux reports kilobytes */
}

static int
bench_compare(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static double
bench_median(double *v, int n)
{
	qsort(v, (size_t)n, sizeof *v, bench_compare);
	return v[n / 2];
}

int
main(int argc, char **argv)
{
	long rows = argc > 1 ? strtol(argv[1], NULL, 10) : BENCH_DEFAULT_ROWS;
	char path[64] = "/tmp/bench_csv.XXXXXX";
	const char *file = argc > 2 ? argv[2] : path;
	double load[BENCH_RUNS], ref[BENCH_RUNS], sum = 0, ref_sum = 0;
	double mb, data_mb, t_load, t_ref;
	long size, peak;
	int status = 1;

	if (rows <= 0) {
		fprintf(stderr, "bench_csv: ROWS must be a positive integer\n");
		return 2;
	}
	if (argc <= 2) {
		int fd = mkstemp(path);

		if (fd < 0) {
			perror("bench_csv: mkstemp");
			return 1;
		}
		close(fd);
	}
	fprintf(stderr, "writing %ld x %d numeric CSV to %s...\n", rows,
	        BENCH_COLUMNS, file);
	size = bench_write(file, rows);
	if (size < 0) {
		fprintf(stderr, "bench_csv: cannot write %s: %s\n", file,
		        strerror(errno));
		goto done;
	}
	mb = (double)size / 1e6;
	data_mb = (double)rows * BENCH_COLUMNS * sizeof(double) / 1e6;
	peak = bench_peak_rss(file);
	if (peak < 0) {
		fprintf(stderr, "bench_csv: the measuring child failed\n");
		goto done;
	}

	for (int i = 0; i < BENCH_RUNS; i++) {
		sf_table *t;
		sf_error err;
		double start = bench_seconds();

		if (sf_table_load(file, NULL, &t, &err) != SF_OK) {
			char msg[1024];

			sf_error_format(&err, "error", msg, sizeof msg);
			fputs(msg, stderr);
			goto done;
		}
		load[i] = bench_seconds() - start;
		if (sf_table_rows(t) != (size_t)rows ||
		    sf_table_columns(t) != BENCH_COLUMNS) {
			fprintf(stderr, "bench_csv: wrong table shape\n");
			sf_table_free(t);
			goto done;
		}
		sum = 0;
		for (long r = 0; r < rows; r++)
			sum += sf_table_column_values(t, BENCH_COLUMNS - 1)[r];
		sf_table_free(t);
	}
	for (int i = 0; i < BENCH_RUNS; i++) {
		ref[i] = bench_reference(file, rows, &ref_sum);
		if (ref[i] < 0) {
			fprintf(stderr, "bench_csv: reference loop failed\n");
			goto done;
		}
	}
	if (sum != ref_sum) {
		fprintf(stderr, "bench_csv: checksums differ: %.17g vs %.17g\n",
		        sum, ref_sum);
		goto done;
	}
	t_load = bench_median(load, BENCH_RUNS);
	t_ref = bench_median(ref, BENCH_RUNS);
	printf("file:            %ld rows x %d columns, %.1f MB\n", rows,
	       BENCH_COLUMNS, mb);
	printf("sf_table_load:   %.3f s median of %d (%.0f MB/s)\n", t_load,
	       BENCH_RUNS, mb / t_load);
	printf("read + strtod:   %.3f s median of %d (%.0f MB/s)\n", t_ref,
	       BENCH_RUNS, mb / t_ref);
	printf("ratio:           %.2f x the plain strtod loop\n",
	       t_load / t_ref);
	printf("peak RSS:        %.1f MB for %.1f MB of doubles (%.2f x), "
	       "one load in a fresh process\n",
	       (double)peak / 1e6, data_mb, (double)peak / 1e6 / data_mb);
	status = 0;
done:
	if (argc <= 2)
		remove(path);
	return status;
}
