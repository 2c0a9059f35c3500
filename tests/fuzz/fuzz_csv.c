/* SPDX-License-Identifier: GPL-2.0-only */
/* libFuzzer target: any bytes as datapoints.csv must give a table or one error, never a crash.
 * Build: cmake -DIDLESCOPE_FUZZ=ON with clang (see docs/format.md, "Fuzzing"). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "table/table.h"

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
		struct isc_table *t = NULL;
		struct isc_table_opts o = { .nthreads = threads };
		if (isc_table_read(path, &o, &t) == 0) {
			for (size_t c = 0; c < t->ncols; c++)
				for (size_t r = 0; r < t->nrows; r++)
					if (t->cols[c].type == ISC_COL_TEXT && t->cols[c].text[r] != ISC_TEXT_EMPTY &&
					    !isc_table_str(t, t->cols[c].text[r]))
						abort();
			isc_table_free(t);
		}
	}
	return 0;
}
