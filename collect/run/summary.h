/* collect's end-of-run summary: what was kept and discarded, and the main latency. */
#ifndef COLLECT_SUMMARY_H
#define COLLECT_SUMMARY_H
#include <stdint.h>
#include <stdio.h>
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
	double duration_s;
	uint64_t ldist_min_ns;
};

/*
 * Print the summary to f: one line of counts, discards by reason with their share of the
 * attempts (kept + discarded), rate and duration; one line of min/med/99%/max of the main
 * latency (WakeLatency where the method gives it, else IntrLatency); and, when more than a
 * fifth of the attempts were discarded, a warning naming the main reason, its likely cause
 * and what to try. Lines start with "<prog>: ".
 */
void summary_print(FILE *f, const struct run_summary *s, const struct summary_facts *x);

#endif
