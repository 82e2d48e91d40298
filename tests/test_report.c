/*
 * test_report.c - the text and JSON reports of a fit (use/report.[ch]).
 *
 * The model, data and formula are real (tests/data/report/runs.csv: five
 * rows kept, the sixth filtered out); the fit result, statistics and
 * resamples are written here by hand, so every number the report shows is
 * known: each key of the JSON report that scalefit(1) (OUTPUT) lists is
 * checked for its type and value, undetermined values for null, doubles
 * for the 17 digits that read back to the same bits, and the text report
 * line by line.
 */
#include "fit/fit.h"
#include "fit/resample.h"
#include "fit/stats.h"
#include "use/report.h"
#include "testing.h"

#include <errno.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static const char model_yaml[] =
    "name: small\n"
    "description: a report's test\n"
    "data:\n"
    "  file: runs.csv\n"
    "  output: t\n"
    "  where: p < 16\n"
    "inputs:\n"
    "  p: p\n"
    "  n: n\n"
    "  k: kind\n"
    "parameters:\n"
    "  a: {min: 0, max: 10}\n"
    "  s: 2\n"
    "  b: {min: -1, max: 3}\n"
    "  d: {min: 0, max: 4}\n"
    "terms:\n"
    "  compute: {expr: b * n / p, kind: compute}\n"
    "  comm_all: d * log2(p)\n"
    "time: a + s * (compute + comm_all) + if(k == 'gpu', 0.5, 0)\n"
    "fit: {loss: sse}\n";

/* A fit of the model with three fitted parameters (a, b, d; d at its
 * lower bound, a solved separably) and its statistics, by hand. */
typedef struct hand {
	sf_test_problem fx;
	sf_fit_result fit;
	sf_stats stats;
	sf_report report;
	double theta[3], theta_search[3];
	int at_bound[3], linear[3];
	double predicted[5], se[3], lo[3], hi[3], cov[9], corr[9];
} hand;

static void
hand_open(hand *h)
{
	static const double cov[9] = {1.0 / 64,   -1.0 / 512, NAN,
	                              -1.0 / 512, 1.0 / 256,  NAN,
	                              NAN,        NAN,        NAN};
	static const double corr[9] = {1,   -0.5, NAN, -0.5, 1,
	                               NAN, NAN,  NAN, NAN};
	static const double predicted[5] = {10, 6, 9.5, 5, 8};

	memset(h, 0, sizeof *h);
	CU_ASSERT_FATAL(sf_test_problem_parse(&h->fx, "report/model.yaml",
	                                      model_yaml) == 0);
	h->theta[0] = 0.5;
	h->theta[1] = 1.0 / 3;
	h->theta[2] = 0;
	h->theta_search[0] = 0.5;
	h->theta_search[1] = 0.25;
	h->theta_search[2] = 0.125;
	h->at_bound[2] = 1;
	h->linear[0] = 1;
	h->fit.nparams = 3;
	h->fit.theta = h->theta;
	h->fit.theta_search = h->theta_search;
	h->fit.at_bound = h->at_bound;
	h->fit.linear = h->linear;
	h->fit.nlinear = 1;
	h->fit.cost = h->fit.loss = 0.75;
	h->fit.penalty = 0;
	h->fit.cost_search = 1.5;
	h->fit.evaluations = 1200;
	h->fit.generations = 40;
	h->fit.population = 30;
	h->fit.scale = SF_SCALE_LINEAR;
	h->fit.stop_reason = "tol";
	h->fit.seconds = 0.25;
	h->fit.polish_ran = 1;
	h->fit.polish_kept = 1;
	h->fit.polish_stop = "xtol";
	h->fit.polish_iterations = 6;
	h->fit.threads = 2;
	sf_fit_settings_default(&h->fit.settings);
	h->fit.settings.loss = SF_LOSS_SSE;
	h->fit.settings.seed = 7;

	memcpy(h->predicted, predicted, sizeof predicted);
	memcpy(h->cov, cov, sizeof cov);
	memcpy(h->corr, corr, sizeof corr);
	h->se[0] = 0.1171875; /* 15/128: 0.1172 to 4 digits */
	h->se[1] = 0.0625;
	h->se[2] = NAN;
	h->lo[0] = 0.25;
	h->hi[0] = 0.75;
	h->lo[1] = 0.1875;
	h->hi[1] = 0.4375;
	h->lo[2] = h->hi[2] = NAN;
	h->stats.n = 5;
	h->stats.k = 3;
	h->stats.n_free = 2;
	h->stats.dof = 3;
	h->stats.sse = 0.75;
	h->stats.rmse = 0.375;
	h->stats.mape = 4.5;
	h->stats.max_ape = 9.25;
	h->stats.r2 = 0.875;
	h->stats.r2_adj = 0.625;
	h->stats.chisqr = 0.75;
	h->stats.aic = -2.5;
	h->stats.aicc = NAN; /* undefined */
	h->stats.bic = 12.5;
	h->stats.predicted = h->predicted;
	h->stats.se = h->se;
	h->stats.ci_low = h->lo;
	h->stats.ci_high = h->hi;
	h->stats.cov = h->cov;
	h->stats.corr = h->corr;
	h->stats.condition = INFINITY; /* not finite: null */
	h->stats.rank = 2;
	h->stats.t95 = 3.182446305284263;

	h->report.model = h->fx.p.model;
	h->report.data = h->fx.p.data;
	h->report.formula = h->fx.p.formula;
	h->report.fit = &h->fit;
	h->report.stats = &h->stats;
}

static void
hand_close(hand *h)
{
	sf_test_problem_close(&h->fx);
}

/* ---- JSON values by path --------------------------------------------------
 */

/* The value at path ("a.b[2].c") in v, or NULL. */
static json_t *
at(json_t *v, const char *path)
{
	char key[128];

	while (v != NULL && *path != '\0') {
		size_t len;

		if (*path == '.')
			path++;
		if (*path == '[') {
			char *end;
			unsigned long i = strtoul(path + 1, &end, 10);

			v = json_array_get(v, i);
			path = end + 1;
			continue;
		}
		len = strcspn(path, ".[");
		if (len >= sizeof key)
			return NULL;
		memcpy(key, path, len);
		key[len] = '\0';
		v = json_object_get(v, key);
		path += len;
	}
	return v;
}

/* What a key must hold: an integer, a real (to the bit), a string, null,
 * true, false, or absent. */
enum want_kind { INT, REAL, STR, NUL, TRUE, FALSE, ABSENT };

typedef struct want {
	const char *path;
	enum want_kind kind;
	double x;
	const char *s;
} want;

static void
check_json(json_t *root, const want *w, size_t n)
{
	for (size_t k = 0; k < n; k++) {
		json_t *v = at(root, w[k].path);
		int ok = 0;

		switch (w[k].kind) {
		case INT:
			ok = json_is_integer(v) &&
			     (double)json_integer_value(v) == w[k].x;
			break;
		case REAL: {
			double x = json_is_real(v) ? json_real_value(v) : NAN;
			ok = json_is_real(v) &&
			     memcmp(&x, &w[k].x, sizeof x) == 0;
			break;
		}
		case STR:
			ok = json_is_string(v) &&
			     strcmp(json_string_value(v), w[k].s) == 0;
			break;
		case NUL:
			ok = json_is_null(v);
			break;
		case TRUE:
			ok = json_is_true(v);
			break;
		case FALSE:
			ok = json_is_false(v);
			break;
		case ABSENT:
			ok = v == NULL;
			break;
		}
		if (!ok) {
			char *text =
			    v != NULL ? json_dumps(v, JSON_ENCODE_ANY) : NULL;
			fprintf(stderr, "\n%s: %s\n", w[k].path,
			        text != NULL ? text : "(absent)");
			free(text);
		}
		CU_ASSERT(ok);
	}
}

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

/* ---- the JSON report ---------------------------------------------------- */

static void
test_json_keys(void)
{
	hand h;
	json_t *j;
	char keys[512];

	hand_open(&h);
	j = sf_report_json(&h.report);
	CU_ASSERT_PTR_NOT_NULL_FATAL(j);
	sf_test_keys(j, keys, sizeof keys);
	CU_ASSERT_STRING_EQUAL(keys,
	                       "scalefit_version model data parameters metrics "
	                       "optimizer correlations covariance input_ranges "
	                       "residuals");
	sf_test_keys(at(j, "model"), keys, sizeof keys);
	CU_ASSERT_STRING_EQUAL(
	    keys, "name description time terms inputs fixed output fit");
	/* parameters in the model's order, fixed ones included */
	sf_test_keys(at(j, "parameters"), keys, sizeof keys);
	CU_ASSERT_STRING_EQUAL(keys, "a s b d");
	sf_test_keys(at(j, "parameters.a"), keys, sizeof keys);
	CU_ASSERT_STRING_EQUAL(keys, "value stderr ci95 min max at_bound "
	                             "determined poorly_determined "
	                             "search_value");
	sf_test_keys(at(j, "parameters.s"), keys, sizeof keys);
	CU_ASSERT_STRING_EQUAL(keys, "value fixed");
	sf_test_keys(at(j, "metrics"), keys, sizeof keys);
	CU_ASSERT_STRING_EQUAL(keys,
	                       "sse rmse mape max_ape r2 r2_adjusted chisqr "
	                       "aic aicc bic loss penalty cost "
	                       "condition_number dof rank rank_deficient");
	sf_test_keys(at(j, "model.terms"), keys, sizeof keys);
	CU_ASSERT_STRING_EQUAL(keys, "compute comm_all");
	sf_test_keys(at(j, "residuals[0]"), keys, sizeof keys);
	CU_ASSERT_STRING_EQUAL(keys, "row line inputs observed predicted");
	json_decref(j);
	hand_close(&h);
}

static void
test_json_values(void)
{
	const want w[] = {
	    {"scalefit_version", STR, 0, PACKAGE_VERSION},
	    {"model.name", STR, 0, "small"},
	    {"model.description", STR, 0, "a report's test"},
	    {"model.time", STR, 0,
	     "a + s * (compute + comm_all) + if(k == 'gpu', 0.5, 0)"},
	    {"model.terms.compute.expr", STR, 0, "b * n / p"},
	    {"model.terms.compute.kind", STR, 0, "compute"},
	    /* guessed from the name */
	    {"model.terms.comm_all.kind", STR, 0, "communication"},
	    {"model.inputs.p", STR, 0, "p"},
	    {"model.inputs.k.column", STR, 0, "kind"},
	    {"model.inputs.k.levels[0]", STR, 0, "cpu"},
	    {"model.inputs.k.levels[1]", STR, 0, "gpu"},
	    {"model.inputs.k.levels[2]", ABSENT, 0, NULL},
	    {"model.fixed.s", INT, 2, NULL},
	    {"model.fixed.a", ABSENT, 0, NULL},
	    {"model.output", STR, 0, "t"},
	    {"model.fit.loss", STR, 0, "sse"},
	    {"model.fit.regularization", STR, 0, "none"},
	    {"model.fit.lambda", INT, 0, NULL},
	    {"data.rows", INT, 5, NULL},
	    {"data.where", STR, 0, "p < 16"},
	    {"data.file_rows", INT, 6, NULL},
	    {"data.filtered_out", INT, 1, NULL},
	    {"data.skipped", INT, 0, NULL},
	    {"data.configurations", INT, 5, NULL},
	    {"parameters.a.value", REAL, 0.5, NULL},
	    {"parameters.a.stderr", REAL, 0.1171875, NULL},
	    {"parameters.a.ci95[0]", REAL, 0.25, NULL},
	    {"parameters.a.ci95[1]", REAL, 0.75, NULL},
	    {"parameters.a.min", INT, 0, NULL},
	    {"parameters.a.max", INT, 10, NULL},
	    {"parameters.a.at_bound", FALSE, 0, NULL},
	    {"parameters.a.determined", TRUE, 0, NULL},
	    {"parameters.a.search_value", REAL, 0.5, NULL},
	    {"parameters.s.value", INT, 2, NULL},
	    {"parameters.s.fixed", TRUE, 0, NULL},
	    {"parameters.s.stderr", ABSENT, 0, NULL},
	    {"parameters.b.value", REAL, 1.0 / 3, NULL},
	    {"parameters.b.min", INT, -1, NULL},
	    {"parameters.b.search_value", REAL, 0.25, NULL},
	    /* at its bound: no standard error, still determined */
	    {"parameters.d.value", INT, 0, NULL},
	    {"parameters.d.stderr", NUL, 0, NULL},
	    {"parameters.d.ci95[0]", NUL, 0, NULL},
	    {"parameters.d.ci95[1]", NUL, 0, NULL},
	    {"parameters.d.at_bound", TRUE, 0, NULL},
	    {"parameters.d.determined", TRUE, 0, NULL},
	    {"parameters.d.search_value", REAL, 0.125, NULL},
	    {"metrics.sse", REAL, 0.75, NULL},
	    {"metrics.rmse", REAL, 0.375, NULL},
	    {"metrics.mape", REAL, 4.5, NULL},
	    {"metrics.max_ape", REAL, 9.25, NULL},
	    {"metrics.r2", REAL, 0.875, NULL},
	    {"metrics.r2_adjusted", REAL, 0.625, NULL},
	    {"metrics.chisqr", REAL, 0.75, NULL},
	    {"metrics.aic", REAL, -2.5, NULL},
	    {"metrics.aicc", NUL, 0, NULL},
	    {"metrics.bic", REAL, 12.5, NULL},
	    {"metrics.loss", REAL, 0.75, NULL},
	    {"metrics.penalty", INT, 0, NULL},
	    {"metrics.cost", REAL, 0.75, NULL},
	    {"metrics.condition_number", NUL, 0, NULL},
	    {"metrics.dof", INT, 3, NULL},
	    {"metrics.rank", INT, 2, NULL},
	    {"metrics.rank_deficient", FALSE, 0, NULL},
	    {"optimizer.algorithm", STR, 0, "lshade"},
	    {"optimizer.strategy", ABSENT, 0, NULL},
	    {"optimizer.seed", INT, 7, NULL},
	    {"optimizer.scale", STR, 0, "auto"},
	    {"optimizer.chosen_scale", STR, 0, "linear"},
	    {"optimizer.separable[0]", STR, 0, "a"},
	    {"optimizer.separable[1]", ABSENT, 0, NULL},
	    {"optimizer.threads", INT, 2, NULL},
	    {"optimizer.population", INT, 30, NULL},
	    {"optimizer.evaluations", INT, 1200, NULL},
	    {"optimizer.generations", INT, 40, NULL},
	    {"optimizer.restarts", INT, 0, NULL},
	    {"optimizer.runs[0]", ABSENT, 0, NULL},
	    {"optimizer.stop_reason", STR, 0, "tol"},
	    {"optimizer.search_cost", REAL, 1.5, NULL},
	    {"optimizer.seconds", REAL, 0.25, NULL},
	    {"optimizer.polish.ran", TRUE, 0, NULL},
	    {"optimizer.polish.kept", TRUE, 0, NULL},
	    {"optimizer.polish.stop", STR, 0, "xtol"},
	    {"optimizer.polish.iterations", INT, 6, NULL},
	    {"optimizer.polish.note", ABSENT, 0, NULL},
	    {"correlations[0][0]", INT, 1, NULL},
	    {"correlations[0][1]", REAL, -0.5, NULL},
	    {"correlations[1][0]", REAL, -0.5, NULL},
	    {"correlations[0][2]", NUL, 0, NULL},
	    {"correlations[2][2]", NUL, 0, NULL},
	    {"correlations[3]", ABSENT, 0, NULL},
	    {"covariance[0][0]", REAL, 1.0 / 64, NULL},
	    {"covariance[1][0]", REAL, -1.0 / 512, NULL},
	    {"covariance[1][1]", REAL, 1.0 / 256, NULL},
	    {"covariance[2][1]", NUL, 0, NULL},
	    {"covariance[1][3]", ABSENT, 0, NULL},
	    {"input_ranges.p[0]", INT, 1, NULL},
	    {"input_ranges.p[1]", INT, 8, NULL},
	    {"input_ranges.n[0]", INT, 8, NULL},
	    {"input_ranges.n[1]", INT, 32, NULL},
	    {"input_ranges.k[0]", INT, 0, NULL},
	    {"input_ranges.k[1]", INT, 1, NULL},
	    {"residuals[1].row", INT, 1, NULL},
	    {"residuals[1].line", INT, 5, NULL},
	    {"residuals[1].inputs.p", INT, 2, NULL},
	    {"residuals[1].inputs.n", INT, 8, NULL},
	    {"residuals[1].inputs.k", INT, 1, NULL},
	    {"residuals[1].observed", REAL, 6.25, NULL},
	    {"residuals[1].predicted", INT, 6, NULL},
	    {"residuals[4].line", INT, 8, NULL},
	    {"residuals[4].observed", INT, 8, NULL},
	    {"residuals[5]", ABSENT, 0, NULL},
	    {"lambda_selection", ABSENT, 0, NULL},
	    {"bootstrap", ABSENT, 0, NULL},
	    {"restarts", ABSENT, 0, NULL},
	};
	want sha[1] = {{"data.sha256", STR, 0, NULL}};
	want file[1] = {{"data.file", STR, 0, NULL}};
	hand h;
	json_t *j;

	hand_open(&h);
	j = sf_report_json(&h.report);
	CU_ASSERT_PTR_NOT_NULL_FATAL(j);
	check_json(j, w, COUNT(w));
	sha[0].s = sf_table_sha256(h.fx.p.table);
	file[0].s = sf_table_file(h.fx.p.table);
	check_json(j, sha, 1);
	check_json(j, file, 1);
	json_decref(j);
	hand_close(&h);
}

/* Without statistics (they could not be computed) every statistic is
 * null; a parameter with an infinite error is not determined. */
static void
test_json_undetermined(void)
{
	static const want no_stats[] = {
	    {"parameters.a.value", REAL, 0.5, NULL},
	    {"parameters.a.stderr", NUL, 0, NULL},
	    {"parameters.a.ci95[0]", NUL, 0, NULL},
	    {"parameters.a.ci95[1]", NUL, 0, NULL},
	    {"parameters.a.determined", TRUE, 0, NULL},
	    {"metrics.sse", NUL, 0, NULL},
	    {"metrics.rmse", NUL, 0, NULL},
	    {"metrics.mape", NUL, 0, NULL},
	    {"metrics.max_ape", NUL, 0, NULL},
	    {"metrics.r2", NUL, 0, NULL},
	    {"metrics.r2_adjusted", NUL, 0, NULL},
	    {"metrics.chisqr", NUL, 0, NULL},
	    {"metrics.aic", NUL, 0, NULL},
	    {"metrics.aicc", NUL, 0, NULL},
	    {"metrics.bic", NUL, 0, NULL},
	    {"metrics.condition_number", NUL, 0, NULL},
	    {"metrics.loss", REAL, 0.75, NULL},
	    {"metrics.cost", REAL, 0.75, NULL},
	    {"metrics.dof", INT, 0, NULL},
	    {"metrics.rank", INT, 0, NULL},
	    {"metrics.rank_deficient", FALSE, 0, NULL},
	    {"correlations[0][0]", NUL, 0, NULL},
	    {"correlations[1][2]", NUL, 0, NULL},
	    {"covariance[0][0]", NUL, 0, NULL},
	    {"covariance[2][1]", NUL, 0, NULL},
	    {"covariance[3]", ABSENT, 0, NULL},
	    {"residuals[0].observed", REAL, 10.5, NULL},
	    {"residuals[0].predicted", NUL, 0, NULL},
	};
	static const want infinite[] = {
	    {"parameters.b.stderr", NUL, 0, NULL},
	    {"parameters.b.ci95[0]", NUL, 0, NULL},
	    {"parameters.b.determined", FALSE, 0, NULL},
	    {"parameters.a.determined", TRUE, 0, NULL},
	    {"metrics.rank_deficient", TRUE, 0, NULL},
	    {"metrics.rank", INT, 1, NULL},
	};
	hand h;
	json_t *j;

	hand_open(&h);
	h.report.stats = NULL;
	j = sf_report_json(&h.report);
	CU_ASSERT_PTR_NOT_NULL_FATAL(j);
	check_json(j, no_stats, COUNT(no_stats));
	json_decref(j);

	h.report.stats = &h.stats;
	h.se[1] = INFINITY;
	h.lo[1] = -INFINITY;
	h.hi[1] = INFINITY;
	h.stats.rank = 1;
	h.stats.rank_deficient = 1;
	j = sf_report_json(&h.report);
	CU_ASSERT_PTR_NOT_NULL_FATAL(j);
	check_json(j, infinite, COUNT(infinite));
	json_decref(j);
	hand_close(&h);
}

/* Without data.where: null, and every row of the file is fitted. */
static void
test_json_no_where(void)
{
	static const want w[] = {
	    {"data.where", NUL, 0, NULL},
	    {"data.rows", INT, 6, NULL},
	    {"data.file_rows", INT, 6, NULL},
	    {"data.filtered_out", INT, 0, NULL},
	    {"input_ranges.p[1]", INT, 16, NULL},
	    {"residuals[5].line", INT, 9, NULL},
	    {"residuals[5].predicted", NUL, 0, NULL},
	};
	char yaml[sizeof model_yaml];
	const char *where = strstr(model_yaml, "  where: p < 16\n");
	sf_test_problem fx;
	hand h;
	json_t *j;

	CU_ASSERT_PTR_NOT_NULL_FATAL(where);
	snprintf(yaml, sizeof yaml, "%.*s%s", (int)(where - model_yaml),
	         model_yaml, where + strlen("  where: p < 16\n"));
	CU_ASSERT_FATAL(sf_test_problem_parse(&fx, "report/model.yaml", yaml) ==
	                0);
	hand_open(&h);
	h.report.model = fx.p.model;
	h.report.data = fx.p.data;
	h.report.formula = fx.p.formula;
	h.report.stats = NULL; /* made for five rows */
	j = sf_report_json(&h.report);
	CU_ASSERT_PTR_NOT_NULL_FATAL(j);
	check_json(j, w, COUNT(w));
	json_decref(j);
	hand_close(&h);
	sf_test_problem_close(&fx);
}

/* classic DE names its strategy; a seed above 2^53 is a string; lambda:
 * auto's curve; bootstrap and restarts. */
static void
test_json_optional(void)
{
	static const want w[] = {
	    {"optimizer.algorithm", STR, 0, "de"},
	    {"optimizer.strategy", STR, 0, "rand1exp"},
	    {"optimizer.seed", STR, 0, "9007199254740993"},
	    {"model.fit.regularization", STR, 0, "l2"},
	    {"model.fit.lambda", REAL, 0.01, NULL},
	    {"lambda_selection.lambda", REAL, 0.01, NULL},
	    {"lambda_selection.folds", INT, 5, NULL},
	    {"lambda_selection.criterion", STR, 0, "cv_mape"},
	    {"lambda_selection.curve[0].lambda", INT, 0, NULL},
	    {"lambda_selection.curve[0].cv_mape", INT, 5, NULL},
	    {"lambda_selection.curve[1].lambda", REAL, 1e-6, NULL},
	    {"lambda_selection.curve[7].lambda", INT, 1, NULL},
	    {"lambda_selection.curve[7].cv_mape", NUL, 0, NULL},
	    {"lambda_selection.curve[8]", ABSENT, 0, NULL},
	    {"bootstrap.replicates", INT, 2, NULL},
	    {"bootstrap.count", ABSENT, 0, NULL},
	    {"bootstrap.failed", INT, 1, NULL},
	    {"bootstrap.evaluations", INT, 40, NULL},
	    {"bootstrap.parameters.a.ci95[0]", REAL, 0.375, NULL},
	    {"bootstrap.parameters.a.ci95[1]", REAL, 0.625, NULL},
	    {"bootstrap.parameters.a.median", REAL, 0.5, NULL},
	    {"bootstrap.parameters.a.sd", REAL, 0.0625, NULL},
	    {"bootstrap.parameters.d.median", INT, 0, NULL},
	    {"bootstrap.parameters.s", ABSENT, 0, NULL},
	    {"bootstrap.costs[0]", REAL, 0.5, NULL},
	    {"bootstrap.costs[1]", NUL, 0, NULL},
	    {"bootstrap.samples[0][1]", REAL, 0.25, NULL},
	    {"bootstrap.samples[1][0]", NUL, 0, NULL},
	    {"restarts.count", INT, 2, NULL},
	    {"restarts.replicates", ABSENT, 0, NULL},
	    {"restarts.parameters.b.range95[0]", REAL, 0.25, NULL},
	    {"restarts.parameters.b.ci95", ABSENT, 0, NULL},
	};
	static const double samples[6] = {0.5, 0.25, 0, NAN, NAN, NAN};
	static const double costs[2] = {0.5, NAN};
	static const double low[3] = {0.375, 0.25, 0};
	static const double high[3] = {0.625, 0.5, 0};
	static const double median[3] = {0.5, 0.375, 0};
	static const double sd[3] = {0.0625, 0.125, 0};
	sf_resample x = {2,
	                 3,
	                 (double *)samples,
	                 (double *)costs,
	                 1,
	                 (double *)low,
	                 (double *)high,
	                 (double *)median,
	                 (double *)sd,
	                 40};
	hand h;
	json_t *j;

	hand_open(&h);
	h.fit.settings.algorithm = SF_DE_CLASSIC;
	snprintf(h.fit.settings.strategy, sizeof h.fit.settings.strategy,
	         "rand1exp");
	h.fit.settings.seed = 9007199254740993ULL; /* 2^53 + 1 */
	h.fit.settings.penalty = SF_PENALTY_L2;
	h.fit.settings.lambda = 0.01;
	h.fit.lambda_auto = 1;
	h.fit.lambda_folds = 5;
	for (size_t g = 0; g < SF_LAMBDA_GRID; g++) {
		h.fit.lambda_grid[g] = g == 0 ? 0 : pow(10, (double)g - 7);
		h.fit.lambda_cv_mape[g] = 5 - 0.25 * (double)g;
	}
	h.fit.lambda_grid[1] = 1e-6;
	h.fit.lambda_grid[7] = 1;
	h.fit.lambda_cv_mape[7] = NAN;
	h.report.bootstrap = &x;
	h.report.restarts = &x;
	j = sf_report_json(&h.report);
	CU_ASSERT_PTR_NOT_NULL_FATAL(j);
	check_json(j, w, COUNT(w));
	json_decref(j);

	/* 2^53 itself is still an integer */
	h.fit.settings.seed = 9007199254740992ULL;
	j = sf_report_json(&h.report);
	CU_ASSERT_PTR_NOT_NULL_FATAL(j);
	CU_ASSERT(json_is_integer(at(j, "optimizer.seed")));
	CU_ASSERT_EQUAL(json_integer_value(at(j, "optimizer.seed")),
	                9007199254740992LL);
	json_decref(j);
	hand_close(&h);
}

/* ---- numbers, exactly --------------------------------------------------- */

static void
test_json_numbers(void)
{
	/* %.17g, with jansson's ".0" for a real that prints as a whole
	 * number */
	static const struct {
		double x;
		const char *text;
	} cases[] = {
	    {0, "0"},
	    {-0.0, "-0.0"},
	    {2, "2"},
	    {-3, "-3"},
	    {1.5, "1.5"},
	    {0.1, "0.10000000000000001"},
	    {1.0 / 3, "0.33333333333333331"},
	    {9007199254740992.0, "9007199254740992"},   /* 2^53 */
	    {9007199254740994.0, "9007199254740994.0"}, /* above: real */
	    {1e300, "1.0000000000000001e300"}, /* jansson drops the + */
	    {5e-324, "4.9406564584124654e-324"},
	    {NAN, "null"},
	    {INFINITY, "null"},
	    {-INFINITY, "null"},
	};

	for (size_t k = 0; k < COUNT(cases); k++) {
		json_t *v = sf_json_number(cases[k].x);
		char *text;

		CU_ASSERT_PTR_NOT_NULL_FATAL(v);
		text = json_dumps(v, JSON_ENCODE_ANY | JSON_REAL_PRECISION(17));
		CU_ASSERT_PTR_NOT_NULL_FATAL(text);
		if (strcmp(text, cases[k].text) != 0)
			fprintf(stderr, "\ncase %zu: %s\n", k, text);
		CU_ASSERT_STRING_EQUAL(text, cases[k].text);
		if (isfinite(cases[k].x)) {
			/* and it reads back to the same bits */
			double back = strtod(text, NULL);
			CU_ASSERT(memcmp(&back, &cases[k].x, sizeof back) == 0);
		}
		free(text);
		json_decref(v);
	}
}

/* The saved report: indented, 17 digits, one final newline, and every
 * double of the fit back to the bit. */
static void
test_save(void)
{
	char dir[] = "/tmp/sf_test_report.XXXXXX", path[64], *text;
	hand h;
	json_t *j, *back;
	FILE *in;
	long size;
	sf_error err;

	CU_ASSERT_PTR_NOT_NULL_FATAL(mkdtemp(dir));
	snprintf(path, sizeof path, "%s/fit.json", dir);
	hand_open(&h);
	j = sf_report_json(&h.report);
	CU_ASSERT_PTR_NOT_NULL_FATAL(j);
	CU_ASSERT_EQUAL_FATAL(sf_report_save(j, path, &err), SF_OK);
	in = fopen(path, "rb");
	CU_ASSERT_PTR_NOT_NULL_FATAL(in);
	fseek(in, 0, SEEK_END);
	size = ftell(in);
	rewind(in);
	text = calloc((size_t)size + 1, 1);
	CU_ASSERT_FATAL(text != NULL &&
	                fread(text, 1, (size_t)size, in) == (size_t)size);
	fclose(in);
	CU_ASSERT(strncmp(text, "{\n  \"scalefit_version\": ", 24) == 0);
	CU_ASSERT(size >= 2 && text[size - 1] == '\n' && text[size - 2] == '}');
	CU_ASSERT_PTR_NOT_NULL(
	    strstr(text, "\"b\": {\n      \"value\": 0.33333333333333331,\n"));
	CU_ASSERT_PTR_NOT_NULL(strstr(text, "\"stderr\": null,"));
	CU_ASSERT_PTR_NOT_NULL(strstr(text, "\"min\": -1,"));
	back = json_loads(text, 0, NULL);
	CU_ASSERT_PTR_NOT_NULL_FATAL(back);
	CU_ASSERT(json_equal(j, back));
	{
		const char *names[3] = {"a", "b", "d"};

		for (size_t q = 0; q < 3; q++) {
			char key[64];
			double x;

			snprintf(key, sizeof key, "parameters.%s.value",
			         names[q]);
			x = json_number_value(at(back, key));
			CU_ASSERT(memcmp(&x, &h.theta[q], sizeof x) == 0);
		}
	}
	json_decref(back);
	free(text);

	/* written again over itself; the print to a stream is the same
	 * text */
	CU_ASSERT_EQUAL(sf_report_save(j, path, &err), SF_OK);
	{
		char *mem = NULL;
		size_t len = 0;
		FILE *out = open_memstream(&mem, &len);
		char *saved;

		CU_ASSERT_PTR_NOT_NULL_FATAL(out);
		CU_ASSERT_EQUAL(sf_report_print_json(j, out, &err), SF_OK);
		fclose(out);
		in = fopen(path, "rb");
		CU_ASSERT_PTR_NOT_NULL_FATAL(in);
		saved = calloc(len + 2, 1);
		CU_ASSERT_FATAL(saved != NULL);
		CU_ASSERT_EQUAL(fread(saved, 1, len + 1, in), len);
		fclose(in);
		CU_ASSERT_STRING_EQUAL(saved, mem);
		free(saved);
		free(mem);
	}
	unlink(path);
	rmdir(dir);
	json_decref(j);
	hand_close(&h);
}

/* SF_EIO: a directory that does not exist, a directory in the way, a
 * stream that cannot be written; nothing is left behind. */
static void
test_save_errors(void)
{
	char dir[] = "/tmp/sf_test_report.XXXXXX", path[96];
	json_t *j = json_pack("{s:i}", "x", 1);
	sf_error err;

	CU_ASSERT_PTR_NOT_NULL_FATAL(j);
	CU_ASSERT_PTR_NOT_NULL_FATAL(mkdtemp(dir));
	snprintf(path, sizeof path, "%s/missing/fit.json", dir);
	sf_error_clear(&err);
	CU_ASSERT_EQUAL(sf_report_save(j, path, &err), SF_EIO);
	CU_ASSERT_EQUAL(err.code, SF_EIO);
	CU_ASSERT_STRING_EQUAL(err.file, path);

	/* the target is a directory: the rename fails, the temporary file
	 * goes */
	snprintf(path, sizeof path, "%s/fit.json", dir);
	CU_ASSERT_EQUAL_FATAL(mkdir(path, 0700), 0);
	CU_ASSERT_EQUAL(sf_report_save(j, path, &err), SF_EIO);
	CU_ASSERT_EQUAL(rmdir(path), 0);
	CU_ASSERT_EQUAL(rmdir(dir), 0); /* so it was empty */

	{
		FILE *full = fopen("/dev/full", "w");

		if (full != NULL) {
			setvbuf(full, NULL, _IONBF, 0);
			CU_ASSERT_EQUAL(sf_report_print_json(j, full, &err),
			                SF_EIO);
			CU_ASSERT_STRING_EQUAL(err.message,
			                       "could not write the report");
			fclose(full);
		}
	}
	json_decref(j);
}

/* ---- the text report ------------------------------------------------------
 */

/* The text report of r, in a malloc'd string. */
static char *
text_of(const sf_report *r)
{
	char *mem = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&mem, &len);

	CU_ASSERT_PTR_NOT_NULL_FATAL(out);
	sf_report_print_text(r, out);
	fclose(out);
	return mem;
}

/* Compare line by line, to say which differs. */
static void
check_text(const char *got, const char *const *lines, size_t n)
{
	const char *p = got;

	for (size_t k = 0; k < n; k++) {
		size_t len = strlen(lines[k]);
		int ok = strncmp(p, lines[k], len) == 0;

		if (!ok) {
			fprintf(stderr, "\nline %zu: want [%s]\n got [%.*s]\n",
			        k, lines[k], (int)strcspn(p, "\n") + 1, p);
			CU_FAIL("a line of the text report");
			return;
		}
		p += len;
	}
	CU_ASSERT_STRING_EQUAL(p, "");
}

static void
test_text(void)
{
	char first[4200];
	const char *const lines[] = {
	    first,
	    "\n",
	    "  parameter           value   std. error   95% interval"
	    "                  bounds\n",
	    "  a                     0.5       0.1172   [0.25, 0.75]"
	    "                  [0, 10]\n",
	    "  s                       2      (fixed)   "
	    "                             \n",
	    "  b              0.33333333       0.0625   [0.1875, 0.4375]"
	    "              [-1, 3]\n",
	    "  d                       0     at bound   "
	    "                              [0, 4]  at min\n",
	    "\n",
	    "  loss (sse) 0.75\n",
	    "  RMSE 0.375   MAPE 4.5%   max error 9.25%   R^2 0.875000   "
	    "AICc nan   BIC 12.5\n",
	    "\n",
	    "  lshade, seed 7, 2 threads: 1200 evaluations, 40 generations, "
	    "stopped by tol; 0.25 s\n",
	    "  separable: 1 of 3 constants solved by bounded linear least "
	    "squares (a)\n",
	    "  polish: improved the search's answer (xtol after 6 "
	    "iterations)\n",
	};
	hand h;
	char *text;

	hand_open(&h);
	snprintf(first, sizeof first, "fit of small to %s: 5 rows\n",
	         h.fx.p.data->file);
	text = text_of(&h.report);
	check_text(text, lines, COUNT(lines));
	free(text);
	hand_close(&h);
}

/* The runs of the search: their number of restarts on the optimizer's
 * line (none when 0, "1 restart" singular), every run in the JSON. */
static void
test_restarts(void)
{
	static const want w[] = {
	    {"optimizer.restarts", INT, 2, NULL},
	    {"optimizer.runs[0].scale", STR, 0, "linear"},
	    {"optimizer.runs[0].population", INT, 30, NULL},
	    {"optimizer.runs[0].evaluations", INT, 600, NULL},
	    {"optimizer.runs[0].cost", REAL, 1.5, NULL},
	    {"optimizer.runs[0].stop_reason", STR, 0, "tol"},
	    {"optimizer.runs[1].population", INT, 60, NULL},
	    {"optimizer.runs[1].cost", REAL, 0.75, NULL},
	    {"optimizer.runs[2].scale", STR, 0, "log"},
	    {"optimizer.runs[2].evaluations", INT, 200, NULL},
	    {"optimizer.runs[2].cost", NUL, 0, NULL},
	    {"optimizer.runs[2].stop_reason", STR, 0, "max_evals"},
	    {"optimizer.runs[3]", ABSENT, 0, NULL},
	};
	sf_fit_search_run runs[3] = {
	    {SF_SCALE_LINEAR, 30, 600, 1.5, "tol"},
	    {SF_SCALE_LINEAR, 60, 400, 0.75, "stagnation"},
	    {SF_SCALE_LOG, 120, 200, INFINITY, "max_evals"},
	};
	hand h;
	char *text;
	json_t *j;

	hand_open(&h);
	h.fit.runs = runs;
	h.fit.nruns = 3;
	h.fit.restarts = 2;
	text = text_of(&h.report);
	CU_ASSERT_PTR_NOT_NULL(
	    strstr(text, "  lshade, seed 7, 2 threads: 1200 evaluations, 40 "
	                 "generations, 2 restarts, stopped by tol; 0.25 s\n"));
	free(text);
	j = sf_report_json(&h.report);
	CU_ASSERT_PTR_NOT_NULL_FATAL(j);
	check_json(j, w, COUNT(w));
	json_decref(j);
	h.fit.restarts = 1;
	h.fit.nruns = 2;
	text = text_of(&h.report);
	CU_ASSERT_PTR_NOT_NULL(
	    strstr(text, "generations, 1 restart, stopped by tol"));
	free(text);
	hand_close(&h);
}

/* scale: auto's two searches and which won; one polish iteration is
 * singular. */
static void
test_text_searches(void)
{
	hand h;
	char *text;

	hand_open(&h);
	h.fit.searches = 2;
	h.fit.scale = SF_SCALE_LOG;
	h.fit.cost = 0.75;
	h.fit.cost_other = 1.5;
	h.fit.polish_iterations = 1;
	text = text_of(&h.report);
	CU_ASSERT_PTR_NOT_NULL(
	    strstr(text, "  scale auto: searched the parameters as they are "
	                 "and by log magnitude;\n    the log search won "
	                 "(cost 0.75, the linear one 1.5)\n"));
	CU_ASSERT_PTR_NOT_NULL(strstr(text, "after 1 iteration)\n"));
	free(text);
	h.fit.searches = 1;
	text = text_of(&h.report);
	CU_ASSERT_PTR_NULL(strstr(text, "scale auto"));
	free(text);
	hand_close(&h);
}

/* Everything else the text can say: an undetermined parameter and the
 * two warnings, a penalty, no search at all, a skipped polish, lambda:
 * auto, restarts and bootstrap; and no statistics. */
static void
test_text_more(void)
{
	static const double samples[6] = {0.5, 0.25, 0, NAN, NAN, NAN};
	static const double costs[2] = {0.5, NAN};
	static const double low[3] = {0.375, 0.25, 0};
	static const double high[3] = {0.625, 0.5, 0};
	static const double median[3] = {0.5, 0.375, 0};
	static const double sd[3] = {0.0625, 0.125, 0};
	const sf_resample x = {2,
	                       3,
	                       (double *)samples,
	                       (double *)costs,
	                       1,
	                       (double *)low,
	                       (double *)high,
	                       (double *)median,
	                       (double *)sd,
	                       40};
	char first[4200];
	const char *const lines[] = {
	    first,
	    "\n",
	    "  parameter           value   std. error   95% interval"
	    "                  bounds\n",
	    "  a                     0.5       0.1172   [0.25, 0.75]"
	    "                  [0, 10]\n",
	    "  s                       2      (fixed)   "
	    "                             \n",
	    "  b              0.33333333 undetermined   "
	    "                              [-1, 3]\n",
	    "  d                       4     at bound   "
	    "                              [0, 4]  at max\n",
	    "\n",
	    "  loss (sse) 0.75, penalty (l2) 0.125 x lambda 0.01\n",
	    "  RMSE 0.375   MAPE 4.5%   max error 9.25%   R^2 0.875000   "
	    "AICc nan   BIC 12.5\n",
	    "\n",
	    "  no global search needed: 0.25 s\n",
	    "  separable: 3 of 3 constants solved by bounded linear least "
	    "squares (a, b, d), nothing left to search\n",
	    "  polish: skipped: the cost is not a sum of squares\n",
	    "  lambda auto: 0.01, the lowest 5-fold cross-validated MAPE "
	    "of\n",
	    "    0: 5%, 1e-06: 4.75%, 1e-05: 4.5%, 0.0001: 4.25%, 0.001: 4%, "
	    "0.01: 3.75%, 0.1: 3.5%, 1: nan%\n",
	    "\n",
	    "  restarts: 2 seeds (1 failed); the spread of their best "
	    "constants\n",
	    "  parameter             median   2.5% to 97.5% of restarts   sd\n",
	    "  a                        0.5   [0.375, 0.625]                "
	    "0.0625\n",
	    "  b                      0.375   [0.25, 0.5]                   "
	    "0.125\n",
	    "  d                          0   [0, 0]                        "
	    "0\n",
	    "\n",
	    "  bootstrap: 2 replicates resampling configurations (1 failed)\n",
	    "  parameter             median   95% percentile interval\n",
	    "  a                        0.5   [0.375, 0.625]\n",
	    "  b                      0.375   [0.25, 0.5]\n",
	    "  d                          0   [0, 0]\n",
	    "  warning: the Jacobian is rank-deficient: some combination of "
	    "parameters is not determined by the data (rank 1 of 2); the "
	    "parameters in it have no finite standard error\n",
	    "  warning: a and b are strongly correlated (-0.970): the data "
	    "hardly tells them apart\n",
	};
	hand h;
	char *text;

	hand_open(&h);
	snprintf(first, sizeof first, "fit of small to %s: 5 rows\n",
	         h.fx.p.data->file);
	h.theta[2] = 4;
	h.at_bound[2] = 2;
	h.se[1] = INFINITY;
	h.stats.rank = 1;
	h.stats.rank_deficient = 1;
	h.corr[1] = h.corr[3] = -0.97;
	h.fit.settings.penalty = SF_PENALTY_L2;
	h.fit.settings.lambda = 0.01;
	h.fit.penalty = 0.125;
	h.linear[1] = h.linear[2] = 1;
	h.fit.nlinear = 3;
	h.fit.generations = 0;
	h.fit.polish_ran = 0;
	h.fit.polish_note = "the cost is not a sum of squares";
	h.fit.lambda_auto = 1;
	h.fit.lambda_folds = 5;
	for (size_t g = 0; g < SF_LAMBDA_GRID; g++) {
		h.fit.lambda_grid[g] = g == 0 ? 0 : pow(10, (double)g - 7);
		h.fit.lambda_cv_mape[g] = 5 - 0.25 * (double)g;
	}
	h.fit.lambda_cv_mape[7] = NAN;
	h.report.bootstrap = &x;
	h.report.restarts = &x;
	text = text_of(&h.report);
	check_text(text, lines, COUNT(lines));
	free(text);

	/* no statistics: no metrics, "-" for an error, no warnings */
	h.report.stats = NULL;
	h.report.bootstrap = h.report.restarts = NULL;
	h.fit.lambda_auto = 0;
	h.fit.polish_note = NULL;
	text = text_of(&h.report);
	CU_ASSERT_PTR_NOT_NULL(
	    strstr(text, "  b              0.33333333            -   "));
	CU_ASSERT_PTR_NULL(strstr(text, "RMSE"));
	CU_ASSERT_PTR_NULL(strstr(text, "polish"));
	CU_ASSERT_PTR_NULL(strstr(text, "warning"));
	free(text);
	hand_close(&h);
}

/* The error model of a new run, when the fit has one. */
static void
test_json_interval(void)
{
	hand h;
	sf_interval_model im;
	json_t *j;
	char keys[512];
	const want w[] = {
	    {"prediction_interval.level", REAL, 0.95, NULL},
	    {"prediction_interval.errors", STR, 0, "multiplicative"},
	    {"prediction_interval.sigma", REAL, 0.0625, NULL},
	    {"prediction_interval.sigma_residual", REAL, 0.03125, NULL},
	    {"prediction_interval.sigma_replicates", REAL, 0.0625, NULL},
	    {"prediction_interval.replicate_dof", INT, 6, NULL},
	    {"prediction_interval.dof", INT, 9, NULL},
	    {"prediction_interval.t", REAL, 2.2621571627409915, NULL},
	    {"prediction_interval.model_error[0].input", STR, 0, "p"},
	    {"prediction_interval.model_error[0].bias", REAL, 0.015625, NULL},
	    {"prediction_interval.model_error[0].growth", REAL, 0.125, NULL},
	    {"prediction_interval.model_error[0].growth_dof", REAL, 3.5, NULL},
	    {"prediction_interval.model_error[0].evidence", INT, 0, NULL},
	    {"prediction_interval.model_error[0].trend", REAL, 0.0625, NULL},
	    {"prediction_interval.model_error[0].trend_sd", REAL, 0.03125,
	     NULL},
	    {"prediction_interval.model_error[0].trend_cov", REAL,
	     -0.0009765625, NULL},
	    {"prediction_interval.model_error[1].input", STR, 0, "n"},
	    {"prediction_interval.model_error[1].trend", ABSENT, 0, NULL},
	    {"prediction_interval.model_error[2]", ABSENT, 0, NULL},
	    {"prediction_interval.prior.scale", REAL, 0.125, NULL},
	    {"prediction_interval.prior.dof", REAL, 3.5, NULL},
	    {"prediction_interval.prior.bias_weight", INT, 3, NULL},
	    {"prediction_interval.prior.noise_weight", REAL, 1.5, NULL},
	    {"prediction_interval.prior.scale_at_noise", REAL, 0.15625, NULL},
	    {"prediction_interval.prior.regime", ABSENT, 0, NULL},
	    {"prediction_interval.prior.hardware", ABSENT, 0, NULL},
	    {"prediction_interval.chain_fits", INT, 3, NULL},
	    {"prediction_interval.chain_points", INT, 0, NULL},
	    {"prediction_interval.chain_cuts", INT, 0, NULL},
	    {"prediction_interval.regime", NUL, 0, NULL},
	    {"prediction_interval.pace", NUL, 0, NULL},
	};
	const want hw[] = {
	    {"prediction_interval.prior.hardware", STR, 0, "n"},
	    {"prediction_interval.prior.hardware_scale", REAL, 0.375, NULL},
	    {"prediction_interval.prior.hardware_scale_at_noise", REAL, 0.5,
	     NULL},
	};

	hand_open(&h);
	j = sf_report_json(&h.report);
	CU_ASSERT_PTR_NULL(at(j, "prediction_interval"));
	json_decref(j);
	memset(&im, 0, sizeof im);
	im.multiplicative = 1;
	im.sigma = 0.0625;
	im.sigma_residual = 0.03125;
	im.sigma_replicates = 0.0625;
	im.replicate_dof = 6;
	im.dof = 9;
	im.t = 2.2621571627409915;
	/* nothing chained: the prior's own (interval.h) */
	im.prior.scale = 0.125;
	im.prior.dof = 3.5;
	im.prior.bias_weight = 3;
	im.prior.noise_weight = 1.5;
	im.prior_scale = 0.15625;
	im.regime_prior = NAN; /* the model file carries none */
	im.ninputs = h.report.data->ninputs;
	for (size_t k = 0; k <= SF_INTERVAL_INPUTS; k++) {
		im.along[k].bias = 0.015625;
		im.along[k].growth = 0.125;
		im.along[k].growth_dof = 3.5;
	}
	/* p's chain draws a line that climbs toward its top; n's draws
	 * none (no trend keys) */
	im.along[0].trend = 0.0625;
	im.along[0].trend_var = 0.03125 * 0.03125;
	im.along[0].trend_cov = -0.0009765625;
	im.chain_fits = 3;
	h.report.interval = &im;
	j = sf_report_json(&h.report);
	CU_ASSERT_PTR_NOT_NULL_FATAL(j);
	sf_test_keys(j, keys, sizeof keys);
	CU_ASSERT_STRING_EQUAL(keys,
	                       "scalefit_version model data parameters metrics "
	                       "optimizer correlations covariance input_ranges "
	                       "prediction_interval residuals");
	check_json(j, w, COUNT(w));
	json_decref(j);
	/* n a hardware speed (fit.prior.hardware): its name, the prior's
	 * scale along it and that scale at the noise */
	im.hardware = 1;
	im.prior.hardware_scale = 0.375;
	im.hardware_prior_scale = 0.5;
	j = sf_report_json(&h.report);
	CU_ASSERT_PTR_NOT_NULL_FATAL(j);
	check_json(j, hw, COUNT(hw));
	json_decref(j);
	hand_close(&h);
}

int
main(void)
{
	CU_TestInfo json[] = {
	    {"the keys scalefit(1) lists, in order", test_json_keys},
	    {"every value of a small fit", test_json_values},
	    {"null for what is not determined", test_json_undetermined},
	    {"no where: null, every row", test_json_no_where},
	    {"strategy, big seed, lambda: auto, resamples", test_json_optional},
	    {"numbers: integers, 17 digits, null", test_json_numbers},
	    {"the error model of a new run", test_json_interval},
	    {"saved: the same text, the same bits", test_save},
	    {"I/O errors: SF_EIO, nothing left behind", test_save_errors},
	    CU_TEST_INFO_NULL,
	};
	CU_TestInfo text[] = {
	    {"a small fit, line by line", test_text},
	    {"warnings, penalty, resamples, no statistics", test_text_more},
	    {"scale auto's two searches; one iteration", test_text_searches},
	    {"restarts: their count; every run in the JSON", test_restarts},
	    CU_TEST_INFO_NULL,
	};
	CU_SuiteInfo suites[] = {
	    {"json", NULL, NULL, NULL, NULL, json},
	    {"text", NULL, NULL, NULL, NULL, text},
	    CU_SUITE_INFO_NULL,
	};

	return sf_test_main(suites);
}
