#!/bin/bash
# analyze stats on wult-style datapoints.csv files of 1 M and 10 M rows (14 columns):
# rows, wall s, rows/s and max RSS per run, best of REPEAT runs (file in the page cache).
# usage: bench/bench_stats.sh [BUILD_DIR] [ROWS...]   (default: build, 1000000 10000000)
# Targets (issue 2): 1 M rows <= 0.25 s and <= 160 MB; 10 M rows <= 2.5 s and <= 1.5 GB.
set -eu
build=${1:-build}
shift || true
sizes=${*:-1000000 10000000}
repeat=${REPEAT:-5}
data=${BENCH_DATA:-/tmp/idlescope-bench}
mkdir -p "$data"
printf '%-10s %-9s %-9s %-12s %-10s %s\n' rows MB wall_s rows/s maxrss_MB "command"
for rows in $sizes; do
	f=$data/dp-$rows/datapoints.csv
	if [ ! -s "$f" ]; then
		mkdir -p "$(dirname "$f")"
		"$build/bench/gen_datapoints" "$rows" 1 > "$f.tmp" && mv "$f.tmp" "$f"
	fi
	cat "$f" > /dev/null   # warm the page cache
	best=""
	rss=0
	for _ in $(seq "$repeat"); do
		/usr/bin/time -f '%e %M' -o "$data/time.out" "$build/analyze/analyze" stats "$(dirname "$f")" > /dev/null
		read -r wall kb < "$data/time.out"
		if [ -z "$best" ] || awk -v a="$wall" -v b="$best" 'BEGIN { exit !(a < b) }'; then best=$wall; fi
		[ "$kb" -gt "$rss" ] && rss=$kb
	done
	mb=$(du -m "$f" | cut -f1)
	printf '%-10s %-9s %-9s %-12s %-10s %s\n' "$rows" "$mb" "$best" \
		"$(awk -v r="$rows" -v w="$best" 'BEGIN { printf "%.0f", r / w }')" "$((rss / 1024))" \
		"analyze stats $(dirname "$f")"
done
