#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# A run idlescope writes is read by wult: analyze filter's output has an info.yml as wult's
# reader (wult 1.12, wultlibs/result/RORawResult.py) requires it; when wult is found
# (bench/peer_wult.sh find), 'wult calc' on it gives the numbers 'analyze stats' gives, and
# 'wult filter' and 'wult report' take it. Also analyze stats' wult options:
# --include-metrics/--exclude-metrics and -f min_index,max_index.
# usage: wult_both_ways.sh ANALYZE SAMPLES_DIR BENCH_DIR
set -u
TEST_KEEP_GOING=1
. "$(dirname "$0")/../common/test-lib.sh"
case $1 in /*) analyze=$1 ;; *) analyze=$PWD/$1 ;; esac
samples=$(cd "$2" && pwd)
bench=$(cd "$3" && pwd)
test_tmpdir tmp
cd "$tmp" || exit 1

"$analyze" filter "$samples/bpf-c200" -o f1 -i "LDist > 2000" 2>/dev/null || fail "analyze filter failed"
[ -f f1/info.yml ] || fail "analyze filter wrote no info.yml"
[ -f f1/info.json ] || fail "analyze filter wrote no info.json"
grep -q '"toolname":[[:space:]]*"idlescope"' f1/info.json || fail "info.json no longer says idlescope"

# The keys wult's reader requires: reportid, toolname (wult, the only value it accepts for
# this format), toolver (ours, so the run is not taken for wult's), format_version 1.3.
yml() { sed -n "s/^$1: //p" f1/info.yml; }
[ "$(yml format_version)" = '"1.3"' ] || fail "format_version: $(yml format_version)"
[ "$(yml reportid)" = '"f1"' ] || fail "reportid: $(yml reportid)"
[ "$(yml toolname)" = '"wult"' ] || fail "toolname: $(yml toolname)"
case $(yml toolver) in '"idlescope '*) ;; *) fail "toolver: $(yml toolver)" ;; esac
[ "$(yml cpu)" = 1 ] || fail "cpu: $(yml cpu), the sample's info.json says 1"
bad=$(grep -v -e '^#' -e '^[a-z_]*: ' f1/info.yml)
[ -z "$bad" ] || fail "info.yml lines that are not 'key: value': $bad"
# and idlescope still reads info.json first (its name and toolname)
"$analyze" stats -F json f1 | grep -q '"toolname":[[:space:]]*"idlescope"' || fail "analyze no longer reads info.json first"

# A reportid with a quote, a backslash and a non-ASCII letter survives as YAML.
"$analyze" filter "$samples/bpf-c200" -o f2 --reportid "$(printf 'a"b\\c\xc3\xa9')" 2>/dev/null ||
	fail "analyze filter --reportid failed"
grep -qF 'reportid: "a\"b\\cé"' f2/info.yml || fail "reportid escaped wrongly: $(grep reportid f2/info.yml)"

# analyze stats: wult's metric lists and row-index functions on known data.
printf 'LDist,WakeLatency,IntrLatency,ReqCState\n5,3,1,C1\n2,9,1,C1\n7,1,4,C6\n2,9,0,C6\n' > t.csv
got=$("$analyze" stats -G -F csv -f min,min_index,max,max_index --include-metrics 'Wake.*,LDist' \
	--exclude-metrics LDist t.csv | tail -n +2 | cut -d, -f5-)
[ "$got" = "WakeLatency,1,2,9,1" ] || fail "metric lists / index funcs: got '$got'"
got=$("$analyze" stats -G -F csv -f min_index,max_index -i 'index > 0' -m '^LDist$' t.csv | tail -n +2 | cut -d, -f5-)
[ "$got" = "LDist,0,1" ] || fail "index funcs after --include (wult renumbers): got '$got'"
got=$("$analyze" stats -F csv -f min_index -m '^LDist$' t.csv | grep ',C6,' | cut -d, -f3,6)
[ "$got" = "C6,3" ] || fail "min_index in a group is the row number: got '$got'"
expect_fail 1 "'Foo' matches no column" "$analyze" stats --include-metrics Foo t.csv
expect_fail 2 "bad regular expression 'a\('" "$analyze" stats --exclude-metrics 'a(' t.csv
expect_fail 2 "min_index is a row number" "$analyze" diff -f min_index t.csv t.csv

if ! wult=$("$bench/peer_wult.sh" find 2>/dev/null); then
	note "wult not found: checked the files against wult's reader's rules only"
	exit $((fails > 0))
fi
note "wult found ($wult): wult calc, wult filter and wult report on idlescope's run"
"$wult" calc f1 > calc.txt 2> calc.err || fail "wult calc failed: $(cat calc.err)"
grep -q "Datapoints count: $("$analyze" stats -G -F csv -m '^LDist$' f1 | tail -1 | cut -d, -f4)" calc.txt ||
	fail "wult counts other datapoints: $(head -3 calc.txt)"
# wult prints 2 decimals: every function both compute agrees within rounding.
funcs=min,min_index,max,max_index,avg,med,std,99%,99.9%
"$analyze" stats -G -F csv -f $funcs f1 | tail -n +2 | cut -d, -f5- > ours.csv
n=$(awk -F, -v funcs=$funcs '
	NR == FNR { split(funcs, fn, ","); for (i = 2; i <= NF; i++) v[$1 ":" fn[i - 1]] = $i; next }
	/^[^ ].*:$/ { m = substr($0, 1, length($0) - 1); next }
	/^  / { split($0, w, " "); f = w[1]; sub(/:$/, "", f); k = m ":" f; if (!(k in v)) next
		d = v[k] - w[2]; if (d < 0) d = -d
		if (d > 0.0051) { print "differs: " k " wult " w[2] " idlescope " v[k] > "/dev/stderr"; bad++ }
		else ok++ }
	END { print ok + 0; exit (bad > 0) }' ours.csv calc.txt) || fail "wult calc and analyze stats differ"
[ "$n" -ge 30 ] || fail "only $n numbers compared"
note "wult calc and analyze stats agree on $n numbers"
"$wult" calc f2 2>&1 | grep -qF "Datapoints count: 200" || fail "wult calc cannot read the escaped reportid"
"$wult" filter --include 'LDist > 3000' -o wf f1 > /dev/null 2>&1 || fail "wult filter failed"
got=$("$analyze" stats -G -F csv -m '^LDist$' wf | tail -1 | cut -d, -f4)
want=$("$analyze" stats -G -F csv -m '^LDist$' -i 'LDist > 3000' f1 | tail -1 | cut -d, -f4)
[ "$got" = "$want" ] || fail "wult filter kept $got rows, analyze $want"
"$wult" report -o wr f1 > /dev/null 2>&1 || fail "wult report failed"
[ -s wr/index.html ] || fail "wult report wrote no index.html"
exit $((fails > 0))
