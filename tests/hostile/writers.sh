#!/bin/sh
# writers.sh - the commands that write model files, init and discover -o,
# under hostile input (issue 25, ../shared/hostile3): names, CSV cells,
# file names and headers with YAML syntax, line breaks and escapes; numbers
# at the edges of a double; and discover's own limits.  Whatever init
# accepts and discover writes, `scalefit check` takes, with the same
# names; what they cannot write they refuse with exit 2 and a message
# that names what to change.
#
# Run by `make check`, which sets SCALEFIT and srcdir.  Prints one line per
# check and a closing "N passed, N failed" line; exits non-zero on failure.
SCALEFIT=${SCALEFIT:-./src/scalefit}
case $SCALEFIT in /*) ;; *) SCALEFIT=$(pwd)/$SCALEFIT ;; esac
srcdir=${srcdir:-.}
work=$(mktemp -d "${TMPDIR:-/tmp}/scalefit-writers.XXXXXX") || exit 99
trap 'rm -rf "$work"' EXIT
cd "$work" || exit 99
esc=$(printf '\033')
passed=0
failed=0

pass() {
	echo "ok: $1"
	passed=$((passed + 1))
}
fail() {
	echo "FAIL: $1"
	[ -f out ] && sed 's/^/  | /' out
	failed=$((failed + 1))
}

# expect STATUS PATTERN DESCRIPTION -- ARGS...: run scalefit with ARGS;
# its exit status and stdout+stderr (into out) must match.
expect() {
	want=$1 pattern=$2 what=$3
	shift 4
	"$SCALEFIT" "$@" >out 2>&1
	got=$?
	if [ "$got" -ne "$want" ]; then
		fail "$what: exit $got, expected $want"
	elif [ -n "$pattern" ] && ! grep -q -e "$pattern" out; then
		fail "$what: output lacks '$pattern'"
	else
		pass "$what"
	fi
}

# checks MODEL DESCRIPTION [NAME]: `scalefit check MODEL` exits 0, and
# (with NAME) reads the model's name back as NAME ("model: NAME (MODEL)").
checks() {
	"$SCALEFIT" check "$1" >out 2>&1
	got=$?
	if [ "$got" -ne 0 ]; then
		fail "$2: check exit $got"
	elif [ $# -ge 3 ] && [ "$(head -n 1 out)" != "model: $3 ($1)" ]; then
		fail "$2: the name did not read back as '$3'"
	else
		pass "$2"
	fi
}

printf 'p,t\n1,10\n2,5.2\n4,2.9\n8,2.1\n16,1.9\n' >d.csv

# --- 01: a CSV cell or file name with a line break stays text ----------------
printf 'gpus,time_s,net\n1,10,a\n2,6,a\n4,4,b\n8,3,"zz\n  where: ""gpus >= 4"""\n' >inject.csv
expect 0 "" "01: init of a CSV whose cell holds a line break and a where:" -- init inject.csv -o inject.yaml
expect 0 "4 rows to fit" "01: its model keeps every row (no live where:)" -- check inject.yaml
if grep -q '^ *where:' inject.yaml; then
	fail "01: the cell became a where: key"
else
	pass "01: the cell stays in a comment"
fi
nl=$(printf 'nl\nfit: x')
printf 'gpus,time_s\n1,10\n2,6\n4,4\n' >"$nl.csv"
expect 2 "data file's path holds the control character .x0A" \
	"01: init refuses a data file whose name holds a line break" -- init "$nl.csv" -o nl.yaml
[ -e nl.yaml ] && fail "01: init wrote nl.yaml" || pass "01: and writes nothing"
tab=$(printf 'a\tb')
printf 'gpus,time_s\n1,10\n2,6\n4,4\n' >"$tab.csv"
expect 0 "" "01: init of a data file whose name holds a tab" -- init "$tab.csv" -o tab.yaml
# check shows a name from a file escaped (base/escape.h): the tab as \x09
check_name='a\x09b'
checks tab.yaml "01: its model checks, named as the file" "$check_name"
esc=$(printf 'e\033]0;x\007')
mkdir e && printf 'gpus,time_s\n1,10\n2,6\n4,4\n' >"e/$esc.csv"
expect 2 "control character .x1B" "01: init refuses a data file whose name holds ESC" -- init "e/$esc.csv"

# --- 08: a model's name with YAML syntax reads back as itself ----------------
for nm in 'a: b' '[x' '*x' '#x' '&x' 'x #y' '{x}' '!x' '- x' '"q"' "'s'" 'yes' 'null' '1e3'; do
	printf 'gpus,time_s\n1,10\n2,5.2\n4,2.9\n8,2.1\n16,1.9\n' >"./$nm.csv"
	rm -f out.yaml
	expect 0 "" "08: init of '$nm.csv'" -- init "./$nm.csv" -o out.yaml
	checks out.yaml "08: init: check reads the name '$nm'" "$nm"
	rm -f "./$nm.csv"
	{
		printf 'name: "'
		printf '%s' "$nm" | sed 's/\\/\\\\/g; s/"/\\"/g'
		printf '"\ndata:\n  file: d.csv\n  output: t\ninputs:\n  p: p\n'
	} >n.yaml
	rm -f f.yaml
	# --members 1: the winner alone, a model named after n.yaml's (an
	# ensemble's formulas are d1, d2, ... under the file's name)
	expect 0 "wrote f.yaml" "08: discover -o of a model named '$nm'" -- discover n.yaml -q --members 1 -o f.yaml
	checks f.yaml "08: discover -o: check reads the name '$nm-discovered'" "$nm-discovered"
done

# --- 10: init never writes a model that check rejects -------------------------
printf 'gpus,time_s\n1,1e308\n2,1.7e308\n4,1e308\n' >hugetime.csv
expect 2 "hugetime.csv:3: the time 1.7e+308 of column 'time_s' is too large" \
	"10: times near the largest double: refused, naming the row" -- init hugetime.csv -o hugetime.yaml
[ -e hugetime.yaml ] && fail "10: init wrote hugetime.yaml" || pass "10: and writes nothing"
printf 'gpus,time_s\n1,1e308\n2,1e307\n4,1e306\n' >bigtime.csv
expect 0 "" "10: times up to 1e308 that the bounds can hold" -- init bigtime.csv -o bigtime.yaml
checks bigtime.yaml "10: their model checks"
grep -q 't0: {min: 0, max: 1.0e+308}' bigtime.yaml &&
	pass "10: the largest bound is a finite number" || fail "10: the largest bound is a finite number"
printf 'gpus,time_s\n1,1e-300\n2,6e-301\n4,4e-301\n' >tinytime.csv
expect 0 "" "10: times near the smallest double" -- init tinytime.csv -o tinytime.yaml
checks tinytime.yaml "10: their model checks"
printf '"gpus\nfit: {loss: sse}",time_s\n1,10\n2,6\n4,4\n' >nlheader.csv
expect 0 "" "10: a header with a quoted line break" -- init nlheader.csv -o nlheader.yaml
checks nlheader.yaml "10: its model checks (the column's name quoted as p's expression)"
printf 'gpus\033]0;x\007,time_s\n1,10\n2,6\n4,4\n' >escheader.csv
expect 0 "" "10: a header with ESC" -- init escheader.csv -o escheader.yaml
checks escheader.yaml "10: its model checks"
grep -q '^  p: "gpus\\x1B\]0;x\\x07"' escheader.yaml &&
	pass "10: the header is p's column, escaped" || fail "10: the header is p's column, escaped"

# --- 15: init names the cell that made the time column text -------------------
printf 'gpus,time_s\n1,10\n2,0x10\n4,4\n' >hexcell.csv
expect 2 "hexcell.csv:3:3: column 'time_s' looks like the measured time, but it is not numeric: '0x10' is not a number" \
	"15: init: one bad cell in the time column is named" -- init hexcell.csv
printf 'gpus,time_s\n1,10\nfour,6\n4,4\n' >workers.csv
expect 2 "workers.csv:3:1: column 'gpus' looks like the number of workers" \
	"15: init: and one in the workers column" -- init workers.csv

# --- 05 and 15: discover's budget has a most, which its message gives ---------
printf 'name: dct\ndata:\n  file: d.csv\n  output: t\ninputs:\n  p: p\n' >const.yaml
expect 2 "budget needs a whole number from 1 to 1000000 (a search keeps every formula it scores" \
	"05, 15: --budget above its most (2^53 + 1), the most in the message" -- \
	discover const.yaml --budget 9007199254740993
expect 2 "budget needs a whole number from 1 to 1000000" "05: --budget 1000001" -- \
	discover const.yaml --budget 1000001
expect 0 "searched" "05: --budget 1000000" -- discover const.yaml --budget 1000000 -q
printf 'discover:\n  budget: 2000000\n' >>const.yaml
expect 2 "const.yaml:8:3: discover.budget must be at most 1000000" \
	"05: discover.budget above the most, at its place" -- discover const.yaml -q

# --- 09: discover without -o names no file after the model's name ------------
printf 'name: "sub/dir"\ndata:\n  file: d.csv\n  output: t\ninputs:\n  p: p\n' >slash.yaml
expect 0 "best found" "09: discover of a model named sub/dir, without -o" -- discover slash.yaml -q
expect 2 "no directory to write it in" "09: discover -o into a directory that does not exist" -- \
	discover slash.yaml -q -o nodir/out.yaml

# --- discover --by -o DIR: hostile group keys (issue 29) ----------------------
# Each key's rows follow p = 1..16; the keys hold a quote, a slash, a tab, a
# line break, ESC, '..', nothing; two differ only by case and one's safe
# name is another's.  (A key that is not UTF-8 fails --by itself before
# any file: the groups' JSON cannot hold it.)
{
	printf 'key,p,t\n'
	for k in "it's" "a/b" "$(printf 't\tab')" '"n
l"' "$(printf 'e\033[1m')" '..' '' 'Ab' 'ab' 'a_b'; do
		for p in 1 2 4 8 16; do
			printf '%s,%s,%s\n' "$k" "$p" "$(awk "BEGIN { print 10 / $p + 0.1 * $p }")"
		done
	done
} >keys.csv
printf 'name: keys\ndata:\n  file: keys.csv\n  output: t\ninputs:\n  p: p\n' >keys.yaml
expect 0 "10 groups, 0 failed" "29: discover --by key -o DIR: a file for every hostile key" -- \
	discover keys.yaml -q --members 1 --by key -o models
n=$(ls models | wc -l)
[ "$n" -eq 10 ] && pass "29: ten files, none overwritten by another" ||
	fail "29: $n files for ten groups"
bad=0
for f in models/*; do
	case $(basename "$f") in
	*[!A-Za-z0-9_.-]* | .*) bad=1 ;;
	esac
	"$SCALEFIT" check "$f" >out 2>&1 && grep -q " 5 rows to fit" out || bad=1
done
[ "$bad" -eq 0 ] && pass "29: each file's name is safe, and it checks with its group's 5 rows" ||
	fail "29: a file's name is unsafe, or it does not check with 5 rows"
expect 2 "would overwrite an input" "29: a group's file that would be the model file: refused" -- \
	discover models/key_Ab.yaml -q --members 1 --by key -o models
printf 'name: sp\ndata:\n  file: sp.csv\n  output: t\ninputs:\n  p: p\n' >sp.yaml
sed '1s/key/my key/' keys.csv >sp.csv
expect 2 "column 'my key' of --by is not a name" "29: a by column a where: cannot name: refused" -- \
	discover sp.yaml -q --by 'my key' -o spdir

echo "writers: $passed passed, $failed failed"
[ "$failed" -eq 0 ] && [ "$passed" -gt 0 ]
