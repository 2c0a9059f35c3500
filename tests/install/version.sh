#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# One version everywhere, from CMake's project version: each program's --version and -V,
# info.json's toolver (latency and counters runs), the report's footer, debian/changelog.
# usage: version.sh VERSION SRC_DIR COLLECT ANALYZE REPORT
set -u
TEST_KEEP_GOING=1
. "$(dirname "$0")/../common/test-lib.sh"
v=$1 src=$2 collect=$3 analyze=$4 report=$5
tmp=$(mktemp -d)
test_when_finished 'rm -rf "$tmp"'

for p in collect analyze report; do
	eval "exe=\$$p"
	for opt in --version -V; do
		out=$("$exe" $opt 2>&1)
		rc=$?
		[ $rc = 0 ] && [ "$out" = "$p (idlescope) $v" ] || fail "$p $opt: exit $rc, '$out'"
	done
done

# debian/changelog: the newest entry's upstream version (before the Debian revision)
deb=$(sed -n '1s/^idlescope (\([^)]*\)).*/\1/p' "$src/debian/changelog")
[ "${deb%-*}" = "$v" ] || fail "debian/changelog's newest version is '$deb', CMake's project version '$v'"

"$collect" --counters -q -i 0.01 -n 1 -o "$tmp/ctr" >/dev/null 2>"$tmp/err" || fail "collect --counters: $(cat "$tmp/err")"
[ "$(jq -r .toolver "$tmp/ctr/info.json" 2>&1)" = "$v" ] || fail "counters info.json toolver: $(jq -c .toolver "$tmp/ctr/info.json" 2>&1)"

# a short timer run; other collectors (colleagues' tests) may hold a CPU for a while: retry,
# alternating between the first and the last CPU, 90 s at most
last=$(($(nproc) - 1))
for try in $(seq 45); do
	"$collect" -q --method timer --cpu $((try % 2 ? 0 : last)) -c 3 --no-counters --force -o "$tmp/run" \
		2>"$tmp/err" && break
	grep -q 'another collector' "$tmp/err" || break
	sleep 2
done
[ "$(jq -r .toolver "$tmp/run/info.json" 2>&1)" = "$v" ] || fail "run info.json toolver: $(jq -c .toolver "$tmp/run/info.json" 2>&1) ($(cat "$tmp/err"))"

if command -v gnuplot >/dev/null; then
	"$report" "$tmp/run" -o "$tmp/rep" >/dev/null 2>"$tmp/err" || fail "report: $(cat "$tmp/err")"
	grep -q "&middot; idlescope $v</p>" "$tmp/rep/index.html" || fail "report footer lacks 'idlescope $v'"
fi

[ $fails = 0 ] || exit 1
echo "version: $v from --version, -V, info.json (run, counters), report, debian/changelog"
