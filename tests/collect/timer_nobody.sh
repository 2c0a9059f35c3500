#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# timer method as the unprivileged user nobody: 300 datapoints, every row and info.json checked,
# and analyze stats reads the run.
. "$(dirname "$0")/lib.sh"
command -v setpriv >/dev/null || skip "setpriv not installed"
command -v jq >/dev/null || fail "jq not installed (scripts/deps/collect.txt)"
[ "$(id -u)" -eq 0 ] || skip "needs root to switch to user nobody"

run="$TMP/run1"
retry_busy as_nobody --method timer -c 300 --cpu "$CPU" -l 50us,1500us --keep-raw --seed 7 -q -o "$run" \
	|| fail "collect as nobody failed"
[ "$(stat -c %U "$run/datapoints.csv")" = nobody ] || fail "datapoints.csv not written by nobody"
check_timer_rows "$run/datapoints.csv" 50000 1500000 300 1

i="$run/info.json"
jq_true "$i" '.toolname == "idlescope" and (.toolver | type) == "string" and .format_version == "1.1"' "tool fields"
jq_true "$i" '.reportid == "run1" and .method == "timer" and .cpu == '"$CPU" "reportid/method/cpu"
jq_true "$i" '.ldist_min_ns == 50000 and .ldist_max_ns == 1500000 and .seed == 7' "LDist range and seed"
jq_true "$i" '.datapoints == 300 and .complete == true and .stop_reason == "count"' "count and completeness"
jq_true "$i" '(.discards | keys) == ["lost","not_idle","other_wake","wrong_cpu"] and ([.discards[]] | all(. >= 0))' "discards by reason"
jq_true "$i" '.event_source | test("clock_nanosleep")' "event source"
jq_true "$i" '.method_details.sched | test("^SCHED_OTHER \\(SCHED_FIFO not permitted")' "nobody cannot use SCHED_FIFO and says so"
jq_true "$i" '.start_time | test("^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9:]{8}\\.[0-9]{3}Z$")' "ISO start time"
jq_true "$i" '.duration_s > 0 and .end_monotonic_ns > .start_monotonic_ns' "duration"
jq_true "$i" '.command_line[0] == "'"$TMP/bin/collect"'" and any(.command_line[]; . == "300")' "command line"
jq_true "$i" '.pm_qos | has("cpu_dma_latency_us_before") and .requested_us == null' "PM QoS record"
jq_true "$i" '.system.kernel.release == "'"$(uname -r)"'" and (.system.hostname | length) > 0' "system kernel/hostname"
jq_true "$i" '.system.cpu.vendor == "'"$(awk -F': ' '/^vendor_id/ {print $2; exit}' /proc/cpuinfo)"'"' "CPU vendor"
nstates=$(ls -d /sys/devices/system/cpu/cpu$CPU/cpuidle/state* 2>/dev/null | wc -l)
jq_true "$i" '(.system.cpuidle.states | length) == '"$nstates" "idle states of CPU $CPU"
if [ "$nstates" -gt 0 ]; then
	jq_true "$i" '.system.cpuidle.states | all(has("name") and has("latency_us") and has("residency_us") and has("disabled"))' "idle state fields"
	jq_true "$i" '.system.cpuidle.driver == "'"$(cat /sys/devices/system/cpu/cpuidle/current_driver)"'"' "cpuidle driver"
fi
jq_true "$i" '.system.clocksource.current == "'"$(cat /sys/devices/system/clocksource/clocksource0/current_clocksource)"'"' "clocksource"

"$ANALYZE" stats -F json -f count "$run" >"$TMP/stats.json" || fail "analyze stats failed"
jq_true "$TMP/stats.json" '.runs[0].rows == 300 and .runs[0].metrics.WakeLatency.count == 300 and .runs[0].toolname == "idlescope"' "analyze stats figures"
note "timer run as nobody: ok"
