#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# report --causes (issue 26): the Causes section's table and stacked bars against an
# independent computation (causes_check.py) for runs with cause columns; the reason, and no
# chart, for runs without (timer, wult, --no-causes); no section without --causes.
# usage: causes.sh REPORT TIMER_SAMPLE WULT_RUN
set -eu
REPORT=$1 TIMER=$2 WULT=$3
. "$(dirname "$0")/lib.sh"
command -v python3 >/dev/null || skip "python3 not installed"
check=$(dirname "$0")/causes_check.py

# bpf_run DIR SEED IRQ_RATE: 4000 datapoints with causes (a tail that goes with them)
bpf_run() {
	mkdir -p "$1"
	printf '{"toolname": "idlescope", "reportid": "%s", "method": "bpf"}\n' "$(basename "$1")" >"$1/info.json"
	python3 - "$1/datapoints.csv" "$2" "$3" <<'PY'
import random, sys
random.seed(int(sys.argv[2]))
rate = float(sys.argv[3])
tops = ["LOC", "RES", "CAL", "IRQ24"]
types = ["TIMER", "NET_RX", "RCU", "TIMER+RCU", "NET_RX+SCHED"]
with open(sys.argv[1], "w") as f:
    f.write("LDist,SilentTime,WakeLatency,IntrLatency,IntrOff,ReqCState,IRQCnt,IRQTime,IRQTop,SWIRQCnt,SWIRQTime,SWIRQTypes,NMICnt\n")
    for i in range(4000):
        irq, sirq, nmi = random.random() < rate, random.random() < 0.06, random.random() < 0.01
        wl = random.gauss(20, 2) + (random.expovariate(1 / 15) if irq else 0) + (random.expovariate(1 / 8) if sirq else 0)
        wcell = "" if i % 89 == 0 else f"{wl:.3f}"
        f.write(f"{random.uniform(10, 4000):.3f},{random.uniform(5, 3990):.3f},{wcell},{wl - random.uniform(3, 6):.3f},0,C1,"
                f"{random.randint(1, 3) if irq else 0},{random.uniform(1, 9) if irq else 0:.3f},"
                f"{random.choice(tops) if irq else ''},{random.randint(1, 2) if sirq else 0},"
                f"{random.uniform(1, 9) if sirq else 0:.3f},{random.choice(types) if sirq else ''},{1 if nmi else 0}\n")
PY
}
bpf_run "$W/a" 1 0.08
bpf_run "$W/b" 2 0.2

expect_rc 0 "$REPORT" --causes "$W/a" "$W/b" -o "$W/r1"
grep -q '<a href="#causes">Causes</a>' "$W/r1/index.html" || fail "no Causes link in the navigation"
for m in WakeLatency IntrLatency; do
	python3 "$check" "$W/r1/index.html" "$m" 0="$W/a/datapoints.csv" 1="$W/b/datapoints.csv" ||
		fail "$m: the Causes section differs from the independent computation"
done
# --include applies: the section is of the datapoints left
expect_rc 0 "$REPORT" --causes -i 'LDist > 2000' "$W/a" -o "$W/r2"
python3 - "$W/a/datapoints.csv" "$W/kept.csv" <<'PY'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1], newline="")))
w = csv.DictWriter(open(sys.argv[2], "w", newline=""), fieldnames=rows[0].keys())
w.writeheader()
w.writerows(r for r in rows if float(r["LDist"]) > 2000)
PY
python3 "$check" "$W/r2/index.html" WakeLatency 0="$W/kept.csv" || fail "--include: the Causes section differs"

# without --causes: no section, no link
expect_rc 0 "$REPORT" "$W/a" "$W/b" -o "$W/r3"
grep -q 'id="causes"\|#causes' "$W/r3/index.html" && fail "a Causes section without --causes"

# runs without cause columns: named with the reason, no chart of them
mkdir "$W/nc"
printf '{"toolname": "idlescope", "reportid": "nc", "method": "bpf", "method_details": {"causes": {"counted": false}}}\n' >"$W/nc/info.json"
cut -d, -f1-6 "$W/a/datapoints.csv" >"$W/nc/datapoints.csv"
expect_rc 0 "$REPORT" --causes "$TIMER" "$W/nc" -o "$W/r4"
sed -n '/<section id="causes"/,/<\/section>/p' "$W/r4/index.html" >"$W/sec4"
grep -q 'No breakdown: no run has cause columns.' "$W/sec4" || fail "no 'no run has cause columns': $(cat "$W/sec4")"
grep -q 'the timer method: user space cannot see what ran on the CPU' "$W/sec4" || fail "no timer reason"
grep -q '<li>nc: collected with --no-causes</li>' "$W/sec4" || fail "no --no-causes reason"
grep -q '<svg\|<table' "$W/sec4" && fail "a chart or table with no cause columns"
# wult's NMICnt and SMICnt: a breakdown, with what its "none" means
expect_rc 0 "$REPORT" --causes "$WULT" -o "$W/r7"
grep -q 'has only NMICnt, SMICnt (wult records no IRQs or softirqs): its &ldquo;none&rdquo; means none of these' \
	"$W/r7/index.html" || fail "wult: no note on its partial cause columns"
python3 "$check" "$W/r7/index.html" WakeLatency 0="$WULT/datapoints.csv" || fail "wult: the Causes section differs"
# mixed: the chart of the run with causes, the other named
expect_rc 0 "$REPORT" --causes "$W/a" "$TIMER" -o "$W/r5"
sed -n '/<section id="causes"/,/<\/section>/p' "$W/r5/index.html" >"$W/sec5"
grep -q 'Left out, without cause columns:' "$W/sec5" || fail "mixed: the timer run is not named"
python3 "$check" "$W/r5/index.html" WakeLatency 0="$W/a/datapoints.csv" || fail "mixed: the Causes section differs"
# StealTime (bpf on a KVM guest): the "steal only" class and the "any steal" share, checked
# like the others; none of it in a report of runs without StealTime
mkdir "$W/st"
cp "$W/a/info.json" "$W/st/info.json"
python3 - "$W/a/datapoints.csv" "$W/st/datapoints.csv" <<'PY'
import csv, random, sys
random.seed(26)
rows = list(csv.reader(open(sys.argv[1])))
w = csv.writer(open(sys.argv[2], "w", newline=""), lineterminator="\n")
w.writerow(rows[0][:-1] + ["StealTime", rows[0][-1]])
for i, r in enumerate(rows[1:]):
    steal = random.random() < 0.1
    if steal and r[2]:
        r[2] = f"{float(r[2]) + random.expovariate(1 / 30):.3f}"
    w.writerow(r[:-1] + ["" if i % 83 == 0 else f"{random.uniform(0.001, 30) if steal else 0:.3f}", r[-1]])
PY
expect_rc 0 "$REPORT" --causes "$W/st" "$W/a" -o "$W/r8"
for m in WakeLatency IntrLatency; do
	python3 "$check" "$W/r8/index.html" "$m" 0="$W/st/datapoints.csv" 1="$W/a/datapoints.csv" ||
		fail "$m: the Causes section with StealTime differs from the independent computation"
done
grep -q '<th>any steal</th>' "$W/r8/index.html" || fail "no 'any steal' column"
grep -q 'steal' "$W/r1/index.html" && fail "a report without StealTime mentions steal"

# neither latency shown
expect_rc 0 "$REPORT" --causes -m '^LDist$' "$W/a" -o "$W/r6"
grep -q 'No breakdown: neither WakeLatency nor IntrLatency is among the metrics shown' "$W/r6/index.html" ||
	fail "-m LDist: no reason"
