#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# A second collector on the same CPU is refused while the first runs; another CPU is fine;
# root and nobody meet in the same lock whichever comes first.
. "$(dirname "$0")/lib.sh"
wait_cpu_free
# test_bg: the collector dies with this test, however it ends (test-lib.sh)
test_bg "$COLLECT" --method timer -c 1000000 --cpu "$CPU" -q --no-counters -o "$TMP/first"
pid=$!
for _ in $(seq 100); do [ -f "$TMP/first/info.json" ] && break; sleep 0.1; done
[ -f "$TMP/first/info.json" ] || fail "first collector did not start"
expect_fail 1 "^collect: another collector is measuring CPU $CPU \(pid $pid\); wait for it or choose another --cpu$" \
	"$COLLECT" --method timer -c 10 --cpu "$CPU" -q --no-counters -o "$TMP/second"
[ ! -e "$TMP/second" ] || fail "refused collector created its directory"
if [ "$(id -u)" -eq 0 ] && command -v setpriv >/dev/null; then
	# an unprivileged user meets root's lock too
	expect_fail 1 "^collect: another collector is measuring CPU $CPU \(pid $pid\)" \
		as_nobody --method timer -c 10 --cpu "$CPU" -q --no-counters -o "$TMP/third"
fi
other=$(( CPU == 0 ? 1 : 0 ))
if [ "$other" -lt "$(nproc --all)" ]; then
	retry_busy "$COLLECT" --method timer -c 10 --cpu $other -q --no-counters -o "$TMP/othercpu" || fail "collector on CPU $other refused"
fi
kill -INT $pid
wait $pid
retry_busy "$COLLECT" --method timer -c 10 --cpu "$CPU" -q --no-counters -o "$TMP/after" || fail "CPU $CPU still locked after the first collector ended"

# Nobody first, then root, on a just-booted machine (no lock directory yet): in a private
# mount namespace with fresh /run and /tmp (cpu_lock_reboot.sh).
if [ "$(id -u)" -eq 0 ] && command -v setpriv >/dev/null && command -v unshare >/dev/null; then
	if unshare -m true 2>/dev/null; then
		unshare -m sh "$(dirname "$0")/cpu_lock_reboot.sh" "$COLLECT" "$CPU" >"$TMP/reboot" 2>&1
		rc=$?
		cat "$TMP/reboot"
		[ $rc -eq 0 ] || fail "nobody first, then root: root was not refused"
	else
		note "skip nobody-then-root: no private mount namespace here (unshare -m failed)"
	fi
fi
note "cpu lock: ok"
