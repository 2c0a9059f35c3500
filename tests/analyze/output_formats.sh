#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# analyze stats and analyze diff: every number in the JSON output is the same double as in the
# CSV output (JSON used to print 1.0000000000000002 as 1 and 1.7976931348623157e308 as
# 1.79769313486232e+308, which reads back as inf), and the CSV quotes fields and tells group
# rows from all-datapoints rows. Compared with jq, which parses numbers on its own.
# usage: output_formats.sh ANALYZE
set -u
TEST_KEEP_GOING=1
. "$(dirname "$0")/../common/test-lib.sh"
case $1 in /*) analyze=$1 ;; *) analyze=$PWD/$1 ;; esac   # the runs are given from $tmp
tmp=$(mktemp -d)
test_when_finished 'rm -rf "$tmp"'

mkrun() { mkdir -p "$tmp/$1"; printf '%s' "$2" > "$tmp/$1/datapoints.csv"; }
# One value per group, so that every function of a group gives that value back exactly.
mkrun r1 'Grp,V,W
x,1.0000000000000002,200
y,0.30000000000000004,1e16
m,1.7976931348623157e308,3
s,5e-324,4
l,123456789012345678,5
t,0.1,1234567890123456
"a,b",2.5,6
"q""uote",-0,7
"",1e-320,8
'
mkrun r2 'Grp,V,W
x,1.0000000000000004,201
y,0.1,1e16
m,1e308,3
s,1e-320,4
l,123456789012345679,6
t,0.7,9007199254740993
"a,b",3.5,6
"q""uote",0,7
"",2e-323,8
'
funcs=count,min,max,avg,std,med,25%,99.9%

# A jq function splitting one CSV line (RFC 4180, no line breaks inside fields).
csvsplit='def csvsplit: [("," + .) | scan(",(\"(?:[^\"]|\"\")*\"|[^,]*)") | .[0]
	| if startswith("\"") then .[1:-1] | gsub("\"\""; "\"") else . end];
	def same($t; $x): if $t == "" then $x == null else $x != null and ($t | tonumber) + 0 == $x + 0 end;
	def show: if type == "number" and isinfinite then "inf (as jq reads it)" else . end;'

# --- analyze stats ---------------------------------------------------------------------------
(cd "$tmp" && "$analyze" stats -F json --by Grp -f "$funcs" r1 r2) > "$tmp/s.json" 2> "$tmp/err" ||
	fail "stats -F json: $(cat "$tmp/err")"
(cd "$tmp" && "$analyze" stats -F csv --by Grp -f "$funcs" r1 r2) > "$tmp/s.csv" 2> "$tmp/err" ||
	fail "stats -F csv: $(cat "$tmp/err")"

want_header="run,by,group,rows,metric,$funcs"
[ "$(head -1 "$tmp/s.csv")" = "$want_header" ] || fail "stats csv header: $(head -1 "$tmp/s.csv")"
# quoting, and by: empty for all datapoints, the column for a group (whose value may be empty)
for line in 'r1,,,9,V,9,' 'r1,Grp,,1,V,1,' 'r1,Grp,"a,b",1,W,1,6,6,6,,6,6,6' 'r1,Grp,"q""uote",1,W,1,7,7,7,,7,7,7' \
	'r1,Grp,x,1,V,1,1.0000000000000002,1.0000000000000002,1.0000000000000002,,1.0000000000000002,1.0000000000000002,1.0000000000000002'; do
	grep -qF -- "$line" "$tmp/s.csv" || fail "stats csv: no line starting '$line'"
done
n=$(awk 'END { print NR }' "$tmp/s.csv")
[ "$n" = $((1 + 2 * 2 * 10)) ] || fail "stats csv: $n lines, expected 41"

# every value of the CSV equals the JSON's, and the JSON has no value the CSV lacks
jq -n -r -R --slurpfile j "$tmp/s.json" "$csvsplit"'
	[inputs | csvsplit] as $rows | $rows[0] as $h | $j[0].runs as $runs
	| [$rows[1:][] as $r | ($runs[] | select(.reportid == $r[0])) as $run
	   | (if $r[1] == "" then $run else ($run.groups[$r[2]] // {}) end) as $part
	   | (if $r[1] != "" and $run.group_by != $r[1] then "\($r[0]): group_by \($run.group_by), csv by \($r[1])" else empty end),
	     (if same($r[3]; $part.rows) then empty else "\($r[0]) [\($r[2])] rows: csv \($r[3]), json \($part.rows)" end),
	     (range(5; $h | length) as $i | $part.metrics[$r[4]][$h[$i]] as $x
	      | if same($r[$i]; $x) then empty else "\($r[0]) [\($r[1])=\($r[2])] \($r[4]) \($h[$i]): csv \($r[$i]), json \($x | show)" end)]
	+ [([$runs[] | (.metrics, .groups[].metrics)[][]] | length) as $nj
	   | ([$rows[1:][] | .[5:][]] | length) as $nc
	   | if $nj == $nc then empty else "\($nj) values in JSON, \($nc) in CSV" end]
	| .[]' < "$tmp/s.csv" > "$tmp/diffs" 2> "$tmp/err" || fail "jq on stats output: $(cat "$tmp/err")"
[ -s "$tmp/diffs" ] && fail "stats: JSON and CSV differ:"$'\n'"$(head -20 "$tmp/diffs" | sed 's/^/  /')"

# the JSON text itself: exact digits, integers as integers, undefined values as null
tr -d ' \t\n' < "$tmp/s.json" > "$tmp/s.flat"
for want in '"min":1.0000000000000002,' '"min":0.30000000000000004,' '"min":1.7976931348623157e+308,' \
	'"min":5e-324,' '"min":1e-320,' '"min":1.2345678901234568e+17,' '"min":0.1,' '"min":-0,' \
	'"min":200,' '"min":10000000000000000,' '"min":1234567890123456,' '"min":9007199254740992,' \
	'"rows":9,' '"count":1,' '"std":null,'; do
	grep -qF -- "$want" "$tmp/s.flat" || fail "stats json: no $want"
done
grep -qE ':-?[0-9.]+e\+?0?[0-9],' "$tmp/s.flat" && fail "stats json: a small number in exponent form: $(grep -oE ':-?[0-9.]+e\+?0?[0-9],' "$tmp/s.flat" | head -3)"

# --- analyze diff ----------------------------------------------------------------------------
(cd "$tmp" && "$analyze" diff -F json --by Grp -f "$funcs" r1 r2) > "$tmp/d.json" 2> "$tmp/err" ||
	fail "diff -F json: $(cat "$tmp/err")"
(cd "$tmp" && "$analyze" diff -F csv --by Grp -f "$funcs" r1 r2) > "$tmp/d.csv" 2> "$tmp/err" ||
	fail "diff -F csv: $(cat "$tmp/err")"
jq -n -r -R --slurpfile j "$tmp/d.json" "$csvsplit"'
	[inputs | csvsplit] as $rows | $j[0] as $d
	| ([$d.configs[].name] | to_entries | map({(.value): .key}) | add) as $ri
	| {mw_u: ["mw_u"], mw_p: ["mw_p"], ks_d: ["ks_d"], ks_p: ["ks_p"], med_diff: ["med_diff"],
	   ci95_lo: ["med_diff_ci95", 0], ci95_hi: ["med_diff_ci95", 1], significant: ["significant"],
	   differs: ["differs"], level: ["level"], replicates_ref: ["replicates", 0],
	   replicates: ["replicates", 1]} as $tp
	| $rows[1:][] as $r | $ri[$r[5]] as $k
	| (if $r[1] == "" then $d else $d.groups[$r[2]] end).metrics[$r[3]] as $m
	| if $r[0] == "stat" then
		(range(3) as $i | ["values", "change", "pct"][$i] as $what | $m[$r[4]][$what][$k] as $x
		 | if same($r[6 + $i]; $x) then empty else "\($r[2]) \($r[3]) \($r[4]) \($r[5]) \($what): csv \($r[6 + $i]), json \($x | show)" end)
	  elif $r[0] == "test" then
		($m.tests[$k] | getpath($tp[$r[4]])
		 | if type == "boolean" then (if . then 1 else 0 end) elif . == "run" then 1
		   elif . == "datapoint" then 0 else . end) as $x
		| if same($r[6]; $x) then empty else "\($r[2]) \($r[3]) \($r[4]) \($r[5]): csv \($r[6]), json \($x | show)" end
	  else "unexpected row: \($r)" end' < "$tmp/d.csv" > "$tmp/diffs" 2> "$tmp/err" || fail "jq on diff output: $(cat "$tmp/err")"
[ -s "$tmp/diffs" ] && fail "diff: JSON and CSV differ:"$'\n'"$(head -20 "$tmp/diffs" | sed 's/^/  /')"
n=$(grep -c '^stat,' "$tmp/d.csv")
[ "$n" = $((2 * 10 * 8 * 2)) ] || fail "diff csv: $n stat rows, expected 320"
tr -d ' \t\n' < "$tmp/d.json" > "$tmp/d.flat"
for want in '"values":[1.0000000000000002,1.0000000000000004]' '"values":[1.7976931348623157e+308,1e+308]' \
	'"values":[200,201]' '"rows":[1,1]'; do
	grep -qF -- "$want" "$tmp/d.flat" || fail "diff json: no $want"
done

# --- CSV quoting of a carriage return in a group value ---------------------------------------
mkrun cr $'Grp,V\n"c\rr",2\n'
(cd "$tmp" && "$analyze" stats -F csv --by Grp -f count cr) > "$tmp/cr.csv" 2> "$tmp/err" || fail "stats cr: $(cat "$tmp/err")"
printf 'run,by,group,rows,metric,count\ncr,,,1,V,1\ncr,Grp,"c\rr",1,V,1\n' | cmp -s - "$tmp/cr.csv" ||
	fail "stats csv with a CR in a group: $(od -c "$tmp/cr.csv" | head -5)"

# CSV writes the same shortest round-trip text as JSON: 75.799, not 75.799000000000007.
mkrun sh 'V
75.799
0.1
'
mkrun sh2 'V
75.799
0.3
'
got=$("$analyze" stats -F csv -G -f max,min "$tmp/sh" | tail -1)
[ "$got" = "sh,,,2,V,75.799,0.1" ] || fail "stats csv shortest numbers: $got"
"$analyze" stats -F json -G -f max "$tmp/sh" | grep -q '"max":[[:space:]]*75.799$' || fail "stats json 75.799"
"$analyze" diff -F csv "$tmp/sh" "$tmp/sh2" > "$tmp/d.csv" 2>&1
grep -q '75\.79900' "$tmp/d.csv" && fail "diff csv has 17-digit numbers: $(grep 75.799 "$tmp/d.csv" | head -2)"
grep -q ',75\.799\(,\|$\)' "$tmp/d.csv" || fail "diff csv lacks 75.799: $(head -5 "$tmp/d.csv")"

echo "$fails failure(s)"
[ $fails = 0 ]
