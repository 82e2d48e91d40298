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

#include "cli/cli.h"
#include "base/suggest.h"
#include "base/units.h"

#include <getopt.h>
#include <gsl/gsl_errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef sf_command command;

static int command_help(const command *cmd, int argc, char **argv);

static const command commands[] = {
    {"check", "check MODEL.yaml [DATA.csv] [--quiet]",
     "validate a model and its data; show the formula, parameters and "
     "rows",
     "  MODEL.yaml    a model file, or @NAME: a formula of the library\n"
     "  DATA.csv      use this data instead of the model's data.file (-: "
     "stdin)\n"
     "  -q, --quiet   no warnings\n" CLI_DATA_OPTIONS_HELP,
     sf_command_check},
    {"fit",
     "fit MODEL.yaml [DATA.csv] [-o FIT.json] [--json] [--seed N] "
     "[--threads N] [OPTION]...",
     "fit the formula's constants to the data and report them",
     "  DATA.csv            use this data instead of the model's data.file\n"
     "  -o, --output FILE   also write the JSON report to FILE (atomically)\n"
     "      --json          print the JSON report instead of the text "
     "one\n" CLI_FIT_OPTIONS_HELP
     "      --bootstrap N   N replicates resampling configurations: "
     "percentile\n"
     "                      intervals of the constants (and of "
     "predictions)\n"
     "      --restarts K    K fits from consecutive seeds; report the "
     "spread\n"
     "      --model NAME    which model of a models: file\n"
     "      --residuals W   rows listed in the JSON report: auto (all up "
     "to\n"
     "                      100000 rows, none beyond), all or none\n"
     "" CLI_FLEET_OPTIONS_HELP
     "  -q, --quiet         no warnings, no progress\n" CLI_DATA_OPTIONS_HELP,
     sf_command_fit},
    {"validate",
     "validate MODEL.yaml [DATA.csv] --train EXPR | --kfold K | --loo "
     "[OPTION]...",
     "fit without some rows and score the predictions of them",
     "  DATA.csv            use this data instead of the model's data.file\n"
     "      --train EXPR    fit the rows where EXPR holds (e.g. 'p <= 8'),\n"
     "                      predict the others: the extrapolation test\n"
     "      --kfold K       K-fold cross-validation over configurations\n"
     "      --loo           leave one configuration out at a time\n"
     "      --json          print the results as JSON\n"
     "      --csv           print every predicted row as "
     "CSV\n" CLI_FIT_OPTIONS_HELP
     "      --model NAME    which model of a models: "
     "file\n" CLI_FLEET_OPTIONS_HELP
     "  -q, --quiet         no warnings\n" CLI_DATA_OPTIONS_HELP,
     sf_command_validate},
    {"compare", "compare MODEL.yaml... [DATA.csv] [--train EXPR] [OPTION]...",
     "fit candidate formulas on the same rows and rank them",
     "  MODEL.yaml...       the candidates (a file may hold a models: list)\n"
     "  DATA.csv            use this data instead of each data.file\n"
     "      --kfold K       folds of the cross-validated MAPE (default 5)\n"
     "      --train EXPR    also score extrapolation: fit where EXPR "
     "holds\n"
     "      --rank R        rank by aicc, cv or extrapolation (default:\n"
     "                      extrapolation with --train, else aicc)\n"
     "      --json          print the ranking as JSON\n"
     "      --csv           print the ranking as CSV\n" CLI_FIT_OPTIONS_HELP
         CLI_FLEET_OPTIONS_HELP
     "  -q, --quiet         no warnings\n" CLI_DATA_OPTIONS_HELP,
     sf_command_compare},
    {"discover",
     "discover MODEL.yaml [DATA.csv] [--train EXPR] [--max-terms K] [-o "
     "OUT.yaml] [--json] [OPTION]...",
     "find the formula from the data, chosen by how well it extrapolates",
     "  MODEL.yaml          data: and inputs: (a time: formula, a discover: "
     "block\n"
     "                      and a models: list are optional)\n"
     "  DATA.csv            use this data instead of the model's "
     "data.file\n"
     "      --train EXPR    search on the rows where EXPR holds; the "
     "others are\n"
     "                      never used\n"
     "      --extrapolate X the input the folds extrapolate along "
     "(default p)\n"
     "      --max-terms K   terms besides the start-up (default 4, at most "
     "8)\n"
     "      --beam W        formulas kept per number of terms (default "
     "8)\n"
     "      --budget N      formulas scored at most (default 200000)\n"
     "      --top N         discovered formulas on the board (default "
     "10)\n"
     "      --members K     formulas of the ensemble -o writes (default 5, "
     "at most 8;\n"
     "                      1: the first alone: the winner, or the\n"
     "                      file's formula the held-back check "
     "chose)\n"
     "      --to V          show how far the ensemble's formulas part "
     "at this value\n"
     "                      of the extrapolated input (default: twice its "
     "top\n"
     "                      training level)\n"
     "      --shapes        only list the grammar's term shapes, simplest "
     "first\n"
     "  -o, --output FILE   write the ensemble (or the best) as a model "
     "file\n                      (atomically); with --by, a directory of "
     "one file\n                      per group\n"
     "      --json          print the search and the board as "
     "JSON\n" CLI_FIT_OPTIONS_HELP CLI_FLEET_OPTIONS_HELP
     "  -q, --quiet         no warnings\n" CLI_DATA_OPTIONS_HELP,
     sf_command_discover},
    {"predict",
     "predict FIT.json... --at NAME=VALUE,... | --grid FILE.csv [--json]",
     "predict the time at new points, with a new run's 95% interval and each "
     "term",
     "  -a, --at NAME=VALUE,...  a point: a value for every input "
     "(repeatable)\n"
     "      --grid FILE.csv      points from a CSV file with a column per "
     "input,\n"
     "                           or the data's columns (read as the fit "
     "read\n"
     "                           them; with the output, scored)\n"
     "      --input NAME=EXPR    input NAME's column or expression in the "
     "grid\n"
     "                           (repeatable)\n"
     "      --json               print the predictions as JSON\n"
     "      --csv                print the table as CSV\n"
     "      --weights W          with several fit files (candidate formulas "
     "fitted to\n"
     "                           the same rows): how to average them, by\n"
     "                           extrapolation evidence (default), aicc, "
     "equal or\n"
     "                           W1,W2,... (one a file)\n"
     "      --unit U             the time's unit in the header: s, ms, min "
     "or h\n"
     "      --group KEY          of a --by fit file, the groups whose key "
     "has\n"
     "                           these values (e.g. model=cnn); default: "
     "all\n"
     "  -q, --quiet              no warnings (extrapolation)\n",
     sf_command_predict},
    {"next",
     "next FIT.json... --target NAME=VALUE,... --over NAME=LO:HI | "
     "--candidates FILE.csv [OPTION]...",
     "rank candidate runs by how much they narrow the interval at a target",
     "  -t, --target NAME=VALUE,... the configuration the answer is for\n"
     "      --over NAME=LO:HI     candidates along one input (or "
     "NAME=V1,V2,...),\n"
     "                            the others at the target's values\n"
     "      --set NAME=VALUE,...  other inputs of the --over candidates\n"
     "      --candidates FILE.csv candidates from a CSV with a column per "
     "input\n"
     "      --budget COST         plan runs whose costs (time x workers) "
     "add up to COST\n"
     "      --runs K              plan K runs (default 1; all affordable "
     "with --budget)\n"
     "      --top N               show the N best candidates (default "
     "10)\n"
     "      --group KEY           of a --by fit file, the group to answer "
     "for\n"
     "      --weights W           several fit files are averaged, as "
     "predict averages\n"
     "                            them, and ranked for as an ensemble: "
     "weighted by\n"
     "                            extrapolation evidence (default), aicc, "
     "equal or\n"
     "                            W1,W2,... (one a file)\n"
     "      --json                print the ranking as JSON\n"
     "  -q, --quiet               no warnings\n",
     sf_command_next},
    {"scale",
     "scale FIT.json... --over NAME=LO:HI [--set NAME=VALUE,...] [--cost "
     "PRICE] [--plot FILE.svg] [OPTION]...",
     "show how the time scales along one input, and the best worker count",
     "      --over NAME=LO:HI    the input to sweep and its range (or "
     "NAME=V1,V2,...)\n"
     "      --set NAME=VALUE,... the other inputs' values (repeatable)\n"
     "      --points N           this many points (default: powers of 2 "
     "for workers)\n"
     "      --log, --linear      space the points so (default: log for "
     "wide ranges)\n"
     "      --cost PRICE         price of one worker-hour: adds cost and "
     "the cheapest point\n"
     "      --unit U             the time's unit, a label: s, ms, min or h "
     "(default:\n"
     "                           the model's data.unit, else from the "
     "output's name)\n"
     "      --workers NAME       the input that counts workers (default: "
     "p, or by column)\n"
     "      --plot FILE.svg      draw the chart (time with band, and "
     "efficiency or shares)\n"
     "      --data FILE.csv      with --plot: also draw the runs of FILE.csv "
     "(a column\n"
     "                           per input and the output) the fit did not "
     "see\n"
     "      --panel P            the chart's lower panel: efficiency or "
     "shares\n"
     "      --json               print the sweep and answers as JSON\n"
     "      --csv                print the table as CSV\n"
     "      --weights W          average the fit files into one sweep, as "
     "predict\n"
     "                           does (extrapolation, aicc, equal or "
     "W1,W2,...),\n"
     "                           instead of one sweep each\n"
     "      --group KEY          of a --by fit file, the groups to draw "
     "(e.g.\n                           model=cnn); default: every "
     "group\n"
     "  -q, --quiet              no warnings\n",
     sf_command_scale},
    {"plot", "plot FIT.json -o FILE.svg [--data DATA.csv] [OPTION]...",
     "draw where a fit misses: observed against predicted, errors by input",
     "  -o, --output FILE.svg     write the chart to FILE.svg (whole or not "
     "at all)\n"
     "      --data DATA.csv       also draw the rows of DATA.csv the fit did "
     "not see, as\n"
     "                            rings (a column per input and the "
     "output)\n"
     "      --group KEY           of a --by fit file, the group to draw\n"
     "  -q, --quiet               no warnings\n",
     sf_command_plot},
    {"init", "init DATA.csv [-o MODEL.yaml] [--force]",
     "write a model to start from, its inputs guessed from the columns",
     "  DATA.csv            the measurements, one run a row\n"
     "  -o, --output FILE   write the model to FILE (default: standard "
     "output)\n"
     "      --force         replace FILE when it exists\n",
     sf_command_init},
    {"formulas", "formulas",
     "list the formula library: use one as @NAME in place of MODEL.yaml",
     "The library is $SCALEFIT_LIBRARY/expressions when that is set, "
     "else the\ninstalled one.\n",
     sf_command_formulas},
    {"help", "help [COMMAND]", "show help for scalefit or one command", "",
     command_help},
};

static const size_t command_count = sizeof commands / sizeof commands[0];

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
	fputs(
	    "\nOptions:\n"
	    "  -h, --help     show this help and exit\n"
	    "  -V, --version  show the version and exit\n\n"
	    "'scalefit help COMMAND' describes one command; the manual pages\n"
	    "scalefit(1) and scalefit-model(5) describe everything.\n",
	    out);
}

static int
command_help(const command *cmd, int argc, char **argv)
{
	const command *target;

	if (argc > 2)
		return cli_usage(cmd->name, NULL, "too many arguments: '%s'",
		                 argv[2]);
	if (argc < 2) {
		print_usage(stdout);
		return SF_EXIT_OK;
	}
	if (strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "--help") == 0) {
		cli_print_help(stdout, cmd);
		return SF_EXIT_OK;
	}
	target = command_find(argv[1]);
	if (target == NULL)
		return cli_usage(NULL, command_nearest(argv[1]),
		                 "unknown command '%s'", argv[1]);
	cli_print_help(stdout, target);
	return SF_EXIT_OK;
}

/*
 * Make sure everything printed really reached stdout (a full disk or a
 * closed pipe must not look like success).
 */
static int
close_stdout(int status)
{
	if (fflush(stdout) != 0 || ferror(stdout) || fclose(stdout) != 0) {
		/* Status 2 has its message already (cli_flush_stdout's when
		 * it was this). */
		if (status != SF_EXIT_USAGE)
			fputs("scalefit: error: could not write standard "
			      "output\n",
			      stderr);
		return status == SF_EXIT_OK ? SF_EXIT_USAGE : status;
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
			return SF_EXIT_OK;
		case 'V':
			printf("scalefit %s\n", PACKAGE_VERSION);
			return SF_EXIT_OK;
		default:
			return cli_usage(NULL, NULL, "unknown option '%s'",
			                 argv[optind - 1]);
		}
	}
	if (optind >= argc) {
		print_usage(stderr);
		return SF_EXIT_USAGE;
	}
	cmd = command_find(argv[optind]);
	if (cmd == NULL)
		return cli_usage(NULL, command_nearest(argv[optind]),
		                 "unknown command '%s'", argv[optind]);
	argc -= optind;
	argv += optind;
	/* 0, not 1: glibc then also resets its scanning state (the "+" above
	 * stopped permutation), so a command's options may follow its files. */
	optind = 0;
	return cmd->run(cmd, argc, argv);
}

/* More threads than a cost uses: say so (the first number of the
 * variable is the thread count of the outer level). */
static void
warn_thread_cap(void)
{
	const char *env = getenv("OMP_NUM_THREADS");
	unsigned long long n;
	char *end;

	if (env == NULL)
		return;
	while (*env == ' ' || *env == '\t')
		env++;
	if (*env < '0' || *env > '9')
		return;
	n = strtoull(env, &end, 10);
	if (n > SF_THREADS_MAX)
		fprintf(stderr,
		        "scalefit: warning: OMP_NUM_THREADS=%s is more than "
		        "the %d threads scalefit uses; using %d\n",
		        env, SF_THREADS_MAX, SF_THREADS_MAX);
}

int
main(int argc, char **argv)
{
	/* GSL aborts on errors by default; our modules check every status. */
	sf_error err;

	gsl_set_error_handler_off();
	sf_error_clear(&err);
	/* Under mpirun: every rank runs the command (base/units.h); rank 0
	 * alone prints and writes, the others' failures reach it through
	 * the job's end (sf_units_finish). */
	if (sf_units_init(&argc, &argv, &err) != SF_OK)
		return cli_error(&err);
	if (!sf_units_root() && (freopen("/dev/null", "w", stdout) == NULL ||
	                         freopen("/dev/null", "w", stderr) == NULL))
		sf_units_abort(SF_EXIT_INTERNAL);
	/* mpirun hands rank 0 a standard output that is not buffered: a
	 * 50 MB report would take a million writes. */
	if (sf_units_mpi())
		setvbuf(stdout, NULL, _IOFBF, 1 << 16);
	warn_thread_cap();
	return sf_units_finish(close_stdout(run(argc, argv)));
}
