#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# bpf method with only POLL enabled (collect's own --set, so collect restores the settings):
# LDist 20-200 us, every datapoint in POLL, none with SilentTime > LDist (a datapoint needs an
# idle entry after arming: POLL runs on through the callback that arms the next event), no
# TAI, IntrOff 0; the soft-hrtimer cost is reported; cpuidle sysfs is the same before and after.
# The haltpoll governor ignores disabled states, so the run also selects the menu (or teo)
# governor. Skips (77) on a CPU without a POLL state (cpuidle driver none).
. "$(dirname "$0")/lib.sh"
need_bpf_env
SYS=/sys/devices/system/cpu
driver=$(cat $SYS/cpuidle/current_driver 2>/dev/null || echo none)
[ "$driver" != none ] || skip "cpuidle driver is none: CPU $CPU has no POLL state to select"
grep -qx POLL $SYS/cpu"$CPU"/cpuidle/state*/name 2>/dev/null ||
	skip "CPU $CPU has no cpuidle state named POLL (driver $driver)"
gov=""
for g in menu teo; do
	grep -qw "$g" $SYS/cpuidle/available_governors 2>/dev/null && { gov=$g; break; }
done
[ -n "$gov" ] || skip "neither the menu nor the teo governor is available (the haltpoll governor ignores disabled states)"

snapshot() {
	for f in $SYS/cpuidle/current_governor $SYS/cpu*/cpuidle/state*/disable; do
		[ -r "$f" ] && printf '%s=%s\n' "$f" "$(cat "$f")"
	done
}
snapshot >"$TMP/before"
run="$TMP/run"
collect_wait --method bpf --set idle-governor="$gov" --set cstates=POLL --settings-cpus measured \
	-c 300 --cpu "$CPU" -l 20us,200us --seed 5 --keep-raw -q -o "$run"
rc=$?
snapshot >"$TMP/after"
diff "$TMP/before" "$TMP/after" >&2 || fail "cpuidle sysfs differs after the run (governor, state disable)"
[ $rc -eq 0 ] || fail "collect --method bpf with only POLL failed"

check_bpf_rows "$run/datapoints.csv" 20000 200000 300
check_bpf_info "$run/info.json" bpf_timer 300
awk -F, 'NR > 1 && ($6 != "POLL" || $3 != "" || $5 != "0") { print "FAIL: row " NR - 1 ": " $0 > "/dev/stderr"; bad++ }
	END { exit bad > 0 }' "$run/datapoints.csv" || fail "a row not in POLL, with a WakeLatency, or with IntrOff != 0"
jq_true "$run/info.json" '.settings_changed.cstates.after == "POLL" and .settings_changed["idle-governor"].after == "'"$gov"'"' \
	"the settings recorded as changed"
# The soft hrtimer's cost is measured on every expiry (docs/bpf.md, error budget).
jq_true "$run/info.json" '.method_details.soft_hrtimer as $s | [$s.timer_irq_to_callback, $s.hrtimer_softirq, $s.callback]
	| all(.count >= 300 and .median_us > 0 and .p99_us >= .median_us)' "soft_hrtimer figures"
# What the cpuidle driver tells about IRQs: haltpoll's states all run with IRQs on.
if [ "$driver" = haltpoll ]; then
	n=$(ls -d $SYS/cpu"$CPU"/cpuidle/state* | wc -l)
	jq_true "$run/info.json" ".method_details.irq_on_states_mask == $(((1 << n) - 1))" "haltpoll states known IRQs-on"
fi
note "POLL only: $(jq -c '{discards, soft_hrtimer: .method_details.soft_hrtimer}' "$run/info.json")"
note "IntrLatency median/p99 (us): $(cut -d, -f4 "$run/datapoints.csv" | tail -n +2 | sort -g |
	awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] "/" v[int(NR * 0.99 + 0.999)] }')"
