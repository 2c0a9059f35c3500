/* SPDX-License-Identifier: GPL-2.0-only */
/* collect's end-of-run summary: what was kept and discarded, and the main latency. */
#ifndef COLLECT_SUMMARY_H
#define COLLECT_SUMMARY_H
#include <stdint.h>
#include <stdio.h>
#include <cjson/cJSON.h>
#include "cpu_busy.h"
#include "method.h"

struct run_summary;

struct run_summary *summary_new(void);
void summary_free(struct run_summary *s);
/* Record a kept datapoint's WakeLatency (TAI - LTime) and IntrLatency (TIntr - LTime). */
void summary_add(struct run_summary *s, const struct dp_raw *dp);
/* The running median and 99th percentile of the main latency (as summary_print's), with
 * its name: 0, or -1 when there is no value yet. */
int summary_running(const struct run_summary *s, const char **name, double *med, double *p99);
/* Datapoints recorded so far. */
uint64_t summary_count(const struct run_summary *s);

/* What the summary says about a run besides the latencies. */
struct summary_facts {
	int cpu;
	int ncpus;                  /* CPUs online */
	uint64_t kept;              /* datapoints on disk */
	uint64_t discards[DISCARD_NR];
	uint64_t filtered;          /* measured, then dropped by --include/--exclude */
	double duration_s;
	uint64_t ldist_min_ns;
	bool idle_unchecked;        /* the method cannot tell per datapoint whether the CPU was idle */
	const char *idle_source;    /* then: why not (info.json idle_check.source) */
	const struct cpu_busy *busy; /* the CPU's busy share over the run; NULL when not known */
};

/* A discard share above this (%) gets a warning; above MOSTLY_DISCARDED_PCT, the one that says
 * what the kept datapoints can and cannot describe (info.json "mostly_discarded"). */
#define DISCARD_WARN_PCT 20.0
#define MOSTLY_DISCARDED_PCT 50.0

/*
 * The end-of-run warnings about what the datapoints mean, one line each without a prefix
 * (info.json "warnings"): more than DISCARD_WARN_PCT % of the attempts discarded (naming the
 * main reason, its likely cause and what to try; past MOSTLY_DISCARDED_PCT %, every reason and
 * what the kept datapoints can and cannot describe); and, for a method that cannot check each
 * datapoint, a CPU busy outside the measuring thread for CPU_BUSY_WARN_PCT % of the run or
 * more, or a busy share that could not be measured. A cJSON array of strings, maybe empty.
 */
cJSON *summary_warnings(const struct summary_facts *x);

/*
 * Print the summary to f: one line of counts, discards by reason with their share of the
 * attempts (kept + discarded), rate and duration; one line of min/med/99%/max of the main
 * latency (WakeLatency where the method gives it, else IntrLatency); then each of warnings
 * (summary_warnings) as "<prog>: warning: ...". Lines start with "<prog>: ".
 */
void summary_print(FILE *f, const struct run_summary *s, const struct summary_facts *x, const cJSON *warnings);

#endif
