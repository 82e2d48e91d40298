/*
 * test_override.c - the command line's --where, --output-column and
 * --input replace a model's data section: the texts replaced, the
 * filter dropped by an empty --where, errors in a replaced text placed
 * at the option ("--where: column 9"), and every error of the options
 * themselves.
 */
#include "input/csv.h"
#include "input/dataset.h"
#include "input/override.h"
#include "testing.h"

#include <string.h>

static const char model_yaml[] = "name: runs\n"
                                 "inputs:\n"
                                 "  p: gpus\n"
                                 "  n: nodes\n"
                                 "parameters:\n"
                                 "  a: {min: 0, max: 10}\n"
                                 "time: a * n / p\n"
                                 "data:\n"
                                 "  file: runs.csv\n"
                                 "  where: \"model == 'cnn'\"\n"
                                 "  output: t_ms\n";

static sf_model_set *
parse(void)
{
	sf_model_set *set = NULL;
	sf_error err;

	CU_ASSERT_FATAL(sf_model_parse(sf_test_data("dataset/model.yaml"),
	                               model_yaml, strlen(model_yaml), &set,
	                               NULL, NULL, &err) == SF_OK);
	return set;
}

/* Bind m to its data file; returns the status. */
static int
bind(const sf_model *m, sf_dataset **d, sf_error *err)
{
	sf_table *t = NULL;
	int rc;

	*d = NULL;
	CU_ASSERT_FATAL(sf_table_load(m->data_file, NULL, &t, err) == SF_OK);
	rc = sf_dataset_bind(m, t, 1, d, NULL, NULL, err);
	sf_table_free(t);
	return rc;
}

static void
test_replaced(void)
{
	sf_model_set *set = parse();
	sf_model *m = set->models[0];
	const char *inputs[] = {"p = nodes * 2", "n=gpus"};
	sf_data_override o = {"model == 'rnn'", "time (s)", inputs, 2};
	sf_dataset *all, *d;
	sf_error err;

	CU_ASSERT(sf_data_override_empty(NULL));
	CU_ASSERT_FALSE(sf_data_override_empty(&o));
	CU_ASSERT_EQUAL_FATAL(bind(m, &all, &err), SF_OK);
	CU_ASSERT_EQUAL_FATAL(sf_model_override(m, &o, &err), SF_OK);
	CU_ASSERT_STRING_EQUAL(m->where.text, "model == 'rnn'");
	CU_ASSERT_STRING_EQUAL(m->where.origin, "--where");
	CU_ASSERT_STRING_EQUAL(m->output.text, "time (s)");
	CU_ASSERT_STRING_EQUAL(m->output.origin, "--output-column");
	CU_ASSERT_STRING_EQUAL(m->inputs[0].expr.text, " nodes * 2");
	CU_ASSERT_STRING_EQUAL(m->inputs[0].expr.origin, "--input p");
	CU_ASSERT_STRING_EQUAL(m->inputs[1].expr.text, "gpus");
	CU_ASSERT_EQUAL_FATAL(bind(m, &d, &err), SF_OK);
	/* the other model's rows, p twice the nodes, n the gpus */
	CU_ASSERT(d->rows > 0);
	for (size_t r = 0; r < d->rows; r++) {
		const sf_dataset_input *p = sf_dataset_input_find(d, "p");
		const sf_dataset_input *n = sf_dataset_input_find(d, "n");

		CU_ASSERT(p->values[r] >= 2 && n->values[r] >= 1);
	}
	for (size_t r = 0; r < d->rows && r < all->rows; r++)
		CU_ASSERT(d->table_row[r] != all->table_row[r]);
	sf_dataset_free(d);
	/* an empty --where keeps every row */
	o = (sf_data_override){" ", NULL, NULL, 0};
	CU_ASSERT_EQUAL_FATAL(sf_model_override(m, &o, &err), SF_OK);
	CU_ASSERT_PTR_NULL(m->where.text);
	CU_ASSERT_EQUAL_FATAL(bind(m, &d, &err), SF_OK);
	CU_ASSERT_EQUAL(d->filtered_out, 0);
	CU_ASSERT(d->rows > all->rows);
	sf_dataset_free(d);
	sf_dataset_free(all);
	sf_model_set_free(set);
}

/* An error inside a replaced text points at the option. */
static void
test_error_at_option(void)
{
	sf_model_set *set = parse();
	sf_model *m = set->models[0];
	sf_data_override o = {"nodes > 1 && modle == 'cnn'", NULL, NULL, 0};
	sf_dataset *d;
	sf_error err;

	CU_ASSERT_EQUAL_FATAL(sf_model_override(m, &o, &err), SF_OK);
	CU_ASSERT_EQUAL(bind(m, &d, &err), SF_ENAME);
	CU_ASSERT_PTR_NULL(d);
	CU_ASSERT_STRING_EQUAL(err.file, "--where");
	CU_ASSERT_EQUAL(err.line, 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(err.message, "column 14: "));
	CU_ASSERT_PTR_NOT_NULL(strstr(err.message, "has no column 'modle'"));
	CU_ASSERT_PTR_NOT_NULL(strstr(err.message, "did you mean 'model'"));
	CU_ASSERT_STRING_EQUAL(err.source, "nodes > 1 && modle == 'cnn'");
	CU_ASSERT_EQUAL(err.source_column, 14);
	sf_model_set_free(set);
}

static void
test_bad_options(void)
{
	static const struct {
		const char *input, *file, *message;
		int code;
	} cases[] = {
	    {"p", "--input", "'p' is not NAME=EXPR", SF_ESYNTAX},
	    {"=gpus", "--input", "'=gpus' is not NAME=EXPR", SF_ESYNTAX},
	    {"p=  ", "--input", "'p=  ' is not NAME=EXPR", SF_ESYNTAX},
	    {"q=gpus", "--input",
	     "has no input 'q'; its inputs are: p, n; did you mean 'p'?",
	     SF_ENAME},
	};
	sf_model_set *set = parse();
	sf_error err;

	for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
		sf_data_override o = {NULL, NULL, &cases[k].input, 1};

		CU_ASSERT_EQUAL(sf_model_override(set->models[0], &o, &err),
		                cases[k].code);
		CU_ASSERT_STRING_EQUAL(err.file, cases[k].file);
		CU_ASSERT_PTR_NOT_NULL(strstr(err.message, cases[k].message));
	}
	{
		sf_data_override o = {NULL, "", NULL, 0};

		CU_ASSERT_EQUAL(sf_model_override(set->models[0], &o, &err),
		                SF_EVALUE);
		CU_ASSERT_STRING_EQUAL(err.file, "--output-column");
	}
	{
		/* one input twice: refused naming both, not the last kept */
		const char *twice[] = {"p=gpus", "n=n", "p =cores"};
		sf_data_override o = {NULL, NULL, twice, 3};

		CU_ASSERT_EQUAL(sf_model_override(set->models[0], &o, &err),
		                SF_EVALUE);
		CU_ASSERT_STRING_EQUAL(err.file, "--input");
		CU_ASSERT_PTR_NOT_NULL(strstr(err.message,
		                              "'p=gpus' and 'p =cores' both "
		                              "give input p"));
	}
	/* nothing replaced by the failed options */
	CU_ASSERT_STRING_EQUAL(set->models[0]->inputs[0].expr.text, "gpus");
	CU_ASSERT_PTR_NULL(set->models[0]->inputs[0].expr.origin);
	sf_model_set_free(set);
}

/* The split both --input options read: the name, blanks around it left
 * out, and the expression after the '='; no name, no '=', a blank
 * expression or a name too long for the buffer refused. */
static void
test_split(void)
{
	char name[8];
	const char *expr = NULL;

	CU_ASSERT_EQUAL(
	    sf_override_input_split(" p = nodes * 2", name, sizeof name, &expr),
	    SF_OK);
	CU_ASSERT_STRING_EQUAL(name, "p");
	CU_ASSERT_STRING_EQUAL(expr, " nodes * 2");
	CU_ASSERT_EQUAL(sf_override_input_split("p", name, sizeof name, &expr),
	                SF_ESYNTAX);
	CU_ASSERT_EQUAL(
	    sf_override_input_split(" =x", name, sizeof name, &expr),
	    SF_ESYNTAX);
	CU_ASSERT_EQUAL(
	    sf_override_input_split("p= \t", name, sizeof name, &expr),
	    SF_ESYNTAX);
	/* a name of seven bytes fits in eight, one of eight does not */
	CU_ASSERT_EQUAL(
	    sf_override_input_split("workers=w", name, sizeof name, &expr),
	    SF_OK);
	CU_ASSERT_STRING_EQUAL(name, "workers");
	CU_ASSERT_EQUAL(
	    sf_override_input_split("workerss=w", name, sizeof name, &expr),
	    SF_ESYNTAX);
}

int
main(void)
{
	CU_TestInfo tests[] = {
	    {"texts replaced; an empty --where keeps every row", test_replaced},
	    {"an error in a replaced text points at the option",
	     test_error_at_option},
	    {"bad --input and --output-column", test_bad_options},
	    {"NAME=EXPR split", test_split},
	    CU_TEST_INFO_NULL,
	};
	CU_SuiteInfo suites[] = {
	    {"override", NULL, NULL, NULL, NULL, tests},
	    CU_SUITE_INFO_NULL,
	};

	return sf_test_main(suites);
}
