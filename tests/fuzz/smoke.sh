#!/bin/sh
# smoke.sh - the fuzz targets' CI smoke run: each standalone driver
# (tests/fuzz/fuzz_*.c built without libFuzzer) runs its target once on
# every input of its seed corpus, and the model target also on every model
# file the project ships, so any crash, broken invariant, or (in a
# sanitizer build) memory error or leak on a known input fails make check.
# Real fuzzing is tests/fuzz/libfuzzer.sh; see tests/fuzz/README.md.
#
# Run by `make check`, which sets srcdir and top_builddir.  Prints one line
# per target and a closing "N passed, N failed" line; exits non-zero on
# failure.

srcdir=${srcdir:-.}
top_builddir=${top_builddir:-.}
fuzz="$srcdir/tests/fuzz"
passed=0
failed=0

# run NAME MIN-INPUTS DIR...: the driver over DIRs must exit 0 after
# running at least MIN-INPUTS inputs (an empty or missing corpus fails).
run() {
	name=$1 min=$2
	shift 2
	out=$("$top_builddir/tests/fuzz/fuzz_$name" "$@" 2>&1)
	status=$?
	runs=$(printf '%s\n' "$out" | sed -n "s/^fuzz_$name: \([0-9]*\) inputs run$/\1/p")
	if [ "$status" -eq 0 ] && [ "${runs:-0}" -ge "$min" ]; then
		echo "ok: fuzz_$name: $runs inputs"
		passed=$((passed + 1))
	else
		echo "FAIL: fuzz_$name: exit $status, ${runs:-0} inputs (at least $min expected)"
		printf '%s\n' "$out" | tail -n 20 | sed 's/^/  | /'
		failed=$((failed + 1))
	fi
}

run expr 30 "$fuzz/corpus_expr"
run csv 40 "$fuzz/corpus_csv"
run model 80 "$fuzz/corpus_model" "$srcdir/expressions" \
	"$srcdir/tests/data/model/good" "$srcdir/tests/data/model/bad"
run fitfile 10 "$fuzz/corpus_fitfile" "$srcdir/tests/data/fit"
run init 15 "$fuzz/corpus_init" "$fuzz/corpus_csv"

echo "fuzz smoke: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
