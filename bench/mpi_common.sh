# mpi_common.sh - what the MPI benchmarks share (sourced, not run): the
# mpirun command, a work folder removed on exit, the required MPI build,
# a clock and a median.
#   SCALEFIT_MPI  a build configured --with-mpi (required)
#   MPIRUN        default "mpirun --oversubscribe --mca pml ob1 --mca btl self,vader"

# One machine: the shared-memory transports only (Open MPI's probe of the
# network ones costs 0.2 s of start-up here; scalefit(1), Running under MPI).
MPIRUN=${MPIRUN:-mpirun --oversubscribe --mca pml ob1 --mca btl self,vader}
[ -n "$SCALEFIT_MPI" ] || {
	echo "set SCALEFIT_MPI to a scalefit built with ./configure --with-mpi" >&2
	exit 2
}
work=$(mktemp -d "${TMPDIR:-/tmp}/scalefit-bench.XXXXXX") || exit 1
trap 'rm -rf "$work"' EXIT
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1

now() { date +%s.%N; }

# fail MESSAGE: a run this benchmark rests on failed (the reference or its
# own): say so and exit 1, since ratios against it mean nothing.
fail() {
	echo "$(basename "$0"): $*" >&2
	exit 1
}

# median of the numbers on stdin
median() {
	sort -g | awk '{ v[NR] = $1 } END {
		if (NR % 2) print v[(NR + 1) / 2];
		else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}
