/*
 * cost.c - loss, penalty and their parallel evaluation.
 *
 * The hot path is sf_cost_loss(): the value program is evaluated over
 * chunks of rows into a small per-thread buffer and the loss is summed in
 * row order, so no allocation happens and every thread computes a given
 * candidate's cost with the same operations in the same order.
 */
#include "fit/cost.h"
#include "solve/boxls.h"
#include "solve/loss.h"
#include "base/rng.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#ifdef _OPENMP
#include <omp.h>
#endif

/* Rows evaluated per call of the program: a few register blocks. */
enum { COST_CHUNK = 1024 };

/* One thread's workspace. */
typedef struct cost_slot {
	double *scratch; /* for sf_program_load and _run */
	double *out;     /* COST_CHUNK x outputs */
	/* separable evaluation: residuals, their Jacobian, the solver */
	double *r, *J, *x;
	sf_boxls *ls;
} cost_slot;

struct sf_cost {
	const sf_formula *formula;
	const sf_dataset *data;      /* the rows (their inputs are bound) */
	sf_expr_data *value_data;    /* rows bound to formula->value */
	sf_expr_data *gradient_data; /* rows bound to formula->gradient */
	/* separable: the time and its derivatives by the linear constants
	 * only, all a profile needs (the others' cost the most to run) */
	sf_program *profile;
	sf_expr_data *profile_data;
	const double *y;
	double *w; /* NULL: every weight is 1 */
	double *q; /* sse, relative: the loss is sum q_i (f_i - y_i)^2 */
	size_t n, P;
	sf_cost_settings s;
	const sf_loss_method *loss; /* s.loss's row (solve/loss.h) */
	double *scale;              /* 1 / max(|lower|, |upper|) */
	size_t nlinear;             /* separable: how many, and which */
	size_t *linear;
	double *linear_lo, *linear_hi;
	cost_slot *slots;
	int nslots;
	size_t scratch; /* doubles each slot's scratch holds */
};

static void
slot_free(cost_slot *slot)
{
	free(slot->scratch);
	free(slot->out);
	free(slot->r);
	free(slot->J);
	free(slot->x);
	sf_boxls_free(slot->ls);
}

void
sf_cost_free(sf_cost *c)
{
	if (c == NULL)
		return;
	sf_expr_data_free(c->value_data);
	sf_expr_data_free(c->gradient_data);
	sf_expr_data_free(c->profile_data);
	sf_program_free(c->profile);
	free(c->w);
	free(c->q);
	free(c->scale);
	free(c->linear);
	free(c->linear_lo);
	free(c->linear_hi);
	if (c->slots != NULL)
		for (int t = 0; t < c->nslots; t++)
			slot_free(&c->slots[t]);
	free(c->slots);
	free(c);
}

/* Bind d's rows to program p, as sf_expr_data_new. */
static sf_expr_data *
bind_rows(const sf_program *p, const sf_dataset *d, sf_error *err)
{
	const double **columns = calloc(d->ninputs + 1, sizeof *columns);
	sf_expr_data *data;

	if (columns == NULL) {
		sf_error_set(err, SF_ENOMEM, "out of memory");
		return NULL;
	}
	for (size_t i = 0; i < d->ninputs; i++)
		columns[i] = d->inputs[i].values;
	data = sf_expr_data_new(p, columns, d->rows, err);
	free(columns);
	return data;
}

static int
thread_count(int requested)
{
#ifdef _OPENMP
	int n = requested > 0 ? requested : omp_get_max_threads();

	return n < SF_THREADS_MAX ? n : SF_THREADS_MAX;
#else
	(void)requested;
	return 1;
#endif
}

sf_cost *
sf_cost_alloc(const sf_formula *f, const sf_dataset *d, const double *weights,
              const sf_cost_settings *s, sf_error *err)
{
	size_t scratch, outputs;
	sf_cost *c;

	if (!(s->lambda >= 0) || !isfinite(s->lambda)) {
		sf_error_set(err, SF_EVALUE, "lambda must be finite and >= 0");
		return NULL;
	}
	if (sf_loss_get(s->loss) == NULL) {
		sf_error_set(err, SF_EVALUE, "unknown loss %d", (int)s->loss);
		return NULL;
	}
	if (sf_loss_get(s->loss)->uses_delta && !(s->huber_delta > 0)) {
		sf_error_set(err, SF_EVALUE, "huber_delta must be > 0");
		return NULL;
	}
	if ((c = calloc(1, sizeof *c)) == NULL)
		goto oom;
	c->formula = f;
	c->data = d;
	c->y = d->output;
	c->n = d->rows;
	c->P = f->nparams;
	c->s = *s;
	c->loss = sf_loss_get(s->loss);
	c->nslots = thread_count(s->threads);
	c->scale = calloc(c->P + 1, sizeof *c->scale);
	c->slots = calloc((size_t)c->nslots, sizeof *c->slots);
	if (c->scale == NULL || c->slots == NULL)
		goto oom;
	if ((c->value_data = bind_rows(f->value, d, err)) == NULL ||
	    (c->gradient_data = bind_rows(f->gradient, d, err)) == NULL)
		goto fail;
	if (weights != NULL) {
		if ((c->w = malloc(c->n * sizeof *c->w)) == NULL)
			goto oom;
		memcpy(c->w, weights, c->n * sizeof *c->w);
	}
	/* The quadratic losses in one form, weight and (for relative)
	 * 1 / y^2 folded in, so the hot loop has neither a division nor a
	 * branch. */
	if (c->loss->quadratic != NULL) {
		if ((c->q = malloc((c->n + 1) * sizeof *c->q)) == NULL)
			goto oom;
		for (size_t i = 0; i < c->n; i++)
			c->q[i] = c->loss->quadratic(c->w != NULL ? c->w[i] : 1,
			                             c->y[i]);
	}
	for (size_t j = 0; j < c->P; j++) {
		double m = fmax(fabs(f->lower[j]), fabs(f->upper[j]));
		c->scale[j] = m > 0 ? 1 / m : 1;
	}
	/* Scratch big enough for either program; outputs for the gradient. */
	scratch = sf_program_scratch_size(f->value);
	if (sf_program_scratch_size(f->gradient) > scratch)
		scratch = sf_program_scratch_size(f->gradient);
	outputs = sf_program_outputs(f->gradient);
	c->scratch = scratch;
	for (int t = 0; t < c->nslots; t++) {
		c->slots[t].scratch = malloc((scratch + 1) * sizeof(double));
		c->slots[t].out = malloc(COST_CHUNK * outputs * sizeof(double));
		if (c->slots[t].scratch == NULL || c->slots[t].out == NULL)
			goto oom;
	}
	return c;
oom:
	sf_error_set(err, SF_ENOMEM, "out of memory");
fail:
	sf_cost_free(c);
	return NULL;
}

size_t
sf_cost_rows(const sf_cost *c)
{
	return c->n;
}

size_t
sf_cost_params(const sf_cost *c)
{
	return c->P;
}

int
sf_cost_threads(const sf_cost *c)
{
	return c->nslots;
}

double
sf_cost_loss(const sf_cost *c, const double *theta, int slot)
{
	const cost_slot *ws = &c->slots[slot];
	double sum = 0;

	/* theta's parameter stage (and tables) once, then the chunks */
	sf_program_load(c->formula->value, c->value_data, theta, c->n,
	                ws->scratch);
	for (size_t begin = 0; begin < c->n; begin += COST_CHUNK) {
		size_t end =
		    begin + COST_CHUNK < c->n ? begin + COST_CHUNK : c->n;

		/* sum q_i (f_i - y_i)^2, the predictions never stored, in a
		 * fixed order: every thread computes a candidate's cost to
		 * the same bits */
		if (c->q != NULL)
			sum += sf_program_run_sumsq(c->formula->value,
			                            c->value_data, begin, end,
			                            c->y, c->q, ws->scratch);
		else {
			double (*row)(double, double, double) = c->loss->row;
			double delta = c->s.huber_delta;

			sf_program_run(c->formula->value, c->value_data, begin,
			               end, ws->out, ws->scratch);
			if (c->w == NULL)
				for (size_t i = begin; i < end; i++)
					sum += row(ws->out[i - begin], c->y[i],
					           delta);
			else
				for (size_t i = begin; i < end; i++)
					sum += c->w[i] * row(ws->out[i - begin],
					                     c->y[i], delta);
		}
		/* A lost cause: no need to finish the sum. */
		if (!(sum < INFINITY))
			return INFINITY;
	}
	return sum;
}

double
sf_cost_penalty(const sf_cost *c, const double *theta)
{
	double sum = 0;

	switch (c->s.penalty) {
	case SF_PENALTY_NONE:
		return 0;
	case SF_PENALTY_L2:
		for (size_t j = 0; j < c->P; j++)
			sum +=
			    (theta[j] * c->scale[j]) * (theta[j] * c->scale[j]);
		return sum;
	case SF_PENALTY_L1:
		for (size_t j = 0; j < c->P; j++)
			sum += fabs(theta[j] * c->scale[j]);
		return sum;
	}
	return NAN;
}

double
sf_cost_total(const sf_cost *c, const double *theta, int slot)
{
	double total = sf_cost_loss(c, theta, slot);

	if (c->s.penalty != SF_PENALTY_NONE && c->s.lambda > 0)
		total += c->s.lambda * sf_cost_penalty(c, theta);
	return isfinite(total) ? total : INFINITY;
}

/*
 * Below this many row evaluations a population's costs are computed on one
 * thread.  A parallel region costs microseconds on an idle machine, but a
 * timeslice (milliseconds) at every barrier when another process holds a
 * core; small problems (NIST's 250 rows, 90 candidates) lose more to that
 * than threads gain.  Each candidate's cost is the same either way.
 */
#define COST_PARALLEL_MIN_WORK 250000

void
sf_cost_population(const sf_cost *c, double *candidates, size_t n,
                   double *costs)
{
	const size_t P = c->P;
	long count = (long)n;
	/* A separable candidate also evaluates the solved constants'
	 * derivatives. */
	size_t work = n * c->n * (c->nlinear > 0 ? 1 + c->nlinear : 1);

	(void)work; /* unused without OpenMP */
#ifdef _OPENMP
#pragma omp parallel for num_threads(c->nslots) schedule(                      \
    dynamic, 1) if (c->nslots > 1 &&                                           \
                    (c->s.parallel_always || work >= COST_PARALLEL_MIN_WORK))
#endif
	for (long k = 0; k < count; k++) {
		int slot = 0;
#ifdef _OPENMP
		slot = omp_get_thread_num();
#endif
		costs[k] =
		    c->nlinear > 0
		        ? sf_cost_profile(c, candidates + (size_t)k * P, slot)
		        : sf_cost_total(c, candidates + (size_t)k * P, slot);
	}
}

int
sf_cost_is_least_squares(const sf_cost *c)
{
	return c->loss->residual != NULL &&
	       (c->s.penalty != SF_PENALTY_L1 || c->s.lambda == 0);
}

static int
penalty_rows(const sf_cost *c)
{
	return c->s.penalty == SF_PENALTY_L2 && c->s.lambda > 0;
}

size_t
sf_cost_residual_count(const sf_cost *c)
{
	return c->n + (penalty_rows(c) ? c->P : 0);
}

/*
 * The residuals at theta into r and, when J is not NULL, their derivatives
 * into J (a row of W per residual): prog's output 0 is the time, its
 * output 1 + a the time's derivative by theta_{col(a)}, col(a) = cols[a]
 * (a when cols is NULL).  SF_EVALUE when a residual or a derivative is
 * not finite.
 */
static int
residuals_by(const sf_cost *c, const sf_program *prog, const sf_expr_data *data,
             size_t W, const size_t *cols, const double *theta, double *r,
             double *J, int slot)
{
	const cost_slot *ws = &c->slots[slot];
	const size_t P = c->P;

	/* Row i's residual, and g = dr/df, which turns df/dtheta into the
	 * residual's derivative: dr/dtheta = g df/dtheta. */
	if (c->loss->residual == NULL)
		return SF_EVALUE;
	sf_program_load(prog, data, theta, c->n, ws->scratch);
	for (size_t begin = 0; begin < c->n; begin += COST_CHUNK) {
		size_t end =
		    begin + COST_CHUNK < c->n ? begin + COST_CHUNK : c->n;
		size_t len = end - begin;

		sf_program_run(prog, data, begin, end, ws->out, ws->scratch);
		for (size_t i = begin; i < end; i++) {
			double sw = c->w != NULL ? sqrt(c->w[i]) : 1, g;

			c->loss->residual(ws->out[i - begin], c->y[i], sw,
			                  c->s.huber_delta, &r[i], &g);
			if (!isfinite(r[i]))
				return SF_EVALUE;
			if (J == NULL)
				continue;
			for (size_t a = 0; a < W; a++) {
				double d =
				    g * ws->out[(1 + a) * len + (i - begin)];
				if (!isfinite(d))
					return SF_EVALUE;
				J[i * W + a] = d;
			}
		}
	}
	if (penalty_rows(c)) {
		double sl = sqrt(c->s.lambda);

		for (size_t j = 0; j < P; j++) {
			r[c->n + j] = sl * theta[j] * c->scale[j];
			if (J == NULL)
				continue;
			for (size_t a = 0; a < W; a++)
				J[(c->n + j) * W + a] =
				    (cols != NULL ? cols[a] : a) == j
				        ? sl * c->scale[j]
				        : 0;
		}
	}
	return SF_OK;
}

/* The residuals at theta into r and, when J is not NULL, their whole
 * Jacobian into J (m x P). */
static int
residuals_at(const sf_cost *c, const double *theta, double *r, double *J,
             int slot)
{
	return J != NULL
	           ? residuals_by(c, c->formula->gradient, c->gradient_data,
	                          c->P, NULL, theta, r, J, slot)
	           : residuals_by(c, c->formula->value, c->value_data, 0, NULL,
	                          theta, r, NULL, slot);
}

int
sf_cost_residuals(const sf_cost *c, const double *theta, double *r, double *J)
{
	return residuals_at(c, theta, r, J, 0);
}

/* ---- separable least squares ------------------------------------------- */

int
sf_cost_is_separable_loss(const sf_cost *c)
{
	return c->loss->quadratic != NULL &&
	       (c->s.penalty != SF_PENALTY_L1 || c->s.lambda == 0);
}

/* Per-slot buffers of the residuals and Jacobian; 0 or -1. */
static int
slot_buffers(sf_cost *c, cost_slot *ws)
{
	size_t m = sf_cost_residual_count(c);

	if (ws->r != NULL)
		return 0;
	ws->r = malloc((m + 1) * sizeof *ws->r);
	ws->J = malloc((m * c->P + 1) * sizeof *ws->J);
	ws->x = malloc((c->P + 1) * sizeof *ws->x);
	ws->ls = sf_boxls_alloc(c->P);
	return ws->r != NULL && ws->J != NULL && ws->x != NULL && ws->ls != NULL
	           ? 0
	           : -1;
}

/* Same numbers, to a relative tolerance meant for rounding only. */
static int
near(double a, double b)
{
	return fabs(a - b) <= 1e-9 * (fabs(a) + fabs(b)) + 1e-300;
}

/*
 * Do the residuals move affinely with the parameters flagged in set, with
 * the Jacobian columns of those parameters not moving at all?  Probed at
 * a few random points of the box: from each, the flagged parameters are
 * all moved to other random values.  Non-finite residuals count as no.
 */
static int
affine_in(sf_cost *c, const int *set, sf_rng *rng, double *theta, double *moved,
          double *r2, double *J2)
{
	const sf_formula *f = c->formula;
	const size_t P = c->P, m = sf_cost_residual_count(c);
	const cost_slot *ws = &c->slots[0];

	for (int probe = 0; probe < 3; probe++) {
		for (size_t j = 0; j < P; j++) {
			theta[j] =
			    f->lower[j] +
			    sf_rng_uniform(rng) * (f->upper[j] - f->lower[j]);
			moved[j] =
			    !set[j]
			        ? theta[j]
			        : f->lower[j] + sf_rng_uniform(rng) *
			                            (f->upper[j] - f->lower[j]);
		}
		if (residuals_at(c, theta, ws->r, ws->J, 0) != SF_OK ||
		    residuals_at(c, moved, r2, J2, 0) != SF_OK)
			return 0;
		for (size_t i = 0; i < m; i++) {
			double predicted = ws->r[i], scale = fabs(ws->r[i]);

			for (size_t j = 0; j < P; j++) {
				double step;

				if (!set[j])
					continue;
				if (!near(ws->J[i * P + j], J2[i * P + j]))
					return 0;
				step = ws->J[i * P + j] * (moved[j] - theta[j]);
				predicted += step;
				scale += fabs(step);
			}
			if (!(fabs(r2[i] - predicted) <=
			      1e-9 * (scale + fabs(r2[i])) + 1e-300))
				return 0;
		}
	}
	return 1;
}

/*
 * The structural half of the test: the time is affine in the set when no
 * derivative by a member reads any member (gradient output 1 + j is
 * d time / d theta_j).  Probing alone can miss a kink it never crosses,
 * as in max(c, h / t) when c is mostly the larger; this cannot.
 */
static int
derivatives_free_of(const sf_cost *c, const int *set)
{
	const sf_program *g = c->formula->gradient;

	for (size_t j = 0; j < c->P; j++)
		for (size_t l = 0; set[j] && l < c->P; l++)
			if (set[l] && sf_program_output_uses_param(g, 1 + j, l))
				return 0;
	return 1;
}

size_t
sf_cost_find_linear(sf_cost *c, int *linear, sf_error *err)
{
	const size_t P = c->P, m = sf_cost_residual_count(c);
	double *theta = malloc((P + 1) * sizeof *theta);
	double *moved = malloc((P + 1) * sizeof *moved);
	double *r2 = malloc((m + 1) * sizeof *r2);
	double *J2 = malloc((m * P + 1) * sizeof *J2);
	int *set = calloc(P + 1, sizeof *set);
	size_t count = 0;
	sf_rng rng;

	for (size_t j = 0; j < P; j++)
		linear[j] = 0;
	if (theta == NULL || moved == NULL || r2 == NULL || J2 == NULL ||
	    set == NULL || slot_buffers(c, &c->slots[0]) != 0) {
		sf_error_set(err, SF_ENOMEM, "out of memory");
		goto done;
	}
	if (!sf_cost_is_separable_loss(c))
		goto done;
	/* A fixed seed: the same formula always splits the same way. */
	sf_rng_seed(&rng, 0x6c696e, 0x736570);
	/* Greedily, in parameter order: j joins if the residuals stay
	 * affine in everything chosen so far together with j. */
	for (size_t j = 0; j < P; j++) {
		set[j] = 1;
		if (derivatives_free_of(c, set) &&
		    affine_in(c, set, &rng, theta, moved, r2, J2))
			count++;
		else
			set[j] = 0;
	}
	for (size_t j = 0; j < P; j++)
		linear[j] = set[j];
done:
	free(theta);
	free(moved);
	free(r2);
	free(J2);
	free(set);
	return count;
}

/* Every slot's scratch at least n doubles; 0, or -1 when out of memory. */
static int
grow_scratch(sf_cost *c, size_t n)
{
	if (n <= c->scratch)
		return 0;
	for (int t = 0; t < c->nslots; t++) {
		double *s = realloc(c->slots[t].scratch, (n + 1) * sizeof *s);

		if (s == NULL)
			return -1;
		c->slots[t].scratch = s;
	}
	c->scratch = n;
	return 0;
}

int
sf_cost_set_separable(sf_cost *c, const int *linear, sf_error *err)
{
	const sf_formula *f = c->formula;

	c->nlinear = 0;
	free(c->linear);
	free(c->linear_lo);
	free(c->linear_hi);
	c->linear = malloc((c->P + 1) * sizeof *c->linear);
	c->linear_lo = malloc((c->P + 1) * sizeof *c->linear_lo);
	c->linear_hi = malloc((c->P + 1) * sizeof *c->linear_hi);
	if (c->linear == NULL || c->linear_lo == NULL || c->linear_hi == NULL)
		return sf_error_set(err, SF_ENOMEM, "out of memory");
	for (int t = 0; t < c->nslots; t++)
		if (slot_buffers(c, &c->slots[t]) != 0)
			return sf_error_set(err, SF_ENOMEM, "out of memory");
	for (size_t j = 0; j < c->P; j++)
		if (linear[j]) {
			c->linear_lo[c->nlinear] = f->lower[j];
			c->linear_hi[c->nlinear] = f->upper[j];
			c->linear[c->nlinear++] = j;
		}
	sf_expr_data_free(c->profile_data);
	sf_program_free(c->profile);
	c->profile_data = NULL;
	if ((c->profile = sf_program_compile_wrt(f->scope, f->time, linear,
	                                         err)) == NULL ||
	    (c->profile_data = bind_rows(c->profile, c->data, err)) == NULL ||
	    grow_scratch(c, sf_program_scratch_size(c->profile)) != 0) {
		c->nlinear = 0; /* not separable: never a half-made profile */
		return sf_error_set(err, SF_ENOMEM, "out of memory");
	}
	return SF_OK;
}

size_t
sf_cost_separable_count(const sf_cost *c)
{
	return c->nlinear;
}

double
sf_cost_profile(const sf_cost *c, double *theta, int slot)
{
	const cost_slot *ws = &c->slots[slot];
	const size_t m = sf_cost_residual_count(c);

	/* The residuals are affine in the linear parameters: take them and
	 * their Jacobian at 0 there, and solve for the best values. */
	for (size_t a = 0; a < c->nlinear; a++)
		theta[c->linear[a]] = 0;
	if (residuals_by(c, c->profile, c->profile_data, c->nlinear, c->linear,
	                 theta, ws->r, ws->J, slot) != SF_OK ||
	    sf_boxls_solve(ws->ls, m, c->nlinear, ws->r, ws->J, c->nlinear,
	                   NULL, c->linear_lo, c->linear_hi, ws->x) != 0)
		return INFINITY;
	for (size_t a = 0; a < c->nlinear; a++)
		theta[c->linear[a]] = ws->x[a];
	/* The cost itself, as every other candidate's is computed. */
	return sf_cost_total(c, theta, slot);
}

void
sf_cost_predict(const sf_cost *c, const double *theta, double *f)
{
	const cost_slot *ws = &c->slots[0];

	sf_program_load(c->formula->value, c->value_data, theta, c->n,
	                ws->scratch);
	for (size_t begin = 0; begin < c->n; begin += COST_CHUNK) {
		size_t end =
		    begin + COST_CHUNK < c->n ? begin + COST_CHUNK : c->n;

		sf_program_run(c->formula->value, c->value_data, begin, end,
		               ws->out, ws->scratch);
		memcpy(f + begin, ws->out, (end - begin) * sizeof *f);
	}
}
