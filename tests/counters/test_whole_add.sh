#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# analyze counters --whole (one interval over the run) and an --add counter that cannot be
# read, which is reported even with -q.
# usage: test_whole_add.sh COLLECT ANALYZE SAMPLE_RUN
set -eu
COLLECT=$1 ANALYZE=$2 RUN=$3
. "$(dirname "$0")/lib.sh"
T=$(mktemp -d)
test_when_finished 'rm -rf "$T"'
q() { jq -c "$1" "$T/$2.json"; }
"$ANALYZE" counters -S --format json "$RUN" > "$T/iv.json" 2>/dev/null
"$ANALYZE" counters --whole -S --format json "$RUN" > "$T/whole.json" 2>/dev/null
n=$(q '.intervals | length' iv)
[ "$n" -gt 1 ] || fail "the sample has $n intervals; need several"
eq "--whole: one interval" "$(q '.intervals | length' whole)" 1
eq "--whole: from the first snapshot" "$(q '.intervals[0].t0' whole)" "$(q '.intervals[0].t0' iv)"
eq "--whole: to the last snapshot" "$(q '.intervals[0].t1' whole)" "$(q '.intervals[-1].t1' iv)"
eq "--whole: IRQ is the sum of the intervals'" "$(q '.intervals[0].summary.IRQ' whole)" "$(q '[.intervals[].summary.IRQ] | add' iv)"
"$ANALYZE" counters -w -S "$RUN" 2>/dev/null | grep -q '^# interval 1: ' || fail "-w text"
[ "$("$ANALYZE" counters -w -S "$RUN" 2>/dev/null | grep -c '^# interval')" = 1 ] || fail "-w: more than one interval"

# An --add counter this machine cannot read: one warning naming it, with and without -q.
add=/sys/devices/system/cpu/cpu%d/no_such_counter,u64,NOPE
"$COLLECT" --counters -q -n 2 -i 0.05 --add "$add" -o "$T/q" 2> "$T/q.err" || fail "collect -q: $(cat "$T/q.err")"
eq "-q: the failed --add is reported" "$(grep -c 'NOPE unavailable: ' "$T/q.err")" 1
eq "-q: nothing else" "$(grep -vc 'NOPE unavailable' "$T/q.err" || true)" 0
"$COLLECT" --counters -n 2 -i 0.05 --add "$add" -o "$T/v" 2> "$T/v.err" || fail "collect: $(cat "$T/v.err")"
eq "without -q: reported once" "$(grep -c 'NOPE unavailable: ' "$T/v.err")" 1
echo "whole and add: all checks passed"
