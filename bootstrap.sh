#!/bin/sh
# bootstrap.sh - from a fresh Debian machine to a first real fit.
#
# Installs the build dependencies with apt-get (as root, or through sudo),
# configures, builds, and runs scalefit on a bundled dataset.  Re-running it
# is safe; it skips what is already done.
set -eu
cd "$(dirname "$0")"

packages="build-essential autoconf automake pkg-config libyaml-dev libgsl-dev libjansson-dev libcunit1-dev"
missing=
for p in $packages; do
	dpkg -s "$p" >/dev/null 2>&1 || missing="$missing $p"
done
if [ -n "$missing" ]; then
	sudo=
	[ "$(id -u)" -eq 0 ] || sudo=sudo
	$sudo apt-get update -qq
	DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq $missing
fi

[ -x configure ] || autoreconf -fi
[ -f Makefile ] || ./configure
make -j"$(nproc)"

./src/scalefit --help
