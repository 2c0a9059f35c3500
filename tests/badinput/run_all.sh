#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Every documented bad input (docs/format.md, "How readers treat bad input", and the cases of
# issue 11) through analyze and report, each under a time limit: the expected exit status, a
# message of the expected form, and never a crash, hang or sanitizer report. ctest runs this
# in the plain build and, from scripts/test.sh, in the ASan + UBSan build.
# usage: run_all.sh ANALYZE REPORT SHARED_DATA [SECONDS_PER_CASE]
set -u
. "$(dirname "$0")/../common/test-lib.sh"
analyze=$1
report=$2
good=$3/wult-good
limit=${4:-30}
tmp=$(mktemp -d)
test_when_finished 'rm -rf "$tmp"'
fails=0
ncases=0

# check NAME WANT_RC STDERR_REGEX PROGRAM ARGS...: run it under `timeout`, then judge.
# WANT_RC may be a choice ("0|1": cases whose verdict another fix decides; only no crash, hang
# or sanitizer report is asked there); an empty STDERR_REGEX accepts any message.
check() {
	local name=$1 want_rc=$2 want_err=$3
	shift 3
	ncases=$((ncases + 1))
	local t0=$SECONDS
	timeout -k 5 "$limit" "$@" > "$tmp/out" 2> "$tmp/err" < /dev/null
	local rc=$? why=""
	if [ $rc = 124 ] || [ $rc = 137 ]; then
		why="took more than $limit s"
	elif grep -qE 'AddressSanitizer|LeakSanitizer|runtime error:|Segmentation fault|core dumped' "$tmp/err"; then
		why="sanitizer report or crash"
	elif ! [[ $rc =~ ^($want_rc)$ ]]; then
		why="exit $rc, expected $want_rc"
	elif [ -n "$want_err" ] && ! grep -qE -- "$want_err" "$tmp/err"; then
		why="stderr does not match /$want_err/"
	elif [ "$rc" = 1 ] && [ "$(grep -vc ': warning: ' "$tmp/err")" != 1 ]; then
		why="expected exactly one error line"
	fi
	if [ -n "$why" ]; then
		echo "FAIL: $name ($((SECONDS - t0)) s): $why"
		head -c 600 "$tmp/err" | sed 's/^/  stderr: /'
		fails=$((fails + 1))
	fi
}

# dp NAME CONTENT: a run directory whose datapoints.csv is CONTENT (printf format)
dp() { mkdir -p "$tmp/$1"; printf "$2" > "$tmp/$1/datapoints.csv"; echo "$tmp/$1"; }
# meta NAME FILE: a run with good datapoints; prints the metadata file's path
meta() { mkdir -p "$tmp/$1"; cp "$good/datapoints.csv" "$tmp/$1/"; echo "$tmp/$1/$2"; }
stats() { local name=$1 rc=$2 re=$3; shift 3; check "$name" "$rc" "$re" "$analyze" stats "$@"; }

# ---- datapoints.csv: errors with file:line ----
stats empty 1 'empty file' "$(dp empty '')"
mkdir -p "$tmp/dir/datapoints.csv"; stats directory 1 'is a directory' "$tmp/dir"
mkdir -p "$tmp/fifo"; mkfifo "$tmp/fifo/datapoints.csv"; stats fifo 1 'not a regular file' "$tmp/fifo"
mkdir -p "$tmp/dev"; ln -s /dev/zero "$tmp/dev/datapoints.csv"; stats device 1 'not a regular file' "$tmp/dev"
stats binary-header 1 ':1: header: .*control byte' "$(dp bin 'A\001B,C\n1,2\n')"
stats empty-name 1 ':1: header: column 2 has an empty name' "$(dp ename 'A,,C\n1,2,3\n')"
stats dup-name 1 ':1: header: duplicate column name' "$(dp dup 'A,B,A\n1,2,3\n')"
stats nul 1 ':3: NUL byte at column 3' "$(dp nul 'A,B\n1,2\n3,\0004\n')"
stats too-few 1 ':3: expected 3 fields, got 2' "$(dp few 'A,B,C\n1,2,3\n1,2\n4,5,6\n')"
stats too-many 1 ':2: expected 2 fields, got 3' "$(dp many 'A,B\n1,2,3\n')"
stats too-many-text 1 ':3: expected 2 fields, got 5' "$(dp many5 'A,B\n1,2\n1,2,x,,4\n')"
stats too-many-empty 1 ':2: expected 2 fields, got 3' "$(dp many3e 'A,B\n1,2,\n')"
stats junk-after-number 1 ":3: field 'LDist': expected a number, got '12x'" "$(dp junk 'LDist,B\n1,2\n12x,3\n')"
stats junk-after-long-number 1 ":3: field 'W': expected a number, got '1.25x'" \
	"$(dp junkw 'W,B\n1.2345678901234567,2\n1.25x,3\n')"
stats text-in-number 1 ":3: field 'LDist': expected a number, got 'abc'" "$(dp text 'LDist,B\n1,2\nabc,3\n')"
stats inf 1 "expected a number, got 'inf'" "$(dp inf 'LDist,B\n1,2\ninf,3\n')"
stats nan 1 "expected a number, got 'nan'" "$(dp nan 'LDist,B\n1,2\nnan,3\n')"
stats hex 1 "expected a number, got '0x10'" "$(dp hex 'LDist,B\n1,2\n0x10,3\n')"
stats space 1 "expected a number, got ' 1'" "$(dp space 'LDist,B\n1,2\n 1,3\n')"
stats bad-quoting 1 ':3: bad quoting' "$(dp quote 'A,B\n1,2\n"x"y,3\n')"
stats quoted-comma 1 "got '1,5' \(numbers use '.', not ','\)" "$(dp qcomma 'LDist,B\n1,2\n"1,5",3\n')"
stats underflow 1 "'1e-400' is out of the range of a double" "$(dp under 'LDist,B\n1,2\n1e-400,3\n')"
stats overflow 1 "'1e400' is out of the range of a double" "$(dp over 'LDist,B\n1,2\n1e400,3\n')"
stats bom-twice 1 'second UTF-8 byte order mark' "$(dp bom2 '\357\273\277\357\273\277A,B\n1,2\n')"
mkdir -p "$tmp/dangling" && ln -s "$tmp/nowhere" "$tmp/dangling/datapoints.csv"
stats dangling-symlink 1 'dangling symbolic link' "$tmp/dangling"
mkdir -p "$tmp/loop" && ln -s datapoints.csv "$tmp/loop/datapoints.csv"
stats looping-symlink 1 'Too many levels of symbolic links' "$tmp/loop"
stats not-a-run 1 'not a run directory \(no datapoints.csv\)' "$(mkdir -p "$tmp/norun" && echo "$tmp/norun")"
stats no-such-path 1 'No such file or directory' "$tmp/nope"
head -c 65536 /dev/urandom > "$tmp/random.bin"; stats random-bytes 1 'random.bin' "$tmp/random.bin"
awk 'BEGIN { for (i = 1; i <= 100001; i++) printf "C%d%s", i, (i <= 100000 ? "," : "\n") }' > "$tmp/cols.csv"
stats too-many-columns 1 '100001 columns, more than the 100000 supported' "$tmp/cols.csv"
head -c 2000000 /dev/zero | tr '\0' 'a' > "$tmp/longhdr.csv"; stats header-without-newline 1 'no end of line in the first 1 MiB' "$tmp/longhdr.csv"

# ---- datapoints.csv: warnings, and the rest analysed ----
stats cut-last-line 0 'last line is cut off \(expected 3 fields, got 2\); dropped it' "$(dp cut 'A,B,C\n1,2,3\n4,5')"
stats cut-last-field 0 'last line has no end of line' "$(dp cutf 'WakeLatency,LDist\n1.5,1000.25\n3.5,9')"
stats blank-lines 0 '2 blank lines skipped' "$(dp blank 'A,B\n1,2\n\n\n3,4\n')"
stats space-in-name 0 "name ' WakeLatency' has a space at its start" "$(dp sp 'LDist, WakeLatency\n1,2\n')"
stats near-dbl-max 0 '' "$(dp big 'LDist\n1e308\n1e308\n1.5e308\n1.7976931348623157e308\n')"
stats control-in-text 0 '' "$(dp esc 'LDist,ReqCState\n1,C\033[31m6\n2,\377\376\n')"

# ---- metadata: a warning and the datapoints analysed ----
f=$(meta badjson info.json); printf '{"a": 1,\n oops}\n' > "$f"; stats malformed-json 0 'info.json:2:3: malformed JSON; going on' "$tmp/badjson"
f=$(meta badyml info.yml); printf 'cpu: [0\n' > "$f"; stats malformed-yaml 0 'info.yml:2:1: .*; going on without run metadata' "$tmp/badyml"
f=$(meta notobj info.json); printf '[1, 2]\n' > "$f"; stats json-not-object 0 'not a JSON object' "$tmp/notobj"
f=$(meta deepyml info.yml); { printf 'a: '; head -c 100000 /dev/zero | tr '\0' '['; } > "$f"
stats deep-yaml 0 'more than 64 levels of nesting' "$tmp/deepyml"
f=$(meta deepjson info.json); { printf '{"a": '; head -c 100000 /dev/zero | tr '\0' '{'; } > "$f"
stats deep-json 0 'more than 64 levels of nesting' "$tmp/deepjson"
f=$(meta laughs info.yml)
{ echo 'a: &a ["x","x","x","x","x","x","x","x","x"]'; p=a
  for k in b c d e f g h i; do echo "$k: &$k [*$p,*$p,*$p,*$p,*$p,*$p,*$p,*$p,*$p]"; p=$k; done; } > "$f"
stats billion-laughs 0 'more than 1000000 nodes' "$tmp/laughs"
f=$(meta many info.json); { printf '{"a": ['; yes '0,' | head -n 1100000 | tr -d '\n'; echo '0]}'; } > "$f"
stats json-values 0 'more than 1000000 values' "$tmp/many"
f=$(meta nul info.json); printf '{"reportid": "a\\u0000b"}' > "$f"; stats json-nul-escape 0 'replaced by U\+FFFD' "$tmp/nul"
f=$(meta big info.json); head -c 17000000 /dev/zero | tr '\0' ' ' > "$f"; stats metadata-too-large 0 'too large' "$tmp/big"

# ---- diff and report on the same kinds of input ----
check diff-near-dbl-max '0|1' '' "$analyze" diff "$(dp d1 'LDist\n1e308\n1.1e308\n1.2e308\n')" "$(dp d2 'LDist\n1e300\n1.1e300\n1.2e300\n')"
check diff-bad-second-run 1 ":3: field 'LDist': expected a number" "$analyze" diff "$good" "$tmp/text"
if command -v gnuplot > /dev/null; then
	check report-cut-and-deep-yaml 0 'more than 64 levels' "$report" "$tmp/deepyml" "$tmp/cutf" -o "$tmp/rep1"
	check report-bad-run 1 ":3: field 'LDist': expected a number" "$report" "$tmp/text" -o "$tmp/rep2"
	# 100,000 ReqCState groups: the report's group merge was a linear search per label (50,000
	# groups took 12 s, 100,000 about a minute)
	mkdir -p "$tmp/groups"
	awk 'BEGIN { print "WakeLatency,LDist,ReqCState"; for (i = 0; i < 100000; i++) print i % 100 ",1000,C" i }' \
		> "$tmp/groups/datapoints.csv"
	check report-100k-groups 0 '' "$report" "$tmp/groups" -o "$tmp/rep3"
fi

# ---- counters.csv ----
hdr='Snapshot,Time,CPU,Core,Package,TSC'
ctr() { mkdir -p "$tmp/$1"; printf "$hdr\n$2" > "$tmp/$1/counters.csv"; echo "$tmp/$1"; }
check counters-text 1 "counters.csv:3: field 'TSC': expected a" "$analyze" counters "$(ctr ctext '0,1.0,0,0,0,5\n1,2.0,0,0,0,abc\n')"
check counters-backwards '0|1' '' "$analyze" counters "$(ctr cback '0,1.0,0,0,0,1000000000000\n1,2.0,0,0,0,5\n')"
check counters-time-backwards '0|1' '' "$analyze" counters "$(ctr ctime '0,2.0,0,0,0,5\n1,1.0,0,0,0,10\n')"
check counters-u64 '0|1' '' "$analyze" counters "$(ctr cu64 '0,1.0,0,0,0,18446744073709551614\n1,2.0,0,0,0,18446744073709551615\n')"
check counters-cut 0 'last line' "$analyze" counters "$(ctr ccut '0,1.0,0,0,0,5\n1,2.0,0,0,0,10\n2,3.0,0')"
f=$(ctr cdeep '0,1.0,0,0,0,5\n1,2.0,0,0,0,10\n')/info.json; { printf '{"a": '; head -c 100000 /dev/zero | tr '\0' '['; } > "$f"
check counters-deep-info 0 'more than 64 levels' "$analyze" counters "$(dirname "$f")"

echo "$ncases cases, $fails failure(s)"
[ $fails = 0 ]
