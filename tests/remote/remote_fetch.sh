#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# collect --fetch after a lost connection: the SUT kept its copy (info.json remote.sut_run_dir);
# --fetch puts the SUT's complete copy over the local partial run (the received rows checked to
# be its beginning, swapped in by one rename), marks info.json (remote.fetched, complete as the
# SUT's says) and removes the SUT's copy. Also: a fetch that finds different rows changes
# nothing; a complete run has nothing to fetch; a killed experiment is fetched run by run.
. "$(dirname "$0")/../collect/lib.sh"
. "$(dirname "$0")/sshd.sh"
command -v jq >/dev/null || fail "jq not installed"
start_sshd 1

# cut_run NAME ARGS...: a remote run whose connection is killed once it has 40 rows; the SUT's
# collect then stops (SIGINT from its agent) and finishes its copy ($sut)
cut_run() {
	name=$1
	shift
	rcollect -H sut1 --deploy 2>/dev/null || fail "deploy"
	for try in $(seq 30); do   # again while a colleague's collector takes the CPU first
		wait_cpu_free
		rm -rf "$TMP/$name"
		"$COLLECT" --ssh-config "$SSHDIR/config" --remote-dir "$TMP/sut" -H sut1 --cpu "$CPU" "$@" -q -o "$TMP/$name" 2>"$TMP/err" &
		pid=$!
		for _ in $(seq 600); do
			find "$TMP/$name" -name datapoints.csv 2>/dev/null | while read -r f; do [ "$(csv_rows "$f")" -ge 40 ] && echo y; done | grep -q y && break 2
			kill -0 $pid 2>/dev/null || break
			sleep 0.1
		done
		wait $pid
		grep -q "another collector" "$TMP/err" || { cat "$TMP/err"; fail "$name: the run ended before the cut"; }
		[ "$try" -lt 30 ] || fail "$name: CPU $CPU stayed busy"
		sleep 0.2
	done
	# ssh stopped for a second first: the SUT writes on, its rows wait in the channel, then
	# the connection drops with them: the SUT's copy has rows that never arrived
	sshpid=$(ps -o pid= --ppid $pid | head -1)
	[ -n "$sshpid" ] && kill -STOP $sshpid
	sleep 2
	kill_ssh $pid
	wait $pid
	[ $? -eq 1 ] || { cat "$TMP/err"; fail "$name: cut run did not exit 1"; }
	grep -q "connection lost after" "$TMP/err" || { cat "$TMP/err"; fail "$name: no lost-connection line"; }
}

# 1. a timer run cut, then fetched
cut_run t1 --method timer -c 1000000 -l 100us,300us --keep-raw --no-counters
rows=$(csv_rows "$TMP/t1/datapoints.csv")
sut=$(jq -r .remote.sut_run_dir "$TMP/t1/info.json")
jq_true "$TMP/t1/info.json" '.remote.connection == "lost" and .remote.sut_copy_kept == true and .complete == false and
	(.end_time | type) == "string"' "cut run's info.json"
wait_sut_stopped "$sut"
cp "$sut/datapoints.csv" "$TMP/sut-t1.csv"
sut_rows=$(csv_rows "$sut/datapoints.csv")
if [ "$sut_rows" -le "$rows" ]; then
	# a busy CPU wrote no row while ssh was stopped: the later half of the rows "did not arrive"
	rows=$((rows / 2))
	head -n $((rows + 1)) "$TMP/sut-t1.csv" >"$TMP/t1/datapoints.csv"
	note "no row written while ssh was stopped; the local copy cut to $rows rows"
fi
cp "$TMP/t1/datapoints.csv" "$TMP/t1-received.csv"
rcollect --fetch -H sut1 -o "$TMP/t1" 2>"$TMP/err" || { cat "$TMP/err"; fail "fetch"; }
grep -q "^collect: sut1: fetched .* into $TMP/t1 ($sut_rows datapoints); the SUT's copy removed" "$TMP/err" || { cat "$TMP/err"; fail "fetch message"; }
cmp "$TMP/t1/datapoints.csv" "$TMP/sut-t1.csv" || fail "the fetched file is not the SUT's"
head -n $((rows + 1)) "$TMP/t1/datapoints.csv" | cmp -s - "$TMP/t1-received.csv" || fail "the received rows changed"
check_timer_rows "$TMP/t1/datapoints.csv" 100000 300000 "$sut_rows" 1
jq_true "$TMP/t1/info.json" '.remote.fetched == true and .remote.sut_copy_kept == false and .remote.connection == "lost" and
	.remote.received_datapoints == '"$sut_rows"' and .datapoints == '"$sut_rows"' and .complete == false and
	.stop_reason == "signal SIGINT" and .reportid == "t1" and .system.ssh_host == "sut1"' "fetched info.json (the SUT's: stopped by SIGINT)"
[ ! -e "$sut" ] || fail "the SUT's copy $sut was not removed"
ls -a "$TMP" | grep -q 'fetch-' && fail "a temporary directory was left: $(ls -a "$TMP")"
"$ANALYZE" stats -F json -f count "$TMP/t1" | jq -e ".runs[0].rows == $sut_rows" >/dev/null || fail "analyze after the fetch"
note "timer run: $rows rows received, $sut_rows fetched, equal to the SUT's file"

# 2. nothing left to fetch
rcollect --fetch -H sut1 -o "$TMP/t1" 2>"$TMP/err"
[ $? -eq 1 ] && grep -qx "collect: $TMP/t1/info.json: remote.sut_copy_kept: false: nothing to fetch (the run was fetched already)" "$TMP/err" ||
	{ cat "$TMP/err"; fail "second fetch"; }
rcollect --fetch -H sut2 -o "$TMP/t1" 2>"$TMP/err"
[ $? -eq 1 ] && grep -q "^collect: $TMP/t1/info.json: remote.host: 'sut1' measured this run, not 'sut2'" "$TMP/err" ||
	{ cat "$TMP/err"; fail "fetch from another host"; }

# 3. rows here that the SUT's copy does not begin with: nothing changes, the SUT keeps its copy
cut_run t2 --method timer -c 1000000 -l 100us,300us --keep-raw --no-counters
sut=$(jq -r .remote.sut_run_dir "$TMP/t2/info.json")
wait_sut_stopped "$sut"
cp "$TMP/t2/datapoints.csv" "$TMP/t2-orig.csv"
sed -i '2s/^[0-9]*/999999/' "$TMP/t2/datapoints.csv"
cp "$TMP/t2/datapoints.csv" "$TMP/t2-before.csv"
rcollect --fetch -H sut1 -o "$TMP/t2" 2>"$TMP/err"
[ $? -eq 1 ] && grep -qx "collect: $TMP/t2/datapoints.csv: the SUT's copy does not begin with the rows received here; nothing changed, the SUT keeps its copy" "$TMP/err" ||
	{ cat "$TMP/err"; fail "fetch over different rows"; }
cmp -s "$TMP/t2/datapoints.csv" "$TMP/t2-before.csv" || fail "the local rows changed"
[ -d "$sut" ] || fail "the SUT's copy was removed after a refused fetch"
ls -a "$TMP" | grep -q 'fetch-' && fail "a temporary directory was left"
note "different rows: refused, nothing changed"

# 4. a fleet's fetch: DIR/<host> per host; one host with nothing to fetch fails alone
mkdir "$TMP/fl"
cp "$TMP/t2-orig.csv" "$TMP/t2/datapoints.csv"
mv "$TMP/t2" "$TMP/fl/sut1"
sut_rows=$(csv_rows "$sut/datapoints.csv")
rcollect --fetch -H sut1,sut2 -o "$TMP/fl" >"$TMP/out" 2>"$TMP/err"
[ $? -eq 1 ] || { cat "$TMP/out" "$TMP/err"; fail "fleet fetch: exit status"; }
grep -qx "sut1: $sut_rows datapoints, [0-9]* discards, ok ($TMP/fl/sut1)" "$TMP/out" ||
	{ cat "$TMP/out" "$TMP/err"; fail "fleet fetch: sut1"; }
grep -q "^sut2: 0 datapoints, 0 discards, failed" "$TMP/out" || { cat "$TMP/out"; fail "fleet fetch: sut2"; }
grep -qx "collect: sut2: $TMP/fl/sut2: no info.json or experiment.json (give the run's directory with -o)" "$TMP/err" || { cat "$TMP/err"; fail "fleet fetch: sut2 message"; }
jq_true "$TMP/fl/sut1/info.json" '.remote.fetched == true and .datapoints == '"$sut_rows"' and .reportid == "sut1"' "fleet fetch: sut1 fetched"
[ ! -e "$sut" ] || fail "fleet fetch: the SUT's copy was not removed"
note "fleet fetch: sut1 fetched, sut2 had nothing"

# 5. an experiment cut in its first run, fetched whole (every run and experiment.json)
if [ "$(id -u)" -eq 0 ] && [ -w /dev/cpu_dma_latency ]; then
	cut_run ex --method timer --matrix pm-qos=0,1000 --repeat 1 --time-limit 60s -l 1ms,3ms --keep-raw --no-counters
	sut=$(jq -r .remote.sut_run_dir "$TMP/ex/experiment.json")
	jq_true "$TMP/ex/experiment.json" '.remote.connection == "lost" and .complete == false and (.end_time | type) == "string"' "cut experiment"
	for _ in $(seq 300); do
		[ "$(jq -r .end_time "$sut/experiment.json" 2>/dev/null)" != null ] && break
		sleep 0.1
	done
	jq_true "$sut/experiment.json" '.stop_reason == "signal SIGINT" and .restored == true' "the SUT's experiment stopped and restored"
	rcollect --fetch -H sut1 -o "$TMP/ex" 2>"$TMP/err" || { cat "$TMP/err"; fail "fetch of an experiment"; }
	jq_true "$TMP/ex/experiment.json" '.remote.fetched == true and .stop_reason == "signal SIGINT" and .restored == true' "fetched experiment.json"
	for r in "$TMP"/ex/pm-qos=*; do
		jq_true "$r/info.json" '.remote.fetched == true and .datapoints == .remote.received_datapoints' "$r fetched"
	done
	[ ! -e "$sut" ] || fail "the SUT's experiment copy was not removed"
	note "experiment: cut in its first run, fetched ($(ls -d "$TMP"/ex/pm-qos=* | wc -l) run directories)"
fi
