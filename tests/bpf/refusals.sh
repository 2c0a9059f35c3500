#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# The bpf method refuses clearly: as an unprivileged user it says what to do instead.
. "$(dirname "$0")/lib.sh"
command -v setpriv >/dev/null || skip "setpriv not installed"
[ "$(id -u)" -eq 0 ] || skip "needs root to switch to user nobody"
tries=0
while :; do
	setpriv --reuid=nobody --regid=nogroup --clear-groups -- \
		"$COLLECT" --method bpf -c 10 --cpu "$CPU" -q -o "$TMP/run" >"$TMP/out" 2>"$TMP/err"
	rc=$?
	grep -q 'another collector is measuring CPU' "$TMP/err" || break
	tries=$((tries + 1))
	[ "$tries" -lt 90 ] || fail "CPU $CPU stayed busy with another collector"
	sleep 1
done
[ "$rc" -ne 0 ] || fail "collect --method bpf as nobody succeeded"
grep -q 'needs root (CAP_BPF and CAP_PERFMON): run as root or use --method timer' "$TMP/err" \
	|| fail "no clear refusal as nobody: $(cat "$TMP/err")"
[ "$(wc -l <"$TMP/err")" -eq 1 ] || fail "refusal is not one line: $(cat "$TMP/err")"
[ ! -e "$TMP/run/datapoints.csv" ] || fail "a refused run left datapoints.csv"
note "refusal as nobody: $(cat "$TMP/err")"
