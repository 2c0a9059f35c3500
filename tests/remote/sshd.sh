# SPDX-License-Identifier: GPL-2.0-only
# A private OpenSSH server on 127.0.0.1 for the remote tests (sourced after tests/collect/lib.sh).
# Everything lives in $TMP/ssh: host key, user key, known_hosts, sshd_config, ssh_config with the
# aliases sut1 and sut2 (one server) and sut3 (a second server, start_sshd 2). stop_sshd runs at
# exit. The tests log in as the user running them (root here) with a key made for the test.
command -v ssh >/dev/null || skip "ssh not installed (openssh-client)"
SSHD=$(command -v sshd || echo /usr/sbin/sshd)
[ -x "$SSHD" ] || skip "sshd not installed (openssh-server, scripts/deps/remote.txt)"
# $TMP/sut is the SUT's directory: collect refuses one under a directory others may write
# (lib.sh makes $TMP world-writable for tests that drop privileges; none here does)
chmod 0755 "$TMP"
SSHDIR=$TMP/ssh
mkdir -p "$SSHDIR" && chmod 700 "$SSHDIR"
ssh-keygen -q -t ed25519 -N '' -f "$SSHDIR/user_key" -C idlescope-test || fail "ssh-keygen user"
cp "$SSHDIR/user_key.pub" "$SSHDIR/authorized_keys"
chmod 600 "$SSHDIR/authorized_keys"
# sshd insists on its privilege separation directory (the Debian service makes it at start)
[ -d /run/sshd ] || mkdir -p -m 0755 /run/sshd

# free_port: a TCP port nothing listens on now
free_port() {
	python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

# start_sshd N [TINYDIR]: server N with its own host key and port ($PORTN); waits until it listens.
# $SSHD_EXTRA, when set, is one more line of its sshd_config (e.g. SetEnv PATH=...). With
# $SSHD_BIND_SRC and $SSHD_BIND_DST, it runs in a mount namespace of its own where the first is
# bound over the second: its sessions see another tree at the same path, as another SUT would.
start_sshd() {
	n=$1
	ssh-keygen -q -t ed25519 -N '' -f "$SSHDIR/host_key$n" -C "host$n" || fail "ssh-keygen host"
	port=$(free_port)
	cat >"$SSHDIR/sshd_config$n" <<EOC
ListenAddress 127.0.0.1:$port
HostKey $SSHDIR/host_key$n
PidFile $SSHDIR/sshd$n.pid
AuthorizedKeysFile $SSHDIR/authorized_keys
PermitRootLogin prohibit-password
PasswordAuthentication no
KbdInteractiveAuthentication no
UsePAM no
StrictModes no
LogLevel ERROR
${SSHD_EXTRA:-}
EOC
	if [ -n "${SSHD_BIND_SRC:-}" ]; then   # its sessions see SSHD_BIND_SRC at SSHD_BIND_DST (another machine's tree)
		unshare -m sh -c 'mount --bind "$1" "$2" && exec "$3" -f "$4" -E "$5"' sh "$SSHD_BIND_SRC" "$SSHD_BIND_DST" \
			"$SSHD" "$SSHDIR/sshd_config$n" "$SSHDIR/sshd$n.log" || skip "cannot bind a directory for sshd $n"
	elif [ -n "${2:-}" ]; then   # $2: a directory that is a 1 MiB tmpfs for this server's sessions
		mkdir -p "$2"
		unshare -m sh -c 'mount -t tmpfs -o size=1m tmpfs "$1" && exec "$2" -f "$3" -E "$4"' sh \
			"$2" "$SSHD" "$SSHDIR/sshd_config$n" "$SSHDIR/sshd$n.log" || skip "cannot mount a tmpfs for sshd $n"
	else
		"$SSHD" -f "$SSHDIR/sshd_config$n" -E "$SSHDIR/sshd$n.log" ||
			fail "sshd $n did not start: $(cat "$SSHDIR/sshd$n.log")"
	fi
	for _ in $(seq 50); do
		[ -s "$SSHDIR/sshd$n.pid" ] && break
		sleep 0.1
	done
	eval "PORT$n=$port"
	echo "[127.0.0.1]:$port $(cut -d' ' -f1-2 "$SSHDIR/host_key$n.pub")" >>"$SSHDIR/known_hosts"
	write_ssh_config
}

write_ssh_config() {
	: >"$SSHDIR/config"
	for a in sut1 sut2; do
		[ -n "${PORT1:-}" ] || continue
		printf 'Host %s\n  HostName 127.0.0.1\n  Port %s\n' "$a" "$PORT1" >>"$SSHDIR/config"
	done
	[ -z "${PORT2:-}" ] || printf 'Host sut3\n  HostName 127.0.0.1\n  Port %s\n' "$PORT2" >>"$SSHDIR/config"
	# nothing listens there: the unreachable host
	printf 'Host deadhost\n  HostName 127.0.0.1\n  Port %s\n' "$DEAD_PORT" >>"$SSHDIR/config"
	cat >>"$SSHDIR/config" <<EOC
Host *
  User $(id -un)
  IdentityFile $SSHDIR/user_key
  IdentitiesOnly yes
  UserKnownHostsFile $SSHDIR/known_hosts
  GlobalKnownHostsFile /dev/null
  StrictHostKeyChecking yes
  LogLevel ERROR
EOC
}
DEAD_PORT=$(free_port)

stop_sshd() {
	for f in "$SSHDIR"/sshd*.pid; do
		[ -s "$f" ] && kill "$(cat "$f")" 2>/dev/null
	done
	rm -rf "$TMP"
}
test_when_finished stop_sshd

# rcollect ARGS...: collect against the test's servers, its files on the SUT under $TMP/sut
rcollect() {
	"$COLLECT" --ssh-config "$SSHDIR/config" --remote-dir "$TMP/sut" --connect-timeout 5 "$@"
}

# rcollect_cpu ARGS...: rcollect, tried again while another collector (a colleague's test) holds
# the CPU; stderr in $TMP/err
rcollect_cpu() {
	for _ in $(seq 60); do
		wait_cpu_free
		rcollect "$@" 2>"$TMP/err" && return 0
		rc=$?
		grep -q "another collector is measuring" "$TMP/err" || return $rc
		sleep 0.2
	done
	return $rc
}

# Colleagues' tests measure CPUs too: wait_cpu_free on whichever CPU frees first (sets CPU).
cpu_busy() {
	for l in /run/idlescope/cpu$1.lock /tmp/idlescope-locks/cpu$1.lock; do
		[ -e "$l" ] && ! flock -n "$l" true 2>/dev/null && return 0
	done
	return 1
}
wait_cpu_free() {
	for _ in $(seq 1800); do
		for c in $(seq 0 $(($(nproc) - 1))); do
			cpu_busy "$c" || { CPU=$c; return 0; }
		done
		sleep 0.1
	done
	fail "no CPU free of other collectors for 180 s"
}

# wait_csv_rows FILE N: until FILE has N rows below its header (60 s at most)
wait_csv_rows() {
	for _ in $(seq 600); do
		[ -f "$1" ] && [ "$(csv_rows "$1")" -ge "$2" ] && return 0
		sleep 0.1
	done
	cat "$TMP/err"
	fail "$1: no $2 rows after 60 s"
}

# kill_ssh PID: SIGKILL to the ssh client under collect PID (the connection drops mid-run)
kill_ssh() {
	sshpid=$(ps -o pid= --ppid "$1" | head -1)
	[ -n "$sshpid" ] && [ "$(ps -o comm= -p $sshpid)" = ssh ] || { kill "$1"; fail "collect ($1) has no ssh child"; }
	kill -KILL $sshpid
}

# wait_sut_stopped DIR: until the SUT's copy DIR has a final info.json (its collect stopped)
wait_sut_stopped() {
	for _ in $(seq 100); do
		[ "$(jq -r .end_time "$1/info.json" 2>/dev/null)" != null ] && [ -f "$1/info.json" ] && return 0
		sleep 0.1
	done
	fail "$1: the SUT's collect did not stop"
}
