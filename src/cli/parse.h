/*
 * parse.h - the command line's options: each command declares its options
 * as a table of rows (a long name, its short letter, what kind of argument
 * it takes and where that goes) and calls cli_parse(), the one loop over
 * getopt_long that every command shares.  The options several commands
 * take (the fit, data and fleet options) are rows too, added to a table by
 * one macro each.
 *
 * A table is built on the stack of the command that parses: its rows
 * point into that command's arguments, which cli_parse fills; the texts
 * kept are argv's own.  Internal to the program.
 */
#ifndef SF_CLI_PARSE_H
#define SF_CLI_PARSE_H

#include "cli/cli.h"

#include <getopt.h>
#include <stddef.h>

/* What an option does with its argument (cli_option.kind). */
typedef enum cli_kind {
	CLI_KIND_FLAG,   /* no argument: the int *to set to 1 */
	CLI_KIND_TEXT,   /* the argument in the const char * *to: the last */
	CLI_KIND_ONCE,   /* the same, refused when given twice: cli_once's
	                    message, or what's when not NULL */
	CLI_KIND_NUMBER, /* a number > 0 in the double *to; else "--NAME needs
	                    WHAT, not 'ARG'" (cli_number) */
	CLI_KIND_COUNT,  /* a whole number from lo to hi in the size_t *to */
	CLI_KIND_LIST,   /* appended to the const char * array to, counted in
	                  *n (the array has room for every argument) */
	CLI_KIND_NAME,   /* one of the count names, kept in the const char * *to
	                    (names' own pointer); else "unknown WHAT 'ARG' (a, b
	                    or c)" */
	CLI_KIND_CALL,   /* set(cmd, val, argument, to) */
	CLI_KIND_HELP,   /* the command's help on stdout, then exit
	                    (cli_help_exit): the row cli_parse adds */
	CLI_KIND_HELP_RETURN /* the command's help on stdout; cli_parse
	                        returns CLI_HELP_SHOWN */
} cli_kind;

/*
 * A CLI_KIND_CALL option's setter: the option with value val (its row's,
 * without CLI_SHORT) and argument arg (NULL when it takes none) into to.
 * Returns SF_EXIT_OK, or SF_EXIT_USAGE after the message (cli_usage) for
 * command cmd.
 */
typedef int cli_set_fn(const char *cmd, int val, const char *arg, void *to);

/* A row's val | CLI_SHORT: the option is also -val (a letter). */
enum { CLI_SHORT = 0x10000 };

/* cli_parse's status after a CLI_KIND_HELP_RETURN row printed the help:
 * the command returns SF_EXIT_OK without its work. */
enum { CLI_HELP_SHOWN = -1 };

/* One option of a command's table; a row of NULL name ends the table. */
typedef struct cli_option {
	const char *name; /* the long name, without "--" */
	int val;          /* getopt_long's value, | CLI_SHORT */
	int has_arg;      /* no_argument or required_argument */
	cli_kind kind;
	void *to;        /* where the value goes (by kind) */
	size_t *n;       /* CLI_KIND_LIST: the list's count */
	size_t lo, hi;   /* CLI_KIND_COUNT: the range (hi SIZE_MAX: no end) */
	cli_set_fn *set; /* CLI_KIND_CALL */
	const char *const *names; /* CLI_KIND_NAME: the names, count of them, */
	size_t count;             /* and what a message calls the option; */
	const char *what;         /* CLI_KIND_ONCE, _NUMBER: see cli_kind */
} cli_option;

/*
 * The rows, by kind.  val is the value getopt_long returns for the option
 * (a letter, or a CLI_OPT_* value past them), | CLI_SHORT when -val is
 * accepted too; a letter without CLI_SHORT only names the option, as in
 * "option '--kfold' needs an argument" for -k.  The pointer types are
 * checked: an int * for a flag, a const char ** for a text or a name, a
 * size_t * for a count.  cli_parse adds -h, --help (print the help and
 * exit) after the rows, unless a row is --help already.
 */
#define CLI_FLAG(name_, val_, to_)                                             \
	{                                                                      \
		.name = name_, .val = val_, .has_arg = no_argument,            \
		.kind = CLI_KIND_FLAG, .to = CLI_IS(int, to_)                  \
	}
#define CLI_TEXT(name_, val_, to_)                                             \
	{                                                                      \
		.name = name_, .val = val_, .has_arg = required_argument,      \
		.kind = CLI_KIND_TEXT, .to = CLI_IS(const char *, to_)         \
	}
#define CLI_ONCE(name_, val_, to_)                                             \
	{                                                                      \
		.name = name_, .val = val_, .has_arg = required_argument,      \
		.kind = CLI_KIND_ONCE, .to = CLI_IS(const char *, to_)         \
	}
#define CLI_ONCE_SAYING(name_, val_, message_, to_)                            \
	{                                                                      \
		.name = name_, .val = val_, .has_arg = required_argument,      \
		.kind = CLI_KIND_ONCE, .to = CLI_IS(const char *, to_),        \
		.what = message_                                               \
	}
#define CLI_NUMBER(name_, val_, what_, to_)                                    \
	{                                                                      \
		.name = name_, .val = val_, .has_arg = required_argument,      \
		.kind = CLI_KIND_NUMBER, .to = CLI_IS(double, to_),            \
		.what = what_                                                  \
	}
#define CLI_COUNT(name_, val_, lo_, hi_, to_)                                  \
	{                                                                      \
		.name = name_, .val = val_, .has_arg = required_argument,      \
		.kind = CLI_KIND_COUNT, .to = CLI_IS(size_t, to_), .lo = lo_,  \
		.hi = hi_                                                      \
	}
#define CLI_LIST(name_, val_, array_, n_)                                      \
	{                                                                      \
		.name = name_, .val = val_, .has_arg = required_argument,      \
		.kind = CLI_KIND_LIST, .to = CLI_IS(const char *, array_),     \
		.n = CLI_IS(size_t, n_)                                        \
	}
#define CLI_NAME(name_, val_, what_, names_, count_, to_)                      \
	{                                                                      \
		.name = name_, .val = val_, .has_arg = required_argument,      \
		.kind = CLI_KIND_NAME, .to = CLI_IS(const char *, to_),        \
		.names = names_, .count = count_, .what = what_                \
	}
#define CLI_CALL(name_, val_, has_arg_, set_, to_)                             \
	{                                                                      \
		.name = name_, .val = val_, .has_arg = has_arg_,               \
		.kind = CLI_KIND_CALL, .to = to_, .set = set_                  \
	}
#define CLI_HELP_RETURN                                                        \
	{                                                                      \
		.name = "help", .val = 'h' | CLI_SHORT,                        \
		.has_arg = no_argument, .kind = CLI_KIND_HELP_RETURN           \
	}
#define CLI_END                                                                \
	{                                                                      \
		.name = NULL                                                   \
	}

/* p as a type *, or a compiler warning when it is another pointer. */
#define CLI_IS(type, p) (1 ? (p) : (type *)NULL)

/* The options of every command that fits (fit, validate, compare,
 * discover): the overrides of the model's fit settings, into the
 * sf_fit_options *to (cli_fit_option). */
#define CLI_FIT_OPTIONS(to)                                                    \
	CLI_CALL("seed", 's', required_argument, cli_fit_option, to),          \
	    CLI_CALL("threads", 't', required_argument, cli_fit_option, to),   \
	    CLI_CALL("algorithm", 'a', required_argument, cli_fit_option, to), \
	    CLI_CALL("max-evals", 'e', required_argument, cli_fit_option, to), \
	    CLI_CALL("loss", 'l', required_argument, cli_fit_option, to),      \
	    CLI_CALL("lambda", 'L', required_argument, cli_fit_option, to),    \
	    CLI_CALL("time-limit", 'T', required_argument, cli_fit_option,     \
	             to),                                                      \
	    CLI_CALL("no-polish", 'P', no_argument, cli_fit_option, to),       \
	    CLI_CALL("no-separable", 'N', no_argument, cli_fit_option, to),    \
	    CLI_CALL("scale", 'S', required_argument, cli_fit_option, to)

/* The data options, --where, --output-column and --input, into the
 * cli_data *to (cli_data_option). */
#define CLI_DATA_OPTIONS(to)                                                   \
	CLI_CALL("where", CLI_OPT_WHERE, required_argument, cli_data_option,   \
	         to),                                                          \
	    CLI_CALL("output-column", CLI_OPT_OUTPUT_COLUMN,                   \
	             required_argument, cli_data_option, to),                  \
	    CLI_CALL("input", CLI_OPT_INPUT, required_argument,                \
	             cli_data_option, to)

/* The options of the commands that run fleets, --by and --details, into
 * the cli_data *to (cli_data_option). */
#define CLI_FLEET_OPTIONS(to)                                                  \
	CLI_CALL("by", CLI_OPT_BY, required_argument, cli_data_option, to),    \
	    CLI_CALL("details", CLI_OPT_DETAILS, no_argument, cli_data_option, \
	             to)

/*
 * Parse the options of argv (argv[0] the command's name) by the table
 * options, in argv's order, each into its row's place; the operands are
 * left in argv[optind..argc-1] (getopt_long permutes them to the end).
 * An unknown option, or one missing its argument, is a usage error that
 * names the nearest of the table's long names.  Returns SF_EXIT_OK,
 * SF_EXIT_USAGE after the message, or CLI_HELP_SHOWN; --help exits,
 * unless the table's own row is CLI_HELP_RETURN.  At most CLI_OPTIONS_MAX
 * rows.
 */
enum { CLI_OPTIONS_MAX = 63 };
int cli_parse(const sf_command *cmd, const cli_option *options, int argc,
              char **argv);

/*
 * cli_parse() for a command on fit files (predict, scale, next, plot),
 * then its operands (cli_operands): one fit file at least ("CMD needs a
 * fit file (FIT.json, ...)"), most at the most, in *fits (argv's own) and
 * *nfits.  Returns SF_EXIT_OK, or the first status that is not.
 */
int cli_parse_fits(const sf_command *cmd, const cli_option *options, int argc,
                   char **argv, int most, const char *const **fits,
                   size_t *nfits);

/* The setter of the fit options' rows (CLI_FIT_OPTIONS): to is an
 * sf_fit_options. */
int cli_fit_option(const char *cmd, int val, const char *arg, void *to);

/* The setter of --weights (how several fit files are averaged): to is
 * an sf_average_asked. */
int cli_weights_option(const char *cmd, int val, const char *arg, void *to);

/* The setter of the data and fleet options' rows (CLI_DATA_OPTIONS,
 * CLI_FLEET_OPTIONS): to is a cli_data. */
int cli_data_option(const char *cmd, int val, const char *arg, void *to);

/*
 * Parse text, the argument of --option, as a whole number from lo to hi
 * (hi = SIZE_MAX: no upper limit) into *out.  Returns SF_EXIT_OK, or
 * prints the usage error ("--option needs a whole number ...") and
 * returns SF_EXIT_USAGE.
 */
int cli_count(const char *cmd, const char *option, const char *text, size_t lo,
              size_t hi, size_t *out);

/*
 * Option --name's value arg into *value, refused (a usage error naming
 * both values, then how to do it instead: how, or "give it once" when
 * NULL) when *value was set before: the last would silently win.  Returns
 * SF_EXIT_OK or SF_EXIT_USAGE.
 */
int cli_once(const char *cmd, const char *name, const char *how,
             const char **value, const char *arg);

/*
 * arg as one of the n names: its index in *index.  Returns SF_EXIT_OK, or
 * SF_EXIT_USAGE after the message "unknown WHAT 'ARG'" (what: "scale",
 * "--unit"), followed by " (a, b or c)" naming them when listed, and the
 * nearest name.
 */
int cli_choice(const char *cmd, const char *what, const char *arg,
               const char *const *names, size_t n, int listed, int *index);

/*
 * arg, the argument of --name, as a number > 0, or >= 0 when zero, into
 * *out.  Returns SF_EXIT_OK, or SF_EXIT_USAGE after the message "--NAME
 * needs WHAT, not 'ARG'" (what: "a number >= 0").
 */
int cli_number(const char *cmd, const char *name, const char *what,
               const char *arg, int zero, double *out);

#endif /* SF_CLI_PARSE_H */
