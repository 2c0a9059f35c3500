/* SPDX-License-Identifier: GPL-2.0-only */
/* One metric's section: verdicts, the summary table, plots, the per-idle-state table. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report.h"

/* What the well-known metrics measure (wult's definitions). */
static const struct {
	const char *prefix;   /* the name, or a prefix when it ends with '*' */
	const char *about;
} abouts[] = {
	{ "WakeLatency", "From the programmed timer expiry (LTime) until the CPU, out of the idle "
			 "state, runs the measuring code again: idle exit as software sees it." },
	{ "IntrLatency", "From the programmed timer expiry (LTime) until the timer's interrupt "
			 "handler runs." },
	{ "SilentTime", "How long the CPU was idle before the wake-up: from entering the idle "
			"state until the programmed expiry (LTime)." },
	{ "LDist", "Launch distance: how far in the future the timer was armed." },
	{ "CC*", "Core C-state residency during the idle period, in percent." },
	{ "PC*", "Package C-state residency during the idle period, in percent." },
	{ "MC*", "Module C-state residency during the idle period, in percent." },
};

static const char *about(const char *metric)
{
	for (size_t i = 0; i < sizeof(abouts) / sizeof(abouts[0]); i++) {
		size_t n = strlen(abouts[i].prefix);
		bool prefix = abouts[i].prefix[n - 1] == '*';
		if (prefix ? !strncmp(metric, abouts[i].prefix, n - 1) &&
				     metric[strlen(metric) - 1] == '%'
			   : !strcmp(metric, abouts[i].prefix))
			return abouts[i].about;
	}
	return NULL;
}

void summ_col_th(const struct report *rep, size_t r)
{
	fprintf(rep->html, "<th><span class=\"swatch\" style=\"background:%s\"></span>",
		summ_col_colour(rep, r));
	html_esc(rep->html, summ_col_name(rep, r));
	if (rep->sum.diff && rep->configs[r].nruns > 1)
		fprintf(rep->html, " <small>(%zu runs)</small>", rep->configs[r].nruns);
	fputs("</th>", rep->html);
}

/* A value, and under it the change against the reference for r >= 1. */
static void value_td(const struct report *rep, const struct summ_part *p, size_t m, size_t r,
		     size_t f)
{
	double v = summ_value(rep, p, m, r, f);
	fputs("<td class=\"num\">", rep->html);
	html_num(rep->html, v);
	if (r > 0)
		html_change(rep->html, summ_value(rep, p, m, 0, f), v);
	fputs("</td>", rep->html);
}

/* Columns: run, datapoints, then the functions; runs as rows so the table uses the page's
 * width and reads like the per-state table under it. */
static void func_header(struct report *rep, const char *first)
{
	FILE *f = rep->html;
	fputs("<thead><tr>", f);
	if (first) {
		fputs("<th>", f);
		html_esc(f, first);
		fputs("</th>", f);
	}
	if (rep->sum.ncols > 1 || !first)
		fputs(rep->grouped && rep->sum.diff ? "<th>Configuration</th>" : "<th>Run</th>", f);
	fputs("<th>datapoints</th>", f);
	for (size_t fn = 0; fn < rep->nfuncs; fn++) {
		fputs("<th>", f);
		html_esc(f, rep->funcs[fn].name);
		fputs("</th>", f);
	}
	fputs("</tr></thead>\n<tbody>\n", f);
}

static void func_cells(struct report *rep, const struct summ_part *p, size_t m, size_t r)
{
	fputs("<td class=\"num\">", rep->html);
	html_count(rep->html, p->rows[r]);
	fputs("</td>", rep->html);
	for (size_t fn = 0; fn < rep->nfuncs; fn++)
		value_td(rep, p, m, r, fn);
}

static void summary_table(struct report *rep, size_t m)
{
	FILE *f = rep->html;
	fputs("<div class=\"tw\"><table class=\"summary\">\n", f);
	func_header(rep, NULL);
	for (size_t r = 0; r < rep->sum.ncols; r++) {
		fputs("<tr>", f);
		summ_col_th(rep, r);
		func_cells(rep, &rep->sum.overall, m, r);
		fputs("</tr>\n", f);
	}
	fputs("</tbody></table></div>\n", f);
}

/* The heading of a per-group table and the table's opening, of class CLASSES. */
void summ_group_heading(struct report *rep, const char *classes)
{
	FILE *f = rep->html;
	const char *col = rep->sum.group_col;
	fputs(strcmp(col, "ReqCState") ? "<h3>Per " : "<h3>Per requested idle state (", f);
	html_esc(f, col);
	fprintf(f, "%s</h3>\n<div class=\"tw\"><table class=\"%s\">\n", strcmp(col, "ReqCState") ? "" : ")",
		classes);
}

static void group_table(struct report *rep, size_t m)
{
	FILE *f = rep->html;
	const struct summary *s = &rep->sum;
	if (!s->group_col || !s->ngroups)
		return;
	summ_group_heading(rep, "summary groups");
	func_header(rep, s->group_col);
	for (size_t g = 0; g < s->ngroups; g++) {
		const struct summ_part *p = &s->groups[g];
		for (size_t r = 0; r < s->ncols; r++) {
			fputs("<tr>", f);
			if (r == 0) {
				fprintf(f, "<th rowspan=\"%zu\">", s->ncols);
				html_esc(f, p->label[0] ? p->label : "(empty)");
				fputs("</th>", f);
			}
			if (s->ncols > 1)
				summ_col_th(rep, r);
			func_cells(rep, p, m, r);
			fputs("</tr>\n", f);
		}
	}
	fputs("</tbody></table></div>\n", f);
}

/* One verdict; it names the reference, so say which configuration it is about. */
static void verdict_line(FILE *f, const struct report *rep, size_t r, const struct verdict *v)
{
	fprintf(f, "<p class=\"%s\"><span class=\"swatch\" style=\"background:%s\"></span>",
		v->significant ? "sig" : v->differs ? "differs" : "nosig", run_colour(r));
	html_esc(f, rep->configs[r].name);
	fputs(" \u2014 ", f);
	html_esc(f, v->text);
	fputs("</p>\n", f);
}

static void verdicts(struct report *rep, size_t m)
{
	FILE *f = rep->html;
	const struct summary *s = &rep->sum;
	if (rep->nconfigs < 2)
		return;
	fputs("<div class=\"verdicts\">\n", f);
	for (size_t r = 1; s->verdicts && r < s->ncols; r++) {
		const struct verdict *v = &s->verdicts[m * s->ncols + r];
		verdict_line(f, rep, r, v);
		for (size_t g = 0; g < v->ngroups; g++)
			verdict_line(f, rep, r, &v->groups[g]);
	}
	fputs("</div>\n", f);
}

static void figures(struct report *rep, const char *name, const struct metric_plots *mp)
{
	FILE *f = rep->html;
	if (!mp->nfiles) {  /* every plot has a histogram when there is a value */
		fputs("<p class=\"note\">No plots: no datapoint has a value of ", f);
		html_esc(f, name);
		fputs(" (every cell is empty).</p>\n", f);
		return;
	}
	html_legend(f, rep, !rep->state_markers);  /* markers are idle states then: in the plots */
	fputs("<div class=\"plots\">\n", f);
	for (int i = 0; i < mp->nfiles; i++) {
		const char *dot = strrchr(mp->files[i], '.');
		fputs(mp->wide[i] ? "<figure class=\"wide\"" : "<figure", f);
		fputs(" data-plot=\"", f);
		html_escn(f, mp->files[i], dot ? (size_t)(dot - mp->files[i]) : (size_t)-1);
		fputs("\"><img src=\"plots/", f);
		html_esc(f, mp->files[i]);
		fprintf(f, "\" width=\"%d\" height=\"430\" alt=\"", mp->wide[i] ? 1332 : 660);
		html_esc(f, mp->captions[i]);
		fputs("\"><figcaption>", f);
		html_esc(f, mp->captions[i]);
		fputs("</figcaption></figure>\n", f);
	}
	fputs("</div>\n", f);
}

void section_metric(struct report *rep, size_t m)
{
	FILE *f = rep->html;
	const char *name = rep->metrics[m];
	const char *unit = metric_unit(rep, name);
	size_t sm = summary_metric(&rep->sum, name);

	fprintf(f, "<section id=\"m%zu\" class=\"metric\">\n<h2>", m);
	html_esc(f, name);
	if (unit[0] && strcmp(unit, "%")) {
		fputs(" <span class=\"unit\">(", f);
		html_esc(f, unit);
		fputs(")</span>", f);
	}
	fputs("</h2>\n", f);
	if (about(name))
		fprintf(f, "<p class=\"about\">%s</p>\n", about(name));
	if (sm != SIZE_MAX) {
		verdicts(rep, sm);
		summary_table(rep, sm);
	}
	figures(rep, name, &rep->plots[m]);
	if (sm != SIZE_MAX)
		group_table(rep, sm);
	fputs("</section>\n", f);
}
