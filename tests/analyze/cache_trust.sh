#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# The run cache against other local users (docs/cache.md, "Who may own what"): a cache directory
# that is not the caller's or not 0700 is not used (one note, the cold numbers) even when it holds
# a forged entry that would change them; an entry of another user, a FIFO at an entry's name and
# a symbolic link at a builder's lock are never used, waited on or written through; a datapoints
# file replaced on the same inode with the same size and mtime is not served from its old entry
# (the key holds the ctime); a file whose entry cannot fit is not read to learn it, and builders
# run one at a time. Needs root (a second user, nobody).
# usage: cache_trust.sh ANALYZE
set -u
TEST_KEEP_GOING=1
. "$(dirname "$0")/../common/test-lib.sh"
case $1 in /*) analyze=$1 ;; *) analyze=$PWD/$1 ;; esac
[ "$(id -u)" = 0 ] || skip "needs root (a cache of another user)"
id nobody > /dev/null 2>&1 || skip "no user nobody"
test_tmpdir tmp
chmod 755 "$tmp"
cd "$tmp" || exit 1
unset IDLESCOPE_NO_CACHE IDLESCOPE_CACHE_MAX
export IDLESCOPE_CACHE_BUILD=foreground
as_nobody() { setpriv --reuid=nobody --regid=nogroup --clear-groups "$@"; }
entry_name() { printf '%016x-%016x.isc' "$(stat -c %d "$1")" "$(stat -c %i "$1")"; }

# two runs of the same size: values of three digits, B's are A's plus 100
mkrun() {
	mkdir -p "$1"
	awk -v add="$2" 'BEGIN { srand(5); print "WakeLatency,LDist,ReqCState"
		for (i = 0; i < 3000; i++) printf "%d,%d,C%d\n", 100 + int(rand() * 700) + add, 100 + i % 900, i % 2 + 1 }' \
		> "$1/datapoints.csv"
}
mkrun a 0
mkrun b 100
stats() { "$analyze" stats -F csv -f med,max "$@"; }
IDLESCOPE_NO_CACHE=1 stats a > a.cold || fail "cold a"
IDLESCOPE_NO_CACHE=1 stats b > b.cold || fail "cold b"
cmp -s a.cold b.cold && fail "runs a and b give the same numbers: the test cannot tell them apart"

# a forged entry: a's entry with its mapped sorted values shifted (the arrays carry no checksum)
export XDG_CACHE_HOME=$tmp/own
stats a > /dev/null 2>&1
own=$tmp/own/idlescope
ent=$own/$(entry_name a/datapoints.csv)
[ -f "$ent" ] || fail "no entry was built in $own"
python3 - "$ent" << 'PY'
import struct, sys
p = sys.argv[1]
b = bytearray(open(p, "rb").read())
# every double of the data between the header (168 bytes) and the index that equals a whole
# number from 100 to 999 becomes 5000 more: the forger's median
ioff = struct.unpack_from("<Q", b, 128)[0]
for o in range(168, ioff, 8):
    v = struct.unpack_from("<d", b, o)[0]
    if 100 <= v <= 999 and v == int(v):
        struct.pack_into("<d", b, o, v + 5000)
open(p, "wb").write(b)
PY
stats a > forged.out 2> /dev/null
cmp -s forged.out a.cold && fail "the forged entry is not used even in the caller's own directory: the test proves nothing"

# the same forged entry in a directory of nobody's, of root's but 0755, and as nobody's file
check_cold() {  # what: the cold numbers and exactly one note naming why
	local what=$1 why=$2
	stats a > t.out 2> t.err || fail "$what: exit $?"
	cmp -s t.out a.cold || fail "$what: the forged numbers were printed: $(head -2 t.out | tail -1)"
	[ "$(wc -l < t.err)" = 1 ] && grep -q "^analyze: note: cache: .*$why.*; going on without the cache$" t.err ||
		fail "$what: expected one note ($why), got: $(cat t.err)"
}
for case in foreign wide; do
	export XDG_CACHE_HOME=$tmp/$case
	mkdir -p "$XDG_CACHE_HOME/idlescope"
	cp "$ent" "$XDG_CACHE_HOME/idlescope/"
	if [ $case = foreign ]; then
		chmod 700 "$XDG_CACHE_HOME/idlescope"
		chown -R nobody "$XDG_CACHE_HOME/idlescope"
		check_cold "a directory of nobody's" "owned by uid $(id -u nobody), not by uid 0"
		IDLESCOPE_CACHE_BUILD=background check_cold "background, a directory of nobody's" \
			"owned by uid $(id -u nobody), not by uid 0"
		"$analyze" cache --clear > t.out 2> t.err && fail "cache --clear in nobody's directory: exit 0"
		grep -q "owned by uid $(id -u nobody), not by uid 0 .*; not used, nothing removed" t.err ||
			fail "cache --clear: $(cat t.err)"
		[ -n "$(ls "$XDG_CACHE_HOME/idlescope")" ] || fail "cache --clear removed nobody's files"
		"$analyze" cache --info | grep -q "^note: not used: .*owned by uid" || fail "cache --info: no note"
	else
		chmod 755 "$XDG_CACHE_HOME/idlescope"
		check_cold "root's directory, mode 0755" "mode 0755, expected 0700"
	fi
done
export XDG_CACHE_HOME=$tmp/own
chown nobody "$ent"
stats a > t.out 2> t.err
cmp -s t.out a.cold || fail "an entry owned by nobody in root's directory was used"
[ "$(stat -c %U "$ent")" = root ] || fail "the entry of nobody's was not replaced by root's own"

# the other way round: nobody's analyze in root's cache directory (a copy of the program in
# $tmp when nobody cannot reach the build tree, e.g. a checkout in a 0700 directory)
chmod 755 "$tmp/own"
nobody_analyze=$analyze
as_nobody test -x "$analyze" || { cp "$analyze" "$tmp/analyze" && nobody_analyze=$tmp/analyze; } ||
	fail "cannot copy analyze for nobody"
as_nobody env XDG_CACHE_HOME="$tmp/own" "$nobody_analyze" stats -F csv -f med,max a > t.out 2> t.err ||
	fail "nobody's analyze: exit $?"
cmp -s t.out a.cold || fail "nobody's analyze printed other numbers"
grep -q "note: cache: $tmp/own/idlescope: owned by uid 0, not by uid $(id -u nobody)" t.err ||
	fail "nobody's analyze: $(cat t.err)"

# a FIFO at the entry's name (in a directory of the caller's: a leftover, or a bug): no hang
export XDG_CACHE_HOME=$tmp/fifo
mkdir -p -m 700 "$tmp/fifo/idlescope"
mkfifo "$tmp/fifo/idlescope/$(entry_name b/datapoints.csv)"
timeout 30 "$analyze" stats -F csv -f med,max b > t.out 2> t.err
rc=$?
[ $rc = 124 ] && fail "a FIFO at the entry's name: analyze hung"
cmp -s t.out b.cold || fail "a FIFO at the entry's name: exit $rc, $(cat t.err)"

# a symbolic link at a builder's lock: the background builder neither writes through it nor
# builds (its lock cannot be taken); the look answers as without the cache
export XDG_CACHE_HOME=$tmp/lock
mkdir -p -m 700 "$tmp/lock/idlescope"
ln -s "$tmp/victim" "$tmp/lock/idlescope/.$(entry_name b/datapoints.csv).lock"
IDLESCOPE_CACHE_BUILD=background stats b > t.out 2> t.err
cmp -s t.out b.cold || fail "lock symlink: $(cat t.err)"
sleep 2
[ -e "$tmp/victim" ] && fail "the builder created the file a lock symlink points to"

# item 7: a file replaced on the same inode, same size, mtime set back: not served from A's entry
export XDG_CACHE_HOME=$tmp/replace
mkdir r && cp a/datapoints.csv r/
IDLESCOPE_NO_CACHE=1 stats r > ra.cold
stats r > /dev/null 2>&1
stats r > t.out 2> /dev/null
cmp -s t.out ra.cold || fail "replace: the warm look of A differs"
mt=$(stat -c %y r/datapoints.csv)
sz=$(stat -c %s r/datapoints.csv)
ino=$(stat -c %i r/datapoints.csv)
dd if=b/datapoints.csv of=r/datapoints.csv conv=notrunc status=none
touch -d "$mt" r/datapoints.csv
[ "$(stat -c '%s %i %y' r/datapoints.csv)" = "$sz $ino $mt" ] || fail "replace: size, inode or mtime changed: cannot test"
IDLESCOPE_NO_CACHE=1 stats r > rb.cold
cmp -s ra.cold rb.cold && fail "replace: A and B give the same numbers: cannot test"
touch -d "$mt" r/datapoints.csv
stats r > t.out 2> /dev/null
cmp -s t.out rb.cold || fail "replace: run A's numbers were served for B: $(head -2 t.out | tail -1)"

# item 8: a file whose entry cannot fit is not read to learn it: the marker says what its rows
# and columns need at least (4 bytes a cell), not what a whole read found (24 a number)
export XDG_CACHE_HOME=$tmp/bound
export IDLESCOPE_CACHE_MAX=20000
stats a > t.out 2> /dev/null
cmp -s t.out a.cold || fail "bound: the numbers differ"
m=$tmp/bound/idlescope/$(entry_name a/datapoints.csv)
need=$(python3 -c 'import struct, sys; b = open(sys.argv[1], "rb").read(); print(len(b), struct.unpack_from("<IQ", b, 116)[0], struct.unpack_from("<Q", b, 120)[0])' "$m")
[ "$need" = "168 1 $((168 + 3000 * 3 * 4 + 16 * 3))" ] ||
	fail "bound: marker (size, too_big, need) = $need, expected 168 1 $((168 + 3000 * 3 * 4 + 16 * 3)) (the file was read whole?)"
unset IDLESCOPE_CACHE_MAX

# item 8: builders one at a time. Three runs of 400 k rows, their builders started by one look;
# sampled every 20 ms: at most one builder past the start (resident memory above 20 MB)
export XDG_CACHE_HOME=$tmp/serial IDLESCOPE_CACHE_BUILD=background
for r in s1 s2 s3; do
	mkdir $r
	awk -v s=$r 'BEGIN { srand(length(s) + substr(s, 2)); print "WakeLatency,LDist,IntrOff,X1,X2,X3"
		for (i = 0; i < 400000; i++) printf "%.3f,%d,%d,%.2f,%.2f,%.2f\n", rand() * 100, i % 4000, i % 2, rand(), rand(), rand() }' \
		> $r/datapoints.csv
done
builders() {  # pids holding a lock in the cache directory
	local f ino
	for f in "$tmp"/serial/idlescope/.*.lock; do
		ino=$(stat -c %i "$f" 2> /dev/null) || continue
		awk -v ino="$ino" '$2 == "FLOCK" { n = split($6, a, ":"); if (a[n] == ino) print $5 }' /proc/locks
	done
}
"$analyze" stats -F csv s1 s2 s3 > /dev/null 2>&1 || fail "serial: the look failed"
max_busy=0 seen=0 peak=0
for i in $(seq 1500); do
	pids=$(builders)
	[ -z "$pids" ] && [ "$(find "$tmp/serial/idlescope" -name '*.isc' | wc -l)" = 3 ] && break
	busy=0
	for p in $pids; do
		rss=$(awk '/^VmRSS/ { print $2 }' /proc/$p/status 2> /dev/null)
		[ -n "$rss" ] && [ "$rss" -gt 20000 ] && busy=$((busy + 1)) && seen=1
		[ -n "$rss" ] && [ "$rss" -gt "$peak" ] && peak=$rss
	done
	[ $busy -gt $max_busy ] && max_busy=$busy
	sleep 0.02
done
[ "$(find "$tmp/serial/idlescope" -name '*.isc' | wc -l)" = 3 ] || fail "serial: not three entries after 30 s"
[ $seen = 1 ] || fail "serial: no builder seen at work: the check proves nothing"
[ $max_busy -le 1 ] || fail "serial: $max_busy builders at work at once"
echo "serial: at most $max_busy builder at work at once, peak builder RSS $peak kB"

[ $fails = 0 ] && echo "cache_trust: all checks passed"
exit $((fails > 0))
