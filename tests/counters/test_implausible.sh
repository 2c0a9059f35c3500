#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Impossible counter readings are flagged (issue 24): a --sysroot fixture whose APERF/MPERF
# stand still on CPU 0 while its /proc/stat says busy 54.9%, and whose CPU 1 has C0 + C6
# summing past 100% at an APERF/MPERF ratio that would mean 12.6 GHz; then the same with
# counters that move as they should, which must not be flagged.
# usage: test_implausible.sh COLLECT ANALYZE MSRFILE SAMPLE_RUN
set -eu
COLLECT=$1 ANALYZE=$2 MSR=$3 SAMPLE=$4
. "$(dirname "$0")/lib.sh"
test_tmpdir T

# fixture ROOT STILL: two CPUs of one core each (model 85, base ratio 21: 2100 MHz); with
# STILL=1, CPU 0's APERF and MPERF do not move and CPU 1's counters are impossible.
fixture() {
	R=$1
	cpuinfo "$R" GenuineIntel 6 85
	mkdir -p "$R/proc" "$R/sys/devices/system/cpu"
	echo 0-1 > "$R/sys/devices/system/cpu/online"
	cpu "$R" 0 0 0
	cpu "$R" 1 1 0
	printf 'cpu  200 0 100 1600 100 0 0 0 0 0\ncpu0 100 0 50 800 50 0 0 0 0 0\ncpu1 100 0 50 800 50 0 0 0 0 0\nctxt 5000\n' > "$R/proc/stat"
	for c in 0 1; do
		$MSR "$R/dev/cpu/$c/msr" 0x10=1000000000 0xE7=500000000 0xE8=700000000 0xCE=0x1500 0x3FD=0
	done
	if [ "$2" = 1 ]; then
		m0=500000000 a0=700000000 m1=$((500000000 + 1100000000)) a1=$((700000000 + 6600000000))
		c6=$((1540000000))
	else
		m0=$((500000000 + 1207800000)) a0=$((700000000 + 1207800000)) m1=$((500000000 + 1100000000))
		a1=$((700000000 + 1100000000)) c6=880000000
	fi
	cat > "$R.step" <<STEP
$MSR "$R/dev/cpu/0/msr" 0x10=3200000000 0xE7=$m0 0xE8=$a0
$MSR "$R/dev/cpu/1/msr" 0x10=3200000000 0xE7=$m1 0xE8=$a1 0x3FD=$c6
printf 'cpu  889 0 100 2411 100 0 0 0 0 0\ncpu0 649 0 50 1251 50 0 0 0 0 0\ncpu1 140 0 50 860 50 0 0 0 0 0\nctxt 5600\n' > "$R/proc/stat"
STEP
}

fixture "$T/bad" 1
"$COLLECT" --counters -q --sysroot "$T/bad" -o "$T/bad-run" -- sh "$T/bad.step" || fail "collect (impossible)"
pin_time "$T/bad-run/counters.csv"
"$ANALYZE" counters "$T/bad-run" > "$T/out" 2> "$T/err" || fail "analyze counters: $(cat "$T/err")"
# CPU 0: Busy% 0 (MPERF still) against 54.9% busy; CPU 1: 50% C0 + 70% C6; 2100 x 6 MHz
has "C0 below the OS's busy time, with the numbers" "$(cat "$T/err")" \
	"analyze: warning: $T/bad-run/counters.csv: implausible counters: Busy% 0.00 (C0 from MPERF/TSC) on CPU 0 in interval 1 while /proc/stat saw it run code 54.90% of the time (steal left out): a CPU runs code only in C0 (1 of 2 CPU intervals)"
has "MPERF standing still on a busy CPU" "$(cat "$T/err")" \
	"implausible counters: APERF and MPERF did not move on CPU 0 in interval 1 (1 s) while /proc/stat saw it run code 54.90% of the time: they count whenever the CPU is in C0 (1 of 2 CPU intervals)"
has "residencies past 100%" "$(cat "$T/err")" \
	"implausible counters: C-state residencies sum to 120.00% on CPU 1 in interval 1 (Busy% 50.00, deeper states 70.00): a CPU is in one state at a time (1 of 2 CPU intervals)"
has "a frequency no CPU reaches" "$(cat "$T/err")" \
	"implausible counters: Bzy_MHz 12600 on CPU 1 in interval 1: no CPU runs at 10000 MHz (the record, under liquid helium, is about 9100) (1 of 2 CPU intervals)"
eq "one warning per kind" "$(grep -c 'implausible counters' "$T/err")" 4
"$ANALYZE" counters "$T/bad-run" --format json > /dev/null 2> "$T/err2"
eq "json: the same warnings" "$(grep -c 'implausible counters' "$T/err2")" 4

# The live view says it as it prints the rows (stderr, each kind once).
fixture "$T/live" 1
"$COLLECT" --counters --live -q --sysroot "$T/live" -o "$T/live-run" -- sh "$T/live.step" > "$T/out" 2> "$T/err" ||
	fail "collect --live: $(cat "$T/err")"
eq "live: one warning per kind" "$(grep -c '^collect: warning: implausible counters: .* (so far; analyze counters has them all)$' "$T/err")" 4
has "live: the rows are there" "$(cat "$T/out")" "Busy%"

fixture "$T/good" 0
"$COLLECT" --counters -q --sysroot "$T/good" -o "$T/good-run" -- sh "$T/good.step" || fail "collect (plausible)"
pin_time "$T/good-run/counters.csv"
J=$("$ANALYZE" counters "$T/good-run" --format json 2> "$T/err")
eq "plausible: no warning" "$(grep -c 'implausible' "$T/err")" 0
near "plausible: CPU 0 Busy% (54.9)" "$(printf '%s' "$J" | jq '.intervals[0].cpus[0]["Busy%"]')" 54.9
# analyze diff of the counter-only runs: the same lines, in its warnings.
"$ANALYZE" diff "$T/good-run" "$T/bad-run" > "$T/out" 2> "$T/err" || fail "diff of counter runs: $(cat "$T/err")"
eq "counter-only diff: one line per kind" "$(grep -c '^  ! implausible counters in bad-run: ' "$T/out")" 4
eq "counter-only diff json" "$("$ANALYZE" diff -F json "$T/good-run" "$T/bad-run" 2>/dev/null | jq '.warnings | length')" 4

# analyze diff and report: latency runs carrying these counters (the runs' own info.json:
# the counters' metadata merged in); one line per kind, naming the run.
for x in good bad; do
	mkdir "$T/lat-$x"
	cp "$SAMPLE/datapoints.csv" "$T/$x-run/counters.csv" "$T/lat-$x/"
	jq --slurpfile c "$T/$x-run/info.json" '.reportid = "lat-'$x'" | .counters = $c[0].counters' \
		"$SAMPLE/info.json" > "$T/lat-$x/info.json"
done
"$ANALYZE" diff "$T/lat-good" "$T/lat-bad" > "$T/out" 2> "$T/err" || fail "diff: $(cat "$T/err")"
has "diff: the C0 line in the warnings" "$(cat "$T/out")" \
	"  ! implausible counters in lat-bad: Busy% 0.00 (C0 from MPERF/TSC) on CPU 0 in interval 1 while /proc/stat saw it run code 54.90% of the time (steal left out): a CPU runs code only in C0 (1 of 2 CPU intervals)"
eq "diff: one line per kind" "$(grep -c '^  ! implausible counters' "$T/out")" 4
"$ANALYZE" diff "$T/lat-good" "$T/lat-bad,$T/lat-bad-2" > /dev/null 2>&1 && fail "diff accepted a missing run"
cp -r "$T/lat-bad" "$T/lat-bad2"
"$ANALYZE" diff --allow-same -F json "$T/lat-good" "$T/lat-bad,$T/lat-bad2" > "$T/j" 2> "$T/err" || fail "diff json: $(cat "$T/err")"
eq "diff json: one line per kind over two runs" "$(jq '[.warnings[] | select(startswith("implausible counters in 2 of 3 runs with counters (lat-bad, lat-bad-2); the worst, in lat-bad:"))] | length' "$T/j")" 4
if command -v gnuplot > /dev/null; then
	"$(dirname "$ANALYZE")/../report/report" "$T/lat-bad" -o "$T/rep" > /dev/null 2>&1 || fail "report"
	has "report: the counters section says so" "$(cat "$T/rep/index.html")" "implausible counters in lat-bad: APERF and MPERF did not move on CPU 0"
fi
echo "all implausible-counter tests passed"
