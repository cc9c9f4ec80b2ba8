#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# Install, on Debian (12 or later), everything ibunion needs to build and to
# run its tests: toolchain, Check, OpenSM and its headers, ibsim with
# libumad2sim, infiniband-diags, the rdma-core MAD libraries, valgrind,
# clang with its fuzzer runtime (the fuzz smoke test, t0310), and what
# builds the Debian package (dpkg-buildpackage, which insists on
# build-essential, and debhelper; man-db indexes
# the installed man pages, t0800 looks them up with man -k).
# Does nothing when all of it is installed; uses sudo only when not root.
set -euo pipefail

packages=(
	autoconf automake libtool pkg-config make gcc libc6-dev file
	check valgrind
	opensm libopensm-dev ibsim-utils infiniband-diags
	libibumad-dev libibmad-dev libibnetdisc-dev
	clang libclang-rt-dev
	build-essential dpkg-dev debhelper man-db
)

missing=()
for p in "${packages[@]}"; do
	status=$(dpkg-query -W -f='${db:Status-Abbrev}' "$p" 2>/dev/null || true)
	[ "${status:0:2}" = ii ] || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
	echo "setup-deps: all ${#packages[@]} packages present"
	exit 0
fi

if ! command -v apt-get >/dev/null; then
	echo "setup-deps: no apt-get here; install the equivalents of: ${missing[*]}" >&2
	exit 1
fi
sudo=
if [ "$(id -u)" != 0 ]; then
	command -v sudo >/dev/null || {
		echo "setup-deps: not root and no sudo; as root run: apt-get install ${missing[*]}" >&2
		exit 1
	}
	sudo=sudo
fi

echo "setup-deps: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -q
$sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "${missing[@]}"
