#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Time limit, default output directory name and --reportid. (Seed reproducibility: test_units.c.)
. "$(dirname "$0")/lib.sh"
command -v jq >/dev/null || fail "jq not installed (scripts/deps/collect.txt)"

retry_busy "$COLLECT" --method timer --time-limit 1s --cpu "$CPU" -l 200us -q --no-counters -o "$TMP/tl" || fail "--time-limit run"
jq_true "$TMP/tl/info.json" '.complete == true and .stop_reason == "time_limit" and .count_limit == null and .time_limit_s == 1' "time limit fields"
jq_true "$TMP/tl/info.json" '.duration_s >= 1 and .duration_s < 3 and .datapoints > 0' "time limit duration"
[ "$(csv_rows "$TMP/tl/datapoints.csv")" -eq "$(jq .datapoints "$TMP/tl/info.json")" ] || fail "rows != info.datapoints"

mkdir "$TMP/cwd"
(cd "$TMP/cwd" && retry_busy "$COLLECT" --method timer -c 5 --cpu "$CPU" -q --no-counters --reportid my-run) || fail "default -o run"
d=$(ls "$TMP/cwd")
echo "$d" | grep -Eq "^$(hostname | tr '/ ' '__')-timer-[0-9]{8}-[0-9]{6}$" || fail "default directory name '$d'"
jq_true "$TMP/cwd/$d/info.json" '.reportid == "my-run"' "--reportid"

# --pm-qos-us holds /dev/cpu_dma_latency during the run (root): the limit in force is at most N.
if [ "$(id -u)" -eq 0 ] && [ -e /dev/cpu_dma_latency ]; then
	retry_busy "$COLLECT" --method timer -c 20 --cpu "$CPU" -q --no-counters --pm-qos-us 100 -o "$TMP/qos" || fail "--pm-qos-us run"
	jq_true "$TMP/qos/info.json" '.pm_qos.requested_us == 100 and .pm_qos.cpu_dma_latency_us_during <= 100 and (.pm_qos.cpu_dma_latency_us_before | type) == "number"' "PM QoS held"
fi

# Progress line: on a terminal only (script(1) provides one).
if command -v script >/dev/null; then
	wait_cpu_free
	script -qec "'$COLLECT' --method timer -c 200 -l 2ms --cpu $CPU --no-counters -o '$TMP/tty'" /dev/null >"$TMP/tty.out" ||
		fail "run under script(1)"
	grep -Eq "collect: [0-9]+ datapoints, [0-9.]+/s, [0-9]+ discarded, [0-9]+s elapsed, ETA [0-9ms?]+" "$TMP/tty.out" ||
		{ cat -v "$TMP/tty.out"; fail "no progress line on a terminal"; }
	retry_busy "$COLLECT" --method timer -c 200 -l 2ms --cpu "$CPU" --no-counters -o "$TMP/notty" 2>"$TMP/notty.err" || fail "run"
	! grep -q "datapoints, " "$TMP/notty.err" || fail "progress line printed when stderr is not a terminal"
fi
note "limits, naming, progress: ok"
