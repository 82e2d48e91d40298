/*
 * test_run.c - every command's pipeline as one library call (src/run/):
 * a fit through sf_run_fit() gives the constants and JSON `scalefit fit
 * --json` prints; validate, compare, predict, scale and next each answer;
 * a fleet gives the groups JSON; discover gives its board, the winner's
 * model file (which loads) and its path, the grammar's shapes, a fleet,
 * and refuses rows that are not a file; a bad model or a bad point comes back
 * as an error code and message, and nothing is printed.
 */
#include "run/check.h"
#include "run/compare.h"
#include "run/discover.h"
#include "run/fit.h"
#include "run/next.h"
#include "run/predict.h"
#include "run/scale.h"
#include "run/validate.h"
#include "testing.h"

#include <fcntl.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The model every test fits: 7 rows of Amdahl's law, two constants. */
#define MODEL "expressions/amdahl.yaml"

/* Where the tests put fit files: a fresh directory. */
static char dir[256];

static int
suite_init(void)
{
	return sf_test_dir_make(dir, sizeof dir, "run");
}

static int
suite_clean(void)
{
	return sf_test_dir_remove(dir);
}

/* The path of file name in dir (a static buffer). */
static const char *
in_dir(const char *name)
{
	static char path[512];

	snprintf(path, sizeof path, "%s/%s", dir, name);
	return path;
}

/* Remove the clock readings from a report: they differ run to run. */
static void
drop_clocks(json_t *j)
{
	const char *key;
	void *tmp;
	json_t *v;
	size_t i;

	if (json_is_object(j)) {
		json_object_foreach_safe(j, tmp, key, v)
		{
			if (strcmp(key, "seconds") == 0 ||
			    strcmp(key, "elapsed") == 0)
				json_object_del(j, key);
			else
				drop_clocks(v);
		}
	} else if (json_is_array(j)) {
		json_array_foreach(j, i, v) drop_clocks(v);
	}
}

/* The model file's set, loaded as the command line loads it. */
static sf_model_set *
load(const char *rel)
{
	sf_model_set *set = NULL;
	sf_error err;

	if (sf_run_data_load(sf_test_path(rel), NULL, 0, NULL, NULL, NULL, &set,
	                     &err) != SF_OK)
		fprintf(stderr, "%s: %s\n", err.file, err.message);
	return set;
}

/* A fit of MODEL with seed 1 and one thread, its JSON asked for. */
static sf_run_fit_result *
fit_model(const char *rel, sf_model_set **set)
{
	sf_run_fit_settings s;
	sf_run_fit_result *r = NULL;
	sf_error err;

	sf_run_fit_settings_init(&s);
	s.options.has_seed = 1;
	s.options.seed = 1;
	s.options.threads = 1;
	s.json = 1;
	if ((*set = load(rel)) == NULL)
		return NULL;
	if (sf_run_fit(*set, &s, &r, &err) != SF_OK)
		fprintf(stderr, "%s\n", err.message);
	return r;
}

/* The fit's JSON written where predict, scale and next read it. */
static const char *
save_fit(void)
{
	sf_model_set *set = NULL;
	sf_run_fit_result *r = fit_model(MODEL, &set);
	const char *path = in_dir("fit.json");

	CU_ASSERT_PTR_NOT_NULL_FATAL(r);
	CU_ASSERT_EQUAL(sf_run_json_save(r->out.json, path, NULL), SF_OK);
	sf_run_fit_result_free(r);
	sf_model_set_free(set);
	return path;
}

/* What `scalefit fit --json` prints for MODEL, parsed. */
static json_t *
command_json(void)
{
	const char *exe =
	    getenv("SCALEFIT") != NULL ? getenv("SCALEFIT") : "src/scalefit";
	char cmd[8192];
	json_error_t jerr;
	json_t *j;
	FILE *p;

	snprintf(cmd, sizeof cmd, "'%s' fit '%s' --json --seed 1 --threads 1",
	         exe, sf_test_path(MODEL));
	if ((p = popen(cmd, "r")) == NULL)
		return NULL;
	j = json_loadf(p, 0, &jerr);
	pclose(p);
	return j;
}

static void
test_fit_as_command(void)
{
	sf_model_set *set = NULL;
	sf_run_fit_result *r = fit_model(MODEL, &set);
	json_t *cli = command_json(), *mine;
	const json_t *params;

	CU_ASSERT_PTR_NOT_NULL_FATAL(r);
	CU_ASSERT_PTR_NOT_NULL_FATAL(cli);
	CU_ASSERT_PTR_NULL(r->fleet);
	CU_ASSERT_PTR_NOT_NULL(r->stats);
	CU_ASSERT(r->has_interval);
	CU_ASSERT_PTR_NOT_NULL(strstr(r->out.text, "amdahl"));
	/* The same constants, bit for bit, in theta order. */
	params = json_object_get(cli, "parameters");
	CU_ASSERT_EQUAL(r->problem.formula->nparams, 2);
	for (size_t j = 0; j < r->problem.formula->nparams; j++) {
		const char *name =
		    r->model->params[r->problem.formula->fitted[j]].name;
		double v = json_number_value(
		    json_object_get(json_object_get(params, name), "value"));

		CU_ASSERT_EQUAL(r->fit->theta[j], v);
	}
	/* The same document, clocks aside. */
	mine = json_deep_copy(r->out.json);
	drop_clocks(mine);
	drop_clocks(cli);
	CU_ASSERT(json_equal(mine, cli));
	json_decref(mine);
	json_decref(cli);
	sf_run_fit_result_free(r);
	sf_model_set_free(set);
}

/* A fleet: every group's report, the groups JSON and the summary. */
static void
test_fit_fleet(void)
{
	sf_model_set *set = NULL;
	sf_run_fit_result *r = fit_model("tests/data/fleet/fleet.yaml", &set);

	CU_ASSERT_PTR_NOT_NULL_FATAL(r);
	CU_ASSERT_PTR_NOT_NULL_FATAL(r->fleet);
	CU_ASSERT_PTR_NULL(r->fit);
	CU_ASSERT(r->fleet->count > 2);
	CU_ASSERT(r->fleet->failed > 0); /* job few: one row */
	CU_ASSERT_EQUAL(json_array_size(json_object_get(r->out.json, "groups")),
	                r->fleet->count);
	CU_ASSERT_PTR_NOT_NULL(strstr(r->out.text, "groups,"));
	sf_run_fit_result_free(r);
	sf_model_set_free(set);
}

static void
test_validate(void)
{
	sf_model_set *set = load(MODEL);
	sf_run_validate_settings s;
	sf_run_validate_result *r = NULL;
	sf_error err;

	CU_ASSERT_PTR_NOT_NULL_FATAL(set);
	sf_run_validate_settings_init(&s);
	s.train = "p <= 16";
	s.json = 1;
	CU_ASSERT_EQUAL_FATAL(sf_run_validate(set, &s, &r, &err), SF_OK);
	CU_ASSERT_STRING_EQUAL(r->method, "split");
	CU_ASSERT(r->holdout->predicted_rows > 0);
	CU_ASSERT_PTR_NOT_NULL(json_object_get(r->out.json, "validation"));
	CU_ASSERT_PTR_NOT_NULL(strstr(r->out.text, "validation of amdahl"));
	sf_run_validate_result_free(r);
	/* Exactly one way of holding rows out. */
	s.kfold = 3;
	CU_ASSERT_EQUAL(sf_run_validate(set, &s, &r, &err), SF_EREQUEST);
	CU_ASSERT_PTR_NULL(r);
	sf_model_set_free(set);
}

static void
test_compare(void)
{
	sf_model_set *sets[2] = {load(MODEL), load(MODEL)};
	sf_run_compare_settings s;
	sf_run_compare_result *r = NULL;
	sf_error err;

	CU_ASSERT_PTR_NOT_NULL_FATAL(sets[0]);
	sf_run_compare_settings_init(&s);
	s.kfold = 3;
	CU_ASSERT_EQUAL_FATAL(sf_run_compare(sets, 2, &s, &r, &err), SF_OK);
	CU_ASSERT_EQUAL(r->compare->n, 2);
	CU_ASSERT_STRING_EQUAL(r->compare->c[1]->label, "amdahl (2)");
	CU_ASSERT_PTR_NULL(r->out.json); /* not asked */
	CU_ASSERT_PTR_NOT_NULL(strstr(r->out.text, "rank"));
	sf_run_compare_result_free(r);
	sf_model_set_free(sets[0]);
	sf_model_set_free(sets[1]);
}

static void
test_predict(void)
{
	const char *fit = save_fit();
	const char *at[] = {"p=64", "p=2"};
	sf_run_predict_settings s = {0};
	sf_run_predict_result *r = NULL;
	sf_error err;

	s.fits = &fit;
	s.nfits = 1;
	s.at = at;
	s.nat = 2;
	s.json = 1;
	CU_ASSERT_EQUAL_FATAL(sf_run_predict(&s, &r, &err), SF_OK);
	CU_ASSERT_EQUAL(r->set->count, 1);
	CU_ASSERT_EQUAL(r->predictions[0]->n, 2);
	CU_ASSERT(isfinite(r->predictions[0]->points[0].time));
	CU_ASSERT(r->predictions[0]->interval);
	{
		/* Written point by point: the bytes of the whole tree. */
		json_t *doc =
		    sf_prediction_json(r->set->fits[0], r->predictions[0]);
		char *text = NULL, *tree = NULL;

		CU_ASSERT_PTR_NULL(r->out.json);
		CU_ASSERT_EQUAL(sf_run_output_json_text(&r->out, &text, &err),
		                SF_OK);
		CU_ASSERT_EQUAL(sf_run_json_text(doc, &tree, &err), SF_OK);
		CU_ASSERT_STRING_EQUAL(text, tree);
		CU_ASSERT_EQUAL(json_array_size(json_object_get(doc, "points")),
		                2);
		json_decref(doc);
		free(text);
		free(tree);
	}
	sf_run_predict_result_free(r);
	{
		/* two fits: their average, written the same way */
		const char *two[] = {fit, fit};
		json_t *doc;
		char *text = NULL, *tree = NULL;

		s.fits = two;
		s.nfits = 2;
		CU_ASSERT_EQUAL_FATAL(sf_run_predict(&s, &r, &err), SF_OK);
		doc = sf_average_json((const sf_fitfile *const *)r->fits,
		                      r->average);
		CU_ASSERT_EQUAL(sf_run_output_json_text(&r->out, &text, &err),
		                SF_OK);
		CU_ASSERT_EQUAL(sf_run_json_text(doc, &tree, &err), SF_OK);
		CU_ASSERT_STRING_EQUAL(text, tree);
		json_decref(doc);
		free(text);
		free(tree);
		sf_run_predict_result_free(r);
		s.fits = &fit;
		s.nfits = 1;
	}
	/* A point not understood: a fault of the request, named. */
	at[0] = "q=1";
	s.nat = 1;
	CU_ASSERT_EQUAL(sf_run_predict(&s, &r, &err), SF_EREQUEST);
	CU_ASSERT_PTR_NULL(r);
	CU_ASSERT_PTR_NOT_NULL(strstr(err.message, "--at 'q=1': "));
	CU_ASSERT_STRING_EQUAL(err.file, "");
}

static void
test_scale(void)
{
	const char *fit = save_fit();
	sf_run_scale_settings s;
	sf_run_scale_result *r = NULL;
	sf_error err;

	sf_run_scale_settings_init(&s);
	s.fits = &fit;
	s.nfits = 1;
	s.request.over = "p=1:64";
	s.chart = 1;
	CU_ASSERT_EQUAL_FATAL(sf_run_scale(&s, &r, &err), SF_OK);
	CU_ASSERT_EQUAL(r->count, 1);
	CU_ASSERT(r->studies[0]->table->n >= 7); /* 1, 2, ..., 64 */
	CU_ASSERT(isfinite(r->studies[0]->answers.fastest));
	CU_ASSERT_PTR_NOT_NULL(r->chart);
	CU_ASSERT_PTR_NOT_NULL(strstr(r->out.text, "fastest"));
	sf_run_scale_result_free(r);
	/* A study the fit cannot answer. */
	s.request.over = "q=1:64";
	CU_ASSERT_EQUAL(sf_run_scale(&s, &r, &err), SF_EREQUEST);
	CU_ASSERT_PTR_NULL(r);
}

static void
test_next(void)
{
	const char *fit = save_fit();
	sf_run_next_settings s;
	sf_run_next_result *r = NULL;
	sf_error err;

	sf_run_next_settings_init(&s);
	s.fits = &fit;
	s.nfits = 1;
	s.target = "p=256";
	s.over = "p=1:128";
	CU_ASSERT_EQUAL_FATAL(sf_run_next(&s, &r, &err), SF_OK);
	CU_ASSERT(r->next->n >= 8);
	CU_ASSERT_EQUAL(r->target[0], 256);
	CU_ASSERT_PTR_NOT_NULL(strstr(r->out.text, "next run for amdahl"));
	sf_run_next_result_free(r);
	s.target = "p=";
	CU_ASSERT_EQUAL(sf_run_next(&s, &r, &err), SF_EREQUEST);
	CU_ASSERT_PTR_NOT_NULL(strstr(err.message, "--target 'p=': "));
}

/* A fit's text already in memory (the C API's fits) answers predict,
 * scale and next as its file does, named as given. */
static void
test_fit_text(void)
{
	sf_model_set *set = NULL;
	sf_run_fit_result *f = fit_model(MODEL, &set);
	const char *name = "<fit>", *at[] = {"p=64"}, *text[1] = {NULL};
	sf_run_predict_settings p = {0};
	sf_run_predict_result *a = NULL, *b = NULL;
	sf_run_scale_settings s;
	sf_run_scale_result *c = NULL;
	sf_run_next_settings n;
	sf_run_next_result *d = NULL;
	char *json = NULL;

	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	CU_ASSERT_EQUAL_FATAL(sf_run_json_text(f->out.json, &json, NULL),
	                      SF_OK);
	CU_ASSERT_EQUAL(sf_run_json_save(f->out.json, in_dir("t.json"), NULL),
	                SF_OK);
	p.fits = &name;
	p.nfits = 1;
	p.at = at;
	p.nat = 1;
	text[0] = json;
	p.texts = text;
	CU_ASSERT_EQUAL_FATAL(sf_run_predict(&p, &a, NULL), SF_OK);
	CU_ASSERT_STRING_EQUAL(a->set->fits[0]->path, "<fit>");
	name = in_dir("t.json");
	p.texts = NULL;
	CU_ASSERT_EQUAL_FATAL(sf_run_predict(&p, &b, NULL), SF_OK);
	CU_ASSERT_EQUAL(a->predictions[0]->points[0].time,
	                b->predictions[0]->points[0].time);
	CU_ASSERT_EQUAL(a->predictions[0]->points[0].pi.hi,
	                b->predictions[0]->points[0].pi.hi);
	sf_run_scale_settings_init(&s);
	s.fits = &name;
	s.texts = text;
	s.nfits = 1;
	s.request.over = "p=1:64";
	CU_ASSERT_EQUAL(sf_run_scale(&s, &c, NULL), SF_OK);
	sf_run_next_settings_init(&n);
	name = "<fit>";
	n.fits = &name;
	n.texts = text;
	n.nfits = 1;
	n.target = "p=256";
	n.over = "p=1:128";
	CU_ASSERT_EQUAL(sf_run_next(&n, &d, NULL), SF_OK);
	sf_run_next_result_free(d);
	sf_run_scale_result_free(c);
	sf_run_predict_result_free(a);
	sf_run_predict_result_free(b);
	free(json);
	sf_run_fit_result_free(f);
	sf_model_set_free(set);
}

static void
test_check(void)
{
	sf_model_set *set = load("tests/data/fleet/fleet.yaml");
	sf_run_check_result *r = NULL;
	sf_run_data d = {0};
	sf_error err;

	CU_ASSERT_PTR_NOT_NULL_FATAL(set);
	CU_ASSERT_EQUAL_FATAL(
	    sf_run_check(set->models[0], &d, 0, NULL, NULL, &r, &err), SF_OK);
	CU_ASSERT_PTR_NOT_NULL(strstr(r->out.text, "model: fleet"));
	CU_ASSERT_PTR_NULL(r->groups);
	CU_ASSERT_EQUAL(sf_run_check_groups(r, &d, &err), SF_OK);
	CU_ASSERT_PTR_NOT_NULL_FATAL(r->groups);
	CU_ASSERT(r->groups->count > 2);
	sf_run_check_result_free(r);
	sf_model_set_free(set);
}

/* Run f with stdout and stderr going to a file; returns the bytes they
 * wrote. */
static long
silent(void (*f)(void))
{
	int out = dup(STDOUT_FILENO), errfd = dup(STDERR_FILENO);
	int sink = open(in_dir("printed"), O_CREAT | O_TRUNC | O_WRONLY, 0600);
	long size;

	fflush(stdout);
	fflush(stderr);
	dup2(sink, STDOUT_FILENO);
	dup2(sink, STDERR_FILENO);
	f();
	fflush(stdout);
	fflush(stderr);
	size = lseek(sink, 0, SEEK_END);
	dup2(out, STDOUT_FILENO);
	dup2(errfd, STDERR_FILENO);
	close(out);
	close(errfd);
	close(sink);
	return size;
}

/* 1 when r's board has a formula given as name. */
static int
on_board(const sf_run_discover_result *r, const char *name)
{
	for (size_t i = 0; i < r->search->nboard; i++)
		if (r->search->board[i].model != NULL &&
		    strcmp(r->search->board[i].model, name) == 0)
			return 1;
	return 0;
}

/*
 * discover with the formula library: on the quick start's model (inputs p,
 * b and n) the library's formulas of those inputs are on the board, named
 * @NAME (@NAME/MODEL in a models: file); those of other inputs are not,
 * nor the model's own file, nor the library's copy of its formula
 * (@ddp-candidates/generic fits the rows exactly as it does).  Off with
 * discover.library: false; a library that cannot be read is a warning.
 */
static void
test_discover_library(void)
{
	sf_model_set *set = load("expressions/ddp-generic.yaml");
	sf_run_discover_settings s;
	sf_run_discover_result *r = NULL;
	sf_error err;
	sf_test_warnings warnings = {0};

	CU_ASSERT_PTR_NOT_NULL_FATAL(set);
	sf_run_discover_settings_init(&s);
	s.options.threads = 1;
	s.options.budget = 3000;
	s.library = sf_test_path("");
	CU_ASSERT_EQUAL_FATAL(sf_run_discover(set, &s, &r, &err), SF_OK);
	CU_ASSERT_TRUE(on_board(r, "ddp-generic"));
	CU_ASSERT_TRUE(on_board(r, "@gustafson"));
	CU_ASSERT_TRUE(on_board(r, "@amdahl"));
	CU_ASSERT_TRUE(on_board(r, "@ernest"));
	CU_ASSERT_TRUE(on_board(r, "@ddp-candidates/io-parallel"));
	CU_ASSERT_FALSE(on_board(r, "@ddp-candidates/generic"));
	CU_ASSERT_FALSE(on_board(r, "@ddp-generic"));
	CU_ASSERT_FALSE(on_board(r, "@pollux"));
	CU_ASSERT_FALSE(on_board(r, "@lattuada"));
	CU_ASSERT_FALSE(on_board(r, "@ddp-pipeline"));
	CU_ASSERT_PTR_NOT_NULL(strstr(r->out.text, "model @gustafson: "));
	CU_ASSERT_TRUE(r->search->space.library);
	for (size_t i = 0; i < r->search->nboard; i++) {
		const sf_discover_candidate *c = &r->search->board[i];

		if (c->model != NULL && strcmp(c->model, "ddp-generic") == 0)
			CU_ASSERT_FALSE(c->library);
		if (c->model != NULL && strcmp(c->model, "@gustafson") == 0)
			CU_ASSERT_TRUE(c->library);
	}
	CU_ASSERT_PTR_NOT_NULL(strstr(r->model_text, "  library: true\n"));
	sf_run_discover_result_free(r);
	/* off */
	set->discover.library = 0;
	CU_ASSERT_EQUAL_FATAL(sf_run_discover(set, &s, &r, &err), SF_OK);
	CU_ASSERT_TRUE(on_board(r, "ddp-generic"));
	CU_ASSERT_FALSE(on_board(r, "@gustafson"));
	CU_ASSERT_PTR_NOT_NULL(strstr(r->model_text, "  library: false\n"));
	sf_run_discover_result_free(r);
	/* no library there: a warning, and the search as without */
	set->discover.library = -1;
	s.library = in_dir("nowhere");
	s.warn = sf_test_warn;
	s.warn_ctx = &warnings;
	CU_ASSERT_EQUAL_FATAL(sf_run_discover(set, &s, &r, &err), SF_OK);
	CU_ASSERT_EQUAL(warnings.count, 1);
	CU_ASSERT_FALSE(on_board(r, "@gustafson"));
	sf_run_discover_result_free(r);
	sf_model_set_free(set);
}

/* discover: the board, the winner's model file, the shapes, a fleet, and
 * the requests it refuses. */
static void
test_discover(void)
{
	sf_model_set *set = load(MODEL), *written = NULL;
	sf_run_discover_settings s;
	sf_run_discover_result *r = NULL;
	sf_table *t = NULL;
	sf_error err;

	CU_ASSERT_PTR_NOT_NULL_FATAL(set);
	sf_run_discover_settings_init(&s);
	s.options.threads = 1;
	s.json = 1;
	CU_ASSERT_EQUAL_FATAL(sf_run_discover(set, &s, &r, &err), SF_OK);
	CU_ASSERT_PTR_NOT_NULL(r->search);
	CU_ASSERT(r->search->nboard > 1);
	CU_ASSERT_PTR_NULL(r->fleet);
	CU_ASSERT_PTR_NOT_NULL(strstr(r->out.text, "best found"));
	CU_ASSERT_PTR_NOT_NULL(json_object_get(r->out.json, "discover"));
	/* not written: beside the model file, named after the model */
	CU_ASSERT_PTR_NOT_NULL(strstr(r->model_path, "expressions/amdahl-"));
	CU_ASSERT_EQUAL(sf_model_parse(r->model_path, r->model_text,
	                               strlen(r->model_text), &written, NULL,
	                               NULL, &err),
	                SF_OK);
	/* an ensemble of the winner (d1) and the tied formulas after it */
	if (written != NULL) {
		CU_ASSERT(written->ensemble);
		CU_ASSERT_EQUAL(written->count, r->search->nmembers);
		CU_ASSERT_STRING_EQUAL(written->models[0]->name, "d1");
	}
	sf_model_set_free(written);
	sf_run_discover_result_free(r);
	/* the grammar alone */
	s.shapes = 1;
	CU_ASSERT_EQUAL_FATAL(sf_run_discover(set, &s, &r, &err), SF_OK);
	CU_ASSERT(r->nshapes > 5);
	CU_ASSERT_PTR_NULL(r->search);
	CU_ASSERT_PTR_NOT_NULL(strstr(r->out.text, r->shapes[0]));
	sf_run_discover_result_free(r);
	s.shapes = 0;
	/* every group of a column alone */
	s.data.by = "model";
	s.data.change.where = "job == 'resnet50'";
	sf_model_set_free(set);
	set = NULL;
	CU_ASSERT_EQUAL_FATAL(sf_run_data_load(sf_test_path(MODEL), NULL, 0,
	                                       &s.data.change, NULL, NULL, &set,
	                                       &err),
	                      SF_OK);
	CU_ASSERT_EQUAL_FATAL(sf_run_discover(set, &s, &r, &err), SF_OK);
	CU_ASSERT_PTR_NOT_NULL(r->fleet);
	CU_ASSERT_PTR_NULL(r->search);
	CU_ASSERT_PTR_NULL(r->model_text);
	CU_ASSERT_PTR_NOT_NULL(strstr(r->out.text, "groups,"));
	sf_run_discover_result_free(r);
	/* a fleet writes no model file */
	s.output = in_dir("found.yaml");
	CU_ASSERT_EQUAL(sf_run_discover(set, &s, &r, &err), SF_EREQUEST);
	CU_ASSERT_PTR_NULL(r);
	s.data.by = NULL;
	/* the model file it writes must name its data: no table */
	s.output = NULL;
	CU_ASSERT_EQUAL_FATAL(sf_table_parse("gpus,step_time_s\n1,2\n", 21,
	                                     "<stdin>", NULL, &t, &err),
	                      SF_OK);
	s.data.table = t;
	CU_ASSERT_EQUAL(sf_run_discover(set, &s, &r, &err), SF_EREQUEST);
	CU_ASSERT_PTR_NOT_NULL(strstr(err.message, "not standard input"));
	s.data.table = NULL;
	/* and never over its model file */
	s.output = set->models[0]->path;
	CU_ASSERT_EQUAL(sf_run_discover(set, &s, &r, &err), SF_EREQUEST);
	CU_ASSERT_PTR_NOT_NULL(strstr(err.message, "would overwrite"));
	sf_table_free(t);
	sf_model_set_free(set);
}

static int bad_code, bad_line, bad_column;
static char bad_file[SF_ERROR_FILE_MAX];

/* Load a model whose bound is not a number, and fit a model set that has
 * no such model. */
static void
run_bad(void)
{
	const char *path = sf_test_data("model/bad/bound_text.yaml");
	sf_model_set *set = NULL;
	sf_error err;

	bad_code =
	    sf_run_data_load(path, NULL, 0, NULL, NULL, NULL, &set, &err);
	bad_line = err.line;
	bad_column = err.column;
	snprintf(bad_file, sizeof bad_file, "%s", err.file);
	sf_model_set_free(set);
}

static void
test_bad_model(void)
{
	CU_ASSERT_EQUAL(silent(run_bad), 0);
	CU_ASSERT(bad_code != SF_OK);
	CU_ASSERT(bad_line > 0);
	CU_ASSERT(bad_column > 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(bad_file, "bound_text.yaml"));
}

static void
test_no_such_model(void)
{
	sf_model_set *set = load(MODEL);
	sf_run_fit_settings s;
	sf_run_fit_result *r = NULL;
	sf_error err;

	CU_ASSERT_PTR_NOT_NULL_FATAL(set);
	sf_run_fit_settings_init(&s);
	s.data.model = "amdhal";
	CU_ASSERT_EQUAL(sf_run_fit(set, &s, &r, &err), SF_EREQUEST);
	CU_ASSERT_PTR_NULL(r);
	CU_ASSERT_PTR_NOT_NULL(strstr(err.message, "did you mean 'amdahl'?"));
	sf_model_set_free(set);
}

int
main(void)
{
	CU_TestInfo tests[] = {
	    {"fit: the command's constants and JSON", test_fit_as_command},
	    {"fit: a fleet's groups", test_fit_fleet},
	    {"validate", test_validate},
	    {"compare", test_compare},
	    {"predict, and a point not understood", test_predict},
	    {"scale, and a study the fit cannot answer", test_scale},
	    {"next", test_next},
	    {"a fit's text in memory: predict, scale, next", test_fit_text},
	    {"check and its groups", test_check},
	    {"discover: board, model file, shapes, fleet, refusals",
	     test_discover},
	    {"discover: the library's formulas beside the found ones",
	     test_discover_library},
	    {"a bad model: code, FILE:LINE:COL, nothing printed",
	     test_bad_model},
	    {"no such model: a fault of the request", test_no_such_model},
	    CU_TEST_INFO_NULL,
	};
	CU_SuiteInfo suites[] = {
	    {"run", suite_init, suite_clean, NULL, NULL, tests},
	    CU_SUITE_INFO_NULL,
	};
	return sf_test_main(suites);
}
