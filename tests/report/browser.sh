#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# A diff report rendered by headless Chromium: the DOM has the tables and every plot, every
# image is a real PNG/SVG inside the report, nothing points outside it, and a screenshot is
# kept in OUTDIR (the build tree) for people to look at.
REPORT=$1 GEN=$2 DATA=$3 OUTDIR=$4
. "$(dirname "$0")/lib.sh"
set -e
CHROMIUM=$(command -v chromium || true)
[ -n "$CHROMIUM" ] || { echo "SKIP: chromium is not installed"; exit 77; }

gen_run "$W/shifted" 200000 3 0.4 shifted
mkdir -p "$OUTDIR"
expect_rc 0 "$REPORT" "$DATA/wult-good" "$W/shifted" -o "$OUTDIR/report" --force \
	--title "wult-good vs a generated run"
page=$OUTDIR/report/index.html
[ "$(cat "$W/out.txt")" = "$(cd "$OUTDIR/report" && pwd -P)/index.html" ] || fail "printed $(cat "$W/out.txt")"

chrome() {
	timeout 120 "$CHROMIUM" --headless --no-sandbox --disable-gpu --disable-background-networking \
		--disable-component-update --disable-sync --no-first-run --user-data-dir="$W/profile" "$@"
}
chrome --dump-dom "file://$page" >"$W/dom.html" 2>"$W/chrome.log" || { cat "$W/chrome.log"; fail "chromium --dump-dom"; }

nmetrics=$(grep -c '<section id="m[0-9]*" class="metric">' "$W/dom.html")
[ "$nmetrics" -ge 4 ] || fail "$nmetrics metric sections in the DOM"
[ "$(grep -c '<table class="intro">' "$W/dom.html")" -ge 1 ] || fail "no runs table in the DOM"
[ "$(grep -c '<table class="summary">' "$W/dom.html")" = "$nmetrics" ] || fail "summary tables"
[ "$(grep -c '<table class="summary groups">' "$W/dom.html")" = "$nmetrics" ] || fail "per-state tables"
[ "$(grep -c '<p class="sig">\|<p class="nosig">\|<p class="differs">' "$W/dom.html")" = "$nmetrics" ] || fail "verdict lines"
# One run each: no "significant", the change with two significant digits, the within-run
# block-bootstrap interval (9 values: one per block), named as such, and the note.
grep -q "WakeLatency: median -0.31 us (-6.1%) vs testdata, within-run 95% interval \[-0.4, +1.3\] (block bootstrap; run-to-run variation unknown), no difference in these runs (Mann–Whitney p = 0.79); one run per configuration" "$W/dom.html" ||
	fail "WakeLatency verdict: $(grep -o "WakeLatency: median[^<]*" "$W/dom.html" | head -1)"

# Every <img> in the DOM is a file of the report; every plot file is shown.
grep -o '<img src="[^"]*"' "$W/dom.html" | sed 's/<img src="//; s/"$//' | sort >"$W/srcs"
(cd "$OUTDIR/report" && ls plots/*.png plots/*.svg | sort) >"$W/files"
[ -s "$W/srcs" ] || fail "no images in the DOM"
diff "$W/srcs" "$W/files" >&2 || fail "images in the DOM and plot files differ"
nscatter=0
while read -r src; do
	f=$OUTDIR/report/$src
	case "$src" in
	*.png)
		[ "$(head -c 8 "$f" | od -An -tx1 | tr -d ' \n')" = 89504e470d0a1a0a ] || fail "$src: not a PNG"
		nscatter=$((nscatter + 1)) ;;
	*.svg)
		grep -q '<svg' "$f" && tail -c 200 "$f" | grep -q '</svg>' || fail "$src: not an SVG"
		grep -qE '<script|href="(https?:|//)' "$f" && fail "$src: script or external reference" ;;
	*) fail "$src: neither PNG nor SVG" ;;
	esac
done <"$W/srcs"
[ "$nscatter" -ge $((2 * nmetrics - 2)) ] || fail "$nscatter scatter plots for $nmetrics metrics"

# Nothing refers outside the report directory.
grep -oE '(src|href)="[^"]*"' "$page" | sed 's/^[a-z]*="//; s/"$//' | while read -r ref; do
	case "$ref" in
	\#*) ;;
	*:* | /* | *..* ) fail "reference outside the report: $ref" ;;
	*) [ -e "$OUTDIR/report/${ref%/}" ] || fail "dangling reference: $ref" ;;
	esac
done
grep -qiE 'https?://|@import|url\(' "$page" && fail "external URL in index.html"

rm -f "$OUTDIR/screenshot.png"
chrome --screenshot="$OUTDIR/screenshot.png" --window-size=1280,2400 "file://$page" >/dev/null 2>>"$W/chrome.log" ||
	{ cat "$W/chrome.log"; fail "chromium --screenshot"; }
[ "$(head -c 8 "$OUTDIR/screenshot.png" | od -An -tx1 | tr -d ' \n')" = 89504e470d0a1a0a ] || fail "screenshot is not a PNG"
size=$(stat -c %s "$OUTDIR/screenshot.png")
[ "$size" -gt 100000 ] || fail "screenshot of $size bytes: a blank page?"
echo "PASS (screenshot: $OUTDIR/screenshot.png)"
