#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Counter-only runs (collect --counters -o ctr1): analyze diff and report compare them with
# what they have, their counter summaries.
# usage: counters_only.sh ANALYZE REPORT SAMPLE_RUN_WITH_COUNTERS
set -u
TEST_KEEP_GOING=1
. "$(dirname "$0")/../common/test-lib.sh"
analyze=$1 report=$2 src=$3
tmp=$(mktemp -d)
test_when_finished 'rm -rf "$tmp"'
for r in c1 c2; do
	mkdir "$tmp/$r"
	cp "$src/counters.csv" "$tmp/$r/"
	printf '{"toolname": "idlescope", "format_version": "1.0", "reportid": "%s"}\n' "$r" > "$tmp/$r/info.json"
done
# c2: every IRQ count doubled (IRQ is a raw counter: its rate doubles).
awk -F, -v OFS=, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "IRQ") c = i; print; next }
	{ if ($c != "") $c = 2 * $c; print }' "$src/counters.csv" > "$tmp/c2/counters.csv"
"$analyze" diff -F json "$tmp/c1" "$tmp/c2" > "$tmp/d.json" 2> "$tmp/err" || fail "diff json: $(cat "$tmp/err")"
[ "$(jq -c '[.runs[].reportid]' "$tmp/d.json")" = '["c1","c2"]' ] || fail "runs: $(jq -c .runs "$tmp/d.json")"
[ "$(jq '.counters["IRQ/s"].pct[1]' "$tmp/d.json")" = 100 ] || fail "IRQ/s pct: $(jq -c '.counters["IRQ/s"]' "$tmp/d.json")"
"$analyze" diff "$tmp/c1" "$tmp/c2" > "$tmp/d.txt" 2> "$tmp/err" || fail "diff text: $(cat "$tmp/err")"
grep -q '^Reference: c1 (.*c1, idlescope), counters only$' "$tmp/d.txt" || fail "text header: $(head -2 "$tmp/d.txt")"
grep -q '^IRQ/s .* +100.0%$' "$tmp/d.txt" || fail "text IRQ/s row: $(grep IRQ "$tmp/d.txt")"
"$analyze" diff -F csv "$tmp/c1" "$tmp/c2" | grep -q '^counter,,,IRQ/s,,c2,.*,100$' || fail "csv IRQ/s row"
# A counter-only run beside a latency run: one clear error.
"$analyze" diff "$tmp/c1" "$src" > /dev/null 2> "$tmp/err"
[ $? = 1 ] && grep -q "c1: not a run directory (no datapoints.csv); it is a counter-only run" "$tmp/err" ||
	fail "mixed: $(cat "$tmp/err")"
# report: the runs table and the Counters section, no metric sections; --copy-raw copies what there is.
"$report" "$tmp/c1" "$tmp/c2" -o "$tmp/rep" --copy-raw > /dev/null 2> "$tmp/err" || fail "report: $(cat "$tmp/err")"
grep -q '<section id="counters">' "$tmp/rep/index.html" || fail "report: no counters section"
grep -q 'IRQ/s' "$tmp/rep/index.html" || fail "report: no IRQ/s"
[ -f "$tmp/rep/raw/run2/counters.csv" ] && [ ! -e "$tmp/rep/raw/run2/datapoints.csv" ] || fail "report raw copy"
[ "$fails" = 0 ] && echo "counter-only runs: all checks passed"
exit $((fails > 0))
