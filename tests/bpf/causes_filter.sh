#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# collect --include on the cause columns (bpf method): with loopback traffic steered to the
# measured CPU (as bpf_causes), a run that keeps only datapoints without a softirq or an IRQ in
# their window keeps none with one, counts the dropped ones as "filtered", and a run without the filter (the
# same traffic) shows that there were some to drop. The timer method, which counts no causes,
# refuses a filter naming them with one line. lo's rps_cpus is restored on any exit.
. "$(dirname "$0")/lib.sh"
need_bpf_env
need_netrx_load
note "cpuidle driver: $(cat /sys/devices/system/cpu/cpuidle/current_driver 2>/dev/null || echo none), CPU $CPU"

# the refusal first: one line, exit 2 or 1, nothing measured beyond the first datapoint
"$COLLECT" --method timer --cpu "$CPU" -c 50 -q --no-counters --exclude 'IRQCnt > 0' -o "$TMP/timer" 2>"$TMP/err"
rc=$?
[ $rc -ne 0 ] || fail "the timer method took a filter on IRQCnt"
grep -q "^collect: --exclude: this run has no column 'IRQCnt': the method counts no causes here" "$TMP/err" ||
	{ cat "$TMP/err"; fail "no clear refusal of IRQCnt with the timer method"; }
[ "$(wc -l <"$TMP/err")" -eq 1 ] || { cat "$TMP/err"; fail "the refusal is not one line"; }

netrx_load_start
CLEAN='IRQCnt == 0 and SWIRQCnt == 0'   # the clean filter of docs/format.md, as collect takes it
collect_wait --method bpf --cpu "$CPU" -c 300 --time-limit 20s -l 200us,2ms -q --no-counters \
	--include "$CLEAN" -o "$TMP/clean" || fail "collect --include '$CLEAN' failed"
collect_wait --method bpf --cpu "$CPU" -c 300 --time-limit 20s -l 200us,2ms -q --no-counters \
	-o "$TMP/all" || fail "collect without a filter failed"
netrx_load_stop

kept=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
	{ n++; if ($c["IRQCnt"] > 0 || $c["SWIRQCnt"] > 0) bad++ } END { print n + 0, bad + 0 }' "$TMP/clean/datapoints.csv")
set -- $kept
[ "$1" -gt 0 ] || fail "the filtered run kept no datapoint"
[ "$2" -eq 0 ] || fail "$2 of $1 kept datapoints have an IRQ or a softirq in their window"
filtered=$(jq '.discards.filtered' "$TMP/clean/info.json")
seen=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
	{ n++; if ($c["IRQCnt"] > 0 || $c["SWIRQCnt"] > 0) k++ } END { print k + 0, n + 0 }' "$TMP/all/datapoints.csv")
set -- $seen
[ "$1" -gt 0 ] || fail "the unfiltered run under traffic had no datapoint with an IRQ or a softirq"
[ "$filtered" -gt 0 ] || fail "info.json counts no filtered datapoint though the same traffic gave $1 of $2"
note "under steered traffic: $1 of $2 datapoints had an IRQ or a softirq; with --include '$CLEAN': all kept clean of them, $filtered filtered"
