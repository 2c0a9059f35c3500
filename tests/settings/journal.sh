#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# The settings journal against full disks, other users and killed drivers (issue 23, items
# 9-12), on fixture trees (--sysroot): a journal write that fails for want of space stops the
# run with the real reason and leaves every file as it was (the entry is whole or absent; a cut
# last line is never replayed); another user can neither block nor take over root's journal
# (it lives in a directory of root's own, not in the shared /run/idlescope); a journal that
# --restore cannot replay (another version's head, an entry of an offline CPU, a path outside
# what settings write) says which file, which line and how to discard it; --restore refuses
# while a run of a SIGKILLed driver still measures under the changed settings. Root.
. "$(dirname "$0")/../collect/lib.sh"
. "$(dirname "$0")/fixture.sh"
[ "$(id -u)" -eq 0 ] || skip "needs root (another user, a tmpfs)"
command -v jq >/dev/null || fail "jq not installed"
command -v perl >/dev/null || fail "perl not installed"
CPU=$(pick_cpu)
# a long sysroot: journal entries of ~400 bytes, so that a 4 KiB file system fills mid-run
R=$TMP/r/$(printf 'x%.0s' $(seq 100))/$(printf 'y%.0s' $(seq 100))/root
make_fixture "$R"
cp -a "$R" "$TMP/pristine"
J=$R/run/idlescope-settings/settings.journal
C=$R/sys/devices/system/cpu
same() {
	diff -r -x policy -x run "$TMP/pristine" "$R" >"$TMP/diff" || { cat "$TMP/diff"; fail "$1: the fixture tree is not as before"; }
}
S="--sysroot $R --method timer --cpu $CPU -q --no-counters"
SET="--set freq=2GHz --set turbo=off --set cstates=POLL --set idle-governor=teo --set cpufreq-governor=performance --set epp=power --set epb=15"

# 9. A full file system: the run stops with "No space left on device", nothing stays changed,
#    no journal is left, no cut entry is replayed
mkdir -p "$R/run"
unshare -m sh -c '
	mount -t tmpfs -o size=4k tmpfs "$1/run" || exit 99
	shift
	"$@"
	echo $? >"'"$TMP"'/rc"
	ls -A "'"$R"'/run" >"'"$TMP"'/left"; ls -A "'"$R"'/run/idlescope-settings" >>"'"$TMP"'/left" 2>/dev/null
' sh "$R" $COLLECT $S -c 20 -o "$TMP/full" $SET 2>"$TMP/err"
[ -f "$TMP/rc" ] || skip "cannot mount a tmpfs here"
[ "$(cat "$TMP/rc")" = 1 ] || { cat "$TMP/err"; fail "full /run: exit $(cat "$TMP/rc"), expected 1"; }
grep -q "^collect: $J: cannot write the journal: No space left on device; [a-z-]* not changed$" "$TMP/err" ||
	{ cat "$TMP/err"; fail "full /run: no message with the real reason"; }
grep -q "Success" "$TMP/err" && fail "full /run: 'Success' as a reason"
[ ! -e "$TMP/full/datapoints.csv" ] || fail "full /run: the run measured anyway"
same "full /run"
[ "$(cat "$TMP/left")" = idlescope-settings ] || fail "full /run: left in run/: $(cat "$TMP/left")"
note "full /run: $(head -1 "$TMP/err")"

# A journal whose last line was cut (a crash while it was written): that entry is left out
mkdir -p "$R/run/idlescope-settings"
printf 'idlescope settings journal 1\npid 999999\nfile\tturbo\t%s\t0\nfile\tfreq\t%s\t42' \
	"$C/intel_pstate/no_turbo" "$C/cpu0/cpufreq/scaling_max_freq" >"$J"
echo 1 >"$C/intel_pstate/no_turbo"
"$COLLECT" --restore --sysroot "$R" >"$TMP/out" 2>"$TMP/err" || { cat "$TMP/err"; fail "--restore of a cut journal"; }
grep -q "^collect: note: restore: $J:4: an entry cut short while it was written is left out" "$TMP/err" ||
	{ cat "$TMP/err"; fail "cut journal: no note"; }
grep -q "^collect: 1 journalled value restored$" "$TMP/out" || { cat "$TMP/out"; fail "cut journal: count"; }
same "cut journal (scaling_max_freq is not 42)"

# 10. Another user: the shared /run/idlescope is theirs to fill; root's journal is elsewhere
mkdir -p -m 1777 "$R/run/idlescope" && chmod 1777 "$R/run/idlescope"
setpriv --reuid=nobody --regid=nogroup --clear-groups touch "$R/run/idlescope/settings.journal" ||
	fail "nobody cannot write the shared directory: cannot test"
setpriv --reuid=nobody --regid=nogroup --clear-groups mkdir "$R/run/idlescope-settings/x" 2>/dev/null &&
	fail "nobody could create a file in root's journal directory"
retry_busy $COLLECT $S -c 20 -o "$TMP/set10" --set turbo=off || fail "--set with nobody's file in /run/idlescope"
jq_true "$TMP/set10/info.json" '.settings_changed.turbo == {"before":"on","after":"off"}' "turbo changed"
same "after a --set beside nobody's file"
"$COLLECT" --restore --sysroot "$R" >"$TMP/out" 2>&1 || fail "--restore"
grep -q "no journal was pending" "$TMP/out" || fail "--restore: $(cat "$TMP/out")"
for mode in nobody 0777; do
	if [ $mode = nobody ]; then
		chown nobody "$R/run/idlescope-settings"
		why="owned by uid $(id -u nobody), not by uid 0 \(the user running this\)"
	else
		chmod 0777 "$R/run/idlescope-settings"
		why="mode 0777, expected 0755 or narrower"
	fi
	expect_fail 1 "^collect: the settings journal's directory: $R/run/idlescope-settings: $why; nothing changed$" \
		$COLLECT $S -c 20 -o "$TMP/never" --set turbo=off
	same "refused journal directory ($mode)"
	chown root "$R/run/idlescope-settings" && chmod 0755 "$R/run/idlescope-settings"
done
note "nobody's files: ignored; a journal directory of nobody's or 0777: refused, nothing changed"
# a journal an earlier idlescope left in the shared directory: root's is replayed, nobody's not
printf 'idlescope settings journal 1\npid 999999\nfile\tturbo\t%s\t0\n' "$C/intel_pstate/no_turbo" >"$TMP/old"
echo 1 >"$C/intel_pstate/no_turbo"
chown nobody "$R/run/idlescope/settings.journal"
cp "$TMP/old" "$R/run/idlescope/settings.journal"
"$COLLECT" --restore --sysroot "$R" >"$TMP/out" 2>&1 || fail "--restore with nobody's old journal: $(cat "$TMP/out")"
grep -q "no journal was pending" "$TMP/out" || fail "nobody's file in /run/idlescope was replayed: $(cat "$TMP/out")"
rm "$R/run/idlescope/settings.journal" && cp "$TMP/old" "$R/run/idlescope/settings.journal"
expect_fail 1 "pending \($R/run/idlescope/settings.journal\): run 'collect --restore --sysroot" $COLLECT $S -c 20 -o "$TMP/never"
"$COLLECT" --restore --sysroot "$R" >"$TMP/out" 2>&1 || fail "--restore of an earlier version's journal: $(cat "$TMP/out")"
[ ! -e "$R/run/idlescope/settings.journal" ] && [ "$(cat "$C/intel_pstate/no_turbo")" = 0 ] ||
	fail "an earlier version's journal was not replayed"

# 11. A journal --restore cannot replay: which file, which line, how to discard it
printf 'idlescope settings journal 2\npid 999999\nfile\tturbo\t%s\t0\n' "$C/intel_pstate/no_turbo" >"$J"
expect_fail 1 "^collect: restore: $J: line 1: not the head of a journal this collect reads \('idlescope settings journal 1'\): 'idlescope settings journal 2'; nothing restored. Inspect it \(cat $J\), put back by hand what it lists, then discard it deliberately \(rm $J\)$" \
	$COLLECT --restore --sysroot "$R"
expect_fail 1 "pending \($J\): run 'collect --restore --sysroot $R' first \(it says what it cannot put back, and how to discard the journal\)$" \
	$COLLECT $S -c 20 -o "$TMP/never"
printf 'idlescope settings journal 1\npid 999999\nfile\tx\t%s/etc/passwd\t0\n' "$R" >"$J"
expect_fail 1 "^collect: restore: $J: line 3: an entry with a bad field or a path outside what settings write: 'file" \
	$COLLECT --restore --sysroot "$R"
# an entry of a CPU that went offline (its cpufreq directory gone, as the kernel does)
printf 'idlescope settings journal 1\npid 999999\nfile\tturbo\t%s\t0\nfile\tfreq\t%s\t4200000\n' \
	"$C/intel_pstate/no_turbo" "$C/cpu1/cpufreq/scaling_max_freq" >"$J"
echo 1 >"$C/intel_pstate/no_turbo"
mv "$C/cpu1/cpufreq" "$TMP/cpufreq1" && echo 0 >"$C/cpu1/online"
"$COLLECT" --restore --sysroot "$R" >"$TMP/out" 2>"$TMP/err" && fail "--restore with CPU 1 offline: exit 0"
grep -q "^collect: restore: $J:4: freq left changed: $C/cpu1/cpufreq/scaling_max_freq holds '(unreadable)' (was '4200000'): No such file or directory (CPU 1 is offline: bring it online with 'echo 1 > $C/cpu1/online' and run 'collect --restore' again)$" "$TMP/err" ||
	{ cat "$TMP/err"; fail "offline CPU: the entry is not named"; }
grep -q "^collect: restore: the journal $J is kept, .*discard the journal deliberately (inspect it: cat $J; discard it: rm $J)$" "$TMP/err" ||
	{ cat "$TMP/err"; fail "offline CPU: no advice"; }
[ "$(cat "$C/intel_pstate/no_turbo")" = 0 ] || fail "offline CPU: the other entry was not restored"
mv "$TMP/cpufreq1" "$C/cpu1/cpufreq" && rm -f "$C/cpu1/online"
"$COLLECT" --restore --sysroot "$R" >"$TMP/out" 2>&1 || { cat "$TMP/out"; fail "--restore once CPU 1 is back"; }
[ ! -e "$J" ] || fail "journal left after a full restore"
same "after the offline CPU came back"
note "unreplayable journals: head, path, offline CPU named with file, line and what to do"

# 12. SIGKILL of a --set driver: --restore refuses while its run still measures
wait_cpu_free
test_bg $COLLECT $S -c 1000000 -l 1ms -o "$TMP/killed" --set turbo=off 2>"$TMP/kerr"
driver=$!
child=
kill_runs() { kill -KILL $driver $child 2>/dev/null; return 0; }
test_when_finished kill_runs
for _ in $(seq 100); do
	child=$(pgrep -P $driver)
	[ -n "$child" ] && [ -s "$TMP/killed/datapoints.csv" ] && break
	sleep 0.1
done
[ -n "$child" ] || { cat "$TMP/kerr"; fail "no child run of the driver"; }
kill -KILL $driver
wait $driver 2>/dev/null
for _ in $(seq 20); do kill -0 $driver 2>/dev/null || break; sleep 0.1; done
restored=0
# runs PID: PID is a process that has not ended (pid 1 here may never reap an orphan zombie)
runs() { _s=$(sed 's/.*) //' "/proc/$1/stat" 2>/dev/null | cut -c1); [ -n "$_s" ] && [ "$_s" != Z ]; }
if runs "$child"; then
	"$COLLECT" --restore --sysroot "$R" >"$TMP/out" 2>"$TMP/err"
	rc=$?
	if [ $rc = 0 ]; then
		# only a run that PR_SET_PDEATHSIG is already stopping may have let the journal go:
		# it ends by itself at once, stopped by a signal, and measured nothing after
		for _ in $(seq 20); do runs "$child" || break; sleep 0.1; done
		runs "$child" && fail "--restore succeeded under the killed driver's live run"
		jq -e '.stop_reason | startswith("signal")' "$TMP/killed/info.json" >/dev/null ||
			fail "--restore succeeded, and the run did not stop on its driver's death: $(jq -c .stop_reason "$TMP/killed/info.json")"
		restored=1
		note "SIGKILL: the run was stopping with its driver (PR_SET_PDEATHSIG) when --restore ran"
	else
		grep -q "^collect: restore: collect pid $child, a run started by collect pid $driver, still runs under the changed settings and holds the journal $J; nothing restored: stop it first (kill $child)" "$TMP/err" ||
			{ cat "$TMP/err"; ps -o pid,ppid,stat,args -p "$driver,$child" >&2; fail "--restore under a live run: message (driver $driver, run $child)"; }
		[ "$(cat "$C/intel_pstate/no_turbo")" = 1 ] || fail "--restore under a live run changed turbo"
		note "SIGKILL: --restore refused while run $child lives"
		kill -TERM "$child"
		for _ in $(seq 100); do runs "$child" || break; sleep 0.1; done
		runs "$child" && fail "the run did not stop on SIGTERM"
	fi
else
	note "SIGKILL: the run stopped with its driver (PR_SET_PDEATHSIG)"
fi
if [ $restored = 0 ]; then
	"$COLLECT" --restore --sysroot "$R" >"$TMP/out" 2>&1 || { cat "$TMP/out"; fail "--restore after the run ended"; }
	grep -q "^collect: 1 journalled value restored$" "$TMP/out" || fail "--restore: $(cat "$TMP/out")"
fi
same "after SIGKILL and --restore"
note "all journal checks passed"
