#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Clear messages for inputs that used to be misreported (issue 11, item 14): each case's exact
# stderr and exit status.
# usage: messages.sh ANALYZE SHARED_DATA
set -u
. "$(dirname "$0")/../common/test-lib.sh"
analyze=$1
good=$2/wult-good
tmp=$(mktemp -d)
test_when_finished 'rm -rf "$tmp"'
fails=0

# expect RC EXPECTED_STDERR ARGS...
expect() {
	local want_rc=$1 want_err=$2
	shift 2
	"$analyze" "$@" > "$tmp/out" 2> "$tmp/err"
	local rc=$?
	if [ "$rc" != "$want_rc" ] || [ "$(cat "$tmp/err")" != "$want_err" ]; then
		echo "FAIL: analyze $*"
		echo "  exit $rc (want $want_rc)"
		echo "  stderr: $(cat "$tmp/err")"
		echo "  want:   $want_err"
		fails=$((fails + 1))
	fi
}

# a quoted "1,5" was reported as got '1'
printf 'LDist,B\n1,2\n"1,5",3\n' > "$tmp/comma.csv"
expect 1 "analyze: $tmp/comma.csv:3: field 'LDist': expected a number, got '1,5' (numbers use '.', not ',')" stats "$tmp/comma.csv"
printf 'LDist,B\n1,2\n"1x",3\n' > "$tmp/quoted.csv"
expect 1 "analyze: $tmp/quoted.csv:3: field 'LDist': expected a number, got '1x'" stats "$tmp/quoted.csv"
# 1e-400 read as 0 while 1e400 was an error: both are out of range now
printf 'LDist,B\n1,2\n1e-400,3\n' > "$tmp/tiny.csv"
expect 1 "analyze: $tmp/tiny.csv:3: field 'LDist': '1e-400' is out of the range of a double" stats "$tmp/tiny.csv"
printf 'LDist,B\n1,2\n1e400,3\n' > "$tmp/huge.csv"
expect 1 "analyze: $tmp/huge.csv:3: field 'LDist': '1e400' is out of the range of a double" stats "$tmp/huge.csv"
printf 'LDist,B\n1,2\n"-1e400",3\n' > "$tmp/hugeq.csv"
expect 1 "analyze: $tmp/hugeq.csv:3: field 'LDist': '-1e400' is out of the range of a double" stats "$tmp/hugeq.csv"
printf 'LDist,B\n5e-324,2\n0e-400,3\n' > "$tmp/sub.csv"
expect 0 "" stats -f min,max -m LDist -F csv "$tmp/sub.csv"
grep -q ',0,5e-324$' "$tmp/out" || { echo "FAIL: subnormal: $(cat "$tmp/out")"; fails=$((fails + 1)); }

# datapoints.csv that cannot be reached: the real reason, not "no datapoints.csv"
mkdir -p "$tmp/dangling" "$tmp/loop" "$tmp/none"
ln -s "$tmp/nowhere.csv" "$tmp/dangling/datapoints.csv"
ln -s datapoints.csv "$tmp/loop/datapoints.csv"
expect 1 "analyze: $tmp/dangling/datapoints.csv: dangling symbolic link (its target: No such file or directory)" stats "$tmp/dangling"
expect 1 "analyze: $tmp/loop/datapoints.csv: Too many levels of symbolic links" stats "$tmp/loop"
expect 1 "analyze: $tmp/none: not a run directory (no datapoints.csv)" stats "$tmp/none"
if [ "$(id -u)" = 0 ] && command -v setpriv > /dev/null; then
	# root searches any directory: the unsearchable one is tried as nobody
	chmod 755 "$tmp" && mkdir -p "$tmp/locked" && cp "$good/datapoints.csv" "$tmp/locked/" && chmod 644 "$tmp/locked"
	setpriv --reuid=nobody --regid=nogroup --clear-groups "$analyze" stats "$tmp/locked" > /dev/null 2> "$tmp/err"
	rc=$?
	[ $rc = 1 ] && [ "$(cat "$tmp/err")" = "analyze: $tmp/locked/datapoints.csv: Permission denied" ] ||
		{ echo "FAIL: unsearchable directory: exit $rc, $(cat "$tmp/err")"; fails=$((fails + 1)); }
	chmod 755 "$tmp/locked"
fi

# a doubled UTF-8 byte order mark silently renamed the first column
printf '\xef\xbb\xbf\xef\xbb\xbfLDist,B\n1,2\n' > "$tmp/bom2.csv"
expect 1 "analyze: $tmp/bom2.csv:1: header: column 1 name starts with a second UTF-8 byte order mark (the file was converted twice?)" stats "$tmp/bom2.csv"
printf '\xef\xbb\xbfLDist,B\n1,2\n' > "$tmp/bom1.csv"
expect 0 "" stats -f count -m LDist "$tmp/bom1.csv"
# a space at either end of a name: a hint at once
printf 'LDist, WakeLatency,X \n1,2,3\n' > "$tmp/space.csv"
expect 0 "analyze: warning: $tmp/space.csv:1: header: column 2 name ' WakeLatency' has a space at its start (and 1 more names); names are used as they are, not trimmed" \
	stats -f count "$tmp/space.csv"
printf 'LDist,WakeLatency \n1,2\n' > "$tmp/space1.csv"
expect 0 "analyze: warning: $tmp/space1.csv:1: header: column 2 name 'WakeLatency ' has a space at its end; names are used as they are, not trimmed" \
	stats -f count "$tmp/space1.csv"

# a change smaller than its CI's resolution was printed "+1 us" for +0.572 (issue 24): two
# significant digits of the change at least
mkdir -p "$tmp/p1" "$tmp/p2"
awk 'BEGIN { print "WakeLatency"; for (i = 0; i < 200; i++) print i }' > "$tmp/p1/datapoints.csv"
awk 'BEGIN { print "WakeLatency"; for (i = 0; i < 200; i++) printf "%.3f\n", i + 0.572 }' > "$tmp/p2/datapoints.csv"
"$analyze" diff "$tmp/p1" "$tmp/p2" > "$tmp/out" 2> "$tmp/err"
grep -q '^  WakeLatency: median +0.57 us (+0.6%) vs p1, within-run 95% interval \[-[0-9]*, +[0-9]*\] (block bootstrap' "$tmp/out" ||
	{ echo "FAIL: precision of a change: $(grep 'WakeLatency:' "$tmp/out")"; fails=$((fails + 1)); }

# a change near DBL_MAX in a diff verdict was printed with 309 digits (and +inf%)
mkdir -p "$tmp/big1" "$tmp/big2"
printf 'WakeLatency\n1e308\n1.1e308\n1.2e308\n1.3e308\n1.4e308\n1.5e308\n' > "$tmp/big1/datapoints.csv"
printf 'WakeLatency\n1e300\n1.1e300\n1.2e300\n1.3e300\n1.4e300\n1.5e300\n' > "$tmp/big2/datapoints.csv"
"$analyze" diff "$tmp/big1" "$tmp/big2" > "$tmp/out" 2> "$tmp/err"
grep -q '^  WakeLatency: median -1.25e+308 us (-100.0%) vs big1, ' "$tmp/out" && ! grep -qE "[0-9]{16}" "$tmp/out" ||
	{ echo "FAIL: verdict near DBL_MAX: $(cat "$tmp/out")"; fails=$((fails + 1)); }

echo "$fails failure(s)"
[ $fails = 0 ]
