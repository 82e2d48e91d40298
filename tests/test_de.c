/*
 * test_de.c - CUnit tests of the differential-evolution optimiser.
 *
 * Every run goes through one driver, de_run(), that plays the caller's part:
 * it asks for a batch, checks that every trial lies inside the bounds,
 * evaluates the batch with an OpenMP parallel loop, tells the costs and
 * hashes every trial and cost it saw, so that two runs can be compared byte
 * for byte.  The tests cover: the known minima of sphere, Rosenbrock,
 * Rastrigin and a shifted, unevenly scaled sphere for L-SHADE, jSO and the
 * twelve classic strategies; determinism across runs and thread counts;
 * NaN and infinite costs; L-SHADE/jSO population reduction, archive and
 * memory invariants; every settings error; every stop reason.
 *
 * All runs use fixed seeds, so the tests are deterministic; the budgets
 * leave a wide margin (see the comments at the tables).
 */
#include "solve/de.h"
#include "testing.h"

#include <CUnit/Basic.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#ifdef _OPENMP
#include <omp.h>
#endif

static const double test_pi = 3.14159265358979323846;

/* ------------------------------------------------------------------ */
/* Cost functions */

typedef double (*test_fn)(const double *x, size_t dim);

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
		s += x[i] * x[i] - 10.0 * cos(2.0 * test_pi * x[i]);
	return s;
}

/* A sphere around a point far from the origin, each axis scaled by its
 * box width, like the constants of a fitted model. */
static const double shift_lower[] = {0.0, -10.0, -1.0, 100.0, 0.0};
static const double shift_upper[] = {10.0, -5.0, 4.0, 1000.0, 0.01};
static const double shift_min[] = {3.3, -7.1, 0.25, 150.0, 0.001};

static double
f_shifted(const double *x, size_t dim)
{
	double s = 0.0;

	for (size_t i = 0; i < dim; i++) {
		double d =
		    (x[i] - shift_min[i]) / (shift_upper[i] - shift_lower[i]);
		s += d * d;
	}
	return s;
}

/* Sphere around (-0.5, ...), NaN on the half of the box where x0 > 0. */
static double
f_nan_half(const double *x, size_t dim)
{
	double s = 0.0;

	if (x[0] > 0.0)
		return NAN;
	for (size_t i = 0; i < dim; i++)
		s += (x[i] + 0.5) * (x[i] + 0.5);
	return s;
}

/* The same with -inf, which must count as +inf, not as a great cost. */
static double
f_neginf_half(const double *x, size_t dim)
{
	return x[0] > 0.0 ? -INFINITY : f_nan_half(x, dim);
}

/* 1 + |x|^2: a nonzero minimum, so the relative spread test can fire. */
static double
f_offset_sphere(const double *x, size_t dim)
{
	return 1.0 + f_sphere(x, dim);
}

/* Costs that differ but never improve by 1e-12 relative. */
static double
f_flat(const double *x, size_t dim)
{
	return 1.0 + 1e-14 * f_sphere(x, dim);
}

/* Rastrigin plus a deterministic noise in [0, 1e-3) hashed from x's
 * bits: costs never become all equal, so only the budget stops a run. */
static double
f_noisy_rastrigin(const double *x, size_t dim)
{
	uint64_t h = 14695981039346656037ULL;
	const unsigned char *b = (const unsigned char *)x;

	for (size_t i = 0; i < dim * sizeof(double); i++) {
		h ^= b[i];
		h *= 1099511628211ULL;
	}
	return f_rastrigin(x, dim) +
	       1e-3 * (double)(h >> 11) / 9007199254740992.0;
}

/* Minimum outside the box, beyond the upper corner: trials keep leaving
 * the box, which exercises the bound handling. */
static double
f_corner(const double *x, size_t dim)
{
	double s = 0.0;

	for (size_t i = 0; i < dim; i++)
		s += (x[i] - 7.0) * (x[i] - 7.0);
	return s;
}

/* ------------------------------------------------------------------ */
/* The driver */

enum { RUN_DIM_MAX = 16 }; /* the largest dim de_run accepts */

typedef struct run_result {
	int stop;
	size_t evals, gens;
	size_t out_of_bounds; /* trial components outside the box */
	size_t batches;
	uint64_t hash; /* FNV-1a of every trial and cost */
	double best_cost;
	double best[RUN_DIM_MAX];
	int hook_failures; /* invariant failures seen by the hook */
} run_result;

/* Called after every tell with its context, to check invariants along
 * the way; returns 0 when one failed. */
typedef int (*run_hook)(const sf_de *de, void *ctx);

static uint64_t
fnv1a(uint64_t h, const void *p, size_t n)
{
	const unsigned char *b = p;

	for (size_t i = 0; i < n; i++) {
		h ^= b[i];
		h *= 1099511628211ULL;
	}
	return h;
}

/*
 * Run de (already allocated) from init to its stop reason on f, with
 * threads OpenMP threads (ignored without OpenMP), calling hook(de, ctx)
 * after every tell when hook is not NULL.  Returns 0, or -1 when
 * the driver itself failed (init, tell, or an endless loop).
 */
static int
de_run(sf_de *de, test_fn f, const double *lower, const double *upper,
       int threads, run_hook hook, void *ctx, run_result *r)
{
	size_t dim = sf_de_dim(de), guard = 0;
	double *costs = NULL;
	sf_error err;
	const double *b;

	memset(r, 0, sizeof *r);
	if (dim > RUN_DIM_MAX)
		return -1;
	r->hash = 14695981039346656037ULL;
#ifdef _OPENMP
	omp_set_num_threads(threads);
#else
	(void)threads;
#endif
	if (sf_de_init(de, NULL, &err) != SF_OK)
		return -1;
	costs = malloc(sf_de_population_size(de) * sizeof(double));
	if (costs == NULL)
		return -1;
	while (sf_de_test(de) == SF_DE_RUNNING) {
		const double *t;
		size_t n = sf_de_ask(de, &t);
		long ni = (long)n;

		if (n == 0 || ++guard > 10000000) {
			free(costs);
			return -1;
		}
		for (size_t k = 0; k < n * dim; k++)
			if (!(t[k] >= lower[k % dim] && t[k] <= upper[k % dim]))
				r->out_of_bounds++;
#ifdef _OPENMP
#pragma omp parallel for schedule(dynamic, 1)
#endif
		for (long k = 0; k < ni; k++)
			costs[k] = f(t + (size_t)k * dim, dim);
		r->hash = fnv1a(r->hash, t, n * dim * sizeof(double));
		r->hash = fnv1a(r->hash, costs, n * sizeof(double));
		r->batches++;
		if (sf_de_tell(de, costs, &err) != SF_OK) {
			free(costs);
			return -1;
		}
		if (hook != NULL && !hook(de, ctx))
			r->hook_failures++;
	}
	free(costs);
	r->stop = sf_de_test(de);
	r->evals = sf_de_evaluations(de);
	r->gens = sf_de_generations(de);
	b = sf_de_best(de, &r->best_cost);
	memcpy(r->best, b, dim * sizeof(double));
	return 0;
}

/* Allocate with the given bounds and settings, failing the test loudly. */
static sf_de *
de_make(size_t dim, const double *lower, const double *upper,
        const sf_de_settings *s)
{
	sf_error err;
	sf_de *de;

	sf_error_clear(&err);
	de = sf_de_alloc(dim, lower, upper, s, &err);
	if (de == NULL)
		fprintf(stderr, "\nsf_de_alloc: %s\n", err.message);
	return de;
}

static void
fill_box(double *lower, double *upper, size_t dim, double lo, double hi)
{
	for (size_t i = 0; i < dim; i++) {
		lower[i] = lo;
		upper[i] = hi;
	}
}

/* ------------------------------------------------------------------ */
/* Names */

static void
test_strategy_names(void)
{
	static const struct {
		const char *name;
		sf_de_mutation m;
		sf_de_crossover c;
	} good[] = {
	    {"rand1bin", SF_DE_RAND1, SF_DE_BIN},
	    {"best1bin", SF_DE_BEST1, SF_DE_BIN},
	    {"currenttobest1bin", SF_DE_CURRENTTOBEST1, SF_DE_BIN},
	    {"randtobest1bin", SF_DE_RANDTOBEST1, SF_DE_BIN},
	    {"best2bin", SF_DE_BEST2, SF_DE_BIN},
	    {"rand2bin", SF_DE_RAND2, SF_DE_BIN},
	    {"rand1exp", SF_DE_RAND1, SF_DE_EXP},
	    {"best1exp", SF_DE_BEST1, SF_DE_EXP},
	    {"currenttobest1exp", SF_DE_CURRENTTOBEST1, SF_DE_EXP},
	    {"randtobest1exp", SF_DE_RANDTOBEST1, SF_DE_EXP},
	    {"best2exp", SF_DE_BEST2, SF_DE_EXP},
	    {"rand2exp", SF_DE_RAND2, SF_DE_EXP},
	};
	static const char *const bad[] = {"best3bin", "",          "Best1bin",
	                                  "best1",    "best1binx", "bin"};

	for (size_t i = 0; i < sizeof good / sizeof good[0]; i++) {
		sf_de_mutation m = SF_DE_RAND1;
		sf_de_crossover c = SF_DE_BIN;

		CU_ASSERT_EQUAL(
		    sf_de_strategy_parse(good[i].name, &m, &c, NULL), SF_OK);
		CU_ASSERT_EQUAL(m, good[i].m);
		CU_ASSERT_EQUAL(c, good[i].c);
		CU_ASSERT_STRING_EQUAL(sf_de_strategy_name(m, c), good[i].name);
	}
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		sf_de_mutation m = SF_DE_RAND2;
		sf_de_crossover c = SF_DE_EXP;
		sf_error err;
		char want[64];

		sf_error_clear(&err);
		CU_ASSERT_EQUAL(sf_de_strategy_parse(bad[i], &m, &c, &err),
		                SF_ENAME);
		CU_ASSERT_EQUAL(err.code, SF_ENAME);
		snprintf(want, sizeof want, "unknown DE strategy '%s'", bad[i]);
		CU_ASSERT_PTR_NOT_NULL(strstr(err.message, want));
		CU_ASSERT_EQUAL(m, SF_DE_RAND2); /* untouched on failure */
		CU_ASSERT_EQUAL(c, SF_DE_EXP);
	}
	CU_ASSERT_STRING_EQUAL(
	    sf_de_strategy_name((sf_de_mutation)9, SF_DE_BIN), "unknown");
	CU_ASSERT_EQUAL(sf_de_mutation_min_population(SF_DE_BEST1), 3);
	CU_ASSERT_EQUAL(sf_de_mutation_min_population(SF_DE_RAND1), 4);
	CU_ASSERT_EQUAL(sf_de_mutation_min_population(SF_DE_BEST2), 5);
	CU_ASSERT_EQUAL(sf_de_mutation_min_population(SF_DE_RAND2), 6);
}

static void
test_algorithm_and_stop_names(void)
{
	static const char *const names[] = {"lshade", "jso", "de"};
	static const sf_de_algorithm algs[] = {SF_DE_LSHADE, SF_DE_JSO,
	                                       SF_DE_CLASSIC};
	sf_de_algorithm a = SF_DE_JSO;
	const char *near = "x", *list[SF_DE_ALGORITHMS];
	char buf[64];

	CU_ASSERT_EQUAL(SF_DE_ALGORITHMS, 3);
	CU_ASSERT_EQUAL(sf_de_algorithm_names(list), SF_DE_ALGORITHMS);
	for (size_t i = 0; i < 3; i++) {
		CU_ASSERT_EQUAL(sf_de_algorithm_find(names[i], &a, NULL),
		                SF_OK);
		CU_ASSERT_EQUAL(a, algs[i]);
		CU_ASSERT_STRING_EQUAL(sf_de_algorithm_name(a), names[i]);
		CU_ASSERT_STRING_EQUAL(list[i], names[i]);
		CU_ASSERT_PTR_EQUAL(sf_de_method_get(a)->name,
		                    sf_de_algorithm_name(a));
	}
	CU_ASSERT_STRING_EQUAL(sf_de_algorithm_name(SF_DE_ALGORITHMS),
	                       "unknown");
	CU_ASSERT_PTR_NULL(sf_de_method_get(SF_DE_ALGORITHMS));
	/* An unknown name leaves the algorithm alone and suggests a near
	 * one, or none. */
	CU_ASSERT_EQUAL(sf_de_algorithm_find("shade", &a, &near), SF_ENAME);
	CU_ASSERT_EQUAL(a, SF_DE_CLASSIC);
	CU_ASSERT_STRING_EQUAL(near, "lshade");
	CU_ASSERT_EQUAL(sf_de_algorithm_find("nelder-mead", &a, &near),
	                SF_ENAME);
	CU_ASSERT_PTR_NULL(near);
	CU_ASSERT_EQUAL(sf_de_algorithm_find(NULL, &a, &near), SF_ENAME);
	CU_ASSERT_PTR_NULL(near);
	CU_ASSERT_STRING_EQUAL(sf_de_algorithm_list(buf, sizeof buf),
	                       "lshade, jso or de");
	CU_ASSERT_STRING_EQUAL(sf_de_stop_name(SF_DE_RUNNING), "running");
	CU_ASSERT_STRING_EQUAL(sf_de_stop_name(SF_DE_STOP_TOL), "tol");
	CU_ASSERT_STRING_EQUAL(sf_de_stop_name(SF_DE_STOP_STAGNATION),
	                       "stagnation");
	CU_ASSERT_STRING_EQUAL(sf_de_stop_name(SF_DE_STOP_MAX_EVALS),
	                       "max_evals");
	CU_ASSERT_STRING_EQUAL(sf_de_stop_name(SF_DE_STOP_MAX_GENERATIONS),
	                       "max_generations");
	CU_ASSERT_STRING_EQUAL(sf_de_stop_name(-1), "unknown");
	CU_ASSERT_STRING_EQUAL(sf_de_stop_name(99), "unknown");
}

/* ------------------------------------------------------------------ */
/* Settings validation */

/* Patches that break one setting or bound each (lo, hi: 3 parameters). */
typedef void (*patch_fn)(sf_de_settings *s, double *lo, double *hi);

static void
p_lower_above(sf_de_settings *s, double *lo, double *hi)
{
	(void)s;
	lo[1] = 3.0;
	hi[1] = 1.0;
}
static void
p_lower_equal(sf_de_settings *s, double *lo, double *hi)
{
	(void)s;
	lo[2] = 2.0;
	hi[2] = 2.0;
}
static void
p_nan_bound(sf_de_settings *s, double *lo, double *hi)
{
	(void)s;
	(void)hi;
	lo[0] = NAN;
}
static void
p_inf_bound(sf_de_settings *s, double *lo, double *hi)
{
	(void)s;
	(void)lo;
	hi[0] = INFINITY;
}
static void
p_too_wide(sf_de_settings *s, double *lo, double *hi)
{
	(void)s;
	lo[0] = -1e308;
	hi[0] = 1e308;
}
static void
p_best2_small(sf_de_settings *s, double *lo, double *hi)
{
	(void)lo;
	(void)hi;
	s->mutation = SF_DE_BEST2;
	s->population = 4;
}
static void
p_rand2_small(sf_de_settings *s, double *lo, double *hi)
{
	(void)lo;
	(void)hi;
	s->mutation = SF_DE_RAND2;
	s->crossover = SF_DE_EXP;
	s->population = 5;
}
static void
p_cr_high(sf_de_settings *s, double *lo, double *hi)
{
	(void)lo;
	(void)hi;
	s->cr = 1.5;
}
static void
p_cr_negative(sf_de_settings *s, double *lo, double *hi)
{
	(void)lo;
	(void)hi;
	s->cr = -0.1;
}
static void
p_cr_nan(sf_de_settings *s, double *lo, double *hi)
{
	(void)lo;
	(void)hi;
	s->cr = NAN;
}
static void
p_f_two(sf_de_settings *s, double *lo, double *hi)
{
	(void)lo;
	(void)hi;
	s->f_min = s->f_max = 2.0; /* a fixed F of 2; dithering may reach 2 */
}
static void
p_f_reversed(sf_de_settings *s, double *lo, double *hi)
{
	(void)lo;
	(void)hi;
	s->f_min = 0.9;
	s->f_max = 0.5;
}
static void
p_popsize_zero(sf_de_settings *s, double *lo, double *hi)
{
	(void)lo;
	(void)hi;
	s->popsize = 0.0;
}
static void
p_strategy(sf_de_settings *s, double *lo, double *hi)
{
	(void)lo;
	(void)hi;
	s->mutation = (sf_de_mutation)17;
}
static void
p_algorithm(sf_de_settings *s, double *lo, double *hi)
{
	(void)lo;
	(void)hi;
	s->algorithm = (sf_de_algorithm)7;
}
static void
p_init(sf_de_settings *s, double *lo, double *hi)
{
	(void)lo;
	(void)hi;
	s->init = (sf_de_init_method)5;
}
static void
p_tol(sf_de_settings *s, double *lo, double *hi)
{
	(void)lo;
	(void)hi;
	s->tol = -1e-3;
}
static void
p_atol(sf_de_settings *s, double *lo, double *hi)
{
	(void)lo;
	(void)hi;
	s->atol = INFINITY;
}
static void
p_stagnation(sf_de_settings *s, double *lo, double *hi)
{
	(void)lo;
	(void)hi;
	s->stagnation_rtol = -1.0;
}
static void
p_small(sf_de_settings *s, double *lo, double *hi)
{
	(void)lo;
	(void)hi;
	s->population = 3;
}
static void
p_budget(sf_de_settings *s, double *lo, double *hi)
{
	(void)lo;
	(void)hi;
	s->population = 50;
	s->max_evals = 49;
}
static void
p_memory_f(sf_de_settings *s, double *lo, double *hi)
{
	(void)lo;
	(void)hi;
	s->memory_f = 0.0;
}
static void
p_memory_cr(sf_de_settings *s, double *lo, double *hi)
{
	(void)lo;
	(void)hi;
	s->memory_cr = 1.01;
}
static void
p_memory_size0(sf_de_settings *s, double *lo, double *hi)
{
	(void)lo;
	(void)hi;
	s->memory_size = 0;
}
static void
p_memory_size1(sf_de_settings *s, double *lo, double *hi)
{
	(void)lo;
	(void)hi;
	s->memory_size = 1;
}
static void
p_pbest(sf_de_settings *s, double *lo, double *hi)
{
	(void)lo;
	(void)hi;
	s->pbest_rate = 0.0;
}
static void
p_archive(sf_de_settings *s, double *lo, double *hi)
{
	(void)lo;
	(void)hi;
	s->archive_rate = -1.0;
}
static void
p_min_pop(sf_de_settings *s, double *lo, double *hi)
{
	(void)lo;
	(void)hi;
	s->population_min = 3;
}
static void
p_huge_pop(sf_de_settings *s, double *lo, double *hi)
{
	(void)lo;
	(void)hi;
	s->population = SF_DE_POPULATION_MAX + 1;
}
static void
p_popsize_negative(sf_de_settings *s, double *lo, double *hi)
{
	(void)lo;
	(void)hi;
	s->popsize = -2.0;
}

static void
test_validation(void)
{
	static const sf_de_algorithm L = SF_DE_LSHADE, J = SF_DE_JSO,
	                             C = SF_DE_CLASSIC;
	static const struct {
		sf_de_algorithm alg; /* defaults the patch starts from */
		patch_fn patch;
		size_t dim;
		const char *message; /* a part of the expected message */
	} cases[] = {
	    {L, p_lower_above, 3,
	     "parameter 1: lower bound 3 is not below upper bound 1"},
	    {C, p_lower_equal, 3,
	     "parameter 2: lower bound 2 is not below upper bound 2"},
	    {L, p_nan_bound, 3, "parameter 0: bounds must be finite"},
	    {J, p_inf_bound, 3, "parameter 0: bounds must be finite"},
	    {L, p_too_wide, 3, "too far apart"},
	    {L, NULL, 0, "no parameters to fit"},
	    {C, p_best2_small, 3,
	     "population 4 is too small for strategy best2bin (at least 5)"},
	    {C, p_rand2_small, 3,
	     "population 5 is too small for strategy rand2exp (at least 6)"},
	    {C, p_cr_high, 3, "recombination CR 1.5 is outside [0, 1]"},
	    {C, p_cr_negative, 3, "recombination CR -0.1 is outside [0, 1]"},
	    {C, p_cr_nan, 3, "recombination CR nan is outside"},
	    {C, p_f_two, 3, "mutation factor F range [2, 2]"},
	    {C, p_f_reversed, 3, "mutation factor F range [0.9, 0.5]"},
	    {C, p_popsize_zero, 3, "popsize 0 must be positive"},
	    {L, p_popsize_negative, 3, "popsize -2 must not be negative"},
	    {C, p_strategy, 3, "unknown DE strategy"},
	    {L, p_algorithm, 3, "unknown optimizer algorithm 7"},
	    {L, p_init, 3, "unknown initialisation 5"},
	    {C, p_tol, 3, "tol -0.001 must be finite and >= 0"},
	    {L, p_atol, 3, "atol inf must be finite and >= 0"},
	    {L, p_stagnation, 3, "stagnation tolerance -1 must be finite"},
	    {L, p_small, 3, "population 3 is below the minimum population 4"},
	    {J, p_budget, 3, "max_evals 49 is below the initial population 50"},
	    {L, p_memory_f, 3, "initial memory F 0 is outside (0, 1]"},
	    {J, p_memory_cr, 3, "initial memory CR 1.01 is outside [0, 1]"},
	    {L, p_memory_size0, 3, "memory size 0 is outside [1,"},
	    {J, p_memory_size1, 3, "memory size 1 is outside [2,"},
	    {L, p_pbest, 3, "pbest rate 0 is outside (0, 1]"},
	    {J, p_archive, 3, "archive rate -1 is outside [0, 100]"},
	    {L, p_min_pop, 3, "minimum population 3 is below 4"},
	    {C, p_huge_pop, 3, "is above the maximum"},
	};

	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		sf_de_settings s;
		double lo[3], hi[3];
		sf_error err;
		sf_de *de;

		sf_de_settings_default(&s, cases[i].alg);
		fill_box(lo, hi, 3, -1.0, 1.0);
		if (cases[i].patch != NULL)
			cases[i].patch(&s, lo, hi);
		sf_error_clear(&err);
		de = sf_de_alloc(cases[i].dim, lo, hi, &s, &err);
		CU_ASSERT_PTR_NULL(de);
		CU_ASSERT_EQUAL(err.code, SF_EVALUE);
		if (strstr(err.message, cases[i].message) == NULL) {
			fprintf(stderr, "\ncase %zu: got '%s', want '%s'\n", i,
			        err.message, cases[i].message);
			CU_FAIL("validation message");
		}
		sf_de_free(de);
	}
}

/* A valid object accepts a NULL error record, NULL settings are refused,
 * free accepts NULL, and the life cycle's misuse is reported. */
static void
test_life_cycle_errors(void)
{
	double lo[2] = {-1.0, -1.0}, hi[2] = {1.0, 1.0};
	double outside[2] = {0.0, 1.5}, nan_seed[2] = {NAN, 0.0};
	double inside[2] = {0.25, -0.75}, costs[64];
	sf_de_settings s;
	sf_error err;
	const double *t;
	sf_de *de;

	sf_de_free(NULL);
	CU_ASSERT_PTR_NULL(sf_de_alloc(2, lo, hi, NULL, NULL));
	CU_ASSERT_PTR_NULL(sf_de_alloc(2, NULL, hi, NULL, NULL));
	sf_de_settings_default(&s, SF_DE_CLASSIC);
	s.population = 10;
	de = sf_de_alloc(2, lo, hi, &s, NULL);
	CU_ASSERT_PTR_NOT_NULL_FATAL(de);

	/* not initialised: nothing to ask, nothing to tell */
	CU_ASSERT_EQUAL(sf_de_ask(de, &t), 0);
	CU_ASSERT_PTR_NULL(t);
	CU_ASSERT_PTR_NULL(sf_de_best(de, NULL));
	sf_error_clear(&err);
	CU_ASSERT_EQUAL(sf_de_tell(de, costs, &err), SF_EINTERNAL);
	CU_ASSERT_PTR_NOT_NULL(strstr(err.message, "without asking"));

	/* a seed member outside the box or not finite is refused */
	sf_error_clear(&err);
	CU_ASSERT_EQUAL(sf_de_init(de, outside, &err), SF_EVALUE);
	CU_ASSERT_PTR_NOT_NULL(strstr(err.message,
	                              "initial value 1.5 of parameter 1 is "
	                              "outside its bounds [-1, 1]"));
	CU_ASSERT_EQUAL(sf_de_ask(de, &t), 0);
	CU_ASSERT_EQUAL(sf_de_init(de, nan_seed, NULL), SF_EVALUE);

	/* a seed member replaces member 0 of the first batch */
	CU_ASSERT_EQUAL_FATAL(sf_de_init(de, inside, &err), SF_OK);
	CU_ASSERT_EQUAL_FATAL(sf_de_ask(de, &t), 10);
	CU_ASSERT_EQUAL(t[0], 0.25);
	CU_ASSERT_EQUAL(t[1], -0.75);
	/* asking again before telling returns the same batch */
	{
		const double *t2;
		CU_ASSERT_EQUAL(sf_de_ask(de, &t2), 10);
		CU_ASSERT_PTR_EQUAL(t2, t);
	}
	for (size_t i = 0; i < 10; i++)
		costs[i] = f_sphere(t + 2 * i, 2);
	costs[0] = -1.0; /* the seed member is the best */
	CU_ASSERT_EQUAL(sf_de_tell(de, costs, &err), SF_OK);
	{
		double c;
		const double *b = sf_de_best(de, &c);
		CU_ASSERT_PTR_NOT_NULL_FATAL(b);
		CU_ASSERT_EQUAL(c, -1.0);
		CU_ASSERT_EQUAL(b[0], 0.25);
		CU_ASSERT_EQUAL(b[1], -0.75);
	}
	/* telling twice is refused */
	CU_ASSERT_EQUAL(sf_de_tell(de, costs, &err), SF_EINTERNAL);
	CU_ASSERT_EQUAL(sf_de_evaluations(de), 10);
	CU_ASSERT_EQUAL(sf_de_generations(de), 0);
	CU_ASSERT_EQUAL(sf_de_test(de), SF_DE_RUNNING);
	/* classic has no archive or memory */
	{
		size_t cap = 99;
		double mf;
		CU_ASSERT_EQUAL(sf_de_archive_size(de, &cap), 0);
		CU_ASSERT_EQUAL(cap, 0);
		CU_ASSERT_EQUAL(sf_de_memory(de, 0, &mf, NULL), SF_EVALUE);
	}
	sf_de_free(de);
}

/* The seed member does not shift the random stream: apart from member 0
 * the initial populations are identical. */
static void
test_seed_member_stream(void)
{
	double lo[3], hi[3], seed[3] = {0.1, 0.2, 0.3};
	sf_de_settings s;
	sf_de *a, *b;
	const double *ta, *tb;
	size_t na, nb;

	fill_box(lo, hi, 3, -1.0, 1.0);
	sf_de_settings_default(&s, SF_DE_LSHADE);
	a = de_make(3, lo, hi, &s);
	b = de_make(3, lo, hi, &s);
	CU_ASSERT_PTR_NOT_NULL_FATAL(a);
	CU_ASSERT_PTR_NOT_NULL_FATAL(b);
	sf_de_init(a, NULL, NULL);
	sf_de_init(b, seed, NULL);
	na = sf_de_ask(a, &ta);
	nb = sf_de_ask(b, &tb);
	CU_ASSERT_EQUAL(na, 54); /* round(18 * 3), above the floor of 30 */
	CU_ASSERT_EQUAL_FATAL(na, nb);
	CU_ASSERT(memcmp(ta + 3, tb + 3, (na - 1) * 3 * sizeof(double)) == 0);
	CU_ASSERT(memcmp(tb, seed, sizeof seed) == 0);
	sf_de_free(a);
	sf_de_free(b);
}

/* Every row of the table of algorithms, and the defaults it gives: the
 * papers' and scipy's numbers, written out here once more. */
static void
test_algorithm_table(void)
{
	static const struct {
		sf_de_algorithm alg;
		const char *name;
		int adaptive;
		double popsize;
		size_t floor, max_generations;
		double tol;
		size_t memory_size;
		double memory_f, memory_cr, pbest_rate, archive_rate;
	} rows[] = {
	    {SF_DE_LSHADE, "lshade", 1, 18, 30, 0, 1e-8, 6, 0.5, 0.5, 0.11,
	     2.6},
	    {SF_DE_JSO, "jso", 1, 0, 30, 0, 1e-8, 5, 0.3, 0.8, 0.25, 1.0},
	    {SF_DE_CLASSIC, "de", 0, 15, 5, 1000, 0.01, 0, 0, 0, 0, 0},
	};

	CU_ASSERT_EQUAL(sizeof rows / sizeof rows[0], SF_DE_ALGORITHMS);
	for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
		const sf_de_method *m = sf_de_method_get(rows[i].alg);
		sf_de_settings s;

		CU_ASSERT_PTR_NOT_NULL_FATAL(m);
		CU_ASSERT_STRING_EQUAL(m->name, rows[i].name);
		CU_ASSERT_EQUAL(m->adaptive, rows[i].adaptive);
		CU_ASSERT_EQUAL(m->population_floor, rows[i].floor);
		sf_de_settings_default(&s, rows[i].alg);
		CU_ASSERT_EQUAL(s.algorithm, rows[i].alg);
		CU_ASSERT_EQUAL(s.popsize, rows[i].popsize);
		CU_ASSERT_EQUAL(s.max_generations, rows[i].max_generations);
		CU_ASSERT_EQUAL(s.tol, rows[i].tol);
		CU_ASSERT_EQUAL(s.memory_size, rows[i].memory_size);
		CU_ASSERT_EQUAL(s.memory_f, rows[i].memory_f);
		CU_ASSERT_EQUAL(s.memory_cr, rows[i].memory_cr);
		CU_ASSERT_EQUAL(s.pbest_rate, rows[i].pbest_rate);
		CU_ASSERT_EQUAL(s.archive_rate, rows[i].archive_rate);
		/* shared by every algorithm */
		CU_ASSERT_EQUAL(s.mutation, SF_DE_BEST1);
		CU_ASSERT_EQUAL(s.crossover, SF_DE_BIN);
		CU_ASSERT_EQUAL(s.f_min, 0.5);
		CU_ASSERT_EQUAL(s.f_max, 1.0);
		CU_ASSERT_EQUAL(s.cr, 0.7);
		CU_ASSERT_EQUAL(s.population_min, 4);
		CU_ASSERT_EQUAL(s.seed, 1);
	}
	/* Out of range: L-SHADE's defaults, the algorithm kept for
	 * sf_de_alloc to refuse. */
	{
		sf_de_settings s;

		sf_de_settings_default(&s, (sf_de_algorithm)7);
		CU_ASSERT_EQUAL(s.algorithm, (sf_de_algorithm)7);
		CU_ASSERT_EQUAL(s.popsize, 18);
	}
}

/* Population sizes the defaults resolve to. */
static void
test_population_defaults(void)
{
	static const struct {
		sf_de_algorithm alg;
		size_t dim, population;
	} cases[] = {
	    {SF_DE_LSHADE, 1, 30},  {SF_DE_LSHADE, 2, 36},
	    {SF_DE_LSHADE, 5, 90},  {SF_DE_JSO, 1, 30},
	    {SF_DE_JSO, 2, 30},     {SF_DE_JSO, 5, 90},
	    {SF_DE_JSO, 10, 182},   {SF_DE_CLASSIC, 1, 15},
	    {SF_DE_CLASSIC, 4, 60},
	};
	double lo[10], hi[10];

	fill_box(lo, hi, 10, 0.0, 1.0);
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		sf_de_settings s;
		sf_de *de;

		sf_de_settings_default(&s, cases[i].alg);
		de = de_make(cases[i].dim, lo, hi, &s);
		CU_ASSERT_PTR_NOT_NULL_FATAL(de);
		CU_ASSERT_EQUAL(sf_de_population_size(de), cases[i].population);
		CU_ASSERT_EQUAL(
		    sf_de_max_evals(de),
		    cases[i].alg == SF_DE_CLASSIC ? 0 : 10000 * cases[i].dim);
		sf_de_free(de);
	}
	/* classic popsize 1 for dim 1 is raised to rand2's minimum of 6 */
	{
		sf_de_settings s;
		sf_de *de;

		sf_de_settings_default(&s, SF_DE_CLASSIC);
		s.popsize = 1.0;
		s.mutation = SF_DE_RAND2;
		de = de_make(1, lo, hi, &s);
		CU_ASSERT_PTR_NOT_NULL_FATAL(de);
		CU_ASSERT_EQUAL(sf_de_population_size(de), 6);
		sf_de_free(de);
	}
}

/* ------------------------------------------------------------------ */
/* Convergence */

typedef struct problem {
	const char *name;
	test_fn f;
	size_t dim;
	double lo, hi; /* a cube, unless bounds are given */
	const double *lower, *upper;
	const double *xmin; /* NULL: the minimum is at 'at' */
	double at;
	double xtol; /* |x - x*| allowed per component */
} problem;

static const problem problems[] = {
    {"sphere", f_sphere, 5, -5.0, 5.0, NULL, NULL, NULL, 0.0, 1e-6},
    {"rosenbrock", f_rosenbrock, 4, -5.0, 5.0, NULL, NULL, NULL, 1.0, 1e-6},
    {"rastrigin", f_rastrigin, 5, -5.12, 5.12, NULL, NULL, NULL, 0.0, 1e-6},
    {"shifted", f_shifted, 5, 0.0, 0.0, shift_lower, shift_upper, shift_min,
     0.0, 1e-6},
};

/* Runs a problem and checks that x* was found within xtol (relative to
 * the box width for the shifted problem). */
static void
check_problem(const problem *p, const sf_de_settings *s, const char *label)
{
	double lo[8], hi[8];
	run_result r;
	sf_de *de;
	int ok = 1;

	if (p->lower != NULL) {
		memcpy(lo, p->lower, p->dim * sizeof(double));
		memcpy(hi, p->upper, p->dim * sizeof(double));
	} else {
		fill_box(lo, hi, p->dim, p->lo, p->hi);
	}
	de = de_make(p->dim, lo, hi, s);
	CU_ASSERT_PTR_NOT_NULL_FATAL(de);
	CU_ASSERT_EQUAL_FATAL(de_run(de, p->f, lo, hi, 2, NULL, NULL, &r), 0);
	CU_ASSERT_EQUAL(r.out_of_bounds, 0);
	for (size_t j = 0; j < p->dim; j++) {
		double want = p->xmin != NULL ? p->xmin[j] : p->at;
		double scale = p->xmin != NULL ? hi[j] - lo[j] : 1.0;
		if (!(fabs(r.best[j] - want) <= p->xtol * scale))
			ok = 0;
	}
	if (!ok || !(r.best_cost <= 1e-10)) {
		fprintf(stderr,
		        "\n%s on %s: best cost %g, x0 %.9g after %zu "
		        "evaluations (%s)\n",
		        label, p->name, r.best_cost, r.best[0], r.evals,
		        sf_de_stop_name(r.stop));
		CU_FAIL("minimum not reached");
	}
	sf_de_free(de);
}

/*
 * L-SHADE and jSO with their default settings and default budget (10000 *
 * dim), on every problem.  Measured over seeds 1..11 they reach 1e-6 of
 * the minimum in at most 40% of that budget (Rastrigin with jSO: 70%);
 * the assertion asks for x within 1e-6 at the end.
 */
static void
test_adaptive_minima(void)
{
	static const sf_de_algorithm algs[] = {SF_DE_LSHADE, SF_DE_JSO};

	for (size_t a = 0; a < 2; a++)
		for (size_t p = 0; p < sizeof problems / sizeof problems[0];
		     p++) {
			sf_de_settings s;

			sf_de_settings_default(&s, algs[a]);
			s.seed = 7;
			check_problem(&problems[p], &s,
			              sf_de_algorithm_name(algs[a]));
		}
}

/*
 * Every classic strategy on every problem.  The spread test is switched
 * to "all costs equal" (tol = atol = 0), since relative spread never
 * shrinks on a zero minimum, and the generations are capped instead at
 * 3000 (scipy's cap is 1000; Rosenbrock with rand2 needs more than that).
 * Classic DE's greedy strategies do get stuck on Rastrigin or Rosenbrock
 * for some seeds (best1bin: 1 seed in 11 on each); popsize 25 makes that
 * rarer, and the seed is fixed, so the test is deterministic.
 */
static void
test_classic_minima(void)
{
	for (size_t m = 0; m < 6; m++)
		for (size_t c = 0; c < 2; c++)
			for (size_t p = 0;
			     p < sizeof problems / sizeof problems[0]; p++) {
				sf_de_settings s;

				sf_de_settings_default(&s, SF_DE_CLASSIC);
				s.mutation = (sf_de_mutation)m;
				s.crossover = (sf_de_crossover)c;
				s.popsize = 25;
				s.tol = 0.0;
				s.max_generations = 3000;
				s.seed = 3;
				check_problem(&problems[p], &s,
				              sf_de_strategy_name(s.mutation,
				                                  s.crossover));
			}
}

/* ------------------------------------------------------------------ */
/* Determinism */

static void
check_same_runs(const sf_de_settings *s)
{
	double lo[5], hi[5];
	run_result r1, r2, r4;
	sf_de *de;

	fill_box(lo, hi, 5, -5.12, 5.12);
	de = de_make(5, lo, hi, s);
	CU_ASSERT_PTR_NOT_NULL_FATAL(de);
	CU_ASSERT_EQUAL_FATAL(
	    de_run(de, f_rastrigin, lo, hi, 1, NULL, NULL, &r1), 0);
	/* init restarts the same run on the same object */
	CU_ASSERT_EQUAL_FATAL(
	    de_run(de, f_rastrigin, lo, hi, 1, NULL, NULL, &r2), 0);
	sf_de_free(de);
	de = de_make(5, lo, hi, s);
	CU_ASSERT_PTR_NOT_NULL_FATAL(de);
	CU_ASSERT_EQUAL_FATAL(
	    de_run(de, f_rastrigin, lo, hi, 4, NULL, NULL, &r4), 0);
	sf_de_free(de);
	CU_ASSERT(r1.batches > 10);
	CU_ASSERT_EQUAL(r1.hash, r2.hash);
	CU_ASSERT_EQUAL(r1.hash, r4.hash);
	CU_ASSERT_EQUAL(r1.evals, r4.evals);
	CU_ASSERT_EQUAL(r1.gens, r4.gens);
	CU_ASSERT_EQUAL(r1.stop, r4.stop);
	CU_ASSERT(memcmp(&r1.best_cost, &r4.best_cost, sizeof(double)) == 0);
	CU_ASSERT(memcmp(r1.best, r4.best, 5 * sizeof(double)) == 0);
	CU_ASSERT(memcmp(r1.best, r2.best, 5 * sizeof(double)) == 0);
}

/* Same seed: the same bytes, run twice and with 1 or 4 threads; another
 * seed: another run. */
static void
test_determinism(void)
{
	static const sf_de_algorithm algs[] = {SF_DE_LSHADE, SF_DE_JSO,
	                                       SF_DE_CLASSIC};
	double lo[5], hi[5];

	for (size_t a = 0; a < 3; a++) {
		sf_de_settings s;

		sf_de_settings_default(&s, algs[a]);
		s.max_evals = 20000;
		s.seed = 12345;
		check_same_runs(&s);
		s.crossover = SF_DE_EXP;
		s.mutation = SF_DE_RAND2;
		s.init = SF_DE_INIT_UNIFORM;
		check_same_runs(&s);
	}
	fill_box(lo, hi, 5, -5.12, 5.12);
	{
		sf_de_settings s;
		run_result ra, rb;
		sf_de *da, *db;

		sf_de_settings_default(&s, SF_DE_LSHADE);
		s.max_evals = 5000;
		da = de_make(5, lo, hi, &s);
		s.seed = 2;
		db = de_make(5, lo, hi, &s);
		CU_ASSERT_PTR_NOT_NULL_FATAL(da);
		CU_ASSERT_PTR_NOT_NULL_FATAL(db);
		de_run(da, f_rastrigin, lo, hi, 1, NULL, NULL, &ra);
		de_run(db, f_rastrigin, lo, hi, 1, NULL, NULL, &rb);
		CU_ASSERT_NOT_EQUAL(ra.hash, rb.hash);
		sf_de_free(da);
		sf_de_free(db);
	}
}

/* ------------------------------------------------------------------ */
/* Non-finite costs and bounds */

static void
check_nonfinite(sf_de_algorithm alg, test_fn f)
{
	double lo[3], hi[3];
	const double *costs;
	run_result r;
	sf_de_settings s;
	sf_de *de;
	size_t np;

	fill_box(lo, hi, 3, -1.0, 1.0);
	sf_de_settings_default(&s, alg);
	s.max_evals = 30000;
	s.tol = 0.0;
	s.seed = 11;
	de = de_make(3, lo, hi, &s);
	CU_ASSERT_PTR_NOT_NULL_FATAL(de);
	CU_ASSERT_EQUAL_FATAL(de_run(de, f, lo, hi, 4, NULL, NULL, &r), 0);
	CU_ASSERT_EQUAL(r.out_of_bounds, 0);
	CU_ASSERT(isfinite(r.best_cost));
	CU_ASSERT(r.best_cost < 1e-12);
	for (size_t j = 0; j < 3; j++)
		CU_ASSERT(fabs(r.best[j] + 0.5) < 1e-6);
	/* every member that started with a NaN or -inf cost was replaced */
	sf_de_population(de, &costs);
	np = sf_de_population_size(de);
	for (size_t i = 0; i < np; i++)
		CU_ASSERT(isfinite(costs[i]));
	CU_ASSERT(isfinite(sf_de_spread(de)));
	sf_de_free(de);
}

/* NaN on half the box, then -inf on half the box: both count as +inf. */
static void
test_nonfinite_costs(void)
{
	static const sf_de_algorithm algs[] = {SF_DE_LSHADE, SF_DE_JSO,
	                                       SF_DE_CLASSIC};

	for (size_t a = 0; a < 3; a++) {
		check_nonfinite(algs[a], f_nan_half);
		check_nonfinite(algs[a], f_neginf_half);
	}
}

/* All costs NaN: the search runs to its budget without crashing, and the
 * best cost is +inf. */
static double
f_all_nan(const double *x, size_t dim)
{
	(void)x;
	(void)dim;
	return NAN;
}

static void
test_all_nan(void)
{
	double lo[2] = {0, 0}, hi[2] = {1, 1}, c;
	sf_de_settings s;
	run_result r;
	sf_de *de;

	sf_de_settings_default(&s, SF_DE_LSHADE);
	s.max_evals = 2000;
	de = de_make(2, lo, hi, &s);
	CU_ASSERT_PTR_NOT_NULL_FATAL(de);
	CU_ASSERT_EQUAL_FATAL(de_run(de, f_all_nan, lo, hi, 2, NULL, NULL, &r),
	                      0);
	CU_ASSERT_EQUAL(r.stop, SF_DE_STOP_MAX_EVALS);
	CU_ASSERT(isinf(r.best_cost) && r.best_cost > 0);
	CU_ASSERT_PTR_NOT_NULL(sf_de_best(de, &c));
	CU_ASSERT(isinf(sf_de_spread(de)));
	CU_ASSERT_EQUAL(sf_de_population_size(de), 4);
	sf_de_free(de);
}

/* The minimum lies outside the box: trials leave it all the time, yet
 * every trial asked is inside and the best is the box's corner. */
static void
test_bounds(void)
{
	static const sf_de_algorithm algs[] = {SF_DE_LSHADE, SF_DE_JSO,
	                                       SF_DE_CLASSIC};
	double lo[4] = {-3, 0, 2, -10}, hi[4] = {5, 1, 2.5, 6};

	for (size_t a = 0; a < 3; a++)
		for (size_t m = 0; m < 6; m++) {
			sf_de_settings s;
			run_result r;
			sf_de *de;

			if (algs[a] != SF_DE_CLASSIC && m > 0)
				break;
			sf_de_settings_default(&s, algs[a]);
			s.mutation = (sf_de_mutation)m;
			s.crossover = m % 2 ? SF_DE_EXP : SF_DE_BIN;
			s.max_evals = 20000;
			s.tol = 0.0;
			de = de_make(4, lo, hi, &s);
			CU_ASSERT_PTR_NOT_NULL_FATAL(de);
			CU_ASSERT_EQUAL_FATAL(
			    de_run(de, f_corner, lo, hi, 3, NULL, NULL, &r), 0);
			CU_ASSERT_EQUAL(r.out_of_bounds, 0);
			for (size_t j = 0; j < 4; j++)
				CU_ASSERT(fabs(r.best[j] - hi[j]) < 1e-6);
			sf_de_free(de);
		}
}

/* ------------------------------------------------------------------ */
/* L-SHADE / jSO invariants */

/* What hook_adaptive checks against. */
typedef struct reduction_plan {
	double archive_rate;
	size_t np_init;
	size_t max_evals;
} reduction_plan;

/*
 * After each tell: the population is the linear plan round(N_init + (4 -
 * N_init) evals / max_evals), the archive fits its capacity round(rate *
 * np), and every memory slot is in range.
 */
static int
hook_adaptive(const sf_de *de, void *ctx)
{
	const reduction_plan *plan_of = ctx;
	size_t hook_np_init = plan_of->np_init;
	size_t hook_max_evals = plan_of->max_evals;
	double hook_rate = plan_of->archive_rate;
	size_t np = sf_de_population_size(de), cap, n, evals;
	double plan;
	int ok = 1;

	evals = sf_de_evaluations(de);
	plan = round((4.0 - (double)hook_np_init) / (double)hook_max_evals *
	                 (double)evals +
	             (double)hook_np_init);
	if (sf_de_generations(de) == 0)
		plan = (double)hook_np_init; /* no reduction after init */
	if (np != (size_t)plan) {
		fprintf(stderr, "\nevals %zu: population %zu, plan %g\n", evals,
		        np, plan);
		ok = 0;
	}
	n = sf_de_archive_size(de, &cap);
	if (n > cap || (sf_de_generations(de) > 0 &&
	                cap != (size_t)round(hook_rate * (double)np))) {
		fprintf(stderr, "\nevals %zu: archive %zu of %zu, np %zu\n",
		        evals, n, cap, np);
		ok = 0;
	}
	for (size_t k = 0;; k++) {
		double mf, mcr;

		if (sf_de_memory(de, k, &mf, &mcr) != SF_OK)
			break;
		if (!(mf > 0.0 && mf <= 1.0))
			ok = 0;
		if (!(mcr == -1.0 || (mcr >= 0.0 && mcr <= 1.0)))
			ok = 0;
		if (!ok)
			fprintf(stderr, "\nevals %zu: memory %zu: %g %g\n",
			        evals, k, mf, mcr);
	}
	return ok;
}

static void
check_reduction(sf_de_algorithm alg, size_t dim, size_t max_evals)
{
	double lo[10], hi[10];
	sf_de_settings s;
	run_result r;
	sf_de *de;
	size_t cap;
	reduction_plan plan;

	fill_box(lo, hi, dim, -5.12, 5.12);
	sf_de_settings_default(&s, alg);
	s.max_evals = max_evals;
	s.tol = 0.0;
	de = de_make(dim, lo, hi, &s);
	CU_ASSERT_PTR_NOT_NULL_FATAL(de);
	plan.archive_rate = s.archive_rate;
	plan.np_init = sf_de_population_size(de);
	plan.max_evals = max_evals;
	CU_ASSERT_EQUAL_FATAL(
	    de_run(de, f_noisy_rastrigin, lo, hi, 2, hook_adaptive, &plan, &r),
	    0);
	CU_ASSERT_EQUAL(r.hook_failures, 0);
	CU_ASSERT_EQUAL(r.stop, SF_DE_STOP_MAX_EVALS);
	CU_ASSERT_EQUAL(r.evals, max_evals);
	CU_ASSERT_EQUAL(sf_de_population_size(de), 4);
	CU_ASSERT(sf_de_archive_size(de, &cap) <= cap);
	CU_ASSERT_EQUAL(cap, (size_t)round(s.archive_rate * 4.0));
	sf_de_free(de);
}

static void
test_population_reduction(void)
{
	check_reduction(SF_DE_LSHADE, 5, 50000);
	check_reduction(SF_DE_LSHADE, 2, 3001); /* ragged last batch */
	check_reduction(SF_DE_JSO, 5, 50000);
	check_reduction(SF_DE_JSO, 10, 12345);
}

/* The memory adapts away from its initial values, and jSO's last slot
 * stays at 0.9. */
static void
test_memory_adapts(void)
{
	double lo[5], hi[5], mf, mcr;
	sf_de_settings s;
	run_result r;
	sf_de *de;
	int moved = 0;

	fill_box(lo, hi, 5, -5.12, 5.12);
	sf_de_settings_default(&s, SF_DE_LSHADE);
	s.max_evals = 10000;
	de = de_make(5, lo, hi, &s);
	CU_ASSERT_PTR_NOT_NULL_FATAL(de);
	de_run(de, f_rastrigin, lo, hi, 1, NULL, NULL, &r);
	for (size_t k = 0; k < 6; k++) {
		CU_ASSERT_EQUAL(sf_de_memory(de, k, &mf, &mcr), SF_OK);
		moved += mf != 0.5 || mcr != 0.5;
	}
	CU_ASSERT(moved > 0);
	CU_ASSERT_EQUAL(sf_de_memory(de, 6, &mf, &mcr), SF_EVALUE);
	sf_de_free(de);

	sf_de_settings_default(&s, SF_DE_JSO);
	s.max_evals = 10000;
	de = de_make(5, lo, hi, &s);
	CU_ASSERT_PTR_NOT_NULL_FATAL(de);
	de_run(de, f_rastrigin, lo, hi, 1, NULL, NULL, &r);
	CU_ASSERT_EQUAL(sf_de_memory(de, 4, &mf, &mcr), SF_OK);
	CU_ASSERT_EQUAL(mf, 0.9);
	CU_ASSERT_EQUAL(mcr, 0.9);
	moved = 0;
	for (size_t k = 0; k < 4; k++) {
		sf_de_memory(de, k, &mf, &mcr);
		moved += mf != 0.3 || mcr != 0.8;
	}
	CU_ASSERT(moved > 0);
	sf_de_free(de);
}

/* What hook_terminal saw: which memory slots have been terminal. */
typedef struct terminal_seen {
	int terminal[8];
	int slots_seen;
} terminal_seen;

/* Once an M_CR slot is terminal (-1) it must stay so (L-SHADE's rule). */
static int
hook_terminal(const sf_de *de, void *ctx)
{
	terminal_seen *seen = ctx;
	int ok = 1;
	double mcr;

	for (size_t k = 0; k < 8 && sf_de_memory(de, k, NULL, &mcr) == SF_OK;
	     k++) {
		if (seen->terminal[k] && mcr != -1.0)
			ok = 0;
		if (mcr == -1.0 && !seen->terminal[k]) {
			seen->terminal[k] = 1;
			seen->slots_seen++;
		}
	}
	return ok;
}

/*
 * The caller plays the cost function: each trial gets its parent's cost
 * (a tie: replaced, no success) except one trial per generation, which
 * improves by 1.  With one success per generation, its slot turns
 * terminal exactly when that trial drew CR = 0, which M_CR = 0 makes a
 * coin toss; over 400 generations that is certain to happen (and, with
 * the fixed seed, it does).  The hook checks that terminal slots never
 * come back.
 */
static void
test_terminal_cr(void)
{
	double lo[3] = {-1, -1, -1}, hi[3] = {1, 1, 1}, costs[128];
	terminal_seen seen;
	sf_de_settings s;
	sf_de *de;
	int failures = 0;

	memset(&seen, 0, sizeof seen);
	sf_de_settings_default(&s, SF_DE_LSHADE);
	s.memory_cr = 0.0;
	s.max_evals = 4000;
	de = de_make(3, lo, hi, &s);
	CU_ASSERT_PTR_NOT_NULL_FATAL(de);
	CU_ASSERT_EQUAL_FATAL(sf_de_init(de, NULL, NULL), SF_OK);
	for (size_t gen = 0; sf_de_test(de) == SF_DE_RUNNING; gen++) {
		const double *t, *parent;
		size_t n = sf_de_ask(de, &t);

		CU_ASSERT_FATAL(n > 0 && n <= 128);
		sf_de_population(de, &parent);
		for (size_t k = 0; k < n; k++)
			costs[k] = gen == 0 ? (double)k : parent[k];
		if (gen > 0)
			costs[gen % n] -= 1.0;
		CU_ASSERT_EQUAL_FATAL(sf_de_tell(de, costs, NULL), SF_OK);
		if (!hook_terminal(de, &seen))
			failures++;
	}
	CU_ASSERT_EQUAL(sf_de_test(de), SF_DE_STOP_MAX_EVALS);
	CU_ASSERT(sf_de_generations(de) > 100);
	CU_ASSERT_EQUAL(failures, 0);
	CU_ASSERT(seen.slots_seen >= 1);
	sf_de_free(de);
}

/* ------------------------------------------------------------------ */
/* Stop reasons */

static void
test_stop_reasons(void)
{
	double lo[2] = {-1, -1}, hi[2] = {1, 1};
	const double *costs;
	sf_de_settings s;
	run_result r;
	sf_de *de;

	/* max_evals, with an exact count */
	sf_de_settings_default(&s, SF_DE_LSHADE);
	s.max_evals = 3000;
	s.tol = 0.0;
	de = de_make(2, lo, hi, &s);
	CU_ASSERT_PTR_NOT_NULL_FATAL(de);
	CU_ASSERT_EQUAL_FATAL(de_run(de, f_sphere, lo, hi, 1, NULL, NULL, &r),
	                      0);
	CU_ASSERT_EQUAL(r.stop, SF_DE_STOP_MAX_EVALS);
	CU_ASSERT_EQUAL(r.evals, 3000);
	sf_de_free(de);

	/* classic budget that is not a multiple of the population: the last
	 * batch is shorter, and ask then has nothing more to give */
	sf_de_settings_default(&s, SF_DE_CLASSIC);
	s.max_evals = 95; /* population 30 */
	de = de_make(2, lo, hi, &s);
	CU_ASSERT_PTR_NOT_NULL_FATAL(de);
	CU_ASSERT_EQUAL_FATAL(de_run(de, f_sphere, lo, hi, 1, NULL, NULL, &r),
	                      0);
	CU_ASSERT_EQUAL(r.stop, SF_DE_STOP_MAX_EVALS);
	CU_ASSERT_EQUAL(r.evals, 95);
	CU_ASSERT_EQUAL(r.batches, 4);
	{
		const double *t;
		CU_ASSERT_EQUAL(sf_de_ask(de, &t), 0);
	}
	sf_de_free(de);

	/* a classic budget below the population: only part of the initial
	 * population is evaluated, the rest keeps +inf */
	sf_de_settings_default(&s, SF_DE_CLASSIC);
	s.max_evals = 20; /* population 30 */
	de = de_make(2, lo, hi, &s);
	CU_ASSERT_PTR_NOT_NULL_FATAL(de);
	CU_ASSERT_EQUAL_FATAL(de_run(de, f_sphere, lo, hi, 1, NULL, NULL, &r),
	                      0);
	CU_ASSERT_EQUAL(r.stop, SF_DE_STOP_MAX_EVALS);
	CU_ASSERT_EQUAL(r.evals, 20);
	CU_ASSERT_EQUAL(r.batches, 1);
	CU_ASSERT(isfinite(r.best_cost));
	sf_de_population(de, &costs);
	CU_ASSERT(isfinite(costs[19]) && isinf(costs[20]));
	sf_de_free(de);

	/* max_generations: the initial population plus 7 generations */
	sf_de_settings_default(&s, SF_DE_CLASSIC);
	s.max_generations = 7;
	de = de_make(2, lo, hi, &s);
	CU_ASSERT_PTR_NOT_NULL_FATAL(de);
	CU_ASSERT_EQUAL_FATAL(de_run(de, f_sphere, lo, hi, 1, NULL, NULL, &r),
	                      0);
	CU_ASSERT_EQUAL(r.stop, SF_DE_STOP_MAX_GENERATIONS);
	CU_ASSERT_EQUAL(r.gens, 7);
	CU_ASSERT_EQUAL(r.evals, 8 * 30);
	sf_de_free(de);

	/* tol: scipy's default test on a problem with a nonzero minimum */
	sf_de_settings_default(&s, SF_DE_CLASSIC);
	de = de_make(2, lo, hi, &s);
	CU_ASSERT_PTR_NOT_NULL_FATAL(de);
	CU_ASSERT_EQUAL_FATAL(
	    de_run(de, f_offset_sphere, lo, hi, 1, NULL, NULL, &r), 0);
	CU_ASSERT_EQUAL(r.stop, SF_DE_STOP_TOL);
	CU_ASSERT(r.gens > 1 && r.gens < 1000);
	CU_ASSERT(sf_de_spread(de) <= 0.01);
	sf_de_population(de, &costs);
	CU_ASSERT(fabs(r.best_cost - 1.0) < 1e-3);
	sf_de_free(de);

	/* tol for L-SHADE with its default 1e-8 */
	sf_de_settings_default(&s, SF_DE_LSHADE);
	de = de_make(2, lo, hi, &s);
	CU_ASSERT_PTR_NOT_NULL_FATAL(de);
	CU_ASSERT_EQUAL_FATAL(
	    de_run(de, f_offset_sphere, lo, hi, 1, NULL, NULL, &r), 0);
	CU_ASSERT_EQUAL(r.stop, SF_DE_STOP_TOL);
	CU_ASSERT(r.evals < 20000);
	CU_ASSERT(sf_de_spread(de) <= 1e-8);
	sf_de_free(de);

	/* stagnation: costs differ (so tol = atol = 0 does not fire) but
	 * never improve by 1e-12 relative */
	sf_de_settings_default(&s, SF_DE_CLASSIC);
	s.tol = 0.0;
	s.stagnation_generations = 10;
	de = de_make(2, lo, hi, &s);
	CU_ASSERT_PTR_NOT_NULL_FATAL(de);
	CU_ASSERT_EQUAL_FATAL(de_run(de, f_flat, lo, hi, 1, NULL, NULL, &r), 0);
	CU_ASSERT_EQUAL(r.stop, SF_DE_STOP_STAGNATION);
	CU_ASSERT_EQUAL(r.gens, 10);
	sf_de_free(de);

	/* ... while a real improvement resets the count: on the sphere the
	 * same setting runs on to the generation cap */
	s.max_generations = 40;
	de = de_make(2, lo, hi, &s);
	CU_ASSERT_PTR_NOT_NULL_FATAL(de);
	CU_ASSERT_EQUAL_FATAL(de_run(de, f_sphere, lo, hi, 1, NULL, NULL, &r),
	                      0);
	CU_ASSERT_EQUAL(r.stop, SF_DE_STOP_MAX_GENERATIONS);
	sf_de_free(de);
}

/* The spread: 0 when all costs are equal, +inf with an infinite cost. */
static double
f_one(const double *x, size_t dim)
{
	(void)x;
	(void)dim;
	return 1.0;
}

static void
test_spread(void)
{
	double lo[2] = {-1, -1}, hi[2] = {1, 1}, costs[30];
	sf_de_settings s;
	const double *t;
	sf_de *de;
	size_t n;
	run_result r;

	sf_de_settings_default(&s, SF_DE_CLASSIC);
	de = de_make(2, lo, hi, &s);
	CU_ASSERT_PTR_NOT_NULL_FATAL(de);
	sf_de_init(de, NULL, NULL);
	CU_ASSERT(isinf(sf_de_spread(de))); /* nothing evaluated yet */
	n = sf_de_ask(de, &t);
	CU_ASSERT_EQUAL_FATAL(n, 30);
	for (size_t i = 0; i < n; i++)
		costs[i] = (double)(i % 2) * 2.0 + 1.0; /* 1, 3, 1, 3: */
	sf_de_tell(de, costs, NULL);                    /* mean 2, std 1 */
	CU_ASSERT_DOUBLE_EQUAL(sf_de_spread(de), 0.5, 1e-15);
	/* tol is only tested after a generation, as scipy does */
	CU_ASSERT_EQUAL(sf_de_test(de), SF_DE_RUNNING);
	sf_de_free(de);

	/* a constant cost converges after one generation */
	de = de_make(2, lo, hi, &s);
	CU_ASSERT_PTR_NOT_NULL_FATAL(de);
	CU_ASSERT_EQUAL_FATAL(de_run(de, f_one, lo, hi, 1, NULL, NULL, &r), 0);
	CU_ASSERT_EQUAL(r.stop, SF_DE_STOP_TOL);
	CU_ASSERT_EQUAL(r.gens, 1);
	CU_ASSERT_EQUAL(sf_de_spread(de), 0.0);
	sf_de_free(de);
}

/* ------------------------------------------------------------------ */

int
main(void)
{
	CU_TestInfo tests[] = {
	    {"strategy names", test_strategy_names},
	    {"algorithm and stop names", test_algorithm_and_stop_names},
	    {"the table of algorithms", test_algorithm_table},
	    {"settings validation", test_validation},
	    {"life cycle errors", test_life_cycle_errors},
	    {"seed member keeps the stream", test_seed_member_stream},
	    {"population defaults", test_population_defaults},
	    {"L-SHADE and jSO reach the minima", test_adaptive_minima},
	    {"classic strategies reach the minima", test_classic_minima},
	    {"determinism across runs and threads", test_determinism},
	    {"NaN and infinite costs", test_nonfinite_costs},
	    {"all costs NaN", test_all_nan},
	    {"trials stay inside the bounds", test_bounds},
	    {"population reduction and archive", test_population_reduction},
	    {"success memory adapts", test_memory_adapts},
	    {"terminal CR stays terminal", test_terminal_cr},
	    {"stop reasons", test_stop_reasons},
	    {"spread", test_spread},
	    CU_TEST_INFO_NULL,
	};
	CU_SuiteInfo suites[] = {
	    {"de", NULL, NULL, NULL, NULL, tests},
	    CU_SUITE_INFO_NULL,
	};

	return sf_test_main(suites);
}
