/*
 * --by COLUMN:N (analyze stats and diff): a numeric column grouped in N equal-width bins,
 * labelled "[lo, hi)" (the last "[lo, hi]"), lo and hi in the shortest form that reads back.
 */
#ifndef IDLESCOPE_BINS_H
#define IDLESCOPE_BINS_H
#include <stddef.h>

#include "idlescope/table.h"

#define IS_BY_MAX_BINS 10000
/* More distinct values than this in a numeric --by column without a bin count: binned. */
#define IS_BY_AUTO_LIMIT 100
#define IS_BY_AUTO_BINS 10

/* "LDist:10" -> *col "LDist" (malloc'd), *nbins 10: 1. A spec without ":": 0. A bad N: -1
 * after "--by SPEC: expected COLUMN:N with N a whole number from 1 to 10000". */
int is_by_bins_parse(const char *spec, char **col, size_t *nbins);
/* --by-bins N: N, or 0 after "--by-bins: expected a whole number from 1 to 10000, got 'X'". */
size_t is_by_bins_count(const char *arg, const char *cmd);
/* A bin's label (malloc'd). */
char *is_bin_label(double lo, double hi, int last);
/* The bin of v among nbins from lo, width wide (values beyond the ends go to the end bins). */
size_t is_bin_of(double v, double lo, double width, size_t nbins);
/* The nbins + 1 edges from lo to hi, equal-width; each inner edge the shortest decimal within
 * IS_BIN_EDGE_TOL widths of lo + width * b, so that labels read [1037.442, 2024.619) and not
 * 2024.6190000000001 (malloc'd). Rows are binned on these very edges (is_bin_find). */
#define IS_BIN_EDGE_TOL 1e-9
double *is_bin_edges(double lo, double hi, size_t nbins);
/* The bin of v: edges[b] <= v < edges[b + 1] (the last bin holds hi; values beyond the ends go
 * to the end bins). */
size_t is_bin_find(const double *edges, size_t nbins, double v);
/*
 * Bin numeric column col of every table on the same edges, from the smallest to the largest
 * value of all of them: each table gets a text column named name holding its rows' labels
 * ("" for a row without a value). The column must be numeric in every table.
 */
void is_bin_tables(struct is_table **t, size_t n, const char *col, size_t nbins, const char *name);
/*
 * --by COL[:N] over the tables of the runs compared (analyze diff, report): with nbins > 0 (or
 * a numeric COL with more than IS_BY_AUTO_LIMIT values in a table: IS_BY_AUTO_BINS bins, with
 * a note) is_bin_tables() into a text column "COL:N", which *group then names (a string of
 * t[0]); else *group = col. col must exist in every table. -1 after "FILE: --by COL:N: 'COL'
 * is a text column; bins need numbers".
 */
int is_by_group_tables(struct is_table **t, size_t n, const char *col, size_t nbins,
		       const char **group);

#endif
