#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Issue 27's settings on a fixture tree (--sysroot; never the machine's own): resume-latency,
# offline-cpus, uncore-freq, cstate-prewake, hwp-min/max/desired, freq@cpuN,
# pkg-cstate-limit@packageN, and the package C-state limit's per-model codes (Sapphire
# Rapids: bits 2:0). --list-settings with their
# values, and on AMD / HWP-off / other-model trees the reason each is missing; every check
# refusal (exit 2, nothing written); a --set run (recorded, restored); the exact files and MSR
# bits of a SIGKILLed run, then --restore (online files first) back to the tree as before;
# SIGINT; a write that fails midway; a matrix over offline-cpus and hwp-desired.
. "$(dirname "$0")/../collect/lib.sh"
. "$(dirname "$0")/fixture.sh"
# The fixture: make_fixture's machine with 4 CPUs (2 and 3 copies of CPU 0, thread siblings
# of 0 and 1; CPU 0 without an online file, as on x86), per-CPU PM QoS resume latency files, two uncore dies, and an Intel Sapphire Rapids (family
# 6 model 0x8F) with HWP on: MSR 0x1FC, 0x770, 0x771 and 0x774 with other bits set, so that a
# test sees exactly which bits a setting wrote.
#   MSR 0x1FC = 0x22 (C1E on, pre-wake on, bit 5 an unrelated bit)
#   MSR 0x770 = 0x1 (HWP on); 0x771 = 0x01081A2D (lowest 1, efficient 8, guaranteed 26, highest 45)
#   MSR 0x774 = 0x0000015580002D01 (min 1, max 45, desired 0, EPP 0x80, activity window 0x155)
make_fixture_new() {
	refuse_root "${1:-}"
	make_fixture "$1"
	c=$1/sys/devices/system/cpu
	mkdir -p "$1/dev/cpu/2" "$1/dev/cpu/3"
	for n in 2 3; do
		mkdir -p "$c/cpu$n"
		cp -a "$c/cpu0/cpufreq" "$c/cpu0/cpuidle" "$c/cpu0/power" "$c/cpu$n/"
		cp "$1/dev/cpu/0/msr" "$1/dev/cpu/$n/msr"
	done
	echo 0-3 >"$c/online"
	printf 'processor\t: 0\nvendor_id\t: GenuineIntel\ncpu family\t: 6\nmodel\t\t: 143\n' >"$1/proc/cpuinfo"
	for n in 0 1 2 3; do
		mkdir -p "$c/cpu$n/power" "$c/cpu$n/topology"
		echo 0 >"$c/cpu$n/power/pm_qos_resume_latency_us"
		[ $n = 0 ] || echo 1 >"$c/cpu$n/online"
		echo "$((n % 2)),$((n % 2 + 2))" >"$c/cpu$n/topology/thread_siblings_list"
		echo $((n % 2)) >"$c/cpu$n/topology/physical_package_id"
	done
	for d in package_00_die_00 package_01_die_00; do
		u=$c/intel_uncore_frequency/$d
		mkdir -p "$u"
		echo 800000 >"$u/initial_min_freq_khz"
		echo 2400000 >"$u/initial_max_freq_khz"
		echo 800000 >"$u/min_freq_khz"
		echo 2000000 >"$u/max_freq_khz"
	done
	for n in 0 1 2 3; do
		perl -e 'open(my $f, "+<", $ARGV[0]) or die; my %m = (0x1FC => 0x22, 0x770 => 1, 0x771 => 0x01081A2D,
			 0x774 => 0x0000015580002D01); for my $a (keys %m) { seek($f, 8 * $a, 0); print $f pack("Q<", $m{$a}) }' \
			"$1/dev/cpu/$n/msr" || return 1
	done
}

command -v jq >/dev/null || fail "jq not installed"
command -v perl >/dev/null || fail "perl not installed"
CPU=$(pick_cpu)
SIB=$((CPU + 2))     # the measured CPU's thread sibling in the fixture (CPUs 0-3, 0+2, 1+3)
OFF=$((CPU + 1))     # a CPU neither measured nor its sibling, nor CPU 0 (no online file)
OTHER=$((1 - CPU))   # another CPU per-CPU settings touch

R=$TMP/root
make_fixture_new "$R" || fail "fixture"
cp -a "$R" "$TMP/pristine"
C=$R/sys/devices/system/cpu
U=$C/intel_uncore_frequency
J=$R/run/idlescope-settings/settings.journal
same() {
	diff -r -x policy -x run "$TMP/pristine" "$R" >"$TMP/diff" || { cat "$TMP/diff"; fail "$1: the fixture tree is not as before"; }
}
S="--sysroot $R --method timer --cpu $CPU -q --no-counters"

# --list-settings: the new settings with their values
"$COLLECT" --list-settings --sysroot "$R" --cpu "$CPU" >"$TMP/list" || fail "--list-settings"
for want in "pkg-cstate-limit PC0" "resume-latency 0" "offline-cpus none" "uncore-freq 800MHz-2000MHz" "cstate-prewake on" \
	"hwp-min 1" "hwp-max 45" "hwp-desired auto"; do
	grep -Eq "^  ${want% *} +${want#* } " "$TMP/list" || { cat "$TMP/list"; fail "--list-settings: no '$want'"; }
done
grep -q "^  pkg-cstate-limit@packageN (see pkg-cstate-limit) PC0, PC2, PC6N, PC6R, unlimited" "$TMP/list" ||
	{ cat "$TMP/list"; fail "--list-settings: pkg-cstate-limit@packageN"; }
grep -q "^  freq@cpuN  *(see freq)  *min, base, max, unl" "$TMP/list" || { cat "$TMP/list"; fail "--list-settings: freq@cpuN"; }
grep -q "^  hwp-max .* lowest, efficient, guaranteed, highest, or 1 to 45 (MSR 0x771 of CPU $CPU)" "$TMP/list" ||
	{ cat "$TMP/list"; fail "--list-settings: HWP levels"; }

# Missing, with the reason: AMD, HWP off, a model without pre-wake, no hotplug or uncore driver
missing() {   # TREE NAME REASON-REGEX
	"$COLLECT" --list-settings --sysroot "$1" --cpu "$CPU" | sed -n '/^Not on this machine:/,$p' >"$TMP/miss"
	grep -Eq "^  $2 +$3" "$TMP/miss" || { cat "$TMP/miss"; fail "$1: $2 not missing with /$3/"; }
}
A=$TMP/amd
cp -a "$R" "$A"
printf 'processor\t: 0\nvendor_id\t: AuthenticAMD\ncpu family\t: 25\nmodel\t\t: 1\n' >"$A/proc/cpuinfo"
rm -r "$A/sys/devices/system/cpu/intel_uncore_frequency" "$A"/sys/devices/system/cpu/cpu*/online
missing "$A" cstate-prewake "an Intel MSR \(0x1FC\); this CPU is AuthenticAMD$"
missing "$A" hwp-min "an Intel MSR \(0x770\); this CPU is AuthenticAMD$"
missing "$A" uncore-freq "no package_XX_die_YY limits in $A/sys/devices/system/cpu/intel_uncore_frequency "
missing "$A" offline-cpus "no CPU but the measured one can go offline \(no cpuN/online files in $A/sys/devices/system/cpu\)$"
printf 'processor\t: 0\nvendor_id\t: GenuineIntel\ncpu family\t: 6\nmodel\t\t: 154\n' >"$A/proc/cpuinfo"
perl -e 'open(my $f, "+<", $ARGV[0]) or die; seek($f, 8 * 0x770, 0); print $f pack("Q<", 0)' "$A/dev/cpu/$CPU/msr"
"$COLLECT" --list-settings --sysroot "$A" --cpu "$CPU" | grep -Eq "^  pkg-cstate-limit +PC10 +PC0, PC2, PC3, PC6, PC7, PC7S, PC8, PC9, PC10, raw:0 to raw:15 \(the codes of the client cores\)" ||
	fail "Alder Lake tree: pkg-cstate-limit with the client codes"
missing "$A" cstate-prewake "not a CPU known to have it \(family 6 model 0x9A; "
missing "$A" hwp-desired "HWP is off \(MSR 0x770 bit 0 clear"
"$COLLECT" --list-settings --sysroot "$A" --cpu "$CPU" | grep -q "^  resume-latency  *0 " || fail "AMD tree: resume-latency missing"
note "missing settings named with their reasons on AMD, HWP-off and Alder Lake (0x9A) trees"

# Refused values: one line, exit 2, nothing written
refused() { expect_fail 2 "^collect: $1" $COLLECT $S -c 20 -o "$TMP/never" --set "$2"; }
refused "resume-latency=-1: not n/a or a whole number of microseconds up to 2147483646; accepted: 0 \(no limit\)" resume-latency=-1
refused "resume-latency=2147483647: not n/a" resume-latency=2147483647
refused "offline-cpus=$CPU: CPU $CPU is the measured CPU: it is never taken offline; accepted: none, siblings" offline-cpus=$CPU
refused "offline-cpus=7: there is no CPU 7;" offline-cpus=7
for v in 1- 3-2 1,,2 1, x 99999 -1; do
	refused "offline-cpus=$v: not none, siblings or a CPU list such as 1,3-5 \(CPUs below 8192\)" offline-cpus=$v
done
if [ "$CPU" = 1 ]; then
	refused "offline-cpus=0,2: CPU 0 cannot go offline \(no cpu0/online file\)" offline-cpus=0,2
fi
refused "uncore-freq=3GHz: outside package_00_die_00's range 800 to 2400 MHz \(initial_min/max_freq_khz\)" uncore-freq=3GHz
refused "uncore-freq=2GHz-1GHz: the low limit is above the high one" uncore-freq=2GHz-1GHz
refused "uncore-freq=fast: not an uncore frequency" uncore-freq=fast
# (fuzz_setting_value found these: a frequency too large for kHz in 64 bits, or NaN, was undefined)
refused "uncore-freq=nanGHz: not an uncore frequency" uncore-freq=nanGHz
refused "freq=13111101111111110.5GHz: not a frequency" freq=13111101111111110.5GHz
refused "freq@cpu1=nanMHz: not a frequency" freq@cpu1=nanMHz
refused "hwp-max=46: outside CPU [01]'s levels 1 \(lowest\) to 45 \(highest\)" hwp-max=46
refused "hwp-min=fast: not a performance level \(0 to 255\) or a level name" hwp-min=fast
refused "cstate-prewake=yes: not on or off" cstate-prewake=yes
# the package C-state limit's codes are the model's (Sapphire Rapids: bits 2:0, PC6N/PC6R, 7 unlimited)
refused "pkg-cstate-limit=PC10: not a package C-state limit of the Skylake-X to Emerald Rapids, Ivy Bridge-EP, Xeon Phi; accepted: PC0, PC2, PC6N, PC6R, unlimited, raw:0 to raw:7" pkg-cstate-limit=PC10
refused "pkg-cstate-limit=raw:8: not a package" pkg-cstate-limit=raw:8
# a request that defers to the package request (MSR 0x774 bit 42) is refused
cp "$R/dev/cpu/$OTHER/msr" "$TMP/msr.keep"
perl -e 'open(my $f, "+<", $ARGV[0]) or die; seek($f, 8 * 0x774, 0); print $f pack("Q<", 0x0000055580002D01)' "$R/dev/cpu/$OTHER/msr"
refused "hwp-min=8: MSR 0x774 of CPU $OTHER defers to the package request \(bit 42\)" hwp-min=8
cp "$TMP/msr.keep" "$R/dev/cpu/$OTHER/msr"
[ ! -e "$TMP/never" ] || fail "a refused command made its output directory"
same "after refused values"

# --set of every new setting: recorded as set, restored after
SET="--set resume-latency=20 --set offline-cpus=siblings --set uncore-freq=2.2GHz --set cstate-prewake=off
	--set hwp-min=guaranteed --set hwp-max=40 --set hwp-desired=efficient"
run=$TMP/set1
retry_busy "$COLLECT" $S -c 20 -o "$run" $SET || fail "--set run"
# (the run reads the CPUs of the fixture's static cpu/online, 0-3: the sibling taken offline
# shows the values it kept, as the later settings skipped it)
mixed() { echo "mixed: $(for n in 0 1 2 3; do [ $n = $SIB ] && printf 'cpu%s=%s ' $n "$2" || printf 'cpu%s=%s ' $n "$1"; done | sed 's/ $//')"; }
jq_true "$run/info.json" '.settings["resume-latency"] == "20" and .settings["offline-cpus"] == "'$SIB'" and
	.settings["uncore-freq"] == "2200MHz" and .settings["cstate-prewake"] == "'"$(mixed off on)"'" and
	.settings["hwp-min"] == "'"$(mixed 26 1)"'" and .settings["hwp-max"] == "'"$(mixed 40 45)"'" and
	.settings["hwp-desired"] == "'"$(mixed 8 auto)"'"' "settings recorded as set"
jq_true "$run/info.json" '.settings_changed["uncore-freq"] == {"before":"800MHz-2000MHz","after":"2200MHz"} and
	.settings_changed["offline-cpus"] == {"before":"none","after":"'$SIB'"} and
	.settings_changed["hwp-desired"] == {"before":"auto","after":"8"} and (.settings_changed | length) == 7' "settings_changed"
same "after the --set run"
[ ! -e "$J" ] || fail "journal left after a clean run"
note "--set run: $(jq -c '.settings | with_entries(select(.key | test("resume|offline|uncore|prewake|hwp")))' "$run/info.json")"

# start_long NAME SETTINGS...: a run that measures until killed; pid in $pid, its child in $child
start_long() {
	out=$TMP/$1
	shift
	wait_cpu_free
	test_bg "$COLLECT" $S -c 100000000 -o "$out" "$@" 2>"$TMP/lerr"
	pid=$!
	for _ in $(seq 150); do
		[ -s "$out/datapoints.csv" ] && break
		kill -0 $pid 2>/dev/null || { cat "$TMP/lerr"; fail "$out: the run ended early"; }
		sleep 0.1
	done
	[ -s "$out/datapoints.csv" ] || fail "$out: no datapoints after 15 s"
	child=$(pgrep -P $pid)
}
msr_is() {   # CPU ADDR WANT
	[ "$(msr "$R/dev/cpu/$1/msr" "$2")" = "$3" ] || fail "CPU $1 MSR 0x$2 = $(msr "$R/dev/cpu/$1/msr" "$2"), expected $3"
}
file_is() {  # FILE WANT
	[ "$(cat "$1")" = "$2" ] || fail "$1 holds $(cat "$1"), expected $2"
}

# SIGKILL: the exact values stay (other bits untouched), --restore puts every one back
start_long killed $SET --set freq=2GHz --set pkg-cstate-limit=PC6R
kill -KILL $pid $child
wait $pid 2>/dev/null
for n in 0 1 2 3; do
	file_is "$C/cpu$n/power/pm_qos_resume_latency_us" 20   # written before offline-cpus
	[ $n = $SIB ] && continue                              # the later ones skip the CPU gone offline
	msr_is $n 1FC 0x40000022
	msr_is $n 774 0x1558008281a
	msr_is $n E2 0x1400000b   # Sapphire Rapids: the limit is bits 2:0 (PC6R = 3), bit 3 stays
	file_is "$C/cpu$n/cpufreq/scaling_max_freq" 2000000
done
msr_is $SIB 1FC 0x22
msr_is $SIB 774 0x15580002d01
msr_is $SIB E2 0x14000008
file_is "$C/cpu$SIB/cpufreq/scaling_max_freq" 4200000
file_is "$C/cpu$SIB/online" 0
file_is "$C/cpu$((5 - SIB))/online" 1
for d in package_00_die_00 package_01_die_00; do
	file_is "$U/$d/min_freq_khz" 2200000
	file_is "$U/$d/max_freq_khz" 2200000
done
grep -c "" "$J" >/dev/null || fail "no journal after SIGKILL"
expect_fail 1 "settings left changed by collect pid $pid are pending" $COLLECT $S -c 10 -o "$TMP/refused"
# (LeakSanitizer cannot run under ptrace: a sanitizer build checks leaks in the other --restore calls)
ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0 strace -f -e trace=openat -o "$TMP/strace" "$COLLECT" --restore --sysroot "$R" >"$TMP/out" 2>"$TMP/err" ||
	{ cat "$TMP/err"; fail "--restore after SIGKILL"; }
# 4 resume-latency + 1 online + 2 x 2 uncore + 3 x (prewake, hwp-min, hwp-max, hwp-desired, freq min+max,
# pkg-cstate-limit)
grep -q "^collect: 30 journalled values restored$" "$TMP/out" || { cat "$TMP/out"; fail "--restore: count"; }
first=$(grep -E "openat\(.*\"$R/(sys|dev)/.*O_(WRONLY|RDWR)" "$TMP/strace" | head -1)
case "$first" in *"/cpu$SIB/online\""*) ;; *) fail "--restore wrote something before the online file: $first" ;; esac
same "after SIGKILL and --restore"
[ ! -e "$J" ] || fail "journal left after --restore"
note "SIGKILL: MSR 0x1FC 0x22 -> 0x40000022, 0x774 0x15580002d01 -> 0x1558008281a, cpu$SIB offline; --restore wrote cpu$SIB/online first"

# offline-cpus first, then per-CPU settings: the CPU taken offline is skipped (its files refuse
# writes on a real machine), and brought back before the rest on restore
start_long off1 --set offline-cpus=$OFF --set resume-latency=30 --set hwp-max=guaranteed
kill -KILL $pid $child
wait $pid 2>/dev/null
file_is "$C/cpu$OFF/online" 0
file_is "$C/cpu$CPU/power/pm_qos_resume_latency_us" 30
file_is "$C/cpu$OFF/power/pm_qos_resume_latency_us" 0
msr_is $CPU 774 0x15580001a01
msr_is $OFF 774 0x15580002d01
"$COLLECT" --restore --sysroot "$R" >"$TMP/out" 2>&1 || { cat "$TMP/out"; fail "--restore (offline-cpus=$OFF)"; }
grep -q "^collect: 7 journalled values restored$" "$TMP/out" || { cat "$TMP/out"; fail "--restore (offline-cpus=$OFF): count"; }
same "after offline-cpus=$OFF and --restore"
note "offline-cpus=$OFF then resume-latency, hwp-max: CPU $OFF left untouched, 7 values restored"

# freq@cpuN: another CPU's cpufreq limits, the measured CPU's left alone, also with --settings-cpus
# measured (and resume-latency's n/a, the kernel's "no latency at all")
retry_busy "$COLLECT" $S -c 20 -o "$TMP/fo" --settings-cpus measured --set freq@cpu$OFF=2GHz --set resume-latency=n/a ||
	fail "freq@cpu$OFF run"
jq_true "$TMP/fo/info.json" '.settings.freq == "unl" and .settings_changed["freq@cpu'$OFF'"].after == "2000MHz" and
	.settings_changed["resume-latency"] == {"before":"0","after":"n/a"}' \
	"freq@cpu$OFF and resume-latency=n/a with --settings-cpus measured (the record covers the measured CPU)"
start_long fo2 --set freq@cpu$OFF=1.5GHz --set freq@cpu$SIB=max --set pkg-cstate-limit@package1=PC6N
kill -KILL $pid $child
wait $pid 2>/dev/null
for n in 0 2; do msr_is $n E2 0x14000008; done
for n in 1 3; do msr_is $n E2 0x1400000a; done   # package 1: PC6N = 2 in bits 2:0
for n in 0 1 2 3; do
	want="800000 4200000"
	[ $n = $OFF ] && want="1500000 1500000"
	[ $n = $SIB ] && want="4200000 4200000"
	file_is "$C/cpu$n/cpufreq/scaling_min_freq" "${want% *}"
	file_is "$C/cpu$n/cpufreq/scaling_max_freq" "${want#* }"
done
"$COLLECT" --restore --sysroot "$R" >"$TMP/out" 2>&1 || { cat "$TMP/out"; fail "--restore (freq@cpuN)"; }
grep -q "^collect: 5 journalled values restored$" "$TMP/out" || { cat "$TMP/out"; fail "--restore (freq@cpuN): count"; }
same "after freq@cpuN and --restore"
refused "freq@cpu$OFF=5GHz: outside CPU $OFF's range 800 to 4200 MHz" freq@cpu$OFF=5GHz
refused "freq@cpu9: this machine does not have it: no cpufreq limits in $C/cpu9/cpufreq/" freq@cpu9=2GHz
refused "unknown setting 'freq@cpu'; the settings are .*, freq@cpuN" freq@cpu=2GHz
refused "pkg-cstate-limit@package5: this machine does not have it: no online CPU of package 5 \(topology/physical_package_id\)" \
	pkg-cstate-limit@package5=PC2
# a lock on one CPU of package 1 refuses package 1, not package 0
cp "$R/dev/cpu/3/msr" "$TMP/msr.keep"
perl -e 'open(my $f, "+<", $ARGV[0]) or die; seek($f, 8 * 0xE2, 0); print $f pack("Q<", 0x14008008)' "$R/dev/cpu/3/msr"
refused "pkg-cstate-limit@package1=PC2: MSR 0xE2 of CPU 3 is locked by the firmware \(bit 15\)" pkg-cstate-limit@package1=PC2
"$COLLECT" $S -c 20 --set pkg-cstate-limit@package0=PC2 --dry-run >/dev/null || fail "package 0 refused for package 1's lock"
cp "$TMP/msr.keep" "$R/dev/cpu/3/msr"
same "after the package checks"
note "freq@cpu$OFF=1.5GHz, freq@cpu$SIB=max, pkg-cstate-limit@package1=PC6N: only those CPUs written, 5 values restored"

# SIGINT: the run stops, the collector restores everything itself
start_long int $SET
kill -INT $pid
wait $pid
rc=$?
[ $rc = 1 ] || { cat "$TMP/lerr"; fail "SIGINT: exit $rc, expected 1"; }
same "after SIGINT"
[ ! -e "$J" ] || fail "journal left after SIGINT"
note "SIGINT: exit 1, every file back"

# A write that fails midway (the other CPU's resume-latency file cannot be read): exit 1 with
# the setting and file named, what was written before put back, no journal left
f=$C/cpu$OTHER/power/pm_qos_resume_latency_us
mv "$f" "$TMP/rl.keep" && mkdir "$f"
wait_cpu_free
expect_fail 1 "^collect: resume-latency: cannot read $f$" $COLLECT $S -c 20 -o "$TMP/mid" \
	--set uncore-freq=1.2GHz --set hwp-min=8 --set offline-cpus=siblings --set cstate-prewake=off --set resume-latency=40
rmdir "$f" && mv "$TMP/rl.keep" "$f"
same "after a write that failed midway"
[ ! -e "$J" ] || fail "journal left after a failed write"
note "failed write midway: uncore, hwp-min, offline-cpus, pre-wake written, then refused: all put back"

# A matrix: every run records its configuration, everything restored after (with the sibling
# offline, the fixture's static CPU list shows it with the value it kept: "mixed: ...")
e=$TMP/exp
"$COLLECT" $S -c 20 -o "$e" --matrix offline-cpus=none,siblings --matrix hwp-desired=auto,guaranteed \
	--set uncore-freq=min --repeat 1 2>"$TMP/err" || { cat "$TMP/err"; fail "matrix"; }
jq_true "$e/experiment.json" '(.runs | length) == 4 and .restored == true and .complete == true' "experiment.json"
for d in "$e"/*/; do
	jq_true "$d/info.json" '(if .experiment.config["hwp-desired"] == "auto" then "auto" else "26" end) as $want |
		.settings["offline-cpus"] == (if .experiment.config["offline-cpus"] == "none" then "none" else "'$SIB'" end) and
		(.settings["hwp-desired"] == $want or (.experiment.config["offline-cpus"] == "siblings" and
		 (.settings["hwp-desired"] | test("^mixed: .*cpu'$CPU'=" + $want + "( |$)")))) and
		.settings["uncore-freq"] == "min"' "$d: settings of its configuration"
done
same "after the matrix"
note "matrix offline-cpus x hwp-desired: 4 runs, each with its configuration; restored"
