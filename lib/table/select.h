/* SPDX-License-Identifier: GPL-2.0-only */
/* Choosing metrics and grouping rows: what analyze stats, diff and report share. */
#ifndef IDLESCOPE_SELECT_H
#define IDLESCOPE_SELECT_H
#include <stddef.h>
#include "table/table.h"

/* Numeric columns whose name matches regex (POSIX extended, NULL = all), in table order.
 * Returns -1 with a message on a bad regex. *names is malloc'd (pointers into t). */
int isc_select_metrics(const struct isc_table *t, const char *regex, const char ***names, size_t *n);

/* Row groups by a column's value (text or number). */
struct isc_groups {
	size_t ngroups;
	char **labels;       /* "C6", "POLL", or a number as text; "" for empty cells */
	size_t *counts;      /* rows per group */
	size_t **rows;       /* row indices per group, ascending */
};
/* Group rows of t by column col (must exist). Groups are sorted by label (natural order:
 * "C1" < "C1E" < "C6" < "C10"; numbers numerically). */
int isc_group_rows(const struct isc_table *t, const char *col, struct isc_groups *g);
void isc_groups_free(struct isc_groups *g);
/* That natural order: digit runs compare as numbers ("C6" < "C10"), the rest byte by byte. */
int isc_natural_cmp(const char *a, const char *b);

/* Copy the values of rows[0..n) of a numeric column into out. */
void isc_gather(const double *col, const size_t *rows, size_t n, double *out);

#endif
