/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * turbostat's text output (what wult's stats-collect keeps as stats/turbostat.raw.txt), read
 * into the same summary as counters.csv gives (counters_summary.h), so that wult results
 * with turbostat data compare and report like idlescope runs with counters.
 */
#ifndef IDLESCOPE_TURBOSTAT_TEXT_H
#define IDLESCOPE_TURBOSTAT_TEXT_H
#include <cjson/cJSON.h>

/*
 * Read path (turbostat tables: a heading line with Avg_MHz, Busy% and Bzy_MHz, then the
 * all-CPU summary row, then one row per CPU; repeated per interval) and summarise the
 * summary rows over the whole run: percentages, MHz, IPC and Watts averaged over the
 * intervals, temperatures as their maximum, and the event counts (IRQ, SMI, NMI, idle state
 * entries such as POLL, C1, C1E, C6) as "<name>/s" rates when the tables carry
 * Time_Of_Day_Seconds (else left out). *series (may be NULL) gets {"t": [...], COL: [...]}
 * per interval when the times are known, else NULL.
 * Returns 1, or -1 after "path:line: ..." for text that is not turbostat's.
 */
int isc_turbostat_summary(const char *path, cJSON **summary, cJSON **series);

#endif
