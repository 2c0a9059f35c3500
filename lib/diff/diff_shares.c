/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The groups' (idle states') shares of the rows, configuration against the reference, with
 * the run as the unit: each run's share of its rows in the group, weighted by its binomial
 * precision s(1 - s)/n in the random-effects combination (verdict.h).
 */
#include <stdlib.h>

#include "diff/diff_internal.h"
#include "text/util.h"

static void config_shares(const struct isc_diff *d, size_t g, size_t c, double *y, double *v)
{
	const struct isc_diff_config *k = &d->configs[c];
	for (size_t i = 0; i < k->nruns; i++) {
		size_t r = k->runs[i];
		double n = (double)d->overall.run_rows[r];
		y[i] = (double)d->groups[g].run_rows[r] / n;
		v[i] = y[i] * (1 - y[i]) / n;
	}
}

void diff_share_verdict(const struct isc_diff *d, size_t g, size_t c, struct isc_verdict *v)
{
	size_t na = d->configs[0].nruns, nb = d->configs[c].nruns;
	double *y = isc_xmalloc(2 * (na + nb) * sizeof(double)), *w = y + na + nb;
	struct isc_re_mean a, b;
	config_shares(d, g, 0, y, w);
	config_shares(d, g, c, y + na, w + na);
	isc_re_mean(y, w, na, &a);
	isc_re_mean(y + na, w + na, nb, &b);
	isc_verdict_compare(&a, &b, ISC_DIFF_CI_LEVEL, v);
	free(y);
}
