/* A run's counter summary for analyze diff and report (counters_summary.h). */
#include "idlescope/counters_summary.h"

#include <math.h>

#include "idlescope/counters_derive.h"

static cJSON *number_or_null(double v)
{
	return isnan(v) ? cJSON_CreateNull() : cJSON_CreateNumber(v);
}

static cJSON *make_series(const struct cnt_data *d)
{
	struct cnt_derive_opts o = { 0 };
	struct cnt_result r;
	if (cnt_derive(d, &o, &r))
		return NULL;
	cJSON *s = cJSON_CreateObject();
	cJSON *t = cJSON_AddArrayToObject(s, "t");
	for (size_t i = 0; i < r.niv; i++)
		cJSON_AddItemToArray(t, cJSON_CreateNumber(r.iv[i].t1));
	for (size_t k = 0; k < r.ncols; k++) {
		cJSON *a = cJSON_AddArrayToObject(s, r.cols[k]);
		for (size_t i = 0; i < r.niv; i++)
			cJSON_AddItemToArray(a, number_or_null(r.iv[i].summary[k]));
	}
	cnt_result_free(&r);
	return s;
}

int is_counters_summary(const char *rundir, cJSON **summary, cJSON **series)
{
	struct cnt_data *d;
	int rc = cnt_data_load(rundir, &d);
	if (rc <= 0)
		return rc;
	struct cnt_derive_opts o = { .whole_run = true };
	struct cnt_result r;
	if (cnt_derive(d, &o, &r)) {
		cnt_data_free(d);
		return -1;
	}
	*summary = cJSON_CreateObject();
	for (size_t k = 0; k < r.ncols; k++)
		if (!isnan(r.iv[0].summary[k]))
			cJSON_AddNumberToObject(*summary, r.cols[k], r.iv[0].summary[k]);
	cnt_result_free(&r);
	if (series)
		*series = make_series(d);
	cnt_data_free(d);
	return 1;
}
