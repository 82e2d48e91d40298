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
	elif ! grep -q -e "$pattern" out; then
		fail "$what: output lacks '$pattern'"
	else
		pass "$what"
	fi
}

# checks MODEL DESCRIPTION [NAME]: `scalefit check MODEL` exits 0, and
# (with NAME) reads the model's name back as NAME.
checks() {
	"$SCALEFIT" check "$1" >out 2>&1
	got=$?
	if [ "$got" -ne 0 ]; then
		fail "$2: check exit $got"
	elif [ $# -ge 3 ] && ! "$SCALEFIT" check "$1" --json 2>/dev/null |
		python3 -c 'import json, sys
sys.exit(json.load(sys.stdin)["model"]["name"] != sys.argv[1])' "$3"; then
		fail "$2: the name did not read back as '$3'"
	else
		pass "$2"
	fi
}

printf 'p,t\n1,10\n2,5.2\n4,2.9\n8,2.1\n16,1.9\n' >d.csv

# --- 09: discover without -o names no file after the model's name ------------
printf 'name: "sub/dir"\ndata:\n  file: d.csv\n  output: t\ninputs:\n  p: p\n' >slash.yaml
expect 0 "best found" "09: discover of a model named sub/dir, without -o" -- discover slash.yaml -q
expect 2 "no directory to write it in" "09: discover -o into a directory that does not exist" -- \
	discover slash.yaml -q -o nodir/out.yaml

echo "writers: $passed passed, $failed failed"
[ "$failed" -eq 0 ] && [ "$passed" -gt 0 ]
