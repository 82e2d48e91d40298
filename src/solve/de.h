/*
 * de.h - differential evolution: scipy-style classic DE, L-SHADE and jSO.
 *
 * The optimiser minimises a cost over a box [lower, upper] of dim free
 * parameters (fixed constants of a model are not passed here).  It never
 * evaluates the cost itself: it is driven by the caller in an ask / tell
 * loop, GSL's init / iterate / test split into the half that proposes
 * trial vectors (ask) and the half that selects from their costs (tell):
 *
 *     sf_de *de = sf_de_alloc(dim, lower, upper, &settings, &err);
 *     sf_de_init(de, x0_or_NULL, &err);
 *     while (sf_de_test(de) == SF_DE_RUNNING) {
 *             const double *trials;
 *             size_t n = sf_de_ask(de, &trials);
 *             #pragma omp parallel for
 *             for (i = 0; i < n; i++)
 *                     costs[i] = f(trials + i * dim);
 *             sf_de_tell(de, costs, &err);
 *     }
 *     x = sf_de_best(de, &cost);
 *     sf_de_free(de);
 *
 * The first ask after init returns the initial population; every later ask
 * returns one generation of trial vectors, one per population member.
 * Updating is generation-synchronous (scipy's updating='deferred', the
 * only scipy mode compatible with parallel evaluation): all trials of a
 * generation are built from the same population and selection happens
 * after the whole batch is evaluated.
 *
 * Determinism: every random number comes from one PCG32 generator owned by
 * the sf_de, seeded from settings.seed on a fixed stream.  All draws that
 * build trials happen in sf_de_ask in member order; the few draws of
 * selection (L-SHADE/jSO archive replacement) happen in sf_de_tell, also in
 * member order.  Costs are only read, never drawn against, so the run is
 * byte-identical whatever the order or the thread count in which the
 * caller evaluates a batch.  Non-finite costs (NaN, +inf, -inf) are taken as
 * +INFINITY, so a member whose cost is NaN is replaced by any trial.
 *
 * Algorithms (see de.c for the details and the choices papers left open):
 *   SF_DE_LSHADE  Tanabe & Fukunaga, CEC 2014: current-to-pbest/1/bin with
 *                 an archive, success-history adaptation of F and CR and
 *                 linear population size reduction.  The default.
 *   SF_DE_JSO     Brest, Maucec & Boskovic, CEC 2017: L-SHADE with the
 *                 iL-SHADE/jSO schedules and current-to-pbest-w/1/bin.
 *   SF_DE_CLASSIC scipy.optimize.differential_evolution (1.10) semantics:
 *                 rand1, best1, currenttobest1, randtobest1, best2, rand2
 *                 with bin or exp crossover, F dithered per generation.
 *
 * Ownership: sf_de_alloc copies lower, upper and the settings; the caller
 * keeps its arrays.  Every pointer returned by an sf_de function points
 * into the sf_de: it is owned by it, must not be freed, and stays valid
 * until the next sf_de_init, sf_de_ask, sf_de_tell or sf_de_free on it.
 * Nothing is allocated after sf_de_alloc: ask and tell work in place.
 *
 * Thread safety: an sf_de is not thread-safe; drive it from one thread.
 * The trial array returned by sf_de_ask may be read by many threads at
 * once while nobody calls into the sf_de.  Distinct sf_de objects are
 * independent (there is no global state).
 */
#ifndef SF_DE_H
#define SF_DE_H

#include <stddef.h>
#include <stdint.h>

#include "base/error.h"

/* The optimiser family, in the order of the table of algorithms
 * (sf_de_method_get) and of every list of them. */
typedef enum sf_de_algorithm {
	SF_DE_LSHADE = 0, /* L-SHADE (default) */
	SF_DE_JSO,        /* jSO */
	SF_DE_CLASSIC,    /* scipy-style DE with a fixed strategy */
	SF_DE_ALGORITHMS  /* how many there are */
} sf_de_algorithm;

/* Mutation of the classic algorithm (scipy's strategy prefix). */
typedef enum sf_de_mutation {
	SF_DE_RAND1 = 0,      /* x_r0 + F (x_r1 - x_r2) */
	SF_DE_BEST1,          /* x_best + F (x_r0 - x_r1) */
	SF_DE_CURRENTTOBEST1, /* x_i + F (x_best - x_i + x_r0 - x_r1) */
	SF_DE_RANDTOBEST1,    /* x_r0 + F (x_best - x_r0) + F (x_r1 - x_r2) */
	SF_DE_BEST2,          /* x_best + F (x_r0 + x_r1 - x_r2 - x_r3) */
	SF_DE_RAND2           /* x_r0 + F (x_r1 + x_r2 - x_r3 - x_r4) */
} sf_de_mutation;

/* How many mutations there are: 0 .. SF_DE_MUTATIONS - 1. */
#define SF_DE_MUTATIONS 6

/* Crossover of the classic algorithm (scipy's strategy suffix). */
typedef enum sf_de_crossover {
	SF_DE_BIN = 0, /* binomial: each component from the mutant w.p. CR */
	SF_DE_EXP      /* exponential: a run of components from the mutant */
} sf_de_crossover;

/* How the initial population is drawn. */
typedef enum sf_de_init_method {
	SF_DE_INIT_LHS = 0, /* Latin hypercube, as scipy's default */
	SF_DE_INIT_UNIFORM  /* independent uniform draws */
} sf_de_init_method;

/* What sf_de_test reports: still running, or why the search stopped. */
typedef enum sf_de_stop {
	SF_DE_RUNNING = 0,         /* "running" */
	SF_DE_STOP_TOL,            /* "tol": population costs converged */
	SF_DE_STOP_STAGNATION,     /* "stagnation": best did not improve */
	SF_DE_STOP_MAX_EVALS,      /* "max_evals": evaluation budget used */
	SF_DE_STOP_MAX_GENERATIONS /* "max_generations" */
} sf_de_stop;

/* Largest population accepted (it must also fit the random draws). */
#define SF_DE_POPULATION_MAX 1000000u

/*
 * Every setting of the optimiser.  Fill it with sf_de_settings_default,
 * then change what the model asks for.  Fields marked (classic) or
 * (adaptive) are read only by the classic algorithm or only by
 * L-SHADE/jSO.
 */
typedef struct sf_de_settings {
	sf_de_algorithm algorithm;
	sf_de_mutation mutation;   /* (classic) default SF_DE_BEST1 */
	sf_de_crossover crossover; /* (classic) default SF_DE_BIN */
	sf_de_init_method init;    /* default SF_DE_INIT_LHS */

	/*
	 * Initial population size.  population > 0 is an absolute size.
	 * Otherwise popsize > 0 gives round(popsize * dim), raised to at least
	 * max(5, the strategy's minimum) for classic (scipy's rule) and to at
	 * least 30 for L-SHADE/jSO; popsize == 0 (jSO's default) uses jSO's
	 * round(25 ln(dim) sqrt(dim)), also raised to at least 30.
	 * Defaults: classic popsize 15, L-SHADE popsize 18, jSO popsize 0.
	 */
	size_t population;
	double popsize;

	/*
	 * Stopping.  max_evals: the evaluation budget; 0 means unlimited for
	 * classic and 10000 * dim (the CEC budget both adaptive algorithms
	 * were tuned for) for L-SHADE/jSO, whose schedules need a budget.
	 * max_generations: 0 means unlimited (default 1000 for classic as in
	 * scipy, 0 for L-SHADE/jSO).  The spread test stops when every
	 * population cost is finite and std(costs) <= atol + tol |mean(costs)|
	 * (defaults: classic tol 0.01, atol 0 as scipy; L-SHADE/jSO tol 1e-8,
	 * atol 0).  Stagnation stops after stagnation_generations generations
	 * (0 disables, the default) in which the best cost did not fall by
	 * more than stagnation_rtol * |best| (default 1e-12).
	 */
	size_t max_evals;
	size_t max_generations;
	double tol;
	double atol;
	size_t stagnation_generations;
	double stagnation_rtol;

	uint64_t seed; /* seeds the generator; default 1 */

	/*
	 * (classic) Mutation factor F: drawn uniformly in [f_min, f_max) once
	 * per generation (scipy's dithering) when f_min < f_max, fixed when
	 * they are equal; 0 <= f_min <= f_max < 2 (default [0.5, 1)).
	 * Crossover probability cr in [0, 1] (default 0.7).
	 */
	double f_min;
	double f_max;
	double cr;

	/*
	 * (adaptive) memory_size H of the success history (L-SHADE 6, jSO 5;
	 * jSO keeps its last slot fixed at 0.9 so needs H >= 2); its initial
	 * M_F in (0, 1] and M_CR in [0, 1] (L-SHADE 0.5 and 0.5, jSO 0.3 and
	 * 0.8); pbest_rate p in (0, 1], the share of the best members a pbest
	 * is drawn from (L-SHADE 0.11; jSO's starting value 0.25, which falls
	 * linearly to half of it at the budget); archive_rate >= 0, the archive
	 * size as a multiple of the population (L-SHADE 2.6, jSO 1.0);
	 * population_min >= 4, the population at the end of the budget (4).
	 */
	size_t memory_size;
	double memory_f;
	double memory_cr;
	double pbest_rate;
	double archive_rate;
	size_t population_min;
} sf_de_settings;

/*
 * One algorithm: a row of de.c's table of algorithms, the one place that
 * names them (model files, options, help and reports read it), and the
 * defaults sf_de_settings_default gives it (the fields of sf_de_settings
 * of the same names; those an algorithm does not read are 0).
 */
typedef struct sf_de_method {
	const char *name; /* "lshade", "jso", "de" */
	/* 1: adapts F and CR itself from a success memory and shrinks its
	 * population over a budget it needs (L-SHADE, jSO): a fit may
	 * restart it and probe it mid-run.  0: a fixed strategy with F and
	 * CR as given (classic; a model's strategy, mutation and
	 * recombination apply to it only). */
	int adaptive;
	double popsize;
	/* The smallest popsize-derived population (classic: also at least
	 * its strategy's minimum). */
	size_t population_floor;
	size_t max_generations;
	double tol;
	size_t memory_size;
	double memory_f, memory_cr, pbest_rate, archive_rate;
} sf_de_method;

/* The row of algorithm a, or NULL when a is not one of them. */
const sf_de_method *sf_de_method_get(sf_de_algorithm a);

/*
 * Fill *s with every default of the given algorithm (see the fields
 * above).  An out-of-range algorithm gets the L-SHADE defaults with
 * s->algorithm set as given, so that sf_de_alloc reports it.
 */
void sf_de_settings_default(sf_de_settings *s, sf_de_algorithm algorithm);

/*
 * The algorithm named name ("lshade", "jso" or "de"): SF_OK with
 * *algorithm set, or SF_ENAME with *algorithm left alone and *nearest
 * (when nearest is not NULL) the name name is a typo of, or NULL
 * (base/suggest.h).  Callers word their own message.
 */
int sf_de_algorithm_find(const char *name, sf_de_algorithm *algorithm,
                         const char **nearest);

/* The name of algorithm a, or "unknown". */
const char *sf_de_algorithm_name(sf_de_algorithm a);

/* The SF_DE_ALGORITHMS names in table order into names (for choices and
 * suggestions); returns SF_DE_ALGORITHMS. */
size_t sf_de_algorithm_names(const char **names);

/* The names as messages and help list them, "lshade, jso or de", into
 * buf (size bytes, cut short when it does not fit, always terminated);
 * returns buf. */
char *sf_de_algorithm_list(char *buf, size_t size);

/*
 * Parse one of scipy's strategy names, "best1bin", "rand2exp", ... (the
 * six mutations times "bin" and "exp").  On success sets *m and *c and
 * returns SF_OK; otherwise returns SF_ENAME and fills err (may be NULL).
 */
int sf_de_strategy_parse(const char *name, sf_de_mutation *m,
                         sf_de_crossover *c, sf_error *err);

/* The scipy name of a strategy ("best1bin"), or "unknown": the one table
 * of these names, which model files use too. */
const char *sf_de_strategy_name(sf_de_mutation m, sf_de_crossover c);

/*
 * The smallest population a classic mutation works with: the member plus
 * the distinct other members it draws (best1 3, rand1 4, best2 5, rand2 6).
 */
size_t sf_de_mutation_min_population(sf_de_mutation m);

/*
 * Allocate an optimiser for dim >= 1 parameters with bounds lower[i] <
 * upper[i] (finite, with a finite width) and settings s, which are
 * validated and copied.  All memory the search needs is allocated here,
 * at the initial (largest) population size.  The object must be
 * initialised with sf_de_init before use.
 *
 * Returns the new object, or NULL with err (may be NULL) filled: SF_EVALUE
 * for a bad bound or setting (the message names it and its value),
 * SF_ENOMEM when memory ran out.  Free it with sf_de_free.
 */
typedef struct sf_de sf_de;
sf_de *sf_de_alloc(size_t dim, const double *lower, const double *upper,
                   const sf_de_settings *s, sf_error *err);

/* Free an optimiser and everything it owns.  Accepts NULL. */
void sf_de_free(sf_de *de);

/*
 * (Re)start the search: reseed the generator from settings.seed, draw the
 * initial population and reset every counter, memory and archive, so two
 * inits give the same run.  seed_member, when not NULL, holds dim finite
 * values inside the bounds (a model's initial guess) that replace member
 * 0 of the initial population; it is copied.
 *
 * Returns SF_OK, or SF_EVALUE (err filled) when seed_member is outside
 * the bounds or not finite; the object is then left uninitialised.
 */
int sf_de_init(sf_de *de, const double *seed_member, sf_error *err);

/*
 * Propose the next batch: sets *trials to n * dim values (row-major, row
 * k is trial k) and returns n.  The first call after init returns the
 * initial population; later calls return one generation of trials, one
 * per member, each inside the bounds.  n is smaller than the population
 * only when the evaluation budget has fewer evaluations left, and is 0
 * (with *trials NULL) when the budget is used up or the object is not
 * initialised.  Asking again before telling returns the same batch
 * without drawing anything.  The array is owned by de and valid until
 * the next call on de other than the read-only accessors.
 */
size_t sf_de_ask(sf_de *de, const double **trials);

/*
 * Hand back the costs of the last batch: costs[k] for trial k, k < n.
 * Non-finite costs count as +INFINITY.  Performs selection (a trial
 * replaces its member when its cost is lower or equal), updates the best
 * member, the counters and, for L-SHADE/jSO, the archive, the success
 * memory and the population size.  costs is only read.
 *
 * Returns SF_OK, or SF_EINTERNAL (err filled) when no batch was asked.
 */
int sf_de_tell(sf_de *de, const double *costs, sf_error *err);

/*
 * Whether the search should stop: SF_DE_RUNNING, or the first reason
 * that holds in the order tol, stagnation, max_evals, max_generations
 * (a converged run reports tol even if the budget ran out with it).
 * Wall-time limits are the caller's: sf_de_stop_name's names leave room
 * for its "time_limit".
 */
int sf_de_test(const sf_de *de);

/* "running", "tol", "stagnation", "max_evals", "max_generations", or
 * "unknown" for any other value. */
const char *sf_de_stop_name(int reason);

/*
 * The best member found so far (dim values) and, when cost is not NULL,
 * its cost (+INFINITY when no finite cost was seen).  NULL before the
 * initial population was told.
 */
const double *sf_de_best(const sf_de *de, double *cost);

/* Evaluations told so far (initial population included). */
size_t sf_de_evaluations(const sf_de *de);

/* Generations completed (tells after the initial population's). */
size_t sf_de_generations(const sf_de *de);

/* The resolved evaluation budget (0 when unlimited), for progress bars. */
size_t sf_de_max_evals(const sf_de *de);

/*
 * std(population costs) / |mean(population costs)|: the number the tol
 * test compares with tol, for a progress line.  +INFINITY while a cost is
 * not finite (or the mean is 0 with a nonzero spread), 0 when all costs
 * are equal.
 */
double sf_de_spread(const sf_de *de);

/* The number of parameters. */
size_t sf_de_dim(const sf_de *de);

/* The current population size (falls over time for L-SHADE/jSO). */
size_t sf_de_population_size(const sf_de *de);

/*
 * The current population: returns its population_size * dim values
 * (row-major) and, when costs is not NULL, sets *costs to its costs
 * (+INFINITY for members not yet evaluated).
 */
const double *sf_de_population(const sf_de *de, const double **costs);

/*
 * (adaptive) The number of vectors in the archive; when capacity is not
 * NULL, *capacity gets its current maximum, round(archive_rate * NP).
 * Both are 0 for classic.
 */
size_t sf_de_archive_size(const sf_de *de, size_t *capacity);

/*
 * (adaptive) Slot k < memory_size of the success history: *m_f and *m_cr
 * (either may be NULL).  An M_CR of -1 is the terminal value (CR is then
 * 0).  Returns SF_OK, or SF_EVALUE for classic or k out of range.
 */
int sf_de_memory(const sf_de *de, size_t k, double *m_f, double *m_cr);

#endif /* SF_DE_H */
