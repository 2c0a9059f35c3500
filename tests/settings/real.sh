#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Real experiments on this machine's cpuidle settings (root): an idle-governor matrix and a
# cstates matrix (order, experiment.json, every run's settings, everything restored), SIGINT
# in the middle, SIGKILL followed by collect --restore, and a target (one CPU). Short runs: while they last, every
# CPU of the machine runs with the settings under test. The trap puts the old values back
# whatever happens.
. "$(dirname "$0")/../collect/lib.sh"
command -v jq >/dev/null || fail "jq not installed"
. "$(dirname "$0")/fixture.sh"   # pick_cpu
CPU=$(pick_cpu)   # runs also wait for a CPU another collector holds
[ "$(id -u)" -eq 0 ] || skip "needs root (changes cpuidle settings)"
C=/sys/devices/system/cpu
[ -w $C/cpuidle/current_governor ] && [ -r $C/cpuidle/available_governors ] ||
	skip "no switchable cpuidle governor (driver $(cat $C/cpuidle/current_driver 2>/dev/null || echo none))"
[ "$(cat $C/cpu0/cpuidle/state0/name 2>/dev/null)" = POLL ] || skip "no POLL idle state"
[ -e /run/idlescope-settings/settings.journal ] && skip "a settings journal is pending on this machine (another collector's experiment?)"

avail=$(cat $C/cpuidle/available_governors)
G1=haltpoll G2=menu
case " $avail " in *" haltpoll "*) ;; *) G1=$(echo $avail | cut -d' ' -f1) ;; esac
case " $avail " in *" menu "*) ;; *) G2=$(echo $avail | cut -d' ' -f2) ;; esac
[ -n "$G2" ] && [ "$G1" != "$G2" ] || skip "fewer than two idle governors ($avail)"

# What the machine holds now, and a trap that writes it back.
snapshot() {
	cat $C/cpuidle/current_governor
	for f in $C/cpu*/cpuidle/state*/disable; do echo "$f $(cat "$f")"; done
}
snapshot >"$TMP/orig"
orig_gov=$(head -1 "$TMP/orig")
put_back() {
	[ -e /run/idlescope-settings/settings.journal ] && "$COLLECT" --restore >/dev/null 2>&1
	echo "$orig_gov" >$C/cpuidle/current_governor 2>/dev/null
	tail -n +2 "$TMP/orig" | while read -r f v; do echo "$v" >"$f" 2>/dev/null; done
	rm -rf "$TMP"
}
test_when_finished put_back
unchanged() { snapshot | cmp -s - "$TMP/orig" || { snapshot | diff "$TMP/orig" -; fail "$1: settings not as before"; }; }
U="--method timer --cpu $CPU -l 100us,200us -q"
# Each experiment gets SIGINT after 150 s (it then restores and exits 1): the test fails on a
# machine whose CPU stays taken, but never leaves it changed for ctest's timeout to find.
T="timeout -s INT -k 60 150"

# 1. idle-governor matrix, interleaved
e=$TMP/gov
$T "$COLLECT" $U -c 200 --matrix idle-governor=$G1,$G2 --repeat 2 -o "$e" 2>"$TMP/err" || { cat "$TMP/err"; fail "governor matrix"; }
unchanged "after the governor matrix"
jq_true "$e/experiment.json" '.format == "idlescope-experiment" and .format_version == "1" and
	[.runs[].path] == ["idle-governor='$G1'-r1","idle-governor='$G2'-r1","idle-governor='$G1'-r2","idle-governor='$G2'-r2"] and
	.design.order == "interleaved" and .design.repeat == 2 and .design.factors == [{"name":"idle-governor","values":["'$G1'","'$G2'"]}] and
	([.runs[].complete] | all) and ([.runs[].datapoints] == [200,200,200,200]) and .complete == true and
	.restored == true and .stop_reason == "done" and .settings_before["idle-governor"] == "'$orig_gov'" and
	.settings_after == .settings_before' "governor experiment.json"
for d in "$e"/idle-governor=*; do
	jq_true "$d/info.json" '.settings["idle-governor"] == .experiment.config["idle-governor"] and
		.settings_changed["idle-governor"].after == .experiment.config["idle-governor"] and
		.settings_changed["idle-governor"].before == "'$orig_gov'" and .experiment.directory == "'$e'" and
		.settings_cpus == "all" and (.settings | has("cstates")) and .complete == true' "$d: its settings"
	[ -z "$(jq -r '.counters // empty | tostring' "$d/info.json")" ] || [ -s "$d/counters.csv" ] || fail "$d: no counters.csv"
done
"$ANALYZE" stats -f count -F json "$e/idle-governor=$G2-r2" | jq -e '.runs[0].rows == 200' >/dev/null || fail "analyze on a run of the experiment"
note "governor matrix: $G1/$G2 x 2 interleaved, each run recorded its governor, restored to $orig_gov"

# 2. cstates matrix, blocked
e=$TMP/cst
$T "$COLLECT" $U -c 200 --matrix cstates=all,POLL --repeat 2 --order blocked -o "$e" 2>"$TMP/err" || { cat "$TMP/err"; fail "cstates matrix"; }
unchanged "after the cstates matrix"
jq_true "$e/experiment.json" '[.runs[].path] == ["cstates=all-r1","cstates=all-r2","cstates=POLL-r1","cstates=POLL-r2"] and
	[.runs[].config.cstates] == ["all","all","POLL","POLL"] and .restored == true' "cstates experiment.json"
for d in "$e"/cstates=*; do
	jq_true "$d/info.json" '.settings.cstates == .experiment.config.cstates' "$d: cstates recorded"
done
jq_true "$e/cstates=POLL-r1/info.json" '[.system.cpuidle.states[] | .disabled] | .[0] == false and (.[1:] | all)' \
	"the POLL run's system.cpuidle shows every other state disabled"
note "cstates matrix: blocked order, POLL runs ran with the other states disabled, restored"

# wait_runs FILE N: until experiment.json lists N runs (max 60 s)
wait_runs() {
	for _ in $(seq 600); do
		[ -s "$1" ] && [ "$(jq '.runs | length' "$1" 2>/dev/null || echo 0)" -ge "$2" ] && return 0
		sleep 0.1
	done
	fail "$1: fewer than $2 runs after 60 s"
}

# 3. SIGINT in the middle: the current run stops with its data, settings restored
e=$TMP/int
"$COLLECT" $U --time-limit 1s --matrix cstates=all,POLL --repeat 3 -o "$e" 2>"$TMP/err" &
pid=$!
wait_runs "$e/experiment.json" 1
# a loaded machine may keep nothing in the next run's first half second: wait for its first row
first=$(jq -r '.runs[0].path' "$e/experiment.json")
for _ in $(seq 300); do
	for f in "$e"/*/datapoints.csv; do
		[ "$f" != "$e/$first/datapoints.csv" ] && [ "$(wc -l <"$f")" -gt 1 ] && break 2
	done
	sleep 0.1
done
kill -INT $pid
wait $pid
rc=$?
[ $rc -eq 1 ] || { cat "$TMP/err"; fail "SIGINT: exit $rc, expected 1"; }
grep -q "stopped by SIGINT; settings restored; experiment.json says which runs are complete" "$TMP/err" || { cat "$TMP/err"; fail "SIGINT: message"; }
unchanged "after SIGINT"
jq_true "$e/experiment.json" '.stop_reason == "signal SIGINT" and .complete == false and .restored == true and
	(.runs | length) >= 2 and (.runs | length) < 6 and (.design.plan | length) == 6 and
	.runs[0].complete == true and .runs[-1].complete == false and .runs[-1].stop_reason == "signal SIGINT"' "SIGINT experiment.json"
last=$(jq -r '.runs[-1].path' "$e/experiment.json")
jq_true "$e/$last/info.json" '.complete == false and .datapoints > 0' "the interrupted run kept its datapoints"
[ ! -e /run/idlescope-settings/settings.journal ] || fail "SIGINT: journal left"
note "SIGINT: $(jq '.runs | length' "$e/experiment.json") of 6 runs taken, the last one stopped with its data, restored"

# 4. SIGKILL: settings stay changed; the next collect refuses; collect --restore puts them back
e=$TMP/kill
"$COLLECT" $U --time-limit 2s --matrix cstates=POLL,all --repeat 2 -o "$e" 2>/dev/null &
pid=$!
for _ in $(seq 100); do [ -s "$e/cstates=POLL-r1/datapoints.csv" ] && break; sleep 0.1; done
child=$(pgrep -P $pid)
kill -KILL $pid $child
wait $pid 2>/dev/null
[ "$(cat $C/cpu0/cpuidle/state1/disable)" = 1 ] || fail "SIGKILL: the POLL configuration is not in place"
expect_fail 1 "^collect: settings left changed by collect pid $pid are pending \(/run/idlescope-settings/settings.journal\): run 'collect --restore' first" \
	$COLLECT $U -c 10 -o "$TMP/refused"
"$COLLECT" --restore >"$TMP/out" 2>&1 || { cat "$TMP/out"; fail "--restore"; }
grep -Eq "^collect: [0-9]+ journalled values restored$" "$TMP/out" || { cat "$TMP/out"; fail "--restore message"; }
unchanged "after SIGKILL and --restore"
[ ! -e /run/idlescope-settings/settings.journal ] || fail "journal left after --restore"
"$COLLECT" --restore >"$TMP/out" || fail "second --restore"
grep -q "^collect: 0 journalled values restored (no journal was pending)$" "$TMP/out" || fail "second --restore message"
note "SIGKILL + collect --restore: $(cat "$TMP/out")"

# 5. Refused before anything is written: not root; an ASPM policy the kernel will not change;
#    --dry-run writes nothing and makes no directory
expect_fail 2 "^collect: --set/--matrix: changing settings needs root$" as_nobody --set idle-governor=$G2 $U -c 10 -o "$TMP/nobody"
if ! (cat /sys/module/pcie_aspm/parameters/policy >/sys/module/pcie_aspm/parameters/policy) 2>/dev/null; then
	expect_fail 2 "^collect: aspm=performance: cannot be set on this machine: the kernel refuses changes here \(writing the policy in force, '[a-z]+', back to /sys/module/pcie_aspm/parameters/policy: Operation not permitted" \
		$COLLECT --set aspm=performance $U -c 10 -o "$TMP/aspm"
fi
"$COLLECT" --matrix idle-governor=$G1,$G2 --matrix cstates=POLL,all $U -c 10 -o "$TMP/dry" --dry-run >"$TMP/plan" || fail "--dry-run"
grep -q "^4 configurations x 3 repeats = 12 runs, order interleaved$" "$TMP/plan" || { cat "$TMP/plan"; fail "--dry-run plan"; }
[ ! -e "$TMP/dry" ] || fail "--dry-run made the experiment directory"
unchanged "after refused commands and a dry run"

# 5b. A target on this machine: cstates=POLL on one CPU (the one not measured, when there are
#     two), the others untouched while the run lasts; restored after
other=$((1 - CPU))
[ "$other" -lt "$(nproc --all)" ] || other=$CPU
retry_busy "$COLLECT" --set "cstates=POLL@cpus=$other" $U -c 20 -o "$TMP/target" 2>"$TMP/err" ||
	{ cat "$TMP/err"; fail "--set cstates=POLL@cpus=$other"; }
jq_true "$TMP/target/info.json" '.settings_targets.cstates == {"target":"cpus='$other'","cpus":['$other']} and
	.settings_changed.cstates.after == "POLL" and
	(if '$other' == '$CPU' then .settings.cstates == "POLL"
	 else (.settings.cstates | test("cpu'$other'=POLL")) and (.settings.cstates | test("cpu'$CPU'=POLL") | not) end)' \
	"a target on this machine: only CPU $other in POLL"
unchanged "after cstates=POLL@cpus=$other"
expect_fail 2 "^collect: cstates@cpus=$(nproc --all): CPU $(nproc --all) does not exist" \
	$COLLECT --set "cstates=POLL@cpus=$(nproc --all)" $U -c 10 -o "$TMP/never"
note "target: $(jq -c '.settings.cstates' "$TMP/target/info.json")"

# 6. pm-qos is held by the run itself (no journal needed: the kernel drops it with the fd)
retry_busy "$COLLECT" --set pm-qos=0 $U -c 50 -o "$TMP/qos" 2>"$TMP/err" || { cat "$TMP/err"; fail "--set pm-qos=0"; }
jq_true "$TMP/qos/info.json" '.settings["pm-qos"] == "0" and .settings_changed["pm-qos"].after == "0" and
	.pm_qos.requested_us == 0' "pm-qos held during the run"
[ ! -e /run/idlescope-settings/settings.journal ] || fail "pm-qos: journal left"
note "refusals, dry run and pm-qos checked"
