/*
 * fit.c - the fit driver: settings, the search loop, the polish.
 */
#include "fit.h"
#include "cost.h"
#include "de.h"
#include "polish.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* The seed of a model that gives none: fits are reproducible by default. */
static const uint64_t fit_default_seed = 1;

void
sf_fit_options_init(sf_fit_options *o)
{
	memset(o, 0, sizeof *o);
	o->polish = -1;
}

void
sf_fit_result_free(sf_fit_result *r)
{
	if (r == NULL)
		return;
	free(r->theta);
	free(r->theta_search);
	free(r->at_bound);
	free(r);
}

static double
seconds_since(const struct timespec *start)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	return (double)(now.tv_sec - start->tv_sec) +
	       1e-9 * (double)(now.tv_nsec - start->tv_nsec);
}

/* The model's settings with the caller's overrides applied. */
static sf_fit_settings
effective_settings(const sf_model *m, const sf_fit_options *o)
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
	if (o->polish >= 0)
		s.polish = o->polish;
	return s;
}

/* The optimiser's settings from the fit settings. */
static int
de_settings(const sf_fit_settings *s, sf_de_settings *de, sf_error *err)
{
	static const sf_de_algorithm algorithms[] = {
		[SF_ALGORITHM_LSHADE] = SF_DE_LSHADE,
		[SF_ALGORITHM_JSO] = SF_DE_JSO,
		[SF_ALGORITHM_DE] = SF_DE_CLASSIC,
	};
	int rc;

	sf_de_settings_default(de, algorithms[s->algorithm]);
	if (s->algorithm == SF_ALGORITHM_DE &&
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
	de->init = s->init == SF_INIT_UNIFORM ? SF_DE_INIT_UNIFORM
					      : SF_DE_INIT_LHS;
	de->seed = s->seed;
	if (s->stagnation > 0)
		de->stagnation_generations = s->stagnation;
	return SF_OK;
}

int
sf_fit_weights(const sf_fit_settings *s, const sf_dataset *d,
	       double **weights, sf_error *err)
{
	double *w, *var, pooled = 0, mean_w = 0;
	size_t repeated = 0;
	int relative = s->loss != SF_LOSS_SSE && s->loss != SF_LOSS_ABSOLUTE;

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

/* The polish's view of the cost. */
static int
polish_residuals(const double *theta, double *r, double *J, void *ctx)
{
	return sf_cost_residuals(ctx, theta, r, J) == SF_OK ? 0 : -1;
}

/* Refine r->theta by least squares; keep the result if it is better. */
static int
run_polish(const sf_cost *cost, const sf_formula *f, sf_fit_result *r,
	   sf_error *err)
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

/* The global search: ask, evaluate in parallel, tell, until it stops. */
static int
run_search(const sf_cost *cost, const sf_formula *f, const sf_model *m,
	   const sf_fit_options *o, const struct timespec *start,
	   sf_fit_result *r, sf_error *err)
{
	const size_t P = f->nparams;
	sf_de_settings settings;
	double *seed_member = NULL, *costs = NULL, best_cost;
	const double *trials, *best;
	int rc, has_init = 0;
	sf_de *de;

	if ((rc = de_settings(&r->settings, &settings, err)) != SF_OK)
		return rc;
	if ((de = sf_de_alloc(P, f->lower, f->upper, &settings, err)) == NULL)
		return err != NULL ? err->code : SF_EVALUE;
	/* Parameters with init: seed one member (the others mid-box). */
	if ((seed_member = malloc((P + 1) * sizeof *seed_member)) == NULL)
		goto oom;
	for (size_t j = 0; j < P; j++) {
		const sf_model_param *p = &m->params[f->fitted[j]];
		seed_member[j] = p->has_init ? p->init
					     : 0.5 * (p->min + p->max);
		has_init |= p->has_init;
	}
	if ((rc = sf_de_init(de, has_init ? seed_member : NULL, err)) != SF_OK)
		goto done;
	costs = malloc((sf_de_population_size(de) + 1) * sizeof *costs);
	if (costs == NULL)
		goto oom;
	r->population = sf_de_population_size(de);
	r->stop_reason = NULL;
	while (sf_de_test(de) == SF_DE_RUNNING) {
		size_t n = sf_de_ask(de, &trials);

		sf_cost_population(cost, trials, n, costs);
		if ((rc = sf_de_tell(de, costs, err)) != SF_OK)
			goto done;
		if (o->progress != NULL) {
			sf_fit_progress p;
			sf_de_best(de, &p.best_cost);
			p.generation = sf_de_generations(de);
			p.evaluations = sf_de_evaluations(de);
			p.max_evals = sf_de_max_evals(de);
			p.spread = sf_de_spread(de);
			p.seconds = seconds_since(start);
			o->progress(o->progress_ctx, &p);
		}
		if (r->settings.time_limit > 0 &&
		    seconds_since(start) >= r->settings.time_limit) {
			r->stop_reason = "time_limit";
			break;
		}
	}
	if (r->stop_reason == NULL)
		r->stop_reason = sf_de_stop_name(sf_de_test(de));
	best = sf_de_best(de, &best_cost);
	memcpy(r->theta, best, P * sizeof *best);
	memcpy(r->theta_search, best, P * sizeof *best);
	r->cost = r->cost_search = best_cost;
	r->evaluations = sf_de_evaluations(de);
	r->generations = sf_de_generations(de);
	rc = SF_OK;
	goto done;
oom:
	rc = sf_error_set(err, SF_ENOMEM, "out of memory");
done:
	sf_de_free(de);
	free(seed_member);
	free(costs);
	return rc;
}

int
sf_fit_run(const sf_model *m, const sf_dataset *d, const sf_formula *f,
	   const sf_fit_options *o, sf_fit_result **out, sf_error *err)
{
	const size_t P = f->nparams;
	struct timespec start;
	sf_cost_settings cs;
	sf_fit_result *r;
	sf_cost *cost = NULL;
	double *weights = NULL;
	int rc;

	clock_gettime(CLOCK_MONOTONIC, &start);
	*out = NULL;
	if ((r = calloc(1, sizeof *r)) == NULL)
		return sf_error_set(err, SF_ENOMEM, "out of memory");
	r->nparams = P;
	r->settings = effective_settings(m, o);
	r->theta = calloc(P + 1, sizeof *r->theta);
	r->theta_search = calloc(P + 1, sizeof *r->theta_search);
	r->at_bound = calloc(P + 1, sizeof *r->at_bound);
	if (r->theta == NULL || r->theta_search == NULL || r->at_bound == NULL) {
		rc = sf_error_set(err, SF_ENOMEM, "out of memory");
		goto done;
	}
	if ((rc = sf_fit_weights(&r->settings, d, &weights, err)) != SF_OK)
		goto done;
	cs.loss = r->settings.loss;
	cs.huber_delta = r->settings.huber_delta;
	cs.penalty = r->settings.penalty;
	cs.lambda = r->settings.penalty == SF_PENALTY_NONE ? 0
							    : r->settings.lambda;
	cs.threads = o->threads;
	if ((cost = sf_cost_alloc(f, d, weights, &cs, err)) == NULL) {
		rc = err != NULL ? err->code : SF_ENOMEM;
		goto done;
	}
	r->threads = sf_cost_threads(cost);
	if ((rc = run_search(cost, f, m, o, &start, r, err)) != SF_OK)
		goto done;
	if (!(r->cost < INFINITY)) {
		r->loss = r->cost = INFINITY;
		r->penalty = sf_cost_penalty(cost, r->theta);
		r->seconds = seconds_since(&start);
		*out = r;
		r = NULL;
		rc = sf_error_set(err, SF_EFAIL,
				  "no candidate had a finite cost: the "
				  "formula gives NaN, infinity or (for loss "
				  "log) a non-positive time everywhere the "
				  "search looked");
		goto done;
	}
	if (!r->settings.polish)
		r->polish_note = "polish is off";
	else if (!sf_cost_is_least_squares(cost))
		r->polish_note = "the cost is not a sum of squares (absolute "
				 "loss or l1 penalty), so the least-squares "
				 "polish does not apply";
	else if ((rc = run_polish(cost, f, r, err)) != SF_OK)
		goto done;
	r->loss = sf_cost_loss(cost, r->theta, 0);
	r->penalty = sf_cost_penalty(cost, r->theta);
	for (size_t j = 0; j < P; j++)
		r->at_bound[j] = r->theta[j] <= f->lower[j]   ? 1
				 : r->theta[j] >= f->upper[j] ? 2
							      : 0;
	r->seconds = seconds_since(&start);
	*out = r;
	r = NULL;
	rc = SF_OK;
done:
	sf_cost_free(cost);
	free(weights);
	sf_fit_result_free(r);
	return rc;
}
