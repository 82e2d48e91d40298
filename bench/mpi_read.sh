#!/bin/sh
# mpi_read.sh - what rank 0's read of the inputs costs under MPI: `check`
# of a model on a large CSV file (ROWS rows, two columns) by 1 process
# (the reference: it streams the file) and by mpirun -np 2 (rank 0 reads
# the file whole and broadcasts its bytes, both ranks parse them).
# `check` spreads no units, so the difference is MPI's start and end and
# the read, broadcast and second parse.
#
# Usage: bench/mpi_read.sh [RUNS [ROWS]]
#   SCALEFIT_MPI  a build configured --with-mpi (required)
#   SCALEFIT_REF  optional: another MPI build (one from before this change,
#                 whose ranks each read the file themselves); its -np 2 run
#                 is timed in every round too, and the ratio printed
#   MPIRUN        default "mpirun --oversubscribe --mca pml ob1 --mca btl self,vader"
# Runs alternate (1 rank, 2 ranks, ...) so that load from other work on
# the machine hits both alike; prints each pair, the medians of the wall
# times and of their ratio, and of the 2-rank run's extra time less the
# extra time of --help: what sharing the read costs.

runs=${1:-7}
rows=${2:-3000000}
. "$(dirname "$0")/mpi_common.sh"

awk -v n="$rows" 'BEGIN { print "p,time"; for (i = 0; i < n; i++) {
	p = 1 + i % 64; printf "%d,%.6g\n", p, 10 + 100 / p + (i % 7) / 10 } }' \
	>"$work/big.csv"
cat >"$work/big.yaml" <<EOF
name: big
data: {file: big.csv, output: time}
inputs: {p: p}
parameters:
  a: {min: 0, max: 1000}
  b: {min: 0, max: 1000}
time: a + b / p
EOF
mb=$(wc -c <"$work/big.csv" | awk '{ printf "%.1f", $1 / 1e6 }')

for f in p m r ep em er x xr; do : >"$work/$f"; done
i=0
while [ "$i" -lt "$runs" ]; do
	t0=$(now)
	$MPIRUN -np 1 "$SCALEFIT_MPI" check "$work/big.yaml" >/dev/null ||
		fail "the reference run (mpirun -np 1 check) failed (exit $?)"
	t1=$(now)
	$MPIRUN -np 2 "$SCALEFIT_MPI" check "$work/big.yaml" >/dev/null ||
		fail "mpirun -np 2 check failed (exit $?)"
	t2=$(now)
	$MPIRUN -np 1 "$SCALEFIT_MPI" --help >/dev/null ||
		fail "mpirun -np 1 --help failed (exit $?)"
	t3=$(now)
	$MPIRUN -np 2 "$SCALEFIT_MPI" --help >/dev/null ||
		fail "mpirun -np 2 --help failed (exit $?)"
	t4=$(now)
	if [ -n "$SCALEFIT_REF" ]; then
		$MPIRUN -np 2 "$SCALEFIT_REF" check "$work/big.yaml" >/dev/null ||
			fail "SCALEFIT_REF's mpirun -np 2 check failed (exit $?)"
		t5=$(now)
		echo "$t5 - $t4" | bc -l >>"$work/x"
		echo "($t2 - $t1) / ($t5 - $t4)" | bc -l >>"$work/xr"
	fi
	echo "$t1 - $t0" | bc -l >>"$work/p"
	echo "$t2 - $t1" | bc -l >>"$work/m"
	echo "($t2 - $t1) / ($t1 - $t0)" | bc -l >>"$work/r"
	echo "$t3 - $t2" | bc -l >>"$work/ep"
	echo "$t4 - $t3" | bc -l >>"$work/em"
	echo "($t2 - $t1) - ($t1 - $t0) - (($t4 - $t3) - ($t3 - $t2))" | bc -l >>"$work/er"
	printf 'run %d: check 1 rank %.2f s, 2 ranks %.2f s (%.2fx); --help 1 rank %.3f s, 2 ranks %.3f s\n' \
		$((i + 1)) "$(echo "$t1 - $t0" | bc -l)" "$(echo "$t2 - $t1" | bc -l)" \
		"$(echo "($t2 - $t1) / ($t1 - $t0)" | bc -l)" \
		"$(echo "$t3 - $t2" | bc -l)" "$(echo "$t4 - $t3" | bc -l)"
	i=$((i + 1))
done
printf 'medians of %d runs, %s MB of CSV (%d rows): check 1 rank %.2f s, 2 ranks %.2f s, ratio %.2fx; the shared read costs %.3f s (2 ranks over 1, less the same on --help)\n' \
	"$runs" "$mb" "$rows" "$(median <"$work/p")" "$(median <"$work/m")" \
	"$(median <"$work/r")" "$(median <"$work/er")"
[ -n "$SCALEFIT_REF" ] &&
	printf 'SCALEFIT_REF, 2 ranks: median %.2f s; this build over it: %.2fx (median of the paired ratios)\n' \
		"$(median <"$work/x")" "$(median <"$work/xr")"
exit 0
