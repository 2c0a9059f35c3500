/*
 * Comparing runs against a reference: per metric and function, every run's value, the change
 * and percent change against runs[0], and for every run a Mann-Whitney U test, a two-sample
 * KS test and a 95% CI for the difference of medians - overall and per group (idle state).
 * Used by `analyze diff` and by `report`.
 *
 * Typical use (runs loaded with is_load_run(), filters applied):
 *	struct is_diff_opts o = { .funcs = f, .nfuncs = nf, .group_col = "ReqCState" };
 *	struct is_diff d;
 *	if (is_diff_compute(&d, runs, nruns, &o) < 0) ...error already printed...
 *	for (size_t m = 0; m < d.nmetrics; m++)
 *		for (size_t r = 1; r < d.nruns; r++) {
 *			is_diff_verdict(&d, &d.overall, m, r, buf, sizeof(buf));
 *			... is_diff_change(&d, &d.overall, m, r, f) ...
 *		}
 *	is_diff_free(&d);
 */
#ifndef IDLESCOPE_DIFF_H
#define IDLESCOPE_DIFF_H
#include <cjson/cJSON.h>
#include <stdbool.h>
#include <stddef.h>

#include "idlescope/run.h"
#include "idlescope/stats.h"

/* Decision rule: a change is significant when the Mann-Whitney p < IS_DIFF_ALPHA and the
 * 95% CI of the median difference excludes 0. */
#define IS_DIFF_ALPHA 0.05
#define IS_DIFF_CI_LEVEL 0.95

/* One run against the reference, one metric, one part (overall or a group). */
struct is_diff_test {
	bool valid;            /* both samples non-empty; false for the reference itself */
	double mw_u, mw_p;     /* Mann-Whitney U of the run against the reference, two-sided p */
	bool mw_exact;         /* p from the exact distribution (small samples, no ties) */
	double ks_d, ks_p;     /* two-sample Kolmogorov-Smirnov */
	bool ks_exact;
	double med_diff;       /* median(run) - median(reference) */
	double ci_lo, ci_hi;   /* 95% CI of med_diff (Price-Bonett); NaN if a sample has < 2 values */
	bool significant;      /* the decision rule above */
};

/* The numbers of one part: all rows, or the rows of one group. */
struct is_diff_part {
	const char *label;     /* NULL for the overall part; the group's value ("C6", "" = empty) */
	size_t *rows;          /* [run] datapoints in this part */
	size_t *nvals;         /* [metric * nruns + run] non-empty values of the metric */
	double *medians;       /* [metric * nruns + run]; NaN without values */
	double *values;        /* [(metric * nruns + run) * nfuncs + func]; NaN where undefined */
	struct is_diff_test *tests;  /* [metric * nruns + run]; run 0 is never valid */
};

struct is_diff_opts {
	const struct is_func *funcs;   /* functions for the value table (e.g. IS_DEFAULT_FUNCS) */
	size_t nfuncs;
	const char *metrics_re;        /* POSIX ERE choosing metrics; NULL = every numeric column */
	const char *group_col;         /* column to group by (every run must have it); NULL = none */
	int nthreads;                  /* 0 = online CPUs */
};

struct is_diff {
	struct is_run **runs;          /* borrowed; runs[0] is the reference */
	size_t nruns;
	const struct is_func *funcs;   /* borrowed */
	size_t nfuncs;
	const char **metrics;          /* numeric in every run, reference's column order */
	size_t nmetrics;
	const char **units;            /* [metric] "us", "ns", "%" or "" */
	const char *group_col;         /* NULL: no groups */
	struct is_diff_part overall;
	struct is_diff_part *groups;   /* union of every run's groups, natural order */
	size_t ngroups;
};

/*
 * Compute everything. Metrics missing (or not numeric) in some run are left out with a
 * warning naming the run; runs from different tools or with different units get a warning.
 * Returns -1 after printing an error: no metric shared by all runs, a run with no datapoints,
 * a bad regex, a group column missing in a run, fewer than two runs.
 */
int is_diff_compute(struct is_diff *d, struct is_run **runs, size_t nruns,
		    const struct is_diff_opts *o);
void is_diff_free(struct is_diff *d);

/* Truncate every run's datapoints to the smallest count (wult's --even-up-dp-count). */
void is_diff_even_up(struct is_run **runs, size_t nruns);

/* Value of function f of metric m for run r; change = value - reference's value;
 * pct = 100 * change / |reference's value| (NaN when that is 0 or undefined). */
double is_diff_value(const struct is_diff *d, const struct is_diff_part *p, size_t m, size_t r,
		     size_t f);
double is_diff_change(const struct is_diff *d, const struct is_diff_part *p, size_t m, size_t r,
		      size_t f);
double is_diff_pct(const struct is_diff *d, const struct is_diff_part *p, size_t m, size_t r,
		   size_t f);
/* 100 * (val - ref) / |ref|, also where val - ref overflows while the percentage does not
 * (1e308 against -1e308: -200%); NaN when ref is 0 or not finite, or val is NaN. */
double is_pct_change(double val, double ref);
/* The tests of run r (>= 1) against the reference; NULL when not computable. */
const struct is_diff_test *is_diff_get_test(const struct is_diff *d, const struct is_diff_part *p,
					    size_t m, size_t r);

/*
 * The plain-language verdict for metric m, run r (>= 1) against the reference, e.g.
 *   WakeLatency: median +8.8 us (+11.9%) vs ivt-nic-c6-aspm, 95% CI [+8.5, +9.1],
 *   significant (Mann-Whitney p < 1e-300)
 * (one line), or "..., no significant change (Mann-Whitney p = 0.41)". Returns the length
 * snprintf would write.
 */
int is_diff_verdict(const struct is_diff *d, const struct is_diff_part *p, size_t m, size_t r,
		    char *buf, size_t len);

/*
 * The JSON contract of `analyze diff --format json`:
 *   {"reference": NAME, "group_by": COL|null,
 *    "runs": [{"reportid", "path", "toolname", "rows"}],
 *    "metrics": {M: {"unit": U, FUNC: {"values": [..], "change": [..], "pct": [..]},
 *                    "tests": [null, {"mw_u", "mw_p", "mw_exact", "ks_d", "ks_p",
 *                              "med_diff", "med_diff_ci95": [lo, hi], "significant"}],
 *                    "verdict": [null, "M: median ..."]}},
 *    "groups": {VALUE: {"rows": [..], "metrics": {same shape}}}}
 * Undefined numbers are null. Numbers are raw items (cJSON_IsRaw: text that reads back as the
 * same double, json_num.h): print the tree, don't read valuedouble.
 */
cJSON *is_diff_to_json(const struct is_diff *d);

/* The unit of a metric by wult's naming: "us" for latencies and times, "ns" for the raw
 * timestamps, "%" for residencies, "" otherwise; info.json "units" overrides. */
const char *is_metric_unit(const struct is_run *r, const char *metric);
/* A raw timestamp column (ns since boot: LTime, TBI, TAI, TIntr, and wult's TBI1, TAI1). */
bool is_raw_timestamp(const char *name);

#endif
