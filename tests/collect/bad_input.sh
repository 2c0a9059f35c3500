#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Bad options and unsafe output paths: one clear line and the documented exit status.
. "$(dirname "$0")/lib.sh"
C="$COLLECT"
ncpu=$(nproc --all)

expect_fail 2 "^collect: --method 'foo': unknown method; choose auto, hrt, tdt, bpf or timer$" $C --method foo -o "$TMP/x"
expect_fail 2 "^collect: -l 'abc': 'abc' is not a duration \(a number with ns, us, ms or s; no unit = us\)$" $C -l abc
expect_fail 2 "^collect: -l '10xs': '10xs' is not a duration" $C -l 10xs
expect_fail 2 "^collect: -l '4ms,1ms': inverted range: minimum 4000000 ns is above maximum 1000000 ns$" $C -l 4ms,1ms
expect_fail 2 "^collect: -l '1,2,3': expected MIN,MAX or one value, got more than two values$" $C -l 1,2,3
expect_fail 2 "^collect: -l '0': '0' is below 1 ns; LDist must be positive$" $C -l 0
expect_fail 2 "^collect: -l '11s': '11s' is above the maximum LDist of 10s$" $C -l 11s
expect_fail 2 "^collect: -l '-5us': '-5us' is not a duration" $C -l -5us
expect_fail 2 "^collect: --cpu $ncpu: no such CPU \(this machine has CPUs 0-$((ncpu - 1))\)$" $C --cpu $ncpu
expect_fail 2 "^collect: --cpu 'x': expected a CPU number" $C --cpu x
expect_fail 2 "^collect: -c '0': expected a positive whole number of datapoints$" $C -c 0
expect_fail 2 "^collect: -c '12abc': expected a positive whole number" $C -c 12abc
expect_fail 2 "^collect: --time-limit '10y': '10y' is not a duration between 1ms and 30 years" $C --time-limit 10y
expect_fail 2 "^collect: --pm-qos-us '-1': expected microseconds" $C --pm-qos-us -1
expect_fail 2 "^collect: --seed '4294967296': expected a whole number from 0 to 4294967295$" $C --seed 4294967296
expect_fail 2 "^collect: unknown option '--bogus'; try 'collect --help'$" $C --bogus
expect_fail 2 "^collect: option '--method' needs an argument; try 'collect --help'$" $C --method
expect_fail 2 "^collect: unexpected argument 'extra'; try 'collect --help'$" $C extra

# Names (issue 11 item 11): control characters, bidi controls and invalid UTF-8 are refused in
# --reportid and in the run directory's name (it becomes the reportid), before anything is
# created; the message shows them as \xNN and no escape byte reaches the terminal.
ESC=$(printf '\033')
no_esc() { ! grep -q "$ESC" "$TMP/err" || fail "raw ESC on stderr: $*"; }
expect_fail 2 '^collect: --reportid .x\\x1b\]0;t\\x07.: a control character \(\\x1b\) at byte 2 in the run.s report ID; it must be valid UTF-8 without control characters$' \
	$C --reportid "$(printf 'x\033]0;t\007')" -o "$TMP/rid"
no_esc reportid
[ ! -e "$TMP/rid" ] || fail "--reportid refused but $TMP/rid created"
expect_fail 2 '^collect: --reportid .ok\\xe2\\x80\\xae.: a bidi control character \(\\xe2\\x80\\xae\) at byte 3 in the run.s report ID' \
	$C --reportid "$(printf 'ok\342\200\256')" -o "$TMP/rid"
nl_dir=$(printf '%s/a\nb' "$TMP")
expect_fail 2 "^collect: -o '.*/a\\\\x0ab': a control character \\(\\\\x0a\\) at byte 2 in the run.s directory name" \
	$C -o "$nl_dir" -c 5
[ ! -e "$nl_dir" ] || fail "-o refused but the directory was created"
expect_fail 2 "^collect: -o '.*/x\\\\xffy/': invalid UTF-8 \\(\\\\xff\\) at byte 2 in the run.s directory name" \
	$C -o "$(printf '%s/x\377y/' "$TMP")" -c 5
expect_fail 2 "^collect: -o '.*/q\\\\x1b\\[1m': a control character \\(\\\\x1b\\) at byte 2 in the run.s directory name" \
	$C --counters -n 1 -o "$(printf '%s/q\033[1m' "$TMP")"
no_esc counters
# the program's name itself (a symbolic link named with an escape sequence)
ln -s "$(realpath "$C")" "$TMP/co${ESC}[31m"
expect_fail 2 "^co\\\\x1b\\[31m: unknown option '--bogus'; try 'collect --help'$" "$TMP/co${ESC}[31m" --bogus
no_esc progname

# Output directory: non-empty without --force, symlink as -o, symlinks in the path, --force.
mkdir "$TMP/full" && echo x >"$TMP/full/keep"
expect_fail 2 "^collect: $TMP/full: directory is not empty; use --force to write into it or choose another -o$" \
	$C --method timer -c 5 --cpu "$CPU" -q --no-counters -o "$TMP/full"
[ "$(cat "$TMP/full/keep")" = x ] || fail "refused directory was touched"
mkdir "$TMP/target"
ln -s "$TMP/target" "$TMP/link"
expect_fail 2 "^collect: $TMP/link: is a symbolic link; refusing to write through it" \
	$C --method timer -c 5 --cpu "$CPU" -q --no-counters -o "$TMP/link"
expect_fail 2 "^collect: $TMP/link/: is a symbolic link; refusing to write through it" \
	$C --method timer -c 5 --cpu "$CPU" -q --no-counters -o "$TMP/link/"
[ -z "$(ls -A "$TMP/target")" ] || fail "something was written through the symlink"
echo x >"$TMP/file"
expect_fail 2 "^collect: $TMP/file: exists and is not a directory$" $C --method timer -c 5 --cpu "$CPU" -q --no-counters -o "$TMP/file"

# Symlinks in the parent path: followed only when root or the caller owns them.
mkdir "$TMP/real"
ln -s "$TMP/real" "$TMP/rootlink"
retry_busy $C --method timer -c 3 --cpu "$CPU" -q --no-counters -o "$TMP/rootlink/sub/run" ||
	fail "a root-owned symlink in the path was refused"
[ -f "$TMP/real/sub/run/info.json" ] || fail "run through a root-owned symlink is not in its target"
if [ "$(id -u)" -eq 0 ] && command -v setpriv >/dev/null; then
	# a link planted by nobody in a parent directory nobody owns
	mkdir "$TMP/nbdir" "$TMP/victimdir" && chown nobody "$TMP/nbdir" || fail "chown nobody"
	setpriv --reuid=nobody --regid=nogroup --clear-groups -- ln -s "$TMP/victimdir" "$TMP/nbdir/planted" ||
		fail "nobody cannot plant a link"
	expect_fail 2 "^collect: $TMP/nbdir/planted: is a symbolic link owned by uid $(id -u nobody) \(neither root nor you\); refusing to follow it \(give the real directory\)$" \
		$C --method timer -c 3 --cpu "$CPU" -q --no-counters -o "$TMP/nbdir/planted/run"
	# ... also as the target of a trusted link, with the rest of the path missing
	ln -s "$TMP/nbdir/planted" "$TMP/rootlink2"
	expect_fail 2 "^collect: $TMP/rootlink2 -> $TMP/nbdir/planted: is a symbolic link owned by uid" \
		$C --method timer -c 3 --cpu "$CPU" -q --no-counters -o "$TMP/rootlink2/a/b/run"
	[ -z "$(ls -A "$TMP/victimdir")" ] || fail "something was written through nobody's symlink"
	# for nobody, nobody's own link is its own path
	setpriv --reuid=nobody --regid=nogroup --clear-groups -- sh -c 'mkdir "$1/own" && ln -s own "$1/mylink"' sh "$TMP/nbdir" ||
		fail "nobody cannot make its own link"
	retry_busy as_nobody --method timer -c 3 --cpu "$CPU" -q --no-counters -o "$TMP/nbdir/mylink/run" ||
		fail "the caller's own symlink in the path was refused"
	[ -f "$TMP/nbdir/own/run/info.json" ] || fail "run through the caller's own symlink is not in its target"
fi

# --force removes the previous run's files (a stale counters.csv would pass for this run's) and
# nothing else.
mkdir "$TMP/rerun"
for f in info.json datapoints.csv counters.csv .info.json.tmp notes.txt; do echo old >"$TMP/rerun/$f"; done
retry_busy $C --method timer -c 4 --cpu "$CPU" -q --no-counters --force -o "$TMP/rerun" || fail "--force rerun failed"
[ ! -e "$TMP/rerun/counters.csv" ] || fail "--force left the previous run's counters.csv"
[ ! -e "$TMP/rerun/.info.json.tmp" ] || fail "--force left the previous run's .info.json.tmp"
[ "$(cat "$TMP/rerun/notes.txt")" = old ] || fail "--force touched a file that is not a run file"
[ "$(csv_rows "$TMP/rerun/datapoints.csv")" -eq 4 ] && jq -e '.datapoints == 4' "$TMP/rerun/info.json" >/dev/null ||
	fail "--force rerun did not write its own files"

# --force over a wult result: its info.yml (replaced by this run's, for wult's reader) and
# stats/turbostat.raw.txt (which analyze and report read as the run's metadata and counters) go too, so the directory holds one run's metadata;
# stats/'s other files stay, and a stats that is a symlink is not followed.
mkdir -p "$TMP/wultrun/stats" "$TMP/wultlink" "$TMP/elsewhere"
for f in info.yml datapoints.csv stats/turbostat.raw.txt stats/interrupts.raw.txt; do echo old >"$TMP/wultrun/$f"; done
retry_busy $C --method timer -c 4 --cpu "$CPU" -q --no-counters --force -o "$TMP/wultrun" || fail "--force over a wult result failed"
grep -q '^toolver: "idlescope ' "$TMP/wultrun/info.yml" || fail "--force left the wult result's info.yml beside info.json"
[ ! -e "$TMP/wultrun/stats/turbostat.raw.txt" ] || fail "--force left the wult result's stats/turbostat.raw.txt"
[ "$(cat "$TMP/wultrun/stats/interrupts.raw.txt")" = old ] || fail "--force touched stats/interrupts.raw.txt"
jq -e '.datapoints == 4' "$TMP/wultrun/info.json" >/dev/null || fail "--force over a wult result did not write its run"
echo old >"$TMP/wultlink/info.yml" && echo kept >"$TMP/elsewhere/turbostat.raw.txt" && ln -s "$TMP/elsewhere" "$TMP/wultlink/stats"
retry_busy $C --method timer -c 4 --cpu "$CPU" -q --no-counters --force -o "$TMP/wultlink" || fail "--force with a stats symlink failed"
[ "$(cat "$TMP/elsewhere/turbostat.raw.txt")" = kept ] || fail "--force followed a stats symlink"
grep -q '^toolver: "idlescope ' "$TMP/wultlink/info.yml" || fail "--force left info.yml (stats symlink case)"

# --force into a directory where datapoints.csv is a planted symlink: the link is replaced, not followed.
mkdir "$TMP/forced" && echo secret >"$TMP/victim" && ln -s "$TMP/victim" "$TMP/forced/datapoints.csv"
retry_busy $C --method timer -c 5 --cpu "$CPU" -q --no-counters --force -o "$TMP/forced" || fail "--force run failed"
[ "$(cat "$TMP/victim")" = secret ] || fail "planted symlink was followed"
[ ! -L "$TMP/forced/datapoints.csv" ] && [ "$(tail -n +2 "$TMP/forced/datapoints.csv" | wc -l)" -eq 5 ] ||
	fail "forced run did not write its own datapoints.csv"

# A run directory another collector is writing into is refused, with or without --force (the
# lock is an flock on the directory: flock(1) stands in for the other collector here).
mkdir "$TMP/busy" && echo old >"$TMP/busy/datapoints.csv"
flock "$TMP/busy" sleep 60 </dev/null >/dev/null 2>&1 &
holder=$!
for _ in $(seq 50); do flock -n "$TMP/busy" true || break; sleep 0.1; done
expect_fail 1 "^collect: $TMP/busy: another collector \\(pid $holder\\) is writing into it; choose another -o$" \
	$C --counters -i 1 -n 1 -q --force -o "$TMP/busy"
kill $(pgrep -P $holder) $holder
[ "$(cat "$TMP/busy/datapoints.csv")" = old ] && [ "$(ls -A "$TMP/busy")" = datapoints.csv ] ||
	fail "a directory in use was written into"
# ... and a real one: collect --counters holds its directory until it ends.
"$C" --counters -i 0.2 -q -o "$TMP/cbusy" &
cpid=$!
for _ in $(seq 50); do [ -s "$TMP/cbusy/counters.csv" ] && break; sleep 0.1; done
expect_fail 1 "^collect: $TMP/cbusy: another collector \\(pid $cpid\\) is writing into it; choose another -o$" \
	$C --counters -i 1 -n 1 -q --force -o "$TMP/cbusy"
kill -TERM $cpid
wait $cpid
jq_true "$TMP/cbusy/info.json" '.complete == true and .snapshots >= 2' "the first collector's run after a refused --force"

# Missing parents are created.
retry_busy $C --method timer -c 3 --cpu "$CPU" -q --no-counters -o "$TMP/a/b/c" || fail "nested output directory"
[ -f "$TMP/a/b/c/info.json" ] || fail "nested output directory: no info.json"

# Unprivileged: --pm-qos-us needs root, and bpf needs root (when it is built at all).
if [ "$(id -u)" -eq 0 ] && command -v setpriv >/dev/null; then
	expect_fail 1 "^collect: --pm-qos-us 0: /dev/cpu_dma_latency: Permission denied \(needs root; or leave PM QoS alone\)$" \
		as_nobody --method timer -c 3 --cpu "$CPU" -q --no-counters --pm-qos-us 0 -o "$TMP/qos"
	[ ! -e "$TMP/qos" ] || fail "refused run left a directory behind"
fi

# Offline CPU: fake /sys/devices/system/cpu/online in a private mount namespace (root only).
if [ "$(id -u)" -eq 0 ] && command -v unshare >/dev/null && [ "$ncpu" -ge 2 ]; then
	echo 0 >"$TMP/online"
	wait_cpu_free
	unshare -m sh -c 'mount --bind "$1" /sys/devices/system/cpu/online && exec "$2" --method timer -c 3 --cpu 1 -q -o "$3"' \
		sh "$TMP/online" "$C" "$TMP/off" >"$TMP/out" 2>"$TMP/err"
	rc=$?
	if grep -q "mount" "$TMP/err"; then
		note "skip offline CPU: cannot bind-mount over sysfs here"
	else
		[ $rc -eq 2 ] || fail "offline CPU: exit $rc"
		grep -q "^collect: --cpu 1: CPU 1 is offline; bring it online" "$TMP/err" || { cat "$TMP/err"; fail "offline CPU message"; }
		note "ok: offline CPU -> $(cat "$TMP/err")"
	fi
fi
note "bad input: ok"
