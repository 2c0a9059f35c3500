#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# A SUT of another architecture: a server whose sessions see a PATH with a uname that says
# aarch64 first in it (sshd_config SetEnv). Deploy and a run are refused with one line naming
# the host and both architectures, and nothing is copied to the SUT.
. "$(dirname "$0")/../collect/lib.sh"
. "$(dirname "$0")/sshd.sh"
mkdir -p "$TMP/fakebin"
REAL_UNAME=$(command -v uname)
cat >"$TMP/fakebin/uname" <<EOS
#!/bin/sh
# the machine of an arm64 SUT; everything else as the real uname says
[ "\$*" = -m ] && { echo aarch64; exit 0; }
exec $REAL_UNAME "\$@"
EOS
chmod 755 "$TMP/fakebin" "$TMP/fakebin/uname"
SSHD_EXTRA="SetEnv PATH=$TMP/fakebin:/usr/local/bin:/usr/bin:/bin:/usr/sbin:/sbin"
start_sshd 1
here=$(uname -m)
[ "$here" != aarch64 ] || skip "this machine is aarch64 itself: the fake SUT would not differ"

# the server's sessions do see the other machine
got=$(ssh -F "$SSHDIR/config" -o BatchMode=yes sut1 'uname -m; uname -s') || fail "ssh to the fake SUT failed"
[ "$got" = "aarch64
Linux" ] || fail "the fake SUT says '$got', expected aarch64 and Linux"

# one_line RC REGEX CMD...: exit RC, exactly one line on stderr, matching REGEX
one_line() {
	want=$1 re=$2
	shift 2
	"$@" >"$TMP/out" 2>"$TMP/err"
	rc=$?
	[ $rc -eq "$want" ] || { cat "$TMP/err"; fail "$*: exit $rc, expected $want"; }
	[ "$(wc -l <"$TMP/err")" -eq 1 ] || { cat "$TMP/err"; fail "$*: not one line"; }
	grep -Eq "$re" "$TMP/err" || { cat "$TMP/err"; fail "$*: message does not match $re"; }
	note "$(cat "$TMP/err")"
}
msg="^collect: sut1: the SUT is aarch64; this collect is built for $here \(build idlescope for aarch64 to measure it\)\$"
one_line 1 "$msg" rcollect -H sut1 --deploy
[ ! -e "$TMP/sut" ] || { find "$TMP/sut"; fail "something was copied to a SUT of another architecture"; }
one_line 1 "$msg" rcollect -H sut1 --method timer -c 10 -o "$TMP/run"
[ ! -e "$TMP/sut" ] || { find "$TMP/sut"; fail "something was copied to a SUT of another architecture"; }
[ ! -e "$TMP/run" ] || fail "a run directory was left for a SUT of another architecture"
# in a fleet, the same line in the host's summary
rcollect -H sut1,sut2 --method timer -c 10 -q -o "$TMP/fleet" >"$TMP/out" 2>"$TMP/err"
[ $? -eq 1 ] || { cat "$TMP/out" "$TMP/err"; fail "fleet of two aarch64 SUTs: not exit 1"; }
grep -q "^sut2: 0 datapoints, 0 discards, failed: the SUT is aarch64; this collect is built for $here" "$TMP/out" ||
	{ cat "$TMP/out"; fail "fleet summary line for sut2"; }
[ ! -e "$TMP/sut" ] || fail "something was copied to a SUT of another architecture (fleet)"
echo "remote_arch: OK"
