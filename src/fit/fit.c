/*
 * fit.c - the fit driver: settings, the search loop, the polish.
 */
#include "fit/fit.h"
#include "base/clock.h"
#include "fit/cost.h"
#include "solve/de.h"
#include "solve/polish.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The seed of a model that gives none: fits are reproducible by default. */
static const uint64_t fit_default_seed = 1;

void
sf_fit_options_init(sf_fit_options *o)
{
	memset(o, 0, sizeof *o);
	o->polish = -1;
	o->separable = -1;
}

void
sf_fit_result_free(sf_fit_result *r)
{
	if (r == NULL)
		return;
	free(r->theta);
	free(r->theta_search);
	free(r->at_bound);
	free(r->linear);
	free(r->runs);
	free(r);
}

sf_loss
sf_fit_loss(const sf_model *m, const sf_fit_options *o)
{
	return o->has_loss ? o->loss : m->fit.loss;
}

sf_fit_settings
sf_fit_settings_effective(const sf_model *m, const sf_fit_options *o)
{
	sf_fit_settings s = m->fit;

	if (o->has_seed) {
		s.seed = o->seed;
		s.has_seed = 1;
	}
	if (!s.has_seed) {
		s.seed = fit_default_seed;
		s.has_seed = 1;
	}
	if (o->has_algorithm)
		s.algorithm = o->algorithm;
	if (o->max_evals > 0)
		s.max_evals = o->max_evals;
	if (o->has_loss)
		s.loss = o->loss;
	if (o->has_lambda) {
		s.lambda = o->lambda;
		s.lambda_auto = 0;
		if (s.penalty == SF_PENALTY_NONE && o->lambda > 0)
			s.penalty = SF_PENALTY_L2;
	}
	if (o->time_limit > 0)
		s.time_limit = o->time_limit;
	if (o->has_scale)
		s.scale = o->scale;
	if (o->polish >= 0)
		s.polish = o->polish;
	if (o->separable >= 0)
		s.separable = o->separable;
	return s;
}

/* The optimiser's settings from the fit settings. */
static int
de_settings(const sf_fit_settings *s, sf_de_settings *de, sf_error *err)
{
	int rc;

	sf_de_settings_default(de, s->algorithm);
	if (!sf_de_method_get(s->algorithm)->adaptive &&
	    (rc = sf_de_strategy_parse(s->strategy, &de->mutation,
	                               &de->crossover, err)) != SF_OK)
		return rc;
	if (s->population > 0)
		de->population = s->population;
	if (s->popsize > 0)
		de->popsize = s->popsize;
	if (s->max_evals > 0)
		de->max_evals = s->max_evals;
	if (s->max_generations > 0)
		de->max_generations = s->max_generations;
	if (s->tol >= 0)
		de->tol = s->tol;
	if (s->atol >= 0)
		de->atol = s->atol;
	if (s->mutation_lo > 0) {
		de->f_min = s->mutation_lo;
		de->f_max = s->mutation_hi;
	}
	if (s->recombination >= 0)
		de->cr = s->recombination;
	de->init =
	    s->init == SF_INIT_UNIFORM ? SF_DE_INIT_UNIFORM : SF_DE_INIT_LHS;
	de->seed = s->seed;
	if (s->stagnation > 0)
		de->stagnation_generations = s->stagnation;
	return SF_OK;
}

int
sf_fit_weights(const sf_fit_settings *s, const sf_dataset *d, double **weights,
               sf_error *err)
{
	double *w, *var, pooled = 0, mean_w = 0;
	size_t repeated = 0;
	int relative = sf_loss_get(s->loss)->multiplicative; /* loss.h */

	*weights = NULL;
	if (s->weighting == SF_WEIGHTS_NONE)
		return SF_OK;
	if ((w = malloc(d->rows * sizeof *w)) == NULL)
		return sf_error_set(err, SF_ENOMEM, "out of memory");
	if (s->weighting == SF_WEIGHTS_COLUMN) {
		memcpy(w, d->weight, d->rows * sizeof *w);
		*weights = w;
		return SF_OK;
	}
	/*
	 * Inverse variance: each configuration's variance of the output (of
	 * the relative output for relative, log and huber losses, whose
	 * residuals are relative), pooled over all repeated configurations
	 * for those measured once.  Normalised to mean 1, so the loss keeps
	 * its scale and lambda its meaning.
	 */
	if ((var = malloc(d->nconfigs * sizeof *var)) == NULL) {
		free(w);
		return sf_error_set(err, SF_ENOMEM, "out of memory");
	}
	for (size_t c = 0; c < d->nconfigs; c++) {
		const sf_dataset_config *k = &d->configs[c];
		double sd = relative ? k->sd / fabs(k->mean) : k->sd;

		var[c] = k->count > 1 ? sd * sd : NAN;
		if (k->count > 1 && var[c] > 0) {
			pooled += var[c];
			repeated++;
		}
	}
	if (repeated == 0) {
		free(var);
		free(w);
		return sf_error_set(err, SF_EVALUE,
		                    "weights: inverse_variance needs repeated "
		                    "measurements of some configuration, and "
		                    "the data has none with any spread");
	}
	pooled /= (double)repeated;
	for (size_t i = 0; i < d->rows; i++) {
		double v = var[d->config[i]];
		w[i] = 1 / (isnan(v) || v <= 0 ? pooled : v);
		mean_w += w[i];
	}
	mean_w /= (double)d->rows;
	for (size_t i = 0; i < d->rows; i++)
		w[i] /= mean_w;
	free(var);
	*weights = w;
	return SF_OK;
}

/* The most least-squares steps of one polish.  Curved valleys (NIST's
 * Bennett5) need over a thousand cheap steps; the polish stops on
 * convergence long before this cap otherwise. */
static const size_t polish_max_iter = 10000;

/* The polish's view of the cost. */
static int
polish_residuals(const double *theta, double *r, double *J, void *ctx)
{
	return sf_cost_residuals(ctx, theta, r, J) == SF_OK ? 0 : -1;
}

/* Refine r->theta by least squares; keep the result if it is better. */
static int
run_polish(const sf_cost *cost, const sf_formula *f, sf_fit_result *r,
           size_t max_iter, sf_error *err)
{
	sf_polish_problem problem = {polish_residuals, (void *)cost, f->lower,
	                             f->upper};
	sf_polish_settings settings;
	sf_polish_result pr;
	size_t m = sf_cost_residual_count(cost), P = f->nparams;
	double *theta = malloc((P + 1) * sizeof *theta), polished_cost;
	int *active = calloc(P + 1, sizeof *active);
	sf_polish *w = sf_polish_alloc(m, P);
	int rc = SF_OK;

	if (theta == NULL || active == NULL || w == NULL) {
		rc = sf_error_set(err, SF_ENOMEM, "out of memory");
		goto done;
	}
	memcpy(theta, r->theta, P * sizeof *theta);
	sf_polish_settings_default(&settings);
	settings.max_iter = max_iter;
	rc = sf_polish_run(w, &problem, &settings, theta, active, &pr, err);
	if (rc == SF_ENOMEM)
		goto done;
	rc = SF_OK;
	r->polish_ran = 1;
	r->polish_stop = sf_polish_stop_name(pr.stop);
	r->polish_iterations = pr.iterations;
	/* Judge by the same cost the search minimised. */
	polished_cost = sf_cost_total(cost, theta, 0);
	if (pr.improved && polished_cost < r->cost) {
		memcpy(r->theta, theta, P * sizeof *theta);
		r->cost = polished_cost;
		r->polish_kept = 1;
	} else {
		r->polish_note = "the polish did not lower the cost; the "
		                 "global search's answer is kept";
	}
done:
	sf_polish_free(w);
	free(theta);
	free(active);
	return rc;
}

/*
 * The space the global search works in.  A parameter whose box spans many
 * decades of magnitude (it contains 0, or hi/lo > 1e3) is searched as
 * u = asinh(theta / s): every decade of magnitude between s and the box's
 * edge gets the same share of the search, and the sign is kept.  Without
 * it a uniform search in [-400, 400] almost never samples 0.1, and a user
 * who gives wide bounds because the scale is unknown gets a poor fit.  s
 * is the smallest magnitude of interest: lo (or |hi|) for a one-signed box,
 * else search_floor times the box's largest magnitude.  Other parameters
 * are searched as they are.  Costs are always computed on theta.
 */
static const double search_floor = 1e-6;
static const double search_decades = 1e3;

typedef struct search_space {
	size_t P;              /* parameters */
	size_t D;              /* searched: those not solved separably */
	size_t *index;         /* u_k is theta[index[k]] */
	double *scale;         /* s_k, or 0 for a linear-scale dimension */
	double *lower, *upper; /* bounds of u */
	double *theta;         /* one population of theta, for the cost */
} search_space;

static void
search_space_free(search_space *sp)
{
	free(sp->index);
	free(sp->scale);
	free(sp->lower);
	free(sp->upper);
	free(sp->theta);
}

/* solved[j] (may be NULL): theta_j is solved separably, not searched. */
static int
search_space_init(search_space *sp, const sf_formula *f, int linear,
                  const int *solved)
{
	const size_t P = f->nparams;

	sp->P = P;
	sp->D = 0;
	sp->index = malloc((P + 1) * sizeof *sp->index);
	sp->scale = calloc(P + 1, sizeof *sp->scale);
	sp->lower = malloc((P + 1) * sizeof *sp->lower);
	sp->upper = malloc((P + 1) * sizeof *sp->upper);
	sp->theta = NULL;
	if (sp->index == NULL || sp->scale == NULL || sp->lower == NULL ||
	    sp->upper == NULL)
		return SF_ENOMEM;
	for (size_t j = 0; j < P; j++) {
		double lo = f->lower[j], hi = f->upper[j];
		double big = fmax(fabs(lo), fabs(hi));
		size_t k = sp->D;

		if (solved != NULL && solved[j])
			continue;
		sp->index[sp->D++] = j;
		if (linear)
			sp->scale[k] = 0;
		else if (lo <= 0 && hi >= 0)
			sp->scale[k] = search_floor * big;
		else if (lo > 0 && hi / lo > search_decades)
			sp->scale[k] = lo;
		else if (hi < 0 && lo / hi > search_decades)
			sp->scale[k] = -hi;
		if (sp->scale[k] > 0) {
			sp->lower[k] = asinh(lo / sp->scale[k]);
			sp->upper[k] = asinh(hi / sp->scale[k]);
		} else {
			sp->lower[k] = lo;
			sp->upper[k] = hi;
		}
	}
	return SF_OK;
}

/* Would the log-scale search differ from the linear one?  Not when no
 * searched parameter's box qualifies for the transform (or none is
 * searched): then a second search would repeat the first. */
static int
log_search_differs(const sf_formula *f, const int *solved)
{
	search_space sp = {0};
	int differs = 0;

	if (search_space_init(&sp, f, 0, solved) == SF_OK)
		for (size_t k = 0; k < sp.D; k++)
			differs |= sp.scale[k] > 0;
	search_space_free(&sp);
	return differs;
}

/* t clamped to [lo, hi], lo and hi not NaN; a NaN t gives lo.  What
 * fmin(fmax(t, lo), hi) gives (glibc's bits, ties to lo and hi), without
 * two library calls per parameter per candidate. */
static double
clamp(double t, double lo, double hi)
{
	double m = t > lo ? t : lo;

	return m < hi ? m : hi;
}

/* theta from u, clamped to the box against rounding; solved entries 0
 * (the cost fills them in). */
static void
search_to_theta(const search_space *sp, const sf_formula *f, const double *u,
                double *theta)
{
	for (size_t j = 0; j < sp->P; j++)
		theta[j] = 0;
	for (size_t k = 0; k < sp->D; k++) {
		size_t j = sp->index[k];
		double t = sp->scale[k] > 0 ? sp->scale[k] * sinh(u[k]) : u[k];
		theta[j] = clamp(t, f->lower[j], f->upper[j]);
	}
}

static void
search_from_theta(const search_space *sp, const double *theta, double *u)
{
	for (size_t k = 0; k < sp->D; k++) {
		double t = theta[sp->index[k]];
		double v = sp->scale[k] > 0 ? asinh(t / sp->scale[k]) : t;
		u[k] = fmin(fmax(v, sp->lower[k]), sp->upper[k]);
	}
}

/*
 * Restarts (IPOP, as in CMA-ES practice).  A run of the optimiser whose
 * population collapsed (the spread test, or stagnation) has converged to
 * one minimum, maybe a local one.  The search then starts a new run from a
 * fresh population twice as large as the last one's, with a seed of its
 * own, and keeps the lowest cost of all runs, each run's best polished
 * (when the polish applies) before they are compared.  See
 * restart_again for when it stops.  The first run is the search as it
 * was without restarts, so a restart can only lower the cost.
 */
static uint64_t
restart_seed(uint64_t seed, size_t run)
{
	uint64_t z = seed + 0x9e3779b97f4a7c15u * (uint64_t)run;

	if (run == 0)
		return seed;
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
	return z ^ (z >> 31);
}

/* How one run of the optimiser is set up and how it ended. */
typedef struct search_run {
	size_t index;      /* 0: the first run */
	size_t population; /* 0: the settings'; else this size */
	size_t max_evals;  /* 0: the settings'; else this budget */
	int stop;          /* out: sf_de_test's reason at the end */
	int timed_out;     /* out: the time limit ended the run */
	size_t budget;     /* out: the run's resolved budget */
	int probe;         /* take the probes below (the polish applies) */
	double *extra;     /* out: nextra more thetas to polish */
	size_t nextra;
	double *probes; /* out: nprobes thetas taken during the run */
	size_t nprobes;
} search_run;

/*
 * Besides a run's best member, the next best members of its final
 * population (up to polish_starts in all, distinct members) are polished
 * too, when the run ended with its population not collapsed (the budget
 * or the time limit): such a population can straddle basins, and the
 * polish from its best member need not find the lower one.  A collapsed
 * population is one point to the spread tolerance, and is not.
 */
enum { polish_starts = 4 };

/*
 * Probes: while a run is still spread over the box, at a quarter and at
 * half of its budget, its best members that lie apart from each other
 * (no two within probe_apart of the box's width in every searched
 * coordinate) are polished too, up to probe_members of them per share,
 * after the run: a multistart of the local search from the population's
 * distinct regions (as in MLSL and memetic DE).  The population's best
 * region is not always the best basin's: a wide local minimum gathers the
 * population while the members near a narrow, deeper one are still worse
 * than it and are lost later (NIST's Gauss3: the runs that lose the
 * certified minimum still held members in its basin at a quarter or half
 * of their budget).  A probe's polish stops after probe_polish_iter steps
 * unless by then it is lower than the run's answer by more than a relative
 * probe_lower, when it goes on as a full polish; a probe that ends that
 * much lower becomes the run's answer.  Only a deeper minimum counts: the
 * run's own, reached again with other last digits, does not replace it.
 * The probes draw no random numbers and do not change the run: they can
 * only lower its cost.  A run that converged before a share was reached
 * takes no probe at it, and a population gathered in one region gives one
 * probe.  As with restarts, classic DE takes none (it stays scipy's).
 */
enum { probe_members = 8, probe_shares = 2 };
static const double probe_share[probe_shares] = {0.25, 0.5};
static const double probe_apart = 0.01;
static const size_t probe_polish_iter = 30;
static const double probe_lower = 1e-6;

/* Append to run->probes the best members of de's population, lowest cost
 * first (ties to the lower index), each apart from those taken before it
 * at this share, up to probe_members; with their separably solved
 * entries filled in.  order: scratch of the population's size. */
static int
take_probes(const sf_cost *cost, const sf_formula *f, const search_space *sp,
            const sf_de *de, size_t *order, search_run *run)
{
	const size_t P = f->nparams, D = sp->D, np = sf_de_population_size(de);
	const double *pc, *pop = sf_de_population(de, &pc);
	size_t taken[probe_members], nt = 0;

	if (run->probes == NULL &&
	    (run->probes = malloc(probe_shares * probe_members * P *
	                          sizeof *run->probes)) == NULL)
		return SF_ENOMEM;
	/* Insertion sort by cost, stable: populations are small. */
	for (size_t i = 0; i < np; i++) {
		size_t b = i;
		for (; b > 0 && pc[i] < pc[order[b - 1]]; b--)
			order[b] = order[b - 1];
		order[b] = i;
	}
	for (size_t q = 0; q < np && nt < probe_members; q++) {
		const double *u = pop + order[q] * D;
		int near = 0;

		if (!(pc[order[q]] < INFINITY))
			break;
		for (size_t t = 0; t < nt && !near; t++) {
			const double *v = pop + taken[t] * D;
			near = 1;
			for (size_t k = 0; k < D && near; k++)
				near =
				    fabs(u[k] - v[k]) <
				    probe_apart * (sp->upper[k] - sp->lower[k]);
		}
		if (near)
			continue;
		taken[nt++] = order[q];
		double *theta = run->probes + run->nprobes * P;
		search_to_theta(sp, f, u, theta);
		if (D < P)
			sf_cost_profile(cost, theta, 0);
		run->nprobes++;
	}
	return SF_OK;
}

/* Fill run->extra with the thetas of the members to polish besides the
 * best (separably solved entries filled in), best first. */
static int
extra_members(const sf_cost *cost, const sf_formula *f, const search_space *sp,
              const sf_de *de, search_run *run)
{
	const size_t P = f->nparams, D = sp->D, np = sf_de_population_size(de);
	const double *pc, *pop = sf_de_population(de, &pc);
	size_t taken[polish_starts];

	run->nextra = 0;
	if (run->stop == SF_DE_STOP_TOL || np < 2)
		return SF_OK;
	if (run->extra == NULL &&
	    (run->extra = malloc(polish_starts * P * sizeof *run->extra)) ==
	        NULL)
		return SF_ENOMEM;
	/* Selection of the polish_starts lowest costs, ties to the lower
	 * index: the first is the best member, polished anyway. */
	for (size_t k = 0; k < polish_starts && k < np; k++) {
		size_t bi = np;
		for (size_t i = 0; i < np; i++) {
			int seen = 0;
			for (size_t t = 0; t < k; t++)
				seen |= taken[t] == i;
			if (!seen && (bi == np || pc[i] < pc[bi]))
				bi = i;
		}
		taken[k] = bi;
		if (k == 0 || !(pc[bi] < INFINITY))
			continue;
		double *theta = run->extra + run->nextra * P;
		search_to_theta(sp, f, pop + bi * D, theta);
		if (sp->D < P)
			sf_cost_profile(cost, theta, 0);
		run->nextra++;
	}
	return SF_OK;
}

/* The optimiser's settings for run: the fit's, with the run's own seed,
 * population and budget. */
static int
run_settings(const sf_fit_settings *s, const search_run *run,
             sf_de_settings *settings, sf_error *err)
{
	int rc;

	if ((rc = de_settings(s, settings, err)) != SF_OK)
		return rc;
	settings->seed = restart_seed(settings->seed, run->index);
	if (run->population > 0)
		settings->population = run->population;
	if (run->max_evals > 0)
		settings->max_evals = run->max_evals;
	return SF_OK;
}

/* No parameter left to search: one separable solve is the whole answer. */
static void
solve_only(const sf_cost *cost, sf_fit_result *r)
{
	const size_t P = r->nparams;

	memset(r->theta, 0, P * sizeof *r->theta);
	r->cost = r->cost_search = sf_cost_profile(cost, r->theta, 0);
	memcpy(r->theta_search, r->theta, P * sizeof *r->theta);
	r->evaluations = 1;
	r->generations = 0;
	r->population = 0;
	r->stop_reason = "separable";
}

/* The first population of de: in the first run, when some searched
 * parameter has an init, one member at the inits (the others mid-box);
 * otherwise the optimiser's own. */
static int
start_population(const sf_formula *f, const sf_model *m, const search_space *sp,
                 int first_run, sf_de *de, sf_error *err)
{
	const size_t P = f->nparams, D = sp->D;
	double *seed_member = malloc((P + 1) * sizeof *seed_member);
	double *seed_u = malloc((D + 1) * sizeof *seed_u);
	int rc, has_init = 0;

	if (seed_member == NULL || seed_u == NULL) {
		rc = sf_error_set(err, SF_ENOMEM, "out of memory");
		goto done;
	}
	for (size_t k = 0; k < D; k++) {
		const sf_model_param *p = &m->params[f->fitted[sp->index[k]]];
		has_init |= p->has_init && first_run;
	}
	for (size_t j = 0; j < P; j++) {
		const sf_model_param *p = &m->params[f->fitted[j]];
		seed_member[j] =
		    p->has_init ? p->init : 0.5 * (p->min + p->max);
	}
	search_from_theta(sp, seed_member, seed_u);
	rc = sf_de_init(de, has_init ? seed_u : NULL, err);
done:
	free(seed_member);
	free(seed_u);
	return rc;
}

/* Tell o's progress callback, if any, where de stands. */
static void
report_progress(const sf_fit_options *o, const sf_de *de,
                const struct timespec *start)
{
	sf_fit_progress p;

	if (o->progress == NULL)
		return;
	sf_de_best(de, &p.best_cost);
	p.generation = sf_de_generations(de);
	p.evaluations = sf_de_evaluations(de);
	p.max_evals = sf_de_max_evals(de);
	p.spread = sf_de_spread(de);
	p.seconds = sf_clock_seconds_since(start);
	o->progress(o->progress_ctx, &p);
}

/*
 * The generations of one run: take the probes when their shares of the
 * budget come, ask, evaluate the trials in parallel, tell, until the
 * optimiser stops or the time limit ends the run.  costs and order:
 * scratch of the population's size.
 */
static int
search_loop(const sf_cost *cost, const sf_formula *f, const sf_fit_options *o,
            const struct timespec *start, search_space *sp, sf_de *de,
            double *costs, size_t *order, search_run *run, sf_fit_result *r,
            sf_error *err)
{
	const size_t P = f->nparams, D = sp->D;
	const double *trials;
	size_t shares = 0;
	int rc;

	while (sf_de_test(de) == SF_DE_RUNNING) {
		if (run->probe && run->budget > 0 && shares < probe_shares &&
		    (double)sf_de_evaluations(de) >=
		        probe_share[shares] * (double)run->budget) {
			shares++;
			if (take_probes(cost, f, sp, de, order, run) != SF_OK)
				return sf_error_set(err, SF_ENOMEM,
				                    "out of memory");
		}
		size_t n = sf_de_ask(de, &trials);

		for (size_t k = 0; k < n; k++)
			search_to_theta(sp, f, trials + k * D,
			                sp->theta + k * P);
		sf_cost_population(cost, sp->theta, n, costs);
		if ((rc = sf_de_tell(de, costs, err)) != SF_OK)
			return rc;
		report_progress(o, de, start);
		if (r->settings.time_limit > 0 &&
		    sf_clock_seconds_since(start) >= r->settings.time_limit) {
			r->stop_reason = "time_limit";
			run->timed_out = 1;
			break;
		}
	}
	return SF_OK;
}

/* r's answer from the run's best member (its separably solved entries
 * filled in), and the run's counts. */
static void
take_best(const sf_cost *cost, const sf_formula *f, const search_space *sp,
          const sf_de *de, sf_fit_result *r)
{
	const size_t P = f->nparams;
	double best_cost;
	const double *best = sf_de_best(de, &best_cost);

	search_to_theta(sp, f, best, r->theta);
	if (r->nlinear > 0)
		best_cost = sf_cost_profile(cost, r->theta, 0);
	memcpy(r->theta_search, r->theta, P * sizeof *r->theta);
	r->cost = r->cost_search = best_cost;
	r->evaluations = sf_de_evaluations(de);
	r->generations = sf_de_generations(de);
}

/*
 * One run of the global search: ask, evaluate in parallel, tell, until it
 * stops.  Separably solved parameters (r->linear) are not searched; each
 * candidate's are filled in by the cost.  When no parameter is left to
 * search, one solve is the whole answer.
 */
static int
run_search(const sf_cost *cost, const sf_formula *f, const sf_model *m,
           const sf_fit_options *o, const struct timespec *start, int linear,
           search_run *run, sf_fit_result *r, sf_error *err)
{
	const size_t P = f->nparams;
	sf_de_settings settings;
	search_space sp = {0};
	double *costs = NULL;
	size_t *order = NULL, np;
	sf_de *de = NULL;
	int rc;

	run->stop = SF_DE_RUNNING;
	run->timed_out = 0;
	run->budget = 0;
	run->nextra = run->nprobes = 0;
	if ((rc = run_settings(&r->settings, run, &settings, err)) != SF_OK)
		return rc;
	if (search_space_init(&sp, f, linear,
	                      r->nlinear > 0 ? r->linear : NULL) != SF_OK)
		goto oom;
	if (sp.D == 0) {
		solve_only(cost, r);
		rc = SF_OK;
		goto done;
	}
	if ((de = sf_de_alloc(sp.D, sp.lower, sp.upper, &settings, err)) ==
	    NULL) {
		rc = err != NULL ? err->code : SF_EVALUE;
		goto done;
	}
	run->budget = sf_de_max_evals(de);
	np = sf_de_population_size(de);
	if ((sp.theta = malloc((np * P + 1) * sizeof *sp.theta)) == NULL)
		goto oom;
	if ((rc = start_population(f, m, &sp, run->index == 0, de, err)) !=
	    SF_OK)
		goto done;
	costs = malloc((np + 1) * sizeof *costs);
	order = malloc((np + 1) * sizeof *order);
	if (costs == NULL || order == NULL)
		goto oom;
	r->population = np;
	r->stop_reason = NULL;
	if ((rc = search_loop(cost, f, o, start, &sp, de, costs, order, run, r,
	                      err)) != SF_OK)
		goto done;
	run->stop = sf_de_test(de);
	if (extra_members(cost, f, &sp, de, run) != SF_OK)
		goto oom;
	if (r->stop_reason == NULL)
		r->stop_reason = sf_de_stop_name(run->stop);
	take_best(cost, f, &sp, de, r);
	rc = SF_OK;
	goto done;
oom:
	rc = sf_error_set(err, SF_ENOMEM, "out of memory");
done:
	sf_de_free(de);
	search_space_free(&sp);
	free(costs);
	free(order);
	return rc;
}

/* Polish theta (clobbered) too; when it ends lower than r's cost by more
 * than margin times it, it becomes r's answer (the search's best stays
 * r's theta_search).  A polish that takes max_iter steps without getting
 * that low stops there; one that does goes on up to polish_max_iter. */
static int
polish_other(const sf_cost *cost, const sf_formula *f, double *theta,
             size_t max_iter, double margin, sf_fit_result *r, sf_error *err)
{
	sf_fit_result t = *r;
	size_t steps;
	int rc;
	double below = r->cost - margin * fabs(r->cost);

	t.theta = theta;
	t.cost = sf_cost_total(cost, theta, 0);
	t.polish_kept = 0;
	if ((rc = run_polish(cost, f, &t, max_iter, err)) != SF_OK)
		return rc;
	if (max_iter < polish_max_iter && t.polish_kept && t.cost < below &&
	    t.polish_iterations >= max_iter) {
		steps = t.polish_iterations;
		if ((rc = run_polish(cost, f, &t, polish_max_iter - steps,
		                     err)) != SF_OK)
			return rc;
		t.polish_iterations += steps;
		t.polish_kept = 1;
	}
	if (t.polish_kept && t.cost < below) {
		memcpy(r->theta, theta, r->nparams * sizeof *theta);
		r->cost = t.cost;
		r->polish_ran = 1;
		r->polish_kept = 1;
		r->polish_note = NULL;
		r->polish_stop = t.polish_stop;
		r->polish_iterations = t.polish_iterations;
	}
	return SF_OK;
}

/* One run: the search, then the polish of its best. */
static int
run_and_polish(const sf_cost *cost, const sf_formula *f, const sf_model *m,
               const sf_fit_options *o, const struct timespec *start,
               int linear, search_run *run, sf_fit_result *r, sf_error *err)
{
	int rc;

	/* Probes as restarts: the adaptive algorithms only (classic DE
	 * stays scipy's), which always have a budget to take shares of. */
	run->probe = r->settings.polish && sf_cost_is_least_squares(cost) &&
	             sf_de_method_get(r->settings.algorithm)->adaptive;
	rc = run_search(cost, f, m, o, start, linear, run, r, err);
	if (rc != SF_OK || !(r->cost < INFINITY))
		return rc;
	if (!r->settings.polish)
		r->polish_note = "polish is off";
	else if (!sf_cost_is_least_squares(cost))
		r->polish_note = "the cost is not a sum of squares (absolute "
		                 "loss or l1 penalty), so the least-squares "
		                 "polish does not apply";
	else {
		rc = run_polish(cost, f, r, polish_max_iter, err);
		for (size_t e = 0; rc == SF_OK && e < run->nextra; e++)
			rc = polish_other(cost, f, run->extra + e * r->nparams,
			                  polish_max_iter, 0, r, err);
		for (size_t e = 0; rc == SF_OK && e < run->nprobes; e++)
			rc = polish_other(cost, f, run->probes + e * r->nparams,
			                  probe_polish_iter, probe_lower, r,
			                  err);
	}
	return rc;
}

/* A result for P parameters; linear (may be NULL) flags those solved
 * separably. */
static sf_fit_result *
result_alloc(size_t P, const sf_fit_settings *settings, const int *linear)
{
	sf_fit_result *r = calloc(1, sizeof *r);

	if (r == NULL)
		return NULL;
	r->nparams = P;
	r->settings = *settings;
	r->theta = calloc(P + 1, sizeof *r->theta);
	r->theta_search = calloc(P + 1, sizeof *r->theta_search);
	r->at_bound = calloc(P + 1, sizeof *r->at_bound);
	r->linear = calloc(P + 1, sizeof *r->linear);
	if (r->theta == NULL || r->theta_search == NULL ||
	    r->at_bound == NULL || r->linear == NULL) {
		sf_fit_result_free(r);
		return NULL;
	}
	for (size_t j = 0; linear != NULL && j < P; j++) {
		r->linear[j] = linear[j];
		r->nlinear += linear[j] != 0;
	}
	return r;
}

/* Rows named in a message before the rest are only counted. */
enum { FIT_NAMED_ROWS = 5 };

/*
 * After a search that found no finite cost: name the rows where the
 * formula is not finite (or, with positive, not above 0) at the search's
 * last answer theta - the first FIT_NAMED_ROWS by their line in the data
 * file, and how many - appended to err's message.
 */
static void
name_bad_rows(const sf_cost *cost, const sf_dataset *d, const double *theta,
              int positive, sf_error *err)
{
	double *pred;
	size_t bad = 0, used;
	char lines[128] = "";

	if (err == NULL || d->rows == 0 ||
	    (pred = malloc(d->rows * sizeof *pred)) == NULL)
		return;
	sf_cost_predict(cost, theta, pred);
	for (size_t i = 0; i < d->rows; i++) {
		size_t n = strlen(lines);

		if (isfinite(pred[i]) && !(positive && pred[i] <= 0))
			continue;
		if (bad++ < FIT_NAMED_ROWS)
			snprintf(lines + n, sizeof lines - n, "%s%d",
			         n > 0 ? ", " : "", d->lines[i]);
	}
	free(pred);
	if (bad == 0)
		return;
	used = strlen(err->message);
	snprintf(err->message + used, sizeof err->message - used,
	         "; at the last point searched it is %s on %zu of %zu rows: "
	         "%s %s%s of %s",
	         positive ? "not a finite positive number" : "not finite", bad,
	         d->rows, bad > 1 ? "lines" : "line", lines,
	         bad > FIT_NAMED_ROWS ? ", ..." : "", d->file);
}

/* Copy what a run found (not the settings nor the counters) into dst. */
static void
result_copy_answer(sf_fit_result *dst, const sf_fit_result *src)
{
	const size_t P = src->nparams;

	memcpy(dst->theta, src->theta, P * sizeof *dst->theta);
	memcpy(dst->theta_search, src->theta_search, P * sizeof *dst->theta);
	dst->cost = src->cost;
	dst->cost_search = src->cost_search;
	dst->stop_reason = src->stop_reason;
	dst->polish_ran = src->polish_ran;
	dst->polish_kept = src->polish_kept;
	dst->polish_note = src->polish_note;
	dst->polish_stop = src->polish_stop;
	dst->polish_iterations = src->polish_iterations;
}

/*
 * Whether to restart after a run that ended as run says, the search
 * having used `used` evaluations with `best` the lowest cost so far:
 * only the adaptive algorithms (classic DE stays scipy's), only after a
 * collapsed population (not the budget nor the time limit), not at a
 * cost of 0, and while the budget left holds the next population: the
 * runs share the budget of the first.
 */
static int
restart_again(const sf_fit_result *r, const search_run *run, size_t used,
              size_t budget, double best, size_t next_population)
{
	if (!sf_de_method_get(r->settings.algorithm)->adaptive ||
	    run->timed_out ||
	    (run->stop != SF_DE_STOP_TOL &&
	     run->stop != SF_DE_STOP_STAGNATION) ||
	    !(best > 0) || next_population > SF_DE_POPULATION_MAX)
		return 0;
	return budget > used && budget - used >= next_population;
}

/* Append to r's list of runs the run that ended with result c. */
static int
record_run(sf_fit_result *r, int linear, const sf_fit_result *c)
{
	sf_fit_search_run *runs =
	    realloc(r->runs, (r->nruns + 1) * sizeof *runs);

	if (runs == NULL)
		return SF_ENOMEM;
	r->runs = runs;
	runs[r->nruns].scale = linear ? SF_SCALE_LINEAR : SF_SCALE_LOG;
	runs[r->nruns].population = c->population;
	runs[r->nruns].evaluations = c->evaluations;
	runs[r->nruns].cost = c->cost;
	runs[r->nruns].stop_reason = c->stop_reason;
	r->nruns++;
	return SF_OK;
}

/* Put first's runs before second's, in second: the runs of both
 * searches of scale auto, in the order they ran. */
static int
join_runs(const sf_fit_result *first, sf_fit_result *second)
{
	sf_fit_search_run *runs =
	    malloc((first->nruns + second->nruns + 1) * sizeof *runs);

	if (runs == NULL)
		return SF_ENOMEM;
	memcpy(runs, first->runs, first->nruns * sizeof *runs);
	memcpy(runs + first->nruns, second->runs, second->nruns * sizeof *runs);
	free(second->runs);
	second->runs = runs;
	second->nruns += first->nruns;
	return SF_OK;
}

/* A restart whose cost is the lowest so far to this relative difference
 * found the same minimum again: the search stops there. */
static const double restart_confirm = 1e-6;

/* One attempt: the search in one space with its restarts, each run
 * polished, the lowest cost kept in r. */
static int
search_and_polish(const sf_cost *cost, const sf_formula *f, const sf_model *m,
                  const sf_fit_options *o, const struct timespec *start,
                  int linear, sf_fit_result *r, sf_error *err)
{
	search_run run = {0};
	sf_fit_result *c = NULL;
	size_t used, budget, np;
	int confirmed;
	int rc = run_and_polish(cost, f, m, o, start, linear, &run, r, err);

	if (rc != SF_OK)
		goto done;
	if (r->population > 0 && record_run(r, linear, r) != SF_OK) {
		rc = sf_error_set(err, SF_ENOMEM, "out of memory");
		goto done;
	}
	used = r->evaluations;
	budget = run.budget;
	np = r->population;
	r->restarts = 0;
	while (!o->first_run_only &&
	       restart_again(r, &run, used, budget, r->cost, 2 * np)) {
		if (c == NULL && (c = result_alloc(r->nparams, &r->settings,
		                                   r->linear)) == NULL) {
			rc = sf_error_set(err, SF_ENOMEM, "out of memory");
			break;
		}
		run.index++;
		run.population = np = 2 * np;
		run.max_evals = budget - used;
		c->polish_ran = c->polish_kept = 0;
		c->polish_note = c->polish_stop = NULL;
		c->polish_iterations = 0;
		if ((rc = run_and_polish(cost, f, m, o, start, linear, &run, c,
		                         err)) != SF_OK)
			break;
		if (record_run(r, linear, c) != SF_OK) {
			rc = sf_error_set(err, SF_ENOMEM, "out of memory");
			break;
		}
		used += c->evaluations;
		r->generations += c->generations;
		r->restarts++;
		confirmed =
		    fabs(c->cost - r->cost) <= restart_confirm * fabs(r->cost);
		if (c->cost < r->cost)
			result_copy_answer(r, c);
		if (confirmed)
			break;
	}
	r->evaluations = used;
done:
	sf_fit_result_free(c);
	free(run.extra);
	free(run.probes);
	return rc;
}

/* The cost of the fit: its rows' weights into *weights (the caller frees)
 * and the loss, penalty and threads of settings and o. */
static int
fit_cost(const sf_fit_settings *settings, const sf_dataset *d,
         const sf_formula *f, const sf_fit_options *o, double **weights,
         sf_cost **cost, sf_error *err)
{
	sf_cost_settings cs;
	int rc;

	if ((rc = sf_fit_weights(settings, d, weights, err)) != SF_OK)
		return rc;
	cs.loss = settings->loss;
	cs.huber_delta = settings->huber_delta;
	cs.penalty = settings->penalty;
	cs.lambda = settings->penalty == SF_PENALTY_NONE ? 0 : settings->lambda;
	cs.threads = o->threads;
	cs.parallel_always = o->parallel_always;
	if ((*cost = sf_cost_alloc(f, d, *weights, &cs, err)) == NULL)
		return err != NULL ? err->code : SF_ENOMEM;
	return SF_OK;
}

/* A warm start: best's theta, the start, polished. */
static int
warm_polish(const sf_cost *cost, const sf_formula *f, sf_fit_result *best,
            sf_error *err)
{
	memcpy(best->theta_search, best->theta,
	       f->nparams * sizeof *best->theta);
	best->cost = best->cost_search = sf_cost_total(cost, best->theta, 0);
	best->stop_reason = "warm_start";
	best->scale = SF_SCALE_LINEAR;
	return best->cost < INFINITY
	           ? run_polish(cost, f, best, polish_max_iter, err)
	           : SF_OK;
}

/* After both searches of scale auto: the lower cost in *best (ties to
 * the first, linear one), with the runs of both and their counts; the
 * other in *other. */
static int
keep_lower(sf_fit_result **best, sf_fit_result **other)
{
	sf_fit_result *b = *best, *o = *other;

	if (join_runs(b, o) != SF_OK)
		return SF_ENOMEM;
	o->evaluations += b->evaluations;
	o->generations += b->generations;
	o->restarts += b->restarts;
	b->evaluations = o->evaluations;
	b->generations = o->generations;
	b->restarts = o->restarts;
	if (!(o->cost < b->cost)) {
		/* the list of runs stays with the answer */
		free(b->runs);
		b->runs = o->runs;
		b->nruns = o->nruns;
		o->runs = NULL;
		o->nruns = 0;
	} else {
		*best = o;
		*other = b;
	}
	return SF_OK;
}

/*
 * Scale auto: also search on the log scale, into *other, and keep the
 * lower cost in *best.  Neither scale wins everywhere (NIST's Gauss
 * problems want linear, MGH09 and Thurber log), and a wrong basin is
 * worse than twice the time.
 */
static int
search_log_too(const sf_cost *cost, const sf_formula *f, const sf_model *m,
               const sf_fit_options *o, const struct timespec *start,
               const int *linear, sf_fit_result **best, sf_fit_result **other,
               sf_error *err)
{
	int rc;

	if ((*other = result_alloc(f->nparams, &(*best)->settings, linear)) ==
	    NULL)
		return sf_error_set(err, SF_ENOMEM, "out of memory");
	rc = search_and_polish(cost, f, m, o, start, 0, *other, err);
	if (rc != SF_OK)
		return rc;
	(*other)->scale = SF_SCALE_LOG;
	if (keep_lower(best, other) != SF_OK)
		return sf_error_set(err, SF_ENOMEM, "out of memory");
	return SF_OK;
}

/* at_bound[j]: 1 when theta_j ended on its lower bound, 2 on its upper. */
static void
mark_bounds(sf_fit_result *r, const sf_formula *f)
{
	for (size_t j = 0; j < r->nparams; j++)
		r->at_bound[j] = r->theta[j] <= f->lower[j]   ? 1
		                 : r->theta[j] >= f->upper[j] ? 2
		                                              : 0;
}

int
sf_fit_run(const sf_model *m, const sf_dataset *d, const sf_formula *f,
           const sf_fit_options *o, sf_fit_result **out, sf_error *err)
{
	const size_t P = f->nparams;
	struct timespec start;
	sf_fit_settings settings = sf_fit_settings_effective(m, o);
	sf_fit_result *best = NULL, *other = NULL;
	int *linear = NULL;
	sf_cost *cost = NULL;
	double *weights = NULL;
	int rc;

	sf_clock_now(&start);
	*out = NULL;
	if (settings.lambda_auto)
		return sf_error_set(
		    err, SF_EINTERNAL,
		    "lambda: auto is chosen by sf_tune_fit (tune.h)");
	if ((rc = fit_cost(&settings, d, f, o, &weights, &cost, err)) != SF_OK)
		goto done;
	/* Separable: find the constants to solve rather than search (not
	 * for a warm start, which only polishes). */
	if (settings.separable && o->warm_start == NULL &&
	    sf_cost_is_separable_loss(cost)) {
		if ((linear = calloc(P + 1, sizeof *linear)) == NULL) {
			rc = sf_error_set(err, SF_ENOMEM, "out of memory");
			goto done;
		}
		sf_error_clear(err);
		if (sf_cost_find_linear(cost, linear, err) > 0 &&
		    (rc = sf_cost_set_separable(cost, linear, err)) != SF_OK)
			goto done;
		if (err != NULL && err->code == SF_ENOMEM) {
			rc = SF_ENOMEM;
			goto done;
		}
	}
	if ((best = result_alloc(P, &settings, linear)) == NULL) {
		rc = sf_error_set(err, SF_ENOMEM, "out of memory");
		goto done;
	}
	if (o->warm_start != NULL && settings.polish &&
	    sf_cost_is_least_squares(cost)) {
		memcpy(best->theta, o->warm_start, P * sizeof *best->theta);
		rc = warm_polish(cost, f, best, err);
		settings.scale = SF_SCALE_LINEAR; /* no second search */
	} else {
		rc = search_and_polish(cost, f, m, o, &start,
		                       settings.scale != SF_SCALE_LOG, best,
		                       err);
	}
	if (rc != SF_OK)
		goto done;
	best->scale =
	    settings.scale == SF_SCALE_LOG ? SF_SCALE_LOG : SF_SCALE_LINEAR;
	if (settings.scale == SF_SCALE_AUTO &&
	    log_search_differs(f, best->linear) &&
	    !(settings.time_limit > 0 &&
	      sf_clock_seconds_since(&start) >= settings.time_limit) &&
	    (rc = search_log_too(cost, f, m, o, &start, linear, &best, &other,
	                         err)) != SF_OK)
		goto done;
	best->searches = other != NULL ? 2 : 1;
	best->cost_other = other != NULL ? other->cost : NAN;
	best->threads = sf_cost_threads(cost);
	if (!(best->cost < INFINITY)) {
		best->loss = best->cost = INFINITY;
		best->penalty = sf_cost_penalty(cost, best->theta);
		best->seconds = sf_clock_seconds_since(&start);
		*out = best;
		best = NULL;
		rc = sf_error_set(err, SF_EFAIL,
		                  "no candidate had a finite cost: the "
		                  "formula gives NaN, infinity or (for loss "
		                  "log) a non-positive time everywhere the "
		                  "search looked");
		name_bad_rows(cost, d, (*out)->theta,
		              sf_loss_needs_positive(settings.loss), err);
		goto done;
	}
	best->loss = sf_cost_loss(cost, best->theta, 0);
	best->penalty = sf_cost_penalty(cost, best->theta);
	mark_bounds(best, f);
	best->seconds = sf_clock_seconds_since(&start);
	*out = best;
	best = NULL;
	rc = SF_OK;
done:
	sf_cost_free(cost);
	free(weights);
	free(linear);
	sf_fit_result_free(best);
	sf_fit_result_free(other);
	return rc;
}
