#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# The run cache (docs/cache.md): a warm analyze stats/diff gives byte for byte what a cold one
# gives (text, CSV, JSON; empty cells, one row, groups of one value, filters); a changed,
# truncated or replaced source and a damaged entry are rebuilt, never trusted; an unusable
# cache directory is one note; the size bound evicts; analyzers at once agree; the input
# directory is never written.
# usage: cache.sh ANALYZE REPORT SHARED_DATA
set -u
TEST_KEEP_GOING=1
. "$(dirname "$0")/../common/test-lib.sh"
case $1 in /*) analyze=$1 ;; *) analyze=$PWD/$1 ;; esac
case $2 in /*) report=$2 ;; *) report=$PWD/$2 ;; esac
shared=$(cd "$3" && pwd)
tmp=$(mktemp -d)
test_when_finished 'chmod -R u+w "$tmp"; rm -rf "$tmp"'
cd "$tmp" || exit 1
export XDG_CACHE_HOME=$tmp/xdg
unset IDLESCOPE_NO_CACHE IDLESCOPE_CACHE_MAX
# the entry is built before the command answers (the background builder: cache_bg.sh)
export IDLESCOPE_CACHE_BUILD=foreground
cdir=$XDG_CACHE_HOME/idlescope
entries() { find "$cdir" -name '*.isc' 2> /dev/null | wc -l; }

# cold (no cache), first (builds the entry first) and warm (maps it): stdout and stderr identical
same3() {
	local what=$1; shift
	IDLESCOPE_NO_CACHE=1 "$@" > cold.out 2> cold.err; local rc0=$?
	"$@" > first.out 2> first.err; local rc1=$?
	"$@" > warm.out 2> warm.err; local rc2=$?
	[ "$rc0$rc1$rc2" = "$rc0$rc0$rc0" ] || fail "$what: exit $rc0 $rc1 $rc2"
	for k in first warm; do
		cmp -s cold.out $k.out || fail "$what: $k output differs: $(diff cold.out $k.out | head -4)"
		cmp -s cold.err $k.err || fail "$what: $k stderr differs: $(diff cold.err $k.err | head -4)"
	done
}

# generated runs: empty cells, NaN-only groups, a group of one value, huge and tiny numbers
python3 - << 'PY'
import os, random
random.seed(7)
def write(d, rows):
    os.makedirs(d, exist_ok=True)
    with open(d + "/datapoints.csv", "w") as f:
        f.write("WakeLatency,LDist,ReqCState,IntrOff,Big,Empty\n")
        for r in rows:
            f.write(",".join(r) + "\n")
rows = []
for i in range(5000):
    st = random.choice(["C1", "C6", "POLL", "C1E", ""])
    wl = "" if st == "POLL" else repr(random.lognormvariate(2, 1))
    big = random.choice(["1e300", "-1e300", "3.5", "1e-300", "7"])
    rows.append([wl, str(random.randint(1, 4000)), st, str(i % 2), big, ""])
rows.append(["12.5", "100", "C10", "1", "2", ""])          # a group of one value
write("gen", rows)
write("gen2", rows[::3])
write("gen3", rows[1::2])
write("one", [["3.25", "10", "C6", "0", "1", ""]])
write("empty", [])
PY

for run in "$shared/wult-good" gen one empty; do
	for fmt in text csv json; do
		same3 "stats $run $fmt" "$analyze" stats -F $fmt "$run"
	done
	same3 "stats $run funcs" "$analyze" stats -F csv -f count,min,max,avg,std,med,1%,25%,50%,75%,99.9999% "$run"
	same3 "stats $run no-group" "$analyze" stats -F csv -G "$run"
	same3 "stats $run filter" "$analyze" stats -F csv -i "LDist > 1000" "$run"
	same3 "stats $run by" "$analyze" stats -F csv -b IntrOff "$run"
	same3 "stats $run hist" "$analyze" stats -H -F json "$run"
done
for fmt in text csv json; do
	same3 "diff $fmt" "$analyze" diff -F $fmt gen gen2
	same3 "diff filter $fmt" "$analyze" diff -F $fmt -x "ReqCState == 'C6'" gen gen2
	same3 "diff replicates $fmt" "$analyze" diff -F $fmt gen,gen2 gen3,one
	same3 "diff three $fmt" "$analyze" diff -F $fmt gen gen2 gen3 one
done
[ "$(entries)" -ge 4 ] || fail "expected cache entries for 4 runs, found $(entries)"

# the warm run used the entry: its mtime (last use) moves
e=$(ls "$cdir"/*.isc | head -1)
touch -d '2001-01-01' "$cdir"/*.isc
"$analyze" stats gen > /dev/null
[ -n "$(find "$cdir" -name '*.isc' -newermt 2002-01-01)" ] || fail "the entry was not used"

# source changed: touched, a row appended, truncated, same size with another mtime
check_gen() {
	IDLESCOPE_NO_CACHE=1 "$analyze" stats -F csv gen > want.csv 2> /dev/null
	"$analyze" stats -F csv gen > got.csv 2> /dev/null
	cmp -s want.csv got.csv || fail "$1: stale numbers: $(diff want.csv got.csv | head -4)"
}
"$analyze" stats gen > /dev/null
touch gen/datapoints.csv; check_gen touch
echo "999.5,5,C6,1,1," >> gen/datapoints.csv; check_gen append
grep -q 999.5 got.csv || fail "append: the new row's value is not in the max"
head -n 3000 gen/datapoints.csv > t && cat t > gen/datapoints.csv; check_gen truncate
sed -i '2s/^\([0-9]\)/7/' gen/datapoints.csv; touch -d '2020-02-02 02:02:02.123456789' gen/datapoints.csv
check_gen "same size, other mtime"
# replaced by another file (another inode) of the same size and mtime: another key
cp -p gen/datapoints.csv x.csv && sed -i '3s/^\([0-9]\)/8/' x.csv && touch -r gen/datapoints.csv x.csv
mv x.csv gen/datapoints.csv; check_gen "replaced (new inode)"

# damaged entries: truncated, bytes flipped in the header and in the index, garbage, empty
damage() {
	local how=$1
	for f in "$cdir"/*.isc; do
		case $how in
		truncate) truncate -s $(( $(stat -c %s "$f") / 2 )) "$f" ;;
		header) printf '\x55' | dd of="$f" bs=1 seek=60 conv=notrunc 2> /dev/null ;;
		index) printf '\x55' | dd of="$f" bs=1 seek=$(( $(stat -c %s "$f") - 9 )) conv=notrunc 2> /dev/null ;;
		garbage) head -c 4096 /dev/urandom > "$f" ;;
		empty) : > "$f" ;;
		esac
	done
}
for how in truncate header index garbage empty; do
	"$analyze" stats gen > /dev/null 2>&1
	damage $how
	check_gen "damaged entry ($how)"
	"$analyze" stats -F csv gen > again.csv 2> err.txt
	cmp -s want.csv again.csv || fail "damaged entry ($how): the rebuilt entry is wrong"
	grep -v "no values in Empty" err.txt > err2.txt
	[ -s err2.txt ] && fail "damaged entry ($how): stderr: $(cat err2.txt)"
done

# a byte flipped anywhere (the data part included, which is not checksummed: numbers may be
# wrong there, docs/cache.md): never a crash, an error or a sanitizer report
for i in $(seq 40); do
	"$analyze" stats gen > /dev/null 2>&1
	f=$(ls "$cdir"/*.isc | head -1)
	size=$(stat -c %s "$f")
	at=$(( (RANDOM * 32768 + RANDOM) % size ))
	[ $i -le 10 ] && at=$(( (i * 37) % 300 ))           # the header and the start of the data
	[ $i -gt 30 ] && at=$(( size - 1 - (i * 53) % 2000 )) # the index
	printf "\\x$(printf %02x $(( (RANDOM % 255) + 1 )))" |
		dd of="$f" bs=1 seek=$at conv=notrunc 2> /dev/null
	"$analyze" stats -F csv gen > flip.csv 2> flip.err
	rc=$?
	grep -v "no values in Empty" flip.err > flip2.err
	[ $rc = 0 ] && [ ! -s flip2.err ] || fail "byte $at flipped: exit $rc, $(head -3 flip2.err)"
	if [ $i -le 4 ] || [ $i -gt 30 ]; then
		cmp -s want.csv flip.csv || fail "byte $at flipped (header or index): numbers differ"
	fi
done

# an unusable cache directory: the numbers, exit 0, one note at most
: > notadir
XDG_CACHE_HOME=$tmp/notadir "$analyze" stats -F csv gen gen2 > u.csv 2> u.err
rc=$?
[ $rc = 0 ] || fail "unusable cache dir: exit $rc"
IDLESCOPE_NO_CACHE=1 "$analyze" stats -F csv gen gen2 > want2.csv 2> /dev/null
cmp -s want2.csv u.csv || fail "unusable cache dir: numbers differ"
grep -v "no values in Empty" u.err > u2.err
[ "$(grep -c 'note: cache:' u2.err)" = 1 ] && [ "$(wc -l < u2.err)" = 1 ] ||
	fail "unusable cache dir: expected one note, got: $(cat u.err)"

# --no-cache and IDLESCOPE_NO_CACHE=1 write nothing
rm -rf "$cdir"
"$analyze" stats --no-cache gen > /dev/null
"$analyze" diff --no-cache gen gen2 > /dev/null
IDLESCOPE_NO_CACHE=1 "$analyze" stats gen > /dev/null
[ "$(entries)" = 0 ] || fail "--no-cache / IDLESCOPE_NO_CACHE=1 wrote $(entries) entries"

# the size bound: the least recently used go; an entry above the bound is not written
for i in 1 2 3 4; do cp -r gen g$i; done
one=$(du -b "$cdir" > /dev/null 2>&1; "$analyze" stats g1 > /dev/null; stat -c %s "$cdir"/*.isc)
rm -rf "$cdir"
for i in 1 2 3 4; do
	IDLESCOPE_CACHE_MAX=$((one * 2 + one / 2)) "$analyze" stats g$i > /dev/null
	sleep 0.05
done
[ "$(entries)" = 2 ] || fail "size bound $((one * 2 + one / 2)): $(entries) entries, expected 2"
total=$(cat "$cdir"/*.isc | wc -c)
[ "$total" -le $((one * 2 + one / 2)) ] || fail "size bound: $total bytes"
IDLESCOPE_CACHE_MAX=$((one * 2 + one / 2)) "$analyze" stats g3 > /dev/null  # still there
rm -rf "$cdir"
IDLESCOPE_CACHE_MAX=1K "$analyze" stats -F csv g1 > small.csv 2> /dev/null
# in its place a marker (the header alone), so that the next look does not read the file twice
[ "$(entries)" = 1 ] && [ "$(cat "$cdir"/*.isc | wc -c)" -lt 1024 ] ||
	fail "an entry above IDLESCOPE_CACHE_MAX was written: $(ls -l "$cdir")"
IDLESCOPE_CACHE_MAX=1K "$analyze" stats -F csv g1 > small2.csv 2> /dev/null
IDLESCOPE_NO_CACHE=1 "$analyze" stats -F csv g1 > small0.csv 2> /dev/null
cmp -s small.csv small0.csv && cmp -s small2.csv small0.csv || fail "above the bound: numbers differ"
"$analyze" stats -F csv g1 > /dev/null 2>&1   # the default bound: the entry is built now
[ "$(cat "$cdir"/*.isc | wc -c)" -gt 100000 ] || fail "the marker stayed under a larger bound"
IDLESCOPE_CACHE_MAX=12x "$analyze" stats g1 > /dev/null 2> bad.err
rc=$?
[ $rc = 1 ] && [ "$(cat bad.err)" = "analyze: IDLESCOPE_CACHE_MAX: expected a whole number of bytes (K, M, G suffixes), got '12x'" ] ||
	fail "bad IDLESCOPE_CACHE_MAX: exit $rc, $(cat bad.err)"

IDLESCOPE_CACHE_BUILD=now "$analyze" stats g1 > /dev/null 2> bad.err
rc=$?
[ $rc = 1 ] && [ "$(cat bad.err)" = "analyze: IDLESCOPE_CACHE_BUILD: expected 'background' or 'foreground', got 'now'" ] ||
	fail "bad IDLESCOPE_CACHE_BUILD: exit $rc, $(cat bad.err)"

# analyzers at once, on a cold cache: every one gives the cold numbers, one entry is left
rm -rf "$cdir"
IDLESCOPE_NO_CACHE=1 "$analyze" stats -F csv g1 g2 > conc-want.csv
for i in 1 2 3 4 5 6; do "$analyze" stats -F csv g1 g2 > conc$i.csv 2> conc$i.err & done
wait
for i in 1 2 3 4 5 6; do
	cmp -s conc-want.csv conc$i.csv || fail "concurrent analyzer $i: numbers differ"
	grep -v "no values in Empty" conc$i.err > conc$i.err2
	[ -s conc$i.err2 ] && fail "concurrent analyzer $i: $(cat conc$i.err2)"
done
[ "$(entries)" = 2 ] || fail "concurrent: $(entries) entries, expected 2"
[ -z "$(find "$cdir" -name '.*')" ] || fail "concurrent: temporary files left: $(ls -a "$cdir")"

# the input directory is never written: listing with sizes and mtimes before and after
cp -r "$shared/wult-good" ro
snap() { find ro -exec stat -c '%n %s %y %i' {} + | sort; }
snap > before.txt
rm -rf "$cdir"
"$analyze" stats ro > /dev/null; "$analyze" stats ro > /dev/null
"$analyze" diff ro gen > /dev/null; "$analyze" stats -i "LDist > 100" ro > /dev/null
if command -v gnuplot > /dev/null; then
	"$report" -o rep ro > /dev/null 2>&1 || fail "report through the cache failed"
	"$report" -o rep2 ro > /dev/null 2>&1 || fail "report (warm) failed"
fi
snap > after.txt
cmp -s before.txt after.txt || fail "the input directory changed: $(diff before.txt after.txt)"
[ -z "$(find "$cdir" -path "$tmp/ro*")" ] || fail "cache inside the run"

# analyze cache --info / --clear
"$analyze" cache --info > info.txt
grep -q "^directory: $cdir\$" info.txt || fail "cache --info: $(cat info.txt)"
grep -q "^entries: [1-9]" info.txt || fail "cache --info entries: $(cat info.txt)"
"$analyze" cache --clear > clear.txt
grep -q "^removed [1-9][0-9]* entr" clear.txt || fail "cache --clear: $(cat clear.txt)"
[ "$(entries)" = 0 ] || fail "cache --clear left $(entries) entries"
"$analyze" cache --bogus 2> /dev/null; [ $? = 2 ] || fail "cache --bogus: not a usage error"

[ $fails = 0 ] && echo "cache: all checks passed"
exit $((fails > 0))
