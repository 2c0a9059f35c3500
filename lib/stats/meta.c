/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Runs combined by their precision: a random-effects meta-analysis per configuration
 * (DerSimonian and Laird 1986) with the Hartung-Knapp variance of the weighted mean (Hartung
 * and Knapp 2001; Sidik and Jonkman 2002), and two configurations compared Welch-style.
 */
#include "stats/verdict.h"

#include <gsl/gsl_cdf.h>
#include <math.h>

void isc_re_mean(const double *y, const double *v, size_t k, struct isc_re_mean *out)
{
	double sw = 0, sw2 = 0, swy = 0, q = 0;
	bool weighted = v != NULL;
	for (size_t i = 0; weighted && i < k; i++)
		weighted = v[i] > 0 && isfinite(v[i]);
	for (size_t i = 0; i < k; i++) {   /* fixed-effect weights first, for tau2 */
		double w = weighted ? 1 / v[i] : 1;
		sw += w;
		sw2 += w * w;
		swy += w * y[i];
	}
	double m0 = swy / sw, tau2 = 0;
	for (size_t i = 0; i < k; i++)
		q += (weighted ? 1 / v[i] : 1) * (y[i] - m0) * (y[i] - m0);
	if (weighted && q > (double)(k - 1))
		tau2 = (q - (double)(k - 1)) / (sw - sw2 / sw);
	sw = swy = 0;
	for (size_t i = 0; i < k; i++) {
		double w = weighted ? 1 / (v[i] + tau2) : 1;
		sw += w;
		swy += w * y[i];
	}
	double mean = swy / sw, ss = 0;
	bool tied = true;   /* exactly: the weighted mean may round off the common value */
	for (size_t i = 1; i < k; i++)
		tied &= y[i] == y[0];
	for (size_t i = 0; !tied && i < k; i++) {
		double w = weighted ? 1 / (v[i] + tau2) : 1;
		ss += w * (y[i] - mean) * (y[i] - mean);
	}
	/* Hartung-Knapp: the weighted residual spread, k - 1 df; s^2 / k with equal weights */
	*out = (struct isc_re_mean){ .mean = tied ? y[0] : mean, .var = ss / ((double)(k - 1) * sw), .tau2 = tau2,
				    .k = k, .weighted = weighted };
	out->run_var = out->var * (double)k;
}

void isc_verdict_compare(const struct isc_re_mean *a, const struct isc_re_mean *b, double level,
			struct isc_verdict *v)
{
	double va = fmax(a->var, b->run_var / (double)a->k), vb = fmax(b->var, a->run_var / (double)b->k);
	double se2 = va + vb;
	*v = (struct isc_verdict){ .ref_value = a->mean, .diff = b->mean - a->mean, .se = NAN, .df = NAN, .p = NAN,
				  .lo = NAN, .hi = NAN, .run_var_ref = a->run_var,
				  .run_var = b->run_var, .margin = NAN, .p_adj = NAN,
				  .p_equiv = NAN, .p_equiv_adj = NAN, .mde = NAN, .runs_needed = -1,
				  .k_ref = a->k, .k = b->k };
	if (!(se2 > 0) || !isfinite(se2) || !isfinite(v->diff)) {
		v->refusal = "the runs of each configuration have the same value here: no run-to-run "
			     "spread to test against";
		v->answer = ISC_ANSWER_REFUSED;
		return;
	}
	double da = va * va / (double)(a->k - 1), db = vb * vb / (double)(b->k - 1);
	v->tested = true;
	v->se = sqrt(se2);
	v->df = se2 * se2 / (da + db);   /* Welch-Satterthwaite */
	v->p = fmin(1, 2 * gsl_cdf_tdist_Q(fabs(v->diff) / v->se, v->df));
	double t = gsl_cdf_tdist_Pinv(1 - (1 - level) / 2, v->df);
	v->lo = v->diff - t * v->se;
	v->hi = v->diff + t * v->se;
}

double isc_quantile_se_sorted(const double *x, size_t n, double q)
{
	const double z = 1.959963984540054;
	if (n < 2)
		return NAN;
	double c = (double)n * q, h = z * sqrt((double)n * q * (1 - q));
	double lo = floor(c - h), hi = ceil(c + h);
	size_t i = lo < 0 ? 0 : (size_t)lo, j = hi > (double)(n - 1) ? n - 1 : (size_t)hi;
	return (x[j] - x[i]) / (2 * z);
}
