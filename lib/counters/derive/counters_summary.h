/* A run's counter summary, for analyze diff and report (implemented with analyze counters). */
#ifndef IDLESCOPE_COUNTERS_SUMMARY_H
#define IDLESCOPE_COUNTERS_SUMMARY_H
#include <cjson/cJSON.h>

/*
 * Summarise <rundir>/counters.csv over the whole run (first to last snapshot), system-wide:
 * returns 1 and sets *summary to an object {"Busy%": .., "Halted%": .., "Avg_MHz": ..,
 * "Bzy_MHz": .., "CPU%c1": .., "CPU%c6": .., "Pkg%pc6": .., "PkgWatt": .., ...} holding only
 * the columns this run can derive, in turbostat's order; event counts (IRQ, NMI, SMI, idle
 * state entries, --add deltas) as rates named "<name>/s", so that runs of different lengths
 * compare; without counters.csv, a wult result's stats/turbostat.raw.txt summarised as
 * turbostat_text.h says; 0 when the run has neither;
 * -1 after printing a one-line error for a malformed file.
 * A second object *series (may be NULL) gets {"t": [...], "Busy%": [...], ...}: the summary
 * columns per interval, for plotting.
 */
int isc_counters_summary(const char *rundir, cJSON **summary, cJSON **series);

#endif
