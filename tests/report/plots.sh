#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Plots that read well on heavy-tailed data (issue 15), checked on the data written for
# gnuplot (--keep-plot-data): the histogram's range leaves no bin with more than half of
# the shown datapoints and its overflow bar counts exactly the datapoints beyond the range;
# the scatter y axis ends at the same edge and counts the points above it; the tail plot
# reaches the maximum; the exceedance plot ends at one datapoint; captions are exact and
# singular for one; metric order; counter plots of a nearly constant counter.
REPORT=$1 SAMPLE=$2 HEAVY=$3
. "$(dirname "$0")/lib.sh"
set -e

# A heavy-tailed run (bench/gen_heavy.sh): two states, log-normal bodies around 45 and
# 90 us, 2% of Pareto outliers up to 9000 us (as bpf on a VM: median ~75 us, max ~9000 us).
mkdir "$W/heavy"
bash "$HEAVY" 20000 7 90 >"$W/heavy/datapoints.csv"
csv=$W/heavy/datapoints.csv
rows=20000

# Metric order: WakeLatency and IntrLatency first whatever the column order ...
expect_rc 0 "$REPORT" "$W/heavy" -o "$W/rep" --keep-plot-data
order=$(grep -A1 '<section id="m[0-9]*" class="metric">' "$W/rep/index.html" | grep -o '<h2>[^ <]*' | sed 's/<h2>//' | tr '\n' ' ')
[ "$order" = "WakeLatency IntrLatency SilentTime LDist " ] || fail "metric order: $order"
# ... and --metrics sets it.
expect_rc 0 "$REPORT" "$W/heavy" -o "$W/ord" --metrics '^(LDist|IntrLatency|WakeLatency)$'
order=$(grep -A1 '<section id="m[0-9]*" class="metric">' "$W/ord/index.html" | grep -o '<h2>[^ <]*' | sed 's/<h2>//' | tr '\n' ' ')
[ "$order" = "LDist IntrLatency WakeLatency " ] || fail "--metrics order: $order"

# hist_check FILE COLUMN ROWS: the histogram data of a run against the CSV; prints the edge
hist_check() {
	local f=$1 col=$2 n=$3
	[ -s "$f" ] || fail "no histogram data $f"
	read -r scale bins lo hi <<<"$(awk '/^# scale/ { print $3, $5, $7, $9; exit }' "$f")"
	read -r total shown over <<<"$(awk '/^# datapoints/ { print $3, $5, $7; exit }' "$f")"
	[ "$total" = "$n" ] || fail "$f: $total datapoints, expected $n"
	# block 0: one line per bin; the counts add up to the shown datapoints
	awk -v shown="$shown" -v bins="$bins" -v f="$f" '
		/^#/ { next } /^$/ { exit } { n++; sum += $3; if ($3 > max) max = $3 }
		END { if (n != bins) { print "FAIL: " f ": " n " bins, header says " bins; exit 1 }
		      if (sum != shown) { print "FAIL: " f ": bins hold " sum ", shown " shown; exit 1 }
		      if (max > shown / 2) { print "FAIL: " f ": a bin holds " max " of " shown; exit 1 } }' \
		"$f" >&2 || exit 1
	beyond=$(awk -F, -v c="$col" -v hi="$hi" 'NR > 1 && $c != "" && $c + 0 > hi + 0' "$csv" | wc -l)
	[ "$over" = "$beyond" ] || fail "$f: overflow $over, but $beyond datapoints are above $hi"
	[ "$over" -gt 0 ] || fail "$f: no overflow on a heavy-tailed run"
	echo "$hi $over"
}
read -r edge over <<<"$(hist_check "$W/rep/plot-data/m000-hist-r0.dat" 3 $rows)"
grep -q "m000-hist-r0.dat' index 2 using" "$W/rep/plot-data/m000.gp" || fail "no overflow bar in the script"
# The caption says the edge as it is, and the count.
ov=$(echo "$over" | sed ':a; s/\([0-9]\)\([0-9]\{3\}\)\($\|,\)/\1,\2\3/; ta')
# (the sample comes from awk's rand(): its minimum and the percentile chosen are the data's)
min=$(awk -F, 'NR > 1 && (m == "" || $3 + 0 < m + 0) { m = $3 } END { print m + 0 }' "$csv")
# captions print it with the digits that matter on the range: the last one about range/1000
min=$(awk -v m="$min" -v e="$edge" 'function fl(x) { return x < 0 && x != int(x) ? int(x) - 1 : int(x) }
	BEGIN { d = fl(log(m) / log(10)) - fl(log((e - m) / 1000) / log(10)) + 1; d = d < 3 ? 3 : d > 17 ? 17 : d
		printf "%.*g\n", d, m }')
grep -q "equal bins from $min to $edge (up to the largest [0-9.]*th percentile of the runs, rounded up, so that the body gets most bins); $ov datapoints above $edge are in the overflow bar" \
	"$W/rep/index.html" || fail "histogram caption: $(grep -o 'Histogram of WakeLatency, [^<]*' "$W/rep/index.html" | head -1)"
# The per-state histogram: every state's bins and overflow add up to the run.
sum=0
for s in 0 1; do
	f=$W/rep/plot-data/m000-hist-r0-s$s.dat
	[ -s "$f" ] || fail "no per-state histogram $f"
	read -r t o <<<"$(awk '/^# datapoints/ { print $3, $7; exit }' "$f")"
	sum=$((sum + t))
done
[ "$sum" = "$rows" ] || fail "per-state histograms hold $sum datapoints"

# The scatter y axis ends at the histogram's edge and counts the points above it.
grep -q "WakeLatency against LDist. Points shown: [0-9,]* of 20,000. The y axis ends at $edge (the largest [0-9.]*th percentile of the runs, rounded up): $ov points above it are drawn on the top edge as ×" \
	"$W/rep/index.html" || fail "scatter caption: $(grep -o 'WakeLatency against LDist[^<]*' "$W/rep/index.html")"

# Markers are idle states (square C1, triangle C6, with a key), the points above the axis
# crosses: as many as the caption says, each on the edge.
gp=$W/rep/plot-data/m000.gp
grep -q "NaN with points pt 5 ps 1.2 lc rgb '#555555' title 'C1', NaN with points pt 9 ps 1.2 lc rgb '#555555' title 'C6', NaN with points pt 2 ps 1.2 lc rgb '#555555' title 'above the y axis'" "$gp" ||
	fail "scatter key: $(grep -o 'NaN with[^\n]*' "$gp" | head -1)"
od -An -v -f -w20 "$W/rep/plot-data/m000-LDist.bin" | awk '{ n[$4]++; if ($4 == 2) y[$2]++ } END { for (p in n) print p, n[p]; for (v in y) print "y", v }' | sort >"$W/pts"
[ "$(awk '$1 == 2 { print $2 }' "$W/pts")" = "$over" ] || fail "edge points: $(cat "$W/pts")"
[ "$(grep -c '^y ' "$W/pts")" = 1 ] || fail "edge points at several heights: $(cat "$W/pts")"
[ "$(awk '$1 != "y" { print $1 }' "$W/pts" | tr '\n' ' ')" = "2 5 9 " ] || fail "point types: $(cat "$W/pts")"
c1=$(awk -F, '$5 == "C1" && $3 + 0 <= '"$edge" "$csv" | wc -l)
n5=$(awk '$1 == 5 { print $2 }' "$W/pts")
[ "$n5" -le "$c1" ] && [ "$n5" -gt $((c1 / 2)) ] || fail "$n5 square markers, $c1 C1 datapoints in the range"

# The tail plot reaches the maximum, written as in the CSV; the exceedance plot ends at
# one datapoint (100 / 20000 %).
max=$(awk -F, 'NR > 1 && (m == "" || $3 + 0 > m + 0) { m = $3 } END { print m }' "$csv" | sed 's/0*$//; s/\.$//')
last=$(tail -1 "$W/rep/plot-data/m000-pct-r0.dat")
[ "$(echo "$last" | awk '{ print $3 }')" = "$max" ] || fail "tail plot's maximum: '$last', expected $max"
# the maximum's value is in the caption (labels in the plot overlapped), with the digits that
# matter on the range, not in the SVG
short=$(awk -v m="$max" 'BEGIN { printf "%.4g\n", m }')
grep -q "then the maximum (100%), marked with a dot: $short" "$W/rep/index.html" ||
	fail "tail caption: $(grep -o 'Percentiles of WakeLatency, tail view[^<]*' "$W/rep/index.html") (max $max)"
grep -q '>max ' "$W/rep/plots/m000-tail.svg" && fail "a max label in the tail plot"
awk 'BEGIN { RS = ""; } NR == 1 { n = split($0, l, "\n"); split(l[n], f, " "); print f[2] }' \
	"$W/rep/plot-data/m000-pct-r0.dat" | grep -qx '0.005' || fail "exceedance plot does not end at 0.005%"

# One datapoint beyond: singular, and the edge exact (not 111.1 for a maximum of 111.07).
mkdir "$W/one"
awk 'BEGIN { print "LDist,WakeLatency"; for (i = 0; i < 999; i++) printf "%d,%.2f\n", i, 10 + i / 99.9; print "999,111.07" }' \
	>"$W/one/datapoints.csv"
expect_rc 0 "$REPORT" "$W/one" -o "$W/onerep" --keep-plot-data
read -r edge over <<<"$(csv=$W/one/datapoints.csv hist_check "$W/onerep/plot-data/m000-hist-r0.dat" 2 1000)"
[ "$edge" = 20.1 ] && [ "$over" = 1 ] || fail "one outlier: edge $edge, overflow $over"
grep -q "; 1 datapoint above 20.1 is in the overflow bar" "$W/onerep/index.html" ||
	fail "singular caption: $(grep -o 'Histogram of WakeLatency, [^<]*' "$W/onerep/index.html")"
grep -q "1 point above it is drawn on the top edge" "$W/onerep/index.html" || fail "singular scatter caption"

# A counter that hardly moves (TSC_MHz 2299.99 to 2300.01): a y range of at least 1e-3 of
# its size, and tick labels that differ.
mkdir "$W/tsc"
cp "$SAMPLE/datapoints.csv" "$W/tsc/"
awk -F, -v OFS=, 'NR == 1 { print; next } { $6 = sprintf("%.0f", $2 * 2.3e9 + ($1 % 2) * 1000); print }' \
	"$SAMPLE/counters.csv" >"$W/tsc/counters.csv"
expect_rc 0 "$REPORT" "$W/tsc" -o "$W/tscrep" --keep-plot-data --metrics '^WakeLatency$'
gp=$W/tscrep/plot-data/counters.gp
awk '/^set ylabel/ { name = $3 } /^set yrange/ { split(substr($3, 2), r, ":"); lo = r[1]; hi = r[2] + 0 }
	/^set ytics/ { step = $3 } /^set format y/ { fmt = substr($4, 2, length($4) - 2) }
	/^plot/ { n = 0; labels = ""; seen = ""
		if (hi - lo < 1e-3 * (hi > -lo ? hi : -lo) * 0.999) { print "FAIL: " name " y span " lo " to " hi; exit 1 }
		for (t = int(lo / step + 1) * step; t <= hi; t += step) {
			s = sprintf(fmt, t); if (index(seen, "|" s "|")) { print "FAIL: " name ": tick label " s " twice"; exit 1 }
			seen = seen "|" s "|"; n++ }
		if (n < 3) { print "FAIL: " name ": " n " ticks"; exit 1 }
		if (name == "'"'"'TSC_MHz'"'"'") tsc = seen }
	END { if (tsc != "|2299||2299.5||2300||2300.5||2301|") { print "FAIL: TSC_MHz ticks " tsc; exit 1 } }' "$gp" >&2 ||
	exit 1
echo PASS
