/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The block bootstrap's median CI (isc_block_boot_median_ci) against a naive one written from
 * its definition: per replicate the union of the drawn blocks is built and sorted, its
 * ceil(N/2)-th value taken. Samples large enough for the window around the median (4096+):
 * iid noise (every replicate inside the window), drift within the run (blocks far apart: some
 * replicates outside, redone on whole blocks), heavy ties, and NaN-free integers.
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "stats/runtest.h"
#include "stats/sigtest.h"
#include "stats/stats.h"
#include "text/util.h"
#include "../common/check.h"
#include "sim_rng.h"

static uint64_t splitmix(uint64_t *s)  /* the generator the bootstrap documents using */
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ULL);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static int cmp(const void *x, const void *y)
{
	double a = *(const double *)x, b = *(const double *)y;
	return (a > b) - (a < b);
}

/* One replicate's median of x[0..n): draws k blocks with replacement, sorts their union. */
static double naive_median(const double *x, size_t n, uint64_t *seed, double *u)
{
	size_t k = n < ISC_BOOT_BLOCKS ? n : ISC_BOOT_BLOCKS, m = 0;
	for (size_t d = 0; d < k; d++) {
		size_t j = splitmix(seed) % k, from = j * n / k, to = (j + 1) * n / k;
		memcpy(u + m, x + from, (to - from) * sizeof(double));
		m += to - from;
	}
	qsort(u, m, sizeof(double), cmp);
	return u[(m + 1) / 2 - 1];
}

static void naive_ci(const double *a, size_t na, const double *b, size_t nb, double *lo, double *hi)
{
	uint64_t seed = ISC_BOOT_SEED;
	double diffs[ISC_BOOT_REPS];
	double *u = isc_xmalloc(2 * (na > nb ? na : nb) * sizeof(double));
	for (size_t i = 0; i < ISC_BOOT_REPS; i++) {
		double ma = naive_median(a, na, &seed, u);
		diffs[i] = naive_median(b, nb, &seed, u) - ma;
	}
	free(u);
	qsort(diffs, ISC_BOOT_REPS, sizeof(double), cmp);
	*lo = isc_quantile_sorted(diffs, ISC_BOOT_REPS, (1 - 0.95) / 2);  /* as the library spells it */
	*hi = isc_quantile_sorted(diffs, ISC_BOOT_REPS, 1 - (1 - 0.95) / 2);
}

/* kind 0: iid; 1: drift (a ramp over the run); 2: ties (10 values); 3: mostly one value */
static void fill(double *x, size_t n, int kind, double shift)
{
	for (size_t i = 0; i < n; i++) {
		double e = uniform01();
		x[i] = kind == 0 ? shift + e
		     : kind == 1 ? shift + 10.0 * (double)i / (double)n + e
		     : kind == 2 ? shift + floor(e * 10)
		     : shift + (e < 0.7 ? 0 : e);
	}
}

static void compare(size_t na, size_t nb, int kind)
{
	double *a = isc_xmalloc(na * sizeof(double)), *b = isc_xmalloc(nb * sizeof(double));
	double *as = isc_xmalloc(na * sizeof(double)), *bs = isc_xmalloc(nb * sizeof(double));
	size_t nt = na > nb ? na : nb;
	double *tmp = isc_xmalloc(nt * sizeof(double));
	double lo, hi, nlo, nhi;
	fill(a, na, kind, 0);
	fill(b, nb, kind, 0.25);
	naive_ci(a, na, b, nb, &nlo, &nhi);
	memcpy(as, a, na * sizeof(double));
	memcpy(bs, b, nb * sizeof(double));
	isc_sort_doubles(as, na, tmp);
	isc_sort_doubles(bs, nb, tmp);
	CHECK(isc_block_boot_median_ci(a, as, na, b, bs, nb, 0.95, tmp, &lo, &hi) == 0);
	CHECK_EQ_DBL(lo, nlo);
	CHECK_EQ_DBL(hi, nhi);
	CHECK(nlo < nhi || kind >= 2);
	free(a);
	free(b);
	free(as);
	free(bs);
	free(tmp);
}

int main(void)
{
	sim_seed(0x9e3779b97f4a7c15ULL);
	for (int kind = 0; kind < 4; kind++) {
		compare(20000, 20000, kind);
		compare(4096, 50001, kind);
		compare(30011, 5000, kind);
	}
	compare(100, 3000, 0);   /* below the window's minimum: whole blocks */
	return CHECK_DONE();
}
