/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Flags (0/1 columns such as IntrOff) compared as proportions between configurations, and
 * columns without values left out with one note: analyze diff and report (flags.h).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "diff/flags.h"
#include "stats/proptest.h"
#include "stats/runtest.h"
#include "table/select.h"
#include "text/util.h"

static bool listed(char **list, size_t n, const char *name)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(list[i], name))
			return true;
	return false;
}

static void append(char **s, const char *fmt, const char *a, const char *b)
{
	char *t = isc_xasprintf(fmt, *s ? *s : "", *s ? ", " : "", a, b);
	free(*s);
	*s = t;
}

/* One column: left out (no values in some run: noted), a flag in every run, or a metric. */
static void classify(struct isc_diff_flags *fl, struct isc_run **runs, size_t nruns, const char *name,
		     char **note)
{
	size_t have = 0, flags = 0, empty = 0, last_empty = 0;
	for (size_t r = 0; r < nruns; r++) {
		const struct isc_column *c = isc_table_col(runs[r]->dp, name);
		if (!c || c->type != ISC_COL_NUM)
			continue;
		have++;
		if (runs[r]->dp->nrows && !isc_table_col_has_value(runs[r]->dp, name))
			empty++, last_empty = r;
		flags += isc_is_flag_column(runs[r]->dp, name);
	}
	if (empty) {
		if (empty == have)
			append(note, "%s%s%s%s", name, "");
		else
			append(note, "%s%s%s (in %s)", name, runs[last_empty]->name);
	} else if (have == nruns && flags == nruns) {
		fl->names = isc_xrealloc(fl->names, (fl->n + 1) * sizeof(char *));
		fl->names[fl->n++] = isc_xstrdup(name);
	} else {
		return;
	}
	fl->skip = isc_xrealloc(fl->skip, (fl->nskip + 1) * sizeof(char *));
	fl->skip[fl->nskip++] = isc_xstrdup(name);
}

void isc_diff_flags_columns(struct isc_diff_flags *fl, struct isc_run **runs, size_t nruns, const char *re)
{
	char *note = NULL;
	memset(fl, 0, sizeof(*fl));
	for (size_t r = 0; r < nruns; r++) {
		const char **names;
		size_t n;
		if (isc_select_metrics(runs[r]->dp, re, &names, &n) < 0)
			continue;  /* diff itself reports the regex */
		for (size_t i = 0; i < n; i++)
			if (!listed(fl->skip, fl->nskip, names[i]) && (r == 0 || !isc_table_col(runs[0]->dp, names[i])))
				classify(fl, runs, nruns, names[i], &note);
		free(names);
	}
	if (note)
		isc_note("no values in %s; left out", note);
	fl->empty = note;
}

static size_t *cell(size_t *a, const struct isc_diff_flags *fl, size_t p, size_t k, size_t r)
{
	return &a[(p * fl->n + k) * fl->nruns + r];
}

/* Values and ones of every flag in rows[0..n) of run r, into part p. */
static void count_rows(struct isc_diff_flags *fl, const struct isc_table *t, size_t p, size_t r,
		       const size_t *rows, size_t n)
{
	for (size_t k = 0; k < fl->n; k++) {
		size_t values, set;
		isc_col_flag_counts(isc_table_col(t, fl->names[k]), rows, n, &values, &set);
		*cell(fl->values, fl, p, k, r) = values;
		*cell(fl->set, fl, p, k, r) = set;
	}
}

static int count_groups(struct isc_diff_flags *fl, const struct isc_diff *d, size_t r)
{
	struct isc_groups g;
	if (isc_group_rows(d->runs[r]->dp, d->group_col, &g) < 0)
		return -1;
	for (size_t i = 0; i < g.ngroups; i++)
		for (size_t p = 0; p < d->ngroups; p++)
			if (!strcmp(g.labels[i], d->groups[p].label))
				count_rows(fl, d->runs[r]->dp, p + 1, r, g.rows[i], g.counts[i]);
	isc_groups_free(&g);
	return 0;
}

void isc_diff_flag_counts(const struct isc_diff_flags *fl, const struct isc_diff *d, size_t p, size_t k,
		      size_t c, size_t *values, size_t *set)
{
	*values = *set = 0;
	for (size_t i = 0; i < d->configs[c].nruns; i++) {
		*values += fl->values[(p * fl->n + k) * fl->nruns + d->configs[c].runs[i]];
		*set += fl->set[(p * fl->n + k) * fl->nruns + d->configs[c].runs[i]];
	}
}

/* The runs' shares of configuration c; false when a run has no value. */
static bool run_shares(const struct isc_diff_flags *fl, const struct isc_diff *d, size_t p, size_t k,
		       size_t c, double *out)
{
	for (size_t i = 0; i < d->configs[c].nruns; i++) {
		size_t r = d->configs[c].runs[i], n = fl->values[(p * fl->n + k) * fl->nruns + r];
		if (!n)
			return false;
		out[i] = (double)fl->set[(p * fl->n + k) * fl->nruns + r] / (double)n;
	}
	return true;
}

static struct isc_diff_flag_test flag_test(const struct isc_diff_flags *fl, const struct isc_diff *d,
				       size_t p, size_t k, size_t c)
{
	struct isc_diff_flag_test t = { .diff = NAN, .p = NAN, .p_adj = NAN };
	size_t na = d->configs[0].nruns, nb = d->configs[c].nruns;
	double *a = isc_xcalloc(na + nb, sizeof(double)), *b = a + na;
	if (na >= 2 && nb >= 2 && run_shares(fl, d, p, k, 0, a) && run_shares(fl, d, p, k, c, b)) {
		struct isc_re_mean ma, mb;   /* equal weights: Welch's t on the runs' shares */
		isc_re_mean(a, NULL, na, &ma);
		isc_re_mean(b, NULL, nb, &mb);
		t = (struct isc_diff_flag_test){ true, ISC_LEVEL_RUN, "welch-run-shares", mb.mean - ma.mean,
					     NAN, false, false, NAN, { 0 } };
		isc_verdict_compare(&ma, &mb, ISC_DIFF_CI_LEVEL, &t.v);
		t.p = t.v.p;
	} else {
		size_t v0, s0, v1, s1;
		struct isc_prop pr;
		isc_diff_flag_counts(fl, d, p, k, 0, &v0, &s0);
		isc_diff_flag_counts(fl, d, p, k, c, &v1, &s1);
		t.valid = isc_prop_test(s0, v0, s1, v1, &pr) == 0;
		t = (struct isc_diff_flag_test){ t.valid, ISC_LEVEL_DATAPOINT, pr.method, pr.diff, pr.p,
					     t.valid && pr.p < ISC_DIFF_ALPHA, false, NAN, { 0 } };
	}
	free(a);
	return t;
}

/* The run-level flag tests of the tested parts in d's family, adjusted with it. */
static void join_family(struct isc_diff_flags *fl, struct isc_diff *d)
{
	for (size_t p = 0; p < fl->nparts; p++) {
		const struct isc_diff_part *part = p ? &d->groups[p - 1] : &d->overall;
		for (size_t k = 0; k < fl->n; k++)
			for (size_t c = 1; c < fl->nconfigs; c++) {
				struct isc_diff_flag_test *t = &fl->tests[(p * fl->n + k) * fl->nconfigs + c];
				if (!t->valid || t->level != ISC_LEVEL_RUN || !isc_diff_part_tested(d, part))
					continue;
				t->v.in_family = !d->primary.set;
				isc_diff_family_add(d, &t->v);
			}
	}
	isc_diff_family_settle(d);
	for (size_t i = 0; i < fl->nparts * fl->n * fl->nconfigs; i++) {
		struct isc_diff_flag_test *t = &fl->tests[i];
		t->p_adj = t->level == ISC_LEVEL_RUN ? t->v.p_adj : NAN;
		t->significant = t->valid && t->level == ISC_LEVEL_RUN && t->v.significant;
	}
}

int isc_diff_flags_compute(struct isc_diff_flags *fl, struct isc_diff *d)
{
	fl->nparts = 1 + d->ngroups;
	fl->nruns = d->nruns;
	fl->nconfigs = d->nconfigs;
	fl->values = isc_xcalloc(fl->nparts * fl->n * fl->nruns + 1, sizeof(size_t));
	fl->set = isc_xcalloc(fl->nparts * fl->n * fl->nruns + 1, sizeof(size_t));
	fl->tests = isc_xcalloc(fl->nparts * fl->n * fl->nconfigs + 1, sizeof(*fl->tests));
	for (size_t r = 0; fl->n && r < d->nruns; r++) {
		count_rows(fl, d->runs[r]->dp, 0, r, NULL, d->runs[r]->dp->nrows);
		if (d->ngroups && count_groups(fl, d, r) < 0)
			return -1;
	}
	for (size_t p = 0; p < fl->nparts; p++)
		for (size_t k = 0; k < fl->n; k++)
			for (size_t c = 1; c < fl->nconfigs; c++)
				fl->tests[(p * fl->n + k) * fl->nconfigs + c] = flag_test(fl, d, p, k, c);
	join_family(fl, d);
	return 0;
}

void isc_diff_flags_free(struct isc_diff_flags *fl)
{
	for (size_t i = 0; i < fl->n; i++)
		free(fl->names[i]);
	for (size_t i = 0; i < fl->nskip; i++)
		free(fl->skip[i]);
	free(fl->names);
	free(fl->skip);
	free(fl->values);
	free(fl->set);
	free(fl->tests);
	free(fl->empty);
	memset(fl, 0, sizeof(*fl));
}

const struct isc_diff_flag_test *isc_diff_flag_test_of(const struct isc_diff_flags *fl, size_t p,
						     size_t k, size_t c)
{
	const struct isc_diff_flag_test *t = &fl->tests[(p * fl->n + k) * fl->nconfigs + c];
	return c && t->valid ? t : NULL;
}

const char *isc_diff_flag_words(const struct isc_diff_flag_test *t)
{
	if (t->level == ISC_LEVEL_RUN)
		return t->significant ? "significant" : !t->v.tested ? "no test (no run-to-run spread)"
		       : t->v.in_family ? "not significant" : "descriptive (not in the family)";
	return t->differs ? "differs in these runs" : "no difference found";
}
