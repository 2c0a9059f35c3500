#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Outside --sysroot a device path must be a character device (issue 23, item 14): a regular
# file left at /dev/cpu/N/msr (any script can, on a machine without the msr module) is not read
# as the MSR device (it gave Busy% 0.00, Halted% 100.00 beside OS_Busy% 54.90), and one at
# /dev/cpu_dma_latency is not recorded as the PM QoS limit. In a private mount namespace, so
# the real /dev is never touched. Root.
set -u
. "$(dirname "$0")/../common/test-lib.sh"
COLLECT=$1
[ "$(id -u)" = 0 ] || skip "needs root (a private mount namespace)"
command -v unshare >/dev/null && command -v jq >/dev/null || skip "unshare or jq missing"
test_tmpdir T
printf '\0\0\0\0' >"$T/qos"
# MSR files as a fixture holds them (MSR a at byte 8a): APERF 0xE8 and MPERF 0xE7 never move
perl -e 'print "\0" x (8 * 0x700)' >"$T/msr"
unshare -m sh -c '
	mount --make-rprivate / && mount -t tmpfs tmpfs /dev/cpu || exit 99
	for n in 0 1; do mkdir -p /dev/cpu/$n && cp "$2/msr" /dev/cpu/$n/msr; done
	mount --bind "$2/qos" /dev/cpu_dma_latency || exit 99
	[ -f /dev/cpu/0/msr ] || exit 99
	"$1" --counters -i 0.2 -n 2 --cpu 0 -o "$2/run" 2>"$2/err"
' sh "$COLLECT" "$T"
rc=$?
[ $rc = 99 ] && skip "cannot mount over /dev/cpu here"
[ $rc = 0 ] || { cat "$T/err"; fail "collect --counters: exit $rc"; }
head -1 "$T/run/counters.csv" | tr ',' '\n' | grep -Eqx 'APERF|MPERF' &&
	fail "a regular file at /dev/cpu/0/msr was read as the MSR device: $(head -1 "$T/run/counters.csv")"
if [ -e /sys/bus/event_source/devices/msr/events/aperf ]; then
	note "this machine's msr PMU has aperf; checking the MSR reason only when it is named"
fi
grep -q "/dev/cpu/0/msr (No such device)" "$T/err" || grep -q "msr PMU" "$T/err" || { cat "$T/err"; fail "no reason naming /dev/cpu/0/msr"; }
jq -e '[.. | objects | select(has("cpu_dma_latency_us"))] | all(.cpu_dma_latency_us == null)' "$T/run/info.json" >/dev/null ||
	fail "a regular file at /dev/cpu_dma_latency was recorded as the PM QoS limit"
note "ok: $(grep -o 'APERF, MPERF unavailable: [^;]*; [^)]*)' "$T/err")"
