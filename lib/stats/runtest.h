/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Inference that respects the unit of replication (docs/diff.md, "Runs, not datapoints"):
 *  - with replicate runs, Welch's t on per-run summaries (one number per run: its median,
 *    99th or 99.9th percentile), so run-to-run variation is the error term;
 *  - within one run, a non-overlapping block bootstrap of the median difference: blocks are
 *    contiguous stretches in collection order, so drift inside a run widens the interval.
 */
#ifndef IDLESCOPE_RUNTEST_H
#define IDLESCOPE_RUNTEST_H
#include <stddef.h>

/* Welch's two-sample t test of mean(b) - mean(a). */
struct isc_welch {
	double diff;       /* mean(b) - mean(a) */
	double se, df, t;  /* standard error, Welch-Satterthwaite df, t = diff / se */
	double p;          /* two-sided p-value */
	double lo, hi;     /* confidence interval of diff */
};

/* Needs na, nb >= 2 (else -1, out set to NaN). Zero spread in both samples: p = 1 and the CI
 * is [diff, diff] when diff == 0, else p = 0. level e.g. 0.95. */
int isc_welch_test(const double *a, size_t na, const double *b, size_t nb, double level,
		  struct isc_welch *out);

/* Block bootstrap: blocks per sample, replicates and the fixed seed (deterministic output). */
#define ISC_BOOT_BLOCKS 20
#define ISC_BOOT_REPS 499
#define ISC_BOOT_SEED 0x1d1e5c09eULL

/*
 * Percentile CI (level) of median(b) - median(a) by a non-overlapping block bootstrap
 * (Carlstein 1986; Kuensch 1989): each sample is cut into min(ISC_BOOT_BLOCKS, n) contiguous
 * blocks of its collection order; a replicate draws that many blocks with replacement per
 * sample and takes the median (order statistic ceil(N/2)) of their union. a_rows/b_rows are the
 * samples in collection order (they may be reordered: each block sorted); a_sorted/b_sorted the
 * same values sorted; tmp holds max(na, nb) doubles. Only a window of the sorted samples around
 * the median is sorted per block when every replicate's median falls inside it (the answer is
 * the same as from whole blocks). Returns -1 (NaN) when a sample has < 2
 * values.
 */
int isc_block_boot_median_ci(double *a_rows, const double *a_sorted, size_t na, double *b_rows,
			    const double *b_sorted, size_t nb, double level, double *tmp,
			    double *lo, double *hi);

#endif
