#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# collect --method timer --cpu LIST: one run per CPU at once in DIR/cpuN (as cyclictest -t -a),
# and --priority. Needs two CPUs.
. "$(dirname "$0")/lib.sh"
command -v jq >/dev/null || fail "jq not installed (scripts/deps/collect.txt)"
[ "$(nproc --all)" -ge 2 ] || skip "needs two CPUs"

# Usage errors first (no CPU is taken).
"$COLLECT" --method bpf --cpu 0,1 -o "$TMP/x" 2>"$TMP/err"; [ $? -eq 2 ] && grep -q "need --method timer" "$TMP/err" ||
	fail "--cpu LIST with bpf: $(cat "$TMP/err")"
"$COLLECT" --method timer --cpu 0,1 2>"$TMP/err"; [ $? -eq 2 ] && grep -q "needs -o DIR" "$TMP/err" ||
	fail "--cpu LIST without -o: $(cat "$TMP/err")"
"$COLLECT" --method timer --cpu 0,0 -o "$TMP/x" 2>"$TMP/err"; [ $? -eq 2 ] || fail "--cpu 0,0: $(cat "$TMP/err")"

# Both CPUs must be free at once; on a machine shared with other collectors that may not
# happen within the test's time: then it is skipped, saying so.
busy=1
for _ in $(seq 80); do
	"$COLLECT" --method timer --cpu 0,1 -c 60 -l 500us --no-counters --priority 10 --reportid mc \
		-o "$TMP/mc" 2>"$TMP/mc.err"
	rc=$?
	grep -q "another collector is measuring" "$TMP/mc.err" || { busy=0; break; }
	rm -rf "$TMP/mc"
	sleep 1
done
[ $busy -eq 0 ] || skip "CPUs 0 and 1 were never both free of other collectors for 80 s"
[ $rc -eq 0 ] || { cat "$TMP/mc.err"; fail "two-CPU run: exit $rc"; }
# the two runs share one stderr: every line is whole, one program's (not two pieces run together)
bad=$(awk '/./ && (!/^collect(\[cpu[01]\])?: / || gsub(/collect(\[cpu[01]\])?: /, "&") > 1)' "$TMP/mc.err" | wc -l)
[ "$bad" -eq 0 ] || fail "$bad lines of stderr are not whole lines of one program: $(cat "$TMP/mc.err")"
for c in 0 1; do
	jq_true "$TMP/mc/cpu$c/info.json" ".cpu == $c and .datapoints == 60 and .reportid == \"mc-cpu$c\" and .complete == true" "cpu$c run"
	[ "$(csv_rows "$TMP/mc/cpu$c/datapoints.csv")" -eq 60 ] || fail "cpu$c rows"
	grep -q "^collect\[cpu$c\]: 60 datapoints kept" "$TMP/mc.err" || fail "cpu$c summary: $(cat "$TMP/mc.err")"
	# SCHED_FIFO 10 as root; SCHED_OTHER with the reason otherwise
	jq_true "$TMP/mc/cpu$c/info.json" '.method_details.sched | test("^SCHED_FIFO 10$|^SCHED_OTHER \\(SCHED_FIFO not permitted: .*; asked for 10\\)$")' "cpu$c --priority 10"
done
# The two ran at the same time: their measurement windows overlap.
jq -s -e '(.[0].start_monotonic_ns < .[1].end_monotonic_ns) and (.[1].start_monotonic_ns < .[0].end_monotonic_ns)' \
	"$TMP/mc/cpu0/info.json" "$TMP/mc/cpu1/info.json" >/dev/null || fail "the runs did not overlap"
note "several CPUs at once: ok"
