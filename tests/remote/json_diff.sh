#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# collect-deploy's cJSON API (collect/remote/json/) against Debian's libcjson, on the fixtures in
# json/ and on generated documents (fixed seed): both parse every document to the same tree or
# both refuse it; what ours prints, libcjson reads back to the same tree (numbers to the bit);
# trees built through the API are the same, and the API answers the same; the layout of printed
# text is libcjson's (layout-*.json, whose numbers are whole).
# usage: json_diff.sh OURS REAL   (json_diff.c built with each)
set -u
. "$(dirname "$0")/../common/test-lib.sh"
OURS=$1 REAL=$2
SRC=$(dirname "$0")/json
TMP=$(mktemp -d)
test_when_finished 'rm -rf "$TMP"'
fails=0 checked=0
bad() { echo "json_diff: FAIL: $*" >&2; fails=$((fails + 1)); }

# same FILE1 FILE2 WHAT
same() {
	checked=$((checked + 1))
	cmp -s "$1" "$2" || { bad "$3"; diff "$1" "$2" | head -8 >&2; }
}

# generated documents: random doubles (random bits), whole numbers up to 2^63, strings with
# escapes, surrogate pairs and raw UTF-8, nesting; Python writes the shortest exact text
python3 - "$TMP/gen" <<'PY' || { echo "json_diff: FAIL: python3 generator" >&2; exit 1; }
import json, math, os, random, struct, sys
out = sys.argv[1]
os.makedirs(out)
r = random.Random(14)
def num():
    k = r.randrange(5)
    if k == 0:
        while True:
            d = struct.unpack("<d", r.getrandbits(64).to_bytes(8, "little"))[0]
            if math.isfinite(d):
                return d
    if k == 1:
        return r.randrange(-2**63, 2**63)
    if k == 2:
        return r.randrange(-2**53, 2**53 + 1)
    if k == 3:
        return r.uniform(-1e6, 1e6)
    return r.choice([0.0, -0.0, 5e-324, 1e308, 2.0**53, 2.0**-1074 * r.randrange(1, 1 << 20)])
def text():
    chars = [chr(r.randrange(0, 0x20)), chr(r.randrange(0x20, 0x7f)), chr(r.randrange(0xa0, 0x800)),
             chr(r.randrange(0x800, 0xd800)), chr(r.randrange(0x10000, 0x110000)), '"', "\\", "/", "\x7f"]
    return "".join(r.choice(chars) for _ in range(r.randrange(0, 12)))
def value(depth):
    k = r.randrange(8 if depth < 6 else 5)
    if k == 0: return num()
    if k == 1: return text()
    if k == 2: return r.choice([True, False, None])
    if k == 3: return num()
    if k == 4: return text()
    if k == 5: return [value(depth + 1) for _ in range(r.randrange(0, 5))]
    return {text(): value(depth + 1) for _ in range(r.randrange(0, 5))}
for i in range(150):
    doc = [value(0) for _ in range(8)] if i % 3 else {text(): value(0) for _ in range(6)}
    s = json.dumps(doc, ensure_ascii=bool(i % 2), indent=None if i % 4 else 1)
    with open(f"{out}/gen-{i:03d}.json", "w", encoding="utf-8") as f:
        f.write(s)
PY

for f in "$SRC"/*.json "$TMP"/gen/*.json; do
	n=$(basename "$f" .json)
	"$OURS" dump "$f" >"$TMP/$n.ours" && "$REAL" dump "$f" >"$TMP/$n.real" || bad "$n: dump failed"
	same "$TMP/$n.ours" "$TMP/$n.real" "$n: parsed differently"
	case $n in
	bad-*)
		# refused where a whole document is read (collect's files: isc_json_load)
		[ "$(sed -n 2p "$TMP/$n.ours")" = error ] || bad "$n: bad input accepted"
		continue ;;
	esac
	grep -q '^error$' "$TMP/$n.real" && ! grep -q -e trailing -e nul-inside <<EON
$n
EON
	[ $? -eq 0 ] && bad "$n: a good document refused"
	# round trip: what ours prints, libcjson parses to the tree it parsed from the document
	"$REAL" dump "$f" | sed -n '/^== ParseWithLength$/,/^== Parse$/p' >"$TMP/$n.want"
	for how in fmt unfmt; do
		"$OURS" print "$f" $how >"$TMP/$n.$how.json" || { bad "$n: ours did not print"; continue; }
		case $n in good-overflow) continue ;; esac   # 1e400 is inf, printed as null by both
		"$REAL" dump "$TMP/$n.$how.json" | sed -n '/^== ParseWithLength$/,/^== Parse$/p' >"$TMP/$n.$how.got"
		same "$TMP/$n.$how.got" "$TMP/$n.want" "$n: printed ($how) and read back by libcjson, not the same tree"
	done
	case $n in layout-*|good-deep1000|good-strings|good-rawbytes|good-bom)
		for how in fmt unfmt; do
			"$REAL" print "$f" $how >"$TMP/$n.$how.real"
			same "$TMP/$n.$how.json" "$TMP/$n.$how.real" "$n: printed ($how) text differs from libcjson's"
		done ;;
	esac
done
grep -q 'null int 0' "$TMP/good-overflow.ours" 2>/dev/null && bad "overflow parsed as null"

# trees built through the API
mkdir -p "$TMP/b.ours" "$TMP/b.real"
"$OURS" build "$TMP/b.ours" && "$REAL" build "$TMP/b.real" || bad "build failed"
same "$TMP/b.ours/build.dump" "$TMP/b.real/build.dump" "built trees differ"
same "$TMP/b.ours/build.answers" "$TMP/b.real/build.answers" "the API's answers differ"
for how in fmt unfmt; do
	"$REAL" dump "$TMP/b.ours/build.$how.json" | sed -n '/^== ParseWithLength$/,/^== Parse$/p' |
		sed '1d;$d' >"$TMP/b.$how.got"
	same "$TMP/b.$how.got" "$TMP/b.ours/build.dump" "built tree printed ($how), read back by libcjson: not the same"
done
# the numbers that need all 17 digits, the subnormals and -0 are there, exact
for want in '0x0.0000000000001p-1022 int 0' '-0x0p+0(-0) int 0' '0x1.3333333333334p-2 int 0' '0x1.fffffffffffffp+1023 int 2147483647' \
	'0x1p+53 int 2147483647' '-0x1p+31 int -2147483648'; do
	checked=$((checked + 1))
	grep -qF -- "$want" "$TMP/b.unfmt.got" || bad "built number $want not read back"
done
grep -qF -- '-0,' "$TMP/b.ours/build.unfmt.json" || bad "-0 not printed as -0"
grep -qF -- '0.30000000000000004' "$TMP/b.ours/build.unfmt.json" || bad "0.1 + 0.2 not printed exactly"
grep -qF -- '5e-324' "$TMP/b.ours/build.unfmt.json" || bad "5e-324 not printed as 5e-324"
grep -qF -- '9007199254740992,' "$TMP/b.ours/build.unfmt.json" || bad "2^53 not printed in full"
grep -qx 'infinities: \[null,null\]' "$TMP/b.ours/build.answers" || bad "infinities not null"

[ $fails -eq 0 ] || { echo "json_diff: $fails of $checked checks failed" >&2; exit 1; }
echo "json_diff: $checked checks passed ($(ls "$SRC" | wc -l) fixtures, $(ls "$TMP/gen" | wc -l) generated documents)"
