/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Two-sample significance tests and a confidence interval for the difference of medians.
 * Every function takes two samples sorted ascending, without NaN: a (the reference) and
 * b (the run compared with it). Directions are "b against a": U counts pairs where b is
 * larger, the CI is for median(b) - median(a).
 */
#ifndef IDLESCOPE_SIGTEST_H
#define IDLESCOPE_SIGTEST_H
#include <stdbool.h>
#include <stddef.h>

/* Samples with both sizes below this and no ties get the exact Mann-Whitney distribution;
 * samples with ties get it when min(na, nb) * (na + nb) is at most ISC_MW_EXACT_TIES_MAX. */
#define ISC_MW_EXACT_MAX 50
#define ISC_MW_EXACT_TIES_MAX 5000
/* Two-sample KS p-values are exact (no ties assumed) when na * nb is at most this. */
#define ISC_KS_EXACT_MAX_CELLS 10000

/* Mann-Whitney U test (Wilcoxon rank-sum), two-sided. */
struct isc_mw {
	double u;      /* pairs (a_i, b_j) with b_j > a_i, ties counting 1/2 */
	double z;      /* normal approximation's z (with continuity correction); 0 if exact */
	double p;      /* two-sided p-value; 1 when every value is tied */
	bool exact;    /* p from the exact (permutation) distribution: small samples */
};

/*
 * Mann-Whitney U of b against a. Ranks come from one merge of the sorted samples (O(na+nb)).
 * p: exact when na, nb < ISC_MW_EXACT_MAX and there are no ties (two-sided: twice the smaller
 * tail, at most 1); with ties, exact when min(na, nb) * (na + nb) <= ISC_MW_EXACT_TIES_MAX
 * (the permutation distribution of the midrank sum, isc_mw_exact_ties_p); else the normal
 * approximation with tie correction of the variance and a continuity correction of 1/2.
 * Returns -1 when a sample is empty (out untouched).
 */
int isc_mann_whitney(const double *a, size_t na, const double *b, size_t nb, struct isc_mw *out);

/* Exact two-sided p of U = u for samples of sizes na, nb without ties (any sizes; cost
 * O(na * nb * (na * nb / 2)) - meant for small samples). */
double isc_mw_exact_p(size_t na, size_t nb, double u);

/* Exact two-sided p of Mann-Whitney with ties, from sorted samples: the share of the
 * C(na + nb, min(na, nb)) equally likely splits of the pooled values whose midrank sum is at
 * least as far from its mean as the observed one (as exactRankTests and coin compute it).
 * Cost about 2 m^2 (na + nb)^2 with m = min(na, nb). */
double isc_mw_exact_ties_p(const double *a, size_t na, const double *b, size_t nb);

/* Two-sample Kolmogorov-Smirnov test. */
struct isc_ks {
	double d;      /* sup |F_a(x) - F_b(x)| over all x */
	double p;      /* two-sided p-value */
	bool exact;    /* p exact (lattice path count, ties ignored) rather than asymptotic */
};

/*
 * KS D from one merge of the sorted samples; p exact when na * nb <= ISC_KS_EXACT_MAX_CELLS
 * (probability that a random path through the na x nb lattice leaves the band |i/na - j/nb|
 * < D; with ties this is conservative), else the asymptotic Kolmogorov distribution
 * Q_KS(lambda) with lambda = (sqrt(ne) + 0.12 + 0.11 / sqrt(ne)) * D, ne = na nb / (na + nb)
 * (Stephens 1970). Returns -1 when a sample is empty.
 */
int isc_ks_test(const double *a, size_t na, const double *b, size_t nb, struct isc_ks *out);

/* Both tests from a single merge of the samples (what analyze diff uses). */
int isc_two_sample_tests(const double *a, size_t na, const double *b, size_t nb,
			struct isc_mw *mw, struct isc_ks *ks);

/* Kolmogorov's survival function Q_KS(lambda) = 2 sum_{j>=1} (-1)^(j-1) exp(-2 j^2 lambda^2). */
double isc_kolmogorov_q(double lambda);

/* Exact P(D >= d) for samples of sizes na, nb without ties. */
double isc_ks_exact_p(size_t na, size_t nb, double d);

/*
 * Confidence interval (level, e.g. 0.95) for median(b) - median(a) by Price and Bonett
 * (2002): each median's standard error from a distribution-free order-statistic interval,
 *   c = round((n + 1) / 2 - sqrt(n)) (at least 1),
 *   se = (Y(n-c+1) - Y(c)) / (2 z_c),  z_c = Phi^-1(1 - P(Binomial(n, 1/2) <= c - 1)),
 * then diff +- z_{(1+level)/2} sqrt(se_a^2 + se_b^2). Medians interpolate like `med`.
 * O(1) on sorted data. Returns -1 (lo = hi = NaN) when a sample has fewer than 2 values.
 */
int isc_median_diff_ci(const double *a, size_t na, const double *b, size_t nb, double level,
		      double *lo, double *hi);

/* Sort a[0..n) ascending (radix sort: of v * 1000 as 32-bit integers when every value has at
 * most three decimals, else of the IEEE bit patterns; tmp holds n doubles).
 * No NaN allowed; -0.0 and +0.0 are equal and keep their sign, in either order. */
void isc_sort_doubles(double *a, size_t n, double *tmp);

#endif
