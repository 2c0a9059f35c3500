/* SPDX-License-Identifier: GPL-2.0-only */
/* analyze diff with packed number columns: the metrics, flags and inputs stay packed
 * (lib/diff/diff_work.c decodes one run's column at a time into a worker's buffer); the
 * grouping column is unpacked. */
#include <stdlib.h>
#include <string.h>

#include "table/table.h"
#include "diff_pack.h"

bool diff_pack_ok(bool causes)
{
	const char *off = getenv("IDLESCOPE_NO_PACK");  /* for comparing outputs (docs/performance.md) */
	return !causes && !(off && *off && strcmp(off, "0"));
}

void diff_unpack_others(struct isc_run **runs, size_t n, const char *by, const char *by_col)
{
	for (size_t r = 0; r < n; r++) {
		struct isc_table *t = runs[r]->dp;
		for (size_t k = 0; k < t->ncols; k++) {
			struct isc_column *c = &t->cols[k];
			if (c->packed && ((by && !strcmp(c->name, by)) || (by_col && !strcmp(c->name, by_col))))
				isc_table_unpack_col(t, c);
		}
	}
}
