#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# What the report says: numbers against independently computed ones, filters, the scatter
# reduction and its caption, determinism, --copy-raw, the verdict line.
REPORT=$1 GEN=$2 DATA=$3 SAMPLE=${4:-}
. "$(dirname "$0")/lib.sh"
set -e
GOOD=$DATA/wult-good

# One run: WakeLatency's max and min as awk sees them, the per-state table.
expect_rc 0 "$REPORT" "$GOOD" -o "$W/one" --metrics '^WakeLatency$'
max=$(awk -F, 'NR > 1 && (m == "" || $1 > m) { m = $1 } END { printf "%.2f", m }' "$GOOD/datapoints.csv")
min=$(awk -F, 'NR > 1 && (m == "" || $1 < m) { m = $1 } END { printf "%.2f", m }' "$GOOD/datapoints.csv")
rows=$(($(wc -l <"$GOOD/datapoints.csv") - 1))
c6=$(awk -F, '$6 == "C6"' "$GOOD/datapoints.csv" | wc -l)
row=$(grep -A2 '<th>Run</th><th>datapoints</th><th>max</th>' "$W/one/index.html" | tail -1)
echo "$row" | grep -q "<td class=\"num\">$rows</td><td class=\"num\">$max</td>" || fail "summary row: $row"
echo "$row" | grep -q "<td class=\"num\">$min</td></tr>$" || fail "min: $row"
grep -q "<th rowspan=\"1\">C6</th><td class=\"num\">$c6</td>" "$W/one/index.html" || fail "per-state C6 row"
n=$(ls "$W/one/plots" | grep -cE '\.(png|svg)$')
[ "$n" = 6 ] || fail "$n plots for one metric, expected 6 (2 scatter, histogram, per-state histogram, exceedance, tail)"

# Filters
expect_rc 0 "$REPORT" "$GOOD" -o "$W/c6" --metrics '^WakeLatency$' --include "ReqCState == 'C6'"
grep -q "<th>Datapoints in this report (filtered)</th><td>$c6</td>" "$W/c6/index.html" || fail "--include"
expect_rc 1 "$REPORT" "$GOOD" -o "$W/none" --exclude 'LDist > 0'
expect_err "report: $GOOD/datapoints.csv: no datapoints left after filtering"

# Large runs: the scatter caption counts points; every datapoint is in the histogram.
gen_run "$W/a" 40000 1 0 gen-a
gen_run "$W/b" 40000 2 1.5 gen-b
expect_rc 0 "$REPORT" "$W/a" "$W/b" -o "$W/ab" --metrics '^WakeLatency$' -j 3
cap=$(grep -o 'WakeLatency against LDist. Points shown: [^<]*' "$W/ab/index.html" | tail -1)
shown=$(echo "$cap" | sed 's/.*gen-a: \([0-9,]*\) of 40,000;.*/\1/' | tr -d ,)
[ -n "$shown" ] && [ "$shown" -ge 15000 ] && [ "$shown" -le 17000 ] || fail "caption: $cap"
grep -q '<p class="differs">.*WakeLatency: median +1.5[0-9]* us (+[0-9.]*%) vs gen-a, within-run 95% interval \[+1.[0-9]*, +1.[0-9]*\] (block bootstrap; run-to-run variation unknown), differs in these runs' \
	"$W/ab/index.html" || fail "verdict line: $(grep -o '<p class="differs[^<]*' "$W/ab/index.html")"
grep -q 'significant' "$W/ab/index.html" && fail "one run each, yet 'significant'"
[ -e "$W/ab/plots/m000-runs.svg" ] && fail "a run plot without replicates"

# Replicate runs: configurations, a run-level verdict, every run's median and 99% plotted,
# what else differs in a box above the verdicts.
for i in 1 2 3; do
	gen_run "$W/ra$i" 4000 $i 0 "ra$i"
	gen_run "$W/rb$i" 4000 $((i + 10)) 1.5 "rb$i"
done
printf '{"toolname": "idlescope", "reportid": "rb3", "method": "generated", "system": {"kernel": {"release": "6.2"}}}\n' >"$W/rb3/info.json"
expect_rc 0 "$REPORT" "$W/ra1,$W/ra2,$W/ra3" "$W/rb1,$W/rb2,$W/rb3" -o "$W/rep" --metrics '^WakeLatency$'
# The runs mix idle states: the all-states line is descriptive, the verdicts are per state.
grep -q '<p class="nosig">.*rb — WakeLatency: median +1.[45][0-9]* us (+[0-9.]*%) vs ra (3 vs 3 runs), 95% CI \[+1.[0-9]*, +1.[0-9]*\], descriptive: all groups together are a mixture' "$W/rep/index.html" ||
	fail "all-states verdict: $(grep -o '<p class="[a-z]*">[^<]*<[^<]*' "$W/rep/index.html" | head -3)"
grep -q '<p class="sig">.*rb — ReqCState = C6: WakeLatency: median +1.[45][0-9]* us (+[0-9.]*%) vs ra (3 vs 3 runs), 95% CI \[+1.[0-9]*, +1.[0-9]*\], changed: significant (Holm-adjusted p = [0-9.e-]* in a family of [0-9]*; random-effects t on run medians' "$W/rep/index.html" ||
	fail "run-level verdict: $(grep -o '<p class="[a-z]*">[^<]*<[^<]*' "$W/rep/index.html" | head -3)"
[ -s "$W/rep/plots/m000-runs.svg" ] || fail "no plot of the runs' medians"
grep -q 'thin lines: each run, thick: each configuration' "$W/rep/index.html" ||
	fail "no pooled distributions in the CDF/tail captions"
grep -q "runs pooled" "$W/ab/index.html" && fail "pooled lines without replicates"
grep -q 'src="plots/m000-runs.svg"' "$W/rep/index.html" || fail "the runs plot is not on the page"
grep -q '<div class="warnings">' "$W/rep/index.html" || fail "no confounder box"
grep -q '<li>system.kernel.release differs: ra: (none); rb: (none) | 6.2</li>' "$W/rep/index.html" ||
	fail "confounder: $(grep -o '<li>[^<]*' "$W/rep/index.html")"
grep -q '<th>Configuration</th>' "$W/rep/index.html" || fail "no Configuration column"
grep -q '<td>ra (reference)</td>' "$W/rep/index.html" || fail "no Configuration row"
expect_rc 0 "$REPORT" "$W/ra1,$W/ra2,$W/ra3" "$W/rb1,$W/rb2,$W/rb3" -o "$W/rep2" --ref rb --metrics '^WakeLatency$'
grep -q 'vs rb (3 vs 3 runs)' "$W/rep2/index.html" || fail "--ref rb"
expect_rc 2 "$REPORT" "$W/ra1,$W/ra2" "$W/rb1" -o "$W/rep3" --ref nope
expect_err "report: --ref: no configuration named 'nope' (there are 'ra', 'rb1')"
# The same input gives the same report, byte for byte.
expect_rc 0 "$REPORT" "$W/a" "$W/b" -o "$W/ab2" --metrics '^WakeLatency$' -j 1
diff -r "$W/ab" "$W/ab2" >/dev/null || fail "two reports of the same input differ"

# Metrics some runs lack are left out, and the page says so.
mkdir "$W/cut"
cut -d, -f1-6 "$W/a/datapoints.csv" >"$W/cut/datapoints.csv"
expect_rc 0 "$REPORT" "$GOOD" "$W/cut" -o "$W/cutrep"
grep -q 'Metrics left out because some runs do not have them: CC0% (not in cut); CC1Derived% (not in cut); CC1% (not in cut); CC6% (not in cut); PC2% (not in cut); PC6% (not in cut).' \
	"$W/cutrep/index.html" || fail "left-out metrics note"
[ "$(grep -c 'class="metric"' "$W/cutrep/index.html")" = 4 ] || fail "metric sections with a cut run"

# --copy-raw
expect_rc 0 "$REPORT" "$GOOD" "$W/a" -o "$W/raw" --metrics '^WakeLatency$' --copy-raw
cmp -s "$GOOD/datapoints.csv" "$W/raw/raw/run1/datapoints.csv" || fail "raw datapoints differ"
cmp -s "$GOOD/info.yml" "$W/raw/raw/run1/info.yml" || fail "raw info.yml differs"
cmp -s "$W/a/info.json" "$W/raw/raw/run2/info.json" || fail "raw info.json differs"
grep -q '<a href="raw/run2/">raw/run2/</a>' "$W/raw/index.html" || fail "no link to raw data"
# Counters: a run with counters.csv gets the section, its table and plots over time.
if [ -n "$SAMPLE" ] && [ -s "$SAMPLE/counters.csv" ]; then
	expect_rc 0 "$REPORT" "$SAMPLE" "$SAMPLE" -o "$W/cnt" --metrics '^WakeLatency$'
	page=$W/cnt/index.html
	grep -q '<section id="counters">' "$page" || fail "no counters section"
	sed -n '/<section id="counters">/,/<\/section>/p' "$page" >"$W/cnt.html"
	[ "$(grep -c '<tr><th>' "$W/cnt.html")" -ge 3 ] || fail "counters table"
	grep -q '<span class="chg same">0 (0%)</span>' "$W/cnt.html" || fail "no change cells for counters"
	n=$(grep -o 'src="plots/c[0-9]*.svg"' "$W/cnt.html" | wc -l)
	[ "$n" -ge 1 ] && [ "$(ls "$W"/cnt/plots/c*.svg | wc -l)" = "$n" ] || fail "counter plots: $n"
fi
# A run from a CPU without a cpuidle driver: ReqCState all empty, no idle states in info.json.
if [ -n "$SAMPLE" ] && [ -s "$SAMPLE/info.json" ]; then
	mkdir -p "$W/nostates"
	jq '.system.cpuidle.states = []' "$SAMPLE/info.json" >"$W/nostates/info.json"
	awk -F, -v OFS=, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "ReqCState") g = i; print; next } { $g = ""; print }' \
		"$SAMPLE/datapoints.csv" >"$W/nostates/datapoints.csv"
	expect_rc 0 "$REPORT" "$W/nostates" -o "$W/ns" --metrics '^WakeLatency$'
	grep -q 'Per requested idle state' "$W/ns/index.html" && fail "per-state table for an all-empty ReqCState"
	grep -q '<th>Idle states (latency/residency)</th><td>none</td>' "$W/ns/index.html" || fail "idle states not 'none'"
fi
# Two runs with one reportid: the intro shows each run's own ID (the columns are told apart
# by their headers); the same run twice is reported with a warning.
if [ -n "$SAMPLE" ] && [ -s "$SAMPLE/info.json" ]; then
	id=$(jq -r .reportid "$SAMPLE/info.json")
	cp -r "$SAMPLE" "$W/copy"
	expect_rc 0 "$REPORT" "$SAMPLE" "$W/copy" -o "$W/dup" --metrics '^WakeLatency$'
	grep -q "<tr><th>Report ID</th><td>$id</td><td>$id</td>" "$W/dup/index.html" || fail "Report ID row of two runs with one ID"
	expect_rc 0 "$REPORT" "$SAMPLE" "$SAMPLE/" -o "$W/same" --metrics '^WakeLatency$'
	expect_err "report: warning: '$SAMPLE' and '$SAMPLE/' are the same run: its columns will be equal"
fi
echo PASS
