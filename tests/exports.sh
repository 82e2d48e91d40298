#!/bin/sh
# exports.sh - the shared library libscalefit exports its public API and
# nothing else: every function src/api/scalefit.h declares, and no other
# symbol (the internal sf_* names stay hidden).  Run by make check in the
# build tree.
srcdir=${srcdir:-.}
so=src/.libs/libscalefit.so
if [ ! -f "$so" ]; then
	echo "SKIP: no $so (configured --disable-shared?)"
	exit 77
fi
if ! command -v nm >/dev/null 2>&1; then
	echo "SKIP: no nm"
	exit 77
fi
exported=$(nm -D --defined-only "$so" | awk '{ print $3 }' | sort)
declared=$(sed -n 's/.*\(scalefit_[a-z0-9_]*\)(.*/\1/p' \
	"$srcdir/src/api/scalefit.h" | sort -u)
failed=0
for name in $exported; do
	case $name in
	scalefit_*) ;;
	*) echo "FAIL: $so exports $name" && failed=1 ;;
	esac
done
for name in $declared; do
	echo "$exported" | grep -qx "$name" ||
		{ echo "FAIL: $so does not export $name" && failed=1; }
done
for name in $exported; do
	echo "$declared" | grep -qx "$name" ||
		{ echo "FAIL: $so exports $name, which scalefit.h does not declare" &&
			failed=1; }
done
[ "$failed" -eq 0 ] && echo "exports: $(echo "$exported" | wc -l) functions, all of scalefit.h's"
exit $failed
