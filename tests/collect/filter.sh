#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# collect --include/--exclude (wult start's): every kept datapoint satisfies the filter, the
# dropped ones are counted as "filtered" in the summary and info.json, a filter that keeps
# nothing ends the run instead of hanging, and bad expressions are usage errors. The run has
# the info.yml wult's reader needs; when wult is found, 'wult calc' counts the same rows.
. "$(dirname "$0")/lib.sh"
command -v jq >/dev/null || fail "jq not installed (scripts/deps/collect.txt)"

run="$TMP/inc"
retry_busy "$COLLECT" --method timer -c 300 --cpu "$CPU" -l 1000,4000 --seed 3 -o "$run" \
	--include "LDist > 2500" --exclude "WakeLatency >= 150" 2>"$TMP/sum" || fail "collect --include failed"
cat "$TMP/sum" >&2
i="$run/info.json"
jq_true "$i" '.datapoints == 300 and .complete == true' "300 datapoints kept"
jq_true "$i" '.filter == {"include": "LDist > 2500", "exclude": "WakeLatency >= 150"}' "the filter recorded"
jq_true "$i" '(.discards | keys) == ["filtered","lost","not_idle","other_wake","wrong_cpu"]' "filtered is a discard reason"
# LDist is uniform on [1000, 4000] us: about half of the measured datapoints are below 2500
# (the 300 kept ones are at least 150 of them at 5 sigma: 300 * 0.5 - 5 * sqrt(600 * 0.25)).
jq_true "$i" '.discards.filtered >= 240' "about half filtered out"
n=$(jq .discards.filtered "$i")
grep -q "filtered $n (" "$TMP/sum" || fail "the summary does not count the $n filtered datapoints"
bad=$(awk -F, 'NR > 1 && ($1 <= 2500 || ($3 != "" && $3 >= 150))' "$run/datapoints.csv" | head -3)
[ -z "$bad" ] || fail "kept rows the filter drops: $bad"
[ "$("$ANALYZE" stats -G -F csv -f count -m '^LDist$' -i 'LDist > 2500' "$run" | tail -1 | cut -d, -f6)" = 300 ] ||
	fail "analyze sees other rows"

# Without a filter, no "filtered" key (the discards of an unfiltered run are as before).
retry_busy "$COLLECT" --method timer -c 20 --cpu "$CPU" -q -o "$TMP/plain" || fail "plain collect failed"
jq_true "$TMP/plain/info.json" '(.discards | has("filtered") | not) and (has("filter") | not)' "no filter keys"

# The index is the row the datapoint gets: --exclude "index >= 5" keeps 5, then starves.
expect_fail 1 "no datapoint kept in 10 s: the last [0-9]+ were all dropped by --include/--exclude" \
	"$COLLECT" --method timer -c 50 --cpu "$CPU" -l 50us,100us -q --no-counters -o "$TMP/starve" --exclude "index >= 5"
jq_true "$TMP/starve/info.json" '.datapoints == 5 and .complete == false and .stop_reason == "nothing_kept"' \
	"a starved filter stops the run, with what was kept"

expect_fail 2 "^collect: --include: unknown column 'Foo'" "$COLLECT" --cpu "$CPU" -o "$TMP/x" --include "Foo > 1"
expect_fail 2 "^collect: --exclude: column 'ReqCState' is text" "$COLLECT" --cpu "$CPU" -o "$TMP/x" --exclude "ReqCState > 3"
expect_fail 2 "^collect: --include: " "$COLLECT" --cpu "$CPU" -o "$TMP/x" --include "LDist >"
expect_fail 2 "unknown option '--report' \\(long options are never abbreviated" "$COLLECT" --report -c 10 -o "$TMP/x"
[ ! -e "$TMP/x" ] || fail "a refused command made its output directory"

# wult's reader: info.yml beside info.json (timer leaves IntrLatency and IntrOff empty,
# which wult refuses as "too few values": leave them out as a wult user would).
grep -q '^toolname: "wult"$' "$run/info.yml" || fail "no info.yml for wult"
if w=$("$(dirname "$0")/../../bench/peer_wult.sh" find 2>/dev/null); then
	"$w" calc --exclude-metrics 'IntrLatency,IntrOff' "$run" > "$TMP/calc" 2>&1 || fail "wult calc: $(tail -2 "$TMP/calc")"
	grep -q "^Datapoints count: 300$" "$TMP/calc" || fail "wult calc counts other rows"
	note "wult calc read the filtered run (300 datapoints)"
else
	note "wult not found: info.yml checked by its toolname only here (tests/analyze/wult_both_ways.sh checks it all)"
fi
