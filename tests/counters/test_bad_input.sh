#!/bin/sh
# Usage errors and bad counters.csv: one clear line and the documented exit status.
set -eu
COLLECT=$1 ANALYZE=$2
. "$(dirname "$0")/lib.sh"
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
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
echo "all bad-input tests passed"
