# SPDX-License-Identifier: GPL-2.0-only
# The fixture parts of issue 27's settings (sourced after fixture.sh): make_fixture's machine
# with 4 CPUs (2 and 3 copies of CPU 0, thread siblings of 0 and 1; CPU 0 without an online
# file, as on x86),
# per-CPU PM QoS resume latency files, two uncore dies, and an Intel Sapphire Rapids (family
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
