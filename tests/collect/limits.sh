#!/bin/sh
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

note "limits, naming: ok"
