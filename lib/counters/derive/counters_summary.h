/* SPDX-License-Identifier: GPL-2.0-only */
/* A run's counter summary, for analyze diff and report (implemented with analyze counters). */
#ifndef IDLESCOPE_COUNTERS_SUMMARY_H
#define IDLESCOPE_COUNTERS_SUMMARY_H
#include <cjson/cJSON.h>

#include "counters/derive/counters_derive.h"
#include "run/run.h"

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

/* The measured CPU of a run: info.json's "cpu" (else wult's info.yml "cpu" or "cpunum"); -1. */
long isc_counters_measured_cpu(const char *rundir);

/*
 * The same summary over the whole run for one CPU (the measured one): its own row of
 * `analyze counters --whole` (a core or package counter shows only on the CPU that read it),
 * event counts per second. 1 and *summary; 0 when cpu < 0, there is no counters.csv or it has
 * no row of cpu; -1 after printing an error.
 */
int isc_counters_summary_cpu(const char *rundir, long cpu, cJSON **summary);

/* The impossible readings of <rundir>/counters.csv (counters_derive.h), per kind, over its
 * intervals: 1, 0 without counters.csv (out zeroed), -1 after a one-line error. */
int isc_counters_checks(const char *rundir, struct cnt_check out[CNT_NCHECKS]);
/* Over the runs, one line per kind found in any of them, naming the runs and the worst case
 * ("implausible counters in 2 of 6 runs with counters (a-1, b-2); the worst, in b-2: ..."):
 * so an experiment gets one line per kind, not one per run. *out gets malloc'd lines. */
size_t isc_counters_check_lines(struct isc_run **runs, size_t n, char ***out);

#endif