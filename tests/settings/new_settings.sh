#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Issue 27's settings on a fixture tree (--sysroot; never the machine's own): resume-latency,
# offline-cpus, uncore-freq, cstate-prewake, hwp-min/max/desired, and the package C-state
# limit's per-model codes (Sapphire Rapids: bits 2:0). --list-settings with their values, not
# offering one whose writes the probe finds refused, and on AMD / HWP-off / other-model trees
# the reason each is missing; every check refusal (exit 2, nothing written); a --set run
# (recorded, restored); the exact files and MSR bits of a SIGKILLed run, then --restore (online
# files of CPUs it took offline first, of CPUs it brought online last, their msr files refusing
# opens while offline as the kernel's) back to the tree as before; targets (@cpus=, @package=, @siblings, @all) on
# the per-CPU ones, also after offline-cpus took CPUs offline; SIGINT; a write that fails
# midway; a matrix over offline-cpus and hwp-desired.
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
	sed '/^Not on this machine:/q' "$TMP/list" | grep -Eq "^  ${want% *} +${want#* } " ||
		{ cat "$TMP/list"; fail "--list-settings: no '$want' offered"; }
done
# the fixture lacks nothing: no "Not on this machine:" header with nothing under it
! grep -q "^Not on this machine:" "$TMP/list" || { cat "$TMP/list"; fail "the fixture lacks something, or an empty header"; }
tail -n 1 "$TMP/list" | grep -Eq "^  hwp-desired +auto " || { cat "$TMP/list"; fail "--list-settings: not ending with a setting"; }
grep -q "@cpuN\|@packageN" "$TMP/list" && { cat "$TMP/list"; fail "--list-settings: a CPU-named form (targets replace them)"; }
grep -q "^  hwp-max .* lowest, efficient, guaranteed, highest, or 1 to 45 (MSR 0x771 of CPU $CPU)" "$TMP/list" ||
	{ cat "$TMP/list"; fail "--list-settings: HWP levels"; }
same "after --list-settings (the probe writes nothing)"

# The probe (item 4): a new setting whose writes would be refused is not offered, and --set of
# it is refused with the reason: a read-only file of one CPU or die, the msr driver refusing
# writes, a request that defers to the package one (MSR 0x774 bit 42)
not_offered() {   # NAME REASON-REGEX
	"$COLLECT" --list-settings --sysroot "$R" --cpu "$CPU" >"$TMP/list" || fail "--list-settings"
	sed -n '/^Not on this machine:/,$p' "$TMP/list" | grep -Eq "^  $1 +$2" ||
		{ cat "$TMP/list"; fail "$1 is not listed as not settable, with /$2/"; }
}
ro() {   # FILE NAME REASON-REGEX VALUE: FILE read-only refuses NAME=VALUE
	chmod 0444 "$1"
	not_offered "$2" "$3"
	expect_fail 2 "^collect: $2=$4: cannot be set on this machine: $3" $COLLECT $S -c 20 -o "$TMP/never" --set "$2=$4"
	chmod 0644 "$1"
}
ro "$C/cpu$OTHER/power/pm_qos_resume_latency_us" resume-latency \
	"CPU $OTHER: $C/cpu$OTHER/power/pm_qos_resume_latency_us is read-only here \(mode 0444\)" 5
ro "$C/cpu$OFF/online" offline-cpus "$C/cpu$OFF/online is read-only here \(mode 0444\)" none
ro "$U/package_01_die_00/max_freq_khz" uncore-freq "$U/package_01_die_00/max_freq_khz is read-only here" min
# a target leaving out the read-only CPU is taken
chmod 0444 "$C/cpu$OTHER/power/pm_qos_resume_latency_us"
"$COLLECT" $S -c 20 --dry-run --set resume-latency=5@measured >/dev/null || fail "resume-latency@measured refused for another CPU's file"
chmod 0644 "$C/cpu$OTHER/power/pm_qos_resume_latency_us"
mkdir -p "$R/sys/module/msr/parameters"
echo off >"$R/sys/module/msr/parameters/allow_writes"
for n in cstate-prewake hwp-min hwp-max hwp-desired; do
	not_offered $n "CPU [0-9]: the msr driver refuses writes \($R/sys/module/msr/parameters/allow_writes is off\)$"
done
rm -r "$R/sys/module/msr"
cp "$R/dev/cpu/$OTHER/msr" "$TMP/msr.keep"
perl -e 'open(my $f, "+<", $ARGV[0]) or die; seek($f, 8 * 0x774, 0); print $f pack("Q<", 0x0000055580002D01)' "$R/dev/cpu/$OTHER/msr"
not_offered hwp-desired "CPU $OTHER: MSR 0x774 defers to the package request \(bit 42\)$"
cp "$TMP/msr.keep" "$R/dev/cpu/$OTHER/msr"
same "after the probe refusals"
note "probe: read-only resume-latency/online/uncore files, msr allow_writes=off and HWP bit 42 refuse the setting"

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
for v in 1- 3-2 1,,2 1, x 99999 -1 1+ +1 1++2 1+,2; do
	re=$(printf '%s' "$v" | sed 's/+/\\+/g')
	refused "offline-cpus=$re: not none, siblings or a CPU list such as 1,3-5 or 1\+3-5 \(CPUs below 8192\)" "offline-cpus=$v"
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
refused "freq=nanMHz: not a frequency" freq=nanMHz@cpus=1
refused "hwp-max=46: outside CPU [01]'s levels 1 \(lowest\) to 45 \(highest\)" hwp-max=46
refused "hwp-min=fast: not a performance level \(0 to 255\) or a level name" hwp-min=fast
refused "cstate-prewake=yes: not on or off" cstate-prewake=yes
# the package C-state limit's codes are the model's (Sapphire Rapids: bits 2:0, PC6N/PC6R, 7 unlimited)
refused "pkg-cstate-limit=PC10: not a package C-state limit of the Skylake-X to Emerald Rapids, Ivy Bridge-EP, Xeon Phi; accepted: PC0, PC2, PC6N, PC6R, unlimited, raw:0 to raw:7" pkg-cstate-limit=PC10
refused "pkg-cstate-limit=raw:8: not a package" pkg-cstate-limit=raw:8
# a request that defers to the package request (MSR 0x774 bit 42) is refused
cp "$R/dev/cpu/$OTHER/msr" "$TMP/msr.keep"
perl -e 'open(my $f, "+<", $ARGV[0]) or die; seek($f, 8 * 0x774, 0); print $f pack("Q<", 0x0000055580002D01)' "$R/dev/cpu/$OTHER/msr"
refused "hwp-min=8: cannot be set on this machine: CPU $OTHER: MSR 0x774 defers to the package request \(bit 42\)" hwp-min=8
cp "$TMP/msr.keep" "$R/dev/cpu/$OTHER/msr"
# HWP fields against each other (levels: lowest 1, efficient 8, guaranteed 26, highest 45;
# MSR 0x774 now: min 1, max 45, desired 0), the planned ones and those left as they are
hwp_refused() {   # MESSAGE ARGS...
	m=$1
	shift
	expect_fail 2 "^collect: $m$" $COLLECT $S -c 20 -o "$TMP/never" "$@"
}
hwp_refused "hwp-min=highest \(45\) is above hwp-max=lowest \(1\) on CPU 0 \(HWP needs min <= desired <= max\)" \
	--set hwp-min=highest --set hwp-max=lowest
hwp_refused "hwp-desired=highest \(45\) is above hwp-max=guaranteed \(26\) on CPU 0 \(HWP needs min <= desired <= max\)" \
	--set hwp-desired=highest --set hwp-max=guaranteed
hwp_refused "hwp-min=guaranteed \(26\) is above hwp-max=efficient \(8\) on CPU 0 \(HWP needs min <= desired <= max\)" \
	--set hwp-min=guaranteed --matrix hwp-max=highest,efficient
hwp_refused "hwp-min=30 \(30\) is above hwp-desired=20 \(20\) on CPU $OTHER \(HWP needs min <= desired <= max\)" \
	--set hwp-min=30@cpus=$OTHER --matrix hwp-desired=auto,20
cp "$R/dev/cpu/0/msr" "$TMP/msr.keep"   # CPU 0 asking min 26 now: a field left as it is counts
perl -e 'open(my $f, "+<", $ARGV[0]) or die; seek($f, 8 * 0x774, 0); print $f pack("Q<", 0x0000015580002D1A)' "$R/dev/cpu/0/msr"
hwp_refused "hwp-min 26 \(as now\) is above hwp-max=efficient \(8\) on CPU 0 \(HWP needs min <= desired <= max\)" \
	--set hwp-max=efficient
cp "$TMP/msr.keep" "$R/dev/cpu/0/msr"
# accepted: auto desired below min; fields on different CPUs, each in order with what the CPU holds
"$COLLECT" $S -c 20 --dry-run --set hwp-min=guaranteed --set hwp-desired=auto --set hwp-max=highest >/dev/null ||
	fail "hwp-min=guaranteed with desired auto refused"
"$COLLECT" $S -c 20 --dry-run --set hwp-min=highest@cpus=$OTHER --set hwp-max=lowest@cpus=$SIB >/dev/null ||
	fail "hwp-min and hwp-max on different CPUs refused"
[ ! -e "$TMP/never" ] || fail "a refused command made its output directory"
same "after refused values"

# --set of every new setting: recorded as set, restored after
SET="--set resume-latency=20 --set offline-cpus=siblings --set uncore-freq=2.2GHz --set cstate-prewake=off
	--set hwp-min=efficient --set hwp-max=40 --set hwp-desired=guaranteed"
run=$TMP/set1
retry_busy "$COLLECT" $S -c 20 -o "$run" $SET || fail "--set run"
# (the run reads the CPUs of the fixture's static cpu/online, 0-3: the sibling taken offline
# shows the values it kept, as the later settings skipped it)
mixed() { echo "mixed: $(for n in 0 1 2 3; do [ $n = $SIB ] && printf 'cpu%s=%s ' $n "$2" || printf 'cpu%s=%s ' $n "$1"; done | sed 's/ $//')"; }
jq_true "$run/info.json" '.settings["resume-latency"] == "20" and .settings["offline-cpus"] == "'$SIB'" and
	.settings["uncore-freq"] == "2200MHz" and .settings["cstate-prewake"] == "'"$(mixed off on)"'" and
	.settings["hwp-min"] == "'"$(mixed 8 1)"'" and .settings["hwp-max"] == "'"$(mixed 40 45)"'" and
	.settings["hwp-desired"] == "'"$(mixed 26 auto)"'"' "settings recorded as set"
jq_true "$run/info.json" '.settings_changed["uncore-freq"] == {"before":"800MHz-2000MHz","after":"2200MHz"} and
	.settings_changed["offline-cpus"] == {"before":"none","after":"'$SIB'"} and
	.settings_changed["hwp-desired"] == {"before":"auto","after":"26"} and (.settings_changed | length) == 7' "settings_changed"
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
	msr_is $n 774 0x155801a2808
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
note "SIGKILL: MSR 0x1FC 0x22 -> 0x40000022, 0x774 0x15580002d01 -> 0x155801a2808, cpu$SIB offline; --restore wrote cpu$SIB/online first"

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

# Targets on the per-CPU settings (the CPU-named freq@cpuN and pkg-cstate-limit@packageN they
# replace are unknown names): only the target CPUs' files and MSRs change, also with
# --settings-cpus measured (and resume-latency's n/a, the kernel's "no latency at all")
retry_busy "$COLLECT" $S -c 20 -o "$TMP/fo" --settings-cpus measured --set freq=2GHz@cpus=$OFF --set resume-latency=n/a ||
	fail "freq@cpus=$OFF run"
jq_true "$TMP/fo/info.json" '.settings.freq == "unl" and .settings_changed.freq.after == "2000MHz" and
	.settings_targets.freq == {"target":"cpus='$OFF'","cpus":['$OFF']} and
	.settings_changed["resume-latency"] == {"before":"0","after":"n/a"}' \
	"freq=2GHz@cpus=$OFF and resume-latency=n/a with --settings-cpus measured (the record covers the measured CPU)"
start_long fo2 --set freq=1.5GHz@cpus=$OFF --set resume-latency=7@siblings --set pkg-cstate-limit=PC6N@package=1 \
	--set hwp-max=30@package=0
kill -KILL $pid $child
wait $pid 2>/dev/null
for n in 0 2; do msr_is $n E2 0x14000008; msr_is $n 774 0x15580001e01; done   # package 0: hwp-max 30
for n in 1 3; do msr_is $n E2 0x1400000a; msr_is $n 774 0x15580002d01; done   # package 1: PC6N = 2 in bits 2:0
for n in 0 1 2 3; do
	want="800000 4200000"
	[ $n = $OFF ] && want="1500000 1500000"
	file_is "$C/cpu$n/cpufreq/scaling_min_freq" "${want% *}"
	file_is "$C/cpu$n/cpufreq/scaling_max_freq" "${want#* }"
	want=0
	[ $n = $CPU ] || [ $n = $SIB ] && want=7
	file_is "$C/cpu$n/power/pm_qos_resume_latency_us" $want
done
"$COLLECT" --restore --sysroot "$R" >"$TMP/out" 2>&1 || { cat "$TMP/out"; fail "--restore (targets)"; }
# freq min+max of one CPU, resume-latency of 2, pkg-cstate-limit of 2, hwp-max of 2
grep -q "^collect: 8 journalled values restored$" "$TMP/out" || { cat "$TMP/out"; fail "--restore (targets): count"; }
same "after targets and --restore"
refused "freq=5GHz: outside CPU $OFF's range 800 to 4200 MHz" freq=5GHz@cpus=$OFF
refused "freq@cpus=9: CPU 9 does not exist \(online: 0-3\)" freq=2GHz@cpus=9
refused "unknown setting 'freq@cpu1'; the settings are .*, pkg-cstate-limit, pm-qos, resume-latency, offline-cpus, uncore-freq, cstate-prewake, hwp-min, hwp-max, hwp-desired$" freq@cpu1=2GHz
refused "unknown setting 'pkg-cstate-limit@package1'" pkg-cstate-limit@package1=PC2
refused "pkg-cstate-limit@package=5: no online CPU is in package 5" pkg-cstate-limit=PC2@package=5
refused "cstate-prewake@cpus=3: MSR 0x1FC is one per package: the target must cover whole packages; CPUs missing: 1$" \
	cstate-prewake=off@cpus=3
refused "hwp-desired@siblings=x: unknown target" hwp-desired=8@siblings=x
# a lock on one CPU of package 1 refuses package 1, not package 0
cp "$R/dev/cpu/3/msr" "$TMP/msr.keep"
perl -e 'open(my $f, "+<", $ARGV[0]) or die; seek($f, 8 * 0xE2, 0); print $f pack("Q<", 0x14008008)' "$R/dev/cpu/3/msr"
refused "pkg-cstate-limit=PC2: cannot be set on this machine: CPU 3: MSR 0xE2 is locked by the firmware \(bit 15\)" \
	pkg-cstate-limit=PC2@package=1
"$COLLECT" $S -c 20 --set pkg-cstate-limit=PC2@package=0 --dry-run >/dev/null || fail "package 0 refused for package 1's lock"
cp "$TMP/msr.keep" "$R/dev/cpu/3/msr"
same "after the package checks"
note "freq=1.5GHz@cpus=$OFF, resume-latency=7@siblings, pkg-cstate-limit=PC6N@package=1, hwp-max=30@package=0: only those CPUs written, 8 values restored"

# offline-cpus is one setting for the whole machine: no target; a target naming a CPU it takes
# offline in the same run (in any run of a matrix) is refused; all, package= and siblings skip
# the CPUs it took offline
refused "offline-cpus@cpus=$OFF: offline-cpus is one setting for the whole machine: it takes no CPU target" offline-cpus=$OFF@cpus=$OFF
expect_fail 2 "^collect: resume-latency@cpus=$OFF: CPU $OFF is taken offline by offline-cpus=$OFF in the same run$" \
	$COLLECT $S -c 20 -o "$TMP/never" --set offline-cpus=$OFF --set resume-latency=30@cpus=$OFF
expect_fail 2 "^collect: hwp-max@cpus=$CPU-3: CPU $SIB is taken offline by offline-cpus=siblings in the same run$" \
	$COLLECT $S -c 20 -o "$TMP/never" --matrix offline-cpus=none,siblings --set hwp-max=guaranteed@cpus=$CPU-3
if [ "$CPU" = 0 ]; then
	expect_fail 2 "^collect: pkg-cstate-limit@package=1: offline-cpus=1,3 in the same run takes every CPU of the target offline$" \
		$COLLECT $S -c 20 -o "$TMP/never" --set offline-cpus=1,3 --set pkg-cstate-limit=PC2@package=1
fi
start_long offt --set offline-cpus=siblings --set resume-latency=30@package=$CPU --set hwp-max=guaranteed@all \
	--set cstate-prewake=off@siblings
kill -KILL $pid $child
wait $pid 2>/dev/null
file_is "$C/cpu$SIB/online" 0
for n in 0 1 2 3; do
	rl=0 hw=0x15580001a01 pw=0x22
	[ $n = $CPU ] && rl=30 pw=0x40000022
	[ $n = $SIB ] && hw=0x15580002d01   # offline: skipped by all, package and siblings
	file_is "$C/cpu$n/power/pm_qos_resume_latency_us" $rl
	msr_is $n 774 $hw
	msr_is $n 1FC $pw
done
"$COLLECT" --restore --sysroot "$R" >"$TMP/out" 2>&1 || { cat "$TMP/out"; fail "--restore (offline-cpus with targets)"; }
# 1 online file, resume-latency of 1, hwp-max of 3, pre-wake of 1
grep -q "^collect: 6 journalled values restored$" "$TMP/out" || { cat "$TMP/out"; fail "--restore (offline-cpus with targets): count"; }
same "after offline-cpus with targets and --restore"
note "offline-cpus=siblings with resume-latency@package=$CPU, hwp-max@all, cstate-prewake@siblings: CPU $SIB skipped, 6 values restored"

# offline-cpus bringing a CPU back: a per-CPU setting on every online CPU (the default, or @all)
# takes it too; a package= target, resolved before the run, keeps the CPUs it named
ON=0-1,3
[ "$OFF" = 1 ] && ON=0,2-3
echo 0 >"$C/cpu$OFF/online"
echo "$ON" >"$C/online"
PW=$(((OFF + 2) % 4))   # the other CPU of OFF's package
start_long back --set offline-cpus=none --set hwp-max=guaranteed --set resume-latency=9@all \
	--set cstate-prewake=off@package=$((OFF % 2))
kill -KILL $pid $child
wait $pid 2>/dev/null
file_is "$C/cpu$OFF/online" 1
for n in 0 1 2 3; do
	pw=0x22
	[ $n = $PW ] && pw=0x40000022
	file_is "$C/cpu$n/power/pm_qos_resume_latency_us" 9
	msr_is $n 774 0x15580001a01
	msr_is $n 1FC $pw
done
# under offline_shim.c, as on a real kernel, cpu$OFF's msr refuses opens once it is offline
# again: its MSRs are written back before its online file
OFFLINE_SHIM=$3
[ -f "$OFFLINE_SHIM" ] || fail "no offline_shim library: $OFFLINE_SHIM"
ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0 LD_PRELOAD=$OFFLINE_SHIM \
	"$COLLECT" --restore --sysroot "$R" >"$TMP/out" 2>&1 || { cat "$TMP/out"; fail "--restore (offline-cpus=none)"; }
ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0 LD_PRELOAD=$OFFLINE_SHIM \
	perl -e 'open(my $f, "<", $ARGV[0]) and exit 1; exit 0' "$R/dev/cpu/$OFF/msr" ||
	fail "offline_shim: cpu$OFF/msr opens while cpu$OFF is offline"
# 1 online file, resume-latency and hwp-max of 4, pre-wake of 1
grep -q "^collect: 10 journalled values restored$" "$TMP/out" || { cat "$TMP/out"; fail "--restore (offline-cpus=none): count"; }
file_is "$C/cpu$OFF/online" 0
echo 1 >"$C/cpu$OFF/online"
echo 0-3 >"$C/online"
same "after offline-cpus=none with targets and --restore"
note "offline-cpus=none bringing CPU $OFF back: hwp-max (default) and resume-latency@all on it too, cstate-prewake@package=$((OFF % 2)) on CPU $PW only, 10 values restored"

# uncore-freq@package=LIST: the dies of those packages only (package_XX_die_YY), recorded
U=$C/intel_uncore_frequency
refused "uncore-freq@package=5: no uncore die of package 5 \(package_05_die_YY in $U\)$" uncore-freq=1.2GHz@package=5
refused "uncore-freq@cpus=1: uncore-freq is one setting for the whole machine: it takes no CPU target$" uncore-freq=1.2GHz@cpus=1
"$COLLECT" $S -c 20 --dry-run --set uncore-freq=1.2GHz@package=1 >"$TMP/plan" || fail "--dry-run uncore-freq@package=1"
grep -qx "target: uncore-freq@package=1 = dies package_01_die_00" "$TMP/plan" || { cat "$TMP/plan"; fail "uncore-freq@package=1: plan"; }
start_long unc --set uncore-freq=1.2GHz@package=1
kill -KILL $pid $child
wait $pid 2>/dev/null
file_is "$U/package_00_die_00/min_freq_khz" 800000
file_is "$U/package_00_die_00/max_freq_khz" 2000000
file_is "$U/package_01_die_00/min_freq_khz" 1200000
file_is "$U/package_01_die_00/max_freq_khz" 1200000
"$COLLECT" --restore --sysroot "$R" >"$TMP/out" 2>&1 || { cat "$TMP/out"; fail "--restore (uncore-freq@package=1)"; }
grep -q "^collect: 2 journalled values restored$" "$TMP/out" || { cat "$TMP/out"; fail "--restore (uncore-freq@package=1): count"; }
same "after uncore-freq@package=1 and --restore"
"$COLLECT" $S -c 20 -o "$TMP/unc-run" --set uncore-freq=1.2GHz@package=1 2>"$TMP/err" || { cat "$TMP/err"; fail "uncore-freq@package=1 run"; }
jq_true "$TMP/unc-run/info.json" '.settings_targets["uncore-freq"] == {"target":"package=1","dies":["package_01_die_00"]} and
	.settings_changed["uncore-freq"] == {"before":"800MHz-2000MHz","after":"1200MHz"} and
	.settings["uncore-freq"] == "mixed: package_00_die_00=800MHz-2000MHz package_01_die_00=1200MHz"' "uncore-freq@package=1 recorded"
same "after the uncore-freq@package=1 run"
note "uncore-freq=1.2GHz@package=1: package_01_die_00 written (1200000 kHz), package_00_die_00 kept, 2 values restored"

# SIGINT: the run stops, the collector restores everything itself
start_long int $SET
kill -INT $pid
wait $pid
rc=$?
[ $rc = 1 ] || { cat "$TMP/lerr"; fail "SIGINT: exit $rc, expected 1"; }
same "after SIGINT"
[ ! -e "$J" ] || fail "journal left after SIGINT"
note "SIGINT: exit 1, every file back"

# A write that fails midway (the other CPU's resume-latency file, left at 0 by the first
# configuration, is no longer a file when the second is applied; the probe saw it whole):
# exit 1 with the setting and file named, everything written before put back, no journal left
f=$C/cpu$OTHER/power/pm_qos_resume_latency_us
e=$TMP/mid
wait_cpu_free
test_bg "$COLLECT" $S --time-limit 3s -o "$e" --set uncore-freq=1.2GHz --set hwp-min=8 --set offline-cpus=siblings \
	--set cstate-prewake=off --matrix resume-latency=0,41 --repeat 1 2>"$TMP/err"
pid=$!
for _ in $(seq 600); do [ -s "$e/resume-latency=0-r1/datapoints.csv" ] && break; sleep 0.1; done
[ "$(jq '.runs | length' "$e/experiment.json")" = 0 ] || fail "midway: the first run ended before the file was broken"
mv "$f" "$TMP/rl.keep" && mkdir "$f"
wait $pid
rc=$?
rmdir "$f" && mv "$TMP/rl.keep" "$f"
[ $rc = 1 ] || { cat "$TMP/err"; fail "midway: exit $rc, expected 1"; }
grep -q "^collect: resume-latency: cannot read $f$" "$TMP/err" || { cat "$TMP/err"; fail "midway: the failed write is not named"; }
same "after a write that failed midway"
[ ! -e "$J" ] || fail "journal left after a failed write"
note "failed write midway: uncore, hwp-min, offline-cpus, pre-wake written, then resume-latency=41 refused on CPU $OTHER: all put back"

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

# '+' joins CPUs in a value (the commas of --matrix split values): {OFF, SIB} in one run
e=$TMP/plus
"$COLLECT" $S -c 20 -o "$e" --matrix offline-cpus=none,$OFF+$SIB --repeat 1 2>"$TMP/err" || { cat "$TMP/err"; fail "matrix offline-cpus=none,$OFF+$SIB"; }
lo=$OFF hi=$SIB
[ $OFF -lt $SIB ] || { lo=$SIB hi=$OFF; }
jq_true "$e/experiment.json" '(.runs | length) == 2 and .restored == true and (.design.factors[0].values == ["none","'$OFF+$SIB'"])' \
	"experiment.json of offline-cpus=none,$OFF+$SIB"
n=0
for d in "$e"/*/; do
	jq_true "$d/info.json" '.settings["offline-cpus"] == (if .experiment.config["offline-cpus"] == "none" then "none"
		else "'$lo-$hi'" end)' "$d: offline-cpus of its configuration"
	n=$((n + 1))
done
[ $n = 2 ] || fail "matrix offline-cpus=none,$OFF+$SIB: $n run directories"
same "after the matrix over offline-cpus=none,$OFF+$SIB"
note "matrix offline-cpus=none,$OFF+$SIB: 2 runs, the second with CPUs $lo-$hi offline; restored"
