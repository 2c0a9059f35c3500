#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# report on values analyze accepts but gnuplot and 32-bit floats cannot hold as they are:
# near DBL_MAX, subnormal, constant at 1e15 or 1e308, a spread of 1e-16 of their size, results
# that overflow (std of -1.7e308, 1.7e308), a column without values. Every one is plotted (with
# the axis saying how) or explained; none fails inside gnuplot.
# usage: extreme.sh REPORT
REPORT=$1
. "$(dirname "$0")/lib.sh"
command -v gnuplot > /dev/null || { echo "gnuplot not installed: skipped"; exit 77; }
set -e

# mk NAME ROW...: a run with WakeLatency, LDist and SilentTime
mk() {
	local name=$1
	shift
	mkdir -p "$W/$name"
	{ echo "WakeLatency,LDist,SilentTime"; printf '%s\n' "$@"; } > "$W/$name/datapoints.csv"
}
# plotted NAME LABEL: the report of run NAME has all of WakeLatency's plots, labelled LABEL
plotted() {
	expect_rc 0 "$REPORT" "$W/$1" -o "$W/rep-$1"
	expect_err ""
	for p in hist cdf tail; do
		[ -s "$W/rep-$1/plots/m000-$p.svg" ] || fail "$1: no m000-$p.svg"
	done
	for x in LDist SilentTime; do
		[ -s "$W/rep-$1/plots/m000-vs-$x.png" ] || fail "$1: no m000-vs-$x.png"
	done
	grep -qF ">$2</text>" "$W/rep-$1/plots/m000-hist.svg" ||
		fail "$1: histogram axis not labelled '$2': $(grep -o 'WakeLatency[^<]*' "$W/rep-$1/plots/m000-hist.svg" | sort -u)"
	echo "ok: $1 plotted as '$2'"
}

mk huge "1e308,100,50" "1e308,200,60" "1.5e308,300,70"
plotted huge "WakeLatency (us) / 1e+308"
mk both_signs "-1.7e308,100,50" "1e308,200,60" "1.5e308,300,70"
plotted both_signs "WakeLatency (us) / 1e+308"
mk mid "1e40,100,50" "2e40,200,60" "3e40,300,70"
plotted mid "WakeLatency (us) / 1e+40"
mk subnormal "5e-324,100,50" "1e-323,200,60" "1.5e-323,300,70"
plotted subnormal "WakeLatency (us) / 1e-323"
mk const15 "1e15,100,50" "1e15,200,60" "1000000000000000.25,300,70"
plotted const15 "WakeLatency (us) - 1000000000000000"
mk const308 "1e308,100,50" "1e308,200,60"
plotted const308 "WakeLatency (us) - 1e+308"
mk const5 "5,100,50" "5,200,60"
plotted const5 "WakeLatency (us)"

# huge scatter x axes too
mk hugex "1,1e308,1e-320" "2,1.5e308,2e-320" "3,1.2e308,3e-320"
plotted hugex "WakeLatency (us)"

# std overflows (the true std, 1.7e308 * sqrt(2), is no double): "overflow", not "inf"
mk overflow "-1.7e308,100,50" "1.7e308,200,60"
expect_rc 0 "$REPORT" "$W/overflow" "$W/huge" -o "$W/rep-overflow"
grep -q '<td[^>]*>overflow' "$W/rep-overflow/index.html" || fail "overflow: std not shown as overflow"
# (the verdict lines, lib/diff/diff_verdict.c, are not this test's: issue 11 item 14)
grep -v 'class="nosig"\|class="sig"' "$W/rep-overflow/index.html" | grep -qi '>[^<]*\binf\b' &&
	fail "overflow: 'inf' in the page"
echo "ok: an overflowing std is 'overflow'"

# no value at all: left out with one note (as analyze stats/diff), and a line on the page
mk empty ",100,50" ",200,60"
expect_rc 0 "$REPORT" "$W/empty" -o "$W/rep-empty"
grep -qx "report: note: no values in WakeLatency; left out" "$W/err.txt" || fail "empty: note: $(cat "$W/err.txt")"
grep -q "No values in WakeLatency; left out (no table, no plot)." "$W/rep-empty/index.html" ||
	fail "empty: no explanation"
grep -q "<h2>WakeLatency" "$W/rep-empty/index.html" && fail "empty: a section for WakeLatency"
echo "ok: a column without values is left out, with a note"
echo "all extreme-value report tests passed"
