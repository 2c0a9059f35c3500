#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# analyze diff --by COLUMN:N / --by-bins N: a numeric column in N equal-width bins whose edges
# come from all runs together (so the runs are cut at the same places), labelled [lo, hi) as
# analyze stats labels them (one parser, lib/table/table_bins.c); more than 100 values
# without :N: 10 bins with a note; flags per bin too.
# usage: diff_by_bins.sh ANALYZE
set -u
TEST_KEEP_GOING=1
. "$(dirname "$0")/../common/test-lib.sh"
analyze=$1
tmp=$(mktemp -d)
test_when_finished 'rm -rf "$tmp"'
# run DIR FIRST N: LDist FIRST .. FIRST+N-1, IntrOff 1 on even LDist.
run() {
	mkdir -p "$1"
	awk -v f="$2" -v n="$3" 'BEGIN { print "LDist,WakeLatency,IntrOff";
		for (i = f; i < f + n; i++) printf "%d,%d,%d\n", i, 10 + i % 7, (i % 2 == 0) }' > "$1/datapoints.csv"
}
run "$tmp/a" 0 100
run "$tmp/b" 100 100
# Edges over both runs: 0 .. 199 in 2 bins of 99.5 (over a alone they would be 0 .. 99).
"$analyze" diff -F json --by LDist:2 -m "WakeLatency|IntrOff" "$tmp/a" "$tmp/b" > "$tmp/j" 2> "$tmp/err" || fail "diff: $(cat "$tmp/err")"
got=$(jq -c '[.group_by, (.groups | to_entries | map([.key, .value.rows, .value.flags.IntrOff.set]))]' "$tmp/j")
[ "$got" = '["LDist:2",[["[0, 99.5)",[100,0],[50,0]],["[99.5, 199]",[0,100],[0,50]]]]' ] || fail "json groups: $got"
"$analyze" diff -F json --by LDist --by-bins 2 -m "WakeLatency|IntrOff" "$tmp/a" "$tmp/b" 2>/dev/null | cmp -s - "$tmp/j" ||
	fail "--by-bins 2 differs from :2"
"$analyze" diff --by LDist:2 -m WakeLatency "$tmp/a" "$tmp/b" 2>/dev/null | grep -q '^LDist:2 = \[99.5, 199\]: a 0, b 100 datapoints$' ||
	fail "text heading: $("$analyze" diff --by LDist:2 -m WakeLatency "$tmp/a" "$tmp/b" 2>&1 | grep '^LDist')"
# The same label format as analyze stats (there over one run's values).
"$analyze" stats -F json --by LDist:2 -m WakeLatency "$tmp/a" 2>/dev/null | jq -e '.runs[0].groups | has("[0, 49.5)") and has("[49.5, 99]")' > /dev/null ||
	fail "stats labels: $("$analyze" stats -F json --by LDist:2 "$tmp/a" 2>&1 | jq -c '.runs[0].groups | keys')"
# More than 100 values in a run without :N: 10 bins and one note.
run "$tmp/c" 0 150
"$analyze" diff -F json --by LDist -m WakeLatency "$tmp/a" "$tmp/c" > "$tmp/j" 2> "$tmp/err" || fail "auto: $(cat "$tmp/err")"
grep -qx 'analyze: note: --by LDist: up to 150 different values in a run; grouped into 10 equal bins (--by LDist:N for N)' "$tmp/err" ||
	fail "auto note: $(cat "$tmp/err")"
[ "$(jq -c '[.group_by, (.groups | length), .groups["[0, 14.9)"].rows]' "$tmp/j")" = '["LDist:10",10,[15,15]]' ] ||
	fail "auto bins: $(jq -c '[.group_by, (.groups | keys)]' "$tmp/j")"
# 100 values or fewer: one group per value, as before.
"$analyze" diff -F json --by LDist -m WakeLatency "$tmp/a" "$tmp/a/datapoints.csv" --allow-same 2>/dev/null |
	jq -e '.group_by == "LDist" and (.groups | length) == 100' > /dev/null || fail "by value"
# Errors: a bad N (usage, exit 2), bins of a text column (exit 1), --by-bins without --by.
printf 'LDist,WakeLatency,S\n1,2,x\n' > "$tmp/t.csv"
"$analyze" diff --by LDist:0 "$tmp/a" "$tmp/b" 2> "$tmp/err"; rc=$?
[ $rc = 2 ] && grep -qx "analyze: --by LDist:0: expected COLUMN:N with N a whole number from 1 to 10000" "$tmp/err" || fail "bad N: $rc $(cat "$tmp/err")"
"$analyze" diff --by S:2 "$tmp/t.csv" "$tmp/t.csv" --allow-same 2> "$tmp/err" >/dev/null; rc=$?
[ $rc = 1 ] && grep -q "t.csv: --by S:2: 'S' is a text column; bins need numbers" "$tmp/err" || fail "text column: $rc $(cat "$tmp/err")"
"$analyze" diff --by-bins 3 "$tmp/a" "$tmp/b" 2> "$tmp/err"; rc=$?
[ $rc = 2 ] && grep -qx "analyze: diff: --by-bins needs --by COLUMN" "$tmp/err" || fail "--by-bins alone: $rc $(cat "$tmp/err")"
[ "$fails" = 0 ] && echo "diff by bins: all checks passed"
exit $((fails > 0))
