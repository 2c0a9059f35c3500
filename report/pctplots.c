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

static const char *pooled_note(const struct metric_data *md)
{
	return md->pqv ? "; thin lines: each run, thick: each configuration's runs pooled" : "";
}

static void exceedance(struct metric_data *md, size_t nmax)
{
	char file[64];
	bool lg = log_values(md);
	snprintf(file, sizeof(file), "m%03zu-cdf.svg", md->m);
	set_terminal(md, false, file);
	fprintf(md->gp, "set xlabel '%s'\nset ylabel 'Datapoints above x (%%)'\nset logscale y\n"
			"set format y '%%g'\nset yrange [%.9g:100]\nset xrange [%.9g:%.9g]\n%s",
		md->label, 50.0 / (double)nmax, md->lo,
		md->max > md->lo ? md->max : md->lo + 1, lg ? "set logscale x\nset format x '%g'\n" : "");
	plot_runs(md, "index 0 using 1:2 with steps");
	fputc('\n', md->gp);
	add_output(md, file, isc_xasprintf("Share of datapoints above x (1 - CDF) of %s, from every "
					  "datapoint, log scale down to one datapoint%s: the tail "
					  "reads as the curve's right end%s", md->name,
					  lg ? ", log x axis" : "", pooled_note(md)));
}

static void tail(struct metric_data *md, double max_nines)
{
	char file[64];
	bool lg = log_values(md);
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
				"lc rgb '%s', '' index 2 using 1:2:(sprintf('max %%s', strcol(3))) with "
				"labels right offset -1,%d tc rgb '%s'",
			md->m, pooled ? 'c' : 'r', r, colour, (int)r % 2 ? -1 : 1, colour);
	}
	fputc('\n', md->gp);
	add_output(md, file, isc_xasprintf("Percentiles of %s, tail view: each step to the right is one "
					  "more nine (90%%, 99%%, 99.9%%, ...) up to %g nines, then the "
					  "maximum (100%%), marked with its value%s%s%s", md->name,
					  max_nines, md->pqv ? " (each configuration's)" : "",
					  lg ? "; log y axis" : "", pooled_note(md)));
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
	exceedance(md, nlow);
	tail(md, max_nines);
	return 0;
}
