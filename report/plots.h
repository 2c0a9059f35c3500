/* SPDX-License-Identifier: GPL-2.0-only */
/* The plot writers' shared state (plots.c, hist.c, pctplots.c); not used elsewhere. */
#ifndef REPORT_PLOTS_H
#define REPORT_PLOTS_H
#include "text/json_num.h"
#include "report.h"

#define OUTLIER_Q_LO 0.001        /* scatter points beyond these percentiles of either axis */
#define OUTLIER_Q_HI 0.999        /* are always kept */
#define SHORT_TAIL 0.25           /* a tail shorter than this share of the range is shown */

/* The quantile grid: linear for the CDF, geometric towards 1 for the tail, ascending. */
struct qgrid {
	double *q;
	size_t n;
	size_t i_min, i_lo, i_hi;   /* positions of 0 and OUTLIER_Q_* */
};

struct hrange {
	double lo, hi;            /* mapped; values above hi are beyond the body */
	double q;                 /* the percentile hi comes from; 1: the maximum */
	bool logx;                /* a logarithmic value axis */
	size_t bins;              /* of the histograms */
};

struct metric_data {
	struct report *rep;
	size_t m;
	const char *name;
	char label[160];          /* "WakeLatency (us)", safe for gnuplot */
	struct qgrid grid;
	double *qv;               /* [run * grid.n + i], mapped */
	size_t *nvals;            /* [run] non-NaN values */
	struct axis_map map;      /* the metric's values as plotted (axis.c) */
	double lo, max;           /* smallest and largest value of all runs, mapped */
	double *rmax;             /* [run]: largest value, as it is */
	struct hrange body;       /* body_range() */
	double *pqv;              /* replicate runs: [config * grid.n + i], the runs pooled */
	size_t *pnvals;           /* [config] */
	FILE *gp;                 /* the gnuplot script */
	struct metric_plots *mp;
};

FILE *work_open(const struct report *rep, const char *name, const char *mode);
int work_close(FILE *f, const char *name);
void add_output(struct metric_data *md, const char *file, char *caption);
void set_terminal(struct metric_data *md, bool png, const char *file);
const double *column(const struct report *rep, size_t r, const char *name);
/* The grid position nearest to q. */
size_t find_q(const struct qgrid *g, double q);
/* The largest value of a quantile q over the runs (mapped), -INFINITY without values. */
double max_quantile(const struct metric_data *md, double q);
/* "1 datapoint", "1,234 datapoints" */
void count_noun(char *out, size_t len, size_t n, const char *noun);
/* v rounded up to 3 significant digits (2650.3 -> 2660, 111.07 -> 112). */
double round_up3(double v);
/* A mapped value in the metric's units, exactly as isc_num_str() writes it. */
void value_str(const struct metric_data *md, double mapped, char *out);
/* The same with the digits that matter against span (mapped): its last digit about span/1000
 * (3 to 17 significant digits): 1.79 for 1.7891941516206367 on a range of 35. */
void short_value_str(const struct metric_data *md, double mapped, double span, char *out);

void body_range(const struct metric_data *md, struct hrange *h);

/* states.c */
#define PLOT_MAX_STATES 8         /* idle states told apart in the plots */
struct plot_states {
	const char *names[PLOT_MAX_STATES];  /* of all runs, natural order */
	size_t nstates;           /* 0: no run has two states, or there are too many */
	struct isc_groups *g;      /* [run]: labels and counts (not the rows) */
	unsigned char **of_row;   /* [run][row]: index in names, nstates if none; NULL if
				   * nstates is 0 */
};
/* The runs' states, computed once per report. */
const struct plot_states *plot_states(struct report *rep);

/* hist.c */
int histograms(struct metric_data *md);
/* pctplots.c: the exceedance plot (1 - F, log) and the tail on a nines axis */
int percentile_plots(struct metric_data *md);
#endif
