#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Compare collect's timer and bpf methods with cyclictest on one CPU under one PM QoS setting.
#
# usage: bench/collect_vs_cyclictest.sh [-b BUILD_DIR] [-c CPU] [-n SAMPLES] [-i INTERVAL_US]
#                                       [-r ROUNDS] [-q PM_QOS_US] [-o KEEP_DIR]
#   -b  build directory holding collect/collect (default: build)
#   -c  CPU to measure (default 1, or 0 on a one-CPU machine)
#   -n  samples per tool (default 5000)
#   -i  wake-up interval = fixed LDist in us (default 1000)
#   -r  rounds (default 5): the tools take turns, SAMPLES/ROUNDS each per round, so that
#       a change of the machine's load during the bench hits all three alike
#   -q  hold /dev/cpu_dma_latency at this many us for all three tools (root);
#       default: leave PM QoS as it is (cyclictest gets --laptop so that it does not set 0)
#   -o  keep the runs in this directory (default: a temporary one, removed)
# All three run SCHED_FIFO 99 with memory locked (as root). Prints median and p99 of each,
# and collect's datapoint rate against 1/(mean LDist + mean latency), counting the kept
# datapoints and all attempts (kept + discarded).
set -eu
build=build cpu=1 n=5000 interval=1000 rounds=5 qos="" keep=""
while getopts b:c:n:i:r:q:o:h opt; do
	case $opt in
	b) build=$OPTARG ;; c) cpu=$OPTARG ;; n) n=$OPTARG ;; i) interval=$OPTARG ;; r) rounds=$OPTARG ;;
	q) qos=$OPTARG ;; o) keep=$OPTARG ;;
	*) sed -n '2,18p' "$0" | sed 's/^# \{0,1\}//'; exit 2 ;;
	esac
done
. "$(dirname "$0")/cyclictest_args.sh"
collect=$build/collect/collect
[ -x "$collect" ] || { echo "bench: $collect not built" >&2; exit 2; }
command -v cyclictest >/dev/null || { echo "bench: cyclictest missing (apt-get install rt-tests)" >&2; exit 2; }
[ "$(nproc --all)" -gt "$cpu" ] || cpu=0
if [ -n "$keep" ]; then dir=$keep; mkdir -p "$dir"; else dir=$(mktemp -d); trap 'rm -rf "$dir"' EXIT; fi

if [ -n "$qos" ]; then
	# the kernel takes a hex string when the write is not 4 bytes long
	exec 3>/dev/cpu_dma_latency
	printf '0x%08x' "$qos" >&3
	qos_desc="held at $qos us by this script"
else
	qos_desc="left alone ($(od -An -td4 /dev/cpu_dma_latency 2>/dev/null | tr -d ' ' || echo unreadable) us)"
fi

# stats NAME FILE: median, p99 (linear interpolation between closest ranks), mean, count
stats() {
	sort -g "$2" | awk -v name="$1" '
	{ v[NR] = $1; s += $1 }
	function q(p,   h, lo) { h = (NR - 1) * p + 1; lo = int(h); return lo >= NR ? v[NR] : v[lo] + (h - lo) * (v[lo + 1] - v[lo]) }
	END { if (!NR) { printf "%-28s no samples\n", name; exit }
	      printf "%-28s n=%-6d median %8.3f us   p99 %9.3f us   mean %8.3f us\n", name, NR, q(0.5), q(0.99), s / NR }'
}

# column CSV NAME: the non-empty values of one column
column() {
	awk -F, -v name="$2" 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == name) c = i; next }
			      c && $c != "" { print $c }' "$1"
}

# rate NAME LATENCY_COLUMN: datapoints/s over all rounds against the ideal
# 1/(mean LDist + mean latency)
rate() {
	name=$1 lat=$2
	dur=0 rows=0 disc=0
	for r in "$dir/$name".*; do
		[ -f "$r/info.json" ] || continue
		dur=$(jq -n "$dur + $(jq .duration_s "$r/info.json")")
		rows=$((rows + $(jq .datapoints "$r/info.json")))
		disc=$((disc + $(jq '[.discards[]] | add' "$r/info.json")))
		echo "  round $(basename "$r" | cut -d. -f2): $(jq -c .discards "$r/info.json")"
	done
	cat "$dir/$name".*/datapoints.csv | awk -F, -v lat="$lat" -v dur="$dur" -v rows="$rows" -v disc="$disc" '
		$1 == "LDist" { for (i = 1; i <= NF; i++) { if ($i == "LDist") l = i; if ($i == lat) w = i }; next }
		{ sl += $l; nl++; if ($w != "") { sw += $w; nw++ } }
		END { ideal = 1e6 / (sl / nl + sw / nw); kept = rows / dur; all = (rows + disc) / dur
		      printf "  rate: %.1f datapoints/s kept = %.1f%% of ideal %.1f/s (1/(mean LDist + mean %s)); " \
			     "all attempts %.1f/s = %.1f%% (%d discarded)\n", kept, 100 * kept / ideal, ideal, lat, all, 100 * all / ideal, disc }'
}

# collect_busy ARGS...: collect, waiting (up to 10 min) while another collector holds the CPU
# (a shared machine); the waits are counted and printed at the end.
waits=0
collect_busy() {
	t=0
	while :; do
		"$collect" "$@" 2>"$dir/collect.err" && return 0
		grep -q 'another collector is measuring CPU' "$dir/collect.err" && [ $t -lt 600 ] ||
			{ cat "$dir/collect.err" >&2; return 1; }
		waits=$((waits + 1)) t=$((t + 1))
		sleep 1
	done
}

echo "cyclictest $(cyclictest_args "$cpu" "$interval" N)"
echo "CPU $cpu, $n samples each in $rounds rounds, interval/LDist $interval us, PM QoS $qos_desc, kernel $(uname -r)"
echo "cpuidle: $(cat /sys/devices/system/cpu/cpuidle/current_driver 2>/dev/null || echo none)" \
	"governor $(cat /sys/devices/system/cpu/cpuidle/current_governor_ro 2>/dev/null || echo none)"

per=$((n / rounds))
bpf_ok=1
: >"$dir/cyclictest.lat"
ct_time=0
for r in $(seq "$rounds"); do
	t0=$(date +%s.%N)
	# shellcheck disable=SC2046 # the arguments are words without spaces
	cyclictest $(cyclictest_args "$cpu" "$interval" "$per") 2>/dev/null >"$dir/cyclictest.out"
	t1=$(date +%s.%N)
	ct_time=$(echo "$ct_time $t0 $t1" | awk '{ print $1 + $3 - $2 }')
	awk -F: 'NF == 3 && $1 + 0 == 0 && $2 ~ /^ *[0-9]+$/ { print $3 + 0 }' "$dir/cyclictest.out" >>"$dir/cyclictest.lat"
	collect_busy --method timer --cpu "$cpu" -l "${interval}us" -c "$per" -q --no-counters -o "$dir/timer.$r"
	if [ $bpf_ok -eq 1 ] && ! collect_busy --method bpf --cpu "$cpu" -l "${interval}us" -c "$per" -q --no-counters \
		-o "$dir/bpf.$r" 2>"$dir/bpf.err"; then
		bpf_ok=0
	fi
done

stats "cyclictest (user-space)" "$dir/cyclictest.lat"
awk -v n="$(wc -l <"$dir/cyclictest.lat")" -v t="$ct_time" \
	'BEGIN { printf "  rate: %.1f samples/s (wall time incl. start-up)\n", n / t }'
for r in $(seq "$rounds"); do column "$dir/timer.$r/datapoints.csv" WakeLatency; done >"$dir/timer.lat"
stats "collect timer WakeLatency" "$dir/timer.lat"
rate timer WakeLatency
if [ $bpf_ok -eq 1 ]; then
	for r in $(seq "$rounds"); do column "$dir/bpf.$r/datapoints.csv" IntrLatency; done >"$dir/bpf.intr"
	for r in $(seq "$rounds"); do column "$dir/bpf.$r/datapoints.csv" WakeLatency; done >"$dir/bpf.wake"
	stats "collect bpf IntrLatency" "$dir/bpf.intr"
	stats "collect bpf WakeLatency" "$dir/bpf.wake"
	rate bpf IntrLatency
else
	echo "collect bpf: skipped: $(head -1 "$dir/bpf.err")"
fi
[ $waits -eq 0 ] || echo "note: waited ${waits} s in all for another collector to free CPU $cpu (a shared machine: cyclictest may have run beside it)"
