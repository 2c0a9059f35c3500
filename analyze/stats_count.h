/* SPDX-License-Identifier: GPL-2.0-only */
/* analyze stats: a packed column's quantiles from counts of its codes (table/colcount.h)
 * instead of the brackets and a selection; the same doubles. */
#ifndef ANALYZE_STATS_COUNT_H
#define ANALYZE_STATS_COUNT_H
#include <stdbool.h>
#include <stddef.h>

#include "stats/stats.h"
#include "table/colcount.h"
#include "table/table.h"

/* A worker's counters, kept across its tasks (zeroed where used, not all 65,536 a task). */
struct stats_count {
	struct isc_colcount cc;
	const size_t *rows;      /* NULL: all rows */
	size_t n;
	bool counted;            /* the rows' codes are in cc */
};

/* The rank answer for column c's rows rows[0..n) (NULL: rows 0..n-1), in ra; NULL when c is
 * not packed or its codes are not countable. */
const struct isc_rank_answer *stats_count_answer(struct stats_count *sc, const struct isc_column *c,
						  const size_t *rows, size_t n, struct isc_rank_answer *ra);
/* After an answer for a group's rows: their values into out (as isc_col_gather), counted on
 * the way, so that the ranks need no second visit of the rows. */
void stats_count_gather(struct stats_count *sc, double *out);
void stats_count_free(struct stats_count *sc);

#endif
