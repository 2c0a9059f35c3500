/* SPDX-License-Identifier: GPL-2.0-only */
/* Number columns as small integers with a decimal scale (colpack.h). */
#include "table/colpack.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "table/clones.h"
#include "table/numparse.h"
#include "text/util.h"

static const double pow10d[ISC_COLPACK_MAX_SCALE + 1] = { 1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9 };
const uint64_t isc_colpack_pow10u[ISC_COLPACK_MAX_SCALE + 1] = { 1, 10, 100, 1000, 10000, 100000, 1000000,
							    10000000, 100000000, 1000000000 };

/* The two lowest codes of a width are reserved: an empty cell and "see the exceptions". The
 * codes of values are symmetric, -limit..limit. */
static int64_t code_nan(unsigned width) { return -(INT64_C(1) << (8 * width - 1)); }
static int64_t code_exc(unsigned width) { return code_nan(width) + 1; }
static int64_t limit_of(unsigned width) { return -code_exc(width) - 1; }

bool isc_colpack_choose(double maxabs, unsigned maxdec, unsigned *width, unsigned *scale)
{
	if (maxdec > ISC_COLPACK_MAX_SCALE || !(maxabs >= 0))
		return false;
	double need = 2 * maxabs * pow10d[maxdec];  /* room for values twice the sample's */
	for (unsigned w = 1; w <= 4; w *= 2) {
		if (need <= (double)limit_of(w)) {
			*width = w;
			*scale = maxdec;
			return true;
		}
	}
	return false;
}

void isc_colpack_init(struct isc_colpack *pk, unsigned width, unsigned scale)
{
	memset(pk, 0, sizeof(*pk));
	pk->width = width;
	pk->scale = scale;
	pk->code_max = ((uint64_t)1 << (8 * width - 1)) - 2;
}

void isc_colpack_reserve(struct isc_colpack *pk, size_t rows)
{
	if (rows <= pk->cap)
		return;
	if (pk->borrowed) {
		void *own = isc_xmalloc(rows * pk->width);
		memcpy(own, pk->codes, pk->cap * pk->width);
		pk->codes = own;
		pk->borrowed = false;
	} else {
		pk->codes = isc_xrealloc(pk->codes, rows * pk->width);
	}
	pk->cap = rows;
}

void isc_colpack_use(struct isc_colpack *pk, void *mem, size_t rows)
{
	if (!pk->borrowed)
		free(pk->codes);
	pk->codes = mem;
	pk->cap = rows;
	pk->borrowed = true;
}

void isc_colpack_free(struct isc_colpack *pk)
{
	if (!pk->borrowed)
		free(pk->codes);
	free(pk->xrow);
	free(pk->xval);
	memset(pk, 0, sizeof(*pk));
}

static int64_t code_at(const struct isc_colpack *pk, size_t row)
{
	switch (pk->width) {
	case 1: return ((const int8_t *)pk->codes)[row];
	case 2: return ((const int16_t *)pk->codes)[row];
	default: return ((const int32_t *)pk->codes)[row];
	}
}

bool isc_colpack_is_exception(const struct isc_colpack *pk, size_t row)
{
	return code_at(pk, row) == code_exc(pk->width);
}

static inline void put_code(struct isc_colpack *pk, size_t row, int64_t code)
{
	switch (pk->width) {
	case 1: ((int8_t *)pk->codes)[row] = (int8_t)code; break;
	case 2: ((int16_t *)pk->codes)[row] = (int16_t)code; break;
	default: ((int32_t *)pk->codes)[row] = (int32_t)code; break;
	}
}

static void put_exception(struct isc_colpack *pk, size_t row, double d)
{
	while (pk->nx && pk->xrow[pk->nx - 1] >= row)  /* a row stored again replaces its value */
		pk->nx--;
	if (pk->nx == pk->xcap) {
		pk->xcap = pk->xcap ? 2 * pk->xcap : 64;
		pk->xrow = isc_xrealloc(pk->xrow, pk->xcap * sizeof(*pk->xrow));
		pk->xval = isc_xrealloc(pk->xval, pk->xcap * sizeof(*pk->xval));
	}
	pk->xrow[pk->nx] = row;
	pk->xval[pk->nx++] = d;
	put_code(pk, row, code_exc(pk->width));
}

void isc_colpack_put(struct isc_colpack *pk, size_t row, double d)
{
	if (isnan(d)) {
		put_code(pk, row, code_nan(pk->width));
		return;
	}
	double lim = (double)limit_of(pk->width), x = d * pow10d[pk->scale];
	if (fabs(x) <= lim) {
		int64_t code = (int64_t)nearbyint(x);
		double back = (double)code / pow10d[pk->scale];
		if (memcmp(&back, &d, sizeof(d)) == 0) {  /* -0 comes back as +0: an exception */
			put_code(pk, row, code);
			return;
		}
	}
	put_exception(pk, row, d);
}

const char *isc_colpack_parse_general(struct isc_colpack *pk, size_t row, const char *p, const char *end)
{
	double d;
	const char *stop = isc_parse_double_prefix(p, end, &d);
	if (stop)
		isc_colpack_put(pk, row, d);
	return stop;
}

void isc_colpack_trim(struct isc_colpack *pk, size_t nrows)
{
	while (pk->nx && pk->xrow[pk->nx - 1] >= nrows)
		pk->nx--;
}

void isc_colpack_append(struct isc_colpack *dst, size_t dst_rows, const struct isc_colpack *src,
			size_t src_rows)
{
	isc_colpack_reserve(dst, dst_rows + src_rows);
	if (src_rows)
		memmove((char *)dst->codes + dst_rows * dst->width, src->codes, src_rows * src->width);
	isc_colpack_trim(dst, dst_rows);
	for (size_t i = 0; i < src->nx && src->xrow[i] < src_rows; i++)
		put_exception(dst, dst_rows + src->xrow[i], src->xval[i]);
}

/* The exceptions of the kept rows, renumbered; before the codes move (their rows are read). */
static void keep_exceptions(struct isc_colpack *pk, size_t nrows, const unsigned char *keep)
{
	size_t nx = 0, r = 0, kept = 0;
	for (size_t e = 0; e < pk->nx && pk->xrow[e] < nrows; e++) {
		size_t row = pk->xrow[e];
		for (; r < row; r++)
			kept += keep[r] != 0;
		if (keep[row] && isc_colpack_is_exception(pk, row)) {  /* else dropped, or stale */
			pk->xrow[nx] = kept;
			pk->xval[nx++] = pk->xval[e];
		}
	}
	pk->nx = nx;
}

size_t isc_colpack_keep_rows(struct isc_colpack *pk, size_t nrows, const unsigned char *keep)
{
	size_t out;
	keep_exceptions(pk, nrows, keep);
	switch (pk->width) {
	case 1: ISC_KEEP_ROWS((int8_t *)pk->codes, nrows, keep, out); break;
	case 2: ISC_KEEP_ROWS((int16_t *)pk->codes, nrows, keep, out); break;
	default: ISC_KEEP_ROWS((int32_t *)pk->codes, nrows, keep, out); break;
	}
	return out;
}

/* The codes' bytes ORed a block at a time (vectorized), so that a column of other values is
 * told at its first block: every statistics task asks. */
bool isc_colpack_all_zero(const struct isc_colpack *pk, size_t n)
{
	const unsigned char *b = pk->codes;
	size_t len = n * pk->width;
	for (size_t at = 0; at < len; at += 4096) {
		size_t end = len - at < 4096 ? len : at + 4096;
		unsigned char any = 0;
		for (size_t i = at; i < end; i++)
			any |= b[i];
		if (any)
			return false;
	}
	return true;
}

size_t isc_colpack_first_exception(const struct isc_colpack *pk, size_t row)
{
	size_t lo = 0, hi = pk->nx;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (pk->xrow[mid] < row)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

static double special(const struct isc_colpack *pk, int64_t code, size_t row)
{
	return code == code_nan(pk->width) ? NAN : pk->xval[isc_colpack_first_exception(pk, row)];
}

#define DECODE_RANGE(type)                                                               \
	do {                                                                                 \
		const type *c = (const type *)pk->codes + from;                              \
		type lo = 0;                                                                 \
		for (size_t i = 0; i < n; i++) {                                             \
			out[i] = (double)c[i] / p;                                           \
			lo = c[i] < lo ? c[i] : lo;                                          \
		}                                                                            \
		for (size_t i = 0; lo <= exc && i < n; i++)  /* rare: a vector min first */ \
			if (c[i] <= exc)                                                     \
				out[i] = special(pk, c[i], from + i);                        \
	} while (0)

/* Cloned for AVX2: four divisions at once instead of two (the same IEEE quotients), a third
 * of the time of a 10 M-row column's decoding. Static: clang 14 names the clones of an
 * exported function so that other files cannot link to it. */
ISC_AVX2_CLONES
static void decode_range(const struct isc_colpack *pk, size_t from, size_t n, double *out)
{
	double p = pow10d[pk->scale];
	int64_t exc = code_exc(pk->width);
	switch (pk->width) {
	case 1: DECODE_RANGE(int8_t); break;
	case 2: DECODE_RANGE(int16_t); break;
	default: DECODE_RANGE(int32_t); break;
	}
}

void isc_colpack_decode(const struct isc_colpack *pk, size_t from, size_t n, double *out)
{
	decode_range(pk, from, n, out);
}

#define GATHER(type)                                                                     \
	do {                                                                                 \
		const type *c = (const type *)pk->codes;                                     \
		for (size_t i = 0; i < n; i++) {                                             \
			type v = c[rows[i]];                                                 \
			out[i] = v > exc ? (double)v / p : special(pk, v, rows[i]);          \
		}                                                                            \
	} while (0)

void isc_colpack_gather(const struct isc_colpack *pk, const size_t *rows, size_t n, double *out)
{
	double p = pow10d[pk->scale];
	int64_t exc = code_exc(pk->width);
	switch (pk->width) {
	case 1: GATHER(int8_t); break;
	case 2: GATHER(int16_t); break;
	default: GATHER(int32_t); break;
	}
}

#define GATHER_CODES(type)                                                               \
	do {                                                                                 \
		const type *c = (const type *)pk->codes;                                     \
		type *o = mem;                                                               \
		for (size_t i = 0; i < n; i++)                                               \
			o[i] = c[rows[i]];                                                   \
	} while (0)

bool isc_colpack_view_rows(const struct isc_colpack *pk, const size_t *rows, size_t n, void *mem,
			   struct isc_colpack *view)
{
	if (pk->nx)
		return false;
	switch (pk->width) {
	case 1: GATHER_CODES(int8_t); break;
	case 2: GATHER_CODES(int16_t); break;
	default: GATHER_CODES(int32_t); break;
	}
	*view = (struct isc_colpack){ .width = pk->width, .scale = pk->scale, .code_max = pk->code_max,
				      .codes = mem, .cap = n, .borrowed = true };
	return true;
}

/* Counts of the rows whose code is `nan` and whose code is `one`. */
#define COUNT_CODES(type)                                                                \
	do {                                                                                 \
		const type *c = (const type *)pk->codes;                                     \
		for (size_t i = 0; i < n; i++) {                                             \
			type v = rows ? c[rows[i]] : c[i];                                   \
			empty += v == (type)nan;                                             \
			set += v == (type)one;                                               \
		}                                                                            \
	} while (0)

typedef uint8_t v32u8 __attribute__((vector_size(32)));

/* How many of the n one-byte codes at c are x[0], x[1] and x[2]: 32 at a time into byte
 * counters, added up every 255 steps (an AVX2 clone, else two SSE2 halves). A byte at a
 * time, a flag column's check and counts took 0.4 ms each a million rows, before and after
 * the statistics, with the other CPU idle. */
ISC_AVX2_CLONES
static void byte_counts(const int8_t *c, size_t n, const int8_t x[3], size_t got[3])
{
	size_t i = 0;
	got[0] = got[1] = got[2] = 0;
	const uint8_t x0 = (uint8_t)x[0], x1 = (uint8_t)x[1], x2 = (uint8_t)x[2];
	while (n - i >= 32) {
		v32u8 a0 = { 0 }, a1 = { 0 }, a2 = { 0 };   /* unsigned: a comparison's -1 adds one */
		for (size_t steps = 0; steps < 255 && n - i >= 32; steps++, i += 32) {
			v32u8 v;
			memcpy(&v, c + i, sizeof(v));
			a0 -= (v32u8)(v == x0);
			a1 -= (v32u8)(v == x1);
			a2 -= (v32u8)(v == x2);
		}
		for (int l = 0; l < 32; l++) {
			got[0] += a0[l];
			got[1] += a1[l];
			got[2] += a2[l];
		}
	}
	for (; i < n; i++)
		for (int k = 0; k < 3; k++)
			got[k] += c[i] == x[k];
}

bool isc_colpack_flag_counts(const struct isc_colpack *pk, const size_t *rows, size_t n, size_t *values,
			     size_t *set_out)
{
	int64_t one = (int64_t)isc_colpack_pow10u[pk->scale], nan = code_nan(pk->width);
	if (one > limit_of(pk->width))
		return false;  /* 1 would be an exception: the caller decodes */
	size_t empty = 0, set = 0;
	if (pk->width == 1 && !rows) {
		const int8_t x[3] = { (int8_t)nan, (int8_t)one, (int8_t)nan };
		size_t got[3];
		byte_counts(pk->codes, n, x, got);
		empty = got[0];
		set = got[1];
	} else switch (pk->width) {
	case 1: COUNT_CODES(int8_t); break;
	case 2: COUNT_CODES(int16_t); break;
	default: COUNT_CODES(int32_t); break;
	}
	*values = n - empty;  /* an exception is a value, never NaN (that is a code) */
	*set_out = set;
	return true;
}

bool isc_colpack_is_flags(const struct isc_colpack *pk, size_t n, bool *flags)
{
	int64_t one = (int64_t)isc_colpack_pow10u[pk->scale], nan = code_nan(pk->width);
	if (pk->nx || one > limit_of(pk->width))
		return false;  /* exceptions: values other than 0 and 1 are possible, decode */
	bool ok = true;
	for (size_t i = 0; pk->width == 1 && i < n && ok; i += 65536) {  /* a block at a time */
		const int8_t x[3] = { 0, (int8_t)one, (int8_t)nan };
		size_t got[3], len = n - i < 65536 ? n - i : 65536;
		byte_counts((const int8_t *)pk->codes + i, len, x, got);
		ok = got[0] + got[1] + got[2] == len;
	}
	for (size_t i = 0; pk->width != 1 && i < n && ok; i++) {
		int64_t v = pk->width == 1 ? ((const int8_t *)pk->codes)[i]
			  : pk->width == 2 ? ((const int16_t *)pk->codes)[i] : ((const int32_t *)pk->codes)[i];
		ok = v == 0 || v == one || v == nan;
	}
	*flags = ok;
	return true;
}

#define CODE_SPAN(type)                                                                  \
	do {                                                                             \
		const type *c = (const type *)pk->codes;                                 \
		for (size_t i = 0; i < n; i++)                                           \
			if (c[i] > exc) {                                                \
				lo = c[i] < lo ? c[i] : lo;                              \
				hi = c[i] > hi ? c[i] : hi;                              \
			}                                                                \
	} while (0)

#define CODE_MARK(type)                                                                  \
	do {                                                                             \
		const type *c = (const type *)pk->codes;                                 \
		for (size_t i = 0; i < n; i++)                                           \
			if (c[i] > exc)                                                  \
				seen[(uint64_t)(c[i] - lo) >> 6] |= 1ULL << ((c[i] - lo) & 63); \
	} while (0)

bool isc_colpack_count_codes(const struct isc_colpack *pk, size_t n, size_t max_span, size_t *count)
{
	int64_t exc = code_exc(pk->width), lo = INT64_MAX, hi = INT64_MIN;
	switch (pk->width) {
	case 1: CODE_SPAN(int8_t); break;
	case 2: CODE_SPAN(int16_t); break;
	default: CODE_SPAN(int32_t); break;
	}
	*count = 0;
	if (lo > hi)
		return true;
	if ((uint64_t)(hi - lo) >= max_span)
		return false;
	size_t words = (size_t)((uint64_t)(hi - lo) / 64 + 1);
	uint64_t *seen = isc_xcalloc(words, sizeof(*seen));
	switch (pk->width) {
	case 1: CODE_MARK(int8_t); break;
	case 2: CODE_MARK(int16_t); break;
	default: CODE_MARK(int32_t); break;
	}
	for (size_t w = 0; w < words; w++)
		*count += (size_t)__builtin_popcountll(seen[w]);
	free(seen);
	return true;
}
