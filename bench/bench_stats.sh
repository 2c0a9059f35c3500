#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# analyze stats on wult-style datapoints.csv files of 1 M and 10 M rows (14 columns):
# rows, wall s (best and median of REPEAT runs), rows/s and max RSS (file in the page cache).
# Beside it, 'wult calc' on the same file (bench/peer_wult.sh: median of WULT_REPEAT=3 runs,
# files up to WULT_MAX_ROWS=1000000 rows) and the ratio of the medians, or "wult: not found".
# usage: bench/bench_stats.sh [BUILD_DIR] [ROWS...]   (default: build, 1000000 10000000)
# Targets (issue 2): 1 M rows <= 0.25 s and <= 160 MB; 10 M rows <= 2.5 s and <= 1.5 GB.
# Targets (issue 17): 1 M rows >= 15x faster than wult calc (medians), <= 1/3 of its max RSS.
# Targets (issue 28): 1 M rows >= 15x wult calc, -G >= 25x, <= 1/4 of its max RSS; 10 M rows
# <= 10x the time of 1 M and <= 600 MB max RSS. Each size: the default job, then -G.
set -eu
# cold figures: the run cache (docs/cache.md) would answer every repeat after the first; bench_cache.sh times it
export IDLESCOPE_NO_CACHE=1
build=${1:-build}
shift || true
sizes=${*:-1000000 10000000}
repeat=${REPEAT:-5}
here=$(dirname "$0")
data=${BENCH_DATA:-/tmp/idlescope-bench}
mkdir -p "$data"
# shellcheck source=bench/timing.sh
. "$here/timing.sh"
declare -A default_med
printf '%-10s %-9s %-9s %-9s %-12s %-10s %s\n' rows MB wall_s med_s rows/s maxrss_MB "command"
for rows in $sizes; do
	f=$("$here/datapoints_file.sh" "$build" "$data" "$rows")   # in the page cache
	mb=$(du -m "$f" | cut -f1)
	# the default job (all datapoints and per ReqCState), then -G (all datapoints only: wult's job)
	for job in default -G; do
		opt=""
		[ "$job" = -G ] && opt=-G
		# shellcheck disable=SC2086 # opt is one option or none
		repeat_timed "$build/analyze/analyze" stats $opt "$(dirname "$f")"
		if [ "$job" = -G ]; then med_G=$med rss_G=$rss; else med_d=$med rss_d=$rss; fi
		[ "$job" = default ] && default_med[$rows]=$med
		printf '%-10s %-9s %-9s %-9s %-12s %-10s %s\n' "$rows" "$mb" "$best" "$med" \
			"$(awk -v r="$rows" -v w="$best" 'BEGIN { printf "%.0f", r / w }')" "$((rss / 1024))" \
			"analyze stats ${opt:+$opt }$(dirname "$f")"
	done
	if ! "$here/peer_wult.sh" find > /dev/null 2>&1; then
		echo "wult: not found"
	elif [ "$rows" -gt "${WULT_MAX_ROWS:-1000000}" ]; then
		echo "wult: skipped (more than WULT_MAX_ROWS=${WULT_MAX_ROWS:-1000000} rows)"
	else
		read -r wmed wkb <<< "$("$here/peer_wult.sh" time "${WULT_REPEAT:-3}" "$f")"
		printf '%-10s %-9s %-9s %-9s %-12s %-10s %s\n' "$rows" "$mb" - "$wmed" \
			"$(awk -v r="$rows" -v w="$wmed" 'BEGIN { printf "%.0f", r / w }')" "$((wkb / 1024))" \
			"wult calc (median of ${WULT_REPEAT:-3}): analyze stats is $(awk -v a="$wmed" -v b="$med_d" \
			'BEGIN { printf "%.1f", a / b }')x faster ($(awk -v a="$wmed" -v b="$med_G" \
			'BEGIN { printf "%.1f", a / b }')x with -G), $(awk -v a="$rss_d" -v b="$wkb" \
			'BEGIN { printf "%.2f", a / b }') of its memory ($(awk -v a="$rss_G" -v b="$wkb" \
			'BEGIN { printf "%.2f", a / b }') with -G)"
	fi
done
if [ -n "${default_med[1000000]:-}" ] && [ -n "${default_med[10000000]:-}" ]; then
	echo "10 M rows take $(awk -v a="${default_med[10000000]}" -v b="${default_med[1000000]}" \
		'BEGIN { printf "%.1f", a / b }')x the time of 1 M (default job, medians)"
fi
