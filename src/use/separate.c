/*
 * separate.c - which run to measure next for an ensemble (separate.h).
 */
#include "use/separate.h"
#include "fit/ensemble.h"
#include "use/predict.h"
#include "use/scale.h"

#include <gsl/gsl_cdf.h>
#include <gsl/gsl_randist.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

/* One formula of the ensemble: its weight, its own study (design.h: its
 * distribution at the target after each candidate), a new run's
 * distribution at each candidate and how far a run's result there pulls
 * its centre at the target. */
typedef struct member {
	double w;
	sf_next *own;
	sf_interval_t *at; /* n */
	double *pull;      /* n */
	double *lean;      /* n: its model error's bias up to each candidate,
	                      on the target's scale */
} member;

/* What every candidate's expectation shares. */
typedef struct study {
	const sf_fitfile *e;
	member *m;            /* e->nmembers */
	size_t k;             /* e->nmembers */
	const member *lead;   /* the first with weight: the distances' */
	double target_time;   /* the mixture's point at the target */
	double prior_entropy; /* of the weights today */
	sf_interval_t *after; /* k scratch: each at the target after a run */
	double *w;            /* k scratch: the weights after it */
} study;

static void
members_free(member *m, size_t k)
{
	for (size_t i = 0; m != NULL && i < k; i++) {
		sf_next_free(m[i].own);
		free(m[i].at);
		free(m[i].pull);
		free(m[i].lean);
	}
	free(m);
}

/* Whether t is a distribution a run's result can be drawn from. */
static int
drawable(const sf_interval_t *t)
{
	return isfinite(t->centre) && t->scale > 0 && isfinite(t->scale) &&
	       t->dof > 0 && isfinite(t->dof);
}

/* The distribution of a new run at each of point p's n points under fit
 * f, into t (NaN where there is none). */
static void
shapes_of(const sf_fitfile *f, const sf_prediction *p, sf_interval_t *t)
{
	for (size_t q = 0; q < p->n; q++) {
		const sf_predict_point *x = &p->points[q];

		sf_interval_shape(&f->interval, x->time, x->se * x->se,
		                  &x->beyond, &t[q]);
	}
}

/* The model error along input j, d doublings beyond the range
 * (interval.h: on the log scale with multiplicative errors, relative to
 * the time without): its variance, and its bias into *shift. */
static double
model_var(const sf_interval_model *im, size_t j, double d, double *shift)
{
	sf_interval_beyond b = {0, 0, 0, 0, 0, 0, 0};

	sf_interval_beyond_add(im, j, d, &b);
	if (shift != NULL)
		*shift = b.shift;
	return b.var;
}

/* The model error formula f's errors at the target and at a run share
 * along numeric input j, dt and dx doublings beyond the range, where both
 * lie on one side: its variance sqrt(V(dx) (V(dt) - V(dt - dx))), V the
 * variance at a distance and V(dt - dx) 0 when the run lies past the
 * target, and into *lean the bias up to the nearer of the two; 0 and 0
 * otherwise. */
static double
shared_model_var(const sf_fitfile *f, size_t j, double dt, double dx,
                 double *lean)
{
	const sf_interval_model *im = &f->interval;
	const int before = fabs(dx) < fabs(dt);
	double rest;

	*lean = 0;
	if (!(dt * dx > 0))
		return 0;
	model_var(im, j, before ? dx : dt, lean);
	rest = before ? model_var(im, j, dt - dx, NULL) : 0;
	return sqrt(model_var(im, j, dx, NULL) *
	            fmax(0, model_var(im, j, dt, NULL) - rest));
}

void
sf_separate_pulls(const sf_fitfile *f, const double *target,
                  const sf_prediction *pt, const sf_prediction *pc,
                  const sf_interval_t *at, double *pull, double *lean)
{
	const sf_interval_model *im = &f->interval;
	const double ft = pt->points[0].time;

	for (size_t q = 0; q < pc->n; q++) {
		const double fx = pc->points[q].time;
		const double var = at[q].scale * at[q].scale;
		double c = sf_design_mean_cov(f, pt->gradient, 1,
		                              &pc->gradient[q], pc->n);
		double m = 0, b = 0, bj;

		for (size_t j = 0; j < f->ninputs; j++) {
			const sf_fitfile_input *in = &f->inputs[j];

			if (in->levels != NULL)
				continue;
			m += shared_model_var(
			    f, j,
			    sf_interval_signed_doublings(in->lo, in->hi,
			                                 target[j]),
			    sf_interval_signed_doublings(
			        in->lo, in->hi, pc->inputs[j * pc->n + q]),
			    &bj);
			b += bj;
		}
		if (im->multiplicative) {
			c /= ft * fx;
		} else {
			m *= fabs(ft * fx);
			b *= fabs(ft);
		}
		pull[q] = var > 0 && isfinite(c + m) ? (c + m) / var : 0;
		lean[q] = isfinite(b) ? b : 0;
	}
}

/* Formula i's own study and distributions (the target tcol and the
 * candidates in e's order of inputs); an error names it. */
static int
member_open(const sf_fitfile *e, size_t i, const double *const *tcol,
            const double *const *columns, size_t n, member *m, sf_error *err)
{
	const sf_fitfile *f = e->members[i];
	const size_t J = f->ninputs;
	/* the target and candidates in f's order of inputs */
	const double **ftcol = calloc(J + 1, sizeof *ftcol);
	const double **fcol = calloc(J + 1, sizeof *fcol);
	double *target = calloc(J + 1, sizeof *target);
	sf_prediction *pt = NULL, *pc = NULL;
	int rc = SF_OK;

	m->w = e->weights[i];
	if (ftcol == NULL || fcol == NULL || target == NULL ||
	    (m->at = malloc((n + 1) * sizeof *m->at)) == NULL ||
	    (m->pull = malloc((n + 1) * sizeof *m->pull)) == NULL ||
	    (m->lean = malloc((n + 1) * sizeof *m->lean)) == NULL)
		rc = sf_error_set(err, SF_ENOMEM, "out of memory");
	if (rc != SF_OK || !(m->w > 0)) /* out of the mixture */
		goto done;
	sf_fitfile_member_columns(e, f, tcol, ftcol);
	sf_fitfile_member_columns(e, f, columns, fcol);
	for (size_t j = 0; j < J; j++) {
		target[j] = *ftcol[j];
		ftcol[j] = &target[j];
	}
	rc = sf_next_run(f, target, fcol, n, INFINITY, 1, &m->own, err);
	if (rc == SF_OK)
		rc = sf_predict(f, ftcol, 1, &pt, err);
	if (rc == SF_OK)
		rc = sf_predict(f, fcol, n, &pc, err);
	if (rc == SF_OK) {
		shapes_of(f, pc, m->at);
		sf_separate_pulls(f, target, pt, pc, m->at, m->pull, m->lean);
	} else if (rc != SF_ENOMEM) {
		char why[sizeof err->message];

		snprintf(why, sizeof why, "%s", err->message);
		rc = sf_error_set(err, rc,
		                  "the ensemble's formula '%s' (%s): %s",
		                  f->name, f->path, why);
	}
done:
	sf_prediction_free(pt);
	sf_prediction_free(pc);
	free(ftcol);
	free(fcol);
	free(target);
	return rc;
}

/* The entropy of weights w[0..k), nats. */
static double
entropy(const double *w, size_t k)
{
	double h = 0;

	for (size_t i = 0; i < k; i++)
		if (w[i] > 0)
			h -= w[i] * log(w[i]);
	return h;
}

/* The weights after a run at candidate q returned y: each formula's today
 * times its density of y there.  0 when no formula gives y a density. */
static int
weights_given(const study *s, size_t q, double y)
{
	for (size_t i = 0; i < s->k; i++) {
		const sf_interval_t *t = &s->m[i].at[q];

		s->w[i] = s->m[i].w > 0
		              ? s->m[i].w *
		                    gsl_ran_tdist_pdf(
		                        (y - t->centre) / t->scale, t->dof) /
		                    t->scale
		              : 0;
	}
	return sf_ensemble_normalise(s->w, s->k);
}

/* A gain of nothing known. */
static sf_design_gain
no_gain(void)
{
	return (sf_design_gain){
	    .mean_var = NAN,
	    .distance = NAN,
	    .lo = NAN,
	    .hi = NAN,
	    .halfwidth_pct = NAN,
	    .d_gain = NAN,
	    .formula_info = NAN,
	    .shape = {NAN, NAN, NAN, NAN},
	};
}

/* Each formula's distribution at the target after a run at candidate q
 * returned y (NaN: not known): its own design's, whose centre carries the
 * model error's bias from the run on, moved by the bias up to the run and
 * pulled toward the run's surprise y - its centre there: averaged over
 * the formula's own results, today's centre. */
static void
after_run(const study *s, size_t q, double y)
{
	for (size_t i = 0; i < s->k; i++) {
		const member *m = &s->m[i];

		if (!(m->w > 0)) {
			s->after[i] = no_gain().shape;
			continue;
		}
		s->after[i] = m->own->gains[q].shape;
		s->after[i].centre += m->lean[q];
		if (isfinite(y))
			s->after[i].centre +=
			    m->pull[q] * (y - m->at[q].centre);
	}
}

/*
 * The target's interval expected after a run at candidate q (separate.h):
 * over each formula's distribution of the run's result, cut into
 * SF_SEPARATE_NODES equally likely slices taken at their middle
 * quantiles, the mixture of the formulas' distributions at the target
 * after the run with the weights the result leaves; its bounds relative
 * to its point (ratios with multiplicative errors, differences without)
 * averaged and placed about today's point, as one formula's design places
 * the interval after a run about today's prediction.  Where a formula
 * has no distribution at q, the run tells them nothing apart.
 */
static void
expected_after(const study *s, size_t q, sf_design_gain *g)
{
	const int mult = s->e->interval.multiplicative;
	const double t0 = s->target_time;
	double lo = 0, hi = 0, h = 0, total = 0, point, l, u;
	int apart = 1;

	for (size_t i = 0; i < s->k; i++)
		apart &= s->m[i].w == 0 || drawable(&s->m[i].at[q]);
	for (size_t j = 0; apart && j < s->k; j++) {
		const sf_interval_t *t = &s->m[j].at[q];

		for (int node = 0; s->m[j].w > 0 && node < SF_SEPARATE_NODES;
		     node++) {
			double y =
			    t->centre +
			    t->scale *
			        gsl_cdf_tdist_Pinv(
			            (node + 0.5) / SF_SEPARATE_NODES, t->dof);

			after_run(s, q, y);
			if (!weights_given(s, q, y) ||
			    !sf_ensemble_mix(s->w, s->after, s->k, mult, &point,
			                     &l, &u))
				continue;
			lo += s->m[j].w * (mult ? l / point : l - point);
			hi += s->m[j].w * (mult ? u / point : u - point);
			h += s->m[j].w * entropy(s->w, s->k);
			total += s->m[j].w;
		}
	}
	if (total > 0) {
		lo /= total;
		hi /= total;
		g->formula_info = s->prior_entropy - h / total;
	} else {
		after_run(s, q, NAN);
		for (size_t i = 0; i < s->k; i++)
			s->w[i] = s->m[i].w;
		if (sf_ensemble_mix(s->w, s->after, s->k, mult, &point, &l,
		                    &u)) {
			lo = mult ? l / point : l - point;
			hi = mult ? u / point : u - point;
		} else
			lo = hi = NAN;
		g->formula_info = NAN;
	}
	g->lo = mult ? t0 * lo : t0 + lo;
	g->hi = mult ? t0 * hi : t0 + hi;
	g->halfwidth_pct = 100 * (g->hi - g->lo) / (2 * fabs(t0));
	g->mean_var = NAN;
	g->d_gain = NAN;
	g->shape = no_gain().shape;
	g->distance = s->lead->own->gains[q].distance;
}

/* Candidate q skipped when the mixture's time or cost is not finite or
 * a formula with weight skips it. */
static unsigned char
ensemble_skip(const study *s, const sf_next *x, size_t q)
{
	if (!isfinite(x->time[q]))
		return SF_NEXT_TIME;
	if (!isfinite(x->cost[q]))
		return SF_NEXT_COST;
	for (size_t i = 0; i < s->k; i++)
		if (s->m[i].w > 0 && s->m[i].own->skipped[q] != SF_NEXT_KEPT)
			return s->m[i].own->skipped[q];
	return SF_NEXT_KEPT;
}

/* The answer from the study: the mixture's prediction at the target and
 * the candidates (pt, pc), and each candidate's expectation. */
static void
fill(study *s, const sf_prediction *pt, const sf_prediction *pc,
     const double *const *columns, sf_next *x)
{
	const sf_fitfile *e = s->e;
	double noise = 0, weight = 0;

	x->members = 0;
	for (size_t i = 0; i < s->k; i++)
		if (s->m[i].w > 0) {
			x->members++;
			noise += s->m[i].w * s->m[i].own->noise_pct;
			weight += s->m[i].w;
		}
	x->workers = sf_scale_worker_input(e);
	x->target_time = s->target_time;
	x->now.lo = pt->points[0].pi.lo;
	x->now.hi = pt->points[0].pi.hi;
	x->now.halfwidth_pct =
	    100 * (x->now.hi - x->now.lo) / (2 * fabs(x->target_time));
	x->now.distance = s->lead->own->now.distance;
	x->now.mean_var = x->now.d_gain = NAN;
	x->now.formula_info = 0;
	x->formula_entropy = s->prior_entropy;
	x->now.shape = no_gain().shape;
	sf_next_set_noise(x, weight > 0 ? noise / weight : NAN);
	for (size_t q = 0; q < x->n; q++) {
		for (size_t i = 0; i < e->ninputs; i++)
			x->inputs[i * x->n + q] = columns[i][q];
		sf_next_set_time(x, columns, q, pc->points[q].time);
		x->skipped[q] = ensemble_skip(s, x, q);
		if (x->skipped[q] == SF_NEXT_KEPT)
			expected_after(s, q, &x->gains[q]);
		else
			x->gains[q] = no_gain();
	}
}

int
sf_next_ensemble(const sf_fitfile *e, const double *target,
                 const double *const *columns, size_t n, sf_next **out,
                 sf_error *err)
{
	const size_t J = e->ninputs, k = e->nmembers;
	const double **tcol = calloc(J + 1, sizeof *tcol);
	sf_prediction *pt = NULL, *pc = NULL;
	sf_next *x = NULL;
	study s = {0};
	int rc = SF_OK;

	*out = NULL;
	s.e = e;
	s.k = k;
	s.m = calloc(k + 1, sizeof *s.m);
	s.after = malloc((k + 1) * sizeof *s.after);
	s.w = malloc((k + 1) * sizeof *s.w);
	if (tcol == NULL || s.m == NULL || s.after == NULL || s.w == NULL ||
	    (x = sf_next_alloc(J, n, INFINITY)) == NULL)
		rc = sf_error_set(err, SF_ENOMEM, "out of memory");
	else if (n == 0)
		rc = sf_error_set(err, SF_EVALUE, "no candidate runs");
	for (size_t i = 0; rc == SF_OK && i < J; i++)
		tcol[i] = &target[i];
	for (size_t i = 0; rc == SF_OK && i < k; i++)
		rc = member_open(e, i, tcol, columns, n, &s.m[i], err);
	if (rc == SF_OK && (rc = sf_predict(e, tcol, 1, &pt, err)) == SF_OK)
		rc = sf_predict(e, columns, n, &pc, err);
	if (rc == SF_OK && !isfinite(pt->points[0].time))
		rc = sf_error_set(err, SF_EVALUE,
		                  "the prediction at the target is not finite");
	if (rc == SF_OK) {
		for (size_t i = k; i-- > 0;) {
			s.w[i] = s.m[i].w;
			if (s.w[i] > 0)
				s.lead = &s.m[i];
		}
		if (s.lead == NULL)
			rc = sf_error_set(
			    err, SF_EVALUE,
			    "no formula of the ensemble has weight");
	}
	if (rc == SF_OK) {
		s.prior_entropy = entropy(s.w, k);
		s.target_time = pt->points[0].time;
		fill(&s, pt, pc, columns, x);
		if (sf_next_rank(x) != SF_OK)
			rc = sf_error_set(err, SF_ENOMEM, "out of memory");
	}
	if (rc == SF_OK) {
		*out = x;
		x = NULL;
	}
	sf_prediction_free(pt);
	sf_prediction_free(pc);
	sf_next_free(x);
	members_free(s.m, k);
	free(s.after);
	free(s.w);
	free(tcol);
	return rc;
}
