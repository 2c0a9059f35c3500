#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# info.yml / info.json limits, enforced while parsing (docs/format.md): each hostile file is a
# warning naming file:line:column within a time limit, and the datapoints are still analysed.
# usage: metadata_limits.sh ANALYZE SHARED_DATA
set -u
TEST_KEEP_GOING=1
. "$(dirname "$0")/../common/test-lib.sh"
analyze=$1
good=$2/wult-good
tmp=$(mktemp -d)
test_when_finished 'rm -rf "$tmp"'

# meta NAME FILE CONTENT-GENERATOR: a run with good datapoints and the given metadata file
meta() {
	mkdir -p "$tmp/$1" && cp "$good/datapoints.csv" "$tmp/$1/"
	echo "$tmp/$1/$2"
}
# expect_warn DIR WANT_STDERR: analyze stats within 5 s, exit 0, 9 datapoints, exact stderr
expect_warn() {
	timeout 5 "$analyze" stats -f count -F csv "$1" > "$tmp/out" 2> "$tmp/err"
	local rc=$?
	if [ $rc != 0 ] || [ "$(cat "$tmp/err")" != "$2" ] || ! grep -q ',,,9,WakeLatency,9$' "$tmp/out"; then
		fail "$1: exit $rc; stderr: $(cat "$tmp/err")"
		echo "  want: $2"
	fi
}

# 100,000 nested '[' (200 KB): took 65 s in libyaml's scanner before the limit was checked
f=$(meta deepyml info.yml); { printf 'a: '; head -c 100000 /dev/zero | tr '\0' '['; echo; } > "$f"
expect_warn "$tmp/deepyml" "analyze: warning: $f:1:68: more than 64 levels of nesting; going on without run metadata"
f=$(meta deepjson info.json); { printf '{"a": '; head -c 100000 /dev/zero | tr '\0' '['; echo; } > "$f"
expect_warn "$tmp/deepjson" "analyze: warning: $f:1:71: more than 64 levels of nesting; going on without run metadata"
# exactly 64 levels below the top mapping are fine; the value is read
f=$(meta ok64 info.yml); printf 'reportid: deep64\na: %s1%s\n' "$(printf '[%.0s' $(seq 63))" "$(printf ']%.0s' $(seq 63))" > "$f"
"$analyze" stats -f count "$tmp/ok64" > "$tmp/out" 2> "$tmp/err" && [ ! -s "$tmp/err" ] && grep -q '^deep64 ' "$tmp/out" ||
	fail "64 levels: $(cat "$tmp/err" "$tmp/out" | head -3)"
f=$(meta ok64j info.json); printf '{"reportid": "deep64j", "a": %s1%s}\n' "$(printf '[%.0s' $(seq 64))" "$(printf ']%.0s' $(seq 64))" > "$f"
"$analyze" stats -f count "$tmp/ok64j" > "$tmp/out" 2> "$tmp/err" && [ ! -s "$tmp/err" ] && grep -q '^deep64j ' "$tmp/out" ||
	fail "64 levels (JSON): $(cat "$tmp/err" "$tmp/out" | head -3)"
# too many values: a flat list of 2,000,001 numbers; an anchor of 300,001 values, its copy kept
# for aliases, one alias and that alias's anchored copy: 1.2 M nodes by the end of line 2
f=$(meta manyjson info.json); { printf '{"a": ['; yes '1,' | head -n 2000000 | tr -d '\n'; echo '1]}'; } > "$f"
expect_warn "$tmp/manyjson" "analyze: warning: $f:1:2000003: more than 1000000 values; going on without run metadata"
f=$(meta anchors info.yml)
{
	printf 'a0: &a0 ['; yes '1,' | head -n 300000 | tr -d '\n'; echo '1]'
	for i in 1 2 3 4; do echo "a$i: &a$i [*a$((i - 1))]"; done
} > "$f"
expect_warn "$tmp/anchors" "analyze: warning: $f:2:13: more than 1000000 nodes (with aliases expanded); going on without run metadata"
f=$(meta alias info.yml); printf 'a: *nope\n' > "$f"
expect_warn "$tmp/alias" "analyze: warning: $f:1:4: alias to an unknown or unfinished anchor; going on without run metadata"
# an alias into a deep anchor counts the anchor's levels where it is used
f=$(meta aliasdeep info.yml); printf 'a: &d %s1%s\nb: [[*d]]\n' "$(printf '[%.0s' $(seq 62))" "$(printf ']%.0s' $(seq 62))" > "$f"
expect_warn "$tmp/aliasdeep" "analyze: warning: $f:2:6: more than 64 levels of nesting; going on without run metadata"
# NUL in a string: was cut there ("a\u0000b" became "a"); now U+FFFD, with a warning
f=$(meta nuljson info.json); printf '{"reportid": "a\\u0000b", "x": "\\\\u0000"}\n' > "$f"
"$analyze" stats -f count "$tmp/nuljson" > "$tmp/out" 2> "$tmp/err"
[ "$(cat "$tmp/err")" = "analyze: warning: $f:1:16: \\u0000 (NUL) in a string replaced by U+FFFD" ] &&
	grep -q $'^a\xef\xbf\xbdb ' "$tmp/out" || fail "\\u0000 in info.json: $(cat "$tmp/err" "$tmp/out" | head -3)"
f=$(meta nulyml info.yml); printf 'reportid: "a\\0b"\n' > "$f"
"$analyze" stats -f count "$tmp/nulyml" > "$tmp/out" 2> "$tmp/err"
[ "$(cat "$tmp/err")" = "analyze: warning: $f:1:11: NUL character in a string replaced by U+FFFD" ] &&
	grep -q $'^a\xef\xbf\xbdb ' "$tmp/out" || fail "\\0 in info.yml: $(cat "$tmp/err" "$tmp/out" | head -3)"
f=$(meta nulraw info.json); printf '{"reportid": "a\0b"}\n' > "$f"
expect_warn "$tmp/nulraw" "analyze: warning: $f:1:16: NUL byte (not a JSON file?); going on without run metadata"

echo "$fails failure(s)"
[ $fails = 0 ]
