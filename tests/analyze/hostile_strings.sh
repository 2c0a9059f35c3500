#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Issue 11 items 11 and 12: escape sequences and invalid UTF-8 from inputs (reportid, column
# names, cells, info.json notes) never reach the terminal, and every output is valid UTF-8:
# text, CSV and messages show them as \xNN, JSON exactly where JSON can (\u001b) and as the
# text \xNN where it cannot (invalid bytes), so that a string reads the same in every output. Checked byte by byte (check_text.py) and by value.
# usage: hostile_strings.sh ANALYZE SAMPLES_DIR
set -u
TEST_KEEP_GOING=1
. "$(dirname "$0")/../common/test-lib.sh"
analyze=$(realpath "$1")
samples=$(realpath "$2")
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
test_when_finished 'rm -rf "$tmp"'
check() { python3 "$here/check_text.py" "$@" || fail "check_text $*"; }
# has FILE STRING: FILE holds STRING (printf format) as bytes
has() { grep -qF -- "$(printf "$2")" "$1" || fail "$1 lacks '$2': $(head -c 400 "$1" | cat -v)"; }

# A run with a hostile reportid (newline, CSI, OSC, C1 CSI, invalid byte), a column name with an
# invalid byte, and ReqCState cells with CSI, a cut-off character and a C1 CSI.
mkdir "$tmp/r1"
printf 'WakeLatency,LDist,ReqCState,X\xffY\n1.5,1000,C\x1b[31m6,1\n2.5,1001,C1\xc3,2\n3,1002,\xc2\x9b31m,3\n4,1003,C\x1b[31m6,4\n' \
	> "$tmp/r1/datapoints.csv"
printf '{"reportid": "a\\nb\\u001b[31mRED\\u001b]0;t\\u0007\\u009b"}' > "$tmp/r1/info.json"
cp -r "$tmp/r1" "$tmp/r2"
name='a\\x0ab\\x1b[31mRED\\x1b]0;t\\x07\\xc2\\x9b'

cd "$tmp" || exit 1
for f in text csv json; do
	"$analyze" stats -F $f r1 > stats.$f 2> stats.$f.err || fail "stats -F $f: exit $?"
	"$analyze" diff -F $f r1 r2 > diff.$f 2> diff.$f.err || fail "diff -F $f: exit $?"
	kind=$f
	check "$kind" stats.$f diff.$f
	check text stats.$f.err diff.$f.err
done
# text: \xNN, line structure kept
has stats.text "$name (r1): 4 datapoints"
has stats.text "$name, ReqCState = C\\\\x1b[31m6: 2 datapoints"
has stats.text "$name, ReqCState = C1\\\\xc3: 1 datapoints"
has stats.text "$name, ReqCState = \\\\xc2\\\\x9b31m: 1 datapoints"
has stats.text 'X\\xffY '
has diff.text "Compared:  $name-2 (r2, unknown), 4 datapoints"
# CSV: \xNN for control characters and invalid bytes (the run's name was escaped at load)
has stats.csv "$name,ReqCState,C\\\\x1b[31m6,2,WakeLatency,"
has stats.csv "$name,ReqCState,C1\\\\xc3,1,"
has stats.csv "$name,ReqCState,\\\\xc2\\\\x9b31m,1,"
has stats.csv ",X\\\\xffY,"
# JSON: the exact string where JSON can carry it, the text \xNN for the invalid bytes
python3 - stats.json diff.json <<'PY' || fail "JSON values"
import json, sys
s = json.load(open(sys.argv[1], encoding="utf-8"))["runs"][0]
name = "a\\x0ab\\x1b[31mRED\\x1b]0;t\\x07\\xc2\\x9b"
assert s["reportid"] == name, s["reportid"]
assert sorted(s["groups"]) == sorted(["C\x1b[31m6", "C1\\xc3", "\x9b31m"]), list(s["groups"])
assert s["groups"]["C\x1b[31m6"]["rows"] == 2
assert "X\\xffY" in s["metrics"], list(s["metrics"])
raw = open(sys.argv[1], "rb").read()
assert b"\\u001b[31m6" in raw and b"\\u009b31m" in raw and b"\xc2\x9b" not in raw
d = json.load(open(sys.argv[2], encoding="utf-8"))
assert d["reference"] == name and d["runs"][1]["reportid"] == name + "-2", d["runs"]
PY

# The same reportid from a wult info.yml (YAML escapes), and a cell with CSI as a warning's subject
mkdir "$tmp/r4"
cp "$tmp/r1/datapoints.csv" "$tmp/r4/"
printf 'reportid: "a\\nb\\e[31mRED"\n' > "$tmp/r4/info.yml"
"$analyze" stats r4 > yml.text 2> yml.err || fail "stats on r4: exit $?"
check text yml.text yml.err
has yml.text 'a\\x0ab\\x1b[31mRED (r4): 4 datapoints'

# Messages: a hostile cell in a numeric column, a hostile path, a hostile --include column.
mkdir "$tmp/r3"
printf 'WakeLatency,LDist\n1.5,1000\n2\x1b[31m\xff,5\n' > "$tmp/r3/datapoints.csv"
"$analyze" stats r3 > out 2> err
[ $? = 1 ] || fail "bad cell: exit status"
[ "$(cat err)" = "analyze: r3/datapoints.csv:3: field 'WakeLatency': expected a number, got '2\\x1b[31m\\xff'" ] ||
	fail "bad cell message: $(cat -v err)"
"$analyze" stats "$(printf 'no\x1b[2Jdir\nx')" > out 2> err
[ "$(cat err)" = 'analyze: no\x1b[2Jdir\x0ax: No such file or directory' ] || fail "bad path message: $(cat -v err)"
check text err
# an option glibc's getopt would have echoed raw
"$analyze" stats "$(printf -- '--\x1b[31m')" > out 2> err
[ $? = 2 ] || fail "bad option: exit status"
[ "$(cat err)" = "analyze: stats: --\\x1b[31m: unknown option or missing argument (see 'analyze stats --help')" ] ||
	fail "bad option message: $(cat -v err)"

# analyze counters: hostile notes from info.json and a hostile reportid, in every format.
cp -r "$samples/timer-c200" c1
jq '.reportid = "c\u001b[1m" | .counters.missing = [{"counters": "X\u001b[31m", "reason": "r\u001b]0;t\u0007\u009b"}]' \
	"$samples/timer-c200/info.json" > c1/info.json
for f in text csv json; do
	"$analyze" counters --format $f c1 > cnt.$f 2> cnt.$f.err || fail "counters -F $f: exit $?"
	check $f cnt.$f
	check text cnt.$f.err
	has cnt.$f.err 'analyze: note: not collected: X\\x1b[31m: r\\x1b]0;t\\x07\\xc2\\x9b'
done

# A counter named with a comma and an invalid byte (counters.csv's header, RFC 4180 quoted):
# one CSV column, quoted, in analyze counters' CSV; \xNN in text and JSON.
cp -r "$samples/timer-c200" c2
sed -i '1s/,IRQ,NMI,/,"IR,Q",N\xffMI,/' c2/counters.csv
for f in text csv json; do
	"$analyze" counters --format $f c2 > cnt2.$f 2> /dev/null || fail "counters -F $f (c2): exit $?"
	check $f cnt2.$f
done
python3 - cnt2.csv cnt2.json <<'PY' || fail "counters CSV/JSON with odd column names"
import csv, json, sys
rows = list(csv.reader(open(sys.argv[1], encoding="utf-8")))
assert {len(r) for r in rows} == {len(rows[0])}, [len(r) for r in rows]
assert "IR,Q" in rows[0] and "N\\xffMI" in rows[0], rows[0]
assert {"IR,Q", "N\\xffMI"} <= set(json.load(open(sys.argv[2], encoding="utf-8"))["columns"])
PY
has cnt2.text 'N\\xffMI'

[ $fails = 0 ] && echo PASS
exit $((fails > 0))
