/* SPDX-License-Identifier: GPL-2.0-only */
/* Run-level inference: Welch's t on per-run summaries, and a block bootstrap within runs. */
#include "stats/runtest.h"

#include <gsl/gsl_cdf.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "stats/sigtest.h"
#include "stats/stats.h"
#include "text/util.h"

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

int isc_welch_test(const double *a, size_t na, const double *b, size_t nb, double level,
		  struct isc_welch *out)
{
	double ma, va, mb, vb;
	*out = (struct isc_welch){ NAN, NAN, NAN, NAN, NAN, NAN, NAN };
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

/*
 * A sample cut into contiguous blocks of its collection order. Only the values of a window of
 * the sorted sample, [sorted[first], sorted[last]], are kept per block (sorted), with the count
 * of the block's values below the window: that answers "how many values <= v" exactly for
 * every v in the window. The replicates' medians lie near the sample's, so a window of an
 * eighth of the sample is sorted instead of the whole; a replicate whose median the window
 * cannot place is redone with the whole sample as the window (the answer is the same).
 */
struct blocks {
	const double *in;        /* block j's values in the window: in[off[j] .. off[j] + nin[j]) */
	/* (off[] first cuts the rows: block j is rows[off[j] .. off[j + 1]), size[j] values) */
	const double *sorted;    /* every value, ascending */
	size_t n, k;
	size_t first, last;      /* the window, positions in sorted */
	size_t off[ISC_BOOT_BLOCKS + 1];
	size_t size[ISC_BOOT_BLOCKS], nin[ISC_BOOT_BLOCKS], below[ISC_BOOT_BLOCKS];
	/* A grid over the window, every GRID positions (and its last): cnt[g * k + j] is how many
	 * of block j's window values are <= the grid point's value, so that a replicate's search
	 * narrows to GRID positions, and each block's count to a short stretch, at once. */
	size_t ngrid;
	size_t *cnt;
};

#define GRID 256

#define WINDOW_MIN_N 4096    /* smaller samples: the whole sample is the window */
#define WINDOW_DIV 16        /* the window: the median's position +- n / WINDOW_DIV */

static void cut_offsets(size_t n, struct blocks *b)
{
	b->n = n;
	b->k = n < ISC_BOOT_BLOCKS ? n : ISC_BOOT_BLOCKS;
	for (size_t j = 0; j <= b->k; j++)
		b->off[j] = j * n / b->k;
	for (size_t j = 0; j < b->k; j++)
		b->size[j] = b->off[j + 1] - b->off[j];
}

/* The whole sample as the window: each block of rows sorted in place. */
static void whole_window(double *rows, const double *sorted, size_t n, double *tmp, struct blocks *b)
{
	cut_offsets(n, b);
	b->in = rows;
	b->sorted = sorted;
	b->first = 0;
	b->last = n - 1;
	for (size_t j = 0; j < b->k; j++) {
		b->nin[j] = b->size[j];
		b->below[j] = 0;
		isc_sort_doubles(rows + b->off[j], b->nin[j], tmp);
	}
}

typedef double v2d __attribute__((vector_size(16)));
typedef long long v2i __attribute__((vector_size(16)));

/* The values of x[0..n) below lo counted, those in [lo, hi] appended to out at *at: two at a
 * time with GCC vector comparisons (lanes of -1 or 0), stores unconditional, no branches. */
static size_t window_pass(const double *x, size_t n, double lo, double hi, double *out, size_t *at)
{
	const v2d vlo = { lo, lo }, vhi = { hi, hi };
	v2i below = { 0, 0 };
	size_t k = *at, i = 0;
	for (; i + 2 <= n; i += 2) {
		v2d v;
		memcpy(&v, x + i, sizeof(v));
		v2i in = (v >= vlo) & (v <= vhi);
		below -= v < vlo;
		out[k] = v[0];
		k -= (size_t)in[0];
		out[k] = v[1];
		k -= (size_t)in[1];
	}
	size_t nb = (size_t)(below[0] + below[1]);
	for (; i < n; i++) {
		nb += x[i] < lo;
		out[k] = x[i];
		k += x[i] >= lo && x[i] <= hi;
	}
	*at = k;
	return nb;
}

/* The window around the median: its values per block copied to tmp[0..] and sorted there
 * (tmp holds n doubles: the window takes at most a quarter, sorting it another quarter). */
static void median_window(const double *rows, const double *sorted, size_t n, double *tmp,
			  struct blocks *b)
{
	size_t h = n / WINDOW_DIV, mid = (n - 1) / 2, at = 0;
	cut_offsets(n, b);
	b->in = tmp;
	b->sorted = sorted;
	b->first = mid - h;
	b->last = mid + h;
	double lo = sorted[b->first], hi = sorted[b->last];
	while (b->first > 0 && sorted[b->first - 1] == lo)  /* ties of lo are in the window too */
		b->first--;
	while (b->last + 1 < n && sorted[b->last + 1] == hi)
		b->last++;
	if (b->last - b->first + 1 > n / 4)  /* many ties: not worth it */
		b->last = b->first + n;
	for (size_t j = 0; j < b->k && b->last < n; j++) {
		size_t start = at, below = window_pass(rows + b->off[j], b->size[j], lo, hi, tmp, &at);
		b->off[j] = start;
		b->nin[j] = at - start;
		b->below[j] = below;
		isc_sort_doubles(tmp + start, at - start, tmp + n / 2);
	}
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

static size_t grid_pos(const struct blocks *b, size_t g)
{
	return g + 1 < b->ngrid ? b->first + g * GRID : b->last;
}

static void make_grid(struct blocks *b)
{
	b->ngrid = (b->last - b->first) / GRID + 2;
	b->cnt = isc_xmalloc(b->ngrid * b->k * sizeof(size_t));
	for (size_t g = 0; g < b->ngrid; g++) {
		double v = b->sorted[grid_pos(b, g)];
		for (size_t j = 0; j < b->k; j++)
			b->cnt[g * b->k + j] = count_le(b->in + b->off[j], b->nin[j], v);
	}
}

/* Union values <= the value of grid point g, block j taken w[j] times. */
static size_t grid_le(const struct blocks *b, const unsigned *w, size_t g)
{
	size_t c = 0;
	for (size_t j = 0; j < b->k; j++)
		c += w[j] * (b->below[j] + b->cnt[g * b->k + j]);
	return c;
}

/* Union values <= sorted[pos], for pos between grid points g - 1 and g: each block's count
 * lies between its counts there. */
static size_t union_le(const struct blocks *b, const unsigned *w, size_t g, size_t pos, size_t want)
{
	double v = b->sorted[pos];
	const size_t *lo = b->cnt + (g - 1) * b->k, *hi = b->cnt + g * b->k;
	size_t c = 0;
	for (size_t j = 0; j < b->k && c < want; j++)
		if (w[j])
			c += w[j] * (b->below[j] + lo[j] +
				     count_le(b->in + b->off[j] + lo[j], hi[j] - lo[j], v));
	return c;
}

/* The ceil(N/2)-th smallest value of the union of the blocks, block j taken w[j] times: the
 * smallest pooled value with at least that many union values at or below it. -1 when it is
 * not inside the window. */
static int union_median(const struct blocks *b, const unsigned *w, double *out)
{
	size_t total = 0, below = 0;
	for (size_t j = 0; j < b->k; j++) {
		total += w[j] * b->size[j];
		below += w[j] * b->below[j];
	}
	size_t want = (total + 1) / 2;
	if (below >= want || grid_le(b, w, b->ngrid - 1) < want)
		return -1;
	size_t glo = 0, ghi = b->ngrid - 1;   /* the first grid point with enough */
	while (glo < ghi) {
		size_t mid = glo + (ghi - glo) / 2;
		if (grid_le(b, w, mid) >= want)
			ghi = mid;
		else
			glo = mid + 1;
	}
	size_t lo = glo ? grid_pos(b, glo - 1) + 1 : b->first, hi = grid_pos(b, glo);
	while (lo < hi) {   /* glo > 0 here: position first is grid point 0 */
		size_t mid = lo + (hi - lo) / 2;
		if (union_le(b, w, glo, mid, want) >= want)
			hi = mid;
		else
			lo = mid + 1;
	}
	*out = b->sorted[lo];
	return 0;
}

static uint64_t splitmix64(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ULL);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/* Every replicate's block weights: replicate i draws a's blocks, then b's. */
static void draw_weights(size_t ka, size_t kb, unsigned (*wa)[ISC_BOOT_BLOCKS],
			 unsigned (*wb)[ISC_BOOT_BLOCKS])
{
	uint64_t seed = ISC_BOOT_SEED;
	memset(wa, 0, ISC_BOOT_REPS * sizeof(*wa));
	memset(wb, 0, ISC_BOOT_REPS * sizeof(*wb));
	for (size_t i = 0; i < ISC_BOOT_REPS; i++) {
		for (size_t j = 0; j < ka; j++)
			wa[i][splitmix64(&seed) % ka]++;
		for (size_t j = 0; j < kb; j++)
			wb[i][splitmix64(&seed) % kb]++;
	}
}

/* The median of every replicate of one sample into med[]. */
static void sample_medians(double *rows, const double *sorted, size_t n, double *tmp,
			   unsigned (*w)[ISC_BOOT_BLOCKS], double *med)
{
	struct blocks b;
	size_t i = 0;
	if (n >= WINDOW_MIN_N) {
		median_window(rows, sorted, n, tmp, &b);
		if (b.last < n) {
			make_grid(&b);
			for (; i < ISC_BOOT_REPS && union_median(&b, w[i], &med[i]) == 0; i++)
				;
			free(b.cnt);
		}
	}
	if (i == ISC_BOOT_REPS)
		return;
	whole_window(rows, sorted, n, tmp, &b);
	make_grid(&b);
	for (; i < ISC_BOOT_REPS; i++)
		(void)union_median(&b, w[i], &med[i]);  /* the whole sample holds every median */
	free(b.cnt);
}

int isc_block_boot_median_ci(double *a_rows, const double *a_sorted, size_t na, double *b_rows,
			    const double *b_sorted, size_t nb, double level, double *tmp,
			    double *lo, double *hi)
{
	unsigned wa[ISC_BOOT_REPS][ISC_BOOT_BLOCKS], wb[ISC_BOOT_REPS][ISC_BOOT_BLOCKS];  /* 80 KB */
	double ma[ISC_BOOT_REPS], diffs[ISC_BOOT_REPS], dtmp[ISC_BOOT_REPS];
	*lo = *hi = NAN;
	if (na < 2 || nb < 2)
		return -1;
	draw_weights(na < ISC_BOOT_BLOCKS ? na : ISC_BOOT_BLOCKS, nb < ISC_BOOT_BLOCKS ? nb : ISC_BOOT_BLOCKS,
		     wa, wb);
	sample_medians(a_rows, a_sorted, na, tmp, wa, ma);
	sample_medians(b_rows, b_sorted, nb, tmp, wb, diffs);
	for (size_t i = 0; i < ISC_BOOT_REPS; i++)
		diffs[i] -= ma[i];
	isc_sort_doubles(diffs, ISC_BOOT_REPS, dtmp);
	*lo = isc_quantile_sorted(diffs, ISC_BOOT_REPS, (1 - level) / 2);
	*hi = isc_quantile_sorted(diffs, ISC_BOOT_REPS, 1 - (1 - level) / 2);
	return 0;
}
