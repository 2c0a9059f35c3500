#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# A cpuidle state name that needs care in datapoints.csv (a comma, a quote, an escape sequence,
# an invalid byte; faked by bind mounts in a private mount namespace): one RFC 4180 field with
# \xNN, so that analyze reads the run and shows the state as it would any other name.
. "$(dirname "$0")/lib.sh"
[ "$(id -u)" -eq 0 ] && command -v unshare >/dev/null || skip "needs root and unshare (bind mounts)"
names=$(ls -d /sys/devices/system/cpu/cpu$CPU/cpuidle/state* 2>/dev/null)
[ -n "$names" ] || skip "CPU $CPU has no cpuidle states (driver none)"
# every state of the CPU gets the odd name, so that whichever the run requests is it
printf 'C,1"\033[31mx\377\n' >"$TMP/name"
wait_cpu_free
retry_busy unshare -m sh -c '
	for d in /sys/devices/system/cpu/cpu$1/cpuidle/state*; do mount --bind "$2" "$d/name" || exit 9; done
	exec "$3" --method timer -c 30 --cpu "$1" -q --no-counters -o "$4"' \
	sh "$CPU" "$TMP/name" "$COLLECT" "$TMP/run" 2>"$TMP/err"
rc=$?
[ $rc -eq 9 ] && skip "cannot bind-mount over sysfs here"
[ $rc -eq 0 ] || { cat "$TMP/err" >&2; fail "collect: exit $rc"; }
want='"C,1""\x1b[31mx\xff"'
grep -qF -- ",$want" "$TMP/run/datapoints.csv" || { head -3 "$TMP/run/datapoints.csv" >&2; fail "state name not written as $want"; }
"$ANALYZE" stats -F csv "$TMP/run" >"$TMP/stats" 2>"$TMP/err" || { cat "$TMP/err" >&2; fail "analyze stats on the run"; }
grep -qF -- ',ReqCState,"C,1""\x1b[31mx\xff",' "$TMP/stats" || { cat "$TMP/stats" >&2; fail "analyze's group"; }
# info.json: valid UTF-8, the name exact where JSON can carry it, the invalid byte as \xff
python3 "$(dirname "$0")/../analyze/check_text.py" json "$TMP/run/info.json" || fail "info.json not clean"
jq_true "$TMP/run/info.json" '[.system.cpuidle.states[].name] | unique == ["C,1\"\u001b[31mx\\xff"]' \
	"state names in info.json"
note "state names: ok ($(grep -c . "$TMP/run/datapoints.csv") lines)"
