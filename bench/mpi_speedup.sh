#!/bin/sh
# mpi_speedup.sh - 2 MPI ranks x 1 thread against 1 process x 1 thread on
# one scalefit command whose units of work the ranks share (bootstrap
# replicates, restarts, folds, compare's candidates, discover's formulas,
# --by groups).
#
# Usage: bench/mpi_speedup.sh RUNS COMMAND [ARG...]
#   e.g. bench/mpi_speedup.sh 9 discover expressions/ddp-generic.yaml --beam 16
#   (bench/mpi_bootstrap.sh runs it on fit --bootstrap 2000)
#   SCALEFIT      the plain build (default ./src/scalefit): the reference
#   SCALEFIT_MPI  a build configured --with-mpi (required)
#   MPIRUN        default "mpirun --oversubscribe --mca pml ob1 --mca btl self,vader"
# Every run adds --threads 1 -q --json.  Runs alternate (plain, 2 ranks,
# plain, ...) so that load from other work on the machine hits both alike.
# Two ratios per pair:
#   wall  the plain run's wall-clock time over the 2-rank run's (MPI start-up
#         included): the speed-up a user sees, but on a machine whose cores
#         other work also uses, both ranks rarely get a core each;
#   cpu   the plain run's CPU time (user + system) over the busier rank's:
#         the speed-up on two free cores (a rank waiting inside an MPI call
#         may spin, so that wait counts too).
# Prints each pair, the medians, and whether both printed the same JSON once
# the seconds keys (a number, or discover's object of the clock's fields) and
# ranks are dropped.  Exits 1 with a message when a run fails or the JSON
# differs.

[ $# -ge 2 ] || {
	echo "usage: $0 RUNS COMMAND [ARG...]" >&2
	exit 2
}
runs=$1
shift
SCALEFIT=${SCALEFIT:-./src/scalefit}
. "$(dirname "$0")/mpi_common.sh"

for f in wall cpu pwall mwall; do : >"$work/$f"; done
i=0
while [ "$i" -lt "$runs" ]; do
	t0=$(now)
	/usr/bin/time -f '%U %S' -o "$work/pcpu" "$SCALEFIT" "$@" \
		--threads 1 -q --json >"$work/plain.json" ||
		fail "the reference run ($SCALEFIT $*) failed (exit $?)"
	t1=$(now)
	# shellcheck disable=SC2086,SC2016
	$MPIRUN -np 2 sh -c 'exec /usr/bin/time -f "%U %S" \
		-o "$0.$OMPI_COMM_WORLD_RANK" "$@" --threads 1 -q --json' \
		"$work/mcpu" "$SCALEFIT_MPI" "$@" >"$work/mpi.json" ||
		fail "mpirun -np 2 $SCALEFIT_MPI $* failed (exit $?)"
	t2=$(now)
	p=$(echo "$t1 - $t0" | bc -l)
	m=$(echo "$t2 - $t1" | bc -l)
	pc=$(awk '{ print $1 + $2 }' "$work/pcpu")
	mc=$(cat "$work/mcpu.0" "$work/mcpu.1" |
		awk '{ c = $1 + $2; if (c > m) m = c } END { print m }')
	echo "$p" >>"$work/pwall"
	echo "$m" >>"$work/mwall"
	echo "$p / $m" | bc -l >>"$work/wall"
	echo "$pc / $mc" | bc -l >>"$work/cpu"
	printf 'run %d: 1 rank %.2f s (cpu %.2f s), 2 ranks %.2f s (busier rank cpu %.2f s): wall %.2fx, cpu %.2fx\n' \
		$((i + 1)) "$p" "$pc" "$m" "$mc" "$(echo "$p / $m" | bc -l)" \
		"$(echo "$pc / $mc" | bc -l)"
	i=$((i + 1))
done
strip() {
	# shellcheck disable=SC2016
	awk 'skip { if ($0 ~ "^" pad "}") skip = 0; next }
		/"seconds": \{$/ { match($0, /^ */); pad = substr($0, 1, RLENGTH); skip = 1; next }
		/"seconds":|"ranks":/ { next }
		{ print }' "$1"
}
strip "$work/plain.json" >"$work/p1"
strip "$work/mpi.json" >"$work/m1"
cmp -s "$work/p1" "$work/m1" && same=identical || same=DIFFERENT
printf 'medians of %d runs: wall 1 rank %.2f s, 2 ranks %.2f s; ratios: wall %.2fx, cpu %.2fx; JSON %s\n' \
	"$runs" "$(median <"$work/pwall")" "$(median <"$work/mwall")" \
	"$(median <"$work/wall")" "$(median <"$work/cpu")" "$same"
[ "$same" = identical ] || fail "the 2-rank run printed another JSON"
