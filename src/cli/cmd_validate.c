/*
 * cmd_validate.c - `scalefit validate MODEL.yaml [DATA.csv] --train EXPR |
 * --kfold K | --loo`: fit without some rows, predict them, and say how
 * far off the predictions are, overall and per value of each input.
 */
#define _GNU_SOURCE /* getopt_long */

#include "cli/cli.h"
#include "fit/tune.h"
#include "fit/validate.h"
#include "use/report.h"
#include "use/validation.h"

#include <getopt.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* The held-out rows listed of a split (--json lists all). */
enum { ROWS_SHOWN = 40 };

typedef struct validate_args {
	const char *model_path, *data_path, *model_name, *train;
	size_t kfold; /* 0 with loo */
	int loo, json, quiet;
	sf_fit_options options;
	cli_fleet_args fleet; /* --by, --details */
	cli_data data;
} validate_args;

static int
parse_args(const sf_command *cmd, int argc, char **argv, validate_args *a)
{
	static const struct option options[] = {
	    {"train", required_argument, NULL, 'r'},
	    {"kfold", required_argument, NULL, 'k'},
	    {"loo", no_argument, NULL, 'O'},
	    {"json", no_argument, NULL, 'j'},
	    CLI_FIT_OPTIONS,
	    CLI_DATA_OPTIONS,
	    {"model", required_argument, NULL, 'm'},
	    {"quiet", no_argument, NULL, 'q'},
	    CLI_FLEET_OPTIONS,
	    {"help", no_argument, NULL, 'h'},
	    {NULL, 0, NULL, 0},
	};
	int c, rc, methods = 0;

	memset(a, 0, sizeof *a);
	sf_fit_options_init(&a->options);
	while ((c = getopt_long(argc, argv, "qh", options, NULL)) != -1) {
		switch (c) {
		case 'r':
			a->train = optarg;
			methods++;
			break;
		case 'k':
			if (cli_count(cmd->name, "kfold", optarg, 2, 1000000,
			              &a->kfold) != SF_EXIT_OK)
				return SF_EXIT_USAGE;
			methods++;
			break;
		case 'O':
			a->loo = 1;
			methods++;
			break;
		case 'j':
			a->json = 1;
			break;
		case 'm':
			a->model_name = optarg;
			break;
		case 'q':
			a->quiet = 1;
			break;
		case CLI_OPT_BY:
		case CLI_OPT_DETAILS:
			cli_fleet_option(c, optarg, &a->fleet);
			break;
		case CLI_OPT_WHERE:
		case CLI_OPT_OUTPUT_COLUMN:
		case CLI_OPT_INPUT:
			if (cli_data_option(cmd->name, c, optarg, &a->data) !=
			    SF_EXIT_OK)
				return SF_EXIT_USAGE;
			break;
		default:
			rc = cli_other_option(cmd, c, argc, argv, options,
			                      &a->options);
			if (rc != SF_EXIT_OK)
				return rc;
		}
	}
	if (methods != 1)
		return cli_usage(cmd->name, NULL,
		                 "validate needs exactly one of --train EXPR, "
		                 "--kfold K and --loo");
	if (argc - optind < 1)
		return cli_usage(cmd->name, NULL,
		                 "validate needs a model file");
	if (argc - optind > 2)
		return cli_usage(cmd->name, NULL, "unexpected argument '%s'",
		                 argv[optind + 2]);
	a->model_path = argv[optind];
	a->data_path = argc - optind == 2 ? argv[optind + 1] : NULL;
	return SF_EXIT_OK;
}

static int
print_text(FILE *out, const sf_model *m, const sf_dataset *d,
           const sf_holdout *h, const validate_args *a, const char *method)
{
	double values[SF_HOLDOUT_LEVELS_MAX];
	size_t shown = 0, trained = 0;

	for (size_t r = 0; r < d->rows; r++)
		trained += h->fold[r] == SF_FOLD_TRAIN;

	fprintf(out, "validation of %s on %s (%zu rows)\n", m->name, d->file,
	        d->rows);
	if (a->train != NULL)
		fprintf(out,
		        "  fitted on the %zu rows where %s, predicting the "
		        "other %zu\n",
		        trained, a->train, d->rows - trained);
	else
		fprintf(out,
		        "  %s: %zu folds over %zu configurations (repetitions "
		        "kept together)\n",
		        method, h->nfolds, d->nconfigs);
	if (h->failed_folds > 0)
		fprintf(out,
		        "  %zu folds could not be fitted; their rows are not "
		        "scored\n",
		        h->failed_folds);
	if (a->train != NULL) {
		fprintf(out, "\n  %6s", "line");
		for (size_t i = 0; i < d->ninputs; i++)
			fprintf(out, " %12s", d->inputs[i].name);
		fprintf(out, " %12s %12s %8s  %-25s\n", "observed", "predicted",
		        "error", "95% prediction interval");
		for (size_t r = 0; r < d->rows && shown < ROWS_SHOWN; r++) {
			char buf[64];

			if (h->fold[r] == SF_FOLD_TRAIN)
				continue;
			fprintf(out, "  %6d", d->lines[r]);
			for (size_t i = 0; i < d->ninputs; i++) {
				sf_validation_value(&d->inputs[i],
				                    d->inputs[i].values[r], buf,
				                    sizeof buf);
				fprintf(out, " %12.12s", buf);
			}
			snprintf(buf, sizeof buf, "[%.6g, %.6g]", h->lo95[r],
			         h->hi95[r]);
			fprintf(out, " %12.6g %12.6g %+7.2f%%  %-25s%s\n",
			        d->output[r], h->predicted[r],
			        100 * (h->predicted[r] - d->output[r]) /
			            d->output[r],
			        buf,
			        d->output[r] < h->lo95[r] ||
			                d->output[r] > h->hi95[r]
			            ? "  outside"
			            : "");
			shown++;
		}
		if (shown < h->predicted_rows)
			fprintf(out, "  ... %zu more rows (--json lists all)\n",
			        h->predicted_rows - shown);
	}
	fprintf(out,
	        "\n  predicted %zu rows: MAPE %.3g%%, max error %.3g%%, bias "
	        "%+.3g%%\n",
	        h->predicted_rows, h->mape, h->max_ape, h->bias);
	if (h->interval_rows > 0)
		fprintf(
		    out,
		    "  95%% prediction intervals: %.3g%% of %zu rows inside, "
		    "mean half-width %.3g%%, interval score %.3g%%\n",
		    h->coverage95, h->interval_rows, h->mean_halfwidth_pct,
		    h->interval_score);
	else
		fprintf(out,
		        "  95%% prediction intervals: none (no fold's fit had "
		        "residual degrees of freedom)\n");
	for (size_t i = 0; i < d->ninputs; i++) {
		size_t n = sf_holdout_levels(h, d, i, values);

		if (n < 2)
			continue;
		fprintf(out, "\n  by %s:\n  %12s %6s %9s %9s %9s %9s %9s\n",
		        d->inputs[i].name, d->inputs[i].name, "rows", "MAPE",
		        "max", "bias", "covered", "+-width");
		for (size_t g = 0; g < n; g++) {
			sf_holdout_scores s;
			char label[64];

			if (sf_holdout_score_level(h, d, i, values[g], &s,
			                           NULL) != SF_OK)
				return SF_ENOMEM;
			sf_validation_value(&d->inputs[i], values[g], label,
			                    sizeof label);
			fprintf(
			    out,
			    "  %12.12s %6zu %8.3g%% %8.3g%% %+8.3g%% %8.3g%% "
			    "%8.3g%%\n",
			    label, s.count, s.mape, s.max_ape, s.bias,
			    s.coverage95, s.mean_halfwidth_pct);
		}
	}
	return SF_OK;
}

/* Validate model m (formula f) on data: its JSON in *json when want_json,
 * its text in *text.  SF_EFAIL when no row could be predicted. */
static int
validate_one(const validate_args *a, const sf_model *m, const sf_dataset *data,
             const sf_formula *f, const sf_fit_options *o, int want_json,
             json_t **json, char **text, sf_error *err)
{
	const char *method = a->train != NULL ? "split"
	                     : a->loo         ? "leave-one-configuration-out"
	                                      : "kfold";
	int *fold = malloc((data->rows + 1) * sizeof *fold);
	sf_holdout *h = NULL;
	size_t nfolds = 1, length = 0;
	FILE *out = NULL;
	int rc;

	*json = NULL;
	*text = NULL;
	if (fold == NULL) {
		rc = sf_error_set(err, SF_ENOMEM, "out of memory");
		goto done;
	}
	if ((rc = sf_folds_make(m, f, data, o, a->train, a->loo ? 0 : a->kfold,
	                        fold, &nfolds, err)) != SF_OK ||
	    (rc = sf_holdout_run(m, data, f, o, sf_tune_fit, fold, nfolds, 1,
	                         &h, err)) != SF_OK)
		goto done;
	if (want_json && (*json = sf_validation_json(m, data, h, method,
	                                             a->train)) == NULL) {
		rc = sf_error_set(err, SF_ENOMEM, "out of memory");
		goto done;
	}
	if ((out = open_memstream(text, &length)) == NULL ||
	    print_text(out, m, data, h, a, method) != SF_OK) {
		rc = sf_error_set(err, SF_ENOMEM, "out of memory");
		goto done;
	}
	rc = h->predicted_rows > 0
	         ? SF_OK
	         : sf_error_set(err, SF_EFAIL, "no row could be predicted");
done:
	if (out != NULL && fclose(out) != 0 && rc == SF_OK)
		rc = sf_error_set(err, SF_ENOMEM, "out of memory");
	free(fold);
	sf_holdout_free(h);
	return rc;
}

/* One group of a --by run. */
typedef struct group_ctx {
	const validate_args *a;
	const sf_model *m;
	const sf_formula *f;
	uint64_t seed; /* the run's */
} group_ctx;

static int
validate_group(void *ctx, const sf_dataset *group, size_t index,
               sf_warn_fn warn, void *warn_ctx, json_t **report, char **text,
               sf_error *err)
{
	const group_ctx *g = ctx;
	sf_fit_options o = g->a->options;

	(void)warn;
	(void)warn_ctx;
	o.has_seed = 1;
	o.seed = sf_fleet_seed(g->seed, index);
	return validate_one(g->a, g->m, group, g->f, &o, 1, report, text, err);
}

int
sf_command_validate(const sf_command *cmd, int argc, char **argv)
{
	sf_model_set *set = NULL;
	sf_problem p = {0};
	sf_table *in = NULL; /* DATA.csv "-": standard input */
	const sf_model *m;
	json_t *json = NULL;
	char *text = NULL;
	validate_args a;
	sf_error err;
	int status, rc;

	sf_error_clear(&err);
	if ((status = parse_args(cmd, argc, argv, &a)) != SF_EXIT_OK)
		return status;
	if (cli_load_data_models(a.model_path, &a.data, &set, a.quiet, &err) !=
	    SF_OK)
		return cli_error(&err);
	m = cli_choose_model(cmd->name, set, a.model_name, a.model_path);
	if (m == NULL) {
		status = SF_EXIT_USAGE;
		goto done;
	}
	if (cli_stdin_table(a.data_path, &in, &err) != SF_OK ||
	    cli_problem_open(m, a.data_path, in,
	                     a.options.has_loss ? a.options.loss : m->fit.loss,
	                     a.quiet, set->count > 1, &p, &err) != SF_OK) {
		status = cli_error(&err);
		goto done;
	}
	if (a.fleet.by != NULL || m->by.text != NULL) {
		group_ctx g = {&a, m, p.formula,
		               sf_fit_settings_effective(m, &a.options).seed};
		sf_problem rows = p; /* with the table read from stdin */

		if (rows.table == NULL)
			rows.table = in;
		status = cli_fleet(&a.fleet, m, &rows, validate_group, &g,
		                   a.json, NULL, a.quiet);
		goto done;
	}
	rc = validate_one(&a, m, p.data, p.formula, &a.options, a.json, &json,
	                  &text, &err);
	if (rc != SF_OK && rc != SF_EFAIL) {
		status = cli_error(&err);
		goto done;
	}
	if (a.json) {
		if (sf_report_print_json(json, stdout, &err) != SF_OK) {
			status = cli_error(&err);
			goto done;
		}
	} else {
		fputs(text, stdout);
	}
	status = rc == SF_OK ? SF_EXIT_OK : SF_EXIT_GOAL;
done:
	json_decref(json);
	free(text);
	sf_problem_close(&p);
	sf_table_free(in);
	sf_model_set_free(set);
	return status;
}
