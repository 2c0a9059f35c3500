#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# analyze stats --by on wult-style datapoints.csv files (the ones bench_stats.sh makes): a
# column grouped by value (IntrOff), by bins (CC6%:20), and columns with too many values to
# group by value (LDist, WakeLatency: counted, then 10 bins; LDist once more as doubles,
# under a filter). Wall s (best and median of REPEAT runs) and max RSS; the reference is the
# default job's, which keeps 10 M rows under 600 MB (issue 28; a filter reads every column
# as doubles and is not held to it). --by has no wult counterpart.
# usage: bench/bench_by.sh [BUILD_DIR] [ROWS...]   (default: build, 10000000)
set -eu
export IDLESCOPE_NO_CACHE=1
build=${1:-build}
shift || true
sizes=${*:-10000000}
repeat=${REPEAT:-3}
data=${BENCH_DATA:-/tmp/idlescope-bench}
mkdir -p "$data"
here=$(dirname "$0")
# shellcheck source=bench/timing.sh
. "$here/timing.sh"
printf '%-10s %-9s %-9s %-10s %s\n' rows wall_s med_s maxrss_MB "command"
for rows in $sizes; do
	f=$("$here/datapoints_file.sh" "$build" "$data" "$rows")   # in the page cache
	# the last: a filter reads every column as doubles (LDist's values are counted as doubles)
	for opts in "" "--by IntrOff" "--by CC6%:20" "--by LDist" "--by WakeLatency" "-x IntrOff<0 --by LDist"; do
		# shellcheck disable=SC2086 # options a word each; the notes --by writes are not shown
		repeat_timed "$build/analyze/analyze" stats $opts "$(dirname "$f")" 2> /dev/null
		printf '%-10s %-9s %-9s %-10s %s\n' "$rows" "$best" "$med" "$((rss / 1024))" \
			"analyze stats ${opts:+$opts }$(dirname "$f")"
	done
done
