#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# bench/collect_vs_cyclictest.sh runs cyclictest with its main thread off the measured CPU
# (rt-tests 2.x pins it to -a otherwise, which helps cyclictest's figure on some hosts).
# usage: bench_args.sh BENCH_DIR
set -eu
. "$(dirname "$0")/../common/test-lib.sh"
. "$1/cyclictest_args.sh"
fails=0
check() {
	got=$(cyclictest_args "$1" 1000 50 "$2")
	[ "$got" = "$3" ] || { echo "FAIL: cpu $1 online $2: '$got', expected '$3'"; fails=$((fails + 1)); }
}
base="-p 99 -m -i 1000 -l 50 -q -v --laptop"
check 1 0-1 "-t1 -a 1 $base --mainaffinity=0"
check 0 0-3 "-t1 -a 0 $base --mainaffinity=1"
check 2 0,2,5-7 "-t1 -a 2 $base --mainaffinity=0"
check 0 0,3 "-t1 -a 0 $base --mainaffinity=3"
check 0 0 "-t1 -a 0 $base"
grep -q 'cyclictest $(cyclictest_args ' "$1/collect_vs_cyclictest.sh" || { echo "FAIL: the bench does not use cyclictest_args"; fails=$((fails + 1)); }
[ "$fails" = 0 ] && echo "bench cyclictest arguments: ok"
exit "$fails"
