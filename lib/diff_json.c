/* The JSON form of a comparison (the contract of `analyze diff --format json`). */
#include "idlescope/diff.h"
#include "idlescope/json_num.h"

/* Numbers read back as the same double; NaN and infinities are null. */
static cJSON *num_or_null(double v)
{
	return is_json_num(v);
}

static cJSON *func_json(const struct is_diff *d, const struct is_diff_part *p, size_t m, size_t f)
{
	cJSON *o = cJSON_CreateObject();
	cJSON *vals = cJSON_AddArrayToObject(o, "values"), *chg = cJSON_AddArrayToObject(o, "change");
	cJSON *pct = cJSON_AddArrayToObject(o, "pct");
	for (size_t r = 0; r < d->nruns; r++) {
		cJSON_AddItemToArray(vals, num_or_null(is_diff_value(d, p, m, r, f)));
		cJSON_AddItemToArray(chg, num_or_null(is_diff_change(d, p, m, r, f)));
		cJSON_AddItemToArray(pct, num_or_null(is_diff_pct(d, p, m, r, f)));
	}
	return o;
}

static cJSON *test_json(const struct is_diff_test *t)
{
	if (!t)
		return cJSON_CreateNull();
	cJSON *o = cJSON_CreateObject();
	cJSON_AddItemToObject(o, "mw_u", num_or_null(t->mw_u));
	cJSON_AddItemToObject(o, "mw_p", num_or_null(t->mw_p));
	cJSON_AddBoolToObject(o, "mw_exact", t->mw_exact);
	cJSON_AddItemToObject(o, "ks_d", num_or_null(t->ks_d));
	cJSON_AddItemToObject(o, "ks_p", num_or_null(t->ks_p));
	cJSON_AddBoolToObject(o, "ks_exact", t->ks_exact);
	cJSON_AddItemToObject(o, "med_diff", num_or_null(t->med_diff));
	cJSON *ci = cJSON_AddArrayToObject(o, "med_diff_ci95");
	cJSON_AddItemToArray(ci, num_or_null(t->ci_lo));
	cJSON_AddItemToArray(ci, num_or_null(t->ci_hi));
	cJSON_AddBoolToObject(o, "significant", t->significant);
	return o;
}

static cJSON *metrics_json(const struct is_diff *d, const struct is_diff_part *p)
{
	cJSON *o = cJSON_CreateObject();
	char line[1024];
	for (size_t m = 0; m < d->nmetrics; m++) {
		cJSON *mo = cJSON_AddObjectToObject(o, d->metrics[m]);
		cJSON_AddStringToObject(mo, "unit", d->units[m]);
		for (size_t f = 0; f < d->nfuncs; f++)
			cJSON_AddItemToObject(mo, d->funcs[f].name, func_json(d, p, m, f));
		cJSON *tests = cJSON_AddArrayToObject(mo, "tests");
		cJSON *verdicts = cJSON_AddArrayToObject(mo, "verdict");
		for (size_t r = 0; r < d->nruns; r++) {
			cJSON_AddItemToArray(tests, test_json(is_diff_get_test(d, p, m, r)));
			if (r == 0) {
				cJSON_AddItemToArray(verdicts, cJSON_CreateNull());
				continue;
			}
			is_diff_verdict(d, p, m, r, line, sizeof(line));
			cJSON_AddItemToArray(verdicts, cJSON_CreateString(line));
		}
	}
	return o;
}

static cJSON *rows_json(const struct is_diff *d, const struct is_diff_part *p)
{
	cJSON *a = cJSON_CreateArray();
	for (size_t r = 0; r < d->nruns; r++)
		cJSON_AddItemToArray(a, is_json_num((double)p->rows[r]));
	return a;
}

cJSON *is_diff_to_json(const struct is_diff *d)
{
	cJSON *o = cJSON_CreateObject();
	cJSON_AddStringToObject(o, "reference", d->runs[0]->name);
	cJSON *runs = cJSON_AddArrayToObject(o, "runs");
	for (size_t r = 0; r < d->nruns; r++) {
		cJSON *ro = cJSON_CreateObject();
		cJSON_AddStringToObject(ro, "reportid", d->runs[r]->name);
		cJSON_AddStringToObject(ro, "path", d->runs[r]->path);
		cJSON_AddStringToObject(ro, "toolname", d->runs[r]->toolname);
		is_json_add_num(ro, "rows", (double)d->overall.rows[r]);
		cJSON_AddItemToArray(runs, ro);
	}
	cJSON_AddItemToObject(o, "metrics", metrics_json(d, &d->overall));
	if (!d->group_col)
		cJSON_AddNullToObject(o, "group_by");
	else
		cJSON_AddStringToObject(o, "group_by", d->group_col);
	cJSON *groups = cJSON_AddObjectToObject(o, "groups");
	for (size_t g = 0; g < d->ngroups; g++) {
		cJSON *go = cJSON_AddObjectToObject(groups, d->groups[g].label);
		cJSON_AddItemToObject(go, "rows", rows_json(d, &d->groups[g]));
		cJSON_AddItemToObject(go, "metrics", metrics_json(d, &d->groups[g]));
	}
	return o;
}
