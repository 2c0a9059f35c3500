/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What a design can tell: the two one-sided tests of equivalence (Schuirmann 1987), the
 * minimum detectable effect of a t test at a given power, and the runs per configuration
 * that would detect a margin (the same t approximation, Welch-Satterthwaite df).
 */
#include "stats/verdict.h"

#include <gsl/gsl_cdf.h>
#include <math.h>

double isc_tost_p(double diff, double se, double df, double margin)
{
	if (!(margin > 0) || !(se > 0) || !(df > 0) || isnan(diff))
		return NAN;
	double p_low = gsl_cdf_tdist_Q((diff + margin) / se, df);   /* H0: diff <= -margin */
	double p_high = gsl_cdf_tdist_P((diff - margin) / se, df);  /* H0: diff >= +margin */
	return fmax(p_low, p_high);
}

double isc_mde(double se, double df, double alpha, double power)
{
	if (!(se > 0) || !(df > 0))
		return NAN;
	return (gsl_cdf_tdist_Pinv(1 - alpha / 2, df) + gsl_cdf_tdist_Pinv(power, df)) * se;
}

/* The MDE with n runs per configuration. */
static double mde_at(long n, double s, double s2, double alpha, double power)
{
	return isc_mde(sqrt(s / (double)n), (double)(n - 1) * s * s / s2, alpha, power);
}

long isc_runs_needed(double run_var_a, double run_var_b, double margin, double alpha, double power)
{
	double s = run_var_a + run_var_b, s2 = run_var_a * run_var_a + run_var_b * run_var_b;
	if (!(margin > 0) || !(s > 0) || !isfinite(s))
		return -1;
	if (mde_at(ISC_VERDICT_RUNS_MAX, s, s2, alpha, power) > margin)
		return 0;
	long lo = 2, hi = ISC_VERDICT_RUNS_MAX;   /* the MDE falls with n: the first n that is enough */
	while (lo < hi) {
		long mid = lo + (hi - lo) / 2;
		if (mde_at(mid, s, s2, alpha, power) <= margin)
			hi = mid;
		else
			lo = mid + 1;
	}
	return lo;
}
