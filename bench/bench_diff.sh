#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# analyze diff of two wult-style datapoints.csv files of N rows each (14 columns; the second
# drawn with another seed and WakeLatency/IntrLatency shifted by +0.5 us), with every test and
# CI, overall and per idle state: total rows, wall s, rows/s and max RSS, best of REPEAT runs
# (files in the page cache), plus the time of loading alone ('analyze stats -m ^$' of both).
# usage: bench/bench_diff.sh [BUILD_DIR] [ROWS...]   (default: build, 1000000)
# Target (issue 4): 2 x 1 M rows <= 0.8 s wall on the 2-core machine, linear beyond.
# wult has no statistical diff: beside ours, 'wult calc' of both files one after the other
# (bench/peer_wult.sh, median of WULT_REPEAT=3 runs, up to WULT_MAX_ROWS=1000000 rows per
# file), the nearest like-for-like job, or "wult: not found"; ours is given as median too.
set -eu
# cold figures: the run cache (docs/cache.md) would answer every repeat after the first; bench_cache.sh times it
export IDLESCOPE_NO_CACHE=1
build=${1:-build}
shift || true
sizes=${*:-1000000}
repeat=${REPEAT:-5}
data=${BENCH_DATA:-/tmp/idlescope-bench}
here=$(dirname "$0")
mkdir -p "$data"

best_of() {  # best wall, max RSS (KB) and median wall of REPEAT runs of "$@"
	local best="" rss=0 wall kb walls=""
	for _ in $(seq "$repeat"); do
		/usr/bin/time -f '%e %M' -o "$data/time.out" "$@" > /dev/null
		read -r wall kb < "$data/time.out"
		walls="$walls $wall"
		if [ -z "$best" ] || awk -v a="$wall" -v b="$best" 'BEGIN { exit !(a < b) }'; then best=$wall; fi
		[ "$kb" -gt "$rss" ] && rss=$kb
	done
	echo "$best $rss $(printf '%s\n' $walls | sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }')"
}

printf '%-10s %-9s %-9s %-9s %-12s %-10s %s\n' rows MB wall_s med_s rows/s maxrss_MB "command"
for rows in $sizes; do
	a=$data/dp-$rows/datapoints.csv
	b=$data/dp-$rows-shift/datapoints.csv
	for spec in "$a 1 0" "$b 2 0.5"; do
		set -- $spec
		if [ ! -s "$1" ]; then
			mkdir -p "$(dirname "$1")"
			"$build/bench/gen_datapoints" "$rows" "$2" "$3" > "$1.tmp" && mv "$1.tmp" "$1"
		fi
		cat "$1" > /dev/null   # warm the page cache
	done
	mb=$(( $(du -m "$a" | cut -f1) + $(du -m "$b" | cut -f1) ))
	total=$((2 * rows))
	for cmd in "diff $a $b" "diff -G $a $b"; do
		read -r wall kb med <<< "$(best_of "$build/analyze/analyze" $cmd)"
		printf '%-10s %-9s %-9s %-9s %-12s %-10s %s\n' "$total" "$mb" "$wall" "$med" \
			"$(awk -v r="$total" -v w="$wall" 'BEGIN { printf "%.0f", r / w }')" "$((kb / 1024))" \
			"analyze $cmd"
	done
	# loading alone, for reference: both files, every column, no statistics
	read -r wall kb med <<< "$(best_of sh -c "'$build/analyze/analyze' stats -G -f count '$a' > /dev/null && '$build/analyze/analyze' stats -G -f count '$b'")"
	printf '%-10s %-9s %-9s %-9s %-12s %-10s %s\n' "$total" "$mb" "$wall" "$med" \
		"$(awk -v r="$total" -v w="$wall" 'BEGIN { printf "%.0f", r / w }')" "$((kb / 1024))" \
		"analyze stats -G -f count (both files, one after the other)"
	if ! "$here/peer_wult.sh" find > /dev/null 2>&1; then
		echo "wult: not found"
	elif [ "$rows" -gt "${WULT_MAX_ROWS:-1000000}" ]; then
		echo "wult: skipped (more than WULT_MAX_ROWS=${WULT_MAX_ROWS:-1000000} rows)"
	else
		read -r wmed wkb <<< "$("$here/peer_wult.sh" time "${WULT_REPEAT:-3}" "$a" "$b")"
		printf '%-10s %-9s %-9s %-9s %-12s %-10s %s\n' "$total" "$mb" - "$wmed" \
			"$(awk -v r="$total" -v w="$wmed" 'BEGIN { printf "%.0f", r / w }')" "$((wkb / 1024))" \
			"wult calc of both files (median of ${WULT_REPEAT:-3})"
	fi
done
