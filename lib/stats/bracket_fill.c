/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The brackets' pass over the data (rank_select.h): each bracket counts the values below it
 * and at its ends, and collects those strictly inside, in the data's order.
 */
#include "stats/rank_select.h"

#include <string.h>

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#define HAVE_AVX2_FILL 1
#endif

/* The values a[i..n) one at a time after a vector loop, and the counts into b: nb below, nl
 * and nh at the ends, the collection's end at k. */
static inline __attribute__((always_inline)) void fill_rest(struct bracket *b, const double *a, size_t i,
							    size_t n, size_t k, size_t nb, size_t nl, size_t nh)
{
	const double lo = b->lo, hi = b->hi;
	double *buf = b->buf;
	for (; i < n; i++) {
		double v = a[i];
		nb += v < lo;
		nl += v == lo;
		nh += v == hi;
		buf[k] = v;
		k += (v > lo) & (v < hi);
	}
	b->below += nb;
	b->eq_lo += nl;
	b->eq_hi += lo == hi ? 0 : nh;
	b->n = k;
}

typedef double v4d __attribute__((vector_size(32)));
typedef long long v4l __attribute__((vector_size(32)));

/* Four values at a time (GCC vector extensions: comparisons give lanes of -1 or 0; two SSE2
 * halves, for CPUs without AVX2): the counts without branches. A bracket is narrow, so most groups of four have no value inside it and store
 * nothing; the others store theirs in order, as one at a time would (the same collection,
 * in the same order). Only locals in the loop (a store through buf could otherwise alias
 * the bracket's fields); n <= BRACKET_SLACK, so the stores stay within the slack. */
static void fill_one(struct bracket *b, const double *a, size_t n)
{
	const double lo = b->lo, hi = b->hi;
	const v4d vlo = { lo, lo, lo, lo }, vhi = { hi, hi, hi, hi };
	v4l below = { 0 }, eq_lo = { 0 }, eq_hi = { 0 };
	double *buf = b->buf;
	size_t k = b->n, i = 0;
	for (; i + 4 <= n; i += 4) {
		v4d v;
		memcpy(&v, a + i, sizeof(v));
		v4l in = (v > vlo) & (v < vhi);
		below -= v < vlo;
		eq_lo -= v == vlo;
		eq_hi -= v == vhi;
		if (__builtin_expect((in[0] | in[1] | in[2] | in[3]) != 0, 0))
			for (int l = 0; l < 4; l++) {
				buf[k] = v[l];
				k -= (size_t)in[l];
			}
	}
	size_t nb = (size_t)(below[0] + below[1] + below[2] + below[3]);
	size_t nl = (size_t)(eq_lo[0] + eq_lo[1] + eq_lo[2] + eq_lo[3]);
	size_t nh = (size_t)(eq_hi[0] + eq_hi[1] + eq_hi[2] + eq_hi[3]);
	fill_rest(b, a, i, n, k, nb, nl, nh);
}

#ifdef HAVE_AVX2_FILL
/* Where a group of four doubles goes in a left-packed store: for each 4-bit mask of the
 * values inside, the 32-bit lanes of those values first, in order (the rest is overwritten
 * by the next store). */
static const int32_t pack_lanes[16][8] __attribute__((aligned(32))) = {
	{ 0, 1, 2, 3, 4, 5, 6, 7 }, { 0, 1, 0, 0, 0, 0, 0, 0 }, { 2, 3, 0, 0, 0, 0, 0, 0 },
	{ 0, 1, 2, 3, 0, 0, 0, 0 }, { 4, 5, 0, 0, 0, 0, 0, 0 }, { 0, 1, 4, 5, 0, 0, 0, 0 },
	{ 2, 3, 4, 5, 0, 0, 0, 0 }, { 0, 1, 2, 3, 4, 5, 0, 0 }, { 6, 7, 0, 0, 0, 0, 0, 0 },
	{ 0, 1, 6, 7, 0, 0, 0, 0 }, { 2, 3, 6, 7, 0, 0, 0, 0 }, { 0, 1, 2, 3, 6, 7, 0, 0 },
	{ 4, 5, 6, 7, 0, 0, 0, 0 }, { 0, 1, 4, 5, 6, 7, 0, 0 }, { 2, 3, 4, 5, 6, 7, 0, 0 },
	{ 0, 1, 2, 3, 4, 5, 6, 7 },
};

/*
 * fill_one with AVX2 and no branch on the data: every group of four is stored at the end of
 * the collection with the values inside packed to its front (a permutation by the mask), and
 * the end moves past those. A median's bracket holds about 5 % of the values, so about a
 * fifth of the groups have one inside: as a branch, that mispredicted (the fill was 1.25 ms
 * a million values, the biggest part of a latency column's statistics). The same counts and
 * the same collection, in the same order. The store writes four doubles at the end: below
 * cap + BRACKET_SLACK, as n <= BRACKET_SLACK and the end was at most cap before.
 */
__attribute__((target("avx2"))) static void fill_one_avx2(struct bracket *b, const double *a, size_t n)
{
	const double lo = b->lo, hi = b->hi;
	const __m256d vlo = _mm256_set1_pd(lo), vhi = _mm256_set1_pd(hi);
	__m256i below = _mm256_setzero_si256(), eq_lo = below, eq_hi = below;
	double *buf = b->buf;
	size_t k = b->n, i = 0;
	for (; i + 4 <= n; i += 4) {
		__m256d v = _mm256_loadu_pd(a + i);
		__m256d in = _mm256_and_pd(_mm256_cmp_pd(v, vlo, _CMP_GT_OQ), _mm256_cmp_pd(v, vhi, _CMP_LT_OQ));
		below = _mm256_sub_epi64(below, _mm256_castpd_si256(_mm256_cmp_pd(v, vlo, _CMP_LT_OQ)));
		eq_lo = _mm256_sub_epi64(eq_lo, _mm256_castpd_si256(_mm256_cmp_pd(v, vlo, _CMP_EQ_OQ)));
		eq_hi = _mm256_sub_epi64(eq_hi, _mm256_castpd_si256(_mm256_cmp_pd(v, vhi, _CMP_EQ_OQ)));
		int m = _mm256_movemask_pd(in);
		__m256i lanes = _mm256_load_si256((const __m256i *)pack_lanes[m]);
		_mm256_storeu_si256((__m256i *)(buf + k),
				    _mm256_permutevar8x32_epi32(_mm256_castpd_si256(v), lanes));
		k += (size_t)__builtin_popcount((unsigned)m);
	}
	int64_t c[3][4];
	_mm256_storeu_si256((__m256i *)c[0], below);
	_mm256_storeu_si256((__m256i *)c[1], eq_lo);
	_mm256_storeu_si256((__m256i *)c[2], eq_hi);
	size_t nb = (size_t)(c[0][0] + c[0][1] + c[0][2] + c[0][3]);
	size_t nl = (size_t)(c[1][0] + c[1][1] + c[1][2] + c[1][3]);
	size_t nh = (size_t)(c[2][0] + c[2][1] + c[2][2] + c[2][3]);
	fill_rest(b, a, i, n, k, nb, nl, nh);
}
#endif

/* fill_one or fill_one_avx2 for every bracket, a piece of BRACKET_SLACK values at a time. */
static void fill_pieces(struct brackets *br, const double *a, size_t n,
			void (*fill)(struct bracket *b, const double *a, size_t n))
{
	for (size_t i = 0; i < n && !br->failed; i += BRACKET_SLACK) {
		size_t len = n - i < BRACKET_SLACK ? n - i : BRACKET_SLACK;
		for (size_t j = 0; j < br->nb; j++) {
			fill(&br->b[j], a + i, len);
			br->failed |= br->b[j].n > br->b[j].cap;
		}
	}
}

void brackets_fill(struct brackets *br, const double *a, size_t n)
{
#ifdef HAVE_AVX2_FILL
	if (__builtin_cpu_supports("avx2")) {
		fill_pieces(br, a, n, fill_one_avx2);
		return;
	}
#endif
	fill_pieces(br, a, n, fill_one);
}
