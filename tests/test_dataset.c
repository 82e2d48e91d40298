/*
 * test_dataset.c - a model's data: and inputs: applied to a table
 * (input/dataset.[ch]), on tests/data/dataset/runs.csv (line numbers are
 * the file's):
 *
 *   line  model nodes gpus t_ms  w   keep
 *    3    cnn   1     1    1000  1   1
 *    4    cnn   2     1     600  1   1
 *    5    cnn   1     1    1200  0.5 1
 *    6    cnn   1     1    1100  2   1
 *    7    rnn   1     1    2000  1   1
 *    8    rnn   1     2    1100  1   1
 *    9    cnn   2     1     700  1   0     filtered out by keep == 1
 *   10    cnn   4     1          1   1     no output
 *   11    cnn   4     1       0  1   1     output 0: not > 0
 *   12    cnn         1     300  1   1     no input p = nodes * gpus
 *   13    cnn   4     1     300  -1  1     a negative weight
 *   14    cnn   4     1     350  1         keep == 1 is 0: filtered out
 *   15    rnn   2     2     500  1   1
 *
 * With output t_ms / 1000, inputs p = nodes * gpus, n = nodes, m = model
 * (a text input: cnn is 0, rnn 1) and where keep == 1 (0 where keep is
 * empty: a comparison with NaN is false), the kept rows are
 * lines 3, 4, 5, 6, 7, 8, 13, 15, and their configurations (identical p,
 * n, m), numbered by first appearance: {3, 5, 6} (1, 1, cnn), {4}, {7},
 * {8}, {13}, {15}.  The first has outputs 1, 1.2, 1.1: mean 1.1, sample
 * standard deviation 0.1.
 */
#include "input/csv.h"
#include "input/dataset.h"
#include "input/model.h"
#include "testing.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* A model of runs.csv (as the file tests/data/dataset/model.yaml):
 *
 *    1  name: runs
 *    2  inputs:
 *    3    p: P                   (P at column 6)
 *    4    n: nodes
 *    5    m: model
 *    6  parameters:
 *    7    a: {min: 0, max: 10}
 *    8  time: a * n / p
 *    9  data:
 *   10    file: FILE
 *   11    output: OUTPUT         (at column 11; the line left out if NULL)
 *   12    where: WHERE           (at column 10; when given)
 *   13    weight: WEIGHT         (at column 11; line 12 without where)
 */
static void
model_text(char *buf, size_t size, const char *file, const char *p,
           const char *output, const char *where, const char *weight)
{
	int n = snprintf(buf, size,
	                 "name: runs\n"
	                 "inputs:\n"
	                 "  p: %s\n"
	                 "  n: nodes\n"
	                 "  m: model\n"
	                 "parameters:\n"
	                 "  a: {min: 0, max: 10}\n"
	                 "time: a * n / p\n"
	                 "data:\n"
	                 "  file: %s\n",
	                 p, file);

	if (output != NULL)
		n += snprintf(buf + n, size - (size_t)n, "  output: %s\n",
		              output);
	if (where != NULL)
		n +=
		    snprintf(buf + n, size - (size_t)n, "  where: %s\n", where);
	if (weight != NULL)
		snprintf(buf + n, size - (size_t)n, "  weight: %s\n", weight);
}

/* The model and data path of the last bind, for checking positions. */
static char model_path[4096], data_path[4096];

/*
 * Bind the model of model_text() to its table.  The model and table are
 * freed before returning, so the dataset must own its copies.  Returns the
 * status; warnings go to ws.
 */
static int
bind(const char *file, const char *p, const char *output, const char *where,
     const char *weight, int positive, sf_dataset **out, sf_test_warnings *ws,
     sf_error *err)
{
	char yaml[2048];
	sf_model_set *set = NULL;
	sf_table *t = NULL;
	int rc;

	*out = NULL;
	memset(ws, 0, sizeof *ws);
	sf_error_clear(err);
	model_text(yaml, sizeof yaml, file, p, output, where, weight);
	snprintf(model_path, sizeof model_path, "%s",
	         sf_test_data("dataset/model.yaml"));
	rc = sf_model_parse(model_path, yaml, strlen(yaml), &set, NULL, NULL,
	                    err);
	CU_ASSERT_EQUAL_FATAL(rc, SF_OK);
	snprintf(data_path, sizeof data_path, "%s", set->models[0]->data_file);
	rc = sf_table_load(data_path, NULL, &t, err);
	CU_ASSERT_EQUAL_FATAL(rc, SF_OK);
	rc = sf_dataset_bind(set->models[0], t, positive, out, sf_test_warn, ws,
	                     err);
	CU_ASSERT_EQUAL(*out != NULL, rc == SF_OK);
	if (rc == SF_OK) {
		CU_ASSERT_STRING_EQUAL((*out)->sha256, sf_table_sha256(t));
		CU_ASSERT_STRING_EQUAL((*out)->file, sf_table_file(t));
	}
	sf_table_free(t);
	sf_model_set_free(set);
	return rc;
}

static int
close_to(double x, double want, double rel)
{
	return fabs(x - want) <= rel * fabs(want);
}

/* ---- the rows kept ------------------------------------------------------- */

static void
test_kept_rows(void)
{
	static const int lines[] = {3, 4, 5, 6, 7, 8, 13, 15};
	static const size_t table_row[] = {0, 1, 2, 3, 4, 5, 10, 12};
	static const double output[] = {1, 0.6, 1.2, 1.1, 2, 1.1, 0.3, 0.5};
	static const double p[] = {1, 2, 1, 1, 1, 2, 4, 4};
	static const double n[] = {1, 2, 1, 1, 1, 1, 4, 2};
	static const double m[] = {0, 0, 0, 0, 1, 1, 0, 1};
	sf_dataset *d;
	sf_test_warnings ws;
	sf_error err;

	CU_ASSERT_EQUAL_FATAL(bind("runs.csv", "nodes * gpus", "t_ms / 1000",
	                           "keep == 1", NULL, 1, &d, &ws, &err),
	                      SF_OK);
	CU_ASSERT_EQUAL(d->table_rows, 13);
	CU_ASSERT_EQUAL(d->filtered_out, 2); /* lines 9 and 14 */
	CU_ASSERT_EQUAL(d->skipped, 3);      /* lines 10, 11, 12 */
	CU_ASSERT_EQUAL_FATAL(d->rows, 8);
	CU_ASSERT_PTR_NULL(d->weight);
	CU_ASSERT_EQUAL(strlen(d->sha256), 64);
	CU_ASSERT_EQUAL_FATAL(d->ninputs, 3);
	CU_ASSERT_STRING_EQUAL(d->inputs[0].name, "p");
	CU_ASSERT_STRING_EQUAL(d->inputs[1].name, "n");
	CU_ASSERT_STRING_EQUAL(d->inputs[2].name, "m");
	CU_ASSERT_PTR_NULL(d->inputs[0].levels);
	CU_ASSERT_EQUAL(d->inputs[0].nlevels, 0);
	CU_ASSERT_EQUAL_FATAL(d->inputs[2].nlevels, 2);
	CU_ASSERT_STRING_EQUAL(d->inputs[2].levels[0], "cnn");
	CU_ASSERT_STRING_EQUAL(d->inputs[2].levels[1], "rnn");
	for (size_t i = 0; i < 8; i++) {
		CU_ASSERT_EQUAL(d->lines[i], lines[i]);
		CU_ASSERT_EQUAL(d->table_row[i], table_row[i]);
		CU_ASSERT_EQUAL(d->output[i], output[i]);
		CU_ASSERT_EQUAL(d->inputs[0].values[i], p[i]);
		CU_ASSERT_EQUAL(d->inputs[1].values[i], n[i]);
		CU_ASSERT_EQUAL(d->inputs[2].values[i], m[i]);
	}
	CU_ASSERT_PTR_EQUAL(sf_dataset_input_find(d, "n"), &d->inputs[1]);
	CU_ASSERT_PTR_EQUAL(sf_dataset_input_find(d, "m"), &d->inputs[2]);
	CU_ASSERT_PTR_NULL(sf_dataset_input_find(d, "nodes"));
	sf_dataset_free(d);
	sf_dataset_free(NULL);
}

/* Each skipped row is reported at FILE:LINE, and the rows the filter
 * could not decide are counted. */
static void
test_skipped_rows(void)
{
	static const struct {
		int line;
		const char *message;
	} want[] = {
	    {10, "row skipped: the output t_ms / 1000 is nan"},
	    {11, NULL}, /* the output of 0: the loss's message below */
	    {12, "row skipped: input 'p' is nan (an empty cell, or a domain "
	         "error in its expression)"},
	};
	sf_dataset *d;
	sf_test_warnings ws;
	sf_error err;
	char losses[128], message[256];

	sf_loss_list(losses, sizeof losses, 1);
	CU_ASSERT_EQUAL_FATAL(bind("runs.csv", "nodes * gpus", "t_ms / 1000",
	                           "keep == 1", NULL, 1, &d, &ws, &err),
	                      SF_OK);
	CU_ASSERT_EQUAL_FATAL(ws.count, 3);
	for (size_t k = 0; k < 3; k++) {
		CU_ASSERT_EQUAL(ws.w[k].code, SF_OK);
		CU_ASSERT_STRING_EQUAL(ws.w[k].file, data_path);
		CU_ASSERT_EQUAL(ws.w[k].line, want[k].line);
		CU_ASSERT_EQUAL(ws.w[k].column, 0);
		/* the losses named are those needing outputs > 0 */
		snprintf(message, sizeof message,
		         "row skipped: the output t_ms / 1000 is 0; the loss "
		         "(%s) needs measurements > 0",
		         losses);
		CU_ASSERT_STRING_EQUAL(ws.w[k].message, want[k].message != NULL
		                                            ? want[k].message
		                                            : message);
	}
	sf_dataset_free(d);

	/* Without positive an output of 0 is a measurement like any other */
	CU_ASSERT_EQUAL_FATAL(bind("runs.csv", "nodes * gpus", "t_ms / 1000",
	                           "keep == 1", NULL, 0, &d, &ws, &err),
	                      SF_OK);
	CU_ASSERT_EQUAL(d->rows, 9);
	CU_ASSERT_EQUAL(d->skipped, 2);
	CU_ASSERT_EQUAL(d->lines[6], 11);
	CU_ASSERT_EQUAL(d->output[6], 0);
	CU_ASSERT_EQUAL(ws.count, 2);
	sf_dataset_free(d);

	/* A domain error in an input: log(nodes - 1) is -inf where nodes is
	 * 1, NaN where nodes is empty */
	CU_ASSERT_EQUAL_FATAL(bind("runs.csv", "log(nodes - 1)", "t_ms / 1000",
	                           NULL, NULL, 1, &d, &ws, &err),
	                      SF_OK);
	CU_ASSERT_EQUAL(d->filtered_out, 0);
	CU_ASSERT_STRING_EQUAL(ws.w[0].message,
	                       "row skipped: input 'p' is -inf (an empty cell, "
	                       "or a domain error in its expression)");
	CU_ASSERT_EQUAL(ws.w[0].line, 3);
	/* kept: lines 4, 9, 13, 14, 15 (nodes 2, 2, 4, 4, 2) */
	CU_ASSERT_EQUAL_FATAL(d->rows, 5);
	CU_ASSERT_EQUAL(d->lines[0], 4);
	CU_ASSERT_EQUAL(d->lines[1], 9);
	CU_ASSERT_EQUAL(d->lines[2], 13);
	CU_ASSERT_EQUAL(d->lines[3], 14);
	CU_ASSERT_EQUAL(d->lines[4], 15);
	CU_ASSERT_EQUAL(d->inputs[0].values[0], 0); /* log(1) */
	CU_ASSERT_EQUAL(d->inputs[0].values[2], log(3.0));
	sf_dataset_free(d);
}

/* After five rows, the rest are counted in one warning. */
static void
test_many_skipped_rows(void)
{
	sf_dataset *d;
	sf_test_warnings ws;
	sf_error err;
	char losses[128], message[256];

	/* t_ms - 5000 is negative (or NaN) on all 13 rows */
	CU_ASSERT_EQUAL(bind("runs.csv", "nodes * gpus", "t_ms - 5000", NULL,
	                     NULL, 1, &d, &ws, &err),
	                SF_EVALUE);
	CU_ASSERT_PTR_NULL(d);
	CU_ASSERT_EQUAL_FATAL(ws.count, 6);
	for (size_t k = 0; k < 5; k++)
		CU_ASSERT_EQUAL(ws.w[k].line, 3 + (int)k);
	snprintf(message, sizeof message,
	         "row skipped: the output t_ms - 5000 is -4000; the loss (%s) "
	         "needs measurements > 0",
	         sf_loss_list(losses, sizeof losses, 1));
	CU_ASSERT_STRING_EQUAL(ws.w[0].message, message);
	CU_ASSERT_EQUAL(ws.w[5].line, 0);
	CU_ASSERT_STRING_EQUAL(ws.w[5].message,
	                       "8 more rows skipped for the same reasons");
	CU_ASSERT_EQUAL(err.code, SF_EVALUE);
	CU_ASSERT_STRING_EQUAL(err.file, data_path);
	CU_ASSERT_EQUAL(err.line, 0);
	CU_ASSERT_STRING_EQUAL(err.message,
	                       "no rows left to fit: of 13 rows, the where "
	                       "filter dropped 0 and 13 were unusable");
}

static void
test_weights(void)
{
	static const double w[] = {1, 1, 0.5, 2, 1, 1, 1};
	sf_dataset *d;
	sf_test_warnings ws;
	sf_error err;

	CU_ASSERT_EQUAL_FATAL(bind("runs.csv", "nodes * gpus", "t_ms / 1000",
	                           "keep == 1", "w", 1, &d, &ws, &err),
	                      SF_OK);
	/* line 13's weight is -1 */
	CU_ASSERT_EQUAL_FATAL(d->rows, 7);
	CU_ASSERT_EQUAL(d->skipped, 4);
	CU_ASSERT_EQUAL(d->lines[6], 15);
	CU_ASSERT_PTR_NOT_NULL_FATAL(d->weight);
	for (size_t i = 0; i < 7; i++)
		CU_ASSERT_EQUAL(d->weight[i], w[i]);
	CU_ASSERT_EQUAL_FATAL(ws.count, 4);
	CU_ASSERT_EQUAL(ws.w[3].line, 13);
	CU_ASSERT_STRING_EQUAL(ws.w[3].message,
	                       "row skipped: its weight (w) is -1; a weight "
	                       "must be finite and >= 0");
	sf_dataset_free(d);

	/* an expression, and 0 is a valid weight */
	CU_ASSERT_EQUAL_FATAL(bind("runs.csv", "nodes * gpus", "t_ms / 1000",
	                           "keep == 1", "(w - 1) * 2", 1, &d, &ws,
	                           &err),
	                      SF_OK);
	/* and line 5 (weight (0.5 - 1) * 2 < 0) goes too */
	CU_ASSERT_EQUAL_FATAL(d->rows, 6);
	CU_ASSERT_EQUAL(d->weight[0], 0);
	CU_ASSERT_EQUAL(d->lines[2], 6);
	CU_ASSERT_EQUAL(d->weight[2], 2);
	sf_dataset_free(d);
}

/* An output or input that is exactly a column's name takes the column
 * whole, even when the name is not a name of the language. */
static void
test_whole_columns(void)
{
	sf_dataset *d;
	sf_test_warnings ws;
	sf_error err;

	CU_ASSERT_EQUAL_FATAL(bind("runs.csv", "\" nodes \"", "time (s)", NULL,
	                           NULL, 0, &d, &ws, &err),
	                      SF_OK);
	/* only line 12 (no nodes) is skipped */
	CU_ASSERT_EQUAL_FATAL(d->rows, 12);
	CU_ASSERT_EQUAL(d->skipped, 1);
	CU_ASSERT_EQUAL(d->output[0], 1);
	CU_ASSERT_EQUAL(d->output[1], 0.6);
	CU_ASSERT_EQUAL(d->output[8], 0); /* line 11 */
	CU_ASSERT_EQUAL(d->output[11], 0.5);
	CU_ASSERT_EQUAL(d->inputs[0].values[1], 2);
	sf_dataset_free(d);

	/* without data.output, the column named time */
	CU_ASSERT_EQUAL_FATAL(
	    bind("timed.csv", "nodes", NULL, NULL, NULL, 1, &d, &ws, &err),
	    SF_OK);
	CU_ASSERT_EQUAL_FATAL(d->rows, 2);
	CU_ASSERT_EQUAL(d->output[0], 2);
	CU_ASSERT_EQUAL(d->output[1], 3);
	CU_ASSERT_EQUAL(d->lines[0], 3);
	sf_dataset_free(d);
}

/* ---- configurations ------------------------------------------------------ */

static void
test_configurations(void)
{
	static const size_t config[] = {0, 1, 0, 0, 2, 3, 4, 5};
	static const size_t first[] = {0, 1, 4, 5, 6, 7};
	static const size_t count[] = {3, 1, 1, 1, 1, 1};
	static const double mean[] = {1.1, 0.6, 2, 1.1, 0.3, 0.5};
	sf_dataset *d;
	sf_test_warnings ws;
	sf_error err;
	size_t repeated, most;
	double cv;

	CU_ASSERT_EQUAL_FATAL(bind("runs.csv", "nodes * gpus", "t_ms / 1000",
	                           "keep == 1", NULL, 1, &d, &ws, &err),
	                      SF_OK);
	CU_ASSERT_EQUAL_FATAL(d->nconfigs, 6);
	for (size_t i = 0; i < d->rows; i++)
		CU_ASSERT_EQUAL(d->config[i], config[i]);
	for (size_t c = 0; c < 6; c++) {
		CU_ASSERT_EQUAL(d->configs[c].first_row, first[c]);
		CU_ASSERT_EQUAL(d->configs[c].count, count[c]);
		CU_ASSERT(close_to(d->configs[c].mean, mean[c], 1e-15));
		if (c > 0)
			CU_ASSERT_EQUAL(d->configs[c].sd, 0);
	}
	/* (1, 1.2, 1.1): deviations -0.1, 0.1, 0; sqrt(0.02 / 2) */
	CU_ASSERT(close_to(d->configs[0].sd, 0.1, 1e-13));
	sf_dataset_repetitions(d, &repeated, &most, &cv);
	CU_ASSERT_EQUAL(repeated, 1);
	CU_ASSERT_EQUAL(most, 3);
	CU_ASSERT(close_to(cv, 0.1 / 1.1, 1e-13));
	sf_dataset_free(d);
}

/* ---- selections ------------------------------------------------------------
 */

static void
test_select(void)
{
	/* rows 4, 0, 0, 3: lines 7, 3, 3, 6 */
	static const size_t rows[] = {4, 0, 0, 3};
	sf_dataset *d, *s;
	sf_test_warnings ws;
	sf_error err;
	size_t repeated, most;
	double cv;

	CU_ASSERT_EQUAL_FATAL(bind("runs.csv", "nodes * gpus", "t_ms / 1000",
	                           "keep == 1", "w", 1, &d, &ws, &err),
	                      SF_OK);
	CU_ASSERT_EQUAL_FATAL(sf_dataset_select(d, rows, 4, &s, &err), SF_OK);
	CU_ASSERT_EQUAL_FATAL(s->rows, 4);
	CU_ASSERT_STRING_EQUAL(s->file, d->file);
	CU_ASSERT_STRING_EQUAL(s->sha256, d->sha256);
	CU_ASSERT_EQUAL(s->table_rows, 13);
	CU_ASSERT_EQUAL(s->lines[0], 7);
	CU_ASSERT_EQUAL(s->lines[1], 3);
	CU_ASSERT_EQUAL(s->lines[2], 3);
	CU_ASSERT_EQUAL(s->lines[3], 6);
	CU_ASSERT_EQUAL(s->table_row[0], 4);
	CU_ASSERT_EQUAL(s->table_row[3], 3);
	CU_ASSERT_EQUAL(s->output[0], 2);
	CU_ASSERT_EQUAL(s->output[3], 1.1);
	CU_ASSERT_PTR_NOT_NULL_FATAL(s->weight);
	CU_ASSERT_EQUAL(s->weight[0], 1);
	CU_ASSERT_EQUAL(s->weight[3], 2);
	CU_ASSERT_EQUAL_FATAL(s->ninputs, 3);
	CU_ASSERT_STRING_EQUAL(s->inputs[1].name, "n");
	CU_ASSERT_EQUAL(s->inputs[2].values[0], 1); /* rnn */
	CU_ASSERT_EQUAL(s->inputs[2].values[1], 0);
	CU_ASSERT_EQUAL_FATAL(s->inputs[2].nlevels, 2);
	CU_ASSERT_STRING_EQUAL(s->inputs[2].levels[1], "rnn");
	CU_ASSERT_PTR_NULL(s->inputs[0].levels);
	/* regrouped: (1, 1, rnn) then (1, 1, cnn) three times */
	CU_ASSERT_EQUAL_FATAL(s->nconfigs, 2);
	CU_ASSERT_EQUAL(s->config[0], 0);
	CU_ASSERT_EQUAL(s->config[1], 1);
	CU_ASSERT_EQUAL(s->config[3], 1);
	CU_ASSERT_EQUAL(s->configs[1].first_row, 1);
	CU_ASSERT_EQUAL(s->configs[1].count, 3);
	CU_ASSERT(close_to(s->configs[1].mean, 3.1 / 3, 1e-15));
	sf_dataset_free(d);
	/* the selection owns its copies */
	CU_ASSERT_EQUAL(s->lines[3], 6);
	CU_ASSERT_STRING_EQUAL(s->inputs[2].levels[0], "cnn");

	/* two repeated configurations: cv 0.2 / sqrt(2) / 1.1 and 0; the
	 * median of two is their mean */
	{
		static const size_t one[] = {0}, two[] = {0, 1, 1, 2};
		sf_dataset *t;

		CU_ASSERT_EQUAL_FATAL(sf_dataset_select(s, one, 1, &t, &err),
		                      SF_OK);
		sf_dataset_repetitions(t, &repeated, &most, &cv);
		CU_ASSERT_EQUAL(repeated, 0);
		CU_ASSERT_EQUAL(most, 1);
		CU_ASSERT(isnan(cv));
		sf_dataset_free(t);
		CU_ASSERT_EQUAL_FATAL(bind("runs.csv", "nodes * gpus",
		                           "t_ms / 1000", "keep == 1", NULL, 1,
		                           &d, &ws, &err),
		                      SF_OK);
		CU_ASSERT_EQUAL_FATAL(sf_dataset_select(d, two, 4, &t, &err),
		                      SF_OK);
		CU_ASSERT_PTR_NULL(t->weight);
		sf_dataset_repetitions(t, &repeated, &most, &cv);
		CU_ASSERT_EQUAL(repeated, 2);
		CU_ASSERT_EQUAL(most, 2);
		CU_ASSERT(close_to(cv, 0.2 / sqrt(2) / 1.1 / 2, 1e-13));
		sf_dataset_free(t);
		sf_dataset_free(d);
	}

	/* no rows */
	sf_error_clear(&err);
	{
		sf_dataset *t = (sf_dataset *)1;

		CU_ASSERT_EQUAL(sf_dataset_select(s, rows, 0, &t, &err),
		                SF_EVALUE);
		CU_ASSERT_PTR_NULL(t);
		CU_ASSERT_EQUAL(err.code, SF_EVALUE);
		CU_ASSERT_STRING_EQUAL(err.message, "no rows selected");
	}
	sf_dataset_free(s);
}

/* ---- errors, placed in the model file ------------------------------------ */

static void
test_errors(void)
{
	static const struct {
		const char *file, *p, *output, *where, *weight;
		int code, line, column;
		const char *message; /* a part of it */
	} cases[] = {
	    /* an unknown column, with a suggestion */
	    {"runs.csv", "nodes", "t_ms", "kep == 1", NULL, SF_ENAME, 12, 10,
	     "'keep'"},
	    {"runs.csv", "nodez * gpus", "t_ms", NULL, NULL, SF_ENAME, 3, 6,
	     "'nodes'"},
	    {"runs.csv", "nodes", "t_ms", NULL, "w * modl", SF_ENAME, 12, 15,
	     "'model'"},
	    /* a formula's names are not columns */
	    {"runs.csv", "nodes", "t_ms", "a > 0", NULL, SF_ENAME, 12, 10,
	     "'a'"},
	    /* syntax: the second '/' */
	    {"runs.csv", "nodes", "t_ms / / 1000", NULL, NULL, SF_ESYNTAX, 11,
	     18, ""},
	    /* a text column as the output, or in arithmetic */
	    {"runs.csv", "nodes", "model", NULL, NULL, SF_ETYPE, 11, 11, ""},
	    {"runs.csv", "model + 1", "t_ms", NULL, NULL, SF_ETYPE, 3, 6, ""},
	    /* no output and no column named time */
	    {"runs.csv", "nodes", NULL, NULL, NULL, SF_ENAME, 0, 0,
	     "has no column named 'time'"},
	};

	for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
		sf_dataset *d = (sf_dataset *)1;
		sf_test_warnings ws;
		sf_error err;
		int rc =
		    bind(cases[k].file, cases[k].p, cases[k].output,
		         cases[k].where, cases[k].weight, 1, &d, &ws, &err);

		if (rc != cases[k].code || err.line != cases[k].line ||
		    err.column != cases[k].column ||
		    strstr(err.message, cases[k].message) == NULL)
			fprintf(stderr, "\ncase %zu: %d %s:%d:%d: %s\n", k, rc,
			        err.file, err.line, err.column, err.message);
		CU_ASSERT_EQUAL(rc, cases[k].code);
		CU_ASSERT_EQUAL(err.code, cases[k].code);
		CU_ASSERT_PTR_NULL(d);
		CU_ASSERT_STRING_EQUAL(err.file, model_path);
		CU_ASSERT_EQUAL(err.line, cases[k].line);
		CU_ASSERT_EQUAL(err.column, cases[k].column);
		CU_ASSERT_PTR_NOT_NULL(strstr(err.message, cases[k].message));
		/* a position in the file is shown with its line */
		if (cases[k].line > 0)
			CU_ASSERT(err.source[0] != '\0');
	}
}

/* A filter that keeps nothing: SF_EVALUE, placed in the data file. */
static void
test_nothing_left(void)
{
	sf_dataset *d;
	sf_test_warnings ws;
	sf_error err;

	CU_ASSERT_EQUAL(bind("runs.csv", "nodes", "t_ms", "keep == 2", NULL, 1,
	                     &d, &ws, &err),
	                SF_EVALUE);
	CU_ASSERT_PTR_NULL(d);
	CU_ASSERT_STRING_EQUAL(err.file, data_path);
	CU_ASSERT_EQUAL(err.line, 0);
	CU_ASSERT_STRING_EQUAL(err.message,
	                       "no rows left to fit: of 13 rows, the where "
	                       "filter dropped 13 and 0 were unusable");
	CU_ASSERT_EQUAL(ws.count, 0);
}

/* An unknown name is a column the data lacks: the message lists the
 * columns and the nearest, the position stays in the model file. */
static void
test_missing_column(void)
{
	sf_dataset *d;
	sf_test_warnings ws;
	sf_error err;

	CU_ASSERT_EQUAL(
	    bind("runs.csv", "nodez", "t_ms", NULL, NULL, 1, &d, &ws, &err),
	    SF_ENAME);
	CU_ASSERT_STRING_EQUAL(err.file, model_path);
	CU_ASSERT_EQUAL(err.line, 3);
	CU_ASSERT_PTR_NOT_NULL(strstr(err.message, "runs.csv has no column "
	                                           "'nodez'; its columns are: "
	                                           "model, nodes, gpus"));
	CU_ASSERT_PTR_NOT_NULL(strstr(err.message, "did you mean 'nodes'?"));
	CU_ASSERT_PTR_NULL(strstr(err.message, "--where ''"));
	/* in where: the filter can be dropped from the command line */
	CU_ASSERT_EQUAL(bind("runs.csv", "nodes", "t_ms", "kep == 1", NULL, 1,
	                     &d, &ws, &err),
	                SF_ENAME);
	CU_ASSERT_PTR_NOT_NULL(strstr(err.message, "--where '' drops"));
}

/* The warnings of ws that say a string is not a value. */
static size_t
not_a_value(const sf_test_warnings *ws)
{
	size_t n = 0;

	for (size_t i = 0; i < ws->count && i < SF_TEST_WARNINGS_MAX; i++)
		n += strstr(ws->w[i].message, "is not a value of") != NULL;
	return n;
}

/* 'CNN' against the values cnn and rnn: a warning at the literal that
 * lists them, and the reason in the error when no row is left. */
static void
test_unknown_value(void)
{
	sf_dataset *d;
	sf_test_warnings ws;
	sf_error err;

	CU_ASSERT_EQUAL(bind("runs.csv", "nodes", "t_ms", "model == 'CNN'",
	                     NULL, 1, &d, &ws, &err),
	                SF_EVALUE);
	CU_ASSERT_EQUAL_FATAL(not_a_value(&ws), 1);
	CU_ASSERT_STRING_EQUAL(ws.w[0].message,
	                       "'CNN' is not a value of column 'model' (its 2 "
	                       "values: cnn, rnn)");
	CU_ASSERT_EQUAL(ws.w[0].line, 12);
	CU_ASSERT_PTR_NOT_NULL(strstr(err.message, "'CNN' is not a value"));
	/* the literal first, and a known value: no warning */
	CU_ASSERT_EQUAL(bind("runs.csv", "nodes", "t_ms", "\"'rnn' != model\"",
	                     NULL, 1, &d, &ws, &err),
	                SF_OK);
	CU_ASSERT_EQUAL(not_a_value(&ws), 0);
	sf_dataset_free(d);
	CU_ASSERT_EQUAL(bind("runs.csv", "nodes", "t_ms", "\"'xnn' != model\"",
	                     NULL, 1, &d, &ws, &err),
	                SF_OK);
	CU_ASSERT_EQUAL(not_a_value(&ws), 1);
	sf_dataset_free(d);
}

int
main(void)
{
	CU_TestInfo rows[] = {
	    {"where, output, inputs: the rows kept", test_kept_rows},
	    {"skipped rows reported at FILE:LINE", test_skipped_rows},
	    {"after five skipped rows, a count", test_many_skipped_rows},
	    {"weights: a column or an expression", test_weights},
	    {"whole columns and the default output", test_whole_columns},
	    CU_TEST_INFO_NULL,
	};
	CU_TestInfo groups[] = {
	    {"configurations and repetitions", test_configurations},
	    {"selected rows, repeated and regrouped", test_select},
	    CU_TEST_INFO_NULL,
	};
	CU_TestInfo errors[] = {
	    {"errors placed in the model file", test_errors},
	    {"no row left: SF_EVALUE", test_nothing_left},
	    {"a missing column: the data's columns, the nearest",
	     test_missing_column},
	    {"a string that is not a value of its column", test_unknown_value},
	    CU_TEST_INFO_NULL,
	};
	CU_SuiteInfo suites[] = {
	    {"rows", NULL, NULL, NULL, NULL, rows},
	    {"configurations", NULL, NULL, NULL, NULL, groups},
	    {"errors", NULL, NULL, NULL, NULL, errors},
	    CU_SUITE_INFO_NULL,
	};

	return sf_test_main(suites);
}
