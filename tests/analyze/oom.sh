#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Out of memory: analyze stats, analyze diff, analyze counters and report end with exit status 1
# and one line naming what was being loaded, never abort(); report leaves no temporary
# directory. Allocations above 8 MiB fail: through an LD_PRELOAD shim (oom_shim.c), or, in a
# sanitizer build, through the sanitizer's own max_allocation_size_mb (its runtime serves
# malloc, so a shim would not be called).
# usage: oom.sh ANALYZE REPORT SHIM SANITIZER(none|asan|tsan)
set -u
. "$(dirname "$0")/../common/test-lib.sh"
analyze=$1 report=$2 shim=$3 sanitize=$4
tmp=$(mktemp -d)
test_when_finished 'rm -rf "$tmp"'
fails=0
limit_mb=8

# run_limited OUT ERR CMD...: CMD with every allocation above limit_mb failing
run_limited() {
	local out=$1 err=$2
	shift 2
	local limits="allocator_may_return_null=1:max_allocation_size_mb=$limit_mb" rc
	case $sanitize in
	asan|tsan)
		# the sanitizer says so itself first ("==PID==WARNING: AddressSanitizer failed to
		# allocate 0x... bytes"): that line is not the program's; and the exit on running
		# out of memory is immediate, other threads not joined: no leak to report
		ASAN_OPTIONS="${ASAN_OPTIONS:-}:$limits" \
		TSAN_OPTIONS="${TSAN_OPTIONS:-}:$limits:report_thread_leaks=0" \
			"$@" > "$out" 2> "$err.san"
		rc=$?
		grep -Ev '^==[0-9]*==WARNING: (Address|Thread)Sanitizer failed to allocate 0x[0-9a-f]* bytes$' \
			"$err.san" > "$err"
		return $rc ;;
	*)
		LD_PRELOAD=$shim OOM_SHIM_OVER=$((limit_mb << 20)) "$@" > "$out" 2> "$err" ;;
	esac
}

# expect_oom PROG WHAT CMD...: exit 1 and exactly one line "PROG: out of memory STEP (a block of
# N bytes)", STEP "loading WHAT", "computing the statistics of WHAT" or "comparing N runs":
# which step runs out first depends on the run cache and on packed columns (docs/performance.md),
# and the test runs with the cache on and off.
expect_oom() {
	local prog=$1 what=$2
	shift 2
	run_limited "$tmp/out" "$tmp/err" "$@"
	local rc=$? want="^$prog: out of memory (loading $what|computing the statistics of $what|comparing [0-9]+ runs) \(a block of [0-9]+ bytes\)\$"
	if [ $rc != 1 ] || [ "$(wc -l < "$tmp/err")" != 1 ] || ! grep -Eq "$want" "$tmp/err"; then
		echo "FAIL: $*"
		echo "  exit $rc (want 1), stderr: $(head -c 2000 "$tmp/err")"
		echo "  want: $want"
		fails=$((fails + 1))
	fi
}

# 1.5 M datapoints: a column of 12 MB, more than the limit (ten decimals: no packing; packed
# into a byte a row, its statistics from counts of the codes need no big block); a small run;
# a run whose datapoints are small and whose counters.csv is large.
mkdir -p "$tmp/big" "$tmp/small" "$tmp/ctr"
awk 'BEGIN { print "WakeLatency,IntrLatency"; for (i = 0; i < 1500000; i++) print i % 97 ".0123456789,5" }' > "$tmp/big/datapoints.csv"
printf 'WakeLatency,IntrLatency\n1.5,100\n2.5,200\n3.5,300\n' > "$tmp/small/datapoints.csv"
cp "$tmp/small/datapoints.csv" "$tmp/ctr/"
awk 'BEGIN { print "Snapshot,Time,CPU,Core,Package,TSC"; for (i = 0; i < 1500000; i++) print i ",1,0,0,0," i }' > "$tmp/ctr/counters.csv"

# The limit leaves the small inputs alone.
run_limited "$tmp/out" "$tmp/err" "$analyze" stats "$tmp/small"
if [ $? != 0 ] || ! grep -q "^WakeLatency" "$tmp/out"; then
	echo "FAIL: analyze stats of a small run under the limit: $(cat "$tmp/err")"; fails=$((fails + 1))
fi

# The same rows packed into a byte a value: their quantiles come from counts of the codes,
# with no block of all the values (the selection's copy was 12 MB).
mkdir -p "$tmp/packed"
awk 'BEGIN { print "WakeLatency,IntrLatency"; for (i = 0; i < 1500000; i++) print i % 97 ",5" }' > "$tmp/packed/datapoints.csv"
IDLESCOPE_NO_CACHE=1 run_limited "$tmp/out" "$tmp/err" "$analyze" stats -G -F csv -f count,med,99% "$tmp/packed"
if [ $? != 0 ] || ! grep -q ",WakeLatency,1500000,48,96$" "$tmp/out"; then
	echo "FAIL: analyze stats of 1.5 M packed values under the limit: $(cat "$tmp/out" "$tmp/err")"; fails=$((fails + 1))
fi

for nocache in 1 ""; do
	export IDLESCOPE_NO_CACHE=$nocache
	expect_oom analyze "$tmp/big/datapoints.csv" "$analyze" stats "$tmp/big"
	expect_oom analyze "$tmp/big/datapoints.csv" "$analyze" stats -F json "$tmp/small" "$tmp/big"
	expect_oom analyze "$tmp/big/datapoints.csv" "$analyze" diff "$tmp/small" "$tmp/big"
	expect_oom analyze "$tmp/big/datapoints.csv" "$analyze" diff "$tmp/big" "$tmp/small"
	expect_oom analyze "$tmp/ctr/counters.csv" "$analyze" counters "$tmp/ctr"
	expect_oom analyze "$tmp/ctr/counters.csv" "$analyze" diff "$tmp/small" "$tmp/ctr"
done
unset IDLESCOPE_NO_CACHE

if command -v gnuplot > /dev/null; then
	expect_oom report "$tmp/big/datapoints.csv" "$report" "$tmp/small" "$tmp/big" -o "$tmp/rep"
	# counters.csv is read while the report is being written: its temporary directory and
	# the gnuplot processes must go too.
	expect_oom report "$tmp/ctr/counters.csv" "$report" "$tmp/ctr" -o "$tmp/rep"
	left=$(ls -A "$tmp" | grep -c '^\.rep\|^rep$')
	if [ "$left" != 0 ]; then
		echo "FAIL: report left $(ls -A "$tmp" | grep '^\.rep\|^rep$' | tr '\n' ' ')"; fails=$((fails + 1))
	fi
fi

if [ $fails != 0 ]; then
	echo "$fails failure(s)"
	exit 1
fi
echo "oom: all passed"
