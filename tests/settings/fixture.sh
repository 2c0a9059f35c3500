# SPDX-License-Identifier: GPL-2.0-only
# Builds a fixture machine under $1 (sourced by the settings tests): $2 CPUs (default 2; 8 are
# 2 packages x 2 cores x 2 threads, numbered as Linux does: CPU n and n+4 are one core's
# threads, CPUs 0, 1, 4, 5 package 0; fewer are all in package 0, one thread per core) with cpufreq
# (intel_pstate: EPP, no_turbo), EPB, four idle states, three idle governors, PCIe ASPM policy
# and one device with L1 control, msr files (MSR a at byte 8*a) and a GenuineIntel cpuinfo.
# Refuses an empty root or / (test-lib.sh's refuse_root): a fixture is never built over the machine.
make_fixture() {
	refuse_root "${1:-}"
	R=$1
	ncpu=${2:-2}
	c=$R/sys/devices/system/cpu
	mkdir -p "$c/cpuidle" "$c/intel_pstate" "$R/sys/module/pcie_aspm/parameters" \
		"$R/sys/bus/pci/devices/0000:00:1c.0/link" "$R/sys/bus/pci/devices/0000:00:1f.3" "$R/proc" "$R/dev"
	echo "0-$((ncpu - 1))" >"$c/online"
	echo intel_idle >"$c/cpuidle/current_driver"
	echo "ladder menu teo" >"$c/cpuidle/available_governors"
	echo menu >"$c/cpuidle/current_governor"
	echo 0 >"$c/intel_pstate/no_turbo"
	echo "[default] performance powersave powersupersave" >"$R/sys/module/pcie_aspm/parameters/policy"
	echo 1 >"$R/sys/bus/pci/devices/0000:00:1c.0/link/l1_aspm"
	printf 'processor\t: 0\nvendor_id\t: GenuineIntel\n' >"$R/proc/cpuinfo"
	printf '2000000000\n' >"$R/dev/cpu_dma_latency"
	for n in $(seq 0 $((ncpu - 1))); do
		f=$c/cpu$n/cpufreq
		mkdir -p "$f" "$c/cpu$n/power" "$c/cpu$n/topology"
		if [ "$ncpu" -eq 8 ]; then
			echo $((n / 2 % 2)) >"$c/cpu$n/topology/physical_package_id"
			echo $((n % 2)) >"$c/cpu$n/topology/core_id"
			echo "$((n % 4)),$((n % 4 + 4))" >"$c/cpu$n/topology/thread_siblings_list"
		else
			echo 0 >"$c/cpu$n/topology/physical_package_id"
			echo "$n" >"$c/cpu$n/topology/core_id"
			echo "$n" >"$c/cpu$n/topology/thread_siblings_list"
		fi
		echo "performance powersave" >"$f/scaling_available_governors"
		echo powersave >"$f/scaling_governor"
		echo 800000 >"$f/cpuinfo_min_freq"
		echo 4200000 >"$f/cpuinfo_max_freq"
		echo 800000 >"$f/scaling_min_freq"
		echo 4200000 >"$f/scaling_max_freq"
		echo 2100000 >"$f/base_frequency"
		echo "default performance balance_performance balance_power power" \
			>"$f/energy_performance_available_preferences"
		echo balance_performance >"$f/energy_performance_preference"
		echo 6 >"$c/cpu$n/power/energy_perf_bias"
		k=0
		for s in POLL C1 C1E C6; do
			mkdir -p "$c/cpu$n/cpuidle/state$k"
			echo $s >"$c/cpu$n/cpuidle/state$k/name"
			echo 0 >"$c/cpu$n/cpuidle/state$k/disable"
			k=$((k + 1))
		done
		mkdir -p "$R/dev/cpu/$n"
		# MSR 0xE2 = 0x14000008 (C1 demotion and undemotion on, limit 8 = PC10), 0x1FC = 0x2 (C1E on)
		perl -e 'my $b = "\0" x (8 * 0x200); substr($b, 8 * 0xE2, 8) = pack("Q<", 0x14000008);
			 substr($b, 8 * 0x1FC, 8) = pack("Q<", 0x2); print $b' >"$R/dev/cpu/$n/msr"
	done
}

# msr FILE ADDR: the 64-bit value of MSR ADDR (hex) in a fixture msr file, as 0x%x.
msr() {
	perl -e 'open(my $f, "<", $ARGV[0]) or die; seek($f, 8 * hex($ARGV[1]), 0); read($f, my $b, 8);
		 printf("0x%x\n", unpack("Q<", $b))' "$1" "$2"
}

# pick_cpu: the first of CPUs 0 and 1 (or IDLESCOPE_SETTINGS_CPU) no collector holds now; the
# collect tests measure CPU 1, and a long run of someone else's may hold either.
pick_cpu() {
	for c in ${IDLESCOPE_SETTINGS_CPU:-0 1}; do
		[ "$c" -lt "$(nproc --all)" ] || continue
		busy=0
		for l in /run/idlescope/cpu$c.lock /tmp/idlescope-locks/cpu$c.lock; do
			[ -e "$l" ] && ! flock -n "$l" true 2>/dev/null && busy=1
		done
		[ $busy -eq 0 ] && { echo "$c"; return; }
	done
	echo "${IDLESCOPE_SETTINGS_CPU:-0}"
}
