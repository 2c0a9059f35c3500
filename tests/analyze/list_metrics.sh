#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# analyze stats --list-metrics: the known metrics with unit and description, or a run's columns.
# usage: list_metrics.sh ANALYZE SAMPLES_DIR
set -u
TEST_KEEP_GOING=1
. "$(dirname "$0")/../common/test-lib.sh"
analyze=$1 samples=$2
out=$("$analyze" stats --list-metrics) || fail "exit status $?"
echo "$out" | grep -q '^WakeLatency *us *TAI - LTime: from the due time to the CPU running again after idle$' || fail "WakeLatency line: $out"
echo "$out" | grep -q '^IntrOff *0/1 ' || fail "IntrOff line"
[ "$(echo "$out" | head -1)" = "Metric         Unit   Description" ] || fail "header"
out=$("$analyze" stats --list-metrics "$samples/wult-good") || fail "with a run: exit $?"
[ "$(echo "$out" | sed -n 1p)" = "testdata ($samples/wult-good):" ] || fail "run line: $(echo "$out" | head -1)"
[ "$(echo "$out" | grep -c '^[A-Za-z]')" = 16 ] || fail "expected the run line, the header and 14 columns: $out"
echo "$out" | grep -q '^PC6% *% *package C-state C6 residency during the datapoint$' || fail "PC6% line"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
printf 'Foo,LDist\n1,2\n' > "$tmp/d.csv"
"$analyze" stats --list-metrics "$tmp/d.csv" | grep -q '^Foo *? *(not known to idlescope)$' || fail "unknown column"
"$analyze" stats --list-metrics "$tmp/none" 2>/dev/null; [ $? = 1 ] || fail "missing run: not exit 1"
[ "$fails" = 0 ] && echo "list-metrics: all checks passed"
exit $((fails > 0))
