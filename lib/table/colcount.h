/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Order statistics of a packed column (colpack.h) by counting its codes: code / 10^scale is
 * monotonic, so the codes' order is the values' order, and a count per code (256 or 65,536
 * counters) answers any rank, or writes the values in ascending order, in O(rows + codes),
 * each value decoded as isc_colpack_decode does (the same double). Exceptions are merged in
 * by value; empty cells are not counted. Widths 1 and 2 only (4-byte codes span too much).
 */
#ifndef IDLESCOPE_COLCOUNT_H
#define IDLESCOPE_COLCOUNT_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "table/colpack.h"

struct isc_colcount {
	const struct isc_colpack *pk;
	uint32_t *counts;        /* per code - the width's lowest code, in 4 interleaved sets of ncodes */
	unsigned ncodes;         /* 256 or 65,536: pk's width */
	unsigned lo, hi;         /* the lowest and highest counted index (lo > hi: none) */
	size_t m;                /* rows counted; isc_colcount_values takes the empty ones off */
	double *xval;            /* the exceptions among the counted rows (sorted when finished) */
	size_t nx, xcap;
	bool merged;             /* the interleaved sets added up into the first, m the values */
};

/* Whether pk's codes can be counted: width 1 or 2, and rows fewer than 2^32. */
bool isc_colcount_applies(const struct isc_colpack *pk, size_t rows);

/* Counters for either width, all zero; pk's width first. */
void isc_colcount_init(struct isc_colcount *cc, const struct isc_colpack *pk);
/* Forget what was counted, to count again (pk: the next column, either width; NULL: the same). */
void isc_colcount_reset(struct isc_colcount *cc, const struct isc_colpack *pk);
void isc_colcount_free(struct isc_colcount *cc);

/* Count rows [from, from + n); rows rows[0..n). */
void isc_colcount_range(struct isc_colcount *cc, size_t from, size_t n);
void isc_colcount_rows(struct isc_colcount *cc, const size_t *rows, size_t n);
/* isc_colcount_rows, and the rows' values into out as isc_colpack_gather gives them. */
void isc_colcount_gather(struct isc_colcount *cc, const size_t *rows, size_t n, double *out);

/* After counting (no more counting then, until a reset): how many values, rows not empty. */
size_t isc_colcount_values(struct isc_colcount *cc);

/*
 * After counting: the values of ascending ranks idx[0..ni) (each below the values) into vals.
 * -1 when the order is not exact: an exception is zero (-0.0 and +0.0 compare equal, and a
 * selection or sort may give either at that rank) or NaN; then use the general path.
 */
int isc_colcount_ranks(struct isc_colcount *cc, const size_t *idx, size_t ni, double *vals);
/* The cc->m values in ascending order into out; -1 as above (out untouched). */
int isc_colcount_sorted(struct isc_colcount *cc, double *out);

#endif
