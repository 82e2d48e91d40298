/*
 * steps.c - a run's steps from n, p and b (steps.h).
 */
#include "input/steps.h"

#include <math.h>
#include <stdio.h>

/* Each rule's text around the quotient. */
static const char *const around[SF_STEPS_RULES][2] = {
    {"", ""}, {"max(1, floor(", "))"}, {"ceil(", ")"}};

const char *
sf_steps_open(sf_steps_rule rule)
{
	return around[rule][0];
}

const char *
sf_steps_close(sf_steps_rule rule)
{
	return around[rule][1];
}

void
sf_steps_text(sf_steps_rule rule, const char *quotient, char *buf, size_t size)
{
	snprintf(buf, size, "%s%s%s", sf_steps_open(rule), quotient,
	         sf_steps_close(rule));
}

double
sf_steps_apply(sf_steps_rule rule, double q)
{
	if (rule == SF_STEPS_FLOOR)
		return floor(q) > 1 ? floor(q) : 1;
	return rule == SF_STEPS_CEIL ? ceil(q) : q;
}

int
sf_steps_fractional(double q)
{
	return fabs(q - nearbyint(q)) > 1e-9 * q;
}
