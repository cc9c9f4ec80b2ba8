#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# Build ibunion for tests/scripts/demo.sh and tests/scripts/bench.sh: installs what is
# missing (tests/scripts/setup-deps.sh), autoreconf -fi, configure (once) and make in
# BUILD_DIR (default _build in the source tree).  Quiet unless a step fails.
set -uo pipefail

top=$(cd "$(dirname "$0")/../.." && pwd)
build=${BUILD_DIR:-$top/_build}

die() { printf 'build: %s\n' "$*" >&2; exit 1; }

bash "$top/tests/scripts/setup-deps.sh" || die "cannot install the dependencies"
out=$(cd "$top" && autoreconf -fi 2>&1) || { echo "$out"; die "autoreconf failed"; }
mkdir -p "$build" || die "cannot create $build"
if [ ! -f "$build/config.status" ]; then
	(cd "$build" && "$top/configure" -q) || die "configure failed, see $build/config.log"
fi
out=$(make -C "$build" -j2 2>&1) || { echo "$out" | tail -n 40; die "make failed"; }
echo "build: ibunion built in $build"
