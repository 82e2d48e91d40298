/*
 * loss.h - the losses a fit can minimise: one table row per loss, its
 * name, its properties and its functions, as GSL's method tables are.
 *
 * For row i with prediction f_i, measurement y_i and weight w_i the cost
 * of a fit (fit/cost.h) is sum w_i row(f_i, y_i), and everything else
 * that depends on the loss reads its row of the table here instead of
 * asking which loss it is:
 *   needs_positive  rows whose output is not > 0 are skipped (dataset)
 *   multiplicative  its errors are relative: prediction intervals on the
 *                   log scale (fit/interval), inverse-variance weights
 *                   from the spread of y / mean (fit/fit)
 *   uses_delta      reads the threshold fit.huber_delta, which must be > 0
 *   residual        its value is a sum of squared residuals, w_i row =
 *                   r_i^2: the least-squares polish, the covariance
 *                   (fit/stats) and the l2 penalty's rows need it (NULL:
 *                   not a sum of squares; stats then uses sse's)
 *   quadratic       its value is q_i (f_i - y_i)^2 with q_i fixed per row:
 *                   the cost sums it in one kernel without calling row,
 *                   and the constants the formula is linear in are solved
 *                   instead of searched (separable least squares)
 *
 * To add a loss: a value of sf_loss before SF_LOSSES, its row and its
 * functions in loss.c, its definition in man/scalefit.1 (LOSSES AND
 * PENALTY) and man/scalefit-model.5, its name in tests/fuzz/yaml.dict;
 * the command line, its help, the model loader and the fit read the
 * table (tests/cli.sh fails when a name is missing from the pages).
 *
 * Everything here is a read-only table or a pure function: thread-safe.
 */
#ifndef SF_LOSS_H
#define SF_LOSS_H

#include <stddef.h>

/*
 * The losses, in the order of the table (and of every list of them).  A
 * row's loss before its weight, for prediction f of measurement y:
 *   relative  ((f - y) / y)^2                                (the default)
 *   sse       (f - y)^2
 *   log       (log f - log y)^2                   (f <= 0 costs +inf)
 *   absolute  |f - y|
 *   huber     rho(u), u = (f - y) / y, rho(u) = u^2 for |u| <= delta,
 *             else 2 delta |u| - delta^2 (the relative loss for small
 *             errors, growing linearly beyond)
 */
typedef enum sf_loss {
	SF_LOSS_RELATIVE = 0,
	SF_LOSS_SSE,
	SF_LOSS_LOG,
	SF_LOSS_ABSOLUTE,
	SF_LOSS_HUBER,
	SF_LOSSES /* how many there are */
} sf_loss;

/* One loss: its row of the table (see the top of this file). */
typedef struct sf_loss_method {
	const char *name; /* as model files, options and reports say it */
	int needs_positive;
	int multiplicative;
	int uses_delta;
	/* The loss of one row's prediction f of measurement y, before its
	 * weight; +INFINITY or NaN where it is not defined.  delta is
	 * fit.huber_delta. */
	double (*row)(double f, double y, double delta);
	/* The row's residual times sw (the square root of its weight) into
	 * *r, and dr/df into *dr_df; NULL when the loss is not a sum of
	 * squares. */
	void (*residual)(double f, double y, double sw, double delta, double *r,
	                 double *dr_df);
	/* q of a row of weight w and measurement y when the row's loss is
	 * q (f - y)^2; NULL for the other losses. */
	double (*quadratic)(double w, double y);
} sf_loss_method;

/* The row of loss, or NULL when loss is not one of them. */
const sf_loss_method *sf_loss_get(sf_loss loss);

/*
 * The loss named name: SF_OK with *loss set, or SF_ENAME with *loss left
 * alone and *nearest (when nearest is not NULL) the name name is a typo
 * of, or NULL (base/suggest.h).  Callers word their own message.
 */
int sf_loss_find(const char *name, sf_loss *loss, const char **nearest);

/* The name of loss, or "unknown". */
const char *sf_loss_name(sf_loss loss);

/* 1 when loss divides by or takes the log of the measurement, so
 * measurements must be > 0 (relative, log, huber). */
int sf_loss_needs_positive(sf_loss loss);

/* The SF_LOSSES names in table order into names (for choices and
 * suggestions); returns SF_LOSSES. */
size_t sf_loss_names(const char **names);

/*
 * The names as messages and help list them, "relative, sse, log, absolute
 * or huber"; with positive_only, only those that need outputs > 0
 * ("relative, log or huber").  Into buf (size bytes, cut short when it
 * does not fit, always terminated); returns buf.
 */
char *sf_loss_list(char *buf, size_t size, int positive_only);

#endif /* SF_LOSS_H */
