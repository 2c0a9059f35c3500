/* SPDX-License-Identifier: GPL-2.0-only */
/* Internals shared by the counter sources and snapshots (lib/counters/sample/; not public). */
#ifndef LIB_COUNTERS_INTERNAL_H
#define LIB_COUNTERS_INTERNAL_H
#include <linux/perf_event.h>
#include "counters/sample/counters.h"

/* counters_probe.c: whether CPU c reads col (its scope; machine-wide sources once). */
bool cnt_col_reads(const struct cnt_col *col, const struct cnt_cpu *c);
/* counters_snapshot.c: a --add path with "%d" replaced by the CPU number. */
char *cnt_subst_cpu(const char *pattern, int cpu);

/* counters_perf.c */
int cnt_perf_attr(const struct cnt_sys *sys, const struct cnt_src *src, struct perf_event_attr *attr,
		  double *scale, char *why, size_t len);
int cnt_perf_open(const struct perf_event_attr *attr, int cpu);
const char *cnt_perf_desc(const struct cnt_src *src, char *buf, size_t len);

/* counters_procfs.c: /proc/interrupts and /proc/stat, parsed once per snapshot. */
struct cnt_procfs {
	/* /proc/interrupts */
	bool irq_ok;
	size_t irq_ncpus;
	int *irq_cpu;            /* CPU number of each column */
	uint64_t *irq_sum;       /* per column: every row with a full set of columns */
	uint64_t *irq_nmi, *irq_loc;
	bool have_nmi, have_loc;
	/* /proc/stat */
	bool stat_ok;
	size_t stat_ncpus;
	int *stat_cpu;
	uint64_t (*stat_vals)[8];
	size_t *stat_nvals;      /* fields present on that cpu line */
	bool have_ctxt;
	uint64_t ctxt;
};
void cnt_procfs_read(const struct cnt_sys *sys, struct cnt_procfs *p, bool want_irq, bool want_stat);
void cnt_procfs_free(struct cnt_procfs *p);
/* The value of an SRC_INTERRUPTS or SRC_PROCSTAT counter for cpu; false when absent. */
bool cnt_procfs_value(const struct cnt_procfs *p, const struct cnt_src *src, int cpu, uint64_t *v);

/* counters_snapshot.c: read col on CPU index ci; false with errno set (when the source sets it). */
bool cnt_read_one(const struct cnt_set *s, const struct cnt_procfs *pf, const struct cnt_col *col, size_t ci,
		  uint64_t *v);

/* counters_partial.c: counters that some of the CPUs that should read them cannot read. */
/* Why col failed on CPU index ci (col->fail_errno[ci] set), e.g. "no /dev/cpu/1/msr (...)". */
void cnt_unreadable_why(const struct cnt_set *s, const struct cnt_col *col, size_t ci, char *why, size_t len);
/* Note a failed read during a snapshot: the first one of a CPU is recorded and (unless quiet)
 * warned about. err: the read's errno. */
void cnt_note_unreadable(const struct cnt_set *s, struct cnt_col *col, size_t ci, int err);
/* Once per counter after probing: "NAME unreadable on CPU 1: reason" (unless quiet). */
void cnt_warn_partial(const struct cnt_set *s);

/* counters_cpuid.c: identity of the CPU and model facts. */
void cnt_cpu_identify(const struct cnt_sys *sys, char *vendor, size_t vlen, int *family, int *model);
/* cpuinfo flags constant_tsc and nonstop_tsc: one TSC rate on every CPU, in every state. */
bool cnt_tsc_invariant(const struct cnt_sys *sys);
/* Whether AnyThread counting works; *why says why not. */
bool cnt_anythread_supported(const struct cnt_sys *sys, const char *vendor, int family, int model,
			     const char **why);

#endif
