#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Without gnuplot in PATH: one line saying what to install, exit 1, nothing written.
REPORT=$1 DATA=$2
. "$(dirname "$0")/lib.sh"
set -e
expect_rc 1 env PATH=/nonexistent "$REPORT" "$DATA/wult-good" -o "$W/out"
expect_err "report: gnuplot not found in PATH: install it with 'apt-get install gnuplot-nox'"
[ ! -e "$W/out" ] || fail "output directory created without gnuplot"
ls -A "$W" | grep -q '^\.' && fail "temporary directory left: $(ls -A "$W")"
echo PASS
