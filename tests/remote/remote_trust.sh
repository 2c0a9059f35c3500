#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Issue 23 (remote): what another user of the SUT, or a SUT that lies, can make collect do.
# The SUT's directory owned or writable by another user (nobody), or a parent of it, or a
# symlink planted in it: refused before anything is written. The deployed collect swapped
# between the deploy and the run: not run (hash checked on a private copy, in the same step).
# --remote-dir '~/x' expanded as a shell does. A SUT whose info.json counts 1000 datapoints but
# that sends 2 rows: the run is marked incomplete, the SUT keeps its copy (no "fetched").
# 20 MB of messages before the agent starts, and a 50 MB answer to the deploy probe: bounded
# memory, linear time, refused with one line.
. "$(dirname "$0")/../collect/lib.sh"
. "$(dirname "$0")/sshd.sh"
command -v jq >/dev/null || fail "jq not installed"
id nobody >/dev/null 2>&1 || skip "no user nobody"
HOMEDIR=$(sh -c 'cd && pwd -P')
HOMETEST=.cache/idlescope-trust-test-$$
test_when_finished 'rm -rf "${HOMEDIR:?}/$HOMETEST"'
start_sshd 1

# refused RC REGEX DIR...: collect --deploy with --remote-dir DIR exits RC with one line matching
# REGEX, and nothing was deployed
refused() {
	want=$1 re=$2 dir=$3
	"$COLLECT" --ssh-config "$SSHDIR/config" --remote-dir "$dir" --connect-timeout 5 -H sut1 --deploy \
		>"$TMP/out" 2>"$TMP/err"
	rc=$?
	[ $rc -eq "$want" ] && [ "$(wc -l <"$TMP/err")" -eq 1 ] && grep -Eq "$re" "$TMP/err" ||
		{ cat "$TMP/err"; fail "--remote-dir $dir: exit $rc, expected $want and one line matching $re"; }
	! ls -d "$dir"/collect-* >/dev/null 2>&1 || fail "--remote-dir $dir: deployed into it"
	note "$(cat "$TMP/err")"
}

# 1. the SUT's directory and its parents
mkdir -m 0755 "$TMP/other" && chown nobody "$TMP/other"
refused 1 "^collect: sut1: $TMP/other on the SUT \(a parent of the remote directory\) is owned by uid [0-9]+, not by root or the login user: refused" \
	"$TMP/other/sut"
[ ! -e "$TMP/other/sut" ] || fail "a directory was made inside another user's directory"
refused 1 "^collect: sut1: $TMP/other on the SUT is owned by uid [0-9]+, not by the login user \(uid 0\): refused" \
	"$TMP/other"
mkdir -m 0777 "$TMP/open" && chmod 0777 "$TMP/open"
refused 1 "^collect: sut1: $TMP/open on the SUT is writable by group or others: refused" "$TMP/open"
refused 1 "^collect: sut1: $TMP/open on the SUT \(a parent of the remote directory\) is writable by group or others and not sticky: refused" \
	"$TMP/open/sut"
# a sticky parent (as /tmp) is fine, a sticky remote directory is not
mkdir -m 1777 "$TMP/sticky" && chmod 1777 "$TMP/sticky"
refused 1 "is writable by group or others: refused" "$TMP/sticky"
# what collect keeps inside: another user's, or a symlink planted where deploy writes
mkdir -m 0700 "$TMP/own"
rcollect -H sut1 --deploy 2>"$TMP/err" || { cat "$TMP/err"; fail "deploy"; }
VDIR=$(ls -d "$TMP"/sut/collect-*)
VNAME=$(basename "$VDIR")
mkdir -m 0755 "$TMP/own/$VNAME" && chown nobody "$TMP/own/$VNAME"
"$COLLECT" --ssh-config "$SSHDIR/config" --remote-dir "$TMP/own" -H sut1 --deploy 2>"$TMP/err" &&
	fail "a deploy directory of another user's was used"
grep -q "^collect: sut1: $TMP/own/$VNAME on the SUT is owned by uid [0-9]*, not by the login user (uid 0): refused" "$TMP/err" ||
	{ cat "$TMP/err"; fail "another user's deploy directory: wrong message"; }
[ -z "$(ls -A "$TMP/own/$VNAME")" ] || fail "something was written into another user's directory"
rmdir "$TMP/own/$VNAME"
echo "precious" >"$TMP/precious"
ln -s "$TMP" "$TMP/own/$VNAME"
"$COLLECT" --ssh-config "$SSHDIR/config" --remote-dir "$TMP/own" -H sut1 --deploy 2>"$TMP/err" &&
	fail "a symlink in the remote directory was followed"
grep -q "^collect: sut1: $TMP/own/$VNAME on the SUT is a symbolic link: refused" "$TMP/err" ||
	{ cat "$TMP/err"; fail "symlink: wrong message"; }
[ "$(cat "$TMP/precious")" = precious ] && [ ! -e "$TMP/collect" ] || fail "written through the symlink"
note "$(cat "$TMP/err")"

# ~ as a shell expands it; ~USER is refused
"$COLLECT" --ssh-config "$SSHDIR/config" --remote-dir "~/$HOMETEST" -H sut1 --deploy 2>"$TMP/err" ||
	{ cat "$TMP/err"; fail "--remote-dir ~/..."; }
[ -x "$HOMEDIR/$HOMETEST/$VNAME/collect" ] || fail "~/$HOMETEST: not deployed under the home directory"
[ ! -e "$HOMEDIR/~" ] || fail "a directory named ~ was made"
"$COLLECT" --ssh-config "$SSHDIR/config" --remote-dir "~root/x" -H sut1 --deploy 2>"$TMP/err"
[ $? -eq 2 ] && grep -q "^collect: --remote-dir '~root/x': ~USER is not expanded" "$TMP/err" ||
	{ cat "$TMP/err"; fail "~USER not refused"; }

# A second server whose sessions go through a wrapper ($TMP/mode says what it does):
# swap: the deployed collect is replaced just before the agent's command runs (a user racing root)
# short: a fake agent sends 2 rows of a run its info.json says has 1000, logs what collect answers
# noise: 20 MB of messages on stderr before the agent runs
# flood: a 50 MB answer to the deploy probe
cat >"$TMP/wrap" <<EOS
#!/bin/sh
mode=\$(cat $TMP/mode 2>/dev/null)
case "\$mode:\$SSH_ORIGINAL_COMMAND" in
swap:*--remote-agent*)
	printf '#!/bin/sh\ntouch $TMP/swapped-ran\n' >$TMP/sut/$VNAME/collect ;;
short:*--remote-agent*)
	exec python3 $TMP/fake_agent.py ;;
noise:*--remote-agent*)
	yes 'ssh: some noise on the way' | head -c 20000000 >&2; exit 1 ;;
flood:*uname\ -m*)
	yes 0123456789abcdef | head -c 50000000; exit 0 ;;
esac
exec /bin/sh -c "\$SSH_ORIGINAL_COMMAND"
EOS
chmod 755 "$TMP/wrap"
cat >"$TMP/fake_agent.py" <<EOS
import sys
def frame(t, b):
    sys.stdout.buffer.write(b"%s %d\n" % (t, len(b)) + b)
frame(b"H", b"$TMP/sut/runs/fake-1")
frame(b"I", b'{"method": "timer", "datapoints": 1000, "complete": true, "end_time": "2026-01-01T00:00:01Z", "system": {}}')
frame(b"D", b"WakeLatency,IntrLatency\n10,5\n11,6\n")
frame(b"E", b"0")
sys.stdout.flush()
sys.stdout.close()
open("$TMP/fake_answer", "w").write(sys.stdin.read())
EOS
SSHD_EXTRA="ForceCommand $TMP/wrap" start_sshd 2

# the deployed collect swapped between the deploy (hash right) and the run: not run
rcollect -H sut3 --deploy 2>"$TMP/err" || { cat "$TMP/err"; fail "deploy on sut3"; }
echo swap >"$TMP/mode"
wait_cpu_free
rcollect -H sut3 --method timer -c 10 --cpu "$CPU" -o "$TMP/r-swap" 2>"$TMP/err" && fail "a swapped collect ran"
[ ! -e "$TMP/swapped-ran" ] || fail "root ran the program swapped in"
grep -q "^collect: sut3: the deployed collect (.*) is not the one deployed (SHA-256 differs): not run" "$TMP/err" ||
	{ cat "$TMP/err"; fail "swap: wrong message"; }
note "$(cat "$TMP/err")"
: >"$TMP/mode"
rcollect -H sut3 --deploy 2>"$TMP/err" || { cat "$TMP/err"; fail "redeploy on sut3"; }
# a real run from its private copy: the agent removed the copy as it started
rcollect_cpu -H sut1 --method timer -c 5 --cpu "$CPU" -o "$TMP/r-real" || { cat "$TMP/err"; fail "a run on sut1"; }
[ "$(csv_rows "$TMP/r-real/datapoints.csv")" -eq 5 ] || fail "the run on sut1 has not 5 rows"
[ -z "$(ls -A "$TMP/sut" | grep '^\.exec')" ] || fail "a private copy was left in $TMP/sut: $(ls -A "$TMP/sut")"

# 3. a short stream with a normal end: not complete, the SUT keeps its copy
echo short >"$TMP/mode"
rcollect -H sut3 --method timer -c 1000 -o "$TMP/r-short" 2>"$TMP/err" && fail "a short stream was complete"
grep -q "^collect: sut3: incomplete transfer: its info.json counts 1000 datapoints, 2 arrived; .* the SUT keeps its copy in $TMP/sut/runs/fake-1 (collect --fetch)" "$TMP/err" ||
	{ cat "$TMP/err"; fail "short: wrong message"; }
note "$(cat "$TMP/err")"
got=$(jq -r '.complete, .stop_reason, .datapoints, .remote.connection, .remote.sut_copy_kept' "$TMP/r-short/info.json" |
	tr '\n' ' ')
[ "$got" = "false incomplete transfer 2 incomplete true " ] || fail "short: info.json says '$got'"
! grep -q fetched "$TMP/fake_answer" || fail "collect told the SUT it had everything"
"$ANALYZE" stats "$TMP/r-short" >/dev/null 2>"$TMP/aerr"
grep -q "incomplete run: info.json says \"complete\": false, \"stop_reason\": \"incomplete transfer\"" "$TMP/aerr" ||
	{ cat "$TMP/aerr"; fail "analyze said nothing of the short run"; }

# 4. bounded: 20 MB of messages before the agent, a 50 MB probe answer
echo noise >"$TMP/mode"
start=$(date +%s)
/usr/bin/time -f %M -o "$TMP/rss" "$COLLECT" --ssh-config "$SSHDIR/config" --remote-dir "$TMP/sut" -H sut3 \
	--method timer -c 10 -o "$TMP/r-noise" 2>"$TMP/err" && fail "noise: exit 0"
took=$(( $(date +%s) - start ))
rss=$(tail -n 1 "$TMP/rss")
grep -q "^collect: sut3: ssh: some noise" "$TMP/err" && [ "$(wc -l <"$TMP/err")" -eq 1 ] || { tail -n 3 "$TMP/err"; fail "noise: message"; }
note "20 MB of stderr before the agent: $took s, peak RSS $rss KiB"
[ "$took" -le 10 ] && [ "$rss" -le 65536 ] || fail "20 MB of stderr: $took s, $rss KiB"
echo flood >"$TMP/mode"
start=$(date +%s)
/usr/bin/time -f %M -o "$TMP/rss" "$COLLECT" --ssh-config "$SSHDIR/config" --remote-dir "$TMP/sut" -H sut3 \
	--deploy 2>"$TMP/err" && fail "flood: exit 0"
took=$(( $(date +%s) - start ))
rss=$(tail -n 1 "$TMP/rss")
grep -q "^collect: sut3: the SUT's answer was longer than 1024 KiB (output) or 64 KiB (messages): refused" "$TMP/err" ||
	{ cat "$TMP/err"; fail "flood: message"; }
note "50 MB answer to the deploy probe: $took s, peak RSS $rss KiB"
[ "$took" -le 10 ] && [ "$rss" -le 65536 ] || fail "50 MB probe answer: $took s, $rss KiB"
echo "remote_trust: OK"
