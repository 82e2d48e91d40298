#!/bin/sh
# cli.sh - drive the scalefit command line end to end: exit statuses,
# messages on the right stream, and that nothing is half-written.
#
# Run by `make check`, which sets SCALEFIT and srcdir.  Prints one line per
# check and a closing "N passed, N failed" line; exits non-zero on failure.

SCALEFIT=${SCALEFIT:-./src/scalefit}
srcdir=${srcdir:-.}
work=$(mktemp -d "${TMPDIR:-/tmp}/scalefit-cli.XXXXXX") || exit 99
trap 'rm -rf "$work"' EXIT
passed=0
failed=0

# expect STATUS PATTERN DESCRIPTION -- ARGS...: run scalefit with ARGS and
# check its exit status and that stdout+stderr match the grep PATTERN.
expect() {
	want=$1 pattern=$2 what=$3
	shift 4
	"$SCALEFIT" "$@" >"$work/out" 2>"$work/err"
	got=$?
	if [ "$got" -ne "$want" ]; then
		echo "FAIL: $what: exit $got, expected $want"
		sed 's/^/  | /' "$work/out" "$work/err"
		failed=$((failed + 1))
	elif ! cat "$work/out" "$work/err" | grep -q -e "$pattern"; then
		echo "FAIL: $what: output lacks '$pattern'"
		sed 's/^/  | /' "$work/out" "$work/err"
		failed=$((failed + 1))
	else
		echo "ok: $what"
		passed=$((passed + 1))
	fi
}

# stderr_only DESCRIPTION: the last run printed nothing on stdout.
stdout_empty() {
	if [ -s "$work/out" ]; then
		echo "FAIL: $1: stdout not empty"
		failed=$((failed + 1))
	else
		echo "ok: $1"
		passed=$((passed + 1))
	fi
}

expect 0 '^scalefit [0-9]' "--version" -- --version
expect 0 '^Usage: scalefit COMMAND' "--help" -- --help
expect 0 'Commands:' "help" -- help
expect 0 '^Usage: scalefit help' "help help" -- help help
expect 2 "unknown command 'hlep'; did you mean 'help'" "misspelt command" -- hlep
stdout_empty "misspelt command writes only stderr"
expect 2 "unknown command 'frobnicate'" "unknown command" -- frobnicate
expect 2 "unknown option '--frob'" "unknown global option" -- --frob
expect 2 "Usage: scalefit COMMAND" "no command" --
expect 2 "unknown command 'nope'" "help for an unknown command" -- help nope
expect 2 "too many arguments" "help with two commands" -- help help help

# A full stdout must not look like success.
if [ -w /dev/full ]; then
	if "$SCALEFIT" --help >/dev/full 2>"$work/err"; then
		echo "FAIL: writing to /dev/full succeeded"
		failed=$((failed + 1))
	else
		echo "ok: write error on stdout is an error"
		passed=$((passed + 1))
	fi
fi

echo "cli: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
