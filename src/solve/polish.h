/*
 * polish.h - bounded nonlinear least-squares refinement ("polish").
 *
 * After the global search, polish minimises S(theta) = sum_i r_i(theta)^2
 * subject to lower <= theta <= upper, starting from the search's answer,
 * until the answer is as accurate as double precision allows.  The caller
 * supplies a callback that fills the residuals r (m values) and, when asked,
 * the exact Jacobian J (m x n, row-major, J[i*n + j] = d r_i / d theta_j).
 *
 * The algorithm is a projected, scaled Levenberg-Marquardt method with an
 * active set; polish.c's opening comment describes it.  It never leaves the
 * box and never returns a point worse than the start.
 *
 * Use it GSL-style, with a loop the caller drives:
 *
 *     sf_polish *w = sf_polish_alloc(m, n);
 *     status = sf_polish_init(w, &problem, &settings, theta0, &err);
 *     while (status == SF_OK && sf_polish_test(w) == SF_POLISH_RUNNING)
 *             status = sf_polish_iterate(w, &err);
 *     sf_polish_finish(w, theta, active, &result);
 *     sf_polish_free(w);
 *
 * or with the single call sf_polish_run(), which is that loop.  The
 * statistics that follow a fit (covariance, standard errors, condition
 * number, correlations, t quantiles) are a separate idea and live in
 * covariance.h.
 *
 * Ownership: the workspace owns all its memory; sf_polish_alloc() is the only
 * function that allocates, so the iteration never does.  sf_polish_init()
 * copies the bounds and the starting point; it keeps the callback and its
 * context pointer, which must stay valid until the last call of
 * sf_polish_iterate().  Results are copied into caller-owned arrays.
 *
 * Thread safety: a workspace belongs to one thread at a time; run one
 * workspace per thread to polish several fits concurrently.  The callback
 * is called synchronously from the thread that called sf_polish_init(),
 * sf_polish_iterate() or sf_polish_run(), never from another thread.  There
 * is no hidden state.  GSL reports misuse through its error handler, which
 * aborts by default; this module never passes GSL arguments it rejects, but
 * programs should still call gsl_set_error_handler_off() once at start-up so
 * that an unexpected GSL failure becomes a status code, not an abort.
 */
#ifndef SF_POLISH_H
#define SF_POLISH_H

#include <stddef.h>

#include "base/error.h"

/* The workspace: opaque, made by sf_polish_alloc(). */
typedef struct sf_polish sf_polish;

/*
 * The residual callback.  Given theta (n values), fill r (m values) and, when
 * J is not NULL, also the Jacobian J (m x n, row-major).  Return 0 on
 * success, non-zero when the model cannot be evaluated at theta (a domain
 * error); polish then treats theta as an unacceptable trial point.  polish
 * checks r and J for non-finite values itself, so the callback need not.
 * ctx is the pointer given in sf_polish_problem.
 */
typedef int (*sf_polish_fn)(const double *theta, double *r, double *J,
                            void *ctx);

/* The problem: the callback and the box.  Bounds must be finite. */
typedef struct sf_polish_problem {
	sf_polish_fn fn;     /* residuals and Jacobian */
	void *ctx;           /* passed to fn untouched */
	const double *lower; /* n lower bounds, copied by sf_polish_init() */
	const double *upper; /* n upper bounds, lower[j] <= upper[j] */
} sf_polish_problem;

/*
 * Stopping rules and the starting damping.  sf_polish_settings_default()
 * gives the values in brackets, chosen so that a start within about 1e-3
 * relative of the optimum converges to full double accuracy (the NIST StRD
 * problems reach 10 to 11 correct digits).
 */
typedef struct sf_polish_settings {
	/* [1e-15] stop when every |step_j| <= xtol * (|theta_j| + xtol) */
	double xtol;
	/*
	 * [1e-15] the relative change of S below which S cannot judge steps:
	 * when the Gauss-Newton step predicts a reduction <= ftol * S (or the
	 * actual and predicted reductions are both <= ftol * S, MINPACK's
	 * test), polish switches to Gauss-Newton refinement and stops (FTOL)
	 * when its corrections stop shrinking; see polish.c.
	 */
	double ftol;
	/*
	 * [1e-15] stop when the projected gradient is tiny: for every free
	 * parameter, |(J^T r)_j| <= gtol * ||J_j|| * ||r|| (the cosine of the
	 * angle between r and column j, MINPACK's test).  S == 0 always stops.
	 */
	double gtol;
	/*
	 * [1000] most calls of sf_polish_iterate() (each tries one step).
	 * From a nearby start 10 to 70 are typical; from NIST's far starts
	 * Bennett5 takes about 300.
	 */
	size_t max_iter;
	/*
	 * [1e-3] the starting damping mu, relative to the column-scaled J^T J
	 * (whose diagonal is at most 1).  Small values trust the Gauss-Newton
	 * step at once, which suits a start near the optimum.
	 */
	double damping;
} sf_polish_settings;

/* Why the iteration stopped; SF_POLISH_RUNNING while it has not. */
typedef enum sf_polish_stop {
	SF_POLISH_RUNNING = 0, /* not stopped yet */
	SF_POLISH_XTOL,        /* converged: relative step below xtol */
	SF_POLISH_FTOL,        /* converged: relative reduction below ftol */
	SF_POLISH_GTOL,        /* converged: projected gradient below gtol */
	SF_POLISH_MAXITER,     /* max_iter steps tried */
	SF_POLISH_STALLED,     /* the damping grew past its limit */
	SF_POLISH_BADJAC,      /* the callback failed or gave a non-finite J
	                          at an otherwise acceptable new point; the
	                          iteration stopped at the previous point */
	SF_POLISH_BADSTART,    /* callback failed or non-finite at the start */
	SF_POLISH_FAILED       /* a GSL factorisation failed (a bug) */
} sf_polish_stop;

/* What happened, filled by sf_polish_finish() and sf_polish_run(). */
typedef struct sf_polish_result {
	int stop;          /* an sf_polish_stop */
	int improved;      /* 1 when the returned theta has a lower cost than
	                      the start; 0 means theta is the start itself */
	size_t iterations; /* steps tried */
	size_t nfev;       /* callback calls for residuals only */
	size_t njev;       /* callback calls that also filled J */
	size_t n_active;   /* parameters held at a bound (active[j] != 0) */
	double cost_start; /* S at the start (+INFINITY if not finite) */
	double cost;       /* S at the returned theta */
	double gradient;   /* the largest cosine of the gtol test at theta */
} sf_polish_result;

/* Fill s with the documented defaults. */
void sf_polish_settings_default(sf_polish_settings *s);

/*
 * Allocate a workspace for m residuals and n parameters (m, n >= 1; m < n is
 * allowed).  Returns NULL when out of memory or a size is 0.  Free it with
 * sf_polish_free().
 */
sf_polish *sf_polish_alloc(size_t m, size_t n);

/* Free a workspace.  Accepts NULL. */
void sf_polish_free(sf_polish *w);

/*
 * Start a polish of problem p from theta0 (n values) with settings s (NULL
 * for the defaults).  Copies the bounds, the settings and theta0 and
 * evaluates residuals and Jacobian at theta0.  Returns SF_OK; SF_EVALUE
 * (err filled) when a bound is not finite, lower > upper, theta0 is not
 * finite or outside the box, a setting is negative or NaN, or p->fn is NULL;
 * SF_EFAIL when the callback fails or gives non-finite values at theta0 (the
 * workspace is then stopped with SF_POLISH_BADSTART, and sf_polish_finish()
 * returns theta0); SF_EINTERNAL when a GSL factorisation fails.
 */
int sf_polish_init(sf_polish *w, const sf_polish_problem *p,
                   const sf_polish_settings *s, const double *theta0,
                   sf_error *err);

/*
 * Try one step: compute the damped, projected step, evaluate the residuals
 * there and accept or reject it by its gain ratio.  Calls the callback once
 * for the residuals and, when the step is accepted, once more for the
 * Jacobian.  Does nothing once stopped.  Returns SF_OK, or SF_EINTERNAL
 * (err filled) when a GSL factorisation fails; the workspace is then
 * stopped and its point is still the best one found.
 */
int sf_polish_iterate(sf_polish *w, sf_error *err);

/*
 * Why the iteration stopped (an sf_polish_stop), or SF_POLISH_RUNNING when
 * the caller should call sf_polish_iterate() again.
 */
int sf_polish_test(const sf_polish *w);

/* The current (best) point, n values owned by the workspace. */
const double *sf_polish_theta(const sf_polish *w);

/* S at the current point. */
double sf_polish_cost(const sf_polish *w);

/*
 * Copy the answer out.  theta (n values) receives the current point when
 * its cost is lower than the start's, otherwise the start itself (so the
 * answer is never worse than the start, and always inside the box).  active
 * (n values, may be NULL) receives, for each parameter, -1 when it is held
 * at its lower bound, +1 at its upper bound, 0 when free: held means the
 * parameter sits exactly on the bound and the gradient of S pushes it
 * outward (a parameter with lower == upper is always held).  A parameter
 * that merely touches a bound with zero or inward gradient is free.  res
 * (may be NULL) receives the summary.
 */
void sf_polish_finish(const sf_polish *w, double *theta, int *active,
                      sf_polish_result *res);

/*
 * The whole polish in one call: init, iterate until stopped, finish.
 * theta holds the start on entry and the answer on return (the start when
 * nothing better was found, or on any error).  active and res as for
 * sf_polish_finish(); both may be NULL.  Returns what sf_polish_init() or
 * sf_polish_iterate() returned; a polish that stops on max_iter or a stall
 * still returns SF_OK (res->stop says why).
 */
int sf_polish_run(sf_polish *w, const sf_polish_problem *p,
                  const sf_polish_settings *s, double *theta, int *active,
                  sf_polish_result *res, sf_error *err);

/* A short name for a stop reason ("xtol", "max_iter", ...), for reports. */
const char *sf_polish_stop_name(int stop);

#endif /* SF_POLISH_H */
