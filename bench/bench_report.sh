#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# bench_report.sh BUILD_DIR [ROWS] [REPEAT]: time `report` on generated wult-style runs.
# Prints, per case, rows, wall seconds, max RSS and the report's size on disk, for every
# repetition (the machine may be shared: look at the best and the spread).
# Targets (issue 5): 1M datapoints <= 3 s, 2 x 1M diff <= 5 s, <= 250 MB RSS, <= 10 MB on disk.
set -eu
# cold figures: the run cache (docs/cache.md) would answer every repeat after the first; bench_cache.sh times it
export IDLESCOPE_NO_CACHE=1
BUILD=${1:?usage: bench_report.sh BUILD_DIR [ROWS] [REPEAT]}
ROWS=${2:-1000000}
REPEAT=${3:-3}
REPORT=$BUILD/report/report
GEN=$BUILD/bench/gen_datapoints
WORK=${BENCH_DIR:-/tmp/idlescope-bench-report}
[ -x "$REPORT" ] && [ -x "$GEN" ] || { echo "build report and gen_datapoints in $BUILD first" >&2; exit 2; }
[ -x /usr/bin/time ] || { echo "needs /usr/bin/time (Debian package time)" >&2; exit 2; }

mkdir -p "$WORK/a" "$WORK/b"
for run in a:1:0 b:2:0.3; do
	IFS=: read -r name seed shift <<<"$run"
	if [ ! -s "$WORK/$name/datapoints.csv" ] || [ "$(cat "$WORK/$name/rows" 2>/dev/null)" != "$ROWS" ]; then
		"$GEN" "$ROWS" "$seed" "$shift" >"$WORK/$name/datapoints.csv"
		echo "$ROWS" >"$WORK/$name/rows"
	fi
done

measure() {  # measure LABEL RUN...
	label=$1; shift
	for i in $(seq "$REPEAT"); do
		/usr/bin/time -v -o "$WORK/time.txt" "$REPORT" "$@" -o "$WORK/out" --force >/dev/null
		wall=$(awk -F': ' '/Elapsed \(wall clock\)/ { n = split($2, t, ":"); s = 0;
			for (k = 1; k <= n; k++) s = s * 60 + t[k]; printf "%.2f", s }' "$WORK/time.txt")
		rss=$(awk -F': ' '/Maximum resident set size/ { printf "%.0f", $2 / 1024 }' "$WORK/time.txt")
		cpu=$(awk -F': ' '/User time/ { u = $2 } /System time/ { s = $2 } END { printf "%.2f", u + s }' "$WORK/time.txt")
		disk=$(du -sk "$WORK/out" | awk '{ printf "%.1f", $1 / 1024 }')
		printf '%-10s %10s %8s %8s %9s %9s\n' "$label" "$ROWS" "$wall" "$cpu" "$rss" "$disk"
	done
}

echo "report $("$REPORT" --version | awk '{ print $NF }'), $(nproc) CPUs, load: $(cut -d' ' -f1-3 /proc/loadavg)"
printf '%-10s %10s %8s %8s %9s %9s\n' case rows/run wall_s cpu_s rss_MB disk_MB
measure single "$WORK/a"
measure diff "$WORK/a" "$WORK/b"
