/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A drift over the order an experiment's runs were taken in: the slope of the runs' medians
 * on their place in that order, within configurations (each configuration's means of both
 * removed, so the setting's own effect is not a trend), tested by t with n - configs - 1 df
 * and adjusted by Holm over the metrics. Interleaving spreads a drift over the
 * configurations, but a drift left in the runs widens their spread or, in an unbalanced
 * order, shifts a configuration: it is named so that the reader can judge.
 */
#include <gsl/gsl_cdf.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "diff/diff.h"
#include "text/util.h"

struct slope {
	double b, p;
};

/* y on x within configurations; p NaN when there is no df or no spread in x. */
static struct slope within_slope(const struct isc_diff *d, const double *x, const double *y)
{
	double sxx = 0, sxy = 0, rss = 0;
	double *xc = isc_xmalloc(2 * d->nruns * sizeof(double)), *yc = xc + d->nruns;
	for (size_t c = 0; c < d->nconfigs; c++) {
		const struct isc_diff_config *k = &d->configs[c];
		double mx = 0, my = 0;
		for (size_t i = 0; i < k->nruns; i++) {
			mx += x[k->runs[i]] / (double)k->nruns;
			my += y[k->runs[i]] / (double)k->nruns;
		}
		for (size_t i = 0; i < k->nruns; i++) {
			xc[k->runs[i]] = x[k->runs[i]] - mx;
			yc[k->runs[i]] = y[k->runs[i]] - my;
		}
	}
	for (size_t r = 0; r < d->nruns; r++) {
		sxx += xc[r] * xc[r];
		sxy += xc[r] * yc[r];
	}
	struct slope s = { sxx > 0 ? sxy / sxx : NAN, NAN };
	double df = (double)d->nruns - (double)d->nconfigs - 1;
	for (size_t r = 0; sxx > 0 && r < d->nruns; r++)
		rss += (yc[r] - s.b * xc[r]) * (yc[r] - s.b * xc[r]);
	free(xc);
	if (df >= 1 && sxx > 0 && rss > 0)
		s.p = fmin(1, 2 * gsl_cdf_tdist_Q(fabs(s.b) / sqrt(rss / df / sxx), df));
	return s;
}

void isc_diff_drift(const struct isc_diff *d, const long *order, char ***out, size_t *n)
{
	if (!order || d->nmetrics == 0)
		return;
	double *x = isc_xmalloc(d->nruns * sizeof(double)), *y = isc_xmalloc(d->nruns * sizeof(double));
	struct slope *s = isc_xmalloc(d->nmetrics * sizeof(*s));
	double *p = isc_xmalloc(2 * d->nmetrics * sizeof(double)), *adj = p + d->nmetrics;
	size_t *idx = isc_xmalloc(d->nmetrics * sizeof(size_t)), k = 0;
	for (size_t r = 0; r < d->nruns; r++)
		x[r] = (double)order[r];
	for (size_t m = 0; m < d->nmetrics; m++) {
		if (isc_diff_is_input(d, d->metrics[m]))
			continue;  /* an input the collector draws (LDist): not the runs' drift */
		bool all = true;
		for (size_t r = 0; r < d->nruns; r++)
			all &= !isnan(y[r] = isc_diff_run_q(d, &d->overall, m, r, 0));
		s[k] = all ? within_slope(d, x, y) : (struct slope){ NAN, NAN };
		p[k] = s[k].p;
		idx[k++] = m;
	}
	isc_holm_adjust(p, k, adj);
	for (size_t j = 0; j < k; j++) {
		if (!(adj[j] < ISC_DIFF_ALPHA))
			continue;
		size_t m = idx[j];
		const char *unit = d->units[m];
		*out = isc_xrealloc(*out, (*n + 1) * sizeof(char *));
		(*out)[(*n)++] = isc_xasprintf("run order: %s median drifts by %+.3g%s%s per run over the "
					      "order the runs were taken in (trend within "
					      "configurations, p = %.2g, Holm-adjusted over %zu "
					      "metrics %.2g)", d->metrics[m], s[j].b,
					      *unit && strcmp(unit, "%") ? " " : "",
					      strcmp(unit, "%") ? unit : "", s[j].p, k, adj[j]);
	}
	free(idx);
	free(x);
	free(y);
	free(s);
	free(p);
}
