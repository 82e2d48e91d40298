/*
 * de.c - differential evolution driven by ask / tell: classic (scipy),
 * L-SHADE and jSO.
 *
 * One sf_de holds a population of np vectors with their costs.  sf_de_ask
 * builds one trial per member from the current population (all random
 * draws happen here, member by member), the caller evaluates the batch in
 * any order, and sf_de_tell selects serially: trial k replaces member k
 * when its cost is lower or equal.  This is scipy's updating='deferred'.
 *
 * Classic DE follows scipy.optimize.differential_evolution 1.10: the best
 * member used by best1/best2/currenttobest1/randtobest1 is the best of the
 * population at the start of the generation; F is dithered once per
 * generation; binomial crossover forces one random component from the
 * mutant; exponential crossover copies a run that starts at a random
 * component and goes on while U < CR; a trial component outside the box is
 * redrawn uniformly inside it; the convergence test is numpy's
 * std(costs) <= atol + tol |mean(costs)| and is only made once every cost
 * is finite and after at least one generation, as scipy does.
 *
 * L-SHADE follows Tanabe & Fukunaga (CEC 2014) and jSO Brest, Maucec &
 * Boskovic (CEC 2017); the comments at sf_de_ask / sf_de_tell's helpers
 * name each rule and the choices the papers leave open.
 */
#include "solve/de.h"

#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/rng.h"
#include "base/suggest.h"

/* The PCG32 stream of the optimiser, fixed so a seed names one run. */
static const uint64_t de_rng_stream = 0x5ca1ef17de000001ULL;

/* CEC evaluation budget per parameter, the default for L-SHADE/jSO. */
static const size_t de_evals_per_dim = 10000;

/* jSO's initial population: round(25 ln(dim) sqrt(dim)). */
static const double jso_population_factor = 25.0;

/* Scale of the normal CR draws and of the Cauchy F draws (both papers). */
static const double de_cr_sigma = 0.1;
static const double de_f_gamma = 0.1;

/* Value of an M_CR slot that has reached the terminal value (CR = 0). */
static const double de_cr_terminal = -1.0;

/* jSO: the memory's last slot stays at these values. */
static const double jso_fixed_memory = 0.9;

/* jSO schedules, as fractions of the budget used. */
static const double jso_cr_early = 0.25, jso_cr_early_min = 0.7;
static const double jso_cr_mid = 0.5, jso_cr_mid_min = 0.6;
static const double jso_f_early = 0.6, jso_f_early_max = 0.7;
static const double jso_fw_first = 0.2, jso_fw_first_factor = 0.7;
static const double jso_fw_second = 0.4, jso_fw_second_factor = 0.8;
static const double jso_fw_last_factor = 1.2;
static const double jso_pbest_distinct = 0.5; /* pbest != i before this */

/* Where the ask / tell cycle is. */
enum de_phase {
	DE_UNINIT = 0,    /* allocated, or a failed init */
	DE_NEED_INITIAL,  /* init done: next ask returns the population */
	DE_ASKED_INITIAL, /* the initial population awaits its costs */
	DE_READY,         /* next ask builds a generation */
	DE_ASKED          /* a generation awaits its costs */
};

struct sf_de {
	sf_de_settings s; /* copy of the caller's settings */
	size_t dim;
	double *lower, *upper; /* dim each */
	size_t np_init;        /* initial (largest) population */
	size_t np_min;         /* population at the end of the budget */
	size_t np;             /* current population */
	size_t max_evals;      /* resolved budget, 0 = unlimited */

	double *pop;    /* np_init * dim, row-major */
	double *cost;   /* np_init */
	double *trial;  /* np_init * dim: the batch handed out by ask */
	size_t ntrial;  /* rows of the batch in flight */
	double *mutant; /* dim: classic mutant vector */
	int phase;

	/* adaptive state */
	double *trial_f, *trial_cr; /* np_init: F_i and CR_i of each trial */
	size_t *order;              /* np_init: members sorted by cost */
	double *archive;            /* archive_max * dim */
	size_t archive_n, archive_cap, archive_max;
	double *mem_f, *mem_cr; /* memory_size */
	size_t mem_pos;
	double *succ_f, *succ_cr, *succ_w; /* np_init: S_F, S_CR, |df| */
	uint32_t *perm; /* np_init: Latin hypercube scratch */

	size_t best_idx; /* best member of the population */
	double *best_x;  /* dim: best vector seen */
	double best_cost;
	int have_best;
	size_t evals, gens;
	double stag_ref; /* best cost at the last real improvement */
	size_t stag_gen; /* generation of that improvement */
	sf_rng rng;
};

/* ------------------------------------------------------------------ */
/* Names */

/*
 * Every algorithm's name and defaults (de.h's sf_de_method; de.h's
 * sf_de_settings says where each value comes from).  Classic DE's are
 * scipy's, its population floor scipy's 5, and it has no success memory;
 * L-SHADE's and jSO's are their papers', with a floor of 30 because
 * 18 * dim or jSO's formula are too small to adapt anything for dim of 1
 * or 2.
 */
static const sf_de_method de_methods[] = {
    [SF_DE_LSHADE] = {.name = "lshade",
                      .adaptive = 1,
                      .popsize = 18.0,
                      .population_floor = 30,
                      .max_generations = 0,
                      .tol = 1e-8,
                      .memory_size = 6,
                      .memory_f = 0.5,
                      .memory_cr = 0.5,
                      .pbest_rate = 0.11,
                      .archive_rate = 2.6},
    [SF_DE_JSO] = {.name = "jso",
                   .adaptive = 1,
                   .popsize = 0.0, /* jSO's round(25 ln(dim) sqrt(dim)) */
                   .population_floor = 30,
                   .max_generations = 0,
                   .tol = 1e-8,
                   .memory_size = 5,
                   .memory_f = 0.3,
                   .memory_cr = 0.8,
                   .pbest_rate = 0.25,
                   .archive_rate = 1.0},
    [SF_DE_CLASSIC] = {.name = "de",
                       .adaptive = 0,
                       .popsize = 15.0,
                       .population_floor = 5,
                       .max_generations = 1000,
                       .tol = 0.01},
};

static const char *const de_strategy_names[][2] = {
    [SF_DE_RAND1] = {"rand1bin", "rand1exp"},
    [SF_DE_BEST1] = {"best1bin", "best1exp"},
    [SF_DE_CURRENTTOBEST1] = {"currenttobest1bin", "currenttobest1exp"},
    [SF_DE_RANDTOBEST1] = {"randtobest1bin", "randtobest1exp"},
    [SF_DE_BEST2] = {"best2bin", "best2exp"},
    [SF_DE_RAND2] = {"rand2bin", "rand2exp"},
};

/* Distinct members other than the target that each mutation draws. */
static const size_t de_mutation_samples[] = {
    [SF_DE_RAND1] = 3,       [SF_DE_BEST1] = 2, [SF_DE_CURRENTTOBEST1] = 2,
    [SF_DE_RANDTOBEST1] = 3, [SF_DE_BEST2] = 4, [SF_DE_RAND2] = 5,
};

enum {
	DE_N_ALGORITHMS = sizeof de_methods / sizeof de_methods[0],
	DE_N_MUTATIONS = sizeof de_strategy_names / sizeof de_strategy_names[0],
	DE_MAX_SAMPLES = 5
};

_Static_assert((int)DE_N_ALGORITHMS == (int)SF_DE_ALGORITHMS, "de.h's count");
_Static_assert(DE_N_MUTATIONS == SF_DE_MUTATIONS, "de.h's count");

static const char *const de_stop_names[] = {
    [SF_DE_RUNNING] = "running",
    [SF_DE_STOP_TOL] = "tol",
    [SF_DE_STOP_STAGNATION] = "stagnation",
    [SF_DE_STOP_MAX_EVALS] = "max_evals",
    [SF_DE_STOP_MAX_GENERATIONS] = "max_generations",
};

const sf_de_method *
sf_de_method_get(sf_de_algorithm a)
{
	return (size_t)a < DE_N_ALGORITHMS ? &de_methods[a] : NULL;
}

size_t
sf_de_algorithm_names(const char **names)
{
	for (size_t i = 0; i < DE_N_ALGORITHMS; i++)
		names[i] = de_methods[i].name;
	return DE_N_ALGORITHMS;
}

int
sf_de_algorithm_find(const char *name, sf_de_algorithm *algorithm,
                     const char **nearest)
{
	const char *names[DE_N_ALGORITHMS];
	size_t i;

	sf_de_algorithm_names(names);
	if ((i = sf_suggest_match(name, names, DE_N_ALGORITHMS, nearest)) ==
	    DE_N_ALGORITHMS)
		return SF_ENAME;
	*algorithm = (sf_de_algorithm)i;
	return SF_OK;
}

const char *
sf_de_algorithm_name(sf_de_algorithm a)
{
	if ((size_t)a >= DE_N_ALGORITHMS)
		return "unknown";
	return de_methods[a].name;
}

char *
sf_de_algorithm_list(char *buf, size_t size)
{
	const char *names[DE_N_ALGORITHMS];

	sf_de_algorithm_names(names);
	return sf_suggest_list(names, DE_N_ALGORITHMS, buf, size);
}

int
sf_de_strategy_parse(const char *name, sf_de_mutation *m, sf_de_crossover *c,
                     sf_error *err)
{
	for (size_t i = 0; name != NULL && i < DE_N_MUTATIONS; i++)
		for (size_t j = 0; j < 2; j++)
			if (strcmp(name, de_strategy_names[i][j]) == 0) {
				*m = (sf_de_mutation)i;
				*c = (sf_de_crossover)j;
				return SF_OK;
			}
	return sf_error_set(err, SF_ENAME,
	                    "unknown DE strategy '%s' (expected one of "
	                    "rand1, best1, currenttobest1, randtobest1, best2 "
	                    "or rand2 followed by bin or exp, e.g. best1bin)",
	                    name != NULL ? name : "");
}

const char *
sf_de_strategy_name(sf_de_mutation m, sf_de_crossover c)
{
	if ((size_t)m >= DE_N_MUTATIONS || (size_t)c > 1)
		return "unknown";
	return de_strategy_names[m][c];
}

size_t
sf_de_mutation_min_population(sf_de_mutation m)
{
	if ((size_t)m >= DE_N_MUTATIONS)
		return 0;
	return de_mutation_samples[m] + 1;
}

const char *
sf_de_stop_name(int reason)
{
	if (reason < 0 ||
	    (size_t)reason >= sizeof de_stop_names / sizeof de_stop_names[0])
		return "unknown";
	return de_stop_names[reason];
}

/* ------------------------------------------------------------------ */
/* Settings */

void
sf_de_settings_default(sf_de_settings *s, sf_de_algorithm algorithm)
{
	/* an unknown algorithm gets L-SHADE's, and fails validation */
	const sf_de_method *d =
	    &de_methods[(size_t)algorithm < DE_N_ALGORITHMS ? algorithm
	                                                    : SF_DE_LSHADE];

	memset(s, 0, sizeof *s);
	s->algorithm = algorithm;
	s->mutation = SF_DE_BEST1;
	s->crossover = SF_DE_BIN;
	s->init = SF_DE_INIT_LHS;
	s->population = 0;
	s->max_evals = 0;
	s->stagnation_generations = 0;
	s->stagnation_rtol = 1e-12;
	s->seed = 1;
	s->f_min = 0.5;
	s->f_max = 1.0;
	s->cr = 0.7;
	s->atol = 0.0;
	s->population_min = 4;
	s->popsize = d->popsize;
	s->max_generations = d->max_generations;
	s->tol = d->tol;
	s->memory_size = d->memory_size;
	s->memory_f = d->memory_f;
	s->memory_cr = d->memory_cr;
	s->pbest_rate = d->pbest_rate;
	s->archive_rate = d->archive_rate;
}

/* Validated settings only (a known algorithm). */
static int
de_adaptive(const sf_de_settings *s)
{
	return de_methods[s->algorithm].adaptive;
}

/*
 * The initial population size the settings ask for, or 0 when popsize is
 * not usable (validated by the caller); a size too large to represent is
 * returned as SF_DE_POPULATION_MAX + 1 so that validation rejects it.
 */
static size_t
de_initial_population(const sf_de_settings *s, size_t dim)
{
	size_t floor_np = de_methods[s->algorithm].population_floor;
	double n;

	if (s->population > 0)
		return s->population;
	if (!de_adaptive(s)) {
		size_t min_np = sf_de_mutation_min_population(s->mutation);
		if (min_np > floor_np)
			floor_np = min_np;
		if (!(s->popsize > 0.0))
			return 0;
		n = s->popsize * (double)dim;
	} else {
		if (s->popsize > 0.0)
			n = s->popsize * (double)dim;
		else
			n = jso_population_factor * log((double)dim) *
			    sqrt((double)dim);
	}
	n = round(n);
	if (!(n <= (double)SF_DE_POPULATION_MAX))
		return (size_t)SF_DE_POPULATION_MAX + 1;
	return (size_t)n > floor_np ? (size_t)n : floor_np;
}

static int
de_in_unit(double x)
{
	return x >= 0.0 && x <= 1.0;
}

/* The bounds: finite, lower below upper, and their span finite. */
static int
de_check_bounds(size_t dim, const double *lower, const double *upper,
                sf_error *err)
{
	if (lower == NULL || upper == NULL)
		return sf_error_set(err, SF_EVALUE, "missing bounds");
	if (dim > SIZE_MAX / sizeof(double) / 4)
		return sf_error_set(err, SF_EVALUE, "too many parameters (%zu)",
		                    dim);
	for (size_t i = 0; i < dim; i++) {
		if (!isfinite(lower[i]) || !isfinite(upper[i]))
			return sf_error_set(err, SF_EVALUE,
			                    "parameter %zu: bounds must be "
			                    "finite (min %g, max %g)",
			                    i, lower[i], upper[i]);
		if (!(lower[i] < upper[i]))
			return sf_error_set(err, SF_EVALUE,
			                    "parameter %zu: lower bound %g is "
			                    "not below upper bound %g",
			                    i, lower[i], upper[i]);
		if (!isfinite(upper[i] - lower[i]))
			return sf_error_set(err, SF_EVALUE,
			                    "parameter %zu: bounds [%g, %g] "
			                    "are too far apart",
			                    i, lower[i], upper[i]);
	}
	return SF_OK;
}

/* Classic DE's own settings: the strategy, F, CR and popsize. */
static int
de_check_classic(const sf_de_settings *s, sf_error *err)
{
	if ((size_t)s->mutation >= DE_N_MUTATIONS ||
	    (size_t)s->crossover > SF_DE_EXP)
		return sf_error_set(err, SF_EVALUE,
		                    "unknown DE strategy (mutation "
		                    "%d, crossover %d)",
		                    (int)s->mutation, (int)s->crossover);
	/* Dithered F is drawn from [min, max), so max may be 2. */
	if (!(s->f_min >= 0.0 && s->f_min <= s->f_max &&
	      (s->f_max < 2.0 || (s->f_max == 2.0 && s->f_min < s->f_max))))
		return sf_error_set(err, SF_EVALUE,
		                    "mutation factor F range [%g, %g] "
		                    "must satisfy 0 <= min <= max <= 2 "
		                    "with max < 2 unless min < max",
		                    s->f_min, s->f_max);
	if (!de_in_unit(s->cr))
		return sf_error_set(err, SF_EVALUE,
		                    "recombination CR %g is outside "
		                    "[0, 1]",
		                    s->cr);
	if (s->population == 0 && !(s->popsize > 0.0 && isfinite(s->popsize)))
		return sf_error_set(err, SF_EVALUE,
		                    "popsize %g must be positive", s->popsize);
	return SF_OK;
}

/* L-SHADE's and jSO's own settings: popsize, the success memory, the
 * pbest and archive rates, the final population. */
static int
de_check_adaptive(const sf_de_settings *s, sf_error *err)
{
	size_t min_memory = s->algorithm == SF_DE_JSO ? 2 : 1;

	if (s->population == 0 && !(s->popsize >= 0.0 && isfinite(s->popsize)))
		return sf_error_set(err, SF_EVALUE,
		                    "popsize %g must not be negative",
		                    s->popsize);
	if (s->memory_size < min_memory ||
	    s->memory_size > SF_DE_POPULATION_MAX)
		return sf_error_set(err, SF_EVALUE,
		                    "memory size %zu is outside "
		                    "[%zu, %u]",
		                    s->memory_size, min_memory,
		                    SF_DE_POPULATION_MAX);
	if (!(s->memory_f > 0.0 && s->memory_f <= 1.0))
		return sf_error_set(err, SF_EVALUE,
		                    "initial memory F %g is outside "
		                    "(0, 1]",
		                    s->memory_f);
	if (!de_in_unit(s->memory_cr))
		return sf_error_set(err, SF_EVALUE,
		                    "initial memory CR %g is outside "
		                    "[0, 1]",
		                    s->memory_cr);
	if (!(s->pbest_rate > 0.0 && s->pbest_rate <= 1.0))
		return sf_error_set(err, SF_EVALUE,
		                    "pbest rate %g is outside (0, 1]",
		                    s->pbest_rate);
	if (!(s->archive_rate >= 0.0 && s->archive_rate <= 100.0))
		return sf_error_set(err, SF_EVALUE,
		                    "archive rate %g is outside "
		                    "[0, 100]",
		                    s->archive_rate);
	if (s->population_min < 4)
		return sf_error_set(err, SF_EVALUE,
		                    "minimum population %zu is below "
		                    "4",
		                    s->population_min);
	return SF_OK;
}

/* The stopping tolerances: finite and not negative. */
static int
de_check_tolerances(const sf_de_settings *s, sf_error *err)
{
	if (!(s->tol >= 0.0 && isfinite(s->tol)))
		return sf_error_set(err, SF_EVALUE,
		                    "tol %g must be finite and >= 0", s->tol);
	if (!(s->atol >= 0.0 && isfinite(s->atol)))
		return sf_error_set(err, SF_EVALUE,
		                    "atol %g must be finite and >= 0", s->atol);
	if (!(s->stagnation_rtol >= 0.0 && isfinite(s->stagnation_rtol)))
		return sf_error_set(err, SF_EVALUE,
		                    "stagnation tolerance %g must be finite "
		                    "and >= 0",
		                    s->stagnation_rtol);
	return SF_OK;
}

/* The initial population into *np_out: at least min_np (the strategy's
 * or the final population), at most the maximum, representable with dim
 * parameters, and within the budget of an adaptive algorithm. */
static int
de_check_population(size_t dim, const sf_de_settings *s, size_t min_np,
                    size_t *np_out, sf_error *err)
{
	size_t np = de_initial_population(s, dim);

	if (np > SF_DE_POPULATION_MAX)
		return sf_error_set(err, SF_EVALUE,
		                    "population %zu is above the maximum %u",
		                    np, SF_DE_POPULATION_MAX);
	if (np < min_np) {
		if (!de_adaptive(s))
			return sf_error_set(
			    err, SF_EVALUE,
			    "population %zu is too small for strategy %s "
			    "(at least %zu)",
			    np, sf_de_strategy_name(s->mutation, s->crossover),
			    min_np);
		return sf_error_set(err, SF_EVALUE,
		                    "population %zu is below the minimum "
		                    "population %zu",
		                    np, min_np);
	}
	if (np > SIZE_MAX / sizeof(double) / 4 / dim)
		return sf_error_set(err, SF_EVALUE,
		                    "population %zu times %zu parameters is "
		                    "too large",
		                    np, dim);
	if (de_adaptive(s) && s->max_evals != 0 && s->max_evals < np)
		return sf_error_set(err, SF_EVALUE,
		                    "max_evals %zu is below the initial "
		                    "population %zu",
		                    s->max_evals, np);
	*np_out = np;
	return SF_OK;
}

static int
de_validate(size_t dim, const double *lower, const double *upper,
            const sf_de_settings *s, size_t *np_out, sf_error *err)
{
	size_t min_np;
	int rc;

	if (dim == 0)
		return sf_error_set(err, SF_EVALUE, "no parameters to fit");
	if ((rc = de_check_bounds(dim, lower, upper, err)) != SF_OK)
		return rc;
	if ((size_t)s->algorithm >= DE_N_ALGORITHMS)
		return sf_error_set(err, SF_EVALUE,
		                    "unknown optimizer algorithm %d",
		                    (int)s->algorithm);
	if ((size_t)s->init > SF_DE_INIT_UNIFORM)
		return sf_error_set(err, SF_EVALUE, "unknown initialisation %d",
		                    (int)s->init);
	if (!de_adaptive(s)) {
		rc = de_check_classic(s, err);
		min_np = sf_de_mutation_min_population(s->mutation);
	} else {
		rc = de_check_adaptive(s, err);
		min_np = s->population_min;
	}
	if (rc != SF_OK || (rc = de_check_tolerances(s, err)) != SF_OK)
		return rc;
	return de_check_population(dim, s, min_np, np_out, err);
}

/* ------------------------------------------------------------------ */
/* Life cycle */

void
sf_de_free(sf_de *de)
{
	if (de == NULL)
		return;
	free(de->lower);
	free(de->upper);
	free(de->pop);
	free(de->cost);
	free(de->trial);
	free(de->mutant);
	free(de->trial_f);
	free(de->trial_cr);
	free(de->order);
	free(de->archive);
	free(de->mem_f);
	free(de->mem_cr);
	free(de->succ_f);
	free(de->succ_cr);
	free(de->succ_w);
	free(de->perm);
	free(de->best_x);
	free(de);
}

/* calloc of n elements of size bytes; n >= 1 keeps every pointer live. */
static void *
de_calloc(size_t n, size_t size)
{
	return calloc(n > 0 ? n : 1, size);
}

sf_de *
sf_de_alloc(size_t dim, const double *lower, const double *upper,
            const sf_de_settings *s, sf_error *err)
{
	sf_de *de;
	size_t np = 0, arc_max = 0, h = 1, budget;

	if (s == NULL) {
		sf_error_set(err, SF_EVALUE, "missing optimizer settings");
		return NULL;
	}
	if (de_validate(dim, lower, upper, s, &np, err) != SF_OK)
		return NULL;
	budget = s->max_evals;
	if (de_adaptive(s)) {
		h = s->memory_size;
		arc_max = (size_t)round(s->archive_rate * (double)np);
		if (budget == 0)
			budget = dim <= SIZE_MAX / de_evals_per_dim
			             ? de_evals_per_dim * dim
			             : SIZE_MAX;
		if (budget < np) {
			sf_error_set(err, SF_EVALUE,
			             "the default budget %zu is below the "
			             "initial population %zu: set max_evals",
			             budget, np);
			return NULL;
		}
	}

	de = calloc(1, sizeof *de);
	if (de == NULL)
		goto nomem;
	de->s = *s;
	de->dim = dim;
	de->np_init = np;
	de->np = np;
	de->np_min = de_adaptive(s) ? s->population_min : np;
	de->max_evals = budget;
	de->archive_max = arc_max;
	de->lower = de_calloc(dim, sizeof(double));
	de->upper = de_calloc(dim, sizeof(double));
	de->pop = de_calloc(np * dim, sizeof(double));
	de->cost = de_calloc(np, sizeof(double));
	de->trial = de_calloc(np * dim, sizeof(double));
	de->mutant = de_calloc(dim, sizeof(double));
	de->trial_f = de_calloc(np, sizeof(double));
	de->trial_cr = de_calloc(np, sizeof(double));
	de->order = de_calloc(np, sizeof(size_t));
	de->archive = de_calloc(arc_max * dim, sizeof(double));
	de->mem_f = de_calloc(h, sizeof(double));
	de->mem_cr = de_calloc(h, sizeof(double));
	de->succ_f = de_calloc(np, sizeof(double));
	de->succ_cr = de_calloc(np, sizeof(double));
	de->succ_w = de_calloc(np, sizeof(double));
	de->perm = de_calloc(np, sizeof(uint32_t));
	de->best_x = de_calloc(dim, sizeof(double));
	if (de->lower == NULL || de->upper == NULL || de->pop == NULL ||
	    de->cost == NULL || de->trial == NULL || de->mutant == NULL ||
	    de->trial_f == NULL || de->trial_cr == NULL || de->order == NULL ||
	    de->archive == NULL || de->mem_f == NULL || de->mem_cr == NULL ||
	    de->succ_f == NULL || de->succ_cr == NULL || de->succ_w == NULL ||
	    de->perm == NULL || de->best_x == NULL)
		goto nomem;
	memcpy(de->lower, lower, dim * sizeof(double));
	memcpy(de->upper, upper, dim * sizeof(double));
	de->phase = DE_UNINIT;
	return de;

nomem:
	sf_de_free(de);
	sf_error_set(err, SF_ENOMEM,
	             "out of memory allocating the optimizer (population "
	             "%zu, %zu parameters)",
	             np, dim);
	return NULL;
}

/* lower + u * (upper - lower) for u in [0, 1), kept inside the box even
 * when rounding would step over the upper bound. */
static double
de_scale(double lo, double hi, double u)
{
	double x = lo + u * (hi - lo);

	return x < lo ? lo : (x > hi ? hi : x);
}

/*
 * Latin hypercube as scipy draws it: for each parameter the range is cut
 * into np equal strata, each member gets a distinct stratum (a random
 * permutation) and a uniform point inside it.
 */
static void
de_init_lhs(sf_de *de)
{
	size_t np = de->np, dim = de->dim;

	for (size_t j = 0; j < dim; j++) {
		for (size_t i = 0; i < np; i++)
			de->perm[i] = (uint32_t)i;
		for (size_t i = np - 1; i > 0; i--) {
			uint32_t k = sf_rng_bounded(&de->rng, (uint32_t)i + 1);
			uint32_t t = de->perm[i];
			de->perm[i] = de->perm[k];
			de->perm[k] = t;
		}
		for (size_t i = 0; i < np; i++) {
			double u =
			    ((double)de->perm[i] + sf_rng_uniform(&de->rng)) /
			    (double)np;
			de->pop[i * dim + j] =
			    de_scale(de->lower[j], de->upper[j], u);
		}
	}
}

static void
de_init_uniform(sf_de *de)
{
	for (size_t i = 0; i < de->np; i++)
		for (size_t j = 0; j < de->dim; j++)
			de->pop[i * de->dim + j] =
			    de_scale(de->lower[j], de->upper[j],
			             sf_rng_uniform(&de->rng));
}

int
sf_de_init(sf_de *de, const double *seed_member, sf_error *err)
{
	const sf_de_settings *s = &de->s;

	de->phase = DE_UNINIT;
	if (seed_member != NULL)
		for (size_t j = 0; j < de->dim; j++)
			if (!(seed_member[j] >= de->lower[j] &&
			      seed_member[j] <= de->upper[j]))
				return sf_error_set(
				    err, SF_EVALUE,
				    "initial value %g of parameter %zu "
				    "is outside its bounds [%g, %g]",
				    seed_member[j], j, de->lower[j],
				    de->upper[j]);

	sf_rng_seed(&de->rng, s->seed, de_rng_stream);
	de->np = de->np_init;
	de->evals = 0;
	de->gens = 0;
	de->ntrial = 0;
	de->archive_n = 0;
	de->archive_cap = de->archive_max;
	de->mem_pos = 0;
	if (de_adaptive(s)) {
		for (size_t k = 0; k < s->memory_size; k++) {
			de->mem_f[k] = s->memory_f;
			de->mem_cr[k] = s->memory_cr;
		}
		if (s->algorithm == SF_DE_JSO) {
			de->mem_f[s->memory_size - 1] = jso_fixed_memory;
			de->mem_cr[s->memory_size - 1] = jso_fixed_memory;
		}
	}
	/* The whole population is drawn even when member 0 is then replaced,
	 * so a seed member does not shift the random stream. */
	if (s->init == SF_DE_INIT_LHS)
		de_init_lhs(de);
	else
		de_init_uniform(de);
	if (seed_member != NULL)
		memcpy(de->pop, seed_member, de->dim * sizeof(double));
	for (size_t i = 0; i < de->np; i++)
		de->cost[i] = INFINITY;
	de->best_idx = 0;
	de->best_cost = INFINITY;
	de->have_best = 0;
	de->stag_ref = INFINITY;
	de->stag_gen = 0;
	de->phase = DE_NEED_INITIAL;
	return SF_OK;
}

/* ------------------------------------------------------------------ */
/* Ask */

/* Draw count distinct members (of the population's range), none equal
 * to target, into r. */
static void
de_draw_distinct(sf_de *de, size_t target, size_t count, size_t *r,
                 const sf_rng_range *members)
{
	for (size_t k = 0; k < count; k++) {
		size_t c;
		int clash;

		do {
			c = sf_rng_below(&de->rng, members);
			clash = c == target;
			for (size_t m = 0; m < k && !clash; m++)
				clash = r[m] == c;
		} while (clash);
		r[k] = c;
	}
}

/* Classic mutant of member i into de->mutant. */
static void
de_classic_mutant(sf_de *de, size_t i, const size_t *r, double f)
{
	size_t dim = de->dim;
	const double *x = de->pop + i * dim;
	const double *b = de->pop + de->best_idx * dim;
	const double *p0 = de->pop + r[0] * dim, *p1 = de->pop + r[1] * dim;
	const double *p2 = NULL, *p3 = NULL, *p4 = NULL;
	double *v = de->mutant;

	if (de_mutation_samples[de->s.mutation] > 2)
		p2 = de->pop + r[2] * dim;
	if (de_mutation_samples[de->s.mutation] > 3)
		p3 = de->pop + r[3] * dim;
	if (de_mutation_samples[de->s.mutation] > 4)
		p4 = de->pop + r[4] * dim;
	for (size_t j = 0; j < dim; j++) {
		switch (de->s.mutation) {
		case SF_DE_RAND1:
			v[j] = p0[j] + f * (p1[j] - p2[j]);
			break;
		case SF_DE_BEST1:
			v[j] = b[j] + f * (p0[j] - p1[j]);
			break;
		case SF_DE_CURRENTTOBEST1:
			v[j] = x[j] + f * (b[j] - x[j] + p0[j] - p1[j]);
			break;
		case SF_DE_RANDTOBEST1:
			/* scipy adds the two terms in this order */
			v[j] = p0[j] + f * (b[j] - p0[j]);
			v[j] += f * (p1[j] - p2[j]);
			break;
		case SF_DE_BEST2:
			v[j] = b[j] + f * (p0[j] + p1[j] - p2[j] - p3[j]);
			break;
		case SF_DE_RAND2:
			v[j] = p0[j] + f * (p1[j] + p2[j] - p3[j] - p4[j]);
			break;
		}
	}
}

/*
 * One classic generation: per member, the crossover start (scipy's
 * fill_point), the distinct sample members, the mutant, the crossover
 * draws, then a fresh uniform value for each component outside the box
 * (scipy's _ensure_constraint).
 */
static void
de_ask_classic(sf_de *de, size_t n)
{
	size_t dim = de->dim, r[DE_MAX_SAMPLES];
	size_t nsamples = de_mutation_samples[de->s.mutation];
	double f = de->s.f_min, cr = de->s.cr;
	sf_rng_range members = sf_rng_range_of((uint32_t)de->np);
	sf_rng_range coords = sf_rng_range_of((uint32_t)dim);

	if (de->s.f_min < de->s.f_max)
		f = de->s.f_min +
		    sf_rng_uniform(&de->rng) * (de->s.f_max - de->s.f_min);
	for (size_t i = 0; i < n; i++) {
		double *t = de->trial + i * dim;
		size_t fill = sf_rng_below(&de->rng, &coords);

		de_draw_distinct(de, i, nsamples, r, &members);
		de_classic_mutant(de, i, r, f);
		memcpy(t, de->pop + i * dim, dim * sizeof(double));
		if (de->s.crossover == SF_DE_BIN) {
			/* a select on the bits, not a branch: which
			 * coordinates cross over is a coin toss the
			 * processor cannot predict */
			for (size_t j = 0; j < dim; j++) {
				uint64_t take =
				    (uint64_t)0 -
				    (uint64_t)((sf_rng_uniform(&de->rng) < cr) |
				               (j == fill));
				uint64_t keep, cross;

				memcpy(&keep, &t[j], sizeof keep);
				memcpy(&cross, &de->mutant[j], sizeof cross);
				keep = (cross & take) | (keep & ~take);
				memcpy(&t[j], &keep, sizeof keep);
			}
		} else {
			size_t len = 0;
			do {
				t[fill] = de->mutant[fill];
				fill = (fill + 1) % dim;
				len++;
			} while (len < dim && sf_rng_uniform(&de->rng) < cr);
		}
		for (size_t j = 0; j < dim; j++)
			if (!(t[j] >= de->lower[j] && t[j] <= de->upper[j]))
				t[j] = de_scale(de->lower[j], de->upper[j],
				                sf_rng_uniform(&de->rng));
	}
}

/* Is member a better than member b?  Ties go to the lower index, so the
 * order is total and every sort gives the same result. */
static int
de_before(const double *cost, size_t a, size_t b)
{
	return cost[a] < cost[b] || (cost[a] == cost[b] && a < b);
}

/*
 * de->order[0 .. k) = the k best members, best first (the order a full
 * sort by de_before gives, which is total, so the same bits): an
 * insertion into a list of k, O(np k) at worst and about np when few
 * members beat the k-th.  pbest draws only from these; sorting the whole
 * population each generation was a tenth of a small fit's time.
 */
static void
de_best_order(sf_de *de, size_t k)
{
	size_t *h = de->order, m = 0;

	for (size_t i = 0; i < de->np; i++) {
		size_t j;

		if (m == k && !de_before(de->cost, i, h[k - 1]))
			continue;
		j = m < k ? m++ : k - 1;
		for (; j > 0 && de_before(de->cost, i, h[j - 1]); j--)
			h[j] = h[j - 1];
		h[j] = i;
	}
}

/* Fraction of the budget used: the clock of the jSO schedules. */
static double
de_budget_fraction(const sf_de *de)
{
	return (double)de->evals / (double)de->max_evals;
}

/*
 * One L-SHADE or jSO generation.  Per member i, in this order: the memory
 * slot r, CR_i ~ N(M_CR,r, 0.1) clipped to [0, 1] (0 when M_CR,r is
 * terminal), F_i ~ Cauchy(M_F,r, 0.1) drawn again while <= 0 and cut to 1,
 * pbest among the best max(2, round(p np)), r1 != i from the population,
 * r2 != i, r1 from population and archive, the forced component jrand and
 * one uniform per component for binomial crossover.  The mutant is
 * current-to-pbest/1, v = x_i + Fw (x_pbest - x_i) + F (x_r1 - x_r2), with
 * Fw = F for L-SHADE.  A component leaving the box is put halfway between
 * the parent's value and the violated bound.
 *
 * jSO's schedules read the budget fraction at the start of the generation
 * (the reference code reads the running count member by member, which a
 * batch-parallel generation cannot do): CR >= 0.7 before 25% and >= 0.6
 * before 50% of the budget, F <= 0.7 before 60%, Fw = 0.7 F / 0.8 F /
 * 1.2 F before 20% / before 40% / after, pbest != i before 50%, and p
 * falling linearly from pbest_rate (0.25) to half of it, as jSO's code
 * does (p = p_max (1 - 0.5 nfes / max_nfes)).
 */
static void
de_ask_adaptive(sf_de *de, size_t n)
{
	const sf_de_settings *s = &de->s;
	int jso = s->algorithm == SF_DE_JSO;
	size_t dim = de->dim, np = de->np, pnum;
	double frac = de_budget_fraction(de), p = s->pbest_rate;
	/* what each member draws from (the archive grows only in tell) */
	sf_rng_range slots, best, members, donors, coords;

	if (jso)
		p = s->pbest_rate * (1.0 - 0.5 * frac);
	pnum = (size_t)round(p * (double)np);
	if (pnum < 2)
		pnum = 2;
	if (pnum > np)
		pnum = np;
	de_best_order(de, pnum);
	slots = sf_rng_range_of((uint32_t)s->memory_size);
	best = sf_rng_range_of((uint32_t)pnum);
	members = sf_rng_range_of((uint32_t)np);
	donors = sf_rng_range_of((uint32_t)(np + de->archive_n));
	coords = sf_rng_range_of((uint32_t)dim);
	for (size_t i = 0; i < n; i++) {
		const double *x = de->pop + i * dim, *xp, *x1, *x2;
		double *t = de->trial + i * dim;
		size_t r = sf_rng_below(&de->rng, &slots);
		size_t pbest, r1, r2, jrand;
		double mf = de->mem_f[r], mcr = de->mem_cr[r], f, cr, fw;

		if (mcr < 0.0) {
			cr = 0.0;
		} else {
			cr = sf_rng_normal(&de->rng, mcr, de_cr_sigma);
			cr = cr < 0.0 ? 0.0 : (cr > 1.0 ? 1.0 : cr);
		}
		if (jso && frac < jso_cr_early && cr < jso_cr_early_min)
			cr = jso_cr_early_min;
		else if (jso && frac < jso_cr_mid && cr < jso_cr_mid_min)
			cr = jso_cr_mid_min;
		do
			f = sf_rng_cauchy(&de->rng, mf, de_f_gamma);
		while (!(f > 0.0));
		if (f > 1.0)
			f = 1.0;
		if (jso && frac < jso_f_early && f > jso_f_early_max)
			f = jso_f_early_max;
		do
			pbest = de->order[sf_rng_below(&de->rng, &best)];
		while (jso && frac < jso_pbest_distinct && pbest == i);
		do
			r1 = sf_rng_below(&de->rng, &members);
		while (r1 == i);
		do
			r2 = sf_rng_below(&de->rng, &donors);
		while (r2 == i || r2 == r1);
		jrand = sf_rng_below(&de->rng, &coords);

		fw = f;
		if (jso)
			fw = f * (frac < jso_fw_first    ? jso_fw_first_factor
			          : frac < jso_fw_second ? jso_fw_second_factor
			                                 : jso_fw_last_factor);
		xp = de->pop + pbest * dim;
		x1 = de->pop + r1 * dim;
		x2 = r2 < np ? de->pop + r2 * dim
		             : de->archive + (r2 - np) * dim;
		for (size_t j = 0; j < dim; j++) {
			double lo = de->lower[j], hi = de->upper[j], v;
			/* every coordinate's mutant is computed and the
			 * crossover selects on the bits: a coin toss the
			 * processor cannot predict is not a branch */
			uint64_t take =
			    (uint64_t)0 -
			    (uint64_t)((sf_rng_uniform(&de->rng) < cr) |
			               (j == jrand));
			uint64_t keep, cross;

			v = x[j] + fw * (xp[j] - x[j]) + f * (x1[j] - x2[j]);
			if (v > hi)
				v = hi - (hi - x[j]) / 2.0;
			else if (!(v >= lo)) /* also catches NaN */
				v = lo + (x[j] - lo) / 2.0;
			v = v < lo ? lo : (v > hi ? hi : v);
			memcpy(&keep, &x[j], sizeof keep);
			memcpy(&cross, &v, sizeof cross);
			keep = (cross & take) | (keep & ~take);
			memcpy(&t[j], &keep, sizeof keep);
		}
		de->trial_f[i] = f;
		de->trial_cr[i] = cr;
	}
}

size_t
sf_de_ask(sf_de *de, const double **trials)
{
	size_t n;

	*trials = NULL;
	switch (de->phase) {
	case DE_UNINIT:
		return 0;
	case DE_ASKED_INITIAL:
		*trials = de->pop;
		return de->ntrial;
	case DE_ASKED:
		*trials = de->trial;
		return de->ntrial;
	default:
		break;
	}
	n = de->np;
	if (de->max_evals != 0) {
		if (de->evals >= de->max_evals)
			return 0;
		if (de->max_evals - de->evals < n)
			n = de->max_evals - de->evals;
	}
	de->ntrial = n;
	if (de->phase == DE_NEED_INITIAL) {
		de->phase = DE_ASKED_INITIAL;
		*trials = de->pop;
		return n;
	}
	if (de->s.algorithm == SF_DE_CLASSIC)
		de_ask_classic(de, n);
	else
		de_ask_adaptive(de, n);
	de->phase = DE_ASKED;
	*trials = de->trial;
	return n;
}

/* ------------------------------------------------------------------ */
/* Tell */

static double
de_clean(double c)
{
	return isfinite(c) ? c : INFINITY;
}

/* Keep the population's best index and the best vector ever seen. */
static void
de_update_best(sf_de *de)
{
	size_t b = 0;

	for (size_t i = 1; i < de->np; i++)
		if (de->cost[i] < de->cost[b])
			b = i;
	de->best_idx = b;
	if (!de->have_best || de->cost[b] < de->best_cost) {
		de->best_cost = de->cost[b];
		memcpy(de->best_x, de->pop + b * de->dim,
		       de->dim * sizeof(double));
		de->have_best = 1;
	}
}

/* Add the parent x to the archive; a full archive loses a random one. */
static void
de_archive_add(sf_de *de, const double *x)
{
	size_t slot;

	if (de->archive_cap == 0)
		return;
	if (de->archive_n < de->archive_cap)
		slot = de->archive_n++;
	else
		slot = sf_rng_bounded(&de->rng, (uint32_t)de->archive_cap);
	memcpy(de->archive + slot * de->dim, x, de->dim * sizeof(double));
}

/*
 * Success-history update of slot mem_pos from the nsucc successful F and
 * CR, with weights |f(parent) - f(trial)|: the weighted Lehmer mean
 * sum w s^2 / sum w s for both M_F and M_CR (L-SHADE's rule; SHADE used
 * the arithmetic mean for CR).  M_CR becomes terminal when every weighted
 * successful CR is 0, and stays terminal from then on (the paper's rule;
 * the reference code resets the slot before testing, which makes the
 * "stays" part a no-op - we follow the paper).  jSO averages each new
 * value with the old one (iL-SHADE) and cycles over the first H - 1
 * slots, its last slot staying at 0.9.
 *
 * The weights are scaled by their largest value, which leaves the means
 * unchanged but cannot overflow.  An improvement from a +INFINITY parent
 * has an infinite weight: such improvements then share the weight equally
 * and finite ones get none, the limit of the weighted means.
 */
static void
de_memory_update(sf_de *de, size_t nsucc)
{
	const sf_de_settings *s = &de->s;
	int jso = s->algorithm == SF_DE_JSO, any_inf = 0;
	double wmax = 0.0, sf = 0.0, sf2 = 0.0, scr = 0.0, scr2 = 0.0;
	double new_f, new_cr, old_f, old_cr;
	size_t k = de->mem_pos, slots;

	if (nsucc == 0)
		return;
	for (size_t i = 0; i < nsucc; i++) {
		if (isinf(de->succ_w[i]))
			any_inf = 1;
		else if (de->succ_w[i] > wmax)
			wmax = de->succ_w[i];
	}
	for (size_t i = 0; i < nsucc; i++) {
		double w;

		if (any_inf)
			w = isinf(de->succ_w[i]) ? 1.0 : 0.0;
		else
			w = de->succ_w[i] / wmax;
		sf += w * de->succ_f[i];
		sf2 += w * de->succ_f[i] * de->succ_f[i];
		scr += w * de->succ_cr[i];
		scr2 += w * de->succ_cr[i] * de->succ_cr[i];
	}
	old_f = de->mem_f[k];
	old_cr = de->mem_cr[k];
	new_f = sf2 / sf;
	new_cr = (old_cr < 0.0 || scr == 0.0) ? de_cr_terminal : scr2 / scr;
	if (jso) {
		new_f = (new_f + old_f) / 2.0;
		if (new_cr >= 0.0)
			new_cr = (new_cr + old_cr) / 2.0;
	}
	de->mem_f[k] = new_f;
	de->mem_cr[k] = new_cr;
	slots = jso ? s->memory_size - 1 : s->memory_size;
	de->mem_pos = (k + 1) % slots;
}

/*
 * Linear population size reduction: after each generation the size
 * becomes round(N_init + (N_min - N_init) evals / max_evals) (computed as
 * in the reference code), the worst members leaving first (ties: the
 * highest index); the archive capacity follows as round(rate * np), its
 * excess vectors being dropped from the end, as the reference code does.
 */
static void
de_reduce_population(sf_de *de)
{
	double plan_d = round(((double)de->np_min - (double)de->np_init) /
	                          (double)de->max_evals * (double)de->evals +
	                      (double)de->np_init);
	size_t plan = plan_d < (double)de->np_min ? de->np_min : (size_t)plan_d;
	size_t dim = de->dim;

	if (de->np <= plan)
		return;
	while (de->np > plan) {
		size_t w = 0, last = de->np - 1;

		for (size_t i = 1; i < de->np; i++)
			if (!(de->cost[i] < de->cost[w]))
				w = i;
		if (w != last) {
			memcpy(de->pop + w * dim, de->pop + last * dim,
			       dim * sizeof(double));
			de->cost[w] = de->cost[last];
		}
		de->np--;
	}
	de->archive_cap = (size_t)round(de->s.archive_rate * (double)de->np);
	if (de->archive_cap > de->archive_max)
		de->archive_cap = de->archive_max;
	if (de->archive_n > de->archive_cap)
		de->archive_n = de->archive_cap;
}

/*
 * Selection of L-SHADE/jSO, member by member: an equal cost replaces the
 * member without counting as a success; a lower cost also records F_i,
 * CR_i and the improvement, and moves the parent into the archive.
 */
static void
de_tell_adaptive(sf_de *de, const double *costs)
{
	size_t nsucc = 0, dim = de->dim;

	for (size_t k = 0; k < de->ntrial; k++) {
		double c = de_clean(costs[k]);
		double *x = de->pop + k * dim;

		if (c == de->cost[k]) {
			memcpy(x, de->trial + k * dim, dim * sizeof(double));
		} else if (c < de->cost[k]) {
			de->succ_f[nsucc] = de->trial_f[k];
			de->succ_cr[nsucc] = de->trial_cr[k];
			de->succ_w[nsucc] = de->cost[k] - c;
			nsucc++;
			de_archive_add(de, x);
			memcpy(x, de->trial + k * dim, dim * sizeof(double));
			de->cost[k] = c;
		}
	}
	de_memory_update(de, nsucc);
	de->evals += de->ntrial;
	de_reduce_population(de);
}

static void
de_tell_classic(sf_de *de, const double *costs)
{
	size_t dim = de->dim;

	for (size_t k = 0; k < de->ntrial; k++) {
		double c = de_clean(costs[k]);

		if (c <= de->cost[k]) {
			memcpy(de->pop + k * dim, de->trial + k * dim,
			       dim * sizeof(double));
			de->cost[k] = c;
		}
	}
	de->evals += de->ntrial;
}

/* An improvement counts for the stagnation test when the best beats the
 * reference by more than stagnation_rtol relative (any finite cost beats
 * +INFINITY). */
static void
de_update_stagnation(sf_de *de)
{
	double ref = de->stag_ref, b = de->best_cost;
	int improved =
	    isinf(ref) ? b < ref : b < ref - de->s.stagnation_rtol * fabs(ref);

	if (improved) {
		de->stag_ref = b;
		de->stag_gen = de->gens;
	}
}

int
sf_de_tell(sf_de *de, const double *costs, sf_error *err)
{
	if (de->phase == DE_ASKED_INITIAL) {
		for (size_t k = 0; k < de->ntrial; k++)
			de->cost[k] = de_clean(costs[k]);
		de->evals += de->ntrial;
		de_update_best(de);
		de->stag_ref = de->best_cost;
		de->stag_gen = 0;
		de->phase = DE_READY;
		return SF_OK;
	}
	if (de->phase != DE_ASKED)
		return sf_error_set(err, SF_EINTERNAL,
		                    "optimizer told costs without asking for "
		                    "a batch");
	if (de->s.algorithm == SF_DE_CLASSIC)
		de_tell_classic(de, costs);
	else
		de_tell_adaptive(de, costs);
	de->gens++;
	de_update_best(de);
	de_update_stagnation(de);
	de->phase = DE_READY;
	return SF_OK;
}

/* ------------------------------------------------------------------ */
/* Test and accessors */

/*
 * Mean and population standard deviation (numpy's, ddof 0) of the costs,
 * computed on costs scaled by their largest magnitude so that squares of
 * large finite costs cannot overflow.  Returns 0 when a cost is infinite.
 */
static int
de_cost_moments(const sf_de *de, double *mean, double *std)
{
	double m = 0.0, mu = 0.0, ss = 0.0;
	size_t n = de->np;

	for (size_t i = 0; i < n; i++) {
		if (isinf(de->cost[i]))
			return 0;
		if (fabs(de->cost[i]) > m)
			m = fabs(de->cost[i]);
	}
	if (m == 0.0) {
		*mean = 0.0;
		*std = 0.0;
		return 1;
	}
	for (size_t i = 0; i < n; i++)
		mu += de->cost[i] / m;
	mu /= (double)n;
	for (size_t i = 0; i < n; i++) {
		double d = de->cost[i] / m - mu;
		ss += d * d;
	}
	*mean = mu * m;
	*std = sqrt(ss / (double)n) * m;
	return 1;
}

int
sf_de_test(const sf_de *de)
{
	const sf_de_settings *s = &de->s;
	double mean, std;

	if (de->phase == DE_UNINIT || de->phase == DE_NEED_INITIAL ||
	    de->phase == DE_ASKED_INITIAL)
		return SF_DE_RUNNING;
	if (de->gens >= 1 && de_cost_moments(de, &mean, &std) &&
	    std <= s->atol + s->tol * fabs(mean))
		return SF_DE_STOP_TOL;
	if (s->stagnation_generations > 0 &&
	    de->gens - de->stag_gen >= s->stagnation_generations)
		return SF_DE_STOP_STAGNATION;
	if (de->max_evals != 0 && de->evals >= de->max_evals)
		return SF_DE_STOP_MAX_EVALS;
	if (s->max_generations != 0 && de->gens >= s->max_generations)
		return SF_DE_STOP_MAX_GENERATIONS;
	return SF_DE_RUNNING;
}

const double *
sf_de_best(const sf_de *de, double *cost)
{
	if (cost != NULL)
		*cost = de->have_best ? de->best_cost : INFINITY;
	return de->have_best ? de->best_x : NULL;
}

size_t
sf_de_evaluations(const sf_de *de)
{
	return de->evals;
}

size_t
sf_de_generations(const sf_de *de)
{
	return de->gens;
}

size_t
sf_de_max_evals(const sf_de *de)
{
	return de->max_evals;
}

double
sf_de_spread(const sf_de *de)
{
	double mean, std;

	if (!de_cost_moments(de, &mean, &std))
		return INFINITY;
	if (std == 0.0)
		return 0.0;
	if (mean == 0.0)
		return INFINITY;
	return std / fabs(mean);
}

size_t
sf_de_dim(const sf_de *de)
{
	return de->dim;
}

size_t
sf_de_population_size(const sf_de *de)
{
	return de->np;
}

const double *
sf_de_population(const sf_de *de, const double **costs)
{
	if (costs != NULL)
		*costs = de->cost;
	return de->pop;
}

size_t
sf_de_archive_size(const sf_de *de, size_t *capacity)
{
	if (capacity != NULL)
		*capacity = de_adaptive(&de->s) ? de->archive_cap : 0;
	return de_adaptive(&de->s) ? de->archive_n : 0;
}

int
sf_de_memory(const sf_de *de, size_t k, double *m_f, double *m_cr)
{
	if (!de_adaptive(&de->s) || k >= de->s.memory_size)
		return SF_EVALUE;
	if (m_f != NULL)
		*m_f = de->mem_f[k];
	if (m_cr != NULL)
		*m_cr = de->mem_cr[k];
	return SF_OK;
}
