/*
 * cli.h - what the scalefit commands share: exit statuses, diagnostics on
 * stderr, what the options every fitting or data-reading command parses
 * fill in (cli/parse.h parses them), and the printing of a run's output.  A
 * command parses its options into the settings of its run (run/), calls it, and
 * prints what it gives back. Internal to the program: the library never
 * includes it.
 */
#ifndef SF_CLI_H
#define SF_CLI_H

#include "base/error.h"
#include "run/data.h"
#include "run/fit.h"
#include "run/fleet.h"
#include "run/output.h"

#include <stdio.h>

enum {
	SF_EXIT_OK = 0,      /* success */
	SF_EXIT_GOAL = 1,    /* ran, but failed its goal */
	SF_EXIT_USAGE = 2,   /* bad usage or bad input */
	SF_EXIT_INTERNAL = 3 /* a bug, or out of memory */
};

/* A sub-command.  run gets argv[0] = the command's name. */
typedef struct sf_command {
	const char *name;
	const char *synopsis; /* the usage line after "scalefit " */
	const char *summary;  /* one line for the command list */
	const char *help;     /* its options, for `scalefit help NAME` */
	int (*run)(const struct sf_command *cmd, int argc, char **argv);
} sf_command;

/* Print a command's help (usage line, summary, options) to out: the same
 * text for `scalefit help NAME` and `scalefit NAME --help`, the marks
 * CLI_HELP_ALGORITHMS and CLI_HELP_LOSSES replaced by their lists. */
void cli_print_help(FILE *out, const sf_command *cmd);

/*
 * The operands after the options, argv[optind..argc-1]: a usage error
 * "CMD needs WHAT" when there are none, "unexpected argument 'ARG'" for
 * the first beyond most.  Returns SF_EXIT_OK or SF_EXIT_USAGE.
 */
int cli_operands(const char *cmd, int argc, char **argv, int most,
                 const char *what);

/* What predict, scale, next and plot need, in cli_operands' message. */
#define CLI_FIT_FILE "a fit file (FIT.json, from 'scalefit fit -o FIT.json')"

/*
 * The operands MODEL.yaml [DATA.csv] (cli_operands: "CMD needs a model
 * file"): the model file's path in *model, the data file's in *data (NULL
 * when there is none).  Returns SF_EXIT_OK or SF_EXIT_USAGE.
 */
int cli_model_operands(const char *cmd, int argc, char **argv,
                       const char **model, const char **data);

/* "out of memory" as an error: its exit status. */
int cli_out_of_memory(void);

/* Print the command's help on stdout and exit: 0, or 2 when stdout could
 * not be written (a full disk must not look like success). */
void cli_help_exit(const sf_command *cmd) __attribute__((noreturn));

/* Print err as "scalefit: error: FILE:LINE:COL: ..." with the quoted line
 * and caret; return the exit status its code calls for. */
int cli_error(const sf_error *err);

/* A run's error: a fault of the request (SF_EREQUEST) as a usage error
 * of command cmd (its message, where to find help), else cli_error(). */
int cli_fail(const char *cmd, const sf_error *err);

/* An sf_warn_fn printing "scalefit: warning: ..." on stderr. */
void cli_warning(void *ctx, const sf_error *warning);

/*
 * A usage error for command cmd (NULL for the global level): the message,
 * "did you mean 'hint'?" when hint is not NULL, where to find help.
 * Returns SF_EXIT_USAGE.
 */
int cli_usage(const char *cmd, const char *hint, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* Help text names the choices of a vocabulary by these marks, which
 * cli_print_help replaces by the names in its table: "lshade, jso or de"
 * (solve/de.h), "relative, sse, log, absolute or huber" (solve/loss.h). */
#define CLI_HELP_ALGORITHMS "{algorithms}"
#define CLI_HELP_LOSSES "{losses}"

/* The help lines of the fit options (cli/parse.h's CLI_FIT_OPTIONS). */
#define CLI_FIT_OPTIONS_HELP                                                   \
	"      --seed N        random seed (default: the model's, else 1)\n"   \
	"      --threads N     OpenMP threads for the cost (default: all)\n"   \
	"      --algorithm A   " CLI_HELP_ALGORITHMS "\n"                      \
	"      --max-evals N   cost evaluations of the global search\n"        \
	"      --loss L        " CLI_HELP_LOSSES "\n"                          \
	"      --lambda X      regularisation strength (l2 unless the "        \
	"model says l1)\n"                                                     \
	"      --time-limit S  stop the search after S seconds\n"              \
	"      --no-polish     skip the least-squares polish\n"                \
	"      --no-separable  search every constant, even those the "         \
	"formula\n                      is linear in\n"                        \
	"      --scale S       search parameters auto (both ways), linear "    \
	"or log\n"

/* ---- the data and fleet options: --where, --output-column, --input, --by,
 * --details ------------------------------------------------------------- */

/* Their option values (cli/parse.h's CLI_DATA_OPTIONS and
 * CLI_FLEET_OPTIONS), past every short option's character. */
enum {
	CLI_OPT_WHERE = 0x200,
	CLI_OPT_OUTPUT_COLUMN,
	CLI_OPT_INPUT,
	CLI_OPT_BY,
	CLI_OPT_DETAILS
};

enum { CLI_DATA_INPUTS_MAX = 64 };

/* What the command line says about the data (run/data.h). */
typedef struct cli_data {
	sf_run_data run; /* run.change.inputs points at inputs */
	const char *inputs[CLI_DATA_INPUTS_MAX]; /* "NAME=EXPR" */
} cli_data;

#define CLI_DATA_OPTIONS_HELP                                                  \
	"      --where EXPR    keep the rows where EXPR holds, instead of "    \
	"data.where\n"                                                         \
	"                      ('' keeps every row)\n"                         \
	"      --output-column EXPR  the measured time, instead of "           \
	"data.output\n"                                                        \
	"      --input NAME=EXPR     input NAME's column or expression "       \
	"(repeatable)\n"

#define CLI_FLEET_OPTIONS_HELP                                                 \
	"      --by COLUMNS    one fit per group of rows with equal values "   \
	"of these\n                      columns (comma-separated; "           \
	"overrides data.by)\n"                                                 \
	"      --details       with --by: each group's whole report after "    \
	"the summary\n"

/* Load the model file ("@NAME": the library formula NAME, cli_library_dir)
 * with flags (input/model.h) and d's changes applied to every model;
 * warnings to stderr unless quiet. */
int cli_load_models(const char *path, unsigned flags, const cli_data *d,
                    sf_model_set **set, int quiet, sf_error *err);

/*
 * Standard input as the data: when d's path is "-", read it whole into *t
 * (named "<stdin>" in messages), which d->run.table then points at; else
 * *t is NULL.  Returns SF_EXIT_OK, or the exit status after the error of
 * reading or parsing it.  The caller frees *t (sf_table_free).
 */
int cli_stdin_data(cli_data *d, sf_table **t);

/*
 * The model file of a command that fits one model: loaded as
 * cli_load_models does (no flags) into *set, and its model in *m: the
 * only one, or the one --model (d->run.model) names.  Returns SF_EXIT_OK,
 * or the exit status after the message; the caller frees *set, also when
 * there is no such model.
 */
int cli_open_model(const char *cmd, const char *path, const cli_data *d,
                   int quiet, sf_model_set **set, const sf_model **m);

/* The formula library's directory: sf_run_library_dir() ($SCALEFIT_LIBRARY
 * when set and not empty, else the installed package data directory). */
const char *cli_library_dir(void);

/* The model to work on: the file's only one, or the one --model names
 * (NULL after a usage message when there is none such). */
const sf_model *cli_choose_model(const char *cmd, const sf_model_set *set,
                                 const char *name, const char *path);

/*
 * Refuse an output (option's argument, e.g. "-o") that is "-" (it would
 * make a file named "-", not write standard output) or that names the
 * same file as input (what says which: "the model file"), before any
 * work.  Returns SF_EXIT_OK, or SF_EXIT_USAGE after the message.  Either
 * may be NULL.
 */
int cli_output_not_input(const char *cmd, const char *option,
                         const char *output, const char *input,
                         const char *what);

/* ---- printing a run's output --------------------------------------------- */

/* Print o: its JSON when json, else its text.  Returns the exit status. */
int cli_print(const sf_run_output *o, int json);

/* Flush standard output: SF_EXIT_OK, or SF_EXIT_USAGE after the message
 * when it could not be written (a full disk, a closed pipe): what a
 * command checks before it writes a file its report announces. */
int cli_flush_stdout(void);

/*
 * The output of a --by run (fleet f): on the job's rank 0, print it
 * (cli_print), check that stdout took it, write the JSON to output (may be
 * NULL), then name the groups that failed.  Returns the exit status: 1
 * when a group failed, 2 when stdout or output could not be written.
 */
int cli_fleet_print(const sf_fleet *f, const sf_run_output *o, int json,
                    const char *output);

/* Every command. */
int sf_command_check(const sf_command *cmd, int argc, char **argv);
int sf_command_fit(const sf_command *cmd, int argc, char **argv);
int sf_command_compare(const sf_command *cmd, int argc, char **argv);
int sf_command_validate(const sf_command *cmd, int argc, char **argv);
int sf_command_predict(const sf_command *cmd, int argc, char **argv);
int sf_command_next(const sf_command *cmd, int argc, char **argv);
int sf_command_scale(const sf_command *cmd, int argc, char **argv);
int sf_command_plot(const sf_command *cmd, int argc, char **argv);
int sf_command_discover(const sf_command *cmd, int argc, char **argv);
int sf_command_formulas(const sf_command *cmd, int argc, char **argv);
int sf_command_init(const sf_command *cmd, int argc, char **argv);

#endif /* SF_CLI_H */
