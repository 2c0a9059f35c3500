/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A metric's datapoints in percentile bands, broken down by what else ran on the measured CPU
 * in each datapoint's window (the cause columns, docs/format.md): analyze stats --causes,
 * analyze diff --causes and the report's cause section.
 *
 * For a metric M and cut percentiles P1 < P2 < ...: Tk = Pk% of M's values (the interpolation
 * of --funcs); band 0 holds the values at or below T1, band k those above Tk and at or below
 * Tk+1. The clean datapoints are those with every count column the run has (IRQCnt, SWIRQCnt,
 * NMICnt, SMICnt, and StealTime, the steal clock's advance) known and 0, and C their median
 * of M. Per band and cause: the datapoints with it and the sum of M - C over them. The causes
 * overlap (a window can hold an IRQ and a softirq); "none" does not overlap the others. An
 * empty count cell is not known, never 0: a datapoint whose class its empty cells leave open
 * is in the class "not known", neither "none" nor clean. The partition (ISC_PART_*) puts each
 * datapoint in exactly one class, for stacked bars and the exclusive-class rows.
 */
#ifndef IDLESCOPE_CAUSES_H
#define IDLESCOPE_CAUSES_H
#include <stdbool.h>
#include <math.h>
#include <stddef.h>

#include "table/table.h"

#define ISC_CAUSES_MAX 64
#define ISC_CAUSES_MAX_BANDS 8
#define ISC_CAUSE_NCOUNT 5
/* How many ranks either side of a cut count as near it: sqrt(n) / 2, at least 10 (wider
 * windows bias the share near the cut where it changes fast: the simulation's false-positive
 * rate rose from 5.4% to 6.7% at 2 sqrt(n)). */
#define ISC_CAUSES_NEAR(n) ((size_t)fmax(10, sqrt((double)(n)) / 2))

/* The columns the breakdown reads, NULL-terminated (loaded whatever --metrics says). */
extern const char *const isc_cause_columns[];

/* Exclusive classes, by precedence: an NMI or SMI; else an IRQ and a softirq; an IRQ only;
 * a softirq only; steal time only (only in tables with StealTime); nothing seen; not known
 * (an empty count cell where the precedence needs it). Steal and not known are last in the
 * enum so that the other classes keep their numbers (the report's data-part). */
enum { ISC_PART_NMI_SMI, ISC_PART_IRQ_SOFTIRQ, ISC_PART_IRQ, ISC_PART_SOFTIRQ, ISC_PART_NONE,
       ISC_PART_STEAL, ISC_PART_UNKNOWN, ISC_NPARTS };
extern const char *const isc_part_names[ISC_NPARTS];

/* The count columns, in the order of isc_cause_cols.cnt, and their cause families. */
enum { ISC_CNT_IRQ, ISC_CNT_SOFTIRQ, ISC_CNT_NMI, ISC_CNT_SMI, ISC_CNT_STEAL };
extern const char *const isc_cause_count_cols[];
extern const char *const isc_cause_families[];

struct isc_cause_cols {
	const struct isc_column *cnt[ISC_CAUSE_NCOUNT];  /* IRQCnt, SWIRQCnt, NMICnt, SMICnt, StealTime */
	const struct isc_column *top, *types;            /* IRQTop, SWIRQTypes */
};

struct isc_cause {
	char name[48];       /* "IRQ", "  IRQ LOC", "softirq", "  softirq NET_RX", "NMI", "SMI", "steal",
	                      * "none" */
	size_t n[ISC_CAUSES_MAX_BANDS];       /* datapoints with it, per band */
	double excess[ISC_CAUSES_MAX_BANDS];  /* sum of M - C over them */
	size_t near[ISC_CAUSES_MAX_BANDS - 1]; /* with it among the datapoints near each cut */
};

struct isc_causes {
	struct isc_cause c[ISC_CAUSES_MAX];   /* in output order (isc_causes_compute sorts) */
	size_t nc;
	size_t nbands;                        /* ncuts + 1 */
	double pct[ISC_CAUSES_MAX_BANDS - 1]; /* the cut percentiles */
	double thr[ISC_CAUSES_MAX_BANDS - 1]; /* their values of M; NaN without values */
	size_t band[ISC_CAUSES_MAX_BANDS];    /* datapoints per band */
	size_t part[ISC_CAUSES_MAX_BANDS][ISC_NPARTS];
	/* the datapoints near each cut: values within ISC_CAUSES_NEAR(n) ranks of it either side */
	size_t nnear[ISC_CAUSES_MAX_BANDS - 1];
	double near_lo[ISC_CAUSES_MAX_BANDS - 1], near_hi[ISC_CAUSES_MAX_BANDS - 1];
	double part_excess[ISC_CAUSES_MAX_BANDS][ISC_NPARTS]; /* sum of M - C per class */
	double clean_med;                     /* NaN without clean datapoints */
	size_t nclean;
	bool steal;                           /* a table had StealTime: the steal share and class */
	unsigned measured;                    /* bit k: every table had count column k */
};

/* The table's cause columns (text columns where numbers are expected count as absent);
 * false when it has no count column. */
bool isc_cause_cols_find(const struct isc_table *t, struct isc_cause_cols *cols);

/*
 * The breakdown of metric over the tables t[0..nt) pooled (each with its cause columns; a
 * table without the metric or without count columns adds nothing), at ncuts ascending cut
 * percentiles in (0, 100), ncuts < ISC_CAUSES_MAX_BANDS. Distinct IRQ sources and softirq
 * types beyond ISC_CAUSES_MAX entries are counted in their family only.
 */
void isc_causes_compute(const struct isc_table *const *t, size_t nt, const char *metric,
			const double *cuts, size_t ncuts, struct isc_causes *out);
/* A cause name's place in the output order: IRQ, "  IRQ SRC", softirq, "  softirq TYPE", NMI,
 * SMI, none (0..6). */
int isc_cause_family_rank(const char *name);
/* The count column (ISC_CNT_*) a cause or class name needs ("IRQ", "  IRQ LOC", "steal only",
 * ...), or -1 for "none", "not known" and the classes of several columns. */
int isc_cause_column_of(const char *name);
/* The families of the count columns in measured (a bit set), "IRQ, softirq, NMI or SMI". */
void isc_causes_family_list(unsigned measured, char *buf, size_t size);
/* The entry named name (with or without its indent), or NULL. */
const struct isc_cause *isc_causes_find(const struct isc_causes *cs, const char *name);

/*
 * Whether the share of datapoints with a cause in a band changed between a reference and
 * another configuration. With two or more runs on both sides (level "run"): Welch's t on the
 * runs' shares, each run's band taken at its own cut (the run is the unit of replication);
 * else (level "datapoint"): the two-proportion test of the pooled counts (Fisher's exact test
 * when an expected cell is below 5, else the z test). p is two-sided; NaN when untestable.
 * The z test ("band-share-z") uses the variance of a share of a band cut at an estimated
 * percentile, not the binomial one: with n datapoints, a band of k = w n of them, the cause's
 * share s of the band and its share r among the datapoints near the cut,
 * Var(s) = (s (1 - s) + (1 - w) (s - r)^2) / k (the cut moves with the sample: a cause that
 * lifts datapoints over the cut makes the count vary more than a binomial; from the Bahadur
 * representation of the sample quantile); s, r and w of both sides pooled (no difference).
 * The plain binomial variance gave 8.6% false positives at 5%, this one 4.3-6.2%
 * (tests/diff/test_causes_sim.c).
 */
struct isc_cause_change {
	double diff;          /* share in the other minus share in the reference, 0..1 */
	double p;
	const char *method;   /* "welch-t-run-shares", "fisher-exact", "band-share-z" or NULL */
};

/* ref_runs/oth_runs: each run's breakdown (the same metric and cuts); ref/oth: the pooled
 * ones. name: the cause (as in isc_cause.name); band: its index. */
void isc_cause_change(const struct isc_causes *ref, const struct isc_causes *const *ref_runs,
		      size_t nref, const struct isc_causes *oth, const struct isc_causes *const *oth_runs,
		      size_t noth, const char *name, size_t band, struct isc_cause_change *out);

#endif
