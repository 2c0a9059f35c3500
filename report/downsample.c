/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Scatter plots of a million points are unreadable and heavy. Keep every outlier (a point
 * outside the box of either axis' percentiles) and a deterministic sample of the dense
 * middle: row i is kept when a hash of i falls below budget/middle of the hash range, so
 * the same input always gives the same picture, without the aliasing a stride could have.
 */
#include <math.h>
#include <stdlib.h>

#include "text/util.h"
#include "report.h"

static uint64_t mix64(uint64_t x)  /* splitmix64's finaliser */
{
	x += 0x9E3779B97F4A7C15ULL;
	x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ULL;
	x = (x ^ (x >> 27)) * 0x94D049BB133111EBULL;
	return x ^ (x >> 31);
}

static bool outside(const struct ds_box *b, double x, double y)
{
	return x < b->xlo || x > b->xhi || y < b->ylo || y > b->yhi;
}

float *ds_select(const double *x, const double *y, size_t n, const struct axis_map *xmap,
		 const struct axis_map *ymap, const struct ds_box *box, size_t budget, size_t *nout,
		 size_t *nvalid, size_t **rows)
{
	size_t valid = 0, outliers = 0, k = 0, kmid = 0;
	for (size_t i = 0; i < n; i++) {
		if (isnan(x[i]) || isnan(y[i]))
			continue;
		valid++;
		outliers += outside(box, axis_map_apply(xmap, x[i]), axis_map_apply(ymap, y[i]));
	}
	size_t middle = valid - outliers;
	/* keep a middle point when hash < limit; limit = 2^64 * budget / middle */
	uint64_t limit = middle <= budget ? UINT64_MAX
					  : (uint64_t)((double)budget / (double)middle * 18446744073709549568.0);
	/* The sample's size varies around budget by about sqrt(budget): cap it far above. */
	size_t midcap = middle <= budget ? middle : budget + budget / 8 + 64;
	float *xy = isc_xmalloc((2 * (outliers + midcap) + 2) * sizeof(*xy));
	if (rows)
		*rows = isc_xmalloc((outliers + midcap + 1) * sizeof(**rows));
	for (size_t i = 0; i < n; i++) {
		if (isnan(x[i]) || isnan(y[i]))
			continue;
		double mx = axis_map_apply(xmap, x[i]), my = axis_map_apply(ymap, y[i]);
		if (!outside(box, mx, my)) {
			if ((limit != UINT64_MAX && mix64(i) >= limit) || kmid == midcap)
				continue;
			kmid++;
		}
		xy[2 * k] = (float)mx;
		xy[2 * k + 1] = (float)my;
		if (rows)
			(*rows)[k] = i;
		k++;
	}
	*nout = k;
	*nvalid = valid;
	return xy;
}

size_t ds_thin(float *xy, size_t *rows, size_t n, const struct ds_box *box, size_t nvalid,
	       size_t budget)
{
	size_t outliers = 0, k = 0;
	for (size_t i = 0; i < n; i++)
		outliers += outside(box, xy[2 * i], xy[2 * i + 1]);
	size_t middle = nvalid > outliers ? nvalid - outliers : 0;
	if (middle <= budget)
		return n;
	/* the rows ds_select kept had hash < budget0 / middle; these have hash < budget / middle */
	uint64_t limit = (uint64_t)((double)budget / (double)middle * 18446744073709549568.0);
	for (size_t i = 0; i < n; i++) {
		if (!outside(box, xy[2 * i], xy[2 * i + 1]) && mix64(rows[i]) >= limit)
			continue;
		xy[2 * k] = xy[2 * i];
		xy[2 * k + 1] = xy[2 * i + 1];
		rows[k++] = rows[i];
	}
	return k;
}
