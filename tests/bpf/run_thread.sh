#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# bpf method with the fallback event source (timerfd thread pinned to the measured CPU),
# forced through IDLESCOPE_BPF_EVENT_SOURCE: 300 real datapoints, every row checked.
. "$(dirname "$0")/lib.sh"
need_bpf_env
run="$TMP/run"
export IDLESCOPE_BPF_EVENT_SOURCE=thread
collect_wait --method bpf -c 300 --cpu "$CPU" -l 300us,1500us \
	--keep-raw -q -o "$run" || fail "collect --method bpf (thread source) failed"
check_bpf_rows "$run/datapoints.csv" 300000 1500000 300
check_bpf_info "$run/info.json" timerfd_thread 300
jq_true "$run/info.json" '.event_source_why | test("forced by IDLESCOPE_BPF_EVENT_SOURCE=thread")' "why says it was forced"
note "bpf method, timerfd thread source: ok"
