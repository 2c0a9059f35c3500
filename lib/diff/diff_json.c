/* SPDX-License-Identifier: GPL-2.0-only */
/* The JSON form of a comparison (the contract of `analyze diff --format json`). */
#include "diff/diff.h"
#include "text/json_num.h"
#include <stdio.h>


/* Numbers read back as the same double; NaN and infinities are null. */
static cJSON *num_or_null(double v)
{
	return isc_json_num(v);
}

static cJSON *func_json(const struct isc_diff *d, const struct isc_diff_part *p, size_t m, size_t f)
{
	cJSON *o = cJSON_CreateObject();
	cJSON *vals = cJSON_AddArrayToObject(o, "values"), *chg = cJSON_AddArrayToObject(o, "change");
	cJSON *pct = cJSON_AddArrayToObject(o, "pct");
	for (size_t r = 0; r < d->nconfigs; r++) {
		cJSON_AddItemToArray(vals, num_or_null(isc_diff_value(d, p, m, r, f)));
		cJSON_AddItemToArray(chg, num_or_null(isc_diff_change(d, p, m, r, f)));
		cJSON_AddItemToArray(pct, num_or_null(isc_diff_pct(d, p, m, r, f)));
	}
	return o;
}

static cJSON *ci_json(double lo, double hi)
{
	cJSON *ci = cJSON_CreateArray();
	cJSON_AddItemToArray(ci, num_or_null(lo));
	cJSON_AddItemToArray(ci, num_or_null(hi));
	return ci;
}

static const char *answer_name(enum isc_answer a)
{
	static const char *const names[] = { "none", "refused", "untested", "changed", "equivalent",
					     "inconclusive" };
	return names[a];
}

cJSON *isc_verdict_json(const struct isc_verdict *v)
{
	cJSON *o = cJSON_CreateObject();
	cJSON_AddStringToObject(o, "answer", answer_name(v->answer));
	cJSON_AddItemToObject(o, "diff", num_or_null(v->diff));
	cJSON_AddItemToObject(o, "ci95", ci_json(v->lo, v->hi));
	cJSON_AddItemToObject(o, "se", num_or_null(v->se));
	cJSON_AddItemToObject(o, "df", num_or_null(v->df));
	cJSON_AddItemToObject(o, "p", num_or_null(v->p));
	cJSON_AddItemToObject(o, "p_adj", num_or_null(v->p_adj));
	cJSON_AddBoolToObject(o, "in_family", v->in_family);
	cJSON_AddBoolToObject(o, "significant", v->significant);
	cJSON_AddItemToObject(o, "margin", num_or_null(v->margin));
	cJSON_AddItemToObject(o, "p_equiv", num_or_null(v->p_equiv));
	cJSON_AddItemToObject(o, "p_equiv_adj", num_or_null(v->p_equiv_adj));
	cJSON_AddItemToObject(o, "mde", num_or_null(v->mde));
	cJSON_AddItemToObject(o, "runs_needed", v->runs_needed < 0 ? cJSON_CreateNull()
				: isc_json_num((double)v->runs_needed));
	if (v->refusal)
		cJSON_AddStringToObject(o, "refusal", v->refusal);
	else
		cJSON_AddNullToObject(o, "refusal");
	if (v->no_answer)
		cJSON_AddStringToObject(o, "no_answer", v->no_answer);
	else
		cJSON_AddNullToObject(o, "no_answer");
	return o;
}

/* {"med": {"diff", "ci95", "p", "df", "significant", "verdict": {..}}, "99%": .., "99.9%": ..} */
static cJSON *run_level_json(const struct isc_diff_test *t)
{
	if (t->level != ISC_LEVEL_RUN)
		return cJSON_CreateNull();
	cJSON *o = cJSON_CreateObject();
	for (size_t k = 0; k < ISC_DIFF_NQ; k++) {
		const struct isc_diff_qtest *q = &t->q[k];
		if (!q->valid) {
			cJSON_AddNullToObject(o, isc_diff_q_name[k]);
			continue;
		}
		cJSON *qo = cJSON_AddObjectToObject(o, isc_diff_q_name[k]);
		cJSON_AddItemToObject(qo, "diff", num_or_null(q->diff));
		cJSON_AddItemToObject(qo, "ci95", ci_json(q->ci_lo, q->ci_hi));
		cJSON_AddItemToObject(qo, "p", num_or_null(q->p));
		cJSON_AddItemToObject(qo, "df", num_or_null(q->df));
		cJSON_AddBoolToObject(qo, "significant", q->significant);
		cJSON_AddItemToObject(qo, "verdict", isc_verdict_json(&q->v));
	}
	return o;
}

static cJSON *test_json(const struct isc_diff_test *t)
{
	if (!t)
		return cJSON_CreateNull();
	cJSON *o = cJSON_CreateObject();
	cJSON_AddStringToObject(o, "level", t->level == ISC_LEVEL_RUN ? "run" : "datapoint");
	cJSON *rep = cJSON_AddArrayToObject(o, "replicates");
	cJSON_AddItemToArray(rep, isc_json_num((double)t->rep_ref));
	cJSON_AddItemToArray(rep, isc_json_num((double)t->rep));
	cJSON_AddStringToObject(o, "method", t->method);
	cJSON_AddItemToObject(o, "mw_u", num_or_null(t->mw_u));
	cJSON_AddItemToObject(o, "mw_p", num_or_null(t->mw_p));
	cJSON_AddBoolToObject(o, "mw_exact", t->mw_exact);
	cJSON_AddItemToObject(o, "ks_d", num_or_null(t->ks_d));
	cJSON_AddItemToObject(o, "ks_p", num_or_null(t->ks_p));
	cJSON_AddBoolToObject(o, "ks_exact", t->ks_exact);
	cJSON_AddItemToObject(o, "med_diff", num_or_null(t->med_diff));
	cJSON_AddItemToObject(o, "med_diff_ci95", ci_json(t->ci_lo, t->ci_hi));
	cJSON_AddBoolToObject(o, "differs", t->differs);
	cJSON_AddBoolToObject(o, "significant", t->significant);
	cJSON_AddItemToObject(o, "run_level", run_level_json(t));
	return o;
}

static cJSON *metrics_json(const struct isc_diff *d, const struct isc_diff_part *p)
{
	cJSON *o = cJSON_CreateObject();
	char line[1024];
	for (size_t m = 0; m < d->nmetrics; m++) {
		cJSON *mo = cJSON_AddObjectToObject(o, d->metrics[m]);
		cJSON_AddStringToObject(mo, "unit", d->units[m]);
		for (size_t f = 0; f < d->nfuncs; f++)
			cJSON_AddItemToObject(mo, d->funcs[f].name, func_json(d, p, m, f));
		cJSON *runs = cJSON_AddArrayToObject(mo, "runs");  /* an array: objects are funcs */
		for (size_t r = 0; r < d->nruns; r++) {
			cJSON *ro = cJSON_CreateObject();
			for (size_t k = 0; k < ISC_DIFF_NQ; k++)
				cJSON_AddItemToObject(ro, isc_diff_q_name[k],
						      num_or_null(isc_diff_run_q(d, p, m, r, k)));
			cJSON_AddItemToArray(runs, ro);
		}
		cJSON *tests = cJSON_AddArrayToObject(mo, "tests");
		cJSON *verdicts = cJSON_AddArrayToObject(mo, "verdict");
		for (size_t r = 0; r < d->nconfigs; r++) {
			cJSON_AddItemToArray(tests, test_json(isc_diff_get_test(d, p, m, r)));
			if (r == 0) {
				cJSON_AddItemToArray(verdicts, cJSON_CreateNull());
				continue;
			}
			isc_diff_verdict(d, p, m, r, line, sizeof(line));
			cJSON_AddItemToArray(verdicts, cJSON_CreateString(line));
		}
	}
	return o;
}

static cJSON *counts_json(const size_t *v, size_t n)
{
	cJSON *a = cJSON_CreateArray();
	for (size_t i = 0; i < n; i++)
		cJSON_AddItemToArray(a, isc_json_num((double)v[i]));
	return a;
}

static cJSON *configs_json(const struct isc_diff *d)
{
	cJSON *a = cJSON_CreateArray();
	for (size_t c = 0; c < d->nconfigs; c++) {
		cJSON *co = cJSON_CreateObject(), *runs;
		cJSON_AddStringToObject(co, "name", d->configs[c].name);
		runs = cJSON_AddArrayToObject(co, "runs");
		for (size_t i = 0; i < d->configs[c].nruns; i++)
			cJSON_AddItemToArray(runs,
					     cJSON_CreateString(d->runs[d->configs[c].runs[i]]->name));
		isc_json_add_num(co, "rows", (double)d->overall.rows[c]);
		cJSON_AddItemToArray(a, co);
	}
	return a;
}

/* {"method": "holm", "alpha", "size", "primary": "M:F[:G]" | null, "text"} */
static cJSON *family_json(const struct isc_diff *d)
{
	cJSON *o = cJSON_CreateObject();
	char line[512];
	size_t n = 0;
	for (size_t i = 0; i < d->nfamily; i++)
		n += d->family[i]->in_family;
	cJSON_AddStringToObject(o, "method", "holm");
	isc_json_add_num(o, "alpha", ISC_DIFF_ALPHA);
	isc_json_add_num(o, "size", (double)n);
	if (d->primary.set) {
		snprintf(line, sizeof(line), "%s:%s%s%s", d->primary.metric,
			 isc_diff_q_name[d->primary.q], d->primary.group ? ":" : "",
			 d->primary.group ? d->primary.group : "");
		cJSON_AddStringToObject(o, "primary", line);
	} else {
		cJSON_AddNullToObject(o, "primary");
	}
	isc_diff_family_line(d, line, sizeof(line));
	cJSON_AddStringToObject(o, "text", line);
	return o;
}

cJSON *isc_diff_to_json(const struct isc_diff *d)
{
	cJSON *o = cJSON_CreateObject();
	cJSON_AddStringToObject(o, "reference", d->configs[0].name);
	cJSON_AddItemToObject(o, "configs", configs_json(d));
	cJSON *runs = cJSON_AddArrayToObject(o, "runs");
	for (size_t r = 0; r < d->nruns; r++) {
		cJSON *ro = cJSON_CreateObject();
		cJSON_AddStringToObject(ro, "reportid", d->runs[r]->name);
		cJSON_AddStringToObject(ro, "path", d->runs[r]->path);
		cJSON_AddStringToObject(ro, "toolname", d->runs[r]->toolname);
		isc_json_add_num(ro, "rows", (double)d->overall.run_rows[r]);
		isc_json_add_num(ro, "config", (double)d->config_of[r]);
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
		cJSON_AddItemToObject(go, "rows", counts_json(d->groups[g].rows, d->nconfigs));
		cJSON_AddItemToObject(go, "run_rows", counts_json(d->groups[g].run_rows, d->nruns));
		cJSON_AddItemToObject(go, "metrics", metrics_json(d, &d->groups[g]));
		cJSON *sh = cJSON_AddArrayToObject(go, "shares");
		for (size_t c = 0; c < d->nconfigs; c++)
			cJSON_AddItemToArray(sh, c && d->groups[g].shares && d->groups[g].shares[c].answer
					     ? isc_verdict_json(&d->groups[g].shares[c])
					     : cJSON_CreateNull());
		cJSON_AddBoolToObject(go, "descriptive", !isc_diff_part_tested(d, &d->groups[g]));
	}
	cJSON_AddBoolToObject(o, "descriptive", !isc_diff_part_tested(d, &d->overall));
	cJSON_AddItemToObject(o, "family", family_json(d));
	return o;
}
