/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * wult's stats-collect interrupt statistics (stats/interrupts.raw.txt): snapshots of
 * /proc/interrupts, each after a line "timestamp: <seconds since the epoch>", runs of
 * blanks squeezed to one. Summarised as interrupt rates on the measured CPU, beside the
 * counter summary (counters_summary.h).
 */
#ifndef IDLESCOPE_INTERRUPTS_TEXT_H
#define IDLESCOPE_INTERRUPTS_TEXT_H
#include <cjson/cJSON.h>

/*
 * Read path and add to summary, for CPU cpu, the interrupts per second from the first to the
 * last complete snapshot: "Intr/s" (every per-CPU row), "LOC/s" (local timer), "RES/s"
 * (rescheduling), "CAL/s" (function call), "TLB/s" (TLB shootdowns) and "DevIRQ/s" (the
 * numbered rows: device interrupts). Counts are deltas of consecutive snapshots (a per-CPU
 * count that goes down by less than 2^32 wrapped: the kernel keeps them in 32 bits); a row
 * that appears later counts from its second snapshot. Returns 1 when it added the columns,
 * 0 when the file has fewer than two complete snapshots or no time between them, -1 after a
 * one-line error "path:line: field 'NAME': ..." for text that is not that format.
 */
int isc_interrupts_summary(const char *path, long cpu, cJSON *summary);

#endif
