#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# collect-deploy is one static executable (docs/remote.md): no dynamic section, nothing beside
# it but the module's sources, and it runs where there is no library at all (an empty chroot).
# The sanitizer build links it dynamically (ASan has no static runtime): then only the files.
# usage: deploy_static.sh DEPLOY_DIR static|dynamic
set -u
. "$(dirname "$0")/../common/test-lib.sh"
DIR=$1 MODE=$2
[ "$(cd "$DIR" && ls | tr '\n' ' ')" = "collect idlescope-kmod.tar " ] ||
	fail "$DIR holds '$(cd "$DIR" && ls | tr '\n' ' ')', expected collect and idlescope-kmod.tar only"
tar -tf "$DIR/idlescope-kmod.tar" | grep -qx Kbuild && tar -tf "$DIR/idlescope-kmod.tar" | grep -qx VERSION ||
	fail "idlescope-kmod.tar lacks Kbuild or VERSION"
[ "$MODE" = static ] || { echo "deploy_static: sanitizer build, dynamic by design; files checked"; exit 0; }
out=$(readelf -d "$DIR/collect" 2>&1)
printf '%s\n' "$out" | grep -q "There is no dynamic section" || fail "collect has a dynamic section: $out"
if command -v file >/dev/null; then
	file "$DIR/collect" | grep -q "statically linked" || fail "file says: $(file "$DIR/collect")"
fi
if [ "$(id -u)" = 0 ]; then
	root=$(mktemp -d) || fail "mktemp"
	test_when_finished 'rm -rf "$root"'
	cp "$DIR/collect" "$root/collect"
	v=$(chroot "$root" /collect --version) || fail "collect does not run in an empty chroot"
	echo "$v" | grep -q "^collect (idlescope) " || fail "--version in the chroot said '$v'"
	echo "deploy_static: static, runs in an empty chroot: $v"
else
	"$DIR/collect" --version >/dev/null || fail "collect does not run"
	echo "deploy_static: static (not root: no chroot check)"
fi
