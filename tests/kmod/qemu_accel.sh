#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Every QEMU boot of the module in CI runs single-threaded TCG (-accel tcg,thread=single):
# with multi-threaded TCG, fast events during DISABLE hung the guest in QEMU's int3-patching
# loop (issue 18), a hang of QEMU and not of the module. Checks each qemu-system-x86_64 call
# in tests/ and scripts/.
# usage: qemu_accel.sh SRC_DIR
set -u
. "$(dirname "$0")/../common/test-lib.sh"
src=$1
calls=$(grep -rn --include='*.sh' -E '(^|[;&|[:space:]])qemu-system-x86_64[[:space:]]+-' "$src/tests" "$src/scripts")
[ -n "$calls" ] || { echo "FAIL: no qemu-system-x86_64 call found in $src/tests, $src/scripts"; exit 1; }
bad=$(printf '%s\n' "$calls" | grep -v -e '-accel tcg,thread=single')
if [ -n "$bad" ]; then
	printf 'FAIL: QEMU started without -accel tcg,thread=single:\n%s\n' "$bad"
	exit 1
fi
echo "qemu-accel: $(printf '%s\n' "$calls" | wc -l) QEMU calls, all single-threaded TCG"
