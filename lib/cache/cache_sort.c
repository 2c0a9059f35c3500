/* SPDX-License-Identifier: GPL-2.0-only */
/* Sorting doubles for the cache: a radix sort on their bits, in total order. */
#include <stdlib.h>
#include <string.h>

#include "cache/cache_internal.h"

/* The bits of v as an unsigned key that orders like v (-0 just below +0). */
static uint64_t key_of(double v)
{
	uint64_t u;
	memcpy(&u, &v, sizeof(u));
	return u >> 63 ? ~u : u | (1ull << 63);
}

static int cmp_key(const void *x, const void *y)
{
	uint64_t a = key_of(*(const double *)x), b = key_of(*(const double *)y);
	return (a > b) - (a < b);
}

#define DIGIT 11
#define NBUCKET (1u << DIGIT)

/* One stable counting pass on the digit at shift, from src to dst; false when every key
 * has the same digit there (nothing moved). */
static int radix_pass(const double *src, double *dst, size_t n, unsigned shift)
{
	size_t count[NBUCKET] = { 0 };
	for (size_t i = 0; i < n; i++)
		count[(key_of(src[i]) >> shift) & (NBUCKET - 1)]++;
	for (size_t b = 0; b < NBUCKET; b++)
		if (count[b] == n)
			return 0;
	size_t pos = 0;
	for (size_t b = 0; b < NBUCKET; b++) {
		size_t c = count[b];
		count[b] = pos;
		pos += c;
	}
	for (size_t i = 0; i < n; i++)
		dst[count[(key_of(src[i]) >> shift) & (NBUCKET - 1)]++] = src[i];
	return 1;
}

void cache_sort(double *a, size_t n, double *tmp)
{
	if (n < 4096) {
		qsort(a, n, sizeof(*a), cmp_key);
		return;
	}
	double *src = a, *dst = tmp;
	for (unsigned shift = 0; shift < 64; shift += DIGIT)
		if (radix_pass(src, dst, n, shift)) {
			double *t = src;
			src = dst;
			dst = t;
		}
	if (src != a)
		memcpy(a, src, n * sizeof(*a));
}
