/*
 * bench_api.c - FITS fits of a model to a CSV's rows through the public C
 * API, each as the Python module's scalefit.fit() makes it, in one of two
 * loops:
 *
 *   each  as `fit = scalefit.fit(path, data=DataFrame, threads=1)`:
 *         every fit opens the model, gives the rows as columns (numbers,
 *         and text columns as codes into their values, as a DataFrame's
 *         are given), makes the settings ("threads" 1), runs the fit,
 *         reads its constants (name, value, standard error) and frees the
 *         model, the data, the settings and the fit before it;
 *   once  as `fit = scalefit.fit(model, data=rows, threads=1)` with
 *         model = scalefit.Model(path) and rows = scalefit.Data(DataFrame)
 *         made once: the model handle and the data handle are made once
 *         (inside the clock), and every fit makes the settings, runs the
 *         fit, reads its constants and frees the settings and the fit
 *         before it.
 *
 * The CSV is read and typed once, before the clock starts (the DataFrame
 * is read before Python's clock too).  Prints the seconds of the FITS
 * fits, wall clock and CPU time, and the first constant (to check both
 * made the same fit).  bench/bench_python.py runs it against the same
 * fits from Python.
 *
 *   bench/bench_api FITS MODEL.yaml DATA.csv [each|once]   (a CSV without
 *   quotes; each by default)
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

/* The columns as a new data handle in *out, as the Python module gives a
 * DataFrame's. */
static int
make_data(scalefit_data **out, scalefit_error *e)
{
	int rc = scalefit_data_new("<DataFrame>", out, e);

	for (size_t j = 0; j < ncolumns && rc == SCALEFIT_OK; j++) {
		const column *c = &columns[j];

		rc = c->numeric
		         ? scalefit_data_add_numbers(*out, c->name, c->values,
		                                     nrows, e)
		         : scalefit_data_add_levels(
		               *out, c->name, (const char *const *)c->levels,
		               c->nlevels, c->codes, nrows, e);
	}
	return rc;
}

/*
 * One fit of m to d as scalefit.fit(m, data=d, threads=1) makes it: the
 * settings made, the fit run, its constants read (scalefit.Fit reads each
 * one's name, value and standard error), the settings freed; the fit in
 * *out.  Its first constant, or -1 with e.
 */
static double
fit_once(const scalefit_model *m, const scalefit_data *d, scalefit_fit **out,
         scalefit_error *e)
{
	scalefit_settings *s = NULL;
	double first = 0;
	int rc;

	*out = NULL;
	rc = scalefit_settings_new(&s, e);
	if (rc == SCALEFIT_OK)
		rc = scalefit_settings_set(s, "threads", "1", e);
	if (rc == SCALEFIT_OK)
		rc = scalefit_run_fit(m, d, s, out, e);
	for (size_t i = 0;
	     rc == SCALEFIT_OK && i < scalefit_fit_parameter_count(*out); i++) {
		double v = scalefit_fit_value(*out, i);

		(void)scalefit_fit_parameter_name(*out, i);
		(void)scalefit_fit_stderr(*out, i);
		if (i == 0)
			first = v;
	}
	scalefit_settings_free(s);
	return rc == SCALEFIT_OK ? first : -1;
}

/*
 * The loops free each fit as `fit = scalefit.fit(...)` does: when the
 * next one is made (Python frees the old fit when the name is bound to
 * the new one), so each side holds the same memory while it fits: a fit
 * holds about 400 kB, and where the next one's memory comes from changes
 * its time by up to a fifth on this machine.
 */

/* FITS fits in the loop "each": everything made for every fit, the model
 * and the data freed when the fit is made, as Python's are when
 * scalefit.fit returns.  The last fit's first constant, or -1 with e. */
static double
loop_each(long fits, const char *model_path, scalefit_error *e)
{
	scalefit_fit *held = NULL, *f = NULL;
	double first = 0;

	for (long k = 0; k < fits && first >= 0; k++) {
		scalefit_model *m = NULL;
		scalefit_data *d = NULL;

		first = -1;
		if (scalefit_model_open(model_path, &m, e) == SCALEFIT_OK &&
		    make_data(&d, e) == SCALEFIT_OK)
			first = fit_once(m, d, &f, e);
		scalefit_model_free(m);
		scalefit_data_free(d);
		scalefit_fit_free(held);
		held = f;
		f = NULL;
	}
	scalefit_fit_free(held);
	return first;
}

/* FITS fits in the loop "once": the model and the data made once. */
static double
loop_once(long fits, const char *model_path, scalefit_error *e)
{
	scalefit_model *m = NULL;
	scalefit_data *d = NULL;
	scalefit_fit *held = NULL, *f = NULL;
	double first = -1;

	if (scalefit_model_open(model_path, &m, e) == SCALEFIT_OK &&
	    make_data(&d, e) == SCALEFIT_OK) {
		first = 0;
		for (long k = 0; k < fits && first >= 0; k++) {
			first = fit_once(m, d, &f, e);
			scalefit_fit_free(held);
			held = f;
		}
	}
	scalefit_fit_free(held);
	scalefit_data_free(d);
	scalefit_model_free(m);
	return first;
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
	int once;

	if (argc < 4 || argc > 5 || (fits = strtol(argv[1], NULL, 10)) < 1 ||
	    (argc == 5 && strcmp(argv[4], "each") != 0 &&
	     strcmp(argv[4], "once") != 0)) {
		fprintf(stderr, "usage: bench_api FITS MODEL.yaml DATA.csv "
		                "[each|once]\n");
		return 2;
	}
	once = argc == 5 && strcmp(argv[4], "once") == 0;
	if (read_csv(argv[3]) != 0) {
		fprintf(stderr, "bench_api: cannot read %s\n", argv[3]);
		return 2;
	}
	type_columns();
	clock_gettime(CLOCK_MONOTONIC, &t0);
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &c0);
	first =
	    once ? loop_once(fits, argv[2], &e) : loop_each(fits, argv[2], &e);
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &c1);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	if (first < 0) {
		fprintf(stderr, "bench_api: %s\n", e.text);
		return 1;
	}
	printf("%.6f %.6f %.17g\n", seconds(&t0, &t1), seconds(&c0, &c1),
	       first);
	return 0;
}
