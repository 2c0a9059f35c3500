#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# collect finds the module where DKMS installs it (/lib/modules/RELEASE/updates/dkms/), and
# make install's extra/ before it; nothing found names every place looked at. The build
# tree's module comes first only for a collect run from the build tree: an installed copy
# (here: the test program copied out of it) takes the DKMS module. Runs in a
# private mount namespace with a tmpfs over /lib/modules (root; skipped otherwise).
# usage: kmod_find.sh KMOD_FIND_TEST
set -u
. "$(dirname "$0")/../common/test-lib.sh"
t=$1
if [ "$(id -u)" != 0 ] || [ ! -d /lib/modules ] || ! unshare -m true 2>/dev/null; then
	echo "kmod_find: SKIPPED (needs root, mount namespaces and a /lib/modules to mount over)"
	exit 77
fi
r=$(uname -r)
m=/lib/modules/$r
inst=$(mktemp -d)
test_when_finished 'rm -rf "$inst"'
cp "$t" "$inst/kmod_find_test"
unshare -m sh -euc '
	bt=$1 t=$2 r=$3 m=$4
	mount -t tmpfs idlescope-test /lib/modules
	fail() { echo "FAIL: $*"; exit 1; }

	out=$("$t") && fail "found a module in an empty /lib/modules: $out"
	[ "$out" = "the idlescope module is not loaded and no idlescope.ko was found (looked in $m/extra/idlescope.ko, $m/updates/dkms/idlescope.ko, $m/updates/idlescope.ko): install idlescope-dkms, or build it (make -C kmod, docs/kmod.md) and give --kmod-path, or use --method bpf" ] ||
		fail "nothing installed: $out"

	mkdir -p "$m/updates/dkms" "$m/extra"
	: >"$m/updates/dkms/idlescope.ko"
	out=$("$t") || fail "DKMS module not found: $out"
	[ "$out" = "$m/updates/dkms/idlescope.ko" ] || fail "DKMS module: $out"

	mkdir "$m/extra/idlescope.ko"   # a directory is not a module
	out=$("$t") && [ "$out" = "$m/updates/dkms/idlescope.ko" ] || fail "directory in extra/: $out"
	rmdir "$m/extra/idlescope.ko"
	: >"$m/extra/idlescope.ko"
	out=$("$t") && [ "$out" = "$m/extra/idlescope.ko" ] || fail "make install + DKMS: $out"
	rm "$m/extra/idlescope.ko"

	mkdir /lib/modules/idlescope-build-tree
	: >/lib/modules/idlescope-build-tree/idlescope.ko
	out=$("$bt") && [ "$out" = /lib/modules/idlescope-build-tree/idlescope.ko ] || fail "run from the build tree: $out"
	out=$("$t") && [ "$out" = "$m/updates/dkms/idlescope.ko" ] || fail "installed, build tree has a module: $out"
	echo "kmod_find: empty, DKMS, make install, build tree (from it and installed): all found as expected"
' kmod_find "$t" "$inst/kmod_find_test" "$r" "$m"
