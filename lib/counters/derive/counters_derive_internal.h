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

#endif
