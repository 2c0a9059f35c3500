#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# analyze stats reads number columns packed (lib/table/colpack.h) when its job allows: every
# output must be the same, byte for byte, as read into doubles (IDLESCOPE_NO_PACK=1), on a
# wult-style file big enough for two threads and on one with cells packing cannot hold
# (-0.00, more decimals than the sample had, exponents, large values, empty cells, quotes),
# and a bad value in the second half must name its line. The same for analyze diff. (The
# packed columns' quantiles and sorted samples come from counts of their codes; --by reads
# its column packed too; so do filters.)
# usage: pack_same.sh ANALYZE GEN_DATAPOINTS SHARED_DATA
set -u
TEST_KEEP_GOING=1
. "$(dirname "$0")/../common/test-lib.sh"
analyze=$1
gen=$2
shared=$3
export IDLESCOPE_NO_CACHE=1
tmp=$(mktemp -d)
test_when_finished 'rm -rf "$tmp"'

mkdir "$tmp/gen" "$tmp/odd" "$tmp/bad"
"$gen" 300000 7 > "$tmp/gen/datapoints.csv" || fail "gen_datapoints"
{
	head -n 200001 "$tmp/gen/datapoints.csv"
	echo '1.5,2000.25,3.5,1,2000.000,C6,-0.00,0.001,1e1,100000.00,,"5.25",0,0'
	echo '2.5,2000.25,3.5,0,-0.000,C1E,1.00,-5.5,0.00,,7E-2,0.000000001,3,-0'
	tail -n +200002 "$tmp/gen/datapoints.csv"
} > "$tmp/odd/datapoints.csv"
awk -F, 'NR == 250002 { $7 = "1.2.3" } { print }' OFS=, "$tmp/gen/datapoints.csv" > "$tmp/bad/datapoints.csv"

# same ARGS...: stdout and stderr of analyze ARGS, packed and not, are the same
same() {
	local rc1 rc2
	"$analyze" "$@" > "$tmp/p.out" 2> "$tmp/p.err"
	rc1=$?
	IDLESCOPE_NO_PACK=1 "$analyze" "$@" > "$tmp/d.out" 2> "$tmp/d.err"
	rc2=$?
	[ "$rc1" = "$rc2" ] || fail "exit $rc1 packed, $rc2 not: $*"
	cmp -s "$tmp/p.out" "$tmp/d.out" || fail "stdout differs: $*: $(diff "$tmp/p.out" "$tmp/d.out" | head -5)"
	cmp -s "$tmp/p.err" "$tmp/d.err" || fail "stderr differs: $*: $(diff "$tmp/p.err" "$tmp/d.err" | head -5)"
	[ -s "$tmp/p.out" ] || [ "$rc1" != 0 ] || fail "no output: $*"
}
for run in "$tmp/gen" "$tmp/odd" "$shared/wult-good"; do
	same stats "$run"
	same stats -G "$run"
	same stats -F json "$run"
	same stats -F csv -f count,min,max,avg,std,med,1%,25%,99.999% "$run"
	same stats --by CC6%:5 -F json "$run"
	same stats --by IntrOff -F json "$run"
	same stats --by LDist -F csv "$run"       # more than 100 values: 10 bins, with a note
	same stats --by CC0%:3 -G "$run"
	same stats -m 'Latency|%' "$run"
	# filters keep packed columns packed: rows with exceptions and empty cells kept and dropped
	same stats -i "CC6% > 50 or LDist < 1000" -F json "$run"
	same stats -x "CC0% == 0 or ReqCState == 'C1E'" --by CC1%:4 -F csv "$run"
	same stats -G -i "index >= 200000 and not (CC1Derived% > 1)" "$run"
done
same stats "$tmp/gen" "$tmp/odd"
# a group of every row (IntrOff is 1 in every row of the generated file) is read as all rows:
# its statistics are the overall ones, to the bit
"$analyze" stats --by IntrOff -F json "$tmp/gen" > "$tmp/j1" 2>/dev/null
[ "$(jq -c '.runs[0] | [(.groups | keys), .metrics == .groups["1"].metrics]' "$tmp/j1")" = '[["1"],true]' ] ||
	fail "one group of every row: $(jq -c '.runs[0].groups | keys' "$tmp/j1")"
# above the bound for copies (2^20 rows; IDLESCOPE_COPY_MAX lowers it): values read in pieces,
# a group of 1- or 2-byte codes through a copy of its codes (analyze/stats_compute.c)
for run in "$tmp/gen" "$tmp/odd"; do
	IDLESCOPE_COPY_MAX=1000 same stats "$run"
	IDLESCOPE_COPY_MAX=1000 same stats -F json --by CC6%:5 "$run"
	IDLESCOPE_COPY_MAX=1000 same stats -F csv -f count,min,max,avg,std,med,1%,25%,99.999% "$run"
done
# analyze diff reads its metrics packed too (lib/diff/diff_work.c), flags, inputs and the
# grouping column as doubles: one run each, pooled runs, bins, a numeric group, JSON
same diff "$tmp/gen" "$tmp/odd"
same diff -F json "$tmp/odd" "$tmp/gen"
same diff --by CC6%:5 "$tmp/gen" "$tmp/odd"
same diff --by IntrOff -F json "$tmp/gen" "$tmp/odd"
same diff -G "$tmp/gen,$tmp/odd" "$shared/wult-good,$tmp/gen"
# sorted samples from counts of the codes (lib/diff/diff_count.c): without groups, and where
# a zero exception (-0.00) makes a column, or a group, sort as before
same diff -G "$tmp/gen" "$tmp/odd"
same diff -G -F json "$tmp/odd" "$tmp/gen"
same diff "$tmp/gen" "$tmp/bad"
same diff -x "CC6% > 90" -F json "$tmp/gen" "$tmp/odd"
same diff -G -i "LDist < 2500 or CC0% < 0" "$tmp/odd" "$tmp/gen"
# the odd rows are in the statistics: -0.00 is CC0%'s minimum, 100000.00 CC6%'s maximum
"$analyze" stats -G -F json -f min,max "$tmp/odd" > "$tmp/j" 2>/dev/null
[ "$(jq -c '.runs[0].metrics | [.["CC0%"].min, .["CC6%"].max, .LDist.min]' "$tmp/j")" = '[-0,100000,-0]' ] ||
	fail "odd values: $(jq -c '.runs[0].metrics | [.["CC0%"], .["CC6%"].max, .LDist.min]' "$tmp/j")"
# a bad value in the second thread's half: its line, packed or not
same stats "$tmp/bad"
grep -q "datapoints.csv:250002: field 'CC0%': expected a number, got '1.2.3'" "$tmp/p.err" ||
	fail "bad value: $(cat "$tmp/p.err")"
# packed fields converted in AVX-512 lanes where the CPU has VBMI2 (lib/table/csv_lanes.c)
# against the byte-wise parser alone: the same outputs, the same error
if grep -qw avx512_vbmi2 /proc/cpuinfo; then
	echo "pack_same: this CPU has AVX-512 VBMI2: lanes compared with the byte-wise parser"
else
	echo "pack_same: no AVX-512 VBMI2 here: both sides below read byte by byte"
fi
same_lanes() {
	"$analyze" "$@" > "$tmp/l.out" 2> "$tmp/l.err"
	local rc1=$?
	IDLESCOPE_NO_AVX512=1 "$analyze" "$@" > "$tmp/b.out" 2> "$tmp/b.err"
	local rc2=$?
	[ "$rc1" = "$rc2" ] || fail "exit $rc1 with lanes, $rc2 without: $*"
	cmp -s "$tmp/l.out" "$tmp/b.out" || fail "stdout differs with lanes: $*: $(diff "$tmp/l.out" "$tmp/b.out" | head -5)"
	cmp -s "$tmp/l.err" "$tmp/b.err" || fail "stderr differs with lanes: $*: $(diff "$tmp/l.err" "$tmp/b.err" | head -5)"
}
for run in "$tmp/gen" "$tmp/odd" "$tmp/bad" "$shared/wult-good"; do
	same_lanes stats -F json "$run"
	same_lanes stats -G -F csv -f count,min,max,avg,std,med,1%,99.999% "$run"
	same_lanes stats --by CC6%:5 -F json "$run"
done
same_lanes diff -F json "$tmp/gen" "$tmp/odd"
[ "$fails" = 0 ] && echo "pack_same: all checks passed"
exit $((fails > 0))
