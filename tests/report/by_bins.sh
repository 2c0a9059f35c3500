#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# report --by COLUMN[:N] / --by-bins N: the summary per COLUMN instead of per ReqCState; a
# numeric COLUMN in N bins whose edges come from all runs ([lo, hi) labels, the parser and the
# binning analyze diff uses); the idle-state plots keep ReqCState.
# usage: by_bins.sh REPORT
. "$(dirname "$0")/lib.sh"
report=$1
# run DIR FIRST N: LDist FIRST .. FIRST+N-1, ReqCState C1/C6 alternating.
run() {
	mkdir -p "$1"
	awk -v f="$2" -v n="$3" 'BEGIN { print "LDist,SilentTime,WakeLatency,ReqCState";
		for (i = f; i < f + n; i++) printf "%d,%d,%d,%s\n", i, i, 10 + i % 7, (i % 2 ? "C1" : "C6") }' > "$1/datapoints.csv"
}
run "$W/a" 0 100
run "$W/b" 100 100
expect_rc 0 "$report" --by LDist:2 -m WakeLatency -o "$W/r" "$W/a" "$W/b"
h="$W/r/index.html"
grep -q '<h3>Per LDist:2</h3>' "$h" || fail "no 'Per LDist:2' table"
grep -q 'Per requested idle state' "$h" && fail "still per idle state"
# edges over both runs: 0 .. 199 in two bins of 99.5
[ "$(grep -c '\[0, 99.5)' "$h")" -ge 1 ] && [ "$(grep -c '\[99.5, 199\]' "$h")" -ge 1 ] ||
	fail "labels: $(grep -o '\[[0-9.]*, [0-9.]*[])]' "$h" | sort -u | tr '\n' ' ')"
grep -q 'ReqCState' "$h" || fail "the idle-state plots lost ReqCState"
expect_rc 0 "$report" --by LDist --by-bins 2 -m WakeLatency -o "$W/r2" "$W/a" "$W/b"
grep -q '<h3>Per LDist:2</h3>' "$W/r2/index.html" || fail "--by-bins 2"
# by value (a text column): as before, under its own name
expect_rc 0 "$report" --by ReqCState -m WakeLatency -o "$W/r3" "$W/a" "$W/b"
grep -q '<h3>Per requested idle state (ReqCState)</h3>' "$W/r3/index.html" || fail "--by ReqCState"
# errors
expect_rc 2 "$report" --by LDist:x -o "$W/r4" "$W/a" "$W/b"
expect_err "report: --by LDist:x: expected COLUMN:N with N a whole number from 1 to 10000"
expect_rc 1 "$report" --by Nope -o "$W/r4" "$W/a" "$W/b"
grep -q "a/datapoints.csv: --by: no column 'Nope'" "$W/err.txt" || fail "no column: $(cat "$W/err.txt")"
expect_rc 1 "$report" --by ReqCState:2 -o "$W/r4" "$W/a" "$W/b"
grep -q "'ReqCState' is a text column; bins need numbers" "$W/err.txt" || fail "text bins: $(cat "$W/err.txt")"
[ ! -e "$W/r4" ] || fail "a report was left after an error"
echo "report by bins: all checks passed"
