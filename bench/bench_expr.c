/*
 * bench_expr.c - the expression engine against hand-written C.
 *
 * Evaluates a generic DDP formula (expressions/ddp-generic.yaml without io),
 *     steps   = floor(n / (p * b))
 *     compute = steps * (a + c * b^e)          (e fixed = 1)
 *     comm    = steps * (l * log2(p) + w * (p - 1) / p)
 *     time    = t0 + compute + comm
 * over 1,000,000 synthetic rows (fixed seed), single-threaded, with the
 * engine and with plain C functions compiled with the same flags, and
 * prints rows per second (median of REPS runs) and the ratio
 * hand time / engine time (above 1: the engine is faster).  The hand
 * versions are:
 *   per row   everything computed per row, pow(b, e) with e a run-time
 *             value, as a straightforward C translation of the model does;
 *   e = 1     the same with b^e written as b (the hand-writer knows e);
 *   hoisted   steps, log2(p) and (p - 1) / p precomputed once, as the
 *             engine does: the fair measure of interpretation overhead.
 * Then the program with the 5 derivatives (6 outputs per row).  With
 * OpenMP, also the value program on all threads.
 *
 * Then the cost of a fit on small data, as the search evaluates it: 224
 * rows (the size of fit_scipy.py's dataset), EVALS evaluations of the sum
 * of squared residuals at slightly different constants, by the engine
 * (sf_program_eval_sumsq) and by plain C calling libm per row, for the two
 * formula families fit_scipy.py adds:
 *   power   t0 + s (a + c b^g) + s (l log2(p) + w (p - 1) / p) + r n,
 *           s = floor(n / (p b)): a power with a data base;
 *   explog  t0 + s (a + c b) (1 + d exp(-b / h)) + s l log(1 + u p),
 *           s = n / (p b): exp and log of fitted multiples of the data.
 * The ratio engine / plain C is the number issue 17 asks to keep under
 * 1.5.
 *
 * Build (the project's flags):
 *   gcc -std=c11 -O2 -fopenmp -Isrc src/error.c src/suggest.c src/rng.c \
 *       src/expr_*.c bench/bench_expr.c -lm -o bench_expr
 */
#define _POSIX_C_SOURCE 200809L

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#ifdef _OPENMP
#include <omp.h>
#endif

#include "expr/expr.h"
#include "base/rng.h"

#define ROWS 1000000
#define REPS 7

#if defined(__GNUC__)
#define NOINLINE __attribute__((noinline))
#else
#define NOINLINE
#endif

static double
now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static int
cmp_double(const void *x, const void *y)
{
	double a = *(const double *)x, b = *(const double *)y;

	return (a > b) - (a < b);
}

static double
median(double *t, int n)
{
	qsort(t, (size_t)n, sizeof *t, cmp_double);
	return n % 2 ? t[n / 2] : 0.5 * (t[n / 2 - 1] + t[n / 2]);
}

/* Everything per row, as a direct translation of the model. */
static NOINLINE void
hand_per_row(const double *p, const double *b, const double *n, size_t rows,
             const double *th, double e, double *out)
{
	for (size_t i = 0; i < rows; i++) {
		double steps = floor(n[i] / (p[i] * b[i]));
		double compute = steps * (th[1] + th[2] * pow(b[i], e));
		double comm =
		    steps * (th[3] * log2(p[i]) + th[4] * (p[i] - 1) / p[i]);

		out[i] = th[0] + compute + comm;
	}
}

/* The same, knowing e = 1. */
static NOINLINE void
hand_e1(const double *p, const double *b, const double *n, size_t rows,
        const double *th, double *out)
{
	for (size_t i = 0; i < rows; i++) {
		double steps = floor(n[i] / (p[i] * b[i]));
		double compute = steps * (th[1] + th[2] * b[i]);
		double comm =
		    steps * (th[3] * log2(p[i]) + th[4] * (p[i] - 1) / p[i]);

		out[i] = th[0] + compute + comm;
	}
}

/* With the data-only parts precomputed. */
static NOINLINE void
hand_hoisted(const double *steps, const double *b, const double *lg,
             const double *q, size_t rows, const double *th, double *out)
{
	for (size_t i = 0; i < rows; i++)
		out[i] = th[0] + steps[i] * (th[1] + th[2] * b[i]) +
		         steps[i] * (th[3] * lg[i] + th[4] * q[i]);
}

static double
sum(const double *x, size_t n)
{
	double s = 0;

	for (size_t i = 0; i < n; i++)
		s += x[i];
	return s;
}

static sf_expr_scope *
ddp_scope(void)
{
	static const char *const params[] = {"t0", "a", "c", "l", "w"};
	sf_expr_scope *s = sf_expr_scope_new();
	sf_error err;
	int rc = 0;

	if (s == NULL)
		return NULL;
	rc |= sf_expr_scope_add_input(s, "p", &err);
	rc |= sf_expr_scope_add_input(s, "b", &err);
	rc |= sf_expr_scope_add_input(s, "n", &err);
	for (int j = 0; j < 5; j++)
		rc |= sf_expr_scope_add_param(s, params[j], &err);
	rc |= sf_expr_scope_add_fixed(s, "e", 1.0, &err);
	rc |= sf_expr_scope_declare_term(s, "steps", &err);
	rc |= sf_expr_scope_declare_term(s, "compute", &err);
	rc |= sf_expr_scope_declare_term(s, "comm", &err);
	rc |= sf_expr_scope_add_term(s, "steps", "floor(n / (p * b))", &err);
	rc |=
	    sf_expr_scope_add_term(s, "compute", "steps * (a + c * b^e)", &err);
	rc |= sf_expr_scope_add_term(
	    s, "comm", "steps * (l * log2(p) + w * (p - 1) / p)", &err);
	if (rc != SF_OK) {
		fprintf(stderr, "bench_expr: %s\n", err.message);
		sf_expr_scope_free(s);
		return NULL;
	}
	return s;
}

/* ---- Small data: the cost of one evaluation, engine against plain C ---- */

enum { SMALL_ROWS = 224, EVALS = 20000 };

static NOINLINE double
plain_power(const double *p, const double *b, const double *n, const double *y,
            size_t rows, const double *th)
{
	double s = 0;

	for (size_t i = 0; i < rows; i++) {
		double steps = floor(n[i] / (p[i] * b[i]));
		double f =
		    th[0] + steps * (th[1] + th[2] * pow(b[i], th[3])) +
		    steps * (th[4] * log2(p[i]) + th[5] * (p[i] - 1) / p[i]) +
		    th[6] * n[i];
		s += (f - y[i]) * (f - y[i]);
	}
	return s;
}

static NOINLINE double
plain_explog(const double *p, const double *b, const double *n, const double *y,
             size_t rows, const double *th)
{
	double s = 0;

	for (size_t i = 0; i < rows; i++) {
		double steps = n[i] / (p[i] * b[i]);
		double f = th[0] +
		           steps * (th[1] + th[2] * b[i]) *
		               (1 + th[3] * exp(-b[i] / th[4])) +
		           steps * th[5] * log(1 + th[6] * p[i]);
		s += (f - y[i]) * (f - y[i]);
	}
	return s;
}

typedef double plain_fn(const double *, const double *, const double *,
                        const double *, size_t, const double *);

/* One family: EVALS evaluations by each, REPS times; prints the medians
 * and the ratio.  Returns 0, or 3 when the formula does not compile. */
static int
small_family(const char *name, const char *const *params, const char *steps,
             const char *time_text, const double *theta0, plain_fn *plain,
             const double *p, const double *b, const double *n)
{
	double y[SMALL_ROWS], q[SMALL_ROWS], th[7], t_e[REPS], t_p[REPS], t0;
	double s_e = 0, s_p = 0, *scratch;
	const double *cols[3] = {p, b, n};
	sf_expr_scope *s = sf_expr_scope_new();
	sf_program *prog;
	sf_expr_data *d;
	sf_error err;
	int rc = 0;

	if (s == NULL)
		return 3;
	rc |= sf_expr_scope_add_input(s, "p", &err);
	rc |= sf_expr_scope_add_input(s, "b", &err);
	rc |= sf_expr_scope_add_input(s, "n", &err);
	for (int j = 0; j < 7; j++)
		rc |= sf_expr_scope_add_param(s, params[j], &err);
	rc |= sf_expr_scope_add_term(s, "steps", steps, &err);
	prog = rc == SF_OK ? sf_program_compile(s, &time_text, 1, 0, NULL, &err)
	                   : NULL;
	if (prog == NULL) {
		fprintf(stderr, "bench_expr: %s\n", err.message);
		sf_expr_scope_free(s);
		return 3;
	}
	d = sf_expr_data_new(prog, cols, SMALL_ROWS, &err);
	scratch = malloc(sf_program_scratch_size(prog) * sizeof *scratch);
	if (d == NULL || scratch == NULL)
		return 3;
	/* the measured times: the formula at theta0 with 3% noise */
	sf_program_eval(prog, d, theta0, 0, SMALL_ROWS, y, scratch);
	for (size_t i = 0; i < SMALL_ROWS; i++) {
		y[i] *= 1 + 0.03 * sin((double)i);
		q[i] = 1;
	}
	for (int rep = 0; rep < REPS; rep++) {
		t0 = now();
		for (int e = 0; e < EVALS; e++) {
			for (int j = 0; j < 7; j++)
				th[j] = theta0[j] *
				        (1 + 1e-3 * (double)((e + j) % 7));
			s_e += sf_program_eval_sumsq(prog, d, th, 0, SMALL_ROWS,
			                             y, q, scratch);
		}
		t_e[rep] = now() - t0;
		t0 = now();
		for (int e = 0; e < EVALS; e++) {
			for (int j = 0; j < 7; j++)
				th[j] = theta0[j] *
				        (1 + 1e-3 * (double)((e + j) % 7));
			s_p += plain(p, b, n, y, SMALL_ROWS, th);
		}
		t_p[rep] = now() - t0;
	}
	{
		double me = median(t_e, REPS), mp = median(t_p, REPS);

		printf(
		    "%-7s %d rows x %d evaluations: engine %7.3f ms, plain C "
		    "%7.3f ms per row with libm: engine / plain C %.2f "
		    "(target <= 1.5); sums %.6e %.6e\n",
		    name, SMALL_ROWS, EVALS, 1e3 * me, 1e3 * mp, me / mp,
		    s_e / (REPS * EVALS), s_p / (REPS * EVALS));
	}
	free(scratch);
	sf_expr_data_free(d);
	sf_program_free(prog);
	sf_expr_scope_free(s);
	return 0;
}

static int
small_data(const double *p, const double *b, const double *n)
{
	static const char *const power_params[] = {"t0", "a", "c", "g",
	                                           "l",  "w", "r"};
	static const char *const explog_params[] = {"t0", "a", "c", "d",
	                                            "h",  "l", "u"};
	static const double power_theta[] = {30,   0.05, 0.002, 0.9,
	                                     0.01, 0.05, 1e-6};
	static const double explog_theta[] = {30, 0.05, 0.002, 2,
	                                      16, 0.01, 0.3};
	int rc;

	rc = small_family("power", power_params, "floor(n / (p * b))",
	                  "t0 + steps * (a + c * b^g) + steps * (l * log2(p) + "
	                  "w * (p - 1) / p) + r * n",
	                  power_theta, plain_power, p, b, n);
	if (rc == 0)
		rc = small_family(
		    "explog", explog_params, "n / (p * b)",
		    "t0 + steps * (a + c * b) * (1 + d * exp(-b / h)) + "
		    "steps * l * log(1 + u * p)",
		    explog_theta, plain_explog, p, b, n);
	return rc;
}

int
main(void)
{
	const double theta[5] = {0.5, 1e-4, 2e-6, 1e-3, 2e-3};
	const char *time_text[] = {"t0 + compute + comm"};
	double *p, *b, *n, *out, *out6, *steps, *lg, *q, *scratch;
	double t_engine[REPS], t_hand[REPS], t_e1[REPS], t_hoist[REPS],
	    t_grad[REPS], t0, t_bind, s_engine = 0, s_hand = 0;
	double m_engine, m_hand, m_e1, m_hoist, m_grad;
	const double *cols[3];
	sf_expr_scope *s;
	sf_program *pv, *pg;
	sf_expr_data *dv, *dg;
	sf_program_stats st;
	sf_error err;
	sf_rng r;
	volatile double e_runtime = 1.0;

	p = malloc(ROWS * sizeof *p);
	b = malloc(ROWS * sizeof *b);
	n = malloc(ROWS * sizeof *n);
	out = malloc(ROWS * sizeof *out);
	out6 = malloc(6 * (size_t)ROWS * sizeof *out6);
	steps = malloc(ROWS * sizeof *steps);
	lg = malloc(ROWS * sizeof *lg);
	q = malloc(ROWS * sizeof *q);
	if (!p || !b || !n || !out || !out6 || !steps || !lg || !q) {
		fprintf(stderr, "bench_expr: out of memory\n");
		return 3;
	}
	sf_rng_seed(&r, 20240601u, 1u);
	for (size_t i = 0; i < ROWS; i++) {
		p[i] = (double)(1u << sf_rng_bounded(&r, 11)); /* 1..1024 */
		b[i] = (double)(8u << sf_rng_bounded(&r, 6));  /* 8..256 */
		n[i] = 1e4 + 1.28e6 * sf_rng_uniform(&r);
	}
	cols[0] = p, cols[1] = b, cols[2] = n;

	s = ddp_scope();
	if (s == NULL)
		return 3;
	pv = sf_program_compile(s, time_text, 1, 0, NULL, &err);
	pg = sf_program_compile(s, time_text, 1, SF_EXPR_DERIVATIVES, NULL,
	                        &err);
	if (pv == NULL || pg == NULL) {
		fprintf(stderr, "bench_expr: %s\n", err.message);
		return 3;
	}
	t0 = now();
	dv = sf_expr_data_new(pv, cols, ROWS, &err);
	t_bind = now() - t0;
	dg = sf_expr_data_new(pg, cols, ROWS, &err);
	if (dv == NULL || dg == NULL) {
		fprintf(stderr, "bench_expr: %s\n", err.message);
		return 3;
	}
	scratch = malloc(sf_program_scratch_size(pg) * sizeof *scratch +
	                 sf_program_scratch_size(pv) * sizeof *scratch);
	if (scratch == NULL)
		return 3;
	for (size_t i = 0; i < ROWS; i++) {
		steps[i] = floor(n[i] / (p[i] * b[i]));
		lg[i] = log2(p[i]);
		q[i] = (p[i] - 1) / p[i];
	}

	for (int rep = 0; rep < REPS; rep++) {
		t0 = now();
		sf_program_eval(pv, dv, theta, 0, ROWS, out, scratch);
		t_engine[rep] = now() - t0;
		s_engine += sum(out, ROWS);

		t0 = now();
		hand_per_row(p, b, n, ROWS, theta, e_runtime, out);
		t_hand[rep] = now() - t0;
		s_hand += sum(out, ROWS);

		t0 = now();
		hand_e1(p, b, n, ROWS, theta, out);
		t_e1[rep] = now() - t0;
		s_hand += sum(out, ROWS);

		t0 = now();
		hand_hoisted(steps, b, lg, q, ROWS, theta, out);
		t_hoist[rep] = now() - t0;
		s_hand += sum(out, ROWS);

		t0 = now();
		sf_program_eval(pg, dg, theta, 0, ROWS, out6, scratch);
		t_grad[rep] = now() - t0;
		s_engine += sum(out6, ROWS);
	}
	m_engine = median(t_engine, REPS);
	m_hand = median(t_hand, REPS);
	m_e1 = median(t_e1, REPS);
	m_hoist = median(t_hoist, REPS);
	m_grad = median(t_grad, REPS);

	sf_program_get_stats(pv, &st);
	printf("rows %d, median of %d runs, single thread\n", ROWS, REPS);
	printf("program: %zu nodes, %zu data instructions -> %zu hoisted "
	       "columns, %zu row instructions, %zu registers of %zu rows\n",
	       st.nodes, st.data_instructions, st.hoisted_columns,
	       st.row_instructions, st.registers, st.block_rows);
	printf("binding (hoisting, once per data set): %.3f ms\n",
	       1e3 * t_bind);
	printf("engine             %8.3f ms  %12.0f rows/s\n", 1e3 * m_engine,
	       ROWS / m_engine);
	printf("hand, per row      %8.3f ms  %12.0f rows/s  ratio "
	       "hand/engine %.2f\n",
	       1e3 * m_hand, ROWS / m_hand, m_hand / m_engine);
	printf("hand, e = 1        %8.3f ms  %12.0f rows/s  ratio "
	       "hand/engine %.2f\n",
	       1e3 * m_e1, ROWS / m_e1, m_e1 / m_engine);
	printf("hand, hoisted      %8.3f ms  %12.0f rows/s  ratio "
	       "hand/engine %.2f\n",
	       1e3 * m_hoist, ROWS / m_hoist, m_hoist / m_engine);
	printf("engine, value + 5 derivatives %8.3f ms  %12.0f rows/s "
	       "(%.0f outputs/s)\n",
	       1e3 * m_grad, ROWS / m_grad, 6 * ROWS / m_grad);
#ifdef _OPENMP
	{
		int threads = omp_get_max_threads();
		double tt[REPS];

		for (int rep = 0; rep < REPS; rep++) {
			t0 = now();
#pragma omp parallel
			{
				double *sc = malloc(
				    sf_program_scratch_size(pv) * sizeof *sc);
				int id = omp_get_thread_num(),
				    nt = omp_get_num_threads();
				size_t lo = (size_t)ROWS * (size_t)id /
				            (size_t)nt,
				       hi = (size_t)ROWS * (size_t)(id + 1) /
				            (size_t)nt;

				if (sc != NULL)
					sf_program_eval(pv, dv, theta, lo, hi,
					                out + lo, sc);
				free(sc);
			}
			tt[rep] = now() - t0;
		}
		printf("engine, %d threads %8.3f ms  %12.0f rows/s\n", threads,
		       1e3 * median(tt, REPS), ROWS / median(tt, REPS));
	}
#endif
	/* keep the work observable */
	printf("checksums %.6e %.6e\n", s_engine, s_hand);
	if (small_data(p, b, n) != 0)
		return 3;

	sf_expr_data_free(dv);
	sf_expr_data_free(dg);
	sf_program_free(pv);
	sf_program_free(pg);
	sf_expr_scope_free(s);
	free(p);
	free(b);
	free(n);
	free(out);
	free(out6);
	free(steps);
	free(lg);
	free(q);
	free(scratch);
	return 0;
}
