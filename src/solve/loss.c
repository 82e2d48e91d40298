/*
 * loss.c - the table of losses and their functions (loss.h).
 *
 * A loss is a row of `losses` below and the functions it points at.  The
 * functions compute exactly what fit/cost.c's switches computed before
 * the table, operation for operation, so costs keep their bits.
 */
#include "solve/loss.h"
#include "base/error.h"
#include "base/suggest.h"

#include <math.h>

/* ---- the rows' functions --------------------------------------------- */

static double
sse_row(double f, double y, double delta)
{
	(void)delta;
	return (f - y) * (f - y);
}

static void
sse_residual(double f, double y, double sw, double delta, double *r,
             double *dr_df)
{
	(void)delta;
	*r = sw * (f - y);
	*dr_df = sw;
}

static double
sse_quadratic(double w, double y)
{
	(void)y;
	return w;
}

static double
relative_row(double f, double y, double delta)
{
	double u = (f - y) / y;

	(void)delta;
	return u * u;
}

static void
relative_residual(double f, double y, double sw, double delta, double *r,
                  double *dr_df)
{
	(void)delta;
	*r = sw * (f - y) / y;
	*dr_df = sw / y;
}

static double
relative_quadratic(double w, double y)
{
	return w / (y * y);
}

/* f <= 0 has no log: +inf, so such a candidate always loses. */
static double
log_row(double f, double y, double delta)
{
	double u;

	(void)delta;
	if (!(f > 0))
		return INFINITY;
	u = log(f / y);
	return u * u;
}

static void
log_residual(double f, double y, double sw, double delta, double *r,
             double *dr_df)
{
	(void)delta;
	*r = f > 0 ? sw * log(f / y) : NAN;
	*dr_df = sw / f;
}

static double
absolute_row(double f, double y, double delta)
{
	(void)delta;
	return fabs(f - y);
}

/* rho(u) = u^2 for |u| <= delta, else 2 delta |u| - delta^2, of the
 * relative error u. */
static double
huber_row(double f, double y, double delta)
{
	double u = fabs((f - y) / y);

	return u <= delta ? u * u : 2 * delta * u - delta * delta;
}

/* r = sign(u) sqrt(rho(u)): its square is the Huber loss. */
static void
huber_residual(double f, double y, double sw, double delta, double *r,
               double *dr_df)
{
	double u = (f - y) / y, a = fabs(u), rho;

	if (a <= delta) {
		*r = sw * u;
		*dr_df = sw / y;
		return;
	}
	rho = 2 * delta * a - delta * delta;
	*r = sw * copysign(sqrt(rho), u);
	*dr_df = sw * delta / sqrt(rho) / y;
}

/* ---- the table --------------------------------------------------------- */

static const sf_loss_method losses[] = {
    [SF_LOSS_RELATIVE] = {.name = "relative",
                          .needs_positive = 1,
                          .multiplicative = 1,
                          .row = relative_row,
                          .residual = relative_residual,
                          .quadratic = relative_quadratic},
    [SF_LOSS_SSE] = {.name = "sse",
                     .row = sse_row,
                     .residual = sse_residual,
                     .quadratic = sse_quadratic},
    [SF_LOSS_LOG] = {.name = "log",
                     .needs_positive = 1,
                     .multiplicative = 1,
                     .row = log_row,
                     .residual = log_residual},
    [SF_LOSS_ABSOLUTE] = {.name = "absolute", .row = absolute_row},
    [SF_LOSS_HUBER] = {.name = "huber",
                       .needs_positive = 1,
                       .multiplicative = 1,
                       .uses_delta = 1,
                       .row = huber_row,
                       .residual = huber_residual},
};

_Static_assert(sizeof losses / sizeof losses[0] == SF_LOSSES,
               "a row for every value of sf_loss");

/* ---- lookups ------------------------------------------------------------ */

const sf_loss_method *
sf_loss_get(sf_loss loss)
{
	return (size_t)loss < SF_LOSSES ? &losses[loss] : NULL;
}

size_t
sf_loss_names(const char **names)
{
	for (size_t k = 0; k < SF_LOSSES; k++)
		names[k] = losses[k].name;
	return SF_LOSSES;
}

int
sf_loss_find(const char *name, sf_loss *loss, const char **nearest)
{
	const char *names[SF_LOSSES];
	size_t k;

	sf_loss_names(names);
	if ((k = sf_suggest_match(name, names, SF_LOSSES, nearest)) ==
	    SF_LOSSES)
		return SF_ENAME;
	*loss = (sf_loss)k;
	return SF_OK;
}

const char *
sf_loss_name(sf_loss loss)
{
	return (size_t)loss < SF_LOSSES ? losses[loss].name : "unknown";
}

int
sf_loss_needs_positive(sf_loss loss)
{
	return (size_t)loss < SF_LOSSES && losses[loss].needs_positive;
}

char *
sf_loss_list(char *buf, size_t size, int positive_only)
{
	const char *names[SF_LOSSES];

	sf_loss_names(names);
	for (size_t k = 0; positive_only && k < SF_LOSSES; k++)
		if (!losses[k].needs_positive)
			names[k] = NULL;
	return sf_suggest_list(names, SF_LOSSES, buf, size);
}
