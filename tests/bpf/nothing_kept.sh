#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# A run that keeps nothing stops (issue 11): with LDist 1 us the CPU cannot go idle before the
# BPF timer fires, every datapoint is discarded (not_idle), and collect must stop after 100000
# attempts and 10 s without a kept one, with the counts, instead of spinning forever.
. "$(dirname "$0")/lib.sh"
need_bpf_env
run="$TMP/nk"
collect_wait --method bpf -c 100 --cpu "$CPU" -l 1us -q --no-counters -o "$run"
[ $rc -eq 1 ] || { cat "$TMP/err"; fail "exit $rc, expected 1"; }
grep -Eq "^collect: CPU $CPU, -l 1us: no datapoint kept in [0-9.]+ s: all [0-9]+ attempts were discarded \(not_idle [0-9]+, other_wake [0-9]+, wrong_cpu [0-9]+, lost [0-9]+\); the CPU does not go idle before LaunchTime" "$TMP/err" ||
	{ cat "$TMP/err"; fail "message"; }
jq_true "$run/info.json" '.complete == false and .stop_reason == "nothing_kept" and .datapoints == 0' "info.json"
jq_true "$run/info.json" '(.discards | .not_idle + .other_wake + .wrong_cpu + .lost) >= 100000' "discard counts"
note "$(cat "$TMP/err")"
