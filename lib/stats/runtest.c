/* Run-level inference: Welch's t on per-run summaries, and a block bootstrap within runs. */
#include "idlescope/runtest.h"

#include <gsl/gsl_cdf.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>

#include "idlescope/sigtest.h"
#include "idlescope/stats.h"
#include "idlescope/util.h"

static void mean_var(const double *x, size_t n, double *mean, double *var)
{
	double s = 0, ss = 0;
	for (size_t i = 0; i < n; i++)
		s += x[i];
	*mean = s / (double)n;
	for (size_t i = 0; i < n; i++)
		ss += (x[i] - *mean) * (x[i] - *mean);
	*var = ss / (double)(n - 1);
}

int is_welch_test(const double *a, size_t na, const double *b, size_t nb, double level,
		  struct is_welch *out)
{
	double ma, va, mb, vb;
	*out = (struct is_welch){ NAN, NAN, NAN, NAN, NAN, NAN, NAN };
	if (na < 2 || nb < 2)
		return -1;
	mean_var(a, na, &ma, &va);
	mean_var(b, nb, &mb, &vb);
	double sa = va / (double)na, sb = vb / (double)nb, se2 = sa + sb;
	out->diff = mb - ma;
	out->se = sqrt(se2);
	if (!(se2 > 0)) {  /* every run alike in both: no spread to test against */
		out->df = (double)(na + nb - 2);
		out->t = out->diff == 0 ? 0 : copysign(INFINITY, out->diff);
		out->p = out->diff == 0 ? 1 : 0;
		out->lo = out->hi = out->diff;
		return 0;
	}
	out->df = se2 * se2 / (sa * sa / (double)(na - 1) + sb * sb / (double)(nb - 1));
	out->t = out->diff / out->se;
	out->p = fmin(1, 2 * gsl_cdf_tdist_Q(fabs(out->t), out->df));
	double q = gsl_cdf_tdist_Pinv(1 - (1 - level) / 2, out->df);
	out->lo = out->diff - q * out->se;
	out->hi = out->diff + q * out->se;
	return 0;
}

/* A sample cut into contiguous blocks of its collection order, each sorted. */
struct blocks {
	const double *x;         /* block j is x[off[j] .. off[j + 1]), ascending */
	const double *sorted;    /* every value, ascending */
	size_t n, k;
	size_t off[IS_BOOT_BLOCKS + 1];
};

static void cut_blocks(double *rows, const double *sorted, size_t n, double *tmp, struct blocks *b)
{
	b->x = rows;
	b->sorted = sorted;
	b->n = n;
	b->k = n < IS_BOOT_BLOCKS ? n : IS_BOOT_BLOCKS;
	for (size_t j = 0; j <= b->k; j++)
		b->off[j] = j * n / b->k;
	for (size_t j = 0; j < b->k; j++)
		is_sort_doubles(rows + b->off[j], b->off[j + 1] - b->off[j], tmp);
}

/* Values <= v in x[0..n) (ascending). */
static size_t count_le(const double *x, size_t n, double v)
{
	size_t lo = 0, hi = n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (x[mid] <= v)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* The ceil(N/2)-th smallest value of the union of the blocks, block j taken w[j] times:
 * the smallest pooled value with at least that many union values at or below it. */
static double union_median(const struct blocks *b, const unsigned *w)
{
	size_t total = 0, lo = 0, hi = b->n - 1;
	for (size_t j = 0; j < b->k; j++)
		total += w[j] * (b->off[j + 1] - b->off[j]);
	size_t want = (total + 1) / 2;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2, c = 0;
		double v = b->sorted[mid];
		for (size_t j = 0; j < b->k && c < want; j++)
			if (w[j])
				c += w[j] * count_le(b->x + b->off[j], b->off[j + 1] - b->off[j], v);
		if (c >= want)
			hi = mid;
		else
			lo = mid + 1;
	}
	return b->sorted[lo];
}

static uint64_t splitmix64(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ULL);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static double resampled_median(const struct blocks *b, uint64_t *seed)
{
	unsigned w[IS_BOOT_BLOCKS] = { 0 };
	for (size_t i = 0; i < b->k; i++)
		w[splitmix64(seed) % b->k]++;
	return union_median(b, w);
}

int is_block_boot_median_ci(double *a_rows, const double *a_sorted, size_t na, double *b_rows,
			    const double *b_sorted, size_t nb, double level, double *tmp,
			    double *lo, double *hi)
{
	struct blocks ba, bb;
	double diffs[IS_BOOT_REPS], dtmp[IS_BOOT_REPS];
	uint64_t seed = IS_BOOT_SEED;
	*lo = *hi = NAN;
	if (na < 2 || nb < 2)
		return -1;
	cut_blocks(a_rows, a_sorted, na, tmp, &ba);
	cut_blocks(b_rows, b_sorted, nb, tmp, &bb);
	for (size_t i = 0; i < IS_BOOT_REPS; i++) {
		double ma = resampled_median(&ba, &seed);
		diffs[i] = resampled_median(&bb, &seed) - ma;
	}
	is_sort_doubles(diffs, IS_BOOT_REPS, dtmp);
	*lo = is_quantile_sorted(diffs, IS_BOOT_REPS, (1 - level) / 2);
	*hi = is_quantile_sorted(diffs, IS_BOOT_REPS, 1 - (1 - level) / 2);
	return 0;
}
