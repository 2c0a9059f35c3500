#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# The bad cases, each one line naming the host, and a fleet going on past a failing host:
# unreachable (within the connect timeout), changed host key (refused), authentication refused,
# collect refused on the SUT (its message passed on), no space on the SUT, bad options.
. "$(dirname "$0")/../collect/lib.sh"
. "$(dirname "$0")/sshd.sh"
command -v jq >/dev/null || fail "jq not installed"
start_sshd 1
start_sshd 2

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

# unreachable: nothing listens on deadhost's port
one_line 1 "^collect: deadhost: unreachable \(connection refused\)" rcollect -H deadhost -c 10 -o "$TMP/d1"
[ ! -e "$TMP/d1" ] || fail "an empty run directory was left for an unreachable host"
# a port that accepts connections and never says a word: unreachable within --connect-timeout
python3 -c 'import socket, sys, time
s = socket.socket(); s.bind(("127.0.0.1", 0)); s.listen(8)
print(s.getsockname()[1], flush=True); time.sleep(60)' >"$TMP/silent_port" &
silent=$!
for _ in $(seq 50); do [ -s "$TMP/silent_port" ] && break; sleep 0.1; done
start=$(date +%s)
one_line 1 "^collect: 127\.0\.0\.1: unreachable \(connection timed out\)" \
	"$COLLECT" --ssh-config "$SSHDIR/config" --ssh-opt "Port=$(cat "$TMP/silent_port")" --connect-timeout 2 \
	-H 127.0.0.1 -c 10 -o "$TMP/d2"
took=$(( $(date +%s) - start ))
kill $silent
[ $took -le 5 ] || fail "a silent host took $took s with --connect-timeout 2"

# a changed host key: sut3's known_hosts line holds another key
cp "$SSHDIR/known_hosts" "$SSHDIR/known_hosts.good"
grep -v "^\[127.0.0.1\]:$PORT2 " "$SSHDIR/known_hosts.good" >"$SSHDIR/known_hosts"
echo "[127.0.0.1]:$PORT2 $(cut -d' ' -f1-2 "$SSHDIR/host_key1.pub")" >>"$SSHDIR/known_hosts"
one_line 1 "^collect: sut3: host key mismatch: .*refused" rcollect -H sut3 --deploy
[ ! -e "$TMP/sut" ] || fail "something reached the SUT past a wrong host key"
# nor is checking turned off, however it is spelt and wherever (ssh would log in with it): the
# effective configuration (ssh -G) decides, before any connection (exit 2)
for o in StrictHostKeyChecking=no StrictHostKeyChecking=false 'stricthostkeychecking off' \
	'StrictHostKeyChecking "No"'; do
	one_line 2 "^collect: sut3: StrictHostKeyChecking is off \(ssh would log in to a host whose key changed\): refused" \
		rcollect --ssh-opt "$o" -H sut3 --deploy
done
# accept-new remembering nothing accepts any key (every contact is a first one)
one_line 2 "^collect: sut3: StrictHostKeyChecking accept-new with UserKnownHostsFile /dev/null .*: refused" \
	rcollect --ssh-opt StrictHostKeyChecking=accept-new --ssh-opt UserKnownHostsFile=/dev/null -H sut3 --deploy
# the same from an ssh_config (a Host block of its own ahead of the test's)
{ printf 'Host sut3\n  StrictHostKeyChecking false\n'; cat "$SSHDIR/config"; } >"$SSHDIR/config.weak"
one_line 2 "^collect: sut3: StrictHostKeyChecking is off" \
	"$COLLECT" --ssh-config "$SSHDIR/config.weak" --remote-dir "$TMP/sut" -H sut3 --deploy
# a jump host's configuration too (ssh logs in to it as well)
{ printf 'Host viajump\n  HostName 127.0.0.1\n  Port %s\n  ProxyJump weakjump\n' "$PORT1"
  printf 'Host weakjump\n  HostName 127.0.0.1\n  Port %s\n  StrictHostKeyChecking off\n' "$PORT1"
  cat "$SSHDIR/config"; } >"$SSHDIR/config.jump"
one_line 2 "^collect: viajump: StrictHostKeyChecking is off \(ssh would log in to a host whose key changed\) \(ProxyJump weakjump\): refused" \
	"$COLLECT" --ssh-config "$SSHDIR/config.jump" --remote-dir "$TMP/sut" -H viajump --deploy
# accept-new with a real known_hosts still refuses a changed key
one_line 1 "^collect: sut3: host key mismatch: .*refused" \
	rcollect --ssh-opt StrictHostKeyChecking=accept-new -H sut3 --deploy
[ ! -e "$TMP/sut" ] || fail "something reached the SUT past a wrong host key"
cp "$SSHDIR/known_hosts.good" "$SSHDIR/known_hosts"

# authentication refused: a user the key is not for
one_line 1 "^collect: sut1: authentication refused; ssh said: .*Permission denied" \
	rcollect --ssh-opt User=idlescope-no-such-user -H sut1 --deploy

# collect refused on the SUT, with the SUT's own message
one_line 1 "^collect: sut1: collect: --cpu 4096: no such CPU" rcollect -H sut1 --cpu 4096 -c 10 -o "$TMP/r1"
[ ! -e "$TMP/r1" ] || fail "an empty run directory was left after a refusal"

# a fleet: the bad host fails, the good one is measured, the summary says which
rcollect_cpu -H deadhost,sut1 --method timer -c 50 --cpu "$CPU" -q -o "$TMP/fleet" --force >"$TMP/out"
rc=$?
[ $rc -eq 1 ] || { cat "$TMP/out" "$TMP/err"; fail "fleet with a dead host: exit $rc"; }
grep -qx "sut1: 50 datapoints, [0-9]* discards, ok ($TMP/fleet/sut1)" "$TMP/out" || { cat "$TMP/out"; fail "good host's line"; }
grep -q "^deadhost: 0 datapoints, 0 discards, failed: unreachable" "$TMP/out" || { cat "$TMP/out"; fail "dead host's line"; }
grep -qx "collect: 1 of 2 hosts failed" "$TMP/err" || { cat "$TMP/err"; fail "fleet summary"; }
[ "$(csv_rows "$TMP/fleet/sut1/datapoints.csv")" -eq 50 ] || fail "good host's rows"

# usage errors are found before connecting
one_line 2 "^collect: --jobs '0': expected a whole number from 1 to 1024" rcollect -H sut1 --jobs 0
one_line 2 "^collect: -H 'sut1': host given twice" rcollect -H sut1,sut1
printf 'sut1\n  # comment\n\n-oProxyCommand=x\n' >"$TMP/hosts"
one_line 2 "^collect: $TMP/hosts:4: host '-oProxyCommand=x': a host must not start with '-'" rcollect --hosts "$TMP/hosts"
one_line 2 "^collect: -c '0': expected a positive" rcollect -H sut1 -c 0

# no space on the SUT: a server whose sessions see a 1 MiB tmpfs at $TMP/tiny
start_sshd 3 "$TMP/tiny"
printf 'Host tinysut\n  HostName 127.0.0.1\n  Port %s\n' "$PORT3" | cat - "$SSHDIR/config" >"$SSHDIR/config.new"
mv "$SSHDIR/config.new" "$SSHDIR/config"
one_line 1 "^collect: tinysut: no space on the SUT for the deploy" \
	"$COLLECT" --ssh-config "$SSHDIR/config" --remote-dir "$TMP/tiny/idlescope" -H tinysut --deploy
