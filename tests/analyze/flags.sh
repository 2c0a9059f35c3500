#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# analyze stats: a 0/1 flag (IntrOff) is a count and a share, not percentiles; columns with
# no values are left out with one note instead of rows of dashes. CSV keeps flags as metrics.
# usage: flags.sh ANALYZE
set -u
TEST_KEEP_GOING=1
. "$(dirname "$0")/../common/test-lib.sh"
analyze=$1
tmp=$(mktemp -d)
test_when_finished 'rm -rf "$tmp"'
mkdir "$tmp/r"
printf 'WakeLatency,IntrLatency,IntrOff,ReqCState\n10,,1,C1\n20,,0,C1\n30,,1,C6\n40,,,C6\n50,,1,C6\n' \
	> "$tmp/r/datapoints.csv"
"$analyze" stats "$tmp/r" > "$tmp/out" 2> "$tmp/err" || fail "stats: $(cat "$tmp/err")"
[ "$(cat "$tmp/err")" = "analyze: note: $tmp/r/datapoints.csv: no values in IntrLatency; left out" ] ||
	fail "note: $(cat "$tmp/err")"
grep -q "IntrLatency" "$tmp/out" && fail "IntrLatency is still printed"
grep -q '^IntrOff *4 *3 *75.00%$' "$tmp/out" || fail "no IntrOff 4 3 75.00% line: $(cat "$tmp/out")"
grep -q '^IntrOff *2 *1 *50.00%$' "$tmp/out" || fail "no C1 IntrOff line"
grep -q '^IntrOff *2 *2 *100.00%$' "$tmp/out" || fail "no C6 IntrOff line"
[ "$(grep -c '^Metric' "$tmp/out")" = 3 ] || fail "expected 3 metric tables"
grep -qE '^IntrOff +[0-9]' "$tmp/out" && grep -E '^IntrOff' "$tmp/out" | grep -q '\.000' && fail "IntrOff has percentiles"
"$analyze" stats -F json "$tmp/r" 2>/dev/null > "$tmp/j"
[ "$(jq -c '.runs[0] | [.flags.IntrOff, (.metrics | keys), .groups.C6.flags.IntrOff]' "$tmp/j")" = \
  '[{"values":4,"set":3,"share":0.75},["WakeLatency"],{"values":2,"set":2,"share":1}]' ] ||
	fail "json: $(jq -c '.runs[0] | [.flags, (.metrics | keys)]' "$tmp/j")"
# CSV: one row per numeric column with values, IntrOff included (its avg is the share).
[ "$("$analyze" stats -F csv -G -f count,avg "$tmp/r" 2>/dev/null | cut -d, -f5-)" = "$(printf 'metric,count,avg\nWakeLatency,5,30\nIntrOff,4,0.75')" ] ||
	fail "csv: $("$analyze" stats -F csv -G -f count,avg "$tmp/r" 2>&1)"
# Only flags: no metric table, no error. A 0/1/2 IntrOff is not a flag.
"$analyze" stats -m IntrOff "$tmp/r" > "$tmp/out" 2>&1 || fail "flags only: $(cat "$tmp/out")"
grep -q '^Metric' "$tmp/out" && fail "flags only: an empty metric table"
printf 'IntrOff\n0\n2\n' > "$tmp/two.csv"
"$analyze" stats "$tmp/two.csv" | grep -q '^Metric' || fail "IntrOff with a 2 is a metric"
[ "$fails" = 0 ] && echo "flags: all checks passed"
exit $((fails > 0))
