/*
 * design.c - which run to measure next (design.h).
 */
#include "use/design.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* A working copy of the fit that measuring runs changes. */
typedef struct state {
	double *cov;       /* P x P */
	double *lo, *hi;   /* the range */
	double *lo2, *hi2; /* the range a candidate would make */
	double *a, *b;     /* P scratch */
} state;

static void
state_free(state *s)
{
	free(s->cov);
	free(s->lo);
	free(s->hi);
	free(s->lo2);
	free(s->hi2);
	free(s->a);
	free(s->b);
}

static int
state_init(state *s, const sf_design_fit *f)
{
	const size_t P = f->nparams, J = f->ninputs;

	s->cov = malloc((P * P + 1) * sizeof *s->cov);
	s->lo = malloc((J + 1) * sizeof *s->lo);
	s->hi = malloc((J + 1) * sizeof *s->hi);
	s->lo2 = malloc((J + 1) * sizeof *s->lo2);
	s->hi2 = malloc((J + 1) * sizeof *s->hi2);
	s->a = malloc((P + 1) * sizeof *s->a);
	s->b = malloc((P + 1) * sizeof *s->b);
	if (s->cov == NULL || s->lo == NULL || s->hi == NULL ||
	    s->lo2 == NULL || s->hi2 == NULL || s->a == NULL || s->b == NULL) {
		state_free(s);
		return SF_ENOMEM;
	}
	memcpy(s->cov, f->cov, P * P * sizeof *s->cov);
	memcpy(s->lo, f->lo, J * sizeof *s->lo);
	memcpy(s->hi, f->hi, J * sizeof *s->hi);
	return SF_OK;
}

/* A parameter held at a bound has no covariance: the run cannot move it. */
static int
active(const sf_design_fit *f, const state *s, size_t j)
{
	return !isnan(s->cov[j * f->nparams + j]);
}

/* out = C v over the active parameters. */
static void
cov_times(const sf_design_fit *f, const state *s, const double *v, double *out)
{
	const size_t P = f->nparams;

	for (size_t i = 0; i < P; i++) {
		out[i] = 0;
		if (!active(f, s, i))
			continue;
		for (size_t j = 0; j < P; j++)
			if (active(f, s, j) && isfinite(v[j]))
				out[i] += s->cov[i * P + j] * v[j];
	}
}

static double
dot(const sf_design_fit *f, const state *s, const double *u, const double *v)
{
	double sum = 0;

	for (size_t j = 0; j < f->nparams; j++)
		if (active(f, s, j) && isfinite(u[j]) && isfinite(v[j]))
			sum += u[j] * v[j];
	return sum;
}

/* The noise variance and the gradient's scale on the loss's scale. */
static double
loss_scale(const sf_design_fit *f, const sf_design_point *p)
{
	return f->error->multiplicative ? 1 / p->time : 1;
}

/* The target's interval for state s with mean variance v. */
static void
target_interval(const sf_design_fit *f, const state *s,
                const sf_design_point *t, double v, sf_design_gain *g)
{
	g->mean_var = v;
	g->distance =
	    sf_interval_distance(f->ninputs, s->lo, s->hi, f->numeric, t->x);
	sf_interval_at(f->error, t->time, v, g->distance, &g->lo, &g->hi);
	g->halfwidth_pct = 100 * (g->hi - g->lo) / (2 * fabs(t->time));
}

/*
 * What measuring candidate c would do to state s (read-only); with apply,
 * do it: update the covariance and the range.
 */
static void
measure(const sf_design_fit *f, state *s, const sf_design_point *t,
        const sf_design_point *c, int apply, sf_design_gain *g)
{
	const size_t P = f->nparams, J = f->ninputs;
	const double k = loss_scale(f, c),
	             s2 = f->error->sigma * f->error->sigma;
	double *gc = s->b, q, denom, vt, tc;
	int use;

	for (size_t j = 0; j < P; j++)
		gc[j] = c->grad[j] * k;
	cov_times(f, s, gc, s->a); /* a = C g~ */
	q = dot(f, s, gc, s->a);   /* g~^T C g~ */
	denom = s2 + q;
	tc = dot(f, s, t->grad, s->a); /* g_t^T C g~ */
	cov_times(f, s, t->grad, gc);  /* reuse: C g_t */
	vt = dot(f, s, t->grad, gc);
	if (denom > 0 && isfinite(denom))
		vt -= tc * tc / denom;
	if (vt < 0)
		vt = 0;
	g->d_gain = s2 > 0 && isfinite(q) ? log1p(q / s2) : NAN;
	/* The range after the run: the target's distance shrinks when the
	 * run lies beyond the range towards it. */
	for (size_t i = 0; i < J; i++) {
		use = f->numeric == NULL || f->numeric[i];
		s->lo2[i] = use && c->x[i] < s->lo[i] ? c->x[i] : s->lo[i];
		s->hi2[i] = use && c->x[i] > s->hi[i] ? c->x[i] : s->hi[i];
	}
	if (apply) {
		if (denom > 0 && isfinite(denom))
			for (size_t i = 0; i < P; i++)
				for (size_t j = 0; j < P; j++)
					if (active(f, s, i) && active(f, s, j))
						s->cov[i * P + j] -=
						    s->a[i] * s->a[j] / denom;
		memcpy(s->lo, s->lo2, J * sizeof *s->lo);
		memcpy(s->hi, s->hi2, J * sizeof *s->hi);
	}
	g->mean_var = vt;
	g->distance = sf_interval_distance(J, s->lo2, s->hi2, f->numeric, t->x);
	sf_interval_at(f->error, t->time, vt, g->distance, &g->lo, &g->hi);
	g->halfwidth_pct = 100 * (g->hi - g->lo) / (2 * fabs(t->time));
}

int
sf_design_rank(const sf_design_fit *fit, const sf_design_point *target,
               const sf_design_point *cand, size_t n, sf_design_gain *now,
               sf_design_gain *gains, sf_error *err)
{
	state s;

	if (!isfinite(target->time))
		return sf_error_set(err, SF_EVALUE,
		                    "the prediction at the target is not "
		                    "finite");
	if (state_init(&s, fit) != SF_OK)
		return sf_error_set(err, SF_ENOMEM, "out of memory");
	cov_times(fit, &s, target->grad, s.a);
	target_interval(fit, &s, target, dot(fit, &s, target->grad, s.a), now);
	now->d_gain = 0;
	for (size_t i = 0; i < n; i++)
		measure(fit, &s, target, &cand[i], 0, &gains[i]);
	state_free(&s);
	return SF_OK;
}

size_t
sf_design_plan(const sf_design_fit *fit, const sf_design_point *target,
               const sf_design_point *cand, size_t n, double budget,
               size_t max_runs, size_t *order, sf_design_gain *after)
{
	unsigned char *used = calloc(n + 1, 1);
	sf_design_gain here, g;
	size_t runs = 0;
	state s;

	if (used == NULL || state_init(&s, fit) != SF_OK) {
		free(used);
		return (size_t)-1;
	}
	cov_times(fit, &s, target->grad, s.a);
	target_interval(fit, &s, target, dot(fit, &s, target->grad, s.a),
	                &here);
	while (runs < max_runs) {
		size_t best = n;
		double best_rate = -INFINITY;

		for (size_t i = 0; i < n; i++) {
			double rate;

			if (used[i] || !(cand[i].cost <= budget))
				continue;
			measure(fit, &s, target, &cand[i], 0, &g);
			rate = (here.halfwidth_pct - g.halfwidth_pct) /
			       (cand[i].cost > 0 ? cand[i].cost : 1);
			/* ties to the earlier candidate: deterministic */
			if (rate > best_rate) {
				best_rate = rate;
				best = i;
			}
		}
		if (best == n)
			break;
		measure(fit, &s, target, &cand[best], 1, &here);
		used[best] = 1;
		budget -= cand[best].cost;
		order[runs] = best;
		after[runs] = here;
		runs++;
	}
	free(used);
	state_free(&s);
	return runs;
}
