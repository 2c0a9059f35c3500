/* SPDX-License-Identifier: GPL-2.0-only */
/* The counters section: turbostat-like summary of counters.csv side by side, and series
 * over time. The numbers come from isc_counters_summary() (the counters area, in lib/). */
#include <cjson/cJSON.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "counters/derive/counters_summary.h"
#include "text/util.h"
#include "jsplot.h"
#include "report.h"

#define MIN_SPAN 1e-3    /* of the values' magnitude: the shortest y range of a counter plot */

/* Which counter files a run has: bit 0 counters.csv, 1 wult's stats-collect turbostat text
 * (read when there is no counters.csv), 2 stats-collect's /proc/interrupts snapshots. */
static unsigned counter_files(const struct isc_run *r)
{
	static const char *const names[] = { "counters.csv", "stats/turbostat.raw.txt",
					     "stats/interrupts.raw.txt" };
	struct stat st;
	unsigned have = 0;
	for (unsigned i = 0; i < 3; i++) {
		char *p = path_cat(r->dir, names[i]);
		have |= stat(p, &st) == 0 ? 1u << i : 0;
		free(p);
	}
	return have & 1u ? have & ~2u : have;
}

/* Impossible readings (counters_derive.h), one line per kind over the runs, above the numbers
 * they concern. */
static void implausible_notes(struct report *rep)
{
	char **lines;
	size_t n = isc_counters_check_lines(rep->runs, rep->nruns, &lines);
	for (size_t i = 0; i < n; i++) {
		fputs("<p class=\"incomplete\"><strong>Implausible counters</strong> ", rep->html);
		html_esc(rep->html, lines[i]);
		fputs(". The numbers below include these readings.</p>\n", rep->html);
		free(lines[i]);
	}
	if (n)
		free(lines);
}

/* The note above the table: where the numbers came from and what they are. */
static void counters_note(struct report *rep, unsigned files)
{
	FILE *f = rep->html;
	fputs("<p class=\"note\">All CPUs, over each run, from ", f);
	fputs(files & 1u ? files & 2u ? "counters.csv and (wult results) turbostat's text, "
				      "stats/turbostat.raw.txt" : "counters.csv"
			 : files & 2u ? "turbostat's text (stats/turbostat.raw.txt)" : "", f);
	fputs(files & 4u ? files & 3u ? ", and stats/interrupts.raw.txt" : "stats/interrupts.raw.txt" : "", f);
	fputs(": percentages and MHz averaged over the CPUs, Watts summed, event counts (IRQ, "
	      "idle-state entries ...) per second so that runs of different lengths compare", f);
	if (files & 4u)
		fputs("; the interrupt rates from /proc/interrupts (Intr/s, LOC/s, RES/s, CAL/s, "
		      "TLB/s, DevIRQ/s) are those of the measured CPU only", f);
	fputs("; empty cells: the run cannot derive that counter.</p>\n", f);
}

/* Union of the keys of objs[0..n) in first-seen order, except `skip`. */
static size_t key_union(cJSON **objs, size_t n, const char *skip, const char ***keys)
{
	size_t k = 0;
	*keys = NULL;
	for (size_t r = 0; r < n; r++)
		for (const cJSON *c = objs[r] ? objs[r]->child : NULL; c; c = c->next) {
			bool seen = skip && !strcmp(c->string, skip);
			for (size_t i = 0; i < k && !seen; i++)
				seen = !strcmp((*keys)[i], c->string);
			if (seen)
				continue;
			*keys = isc_xrealloc(*keys, (k + 1) * sizeof(**keys));
			(*keys)[k++] = c->string;
		}
	return k;
}

static double num_of(const cJSON *o, const char *key)
{
	const cJSON *v = o ? cJSON_GetObjectItemCaseSensitive(o, key) : NULL;
	return cJSON_IsNumber(v) ? v->valuedouble : NAN;
}

static void summary_table(struct report *rep, cJSON **sum)
{
	FILE *f = rep->html;
	const char **keys;
	size_t nkeys = key_union(sum, rep->nruns, NULL, &keys);
	fputs("<table class=\"summary\">\n<thead><tr><th>Counter</th>", f);
	for (size_t r = 0; r < rep->nruns; r++) {
		fprintf(f, "<th><span class=\"swatch\" style=\"background:%s\"></span>", run_colour(colour_of(rep, r)));
		html_esc(f, rep->runs[r]->name);
		fputs("</th>", f);
	}
	fputs("</tr></thead>\n<tbody>\n", f);
	for (size_t k = 0; k < nkeys; k++) {
		fputs("<tr><th>", f);
		html_esc(f, keys[k]);
		fputs("</th>", f);
		for (size_t r = 0; r < rep->nruns; r++) {
			double v = num_of(sum[r], keys[k]);
			fputs("<td class=\"num\">", f);
			html_num(f, v);
			if (r > 0 && !isnan(v))
				html_change(f, num_of(sum[0], keys[k]), v);
			fputs("</td>", f);
		}
		fputs("</tr>\n", f);
	}
	fputs("</tbody></table>\n", f);
	free(keys);
}

static int write_series(struct report *rep, const cJSON *ser, const char *key, size_t k, size_t r,
			double *lo, double *hi)
{
	const cJSON *t = cJSON_GetObjectItemCaseSensitive(ser, "t");
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(ser, key);
	char name[64];
	size_t n = 0;
	bool varies = false;
	double first = NAN;
	if (!cJSON_IsArray(t) || !cJSON_IsArray(v))
		return 0;
	snprintf(name, sizeof(name), "c%03zu-r%zu.dat", k, r);
	char *path = path_cat(rep->workdir, name);
	FILE *f = fopen(path, "w");
	free(path);
	if (!f) {
		isc_err("%s/%s: cannot create: %m", rep->workdir, name);
		return -1;
	}
	for (const cJSON *a = t->child, *b = v->child; a && b; a = a->next, b = b->next)
		if (cJSON_IsNumber(a) && cJSON_IsNumber(b)) {
			fprintf(f, "%.9g %.9g\n", a->valuedouble, b->valuedouble);
			*lo = fmin(*lo, b->valuedouble);
			*hi = fmax(*hi, b->valuedouble);
			varies |= n++ > 0 && b->valuedouble != first;
			first = n == 1 ? b->valuedouble : first;
		}
	if (fclose(f) != 0) {
		isc_err("%s: write error", name);
		return -1;
	}
	return n == 0 ? 0 : varies ? 2 : 1;
}

/* The interactive counter plot: every run's series over time. */
static int series_js(struct report *rep, cJSON **ser, const char *key, size_t k, const int *have,
		     const double yview[2])
{
	char file[32], label[128];
	double view[4] = { INFINITY, -INFINITY, yview[0], yview[1] };
	for (size_t r = 0; r < rep->nruns; r++) {
		const cJSON *t = have[r] ? cJSON_GetObjectItemCaseSensitive(ser[r], "t") : NULL;
		for (const cJSON *a = t ? t->child : NULL; a; a = a->next)
			if (cJSON_IsNumber(a))
				view[0] = fmin(view[0], a->valuedouble), view[1] = fmax(view[1], a->valuedouble);
	}
	if (!(view[1] > view[0]))
		view[1] = view[0] + 1;
	snprintf(file, sizeof(file), "c%03zu.svg", k);
	gp_safe(label, sizeof(label), key);
	struct jsplot *jp = jsplot_open(rep, file, "Time (s)", label, false, false, view);
	if (!jp)
		return -1;
	for (size_t r = 0; r < rep->nruns; r++) {
		if (!have[r])
			continue;
		const cJSON *t = cJSON_GetObjectItemCaseSensitive(ser[r], "t");
		const cJSON *v = cJSON_GetObjectItemCaseSensitive(ser[r], key);
		jsplot_series(jp, 'l', (long)r, run_colour(colour_of(rep, r)), 1.5, 0, false, NULL);
		for (const cJSON *a = t->child, *b = v->child; a && b; a = a->next, b = b->next)
			if (cJSON_IsNumber(a) && cJSON_IsNumber(b))
				jsplot_xy(jp, a->valuedouble, b->valuedouble);
	}
	return jsplot_close(jp);
}

/*
 * The y axis of a counter plot: at least MIN_SPAN of the values' size tall (a counter that
 * moves by 0.01 around 2300 is nearly constant, and looks it), about 5 tics of 1, 2 or 5
 * times a power of ten, labelled with enough digits to tell them apart (2299.5, 2300).
 */
static void counter_y_axis(FILE *gp, double lo, double hi, double view[2])
{
	double mid = lo / 2 + hi / 2, mag = fmax(fabs(lo), fabs(hi));
	double span = fmax(hi - lo, fmax(MIN_SPAN * mag, 1e-300));
	view[0] = lo;
	view[1] = hi > lo ? hi : lo + 1;
	if (!isfinite(span) || !isfinite(mid))
		return;  /* gnuplot's own axis */
	view[0] = mid - 0.55 * span;
	view[1] = mid + 0.55 * span;
	double raw = span / 5, p = pow(10, floor(log10(raw)));
	double step = raw <= p ? p : raw <= 2 * p ? 2 * p : raw <= 5 * p ? 5 * p : 10 * p;
	/* the integer digits, and the decimals of the step */
	int digits = (int)floor(log10(fmax(mag, step))) + 1 - (step < 1 ? (int)floor(log10(step)) : 0);
	digits = digits < 1 ? 1 : digits > 15 ? 15 : digits;
	fprintf(gp, "set yrange [%.17g:%.17g]\nset ytics %.17g\nset format y '%%.%dg'\n",
		mid - 0.55 * span, mid + 0.55 * span, step, digits);
}

/* One SVG per counter, every run that has it overlaid. */
static int series_plots(struct report *rep, cJSON **ser)
{
	FILE *f = rep->html, *gp;
	const char **keys;
	size_t nkeys = key_union(ser, rep->nruns, "t", &keys);
	char *script = path_cat(rep->workdir, "counters.gp");
	const char **constant = NULL;
	size_t nconst = 0;
	int rc = -1;
	if (!nkeys || !(gp = fopen(script, "w"))) {
		rc = nkeys ? (isc_err("%s: cannot create: %m", script), -1) : 0;
		goto cleanup;
	}
	html_legend(f, rep, false);
	fputs("<div class=\"plots\">\n", f);
	for (size_t k = 0; k < nkeys; k++) {
		char label[128], sep = ' ';
		int *have = isc_xcalloc(rep->nruns, sizeof(*have)), varies = 0;
		double lo = INFINITY, hi = -INFINITY;
		for (size_t r = 0; r < rep->nruns; r++) {
			have[r] = ser[r] ? write_series(rep, ser[r], keys[k], k, r, &lo, &hi) : 0;
			if (have[r] < 0) {
				free(have);
				fclose(gp);
				goto cleanup;
			}
			varies |= have[r] == 2;
		}
		if (!varies) {  /* a flat line says nothing the table does not */
			constant = isc_xrealloc(constant, (nconst + 1) * sizeof(*constant));
			constant[nconst++] = keys[k];
			free(have);
			continue;
		}
		gp_safe(label, sizeof(label), keys[k]);
		fprintf(gp, "reset\nset terminal svg size 660,330 font 'DejaVu Sans,13' noenhanced "
			    "background '#ffffff'\nset output '../plots/c%03zu.svg'\nset grid lc rgb "
			    "'#dddddd'\nset key off\nset xlabel 'Time (s)'\nset ylabel '%s'\n",
			k, label);
		double yview[2];
		counter_y_axis(gp, lo, hi, yview);
		fputs("plot", gp);
		for (size_t r = 0; r < rep->nruns; r++) {
			if (have[r])
				fprintf(gp, "%c './c%03zu-r%zu.dat' using 1:2 with lines lw 1.5 lc rgb '%s'",
					sep, k, r, run_colour(colour_of(rep, r)));
			sep = have[r] ? ',' : sep;
		}
		fputc('\n', gp);
		int bad = series_js(rep, ser, keys[k], k, have, yview);
		free(have);
		if (bad < 0) {
			fclose(gp);
			goto cleanup;
		}
		fprintf(f, "<figure data-plot=\"c%03zu\"><img src=\"plots/c%03zu.svg\" width=\"660\" "
			   "height=\"330\" alt=\"", k, k);
		html_esc(f, keys[k]);
		fputs(" over time\"><figcaption>", f);
		html_esc(f, keys[k]);
		fputs(" per interval, over the run</figcaption></figure>\n", f);
	}
	fputs("</div>\n", f);
	if (nconst) {
		fputs("<p class=\"note\">Constant over the run (not plotted): ", f);
		for (size_t i = 0; i < nconst; i++) {
			fputs(i ? ", " : "", f);
			html_esc(f, constant[i]);
		}
		fputs(".</p>\n", f);
	}
	if (fclose(gp) != 0) {
		isc_err("%s: write error", script);
		goto cleanup;
	}
	rc = plot_queue_add(rep->queue, "counters.gp");
cleanup:
	free(script);
	free(keys);
	free(constant);
	return rc;
}

/* The measured CPU's counters first: its latency is what they explain. Nothing when no run
 * has a measured CPU with a row in counters.csv. */
static int measured_cpu_table(struct report *rep)
{
	FILE *f = rep->html;
	cJSON **cpu = isc_xcalloc(rep->nruns, sizeof(*cpu));
	long *which = isc_xcalloc(rep->nruns, sizeof(*which));
	int rc = 0, any = 0;
	for (size_t r = 0; r < rep->nruns && rc >= 0; r++) {
		which[r] = isc_counters_measured_cpu(rep->runs[r]->dir);
		rc = isc_counters_summary_cpu(rep->runs[r]->dir, which[r], &cpu[r]);
		any |= rc > 0;
	}
	if (rc >= 0 && any) {
		fputs("<h3>The measured CPU</h3>\n<p class=\"note\">Each run's measured CPU (", f);
		for (size_t r = 0; r < rep->nruns; r++) {
			fputs(r ? ", " : "", f);
			if (rep->nruns > 1) {
				html_esc(f, rep->runs[r]->name);
				fputc(' ', f);
			}
			if (cpu[r])
				fprintf(f, "CPU %ld", which[r]);
			else
				fputs(which[r] < 0 ? "none given" : "no row in counters.csv", f);
		}
		fputs(") over the run, as its own row of <code>analyze counters --whole</code> shows "
		      "it: a core or package counter only on the CPU that read it; event counts per "
		      "second.</p>\n", f);
		summary_table(rep, cpu);
	}
	for (size_t r = 0; r < rep->nruns; r++)
		cJSON_Delete(cpu[r]);
	free(cpu);
	free(which);
	return rc < 0 ? -1 : 0;
}

int section_counters(struct report *rep)
{
	cJSON **sum = isc_xcalloc(rep->nruns, sizeof(*sum)), **ser = isc_xcalloc(rep->nruns, sizeof(*ser));
	bool any = false;
	unsigned files = 0;
	int rc = -1;

	for (size_t r = 0; r < rep->nruns; r++)
		files |= counter_files(rep->runs[r]);
	if (!files)
		goto done;
	for (size_t r = 0; r < rep->nruns; r++) {
		int got = isc_counters_summary(rep->runs[r]->dir, &sum[r], &ser[r]);
		if (got < 0)
			goto cleanup;
		any |= got > 0;
	}
	if (!any)
		goto done;
	fputs("<section id=\"counters\">\n<h2>Counters</h2>\n", rep->html);
	if (measured_cpu_table(rep) < 0)
		goto cleanup;
	fputs("<h3>System-wide</h3>\n", rep->html);
	counters_note(rep, files);
	implausible_notes(rep);
	summary_table(rep, sum);
	if (series_plots(rep, ser) < 0)
		goto cleanup;
	fputs("</section>\n", rep->html);
done:
	rc = 0;
cleanup:
	for (size_t r = 0; r < rep->nruns; r++) {
		cJSON_Delete(sum[r]);
		cJSON_Delete(ser[r]);
	}
	free(sum);
	free(ser);
	return rc;
}
