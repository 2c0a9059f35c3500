/* SPDX-License-Identifier: GPL-2.0-only */
/* A run's sorted samples of a packed metric by counting its codes (table/colcount.h), in
 * place of sorting the decoded values: the same arrays, in O(rows + codes). */
#ifndef IDLESCOPE_DIFF_COUNT_H
#define IDLESCOPE_DIFF_COUNT_H
#include <stdbool.h>
#include <stddef.h>

#include "table/colcount.h"
#include "table/table.h"

/* Whether column c of a table of nrows rows is counted (packed, 1 or 2 bytes a code). */
bool diff_count_applies(const struct isc_column *c, size_t nrows);

/* Rows rows[0..n) of c counted into cc (set up or reset here: cc->counts NULL at first) and
 * their values in row order, NaN left out, into out; returns how many values. */
size_t diff_count_rows(struct isc_colcount *cc, const struct isc_column *c, const size_t *rows,
		       size_t n, double *out);
/* Rows [0, nrows) of c counted into cc (as above); returns how many values (not empty). */
size_t diff_count_all(struct isc_colcount *cc, const struct isc_column *c, size_t nrows);

/* The m counted values in ascending order into out, as isc_sort_doubles sorts them; false
 * when their order is not exact (an exception is zero) or m is not what was counted: then
 * sort. */
bool diff_count_sorted(struct isc_colcount *cc, size_t m, double *out);

#endif
