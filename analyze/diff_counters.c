/* SPDX-License-Identifier: GPL-2.0-only */
/* analyze diff: counter summaries (analyze counters' columns) of every run, side by side. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "diff_output.h"
#include "counters/derive/counters_summary.h"
#include "text/json_num.h"
#include "text/util.h"

static int load_summaries(cJSON **sum, struct isc_run **runs, size_t nruns)
{
	for (size_t r = 0; r < nruns; r++) {
		int rc = isc_counters_summary(runs[r]->dir, &sum[r], NULL);
		if (rc < 0)
			return -1;
		if (rc == 0)
			sum[r] = NULL;
	}
	return 0;
}

static void collect_columns(struct diff_counters *c, cJSON **sum, const struct isc_diff *d,
			    size_t ref)
{
	const cJSON *item;
	size_t n = 0, nruns = d->nruns;
	cJSON_ArrayForEach(item, sum[ref])
		n += cJSON_IsNumber(item);
	c->names = isc_xcalloc(n + 1, sizeof(char *));
	c->run_vals = isc_xcalloc(n * nruns + 1, sizeof(double));
	cJSON_ArrayForEach(item, sum[ref]) {
		if (!cJSON_IsNumber(item))
			continue;
		size_t k = c->ncols++;
		c->names[k] = isc_xstrdup(item->string);
		for (size_t r = 0; r < nruns; r++) {
			const cJSON *v = sum[r] ? cJSON_GetObjectItemCaseSensitive(sum[r], item->string)
						: NULL;
			c->run_vals[k * nruns + r] = cJSON_IsNumber(v) ? v->valuedouble : NAN;
		}
	}
	for (size_t r = 0; r < nruns; r++)
		if (!sum[r] && r != ref)
			isc_warn("%s has no counters.csv: its counter columns are empty", d->runs[r]->name);
}

/* A configuration's value: the mean of its runs' (those that have it). */
static void config_means(struct diff_counters *c, const struct isc_diff *d)
{
	c->vals = isc_xcalloc(c->ncols * d->nconfigs + 1, sizeof(double));
	for (size_t k = 0; k < c->ncols; k++)
		for (size_t cf = 0; cf < d->nconfigs; cf++) {
			double sum = 0;
			size_t n = 0;
			for (size_t i = 0; i < d->configs[cf].nruns; i++) {
				double v = c->run_vals[k * d->nruns + d->configs[cf].runs[i]];
				if (!isnan(v)) {
					sum += v;
					n++;
				}
			}
			c->vals[k * d->nconfigs + cf] = n ? sum / (double)n : NAN;
		}
}

int diff_counters_load(struct diff_counters *c, const struct isc_diff *d)
{
	size_t nruns = d->nruns, ref = d->configs[0].runs[0];
	memset(c, 0, sizeof(*c));
	cJSON **sum = isc_xcalloc(nruns, sizeof(cJSON *));
	int rc = load_summaries(sum, d->runs, nruns);
	if (rc == 0 && sum[ref]) {
		collect_columns(c, sum, d, ref);
		config_means(c, d);
	} else if (rc == 0) {
		for (size_t r = 0; r < nruns; r++)
			if (sum[r]) {
				isc_warn("the reference %s has no counters.csv: counters are not compared",
					d->runs[ref]->name);
				break;
			}
	}
	for (size_t r = 0; r < nruns; r++)
		cJSON_Delete(sum[r]);
	free(sum);
	return rc;
}

void diff_counters_free(struct diff_counters *c)
{
	for (size_t k = 0; k < c->ncols; k++)
		free(c->names[k]);
	free(c->names);
	free(c->vals);
	free(c->run_vals);
	memset(c, 0, sizeof(*c));
}

static cJSON *num_or_null(double v)
{
	return isc_json_num(v);
}

cJSON *diff_counters_json(const struct diff_counters *c, const struct isc_diff *d)
{
	if (!c->ncols)
		return cJSON_CreateNull();
	cJSON *o = cJSON_CreateObject();
	size_t nc = d->nconfigs;
	for (size_t k = 0; k < c->ncols; k++) {
		cJSON *co = cJSON_AddObjectToObject(o, c->names[k]);
		cJSON *vals = cJSON_AddArrayToObject(co, "values");
		cJSON *chg = cJSON_AddArrayToObject(co, "change"), *pct = cJSON_AddArrayToObject(co, "pct");
		cJSON *runs = cJSON_AddArrayToObject(co, "runs");
		double ref = c->vals[k * nc];
		for (size_t r = 0; r < nc; r++) {
			double v = c->vals[k * nc + r];
			cJSON_AddItemToArray(vals, num_or_null(v));
			cJSON_AddItemToArray(chg, num_or_null(v - ref));
			cJSON_AddItemToArray(pct, num_or_null(ref != 0 ? 100 * (v - ref) / fabs(ref) : NAN));
		}
		for (size_t r = 0; r < d->nruns; r++)
			cJSON_AddItemToArray(runs, num_or_null(c->run_vals[k * d->nruns + r]));
	}
	return o;
}
