/*
 * cli.c - diagnostics and the shared front of every command.
 */
#define _GNU_SOURCE /* getopt_long */

#include "cli.h"
#include "csv.h"
#include "suggest.h"

#include <getopt.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

static void
print_diagnostic(const sf_error *e, const char *severity)
{
	char text[SF_ERROR_MESSAGE_MAX + SF_ERROR_FILE_MAX +
		  3 * SF_ERROR_SOURCE_MAX];

	sf_error_format(e, severity, text, sizeof text);
	fputs(text, stderr);
}

int
cli_error(const sf_error *err)
{
	print_diagnostic(err, "error");
	switch (err->code) {
	case SF_EFAIL:
		return SF_EXIT_GOAL;
	case SF_ENOMEM:
	case SF_EINTERNAL:
		return SF_EXIT_INTERNAL;
	default:
		return SF_EXIT_USAGE;
	}
}

void
cli_warning(void *ctx, const sf_error *warning)
{
	(void)ctx;
	print_diagnostic(warning, "warning");
}

int
cli_usage(const char *cmd, const char *hint, const char *fmt, ...)
{
	va_list ap;

	fputs("scalefit: error: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	if (hint != NULL)
		fprintf(stderr, "; did you mean '%s'?", hint);
	fputc('\n', stderr);
	if (cmd != NULL)
		fprintf(stderr, "Try 'scalefit help %s'.\n", cmd);
	else
		fputs("Try 'scalefit --help'.\n", stderr);
	return SF_EXIT_USAGE;
}

int
cli_bad_option(const char *cmd, int argc, char **argv, int optopt_value,
	       const void *long_options)
{
	const struct option *opts = long_options;
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

int
cli_load_models(const char *path, sf_model_set **set, int quiet,
		sf_error *err)
{
	return sf_model_load(path, set, quiet ? NULL : cli_warning, NULL, err);
}
