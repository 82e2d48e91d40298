#!/bin/sh
# hostile.sh - the large inputs of the hostile-input campaign (issue 13,
# finding 5) at the campaign's sizes: wall time and peak memory of each,
# for this build and, when given, another scalefit binary (the reference,
# measured in the same run), with the ratio reference / this one.
#
#   bench/hostile.sh [REFERENCE-SCALEFIT [RUNS]]
#
# Run from the top of the source tree after `make`.  Needs python3 and GNU
# time (/usr/bin/time -v; Debian package time).  The inputs are written by
# tests/hostile/generate.py into a temporary directory; RUNS (default 3)
# runs of each command, the median time and peak RSS printed.  The
# reference gets at most 300 s per run (timeout(1)); a run cut off prints
# ">300".  Timings on a shared machine are noisy: read the ratios.
set -eu
new=$(pwd)/src/scalefit
ref=${1:-}
runs=${2:-3}
dir=$(mktemp -d "${TMPDIR:-/tmp}/scalefit-hostile.XXXXXX")
trap 'rm -rf "$dir"' EXIT
gen() { python3 tests/hostile/generate.py "$1" "$2" "$dir/$1-$2" >/dev/null; }

# median TIME-AND-RSS lines ("seconds kb") of RUNS runs of BIN ARGS in DIR.
# A run that fails (other than by the timeout) stops the benchmark: its
# time would mean nothing.
measure() {
	bin=$1 where=$2
	shift 2
	for i in $(seq "$runs"); do
		status=0
		(cd "$where" && timeout 300 /usr/bin/time -f '%e %M' \
			"$bin" "$@" >/dev/null 2>"$dir/time.err") || status=$?
		if [ "$status" -eq 124 ]; then
			echo ">300 0"
			continue
		elif [ "$status" -ne 0 ]; then
			echo "hostile.sh: $bin $* failed (exit $status):" >&2
			head -n 5 "$dir/time.err" >&2
			echo FAILED
			continue
		fi
		tail -n 1 "$dir/time.err"
	done >"$dir/times"
	if grep -q FAILED "$dir/times"; then
		exit 1
	fi
	sort -n "$dir/times" | sed -n "$(((runs + 1) / 2))p"
}

# row NAME DIR ARGS...: one line, NAME's median time and peak RSS with
# this build and, when given, the reference, and their ratios.
row() {
	name=$1 where=$2
	shift 2
	after=$(measure "$new" "$where" "$@") || exit 1
	if [ -z "$ref" ]; then
		printf '%-32s %s\n' "$name" "$(echo "$after" |
			awk '{ printf "%8s s %7.0f MB", $1, $2 / 1024 }')"
		return
	fi
	before=$(measure "$ref" "$where" "$@") || exit 1
	printf '%-32s %s\n' "$name" "$(echo "$before $after" | awk '{
		t = ($1 ~ />/) ? "-" : sprintf("%.0fx", $1 / ($3 > 0.005 ? $3 : 0.005));
		m = sprintf("%.1fx", $2 / ($4 > 0 ? $4 : 1));
		printf "before %7s s %6.0f MB  after %6s s %6.0f MB  time %s, memory %s",
			$1, $2 / 1024, $3, $4 / 1024, t, m }')"
}

gen params 20000
gen aliases 1000
gen columns 100000
gen constants 1000
gen rows 1000000
row "check, 20000 parameters" "$dir/params-20000" check model.yaml
row "check, 1000 aliased models" "$dir/aliases-1000" check model.yaml
row "check, 100000 columns" "$dir/columns-100000" check model.yaml
row "fit, 1000 constants, 8 rows" "$dir/constants-1000" fit model.yaml
row "fit -o, 1000000 rows" "$dir/rows-1000000" fit model.yaml -q -o fit.json
# The reference ran last above: fit.json is its report, with every row's
# residuals, which both read here.
row "predict, 1000000-row FIT.json" "$dir/rows-1000000" predict fit.json --at p=3
