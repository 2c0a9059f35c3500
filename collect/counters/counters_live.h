/* SPDX-License-Identifier: GPL-2.0-only */
/* collect --counters: each interval's numbers printed as they are measured (turbostat style). */
#ifndef COLLECT_COUNTERS_LIVE_H
#define COLLECT_COUNTERS_LIVE_H
#include <stdbool.h>
#include <stdio.h>

struct live_opts {
	const char *show, *hide;   /* comma-separated column names, as analyze counters */
	bool per_cpu;              /* --cpus-live: a row per CPU too */
};

/*
 * After each snapshot: derive the newest interval of <rundir>/counters.csv with analyze
 * counters' formulas (lib/counters/derive/counters_derive.c) and print its summary row (and, with per_cpu,
 * a row per CPU) to out under analyze counters' column names. The heading is printed before
 * the first row and then every 20 intervals (every interval with per_cpu). Returns 0, or -1
 * after a message when the file cannot be read back.
 */
int counters_live_print(FILE *out, const char *rundir, const struct live_opts *o, long interval_no);

#endif
