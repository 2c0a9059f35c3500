/* SPDX-License-Identifier: GPL-2.0-only */
/* Order statistics: multi-rank quickselect, and the sample-bracket method. */
#include "stats/rank_select.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "stats/stats.h"
#include "text/util.h"

#define SMALL 24

static void insertion_sort(double *a, size_t n)
{
	for (size_t i = 1; i < n; i++) {
		double v = a[i];
		size_t j = i;
		for (; j > 0 && a[j - 1] > v; j--)
			a[j] = a[j - 1];
		a[j] = v;
	}
}

static int cmp_double(const void *x, const void *y)
{
	double a = *(const double *)x, b = *(const double *)y;
	return (a > b) - (a < b);
}

static double median3(double x, double y, double z)
{
	if (x < y)
		return y < z ? y : (x < z ? z : x);
	return x < z ? x : (y < z ? z : y);
}

/* Three-way partition around p: [0,*lt) < p, [*lt,*gt) == p, [*gt,n) > p. */
static void partition3(double *a, size_t n, double p, size_t *lt, size_t *gt)
{
	size_t l = 0, i = 0, g = n;
	while (i < g) {
		double v = a[i];
		if (v < p) {
			a[i++] = a[l];
			a[l++] = v;
		} else if (v > p) {
			a[i] = a[--g];
			a[g] = v;
		} else {
			i++;
		}
	}
	*lt = l;
	*gt = g;
}

/* Quicksort without a comparison callback (the bracket sample is sorted once per metric). */
static void sort_doubles(double *a, size_t n, unsigned depth)
{
	while (n > SMALL) {
		size_t lt, gt;
		if (depth++ > 64) {
			qsort(a, n, sizeof(*a), cmp_double);  /* pathological input */
			return;
		}
		partition3(a, n, median3(a[0], a[n / 2], a[n - 1]), &lt, &gt);
		if (lt < n - gt) {  /* recurse into the smaller side, loop on the larger */
			sort_doubles(a, lt, depth);
			a += gt;
			n -= gt;
		} else {
			sort_doubles(a + gt, n - gt, depth);
			n = lt;
		}
	}
	insertion_sort(a, n);
}

/* idx[] are positions relative to a, ascending, all < n. */
static void msel(double *a, size_t n, const size_t *idx, size_t ni, unsigned depth)
{
	if (ni > 0) {
		if (n <= SMALL || depth > 64) {
			if (n <= SMALL)
				insertion_sort(a, n);
			else
				qsort(a, n, sizeof(*a), cmp_double);  /* pathological input */
			return;
		}
		size_t lt, gt;
		partition3(a, n, median3(a[0], a[n / 2], a[n - 1]), &lt, &gt);
		size_t nl = 0, ng = ni;
		while (nl < ni && idx[nl] < lt)
			nl++;
		while (ng > 0 && idx[ng - 1] >= gt)
			ng--;
		msel(a, lt, idx, nl, depth + 1);
		size_t nr = ni - ng;
		const size_t *ridx = idx + ng;
		/* shift the right side's positions to be relative to a + gt */
		size_t tmp[64];
		size_t *shifted = nr <= 64 ? tmp : isc_xmalloc(nr * sizeof(size_t));
		for (size_t i = 0; i < nr; i++)
			shifted[i] = ridx[i] - gt;
		msel(a + gt, n - gt, shifted, nr, depth + 1);
		if (shifted != tmp)
			free(shifted);
		return;
	}
}

void isc_multiselect(double *a, size_t n, const size_t *idx, size_t nidx)
{
	msel(a, n, idx, nidx, 0);
}

/* [0, l) of a[0..n) holds the values that are less than p (eq: equal to it), the rest after;
 * returns l. Every value is swapped, whatever it is, so that no branch depends on the data:
 * msel's three-way partition mispredicted about every other value of a bracket's collection
 * (0.75 ms a million-row column, most of its selection). */
static size_t partition_by(double *a, size_t n, double p, int eq)
{
	size_t l = 0;
	for (size_t i = 0; i < n; i++) {
		double v = a[i];
		a[i] = a[l];
		a[l] = v;
		l += eq ? v == p : v < p;
	}
	return l;
}

/* msel without a branch on the comparisons, for values none of which is zero: the value at
 * each rank is then one bit pattern, whatever the order of the selection (-0 and +0 compare
 * equal, and which one msel puts at a rank depends on its steps). */
static void msel_nonzero(double *a, size_t n, const size_t *idx, size_t ni, unsigned depth)
{
	if (ni == 0)
		return;
	if (n <= SMALL || depth > 64) {
		msel(a, n, idx, ni, 0);  /* the same values: small, or pathological input */
		return;
	}
	double p = median3(a[0], a[n / 2], a[n - 1]);
	size_t lt = partition_by(a, n, p, 0), nl = 0;
	while (nl < ni && idx[nl] < lt)
		nl++;
	msel_nonzero(a, lt, idx, nl, depth + 1);
	if (nl == ni)
		return;
	/* [lt, gt) equal to p: ranks there are done; the pivot is one of them, so each level
	 * takes at least one value off */
	size_t gt = lt + partition_by(a + lt, n - lt, p, 1), ne = nl;
	while (ne < ni && idx[ne] < gt)
		ne++;
	size_t tmp[64], nr = ni - ne;
	size_t *shifted = nr <= 64 ? tmp : isc_xmalloc(nr * sizeof(size_t));
	for (size_t i = 0; i < nr; i++)
		shifted[i] = idx[ne + i] - gt;
	msel_nonzero(a + gt, n - gt, shifted, nr, depth + 1);
	if (shifted != tmp)
		free(shifted);
}


#define MERGE_GAP_DIV 32   /* merge brackets less than 1/32 of the sample apart */

static size_t make_brackets(const double *sample, size_t s, const size_t *idx, size_t ni, size_t m,
			    struct bracket *b)
{
	size_t nb = 0;
	double prev_hi_i = 0;
	for (size_t i = 0; i < ni; i++) {
		double q = (double)idx[i] / (double)(m - 1), pos = q * (double)(s - 1);
		double d = 3 * sqrt((double)s * q * (1 - q)) + 3;
		double lo_i = floor(pos - d), hi_i = ceil(pos + d);
		double lo = lo_i < 0 ? -INFINITY : sample[(size_t)lo_i];
		double hi = hi_i >= (double)s ? INFINITY : sample[(size_t)hi_i];
		/* expected values inside, for the first allocation */
		size_t expect = (size_t)((fmin(hi_i, (double)s) - fmax(lo_i, 0)) / (double)s * (double)m);
		/* Overlapping or nearly adjacent brackets become one: a pass over the data costs more
		 * than selecting among a few more values (the tail ranks 99%...99.999% end up in one). */
		if (nb && (lo <= b[nb - 1].hi || lo_i - prev_hi_i <= (double)s / MERGE_GAP_DIV)) {
			b[nb - 1].hi = hi > b[nb - 1].hi ? hi : b[nb - 1].hi;
			b[nb - 1].cap += expect + (size_t)(fmax(lo_i - prev_hi_i, 0) / (double)s * (double)m);
			prev_hi_i = fmax(prev_hi_i, hi_i);
			continue;
		}
		prev_hi_i = hi_i;
		b[nb++] = (struct bracket){ .lo = lo, .hi = hi, .cap = expect };
	}
	return nb;
}

int brackets_prepare(struct brackets *br, const double *a, size_t n, size_t m,
		     const size_t *idx, size_t ni, double *arena, size_t arena_n)
{
	double sample[BRACKET_SAMPLE];
	size_t s = 0, stride = brackets_stride(n);

	memset(br, 0, sizeof(*br));
	if (m < BRACKET_MIN_N || ni > BRACKET_MAX)
		return -1;
	for (size_t i = 0; i < n && s < BRACKET_SAMPLE; i += stride)
		if (!isnan(a[i]))
			sample[s++] = a[i];
	return brackets_prepare_sampled(br, sample, s, m, idx, ni, arena, arena_n);
}

int brackets_prepare_sampled(struct brackets *br, double *sample, size_t s, size_t m,
			     const size_t *idx, size_t ni, double *arena, size_t arena_n)
{
	size_t need = 0;

	memset(br, 0, sizeof(*br));
	if (m < BRACKET_MIN_N || ni > BRACKET_MAX)
		return -1;
	sort_doubles(sample, s, 0);
	br->nb = make_brackets(sample, s, idx, ni, m, br->b);
	for (size_t j = 0; j < br->nb; j++) {
		struct bracket *b = &br->b[j];
		b->cap = b->cap * 2 + 1024;   /* cap held the expected size */
		need += b->cap + BRACKET_SLACK;
	}
	br->owned = !arena || need > arena_n;
	for (size_t j = 0; j < br->nb; j++) {
		struct bracket *b = &br->b[j];
		b->buf = br->owned ? isc_xmalloc((b->cap + BRACKET_SLACK) * sizeof(double)) : arena;
		arena += b->cap + BRACKET_SLACK;
	}
	return 0;
}

/* The values of the ranks idx[*i..] that fall in bracket b (sorted, its values are: eq_lo
 * times lo, the collection, eq_hi times hi), selected within its collection. */
static void bracket_ranks(struct bracket *b, const size_t *idx, size_t ni, size_t *i, double *vals)
{
	size_t sel[BRACKET_MAX], at[BRACKET_MAX], k = 0;
	for (; *i < ni && idx[*i] >= b->below && idx[*i] < b->below + b->eq_lo + b->n + b->eq_hi; (*i)++) {
		size_t r = idx[*i] - b->below;
		if (r < b->eq_lo) {
			vals[*i] = b->lo;
		} else if (r >= b->eq_lo + b->n) {
			vals[*i] = b->hi;
		} else {
			at[k] = *i;
			sel[k++] = r - b->eq_lo;
		}
	}
	if (k == 0)
		return;
	if (b->lo >= 0 || b->hi <= 0)   /* every collected value is above lo and below hi: none is 0 */
		msel_nonzero(b->buf, b->n, sel, k, 0);
	else
		isc_multiselect(b->buf, b->n, sel, k);
	for (size_t r = 0; r < k; r++)
		vals[at[r]] = b->buf[sel[r]];
}

int brackets_finish(struct brackets *br, const size_t *idx, size_t ni, double *vals)
{
	size_t i = 0;
	int rc = br->failed ? -1 : 0;
	for (size_t j = 0; j < br->nb && rc == 0; j++) {
		struct bracket *b = &br->b[j];
		if (i < ni && idx[i] < b->below)
			rc = -1;  /* a rank below this bracket: the sample missed it */
		else
			bracket_ranks(b, idx, ni, &i, vals);
	}
	if (i < ni)
		rc = -1;
	for (size_t j = 0; br->owned && j < br->nb; j++)
		free(br->b[j].buf);
	return rc;
}
