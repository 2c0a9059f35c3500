#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# analyze stats on bad input: the exact one-line error (or warning) and exit status for each.
# usage: bad_inputs.sh ANALYZE SHARED_DATA
set -u
. "$(dirname "$0")/../common/test-lib.sh"
analyze=$1
shared=$2
tmp=$(mktemp -d)
test_when_finished 'rm -rf "$tmp"'
fails=0

# expect RC EXPECTED_STDERR ARGS... : run analyze, compare exit status and whole stderr
expect() {
	local want_rc=$1 want_err=$2
	shift 2
	"$analyze" "$@" > "$tmp/out" 2> "$tmp/err"
	local rc=$?
	local err
	err=$(cat "$tmp/err")
	if [ "$rc" != "$want_rc" ] || [ "$err" != "$want_err" ]; then
		echo "FAIL: analyze $*"
		echo "  exit $rc (want $want_rc)"
		echo "  stderr: $err"
		echo "  want:   $want_err"
		fails=$((fails + 1))
	fi
}

good=$shared/wult-good
hdr=$(head -1 "$good/datapoints.csv")
row=$(sed -n 2p "$good/datapoints.csv")
mkrun() { mkdir -p "$tmp/$1"; printf '%s' "$2" > "$tmp/$1/datapoints.csv"; echo "$tmp/$1"; }

expect 1 "analyze: $tmp/nope: No such file or directory" stats "$tmp/nope"
d=$(mkrun empty ""); expect 1 "analyze: $d/datapoints.csv: empty file (no header row)" stats "$d"
mkdir -p "$tmp/dirdp/datapoints.csv"
expect 1 "analyze: $tmp/dirdp/datapoints.csv: is a directory, expected a CSV file" stats "$tmp/dirdp"
mkdir -p "$tmp/nodp"
expect 1 "analyze: $tmp/nodp: not a run directory (no datapoints.csv)" stats "$tmp/nodp"
expect 1 "analyze: /dev/null: not a run directory or a CSV file" stats /dev/null
mkdir -p "$tmp/dev" && ln -s /dev/urandom "$tmp/dev/datapoints.csv"
expect 1 "analyze: $tmp/dev/datapoints.csv: not a regular file" stats "$tmp/dev"

# Random bytes: fixed pseudo-random files (perl's drand48, the same on every machine) with
# exact messages, then fresh /dev/urandom bytes, where only the form of the error is fixed
# (a first line that happens to hold no control byte is a valid one-column header, and the
# error then names a later line).
perl -e 'srand(2); print map chr(int rand 256), 1..4096' > "$tmp/random2.bin"
expect 1 "analyze: $tmp/random2.bin:1: header: NUL byte (not a CSV file?)" stats "$tmp/random2.bin"
perl -e 'srand(3); print map chr(int rand 256), 1..4096' > "$tmp/random3.bin"
expect 1 "analyze: $tmp/random3.bin:1: header: bad quoting (error parsing data while strict checking enabled)" stats "$tmp/random3.bin"
head -c 4096 /dev/urandom > "$tmp/random.bin"
"$analyze" stats "$tmp/random.bin" > /dev/null 2> "$tmp/err"; rc=$?
if [ $rc != 1 ] || [ "$(wc -l < "$tmp/err")" != 1 ] || ! grep -q "^analyze: $tmp/random.bin:[0-9][0-9]*: " "$tmp/err"; then
	cp "$tmp/random.bin" "${TMPDIR:-/tmp}/idlescope-random-failed.bin"
	echo "FAIL: random bytes (kept in ${TMPDIR:-/tmp}/idlescope-random-failed.bin): exit $rc, stderr: $(cat "$tmp/err")"; fails=$((fails + 1))
fi

d=$(mkrun nul "$hdr"$'\n'"$row"$'\n'"4.1,1746.3,7.9,1,17"$'\x01'"57.7,C6,0.33,0.00,1.25,92.63,77.08,0.00,0,0"$'\n')
printf '%s\n%s\n4.1,1746.3,7.9,1,17\0005,C6,0.33,0.00,1.25,92.63,77.08,0.00,0,0\n' "$hdr" "$row" > "$d/datapoints.csv"
expect 1 "analyze: $d/datapoints.csv:3: NUL byte at column 20" stats "$d"
d=$(mkrun few "$hdr"$'\n'"$row"$'\n'"1,2,3"$'\n'"$row"$'\n')
expect 1 "analyze: $d/datapoints.csv:3: expected 14 fields, got 3" stats "$d"
d=$(mkrun many "$hdr"$'\n'"$row,7"$'\n')
expect 1 "analyze: $d/datapoints.csv:2: expected 14 fields, got 15" stats "$d"
d=$(mkrun text "$hdr"$'\n'"$row"$'\n'"$row"$'\n'"1,2,3,1,abc,C6,0,0,0,0,0,0,0,0"$'\n')
expect 1 "analyze: $d/datapoints.csv:4: field 'LDist': expected a number, got 'abc'" stats "$d"
d=$(mkrun textfirst "$hdr"$'\n'"1,2,3,1,abc,C6,0,0,0,0,0,0,0,0"$'\n'"$row"$'\n')
expect 1 "analyze: $d/datapoints.csv:2: field 'LDist': expected a number, got 'abc'" stats "$d"
d=$(mkrun inf "$hdr"$'\n'"$row"$'\n'"inf,2,3,1,5,C6,0,0,0,0,0,0,0,0"$'\n')
expect 1 "analyze: $d/datapoints.csv:3: field 'WakeLatency': expected a number, got 'inf'" stats "$d"
big=$(head -c 3000000 /dev/zero | tr '\0' '7')
d=$(mkrun bigfield "$hdr"$'\n'"$row"$'\n'"1,2,3,1,5,C6,0,0,0,0,0,0,0,${big}x"$'\n')
expect 1 "analyze: $d/datapoints.csv:3: field 'NMICnt': expected a number, got '$(head -c 56 /dev/zero | tr '\0' '7')...'" stats "$d"
bigtext=$(head -c 3000000 /dev/zero | tr '\0' 'a')
d=$(mkrun bigtext "A,Note"$'\n'"1,$bigtext"$'\n'"2,x"$'\n')
expect 0 "" stats --no-group "$d"
d=$(mkrun dup "LDist,WakeLatency,LDist"$'\n'"1,2,3"$'\n')
expect 1 "analyze: $d/datapoints.csv:1: header: duplicate column name 'LDist' (columns 1 and 3)" stats "$d"

# a cut last line is dropped with a warning; the rest is analysed
d=$(mkrun cut "$hdr"$'\n'"$row"$'\n'"$row"$'\n'"4.1,1746.3,7.9")
expect 0 "analyze: warning: $d/datapoints.csv:4: last line is cut off (expected 14 fields, got 3); dropped it" \
	stats -f count -m '^LDist$' --format csv "$d"
grep -qx "cut,,,2,LDist,2" "$tmp/out" || { echo "FAIL: cut: $(cat "$tmp/out")"; fails=$((fails + 1)); }

# blank lines: skipped with one warning naming the first (a blank line is no datapoint)
d=$(mkrun blank "$hdr"$'\n'"$row"$'\n\n'"$row"$'\r\n\r\n'"$row"$'\n')
expect 0 "analyze: warning: $d/datapoints.csv:3: 2 blank lines skipped" stats -f count -F csv "$d"
[ "$(grep -c ',3$' "$tmp/out")" -ge 1 ] || { echo "FAIL: blank lines: rows are not 3: $(cat "$tmp/out")"; fails=$((fails + 1)); }

# broken metadata: a warning, and the datapoints are still analysed
mkdir -p "$tmp/badyml" && cp "$good/datapoints.csv" "$tmp/badyml/" && printf 'cpu: [0\n' > "$tmp/badyml/info.yml"
"$analyze" stats -f count --format csv "$tmp/badyml" > "$tmp/out" 2> "$tmp/err"; rc=$?
if [ $rc != 0 ] || ! grep -q "^analyze: warning: $tmp/badyml/info.yml:2:1: .*; going on without run metadata$" "$tmp/err"; then
	echo "FAIL: bad info.yml: exit $rc, $(cat "$tmp/err")"; fails=$((fails + 1))
fi
# aliases that expand to 9^9 nodes ("billion laughs"), and nesting 100 deep: refused, not a hang
mkdir -p "$tmp/laughs" && cp "$good/datapoints.csv" "$tmp/laughs/"
{
	echo 'a: &a ["x","x","x","x","x","x","x","x","x"]'
	prev=a
	for k in b c d e f g h i; do echo "$k: &$k [*$prev,*$prev,*$prev,*$prev,*$prev,*$prev,*$prev,*$prev,*$prev]"; prev=$k; done
} > "$tmp/laughs/info.yml"
expect 0 "analyze: warning: $tmp/laughs/info.yml:6:34: more than 1000000 nodes (with aliases expanded); going on without run metadata" \
	stats -f count "$tmp/laughs"
mkdir -p "$tmp/deepyml" && cp "$good/datapoints.csv" "$tmp/deepyml/"
printf 'a: %s%s\n' "$(printf '[%.0s' $(seq 100))" "$(printf ']%.0s' $(seq 100))" > "$tmp/deepyml/info.yml"
expect 0 "analyze: warning: $tmp/deepyml/info.yml:1:68: more than 64 levels of nesting; going on without run metadata" \
	stats -f count "$tmp/deepyml"
mkdir -p "$tmp/badjson" && cp "$good/datapoints.csv" "$tmp/badjson/" && printf '{"reportid": "x",\n  oops}\n' > "$tmp/badjson/info.json"
expect 0 "analyze: warning: $tmp/badjson/info.json:2:4: malformed JSON; going on without run metadata" stats -f count "$tmp/badjson"

# CRLF gives the same numbers as LF; the input is never modified
mkdir -p "$tmp/crlf" && sed 's/$/\r/' "$good/datapoints.csv" > "$tmp/crlf/datapoints.csv"
sum_before=$(md5sum < "$tmp/crlf/datapoints.csv")
"$analyze" stats --format csv "$good" | cut -d, -f2- > "$tmp/lf.out"
"$analyze" stats --format csv "$tmp/crlf" | cut -d, -f2- > "$tmp/crlf.out"
cmp -s "$tmp/lf.out" "$tmp/crlf.out" || { echo "FAIL: CRLF results differ"; fails=$((fails + 1)); }
[ "$sum_before" = "$(md5sum < "$tmp/crlf/datapoints.csv")" ] || { echo "FAIL: input modified"; fails=$((fails + 1)); }

# diff loads runs on two threads: the messages still come in the runs' order (a long run
# whose error is at its end, then a short one that fails at once)
mkdir -p "$tmp/longbad" "$tmp/shortbad"
{ echo "$hdr"; for _ in $(seq 200000); do echo "$row"; done; echo "1.2.3,${row#*,}"; } > "$tmp/longbad/datapoints.csv"
printf '%s\n%s\n' "$hdr" "x,${row#*,}" > "$tmp/shortbad/datapoints.csv"
for _ in 1 2 3; do
	expect 1 "analyze: $tmp/longbad/datapoints.csv:200002: field 'WakeLatency': expected a number, got '1.2.3'
analyze: $tmp/shortbad/datapoints.csv:2: field 'WakeLatency': expected a number, got 'x'" diff "$tmp/longbad" "$tmp/shortbad"
done

# usage errors exit 2
expect 2 "analyze: --include: expected ')' at column 17 (in '(LDist > 5 and 1')" stats --include '(LDist > 5 and 1' "$good"
expect 2 "analyze: stats: --funcs: unknown function 'p99' (expected count, min, max, avg, std, med, min_index, max_index, or N% with 0 < N < 100)" stats --funcs max,p99 "$good"
expect 2 "analyze: stats: --format: expected text, csv or json, got 'xml'" stats --format xml "$good"
expect 2 "analyze: stats: --bins needs --hist" stats --bins 3 "$good"
expect 2 "analyze: stats: --hist-range needs --hist" stats --hist-range 0,10 "$good"
expect 2 "analyze: stats: --hist: histograms are in the text and JSON output, not in CSV" stats --hist -F csv "$good"
expect 2 "analyze: stats: no run given (see 'analyze stats --help')" stats
expect 2 "analyze: unknown command 'stat' (see 'analyze --help')" stat "$good"
expect 2 "analyze: --metrics: bad regular expression '(': Unmatched ( or \\(" stats --metrics '(' "$good"
expect 1 "analyze: $good/datapoints.csv: filter: unknown column 'Foo' (columns: WakeLatency, SilentTime, IntrLatency, IntrOff, LDist, ReqCState, CC0%, CC1Derived%, CC1%, CC6%, PC2%, PC6%, SMICnt, NMICnt)" stats --exclude 'Foo > 1' "$good"
expect 1 "analyze: $good/datapoints.csv: --by: no column 'Bar'" stats --by Bar "$good"

echo "$fails failure(s)"
[ $fails = 0 ]
