/*
 * scaffold.h - a model to start from, guessed from a CSV table's columns
 * (what `scalefit init DATA.csv` writes).
 *
 * Each column's role is guessed from its name (case-insensitive, by the
 * words in it; scaffold.c's vocabulary is the one list): a worker count
 * (workers, gpus, ranks, world_size, ...; cores; nodes, machines) is the
 * input p; a batch size (batch) is b, per worker unless the name says
 * global or total (then b = that column / p); a count of data processed
 * (samples, images, tokens, dataset_size, ...) is n, else, with a batch,
 * the steps of the run (iterations, iters, steps) times the global batch
 * is; the measured time (time, seconds, duration, elapsed, latency, a
 * name ending in _s, _sec or _ms) is the output.  Rates
 * ("images_per_sec", "throughput") are none of these.  The
 * formula is the library's generic data-parallel one (@ddp-generic,
 * Kavarakuntla et al. 2024) cut to the inputs found:
 *   time = t0 + steps (a + c b) + steps (l log2 p + w (p - 1) / p) + r n
 * with steps = n / (p b) (n / p without b; 1 / (p b) without n, the data
 * size then folded into the constants; 1 when the output is the time of
 * one step, its name saying step or iter, and then no n).  When the
 * table also has a steps column (and a count n of its own), the rules
 * n / (p b), max(1, floor(n / (p b))) and ceil(n / (p b)) are tested in
 * that order on the rows the model binds, and the first that gives the
 * column on every row is written as the derived input steps
 * (`steps: {derived: RULE}`, input/model.h), said in a comment (no rule:
 * the term n / (p b), and a comment says the column was not
 * reproduced).  Without a steps column the steps are the quotient, or
 * whole as the caller says (steps_rounding: run/init chooses by fits
 * where sf_scaffold_whole_steps says the runs may take them).  A worker
 * column is preferred to one of cores, that to one of nodes or machines,
 * that to a count per node.  Every constant is >= 0, and its
 * upper bound comes from the data: no term can exceed a run's measured
 * time, so a constant whose term is K x (its multiplier) is at most the
 * largest time / multiplier over the rows, rounded up to 1, 2 or 5 times
 * a power of ten.
 *
 * Ownership: a guess borrows the table's column names (the table must
 * outlive it); sf_scaffold_write() returns a malloc'd text.  Thread-safe.
 */
#ifndef SF_SCAFFOLD_H
#define SF_SCAFFOLD_H

#include "base/error.h"
#include "input/csv.h"
#include "input/steps.h"

#include <stddef.h>

/* What a column is for, guessed from its name. */
typedef enum sf_scaffold_role {
	SF_ROLE_NONE = 0,
	SF_ROLE_WORKERS,      /* p */
	SF_ROLE_BATCH,        /* b, per worker */
	SF_ROLE_GLOBAL_BATCH, /* b = column / p */
	SF_ROLE_COUNT,        /* n */
	SF_ROLE_TIME,         /* the output */
	SF_ROLE_STEPS         /* optimizer steps of the run: with a batch,
	                         n = steps x the global batch */
} sf_scaffold_role;

/* The role of a column named name.  Thread-safe. */
sf_scaffold_role sf_scaffold_role_of(const char *name);

/* The columns chosen, SF_CSV_NONE for none (the first numeric column of
 * each role, in the table's order), and how the steps are written. */
typedef struct sf_scaffold {
	size_t p, b, n, output, steps;
	int b_global; /* b is the column / p */
	int per_step; /* the output is the time of one step (its name says
	                 step or iter): steps = 1, no n */
	sf_steps_rule steps_rounding; /* without a steps column (input/
	                 steps.h): the quotient unless the caller chose
	                 (sf_scaffold_whole_steps) */
	const char *steps_note; /* a comment above a rounded steps term (its
	                 text borrowed), or NULL */
} sf_scaffold;

/*
 * 1 when t's runs under guess g may take whole steps the quotient does
 * not give: a count, the workers and a batch, no steps column, and
 * n / (p b) further than a relative 1e-9 from a whole number on some row
 * the model binds (as discover's grammar asks); else 0.  Which rounding
 * the runs took is for a fit to say (run/init).
 */
int sf_scaffold_whole_steps(const sf_table *t, const sf_scaffold *g);

/*
 * Guess the columns of t.  Returns SF_OK; SF_ETYPE when a column whose
 * name says the measured time or a worker count is text because of a
 * cell that is not a number (err at that cell, quoting its line); SF_ENAME
 * when no numeric column looks like the measured time or like a worker
 * count (the message lists the names it looks for and the table's
 * columns), or when a column chosen has a name that is not UTF-8 (a model
 * file cannot name it: YAML would read another name back).
 */
int sf_scaffold_guess(const sf_table *t, sf_scaffold *g, sf_error *err);

/*
 * The name init gives the model of the data file at data_path: the
 * file's name without directory and extension, "model" when that leaves
 * nothing (standard input, "-", included), into buf of size bytes
 * (truncated), with each control character and each byte that is not
 * UTF-8 as _ (a model's name may not hold the one, YAML would read the
 * other back as another character).  Thread-safe.
 */
void sf_scaffold_name(const char *data_path, char *buf, size_t size);

/*
 * The commented model for t and guess g: name (each control character a
 * model's name may not hold written as _), data.file written as
 * data_file, the inputs, the formula and bounds from the data (see the
 * opening comment), and as comments the text columns a where: could pick
 * from.  Whatever it returns checks against t as `scalefit check` checks
 * it: it is loaded and bound to t before it is returned.  *text is
 * malloc'd.  Returns SF_OK; SF_EVALUE when no row has a finite positive
 * time and positive inputs, when data_file holds a control character a
 * model's data.file may not (a tab aside) or a byte that is not UTF-8, or
 * is white space only, or
 * when a bound would be
 * beyond the largest double (at the row that makes it so: give the times
 * in larger units); SF_EINTERNAL when what it wrote does not check (a
 * bug); SF_ENOMEM.
 */
int sf_scaffold_write(const sf_table *t, const sf_scaffold *g, const char *name,
                      const char *data_file, char **text, sf_error *err);

#endif /* SF_SCAFFOLD_H */
