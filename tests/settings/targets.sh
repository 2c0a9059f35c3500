#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Targets of per-CPU settings (issue 27 item 2) on a fixture of 2 packages x 2 cores x 2
# threads (--sysroot; CPU n and n+4 are one core's threads, package 1 is CPUs 2, 3, 6, 7):
# every target form resolved from the topology files, the refusals (unknown or offline CPU, a
# system-wide setting given a target, an unknown target), the exact files written on the
# target CPUs only, the target recorded in info.json and experiment.json, and the journal per
# CPU: SIGKILL + collect --restore, SIGINT, and a write that fails midway (the CPUs already
# written go back).
. "$(dirname "$0")/../collect/lib.sh"
. "$(dirname "$0")/fixture.sh"
command -v jq >/dev/null || fail "jq not installed"
command -v perl >/dev/null || fail "perl not installed"
CPU=$(pick_cpu)

R=$TMP/root
make_fixture "$R" 8
cp -a "$R" "$TMP/pristine"
C=$R/sys/devices/system/cpu
J=$R/run/idlescope-settings/settings.journal
same() {
	diff -r -x policy -x run "$TMP/pristine" "$R" >"$TMP/diff" || { cat "$TMP/diff"; fail "$1: the fixture tree is not as before"; }
}
S="--sysroot $R --method timer --cpu 1 -q --no-counters"
# disabled FLAGS of CPU n's four states, "0111" for POLL alone
flags() { echo "$(cat $C/cpu$1/cpuidle/state0/disable)$(cat $C/cpu$1/cpuidle/state1/disable)$(cat $C/cpu$1/cpuidle/state2/disable)$(cat $C/cpu$1/cpuidle/state3/disable)"; }

# Every form, resolved (--cpu 1: its sibling is CPU 5)
"$COLLECT" $S -c 10 --dry-run --set cstates=POLL@cpus=2-4,7 --set freq=2GHz@siblings --set epb=15@package=1 \
	--set epp=power@measured --set turbo=off --matrix c1-demotion=on,off@all --repeat 1 >"$TMP/plan" || fail "--dry-run"
for want in "cstates@cpus=2-4,7 = CPUs 2-4,7" "freq@siblings = CPUs 1,5" "epb@package=1 = CPUs 2-3,6-7" \
	"epp@measured = CPUs 1" "c1-demotion@all = CPUs 0-7"; do
	grep -qx "target: $want" "$TMP/plan" || { cat "$TMP/plan"; fail "--dry-run: no 'target: $want'"; }
done
grep -q "^target: turbo" "$TMP/plan" && fail "a setting without a target got a target line"
"$COLLECT" $S -c 10 --dry-run --cpu 6 --set cstates=POLL@siblings >"$TMP/plan" || fail "--dry-run --cpu 6"
grep -qx "target: cstates@siblings = CPUs 2,6" "$TMP/plan" || { cat "$TMP/plan"; fail "siblings of CPU 6"; }

# Refused with one line, exit 2, nothing written
N="$S -c 10 -o $TMP/never"
expect_fail 2 "^collect: cstates@cpus=2-9: CPU 8 does not exist \(online: 0-7\)$" $COLLECT $N --set cstates=POLL@cpus=2-9
expect_fail 2 "^collect: cstates@cpus=2-x: '2-x' is not a CPU list \(0-3,6; CPUs 0 to 65535\)$" $COLLECT $N --set cstates=POLL@cpus=2-x
expect_fail 2 "^collect: cstates@cpus=5-3: '5-3' is not a CPU list" $COLLECT $N --set cstates=POLL@cpus=5-3
expect_fail 2 "^collect: epb@package=2: no online CPU is in package 2$" $COLLECT $N --matrix epb=0,15@package=2
expect_fail 2 "^collect: epb@core=1: unknown target 'core=1'; the targets are all, measured, siblings, cpus=LIST \(0-3,6\), package=LIST$" \
	$COLLECT $N --set epb=0@core=1
expect_fail 2 "^collect: idle-governor@cpus=1: idle-governor is one setting for the whole machine: it takes no CPU target$" \
	$COLLECT $N --set idle-governor=teo@cpus=1
expect_fail 2 "^collect: aspm@0000:00:1c.0@all: aspm@0000:00:1c.0 is one setting for the whole machine: it takes no CPU target$" \
	$COLLECT $N --set aspm@0000:00:1c.0=off@all
expect_fail 2 "^collect: --set cstates=POLL@: empty target after '@'" $COLLECT $N --set cstates=POLL@
expect_fail 2 "^collect: cstates=POLL\+C7: CPU 2 has no idle state 'C7'" $COLLECT $N --set cstates=POLL+C7@package=1
# MSR scope (packages 0-1,4-5 and 2-3,6-7; cores 0+4, 1+5, 2+6, 3+7): whole packages or cores
expect_fail 2 "^collect: c1e-autopromote@cpus=4-5: MSR 0x1FC is one per package: the target must cover whole packages; CPUs missing: 0-1$" \
	$COLLECT $N --set c1e-autopromote=off@cpus=4-5
expect_fail 2 "^collect: pkg-cstate-limit@siblings: MSR 0xE2 is one per package: the target must cover whole packages; CPUs missing: 0,4$" \
	$COLLECT $N --cpu 1 --set pkg-cstate-limit=PC2@siblings
expect_fail 2 "^collect: c1-demotion@cpus=0-1: MSR 0xE2 is one per core: the target must cover whole cores; CPUs missing: 4-5$" \
	$COLLECT $N --matrix c1-demotion=on,off@cpus=0-1
"$COLLECT" $S -c 10 --dry-run --cpu 1 --set c1-demotion=off@siblings --set c1e-autopromote=off@cpus=0-1,4-5 >"$TMP/plan" ||
	fail "--dry-run: whole core and package refused"
echo 0-5,7 >"$C/online"
expect_fail 2 "^collect: cstates@cpus=5-6: CPU 6 is offline \(online: 0-5,7\)$" $COLLECT $N --set cstates=POLL@cpus=5-6
expect_fail 2 "^collect: epb@siblings: CPU 6 is offline \(online: 0-5,7\)$" $COLLECT $N --cpu 2 --set epb=0@siblings
# an offline CPU is not missing from its package
"$COLLECT" $S -c 10 --dry-run --set c1e-autopromote=off@cpus=2-3,7 >"$TMP/plan" || fail "package 1 less offline CPU 6 refused"
# all and package=LIST are their online CPUs
"$COLLECT" $S -c 10 --dry-run --set cstates=POLL@all --set epb=0@package=1 >"$TMP/plan" || fail "--dry-run with CPU 6 offline"
grep -qx "target: cstates@all = CPUs 0-5,7" "$TMP/plan" || { cat "$TMP/plan"; fail "@all with CPU 6 offline"; }
grep -qx "target: epb@package=1 = CPUs 2-3,7" "$TMP/plan" || { cat "$TMP/plan"; fail "@package=1 with CPU 6 offline"; }
echo 0-7 >"$C/online"
[ ! -e "$TMP/never" ] || fail "a refused command made its output directory"
same "after refused targets"
note "every target form resolved; 15 refusals (3 of MSR scope), one line each"

# A run with targets: what it records; every file back after it
retry_busy "$COLLECT" $S -c 20 -o "$TMP/set" --set cstates=POLL@package=1 --set freq=2GHz@siblings \
	--set epb=15@cpus=0,7 --set c1e-autopromote=off@package=0 --set turbo=off || fail "--set run with targets"
jq_true "$TMP/set/info.json" '.settings_targets == {"cstates":{"target":"package=1","cpus":[2,3,6,7]},
	"freq":{"target":"siblings","cpus":[1,5]},"epb":{"target":"cpus=0,7","cpus":[0,7]},
	"c1e-autopromote":{"target":"package=0","cpus":[0,1,4,5]},"turbo":{"target":"system"}}' "settings_targets"
jq_true "$TMP/set/info.json" '.settings_changed == {"cstates":{"before":"all","after":"POLL"},
	"freq":{"before":"unl","after":"2000MHz"},"epb":{"before":"normal","after":"power"},
	"c1e-autopromote":{"before":"on","after":"off"},"turbo":{"before":"on","after":"off"}} and
	.settings.cstates == "mixed: cpu0=all cpu1=all cpu2=POLL cpu3=POLL cpu4=all cpu5=all cpu6=POLL cpu7=POLL" and
	.settings.epb == "mixed: cpu0=power cpu1=normal cpu2=normal cpu3=normal cpu4=normal cpu5=normal cpu6=normal cpu7=power"' \
	"settings_changed read on the targets, settings on every CPU"
same "after the --set run with targets"
[ ! -e "$J" ] || fail "journal left after a clean run"

# SIGKILL of a driver with targets: exactly the target CPUs' files are written; --restore
pkg=$(cat "$C/cpu$CPU/topology/physical_package_id")
for _ in $(seq 60); do
	wait_cpu_free
	"$COLLECT" $S --cpu "$CPU" -c 100000000 -o "$TMP/killed" --set cstates=POLL+C1E@package=1 \
		--set freq=2.5GHz@cpus=3 --set pkg-cstate-limit=PC2@package=$pkg --set c1e-autopromote=off@package=1 2>"$TMP/kerr" &
	pid=$!
	for _ in $(seq 100); do
		[ -s "$TMP/killed/datapoints.csv" ] && break
		kill -0 $pid 2>/dev/null || break
		sleep 0.1
	done
	{ [ -s "$TMP/killed/datapoints.csv" ] || kill -0 $pid 2>/dev/null; } && break
	wait $pid
	grep -q "another collector is measuring" "$TMP/kerr" || { cat "$TMP/kerr"; fail "--set run to be killed did not start"; }
done
child=$(pgrep -P $pid)
kill -KILL $pid $child
wait $pid 2>/dev/null
sib=$(cat "$C/cpu$CPU/topology/thread_siblings_list")
for n in 0 1 2 3 4 5 6 7; do
	want=0000
	case $n in 2 | 3 | 6 | 7) want=0101 ;; esac
	[ "$(flags $n)" = $want ] || fail "cstates@package=1: CPU $n disable flags $(flags $n), expected $want"
	mm="$(cat $C/cpu$n/cpufreq/scaling_min_freq) $(cat $C/cpu$n/cpufreq/scaling_max_freq)"
	want="800000 4200000"
	[ $n = 3 ] && want="2500000 2500000"
	[ "$mm" = "$want" ] || fail "freq@cpus=3: CPU $n min/max $mm, expected $want"
	want=0x14000008
	[ "$(cat "$C/cpu$n/topology/physical_package_id")" = "$pkg" ] && want=0x14000001
	[ "$(msr "$R/dev/cpu/$n/msr" E2)" = $want ] || fail "pkg-cstate-limit@package=$pkg: CPU $n MSR 0xE2 = $(msr "$R/dev/cpu/$n/msr" E2), expected $want"
	want=0x2
	case $n in 2 | 3 | 6 | 7) want=0x0 ;; esac
	[ "$(msr "$R/dev/cpu/$n/msr" 1FC)" = $want ] || fail "c1e-autopromote@package=1: CPU $n MSR 0x1FC = $(msr "$R/dev/cpu/$n/msr" 1FC), expected $want"
done
# one journal entry per file and MSR field of each target CPU: 4 x 2 states, 2 limits, 4 + 4 MSRs
[ "$(grep -c '^file' "$J") $(grep -c '^msr' "$J")" = "10 8" ] || { cat "$J"; fail "journal entries: not 10 files and 8 MSRs"; }
grep -q "^file	cstates	$C/cpu6/cpuidle/state3/disable	0$" "$J" || { cat "$J"; fail "no journal entry for CPU 6's state3"; }
grep -q "^msr	pkg-cstate-limit	$R/dev/cpu/$CPU/msr	e2	f	14000008$" "$J" || { cat "$J"; fail "no journal entry for CPU $CPU's limit"; }
"$COLLECT" --restore --sysroot "$R" >"$TMP/out" || fail "--restore"
grep -q "^collect: 18 journalled values restored$" "$TMP/out" || { cat "$TMP/out"; fail "--restore: count"; }
same "after SIGKILL and --restore"
note "SIGKILL: 14 entries on the target CPUs only, all restored"

# SIGINT in a matrix with targets: the run in progress stops, everything is restored, the
# experiment records its targets
e=$TMP/int
wait_cpu_free
"$COLLECT" $S --cpu "$CPU" --time-limit 2s -o "$e" --matrix cstates=POLL,all@cpus=2-3,6 \
	--matrix epb=0,15@siblings --set turbo=off --repeat 2 2>"$TMP/err" &
pid=$!
for _ in $(seq 600); do [ -s "$e/cstates=POLL_epb=0-r1/datapoints.csv" ] && break; sleep 0.1; done
[ "$(flags 6)" = 0111 ] && [ "$(flags 1)" = 0000 ] || fail "SIGINT matrix: cstates=POLL@cpus=2-3,6 not in place: CPU 6 $(flags 6), CPU 1 $(flags 1)"
kill -INT $pid
wait $pid
[ $? -eq 1 ] || { cat "$TMP/err"; fail "SIGINT: exit status"; }
jq_true "$e/experiment.json" '.stop_reason == "signal SIGINT" and .restored == true and
	.design.targets == {"cstates":{"target":"cpus=2-3,6","cpus":[2,3,6]},"epb":{"target":"siblings","cpus":['"$sib"']},
	"turbo":{"target":"system"}}' "SIGINT experiment.json"
jq_true "$e/cstates=POLL_epb=0-r1/info.json" '.settings_targets.cstates.cpus == [2,3,6] and
	.settings_changed.epb == {"before":"normal","after":"performance"}' "SIGINT run's info.json"
same "after SIGINT"
[ ! -e "$J" ] || fail "journal left after SIGINT"
note "SIGINT: restored, targets in experiment.json and info.json"

# A write that fails midway (CPU 4's state3 is no longer a file when the second configuration
# is applied): CPUs 2 and 3 and CPU 4's states 1 and 2, already written, go back at once
e=$TMP/mid
wait_cpu_free
"$COLLECT" $S --cpu "$CPU" --time-limit 3s -o "$e" --matrix cstates=all,POLL@cpus=2-5 --repeat 1 2>"$TMP/err" &
pid=$!
for _ in $(seq 600); do [ -s "$e/cstates=all-r1/datapoints.csv" ] && break; sleep 0.1; done
[ "$(jq '.runs | length' "$e/experiment.json")" = 0 ] || fail "midway: the first run ended before the file was broken"
mv "$C/cpu4/cpuidle/state3/disable" "$TMP/disable" && mkdir "$C/cpu4/cpuidle/state3/disable"
wait $pid
[ $? -eq 1 ] || { cat "$TMP/err"; fail "midway: exit status"; }
grep -q "^collect: cstates: cannot read $C/cpu4/cpuidle/state3/disable$" "$TMP/err" ||
	{ cat "$TMP/err"; fail "midway: the failed write is not named"; }
rmdir "$C/cpu4/cpuidle/state3/disable" && mv "$TMP/disable" "$C/cpu4/cpuidle/state3/disable"
jq_true "$e/experiment.json" '.stop_reason == "error: a setting could not be written" and (.runs | length) == 1 and
	.restored == true and .complete == false' "midway experiment.json"
same "after a write failed midway"
[ ! -e "$J" ] || fail "journal left after the failed write"
note "failed write midway: CPUs 2, 3 and CPU 4's states 1, 2 went back at once"
note "all target checks passed"
