#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Settings this VM lacks, on a fixture tree (--sysroot): list, validation (exit 2, nothing
# written), --set of every setting with a real timer run (the written values and MSR bits
# checked exactly, and the tree byte-identical afterwards), a matrix's order, and SIGKILL
# followed by collect --restore.
. "$(dirname "$0")/../collect/lib.sh"
. "$(dirname "$0")/fixture.sh"
command -v jq >/dev/null || fail "jq not installed"
command -v perl >/dev/null || fail "perl not installed"
CPU=$(pick_cpu)   # runs also wait for a CPU another collector holds

R=$TMP/root
make_fixture "$R"
cp -a "$R" "$TMP/pristine"
# The tree as before; the ASPM policy file holds what was written back ("default"), as a real
# one shows "[default] ..." again.
same() {
	diff -r -x policy -x run "$TMP/pristine" "$R" >"$TMP/diff" || { cat "$TMP/diff"; fail "$1: the fixture tree is not as before"; }
	grep -Eqx 'default|\[default\] performance powersave powersupersave' "$R/sys/module/pcie_aspm/parameters/policy" ||
		fail "$1: ASPM policy $(cat "$R/sys/module/pcie_aspm/parameters/policy"), expected default"
}

# --list-settings: every setting with its value
"$COLLECT" --list-settings --sysroot "$R" >"$TMP/list" || fail "--list-settings"
for want in "cstates all" "idle-governor menu" "cpufreq-governor powersave" "freq unl" "turbo on" \
	"epp balance_performance" "epb normal" "aspm default" "aspm@0000:00:1c.0 on" "c1-demotion on" \
	"c1-undemotion on" "c1e-autopromote on" "pkg-cstate-limit PC10" "pm-qos 2000000000"; do
	grep -Eq "^  ${want% *} +${want#* } " "$TMP/list" || { cat "$TMP/list"; fail "--list-settings: no '$want'"; }
done
grep -q "aspm@0000:00:1f.3" "$TMP/list" && fail "--list-settings: a device without link/l1_aspm is listed"
note "list: $(grep -c '^  ' "$TMP/list") lines"

# Validation: one line, exit 2, nothing written
S="--sysroot $R --method timer --cpu $CPU -c 20 -q --no-counters -o $TMP/never"
expect_fail 2 "^collect: unknown setting 'frq'; the settings are cstates, idle-governor" $COLLECT $S --set frq=2GHz
expect_fail 2 "^collect: freq=5GHz: outside CPU 0's range 800 to 4200 MHz; accepted: min, base, max, unl" \
	$COLLECT $S --set freq=5GHz
expect_fail 2 "^collect: cstates=POLL\+C7: CPU 0 has no idle state 'C7'" $COLLECT $S --set cstates=POLL+C7
expect_fail 2 "^collect: turbo: given twice" $COLLECT $S --set turbo=off --matrix turbo=on,off
expect_fail 2 "^collect: epp=fast: not a value this machine accepts; accepted: default performance" \
	$COLLECT $S --set epp=fast
expect_fail 2 "^collect: idle-governor=haltpoll: not an available governor; accepted: ladder menu teo" \
	$COLLECT $S --matrix idle-governor=menu,haltpoll
expect_fail 2 "^collect: --matrix turbo: value 'on' given twice" $COLLECT $S --matrix turbo=on,on
[ ! -e "$TMP/never" ] || fail "a refused command made its output directory"
same "after refused commands"

# --set of every setting: the run records them, the files hold them during the run
run=$TMP/set1
retry_busy "$COLLECT" --sysroot "$R" --method timer --cpu "$CPU" -c 20 -q --no-counters -o "$run" \
	--set freq=2GHz --set turbo=off --set cstates=max:C1 --set idle-governor=teo --set cpufreq-governor=performance \
	--set epp=power --set epb=15 --set aspm=powersave --set aspm@0000:00:1c.0=off --set c1-demotion=off \
	--set c1-undemotion=off --set c1e-autopromote=off --set pkg-cstate-limit=PC6 || fail "--set run"
jq_true "$run/info.json" '.settings == {"cstates":"POLL+C1","idle-governor":"teo","cpufreq-governor":"performance",
	"freq":"2000MHz","turbo":"off","epp":"power","epb":"power","aspm":"powersave","aspm@0000:00:1c.0":"off",
	"c1-demotion":"off","c1-undemotion":"off","c1e-autopromote":"off","pkg-cstate-limit":"PC6","pm-qos":"2000000000"}' \
	"settings recorded as set"
jq_true "$run/info.json" '.settings_changed.freq == {"before":"unl","after":"2000MHz"} and
	.settings_changed["pkg-cstate-limit"] == {"before":"PC10","after":"PC6"} and
	(.settings_changed | length) == 13 and .settings_cpus == "all" and .complete == true' "settings_changed"
same "after the --set run (every file restored)"
[ ! -e "$R/run/idlescope-settings/settings.journal" ] || fail "journal left after a clean run"

# The written values, exactly: a run that is killed leaves them in place
expect_fail 2 "^collect: unknown option '--set-cpus'" $COLLECT $S --set freq=2.5GHz --set-cpus
same "after a usage error"
# (started again while another collector takes the CPU first: a lone --set run is not retried)
for _ in $(seq 60); do
	wait_cpu_free
	"$COLLECT" --sysroot "$R" --method timer --cpu "$CPU" -c 100000000 -q --no-counters -o "$TMP/killed" \
		--set freq=2.5GHz --set c1-demotion=off --set c1e-autopromote=off --set pkg-cstate-limit=PC2 \
		--set cstates=POLL+C1E --set turbo=off 2>"$TMP/kerr" &
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
c=$R/sys/devices/system/cpu
for n in 0 1; do
	[ "$(cat $c/cpu$n/cpufreq/scaling_min_freq) $(cat $c/cpu$n/cpufreq/scaling_max_freq)" = "2500000 2500000" ] ||
		fail "freq=2.5GHz on CPU $n: min/max $(cat $c/cpu$n/cpufreq/scaling_min_freq) $(cat $c/cpu$n/cpufreq/scaling_max_freq)"
	[ "$(msr "$R/dev/cpu/$n/msr" E2)" = 0x10000001 ] || fail "CPU $n MSR 0xE2 = $(msr "$R/dev/cpu/$n/msr" E2), expected 0x10000001"
	[ "$(msr "$R/dev/cpu/$n/msr" 1FC)" = 0x0 ] || fail "CPU $n MSR 0x1FC = $(msr "$R/dev/cpu/$n/msr" 1FC), expected 0x0"
	[ "$(cat $c/cpu$n/cpuidle/state0/disable)$(cat $c/cpu$n/cpuidle/state1/disable)$(cat $c/cpu$n/cpuidle/state2/disable)$(cat $c/cpu$n/cpuidle/state3/disable)" = 0101 ] ||
		fail "cstates=POLL+C1E on CPU $n: disable flags not 0101"
done
if command -v setpriv >/dev/null; then   # a user who cannot read root's journal is warned, not refused
	as_nobody --sysroot "$R" --method timer --cpu "$CPU" -c 10 -q --no-counters -o "$TMP/nobody" 2>"$TMP/err" ||
		{ cat "$TMP/err"; fail "run as nobody with a journal pending"; }
	grep -q "^collect: warning: a settings journal is pending ($R/run/idlescope-settings/settings.journal): an experiment is changing settings, or one that was killed left them changed" "$TMP/err" ||
		{ cat "$TMP/err"; fail "nobody: no warning about the pending journal"; }
	jq_true "$TMP/nobody/info.json" '.settings.freq == "2500MHz" and .settings["pkg-cstate-limit"] == "raw:0" or .settings.freq == "2500MHz"' "nobody's run records the changed settings"
fi
expect_fail 1 "^collect: settings left changed by collect pid $pid are pending \(.*/run/idlescope-settings/settings.journal\): run 'collect --restore --sysroot" \
	$COLLECT --sysroot "$R" --method timer --cpu "$CPU" -c 10 -q --no-counters -o "$TMP/refused"
# --version and --help answer alone, whatever a journal says
for opt in --version --help; do
	"$COLLECT" --sysroot "$R" $opt >"$TMP/out" 2>"$TMP/err" || fail "collect $opt with a journal pending: exit status $?"
	[ ! -s "$TMP/err" ] || { cat "$TMP/err"; fail "collect $opt with a journal pending printed on stderr"; }
	[ -s "$TMP/out" ] || fail "collect $opt printed nothing"
done
# A value that cannot go back is named, with what the file holds; the journal is kept
nt=$R/sys/devices/system/cpu/intel_pstate/no_turbo
mv "$nt" "$TMP/no_turbo" && mkdir "$nt"
"$COLLECT" --restore --sysroot "$R" >"$TMP/out" 2>"$TMP/err"
[ $? -eq 1 ] || fail "--restore with a file that cannot be written: exit status"
grep -q "^collect: restore: $R/run/idlescope-settings/settings.journal:[0-9]*: turbo left changed: $nt holds '(unreadable)' (was '0'): Is a directory$" "$TMP/err" ||
	{ cat "$TMP/err"; fail "--restore: no message naming turbo"; }
grep -q "^collect: --restore: 1 journalled value could not be restored; the journal is kept$" "$TMP/err" ||
	{ cat "$TMP/err"; fail "--restore: summary"; }
[ -e "$R/run/idlescope-settings/settings.journal" ] || fail "journal removed although a value is left changed"
rmdir "$nt" && mv "$TMP/no_turbo" "$nt"
"$COLLECT" --restore --sysroot "$R" >"$TMP/out" || fail "--restore"
grep -q "^collect: 15 journalled values restored$" "$TMP/out" || { cat "$TMP/out"; fail "--restore: count"; }
same "after SIGKILL and --restore"
[ ! -e "$R/run/idlescope-settings/settings.journal" ] || fail "journal left after --restore"
note "SIGKILL + --restore: every file back"

# A locked package C-state limit is refused before anything is written
perl -e 'open(my $f, "+<", $ARGV[0]) or die; seek($f, 8 * 0xE2, 0); print $f pack("Q<", 0x14008008)' "$R/dev/cpu/1/msr"
cp "$R/dev/cpu/1/msr" "$TMP/pristine/dev/cpu/1/msr"
expect_fail 2 "^collect: pkg-cstate-limit=PC6: cannot be set on this machine: CPU 1: MSR 0xE2 is locked by the firmware \(bit 15\)" \
	$COLLECT $S --set turbo=off --set pkg-cstate-limit=PC6
same "after a refused locked limit"

# Matrix order: blocked, interleaved; random is a permutation fixed by its seed
plan() { "$COLLECT" --sysroot "$R" -c 10 --matrix turbo=on,off --matrix freq=min,max --repeat 2 --dry-run "$@" | awk '$3 == "replicate" { print $2 }' | tr '\n' ' '; }
[ "$(plan --order blocked)" = "turbo=on_freq=min-r1 turbo=on_freq=min-r2 turbo=on_freq=max-r1 turbo=on_freq=max-r2 turbo=off_freq=min-r1 turbo=off_freq=min-r2 turbo=off_freq=max-r1 turbo=off_freq=max-r2 " ] ||
	fail "blocked order: $(plan --order blocked)"
[ "$(plan)" = "turbo=on_freq=min-r1 turbo=on_freq=max-r1 turbo=off_freq=min-r1 turbo=off_freq=max-r1 turbo=on_freq=min-r2 turbo=on_freq=max-r2 turbo=off_freq=min-r2 turbo=off_freq=max-r2 " ] ||
	fail "interleaved order: $(plan)"
r1=$(plan --order random --order-seed 7)
[ "$r1" = "$(plan --order random --order-seed 7)" ] || fail "random order not fixed by its seed"
[ "$(printf "%s" "$r1" | tr ' ' '\n' | sort | tr '\n' ' ')" = "$(plan | tr ' ' '\n' | sort | tr '\n' ' ')" ] || fail "random order is not a permutation: $r1"
[ "$r1" != "$(plan)" ] || fail "random order (seed 7) is the interleaved one"
same "after dry runs"

# A fixture matrix end to end: order taken, configs recorded, restored
e=$TMP/exp
"$COLLECT" --sysroot "$R" --method timer --cpu "$CPU" -c 20 -q --no-counters -o "$e" \
	--matrix freq=min,base --matrix epb=performance,power --repeat 2 --order blocked --set turbo=off 2>"$TMP/err" ||
	{ cat "$TMP/err"; fail "fixture matrix"; }
jq_true "$e/experiment.json" '[.runs[].path] == .design.plan and (.runs | length) == 8 and
	.runs[1].path == "freq=min_epb=performance-r2" and .runs[2].config == {"freq":"min","epb":"power"} and
	.design.fixed == {"turbo":"off"} and .restored == true and .complete == true and .stop_reason == "done" and
	.settings_before.freq == "unl" and .settings_after == .settings_before and ([.runs[].complete] | all)' "experiment.json"
for d in "$e"/*/; do
	jq_true "$d/info.json" '.settings.freq == .experiment.config.freq and .settings.epb == .experiment.config.epb and
		.settings.turbo == "off" and .settings_changed.turbo == {"before":"on","after":"off"}' "$d: settings of its configuration"
done
same "after the fixture matrix"
note "fixture matrix: 8 runs in blocked order, every run's settings match its configuration"

# SIGHUP in the middle of a fixture matrix: the run in progress stops with its data, restored
e=$TMP/hup
"$COLLECT" --sysroot "$R" --method timer --cpu "$CPU" --time-limit 1s -q --no-counters -o "$e" \
	--matrix turbo=off,on --matrix c1e-autopromote=off,on --repeat 2 2>"$TMP/err" &
pid=$!
for _ in $(seq 600); do [ "$(jq '.runs | length' "$e/experiment.json" 2>/dev/null || echo 0)" -ge 1 ] && break; sleep 0.1; done
sleep 0.5
kill -HUP $pid
wait $pid
[ $? -eq 1 ] || { cat "$TMP/err"; fail "SIGHUP: exit status"; }
jq_true "$e/experiment.json" '.stop_reason == "signal SIGHUP" and .restored == true and .complete == false and
	(.runs | length) >= 1 and (.runs | length) < 8 and .runs[0].complete == true and
	(.runs[-1].stop_reason == "signal SIGTERM" or .runs[-1].stop_reason == null or ([.runs[].complete] | all))' \
	"SIGHUP experiment.json (the last run stopped by SIGTERM, or never started, or the signal came between runs)"
same "after SIGHUP"
note "SIGHUP: $(jq '.runs | length' "$e/experiment.json") of 8 runs, last: $(jq -c '.runs[-1] | [.complete, .stop_reason]' "$e/experiment.json"), restored"

# --settle: the wait after the settings are written comes before each run
e=$TMP/settle
"$COLLECT" --sysroot "$R" --method timer --cpu "$CPU" -c 10 -q --no-counters -o "$e" \
	--matrix turbo=off,on --repeat 1 --settle 2 2>"$TMP/err" || { cat "$TMP/err"; fail "--settle matrix"; }
secs='sub("\\.[0-9]+Z$"; "Z") | fromdateiso8601'
jq_true "$e/experiment.json" '.design.settle_s == 2 and
	((.runs[0].start_time | '"$secs"') - (.start_time | '"$secs"')) >= 1 and
	((.runs[1].start_time | '"$secs"') - (.runs[0].end_time | '"$secs"')) >= 1' "--settle 2 before each run"
same "after the --settle matrix"
note "--settle: each run started at least 2 s (1 s at second resolution) after its settings"
