/*
 * sweep.c - sweeps along one input, and the answers read from them.
 */
#include "use/sweep.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Bisection steps refining a crossover between two grid points: enough
 * for the last bit of a double whatever the grid's spacing. */
enum { CROSSOVER_STEPS = 64 };

/* Default points of a real or large integer linear sweep. */
enum { DEFAULT_POINTS = 11, ALL_WHOLE_MAX = 17, NICE_MAX = 25 };

int
sf_sweep_is_log(double lo, double hi, sf_sweep_spacing s)
{
	if (s == SF_SWEEP_LOG)
		return 1;
	if (s == SF_SWEEP_LINEAR)
		return 0;
	return lo > 0 && hi >= 10 * lo;
}

/* A growing list of increasing values that drops near repeats. */
typedef struct values {
	double *v;
	size_t n, size;
	int failed;
} values;

static void
push(values *l, double x)
{
	if (l->n > 0 && fabs(x - l->v[l->n - 1]) <=
	                    1e-9 * fmax(fabs(x), fabs(l->v[l->n - 1])))
		return;
	if (l->n == l->size) {
		size_t size = l->size * 2 + 16;
		double *grown = realloc(l->v, size * sizeof *grown);

		if (grown == NULL) {
			l->failed = 1;
			return;
		}
		l->v = grown;
		l->size = size;
	}
	l->v[l->n++] = x;
}

/* `points` points spaced evenly (in log when log), rounded if integer. */
static void
spaced(values *l, double lo, double hi, int integer, int log, size_t points)
{
	for (size_t k = 0; k < points; k++) {
		double t = points > 1 ? (double)k / (double)(points - 1) : 0;
		double x = log ? lo * pow(hi / lo, t) : lo + (hi - lo) * t;

		if (k + 1 == points)
			x = hi;
		push(l, integer ? nearbyint(x) : x);
	}
}

/* The 1, 2, 5 x 10^k values strictly between lo and hi (or the decades
 * only), for a real log sweep. */
static void
nice(values *l, double lo, double hi, int decades_only)
{
	static const double steps[] = {1, 2, 5};
	int first = (int)floor(log10(lo)), last = (int)ceil(log10(hi));

	for (int d = first; d <= last; d++)
		for (size_t m = 0; m < (decades_only ? 1u : 3u); m++) {
			double x = steps[m] * pow(10, d);

			if (x > lo * (1 + 1e-9) && x < hi * (1 - 1e-9))
				push(l, x);
		}
}

int
sf_sweep_values(double lo, double hi, int integer, int log, size_t points,
                double **out, size_t *n, sf_error *err)
{
	values l = {NULL, 0, 0, 0};

	*out = NULL;
	*n = 0;
	if (!isfinite(lo) || !isfinite(hi) || lo > hi)
		return sf_error_set(err, SF_EVALUE, "the range %g:%g is empty",
		                    lo, hi);
	if (log && !(lo > 0))
		return sf_error_set(err, SF_EVALUE,
		                    "a log-spaced range must start above 0, "
		                    "not at %g",
		                    lo);
	if (integer && (lo != floor(lo) || hi != floor(hi)))
		return sf_error_set(err, SF_EVALUE,
		                    "the range %g:%g should be whole numbers",
		                    lo, hi);
	if (lo == hi) {
		push(&l, lo);
	} else if (points > 0) {
		spaced(&l, lo, hi, integer, log, points);
	} else if (integer == SF_SWEEP_POW2 && log) {
		push(&l, lo);
		for (double x = 1; x < hi; x *= 2)
			if (x > lo)
				push(&l, x);
		push(&l, hi);
	} else if (integer && hi - lo + 1 <= ALL_WHOLE_MAX) {
		for (double x = lo; x <= hi; x++)
			push(&l, x);
	} else if (log) {
		push(&l, lo);
		nice(&l, lo, hi, 0);
		if (l.n > NICE_MAX) {
			l.n = 1;
			nice(&l, lo, hi, 1);
		}
		push(&l, hi);
	} else {
		spaced(&l, lo, hi, integer, 0, DEFAULT_POINTS);
	}
	if (l.failed) {
		free(l.v);
		return sf_error_set(err, SF_ENOMEM, "out of memory");
	}
	*out = l.v;
	*n = l.n;
	return SF_OK;
}

void
sf_sweep_free(sf_sweep *w)
{
	if (w == NULL)
		return;
	free(w->x);
	sf_prediction_free(w->pred);
	free(w->speedup);
	free(w->efficiency);
	free(w->cost);
	free(w->throughput);
	free(w->share);
	free(w->rest);
	free(w->kind);
	free(w);
}

int
sf_sweep_rest_matters(const sf_sweep *w)
{
	for (size_t k = 0; k < w->n; k++)
		if (fabs(w->rest[k]) > SF_SWEEP_REST_NEGLIGIBLE)
			return 1;
	return 0;
}

static int
has_price(const sf_sweep_settings *s)
{
	return s->price > 0 && s->worker_input != SF_FITFILE_NONE;
}

/* The value of input i at swept value x. */
static double
value_of(const sf_sweep_settings *s, size_t i, double x)
{
	return i == s->var ? x : s->base[i];
}

/* The samples the time is for (see throughput at the top of sweep.h). */
static double
samples(const sf_sweep_settings *s, double x)
{
	if (s->samples_input != SF_FITFILE_NONE)
		return value_of(s, s->samples_input, x);
	return x * (s->worker_input != SF_FITFILE_NONE
	                ? value_of(s, s->worker_input, x)
	                : 1);
}

/* The derived columns, once the predictions exist. */
static void
derive(const sf_fitfile *f, const sf_sweep_settings *s, sf_sweep *w)
{
	const sf_prediction *p = w->pred;
	size_t n = w->n;

	for (size_t k = 0; k < n; k++) {
		double t = p->points[k].time;

		if (w->speedup != NULL) {
			w->speedup[k] = p->points[0].time / t;
			w->efficiency[k] = w->speedup[k] * w->x[0] / w->x[k];
		}
		if (w->throughput != NULL)
			w->throughput[k] = samples(s, w->x[k]) /
			                   (t * s->hours_per_unit * 3600);
		if (w->cost != NULL) {
			double workers = s->worker_input == s->var
			                     ? w->x[k]
			                     : s->base[s->worker_input];
			w->cost[k] = s->price * workers * t * s->hours_per_unit;
		}
		/* Shares of a time that is not the sum of its terms would
		 * be numbers without a meaning (6085% for a step count). */
		w->rest[k] = f->terms_sum ? 1 : NAN;
		for (size_t j = 0; j < f->nterms; j++) {
			double term = p->terms[j * n + k];

			w->share[j * n + k] = NAN;
			if (f->terms[j].component && f->terms_sum) {
				w->share[j * n + k] = term / t;
				w->rest[k] -= term / t;
			}
			if (f->terms[j].counts_for_kind)
				w->kind[f->terms[j].kind * n + k] += term;
		}
	}
}

int
sf_sweep_run(const sf_fitfile *f, const sf_sweep_settings *s, const double *x,
             size_t n, sf_sweep **out, sf_error *err)
{
	size_t ni = f->ninputs;
	double *data = malloc((ni * n + 1) * sizeof *data);
	const double **columns = calloc(ni + 1, sizeof *columns);
	sf_sweep *w = calloc(1, sizeof *w);
	int rc = SF_ENOMEM;

	*out = NULL;
	if (data == NULL || columns == NULL || w == NULL)
		goto fail;
	w->n = n;
	w->x = malloc((n + 1) * sizeof *w->x);
	w->share = malloc((f->nterms * n + 1) * sizeof *w->share);
	w->rest = malloc((n + 1) * sizeof *w->rest);
	w->kind = calloc(SF_SWEEP_KINDS * n + 1, sizeof *w->kind);
	if (w->x == NULL || w->share == NULL || w->rest == NULL ||
	    w->kind == NULL)
		goto fail;
	if (s->workers &&
	    ((w->speedup = malloc((n + 1) * sizeof *w->speedup)) == NULL ||
	     (w->efficiency = malloc((n + 1) * sizeof *w->efficiency)) == NULL))
		goto fail;
	if (has_price(s) &&
	    (w->cost = malloc((n + 1) * sizeof *w->cost)) == NULL)
		goto fail;
	if (s->throughput &&
	    (w->throughput = malloc((n + 1) * sizeof *w->throughput)) == NULL)
		goto fail;
	memcpy(w->x, x, n * sizeof *x);
	for (size_t i = 0; i < ni; i++) {
		for (size_t k = 0; k < n; k++)
			data[i * n + k] = i == s->var ? x[k] : s->base[i];
		columns[i] = &data[i * n];
	}
	if ((rc = sf_predict(f, columns, n, &w->pred, err)) != SF_OK)
		goto done;
	derive(f, s, w);
	*out = w;
	w = NULL;
	rc = SF_OK;
	goto done;
fail:
	sf_error_set(err, SF_ENOMEM, "out of memory");
done:
	sf_sweep_free(w);
	free(data);
	free(columns);
	return rc;
}

/* communication - compute at one value x, by a one-point sweep. */
static int
lead_at(const sf_fitfile *f, const sf_sweep_settings *s, double x, double *lead,
        sf_error *err)
{
	sf_sweep *w;
	int rc = sf_sweep_run(f, s, &x, 1, &w, err);

	if (rc != SF_OK)
		return rc;
	*lead = w->kind[SF_TERM_COMMUNICATION] - w->kind[SF_TERM_COMPUTE];
	sf_sweep_free(w);
	return SF_OK;
}

/* Where the leader of communication and compute changes, on the grid of
 * w, refined between grid points for a real variable. */
static int
crossover(const sf_fitfile *f, const sf_sweep_settings *s, const sf_sweep *w,
          sf_sweep_answers *a, sf_error *err)
{
	const double *comm = &w->kind[SF_TERM_COMMUNICATION * w->n];
	const double *comp = &w->kind[SF_TERM_COMPUTE * w->n];
	int has_comm = 0, has_comp = 0;
	size_t k;

	for (size_t j = 0; j < f->nterms; j++) {
		has_comm |= f->terms[j].counts_for_kind &&
		            f->terms[j].kind == SF_TERM_COMMUNICATION;
		has_comp |= f->terms[j].counts_for_kind &&
		            f->terms[j].kind == SF_TERM_COMPUTE;
	}
	a->crossover = SF_SWEEP_CROSS_NONE;
	a->crossover_x = NAN;
	if (!has_comm || !has_comp)
		return SF_OK;
	a->comm_first = comm[0] > comp[0];
	for (k = 1; k < w->n && (comm[k] > comp[k]) == a->comm_first; k++)
		;
	if (k == w->n) {
		a->crossover = SF_SWEEP_CROSS_NEVER;
		return SF_OK;
	}
	a->crossover = SF_SWEEP_CROSS_AT;
	a->crossover_x = w->x[k];
	if (!s->integer && !a->listed) {
		/* The first leader leads at lo, not at hi: bisect. */
		double lo = w->x[k - 1], hi = w->x[k];

		for (int step = 0; step < CROSSOVER_STEPS; step++) {
			double mid =
			    s->log ? sqrt(lo * hi) : lo + (hi - lo) / 2;
			double lead;
			int rc;

			if (mid <= lo || mid >= hi)
				break;
			if ((rc = lead_at(f, s, mid, &lead, err)) != SF_OK)
				return rc;
			if ((lead > 0) == a->comm_first)
				lo = mid;
			else
				hi = mid;
		}
		a->crossover_x = hi;
	}
	return SF_OK;
}

/* The union of the sorted lists a (na) and b (nb), near repeats dropped,
 * into l. */
static void
merge(values *l, const double *a, size_t na, const double *b, size_t nb)
{
	size_t i = 0, j = 0;

	while (i < na || j < nb)
		if (j == nb || (i < na && a[i] <= b[j]))
			push(l, a[i++]);
		else
			push(l, b[j++]);
}

int
sf_sweep_answer_points(const sf_fitfile *f, const sf_sweep_settings *s,
                       double lo, double hi, const double *table, size_t ntable,
                       int listed, sf_sweep_answers *a, sf_error *err)
{
	double *grid = NULL;
	values x = {NULL, 0, 0, 0};
	sf_sweep *w = NULL;
	size_t n = 0, best = 0, cheap = 0;
	int rc;

	memset(a, 0, sizeof *a);
	a->fastest = a->efficient = a->cheapest = NAN;
	a->listed = listed && ntable > 0;
	a->best_x = a->knee = NAN;
	a->on_pow2 = !a->listed && s->pow2 && lo >= 1;
	a->every_whole = !a->listed && !a->on_pow2 && s->integer &&
	                 hi - lo + 1 <= SF_SWEEP_DENSE_MAX;
	if (a->listed)
		rc = SF_OK;
	else if (a->on_pow2)
		rc = sf_sweep_values(lo, hi, SF_SWEEP_POW2, 1, 0, &grid, &n,
		                     err);
	else if (a->every_whole)
		rc = sf_sweep_values(lo, hi, 1, 0, (size_t)(hi - lo + 1), &grid,
		                     &n, err);
	else
		rc = sf_sweep_values(lo, hi, s->integer, s->log,
		                     SF_SWEEP_DENSE_POINTS, &grid, &n, err);
	if (rc != SF_OK)
		return rc;
	/* The table's points are searched too, so an answer never
	 * contradicts a row shown (a grid between them can miss a row's
	 * efficiency of 50.1%); a list is searched alone. */
	merge(&x, grid, n, a->every_whole ? NULL : table,
	      a->every_whole ? 0 : ntable);
	free(grid);
	if (x.failed) {
		free(x.v);
		return sf_error_set(err, SF_ENOMEM, "out of memory");
	}
	n = x.n;
	if ((rc = sf_sweep_run(f, s, x.v, n, &w, err)) != SF_OK) {
		free(x.v);
		return rc;
	}
	a->searched = n;
	for (size_t k = 0; k < n; k++) {
		const sf_predict_point *pt = w->pred->points;

		if (pt[k].time < pt[best].time || isnan(pt[best].time))
			best = k;
		if (w->efficiency != NULL &&
		    w->efficiency[k] >= SF_SWEEP_EFFICIENCY)
			a->efficient = x.v[k];
		if (w->cost != NULL &&
		    (w->cost[k] < w->cost[cheap] || isnan(w->cost[cheap])))
			cheap = k;
	}
	a->fastest = x.v[best];
	a->fastest_time = w->pred->points[best].time;
	a->fastest_band = sf_prediction_band(w->pred, best);
	a->fastest_interval = w->pred->points[best].pi;
	if (w->throughput != NULL) {
		size_t top = 0, knee;

		for (size_t k = 1; k < n; k++)
			if (w->throughput[k] > w->throughput[top] ||
			    isnan(w->throughput[top]))
				top = k;
		for (knee = 0; knee < top; knee++)
			if (w->throughput[knee] >=
			    (1 - SF_SWEEP_KNEE) * w->throughput[top])
				break;
		a->best_x = x.v[top];
		a->best_throughput = w->throughput[top];
		a->knee = x.v[knee];
		a->knee_throughput = w->throughput[knee];
		a->knee_time = w->pred->points[knee].time;
	}
	if (w->cost != NULL) {
		a->cheapest = x.v[cheap];
		a->cheapest_cost = w->cost[cheap];
		a->cheapest_time = w->pred->points[cheap].time;
	}
	rc = crossover(f, s, w, a, err);
	sf_sweep_free(w);
	free(x.v);
	return rc;
}

int
sf_sweep_answer(const sf_fitfile *f, const sf_sweep_settings *s, double lo,
                double hi, sf_sweep_answers *a, sf_error *err)
{
	return sf_sweep_answer_points(f, s, lo, hi, NULL, 0, 0, a, err);
}
