#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# A run that keeps nothing stops (issue 11): with LDist 1 ns the deadline has passed before the
# timer thread can sleep, so every datapoint is discarded (not_idle); collect must stop after
# 100000 attempts and 10 s without a kept datapoint, with one line naming the counts, instead
# of spinning forever. (It relies on CLOCK_MONOTONIC advancing between two reads, as it does
# with the TSC and kvm-clock.)
. "$(dirname "$0")/lib.sh"
run="$TMP/nk"
start=$(date +%s)
retry_busy "$COLLECT" --method timer -c 100 --cpu "$CPU" -l 1ns -q --no-counters -o "$run" 2>"$TMP/err"
rc=$?
secs=$(($(date +%s) - start))
[ $rc -eq 1 ] || { cat "$TMP/err"; fail "exit $rc, expected 1"; }
[ "$(wc -l <"$TMP/err")" -eq 1 ] || { cat "$TMP/err"; fail "expected one line on stderr"; }
grep -Eq "^collect: CPU $CPU, -l 1ns: no datapoint kept in 1[0-9]\.[0-9] s: all [0-9]+ attempts were discarded \(not_idle [0-9]+, other_wake [0-9]+, wrong_cpu 0, lost 0\); the CPU does not go idle before LaunchTime: give a longer LDist \(-l\) or a CPU that nothing else keeps busy$" "$TMP/err" ||
	{ cat "$TMP/err"; fail "message"; }
jq_true "$run/info.json" '.complete == false and .stop_reason == "nothing_kept" and .datapoints == 0' "info.json"
jq_true "$run/info.json" '(.discards | .not_idle + .other_wake + .wrong_cpu + .lost) >= 100000' "discard counts"
n=$(sed -n 's/.*all \([0-9]*\) attempts.*/\1/p' "$TMP/err")
jq_true "$run/info.json" "(.discards | .not_idle + .other_wake + .wrong_cpu + .lost) == $n" "message counts = info.json"
[ "$(csv_rows "$run/datapoints.csv")" -eq 0 ] || fail "rows written"
[ $secs -ge 10 ] && [ $secs -le 60 ] || fail "stopped after $secs s, expected 10 to 60"
note "nothing kept: $(cat "$TMP/err")"
