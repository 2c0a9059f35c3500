/* SPDX-License-Identifier: GPL-2.0-only */
/* analyze diff: the flags' tables (text, CSV, JSON); the numbers are lib/diff/diff_flags.c's. */
#include "diff_flags.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "text/json_num.h"
#include "text/util.h"
#include "out_format.h"

static double share(size_t values, size_t set)
{
	return values ? (double)set / (double)values : NAN;
}

void diff_flags_text(FILE *f, const struct isc_diff_flags *fl, const struct isc_diff *d, size_t part)
{
	size_t w = 4, wc = 6;
	if (!fl->n)
		return;
	for (size_t k = 0; k < fl->n; k++)
		w = strlen(fl->names[k]) > w ? strlen(fl->names[k]) : w;
	for (size_t c = 0; c < d->nconfigs; c++)
		wc = strlen(d->configs[c].name) > wc ? strlen(d->configs[c].name) : wc;
	fprintf(f, "\n%-*s  %-*s  %10s  %10s  %8s  %10s  %8s  %s\n", (int)w, "Flag", (int)wc, "config",
		"values", "set (1)", "share", "change", "p", "test");
	for (size_t k = 0; k < fl->n; k++)
		for (size_t c = 0; c < d->nconfigs; c++) {
			size_t v, s, v0, s0;
			char sh[32] = "-", ch[32] = "", p[32] = "", how[96] = "";
			isc_diff_flag_counts(fl, d, part, k, c, &v, &s);
			isc_diff_flag_counts(fl, d, part, k, 0, &v0, &s0);
			if (v)
				snprintf(sh, sizeof(sh), "%.2f%%", 100 * share(v, s));
			const struct isc_diff_flag_test *t = isc_diff_flag_test_of(fl, part, k, c);
			if (t) {
				snprintf(ch, sizeof(ch), "%+.2f pts", 100 * t->diff);
				snprintf(p, sizeof(p), t->p < 1e-4 ? "%.1e" : "%.4f", t->p);
				snprintf(how, sizeof(how), "%s, %s", t->method, isc_diff_flag_words(t));
			}
			char *line = isc_xasprintf("%-*s  %-*s  %10zu  %10zu  %8s  %10s  %8s  %s", (int)w,
						  fl->names[k], (int)wc, d->configs[c].name, v, s, sh,
						  ch, p, how);
			size_t len = strlen(line);
			while (len && line[len - 1] == ' ')
				line[--len] = '\0';
			fprintf(f, "%s\n", line);
			free(line);
		}
}

static void csv_row(FILE *f, const char *kind, const char *by, const char *group, const char *flag,
		    const char *func, const char *run, double v)
{
	char buf[ISC_NUM_STR_LEN];
	fprintf(f, "%s,", kind);
	csv_field(f, by);
	fputc(',', f);
	csv_field(f, group);
	fputc(',', f);
	csv_field(f, flag);
	fprintf(f, ",%s,", func);
	csv_field(f, run);
	fprintf(f, ",%s,,\n", isfinite(v) ? isc_num_str(buf, v) : "");
}

void diff_flags_csv(FILE *f, const struct isc_diff_flags *fl, const struct isc_diff *d, size_t part,
		    const char *by, const char *group)
{
	for (size_t k = 0; k < fl->n; k++)
		for (size_t c = 0; c < d->nconfigs; c++) {
			size_t v, s;
			const char *run = d->configs[c].name;
			isc_diff_flag_counts(fl, d, part, k, c, &v, &s);
			csv_row(f, "flag", by, group, fl->names[k], "values", run, (double)v);
			csv_row(f, "flag", by, group, fl->names[k], "set", run, (double)s);
			csv_row(f, "flag", by, group, fl->names[k], "share", run, share(v, s));
			const struct isc_diff_flag_test *t = isc_diff_flag_test_of(fl, part, k, c);
			if (!t)
				continue;
			csv_row(f, "flagtest", by, group, fl->names[k], "level", run, t->level == ISC_LEVEL_RUN);
			csv_row(f, "flagtest", by, group, fl->names[k], "fisher_exact", run,
				!strcmp(t->method, "fisher-exact"));
			csv_row(f, "flagtest", by, group, fl->names[k], "diff", run, t->diff);
			csv_row(f, "flagtest", by, group, fl->names[k], "p", run, t->p);
			csv_row(f, "flagtest", by, group, fl->names[k], "differs", run, t->differs);
			csv_row(f, "flagtest", by, group, fl->names[k], "significant", run, t->significant);
		}
}

static cJSON *flag_json(const struct isc_diff_flags *fl, const struct isc_diff *d, size_t part, size_t k)
{
	cJSON *o = cJSON_CreateObject(), *vals = cJSON_AddArrayToObject(o, "values");
	cJSON *sets = cJSON_AddArrayToObject(o, "set"), *shares = cJSON_AddArrayToObject(o, "share");
	cJSON *runs = cJSON_AddArrayToObject(o, "runs"), *tests = cJSON_AddArrayToObject(o, "tests");
	for (size_t c = 0; c < d->nconfigs; c++) {
		size_t v, s;
		isc_diff_flag_counts(fl, d, part, k, c, &v, &s);
		cJSON_AddItemToArray(vals, isc_json_num((double)v));
		cJSON_AddItemToArray(sets, isc_json_num((double)s));
		cJSON_AddItemToArray(shares, isc_json_num(share(v, s)));
		const struct isc_diff_flag_test *t = isc_diff_flag_test_of(fl, part, k, c);
		cJSON *to = t ? cJSON_CreateObject() : cJSON_CreateNull();
		if (t) {
			cJSON_AddStringToObject(to, "level", t->level == ISC_LEVEL_RUN ? "run" : "datapoint");
			cJSON_AddStringToObject(to, "method", t->method);
			isc_json_add_num(to, "diff", t->diff);
			isc_json_add_num(to, "p", t->p);
			cJSON_AddBoolToObject(to, "differs", t->differs);
			cJSON_AddBoolToObject(to, "significant", t->significant);
			if (t->level == ISC_LEVEL_RUN)   /* in the family: Holm-adjusted */
				isc_json_add_num(to, "p_adj", t->p_adj);
		}
		cJSON_AddItemToArray(tests, to);
	}
	for (size_t r = 0; r < d->nruns; r++) {
		cJSON *ro = cJSON_CreateObject();
		size_t v = fl->values[(part * fl->n + k) * fl->nruns + r];
		size_t s = fl->set[(part * fl->n + k) * fl->nruns + r];
		isc_json_add_num(ro, "values", (double)v);
		isc_json_add_num(ro, "set", (double)s);
		isc_json_add_num(ro, "share", share(v, s));
		cJSON_AddItemToArray(runs, ro);
	}
	return o;
}

cJSON *diff_flags_json(const struct isc_diff_flags *fl, const struct isc_diff *d, size_t part)
{
	cJSON *o = cJSON_CreateObject();
	for (size_t k = 0; k < fl->n; k++)
		cJSON_AddItemToObject(o, fl->names[k], flag_json(fl, d, part, k));
	return o;
}
