/*
 * cli.c - diagnostics and the shared front of every command.
 */
#include "cli/cli.h"
#include "base/escape.h"
#include "base/atomic.h"
#include "base/number.h"
#include "base/suggest.h"
#include "base/units.h"

#include <ctype.h>
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

int
cli_fail(const char *cmd, const sf_error *err)
{
	if (err->code == SF_EREQUEST)
		return cli_usage(cmd, NULL, "%s", err->message);
	return cli_error(err);
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
cli_operands(const char *cmd, int argc, char **argv, int most, const char *what)
{
	if (argc - optind < 1)
		return cli_usage(cmd, NULL, "%s needs %s", cmd, what);
	if (argc - optind > most)
		return cli_usage(cmd, NULL, "unexpected argument '%s'",
		                 argv[optind + most]);
	return SF_EXIT_OK;
}

int
cli_model_operands(const char *cmd, int argc, char **argv, const char **model,
                   const char **data)
{
	int status = cli_operands(cmd, argc, argv, 2, "a model file");

	if (status == SF_EXIT_OK) {
		*model = argv[optind];
		*data = argc - optind == 2 ? argv[optind + 1] : NULL;
	}
	return status;
}

int
cli_out_of_memory(void)
{
	sf_error err;

	sf_error_clear(&err);
	sf_error_set(&err, SF_ENOMEM, "out of memory");
	return cli_error(&err);
}

int
cli_output_not_input(const char *cmd, const char *option, const char *output,
                     const char *input, const char *what)
{
	/* "-" is standard input for a data file, so it would be read as
	 * standard output here; it would make a file named "-" instead.
	 * Refused: a file of that name is "./-". */
	if (output != NULL && strcmp(output, "-") == 0)
		return cli_usage(cmd, NULL,
		                 "%s -: standard output is not a file to write "
		                 "here (it gets the text report, or --json's "
		                 "document): give a file name, ./- for one "
		                 "named '-'",
		                 option);
	if (output == NULL || input == NULL || !sf_file_same(output, input))
		return SF_EXIT_OK;
	return cli_usage(cmd, NULL,
	                 "%s '%s' is %s '%s': it would be overwritten", option,
	                 output, what, input);
}

int
cli_load_models(const char *path, unsigned flags, const cli_data *d,
                sf_model_set **set, int quiet, sf_error *err)
{
	return sf_run_data_load(path, cli_library_dir(), flags, &d->run.change,
	                        quiet ? NULL : cli_warning, NULL, set, err);
}

/* Standard input is read whole, up to the size of a CSV file (1 GiB,
 * scalefit(1) LIMITS). */
enum { CLI_STDIN_MAX = 1 << 30 };

/* Read standard input whole: an sf_read_fn (ctx unused). */
static int
read_stdin(void *ctx, char **out, size_t *size, sf_error *err)
{
	size_t n = 0, cap = 1 << 16;
	char *text = NULL, *more;

	(void)ctx;
	*out = NULL;
	*size = 0;
	for (;;) {
		if ((more = realloc(text, cap)) == NULL) {
			free(text);
			return sf_error_set(err, SF_ENOMEM, "out of memory");
		}
		text = more;
		n += fread(text + n, 1, cap - n, stdin);
		if (n < cap)
			break;
		if (cap >= CLI_STDIN_MAX) {
			free(text);
			return sf_error_at(err, SF_EVALUE, "<stdin>", 0, 0,
			                   "standard input holds more than the "
			                   "%d MiB a CSV file may have",
			                   CLI_STDIN_MAX >> 20);
		}
		cap *= 2;
	}
	if (ferror(stdin)) {
		free(text);
		return sf_error_at(err, SF_EIO, "<stdin>", 0, 0,
		                   "could not read standard input");
	}
	*out = text;
	*size = n;
	return SF_OK;
}

int
cli_stdin_data(cli_data *d, sf_table **t)
{
	const char *path = d->run.path;
	sf_error err;

	sf_error_clear(&err);
	*t = NULL;
	if (path == NULL || strcmp(path, "-") != 0)
		return SF_EXIT_OK;
	/* Under mpirun standard input reaches rank 0 alone: it reads, every
	 * rank parses the same bytes. */
	if (sf_run_data_read(read_stdin, NULL, "<stdin>", t, &err) != SF_OK)
		return cli_error(&err);
	d->run.table = *t;
	return SF_EXIT_OK;
}

int
cli_open_model(const char *cmd, const char *path, const cli_data *d, int quiet,
               sf_model_set **set, const sf_model **m)
{
	sf_error err;

	sf_error_clear(&err);
	if (cli_load_models(path, 0, d, set, quiet, &err) != SF_OK)
		return cli_error(&err);
	if ((*m = cli_choose_model(cmd, *set, d->run.model, path)) == NULL)
		return SF_EXIT_USAGE;
	return SF_EXIT_OK;
}

const char *
cli_library_dir(void)
{
	return sf_run_library_dir();
}

const sf_model *
cli_choose_model(const char *cmd, const sf_model_set *set, const char *name,
                 const char *path)
{
	const sf_model *m;
	sf_error err;

	sf_error_clear(&err);
	if ((m = sf_run_data_choose(set, name, path, &err)) == NULL)
		cli_fail(cmd, &err);
	return m;
}

/* Help text with each mark of a vocabulary (cli.h) replaced by the names
 * in its table. */
static void
print_help_text(FILE *out, const char *text)
{
	static const char algorithms[] = CLI_HELP_ALGORITHMS,
	                  losses[] = CLI_HELP_LOSSES;
	const char *mark;
	char list[256];

	while ((mark = strchr(text, '{')) != NULL) {
		fwrite(text, 1, (size_t)(mark - text), out);
		text = mark + 1;
		if (strncmp(mark, algorithms, sizeof algorithms - 1) == 0) {
			fputs(sf_de_algorithm_list(list, sizeof list), out);
			text = mark + sizeof algorithms - 1;
		} else if (strncmp(mark, losses, sizeof losses - 1) == 0) {
			fputs(sf_loss_list(list, sizeof list, 0), out);
			text = mark + sizeof losses - 1;
		} else {
			fputc('{', out);
		}
	}
	fputs(text, out);
}

void
cli_print_help(FILE *out, const sf_command *cmd)
{
	/* The summary is written for the command list, in lower case. */
	fprintf(out, "Usage: scalefit %s\n%c%s.\n", cmd->synopsis,
	        toupper((unsigned char)cmd->summary[0]), cmd->summary + 1);
	if (cmd->help[0] != '\0') {
		fputc('\n', out);
		print_help_text(out, cmd->help);
	}
}

void
cli_help_exit(const sf_command *cmd)
{
	cli_print_help(stdout, cmd);
	/* exit() would flush stdout too late to see that it failed. */
	exit(cli_flush_stdout());
}

/* The failed groups, named on stderr: status 1. */
static int
fleet_failed(const sf_fleet *f)
{
	size_t named = 0;

	fprintf(stderr, "scalefit: error: %zu of %zu groups failed:", f->failed,
	        f->count);
	for (size_t i = 0; i < f->count; i++) {
		if (f->errors[i] == NULL)
			continue;
		if (named++ == 10) {
			fprintf(stderr, " ... (%zu more)", f->failed - 10);
			break;
		}
		fputs(named > 1 ? ", " : " ", stderr);
		sf_escape_print(stderr, f->labels[i], 0);
	}
	fputc('\n', stderr);
	return SF_EXIT_GOAL;
}

int
cli_print(const sf_run_output *o, int json)
{
	sf_error err;

	sf_error_clear(&err);
	if (!json) {
		fputs(o->text, stdout);
		return SF_EXIT_OK;
	}
	if (sf_run_output_json_print(o, stdout, &err) != SF_OK)
		return cli_error(&err);
	return SF_EXIT_OK;
}

int
cli_fleet_print(const sf_fleet *f, const sf_run_output *o, int json,
                const char *output)
{
	sf_error err;
	int status;

	sf_error_clear(&err);
	if (!sf_units_root()) /* rank 0 reports for the job */
		return SF_EXIT_OK;
	if ((status = cli_print(o, json)) != SF_EXIT_OK)
		return status;
	if ((status = cli_flush_stdout()) != SF_EXIT_OK)
		return status;
	if (output != NULL && sf_run_json_save(o->json, output, &err) != SF_OK)
		return cli_error(&err);
	return f->failed > 0 ? fleet_failed(f) : SF_EXIT_OK;
}

int
cli_flush_stdout(void)
{
	if (fflush(stdout) != 0 || ferror(stdout)) {
		fputs("scalefit: error: could not write standard output\n",
		      stderr);
		return SF_EXIT_USAGE;
	}
	return SF_EXIT_OK;
}
