#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# collect --counters --live: each interval's numbers as it is measured, the same as analyze
# counters gives afterwards from counters.csv; per CPU with --cpus-live; --show/--hide; none
# by default when stdout is not a terminal, and by default on one (script(1)).
# usage: test_live.sh COLLECT ANALYZE
set -eu
COLLECT=$1 ANALYZE=$2
. "$(dirname "$0")/lib.sh"
T=$(mktemp -d)
test_when_finished 'rm -rf "$T"'
"$COLLECT" --counters -q -i 0.1 -n 3 --live -o "$T/a" > "$T/a.out"
eq "live: heading + 3 rows" "$(wc -l < "$T/a.out")" 4
eq "live: heading" "$(head -1 "$T/a.out" | awk '{ print $1 }')" CPU
# Every live row is analyze counters' summary row of that interval (without Package and Core).
"$ANALYZE" counters -S "$T/a" 2>/dev/null | awk '$1 == "-" { $1 = ""; $2 = ""; print }' | awk '{ $1 = $1; print }' > "$T/want"
tail -n +2 "$T/a.out" | awk '{ $1 = $1; print }' > "$T/got"
cmp -s "$T/got" "$T/want" || fail "live rows differ from analyze counters: $(diff "$T/got" "$T/want")"
echo "ok: live rows = analyze counters rows"
# The heading's names are analyze counters' column names.
"$ANALYZE" counters -S "$T/a" 2>/dev/null | sed -n 2p | awk '{ $1 = $2 = $3 = ""; $0 = $0; $1 = $1; print }' > "$T/wh"
head -1 "$T/a.out" | awk '{ $1 = ""; $0 = $0; $1 = $1; print }' > "$T/gh"
cmp -s "$T/gh" "$T/wh" || fail "heading: $(cat "$T/gh") vs $(cat "$T/wh")"
echo "ok: live heading = analyze counters columns"
# --cpus-live: a row per CPU after each summary row; --show picks the columns.
ncpu=$(grep -c '^processor' /proc/cpuinfo)
"$COLLECT" --counters -q -i 0.1 -n 2 --cpus-live --show IRQ,NMI -o "$T/b" > "$T/b.out"
eq "--cpus-live rows" "$(wc -l < "$T/b.out")" $((2 * (2 + ncpu)))
eq "--show heading" "$(head -1 "$T/b.out" | awk '{ $1 = $1; print }')" "CPU IRQ NMI"
"$COLLECT" --counters -q -i 0.1 -n 1 --live --hide IRQ -o "$T/c" > "$T/c.out"
head -1 "$T/c.out" | grep -qw IRQ && fail "--hide IRQ: $(head -1 "$T/c.out")"
echo "ok: --cpus-live, --show, --hide"
# Not a terminal: nothing on stdout. --show without --live: a usage error.
"$COLLECT" --counters -q -i 0.1 -n 2 -o "$T/d" > "$T/d.out"
eq "no terminal, no --live: silent" "$(wc -c < "$T/d.out")" 0
set +e
"$COLLECT" --counters -q -i 0.1 -n 1 --show IRQ -o "$T/e" > /dev/null 2> "$T/e.err"
rc=$?
set -e
eq "--show without --live" "$rc" 2
if command -v script > /dev/null; then
	script -qec "'$COLLECT' --counters -q -i 0.1 -n 2 -o '$T/f'" /dev/null > "$T/f.out"
	eq "terminal: live by default" "$(grep -c '^ *- ' "$T/f.out")" 2
fi
echo "live: all checks passed"
