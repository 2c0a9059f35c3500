/*
 * Comparing runs against a reference: per metric and function, every run's value, the change
 * and percent change against runs[0], and for every run a Mann-Whitney U test, a two-sample
 * KS test and a 95% CI for the difference of medians - overall and per group (idle state).
 * Used by `analyze diff` and by `report`.
 *
 * Typical use (runs loaded with isc_load_run(), filters applied):
 *	struct isc_diff_opts o = { .funcs = f, .nfuncs = nf, .group_col = "ReqCState" };
 *	struct isc_diff d;
 *	if (isc_diff_compute(&d, runs, nruns, &o) < 0) ...error already printed...
 *	for (size_t m = 0; m < d.nmetrics; m++)
 *		for (size_t r = 1; r < d.nruns; r++) {
 *			isc_diff_verdict(&d, &d.overall, m, r, buf, sizeof(buf));
 *			... isc_diff_change(&d, &d.overall, m, r, f) ...
 *		}
 *	isc_diff_free(&d);
 */
#ifndef IDLESCOPE_DIFF_H
#define IDLESCOPE_DIFF_H
#include <cjson/cJSON.h>
#include <stdbool.h>
#include <stddef.h>

#include "run/run.h"
#include "stats/stats.h"

/* Decision rules. Level run (2+ runs in both configurations): significant when Welch's t on
 * the run medians has p < ISC_DIFF_ALPHA (its 95% CI excludes 0). Level datapoint (one run):
 * never "significant"; "differs in these runs" when the Mann-Whitney p < ISC_DIFF_ALPHA and the
 * block-bootstrap 95% CI of the median difference excludes 0. */
#define ISC_DIFF_ALPHA 0.05
#define ISC_DIFF_CI_LEVEL 0.95
/* The end of every verdict on configurations of one run. */
#define ISC_DIFF_ONE_RUN_NOTE \
	"one run per configuration, so run-to-run variation is unknown: for a verdict, repeat " \
	"the runs (collect --matrix ... --repeat 3)"

/* The level a verdict stands on. Run: two or more runs in both configurations, the runs are
 * the replicates. Datapoint: a configuration of one run, run-to-run variation unknown. */
enum isc_diff_level { ISC_LEVEL_DATAPOINT, ISC_LEVEL_RUN };

/* The functions tested at run level: med, 99%, 99.9% of each run. A run needs at least
 * ISC_DIFF_TAIL_MIN / (1 - q) values for the q-th percentile (10 beyond it). */
#define ISC_DIFF_NQ 3
#define ISC_DIFF_TAIL_MIN 10
extern const double isc_diff_q[ISC_DIFF_NQ];          /* 0.5, 0.99, 0.999 */
extern const char *const isc_diff_q_name[ISC_DIFF_NQ]; /* "med", "99%", "99.9%" */

/* Welch's t on per-run values of one function (level run only). */
struct isc_diff_qtest {
	bool valid;            /* every run of both configurations has the value */
	double diff;           /* mean of the runs' values minus the reference's mean */
	double ci_lo, ci_hi;   /* 95% CI of diff (Welch t, Welch-Satterthwaite df) */
	double p, df;
	bool significant;      /* p < ISC_DIFF_ALPHA */
};

/* One configuration against the reference, one metric, one part (overall or a group). */
struct isc_diff_test {
	bool valid;            /* both samples non-empty; false for the reference itself */
	enum isc_diff_level level;
	size_t rep_ref, rep;   /* runs in the reference configuration and in this one */
	const char *method;    /* "welch-run-summaries" or "block-bootstrap" (static text) */
	double mw_u, mw_p;     /* Mann-Whitney U of the pooled datapoints against the reference's */
	bool mw_exact;         /* p from the exact distribution (small samples, no ties) */
	double ks_d, ks_p;     /* two-sample Kolmogorov-Smirnov, pooled datapoints */
	bool ks_exact;
	double med_diff;       /* run: q[0].diff; datapoint: median(pooled) - median(ref pooled) */
	double ci_lo, ci_hi;   /* 95% CI of med_diff: run: Welch; datapoint: block bootstrap; NaN
				* if a sample has < 2 values (runs at level run) */
	bool differs;          /* datapoint level: mw_p < alpha and the CI excludes 0 */
	bool significant;      /* run level only: Welch p of the run medians < alpha */
	struct isc_diff_qtest q[ISC_DIFF_NQ];  /* level run: med, 99%, 99.9% */
};

/* The numbers of one part: all rows, or the rows of one group. Arrays indexed [config] hold
 * the configuration's pooled datapoints (all its runs together). */
struct isc_diff_part {
	const char *label;     /* NULL for the overall part; the group's value ("C6", "" = empty) */
	size_t *rows;          /* [config] datapoints in this part */
	size_t *nvals;         /* [metric * nconfigs + config] non-empty values of the metric */
	double *medians;       /* [metric * nconfigs + config]; NaN without values */
	double *values;        /* [(metric * nconfigs + config) * nfuncs + func]; NaN if undefined */
	struct isc_diff_test *tests;  /* [metric * nconfigs + config]; config 0 is never valid */
	size_t *run_rows;      /* [run] datapoints of each run in this part */
	double *run_q;         /* [(metric * nruns + run) * ISC_DIFF_NQ + k]: each run's med, 99%,
				* 99.9%; NaN with too few values */
};

/* A configuration: replicate runs of one setting (indices into the runs array). */
struct isc_diff_config {
	const char *name;
	size_t *runs;
	size_t nruns;
};

struct isc_diff_opts {
	const struct isc_func *funcs;   /* functions for the value table (e.g. ISC_DEFAULT_FUNCS) */
	size_t nfuncs;
	const char *metrics_re;        /* POSIX ERE choosing metrics; NULL = every numeric column */
	const char *group_col;         /* column to group by (every run must have it); NULL = none */
	int nthreads;                  /* 0 = online CPUs */
	/* configurations (copied; configs[0] is the reference), each run in exactly one;
	 * NULL = every run its own configuration, named after it */
	const struct isc_diff_config *configs;
	size_t nconfigs;
	/* columns that are not metrics here (0/1 flags, columns without values): left out
	 * silently (the caller says why) */
	const char *const *skip;
	size_t nskip;
};

struct isc_diff {
	struct isc_run **runs;          /* borrowed; every run of every configuration */
	size_t nruns;
	struct isc_diff_config *configs;  /* configs[0] is the reference */
	size_t nconfigs;
	size_t *config_of;             /* [run] its configuration */
	const struct isc_func *funcs;   /* borrowed */
	size_t nfuncs;
	const char **metrics;          /* numeric in every run, reference's column order */
	size_t nmetrics;
	const char **units;            /* [metric] "us", "ns", "%" or "" */
	const char *group_col;         /* NULL: no groups */
	struct isc_diff_part overall;
	struct isc_diff_part *groups;   /* union of every run's groups, natural order */
	size_t ngroups;
};

/*
 * Compute everything. Metrics missing (or not numeric) in some run are left out with a
 * warning naming the run; runs from different tools or with different units get a warning.
 * Returns -1 after printing an error: no metric shared by all runs, a run with no datapoints,
 * a bad regex, a group column missing in a run, fewer than two runs.
 */
int isc_diff_compute(struct isc_diff *d, struct isc_run **runs, size_t nruns,
		    const struct isc_diff_opts *o);
void isc_diff_free(struct isc_diff *d);

/* The configuration's name (configs[c].name). */
const char *isc_diff_config_name(const struct isc_diff *d, size_t c);
/* Each run's value of quantile k (isc_diff_q) of metric m in part p. */
double isc_diff_run_q(const struct isc_diff *d, const struct isc_diff_part *p, size_t m, size_t run,
		     size_t k);

/* Truncate every run's datapoints to the smallest count (wult's --even-up-dp-count). */
void isc_diff_even_up(struct isc_run **runs, size_t nruns);

/* Value of function f of metric m for configuration c (its pooled datapoints); change = value -
 * reference's value;
 * pct = 100 * change / |reference's value| (NaN when that is 0 or undefined). */
double isc_diff_value(const struct isc_diff *d, const struct isc_diff_part *p, size_t m, size_t r,
		     size_t f);
double isc_diff_change(const struct isc_diff *d, const struct isc_diff_part *p, size_t m, size_t r,
		      size_t f);
double isc_diff_pct(const struct isc_diff *d, const struct isc_diff_part *p, size_t m, size_t r,
		   size_t f);
/* 100 * (val - ref) / |ref|, also where val - ref overflows while the percentage does not
 * (1e308 against -1e308: -200%); NaN when ref is 0 or not finite, or val is NaN. */
double isc_pct_change(double val, double ref);
/* The tests of configuration c (>= 1) against the reference; NULL when not computable. */
const struct isc_diff_test *isc_diff_get_test(const struct isc_diff *d, const struct isc_diff_part *p,
					    size_t m, size_t r);

/*
 * The plain-language verdict for metric m, configuration c (>= 1) against the reference, e.g.
 *   WakeLatency: median +8.8 us (+11.9%) vs base (3 vs 3 runs), 95% CI [+8.5, +9.1],
 *   significant (Welch t on run medians, p = 0.0021)
 * or, with one run per configuration,
 *   WakeLatency: median +8.8 us (+11.9%) vs base, 95% CI [+8.5, +9.1] (block bootstrap),
 *   differs in these runs (Mann-Whitney p < 1e-300); run-to-run variation unknown ...
 * (one line). Returns the length snprintf would write.
 */
int isc_diff_verdict(const struct isc_diff *d, const struct isc_diff_part *p, size_t m, size_t c,
		    char *buf, size_t len);

/*
 * The JSON contract of `analyze diff --format json` (docs/diff.md):
 *   {"reference": NAME, "group_by": COL|null,
 *    "configs": [{"name", "runs": [reportid..], "rows"}],
 *    "runs": [{"reportid", "path", "toolname", "rows", "config"}],
 *    "metrics": {M: {"unit": U, FUNC: {"values": [..], "change": [..], "pct": [..]},
 *                    "runs": [{"med", "99%", "99.9%"}, ..],   (one per run)
 *                    "tests": [null, {"level", "replicates": [n_ref, n], "method",
 *                              "mw_u", "mw_p", "mw_exact", "ks_d", "ks_p", "ks_exact",
 *                              "med_diff", "med_diff_ci95": [lo, hi], "differs",
 *                              "significant", "run_level": {"med": {..}, ..} | null}],
 *                    "verdict": [null, "M: median ..."]}},
 *    "groups": {VALUE: {"rows": [..], "run_rows": [..], "metrics": {same shape}}}}
 * Index i of "values", "tests", "verdict", "rows" is configs[i]. Undefined numbers are null.
 * Numbers are raw items (cJSON_IsRaw: text that reads back as the same double, json_num.h):
 * print the tree, don't read valuedouble.
 */
cJSON *isc_diff_to_json(const struct isc_diff *d);

/* Confounders: machine load differing by more than this between configurations. */
#define ISC_CONFOUND_BUSY_POINTS 5.0   /* Busy%, OS_Busy%: percentage points */
#define ISC_CONFOUND_IRQ_RATIO 0.5     /* IRQ/s: by more than half the reference's */
/*
 * What differs between the configurations besides the varied settings (varied[0..nvaried),
 * setting names as in info.json "settings"): the system description and every recorded
 * setting in info.json (one line per field: "system.kernel.release differs: a: 6.1; b: 6.2"),
 * and the machine load from counters.csv ("machine load: OS_Busy% 22.6 in a (22.6), 51.0 in b
 * (51.0)"). *out gets malloc'd lines; returns how many.
 */
size_t isc_diff_confounders(const struct isc_diff *d, const char *const *varied, size_t nvaried,
			   char ***out);

/* The unit of a metric by wult's naming: "us" for latencies and times, "ns" for the raw
 * timestamps, "%" for residencies, "" otherwise; info.json "units" overrides. */
const char *isc_metric_unit(const struct isc_run *r, const char *metric);
/* A raw timestamp column (ns since boot: LTime, TBI, TAI, TIntr, and wult's TBI1, TAI1). */
bool isc_is_raw_timestamp(const char *name);

#endif
