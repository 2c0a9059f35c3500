#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# No space left: on a 64 KiB tmpfs (in a private mount namespace), collect stops with one clear
# error and exit 1; datapoints.csv keeps whole rows only and analyze reads what was written.
. "$(dirname "$0")/lib.sh"
[ "$(id -u)" -eq 0 ] || skip "needs root to mount a tmpfs"
command -v unshare >/dev/null || skip "unshare not installed"
command -v jq >/dev/null || fail "jq not installed (scripts/deps/collect.txt)"

mnt="$TMP/tiny"
mkdir "$mnt"
wait_cpu_free
unshare -m sh -c '
	mount -t tmpfs -o size=64k tmpfs "$1" || exit 99
	"$2" --method timer -c 1000000 --cpu "$3" -l 20us --keep-raw -q --no-counters -o "$1/run" 2>"$4/err"
	echo $? >"$4/rc"
	cp -r "$1/run" "$4/copy"
' sh "$mnt" "$COLLECT" "$CPU" "$TMP"
[ -f "$TMP/rc" ] || skip "cannot mount a tmpfs here"
rc=$(cat "$TMP/rc")
[ "$rc" -eq 1 ] || { cat "$TMP/err"; fail "exit $rc, expected 1"; }
grep -q "datapoints.csv: No space left on device; the [0-9]* datapoints written before are kept" "$TMP/err" ||
	{ cat "$TMP/err"; fail "no clear ENOSPC message"; }
rows=$(csv_rows "$TMP/copy/datapoints.csv")
[ "$rows" -gt 100 ] || fail "only $rows rows kept"
check_timer_rows "$TMP/copy/datapoints.csv" 20000 20000 "$rows" 1
jq_true "$TMP/copy/info.json" '.complete == false and .stop_reason == "error" and .datapoints == '"$rows" \
	"info.json rewritten in place: incomplete, with the rows kept"
[ "$(wc -l <"$TMP/err")" -eq 1 ] || { cat "$TMP/err"; fail "more than one error line"; }
"$ANALYZE" stats -F json -f count "$TMP/copy" >"$TMP/stats.json" 2>"$TMP/aerr" || fail "analyze on the full disk run"
# the one warning about the files (notes, e.g. columns without values, are not warnings; a busy CPU
# makes the collector's own warning about discarded attempts, which is carried, not about the
# files): the run is incomplete, and no partial row is left to warn about
[ "$(grep -v -e ': note: ' -e ': the collector warned: ' "$TMP/aerr")" = "analyze: warning: $TMP/copy: incomplete run: info.json says \"complete\": false, \"stop_reason\": \"error\"" ] ||
	{ cat "$TMP/aerr"; fail "analyze warned about more than the incomplete run: a partial row was left?"; }
jq_true "$TMP/stats.json" ".runs[0].rows == $rows" "analyze rows"
note "ENOSPC: $rows whole rows kept; message: $(head -1 "$TMP/err")"
