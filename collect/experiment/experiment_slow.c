/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What an experiment's runs say about one another (experiment.h): the runs that took many
 * times as long as their siblings, and the ETA from what the runs have really taken.
 */
#include <stdlib.h>
#include <string.h>

#include "experiment.h"
#include "text/util.h"

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

static double median(double *v, size_t n)
{
	qsort(v, n, sizeof(*v), cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2.0;
}

static bool duration_of(const cJSON *run, double *d)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(run, "duration_s");
	if (!cJSON_IsNumber(v) || !(v->valuedouble >= 0))
		return false;
	*d = v->valuedouble;
	return true;
}

cJSON *experiment_slow_runs(const cJSON *runs)
{
	cJSON *out = cJSON_CreateArray();
	size_t n = (size_t)cJSON_GetArraySize(runs);
	double *others = isc_xcalloc(n + 1, sizeof(*others));
	const cJSON *r, *o;
	cJSON_ArrayForEach(r, runs) {
		double d, m;
		size_t j = 0;
		if (!duration_of(r, &d))
			continue;
		cJSON_ArrayForEach(o, runs)
			if (o != r && duration_of(o, &others[j]))
				j++;
		if (j < SLOW_MIN_OTHERS)
			continue;
		m = median(others, j);
		if (d < SLOW_FACTOR * m || d - m < SLOW_MIN_EXTRA_S)
			continue;
		cJSON *s = cJSON_CreateObject();
		const cJSON *path = cJSON_GetObjectItemCaseSensitive(r, "path");
		const cJSON *pct = cJSON_GetObjectItemCaseSensitive(r, "discarded_pct");
		cJSON_AddStringToObject(s, "path", cJSON_IsString(path) ? path->valuestring : "");
		cJSON_AddNumberToObject(s, "duration_s", d);
		cJSON_AddNumberToObject(s, "median_others_s", m);
		cJSON_AddItemToObject(s, "discarded_pct", cJSON_IsNumber(pct) ? cJSON_CreateNumber(pct->valuedouble)
							     : cJSON_CreateNull());
		cJSON_AddItemToArray(out, s);
	}
	free(others);
	return out;
}

double experiment_eta_s(const struct eta_in *e)
{
	double cur_left = e->estimate_s > e->run_elapsed_s ? e->estimate_s - e->run_elapsed_s : 0.0;
	if (e->count && e->rows)   /* the observed rate of kept datapoints, discarded attempts' time included */
		cur_left = (double)(e->count > e->rows ? e->count - e->rows : 0) * e->run_elapsed_s / (double)e->rows;
	if (e->time_limit_s > 0 && e->time_limit_s - e->run_elapsed_s < cur_left)
		cur_left = e->time_limit_s > e->run_elapsed_s ? e->time_limit_s - e->run_elapsed_s : 0.0;
	double per_run = e->done ? e->done_s / (double)e->done : e->settle_s + e->run_elapsed_s + cur_left;
	if (!e->done && per_run < e->settle_s + e->estimate_s)
		per_run = e->settle_s + e->estimate_s;
	return cur_left + (double)(e->runs_after) * per_run;
}
