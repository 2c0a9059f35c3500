#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Sourced by bench_stats.sh and bench_by.sh: a command's wall time to the millisecond, and
# the best, median and max RSS of $repeat runs. GNU time writes into $data.
# shellcheck disable=SC2034 # wall, kb, best, med and rss are the caller's results

median() { sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }

# One run of COMMAND...: wall seconds to the millisecond in $wall (bash's clock around GNU
# time, whose own figure comes in 10 ms steps: an 80 ms run would read 0.08 anywhere from
# 0.080 to 0.089) and its max RSS KB in $kb. The figure includes starting GNU time itself,
# 1.5-2 ms here (/usr/bin/time /bin/true timed so): against analyze, not for it.
timed() {
	local t0=${EPOCHREALTIME/,/.}  # the locale may write a comma
	/usr/bin/time -f '%M' -o "${data:?}/time.out" "$@" > /dev/null
	local t1=${EPOCHREALTIME/,/.}
	wall=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.3f", b - a }')
	read -r kb < "${data:?}/time.out"
}

# $repeat runs of COMMAND...: the best and median wall in $best and $med, the max RSS KB in $rss.
repeat_timed() {
	local walls="" _
	best="" rss=0
	for _ in $(seq "${repeat:?}"); do
		timed "$@"
		walls="$walls $wall"
		if [ -z "$best" ] || awk -v a="$wall" -v b="$best" 'BEGIN { exit !(a < b) }'; then best=$wall; fi
		[ "$kb" -gt "$rss" ] && rss=$kb
	done
	# shellcheck disable=SC2086 # one wall time a word
	med=$(printf '%s\n' $walls | median)
}
