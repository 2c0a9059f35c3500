#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Every test script uses test-lib.sh: it sources it (or an area's lib.sh that does), defines
# no fail() of its own and sets no EXIT trap (which would replace test-lib's: background
# processes left running, scratch directories left behind). C tests use common/check.h and
# define no CHECK of their own. tests/kmod/guest-init.sh runs inside the QEMU guest, alone.
# usage: lint.sh TESTS_SRCDIR
. "$(dirname "$0")/test-lib.sh"
T=$1
n=0
for f in $(find "$T" -name '*.sh' ! -path '*/common/*' ! -name guest-init.sh | sort); do
	n=$((n + 1))
	rel=${f#"$T"/}
	grep -Eq '^fail[[:space:]]*\(\)' "$f" && fail "$rel defines its own fail() (an inline script of its own, indented, may)"
	grep -Eq '^[[:space:]]*trap .*[[:space:]](EXIT|0)[[:space:]]*$' "$f" &&
		fail "$rel sets an EXIT trap (use test_when_finished)"
	case "$rel" in
	*/lib.sh | settings/fixture.sh | remote/sshd.sh)   # sourced after test-lib.sh
		continue ;;
	esac
	grep -Eq '^\. "\$\(dirname "\$0"\)/(\.\./common/test-lib|lib|\.\./collect/lib)\.sh"' "$f" ||
		fail "$rel does not source test-lib.sh (or its area's lib.sh)"
done
for l in "$T"/*/lib.sh; do
	grep -q 'common/test-lib.sh' "$l" || fail "${l#"$T"/} does not source test-lib.sh"
done
for f in $(find "$T" -name '*.c' | sort); do
	grep -Eq '^#define CHECK\(' "$f" && fail "${f#"$T"/} defines its own CHECK"
done
[ "$n" -ge 80 ] || fail "only $n test scripts found under $T"
note "$n test scripts use test-lib.sh; no own fail(), EXIT trap or CHECK"
