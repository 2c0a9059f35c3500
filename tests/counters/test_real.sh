#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# One-shot and interval modes for real on this machine, with what it has; the missing
# counters must be named with a reason, and never written as zero.
# usage: test_real.sh COLLECT ANALYZE
set -eu
COLLECT=$1 ANALYZE=$2
. "$(dirname "$0")/lib.sh"
T=$(mktemp -d)
test_when_finished 'rm -rf "$T"'
NCPU=$(getconf _NPROCESSORS_ONLN)

# one-shot: exits with the command's status
set +e
"$COLLECT" --counters -o "$T/one" -- sh -c 'sleep 0.2; exit 3' 2> "$T/one.err"
rc=$?
set -e
eq "one-shot exit status is the command's" "$rc" 3
eq "one-shot info exit_status" "$(jq .exit_status "$T/one/info.json")" 3
eq "one-shot mode" "$(jq -r .mode "$T/one/info.json")" counters-command
eq "one-shot rows (2 snapshots x CPUs)" "$(($(wc -l < "$T/one/counters.csv") - 1))" $((2 * NCPU))
eq "one-shot format_version" "$(jq -r .format_version "$T/one/info.json")" 1.1
NMISS=$(jq '.counters.missing | length' "$T/one/info.json")
NWARN=$(grep -c 'unavailable: ' "$T/one.err" || true)
eq "every missing counter reported once on stderr" "$NWARN" "$NMISS"
# a counter that is missing is not a column (never a column of zeros)
for c in $(jq -r '.counters.missing[].counters' "$T/one/info.json" | tr -d ' ' | tr ',' ' '); do
	head -1 "$T/one/counters.csv" | tr ',' '\n' | grep -qx "$c" && fail "missing $c is a column"
done
echo "ok: missing counters are not columns"
# every column has its source in info.json
for c in $(head -1 "$T/one/counters.csv" | cut -d, -f6- | tr ',' ' '); do
	[ "$(jq -r --arg c "$c" '.counters.columns[$c].source' "$T/one/info.json")" != null ] ||
		fail "no source for $c"
done
echo "ok: every column has a source"
if [ ! -e /dev/cpu/0/msr ] && ! [ -e /sys/bus/event_source/devices/msr/events/aperf ]; then
	has "APERF/MPERF reported missing with the reason" "$(cat "$T/one.err")" \
		"APERF, MPERF unavailable: msr PMU has no aperf event; no /dev/cpu/0/msr"
fi
J=$("$ANALYZE" counters "$T/one" --format json 2> "$T/an.err")
if head -1 "$T/one/counters.csv" | tr ',' '\n' | grep -qx TSC; then
	TSC=$(printf '%s' "$J" | jq '.intervals[0].summary.TSC_MHz')
	awk -v t="$TSC" 'BEGIN { exit !(t > 100 && t < 10000) }' || fail "TSC_MHz $TSC"
	echo "ok: TSC_MHz $TSC"
fi
if [ -d /sys/devices/system/cpu/cpu0/cpuidle/state0 ]; then
	S=$(tr -c 'A-Za-z0-9\n' _ < /sys/devices/system/cpu/cpu0/cpuidle/state0/name)
	P=$(printf '%s' "$J" | jq --arg s "$S%" '.intervals[0].cpus[0][$s]')
	awk -v p="$P" 'BEGIN { exit !(p >= 0 && p <= 100) }' || fail "$S% = $P"
	echo "ok: $S% = $P"
fi
if ! head -1 "$T/one/counters.csv" | tr ',' '\n' | grep -qx APERF; then
	has "analyze names what it cannot derive" "$(cat "$T/an.err")" \
		"note: not derivable from this run: Avg_MHz (needs APERF)"
fi

if grep -q AuthenticAMD /proc/cpuinfo; then
	has "no AnyThread on this CPU, said so" "$(cat "$T/one.err")" \
		"REF_XCLK_ANY unavailable: AnyThread counting is an Intel (family 6) PMU feature"
fi

# one-shot: SIGTERM goes on to the command; the last snapshot is still taken
# wait_rows FILE N: until FILE has N data rows (at most 10 s)
wait_rows() {
	i=0
	while { [ ! -f "$1" ] || [ "$(($(wc -l < "$1") - 1))" -lt "$2" ]; } && [ $i -lt 100 ]; do
		sleep 0.1
		i=$((i + 1))
	done
}
"$COLLECT" --counters -q -o "$T/term" -- sleep 10 & pid=$!
wait_rows "$T/term/counters.csv" "$NCPU"
sleep 0.2
kill -TERM $pid
set +e
wait $pid
rc=$?
set -e
eq "SIGTERM in one-shot: the command's status (128+15)" "$rc" 143
eq "SIGTERM in one-shot: two snapshots" "$(jq .snapshots "$T/term/info.json")" 2
eq "SIGTERM in one-shot: exit_status" "$(jq .exit_status "$T/term/info.json")" 143

# interval mode: -n 3 gives 4 snapshots and 3 intervals
"$COLLECT" --counters -q -i 0.2 -n 3 -o "$T/iv" 2> "$T/iv.err" || fail "interval mode: $(cat "$T/iv.err")"
eq "interval snapshots" "$(jq .snapshots "$T/iv/info.json")" 4
eq "interval complete" "$(jq .complete "$T/iv/info.json")" true
eq "interval rows" "$(($(wc -l < "$T/iv/counters.csv") - 1))" $((4 * NCPU))
J=$("$ANALYZE" counters "$T/iv" --format json 2>/dev/null)
eq "3 intervals" "$(printf '%s' "$J" | jq '.intervals | length')" 3
eq "cpus per interval" "$(printf '%s' "$J" | jq '.intervals[2].cpus | length')" "$NCPU"
DT=$(printf '%s' "$J" | jq '.intervals[1].t1 - .intervals[1].t0')
awk -v d="$DT" 'BEGIN { exit !(d > 0.1 && d < 1.5) }' || fail "interval length $DT"
echo "ok: interval length $DT s"
"$ANALYZE" counters "$T/iv" --format csv 2>/dev/null > "$T/iv.csv"
eq "csv rows (3 x (summary + CPUs))" "$(($(wc -l < "$T/iv.csv") - 1))" $((3 * (NCPU + 1)))

# interval mode stopped by SIGINT without -n: complete, exit 0
"$COLLECT" --counters -q -i 0.1 -o "$T/sig" & pid=$!
wait_rows "$T/sig/counters.csv" $((2 * NCPU))
kill -INT $pid
wait $pid || fail "SIGINT in interval mode: exit $?"
eq "SIGINT run complete" "$(jq .complete "$T/sig/info.json")" true
[ "$(jq .snapshots "$T/sig/info.json")" -ge 3 ] || fail "too few snapshots after SIGINT"
eq "SIGINT run stopped_by" "$(jq -r .stopped_by "$T/sig/info.json")" Interrupt

echo "ok: SIGINT stop"

# SIGHUP (terminal gone) and SIGPIPE (closed output) end a run as SIGTERM does: -n given and
# not reached, so complete:false, exit 1; every snapshot on disk, info.json finished.
for sig in HUP PIPE; do
	"$COLLECT" --counters -q -i 0.1 -n 100000 -o "$T/sig$sig" & pid=$!
	wait_rows "$T/sig$sig/counters.csv" $((2 * NCPU))
	kill -$sig $pid
	set +e
	wait $pid
	rc=$?
	set -e
	eq "SIG$sig in interval mode: exit status" "$rc" 1
	eq "SIG$sig run complete" "$(jq .complete "$T/sig$sig/info.json")" false
	eq "SIG$sig run stopped_by" "$(jq -r .stopped_by "$T/sig$sig/info.json")" "$([ $sig = HUP ] && echo Hangup || echo 'Broken pipe')"
	eq "SIG$sig: rows = snapshots x CPUs" "$(($(wc -l < "$T/sig$sig/counters.csv") - 1))" \
		$(($(jq .snapshots "$T/sig$sig/info.json") * NCPU))
	[ "$(jq -r .end_time "$T/sig$sig/info.json")" != null ] || fail "SIG$sig: info.json not finished"
done
# A real closed output: stderr is a pipe whose reader is gone, and --add names a counter that
# cannot be read, so collect writes to it (SIGPIPE) right away; it still finishes the run.
perl -e 'pipe(R, W) or die; close R; open(STDERR, ">&", \*W) or die; close W; exec @ARGV or die' \
	"$COLLECT" --counters -i 0.1 -n 100000 -o "$T/epipe" --add "$T/none/%d,u64,thread,delta,NOPE" ||
	rc=$?
eq "closed stderr: exit status" "${rc:-0}" 1
eq "closed stderr: stopped_by" "$(jq -r .stopped_by "$T/epipe/info.json")" "Broken pipe"
eq "closed stderr: complete" "$(jq .complete "$T/epipe/info.json")" false
eq "closed stderr: rows = snapshots x CPUs" "$(($(wc -l < "$T/epipe/counters.csv") - 1))" \
	$(($(jq .snapshots "$T/epipe/info.json") * NCPU))
# One-shot mode: SIGHUP goes on to the command like SIGTERM; a closed stderr does not end it.
"$COLLECT" --counters -q -o "$T/hup1" -- sleep 10 & pid=$!
wait_rows "$T/hup1/counters.csv" "$NCPU"
sleep 0.2
kill -HUP $pid
set +e
wait $pid
rc=$?
set -e
eq "SIGHUP in one-shot: the command's status (128+1)" "$rc" 129
eq "SIGHUP in one-shot: two snapshots" "$(jq .snapshots "$T/hup1/info.json")" 2
set +e
perl -e 'pipe(R, W) or die; close R; open(STDERR, ">&", \*W) or die; close W; exec @ARGV or die' \
	"$COLLECT" --counters -o "$T/pipe1" --add "$T/none/%d,u64,thread,delta,NOPE" -- sh -c 'sleep 0.3; exit 5'
rc=$?
set -e
eq "closed stderr in one-shot: the command ran to its end" "$rc" 5
eq "closed stderr in one-shot: exit_status" "$(jq .exit_status "$T/pipe1/info.json")" 5
eq "closed stderr in one-shot: two snapshots" "$(jq .snapshots "$T/pipe1/info.json")" 2
echo "ok: SIGHUP and SIGPIPE"
# alongside a latency run (the sampler thread): counters.csv and info.json "counters"
# (while other collectors, other tests or users, measure the CPUs: try each in turn, up to
# 5 minutes)
for i in $(seq 300); do
	set +e
	"$COLLECT" --method timer --cpu $((i % NCPU)) -c 100 -q --counters-interval 0.1 -o "$T/lat" 2> "$T/lat.err"
	rc=$?
	set -e
	[ $rc -eq 1 ] && grep -q "another collector is measuring CPU" "$T/lat.err" || break
	sleep 1
done
[ $rc -eq 0 ] || fail "latency run with counters: $(cat "$T/lat.err")"
N=$(jq .counters.snapshots "$T/lat/info.json")
[ "$N" -ge 2 ] || fail "latency run: $N snapshots"
eq "latency run: rows = snapshots x CPUs" "$(($(wc -l < "$T/lat/counters.csv") - 1))" $((N * NCPU))
eq "latency run: interval_s" "$(jq .counters.interval_s "$T/lat/info.json")" 0.1
if grep -q ' constant_tsc.* nonstop_tsc' /proc/cpuinfo && [ "$(jq -r .counters.columns.TSC "$T/lat/info.json")" != null ]; then
	eq "latency run: invariant TSC read with rdtsc (no IPI)" "$(jq -r .counters.columns.TSC.source "$T/lat/info.json")" rdtsc
fi
if [ "$(jq '.counters.missing | length' "$T/lat/info.json")" -gt 0 ]; then
	eq "latency run: one line for the missing counters" "$(grep -c 'counter snapshots without' "$T/lat.err")" 1
fi
# An experiment warns about the missing counters once, not once per run (issue 24).
if [ "$(id -u)" -eq 0 ] && [ -w /dev/cpu_dma_latency ] && [ "$(jq '.counters.missing | length' "$T/lat/info.json")" -gt 0 ]; then
	set +e
	"$COLLECT" --method timer --cpu $((i % NCPU)) -c 50 -q --counters-interval 0.1 \
		--matrix pm-qos=0,1000 --repeat 2 -o "$T/exp" 2> "$T/exp.err"
	rc=$?
	set -e
	[ $rc -eq 0 ] || fail "experiment with counters: $(cat "$T/exp.err")"
	eq "experiment: one line for the missing counters in 4 runs" "$(grep -c 'counter snapshots without' "$T/exp.err")" 1
	eq "experiment: every run lists them" "$(cat "$T"/exp/*/info.json | jq -s 'map(.counters.missing | length > 0) | all')" true
fi
"$ANALYZE" counters "$T/lat" --Summary > /dev/null 2>&1 || fail "analyze counters on a latency run"
echo "ok: analyze counters on a latency run"
echo "all real-run tests passed"
