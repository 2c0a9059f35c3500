#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Issue 24: a busy loop pinned to the measured CPU (busy 19 ms of every 20) must not give a run
# that looks clean. With cpuidle states (haltpoll, intel_idle, ...) the timer method checks each
# datapoint: most are discarded as not_idle, info.json says mostly_discarded, and the summary
# says what the kept ones describe. Without (driver none) it cannot: the run's busy share from
# /proc/stat (cpu_busy) must show the loop and the summary must warn. Either way: warned and
# recorded.
. "$(dirname "$0")/lib.sh"
command -v jq >/dev/null || fail "jq not installed (scripts/deps/collect.txt)"
drv=$(idle_driver)
note "cpuidle driver: $drv; measured CPU $CPU"
start_busy 19000 1000
r=$TMP/busy
retry_busy "$COLLECT" --method timer -l 500us,2ms --time-limit 3s --cpu "$CPU" --no-counters -o "$r" \
	2>"$TMP/err" || { cat "$TMP/err"; fail "timer run on a busy CPU"; }
stop_busy
cat "$TMP/err"
info=$r/info.json
check_judged "$info"
jq_true "$info" '.complete == true and .stop_reason == "time_limit"' "a complete run"
# The loop is busy 95 % of the time; the measuring thread's own share is taken off.
jq_true "$info" '.cpu_busy.busy_pct >= 60 and .cpu_busy.other_pct >= 50 and .cpu_busy.own_pct != null and
	.cpu_busy.ticks >= 20' "cpu_busy shows the busy loop"
if jq -e '.idle_check.per_datapoint' "$info" >/dev/null; then
	jq_true "$info" '.mostly_discarded == true and .discards.not_idle > 0' "most attempts discarded as not_idle"
	n=$(jq -r '.attempts' "$info")
	# (all of them when the machine's other load fills the loop's idle millisecond)
	grep -Eq "^collect: warning: ([0-9.]+% of the $n attempts were discarded \(not_idle [0-9]+.*\): the [0-9]+ kept datapoints are a biased selection|all $n attempts were discarded: no datapoint describes CPU $CPU's wake-ups)" "$TMP/err" ||
		fail "no 'mostly discarded' warning on stderr"
	jq_true "$info" '.warnings[0] | test("^([0-9.]+% of the [0-9]+ attempts were discarded .*biased selection|all [0-9]+ attempts were discarded: no datapoint)")' \
		"the warning in info.json"
	note "checked per datapoint: $(jq -r '"\(.discarded_pct | floor)% of \(.attempts) attempts discarded"' "$info")"
else
	grep -Eq "^collect: warning: CPU $CPU was busy [0-9.]+% of the run outside the measuring thread .* could not check each datapoint" "$TMP/err" ||
		fail "no busy-CPU warning on stderr"
	jq_true "$info" '[.warnings[] | select(test("was busy [0-9.]+% of the run outside the measuring thread"))] | length == 1' \
		"the busy warning in info.json"
	note "not checked per datapoint: busy share $(jq -r '.cpu_busy.other_pct' "$info")% warned"
fi
note "busy CPU, timer method: $(jq -c '{attempts, discarded_pct, cpu_busy: .cpu_busy.other_pct}' "$info")"

# The same without the per-datapoint check, on any driver (IDLESCOPE_TIMER_IDLE_CHECK=off reads no
# cpuidle counters, as on a CPU without states): nothing is discarded as not_idle, so the busy
# share must warn.
start_busy 19000 1000
r=$TMP/nocheck
IDLESCOPE_TIMER_IDLE_CHECK=off retry_busy "$COLLECT" --method timer -l 500us,2ms --time-limit 3s --cpu "$CPU" \
	--no-counters -o "$r" 2>"$TMP/err" || { cat "$TMP/err"; fail "timer run without the idle check"; }
stop_busy
cat "$TMP/err"
info=$r/info.json
check_judged "$info"
jq_true "$info" '.idle_check.per_datapoint == false and .discards.not_idle == 0 and .cpu_busy.other_pct >= 50 and
	.cpu_busy.own_pct != null' "no check, nothing not_idle, the loop in cpu_busy"
grep -Eq "^collect: warning: CPU $CPU was busy [0-9.]+% of the run outside the measuring thread \(/proc/stat, [0-9]+ ticks\) and the method could not check each datapoint \(the cpuidle usage counters .* not read" "$TMP/err" ||
	fail "no busy-CPU warning on stderr"
jq_true "$info" '[.warnings[] | select(test("was busy [0-9.]+% of the run outside the measuring thread"))] | length == 1' \
	"the busy warning in info.json"
note "busy CPU, timer method, no per-datapoint check: $(jq -c '{datapoints, cpu_busy}' "$info")"
