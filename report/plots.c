/*
 * The plots of one metric: scatter against LDist and SilentTime (reduced, see
 * downsample.c), a histogram binned here from every datapoint, the CDF and a percentile
 * plot on a "nines" axis (x = -log10(1 - q)) so that 99%, 99.9% and 99.99% get equal room.
 * Data goes to gnuplot through files in the work directory; one gnuplot script per metric.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "idlescope/util.h"
#include "report.h"

#define HIST_MAX_BINS 100
#define SCATTER_BUDGET 15000      /* middle points per run and scatter plot */
#define OUTLIER_Q_LO 0.001        /* points beyond these percentiles of either axis are kept */
#define OUTLIER_Q_HI 0.999
#define TAIL_STEP 0.025           /* nines between percentile plot points */
#define LIN_STEPS 200             /* CDF points between 0 and 1 */

static const char *const scatter_axes[] = { "LDist", "SilentTime" };

/* The quantile grid: linear for the CDF, geometric towards 1 for the tail, ascending. */
struct qgrid {
	double *q;
	size_t n;
	size_t i_min, i_lo, i_hi;   /* positions of 0 and OUTLIER_Q_* */
};

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

static size_t find_q(const struct qgrid *g, double q)
{
	size_t best = 0;
	for (size_t i = 0; i < g->n; i++)
		if (fabs(g->q[i] - q) < fabs(g->q[best] - q))
			best = i;
	return best;
}

static void qgrid_init(struct qgrid *g)
{
	size_t ntail = (size_t)(5 / TAIL_STEP) + 1, k = 0;
	g->q = is_xmalloc((LIN_STEPS + 1 + ntail + 2) * sizeof(*g->q));
	for (size_t i = 0; i <= LIN_STEPS; i++)
		g->q[k++] = (double)i / LIN_STEPS;
	for (size_t i = 1; i < ntail; i++)
		g->q[k++] = 1 - pow(10, -(double)i * TAIL_STEP);
	g->q[k++] = OUTLIER_Q_LO;
	g->q[k++] = OUTLIER_Q_HI;
	qsort(g->q, k, sizeof(*g->q), cmp_double);
	g->n = 0;
	for (size_t i = 0; i < k; i++)
		if (g->n == 0 || g->q[i] - g->q[g->n - 1] > 1e-12)
			g->q[g->n++] = g->q[i];
	g->i_min = 0;
	g->i_lo = find_q(g, OUTLIER_Q_LO);
	g->i_hi = find_q(g, OUTLIER_Q_HI);
}

struct metric_data {
	struct report *rep;
	size_t m;
	const char *name;
	char label[160];          /* "WakeLatency (us)", safe for gnuplot */
	struct qgrid grid;
	double *qv;               /* [run * grid.n + i] */
	size_t *nvals;            /* [run] non-NaN values */
	struct axis_map map;      /* the metric's values as plotted (axis.c) */
	double *pqv;              /* replicate runs: [config * grid.n + i], the runs pooled */
	size_t *pnvals;           /* [config] */
	double body_lo, body_hi;  /* x range of the histogram and CDF: min to 99.9th percentile,
				   * mapped */
	FILE *gp;                 /* the gnuplot script */
	struct metric_plots *mp;
};

static FILE *work_open(const struct report *rep, const char *name, const char *mode)
{
	char *p = path_cat(rep->workdir, name);
	FILE *f = fopen(p, mode);
	if (!f)
		is_err("%s: cannot create: %m", p);
	free(p);
	return f;
}

static int work_close(FILE *f, const char *name)
{
	int bad = ferror(f);
	if (fclose(f) != 0 || bad) {
		is_err("%s: write error", name);
		return -1;
	}
	return 0;
}

/* The tail plot takes a whole row when the plots before it fill their rows of two. */
static bool tail_is_wide(const struct metric_data *md, const char *file)
{
	return strstr(file, "-tail.") && md->mp->nfiles % 2 == 0;
}

static void add_output(struct metric_data *md, const char *file, char *caption)
{
	struct metric_plots *mp = md->mp;
	mp->wide[mp->nfiles] = tail_is_wide(md, file);
	mp->files[mp->nfiles] = is_xstrdup(file);
	mp->captions[mp->nfiles] = caption;
	mp->nfiles++;
}

static void set_terminal(struct metric_data *md, bool png, const char *file)
{
	bool wide = tail_is_wide(md, file);
	fputs("reset\n", md->gp);
	if (png)
		/* libgd, not cairo: 3-4 times faster on thousands of points, and points need no
		 * anti-aliasing. */
		fprintf(md->gp, "set terminal png truecolor size 660,430 font 'DejaVu Sans,9' noenhanced\n");
	else
		fprintf(md->gp, "set terminal svg size %d,430 font 'DejaVu Sans,13' noenhanced "
				"background '#ffffff'\n", wide ? 1332 : 660);
	fprintf(md->gp, "set output '../plots/%s'\nset grid lc rgb '#dddddd'\n"
			"set border lc rgb '#555555'\nset key off\n", file);
}

static const double *column(const struct report *rep, size_t r, const char *name)
{
	const struct is_column *c = is_table_col(rep->runs[r]->dp, name);
	return c && c->type == IS_COL_NUM ? c->num : NULL;
}

/* How a scatter x axis is plotted: one map for every run, computed once per report. */
static const struct axis_map *x_map(struct report *rep, size_t axis)
{
	if (!rep->xmap) {
		rep->xmap = is_xcalloc(2, sizeof(*rep->xmap));
		for (size_t a = 0; a < 2; a++) {
			double lo = INFINITY, hi = -INFINITY;
			for (size_t r = 0; r < rep->nruns; r++)
				axis_range(column(rep, r, scatter_axes[a]), rep->runs[r]->dp->nrows, &lo, &hi);
			axis_map_init(&rep->xmap[a], lo, hi);
		}
	}
	return &rep->xmap[axis];
}

/* Percentile limits of a scatter axis per run (mapped), computed once per report. */
static void axis_limits(struct report *rep, size_t r, size_t axis, double *lo, double *hi)
{
	if (!rep->axis_lim) {
		rep->axis_lim = is_xmalloc(rep->nruns * 4 * sizeof(*rep->axis_lim));
		for (size_t i = 0; i < rep->nruns * 4; i++)
			rep->axis_lim[i] = NAN;
	}
	double *c = &rep->axis_lim[(r * 2 + axis) * 2];
	if (isnan(c[0])) {
		const double q[2] = { OUTLIER_Q_LO, OUTLIER_Q_HI };
		quantiles(column(rep, r, scatter_axes[axis]), rep->runs[r]->dp->nrows, x_map(rep, axis),
			  q, 2, c);
	}
	*lo = c[0];
	*hi = c[1];
}

/* The points of run r chosen for the scatter plot against axis (x, y pairs). */
static float *scatter_points(struct metric_data *md, size_t axis, size_t r, size_t *nout,
			     size_t *nvalid)
{
	struct report *rep = md->rep;
	const double *qv = &md->qv[r * md->grid.n];
	struct ds_box box = { .ylo = qv[md->grid.i_lo], .yhi = qv[md->grid.i_hi] };
	axis_limits(rep, r, axis, &box.xlo, &box.xhi);
	return ds_select(column(rep, r, scatter_axes[axis]), column(rep, r, md->name),
			 rep->runs[r]->dp->nrows, x_map(rep, axis), &md->map, &box, SCATTER_BUDGET,
			 nout, nvalid);
}

static unsigned long colour_value(const struct report *rep, size_t r)
{
	return strtoul(run_colour(colour_of(rep, r)) + 1, NULL, 16);
}

/*
 * One file for every run: x, y, point size, point type, colour per point, the runs
 * interleaved evenly (each run's next point is the one with the smallest share done), so
 * that no run is painted over another. Small runs get bigger markers.
 */
static int write_scatter_file(struct metric_data *md, const char *name, float **xy,
			      const size_t *nout)
{
	struct report *rep = md->rep;
	size_t *next = is_xcalloc(rep->nruns, sizeof(*next)), total = 0;
	FILE *f = work_open(rep, name, "wb");
	int rc = -1;
	if (!f)
		goto cleanup;
	for (size_t r = 0; r < rep->nruns; r++)
		total += nout[r];
	for (size_t k = 0; k < total; k++) {
		size_t best = rep->nruns;
		for (size_t r = 0; r < rep->nruns; r++)
			if (next[r] < nout[r] &&
			    (best == rep->nruns ||
			     (double)(next[r] + 1) / (double)nout[r] <
				     (double)(next[best] + 1) / (double)nout[best]))
				best = r;
		size_t i = next[best]++;
		float rec[5] = { xy[best][2 * i], xy[best][2 * i + 1],
				 nout[best] < 1000 ? 1.0f : nout[best] < 5000 ? 0.7f : 0.45f,
				 (float)run_pointtype(best), (float)colour_value(rep, best) };
		if (fwrite(rec, sizeof(rec), 1, f) != 1)
			break;
	}
	rc = work_close(f, name);
cleanup:
	free(next);
	return rc;
}

static int scatter(struct metric_data *md, size_t axis)
{
	struct report *rep = md->rep;
	const char *xname = scatter_axes[axis];
	char file[64], data[64], xname_safe[80], xlabel[160], caption[2048], a[32], b[32];
	size_t *nout = is_xcalloc(rep->nruns, sizeof(*nout)), nvalid, shown = 0, len;
	float **xy = is_xcalloc(rep->nruns, sizeof(*xy));
	int rc = -1;

	if (!strcmp(xname, md->name))
		goto ok;
	for (size_t r = 0; r < rep->nruns; r++)
		if (!column(rep, r, xname))
			goto ok;
	len = (size_t)snprintf(caption, sizeof(caption), "%s against %s. Points shown: ", md->name,
			       xname);
	for (size_t r = 0; r < rep->nruns; r++) {
		xy[r] = scatter_points(md, axis, r, &nout[r], &nvalid);
		shown += nout[r];
		group_digits(a, sizeof(a), nout[r]);
		group_digits(b, sizeof(b), nvalid);
		if (len < sizeof(caption))
			len += (size_t)snprintf(caption + len, sizeof(caption) - len, "%s%s%s%s%s%s of %s",
						r ? "; " : "", rep->nruns > 1 ? run_marker(r) : "",
						rep->nruns > 1 ? " " : "",
						rep->nruns > 1 ? rep->runs[r]->name : "",
						rep->nruns > 1 ? ": " : "", a, b);
	}
	if (shown == 0)
		goto ok;
	snprintf(data, sizeof(data), "m%03zu-%s.bin", md->m, xname);
	if (write_scatter_file(md, data, xy, nout) < 0)
		goto cleanup;
	snprintf(file, sizeof(file), "m%03zu-vs-%s.png", md->m, xname);
	gp_safe(xname_safe, sizeof(xname_safe), xname);
	strcat(xname_safe, " (us)");
	axis_map_label(x_map(rep, axis), xname_safe, xlabel, sizeof(xlabel));
	set_terminal(md, true, file);
	fprintf(md->gp, "set xlabel '%s'\nset ylabel '%s'\n"
			"plot './%s' binary format='%%float32%%float32%%float32%%float32%%float32' "
			"using 1:2:3:4:5 with points ps variable pt variable lc rgb variable\n",
		xlabel, md->label, data);
	add_output(md, file, is_xstrdup(caption));
ok:
	rc = 0;
cleanup:
	for (size_t r = 0; r < rep->nruns; r++)
		free(xy[r]);
	free(xy);
	free(nout);
	return rc;
}

/*
 * The body of the distribution: from the smallest value to the largest 99.9th percentile
 * of the runs (to the max for runs under 1000 values), unless the rest reaches less than a
 * quarter of that range further. Beyond it a few outliers would squeeze everything else
 * into a couple of bins; the tail plot shows them instead.
 */
static bool body_range(struct metric_data *md)
{
	double lo = INFINITY, hi = -INFINITY, max = -INFINITY;
	for (size_t r = 0; r < md->rep->nruns; r++) {
		const double *qv = &md->qv[r * md->grid.n];
		if (!md->nvals[r])
			continue;
		lo = fmin(lo, qv[md->grid.i_min]);
		hi = fmax(hi, qv[md->nvals[r] >= 1000 ? md->grid.i_hi : md->grid.n - 1]);
		max = fmax(max, qv[md->grid.n - 1]);
	}
	if (lo > hi)
		return false;
	if (max - hi <= 0.25 * (hi - lo))  /* a short tail (residencies end at 100%): keep it */
		hi = max;
	if (lo == hi)
		lo -= 0.5, hi += 0.5;
	md->body_lo = lo;
	md->body_hi = hi;
	return true;
}

static int histogram(struct metric_data *md)
{
	struct report *rep = md->rep;
	double lo = md->body_lo, hi = md->body_hi;
	uint64_t over = 0;
	char file[64], caption[512], edge[64];
	const char *sep = "";
	size_t nmax = 0, bins;

	/* Rice's rule, 2 n^(1/3) bins for the largest run, 10 to HIST_MAX_BINS */
	for (size_t r = 0; r < rep->nruns; r++)
		nmax = md->nvals[r] > nmax ? md->nvals[r] : nmax;
	bins = (size_t)ceil(2 * cbrt((double)nmax));
	bins = bins < 10 ? 10 : bins > HIST_MAX_BINS ? HIST_MAX_BINS : bins;

	snprintf(file, sizeof(file), "m%03zu-hist.svg", md->m);
	for (size_t r = 0; r < rep->nruns; r++) {
		struct is_hist h;
		char name[64];
		if (!md->nvals[r])
			continue;
		is_hist_init(&h, axis_map_invert(&md->map, lo), axis_map_invert(&md->map, hi), bins);
		is_hist_add(&h, column(rep, r, md->name), rep->runs[r]->dp->nrows);
		over += h.over;
		snprintf(name, sizeof(name), "m%03zu-hist-r%zu.dat", md->m, r);
		FILE *f = work_open(rep, name, "w");
		if (!f) {
			is_hist_free(&h);
			return -1;
		}
		double w = (hi - lo) / (double)bins;
		for (size_t b = 0; b < bins; b++)
			fprintf(f, "%.9g %.6g\n", lo + ((double)b + 0.5) * w,
				100.0 * (double)h.counts[b] / (double)h.total);
		is_hist_free(&h);
		if (work_close(f, name) < 0)
			return -1;
	}
	set_terminal(md, false, file);
	fprintf(md->gp, "set xlabel '%s'\nset ylabel 'Datapoints (%%)'\nset yrange [0:*]\n"
			"set xrange [%.9g:%.9g]\nplot", md->label, lo, hi);
	for (size_t r = 0; r < rep->nruns; r++) {
		if (!md->nvals[r])
			continue;
		fprintf(md->gp, "%s './m%03zu-hist-r%zu.dat' using 1:2 with histeps lw 2 lc rgb '%s'",
			sep, md->m, r, run_colour(colour_of(rep, r)));
		sep = ",";
	}
	fputc('\n', md->gp);
	size_t len = (size_t)snprintf(caption, sizeof(caption),
				      "Histogram of %s: %zu bins, from every datapoint", md->name, bins);
	if (over) {
		snprintf(edge, sizeof(edge), "%.4g", axis_map_invert(&md->map, hi));
		snprintf(caption + len, sizeof(caption) - len,
			 "; %llu datapoints above %s (the end of the x axis) are in the tail plot",
			 (unsigned long long)over, edge);
	}
	add_output(md, file, is_xstrdup(caption));
	return 0;
}

/* CDF (value, percent) and tail (nines, value) files of run r ("r") or configuration r ("c",
 * its runs pooled). */
static int write_percentiles(struct metric_data *md, const double *qv, char kind, size_t r,
			     double max_nines)
{
	char name[64];
	snprintf(name, sizeof(name), "m%03zu-pct-%c%zu.dat", md->m, kind, r);
	FILE *f = work_open(md->rep, name, "w");
	if (!f)
		return -1;
	for (size_t i = 0; i < md->grid.n; i++)
		fprintf(f, "%.9g %.9g\n", qv[i], 100 * md->grid.q[i]);
	fputs("\n\n", f);
	for (size_t i = 0; i < md->grid.n; i++) {
		double nines = md->grid.q[i] < 1 ? -log10(1 - md->grid.q[i]) : INFINITY;
		if (nines <= max_nines + 1e-9)
			fprintf(f, "%.6g %.9g\n", nines, qv[i]);
	}
	return work_close(f, name);
}

/* Each configuration's runs pooled, on the same quantile grid (replicate runs only). */
static void pooled_quantiles(struct metric_data *md)
{
	struct report *rep = md->rep;
	md->pqv = is_xmalloc(rep->nconfigs * md->grid.n * sizeof(*md->pqv));
	md->pnvals = is_xcalloc(rep->nconfigs, sizeof(*md->pnvals));
	for (size_t c = 0; c < rep->nconfigs; c++) {
		const struct is_diff_config *k = &rep->configs[c];
		size_t n = 0;
		for (size_t i = 0; i < k->nruns; i++)
			n += rep->runs[k->runs[i]]->dp->nrows;
		double *all = is_xmalloc((n + 1) * sizeof(*all));
		n = 0;
		for (size_t i = 0; i < k->nruns; i++) {
			const struct is_run *run = rep->runs[k->runs[i]];
			memcpy(all + n, column(rep, k->runs[i], md->name), run->dp->nrows * sizeof(*all));
			n += run->dp->nrows;
		}
		md->pnvals[c] = quantiles(all, n, &md->map, md->grid.q, md->grid.n, &md->pqv[c * md->grid.n]);
		free(all);
	}
}

/* The lines of one plot (index 0: CDF, 1: tail): every run, thin when configurations pool
 * replicate runs, whose pooled line is drawn thick over them. */
static void percentile_lines(struct metric_data *md, int index)
{
	struct report *rep = md->rep;
	const char *sep = "";
	for (size_t r = 0; r < rep->nruns; r++) {
		if (!md->nvals[r])
			continue;
		fprintf(md->gp, "%s './m%03zu-pct-r%zu.dat' index %d using 1:2 with lines lw %d lc rgb '%s'",
			sep, md->m, r, index, md->pqv ? 1 : 2, run_colour(colour_of(rep, r)));
		sep = ",";
	}
	for (size_t c = 0; md->pqv && c < rep->nconfigs; c++)
		if (md->pnvals[c])
			fprintf(md->gp, ", './m%03zu-pct-c%zu.dat' index %d using 1:2 with lines lw 3.5 "
					"lc rgb '%s'", md->m, c, index, run_colour(c));
	fputc('\n', md->gp);
}

static int percentile_plots(struct metric_data *md)
{
	struct report *rep = md->rep;
	size_t nmax = 0;
	char file[64];
	const char *pooled = md->pqv ? "; thin lines: each run, thick: each configuration's runs "
				       "pooled" : "";
	for (size_t r = 0; r < rep->nruns; r++)
		nmax = md->nvals[r] > nmax ? md->nvals[r] : nmax;
	if (!nmax)
		return 0;
	/* Show as many nines as the data can have: 5 (99.999%) from 100000 datapoints. */
	double max_nines = fmin(5, fmax(2, floor(log10((double)nmax))));
	for (size_t r = 0; r < rep->nruns; r++)
		if (md->nvals[r] && write_percentiles(md, &md->qv[r * md->grid.n], 'r', r, max_nines) < 0)
			return -1;
	for (size_t c = 0; md->pqv && c < rep->nconfigs; c++)
		if (md->pnvals[c] &&
		    write_percentiles(md, &md->pqv[c * md->grid.n], 'c', c, max_nines) < 0)
			return -1;

	snprintf(file, sizeof(file), "m%03zu-cdf.svg", md->m);
	set_terminal(md, false, file);
	fprintf(md->gp, "set xlabel '%s'\nset ylabel 'Datapoints <= x (%%)'\nset yrange [0:100]\n"
			"set ytics 10\nset xrange [%.9g:%.9g]\nplot", md->label, md->body_lo, md->body_hi);
	percentile_lines(md, 0);
	add_output(md, file, is_xasprintf("Cumulative distribution of %s, from every datapoint, over "
					  "the range of the histogram%s", md->name, pooled));

	snprintf(file, sizeof(file), "m%03zu-tail.svg", md->m);
	set_terminal(md, false, file);
	fprintf(md->gp, "set xlabel 'Percentile'\nset ylabel '%s'\nset xrange [0:%g]\n"
			"set xtics ('0%%%%' 0, '50%%%%' log10(2), '90%%%%' 1, '99%%%%' 2, "
			"'99.9%%%%' 3, '99.99%%%%' 4, '99.999%%%%' 5)\nplot", md->label, max_nines);
	percentile_lines(md, 1);
	add_output(md, file, is_xasprintf("Percentiles of %s, tail view: each step to the right is "
					  "one more nine (90%%, 99%%, 99.9%%, ...)%s", md->name, pooled));
	return 0;
}

/* Replicate runs: every run's median and 99th percentile as points over its configuration, so
 * that the spread between replicates shows next to the difference between configurations. */
static int runs_plot(struct metric_data *md)
{
	struct report *rep = md->rep;
	size_t imed = find_q(&md->grid, 0.5), i99 = find_q(&md->grid, 0.99);
	char name[64], file[64], label[128];
	snprintf(name, sizeof(name), "m%03zu-runs.dat", md->m);
	FILE *f = work_open(rep, name, "w");
	if (!f)
		return -1;
	for (size_t c = 0; c < rep->nconfigs; c++) {
		const struct is_diff_config *k = &rep->configs[c];
		for (size_t i = 0; i < k->nruns; i++) {
			size_t r = k->runs[i];
			double x = (double)c + (k->nruns > 1 ? 0.3 * ((double)i / (double)(k->nruns - 1) - 0.5)
							    : 0);
			if (md->nvals[r])
				fprintf(f, "%.4f %.9g %.9g %lu\n", x, md->qv[r * md->grid.n + imed],
					md->qv[r * md->grid.n + i99], colour_value(rep, r));
		}
	}
	if (work_close(f, name) < 0)
		return -1;
	snprintf(file, sizeof(file), "m%03zu-runs.svg", md->m);
	set_terminal(md, false, file);
	fprintf(md->gp, "set ylabel '%s'\nset xrange [-0.6:%zu.6]\nset key below\nset xtics (",
		md->label, rep->nconfigs - 1);
	for (size_t c = 0; c < rep->nconfigs; c++) {
		gp_safe(label, sizeof(label), rep->configs[c].name);
		fprintf(md->gp, "%s'%s' %zu", c ? ", " : "", label, c);
	}
	fprintf(md->gp, ")\nplot './%s' using 1:2:4 with points pt 7 ps 1.4 lc rgb variable "
			"title 'median of each run', './%s' using 1:3:4 with points pt 9 ps 1.4 "
			"lc rgb variable title '99th percentile of each run'\n", name, name);
	add_output(md, file, is_xasprintf("Every run's median (circles) and 99th percentile "
					  "(triangles) of %s per configuration: the spread between "
					  "replicates next to the change between configurations",
					  md->name));
	return 0;
}

int plots_metric(struct report *rep, size_t m, struct metric_plots *mp)
{
	struct metric_data md = { .rep = rep, .m = m, .name = rep->metrics[m], .mp = mp };
	char safe[128], safe_unit[32], script[64];
	const char *unit = metric_unit(rep, md.name);
	int rc = -1;

	memset(mp, 0, sizeof(*mp));
	gp_safe(safe, sizeof(safe), md.name);
	gp_safe(safe_unit, sizeof(safe_unit), unit);
	snprintf(md.label, sizeof(md.label), unit[0] && strcmp(unit, "%") ? "%s (%s)" : "%s", safe,
		 safe_unit);
	double lo = INFINITY, hi = -INFINITY;
	for (size_t r = 0; r < rep->nruns; r++)
		axis_range(column(rep, r, md.name), rep->runs[r]->dp->nrows, &lo, &hi);
	axis_map_init(&md.map, lo, hi);
	char plain[sizeof(md.label)];
	snprintf(plain, sizeof(plain), "%s", md.label);
	axis_map_label(&md.map, plain, md.label, sizeof(md.label));
	qgrid_init(&md.grid);
	md.qv = is_xmalloc(rep->nruns * md.grid.n * sizeof(*md.qv));
	md.nvals = is_xcalloc(rep->nruns, sizeof(*md.nvals));
	for (size_t r = 0; r < rep->nruns; r++)
		md.nvals[r] = quantiles(column(rep, r, md.name), rep->runs[r]->dp->nrows, &md.map,
					md.grid.q, md.grid.n, &md.qv[r * md.grid.n]);
	if (rep->grouped)
		pooled_quantiles(&md);
	snprintf(script, sizeof(script), "m%03zu.gp", m);
	if (!(md.gp = work_open(rep, script, "w")))
		goto cleanup;
	if (scatter(&md, 0) < 0 || scatter(&md, 1) < 0)
		goto cleanup;
	if (body_range(&md) && (histogram(&md) < 0 || percentile_plots(&md) < 0))
		goto cleanup;
	if (rep->grouped && runs_plot(&md) < 0)
		goto cleanup;
	int bad = work_close(md.gp, script);
	md.gp = NULL;
	if (bad < 0 || plot_queue_add(rep->queue, script) < 0)
		goto cleanup;
	rc = 0;
cleanup:
	if (md.gp)
		fclose(md.gp);
	free(md.grid.q);
	free(md.qv);
	free(md.nvals);
	free(md.pqv);
	free(md.pnvals);
	return rc;
}

void metric_plots_free(struct metric_plots *mp)
{
	for (int i = 0; i < mp->nfiles; i++) {
		free(mp->files[i]);
		free(mp->captions[i]);
	}
	memset(mp, 0, sizeof(*mp));
}
