/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A number column kept as small integers: value = code / 10^scale, in 1, 2 or 4 bytes a row
 * instead of 8. The text "96.35" is the integer 9635 at scale 2, and 9635.0 / 100.0 is one
 * correctly rounded IEEE division of two exact doubles, so it is the same double as parsing
 * the text. A value that has no such code (more decimals, too large, -0) is kept whole in a
 * list of exceptions; an empty cell is a reserved code. Less fresh memory to zero is the
 * point: on the VMs this runs on, the kernel zeroing new pages was half the load time.
 */
#ifndef IDLESCOPE_COLPACK_H
#define IDLESCOPE_COLPACK_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define ISC_COLPACK_MAX_SCALE 9

struct isc_colpack {
	unsigned width;          /* bytes a code: 1, 2 or 4 */
	unsigned scale;          /* decimals: value = code / 10^scale */
	uint64_t code_max;       /* the largest |code| of a value (the two above are reserved) */
	void *codes;
	size_t cap;              /* rows there is room for */
	bool borrowed;           /* codes are in memory the column does not own (an arena) */
	size_t nx, xcap;         /* exceptions: rows in ascending order and their values */
	size_t *xrow;
	double *xval;
};

/* The width and scale for a column whose values in a sample had at most maxdec decimals
 * and at most maxabs in magnitude; false when packing would not pay (8-byte values). */
bool isc_colpack_choose(double maxabs, unsigned maxdec, unsigned *width, unsigned *scale);

void isc_colpack_init(struct isc_colpack *pk, unsigned width, unsigned scale);
void isc_colpack_reserve(struct isc_colpack *pk, size_t rows);
/* Codes at mem, room for rows, owned by the caller (until a reserve needs more). */
void isc_colpack_use(struct isc_colpack *pk, void *mem, size_t rows);
void isc_colpack_free(struct isc_colpack *pk);

/* Store row's value (rows are stored in ascending order; NaN is an empty cell). */
void isc_colpack_put(struct isc_colpack *pk, size_t row, double d);
/* Parse the number at the start of [p, end) into row, as isc_parse_double_prefix would:
 * returns where it stops, or NULL when there is no number (nothing is stored then). Inline
 * (the CSV reader's inner loop): the common short number here, the rest out of line. */
static inline const char *isc_colpack_parse(struct isc_colpack *pk, size_t row, const char *p,
					    const char *end);
const char *isc_colpack_parse_general(struct isc_colpack *pk, size_t row, const char *p, const char *end);

/* Forget the exceptions of rows >= nrows (a dropped last line). */
void isc_colpack_trim(struct isc_colpack *pk, size_t nrows);
/* Append src's rows [0, src_rows) after dst's first dst_rows rows (same width and scale);
 * src's codes may lie in dst's room, after those rows. */
void isc_colpack_append(struct isc_colpack *dst, size_t dst_rows, const struct isc_colpack *src,
			size_t src_rows);

/* The values v[r] of the rows r < n with keep[r] != 0 moved to the front, in order (each
 * written whether kept or not: no branch), and their count in the size_t kept. For arrays of
 * any element type: codes here, doubles and text ids in isc_table_keep_rows. */
#define ISC_KEEP_ROWS(v, n, keep, kept)                                                  \
	do {                                                                             \
		size_t out_ = 0;                                                         \
		for (size_t r_ = 0; r_ < (n); r_++) {                                    \
			(v)[out_] = (v)[r_];                                             \
			out_ += (keep)[r_] != 0;                                         \
		}                                                                        \
		(kept) = out_;                                                           \
	} while (0)

/* Keep only rows r < nrows with keep[r] != 0, in order, in place (their exceptions too);
 * returns how many. */
size_t isc_colpack_keep_rows(struct isc_colpack *pk, size_t nrows, const unsigned char *keep);

/* The index in xrow of the first exception at a row >= row (nx if none). */
size_t isc_colpack_first_exception(const struct isc_colpack *pk, size_t row);

/* Values of rows [from, from + n) into out. */
void isc_colpack_decode(const struct isc_colpack *pk, size_t from, size_t n, double *out);
/* Values of rows[0..n) into out. */
void isc_colpack_gather(const struct isc_colpack *pk, const size_t *rows, size_t n, double *out);

/* The rows rows[0..n) of pk as a column of their own, in *view: their codes copied to mem
 * (n * width bytes, owned by the caller), so that passes over them read the codes in order
 * instead of through the row list each time. False when pk has exceptions (they are found
 * by row), and view is then untouched. */
bool isc_colpack_view_rows(const struct isc_colpack *pk, const size_t *rows, size_t n, void *mem,
			   struct isc_colpack *view);

/* A 0/1 column's counts over rows[0..n) (rows 0..n-1 when NULL): rows with a value and
 * rows that are 1, from the codes; false when 1 has no code (the caller decodes instead). */
bool isc_colpack_flag_counts(const struct isc_colpack *pk, const size_t *rows, size_t n, size_t *values,
			     size_t *set);
/* Whether rows 0..n-1 are all 0, 1 or empty, in *flags, from the codes; false when the codes
 * cannot tell (exceptions, or 1 has no code). */
bool isc_colpack_is_flags(const struct isc_colpack *pk, size_t n, bool *flags);

/* How many different codes rows 0..n-1 hold (empty cells and exceptions not counted), in
 * *count; false when their span is wider than max_span (a bitmap of it would be too big).
 * A value with a code has no other (isc_colpack_put), so these are its different values,
 * and no exception equals one of them. */
bool isc_colpack_count_codes(const struct isc_colpack *pk, size_t n, size_t max_span, size_t *count);
/* Whether rows 0..n-1 all hold the value +0 (code 0: no empty cell, no exception). */
bool isc_colpack_all_zero(const struct isc_colpack *pk, size_t n);
/* Whether row holds an exception: an entry of xrow whose row holds a code since is stale
 * (a row stored again), and decoding skips it. */
bool isc_colpack_is_exception(const struct isc_colpack *pk, size_t row);

extern const uint64_t isc_colpack_pow10u[ISC_COLPACK_MAX_SCALE + 1];

/* [-]digits[.digits] with at most 18 digits, at most scale decimals and a value below 2^32,
 * followed by none of digit, '.', 'e' or 'E': the value times 10^scale in *m; else NULL (the
 * general parser). A byte at a time: eight at a time (SWAR) was slower for these short
 * numbers (issue 28, docs/performance.md). With stopped (ISC_NP_STOPPED) the caller promises
 * a terminator at or before end, a byte that is none of digit, '.', 'e' and 'E', and the
 * checks against end are left out; the number must then end the field (a comma, a newline
 * or end), anything else goes to the general parser. More than 18 digits wrap v (unsigned)
 * and are refused. */
static inline __attribute__((always_inline)) const char *isc_colpack_scaled(const char *p, const char *end,
									    unsigned scale, uint64_t *m,
									    int *neg, int stopped)
{
	uint64_t v = 0;
	*neg = (stopped || p < end) && *p == '-';
	p += *neg;
	const char *first = p;
	for (; (stopped || p < end) && (unsigned)(*p - '0') < 10; p++)
		v = v * 10 + (uint64_t)(*p - '0');
	size_t nd = (size_t)(p - first), dec = 0;
	if ((stopped || p < end) && *p == '.') {
		const char *frac = ++p, *lim = frac + scale;
		for (; p < lim && (stopped || p < end) && (unsigned)(*p - '0') < 10; p++)
			v = v * 10 + (uint64_t)(*p - '0');
		dec = (size_t)(p - frac);
		nd += dec;
	}
	if (nd == 0 || nd > 18)
		return NULL;
	if (stopped ? !(*p == ',' || *p == '\n' || p == end)  /* what a field ends with, or else */
		    : p < end && ((unsigned)(*p - '0') < 10 || *p == '.' || *p == 'e' || *p == 'E'))
		return NULL;
	*m = v * isc_colpack_pow10u[scale - dec];
	return v >> 32 ? NULL : p;  /* far beyond any code; no overflow below (2^32 * 10^9 < 2^62) */
}

static inline __attribute__((always_inline)) const char *colpack_parse(struct isc_colpack *pk, size_t row,
								       const char *p, const char *end,
								       int stopped)
{
	uint64_t m;
	int neg;
	const char *stop = isc_colpack_scaled(p, end, pk->scale, &m, &neg, stopped);
	if (!stop || m > pk->code_max || (neg && m == 0))
		return isc_colpack_parse_general(pk, row, p, end);
	int64_t code = neg ? -(int64_t)m : (int64_t)m;
	switch (pk->width) {
	case 1: ((int8_t *)pk->codes)[row] = (int8_t)code; break;
	case 2: ((int16_t *)pk->codes)[row] = (int16_t)code; break;
	default: ((int32_t *)pk->codes)[row] = (int32_t)code; break;
	}
	return stop;
}

static inline const char *isc_colpack_parse(struct isc_colpack *pk, size_t row, const char *p,
					    const char *end)
{
	return colpack_parse(pk, row, p, end, 0);
}

/* isc_colpack_parse for p < end in a line whose terminator (none of digit, '.', 'e' and 'E')
 * comes at or before end. */
static inline const char *isc_colpack_parse_stopped(struct isc_colpack *pk, size_t row, const char *p,
						    const char *end)
{
	return colpack_parse(pk, row, p, end, 1);
}

#endif
