#!/bin/sh
# Install what is missing, build with warnings as errors, run every test; then build again
# with AddressSanitizer + UndefinedBehaviorSanitizer and run the tests there too; then run each
# libFuzzer target for a bounded time (scripts/fuzz.sh; IDLESCOPE_FUZZ_SECONDS, default 60);
# then build the Debian packages and check them (scripts/package-test.sh: lintian, the unpacked
# programs, and as root an install + smoke run + purge; IDLESCOPE_PKG_INSTALL=0 skips that).
set -eu
cd "$(dirname "$0")/.."
./scripts/install-deps.sh
jobs=$(nproc)

cmake -S . -B build-test -DIDLESCOPE_WERROR=ON -DCMAKE_BUILD_TYPE=RelWithDebInfo
cmake --build build-test -j"$jobs"
(cd build-test && ctest --output-on-failure)

# The sanitizer pass skips the QEMU kmod test (its guest runs the collector built for it there)
# and the build against newer headers (nothing of it runs here).
cmake -S . -B build-sanitize -DIDLESCOPE_WERROR=ON -DIDLESCOPE_SANITIZE=ON -DCMAKE_BUILD_TYPE=Debug
cmake --build build-sanitize -j"$jobs"
(cd build-sanitize &&
	ASAN_OPTIONS=detect_leaks=1:abort_on_error=0 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
	ctest --output-on-failure -E '^kmod-(qemu|build-newer)$')

./scripts/fuzz.sh
./scripts/package-test.sh
echo "test.sh: all tests passed (plain and sanitized builds, fuzzing, Debian packages)"
