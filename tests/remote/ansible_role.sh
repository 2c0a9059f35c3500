#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# The Ansible collection (contrib/ansible, docs/remote.md): installed with ansible-galaxy from
# the tree, its role run with Debian's ansible against the loopback sshd with two inventory
# hosts (sut1, sut2: aliases of 127.0.0.1), taking turns (serial: 1). A timer run and a
# pm-qos experiment land in DIR/<host>/ as collect -H writes them, valid for analyze; analyze
# export of each fleet directory agrees with analyze stats. Then a failure injected midway
# (the SUT's experiment driver killed with SIGKILL in its second run): the role runs
# collect --restore, the settings are back (the idle governor where the driver has two, and
# every setting collect --list-settings shows), no journal is left, the partial experiment is
# fetched, and the host fails with one message. ansible's output is shown only on failure.
. "$(dirname "$0")/../collect/lib.sh"
. "$(dirname "$0")/sshd.sh"
command -v ansible-playbook >/dev/null && command -v ansible-galaxy >/dev/null ||
	skip "ansible not installed (Debian's ansible, scripts/deps/ansible.txt): the Ansible role is NOT tested"
command -v jq >/dev/null || fail "jq not installed"
[ "$(id -u)" -eq 0 ] || skip "needs root (pm-qos and the idle governor are root's settings)"
[ -w /dev/cpu_dma_latency ] || skip "no /dev/cpu_dma_latency"
[ -e /run/idlescope/settings.journal ] && skip "a settings journal is pending on this machine (another collector's experiment?)"
SRC=$(cd "$(dirname "$0")/../.." && pwd)
DEPLOY=$(dirname "$COLLECT")/deploy
[ -x "$DEPLOY/collect" ] || fail "no $DEPLOY/collect (the collect-deploy target)"
C=/sys/devices/system/cpu
note "cpuidle driver: $(cat $C/cpuidle/current_driver 2>/dev/null || echo none)"
start_sshd 1

A=$TMP/ansible
mkdir -p "$A/home" "$A/tmp" "$A/rtmp" "$A/cp" "$A/collections"
cat >"$A/ansible.cfg" <<EOC
[defaults]
home = $A/home
local_tmp = $A/tmp
remote_tmp = $A/rtmp
collections_path = $A/collections
retry_files_enabled = False
interpreter_python = /usr/bin/python3
nocolor = True
gathering = explicit
[ssh_connection]
ssh_args = -F $SSHDIR/config -o ControlMaster=no
control_path_dir = $A/cp
pipelining = True
EOC
export ANSIBLE_CONFIG="$A/ansible.cfg" ANSIBLE_HOME="$A/home"
printf '[sut]\nsut1\nsut2\n' >"$A/hosts.ini"

# ans LOG ARGS...: ansible-playbook, bounded in time, its output into LOG only
ans() {
	log=$1
	shift
	timeout -k 10 240 ansible-playbook -i "$A/hosts.ini" "$@" >"$log" 2>&1
}
ansible-galaxy collection install --offline -p "$A/collections" "$SRC/contrib/ansible" >"$A/galaxy.log" 2>&1 ||
	{ cat "$A/galaxy.log"; fail "ansible-galaxy collection install contrib/ansible"; }
[ -f "$A/collections/ansible_collections/idlescope/fleet/roles/collect/tasks/main.yml" ] ||
	{ cat "$A/galaxy.log"; fail "the collection was not installed"; }

# playbook NAME DIR ARGS: a play over sut, one host at a time, running the role with collect ARGS
playbook() {
	cat >"$A/$1.yml" <<EOY
- hosts: sut
  serial: 1
  tasks:
    - ansible.builtin.include_role:
        name: idlescope.fleet.collect
      vars:
        idlescope_results_dir: "$2"
        idlescope_deploy_dir: "$DEPLOY"
        idlescope_remote_dir: "$TMP/sut"
        idlescope_run_name: "$1"
        idlescope_collect_args: [$3]
EOY
}
U="'--method', 'timer', '-l', '1ms,3ms', '--keep-raw', '-q'"

# 1. one timer run per host
wait_cpu_free
playbook timer "$TMP/fleet" "$U, '-c', '40', '--cpu', '$CPU'"
ans "$A/timer.log" "$A/timer.yml" || { cat "$A/timer.log"; fail "the role's timer run"; }
for h in sut1 sut2; do
	d=$TMP/fleet/$h
	check_timer_rows "$d/datapoints.csv" 1000000 3000000 40 1
	jq_true "$d/info.json" '.complete == true and .datapoints == 40 and .method == "timer"' "$h: fetched run"
done
[ -z "$(ls -A "$TMP/sut/runs")" ] || fail "the SUT's copies were not removed: $(ls -A "$TMP/sut/runs")"
[ -z "$(find "$TMP/fleet" -name '*.tar.gz')" ] || fail "archives left in the fleet directory"
"$ANALYZE" stats -F csv "$TMP/fleet/sut1" "$TMP/fleet/sut2" >"$TMP/s.csv" 2>/dev/null || fail "analyze stats of the fleet"
"$ANALYZE" export "$TMP/fleet" >"$TMP/e.csv" 2>/dev/null || fail "analyze export of the fleet"
s_rows=$(($(wc -l <"$TMP/s.csv") - 1)) nf=$(($(head -1 "$TMP/s.csv" | tr ',' '\n' | wc -l) - 5))
[ "$(($(wc -l <"$TMP/e.csv") - 1))" -eq $((s_rows * nf)) ] || fail "export rows $(($(wc -l <"$TMP/e.csv") - 1)) != $s_rows x $nf"
for h in sut1 sut2; do   # each host's WakeLatency median: the same text in both
	"$ANALYZE" stats -F csv -f med "$TMP/fleet/$h" >"$TMP/s1.csv" 2>/dev/null || fail "analyze stats $h"
	sv=$(awk -F, 'NR > 1 && $2 == "" && $5 == "WakeLatency" { print $6 }' "$TMP/s1.csv")
	ev=$(python3 -c 'import csv, sys
for r in csv.DictReader(open(sys.argv[1])):
    if (r["host"], r["by"], r["metric"], r["func"]) == (sys.argv[2], "", "WakeLatency", "med"): print(r["value"])' "$TMP/e.csv" $h)
	[ -n "$sv" ] && [ "$sv" = "$ev" ] || fail "$h: WakeLatency med: stats '$sv', export '$ev'"
done
note "timer run: 2 hosts x 40 datapoints in DIR/<host>/; export $((s_rows * nf)) rows = $s_rows stats rows x $nf functions"

# 2. a pm-qos experiment per host
wait_cpu_free
playbook pmqos "$TMP/mx" "'--matrix', 'pm-qos=0,1000', '--repeat', '2', $U, '-c', '30', '--cpu', '$CPU'"
ans "$A/pmqos.log" "$A/pmqos.yml" || { cat "$A/pmqos.log"; fail "the role's pm-qos experiment"; }
for h in sut1 sut2; do
	jq_true "$TMP/mx/$h/experiment.json" '[.runs[].path] == ["pm-qos=0-r1","pm-qos=1000-r1","pm-qos=0-r2","pm-qos=1000-r2"]
		and .complete == true and .restored == true' "$h: experiment"
	for r in "$TMP/mx/$h"/pm-qos=*; do
		check_timer_rows "$r/datapoints.csv" 1000000 3000000 30 1
		jq_true "$r/info.json" '.complete == true and .experiment.replicate >= 1' "$r"
	done
done
"$ANALYZE" export -G -f count -m '^WakeLatency$' "$TMP/mx" >"$TMP/mx.csv" 2>/dev/null || fail "analyze export of the experiments"
# one row per run: host, configuration and replicate from each run, 30 datapoints counted
python3 -c 'import csv, sys
got = sorted((r["host"], r["config"], r["replicate"], r["rows"], r["value"]) for r in csv.DictReader(open(sys.argv[1])))
want = sorted((h, "pm-qos=" + c, r, "30", "30") for h in ("sut1", "sut2") for c in ("0", "1000") for r in ("1", "2"))
sys.exit(got != want and print(got, "!=", want) is None)' "$TMP/mx.csv" || fail "export of the experiments" 
note "pm-qos experiment: 2 hosts x 4 runs x 30 datapoints, restored; export: 8 runs with host, config, replicate"

# 3. a failure midway: the SUT's driver killed in its second run; the role restores. The second
# configuration is a governor other than the current one, so the machine is changed at the kill.
if [ -w $C/cpuidle/current_governor ] && [ "$(wc -w <$C/cpuidle/available_governors)" -ge 2 ]; then
	orig=$(cat $C/cpuidle/current_governor)
	other=$(tr ' ' '\n' <$C/cpuidle/available_governors | grep -vx "$orig" | grep . | head -1)
	F=idle-governor V1=$orig V2=$other
	put_back() { echo "$orig" >$C/cpuidle/current_governor 2>/dev/null; }
	test_when_finished put_back
else
	F=pm-qos V1=1000 V2=0 orig=
	note "no switchable idle governor: the failure is injected in a pm-qos experiment"
fi
"$COLLECT" --list-settings >"$TMP/settings.before" 2>&1 || fail "collect --list-settings"
wait_cpu_free
playbook fail "$TMP/fail" "'--matrix', '$F=$V1,$V2', '--repeat', '3', $U, '--time-limit', '2s', '-c', '100000', '--cpu', '$CPU'"
ans "$A/fail.log" "$A/fail.yml" --limit sut1 &
apid=$!
second=$TMP/sut/runs/fail/$F=$V2-r1
for _ in $(seq 600); do
	[ -d "$second" ] && break
	sleep 0.1
done
[ -d "$second" ] || { kill $apid; wait $apid; cat "$A/fail.log"; fail "the second run ($second) did not start"; }
# argv[0] of PID, "" when it is gone
arg0() { { tr '\0' '\n' <"/proc/$1/cmdline" | head -1; } 2>/dev/null; }
driver=""
for p in /proc/[0-9]*; do   # the SUT's experiment driver: the deployed collect, -o the run
	p=${p#/proc/}           # directory, started by the module (its runs are its children)
	[ "$(arg0 $p)" = "$TMP/sut/bin/collect" ] || continue
	{ tr '\0' '\n' <"/proc/$p/cmdline" | grep -qx "$TMP/sut/runs/fail"; } 2>/dev/null || continue
	pp=$(awk '{ print $4 }' "/proc/$p/stat" 2>/dev/null)
	[ "$(arg0 "$pp")" = "$TMP/sut/bin/collect" ] || driver=$p
done
[ -n "$driver" ] || { kill $apid; wait $apid; fail "no collect driver with -o $TMP/sut/runs/fail"; }
if [ -n "$orig" ]; then
	now=$(cat $C/cpuidle/current_governor)
	[ "$now" = "$V2" ] || fail "the governor at the kill is $now, expected $V2: nothing to restore"
fi
kill -KILL "$driver"
wait $apid
rc=$?
[ $rc -ne 0 ] || { cat "$A/fail.log"; fail "ansible-playbook succeeded although collect was killed"; }
grep -q "idlescope: sut1: collect failed (exit -9).*settings restored" "$A/fail.log" ||
	{ cat "$A/fail.log"; fail "no failure message saying the settings were restored"; }
[ ! -e /run/idlescope/settings.journal ] || fail "a settings journal is left"
[ -z "$orig" ] || [ "$(cat $C/cpuidle/current_governor)" = "$orig" ] ||
	fail "idle governor not restored: $(cat $C/cpuidle/current_governor), was $orig"
"$COLLECT" --list-settings >"$TMP/settings.after" 2>&1 || fail "collect --list-settings after"
diff -u "$TMP/settings.before" "$TMP/settings.after" >&2 || fail "settings differ after the restore"
jq_true "$TMP/fail/sut1/experiment.json" '.complete != true and (.runs | length) >= 1' "the partial experiment fetched"
[ ! -e "$TMP/fail/sut2" ] || fail "sut2 measured although --limit sut1"
note "failure midway ($F=$V1,$V2, driver killed in the $F=$V2 run, governor then ${now:-n/a}): ansible exit $rc, collect --restore put the settings back, partial experiment fetched"
