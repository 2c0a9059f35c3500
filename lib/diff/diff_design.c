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

double is_design_ks_d(const double *a, size_t na, const double *b, size_t nb)
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

double is_design_d_limit(size_t na, size_t nb)
{
	double crit = IS_DESIGN_KS_C * sqrt((double)(na + nb) / ((double)na * (double)nb));
	return crit > IS_DESIGN_D_MIN ? crit : IS_DESIGN_D_MIN;
}

/* The configuration's kept values of col, its runs pooled, sorted. */
static double *config_values(const struct is_diff *d, size_t c, const char *col, size_t *n)
{
	size_t total = 0;
	for (size_t i = 0; i < d->configs[c].nruns; i++)
		total += d->runs[d->configs[c].runs[i]]->dp->nrows;
	double *v = is_xcalloc(total + 1, sizeof(double)), *tmp = is_xcalloc(total + 1, sizeof(double));
	*n = 0;
	for (size_t i = 0; i < d->configs[c].nruns; i++) {
		const struct is_table *t = d->runs[d->configs[c].runs[i]]->dp;
		const struct is_column *k = is_table_col(t, col);
		for (size_t row = 0; k && k->type == IS_COL_NUM && row < t->nrows; row++)
			if (!isnan(k->num[row]))
				v[(*n)++] = k->num[row];
	}
	is_sort_doubles(v, *n, tmp);
	free(tmp);
	return v;
}

/* "ref median 2000 [10, 4000]" of a sorted sample. */
static char *describe(const char *name, const double *v, size_t n, const char *unit)
{
	char med[IS_NUM_STR_LEN], lo[IS_NUM_STR_LEN], hi[IS_NUM_STR_LEN];
	return is_xasprintf("%s median %s%s%s [%s, %s] (%zu values)", name,
			    is_num_str(med, is_quantile_sorted(v, n, 0.5)), *unit ? " " : "", unit,
			    is_num_str(lo, v[0]), is_num_str(hi, v[n - 1]), n);
}

static void add(char ***v, size_t *n, char *msg)
{
	*v = is_xrealloc(*v, (*n + 1) * sizeof(char *));
	(*v)[(*n)++] = msg;
}

static void check_input(const struct is_diff *d, const char *col, char ***out, size_t *nout)
{
	size_t nref, n;
	double *ref = config_values(d, 0, col, &nref);
	const char *unit = is_metric_unit(d->runs[d->configs[0].runs[0]], col);
	for (size_t c = 1; c < d->nconfigs && nref; c++) {
		double *v = config_values(d, c, col, &n);
		double dd = is_design_ks_d(ref, nref, v, n);
		if (n && dd > is_design_d_limit(nref, n)) {
			char *a = describe(d->configs[0].name, ref, nref, unit);
			char *b = describe(d->configs[c].name, v, n, unit);
			add(out, nout, is_xasprintf("design differs: %s of the kept datapoints: %s; %s "
				"(KS D = %.3f, limit %.3f): the configurations did not measure the same "
				"mix of %s, so a change in the outcomes may come from it", col, a, b, dd,
				is_design_d_limit(nref, n), col));
			free(a);
			free(b);
		}
		free(v);
	}
	free(ref);
}

/* A column every run has as a number, that the reference's method calls an input. */
static bool checked_input(const struct is_diff *d, const char *col)
{
	if (is_raw_timestamp(col) || is_col_role(d->runs[d->configs[0].runs[0]], col) != IS_ROLE_INPUT)
		return false;
	for (size_t r = 0; r < d->nruns; r++) {
		const struct is_column *k = is_table_col(d->runs[r]->dp, col);
		if (!k || k->type != IS_COL_NUM)
			return false;
	}
	return true;
}

void is_diff_design_warnings(const struct is_diff *d, char ***v, size_t *n)
{
	const struct is_table *t = d->runs[d->configs[0].runs[0]]->dp;
	for (size_t k = 0; k < t->ncols; k++)
		if (checked_input(d, t->cols[k].name))
			check_input(d, t->cols[k].name, v, n);
}
