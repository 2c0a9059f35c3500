#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# collect --counters over SSH (counter snapshots alone, turbostat-style): counters.csv streamed
# as the SUT writes it, info.json the SUT's with the host as given; one host and a two-host
# fleet; a connection killed mid-run keeps every whole row that arrived and gives info.json an
# end_time. This VM has no MSR and no hardware perf counters: the counters checked are the
# procfs/sysfs ones (TSC, IRQ, /proc/stat, cpuidle usage).
. "$(dirname "$0")/../collect/lib.sh"
. "$(dirname "$0")/sshd.sh"
command -v jq >/dev/null || fail "jq not installed"
start_sshd 1
ncpu=$(nproc)

# check_counters DIR SNAPSHOTS: every snapshot has one row per online CPU, numbered 0.., times rising
check_counters() {
	head -1 "$1/counters.csv" | grep -q '^Snapshot,Time,CPU,Core,Package,TSC,IRQ,' || fail "$1: counters.csv header"
	awk -F, -v n="$ncpu" -v want="$2" 'NR == 1 { next }
		{ s = int((NR - 2) / n); if ($1 != s || $3 == "" || $2 < t) { print FILENAME ":" NR ": " $0; exit 1 } t = $2; rows++ }
		END { if (rows != want * n) { print FILENAME ": " rows " rows, expected " want * n; exit 1 } }' "$1/counters.csv" ||
		fail "$1: counters.csv rows"
}

# one host: -o DIR is the run
rcollect -H sut1 --counters -i 0.2 -n 4 -o "$TMP/c1" 2>"$TMP/err" || { cat "$TMP/err"; fail "remote counters"; }
check_counters "$TMP/c1" 5
jq_true "$TMP/c1/info.json" '.mode == "counters-interval" and .complete == true and .snapshots == 5 and .interval_s == 0.2 and
	.end_time != null and .reportid == "c1"' "counters info.json"
jq_true "$TMP/c1/info.json" '.system.ssh_host == "sut1" and .system.hostname == "'"$(hostname)"'" and .remote.connection == "complete" and
	.remote.received_counter_rows == '$((5 * ncpu))' and .remote.sut_copy_kept == false' "counters remote fields"
[ ! -e "$(jq -r .remote.sut_run_dir "$TMP/c1/info.json")" ] || fail "the SUT's copy was not removed"
"$ANALYZE" counters "$TMP/c1" --format csv >"$TMP/c.csv" 2>/dev/null || fail "analyze counters on the remote run"
[ "$(grep -c . "$TMP/c.csv")" -gt 4 ] || { cat "$TMP/c.csv"; fail "analyze counters output"; }
note "one host: 5 snapshots x $ncpu CPUs"

# a fleet of two
rcollect -H sut1,sut2 --counters -i 0.2 -n 2 -q -o "$TMP/cf" >"$TMP/out" 2>"$TMP/err" || { cat "$TMP/out" "$TMP/err"; fail "counters fleet"; }
for h in sut1 sut2; do
	grep -qx "$h: $((3 * ncpu)) counter rows, 0 discards, ok ($TMP/cf/$h)" "$TMP/out" || { cat "$TMP/out"; fail "summary of $h"; }
	check_counters "$TMP/cf/$h" 3
	jq_true "$TMP/cf/$h/info.json" '.system.ssh_host == "'$h'" and .snapshots == 3 and .complete == true' "fleet $h"
done
note "fleet: 2 hosts x 3 snapshots"

# usage errors are still found before connecting
rcollect -H deadhost --counters -n 0 -o "$TMP/bad" 2>"$TMP/err"
rc=$?
[ $rc -eq 2 ] && grep -qx "collect: -n '0': expected a positive number of intervals" "$TMP/err" || { cat "$TMP/err"; fail "usage error: exit $rc"; }

# the connection killed mid-run
"$COLLECT" --ssh-config "$SSHDIR/config" --remote-dir "$TMP/sut" -H sut1 --counters -i 0.1 -n 100000 -o "$TMP/cut" 2>"$TMP/err" &
pid=$!
wait_csv_rows "$TMP/cut/counters.csv" $((3 * ncpu))
kill_ssh $pid
wait $pid
rc=$?
[ $rc -eq 1 ] || { cat "$TMP/err"; fail "connection killed: exit $rc"; }
grep -Eq "^collect: sut1: connection lost after [0-9]+ counter rows \(ssh exit 137\); $TMP/cut kept what arrived" "$TMP/err" ||
	{ cat "$TMP/err"; fail "connection killed: message"; }
rows=$(csv_rows "$TMP/cut/counters.csv")
[ $((rows % ncpu)) -eq 0 ] || note "last snapshot partly received ($rows rows, $ncpu CPUs)"
tail -c 1 "$TMP/cut/counters.csv" | od -c | grep -q '\\n' || fail "a partial row was written"
jq_true "$TMP/cut/info.json" '.complete == false and .stop_reason == "connection lost" and (.end_time | type) == "string" and
	.remote.connection == "lost" and .remote.sut_copy_kept == true and .remote.received_counter_rows == '"$rows" "cut info.json"
sut=$(jq -r .remote.sut_run_dir "$TMP/cut/info.json")
wait_sut_stopped "$sut"
head -n $((rows + 1)) "$sut/counters.csv" | cmp -s - "$TMP/cut/counters.csv" || fail "received rows differ from the SUT's"
note "connection killed: $rows counter rows kept, info.json has an end_time"
