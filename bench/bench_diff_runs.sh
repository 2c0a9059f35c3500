#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# analyze diff of 2 configurations x RUNS replicate runs x ROWS datapoints (wult-style, 14
# columns; configuration b drawn with other seeds and WakeLatency/IntrLatency shifted by +0.5 us)
# with run-level inference (Welch t on each run's med, 99%, 99.9%), overall and per idle state:
# wall s (best and median of REPEAT) and max RSS, cold (no run cache; files in the page cache).
# Beside it, 'wult calc' of all 2 x RUNS files one after the other (bench/peer_wult.sh, median
# of WULT_REPEAT=3), the nearest like-for-like job, or "wult: not found".
# usage: bench/bench_diff_runs.sh [BUILD_DIR] [ROWS] [RUNS]   (default: build 1000000 3)
# Target (issue 13): 2 x 3 x 1 M in <= 2 s on the 2-CPU machine; (issue 28): <= 1.2 s.
set -eu
# cold figures: the run cache (docs/cache.md) would answer every repeat after the first
export IDLESCOPE_NO_CACHE=1
here=$(dirname "$0")
build=${1:-build}
rows=${2:-1000000}
nruns=${3:-3}
repeat=${REPEAT:-3}
data=${BENCH_DATA:-/tmp/idlescope-bench}
mkdir -p "$data"

a="" b=""
for i in $(seq "$nruns"); do
	for cfg in a b; do
		f=$data/runs-$rows-$cfg$i/datapoints.csv
		if [ ! -s "$f" ]; then
			mkdir -p "$(dirname "$f")"
			seed=$i shift=0
			[ $cfg = b ] && seed=$((100 + i)) shift=0.5
			"$build/bench/gen_datapoints" "$rows" "$seed" "$shift" > "$f.tmp" && mv "$f.tmp" "$f"
		fi
		cat "$f" > /dev/null   # warm the page cache
		if [ $cfg = a ]; then a=${a:+$a,}$f; else b=${b:+$b,}$f; fi
	done
done

best="" rss=0 walls=""
for _ in $(seq "$repeat"); do
	/usr/bin/time -f '%e %M' -o "$data/time.out" "$build/analyze/analyze" diff "$a" "$b" > "$data/out.txt"
	read -r wall kb < "$data/time.out"
	walls="$walls $wall"
	if [ -z "$best" ] || awk -v x="$wall" -v y="$best" 'BEGIN { exit !(x < y) }'; then best=$wall; fi
	[ "$kb" -gt "$rss" ] && rss=$kb
done
# shellcheck disable=SC2086 # one wall time a word
med=$(printf '%s\n' $walls | sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }')
printf 'configs 2 x runs %s x rows %s: wall %s s (best of %s), median %s s, max RSS %s MB\n' "$nruns" \
	"$rows" "$best" "$repeat" "$med" "$((rss / 1024))"
grep -m1 'WakeLatency: median' "$data/out.txt"
if ! "$here/peer_wult.sh" find > /dev/null 2>&1; then
	echo "wult: not found"
else
	# shellcheck disable=SC2086 # the file lists split at the commas on purpose
	read -r wmed wkb <<< "$("$here/peer_wult.sh" time "${WULT_REPEAT:-3}" ${a//,/ } ${b//,/ })"
	printf 'wult calc of the %s files (median of %s): %s s, max RSS %s MB: analyze diff is %sx faster\n' \
		"$((2 * nruns))" "${WULT_REPEAT:-3}" "$wmed" "$((wkb / 1024))" \
		"$(awk -v a="$wmed" -v b="$med" 'BEGIN { printf "%.1f", a / b }')"
fi
