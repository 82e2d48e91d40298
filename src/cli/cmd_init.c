/*
 * cmd_init.c - `scalefit init DATA.csv [-o MODEL.yaml]`: write a model to
 * start from, its inputs guessed from the data's column names
 * (input/scaffold.h).
 */
#define _GNU_SOURCE /* realpath */

#include "cli/parse.h"
#include "base/escape.h"
#include "base/atomic.h"
#include "input/csv.h"
#include "input/scaffold.h"
#include "run/init.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* data.file as the model will resolve it: relative to the model's
 * directory.  As given when the model goes to stdout or beside the
 * current directory's view of it; otherwise the data's absolute path. */
static char *
data_file_for(const char *data, const char *output)
{
	char resolved[PATH_MAX];

	if (output == NULL || strchr(output, '/') == NULL || data[0] == '/')
		return strdup(data);
	if (realpath(data, resolved) == NULL)
		return strdup(data);
	return strdup(resolved);
}

/* The model text on standard output.  On a terminal a data value's ESC
 * or BEL would drive it: shown as \xHH (base/escape.h), line breaks and
 * tabs kept; such a byte is not valid YAML as it is either.  Returns
 * SF_OK or SF_ENOMEM. */
static int
print_escaped(const char *text)
{
	const unsigned keep = SF_ESCAPE_NEWLINE | SF_ESCAPE_TAB;
	size_t n = sf_escape_length(text, keep);
	char *shown = malloc(n + 1);

	if (shown == NULL)
		return SF_ENOMEM;
	sf_escape(shown, n + 1, text, keep);
	fputs(shown, stdout);
	free(shown);
	return SF_OK;
}

int
sf_command_init(const sf_command *cmd, int argc, char **argv)
{
	const char *data, *output = NULL;
	char name[128], *file = NULL, *text = NULL;
	sf_table *t = NULL;
	sf_scaffold g;
	sf_error err;
	struct stat st;
	int force = 0, status = SF_EXIT_OK;
	const cli_option options[] = {
	    CLI_TEXT("output", 'o' | CLI_SHORT, &output),
	    CLI_FLAG("force", 'f' | CLI_SHORT, &force),
	    CLI_END,
	};

	sf_error_clear(&err);
	if ((status = cli_parse(cmd, options, argc, argv)) != SF_EXIT_OK)
		return status;
	if ((status = cli_operands(cmd->name, argc, argv, 1, "a data file")) !=
	    SF_EXIT_OK)
		return status;
	data = argv[optind];
	if ((status = cli_output_not_input(cmd->name, "-o", output, data,
	                                   "the data file")) != SF_EXIT_OK)
		return status;
	/* A model is edited by hand: never replace one unasked. */
	if (output != NULL && !force && stat(output, &st) == 0 &&
	    S_ISREG(st.st_mode))
		return cli_usage(cmd->name, NULL,
		                 "-o %s exists; choose another name, or add "
		                 "--force to replace it",
		                 output);
	sf_scaffold_name(data, name, sizeof name);
	if (sf_table_load(data, NULL, &t, &err) != SF_OK ||
	    sf_scaffold_guess(t, &g, &err) != SF_OK) {
		status = cli_error(&err);
		goto done;
	}
	if ((file = data_file_for(data, output)) == NULL ||
	    sf_run_init_model(t, &g, name, file, &text, &err) != SF_OK) {
		if (file == NULL)
			sf_error_set(&err, SF_ENOMEM, "out of memory");
		status = cli_error(&err);
		goto done;
	}
	if (output != NULL) {
		if (sf_write_atomic(output, text, strlen(text), "the model",
		                    &err) != SF_OK)
			status = cli_error(&err);
	} else if (print_escaped(text) != SF_OK) {
		sf_error_set(&err, SF_ENOMEM, "out of memory");
		status = cli_error(&err);
	} else {
		status = cli_flush_stdout();
	}
done:
	free(text);
	free(file);
	sf_table_free(t);
	return status;
}
