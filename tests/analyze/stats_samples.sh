#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# analyze stats on real runs: JSON figures against values computed here with sort and awk,
# which share no code with analyze. usage: stats_samples.sh ANALYZE RUN...
set -u
. "$(dirname "$0")/../common/test-lib.sh"
analyze=$1
shift
fails=0
tmp=$(mktemp -d)
test_when_finished 'rm -rf "$tmp"'

# col_values RUN COLUMN [GROUP]: one number per line, empty cells skipped
col_values() {
	awk -F, -v col="$2" -v grp="${3-}" 'NR == 1 { for (i = 1; i <= NF; i++) { sub(/\r$/, "", $i); if ($i == col) c = i; if ($i == "ReqCState") g = i } next }
		c && $c != "" && (grp == "" || $g == grp) { printf "%.17g\n", $c }' "$1/datapoints.csv"
}

# quantile: linear interpolation between closest ranks (numpy's default) over sorted input
quantile() {
	sort -g | awk -v q="$1" '{ v[NR - 1] = $1 } END { if (!NR) { print "null"; exit } p = q * (NR - 1); l = int(p); d = p - l;
		if (l >= NR - 1) printf "%.10g\n", v[NR - 1]; else printf "%.10g\n", (1 - d) * v[l] + d * v[l + 1] }'
}

close_to() {  # close_to GOT WANT WHAT
	awk -v a="$1" -v b="$2" 'BEGIN { d = a - b; if (d < 0) d = -d; m = b < 0 ? -b : b; exit !(d <= 1e-9 * (m > 1 ? m : 1)) }' ||
		{ echo "FAIL: $3: analyze $1, expected $2"; fails=$((fails + 1)); }
}

for run in "$@"; do
	"$analyze" stats --format json --funcs count,min,max,avg,med,99%,99.9%,25% "$run" > "$tmp/s.json" ||
		{ echo "FAIL: analyze stats $run"; fails=$((fails + 1)); continue; }
	rows=$(($(grep -c . "$run/datapoints.csv") - 1))
	[ "$(jq .runs[0].rows "$tmp/s.json")" = "$rows" ] || { echo "FAIL: $run rows"; fails=$((fails + 1)); }
	for m in WakeLatency IntrLatency SilentTime LDist; do
		head -1 "$run/datapoints.csv" | tr ',' '\n' | tr -d '\r' | grep -qx "$m" || continue
		col_values "$run" $m > "$tmp/v"
		j() { jq -r ".runs[0].metrics.\"$m\".\"$1\"" "$tmp/s.json"; }
		if [ ! -s "$tmp/v" ]; then  # a column without values is left out (with a note)
			[ "$(jq -c ".runs[0].metrics | has(\"$m\")" "$tmp/s.json")" = false ] ||
				{ echo "FAIL: $run $m has no values but is a metric"; fails=$((fails + 1)); }
			continue
		fi
		[ "$(j count)" = "$(wc -l < "$tmp/v")" ] || { echo "FAIL: $run $m count $(j count)"; fails=$((fails + 1)); }
		close_to "$(j min)" "$(sort -g "$tmp/v" | head -1)" "$run $m min"
		close_to "$(j max)" "$(sort -g "$tmp/v" | tail -1)" "$run $m max"
		close_to "$(j avg)" "$(awk '{ s += $1 } END { printf "%.12g", s / NR }' "$tmp/v")" "$run $m avg"
		for q in med:0.5 99%:0.99 99.9%:0.999 25%:0.25; do
			close_to "$(j "${q%%:*}")" "$(quantile "${q#*:}" < "$tmp/v")" "$run $m ${q%%:*}"
		done
		# per idle state
		for g in $(jq -r '.runs[0].groups // {} | keys[]' "$tmp/s.json"); do
			col_values "$run" $m "$g" > "$tmp/g"
			[ -s "$tmp/g" ] || continue
			got=$(jq -r ".runs[0].groups.\"$g\".metrics.\"$m\".med" "$tmp/s.json")
			close_to "$got" "$(quantile 0.5 < "$tmp/g")" "$run $m med in $g"
		done
	done
done
# A CPU without a cpuidle driver leaves ReqCState empty: no per-state table by default (it
# would repeat the overall one), an "(empty)" group when asked for with --by; diff likewise
# unless another run has states.
for run in "$@"; do
	[ -f "$run/info.json" ] && head -1 "$run/datapoints.csv" | grep -q ReqCState && break
done
mkdir -p "$tmp/nostates"
awk -F, -v OFS=, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "ReqCState") g = i; print; next } { $g = ""; print }' \
	"$run/datapoints.csv" > "$tmp/nostates/datapoints.csv"
want() {  # want WHAT GOT EXPECTED
	[ "$2" = "$3" ] || { echo "FAIL: $1: got '$2', expected '$3'"; fails=$((fails + 1)); }
}
want "all-empty ReqCState: no groups" "$("$analyze" stats -F json "$tmp/nostates" | jq -c '[.runs[0].group_by, (.runs[0].groups | length)]')" '[null,0]'
want "all-empty ReqCState: no text table" "$("$analyze" stats "$tmp/nostates" | grep -c 'ReqCState =')" 0
want "--by ReqCState: one empty group" "$("$analyze" stats -F json --by ReqCState "$tmp/nostates" | jq -c '[.runs[0].group_by, (.runs[0].groups | keys)]')" '["ReqCState",[""]]'
want "diff of two all-empty runs: no groups" "$("$analyze" diff -F json --allow-same "$tmp/nostates" "$tmp/nostates" 2>/dev/null | jq -c .group_by)" null
"$analyze" diff -F csv -f med -m '^WakeLatency$' "$tmp/nostates" "$run" > "$tmp/g.csv" 2>/dev/null
want "csv: empty-state group told from all datapoints" \
	"$(grep -c '^stat,ReqCState,,WakeLatency,med,' "$tmp/g.csv") $(grep -c '^stat,,,WakeLatency,med,' "$tmp/g.csv")" "2 2"
want "diff against a run with states: groups" "$("$analyze" diff -F json "$tmp/nostates" "$run" 2>/dev/null | jq -c .group_by)" '"ReqCState"'

# Counter event counts compare as rates: two runs whose IRQ counter grows by 1000 a second on
# each CPU, one with a third of the snapshots, both show IRQ/s = 2000 (2 CPUs): no change.
for run in "$@"; do [ -s "$run/counters.csv" ] && break; done
mkdir -p "$tmp/rate-long" "$tmp/rate-short"
for d in rate-long rate-short; do cp "$run/info.json" "$run/datapoints.csv" "$tmp/$d/"; done
awk -F, -v OFS=, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "IRQ") c = i; print; next }
	NR == 2 { t0 = $2 } { $c = sprintf("%.0f", ($2 - t0) * 1000); print }' \
	"$run/counters.csv" > "$tmp/rate-long/counters.csv"
last=$(awk -F, 'NR > 1 { s = $1 } END { print int(s / 3) }' "$tmp/rate-long/counters.csv")
awk -F, -v last="$last" 'NR == 1 || $1 <= last' "$tmp/rate-long/counters.csv" > "$tmp/rate-short/counters.csv"
"$analyze" diff -F json -G "$tmp/rate-long" "$tmp/rate-short" 2>/dev/null > "$tmp/rate.json"
for i in 0 1; do  # whole counts of ms: within 1% over a run of a second or more
	v=$(jq ".counters[\"IRQ/s\"].values[$i]" "$tmp/rate.json")
	awk -v v="$v" 'BEGIN { exit !(v > 1980 && v < 2020) }' || { echo "FAIL: IRQ/s of run $i: $v, expected 2000"; fails=$((fails + 1)); }
done
want "IRQ/s keys only (no raw IRQ total)" "$(jq -c '.counters | has("IRQ")' "$tmp/rate.json")" false

# Raw timestamps are compared only when --metrics names them.
raw=$(for run in "$@"; do head -1 "$run/datapoints.csv" | grep -q LTime && echo "$run"; done | head -1)
if [ -n "$raw" ]; then
	want "diff: no raw timestamps by default" "$("$analyze" diff -F json --allow-same "$raw" "$raw" 2>/dev/null | jq -c '.metrics | has("LTime") or has("TBI") or has("TAI") or has("TIntr")')" false
	want "diff: raw timestamps when named" "$("$analyze" diff -F json --allow-same -m '^LTime$' "$raw" "$raw" 2>/dev/null | jq -c '.metrics | keys')" '["LTime"]'
fi

# --by a numeric column: groups in numeric order (empty first), labels that read back exactly.
printf 'X,N\n1,-1.5\n2,1.25\n3,1.5\n4,\n5,10\n6,2\n7,1.0000000000000002\n8,1\n' > "$tmp/num.csv"
want "--by numeric: order and exact labels" \
	"$("$analyze" stats -F json -f count -m '^X$' --by N "$tmp/num.csv" | jq -c '.runs[0].groups | keys_unsorted')" \
	'["","-1.5","1","1.0000000000000002","1.25","1.5","2","10"]'

# Two runs with one name are told apart, as in diff and report.
want "stats: same name twice" "$("$analyze" stats -F json -f count "$run" "$run/datapoints.csv" | jq -c '[.runs[].reportid]')" \
	"[\"$(basename "$run")\",\"$(basename "$run")-2\"]"

echo "$fails failure(s)"
[ $fails = 0 ]
