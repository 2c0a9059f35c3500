/* SPDX-License-Identifier: GPL-2.0-only */
/* Two proportions: Fisher's exact test and the two-proportion z test (proptest.h). */
#include "stats/proptest.h"

#include <math.h>

static double log_choose(double n, double k)
{
	return lgamma(n + 1) - lgamma(k + 1) - lgamma(n - k + 1);
}

double isc_fisher_exact_p(size_t x1, size_t n1, size_t x2, size_t n2)
{
	double k = (double)x1 + (double)x2, a = (double)n1, b = (double)n2;
	double lnorm = log_choose(a + b, k);
	double lo = fmax(0, k - b), hi = fmin(k, a);
	double lobs = log_choose(a, (double)x1) + log_choose(b, k - (double)x1) - lnorm, p = 0;
	for (double x = lo; x <= hi; x++) {
		double l = log_choose(a, x) + log_choose(b, k - x) - lnorm;
		if (l <= lobs + 1e-7)  /* log of a relative tolerance of 1e-7 */
			p += exp(l);
	}
	return fmin(p, 1);
}

double isc_two_prop_z_p(size_t x1, size_t n1, size_t x2, size_t n2)
{
	double a = (double)n1, b = (double)n2, pooled = ((double)x1 + (double)x2) / (a + b);
	double se = sqrt(pooled * (1 - pooled) * (1 / a + 1 / b));
	if (!(se > 0))
		return 1;
	double z = ((double)x2 / b - (double)x1 / a) / se;
	return erfc(fabs(z) / sqrt(2));
}

int isc_prop_test(size_t x1, size_t n1, size_t x2, size_t n2, struct isc_prop *out)
{
	*out = (struct isc_prop){ NAN, NAN, NULL };
	if (!n1 || !n2 || x1 > n1 || x2 > n2)
		return -1;
	double a = (double)n1, b = (double)n2, k = (double)x1 + (double)x2, n = a + b;
	double least = fmin(fmin(a, b) * fmin(k, n - k) / n, INFINITY);
	out->diff = (double)x2 / b - (double)x1 / a;
	if (least < ISC_PROP_FISHER_MIN) {
		out->method = "fisher-exact";
		out->p = isc_fisher_exact_p(x1, n1, x2, n2);
	} else {
		out->method = "two-proportion-z";
		out->p = isc_two_prop_z_p(x1, n1, x2, n2);
	}
	return 0;
}
