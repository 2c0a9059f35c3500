#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Package and system scope on fixtures with two packages (system-scope counters are read on
# each package's designated CPU, chosen with --system-cpu, and summed by analyze), and
# counters that some CPUs cannot read (reported once per counter, never silently empty).
# usage: test_scopes.sh COLLECT ANALYZE MSRFILE
set -eu
COLLECT=$1 ANALYZE=$2 MSR=$3
. "$(dirname "$0")/lib.sh"
T=${COUNTERS_TMP:-$(mktemp -d)}
[ -n "${COUNTERS_TMP:-}" ] || trap 'rm -rf "$T"' EXIT

# procfs ROOT ONLINE CTXT: the online CPUs and a /proc/stat with only a ctxt line
procfs() {
	mkdir -p "$1/proc" "$1/sys/devices/system/cpu"
	echo "$2" > "$1/sys/devices/system/cpu/online"
	printf 'ctxt %s\n' "$3" > "$1/proc/stat"
}
# cell CSV NAME CPU SNAPSHOT: "[value]" of a counters.csv cell ("[]" when empty)
cell() {
	awk -F, -v n="$2" -v cpu="$3" -v s="$4" 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == n) c = i; next }
		$3 == cpu && $1 == s { print "[" $c "]" }' "$1"
}

# ---------------------------------------------------------------------------------------
# Two packages of one CPU each (CPU 0 in package 0, CPU 1 in package 1). MSR 0x700 stands
# for an uncore event counted per package: 600 on package 0, 900 on package 1.
R=$T/pkg2
cpuinfo "$R" GenuineIntel 6 85
procfs "$R" 0-1 5000
cpu "$R" 0 0 0
cpu "$R" 1 0 1
$MSR "$R/dev/cpu/0/msr" 0x10=1000000000 0x700=1000
$MSR "$R/dev/cpu/1/msr" 0x10=1000000000 0x700=5000
cat > "$T/pkg2-step.sh" <<EOF
$MSR "$R/dev/cpu/0/msr" 0x10=2000000000 0x700=1600
$MSR "$R/dev/cpu/1/msr" 0x10=2000000000 0x700=5900
printf 'ctxt 5600\n' > "$R/proc/stat"
EOF
"$COLLECT" --counters -q --sysroot "$R" -o "$T/pkg2-run" --add msr0x700,u64,system,delta,UNC_RD \
	--add msr0x700,u64,package,delta,PKG_RD -- sh "$T/pkg2-step.sh" || fail "pkg2 collect"
CSV=$T/pkg2-run/counters.csv
eq "pkg2 system counter read on package 0's CPU" "$(cell "$CSV" UNC_RD 0 0)" "[1000]"
eq "pkg2 system counter read on package 1's CPU" "$(cell "$CSV" UNC_RD 1 0)" "[5000]"
eq "pkg2 system counter, second snapshot, package 1" "$(cell "$CSV" UNC_RD 1 1)" "[5900]"
eq "pkg2 machine-wide CTXT read once, on CPU 0" "$(cell "$CSV" CTXT 0 0)" "[5000]"
eq "pkg2 machine-wide CTXT not on CPU 1" "$(cell "$CSV" CTXT 1 0)" "[]"
eq "pkg2 info package_cpus" "$(jq -r .counters.package_cpus "$T/pkg2-run/info.json")" "0,1"
eq "pkg2 info system_cpu (machine-wide sources)" "$(jq -r .counters.system_cpu "$T/pkg2-run/info.json")" 0
eq "pkg2 info scope" "$(jq -r .counters.columns.UNC_RD.scope "$T/pkg2-run/info.json")" system
eq "pkg2 info partial empty" "$(jq -c .counters.partial "$T/pkg2-run/info.json")" "[]"
pin_time "$CSV"
J=$("$ANALYZE" counters "$T/pkg2-run" --format json --metric 'UNC_PER_S=UNC_RD/interval_s' \
	--metric 'PKG_PER_S=PKG_RD/interval_s' --metric 'CS_PER_S=CTXT/interval_s' 2>/dev/null)
q() { printf '%s' "$J" | jq -r "$1"; }
near "pkg2 cpu0 UNC_RD (package 0's count)" "$(q '.intervals[0].cpus[0].UNC_RD')" 600
near "pkg2 cpu1 UNC_RD (package 1's count)" "$(q '.intervals[0].cpus[1].UNC_RD')" 900
near "pkg2 summary UNC_RD = sum over the packages" "$(q '.intervals[0].summary.UNC_RD')" 1500
near "pkg2 cpu0 --metric on a system counter: the machine's total" "$(q '.intervals[0].cpus[0].UNC_PER_S')" 1500
near "pkg2 cpu1 --metric on a system counter: the machine's total" "$(q '.intervals[0].cpus[1].UNC_PER_S')" 1500
near "pkg2 summary --metric on a system counter" "$(q '.intervals[0].summary.UNC_PER_S')" 1500
near "pkg2 cpu0 --metric on a package counter: its package" "$(q '.intervals[0].cpus[0].PKG_PER_S')" 600
near "pkg2 cpu1 --metric on a package counter: its package" "$(q '.intervals[0].cpus[1].PKG_PER_S')" 900
near "pkg2 summary PKG_RD = sum over the packages" "$(q '.intervals[0].summary.PKG_RD')" 1500
near "pkg2 summary --metric on a package counter" "$(q '.intervals[0].summary.PKG_PER_S')" 1500
near "pkg2 cpu1 --metric on machine-wide CTXT" "$(q '.intervals[0].cpus[1].CS_PER_S')" 600
near "pkg2 summary CTXT counted once" "$(q '.intervals[0].summary.CS_PER_S')" 600
TXT=$("$ANALYZE" counters "$T/pkg2-run" --Summary --show UNC_RD,PKG_RD 2>/dev/null)
eq "pkg2 text summary row" "$(printf '%s\n' "$TXT" | sed -n 3p)" "      -       -       -    1500    1500"
"$COLLECT" --counters -q --sysroot "$R" --system-cpu 1,0 -o "$T/pkg2-sys" -- true || fail "pkg2 --system-cpu 1,0"
eq "pkg2 --system-cpu 1,0: package_cpus" "$(jq -r .counters.package_cpus "$T/pkg2-sys/info.json")" "0,1"

# ---------------------------------------------------------------------------------------
# Two packages of two CPUs each: --system-cpu picks the CPU of each package that reads the
# system- and package-scope counters.
R=$T/pkg4
cpuinfo "$R" GenuineIntel 6 85
procfs "$R" 0-3 100
cpu "$R" 0 0 0
cpu "$R" 1 1 0
cpu "$R" 2 0 1
cpu "$R" 3 1 1
# MSR 0x700 of CPU c: 10c, then 10c + 10^c
for c in 0 1 2 3; do
	$MSR "$R/dev/cpu/$c/msr" 0x10=0 0x700=$((c * 10))
	echo "$MSR '$R/dev/cpu/$c/msr' 0x10=1000000000 0x700=$((c * 10 + $(echo 1 10 100 1000 | cut -d' ' -f$((c + 1)))))" \
		>> "$T/pkg4-step.sh"
done
"$COLLECT" --counters -q --sysroot "$R" --system-cpu 1,3 -o "$T/pkg4-sys" \
	--add msr0x700,system,UNC_RD -- sh "$T/pkg4-step.sh" || fail "pkg4 --system-cpu 1,3"
CSV=$T/pkg4-sys/counters.csv
eq "pkg4 --system-cpu 1,3: read on CPU 1" "$(cell "$CSV" UNC_RD 1 0)" "[10]"
eq "pkg4 --system-cpu 1,3: read on CPU 3" "$(cell "$CSV" UNC_RD 3 0)" "[30]"
eq "pkg4 --system-cpu 1,3: not on CPU 0" "$(cell "$CSV" UNC_RD 0 0)" "[]"
eq "pkg4 --system-cpu 1,3: not on CPU 2" "$(cell "$CSV" UNC_RD 2 0)" "[]"
eq "pkg4 --system-cpu 1,3: package counter on CPU 3" "$(cell "$CSV" PLATFORM_INFO 3 0)" "[0]"
eq "pkg4 --system-cpu 1,3: package counter not on CPU 2" "$(cell "$CSV" PLATFORM_INFO 2 0)" "[]"
eq "pkg4 --system-cpu 1,3: CTXT on CPU 1" "$(cell "$CSV" CTXT 1 0)" "[100]"
eq "pkg4 --system-cpu 1,3: info package_cpus" "$(jq -r .counters.package_cpus "$T/pkg4-sys/info.json")" "1,3"
eq "pkg4 --system-cpu 1,3: info system_cpu" "$(jq -r .counters.system_cpu "$T/pkg4-sys/info.json")" 1
pin_time "$CSV"
near "pkg4 --system-cpu 1,3: summary = CPU 1's + CPU 3's" \
	"$("$ANALYZE" counters "$T/pkg4-sys" --format json 2>/dev/null | jq '.intervals[0].summary.UNC_RD')" 1010
for c in 0 1 2 3; do $MSR "$R/dev/cpu/$c/msr" 0x10=0 0x700=$((c * 10)); done
"$COLLECT" --counters -q --sysroot "$R" -o "$T/pkg4-def" --add msr0x700,system,UNC_RD -- sh "$T/pkg4-step.sh" ||
	fail "pkg4 default"
eq "pkg4 default: package_cpus (first of each package)" "$(jq -r .counters.package_cpus "$T/pkg4-def/info.json")" "0,2"
eq "pkg4 default: read on CPU 2" "$(cell "$T/pkg4-def/counters.csv" UNC_RD 2 0)" "[20]"
pin_time "$T/pkg4-def/counters.csv"
near "pkg4 default: summary = CPU 0's + CPU 2's" \
	"$("$ANALYZE" counters "$T/pkg4-def" --format json 2>/dev/null | jq '.intervals[0].summary.UNC_RD')" 101
set +e
"$COLLECT" --counters -q --sysroot "$R" --system-cpu 0,1 -o "$T/pkg4-bad" -- true 2> "$T/pkg4.err"
rc=$?
set -e
eq "pkg4 --system-cpu 0,1: usage error" "$rc" 2
eq "pkg4 --system-cpu 0,1: message" "$(cat "$T/pkg4.err")" "collect: --system-cpu: CPUs 0 and 1 are in the same package"

# ---------------------------------------------------------------------------------------
# Counters that some CPUs cannot read: three cores of one package; CPU 1 has no msr file,
# CPU 2's ends before MSR 0x3FE (CORE_C7_RES). CPU 0: Busy 20%, c3 10%, c6 30%, c7 10%.
R=$T/part
cpuinfo "$R" GenuineIntel 6 85
procfs "$R" 0-2 0
for c in 0 1 2; do cpu "$R" $c $c 0; done
$MSR "$R/dev/cpu/0/msr" 0x10=1000000000 0xE7=0 0x3FC=0 0x3FD=0 0x3FE=0
$MSR "$R/dev/cpu/2/msr" 0x10=1000000000 0xE7=0 0x3FC=0 0x3FD=0
cat > "$T/part-step.sh" <<EOF
$MSR "$R/dev/cpu/0/msr" 0x10=2000000000 0xE7=200000000 0x3FC=100000000 0x3FD=300000000 0x3FE=100000000
$MSR "$R/dev/cpu/2/msr" 0x10=2000000000 0xE7=500000000 0x3FD=200000000
EOF
"$COLLECT" --counters --sysroot "$R" -o "$T/part-run" -- sh "$T/part-step.sh" 2> "$T/part.err" ||
	fail "part collect: $(cat "$T/part.err")"
ERR=$(cat "$T/part.err")
eq "part: warning for a counter CPU 1 cannot read" \
	"$(grep 'CORE_C6_RES unreadable' "$T/part.err")" \
	"collect: warning: CORE_C6_RES unreadable on CPU 1: no /dev/cpu/1/msr (No such file or directory)"
eq "part: warning for a counter CPUs 1 and 2 cannot read" \
	"$(grep 'CORE_C7_RES unreadable' "$T/part.err")" \
	"collect: warning: CORE_C7_RES unreadable on CPUs 1,2: no /dev/cpu/1/msr (No such file or directory); MSR 0x3FE not readable on CPU 2 (Input/output error)"
eq "part: thread counter on CPU 1" "$(grep 'TSC unreadable' "$T/part.err")" \
	"collect: warning: TSC unreadable on CPU 1: no /dev/cpu/1/msr (No such file or directory)"
NPART=$(jq '.counters.partial | length' "$T/part-run/info.json")
eq "part: one warning per partial counter" "$(printf '%s\n' "$ERR" | grep -c ' unreadable on CPU')" "$NPART"
eq "part: info.json partial record" \
	"$(jq -c '.counters.partial[] | select(.counters == "CORE_C7_RES")' "$T/part-run/info.json")" \
	'{"counters":"CORE_C7_RES","cpus":"1,2","reason":"no /dev/cpu/1/msr (No such file or directory); MSR 0x3FE not readable on CPU 2 (Input/output error)"}'
eq "part: a partial counter is still a column, not a missing one" \
	"$(jq -r '[.counters.missing[].counters] | map(select(test("CORE_C6_RES"))) | length' "$T/part-run/info.json")" 0
eq "part: CPU 2 still reads CORE_C6_RES" "$(cell "$T/part-run/counters.csv" CORE_C6_RES 2 0)" "[0]"
eq "part: empty cell where it failed" "$(cell "$T/part-run/counters.csv" CORE_C7_RES 2 0)" "[]"
pin_time "$T/part-run/counters.csv"
J=$("$ANALYZE" counters "$T/part-run" --format json 2> "$T/part-an.err")
eq "part: analyze note" "$(grep 'CORE_C7_RES' "$T/part-an.err")" \
	"analyze: note: not collected on CPUs 1,2: CORE_C7_RES: no /dev/cpu/1/msr (No such file or directory); MSR 0x3FE not readable on CPU 2 (Input/output error)"
eq "part: analyze note, one CPU" "$(grep 'CORE_C6_RES' "$T/part-an.err")" \
	"analyze: note: not collected on CPU 1: CORE_C6_RES: no /dev/cpu/1/msr (No such file or directory)"
eq "part: analyze JSON .partial" "$(q '.partial | length')" "$NPART"
near "part cpu0 CPU%c1 remainder" "$(q '.intervals[0].cpus[0]["CPU%c1"]')" 30
near "part cpu2 CPU%c6" "$(q '.intervals[0].cpus[2]["CPU%c6"]')" 20
eq "part cpu2 CPU%c7 unknown" "$(q '.intervals[0].cpus[2]["CPU%c7"]')" null
eq "part cpu2 CPU%c1: no remainder without its core's C7" "$(q '.intervals[0].cpus[2]["CPU%c1"]')" null
eq "part cpu1 Busy% unknown" "$(q '.intervals[0].cpus[1]["Busy%"]')" null
# a CPU that stops reading a counter during the run: reported when it happens, and in info.json
$MSR "$R/dev/cpu/0/msr" 0x10=1000000000 0xE7=0 0x3FC=0 0x3FD=0 0x3FE=0
$MSR "$R/dev/cpu/2/msr" 0x10=1000000000 0xE7=0 0x3FC=0 0x3FD=0
echo "truncate -s $((0x3FD * 8)) '$R/dev/cpu/2/msr'" >> "$T/part-step.sh"
"$COLLECT" --counters -q --sysroot "$R" -o "$T/part-late" -- sh "$T/part-step.sh" 2> "$T/late.err" ||
	fail "part-late collect: $(cat "$T/late.err")"
eq "part-late: -q keeps the snapshot-time warning quiet" "$(cat "$T/late.err")" ""
eq "part-late: info.json partial after the run" \
	"$(jq -c '.counters.partial[] | select(.counters == "CORE_C6_RES")' "$T/part-late/info.json")" \
	'{"counters":"CORE_C6_RES","cpus":"1,2","reason":"no /dev/cpu/1/msr (No such file or directory); MSR 0x3FD not readable on CPU 2 (Input/output error)"}'
$MSR "$R/dev/cpu/2/msr" 0x10=1000000000 0xE7=0 0x3FC=0 0x3FD=0
"$COLLECT" --counters --sysroot "$R" -o "$T/part-late2" -- sh "$T/part-step.sh" 2> "$T/late.err" ||
	fail "part-late2 collect: $(cat "$T/late.err")"
eq "part-late: warning at the snapshot where it failed" "$(grep 'CORE_C6_RES unreadable on CPU 2' "$T/late.err")" \
	"collect: warning: CORE_C6_RES unreadable on CPU 2: MSR 0x3FD not readable on CPU 2 (Input/output error)"
echo "all scope tests passed"
