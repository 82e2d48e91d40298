/*
 * test_fleet.c - units of work (base/units.[ch]) and fleets of fits over
 * groups (run/fleet.[ch]), with a stand-in for a command's pipeline, on
 * tests/data/dataset/runs.csv split by model and nodes (test_groups.c
 * lists the six groups; the fourth, model=cnn with no nodes, has no usable
 * row).
 */
#include "base/units.h"
#include "input/groups.h"
#include "run/fleet.h"
#include "testing.h"

#include <arpa/inet.h>
#include <math.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/socket.h>
#include <unistd.h>

/* ---- units ----------------------------------------------------------------
 */

typedef struct square_ctx {
	size_t fail_at; /* SIZE_MAX: none */
	size_t calls;
} square_ctx;

static int
square(void *ctx, size_t index, char **out, size_t *size, sf_error *err)
{
	square_ctx *c = ctx;

	c->calls++;
	if (index == c->fail_at)
		return sf_error_set(err, SF_ENOMEM, "unit %zu failed", index);
	if ((*out = malloc(32)) == NULL)
		return sf_error_set(err, SF_ENOMEM, "out of memory");
	*size = (size_t)snprintf(*out, 32, "%zu", index * index);
	return SF_OK;
}

/* TCP_NODELAY of socket fd (-1 when it cannot be read). */
static int
nodelay_of(int fd)
{
	int v = -1;
	socklen_t n = sizeof v;

	if (getsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &v, &n) != 0)
		return -1;
	return v != 0;
}

/* A connection to the loopback address, as Open MPI's to its daemon, gets
 * TCP_NODELAY at both ends; a listening socket and a socket pair are left
 * as they were. */
static void
test_units_loopback_nodelay(void)
{
	struct sockaddr_in a;
	socklen_t n = sizeof a;
	int listener = socket(AF_INET, SOCK_STREAM, 0), client, server;
	int pair[2];

	CU_ASSERT_FATAL(listener >= 0);
	memset(&a, 0, sizeof a);
	a.sin_family = AF_INET;
	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	CU_ASSERT_FATAL(bind(listener, (struct sockaddr *)&a, sizeof a) == 0);
	CU_ASSERT_FATAL(listen(listener, 1) == 0);
	CU_ASSERT_FATAL(getsockname(listener, (struct sockaddr *)&a, &n) == 0);
	client = socket(AF_INET, SOCK_STREAM, 0);
	CU_ASSERT_FATAL(client >= 0);
	CU_ASSERT_FATAL(connect(client, (struct sockaddr *)&a, sizeof a) == 0);
	server = accept(listener, NULL, NULL);
	CU_ASSERT_FATAL(server >= 0);
	CU_ASSERT_FATAL(socketpair(AF_UNIX, SOCK_STREAM, 0, pair) == 0);
	CU_ASSERT_EQUAL(nodelay_of(client), 0);
	CU_ASSERT_EQUAL(nodelay_of(server), 0);
	sf_units_loopback_nodelay();
	CU_ASSERT_EQUAL(nodelay_of(client), 1);
	CU_ASSERT_EQUAL(nodelay_of(server), 1);
	CU_ASSERT_EQUAL(nodelay_of(listener), 0);
	CU_ASSERT_EQUAL(nodelay_of(pair[0]), -1); /* not TCP: untouched */
	close(pair[0]);
	close(pair[1]);
	close(server);
	close(client);
	close(listener);
}

static void
test_units_in_order(void)
{
	square_ctx c = {SIZE_MAX, 0};
	char *results[5];
	size_t sizes[5];
	sf_error err;

	CU_ASSERT_EQUAL_FATAL(sf_units_run(5, square, &c, results, sizes, &err),
	                      SF_OK);
	CU_ASSERT_EQUAL(c.calls, 5);
	for (size_t i = 0; i < 5; i++) {
		char want[32];
		snprintf(want, sizeof want, "%zu", i * i);
		CU_ASSERT_EQUAL(sizes[i], strlen(want));
		CU_ASSERT_NSTRING_EQUAL(results[i], want, sizes[i]);
		free(results[i]);
	}
	/* A failing unit fails the run, with its error, nothing left. */
	c = (square_ctx){3, 0};
	CU_ASSERT_EQUAL(sf_units_run(5, square, &c, results, sizes, &err),
	                SF_ENOMEM);
	CU_ASSERT_STRING_EQUAL(err.message, "unit 3 failed");
	for (size_t i = 0; i < 5; i++)
		CU_ASSERT_PTR_NULL(results[i]);
	CU_ASSERT_EQUAL(sf_units_run(0, square, &c, results, sizes, &err),
	                SF_OK);
}

static void
test_units_seed(void)
{
	/* Deterministic, distinct per index, stream and seed. */
	CU_ASSERT_EQUAL(sf_units_seed(1, 7, 0), sf_units_seed(1, 7, 0));
	CU_ASSERT_NOT_EQUAL(sf_units_seed(1, 7, 0), sf_units_seed(1, 7, 1));
	CU_ASSERT_NOT_EQUAL(sf_units_seed(1, 7, 0), sf_units_seed(2, 7, 0));
	CU_ASSERT_NOT_EQUAL(sf_units_seed(1, 7, 0), sf_units_seed(1, 8, 0));
	CU_ASSERT_NOT_EQUAL(sf_fleet_seed(1, 0), sf_fleet_seed(1, 1));
	CU_ASSERT_EQUAL(sf_units_rank(), 0);
	CU_ASSERT(sf_units_root());
}

/* ---- fleets ---------------------------------------------------------------
 */

static const char *const model_yaml = "name: runs\n"
                                      "inputs:\n"
                                      "  p: nodes * gpus\n"
                                      "parameters:\n"
                                      "  a: {min: 0, max: 10}\n"
                                      "time: a / p\n"
                                      "data:\n"
                                      "  file: runs.csv\n"
                                      "  output: t_ms / 1000\n"
                                      "  where: keep == 1\n";

/* The stand-in pipeline: a report of the group's rows and seed; a group
 * whose first output is above 1.5 s fails (model=rnn,nodes=1). */
static int
stand_in(void *ctx, const sf_dataset *group, size_t index, sf_warn_fn warn,
         void *warn_ctx, json_t **report, char **text, sf_error *err)
{
	sf_error w;

	(void)ctx;
	if (group->output[0] > 1.5)
		return sf_error_set(err, SF_EVALUE, "too slow: %g",
		                    group->output[0]);
	sf_error_clear(&w);
	sf_error_set(&w, SF_OK, "rows %zu", group->rows);
	warn(warn_ctx, &w);
	*report = json_pack("{s:I, s:f, s:{s:f}}", "n", (json_int_t)group->rows,
	                    "seed", (double)(sf_fleet_seed(1, index) >> 11),
	                    "metrics", "mape", 1.5 * (double)index);
	*text = strdup("the text\n");
	return SF_OK;
}

static void
test_fleet_run(void)
{
	sf_test_problem fx;
	sf_groups *g = NULL;
	sf_fleet *f = NULL;
	sf_error err;
	json_t *groups, *x;

	CU_ASSERT_FATAL(
	    sf_test_problem_parse(&fx, "dataset/model.yaml", model_yaml) == 0);
	CU_ASSERT_FATAL(sf_groups_split(fx.p.table, fx.p.data, "model,nodes",
	                                NULL, NULL, &g, &err) == SF_OK);
	if (sf_fleet_run(g, fx.p.data, 1, stand_in, NULL, &f, &err) != SF_OK)
		fprintf(stderr, "%s\n", err.message);
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	CU_ASSERT_EQUAL(f->count, 6);
	CU_ASSERT_EQUAL(f->failed, 2); /* no usable row; too slow */
	groups = json_object_get(f->json, "groups");
	CU_ASSERT_EQUAL_FATAL(json_array_size(groups), 6);
	CU_ASSERT_STRING_EQUAL(json_string_value(json_array_get(
	                           json_object_get(f->json, "by"), 1)),
	                       "nodes");
	CU_ASSERT_EQUAL(json_integer_value(json_object_get(f->json, "failed")),
	                2);
	CU_ASSERT_EQUAL(json_integer_value(json_object_get(f->json, "ranks")),
	                1);
	/* Group 0: its key, label, rows, then the report. */
	x = json_array_get(groups, 0);
	CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(
	                           json_object_get(x, "key"), "model")),
	                       "cnn");
	CU_ASSERT_EQUAL(json_number_value(json_object_get(
	                    json_object_get(x, "key"), "nodes")),
	                1);
	CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(x, "label")),
	                       "model=cnn,nodes=1");
	CU_ASSERT_EQUAL(json_integer_value(json_object_get(x, "rows")), 3);
	CU_ASSERT_EQUAL(json_integer_value(json_object_get(x, "n")), 3);
	CU_ASSERT_EQUAL(json_real_value(json_object_get(x, "seed")),
	                (double)(sf_fleet_seed(1, 0) >> 11));
	CU_ASSERT_STRING_EQUAL(f->texts[0], "the text\n");
	/* Its warning, prefixed with its label, whole as it was given. */
	CU_ASSERT_EQUAL_FATAL(f->nwarnings[0], 1);
	CU_ASSERT_PTR_NOT_NULL(
	    strstr(f->warnings[0][0].message, "group model=cnn,nodes=1: "));
	CU_ASSERT_PTR_NOT_NULL(strstr(f->warnings[0][0].message, "rows 3"));
	/* Group 3 (no nodes): null in its key, no usable row. */
	x = json_array_get(groups, 3);
	CU_ASSERT(
	    json_is_null(json_object_get(json_object_get(x, "key"), "nodes")));
	CU_ASSERT_EQUAL(json_integer_value(json_object_get(x, "skipped")), 1);
	CU_ASSERT_PTR_NOT_NULL(strstr(
	    json_string_value(json_object_get(x, "error")), "no usable row"));
	CU_ASSERT_PTR_NULL(json_object_get(x, "n"));
	/* Group 4 failed in the pipeline: its message kept. */
	CU_ASSERT_STRING_EQUAL(f->errors[4], "too slow: 2");
	CU_ASSERT_PTR_NULL(f->texts[4]);
	CU_ASSERT_EQUAL(
	    json_integer_value(json_object_get(json_array_get(groups, 5), "n")),
	    1);
	/* The summary: a line per group and the failures counted. */
	{
		char *text = NULL;
		size_t length = 0;
		FILE *out = open_memstream(&text, &length);

		sf_fleet_print_summary(f, out);
		fclose(out);
		CU_ASSERT_PTR_NOT_NULL(strstr(text, "model=rnn,nodes=2"));
		CU_ASSERT_PTR_NOT_NULL(strstr(text, "failed: too slow: 2"));
		CU_ASSERT_PTR_NOT_NULL(strstr(text, "7.50%")); /* 1.5 x 5 */
		CU_ASSERT_PTR_NOT_NULL(strstr(text, "6 groups, 2 failed"));
		free(text);
	}
	sf_fleet_free(f);
	/* Fewer usable rows than min_rows: failed without a call. */
	CU_ASSERT_EQUAL_FATAL(
	    sf_fleet_run(g, fx.p.data, 2, stand_in, NULL, &f, &err), SF_OK);
	CU_ASSERT_EQUAL(f->failed, 5);
	CU_ASSERT_STRING_EQUAL(f->errors[1],
	                       "too few rows: 1 usable for 2 fitted constants");
	CU_ASSERT_PTR_NULL(f->errors[0]);
	sf_fleet_free(f);
	sf_groups_free(g);
	sf_test_problem_close(&fx);
}

int
main(void)
{
	CU_TestInfo units[] = {
	    {"results in index order, failures", test_units_in_order},
	    {"seeds from the run's seed and the index", test_units_seed},
	    {"TCP_NODELAY on loopback connections only",
	     test_units_loopback_nodelay},
	    CU_TEST_INFO_NULL,
	};
	CU_TestInfo fleet[] = {
	    {"groups' reports, failures, summary", test_fleet_run},
	    CU_TEST_INFO_NULL,
	};
	CU_SuiteInfo suites[] = {
	    {"units", NULL, NULL, NULL, NULL, units},
	    {"fleet", NULL, NULL, NULL, NULL, fleet},
	    CU_SUITE_INFO_NULL,
	};
	return sf_test_main(suites);
}
