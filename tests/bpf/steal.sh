#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# bpf method, StealTime (issue 26): on a KVM guest whose host offers steal time, every cell is
# empty or >= 0 and fits in its window (TBI to max(TAI, TIntr)), and the run's total is no more
# than the measured CPU's steal in /proc/stat over the run (read 1 s after it, so that the
# kernel has accounted the run's steal; + 2 ticks for the truncation at both ends). Elsewhere:
# no StealTime column and the reason in info.json. --no-causes: no column, reason "--no-causes".
. "$(dirname "$0")/lib.sh"
need_bpf_env
command -v python3 >/dev/null || skip "python3 not installed"
note "cpuidle driver: $(cat /sys/devices/system/cpu/cpuidle/current_driver 2>/dev/null || echo none), CPU $CPU"

# steal_ticks: the measured CPU's steal in /proc/stat (USER_HZ ticks, the 9th field)
steal_ticks() {
	awk -v c="cpu$CPU" '$1 == c { print $9 }' /proc/stat
}

s0=$(steal_ticks)
collect_wait --method bpf --cpu "$CPU" -c 3000 --time-limit 30s -l 200us,2ms --keep-raw -q \
	--no-counters -o "$TMP/run" || fail "collect failed"
sleep 1
s1=$(steal_ticks)
[ -n "$s0" ] && [ -n "$s1" ] || fail "no cpu$CPU line with a steal field in /proc/stat"
csv=$TMP/run/datapoints.csv
[ "$(wc -l <"$csv")" -gt 1 ] || fail "no datapoint (CPU $CPU busy all the time?)"
why=$(jq -r '.method_details.causes.steal' "$TMP/run/info.json")
if ! head -1 "$csv" | tr , '\n' | grep -qx StealTime; then
	case $why in
	"StealTime:"*) fail "info.json says StealTime is counted, the CSV has no such column" ;;
	""|null) fail "no StealTime column and no reason in info.json method_details.causes.steal" ;;
	esac
	note "no StealTime here: $why"
	note "bpf steal: ok (absent)"
	exit 0
fi
case $why in "StealTime:"*) ;; *) fail "a StealTime column but info.json says: $why" ;; esac
hz=$(getconf CLK_TCK)
python3 - "$csv" "$s0" "$s1" "$hz" <<'PY' || fail "StealTime cells (above)"
import csv, sys
path, s0, s1, hz = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
bad = total = n = with_steal = unknown = 0
for i, r in enumerate(csv.DictReader(open(path, newline="")), 2):
    n += 1
    if r["StealTime"] == "":
        unknown += 1
        continue
    v = float(r["StealTime"])
    win = (max(int(r["TAI"] or 0), int(r["TIntr"])) - int(r["TBI"])) / 1000
    if v < 0 or v > win + 0.001:
        print(f"FAIL: {path}:{i}: StealTime {v} us outside 0 .. window {win} us")
        bad += 1
    total += v
    with_steal += v > 0
proc_us = (s1 - s0) * 1e6 / hz
tol_us = 2 * 1e6 / hz
print(f"# {n} datapoints, {with_steal} with steal, {unknown} not known; StealTime total {total:.3f} us, "
      f"/proc/stat steal delta {proc_us:.0f} us (+{tol_us:.0f} us tolerance)")
if with_steal == 0:
    print("# the host stole nothing from this vCPU in any window: only the bounds are checked")
if unknown * 10 > n:
    print(f"FAIL: {unknown} of {n} StealTime cells not known")
    bad += 1
if total > proc_us + tol_us:
    print(f"FAIL: StealTime total {total:.3f} us > /proc/stat steal delta {proc_us:.0f} us + {tol_us:.0f}")
    bad += 1
sys.exit(1 if bad else 0)
PY

collect_wait --method bpf --cpu "$CPU" -c 50 --time-limit 10s -q --no-counters --no-causes -o "$TMP/off" ||
	fail "collect --no-causes failed"
head -1 "$TMP/off/datapoints.csv" | grep -q StealTime && fail "--no-causes wrote StealTime"
jq_true "$TMP/off/info.json" '.method_details.causes.counted == false' "causes not counted"
note "bpf steal: ok"
