#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Strings from runs (reportid, info fields, column names, idle state names) are shown as
# text: no markup of theirs reaches the page or the plots.
REPORT=$1
. "$(dirname "$0")/lib.sh"
set -e
mkdir "$W/evil"
cat >"$W/evil/info.json" <<'JSON'
{"toolname": "idlescope", "reportid": "<script>alert(1)</script>",
 "method": "<img src=x onerror=alert(2)>", "system": {"hostname": "h\"><b>bold</b>"}}
JSON
{
	echo "WakeLatency,LDist,SilentTime,X<i>y</i>,ReqCState"
	for i in 1 2 3 4 5 6 7 8 9 10; do
		echo "$i.5,$((i * 100)),$((i * 90)),$i,<b>C$((i % 2))</b>"
	done
} >"$W/evil/datapoints.csv"
cp -r "$W/evil" "$W/evil2"
sed -i 's/alert(1)/alert(3)/' "$W/evil2/info.json"

expect_rc 0 "$REPORT" "$W/evil" "$W/evil2" -o "$W/rep" --metrics 'WakeLatency|X' \
	--title "<u>title</u>"
page=$W/rep/index.html
grep -q '&lt;script&gt;alert(1)&lt;/script&gt;' "$page" || fail "reportid not shown escaped"
grep -q '&lt;img src=x onerror=alert(2)&gt;' "$page" || fail "method not shown escaped"
grep -q 'X&lt;i&gt;y&lt;/i&gt;' "$page" || fail "column name not shown escaped"
grep -q '&lt;b&gt;C1&lt;/b&gt;' "$page" || fail "idle state name not shown escaped"
grep -q '&lt;u&gt;title&lt;/u&gt;' "$page" || fail "title not shown escaped"
for bad in '<script' '<img src=x' '<i>' '<b>' '<u>' '"><b>'; do
	# the one script the page has is the viewer of the plots, in the report
	grep -vxF '<script src="plots/viewer.js"></script>' "$page" | grep -qF -- "$bad" &&
		fail "raw markup '$bad' in index.html"
done
for f in "$W"/rep/plots/*.svg; do
	grep -qE '<script|<i>|<b>|onerror' "$f" && fail "markup in $f"
done
echo PASS
