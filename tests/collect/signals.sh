#!/bin/sh
# SIGINT/SIGTERM mid-run: exit 1, info.json complete:false with the stop reason, every measured
# row on disk and whole; SIGKILL: whole rows except at most a cut last line, analyze still reads it.
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

for sig in INT TERM; do
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
	# notes (columns without values, left out) are not warnings
	! grep -qv ': note: ' "$TMP/aerr" || { cat "$TMP/aerr"; fail "analyze warned on a cleanly stopped run"; }
	jq_true "$TMP/stats.json" ".runs[0].rows == $rows" "analyze rows after SIG$sig"
	note "SIG$sig: $rows rows kept, complete:false"
done

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
[ "$(grep -vc ': note: ' "$TMP/aerr")" -le 1 ] || { cat "$TMP/aerr"; fail "analyze: more than one warning"; }
note "SIGKILL: analyze read it ($(cat "$TMP/aerr"))"
