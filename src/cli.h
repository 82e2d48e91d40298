/*
 * cli.h - what the scalefit commands share: exit statuses, diagnostics on
 * stderr, and the front of the pipeline (model file -> data -> compiled
 * formula).  Internal to the program: the library never includes it.
 */
#ifndef SF_CLI_H
#define SF_CLI_H

#include "dataset.h"
#include "error.h"
#include "formula.h"
#include "model.h"

#include <stdio.h>

enum {
	SF_EXIT_OK = 0,       /* success */
	SF_EXIT_GOAL = 1,     /* ran, but failed its goal */
	SF_EXIT_USAGE = 2,    /* bad usage or bad input */
	SF_EXIT_INTERNAL = 3  /* a bug, or out of memory */
};

/* A sub-command.  run gets argv[0] = the command's name. */
typedef struct sf_command {
	const char *name;
	const char *synopsis; /* the usage line after "scalefit " */
	const char *summary;  /* one line for the command list */
	const char *help;     /* its options, for `scalefit help NAME` */
	int (*run)(const struct sf_command *cmd, int argc, char **argv);
} sf_command;

/* Print err as "scalefit: error: FILE:LINE:COL: ..." with the quoted line
 * and caret; return the exit status its code calls for. */
int cli_error(const sf_error *err);

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

/* One model made ready: its data bound and its formula compiled. */
typedef struct cli_problem {
	const sf_model *model; /* borrowed from the set */
	sf_table *table;
	sf_dataset *data;
	sf_formula *formula;
} cli_problem;

/*
 * Load the model file, then for model m of it: read the data (data_path
 * when not NULL, else the model's data.file), bind it for the given loss
 * (which decides whether outputs must be > 0) and compile the formula.  Warnings go to stderr unless quiet.  Returns SF_OK or fills
 * err (the caller reports it).
 */
int cli_load_models(const char *path, sf_model_set **set, int quiet,
		    sf_error *err);
int cli_problem_open(const sf_model *m, const char *data_path, sf_loss loss,
		     int quiet, cli_problem *p, sf_error *err);
void cli_problem_close(cli_problem *p);

/* Every command. */
int sf_command_check(const sf_command *cmd, int argc, char **argv);
int sf_command_fit(const sf_command *cmd, int argc, char **argv);
int sf_command_predict(const sf_command *cmd, int argc, char **argv);
int sf_command_scale(const sf_command *cmd, int argc, char **argv);

#endif /* SF_CLI_H */
