/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Two-sample tests against values computed independently here: brute-force U over all pairs,
 * average ranks, exact null distributions by enumerating every split of the pooled sample,
 * KS D over every point, Kolmogorov's series summed to convergence, and a published
 * Price-Bonett interval.
 */
#include <gsl/gsl_cdf.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>

#include "stats/sigtest.h"
#include "../common/check.h"

static int cmp_dbl(const void *x, const void *y)
{
	double a = *(const double *)x, b = *(const double *)y;
	return (a > b) - (a < b);
}

static void sort(double *a, size_t n)
{
	qsort(a, n, sizeof(*a), cmp_dbl);
}

static uint64_t rng = 88172645463325252ULL;
static double uniform(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return (double)(rng >> 11) / 9007199254740992.0;
}

static double brute_u(const double *a, size_t na, const double *b, size_t nb)
{
	double u = 0;
	for (size_t i = 0; i < na; i++)
		for (size_t j = 0; j < nb; j++)
			u += b[j] > a[i] ? 1 : b[j] == a[i] ? 0.5 : 0;
	return u;
}

/* Normal-approximation p from average ranks of the pooled sample, tie-corrected variance,
 * continuity correction 1/2 (R's wilcox.test(correct = TRUE), exact = FALSE). */
static double brute_normal_p(const double *a, size_t na, const double *b, size_t nb)
{
	size_t n = na + nb;
	double rb = 0, ties = 0;
	for (size_t j = 0; j < nb; j++) {
		double less = 0, eq = 0;
		for (size_t i = 0; i < na; i++)
			less += a[i] < b[j], eq += a[i] == b[j];
		for (size_t k = 0; k < nb; k++)
			less += b[k] < b[j], eq += b[k] == b[j];
		rb += less + (eq + 1) / 2;  /* average rank */
	}
	for (size_t k = 0; k < n; k++) {  /* each value counts its block once per member */
		double v = k < na ? a[k] : b[k - na], t = 0;
		for (size_t m = 0; m < n; m++)
			t += (m < na ? a[m] : b[m - na]) == v;
		ties += (t * t * t - t) / t;
	}
	double u = rb - (double)nb * (double)(nb + 1) / 2, mu = (double)na * (double)nb / 2;
	double var = (double)na * (double)nb / 12 * ((double)(n + 1) - ties / ((double)n * (double)(n - 1)));
	double z = u - mu;
	z = (z - (z > 0 ? 0.5 : z < 0 ? -0.5 : 0)) / sqrt(var);
	return fmin(1, erfc(fabs(z) / sqrt(2)));
}

/* Every way to choose which na of the pooled ranks 0..n-1 belong to a. */
static double enum_mw_p(size_t na, size_t nb, double u_obs)
{
	size_t n = na + nb;
	double lower = 0, upper = 0, total = 0;
	for (uint32_t mask = 0; mask < (1u << n); mask++) {
		if ((size_t)__builtin_popcount(mask) != na)
			continue;
		double u = 0;  /* b members beating a members */
		for (size_t x = 0; x < n; x++)
			for (size_t y = 0; y < n; y++)
				u += ((mask >> x) & 1) && !((mask >> y) & 1) && y > x;
		total++;
		lower += u <= u_obs;
		upper += u >= u_obs;
	}
	return fmin(1, 2 * fmin(lower, upper) / total);
}

static double enum_ks_p(size_t na, size_t nb, double d_obs)
{
	size_t n = na + nb;
	double hit = 0, total = 0;
	for (uint32_t mask = 0; mask < (1u << n); mask++) {
		if ((size_t)__builtin_popcount(mask) != na)
			continue;
		double i = 0, j = 0, d = 0;
		for (size_t x = 0; x < n; x++) {
			if ((mask >> x) & 1)
				i++;
			else
				j++;
			d = fmax(d, fabs(i / (double)na - j / (double)nb));
		}
		total++;
		hit += d >= d_obs - 1e-12;
	}
	return hit / total;
}

static double brute_ks_d(const double *a, size_t na, const double *b, size_t nb)
{
	double d = 0;
	for (size_t k = 0; k < na + nb; k++) {
		double x = k < na ? a[k] : b[k - na], fa = 0, fb = 0;
		for (size_t i = 0; i < na; i++)
			fa += a[i] <= x;
		for (size_t j = 0; j < nb; j++)
			fb += b[j] <= x;
		d = fmax(d, fabs(fa / (double)na - fb / (double)nb));
	}
	return d;
}

static void test_hand_cases(void)
{
	double a[] = { 1, 2, 3 }, b[] = { 4, 5, 6 };
	struct isc_mw mw;
	struct isc_ks ks;
	CHECK(isc_mann_whitney(a, 3, b, 3, &mw) == 0);
	CHECK_EQ_DBL(mw.u, 9);
	CHECK(mw.exact);
	CHECK_NEAR(mw.p, 0.1, 1e-12);  /* 2 of the 20 splits are this extreme */
	CHECK(isc_ks_test(a, 3, b, 3, &ks) == 0);
	CHECK_EQ_DBL(ks.d, 1);
	CHECK(ks.exact);
	CHECK_NEAR(ks.p, 0.1, 1e-12);

	/* Interleaved: U = 4.5 of 9, D = 1/3 */
	double c[] = { 1, 3, 5 }, e[] = { 2, 4, 6 };
	CHECK(isc_mann_whitney(c, 3, e, 3, &mw) == 0);
	CHECK_EQ_DBL(mw.u, 6);
	CHECK(isc_ks_test(c, 3, e, 3, &ks) == 0);
	CHECK_NEAR(ks.d, 1.0 / 3, 1e-15);
	CHECK_NEAR(ks.p, 1, 1e-12);

	/* Every value tied: no evidence */
	double t1[] = { 7, 7, 7 }, t2[] = { 7, 7 };
	CHECK(isc_mann_whitney(t1, 3, t2, 2, &mw) == 0);
	CHECK_EQ_DBL(mw.u, 3);
	CHECK_EQ_DBL(mw.p, 1);
	CHECK(mw.exact);  /* small with ties: the permutation distribution, one split value */

	/* n = 1 each */
	double one[] = { 1 }, two[] = { 2 };
	CHECK(isc_mann_whitney(one, 1, two, 1, &mw) == 0);
	CHECK_EQ_DBL(mw.u, 1);
	CHECK_EQ_DBL(mw.p, 1);
	CHECK(isc_ks_test(one, 1, two, 1, &ks) == 0);
	CHECK_EQ_DBL(ks.d, 1);
	CHECK_EQ_DBL(ks.p, 1);
	double lo, hi;
	CHECK(isc_median_diff_ci(one, 1, two, 1, 0.95, &lo, &hi) == -1);
	CHECK(isnan(lo) && isnan(hi));

	/* empty samples are refused */
	CHECK(isc_mann_whitney(one, 0, two, 1, &mw) == -1);
	CHECK(isc_ks_test(one, 1, two, 0, &ks) == -1);
}

/* Random small samples from a few values (many ties): U, D and the normal p by brute force. */
static void test_random_ties(void)
{
	for (int iter = 0; iter < 300; iter++) {
		size_t na = 1 + (size_t)(uniform() * 60), nb = 1 + (size_t)(uniform() * 60);
		double a[64], b[64];
		int levels = 1 + (int)(uniform() * 8);
		for (size_t i = 0; i < na; i++)
			a[i] = (double)(int)(uniform() * levels);
		for (size_t j = 0; j < nb; j++)
			b[j] = (double)(int)(uniform() * levels) + (iter % 3 == 0 ? 0.5 : 0);
		sort(a, na);
		sort(b, nb);
		struct isc_mw mw;
		struct isc_ks ks;
		CHECK(isc_mann_whitney(a, na, b, nb, &mw) == 0);
		CHECK_EQ_DBL(mw.u, brute_u(a, na, b, nb));
		if (!mw.exact && na + nb > 2)
			CHECK_NEAR(mw.p, brute_normal_p(a, na, b, nb), 1e-9);
		CHECK(isc_ks_test(a, na, b, nb, &ks) == 0);
		CHECK_NEAR(ks.d, brute_ks_d(a, na, b, nb), 1e-14);
		struct isc_mw mw2;
		struct isc_ks ks2;
		CHECK(isc_two_sample_tests(a, na, b, nb, &mw2, &ks2) == 0);
		CHECK_EQ_DBL(mw2.p, mw.p);
		CHECK_EQ_DBL(ks2.p, ks.p);
	}
}

/* Mann-Whitney with ties: every split of the pooled values, midranks counted here. */
static double enum_mw_ties_p(const double *a, size_t na, const double *b, size_t nb)
{
	size_t n = na + nb;
	double v[32], rank[32], w_obs = 0, hit = 0, total = 0, mean = (double)na * (double)(n + 1) / 2;
	for (size_t i = 0; i < n; i++)
		v[i] = i < na ? a[i] : b[i - na];
	for (size_t i = 0; i < n; i++) {
		double less = 0, same = 0;
		for (size_t k = 0; k < n; k++) {
			less += v[k] < v[i];
			same += v[k] == v[i];
		}
		rank[i] = less + (same + 1) / 2;
		w_obs += i < na ? rank[i] : 0;
	}
	for (uint32_t mask = 0; mask < (1u << n); mask++) {
		if ((size_t)__builtin_popcount(mask) != na)
			continue;
		double w = 0;
		for (size_t i = 0; i < n; i++)
			w += (mask >> i) & 1 ? rank[i] : 0;
		total++;
		hit += fabs(w - mean) >= fabs(w_obs - mean) - 1e-9;
	}
	return hit / total;
}

static void test_exact_ties(void)
{
	for (int iter = 0; iter < 200; iter++) {
		size_t na = 1 + (size_t)(uniform() * 8), nb = 1 + (size_t)(uniform() * 9);
		double a[16], b[16];
		int levels = 2 + (int)(uniform() * 4);
		for (size_t i = 0; i < na; i++)
			a[i] = (double)(int)(uniform() * levels);
		for (size_t j = 0; j < nb; j++)
			b[j] = (double)(int)(uniform() * levels) + (iter % 4 == 0);
		sort(a, na);
		sort(b, nb);
		struct isc_mw mw;
		CHECK(isc_mann_whitney(a, na, b, nb, &mw) == 0);
		CHECK(mw.exact);
		CHECK_NEAR(mw.p, enum_mw_ties_p(a, na, b, nb), 1e-12);
	}
	/* 200 values against 9 with heavy ties (the normal approximation said p = 4e-47) */
	double big[200], few[9];
	for (size_t i = 0; i < 200; i++)
		big[i] = i < 150 ? 0 : 1;
	for (size_t j = 0; j < 9; j++)
		few[j] = 1;
	struct isc_mw mw;
	CHECK(isc_mann_whitney(big, 200, few, 9, &mw) == 0);
	CHECK(mw.exact);
	/* all 9 picks among the 59 ones (the only more extreme split): C(59, 9) / C(209, 9) */
	double want = 1;
	for (int k = 0; k < 9; k++)
		want *= (59.0 - k) / (209.0 - k);
	CHECK_NEAR(mw.p / want, 1, 1e-9);
}

/* Exact null distributions against enumeration of every split. */
static void test_exact_enumeration(void)
{
	static const size_t sizes[][2] = { { 1, 1 }, { 1, 5 }, { 2, 3 }, { 4, 4 }, { 3, 7 },
					   { 5, 6 }, { 6, 6 }, { 8, 5 } };
	for (size_t s = 0; s < sizeof(sizes) / sizeof(sizes[0]); s++) {
		size_t na = sizes[s][0], nb = sizes[s][1];
		for (double u = 0; u <= (double)(na * nb); u++)
			CHECK_NEAR(isc_mw_exact_p(na, nb, u), enum_mw_p(na, nb, u), 1e-12);
		for (size_t k = 1; k <= na * nb; k++) {
			double d = (double)k / (double)(na * nb);
			CHECK_NEAR(isc_ks_exact_p(na, nb, d), enum_ks_p(na, nb, d), 1e-12);
		}
	}
	/* through the test itself: continuous random samples take the exact path */
	double a[6], b[7];
	for (size_t i = 0; i < 6; i++)
		a[i] = uniform();
	for (size_t j = 0; j < 7; j++)
		b[j] = uniform() + 0.3;
	sort(a, 6);
	sort(b, 7);
	struct isc_mw mw;
	struct isc_ks ks;
	isc_two_sample_tests(a, 6, b, 7, &mw, &ks);
	CHECK(mw.exact && ks.exact);
	CHECK_NEAR(mw.p, enum_mw_p(6, 7, brute_u(a, 6, b, 7)), 1e-12);
	CHECK_NEAR(ks.p, enum_ks_p(6, 7, brute_ks_d(a, 6, b, 7)), 1e-12);
}

/* Kolmogorov's Q by its alternating series with many terms (converges for lambda >= 0.2). */
static void test_kolmogorov(void)
{
	for (double lambda = 0.25; lambda < 4; lambda += 0.05) {
		double sum = 0;
		for (int k = 1; k < 2000; k++)
			sum += (k % 2 ? 2 : -2) * exp(-2.0 * k * k * lambda * lambda);
		CHECK_NEAR(isc_kolmogorov_q(lambda), fmin(1, sum), 1e-10);
	}
	CHECK_NEAR(isc_kolmogorov_q(1.3580986), 0.05, 1e-5);  /* the textbook 5% point */
	CHECK_EQ_DBL(isc_kolmogorov_q(0), 1);
	CHECK_EQ_DBL(isc_kolmogorov_q(0.05), 1);
}

/*
 * Bonett and Price's example (statpsych::ci.median2, alpha = .05):
 * y1 - y2: -8.5, SE 4.316291, CI [-16.95977, -0.04022524]; the second data set gives
 * -8.85, SE 4.494993, CI [-17.66002, -0.0399751].
 */
static void test_median_ci_published(void)
{
	double y1[] = { 32, 39, 26, 35, 43, 27, 40, 37, 34, 29 };
	double y2[] = { 36, 44, 47, 42, 49, 39, 46, 31, 33, 48 };
	double z1[] = { 32.1, 39.8, 26.3, 35.0, 43.1, 27.0, 40.9, 37.4, 34.0, 29.2 };
	double z2[] = { 36.8, 44.0, 47.1, 42.7, 49.0, 39.6, 46.2, 31.6, 33.1, 48.4 };
	double lo, hi;
	sort(y1, 10), sort(y2, 10), sort(z1, 10), sort(z2, 10);
	CHECK(isc_median_diff_ci(y2, 10, y1, 10, 0.95, &lo, &hi) == 0);  /* median(y1) - median(y2) */
	CHECK_NEAR(lo, -16.95977, 1e-6);
	CHECK_NEAR(hi, -0.04022524, 1e-5);
	CHECK(isc_median_diff_ci(z2, 10, z1, 10, 0.95, &lo, &hi) == 0);
	CHECK_NEAR(lo, -17.66002, 1e-6);
	CHECK_NEAR(hi, -0.0399751, 1e-5);
	/* the same data times 1e200 and 1e-200 (their standard errors squared overflow and
	 * underflow): the same interval, scaled */
	for (int e = -1; e <= 1; e += 2) {
		double s = e > 0 ? 1e200 : 1e-200, a[10], b[10];
		for (int i = 0; i < 10; i++)
			a[i] = y2[i] * s, b[i] = y1[i] * s;
		CHECK(isc_median_diff_ci(a, 10, b, 10, 0.95, &lo, &hi) == 0);
		CHECK_NEAR(lo, -16.95977 * s, 1e-6);
		CHECK_NEAR(hi, -0.04022524 * s, 1e-5);
	}
}

/* Big samples: identical ones show nothing, a shift is found and lies inside the CI. */
static void test_identical_and_shifted(void)
{
	size_t n = 20000;
	double *a = malloc(n * sizeof(double)), *b = malloc(n * sizeof(double));
	double *c = malloc(n * sizeof(double));
	for (size_t i = 0; i < n; i++) {
		a[i] = 4 - log(1 - uniform()) * 1.2;
		b[i] = a[i];
		c[i] = 4.3 - log(1 - uniform()) * 1.2;
	}
	sort(a, n), sort(b, n), sort(c, n);
	struct isc_mw mw;
	struct isc_ks ks;
	double lo, hi;
	isc_two_sample_tests(a, n, b, n, &mw, &ks);
	CHECK_NEAR(mw.p, 1, 1e-12);
	CHECK_EQ_DBL(ks.d, 0);
	CHECK_EQ_DBL(ks.p, 1);
	CHECK(isc_median_diff_ci(a, n, b, n, 0.95, &lo, &hi) == 0);
	CHECK(lo < 0 && hi > 0 && fabs(lo + hi) < 1e-12);
	isc_two_sample_tests(a, n, c, n, &mw, &ks);
	CHECK(mw.p < 1e-30 && !mw.exact && !ks.exact && ks.p < 1e-20);
	CHECK(mw.u > (double)n * (double)n / 2);
	CHECK(isc_median_diff_ci(a, n, c, n, 0.95, &lo, &hi) == 0);
	CHECK(lo > 0.2 && hi < 0.4 && hi - lo < 0.06);  /* one draw; coverage is tested below */
	free(a), free(b), free(c);
}

/*
 * Calibration by simulation (fixed seed): the 95% CI must hold the true shift of 0.3 in about
 * 95% of draws, and Mann-Whitney must reject 5% of draws from one distribution.
 */
static void test_calibration(void)
{
	size_t n = 300, reps = 1000, cover = 0, reject = 0;
	double *a = malloc(n * sizeof(double)), *b = malloc(n * sizeof(double));
	double *c = malloc(n * sizeof(double)), *tmp = malloc(n * sizeof(double));
	for (size_t r = 0; r < reps; r++) {
		for (size_t i = 0; i < n; i++) {
			a[i] = 4 - log(1 - uniform()) * 1.2;
			b[i] = 4 - log(1 - uniform()) * 1.2;
			c[i] = 4.3 - log(1 - uniform()) * 1.2;
		}
		isc_sort_doubles(a, n, tmp), isc_sort_doubles(b, n, tmp), isc_sort_doubles(c, n, tmp);
		double lo, hi;
		struct isc_mw mw;
		isc_median_diff_ci(a, n, c, n, 0.95, &lo, &hi);
		cover += lo <= 0.3 && hi >= 0.3;
		isc_mann_whitney(a, n, b, n, &mw);
		reject += mw.p < 0.05;
	}
	CHECK(cover >= 930 && cover <= 985);
	CHECK(reject >= 30 && reject <= 70);
	free(a), free(b), free(c), free(tmp);
}

/* Value shapes for every path of the sort: clustered values with a far outlier, huge evenly
 * spaced timestamps, heavy ties (counting sort), three-decimal values of both signs over a wide
 * range (32-bit radix), residency-like two-decimal values, -0.0 among decimals (must not turn
 * into +0.0), a constant. */
static double shaped(int kind, size_t i)
{
	switch (kind) {
	case 0: return i % 1000 == 0 ? 1e300 : 1 + uniform() * 1e-9;
	case 1: return 1e15 + (double)((i * 7919) % 100003) * 1000;
	case 2: return (double)(int)(uniform() * 5) / 4;
	case 3: return (double)((long)(uniform() * 8e6) - 4000000) / 1000;
	case 4: return (double)(long)(uniform() * 10000) / 100;
	case 5: return i % 3 ? -0.0 : (double)(long)(uniform() * 100) / 10;
	default: return 3.25;
	}
}

static void test_sort_shapes(void)
{
	size_t n = 200000;
	double *a = malloc(n * sizeof(double)), *b = malloc(n * sizeof(double));
	double *tmp = malloc(n * sizeof(double));
	for (int kind = 0; kind < 7; kind++) {
		for (size_t i = 0; i < n; i++)
			a[i] = b[i] = shaped(kind, i);
		isc_sort_doubles(a, n, tmp);
		sort(b, n);
		size_t bad = 0, zeros = 0, negzeros = 0;
		for (size_t i = 0; i < n; i++) {
			bad += a[i] != b[i];
			zeros += b[i] == 0;
			negzeros += a[i] == 0 && signbit(a[i]);
		}
		for (size_t i = 1; i < n; i++)
			bad += a[i - 1] > a[i];
		CHECK(bad == 0);
		if (kind == 5)  /* every -0.0 kept as -0.0 */
			CHECK(negzeros == n - n / 3 - (n % 3 != 0) && zeros >= negzeros);
	}
	free(a), free(b), free(tmp);
}

static void test_sort(void)
{
	static const size_t sizes[] = { 0, 1, 2, 255, 256, 1000, 100000 };
	for (size_t s = 0; s < sizeof(sizes) / sizeof(sizes[0]); s++) {
		size_t n = sizes[s];
		double *a = malloc((n + 1) * sizeof(double)), *b = malloc((n + 1) * sizeof(double));
		double *tmp = malloc((n + 1) * sizeof(double));
		for (size_t i = 0; i < n; i++) {
			double u = uniform();
			a[i] = i % 11 == 0 ? -0.0 : i % 13 == 0 ? 5e-324 : i % 17 == 0 ? -1e300
			       : (u - 0.3) * pow(10, (int)(uniform() * 40) - 20);
			b[i] = a[i];
		}
		isc_sort_doubles(a, n, tmp);
		sort(b, n);
		for (size_t i = 0; i < n; i++)
			CHECK(a[i] == b[i]);
		for (size_t i = 1; i < n; i++)
			CHECK(a[i - 1] <= a[i]);
		free(a), free(b), free(tmp);
	}
}

int main(void)
{
	test_hand_cases();
	test_random_ties();
	test_exact_ties();
	test_exact_enumeration();
	test_kolmogorov();
	test_median_ci_published();
	test_identical_and_shifted();
	test_calibration();
	test_sort();
	test_sort_shapes();
	return CHECK_DONE();
}
