/*
 * cmd_compare.c - `scalefit compare MODEL.yaml... [DATA.csv]`: fit every
 * candidate formula on the same rows and rank them.
 *
 * The ranking is by AICc (information criteria trade fit against the
 * number of constants; AICc because timing datasets are small), with
 * Akaike weights exp(-delta_i / 2) / sum_j exp(-delta_j / 2), and beside
 * it what the criteria cannot see: the K-fold cross-validated MAPE, the
 * extrapolation MAPE of a --train split, the largest parameter
 * correlation and the parameters stuck at a bound.  A candidate is
 * flagged over-parameterised when its constants are not determined by the
 * data: a correlation above 0.95 in magnitude, a standard error larger
 * than the value, or a rank-deficient Jacobian.
 */
#define _GNU_SOURCE /* getopt_long */

#include "cli/cli.h"
#include "use/report.h"
#include "fit/stats.h"
#include "fit/tune.h"
#include "fit/validate.h"

#include <getopt.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

enum { COMPARE_MAX = 64, COMPARE_DEFAULT_KFOLD = 5 };

typedef struct compare_args {
	const char *paths[COMPARE_MAX], *data_path, *train;
	size_t npaths, kfold;
	int json, quiet;
	sf_fit_options options;
} compare_args;

/* One candidate's results. */
typedef struct candidate {
	const sf_model *model;
	size_t n, k, at_bound;
	double sse, mape, aicc, bic, weight, cv_mape, extra_mape, max_corr;
	int over, failed;
	char poor[128]; /* the poorly determined constants, comma-separated */
	char data_sha[65];
	sf_loss loss;
} candidate;

static int
has_suffix(const char *s, const char *suffix)
{
	size_t n = strlen(s), m = strlen(suffix);

	return n >= m && strcmp(s + n - m, suffix) == 0;
}

static int
parse_args(const sf_command *cmd, int argc, char **argv, compare_args *a)
{
	static const struct option options[] = {
	    {"train", required_argument, NULL, 'r'},
	    {"kfold", required_argument, NULL, 'k'},
	    {"json", no_argument, NULL, 'j'},
	    CLI_FIT_OPTIONS,
	    {"quiet", no_argument, NULL, 'q'},
	    {"help", no_argument, NULL, 'h'},
	    {NULL, 0, NULL, 0},
	};
	int c, rc;

	memset(a, 0, sizeof *a);
	a->kfold = COMPARE_DEFAULT_KFOLD;
	sf_fit_options_init(&a->options);
	while ((c = getopt_long(argc, argv, "qh", options, NULL)) != -1) {
		switch (c) {
		case 'r':
			a->train = optarg;
			break;
		case 'k':
			if (cli_count(cmd->name, "kfold", optarg, 2, 1000000,
			              &a->kfold) != SF_EXIT_OK)
				return SF_EXIT_USAGE;
			break;
		case 'j':
			a->json = 1;
			break;
		case 'q':
			a->quiet = 1;
			break;
		default:
			rc = cli_other_option(cmd, c, argc, argv, options,
			                      &a->options);
			if (rc != SF_EXIT_OK)
				return rc;
		}
	}
	for (int i = optind; i < argc; i++) {
		if (has_suffix(argv[i], ".csv") && i == argc - 1) {
			a->data_path = argv[i];
		} else if (a->npaths == COMPARE_MAX) {
			return cli_usage(cmd->name, NULL,
			                 "at most %d model files", COMPARE_MAX);
		} else {
			a->paths[a->npaths++] = argv[i];
		}
	}
	if (a->npaths == 0)
		return cli_usage(cmd->name, NULL,
		                 "compare needs at least one model file");
	return SF_EXIT_OK;
}

/* Fit one candidate and score it; fills c. */
static int
evaluate(const sf_model *m, const compare_args *a, candidate *c, sf_error *err)
{
	sf_fit_options o = a->options;
	sf_problem p;
	sf_fit_result *r = NULL;
	sf_stats *s = NULL;
	sf_holdout *h = NULL;
	int *fold = NULL, rc;
	size_t nfolds;

	memset(c, 0, sizeof *c);
	c->model = m;
	c->loss = o.has_loss ? o.loss : m->fit.loss;
	c->cv_mape = c->extra_mape = NAN;
	c->max_corr = NAN; /* none: no two parameters with a correlation */
	if ((rc = sf_problem_open(m, a->data_path, c->loss,
	                          a->quiet ? NULL : cli_warning, NULL, &p,
	                          err)) != SF_OK)
		return rc;
	o.progress = NULL;
	c->n = p.data->rows;
	c->k = p.formula->nparams;
	memcpy(c->data_sha, p.data->sha256, sizeof c->data_sha);
	rc = sf_tune_fit(m, p.data, p.formula, &o, &r, err);
	if (rc == SF_EFAIL) {
		c->failed = 1;
		rc = SF_OK;
		goto done;
	}
	if (rc != SF_OK)
		goto done;
	if ((rc = sf_stats_compute(p.formula, p.data, r, &s, err)) != SF_OK) {
		if (rc == SF_ENOMEM)
			goto done;
		c->failed = 1;
		rc = SF_OK;
		goto done;
	}
	c->sse = s->sse;
	c->mape = s->mape;
	c->aicc = s->aicc;
	c->bic = s->bic;
	c->over = s->rank_deficient;
	for (size_t j = 0; j < c->k; j++) {
		if (sf_stats_poorly_determined(s, p.formula, r, j)) {
			size_t used = strlen(c->poor);

			snprintf(c->poor + used, sizeof c->poor - used, "%s%s",
			         used > 0 ? ", " : "",
			         m->params[p.formula->fitted[j]].name);
		}
		c->at_bound += r->at_bound[j] != 0;
		if (!r->at_bound[j] && s->se[j] > fabs(r->theta[j]))
			c->over = 1;
		for (size_t l = 0; l < j; l++) {
			double q = fabs(s->corr[j * c->k + l]);
			if (isfinite(q) && !(q <= c->max_corr))
				c->max_corr = q;
		}
	}
	c->over |= c->max_corr > 0.95;
	if ((fold = malloc((c->n + 1) * sizeof *fold)) == NULL) {
		rc = sf_error_set(err, SF_ENOMEM, "out of memory");
		goto done;
	}
	nfolds = sf_folds_kfold(p.data, a->kfold,
	                        sf_fit_settings_effective(m, &o).seed, fold);
	if (nfolds > 0) {
		if ((rc = sf_holdout_run(m, p.data, p.formula, &o, sf_tune_fit,
		                         fold, nfolds, 0, &h, err)) != SF_OK)
			goto done;
		c->cv_mape = h->mape;
		sf_holdout_free(h);
		h = NULL;
	}
	if (a->train != NULL) {
		if ((rc = sf_folds_split(p.formula, p.data, a->train, fold,
		                         err)) != SF_OK) {
			if (err->file[0] == '\0' && err->column > 0)
				snprintf(err->file, sizeof err->file,
				         "--train");
			goto done;
		}
		if ((rc = sf_holdout_run(m, p.data, p.formula, &o, sf_tune_fit,
		                         fold, 1, 0, &h, err)) != SF_OK)
			goto done;
		c->extra_mape = h->mape;
	}
done:
	free(fold);
	sf_holdout_free(h);
	sf_stats_free(s);
	sf_fit_result_free(r);
	sf_problem_close(&p);
	return rc;
}

/* Rank by AICc (failed fits last); Akaike weights over the fitted. */
static void
rank(candidate *c, size_t n, size_t *order)
{
	double best = INFINITY, total = 0;

	for (size_t i = 0; i < n; i++) {
		order[i] = i;
		if (!c[i].failed && c[i].aicc < best)
			best = c[i].aicc;
	}
	for (size_t i = 0; i < n; i++) {
		c[i].weight = !c[i].failed && isfinite(c[i].aicc)
		                  ? exp(-(c[i].aicc - best) / 2)
		                  : 0;
		total += c[i].weight;
	}
	for (size_t i = 0; i < n; i++)
		c[i].weight = total > 0 ? c[i].weight / total : NAN;
	for (size_t i = 1; i < n; i++)
		for (size_t j = i; j > 0; j--) {
			const candidate *x = &c[order[j - 1]],
			                *y = &c[order[j]];
			double ax =
			    x->failed || isnan(x->aicc) ? INFINITY : x->aicc;
			double ay =
			    y->failed || isnan(y->aicc) ? INFINITY : y->aicc;
			if (ax <= ay)
				break;
			size_t t = order[j];
			order[j] = order[j - 1];
			order[j - 1] = t;
		}
}

static void
print_table(const candidate *c, const size_t *order, size_t n,
            const compare_args *a)
{
	printf("%4s %-22s %3s %5s %12s %10s %10s %7s %8s %8s %8s %6s  %s\n",
	       "rank", "model", "k", "rows", "SSE", "AICc", "BIC", "weight",
	       "MAPE", "CV MAPE", a->train != NULL ? "extrap" : "", "|corr|",
	       "notes");
	for (size_t i = 0; i < n; i++) {
		const candidate *x = &c[order[i]];

		if (x->failed) {
			printf("%4zu %-22.22s %3zu %5zu  no finite cost: the "
			       "fit failed\n",
			       i + 1, x->model->name, x->k, x->n);
			continue;
		}
		printf("%4zu %-22.22s %3zu %5zu %12.6g %10.4g %10.4g %7.3f "
		       "%7.3g%% %7.3g%% ",
		       i + 1, x->model->name, x->k, x->n, x->sse, x->aicc,
		       x->bic, x->weight, x->mape, x->cv_mape);
		if (a->train != NULL)
			printf("%7.3g%% ", x->extra_mape);
		else
			printf("%8s ", "");
		if (isnan(x->max_corr))
			printf("%6s  ", "-");
		else
			printf("%6.3f  ", x->max_corr);
		if (x->at_bound > 0)
			printf("%zu at bound%s", x->at_bound,
			       x->over || x->poor[0] ? "; " : "");
		if (x->over)
			printf("over-parameterised%s", x->poor[0] ? "; " : "");
		if (x->poor[0])
			printf("poorly determined: %s", x->poor);
		putchar('\n');
	}
}

static json_t *
table_json(const candidate *c, const size_t *order, size_t n,
           const compare_args *a)
{
	json_t *list = json_array();

	for (size_t i = 0; i < n; i++) {
		const candidate *x = &c[order[i]];

		json_array_append_new(
		    list,
		    json_pack(
		        "{s:I, s:s, s:s, s:I, s:I, s:b, s:o, s:o, "
		        "s:o, s:o, s:o, s:o, s:o, s:o, s:I, s:b, s:s}",
		        "rank", (json_int_t)(i + 1), "model", x->model->name,
		        "file", x->model->path, "parameters", (json_int_t)x->k,
		        "rows", (json_int_t)x->n, "failed", x->failed, "sse",
		        sf_json_number(x->sse), "mape", sf_json_number(x->mape),
		        "aicc", sf_json_number(x->aicc), "bic",
		        sf_json_number(x->bic), "akaike_weight",
		        sf_json_number(x->weight), "cv_mape",
		        sf_json_number(x->cv_mape), "extrapolation_mape",
		        sf_json_number(x->extra_mape), "max_abs_correlation",
		        sf_json_number(x->max_corr), "at_bound",
		        (json_int_t)x->at_bound, "over_parameterised", x->over,
		        "poorly_determined", x->poor));
	}
	return json_pack("{s:s, s:{s:I, s:o, s:o}}", "scalefit_version",
	                 PACKAGE_VERSION, "comparison", "kfold",
	                 (json_int_t)a->kfold, "train",
	                 a->train != NULL ? json_string(a->train) : json_null(),
	                 "candidates", list);
}

int
sf_command_compare(const sf_command *cmd, int argc, char **argv)
{
	sf_model_set *sets[COMPARE_MAX] = {0};
	candidate c[COMPARE_MAX];
	size_t order[COMPARE_MAX], n = 0;
	compare_args a;
	sf_error err;
	int status = SF_EXIT_OK;

	sf_error_clear(&err);
	if ((status = parse_args(cmd, argc, argv, &a)) != SF_EXIT_OK)
		return status;
	for (size_t f = 0; f < a.npaths; f++) {
		if (cli_load_models(a.paths[f], &sets[f], a.quiet, &err) !=
		    SF_OK) {
			status = cli_error(&err);
			goto done;
		}
		for (size_t i = 0; i < sets[f]->count; i++) {
			if (n == COMPARE_MAX) {
				status =
				    cli_usage(cmd->name, NULL,
				              "at most %d models", COMPARE_MAX);
				goto done;
			}
			if (evaluate(sets[f]->models[i], &a, &c[n], &err) !=
			    SF_OK) {
				status = cli_error(&err);
				goto done;
			}
			n++;
		}
	}
	for (size_t i = 1; i < n && !a.quiet; i++)
		if (strcmp(sf_model_output(c[i].model),
		           sf_model_output(c[0].model)) != 0) {
			fprintf(
			    stderr,
			    "scalefit: warning: '%s' and '%s' fit different "
			    "outputs ('%s' and '%s'): their SSE are in "
			    "different units\n",
			    c[0].model->name, c[i].model->name,
			    sf_model_output(c[0].model),
			    sf_model_output(c[i].model));
			break;
		}
	for (size_t i = 1; i < n && !a.quiet; i++)
		if (c[i].n != c[0].n ||
		    strcmp(c[i].data_sha, c[0].data_sha) != 0 ||
		    c[i].loss != c[0].loss) {
			fprintf(stderr,
			        "scalefit: warning: '%s' and '%s' are not "
			        "fitted to the same rows with the same loss; "
			        "their AICc and weights do not compare\n",
			        c[0].model->name, c[i].model->name);
			break;
		}
	rank(c, n, order);
	if (a.json) {
		json_t *json = table_json(c, order, n, &a);

		if (json == NULL ||
		    sf_report_print_json(json, stdout, &err) != SF_OK) {
			if (json == NULL)
				sf_error_set(&err, SF_ENOMEM, "out of memory");
			status = cli_error(&err);
		}
		json_decref(json);
	} else {
		print_table(c, order, n, &a);
	}
done:
	for (size_t f = 0; f < a.npaths; f++)
		sf_model_set_free(sets[f]);
	return status;
}
