#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# A last line without its newline (what a killed collector leaves) is dropped with a warning,
# unless info.json says the run is complete with that many datapoints (docs/format.md).
# usage: last_line.sh ANALYZE SAMPLES_DIR
set -u
TEST_KEEP_GOING=1
. "$(dirname "$0")/../common/test-lib.sh"
analyze=$1
samples=$2
tmp=$(mktemp -d)
test_when_finished 'rm -rf "$tmp"'

# the issue's file: the last field "9" was kept as LDist 9
printf 'WakeLatency,LDist\n1.5,1000.25\n2.5,1000.5\n3.5,9' > "$tmp/cut.csv"
"$analyze" stats -f count,min -m LDist -F csv "$tmp/cut.csv" > "$tmp/out" 2> "$tmp/err"
[ $? = 0 ] && grep -q ',,,2,LDist,2,1000.25$' "$tmp/out" &&
	[ "$(cat "$tmp/err")" = "analyze: warning: $tmp/cut.csv:4: last line has no end of line (cut off?) and the run is not known to be complete; dropped it" ] ||
	fail "cut last field: $(cat "$tmp/out" "$tmp/err")"

# a collector's file cut inside ReqCState ("haltpoll idle" -> "haltpo"): no group "haltpo"
mkdir -p "$tmp/reqc"
cut -d, -f1-6 "$samples/bpf-c200/datapoints.csv" | head -c -8 > "$tmp/reqc/datapoints.csv"
tail -c 20 "$tmp/reqc/datapoints.csv" | grep -q ',haltpo$' || fail "reqc: test file does not end in 'haltpo'"
"$analyze" stats -f count -m LDist -F csv "$tmp/reqc" > "$tmp/out" 2> "$tmp/err"
[ $? = 0 ] && ! grep -q haltpo, "$tmp/out" && grep -q ',ReqCState,haltpoll idle,199,LDist,199$' "$tmp/out" &&
	grep -q "^analyze: warning: $tmp/reqc/datapoints.csv:201: last line has no end of line" "$tmp/err" ||
	fail "cut ReqCState: $(cat "$tmp/out" "$tmp/err")"

# complete: true with the matching count keeps the line; any other metadata drops it
run() {  # run NAME INFO_JSON: 3 rows, the last without its newline
	mkdir -p "$tmp/$1"
	printf 'LDist,WakeLatency\n10,1\n20,2\n30,3' > "$tmp/$1/datapoints.csv"
	printf '%s\n' "$2" > "$tmp/$1/info.json"
}
run whole '{"complete": true, "datapoints": 3}'
"$analyze" stats -f count,max -m LDist -F csv "$tmp/whole" > "$tmp/out" 2> "$tmp/err"
[ $? = 0 ] && [ ! -s "$tmp/err" ] && grep -q ',,,3,LDist,3,30$' "$tmp/out" || fail "complete run: $(cat "$tmp/out" "$tmp/err")"
for info in '{"complete": true, "datapoints": 4}' '{"complete": false, "datapoints": 3}' '{"datapoints": 3}'; do
	run partial "$info"
	"$analyze" stats -f count,max -m LDist -F csv "$tmp/partial" > "$tmp/out" 2> "$tmp/err"
	[ $? = 0 ] && grep -q ',,,2,LDist,2,20$' "$tmp/out" && grep -q 'datapoints.csv:4: last line has no end of line' "$tmp/err" ||
		fail "$info: $(cat "$tmp/out" "$tmp/err")"
done
# a file said to be complete whose last line does not parse is bad data, not a cut line
run broken '{"complete": true, "datapoints": 3}'
printf 'LDist,WakeLatency\n10,1\n20,2\n30' > "$tmp/broken/datapoints.csv"
"$analyze" stats "$tmp/broken" > /dev/null 2> "$tmp/err"
rc=$?
[ $rc = 1 ] && [ "$(cat "$tmp/err")" = "analyze: $tmp/broken/datapoints.csv:4: expected 2 fields, got 1" ] ||
	fail "complete run with a broken last line: exit $rc, $(cat "$tmp/err")"

# a last line with more fields than the header is bad data, not a cut line (plain and quoted)
printf 'LDist,WakeLatency\n10,1\n20,2\n30,3,4' > "$tmp/extra.csv"
"$analyze" stats "$tmp/extra.csv" > /dev/null 2> "$tmp/err"
rc=$?
[ $rc = 1 ] && [ "$(cat "$tmp/err")" = "analyze: $tmp/extra.csv:4: expected 2 fields, got 3" ] ||
	fail "a last line with too many fields: exit $rc, $(cat "$tmp/err")"
printf 'LDist,WakeLatency\n10,1\n20,2\n30,"3",4' > "$tmp/extraq.csv"
"$analyze" stats "$tmp/extraq.csv" > /dev/null 2> "$tmp/err"
rc=$?
[ $rc = 1 ] && [ "$(cat "$tmp/err")" = "analyze: $tmp/extraq.csv:4: expected 2 fields, got 3" ] ||
	fail "a quoted last line with too many fields: exit $rc, $(cat "$tmp/err")"

echo "$fails failure(s)"
[ $fails = 0 ]
