/*
 * design.c - which run to measure next (design.h).
 */
#include "use/design.h"
#include "use/json.h"
#include "use/predict.h"
#include "use/report.h"
#include "use/scale.h"

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

/* A parameter held at a bound has no covariance (a NaN row of the P x P
 * cov): the run cannot move it. */
static int
free_in(const double *cov, size_t P, size_t j)
{
	return !isnan(cov[j * P + j]);
}

static int
active(const sf_design_fit *f, const state *s, size_t j)
{
	return free_in(s->cov, f->nparams, j);
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

/*
 * The target's interval with the range [lo, hi] and mean variance v.  A
 * range moved up along an input whose model error carries a slope
 * (interval.h) starts there at the error per doubling the slope has
 * reached, not at the fitted top's (sf_interval_along_moved).
 */
static void
target_interval(const sf_design_fit *f, const double *lo, const double *hi,
                const sf_design_point *t, double v, sf_design_gain *g)
{
	sf_interval_model moved = *f->error;
	sf_interval_beyond b;

	for (size_t i = 0; i < f->ninputs && i < SF_INTERVAL_INPUTS; i++)
		if (hi[i] > f->hi[i])
			sf_interval_along_moved(
			    &moved.along[i],
			    sf_interval_doublings(f->lo[i], f->hi[i], hi[i]));
	b = sf_interval_beyond_at(&moved, f->ninputs, lo, hi, f->numeric, t->x);
	g->mean_var = v;
	g->distance = sqrt(b.distance2);
	sf_interval_at(&moved, t->time, v, &b, &g->lo, &g->hi);
	g->halfwidth_pct = 100 * (g->hi - g->lo) / (2 * fabs(t->time));
	sf_interval_shape(&moved, t->time, v, &b, &g->shape);
}

/* The variance of a run at candidate c: the fit's noise, above the fitted
 * range its top level's (interval.h). */
static double
noise_at(const sf_design_fit *f, const sf_design_point *c)
{
	const sf_interval_beyond b = sf_interval_beyond_at(
	    f->error, f->ninputs, f->lo, f->hi, f->numeric, c->x);
	const double sigma = sf_interval_noise(f->error, &b);

	return sigma * sigma;
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
	const double k = loss_scale(f, c), s2 = noise_at(f, c);
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
	g->formula_info = NAN;
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
	target_interval(f, s->lo2, s->hi2, t, vt, g);
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
	target_interval(fit, s.lo, s.hi, target,
	                dot(fit, &s, target->grad, s.a), now);
	now->d_gain = 0;
	now->formula_info = NAN;
	for (size_t i = 0; i < n; i++)
		measure(fit, &s, target, &cand[i], 0, &gains[i]);
	state_free(&s);
	return SF_OK;
}

size_t
sf_design_plan(const sf_design_fit *fit, const sf_design_point *target,
               const sf_design_point *cand, size_t n, double budget,
               size_t max_runs, double min_narrowing, size_t *order,
               sf_design_gain *after, int *small)
{
	unsigned char *used = calloc(n + 1, 1);
	sf_design_gain here, g;
	size_t runs = 0;
	state s;

	if (small != NULL)
		*small = 0;
	if (used == NULL || state_init(&s, fit) != SF_OK) {
		free(used);
		return (size_t)-1;
	}
	cov_times(fit, &s, target->grad, s.a);
	target_interval(fit, s.lo, s.hi, target,
	                dot(fit, &s, target->grad, s.a), &here);
	while (runs < max_runs) {
		size_t best = n, affordable = 0;
		double best_rate = -INFINITY;

		for (size_t i = 0; i < n; i++) {
			double rate, narrowing;

			if (used[i] || !(cand[i].cost <= budget))
				continue;
			affordable++;
			measure(fit, &s, target, &cand[i], 0, &g);
			narrowing = here.halfwidth_pct - g.halfwidth_pct;
			if (min_narrowing > 0 &&
			    !(narrowing >= min_narrowing * here.halfwidth_pct))
				continue;
			rate =
			    narrowing / (cand[i].cost > 0 ? cand[i].cost : 1);
			/* ties to the earlier candidate: deterministic */
			if (rate > best_rate) {
				best_rate = rate;
				best = i;
			}
		}
		if (best == n) {
			if (small != NULL)
				*small = affordable > 0;
			break;
		}
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

double
sf_design_mean_cov(const sf_fitfile *f, const double *u, size_t su,
                   const double *v, size_t sv)
{
	const size_t P = f->nparams;
	double sum = 0;

	for (size_t i = 0; f->cov != NULL && i < P; i++) {
		if (!free_in(f->cov, P, i) || !isfinite(u[i * su]))
			continue;
		for (size_t j = 0; j < P; j++)
			if (free_in(f->cov, P, j) && isfinite(v[j * sv]))
				sum +=
				    u[i * su] * f->cov[i * P + j] * v[j * sv];
	}
	return sum;
}

void
sf_next_free(sf_next *x)
{
	if (x == NULL)
		return;
	free(x->inputs);
	free(x->skipped);
	free(x->time);
	free(x->cost);
	free(x->gains);
	free(x->rank);
	free(x->plan);
	free(x->after);
	free(x);
}

/* A candidate's sort key: what ranks it, and its index for ties. */
typedef struct rank_key {
	double width, cost;
	size_t index;
} rank_key;

/* -1, 0 or 1 as a ranks before, with, or after b, where a NaN comes
 * last. */
static int
compare_nan_last(double a, double b)
{
	if (isnan(a) || isnan(b))
		return isnan(a) - isnan(b);
	return (a > b) - (a < b);
}

/* qsort's order of candidates: a narrower interval, then cheaper, then
 * earlier (NaN widths and costs last).  A total order, so the ranking is
 * the same whatever the sort. */
static int
ranks_before(const void *va, const void *vb)
{
	const rank_key *a = va, *b = vb;
	int c = compare_nan_last(a->width, b->width);

	if (c == 0)
		c = compare_nan_last(a->cost, b->cost);
	return c != 0 ? c : (a->index > b->index) - (a->index < b->index);
}

/* The candidates ranked: qsort on their keys, O(n log n) (an insertion
 * sort took 38 s for 200,000 candidates). */
int
sf_next_rank(sf_next *x)
{
	rank_key *keys = malloc((x->n + 1) * sizeof *keys);

	if (keys == NULL)
		return SF_ENOMEM;
	x->nranked = 0;
	for (size_t k = 0; k < x->n; k++)
		if (x->skipped[k] == SF_NEXT_KEPT)
			keys[x->nranked++] = (rank_key){
			    x->gains[k].halfwidth_pct, x->cost[k], k};
	qsort(keys, x->nranked, sizeof *keys, ranks_before);
	for (size_t k = 0; k < x->nranked; k++)
		x->rank[k] = keys[k].index;
	free(keys);
	return SF_OK;
}

void
sf_next_set_time(sf_next *x, const double *const *columns, size_t k,
                 double time)
{
	x->time[k] = time;
	x->cost[k] =
	    time * (x->workers != SF_FITFILE_NONE ? columns[x->workers][k] : 1);
}

void
sf_next_set_noise(sf_next *x, double noise_pct)
{
	double ratio = noise_pct / x->now.halfwidth_pct;

	x->noise_pct = noise_pct;
	x->noise_share = isfinite(ratio) ? ratio * ratio : NAN;
}

sf_next *
sf_next_alloc(size_t J, size_t n, double budget)
{
	sf_next *x = calloc(1, sizeof *x);

	if (x == NULL)
		return NULL;
	x->n = n;
	x->ninputs = J;
	x->budget = budget;
	x->inputs = malloc((J * n + 1) * sizeof *x->inputs);
	x->skipped = calloc(n + 1, 1);
	x->time = malloc((n + 1) * sizeof *x->time);
	x->cost = malloc((n + 1) * sizeof *x->cost);
	x->gains = malloc((n + 1) * sizeof *x->gains);
	x->rank = malloc((n + 1) * sizeof *x->rank);
	x->plan = malloc((n + 1) * sizeof *x->plan);
	x->after = malloc((n + 1) * sizeof *x->after);
	if (x->inputs == NULL || x->skipped == NULL || x->time == NULL ||
	    x->cost == NULL || x->gains == NULL || x->rank == NULL ||
	    x->plan == NULL || x->after == NULL) {
		sf_next_free(x);
		return NULL;
	}
	return x;
}

/* What the design reads besides the answer: the fit's view (fitted
 * ranges, which inputs are numbers), the target and the candidates as
 * points with their gradients. */
typedef struct next_work {
	const double **tcol; /* the target's inputs as columns of one */
	double *tgrad, *cgrad;
	double *lo, *hi;
	unsigned char *numeric;
	sf_design_point *cp;
	double *rows; /* each candidate's inputs as one row */
	sf_design_fit df;
	sf_design_point tp;
} next_work;

static void
next_work_free(next_work *w)
{
	free(w->tcol);
	free(w->tgrad);
	free(w->cgrad);
	free(w->lo);
	free(w->hi);
	free(w->numeric);
	free(w->cp);
	free(w->rows);
}

/* w's arrays for n candidates of f (w zeroed by the caller): 1, or 0 when
 * out of memory (free with next_work_free() either way). */
static int
next_work_alloc(next_work *w, const sf_fitfile *f, size_t n)
{
	const size_t J = f->ninputs, P = f->nparams;

	w->tcol = calloc(J + 1, sizeof *w->tcol);
	w->tgrad = malloc((P + 1) * sizeof *w->tgrad);
	w->cgrad = malloc((P * n + 1) * sizeof *w->cgrad);
	w->lo = malloc((J + 1) * sizeof *w->lo);
	w->hi = malloc((J + 1) * sizeof *w->hi);
	w->numeric = malloc(J + 1);
	w->cp = calloc(n, sizeof *w->cp);
	w->rows = malloc((J * n + 1) * sizeof *w->rows);
	return w->tcol != NULL && w->tgrad != NULL && w->cgrad != NULL &&
	       w->lo != NULL && w->hi != NULL && w->numeric != NULL &&
	       w->cp != NULL && w->rows != NULL;
}

/* The linearised fit: f's covariance, error model and fitted ranges. */
static void
describe_fit(const sf_fitfile *f, next_work *w)
{
	for (size_t i = 0; i < f->ninputs; i++) {
		w->lo[i] = f->inputs[i].lo;
		w->hi[i] = f->inputs[i].hi;
		w->numeric[i] = f->inputs[i].levels == NULL;
	}
	w->df.nparams = f->nparams;
	w->df.cov = f->cov;
	w->df.ninputs = f->ninputs;
	w->df.lo = w->lo;
	w->df.hi = w->hi;
	w->df.numeric = w->numeric;
	w->df.error = &f->interval;
}

/* The target as a design point: its prediction pt and gradient. */
static void
describe_target(const sf_fitfile *f, const double *target,
                const sf_prediction *pt, next_work *w)
{
	for (size_t j = 0; j < f->nparams; j++)
		w->tgrad[j] = pt->gradient[j];
	w->tp.x = target;
	w->tp.time = pt->points[0].time;
	w->tp.grad = w->tgrad;
	w->tp.cost = 0;
}

/* Why a candidate of time t, cost c and gradient g (f->nparams) is
 * skipped, or SF_NEXT_KEPT; a constant held at a bound (no covariance)
 * does not count. */
static unsigned char
skip_reason(const sf_fitfile *f, double t, double c, const double *g)
{
	const size_t P = f->nparams;

	if (!isfinite(t))
		return SF_NEXT_TIME;
	if (!isfinite(c))
		return SF_NEXT_COST;
	for (size_t j = 0; j < P; j++)
		if (!isfinite(g[j]) && !isnan(f->cov[j * P + j]))
			return SF_NEXT_GRADIENT;
	return SF_NEXT_KEPT;
}

/* The candidates as design points: their predictions pc, gradients, and
 * costs (time times workers, when there is a worker input). */
static void
describe_candidates(const sf_fitfile *f, const double *const *columns,
                    const sf_prediction *pc, sf_next *x, next_work *w)
{
	const size_t J = f->ninputs, P = f->nparams, n = x->n;

	for (size_t k = 0; k < n; k++) {
		double *g = &w->cgrad[k * P];

		for (size_t j = 0; j < P; j++)
			g[j] = pc->gradient[j * n + k];
		sf_next_set_time(x, columns, k, pc->points[k].time);
		for (size_t i = 0; i < J; i++)
			w->rows[k * J + i] = columns[i][k];
		w->cp[k].x = &w->rows[k * J];
		w->cp[k].time = x->time[k];
		w->cp[k].grad = g;
		w->cp[k].cost = x->cost[k];
		x->skipped[k] = skip_reason(f, x->time[k], x->cost[k], g);
		/* a cost that is no number: never planned */
		if (x->skipped[k] != SF_NEXT_KEPT)
			w->cp[k].cost = NAN;
	}
}

/* The target's interval of noise alone (a new run's there: above the
 * range the top level's), and its share of today's. */
static void
noise_floor(const next_work *w, sf_next *x)
{
	const sf_interval_beyond b =
	    sf_interval_beyond_at(w->df.error, w->df.ninputs, w->df.lo,
	                          w->df.hi, w->df.numeric, w->tp.x);
	const sf_interval_beyond noise = {0, 0, 0, 0, b.noise, b.noise_dof, 0};
	double lo, hi;

	sf_interval_at(w->df.error, w->tp.time, 0, &noise, &lo, &hi);
	sf_next_set_noise(x, 100 * (hi - lo) / (2 * fabs(w->tp.time)));
}

int
sf_next_run(const sf_fitfile *f, const double *target,
            const double *const *columns, size_t n, double budget,
            size_t max_runs, sf_next **out, sf_error *err)
{
	const size_t J = f->ninputs;
	next_work w = {0};
	sf_prediction *pt = NULL, *pc = NULL;
	sf_next *x = NULL;
	int rc = SF_ENOMEM;

	*out = NULL;
	if (!f->has_interval) {
		char why[160];

		return sf_error_set(err, SF_EVALUE,
		                    "the fit file has no error model for next "
		                    "to narrow: %s",
		                    sf_fitfile_no_interval(f, why, sizeof why));
	}
	if (f->cov == NULL)
		return sf_error_set(err, SF_EVALUE,
		                    "the fit file has no covariance: a run's "
		                    "information cannot be weighed");
	if (n == 0)
		return sf_error_set(err, SF_EVALUE, "no candidate runs");
	if (!next_work_alloc(&w, f, n) ||
	    (x = sf_next_alloc(J, n, budget)) == NULL)
		goto oom;
	for (size_t i = 0; i < J; i++) {
		w.tcol[i] = &target[i];
		memcpy(&x->inputs[i * n], columns[i], n * sizeof *x->inputs);
	}
	if ((rc = sf_predict(f, w.tcol, 1, &pt, err)) != SF_OK ||
	    (rc = sf_predict(f, columns, n, &pc, err)) != SF_OK)
		goto done;
	x->workers = sf_scale_worker_input(f);
	x->target_time = pt->points[0].time;
	describe_fit(f, &w);
	describe_target(f, target, pt, &w);
	describe_candidates(f, columns, pc, x, &w);
	if ((rc = sf_design_rank(&w.df, &w.tp, w.cp, n, &x->now, x->gains,
	                         err)) != SF_OK)
		goto done;
	if ((x->nplan = sf_design_plan(
	         &w.df, &w.tp, w.cp, n, budget, max_runs,
	         isfinite(budget) ? SF_DESIGN_MIN_NARROWING : 0, x->plan,
	         x->after, &x->plan_small)) == (size_t)-1)
		goto oom;
	noise_floor(&w, x);
	if (sf_next_rank(x) != SF_OK)
		goto oom;
	*out = x;
	x = NULL;
	rc = SF_OK;
	goto done;
oom:
	rc = sf_error_set(err, SF_ENOMEM, "out of memory");
done:
	sf_prediction_free(pt);
	sf_prediction_free(pc);
	sf_next_free(x);
	next_work_free(&w);
	return rc;
}

int
sf_next_all_noise(const sf_next *x)
{
	return x->noise_share >= SF_DESIGN_NOISE_SHARE;
}

/* One point's inputs as a JSON object (a text input by its value). */
static json_t *
inputs_json(const sf_fitfile *f, const double *in, size_t n, size_t k, int *ok)
{
	json_t *o = json_object();

	if (o == NULL) {
		*ok = 0;
		return NULL;
	}
	for (size_t i = 0; i < f->ninputs; i++) {
		const sf_fitfile_input *fi = &f->inputs[i];
		double v = in[i * n + k];

		if (fi->levels != NULL && v >= 0 && v < (double)fi->nlevels)
			sf_json_put(o, fi->name,
			            json_string(fi->levels[(size_t)v]), ok);
		else
			sf_json_put(o, fi->name, sf_json_number(v), ok);
	}
	return o;
}

static json_t *
gain_json(const sf_design_gain *g, int *ok)
{
	json_t *o = json_object();

	if (o == NULL) {
		*ok = 0;
		return NULL;
	}
	sf_json_put(o, "interval95", sf_json_pair(g->lo, g->hi), ok);
	sf_json_put(o, "halfwidth_pct", sf_json_number(g->halfwidth_pct), ok);
	sf_json_put(o, "distance", sf_json_number(g->distance), ok);
	sf_json_put(o, "mean_sd", sf_json_number(sqrt(g->mean_var)), ok);
	return o;
}

json_t *
sf_next_json(const sf_fitfile *f, const sf_next *x, size_t top)
{
	json_t *root = json_object(), *now, *list, *plan;
	int ok = 1;

	if (root == NULL)
		return NULL;
	now = gain_json(&x->now, &ok);
	if (now != NULL)
		sf_json_put(now, "time", sf_json_number(x->target_time), &ok);
	sf_json_put(root, "scalefit_version", json_string(PACKAGE_VERSION),
	            &ok);
	sf_json_put(root, "fit", json_string(f->path), &ok);
	if (x->members > 0) {
		sf_json_put(root, "members",
		            json_integer((json_int_t)x->members), &ok);
		sf_json_put(root, "formula_entropy",
		            sf_json_number(x->formula_entropy), &ok);
	}
	sf_json_put(root, "target", now, &ok);
	sf_json_put(root, "workers",
	            x->workers != SF_FITFILE_NONE
	                ? json_string(f->inputs[x->workers].name)
	                : json_null(),
	            &ok);
	list = json_array();
	for (size_t r = 0; list != NULL && r < x->nranked && r < top; r++) {
		size_t k = x->rank[r];
		json_t *c = gain_json(&x->gains[k], &ok);

		if (c == NULL)
			continue;
		sf_json_put(c, "rank", json_integer((json_int_t)(r + 1)), &ok);
		sf_json_put(c, "inputs",
		            inputs_json(f, x->inputs, x->n, k, &ok), &ok);
		sf_json_put(c, "time", sf_json_number(x->time[k]), &ok);
		sf_json_put(c, "cost", sf_json_number(x->cost[k]), &ok);
		sf_json_put(c, "d_gain", sf_json_number(x->gains[k].d_gain),
		            &ok);
		if (x->members > 0)
			sf_json_put(c, "formula_information",
			            sf_json_number(x->gains[k].formula_info),
			            &ok);
		if (json_array_append_new(list, c) != 0)
			ok = 0;
	}
	sf_json_put(root, "candidates", list, &ok);
	plan = json_array();
	for (size_t r = 0; plan != NULL && r < x->nplan; r++) {
		size_t k = x->plan[r];
		json_t *c = gain_json(&x->after[r], &ok);

		if (c == NULL)
			continue;
		sf_json_put(c, "inputs",
		            inputs_json(f, x->inputs, x->n, k, &ok), &ok);
		sf_json_put(c, "cost", sf_json_number(x->cost[k]), &ok);
		if (json_array_append_new(plan, c) != 0)
			ok = 0;
	}
	sf_json_put(root, "plan", plan, &ok);
	sf_json_put(
	    root, "budget",
	    isfinite(x->budget) ? sf_json_number(x->budget) : json_null(), &ok);
	/* Only when they speak: other documents are as they were. */
	if (sf_next_all_noise(x)) {
		sf_json_put(root, "noise_halfwidth_pct",
		            sf_json_number(x->noise_pct), &ok);
		sf_json_put(root, "noise_share", sf_json_number(x->noise_share),
		            &ok);
	}
	if (isfinite(x->budget))
		sf_json_put(root, "min_narrowing_pct",
		            sf_json_number(100 * SF_DESIGN_MIN_NARROWING), &ok);
	if (x->plan_small)
		sf_json_put(root, "plan_stopped_small", json_true(), &ok);
	return sf_json_done(root, ok);
}
