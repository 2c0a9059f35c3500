/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Plot coordinates. gnuplot and the 32-bit floats of the plot data files cannot show every
 * double: 1e308 is infinite as a float, 1e-310 is 0, and 1e15 + 0.25 is 1e15 again, so that
 * gnuplot fails ("undefined variable: inf", "empty x range") or draws nothing. Such a
 * metric is plotted as (v - off) / 10^k, and its axis label says so.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "text/json_num.h"
#include "report.h"

#define PLAIN_MAX 1e15         /* magnitudes plotted as they are */
#define PLAIN_MIN 1e-15
#define OFFSET_FROM 1e6        /* values this large with a spread below ... */
#define MIN_SPREAD 1e-6        /* ... this much of them get an offset (a float has 7 digits) */

void axis_map_init(struct axis_map *m, double lo, double hi)
{
	memset(m, 0, sizeof(*m));
	m->f1 = m->f2 = 1;
	if (!(lo <= hi) || !isfinite(lo) || !isfinite(hi))
		return;  /* no values */
	double mag = fmax(fabs(lo), fabs(hi)), d = mag;
	if (mag >= OFFSET_FROM && hi / 2 - lo / 2 < mag * (MIN_SPREAD / 2)) {
		m->off = lo;
		d = hi - lo;
	}
	if (d == 0 || (d < PLAIN_MAX && d >= PLAIN_MIN))
		return;
	m->k = (int)floor(log10(d));
	m->f1 = pow(10, -(m->k / 2));  /* 10^-k in two factors: 10^324 and 10^-324 are no doubles */
	m->f2 = pow(10, -(m->k - m->k / 2));
}

double axis_map_invert(const struct axis_map *m, double p)
{
	return m ? p / m->f2 / m->f1 + m->off : p;
}

void axis_map_label(const struct axis_map *m, const char *name, char *out, size_t len)
{
	char off[ISC_NUM_STR_LEN + 4] = "", num[ISC_NUM_STR_LEN];
	if (m && m->off != 0)
		snprintf(off, sizeof(off), " - %s", isc_num_str(num, m->off));
	if (m && m->k)
		snprintf(out, len, "%s%s%s%s / 1e%+d", off[0] ? "(" : "", name, off, off[0] ? ")" : "", m->k);
	else
		snprintf(out, len, "%s%s", name, off);
}

/* The smallest and largest non-NaN value of v[0..n), into *lo and *hi (kept if none). */
void axis_range(const double *v, size_t n, double *lo, double *hi)
{
	for (size_t i = 0; v && i < n; i++) {
		*lo = v[i] < *lo ? v[i] : *lo;
		*hi = v[i] > *hi ? v[i] : *hi;
	}
}
