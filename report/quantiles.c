/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Many quantiles of one column at once. The plots need hundreds of them at plotting
 * precision, so the values are sorted once as 32-bit floats (7 significant digits): an LSD
 * radix sort in 3 passes of 11 bits moves a quarter of the bytes a double sort would.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "text/util.h"
#include "report.h"

#define RADIX_BITS 11
#define RADIX_SIZE (1u << RADIX_BITS)

/* An order-preserving map of float bits to unsigned integers. */
static uint32_t float_key(float f)
{
	uint32_t u;
	memcpy(&u, &f, sizeof(u));
	return u & 0x80000000u ? ~u : u | 0x80000000u;
}

static float key_float(uint32_t k)
{
	uint32_t u = k & 0x80000000u ? k & 0x7FFFFFFFu : ~k;
	float f;
	memcpy(&f, &u, sizeof(f));
	return f;
}

static void radix_sort_keys(uint32_t *a, size_t n, uint32_t *tmp)
{
	static size_t count[3][RADIX_SIZE];
	memset(count, 0, sizeof(count));
	for (size_t i = 0; i < n; i++)
		for (int p = 0; p < 3; p++)
			count[p][(a[i] >> (p * RADIX_BITS)) & (RADIX_SIZE - 1)]++;
	for (int p = 0; p < 3; p++) {
		size_t sum = 0;
		for (size_t b = 0; b < RADIX_SIZE; b++) {
			size_t c = count[p][b];
			count[p][b] = sum;
			sum += c;
		}
		for (size_t i = 0; i < n; i++)
			tmp[count[p][(a[i] >> (p * RADIX_BITS)) & (RADIX_SIZE - 1)]++] = a[i];
		uint32_t *swap = a;
		a = tmp;
		tmp = swap;
	}
	/* 3 passes: the sorted data ended in the caller's tmp; copy it back. */
	memcpy(tmp, a, n * sizeof(*a));
}

size_t quantiles(const double *v, size_t n, const struct axis_map *map, const double *q,
		 size_t nq, double *out)
{
	uint32_t *a = isc_xmalloc((2 * n + 1) * sizeof(*a));
	size_t m = 0;

	for (size_t i = 0; i < n; i++)
		if (!isnan(v[i]))
			a[m++] = float_key((float)axis_map_apply(map, v[i]));
	radix_sort_keys(a, m, a + m);
	for (size_t i = 0; i < nq; i++) {
		double delta = q[i] * (double)(m - 1);
		size_t lhs = (size_t)delta;
		delta -= (double)lhs;
		if (m == 0)
			out[i] = NAN;
		else if (lhs >= m - 1)
			out[i] = key_float(a[m - 1]);
		else
			out[i] = (1 - delta) * key_float(a[lhs]) + delta * key_float(a[lhs + 1]);
	}
	free(a);
	return m;
}
