/* SPDX-License-Identifier: GPL-2.0-only */
/* analyze diff: aligned text tables and the verdict lines. */
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "diff_output.h"
#include "text/util.h"

/* A table of text cells printed with aligned columns: the first nleft left-aligned. */
struct grid {
	size_t ncols, nrows, cap;
	char **cells;            /* [row * ncols + col], NULL = empty */
	size_t cur;              /* next column in the last row */
};

static void grid_init(struct grid *g, size_t ncols)
{
	memset(g, 0, sizeof(*g));
	g->ncols = ncols;
}

static void grid_row(struct grid *g)
{
	if (g->nrows == g->cap) {
		g->cap = g->cap ? 2 * g->cap : 32;
		g->cells = isc_xrealloc(g->cells, g->cap * g->ncols * sizeof(char *));
	}
	memset(g->cells + g->nrows * g->ncols, 0, g->ncols * sizeof(char *));
	g->nrows++;
	g->cur = 0;
}

static void grid_cell(struct grid *g, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void grid_cell(struct grid *g, const char *fmt, ...)
{
	char buf[160];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	if (g->cur < g->ncols)
		g->cells[(g->nrows - 1) * g->ncols + g->cur++] = isc_xstrdup(buf);
}

static void grid_print(FILE *f, struct grid *g, size_t nleft, const char *indent)
{
	size_t *w = isc_xcalloc(g->ncols, sizeof(size_t));
	for (size_t i = 0; i < g->nrows * g->ncols; i++)
		if (g->cells[i] && strlen(g->cells[i]) > w[i % g->ncols])
			w[i % g->ncols] = strlen(g->cells[i]);
	for (size_t r = 0; r < g->nrows; r++) {
		char line[4096];
		size_t len = 0;
		for (size_t c = 0; c < g->ncols && len < sizeof(line); c++) {
			const char *s = g->cells[r * g->ncols + c];
			len += (size_t)snprintf(line + len, sizeof(line) - len, c < nleft ? "%s%-*s" : "%s%*s",
						c ? "  " : "", (int)w[c], s ? s : "");
		}
		while (len > 0 && len < sizeof(line) && line[len - 1] == ' ')
			line[--len] = '\0';
		fprintf(f, "%s%s\n", indent, line);
	}
	for (size_t i = 0; i < g->nrows * g->ncols; i++)
		free(g->cells[i]);
	free(g->cells);
	free(w);
}

static void grid_discard(struct grid *g)
{
	for (size_t i = 0; i < g->nrows * g->ncols; i++)
		free(g->cells[i]);
	free(g->cells);
}

static void fmt_num(char *buf, size_t len, double v, enum isc_func_kind kind, bool sign)
{
	double a = fabs(v);
	if (isnan(v))
		snprintf(buf, len, "-");
	else if (kind == ISC_F_COUNT || a >= 1e6)
		snprintf(buf, len, a >= 1e15 ? (sign ? "%+.6e" : "%.6e") : (sign ? "%+.0f" : "%.0f"), v);
	else
		snprintf(buf, len, sign ? "%+.3f" : "%.3f", v);
}

static void fmt_pct(char *buf, size_t len, double pct)
{
	if (isnan(pct))
		snprintf(buf, len, "-");
	else
		snprintf(buf, len, "%+.1f%%", pct);
}

static void fmt_p(char *buf, size_t len, double p)
{
	if (isnan(p))
		snprintf(buf, len, "-");
	else if (p < 1e-300)
		snprintf(buf, len, "<1e-300");
	else
		snprintf(buf, len, "%.3g", p);
}

static void value_table(FILE *f, const struct isc_diff *d, const struct isc_diff_part *p)
{
	struct grid g;
	char buf[64];
	grid_init(&g, 2 + 1 + 3 * (d->nconfigs - 1));
	grid_row(&g);
	grid_cell(&g, "Metric");
	grid_cell(&g, "Func");
	for (size_t r = 0; r < d->nconfigs; r++) {
		grid_cell(&g, "%s", d->configs[r].name);
		if (r)
			grid_cell(&g, "change"), grid_cell(&g, "%%");
	}
	for (size_t m = 0; m < d->nmetrics; m++)
		for (size_t fi = 0; fi < d->nfuncs; fi++) {
			enum isc_func_kind kind = d->funcs[fi].kind;
			grid_row(&g);
			grid_cell(&g, "%s", fi ? "" : d->metrics[m]);
			grid_cell(&g, "%s", d->funcs[fi].name);
			for (size_t r = 0; r < d->nconfigs; r++) {
				fmt_num(buf, sizeof(buf), isc_diff_value(d, p, m, r, fi), kind, false);
				grid_cell(&g, "%s", buf);
				if (!r)
					continue;
				fmt_num(buf, sizeof(buf), isc_diff_change(d, p, m, r, fi), kind, true);
				grid_cell(&g, "%s", buf);
				fmt_pct(buf, sizeof(buf), isc_diff_pct(d, p, m, r, fi));
				grid_cell(&g, "%s", buf);
			}
		}
	grid_print(f, &g, 2, "");
}

static bool any_replicates(const struct isc_diff *d)
{
	return d->nruns > d->nconfigs;
}

/* Each run's median and 99th percentile under its configuration's pooled values. */
static void runs_table(FILE *f, const struct isc_diff *d, const struct isc_diff_part *p)
{
	struct grid g;
	char med[32], p99[32];
	grid_init(&g, 6);
	grid_row(&g);
	grid_cell(&g, "Runs");
	grid_cell(&g, "Config");
	grid_cell(&g, "Run");
	grid_cell(&g, "datapoints");
	grid_cell(&g, "med");
	grid_cell(&g, "99%%");
	for (size_t m = 0; m < d->nmetrics; m++)
		for (size_t c = 0; c < d->nconfigs; c++) {
			const struct isc_diff_config *k = &d->configs[c];
			for (size_t i = 0; i <= k->nruns; i++) {
				bool pooled = i == k->nruns;
				size_t r = pooled ? 0 : k->runs[i];
				double vm = pooled ? p->medians[m * d->nconfigs + c]
						   : isc_diff_run_q(d, p, m, r, 0);
				double v99 = pooled ? NAN : isc_diff_run_q(d, p, m, r, 1);
				if (pooled) {  /* the pooled 99%: of all its runs' datapoints */
					for (size_t fi = 0; fi < d->nfuncs; fi++)
						if (d->funcs[fi].kind == ISC_F_PCT && d->funcs[fi].pct == 99)
							v99 = isc_diff_value(d, p, m, c, fi);
				}
				fmt_num(med, sizeof(med), vm, ISC_F_MED, false);
				fmt_num(p99, sizeof(p99), v99, ISC_F_MED, false);
				grid_row(&g);
				grid_cell(&g, "%s", c == 0 && i == 0 ? d->metrics[m] : "");
				grid_cell(&g, "%s", i == 0 ? k->name : "");
				grid_cell(&g, "%s", pooled ? "(pooled)" : d->runs[r]->name);
				grid_cell(&g, "%zu", pooled ? p->rows[c] : p->run_rows[r]);
				grid_cell(&g, "%s", med);
				grid_cell(&g, "%s", p99);
			}
		}
	grid_print(f, &g, 3, "");
}

/* A run-level verdict's answer in a table cell. */
static const char *answer_word(const struct isc_verdict *v, bool tested_part)
{
	if (!tested_part && !v->in_family)
		return "descriptive";
	switch (v->answer) {
	case ISC_ANSWER_CHANGED: return "changed (significant)";
	case ISC_ANSWER_EQUIVALENT: return "no change > margin";
	case ISC_ANSWER_INCONCLUSIVE: return "inconclusive";
	case ISC_ANSWER_REFUSED: return "no test (no spread)";
	case ISC_ANSWER_UNTESTED: return "not tested (--primary)";
	default: return "-";
	}
}

static const char *level_word(const struct isc_diff *d, const struct isc_diff_part *p,
			      const struct isc_diff_test *t)
{
	if (t->level == ISC_LEVEL_RUN)
		return t->q[0].valid ? answer_word(&t->q[0].v, isc_diff_part_tested(d, p)) : "-";
	return t->differs ? "differs (1 run)" : "no (1 run)";
}

static void test_row(struct grid *g, const struct isc_diff *d, const struct isc_diff_part *p,
		     size_t m, size_t r, const struct isc_diff_test *t)
{
	char mw[32], ks[32], lo[32], hi[32], diff[32];
	grid_row(g);
	grid_cell(g, "%s", d->metrics[m]);
	grid_cell(g, "%s", d->configs[r].name);
	if (!t) {
		grid_cell(g, "no values");
		return;
	}
	fmt_p(mw, sizeof(mw), t->mw_p);
	fmt_p(ks, sizeof(ks), t->ks_p);
	fmt_num(diff, sizeof(diff), t->med_diff, ISC_F_MED, true);
	fmt_num(lo, sizeof(lo), t->ci_lo, ISC_F_MED, true);
	fmt_num(hi, sizeof(hi), t->ci_hi, ISC_F_MED, true);
	grid_cell(g, "%zu vs %zu", t->rep_ref, t->rep);
	grid_cell(g, "%s%s", mw, t->mw_exact ? " (exact)" : "");
	if (isnan(t->ks_d))
		grid_cell(g, "-");
	else
		grid_cell(g, "%.4f", t->ks_d);
	grid_cell(g, "%s", ks);
	grid_cell(g, "%s", diff);
	if (isnan(t->ci_lo))
		grid_cell(g, "-");
	else
		grid_cell(g, "[%s, %s]", lo, hi);
	grid_cell(g, "%s", t->level == ISC_LEVEL_RUN ? "runs (random effects)"
			   : "within run (block bootstrap)");
	grid_cell(g, "%s", level_word(d, p, t));
}

static void test_table(FILE *f, const struct isc_diff *d, const struct isc_diff_part *p)
{
	static const char *const head[] = { "Tests", "Config", "runs", "MW p", "KS D", "KS p",
					    "median diff", "95% interval", "interval from", "verdict" };
	struct grid g;
	grid_init(&g, 10);
	grid_row(&g);
	for (size_t i = 0; i < 10; i++)
		grid_cell(&g, "%s", head[i]);
	for (size_t m = 0; m < d->nmetrics; m++)
		for (size_t r = 1; r < d->nconfigs; r++)
			test_row(&g, d, p, m, r, isc_diff_get_test(d, p, m, r));
	grid_print(f, &g, 2, "");
}

/* A verdict's cells: change, 95% CI, p, Holm-adjusted p, answer (MDE or margin with it). */
static void verdict_cells(struct grid *g, const struct isc_verdict *v, bool tested_part, double scale)
{
	char x[32], lo[32], hi[32], pv[32], pa[32];
	fmt_num(x, sizeof(x), v->diff * scale, ISC_F_MED, true);
	fmt_num(lo, sizeof(lo), v->lo * scale, ISC_F_MED, true);
	fmt_num(hi, sizeof(hi), v->hi * scale, ISC_F_MED, true);
	fmt_p(pv, sizeof(pv), v->p);
	fmt_p(pa, sizeof(pa), v->p_adj);
	grid_cell(g, "%s", x);
	grid_cell(g, "[%s, %s]", lo, hi);
	grid_cell(g, "%s", pv);
	grid_cell(g, "%s", v->in_family ? pa : "-");
	const char *w = answer_word(v, tested_part);
	if (v->answer == ISC_ANSWER_EQUIVALENT && v->in_family)
		grid_cell(g, "no change > %.3g", v->margin * scale);
	else if (v->answer == ISC_ANSWER_INCONCLUSIVE && v->in_family && v->no_answer)
		grid_cell(g, "inconclusive (run sizes differ)");
	else if (v->answer == ISC_ANSWER_INCONCLUSIVE && v->in_family)
		grid_cell(g, "inconclusive (detects > %.3g)", v->mde * scale);
	else
		grid_cell(g, "%s", w);
}

static void run_level_head(struct grid *g, const char *first, const char *unit_note)
{
	static const char *const head[] = { "Config", "Func", "change", "95% CI", "p", "Holm p",
					    "answer" };
	grid_init(g, 8);
	grid_row(g);
	grid_cell(g, "%s", first);
	for (size_t i = 0; i < 7; i++)
		grid_cell(g, "%s%s", head[i], i == 2 ? unit_note : "");
}

/* The runs' med, 99%, 99.9% combined by precision: only for replicated comparisons. */
static void run_level_table(FILE *f, const struct isc_diff *d, const struct isc_diff_part *p)
{
	struct grid g;
	bool any = false;
	run_level_head(&g, "Run level", "");
	for (size_t m = 0; m < d->nmetrics; m++)
		for (size_t c = 1; c < d->nconfigs; c++) {
			const struct isc_diff_test *t = isc_diff_get_test(d, p, m, c);
			for (size_t k = 0; t && t->level == ISC_LEVEL_RUN && k < ISC_DIFF_NQ; k++) {
				const struct isc_diff_qtest *q = &t->q[k];
				if (!q->valid)
					continue;
				grid_row(&g);
				grid_cell(&g, "%s", d->metrics[m]);
				grid_cell(&g, "%s", d->configs[c].name);
				grid_cell(&g, "%s", isc_diff_q_name[k]);
				verdict_cells(&g, &q->v, isc_diff_part_tested(d, p), 1);
				any = true;
			}
		}
	if (any) {
		fputc('\n', f);
		grid_print(f, &g, 3, "");
	} else {
		grid_discard(&g);
	}
}

/* A group's share of the runs' rows against the reference's (percentage points). */
static void shares_table(FILE *f, const struct isc_diff *d, const struct isc_diff_part *p)
{
	struct grid g;
	bool any = false;
	run_level_head(&g, "Group share", " (points)");
	for (size_t c = 1; p->shares && c < d->nconfigs; c++) {
		const struct isc_verdict *v = &p->shares[c];
		if (v->answer == ISC_ANSWER_NONE)
			continue;
		grid_row(&g);
		grid_cell(&g, "%s", p->label[0] ? p->label : "(empty)");
		grid_cell(&g, "%s", d->configs[c].name);
		grid_cell(&g, "share");
		verdict_cells(&g, v, true, 100);
		any = true;
	}
	if (any) {
		fputs("\n(the group's share of each run's datapoints, runs as the unit)\n", f);
		grid_print(f, &g, 3, "");
	} else {
		grid_discard(&g);
	}
}

static void verdicts(FILE *f, const struct isc_diff *d, const struct isc_diff_part *p)
{
	char line[1024];
	for (size_t r = 1; r < d->nconfigs; r++) {
		fprintf(f, "\n%s vs %s:\n", d->configs[r].name, d->configs[0].name);
		for (size_t m = 0; m < d->nmetrics; m++) {
			isc_diff_verdict(d, p, m, r, line, sizeof(line));
			fprintf(f, "  %s\n", line);
		}
	}
}

static void part_heading(FILE *f, const struct isc_diff *d, const struct isc_diff_part *p)
{
	if (p->label)
		fprintf(f, "\n%s = %s:", d->group_col, p->label[0] ? p->label : "(empty)");
	else
		fprintf(f, "\nAll datapoints:");
	for (size_t r = 0; r < d->nconfigs; r++)
		fprintf(f, "%s %s %zu", r ? "," : "", d->configs[r].name, p->rows[r]);
	fprintf(f, " datapoints\n");
}

static void part_text(FILE *f, const struct diff_out *o, const struct isc_diff_part *p, size_t part)
{
	const struct isc_diff *d = o->d;
	part_heading(f, d, p);
	value_table(f, d, p);
	if (any_replicates(d)) {
		fputc('\n', f);
		runs_table(f, d, p);
	}
	fputc('\n', f);
	test_table(f, d, p);
	run_level_table(f, d, p);
	shares_table(f, d, p);
	verdicts(f, d, p);
	if (o->flags)
		diff_flags_text(f, o->flags, d, part);
}

void diff_counters_text(FILE *f, const struct isc_diff *d, const struct diff_counters *c)
{
	struct grid g;
	char buf[64];
	size_t nc = d->nconfigs;
	grid_init(&g, 1 + 1 + 3 * (nc - 1));
	grid_row(&g);
	grid_cell(&g, "Counters");
	for (size_t r = 0; r < nc; r++) {
		grid_cell(&g, "%s", d->configs[r].name);
		if (r)
			grid_cell(&g, "change"), grid_cell(&g, "%%");
	}
	for (size_t k = 0; k < c->ncols; k++) {
		double ref = c->vals[k * nc];
		grid_row(&g);
		grid_cell(&g, "%s", c->names[k]);
		for (size_t r = 0; r < nc; r++) {
			double v = c->vals[k * nc + r];
			fmt_num(buf, sizeof(buf), v, ISC_F_AVG, false);
			grid_cell(&g, "%s", buf);
			if (!r)
				continue;
			fmt_num(buf, sizeof(buf), v - ref, ISC_F_AVG, true);
			grid_cell(&g, "%s", buf);
			fmt_pct(buf, sizeof(buf), ref != 0 ? 100 * (v - ref) / fabs(ref) : NAN);
			grid_cell(&g, "%s", buf);
		}
	}
	fputc('\n', f);
	if (any_replicates(d))
		fputs("(a configuration's counters: the mean of its runs')\n", f);
	grid_print(f, &g, 1, "");
}

static void header(FILE *f, const struct diff_out *o)
{
	const struct isc_diff *d = o->d;
	if (o->design)
		fprintf(f, "Experiment: %s\n", o->design);
	for (size_t c = 0; c < d->nconfigs; c++) {
		const struct isc_diff_config *k = &d->configs[c];
		const char *what = c ? "Compared:" : "Reference:";
		if (k->nruns == 1 && !strcmp(k->name, d->runs[k->runs[0]]->name)) {
			const struct isc_run *r = d->runs[k->runs[0]];
			fprintf(f, "%-10s %s (%s, %s), %zu datapoints\n", what, r->name, r->path,
				r->toolname, d->overall.rows[c]);
			continue;
		}
		fprintf(f, "%-10s %s: %zu run%s, %zu datapoints\n", what, k->name, k->nruns,
			k->nruns > 1 ? "s" : "", d->overall.rows[c]);
		for (size_t i = 0; i < k->nruns; i++) {
			const struct isc_run *r = d->runs[k->runs[i]];
			fprintf(f, "%10s   %s (%s, %s), %zu datapoints\n", "", r->name, r->path,
				r->toolname, d->overall.run_rows[k->runs[i]]);
		}
	}
	if (o->nwarn) {
		fputs("\nWarning: besides what was varied, the configurations differ in\n", f);
		for (size_t i = 0; i < o->nwarn; i++)
			fprintf(f, "  ! %s\n", o->warn[i]);
	}
	if (d->nfamily) {
		char line[512];
		isc_diff_family_line(d, line, sizeof(line));
		fprintf(f, "\nVerdicts: %s\n", line);
	}
}

void diff_print_text(FILE *f, const struct diff_out *o)
{
	const struct isc_diff *d = o->d;
	header(f, o);
	part_text(f, o, &d->overall, 0);
	for (size_t g = 0; g < d->ngroups; g++)
		part_text(f, o, &d->groups[g], g + 1);
	if (o->c && o->c->ncols)
		diff_counters_text(f, d, o->c);
}
