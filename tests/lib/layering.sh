#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# The core library's folders stand in layers: lib/CMakeLists.txt lists them from the ground
# up (IDLESCOPE_LIB_DIRS), and a file may include headers of its own folder and of the
# folders listed before it, never of one listed after it. Every quoted include in lib/ names
# its header from lib/ ("table/table.h"), and that header is there (idlescope/version.h is
# generated). First checks that a tree breaking the rule is refused, then this tree.
# usage: layering.sh SOURCE_DIR
set -u
src=$1
. "$(dirname "$0")/../common/test-lib.sh"
test_tmpdir tmp

# check ROOT: one line per breach ("lib/FILE:LINE: ..."), exit 1 if any.
check() {
	local root=$1
	local dirs
	dirs=$(sed -n 's/^set(IDLESCOPE_LIB_DIRS \(.*\))$/\1/p' "$root/lib/CMakeLists.txt")
	[ -n "$dirs" ] || { echo "$root/lib/CMakeLists.txt: no set(IDLESCOPE_LIB_DIRS ...)"; return 1; }
	(cd "$root/lib" && find . -name '*.[ch]' -printf '%P\n' | sort | while read -r f; do
		grep -Hn '^[[:space:]]*#[[:space:]]*include[[:space:]]*"' "$f" || true
	done) | awk -v dirs="$dirs" '
		function folder(p,    i, best) {   # the longest listed folder that p lies in
			best = ""
			for (i = 1; i <= n; i++)
				if (index(p, d[i] "/") == 1 && length(d[i]) > length(best))
					best = d[i]
			return best
		}
		BEGIN { n = split(dirs, d, " "); for (i = 1; i <= n; i++) rank[d[i]] = i }
		{
			split($0, part, ":"); file = part[1]; line = part[2]
			match($0, /"[^"]+"/); h = substr($0, RSTART + 1, RLENGTH - 2)
			if (h == "idlescope/version.h")
				next
			from = folder(file); to = folder(h)
			if (from == "") {
				printf "lib/%s: in no folder of IDLESCOPE_LIB_DIRS\n", file; bad = 1
			} else if (to == "") {
				printf "lib/%s:%s: includes \"%s\": not a header of a lib/ folder\n", file, line, h; bad = 1
			} else if (rank[to] > rank[from]) {
				printf "lib/%s:%s: includes \"%s\": %s/ is above %s/\n", file, line, h, to, from; bad = 1
			} else
				print h > "/dev/stderr"
		}
		END { exit bad }' 2> "$tmp/headers" || return 1
	sort -u "$tmp/headers" | while read -r h; do
		[ -f "$root/lib/$h" ] || echo "lib/: includes \"$h\", which is not there"
	done | grep . && return 1
	return 0
}

# refused WHAT WANT: the fixture is refused with exactly the message WANT.
refused() {
	local out rc
	out=$(check "$f"); rc=$?
	if [ $rc = 0 ] || [ "$out" != "$2" ]; then
		fail "$1 was not reported as '$2': '$out'"
	fi
}
# A tree that breaks the rule: text/ includes table/, listed after it.
f=$tmp/fixture
mkdir -p "$f/lib/text" "$f/lib/table"
echo 'set(IDLESCOPE_LIB_DIRS text table)' > "$f/lib/CMakeLists.txt"
printf '#include "table/b.h"\n' > "$f/lib/table/b.c"
: > "$f/lib/table/b.h"
printf '/* a */\n#include "table/b.h"\n' > "$f/lib/text/a.c"
refused "an include upward" 'lib/text/a.c:2: includes "table/b.h": table/ is above text/'
printf '#include "table/gone.h"\n' > "$f/lib/table/b.c"
printf '#include "strpool.h"\n' > "$f/lib/text/a.c"
refused "a bare include" 'lib/text/a.c:1: includes "strpool.h": not a header of a lib/ folder'
printf '#include "table/b.h"\n' > "$f/lib/text/a.c"
sed -i 's/text table/table text/' "$f/lib/CMakeLists.txt"
refused "a missing header" 'lib/: includes "table/gone.h", which is not there'

check "$src" || fail "lib/ includes across its layers (above)"
echo "layering: $(sed -n 's/^set(IDLESCOPE_LIB_DIRS \(.*\))$/\1/p' "$src/lib/CMakeLists.txt" | wc -w) folders of lib/ in layers, no include upward"
