/*
 * test_scaffold.c - a starting model from column names: each role
 * guessed from names as people write them (rates are none), the columns
 * chosen, the refusals, and the written model: it loads, binds its data
 * and its bounds follow from the data (largest time over multiplier,
 * rounded up to 1, 2 or 5 times a power of ten); at the edges (issue 25):
 * a name with control characters written with _, a data file whose path
 * holds one refused, times whose bounds would overflow refused at their
 * row, the smallest times still bounded, a bad cell of the time or the
 * workers column named at its place.
 */
#include "base/text.h"
#include "input/dataset.h"
#include "input/model.h"
#include "input/scaffold.h"
#include "testing.h"

#include <string.h>

static void
test_roles(void)
{
	static const struct {
		const char *name;
		sf_scaffold_role role;
	} cases[] = {
	    {"workers", SF_ROLE_WORKERS},
	    {"num_workers", SF_ROLE_WORKERS},
	    {"GPUs", SF_ROLE_WORKERS},
	    {"nodes", SF_ROLE_WORKERS},
	    {"mpi_ranks", SF_ROLE_WORKERS},
	    {"world_size", SF_ROLE_WORKERS},
	    {"batch", SF_ROLE_BATCH},
	    {"batch_per_worker", SF_ROLE_BATCH},
	    {"global_batch", SF_ROLE_GLOBAL_BATCH},
	    {"total_batch_size", SF_ROLE_GLOBAL_BATCH},
	    {"samples", SF_ROLE_COUNT},
	    {"images", SF_ROLE_COUNT},
	    {"num_tokens", SF_ROLE_COUNT},
	    {"epoch_time_s", SF_ROLE_TIME},
	    {"seconds", SF_ROLE_TIME},
	    {"Duration", SF_ROLE_TIME},
	    {"train_s", SF_ROLE_TIME},
	    {"images_per_sec", SF_ROLE_NONE},
	    {"throughput", SF_ROLE_NONE},
	    {"samples/s", SF_ROLE_NONE},
	    {"model", SF_ROLE_NONE},
	    {"lr", SF_ROLE_NONE},
	    {"iterations", SF_ROLE_STEPS},
	    {"num_steps", SF_ROLE_STEPS},
	    {"steps_per_s", SF_ROLE_NONE},
	    {"step_time_s", SF_ROLE_TIME},
	    {"nproc_per_node", SF_ROLE_WORKERS},
	    {"num_replicas", SF_ROLE_WORKERS},
	    {"accelerators", SF_ROLE_WORKERS},
	    {"cores", SF_ROLE_WORKERS},
	    {"machines", SF_ROLE_WORKERS},
	    {"executors", SF_ROLE_WORKERS},
	    {"dataset_size", SF_ROLE_COUNT},
	    {"data_chunks", SF_ROLE_COUNT},
	    {"num_sequences", SF_ROLE_COUNT},
	    {"elapsed", SF_ROLE_TIME},
	    {"latency_ms", SF_ROLE_TIME},
	    {"epoch_sec", SF_ROLE_TIME},
	    {"train_ms", SF_ROLE_TIME},
	    {"num_iters", SF_ROLE_STEPS},
	    {"samples_per_sec", SF_ROLE_NONE},
	    {"batch_ms", SF_ROLE_BATCH},
	};

	for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
		if (sf_scaffold_role_of(cases[k].name) != cases[k].role)
			fprintf(stderr, "\n%s: %d\n", cases[k].name,
			        (int)sf_scaffold_role_of(cases[k].name));
		CU_ASSERT_EQUAL(sf_scaffold_role_of(cases[k].name),
		                cases[k].role);
	}
}

static sf_table *
table(const char *csv)
{
	sf_table *t = NULL;
	sf_error err;

	CU_ASSERT_FATAL(sf_table_parse(csv, strlen(csv), "runs.csv", NULL, &t,
	                               &err) == SF_OK);
	return t;
}

/* The written model parsed and bound to t; returns the dataset's rows. */
static size_t
rows_bound(const sf_table *t, const char *text)
{
	sf_model_set *set = NULL;
	sf_dataset *d = NULL;
	sf_error err;
	size_t rows;

	if (sf_model_parse("model.yaml", text, strlen(text), &set, NULL, NULL,
	                   &err) != SF_OK)
		fprintf(stderr, "\n%d:%d: %s\n%s", err.line, err.column,
		        err.message, text);
	CU_ASSERT_FATAL(set != NULL);
	if (sf_dataset_bind(set->models[0], t, 1, &d, NULL, NULL, &err) !=
	    SF_OK)
		fprintf(stderr, "\n%s\n", err.message);
	CU_ASSERT_FATAL(d != NULL);
	rows = d->rows;
	CU_ASSERT_EQUAL(d->ninputs, set->models[0]->ninputs);
	sf_dataset_free(d);
	sf_model_set_free(set);
	return rows;
}

static void
test_full(void)
{
	sf_table *t = table("model,workers,batch,samples,rate,epoch_time_s\n"
	                    "cnn,1,32,3200,5,100\n"
	                    "cnn,2,32,3200,9,60\n"
	                    "mlp,4,64,6400,20,30\n");
	sf_scaffold g;
	sf_error err;
	char *text = NULL;

	CU_ASSERT_EQUAL_FATAL(sf_scaffold_guess(t, &g, &err), SF_OK);
	CU_ASSERT_EQUAL(g.p, 1);
	CU_ASSERT_EQUAL(g.b, 2);
	CU_ASSERT_EQUAL(g.n, 3);
	CU_ASSERT_EQUAL(g.output, 5);
	CU_ASSERT_EQUAL(g.b_global, 0);
	CU_ASSERT_EQUAL_FATAL(
	    sf_scaffold_write(t, &g, "runs", "runs.csv", &text, &err), SF_OK);
	CU_ASSERT_PTR_NOT_NULL(strstr(text, "name: \"runs\"\n"));
	CU_ASSERT_PTR_NOT_NULL(strstr(text, "  p: \"workers\"  #"));
	CU_ASSERT_PTR_NOT_NULL(strstr(text, "  b: \"batch\"  #"));
	CU_ASSERT_PTR_NOT_NULL(strstr(text, "  n: \"samples\"  #"));
	CU_ASSERT_PTR_NOT_NULL(strstr(text, "  output: \"epoch_time_s\"\n"));
	CU_ASSERT_PTR_NOT_NULL(strstr(text, "steps: \"n / (p * b)\"\n"));
	CU_ASSERT_PTR_NOT_NULL(
	    strstr(text, "time: \"overhead + compute + comm + io\"\n"));
	CU_ASSERT_PTR_NOT_NULL(
	    strstr(text, "# where: \"model == 'cnn'\"  # 2 values: cnn, mlp"));
	/* t0 <= the largest time, 100; c b steps = n / p: c <= 100 / 3200
	 * = 0.03125 -> 0.05; r n: r <= 30 / 6400 ... 100 / 3200 -> 0.05;
	 * a steps, steps = n / (p b) = 100, 50, 25: a <= 30 / 25 = 1.2 -> 2 */
	CU_ASSERT_PTR_NOT_NULL(strstr(text, "t0: {min: 0, max: 100}"));
	CU_ASSERT_PTR_NOT_NULL(strstr(text, "c: {min: 0, max: 0.05}"));
	CU_ASSERT_PTR_NOT_NULL(strstr(text, "a: {min: 0, max: 2}"));
	CU_ASSERT_EQUAL(rows_bound(t, text), 3);
	free(text);
	sf_table_free(t);
}

/* Only workers and a time: no b, no n, no io; then one node in every row: no
 * communication.  A global batch is divided by p. */
static void
test_cut(void)
{
	sf_table *t = table("gpus,time\n1,10\n2,6\n4,4\n");
	sf_scaffold g;
	sf_error err;
	char *text = NULL;

	CU_ASSERT_EQUAL_FATAL(sf_scaffold_guess(t, &g, &err), SF_OK);
	CU_ASSERT_EQUAL_FATAL(
	    sf_scaffold_write(t, &g, "m", "runs.csv", &text, &err), SF_OK);
	CU_ASSERT_PTR_NOT_NULL(strstr(text, "steps: \"1 / p\"\n"));
	CU_ASSERT_PTR_NOT_NULL(
	    strstr(text, "time: \"overhead + compute + comm\"\n"));
	CU_ASSERT_PTR_NULL(strstr(text, "  b:"));
	CU_ASSERT_PTR_NULL(strstr(text, "  n:"));
	CU_ASSERT_EQUAL(rows_bound(t, text), 3);
	free(text);
	sf_table_free(t);
	t = table("nodes,global_batch,time (s)\n1,64,10\n1,128,16\n");
	CU_ASSERT_EQUAL_FATAL(sf_scaffold_guess(t, &g, &err), SF_OK);
	CU_ASSERT_EQUAL(g.b_global, 1);
	CU_ASSERT_EQUAL_FATAL(
	    sf_scaffold_write(t, &g, "m", "runs.csv", &text, &err), SF_OK);
	CU_ASSERT_PTR_NOT_NULL(
	    strstr(text, "  b: \"global_batch / nodes\"  #"));
	CU_ASSERT_PTR_NOT_NULL(strstr(text, "  output: \"time (s)\"\n"));
	CU_ASSERT_PTR_NOT_NULL(strstr(text, "time: \"overhead + compute\"\n"));
	CU_ASSERT_EQUAL(rows_bound(t, text), 2);
	free(text);
	sf_table_free(t);
}

/* A run's steps and a global batch make n; a per-step time has neither
 * n nor a start-up; workers are preferred to nodes. */
static void
test_steps(void)
{
	sf_table *t = table("nodes,gpus,global_batch,iterations,time_s\n"
	                    "1,1,64,100,50\n1,2,64,100,30\n2,4,128,50,10\n");
	sf_scaffold g;
	sf_error err;
	char *text = NULL;

	CU_ASSERT_EQUAL_FATAL(sf_scaffold_guess(t, &g, &err), SF_OK);
	CU_ASSERT_EQUAL(g.p, 1);
	CU_ASSERT_EQUAL(g.steps, 3);
	CU_ASSERT_EQUAL_FATAL(
	    sf_scaffold_write(t, &g, "m", "runs.csv", &text, &err), SF_OK);
	CU_ASSERT_PTR_NOT_NULL(
	    strstr(text, "  n: \"iterations * global_batch\"  #"));
	CU_ASSERT_PTR_NOT_NULL(strstr(text, "steps: \"n / (p * b)\"\n"));
	/* r n <= time: r <= 50 / 6400 ... 10 / 6400 -> 0.01 */
	CU_ASSERT_PTR_NOT_NULL(strstr(text, "r: {min: 0, max: 0.01}"));
	CU_ASSERT_EQUAL(rows_bound(t, text), 3);
	free(text);
	sf_table_free(t);
	t = table("gpus,batch_per_gpu,iterations,step_time_s\n1,32,10,0.5\n"
	          "4,32,10,0.6\n");
	CU_ASSERT_EQUAL_FATAL(sf_scaffold_guess(t, &g, &err), SF_OK);
	CU_ASSERT(g.per_step);
	CU_ASSERT_EQUAL(g.steps, SF_CSV_NONE);
	CU_ASSERT_EQUAL_FATAL(
	    sf_scaffold_write(t, &g, "m", "runs.csv", &text, &err), SF_OK);
	CU_ASSERT_PTR_NOT_NULL(strstr(text, "steps: \"1\"\n"));
	CU_ASSERT_PTR_NOT_NULL(strstr(text, "time: \"compute + comm\"\n"));
	CU_ASSERT_PTR_NULL(strstr(text, "t0:"));
	CU_ASSERT_EQUAL(rows_bound(t, text), 2);
	free(text);
	sf_table_free(t);
	/* the cores over the machines (Ernest's Spark runs); the workers
	 * over a count per node, which goes after the nodes */
	t = table("machines,cores,time_s\n1,8,50\n2,16,30\n");
	CU_ASSERT_EQUAL_FATAL(sf_scaffold_guess(t, &g, &err), SF_OK);
	CU_ASSERT_EQUAL(g.p, 1);
	sf_table_free(t);
	t = table("nodes,accelerators_per_node,accelerators,time_s\n"
	          "1,8,8,50\n2,8,16,30\n");
	CU_ASSERT_EQUAL_FATAL(sf_scaffold_guess(t, &g, &err), SF_OK);
	CU_ASSERT_EQUAL(g.p, 2);
	sf_table_free(t);
	t = table("nodes,gpus_per_node,time_s\n1,8,50\n2,8,30\n");
	CU_ASSERT_EQUAL_FATAL(sf_scaffold_guess(t, &g, &err), SF_OK);
	CU_ASSERT_EQUAL(g.p, 0);
	sf_table_free(t);
}

/* A steps column besides a count: the rule that reproduces it on every
 * row is written as a derived input, said in a comment, and the bounds
 * follow from it; no rule, the quotient as a term and a comment that says
 * so. */
static void
test_steps_rule(void)
{
	static const struct {
		const char *steps[4];
		const char *line, *comment, *a;
	} cases[] = {
	    {{"31", "15", "1", "1"},
	     "  steps: {derived: \"max(1, floor(n / (p * b)))\"}\n",
	     "# a run's steps: reproduces column 'steps' on all 4 rows\n",
	     "a: {min: 0, max: 10}"},
	    {{"32", "16", "2", "1"},
	     "  steps: {derived: \"ceil(n / (p * b))\"}\n",
	     "# a run's steps: reproduces column 'steps' on all 4 rows\n",
	     "a: {min: 0, max: 10}"},
	    {{"31.25", "15.625", "1.953125", "0.48828125"},
	     "  steps: {derived: \"n / (p * b)\"}\n",
	     "# a run's steps: reproduces column 'steps' on all 4 rows\n",
	     "a: {min: 0, max: 20}"},
	    {{"31", "15", "1", "0"},
	     "steps: \"n / (p * b)\"\n",
	     "# column 'steps' not reproduced: it is neither n / (p * b) nor "
	     "its floor or ceiling on every row\n",
	     "a: {min: 0, max: 20}"},
	};
	static const char *const runs[4] = {"1,32,1000,", "2,32,1000,",
	                                    "16,32,1000,", "64,32,1000,"};
	static const char *const times[4] = {"50", "30", "10", "8"};

	for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
		sf_text csv = SF_TEXT_INIT;
		sf_scaffold g;
		sf_error err;
		char *text = NULL;
		sf_table *t;

		sf_text_puts(&csv, "workers,batch,samples,steps,time_s\n");
		for (size_t r = 0; r < 4; r++)
			sf_text_printf(&csv, "%s%s,%s\n", runs[r],
			               cases[k].steps[r], times[r]);
		t = table(csv.data);
		CU_ASSERT_EQUAL_FATAL(sf_scaffold_guess(t, &g, &err), SF_OK);
		CU_ASSERT_EQUAL_FATAL(
		    sf_scaffold_write(t, &g, "m", "runs.csv", &text, &err),
		    SF_OK);
		CU_ASSERT_PTR_NOT_NULL(strstr(text, cases[k].line));
		CU_ASSERT_PTR_NOT_NULL(strstr(text, cases[k].comment));
		CU_ASSERT_PTR_NOT_NULL(strstr(text, cases[k].a));
		CU_ASSERT_EQUAL(rows_bound(t, text), 4);
		free(text);
		sf_table_free(t);
		sf_text_free(&csv);
	}
}

/* Without a steps column: whether the runs may take whole steps (n / (p b)
 * not whole on some row), and the steps written rounded as asked, the
 * bounds following the rounded steps and the note above them. */
static void
test_whole_steps(void)
{
	/* 1000 / 32 = 31.25 steps at 1 worker, 0.49 at 64 */
	sf_table *t = table("workers,batch,samples,time_s\n1,32,1000,50\n"
	                    "2,32,1000,30\n16,32,1000,10\n64,32,1000,8\n");
	sf_table *whole = table("workers,batch,samples,time_s\n1,32,1024,50\n"
	                        "2,32,1024,30\n");
	sf_table *steps = table("workers,batch,samples,steps,time_s\n"
	                        "1,32,1000,31,50\n2,32,1000,15,30\n");
	sf_scaffold g;
	sf_error err;
	char *text = NULL;

	CU_ASSERT_EQUAL_FATAL(sf_scaffold_guess(whole, &g, &err), SF_OK);
	CU_ASSERT_FALSE(sf_scaffold_whole_steps(whole, &g));
	CU_ASSERT_EQUAL_FATAL(sf_scaffold_guess(steps, &g, &err), SF_OK);
	CU_ASSERT_FALSE(sf_scaffold_whole_steps(steps, &g));
	CU_ASSERT_EQUAL_FATAL(sf_scaffold_guess(t, &g, &err), SF_OK);
	CU_ASSERT_EQUAL(g.steps_rounding, SF_STEPS_QUOTIENT);
	CU_ASSERT_TRUE(sf_scaffold_whole_steps(t, &g));
	g.steps_rounding = SF_STEPS_FLOOR;
	g.steps_note = "whole steps, rounded down: a note";
	CU_ASSERT_EQUAL_FATAL(
	    sf_scaffold_write(t, &g, "m", "runs.csv", &text, &err), SF_OK);
	CU_ASSERT_PTR_NOT_NULL(
	    strstr(text, "  # whole steps, rounded down: a note\n"
	                 "  steps: \"max(1, floor(n / (p * b)))\"\n"));
	/* a <= 8 / 1 step at 64 workers (n / (p b) would give 0.49) */
	CU_ASSERT_PTR_NOT_NULL(strstr(text, "a: {min: 0, max: 10}"));
	CU_ASSERT_EQUAL(rows_bound(t, text), 4);
	free(text);
	g.steps_rounding = SF_STEPS_CEIL;
	CU_ASSERT_EQUAL_FATAL(
	    sf_scaffold_write(t, &g, "m", "runs.csv", &text, &err), SF_OK);
	CU_ASSERT_PTR_NOT_NULL(
	    strstr(text, "  steps: \"ceil(n / (p * b))\"\n"));
	free(text);
	g.steps_rounding = SF_STEPS_QUOTIENT;
	g.steps_note = NULL;
	CU_ASSERT_EQUAL_FATAL(
	    sf_scaffold_write(t, &g, "m", "runs.csv", &text, &err), SF_OK);
	CU_ASSERT_PTR_NOT_NULL(strstr(text, "  steps: \"n / (p * b)\"\n"));
	CU_ASSERT_PTR_NOT_NULL(strstr(text, "a: {min: 0, max: 20}"));
	free(text);
	sf_table_free(t);
	sf_table_free(whole);
	sf_table_free(steps);
}

static void
test_refusals(void)
{
	static const struct {
		const char *csv, *message;
		int code;
	} cases[] = {
	    {"workers,images_per_sec\n1,2\n", "looks like the measured time",
	     SF_ENAME},
	    {"lr,time\n1,2\n", "looks like the number of workers", SF_ENAME},
	    /* a text column is never an input: its first cell that is not
	     * a number is named */
	    {"workers,time\na,2\nb,3\n",
	     "column 'workers' looks like the number of workers, but it is "
	     "not numeric: 'a' is not a number",
	     SF_ETYPE},
	};
	sf_scaffold g;
	sf_error err;
	char *text = NULL;

	for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
		sf_table *t = table(cases[k].csv);

		CU_ASSERT_EQUAL(sf_scaffold_guess(t, &g, &err), cases[k].code);
		CU_ASSERT_PTR_NOT_NULL(strstr(err.message, cases[k].message));
		sf_table_free(t);
	}
	{
		sf_table *t = table("workers,time\n0,2\n1,-1\n");

		CU_ASSERT_EQUAL_FATAL(sf_scaffold_guess(t, &g, &err), SF_OK);
		CU_ASSERT_EQUAL(
		    sf_scaffold_write(t, &g, "m", "runs.csv", &text, &err),
		    SF_EVALUE);
		CU_ASSERT_PTR_NULL(text);
		sf_table_free(t);
	}
}

/* Texts a model file may hold that YAML would read otherwise. */
static const char *const hostile[] = {
    "x\nwhere: p > 1", "a: b", "[x",          "*x", "#x", "&x", "x #y",
    "esc\x1b[1m",      "q\"q", "back\\slash",
};

/*
 * Hostile text in a CSV cell (listed in a comment as a where: value), in
 * the model's name, its data file's name and its output column's: the
 * model reads back with the same name, file and output, and no comment
 * became YAML.  The loader refuses control characters in a name or a
 * file name, so those take the other texts; the cell takes every one.
 */
static void
test_hostile(void)
{
	for (size_t i = 0; i < sizeof hostile / sizeof hostile[0]; i++) {
		const char *h = hostile[i];
		int control = strpbrk(h, "\n\x1b") != NULL;
		const char *name = control ? "plain" : h;
		sf_text csv = SF_TEXT_INIT, file = SF_TEXT_INIT;
		sf_model_set *set = NULL;
		sf_scaffold g;
		sf_table *t;
		sf_error err;
		char *text = NULL;

		/* the cell, quoted for CSV */
		sf_text_puts(&csv, "workers,time #1: s,job\n1,10,\"");
		for (const char *c = h; *c != '\0'; c++) {
			if (*c == '"')
				sf_text_putc(&csv, '"');
			sf_text_putc(&csv, *c);
		}
		sf_text_puts(&csv, "\"\n2,6,b\n4,4,b\n");
		t = table(csv.data);
		sf_text_printf(&file, "runs %s.csv", name);
		CU_ASSERT_EQUAL_FATAL(sf_scaffold_guess(t, &g, &err), SF_OK);
		CU_ASSERT_EQUAL_FATAL(
		    sf_scaffold_write(t, &g, name, file.data, &text, &err),
		    SF_OK);
		CU_ASSERT_PTR_NOT_NULL(strstr(text, "values: "));
		if (sf_model_parse("model.yaml", text, strlen(text), &set, NULL,
		                   NULL, &err) != SF_OK)
			fprintf(stderr, "\n%s\n%s\n", err.message, text);
		CU_ASSERT_PTR_NOT_NULL_FATAL(set);
		CU_ASSERT_EQUAL(set->count, 1);
		CU_ASSERT_STRING_EQUAL(set->models[0]->name, name);
		CU_ASSERT_STRING_EQUAL(set->models[0]->data_file_at.text,
		                       file.data);
		CU_ASSERT_STRING_EQUAL(set->models[0]->output.text,
		                       "time #1: s");
		CU_ASSERT_PTR_NULL(set->models[0]->where.text);
		CU_ASSERT_EQUAL(rows_bound(t, text), 3);
		sf_model_set_free(set);
		free(text);
		sf_table_free(t);
		sf_text_free(&csv);
		sf_text_free(&file);
	}
}

/* The edges of what init can write. */
static void
test_edges(void)
{
	sf_model_set *set = NULL;
	sf_scaffold g;
	sf_error err;
	sf_table *t = table("workers,time\n1,10\n2,6\n4,4\n");
	char *text = NULL;

	/* a name's control characters: _ (the loader refuses them) */
	CU_ASSERT_EQUAL_FATAL(sf_scaffold_guess(t, &g, &err), SF_OK);
	CU_ASSERT_EQUAL_FATAL(sf_scaffold_write(t, &g, "a\nb\x1b\x7f\tc",
	                                        "runs.csv", &text, &err),
	                      SF_OK);
	CU_ASSERT_EQUAL(sf_model_parse("m.yaml", text, strlen(text), &set, NULL,
	                               NULL, &err),
	                SF_OK);
	if (set != NULL)
		CU_ASSERT_STRING_EQUAL(set->models[0]->name, "a_b__\tc");
	sf_model_set_free(set);
	free(text);
	/* a data file's control character: refused, nothing written */
	CU_ASSERT_EQUAL(sf_scaffold_write(t, &g, "m", "a\nb.csv", &text, &err),
	                SF_EVALUE);
	CU_ASSERT_PTR_NULL(text);
	CU_ASSERT_PTR_NOT_NULL(strstr(err.message, "control character \\x0A"));
	/* a data file's path that data.file would read as empty */
	CU_ASSERT_EQUAL(sf_scaffold_write(t, &g, "m", "\t\t", &text, &err),
	                SF_EVALUE);
	CU_ASSERT_PTR_NOT_NULL(strstr(err.message, "white space only"));
	sf_table_free(t);
	/* bounds beyond the largest double: refused at the row */
	t = table("workers,time\n1,1e308\n2,1.7e308\n");
	CU_ASSERT_EQUAL_FATAL(sf_scaffold_guess(t, &g, &err), SF_OK);
	CU_ASSERT_EQUAL(sf_scaffold_write(t, &g, "m", "r.csv", &text, &err),
	                SF_EVALUE);
	CU_ASSERT_PTR_NULL(text);
	CU_ASSERT_EQUAL(err.line, 3);
	CU_ASSERT_PTR_NOT_NULL(strstr(err.message, "too large for a model"));
	sf_table_free(t);
	/* the smallest times: bounds above 0, the model reads back */
	t = table("workers,time\n1,5e-324\n2,1e-320\n4,2e-308\n");
	CU_ASSERT_EQUAL_FATAL(sf_scaffold_guess(t, &g, &err), SF_OK);
	CU_ASSERT_EQUAL_FATAL(
	    sf_scaffold_write(t, &g, "m", "r.csv", &text, &err), SF_OK);
	CU_ASSERT_EQUAL(sf_model_parse("m.yaml", text, strlen(text), &set, NULL,
	                               NULL, &err),
	                SF_OK);
	for (size_t i = 0; set != NULL && i < set->models[0]->nparams; i++)
		CU_ASSERT(set->models[0]->params[i].max > 0);
	sf_model_set_free(set);
	free(text);
	sf_table_free(t);
	/* columns a model cannot name whole: refused at their name */
	{
		static const struct {
			const char *csv, *message;
			int column;
		} cases[] = {
		    {"gpus,time \v\n1,10\n2,6\n", "ends with white space", 11},
		    {"gpus,time\xff\n1,10\n2,6\n", "not UTF-8", 10},
		    {"\"\ngpus\",time\n1,10\n2,6\n", "starts with white space",
		     1},
		};

		for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
			t = table(cases[i].csv);
			CU_ASSERT_EQUAL(sf_scaffold_guess(t, &g, &err),
			                SF_ENAME);
			CU_ASSERT_EQUAL(err.line, 1);
			CU_ASSERT_EQUAL(err.column, cases[i].column);
			CU_ASSERT_PTR_NOT_NULL(
			    strstr(err.message, cases[i].message));
			sf_table_free(t);
		}
	}
	/* a global batch over a column that is not a name: no b */
	t = table("nodes,global&batch,train_time_s\n1,256,50\n2,256,30\n");
	CU_ASSERT_EQUAL_FATAL(sf_scaffold_guess(t, &g, &err), SF_OK);
	CU_ASSERT_EQUAL_FATAL(
	    sf_scaffold_write(t, &g, "m", "r.csv", &text, &err), SF_OK);
	CU_ASSERT_PTR_NULL(strstr(text, "  b: "));
	CU_ASSERT_PTR_NOT_NULL(strstr(text, "steps * c\""));
	free(text);
	sf_table_free(t);
	/* one cell makes the time column text: named at its place */
	t = table("gpus,time_s\n1,10\n2,0x10\n4,4\n");
	CU_ASSERT_EQUAL(sf_scaffold_guess(t, &g, &err), SF_ETYPE);
	CU_ASSERT_EQUAL(err.line, 3);
	CU_ASSERT_EQUAL(err.column, 3);
	CU_ASSERT_PTR_NOT_NULL(strstr(err.message, "'time_s' looks like"));
	CU_ASSERT_PTR_NOT_NULL(strstr(err.message, "'0x10' is not a number"));
	sf_table_free(t);
}

int
main(void)
{
	CU_TestInfo tests[] = {
	    {"roles from names", test_roles},
	    {"p, b, n and the output: the whole formula", test_full},
	    {"fewer inputs: the formula cut to them", test_cut},
	    {"steps and a global batch; a per-step time", test_steps},
	    {"a steps column: the rule that reproduces it", test_steps_rule},
	    {"no steps column: whole steps, rounded as asked",
	     test_whole_steps},
	    {"no time, no workers, no usable row", test_refusals},
	    {"hostile cells and names: the model reads back", test_hostile},
	    {"the edges: control characters, huge and tiny times, a bad cell",
	     test_edges},
	    CU_TEST_INFO_NULL,
	};
	CU_SuiteInfo suites[] = {
	    {"scaffold", NULL, NULL, NULL, NULL, tests},
	    CU_SUITE_INFO_NULL,
	};

	return sf_test_main(suites);
}
