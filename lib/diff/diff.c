/* SPDX-License-Identifier: GPL-2.0-only */
/* Comparing runs: shared metrics, groups, and per (part, metric) values and tests on 2 threads. */
#include "diff/diff.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "table/select.h"
#include "stats/sigtest.h"
#include "text/util.h"
#include "diff/diff_internal.h"
#include "table/strpool.h"
#include "run/col_roles.h"

static bool is_numeric_col(const struct isc_run *r, const char *name)
{
	const struct isc_column *c = isc_table_col(r->dp, name);
	return c && c->type == ISC_COL_NUM;
}

/* Where a metric is missing: "b, c (not numeric)"; empty when every run has it. */
static char *missing_where(const char *metric, struct isc_run **runs, size_t nruns)
{
	char where[512] = "";
	size_t len = 0;
	for (size_t r = 0; r < nruns && len < sizeof(where); r++) {
		if (is_numeric_col(runs[r], metric))
			continue;
		len += (size_t)snprintf(where + len, sizeof(where) - len, "%s%s%s", len ? ", " : "",
					runs[r]->name, isc_table_col(runs[r]->dp, metric) ? " (not numeric)" : "");
	}
	return isc_xstrdup(where);
}

/* One warning per set of runs, naming the metrics they lack. */
static void warn_missing(const char **names, char **where, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		if (!where[i] || !where[i][0])
			continue;
		char list[1024] = "";
		size_t len = 0, count = 0;
		for (size_t j = i; j < n; j++) {
			if (!where[j] || strcmp(where[j], where[i]) || (j > i && len >= sizeof(list)))
				continue;
			if (len < sizeof(list))
				len += (size_t)snprintf(list + len, sizeof(list) - len, "%s'%s'",
							count ? ", " : "", names[j]);
			count++;
			if (j > i) {
				free(where[j]);
				where[j] = NULL;
			}
		}
		isc_warn("metric%s %s %s missing in %s; left out (only metrics every run has are "
			"compared)", count > 1 ? "s" : "", list, count > 1 ? "are" : "is", where[i]);
	}
}

/* Metrics of the reference (by regex) that every run has; warnings for the rest. */
static bool skipped(const struct isc_diff_opts *o, const char *name)
{
	for (size_t i = 0; i < o->nskip; i++)
		if (!strcmp(o->skip[i], name))
			return true;
	return false;
}

/* An input (LDist): no verdict, only the design check (diff_design.c). */
static void note_input(struct isc_diff *d, const char *name)
{
	d->inputs = isc_xrealloc(d->inputs, (d->ninputs + 1) * sizeof(char *));
	d->inputs[d->ninputs++] = name;
}

bool isc_diff_is_input(const struct isc_diff *d, const char *metric)
{
	for (size_t i = 0; i < d->ninputs; i++)
		if (!strcmp(d->inputs[i], metric))
			return true;
	return false;
}

static int shared_metrics(struct isc_diff *d, const struct isc_diff_opts *o)
{
	const char *re = o->metrics_re;
	const char **all = NULL;
	size_t nall = 0;
	struct strpool seen;  /* a hash: a pairwise check took 34 s for 100,000 columns */
	strpool_init(&seen);
	for (size_t r = 0; r < d->nruns; r++) {  /* every candidate, in first-seen order */
		const char **names;
		size_t n;
		if (isc_select_metrics(d->runs[r]->dp, re, &names, &n) < 0) {
			free(all);
			strpool_free(&seen);
			return -1;
		}
		all = isc_xrealloc(all, (nall + n + 1) * sizeof(char *));
		for (size_t i = 0; i < n; i++) {
			size_t had = seen.n;
			strpool_intern(&seen, names[i], strlen(names[i]));
			/* raw timestamps' change says nothing about the runs: only when named */
			bool raw = isc_is_raw_timestamp(names[i]);
			if (seen.n == had || (!re && raw) || skipped(o, names[i]))
				continue;
			bool input = !raw && !o->compare_inputs &&
				     isc_col_role(d->runs[r], names[i]) == ISC_ROLE_INPUT;
			if (input)
				note_input(d, names[i]);
			if (!input || o->input_values)
				all[nall++] = names[i];
		}
		free(names);
	}
	strpool_free(&seen);
	d->metrics = isc_xcalloc(nall + 1, sizeof(char *));
	char **where = isc_xcalloc(nall + 1, sizeof(char *));
	for (size_t i = 0; i < nall; i++) {
		where[i] = missing_where(all[i], d->runs, d->nruns);
		if (!where[i][0])
			d->metrics[d->nmetrics++] = all[i];
	}
	warn_missing(all, where, nall);
	for (size_t i = 0; i < nall; i++)
		free(where[i]);
	free(where);
	free(all);
	if (d->nmetrics == 0) {
		isc_err("no metric%s is numeric in every run", re ? " matching --metrics" : "");
		return -1;
	}
	return 0;
}

static void check_tools_and_units(struct isc_diff *d)
{
	const struct isc_run *ref = d->runs[d->configs[0].runs[0]];
	for (size_t r = 0; r < d->nruns; r++) {
		const char *t = d->runs[r]->toolname;
		if (d->runs[r] == ref)
			continue;
		if (strcmp(t, ref->toolname) && strcmp(t, "unknown") && strcmp(ref->toolname, "unknown"))
			isc_warn("%s was measured by %s, the reference %s by %s: the numbers may not "
				"mean the same", d->runs[r]->name, t, ref->name, ref->toolname);
	}
	d->units = isc_xcalloc(d->nmetrics + 1, sizeof(char *));
	for (size_t m = 0; m < d->nmetrics; m++) {
		d->units[m] = isc_metric_unit(ref, d->metrics[m]);
		for (size_t r = 0; r < d->nruns; r++) {
			const char *u = isc_metric_unit(d->runs[r], d->metrics[m]);
			if (strcmp(u, d->units[m]))
				isc_warn("%s: unit '%s' in %s but '%s' in the reference %s: values are "
					"compared as they are", d->metrics[m], u, d->runs[r]->name,
					d->units[m], ref->name);
		}
	}
}

/* Natural order, then bytes, so that labels equal only in natural order stay apart. */
static int label_cmp(const char *a, const char *b)
{
	int c = isc_natural_cmp(a, b);
	return c ? c : strcmp(a, b);
}

static const struct isc_groups *sort_rg;  /* qsort has no context argument */

static int cmp_group_idx(const void *x, const void *y)
{
	return label_cmp(sort_rg->labels[*(const size_t *)x], sort_rg->labels[*(const size_t *)y]);
}

/* Each run's groups in label order (indices into rg[r]). */
static size_t **order_groups(const struct diff_priv *pv, size_t nr)
{
	size_t **order = isc_xcalloc(nr, sizeof(size_t *));
	for (size_t r = 0; r < nr; r++) {
		size_t n = pv->rg[r].ngroups;
		order[r] = isc_xmalloc((n + 1) * sizeof(size_t));
		for (size_t k = 0; k < n; k++)
			order[r][k] = k;
		sort_rg = &pv->rg[r];
		qsort(order[r], n, sizeof(size_t), cmp_group_idx);
	}
	return order;
}

/* Each row's group and each group's place in a buffer: lets one pass over a column split it. */
static void index_rows(const struct isc_diff *d, struct diff_priv *pv)
{
	pv->row_group = isc_xcalloc(d->nruns, sizeof(uint32_t *));
	pv->seg_off = isc_xcalloc(d->nruns, sizeof(size_t *));
	for (size_t r = 0; r < d->nruns; r++) {
		const struct isc_groups *g = &pv->rg[r];
		size_t nrows = d->runs[r]->dp->nrows, off = 0;
		pv->row_group[r] = isc_xmalloc((nrows + 1) * sizeof(uint32_t));
		pv->seg_off[r] = isc_xmalloc((g->ngroups + 1) * sizeof(size_t));
		for (size_t k = 0; k < g->ngroups; k++) {
			pv->seg_off[r][k] = off;
			off += g->counts[k];
			for (size_t i = 0; i < g->counts[k]; i++)
				pv->row_group[r][g->rows[k][i]] = (uint32_t)k;
		}
	}
}

/* The union of every run's groups by one merge of the sorted label lists (linear in groups,
 * which matters for --by a column with many values). */
static int build_groups(struct isc_diff *d, struct diff_priv *pv)
{
	size_t nr = d->nruns, total = 0;
	pv->rg = isc_xcalloc(nr, sizeof(*pv->rg));
	for (size_t r = 0; r < nr; r++) {
		if (isc_group_rows(d->runs[r]->dp, d->group_col, &pv->rg[r]) < 0)
			return -1;
		total += pv->rg[r].ngroups;
	}
	size_t **order = order_groups(pv, nr), *pos = isc_xcalloc(nr, sizeof(size_t));
	pv->labels = isc_xcalloc(total + 1, sizeof(char *));
	pv->gmap = isc_xmalloc((total * nr + 1) * sizeof(long));
	for (;;) {
		const char *min = NULL;
		for (size_t r = 0; r < nr; r++) {
			if (pos[r] == pv->rg[r].ngroups)
				continue;
			const char *l = pv->rg[r].labels[order[r][pos[r]]];
			min = !min || label_cmp(l, min) < 0 ? l : min;
		}
		if (!min)
			break;
		size_t g = d->ngroups++;
		pv->labels[g] = (char *)min;
		for (size_t r = 0; r < nr; r++) {
			bool here = pos[r] < pv->rg[r].ngroups &&
				    !strcmp(pv->rg[r].labels[order[r][pos[r]]], min);
			pv->gmap[g * nr + r] = here ? (long)order[r][pos[r]++] : -1;
		}
	}
	for (size_t r = 0; r < nr; r++)
		free(order[r]);
	free(order);
	free(pos);
	index_rows(d, pv);
	return 0;
}

static void part_alloc(struct isc_diff_part *p, const struct isc_diff *d)
{
	size_t cells = d->nmetrics * d->nconfigs;
	p->rows = isc_xcalloc(d->nconfigs, sizeof(size_t));
	p->nvals = isc_xcalloc(cells, sizeof(size_t));
	p->medians = isc_xcalloc(cells, sizeof(double));
	p->values = isc_xcalloc(cells * d->nfuncs + 1, sizeof(double));
	p->tests = isc_xcalloc(cells, sizeof(struct isc_diff_test));
	p->run_rows = isc_xcalloc(d->nruns, sizeof(size_t));
	p->run_q = isc_xcalloc(d->nmetrics * d->nruns * ISC_DIFF_NQ + 1, sizeof(double));
	p->run_se = isc_xcalloc(d->nmetrics * d->nruns * ISC_DIFF_NQ + 1, sizeof(double));
	p->run_n = isc_xcalloc(d->nmetrics * d->nruns + 1, sizeof(size_t));
}

static void part_free(struct isc_diff_part *p)
{
	free(p->rows);
	free(p->nvals);
	free(p->medians);
	free(p->values);
	free(p->tests);
	free(p->run_rows);
	free(p->run_q);
	free(p->run_se);
	free(p->run_n);
	free(p->shares);
}

static void priv_free(struct diff_priv *pv, size_t nruns)
{
	for (size_t r = 0; pv->rg && r < nruns; r++)
		isc_groups_free(&pv->rg[r]);
	for (size_t r = 0; pv->row_group && r < nruns; r++) {
		free(pv->row_group[r]);
		free(pv->seg_off[r]);
	}
	free(pv->row_group);
	free(pv->seg_off);
	free(pv->rg);
	free(pv->gmap);
	free(pv->labels);
}

/* Copy the configurations (or make one per run); every run must be in exactly one. */
static int set_configs(struct isc_diff *d, const struct isc_diff_opts *o)
{
	size_t n = o->configs ? o->nconfigs : d->nruns;
	d->configs = isc_xcalloc(n + 1, sizeof(*d->configs));
	d->config_of = isc_xmalloc((d->nruns + 1) * sizeof(size_t));
	for (size_t r = 0; r < d->nruns; r++)
		d->config_of[r] = SIZE_MAX;
	for (size_t c = 0; c < n; c++, d->nconfigs++) {
		struct isc_diff_config *k = &d->configs[c];
		const struct isc_diff_config *src = o->configs ? &o->configs[c] : NULL;
		k->name = isc_xstrdup(src ? src->name : d->runs[c]->name);
		k->nruns = src ? src->nruns : 1;
		k->runs = isc_xmalloc((k->nruns + 1) * sizeof(size_t));
		for (size_t i = 0; i < k->nruns; i++) {
			size_t r = src ? src->runs[i] : c;
			if (r >= d->nruns || d->config_of[r] != SIZE_MAX) {
				isc_err("configuration %s: run index %zu is out of range or taken twice",
				       k->name, r);
				return -1;
			}
			k->runs[i] = r;
			d->config_of[r] = c;
		}
	}
	for (size_t r = 0; r < d->nruns; r++)
		if (d->config_of[r] == SIZE_MAX) {
			isc_err("run %s is in no configuration", d->runs[r]->name);
			return -1;
		}
	if (d->nconfigs < 2) {
		isc_err("need at least two configurations to compare (the first is the reference)");
		return -1;
	}
	return 0;
}

int isc_diff_compute(struct isc_diff *d, struct isc_run **runs, size_t nruns,
		    const struct isc_diff_opts *o)
{
	struct diff_priv pv = { 0 };
	memset(d, 0, sizeof(*d));
	d->runs = runs;
	d->nruns = nruns;
	d->funcs = o->funcs;
	d->nfuncs = o->nfuncs;
	d->group_col = o->group_col;
	d->margin = (struct isc_diff_margin){ ISC_MARGIN_RELATIVE, ISC_DIFF_MARGIN_DEFAULT };
	if ((o->margin && isc_diff_parse_margin(o->margin, &d->margin) < 0) ||
	    (o->primary && isc_diff_parse_primary(o->primary, &d->primary) < 0) ||
	    set_configs(d, o) < 0)
		goto fail;
	if (o->nfuncs > 64) {
		isc_err("too many functions (%zu, at most 64)", o->nfuncs);
		goto fail;
	}
	for (size_t r = 0; r < nruns; r++)
		if (runs[r]->dp->nrows == 0) {
			isc_err("%s: no datapoints to compare", runs[r]->dp_path);
			goto fail;
		}
	if (shared_metrics(d, o) < 0)
		goto fail;
	check_tools_and_units(d);
	if (d->group_col && build_groups(d, &pv) < 0)
		goto fail;
	part_alloc(&d->overall, d);
	d->groups = isc_xcalloc(d->ngroups + 1, sizeof(*d->groups));
	for (size_t g = 0; g < d->ngroups; g++) {
		part_alloc(&d->groups[g], d);
		d->groups[g].label = isc_xstrdup(pv.labels[g]);
	}
	diff_compute_all(d, &pv, o->nthreads);
	priv_free(&pv, nruns);
	if (diff_family_build(d) < 0) {
		isc_diff_free(d);
		return -2;
	}
	return 0;
fail:
	priv_free(&pv, nruns);
	isc_diff_free(d);
	return -1;
}

void isc_diff_free(struct isc_diff *d)
{
	if (d->overall.rows)
		part_free(&d->overall);
	for (size_t g = 0; g < d->ngroups; g++) {
		part_free(&d->groups[g]);
		free((char *)d->groups[g].label);
	}
	free(d->groups);
	for (size_t c = 0; c < d->nconfigs; c++) {
		free((char *)d->configs[c].name);
		free(d->configs[c].runs);
	}
	free(d->configs);
	free(d->config_of);
	free(d->metrics);
	free(d->inputs);
	free(d->units);
	free(d->family);
	free(d->primary.metric);
	free(d->primary.group);
	memset(d, 0, sizeof(*d));
}

void isc_diff_even_up(struct isc_run **runs, size_t nruns)
{
	size_t least = (size_t)-1;
	for (size_t r = 0; r < nruns; r++)
		least = runs[r]->dp->nrows < least ? runs[r]->dp->nrows : least;
	for (size_t r = 0; r < nruns; r++)
		if (runs[r]->dp->nrows > least)
			isc_table_truncate(runs[r]->dp, least);
}

double isc_diff_value(const struct isc_diff *d, const struct isc_diff_part *p, size_t m, size_t r,
		     size_t f)
{
	return p->values[(m * d->nconfigs + r) * d->nfuncs + f];
}

double isc_diff_change(const struct isc_diff *d, const struct isc_diff_part *p, size_t m, size_t r,
		      size_t f)
{
	return isc_diff_value(d, p, m, r, f) - isc_diff_value(d, p, m, 0, f);
}

double isc_pct_change(double val, double ref)
{
	double pct = 100 * (val - ref) / fabs(ref);
	if (ref == 0 || !isfinite(ref) || isnan(val))
		return NAN;
	if (isfinite(pct))
		return pct;
	/* val - ref or 100 times it overflowed (1e308 against -1e308): divide first. */
	return isfinite(val - ref) ? (val - ref) / fabs(ref) * 100 : (val / fabs(ref) - copysign(1, ref)) * 100;
}

double isc_diff_pct(const struct isc_diff *d, const struct isc_diff_part *p, size_t m, size_t r,
		   size_t f)
{
	return isc_pct_change(isc_diff_value(d, p, m, r, f), isc_diff_value(d, p, m, 0, f));
}

const struct isc_diff_test *isc_diff_get_test(const struct isc_diff *d, const struct isc_diff_part *p,
					    size_t m, size_t r)
{
	const struct isc_diff_test *t = &p->tests[m * d->nconfigs + r];
	return r > 0 && t->valid ? t : NULL;
}

const char *isc_diff_config_name(const struct isc_diff *d, size_t c)
{
	return d->configs[c].name;
}

double isc_diff_run_q(const struct isc_diff *d, const struct isc_diff_part *p, size_t m, size_t run,
		     size_t k)
{
	return p->run_q[(m * d->nruns + run) * ISC_DIFF_NQ + k];
}
