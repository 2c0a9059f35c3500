/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * --by COLUMN[:N] (analyze stats, analyze diff, report): rows grouped by a column's value, or
 * a numeric column in N equal-width bins labelled "[lo, hi)" (the last "[lo, hi]"), lo and hi
 * in the shortest form that reads back.
 */
#ifndef IDLESCOPE_BINS_H
#define IDLESCOPE_BINS_H
#include <stddef.h>

#include "table/select.h"
#include "table/table.h"

#define ISC_BY_MAX_BINS 10000
/* More distinct values than this in a numeric --by column without a bin count: binned. */
#define ISC_BY_AUTO_LIMIT 100
#define ISC_BY_AUTO_BINS 10

/* --by-bins N: N, or 0 after "CMD: --by-bins: expected a whole number from 1 to 10000, got 'X'". */
size_t isc_by_bins_count(const char *arg, const char *cmd);
/*
 * --by SPEC (*by, NULL when not given) with *nbins from --by-bins (0 when not given): SPEC
 * "COL:N" makes *by and *col (malloc'd) COL and *nbins N. -1 after "--by SPEC: expected
 * COLUMN:N with N a whole number from 1 to 10000", or after "PREFIX--by-bins needs --by COLUMN".
 */
int isc_by_option(const char **by, char **col, size_t *nbins, const char *prefix);

/* A bin's label (malloc'd). */
char *isc_bin_label(double lo, double hi, int last);
/* The bin of v among nbins from lo, width wide (values beyond the ends go to the end bins). */
size_t isc_bin_of(double v, double lo, double width, size_t nbins);
/* The nbins + 1 edges from lo to hi, equal-width; each inner edge the shortest decimal within
 * ISC_BIN_EDGE_TOL widths of lo + width * b, so that labels read [1037.442, 2024.619) and not
 * 2024.6190000000001 (malloc'd). Rows are binned on these very edges (isc_bin_find). */
#define ISC_BIN_EDGE_TOL 1e-9
double *isc_bin_edges(double lo, double hi, size_t nbins);
/* The bin of v: edges[b] <= v < edges[b + 1] (the last bin holds hi; values beyond the ends go
 * to the end bins). */
size_t isc_bin_find(const double *edges, size_t nbins, double v);
/*
 * Bin numeric column col of every table on the same edges, from the smallest to the largest
 * value of all of them: each table gets a text column named name holding its rows' labels
 * ("" for a row without a value). The column must be numeric in every table.
 */
void isc_bin_tables(struct isc_table **t, size_t n, const char *col, size_t nbins, const char *name);
/*
 * --by COL[:N] over the tables of the runs compared (analyze diff, report): with nbins > 0 (or
 * a numeric COL with more than ISC_BY_AUTO_LIMIT values in a table: ISC_BY_AUTO_BINS bins, with
 * a note) isc_bin_tables() into a text column "COL:N", which *group then names (a string of
 * t[0]); else *group = col. col must exist in every table. -1 after "FILE: --by COL:N: 'COL'
 * is a text column; bins need numbers".
 */
int isc_by_group_tables(struct isc_table **t, size_t n, const char *col, size_t nbins,
		       const char **group);
/*
 * --by COL[:N] over one table (analyze stats), as groups: nbins > 0 bins numeric col into
 * nbins groups, rows without a value first in group "", then the bins that have rows;
 * nbins == 0 groups by value (isc_group_rows), but a numeric column with more than
 * ISC_BY_AUTO_LIMIT values is binned into ISC_BY_AUTO_BINS with a note. col must exist. -1
 * after a message (a text column with nbins > 0, as isc_by_group_tables).
 */
int isc_by_group_rows(const struct isc_table *t, const char *col, size_t nbins, struct isc_groups *g);

#endif
