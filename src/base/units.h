/*
 * units.h - independent units of work (the groups of a fleet, bootstrap
 * replicates) run over every rank of an MPI job, or in a loop.
 *
 * One API for every caller: "run units 0..n-1 with this function and give
 * me their results in index order".  A unit's result is a byte string the
 * function builds (callers serialise: a group's JSON report, a replicate's
 * constants as doubles), so it can travel between processes; the results
 * are the same bytes whoever computed them, because a unit's work depends
 * only on its index (its seed derives from the run's seed and the index),
 * never on the rank or thread that ran it.
 *
 * The plain build runs the units one after the other in this process
 * (each unit may use OpenMP threads inside).  Built with MPI
 * (`./configure --with-mpi`) and run under `mpirun -np N`, every rank
 * runs the same command on the same inputs (SPMD; rank 0 reads the input
 * files, sf_units_read() gives their bytes to the others); sf_units_run() is
 * then collective: every rank calls it with the same n, the ranks take
 * unit indices from a shared counter held by rank 0 (a dynamic work queue:
 * a rank that finishes early takes the next indices, so units of unequal
 * cost balance; guided chunks, an eighth of what is left per rank, down
 * to one unit at a time at the end), and at the end every rank holds every
 * result in index order (results of any size: more than MPI's 2 GiB travel
 * in pieces), so all ranks go on identically; only rank 0 writes
 * outputs (sf_units_root()).  A unit that fails on any rank fails the call on
 * every rank with that unit's error: no rank is left waiting.  Units
 * nest (a group's fit has bootstrap replicates): a call made inside a
 * unit runs its units in that unit's process, serially; only the
 * outermost call is spread.
 *
 * Ownership: results[i] are malloc'd byte strings the caller frees.
 * Process state: MPI's own (sf_units_init/sf_units_finish); this module
 * keeps only each thread's depth in nested units, so threads may run units
 * at once in the plain build.  Not to be called from inside an OpenMP
 * parallel region.
 */
#ifndef SF_UNITS_H
#define SF_UNITS_H

#include "base/error.h"

#include <stddef.h>
#include <stdint.h>

/*
 * Compute unit index: put its result, a new malloc'd string of *size
 * bytes, in *out.  Returns SF_OK or an error code with err filled (which
 * fails the whole run: a unit that can fail in an expected way, like a
 * group with too few rows, encodes that in its result instead).
 */
typedef int (*sf_unit_fn)(void *ctx, size_t index, char **out, size_t *size,
                          sf_error *err);

/*
 * Run units 0..n-1 of fn (ctx passed through) and store unit i's result in
 * results[i] and its length in sizes[i] (arrays of n the caller provides).
 * Returns SF_OK, or the first failing unit's code with its error in err
 * (then no result is left allocated).  Under MPI: collective (see above).
 */
int sf_units_run(size_t n, sf_unit_fn fn, void *ctx, char **results,
                 size_t *sizes, sf_error *err);

/*
 * The same, but only rank 0 receives the results: on the other ranks of
 * an MPI job every results[i] is NULL after SF_OK.  For work whose
 * results only rank 0 uses (a fleet's reports, which rank 0 alone prints
 * and writes): the others neither receive nor hold them.  A failed unit
 * still fails the call on every rank.
 */
int sf_units_run_to_root(size_t n, sf_unit_fn fn, void *ctx, char **results,
                         size_t *sizes, sf_error *err);

/*
 * Read an input (a file, standard input) into a new malloc'd string of
 * *size bytes in *out.  Returns SF_OK or an
 * error code with err filled (the reader's own message: FILE, what went
 * wrong).
 */
typedef int (*sf_read_fn)(void *ctx, char **out, size_t *size, sf_error *err);

/*
 * Read an input once for the whole job: rank 0 calls read (ctx passed
 * through) and every rank receives its outcome, the same code, error and
 * bytes, so the other ranks need neither the file nor standard input and
 * parse what rank 0 read.  When sf_units_sharing() is 0 (the plain build,
 * one rank, or inside a unit of work) it is read(ctx, out, size, err).
 * Under MPI it is collective: every rank calls it at the same point of
 * the command (the readers of model files, CSV files, fit files and
 * standard input do, since every rank runs the same command); a rank that
 * stopped earlier ends the call on the others with an error, as in
 * sf_units_run.  Inputs larger than 2 GiB travel in pieces.  Returns
 * read's code, with *out NULL unless SF_OK.
 */
int sf_units_read(sf_read_fn read, void *ctx, char **out, size_t *size,
                  sf_error *err);

/*
 * 1 when sf_units_read gives rank 0's read to every rank: built with MPI,
 * run on several ranks, outside any unit of work and any reader (a read
 * inside a reader is rank 0's own).  A reader that streams
 * a file in the plain build reads it whole when this is 1.
 */
int sf_units_sharing(void);

/*
 * Start the process's part in a job: MPI_Init in the MPI build.  The plain
 * build refuses to run as one of several copies under mpirun (it would
 * repeat the whole work N times and race on the outputs): SF_EUSAGE with
 * the message.  Returns SF_OK or an error.
 */
int sf_units_init(int *argc, char ***argv, sf_error *err);

/*
 * End it with exit status status: under MPI the ranks meet (unless they
 * already learnt inside sf_units_run that one stopped early), the worst
 * status of any rank becomes every rank's, and MPI_Finalize.  Returns the
 * status to exit with.
 */
int sf_units_finish(int status);

/* Stop every rank of the job with exit status status (MPI_Abort), or
 * return when there is only this process. */
void sf_units_abort(int status);

/* This process's rank (0 in the plain build) and the number of ranks. */
int sf_units_rank(void);
int sf_units_ranks(void);

/* 1 when a call of sf_units_run() made here would spread its units over
 * the ranks of an MPI job: more than one rank, and not inside a unit.
 * For work that can be cut into as many units as suits (discover's
 * formulas): cut finely then, and not at all otherwise. */
int sf_units_spread(void);

/* Set TCP_NODELAY on this process's TCP connections to the loopback
 * address: sf_units_init does, once MPI has started (Open MPI's link to
 * its daemon; units.c says why).  Other descriptors are left alone. */
void sf_units_loopback_nodelay(void);

/* 1 when this process writes outputs: rank 0. */
int sf_units_root(void);

/* 1 when built with MPI. */
int sf_units_mpi(void);

/* The seed of unit index of a run whose seed is seed, under stream (one
 * constant per kind of unit): independent of ranks and threads. */
uint64_t sf_units_seed(uint64_t seed, uint64_t stream, size_t index);

#endif /* SF_UNITS_H */
