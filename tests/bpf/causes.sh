#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# bpf method, cause columns (issue 26): real activity made on the measured CPU while collect
# runs. A quiet control run, then a run with loopback UDP traffic from the other CPU whose
# receive side lo's RPS steers to the measured CPU (a call-function IPI and a NET_RX softirq
# there per datapoint), then one with --no-causes. Checks: the loaded run has datapoints with
# NET_RX in their window (at least 1 %, and 5 times the control's share), every row's cause
# cells agree with one another and fit in the window (TBI to max(TAI, TIntr)); --no-causes
# writes no cause column; analyze stats --causes on the loaded run agrees with an independent
# computation (tests/analyze/causes_check.py). lo's rps_cpus is restored on any exit.
. "$(dirname "$0")/lib.sh"
need_bpf_env
need_netrx_load
note "cpuidle driver: $(cat /sys/devices/system/cpu/cpuidle/current_driver 2>/dev/null || echo none), CPU $CPU, traffic from CPU $SRC"

# check_causes CSV: every row's cause cells (IRQCnt IRQTime IRQTop SWIRQCnt SWIRQTime SWIRQTypes
# [StealTime] NMICnt after LDist ... TIntr of a --keep-raw run) consistent and inside the window.
# StealTime is there on a KVM guest with steal time (tests/bpf/steal.sh checks its values).
check_causes() {
	# the columns follow the first datapoint: a run without one has none (a busy machine)
	[ "$(wc -l <"$1")" -gt 1 ] || fail "$1: no datapoint (CPU $CPU busy all the time?)"
	head -1 "$1" | grep -qx 'LDist,SilentTime,WakeLatency,IntrLatency,IntrOff,ReqCState,LTime,TBI,TAI,TIntr,IRQCnt,IRQTime,IRQTop,SWIRQCnt,SWIRQTime,SWIRQTypes(,StealTime)?,NMICnt' -E ||
		fail "$1: header $(head -1 "$1")"
	awk -F, '
	function die(m) { printf "FAIL: %s:%d: %s: %s\n", FILENAME, NR, m, $0 > "/dev/stderr"; bad = 1; exit 1 }
	NR == 1 { nmi = $17 == "StealTime" ? 18 : 17; next }
	{
		end = $9 > $10 ? $9 : $10
		win = (end - $8) / 1000
		if ($11 !~ /^[0-9]+$/ || $14 !~ /^[0-9]+$/ || $nmi !~ /^[0-9]+$/) die("counts not whole numbers")
		if (($11 == 0) != ($13 == "") || ($11 == 0) != ($12 == "0.000")) die("IRQCnt, IRQTop, IRQTime disagree")
		if ($13 != "" && $13 !~ /^(LOC|RES|CAL|IWI|IRQ[0-9]+)$/) die("IRQTop " $13)
		if (($14 == 0) != ($16 == "") || ($14 == 0) != ($15 == "0.000")) die("SWIRQCnt, SWIRQTypes, SWIRQTime disagree")
		if ($14 < split($16, t, "+")) die("fewer softirqs than types")
		if ($12 + $15 > win + 0.001) die("IRQTime + SWIRQTime > window " win " us")
	}
	END { exit bad }' "$1" || fail "$1: cause cells (above)"
}

# netrx_share CSV: datapoints with NET_RX in their window, and all, as "n total".
netrx_share() {
	awk -F, 'NR > 1 { n++; if ($16 ~ /(^|\+)NET_RX(\+|$)/) k++ } END { print k + 0, n + 0 }' "$1"
}

run_for() {   # run_for DIR [ARGS]: 600 datapoints on $CPU, or what 20 s give on a loaded machine
	out=$1; shift
	collect_wait --method bpf --cpu "$CPU" -c 600 --time-limit 20s -l 200us,2ms --keep-raw -q \
		--no-counters -o "$out" "$@" || fail "collect -o $out failed"
}

run_for "$TMP/quiet"
check_causes "$TMP/quiet/datapoints.csv"
jq_true "$TMP/quiet/info.json" '.method_details.causes.counted == true' "causes counted"
set -- $(netrx_share "$TMP/quiet/datapoints.csv")
q_k=$1 q_n=$2
note "quiet: $q_k of $q_n datapoints with NET_RX"

netrx_load_start
run_for "$TMP/net"
netrx_load_stop
check_causes "$TMP/net/datapoints.csv"
set -- $(netrx_share "$TMP/net/datapoints.csv")
l_k=$1 l_n=$2
note "loopback traffic steered to CPU $CPU ($(cat "$TMP/sent") datagrams): $l_k of $l_n datapoints with NET_RX"
[ "$l_n" -ge 100 ] || fail "only $l_n datapoints in 20 s under traffic"
[ "$l_k" -ge 3 ] && [ $((l_k * 100)) -ge "$l_n" ] ||
	fail "$l_k of $l_n datapoints with NET_RX under steered traffic: expected at least 3 and 1 %"
[ $((l_k * q_n)) -ge $((5 * q_k * l_n)) ] ||
	fail "NET_RX share under traffic ($l_k/$l_n) not 5 times the quiet run's ($q_k/$q_n)"

if [ -n "$ANALYZE" ]; then   # the tail breakdown of this real run, against an independent computation
	"$ANALYZE" stats --causes -F json "$TMP/net" >"$TMP/net.json" || fail "analyze stats --causes failed"
	python3 "$(dirname "$0")/../analyze/causes_check.py" "$TMP/net/datapoints.csv" "$TMP/net.json" 99 \
		WakeLatency IntrLatency || fail "analyze stats --causes differs from causes_check.py on the real run"
fi

run_for "$TMP/off" --no-causes
head -1 "$TMP/off/datapoints.csv" | grep -q -e IRQCnt -e SWIRQ -e NMICnt &&
	fail "--no-causes still wrote cause columns: $(head -1 "$TMP/off/datapoints.csv")"
jq_true "$TMP/off/info.json" '.method_details.causes.counted == false' "causes not counted"
note "bpf causes: ok"
