/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The design check of inputs (lib/diff/diff_design.c), by simulation with fixed seeds:
 * LDist drawn uniformly, as the collector draws it. A/A (both configurations keep the same
 * mix) must almost never be flagged; a selection that drops part of the short LDists must be;
 * a SilentTime a few microseconds shorter (a deeper state's entry) must not be.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "diff/diff_design.h"
#include "stats/sigtest.h"
#include "sim_rng.h"

static int fails;

/* n values uniform on [10, 4000], those below keep_below dropped with probability drop,
 * shifted by shift; sorted. */
static size_t draw(double *v, double *tmp, size_t n, double keep_below, double drop, double shift)
{
	size_t k = 0;
	while (k < n) {
		double x = 10 + 3990 * uniform01();
		if (x < keep_below && uniform01() < drop)
			continue;
		v[k++] = x + shift;
	}
	isc_sort_doubles(v, n, tmp);
	return n;
}

/* How many of `trials` pairs are flagged. */
static int flagged(size_t n, int trials, double keep_below, double drop, double shift)
{
	double *a = malloc(n * sizeof(double)), *b = malloc(n * sizeof(double));
	double *tmp = malloc(n * sizeof(double));
	int hits = 0;
	for (int t = 0; t < trials; t++) {
		draw(a, tmp, n, 0, 0, 0);
		draw(b, tmp, n, keep_below, drop, shift);
		hits += isc_design_ks_d(a, n, b, n) > isc_design_d_limit(n, n);
	}
	free(a);
	free(b);
	free(tmp);
	return hits;
}

static void expect(const char *what, int hits, int trials, int lo, int hi)
{
	printf("%s: %d / %d flagged\n", what, hits, trials);
	if (hits < lo || hits > hi) {
		printf("FAIL: %s: %d not in [%d, %d]\n", what, hits, lo, hi);
		fails++;
	}
}

int main(void)
{
	static const size_t sizes[] = { 30, 100, 1000, 10000 };
	/* exact D on known samples: {1,2,3} vs {2,3,4}: F differ by 1/3 at 1 and at 3 */
	double x[] = { 1, 2, 3 }, y[] = { 2, 3, 4 }, z[] = { 1, 1, 2 };
	if (fabs(isc_design_ks_d(x, 3, y, 3) - 1.0 / 3) > 1e-15 || isc_design_ks_d(x, 3, x, 3) != 0 ||
	    fabs(isc_design_ks_d(x, 3, z, 3) - 1.0 / 3) > 1e-15 || isc_design_ks_d(x, 0, y, 3) != 0) {
		printf("FAIL: KS D of small samples\n");
		fails++;
	}
	sim_seed(24);
	for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		char what[64];
		snprintf(what, sizeof(what), "A/A, %zu vs %zu", sizes[i], sizes[i]);
		expect(what, flagged(sizes[i], 1000, 0, 0, 0), 1000, 0, 5);
	}
	/* 40% of the LDists below 1000 us dropped: the share below 1000 falls from 0.248 to
	 * 0.149 / 0.901 = 0.165, D = 0.083 (limit 0.050 at 3000 values, 0.087 at 1000) */
	expect("40% of LDist < 1000 dropped, 3000 vs 3000", flagged(3000, 500, 1000, 0.4, 0), 500,
	       475, 500);
	expect("40% of LDist < 1000 dropped, 1000 vs 1000", flagged(1000, 500, 1000, 0.4, 0), 500,
	       150, 350);
	/* 70% dropped, as in diff_inputs.sh: 0.248 -> 0.090, D = 0.158 (limit 0.087) */
	expect("70% of LDist < 1000 dropped, 1000 vs 1000", flagged(1000, 500, 1000, 0.7, 0), 500,
	       490, 500);
	/* SilentTime 3 us shorter over a 4 ms range, 100000 values each: physics, not design */
	expect("shift by 3 us, 100000 vs 100000", flagged(100000, 20, 0, 0, -3), 20, 0, 0);
	if (!fails)
		printf("design check: all checks passed\n");
	return fails != 0;
}
