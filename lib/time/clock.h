/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Clocks and time formatting for every program: the monotonic clock in ns, UTC timestamps
 * as info.json writes them, and the default name of a run directory.
 */
#ifndef IDLESCOPE_TIME_CLOCK_H
#define IDLESCOPE_TIME_CLOCK_H
#include <stddef.h>
#include <stdint.h>
#include <time.h>

#define NSEC_PER_USEC UINT64_C(1000)
#define NSEC_PER_MSEC UINT64_C(1000000)
#define NSEC_PER_SEC UINT64_C(1000000000)

/* CLOCK_MONOTONIC now, in ns. */
uint64_t isc_mono_ns(void);
/* ns -> struct timespec. */
struct timespec isc_ns_to_timespec(uint64_t ns);
/* ISO 8601 UTC of CLOCK_REALTIME now, e.g. "2026-11-22T08:00:00.123Z". */
void isc_iso_time(char *buf, size_t len);
/* UTC now as a part of a file name, "YYYYMMDD-HHMMSS". */
void isc_name_stamp(char *buf, size_t len);
/* "<host>-<what>-<YYYYMMDD-HHMMSS>" (UTC), as wult names its results. host: as given (a
 * checked -H name); NULL: this machine's hostname ("localhost" if it has none) with anything
 * but printable ASCII, '/' and ' ' made '_' (docs/collect.md). malloc'd. */
char *isc_run_name(const char *host, const char *what);
/* A duration for people: "1h02m03s", "4m05s", and under a minute "7s", or with tenths "7.3s"
 * (a summary's run time; a progress line's elapsed time and ETA use whole seconds). */
void isc_fmt_duration(char *buf, size_t len, double s, int tenths);

#endif
