#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Issue 24: the bpf method on a CPU a busy loop keeps busy 19 ms of every 20 (busy_duty, $2):
# the power:cpu_idle tracepoint tells every datapoint whose CPU was not idle when the event
# fired, so most attempts are discarded as not_idle, info.json says mostly_discarded, and the
# end-of-run summary names the reasons and what the kept datapoints can describe.
COLLECT_BIN=$1
BUSY_DUTY=$2
. "$(dirname "$0")/lib.sh" "$COLLECT_BIN"
need_bpf_env
[ -x "$BUSY_DUTY" ] || fail "no busy_duty helper"
test_bg "$BUSY_DUTY" "$CPU" 19000 1000 >"$TMP/busy.out"
busy=$!
for _ in $(seq 50); do grep -q ready "$TMP/busy.out" && break; sleep 0.1; done
grep -q ready "$TMP/busy.out" || fail "busy_duty did not start"
note "cpuidle driver: $(cat /sys/devices/system/cpu/cpuidle/current_driver 2>/dev/null || echo none); CPU $CPU"
run=$TMP/b
collect_wait --method bpf -l 500us,2ms --time-limit 3s --cpu "$CPU" --no-counters -o "$run" ||
	fail "bpf run on a busy CPU: exit $rc"
kill $busy
info=$run/info.json
jq_true "$info" '.complete == true and .idle_check.per_datapoint == true' "complete, checked per datapoint"
jq_true "$info" '.attempts == .datapoints + ([.discards[]] | add) and
	((.discarded_pct - 100 * ([.discards[]] | add) / .attempts) | fabs) < 1e-9' "attempts and discarded_pct"
jq_true "$info" '.mostly_discarded == true and .discards.not_idle > .attempts / 2' "most attempts not_idle"
jq_true "$info" '.cpu_busy.busy_pct >= 60' "cpu_busy shows the busy loop"
n=$(jq -r .attempts "$info")
# (all of them when the machine's other load fills the loop's idle millisecond)
grep -Eq "^collect: warning: ([0-9.]+% of the $n attempts were discarded \(not_idle [0-9]+.*\): the [0-9]+ kept datapoints are a biased selection, not a sample of CPU $CPU's wake-ups: the attempts where the CPU happened to be idle|all $n attempts were discarded: no datapoint describes CPU $CPU's wake-ups)" "$TMP/err" ||
	fail "no 'mostly discarded' warning"
jq_true "$info" '.warnings | length == 1 and (.[0] | test("attempts were discarded"))' "the warning in info.json"
note "busy CPU, bpf: $(jq -c '{attempts, datapoints, discarded_pct, not_idle: .discards.not_idle, busy: .cpu_busy.busy_pct}' "$info")"
