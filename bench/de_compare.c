/*
 * de_compare.c - how many evaluations L-SHADE, jSO and classic DE need.
 *
 * For sphere (dim 5), Rosenbrock (dim 4) and Rastrigin (dim 5), each
 * optimiser runs with seeds 1..11 and we record the number of evaluations
 * after which the best cost first lies within 1e-6 of the known minimum
 * (f <= f* + 1e-6 max(1, |f*|); every f* here is 0).  The table gives the
 * median, the range and how many seeds never got there within the budget.
 *
 * L-SHADE and jSO are budget-aware (their population shrinks along the
 * budget), so they run with their default budget (10000 * dim) and with a
 * tighter one (2000 * dim); classic DE runs with scipy's defaults except
 * that the spread test is off (tol 0, which a zero minimum needs) and the
 * budget is 10000 * dim.  Costs are evaluated in parallel as src/cost.c
 * does; the numbers do not depend on the thread count.
 *
 * Build: gcc -std=c11 -O2 -fopenmp -Isrc src/error.c src/rng.c src/de.c \
 *            bench/de_compare.c -lm -o de_compare
 */
#include "solve/de.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

enum { SEEDS = 11, DIM_MAX = 8 };

static const double bench_pi = 3.14159265358979323846;
static const double bench_target = 1e-6;

typedef double (*bench_fn)(const double *x, size_t dim);

static double
f_sphere(const double *x, size_t dim)
{
	double s = 0.0;

	for (size_t i = 0; i < dim; i++)
		s += x[i] * x[i];
	return s;
}

static double
f_rosenbrock(const double *x, size_t dim)
{
	double s = 0.0;

	for (size_t i = 0; i + 1 < dim; i++) {
		double a = x[i + 1] - x[i] * x[i], b = 1.0 - x[i];
		s += 100.0 * a * a + b * b;
	}
	return s;
}

static double
f_rastrigin(const double *x, size_t dim)
{
	double s = 10.0 * (double)dim;

	for (size_t i = 0; i < dim; i++)
		s += x[i] * x[i] - 10.0 * cos(2.0 * bench_pi * x[i]);
	return s;
}

static const struct {
	const char *name;
	bench_fn f;
	size_t dim;
	double lo, hi, fmin;
} problems[] = {
    {"sphere", f_sphere, 5, -5.0, 5.0, 0.0},
    {"rosenbrock", f_rosenbrock, 4, -5.0, 5.0, 0.0},
    {"rastrigin", f_rastrigin, 5, -5.12, 5.12, 0.0},
};

/*
 * Evaluations until f <= target on one run, or 0 when the run ended first.
 * Returns -1 when the optimiser could not be set up.
 */
static long
bench_run(size_t p, const sf_de_settings *s, double *costs)
{
	size_t dim = problems[p].dim, hit = 0;
	double lo[DIM_MAX], hi[DIM_MAX];
	double target =
	    problems[p].fmin + bench_target * fmax(1.0, fabs(problems[p].fmin));
	sf_error err;
	sf_de *de;

	for (size_t j = 0; j < dim; j++) {
		lo[j] = problems[p].lo;
		hi[j] = problems[p].hi;
	}
	de = sf_de_alloc(dim, lo, hi, s, &err);
	if (de == NULL || sf_de_init(de, NULL, &err) != SF_OK) {
		fprintf(stderr, "de_compare: %s\n", err.message);
		sf_de_free(de);
		return -1;
	}
	while (hit == 0 && sf_de_test(de) == SF_DE_RUNNING) {
		const double *t;
		size_t done = sf_de_evaluations(de);
		long n = (long)sf_de_ask(de, &t);

#ifdef _OPENMP
#pragma omp parallel for
#endif
		for (long k = 0; k < n; k++)
			costs[k] = problems[p].f(t + (size_t)k * dim, dim);
		/* the first trial of the batch, in batch order, that hit */
		for (long k = 0; k < n && hit == 0; k++)
			if (costs[k] <= target)
				hit = done + (size_t)k + 1;
		sf_de_tell(de, costs, NULL);
	}
	sf_de_free(de);
	return (long)hit;
}

static int
bench_cmp(const void *a, const void *b)
{
	long x = *(const long *)a, y = *(const long *)b;

	return (x > y) - (x < y);
}

static int
bench_row(size_t p, const char *label, sf_de_settings *s, double *costs)
{
	long hits[SEEDS];
	int n = 0, fails = 0;

	for (int seed = 1; seed <= SEEDS; seed++) {
		long h;

		s->seed = (uint64_t)seed;
		h = bench_run(p, s, costs);
		if (h < 0)
			return -1;
		if (h == 0)
			fails++;
		else
			hits[n++] = h;
	}
	qsort(hits, (size_t)n, sizeof hits[0], bench_cmp);
	if (n == 0)
		printf("%-11s %-22s %8s %17s %5d/%d\n", problems[p].name, label,
		       "-", "-", fails, SEEDS);
	else
		printf("%-11s %-22s %8ld %8ld-%-8ld %5d/%d\n", problems[p].name,
		       label, hits[n / 2], hits[0], hits[n - 1], fails, SEEDS);
	return 0;
}

int
main(void)
{
	/* room for the largest population here (90: L-SHADE and jSO at dim 5)
	 */
	static double costs[1024];

	printf("evaluations to reach f* + 1e-6, %d seeds\n", SEEDS);
	printf("%-11s %-22s %8s %17s %7s\n", "problem", "optimizer", "median",
	       "range", "failed");
	for (size_t p = 0; p < sizeof problems / sizeof problems[0]; p++) {
		size_t budget = 10000 * problems[p].dim;
		sf_de_settings s;

		sf_de_settings_default(&s, SF_DE_LSHADE);
		if (bench_row(p, "lshade (10000 dim)", &s, costs) != 0)
			return 1;
		s.max_evals = 2000 * problems[p].dim;
		if (bench_row(p, "lshade (2000 dim)", &s, costs) != 0)
			return 1;
		sf_de_settings_default(&s, SF_DE_JSO);
		if (bench_row(p, "jso (10000 dim)", &s, costs) != 0)
			return 1;
		s.max_evals = 2000 * problems[p].dim;
		if (bench_row(p, "jso (2000 dim)", &s, costs) != 0)
			return 1;
		sf_de_settings_default(&s, SF_DE_CLASSIC);
		s.tol = 0.0;
		s.max_generations = 0;
		s.max_evals = budget;
		if (bench_row(p, "de best1bin", &s, costs) != 0)
			return 1;
	}
	return 0;
}
