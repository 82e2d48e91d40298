/*
 * parse.c - the one option parser of the commands (a table of rows per
 * command, getopt_long underneath), the setters of the options several
 * commands share, and the readers of a count, a choice and a once-only
 * text with the command line's messages.
 */
#define _GNU_SOURCE /* getopt_long */

#include "cli/parse.h"
#include "base/number.h"
#include "base/suggest.h"
#include "run/average.h"

#include <string.h>

/* The unknown option at argv[optind - 1] after getopt_long returned '?',
 * with the nearest of the long options; or a known one (by optopt_value)
 * missing its argument. */
static int
bad_option(const char *cmd, int argc, char **argv, int optopt_value,
           const struct option *opts)
{
	const char *arg = optind - 1 < argc ? argv[optind - 1] : "";
	const char *names[64];
	char bare[128];
	size_t n = 0;

	/* A known option missing its argument. */
	for (size_t i = 0; opts[i].name != NULL; i++) {
		if (opts[i].val == optopt_value && optopt_value != 0 &&
		    opts[i].has_arg == required_argument)
			return cli_usage(cmd, NULL,
			                 "option '--%s' needs an argument",
			                 opts[i].name);
		if (n < 64)
			names[n++] = opts[i].name;
	}
	if (strncmp(arg, "--", 2) == 0) {
		snprintf(bare, sizeof bare, "%s", arg + 2);
		bare[strcspn(bare, "=")] = '\0';
		const char *near = sf_suggest_nearest(bare, names, n);
		if (near != NULL) {
			char hint[140];
			snprintf(hint, sizeof hint, "--%s", near);
			return cli_usage(cmd, hint, "unknown option '%s'", arg);
		}
	}
	return cli_usage(cmd, NULL, "unknown option '%s'", arg);
}

/* A CLI_KIND_NAME option's argument: the name of o->names it is. */
static int
parse_name(const char *cmd, const cli_option *o, const char *arg)
{
	int k = 0;

	if (cli_choice(cmd, o->what, arg, o->names, o->count, 1, &k) !=
	    SF_EXIT_OK)
		return SF_EXIT_USAGE;
	*(const char **)o->to = o->names[k];
	return SF_EXIT_OK;
}

/* Option o with argument arg into its place. */
static int
apply(const sf_command *cmd, const cli_option *o, const char *arg)
{
	switch (o->kind) {
	case CLI_KIND_FLAG:
		*(int *)o->to = 1;
		return SF_EXIT_OK;
	case CLI_KIND_TEXT:
		*(const char **)o->to = arg;
		return SF_EXIT_OK;
	case CLI_KIND_ONCE:
		if (o->what != NULL && *(const char **)o->to != NULL)
			return cli_usage(cmd->name, NULL, "%s", o->what);
		return cli_once(cmd->name, o->name, NULL, o->to, arg);
	case CLI_KIND_NUMBER:
		return cli_number(cmd->name, o->name, o->what, arg, 0, o->to);
	case CLI_KIND_COUNT:
		return cli_count(cmd->name, o->name, arg, o->lo, o->hi, o->to);
	case CLI_KIND_LIST:
		((const char **)o->to)[(*o->n)++] = arg;
		return SF_EXIT_OK;
	case CLI_KIND_NAME:
		return parse_name(cmd->name, o, arg);
	case CLI_KIND_CALL:
		return o->set(cmd->name, o->val & ~CLI_SHORT, arg, o->to);
	case CLI_KIND_HELP:
		cli_help_exit(cmd);
	default: /* CLI_KIND_HELP_RETURN */
		cli_print_help(stdout, cmd);
		return CLI_HELP_SHOWN;
	}
}

int
cli_parse(const sf_command *cmd, const cli_option *options, int argc,
          char **argv)
{
	static const cli_option help = {.name = "help",
	                                .val = 'h' | CLI_SHORT,
	                                .has_arg = no_argument,
	                                .kind = CLI_KIND_HELP};
	const cli_option *rows[CLI_OPTIONS_MAX + 1];
	struct option longs[CLI_OPTIONS_MAX + 2];
	char shorts[3 * (CLI_OPTIONS_MAX + 1) + 1];
	size_t n = 0, k = 0, i;
	int c, rc;

	for (i = 0; options[i].name != NULL && i < CLI_OPTIONS_MAX; i++)
		rows[n++] = &options[i];
	for (i = 0; i < n && rows[i]->kind != CLI_KIND_HELP_RETURN; i++)
		;
	if (i == n)
		rows[n++] = &help;
	/* getopt_long's table and short letters, in the rows' order: the
	 * order decides the nearest name when two are as near. */
	for (i = 0; i < n; i++) {
		longs[i] = (struct option){rows[i]->name, rows[i]->has_arg,
		                           NULL, rows[i]->val & ~CLI_SHORT};
		if (rows[i]->val & CLI_SHORT) {
			shorts[k++] = (char)(rows[i]->val & ~CLI_SHORT);
			if (rows[i]->has_arg == required_argument)
				shorts[k++] = ':';
		}
	}
	longs[n] = (struct option){NULL, 0, NULL, 0};
	shorts[k] = '\0';
	while ((c = getopt_long(argc, argv, shorts, longs, NULL)) != -1) {
		for (i = 0; i < n && longs[i].val != c; i++)
			;
		if (c == '?' || i == n)
			return bad_option(cmd->name, argc, argv, optopt, longs);
		if ((rc = apply(cmd, rows[i], optarg)) != SF_EXIT_OK)
			return rc;
	}
	return SF_EXIT_OK;
}

int
cli_parse_fits(const sf_command *cmd, const cli_option *options, int argc,
               char **argv, int most, const char *const **fits, size_t *nfits)
{
	int rc;

	if ((rc = cli_parse(cmd, options, argc, argv)) != SF_EXIT_OK ||
	    (rc = cli_operands(cmd->name, argc, argv, most, CLI_FIT_FILE)) !=
	        SF_EXIT_OK)
		return rc;
	*fits = (const char *const *)argv + optind;
	*nfits = (size_t)(argc - optind);
	return SF_EXIT_OK;
}

int
cli_once(const char *cmd, const char *name, const char *how, const char **value,
         const char *arg)
{
	if (*value != NULL)
		return cli_usage(
		    cmd, NULL, "--%s given twice ('%s', then '%s'): %s", name,
		    *value, arg, how != NULL ? how : "give it once");
	*value = arg;
	return SF_EXIT_OK;
}

int
cli_data_option(const char *cmd, int val, const char *arg, void *to)
{
	cli_data *d = to;
	sf_run_data *r = &d->run;

	switch (val) {
	case CLI_OPT_WHERE:
		return cli_once(cmd, "where",
		                "give one condition, joined with &&",
		                &r->change.where, arg);
	case CLI_OPT_OUTPUT_COLUMN:
		return cli_once(cmd, "output-column", NULL, &r->change.output,
		                arg);
	case CLI_OPT_INPUT:
		if (r->change.ninputs == CLI_DATA_INPUTS_MAX)
			return cli_usage(cmd, NULL,
			                 "at most %d --input options",
			                 CLI_DATA_INPUTS_MAX);
		d->inputs[r->change.ninputs++] = arg;
		r->change.inputs = d->inputs;
		return SF_EXIT_OK;
	case CLI_OPT_BY:
		return cli_once(cmd, "by", "give the columns in one, --by a,b",
		                &r->by, arg);
	default: /* CLI_OPT_DETAILS */
		r->details = 1;
		return SF_EXIT_OK;
	}
}

int
cli_choice(const char *cmd, const char *what, const char *arg,
           const char *const *names, size_t n, int listed, int *index)
{
	char list[256];

	for (size_t i = 0; i < n; i++)
		if (strcmp(arg, names[i]) == 0)
			return *index = (int)i, SF_EXIT_OK;
	if (!listed)
		return cli_usage(cmd, sf_suggest_nearest(arg, names, n),
		                 "unknown %s '%s'", what, arg);
	return cli_usage(cmd, sf_suggest_nearest(arg, names, n),
	                 "unknown %s '%s' (%s)", what, arg,
	                 sf_suggest_list(names, n, list, sizeof list));
}

int
cli_number(const char *cmd, const char *name, const char *what, const char *arg,
           int zero, double *out)
{
	if (sf_parse_double(arg, out) == SF_OK &&
	    (*out > 0 || (zero && *out == 0)))
		return SF_EXIT_OK;
	return cli_usage(cmd, NULL, "--%s needs %s, not '%s'", name, what, arg);
}

int
cli_weights_option(const char *cmd, int val, const char *arg, void *to)
{
	sf_average_asked *w = to;

	(void)val;
	if (sf_average_asked_parse(arg, w) != 0)
		return cli_usage(
		    cmd, NULL,
		    "--weights is extrapolation, aicc, equal or a "
		    "weight per fit file (W1,W2,...: at most %d numbers >= "
		    "0, not all 0), not '%s'",
		    SF_AVERAGE_MAX_GIVEN, arg);
	return SF_EXIT_OK;
}

int
cli_fit_option(const char *cmd, int val, const char *arg, void *to)
{
	static const char *const scales[] = {"auto", "linear", "log"};
	sf_fit_options *o = to;
	const char *near = NULL;
	size_t count = 0;
	int k = 0;

	switch (val) {
	case 's':
		if (sf_parse_u64(arg, &o->seed) != SF_OK)
			return cli_usage(cmd, NULL,
			                 "--seed needs a whole number "
			                 "from 0 to 2^64-1, not '%s'",
			                 arg);
		o->has_seed = 1;
		return SF_EXIT_OK;
	case 't':
		if (cli_count(cmd, "threads", arg, 1, SF_THREADS_MAX, &count) !=
		    SF_EXIT_OK)
			return SF_EXIT_USAGE;
		o->threads = (int)count;
		return SF_EXIT_OK;
	case 'a':
		if (sf_de_algorithm_find(arg, &o->algorithm, &near) != SF_OK)
			return cli_usage(cmd, near, "unknown algorithm '%s'",
			                 arg);
		o->has_algorithm = 1;
		return SF_EXIT_OK;
	case 'e':
		return cli_count(cmd, "max-evals", arg, 1, SIZE_MAX,
		                 &o->max_evals);
	case 'l':
		if (sf_loss_find(arg, &o->loss, &near) != SF_OK)
			return cli_usage(cmd, near, "unknown loss '%s'", arg);
		o->has_loss = 1;
		return SF_EXIT_OK;
	case 'L':
		o->has_lambda = 1;
		return cli_number(cmd, "lambda", "a number >= 0", arg, 1,
		                  &o->lambda);
	case 'T':
		return cli_number(cmd, "time-limit", "a number of seconds > 0",
		                  arg, 0, &o->time_limit);
	case 'P':
		o->polish = 0;
		return SF_EXIT_OK;
	case 'N':
		o->separable = 0;
		return SF_EXIT_OK;
	default: /* 'S' */
		if (cli_choice(cmd, "scale", arg, scales, 3, 0, &k) !=
		    SF_EXIT_OK)
			return SF_EXIT_USAGE;
		o->has_scale = 1;
		o->scale = (sf_search_scale)k;
		return SF_EXIT_OK;
	}
}

int
cli_count(const char *cmd, const char *option, const char *text, size_t lo,
          size_t hi, size_t *out)
{
	uint64_t count;

	if (sf_parse_count(text, &count) == SF_OK && count >= lo &&
	    count <= hi) {
		*out = (size_t)count;
		return SF_EXIT_OK;
	}
	if (hi == SIZE_MAX)
		return cli_usage(cmd, NULL,
		                 "--%s needs a whole number >= %zu, not '%s'",
		                 option, lo, text);
	return cli_usage(cmd, NULL,
	                 "--%s needs a whole number from %zu to %zu, not '%s'",
	                 option, lo, hi, text);
}
