#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# kmod-build-newer: the module must also build, warning-free with W=1, against the newest
# Debian 12 kernel headers on the mirror (6.12 from bookworm-security/backports), unpacked
# with apt-get download + dpkg-deb -x into WORKDIR (not installed).
# usage: build-newer.sh SRCDIR WORKDIR      exit: 0 pass, 1 fail, 77 skipped (said loudly)
set -eu
. "$(dirname "$0")/../common/test-lib.sh"
SRC=$1 WORK=$2
skip() {
	echo "kmod-build-newer: ################################################################" >&2
	echo "kmod-build-newer: SKIPPED: $*" >&2
	echo "kmod-build-newer: ################################################################" >&2
	exit 77
}
for cmd in apt-cache apt-get dpkg-deb make gcc; do
	command -v $cmd >/dev/null 2>&1 || skip "$cmd not installed"
done
pkg=$(apt-cache search --names-only '^linux-headers-[0-9.]+\+deb12-amd64$' 2>/dev/null | sed 's/ .*//' | sort -V | tail -1)
[ -n "$pkg" ] || skip "no linux-headers-*+deb12-amd64 in the package lists (apt-get update?)"
rel=${pkg#linux-headers-}
ver=${rel%-amd64}
common=linux-headers-$ver-common
kbuild=linux-kbuild-$ver
ROOT=$WORK/$rel
if [ ! -f "$ROOT/done" ]; then
	rm -rf "$ROOT" && mkdir -p "$ROOT/deb"
	echo "kmod-build-newer: downloading $pkg $common $kbuild"
	(cd "$ROOT/deb" && apt-get download -q "$pkg" "$common" "$kbuild") >"$ROOT/download.log" 2>&1 ||
		skip "cannot download $pkg: $(tail -1 "$ROOT/download.log")"
	for d in "$ROOT"/deb/*.deb; do dpkg-deb -x "$d" "$ROOT/tree" || fail "dpkg-deb -x $d"; done
	rm -rf "$ROOT/deb"
	touch "$ROOT/done"
fi
KDIR=$ROOT/tree/usr/src/$pkg
[ -d "$KDIR" ] || fail "$KDIR not in $pkg"
# The packaged Makefile includes the common tree by its absolute installed path.
printf 'include %s/tree/usr/src/%s/Makefile\n' "$ROOT" "$common" >"$KDIR/Makefile"
MB=$WORK/build-$rel
rm -rf "$MB" && mkdir -p "$MB"
cp "$SRC"/kmod/*.c "$SRC"/kmod/*.h "$SRC"/kmod/Kbuild "$SRC"/kmod/Makefile "$MB"/
# BTF for the module would need pahole (dwarves): not what is tested here.
make -C "$MB" KDIR="$KDIR" W=1 CONFIG_DEBUG_INFO_BTF_MODULES= >"$MB/build.log" 2>&1 ||
	{ cat "$MB/build.log"; fail "module build against $rel failed"; }
if grep -E "warning:|error:" "$MB/build.log"; then fail "module build against $rel has warnings (W=1)"; fi
[ -f "$MB/idlescope.ko" ] || fail "no idlescope.ko"
echo "kmod-build-newer: PASS: idlescope.ko builds W=1-clean against $rel"
