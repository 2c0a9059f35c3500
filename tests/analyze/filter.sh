#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# analyze filter RUN -o OUT: the new run gives the numbers of 'analyze stats --include' on the
# source, keeps quoted fields and the wanted columns, says where it came from, and never
# writes into, over or around its input (checked by device and inode, through links too).
# usage: filter.sh ANALYZE SAMPLES_DIR
set -u
TEST_KEEP_GOING=1
. "$(dirname "$0")/../common/test-lib.sh"
case $1 in /*) analyze=$1 ;; *) analyze=$PWD/$1 ;; esac
samples=$(cd "$2" && pwd)
tmp=$(mktemp -d)
test_when_finished 'rm -rf "$tmp"'
cd "$tmp" || exit 1
# expect RC GREP-PATTERN CMD...: the exit status and a line of stderr
expect() {
	local rc=$1 pat=$2; shift 2
	"$@" > out.txt 2> err.txt
	local got=$?
	[ "$got" = "$rc" ] || fail "$*: exit $got, expected $rc ($(cat err.txt))"
	grep -qF -- "$pat" err.txt || fail "$*: stderr lacks '$pat': $(cat err.txt)"
}

# Stats of the filtered run = stats --include on the source, number for number (CSV; the
# first column is the run's name, which differs).
cp -r "$samples/timer-c200" src
sum_before=$(cat src/* | md5sum)
expect 0 "f1: 63 of 200 datapoints kept" "$analyze" filter src -o f1 -i "LDist > 3000"
"$analyze" stats -F csv f1 | cut -d, -f2- > a.csv
"$analyze" stats -F csv -i "LDist > 3000" src | cut -d, -f2- > b.csv
cmp -s a.csv b.csv || fail "stats of the filtered run differ: $(diff a.csv b.csv | head -5)"
[ "$(wc -l < f1/datapoints.csv)" = 64 ] || fail "f1: $(wc -l < f1/datapoints.csv) lines, expected 64"
[ "$(jq -r .reportid f1/info.json)" = f1 ] || fail "f1: reportid $(jq -r .reportid f1/info.json)"
[ "$(jq -r '.filtered_from | "\(.include) \(.rows_in) \(.rows_out) \(.reportid)"' f1/info.json)" = \
  "LDist > 3000 200 63 timer-c200" ] || fail "f1: filtered_from: $(jq -c .filtered_from f1/info.json)"
[ "$(jq -r '"\(.datapoints) \(.method)"' f1/info.json)" = "63 timer" ] || fail "f1: datapoints/method"

# A wult result becomes an idlescope run; --metrics keeps matching columns and ReqCState.
expect 0 "w1: 7 of 9 datapoints kept" "$analyze" filter "$samples/wult-good" -o w1 -m Latency \
	-x "ReqCState != 'C6'" --reportid c6only
[ "$(head -1 w1/datapoints.csv)" = "WakeLatency,IntrLatency,ReqCState" ] || fail "w1 header: $(head -1 w1/datapoints.csv)"
[ "$(jq -r '"\(.toolname) \(.reportid) \(.filtered_from.toolname) \(.filtered_from.format_version) \(.filtered_from.metrics)"' w1/info.json)" = \
  "idlescope c6only wult 1.2 Latency" ] || fail "w1 info: $(jq -c . w1/info.json | head -c 300)"
"$analyze" stats -F csv -m Latency w1 | cut -d, -f2- > a.csv
"$analyze" stats -F csv -m Latency -x "ReqCState != 'C6'" "$samples/wult-good" | cut -d, -f2- > b.csv
cmp -s a.csv b.csv || fail "w1 stats differ: $(diff a.csv b.csv | head -5)"

# Quoted fields stay whole, with and without a column selection; a bare CSV file as input;
# blank lines, CRLF and a byte order mark are counted as the reader counts them.
printf '\xef\xbb\xbfReqCState,V,W\r\n"a,b",1,x\r\n\r\nc,2,y\r\n"q""x",3,z\r\n' > q.csv
expect 0 "q1: 2 of 3 datapoints kept" "$analyze" filter q.csv -o q1 -i "V != 2"
[ "$(cat q1/datapoints.csv)" = "$(printf 'ReqCState,V,W\n"a,b",1,x\n"q""x",3,z')" ] || fail "q1: $(cat q1/datapoints.csv)"
expect 0 "q2: 1 of 3 datapoints kept" "$analyze" filter q.csv -o q2 -i "V == 3" -m '^V$'
[ "$(cat q2/datapoints.csv)" = "$(printf 'ReqCState,V\n"q""x",3')" ] || fail "q2: $(cat q2/datapoints.csv)"
# A filter that keeps nothing is an error and writes nothing (issue 24: the run it used to
# write failed every later step); --allow-empty writes the run with the header.
expect 1 "analyze: filter: q.csv: no datapoint left after filtering (0 of 3 kept); nothing written (--allow-empty to write the empty run)" \
	"$analyze" filter q.csv -o q3 -i "V > 5"
[ "$(grep -vc warning err.txt)" = 1 ] || fail "empty filter: more than one error line: $(cat err.txt)"
[ -e q3 ] || [ -n "$(ls -d q3.tmp-* 2>/dev/null)" ] && fail "empty filter: q3 written"
expect 0 "q3: 0 of 3 datapoints kept" "$analyze" filter q.csv -o q3 -i "V > 5" --allow-empty
[ "$(cat q3/datapoints.csv)" = "ReqCState,V,W" ] || fail "q3: $(cat q3/datapoints.csv)"

# Never into, over or around the input, however spelt; the input is untouched.
ln -s src link
mkdir -p deep/er && mv src deep/er/ && ln -s deep/er/src src
expect 2 "is or contains the input" "$analyze" filter src -o src
expect 2 "is or contains the input" "$analyze" filter src -o link --force
expect 2 "is or contains the input" "$analyze" filter src -o deep --force
expect 2 "is or contains the input" "$analyze" filter link -o deep/er/ --force
expect 2 "lies inside the input" "$analyze" filter src -o deep/er/src/sub
expect 2 "lies inside the input" "$analyze" filter src -o link/a/b/c
expect 2 "is or contains the input" "$analyze" filter src/datapoints.csv -o deep/er --force
[ "$(cat deep/er/src/* | md5sum)" = "$sum_before" ] || fail "the input changed"
[ -z "$(ls -d deep/er/src/sub link/a deep/*.tmp-* ./*.tmp-* 2>/dev/null)" ] || fail "left behind: $(ls -d deep/er/src/sub link/a deep/*.tmp-* ./*.tmp-* 2>/dev/null)"

# An existing OUT: refused; --force replaces a run there, never other files.
expect 1 "f1: exists (--force replaces a run there)" "$analyze" filter src -o f1
expect 0 "f1: 200 of 200 datapoints kept" "$analyze" filter src -o f1 --force
[ "$(jq -r .datapoints f1/info.json)" = 200 ] || fail "--force did not replace f1"
mkdir keepme && echo precious > keepme/notes.txt
expect 1 "holds 'notes.txt', which is not a run file" "$analyze" filter src -o keepme --force
[ "$(cat keepme/notes.txt)" = precious ] || fail "keepme/notes.txt changed"

# Usage errors: an option as --reportid (getopt would take it), bad filters, unknown columns.
expect 2 "--reportid: expected an ID, got an option: -q" "$analyze" filter src -o r --reportid -q
expect 2 "no output directory given" "$analyze" filter src
expect 2 "--include: unexpected end of expression" "$analyze" filter src -o r -i "LDist >"
expect 1 "unknown column 'Nope'" "$analyze" filter src -o r -i "Nope > 1"
expect 1 "--metrics: no column matches 'Nope'" "$analyze" filter src -o r -m Nope
[ ! -e r ] && [ -z "$(ls -d ./*.tmp-* 2>/dev/null)" ] || fail "a failed filter left files"
# A broken datapoints.csv is an error naming file and line, and leaves nothing behind.
mkdir bad && printf 'LDist,V\n1,2\nx,3\n' > bad/datapoints.csv
expect 1 "bad/datapoints.csv:3: field 'LDist'" "$analyze" filter bad -o r -i "LDist > 0"
[ ! -e r ] || fail "a failed filter left r"

[ "$fails" = 0 ] && echo "analyze filter: all checks passed"
exit $((fails > 0))
