#!/bin/bash
# analyze diff of 2 configurations x RUNS replicate runs x ROWS datapoints (wult-style, 14
# columns; configuration b drawn with other seeds and WakeLatency/IntrLatency shifted by +0.5 us)
# with run-level inference (Welch t on each run's med, 99%, 99.9%), overall and per idle state:
# wall s and max RSS, best of REPEAT (files in the page cache).
# usage: bench/bench_diff_runs.sh [BUILD_DIR] [ROWS] [RUNS]   (default: build 1000000 3)
# Target (issue 13): 2 x 3 x 1 M in <= 2 s on the 2-CPU machine.
set -eu
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

best="" rss=0
for _ in $(seq "$repeat"); do
	/usr/bin/time -f '%e %M' -o "$data/time.out" "$build/analyze/analyze" diff "$a" "$b" > "$data/out.txt"
	read -r wall kb < "$data/time.out"
	if [ -z "$best" ] || awk -v x="$wall" -v y="$best" 'BEGIN { exit !(x < y) }'; then best=$wall; fi
	[ "$kb" -gt "$rss" ] && rss=$kb
done
printf 'configs 2 x runs %s x rows %s: wall %s s (best of %s), max RSS %s MB\n' "$nruns" "$rows" \
	"$best" "$repeat" "$((rss / 1024))"
grep -m1 'WakeLatency: median' "$data/out.txt"
