#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# No program takes a long option by abbreviation (lib/cli: cli_refuse_abbreviations): wult's
# "collect --report -c 10" is refused (exit 2, one line naming --report and --reportid) instead
# of naming the run "-c"; an ambiguous start is refused with all it could be; whole names,
# --NAME=VALUE, values that begin like an option after a short option, and anything after
# "--" still work as before. Nothing here collects: every command fails while parsing or
# only prints help.
# usage: no_abbrev.sh COLLECT ANALYZE REPORT
. "$(dirname "$0")/test-lib.sh"
abs() { case $1 in /*) echo "$1" ;; *) echo "$PWD/$1" ;; esac; }
COLLECT=$(abs "$1") ANALYZE=$(abs "$2") REPORT=$(abs "$3")
test_tmpdir W
cd "$W" || fail "cd $W"

# refused RC LINE CMD...: exit RC, stderr exactly LINE, nothing created in $W
refused() {
	want_rc=$1 want=$2
	shift 2
	"$@" >"$W/out" 2>"$W/err"
	rc=$?
	[ $rc -eq "$want_rc" ] || fail "'$*': exit $rc, expected $want_rc ($(cat "$W/err"))"
	[ "$(cat "$W/err")" = "$want" ] || fail "'$*': stderr '$(cat "$W/err")', expected '$want'"
	[ "$(ls -A "$W" | grep -v '^out$\|^err$')" = "" ] || fail "'$*' created $(ls -A "$W")"
}

refused 2 "collect: unknown option '--report' (long options are never abbreviated: --reportid?); try 'collect --help'" \
	"$COLLECT" --report -c 10
refused 2 "collect: unknown option '--report' (long options are never abbreviated: --reportid?); try 'collect --help'" \
	"$COLLECT" --report=x -c 10
refused 2 "collect: unknown option '--coun' (long options are never abbreviated: --count or --counters-interval?); try 'collect --help'" \
	"$COLLECT" -q --coun 5
refused 2 "collect: unknown option '--inter' (long options are never abbreviated: --interval?); try 'collect --counters --help'" \
	"$COLLECT" --counters --inter 1 -o x
refused 2 "analyze: stats: unknown option '--inc' (long options are never abbreviated: --include-metrics or --include?); try 'analyze stats --help'" \
	"$ANALYZE" stats --inc "x > 1" r
refused 2 "analyze: diff: unknown option '--no' (long options are never abbreviated: --no-group or --no-cache?); try 'analyze diff --help'" \
	"$ANALYZE" diff --no a b
refused 2 "analyze: filter: unknown option '--out' (long options are never abbreviated: --outdir?); try 'analyze filter --help'" \
	"$ANALYZE" filter --out x r
refused 2 "analyze: cache: unknown option '--inf' (long options are never abbreviated: --info?); try 'analyze cache --help'" \
	"$ANALYZE" cache --inf
refused 2 "report: unknown option '--out' (long options are never abbreviated: --output?); try 'report --help'" \
	"$REPORT" --out x r
# the message names the option without its =VALUE (which may hold anything)
refused 2 "report: unknown option '--outp' (long options are never abbreviated: --output?); try 'report --help'" \
	"$REPORT" "--outp=$(printf '\033')x" r

# whole names, =VALUE, a value after a short option, a value of a long option, after --
"$ANALYZE" stats --include --inc --help >/dev/null || fail "analyze stats --include --inc: the value of --include taken as an option"
refused 2 "collect: option '-o' needs a value, got the option '--rep' (write -o--rep if it is meant); try 'collect --help'" \
	"$COLLECT" -o --rep
"$COLLECT" --help >/dev/null || fail "collect --help"
"$ANALYZE" stats --include= --help >/dev/null 2>&1 || fail "analyze stats --include= --help: the empty value taken as an abbreviation"
"$ANALYZE" stats -i --inc --help >/dev/null || fail "analyze stats -i --inc: the value of -i taken as an option"
"$ANALYZE" stats --help -- --inc >/dev/null || fail "analyze stats -- --inc: an operand after -- taken as an option"
"$REPORT" --help >/dev/null || fail "report --help"
note "abbreviated long options refused by collect, collect --counters, analyze stats/diff/filter/cache, report"
