#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Stopping a remote run: ^C (SIGINT) on the controller stops the SUT's collect cleanly (every row
# fetched, the SUT's copy removed); the SSH connection killed mid-run keeps every row that
# arrived, says so in info.json and on one line, and the SUT's collect stops (its copy kept).
. "$(dirname "$0")/../collect/lib.sh"
. "$(dirname "$0")/sshd.sh"
command -v jq >/dev/null || fail "jq not installed"
start_sshd 1

# wait_rows DIR N: until DIR/datapoints.csv has N rows (60 s at most)
wait_rows() {
	for _ in $(seq 600); do
		[ -f "$1/datapoints.csv" ] && [ "$(csv_rows "$1/datapoints.csv")" -ge "$2" ] && return 0
		sleep 0.1
	done
	cat "$TMP/err"
	fail "$1: no $2 rows after 60 s"
}

# start_run NAME: a long remote timer run in the background ($pid), once the CPU is free
start_run() {
	rcollect -H sut1 --deploy 2>/dev/null || fail "deploy"
	for _ in $(seq 30); do
		wait_cpu_free
		"$COLLECT" --ssh-config "$SSHDIR/config" --remote-dir "$TMP/sut" -H sut1 --method timer -c 1000000 --cpu "$CPU" -l 100us,300us --keep-raw -q --no-counters \
			-o "$TMP/$1" 2>"$TMP/err" &
		pid=$!
		for _ in $(seq 100); do
			[ -f "$TMP/$1/datapoints.csv" ] && return 0
			kill -0 $pid 2>/dev/null || break
			sleep 0.1
		done
		wait $pid
		grep -q "another collector" "$TMP/err" || { cat "$TMP/err"; fail "remote run did not start"; }
		sleep 0.2
	done
	fail "CPU $CPU stayed busy"
}

# ^C on the controller
start_run int
wait_rows "$TMP/int" 50
kill -INT $pid
wait $pid
rc=$?
[ $rc -eq 1 ] || { cat "$TMP/err"; fail "^C: exit $rc, expected 1"; }
grep -q "^collect: sut1: collect: warning: stopped by SIGINT after [0-9]* datapoints" "$TMP/err" ||
	{ cat "$TMP/err"; fail "^C: the SUT's message was not passed on"; }
rows=$(csv_rows "$TMP/int/datapoints.csv")
check_timer_rows "$TMP/int/datapoints.csv" 100000 300000 "$rows" 1
jq_true "$TMP/int/info.json" '.complete == false and .stop_reason == "signal SIGINT" and .datapoints == '"$rows" "^C info.json"
jq_true "$TMP/int/info.json" '.remote.connection == "complete" and .remote.sut_copy_kept == false' "^C remote"
[ ! -e "$(jq -r .remote.sut_run_dir "$TMP/int/info.json")" ] || fail "^C: the SUT's copy was not removed"
note "^C: $rows rows, the SUT's collect stopped by SIGINT"

# the connection killed: SIGKILL to the ssh client under collect
start_run cut
wait_rows "$TMP/cut" 50
sshpid=$(ps -o pid= --ppid $pid | head -1)
[ -n "$sshpid" ] || fail "no ssh process under collect"
[ "$(ps -o comm= -p $sshpid)" = ssh ] || fail "collect's child $sshpid is not ssh"
kill -KILL $sshpid
wait $pid
rc=$?
[ $rc -eq 1 ] || { cat "$TMP/err"; fail "connection killed: exit $rc, expected 1"; }
grep -Eq "^collect: sut1: connection lost after [0-9]+ datapoints \(ssh exit 137\); $TMP/cut kept what arrived, the SUT keeps its copy in $TMP/sut/runs/cut-" "$TMP/err" ||
	{ cat "$TMP/err"; fail "connection killed: message"; }
[ "$(grep -c . "$TMP/err")" -eq 1 ] || { cat "$TMP/err"; fail "connection killed: more than one line"; }
rows=$(csv_rows "$TMP/cut/datapoints.csv")
check_timer_rows "$TMP/cut/datapoints.csv" 100000 300000 "$rows" 1
jq_true "$TMP/cut/info.json" '.complete == false and .stop_reason == "connection lost" and .datapoints == '"$rows" "cut info.json"
jq_true "$TMP/cut/info.json" '.remote.connection == "lost" and .remote.sut_copy_kept == true and .remote.received_datapoints == '"$rows" "cut remote"
sut=$(jq -r .remote.sut_run_dir "$TMP/cut/info.json")
# the SUT's collect stops (SIGINT from its agent when the channel closes) and finishes its copy
for _ in $(seq 100); do
	[ "$(jq -r .stop_reason "$sut/info.json" 2>/dev/null)" = "signal SIGINT" ] && break
	sleep 0.1
done
jq_true "$sut/info.json" '.stop_reason == "signal SIGINT" and .end_time != null' "the SUT's collect did not stop cleanly"
sut_rows=$(csv_rows "$sut/datapoints.csv")
[ "$sut_rows" -ge "$rows" ] || fail "the SUT has $sut_rows rows, fewer than the $rows received"
# what arrived is the SUT's file up to where the connection broke
head -n $((rows + 1)) "$sut/datapoints.csv" | cmp -s - "$TMP/cut/datapoints.csv" || fail "received rows differ from the SUT's"
"$ANALYZE" stats -F json -f count "$TMP/cut" >"$TMP/s.json" || fail "analyze on a cut run"
jq_true "$TMP/s.json" ".runs[0].rows == $rows" "analyze rows of the cut run"
note "connection killed: $rows rows kept here, $sut_rows on the SUT, its collect stopped by SIGINT"
