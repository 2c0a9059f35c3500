#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# analyze stats --causes: the breakdown of a synthetic run (random causes, a tail that goes
# with them, empty cells) against an independent computation in Python (causes_check.py),
# at p99 and p90; and its usage errors. usage: causes.sh ANALYZE
set -u
. "$(dirname "$0")/../common/test-lib.sh"
analyze=$1
command -v python3 >/dev/null || skip "python3 not installed"
command -v jq >/dev/null || skip "jq not installed"
test_tmpdir tmp
[ -n "$tmp" ] && [ "$tmp" != / ] || fail "no temporary directory"
mkdir "$tmp/r"
python3 - "$tmp/r/datapoints.csv" <<'PY'
import random, sys
random.seed(26)
tops = ["LOC", "RES", "CAL", "IRQ24"]
types = ["TIMER", "NET_RX", "RCU", "TIMER+RCU", "NET_RX+SCHED"]
with open(sys.argv[1], "w") as f:
    f.write("LDist,WakeLatency,IntrLatency,ReqCState,IRQCnt,IRQTime,IRQTop,SWIRQCnt,SWIRQTime,SWIRQTypes,NMICnt\n")
    for i in range(5000):
        irq = random.random() < 0.08
        sirq = random.random() < 0.06
        nmi = random.random() < 0.01
        base = random.gauss(20, 2)
        wl = base + (random.expovariate(1 / 30) if irq else 0) + (random.expovariate(1 / 50) if sirq else 0)
        il = wl - random.uniform(3, 6)
        wcell = "" if i % 97 == 0 else f"{wl:.3f}"
        if i % 53 == 0:  # collect could not count: every cause cell empty (collect/run/cause_cols.c)
            f.write(f"500.000,{wcell},{il:.3f},C1,,,,,,,\n")
            continue
        f.write(f"500.000,{wcell},{il:.3f},C1,{random.randint(1, 3) if irq else 0},"
                f"{random.uniform(1, 9) if irq else 0:.3f},{random.choice(tops) if irq else ''},"
                f"{random.randint(1, 2) if sirq else 0},{random.uniform(1, 9) if sirq else 0:.3f},"
                f"{random.choice(types) if sirq else ''},{1 if nmi else 0}\n")
PY
for pct in 99 90; do
	"$analyze" stats --causes --causes-pct "$pct" -F json "$tmp/r" >"$tmp/s$pct.json" 2>"$tmp/err" ||
		fail "stats --causes --causes-pct $pct: $(cat "$tmp/err")"
	python3 "$(dirname "$0")/causes_check.py" "$tmp/r/datapoints.csv" "$tmp/s$pct.json" "$pct" \
		WakeLatency IntrLatency || fail "--causes-pct $pct differs from the independent computation"
done
"$analyze" stats --causes -F json "$tmp/r" >"$tmp/d.json" || fail "stats --causes"
# clean latency (docs/format.md): the documented filter keeps exactly the clean datapoints
# (not the rows with empty cause cells: not known is not clean)
jq -e '.runs[0].causes.WakeLatency | .above.classes["not known"].rows + .at_or_below.classes["not known"].rows > 90' \
	"$tmp/d.json" >/dev/null || fail "the rows with empty cause cells are not 'not known'"
"$analyze" stats -F json -f count,med -m '^WakeLatency$' --include 'IRQCnt == 0 and SWIRQCnt == 0 and NMICnt == 0' \
	"$tmp/r" >"$tmp/clean.json" || fail "stats --exclude (clean)"
want=$(jq '.runs[0].causes.WakeLatency | [.clean_rows, .clean_median]' "$tmp/d.json")
got=$(jq '.runs[0].metrics.WakeLatency | [.count, .med]' "$tmp/clean.json")
[ "$(echo "$want" | jq -c .)" = "$(echo "$got" | jq -c .)" ] ||
	fail "clean filter: count and median $got, --causes says $want"
cmp -s "$tmp/d.json" "$tmp/s99.json" || fail "--causes without --causes-pct is not p99"
"$analyze" stats --causes -m '^IntrLatency$' -F json "$tmp/r" >"$tmp/m.json" || fail "stats --causes -m"
python3 "$(dirname "$0")/causes_check.py" "$tmp/r/datapoints.csv" "$tmp/m.json" 99 IntrLatency ||
	fail "--causes with --metrics (the cause columns must be loaded all the same)"
"$analyze" stats --causes "$tmp/r" >"$tmp/t" || fail "stats --causes (text)"
grep -q '^WakeLatency by cause, above its 99% ' "$tmp/t" || fail "no text breakdown: $(cat "$tmp/t")"
grep -Eq '^  none +[0-9]+ ' "$tmp/t" || fail "no 'none' line"
grep -q 'datapoints with no IRQ, softirq or NMI in the window' "$tmp/t" || fail "header: $(head -3 "$tmp/t")"
grep -Eq '^  SMI +not measured \(no SMICnt column\)$' "$tmp/t" || fail "no 'SMI not measured': $(cat "$tmp/t")"
grep -Eq '^  not known +[0-9]+ ' "$tmp/t" || fail "no 'not known' class: $(cat "$tmp/t")"
jq -e '.runs[0].causes.WakeLatency.not_measured == {"SMI": "no SMICnt column", "steal": "no StealTime column"}' \
	"$tmp/d.json" >/dev/null || fail "JSON not_measured: $(jq -c '.runs[0].causes.WakeLatency.not_measured' "$tmp/d.json")"

# StealTime (bpf on a KVM guest): a "steal" share, and not clean; empty cells are not known
mkdir "$tmp/st"
python3 - "$tmp/r/datapoints.csv" "$tmp/st/datapoints.csv" <<'PY'
import csv, random, sys
random.seed(2626)
rows = list(csv.reader(open(sys.argv[1])))
with open(sys.argv[2], "w", newline="") as f:
    w = csv.writer(f, lineterminator="\n")
    w.writerow(rows[0][:-1] + ["StealTime", rows[0][-1]])
    for i, r in enumerate(rows[1:]):
        steal = random.random() < 0.05
        cell = "" if i % 89 == 0 else f"{random.uniform(0.001, 40) if steal else 0:.3f}"
        if steal and r[1]:
            r[1] = f"{float(r[1]) + random.expovariate(1 / 40):.3f}"
        w.writerow(r[:-1] + [cell, r[-1]])
PY
"$analyze" stats --causes -F json "$tmp/st" >"$tmp/st.json" 2>"$tmp/err" || fail "stats --causes (steal): $(cat "$tmp/err")"
python3 "$(dirname "$0")/causes_check.py" "$tmp/st/datapoints.csv" "$tmp/st.json" 99 WakeLatency IntrLatency ||
	fail "the steal breakdown differs from the independent computation"
jq -e '.runs[0].causes.WakeLatency.above.causes.steal.rows > 0' "$tmp/st.json" >/dev/null ||
	fail "no steal in the p99 tail of a run whose steal adds latency"
"$analyze" stats -F json -f count,med -m '^WakeLatency$' \
	--include 'IRQCnt == 0 and SWIRQCnt == 0 and NMICnt == 0 and StealTime == 0' "$tmp/st" >"$tmp/stclean.json" ||
	fail "stats --exclude (clean, steal)"
want=$(jq -c '.runs[0].causes.WakeLatency | [.clean_rows, .clean_median]' "$tmp/st.json")
got=$(jq -c '.runs[0].metrics.WakeLatency | [.count, .med]' "$tmp/stclean.json")
jq -en --argjson w "$want" --argjson g "$got" '$w[0] == $g[0] and (($w[1] - $g[1]) | fabs) < 1e-9' >/dev/null ||
	fail "clean filter with StealTime: count and median $got, --causes says $want"
"$analyze" stats --causes "$tmp/st" >"$tmp/stt" || fail "stats --causes (steal, text)"
grep -q 'with no IRQ, softirq, NMI or steal time in the window' "$tmp/stt" || fail "text: $(head -3 "$tmp/stt")"
grep -Eq '^  steal +[0-9]+ ' "$tmp/stt" || fail "no 'steal' line: $(cat "$tmp/stt")"
grep -v '^  steal  *not measured (no StealTime column)$' "$tmp/t" | grep -q 'steal' &&
	fail "a run without StealTime mentions steal other than as not measured: $(cat "$tmp/t")"
grep -Eq '^  steal only +[0-9]+ ' "$tmp/stt" || fail "no 'steal only' class: $(cat "$tmp/stt")"

# two requested states: one line says the breakdown pools them
mkdir "$tmp/two"
sed '3~2s/,C1,/,POLL,/' "$tmp/r/datapoints.csv" >"$tmp/two/datapoints.csv"
"$analyze" stats --causes "$tmp/two" >/dev/null 2>"$tmp/err" || fail "stats --causes (two states)"
grep -q "two/datapoints.csv: --causes: requested states C1, POLL pooled: the clean median mixes them" "$tmp/err" ||
	fail "no warning for two states: $(cat "$tmp/err")"
"$analyze" stats --causes "$tmp/r" >/dev/null 2>"$tmp/err" || fail "stats --causes"
grep -q "requested states" "$tmp/err" && fail "a one-state run warned: $(cat "$tmp/err")"

expect_fail 2 "causes-pct: expected a percentile, 0 < PCT < 100, got '100'" "$analyze" stats --causes --causes-pct 100 "$tmp/r"
expect_fail 2 "causes-pct needs --causes" "$analyze" stats --causes-pct 90 "$tmp/r"
expect_fail 2 "not in CSV" "$analyze" stats --causes -F csv "$tmp/r"
mkdir "$tmp/plain"
printf 'WakeLatency,IntrLatency\n1,2\n3,4\n' >"$tmp/plain/datapoints.csv"
"$analyze" stats --causes "$tmp/plain" >/dev/null 2>"$tmp/err" && fail "--causes on a run without cause columns succeeded"
grep -q "datapoints.csv: --causes: no cause column" "$tmp/err" || fail "message: $(cat "$tmp/err")"
