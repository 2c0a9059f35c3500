#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# wult's axes options (--xaxes, --yaxes, --hist, --chist), the Time and Index x axes, their
# errors; and the measured CPU's counters first, in report and in analyze counters.
REPORT=$1 GEN=$2 ANALYZE=$3 SAMPLE=$4
. "$(dirname "$0")/lib.sh"
set -e
plots() { (cd "$1/plots" && ls *.png *.svg 2>/dev/null | tr '\n' ' '); }

gen_run "$W/a" 2000 1 0
# Defaults stay: LDist and SilentTime, histograms, 1 - F and tail.
expect_rc 0 "$REPORT" "$W/a" -o "$W/def" -m '^WakeLatency$'
[ "$(plots "$W/def")" = "m000-cdf.svg m000-hist-states.svg m000-hist.svg m000-tail.svg m000-vs-LDist.png m000-vs-SilentTime.png " ] ||
	fail "default plots: $(plots "$W/def")"

# A list of a pseudo-axis and a regex; no histograms; the cumulative plots by regex.
expect_rc 0 "$REPORT" "$W/a" -o "$W/x" -m '^WakeLatency$' --xaxes 'Index,CC[6]%' --yaxes WakeLatency \
	--hist none --chist 'Wake.*'
[ "$(plots "$W/x")" = "m000-cdf.svg m000-tail.svg m000-vs-Index.png m000-vs-x1.png " ] || fail "plots: $(plots "$W/x")"
grep -q 'WakeLatency against CC6%. Points shown: 2,000 of 2,000' "$W/x/index.html" || fail "CC6% caption"
grep -q '"xl":"Datapoint (order in the run)"' "$W/x/plots/m000-vs-Index.js" || fail "Index axis label"
# Index: x is the row, so every point's x equals its row
grep -q '"v":\[-39.98,2038.98,' "$W/x/plots/m000-vs-Index.js" || fail "Index view: $(grep -o '"v":[^]]*' "$W/x/plots/m000-vs-Index.js")"

# --yaxes names a metric --metrics does not: it is shown, with its scatter plots.
expect_rc 0 "$REPORT" "$W/a" -o "$W/y" -m '^WakeLatency$' --yaxes 'CC6%' --hist none --chist none
[ "$(plots "$W/y")" = "m001-vs-LDist.png m001-vs-SilentTime.png " ] || fail "--yaxes CC6%: $(plots "$W/y")"
grep -q '<section id="m1" class="metric">' "$W/y/index.html" || fail "no CC6% section"
expect_rc 0 "$REPORT" "$W/a" -o "$W/n" -m '^WakeLatency$' --xaxes none
[ "$(plots "$W/n")" = "m000-cdf.svg m000-hist-states.svg m000-hist.svg m000-tail.svg " ] || fail "--xaxes none: $(plots "$W/n")"

# Time: the run's clock (LTime, ns) where every run has it.
awk -F, -v OFS=, 'NR == 1 { print $0, "LTime"; next } { print $0, 5000000000 + (NR - 2) * 2500000 }' \
	"$W/a/datapoints.csv" >"$W/t.csv"
mkdir -p "$W/t" && mv "$W/t.csv" "$W/t/datapoints.csv"
expect_rc 0 "$REPORT" "$W/t" -o "$W/time" -m '^WakeLatency$' --xaxes Time --hist none --chist none
grep -q '"xl":"Time (s from the first LTime)"' "$W/time/plots/m000-vs-Time.js" || fail "Time label"
# 2000 datapoints 2.5 ms apart: 0 to 4.9975 s, padded by 2%
grep -q '"v":\[-0.09995,5.09745,' "$W/time/plots/m000-vs-Time.js" || fail "Time view: $(grep -o '"v":[^]]*' "$W/time/plots/m000-vs-Time.js")"
expect_rc 0 "$REPORT" "$W/a" -o "$W/time2" -m '^WakeLatency$' --xaxes Time --hist none --chist none
grep -q '"xl":"Datapoint (order in the run)"' "$W/time2/plots/m000-vs-Time.js" || fail "Time without LTime"

# Errors: an item matching nothing (data), a bad regex or an empty item (usage).
expect_rc 1 "$REPORT" "$W/a" -o "$W/e1" --xaxes 'LDist,NoSuch'
expect_err "report: --xaxes: 'NoSuch' matches no numeric column that every run has"
expect_rc 2 "$REPORT" "$W/a" -o "$W/e2" --hist 'Wake['
grep -q "^report: --hist: bad regular expression 'Wake\[': " "$W/err.txt" || fail "bad regex: $(cat "$W/err.txt")"
expect_rc 2 "$REPORT" "$W/a" -o "$W/e3" --yaxes 'WakeLatency,'
expect_err "report: --yaxes: an empty item in 'WakeLatency,' (a comma-separated list of metrics, or none)"
[ ! -e "$W/e1" ] && [ ! -e "$W/e2" ] && [ ! -e "$W/e3" ] || fail "a failed report left its directory"

# Counters: the measured CPU (1 in the sample) first, then all CPUs. Over the whole run
# (0.584 s) CPU 1 counted 265 interrupts: 453.5/s; all CPUs 527: 901.9/s.
expect_rc 0 "$REPORT" "$SAMPLE" -o "$W/ctr"
sed -n '/<section id="counters">/,/<\/section>/p' "$W/ctr/index.html" | sed 's/<[^>]*>/ /g' | tr -s ' ' >"$W/ctr.txt"
awk '/The measured CPU/ { m = NR } /System-wide/ { s = NR } END { exit !(m && s && m < s) }' "$W/ctr.txt" ||
	fail "the measured CPU does not come first"
[ "$(grep -o 'IRQ/s [0-9][0-9.]*' "$W/ctr.txt" | tr '\n' ' ')" = "IRQ/s 453.5 IRQ/s 901.9 " ] ||
	fail "IRQ/s: $(grep -o 'IRQ/s [0-9][0-9.]*' "$W/ctr.txt")"
grep -q 'measured CPU (CPU 1)' "$W/ctr.txt" || fail "which CPU"
"$ANALYZE" counters --whole "$SAMPLE" 2>/dev/null >"$W/ac.txt"
[ "$(sed -n 2p "$W/ac.txt")" = "# CPU 1* is the measured CPU: its row first, then all CPUs (-), then the others" ] ||
	fail "analyze counters: $(sed -n 2p "$W/ac.txt")"
[ "$(awk 'NR >= 4 && NR <= 6 { print $3, $5 }' "$W/ac.txt" | tr '\n' ' ')" = "1* 265 - 527 0 262 " ] ||
	fail "analyze counters rows: $(sed -n 4,6p "$W/ac.txt")"
echo PASS
