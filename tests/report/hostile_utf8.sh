#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Issue 11 items 11 and 12 in report: escape sequences and invalid UTF-8 from runs (reportid,
# column names, idle state names, info fields, the title, the output path) give a page and
# plots of valid UTF-8 without control characters (shown as the text \xNN), and nothing of
# theirs reaches the terminal (the printed path and messages show \xNN too).
# usage: hostile_utf8.sh REPORT SAMPLE_COUNTERS_RUN
REPORT=$1
SAMPLE=$2
. "$(dirname "$0")/lib.sh"
CHECK="python3 $(cd "$(dirname "$0")/../analyze" && pwd)/check_text.py"
set -e
mkdir "$W/evil"
printf '{"toolname": "idlescope", "reportid": "r\\u001b[31mRED\\u009b", "method": "m\\u001b]0;t\\u0007",
 "system": {"hostname": "h\\u001b[2J\\u202e"}}' >"$W/evil/info.json"
{
	printf 'WakeLatency,LDist,SilentTime,X\xffY,ReqCState\n'
	for i in 1 2 3 4 5 6 7 8 9 10; do
		printf '%s.5,%s,%s,%s,C\x1b[31m%s\xc3\n' $i $((i * 100)) $((i * 90)) $i $((i % 2))
	done
} >"$W/evil/datapoints.csv"
cp -r "$W/evil" "$W/evil2"
cp -r "$SAMPLE" "$W/cnt"
jq '.reportid = "c\u001b[1m" | .counters.missing = [{"counters": "X\u001b[31m", "reason": "r\u0007\u009b"}]' \
	"$SAMPLE/info.json" >"$W/cnt/info.json"
out=$(printf '%s/rep\x1b[1m\xff' "$W")

expect_rc 0 "$REPORT" "$W/evil" "$W/evil2" -o "$out" --metrics 'WakeLatency|X' \
	--title "$(printf 'T\x1b[2J\xff')"
page=$out/index.html
$CHECK html "$page" "$out"/plots/*.svg || fail "page or plots not clean UTF-8"
$CHECK text "$W/out.txt" "$W/err.txt" || fail "terminal output not clean"
[ "$(cat "$W/out.txt")" = "$W/rep\\x1b[1m\\xff/index.html" ] || fail "printed path: $(cat -v "$W/out.txt")"
for want in 'r\x1b[31mRED\xc2\x9b' 'T\x1b[2J\xff' 'X\xffY' 'C\x1b[31m1\xc3' 'm\x1b]0;t\x07' 'h\x1b[2J'; do
	grep -qF -- "$want" "$page" || fail "index.html lacks '$want'"
done

# plot labels: the same \xNN (they used to be '?' for every byte that was not ASCII)
grep -qF 'X\xffY' "$out"/plots/*.svg || fail "no plot labelled X\\xffY"

expect_rc 2 "$REPORT" "$(printf -- '--\x1b[31m')"
expect_err "report: --\\x1b[31m: unknown option or missing argument (see 'report --help')"

expect_rc 0 "$REPORT" "$W/cnt" -o "$W/rep2"
$CHECK html "$W/rep2/index.html" "$W"/rep2/plots/*.svg || fail "counters page not clean UTF-8"
$CHECK text "$W/out.txt" "$W/err.txt" || fail "terminal output not clean (counters)"
grep -qF -- 'c\x1b[1m' "$W/rep2/index.html" || fail "counters run's name not shown as \\x1b"
echo PASS
