/* analyze diff: counter summaries (analyze counters' columns) of every run, side by side. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "diff_output.h"
#include "idlescope/counters_summary.h"
#include "idlescope/json_num.h"
#include "idlescope/util.h"

static int load_summaries(cJSON **sum, struct is_run **runs, size_t nruns)
{
	for (size_t r = 0; r < nruns; r++) {
		int rc = is_counters_summary(runs[r]->dir, &sum[r], NULL);
		if (rc < 0)
			return -1;
		if (rc == 0)
			sum[r] = NULL;
	}
	return 0;
}

static void collect_columns(struct diff_counters *c, cJSON **sum, struct is_run **runs,
			    size_t nruns)
{
	const cJSON *item;
	size_t n = 0;
	cJSON_ArrayForEach(item, sum[0])
		n += cJSON_IsNumber(item);
	c->names = is_xcalloc(n + 1, sizeof(char *));
	c->vals = is_xcalloc(n * nruns + 1, sizeof(double));
	cJSON_ArrayForEach(item, sum[0]) {
		if (!cJSON_IsNumber(item))
			continue;
		size_t k = c->ncols++;
		c->names[k] = is_xstrdup(item->string);
		for (size_t r = 0; r < nruns; r++) {
			const cJSON *v = sum[r] ? cJSON_GetObjectItemCaseSensitive(sum[r], item->string)
						: NULL;
			c->vals[k * nruns + r] = cJSON_IsNumber(v) ? v->valuedouble : NAN;
		}
	}
	for (size_t r = 1; r < nruns; r++)
		if (!sum[r])
			is_warn("%s has no counters.csv: its counter columns are empty", runs[r]->name);
}

int diff_counters_load(struct diff_counters *c, struct is_run **runs, size_t nruns)
{
	memset(c, 0, sizeof(*c));
	cJSON **sum = is_xcalloc(nruns, sizeof(cJSON *));
	int rc = load_summaries(sum, runs, nruns);
	if (rc == 0 && sum[0]) {
		collect_columns(c, sum, runs, nruns);
	} else if (rc == 0) {
		for (size_t r = 1; r < nruns; r++)
			if (sum[r]) {
				is_warn("the reference %s has no counters.csv: counters are not compared",
					runs[0]->name);
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
	memset(c, 0, sizeof(*c));
}

static cJSON *num_or_null(double v)
{
	return is_json_num(v);
}

cJSON *diff_counters_json(const struct diff_counters *c, size_t nruns)
{
	if (!c->ncols)
		return cJSON_CreateNull();
	cJSON *o = cJSON_CreateObject();
	for (size_t k = 0; k < c->ncols; k++) {
		cJSON *co = cJSON_AddObjectToObject(o, c->names[k]);
		cJSON *vals = cJSON_AddArrayToObject(co, "values");
		cJSON *chg = cJSON_AddArrayToObject(co, "change"), *pct = cJSON_AddArrayToObject(co, "pct");
		double ref = c->vals[k * nruns];
		for (size_t r = 0; r < nruns; r++) {
			double v = c->vals[k * nruns + r];
			cJSON_AddItemToArray(vals, num_or_null(v));
			cJSON_AddItemToArray(chg, num_or_null(v - ref));
			cJSON_AddItemToArray(pct, num_or_null(ref != 0 ? 100 * (v - ref) / fabs(ref) : NAN));
		}
	}
	return o;
}
