#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Usage errors and bad counters.csv: one clear line and the documented exit status.
set -eu
COLLECT=$1 ANALYZE=$2
. "$(dirname "$0")/lib.sh"
T=$(mktemp -d)
test_when_finished 'rm -rf "$T"'
# expect STATUS PATTERN CMD...: exit status and the message
expect() {
	st=$1 pat=$2
	shift 2
	set +e
	"$@" > "$T/out" 2> "$T/err"
	rc=$?
	set -e
	[ "$rc" = "$st" ] || fail "$*: exit $rc, expected $st ($(cat "$T/err"))"
	grep -q -- "$pat" "$T/err" || fail "$*: message '$(cat "$T/err")' lacks '$pat'"
	echo "ok: $* -> $st"
}
expect 2 "needs -o DIR" "$COLLECT" --counters -i 1
expect 2 "expected seconds" "$COLLECT" --counters -i 0 -o "$T/x"
expect 2 "bad CPU list" "$COLLECT" --counters --cpu 1-0 -o "$T/x" -n 1
expect 2 "is not online" "$COLLECT" --counters --cpu 4000 -o "$T/x" -n 1
expect 2 "unknown field" "$COLLECT" --counters --add msr0x10,u33 -o "$T/x" -n 1
expect 2 "built-in counter" "$COLLECT" --counters --add msr0x10,TSC -o "$T/x" -n 1
mkdir -p "$T/full" && touch "$T/full/keep"
expect 2 "not empty" "$COLLECT" --counters -q -n 1 -i 0.01 -o "$T/full"
expect 127 "cannot run" "$COLLECT" --counters -q -o "$T/nocmd" -- /nonexistent/cmd
mkdir -p "$T/empty"
expect 1 "no counters.csv" "$ANALYZE" counters "$T/empty"
mkdir -p "$T/bad"
printf 'Snapshot,Time,CPU,Core,Package,TSC\n0,1.0,0,0,0,100\n1,2.0,0,0,0,-5\n' > "$T/bad/counters.csv"
expect 1 "counters.csv:3: field 'TSC'" "$ANALYZE" counters "$T/bad"
printf 'Snapshot,Time,CPU,Core,Package,TSC\n0,1.0,0,0,0,abc\n1,2.0,0,0,0,5\n' > "$T/bad/counters.csv"
expect 1 "counters.csv:2: field 'TSC': expected a raw counter value (an unsigned integer), got 'abc'" \
	"$ANALYZE" counters "$T/bad"
printf 'Snapshot,Time,CPU,Core,Package,TSC\n0,1.0,0,0,0,100\n1,2.0,0,0,0,2.5\n' > "$T/bad/counters.csv"
expect 1 "counters.csv:3: field 'TSC'" "$ANALYZE" counters "$T/bad"
printf 'Snapshot,Time,CPU,Core,Package,TSC\n0,1.0,0,0,0,100\n' > "$T/bad/counters.csv"
expect 1 "at least two are needed" "$ANALYZE" counters "$T/bad"
printf 'Snapshot,Time,CPU,TSC\n0,1.0,0,100\n' > "$T/bad/counters.csv"
expect 1 "no column 'Core'" "$ANALYZE" counters "$T/bad"
printf 'Snapshot,Time,CPU,Core,Package,TSC\n1,1.0,0,0,0,100\n0,2.0,0,0,0,200\n' > "$T/bad/counters.csv"
expect 1 "rows must be in snapshot order" "$ANALYZE" counters "$T/bad"
printf 'Snapshot,Time,CPU,Core,Package,TSC\n0,1.0,0,0,0,100\n1,2.0,0,0,0,300\n' > "$T/bad/counters.csv"
expect 2 "unknown counter 'NOPE'" "$ANALYZE" counters "$T/bad" --metric 'X=NOPE/TSC'
expect 2 "expected" "$ANALYZE" counters "$T/bad" --metric 'X=(TSC'
expect 2 "unknown column 'Foo'" "$ANALYZE" counters "$T/bad" --show Foo
# the unknown-column error lists every column of the run, on one line
printf 'Snapshot,Time,CPU,Core,Package,TSC,APERF,MPERF\n0,1.0,0,0,0,100,10,20\n1,2.0,0,0,0,300,30,60\n' > "$T/bad/counters.csv"
expect 2 "unknown column 'Nope'" "$ANALYZE" counters "$T/bad" --show Busy%,Nope
eq "--show: every column in the error" "$(cat "$T/err")" \
	"analyze: --show: unknown column 'Nope' (columns of this run: Avg_MHz, Busy%, Bzy_MHz, TSC_MHz, CPU%c1, Halted%)"
expect 2 "unknown column 'Nope'" "$ANALYZE" counters "$T/bad" --hide Nope
eq "--hide: every column in the error" "$(cat "$T/err")" \
	"analyze: --hide: unknown column 'Nope' (columns of this run: Avg_MHz, Busy%, Bzy_MHz, TSC_MHz, CPU%c1, Halted%)"
printf 'Snapshot,Time,CPU,Core,Package,TSC\n0,1.0,0,0,0,100\n1,2.0,0,0,0,300\n' > "$T/bad/counters.csv"
expect 2 "expected text, csv or json" "$ANALYZE" counters "$T/bad" --format xml
# a good minimal file: TSC_MHz = 200 counts / 1 s
V=$("$ANALYZE" counters "$T/bad" --format json 2>/dev/null | jq '.intervals[0].cpus[0].TSC_MHz')
near "minimal TSC_MHz" "$V" 0.0002

# A counter going backwards is a wrap only at its own width and at a rate the hardware can
# count; otherwise (a reset) the step is left out for that CPU, with a warning. So is a step
# where Time does not advance.
mkdir -p "$T/reset"
printf 'Snapshot,Time,CPU,Core,Package,TSC,APERF,MPERF\n0,1.0,0,0,0,1000000000000,10,20\n1,2.0,0,0,0,5,30,60\n2,3.0,0,0,0,2000000005,1000000030,1000000060\n' > "$T/reset/counters.csv"
expect 0 "counters.csv:3: CPU 0: TSC went from" "$ANALYZE" counters "$T/reset" --format json
eq "reset: the warning" "$(grep warning "$T/err")" \
	"analyze: warning: $T/reset/counters.csv:3: CPU 0: TSC went from 1000000000000 to 5 in 1 s, which no 64-bit wrap at a possible rate explains (a reset?): snapshots 0 to 1 left out for this CPU"
eq "reset: interval 1 left out" "$(jq -c '.intervals[0].cpus[0] | [.TSC_MHz, .Avg_MHz, ."Busy%"]' "$T/out")" "[null,null,null]"
eq "reset: interval 2 measured" "$(jq -c '.intervals[1].cpus[0] | [.TSC_MHz, .Avg_MHz, ."Busy%"]' "$T/out")" "[2000,1000,50]"
eq "reset: summary of interval 1" "$(jq -c '.intervals[0].summary.TSC_MHz' "$T/out")" "null"
# the same step at a declared width of 48 bits: 2^48 - 1e12 + 5 counts in 1 s is still too fast
printf '{"counters": {"columns": {"TSC": {"width": 48}}}}\n' > "$T/reset/info.json"
expect 0 "which no 48-bit wrap at a possible rate explains" "$ANALYZE" counters "$T/reset"
# a real 48-bit wrap: 2^48 - 1000 to 500 is 1500 counts
printf 'Snapshot,Time,CPU,Core,Package,TSC\n0,1.0,0,0,0,281474976709656\n1,2.0,0,0,0,500\n' > "$T/reset/counters.csv"
"$ANALYZE" counters "$T/reset" --format json > "$T/out" 2> "$T/err"
eq "48-bit wrap: no warning" "$(grep -c warning "$T/err")" 0
eq "48-bit wrap: TSC_MHz" "$(jq '.intervals[0].cpus[0].TSC_MHz' "$T/out")" "0.0015"
rm "$T/reset/info.json"
# a 64-bit wrap near the top: 2^64 - 2^30 to 2^30 is 2^31 counts in a second
printf 'Snapshot,Time,CPU,Core,Package,TSC\n0,1.0,0,0,0,18446744072635809792\n1,2.0,0,0,0,1073741824\n' > "$T/reset/counters.csv"
"$ANALYZE" counters "$T/reset" --format json > "$T/out" 2> "$T/err"
eq "64-bit wrap: no warning" "$(grep -c warning "$T/err")" 0
eq "64-bit wrap: TSC_MHz" "$(jq ".intervals[0].cpus[0].TSC_MHz" "$T/out")" "2147.483648"
# time backwards, and time standing still
printf 'Snapshot,Time,CPU,Core,Package,TSC\n0,2.0,0,0,0,100\n1,1.0,0,0,0,300\n2,3.0,0,0,0,500\n' > "$T/reset/counters.csv"
expect 0 "Time went from 2 to 1 s (backwards)" "$ANALYZE" counters "$T/reset" --format json
eq "time backwards: the warning" "$(grep warning "$T/err")" \
	"analyze: warning: $T/reset/counters.csv:3: CPU 0: Time went from 2 to 1 s (backwards): snapshots 0 to 1 left out for this CPU"
eq "time backwards: interval left out" "$(jq -c '[.intervals[].cpus[0].TSC_MHz]' "$T/out")" "[null,0.0001]"
printf 'Snapshot,Time,CPU,Core,Package,TSC\n0,2.0,0,0,0,100\n1,2.0,0,0,0,300\n' > "$T/reset/counters.csv"
expect 0 "Time went from 2 to 2 s (no time passed)" "$ANALYZE" counters "$T/reset"
# an absurd Time: the interval header in %g beyond 1e15 (it printed 300 digits)
printf 'Snapshot,Time,CPU,Core,Package,TSC\n0,1.0,0,0,0,100\n1,1e300,0,0,0,300\n' > "$T/reset/counters.csv"
expect 0 "" "$ANALYZE" counters "$T/reset"
eq "huge Time: interval header" "$(grep '^# interval' "$T/out")" "# interval 1: 0.000 to 1e+300 s"
# SMI_COUNT (32 bits): 1000 to 5 would be 4.3e9 SMIs in a second
printf 'Snapshot,Time,CPU,Core,Package,TSC,SMI_COUNT\n0,1.0,0,0,0,100,1000\n1,2.0,0,0,0,300,5\n' > "$T/reset/counters.csv"
expect 0 "SMI_COUNT went from 1000 to 5 in 1 s, which no 32-bit wrap" "$ANALYZE" counters "$T/reset"
# more than five bad steps: five warnings and a count
awk 'BEGIN { print "Snapshot,Time,CPU,Core,Package,TSC"; for (s = 0; s < 9; s++) print s "," (10 - s) ",0,0,0," s * 100 }' > "$T/reset/counters.csv"
expect 0 "3 more such steps left out" "$ANALYZE" counters "$T/reset"
eq "many bad steps: six warnings" "$(grep -c warning "$T/err")" 6

# A CPU, core or package number beyond any machine's (an int later): an error naming it
# (fuzz_counters found 1.77778e+29 converted to int: undefined behaviour)
printf 'Snapshot,Time,CPU,Core,Package,TSC\n0,0,0,0,0,100\n1,1,1.77778e+29,0,0,200\n' > "$T/reset/counters.csv"
expect 1 "counters.csv:3: field 'CPU': 1.77778e+29 is more than 1048575" "$ANALYZE" counters "$T/reset"
printf 'Snapshot,Time,CPU,Core,Package,TSC\n0,0,0,0,1048576,100\n' > "$T/reset/counters.csv"
expect 1 "counters.csv:2: field 'Package': 1048576 is more than 1048575" "$ANALYZE" counters "$T/reset"

# CPUs listed twice in a snapshot: the first repeated row is named
printf 'Snapshot,Time,CPU,Core,Package,TSC\n0,1,0,0,0,5\n0,1,1,0,0,5\n0,1,2,0,0,5\n0,1,1,0,0,5\n0,1,0,0,0,5\n' > "$T/reset/counters.csv"
expect 1 "counters.csv:5: CPU 1 appears twice in snapshot 0" "$ANALYZE" counters "$T/reset"
# Many CPUs, listed in another order in one snapshot: linear-ish (the pairwise duplicate check
# and the row lookup took 15 s for 100,000 CPUs); the TSC_MHz of every CPU as in order.
awk 'BEGIN { n = 100000; print "Snapshot,Time,CPU,Core,Package,TSC"
	for (s = 0; s < 3; s++) for (i = 0; i < n; i++) { c = s == 1 ? n - 1 - i : i
		print s "," s + 1 "," c "," c ",0," (s + 1) * 1000000 * (c % 7 + 1) } }' > "$T/reset/counters.csv"
set +e
timeout 10 "$ANALYZE" counters "$T/reset" --format json > "$T/out" 2> "$T/err"
rc=$?
set -e
[ "$rc" = 0 ] || fail "100,000 CPUs in another order: exit $rc (124: more than 10 s) ($(head -c 300 "$T/err"))"
eq "100,000 CPUs: TSC_MHz of CPUs 0, 6, 99999" \
	"$(jq -c '[.intervals[0].cpus[] | select(.CPU == 0 or .CPU == 6 or .CPU == 99999) | .TSC_MHz]' "$T/out")" "[1,7,5]"
eq "100,000 CPUs: every CPU in the interval" "$(jq '.intervals[0].cpus | length' "$T/out")" 100000

# 50,000 counter columns against an info.json of 300,000 column entries: one pass over the
# entries (a lookup per column took 71 s); an entry still applies (X9 raw: its value, not 0).
awk 'BEGIN { n = 50000; h = "Snapshot,Time,CPU,Core,Package,TSC"; for (i = 0; i < n; i++) h = h ",X" i
	print h; for (s = 0; s < 2; s++) { r = s "," s + 1 ",0,0,0," (s + 1) * 1000; for (i = 0; i < n; i++) r = r ",7"; print r } }' \
	> "$T/reset/counters.csv"
awk 'BEGIN { printf "{\"counters\": {\"columns\": {"; for (i = 0; i < 300000; i++) printf "\"Y%d\": {}, ", i
	print "\"X9\": {\"kind\": \"raw\"}, \"X9\": {\"kind\": \"delta\"}}}}" }' > "$T/reset/info.json"
set +e
timeout 40 "$ANALYZE" counters "$T/reset" --format json > "$T/out" 2> "$T/err"
rc=$?
set -e
[ "$rc" = 0 ] || fail "50,000 columns, 300,000 entries: exit $rc (124: more than 40 s; ASan build: about 15 s) ($(head -c 300 "$T/err"))"
eq "info.json column entry applied (first of a name)" "$(jq -c '[.intervals[0].cpus[0] | .X9, .X8]' "$T/out")" "[7,0]"
rm "$T/reset/info.json"

# The largest u64s read as 2^64 (doubles): accepted; a value beyond them is an error.
printf 'Snapshot,Time,CPU,Core,Package,TSC\n0,1.0,0,0,0,18446744073709551614\n1,2.0,0,0,0,18446744073709551615\n' > "$T/reset/counters.csv"
expect 0 "" "$ANALYZE" counters "$T/reset" --format json
eq "u64 max: TSC_MHz" "$(jq '.intervals[0].cpus[0].TSC_MHz' "$T/out")" "0"
printf 'Snapshot,Time,CPU,Core,Package,TSC\n0,1.0,0,0,0,18446744073709555000\n1,2.0,0,0,0,5\n' > "$T/reset/counters.csv"
expect 1 "counters.csv:2: field 'TSC': expected a raw counter value (an unsigned integer)" "$ANALYZE" counters "$T/reset"
# Up to 2^64 + 2047 reads as the same double as 2^64 - 1: checked against the text (line numbers
# count a blank line); leading zeros are fine.
printf 'Snapshot,Time,CPU,Core,Package,TSC\n0,1.0,0,0,0,5\n\n1,2.0,0,0,0,18446744073709551616\n' > "$T/reset/counters.csv"
expect 1 "counters.csv:4: field 'TSC': expected a raw counter value of at most 18446744073709551615 (2^64 - 1), got '18446744073709551616'" "$ANALYZE" counters "$T/reset"
printf 'Snapshot,Time,CPU,Core,Package,TSC\n0,1.0,0,0,0,18446744073709552000\n1,2.0,0,0,0,5\n' > "$T/reset/counters.csv"
expect 1 "counters.csv:2: field 'TSC': expected a raw counter value of at most 18446744073709551615 (2^64 - 1), got '18446744073709552000'" "$ANALYZE" counters "$T/reset"
printf 'Snapshot,Time,CPU,Core,Package,TSC\n0,1.0,0,0,0,1.8446744073709551615e19\n1,2.0,0,0,0,5\n' > "$T/reset/counters.csv"
expect 1 "counters.csv:2: field 'TSC': expected a raw counter value of at most" "$ANALYZE" counters "$T/reset"
printf 'Snapshot,Time,CPU,Core,Package,TSC\n0,1.0,0,0,0,0018446744073709551614\n1,2.0,0,0,0,018446744073709551615\n' > "$T/reset/counters.csv"
expect 0 "" "$ANALYZE" counters "$T/reset" --format json
echo "all bad-input tests passed"
