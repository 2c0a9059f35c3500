#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# analyze diff --causes: each configuration's breakdown by cause and the change of each share
# against the reference, for one run a side and three, against an independent computation in
# Python (diff_causes_check.py); the output without --causes unchanged by the option's code;
# usage errors. usage: diff_causes.sh ANALYZE
set -u
. "$(dirname "$0")/../common/test-lib.sh"
analyze=$1
command -v python3 >/dev/null || skip "python3 not installed"
command -v jq >/dev/null || skip "jq not installed"
test_tmpdir tmp
[ -n "$tmp" ] && [ "$tmp" != / ] || fail "no temporary directory"
# run DIR SEED IRQ_RATE [STEAL_RATE]: 3000 datapoints, IRQs (and their tail) at IRQ_RATE, softirqs
# at 0.06; with STEAL_RATE a StealTime column (bpf on a KVM guest), steal (and its tail) at that rate
run() {
	mkdir "$tmp/$1"
	python3 - "$tmp/$1/datapoints.csv" "$2" "$3" "${4:-}" <<'PY'
import random, sys
random.seed(int(sys.argv[2]))
rate = float(sys.argv[3])
srate = float(sys.argv[4]) if sys.argv[4] else None
tops = ["LOC", "RES", "CAL", "IRQ24"]
types = ["TIMER", "NET_RX", "RCU", "TIMER+RCU", "NET_RX+SCHED"]
with open(sys.argv[1], "w") as f:
    f.write("LDist,WakeLatency,IntrLatency,ReqCState,IRQCnt,IRQTime,IRQTop,SWIRQCnt,SWIRQTime,SWIRQTypes"
            + (",StealTime" if srate is not None else "") + ",NMICnt\n")
    for i in range(3000):
        irq = random.random() < rate
        sirq = random.random() < 0.06
        nmi = random.random() < 0.01
        steal = srate is not None and random.random() < srate
        wl = random.gauss(20, 2) + (random.expovariate(1 / 8) if irq else 0) + (random.expovariate(1 / 8) if sirq else 0)
        wl += random.expovariate(1 / 20) if steal else 0
        scell = "" if srate is None else ("," if i % 101 == 0 else f",{random.uniform(0.001, 20) if steal else 0:.3f}")
        il = wl - random.uniform(3, 6)
        wcell = "" if i % 97 == 0 else f"{wl:.3f}"
        f.write(f"{random.uniform(10, 4000):.3f},{wcell},{il:.3f},C1,{random.randint(1, 3) if irq else 0},"
                f"{random.uniform(1, 9) if irq else 0:.3f},{random.choice(tops) if irq else ''},"
                f"{random.randint(1, 2) if sirq else 0},{random.uniform(1, 9) if sirq else 0:.3f},"
                f"{random.choice(types) if sirq else ''}{scell},{1 if nmi else 0}\n")
PY
}
run a1 1 0.08; run a2 2 0.10; run a3 3 0.09
run b1 4 0.16; run b2 5 0.18; run b3 6 0.15
run c1 7 0.09; run c2 8 0.11
check=$(dirname "$0")/diff_causes_check.py
csvs() { local IFS=,; local l=(); for r in "$@"; do l+=("$tmp/$r/datapoints.csv"); done; echo "${l[*]}"; }

# one run a side: datapoint level (Fisher or the band-share z test)
for pct in 99 90; do
	"$analyze" diff --causes --causes-pct "$pct" -F json "$tmp/a1" "$tmp/b1" >"$tmp/d$pct.json" 2>"$tmp/err" ||
		fail "diff --causes --causes-pct $pct: $(cat "$tmp/err")"
	for m in WakeLatency IntrLatency; do
		python3 "$check" "$tmp/d$pct.json" "$pct" "$m" -- "$(csvs a1)" "$(csvs b1)" ||
			fail "$m p$pct (one run a side) differs from the independent computation"
	done
done
jq -e '.causes.WakeLatency.changes[1].above.IRQ.beyond_chance' "$tmp/d90.json" >/dev/null ||
	fail "IRQ rate 0.08 -> 0.16: the change above p90 is not beyond chance"
# three runs a side, and a third configuration: run level (Welch's t on the runs' shares)
"$analyze" diff --causes --causes-pct 90 -F json "$tmp/a1,$tmp/a2,$tmp/a3" "$tmp/b1,$tmp/b2,$tmp/b3" \
	"$tmp/c1,$tmp/c2" >"$tmp/r.json" 2>"$tmp/err" || fail "diff --causes (replicates): $(cat "$tmp/err")"
python3 "$check" "$tmp/r.json" 90 WakeLatency -- "$(csvs a1 a2 a3)" "$(csvs b1 b2 b3)" "$(csvs c1 c2)" ||
	fail "replicates differ from the independent computation"
[ "$(jq -r '.causes.WakeLatency.changes[1].above.IRQ.method' "$tmp/r.json")" = welch-t-run-shares ] ||
	fail "replicates: not the run-level test"
# --metrics chooses the metrics of the breakdown, and the cause columns are loaded all the same
"$analyze" diff --causes -m '^IntrLatency$' -F json "$tmp/a1" "$tmp/b1" >"$tmp/m.json" || fail "diff --causes -m"
[ "$(jq -c '.causes | keys' "$tmp/m.json")" = '["IntrLatency"]' ] || fail "-m: $(jq -c '.causes | keys' "$tmp/m.json")"
python3 "$check" "$tmp/m.json" 99 IntrLatency -- "$(csvs a1)" "$(csvs b1)" || fail "--causes -m differs"

# text: the header, the method and a row per cause
"$analyze" diff --causes "$tmp/a1" "$tmp/b1" >"$tmp/t" 2>/dev/null || fail "diff --causes (text)"
grep -q "^WakeLatency by cause, above each configuration's 99% and at or below it$" "$tmp/t" || fail "no text header: $(cat "$tmp/t")"
grep -q "^  p: one run in a configuration: the two-proportion test" "$tmp/t" || fail "no method line"
grep -Eq '^  none +[0-9.]+% +[0-9.]+% +[-+][0-9.]+ pts ' "$tmp/t" || fail "no 'none' row"
# without --causes: no breakdown, the rest the same
"$analyze" diff "$tmp/a1" "$tmp/b1" >"$tmp/plain" 2>/dev/null || fail "diff"
grep -q "by cause" "$tmp/plain" && fail "a breakdown without --causes"
head -n "$(wc -l <"$tmp/plain")" "$tmp/t" | cmp -s - "$tmp/plain" || fail "--causes changed the rest of the text output"
"$analyze" diff -F json "$tmp/a1" "$tmp/b1" 2>/dev/null | jq -e 'has("causes") | not' >/dev/null || fail "JSON has causes without --causes"

# StealTime: a steal share, checked like the others; its change beyond chance; the text names it
run s1 9 0.08 0.02; run s2 10 0.08 0.12
"$analyze" diff --causes --causes-pct 90 -F json "$tmp/s1" "$tmp/s2" >"$tmp/s.json" 2>"$tmp/err" ||
	fail "diff --causes (steal): $(cat "$tmp/err")"
for m in WakeLatency IntrLatency; do
	python3 "$check" "$tmp/s.json" 90 "$m" -- "$(csvs s1)" "$(csvs s2)" || fail "$m (steal) differs from the independent computation"
done
jq -e '.causes.WakeLatency.changes[1].above.steal.beyond_chance' "$tmp/s.json" >/dev/null ||
	fail "steal rate 0.02 -> 0.12: the change above p90 is not beyond chance"
"$analyze" diff --causes "$tmp/s1" "$tmp/s2" >"$tmp/st" 2>/dev/null || fail "diff --causes (steal, text)"
grep -q 'datapoints with no IRQ, softirq, NMI or steal time in the window' "$tmp/st" || fail "steal: no clean-median note"
grep -Eq '^  steal +[0-9.]+% +[0-9.]+% +[-+][0-9.]+ pts ' "$tmp/st" || fail "no 'steal' row"
grep -q steal "$tmp/t" && fail "runs without StealTime: steal in the text"
grep -Eq '^  not known +[0-9.]+% +[0-9.]+%$' "$tmp/st" || fail "no 'not known' class row: $(cat "$tmp/st")"
# a reference without StealTime: steal is not measured there, and not tested
"$analyze" diff --causes --causes-pct 90 -F json "$tmp/a1" "$tmp/s2" >"$tmp/n.json" 2>"$tmp/err" ||
	fail "diff --causes (steal in one run only): $(cat "$tmp/err")"
python3 "$check" "$tmp/n.json" 90 WakeLatency -- "$(csvs a1)" "$(csvs s2)" || fail "steal in one run only differs"
jq -e '.causes.WakeLatency.changes[1].above.steal == {"diff": null, "p": null, "p_adj": null, "method": null,
	"beyond_chance": false, "not_measured_in": "a1"}' "$tmp/n.json" >/dev/null ||
	fail "steal not measured in a1: $(jq -c '.causes.WakeLatency.changes[1].above.steal' "$tmp/n.json")"
"$analyze" diff --causes "$tmp/a1" "$tmp/s2" >"$tmp/nt" 2>/dev/null || fail "diff --causes (steal in one run, text)"
grep -Eq '^  steal +not measured +[0-9.]+% +- +- +- not measured in a1$' "$tmp/nt" ||
	fail "text: steal in one run only: $(grep steal "$tmp/nt")"
grep -Eq '^  steal only +not measured +[0-9.]+%$' "$tmp/nt" || fail "text: no 'steal only' row: $(cat "$tmp/nt")"

# two requested states in a run: one line says the breakdown pools them
mkdir "$tmp/two"
sed '3~2s/,C1,/,C6,/' "$tmp/a1/datapoints.csv" >"$tmp/two/datapoints.csv"
"$analyze" diff --causes "$tmp/two" "$tmp/b1" >/dev/null 2>"$tmp/err" || fail "diff --causes (two states)"
grep -q "two/datapoints.csv: --causes: requested states C1, C6 pooled: the clean median mixes them" "$tmp/err" ||
	fail "no warning for two states: $(cat "$tmp/err")"
grep -q "b1/datapoints.csv: --causes: requested states" "$tmp/err" && fail "a one-state run warned: $(cat "$tmp/err")"

expect_fail 2 "diff: --causes-pct: expected a percentile, 0 < PCT < 100, got '0'" "$analyze" diff --causes --causes-pct 0 "$tmp/a1" "$tmp/b1"
expect_fail 2 "diff: --causes-pct needs --causes" "$analyze" diff --causes-pct 90 "$tmp/a1" "$tmp/b1"
expect_fail 2 "not in CSV" "$analyze" diff --causes -F csv "$tmp/a1" "$tmp/b1"
mkdir "$tmp/plainrun"
printf 'WakeLatency,IntrLatency\n1,2\n3,4\n' >"$tmp/plainrun/datapoints.csv"
"$analyze" diff --causes "$tmp/a1" "$tmp/plainrun" >/dev/null 2>"$tmp/err" && fail "--causes with a run without cause columns succeeded"
grep -q "plainrun/datapoints.csv: --causes: no cause column" "$tmp/err" || fail "message: $(cat "$tmp/err")"
