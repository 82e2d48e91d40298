/*
 * cmd_formulas.c - `scalefit formulas`: the formula library, one line a
 * formula (its name, to use as @NAME, its inputs and its description),
 * under a header line.
 */
#include "cli/parse.h"
#include "base/escape.h"
#include "input/library.h"

#include <stdlib.h>
#include <string.h>

/* The inputs' names shown of one formula, at most (bytes). */
enum { FORMULA_INPUTS_MAX = 96 };

int
sf_command_formulas(const sf_command *cmd, int argc, char **argv)
{
	static const cli_option options[] = {CLI_END};
	sf_library_entry *e = NULL;
	char(*inputs)[FORMULA_INPUTS_MAX] = NULL;
	size_t n = 0, width = 0, iwidth = 6; /* "inputs" */
	sf_error err;
	int status;

	sf_error_clear(&err);
	if ((status = cli_parse(cmd, options, argc, argv)) != SF_EXIT_OK)
		return status;
	if (optind < argc)
		return cli_usage(cmd->name, NULL, "unexpected argument '%s'",
		                 argv[optind]);
	if (sf_library_list(cli_library_dir(), cli_warning, NULL, &e, &n,
	                    &err) != SF_OK)
		return cli_error(&err);
	if (n > 0 && (inputs = calloc(n, sizeof *inputs)) == NULL) {
		sf_library_entries_free(e, n);
		sf_error_set(&err, SF_ENOMEM, "out of memory");
		return cli_error(&err);
	}
	/* A file's name, inputs and comment are shown escaped
	 * (base/escape.h). */
	for (size_t i = 0; i < n; i++) {
		sf_library_inputs(e[i].path, inputs[i], sizeof inputs[i]);
		if (sf_escape_length(e[i].name, 0) > width)
			width = sf_escape_length(e[i].name, 0);
		if (sf_escape_length(inputs[i], 0) > iwidth)
			iwidth = sf_escape_length(inputs[i], 0);
	}
	if (n > 0) {
		printf("%-*s  %-*s  %s\n", (int)width + 1, "formula",
		       (int)iwidth, "inputs", "description");
	}
	for (size_t i = 0; i < n; i++) {
		putchar('@');
		sf_escape_print(stdout, e[i].name, -(int)width);
		fputs("  ", stdout);
		sf_escape_print(stdout, inputs[i], -(int)iwidth);
		fputs("  ", stdout);
		sf_escape_print(stdout, e[i].description, 0);
		putchar('\n');
	}
	free(inputs);
	sf_library_entries_free(e, n);
	return cli_flush_stdout();
}
