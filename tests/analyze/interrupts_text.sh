#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# A wult result with stats-collect's stats/interrupts.raw.txt (snapshots of /proc/interrupts)
# gets the measured CPU's interrupt rates beside the counter summary: analyze diff compares
# them and report shows them. The fixture: 3 complete snapshots 2 s apart and a 4th cut off.
# usage: interrupts_text.sh ANALYZE REPORT SAMPLES_DIR DATA_DIR
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
	cp "$data/interrupts.raw.txt" "$tmp/$r/stats/"
done
# b measured CPU 1 (wult's old key): CPU1's column.
sed -i -e 's/^cpu: 0/cpunum: 1/' "$tmp/b/info.yml"
keys='[.["Intr/s"].values, .["LOC/s"].values, .["RES/s"].values, .["CAL/s"].values, .["TLB/s"].values, .["DevIRQ/s"].values]'
"$analyze" diff -F json "$tmp/a" "$tmp/b" > "$tmp/d.json" 2> "$tmp/err" || fail "diff: $(cat "$tmp/err")"
got=$(jq -c ".counters | $keys" "$tmp/d.json")
[ "$got" = '[[1110.5,531.5],[1000,500],[75,25],[15,5],[2,1],[17.5,0.25]]' ] || fail "diff interrupts: $got"
"$analyze" diff "$tmp/a" "$tmp/b" 2>/dev/null | grep -q '^LOC/s *1000.000 *500.000 *-500.000 *-50.0%$' ||
	fail "diff text LOC/s row: $("$analyze" diff "$tmp/a" "$tmp/b" 2>&1 | grep LOC)"
# With turbostat's text as well: both sets of columns.
cp "$data/turbostat.raw.txt" "$tmp/a/stats/"
"$analyze" diff -F json "$tmp/a" "$tmp/b" 2>/dev/null | jq -c '.counters | [.["Busy%"].values, .["LOC/s"].values]' > "$tmp/o"
[ "$(cat "$tmp/o")" = '[[2,null],[1000,500]]' ] || fail "with turbostat: $(cat "$tmp/o")"
rm "$tmp/a/stats/turbostat.raw.txt"
# report: the Counters section has them, and does not say they came from counters.csv.
"$report" "$tmp/a" "$tmp/b" -o "$tmp/rep" > /dev/null 2> "$tmp/err" || fail "report: $(cat "$tmp/err")"
grep -q 'id="counters"' "$tmp/rep/index.html" && grep -q '<th>LOC/s</th>' "$tmp/rep/index.html" ||
	fail "report has no interrupt rates"
grep -q 'stats/interrupts.raw.txt' "$tmp/rep/index.html" || fail "report: the note does not name the source"
grep -q 'from counters.csv' "$tmp/rep/index.html" && fail "report: the note says counters.csv"
# A 32-bit count that wraps between snapshots counts what it went up by.
sed -i -e 's/^LOC: 10000 /LOC: 4294967000 /;s/^LOC: 12000 /LOC: 1704 /;s/^LOC: 14000 /LOC: 3704 /' \
	"$tmp/a/stats/interrupts.raw.txt"
got=$("$analyze" diff -F json "$tmp/a" "$tmp/b" 2>/dev/null | jq -c '.counters["LOC/s"].values')
[ "$got" = '[1000,500]' ] || fail "wrap: $got"
# Blanks after a timestamp are fine.
sed -i 's/^\(timestamp: .*\)$/\1  /' "$tmp/a/stats/interrupts.raw.txt"
got=$("$analyze" diff -F json "$tmp/a" "$tmp/b" 2>/dev/null | jq -c '.counters["LOC/s"].values')
[ "$got" = '[1000,500]' ] || fail "blanks after a timestamp: $got"
# The helper's last words end the data; the cut 4th snapshot was never counted.
printf 'stc-agent-proc-interrupts-helper: error: interrupted, exiting\nLOC: x\n' >> "$tmp/b/stats/interrupts.raw.txt"
got=$("$analyze" diff -F json "$tmp/a" "$tmp/b" 2>/dev/null | jq -c '.counters["Intr/s"].values')
[ "$got" = '[1110.5,531.5]' ] || fail "end marker: $got"
# A last line without its end of line was cut while written (its counts may be cut too): the
# snapshot it ends is not taken, even when its row name matches the snapshot before's last.
# Here a 4th snapshot repeats the 3rd 2 s later: taken, it would lower every rate by a third.
{ sed -n '1,42p' "$data/interrupts.raw.txt"; sed -n '29,40p' "$data/interrupts.raw.txt" |
	sed 's/^timestamp: 1700000004.5/timestamp: 1700000006.5/'; printf 'PIN: 0 0'; } > "$tmp/b/stats/interrupts.raw.txt"
got=$("$analyze" diff -F json "$tmp/a" "$tmp/b" 2>/dev/null | jq -c '.counters["Intr/s"].values')
[ "$got" = '[1110.5,531.5]' ] || fail "a cut last line: $got"
cp "$data/interrupts.raw.txt" "$tmp/b/stats/interrupts.raw.txt"
# Bad text: file, line and field; exit 1.
check_bad() {  # sed-expression expected-message
	cp "$data/interrupts.raw.txt" "$tmp/a/stats/interrupts.raw.txt"
	sed -i -e "$1" "$tmp/a/stats/interrupts.raw.txt"
	"$analyze" diff "$tmp/a" "$tmp/b" > /dev/null 2> "$tmp/err"
	local rc=$?
	[ $rc = 1 ] && grep -qF "$2" "$tmp/err" || fail "bad input '$1': rc $rc, $(cat "$tmp/err")"
}
check_bad '6s/^LOC: 10000 /LOC: x1 /' "stats/interrupts.raw.txt:6: field 'LOC': expected a count, got 'x1'"
check_bad '6s/^LOC: 10000 /LOC: 18446744073709551616 /' "interrupts.raw.txt:6: field 'LOC': a count above 2^64, got '18446744073709551616'"
check_bad '20s/^LOC: 12000 /LOC: 4294967297 /;34s/^LOC: 14000 /LOC: 5 /' "interrupts.raw.txt:34: field 'LOC': a count that goes down, got '5 after 4294967297'"
check_bad '2s/.*/ CPU2 CPU3/' "interrupts.raw.txt:2: field 'CPU0': the measured CPU is not among the columns"
check_bad '2s/.*/ CPU0 CPUx/' "interrupts.raw.txt:2: field 'header': expected CPU<number> columns, got 'CPUx'"
check_bad '15s/.*/timestamp: soon/' "interrupts.raw.txt:15: field 'timestamp': expected seconds since the epoch, got 'soon'"
check_bad '15s/.*/timestamp: 1600000000.0/' "interrupts.raw.txt:15: field 'timestamp': expected a time after the previous snapshot's"
check_bad '1d' "interrupts.raw.txt:2: field '32': expected a 'timestamp:' line and a CPU header before the rows"
check_bad '7s/^IWI: 10 1/IWI 10 1/' "interrupts.raw.txt:7: field 'row': expected 'NAME: counts' (a /proc/interrupts row), got 'IWI'"
check_bad '8s/^RES/LOC/' "interrupts.raw.txt:8: field 'LOC': a row twice in one snapshot"
[ "$fails" = 0 ] && echo "interrupts text: all checks passed"
exit $((fails > 0))
