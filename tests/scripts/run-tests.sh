#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# Build and test everything from a clone: dependencies, autoreconf, configure
# and make in _build/, make check (unit tests and the opensm + ibsim
# integration tests), make distcheck.  Ends with one plain line
#	N passed, N failed, N skipped
# counted from automake's .trs results; exits non-zero on any failure.
#
# Environment: BUILD_DIR (default _build in the source tree), JOBS (2),
# IBU_NO_DISTCHECK=1 to skip distcheck, IBU_NO_PACKAGE=1 to skip building
# and installing the Debian package, IBU_NO_SANITIZE=1 to skip the
# ASan + UBSan build of the unit tests, IBU_FULL_DISTCHECK=1 to run every
# test inside distcheck too (by default distcheck runs the unit tests and
# the harness self-test: the full suite has just run).
set -uo pipefail

top=$(cd "$(dirname "$0")/../.." && pwd)
build=${BUILD_DIR:-$top/_build}
jobs=${JOBS:-2}
started=$SECONDS
failed_steps=()

step()
{
	echo
	echo "=== $*"
}

summary()
{
	local pass=0 fail=0 skip=0 r

	if [ -d "$build" ]; then
		while read -r r; do
			case $r in
			PASS | XFAIL) pass=$((pass + 1)) ;;
			SKIP) skip=$((skip + 1)) ;;
			*) fail=$((fail + 1)) ;;
			esac
		done < <(find "$build" -path "$build/ibunion-*" -prune -o \
			-name '*.trs' -print0 2>/dev/null |
			xargs -0 -r sed -n 's/^:test-result: *\([A-Z]*\).*/\1/p')
	fi
	fail=$((fail + ${#failed_steps[@]}))
	echo
	[ ${#failed_steps[@]} -eq 0 ] || echo "failed steps: ${failed_steps[*]}"
	echo "time: $((SECONDS - started)) s"
	echo "$pass passed, $fail failed, $skip skipped"
	[ "$fail" -eq 0 ]
	exit $?
}

step "dependencies"
bash "$top/tests/scripts/setup-deps.sh" || { failed_steps+=(setup-deps); summary; }

step "autoreconf -fi"
(cd "$top" && autoreconf -fi) || { failed_steps+=(autoreconf); summary; }

step "configure in $build"
rm -rf "$build"
mkdir -p "$build"
(cd "$build" && "$top/configure" -q) || {
	failed_steps+=(configure)
	cat "$build/config.log" 2>/dev/null | tail -n 40
	summary
}

step "make -j$jobs"
make -C "$build" -j"$jobs" || { failed_steps+=(make); summary; }

step "make -j$jobs check"
if ! make -C "$build" -j"$jobs" check; then
	failed_steps+=(check)
	echo "--- failed tests:"
	find "$build" -name '*.trs' -print0 | xargs -0 grep -l \
		-E ':test-result: (FAIL|ERROR|XPASS)' | while read -r trs; do
		echo "===== ${trs%.trs}.log"
		cat "${trs%.trs}.log"
	done
fi

units=$(make -s -C "$build" print-unit-tests 2>/dev/null)

# The Debian package, built from the dist tarball (so debian/ and all it
# needs are in EXTRA_DIST) with dpkg-buildpackage, installed with dpkg -i,
# then t0800 runs opensm + ibsim with the installed plugin and no
# LD_LIBRARY_PATH (its result replaces the skip make check recorded).  The
# package is removed afterwards unless it was installed before.  Needs
# root; IBU_NO_PACKAGE=1 skips it.
deb_step()
{
	local dir deb was_installed=

	if [ -n "${IBU_NO_PACKAGE-}" ]; then
		echo "SKIP: Debian package (IBU_NO_PACKAGE set); t0800 stays skipped"
		return 0
	fi
	if [ "$(id -u)" != 0 ]; then
		echo "SKIP: Debian package: not root (dpkg -i needs root); t0800 stays skipped"
		return 0
	fi
	dir=$(mktemp -d "${TMPDIR:-/tmp}/ibunion-deb.XXXXXX") || return 1
	make -s -C "$build" dist || { failed_steps+=(deb-dist); return 1; }
	tar -C "$dir" -xzf "$build"/ibunion-*.tar.gz || { failed_steps+=(deb-dist); return 1; }
	# The unit tests already ran above: nocheck.
	if ! (cd "$dir"/ibunion-*/ && DEB_BUILD_OPTIONS="nocheck parallel=$jobs" \
		dpkg-buildpackage -us -uc -b); then
		failed_steps+=(deb-build)
		return 1
	fi
	deb=$(ls "$dir"/ibunion_*.deb) || { failed_steps+=(deb-build); return 1; }
	echo "built $deb:"
	dpkg-deb -I "$deb" | grep -E '^ (Version|Depends):'
	dpkg -s ibunion >/dev/null 2>&1 && was_installed=1
	if ! dpkg -i "$deb"; then
		failed_steps+=(deb-install)
		return 1
	fi
	IBU_TEST_PACKAGE=1 IBU_TEST_DEB=$deb make -C "$build" check TESTS=tests/t0800-deb-installed.sh ||
		cat "$build/tests/t0800-deb-installed.log"
	[ -n "$was_installed" ] || dpkg -r ibunion || failed_steps+=(deb-remove)
	rm -rf "$dir"
}
step "Debian package: dpkg-buildpackage, dpkg -i, t0800 on the installed plugin"
deb_step

# The unit tests again, built with AddressSanitizer + UndefinedBehavior-
# Sanitizer (any report fails the test), in $build/asan; IBU_NO_SANITIZE=1
# skips this.  Their results count in the summary below.
if [ -z "${IBU_NO_SANITIZE-}" ] && [ -n "$units" ]; then
	step "unit tests under ASan + UBSan ($build/asan)"
	san="-g -O1 -fno-omit-frame-pointer -fsanitize=address,undefined -fno-sanitize-recover=all"
	mkdir -p "$build/asan"
	if ! (cd "$build/asan" && "$top/configure" -q CFLAGS="$san" \
		LDFLAGS="-fsanitize=address,undefined") ||
	   ! ASAN_OPTIONS=detect_leaks=1:abort_on_error=0:halt_on_error=1 \
		UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 CK_TIMEOUT_MULTIPLIER=5 \
		make -C "$build/asan" -j"$jobs" check TESTS="$units" check_DATA=; then
		failed_steps+=(sanitizers)
		find "$build/asan" -name '*.trs' -print0 | xargs -0 -r grep -l \
			-E ':test-result: (FAIL|ERROR|XPASS)' | while read -r trs; do
			echo "===== (asan) ${trs%.trs}.log"
			cat "${trs%.trs}.log"
		done
	fi
fi

if [ -z "${IBU_NO_DISTCHECK-}" ]; then
	step "make distcheck"
	dc=()
	if [ -z "${IBU_FULL_DISTCHECK-}" ]; then
		# the unit tests, and the harness self-test (the full suite has just run)
		[ -n "$units" ] && dc=(TESTS="$units tests/t0010-harness.sh")
	fi
	if ! make -C "$build" distcheck "${dc[@]}"; then
		failed_steps+=(distcheck)
		find "$build"/ibunion-* -name '*.trs' -print0 2>/dev/null |
			xargs -0 -r grep -l -E ':test-result: (FAIL|ERROR|XPASS)' |
			while read -r trs; do
				echo "===== (distcheck) ${trs%.trs}.log"
				cat "${trs%.trs}.log"
			done
	fi
fi
summary
