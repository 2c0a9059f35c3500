/* SPDX-License-Identifier: GPL-2.0-only */
/* Internals shared by the counter formulas (counters_delta.c, counters_derive.c ...). */
#ifndef LIB_COUNTERS_DERIVE_INTERNAL_H
#define LIB_COUNTERS_DERIVE_INTERNAL_H
#include "counters/derive/counters_derive.h"

/* One CPU's deltas over an interval (raw-kind columns: the last value). */
struct cnt_cpu_delta {
	int cpu, core, package;
	double dt;            /* seconds */
	double *own;          /* per counter column: read on this CPU, else NaN */
	double *all;          /* own, or the core's/package's value read on another CPU; system
			       * counters: the machine's, summed over the CPUs that read them */
	bool gone;            /* not in every snapshot of the interval */
	size_t nsteps;        /* snapshot steps measured (bad steps are left out) */
};

/* The row of cpu in snapshot s, or SIZE_MAX: row i of it first (rows usually keep their
 * order), else a binary search in d->by_cpu. */
size_t cnt_row_of(const struct cnt_data *d, size_t s, double cpu, size_t i);

/* counters_u64.c: the cells that read as 2^64 checked against their text (at most 2^64 - 1);
 * -1 after "file:line: field 'NAME': ..." for one above it. */
int cnt_check_u64_top(const struct cnt_data *d);

/* Mark d->bad_step, with a warning for each of the first few. */
void cnt_check_steps(struct cnt_data *d);

/* Deltas of every CPU of snapshot s0 that is in every snapshot up to s1 (s0 < s1). */
struct cnt_cpu_delta *cnt_deltas(const struct cnt_data *d, size_t s0, size_t s1, size_t *ncpus);
void cnt_deltas_free(struct cnt_cpu_delta *cd, size_t n);

/* Evaluate metric m with counter values vals (per column) and interval dt. */
double cnt_metric_eval(const struct cnt_metric *m, const double *vals, double dt);

/* What the plausibility checks need of one CPU over one interval (counters_checks.c). */
struct cnt_row_facts {
	int cpu;
	size_t iv;            /* the interval, from 1 */
	double dt;            /* seconds */
	double aperf, mperf, tsc;  /* deltas; NaN when not read */
	double os_busy;       /* % of the interval the OS ran code on it, steal left out; NaN */
	double busy;          /* Busy% before clamping; NaN */
	double c1;            /* CPU%c1 from CORE_C1_RES; NaN when it is the remainder or absent */
	double cn;            /* CPU%c3 + c6 + c7 read on this CPU; NaN when none */
	double bzy_mhz, avg_mhz;
};

/* Check one CPU interval, adding what is impossible in it to r->checks. */
void cnt_check_row(struct cnt_result *r, const struct cnt_row_facts *f);

#endif
