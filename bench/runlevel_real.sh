#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# A real replicated experiment on this machine for analyze diff's run-level verdict (issue 13):
# PM QoS 0 us (collect --pm-qos-us 0: the CPU polls instead of entering an idle state, as
# cstates=POLL does; collect holds the request only while it runs) against the default,
# REPEAT runs each in interleaved order (A1 B1 A2 B2 ...), plus an A/A experiment (the default
# configuration under two names, interleaved too). Writes experiment.json files in the layout
# of docs/diff.md ("Experiments") and prints both diffs' verdicts.
# usage: bench/runlevel_real.sh [BUILD_DIR] [OUT_DIR]   (root; REPEAT=3 COUNT=2000 CPU=1)
set -eu
build=${1:-build}
out=${2:-/tmp/idlescope-runlevel}
repeat=${REPEAT:-3}
count=${COUNT:-2000}
cpu=${CPU:-1}
rm -rf "$out"
mkdir -p "$out/pmqos" "$out/aa"

collect_run() {  # DIR [collect options...]: retried while another collector holds the CPU
	local dir=$1
	shift
	for _ in 1 2 3 4 5 6 7 8 9 10; do
		if "$build/collect/collect" --method bpf --cpu "$cpu" -c "$count" -q --force \
			--counters-interval 0.5 -o "$dir" "$@" 2> "$out/collect.err"; then
			return 0
		fi
		grep -q "locked" "$out/collect.err" || { cat "$out/collect.err" >&2; return 1; }
		sleep 5
	done
	return 1
}

runs_json() {  # EXP_DIR NAME1 VALUE1 NAME2 VALUE2 FACTOR: experiment.json of the runs in order
	local dir=$1 factor=$6 sep="" i
	{
		printf '{"format_version": "1.0", "design": {"factors": [{"name": "%s", "values": ["%s", "%s"]}], "repeat": %d, "order": "interleaved"},\n "runs": [' \
			"$factor" "$3" "$5" "$repeat"
		for i in $(seq "$repeat"); do
			printf '%s\n  {"path": "%s-%d", "config": {"%s": "%s"}, "replicate": %d, "complete": true},' \
				"$sep" "$2" "$i" "$factor" "$3" "$i"
			printf '\n  {"path": "%s-%d", "config": {"%s": "%s"}, "replicate": %d, "complete": true}' \
				"$4" "$i" "$factor" "$5" "$i"
			sep=","
		done
		printf ']}\n'
	} > "$dir/experiment.json"
}

for i in $(seq "$repeat"); do
	collect_run "$out/pmqos/default-$i"
	collect_run "$out/pmqos/pmqos0-$i" --pm-qos-us 0
	collect_run "$out/aa/a-$i"
	collect_run "$out/aa/b-$i"
done
runs_json "$out/pmqos" default default pmqos0 0 pm-qos
runs_json "$out/aa" a A b B name
for exp in pmqos aa; do
	echo "== $exp"
	"$build/analyze/analyze" diff -G -m '^(WakeLatency|IntrLatency)$' "$out/$exp" | grep -E '^(Experiment|  [A-Za-z]+:|  !)'
done
