#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# A run started by a driver dies with it: SIGKILL the `collect --matrix` driver (or the
# --cpu LIST one) in the middle of a run and its child collect must stop within 2 s (it
# gets SIGTERM: it finishes its run directory as "signal SIGTERM") and free its CPU lock.
# pm-qos is the setting: it needs no cpufreq and is only held while a run lasts.
. "$(dirname "$0")/../collect/lib.sh"
. "$(dirname "$0")/fixture.sh"   # pick_cpu
command -v jq >/dev/null || fail "jq not installed"
[ "$(id -u)" -eq 0 ] || skip "needs root (--matrix, /dev/cpu_dma_latency)"
[ -w /dev/cpu_dma_latency ] || skip "no /dev/cpu_dma_latency"
[ -e /run/idlescope-settings/settings.journal ] && skip "a settings journal is pending on this machine (another collector's experiment?)"
CPU=$(pick_cpu)
note "cpuidle driver: $(cat /sys/devices/system/cpu/cpuidle/current_driver 2>/dev/null || echo none); CPU $CPU"
pids=""
stop_all() {
	for p in $pids; do kill -KILL "$p" 2>/dev/null; done
	[ -e /run/idlescope-settings/settings.journal ] && "$COLLECT" --restore >/dev/null 2>&1
	return 0
}
test_when_finished stop_all

# wait_file FILE: until it has data (10 s at most); a run's info.json: it measures now
wait_file() {
	for _ in $(seq 100); do [ -s "$1" ] && return 0; sleep 0.1; done
	cat "$TMP"/*.err >&2
	fail "$1: no data after 10 s"
}
# gone_within PID TENTHS: whether PID ended within TENTHS tenths of a second (a zombie has
# ended: the orphan's new parent may be slow to reap it, or never do)
gone_within() {
	for _ in $(seq "$2"); do
		state=$(sed 's/.*) //' "/proc/$1/stat" 2>/dev/null | cut -d' ' -f1)
		[ -z "$state" ] || [ "$state" = Z ] && return 0
		sleep 0.1
	done
	return 1
}
lock_free() {
	for l in /run/idlescope/cpu$1.lock /tmp/idlescope-locks/cpu$1.lock; do
		[ ! -e "$l" ] || flock -n "$l" true || fail "$2: CPU $1 still locked ($l)"
	done
}

# 1. the experiment driver
U="--method timer --cpu $CPU -l 100us,200us -q --time-limit 60s"
e=$TMP/exp
"$COLLECT" $U --matrix pm-qos=0,100 -o "$e" 2>"$TMP/exp.err" &
driver=$!
pids="$driver"
wait_file "$e/pm-qos=0-r1/info.json"
child=$(pgrep -P "$driver")
[ -n "$child" ] || fail "--matrix: no child collect under driver $driver"
pids="$driver $child"
kill -KILL "$driver"
wait "$driver" 2>/dev/null
gone_within "$child" 20 || fail "--matrix: child $child still runs 2 s after its driver was killed"
lock_free "$CPU" "--matrix"
jq_true "$e/pm-qos=0-r1/info.json" '.stop_reason == "signal SIGTERM" and .complete == false' \
	"--matrix: the child's run does not say it was stopped by SIGTERM"
# the killed driver could not restore: its journal is pending, as after any SIGKILL
"$COLLECT" --restore >"$TMP/restore.out" 2>&1 || { cat "$TMP/restore.out"; fail "--restore after the killed driver"; }
note "--matrix: child gone, lock free, its run finished ($(jq -r .datapoints "$e/pm-qos=0-r1/info.json") datapoints, stop_reason SIGTERM)"

# 2. the --cpu LIST driver (one child per CPU)
if [ "$(nproc)" -ge 2 ]; then
	m=$TMP/multi
	"$COLLECT" --method timer --cpu 0,1 -l 100us,200us -q --time-limit 60s -o "$m" 2>"$TMP/multi.err" &
	driver=$!
	pids="$driver"
	wait_file "$m/cpu0/info.json"
	wait_file "$m/cpu1/info.json"
	children=$(pgrep -P "$driver")
	[ "$(echo $children | wc -w)" -eq 2 ] || fail "--cpu 0,1: expected 2 children, got '$children'"
	pids="$driver $children"
	kill -KILL "$driver"
	wait "$driver" 2>/dev/null
	for c in $children; do
		gone_within "$c" 20 || fail "--cpu 0,1: child $c still runs 2 s after its driver was killed"
	done
	lock_free 0 "--cpu 0,1"
	lock_free 1 "--cpu 0,1"
	for c in 0 1; do
		jq_true "$m/cpu$c/info.json" '.stop_reason == "signal SIGTERM"' "--cpu 0,1: cpu$c's run not stopped by SIGTERM"
	done
	note "--cpu 0,1: both children gone, locks free"
else
	note "one CPU: the --cpu LIST part is left out"
fi
echo "ok: children die with their driver"
