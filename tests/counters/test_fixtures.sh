#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# collect --counters --sysroot on fixture trees (one-shot mode: the command rewrites the
# fixture between the two snapshots), then analyze counters; every derived value asserted.
# usage: test_fixtures.sh COLLECT ANALYZE MSRFILE
set -eu
COLLECT=$1 ANALYZE=$2 MSR=$3
. "$(dirname "$0")/lib.sh"
T=${COUNTERS_TMP:-$(mktemp -d)}
[ -n "${COUNTERS_TMP:-}" ] || trap 'rm -rf "$T"' EXIT
W48=$((1 << 48)) W32=$((1 << 32))

common_procfs() { # ROOT: /proc/interrupts and /proc/stat before; step_procfs: after
	mkdir -p "$1/proc" "$1/sys/devices/system/cpu"
	echo 0-1 > "$1/sys/devices/system/cpu/online"
	printf '           CPU0       CPU1\n  0:   10   20   IO-APIC   2-edge  timer\nNMI:    1    2   Non-maskable interrupts\nLOC:  100  200   Local timer interrupts\nERR:    0\n' > "$1/proc/interrupts"
	printf 'cpu  200 0 100 1600 100 0 0 0 0 0\ncpu0 100 0 50 800 50 0 0 0 0 0\ncpu1 100 0 50 800 50 0 0 0 0 0\nctxt 5000\n' > "$1/proc/stat"
}
step_procfs() {
	printf '           CPU0       CPU1\n  0:   15   20   IO-APIC   2-edge  timer\nNMI:    2    2   Non-maskable interrupts\nLOC:  150  260   Local timer interrupts\nERR:    0\n' > "$1/proc/interrupts"
	printf 'cpu  330 0 100 1750 100 0 0 0 0 0\ncpu0 130 0 70 1000 50 0 0 0 0 0\ncpu1 200 0 50 950 50 0 0 0 0 0\nctxt 5600\n' > "$1/proc/stat"
}

# ---------------------------------------------------------------------------------------
# Skylake-SP-like: one core, two threads; base ratio 21 (k = 84); 48-bit fixed counters
# and PMC0 wrap, and so does the 32-bit package energy; ESU 14; DRAM at 15.3 uJ.
R=$T/skx
cpuinfo "$R" GenuineIntel 6 85
common_procfs "$R"
for c in 0 1; do
	cpu "$R" $c 0 0
	idle "$R" $c 0 POLL 10 100 0 0
	idle "$R" $c 1 C1 200 3000 1 1
	idle "$R" $c 2 C6 50 900000 2 5
	echo 0 > "$R/sys/devices/system/cpu/cpu$c/fake_counter"
done
# snapshot 0
$MSR "$R/dev/cpu/0/msr" 0x10=1000000000 0xE7=500000000 0xE8=700000000 0x34=5 0xCE=0x1500 \
	0x309=$((W48 - 500000000)) 0x30A=$((W48 - 100000000)) 0x30B=$((W48 - 500000000)) \
	0xC1=$((W48 - 5000000)) 0x3FC=0 0x3FD=1000 0x3FE=0 0x60D=0 0x3F9=0 0x606=0xA0E03 \
	0x611=$((W32 - 16384 * 50)) 0x619=1000 0x639=0 0x38D=0 0x38F=0 0x186=0
$MSR "$R/dev/cpu/1/msr" 0x10=1000000500 0xE7=0 0xE8=0 0x34=5 0xCE=0x1500 \
	0x309=0 0x30A=0 0x30B=0 0x38D=0 0x38F=0 0x186=0 0x639=0
# snapshot 1 (written by the command between the snapshots)
cat > "$T/skx-step.sh" <<EOF
set -e
$MSR "$R/dev/cpu/0/msr" 0x10=3100000000 0xE7=1550000000 0xE8=1960000000 0x34=7 \
	0x309=1500000000 0x30A=900000000 0x30B=550000000 0xC1=10000000 \
	0x3FD=420001000 0x60D=105000000 0x3F9=210000000 0x611=$(((0xABCD << 32) | (16384 * 50))) 0x619=1001000 0x639=655360
$MSR "$R/dev/cpu/1/msr" 0x10=3100000500 0xE7=420000000 0xE8=210000000 0x34=7 \
	0x309=300000000 0x30A=200000000 0x30B=420000000
echo 1000000 > "$R/sys/devices/system/cpu/cpu0/cpuidle/state2/time"
echo 150 > "$R/sys/devices/system/cpu/cpu0/cpuidle/state2/usage"
echo 5 > "$R/sys/devices/system/cpu/cpu0/cpuidle/state2/above"
echo 9 > "$R/sys/devices/system/cpu/cpu0/cpuidle/state2/below"
cp "$T/skx-next/proc/interrupts" "$T/skx-next/proc/stat" "$R/proc/"
echo 210000000 > "$R/sys/devices/system/cpu/cpu0/fake_counter"
echo 1050000000 > "$R/sys/devices/system/cpu/cpu1/fake_counter"
EOF
mkdir -p "$T/skx-next/proc"
step_procfs "$T/skx-next"
"$COLLECT" --counters --sysroot "$R" -o "$T/skx-run" --add /sys/devices/system/cpu/cpu%d/fake_counter,percent,FAKE \
	--add msr0x3F9,u64,package,delta,MY_PC6 -- sh "$T/skx-step.sh" 2> "$T/skx.err" ||
	fail "skx collect: $(cat "$T/skx.err")"
echo "ok: skx one-shot collect"
# the MSR writes went to the fixture: fixed counters and PMC0 (AnyThread REF_XCLK) enabled
eq "skx IA32_FIXED_CTR_CTRL" "$($MSR "$R/dev/cpu/0/msr" 0x38D)" $((0x333))
eq "skx IA32_PERF_GLOBAL_CTRL cpu0" "$($MSR "$R/dev/cpu/0/msr" 0x38F)" $(((7 << 32) | 1))
eq "skx IA32_PERF_GLOBAL_CTRL cpu1" "$($MSR "$R/dev/cpu/1/msr" 0x38F)" $((7 << 32))
eq "skx IA32_PERFEVTSEL0" "$($MSR "$R/dev/cpu/0/msr" 0x186)" $((0x63013C))
eq "skx snapshots" "$(jq .snapshots "$T/skx-run/info.json")" 2
eq "skx exit status" "$(jq .exit_status "$T/skx-run/info.json")" 0
eq "skx TSC source" "$(jq -r '.counters.columns.TSC.source' "$T/skx-run/info.json")" "msr 0x10"
eq "skx fixed width" "$(jq -r '.counters.columns.REF_UNHALTED.width' "$T/skx-run/info.json")" 48
has "skx C1 residency missing" "$(jq -r '.counters.missing[].counters' "$T/skx-run/info.json")" CORE_C1_RES
# core/package counters only on the CPU that reads them: never written as zero elsewhere
eq "skx CORE_C6_RES empty on cpu1" "$(awk -F, 'NR==1 { for (i = 1; i <= NF; i++) if ($i == "CORE_C6_RES") c = i }
	NR==3 { print "[" $c "]" }' "$T/skx-run/counters.csv")" "[]"
pin_time "$T/skx-run/counters.csv"
J=$("$ANALYZE" counters "$T/skx-run" --format json 2>/dev/null)
q() { printf '%s' "$J" | jq -r "$1"; }
near "skx cpu0 TSC_MHz" "$(q '.intervals[0].cpus[0].TSC_MHz')" 2100
near "skx cpu0 Avg_MHz" "$(q '.intervals[0].cpus[0].Avg_MHz')" 1260
near "skx cpu0 Busy%" "$(q '.intervals[0].cpus[0]["Busy%"]')" 50
near "skx cpu0 Bzy_MHz (21 x 100 MHz x APERF/MPERF)" "$(q '.intervals[0].cpus[0].Bzy_MHz')" 2520
near "skx cpu1 Busy%" "$(q '.intervals[0].cpus[1]["Busy%"]')" 20
near "skx cpu1 Bzy_MHz" "$(q '.intervals[0].cpus[1].Bzy_MHz')" 1050
near "skx cpu0 IPC (48-bit wrap)" "$(q '.intervals[0].cpus[0].IPC')" 2
near "skx cpu1 IPC" "$(q '.intervals[0].cpus[1].IPC')" 1.5
near "skx cpu0 Halted% (REF wraps)" "$(q '.intervals[0].cpus[0]["Halted%"]')" 50
near "skx cpu1 Halted%" "$(q '.intervals[0].cpus[1]["Halted%"]')" 80
near "skx cpu0 CPU%c6" "$(q '.intervals[0].cpus[0]["CPU%c6"]')" 20
eq "skx cpu1 CPU%c6 only on the core's first CPU" "$(q '.intervals[0].cpus[1]["CPU%c6"]')" null
near "skx cpu0 CPU%c1 remainder" "$(q '.intervals[0].cpus[0]["CPU%c1"]')" 30
near "skx cpu1 CPU%c1 remainder" "$(q '.intervals[0].cpus[1]["CPU%c1"]')" 60
near "skx Pkg%pc2" "$(q '.intervals[0].cpus[0]["Pkg%pc2"]')" 5
near "skx Pkg%pc6" "$(q '.intervals[0].cpus[0]["Pkg%pc6"]')" 10
near "skx PkgWatt (32-bit wrap, reserved high bits masked, ESU 14)" "$(q '.intervals[0].cpus[0].PkgWatt')" 100
near "skx CorWatt" "$(q '.intervals[0].cpus[0].CorWatt')" 40
near "skx RAMWatt (15.3 uJ)" "$(q '.intervals[0].cpus[0].RAMWatt')" 15.3
near "skx cpu0 SMI" "$(q '.intervals[0].cpus[0].SMI')" 2
near "skx cpu0 IRQ" "$(q '.intervals[0].cpus[0].IRQ')" 56
near "skx cpu1 IRQ" "$(q '.intervals[0].cpus[1].IRQ')" 60
near "skx cpu0 NMI" "$(q '.intervals[0].cpus[0].NMI')" 1
near "skx cpu0 C6%" "$(q '.intervals[0].cpus[0]["C6%"]')" 10
near "skx cpu0 C6 usage" "$(q '.intervals[0].cpus[0].C6')" 100
near "skx cpu0 C6- (above)" "$(q '.intervals[0].cpus[0]["C6-"]')" 3
near "skx cpu0 C6+ (below)" "$(q '.intervals[0].cpus[0]["C6+"]')" 4
near "skx cpu0 OS_Busy%" "$(q '.intervals[0].cpus[0]["OS_Busy%"]')" 20
near "skx cpu1 OS_Busy%" "$(q '.intervals[0].cpus[1]["OS_Busy%"]')" 40
near "skx summary Busy% (mean)" "$(q '.intervals[0].summary["Busy%"]')" 35
near "skx summary IRQ (sum)" "$(q '.intervals[0].summary.IRQ')" 116
near "skx summary PkgWatt" "$(q '.intervals[0].summary.PkgWatt')" 100
near "skx --add sysfs percent cpu0" "$(q '.intervals[0].cpus[0].FAKE')" 10
near "skx --add sysfs percent cpu1" "$(q '.intervals[0].cpus[1].FAKE')" 50
near "skx --add msr package delta" "$(q '.intervals[0].cpus[0].MY_PC6')" 210000000
eq "skx --add package counter only on the package CPU" "$(q '.intervals[0].cpus[1].MY_PC6')" null
eq "skx --add source" "$(jq -r .counters.columns.MY_PC6.source "$T/skx-run/info.json")" "msr 0x3F9"
eq "skx k" "$(q '.ht_split.k')" 84
near "skx HT_Idle%" "$(q '.intervals[0].cores[0]["HT_Idle%"]')" 40
near "skx HT0_Only%" "$(q '.intervals[0].cores[0]["HT0_Only%"]')" 40
near "skx HT1_Only%" "$(q '.intervals[0].cores[0]["HT1_Only%"]')" 10
near "skx HT_Both%" "$(q '.intervals[0].cores[0]["HT_Both%"]')" 10
eq "skx cores[0] Package/Core" "$(q '.intervals[0].cores[0] | "\(.Package)/\(.Core)"')" "0/0"
J=$("$ANALYZE" counters "$T/skx-run" --format json --Joules --show PkgWatt,Pkg_J \
	--metric 'INS_PER_REF=INST_RETIRED/REF_UNHALTED' --metric 'CS_PER_S=CTXT/interval_s' 2>"$T/skx.err")
has "skx --show PkgWatt under --Joules: a warning" "$(cat "$T/skx.err")" "cannot be derived"
near "skx Pkg_J" "$(q '.intervals[0].summary.Pkg_J')" 100
eq "skx --show keeps only Pkg_J" "$(q '.columns | join(",")')" "Pkg_J"
J=$("$ANALYZE" counters "$T/skx-run" --format json --metric 'INS_PER_REF=INST_RETIRED/REF_UNHALTED' \
	--metric 'CS_PER_S=CTXT/interval_s' 2>/dev/null)
near "skx --metric per CPU" "$(q '.intervals[0].cpus[0].INS_PER_REF')" 1.9047619047619047
near "skx --metric summary over summed deltas" "$(q '.intervals[0].summary.INS_PER_REF')" 1.564625850340136
near "skx --metric with system counter" "$(q '.intervals[0].summary.CS_PER_S')" 600
CSV=$("$ANALYZE" counters "$T/skx-run" --format csv --show Busy%,HT_Idle%,HT_Both% --hide HT_Both% 2>/dev/null)
eq "skx csv header" "$(printf '%s\n' "$CSV" | head -1)" "Interval,Time,Package,Core,CPU,Busy%,HT_Idle%"
eq "skx csv summary row" "$(printf '%s\n' "$CSV" | sed -n 2p)" "1,1,-,-,-,35,"
eq "skx csv cpu0 row (HT on the core's first CPU)" "$(printf '%s\n' "$CSV" | sed -n 3p)" "1,1,0,0,0,50,40"
eq "skx csv cpu1 row" "$(printf '%s\n' "$CSV" | sed -n 4p)" "1,1,0,0,1,20,"
set +e
"$ANALYZE" counters "$T/skx-run" --show Busy%,Nope > /dev/null 2> "$T/skx.err"
set -e
eq "skx --show Nope: every column of the run, the HT split's too" "$(cat "$T/skx.err")" \
	"analyze: --show: unknown column 'Nope' (columns of this run: Avg_MHz, Busy%, Bzy_MHz, TSC_MHz, IPC, IRQ, NMI, SMI, POLL, C1, C6, POLL%, C1%, C6%, POLL+, C1+, C6+, POLL-, C1-, C6-, CPU%c1, CPU%c3, CPU%c6, CPU%c7, Halted%, OS_Busy%, Pkg%pc2, Pkg%pc3, Pkg%pc6, Pkg%pc7, Pkg%pc8, Pkg%pc9, Pkg%pc10, PkgWatt, CorWatt, RAMWatt, FAKE, MY_PC6, HT_Idle%, HT0_Only%, HT1_Only%, HT_Both%)"
T_TEXT=$("$ANALYZE" counters "$T/skx-run" --Summary 2>/dev/null)
has "skx text summary row (mean Bzy_MHz)" "$T_TEXT" " 1785 "

# ---------------------------------------------------------------------------------------
# Broadwell-like (model 79): k = base ratio (22)
R=$T/bdw
cpuinfo "$R" GenuineIntel 6 79
common_procfs "$R"
for c in 0 1; do cpu "$R" $c 0 0; done
$MSR "$R/dev/cpu/0/msr" 0x10=0 0xE7=0 0xE8=0 0xCE=0x1600 0x30B=0 0xC1=0 0x186=0 0x38F=0 0x38D=0
$MSR "$R/dev/cpu/1/msr" 0x10=0 0xE7=0 0xE8=0 0xCE=0x1600 0x30B=0 0x186=0 0x38F=0 0x38D=0
cat > "$T/bdw-step.sh" <<EOF
$MSR "$R/dev/cpu/0/msr" 0x10=2200000000 0xE7=1100000000 0xE8=1650000000 0x30B=1100000000 0xC1=60000000
$MSR "$R/dev/cpu/1/msr" 0x10=2200000000 0xE7=440000000 0xE8=220000000 0x30B=440000000
EOF
"$COLLECT" --counters -q --sysroot "$R" --system-cpu 1 -o "$T/bdw-run" -- sh "$T/bdw-step.sh" || fail "bdw collect"
col() { awk -F, -v n="$2" -v cpu="$3" 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == n) c = i; next }
	$3 == cpu && $1 == 0 { print "[" $c "]" }' "$1"; }
eq "bdw --system-cpu 1: PLATFORM_INFO read on CPU 1" "$(col "$T/bdw-run/counters.csv" PLATFORM_INFO 1)" "[$((0x1600))]"
eq "bdw --system-cpu 1: not on CPU 0" "$(col "$T/bdw-run/counters.csv" PLATFORM_INFO 0)" "[]"
eq "bdw --system-cpu 1: CTXT (system scope) on CPU 1" "$(col "$T/bdw-run/counters.csv" CTXT 1)" "[5000]"
pin_time "$T/bdw-run/counters.csv"
J=$("$ANALYZE" counters "$T/bdw-run" --format json 2>/dev/null)
eq "bdw k = base ratio" "$(q '.ht_split.k')" 22
near "bdw cpu0 Bzy_MHz (22 x 100 x 1.5)" "$(q '.intervals[0].cpus[0].Bzy_MHz')" 3300
near "bdw HT_Idle%" "$(q '.intervals[0].cores[0]["HT_Idle%"]')" 40
near "bdw HT0_Only%" "$(q '.intervals[0].cores[0]["HT0_Only%"]')" 40
near "bdw HT1_Only%" "$(q '.intervals[0].cores[0]["HT1_Only%"]')" 10
near "bdw HT_Both%" "$(q '.intervals[0].cores[0]["HT_Both%"]')" 10

# ---------------------------------------------------------------------------------------
# AMD-like (family 25): no Intel C-state MSRs; RAPL at 0xC0010299/0xC001029A/0xC001029B
# (ESU 16); two cores of one thread each, so Cor energy is per core.
R=$T/amd
cpuinfo "$R" AuthenticAMD 25 1
common_procfs "$R"
cpu "$R" 0 0 0
cpu "$R" 1 1 0
$MSR "$R/dev/cpu/0/msr" 0x10=0 0xE7=0 0xE8=0 0xC0010299=0xA1003 0xC001029A=$((W32 - 65536)) \
	0xC001029B=$((W32 - 65536 * 10))
$MSR "$R/dev/cpu/1/msr" 0x10=0 0xE7=0 0xE8=0 0xC0010299=0xA1003 0xC001029A=0 0xC001029B=0
cat > "$T/amd-step.sh" <<EOF
$MSR "$R/dev/cpu/0/msr" 0x10=3000000000 0xE7=750000000 0xE8=900000000 0xC001029A=$((65536 * 4)) \
	0xC001029B=$((65536 * 20))
$MSR "$R/dev/cpu/1/msr" 0x10=3000000000 0xE7=300000000 0xE8=150000000 0xC001029A=$((65536 * 3))
EOF
"$COLLECT" --counters --sysroot "$R" -o "$T/amd-run" -- sh "$T/amd-step.sh" 2> "$T/amd.err" || fail "amd collect"
has "amd says why core C-states are missing" "$(cat "$T/amd.err")" "CORE_C1_RES, CORE_C3_RES, CORE_C6_RES, CORE_C7_RES unavailable: perf off (--sysroot); MSR 0x660 is Intel only"
pin_time "$T/amd-run/counters.csv"
"$COLLECT" --counters -q --sysroot "$R" --cpu 1 -o "$T/amd-cpu1" -- true || fail "amd --cpu 1"
eq "amd --cpu 1: only CPU 1 rows" "$(cut -d, -f3 "$T/amd-cpu1/counters.csv" | sort -u | tr '\n' ' ')" "1 CPU "
eq "amd --cpu 1 reads the package counters from its own msr file" "$(col "$T/amd-cpu1/counters.csv" PKG_ENERGY 1)" "[0]"
J=$("$ANALYZE" counters "$T/amd-run" --format json 2>/dev/null)
near "amd cpu0 Busy%" "$(q '.intervals[0].cpus[0]["Busy%"]')" 25
near "amd cpu0 Bzy_MHz (TSC-based, no PLATFORM_INFO)" "$(q '.intervals[0].cpus[0].Bzy_MHz')" 3600
near "amd cpu0 CPU%c1 = 100 - Busy%" "$(q '.intervals[0].cpus[0]["CPU%c1"]')" 75
near "amd cpu1 CPU%c1" "$(q '.intervals[0].cpus[1]["CPU%c1"]')" 90
near "amd PkgWatt (ESU 16, wrap)" "$(q '.intervals[0].cpus[0].PkgWatt')" 30
near "amd cpu0 CorWatt (per core, wrap)" "$(q '.intervals[0].cpus[0].CorWatt')" 5
near "amd cpu1 CorWatt" "$(q '.intervals[0].cpus[1].CorWatt')" 3
near "amd summary CorWatt" "$(q '.intervals[0].summary.CorWatt')" 8
eq "amd no CPU%c6" "$(q '.intervals[0].cpus[0] | has("CPU%c6")')" false
has "amd says CPU%c6 needs CORE_C6_RES" "$(q '.not_derivable | join(";")')" "CPU%c6 (needs CORE_C6_RES)"
has "amd no HT split, and why" "$(q ".ht_split.why")" "needs REF_XCLK_ANY"

# ---------------------------------------------------------------------------------------
# This VM's real /sys and /proc, copied into a sysroot (no /dev/cpu/*/msr here), with
# known increments applied between the snapshots.
R=$T/vm
mkdir -p "$R/proc" "$R/sys/devices/system/cpu"
cp /proc/cpuinfo /proc/stat /proc/interrupts "$R/proc/"
cp /sys/devices/system/cpu/online "$R/sys/devices/system/cpu/online"
for d in /sys/devices/system/cpu/cpu[0-9]*; do
	n=${d##*/cpu}
	mkdir -p "$R/sys/devices/system/cpu/cpu$n/topology"
	cp "$d/topology/core_id" "$d/topology/physical_package_id" "$R/sys/devices/system/cpu/cpu$n/topology/"
	for s in "$d"/cpuidle/state*; do
		[ -d "$s" ] || continue
		t=$R/sys/devices/system/cpu/cpu$n/cpuidle/${s##*/}
		mkdir -p "$t"
		for f in name usage time above below; do cat "$s/$f" > "$t/$f"; done
	done
done
C0=$R/sys/devices/system/cpu/cpu0/cpuidle/state1
: > "$T/vm-step.sh"
if [ -d "$C0" ]; then
	STATE=$(tr -c 'A-Za-z0-9\n' _ < "$C0/name")
	echo "echo \$((\$(cat '$C0/usage') + 40)) > '$C0/usage'" >> "$T/vm-step.sh"
	echo "echo \$((\$(cat '$C0/time') + 250000)) > '$C0/time'" >> "$T/vm-step.sh"
else
	echo "# this machine has no cpuidle states (driver: $(cat /sys/devices/system/cpu/cpuidle/current_driver 2>/dev/null || echo absent)): checking that collect and analyze say so"
fi
"$COLLECT" --counters --sysroot "$R" -o "$T/vm-run" -- sh "$T/vm-step.sh" 2> "$T/vm.err" || fail "vm collect"
has "vm: APERF/MPERF missing, with the reason" "$(cat "$T/vm.err")" "APERF, MPERF unavailable: perf off (--sysroot); no /dev/cpu/0/msr"
has "vm: TSC missing under sysroot without msr" "$(cat "$T/vm.err")" "TSC unavailable"
pin_time "$T/vm-run/counters.csv"
J=$("$ANALYZE" counters "$T/vm-run" --format json 2>/dev/null)
if [ -d "$C0" ]; then
	near "vm cpu0 $STATE usage" "$(q ".intervals[0].cpus[0][\"$STATE\"]")" 40
	near "vm cpu0 $STATE%" "$(q ".intervals[0].cpus[0][\"$STATE%\"]")" 25
	near "vm cpu1 $STATE usage (unchanged)" "$(q ".intervals[0].cpus[1][\"$STATE\"]")" 0
else
	has "vm: cpuidle missing, with the reason" "$(cat "$T/vm.err")" "cpuidle unavailable: no cpuidle states"
	eq "vm: only the OS columns" "$(q '.intervals[0].cpus[0] | keys | join(",")')" "CPU,Core,IRQ,NMI,OS_Busy%,Package"
fi
near "vm cpu0 IRQ (file unchanged)" "$(q '.intervals[0].cpus[0].IRQ')" 0
has "vm: Busy% not derivable" "$(q '.not_derivable | join(";")')" "Busy% (needs MPERF and TSC)"
echo "all fixture tests passed"
