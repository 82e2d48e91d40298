/*
 * main.c - the scalefit command line: sub-commands, options, exit codes and
 * every message a person reads.
 *
 * Library modules never print and never exit; this file turns their status
 * codes into exit codes and their sf_error records into diagnostics:
 *   0  success
 *   1  the work ran but failed its goal (for example no finite cost)
 *   2  bad usage or bad input (the message names FILE:LINE:COL)
 *   3  internal error
 */
#define _GNU_SOURCE /* getopt_long */

#include "error.h"
#include "suggest.h"

#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum {
	EXIT_OK = 0,
	EXIT_GOAL = 1,
	EXIT_USAGE = 2,
	EXIT_INTERNAL = 3
};

typedef struct command {
	const char *name;
	const char *synopsis; /* the usage line after "scalefit " */
	const char *summary;  /* one line for the command list */
	const char *help;     /* the options, for `scalefit help NAME` */
	int (*run)(const struct command *cmd, int argc, char **argv);
} command;

static int command_help(const command *cmd, int argc, char **argv);

static const command commands[] = {
	{"help", "help [COMMAND]", "show help for scalefit or one command",
	 "", command_help},
};

static const size_t command_count = sizeof commands / sizeof commands[0];

/*
 * A usage error: the message (printf-style), the nearest known name when
 * there is one, a pointer to the help, and status 2.
 */
static int usage_error(const char *cmd, const char *hint, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int
usage_error(const char *cmd, const char *hint, const char *fmt, ...)
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
	return EXIT_USAGE;
}

static const command *
command_find(const char *name)
{
	for (size_t i = 0; i < command_count; i++)
		if (strcmp(commands[i].name, name) == 0)
			return &commands[i];
	return NULL;
}

static const char *
command_nearest(const char *name)
{
	const char *names[sizeof commands / sizeof commands[0]];

	for (size_t i = 0; i < command_count; i++)
		names[i] = commands[i].name;
	return sf_suggest_nearest(name, names, command_count);
}

static void
print_usage(FILE *out)
{
	fputs("Usage: scalefit COMMAND [OPTION]... [ARG]...\n"
	      "Fit the constants of an execution-time formula to measured run\n"
	      "times, and explore how the time scales with workers.\n\n"
	      "Commands:\n",
	      out);
	for (size_t i = 0; i < command_count; i++)
		fprintf(out, "  %-10s %s\n", commands[i].name,
			commands[i].summary);
	fputs("\nOptions:\n"
	      "  -h, --help     show this help and exit\n"
	      "  -V, --version  show the version and exit\n\n"
	      "'scalefit help COMMAND' describes one command; the manual pages\n"
	      "scalefit(1) and scalefit-model(5) describe everything.\n",
	      out);
}

static void
print_command_help(FILE *out, const command *cmd)
{
	fprintf(out, "Usage: scalefit %s\n%s.\n", cmd->synopsis, cmd->summary);
	if (cmd->help[0] != '\0')
		fprintf(out, "\n%s", cmd->help);
}

static int
command_help(const command *cmd, int argc, char **argv)
{
	const command *target;

	if (argc > 2)
		return usage_error(cmd->name, NULL,
				   "too many arguments: '%s'", argv[2]);
	if (argc < 2) {
		print_usage(stdout);
		return EXIT_OK;
	}
	target = command_find(argv[1]);
	if (target == NULL)
		return usage_error(NULL, command_nearest(argv[1]),
				   "unknown command '%s'", argv[1]);
	print_command_help(stdout, target);
	return EXIT_OK;
}

/*
 * Make sure everything printed really reached stdout (a full disk or a
 * closed pipe must not look like success).
 */
static int
close_stdout(int status)
{
	if (fflush(stdout) != 0 || ferror(stdout) || fclose(stdout) != 0) {
		fputs("scalefit: error: could not write standard output\n",
		      stderr);
		return status == EXIT_OK ? EXIT_USAGE : status;
	}
	return status;
}

static int
run(int argc, char **argv)
{
	static const struct option options[] = {
		{"help", no_argument, NULL, 'h'},
		{"version", no_argument, NULL, 'V'},
		{NULL, 0, NULL, 0},
	};
	const command *cmd;
	int c;

	opterr = 0;
	/* "+": stop at the command name; its options are its own. */
	while ((c = getopt_long(argc, argv, "+hV", options, NULL)) != -1) {
		switch (c) {
		case 'h':
			print_usage(stdout);
			return EXIT_OK;
		case 'V':
			printf("scalefit %s\n", PACKAGE_VERSION);
			return EXIT_OK;
		default:
			return usage_error(NULL, NULL, "unknown option '%s'",
					   argv[optind - 1]);
		}
	}
	if (optind >= argc) {
		print_usage(stderr);
		return EXIT_USAGE;
	}
	cmd = command_find(argv[optind]);
	if (cmd == NULL)
		return usage_error(NULL, command_nearest(argv[optind]),
				   "unknown command '%s'", argv[optind]);
	argc -= optind;
	argv += optind;
	optind = 1; /* the command parses its own options from argv[1] */
	return cmd->run(cmd, argc, argv);
}

int
main(int argc, char **argv)
{
	return close_stdout(run(argc, argv));
}
