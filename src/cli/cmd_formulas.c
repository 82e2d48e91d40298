/*
 * cmd_formulas.c - `scalefit formulas`: the formula library, one line a
 * formula (its name, to use as @NAME, and its description).
 */
#define _GNU_SOURCE /* getopt_long */

#include "cli/cli.h"
#include "base/escape.h"
#include "input/library.h"

#include <getopt.h>
#include <string.h>

int
sf_command_formulas(const sf_command *cmd, int argc, char **argv)
{
	static const struct option options[] = {
	    {"help", no_argument, NULL, 'h'},
	    {NULL, 0, NULL, 0},
	};
	sf_library_entry *e = NULL;
	size_t n = 0, width = 0;
	sf_error err;
	int c;

	sf_error_clear(&err);
	while ((c = getopt_long(argc, argv, "h", options, NULL)) != -1) {
		if (c == 'h')
			cli_help_exit(cmd);
		return cli_bad_option(cmd->name, argc, argv, optopt, options);
	}
	if (optind < argc)
		return cli_usage(cmd->name, NULL, "unexpected argument '%s'",
		                 argv[optind]);
	if (sf_library_list(cli_library_dir(), cli_warning, NULL, &e, &n,
	                    &err) != SF_OK)
		return cli_error(&err);
	/* A file's name and comment are shown escaped (base/escape.h). */
	for (size_t i = 0; i < n; i++)
		if (sf_escape_length(e[i].name, 0) > width)
			width = sf_escape_length(e[i].name, 0);
	for (size_t i = 0; i < n; i++) {
		putchar('@');
		sf_escape_print(stdout, e[i].name, -(int)width);
		fputs("  ", stdout);
		sf_escape_print(stdout, e[i].description, 0);
		putchar('\n');
	}
	sf_library_entries_free(e, n);
	return cli_flush_stdout();
}
