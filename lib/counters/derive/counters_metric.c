/* SPDX-License-Identifier: GPL-2.0-only */
/* --metric NAME=EXPR: user formulas over raw counter deltas, with the spine's expressions. */
#include "counters/derive/counters_derive_internal.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "text/util.h"

#define INTERVAL_VAR "interval_s"

int cnt_metric_parse(const char *spec, const struct cnt_data *d, struct cnt_metric *m,
		     char *err, size_t errlen)
{
	memset(m, 0, sizeof(*m));
	const char *eq = strchr(spec, '=');
	if (!eq || eq == spec) {
		snprintf(err, errlen, "'%s': expected NAME=EXPR", spec);
		return -1;
	}
	m->name = isc_xstrndup(spec, (size_t)(eq - spec));
	char perr[256];
	m->expr = isc_expr_parse(eq + 1, perr, sizeof(perr));
	if (!m->expr) {
		snprintf(err, errlen, "%s: %s", m->name, perr);
		goto bad;
	}
	size_t n = isc_expr_nvars(m->expr);
	m->var_col = isc_xcalloc(n ? n : 1, sizeof(size_t));
	for (size_t i = 0; i < n; i++) {
		const char *v = isc_expr_var(m->expr, i);
		m->var_col[i] = SIZE_MAX;
		if (!strcmp(v, INTERVAL_VAR))
			continue;
		const struct cnt_colinfo *ci = cnt_data_col(d, v);
		if (!ci) {
			size_t used = (size_t)snprintf(err, errlen, "%s: unknown counter '%s' (counters:", m->name, v);
			for (size_t j = 0; j < d->ncols && used < errlen; j++)
				used += (size_t)snprintf(err + used, errlen - used, " %s", d->ci[j].name);
			if (used < errlen)
				snprintf(err + used, errlen - used, "; and %s)", INTERVAL_VAR);
			goto bad;
		}
		m->var_col[i] = (size_t)(ci - d->ci);
	}
	return 0;
bad:
	cnt_metric_free(m);
	return -1;
}

void cnt_metric_free(struct cnt_metric *m)
{
	free(m->name);
	isc_expr_free(m->expr);
	free(m->var_col);
	memset(m, 0, sizeof(*m));
}

struct eval_arg {
	const struct cnt_metric *m;
	const double *vals;
	double dt;
};

static struct isc_value get_var(void *arg, size_t var)
{
	const struct eval_arg *a = arg;
	size_t col = a->m->var_col[var];
	struct isc_value v = { .is_str = false, .num = col == SIZE_MAX ? a->dt : a->vals[col] };
	return v;
}

double cnt_metric_eval(const struct cnt_metric *m, const double *vals, double dt)
{
	struct eval_arg a = { m, vals, dt };
	struct isc_value v = isc_expr_eval(m->expr, get_var, &a);
	return v.is_str || !isfinite(v.num) ? NAN : v.num;
}
