# SPDX-License-Identifier: GPL-2.0-only
# Helpers for the bpf method tests (sourced). $1 = collect, $2 = analyze (or "").
# Exit 77 = skipped, with the reason printed.
set -u
. "$(dirname "$0")/../common/test-lib.sh"
COLLECT=$1
ANALYZE=${2:-}
CPU=${IDLESCOPE_TEST_CPU:-1}
[ "$CPU" -lt "$(nproc --all)" ] || CPU=0

skip() { echo "SKIP: $*" >&2; exit 77; }
note() { echo "# $*"; }

TMP=$(mktemp -d /tmp/bpf-test.XXXXXX) || fail "mktemp"
chmod 0777 "$TMP"
test_when_finished 'rm -rf "$TMP"'

need_bpf_env() {
	command -v jq >/dev/null || fail "jq not installed"
	[ "$(id -u)" -eq 0 ] || skip "the bpf method needs root; run ctest as root"
	[ -r /sys/kernel/btf/vmlinux ] || skip "no kernel BTF at /sys/kernel/btf/vmlinux"
}

# need_netrx_load: what loopback traffic steered to $CPU needs (python3, a second CPU to send
# from, lo's RPS), or skip. Sets RPS (lo's rps_cpus) and SRC (the CPU the traffic comes from).
need_netrx_load() {
	command -v python3 >/dev/null || skip "python3 not installed (the traffic generator)"
	[ "$(nproc)" -ge 2 ] || skip "one online CPU: no other CPU to send the traffic from"
	RPS=/sys/class/net/lo/queues/rx-0/rps_cpus
	[ -w "$RPS" ] || skip "no $RPS (kernel without RPS)"
	SRC=0
	[ "$CPU" -ne 0 ] || SRC=1
}

# netrx_load_start: steer lo's receive side to $CPU (rps_cpus restored on any exit) and start
# UDP traffic from $SRC in the background (GEN its pid; $TMP/sent the datagrams it sent).
# netrx_load_stop: stop it (it must not have failed) and restore rps_cpus.
netrx_load_start() {
	RPS_OLD=$(cat "$RPS") || fail "cannot read $RPS"
	test_when_finished "echo '$RPS_OLD' > '$RPS'"
	printf '%x\n' $((1 << CPU)) >"$RPS" || fail "cannot write $RPS"
	test_bg python3 "$(dirname "$0")/cause_load.py" netrx "$SRC" "$CPU" 60 >"$TMP/sent"
	GEN=$!
}

netrx_load_stop() {
	kill "$GEN" && wait "$GEN" || fail "the traffic generator failed"
	echo "$RPS_OLD" >"$RPS"
}

# Idle state names of $CPU, '|'-separated (names may contain spaces).
state_names() {
	names=""
	for f in /sys/devices/system/cpu/cpu$CPU/cpuidle/state*/name; do
		[ -r "$f" ] && names="$names$(cat "$f")|"
	done
	printf '%s' "$names"
}

# collect_wait ARGS...: run collect; while another collector holds the CPU (another test, or
# another user of this machine) or, for a run with --set, is changing settings, wait and retry
# for up to 90 s. Its stderr ends in $TMP/err.
collect_wait() {
	tries=0
	while :; do
		"$COLLECT" "$@" 2>"$TMP/err"
		rc=$?
		grep -q -e 'another collector is measuring CPU' -e 'is changing settings (journal' "$TMP/err" || break
		tries=$((tries + 1))
		[ "$tries" -lt 90 ] || break
		sleep 1
	done
	cat "$TMP/err" >&2
	return $rc
}

jq_true() {
	jq -e "$2" "$1" >/dev/null || fail "$1: $3 (jq: $2)"
}

# check_bpf_rows CSV LDIST_MIN_NS LDIST_MAX_NS EXPECTED_ROWS: every row of a --keep-raw bpf run.
check_bpf_rows() {
	awk -F, -v lo="$2" -v hi="$3" -v want="$4" -v states="$(state_names)" '
	function die(msg) { printf "FAIL: %s:%d: %s: %s\n", FILENAME, NR, msg, $0 > "/dev/stderr"; bad = 1; exit 1 }
	function ns(us) {   # exact: "780.534" -> 780534
		if (us !~ /^-?[0-9]+\.[0-9][0-9][0-9]$/) die("not a us value with 3 decimals: " us)
		sub(/\./, "", us); return us + 0
	}
	function int_col(v, what) { if (v !~ /^[0-9]+$/) die(what " is not a whole number of ns"); return v + 0 }
	# With no cpuidle driver the kernel idles in default_idle_call (cpu_idle index 1, no name):
	# then ReqCState must be empty.
	BEGIN { n = split(states, s, "|"); for (i = 1; i <= n; i++) if (s[i] != "") ok[s[i]] = 1; if (states == "") ok[""] = 1 }
	NR == 1 {
		# StealTime only on a KVM guest with steal time (tests/bpf/steal.sh)
		if ($0 == "LDist,SilentTime,WakeLatency,IntrLatency,IntrOff,ReqCState,LTime,TBI,TAI,TIntr,IRQCnt,IRQTime,IRQTop,SWIRQCnt,SWIRQTime,SWIRQTypes,StealTime,NMICnt") nf = 18
		else if ($0 == "LDist,SilentTime,WakeLatency,IntrLatency,IntrOff,ReqCState,LTime,TBI,TAI,TIntr,IRQCnt,IRQTime,IRQTop,SWIRQCnt,SWIRQTime,SWIRQTypes,NMICnt") nf = 17
		else die("header")
		next
	}
	{
		if (NF != nf) die("expected " nf " fields (10 and the " nf - 10 " cause columns)")
		ld = ns($1); lt = int_col($7, "LTime"); tbi = int_col($8, "TBI"); tintr = int_col($10, "TIntr")
		if (ld < lo || ld > hi) die("LDist " ld " ns outside [" lo "," hi "]")
		if (!(tbi < lt)) die("TBI >= LTime")
		if (!(lt <= tintr)) die("LTime > TIntr")
		if (ns($2) != lt - tbi) die("SilentTime != LTime - TBI")
		if (ns($4) != tintr - lt) die("IntrLatency != TIntr - LTime")
		if ($5 != "0" && $5 != "1") die("IntrOff not 0 or 1")
		if (!($6 in ok)) die("ReqCState not an idle state of this CPU")
		if ($9 == "") {
			if ($3 != "") die("WakeLatency without TAI")
			if ($6 != "POLL") die("TAI missing for a state other than POLL")
		} else {
			tai = int_col($9, "TAI")
			if ($6 == "POLL") die("TAI given for POLL")
			if (!(lt <= tai)) die("LTime > TAI")
			if (ns($3) != tai - lt) die("WakeLatency != TAI - LTime")
			if ($5 == "1" && !(tai <= tintr)) die("IntrOff 1 but TAI > TIntr")
			if ($5 == "0" && !(tintr <= tai)) die("IntrOff 0 but TIntr > TAI")
		}
		# POLL rows too: a datapoint needs an idle entry after arming (wake.bpf.c on_fire).
		if (ns($2) > ld) die("SilentTime > LDist: idle began before the event was armed")
		if (rows && lt <= prev_tintr) die("LTime not after the previous TIntr")
		prev_tintr = tintr; rows++
	}
	END {
		if (bad) exit 1
		if (rows != want) { printf "FAIL: %s: %d rows, expected %d\n", FILENAME, rows, want > "/dev/stderr"; exit 1 }
		printf "# %s: %d rows checked\n", FILENAME, rows
	}' "$1" || fail "row checks of $1"
}

# check_bpf_info INFO_JSON EVENT_SOURCE ROWS
check_bpf_info() {
	jq_true "$1" '.method == "bpf" and .cpu == '"$CPU" "method and CPU"
	jq_true "$1" '.event_source == "'"$2"'" and (.event_source_why | length) > 20' "event source and why"
	jq_true "$1" '.method_details.event_source == "'"$2"'" and (.method_details.tintr_sources | index("timer:hrtimer_expire_entry")) != null' "method details"
	jq_true "$1" '(.discards | keys) == ["lost","not_idle","other_wake","wrong_cpu"] and ([.discards[]] | all(type == "number" and . >= 0))' "discards by reason"
	jq_true "$1" '.datapoints == '"$3"' and .complete == true' "datapoint count and completeness"
	note "discards: $(jq -c .discards "$1")"
}
