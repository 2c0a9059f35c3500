#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# analyze stats --by on a numeric column: COLUMN:N / --by-bins N give N equal-width bins, a
# column with many values is binned with a note instead of making a group per value, and
# --hist goes per group over the overall range.
# usage: by_bins.sh ANALYZE SAMPLES_DIR
set -u
TEST_KEEP_GOING=1
. "$(dirname "$0")/../common/test-lib.sh"
analyze=$1 samples=$2
tmp=$(mktemp -d)
test_when_finished 'rm -rf "$tmp"'
# V = 0..999 (1000 rows) and W = V * 2; one row with no V.
awk 'BEGIN { print "V,W"; for (i = 0; i < 1000; i++) print i "," 2 * i; print ",5" }' > "$tmp/d.csv"
groups() { "$analyze" stats -F json -f count -m '^W$' "$@" 2>"$tmp/err" | jq -r '.runs[0].groups | to_entries | map("\(.key)=\(.value.rows);") | join("")'; }
want="=1;[0, 249.75)=250;[249.75, 499.5)=250;[499.5, 749.25)=250;[749.25, 999]=250;"
[ "$(groups --by V:4 "$tmp/d.csv")" = "$want" ] || fail "--by V:4: $(groups --by V:4 "$tmp/d.csv")"
[ "$(groups --by V --by-bins 4 "$tmp/d.csv")" = "$want" ] || fail "--by-bins 4"
# 1000 values: 10 bins and a note.
[ "$(groups --by V "$tmp/d.csv" | tr ';' '\n' | grep -c '=100$')" = 10 ] || fail "auto bins: $(groups --by V "$tmp/d.csv")"
grep -q "note: .*--by V: 1000 different values; grouped into 10 equal bins (--by V:N for N)" "$tmp/err" ||
	fail "auto bins note: $(cat "$tmp/err")"
# Few values: one group per value, as before.
printf 'V,W\n1,1\n2,2\n2,3\n' > "$tmp/few.csv"
[ "$(groups --by V "$tmp/few.csv")" = "1=1;2=2;" ] || fail "few values: $(groups --by V "$tmp/few.csv")"
# Bins match what analyze stats --include gives for the same range.
n=$("$analyze" stats -F csv -G -f count -m '^W$' -i "V >= 499.5 and V < 749.25" "$tmp/d.csv" | tail -1 | cut -d, -f6)
[ "$n" = 250 ] || fail "include count $n"
# Edges are short decimals (issue 24): 1037.442 to 3011.796 in 5 bins is 1827.1835999999998
# and 2616.9251999999997 by lo + width * b; labels and binning use 1827.1836 and 2616.9252.
printf 'V,W\n1037.442,1\n1827.1836,2\n2616.9252,3\n3011.796,4\n1827.1835,5\n' > "$tmp/edges.csv"
got=$("$analyze" stats -F csv -f count -m '^W$' --by V:5 "$tmp/edges.csv" | awk -F, 'NR > 2 { printf "%s,%s=%s;", $3, $4, $NF }')
[ "$got" = '"[1037.442, 1432.3128)"=1;"[1432.3128, 1827.1836)"=1;"[1827.1836, 2222.0544)"=1;"[2616.9252, 3011.796]"=2;' ] || fail "short edges: $got"
got=$("$analyze" diff -F json --by V:5 --allow-same "$tmp/edges.csv" "$tmp/edges.csv" 2>/dev/null | jq -r '.groups | keys | join(";")')
[ "$got" = "[1037.442, 1432.3128);[1432.3128, 1827.1836);[1827.1836, 2222.0544);[2616.9252, 3011.796]" ] || fail "diff: edges: $got"
# Errors: text column with bins, bad N, --by-bins without --by.
"$analyze" stats --by ReqCState:3 "$samples/wult-good" > /dev/null 2> "$tmp/err"
[ $? = 1 ] && grep -q "'ReqCState' is a text column; bins need numbers" "$tmp/err" || fail "text bins: $(cat "$tmp/err")"
"$analyze" stats --by V:0 "$tmp/d.csv" > /dev/null 2> "$tmp/err"
[ $? = 2 ] && grep -q "expected COLUMN:N with N a whole number" "$tmp/err" || fail "V:0: $(cat "$tmp/err")"
"$analyze" stats --by-bins 3 "$tmp/d.csv" > /dev/null 2> "$tmp/err"
[ $? = 2 ] && grep -q "needs --by COLUMN" "$tmp/err" || fail "--by-bins alone: $(cat "$tmp/err")"
# --hist per group, over the overall range: group counts add up to the overall ones.
"$analyze" stats -F json -H --bins 4 -m '^WakeLatency$' "$samples/wult-good" > "$tmp/h.json"
[ "$(jq -c '.runs[0] | [.histograms.WakeLatency.counts, .groups.C1E.histograms.WakeLatency.counts, .groups.C6.histograms.WakeLatency.counts, .groups.C6.histograms.WakeLatency.lo == .histograms.WakeLatency.lo]' "$tmp/h.json")" = \
  '[[8,0,0,1],[2,0,0,0],[6,0,0,1],true]' ] || fail "hist per group: $(jq -c '.runs[0].groups' "$tmp/h.json" | head -c 300)"
[ "$("$analyze" stats -H --bins 4 -m '^WakeLatency$' "$samples/wult-good" | grep -c 'WakeLatency histogram')" = 3 ] ||
	fail "text: expected 3 histograms"
[ "$fails" = 0 ] && echo "by bins: all checks passed"
exit $((fails > 0))
