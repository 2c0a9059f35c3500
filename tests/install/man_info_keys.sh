#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Every info.json key of docs/format.md's table (## info.json) is named in the INFO.JSON
# section of docs/man/idlescope-run.5.scd, so the man page cannot drift from the format;
# then a copy of the page with one key taken out must fail and name it.
# usage: man_info_keys.sh SRC_DIR
set -u
. "$(dirname "$0")/../common/test-lib.sh"
src=$1
tmp=$(mktemp -d)
test_when_finished 'rm -rf "$tmp"'

# the keys of the table's first column ("| `a`, `b` | ..."), one a line
format_keys() {
	sed -n '/^## info.json/,/^## /p' "$1" | grep '^| `' | cut -d'|' -f2 | grep -o '`[a-z_]*`' | tr -d '`'
}

# the keys format.md has and the page's INFO.JSON section does not name (*key*)
missing_keys() {   # FORMAT_MD PAGE
	sed -n '/^# INFO.JSON/,/^# /p' "$2" >"$tmp/section"
	for k in $(format_keys "$1"); do
		grep -q "\*$k\*" "$tmp/section" || echo "$k"
	done
}

n=$(format_keys "$src/docs/format.md" | wc -l)
[ "$n" -ge 30 ] || fail "docs/format.md: only $n info.json keys found: is the table still there?"
miss=$(missing_keys "$src/docs/format.md" "$src/docs/man/idlescope-run.5.scd")
[ -z "$miss" ] || fail "docs/man/idlescope-run.5.scd INFO.JSON lacks: $(echo $miss)"

sed 's/\*settings_targets\*/*settings_whatever*/' "$src/docs/man/idlescope-run.5.scd" >"$tmp/page"
miss=$(missing_keys "$src/docs/format.md" "$tmp/page")
[ "$miss" = settings_targets ] || fail "a page without settings_targets: the check found '$miss'"
echo "man_info_keys: $n info.json keys of docs/format.md all in idlescope-run(5)"
