/* SPDX-License-Identifier: GPL-2.0-only */
/* libFuzzer target: any bytes as datapoints.csv must give a table or one error, never a crash;
 * read packed (isc_table_opts.pack), the same table.
 * Build: cmake -DIDLESCOPE_FUZZ=ON with clang (see docs/format.md, "Fuzzing"). */
#include <stdint.h>
#include <stdio.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "table/table.h"

/* A packed read gives the same doubles, bit for bit (colpack.h). */
static void same_values(const struct isc_table *a, const struct isc_table *b)
{
	if (a->nrows != b->nrows || a->ncols != b->ncols)
		abort();
	double *v = malloc((b->nrows + 1) * sizeof(double));
	for (size_t c = 0; c < b->ncols; c++) {
		if (b->cols[c].type != ISC_COL_NUM)
			continue;
		const double *got = isc_col_values(&b->cols[c], 0, b->nrows, v);
		for (size_t r = 0; r < b->nrows; r++)
			if (memcmp(&got[r], &a->cols[c].num[r], sizeof(double)) &&
			    !(isnan(got[r]) && isnan(a->cols[c].num[r])))
				abort();
	}
	free(v);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static char path[64];
	if (!path[0])
		snprintf(path, sizeof(path), "/dev/shm/idlescope-fuzz-%d.csv", (int)getpid());
	FILE *f = fopen(path, "wb");
	if (!f)
		abort();
	fwrite(data, 1, size, f);
	fclose(f);
	for (int threads = 1; threads <= 2; threads++) {
		struct isc_table *t = NULL, *packed = NULL;
		struct isc_table_opts o = { .nthreads = threads }, po = { .nthreads = threads, .pack = true };
		int rc = isc_table_read(path, &o, &t);
		if ((isc_table_read(path, &po, &packed) == 0) != (rc == 0))
			abort();  /* packed or not, the same file reads or fails */
		if (rc == 0) {
			for (size_t c = 0; c < t->ncols; c++)
				for (size_t r = 0; r < t->nrows; r++)
					if (t->cols[c].type == ISC_COL_TEXT && t->cols[c].text[r] != ISC_TEXT_EMPTY &&
					    !isc_table_str(t, t->cols[c].text[r]))
						abort();
			same_values(t, packed);
		}
		isc_table_free(t);
		isc_table_free(packed);
	}
	return 0;
}
