// SPDX-License-Identifier: GPL-2.0-only
/* wult's min_index and max_index: the row of the first smallest or largest value. */
#include <math.h>

#include "stats/stats.h"

void isc_stats_fill_index(const double *col, const size_t *rows, size_t n, const struct isc_func *f,
			  size_t nf, double *out)
{
	size_t imin = 0, imax = 0;
	double min = NAN, max = NAN;
	for (size_t k = 0; k < n; k++) {
		size_t row = rows ? rows[k] : k;
		double v = col[row];
		if (isnan(v))
			continue;
		if (isnan(min) || v < min) {
			min = v;
			imin = row;
		}
		if (isnan(max) || v > max) {
			max = v;
			imax = row;
		}
	}
	for (size_t i = 0; i < nf; i++) {
		if (f[i].kind == ISC_F_MIN_INDEX)
			out[i] = isnan(min) ? NAN : (double)imin;
		else if (f[i].kind == ISC_F_MAX_INDEX)
			out[i] = isnan(max) ? NAN : (double)imax;
	}
}
