/* SPDX-License-Identifier: GPL-2.0-only */
/* Numbers and words of the plots' captions and ranges. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "text/json_num.h"
#include "plots.h"

#define BODY_SHARE 0.25        /* the values up to p95 get at least this share of the range */
#define LOG_RATIO 30           /* p99.9 / min from which the value axis may be logarithmic */


double max_quantile(const struct metric_data *md, double q)
{
	size_t i = find_q(&md->grid, q);
	double v = -INFINITY;
	for (size_t r = 0; r < md->rep->nruns; r++)
		if (md->nvals[r])
			v = fmax(v, md->qv[r * md->grid.n + i]);
	return v;
}

void count_noun(char *out, size_t len, size_t n, const char *noun)
{
	char num[32];
	group_digits(num, sizeof(num), n);
	snprintf(out, len, "%s %s%s", num, noun, n == 1 ? "" : "s");
}

double round_up3(double v)
{
	if (v == 0 || !isfinite(v))
		return v;
	int e = (int)floor(log10(fabs(v))) - 2;
	double scale = pow(10, abs(e));  /* an exact double up to 1e22 */
	/* whole multiples of 10^e: k * scale for e >= 0, k / scale (correctly rounded) below */
	double k = nearbyint(e >= 0 ? v / scale : v * scale);
	double r = e >= 0 ? k * scale : k / scale;
	if (r < v)
		r = e >= 0 ? (k + 1) * scale : (k + 1) / scale;
	return r;
}

void value_str(const struct metric_data *md, double mapped, char *out)
{
	isc_num_str(out, axis_map_invert(&md->map, mapped));
}

void short_value_str(const struct metric_data *md, double mapped, double span, char *out)
{
	double v = axis_map_invert(&md->map, mapped), a = fabs(v);
	double res = fabs(axis_map_invert(&md->map, span) - axis_map_invert(&md->map, 0)) / 1000;
	if (!isfinite(v) || !(a > 0) || !(res > 0) || !isfinite(res)) {
		isc_num_str(out, v);
		return;
	}
	int digits = (int)floor(log10(a)) - (int)floor(log10(res)) + 1;
	digits = digits < 3 ? 3 : digits > 17 ? 17 : digits;
	snprintf(out, ISC_NUM_STR_LEN, "%.*g", digits, v);
}

/*
 * The body of the distribution, the range of the histograms and of the scatter plots' y
 * axis: from the smallest value to the first of the 99.9th, 99.5th, 99th, 98th and 95th
 * percentiles (the largest of the runs, rounded up to 3 digits) at which the values up to
 * the 95th percentile fill at least a quarter of the range; the axis is logarithmic, to
 * the 99.9th percentile, when even the 99th percentile squeezes the body and the 99.9th
 * percentile is 30 times the smallest value. A short tail (within SHORT_TAIL of the range)
 * is kept: the range ends at the maximum.
 */
static const double range_q[] = { 0.999, 0.995, 0.99, 0.98, 0.95 };

void body_range(const struct metric_data *md, struct hrange *h)
{
	double lo = md->lo, p95 = max_quantile(md, 0.95), hi = md->max;
	size_t i = 0;
	for (; i < sizeof(range_q) / sizeof(range_q[0]); i++) {
		hi = max_quantile(md, range_q[i]);
		if (p95 - lo >= BODY_SHARE * (hi - lo))
			break;
	}
	h->q = range_q[i < sizeof(range_q) / sizeof(range_q[0]) ? i : i - 1];
	h->logx = lo > 0 && h->q < 0.99 && max_quantile(md, 0.999) >= LOG_RATIO * lo;
	if (h->logx) {
		h->q = 0.999;
		hi = max_quantile(md, 0.999);
	}
	double share = h->logx ? log(md->max / hi) / log(hi / lo) : (md->max - hi) / (hi - lo);
	if (!(share > SHORT_TAIL)) {  /* a short tail (residencies end at 100%): keep it */
		hi = md->max;
		h->q = 1;
	} else {
		hi = round_up3(hi);
	}
	h->lo = lo;
	h->hi = hi;
	if (h->lo == h->hi)
		h->lo -= 0.5, h->hi += 0.5;
}

