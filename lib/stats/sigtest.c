/* SPDX-License-Identifier: GPL-2.0-only */
/* Two-sample tests on sorted samples: Mann-Whitney U, Kolmogorov-Smirnov, median-difference CI. */
#include "stats/sigtest.h"

#include <gsl/gsl_cdf.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "stats/stats.h"
#include "text/util.h"

/* What one merge of the sorted samples yields: U, the tie term and KS's largest gap. */
struct scan {
	double u;          /* pairs with b > a, ties 1/2 */
	double tie_sum;    /* sum of t^3 - t over tie blocks of the pooled sample */
	uint64_t gap;      /* max |i nb - j na| after whole tie blocks: D = gap / (na nb) */
};

/*
 * One merge of the sorted samples. Values that only one sample holds at that point are taken
 * one at a time without branches on the data (KS's gap can be checked at every step then: inside
 * a run of one sample's values it moves monotonically, so its extremes are at the run's ends);
 * a value both samples hold is taken as a whole tie block. Pooled ties are counted by runs.
 */
static void scan(const double *a, size_t na, const double *b, size_t nb, struct scan *s)
{
	size_t i = 0, j = 0;
	uint64_t u2 = 0, gap = 0, run = 0;  /* u2 = 2 U, exact */
	double prev = NAN, tie_sum = 0;
	while (i < na && j < nb) {
		double x = a[i], y = b[j];
		if (x == y) {  /* a value in both samples: the whole block at once */
			size_t i0 = i, j0 = j;
			while (i < na && a[i] == x)
				i++;
			while (j < nb && b[j] == x)
				j++;
			double t = (double)(i - i0 + j - j0), r = (double)run;
			tie_sum += r * r * r - r + t * t * t - t;
			run = 0;
			prev = NAN;
			u2 += (uint64_t)(j - j0) * (2 * i0 + (i - i0));
		} else {
			bool take_a = x < y;
			double v = take_a ? x : y;
			if (v == prev) {
				run++;
			} else {
				double r = (double)run;
				tie_sum += r * r * r - r;
				run = 1;
				prev = v;
			}
			u2 += take_a ? 0 : 2 * (uint64_t)i;
			i += take_a;
			j += !take_a;
		}
		uint64_t x1 = (uint64_t)i * nb, y1 = (uint64_t)j * na, g = x1 > y1 ? x1 - y1 : y1 - x1;
		gap = g > gap ? g : gap;
	}
	u2 += 2 * (uint64_t)na * (nb - j);  /* b's values above every a */
	/* the rest of one sample: only its ties are left to count (the gap shrinks to 0) */
	const double *rest = i < na ? a + i : b + j;
	size_t nrest = i < na ? na - i : nb - j;
	for (size_t k = 0; k < nrest; k++) {
		if (rest[k] == prev) {
			run++;
		} else {
			double r = (double)run;
			tie_sum += r * r * r - r;
			run = 1;
			prev = rest[k];
		}
	}
	double r = (double)run;
	s->tie_sum = tie_sum + r * r * r - r;
	s->u = (double)u2 / 2;
	s->gap = gap;
}

static void mw_finish(const struct scan *s, const double *a, size_t na, const double *b,
		      size_t nb, struct isc_mw *out)
{
	double n1 = (double)na, n2 = (double)nb, n = n1 + n2;
	out->u = s->u;
	out->z = 0;
	if (s->tie_sum == 0 && na < ISC_MW_EXACT_MAX && nb < ISC_MW_EXACT_MAX) {
		out->exact = true;
		out->p = isc_mw_exact_p(na, nb, s->u);
		return;
	}
	if (s->tie_sum > 0 && (na < nb ? na : nb) * (na + nb) <= ISC_MW_EXACT_TIES_MAX) {
		out->exact = true;
		out->p = isc_mw_exact_ties_p(a, na, b, nb);
		return;
	}
	out->exact = false;
	double var = n1 * n2 / 12 * ((n + 1) - s->tie_sum / (n * (n - 1)));
	if (!(var > 0)) {  /* every value tied: no evidence either way */
		out->p = 1;
		return;
	}
	double diff = s->u - n1 * n2 / 2;
	double corr = diff > 0 ? 0.5 : diff < 0 ? -0.5 : 0;
	out->z = (diff - corr) / sqrt(var);
	out->p = fmin(1, 2 * gsl_cdf_ugaussian_Q(fabs(out->z)));
}

static void ks_finish(const struct scan *s, size_t na, size_t nb, struct isc_ks *out)
{
	out->d = (double)s->gap / ((double)na * (double)nb);
	out->exact = (double)na * (double)nb <= ISC_KS_EXACT_MAX_CELLS;
	if (out->exact) {
		out->p = isc_ks_exact_p(na, nb, out->d);
	} else {
		double ne = (double)na * (double)nb / (double)(na + nb), sq = sqrt(ne);
		out->p = isc_kolmogorov_q((sq + 0.12 + 0.11 / sq) * out->d);
	}
}

int isc_mann_whitney(const double *a, size_t na, const double *b, size_t nb, struct isc_mw *out)
{
	struct scan s;
	if (!na || !nb)
		return -1;
	scan(a, na, b, nb, &s);
	mw_finish(&s, a, na, b, nb, out);
	return 0;
}

int isc_ks_test(const double *a, size_t na, const double *b, size_t nb, struct isc_ks *out)
{
	struct scan s;
	if (!na || !nb)
		return -1;
	scan(a, na, b, nb, &s);
	ks_finish(&s, na, nb, out);
	return 0;
}

int isc_two_sample_tests(const double *a, size_t na, const double *b, size_t nb,
			struct isc_mw *mw, struct isc_ks *ks)
{
	struct scan s;
	if (!na || !nb)
		return -1;
	scan(a, na, b, nb, &s);
	mw_finish(&s, a, na, b, nb, mw);
	ks_finish(&s, na, nb, ks);
	return 0;
}

/*
 * Null distribution of U by the recursion on the largest value: from sizes (i, j) it is a b
 * value with probability j / (i + j) (beating all i a values), else an a value. Probabilities
 * rather than counts keep every term positive and in range.
 */
double isc_mw_exact_p(size_t na, size_t nb, double u)
{
	size_t width = na * nb + 1;
	double *p = isc_xcalloc((na + 1) * width, sizeof(double));  /* p[i * width + k] */
	for (size_t i = 0; i <= na; i++)
		p[i * width] = 1;  /* j = 0: U = 0 */
	for (size_t j = 1; j <= nb; j++) {
		for (size_t i = 1; i <= na; i++) {
			double *cur = p + i * width;
			const double *prev_i = p + (i - 1) * width;  /* (i - 1, j), already updated */
			double wb = (double)j / (double)(i + j), wa = 1 - wb;
			for (size_t k = i * j + 1; k-- > 0;) {
				double from_b = k >= i ? cur[k - i] : 0;  /* (i, j - 1), not yet updated */
				cur[k] = wb * from_b + wa * prev_i[k];
			}
		}
	}
	const double *dist = p + na * width;
	long long uk = llround(u);
	double lower = 0, upper = 0;
	for (size_t k = 0; k < width; k++) {
		if ((long long)k <= uk)
			lower += dist[k];
		if ((long long)k >= uk)
			upper += dist[k];
	}
	free(p);
	return fmin(1, 2 * fmin(lower, upper));
}

/* The pooled sorted samples as tie blocks: each block's size and how many of it are from x. */
struct tie_blocks {
	size_t n;
	uint32_t *size, *from_x;
};

static void tie_blocks(const double *x, size_t nx, const double *y, size_t ny, struct tie_blocks *t)
{
	size_t i = 0, j = 0;
	t->size = isc_xmalloc((nx + ny) * sizeof(uint32_t));
	t->from_x = isc_xmalloc((nx + ny) * sizeof(uint32_t));
	t->n = 0;
	while (i < nx || j < ny) {
		double v = j >= ny || (i < nx && x[i] <= y[j]) ? x[i] : y[j];
		uint32_t cx = 0, cy = 0;
		for (; i < nx && x[i] == v; i++)
			cx++;
		for (; j < ny && y[j] == v; j++)
			cy++;
		t->size[t->n] = cx + cy;
		t->from_x[t->n++] = cx;
	}
}

/*
 * Counts of the ways to pick m of the pooled values with each sum of doubled midranks
 * (integers: a block of t values after s others has midrank (2s + t + 1) / 2). A knapsack over
 * the tie blocks: taking c of a block of t is C(t, c) ways. dist has (m + 1) * width cells.
 */
static void rank_sum_counts(const struct tie_blocks *t, size_t m, size_t width, double *dist)
{
	dist[0] = 1;
	size_t before = 0;
	for (size_t k = 0; k < t->n; k++) {
		size_t size = t->size[k], r2 = 2 * before + size + 1;
		for (size_t have = m + 1; have-- > 0;) {
			double *row = dist + have * width;
			for (size_t w = width; w-- > 0;) {
				if (row[w] == 0)
					continue;
				double ways = 1;
				for (size_t c = 1; c <= size && have + c <= m; c++) {
					ways = ways * (double)(size - c + 1) / (double)c;  /* C(size, c) */
					size_t w2 = w + c * r2;
					if (w2 < width)
						dist[(have + c) * width + w2] += row[w] * ways;
				}
			}
		}
		before += size;
	}
}

double isc_mw_exact_ties_p(const double *a, size_t na, const double *b, size_t nb)
{
	bool swap = nb < na;  /* the smaller sample's rank sum: the fewer picks, the cheaper */
	const double *x = swap ? b : a, *y = swap ? a : b;
	size_t m = swap ? nb : na, n = na + nb;
	struct tie_blocks t;
	tie_blocks(x, m, y, n - m, &t);
	size_t width = m * (2 * n - m + 1) + 1;  /* doubled rank sum of the m largest, plus one */
	double *dist = isc_xcalloc((m + 1) * width, sizeof(double));
	rank_sum_counts(&t, m, width, dist);
	int64_t obs = 0, mean2 = (int64_t)(m * (n + 1)), before = 0;  /* doubled sums */
	for (size_t k = 0; k < t.n; k++) {
		obs += (int64_t)t.from_x[k] * (2 * before + t.size[k] + 1);
		before += t.size[k];
	}
	int64_t dev = llabs(obs - mean2);
	double hit = 0, all = 0;
	for (size_t w = 0; w < width; w++) {
		double c = dist[m * width + w];
		all += c;
		if (llabs((int64_t)w - mean2) >= dev)
			hit += c;
	}
	free(dist);
	free(t.size);
	free(t.from_x);
	return fmin(1, hit / all);
}

double isc_kolmogorov_q(double lambda)
{
	if (!(lambda > 0))
		return 1;
	if (lambda < 1.18) {  /* the theta-function form converges fast here */
		double y = exp(-M_PI * M_PI / (8 * lambda * lambda)), sum = 0;
		if (y == 0)
			return 1;
		for (int j = 1; j <= 9; j += 2)
			sum += pow(y, (double)(j * j));
		return fmin(1, fmax(0, 1 - sqrt(2 * M_PI) / lambda * sum));
	}
	double sum = 0, sign = 1;
	for (int j = 1; j <= 100; j++, sign = -sign) {
		double term = exp(-2.0 * j * j * lambda * lambda);
		sum += sign * term;
		if (term < 1e-17 * sum || term == 0)
			break;
	}
	return fmin(1, fmax(0, 2 * sum));
}

/*
 * Share of monotone lattice paths (0,0) -> (na,nb) that touch a point with
 * |i nb - j na| >= D na nb: every path is equally likely under the null hypothesis. The
 * recursion carries the share of paths into (i, j) that have already left the band, so small
 * p-values keep their precision.
 */
double isc_ks_exact_p(size_t na, size_t nb, double d)
{
	double limit_d = d * (double)na * (double)nb;
	int64_t limit = llround(limit_d);
	double *row = isc_xmalloc((nb + 1) * sizeof(double));
	for (size_t i = 0; i <= na; i++) {
		for (size_t j = 0; j <= nb; j++) {
			int64_t dist = (int64_t)(i * nb) - (int64_t)(j * na);
			if (llabs(dist) >= limit) {
				row[j] = 1;
			} else if (i == 0 && j == 0) {
				row[j] = 0;
			} else if (i == 0) {
				row[j] = row[j - 1];
			} else if (j == 0) {
				/* row[0] already holds (i - 1, 0) */
			} else {
				double wi = (double)i / (double)(i + j);
				row[j] = wi * row[j] + (1 - wi) * row[j - 1];
			}
		}
	}
	double p = row[nb];
	free(row);
	return p;
}

/* Price and Bonett's standard error of one sample's median. */
static double median_se(const double *y, size_t n)
{
	double c = rint((double)n / 2 - sqrt((double)n));  /* rint: half to even, like R's round */
	size_t k = c < 1 ? 1 : (size_t)c;
	double tail = gsl_cdf_binomial_P((unsigned)(k - 1), 0.5, (unsigned)n);
	double z = gsl_cdf_ugaussian_Qinv(tail);
	if (!(z > 0))
		return NAN;
	return (y[n - k] - y[k - 1]) / (2 * z);
}

int isc_median_diff_ci(const double *a, size_t na, const double *b, size_t nb, double level,
		      double *lo, double *hi)
{
	*lo = *hi = NAN;
	if (na < 2 || nb < 2)
		return -1;
	double se_a = median_se(a, na), se_b = median_se(b, nb);
	if (isnan(se_a) || isnan(se_b))
		return -1;
	double diff = isc_quantile_sorted(b, nb, 0.5) - isc_quantile_sorted(a, na, 0.5);
	/* hypot: se_a^2 overflows from 1e154 on (values near 1e200 gave [-inf, +inf]) */
	double half = gsl_cdf_ugaussian_Pinv((1 + level) / 2) * hypot(se_a, se_b);
	*lo = diff - half;
	*hi = diff + half;
	return 0;
}

/*
 * Sorting. Values written with at most three decimals (idlescope's latencies in ns-exact us,
 * LDist, residencies with two decimals, counts) are sorted as integers v * 1000 in 32 bits - a
 * counting sort when their range is small - which moves half the bytes; anything else as
 * 64-bit keys with an LSD radix sort. Both reuse the caller's buffers.
 */
typedef uint64_t __attribute__((may_alias)) key_t64;
typedef uint32_t __attribute__((may_alias)) key_t32;
typedef int64_t __attribute__((may_alias)) ikey_t64;

#define RADIX_BITS 8     /* 256 output streams a pass: kinder to caches and the TLB than more */
#define RADIX_SIZE (1u << RADIX_BITS)
#define DEC_SCALE 1000.0

static int cmp_double(const void *x, const void *y)
{
	double a = *(const double *)x, b = *(const double *)y;
	return (a > b) - (a < b);
}

/*
 * If every value is exactly k / 1000 for an integer k (r / 1000.0 gives back the very same
 * double; -0.0 excluded) and the k span less than 2^32, store k - kmin in keys and return 1.
 * Stops at the first value that is not.
 */
static int decimal_keys(const double *a, size_t n, key_t32 *keys, double *kmin)
{
	int64_t lo = INT64_MAX, hi = INT64_MIN;
	ikey_t64 *r = (ikey_t64 *)(void *)keys;  /* the n keys' buffer holds n int64 first */
	for (size_t i = 0; i < n; i++) {
		double x = a[i] * DEC_SCALE;
		if (!(fabs(x) < 4503599627370496.0))  /* 2^52; also catches inf */
			return 0;
		int64_t k = (int64_t)(x + (x >= 0 ? 0.5 : -0.5));  /* checked just below */
		if ((double)k / DEC_SCALE != a[i] || (a[i] == 0 && signbit(a[i])))
			return 0;
		r[i] = k;
		lo = k < lo ? k : lo;
		hi = k > hi ? k : hi;
	}
	if (hi - lo > (int64_t)UINT32_MAX)
		return 0;
	for (size_t i = 0; i < n; i++)  /* 32-bit slot i never overtakes 64-bit slot i */
		keys[i] = (uint32_t)(r[i] - lo);
	*kmin = (double)lo;
	return 1;
}

/* Counting sort of small-range keys straight into the values. */
static void counting_sort_decimal(double *a, size_t n, const key_t32 *keys, uint32_t range,
				  double kmin)
{
	uint32_t *count = isc_xcalloc((size_t)range + 1, sizeof(uint32_t));
	for (size_t i = 0; i < n; i++)
		count[keys[i]]++;
	for (size_t k = 0, i = 0; k <= range; k++) {
		double v = (kmin + (double)k) / DEC_SCALE;
		for (uint32_t c = count[k]; c > 0; c--)
			a[i++] = v;
	}
	free(count);
}

/* LSD radix sort of 32-bit keys from src (using dst too); returns where the result is. */
/* Digit counts to the first output index of each digit (an exclusive prefix sum). */
static void counts_to_offsets(uint32_t *c)
{
	uint32_t sum = 0;
	for (size_t d = 0; d < RADIX_SIZE; d++) {
		uint32_t x = c[d];
		c[d] = sum;
		sum += x;
	}
}

static key_t32 *radix_sort32(key_t32 *src, key_t32 *dst, size_t n, uint32_t range)
{
	uint32_t count[4][RADIX_SIZE];
	memset(count, 0, sizeof(count));
	int passes = range >> 24 ? 4 : range >> 16 ? 3 : range >> 8 ? 2 : 1;
	for (size_t i = 0; i < n; i++)
		for (int p = 0; p < passes; p++)
			count[p][(src[i] >> (p * RADIX_BITS)) & (RADIX_SIZE - 1)]++;
	for (int p = 0; p < passes; p++) {
		uint32_t *c = count[p];
		counts_to_offsets(c);
		for (size_t i = 0; i < n; i++)
			dst[c[(src[i] >> (p * RADIX_BITS)) & (RADIX_SIZE - 1)]++] = src[i];
		key_t32 *t = src;
		src = dst;
		dst = t;
	}
	return src;
}

static int sort_decimal(double *a, size_t n, double *tmp)
{
	key_t32 *keys = (key_t32 *)(void *)tmp, *spare = keys + n;  /* tmp holds 2n keys */
	double kmin;
	if (!decimal_keys(a, n, keys, &kmin))
		return 0;
	uint32_t range = 0;
	for (size_t i = 0; i < n; i++)
		range = keys[i] > range ? keys[i] : range;
	if (range < n || range < 65536) {  /* the counts stay small and hot in the cache */
		counting_sort_decimal(a, n, keys, range, kmin);
		return 1;
	}
	key_t32 *res = radix_sort32(keys, spare, n, range);
	for (size_t i = 0; i < n; i++)
		a[i] = (kmin + (double)res[i]) / DEC_SCALE;
	return 1;
}

/* Doubles as unsigned keys in the same order: flip every bit of negatives, the sign of the rest. */
static inline uint64_t to_key(double v)
{
	uint64_t u;
	memcpy(&u, &v, sizeof(u));
	return u >> 63 ? ~u : u | (1ULL << 63);
}

static inline double from_key(uint64_t k)
{
	uint64_t u = k >> 63 ? k & ~(1ULL << 63) : ~k;
	double v;
	memcpy(&v, &u, sizeof(v));
	return v;
}

/* LSD radix sort of 64-bit keys, 8 bits a pass; a pass where every key has the same digit
 * (common for the top bytes: one metric's sign and exponent hardly vary) is skipped. */
static void sort_keys64(double *a, size_t n, double *tmp)
{
	uint32_t (*count)[RADIX_SIZE] = isc_xcalloc(8, sizeof(*count));
	key_t64 *src = (key_t64 *)(void *)a, *dst = (key_t64 *)(void *)tmp;
	for (size_t i = 0; i < n; i++) {
		uint64_t k = to_key(a[i]);
		src[i] = k;
		for (int p = 0; p < 8; p++)
			count[p][(k >> (p * RADIX_BITS)) & (RADIX_SIZE - 1)]++;
	}
	for (int p = 0; p < 8; p++) {
		uint32_t *c = count[p];
		if (c[(src[0] >> (p * RADIX_BITS)) & (RADIX_SIZE - 1)] == n)
			continue;  /* one digit value: nothing moves */
		counts_to_offsets(c);
		for (size_t i = 0; i < n; i++)
			dst[c[(src[i] >> (p * RADIX_BITS)) & (RADIX_SIZE - 1)]++] = src[i];
		key_t64 *t = src;
		src = dst;
		dst = t;
	}
	for (size_t i = 0; i < n; i++)
		a[i] = from_key(src[i]);
	free(count);
}

void isc_sort_doubles(double *a, size_t n, double *tmp)
{
	size_t i = 1;  /* sorted already (a constant, say)? random data stops this at once */
	while (i < n && a[i - 1] <= a[i])
		i++;
	if (i >= n)
		return;
	if (n < 256 || n >= UINT32_MAX) {
		qsort(a, n, sizeof(*a), cmp_double);
		return;
	}
	if (!sort_decimal(a, n, tmp))
		sort_keys64(a, n, tmp);
}
