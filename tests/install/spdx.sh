#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# One licence for the whole project: LICENSE is the GPL version 2, debian/copyright says
# GPL-2 (version 2 only) for the whole tree, and every source file (C, headers, scripts, CMake,
# JavaScript, CSS, the kernel module's Kbuild/Makefile) carries the SPDX line
# "SPDX-License-Identifier: GPL-2.0-only" in its first three lines. Test data, fixtures and
# the Debian packaging are not sources. First checks that a file without the line is found.
# usage: spdx.sh SRC_DIR
set -u
. "$(dirname "$0")/../common/test-lib.sh"
src=$1
test_tmpdir tmp

# missing ROOT: the source files under ROOT without the SPDX line, one per line
missing() {
	(cd "$1" && find . \( -name 'build*' -o -name .git -o -name samples -o -name debian \
		-o -name corpus -o -name data -o -name node_modules \) -prune -o -type f \
		\( -name '*.[ch]' -o -name '*.js' -o -name '*.css' -o -name '*.sh' -o -name '*.py' \
		-o -name '*.cmake' -o -name CMakeLists.txt -o -name Kbuild -o -name Makefile \) -print |
		sort | while read -r f; do
			head -n 3 "$f" | grep -q 'SPDX-License-Identifier: GPL-2\.0-only' || echo "${f#./}"
		done)
}

mkdir -p "$tmp/t/lib"
printf '/* SPDX-License-Identifier: GPL-2.0-only */\nint a;\n' > "$tmp/t/lib/a.c"
printf '#!/bin/sh\n# SPDX-License-Identifier: GPL-2.0-only\n' > "$tmp/t/lib/b.sh"
printf 'int c;\n' > "$tmp/t/lib/c.h"
[ "$(missing "$tmp/t")" = "lib/c.h" ] || fail "a header without the SPDX line was not found: '$(missing "$tmp/t")'"

out=$(missing "$src")
[ -z "$out" ] || fail "source files without 'SPDX-License-Identifier: GPL-2.0-only':
$out"
grep -q 'GNU GENERAL PUBLIC LICENSE' "$src/LICENSE" && grep -q 'Version 2, June 1991' "$src/LICENSE" ||
	fail "LICENSE is not the GPL version 2"
grep -q '^License: GPL-2$' "$src/debian/copyright" || fail "debian/copyright: no 'License: GPL-2' paragraph"
grep -q 'not-yet-chosen' "$src/debian/copyright" && fail "debian/copyright still says not-yet-chosen"
n=$(cd "$src" && find . \( -name 'build*' -o -name .git \) -prune -o -type f -name '*.[ch]' -print | wc -l)
echo "spdx: every source file says GPL-2.0-only ($n C files among them)"
