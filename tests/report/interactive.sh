#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# The interactive report in headless Chromium with networking off (a new network namespace):
# every plot becomes live; a zoom box on a scatter plot narrows its axes, shift+drag pans,
# double-click resets; hovering a point shows its row and values (checked against the CSV);
# a run toggled off is no longer painted nor hovered; no two labels overlap, on the canvases
# and in the static SVGs (their <text> boxes compared); the legend of an 8-run experiment is
# fully visible at 1400 px. The driver is tests/report/interactive_selftest.js, added to a
# copy of the page. Screenshots are kept in OUTDIR for people to look at.
REPORT=$1 GEN=$2 OUTDIR=$3
. "$(dirname "$0")/lib.sh"
set -e
CHROMIUM=$(command -v chromium || true)
[ -n "$CHROMIUM" ] || skip "chromium is not installed"
SELFTEST=$(dirname "$0")/interactive_selftest.js
mkdir -p "$OUTDIR"

# Networking off: a network namespace of our own (root), else a proxy that leads nowhere.
if unshare -n true 2>/dev/null; then
	OFFLINE="unshare -n" PROXY=()
	note "networking off: unshare -n"
else
	OFFLINE="" PROXY=(--proxy-server=http://127.0.0.1:9 --proxy-bypass-list='<-loopback>')
	note "networking off: a proxy to 127.0.0.1:9 (unshare -n refused)"
fi
chrome() {
	timeout 120 $OFFLINE "$CHROMIUM" --headless --no-sandbox --disable-gpu --disable-background-networking \
		--disable-component-update --disable-sync --no-first-run --user-data-dir="$W/profile" \
		--allow-file-access-from-files --hide-scrollbars --virtual-time-budget=20000 "${PROXY[@]}" "$@"
}
# selftest DIR [HASH]: the driver's lines, from a copy of DIR's page
selftest() {
	cp "$SELFTEST" "$1/interactive_selftest.js"
	sed 's|<script src="plots/viewer.js"></script>|&<script src="interactive_selftest.js"></script>|' \
		"$1/index.html" >"$1/selftest.html"
	chrome --window-size=1400,1000 --dump-dom "file://$1/selftest.html${2:-}" >"$W/dom.html" 2>"$W/chrome.log" ||
		{ cat "$W/chrome.log"; fail "chromium --dump-dom"; }
	awk '/<pre id="selftest">/ { sub(/.*<pre id="selftest">/, ""); on = 1 } on { print } /^DONE/ { exit }' \
		"$W/dom.html" | sed 's/&gt;/>/g; s/&nbsp;/ /g; s/&amp;/\&/g' >"$W/st.txt"
	grep -q '^DONE' "$W/st.txt" || fail "the self-test did not finish: $(head -c 300 "$W/st.txt")"
}
between() { awk -v a="$1" -v b="$2" -v t="$3" 'BEGIN { d = a - b; if (d < 0) d = -d; m = b < 0 ? -b : b; exit !(d <= t + 1e-3 * m) }'; }

# Two small runs: few points, so that one can be hovered alone.
gen_run "$W/a" 300 1 0
gen_run "$W/b" 300 2 0.3
expect_rc 0 "$REPORT" "$W/a" "$W/b" -o "$W/rep"
grep -qiE '(^|[^a-z])(https?|wss?|ftp):|fetch\(|XMLHttpRequest|import\(' "$W/rep/plots/"*.js && fail "a URL or a request in the plot data or viewer"
nfig=$(grep -c '<figure data-plot=\|<figure class="wide" data-plot=' "$W/rep/index.html")
njs=$(ls "$W/rep/plots/"*.js | grep -vc viewer.js)
[ "$nfig" -ge 40 ] && [ "$nfig" = "$njs" ] || fail "$nfig live figures, $njs plot data files"
selftest "$W/rep"
grep -qx "LIVE $nfig of $nfig" "$W/st.txt" || fail "not every plot became live: $(grep LIVE "$W/st.txt")"
grep OVERLAP "$W/st.txt" >&2 && fail "labels overlap"
grep NOSVG "$W/st.txt" >&2 && fail "an SVG could not be inspected"
nsvg=$(grep -c '^SVG ' "$W/st.txt")
[ "$nsvg" = "$(ls "$W/rep/plots/"*.svg | wc -l)" ] || fail "$nsvg SVGs inspected"

# Hover: the readout names the row, and its values are that CSV row's.
line=$(grep '^HOVER m000-vs-LDist' "$W/st.txt")
row=$(echo "$line" | sed -n 's/.*expect-row \([0-9]*\) .*/\1/p')
[ -n "$row" ] && echo "$line" | grep -q ", row $row\$" || fail "hover: $line"
ldist=$(echo "$line" | sed -n 's/.*LDist (us) = \([-0-9.e]*\),.*/\1/p')
wake=$(echo "$line" | sed -n 's/.*WakeLatency (us) = \([-0-9.e]*\),.*/\1/p')
run=$(echo "$line" | sed -n 's/.*readout \([ab]\)[ :].*/\1/p')
csv=$(awk -F, -v r="$row" 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i } NR == r + 2 { print $c["LDist"], $c["WakeLatency"] }' "$W/$run/datapoints.csv")
between "$ldist" "${csv% *}" 0.1 && between "$wake" "${csv#* }" 0.01 ||
	fail "hover shows LDist $ldist, WakeLatency $wake; row $row of $run has $csv"
note "hover: $line"

# Toggle: run b's point is orange before, gone after, and not hovered.
grep -qx 'PIXEL-ON 213,94,0' "$W/st.txt" || fail "run b's point: $(grep PIXEL-ON "$W/st.txt")"
grep -q '^PIXEL-OFF 213,94,0' "$W/st.txt" && fail "run b still painted after it was toggled off"
grep -q '^HOVER-OFF b' "$W/st.txt" && fail "a hidden run's point is hovered"

# Zoom narrows both axes; pan keeps the width and moves right; reset restores.
read -r _ x0 x1 y0 y1 _ z0 z1 w0 w1 < <(grep '^ZOOM' "$W/st.txt")
awk -v a="$x0" -v b="$x1" -v c="$y0" -v d="$y1" -v e="$z0" -v f="$z1" -v g="$w0" -v h="$w1" \
	'BEGIN { exit !(e > a && f < b && g > c && h < d && (f - e) < 0.5 * (b - a)) }' ||
	fail "zoom: $(grep ZOOM "$W/st.txt")"
read -r _ p0 p1 _ _ _ q0 q1 _ _ < <(grep '^PAN' "$W/st.txt")
awk -v a="$p0" -v b="$p1" -v c="$q0" -v d="$q1" 'BEGIN { w = b - a; exit !(c > a && (d - c - w) ^ 2 < (1e-6 * w) ^ 2) }' ||
	fail "pan: $(grep PAN "$W/st.txt")"
[ "$(grep '^RESET' "$W/st.txt" | cut -d' ' -f2-)" = "$x0 $x1 $y0 $y1" ] || fail "reset: $(grep RESET "$W/st.txt")"
rm -f "$OUTDIR/interactive.png"
chrome --window-size=1400,2600 --screenshot="$OUTDIR/interactive.png" "file://$W/rep/index.html" >/dev/null 2>>"$W/chrome.log"
[ "$(stat -c %s "$OUTDIR/interactive.png")" -gt 100000 ] || fail "screenshot of the two runs: a blank page?"

# Eight configurations with long names: every legend entry inside the 1400 px window.
args=()
for i in 1 2 3 4 5 6 7 8; do
	gen_run "$W/c$i" 400 "$i" "0.$i" "configuration-number-$i-with-a-long-name"
	args+=("$W/c$i")
done
expect_rc 0 "$REPORT" "${args[@]}" -o "$W/eight"
selftest "$W/eight" '#nomouse'
[ "$(grep -c '^LEGEND' "$W/st.txt")" -ge 8 ] || fail "legend entries: $(grep -c '^LEGEND' "$W/st.txt")"
grep '^LEGEND' "$W/st.txt" | awk '$3 > $5 || $2 < 0 { print "FAIL: legend entry outside the window: " $0; bad = 1 } END { exit bad }' >&2 ||
	fail "the 8-run legend is clipped"
grep OVERLAP "$W/st.txt" >&2 && fail "labels overlap in the 8-run report"
rm -f "$OUTDIR/eight.png"
chrome --window-size=1400,1600 --screenshot="$OUTDIR/eight.png" "file://$W/eight/index.html" >/dev/null 2>>"$W/chrome.log"
echo "PASS (screenshots: $OUTDIR/interactive.png, $OUTDIR/eight.png)"
