#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Remote runs against a private sshd on 127.0.0.1 (sshd.sh): deploy (first copy, unchanged
# copy kept, a foreign copy replaced), a timer and a bpf run checked row by row as local runs
# are, info.json naming the host, the SUT's copy removed once fetched, and a two-host fleet
# that analyze reads as DIR/*.
. "$(dirname "$0")/../collect/lib.sh"
. "$(dirname "$0")/sshd.sh"
command -v jq >/dev/null || fail "jq not installed"
start_sshd 1

# deploy: copied, then left alone, then a changed copy is replaced
rcollect -H sut1 --deploy 2>"$TMP/err" || { cat "$TMP/err"; fail "deploy"; }
grep -q "^collect: sut1: deployed collect [0-9.]* in " "$TMP/err" || { cat "$TMP/err"; fail "deploy message"; }
vdir=$(ls -d "$TMP"/sut/collect-*)
cmp "$vdir/collect" "$(dirname "$COLLECT")/deploy/collect" || fail "deployed file differs from collect-deploy"
rcollect -H sut1 --deploy 2>"$TMP/err" || fail "second deploy"
grep -q "^collect: sut1: already has collect" "$TMP/err" || { cat "$TMP/err"; fail "unchanged copy not recognised"; }
echo "not ours" >"$vdir/collect"
rcollect -H sut1 --deploy 2>"$TMP/err" || fail "deploy over a foreign copy"
grep -q "^collect: sut1: deployed" "$TMP/err" || { cat "$TMP/err"; fail "foreign copy not replaced"; }
cmp -s "$vdir/collect" "$(dirname "$COLLECT")/deploy/collect" || fail "foreign copy still there"
note "deploy: copied, kept, replaced"

# a timer run, every row checked as tests/collect checks local runs
rcollect_cpu -H sut1 --method timer -c 300 --cpu "$CPU" -l 200us,700us --keep-raw -o "$TMP/t1" ||
	{ cat "$TMP/err"; fail "remote timer run"; }
check_timer_rows "$TMP/t1/datapoints.csv" 200000 700000 300 1
jq_true "$TMP/t1/info.json" '.complete == true and .stop_reason == "count" and .datapoints == 300 and .method == "timer"' "timer info.json"
jq_true "$TMP/t1/info.json" '.reportid == "t1"' "reportid is the local directory's name"
jq_true "$TMP/t1/info.json" '.system.ssh_host == "sut1" and .system.hostname == "'"$(hostname)"'"' "host as given beside the SUT's hostname"
jq_true "$TMP/t1/info.json" '.remote.host == "sut1" and .remote.connection == "complete" and .remote.received_datapoints == 300 and .remote.sut_copy_kept == false' "remote object"
sutdir=$(jq -r .remote.sut_run_dir "$TMP/t1/info.json")
case $sutdir in "$TMP/sut/runs/t1-"*) ;; *) fail "SUT run directory '$sutdir' not under --remote-dir";; esac
[ ! -e "$sutdir" ] || fail "the SUT's copy $sutdir was not removed after the fetch"
"$ANALYZE" stats -F json -f count "$TMP/t1" >"$TMP/s.json" || fail "analyze on the remote run"
jq_true "$TMP/s.json" '.runs[0].rows == 300' "analyze rows"
note "timer: 300 rows checked"

# bpf, when this build has it and the kernel allows it
if "$COLLECT" --help >/dev/null && [ -r /sys/kernel/btf/vmlinux ] && [ "$(id -u)" -eq 0 ]; then
	if rcollect_cpu -H sut1 --method bpf -c 200 --cpu "$CPU" -l 300us,900us -q -o "$TMP/b1"; then
		check_bpf=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
			{ ld = $col["LDist"]; wl = $col["WakeLatency"]; il = $col["IntrLatency"]
			  if (ld < 300 || ld > 900 || wl <= 0 || il <= 0 || il > wl) { print NR ": " $0; exit } n++ }
			END { print n + 0 }' "$TMP/b1/datapoints.csv")
		[ "$check_bpf" = 200 ] || fail "bpf row check: $check_bpf"
		jq_true "$TMP/b1/info.json" '.method == "bpf" and .complete == true and .datapoints == 200' "bpf info.json"
		note "bpf: 200 rows checked"
	elif grep -q "unknown method\|built without eBPF\|BTF" "$TMP/err"; then
		note "bpf not available here: $(cat "$TMP/err")"
	else
		cat "$TMP/err"
		fail "remote bpf run"
	fi
fi

# a fleet of two aliases; one host after the other (both are this machine's CPU $CPU)
rcollect_cpu -H sut1,sut2 --jobs 1 --method timer -c 100 --cpu "$CPU" --keep-raw -q -o "$TMP/fleet" --force >"$TMP/out" ||
	{ cat "$TMP/out" "$TMP/err"; fail "fleet"; }
for h in sut1 sut2; do
	grep -qx "$h: 100 datapoints, [0-9]* discards, ok ($TMP/fleet/$h)" "$TMP/out" || { cat "$TMP/out"; fail "summary of $h"; }
	check_timer_rows "$TMP/fleet/$h/datapoints.csv" 1000000 4000000 100 1
	jq_true "$TMP/fleet/$h/info.json" '.system.ssh_host == "'$h'" and .reportid == "'$h'"' "fleet $h host and reportid"
done
"$ANALYZE" stats -F csv -f count "$TMP"/fleet/* >"$TMP/s.csv" || fail "analyze stats DIR/*"
grep -q '^sut1,,,100,' "$TMP/s.csv" && grep -q '^sut2,,,100,' "$TMP/s.csv" || { cat "$TMP/s.csv"; fail "fleet stats"; }
note "fleet: 2 hosts, 100 rows each"
