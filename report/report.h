/* SPDX-License-Identifier: GPL-2.0-only */
/* report: static HTML reports of one run or a comparison of several, plots by gnuplot. */
#ifndef REPORT_REPORT_H
#define REPORT_REPORT_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

#include "diff/configs.h"
#include "diff/flags.h"
#include "run/load.h"
#include "run/run.h"
#include "stats/stats.h"

/* Metrics shown by default: latencies, SilentTime, LDist, residencies, CPU frequency; the
 * flag IntrOff (a 0/1 column: its share, in the Flags section). */
#define REPORT_DEFAULT_METRICS \
	"^(WakeLatency|IntrLatency|IntrOff|SilentTime|LDist|[CPM]C[0-9]+[A-Za-z]*%|CPUFreq|.*Freq)$"

struct report_opts {
	const char *outdir;
	const char *title;
	const char *metrics_re;    /* NULL: REPORT_DEFAULT_METRICS */
	const char *include, *exclude;
	const char *xaxes, *yaxes;  /* --xaxes, --yaxes (axes_opt.h); NULL: the defaults */
	const char *hist, *chist;  /* --hist, --chist */
	bool copy_raw, force;
	bool compare_inputs;       /* --compare-inputs: verdicts on LDist, SilentTime too */
	bool causes;               /* --causes: the Causes section (causes.c) */
	bool keep_plot_data;       /* --keep-plot-data: the work directory becomes DIR/plot-data */
	int jobs;                  /* parallel gnuplot processes */
	const char *ref;           /* --ref: the reference configuration's name */
	const char *by;            /* --by COLUMN (without :N); NULL: ReqCState when every run has it */
	char *by_col;              /* --by COLUMN:N: COLUMN (malloc'd) */
	size_t by_bins;            /* --by COLUMN:N or --by-bins N: N; 0 = by value */
	char **runs;               /* the arguments: runs, comma-separated replicates, experiments */
	size_t nruns;
};

/* Every run's value of every function, overall and per group (idle state). */
struct summ_part {
	const char *label;         /* NULL: all datapoints */
	size_t *rows;              /* [run] */
	double *values;            /* [(metric * ncols + col) * nfuncs + func], NaN if undefined */
	size_t *fvalues, *fset;    /* flags: rows with a value, rows that are 1 [flag * ncols + col] */
};

struct verdict {
	char *text;                /* "WakeLatency: median +8.8 us ..." */
	bool significant;          /* replicated and significant */
	bool differs;              /* one run: these runs differ */
	/* when the verdicts are per group (text above is then descriptive): one per group */
	struct verdict *groups;
	size_t ngroups;
};

struct summary {
	size_t ncols;              /* table rows per part: configurations (from lib/diff/diff.c), or
				    * runs (one configuration, summarised here) */
	const char **metrics;
	size_t nmetrics;
	const char *group_col;     /* NULL: no groups */
	struct summ_part overall;
	struct summ_part *groups;
	size_t ngroups;
	struct verdict *verdicts;  /* [metric * nconfigs + config], NULL when not available */
	void *diff;                /* struct isc_diff * when the numbers come from lib/diff/diff.c */
};

/* plots.c: data files and gnuplot scripts per metric */
struct metric_plots {
	char *files[24];           /* file names under plots/, NULL-terminated */
	char *captions[24];
	bool wide[24];             /* spans the page's width */
	int nfiles;
};
struct report {
	const struct report_opts *o;
	struct isc_run **runs;      /* every run of every configuration, in argument order */
	size_t nruns;
	struct isc_config_list cl;  /* the arguments as configurations */
	char **paths;              /* every run's path (pointers into cl) */
	struct isc_diff_config *configs;  /* configs[0] is the reference */
	size_t nconfigs;
	size_t *config_of;         /* [run] its configuration */
	bool grouped;              /* some configuration has several runs */
	char **warn;               /* confounders (isc_diff_confounders) */
	size_t nwarn;
	struct isc_func *funcs;
	size_t nfuncs;
	const char **metrics;      /* shown: numeric in every run, matching --metrics; not flags,
				    * not columns without values */
	size_t nmetrics;
	struct isc_diff_flags fl;   /* the flags (fl.names, fl.n; tests when sum.diff) and the
				    * columns without values (fl.empty) */
	struct metric_plots *plots;  /* [metric] */
	char *left_out;            /* metrics some runs lack: "CC6% (not in run2); ..." */
	char **xaxes;              /* the scatter plots' x axes (axes_opt.c) */
	size_t nxaxes;
	double **xvalues;          /* [axis * nruns + run]: Time/Index values, NULL until needed */
	double *axis_lim;          /* [(run * nxaxes + axis) * 2]: scatter x limits, NaN until known */
	struct axis_map *xmap;     /* [axis]: how the scatter x axes are plotted, NULL until known */
	struct plot_states *pstates;  /* ReqCState of the rows for the plots, NULL until known */
	bool state_markers;        /* scatter markers are idle states (colours are runs) */
	struct summary sum;
	char *tmpdir;              /* the report being written; renamed to o->outdir at the end */
	char *workdir;             /* tmpdir/.work: data files and gnuplot scripts */
	struct plot_queue *queue;
	FILE *html;
	bool counters_only;        /* every run is counter-only (collect --counters) */
};

/* order.c: metrics named literally in re first, in its order; the rest in column order */
void order_metrics(const char **names, size_t n, const char *re);

/* summary.c */
int select_metrics(struct report *rep, const char *metrics_re);
int summary_compute(struct report *rep);
/* Index of a metric in the summary, or SIZE_MAX. */
size_t summary_metric(const struct summary *s, const char *name);
void summary_free(struct summary *s);
/* Table row i of the summary: its name and colour (a configuration's, or a run's). */
const char *summ_col_name(const struct report *rep, size_t i);
const char *summ_col_colour(const struct report *rep, size_t i);
/* metric.c: a column's <th> (swatch, name, runs), and a per-group table's heading and opening */
void summ_col_th(const struct report *rep, size_t i);
void summ_group_heading(struct report *rep, const char *classes);
double summ_value(const struct report *rep, const struct summ_part *p, size_t m, size_t r,
		  size_t f);
const char *metric_unit(const struct report *rep, const char *metric);

/* html.c: escaping and small writers */
void html_esc(FILE *f, const char *s);
void html_escn(FILE *f, const char *s, size_t n);
void html_num(FILE *f, double v);
/* "1,234,567" */
void group_digits(char *buf, size_t len, size_t v);
void html_count(FILE *f, size_t v);
void html_change(FILE *f, double ref, double v);
void html_head(FILE *f, const char *title);
void html_tail(FILE *f);
void html_legend(FILE *f, const struct report *rep, bool markers);
/* The colour index of run r: its configuration's, so that replicates share a colour. */
size_t colour_of(const struct report *rep, size_t r);
/* The colour (#RRGGBB) and gnuplot point type of run r, and its marker glyph for HTML. */
const char *run_colour(size_t r);
int run_pointtype(size_t r);
const char *run_marker(size_t r);
/* A string safe inside a gnuplot single-quoted, noenhanced string (and in SVG text). */
void gp_safe(char *out, size_t outlen, const char *s);

/* sections */
void section_intro(struct report *rep);
void section_metric(struct report *rep, size_t m);
/* flags.c: the flags' values, set and share per run or configuration (and per group), and
 * with several configurations their proportion tests against the reference. */
void section_flags(struct report *rep);
int section_counters(struct report *rep);
/* causes.c: the breakdown by cause per run and percentile band (--causes) */
void section_causes(struct report *rep);

int plots_metric(struct report *rep, size_t m, struct metric_plots *mp);
void plot_states_free(struct report *rep);
void metric_plots_free(struct metric_plots *mp);

/* axis.c: what a metric's values are plotted as: (v - off) / 10^k where gnuplot and 32-bit
 * floats cannot show them as they are (near DBL_MAX, below 1e-15, a spread of 1e-6 of
 * their size); identity otherwise (and for a NULL map). */
struct axis_map {
	double off;
	int k;                     /* 0: not scaled */
	double f1, f2;             /* 10^-k as two factors */
};
void axis_map_init(struct axis_map *m, double lo, double hi);
static inline double axis_map_apply(const struct axis_map *m, double v)
{
	return m ? (v - m->off) * m->f1 * m->f2 : v;
}
double axis_map_invert(const struct axis_map *m, double p);
/* "WakeLatency (us)", "WakeLatency (us) / 1e+308", "(LDist (us) - 1e+15) / 1e-3" */
void axis_map_label(const struct axis_map *m, const char *name, char *out, size_t len);
/* Widen [*lo, *hi] to the non-NaN values of v[0..n) (v may be NULL). */
void axis_range(const double *v, size_t n, double *lo, double *hi);

/* quantiles.c */
/* Quantiles q[0..nq) (ascending, 0..1) of the non-NaN values of v[0..n), mapped by map
 * (NULL: as they are): linear interpolation as the summary functions. Returns the number of
 * non-NaN values. */
size_t quantiles(const double *v, size_t n, const struct axis_map *map, const double *q,
		 size_t nq, double *out);

/* downsample.c */
struct ds_box {
	double xlo, xhi, ylo, yhi;  /* points outside any of these are outliers, always kept */
};
/* Pairs (x[i], y[i]) with neither NaN, mapped by xmap and ymap (box is in mapped units);
 * all outliers plus about `budget` of the others,
 * chosen by a hash of the row index (the same input gives the same selection). Returns a
 * malloc'd array of 2 * *nout floats; *nvalid gets the number of non-NaN pairs; *rows
 * (unless rows is NULL) a malloc'd array of the *nout points' row indices. */
float *ds_select(const double *x, const double *y, size_t n, const struct axis_map *xmap,
		 const struct axis_map *ymap, const struct ds_box *box, size_t budget, size_t *nout,
		 size_t *nvalid, size_t **rows);

/* The points of ds_select() (xy mapped, their rows) thinned in place to every outlier and
 * about `budget` of the others, a subset of what ds_select kept with a larger budget (the
 * same hash); nvalid as ds_select gave it. Returns the new count. */
size_t ds_thin(float *xy, size_t *rows, size_t n, const struct ds_box *box, size_t nvalid,
	       size_t budget);

/* gnuplot.c: parallel gnuplot processes */
struct plot_queue;
/* Full path of gnuplot in PATH, or NULL. */
char *gnuplot_find(void);
struct plot_queue *plot_queue_new(const char *gnuplot, const char *cwd, int jobs);
/* Run gnuplot on script (a path relative to cwd) as soon as a slot is free. */
int plot_queue_add(struct plot_queue *q, const char *script);
/* Wait for every job; returns -1 if any failed (after printing its error). */
int plot_queue_finish(struct plot_queue *q);
void plot_queue_free(struct plot_queue *q);

/* signals.c: on SIGINT/SIGTERM/SIGHUP/SIGPIPE remove dir (NULL: stop doing so) and stop the
 * gnuplot processes pids[0..n) (the array is read at signal time). */
void signals_remove_on_exit(const char *dir);
void signals_watch_children(const pid_t *pids, int n);

/* outdir_shape.c: -1 (message printed) when an existing out holds anything, at any depth,
 * but a report's files. */
int outdir_replaceable(const char *out);
/* outdir.c */
int outdir_check(const char *out, bool force);
char *outdir_make_tmp(const char *out);
int outdir_commit(const char *tmp, const char *out, bool force);
int remove_tree(const char *path);
/* outdir_guard.c: -1 (message printed) when out is, holds or lies inside an input. */
int outdir_guard(const char *out, struct isc_run *const *runs, size_t nruns);
int copy_raw_runs(struct report *rep);
char *raw_dir_name(size_t r);

/* util */
char *path_cat(const char *a, const char *b);
/* A JSON value as one line of text (strings unquoted); NULL for absent/null. malloc'd. */
char *json_text(const void *cjson_item);

#endif
