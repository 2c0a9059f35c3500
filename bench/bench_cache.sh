#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# The run cache (docs/cache.md): cold (--no-cache), first look (answers cold while a background
# builder writes the entry; "entry ready" is when the entry is there, from the command's start),
# first look with IDLESCOPE_CACHE_BUILD=foreground (builds the entry before answering), and warm
# analyze stats on wult-style datapoints.csv files of 1 M and 10 M rows (14 columns); diff of
# two runs and report cold, first look and warm (first size only, unless CACHE_BENCH_ALL=1); and Intel's
# wult calc on the same file beside them when $WULT or /opt/peer/bin/wult is there ("wult:
# not found" otherwise). Median of REPEAT runs (default 3): wall s and max RSS MB (RSS counts
# the mapped entry's pages that were touched: they are page cache, not fresh memory).
# usage: bench/bench_cache.sh [BUILD_DIR] [ROWS...]   (default: build, 1000000 10000000)
# Target (issue 17): warm analyze stats on 1 M rows >= 10x faster than cold.
set -eu
build=$(cd "${1:-build}" && pwd)
shift || true
sizes=${*:-1000000 10000000}
repeat=${REPEAT:-3}
data=${BENCH_DATA:-/tmp/idlescope-bench}
export XDG_CACHE_HOME=$data/cache-bench-xdg
export IDLESCOPE_CACHE_MAX=${IDLESCOPE_CACHE_MAX:-16G}   # a 10 M-row entry is about 3 GB
unset IDLESCOPE_NO_CACHE
analyze=$build/analyze/analyze
report=$build/report/report
mkdir -p "$data"

wult=""
if [ -n "${WULT:-}" ] && command -v "$WULT" > /dev/null; then wult=$(command -v "$WULT")
elif command -v wult > /dev/null; then wult=$(command -v wult)
elif [ -x /opt/peer/bin/wult ]; then wult=/opt/peer/bin/wult
fi

gen() {  # gen ROWS SEED: a run directory of that many rows
	local d=$data/dp$2-$1
	if [ ! -s "$d/datapoints.csv" ]; then
		mkdir -p "$d"
		"$build/bench/gen_datapoints" "$1" "$2" > "$d/datapoints.csv.tmp"
		mv "$d/datapoints.csv.tmp" "$d/datapoints.csv"
	fi
	cat "$d/datapoints.csv" > /dev/null   # in the page cache
	echo "$d"
}

# one CMD...: "wall_s maxrss_KB" of one run (output discarded)
one() {
	/usr/bin/time -f '%e %M' -o "$data/cache-time.out" "$@" > /dev/null 2>&1
	cat "$data/cache-time.out"
}

# median CMD...: the median wall s and the largest RSS MB of REPEAT runs
median() {
	local runs=() kb=0 w k
	for _ in $(seq "$repeat"); do
		read -r w k < <(one "$@")
		runs+=("$w")
		[ "$k" -gt "$kb" ] && kb=$k
	done
	printf '%s %s\n' "$(printf '%s\n' "${runs[@]}" | sort -n | sed -n "$(((repeat + 1) / 2))p")" \
		"$((kb / 1024))"
}

# the builders started by a first look are done: no lock file left (at most 10 min)
builders_done() {
	for _ in $(seq 6000); do
		[ -z "$(find "$XDG_CACHE_HOME" -name '.*.lock' 2> /dev/null)" ] && return 0
		sleep 0.1
	done
	echo "bench_cache: a background builder still runs after 10 min" >&2
	exit 1
}

# first N CMD...: a first look on an empty cache, REPEAT times: "median_wall_s max_rss_MB
# median_ready_s", ready = the N entries are there (background builders), from the start
first() {
	local n=$1 runs=() ready=() kb=0 w k t0 e
	shift
	for _ in $(seq "$repeat"); do
		builders_done
		rm -rf "$XDG_CACHE_HOME"
		t0=$(date +%s%N)
		read -r w k < <(one "$@")
		until [ "$(find "$XDG_CACHE_HOME" -name '*.isc' 2> /dev/null | wc -l)" -ge "$n" ]; do
			sleep 0.02
			e=$((($(date +%s%N) - t0) / 1000000))
			[ $e -gt 600000 ] && { echo "bench_cache: no entry after 10 min" >&2; exit 1; }
		done
		ready+=("$(awk -v ms=$((($(date +%s%N) - t0) / 1000000)) 'BEGIN { printf "%.2f", ms / 1000 }')")
		runs+=("$w")
		[ "$k" -gt "$kb" ] && kb=$k
		builders_done
	done
	printf '%s %s %s\n' "$(printf '%s\n' "${runs[@]}" | sort -n | sed -n "$(((repeat + 1) / 2))p")" \
		"$((kb / 1024))" "$(printf '%s\n' "${ready[@]}" | sort -n | sed -n "$(((repeat + 1) / 2))p")"
}

row() {  # row ROWS WHAT "WALL RSS [READY]" COLD_WALL
	local wall rss ready
	read -r wall rss ready <<< "$3"
	printf '%-10s %-30s %-9s %-10s %-9s %s\n' "$1" "$2" "$wall" "$rss" \
		"$(awk -v c="${4:-}" -v w="$wall" 'BEGIN { if (c != "" && w > 0) printf "%.1fx", c / w; else print "-" }')" \
		"${ready:--}"
}

printf '%-10s %-30s %-9s %-10s %-9s %s\n' rows what wall_s maxrss_MB "cold/this" "entry_ready_s"
first_size=1
for rows in $sizes; do
	a=$(gen "$rows" 1)
	rm -rf "$XDG_CACHE_HOME"
	cold=$(median "$analyze" stats --no-cache "$a")
	c=${cold%% *}
	row "$rows" "stats cold (--no-cache)" "$cold" "$c"
	row "$rows" "stats first (background)" "$(first 1 "$analyze" stats "$a")" "$c"
	row "$rows" "stats first (foreground)" "$(IDLESCOPE_CACHE_BUILD=foreground first 1 "$analyze" stats "$a")" "$c"
	row "$rows" "stats warm" "$(median "$analyze" stats "$a")" "$c"
	if [ -n "$wult" ]; then
		w=$data/dp1-$rows/wult-result
		mkdir -p "$w"
		ln -sf "$a/datapoints.csv" "$w/datapoints.csv"
		[ -s "$w/info.yml" ] || printf '%s\n' 'format_version: "1.3"' 'reportid: bench' \
			'toolname: wult' 'toolver: 1.12.65' 'devid: tdt' 'cpu: 0' > "$w/info.yml"
		if [ "$first_size" = 1 ] || [ "${CACHE_BENCH_ALL:-0}" = 1 ]; then
			row "$rows" "wult calc" "$(median "$wult" calc "$w")" "$c"
		fi
	else
		echo "wult: not found"
	fi
	if [ "$first_size" = 1 ] || [ "${CACHE_BENCH_ALL:-0}" = 1 ]; then
		b=$(gen "$rows" 2)
		dcold=$(median "$analyze" diff --no-cache "$a" "$b")
		row "$rows" "diff 2 runs cold" "$dcold" "${dcold%% *}"
		row "$rows" "diff 2 runs first (background)" "$(first 2 "$analyze" diff "$a" "$b")" "${dcold%% *}"
		row "$rows" "diff 2 runs warm" "$(median "$analyze" diff "$a" "$b")" "${dcold%% *}"
		if command -v gnuplot > /dev/null; then
			rm -rf "$data/cache-rep"
			rcold=$(median sh -c "rm -rf '$data/cache-rep'; exec '$report' --no-cache -o '$data/cache-rep' '$a'")
			row "$rows" "report cold" "$rcold" "${rcold%% *}"
			row "$rows" "report first (background)" "$(first 1 sh -c "rm -rf '$data/cache-rep'; exec '$report' -o '$data/cache-rep' '$a'")" "${rcold%% *}"
			row "$rows" "report warm" "$(median sh -c "rm -rf '$data/cache-rep'; exec '$report' -o '$data/cache-rep' '$a'")" "${rcold%% *}"
			rm -rf "$data/cache-rep"
		fi
	fi
	first_size=0
done
builders_done
rm -rf "$XDG_CACHE_HOME"
