#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Byte-for-byte comparison of two builds' analyze outputs (stdout, stderr and exit status):
# stats (default, -G, JSON, CSV, three filters), export (CSV, JSON Lines) of every run, and
# diff (text, JSON, a filter) of each run against the next. For a speed change that must not
# change any output (issue 28): the build it started from against the new one, on the
# benches' data and /work/shared/data. Cold (no run cache). Prints one line per difference
# and a summary; exits 1 when anything differs.
# usage: bench/compare_outputs.sh REF_BUILD NEW_BUILD RUN...
set -u
[ $# -ge 3 ] || { echo "usage: $0 REF_BUILD NEW_BUILD RUN..." >&2; exit 2; }
export IDLESCOPE_NO_CACHE=1
ref=$1/analyze/analyze
new=$2/analyze/analyze
shift 2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
ncmp=0
ndiff=0
# one ARGS...: the same outputs from both builds
one() {
	"$ref" "$@" > "$tmp/r.out" 2> "$tmp/r.err"
	echo $? >> "$tmp/r.out"
	"$new" "$@" > "$tmp/n.out" 2> "$tmp/n.err"
	echo $? >> "$tmp/n.out"
	ncmp=$((ncmp + 1))
	if ! cmp -s "$tmp/r.out" "$tmp/n.out" || ! cmp -s "$tmp/r.err" "$tmp/n.err"; then
		ndiff=$((ndiff + 1))
		echo "DIFFERS: analyze $*"
	fi
}
prev=""
for run in "$@"; do
	one stats "$run"
	one stats -G "$run"
	one stats -F json "$run"
	one stats -F csv "$run"
	one export "$run"
	one export -F jsonl "$run"
	# filters: packed columns are filtered as they are (kept rows, exceptions renumbered)
	one stats -i "CC6% > 50 and LDist < 3000" "$run"
	one stats -G -F json -x "WakeLatency > 5 or ReqCState == 'C1E'" "$run"
	one stats --by IntrOff -i "index >= 1000 and SilentTime >= 0" "$run"
	if [ -n "$prev" ]; then
		one diff "$prev" "$run"
		one diff -F json "$prev" "$run"
		one diff -x "CC1% < 5" "$prev" "$run"
	fi
	prev=$run
done
echo "compare_outputs: $ncmp commands, $ndiff differ"
[ "$ndiff" = 0 ]
