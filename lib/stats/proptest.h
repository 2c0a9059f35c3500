/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Comparing two proportions (a 0/1 column such as IntrOff: how many of the values are 1):
 * Fisher's exact test when a 2x2 table cell is expected below ISC_PROP_FISHER_MIN, else the
 * two-proportion z test (pooled variance). The counts are of independent trials; at run level
 * analyze diff compares the runs' shares instead (Welch's t, runtest.h), the run being the unit.
 */
#ifndef IDLESCOPE_PROPTEST_H
#define IDLESCOPE_PROPTEST_H
#include <stddef.h>

#define ISC_PROP_FISHER_MIN 5.0

struct isc_prop {
	double diff;          /* x2/n2 - x1/n1 */
	double p;             /* two-sided */
	const char *method;   /* "fisher-exact" or "two-proportion-z" (static text) */
};

/* x1 of n1 (the reference) against x2 of n2. Returns -1 (out set to NaN, method NULL) when a
 * sample is empty or a count exceeds its size. */
int isc_prop_test(size_t x1, size_t n1, size_t x2, size_t n2, struct isc_prop *out);
/* Fisher's exact test, two-sided: the probability (hypergeometric, margins fixed) of every
 * table no more likely than the observed one (relative tolerance 1e-7, as R's fisher.test). */
double isc_fisher_exact_p(size_t x1, size_t n1, size_t x2, size_t n2);
/* The two-proportion z test, two-sided, pooled standard error; 1 when both are all 0 or all 1. */
double isc_two_prop_z_p(size_t x1, size_t n1, size_t x2, size_t n2);

#endif
