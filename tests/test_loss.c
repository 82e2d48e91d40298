/*
 * test_loss.c - the table of losses (solve/loss.h): every row's name and
 * properties, its functions against their definitions, the lookups.
 */
#include "solve/loss.h"
#include "base/error.h"
#include "testing.h"

#include <math.h>
#include <string.h>

/* Every row, as scalefit(1)'s LOSSES AND PENALTY defines the losses. */
static void
test_rows(void)
{
	static const struct {
		sf_loss loss;
		const char *name;
		int needs_positive, multiplicative, uses_delta;
		int residual, quadratic; /* has the function */
	} rows[] = {
	    {SF_LOSS_RELATIVE, "relative", 1, 1, 0, 1, 1},
	    {SF_LOSS_SSE, "sse", 0, 0, 0, 1, 1},
	    {SF_LOSS_LOG, "log", 1, 1, 0, 1, 0},
	    {SF_LOSS_ABSOLUTE, "absolute", 0, 0, 0, 0, 0},
	    {SF_LOSS_HUBER, "huber", 1, 1, 1, 1, 0},
	};

	CU_ASSERT_EQUAL(sizeof rows / sizeof rows[0], SF_LOSSES);
	for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
		const sf_loss_method *m = sf_loss_get(rows[i].loss);

		CU_ASSERT_PTR_NOT_NULL_FATAL(m);
		CU_ASSERT_STRING_EQUAL(m->name, rows[i].name);
		CU_ASSERT_STRING_EQUAL(sf_loss_name(rows[i].loss),
		                       rows[i].name);
		CU_ASSERT_EQUAL(m->needs_positive, rows[i].needs_positive);
		CU_ASSERT_EQUAL(sf_loss_needs_positive(rows[i].loss),
		                rows[i].needs_positive);
		CU_ASSERT_EQUAL(m->multiplicative, rows[i].multiplicative);
		CU_ASSERT_EQUAL(m->uses_delta, rows[i].uses_delta);
		CU_ASSERT_PTR_NOT_NULL(m->row);
		CU_ASSERT_EQUAL(m->residual != NULL, rows[i].residual);
		CU_ASSERT_EQUAL(m->quadratic != NULL, rows[i].quadratic);
	}
	CU_ASSERT_PTR_NULL(sf_loss_get(SF_LOSSES));
	CU_ASSERT_PTR_NULL(sf_loss_get((sf_loss)-1));
	CU_ASSERT_STRING_EQUAL(sf_loss_name(SF_LOSSES), "unknown");
	CU_ASSERT_EQUAL(sf_loss_needs_positive(SF_LOSSES), 0);
}

/* The row functions against the definitions, at a few points. */
static void
test_values(void)
{
	static const struct {
		sf_loss loss;
		double f, y, delta, want;
	} cases[] = {
	    {SF_LOSS_SSE, 3, 1, 0, 4},
	    {SF_LOSS_SSE, -1, 1, 0, 4},
	    {SF_LOSS_RELATIVE, 3, 2, 0, 0.25},
	    {SF_LOSS_RELATIVE, 1, 2, 0, 0.25},
	    {SF_LOSS_LOG, 2, 1, 0, 0.4804530139182014},
	    {SF_LOSS_LOG, 0, 1, 0, INFINITY},
	    {SF_LOSS_LOG, -1, 1, 0, INFINITY},
	    {SF_LOSS_ABSOLUTE, 1, 3, 0, 2},
	    {SF_LOSS_HUBER, 1.25, 1, 0.5, 0.0625}, /* quadratic part */
	    {SF_LOSS_HUBER, 3, 1, 0.5, 1.75},      /* 2 * 0.5 * 2 - 0.25 */
	    {SF_LOSS_HUBER, -1, 1, 0.5, 1.75},
	};

	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		const sf_loss_method *m = sf_loss_get(cases[i].loss);
		double got = m->row(cases[i].f, cases[i].y, cases[i].delta);

		if (isinf(cases[i].want)) {
			CU_ASSERT(isinf(got) && got > 0);
		} else {
			CU_ASSERT_DOUBLE_EQUAL(got, cases[i].want, 1e-15);
		}
	}
}

/* A residual squares to its row's loss times the weight, and dr/df is
 * its derivative; a quadratic loss's q (f - y)^2 is the same again. */
static void
test_residuals_and_quadratic(void)
{
	static const double points[][2] = {{3, 2},   {1, 2}, {2.2, 2},
	                                   {0.5, 4}, {8, 1}, {1.04, 1}};
	const double w = 2.5, sw = sqrt(w), delta = 0.1, h = 1e-6;

	for (size_t k = 0; k < SF_LOSSES; k++) {
		const sf_loss_method *m = sf_loss_get((sf_loss)k);

		for (size_t p = 0; p < sizeof points / sizeof points[0]; p++) {
			double f = points[p][0], y = points[p][1];
			double loss = w * m->row(f, y, delta), r, g, r1, r2, g1;

			if (m->quadratic != NULL) {
				CU_ASSERT_DOUBLE_EQUAL(m->quadratic(w, y) *
				                           (f - y) * (f - y),
				                       loss, 1e-12 * loss);
			}
			if (m->residual == NULL)
				continue;
			m->residual(f, y, sw, delta, &r, &g);
			CU_ASSERT_DOUBLE_EQUAL(r * r, loss, 1e-12 * loss);
			m->residual(f + h, y, sw, delta, &r1, &g1);
			m->residual(f - h, y, sw, delta, &r2, &g1);
			CU_ASSERT_DOUBLE_EQUAL(g, (r1 - r2) / (2 * h),
			                       1e-6 * (1 + fabs(g)));
		}
	}
}

/* Names found, unknown ones refused with a suggestion (or none). */
static void
test_find(void)
{
	const char *names[SF_LOSSES], *near = "x";
	sf_loss loss = SF_LOSS_LOG;

	CU_ASSERT_EQUAL(sf_loss_names(names), SF_LOSSES);
	for (size_t k = 0; k < SF_LOSSES; k++) {
		CU_ASSERT_EQUAL(sf_loss_find(names[k], &loss, NULL), SF_OK);
		CU_ASSERT_EQUAL(loss, (sf_loss)k);
		CU_ASSERT_PTR_EQUAL(names[k], sf_loss_get(loss)->name);
	}
	loss = SF_LOSS_LOG;
	CU_ASSERT_EQUAL(sf_loss_find("sse2", &loss, &near), SF_ENAME);
	CU_ASSERT_EQUAL(loss, SF_LOSS_LOG); /* left alone */
	CU_ASSERT_STRING_EQUAL(near, "sse");
	CU_ASSERT_EQUAL(sf_loss_find("hubber", &loss, &near), SF_ENAME);
	CU_ASSERT_STRING_EQUAL(near, "huber");
	CU_ASSERT_EQUAL(sf_loss_find("quantile", &loss, &near), SF_ENAME);
	CU_ASSERT_PTR_NULL(near);
	CU_ASSERT_EQUAL(sf_loss_find("SSE", &loss, NULL), SF_ENAME);
	CU_ASSERT_EQUAL(sf_loss_find("", &loss, &near), SF_ENAME);
	CU_ASSERT_EQUAL(sf_loss_find(NULL, &loss, &near), SF_ENAME);
	CU_ASSERT_PTR_NULL(near);
	CU_ASSERT_EQUAL(loss, SF_LOSS_LOG);
}

/* 1 when list holds name as a whole word. */
static int
lists(const char *list, const char *name)
{
	size_t n = strlen(name);

	for (const char *p = strstr(list, name); p != NULL;
	     p = strstr(p + 1, name))
		if ((p == list || p[-1] == ' ') &&
		    (p[n] == '\0' || p[n] == ',' || p[n] == ' '))
			return 1;
	return 0;
}

/* The lists messages and help print: every name (or those needing
 * positive outputs) in table order, commas, "or" before the last. */
static void
test_list(void)
{
	char all[256], positive[256], small[10];
	size_t commas = 0, wanted = 0;

	sf_loss_list(all, sizeof all, 0);
	sf_loss_list(positive, sizeof positive, 1);
	CU_ASSERT_EQUAL(strncmp(all, "relative, sse, log, absolute", 28), 0);
	CU_ASSERT_EQUAL(strncmp(positive, "relative, log", 13), 0);
	for (size_t k = 0; k < SF_LOSSES; k++) {
		const sf_loss_method *m = sf_loss_get((sf_loss)k);

		CU_ASSERT(lists(all, m->name));
		CU_ASSERT_EQUAL(lists(positive, m->name), m->needs_positive);
		wanted += m->needs_positive;
	}
	for (const char *p = all; (p = strstr(p, ", ")) != NULL; p++)
		commas++;
	CU_ASSERT_EQUAL(commas, SF_LOSSES - 2);
	CU_ASSERT_PTR_NOT_NULL(strstr(all, " or "));
	CU_ASSERT_PTR_NULL(strstr(strstr(all, " or ") + 1, " or "));
	CU_ASSERT(wanted >= 2 && strstr(positive, " or ") != NULL);
	CU_ASSERT_STRING_EQUAL(sf_loss_list(small, sizeof small, 0),
	                       "relative,");
}

int
main(void)
{
	static CU_TestInfo tests[] = {
	    {"every row", test_rows},
	    {"row values", test_values},
	    {"residuals and quadratic forms", test_residuals_and_quadratic},
	    {"lookup by name", test_find},
	    {"lists of names", test_list},
	    CU_TEST_INFO_NULL,
	};
	static CU_SuiteInfo suites[] = {
	    {"loss", NULL, NULL, NULL, NULL, tests},
	    CU_SUITE_INFO_NULL,
	};
	return sf_test_main(suites);
}
