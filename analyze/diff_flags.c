/* analyze diff: flags as proportions, columns without values left out (diff_flags.h). */
#include "diff_flags.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "flag_cols.h"
#include "idlescope/json_num.h"
#include "idlescope/proptest.h"
#include "idlescope/runtest.h"
#include "idlescope/select.h"
#include "idlescope/util.h"
#include "out_format.h"

static bool listed(char **list, size_t n, const char *name)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(list[i], name))
			return true;
	return false;
}

static void append(char **s, const char *fmt, const char *a, const char *b)
{
	char *t = is_xasprintf(fmt, *s ? *s : "", *s ? ", " : "", a, b);
	free(*s);
	*s = t;
}

/* One column: left out (no values in some run: noted), a flag in every run, or a metric. */
static void classify(struct diff_flags *fl, struct is_run **runs, size_t nruns, const char *name,
		     char **note)
{
	size_t have = 0, flags = 0, empty = 0, last_empty = 0;
	for (size_t r = 0; r < nruns; r++) {
		const struct is_column *c = is_table_col(runs[r]->dp, name);
		if (!c || c->type != IS_COL_NUM)
			continue;
		have++;
		if (runs[r]->dp->nrows && !is_table_col_has_value(runs[r]->dp, name))
			empty++, last_empty = r;
		flags += is_flag_column(runs[r]->dp, name);
	}
	if (empty) {
		if (empty == have)
			append(note, "%s%s%s%s", name, "");
		else
			append(note, "%s%s%s (in %s)", name, runs[last_empty]->name);
	} else if (have == nruns && flags == nruns) {
		fl->names = is_xrealloc(fl->names, (fl->n + 1) * sizeof(char *));
		fl->names[fl->n++] = is_xstrdup(name);
	} else {
		return;
	}
	fl->skip = is_xrealloc(fl->skip, (fl->nskip + 1) * sizeof(char *));
	fl->skip[fl->nskip++] = is_xstrdup(name);
}

void diff_flags_columns(struct diff_flags *fl, struct is_run **runs, size_t nruns, const char *re)
{
	char *note = NULL;
	memset(fl, 0, sizeof(*fl));
	for (size_t r = 0; r < nruns; r++) {
		const char **names;
		size_t n;
		if (is_select_metrics(runs[r]->dp, re, &names, &n) < 0)
			continue;  /* diff itself reports the regex */
		for (size_t i = 0; i < n; i++)
			if (!listed(fl->skip, fl->nskip, names[i]) && (r == 0 || !is_table_col(runs[0]->dp, names[i])))
				classify(fl, runs, nruns, names[i], &note);
		free(names);
	}
	if (note)
		is_note("no values in %s; left out", note);
	free(note);
}

static size_t *cell(size_t *a, const struct diff_flags *fl, size_t p, size_t k, size_t r)
{
	return &a[(p * fl->n + k) * fl->nruns + r];
}

/* Values and ones of every flag in rows[0..n) of run r, into part p. */
static void count_rows(struct diff_flags *fl, const struct is_table *t, size_t p, size_t r,
		       const size_t *rows, size_t n)
{
	for (size_t k = 0; k < fl->n; k++) {
		const double *v = is_table_col(t, fl->names[k])->num;
		size_t values = 0, set = 0;
		for (size_t i = 0; i < n; i++) {
			double x = v[rows ? rows[i] : i];
			values += !isnan(x);
			set += x == 1;
		}
		*cell(fl->values, fl, p, k, r) = values;
		*cell(fl->set, fl, p, k, r) = set;
	}
}

static int count_groups(struct diff_flags *fl, const struct is_diff *d, size_t r)
{
	struct is_groups g;
	if (is_group_rows(d->runs[r]->dp, d->group_col, &g) < 0)
		return -1;
	for (size_t i = 0; i < g.ngroups; i++)
		for (size_t p = 0; p < d->ngroups; p++)
			if (!strcmp(g.labels[i], d->groups[p].label))
				count_rows(fl, d->runs[r]->dp, p + 1, r, g.rows[i], g.counts[i]);
	is_groups_free(&g);
	return 0;
}

void diff_flag_counts(const struct diff_flags *fl, const struct is_diff *d, size_t p, size_t k,
		      size_t c, size_t *values, size_t *set)
{
	*values = *set = 0;
	for (size_t i = 0; i < d->configs[c].nruns; i++) {
		*values += fl->values[(p * fl->n + k) * fl->nruns + d->configs[c].runs[i]];
		*set += fl->set[(p * fl->n + k) * fl->nruns + d->configs[c].runs[i]];
	}
}

/* The runs' shares of configuration c; false when a run has no value. */
static bool run_shares(const struct diff_flags *fl, const struct is_diff *d, size_t p, size_t k,
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

static struct diff_flag_test flag_test(const struct diff_flags *fl, const struct is_diff *d,
				       size_t p, size_t k, size_t c)
{
	struct diff_flag_test t = { .diff = NAN, .p = NAN };
	size_t na = d->configs[0].nruns, nb = d->configs[c].nruns;
	double *a = is_xcalloc(na + nb, sizeof(double)), *b = a + na;
	if (na >= 2 && nb >= 2 && run_shares(fl, d, p, k, 0, a) && run_shares(fl, d, p, k, c, b)) {
		struct is_welch w;
		t.valid = is_welch_test(a, na, b, nb, IS_DIFF_CI_LEVEL, &w) == 0;
		t = (struct diff_flag_test){ t.valid, IS_LEVEL_RUN, "welch-run-shares", w.diff, w.p,
					     false, t.valid && w.p < IS_DIFF_ALPHA };
	} else {
		size_t v0, s0, v1, s1;
		struct is_prop pr;
		diff_flag_counts(fl, d, p, k, 0, &v0, &s0);
		diff_flag_counts(fl, d, p, k, c, &v1, &s1);
		t.valid = is_prop_test(s0, v0, s1, v1, &pr) == 0;
		t = (struct diff_flag_test){ t.valid, IS_LEVEL_DATAPOINT, pr.method, pr.diff, pr.p,
					     t.valid && pr.p < IS_DIFF_ALPHA, false };
	}
	free(a);
	return t;
}

int diff_flags_compute(struct diff_flags *fl, const struct is_diff *d)
{
	fl->nparts = 1 + d->ngroups;
	fl->nruns = d->nruns;
	fl->nconfigs = d->nconfigs;
	fl->values = is_xcalloc(fl->nparts * fl->n * fl->nruns + 1, sizeof(size_t));
	fl->set = is_xcalloc(fl->nparts * fl->n * fl->nruns + 1, sizeof(size_t));
	fl->tests = is_xcalloc(fl->nparts * fl->n * fl->nconfigs + 1, sizeof(*fl->tests));
	for (size_t r = 0; fl->n && r < d->nruns; r++) {
		count_rows(fl, d->runs[r]->dp, 0, r, NULL, d->runs[r]->dp->nrows);
		if (d->ngroups && count_groups(fl, d, r) < 0)
			return -1;
	}
	for (size_t p = 0; p < fl->nparts; p++)
		for (size_t k = 0; k < fl->n; k++)
			for (size_t c = 1; c < fl->nconfigs; c++)
				fl->tests[(p * fl->n + k) * fl->nconfigs + c] = flag_test(fl, d, p, k, c);
	return 0;
}

void diff_flags_free(struct diff_flags *fl)
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
	memset(fl, 0, sizeof(*fl));
}

static const struct diff_flag_test *test_of(const struct diff_flags *fl, size_t p, size_t k, size_t c)
{
	const struct diff_flag_test *t = &fl->tests[(p * fl->n + k) * fl->nconfigs + c];
	return c && t->valid ? t : NULL;
}

static double share(size_t values, size_t set)
{
	return values ? (double)set / (double)values : NAN;
}

static const char *test_words(const struct diff_flag_test *t)
{
	if (t->level == IS_LEVEL_RUN)
		return t->significant ? "significant" : "not significant";
	return t->differs ? "differs in these runs" : "no difference found";
}

void diff_flags_text(FILE *f, const struct diff_flags *fl, const struct is_diff *d, size_t part)
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
			diff_flag_counts(fl, d, part, k, c, &v, &s);
			diff_flag_counts(fl, d, part, k, 0, &v0, &s0);
			if (v)
				snprintf(sh, sizeof(sh), "%.2f%%", 100 * share(v, s));
			const struct diff_flag_test *t = test_of(fl, part, k, c);
			if (t) {
				snprintf(ch, sizeof(ch), "%+.2f pts", 100 * t->diff);
				snprintf(p, sizeof(p), t->p < 1e-4 ? "%.1e" : "%.4f", t->p);
				snprintf(how, sizeof(how), "%s, %s", t->method, test_words(t));
			}
			char *line = is_xasprintf("%-*s  %-*s  %10zu  %10zu  %8s  %10s  %8s  %s", (int)w,
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
	char buf[IS_NUM_STR_LEN];
	fprintf(f, "%s,", kind);
	csv_field(f, by);
	fputc(',', f);
	csv_field(f, group);
	fputc(',', f);
	csv_field(f, flag);
	fprintf(f, ",%s,", func);
	csv_field(f, run);
	fprintf(f, ",%s,,\n", isfinite(v) ? is_num_str(buf, v) : "");
}

void diff_flags_csv(FILE *f, const struct diff_flags *fl, const struct is_diff *d, size_t part,
		    const char *by, const char *group)
{
	for (size_t k = 0; k < fl->n; k++)
		for (size_t c = 0; c < d->nconfigs; c++) {
			size_t v, s;
			const char *run = d->configs[c].name;
			diff_flag_counts(fl, d, part, k, c, &v, &s);
			csv_row(f, "flag", by, group, fl->names[k], "values", run, (double)v);
			csv_row(f, "flag", by, group, fl->names[k], "set", run, (double)s);
			csv_row(f, "flag", by, group, fl->names[k], "share", run, share(v, s));
			const struct diff_flag_test *t = test_of(fl, part, k, c);
			if (!t)
				continue;
			csv_row(f, "flagtest", by, group, fl->names[k], "level", run, t->level == IS_LEVEL_RUN);
			csv_row(f, "flagtest", by, group, fl->names[k], "fisher_exact", run,
				!strcmp(t->method, "fisher-exact"));
			csv_row(f, "flagtest", by, group, fl->names[k], "diff", run, t->diff);
			csv_row(f, "flagtest", by, group, fl->names[k], "p", run, t->p);
			csv_row(f, "flagtest", by, group, fl->names[k], "differs", run, t->differs);
			csv_row(f, "flagtest", by, group, fl->names[k], "significant", run, t->significant);
		}
}

static cJSON *flag_json(const struct diff_flags *fl, const struct is_diff *d, size_t part, size_t k)
{
	cJSON *o = cJSON_CreateObject(), *vals = cJSON_AddArrayToObject(o, "values");
	cJSON *sets = cJSON_AddArrayToObject(o, "set"), *shares = cJSON_AddArrayToObject(o, "share");
	cJSON *runs = cJSON_AddArrayToObject(o, "runs"), *tests = cJSON_AddArrayToObject(o, "tests");
	for (size_t c = 0; c < d->nconfigs; c++) {
		size_t v, s;
		diff_flag_counts(fl, d, part, k, c, &v, &s);
		cJSON_AddItemToArray(vals, is_json_num((double)v));
		cJSON_AddItemToArray(sets, is_json_num((double)s));
		cJSON_AddItemToArray(shares, is_json_num(share(v, s)));
		const struct diff_flag_test *t = test_of(fl, part, k, c);
		cJSON *to = t ? cJSON_CreateObject() : cJSON_CreateNull();
		if (t) {
			cJSON_AddStringToObject(to, "level", t->level == IS_LEVEL_RUN ? "run" : "datapoint");
			cJSON_AddStringToObject(to, "method", t->method);
			is_json_add_num(to, "diff", t->diff);
			is_json_add_num(to, "p", t->p);
			cJSON_AddBoolToObject(to, "differs", t->differs);
			cJSON_AddBoolToObject(to, "significant", t->significant);
		}
		cJSON_AddItemToArray(tests, to);
	}
	for (size_t r = 0; r < d->nruns; r++) {
		cJSON *ro = cJSON_CreateObject();
		size_t v = *cell(fl->values, fl, part, k, r), s = *cell(fl->set, fl, part, k, r);
		is_json_add_num(ro, "values", (double)v);
		is_json_add_num(ro, "set", (double)s);
		is_json_add_num(ro, "share", share(v, s));
		cJSON_AddItemToArray(runs, ro);
	}
	return o;
}

cJSON *diff_flags_json(const struct diff_flags *fl, const struct is_diff *d, size_t part)
{
	cJSON *o = cJSON_CreateObject();
	for (size_t k = 0; k < fl->n; k++)
		cJSON_AddItemToObject(o, fl->names[k], flag_json(fl, d, part, k));
	return o;
}
