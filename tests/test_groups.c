/*
 * test_groups.c - rows split into groups by columns (input/groups.[ch]),
 * on tests/data/dataset/runs.csv (see test_dataset.c for its lines).  With
 * where keep == 1, output t_ms / 1000 and input p = nodes * gpus, the
 * kept rows are lines 3, 4, 5, 6, 7, 8, 13, 15; lines 10 (no output), 11
 * (output 0, not > 0 for the relative loss) and 12 (no nodes) are skipped
 * as unusable; lines 9 and 14 are filtered out.
 */
#include "input/groups.h"
#include "testing.h"

#include <math.h>

static const char *const model_yaml = "name: runs\n"
                                      "inputs:\n"
                                      "  p: nodes * gpus\n"
                                      "parameters:\n"
                                      "  a: {min: 0, max: 10}\n"
                                      "time: a / p\n"
                                      "data:\n"
                                      "  file: runs.csv\n"
                                      "  output: t_ms / 1000\n"
                                      "  where: keep == 1\n"
                                      "  by: model, nodes\n";

static int
open_runs(sf_test_problem *fx)
{
	return sf_test_problem_parse(fx, "dataset/model.yaml", model_yaml);
}

/* The file lines of group gr's usable rows, as "3 5 6". */
static void
group_lines(const sf_dataset *d, const sf_group *gr, char *buf, size_t n)
{
	size_t used = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < gr->nrows && used < n; i++)
		used +=
		    (size_t)snprintf(buf + used, n - used, "%s%d",
		                     i > 0 ? " " : "", d->lines[gr->rows[i]]);
}

static void
test_one_column(void)
{
	sf_test_problem fx;
	sf_groups *g = NULL;
	sf_error err;
	char lines[64];

	CU_ASSERT_FATAL(open_runs(&fx) == 0);
	CU_ASSERT_EQUAL_FATAL(sf_groups_split(fx.p.table, fx.p.data, "model",
	                                      NULL, NULL, &g, &err),
	                      SF_OK);
	CU_ASSERT_EQUAL_FATAL(g->count, 2);
	CU_ASSERT_EQUAL(g->ncolumns, 1);
	CU_ASSERT_STRING_EQUAL(g->columns[0], "model");
	CU_ASSERT_STRING_EQUAL(g->groups[0].label, "model=cnn");
	CU_ASSERT_STRING_EQUAL(g->groups[1].label, "model=rnn");
	CU_ASSERT(g->groups[0].key[0].is_text);
	CU_ASSERT_STRING_EQUAL(g->groups[0].key[0].text, "cnn");
	group_lines(fx.p.data, &g->groups[0], lines, sizeof lines);
	CU_ASSERT_STRING_EQUAL(lines, "3 4 5 6 13");
	CU_ASSERT_EQUAL(g->groups[0].skipped, 3); /* lines 10, 11, 12 */
	CU_ASSERT_EQUAL(g->groups[0].first_line, 3);
	group_lines(fx.p.data, &g->groups[1], lines, sizeof lines);
	CU_ASSERT_STRING_EQUAL(lines, "7 8 15");
	CU_ASSERT_EQUAL(g->groups[1].skipped, 0);
	sf_groups_free(g);
	sf_test_problem_close(&fx);
}

/* Two columns, one numeric with an empty cell: ordered by key, the empty
 * value last, a group of skipped rows only kept (with no usable row). */
static void
test_two_columns(void)
{
	static const struct {
		const char *label, *lines;
		size_t skipped;
	} want[] = {
	    {"model=cnn,nodes=1", "3 5 6", 0}, {"model=cnn,nodes=2", "4", 0},
	    {"model=cnn,nodes=4", "13", 2},    {"model=cnn,nodes=", "", 1},
	    {"model=rnn,nodes=1", "7 8", 0},   {"model=rnn,nodes=2", "15", 0},
	};
	sf_test_problem fx;
	sf_groups *g = NULL;
	sf_error err;
	char lines[64];

	CU_ASSERT_FATAL(open_runs(&fx) == 0);
	CU_ASSERT_EQUAL_FATAL(sf_groups_split(fx.p.table, fx.p.data,
	                                      " model ,nodes", NULL, NULL, &g,
	                                      &err),
	                      SF_OK);
	CU_ASSERT_EQUAL_FATAL(g->count, 6);
	for (size_t i = 0; i < 6; i++) {
		CU_ASSERT_STRING_EQUAL(g->groups[i].label, want[i].label);
		group_lines(fx.p.data, &g->groups[i], lines, sizeof lines);
		CU_ASSERT_STRING_EQUAL(lines, want[i].lines);
		CU_ASSERT_EQUAL(g->groups[i].skipped, want[i].skipped);
	}
	for (size_t i = 0; i < 6; i++)
		CU_ASSERT_EQUAL(sf_groups_find(g, want[i].label), i);
	CU_ASSERT_EQUAL(sf_groups_find(g, "model=cnn,nodes=3"), SIZE_MAX);
	CU_ASSERT(!g->groups[1].key[1].is_text);
	CU_ASSERT_EQUAL(g->groups[1].key[1].number, 2);
	CU_ASSERT(isnan(g->groups[3].key[1].number));
	sf_groups_free(g);
	sf_test_problem_close(&fx);
}

/* data.by is read with its position; errors name it. */
static void
test_errors(void)
{
	sf_test_problem fx;
	sf_groups *g = NULL;
	sf_error err;
	const sf_model *m;

	CU_ASSERT_FATAL(open_runs(&fx) == 0);
	m = fx.set->models[0];
	CU_ASSERT_STRING_EQUAL(m->by.text, "model, nodes");
	CU_ASSERT_EQUAL(m->by.line, 11);
	CU_ASSERT_EQUAL(m->by.column, 7);
	/* An unknown column: placed at its name in data.by, with a hint. */
	CU_ASSERT_EQUAL(sf_groups_split(fx.p.table, fx.p.data, "model, nods",
	                                m->path, &m->by, &g, &err),
	                SF_ENAME);
	CU_ASSERT_PTR_NULL(g);
	CU_ASSERT_EQUAL(err.line, 11);
	CU_ASSERT_EQUAL(err.column, 7 + 7);
	CU_ASSERT_PTR_NOT_NULL(strstr(err.message, "'nods'"));
	CU_ASSERT_PTR_NOT_NULL(strstr(err.message, "did you mean 'nodes'"));
	/* From the command line: no position, named --by. */
	CU_ASSERT_EQUAL(sf_groups_split(fx.p.table, fx.p.data, "modle", NULL,
	                                NULL, &g, &err),
	                SF_ENAME);
	CU_ASSERT_EQUAL(err.line, 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(err.message, "--by"));
	CU_ASSERT_PTR_NOT_NULL(strstr(err.message, "did you mean 'model'"));
	CU_ASSERT_EQUAL(sf_groups_split(fx.p.table, fx.p.data, "model,,nodes",
	                                NULL, NULL, &g, &err),
	                SF_ESYNTAX);
	CU_ASSERT_EQUAL(sf_groups_split(fx.p.table, fx.p.data, "model,model",
	                                NULL, NULL, &g, &err),
	                SF_ESYNTAX);
	CU_ASSERT_PTR_NOT_NULL(strstr(err.message, "twice"));
	CU_ASSERT_EQUAL(
	    sf_groups_split(fx.p.table, fx.p.data, "", NULL, NULL, &g, &err),
	    SF_ESYNTAX);
	sf_test_problem_close(&fx);
}

int
main(void)
{
	CU_TestInfo split[] = {
	    {"one text column", test_one_column},
	    {"two columns, an empty cell", test_two_columns},
	    {"errors", test_errors},
	    CU_TEST_INFO_NULL,
	};
	CU_SuiteInfo suites[] = {
	    {"groups", NULL, NULL, NULL, NULL, split},
	    CU_SUITE_INFO_NULL,
	};
	return sf_test_main(suites);
}
