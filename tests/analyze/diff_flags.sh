#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# analyze diff: a 0/1 flag (IntrOff) is compared as a proportion (count and share; Fisher's
# exact test for small counts, else the two-proportion z test; at run level Welch's t on the
# runs' shares), not with Mann-Whitney/KS; columns with no values are left out with one note.
# The p-values were computed independently (Python: math.comb for Fisher, erfc for z,
# Simpson's rule on the t density for Welch).
# usage: diff_flags.sh ANALYZE
set -u
TEST_KEEP_GOING=1
. "$(dirname "$0")/../common/test-lib.sh"
analyze=$1
tmp=$(mktemp -d)
test_when_finished 'rm -rf "$tmp"'
# run DIR ROWS ONES_PER_100: IntrOff = 1 on the first ONES of every 100 rows; C1/C6 alternate.
run() {
	mkdir -p "$1"
	awk -v n="$2" -v k="$3" 'BEGIN { print "WakeLatency,IntrLatency,IntrOff,ReqCState";
		for (i = 0; i < n; i++) printf "%d,,%d,%s\n", 10 + i % 37, (i % 100 < k), (i % 2 ? "C1" : "C6") }' \
		> "$1/datapoints.csv"
}
run "$tmp/a" 400 10
run "$tmp/b" 400 20
"$analyze" diff "$tmp/a" "$tmp/b" > "$tmp/out" 2> "$tmp/err" || fail "diff: $(cat "$tmp/err")"
[ "$(cat "$tmp/err")" = "analyze: note: no values in IntrLatency; left out" ] || fail "note: $(cat "$tmp/err")"
grep -q 'IntrLatency\|^IntrOff  *[a-z]*  *[0-9.]*  *[0-9.]*  *[+-]' "$tmp/out" && grep -q '^IntrOff *b *1 vs 1' "$tmp/out" &&
	fail "IntrOff or IntrLatency still compared as a metric"
grep -q '^IntrOff  *a  *400  *40  *10.00%$' "$tmp/out" || fail "text: reference row: $(grep IntrOff "$tmp/out" | head -2)"
grep -q '^IntrOff  *b  *400  *80  *20.00%  *+10.00 pts  *7.5e-05  two-proportion-z, differs in these runs$' "$tmp/out" ||
	fail "text: b row: $(grep IntrOff "$tmp/out" | head -2)"
[ "$(grep -c '^IntrOff  *b ' "$tmp/out")" = 3 ] || fail "text: not overall + 2 groups"
"$analyze" diff -F json "$tmp/a" "$tmp/b" > "$tmp/j" 2>/dev/null
got=$(jq -c '[(.metrics | keys), .flags.IntrOff.values, .flags.IntrOff.set, .flags.IntrOff.share, .flags.IntrOff.tests, .groups.C1.flags.IntrOff.tests[1].p]' "$tmp/j")
[ "$got" = '[["WakeLatency"],[400,400],[40,80],[0.1,0.2],[null,{"level":"datapoint","method":"two-proportion-z","diff":0.1,"p":7.476475346732556e-05,"differs":true,"significant":false}],0.005101399646004991]' ] ||
	fail "json: $got"
"$analyze" diff -F csv -G "$tmp/a" "$tmp/b" 2>/dev/null | grep '^flag' > "$tmp/csv"
grep -qx 'flag,,,IntrOff,share,b,0.2,,' "$tmp/csv" && grep -qx 'flagtest,,,IntrOff,p,b,7.476475346732556e-05,,' "$tmp/csv" &&
	grep -qx 'flagtest,,,IntrOff,fisher_exact,b,0,,' "$tmp/csv" || fail "csv: $(cat "$tmp/csv")"
"$analyze" diff -F csv -G "$tmp/a" "$tmp/b" 2>/dev/null | grep -q '^stat,,,IntrOff' && fail "csv: IntrOff as a stat"
# Small counts (an expected cell below 5): Fisher's exact test, 1 of 12 against 8 of 12.
run "$tmp/s1" 12 0; run "$tmp/s2" 12 0
sed -i '2s/,0,/,1,/' "$tmp/s1/datapoints.csv"
sed -i '2,9s/,0,/,1,/' "$tmp/s2/datapoints.csv"
got=$("$analyze" diff -G -F json "$tmp/s1" "$tmp/s2" 2>/dev/null | jq -c '.flags.IntrOff | [.set, .tests[1].method, (.tests[1].p * 1e12 | round)]')
[ "$got" = '[[1,8],"fisher-exact",9422533315]' ] || fail "fisher: $got"
# Run level (3 runs each, the run is the unit): Welch's t on the runs' shares 10, 12, 8 %
# against 20, 22, 18 %: t = 6.124, df = 4, p = 0.003602.
for x in 1:10 2:12 3:8; do run "$tmp/a${x%:*}" 100 "${x#*:}"; done
for x in 1:20 2:22 3:18; do run "$tmp/b${x%:*}" 100 "${x#*:}"; done
got=$("$analyze" diff -G -F json "$tmp/a1,$tmp/a2,$tmp/a3" "$tmp/b1,$tmp/b2,$tmp/b3" 2>/dev/null |
	jq -c '.flags.IntrOff | [.share, (.runs | map(.share)), .tests[1].level, .tests[1].method, (.tests[1].p * 1e6 | round), .tests[1].significant]')
[ "$got" = '[[0.1,0.2],[0.1,0.12,0.08,0.2,0.22,0.18],"run","welch-run-shares",3602,true]' ] || fail "run level: $got"
# A column empty in one run only: named with that run; no metric table rows for it.
sed -i '2s/^10,,/10,5,/' "$tmp/a/datapoints.csv"
"$analyze" diff "$tmp/a" "$tmp/b" 2>&1 >/dev/null | grep -qx "analyze: note: no values in IntrLatency (in b); left out" ||
	fail "partial: $("$analyze" diff "$tmp/a" "$tmp/b" 2>&1 >/dev/null)"
# IntrOff with a 2 in it is not a flag: a metric again.
sed -i '20s/,0,C6$/,2,C6/' "$tmp/a/datapoints.csv"
"$analyze" diff -F json "$tmp/a" "$tmp/b" 2>/dev/null | jq -e '.metrics | has("IntrOff")' > /dev/null || fail "0/1/2 is a metric"
[ "$fails" = 0 ] && echo "diff flags: all checks passed"
exit $((fails > 0))
