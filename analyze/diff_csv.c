/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * analyze diff --format csv: one tidy table, a row per number:
 *   kind,by,group,metric,func,run,value,change,pct
 * kind "stat": func is a --funcs name, run the configuration; change and pct against the
 *   reference;
 * kind "run": func med, 99% or 99.9% of one run (run is the run's name);
 * kind "test": func is level (1 run, 0 datapoint), replicates_ref, replicates, mw_u, mw_p,
 *   ks_d, ks_p, med_diff, ci95_lo, ci95_hi, differs, significant (1/0), and at level run
 *   FUNC_diff, FUNC_ci95_lo, FUNC_ci95_hi, FUNC_p, FUNC_significant for FUNC med, 99%, 99.9%;
 *   for every configuration but the reference; change and pct are empty;
 *   with FUNC_p_adj (Holm), FUNC_margin, FUNC_equivalent (1/0), FUNC_mde at level run;
 * kind "sharetest": a group's share of the runs' datapoints (metric empty): func diff,
 *   ci95_lo, ci95_hi, p, p_adj, significant;
 * kind "counter": metric is a counter summary column, func is empty, run the configuration;
 * kind "warning": metric is a confounder warning's text.
 * by and group are empty for all datapoints; for a group, by is the grouping column and group
 * its value (which may be empty: by tells the two apart).
 */
#include <math.h>
#include <string.h>

#include "diff_output.h"
#include "text/json_num.h"
#include "out_format.h"

static void num(FILE *f, double v)
{
	char buf[ISC_NUM_STR_LEN];
	fputc(',', f);
	if (isfinite(v))  /* the shortest text that reads back as v, as in JSON */
		fputs(isc_num_str(buf, v), f);
}

struct csv_group {
	const char *by, *value;  /* "" and "" for all datapoints */
};

static void row_head(FILE *f, const char *kind, struct csv_group g, const char *metric,
		     const char *func, const char *run)
{
	fprintf(f, "%s,", kind);
	csv_field(f, g.by);
	fputc(',', f);
	csv_field(f, g.value);
	fputc(',', f);
	csv_field(f, metric);
	fputc(',', f);
	csv_field(f, func);
	fputc(',', f);
	csv_field(f, run);
}

static void test_item(FILE *f, struct csv_group group, const char *metric, const char *run,
		      const char *name, double v)
{
	row_head(f, "test", group, metric, name, run);
	num(f, v);
	fputs(",,\n", f);
}

static void test_rows(FILE *f, struct csv_group group, const char *metric, const char *run,
		      const struct isc_diff_test *t)
{
	const struct { const char *name; double v; } items[] = {
		{ "level", t->level == ISC_LEVEL_RUN }, { "replicates_ref", (double)t->rep_ref },
		{ "replicates", (double)t->rep },
		{ "mw_u", t->mw_u }, { "mw_p", t->mw_p }, { "ks_d", t->ks_d }, { "ks_p", t->ks_p },
		{ "med_diff", t->med_diff }, { "ci95_lo", t->ci_lo }, { "ci95_hi", t->ci_hi },
		{ "differs", t->differs ? 1 : 0 }, { "significant", t->significant ? 1 : 0 },
	};
	for (size_t i = 0; i < sizeof(items) / sizeof(items[0]); i++)
		test_item(f, group, metric, run, items[i].name, items[i].v);
	for (size_t k = 0; t->level == ISC_LEVEL_RUN && k < ISC_DIFF_NQ; k++) {
		const struct isc_diff_qtest *q = &t->q[k];
		const struct { const char *suffix; double v; } qi[] = {
			{ "diff", q->diff }, { "ci95_lo", q->ci_lo }, { "ci95_hi", q->ci_hi },
			{ "p", q->p }, { "significant", q->valid ? q->significant : NAN },
			{ "p_adj", q->v.p_adj }, { "margin", q->v.margin },
			{ "equivalent", q->v.answer == ISC_ANSWER_EQUIVALENT },
			{ "mde", q->v.mde },
		};
		for (size_t i = 0; q->valid && i < sizeof(qi) / sizeof(qi[0]); i++) {
			char name[48];
			snprintf(name, sizeof(name), "%s_%s", isc_diff_q_name[k], qi[i].suffix);
			test_item(f, group, metric, run, name, qi[i].v);
		}
	}
}

static void part_csv(FILE *f, const struct isc_diff *d, const struct isc_diff_part *p)
{
	struct csv_group group = { p->label ? d->group_col : "", p->label ? p->label : "" };
	for (size_t m = 0; m < d->nmetrics; m++) {
		for (size_t fi = 0; fi < d->nfuncs; fi++)
			for (size_t r = 0; r < d->nconfigs; r++) {
				row_head(f, "stat", group, d->metrics[m], d->funcs[fi].name,
					 d->configs[r].name);
				num(f, isc_diff_value(d, p, m, r, fi));
				num(f, isc_diff_change(d, p, m, r, fi));
				num(f, isc_diff_pct(d, p, m, r, fi));
				fputc('\n', f);
			}
		for (size_t k = 0; d->nruns > d->nconfigs && k < ISC_DIFF_NQ; k++)
			for (size_t r = 0; r < d->nruns; r++) {
				row_head(f, "run", group, d->metrics[m], isc_diff_q_name[k],
					 d->runs[r]->name);
				num(f, isc_diff_run_q(d, p, m, r, k));
				fputs(",,\n", f);
			}
		for (size_t r = 1; r < d->nconfigs; r++) {
			const struct isc_diff_test *t = isc_diff_get_test(d, p, m, r);
			if (t)
				test_rows(f, group, d->metrics[m], d->configs[r].name, t);
		}
	}
}

/* kind "sharetest": a group's share of the runs' rows against the reference's. */
static void share_csv(FILE *f, const struct isc_diff *d, const struct isc_diff_part *p)
{
	struct csv_group group = { d->group_col, p->label };
	for (size_t c = 1; p->shares && c < d->nconfigs; c++) {
		const struct isc_verdict *v = &p->shares[c];
		const struct { const char *name; double v; } items[] = {
			{ "diff", v->diff }, { "ci95_lo", v->lo }, { "ci95_hi", v->hi }, { "p", v->p },
			{ "p_adj", v->p_adj }, { "significant", v->significant },
		};
		for (size_t i = 0; v->answer && i < sizeof(items) / sizeof(items[0]); i++) {
			row_head(f, "sharetest", group, "", items[i].name, d->configs[c].name);
			num(f, items[i].v);
			fputs(",,\n", f);
		}
	}
}

void diff_print_csv(FILE *f, const struct diff_out *o)
{
	const struct isc_diff *d = o->d;
	const struct diff_counters *c = o->c;
	fputs("kind,by,group,metric,func,run,value,change,pct\n", f);
	part_csv(f, d, &d->overall);
	if (o->flags)
		diff_flags_csv(f, o->flags, d, 0, "", "");
	for (size_t g = 0; g < d->ngroups; g++) {
		part_csv(f, d, &d->groups[g]);
		share_csv(f, d, &d->groups[g]);
		if (o->flags)
			diff_flags_csv(f, o->flags, d, g + 1, d->group_col, d->groups[g].label);
	}
	diff_counters_csv(f, d, c);
	for (size_t i = 0; i < o->nwarn; i++) {
		row_head(f, "warning", (struct csv_group){ "", "" }, o->warn[i], "", "");
		fputs(",,,\n", f);
	}
}

void diff_counters_csv(FILE *f, const struct isc_diff *d, const struct diff_counters *c)
{
	size_t nc = d->nconfigs;
	for (size_t k = 0; c && k < c->ncols; k++) {
		double ref = c->vals[k * nc];
		for (size_t r = 0; r < nc; r++) {
			double v = c->vals[k * nc + r];
			row_head(f, "counter", (struct csv_group){ "", "" }, c->names[k], "",
				 d->configs[r].name);
			num(f, v);
			num(f, v - ref);
			num(f, ref != 0 ? 100 * (v - ref) / fabs(ref) : NAN);
			fputc('\n', f);
		}
	}
}
