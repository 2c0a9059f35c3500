#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# bpf method, bpf_timer event source: 300 real datapoints, every row and info.json checked,
# and analyze stats reads the run.
. "$(dirname "$0")/lib.sh"
need_bpf_env
run="$TMP/run"
collect_wait --method bpf -c 300 --cpu "$CPU" -l 200us,2ms --seed 11 --keep-raw -q -o "$run" \
	|| fail "collect --method bpf failed"
check_bpf_rows "$run/datapoints.csv" 200000 2000000 300
check_bpf_info "$run/info.json" bpf_timer 300
jq_true "$run/info.json" '.event_source_why | test("BPF_F_TIMER_ABS\\|BPF_F_TIMER_CPU_PIN")' "why names the flags"
jq_true "$run/info.json" '.seed == 11 and .ldist_min_ns == 200000 and .ldist_max_ns == 2000000' "seed and LDist range"
if [ -n "$ANALYZE" ]; then
	"$ANALYZE" stats -F json -f count "$run" >"$TMP/stats.json" || fail "analyze stats failed"
	jq_true "$TMP/stats.json" '.runs[0].rows == 300 and .runs[0].metrics.IntrLatency.count == 300' "analyze stats figures"
fi
note "bpf method, bpf_timer source: ok"
