/* SPDX-License-Identifier: GPL-2.0-only */
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
#include "stats/verdict.h"

/* Decision rules. Level run (2+ runs in both configurations): each configuration's runs are
 * combined by a random-effects meta-analysis (verdict.h); a change is significant when its
 * Holm-adjusted p in the call's family of verdicts is < ISC_DIFF_ALPHA. Level datapoint (one
 * run): never "significant"; "differs in these runs" when the Mann-Whitney p < ISC_DIFF_ALPHA
 * and the within-run block-bootstrap 95% interval of the median difference excludes 0. */
#define ISC_DIFF_ALPHA 0.05
#define ISC_DIFF_CI_LEVEL 0.95
/* The end of every verdict on configurations of one run. */
#define ISC_DIFF_ONE_RUN_NOTE \
	"one run per configuration, so run-to-run variation is unknown: for a verdict, repeat " \
	"the runs (collect --matrix ... --repeat 3)"
/* The default equivalence margin: this share of the reference's value (docs/diff.md). */
#define ISC_DIFF_MARGIN_DEFAULT 0.05

/* The level a verdict stands on. Run: two or more runs in both configurations, the runs are
 * the replicates. Datapoint: a configuration of one run, run-to-run variation unknown. */
enum isc_diff_level { ISC_LEVEL_DATAPOINT, ISC_LEVEL_RUN };

/* The functions tested at run level: med, 99%, 99.9% of each run. A run needs at least
 * ISC_DIFF_TAIL_MIN / (1 - q) values for the q-th percentile (10 beyond it). */
#define ISC_DIFF_NQ 3
#define ISC_DIFF_TAIL_MIN 10
extern const double isc_diff_q[ISC_DIFF_NQ];          /* 0.5, 0.99, 0.999 */
extern const char *const isc_diff_q_name[ISC_DIFF_NQ]; /* "med", "99%", "99.9%" */

/* The runs' values of one function compared (level run only): random-effects means of each
 * configuration's runs, weighted by their within-run precision (verdict.h). */
struct isc_diff_qtest {
	bool valid;            /* every run of both configurations has the value */
	double diff;           /* weighted mean of the runs' values minus the reference's */
	double ci_lo, ci_hi;   /* 95% CI of diff (Hartung-Knapp variances, Welch-Satterthwaite df) */
	double p, df;          /* unadjusted; NaN when refused (no run-to-run spread) */
	bool significant;      /* in the family and its Holm-adjusted p < ISC_DIFF_ALPHA */
	struct isc_verdict v;   /* the whole verdict: adjusted p, answer, margin, MDE */
};

/* One configuration against the reference, one metric, one part (overall or a group). */
struct isc_diff_test {
	bool valid;            /* both samples non-empty; false for the reference itself */
	enum isc_diff_level level;
	size_t rep_ref, rep;   /* runs in the reference configuration and in this one */
	const char *method;    /* "random-effects-runs" or "block-bootstrap" (static text) */
	double mw_u, mw_p;     /* Mann-Whitney U of the pooled datapoints against the reference's */
	bool mw_exact;         /* p from the exact distribution (small samples, no ties) */
	double ks_d, ks_p;     /* two-sample Kolmogorov-Smirnov, pooled datapoints */
	bool ks_exact;
	double med_diff;       /* run: q[0].diff; datapoint: median(pooled) - median(ref pooled) */
	double ci_lo, ci_hi;   /* 95% CI of med_diff: run: q[0]'s; datapoint: block bootstrap; NaN
				* if a sample has < 2 values (runs at level run) */
	bool differs;          /* datapoint level: mw_p < alpha and the CI excludes 0 */
	bool significant;      /* run level only: q[0].significant (Holm-adjusted, in the family) */
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
	double *run_se;        /* the same layout: each value's within-run standard error */
	size_t *run_n;         /* [metric * nruns + run]: the run's values of the metric here */
	/* The verdicts are per group when there are two or more groups: the all-rows part is
	 * then descriptive (a mixture of states whose shares vary from run to run); with one
	 * group, that group repeats the all-rows part and is the descriptive one. */
	bool descriptive;
	struct isc_verdict *shares;   /* groups, level run: [config] the share of the runs' rows
				      * in this group, runs as the unit; NULL otherwise */
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
	/* give inputs (col_roles.h: LDist, SilentTime) values and verdicts like outcomes;
	 * without it they are only in d->inputs, for the design check */
	bool compare_inputs;
	/* without compare_inputs: the inputs are metrics too (their values, for the report) and
	 * in d->inputs, but none of their verdicts joins the family (isc_diff_is_input) */
	bool input_values;
	const char *primary;           /* --primary METRIC:FUNC[:GROUP]; NULL = every verdict */
	const char *margin;            /* --margin X (metric's unit), Xus/Xns, or X%; NULL = 5% */
};

/* --margin: relative to the reference's value, in the metric's own unit, or a time. */
struct isc_diff_margin {
	enum { ISC_MARGIN_RELATIVE, ISC_MARGIN_BARE, ISC_MARGIN_TIME_NS } kind;
	double value;                  /* a fraction, a number, or nanoseconds */
};

/* --primary: the one comparison tested (in each configuration against the reference). */
struct isc_diff_primary {
	bool set;
	char *metric, *group;          /* group NULL: the tested part (the groups, or all rows) */
	size_t q;                      /* index in isc_diff_q */
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
	const char **inputs;           /* inputs left out of the metrics (not compare_inputs) */
	size_t ninputs;
	const char **units;            /* [metric] "us", "ns", "%" or "" */
	const char *group_col;         /* NULL: no groups */
	struct isc_diff_part overall;
	struct isc_diff_part *groups;   /* union of every run's groups, natural order */
	size_t ngroups;
	struct isc_diff_margin margin;
	struct isc_diff_primary primary;
	struct isc_verdict **family;    /* every verdict of the call (diff_family.c) */
	size_t nfamily;
};

/*
 * Compute everything. Metrics missing (or not numeric) in some run are left out with a
 * warning naming the run; runs from different tools or with different units get a warning.
 * Returns -1 after printing an error: no metric shared by all runs, a run with no datapoints,
 * a bad regex, a group column missing in a run, fewer than two runs.
 */
int isc_diff_compute(struct isc_diff *d, struct isc_run **runs, size_t nruns,
		    const struct isc_diff_opts *o);
/* The option parsers (-1 after a message naming the option: a usage error). */
int isc_diff_parse_margin(const char *spec, struct isc_diff_margin *out);
int isc_diff_parse_primary(const char *spec, struct isc_diff_primary *out);
/* Another verdict in the family (the flags' tests), and the family adjusted again. A verdict
 * with in_family false is listed (so it is settled as untested) but not counted. */
void isc_diff_family_add(struct isc_diff *d, struct isc_verdict *v);
void isc_diff_family_settle(struct isc_diff *d);
/* Whether verdicts of part p are in the family (not descriptive), and whether a comparison
 * of metric name / quantile q in part p is the --primary one (always true without it). */
bool isc_diff_part_tested(const struct isc_diff *d, const struct isc_diff_part *p);
bool isc_diff_is_primary(const struct isc_diff *d, const struct isc_diff_part *p, const char *metric,
			size_t q);
/* One line on the family: "family: 13 verdicts (4 metrics x 3 functions ...), Holm". */
int isc_diff_family_line(const struct isc_diff *d, char *buf, size_t len);
/* Whether metric is an input left out of the verdicts (in d->inputs; never with
 * compare_inputs). */
bool isc_diff_is_input(const struct isc_diff *d, const char *metric);
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
 *   changed: significant (Holm-adjusted p = 0.025 in a family of 12; random-effects t on run
 *   medians, p = 0.0021)
 * ("no change larger than X ...", "inconclusive: this design detects only changes larger than
 * X ...", "no test: ...", "descriptive: ..."), or, with one run per configuration,
 *   WakeLatency: median +8.8 us (+11.9%) vs base, within-run 95% interval [+8.5, +9.1] (block
 *   bootstrap; run-to-run variation unknown), differs in these runs (Mann-Whitney p < 1e-300);
 *   one run per configuration, ...
 * (one line). Returns the length snprintf would write.
 */
int isc_diff_verdict(const struct isc_diff *d, const struct isc_diff_part *p, size_t m, size_t c,
		    char *buf, size_t len);
/* The family's answer of one run-level verdict in words ("changed: significant (Holm-adjusted
 * p = ...)", "no change larger than 2 us (...)", "inconclusive: this design detects only
 * changes larger than 9.3 us ..."); what names the values ("run medians"). */
int isc_verdict_words(const struct isc_verdict *v, const char *unit, const char *what, char *buf,
		     size_t len);

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
/* {"answer": "changed"|"equivalent"|"inconclusive"|"refused"|"untested", "diff", "ci95",
 *  "se", "df", "p", "p_adj", "in_family", "significant", "margin", "p_equiv", "p_equiv_adj",
 *  "mde", "runs_needed", "refusal"} */
cJSON *isc_verdict_json(const struct isc_verdict *v);

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

/*
 * The run order as a confounder: in an experiment, each metric's run medians (all datapoints)
 * regressed on the place each run was taken in (order[run], isc_configs_orders), within the
 * configurations (their means removed); a slope with Holm-adjusted p < ISC_DIFF_ALPHA over the
 * metrics is a drift: "run order: WakeLatency median drifts by +0.52 us per run ...". order
 * NULL: none. *out gets malloc'd lines (appended to *n lines already there).
 */
void isc_diff_drift(const struct isc_diff *d, const long *order, char ***out, size_t *n);

/* Configurations at level run whose mean run sizes differ by more than this factor: a
 * warning, "run sizes differ: a 1000 datapoints a run on average, b 20000: ..." (the tails'
 * bias and skew depend on the run size); appended to *out as isc_diff_drift does. */
#define ISC_DIFF_SIZE_RATIO 2.0
void isc_diff_size_warning(const struct isc_diff *d, char ***out, size_t *n);
/* Whether configuration c's runs and the reference's differ in mean size by more than
 * ISC_DIFF_SIZE_RATIO: their tails' verdicts then give no answer. */
bool isc_diff_sizes_differ(const struct isc_diff *d, size_t c);

/* The unit of a metric by wult's naming: "us" for latencies and times, "ns" for the raw
 * timestamps, "%" for residencies, "" otherwise; info.json "units" overrides. */
const char *isc_metric_unit(const struct isc_run *r, const char *metric);
/* A raw timestamp column (ns since boot: LTime, TBI, TAI, TIntr, and wult's TBI1, TAI1). */
bool isc_is_raw_timestamp(const char *name);

#endif
