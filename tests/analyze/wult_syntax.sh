#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# wult's filter syntax: "&", "|" and "~" are and, or and not (with their precedence: "&"
# binds tighter than "|", as in pandas' query), and "index" is the 0-based row number unless
# the file has a column of that name.
# usage: wult_syntax.sh ANALYZE SAMPLES_DIR
set -u
TEST_KEEP_GOING=1
. "$(dirname "$0")/../common/test-lib.sh"
analyze=$1 samples=$2
tmp=$(mktemp -d)
test_when_finished 'rm -rf "$tmp"'
# rows RUN EXPR: the rows analyze stats keeps
rows() { "$analyze" stats -F csv -G -f count -m "$3" -i "$2" "$1" | tail -1 | cut -d, -f4; }
check() {  # check RUN METRIC EXPR EXPECTED
	local got
	got=$(rows "$1" "$3" "$2")
	[ "$got" = "$4" ] || fail "$1: -i \"$3\": $got rows, expected $4"
}
w=$samples/wult-good t=$samples/timer-c200
check "$w" WakeLatency "CC6% > 0 & PC6% == 0" 1
check "$w" WakeLatency "CC6% > 0 and PC6% == 0" 1
check "$w" WakeLatency "PC6% == 0 | CC1% > 40 & CC6% < 50" 4     # & first: 3 + 1
check "$w" WakeLatency "(PC6% == 0 | CC1% > 40) & CC6% < 50" 3
check "$w" WakeLatency "~(PC6% == 0)" 6
check "$w" WakeLatency "~ PC6% == 0 & ReqCState == 'C6'" 6       # ~ is not: below comparisons
check "$w" WakeLatency "CC6% > 0&PC2% > 50|CC1%>90" 6
check "$t" LDist "index < 10" 10
check "$t" LDist "index >= 190 | LDist < 0" 10
check "$t" LDist "index == 0 & LDist > 1266.8 & LDist < 1266.9" 1
# The first ten rows really are the file's first ten.
"$analyze" stats -F csv -G -f max -m LDist -i "index < 10" "$t" | tail -1 > a.txt 2>/dev/null
want=$(sed -n 2,11p "$t/datapoints.csv" | cut -d, -f1 | sort -g | tail -1)
[ "$(cut -d, -f6 a.txt)" = "$want" ] || fail "index < 10: max LDist $(cut -d, -f6 a.txt), expected $want"
rm -f a.txt
# A column named index is the column; analyze filter takes the syntax too.
mkdir "$tmp/ix" && printf 'index,V\n5,1\n6,2\n7,3\n' > "$tmp/ix/datapoints.csv"
check "$tmp/ix" V "index < 6" 1
check "$tmp/ix" V "index >= 0 & index < 2" 0
"$analyze" filter "$t" -o "$tmp/f" -i "index < 100 & ~(LDist > 3000)" 2> "$tmp/err" ||
	fail "filter: $(cat "$tmp/err")"
grep -q "f: 70 of 200 datapoints kept" "$tmp/err" || fail "filter: $(cat "$tmp/err")"
# Errors still name the place; "&&" is not an operator.
"$analyze" stats -i "LDist > 1 && LDist < 5" "$t" > /dev/null 2> "$tmp/err"
[ $? = 2 ] && grep -q "got '&' at column 12" "$tmp/err" || fail "'&&': $(cat "$tmp/err")"
[ "$fails" = 0 ] && echo "wult syntax: all checks passed"
exit $((fails > 0))
