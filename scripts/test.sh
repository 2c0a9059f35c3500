#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# usage: scripts/test.sh [--quick]
# --quick: build (warnings as errors) and run the unit tier only (ctest -L unit, in parallel:
# no root, no collector, no machine state; about a minute). Nothing is installed.
# Without it: install what is missing, build with warnings as errors, run every test (the unit
# tier in parallel, then the machine tier, serially: ctest labels, tests/CMakeLists.txt); then build again
# with AddressSanitizer + UndefinedBehaviorSanitizer and run the tests there too; then run each
# libFuzzer target for a bounded time (scripts/fuzz.sh; IDLESCOPE_FUZZ_SECONDS, default 60);
# then build the Debian packages and check them (scripts/package-test.sh: lintian, the unpacked
# programs, and as root an install + smoke run + purge; IDLESCOPE_PKG_INSTALL=0 skips that).
set -eu
cd "$(dirname "$0")/.."
jobs=$(nproc)
case "${1:-}" in
--quick) quick=1 ;;
"") quick=0 ;;
*) echo "usage: scripts/test.sh [--quick]" >&2; exit 2 ;;
esac
[ $quick = 1 ] || ./scripts/install-deps.sh

cmake -S . -B build-test -DIDLESCOPE_WERROR=ON -DCMAKE_BUILD_TYPE=RelWithDebInfo
cmake --build build-test -j"$jobs"
if [ $quick = 1 ]; then
	(cd build-test && ctest --output-on-failure -L '^unit$' -j"$jobs")
	echo "test.sh --quick: the unit tier passed (plain build)"
	exit 0
fi
# both tiers run, whichever fails first
unit_rc=0
(cd build-test && ctest --output-on-failure -L '^unit$' -j"$jobs") || unit_rc=$?
(cd build-test && ctest --output-on-failure -L '^machine$')
[ $unit_rc = 0 ] || { echo "test.sh: unit tier failed (above)" >&2; exit 1; }

# The sanitizer pass skips the QEMU kmod test (its guest runs the collector built for it there)
# and the build against newer headers (nothing of it runs here).
cmake -S . -B build-sanitize -DIDLESCOPE_WERROR=ON -DIDLESCOPE_SANITIZE=ON -DCMAKE_BUILD_TYPE=Debug
cmake --build build-sanitize -j"$jobs"
(cd build-sanitize &&
	ASAN_OPTIONS=detect_leaks=1:abort_on_error=0 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
	ctest --output-on-failure -L '^unit$' -j"$jobs" &&
	ASAN_OPTIONS=detect_leaks=1:abort_on_error=0 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
	ctest --output-on-failure -L '^machine$' -E '^kmod-(qemu|build-newer)$')

./scripts/fuzz.sh
./scripts/package-test.sh
echo "test.sh: all tests passed (plain and sanitized builds, fuzzing, Debian packages)"
