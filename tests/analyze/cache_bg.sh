#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# The run cache's background builder (docs/cache.md): the first look at a run answers as
# --no-cache does, at once, while a detached builder (no fd of the caller, nice 19,
# SCHED_IDLE, its own session) writes the entry; the next look uses it; analyzers at once
# start one builder; diff and report behave the same. Waits for every builder it started.
# usage: cache_bg.sh ANALYZE REPORT SHARED_DATA
set -u
TEST_KEEP_GOING=1
. "$(dirname "$0")/../common/test-lib.sh"
case $1 in /*) analyze=$1 ;; *) analyze=$PWD/$1 ;; esac
case $2 in /*) report=$2 ;; *) report=$PWD/$2 ;; esac
shared=$(cd "$3" && pwd)
tmp=$(mktemp -d)
cdir=$tmp/xdg/idlescope
# a builder's lock file is there while it runs (it removes it when done)
builders_done() {
	for i in $(seq 600); do
		[ -z "$(find "$cdir" -name '.*.lock' 2> /dev/null)" ] && return 0
		sleep 0.1
	done
	return 1
}
test_when_finished 'builders_done; rm -rf "$tmp"'
cd "$tmp" || exit 1
export XDG_CACHE_HOME=$tmp/xdg IDLESCOPE_CACHE_BUILD=background
unset IDLESCOPE_NO_CACHE IDLESCOPE_CACHE_MAX
entries() { find "$cdir" -name '*.isc' 2> /dev/null | wc -l; }
# wait up to 60 s for n entries (analyze cache --info) and for their builders to be gone
wait_entries() {
	for i in $(seq 600); do
		"$analyze" cache --info | grep -qx "entries: $1" && break
		sleep 0.1
	done
	"$analyze" cache --info | grep -qx "entries: $1" || fail "$2: no entry after 60 s: $(ls -a "$cdir")"
	builders_done || fail "$2: a builder still runs after 60 s"
}
# the pid of the process holding the flock on file (a builder's lock), if any
holder() {
	local ino
	ino=$(stat -c %i "$1" 2> /dev/null) || return
	awk -v ino="$ino" '$2 == "FLOCK" { n = split($6, a, ":"); if (a[n] == ino) { print $5; exit } }' /proc/locks
}

# a run big enough that its builder is still at work when the first look has answered
mkdir big && awk 'BEGIN { srand(3); print "WakeLatency,LDist,ReqCState,IntrOff"
	split("C1 C6 POLL C1E", st, " ")
	for (i = 0; i < 1000000; i++)
		printf "%.3f,%d,%s,%d\n", exp(2 + rand() * 2), int(rand() * 4000), st[i % 4 + 1], i % 2 }' > big/datapoints.csv

# first look: the --no-cache output, stdout and stderr, and $(...) returns while the
# builder still works (it holds no pipe of ours)
IDLESCOPE_NO_CACHE=1 "$analyze" stats -F csv big > cold.out 2> cold.err
start=$(date +%s%N)
first=$("$analyze" stats -F csv big 2> first.err)
rc=$?
took=$(( ($(date +%s%N) - start) / 1000000 ))
[ $rc = 0 ] || fail "first look: exit $rc"
[ "$first" = "$(cat cold.out)" ] || fail "first look: output differs from --no-cache"
cmp -s cold.err first.err || fail "first look: stderr differs: $(diff cold.err first.err | head -3)"
# (the builder reads 1 M rows first: it is still at work when $(...) returns)
[ "$(entries)" = 0 ] || fail "first look ($took ms): the entry was there when it answered (it waited for the builder)"
pid=
for i in $(seq 100); do  # the builder may be between creating its lock file and locking it
	lock=$(find "$cdir" -name '.*.lock' | head -1)
	[ -n "$lock" ] && pid=$(holder "$lock")
	[ -n "$pid" ] && break
	sleep 0.01
done
[ -n "$pid" ] && kill -STOP "$pid"  # keep it at work while it is looked at
if [ -z "$pid" ]; then
	fail "first look ($took ms): no builder seen at work (lock: '$lock'), cannot check it"
else
	# /proc/PID/stat: ppid (4), session (6), nice (19), policy (41: 5 = SCHED_IDLE)
	read -r -a s < <(sed 's/^.*) //' "/proc/$pid/stat")
	[ "${s[1]}" != "$$" ] && [ "${s[3]}" = "$pid" ] || fail "builder $pid: ppid ${s[1]}, session ${s[3]}: not detached"
	[ "${s[16]}" = 19 ] || fail "builder $pid: nice ${s[16]}, expected 19"
	[ "${s[38]}" = 5 ] || fail "builder $pid: scheduling policy ${s[38]}, expected 5 (SCHED_IDLE)"
	for fd in 0 1 2; do
		[ "$(readlink "/proc/$pid/fd/$fd")" = /dev/null ] || fail "builder $pid: fd $fd is $(readlink "/proc/$pid/fd/$fd")"
	done
	others=$(ls -l "/proc/$pid/fd" | grep -E 'pipe:|socket:|/dev/pts|/dev/tty')
	[ -z "$others" ] || fail "builder $pid holds the caller's fds: $others"
	# a second look while the builder works: cold numbers again, no second builder
	"$analyze" stats -F csv big > during.out 2> during.err
	cmp -s cold.out during.out || fail "a look during the build: output differs"
	cmp -s cold.err during.err || fail "a look during the build: stderr differs"
	[ "$(holder "$lock")" = "$pid" ] || fail "a look during the build: lock holder $(holder "$lock"), expected $pid"
	[ "$(find "$cdir" -name '*.tmp.*' | wc -l)" -le 1 ] || fail "a look during the build: a second builder wrote $(ls -a "$cdir")"
	kill -CONT "$pid"
fi
wait_entries 1 "first look"
[ -z "$(find "$cdir" -name '.*')" ] || fail "temporary files left: $(ls -a "$cdir")"
# the second look uses the entry (its mtime, the last use, moves) and gives the same output
touch -d 2001-01-01 "$cdir"/*.isc
"$analyze" stats -F csv big > second.out 2> second.err
cmp -s cold.out second.out || fail "second look: output differs"
cmp -s cold.err second.err || fail "second look: stderr differs"
[ -n "$(find "$cdir" -name '*.isc' -newermt 2002-01-01)" ] || fail "second look: the entry was not used"

# the builder starts when its caller has exited: no entry while it runs (wult-good's entry
# would take milliseconds; the caller then reads 1 M rows)
"$analyze" cache --clear > /dev/null
cp -r "$shared/wult-good" wg
"$analyze" stats wg big > /dev/null 2>&1 &
cpid=$!
while :; do
	n=$(entries)
	state=$(awk '{ print $3 }' "/proc/$cpid/stat" 2> /dev/null)
	case $state in Z | X | "") break ;; esac
	[ "$n" = 0 ] || { fail "an entry was written while its caller ran (state $state)"; break; }
	sleep 0.01
done
wait "$cpid"
wait_entries 2 "after the caller"

# six analyzers at once on a cold cache: the cold numbers, one builder per run, no temp files
"$analyze" cache --clear > /dev/null
IDLESCOPE_NO_CACHE=1 "$analyze" stats -F csv big wg > conc-want.csv 2> /dev/null
for i in 1 2 3 4 5 6; do "$analyze" stats -F csv big wg > conc$i.csv 2> /dev/null & done
wait
most=0
for i in $(seq 600); do  # at most one temporary entry per run at any time
	n=$(find "$cdir" -name '.big*' -o -name '*.tmp.*' | grep -c tmp)
	[ "$n" -gt "$most" ] && most=$n
	[ "$(entries)" = 2 ] && [ -z "$(find "$cdir" -name '.*')" ] && break
	sleep 0.1
done
for i in 1 2 3 4 5 6; do
	cmp -s conc-want.csv conc$i.csv || fail "concurrent analyzer $i: numbers differ"
done
[ "$most" -le 2 ] || fail "concurrent: $most entries written at once (one builder per run expected)"
wait_entries 2 "concurrent"
[ -z "$(find "$cdir" -name '.*')" ] || fail "concurrent: temporary files left: $(ls -a "$cdir")"

# diff and report: the first look is the --no-cache one
"$analyze" cache --clear > /dev/null
IDLESCOPE_NO_CACHE=1 "$analyze" diff -F csv big wg > dcold.out 2>&1
"$analyze" diff -F csv big wg > dfirst.out 2>&1
cmp -s dcold.out dfirst.out || fail "diff first look: output differs"
wait_entries 2 "diff"
"$analyze" diff -F csv big wg > dwarm.out 2>&1
cmp -s dcold.out dwarm.out || fail "diff warm: output differs"
if command -v gnuplot > /dev/null; then
	"$analyze" cache --clear > /dev/null
	"$report" --no-cache -o r wg > rcold.out 2>&1 || fail "report --no-cache failed"
	mv r rcold
	"$report" -o r wg > rfirst.out 2>&1 || fail "report first look failed"
	mv r rfirst
	cmp -s rcold.out rfirst.out || fail "report first look: messages differ"
	[ "$(cd rcold && find . | sort)" = "$(cd rfirst && find . | sort)" ] || fail "report first look: other files"
	wait_entries 1 "report"
fi

[ $fails = 0 ] && echo "cache_bg: all checks passed"
exit $((fails > 0))
