#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# test-lib.sh itself: fixture builders refuse an empty root and / (however spelled) before
# writing anything; a failing test kills the background process it started (test_bg) and
# removes its scratch directory; expect_fail checks exit status and message.
# usage: test_lib_selftest.sh TESTS_SRCDIR
. "$(dirname "$0")/test-lib.sh"
T=${1:?usage: test_lib_selftest.sh TESTS_SRCDIR}
test_tmpdir W

# refuse ROOT CMD: sourcing the builders and calling CMD with ROOT exits 1 with the refusal
# and leaves / untouched (no new entries under /sys, /proc, /dev of this shell's view)
refuse() {
	marker=$W/marker.$2
	sh -c '. "$1/common/test-lib.sh"; . "$1/settings/fixture.sh"; . "$1/counters/lib.sh" 2>/dev/null
		"$2" "$3" 0 0 0 >/dev/null || true; echo reached >"$4"' \
		"$0" "$T" "$2" "$1" "$marker" 2>"$W/err.$2"
	rc=$?
	[ $rc -eq 1 ] || fail "$2 '$1': exit $rc, expected 1 ($(cat "$W/err.$2"))"
	grep -q "refusing to build a fixture" "$W/err.$2" || fail "$2 '$1': message: $(cat "$W/err.$2")"
	[ ! -e "$marker" ] || fail "$2 '$1': the builder went on after the refusal"
}
for root in "" / // /./ /tmp/.. ; do
	for builder in make_fixture cpu idle cpuinfo; do
		refuse "$root" "$builder"
	done
done
note "fixture builders refuse '', /, //, /./, /tmp/.."

# a real root is built
sh -c '. "$1/common/test-lib.sh"; . "$1/settings/fixture.sh"; make_fixture "$2"' "$0" "$T" "$W/root" ||
	fail "make_fixture into a scratch root"
[ "$(cat "$W/root/sys/devices/system/cpu/cpuidle/current_governor")" = menu ] || fail "fixture content"

# a failing test: its background sleep is killed and its scratch directory removed
cat >"$W/failing.sh" <<'EOS'
. "$1/common/test-lib.sh"
test_tmpdir D
echo "$D" >"$2.dir"
test_bg sleep 300
echo $! >"$2.bgpid"
sh -c 'sleep 300' &
echo $! >"$2.plainpid"
fail "on purpose"
EOS
sh "$W/failing.sh" "$T" "$W/f" 2>"$W/ferr"
rc=$?
[ $rc -eq 1 ] || fail "failing test: exit $rc, expected 1"
grep -qx "FAIL: on purpose" "$W/ferr" || fail "failing test: stderr $(cat "$W/ferr")"
for f in bgpid plainpid; do
	pid=$(cat "$W/f.$f")
	[ ! -d "/proc/$pid" ] || { kill -KILL "$pid"; fail "the $f process $pid outlived its test"; }
done
[ ! -e "$(cat "$W/f.dir")" ] || fail "scratch directory $(cat "$W/f.dir") left behind"

# the test shell SIGKILLed (a ctest timeout): test_bg's process dies with it
sh -c '. "$1/common/test-lib.sh"; test_bg sleep 300; echo $! >"$2"; exec sleep 300' "$0" "$T" "$W/k.pid" &
shell=$!
# (killed once setpriv has set PR_SET_PDEATHSIG and run the command: its name is sleep)
for _ in $(seq 50); do [ -s "$W/k.pid" ] && [ "$(cat "/proc/$(cat "$W/k.pid")/comm" 2>/dev/null)" = sleep ] && break; sleep 0.1; done
kill -KILL $shell
wait $shell 2>/dev/null
bg=$(cat "$W/k.pid")
for _ in $(seq 50); do [ -d "/proc/$bg" ] || break; sleep 0.1; done
[ ! -d "/proc/$bg" ] || { kill -KILL "$bg"; fail "test_bg's process $bg outlived a SIGKILLed test shell"; }

# expect_fail: right status and message pass; a zero exit, a wrong status or message fail
expect_fail 3 '^boom$' sh -c 'echo boom >&2; exit 3'
( expect_fail 0 . true ) 2>/dev/null && fail "expect_fail accepted exit 0"
( expect_fail 2 '^boom$' sh -c 'echo boom >&2; exit 3' ) 2>/dev/null && fail "expect_fail accepted exit 3 for 2"
( expect_fail 3 '^bang$' sh -c 'echo boom >&2; exit 3' ) 2>/dev/null && fail "expect_fail accepted message boom for /^bang$/"
note "test-lib: ok"
