/*
 * bench_api.c - FITS fits of a model to a CSV's rows through the public C
 * API, each as the Python module's scalefit.fit(model, data=DataFrame,
 * threads=1) makes it: the model opened, the rows given as columns
 * (numbers, and text columns as codes into their values, as a DataFrame's
 * are given), the settings made ("threads" 1), the fit run and its
 * constants read, everything freed.  The CSV is read once, before the
 * clock starts.  Prints the seconds of the FITS fits, wall clock and CPU
 * time, and the first constant (to check both made the same fit).
 * bench/bench_python.py runs it against the same fits from Python.
 *
 *   bench/bench_api FITS MODEL.yaml DATA.csv   (a CSV without quotes)
 */
#include "api/scalefit.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

enum { MAX_COLUMNS = 64, MAX_LINE = 65536 };

/* A column as the Python module gives it. */
typedef struct column {
	char *name;
	int numeric;
	double *values; /* numeric */
	char **levels;  /* text: distinct cells */
	size_t nlevels;
	int64_t *codes;
	char **cells; /* as read */
} column;

static column columns[MAX_COLUMNS];
static size_t ncolumns, nrows, cap;

/* Room for one more row in every column. */
static void
grow(void)
{
	cap = cap > 0 ? 2 * cap : 1024;
	for (size_t j = 0; j < ncolumns; j++)
		columns[j].cells =
		    realloc(columns[j].cells, cap * sizeof(char *));
}

/* Read the CSV at path into columns of cells. */
static int
read_csv(const char *path)
{
	FILE *in = fopen(path, "r");
	static char line[MAX_LINE];

	if (in == NULL || fgets(line, sizeof line, in) == NULL)
		return -1;
	for (char *save = NULL, *t = strtok_r(line, ",\r\n", &save);
	     t != NULL && ncolumns < MAX_COLUMNS;
	     t = strtok_r(NULL, ",\r\n", &save))
		columns[ncolumns++].name = strdup(t);
	while (fgets(line, sizeof line, in) != NULL) {
		char *p = line;

		if (nrows == cap)
			grow();
		line[strcspn(line, "\r\n")] = '\0';
		for (size_t j = 0; j < ncolumns; j++) {
			size_t n = strcspn(p, ",");
			int last = p[n] == '\0';

			p[n] = '\0';
			columns[j].cells[nrows] = strdup(p);
			p += last ? n : n + 1;
		}
		nrows++;
	}
	fclose(in);
	return 0;
}

/* Type every column: numbers when every cell reads as one, else codes. */
static void
type_columns(void)
{
	for (size_t j = 0; j < ncolumns; j++) {
		column *c = &columns[j];
		char *end;

		c->numeric = 1;
		c->values = malloc(nrows * sizeof *c->values);
		for (size_t i = 0; i < nrows && c->numeric; i++) {
			c->values[i] = strtod(c->cells[i], &end);
			c->numeric = end != c->cells[i] && *end == '\0';
		}
		if (c->numeric)
			continue;
		c->codes = malloc(nrows * sizeof *c->codes);
		c->levels = malloc(nrows * sizeof *c->levels);
		for (size_t i = 0; i < nrows; i++) {
			size_t k = 0;

			while (k < c->nlevels &&
			       strcmp(c->levels[k], c->cells[i]) != 0)
				k++;
			if (k == c->nlevels)
				c->levels[c->nlevels++] = c->cells[i];
			c->codes[i] = (int64_t)k;
		}
	}
}

/* One fit as scalefit.fit(model, data=df) makes it; its first constant,
 * or -1 with e. */
static double
one_fit(const char *model_path, scalefit_error *e)
{
	scalefit_model *m = NULL;
	scalefit_data *d = NULL;
	scalefit_settings *s = NULL;
	scalefit_fit *f = NULL;
	double first = 0;
	int rc;

	rc = scalefit_model_open(model_path, &m, e);
	if (rc == SCALEFIT_OK)
		rc = scalefit_data_new("<DataFrame>", &d, e);
	for (size_t j = 0; j < ncolumns && rc == SCALEFIT_OK; j++) {
		const column *c = &columns[j];

		rc = c->numeric
		         ? scalefit_data_add_numbers(d, c->name, c->values,
		                                     nrows, e)
		         : scalefit_data_add_levels(
		               d, c->name, (const char *const *)c->levels,
		               c->nlevels, c->codes, nrows, e);
	}
	if (rc == SCALEFIT_OK)
		rc = scalefit_settings_new(&s, e);
	if (rc == SCALEFIT_OK)
		rc = scalefit_settings_set(s, "threads", "1", e);
	if (rc == SCALEFIT_OK)
		rc = scalefit_run_fit(m, d, s, &f, e);
	for (size_t i = 0;
	     rc == SCALEFIT_OK && i < scalefit_fit_parameter_count(f); i++) {
		double v = scalefit_fit_value(f, i);

		(void)scalefit_fit_parameter_name(f, i);
		(void)scalefit_fit_stderr(f, i);
		if (i == 0)
			first = v;
	}
	scalefit_fit_free(f);
	scalefit_settings_free(s);
	scalefit_data_free(d);
	scalefit_model_free(m);
	return rc == SCALEFIT_OK ? first : -1;
}

/* Seconds from a to b. */
static double
seconds(const struct timespec *a, const struct timespec *b)
{
	return (double)(b->tv_sec - a->tv_sec) +
	       1e-9 * (double)(b->tv_nsec - a->tv_nsec);
}

int
main(int argc, char **argv)
{
	struct timespec t0, t1, c0, c1;
	scalefit_error e;
	double first = 0;
	long fits;

	if (argc != 4 || (fits = strtol(argv[1], NULL, 10)) < 1) {
		fprintf(stderr, "usage: bench_api FITS MODEL.yaml DATA.csv\n");
		return 2;
	}
	if (read_csv(argv[3]) != 0) {
		fprintf(stderr, "bench_api: cannot read %s\n", argv[3]);
		return 2;
	}
	type_columns();
	clock_gettime(CLOCK_MONOTONIC, &t0);
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &c0);
	for (long k = 0; k < fits; k++)
		if ((first = one_fit(argv[2], &e)) < 0) {
			fprintf(stderr, "bench_api: %s\n", e.text);
			return 1;
		}
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &c1);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	printf("%.6f %.6f %.17g\n", seconds(&t0, &t1), seconds(&c0, &c1),
	       first);
	return 0;
}
