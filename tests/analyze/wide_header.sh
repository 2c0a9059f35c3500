#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# A header of 100,000 columns (the limit, docs/format.md) is handled in linear time: stats and
# diff within a time limit (each took 34 s with pairwise name checks); one column more is an
# error, and a duplicate name is found in the same time.
# usage: wide_header.sh ANALYZE
set -u
TEST_KEEP_GOING=1
. "$(dirname "$0")/../common/test-lib.sh"
analyze=$1
tmp=$(mktemp -d)
test_when_finished 'rm -rf "$tmp"'
limit=${IDLESCOPE_TEST_TIME_LIMIT:-20}

# wide N FILE [LASTNAME]: N columns C1..CN (the last one named LASTNAME), 3 rows
wide() {
	awk -v n="$1" -v last="${3:-}" 'BEGIN {
		for (i = 1; i <= n; i++) printf "%s%s", (i == n && last != "" ? last : "C" i), (i < n ? "," : "\n")
		for (r = 0; r < 3; r++) for (i = 1; i <= n; i++) printf "%d%s", r + i % 7, (i < n ? "," : "\n")
	}' > "$2"
}

wide 100000 "$tmp/a.csv"
cp "$tmp/a.csv" "$tmp/b.csv"
timeout "$limit" "$analyze" stats -f count,max -F csv "$tmp/a.csv" > "$tmp/out" 2> "$tmp/err"
rc=$?
[ $rc = 0 ] && [ ! -s "$tmp/err" ] && [ "$(grep -c '^[^,]*,,,3,C' "$tmp/out")" = 100000 ] &&
	grep -q ',,,3,C99999,3,6$' "$tmp/out" || fail "stats on 100000 columns: exit $rc, $(head -c 300 "$tmp/err")"
timeout "$limit" "$analyze" diff -F csv "$tmp/a.csv" "$tmp/b.csv" > "$tmp/out" 2> "$tmp/err"
rc=$?
[ $rc = 0 ] && [ "$(grep -c ',C[0-9]*,' "$tmp/out")" -ge 100000 ] ||
	fail "diff on 100000 columns: exit $rc, $(head -c 300 "$tmp/err")"

wide 100001 "$tmp/over.csv"
timeout "$limit" "$analyze" stats "$tmp/over.csv" > /dev/null 2> "$tmp/err"
rc=$?
[ $rc = 1 ] && [ "$(cat "$tmp/err")" = "analyze: $tmp/over.csv:1: header: 100001 columns, more than the 100000 supported" ] ||
	fail "100001 columns: exit $rc, $(cat "$tmp/err")"

wide 100000 "$tmp/dup.csv" C1
timeout "$limit" "$analyze" stats "$tmp/dup.csv" > /dev/null 2> "$tmp/err"
rc=$?
[ $rc = 1 ] && [ "$(cat "$tmp/err")" = "analyze: $tmp/dup.csv:1: header: duplicate column name 'C1' (columns 1 and 100000)" ] ||
	fail "duplicate among 100000 columns: exit $rc, $(cat "$tmp/err")"

echo "$fails failure(s)"
[ $fails = 0 ]
