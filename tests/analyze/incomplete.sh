#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# A run whose info.json says "complete": false (killed, stopped by a signal): analyze stats,
# diff, counters and report say so, once per run, with the reason; complete and wult runs
# get no such warning. The report's intro says it too.
# usage: incomplete.sh ANALYZE REPORT COLLECT SHARED_DATA
set -u
TEST_KEEP_GOING=1
. "$(dirname "$0")/../common/test-lib.sh"
analyze=$1 report=$2 collect=$3 shared=$4
tmp=$(mktemp -d)
test_when_finished 'rm -rf "$tmp"'

# check WANT_RC WANT_STDERR CMD... : exit status and the whole of stderr
check() {
	local want_rc=$1 want_err=$2
	shift 2
	"$@" >"$tmp/out" 2>"$tmp/err"
	local rc=$?
	[ "$rc" = "$want_rc" ] && [ "$(cat "$tmp/err")" = "$want_err" ] ||
		fail "$*: exit $rc (want $want_rc), stderr '$(cat "$tmp/err")', want '$want_err'"
}

# mkrun NAME INFO_JSON: wult-good's datapoints with this info.json ("" = none, as wult)
mkrun() {
	mkdir -p "$tmp/$1"
	cp "$shared/wult-good/datapoints.csv" "$tmp/$1/"
	[ -z "$2" ] || printf '%s\n' "$2" >"$tmp/$1/info.json"
}
mkrun killed '{"toolname": "idlescope", "complete": false, "stop_reason": "running", "datapoints": 9}'
mkrun sigint '{"toolname": "idlescope", "complete": false, "stop_reason": "signal SIGINT", "datapoints": 9}'
mkrun whole '{"toolname": "idlescope", "complete": true, "stop_reason": "count", "datapoints": 9}'
mkrun wult ''
cp "$shared/wult-good/info.yml" "$tmp/wult/"
mkrun nostop '{"complete": false}'
mkrun hostile "{\"complete\": false, \"stop_reason\": \"a\\u001b[31mb\"}"

w_killed="analyze: warning: $tmp/killed: incomplete run: info.json says \"complete\": false, \"stop_reason\": \"running\" (the collector was killed, or is still running)"
w_sigint="analyze: warning: $tmp/sigint: incomplete run: info.json says \"complete\": false, \"stop_reason\": \"signal SIGINT\""
check 0 "$w_killed" "$analyze" stats -f count "$tmp/killed"
check 0 "$w_sigint" "$analyze" stats -f count "$tmp/sigint"
check 0 "" "$analyze" stats -f count "$tmp/whole"
check 0 "" "$analyze" stats -f count "$tmp/wult"
check 0 "analyze: warning: $tmp/nostop: incomplete run: info.json says \"complete\": false" \
	"$analyze" stats -f count "$tmp/nostop"
check 0 "analyze: warning: $tmp/hostile: incomplete run: info.json says \"complete\": false, \"stop_reason\": \"a\\x1b[31mb\"" \
	"$analyze" stats -f count "$tmp/hostile"
# the figures are those of the datapoints, warning or not
"$analyze" stats -F json -f count "$tmp/killed" 2>/dev/null | jq -e '.runs[0].rows == 9' >/dev/null || fail "stats of the killed run"
# a bare datapoints.csv in the run directory is the same run
check 0 "${w_killed/$tmp\/killed/$tmp/killed/datapoints.csv}" "$analyze" stats -f count "$tmp/killed/datapoints.csv"

# diff: one warning per incomplete run, in either position, none for the complete one
"$analyze" diff "$tmp/killed" "$tmp/whole" "$tmp/sigint" >/dev/null 2>"$tmp/err" || fail "diff: exit $?"
[ "$(grep -c 'incomplete run' "$tmp/err")" = 2 ] && grep -qxF "$w_killed" "$tmp/err" && grep -qxF "$w_sigint" "$tmp/err" ||
	fail "diff warnings: $(cat "$tmp/err")"

# report: one warning per run on stderr, and the intro says it
"$report" "$tmp/killed" "$tmp/whole" -o "$tmp/rep" >/dev/null 2>"$tmp/err" || fail "report: exit $?"
[ "$(cat "$tmp/err")" = "${w_killed/analyze:/report:}" ] || fail "report stderr: $(cat "$tmp/err")"
grep -qF '<p class="incomplete"><strong>Incomplete run</strong> killed: info.json says &quot;complete&quot;: false, &quot;stop_reason&quot;: &quot;running&quot; (the collector was killed, or is still running). Its datapoints are those written before it stopped.</p>' \
	"$tmp/rep/index.html" || fail "report intro: no incomplete-run note"
[ "$(grep -c 'class="incomplete"' "$tmp/rep/index.html")" = 1 ] || fail "report intro: a note for the complete run"
grep -qF '<tr class="differs"><th>Complete</th><td>no</td><td>yes</td></tr>' "$tmp/rep/index.html" ||
	fail "report intro: Complete row"
"$report" "$tmp/whole" -o "$tmp/rep2" >/dev/null 2>"$tmp/err" || fail "report of a complete run: exit $?"
[ ! -s "$tmp/err" ] && ! grep -q 'class="incomplete"' "$tmp/rep2/index.html" || fail "complete run reported as incomplete"

# analyze counters: a counter run that did not reach its -n
if "$collect" --counters -q -i 0.05 -n 1 -o "$tmp/ctr" 2>/dev/null; then
	jq '.complete = false | .stopped_by = "Hangup"' "$tmp/ctr/info.json" >"$tmp/i" && mv "$tmp/i" "$tmp/ctr/info.json"
	"$analyze" counters "$tmp/ctr" >/dev/null 2>"$tmp/err" || fail "analyze counters: exit $?"
	[ "$(grep -c 'incomplete run' "$tmp/err")" = 1 ] &&
		grep -qxF "analyze: warning: $tmp/ctr: incomplete run: info.json says \"complete\": false, \"stopped_by\": \"Hangup\"" "$tmp/err" ||
		fail "analyze counters: $(cat "$tmp/err")"
else
	fail "collect --counters -n 1 failed"
fi

[ "$fails" = 0 ] && echo PASS || { echo "$fails failures"; exit 1; }
