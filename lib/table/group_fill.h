/* SPDX-License-Identifier: GPL-2.0-only */
/* The row lists of isc_group_rows from each row's group, over two threads (lib-internal). */
#ifndef IDLESCOPE_GROUP_FILL_H
#define IDLESCOPE_GROUP_FILL_H
#include <stddef.h>
#include <stdint.h>

#include "table/table.h"

/* Row r's group: rank[gid[r]], or, without gid, rank[cache[r's string id]] (text column c,
 * ISC_TEXT_EMPTY at cache[t->nstrs]). */
struct group_of_row {
	const struct isc_table *t;
	const struct isc_column *c;
	const uint32_t *gid, *cache;
	const size_t *rank;
};

/* counts[0..ngroups) and rows[k] (allocated here, ascending) of t's rows. */
void group_fill(const struct group_of_row *gr, size_t ngroups, size_t *counts, size_t **rows);

#endif
