/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The statistics behind a run-level verdict (docs/diff.md, "The verdict"):
 *  - each configuration's runs combined by a random-effects meta-analysis (DerSimonian-Laird
 *    between-run variance, weights 1/(within-run variance + between-run variance), the
 *    Hartung-Knapp variance of the weighted mean), two configurations compared Welch-style;
 *    with runs of equal precision this is Welch's t on the runs' values;
 *  - a family of verdicts adjusted by Holm's step-down method;
 *  - the three answers: changed, no change larger than the margin (TOST), inconclusive with
 *    the minimum detectable effect and the runs per configuration that would detect the margin.
 */
#ifndef IDLESCOPE_VERDICT_H
#define IDLESCOPE_VERDICT_H
#include <stdbool.h>
#include <stddef.h>

#define ISC_VERDICT_POWER 0.8      /* the power the minimum detectable effect is quoted at */
#define ISC_VERDICT_RUNS_MAX 1000  /* runs per configuration searched for the margin */
/* Fewer runs than this in a configuration: never "changed" nor "no change larger than". Two
 * runs cannot show the shape of the run-to-run variation: a run effect of two states puts
 * both runs of each configuration in one state an eighth of the time, and any test that
 * trusts their agreement calls that a change (docs/diff.md, Evidence). */
#define ISC_VERDICT_MIN_RUNS 3

/* One configuration's runs combined: the weighted mean, its Hartung-Knapp variance, the
 * between-run variance tau2 and the per-run variance (for planning: var * k with equal weights). */
struct isc_re_mean {
	double mean, var, tau2, run_var;
	size_t k;
	bool weighted;   /* false: a within-run variance was 0 or undefined, equal weights */
};

/* y[0..k) the runs' values, v[0..k) their within-run variances (NULL: equal weights). k >= 2. */
void isc_re_mean(const double *y, const double *v, size_t k, struct isc_re_mean *out);

enum isc_answer {
	ISC_ANSWER_NONE,          /* not a verdict (the reference, no values) */
	ISC_ANSWER_REFUSED,       /* no run-to-run spread to test against */
	ISC_ANSWER_UNTESTED,      /* outside the family (--primary names another comparison) */
	ISC_ANSWER_CHANGED,       /* adjusted p < alpha */
	ISC_ANSWER_EQUIVALENT,    /* TOST: adjusted p < alpha against the margin */
	ISC_ANSWER_INCONCLUSIVE,
};

/* One verdict: a difference with its standard error and df, and what the family made of it. */
struct isc_verdict {
	bool tested;              /* diff, se, df, p are defined (not refused) */
	bool in_family;
	const char *refusal;      /* static text when refused */
	double ref_value;         /* the reference's combined value (for a relative margin) */
	double diff, se, df, p, lo, hi;   /* lo, hi: the 95% CI */
	double run_var_ref, run_var;      /* per-run variance of each side (planning) */
	size_t k_ref, k;          /* runs on each side */
	double margin;            /* equivalence margin (> 0), NaN without one */
	const char *no_answer;    /* static text, set before settling: why this verdict cannot
				   * answer however small its p (it stays inconclusive) */
	/* set by isc_verdict_settle */
	double p_adj;             /* Holm-adjusted p (NaN outside the family) */
	double p_equiv, p_equiv_adj;      /* TOST p, raw and Holm-adjusted */
	double mde;               /* detectable at ISC_VERDICT_POWER at the family's level */
	long runs_needed;         /* per configuration for the margin; 0: more than the max; -1 n/a */
	size_t family;            /* the family's size */
	enum isc_answer answer;
	bool significant;         /* answer == ISC_ANSWER_CHANGED */
};

/* Compare configuration b against the reference a; level e.g. 0.95. Each side's variance is
 * at least the other side's per-run variance over its own runs (under no change both sides
 * vary alike; a side whose few runs agree by chance would otherwise look precise). A zero or
 * undefined standard error gives a refusal, never p = 0. */
void isc_verdict_compare(const struct isc_re_mean *a, const struct isc_re_mean *b, double level,
			struct isc_verdict *v);

/* Holm's step-down adjustment of p[0..n) into adj[0..n) (NaN entries stay NaN, not counted). */
void isc_holm_adjust(const double *p, size_t n, double *adj);

/* Adjust the family v[0..n) (Holm on p and on the TOST p) and give each its answer; members
 * not in_family that are tested get ISC_ANSWER_UNTESTED. */
void isc_verdict_settle(struct isc_verdict *const *v, size_t n, double alpha);

/* TOST p of diff against +-margin; the minimum detectable effect at two-sided level alpha and
 * the given power; the runs per configuration that detect margin (0: more than
 * ISC_VERDICT_RUNS_MAX, -1: no spread known). */
double isc_tost_p(double diff, double se, double df, double margin);
double isc_mde(double se, double df, double alpha, double power);
long isc_runs_needed(double run_var_a, double run_var_b, double margin, double alpha, double power);

/* Within-run standard error of the q-quantile of a sorted sample: the distribution-free
 * order-statistic interval of 95% (binomial positions n q -+ 1.96 sqrt(n q (1 - q))) divided
 * by 2 x 1.96. NaN with fewer than 2 values. */
double isc_quantile_se_sorted(const double *x, size_t n, double q);

#endif
