/*
 * test_model.c - the YAML model loader: every key of a good file, and a
 * table of bad files (tests/data/model/bad/expected.tsv), each with the
 * line, column and message it must be rejected with.
 */
#include "input/model.h"
#include "testing.h"

#include <math.h>
#include <string.h>

static void
load_ok(const char *name, sf_model_set **set)
{
	sf_error err;
	int rc;

	sf_error_clear(&err);
	rc = sf_model_load(sf_test_data(name), set, NULL, NULL, &err);
	if (rc != SF_OK)
		fprintf(stderr, "\n%s: %s (line %d col %d)\n", name,
		        err.message, err.line, err.column);
	CU_ASSERT_EQUAL_FATAL(rc, SF_OK);
}

static void
test_good_ddp(void)
{
	sf_model_set *set;
	const sf_model *m;

	load_ok("model/good/ddp.yaml", &set);
	CU_ASSERT_EQUAL_FATAL(set->count, 1);
	m = set->models[0];
	CU_ASSERT_STRING_EQUAL(m->name, "ddp-generic");
	CU_ASSERT_STRING_EQUAL(m->description,
	                       "Epoch time of synchronous data-parallel "
	                       "training");
	CU_ASSERT_PTR_NOT_NULL(strstr(m->data_file, "model/good/ddp.csv"));
	CU_ASSERT_STRING_EQUAL(m->where.text,
	                       "model == 'cnn' && workers <= 16");
	CU_ASSERT_STRING_EQUAL(m->output.text, "epoch_time_s");
	CU_ASSERT_EQUAL(m->ninputs, 3);
	CU_ASSERT_STRING_EQUAL(m->inputs[2].name, "n");
	CU_ASSERT_STRING_EQUAL(m->inputs[2].expr.text, "samples");
	CU_ASSERT_EQUAL(m->inputs[2].line, 11);
	CU_ASSERT_EQUAL(m->nparams, 7);
	CU_ASSERT_EQUAL(sf_model_fitted_count(m), 5);
	CU_ASSERT_STRING_EQUAL(m->params[1].name, "a");
	CU_ASSERT_EQUAL(m->params[1].min, 0);
	CU_ASSERT_EQUAL(m->params[1].max, 0.1);
	CU_ASSERT_TRUE(m->params[1].has_init);
	CU_ASSERT_EQUAL(m->params[1].init, 0.05);
	CU_ASSERT_TRUE(m->params[5].fixed);
	CU_ASSERT_EQUAL(m->params[5].value, 1);
	CU_ASSERT_TRUE(m->params[6].fixed);
	CU_ASSERT_EQUAL(m->params[6].value, 2.5);
	CU_ASSERT_EQUAL(m->nterms, 3);
	CU_ASSERT_STRING_EQUAL(m->terms[0].name, "steps");
	CU_ASSERT_EQUAL(m->terms[0].kind, SF_TERM_OTHER);
	CU_ASSERT_EQUAL(m->terms[1].kind, SF_TERM_COMPUTE); /* by name */
	CU_ASSERT_EQUAL(m->terms[2].kind, SF_TERM_COMMUNICATION);
	CU_ASSERT_STRING_EQUAL(m->terms[2].expr.text,
	                       "steps * (l * log2(p) + w * (p - 1) / p)");
	CU_ASSERT_STRING_EQUAL(m->time.text, "t0 + compute + comm");
	CU_ASSERT_EQUAL(m->time.line, 24);
	CU_ASSERT_EQUAL(m->time.column, 7);
	CU_ASSERT_EQUAL(m->fit.loss, SF_LOSS_RELATIVE);
	CU_ASSERT_EQUAL(m->fit.penalty, SF_PENALTY_L2);
	CU_ASSERT_EQUAL(m->fit.lambda, 1e-3);
	CU_ASSERT_EQUAL(m->fit.algorithm, SF_DE_CLASSIC);
	CU_ASSERT_STRING_EQUAL(m->fit.strategy, "best1bin");
	CU_ASSERT_EQUAL(m->fit.population, 60);
	CU_ASSERT_EQUAL(m->fit.max_evals, 200000);
	CU_ASSERT_EQUAL(m->fit.tol, 1e-8);
	CU_ASSERT_TRUE(m->fit.has_seed);
	CU_ASSERT_EQUAL(m->fit.seed, UINT64_MAX);
	CU_ASSERT_FALSE(m->fit.polish);
	CU_ASSERT_EQUAL(m->fit.mutation_lo, 0.5);
	CU_ASSERT_EQUAL(m->fit.mutation_hi, 1);
	CU_ASSERT_EQUAL(m->fit.recombination, 0.7);
	CU_ASSERT_EQUAL(m->fit.init, SF_INIT_UNIFORM);
	sf_model_set_free(set);
}

static void
test_good_models_list(void)
{
	sf_model_set *set;
	const sf_model *a, *b;

	load_ok("model/good/compare.yaml", &set);
	CU_ASSERT_EQUAL_FATAL(set->count, 2);
	a = set->models[0];
	b = set->models[1];
	CU_ASSERT_STRING_EQUAL(a->name, "ernest");
	CU_ASSERT_STRING_EQUAL(b->name, "amdahl");
	/* Shared data and inputs, per-model fit overrides. */
	CU_ASSERT_STRING_EQUAL(a->output.text, "time_s");
	CU_ASSERT_STRING_EQUAL(b->output.text, "time_s");
	CU_ASSERT_STRING_EQUAL(a->data_file, b->data_file);
	CU_ASSERT_EQUAL(a->ninputs, 2);
	CU_ASSERT_EQUAL(b->ninputs, 3);
	CU_ASSERT_STRING_EQUAL(b->inputs[2].name, "q");
	/* A shared input keeps where it was written, for warnings. */
	CU_ASSERT_EQUAL(a->inputs[1].line, 7);
	CU_ASSERT_EQUAL(a->inputs[1].column, 3);
	CU_ASSERT_EQUAL(b->inputs[1].line, 7);
	CU_ASSERT_EQUAL(b->inputs[2].line, 19);
	CU_ASSERT_EQUAL(a->fit.loss, SF_LOSS_SSE);
	CU_ASSERT_EQUAL(b->fit.loss, SF_LOSS_RELATIVE);
	CU_ASSERT_EQUAL(a->nparams, 4);
	CU_ASSERT_EQUAL(b->nparams, 2);
	sf_model_set_free(set);
}

/* A models: list's own name and description are its models' defaults;
 * population and popsize given at two levels: the model's wins. */
static void
test_models_list_defaults(void)
{
	static const char text[] = "name: cands\n"
	                           "description: shared\n"
	                           "fit: {optimizer: {popsize: 20}}\n"
	                           "models:\n"
	                           "  - parameters: {a: {min: 0, max: 1}}\n"
	                           "    time: a * p\n"
	                           "    fit: {optimizer: {population: 12}}\n"
	                           "  - name: own\n"
	                           "    description: mine\n"
	                           "    parameters: {a: {min: 0, max: 1}}\n"
	                           "    time: a / p\n";
	sf_model_set *set;
	sf_error err;

	CU_ASSERT_EQUAL_FATAL(sf_model_parse("l.yaml", text, sizeof text - 1,
	                                     &set, NULL, NULL, &err),
	                      SF_OK);
	CU_ASSERT_EQUAL_FATAL(set->count, 2);
	CU_ASSERT_STRING_EQUAL(set->models[0]->name, "cands-1");
	CU_ASSERT_STRING_EQUAL(set->models[0]->description, "shared");
	CU_ASSERT_EQUAL(set->models[0]->fit.population, 12);
	CU_ASSERT_EQUAL(set->models[0]->fit.popsize, 0);
	CU_ASSERT_STRING_EQUAL(set->models[1]->name, "own");
	CU_ASSERT_STRING_EQUAL(set->models[1]->description, "mine");
	CU_ASSERT_EQUAL(set->models[1]->fit.population, 0);
	CU_ASSERT_EQUAL(set->models[1]->fit.popsize, 20);
	CU_ASSERT_EQUAL(set->models[0]->ensemble_weight, 1);
	CU_ASSERT_FALSE(sf_model_set_weighed(set));
	sf_model_set_free(set);
}

/* The model set of the model file text (named path), which must load. */
static sf_model_set *
parse_ok(const char *path, const char *text)
{
	sf_model_set *set = NULL;
	sf_error err;

	CU_ASSERT_EQUAL_FATAL(
	    sf_model_parse(path, text, strlen(text), &set, NULL, NULL, &err),
	    SF_OK);
	return set;
}

/* A models: item's weight: is its share of the ensemble; unequal ones
 * make the set weighed. */
static void
test_models_weights(void)
{
	static const char text[] = "ensemble: true\n"
	                           "models:\n"
	                           "  - parameters: {a: {min: 0, max: 1}}\n"
	                           "    time: a * p\n"
	                           "    weight: 3\n"
	                           "  - parameters: {a: {min: 0, max: 1}}\n"
	                           "    time: a / p\n"
	                           "  - parameters: {a: {min: 0, max: 1}}\n"
	                           "    time: a\n"
	                           "    weight: 0.5\n";
	sf_model_set *set = parse_ok("w.yaml", text);

	CU_ASSERT_EQUAL_FATAL(set->count, 3);
	CU_ASSERT_EQUAL(set->models[0]->ensemble_weight, 3);
	CU_ASSERT_EQUAL(set->models[1]->ensemble_weight, 1);
	CU_ASSERT_EQUAL(set->models[2]->ensemble_weight, 0.5);
	CU_ASSERT_TRUE(sf_model_set_weighed(set));
	CU_ASSERT_DOUBLE_EQUAL(sf_model_set_share(set, 0), 3 / 4.5, 1e-15);
	sf_model_set_free(set);
}

/* A member's inputs are the file's and its own: the first member's are
 * within the second's, not the other way round. */
static void
test_inputs_within(void)
{
	sf_model_set *set =
	    parse_ok("w.yaml", "inputs: {p: p}\n"
	                       "models:\n"
	                       "  - parameters: {a: {min: 0, max: 1}}\n"
	                       "    time: a * p\n"
	                       "  - inputs: {t: threads}\n"
	                       "    parameters: {a: {min: 0, max: 1}}\n"
	                       "    time: a * p / t\n");

	CU_ASSERT_EQUAL_FATAL(set->count, 2);
	CU_ASSERT_TRUE(sf_model_inputs_within(set->models[0], set->models[1]));
	CU_ASSERT_FALSE(sf_model_inputs_within(set->models[1], set->models[0]));
	CU_ASSERT_TRUE(sf_model_inputs_within(set->models[1], set->models[1]));
	sf_model_set_free(set);
}

static void
test_defaults(void)
{
	static const char text[] = "time: a * p\n"
	                           "parameters: {a: {min: 0, max: 1}}\n";
	sf_model_set *set = parse_ok("dir/sub/my.model.yaml", text);
	const sf_model *m = set->models[0];

	CU_ASSERT_STRING_EQUAL(m->name, "my");
	CU_ASSERT_STRING_EQUAL(m->description, "");
	CU_ASSERT_PTR_NULL(m->data_file);
	CU_ASSERT_PTR_NULL(m->output.text);
	CU_ASSERT_EQUAL(m->fit.loss, SF_LOSS_RELATIVE);
	CU_ASSERT_EQUAL(m->fit.penalty, SF_PENALTY_NONE);
	CU_ASSERT_EQUAL(m->fit.algorithm, SF_DE_LSHADE);
	CU_ASSERT_TRUE(m->fit.polish);
	CU_ASSERT_FALSE(m->fit.has_seed);
	CU_ASSERT_EQUAL(m->fit.weighting, SF_WEIGHTS_NONE);
	/* the interval's prior: the built-in one's (0, and < 0 for the noise
	 * weight, whose 0 is a value) */
	CU_ASSERT_EQUAL(m->fit.prior_scale, 0);
	CU_ASSERT(m->fit.prior_noise_weight < 0);
	/* no disagreement known; a' and q the built-in ones' */
	CU_ASSERT(m->fit.prior_disagreement < 0);
	CU_ASSERT_EQUAL(m->fit.prior_agreed_scale, 0);
	CU_ASSERT(m->fit.prior_disagreement_weight < 0);
	CU_ASSERT(m->fit.prior_regime < 0); /* no regime known */
	/* no hardware speed; its scale the built-in one's */
	CU_ASSERT_EQUAL(m->fit.prior_hardware[0], '\0');
	CU_ASSERT_EQUAL(m->fit.prior_hardware_scale, 0);
	sf_model_set_free(set);
}

/* fit.prior: each key read, and a noise weight, a disagreement and its
 * weight of 0 kept (0 is a value: no such term). */
static void
test_prior(void)
{
	static const char text[] = "time: a * p\n"
	                           "parameters: {a: {min: 0, max: 1}}\n"
	                           "fit: {prior: {scale: 0.1, noise_weight: 0, "
	                           "dof: 4, bias_weight: 2, disagreement: 0, "
	                           "agreed_scale: 0.05, disagreement_weight: "
	                           "0}}\n";
	static const char half[] = "time: a * p\n"
	                           "parameters: {a: {min: 0, max: 1}}\n"
	                           "fit:\n  prior:\n    disagreement: 0.25\n"
	                           "    regime: 0.3374\n";
	static const char hardware[] =
	    "inputs: {p: p, g: gflops}\n"
	    "models:\n"
	    "  - {time: a * p / g, parameters: {a: {min: 0, max: 1}}}\n"
	    "  - {time: a * p + b / g, parameters: {a: {min: 0, max: 1}, "
	    "b: {min: 0, max: 1}}}\n"
	    "fit: {prior: {hardware: g, hardware_scale: 0.5}}\n";
	sf_model_set *set = parse_ok("prior.yaml", text);
	const sf_model *m = set->models[0];

	CU_ASSERT_EQUAL(m->fit.prior_scale, 0.1);
	CU_ASSERT_EQUAL(m->fit.prior_noise_weight, 0);
	CU_ASSERT_EQUAL(m->fit.prior_dof, 4);
	CU_ASSERT_EQUAL(m->fit.prior_bias_weight, 2);
	CU_ASSERT_EQUAL(m->fit.prior_disagreement, 0);
	CU_ASSERT_EQUAL(m->fit.prior_agreed_scale, 0.05);
	CU_ASSERT_EQUAL(m->fit.prior_disagreement_weight, 0);
	CU_ASSERT(m->fit.prior_regime < 0);
	sf_model_set_free(set);
	/* the disagreement and the regime, as discover writes them: the rest
	 * built in */
	set = parse_ok("half.yaml", half);
	m = set->models[0];
	CU_ASSERT_EQUAL(m->fit.prior_disagreement, 0.25);
	CU_ASSERT_EQUAL(m->fit.prior_regime, 0.3374);
	CU_ASSERT_EQUAL(m->fit.prior_scale, 0);
	CU_ASSERT_EQUAL(m->fit.prior_agreed_scale, 0);
	CU_ASSERT(m->fit.prior_disagreement_weight < 0);
	sf_model_set_free(set);
	/* a hardware speed, where the file names it, and its scale; in a
	 * models: list's shared fit: every member's */
	set = parse_ok("hardware.yaml", hardware);
	for (size_t i = 0; i < set->count; i++) {
		m = set->models[i];
		CU_ASSERT_STRING_EQUAL(m->fit.prior_hardware, "g");
		CU_ASSERT_EQUAL(m->fit.prior_hardware_line, 5);
		CU_ASSERT_EQUAL(m->fit.prior_hardware_column, 25);
		CU_ASSERT_EQUAL(m->fit.prior_hardware_scale, 0.5);
	}
	CU_ASSERT_EQUAL(set->count, 2);
	sf_model_set_free(set);
}

/* Each bad file fails with the expected position and message. */
static void
test_bad_files(void)
{
	char path[4096], line[1024];
	FILE *table;
	int count = 0;

	snprintf(path, sizeof path, "%s",
	         sf_test_data("model/bad/expected.tsv"));
	table = fopen(path, "r");
	CU_ASSERT_PTR_NOT_NULL_FATAL(table);
	while (fgets(line, sizeof line, table) != NULL) {
		char file[256], message[512], rel[300];
		int want_line, want_col, ok;
		sf_model_set *set = NULL;
		sf_error err;

		if (line[0] == '#')
			continue;
		line[strcspn(line, "\n")] = '\0';
		if (sscanf(line, "%255[^\t]\t%d\t%d\t%511[^\n]", file,
		           &want_line, &want_col, message) != 4)
			continue;
		snprintf(rel, sizeof rel, "model/bad/%s", file);
		sf_error_clear(&err);
		ok = sf_model_load(sf_test_data(rel), &set, NULL, NULL, &err) !=
		     SF_OK;
		ok = ok && set == NULL && err.line == want_line &&
		     err.column == want_col &&
		     strstr(err.message, message) != NULL;
		if (!ok)
			fprintf(stderr,
			        "\n  %s: got %d:%d '%s', want %d:%d '%s'\n",
			        file, err.line, err.column, err.message,
			        want_line, want_col, message);
		CU_ASSERT_TRUE(ok);
		/* Positioned errors quote their line for the caret. */
		if (ok && want_line > 0)
			CU_ASSERT_TRUE(err.source_column > 0);
		sf_model_set_free(set);
		count++;
	}
	fclose(table);
	CU_ASSERT_TRUE(count >= 60);
}

/* A derived input ({derived: EXPR}) becomes the first term (kind other,
 * derived), in the order given, and leaves the inputs; a models: file
 * shares it; a mapping without derived:, or with another key, is
 * refused at its place. */
static void
test_derived_inputs(void)
{
	static const char text[] =
	    "inputs:\n"
	    "  p: workers\n"
	    "  steps: {derived: \"max(1, floor(n / (p * b)))\"}\n"
	    "  b: batch\n"
	    "  n: samples\n"
	    "parameters: {a: {min: 0, max: 1}}\n"
	    "terms: {compute: \"a * steps\"}\n"
	    "time: compute\n";
	static const char shared[] =
	    "inputs: {p: p, s: {derived: \"2 * p\"}}\n"
	    "models:\n"
	    "  - {parameters: {a: {min: 0, max: 1}}, time: \"a * s\"}\n"
	    "  - inputs: {s: s}\n"
	    "    parameters: {a: {min: 0, max: 1}}\n"
	    "    time: \"a * s\"\n";
	static const struct {
		const char *text;
		int line, column;
		const char *message;
	} bad[] = {
	    {"inputs: {p: {expr: p}}\nparameters: {a: {min: 0, max: 1}}\n"
	     "time: a\n",
	     1, 14, "unknown key 'expr'"},
	    {"inputs: {p: {}}\nparameters: {a: {min: 0, max: 1}}\ntime: a\n", 1,
	     13, "or {derived: EXPR}"},
	};
	sf_model_set *set = NULL;
	const sf_model *m;
	sf_error err;

	CU_ASSERT_EQUAL_FATAL(sf_model_parse("d.yaml", text, sizeof text - 1,
	                                     &set, NULL, NULL, &err),
	                      SF_OK);
	m = set->models[0];
	CU_ASSERT_EQUAL(m->ninputs, 3);
	CU_ASSERT_STRING_EQUAL(m->inputs[1].name, "b");
	CU_ASSERT_EQUAL_FATAL(m->nterms, 2);
	CU_ASSERT_STRING_EQUAL(m->terms[0].name, "steps");
	CU_ASSERT_STRING_EQUAL(m->terms[0].expr.text,
	                       "max(1, floor(n / (p * b)))");
	CU_ASSERT_EQUAL(m->terms[0].line, 3);
	CU_ASSERT(m->terms[0].derived);
	CU_ASSERT_EQUAL(m->terms[0].kind, SF_TERM_OTHER);
	CU_ASSERT_STRING_EQUAL(m->terms[1].name, "compute");
	CU_ASSERT(!m->terms[1].derived);
	sf_model_set_free(set);
	set = NULL;
	CU_ASSERT_EQUAL_FATAL(sf_model_parse("s.yaml", shared,
	                                     sizeof shared - 1, &set, NULL,
	                                     NULL, &err),
	                      SF_OK);
	CU_ASSERT_EQUAL(set->models[0]->ninputs, 1);
	CU_ASSERT_EQUAL(set->models[0]->nterms, 1);
	CU_ASSERT_EQUAL(set->models[1]->ninputs, 2);
	CU_ASSERT_EQUAL(set->models[1]->nterms, 0);
	sf_model_set_free(set);
	for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
		set = NULL;
		sf_error_clear(&err);
		CU_ASSERT_NOT_EQUAL(sf_model_parse("b.yaml", bad[k].text,
		                                   strlen(bad[k].text), &set,
		                                   NULL, NULL, &err),
		                    SF_OK);
		CU_ASSERT_PTR_NULL(set);
		if (err.line != bad[k].line || err.column != bad[k].column ||
		    strstr(err.message, bad[k].message) == NULL)
			fprintf(stderr, "\n  %zu: %d:%d %s\n", k, err.line,
			        err.column, err.message);
		CU_ASSERT_EQUAL(err.line, bad[k].line);
		CU_ASSERT_EQUAL(err.column, bad[k].column);
		CU_ASSERT_PTR_NOT_NULL(strstr(err.message, bad[k].message));
	}
}

static void
test_missing_file(void)
{
	sf_model_set *set = (sf_model_set *)1;
	sf_error err;

	CU_ASSERT_EQUAL(
	    sf_model_load("/nonexistent/m.yaml", &set, NULL, NULL, &err),
	    SF_EIO);
	CU_ASSERT_PTR_NULL(set);
	CU_ASSERT_STRING_EQUAL(err.file, "/nonexistent/m.yaml");
	CU_ASSERT_PTR_NOT_NULL(strstr(err.message, "cannot open"));
}

/* Parse text as "w.yaml", collecting its warnings in ws; NULL if it
 * fails. */
static sf_model_set *
parse_counting_warnings(const char *text, sf_test_warnings *ws)
{
	sf_model_set *set = NULL;

	memset(ws, 0, sizeof *ws);
	CU_ASSERT_EQUAL(sf_model_parse("w.yaml", text, strlen(text), &set,
	                               sf_test_warn, ws, NULL),
	                SF_OK);
	return set;
}

static void
test_warning_strategy_ignored(void)
{
	static const char text[] = "time: a\n"
	                           "parameters: {a: {min: 0, max: 1}}\n"
	                           "fit: {optimizer: {strategy: rand1exp}}\n";
	sf_test_warnings ws;
	sf_model_set *set = parse_counting_warnings(text, &ws);

	CU_ASSERT_PTR_NOT_NULL_FATAL(set);
	CU_ASSERT_EQUAL(ws.count, 1);
	CU_ASSERT_PTR_NOT_NULL(strstr(ws.last.message, "ignored by lshade"));
	sf_model_set_free(set);
}

/* mutation and recombination are classic-DE settings too; with de they
 * are taken without a word, and F = 2 is allowed only as a dither bound. */
static void
test_warning_de_settings_ignored(void)
{
	static const char jso[] = "time: a\n"
	                          "parameters: {a: {min: 0, max: 1}}\n"
	                          "fit: {optimizer: {algorithm: jso, "
	                          "mutation: 0.8, recombination: 0.9}}\n";
	static const char de[] = "time: a\n"
	                         "parameters: {a: {min: 0, max: 1}}\n"
	                         "fit: {optimizer: {algorithm: de, "
	                         "mutation: [0.5, 2], recombination: 0.9}}\n";
	sf_test_warnings ws;
	sf_model_set *set = parse_counting_warnings(jso, &ws);

	CU_ASSERT_PTR_NOT_NULL_FATAL(set);
	CU_ASSERT_EQUAL(ws.count, 2);
	CU_ASSERT_PTR_NOT_NULL(
	    strstr(ws.last.message, "recombination applies"));
	CU_ASSERT_PTR_NOT_NULL(strstr(ws.last.message, "ignored by jso"));
	sf_model_set_free(set);

	set = parse_counting_warnings(de, &ws);
	CU_ASSERT_PTR_NOT_NULL_FATAL(set);
	CU_ASSERT_EQUAL(ws.count, 0);
	CU_ASSERT_EQUAL(set->models[0]->fit.mutation_hi, 2);
	sf_model_set_free(set);
}

/* Columns inside a formula map back to the right place in the file,
 * for plain, quoted and folded scalars. */
static void
test_locate(void)
{
	static const char text[] = "parameters: {a: {min: 0, max: 1}}\n"
	                           "terms:\n"
	                           "  plain: a + bogus\n"
	                           "  quoted: 'a + ''x'' + bogus'\n"
	                           "  folded: >-\n"
	                           "    a +\n"
	                           "    bogus\n"
	                           "time: \"a + \\t bogus\"\n";
	static const struct {
		int term, column, line, want_column;
	} cases[] = {
	    {0, 5, 3, 14},  /* "bogus" in the plain scalar */
	    {0, 1, 3, 10},  /* its first character */
	    {1, 11, 4, 24}, /* after a doubled quote */
	    {2, 5, 7, 5},   /* on the folded scalar's second line */
	    {-1, 7, 8, 15}, /* after an escape in a double-quoted one */
	};
	sf_model_set *set;
	sf_error err;

	CU_ASSERT_EQUAL_FATAL(sf_model_parse("loc.yaml", text, sizeof text - 1,
	                                     &set, NULL, NULL, &err),
	                      SF_OK);
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		const sf_model *m = set->models[0];
		const sf_model_text *at = cases[i].term < 0
		                              ? &m->time
		                              : &m->terms[cases[i].term].expr;

		sf_error_clear(&err);
		sf_error_at(&err, SF_ENAME, NULL, 1, cases[i].column, "x");
		sf_model_locate(m, at, &err);
		CU_ASSERT_STRING_EQUAL(err.file, "loc.yaml");
		CU_ASSERT_EQUAL(err.line, cases[i].line);
		CU_ASSERT_EQUAL(err.column, cases[i].want_column);
		if (err.line != cases[i].line ||
		    err.column != cases[i].want_column)
			fprintf(stderr, "\n  case %zu: got %d:%d\n", i,
			        err.line, err.column);
	}
	sf_model_set_free(set);
}

/* Columns past a folded formula's end stay on its last line; a "column N"
 * in the message becomes the file's line and column; a column at a
 * character an escape made, which is nowhere in the file, points at the
 * formula's start and says so. */
static void
test_locate_ends(void)
{
	static const char text[] = "parameters: {a: {min: 0, max: 1}}\n"
	                           "time: >\n"
	                           "  a +\n"
	                           "  (a / p\n"
	                           "terms:\n"
	                           "  e: \"a + \\x24\"\n";
	sf_model_set *set;
	sf_error err;
	const sf_model *m;

	CU_ASSERT_EQUAL_FATAL(sf_model_parse("end.yaml", text, sizeof text - 1,
	                                     &set, NULL, NULL, &err),
	                      SF_OK);
	m = set->models[0];
	sf_error_clear(&err);
	sf_error_at(&err, SF_ESYNTAX, NULL, 1, 12,
	            "missing ')' to close the '(' at column 5");
	sf_model_locate(m, &m->time, &err);
	CU_ASSERT_EQUAL(err.line, 4);
	CU_ASSERT_EQUAL(err.column, 9);
	CU_ASSERT_STRING_EQUAL(err.message, "missing ')' to close the '(' at "
	                                    "line 4, column 3");

	sf_error_clear(&err);
	sf_error_at(&err, SF_ESYNTAX, NULL, 1, 5, "unexpected character '$'");
	sf_model_locate(m, &m->terms[0].expr, &err);
	CU_ASSERT_EQUAL(err.line, 6);
	CU_ASSERT_EQUAL(err.column, 6);
	CU_ASSERT_STRING_EQUAL(err.message,
	                       "unexpected character '$' (at column 5 of the "
	                       "formula that starts here)");
	sf_model_set_free(set);
}

/* The discover: block, every key; without the flag a file with no
 * formula is still an error, with it the formula is optional - but not
 * in a models: list. */
static void
test_discover_block(void)
{
	static const char list[] = "inputs: {p: workers}\n"
	                           "models:\n"
	                           "  - parameters: {a: {min: 0, max: 1}}\n";
	const sf_model_discover *d;
	const sf_model *m;
	sf_model_set *set = NULL;
	sf_error err;

	sf_error_clear(&err);
	CU_ASSERT_EQUAL(sf_model_load(sf_test_data("model/good/discover.yaml"),
	                              &set, NULL, NULL, &err),
	                SF_ESYNTAX);
	CU_ASSERT_PTR_NOT_NULL(strstr(err.message, "has no 'time'"));
	CU_ASSERT_EQUAL_FATAL(
	    sf_model_load_flags(sf_test_data("model/good/discover.yaml"),
	                        SF_MODEL_FORMULA_OPTIONAL, &set, NULL, NULL,
	                        &err),
	    SF_OK);
	m = set->models[0];
	CU_ASSERT_PTR_NULL(m->time.text);
	CU_ASSERT_EQUAL(m->nparams, 0);
	CU_ASSERT_EQUAL(m->ninputs, 3);
	d = &set->discover;
	CU_ASSERT_TRUE(d->given);
	CU_ASSERT_EQUAL(d->line, 11);
	CU_ASSERT_EQUAL(d->column, 3);
	CU_ASSERT_STRING_EQUAL(d->extrapolate.text, "p");
	CU_ASSERT_EQUAL(d->extrapolate.line, 11);
	CU_ASSERT_EQUAL(d->extrapolate.column, 16);
	CU_ASSERT_STRING_EQUAL(d->count.text, "n");
	CU_ASSERT_STRING_EQUAL(d->workers.text, "none");
	CU_ASSERT_EQUAL_FATAL(d->ninputs, 2);
	CU_ASSERT_STRING_EQUAL(d->inputs[1].text, "b");
	CU_ASSERT_EQUAL(d->inputs[1].line, 14);
	CU_ASSERT_EQUAL(d->inputs[1].column, 15);
	CU_ASSERT_EQUAL_FATAL(d->nexponents, 4);
	CU_ASSERT_EQUAL(d->exponents[0], -1);
	CU_ASSERT_EQUAL(d->exponents[1], 0.5);
	CU_ASSERT_EQUAL(d->exponents[3], 2);
	CU_ASSERT_EQUAL_FATAL(d->nlogs, 2);
	CU_ASSERT_EQUAL(d->logs[1], 1);
	CU_ASSERT_EQUAL(d->factors, 1);
	CU_ASSERT_EQUAL(d->max_terms, 3);
	CU_ASSERT_EQUAL(d->beam, 4);
	CU_ASSERT_EQUAL(d->budget, 5000);
	CU_ASSERT_EQUAL(d->overlap, 0);
	CU_ASSERT_EQUAL(d->continuous, 1);
	CU_ASSERT_EQUAL(d->library, 0);
	CU_ASSERT_EQUAL(d->growth_cap, 0);
	CU_ASSERT_EQUAL(d->tie, 0.1);
	sf_model_set_free(set);

	/* Without the block: every setting at its "default" value. */
	load_ok("model/good/ddp.yaml", &set);
	d = &set->discover;
	CU_ASSERT_FALSE(d->given);
	CU_ASSERT_PTR_NULL(d->extrapolate.text);
	CU_ASSERT_EQUAL(d->ninputs + d->nexponents + d->nlogs, 0);
	CU_ASSERT_EQUAL(d->factors + d->max_terms + d->beam + d->budget, 0);
	CU_ASSERT_EQUAL(d->overlap, -1);
	CU_ASSERT_EQUAL(d->continuous, -1);
	CU_ASSERT_EQUAL(d->library, -1);
	CU_ASSERT_EQUAL(d->growth_cap, -1);
	CU_ASSERT_TRUE(d->tie < 0);
	sf_model_set_free(set);

	set = NULL;
	CU_ASSERT_EQUAL(sf_model_parse_flags("list.yaml", list, sizeof list - 1,
	                                     SF_MODEL_FORMULA_OPTIONAL, &set,
	                                     NULL, NULL, &err),
	                SF_ESYNTAX);
	CU_ASSERT_PTR_NULL(set);
	CU_ASSERT_EQUAL(err.line, 3);
	CU_ASSERT_PTR_NOT_NULL(strstr(err.message, "has no 'time'"));
}

int
main(void)
{
	static CU_TestInfo tests[] = {
	    {"good: every key of the generic model", test_good_ddp},
	    {"good: models list sharing data", test_good_models_list},
	    {"defaults", test_defaults},
	    {"fit.prior", test_prior},
	    {"bad files: position and message", test_bad_files},
	    {"derived inputs: moved to the terms", test_derived_inputs},
	    {"missing file", test_missing_file},
	    {"models: an item's weight:", test_models_weights},
	    {"models: list name, description, population",
	     test_models_list_defaults},
	    {"a member's inputs within another's", test_inputs_within},
	    {"warning: strategy ignored", test_warning_strategy_ignored},
	    {"warning: mutation, recombination ignored",
	     test_warning_de_settings_ignored},
	    {"formula columns map into the file", test_locate},
	    {"formula columns: ends, messages, escapes", test_locate_ends},
	    {"discover: block; the formula optional", test_discover_block},
	    CU_TEST_INFO_NULL,
	};
	static CU_SuiteInfo suites[] = {
	    {"model", NULL, NULL, NULL, NULL, tests},
	    CU_SUITE_INFO_NULL,
	};
	return sf_test_main(suites);
}
