#!/bin/sh
# format.sh - every C file of src/, tests/ and bench/ laid out as
# .clang-format says.  CI runs it (.ci/run installs clang-format); run
# `clang-format -i FILE` to fix a file it names.  Exits 1 naming them.
set -eu
cd "${srcdir:-.}"
format=${CLANG_FORMAT:-clang-format}
command -v "$format" >/dev/null 2>&1 || {
	echo "format.sh: $format not found (Debian package clang-format)" >&2
	exit 2
}
bad=0
for f in src/*/*.[ch] tests/*.[ch] tests/fuzz/*.[ch] bench/*.c; do
	if ! "$format" --style=file "$f" | cmp -s - "$f"; then
		echo "format.sh: $f is not laid out as .clang-format says (clang-format -i $f)"
		bad=1
	fi
done
[ $bad -eq 0 ] && echo "format: every C file follows .clang-format"
exit $bad
