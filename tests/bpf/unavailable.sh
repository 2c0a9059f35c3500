#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Built without eBPF support: --method bpf says why and what to use instead.
. "$(dirname "$0")/lib.sh"
"$COLLECT" --method bpf -c 10 -q -o "$TMP/run" >"$TMP/out" 2>"$TMP/err" && fail "collect --method bpf succeeded"
grep -q 'built without eBPF support.*use --method timer' "$TMP/err" || fail "unclear message: $(cat "$TMP/err")"
note "$(cat "$TMP/err")"
