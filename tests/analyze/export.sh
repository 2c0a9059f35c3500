#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# analyze export on a fleet directory (a host's single run and a host's experiment): the row
# count is runs x groups x metrics x functions as analyze stats --format csv gives them, every
# value is the same text as stats prints, the run columns come from info.json, and JSON Lines
# carries the same doubles; bad arguments are one line and a non-zero exit.
# usage: export.sh ANALYZE SAMPLES
set -u
. "$(dirname "$0")/../common/test-lib.sh"
analyze=$1 samples=$2
test_tmpdir tmp
fleet=$tmp/fleet

# hostA: one run measured over SSH; hostB: an experiment of two runs (cstates=POLL, all).
mkdir -p "$fleet/hostA" "$fleet/hostB/cstates=POLL-r1" "$fleet/hostB/cstates=all-r1" "$fleet/notes"
cp "$samples/timer-c200/datapoints.csv" "$fleet/hostA/" || fail "copy timer-c200"
jq '.remote = {host: "hostA", connection: "complete"} | .reportid = "hostA"' "$samples/timer-c200/info.json" \
	> "$fleet/hostA/info.json" || fail "jq hostA"
for c in POLL all; do
	d=$fleet/hostB/cstates=$c-r1
	cp "$samples/bpf-c200/datapoints.csv" "$d/" || fail "copy bpf-c200"
	[ $c = all ] && sed -i '2,51d' "$d/datapoints.csv"   # 150 datapoints: other values
	jq --arg c $c '.experiment = {config: {cstates: $c}, replicate: 1, run: 1, runs: 2}
		| .settings = {cstates: $c, "idle-governor": "menu"} | .remote = {host: "hostB"}
		| .reportid = "cstates=\($c)-r1"' \
		"$samples/bpf-c200/info.json" > "$d/info.json" || fail "jq $c"
done
cat > "$fleet/hostB/experiment.json" <<'JSON'
{"format": "idlescope-experiment", "format_version": "1.0",
 "design": {"factors": [{"name": "cstates", "values": ["POLL", "all"]}], "repeat": 1},
 "runs": [{"path": "cstates=all-r1", "config": {"cstates": "all"}, "replicate": 1, "complete": true},
          {"path": "cstates=POLL-r1", "config": {"cstates": "POLL"}, "replicate": 1, "complete": true}]}
JSON
echo "not a run" > "$fleet/notes/README"
# hostC: a run as the Ansible role fetches it (no remote.host: the subdirectory names the host)
mkdir "$fleet/hostC" && cp "$samples/timer-c200/datapoints.csv" "$fleet/hostC/" &&
	jq '.reportid = "hostC-run" | del(.remote)' "$samples/timer-c200/info.json" > "$fleet/hostC/info.json" ||
	fail "hostC"

"$analyze" export "$fleet" > "$tmp/out.csv" 2> "$tmp/err" || fail "export failed: $(cat "$tmp/err")"
grep -q "fleet/notes: neither a run with datapoints nor an experiment, left out" "$tmp/err" ||
	fail "no note about fleet/notes: $(cat "$tmp/err")"
"$analyze" export -F jsonl "$fleet" > "$tmp/out.jsonl" 2>/dev/null || fail "export -F jsonl failed"
# stats of the same runs, in the order export takes them (hosts by name, an experiment's runs
# in design order)
"$analyze" stats -F csv "$fleet/hostA" "$fleet/hostB/cstates=POLL-r1" "$fleet/hostB/cstates=all-r1" "$fleet/hostC" \
	> "$tmp/stats.csv" 2>/dev/null || fail "stats failed"

python3 - "$tmp/out.csv" "$tmp/out.jsonl" "$tmp/stats.csv" <<'PY' || fail "export and stats disagree"
import csv, json, sys
exp = list(csv.DictReader(open(sys.argv[1])))
jl = [json.loads(l) for l in open(sys.argv[2])]
st = list(csv.reader(open(sys.argv[3])))
head, st = st[0], st[1:]
funcs = head[5:]
want = len(st) * len(funcs)
bad = []
if len(exp) != want or len(jl) != want:
    bad.append(f"rows: csv {len(exp)}, jsonl {len(jl)}, stats {len(st)} x {len(funcs)} = {want}")
i = 0
for row in st:
    for k, f in enumerate(funcs):
        if i >= len(exp):
            break
        e = exp[i]; i += 1
        got = (e["run"], e["by"], e["group"], e["rows"], e["metric"], e["func"], e["value"])
        if got != (row[0], row[1], row[2], row[3], row[4], f, row[5 + k]):
            bad.append(f"row {i}: {got} != stats {row[:5]} {f}={row[5 + k]}")
for e, j in zip(exp, jl):
    if (e["value"] == "") != (j["value"] is None) or (e["value"] and float(e["value"]) != j["value"]):
        bad.append(f"jsonl value {j['value']} != csv {e['value']}")
    if j["run"] != e["run"] or j["host"] != e["host"] or str(j["rows"]) != e["rows"]:
        bad.append(f"jsonl {j} != csv {e}")
runs = {}
for e in exp:
    runs.setdefault(e["run"], e)
print("# runs:", {r: (e["host"], e["config"], e["replicate"], e["method"]) for r, e in runs.items()})
a, ball, bpoll, c = runs.get("hostA"), runs.get("cstates=all-r1"), runs.get("cstates=POLL-r1"), runs.get("hostC-run")
if not (a and ball and bpoll and c):
    bad.append(f"runs: {list(runs)}")
else:
    if (a["host"], a["config"], a["replicate"], a["settings"], a["method"]) != ("hostA", "", "", "", "timer"):
        bad.append(f"hostA columns: {a}")
    if (ball["host"], ball["config"], ball["replicate"], ball["method"]) != ("hostB", "cstates=all", "1", "bpf"):
        bad.append(f"hostB all columns: {ball}")
    if json.loads(bpoll["settings"]) != {"cstates": "POLL", "idle-governor": "menu"}:
        bad.append(f"settings: {bpoll['settings']}")
    if c["host"] != "hostC":
        bad.append(f"hostC's host column: {c['host']}")
    if not a["kernel"] or not a["cpu_model"]:
        bad.append("kernel or cpu_model empty")
    if [e["rows"] for e in exp if e["run"] == "cstates=all-r1" and e["by"] == ""][0] != "150":
        bad.append("cstates=all-r1 rows != 150")
js = [j for j in jl if j["run"] == "cstates=POLL-r1"][0]
if js["settings"] != {"cstates": "POLL", "idle-governor": "menu"} or js["replicate"] != 1:
    bad.append(f"jsonl settings/replicate: {js}")
print("# rows:", len(exp), "=", len(st), "stats rows x", len(funcs), "functions")
for b in bad[:10]:
    print(b, file=sys.stderr)
sys.exit(1 if bad else 0)
PY

# An experiment directory alone: its runs only, in design order.
"$analyze" export -G -f med -m '^WakeLatency$' "$fleet/hostB" > "$tmp/b.csv" 2>/dev/null || fail "export hostB"
[ "$(cut -d, -f1 "$tmp/b.csv" | tail -n +2 | tr '\n' ' ')" = "cstates=POLL-r1 cstates=all-r1 " ] ||
	fail "experiment rows: $(cat "$tmp/b.csv")"

# Bad arguments: one line, exit 2 (usage) or 1 (data).
expect_status() {
	local want=$1 msg=$2; shift 2
	"$analyze" export "$@" > /dev/null 2> "$tmp/err"; local rc=$?
	[ $rc = "$want" ] || fail "export $*: exit $rc, expected $want"
	[ "$(wc -l < "$tmp/err")" = 1 ] && grep -qF "$msg" "$tmp/err" || fail "export $*: '$(cat "$tmp/err")'"
}
expect_status 2 "export: --format: expected csv or jsonl, got 'json'" -F json "$fleet"
expect_status 2 "export: no run given" -F csv
expect_status 2 "export: unknown option '--form' (long options are never abbreviated: --format?)" --form csv "$fleet"
mkdir "$tmp/empty"
expect_status 1 "$tmp/empty: not a run, an experiment or a fleet directory" "$tmp/empty"
expect_status 1 "$tmp/nothing" "$tmp/nothing"
exit 0
