/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The Causes section (report --causes): per latency metric and run, what else ran on the
 * measured CPU in the datapoints' windows (lib/causes), per percentile band: a stacked bar of
 * the exclusive classes (inline SVG) and a table of the same numbers with each family's
 * share and the most frequent IRQ source and softirq type. Runs without cause columns are
 * named with the reason; a section with no such run says why and draws nothing.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "causes/causes.h"
#include <cjson/cJSON.h>
#include "text/util.h"
#include "report.h"

static const double cuts[] = { 50, 90, 99, 99.9 };
#define NCUTS (sizeof(cuts) / sizeof(cuts[0]))
#define NBANDS (NCUTS + 1)
static const char *const band_label[NBANDS] = { "&le;p50", "p50&ndash;p90", "p90&ndash;p99",
						"p99&ndash;p99.9", "&gt;p99.9" };
static const char *const part_colour[ISC_NPARTS] = { "#7b3294", "#e66101", "#fdb863", "#5e9cd3",
						     "#d9d9d9", "#1b9e77", "#636363" };
/* The "steal only" class and the steal share: only when a run of the metric has StealTime;
 * the "not known" class only when a run has an empty count cell. */
static bool steal_shown, unknown_shown;

static bool part_shown(size_t k)
{
	return (k != ISC_PART_STEAL || steal_shown) && (k != ISC_PART_UNKNOWN || unknown_shown);
}

/* Whether a table has an empty cell in one of its count columns (collect could not count). */
static bool has_unknown(const struct isc_table *t)
{
	struct isc_cause_cols cc;
	if (!isc_cause_cols_find(t, &cc))
		return false;
	for (size_t k = 0; k < ISC_CAUSE_NCOUNT; k++)
		for (size_t r = 0; cc.cnt[k] && r < t->nrows; r++)
			if (isnan(cc.cnt[k]->num[r]))
				return true;
	return false;
}
#define BAR_W 44
#define BAR_GAP 14
#define RUN_GAP 36
#define AXIS_W 40
#define BAR_H 180
#define TOP 34

/* Why run r has no cause columns; NULL when it has them. */
static const char *absent_reason(const struct report *rep, size_t r)
{
	const struct isc_run *run = rep->runs[r];
	struct isc_cause_cols cc;
	const char *method = isc_run_info_str(run, "method");
	const cJSON *counted = isc_run_info_item(run, "method_details.causes.counted");

	if (isc_cause_cols_find(run->dp, &cc))
		return NULL;
	if (cJSON_IsFalse(counted))
		return "collected with --no-causes";
	if (method && !strcmp(method, "timer"))
		return "the timer method: user space cannot see what ran on the CPU (bpf only)";
	if (method && (!strcmp(method, "hrt") || !strcmp(method, "tdt")))
		return "an hrt/tdt run from before the module counted causes";
	return "no cause columns (IRQCnt, SWIRQCnt, NMICnt, SMICnt) in its datapoints";
}

/* Runs that have some count columns but not IRQCnt and SWIRQCnt (wult: NMICnt, SMICnt): what
 * "none" means there. */
static void partial_notes(struct report *rep, const bool *have)
{
	const char *const *names = isc_cause_count_cols;
	FILE *f = rep->html;
	for (size_t r = 0; r < rep->nruns; r++) {
		struct isc_cause_cols cc;
		const char *sep = "";
		if (!have[r] || (isc_cause_cols_find(rep->runs[r]->dp, &cc) && cc.cnt[0] && cc.cnt[1]))
			continue;
		fputs("<p class=\"absent\">", f);
		html_esc(f, rep->runs[r]->name);
		fputs(" has only ", f);
		for (size_t k = 0; k < ISC_CAUSE_NCOUNT; k++) {
			if (!cc.cnt[k])
				continue;
			fprintf(f, "%s%s", sep, names[k]);
			sep = ", ";
		}
		fprintf(f, " (%s): its &ldquo;none&rdquo; means none of these, not a clean window.</p>\n",
			strcmp(rep->runs[r]->toolname, "wult") ? "no IRQ or softirq column"
							       : "wult records no IRQs or softirqs");
	}
}

static size_t runs_with_causes(const struct report *rep)
{
	size_t n = 0;
	for (size_t r = 0; r < rep->nruns; r++)
		n += absent_reason(rep, r) == NULL;
	return n;
}

static void absent_list(struct report *rep)
{
	FILE *f = rep->html;
	for (size_t r = 0; r < rep->nruns; r++) {
		const char *why = absent_reason(rep, r);
		if (!why)
			continue;
		fputs("<li>", f);
		html_esc(f, rep->runs[r]->name);
		fputs(": ", f);
		html_esc(f, why);
		fputs("</li>", f);
	}
}

static void legend(FILE *f)
{
	fputs("<p class=\"about causes-legend\">", f);
	for (size_t k = 0; k < ISC_NPARTS; k++)
		if (part_shown(k))
			fprintf(f, "<span style=\"display:inline-block;width:12px;height:12px;background:%s;"
			"margin:0 4px 0 12px;vertical-align:middle\"></span>%s", part_colour[k],
			isc_part_names[k]);
	fputs("</p>\n", f);
}

/* One run's five stacked bars, from x; rows at the bottom. */
static void svg_run(FILE *f, const struct report *rep, size_t r, const struct isc_causes *cs, int x)
{
	const char *name = rep->runs[r]->name;
	fprintf(f, "<text x=\"%d\" y=\"14\" font-size=\"12\">", x);
	html_esc(f, name);
	fputs("</text>\n", f);
	for (size_t b = 0; b < NBANDS; b++, x += BAR_W + BAR_GAP) {
		double y = TOP + BAR_H;
		for (size_t k = ISC_NPARTS; k-- > 0;) {
			double h = cs->band[b] ? BAR_H * (double)cs->part[b][k] / (double)cs->band[b] : 0;
			y -= h;
			if (!cs->part[b][k] || !part_shown(k))
				continue;
			fprintf(f, "<rect x=\"%d\" y=\"%.2f\" width=\"%d\" height=\"%.2f\" fill=\"%s\" "
				"data-run=\"%zu\" data-band=\"%zu\" data-part=\"%zu\" data-n=\"%zu\"><title>",
				x, y, BAR_W, h, part_colour[k], r, b, k, cs->part[b][k]);
			html_esc(f, name);
			fprintf(f, ", %s: %s %zu of %zu (%.1f%%)</title></rect>\n", band_label[b],
				isc_part_names[k], cs->part[b][k], cs->band[b],
				100.0 * (double)cs->part[b][k] / (double)cs->band[b]);
		}
		fprintf(f, "<text x=\"%d\" y=\"%d\" font-size=\"10\" text-anchor=\"middle\">%s</text>\n",
			x + BAR_W / 2, TOP + BAR_H + 14, band_label[b]);
	}
}

/* One SVG per run, side by side, wrapping with the page's width. */
static void svg(FILE *f, const struct report *rep, const struct isc_causes *cs, const bool *have)
{
	int run_w = (int)NBANDS * (BAR_W + BAR_GAP) - BAR_GAP;
	fputs("<div class=\"causes-bars\">", f);
	for (size_t r = 0; r < rep->nruns; r++) {
		if (!have[r])
			continue;
		fprintf(f, "<svg class=\"causes\" xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" "
			"height=\"%d\" font-family=\"DejaVu Sans, sans-serif\">\n", AXIS_W + run_w + RUN_GAP,
			TOP + BAR_H + 22);
		for (int pct = 0; pct <= 100; pct += 25)
			fprintf(f, "<text x=\"%d\" y=\"%d\" font-size=\"10\" text-anchor=\"end\">%d%%</text>"
				"<line x1=\"%d\" x2=\"%d\" y1=\"%d\" y2=\"%d\" stroke=\"#888\"/>\n", AXIS_W - 8,
				TOP + BAR_H - BAR_H * pct / 100 + 4, pct, AXIS_W - 5, AXIS_W - 1,
				TOP + BAR_H - BAR_H * pct / 100, TOP + BAR_H - BAR_H * pct / 100);
		svg_run(f, rep, r, &cs[r], AXIS_W);
		fputs("</svg>", f);
	}
	fputs("</div>\n", f);
}

/* The most frequent entry of a family ("  IRQ ", "  softirq ") in band b, or NULL. */
static const struct isc_cause *top_of(const struct isc_causes *cs, const char *prefix, size_t b)
{
	const struct isc_cause *best = NULL;
	for (size_t i = 0; i < cs->nc; i++)
		if (!strncmp(cs->c[i].name, prefix, strlen(prefix)) && cs->c[i].n[b] &&
		    (!best || cs->c[i].n[b] > best->n[b]))
			best = &cs->c[i];
	return best;
}

static void share_td(FILE *f, const char *key, size_t n, size_t of)
{
	fprintf(f, "<td class=\"num\" data-k=\"%s\" data-n=\"%zu\">", key, n);
	html_count(f, n);
	if (of)
		fprintf(f, " (%.1f%%)", 100.0 * (double)n / (double)of);
	fputs("</td>", f);
}

/* A share this run cannot have: it lacks the column (no StealTime, wult's IRQs). */
static void unmeasured_td(FILE *f, const char *key)
{
	fprintf(f, "<td class=\"num\" data-k=\"%s\">not measured</td>", key);
}

static void top_td(FILE *f, const char *key, const struct isc_causes *cs, const char *prefix, size_t b)
{
	const struct isc_cause *t = top_of(cs, prefix, b);
	if (!t) {
		fprintf(f, "<td data-k=\"%s\">-</td>", key);
		return;
	}
	fprintf(f, "<td data-k=\"%s\" data-n=\"%zu\">", key, t->n[b]);
	html_esc(f, t->name + strlen(prefix));
	fprintf(f, " (%.1f%%)</td>", 100.0 * (double)t->n[b] / (double)cs->band[b]);
}

static void table_rows(FILE *f, const struct report *rep, size_t r, const struct isc_causes *cs)
{
	static const char *const fam[] = { "IRQ", "softirq", "NMI", "SMI", "steal" };
	for (size_t b = 0; b < NBANDS; b++) {
		fprintf(f, "<tr data-run=\"%zu\" data-band=\"%zu\">", r, b);
		if (b == 0) {
			fprintf(f, "<th rowspan=\"%zu\">", NBANDS);
			html_esc(f, rep->runs[r]->name);
			fputs("</th>", f);
		}
		fprintf(f, "<td>%s</td><td class=\"num\" data-k=\"upper\">", band_label[b]);
		if (b < NCUTS)
			html_num(f, cs->thr[b]);
		fprintf(f, "</td><td class=\"num\" data-k=\"rows\" data-n=\"%zu\">", cs->band[b]);
		html_count(f, cs->band[b]);
		fputs("</td>", f);
		for (size_t k = 0; k < ISC_NPARTS; k++)
			if (k == ISC_PART_STEAL && steal_shown && !cs->steal)
				unmeasured_td(f, isc_part_names[k]);
			else if (part_shown(k))
				share_td(f, isc_part_names[k], cs->part[b][k], cs->band[b]);
		for (size_t k = 0; k < (steal_shown ? 5u : 4u); k++) {
			const struct isc_cause *c = isc_causes_find(cs, fam[k]);
			if (!((cs->measured >> k) & 1))
				unmeasured_td(f, fam[k]);
			else
				share_td(f, fam[k], c ? c->n[b] : 0, cs->band[b]);
		}
		top_td(f, "IRQTop", cs, "  IRQ ", b);
		top_td(f, "SWIRQType", cs, "  softirq ", b);
		fputs("</tr>\n", f);
	}
}

static void table(FILE *f, const struct report *rep, const struct isc_causes *cs, const bool *have)
{
	fputs("<div class=\"tw\"><table class=\"summary causes\"><thead><tr><th>Run</th><th>band</th>"
	      "<th>upper end</th><th>datapoints</th>", f);
	for (size_t k = 0; k < ISC_NPARTS; k++)
		if (part_shown(k))
			fprintf(f, "<th>%s</th>", isc_part_names[k]);
	fputs("<th>any IRQ</th><th>any softirq</th><th>any NMI</th><th>any SMI</th>", f);
	if (steal_shown)
		fputs("<th>any steal</th>", f);
	fputs("<th>top IRQ source</th><th>top softirq type</th></tr></thead>\n<tbody>\n", f);
	for (size_t r = 0; r < rep->nruns; r++)
		if (have[r])
			table_rows(f, rep, r, &cs[r]);
	fputs("</tbody></table></div>\n", f);
}

static void metric_part(struct report *rep, const char *metric, const bool *have)
{
	FILE *f = rep->html;
	struct isc_causes *cs = isc_xcalloc(rep->nruns, sizeof(*cs));
	for (size_t r = 0; r < rep->nruns; r++) {
		const struct isc_table *t = rep->runs[r]->dp;
		if (have[r])
			isc_causes_compute(&t, 1, metric, cuts, NCUTS, &cs[r]);
	}
	fprintf(f, "<h3 id=\"causes-%s\">", metric);
	html_esc(f, metric);
	fputs("</h3>\n", f);
	svg(f, rep, cs, have);
	table(f, rep, cs, have);
	free(cs);
}

static const char about[] =
	"<p class=\"about\">What else ran on the measured CPU in each datapoint's window (the cause "
	"columns of the bpf, hrt and tdt methods, docs/format.md), per run and percentile band of the metric "
	"(each run's own percentiles, interpolated as in the summary tables): the share of the "
	"band's datapoints in each exclusive class, by precedence an NMI or SMI; else an IRQ and "
	"a softirq; an IRQ only; a softirq only; none seen; not known (an empty cause cell: collect "
	"could not count). The table adds each family's share "
	"(overlapping; &ldquo;not measured&rdquo; where the run lacks the column) and the most frequent "
	"IRQ source (IRQTop) and softirq type. The clean "
	"latency (the idle state's exit alone): <code>--include 'IRQCnt == 0 and SWIRQCnt == 0 "
	"and NMICnt == 0'</code> (an empty cell is not 0, so this leaves out the rows not known).</p>\n";

static const char about_steal[] =
	"<p class=\"about\">Steal time (StealTime, bpf method on a KVM guest): the host ran something "
	"else while the measured vCPU waited. A datapoint with steal time and none of the others is "
	"in the class <em>steal only</em>; the clean latency then also needs "
	"<code>and StealTime == 0</code>.</p>\n";

void section_causes(struct report *rep)
{
	FILE *f = rep->html;
	bool *have = isc_xcalloc(rep->nruns + 1, sizeof(bool));
	size_t nmetrics = 0;

	fputs("<section id=\"causes\" class=\"metric causes\">\n<h2>Causes</h2>\n", f);
	fputs(about, f);
	for (size_t r = 0; r < rep->nruns; r++)
		have[r] = absent_reason(rep, r) == NULL;
	if (!runs_with_causes(rep)) {
		fputs("<p class=\"absent\">No breakdown: no run has cause columns.</p><ul class=\"absent\">", f);
		absent_list(rep);
		fputs("</ul>\n</section>\n", f);
		free(have);
		return;
	}
	if (runs_with_causes(rep) < rep->nruns) {
		fputs("<p class=\"absent\">Left out, without cause columns:</p><ul class=\"absent\">", f);
		absent_list(rep);
		fputs("</ul>\n", f);
	}
	partial_notes(rep, have);
	steal_shown = false;
	for (size_t r = 0; r < rep->nruns; r++) {
		const struct isc_column *c = isc_table_col(rep->runs[r]->dp, "StealTime");
		steal_shown |= have[r] && c && c->type == ISC_COL_NUM;
	}
	if (steal_shown)
		fputs(about_steal, f);
	unknown_shown = false;
	for (size_t r = 0; r < rep->nruns; r++)
		unknown_shown |= have[r] && has_unknown(rep->runs[r]->dp);
	legend(f);
	for (size_t m = 0; m < rep->nmetrics; m++)
		if (!strcmp(rep->metrics[m], "WakeLatency") || !strcmp(rep->metrics[m], "IntrLatency")) {
			metric_part(rep, rep->metrics[m], have);
			nmetrics++;
		}
	if (!nmetrics)
		fputs("<p class=\"absent\">No breakdown: neither WakeLatency nor IntrLatency is among "
		      "the metrics shown (--metrics).</p>\n", f);
	fputs("</section>\n", f);
	free(have);
}
