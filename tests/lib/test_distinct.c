/* SPDX-License-Identifier: GPL-2.0-only */
/* isc_count_values (lib/table/distinct.h) against a count by sorting: a column of doubles
 * small and large enough for passes, runs, empty cells, -0 and +0, whole numbers; packed
 * columns whose codes span a bitmap or not, with exceptions. (bench/bench_by.sh times it.) */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "table/colpack.h"
#include "table/distinct.h"
#include "table/table.h"
#include "text/util.h"
#include "../common/check.h"

static int cmp_bits(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return (x > y) - (x < y);
}

/* The different non-NaN bit patterns of v[0..n). */
static size_t count_by_sorting(const double *v, size_t n)
{
	uint64_t *bits = isc_xmalloc((n ? n : 1) * sizeof(*bits));
	size_t m = 0, d = 0;
	for (size_t i = 0; i < n; i++)
		if (!isnan(v[i]))
			memcpy(&bits[m++], &v[i], sizeof(*bits));
	qsort(bits, m, sizeof(*bits), cmp_bits);
	for (size_t i = 0; i < m; i++)
		d += i == 0 || bits[i] != bits[i - 1];
	free(bits);
	return d;
}

/* Row i's value: from `range` values (runs of 3), every 50th empty, -0 and +0 among them. */
static double value_of(size_t i, size_t range, double step)
{
	if (i % 50 == 7)
		return NAN;
	if (i % 1000 == 11)
		return -0.0;
	size_t k = ((i / 3) * 2654435761u) % range;
	return (double)k * step;
}

static void check_doubles(size_t n, size_t range)
{
	struct isc_table *t = isc_table_new("distinct.csv");
	struct isc_column *c = isc_table_add_col(t, "V", ISC_COL_NUM);
	c->num = isc_xmalloc(n * sizeof(double));
	for (size_t i = 0; i < n; i++)
		c->num[i] = value_of(i, range, 0.37);
	t->nrows = n;
	size_t want = count_by_sorting(c->num, n), got = isc_count_values(t, c);
	CHECK_MSG(got == want, "doubles n=%zu range=%zu: %zu values, expected %zu", n, range, got, want);
	isc_table_free(t);
}

/* Values k / div for k < range (whole numbers for div 1), as doubles: the same count. */
static void check_whole(size_t n, size_t range, unsigned div)
{
	struct isc_table *t = isc_table_new("distinct.csv");
	struct isc_column *c = isc_table_add_col(t, "V", ISC_COL_NUM);
	c->num = isc_xmalloc(n * sizeof(double));
	for (size_t i = 0; i < n; i++)
		c->num[i] = (double)((i * 2654435761u) % range) / div;
	t->nrows = n;
	size_t want = count_by_sorting(c->num, n), got = isc_count_values(t, c);
	CHECK_MSG(got == want, "k / %u, n=%zu: %zu values, expected %zu", div, n, got, want);
	isc_table_free(t);
}

/* A packed column of width w at scale 2 (put as the reader stores them), its values from
 * value_of, some with more decimals (exceptions), and the same count as sorting them. */
static void check_packed(unsigned w, size_t n, size_t range, double step)
{
	struct isc_table *t = isc_table_new("distinct.csv");
	struct isc_column *c = isc_table_add_col(t, "V", ISC_COL_NUM);
	double *v = isc_xmalloc(n * sizeof(double));
	c->packed = isc_xmalloc(sizeof(*c->packed));
	isc_colpack_init(c->packed, w, 2);
	isc_colpack_reserve(c->packed, n);
	for (size_t i = 0; i < n; i++) {
		v[i] = i % 97 == 3 ? 0.125 + (double)(i % 5) : value_of(i, range, step);
		isc_colpack_put(c->packed, i, v[i]);
	}
	t->nrows = n;
	size_t want = count_by_sorting(v, n), got = isc_count_values(t, c);
	CHECK_MSG(c->packed->nx > 0, "width %u: no exceptions to count", w);
	CHECK_MSG(got == want, "packed width %u n=%zu range=%zu: %zu values, expected %zu", w, n, range, got,
		  want);
	free(v);
	isc_table_free(t);
}

int main(void)
{
	check_doubles(1, 1);
	check_doubles(5000, 40);
	check_doubles(200000, 150000);
	check_doubles(3000000, 2500000);   /* more than one set holds: counted in passes */
	check_whole(1000000, 300000, 1);   /* whole numbers and k / 1000: their low bits alike */
	check_whole(1000000, 300000, 1000);
	check_packed(1, 5000, 100, 0.01);
	check_packed(2, 100000, 20000, 0.01);
	check_packed(4, 300000, 250000, 0.01);
	check_packed(4, 300000, 250000, 80.01);  /* codes over more than 2^27: hashed as values */
	return CHECK_DONE();
}
