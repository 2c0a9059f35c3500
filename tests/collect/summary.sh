#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# The end-of-run summary: on stderr when it is not a terminal, its numbers those of info.json
# and datapoints.csv; nothing with -q. (Exact text and the warning: test_summary.c.)
. "$(dirname "$0")/lib.sh"
command -v jq >/dev/null || fail "jq not installed (scripts/deps/collect.txt)"

retry_busy "$COLLECT" --method timer -c 100 -l 500us --cpu "$CPU" --no-counters -o "$TMP/s" 2>"$TMP/s.err" ||
	fail "timer run: $(cat "$TMP/s.err")"
cat "$TMP/s.err"
nd=$(jq '[.discards[]] | add' "$TMP/s/info.json")
grep -Eq "^collect: 100 datapoints kept in [0-9.]+s \([0-9.]+/s\), ($nd discarded \([0-9.]+% of $((100 + nd)) attempts\): |none discarded)" "$TMP/s.err" ||
	fail "no summary line with 100 kept and $nd discarded"
for r in not_idle other_wake; do
	n=$(jq ".discards.$r" "$TMP/s/info.json")
	[ "$n" = 0 ] || grep -q "$r $n (" "$TMP/s.err" || fail "summary lacks '$r $n'"
done
med=$("$ANALYZE" stats -F csv -G -f min,med,99%,max -m '^WakeLatency$' "$TMP/s" | tail -1 | cut -d, -f6-)
want=$(echo "$med" | awk -F, '{ printf "min %.3f, med %.3f, 99%% %.3f, max %.3f", $1, $2, $3, $4 }')
grep -q "^collect: WakeLatency (us, 100 values): $want\$" "$TMP/s.err" ||
	fail "latency line is not analyze's: want '$want'"

retry_busy "$COLLECT" --method timer -c 20 -l 500us --cpu "$CPU" --no-counters -q -o "$TMP/q" 2>"$TMP/q.err" ||
	fail "quiet run"
! grep -q "kept in" "$TMP/q.err" || fail "summary printed with -q"
# On a terminal the progress line carries the running median and 99% of WakeLatency.
if command -v script >/dev/null; then
	wait_cpu_free
	script -qec "'$COLLECT' --method timer -c 300 -l 2ms --cpu $CPU --no-counters -o '$TMP/tty'" /dev/null >"$TMP/tty.out" ||
		fail "run under script(1)"
	grep -Eq "collect: [0-9]+ datapoints, .*, ETA [0-9ms?]+, WakeLatency med [0-9]+\.[0-9]{3} us, 99% [0-9]+\.[0-9]{3} us" "$TMP/tty.out" ||
		{ cat -v "$TMP/tty.out"; fail "no running median and 99% in the progress line"; }
fi
note "end-of-run summary: ok"
