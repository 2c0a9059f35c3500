#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Old and unknown result formats: a format_version we do not know is one warning (as wult
# warns) and the run is read; wult's old "cpunum" key is read as "cpu".
# usage: old_results.sh ANALYZE SAMPLES_DIR
set -u
TEST_KEEP_GOING=1
. "$(dirname "$0")/../common/test-lib.sh"
analyze=$1 samples=$2
tmp=$(mktemp -d)
test_when_finished 'rm -rf "$tmp"'
mkdir "$tmp/old"
cp "$samples/wult-good/datapoints.csv" "$tmp/old/"
sed -e "s/format_version: '1.2'/format_version: '0.9'/" -e 's/^cpu: 0/cpunum: 3/' \
	"$samples/wult-good/info.yml" > "$tmp/old/info.yml"
"$analyze" stats -F csv -G -f count,max -m '^WakeLatency$' "$tmp/old" > "$tmp/a" 2> "$tmp/err" || fail "stats: $(cat "$tmp/err")"
[ "$(cat "$tmp/err")" = "analyze: warning: $tmp/old/info.yml: format_version '0.9' is not one this reader knows (wult 1.0 to 1.3); reading it as the newest known, some columns or keys may be misread" ] ||
	fail "warning: $(cat "$tmp/err")"
"$analyze" stats -F csv -G -f count,max -m '^WakeLatency$' "$samples/wult-good" > "$tmp/b" 2> "$tmp/err2"
[ -s "$tmp/err2" ] && fail "a known wult version warns: $(cat "$tmp/err2")"
[ "$(cut -d, -f2- "$tmp/a")" = "$(cut -d, -f2- "$tmp/b")" ] || fail "numbers differ"
# cpunum is cpu: it reaches the metadata a filtered copy carries.
"$analyze" filter "$tmp/old" -o "$tmp/f" 2>/dev/null || fail "filter"
[ "$(jq .cpu "$tmp/f/info.json")" = 3 ] || fail "cpu from cpunum: $(jq .cpu "$tmp/f/info.json")"
# A cpu key wins over cpunum.
printf 'cpu: 1\ncpunum: 3\ntoolname: wult\nformat_version: "1.2"\n' > "$tmp/old/info.yml"
"$analyze" filter "$tmp/old" -o "$tmp/g" 2>/dev/null || fail "filter 2"
[ "$(jq .cpu "$tmp/g/info.json")" = 1 ] || fail "cpu with both keys: $(jq .cpu "$tmp/g/info.json")"
# idlescope: any 1.x is known, 2.0 is not.
mkdir "$tmp/i"
printf 'LDist\n1\n' > "$tmp/i/datapoints.csv"
printf '{"toolname": "idlescope", "format_version": "1.7"}' > "$tmp/i/info.json"
[ -z "$("$analyze" stats "$tmp/i" 2>&1 >/dev/null)" ] || fail "1.7 warns"
printf '{"toolname": "idlescope", "format_version": "2.0"}' > "$tmp/i/info.json"
"$analyze" stats "$tmp/i" 2>&1 >/dev/null | grep -q "info.json: format_version '2.0' is not one this reader knows (idlescope 1.1 and other 1.x)" ||
	fail "2.0: $("$analyze" stats "$tmp/i" 2>&1 >/dev/null)"
# This version writes 1.1 (analyze filter's info.json) and reads 1.0 and 1.1 without a word.
for v in 1.0 1.1; do
	printf '{"toolname": "idlescope", "format_version": "%s"}' "$v" > "$tmp/i/info.json"
	[ -z "$("$analyze" stats "$tmp/i" 2>&1 >/dev/null)" ] || fail "$v warns"
done
"$analyze" filter "$tmp/i" -o "$tmp/i11" 2>/dev/null || fail "filter 1.1"
[ "$(jq -r .format_version "$tmp/i11/info.json")" = 1.1 ] || fail "written: $(jq -r .format_version "$tmp/i11/info.json")"
[ "$fails" = 0 ] && echo "old results: all checks passed"
exit $((fails > 0))
