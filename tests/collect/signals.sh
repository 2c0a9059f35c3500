#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# SIGINT/SIGTERM/SIGHUP/SIGPIPE mid-run: exit 1, info.json complete:false with the stop reason,
# every measured row on disk and whole; a real closed stderr (SIGPIPE at every write) likewise; SIGKILL: whole rows except at most a cut last line, analyze still reads it.
. "$(dirname "$0")/lib.sh"
command -v jq >/dev/null || fail "jq not installed (scripts/deps/collect.txt)"

# wait_rows DIR N: until datapoints.csv has N rows (max 60 s; a busy CPU discards most datapoints)
wait_rows() {
	for _ in $(seq 600); do
		[ -f "$1/datapoints.csv" ] && [ "$(csv_rows "$1/datapoints.csv")" -ge "$2" ] && return 0
		sleep 0.1
	done
	fail "$1: no $2 rows after 60 s"
}

for sig in INT TERM HUP PIPE; do
	run="$TMP/sig$sig"
	wait_cpu_free
	"$COLLECT" --method timer -c 1000000 --cpu "$CPU" -l 100us,300us --keep-raw -q --no-counters -o "$run" 2>"$TMP/err" &
	pid=$!
	wait_rows "$run" 50     # rows reach the disk at least every second
	kill -$sig $pid
	wait $pid
	rc=$?
	[ $rc -eq 1 ] || fail "SIG$sig: exit $rc, expected 1"
	grep -q "stopped by SIG$sig" "$TMP/err" || { cat "$TMP/err"; fail "SIG$sig: no message"; }
	rows=$(csv_rows "$run/datapoints.csv")
	check_timer_rows "$run/datapoints.csv" 100000 300000 "$rows" 1
	jq_true "$run/info.json" '.complete == false and .stop_reason == "signal SIG'$sig'" and .datapoints == '"$rows" "SIG$sig info.json"
	jq_true "$run/info.json" '.end_time != null and .duration_s > 0' "SIG$sig end time"
	"$ANALYZE" stats -F json -f count "$run" >"$TMP/stats.json" 2>"$TMP/aerr" || fail "analyze on SIG$sig run"
	# an interrupted run is said to be so, once, and nothing else is wrong with it (notes are not warnings)
	[ "$(grep -v -e ': note: ' -e ': the collector warned: ' "$TMP/aerr")" = "analyze: warning: $run: incomplete run: info.json says \"complete\": false, \"stop_reason\": \"signal SIG$sig\"" ] ||
		{ cat "$TMP/aerr"; fail "analyze on a run stopped by SIG$sig: not the one incomplete-run warning"; }
	jq_true "$TMP/stats.json" ".runs[0].rows == $rows" "analyze rows after SIG$sig"
	note "SIG$sig: $rows rows kept, complete:false"
done

# stderr a pipe whose reader is gone: the first message raises SIGPIPE, the run stops cleanly
# (0 rows), and the SIGPIPEs of the later messages do not kill collect.
run="$TMP/epipe"
for _ in $(seq 30); do
	wait_cpu_free
	perl -e 'pipe(R, W) or die; close R; open(STDERR, ">&", \*W) or die; close W; exec @ARGV or die' \
		"$COLLECT" --method timer -c 1000000 --cpu "$CPU" -l 100us,300us --no-counters -o "$run"
	rc=$?
	[ -e "$run" ] && break   # else it lost the CPU lock race (that message raised SIGPIPE: 141)
	[ $rc -eq 141 ] || fail "closed stderr: exit $rc before the run started"
done
[ $rc -eq 1 ] || fail "closed stderr: exit $rc, expected 1"
rows=$(csv_rows "$run/datapoints.csv")
jq_true "$run/info.json" '.complete == false and .stop_reason == "signal SIGPIPE" and .datapoints == '"$rows" "closed stderr info.json"
jq_true "$run/info.json" '.end_time != null' "closed stderr end time"
note "closed stderr: stopped by SIGPIPE, $rows rows, info.json finished"

run="$TMP/sigKILL"
wait_cpu_free
"$COLLECT" --method timer -c 1000000 --cpu "$CPU" -l 50us,100us --keep-raw -q --no-counters -o "$run" 2>/dev/null &
pid=$!
wait_rows "$run" 100
sleep 0.3
kill -KILL $pid
wait $pid
[ $? -eq 137 ] || fail "SIGKILL: unexpected exit status"
check_timer_rows "$run/datapoints.csv" 50000 100000 -1 0
jq_true "$run/info.json" '.complete == false and .stop_reason == "running"' "info.json after SIGKILL is the start version"
"$ANALYZE" stats -F json -f count "$run" >"$TMP/stats.json" 2>"$TMP/aerr" || fail "analyze on a SIGKILLed run"
grep -qxF "analyze: warning: $run: incomplete run: info.json says \"complete\": false, \"stop_reason\": \"running\" (the collector was killed, or is still running)" "$TMP/aerr" ||
	{ cat "$TMP/aerr"; fail "analyze: no incomplete-run warning on a SIGKILLed run"; }
[ "$(grep -v 'incomplete run' "$TMP/aerr" | grep -v -e ': the collector warned: ' | grep -vc ': note: ')" -le 1 ] || { cat "$TMP/aerr"; fail "analyze: more than one warning about the cut line"; }
note "SIGKILL: analyze read it ($(cat "$TMP/aerr"))"
