#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# collect -H with --list-settings, --dry-run and --restore (docs/experiments.md, "On other
# machines"): one host, then two that differ. sut1 and sut3 are both 127.0.0.1, but sut3's sshd
# runs in a mount namespace where another fixture tree is bound over $TMP/root, so that
# --sysroot $TMP/root is a different machine on each: no EPB, another idle governor, turbo
# left off by a killed experiment (a pending journal). Each host's answer must be what the
# local collect prints for its tree, the table across hosts must mark exactly what differs,
# --restore must put back sut3's journal and only that, and each failure is a line naming
# its host. Then a hostile SUT, and ^C.
. "$(dirname "$0")/../collect/lib.sh"
. "$(dirname "$0")/sshd.sh"
. "$(dirname "$0")/../settings/fixture.sh"
command -v unshare >/dev/null || skip "unshare not installed (util-linux)"
[ "$(id -u)" -eq 0 ] || skip "needs root (a bind mount for the second SUT's tree)"

B=$TMP/rootB
make_fixture "$B"
R=$TMP/root   # (make_fixture sets R: the tree of sut1 last)
make_fixture "$R"
c=cpu/cpufreq
rm "$B"/sys/devices/system/cpu/cpu[01]/power/energy_perf_bias
echo teo >"$B/sys/devices/system/cpu/cpuidle/current_governor"
# turbo=off left by a collector that is gone: the journal names the path as sut3 sees it
echo 1 >"$B/sys/devices/system/cpu/intel_pstate/no_turbo"
mkdir -p -m 0755 "$B/run/idlescope-settings"
printf 'idlescope settings journal 1\npid 999999\nfile\tturbo\t%s\t0\n' "$R/sys/devices/system/cpu/intel_pstate/no_turbo" \
	>"$B/run/idlescope-settings/settings.journal"
cp -a "$R" "$TMP/pristineA"
cp -a "$B" "$TMP/pristineB"
start_sshd 1
SSHD_BIND_SRC=$B SSHD_BIND_DST=$R start_sshd 2
note "cpuidle driver of this machine: $(idle_driver) (the settings here are the fixture trees')"

# untouched: each tree as it was (the ASPM policy file as a real one reads back)
untouched() {
	diff -r "$TMP/pristineA" "$R" >"$TMP/diff" && diff -r "$TMP/pristineB" "$B" >>"$TMP/diff" ||
		{ cat "$TMP/diff"; fail "$1: a fixture tree changed"; }
}

# 1. one host: its section is exactly what collect prints on that machine
rcollect -H sut1 --list-settings --sysroot "$R" >"$TMP/out" 2>"$TMP/err" || { cat "$TMP/err"; fail "sut1 --list-settings"; }
"$COLLECT" --list-settings --sysroot "$R" >"$TMP/local" || fail "local --list-settings"
[ "$(head -1 "$TMP/out")" = "=== sut1 ===" ] || { cat "$TMP/out"; fail "one host: no '=== sut1 ===' first"; }
tail -n +2 "$TMP/out" | diff - "$TMP/local" || fail "one host: the list is not what collect prints on the SUT"
[ ! -s "$TMP/err" ] || { cat "$TMP/err"; fail "one host: stderr"; }
# sut3 sees the other tree at the same path: its answer is the local one for $B
rcollect -H sut3 --list-settings --sysroot "$R" >"$TMP/out3" || fail "sut3 --list-settings"
"$COLLECT" --list-settings --sysroot "$B" | sed "s|$B|$R|" >"$TMP/local3"
tail -n +2 "$TMP/out3" | diff - "$TMP/local3" || fail "sut3: the list is not the one of the bound tree"
note "one host: $(grep -c '^  ' "$TMP/local") lines as collect prints them on the SUT"

# 2. two hosts: both sections, then the table; '*' on exactly the rows that differ
t0=$(date +%s%N)
rcollect -H sut1,sut3 --list-settings --sysroot "$R" >"$TMP/out" 2>"$TMP/err" || { cat "$TMP/out" "$TMP/err"; fail "two hosts --list-settings"; }
t1=$(date +%s%N)
[ "$(grep -c '^=== sut[13] ===$' "$TMP/out")" -eq 2 ] || { cat "$TMP/out"; fail "two hosts: a section per host"; }
sed -n '/^Settings by host/,/^Only on some hosts:/p' "$TMP/out" >"$TMP/table"
grep -q '^Settings by host (\*: the hosts differ; -: the host does not have it):$' "$TMP/table" || { cat "$TMP/out"; fail "no table"; }
grep -Eq "^   setting +sut1 +sut3 *\$" "$TMP/table" || { cat "$TMP/out"; fail "table head"; }
for row in "* idle-governor menu teo" "* turbo on off" "* epb normal -" "  cstates all all" \
	"  freq unl unl" "  pm-qos 2000000000 2000000000" "  aspm@0000:00:1c.0 on on"; do
	m=${row%% *} rest=${row#? }
	re="^$( [ "$m" = '*' ] && echo '\*' || echo ' ')  $(echo "$rest" | sed 's/ / +/g') *\$"
	grep -Eq "$re" "$TMP/table" || { cat "$TMP/out"; fail "table: no row '$row'"; }
done
[ "$(grep -c '^\*' "$TMP/table")" -eq 3 ] || { cat "$TMP/table"; fail "table: not exactly 3 rows marked"; }
[ "$(grep -c '^[ *]  ' "$TMP/table")" -eq 15 ] || { cat "$TMP/table"; fail "table: not 14 settings and its head"; }
grep -q ' $' "$TMP/table" && fail "table: blanks at the end of a line"
sed -n '/^Only on some hosts:/,$p' "$TMP/out" | sed -n 2p | grep -qx '  epb: on sut1; not on sut3' ||
	{ cat "$TMP/out"; fail "epb is not named as on sut1 only"; }
grep -qx 'sut1: ok' "$TMP/out" && grep -qx 'sut3: ok' "$TMP/out" || { cat "$TMP/out"; fail "summary"; }
[ ! -s "$TMP/err" ] || { cat "$TMP/err"; fail "two hosts: stderr"; }
# one host after another (--jobs 1) prints the same as both at once (the default)
t2=$(date +%s%N)
rcollect -H sut1,sut3 --jobs 1 --list-settings --sysroot "$R" >"$TMP/out1" 2>"$TMP/err" || { cat "$TMP/err"; fail "--jobs 1"; }
diff "$TMP/out" "$TMP/out1" || fail "--jobs 1 printed something else"
note "two hosts' lists: $(((t1 - t0) / 1000000)) ms at once, $((($(date +%s%N) - t2) / 1000000)) ms with --jobs 1"
untouched "after --list-settings"
note "two hosts: $(grep -c '^\*' "$TMP/table") of 14 settings marked, epb on sut1 only"

# 3. --dry-run, one host: the plan as collect prints it there, nothing written
S="--sysroot $R --method timer -c 100"
rcollect -H sut1 $S --set freq=2GHz --matrix turbo=on,off --dry-run >"$TMP/out" 2>"$TMP/err" || { cat "$TMP/err"; fail "sut1 --dry-run"; }
"$COLLECT" $S --set freq=2GHz --matrix turbo=on,off --dry-run >"$TMP/local" || fail "local --dry-run"
tail -n +2 "$TMP/out" | diff - "$TMP/local" || fail "one host: the dry run is not what collect prints on the SUT"
grep -q '^2 configurations x 3 repeats = 6 runs' "$TMP/out" || fail "dry run: no plan"
# two hosts: sut3 has no EPB, refused there (exit 2, one line naming sut3); the table shows the
# plan's settings as each host has them now
rcollect -H sut1,sut3 $S --set epb=power --matrix idle-governor=menu,teo --dry-run >"$TMP/out" 2>"$TMP/err"
rc=$?
[ $rc -eq 2 ] || { cat "$TMP/out" "$TMP/err"; fail "two-host dry run with a setting sut3 lacks: exit $rc, expected 2"; }
grep -q "^collect: sut3: collect: epb: this machine does not have it: " "$TMP/err" || { cat "$TMP/err"; fail "no line naming sut3"; }
grep -qx "collect: 1 of 2 hosts failed" "$TMP/err" || { cat "$TMP/err"; fail "no count of failed hosts"; }
[ "$(grep -c . "$TMP/err")" -eq 2 ] || { cat "$TMP/err"; fail "dry run: other lines on stderr"; }
grep -q '^2 configurations x 3 repeats = 6 runs' "$TMP/out" || { cat "$TMP/out"; fail "sut1's plan"; }
grep -qx 'Current values of the settings the plan sets, by host (\*: the hosts differ; -: the host does not have it):' "$TMP/out" &&
	grep -Eqx '\*  epb +normal +- *' "$TMP/out" && grep -Eqx '\*  idle-governor +menu +teo *' "$TMP/out" ||
	{ cat "$TMP/out"; fail "dry run: the plan's settings by host"; }
[ "$(sed -n '/^Current values/,/^Only on/p' "$TMP/out" | grep -c '^[ *]  ')" -eq 3 ] || { cat "$TMP/out"; fail "dry run: the table has other rows"; }
sed -n '/^=== sut3 ===$/{n;p}' "$TMP/out" | grep -q '^(failed: collect: epb: this machine does not have it' ||
	{ cat "$TMP/out"; fail "dry run: sut3's section does not say it failed"; }
grep -qx 'sut1: ok' "$TMP/out" && grep -q '^sut3: collect: epb: this machine does not have it' "$TMP/out" ||
	{ cat "$TMP/out"; fail "dry run summary"; }
untouched "after --dry-run"
note "dry run: sut1 planned, sut3 refused (exit 2): $(grep '^collect: sut3' "$TMP/err" | cut -c1-80)"

# 4. --restore on both: sut1 has nothing pending, sut3's turbo goes back; a value that cannot go
# back first (no_turbo made a directory): exit 1, the host named, the journal kept
nt=$B/sys/devices/system/cpu/intel_pstate/no_turbo
mv "$nt" "$TMP/no_turbo" && mkdir "$nt"
rcollect -H sut1,sut3 --restore --sysroot "$R" >"$TMP/out" 2>"$TMP/err"
rc=$?
[ $rc -eq 1 ] || { cat "$TMP/out" "$TMP/err"; fail "--restore with a value that cannot go back: exit $rc, expected 1"; }
grep -q "^collect: sut3: collect: restore: .*turbo left changed" "$TMP/err" &&
	grep -qx "collect: sut3: collect: --restore: 1 journalled value could not be restored; the journal is kept" "$TMP/err" ||
	{ cat "$TMP/err"; fail "--restore failure lines"; }
grep -v '^collect: 1 of 2 hosts failed$' "$TMP/err" | grep -v '^collect: sut3: ' && fail "a failure line without its host"
[ -e "$B/run/idlescope-settings/settings.journal" ] || fail "the journal was not kept"
rmdir "$nt" && mv "$TMP/no_turbo" "$nt"
rcollect -H sut1,sut3 --restore --sysroot "$R" >"$TMP/out" 2>"$TMP/err" || { cat "$TMP/out" "$TMP/err"; fail "--restore on both"; }
sed -n '/^=== sut1 ===$/{n;p}' "$TMP/out" | grep -qx 'collect: 0 journalled values restored (no journal was pending)' &&
	sed -n '/^=== sut3 ===$/{n;p}' "$TMP/out" | grep -qx 'collect: 1 journalled value restored' ||
	{ cat "$TMP/out"; fail "--restore: per host"; }
grep -qx 'sut1: ok' "$TMP/out" && grep -qx 'sut3: ok' "$TMP/out" || { cat "$TMP/out"; fail "--restore summary"; }
[ "$(cat "$nt")" = 0 ] || fail "sut3's turbo not restored (no_turbo $(cat "$nt"))"
[ ! -e "$B/run/idlescope-settings/settings.journal" ] || fail "sut3's journal left after --restore"
rm -r "$TMP/pristineB/run/idlescope-settings/settings.journal" && echo 0 >"$TMP/pristineB/sys/devices/system/cpu/intel_pstate/no_turbo"
untouched "after --restore (sut3: turbo and its journal only)"
rcollect -H sut1,sut3 --list-settings --sysroot "$R" >"$TMP/out" || fail "--list-settings after --restore"
grep -Eqx '   turbo +on +on *' "$TMP/out" || { grep turbo "$TMP/out"; fail "turbo still differs after --restore"; }
note "restore: sut3's journal replayed (turbo on again), sut1 had none"

# 5. a host that cannot be reached: the others answer, one line names it, exit 1
rcollect -H sut1,deadhost --list-settings --sysroot "$R" >"$TMP/out" 2>"$TMP/err"
rc=$?
[ $rc -eq 1 ] || { cat "$TMP/err"; fail "unreachable host: exit $rc"; }
grep -q "^collect: deadhost: unreachable" "$TMP/err" || { cat "$TMP/err"; fail "no line naming deadhost"; }
grep -q '^  cstates ' "$TMP/out" && grep -q '^deadhost: unreachable' "$TMP/out" || { cat "$TMP/out"; fail "sut1's list or deadhost's summary"; }
grep -q '^Settings by host' "$TMP/out" && fail "a table with one host answering"
expect_fail 2 "^collect: --list-settings: not with --deploy" rcollect -H sut1 --list-settings --deploy
note "unreachable host and usage: one line each"

# 6. a hostile SUT (sut4: a server whose settings command prints $TMP/answer instead) in a fleet
# file with sut1: escapes in what it printed reach the terminal escaped, a bad answer fails that
# host with one line saying why, a flood is cut at ssh's limit
cat >"$TMP/wrap" <<EOS
#!/bin/sh
case "\$SSH_ORIGINAL_COMMAND" in
*--remote-agent-settings*) if [ -s $TMP/flood ]; then yes 0123456789abcdef | head -c 50000000; else cat $TMP/answer; fi; exit 0 ;;
esac
exec /bin/sh -c "\$SSH_ORIGINAL_COMMAND"
EOS
chmod 755 "$TMP/wrap"
SSHD_EXTRA="ForceCommand $TMP/wrap" start_sshd 3
printf 'Host sut4\n  HostName 127.0.0.1\n  Port %s\n' "$PORT3" >>"$SSHDIR/config"
printf 'sut1\n# the hostile one\nsut4\n' >"$TMP/fleet"
answer() {
	printf '{"format":1,"status":0,"output":"%s","output_cut":false,"settings":{"turbo":"%s","x":"1"}}\n' "$1" "$2" >"$TMP/answer"
}
answer 'Settings \u001b[2J\u009b31m here\n' on
rcollect --hosts "$TMP/fleet" --list-settings --sysroot "$R" >"$TMP/out" 2>"$TMP/err" || { cat "$TMP/err"; fail "fleet file with sut4"; }
grep -qx 'Settings \\x1b\[2J\\xc2\\x9b31m here' "$TMP/out" || { cat -A "$TMP/out"; fail "sut4's escapes were not escaped"; }
LC_ALL=C grep -q "$(printf '\033')" "$TMP/out" && fail "an ESC byte reached the terminal"
grep -Eqx '\*  x +- +1' "$TMP/out" && grep -Eqx '   turbo +on +on' "$TMP/out" || { cat "$TMP/out"; fail "sut4's settings in the table"; }
# one line per bad answer, naming sut4 and what is wrong; sut1 still answers
bad_answer() {
	rcollect --hosts "$TMP/fleet" --list-settings --sysroot "$R" >"$TMP/out" 2>"$TMP/err"
	rc=$?
	[ $rc -eq 1 ] || { cat "$TMP/err"; fail "$2: exit $rc, expected 1"; }
	[ "$(grep -c . "$TMP/err")" -eq 2 ] && grep -qx "collect: 1 of 2 hosts failed" "$TMP/err" &&
		grep -qx "collect: sut4: $1" "$TMP/err" || { cat "$TMP/err"; fail "$2: not the line '$1'"; }
	grep -qx 'sut1: ok' "$TMP/out" && grep -q '^  cstates ' "$TMP/out" || { cat "$TMP/out"; fail "$2: sut1 did not answer"; }
	note "$2: $(grep sut4 "$TMP/err")"
}
answer x 'o\u001bn'
bad_answer "the SUT's answer is not valid (a value with a control character (\\\\x1b) at byte 2)" "a control character in a value"
echo 'Settings of this machine' >"$TMP/answer"
bad_answer "the SUT's answer is not valid (not a JSON object)" "text for an answer"
echo 1 >"$TMP/flood"
start=$(date +%s)
bad_answer "the SUT's answer was longer than 1024 KiB (output) or 64 KiB (messages): refused" "a 50 MB answer"
[ $(($(date +%s) - start)) -lt 60 ] || fail "the 50 MB answer took $(($(date +%s) - start)) s"

# 7. ^C while hosts are asked: those being asked finish (here: time out), no other is started
test_bg python3 -c 'import socket, time
s = socket.socket(); s.bind(("127.0.0.1", 0)); s.listen(8)
print(s.getsockname()[1], flush=True); time.sleep(120)' >"$TMP/silent_port"
for _ in $(seq 50); do [ -s "$TMP/silent_port" ] && break; sleep 0.1; done
printf 'Host silent1 silent2\n  HostName 127.0.0.1\n  Port %s\n' "$(cat "$TMP/silent_port")" >>"$SSHDIR/config"
for jobs in 1 2; do
	"$COLLECT" --ssh-config "$SSHDIR/config" --remote-dir "$TMP/sut" --connect-timeout 3 --jobs $jobs \
		-H silent1,silent2,sut1 --list-settings --sysroot "$R" >"$TMP/out" 2>"$TMP/err" &
	pid=$!
	sleep 1
	kill -INT $pid
	wait $pid
	rc=$?
	[ $rc -eq 1 ] || { cat "$TMP/out" "$TMP/err"; fail "^C, --jobs $jobs: exit $rc, expected 1"; }
	grep -q '^silent1: unreachable (connection timed out)' "$TMP/out" && grep -qx 'sut1: not asked (stopped)' "$TMP/out" ||
		{ cat "$TMP/out"; fail "^C, --jobs $jobs: silent1 not finished or sut1 asked"; }
	want="silent2: not asked (stopped)"
	[ $jobs -eq 2 ] && want="silent2: unreachable (connection timed out)"
	grep -q "^$want" "$TMP/out" || { cat "$TMP/out"; fail "^C, --jobs $jobs: not '$want'"; }
	grep -qx "collect: 3 of 3 hosts failed" "$TMP/err" || { cat "$TMP/err"; fail "^C: count"; }
	note "^C with --jobs $jobs: $(grep -cx '[a-z0-9]*: not asked (stopped)' "$TMP/out") of 3 hosts not asked"
done
