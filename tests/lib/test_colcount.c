/* SPDX-License-Identifier: GPL-2.0-only */
/* Ranks and sorted values of packed columns by counting codes (lib/table/colcount.h): the
 * very doubles of decoding, sorting (isc_sort_doubles) and selecting (analyze stats' path),
 * over random columns of widths 1 and 2 and scales 0-9, with empty cells and exceptions,
 * sizes at the edges, all rows and gathered groups. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "stats/sigtest.h"
#include "stats/stats.h"
#include "table/colcount.h"
#include "../common/check.h"

static bool same_bits(const double *a, const double *b, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (memcmp(&a[i], &b[i], sizeof(double)) && !(isnan(a[i]) && isnan(b[i])))
			return false;
	return true;
}

enum { WITH_EMPTY = 1, WITH_EXC = 2, WITH_ZERO_EXC = 4, FEW_CODES = 8 };

/* A random value of the column: a code's value (ties when FEW_CODES), else what the flags
 * allow: an empty cell, an exception (more decimals, too large, infinite), a -0.0. */
static double random_value(unsigned width, unsigned scale, int flags)
{
	int limit = width == 1 ? 126 : 32766, kind = rand() % 50;
	double p = pow(10, scale);
	if ((flags & WITH_EMPTY) && kind == 0)
		return NAN;
	if ((flags & WITH_EXC) && kind == 1)
		return (rand() % limit + 0.5) / p / (scale < 9 ? 1 : 10);
	if ((flags & WITH_EXC) && kind == 2)
		return (rand() % 2 ? -1 : 1) * (limit + 1 + rand() % 1000) / p;
	if ((flags & WITH_EXC) && kind == 3)
		return rand() % 2 ? INFINITY : -INFINITY;
	if ((flags & WITH_ZERO_EXC) && kind == 4)
		return -0.0;
	int code = flags & FEW_CODES ? rand() % 7 - 3 : rand() % (2 * limit + 1) - limit;
	return (double)code / p;
}

static void fill(struct isc_colpack *pk, unsigned width, unsigned scale, size_t n, int flags)
{
	isc_colpack_init(pk, width, scale);
	isc_colpack_reserve(pk, n + 1);
	for (size_t i = 0; i < n; i++)
		isc_colpack_put(pk, i, random_value(width, scale, flags));
}

static size_t drop_nan(double *a, size_t n)
{
	size_t m = 0;
	for (size_t i = 0; i < n; i++)
		if (!isnan(a[i]))
			a[m++] = a[i];
	return m;
}

/* The reference: the values (rows NULL: all n rows) decoded, NaN out, sorted. */
static size_t reference(const struct isc_colpack *pk, const size_t *rows, size_t n, double *out,
			double *tmp)
{
	if (rows)
		isc_colpack_gather(pk, rows, n, out);
	else
		isc_colpack_decode(pk, 0, n, out);
	size_t m = drop_nan(out, n);
	isc_sort_doubles(out, m, tmp);
	return m;
}

/* Ranks 0, 1, m/2, m-2, m-1 and a few random ones, ascending and unique. */
static size_t some_ranks(size_t m, size_t *idx)
{
	size_t k = 0, cand[12] = { 0, 1, m / 2, m - 2, m - 1 };
	for (int i = 5; i < 12; i++)
		cand[i] = (size_t)rand() % m;
	for (int i = 0; i < 12; i++) {
		if (cand[i] >= m)
			continue;
		size_t j = k;
		while (j > 0 && idx[j - 1] > cand[i])
			j--;
		if (j > 0 && idx[j - 1] == cand[i])
			continue;
		memmove(idx + j + 1, idx + j, (k - j) * sizeof(size_t));
		idx[j] = cand[i];
		k++;
	}
	return k;
}

static bool has_zero_exception(const double *sorted, size_t m)
{
	for (size_t i = 0; i < m; i++)
		if (sorted[i] == 0 && signbit(sorted[i]))
			return true;
	return false;
}

struct counter {
	struct isc_colcount cc;
	const size_t *rows;
	size_t n;
};

/* What analyze stats does: count when asked, answer the ranks. */
static int count_ranks(void *ctx, size_t m, const size_t *idx, size_t ni, double *vals)
{
	struct counter *c = ctx;
	isc_colcount_reset(&c->cc, NULL);
	if (c->rows)
		isc_colcount_rows(&c->cc, c->rows, c->n);
	else
		isc_colcount_range(&c->cc, 0, c->n);
	return isc_colcount_values(&c->cc) == m ? isc_colcount_ranks(&c->cc, idx, ni, vals) : -1;
}

static struct isc_func *funcs;
static size_t nfuncs;

/* The statistics with the counted ranks against isc_stats_compute on the values. */
static void check_stats(struct counter *c, const double *vals, size_t n, double *buf, const char *what)
{
	double want[32], got[32];
	const struct isc_rank_answer ra = { count_ranks, c };
	isc_stats_compute(vals, n, funcs, nfuncs, want, buf);
	memcpy(buf, vals, n * sizeof(double));
	isc_stats_compute_inplace_ranked(buf, n, funcs, nfuncs, got, &ra);
	CHECK_MSG(same_bits(got, want, nfuncs), "%s: counted stats differ (med %.17g, want %.17g)", what,
		  got[5], want[5]);
}

static void check_case(struct counter *c, unsigned width, unsigned scale, size_t n, int flags,
		       double *a, double *b, double *tmp, size_t *rows)
{
	struct isc_colpack pk;
	char what[96];
	size_t idx[12], ni;
	double vals[12];
	snprintf(what, sizeof(what), "width %u scale %u n %zu flags %d", width, scale, n, flags);
	fill(&pk, width, scale, n, flags);
	isc_colcount_reset(&c->cc, &pk);

	/* all rows: sorted and ranks */
	size_t m = reference(&pk, NULL, n, a, tmp);
	bool zero = has_zero_exception(a, m);
	isc_colcount_range(&c->cc, 0, n);
	CHECK_MSG(isc_colcount_values(&c->cc) == m, "%s: %zu values, want %zu", what, c->cc.m, m);
	int rc = isc_colcount_sorted(&c->cc, b);
	CHECK_MSG(rc == (zero ? -1 : 0), "%s: sorted returned %d", what, rc);
	CHECK_MSG(rc < 0 || same_bits(a, b, m), "%s: counted sort differs", what);
	ni = m ? some_ranks(m, idx) : 0;
	rc = isc_colcount_ranks(&c->cc, idx, ni, vals);
	for (size_t i = 0; rc == 0 && i < ni; i++)
		CHECK_MSG(same_bits(&vals[i], &a[idx[i]], 1), "%s: rank %zu is %.17g, want %.17g", what,
			  idx[i], vals[i], a[idx[i]]);
	c->rows = NULL;
	c->n = n;
	isc_colpack_decode(&pk, 0, n, a);
	check_stats(c, a, n, b, what);

	/* a group: every third row or so, gathered and counted at once */
	size_t k = 0;
	for (size_t i = 0; i < n; i++)
		if (rand() % 3 == 0)
			rows[k++] = i;
	isc_colcount_reset(&c->cc, NULL);
	isc_colcount_gather(&c->cc, rows, k, b);
	isc_colpack_gather(&pk, rows, k, a);
	CHECK_MSG(same_bits(a, b, k), "%s: gathered values differ", what);
	m = reference(&pk, rows, k, a, tmp);
	zero = has_zero_exception(a, m);
	rc = isc_colcount_sorted(&c->cc, b);
	CHECK_MSG(isc_colcount_values(&c->cc) == m && rc == (zero ? -1 : 0), "%s: group of %zu", what, k);
	CHECK_MSG(rc < 0 || same_bits(a, b, m), "%s: group's counted sort differs", what);
	c->rows = rows;
	c->n = k;
	isc_colpack_gather(&pk, rows, k, a);
	check_stats(c, a, k, b, what);
	isc_colpack_free(&pk);
}

/* Distinct values in a shuffled order: rank r must be the r-th smallest code's value, not
 * a neighbour's. */
static void check_exact_ranks(struct counter *c)
{
	struct isc_colpack pk;
	enum { N = 1000 };
	int codes[N];
	for (int i = 0; i < N; i++)
		codes[i] = i - 500;
	for (int i = N - 1; i > 0; i--) {
		int j = rand() % (i + 1), t = codes[i];
		codes[i] = codes[j];
		codes[j] = t;
	}
	isc_colpack_init(&pk, 2, 3);
	isc_colpack_reserve(&pk, N);
	for (size_t i = 0; i < N; i++)
		isc_colpack_put(&pk, i, codes[i] / 1000.0);
	isc_colcount_reset(&c->cc, &pk);
	isc_colcount_range(&c->cc, 0, N);
	size_t idx[] = { 0, 1, 249, 250, 499, 500, 998, 999 };
	double vals[8];
	CHECK(isc_colcount_ranks(&c->cc, idx, 8, vals) == 0);
	for (int i = 0; i < 8; i++)
		CHECK_EQ_DBL(vals[i], ((double)idx[i] - 500) / 1000.0);
	isc_colpack_free(&pk);
}

/* Above 2^20 values analyze stats reads a column in pieces through a source. */
static const double *decode_get(void *ctx, size_t from, size_t n, double *buf)
{
	isc_colpack_decode(ctx, from, n, buf);
	return buf;
}

static void check_pieces(struct counter *c, double *a, double *b)
{
	struct isc_colpack pk;
	size_t n = ((size_t)1 << 20) + 5;
	double want[32], got[32];
	fill(&pk, 2, 2, n, WITH_EMPTY | WITH_EXC);
	isc_colcount_reset(&c->cc, &pk);
	c->rows = NULL;
	c->n = n;
	isc_colpack_decode(&pk, 0, n, a);
	isc_stats_compute(a, n, funcs, nfuncs, want, b);
	const struct isc_value_source src = { decode_get, &pk };
	const struct isc_rank_answer ra = { count_ranks, c };
	isc_stats_compute_source_ranked(&src, n, funcs, nfuncs, got, &ra);
	CHECK_MSG(same_bits(got, want, nfuncs), "pieces: counted stats differ");
	isc_colpack_free(&pk);
}

int main(void)
{
	static const size_t sizes[] = { 0, 1, 2, 3, 4, 5, 7, 255, 256, 257, 2047, 2048, 2049,
					65535, 65536, 65537, 200003 };
	static const int flag_sets[] = { 0, WITH_EMPTY, WITH_EXC, WITH_EMPTY | WITH_EXC | FEW_CODES,
					 WITH_EMPTY | WITH_EXC | WITH_ZERO_EXC, FEW_CODES };
	size_t cap = ((size_t)1 << 20) + 8;
	double *a = malloc(cap * sizeof(double)), *b = malloc(cap * sizeof(double));
	double *tmp = malloc(2 * cap * sizeof(double));
	size_t *rows = malloc(cap * sizeof(size_t));
	char err[128];
	struct isc_colpack first;
	struct counter c = { 0 };
	if (isc_funcs_parse("count,min,max,avg,std,med,1%,25%,75%,99%,99.9%,99.99%,99.999%", &funcs,
			    &nfuncs, err, sizeof(err)) < 0)
		return 1;
	srand(28);
	isc_colpack_init(&first, 1, 0);
	isc_colcount_init(&c.cc, &first);
	for (unsigned width = 1; width <= 2; width++)
		for (unsigned scale = 0; scale <= ISC_COLPACK_MAX_SCALE; scale++)
			for (size_t s = 0; s < sizeof(sizes) / sizeof(sizes[0]); s++)
				for (size_t f = 0; f < sizeof(flag_sets) / sizeof(flag_sets[0]); f++)
					if (sizes[s] < 65535 || (f % 3 == 0 && scale % 3 == 0))
						check_case(&c, width, scale, sizes[s], flag_sets[f], a, b, tmp, rows);
	check_exact_ranks(&c);
	check_pieces(&c, a, b);
	for (unsigned width = 1; width <= 2; width++)   /* the counters from one width to the other */
		for (unsigned w = 1; w <= 2; w++)
			check_case(&c, w, 2, 2049, WITH_EMPTY | WITH_EXC | (width == 2 ? FEW_CODES : 0), a, b,
				   tmp, rows);
	CHECK(!isc_colcount_applies(&first, (size_t)UINT32_MAX));
	first.width = 4;
	CHECK(!isc_colcount_applies(&first, 10));
	isc_colcount_free(&c.cc);
	free(funcs);
	free(a);
	free(b);
	free(tmp);
	free(rows);
	return CHECK_DONE();
}
