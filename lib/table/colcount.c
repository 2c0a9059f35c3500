/* SPDX-License-Identifier: GPL-2.0-only */
/* Ranks and sorted values of a packed column from counts of its codes (colcount.h). */
#include "table/colcount.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "text/util.h"

/* As colpack.c: the scales' divisors, and the two lowest codes of a width are an empty cell
 * and "see the exceptions"; here codes are indexes, code - the width's lowest code. */
static const double pow10d[ISC_COLPACK_MAX_SCALE + 1] = { 1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9 };
enum { INDEX_NAN = 0, INDEX_EXC = 1, INDEX_FIRST_VALUE = 2 };
#define SETS 4   /* interleaved sets of counters for a range of rows, so that equal codes in a
		  * row do not wait for each other's increment (a column of 70 % zeros took 1.1 ms
		  * a million rows with one set, 0.4 ms with four) */

bool isc_colcount_applies(const struct isc_colpack *pk, size_t rows)
{
	return pk && (pk->width == 1 || pk->width == 2) && rows < UINT32_MAX;
}

static unsigned ncodes_of(unsigned width)
{
	return width == 1 ? 256 : 65536;
}

/* Room for either width's sets (4 x 65,536 counters, of which the codes' range is touched),
 * so that counting columns of both widths in turn needs no fresh memory. */
#define NCOUNTERS (SETS * 65536)

void isc_colcount_init(struct isc_colcount *cc, const struct isc_colpack *pk)
{
	memset(cc, 0, sizeof(*cc));
	cc->pk = pk;
	cc->ncodes = ncodes_of(pk->width);
	cc->counts = isc_xcalloc(NCOUNTERS, sizeof(uint32_t));
	cc->lo = cc->ncodes;
}

void isc_colcount_reset(struct isc_colcount *cc, const struct isc_colpack *pk)
{
	if (cc->ncodes == 256)   /* width 1: every set */
		memset(cc->counts, 0, (size_t)cc->ncodes * SETS * sizeof(uint32_t));
	else
		for (unsigned s = 0; s < SETS && cc->lo <= cc->hi; s++)
			memset(cc->counts + s * cc->ncodes + cc->lo, 0, (size_t)(cc->hi - cc->lo + 1) * sizeof(uint32_t));
	cc->pk = pk ? pk : cc->pk;
	cc->ncodes = ncodes_of(cc->pk->width);
	cc->lo = cc->ncodes;
	cc->hi = 0;
	cc->m = cc->nx = 0;
	cc->merged = false;
}

void isc_colcount_free(struct isc_colcount *cc)
{
	free(cc->counts);
	free(cc->xval);
	memset(cc, 0, sizeof(*cc));
}

static void add_exception(struct isc_colcount *cc, size_t row)
{
	if (cc->nx == cc->xcap) {
		cc->xcap = cc->xcap ? 2 * cc->xcap : 64;
		cc->xval = isc_xrealloc(cc->xval, cc->xcap * sizeof(double));
	}
	cc->xval[cc->nx++] = cc->pk->xval[isc_colpack_first_exception(cc->pk, row)];
}

static unsigned index_at(const struct isc_colpack *pk, size_t row)
{
	return pk->width == 1 ? (uint8_t)((const int8_t *)pk->codes)[row] ^ 0x80u
			      : (uint16_t)((const int16_t *)pk->codes)[row] ^ 0x8000u;
}

static void counted(struct isc_colcount *cc, size_t n, unsigned lo, unsigned hi)
{
	cc->lo = lo < cc->lo ? lo : cc->lo;
	cc->hi = hi > cc->hi ? hi : cc->hi;
	cc->m += n;   /* the empty cells are taken off when finishing */
}

/* The lowest and highest index among 2-byte codes: a signed minimum and maximum of the codes
 * (code order is index order), which the compiler does 8 or 16 codes at a time. */
static void code_span(const int16_t *c, size_t n, unsigned *lo, unsigned *hi)
{
	int16_t l = INT16_MAX, h = INT16_MIN;
	for (size_t i = 0; i < n; i++) {
		l = c[i] < l ? c[i] : l;
		h = c[i] > h ? c[i] : h;
	}
	unsigned li = (uint16_t)l ^ 0x8000u, hi_ = (uint16_t)h ^ 0x8000u;
	*lo = n && li < *lo ? li : *lo;
	*hi = n && hi_ > *hi ? hi_ : *hi;
}

void isc_colcount_range(struct isc_colcount *cc, size_t from, size_t n)
{
	const struct isc_colpack *pk = cc->pk;
	unsigned lo = cc->ncodes, hi = 0, w = cc->ncodes;
	uint32_t *k = cc->counts;
	if (pk->width == 1) {
		const uint8_t *c = (const uint8_t *)pk->codes + from;
		size_t i = 0;
		for (; i + SETS <= n; i += SETS)
			for (unsigned s = 0; s < SETS; s++)
				k[s * w + (c[i + s] ^ 0x80u)]++;
		for (; i < n; i++)
			k[c[i] ^ 0x80u]++;
		lo = 0, hi = 255;
	} else {
		/* a block at a time: counted, then its span while it is in the cache (tracking the
		 * span value by value cost as much as the counting) */
		for (size_t b = 0; b < n; b += 2048) {
			const uint16_t *c = (const uint16_t *)pk->codes + from + b;
			size_t len = n - b < 2048 ? n - b : 2048, i = 0;
			for (; i + SETS <= len; i += SETS)
				for (unsigned s = 0; s < SETS; s++)
					k[s * w + (c[i + s] ^ 0x8000u)]++;
			for (; i < len; i++)
				k[c[i] ^ 0x8000u]++;
			code_span((const int16_t *)c, len, &lo, &hi);
		}
	}
	counted(cc, n, lo, hi);
	for (size_t e = isc_colpack_first_exception(pk, from); e < pk->nx && pk->xrow[e] < from + n; e++)
		if (isc_colpack_is_exception(pk, pk->xrow[e]))   /* else a stale entry, as in decoding */
			add_exception(cc, pk->xrow[e]);
}

void isc_colcount_rows(struct isc_colcount *cc, const size_t *rows, size_t n)
{
	const struct isc_colpack *pk = cc->pk;
	unsigned lo = cc->ncodes, hi = 0;
	for (size_t i = 0; i < n; i++) {
		unsigned x = index_at(pk, rows[i]);
		cc->counts[x]++;
		lo = x < lo ? x : lo;
		hi = x > hi ? x : hi;
		if (x == INDEX_EXC)
			add_exception(cc, rows[i]);
	}
	counted(cc, n, lo, hi);
}

#define GATHER_COUNT(type, bias)                                                         \
	do {                                                                             \
		const type *c = (const type *)pk->codes;                                 \
		for (size_t i = 0; i < n; i++) {                                         \
			type v = c[rows[i]];                                             \
			unsigned x = (unsigned)((int)v + (bias));                        \
			cc->counts[x]++;                                                 \
			lo = x < lo ? x : lo;                                            \
			hi = x > hi ? x : hi;                                            \
			out[i] = (double)v / p;                                          \
			if (x <= INDEX_EXC)                                              \
				out[i] = special(cc, x, rows[i]);                        \
		}                                                                        \
	} while (0)

/* An empty cell's or an exception's value, the exception counted. */
static double special(struct isc_colcount *cc, unsigned x, size_t row)
{
	if (x == INDEX_NAN)
		return NAN;
	add_exception(cc, row);
	return cc->xval[cc->nx - 1];
}

void isc_colcount_gather(struct isc_colcount *cc, const size_t *rows, size_t n, double *out)
{
	const struct isc_colpack *pk = cc->pk;
	const double p = pow10d[pk->scale];
	unsigned lo = cc->ncodes, hi = 0;
	if (pk->width == 1)
		GATHER_COUNT(int8_t, 128);
	else
		GATHER_COUNT(int16_t, 32768);
	counted(cc, n, lo, hi);
}

static int cmp_double(const void *x, const void *y)
{
	double a = *(const double *)x, b = *(const double *)y;
	return (a > b) - (a < b);
}

size_t isc_colcount_values(struct isc_colcount *cc)
{
	if (!cc->merged) {
		for (unsigned s = 1; s < SETS; s++)
			for (unsigned k = cc->lo; k <= cc->hi; k++)   /* none when nothing was counted */
				cc->counts[k] += cc->counts[s * cc->ncodes + k];
		cc->merged = true;
		cc->m -= cc->counts[INDEX_NAN];
	}
	return cc->m;
}

/* Sort the exceptions: -1 when one is zero or NaN (no exact order). */
static int finish(struct isc_colcount *cc)
{
	isc_colcount_values(cc);
	for (size_t i = 0; i < cc->nx; i++)
		if (cc->xval[i] == 0 || isnan(cc->xval[i]))
			return -1;
	if (cc->nx > 1)
		qsort(cc->xval, cc->nx, sizeof(double), cmp_double);
	return 0;
}

/* Every value in ascending order as runs of equal values: emit(ctx, v, count, rank of the
 * first), until it returns false. */
typedef bool (*emit_fn)(void *ctx, double v, size_t count, size_t rank);

static void walk(const struct isc_colcount *cc, emit_fn emit, void *ctx)
{
	const double p = pow10d[cc->pk->scale];
	const int base = cc->pk->width == 1 ? -128 : -32768;
	size_t rank = 0, e = 0;
	for (unsigned k = cc->lo > INDEX_FIRST_VALUE ? cc->lo : INDEX_FIRST_VALUE; k <= cc->hi; k++) {
		size_t c = cc->counts[k];
		if (!c)
			continue;
		double v = (double)(base + (int)k) / p;
		for (; e < cc->nx && cc->xval[e] < v; e++, rank++)
			if (!emit(ctx, cc->xval[e], 1, rank))
				return;
		if (!emit(ctx, v, c, rank))
			return;
		rank += c;
	}
	for (; e < cc->nx; e++, rank++)
		if (!emit(ctx, cc->xval[e], 1, rank))
			return;
}

struct rank_ask {
	const size_t *idx;
	size_t ni, q;
	double *vals;
};

static bool answer_ranks(void *ctx, double v, size_t count, size_t rank)
{
	struct rank_ask *a = ctx;
	for (; a->q < a->ni && a->idx[a->q] < rank + count; a->q++)
		a->vals[a->q] = v;
	return a->q < a->ni;
}

int isc_colcount_ranks(struct isc_colcount *cc, const size_t *idx, size_t ni, double *vals)
{
	if (finish(cc) < 0)
		return -1;
	struct rank_ask a = { idx, ni, 0, vals };
	if (ni)
		walk(cc, answer_ranks, &a);
	return 0;
}

static bool write_run(void *ctx, double v, size_t count, size_t rank)
{
	double *out = (double *)ctx + rank;
	for (size_t i = 0; i < count; i++)
		out[i] = v;
	return true;
}

int isc_colcount_sorted(struct isc_colcount *cc, double *out)
{
	if (finish(cc) < 0)
		return -1;
	walk(cc, write_run, out);
	return 0;
}
