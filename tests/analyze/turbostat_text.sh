#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# A wult result with stats-collect's stats/turbostat.raw.txt (and no counters.csv) gets counter
# summaries from turbostat's text: analyze diff compares them and report shows them.
# usage: turbostat_text.sh ANALYZE REPORT SAMPLES_DIR DATA_DIR
set -u
TEST_KEEP_GOING=1
. "$(dirname "$0")/../common/test-lib.sh"
analyze=$1 report=$2 samples=$3 data=$4
tmp=$(mktemp -d)
test_when_finished 'rm -rf "$tmp"'
for r in a b; do
	mkdir -p "$tmp/$r/stats"
	cp "$samples/wult-good/datapoints.csv" "$samples/wult-good/info.yml" "$tmp/$r/"
	sed -e "s/reportid: testdata/reportid: $r/" -i "$tmp/$r/info.yml"
	cp "$data/turbostat.raw.txt" "$tmp/$r/stats/"
done
# b: Busy% of the second interval 3.00 -> 5.00, so its average is 3 instead of 2.
sed -i 's/^\(1700000002.000000\t-\t-\t30\t\)3.00/\15.00/' "$tmp/b/stats/turbostat.raw.txt"
"$analyze" diff -F json "$tmp/a" "$tmp/b" > "$tmp/d.json" 2> "$tmp/err" || fail "diff: $(cat "$tmp/err")"
got=$(jq -c '.counters | [.["Busy%"].values, .["IRQ/s"].values, .["C6/s"].values, .PkgWatt.values, .CoreTmp.values, .["Pkg%pc6"].values, has("Core"), has("Time_Of_Day_Seconds")]' "$tmp/d.json")
[ "$got" = '[[2,3],[1500,1500],[150,150],[65,65],[42,42],[30,30],false,false]' ] || fail "diff counters: $got"
"$analyze" diff "$tmp/a" "$tmp/b" 2>/dev/null | grep -q '^Busy% *2.000 *3.000 *+1.000 *+50.0%$' || fail "diff text Busy% row"
# report: a Counters section with the turbostat columns.
"$report" "$tmp/a" "$tmp/b" -o "$tmp/rep" > /dev/null 2> "$tmp/err" || fail "report: $(cat "$tmp/err")"
grep -q 'id="counters"' "$tmp/rep/index.html" && grep -q 'Busy%' "$tmp/rep/index.html" || fail "report has no counters"
# Its note names turbostat's text as the source, not counters.csv (there is none).
grep -q "from turbostat's text (stats/turbostat.raw.txt):" "$tmp/rep/index.html" &&
	! grep -q 'from counters.csv' "$tmp/rep/index.html" || fail "report note: $(grep -o 'System-wide[^:]*' "$tmp/rep/index.html")"
# Without Time_Of_Day_Seconds: no rates (the interval is not known), the rest as before.
cut -f2- "$data/turbostat.raw.txt" | grep -v '^turbostat version\|^CPUID' > "$tmp/a/stats/turbostat.raw.txt"
"$analyze" diff -F json "$tmp/b" "$tmp/a" 2>/dev/null | jq -c '.counters | [.["Busy%"].values, .["IRQ/s"].values]' > "$tmp/o"
[ "$(cat "$tmp/o")" = '[[3,2],[1500,null]]' ] || fail "no time: $(cat "$tmp/o")"
# Bad text: file, line and field; exit 1. No table at all: said so.
printf 'Core\tCPU\tAvg_MHz\tBusy%%\tBzy_MHz\n-\t-\t10\tx1\t1000\n' > "$tmp/a/stats/turbostat.raw.txt"
"$analyze" diff "$tmp/a" "$tmp/b" > /dev/null 2> "$tmp/err"
[ $? = 1 ] && grep -q "stats/turbostat.raw.txt:2: field 'Busy%': expected a number, got 'x1'" "$tmp/err" || fail "bad number: $(cat "$tmp/err")"
echo "not turbostat" > "$tmp/a/stats/turbostat.raw.txt"
"$analyze" diff "$tmp/a" "$tmp/b" > /dev/null 2> "$tmp/err"
[ $? = 1 ] && grep -q "turbostat.raw.txt: no turbostat table" "$tmp/err" || fail "no table: $(cat "$tmp/err")"
[ "$fails" = 0 ] && echo "turbostat text: all checks passed"
exit $((fails > 0))
