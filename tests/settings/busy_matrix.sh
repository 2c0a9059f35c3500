#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Issue 24, experiments: every run of a matrix measured on a CPU a busy loop keeps busy (19 ms of
# every 20) has its discard share and warnings in experiment.json, as in its info.json, and the
# driver prints each run's warnings (its runs are quiet). Runs of equal length are not named
# slow. A fixture tree (--sysroot) holds the settings; $3 = busy_duty.
. "$(dirname "$0")/../collect/lib.sh"
. "$(dirname "$0")/fixture.sh"
command -v jq >/dev/null || fail "jq not installed"
R=$TMP/root
make_fixture "$R"
note "cpuidle driver: $(idle_driver); measured CPU $CPU"
start_busy 19000 1000
e=$TMP/exp
retry_busy "$COLLECT" --sysroot "$R" --method timer --cpu "$CPU" -l 500us,2ms --time-limit 2s --no-counters \
	-o "$e" --matrix turbo=on,off --repeat 2 2>"$TMP/err" || { cat "$TMP/err"; fail "matrix on a busy CPU"; }
stop_busy
cat "$TMP/err"
x=$e/experiment.json
jq_true "$x" '(.runs | length) == 4 and .complete == true and .slow_runs == []' "4 complete runs, none slow"
jq_true "$x" '[.runs[] | (.attempts | type) == "number" and (.discarded_pct | type) == "number" and
	(.mostly_discarded | type) == "boolean" and (.warnings | length) >= 1 and .duration_s >= 2] | all' \
	"every run: attempts, discarded_pct, mostly_discarded, warnings, duration_s"
for p in $(jq -r '.runs[].path' "$x"); do
	check_judged "$e/$p/info.json"
	jq -e --slurpfile i "$e/$p/info.json" --arg p "$p" '.runs[] | select(.path == $p) |
		.attempts == $i[0].attempts and .discarded_pct == $i[0].discarded_pct and
		.mostly_discarded == $i[0].mostly_discarded and .warnings == $i[0].warnings and
		.duration_s == $i[0].duration_s' "$x" >/dev/null || fail "$p: experiment.json differs from its info.json"
	w=$(jq -r '.warnings[0]' "$e/$p/info.json")
	grep -qxF "collect: warning: run $p: $w" "$TMP/err" || fail "$p: its warning was not printed"
	if jq -e '.idle_check.per_datapoint' "$e/$p/info.json" >/dev/null; then
		jq_true "$e/$p/info.json" '.mostly_discarded == true' "$p: mostly discarded"
	else
		jq_true "$e/$p/info.json" '.warnings | any(test("was busy"))' "$p: busy CPU warned"
	fi
done
note "busy matrix: $(jq -c '[.runs[] | {path, discarded_pct: (.discarded_pct | floor), warnings: (.warnings | length)}]' "$x")"
