#!/bin/sh
# run.sh - the hostile-input corpus: every model file here starts with a
# line "# expect STATUS: FRAGMENT"; `scalefit check FILE` must exit with
# STATUS, print FRAGMENT, and send no escape character to the terminal.
#
# Run by `make check`, which sets SCALEFIT and srcdir.
SCALEFIT=${SCALEFIT:-./src/scalefit}
srcdir=${srcdir:-.}
out=$(mktemp "${TMPDIR:-/tmp}/scalefit-hostile.XXXXXX") || exit 99
trap 'rm -f "$out"' EXIT
esc=$(printf '\033')
passed=0
failed=0
for f in "$srcdir"/tests/hostile/*.yaml; do
	line=$(head -n 1 "$f")
	want=${line#\# expect }
	want=${want%%:*}
	fragment=${line#\# expect *: }
	"$SCALEFIT" check "$f" >"$out" 2>&1
	got=$?
	name=$(basename "$f")
	if [ "$got" -ne "$want" ]; then
		echo "FAIL: $name: exit $got, expected $want"
		failed=$((failed + 1))
	elif ! grep -qF -e "$fragment" "$out"; then
		echo "FAIL: $name: output lacks '$fragment'"
		sed 's/^/  | /' "$out"
		failed=$((failed + 1))
	elif grep -q "$esc" "$out"; then
		echo "FAIL: $name: an escape character reached the terminal"
		failed=$((failed + 1))
	else
		echo "ok: $name"
		passed=$((passed + 1))
	fi
done
echo "hostile: $passed passed, $failed failed"
[ "$failed" -eq 0 ] && [ "$passed" -gt 0 ]
