/* SPDX-License-Identifier: GPL-2.0-only */
/* Inputs measured under the same design: each configuration's kept values of an input
 * (LDist, SilentTime) against the reference's, by the two-sample KS distance. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "run/col_roles.h"
#include "diff/diff_design.h"
#include "text/json_num.h"
#include "stats/sigtest.h"
#include "text/util.h"

double isc_design_ks_d(const double *a, size_t na, const double *b, size_t nb)
{
	size_t i = 0, j = 0;
	double dmax = 0;
	if (!na || !nb)
		return 0;
	while (i < na && j < nb) {
		double x = a[i] < b[j] ? a[i] : b[j];
		while (i < na && a[i] == x)
			i++;
		while (j < nb && b[j] == x)
			j++;
		double dd = fabs((double)i / (double)na - (double)j / (double)nb);
		dmax = dd > dmax ? dd : dmax;
	}
	return dmax;
}

double isc_design_d_limit(size_t na, size_t nb)
{
	double crit = ISC_DESIGN_KS_C * sqrt((double)(na + nb) / ((double)na * (double)nb));
	return crit > ISC_DESIGN_D_MIN ? crit : ISC_DESIGN_D_MIN;
}

/* The configuration's kept values of col, its runs pooled, sorted. */
static double *config_values(const struct isc_diff *d, size_t c, const char *col, size_t *n)
{
	size_t total = 0;
	for (size_t i = 0; i < d->configs[c].nruns; i++)
		total += d->runs[d->configs[c].runs[i]]->dp->nrows;
	double *v = isc_xcalloc(total + 1, sizeof(double)), *tmp = isc_xcalloc(total + 1, sizeof(double));
	double buf[1024];
	*n = 0;
	for (size_t i = 0; i < d->configs[c].nruns; i++) {
		const struct isc_table *t = d->runs[d->configs[c].runs[i]]->dp;
		const struct isc_column *k = isc_table_col(t, col);
		for (size_t at = 0; k && k->type == ISC_COL_NUM && at < t->nrows; at += 1024) {
			size_t len = t->nrows - at < 1024 ? t->nrows - at : 1024;
			const double *x = isc_col_values(k, at, len, buf);  /* packed or not */
			for (size_t row = 0; row < len; row++)
				if (!isnan(x[row]))
					v[(*n)++] = x[row];
		}
	}
	isc_sort_doubles(v, *n, tmp);
	free(tmp);
	return v;
}

/* "ref median 2000 [10, 4000]" of a sorted sample. */
static char *describe(const char *name, const double *v, size_t n, const char *unit)
{
	char med[ISC_NUM_STR_LEN], lo[ISC_NUM_STR_LEN], hi[ISC_NUM_STR_LEN];
	return isc_xasprintf("%s median %s%s%s [%s, %s] (%zu values)", name,
			    isc_num_str(med, isc_quantile_sorted(v, n, 0.5)), *unit ? " " : "", unit,
			    isc_num_str(lo, v[0]), isc_num_str(hi, v[n - 1]), n);
}

static void add(char ***v, size_t *n, char *msg)
{
	*v = isc_xrealloc(*v, (*n + 1) * sizeof(char *));
	(*v)[(*n)++] = msg;
}

static void check_input(const struct isc_diff *d, const char *col, char ***out, size_t *nout)
{
	size_t nref, n;
	double *ref = config_values(d, 0, col, &nref);
	const char *unit = isc_metric_unit(d->runs[d->configs[0].runs[0]], col);
	for (size_t c = 1; c < d->nconfigs && nref; c++) {
		double *v = config_values(d, c, col, &n);
		double dd = isc_design_ks_d(ref, nref, v, n);
		if (n && dd > isc_design_d_limit(nref, n)) {
			char *a = describe(d->configs[0].name, ref, nref, unit);
			char *b = describe(d->configs[c].name, v, n, unit);
			add(out, nout, isc_xasprintf("design differs: %s of the kept datapoints: %s; %s "
				"(KS D = %.3f, limit %.3f): the configurations did not measure the same "
				"mix of %s, so a change in the outcomes may come from it", col, a, b, dd,
				isc_design_d_limit(nref, n), col));
			free(a);
			free(b);
		}
		free(v);
	}
	free(ref);
}

/* A column every run has as a number, that the reference's method calls an input. */
static bool checked_input(const struct isc_diff *d, const char *col)
{
	if (isc_is_raw_timestamp(col) || isc_col_role(d->runs[d->configs[0].runs[0]], col) != ISC_ROLE_INPUT)
		return false;
	for (size_t r = 0; r < d->nruns; r++) {
		const struct isc_column *k = isc_table_col(d->runs[r]->dp, col);
		if (!k || k->type != ISC_COL_NUM)
			return false;
	}
	return true;
}

void isc_diff_design_warnings(const struct isc_diff *d, char ***v, size_t *n)
{
	const struct isc_table *t = d->runs[d->configs[0].runs[0]]->dp;
	for (size_t k = 0; k < t->ncols; k++)
		if (checked_input(d, t->cols[k].name))
			check_input(d, t->cols[k].name, v, n);
}
