/*
 * cmd_predict.c - `scalefit predict FIT.json --at p=64,n=0.1 | --grid
 * FILE.csv [--input p=workers]`: the fitted formula's time at new points, with
 * its 95% band and each term's part, and a warning for every extrapolation
 * (run/predict.h does the work).
 */
#include "cli/parse.h"
#include "run/predict.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

typedef struct predict_args {
	const char **at;     /* the --at texts, s.at */
	const char **inputs; /* the --input texts, s.inputs */
	sf_run_predict_settings s;
} predict_args;

static int
parse_args(const sf_command *cmd, int argc, char **argv, predict_args *a)
{
	sf_run_predict_settings *s = &a->s;
	const cli_option options[] = {
	    CLI_LIST("at", 'a' | CLI_SHORT, a->at, &s->nat),
	    CLI_ONCE_SAYING("grid", 'g', "--grid is given twice", &s->grid),
	    CLI_LIST("input", 'i', a->inputs, &s->ninputs),
	    CLI_FLAG("json", 'j', &s->json),
	    CLI_FLAG("csv", 'c', &s->csv),
	    CLI_CALL("weights", 'w', required_argument, cli_weights_option,
	             &s->weights),
	    CLI_ONCE("group", 'G', &s->group),
	    CLI_NAME("unit", 'u', "--unit", sf_model_units, SF_MODEL_UNITS,
	             &s->unit),
	    CLI_FLAG("quiet", 'q' | CLI_SHORT, &s->quiet),
	    CLI_END,
	};
	int rc;

	if ((rc = cli_parse_fits(cmd, options, argc, argv, INT_MAX, &a->s.fits,
	                         &a->s.nfits)) != SF_EXIT_OK)
		return rc;
	/* what the options ask together is checked by sf_run_predict */
	return SF_EXIT_OK;
}

int
sf_command_predict(const sf_command *cmd, int argc, char **argv)
{
	predict_args a;
	sf_run_predict_result *r = NULL;
	sf_error err;
	int status;

	memset(&a, 0, sizeof a);
	sf_error_clear(&err);
	if ((a.at = calloc((size_t)argc + 1, sizeof *a.at)) == NULL ||
	    (a.inputs = calloc((size_t)argc + 1, sizeof *a.inputs)) == NULL) {
		free(a.at);
		return cli_out_of_memory();
	}
	a.s.at = a.at;
	a.s.inputs = a.inputs;
	a.s.warn = cli_warning;
	if ((status = parse_args(cmd, argc, argv, &a)) == SF_EXIT_OK) {
		if (sf_run_predict(&a.s, &r, &err) != SF_OK)
			status = cli_fail(cmd->name, &err);
		else
			status = cli_print(&r->out, a.s.json);
	}
	sf_run_predict_result_free(r);
	free(a.at);
	free(a.inputs);
	return status;
}
