/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The percentile plots, from every datapoint:
 * - exceedance: the share of datapoints above x, 1 - F(x), on a log y axis from 100% down
 *   to one datapoint (HdrHistogram's way to read a latency tail), over the whole range;
 * - tail: percentiles on a "nines" axis, x = -log10(1 - q), so that 90%, 99%, 99.9% ... get
 *   equal room, up to as many nines as the data has, then the maximum (100%), marked.
 * Both axes of values are logarithmic when the values are positive and span two decades.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "text/json_num.h"
#include "text/util.h"
#include "jsplot.h"
#include "plots.h"

#define LOG_SPAN 100          /* max / min from which a value axis is logarithmic */
#define MAX_GAP 0.8           /* nines between the last percentile shown and the maximum */

/* Exceedance (value, percent above), tail (nines, value) and maximum files of run r (kind
 * 'r') or of configuration r, its runs pooled (kind 'c'); exact_max: the largest value as it
 * is. */
static int write_percentiles(struct metric_data *md, const double *qv, size_t nvals, char kind,
			     size_t r, double exact_max, double max_nines)
{
	double n = (double)nvals;
	char name[64];
	snprintf(name, sizeof(name), "m%03zu-pct-%c%zu.dat", md->m, kind, r);
	FILE *f = work_open(md->rep, name, "w");
	if (!f)
		return -1;
	/* 1 - F down to one datapoint (1/n): beyond that the grid interpolates */
	for (size_t i = 0; i + 1 < md->grid.n && 1 - md->grid.q[i] >= 1 / n - 1e-12; i++)
		fprintf(f, "%.9g %.9g\n", qv[i], 100 * (1 - md->grid.q[i]));
	fprintf(f, "%.9g %.9g\n\n\n", qv[md->grid.n - 1], 100 / n);
	for (size_t i = 0; i + 1 < md->grid.n; i++) {
		double nines = -log10(1 - md->grid.q[i]);
		if (nines <= max_nines + 1e-9)
			fprintf(f, "%.6g %.9g\n", nines, qv[i]);
	}
	fprintf(f, "%.6g %.9g\n\n\n", max_nines + MAX_GAP, qv[md->grid.n - 1]);
	char mx[ISC_NUM_STR_LEN];
	isc_num_str(mx, exact_max);
	fprintf(f, "%.6g %.9g %s\n", max_nines + MAX_GAP, qv[md->grid.n - 1], mx);
	return work_close(f, name);
}

static bool log_values(const struct metric_data *md)
{
	return md->lo > 0 && md->max >= LOG_SPAN * md->lo;
}

/* Every run's line, thin when configurations pool replicate runs, whose pooled line is
 * drawn thick over them in the configuration's colour. */
static void plot_runs(struct metric_data *md, const char *what)
{
	struct report *rep = md->rep;
	const char *sep = "";
	fputs("plot", md->gp);
	for (size_t r = 0; r < rep->nruns; r++) {
		if (!md->nvals[r])
			continue;
		fprintf(md->gp, "%s './m%03zu-pct-r%zu.dat' %s lw %d lc rgb '%s'", sep, md->m, r, what,
			md->pqv ? 1 : 2, run_colour(colour_of(rep, r)));
		sep = ",";
	}
	for (size_t c = 0; md->pqv && c < rep->nconfigs; c++)
		if (md->pnvals[c])
			fprintf(md->gp, ", './m%03zu-pct-c%zu.dat' %s lw 3.5 lc rgb '%s'", md->m, c, what,
				run_colour(c));
}

/* One distribution as the data file's block 0 (1 - F) or block 1 (the tail). */
static void pct_js(struct jsplot *jp, const struct metric_data *md, const double *qv, size_t nvals,
		   bool tail, double max_nines)
{
	double n = (double)nvals;
	for (size_t i = 0; i + 1 < md->grid.n; i++) {
		double q = md->grid.q[i], nines = -log10(1 - q);
		if (!tail && 1 - q >= 1 / n - 1e-12)
			jsplot_xy(jp, qv[i], 100 * (1 - q));
		else if (tail && nines <= max_nines + 1e-9)
			jsplot_xy(jp, nines, qv[i]);
	}
	if (tail)
		jsplot_xy(jp, max_nines + MAX_GAP, qv[md->grid.n - 1]);
	else
		jsplot_xy(jp, qv[md->grid.n - 1], 100 / n);
}

/* Every run's line and, with replicate runs, each configuration's pooled one (thick). */
static void pct_runs_js(struct jsplot *jp, const struct metric_data *md, bool tail, double max_nines)
{
	struct report *rep = md->rep;
	char name[300];
	for (size_t r = 0; r < rep->nruns; r++) {
		if (!md->nvals[r])
			continue;
		jsplot_series(jp, tail ? 'l' : 's', (long)r, run_colour(colour_of(rep, r)), md->pqv ? 1 : 2,
			      0, false, NULL);
		pct_js(jp, md, &md->qv[r * md->grid.n], md->nvals[r], tail, max_nines);
	}
	for (size_t c = 0; md->pqv && c < rep->nconfigs; c++) {
		if (!md->pnvals[c])
			continue;
		snprintf(name, sizeof(name), "%s (runs pooled)", rep->configs[c].name);
		jsplot_series(jp, tail ? 'l' : 's', -1, run_colour(c), 3.5, 0, false, name);
		pct_js(jp, md, &md->pqv[c * md->grid.n], md->pnvals[c], tail, max_nines);
	}
}

static const char *pooled_note(const struct metric_data *md)
{
	return md->pqv ? "; thin lines: each run, thick: each configuration's runs pooled" : "";
}

static int exceedance(struct metric_data *md, size_t nmax)
{
	char file[64];
	bool lg = log_values(md);
	double view[4] = { md->lo, md->max > md->lo ? md->max : md->lo + 1, 50.0 / (double)nmax, 100 };
	snprintf(file, sizeof(file), "m%03zu-cdf.svg", md->m);
	set_terminal(md, false, file);
	fprintf(md->gp, "set xlabel '%s'\nset ylabel 'Datapoints above x (%%)'\nset logscale y\n"
			"set format y '%%g'\nset yrange [%.9g:100]\nset xrange [%.9g:%.9g]\n%s",
		md->label, 50.0 / (double)nmax, md->lo,
		md->max > md->lo ? md->max : md->lo + 1, lg ? "set logscale x\nset format x '%g'\n" : "");
	plot_runs(md, "index 0 using 1:2 with steps");
	fputc('\n', md->gp);
	struct jsplot *jp = jsplot_open(md->rep, file, md->label, "Datapoints above x (%)", lg, true,
					view);
	if (!jp)
		return -1;
	pct_runs_js(jp, md, false, 0);
	if (jsplot_close(jp) < 0)
		return -1;
	add_output(md, file, isc_xasprintf("Share of datapoints above x (1 - CDF) of %s, from every "
					  "datapoint, log scale down to one datapoint%s: the tail "
					  "reads as the curve's right end%s", md->name,
					  lg ? ", log x axis" : "", pooled_note(md)));
	return 0;
}

/* "a 622.086, b 1170.317": the maxima as the runs have them, for the caption */
static char *maxima_text(const struct metric_data *md, bool pooled)
{
	struct report *rep = md->rep;
	char *t = isc_xstrdup(""), mx[ISC_NUM_STR_LEN];
	size_t n = pooled ? rep->nconfigs : rep->nruns;
	for (size_t r = 0; r < n; r++) {
		double v = -INFINITY;
		const char *name = pooled ? rep->configs[r].name : rep->runs[r]->name;
		for (size_t i = 0; pooled && i < rep->configs[r].nruns; i++)
			if (md->nvals[rep->configs[r].runs[i]])
				v = fmax(v, md->rmax[rep->configs[r].runs[i]]);
		if (!pooled && md->nvals[r])
			v = md->rmax[r];
		if (v == -INFINITY)
			continue;
		short_value_str(md, axis_map_apply(&md->map, v), md->max - md->lo, mx);
		char *next = isc_xasprintf("%s%s%s%s%s", t, t[0] ? "; " : "", n > 1 ? name : "",
					  n > 1 ? " " : "", mx);
		free(t);
		t = next;
	}
	return t;
}

/* The maxima as dots: their values are in the caption, where they cannot overlap. */
static void maxima_js(struct jsplot *jp, const struct metric_data *md, double max_nines)
{
	struct report *rep = md->rep;
	bool pooled = md->pqv != NULL;
	char name[320];
	for (size_t r = 0; r < (pooled ? rep->nconfigs : rep->nruns); r++) {
		if (!(pooled ? md->pnvals[r] : md->nvals[r]))
			continue;
		const double *qv = pooled ? &md->pqv[r * md->grid.n] : &md->qv[r * md->grid.n];
		snprintf(name, sizeof(name), "max of %s", pooled ? rep->configs[r].name : rep->runs[r]->name);
		jsplot_series(jp, 'p', pooled ? -1 : (long)r, run_colour(pooled ? r : colour_of(rep, r)), 1,
			      4, false, name);
		jsplot_xy(jp, max_nines + MAX_GAP, qv[md->grid.n - 1]);
	}
}

static int tail(struct metric_data *md, double max_nines)
{
	char file[64];
	bool lg = log_values(md);
	double span = md->max - md->lo;
	double view[4] = { 0, max_nines + MAX_GAP + 0.3,
			   lg ? md->lo / pow(md->max / md->lo, 0.05) : md->lo - 0.05 * (span > 0 ? span : 1),
			   lg ? md->max * pow(md->max / md->lo, 0.03) : md->max + 0.03 * (span > 0 ? span : 1) };
	snprintf(file, sizeof(file), "m%03zu-tail.svg", md->m);
	set_terminal(md, false, file);
	/* '%' is a format character in gnuplot's tic labels: '%%' */
	static const char *const nines[] = { "90%%", "99%%", "99.9%%", "99.99%%", "99.999%%" };
	fprintf(md->gp, "set xlabel 'Percentile'\nset ylabel '%s'\nset xrange [0:%g]\n%s"
			"set xtics ('0%%%%' 0, '50%%%%' log10(2)", md->label, max_nines + MAX_GAP + 0.3,
		lg ? "set logscale y\nset format y '%g'\n" : "");
	for (int k = 1; k <= (int)max_nines; k++)
		fprintf(md->gp, ", '%s' %d", nines[k - 1], k);
	fprintf(md->gp, ", '100%%%% (max)' %g)\n", max_nines + MAX_GAP);
	fputs("set offsets 0, 0, graph 0.05, 0\n", md->gp);
	for (int k = 1; k <= (int)max_nines; k++)
		fprintf(md->gp, "set arrow from %d, graph 0 to %d, graph 1 nohead dt 3 lc rgb '#bbbbbb'\n",
			k, k);
	plot_runs(md, "index 1 using 1:2 with lines");
	/* the maxima: each run's, or with replicate runs each configuration's (its runs
	 * pooled), so that the labels stay few enough to read */
	bool pooled = md->pqv != NULL;
	size_t n = pooled ? md->rep->nconfigs : md->rep->nruns;
	for (size_t r = 0; r < n; r++) {
		if (!(pooled ? md->pnvals[r] : md->nvals[r]))
			continue;
		const char *colour = run_colour(pooled ? r : colour_of(md->rep, r));
		fprintf(md->gp, ", './m%03zu-pct-%c%zu.dat' index 2 using 1:2 with points pt 7 ps 1.2 "
				"lc rgb '%s'", md->m, pooled ? 'c' : 'r', r, colour);
	}
	fputc('\n', md->gp);
	struct jsplot *jp = jsplot_open(md->rep, file, "Percentile", md->label, false, lg, view);
	if (!jp)
		return -1;
	static const char *const nines_js[] = { "90%", "99%", "99.9%", "99.99%", "99.999%" };
	jsplot_xtick(jp, 0, "0%");
	jsplot_xtick(jp, log10(2), "50%");
	for (int k = 1; k <= (int)max_nines; k++)
		jsplot_xtick(jp, k, nines_js[k - 1]);
	jsplot_xtick(jp, max_nines + MAX_GAP, "100% (max)");
	for (int k = 1; k <= (int)max_nines; k++)
		jsplot_vline(jp, k);
	pct_runs_js(jp, md, true, max_nines);
	maxima_js(jp, md, max_nines);
	if (jsplot_close(jp) < 0)
		return -1;
	char *maxima = maxima_text(md, pooled);
	add_output(md, file, isc_xasprintf("Percentiles of %s, tail view: each step to the right is one "
					  "more nine (90%%, 99%%, 99.9%%, ...) up to %g nines, then the "
					  "maximum (100%%), marked with a dot%s: %s%s%s", md->name,
					  max_nines, pooled ? " (each configuration's)" : "", maxima,
					  lg ? "; log y axis" : "", pooled_note(md)));
	free(maxima);
	return 0;
}

int percentile_plots(struct metric_data *md)
{
	size_t nmax = 0;
	for (size_t r = 0; r < md->rep->nruns; r++)
		nmax = md->nvals[r] > nmax ? md->nvals[r] : nmax;
	if (!nmax)
		return 0;
	/* Show as many nines as the data can have: 5 (99.999%) from 100000 datapoints. */
	double max_nines = fmin(5, fmax(2, floor(log10((double)nmax))));
	for (size_t r = 0; r < md->rep->nruns; r++)
		if (md->nvals[r] && write_percentiles(md, &md->qv[r * md->grid.n], md->nvals[r], 'r', r,
						      md->rmax[r], max_nines) < 0)
			return -1;
	for (size_t c = 0; md->pqv && c < md->rep->nconfigs; c++) {
		const struct isc_diff_config *k = &md->rep->configs[c];
		double mx = -INFINITY;
		for (size_t i = 0; i < k->nruns; i++)
			if (md->nvals[k->runs[i]])
				mx = fmax(mx, md->rmax[k->runs[i]]);
		if (md->pnvals[c] && write_percentiles(md, &md->pqv[c * md->grid.n], md->pnvals[c], 'c',
						       c, mx, max_nines) < 0)
			return -1;
	}
	/* the y axis reaches down to one datapoint of the largest run or pooled configuration */
	size_t nlow = nmax;
	for (size_t c = 0; md->pqv && c < md->rep->nconfigs; c++)
		nlow = md->pnvals[c] > nlow ? md->pnvals[c] : nlow;
	return exceedance(md, nlow) < 0 || tail(md, max_nines) < 0 ? -1 : 0;
}
