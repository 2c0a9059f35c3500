/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A configuration of several runs described without merging them: moments combined, quantiles
 * selected from the union of the runs' sorted samples (the same numbers as on the merged
 * sample, term for term).
 */
#include <math.h>
#include <stdbool.h>

#include "diff/diff_internal.h"

/* Several runs' moments as one sample's: counts and extremes add up, the variance is the
 * within-run sum of squares plus the between-run one (Chan et al.'s pairwise formula). */
void diff_combine_moments(const double *const *mom, size_t k, double *out)
{
	double n = 0, sum = 0, ss = 0, lo = INFINITY, hi = -INFINITY;
	for (size_t i = 0; i < k; i++)
		if (mom[i][MOM_COUNT] > 0) {
			n += mom[i][MOM_COUNT];
			sum += mom[i][MOM_COUNT] * mom[i][MOM_AVG];
			lo = fmin(lo, mom[i][MOM_MIN]);
			hi = fmax(hi, mom[i][MOM_MAX]);
		}
	double avg = n > 0 ? sum / n : NAN;
	for (size_t i = 0; i < k; i++)
		if (mom[i][MOM_COUNT] > 0) {
			double ni = mom[i][MOM_COUNT], dv = mom[i][MOM_AVG] - avg;
			ss += (ni > 1 ? (ni - 1) * mom[i][MOM_STD] * mom[i][MOM_STD] : 0) + ni * dv * dv;
		}
	out[MOM_COUNT] = n;
	out[MOM_MIN] = n > 0 ? lo : NAN;
	out[MOM_MAX] = n > 0 ? hi : NAN;
	out[MOM_AVG] = avg;
	out[MOM_STD] = n > 1 ? sqrt(ss / (n - 1)) : NAN;
}

static size_t count_below(const double *x, size_t n, double v, bool or_equal)
{
	size_t lo = 0, hi = n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (x[mid] < v || (or_equal && x[mid] == v))
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* The rank-th smallest value (0-based) of the union of sorted samples s[0..k), found by a
 * binary search in each sample for the value with fewer than rank + 1 below it and at least
 * rank + 1 at or below it. */
static double select_union(const struct diff_sample *s, size_t k, size_t rank)
{
	for (size_t j = 0; j < k; j++) {
		size_t lo = 0, hi = s[j].n;
		while (lo < hi) {
			size_t mid = lo + (hi - lo) / 2, less = 0, le = 0;
			double v = s[j].x[mid];
			for (size_t t = 0; t < k; t++) {
				less += count_below(s[t].x, s[t].n, v, false);
				le += count_below(s[t].x, s[t].n, v, true);
			}
			if (le <= rank)
				lo = mid + 1;
			else if (less > rank)
				hi = mid;
			else
				return v;
		}
	}
	return NAN;
}

/* isc_quantile_sorted of the union of sorted samples, term for term, without merging them. */
double diff_union_quantile(const struct diff_sample *s, size_t k, size_t n, double q)
{
	size_t lhs = 0;
	double delta = n ? isc_quantile_rank(q, n, &lhs) : 0;
	if (!n || lhs >= n - 1)
		return n ? select_union(s, k, n - 1) : NAN;
	return (1 - delta) * select_union(s, k, lhs) + delta * select_union(s, k, lhs + 1);
}
