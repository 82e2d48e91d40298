#!/bin/sh
# expressions.sh - every formula of the library in expressions/ must check and
# fit its bundled dataset as well as it did when it was written.
#
# For each expressions/*.yaml (each model of a models: file, written
# FILE:MODEL below): `scalefit check` exits 0; `scalefit fit
# --threads 1 --seed 1 --json -q` exits 0 and reports the expected number of
# rows, a MAPE no larger and an R^2 no smaller than the limits below.  The
# limits are the measured values with a modest margin, so a changed formula,
# a broken dataset or a fitter that stops finding the optimum fails here.  A
# formula file without a line in the table fails too: add its limits.
#
# Run by `make check`, which sets SCALEFIT and srcdir.  Prints one line per
# check and a closing "N passed, N failed" line; exits non-zero on failure.
# About 4 s on one thread (pollux.yaml, 1,512 rows, takes 3 of them).

SCALEFIT=${SCALEFIT:-./src/scalefit}
srcdir=${srcdir:-.}
work=$(mktemp -d "${TMPDIR:-/tmp}/scalefit-expr.XXXXXX") || exit 99
trap 'rm -rf "$work"' EXIT
passed=0
failed=0

# file, rows, largest MAPE (%), smallest R^2.  Measured (seed 1, one thread;
# the same for seeds 2-4): amdahl 3.996 / 0.99725, ddp-generic 2.743 / 0.99492,
# ernest 1.335 / 0.99066, extrap-pmnf 7.482 / 0.99385, gianniti 1.719 /
# 0.99807, gustafson 4.248 / 0.97668, lattuada 7.371 / 0.98576, pollux
# 6.804 / 0.98654; ddp-candidates generic 2.743 / 0.99492, io-parallel
# 3.320 / 0.99248, amdahl 26.26 / 0.42569, steps-linear 5.858 / 0.96347;
# ddp-pipeline 7.603 / 0.96385; gpu-upgrade ring-kepler 4.805 / 0.99665,
# replicate-kepler 4.760 / 0.99659, ring 8.972 / 0.98968, replicate 8.967 /
# 0.98954; resnet-depth sum 4.218 / 0.98376, pipeline 4.857 / 0.97441.
# Margins: MAPE +10%, R^2 down by about half of 1 - R^2.
limits='
amdahl.yaml        7    4.4  0.996
ddp-candidates.yaml:generic       224  3.0  0.9925
ddp-candidates.yaml:io-parallel   224  3.7  0.988
ddp-candidates.yaml:amdahl        224  28.9 0.13
ddp-candidates.yaml:steps-linear  224  6.5  0.945
ddp-generic.yaml   224  3.0  0.9925
ddp-pipeline.yaml  80   8.4  0.945
ernest.yaml        7    1.5  0.986
extrap-pmnf.yaml   21   8.2  0.991
gianniti.yaml      64   1.9  0.997
gpu-upgrade.yaml:ring-kepler       557  5.3  0.9950
gpu-upgrade.yaml:replicate-kepler  557  5.3  0.9949
gpu-upgrade.yaml:ring              557  9.9  0.9845
gpu-upgrade.yaml:replicate         557  9.9  0.9843
gustafson.yaml     10   4.7  0.965
lattuada.yaml      410  8.1  0.979
pollux.yaml        1512 7.5  0.980
resnet-depth.yaml:sum             532  4.7  0.9756
resnet-depth.yaml:pipeline        532  5.4  0.9616
'

. "$srcdir/tests/verdict.sh"

# field OBJECT KEY FILE: the value of KEY in the top-level JSON object OBJECT
# of FILE, as scalefit prints it (one key per line); empty if absent.
field() {
	awk -v obj="\"$1\":" -v key="\"$2\":" '
		$1 == obj && $2 == "{" { inside = 1; next }
		inside && /^[ \t]*}/ { exit }
		inside && $1 == key { v = $2; sub(/,$/, "", v); print v; exit }
	' "$3"
}

# is_number TEXT: TEXT is a decimal number (not null, not empty).
is_number() {
	echo "$1" | grep -Eq '^-?[0-9]+(\.[0-9]*)?([eE][-+]?[0-9]+)?$'
}

# Every formula file needs limits, and every limit a formula file.
for path in "$srcdir"/expressions/*.yaml; do
	name=$(basename "$path")
	if echo "$limits" | awk -v n="$name" '$1 == n || index($1, n ":") == 1 { found = 1 } END { exit !found }'; then
		pass "$name has limits"
	else
		fail "$name has no line in the limits table of tests/expressions.sh"
	fi
done

echo "$limits" | while read -r name rows mape_max r2_min; do
	[ -n "$name" ] || continue
	echo "$name $rows $mape_max $r2_min"
done >"$work/limits"

while read -r name rows mape_max r2_min; do
	model="$srcdir/expressions/${name%%:*}"
	set -- # the --model option of one model of a models: file
	case $name in *:*) set -- --model "${name#*:}" ;; esac
	if [ ! -f "$model" ]; then
		fail "$name: listed in the limits but missing"
		continue
	fi
	if "$SCALEFIT" check "$model" >"$work/out" 2>"$work/err"; then
		pass "check $name"
	else
		fail "check $name exits $?"
		sed 's/^/  | /' "$work/err"
		continue
	fi
	start=$(date +%s)
	if "$SCALEFIT" fit "$model" "$@" --threads 1 --seed 1 --json -q \
		>"$work/fit.json" 2>"$work/err"; then
		:
	else
		fail "fit $name exits $?"
		sed 's/^/  | /' "$work/err"
		continue
	fi
	seconds=$(($(date +%s) - start))
	got_rows=$(field data rows "$work/fit.json")
	mape=$(field metrics mape "$work/fit.json")
	r2=$(field metrics r2 "$work/fit.json")
	what="fit $name: $got_rows rows"
	if ! is_number "$mape" || ! is_number "$r2"; then
		fail "$what: metrics missing from the report (mape '$mape', r2 '$r2')"
		continue
	fi
	what=$(awk -v w="$what" -v m="$mape" -v r="$r2" -v s="$seconds" \
		'BEGIN { printf "%s, MAPE %.3f%%, R^2 %.5f, %d s", w, m, r, s }')
	if [ "$got_rows" != "$rows" ]; then
		fail "$what: expected $rows rows"
	elif ! awk -v v="$mape" -v max="$mape_max" 'BEGIN { exit !(v <= max) }'; then
		fail "$what: MAPE above $mape_max%"
	elif ! awk -v v="$r2" -v min="$r2_min" 'BEGIN { exit !(v >= min) }'; then
		fail "$what: R^2 below $r2_min"
	else
		pass "$what"
	fi
done <"$work/limits"

echo "expressions: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
