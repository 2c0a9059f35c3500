/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Histograms, binned here from every datapoint, over the body range of body_range()
 * (plotnum.c), linear or logarithmic. What lies beyond is one overflow bar per run with its
 * count. With several idle states (ReqCState) a second plot overlays each state's bins.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "table/select.h"
#include "text/util.h"
#include "jsplot.h"
#include "plots.h"

#define HIST_MAX_BINS 100

static size_t bin_of(const struct hrange *h, double v)
{
	double x = h->logx ? log(v / h->lo) / log(h->hi / h->lo) : (v - h->lo) / (h->hi - h->lo);
	double b = floor(x * (double)h->bins);
	return b < 0 || isnan(b) ? 0 : b >= (double)h->bins ? h->bins - 1 : (size_t)b;
}

static double edge(const struct hrange *h, size_t b)
{
	double t = (double)b / (double)h->bins;
	return b == h->bins ? h->hi : h->logx ? h->lo * pow(h->hi / h->lo, t)
						 : h->lo + t * (h->hi - h->lo);
}

/* A position beyond the range: t = 0 at hi, 1 one range further (in log units for logx). */
static double beyond(const struct hrange *h, double t)
{
	return h->logx ? h->hi * pow(h->hi / h->lo, t) : h->hi + t * (h->hi - h->lo);
}

/* The counts of one run: slot 0 the whole run, slot 1 + s state s. */
struct hcounts {
	size_t nslots;
	size_t *bins;             /* [slot * nbins + b] */
	size_t *over, *total;     /* [slot] */
};

/* Counts every value of run r into its bin, or the overflow, for the run and its state. */
static void count_bins(const struct metric_data *md, const struct hrange *h, size_t r,
		       const unsigned char *of_row, struct hcounts *c)
{
	const double *v = column(md->rep, r, md->name);
	size_t n = md->rep->runs[r]->dp->nrows, nstates = c->nslots - 1;
	for (size_t k = 0; k < n; k++) {
		double x = v[k];
		if (isnan(x))
			continue;
		x = axis_map_apply(&md->map, x);
		size_t s = of_row && of_row[k] < nstates ? 1 + (size_t)of_row[k] : 0;
		bool over = x > h->hi;
		size_t b = over ? 0 : bin_of(h, x);
		c->total[0]++;
		c->over[0] += over;
		c->bins[b] += !over;
		if (s) {
			c->total[s]++;
			c->over[s] += over;
			c->bins[s * h->bins + b] += !over;
		}
	}
}

/*
 * The data file of one histogram: a comment with the range and counts, then block 0: one
 * line per bin (low edge, high edge, count, percent of the run's datapoints); block 1: the
 * steps to draw; block 2: the overflow bar (from, to, count, percent, label position, count
 * as text) when slot >= 0.
 */
static int write_hist(const struct metric_data *md, const struct hrange *h, const char *name,
		      const size_t *counts, size_t over, size_t total, size_t denom, int slot,
		      int nslots)
{
	FILE *f = work_open(md->rep, name, "w");
	char lo[ISC_NUM_STR_LEN], hi[ISC_NUM_STR_LEN];
	if (!f)
		return -1;
	/* the range as plotted (mapped), exactly */
	fprintf(f, "# scale %s bins %zu lo %s hi %s\n# datapoints %zu shown %zu overflow %zu\n",
		h->logx ? "log" : "linear", h->bins, isc_num_str(lo, h->lo), isc_num_str(hi, h->hi), total,
		total - over, over);
	for (size_t b = 0; b < h->bins; b++)
		fprintf(f, "%.9g %.9g %zu %.6g\n", edge(h, b), edge(h, b + 1), counts[b],
			100.0 * (double)counts[b] / (double)denom);
	fputs("\n\n", f);
	for (size_t b = 0; b <= h->bins; b++)
		fprintf(f, "%.9g %.6g\n", edge(h, b),
			100.0 * (double)counts[b < h->bins ? b : b - 1] / (double)denom);
	if (slot >= 0) {
		char num[32];
		double w = 0.09 / nslots, x0 = beyond(h, 0.04 + w * slot), x1 = beyond(h, 0.04 + w * (slot + 1));
		group_digits(num, sizeof(num), over);
		fprintf(f, "\n\n%.9g %.9g %zu %.6g %.9g %s\n", x0, x1, over,
			100.0 * (double)over / (double)denom, (x0 + x1) / 2, num);
	}
	return work_close(f, name);
}

/* "1, 2, 5" steps for about 6 tics over the range. */
static double nice_step(double span)
{
	double raw = span / 6, p = pow(10, floor(log10(raw)));
	return raw <= p ? p : raw <= 2 * p ? 2 * p : raw <= 5 * p ? 5 * p : 10 * p;
}

static void hist_axes(const struct metric_data *md, const struct hrange *h, bool overflow)
{
	FILE *gp = md->gp;
	char hi[ISC_NUM_STR_LEN];
	fprintf(gp, "set xlabel '%s'\nset ylabel 'Datapoints (%%)'\nset yrange [0:*]\n"
		    "set style fill solid 0.5\n", md->label);
	if (h->logx)
		fputs("set logscale x\nset xtics format '%g'\n", gp);
	else
		fprintf(gp, "set xtics %.9g, %.9g, %.9g\n", ceil(h->lo / nice_step(h->hi - h->lo)) *
			nice_step(h->hi - h->lo), nice_step(h->hi - h->lo), h->hi);
	fprintf(gp, "set xrange [%.9g:%.9g]\n", h->lo, overflow ? beyond(h, 0.15) : h->hi);
	if (overflow) {
		short_value_str(md, h->hi, h->hi - h->lo, hi);
		fprintf(gp, "set xtics add ('>%s' %.9g)\nset arrow from %.9g, graph 0 to %.9g, graph 1 "
			    "nohead dt 2 lc rgb '#888888'\n", hi, beyond(h, 0.085), h->hi, h->hi);
	}
}

static void bins_of(struct metric_data *md, struct hrange *h)
{
	size_t nmax = 0;
	/* Rice's rule, 2 n^(1/3) bins for the largest run, 10 to HIST_MAX_BINS */
	for (size_t r = 0; r < md->rep->nruns; r++)
		nmax = md->nvals[r] > nmax ? md->nvals[r] : nmax;
	h->bins = (size_t)ceil(2 * cbrt((double)nmax));
	h->bins = h->bins < 10 ? 10 : h->bins > HIST_MAX_BINS ? HIST_MAX_BINS : h->bins;
}

static const char *range_why(const struct hrange *h, char *buf, size_t len)
{
	if (h->q >= 1)
		return "up to the maximum";
	snprintf(buf, len, "up to the largest %gth percentile of the runs, rounded up%s", 100 * h->q,
		 h->logx ? "; logarithmic x axis: the values span decades"
			 : ", so that the body gets most bins");
	return buf;
}

/* "; 1,234 datapoints above 300 are the overflow bar (a: 1,200; b: 34)" */
static void overflow_caption(const struct metric_data *md, const struct hrange *h,
			     const size_t *overs, char *out, size_t len)
{
	size_t sum = 0, n;
	char words[64], hi[ISC_NUM_STR_LEN], num[32];
	for (size_t r = 0; r < md->rep->nruns; r++)
		sum += overs[r];
	*out = '\0';
	if (!sum)
		return;
	short_value_str(md, h->hi, h->hi - h->lo, hi);
	count_noun(words, sizeof(words), sum, "datapoint");
	n = (size_t)snprintf(out, len, "; %s above %s %s in the overflow bar%s", words, hi,
			     sum == 1 ? "is" : "are", md->rep->nruns > 1 ? " (" : "");
	for (size_t r = 0; md->rep->nruns > 1 && r < md->rep->nruns && n < len; r++) {
		group_digits(num, sizeof(num), overs[r]);
		n += (size_t)snprintf(out + n, len - n, "%s%s: %s", r ? "; " : "", md->rep->runs[r]->name,
				      num);
	}
	if (md->rep->nruns > 1 && n < len)
		snprintf(out + n, len - n, ")");
}

static double pct_of(size_t n, size_t denom)
{
	return denom ? 100.0 * (double)n / (double)denom : 0;
}

/* The bins of one run (or state of a run) as steps, as the data file's block 1. */
static void steps_js(struct jsplot *jp, const struct hrange *h, const size_t *counts, size_t denom)
{
	for (size_t b = 0; b <= h->bins; b++)
		jsplot_xy(jp, edge(h, b), pct_of(counts[b < h->bins ? b : b - 1], denom));
}

static struct jsplot *hist_js_open(struct metric_data *md, const struct hrange *h, const char *file,
				   bool overflow, double ymax)
{
	double view[4] = { h->lo, overflow ? beyond(h, 0.15) : h->hi, 0, ymax > 0 ? ymax * 1.08 : 1 };
	struct jsplot *jp = jsplot_open(md->rep, file, md->label, "Datapoints (%)", h->logx, false, view);
	if (jp && overflow)
		jsplot_vline(jp, h->hi);
	return jp;
}

/* The interactive histogram: each run's steps and overflow bar. */
static int overall_js(struct metric_data *md, const struct hrange *h, const struct hcounts *c,
		      const char *file, bool overflow)
{
	struct report *rep = md->rep;
	double ymax = 0;
	char hi[ISC_NUM_STR_LEN], num[32], name[320];
	for (size_t r = 0; r < rep->nruns; r++) {
		for (size_t b = 0; b < h->bins; b++)
			ymax = fmax(ymax, pct_of(c[r].bins[b], c[r].total[0]));
		ymax = fmax(ymax, pct_of(c[r].over[0], c[r].total[0]));
	}
	struct jsplot *jp = hist_js_open(md, h, file, overflow, ymax);
	if (!jp)
		return -1;
	short_value_str(md, h->hi, h->hi - h->lo, hi);
	for (size_t r = 0; r < rep->nruns; r++) {
		if (!md->nvals[r])
			continue;
		const char *colour = run_colour(colour_of(rep, r));
		jsplot_series(jp, 's', (long)r, colour, 2, 0, false, NULL);
		steps_js(jp, h, c[r].bins, c[r].total[0]);
		if (!overflow)
			continue;
		double w = 0.09 / (double)rep->nruns;
		group_digits(num, sizeof(num), c[r].over[0]);
		snprintf(name, sizeof(name), "%s: %s datapoints above %s", rep->runs[r]->name, num, hi);
		jsplot_series(jp, 'b', (long)r, colour, 1, 0, false, name);
		jsplot_num(jp, beyond(h, 0.04 + w * (double)r));
		jsplot_num(jp, beyond(h, 0.04 + w * (double)(r + 1)));
		jsplot_num(jp, pct_of(c[r].over[0], c[r].total[0]));
	}
	return jsplot_close(jp);
}

/* The interactive per-state histogram. */
static int per_state_js(struct metric_data *md, const struct hrange *h, const struct hcounts *c,
			const char *file)
{
	struct report *rep = md->rep;
	const struct plot_states *ps = plot_states(rep);
	double ymax = 0;
	char name[320];
	for (size_t r = 0; r < rep->nruns; r++)
		for (size_t k = h->bins; k < c[r].nslots * h->bins; k++)
			ymax = fmax(ymax, pct_of(c[r].bins[k], c[r].total[0]));
	struct jsplot *jp = hist_js_open(md, h, file, false, ymax);
	if (!jp)
		return -1;
	for (size_t r = 0; r < rep->nruns; r++)
		for (size_t s = 0; s < ps->nstates; s++) {
			if (!c[r].total[1 + s])
				continue;
			snprintf(name, sizeof(name), "%s %s", rep->runs[r]->name,
				 ps->names[s][0] ? ps->names[s] : "(empty)");
			jsplot_series(jp, 's', (long)r, run_colour(s + 2), 2, 0, r % 2 == 1, name);
			steps_js(jp, h, &c[r].bins[(1 + s) * h->bins], c[r].total[0]);
		}
	return jsplot_close(jp);
}

/* The histogram of every run. */
static int overall(struct metric_data *md, const struct hrange *h, const struct hcounts *c)
{
	struct report *rep = md->rep;
	size_t any_over = 0, nplotted = 0, *overs = isc_xcalloc(rep->nruns, sizeof(*overs));
	char name[64], file[64], lo[ISC_NUM_STR_LEN], hi[ISC_NUM_STR_LEN], why[160], over[1024];
	for (size_t r = 0; r < rep->nruns; r++)
		any_over += overs[r] = c[r].over[0];
	snprintf(file, sizeof(file), "m%03zu-hist.svg", md->m);
	set_terminal(md, false, file);
	hist_axes(md, h, any_over > 0);
	fputs("plot", md->gp);
	for (size_t r = 0; r < rep->nruns; r++) {
		if (!md->nvals[r])
			continue;
		snprintf(name, sizeof(name), "m%03zu-hist-r%zu.dat", md->m, r);
		if (write_hist(md, h, name, c[r].bins, overs[r], c[r].total[0], c[r].total[0],
			       any_over ? (int)r : -1, (int)rep->nruns) < 0) {
			free(overs);
			return -1;
		}
		fprintf(md->gp, "%s '%s' index 1 using 1:2 with steps lw 2 lc rgb '%s'",
			nplotted++ ? "," : "", name, run_colour(colour_of(rep, r)));
		if (any_over)
			fprintf(md->gp, ", '%s' index 2 using (($1+$2)/2):4:($2-$1) with boxes lc rgb '%s'",
				name, run_colour(colour_of(rep, r)));
		/* one run's count fits over its bar; several runs' would overlap: the caption
		 * has them */
		if (any_over && rep->nruns == 1)
			fprintf(md->gp, ", '%s' index 2 using 5:4:6 with labels offset 0,0.8 font ',10' "
					"tc rgb '%s'", name, run_colour(colour_of(rep, r)));
	}
	fputc('\n', md->gp);
	if (overall_js(md, h, c, file, any_over > 0) < 0) {
		free(overs);
		return -1;
	}
	short_value_str(md, h->lo, h->hi - h->lo, lo);
	short_value_str(md, h->hi, h->hi - h->lo, hi);
	overflow_caption(md, h, overs, over, sizeof(over));
	free(overs);
	add_output(md, file, isc_xasprintf("Histogram of %s, from every datapoint, in percent of each "
					  "run's datapoints: %zu %s bins from %s to %s (%s)%s",
					  md->name, h->bins, h->logx ? "logarithmic" : "equal", lo, hi,
					  range_why(h, why, sizeof(why)), over));
	return 0;
}

/* Every state's bins overlaid, colour by state, dash by run, in percent of the run. */
static int per_state(struct metric_data *md, const struct hrange *h, const struct hcounts *c)
{
	struct report *rep = md->rep;
	const struct plot_states *ps = plot_states(rep);
	size_t nplotted = 0;
	char name[64], file[64], title[200], lo[ISC_NUM_STR_LEN], hi[ISC_NUM_STR_LEN];
	if (!ps->nstates)
		return 0;
	snprintf(file, sizeof(file), "m%03zu-hist-states.svg", md->m);
	set_terminal(md, false, file);
	hist_axes(md, h, false);
	fputs("set key top right noenhanced\nplot", md->gp);
	for (size_t r = 0; r < rep->nruns; r++)
		for (size_t s = 0; s < ps->nstates; s++) {
			const struct hcounts *cr = &c[r];
			char run_s[80], state_s[80];
			if (!cr->total[1 + s])
				continue;
			snprintf(name, sizeof(name), "m%03zu-hist-r%zu-s%zu.dat", md->m, r, s);
			if (write_hist(md, h, name, &cr->bins[(1 + s) * h->bins], cr->over[1 + s],
				       cr->total[1 + s], cr->total[0], -1, 1) < 0)
				return -1;
			gp_safe(run_s, sizeof(run_s), rep->runs[r]->name);
			gp_safe(state_s, sizeof(state_s), ps->names[s][0] ? ps->names[s] : "(empty)");
			snprintf(title, sizeof(title), "%s%s%s", rep->nruns > 1 ? run_s : "",
				 rep->nruns > 1 ? " " : "", state_s);
			fprintf(md->gp, "%s '%s' index 1 using 1:2 with steps lw 2 dt %zu lc rgb '%s' "
					"title '%s'", nplotted++ ? "," : "", name, r % 5 + 1,
				run_colour(s + 2), title);  /* not the first runs' colours */
		}
	fputc('\n', md->gp);
	if (per_state_js(md, h, c, file) < 0)
		return -1;
	short_value_str(md, h->lo, h->hi - h->lo, lo);
	short_value_str(md, h->hi, h->hi - h->lo, hi);
	add_output(md, file, isc_xasprintf("Histogram of %s per requested idle state (ReqCState), in "
					  "percent of the run's datapoints: the bins of the histogram "
					  "above (%s to %s), one colour per state%s", md->name, lo, hi,
					  rep->nruns > 1 ? ", one dash pattern per run" : ""));
	return 0;
}

int histograms(struct metric_data *md)
{
	struct report *rep = md->rep;
	const struct plot_states *ps = plot_states(rep);
	struct hrange h = md->body;
	bins_of(md, &h);
	struct hcounts *c = isc_xcalloc(rep->nruns, sizeof(*c));
	for (size_t r = 0; r < rep->nruns; r++) {
		c[r].nslots = ps->nstates + 1;
		c[r].bins = isc_xcalloc(c[r].nslots * h.bins, sizeof(*c[r].bins));
		c[r].over = isc_xcalloc(c[r].nslots, sizeof(*c[r].over));
		c[r].total = isc_xcalloc(c[r].nslots, sizeof(*c[r].total));
		if (md->nvals[r])
			count_bins(md, &h, r, ps->of_row ? ps->of_row[r] : NULL, &c[r]);
	}
	int rc = overall(md, &h, c) < 0 || per_state(md, &h, c) < 0 ? -1 : 0;
	for (size_t r = 0; r < rep->nruns; r++) {
		free(c[r].bins);
		free(c[r].over);
		free(c[r].total);
	}
	free(c);
	return rc;
}
