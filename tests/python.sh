#!/bin/sh
# python.sh - the Python module's tests (tests/python/test_*.py), run with
# pytest by the Python configure chose ($PYTHON): against this build tree's
# libscalefit (SCALEFIT_LIBRARY_PATH) and python/ from make check, against
# the installed module and library from make installcheck
# (SCALEFIT_INSTALLED=1, PYTHONPATH set).  Skipped (exit 77) with a message
# when there is no such Python, when it cannot import pytest, or when the
# library is built with sanitizers (a Python process cannot load it).
srcdir=${srcdir:-.}
PYTHON=${PYTHON:-python3}
if [ -z "$PYTHON" ] || [ "$PYTHON" = : ]; then
	echo "SKIP: configured without Python (--without-python, or none found)"
	exit 77
fi
if ! "$PYTHON" -c 'import pytest' >/dev/null 2>&1; then
	echo "SKIP: $PYTHON cannot import pytest: install python3-pytest (and"
	echo "python3-numpy, python3-pandas), or ./configure PYTHON=/usr/bin/python3"
	exit 77
fi
if [ -n "${SANITIZER_FLAGS:-}" ]; then
	echo "SKIP: libscalefit is built with sanitizers, which a Python process"
	echo "cannot load"
	exit 77
fi
top=$(cd "$srcdir" && pwd) || exit 99
if [ -z "${SCALEFIT_INSTALLED:-}" ]; then
	SCALEFIT_LIBRARY_PATH=$(pwd)/src/.libs/libscalefit.so
	PYTHONPATH=$top/python
	SCALEFIT=${SCALEFIT:-$(pwd)/src/scalefit}
	SCALEFIT_LIBRARY=$top
	export SCALEFIT_LIBRARY_PATH SCALEFIT_LIBRARY
fi
SCALEFIT_TOP=$top
PYTHONDONTWRITEBYTECODE=1
export PYTHONPATH SCALEFIT SCALEFIT_TOP PYTHONDONTWRITEBYTECODE
cd "${TMPDIR:-/tmp}" || exit 99
exec "$PYTHON" -m pytest -q -p no:cacheprovider "$top/tests/python"
