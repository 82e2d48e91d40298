#!/bin/sh
# walkthrough.sh - run README's jobs from "Start from your own CSV" on
# (5, 6 and 7) as printed: every "$ " line of their code blocks, in order,
# from a directory that looks like the top of the repository, with
# `scalefit` on the PATH and the formula library in the source tree; each
# must exit 0, and each line printed under a command (other than "...")
# must be in its output.  A ```python block is written to the file its
# first line names ("# scaling.py: ..."), which a later "$ python3" line
# runs with the Python module of this tree and the Python configure chose
# ($PYTHON); without one that imports pandas, or in a build with
# sanitizers (a Python process cannot load the library), those lines are
# skipped with a message.  ```c blocks are excerpts, not run.
#
# Run by `make check`, which sets SCALEFIT, PYTHON and srcdir.

SCALEFIT=${SCALEFIT:-./src/scalefit}
srcdir=${srcdir:-.}
top=$(cd "$srcdir" && pwd) || exit 99
work=$(mktemp -d "${TMPDIR:-/tmp}/scalefit-walk.XXXXXX") || exit 99
trap 'rm -rf "$work"' EXIT
mkdir "$work/bin" "$work/top" || exit 99
case $SCALEFIT in
/*) ln -s "$SCALEFIT" "$work/bin/scalefit" ;;
*) ln -s "$(pwd)/$SCALEFIT" "$work/bin/scalefit" ;;
esac
ln -s "$top/datasets" "$work/top/datasets"
PATH="$work/bin:$PATH"
SCALEFIT_LIBRARY=$top
export PATH SCALEFIT_LIBRARY
# Python: the module of this tree over the library of this build.
python=no
if [ -n "${PYTHON:-}" ] && [ "$PYTHON" != : ] && [ -z "${SANITIZER_FLAGS:-}" ] &&
	"$PYTHON" -c 'import pandas' >/dev/null 2>&1 &&
	[ -f src/.libs/libscalefit.so ]; then
	ln -s "$(command -v "$PYTHON")" "$work/bin/python3"
	SCALEFIT_LIBRARY_PATH=$(pwd)/src/.libs/libscalefit.so
	PYTHONPATH=$top/python
	PYTHONDONTWRITEBYTECODE=1
	export SCALEFIT_LIBRARY_PATH PYTHONPATH PYTHONDONTWRITEBYTECODE
	python=yes
fi

# The sections' code blocks: "$ command" lines and what they print; each
# ```python block into the file its first line names.
awk -v dir="$work/top" '
     /^### 5\. Start from your own CSV/ { on = 1; next }
     on && /^## / { exit }
     on && /^```python/ { py = 1; file = ""; next }
     on && /^```c$/ { excerpt = 1; next }
     on && /^```/ {
	if (py) { py = 0; close(file) }
	else if (excerpt) excerpt = 0
	else block = !block
	next
     }
     on && py {
	if (file == "") { file = $2; sub(/:$/, "", file); file = dir "/" file }
	print > file
	next
     }
     on && block { print }' "$top/README.md" >"$work/section"
if ! grep -q '^\$ scalefit init' "$work/section"; then
	echo "FAIL: README has no walkthrough with scalefit init"
	exit 1
fi

passed=0
failed=0
n=0
cd "$work/top" || exit 99
# Split into one command file and one expected-output file per command.
while IFS= read -r line; do
	case $line in
	'$ '*)
		n=$((n + 1))
		printf '%s\n' "${line#\$ }" >"$work/cmd.$n"
		: >"$work/want.$n"
		;;
	*)
		[ "$n" -gt 0 ] && printf '%s\n' "$line" >>"$work/want.$n"
		;;
	esac
done <"$work/section"
i=1
while [ "$i" -le "$n" ]; do
	cmd=$(cat "$work/cmd.$i")
	case $cmd in
	python3\ *)
		if [ "$python" = no ]; then
			echo "skip: $cmd (no Python with pandas, or sanitizers)"
			i=$((i + 1))
			continue
		fi
		;;
	esac
	sh -c "$cmd" >"$work/out" 2>"$work/err"
	got=$?
	missing=
	while IFS= read -r want; do
		case $want in
		'' | *'...') continue ;;
		esac
		grep -qxF -e "$want" "$work/out" || missing=$want
	done <"$work/want.$i"
	if [ "$got" -ne 0 ]; then
		echo "FAIL: $cmd: exit $got"
		sed 's/^/  | /' "$work/err"
		failed=$((failed + 1))
	elif [ -n "$missing" ]; then
		echo "FAIL: $cmd: output lacks '$missing'"
		sed 's/^/  | /' "$work/out"
		failed=$((failed + 1))
	else
		echo "ok: $cmd"
		passed=$((passed + 1))
	fi
	i=$((i + 1))
done
if [ ! -s runs-scaling.svg ]; then
	echo "FAIL: the walkthrough draws no chart"
	failed=$((failed + 1))
fi
if [ "$python" = yes ] && ! grep -q '</svg>' runs-python.svg 2>/dev/null; then
	echo "FAIL: the Python walkthrough draws no chart"
	failed=$((failed + 1))
fi
echo "walkthrough: $passed passed, $failed failed"
[ "$failed" -eq 0 ] && [ "$passed" -gt 0 ]
