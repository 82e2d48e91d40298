#!/bin/sh
# bootstrap.sh - from a fresh Debian machine to a first real fit.
#
# Installs the build dependencies with apt-get (as root, or through sudo),
# configures, builds, fits the generic data-parallel model to a bundled real
# dataset and prints a scaling table.  Re-running it
# is safe; it skips what is already done.
set -eu
cd "$(dirname "$0")"

packages="build-essential autoconf automake libtool pkg-config libyaml-dev libgsl-dev libjansson-dev libcunit1-dev libxml2-utils python3 python3-numpy python3-pandas python3-pytest"
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

# The main job on a bundled real dataset: fit the generic data-parallel
# model to 224 ResNet-50 training runs on 1-4 GPUs (a-GPUBench), then ask
# how the time scales with the number of GPUs.
./src/scalefit fit expressions/ddp-generic.yaml -o ddp-fit.json
echo
./src/scalefit scale ddp-fit.json --over p=1:16 --set b=16,n=256000
