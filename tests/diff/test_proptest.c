/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Two proportions (analyze diff's test of 0/1 flags such as IntrOff): exact values, and the
 * false-positive rate by simulation (fixed seed).
 *  - Values: Fisher's exact test and the two-proportion z test against values computed
 *    independently (Python: math.comb for the hypergeometric sums, math.erfc for z).
 *  - A/A, independent 0/1 datapoints (what the tests assume): at most 6% of 2000 pairs called
 *    different at p < 0.05, for small samples (Fisher) and large ones (z); and the power
 *    against 10% vs 20% with 400 each is at least 90%.
 *  - A/A, 3 vs 3 runs whose share varies from run to run (logit sd 0.5 around 10%): Welch's t
 *    on the runs' shares (analyze diff at run level) calls at most 7% significant; the same
 *    proportion test on the pooled datapoints (as if they were independent) calls far more.
 * The rates are printed (docs/diff.md quotes them).
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>

#include "stats/proptest.h"
#include "stats/runtest.h"
#include "../common/check.h"
#include "sim_rng.h"

#define PAIRS 2000

static size_t binomial(size_t n, double p)
{
	size_t x = 0;
	for (size_t i = 0; i < n; i++)
		x += uniform01() < p;
	return x;
}

static void values(void)
{
	struct isc_prop pr;
	CHECK_NEAR(isc_fisher_exact_p(1, 12, 9, 12), 0.002759456185220083, 1e-9);
	CHECK_NEAR(isc_fisher_exact_p(3, 20, 10, 20), 0.040742395024931176, 1e-9);
	CHECK_NEAR(isc_fisher_exact_p(1, 12, 8, 12), 0.00942253331538565, 1e-9);
	CHECK_NEAR(isc_fisher_exact_p(0, 5, 0, 7), 1, 1e-12);
	CHECK_NEAR(isc_two_prop_z_p(120, 1000, 150, 1000), 0.04964038686536881, 1e-9);
	CHECK_EQ_DBL(isc_two_prop_z_p(0, 10, 0, 20), 1);
	CHECK(isc_prop_test(1, 12, 8, 12, &pr) == 0);
	CHECK_STR(pr.method, "fisher-exact");
	CHECK_NEAR(pr.diff, 7.0 / 12, 1e-12);
	CHECK(isc_prop_test(120, 1000, 150, 1000, &pr) == 0);
	CHECK_STR(pr.method, "two-proportion-z");
	CHECK_NEAR(pr.p, 0.04964038686536881, 1e-9);
	CHECK(isc_prop_test(1, 0, 1, 3, &pr) == -1 && isnan(pr.p) && !pr.method);
	CHECK(isc_prop_test(4, 3, 1, 3, &pr) == -1);
}

/* Share of PAIRS independent pairs (p0 of n0 against p1 of n1) with p < 0.05. */
static double rejections(size_t n0, double p0, size_t n1, double p1, size_t *fisher)
{
	size_t hits = 0;
	*fisher = 0;
	for (int i = 0; i < PAIRS; i++) {
		struct isc_prop pr;
		CHECK(isc_prop_test(binomial(n0, p0), n0, binomial(n1, p1), n1, &pr) == 0);
		hits += pr.p < 0.05;
		*fisher += pr.method[0] == 'f';
	}
	return (double)hits / PAIRS;
}

static void aa_independent(void)
{
	static const struct { size_t n; double p; } cases[] = {
		{ 12, 0.1 }, { 30, 0.05 }, { 100, 0.1 }, { 1000, 0.3 }, { 5000, 0.01 },
	};
	printf("A/A, independent datapoints, %d pairs each, called different at p < 0.05:\n", PAIRS);
	for (size_t c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
		size_t fisher;
		double rate = rejections(cases[c].n, cases[c].p, cases[c].n, cases[c].p, &fisher);
		printf("  n = %zu, share %.2f: %.1f%% (Fisher's exact test in %zu of them)\n", cases[c].n,
		       cases[c].p, 100 * rate, fisher);
		CHECK(rate <= 0.06);
	}
	size_t fisher;
	double power = rejections(400, 0.1, 400, 0.2, &fisher);
	printf("  power, 400 at 10%% against 400 at 20%%: %.1f%%\n", 100 * power);
	CHECK(power >= 0.9);
}

static void aa_run_effect(void)
{
	size_t welch = 0, pooled = 0;
	for (int e = 0; e < PAIRS; e++) {
		double share[6];
		size_t set[2] = { 0, 0 };
		for (int r = 0; r < 6; r++) {  /* 1000 datapoints per run, its own share */
			double p = 1 / (1 + exp(-(log(0.1 / 0.9) + 0.5 * normal())));
			size_t x = binomial(1000, p);
			share[r] = (double)x / 1000;
			set[r >= 3] += x;
		}
		struct isc_welch w;
		struct isc_prop pr;
		CHECK(isc_welch_test(share, 3, share + 3, 3, 0.95, &w) == 0);
		CHECK(isc_prop_test(set[0], 3000, set[1], 3000, &pr) == 0);
		welch += w.p < 0.05;
		pooled += pr.p < 0.05;
	}
	printf("A/A 3 vs 3 runs of 1000, run share around 10%% (logit sd 0.5), %d experiments:\n"
	       "  significant (Welch t on the runs' shares): %.1f%%\n"
	       "  proportion test on the pooled datapoints: %.1f%%\n",
	       PAIRS, 100.0 * welch / PAIRS, 100.0 * pooled / PAIRS);
	CHECK(welch <= 0.07 * PAIRS);
	CHECK(pooled >= 0.5 * PAIRS);
}

int main(void)
{
	sim_seed(0x9e3779b97f4a7c15ULL);
	values();
	aa_independent();
	aa_run_effect();
	return CHECK_DONE();
}
