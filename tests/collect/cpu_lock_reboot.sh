#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Run by cpu_lock.sh inside a private mount namespace (unshare -m), as root: fresh, empty
# /run and /tmp stand for a machine just rebooted, where no lock directory exists yet.
# A collector of user nobody comes first (and so makes /tmp/idlescope-locks, owned by
# nobody); a root collector on the same CPU must then be refused.
# $1 = collect, $2 = CPU. Prints "ok: ..." lines; exit 1 with a reason on failure.
set -u
. "$(dirname "$0")/../common/test-lib.sh"
COLLECT=$1
CPU=$2

# collect is copied into the new /run first: the build tree may be under /tmp.
mount -t tmpfs -o mode=0755 idlescope-run /run || fail "cannot mount a tmpfs on /run"
mkdir -m 0755 /run/bin && cp "$COLLECT" /run/bin/collect && chmod 0755 /run/bin/collect || fail "copy collect"
mount -t tmpfs -o mode=1777 idlescope-tmp /tmp || fail "cannot mount a tmpfs on /tmp"
mkdir -m 0777 /tmp/out

setpriv --reuid=nobody --regid=nogroup --clear-groups -- \
	/run/bin/collect --method timer -c 1000000 --cpu "$CPU" -q --no-counters -o /tmp/out/nobody &
pid=$!
test_when_finished 'kill -INT $pid 2>/dev/null; wait $pid'
for _ in $(seq 100); do [ -f /tmp/out/nobody/info.json ] && break; sleep 0.1; done
[ -f /tmp/out/nobody/info.json ] || fail "nobody's collector did not start"
[ "$(stat -c %U /tmp/idlescope-locks)" = nobody ] || fail "/tmp/idlescope-locks was not made by nobody"
[ ! -e /run/idlescope ] || fail "nobody could make /run/idlescope"
echo "ok: nobody's collector (pid $pid) holds CPU $CPU; /tmp/idlescope-locks is nobody's"

/run/bin/collect --method timer -c 10 --cpu "$CPU" -q --no-counters -o /tmp/out/root 2>/tmp/err
rc=$?
err=$(cat /tmp/err)
[ $rc -eq 1 ] || fail "root's collector: exit $rc, expected 1 (refused): $err"
echo "$err" | grep -Eq "^collect: another collector is measuring CPU $CPU \(pid $pid\); wait for it or choose another --cpu$" ||
	fail "root's collector: unexpected message: $err"
[ "$(wc -l </tmp/err)" -eq 1 ] || fail "root's collector: expected one line: $err"
[ ! -e /tmp/out/root ] || fail "refused collector made its directory"
echo "ok: root refused -> $err"
