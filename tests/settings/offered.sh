#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# What --list-settings offers can be set (issue 27 item 4), on fixture trees (--sysroot): a
# setting the machine has but whose writes are refused, or that would have no effect, is listed
# under "Not on this machine:" with the reason, and --set of it is refused with that reason
# before anything is written: the ASPM policy the kernel will not change (its value in force
# written back fails), the idle governor without a cpuidle driver, the MSR settings when the msr
# driver refuses writes, a package C-state limit the firmware locked, and a read-only sysfs
# attribute (epb, freq). The probe writes nothing.
. "$(dirname "$0")/../collect/lib.sh"
. "$(dirname "$0")/fixture.sh"
command -v perl >/dev/null || fail "perl not installed"

R=$TMP/root
make_fixture "$R"
cp -a "$R" "$TMP/pristine"
C=$R/sys/devices/system/cpu
same() {
	diff -r -x run "$TMP/pristine" "$R" >"$TMP/diff" || { cat "$TMP/diff"; fail "$1: the fixture tree is not as before"; }
}
S="--sysroot $R --method timer -c 10 -q --no-counters -o $TMP/never"

# offered NAME: NAME is listed with a value; refused NAME REASON: under "Not on this machine:"
list() { "$COLLECT" --list-settings --sysroot "$R" >"$TMP/list" || fail "--list-settings"; }
offered() {
	sed '/^Not on this machine:/q' "$TMP/list" | grep -Eq "^  $1 " || { cat "$TMP/list"; fail "$1 is not offered"; }
}
refused() {
	sed -n '/^Not on this machine:/,$p' "$TMP/list" | grep -Eq "^  $1 +$2" ||
		{ cat "$TMP/list"; fail "$1 is not listed as not settable, with /$2/"; }
	sed '/^Not on this machine:/q' "$TMP/list" | grep -Eq "^  $1 " && { cat "$TMP/list"; fail "$1 is offered"; }
	return 0
}

list
for n in aspm idle-governor c1-demotion c1e-autopromote pkg-cstate-limit epb; do offered "$n"; done
# (issue 27's new settings need new_settings.sh's fuller fixture: this one lacks them)
[ "$(sed -n '/^Not on this machine:/,$p' "$TMP/list" |
	grep -Evc '^  (resume-latency|offline-cpus|uncore-freq|cstate-prewake|hwp-(min|max|desired)) ')" -eq 1 ] ||
	{ cat "$TMP/list"; fail "the full fixture lacks something"; }
same "after --list-settings (the probe wrote back the ASPM policy's own text)"

# 1. idle-governor without a cpuidle driver: the kernel switches governors to no effect
echo none >"$C/cpuidle/current_driver"
list
refused idle-governor "no cpuidle driver \($C/cpuidle/current_driver: 'none'\): an idle governor would have no effect$"
offered cstates
expect_fail 2 "^collect: idle-governor: this machine does not have it: no cpuidle driver" $COLLECT $S --set idle-governor=teo
echo intel_idle >"$C/cpuidle/current_driver"
same "idle-governor refused"
note "idle-governor without a driver: $(grep '^  idle-governor' "$TMP/list")"

# 2. the msr driver refuses writes (allow_writes=off): every MSR setting, with its reason
mkdir -p "$R/sys/module/msr/parameters"
echo off >"$R/sys/module/msr/parameters/allow_writes"
list
for n in c1-demotion c1-undemotion c1e-autopromote pkg-cstate-limit; do
	refused "$n" "CPU 0: the msr driver refuses writes \($R/sys/module/msr/parameters/allow_writes is off\)$"
done
expect_fail 2 "^collect: c1e-autopromote=off: cannot be set on this machine: CPU 0: the msr driver refuses writes" \
	$COLLECT $S --set turbo=off --set c1e-autopromote=off
echo on >"$R/sys/module/msr/parameters/allow_writes"
list
offered c1e-autopromote
rm -r "$R/sys/module/msr"
# kernel lockdown refuses them the same way
mkdir -p "$R/sys/kernel/security"
echo "none [integrity] confidentiality" >"$R/sys/kernel/security/lockdown"
list
refused pkg-cstate-limit "CPU 0: kernel lockdown refuses MSR writes"
rm -r "$R/sys/kernel"
# the firmware's lock (MSR 0xE2 bit 15) holds the limit on CPU 1, not the demotion bits
perl -e 'open(my $f, "+<", $ARGV[0]) or die; seek($f, 8 * 0xE2, 0); print $f pack("Q<", hex($ARGV[1]))' "$R/dev/cpu/1/msr" 0x14008008
list
refused pkg-cstate-limit "CPU 1: MSR 0xE2 is locked by the firmware \(bit 15\)$"
offered c1-demotion
"$COLLECT" --list-settings --sysroot "$R" --settings-cpus measured --cpu 0 | sed '/^Not on this machine:/q' |
	grep -q '^  pkg-cstate-limit ' || fail "pkg-cstate-limit not offered for the measured CPU 0 alone"
perl -e 'open(my $f, "+<", $ARGV[0]) or die; seek($f, 8 * 0xE2, 0); print $f pack("Q<", hex($ARGV[1]))' "$R/dev/cpu/1/msr" 0x14000008
same "MSR writes refused"
note "msr allow_writes=off, lockdown: the four MSR settings not offered"

# 3. a read-only attribute of one CPU (the kernel shows one it has no store for as 0444):
#    refused on that CPU, offered where it is not written
chmod 0444 "$C/cpu1/power/energy_perf_bias"
list
refused epb "CPU 1: $C/cpu1/power/energy_perf_bias is read-only here \(mode 0444\)$"
expect_fail 2 "^collect: epb=15: cannot be set on this machine: CPU 1: $C/cpu1/power/energy_perf_bias is read-only here" \
	$COLLECT $S --set epb=15
"$COLLECT" --list-settings --sysroot "$R" --settings-cpus measured --cpu 0 | sed '/^Not on this machine:/q' |
	grep -q '^  epb ' || fail "epb not offered for the measured CPU 0 alone"
chmod 0644 "$C/cpu1/power/energy_perf_bias"
# the same for a setting whose write skips a file already holding the value (freq)
chmod 0444 "$C/cpu0/cpufreq/scaling_max_freq"
list
refused freq "CPU 0: $C/cpu0/cpufreq/scaling_max_freq is read-only here \(mode 0444\)$"
chmod 0644 "$C/cpu0/cpufreq/scaling_max_freq"
same "read-only epb and scaling_max_freq"

# 4. the ASPM policy the kernel refuses to change (firmware-controlled ASPM, pcie_aspm=off): the
#    value in force written back fails. A read-only mount stands for the kernel's EPERM here.
if [ "$(id -u)" -eq 0 ] && unshare -m true 2>/dev/null; then
	P=$R/sys/module/pcie_aspm/parameters
	unshare -m sh -c 'mount --bind "$1" "$1" && mount -o remount,bind,ro "$1" || exit 99
		"$2" --list-settings --sysroot "$3" >"$4/list"
		"$2" --sysroot "$3" --method timer -c 10 -q --no-counters -o "$4/never" --set aspm=performance 2>"$4/err"
		echo $? >"$4/rc"' sh "$P" "$COLLECT" "$R" "$TMP"
	[ -f "$TMP/rc" ] || skip "cannot remount read-only here"
	refused aspm "the kernel refuses changes here \(writing the policy in force, '\[default\] performance powersave powersupersave', back to $P/policy: Read-only file system; firmware-controlled ASPM or pcie_aspm=off\)$"
	[ "$(cat "$TMP/rc")" = 2 ] || { cat "$TMP/err"; fail "--set aspm=performance: exit $(cat "$TMP/rc"), expected 2"; }
	grep -q "^collect: aspm=performance: cannot be set on this machine: the kernel refuses changes here" "$TMP/err" ||
		{ cat "$TMP/err"; fail "--set aspm=performance: no reason"; }
	[ "$(wc -l <"$TMP/err")" -eq 1 ] || { cat "$TMP/err"; fail "--set aspm: not one line"; }
	note "aspm: $(cat "$TMP/err")"
else
	note "aspm refusal through a read-only mount skipped (needs root and unshare)"
fi
chmod 0444 "$R/sys/module/pcie_aspm/parameters/policy"
list
refused aspm "$R/sys/module/pcie_aspm/parameters/policy is read-only here \(mode 0444\)$"
chmod 0644 "$R/sys/module/pcie_aspm/parameters/policy"
[ ! -e "$TMP/never" ] || fail "a refused command made its output directory"
same "after every refusal"
[ ! -e "$R/run/idlescope-settings/settings.journal" ] || fail "a refused command left a journal"

# This machine (listing writes nothing but the ASPM policy in force, back to itself)
drv=$(idle_driver)
"$COLLECT" --list-settings >"$TMP/list" || fail "--list-settings on this machine"
if [ "$drv" = none ]; then
	refused idle-governor "no cpuidle driver"
else
	offered idle-governor
fi
if [ "$(id -u)" -eq 0 ] && [ -e /sys/module/pcie_aspm/parameters/policy ]; then
	if (cat /sys/module/pcie_aspm/parameters/policy >/sys/module/pcie_aspm/parameters/policy) 2>/dev/null; then
		offered aspm
	else
		refused aspm "the kernel refuses changes here"
	fi
fi
note "this machine (cpuidle driver $drv): $(sed '/^Not on this machine:/q' "$TMP/list" | grep -c '^  [a-z]') offered, $(sed -n '/^Not on this machine:/,$p' "$TMP/list" | grep -c '^  [a-z]') not"
note "all offered-settings checks passed"
