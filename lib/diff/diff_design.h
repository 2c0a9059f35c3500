/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The design check of analyze diff and report: inputs (col_roles.h: LDist, SilentTime) get no
 * verdict, but the configurations must have been measured under the same design, and the
 * same share of attempts must have been kept; where not, a confounder line says so.
 */
#ifndef IDLESCOPE_DIFF_DESIGN_H
#define IDLESCOPE_DIFF_DESIGN_H
#include <stddef.h>

#include "diff/diff.h"

/* An input's kept values differ between two configurations when the two-sample
 * Kolmogorov-Smirnov D exceeds both the asymptotic critical value at alpha = 0.001
 * (1.949 * sqrt((na + nb) / (na * nb))) and ISC_DESIGN_D_MIN: a shift of less than 5% of the
 * datapoints (SilentTime a few us shorter in a deeper state) is physics, not design. */
#define ISC_DESIGN_KS_C 1.949
#define ISC_DESIGN_D_MIN 0.05
/* Discard shares (isc_discard_share) further apart than this (0.1 = 10 percentage points). */
#define ISC_CONFOUND_DISCARD_POINTS 0.10

/* The KS statistic D of two sorted samples without NaN (0 when one is empty). */
double isc_design_ks_d(const double *a, size_t na, const double *b, size_t nb);
/* The D above which the inputs differ, for samples of na and nb values. */
double isc_design_d_limit(size_t na, size_t nb);

/* Append to (*v, *n) one malloc'd line per input whose kept values differ from the
 * reference's: "design differs: LDist of the kept datapoints: ...". Inputs are the runs'
 * columns that col_roles.h calls inputs, but the raw timestamps. */
void isc_diff_design_warnings(const struct isc_diff *d, char ***v, size_t *n);
/* Append the biased runs ("biased run: RUN: ...", discards.h) and the configurations whose
 * discard share is more than ISC_CONFOUND_DISCARD_POINTS from the reference's. */
void isc_diff_discard_warnings(const struct isc_diff *d, char ***v, size_t *n);

#endif
