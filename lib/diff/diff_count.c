/* SPDX-License-Identifier: GPL-2.0-only */
/* Sorted samples of packed metrics by counting codes (diff_count.h). */
#include "diff/diff_count.h"

#include <math.h>

bool diff_count_applies(const struct isc_column *c, size_t nrows)
{
	return c && c->packed && isc_colcount_applies(c->packed, nrows);
}

static void ready(struct isc_colcount *cc, const struct isc_column *c)
{
	if (cc->counts)
		isc_colcount_reset(cc, c->packed);
	else
		isc_colcount_init(cc, c->packed);
}

size_t diff_count_rows(struct isc_colcount *cc, const struct isc_column *c, const size_t *rows,
		       size_t n, double *out)
{
	size_t m = 0;
	ready(cc, c);
	isc_colcount_gather(cc, rows, n, out);
	for (size_t i = 0; i < n; i++)
		if (!isnan(out[i]))
			out[m++] = out[i];
	return m;
}

size_t diff_count_all(struct isc_colcount *cc, const struct isc_column *c, size_t nrows)
{
	ready(cc, c);
	isc_colcount_range(cc, 0, nrows);
	return isc_colcount_values(cc);
}

bool diff_count_sorted(struct isc_colcount *cc, size_t m, double *out)
{
	if (!cc->counts || m == 0)
		return m == 0;
	return isc_colcount_values(cc) == m && isc_colcount_sorted(cc, out) == 0;
}
