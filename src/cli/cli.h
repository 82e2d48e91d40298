/*
 * cli.h - what the scalefit commands share: exit statuses, diagnostics on
 * stderr, the options every fitting or data-reading command parses, and
 * the printing of a run's output.  A command parses its options into the
 * settings of its run (run/), calls it, and prints what it gives back.
 * Internal to the program: the library never includes it.
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

/*
 * Parse text, the argument of --option, as a whole number from lo to hi
 * (hi = SIZE_MAX: no upper limit) into *out.  Returns SF_EXIT_OK, or
 * prints the usage error ("--option needs a whole number ...") and
 * returns SF_EXIT_USAGE.
 */
int cli_count(const char *cmd, const char *option, const char *text, size_t lo,
              size_t hi, size_t *out);

/* Print a command's help (usage line, summary, options) to out: the same
 * text for `scalefit help NAME` and `scalefit NAME --help`, the marks
 * CLI_HELP_ALGORITHMS and CLI_HELP_LOSSES replaced by their lists. */
void cli_print_help(FILE *out, const sf_command *cmd);

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

/* The unknown option at argv[optind - 1] after getopt_long returned '?',
 * with the nearest of the command's long options. */
int cli_bad_option(const char *cmd, int argc, char **argv, int optopt_value,
                   const void *long_options);

/* The options of every command that fits (fit, validate, compare): the
 * overrides of the model's fit settings. */
/* clang-format off: one option a line */
#define CLI_FIT_OPTIONS                                                        \
	{"seed", required_argument, NULL, 's'},                                \
	    {"threads", required_argument, NULL, 't'},                         \
	    {"algorithm", required_argument, NULL, 'a'},                       \
	    {"max-evals", required_argument, NULL, 'e'},                       \
	    {"loss", required_argument, NULL, 'l'},                            \
	    {"lambda", required_argument, NULL, 'L'},                          \
	    {"time-limit", required_argument, NULL, 'T'},                      \
	    {"no-polish", no_argument, NULL, 'P'},                             \
	    {"no-separable", no_argument, NULL, 'N'},                          \
	{                                                                      \
		"scale", required_argument, NULL, 'S'                          \
	}
/* clang-format on */

/* Help text names the choices of a vocabulary by these marks, which
 * cli_print_help replaces by the names in its table: "lshade, jso or de"
 * (solve/de.h), "relative, sse, log, absolute or huber" (solve/loss.h). */
#define CLI_HELP_ALGORITHMS "{algorithms}"
#define CLI_HELP_LOSSES "{losses}"

/* The help lines of those options. */
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

/*
 * Apply fit option c (a CLI_FIT_OPTIONS value) with argument arg to o.
 * Returns SF_EXIT_OK, SF_EXIT_USAGE after printing why arg is bad, or -1
 * when c is not a fit option.
 */
int cli_fit_option(const char *cmd, int c, const char *arg, sf_fit_options *o);

/*
 * The last case of a fitting command's option switch: -h/--help (prints
 * the command's help and exits 0), a fit option (into o), or an unknown
 * option (a usage error with the nearest of long_options).  Returns
 * SF_EXIT_OK or SF_EXIT_USAGE.
 */
int cli_other_option(const sf_command *cmd, int c, int argc, char **argv,
                     const void *long_options, sf_fit_options *o);

/* ---- the data and fleet options: --where, --output-column, --input, --by,
 * --details ------------------------------------------------------------- */

/* Their option values, past every short option's character. */
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

/* clang-format off: one option a line */
#define CLI_DATA_OPTIONS                                                       \
	{"where", required_argument, NULL, CLI_OPT_WHERE},                     \
	    {"output-column", required_argument, NULL, CLI_OPT_OUTPUT_COLUMN}, \
	{                                                                      \
		"input", required_argument, NULL, CLI_OPT_INPUT                \
	}
/* clang-format on */

#define CLI_DATA_OPTIONS_HELP                                                  \
	"      --where EXPR    keep the rows where EXPR holds, instead of "    \
	"data.where\n"                                                         \
	"                      ('' keeps every row)\n"                         \
	"      --output-column EXPR  the measured time, instead of "           \
	"data.output\n"                                                        \
	"      --input NAME=EXPR     input NAME's column or expression "       \
	"(repeatable)\n"

/* The options of the commands that run fleets (--by). */
/* clang-format off: one option a line */
#define CLI_FLEET_OPTIONS                                                      \
	{"by", required_argument, NULL, CLI_OPT_BY},                           \
	{                                                                      \
		"details", no_argument, NULL, CLI_OPT_DETAILS                  \
	}
/* clang-format on */

#define CLI_FLEET_OPTIONS_HELP                                                 \
	"      --by COLUMNS    one fit per group of rows with equal values "   \
	"of these\n                      columns (comma-separated; "           \
	"overrides data.by)\n"                                                 \
	"      --details       with --by: each group's whole report after "    \
	"the summary\n"

/*
 * Apply data or fleet option c (a CLI_DATA_OPTIONS or CLI_FLEET_OPTIONS
 * value) with argument arg to d.  Returns SF_EXIT_OK, SF_EXIT_USAGE after
 * the message, or -1 when c is none of them.
 */
int cli_data_option(const char *cmd, int c, const char *arg, cli_data *d);

/* Load the model file ("@NAME": the library formula NAME, cli_library_dir)
 * with flags (input/model.h) and d's changes applied to every model;
 * warnings to stderr unless quiet. */
int cli_load_models(const char *path, unsigned flags, const cli_data *d,
                    sf_model_set **set, int quiet, sf_error *err);

/*
 * Standard input as data: when path is "-", read it whole into *t (named
 * "<stdin>" in messages), else set *t to NULL.  Returns SF_OK or the
 * error of reading or parsing it.
 */
int cli_stdin_table(const char *path, sf_table **t, sf_error *err);

/* The formula library's directory: sf_run_library_dir() ($SCALEFIT_LIBRARY
 * when set and not empty, else the installed package data directory). */
const char *cli_library_dir(void);

/* The model to work on: the file's only one, or the one --model names
 * (NULL after a usage message when there is none such). */
const sf_model *cli_choose_model(const char *cmd, const sf_model_set *set,
                                 const char *name, const char *path);

/*
 * Option --name's value arg into *value, refused (a usage error naming
 * both values, then how to do it instead: how, or "give it once" when
 * NULL) when *value was set before: the last would silently win.  Returns
 * SF_EXIT_OK or SF_EXIT_USAGE.
 */
int cli_once(const char *cmd, const char *name, const char *how,
             const char **value, const char *arg);

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
