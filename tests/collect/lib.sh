# SPDX-License-Identifier: GPL-2.0-only
# Helpers shared by the collect tests (sourced). Every check fails loudly with a reason.
# Usage in a test: . "$(dirname "$0")/lib.sh"; COLLECT and ANALYZE come from $1 and $2.
set -u
. "$(dirname "$0")/../common/test-lib.sh"
COLLECT=$1
ANALYZE=$2
BUSY_DUTY=${3:-}
SKIP=77
CPU=${IDLESCOPE_TEST_CPU:-1}
[ "$CPU" -lt "$(nproc --all)" ] || CPU=0

skip() { echo "SKIP: $*" >&2; exit $SKIP; }
note() { echo "# $*"; }

# A scratch directory removed at exit (made world-writable for tests that drop privileges).
TMP=$(mktemp -d /tmp/collect-test.XXXXXX) || fail "mktemp"
chmod 0777 "$TMP"
cleanup_tmp() { rm -rf "$TMP"; }
test_when_finished cleanup_tmp

# start_busy BUSY_US IDLE_US: keep $CPU busy BUSY_US of every BUSY_US + IDLE_US (busy_duty, the
# test's third argument) in the background until the test exits, however it exits.
BUSY_PID=
start_busy() {
	[ -x "${BUSY_DUTY:-}" ] || fail "no busy_duty helper (third argument)"
	test_bg "$BUSY_DUTY" "$CPU" "$1" "$2" >"$TMP/busy.out"
	BUSY_PID=$!
	test_when_finished stop_busy
	for _ in $(seq 50); do
		grep -q ready "$TMP/busy.out" && return 0
		sleep 0.1
	done
	fail "busy_duty did not start on CPU $CPU"
}
stop_busy() {
	[ -z "$BUSY_PID" ] || { kill "$BUSY_PID" 2>/dev/null; wait "$BUSY_PID" 2>/dev/null; BUSY_PID=; }
}

# The cpuidle driver of this machine ("none" without cpuidle), for the tests that depend on it.
idle_driver() { cat /sys/devices/system/cpu/cpuidle/current_driver 2>/dev/null || echo none; }

# check_judged INFO: info.json's attempts, discarded_pct and mostly_discarded agree with its
# datapoints and discards.
check_judged() {
	jq_true "$1" '.attempts == .datapoints + ([.discards[]] | add) and
		(if .attempts == 0 then .discarded_pct == null else
		 ((.discarded_pct - 100 * ([.discards[]] | add) / .attempts) | fabs) < 1e-9 end) and
		.mostly_discarded == ((.discarded_pct // 0) > 50) and (.warnings | type) == "array"' \
		"attempts, discarded_pct, mostly_discarded"
}

# as_nobody ARGS...: run collect as user nobody. The binary is copied into the scratch
# directory first: the build tree may be under a home directory nobody cannot enter.
as_nobody() {
	if [ ! -x "$TMP/bin/collect" ]; then
		mkdir -p "$TMP/bin" && cp "$COLLECT" "$TMP/bin/collect" && chmod 0755 "$TMP/bin" "$TMP/bin/collect" ||
			fail "cannot copy collect for user nobody"
	fi
	setpriv --reuid=nobody --regid=nogroup --clear-groups -- "$TMP/bin/collect" "$@"
}

# Idle state names of $CPU, '|'-separated (names may contain spaces).
state_names() {
	names=""
	for f in /sys/devices/system/cpu/cpu$CPU/cpuidle/state*/name; do
		[ -r "$f" ] || continue
		names="$names$(cat "$f")|"
	done
	printf '%s' "$names"
}

# check_rows CSV LDIST_MIN_NS LDIST_MAX_NS EXPECTED_ROWS(or -1: any) WHOLE_LAST(1: last line must be whole)
# Checks every row of a timer run collected with --keep-raw.
check_timer_rows() {
	awk -F, -v lo="$2" -v hi="$3" -v want="$4" -v whole="$5" -v states="$(state_names)" '
	function die(msg) { printf "FAIL: %s:%d: %s: %s\n", FILENAME, NR, msg, $0 > "/dev/stderr"; bad = 1; exit 1 }
	function ns(us) {   # exact: "780.534" -> 780534
		if (us !~ /^[0-9]+\.[0-9][0-9][0-9]$/) die("not a us value with 3 decimals: " us)
		sub(/\./, "", us); return us + 0
	}
	BEGIN { n = split(states, s, "|"); for (i = 1; i <= n; i++) if (s[i] != "") ok[s[i]] = 1 }
	NR == 1 {
		if ($0 != "LDist,SilentTime,WakeLatency,IntrLatency,IntrOff,ReqCState,LTime,TBI,TAI,TIntr") die("header")
		next
	}
	{
		if (NF != 10) { if (!whole && !cut) { cut = NR; next } die("expected 10 fields") }
		if (cut) die("row after a cut line")
		ld = ns($1); lt = $7 + 0; tbi = $8 + 0; tai = $9 + 0
		if ($7 !~ /^[0-9]+$/ || $8 !~ /^[0-9]+$/ || $9 !~ /^[0-9]+$/) die("raw timestamps not integers")
		if (ld < lo || ld > hi) die("LDist " ld " ns outside [" lo "," hi "]")
		if (!(tbi < lt)) die("TBI >= LTime")
		if (!(lt <= tai)) die("LTime > TAI")
		if (ns($2) != lt - tbi) die("SilentTime != LTime - TBI")
		if (ns($2) > ld) die("SilentTime > LDist")
		if (ns($3) != tai - lt) die("WakeLatency != TAI - LTime")
		if ($4 != "" || $5 != "" || $10 != "") die("IntrLatency/IntrOff/TIntr must be empty for timer")
		if ($6 != "" && !($6 in ok)) die("ReqCState not an idle state of this CPU")
		if (NR > 2 && lt <= prev_tai) die("LTime not after the previous TAI")
		prev_tai = tai; rows++
	}
	END {
		if (bad) exit 1
		if (want >= 0 && rows != want) { printf "FAIL: %s: %d rows, expected %d\n", FILENAME, rows, want > "/dev/stderr"; exit 1 }
		printf "# %s: %d rows checked%s\n", FILENAME, rows, cut ? " (last line cut)" : ""
	}' "$1" || fail "row checks of $1"
}

# retry_busy CMD...: run CMD; while it fails because another collector (another test or user)
# measures the same CPU, wait and retry, for up to 3 minutes. stderr is passed through.
retry_busy() {
	for _ in $(seq 180); do
		"$@" 2>"$TMP/busy_err"
		rc=$?
		if [ $rc -eq 1 ] && grep -q "another collector is measuring" "$TMP/busy_err"; then
			sleep 1
			continue
		fi
		cat "$TMP/busy_err" >&2
		return $rc
	done
	cat "$TMP/busy_err" >&2
	return 1
}

# wait_cpu_free: until no collector holds $CPU (a background run started right after gets it,
# barring a race with another user of the machine).
wait_cpu_free() {
	for _ in $(seq 180); do
		busy=0
		for l in /run/idlescope/cpu$CPU.lock /tmp/idlescope-locks/cpu$CPU.lock; do
			[ -e "$l" ] && ! flock -n "$l" true 2>/dev/null && busy=1
		done
		[ $busy -eq 0 ] && return 0
		sleep 1
	done
	fail "CPU $CPU stayed busy with another collector for 3 minutes"
}

# jq_true FILE EXPR MESSAGE
jq_true() {
	jq -e "$2" "$1" >/dev/null || fail "$1: $3 (jq: $2)"
}

# Lines of CSV that are whole rows: ends with a newline, same number of fields as the header.
csv_rows() { tail -n +2 "$1" | wc -l; }

# expect_fail RC REGEX CMD...: command must exit with RC and print a line matching REGEX on stderr.
expect_fail() {
	want_rc=$1 re=$2
	shift 2
	for _ in $(seq 180); do
		"$@" >"$TMP/out" 2>"$TMP/err"
		rc=$?
		echo "$re" | grep -q "another collector" && break
		grep -q "another collector is measuring" "$TMP/err" || break
		sleep 1
	done
	[ "$rc" -eq "$want_rc" ] || { cat "$TMP/err" >&2; fail "'$*': exit $rc, expected $want_rc"; }
	grep -Eq -- "$re" "$TMP/err" || { cat "$TMP/err" >&2; fail "'$*': no message matching /$re/"; }
	[ "$(wc -l <"$TMP/err")" -eq 1 ] || { cat "$TMP/err" >&2; fail "'$*': expected exactly one line on stderr"; }
	note "ok: $* -> $(cat "$TMP/err")"
}
