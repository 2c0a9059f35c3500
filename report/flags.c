/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The Flags section: 0/1 columns (IntrOff) as how many datapoints have a value, how many are
 * 1 and their share, per run or configuration and per group; with several configurations the
 * proportion tests of analyze diff (lib/diff/diff_flags.c). No percentiles, no plots.
 */
#include <stdio.h>
#include <string.h>

#include "report.h"

static bool with_tests(const struct report *rep)
{
	return rep->sum.diff && rep->nconfigs > 1;
}

static void header(struct report *rep, const char *group)
{
	FILE *f = rep->html;
	fputs("<thead><tr>", f);
	if (group) {
		fputs("<th>", f);
		html_esc(f, group);
		fputs("</th>", f);
	}
	fputs("<th>Flag</th>", f);
	fputs(rep->grouped && rep->sum.diff ? "<th>Configuration</th>" : "<th>Run</th>", f);
	fputs("<th>values</th><th>set (1)</th><th>share</th>", f);
	if (with_tests(rep))
		fputs("<th>change</th><th>p</th><th>test</th>", f);
	fputs("</tr></thead>\n<tbody>\n", f);
}

/* The test of flag k, configuration c against the reference, in part p. */
static void test_cells(struct report *rep, size_t p, size_t k, size_t c)
{
	FILE *f = rep->html;
	const struct isc_diff_flag_test *t = c ? isc_diff_flag_test_of(&rep->fl, p, k, c) : NULL;
	if (!t) {
		fputs(c ? "<td>-</td><td>-</td><td>no test</td>" : "<td></td><td></td><td>reference</td>", f);
		return;
	}
	fprintf(f, "<td class=\"num\">%+.2f pts</td>", 100 * t->diff);
	fprintf(f, t->p < 1e-4 ? "<td class=\"num\">%.1e</td>" : "<td class=\"num\">%.4f</td>", t->p);
	fprintf(f, "<td class=\"%s\">%s, %s</td>", t->significant ? "sig" : t->differs ? "differs" : "nosig",
		t->method, isc_diff_flag_words(t));
}

static void row_cells(struct report *rep, const struct summ_part *sp, size_t p, size_t k, size_t c)
{
	FILE *f = rep->html;
	size_t values = sp->fvalues[k * rep->sum.ncols + c], set = sp->fset[k * rep->sum.ncols + c];
	summ_col_th(rep, c);
	fputs("<td class=\"num\">", f);
	html_count(f, values);
	fputs("</td><td class=\"num\">", f);
	html_count(f, set);
	if (values)
		fprintf(f, "</td><td class=\"num\">%.2f%%</td>", 100.0 * (double)set / (double)values);
	else
		fputs("</td><td class=\"num\">-</td>", f);
	if (with_tests(rep))
		test_cells(rep, p, k, c);
}

/* Part p (0: all datapoints, g + 1: group g); rows of flag k, one per run or configuration. */
static void flag_rows(struct report *rep, const struct summ_part *sp, size_t p, size_t k,
		      size_t *left)
{
	FILE *f = rep->html;
	for (size_t c = 0; c < rep->sum.ncols; c++) {
		fputs("<tr>", f);
		if (left && *left) {  /* the group's label spans its rows */
			fprintf(f, "<th rowspan=\"%zu\">", *left);
			html_esc(f, sp->label[0] ? sp->label : "(empty)");
			fputs("</th>", f);
			*left = 0;
		}
		if (c == 0) {
			fprintf(f, "<th rowspan=\"%zu\">", rep->sum.ncols);
			html_esc(f, rep->fl.names[k]);
			fputs("</th>", f);
		}
		row_cells(rep, sp, p, k, c);
		fputs("</tr>\n", f);
	}
}

static void group_tables(struct report *rep)
{
	FILE *f = rep->html;
	const struct summary *s = &rep->sum;
	if (!s->group_col || !s->ngroups)
		return;
	summ_group_heading(rep, "summary groups flags");
	header(rep, s->group_col);
	for (size_t g = 0; g < s->ngroups; g++) {
		size_t left = rep->fl.n * s->ncols;
		for (size_t k = 0; k < rep->fl.n; k++)
			flag_rows(rep, &s->groups[g], g + 1, k, &left);
	}
	fputs("</tbody></table></div>\n", f);
}

void section_flags(struct report *rep)
{
	FILE *f = rep->html;
	if (!rep->fl.n || !rep->sum.overall.fvalues)
		return;
	fputs("<section id=\"flags\" class=\"metric flags\">\n<h2>Flags</h2>\n<p class=\"about\">0/1 "
	      "columns (IntrOff: 1 when the idle state was entered with interrupts off) are not "
	      "metrics: how many datapoints have a value, how many of them are 1 and their share", f);
	if (with_tests(rep))
		fputs("; the share against the reference's: Welch's t on the runs' shares when both "
		      "configurations have two or more runs, else Fisher's exact or the two-proportion "
		      "z test on the datapoints (as analyze diff)", f);
	fputs(".</p>\n<div class=\"tw\"><table class=\"summary flags\">\n", f);
	header(rep, NULL);
	for (size_t k = 0; k < rep->fl.n; k++)
		flag_rows(rep, &rep->sum.overall, 0, k, NULL);
	fputs("</tbody></table></div>\n", f);
	group_tables(rep);
	fputs("</section>\n", f);
}
