#!/bin/sh
# mpi_bootstrap.sh - 2 MPI ranks x 1 thread against 1 process x 1 thread on
# `fit --bootstrap 2000` (expressions/ddp-generic.yaml, 224 rows): the
# replicates are the units of work spread over the ranks (target: 1.7x).
#
# Usage: bench/mpi_bootstrap.sh [RUNS [REPLICATES]]
#   SCALEFIT, SCALEFIT_MPI, MPIRUN as bench/mpi_speedup.sh, which runs the
#   pairs and prints the ratios (wall clock and CPU time).

runs=${1:-7}
reps=${2:-2000}
srcdir=${srcdir:-$(dirname "$0")/..}
exec sh "$srcdir/bench/mpi_speedup.sh" "$runs" fit \
	"$srcdir/expressions/ddp-generic.yaml" --bootstrap "$reps"
