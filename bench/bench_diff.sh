#!/bin/bash
# analyze diff of two wult-style datapoints.csv files of N rows each (14 columns; the second
# drawn with another seed and WakeLatency/IntrLatency shifted by +0.5 us), with every test and
# CI, overall and per idle state: total rows, wall s, rows/s and max RSS, best of REPEAT runs
# (files in the page cache), plus the time of loading alone ('analyze stats -m ^$' of both).
# usage: bench/bench_diff.sh [BUILD_DIR] [ROWS...]   (default: build, 1000000)
# Target (issue 4): 2 x 1 M rows <= 0.8 s wall on the 2-core machine, linear beyond.
set -eu
build=${1:-build}
shift || true
sizes=${*:-1000000}
repeat=${REPEAT:-5}
data=${BENCH_DATA:-/tmp/idlescope-bench}
mkdir -p "$data"

best_of() {  # best wall and max RSS (KB) of REPEAT runs of "$@"
	local best="" rss=0 wall kb
	for _ in $(seq "$repeat"); do
		/usr/bin/time -f '%e %M' -o "$data/time.out" "$@" > /dev/null
		read -r wall kb < "$data/time.out"
		if [ -z "$best" ] || awk -v a="$wall" -v b="$best" 'BEGIN { exit !(a < b) }'; then best=$wall; fi
		[ "$kb" -gt "$rss" ] && rss=$kb
	done
	echo "$best $rss"
}

printf '%-10s %-9s %-9s %-12s %-10s %s\n' rows MB wall_s rows/s maxrss_MB "command"
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
		read -r wall kb <<< "$(best_of "$build/analyze/analyze" $cmd)"
		printf '%-10s %-9s %-9s %-12s %-10s %s\n' "$total" "$mb" "$wall" \
			"$(awk -v r="$total" -v w="$wall" 'BEGIN { printf "%.0f", r / w }')" "$((kb / 1024))" \
			"analyze $cmd"
	done
	# loading alone, for reference: both files, every column, no statistics
	read -r wall kb <<< "$(best_of sh -c "'$build/analyze/analyze' stats -G -f count '$a' > /dev/null && '$build/analyze/analyze' stats -G -f count '$b'")"
	printf '%-10s %-9s %-9s %-12s %-10s %s\n' "$total" "$mb" "$wall" \
		"$(awk -v r="$total" -v w="$wall" 'BEGIN { printf "%.0f", r / w }')" "$((kb / 1024))" \
		"analyze stats -G -f count (both files, one after the other)"
done
