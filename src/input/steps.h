/*
 * steps.h - a run's optimizer steps from its samples n, workers p and
 * batch per worker b: the quotient n / (p b), or whole steps as a data
 * loader takes them, rounded down, max(1, floor(n / (p b))) (one that
 * drops the last partial batch), or up, ceil(n / (p b)) (one that keeps
 * it).  The one vocabulary of init (input/scaffold, run/init) and of
 * discover's grammar (discover/grammar): the rules, their text in the
 * expression language and their values.
 *
 * Thread-safe: pure functions.
 */
#ifndef SF_STEPS_H
#define SF_STEPS_H

#include <stddef.h>

/* The rules, in the order init tests them against a steps column. */
typedef enum sf_steps_rule {
	SF_STEPS_QUOTIENT,
	SF_STEPS_FLOOR,
	SF_STEPS_CEIL,
	SF_STEPS_RULES
} sf_steps_rule;

/* What rule writes before and after the quotient in the expression
 * language: "max(1, floor(" and "))" rounded down, "" and "" for the
 * quotient itself. */
const char *sf_steps_open(sf_steps_rule rule);
const char *sf_steps_close(sf_steps_rule rule);

/* rule applied to quotient, an expression such as "n / (p * b)", as the
 * model file writes it ("max(1, floor(n / (p * b)))"), into buf. */
void sf_steps_text(sf_steps_rule rule, const char *quotient, char *buf,
                   size_t size);

/* rule applied to the quotient's value q, as the expression computes it. */
double sf_steps_apply(sf_steps_rule rule, double q);

/* 1 when q > 0 is further than a relative 1e-9 from a whole number: whole
 * steps would differ from it (a batch B / p whose product with p is B but
 * for rounding is whole). */
int sf_steps_fractional(double q);

#endif /* SF_STEPS_H */
