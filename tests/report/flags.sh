#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# report: flags (IntrOff) as values / set / share, not as metrics; columns without values left
# out with one note (issue 19). Figures computed here by awk, p-values against analyze diff.
# usage: flags.sh REPORT ANALYZE SHARED_DATA TIMER_SAMPLE
set -eu
REPORT=$1 ANALYZE=$2 DATA=$3 TIMER=$4
. "$(dirname "$0")/lib.sh"

# bpf_run DIR ROWS MOD: IntrOff is 1 on rows i with i % MOD == 0 or i % 5 == 1; ReqCState C1 on
# even rows, C6 on odd ones; every 50th row has no IntrOff.
bpf_run() {
	mkdir -p "$1"
	awk -v n="$2" -v mod="$3" 'BEGIN {
		print "WakeLatency,IntrLatency,IntrOff,LDist,SilentTime,ReqCState"
		for (i = 0; i < n; i++) {
			off = (i % mod == 0 || i % 5 == 1) ? 1 : 0
			if (i % 50 == 49) off = ""
			printf "%.3f,%.3f,%s,%d,%d,%s\n", 10 + (i * 7919 % 97) / 10, 5 + (i % 13) / 10, off,
				1000 + i, 990 + i, i % 2 ? "C6" : "C1"
		}
	}' >"$1/datapoints.csv"
}

# counts CSV [STATE]: "values set share" of IntrOff, by awk
counts() {
	awk -F, -v st="${2:-}" 'NR > 1 && (st == "" || $6 == st) && $3 != "" { v++; s += $3 == 1 }
		END { printf "%d %d %.2f%%\n", v, s, 100 * s / v }' "$1"
}

# flag_row HTML NAME: the Flags table's row of run/configuration NAME as "values set share"
flag_row() {
	sed -n '/<section id="flags"/,/<\/section>/p' "$1" | sed -n '/table class="summary flags"/,/<\/table>/p' |
		grep "</span>$2\( <small>[^<]*</small>\)\?</th>" | grep -o '<td class="num">[^<]*</td>' |
		sed 's/<[^>]*>//g' | head -3 | tr '\n' ' ' | sed 's/ $//; s/,//g'
}

# no_dash_rows HTML: no table row whose cells after the first (the datapoints) are all dashes
# ("-", an em dash) or empty: the summary of a column without values
no_dash_rows() {
	perl -CSD -0ne 'while (m{<tr>(.*?)</tr>}gs) { my $r = $1; my @td = $r =~ m{<td[^>]*>(.*?)</td>}gs;
		shift @td; next unless @td > 1; my $vals = grep { !/^(-|\x{2014}|&mdash;|)$/ } @td;
		print "$r\n" unless $vals }' "$1" >"$W/dash.txt"
	[ ! -s "$W/dash.txt" ] || fail "$1: rows of dashes: $(head -c 300 "$W/dash.txt")"
}

# not_a_metric HTML PLOTDIR NAME: no section, nav link, percentile table or plot of NAME
not_a_metric() {
	! grep -q "<h2>$3\( <span\|</h2>\)" "$1" || fail "$1: a metric section for $3"
	! grep -q "<a href=\"#m[0-9]*\">$3</a>" "$1" || fail "$1: a nav link for metric $3"
	! grep -qi "alt=\"[^\"]*$3" "$1" || fail "$1: a plot of $3"
	if [ -d "$2" ]; then
		! grep -l "$3" "$2"/*.gp >/dev/null 2>&1 || fail "$2: a gnuplot script plots $3"
	fi
}

# 1. a timer run: IntrLatency and IntrOff have no values: one note, one line, no rows of dashes
expect_rc 0 "$REPORT" "$TIMER" -o "$W/timer" --keep-plot-data
[ "$(grep -c 'note: no values' "$W/err.txt")" = 1 ] || fail "timer: not one note: $(cat "$W/err.txt")"
grep -qx 'report: note: no values in IntrLatency, IntrOff; left out' "$W/err.txt" ||
	fail "timer: note: $(cat "$W/err.txt")"
grep -q '<p class="note">No values in IntrLatency, IntrOff; left out (no table, no plot).</p>' "$W/timer/index.html" ||
	fail "timer: no line on the page"
for c in IntrLatency IntrOff; do not_a_metric "$W/timer/index.html" "$W/timer/plot-data" "$c"; done
! grep -q 'id="flags"' "$W/timer/index.html" || fail "timer: a Flags section without flags"
grep -q '<h2>WakeLatency' "$W/timer/index.html" || fail "timer: WakeLatency missing"
no_dash_rows "$W/timer/index.html"
echo "ok: timer run: IntrLatency, IntrOff left out with one note, no rows of dashes"

# 2. one bpf-like run: IntrOff as values / set / share, overall and per idle state
bpf_run "$W/a" 1000 3
expect_rc 0 "$REPORT" "$W/a" -o "$W/ra" --keep-plot-data
! grep -q 'note: no values' "$W/err.txt" || fail "a: a note for columns that have values"
read -r v s sh <<<"$(counts "$W/a/datapoints.csv")"
[ "$v $s $sh" = "980 460 46.94%" ] || fail "a: awk counts $v $s $sh (the generator changed?)"
got=$(flag_row "$W/ra/index.html" a)
[ "$got" = "$v $s $sh" ] || fail "a: flags row '$got', expected '$v $s $sh'"
for st in C1 C6; do
	read -r v s sh <<<"$(counts "$W/a/datapoints.csv" "$st")"
	grep -q "<th rowspan=\"1\">$st</th><th rowspan=\"1\">IntrOff</th><th><span[^>]*></span>a</th><td class=\"num\">$v</td><td class=\"num\">$s</td><td class=\"num\">$sh</td>" "$W/ra/index.html" ||
		fail "a: per-state row $st: $v $s $sh"
done
not_a_metric "$W/ra/index.html" "$W/ra/plot-data" IntrOff
grep -q '<a href="#flags">Flags</a>' "$W/ra/index.html" || fail "a: no nav link to the flags"
no_dash_rows "$W/ra/index.html"
echo "ok: one run: IntrOff 980 values, 460 set, 46.94%, per state too; no percentiles or plots"

# 3. two configurations of one run: the shares and analyze diff's proportion test
bpf_run "$W/b" 600 2
expect_rc 0 "$REPORT" "$W/a" "$W/b" -o "$W/rab"
read -r v s sh <<<"$(counts "$W/b/datapoints.csv")"
got=$(flag_row "$W/rab/index.html" b)
[ "$got" = "$v $s $sh" ] || fail "a vs b: flags row of b '$got', expected '$v $s $sh'"
"$ANALYZE" diff "$W/a" "$W/b" >"$W/diff.txt" 2>/dev/null || fail "analyze diff failed"
line=$(grep -E '^IntrOff +b ' "$W/diff.txt") || fail "analyze diff: no IntrOff line"
read -r _ _ _ _ _ change _ p test <<<"$line"
grep -q "<td class=\"num\">$change pts</td><td class=\"num\">$p</td><td class=\"differs\">$test</td>" "$W/rab/index.html" ||
	fail "a vs b: test cells, expected $change pts, p $p, $test (analyze diff: $line)"
# the share difference by awk: b's share minus a's, in points
want=$(awk -v a="$(counts "$W/a/datapoints.csv")" -v b="$(counts "$W/b/datapoints.csv")" 'BEGIN {
	split(a, x, " "); split(b, y, " "); printf "%+.2f", 100 * (y[2] / y[1] - x[2] / x[1]) }')
[ "$change" = "$want" ] || fail "a vs b: change $change, awk $want"
! grep -q 'IntrOff: median\|— IntrOff' "$W/rab/index.html" || fail "a vs b: a verdict (Welch/Mann-Whitney) for IntrOff"
not_a_metric "$W/rab/index.html" "" IntrOff
no_dash_rows "$W/rab/index.html"
echo "ok: a vs b: b's share $sh, change $change pts, p $p ($test) as analyze diff"

# 4. replicates: Welch's t on the runs' shares
bpf_run "$W/a2" 900 4
bpf_run "$W/b2" 700 7
expect_rc 0 "$REPORT" "$W/a,$W/a2" "$W/b,$W/b2" -o "$W/rrep"
"$ANALYZE" diff "$W/a,$W/a2" "$W/b,$W/b2" >"$W/diff2.txt" 2>/dev/null || fail "analyze diff (replicates) failed"
line=$(grep -E '^IntrOff +b ' "$W/diff2.txt") || fail "analyze diff: no IntrOff line for replicates"
read -r _ _ v s sh change _ p test <<<"$line"
grep -q "</span>b <small>(2 runs)</small></th><td class=\"num\">$(echo "$v" | sed ':a; s/\B[0-9]\{3\}\>/,&/; ta')</td><td class=\"num\">$s</td><td class=\"num\">$sh</td><td class=\"num\">$change pts</td><td class=\"num\">$p</td><td class=\"[a-z]*\">$test" "$W/rrep/index.html" ||
	fail "replicates: expected $v $s $sh $change pts p $p $test"
case "$test" in welch-run-shares,*) ;; *) fail "replicates: test '$test'" ;; esac
echo "ok: replicates: $test, p $p"

# 5. the wult sample: IntrOff 0/1 is a flag (9 of 9 set)
expect_rc 0 "$REPORT" "$DATA/wult-good" -o "$W/wult" --keep-plot-data
got=$(flag_row "$W/wult/index.html" testdata)  # its report ID
want=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "IntrOff") c = i; next }
	$c != "" { v++; s += $c == 1 } END { printf "%d %d %.2f%%", v, s, 100 * s / v }' "$DATA/wult-good/datapoints.csv")
[ "$got" = "$want" ] || fail "wult-good: flags row '$got', expected '$want'"
not_a_metric "$W/wult/index.html" "$W/wult/plot-data" IntrOff
no_dash_rows "$W/wult/index.html"
echo "ok: wult-good: IntrOff $want"
echo "all report flag tests passed"
