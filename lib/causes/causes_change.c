/* SPDX-License-Identifier: GPL-2.0-only */
/* Whether a cause's share of a band changed between two configurations (causes.h). */
#include "causes/causes.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "stats/proptest.h"
#include "stats/runtest.h"
#include "text/util.h"

static size_t count_of(const struct isc_causes *cs, const char *name, size_t band)
{
	const struct isc_cause *c = isc_causes_find(cs, name);
	return c ? c->n[band] : 0;
}

/* Each run's share of the band with the cause; the runs without datapoints in the band are
 * left out. */
static size_t run_shares(const struct isc_causes *const *runs, size_t n, const char *name,
			 size_t band, double *out)
{
	size_t m = 0;
	for (size_t i = 0; i < n; i++)
		if (runs[i]->band[band])
			out[m++] = (double)count_of(runs[i], name, band) / (double)runs[i]->band[band];
	return m;
}

/* The variance of the difference of a cause's shares of band b (the first or the last) under
 * no difference: both sides pooled (causes.h). */
static double band_share_var(const struct isc_causes *x, const struct isc_causes *y, const char *name,
			     size_t b)
{
	const struct isc_cause *cx = isc_causes_find(x, name), *cy = isc_causes_find(y, name);
	size_t cut = b ? b - 1 : 0, rows = 0;
	double kx = (double)x->band[b], ky = (double)y->band[b];
	double nnear = (double)(x->nnear[cut] + y->nnear[cut]);
	for (size_t i = 0; i < x->nbands; i++)
		rows += x->band[i] + y->band[i];
	double s = ((cx ? (double)cx->n[b] : 0) + (cy ? (double)cy->n[b] : 0)) / (kx + ky);
	double r = nnear > 0 ? ((cx ? (double)cx->near[cut] : 0) + (cy ? (double)cy->near[cut] : 0)) / nnear : s;
	double w = (kx + ky) / (double)rows;
	return (s * (1 - s) + (1 - w) * (s - r) * (s - r)) * (1 / kx + 1 / ky);
}

static void datapoint_test(const struct isc_causes *ref, const struct isc_causes *oth, const char *name,
			   size_t band, struct isc_cause_change *out)
{
	size_t x1 = count_of(ref, name, band), n1 = ref->band[band];
	size_t x2 = count_of(oth, name, band), n2 = oth->band[band];
	struct isc_prop pr;

	if (ref->nbands != 2 || oth->nbands != 2 || isc_prop_test(x1, n1, x2, n2, &pr) < 0)
		return;
	out->method = pr.method;
	out->p = pr.p;
	if (strcmp(pr.method, "fisher-exact")) {
		double se = sqrt(band_share_var(ref, oth, name, band));
		out->method = "band-share-z";
		out->p = se > 0 ? erfc(fabs(out->diff) / se / sqrt(2)) : out->diff == 0 ? 1 : 0;
	}
}

void isc_cause_change(const struct isc_causes *ref, const struct isc_causes *const *ref_runs,
		      size_t nref, const struct isc_causes *oth, const struct isc_causes *const *oth_runs,
		      size_t noth, const char *name, size_t band, struct isc_cause_change *out)
{
	size_t x1 = count_of(ref, name, band), n1 = ref->band[band];
	size_t x2 = count_of(oth, name, band), n2 = oth->band[band];

	out->diff = n1 && n2 ? (double)x2 / (double)n2 - (double)x1 / (double)n1 : NAN;
	out->p = NAN;
	out->method = NULL;
	if (nref >= 2 && noth >= 2) {
		double *a = isc_xcalloc(nref + 1, sizeof(double)), *b = isc_xcalloc(noth + 1, sizeof(double));
		size_t na = run_shares(ref_runs, nref, name, band, a), nb = run_shares(oth_runs, noth, name, band, b);
		struct isc_welch w;
		if (isc_welch_test(a, na, b, nb, 0.95, &w) == 0) {
			out->p = w.p;
			out->method = "welch-t-run-shares";
		}
		free(a);
		free(b);
		return;
	}
	datapoint_test(ref, oth, name, band, out);
}
