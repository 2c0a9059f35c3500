#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Experiments over SSH (docs/remote.md, "Experiments"): the SUT's collect runs the experiment
# driver, whose settings are the SUT's. A two-host --matrix over pm-qos (works whatever the
# cpuidle driver, "none" included), one experiment per host under DIR/<host>/, every run
# streamed into its subdirectory and read by analyze; with one host -o DIR is the experiment.
# Where the cpuidle driver has switchable governors (haltpoll here), an idle-governor matrix
# on one host, sysfs compared before and after, and ^C on the controller mid-experiment: the
# SUT's driver restores the governor. --progress shows one line for the fleet.
. "$(dirname "$0")/../collect/lib.sh"
. "$(dirname "$0")/sshd.sh"
command -v jq >/dev/null || fail "jq not installed"
[ "$(id -u)" -eq 0 ] || skip "needs root (pm-qos and the idle governor are root's settings)"
[ -w /dev/cpu_dma_latency ] || skip "no /dev/cpu_dma_latency"
start_sshd 1
C=/sys/devices/system/cpu
driver=$(cat $C/cpuidle/current_driver 2>/dev/null || echo none)
note "cpuidle driver: $driver"
U="--method timer -l 1ms,3ms --keep-raw -q"

# 1. two hosts, one after the other: both aliases are this machine, and two experiment drivers
# must not change one machine's settings at the same time
wait_cpu_free
rcollect_cpu -H sut1,sut2 --jobs 1 --progress --matrix pm-qos=0,1000 --repeat 2 -c 40 --cpu "$CPU" $U \
	-o "$TMP/mx" >"$TMP/out" || { cat "$TMP/out" "$TMP/err"; fail "two-host pm-qos matrix"; }
runs='["pm-qos=0-r1","pm-qos=1000-r1","pm-qos=0-r2","pm-qos=1000-r2"]'
for h in sut1 sut2; do
	grep -qx "$h: 160 datapoints, [0-9]* discards, ok ($TMP/mx/$h)" "$TMP/out" || { cat "$TMP/out"; fail "summary of $h"; }
	e=$TMP/mx/$h/experiment.json
	jq_true "$e" '[.runs[].path] == '"$runs"' and .complete == true and .stop_reason == "done" and .restored == true' "$h experiment"
	jq_true "$e" '.remote.host == "'$h'" and .remote.connection == "complete" and .remote.received_datapoints == 160 and .remote.sut_copy_kept == false' "$h experiment remote"
	[ ! -e "$(jq -r .remote.sut_run_dir "$e")" ] || fail "$h: the SUT's copy was not removed"
	for r in "$TMP/mx/$h"/pm-qos=*; do
		v=$(basename "$r" | sed 's/^pm-qos=\([0-9]*\)-r[12]$/\1/')
		check_timer_rows "$r/datapoints.csv" 1000000 3000000 40 1
		jq_true "$r/info.json" '.settings["pm-qos"] == "'$v'" and .pm_qos.requested_us == '$v' and .datapoints == 40 and
			.complete == true and .experiment.config["pm-qos"] == "'$v'"' "$r: run of the experiment"
		jq_true "$r/info.json" '.system.ssh_host == "'$h'" and .remote.connection == "complete" and .remote.received_datapoints == 40 and
			.reportid == "'"$(basename "$r")"'"' "$r: remote fields"
	done
done
# pm-qos 0 keeps the CPU out of every state but POLL: the runs show it (driver none: no states)
if [ "$(cat $C/cpu$CPU/cpuidle/state0/name 2>/dev/null)" = POLL ]; then
	awk -F, 'NR > 1 && $6 != "POLL" { print FILENAME ": " $0; exit 1 }' "$TMP/mx/sut1/pm-qos=0-r1/datapoints.csv" ||
		fail "pm-qos=0 run on the SUT requested a state other than POLL"
fi
# one line for the fleet, rewritten in place, with each host's rows and state
tr '\r' '\n' <"$TMP/err" | grep -q "^collect: sut1 [0-9]* rows \(running\|ok\) | sut2 [0-9]* rows \(waiting\|running\|ok\)" ||
	{ cat -A "$TMP/err" | head; fail "--progress line"; }
tr '\r' '\n' <"$TMP/err" | grep -q "^collect: sut1 160 rows ok | sut2 160 rows ok" || { cat -A "$TMP/err" | tail -3; fail "final progress line"; }
"$ANALYZE" stats -F csv -f count "$TMP"/mx/sut1/pm-qos=* "$TMP"/mx/sut2/pm-qos=* >"$TMP/s.csv" || fail "analyze stats over both experiments"
[ "$(grep -Ec '^pm-qos=[01]+-r[12](-2)?,,,40,WakeLatency,40$' "$TMP/s.csv")" -eq 8 ] || { cat "$TMP/s.csv"; fail "analyze rows"; }
"$ANALYZE" diff "$TMP/mx/sut1/pm-qos=0-r1" "$TMP/mx/sut2/pm-qos=1000-r2" >/dev/null || fail "analyze diff across hosts"
note "pm-qos matrix: 2 hosts x 4 runs x 40 rows, each run in DIR/<host>/<run>/"

# 2. idle-governor, where the driver has governors to switch between
if [ ! -w $C/cpuidle/current_governor ] || [ "$(wc -w <$C/cpuidle/available_governors 2>/dev/null || echo 0)" -lt 2 ]; then
	note "driver $driver: no switchable idle governor; idle-governor matrix not run"
	exit 0
fi
[ -e /run/idlescope-settings/settings.journal ] && skip "a settings journal is pending on this machine (another collector's experiment?)"
G1=$(cut -d' ' -f1 $C/cpuidle/available_governors)
G2=$(cut -d' ' -f2 $C/cpuidle/available_governors)
orig=$(cat $C/cpuidle/current_governor)
put_back() { echo "$orig" >$C/cpuidle/current_governor 2>/dev/null; stop_sshd; }
test_when_finished put_back
wait_cpu_free
rcollect_cpu -H sut1 --matrix idle-governor=$G1,$G2 --repeat 1 -c 30 --cpu "$CPU" $U -o "$TMP/gov" ||
	{ cat "$TMP/err"; fail "idle-governor matrix"; }
[ "$(cat $C/cpuidle/current_governor)" = "$orig" ] || fail "governor not restored: $(cat $C/cpuidle/current_governor), was $orig"
jq_true "$TMP/gov/experiment.json" '[.runs[].path] == ["idle-governor='$G1'-r1","idle-governor='$G2'-r1"] and .restored == true and
	.settings_before["idle-governor"] == "'$orig'" and .remote.host == "sut1"' "one host: -o DIR is the experiment"
for g in $G1 $G2; do
	jq_true "$TMP/gov/idle-governor=$g-r1/info.json" '.settings["idle-governor"] == "'$g'" and .datapoints == 30' "run with governor $g"
done

# ^C on the controller in the middle of an experiment: the SUT's driver stops the run, restores
# the governor, and experiment.json (streamed back) says so
wait_cpu_free
"$COLLECT" --ssh-config "$SSHDIR/config" --remote-dir "$TMP/sut" -H sut1 --matrix idle-governor=$G1,$G2 --repeat 3 \
	--time-limit 3s --cpu "$CPU" $U -o "$TMP/int" 2>"$TMP/err" &
pid=$!
for _ in $(seq 300); do
	[ -d "$TMP/int/idle-governor=$G2-r1" ] && break
	sleep 0.1
done
[ -d "$TMP/int/idle-governor=$G2-r1" ] || { kill -INT $pid; wait $pid; cat "$TMP/err"; fail "second run did not start"; }
kill -INT $pid
wait $pid
rc=$?
[ $rc -eq 1 ] || { cat "$TMP/err"; fail "^C: exit $rc"; }
[ "$(cat $C/cpuidle/current_governor)" = "$orig" ] || fail "^C: governor not restored on the SUT"
jq_true "$TMP/int/experiment.json" '.stop_reason == "signal SIGINT" and .restored == true and .complete == false and
	.remote.connection == "complete"' "^C: experiment.json"
note "idle-governor matrix ($G1,$G2) on one host, restored to $orig; ^C mid-experiment restored it too"
