/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The plots of one metric: scatter against LDist and SilentTime (reduced, see
 * downsample.c; the y axis over the body, points beyond on its edge), histograms (hist.c)
 * and the percentile plots (pctplots.c). Data goes to gnuplot through files in the work
 * directory; one gnuplot script per metric.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "text/util.h"
#include "text/json_num.h"
#include "axes_opt.h"
#include "jsplot.h"
#include "plots.h"

#define SCATTER_BUDGET 15000      /* middle points per run and scatter plot */
#define JS_SCATTER_BUDGET 10000   /* of them in the interactive plot (the report's size) */
#define EDGE_POINTTYPE 2          /* scatter points beyond the y range: a cross on the edge */
#define TAIL_STEP 0.025           /* nines between percentile plot points */
#define LIN_STEPS 200             /* CDF points between 0 and 1 */

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

size_t find_q(const struct qgrid *g, double q)
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
	g->q = isc_xmalloc((LIN_STEPS + 1 + ntail + 2) * sizeof(*g->q));
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

FILE *work_open(const struct report *rep, const char *name, const char *mode)
{
	char *p = path_cat(rep->workdir, name);
	FILE *f = fopen(p, mode);
	if (!f)
		isc_err("%s: cannot create: %m", p);
	free(p);
	return f;
}

int work_close(FILE *f, const char *name)
{
	int bad = ferror(f);
	if (fclose(f) != 0 || bad) {
		isc_err("%s: write error", name);
		return -1;
	}
	return 0;
}

/* The tail plot takes a whole row when the plots before it fill their rows of two. */
static bool tail_is_wide(const struct metric_data *md, const char *file)
{
	return strstr(file, "-tail.") && md->mp->nfiles % 2 == 0;
}

void add_output(struct metric_data *md, const char *file, char *caption)
{
	struct metric_plots *mp = md->mp;
	mp->wide[mp->nfiles] = tail_is_wide(md, file);
	mp->files[mp->nfiles] = isc_xstrdup(file);
	mp->captions[mp->nfiles] = caption;
	mp->nfiles++;
}

void set_terminal(struct metric_data *md, bool png, const char *file)
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

const double *column(const struct report *rep, size_t r, const char *name)
{
	const struct isc_column *c = isc_table_col(rep->runs[r]->dp, name);
	return c && c->type == ISC_COL_NUM ? c->num : NULL;
}

/* How a scatter x axis is plotted: one map for every run, computed once per report. */
static const struct axis_map *x_map(struct report *rep, size_t axis)
{
	if (!rep->xmap) {
		rep->xmap = isc_xcalloc(rep->nxaxes + 1, sizeof(*rep->xmap));
		for (size_t a = 0; a < rep->nxaxes; a++) {
			double lo = INFINITY, hi = -INFINITY;
			for (size_t r = 0; r < rep->nruns; r++)
				axis_range(axes_x_values(rep, r, a), rep->runs[r]->dp->nrows, &lo, &hi);
			axis_map_init(&rep->xmap[a], lo, hi);
		}
	}
	return &rep->xmap[axis];
}

/* Percentile limits of a scatter axis per run (mapped), computed once per report. */
static void axis_limits(struct report *rep, size_t r, size_t axis, double *lo, double *hi)
{
	if (!rep->axis_lim) {
		rep->axis_lim = isc_xmalloc((rep->nruns * rep->nxaxes * 2 + 1) * sizeof(*rep->axis_lim));
		for (size_t i = 0; i < rep->nruns * rep->nxaxes * 2; i++)
			rep->axis_lim[i] = NAN;
	}
	double *c = &rep->axis_lim[(r * rep->nxaxes + axis) * 2];
	if (isnan(c[0])) {
		const double q[2] = { OUTLIER_Q_LO, OUTLIER_Q_HI };
		quantiles(axes_x_values(rep, r, axis), rep->runs[r]->dp->nrows, x_map(rep, axis),
			  q, 2, c);
	}
	*lo = c[0];
	*hi = c[1];
}

/* The points of run r chosen for the scatter plot against axis (x, y pairs). */
static float *scatter_points(struct metric_data *md, size_t axis, size_t r, size_t *nout,
			     size_t *nvalid, size_t **rows, struct ds_box *box)
{
	struct report *rep = md->rep;
	const double *qv = &md->qv[r * md->grid.n];
	/* every point above the body's top is kept: the caption counts them */
	*box = (struct ds_box){ .ylo = qv[md->grid.i_lo], .yhi = fmin(qv[md->grid.i_hi], md->body.hi) };
	axis_limits(rep, r, axis, &box->xlo, &box->xhi);
	return ds_select(axes_x_values(rep, r, axis), column(rep, r, md->name),
			 rep->runs[r]->dp->nrows, x_map(rep, axis), &md->map, box, SCATTER_BUDGET,
			 nout, nvalid, rows);
}

/* Markers: one per idle state when the runs have several (colours tell the runs apart),
 * else one per run. */
struct marks {
	const struct plot_states *ps;
	unsigned char **pt;       /* [run][point] when by state */
};

static void marks_init(struct report *rep, struct marks *mk)
{
	mk->ps = plot_states(rep);
	mk->pt = mk->ps->nstates ? isc_xcalloc(rep->nruns, sizeof(*mk->pt)) : NULL;
	rep->state_markers = mk->ps->nstates > 0;
}

static void marks_of_run(struct marks *mk, size_t r, const size_t *rows, size_t n)
{
	const unsigned char *of_row = mk->ps->of_row[r];
	mk->pt[r] = isc_xmalloc(n + 1);
	for (size_t k = 0; k < n; k++)
		mk->pt[r][k] = (unsigned char)run_pointtype(of_row[rows[k]]);
}

static void marks_key(FILE *gp, const struct marks *mk, bool clip)
{
	for (size_t s = 0; mk->pt && s < mk->ps->nstates; s++) {
		char name[80];
		const char *label = mk->ps->names[s];
		gp_safe(name, sizeof(name), label[0] ? label : "(empty)");
		fprintf(gp, ", NaN with points pt %d ps 1.2 lc rgb '#555555' title '%s'", run_pointtype(s),
			name);
	}
	if (clip)
		fprintf(gp, ", NaN with points pt %d ps 1.2 lc rgb '#555555' title 'above the y axis'",
			EDGE_POINTTYPE);
}

static void marks_free(const struct report *rep, struct marks *mk)
{
	for (size_t r = 0; mk->pt && r < rep->nruns; r++)
		free(mk->pt[r]);
	free(mk->pt);
}

static unsigned long colour_value(const struct report *rep, size_t r)
{
	return strtoul(run_colour(colour_of(rep, r)) + 1, NULL, 16);
}

/* The y range of the scatter plots: the body (body_range(), logarithmic when it is). Points
 * above are drawn at `edge`, just above the top, as EDGE_POINTTYPE, and counted: all of
 * them are in the plot (ds_select keeps every point above the top). */
struct yclip {
	double lo, top, edge;
	bool clip;
	size_t over;
};

static void yclip_init(const struct metric_data *md, struct yclip *c)
{
	c->lo = md->lo;
	c->clip = md->body.hi < md->max;
	c->top = c->clip ? md->body.hi : md->max;
	c->edge = md->body.logx ? c->top * pow(c->top / c->lo, 0.02)
				: c->top + 0.02 * (c->top - c->lo);
	c->over = 0;
}

/*
 * One file for every run: x, y, point size, point type, colour per point, the runs
 * interleaved evenly (each run's next point is the one with the smallest share done), so
 * that no run is painted over another. Small runs get bigger markers.
 */
static int write_scatter_file(struct metric_data *md, const char *name, float **xy,
			      const size_t *nout, const struct marks *mk, struct yclip *c)
{
	struct report *rep = md->rep;
	size_t *next = isc_xcalloc(rep->nruns, sizeof(*next)), total = 0;
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
				 mk->pt ? mk->pt[best][i] : (float)run_pointtype(best),
				 (float)colour_value(rep, best) };
		if (c->clip && rec[1] > c->top) {
			rec[1] = (float)c->edge;
			rec[2] = 1.0f;
			rec[3] = EDGE_POINTTYPE;
			c->over++;
		}
		if (fwrite(rec, sizeof(rec), 1, f) != 1)
			break;
	}
	rc = work_close(f, name);
cleanup:
	free(next);
	return rc;
}

/* Every run's chosen points, as scatter() has them. */
struct scatter_set {
	float **xy;
	size_t **rows, *nout;
	const struct marks *mk;
	const struct yclip *yc;
	const struct ds_box *boxes;  /* [run] */
	const size_t *nvalid;        /* [run] */
};

/* The points of run r in state s (every point when the markers are not states). */
static size_t points_of_state(const struct scatter_set *set, size_t r, size_t s, float *xy,
			      size_t *rows)
{
	const struct marks *mk = set->mk;
	size_t k = 0;
	for (size_t i = 0; i < set->nout[r]; i++) {
		if (mk->pt && mk->ps->of_row[r][set->rows[r][i]] != s)
			continue;
		xy[2 * k] = set->xy[r][2 * i];
		xy[2 * k + 1] = set->xy[r][2 * i + 1];
		rows[k++] = set->rows[r][i];
	}
	return k;
}

/* The interactive scatter plot: a series per run (and idle state), with the rows. */
static int scatter_js(struct metric_data *md, const char *file, const char *xlabel,
		      const struct scatter_set *set, double view[4])
{
	struct report *rep = md->rep;
	size_t nstates = set->mk->pt ? set->mk->ps->nstates : 1, most = 0;
	char name[256];
	double xlo = INFINITY, xhi = -INFINITY;
	for (size_t r = 0; r < rep->nruns; r++) {
		/* the page stays small: fewer of the middle points than the PNG has (a subset) */
		set->nout[r] = ds_thin(set->xy[r], set->rows[r], set->nout[r], &set->boxes[r],
				       set->nvalid[r], JS_SCATTER_BUDGET);
		most = set->nout[r] > most ? set->nout[r] : most;
		for (size_t i = 0; i < set->nout[r]; i++)
			xlo = fmin(xlo, set->xy[r][2 * i]), xhi = fmax(xhi, set->xy[r][2 * i]);
	}
	double pad = xhi > xlo ? 0.02 * (xhi - xlo) : 1;
	view[0] = xlo - pad;
	view[1] = xhi + pad;
	struct jsplot *jp = jsplot_open(rep, file, xlabel, md->label, false, md->body.logx, view);
	if (!jp)
		return -1;
	if (set->yc->clip)
		jsplot_hline(jp, set->yc->top);
	float *xy = isc_xmalloc((2 * most + 2) * sizeof(*xy));
	size_t *rows = isc_xmalloc((most + 1) * sizeof(*rows));
	for (size_t r = 0; r < rep->nruns; r++)
		for (size_t s = 0; s < nstates; s++) {
			size_t n = points_of_state(set, r, s, xy, rows);
			if (!n)
				continue;
			snprintf(name, sizeof(name), "%s%s%s", rep->runs[r]->name, set->mk->pt ? " " : "",
				 set->mk->pt ? set->mk->ps->names[s] : "");
			jsplot_series(jp, 'p', (long)r, run_colour(colour_of(rep, r)), 1, (int)(set->mk->pt ? s : r),
				      false, name);
			jsplot_points(jp, xy, n, rows);
		}
	free(xy);
	free(rows);
	return jsplot_close(jp);
}

static int scatter(struct metric_data *md, size_t axis)
{
	struct report *rep = md->rep;
	const char *xname = rep->xaxes[axis];
	char file[128], data[128], xname_safe[160], xlabel[200], xfile[64], caption[2048], a[32], b[32];
	char top[ISC_NUM_STR_LEN], npoints[64], why[64];
	struct yclip yc;
	struct marks mk = { .ps = NULL, .pt = NULL };
	size_t *nout = isc_xcalloc(rep->nruns, sizeof(*nout)), nvalid, shown = 0, len;
	float **xy = isc_xcalloc(rep->nruns, sizeof(*xy));
	size_t **rows = isc_xcalloc(rep->nruns, sizeof(*rows));
	size_t *nvalids = isc_xcalloc(rep->nruns, sizeof(*nvalids));
	struct ds_box *boxes = isc_xcalloc(rep->nruns, sizeof(*boxes));
	int rc = -1;

	if (!strcmp(xname, md->name))
		goto ok;
	for (size_t r = 0; r < rep->nruns; r++)
		if (!axes_x_values(rep, r, axis))
			goto ok;
	axes_x_label(rep, axis, xname_safe, sizeof(xname_safe));
	axes_x_file_name(rep, axis, xfile, sizeof(xfile));
	len = (size_t)snprintf(caption, sizeof(caption), "%s against %s. Points shown: ", md->name,
			       xname);
	marks_init(rep, &mk);
	for (size_t r = 0; r < rep->nruns; r++) {
		xy[r] = scatter_points(md, axis, r, &nout[r], &nvalid, &rows[r], &boxes[r]);
		nvalids[r] = nvalid;
		if (mk.pt)
			marks_of_run(&mk, r, rows[r], nout[r]);
		shown += nout[r];
		group_digits(a, sizeof(a), nout[r]);
		group_digits(b, sizeof(b), nvalid);
		if (len < sizeof(caption))
			len += (size_t)snprintf(caption + len, sizeof(caption) - len, "%s%s%s%s%s%s of %s",
						r ? "; " : "",
						rep->nruns > 1 && !mk.pt ? run_marker(r) : "",
						rep->nruns > 1 && !mk.pt ? " " : "",
						rep->nruns > 1 ? rep->runs[r]->name : "",
						rep->nruns > 1 ? ": " : "", a, b);
	}
	if (shown == 0)
		goto ok;
	snprintf(data, sizeof(data), "m%03zu-%s.bin", md->m, xfile);
	yclip_init(md, &yc);
	if (write_scatter_file(md, data, xy, nout, &mk, &yc) < 0)
		goto cleanup;
	short_value_str(md, yc.top, yc.top - yc.lo, top);
	snprintf(why, sizeof(why), "%gth percentile of the runs, rounded up", 100 * md->body.q);
	count_noun(npoints, sizeof(npoints), yc.over, "point");
	if (yc.clip && len < sizeof(caption))
		snprintf(caption + len, sizeof(caption) - len, ". The y axis ends at %s (the largest "
			 "%s): %s above it %s drawn on the top edge as \u00D7%s", top, why, npoints,
			 yc.over == 1 ? "is" : "are", md->body.logx ? "; log y axis" : "");
	snprintf(file, sizeof(file), "m%03zu-vs-%s.png", md->m, xfile);
	axis_map_label(x_map(rep, axis), xname_safe, xlabel, sizeof(xlabel));
	set_terminal(md, true, file);
	double span = yc.top - yc.lo > 0 ? yc.top - yc.lo : 1, view[4];
	if (md->body.logx) {
		view[2] = yc.lo / pow(yc.top / yc.lo, 0.02);
		view[3] = yc.top * pow(yc.top / yc.lo, 0.05);
		fprintf(md->gp, "set logscale y\nset format y '%%g'\nset yrange [%.9g:%.9g]\n",
			view[2], view[3]);
	} else {
		view[2] = yc.lo - 0.03 * span;
		view[3] = yc.top + (yc.clip ? 0.05 : 0.03) * span;
		fprintf(md->gp, "set yrange [%.9g:%.9g]\n", view[2], view[3]);
	}
	fprintf(md->gp, "set xlabel '%s'\nset ylabel '%s'\n", xlabel, md->label);
	if (yc.clip)
		fprintf(md->gp, "set arrow from graph 0, first %.9g to graph 1, first %.9g nohead "
				"dt 2 lc rgb '#888888'\n", yc.top, yc.top);
	if (mk.pt || yc.clip)
		fputs("set key above horizontal samplen 1\n", md->gp);
	fprintf(md->gp, "plot './%s' binary format='%%float32%%float32%%float32%%float32%%float32' "
			"using 1:2:3:4:5 with points ps variable pt variable lc rgb variable notitle",
		data);
	marks_key(md->gp, &mk, yc.clip);
	fputc('\n', md->gp);
	struct scatter_set set = { xy, rows, nout, &mk, &yc, boxes, nvalids };
	if (scatter_js(md, file, xlabel, &set, view) < 0)
		goto cleanup;
	len = strlen(caption);
	for (size_t r = 0; r < rep->nruns && len < sizeof(caption); r++) {
		group_digits(a, sizeof(a), nout[r]);
		len += (size_t)snprintf(caption + len, sizeof(caption) - len, "%s%s%s%s",
					r ? "; " : ". Of these, the interactive plot has every outlier and "
						   "a subset of the rest: ",
					rep->nruns > 1 ? rep->runs[r]->name : "", rep->nruns > 1 ? " " : "", a);
	}
	add_output(md, file, isc_xstrdup(caption));
ok:
	rc = 0;
cleanup:
	for (size_t r = 0; r < rep->nruns; r++) {
		free(xy[r]);
		free(rows[r]);
	}
	free(xy);
	free(rows);
	free(nout);
	free(nvalids);
	free(boxes);
	marks_free(rep, &mk);
	return rc;
}

/* Each configuration's runs pooled, on the same quantile grid (replicate runs only). */
static void pooled_quantiles(struct metric_data *md)
{
	struct report *rep = md->rep;
	md->pqv = isc_xmalloc(rep->nconfigs * md->grid.n * sizeof(*md->pqv));
	md->pnvals = isc_xcalloc(rep->nconfigs, sizeof(*md->pnvals));
	for (size_t c = 0; c < rep->nconfigs; c++) {
		const struct isc_diff_config *k = &rep->configs[c];
		size_t n = 0;
		for (size_t i = 0; i < k->nruns; i++)
			n += rep->runs[k->runs[i]]->dp->nrows;
		double *all = isc_xmalloc((n + 1) * sizeof(*all));
		n = 0;
		for (size_t i = 0; i < k->nruns; i++) {
			const struct isc_run *run = rep->runs[k->runs[i]];
			memcpy(all + n, column(rep, k->runs[i], md->name), run->dp->nrows * sizeof(*all));
			n += run->dp->nrows;
		}
		md->pnvals[c] = quantiles(all, n, &md->map, md->grid.q, md->grid.n, &md->pqv[c * md->grid.n]);
		free(all);
	}
}

/* x of run i of configuration c in the runs plot: the replicates side by side */
static double runs_x(const struct isc_diff_config *k, size_t c, size_t i)
{
	return (double)c + (k->nruns > 1 ? 0.3 * ((double)i / (double)(k->nruns - 1) - 0.5) : 0);
}

static int runs_js(struct metric_data *md, const char *file)
{
	struct report *rep = md->rep;
	size_t imed = find_q(&md->grid, 0.5), i99 = find_q(&md->grid, 0.99);
	double lo = INFINITY, hi = -INFINITY;
	char name[320];
	for (size_t r = 0; r < rep->nruns; r++)
		if (md->nvals[r]) {
			lo = fmin(lo, md->qv[r * md->grid.n + imed]);
			hi = fmax(hi, md->qv[r * md->grid.n + i99]);
		}
	double pad = hi > lo ? 0.08 * (hi - lo) : 1;
	double view[4] = { -0.6, (double)rep->nconfigs - 0.4, lo - pad, hi + pad };
	struct jsplot *jp = jsplot_open(rep, file, "Configuration", md->label, false, false, view);
	if (!jp)
		return -1;
	for (size_t c = 0; c < rep->nconfigs; c++)
		jsplot_xtick(jp, (double)c, rep->configs[c].name);
	for (size_t c = 0; c < rep->nconfigs; c++) {
		const struct isc_diff_config *k = &rep->configs[c];
		for (size_t i = 0; i < k->nruns; i++) {
			size_t r = k->runs[i];
			if (!md->nvals[r])
				continue;
			for (int which = 0; which < 2; which++) {
				snprintf(name, sizeof(name), "%s, %s", rep->runs[r]->name,
					 which ? "99th percentile" : "median");
				jsplot_series(jp, 'p', (long)r, run_colour(colour_of(rep, r)), 1, which ? 1 : 4,
					      false, name);
				jsplot_xy(jp, runs_x(k, c, i), md->qv[r * md->grid.n + (which ? i99 : imed)]);
			}
		}
	}
	return jsplot_close(jp);
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
		const struct isc_diff_config *k = &rep->configs[c];
		for (size_t i = 0; i < k->nruns; i++) {
			size_t r = k->runs[i];
			double x = runs_x(k, c, i);
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
	if (runs_js(md, file) < 0)
		return -1;
	add_output(md, file, isc_xasprintf("Every run's median (circles) and 99th percentile "
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
	double lo = INFINITY, hi = -INFINITY, *rmin = isc_xmalloc(rep->nruns * sizeof(*rmin));
	md.rmax = isc_xmalloc(rep->nruns * sizeof(*md.rmax));
	for (size_t r = 0; r < rep->nruns; r++) {
		rmin[r] = INFINITY, md.rmax[r] = -INFINITY;
		axis_range(column(rep, r, md.name), rep->runs[r]->dp->nrows, &rmin[r], &md.rmax[r]);
		lo = fmin(lo, rmin[r]), hi = fmax(hi, md.rmax[r]);
	}
	free(rmin);
	axis_map_init(&md.map, lo, hi);
	char plain[sizeof(md.label)];
	snprintf(plain, sizeof(plain), "%s", md.label);
	axis_map_label(&md.map, plain, md.label, sizeof(md.label));
	qgrid_init(&md.grid);
	md.qv = isc_xmalloc(rep->nruns * md.grid.n * sizeof(*md.qv));
	md.nvals = isc_xcalloc(rep->nruns, sizeof(*md.nvals));
	for (size_t r = 0; r < rep->nruns; r++)
		md.nvals[r] = quantiles(column(rep, r, md.name), rep->runs[r]->dp->nrows, &md.map,
					md.grid.q, md.grid.n, &md.qv[r * md.grid.n]);
	/* the exact extremes, not their 32-bit floats */
	md.lo = axis_map_apply(&md.map, lo);
	md.max = axis_map_apply(&md.map, hi);
	if (md.lo <= md.max)
		body_range(&md, &md.body);
	if (rep->grouped)
		pooled_quantiles(&md);
	snprintf(script, sizeof(script), "m%03zu.gp", m);
	if (!(md.gp = work_open(rep, script, "w")))
		goto cleanup;
	for (size_t a = 0; axes_wants(rep->o->yaxes, md.name) && a < rep->nxaxes; a++)
		if (scatter(&md, a) < 0)
			goto cleanup;
	if (md.lo <= md.max && ((axes_wants(rep->o->hist, md.name) && histograms(&md) < 0) ||
				(axes_wants(rep->o->chist, md.name) && percentile_plots(&md) < 0)))
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
	free(md.rmax);
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
