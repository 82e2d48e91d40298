/*
 * test_fitplot.c - the chart of a fit (use/fitplot.c): its rows, their
 * predictions, errors, MAPE and worst row, the data's rows that are not
 * the fit's, the chart's elements, and the errors.
 *
 * The numbers are those of tests/data/fit/simple.json: at n = 1,
 * T(p) = 1 + 64 / p + p; its residuals observe 35.5 at p = 2 (predicted
 * 35), 20.5 at p = 4 (21), 17.2 at p = 8 (17), 21 at p = 16 (21), and a
 * row without a time (skipped).  The errors, predicted / observed - 1,
 * are -1.408%, +2.439%, -1.163% and 0: MAPE 1.2526%, the worst at p = 4.
 */
#include "input/csv.h"
#include "use/fitfile.h"
#include "use/fitplot.h"
#include "use/svg.h"
#include "testing.h"

#include <math.h>
#include <string.h>

#define CLOSE(x, y, tol) CU_ASSERT_DOUBLE_EQUAL((x), (y), (tol))

/* The table of CSV text, which must parse. */
static sf_table *
table_of(const char *text)
{
	sf_table *t = NULL;

	CU_ASSERT_EQUAL_FATAL(
	    sf_table_parse(text, strlen(text), "held.csv", NULL, &t, NULL),
	    SF_OK);
	return t;
}

/* How many times needle occurs in text. */
static size_t
count(const char *text, const char *needle)
{
	size_t n = 0;

	for (const char *at = text; (at = strstr(at, needle)) != NULL; at++)
		n++;
	return n;
}

/* The fit's own rows: predicted, their errors' MAPE and the worst. */
static void
test_fitted(void)
{
	sf_fitfile *f = sf_test_fitfile("fit/simple.json");
	sf_fitplot *p = NULL;

	CU_ASSERT_EQUAL_FATAL(sf_fitplot_new(f, NULL, &p, NULL), SF_OK);
	CU_ASSERT_EQUAL(p->fitted.n, 4);
	CU_ASSERT_EQUAL(p->held.n, 0);
	CLOSE(p->fitted.predicted[0], 35, 1e-9);
	CLOSE(p->fitted.predicted[2], 17, 1e-9);
	CLOSE(p->fitted.mape,
	      100 * (0.5 / 35.5 + 0.5 / 20.5 + 0.2 / 17.2 + 0) / 4, 1e-9);
	CU_ASSERT_EQUAL(p->fitted.worst, 1);
	sf_fitplot_free(p);
	sf_fitfile_free(f);
}

/* The data's rows: a fitted row is not drawn again, a row without a time
 * is skipped, the others predicted. */
static void
test_held(void)
{
	sf_fitfile *f = sf_test_fitfile("fit/simple.json");
	sf_table *t = table_of("p,n,epoch_s\n2,1,35.5\n32,1,40\n64,1,66\n"
	                       "8,1,\n");
	sf_fitplot *p = NULL;

	CU_ASSERT_EQUAL_FATAL(sf_fitplot_new(f, t, &p, NULL), SF_OK);
	CU_ASSERT_EQUAL_FATAL(p->held.n, 2);
	/* input-major: p's column, then n's */
	CLOSE(p->held.inputs[0], 32, 0);
	CLOSE(p->held.inputs[1], 64, 0);
	CLOSE(p->held.inputs[2], 1, 0);
	CLOSE(p->held.inputs[3], 1, 0);
	CLOSE(p->held.predicted[0], 35, 1e-9);
	CLOSE(p->held.predicted[1], 66, 1e-9);
	CLOSE(p->held.mape, 100 * (5.0 / 40) / 2, 1e-9);
	CU_ASSERT_EQUAL(p->held.worst, 0);
	sf_fitplot_free(p);
	sf_table_free(t);
	sf_fitfile_free(f);
}

/* The chart: the diagonal, a panel of errors for p (n never varies), the
 * data's rows as rings in both panels, the legend's counts. */
static void
test_chart(void)
{
	sf_fitfile *f = sf_test_fitfile("fit/simple.json");
	sf_table *t = table_of("p,n,epoch_s\n32,1,40\n64,1,66\n");
	sf_fitplot *p = NULL;
	sf_svg *svg = NULL;
	const char *text;

	CU_ASSERT_EQUAL_FATAL(sf_fitplot_new(f, t, &p, NULL), SF_OK);
	CU_ASSERT_EQUAL_FATAL(sf_fitplot_draw(p, &svg, NULL), SF_OK);
	text = sf_svg_text_of(svg, NULL);
	CU_ASSERT_PTR_NOT_NULL_FATAL(text);
	CU_ASSERT_EQUAL(count(text, "class=\"diagonal\""), 1);
	CU_ASSERT_EQUAL(count(text, "class=\"errors\""), 1);
	CU_ASSERT_EQUAL(count(text, "class=\"held\""), 4);
	CU_ASSERT_PTR_NOT_NULL(strstr(text, ">fitted: 4 rows, MAPE 1.25%<"));
	CU_ASSERT_PTR_NOT_NULL(
	    strstr(text, ">not fitted: 2 rows, MAPE 6.25%<"));
	CU_ASSERT_PTR_NOT_NULL(
	    strstr(text, ">simple: observed against predicted epoch_s<"));
	CU_ASSERT_PTR_NOT_NULL(strstr(text, ">p (workers)<"));
	CU_ASSERT_PTR_NULL(strstr(text, ">n (samples)<"));
	sf_svg_free(svg);
	sf_fitplot_free(p);
	sf_table_free(t);
	sf_fitfile_free(f);
}

/* What is refused: no column for the output or an input, text where a
 * number belongs, and nothing to draw. */
static void
test_errors(void)
{
	sf_fitfile *f = sf_test_fitfile("fit/simple.json");
	sf_fitfile *bare = NULL;
	static const char bare_text[] =
	    "{\"model\": {\"time\": \"a\", \"terms\": {}, \"inputs\": "
	    "{\"p\": \"p\"}, \"output\": \"t\"},\n \"parameters\": {\"a\": "
	    "{\"value\": 1}}}";
	static const struct {
		const char *csv;
		int code;
		const char *message;
	} cases[] = {
	    {"p,n,time\n32,1,40\n", SF_ENAME, "no column 'epoch_s'"},
	    {"p,epoch_s\n32,40\n", SF_ENAME, "n"},
	    {"p,n,epoch_s\nmany,1,40\n", SF_ETYPE, "p"},
	    {"p,n,epoch_s\n32,1,slow\n", SF_ETYPE, "holds text"},
	};
	sf_fitplot *p = NULL;
	sf_error err;

	for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
		sf_table *t = table_of(cases[k].csv);

		sf_error_clear(&err);
		CU_ASSERT_EQUAL(sf_fitplot_new(f, t, &p, &err), cases[k].code);
		CU_ASSERT_PTR_NULL(p);
		CU_ASSERT_PTR_NOT_NULL(strstr(err.message, cases[k].message));
		CU_ASSERT_STRING_EQUAL(err.file, "held.csv");
		sf_table_free(t);
	}
	CU_ASSERT_EQUAL_FATAL(sf_fitfile_parse(bare_text, strlen(bare_text),
	                                       "bare.json", &bare, NULL),
	                      SF_OK);
	CU_ASSERT_EQUAL(sf_fitplot_new(bare, NULL, &p, &err), SF_EVALUE);
	CU_ASSERT_PTR_NULL(p);
	CU_ASSERT_PTR_NOT_NULL(strstr(err.message, "no row to draw"));
	sf_fitfile_free(bare);
	sf_fitfile_free(f);
}

int
main(void)
{
	static CU_TestInfo tests[] = {
	    {"the fit's rows", test_fitted},
	    {"the data's rows not fitted", test_held},
	    {"the chart", test_chart},
	    {"errors", test_errors},
	    CU_TEST_INFO_NULL,
	};
	static CU_SuiteInfo suites[] = {
	    {"fitplot", NULL, NULL, NULL, NULL, tests},
	    CU_SUITE_INFO_NULL,
	};

	return sf_test_main(suites);
}
