#!/bin/sh
# Install what is missing, build with warnings as errors, run every test; then build again
# with AddressSanitizer + UndefinedBehaviorSanitizer and run the tests there too; then run each
# libFuzzer target for a bounded time (scripts/fuzz.sh; IDLESCOPE_FUZZ_SECONDS, default 60).
set -eu
cd "$(dirname "$0")/.."
./scripts/install-deps.sh
jobs=$(nproc)

cmake -S . -B build-test -DIDLESCOPE_WERROR=ON -DCMAKE_BUILD_TYPE=RelWithDebInfo
cmake --build build-test -j"$jobs"
(cd build-test && ctest --output-on-failure)

# The sanitizer pass skips the kmod test: its guest runs the collector built for it there.
cmake -S . -B build-sanitize -DIDLESCOPE_WERROR=ON -DIDLESCOPE_SANITIZE=ON -DCMAKE_BUILD_TYPE=Debug
cmake --build build-sanitize -j"$jobs"
(cd build-sanitize &&
	ASAN_OPTIONS=detect_leaks=1:abort_on_error=0 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
	ctest --output-on-failure -E '^kmod')
./scripts/fuzz.sh
echo "test.sh: all tests passed (plain and sanitized builds, fuzzing)"
