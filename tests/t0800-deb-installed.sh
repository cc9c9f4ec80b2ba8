#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# The Debian package as an admin gets it: after `dpkg -i ibunion_*.deb`,
# opensm with `event_plugin_name ibunion` and no LD_LIBRARY_PATH loads the
# plugin from the multiarch library directory and routes a shuffled
# IBFT(4,3) with cyclic; the installed /usr/bin/ibunion checks the tables;
# mandb indexed both man pages; the package (dpkg -c of IBU_TEST_DEB when
# set, else dpkg -L) ships the README, docs/ and the opensm.conf example,
# and its Description names what it routes.  tests/scripts/run-tests.sh (CI, as root) builds
# and installs the package and runs this with IBU_TEST_PACKAGE=1; without
# it (a plain `make check`) the test skips: it must not judge whatever
# older package a machine may have installed.
. "$(dirname "$0")/sim.sh"

[ "${IBU_TEST_PACKAGE-}" = 1 ] ||
	skip_all "IBU_TEST_PACKAGE=1 not set (tests/scripts/run-tests.sh sets it after dpkg -i, as root)"
status=$(dpkg-query -W -f='${db:Status-Abbrev}' ibunion 2>/dev/null)
[ "${status:0:2}" = ii ] || bail_out "IBU_TEST_PACKAGE=1 but the ibunion package is not installed"
multiarch=$(dpkg-architecture -qDEB_HOST_MULTIARCH 2>/dev/null || gcc -print-multiarch)
[ -n "$multiarch" ] || bail_out "cannot tell the multiarch triplet"

IBUNION=/usr/bin/ibunion	# the package's, not the build tree's
PLUGIN_DIR=			# no LD_LIBRARY_PATH: the system library path
unset LD_LIBRARY_PATH
sim_require
sim_setup
plan 17

t_expect "the package holds /usr/lib/$multiarch/libibunion.so" \
	grep -qx "/usr/lib/$multiarch/libibunion.so" <(dpkg -L ibunion)
if [ -n "${IBU_TEST_DEB-}" ]; then
	dpkg -c "$IBU_TEST_DEB" | awk '{ print $6 }' | sed 's|^\./|/|' >"$SIM_DIR/files"
else
	dpkg -L ibunion >"$SIM_DIR/files"
fi
doc=/usr/share/doc/ibunion
t_expect "the package ships $doc/README, uncompressed" grep -qx "$doc/README" "$SIM_DIR/files"
t_expect "the package ships docs/: admin guide, design, benchmarks, references" \
	bash -c "for d in admin-guide design benchmarks references; do
			grep -qx '$doc/docs/'\$d.md '$SIM_DIR/files' || exit 1; done"
t_expect "the package ships $doc/examples/opensm.conf.sample" \
	grep -qx "$doc/examples/opensm.conf.sample" "$SIM_DIR/files"
t_expect "the package's Description names IBFT, PGFT and 2-D meshes" \
	bash -c "d=\$(dpkg-query -W -f='\${Description}' ibunion) &&
		grep -q IBFT <<<\"\$d\" && grep -q PGFT <<<\"\$d\" && grep -q '2-D mesh' <<<\"\$d\""
net=$SIM_DIR/ibft43.net
t_expect "ibunion gen fattree 4 3, shuffled (installed tool)" "$IBUNION" gen fattree 4 3 \
	--shuffle-ports --shuffle-records --seed "$RANDOM" -o "$net"
t_expect "ibsim runs IBFT(4,3)" sim_start_ibsim "$net"
sim_write_conf routing_engine cyclic,minhop lmc 2
sim_start_opensm
t_expect "opensm, plugin from the system path: SUBNET UP" sim_wait_subnet_up
t_expect "opensm mapped /usr/lib/$multiarch/libibunion.so" \
	grep -q " /usr/lib/$multiarch/libibunion.so\$" "/proc/$OPENSM_PID/maps"
t_grep "cyclic recognised IBFT(4,3)" \
	"cyclic: IBFT\(4,3\): 20 switches, 16 end ports, LMC in use 2" "$SIM_DIR/osm.log"
t_cyclic_holds "$net" ibft43

# man -k reads mandb's index, which dpkg's man-db trigger updates.
if command -v apropos >/dev/null && [ -e /var/cache/man/index.db ]; then
	apropos ibunion >"$SIM_DIR/apropos.out" 2>&1
	diag_file "$SIM_DIR/apropos.out" 5
	t_expect "man -k ibunion finds ibunion(1) and libibunion(8)" \
		bash -c "grep -q '^ibunion (1)' '$SIM_DIR/apropos.out' &&
			grep -q '^libibunion[.a-z]* (8)' '$SIM_DIR/apropos.out'"
else
	skip_test "man -k ibunion finds ibunion(1) and libibunion(8)" "man-db not installed"
fi
done_testing
