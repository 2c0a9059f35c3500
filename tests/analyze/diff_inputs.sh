#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# analyze diff (issue 24): inputs the collector sets (LDist, SilentTime) get no verdict, only
# the design check; biased runs and differing discard shares are confounders. The fixture is
# a pm-qos experiment (collect --matrix pm-qos=none,0 --repeat 3, written here): LDist drawn
# uniformly from [10, 4000] us, WakeLatency 20 us with PM QoS 0 and 40 us without.
# usage: diff_inputs.sh ANALYZE REPORT
set -u
TEST_KEEP_GOING=1
. "$(dirname "$0")/../common/test-lib.sh"
analyze=$1 report=$2
test_tmpdir tmp

# experiment DIR BIAS: BIAS 1 makes the pm-qos=0 runs discard 5000 of 6000 attempts as
# not_idle, and with them 70% of the datapoints with LDist below 1000 us (a selection).
experiment() {
	python3 - "$1" "$2" <<'PY'
import json, os, random, sys
root, bias = sys.argv[1], sys.argv[2] == "1"
os.makedirs(root)
runs = []
for rep in (1, 2, 3):
    for val in ("none", "0"):
        path = f"pm-qos={val}-r{rep}"
        rng = random.Random(rep * 10 + (val == "0"))
        rows = []
        while len(rows) < 1000:
            ldist = round(rng.uniform(10, 4000), 3)
            if bias and val == "0" and ldist < 1000 and rng.random() < 0.7:
                continue
            # a run effect, not a trend over the run order (analyze diff names a drift)
            wake = (20 if val == "0" else 40) + (0.6, 0.0, 0.3)[rep - 1] + rng.expovariate(1)
            rows.append(f"{ldist},{ldist - 3:.3f},{wake:.3f},{wake + 1:.3f},1,C1")
        os.makedirs(os.path.join(root, path))
        with open(os.path.join(root, path, "datapoints.csv"), "w") as f:
            f.write("LDist,SilentTime,WakeLatency,IntrLatency,IntrOff,ReqCState\n")
            f.write("\n".join(rows) + "\n")
        lost = 5000 if bias and val == "0" else 10
        info = {"toolname": "idlescope", "format_version": "1.1", "reportid": path,
                "method": "bpf", "cpu": 0, "ldist_min_ns": 10000, "ldist_max_ns": 4000000,
                "datapoints": 1000, "discards": {"not_idle": lost, "other_wake": 0,
                "wrong_cpu": 0, "lost": 0}, "complete": True,
                "settings": {"pm-qos": val}}
        if bias:  # the keys collect writes since issue 24 (the share busy besides the
            # measurement; its own warnings, and that it said "mostly discarded")
            info["cpu_busy"] = {"busy_pct": 45.0 if val == "0" else 5.0,
                                "other_pct": 40.0 if val == "0" else 2.0}
            if val == "0" and rep == 3:
                info["mostly_discarded"] = True
                info["warnings"] = ["5000 of 6000 attempts discarded (collector's words)"]
        with open(os.path.join(root, path, "info.json"), "w") as f:
            json.dump(info, f)
        runs.append({"path": path, "config": {"pm-qos": val}, "replicate": rep,
                     "complete": True})
with open(os.path.join(root, "experiment.json"), "w") as f:
    json.dump({"format": "idlescope-experiment", "format_version": "1",
               "design": {"factors": [{"name": "pm-qos", "values": ["none", "0"]}],
                          "repeat": 3, "order": "interleaved"}, "runs": runs}, f)
PY
}

# 1. The same design: verdicts on outcomes only, no design or discard warning.
experiment "$tmp/same" 0
"$analyze" diff "$tmp/same" > "$tmp/out" 2> "$tmp/err" || fail "diff: $(cat "$tmp/err")"
grep -qx 'analyze: note: LDist, SilentTime: inputs the collector sets, not outcomes: no verdict, the design is checked instead (--compare-inputs to compare them)' "$tmp/err" ||
	fail "note: $(cat "$tmp/err")"
grep -q '^  WakeLatency: median -20\.0 us (-48\.[0-9]%) vs pm-qos=none (3 vs 3 runs), .*, changed: significant (Holm' "$tmp/out" ||
	fail "WakeLatency verdict: $(grep 'WakeLatency:' "$tmp/out")"
grep -q '^ *\(LDist\|SilentTime\)' "$tmp/out" && fail "an input in the tables: $(grep -m3 '^ *\(LDist\|SilentTime\)' "$tmp/out")"
grep -q 'design differs\|discarded attempts\|biased run' "$tmp/out" "$tmp/err" && fail "a design warning for the same design"
got=$("$analyze" diff -F json "$tmp/same" 2>/dev/null | jq -c '[(.metrics | keys), .inputs, .warnings]')
[ "$got" = '[["IntrLatency","WakeLatency"],["LDist","SilentTime"],[]]' ] || fail "json: $got"
# On request, an input gets its verdict as before.
got=$("$analyze" diff -F json --compare-inputs "$tmp/same" 2>/dev/null |
	jq -c '[(.metrics | keys), .inputs, (.metrics.LDist.verdict[1] | test("^LDist: median"))]')
[ "$got" = '[["IntrLatency","LDist","SilentTime","WakeLatency"],[],true]' ] || fail "--compare-inputs: $got"

# 2. The pm-qos=0 runs discarded most attempts, the short LDists among them: each biased run
# is named, the discard shares and the LDist mix are confounders.
experiment "$tmp/bias" 1
"$analyze" diff "$tmp/bias" > "$tmp/out" 2> "$tmp/err" || fail "diff: $(cat "$tmp/err")"
grep -qx "analyze: warning: $tmp/bias/pm-qos=0-r2: biased run: 5000 of 6000 attempts (83.3%) discarded (not_idle 5000): the 1000 kept datapoints describe only the events that found the CPU idle, not those that found it busy" "$tmp/err" ||
	fail "stderr: $(cat "$tmp/err")"
[ "$(grep -c '^  ! biased run: pm-qos=0-r[123]: 5000 of 6000' "$tmp/out")" = 3 ] || fail "biased runs: $(grep biased "$tmp/out")"
# A run whose collector recorded its own warnings: they are repeated, and not said twice.
grep -qx "analyze: warning: $tmp/bias/pm-qos=0-r3: the collector warned: 5000 of 6000 attempts discarded (collector's words)" "$tmp/err" &&
	! grep -q "pm-qos=0-r3: biased run" "$tmp/err" || fail "collector's warnings: $(grep r3 "$tmp/err")"
grep -qx '  ! measured CPU busy besides the measurement: 2.0% in pm-qos=none (2.0%, 2.0%, 2.0%), 40.0% in pm-qos=0 (40.0%, 40.0%, 40.0%)' "$tmp/out" ||
	fail "busy share: $(grep 'CPU busy' "$tmp/out")"
grep -qx '  ! discarded attempts: 1.0% in pm-qos=none (1.0%, 1.0%, 1.0%), 83.3% in pm-qos=0 (83.3%, 83.3%, 83.3%): the kept datapoints are different selections of the attempts' "$tmp/out" ||
	fail "discard share: $(grep discarded "$tmp/out")"
grep -q '^  ! design differs: LDist of the kept datapoints: pm-qos=none median [0-9.]* us \[[0-9.]*, [0-9.]*\] (3000 values); pm-qos=0 median [0-9.]* us .* (KS D = 0\.1[0-9]*, limit 0\.050)' "$tmp/out" ||
	fail "LDist design: $(grep design "$tmp/out")"
grep -q '^  ! design differs: SilentTime' "$tmp/out" || fail "SilentTime design: $(grep design "$tmp/out")"
grep -q '^  \(LDist\|SilentTime\):' "$tmp/out" && fail "a verdict on an input"
# Without the design check the same LDists were "significant": the false positive it prevents.
"$analyze" diff --compare-inputs -F json "$tmp/bias" 2>/dev/null | jq -e '.metrics.LDist.tests[1].significant' > /dev/null ||
	fail "the biased LDist is not significant with --compare-inputs"
got=$("$analyze" diff -F csv "$tmp/bias" 2>/dev/null | grep -c '^warning,,,"\?\(biased run\|discarded attempts\|design differs\|measured CPU busy\)')
[ "$got" = 7 ] || fail "csv warnings: $got"
# analyze stats repeats it for the run it reads.
"$analyze" stats "$tmp/bias/pm-qos=0-r1" > /dev/null 2> "$tmp/err" || fail "stats: $(cat "$tmp/err")"
[ "$(cat "$tmp/err")" = "analyze: warning: $tmp/bias/pm-qos=0-r1: biased run: 5000 of 6000 attempts (83.3%) discarded (not_idle 5000): the 1000 kept datapoints describe only the events that found the CPU idle, not those that found it busy" ] ||
	fail "stats: $(cat "$tmp/err")"
"$analyze" stats "$tmp/bias/pm-qos=none-r1" 2>&1 > /dev/null | grep -q biased && fail "stats: 1% discarded called biased"
# The report: the same warnings in its box, the inputs' values without a verdict.
if command -v gnuplot > /dev/null; then
	"$report" "$tmp/bias" -o "$tmp/rep" > /dev/null 2>&1 || fail "report of the biased experiment"
	page=$tmp/rep/index.html
	[ "$(grep -o 'biased run: pm-qos=0-r[123]' "$page" | sort -u | wc -l)" = 3 ] && grep -q 'discarded attempts: 1.0% in pm-qos=none' "$page" &&
		grep -q 'design differs: LDist of the kept datapoints' "$page" || fail "report: the warnings"
	grep -q 'LDist: an input the collector sets, not an outcome: no verdict' "$page" &&
		! grep -q 'LDist: median' "$page" || fail "report: a verdict on LDist"
	"$report" "$tmp/bias/pm-qos=0-r1" -o "$tmp/rep1" > /dev/null 2>&1 &&
		grep -q '<strong>Biased run</strong> pm-qos=0-r1: 5000 of 6000 attempts (83.3%) discarded' "$tmp/rep1/index.html" ||
		fail "report of one biased run: no note"
	"$report" "$tmp/bias" -o "$tmp/rep2" --compare-inputs > /dev/null 2>&1 && grep -q 'LDist: median' "$tmp/rep2/index.html" ||
		fail "report --compare-inputs: no LDist verdict"
else
	echo "SKIP: report (no gnuplot)"
fi
[ "$fails" = 0 ] && echo "diff inputs: all checks passed"
exit $((fails > 0))
