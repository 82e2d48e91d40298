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
measure() {
	bin=$1 where=$2
	shift 2
	for i in $(seq "$runs"); do
		(cd "$where" && timeout 300 /usr/bin/time -f '%e %M' \
			"$bin" "$@" >/dev/null 2>"$dir/time.err") ||
			{ [ $? -eq 124 ] && echo ">300 0" && continue; }
		tail -n 1 "$dir/time.err"
	done | sort -n | sed -n "$(((runs + 1) / 2))p"
}

row() { # NAME DIR ARGS...
	name=$1 where=$2
	shift 2
	set -- "$name" "$(measure "$new" "$where" "$@")" "$where" "$@"
	if [ -n "$ref" ]; then
		name=$1 after=$2 where=$3
		shift 3
		before=$(measure "$ref" "$where" "$@")
		echo "$name $before $after" | awk '{ r = ($2 ~ />/) ? "-" : sprintf("%.1f", $2 / ($4 > 0 ? $4 : 0.01));
			printf "%-34s before %7s s %8.0f MB   after %6s s %7.0f MB   ratio %s\n",
			$1, $2, $3 / 1024, $4, $5 / 1024, r }'
	else
		echo "$1 $2" | awk '{ printf "%-34s %6s s %7.0f MB\n", $1, $2, $3 / 1024 }'
	fi
}

gen params 20000
gen aliases 1000
gen columns 100000
gen constants 1000
gen rows 1000000
row "check: 20,000 parameters" "$dir/params-20000" check model.yaml
row "check: 1,000 aliased models" "$dir/aliases-1000" check model.yaml
row "check: 100,000 columns" "$dir/columns-100000" check model.yaml
row "fit: 1,000 constants on 8 rows" "$dir/constants-1000" fit model.yaml
row "fit -o: 1,000,000 rows" "$dir/rows-1000000" fit model.yaml -q -o fit.json
row "predict: fit of 1,000,000 rows" "$dir/rows-1000000" predict fit.json --at p=3
