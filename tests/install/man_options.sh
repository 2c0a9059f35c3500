#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Every OPTIONS section of docs/man/*.scd lists exactly the options (names and argument
# names) that the matching --help prints, so the man pages cannot drift from the programs;
# a page with an OPTIONS section not checked here fails too. Then the same check on a copy
# of the pages with one option left out and one added must fail and name both.
# usage: man_options.sh SRC_DIR COLLECT ANALYZE REPORT
set -u
. "$(dirname "$0")/../common/test-lib.sh"
src=$1 collect=$2 analyze=$3 report=$4
tmp=$(mktemp -d)
test_when_finished 'rm -rf "$tmp"'

# page|section|command whose --help that section mirrors
sections="collect.1.scd|OPTIONS|\"$collect\"
collect.1.scd|COUNTERS OPTIONS|\"$collect\" --counters
analyze.1.scd|OPTIONS|\"$analyze\"
analyze.1.scd|STATS OPTIONS|\"$analyze\" stats
analyze.1.scd|DIFF OPTIONS|\"$analyze\" diff
analyze.1.scd|COUNTERS OPTIONS|\"$analyze\" counters
analyze.1.scd|EXPORT OPTIONS|\"$analyze\" export
analyze.1.scd|CACHE OPTIONS|\"$analyze\" cache
report.1.scd|OPTIONS|\"$report\""

# Option heads ("-o --output DIR") of a --help text on stdin: lines indented 2 to 6 spaces
# that start with '-'; then option names and the argument name after each (an upper-case word).
help_heads() {
	awk 'match($0, /^ +-/) && RLENGTH >= 3 && RLENGTH <= 7 && /^ +--?[A-Za-z]/ {
		h = ""
		for (i = 1; i <= NF; i++) {
			t = $i; sub(/,$/, "", t)
			if (t ~ /^-/ || (t ~ /^[A-Z][][A-Z0-9_,=:|.]*$/ && h ~ /-[^ ]*$/)) h = h (h ? " " : "") t
			else break
		}
		print h
	}' | sort
}

# Option heads of section "# NAME" of an scd file: its lines starting with *-, markup removed.
man_heads() {
	awk -v sec="# $2" '
		/^# / { in_sec = ($0 == sec); next }
		in_sec && /^\*-/ { gsub(/[*_\\]/, ""); gsub(/, /, " "); gsub(/ +/, " "); sub(/ $/, ""); print }' "$1" | sort
}

# check MANDIR: every section against its --help; 0 when all agree.
check() {
	status=0
	for f in "$1"/*.scd; do
		grep '^# .*OPTIONS$' "$f" | sed 's/^# //' | while read -r s; do
			printf '%s\n' "$sections" | grep -q "^${f##*/}|$s|" ||
				echo "${f##*/}: section '$s' is not checked against a --help (add it to $0)"
		done
	done >"$tmp/unchecked"
	if [ -s "$tmp/unchecked" ]; then
		cat "$tmp/unchecked"
		status=1
	fi
	while IFS='|' read -r page section cmd; do
		eval "$cmd --help" | help_heads >"$tmp/help"
		man_heads "$1/$page" "$section" >"$tmp/man"
		if [ ! -s "$tmp/help" ] || [ ! -s "$tmp/man" ]; then
			echo "$page: section '$section' or '$cmd --help' lists no options"
			status=1
		elif ! diff -u --label "$cmd --help" --label "$page ($section)" "$tmp/help" "$tmp/man" >"$tmp/diff"; then
			echo "$page: section '$section' differs from '$cmd --help':"
			tail -n +3 "$tmp/diff" | grep '^[-+]'
			status=1
		fi
	done <<EOF2
$sections
EOF2
	return $status
}

if ! check "$src/docs/man"; then
	echo "FAIL: man pages and --help differ"
	exit 1
fi
echo "man pages: every option section matches --help"

# The check itself: drop --keep-raw from collect(1), rename report's --jobs argument.
mkdir "$tmp/drift"
cp "$src"/docs/man/*.scd "$tmp/drift/"
sed -i '/^\*--keep-raw\*$/d; s/^\*-j\*, \*--jobs\* _N_$/*-j*, *--jobs* _JOBS_/' "$tmp/drift/collect.1.scd" "$tmp/drift/report.1.scd"
out=$(check "$tmp/drift")
expect="collect.1.scd: section 'OPTIONS' differs from '\"$collect\" --help':
---keep-raw
report.1.scd: section 'OPTIONS' differs from '\"$report\" --help':
--j --jobs N
+-j --jobs JOBS"
if [ "$out" != "$expect" ]; then
	printf 'FAIL: the check on drifted pages said:\n%s\nexpected:\n%s\n' "$out" "$expect"
	exit 1
fi
echo "man pages: drift is caught (a missing option, a renamed argument)"
