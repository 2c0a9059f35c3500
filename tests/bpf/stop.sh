#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# SIGINT while no datapoint is due (LDist 5 s): the method's next() must notice the stop
# request by itself (ring buffer polled with a timeout), so collect ends well within a second.
. "$(dirname "$0")/lib.sh"
need_bpf_env
run="$TMP/run"
tries=0
while :; do
	"$COLLECT" --method bpf -c 1000 --cpu "$CPU" -l 5s -q -o "$run" 2>"$TMP/err" &
	pid=$!
	sleep 1
	kill -0 "$pid" 2>/dev/null && break
	wait "$pid"
	grep -q 'another collector is measuring CPU' "$TMP/err" || fail "collect ended early: $(cat "$TMP/err")"
	tries=$((tries + 1))
	[ "$tries" -lt 90 ] || fail "CPU $CPU stayed busy with another collector"
done
start=$(date +%s%N)
kill -INT "$pid"
wait "$pid"
rc=$?
ms=$(( ($(date +%s%N) - start) / 1000000 ))
[ "$rc" -ne 0 ] || fail "interrupted run exited 0"
[ "$ms" -lt 1000 ] || fail "collect took $ms ms to stop after SIGINT"
jq_true "$run/info.json" '.complete == false and .event_source == "bpf_timer" and .datapoints == 0' "info.json of the interrupted run"
note "stopped $ms ms after SIGINT"
