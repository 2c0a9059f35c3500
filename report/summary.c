/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The numbers of the summary tables: every run's value of every function per metric,
 * overall and per idle state. With two or more runs they come from lib/diff/diff.c (the same
 * figures, change and verdict lines as `analyze diff`); one run is summarised here.
 */
#include <math.h>
#include <regex.h>
#include <stdlib.h>
#include <string.h>

#include "table/bins.h"
#include "diff/diff.h"
#include "table/select.h"
#include "text/util.h"
#include "report.h"

double summ_value(const struct report *rep, const struct summ_part *p, size_t m, size_t r,
		  size_t f)
{
	return p->values[(m * rep->sum.ncols + r) * rep->nfuncs + f];
}

const char *metric_unit(const struct report *rep, const char *metric)
{
	return isc_metric_unit(rep->runs[0], metric);
}

size_t summary_metric(const struct summary *s, const char *name)
{
	for (size_t m = 0; m < s->nmetrics; m++)
		if (!strcmp(s->metrics[m], name))
			return m;
	return SIZE_MAX;
}

static void append_text(char **buf, const char *s)
{
	char *next = isc_xasprintf("%s%s", *buf ? *buf : "", s);
	free(*buf);
	*buf = next;
}

static bool listed(char *const *list, size_t n, const char *name)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(list[i], name))
			return true;
	return false;
}

/*
 * Metrics matching the regex that are numeric in every run, in the reference's order. The
 * others are listed in rep->left_out for the page (and on stderr when --metrics asked for
 * them by name). Flags (IntrOff) and columns without values in some run are not metrics
 * (isc_diff_flags_columns, as analyze diff: one note on stderr for the columns without values).
 */
int select_metrics(struct report *rep, const char *re)
{
	const char **names;
	size_t n;
	if (isc_select_metrics(rep->runs[0]->dp, re, &names, &n) < 0)
		return -1;
	order_metrics(names, n, re);
	isc_diff_flags_columns(&rep->fl, rep->runs, rep->nruns, re);
	rep->metrics = isc_xcalloc(n + 1, sizeof(*rep->metrics));
	for (size_t i = 0; i < n; i++) {
		bool everywhere = true;
		for (size_t r = 1; r < rep->nruns; r++) {
			const struct isc_column *c = isc_table_col(rep->runs[r]->dp, names[i]);
			if (c && c->type == ISC_COL_NUM)
				continue;
			if (rep->o->metrics_re)
				isc_warn("%s: no numeric column '%s': left out of the report",
					rep->runs[r]->dp_path, names[i]);
			append_text(&rep->left_out, everywhere ? (rep->left_out ? "; " : "") : ", ");
			if (everywhere) {
				append_text(&rep->left_out, names[i]);
				append_text(&rep->left_out, " (not in ");
			}
			append_text(&rep->left_out, rep->runs[r]->name);
			everywhere = false;
		}
		if (!everywhere)
			append_text(&rep->left_out, ")");
		else if (!listed(rep->fl.skip, rep->fl.nskip, names[i]))
			rep->metrics[rep->nmetrics++] = names[i];
	}
	free(names);
	if (rep->nmetrics == 0) {
		if (rep->fl.nskip)
			isc_err("no metric with values matches --metrics '%s' in every run (flags and "
			       "columns without values are not metrics)", re);
		else
			isc_err("no metric matches --metrics '%s' in every run", re);
		return -1;
	}
	return 0;
}

/* "^(WakeLatency|CC1%)$" for the chosen metrics, for lib/diff/diff.c. */
static char *metrics_regex(const struct report *rep)
{
	char *re = isc_xstrdup("^(");
	for (size_t m = 0; m < rep->nmetrics; m++) {
		char *esc = isc_xmalloc(2 * strlen(rep->metrics[m]) + 1), *p = esc;
		for (const char *c = rep->metrics[m]; *c; c++) {
			if (strchr("\\.[]()*+?{}|^$", *c))
				*p++ = '\\';
			*p++ = *c;
		}
		*p = '\0';
		append_text(&re, m ? "|" : "");
		append_text(&re, esc);
		free(esc);
	}
	append_text(&re, ")$");
	return re;
}

static void part_alloc(struct summ_part *p, const struct report *rep, size_t nmetrics)
{
	p->rows = isc_xcalloc(rep->nruns, sizeof(*p->rows));
	p->values = isc_xmalloc(nmetrics * rep->nruns * rep->nfuncs * sizeof(*p->values));
	for (size_t i = 0; i < nmetrics * rep->nruns * rep->nfuncs; i++)
		p->values[i] = NAN;
	p->fvalues = isc_xcalloc(rep->fl.n * rep->nruns + 1, sizeof(*p->fvalues));
	p->fset = isc_xcalloc(rep->fl.n * rep->nruns + 1, sizeof(*p->fset));
}

/* Fill part p for run r from rows[0..nrows) (NULL: every row). */
static void compute_part(struct report *rep, struct summ_part *p, size_t r, const size_t *rows,
			 size_t nrows, double *scratch)
{
	const struct isc_table *t = rep->runs[r]->dp;
	struct summary *s = &rep->sum;
	p->rows[r] = nrows;
	for (size_t m = 0; m < s->nmetrics; m++) {
		const double *col = isc_table_col(t, s->metrics[m])->num;
		if (rows)
			isc_gather(col, rows, nrows, scratch);
		else
			memcpy(scratch, col, nrows * sizeof(*scratch));
		isc_stats_compute_inplace(scratch, nrows, rep->funcs, rep->nfuncs,
					 &p->values[(m * rep->nruns + r) * rep->nfuncs]);
	}
	for (size_t k = 0; k < rep->fl.n; k++)
		isc_flag_counts(isc_table_col(t, rep->fl.names[k])->num, rows, nrows,
			       &p->fvalues[k * rep->nruns + r], &p->fset[k * rep->nruns + r]);
}

static int cmp_parts(const void *a, const void *b)
{
	return isc_natural_cmp(((const struct summ_part *)a)->label, ((const struct summ_part *)b)->label);
}

/* A group's label and its index in s->groups, sorted by label for bsearch: one linear scan
 * per group label made 50,000 groups take 12 s. */
struct group_ref {
	const char *label;
	size_t g;
};

static int cmp_ref(const void *a, const void *b)
{
	return strcmp(((const struct group_ref *)a)->label, ((const struct group_ref *)b)->label);
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* s->groups: one per distinct label of any run, in natural order; *refs sorted by label. */
static void make_groups(struct report *rep, const struct isc_groups *g, struct group_ref **refs)
{
	struct summary *s = &rep->sum;
	size_t nl = 0, k = 0;
	for (size_t r = 0; r < rep->nruns; r++)
		nl += g[r].ngroups;
	const char **all = isc_xmalloc((nl + 1) * sizeof(*all));
	for (size_t r = 0; r < rep->nruns; r++)
		for (size_t i = 0; i < g[r].ngroups; i++)
			all[k++] = g[r].labels[i];
	qsort(all, nl, sizeof(*all), cmp_str);
	s->groups = isc_xcalloc(nl + 1, sizeof(*s->groups));
	for (size_t i = 0; i < nl; i++)
		if (!i || strcmp(all[i], all[i - 1])) {
			struct summ_part *p = &s->groups[s->ngroups++];
			p->label = isc_xstrdup(all[i]);
			part_alloc(p, rep, s->nmetrics);
		}
	free(all);
	qsort(s->groups, s->ngroups, sizeof(*s->groups), cmp_parts);
	*refs = isc_xmalloc((s->ngroups + 1) * sizeof(**refs));
	for (size_t i = 0; i < s->ngroups; i++)
		(*refs)[i] = (struct group_ref){ s->groups[i].label, i };
	qsort(*refs, s->ngroups, sizeof(**refs), cmp_ref);
}

static size_t group_index(const struct summary *s, const struct group_ref *refs, const char *label)
{
	struct group_ref key = { label, 0 };
	const struct group_ref *f = bsearch(&key, refs, s->ngroups, sizeof(*refs), cmp_ref);
	return f ? f->g : s->ngroups;
}

static int compute_own(struct report *rep)
{
	struct summary *s = &rep->sum;
	size_t maxrows = 0;
	for (size_t r = 0; r < rep->nruns; r++)
		if (rep->runs[r]->dp->nrows > maxrows)
			maxrows = rep->runs[r]->dp->nrows;
	double *scratch = isc_xmalloc((maxrows + 1) * sizeof(*scratch));
	struct isc_groups *g = isc_xcalloc(rep->nruns, sizeof(*g));
	int rc = -1;

	part_alloc(&s->overall, rep, s->nmetrics);
	for (size_t r = 0; r < rep->nruns; r++)
		compute_part(rep, &s->overall, r, NULL, rep->runs[r]->dp->nrows, scratch);
	if (!s->group_col)
		goto done;
	for (size_t r = 0; r < rep->nruns; r++)
		if (isc_group_rows(rep->runs[r]->dp, s->group_col, &g[r]) < 0)
			goto cleanup;
	struct group_ref *refs;
	make_groups(rep, g, &refs);
	for (size_t r = 0; r < rep->nruns; r++)
		for (size_t k = 0; k < g[r].ngroups; k++)
			compute_part(rep, &s->groups[group_index(s, refs, g[r].labels[k])], r, g[r].rows[k],
				     g[r].counts[k], scratch);
	free(refs);
done:
	rc = 0;
cleanup:
	for (size_t r = 0; r < rep->nruns; r++)
		if (g[r].labels)
			isc_groups_free(&g[r]);
	free(g);
	free(scratch);
	return rc;
}

/* The flags' counts per configuration in part p (0: all datapoints, g + 1: group g). */
static void flags_from_diff(struct report *rep, struct summ_part *sp, size_t p)
{
	const struct isc_diff *d = rep->sum.diff;
	size_t n = rep->fl.n, nc = d->nconfigs;
	sp->fvalues = isc_xcalloc(n * nc + 1, sizeof(*sp->fvalues));
	sp->fset = isc_xcalloc(n * nc + 1, sizeof(*sp->fset));
	for (size_t k = 0; k < n; k++)
		for (size_t c = 0; c < nc; c++)
			isc_diff_flag_counts(&rep->fl, d, p, k, c, &sp->fvalues[k * nc + c],
					    &sp->fset[k * nc + c]);
}

/* One verdict of part p, metric m, configuration r; an input (LDist, SilentTime: its values
 * are shown) gets none (analyze diff leaves it out of the comparison altogether). */
static void verdict_of(struct isc_diff *d, const struct isc_diff_part *p, size_t m, size_t r,
		       const char *label, struct verdict *v)
{
	char buf[1024];
	const struct isc_diff_test *t = isc_diff_get_test(d, p, m, r);
	bool input = isc_diff_is_input(d, d->metrics[m]);
	if (input)
		snprintf(buf, sizeof(buf), "%s: an input the collector sets, not an outcome: no "
			 "verdict (the design check is in the warnings above; --compare-inputs for "
			 "one)", d->metrics[m]);
	else
		isc_diff_verdict(d, p, m, r, buf, sizeof(buf));
	v->text = label ? isc_xasprintf("%s = %s: %s", d->group_col, label[0] ? label : "(empty)", buf)
			: isc_xstrdup(buf);
	v->significant = !input && t && t->significant;
	v->differs = !input && t && t->differs;
}

/* Borrow lib/diff/diff.c's numbers and verdicts. */
static void from_diff(struct report *rep, struct isc_diff *d)
{
	struct summary *s = &rep->sum;
	s->diff = d;
	s->ncols = d->nconfigs;
	s->nmetrics = d->nmetrics;
	s->metrics = isc_xcalloc(d->nmetrics + 1, sizeof(*s->metrics));
	memcpy(s->metrics, d->metrics, d->nmetrics * sizeof(*s->metrics));
	s->overall.rows = d->overall.rows;
	s->overall.values = d->overall.values;
	s->ngroups = d->ngroups;
	s->groups = isc_xcalloc(d->ngroups + 1, sizeof(*s->groups));
	for (size_t g = 0; g < d->ngroups; g++) {
		s->groups[g].label = d->groups[g].label;
		s->groups[g].rows = d->groups[g].rows;
		s->groups[g].values = d->groups[g].values;
		flags_from_diff(rep, &s->groups[g], g + 1);
	}
	flags_from_diff(rep, &s->overall, 0);
	s->verdicts = isc_xcalloc(d->nmetrics * d->nconfigs, sizeof(*s->verdicts));
	bool per_group = !isc_diff_part_tested(d, &d->overall);
	for (size_t m = 0; m < d->nmetrics; m++)
		for (size_t r = 1; r < d->nconfigs; r++) {
			struct verdict *v = &s->verdicts[m * d->nconfigs + r];
			verdict_of(d, &d->overall, m, r, NULL, v);
			const struct isc_diff_test *t = isc_diff_get_test(d, &d->overall, m, r);
			if (!per_group || !t || t->level != ISC_LEVEL_RUN ||
			    isc_diff_is_input(d, d->metrics[m]))
				continue;   /* one run: no family, the all-rows line says it; an input:
					     * no verdict */
			v->groups = isc_xcalloc(d->ngroups, sizeof(*v->groups));
			v->ngroups = d->ngroups;
			for (size_t g = 0; g < d->ngroups; g++)
				verdict_of(d, &d->groups[g], m, r, d->groups[g].label, &v->groups[g]);
		}
	rep->nwarn = isc_diff_confounders(d, (const char *const *)rep->cl.varied, rep->cl.nvaried,
					 &rep->warn);
	long *order = isc_configs_orders(&rep->cl);
	isc_diff_drift(d, order, &rep->warn, &rep->nwarn);
	isc_diff_size_warning(d, &rep->warn, &rep->nwarn);
	free(order);
}

/* Every run has the column and at least one has a value in it. */
static bool all_runs_have(const struct report *rep, const char *col)
{
	bool any = false;
	for (size_t r = 0; r < rep->nruns; r++) {
		if (!isc_table_col(rep->runs[r]->dp, col))
			return false;
		any = any || isc_table_col_has_value(rep->runs[r]->dp, col);
	}
	return any;
}

/* --by COLUMN[:N]: every run must have it; numeric ones in bins over all runs (bins.h). */
static int choose_group(struct report *rep, const char **col)
{
	const char *by = rep->o->by;
	*col = NULL;
	if (!by) {
		*col = all_runs_have(rep, "ReqCState") ? "ReqCState" : NULL;
		return 0;
	}
	struct isc_table **t = isc_xcalloc(rep->nruns + 1, sizeof(*t));
	int rc = 0;
	for (size_t r = 0; r < rep->nruns && rc == 0; r++)
		if (!isc_table_col((t[r] = rep->runs[r]->dp), by)) {
			isc_err("%s: --by: no column '%s'", rep->runs[r]->dp_path, by);
			rc = -1;
		}
	if (rc == 0)
		rc = isc_by_group_tables(t, rep->nruns, by, rep->o->by_bins, col);
	free(t);
	return rc;
}

int summary_compute(struct report *rep)
{
	struct summary *s = &rep->sum;
	memset(s, 0, sizeof(*s));
	if (choose_group(rep, &s->group_col) < 0)
		return -1;
	if (rep->nconfigs > 1) {
		struct isc_diff *d = isc_xcalloc(1, sizeof(*d));
		char *re = metrics_regex(rep);
		struct isc_diff_opts o = { .funcs = rep->funcs, .nfuncs = rep->nfuncs,
					  .metrics_re = re, .group_col = s->group_col,
					  .nthreads = 1,  /* gnuplot has the other cores */
					  .configs = rep->configs, .nconfigs = rep->nconfigs,
					  /* the inputs' values, with no verdict */
					  .compare_inputs = rep->o->compare_inputs, .input_values = true };
		int rc = isc_diff_compute(d, rep->runs, rep->nruns, &o);
		free(re);
		if (rc == 0 && isc_diff_flags_compute(&rep->fl, d) < 0) {
			isc_diff_free(d);
			rc = -1;
		}
		if (rc < 0) {
			free(d);
			return -1;
		}
		from_diff(rep, d);
		return 0;
	}
	s->nmetrics = rep->nmetrics;
	s->ncols = rep->nruns;
	s->metrics = isc_xcalloc(rep->nmetrics + 1, sizeof(*s->metrics));
	memcpy(s->metrics, rep->metrics, rep->nmetrics * sizeof(*s->metrics));
	return compute_own(rep);
}

void summary_free(struct summary *s)
{
	if (s->verdicts)
		for (size_t i = 0; i < s->nmetrics * s->ncols; i++) {
			free(s->verdicts[i].text);
			for (size_t g = 0; g < s->verdicts[i].ngroups; g++)
				free(s->verdicts[i].groups[g].text);
			free(s->verdicts[i].groups);
		}
	free(s->verdicts);
	free(s->overall.fvalues);
	free(s->overall.fset);
	for (size_t g = 0; g < s->ngroups; g++) {
		free(s->groups[g].fvalues);
		free(s->groups[g].fset);
	}
	if (s->diff) {
		isc_diff_free(s->diff);
		free(s->diff);
	} else {
		free(s->overall.rows);
		free(s->overall.values);
		for (size_t g = 0; g < s->ngroups; g++) {
			free((char *)s->groups[g].label);
			free(s->groups[g].rows);
			free(s->groups[g].values);
		}
	}
	free(s->groups);
	free(s->metrics);
	memset(s, 0, sizeof(*s));
}

const char *summ_col_name(const struct report *rep, size_t i)
{
	return rep->sum.diff ? rep->configs[i].name : rep->runs[i]->name;
}

const char *summ_col_colour(const struct report *rep, size_t i)
{
	return run_colour(rep->sum.diff ? i : colour_of(rep, i));
}
