#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# cmake --install into a staging directory (DESTDIR, prefix /usr): exactly the expected files,
# man pages that are roff with the right title, dkms.conf with the project version, the
# module's sources beside it, and the installed programs run from there.
# usage: install_tree.sh BUILD_DIR SRC_DIR VERSION MAN (MAN: 1 when the man pages are built)
set -u
TEST_KEEP_GOING=1
. "$(dirname "$0")/../common/test-lib.sh"
build=$1 src=$2 v=$3 man=$4
tmp=$(mktemp -d)
test_when_finished 'rm -rf "$tmp"'

# A private copy of the build's cache would rebuild; install from the build with prefix and DESTDIR.
DESTDIR=$tmp/root cmake --install "$build" --prefix /usr >"$tmp/log" 2>&1 || { cat "$tmp/log"; exit 1; }
(cd "$tmp/root" && find . -type f | sed 's|^\./||' | sort) >"$tmp/got"

{
	printf '%s\n' usr/bin/collect usr/bin/analyze usr/bin/report
	[ "$man" = 1 ] && for m in collect.1 analyze.1 report.1 idlescope-run.5; do echo "usr/share/man/man${m##*.}/$m"; done
	for p in collect analyze report; do echo "usr/share/bash-completion/completions/$p"; done
	echo usr/share/doc/idlescope/README.md
	(cd "$src/docs" && ls ./*.md ./*.png) | sed 's|^\./|usr/share/doc/idlescope/docs/|'
	(cd "$src/kmod" && ls ./*.c ./*.h Kbuild Makefile) | sed "s|^\./||; s|^|usr/src/idlescope-$v/|"
	echo "usr/src/idlescope-$v/dkms.conf"
	echo "usr/src/idlescope-$v/VERSION"
	# the self-contained collect that collect -H deploys (docs/remote.md), where it was built
	[ -d "$build/collect/deploy" ] && (cd "$build/collect/deploy" && ls) | sed 's|^|usr/lib/idlescope/deploy/|'
} | sort >"$tmp/want"
diff -u --label expected --label installed "$tmp/want" "$tmp/got" || fail "installed files differ"

r=$tmp/root/usr
[ "$man" = 1 ] && for m in collect.1 analyze.1 report.1 idlescope-run.5; do
	page=${m%.*} sec=${m##*.}
	grep -q "^\.TH \"$page\" \"$sec\"" "$r/share/man/man$sec/$m" || fail "$m: no .TH $page $sec line"
done
grep -qx "PACKAGE_VERSION=\"$v\"" "$r/src/idlescope-$v/dkms.conf" || fail "dkms.conf: no PACKAGE_VERSION=\"$v\""
grep -qx 'BUILT_MODULE_NAME\[0\]="idlescope"' "$r/src/idlescope-$v/dkms.conf" || fail "dkms.conf: module name"
grep -qx 'DEST_MODULE_LOCATION\[0\]="/updates/dkms"' "$r/src/idlescope-$v/dkms.conf" || fail "dkms.conf: location"
[ "$(cat "$r/src/idlescope-$v/VERSION")" = "$v" ] || fail "VERSION file"
cmp -s "$src/install/bash-completion/idlescope" "$r/share/bash-completion/completions/analyze" || fail "completion file"
for p in collect analyze report; do
	[ "$("$r/bin/$p" --version)" = "$p (idlescope) $v" ] || fail "installed $p --version"
done
"$r/bin/analyze" stats "$src/samples/bpf-c200" >"$tmp/stats" 2>&1 || fail "installed analyze stats: $(cat "$tmp/stats")"
grep -q '^ *WakeLatency' "$tmp/stats" || fail "installed analyze stats printed no WakeLatency row"

[ $fails = 0 ] || exit 1
echo "install: $(wc -l <"$tmp/got") files as expected under /usr and /usr/src/idlescope-$v"
