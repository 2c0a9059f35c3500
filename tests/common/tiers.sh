#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# The two test tiers: every registered test has exactly one label, unit or machine; every
# machine test runs serially and holds the "cpus" resource lock; no unit test holds a lock.
# Read from ctest's own view of the build (ctest --show-only=json-v1).
# usage: tiers.sh CTEST BUILD_DIR
. "$(dirname "$0")/test-lib.sh"
CTEST=$1 BUILD=$2
command -v jq >/dev/null || fail "jq not installed"
test_tmpdir W
(cd "$BUILD" && "$CTEST" --show-only=json-v1) >"$W/tests.json" || fail "ctest --show-only=json-v1 in $BUILD"
# one line per test: NAME LABELS RUN_SERIAL RESOURCE_LOCK (lists joined by '+', '-' for none)
jq -r '.tests[] | (.properties // []) as $p
	| [.name,
	   ([$p[] | select(.name == "LABELS") | .value[]] | if length == 0 then "-" else join("+") end),
	   ([$p[] | select(.name == "RUN_SERIAL") | .value | tostring] | first // "-"),
	   ([$p[] | select(.name == "RESOURCE_LOCK") | .value[]] | if length == 0 then "-" else join("+") end)]
	| @tsv' "$W/tests.json" >"$W/tests.tsv" || fail "jq over ctest's JSON"
n=$(wc -l <"$W/tests.tsv")
[ "$n" -ge 50 ] || fail "only $n tests registered: not the whole tree"
unit=0 machine=0
while IFS="$(printf '\t')" read -r name labels serial lock; do
	case "$labels" in
	unit)
		[ "$serial" != true ] && [ "$lock" = - ] || fail "$name: unit test with RUN_SERIAL=$serial RESOURCE_LOCK=$lock"
		unit=$((unit + 1)) ;;
	machine)
		[ "$serial" = true ] && [ "$lock" = cpus ] ||
			fail "$name: machine test with RUN_SERIAL=$serial RESOURCE_LOCK=$lock (expected true, cpus)"
		machine=$((machine + 1)) ;;
	*) fail "$name: labels '$labels', expected exactly one of unit, machine" ;;
	esac
done <"$W/tests.tsv"
note "$n tests: $unit unit, $machine machine"
