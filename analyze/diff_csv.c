/*
 * analyze diff --format csv: one tidy table, a row per number:
 *   kind,by,group,metric,func,run,value,change,pct
 * kind "stat": func is a --funcs name, change and pct against the reference;
 * kind "test": func is mw_u, mw_p, ks_d, ks_p, med_diff, ci95_lo, ci95_hi or significant
 *   (1/0), for every run but the reference; change and pct are empty;
 * kind "counter": metric is a counter summary column, func is empty.
 * by and group are empty for all datapoints; for a group, by is the grouping column and group
 * its value (which may be empty: by tells the two apart).
 */
#include <math.h>
#include <string.h>

#include "diff_output.h"
#include "idlescope/json_num.h"
#include "out_format.h"

static void num(FILE *f, double v)
{
	char buf[IS_NUM_STR_LEN];
	fputc(',', f);
	if (isfinite(v))  /* the shortest text that reads back as v, as in JSON */
		fputs(is_num_str(buf, v), f);
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

static void test_rows(FILE *f, struct csv_group group, const char *metric, const char *run,
		      const struct is_diff_test *t)
{
	const struct { const char *name; double v; } items[] = {
		{ "mw_u", t->mw_u }, { "mw_p", t->mw_p }, { "ks_d", t->ks_d }, { "ks_p", t->ks_p },
		{ "med_diff", t->med_diff }, { "ci95_lo", t->ci_lo }, { "ci95_hi", t->ci_hi },
		{ "significant", t->significant ? 1 : 0 },
	};
	for (size_t i = 0; i < sizeof(items) / sizeof(items[0]); i++) {
		row_head(f, "test", group, metric, items[i].name, run);
		num(f, items[i].v);
		fputs(",,\n", f);
	}
}

static void part_csv(FILE *f, const struct is_diff *d, const struct is_diff_part *p)
{
	struct csv_group group = { p->label ? d->group_col : "", p->label ? p->label : "" };
	for (size_t m = 0; m < d->nmetrics; m++) {
		for (size_t fi = 0; fi < d->nfuncs; fi++)
			for (size_t r = 0; r < d->nruns; r++) {
				row_head(f, "stat", group, d->metrics[m], d->funcs[fi].name,
					 d->runs[r]->name);
				num(f, is_diff_value(d, p, m, r, fi));
				num(f, is_diff_change(d, p, m, r, fi));
				num(f, is_diff_pct(d, p, m, r, fi));
				fputc('\n', f);
			}
		for (size_t r = 1; r < d->nruns; r++) {
			const struct is_diff_test *t = is_diff_get_test(d, p, m, r);
			if (t)
				test_rows(f, group, d->metrics[m], d->runs[r]->name, t);
		}
	}
}

void diff_print_csv(FILE *f, const struct is_diff *d, const struct diff_counters *c)
{
	fputs("kind,by,group,metric,func,run,value,change,pct\n", f);
	part_csv(f, d, &d->overall);
	for (size_t g = 0; g < d->ngroups; g++)
		part_csv(f, d, &d->groups[g]);
	diff_counters_csv(f, d->runs, d->nruns, c);
}

void diff_counters_csv(FILE *f, struct is_run *const *runs, size_t nruns, const struct diff_counters *c)
{
	for (size_t k = 0; c && k < c->ncols; k++) {
		double ref = c->vals[k * nruns];
		for (size_t r = 0; r < nruns; r++) {
			double v = c->vals[k * nruns + r];
			row_head(f, "counter", (struct csv_group){ "", "" }, c->names[k], "",
				 runs[r]->name);
			num(f, v);
			num(f, v - ref);
			num(f, ref != 0 ? 100 * (v - ref) / fabs(ref) : NAN);
			fputc('\n', f);
		}
	}
}
