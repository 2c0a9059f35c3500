/* SPDX-License-Identifier: GPL-2.0-only */
/* The plain-language verdict line of a comparison, and the units it speaks in. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "diff/diff.h"

bool isc_is_raw_timestamp(const char *name)
{
	static const char *const raw[] = { "LTime", "TBI", "TAI", "TIntr", "TBI1", "TAI1" };
	for (size_t i = 0; i < sizeof(raw) / sizeof(raw[0]); i++)
		if (!strcmp(name, raw[i]))
			return true;
	return false;
}

const char *isc_metric_unit(const struct isc_run *r, const char *metric)
{
	const cJSON *units = r->info ? cJSON_GetObjectItemCaseSensitive(r->info, "units") : NULL;
	const cJSON *u = cJSON_GetObjectItemCaseSensitive(units, metric);
	size_t len = strlen(metric);
	if (cJSON_IsString(u))
		return u->valuestring;
	if (len && metric[len - 1] == '%')
		return "%";
	if (isc_is_raw_timestamp(metric))
		return "ns";
	if (strstr(metric, "Latency") || !strcmp(metric, "SilentTime") || !strcmp(metric, "LDist"))
		return "us";
	return "";
}

/* Decimals that show a change at the CI's resolution: one significant digit of the margin
 * (half the interval's width); three significant digits of x when there is no interval. */
static int decimals_for(double width, double x)
{
	double ref = width > 0 && isfinite(width) ? width / 2 : fabs(x) / 100;
	if (!(ref > 0) || !isfinite(ref))
		return 1;
	int dec = (int)-floor(log10(ref));
	return dec < 0 ? 0 : dec > 9 ? 9 : dec;
}

/* The change gets the CI's decimals, and at least two significant digits of its own, so that
 * changes the CI cannot tell apart still read apart (+0.57 us, not +1 us; issue 24). */
static int change_decimals(double x, int dec)
{
	if (x == 0 || !isfinite(x))
		return dec;
	int own = 1 - (int)floor(log10(fabs(x)));
	own = own > 9 ? 9 : own;
	return own > dec ? own : dec;
}

/* x with dec decimals and a sign; from 1e15 on in exponent form with 6 digits, so that a
 * change near DBL_MAX is "+1.5e+308", not 309 digits. */
static const char *fmt_num(char *buf, size_t len, double x, int dec)
{
	if (fabs(x) < 1e15)
		snprintf(buf, len, "%+.*f", dec, x);
	else
		snprintf(buf, len, "%+.6g", x);
	return buf;
}

static void fmt_p(char *buf, size_t len, double p)
{
	if (p < 1e-300)
		snprintf(buf, len, "p < 1e-300");
	else
		snprintf(buf, len, "p = %.2g", p);
}

/* "median +8.8 us (+11.9%)" at the CI's resolution, and "LABEL [+8.5, +9.1]". */
static void change_and_ci(const struct isc_diff *d, const struct isc_diff_part *p, size_t m,
			  const struct isc_diff_test *t, size_t nmin, const char *label, char *chg,
			  size_t clen, char *ci, size_t cilen)
{
	const char *unit = d->units[m];
	if (!strcmp(unit, "%"))
		unit = "";  /* "CC6%: median -0.3 (-0.3%)": the name says it already */
	int dec = decimals_for(t->ci_hi - t->ci_lo, t->med_diff);
	int dmed = change_decimals(t->med_diff, dec);
	double med_ref = p->medians[m * d->nconfigs];
	char pct[48] = "", x[40], y[40];
	if (med_ref != 0 && !isnan(med_ref))
		snprintf(pct, sizeof(pct), " (%s%%)",
			 fmt_num(x, sizeof(x), 100 * (t->med_diff / fabs(med_ref)), 1));
	snprintf(chg, clen, "median %s%s%s%s", fmt_num(x, sizeof(x), t->med_diff, dmed),
		 *unit ? " " : "", unit, pct);
	if (isnan(t->ci_lo))
		snprintf(ci, cilen, "%s n/a (%zu value%s)", label, nmin, nmin == 1 ? "" : "s");
	else
		snprintf(ci, cilen, "%s [%s, %s]", label, fmt_num(x, sizeof(x), t->ci_lo, dec),
			 fmt_num(y, sizeof(y), t->ci_hi, dec));
}

/* An amount in the metric's unit, 3 significant digits: "2.00 us". */
static const char *amount(char *buf, size_t len, double x, const char *unit)
{
	if (!strcmp(unit, "%"))
		unit = "";
	snprintf(buf, len, "%.3g%s%s", x, *unit ? " " : "", unit);
	return buf;
}

/* "; 8 runs per configuration would detect 2 us (the margin)" (at least ISC_VERDICT_MIN_RUNS),
 * "; more than 1000 ...", or nothing without a margin. */
static void runs_clause(const struct isc_verdict *v, const char *unit, char *buf, size_t len)
{
	char y[48];
	long n = v->runs_needed < ISC_VERDICT_MIN_RUNS ? ISC_VERDICT_MIN_RUNS : v->runs_needed;
	amount(y, sizeof(y), v->margin, unit);
	if (v->runs_needed > 0)
		snprintf(buf, len, "; %ld runs per configuration would detect %s (the margin)", n, y);
	else if (v->runs_needed == 0)
		snprintf(buf, len, "; more than %d runs per configuration would be needed to detect %s "
			 "(the margin)", ISC_VERDICT_RUNS_MAX, y);
	else
		buf[0] = 0;
}

/* What the family made of one run-level verdict: "changed: significant (Holm ...)", "no change
 * larger than X ...", "inconclusive: ...", "not tested ..." (what = "run medians"). */
int isc_verdict_words(const struct isc_verdict *v, const char *unit, const char *what, char *buf,
		     size_t len)
{
	char pv[32], pa[32], x[48], y[48], need[192] = "";
	fmt_p(pv, sizeof(pv), v->p);
	fmt_p(pa, sizeof(pa), v->p_adj);
	if (v->answer == ISC_ANSWER_REFUSED || !v->tested)
		return snprintf(buf, len, "no test: %s", v->refusal ? v->refusal : "no values");
	if (v->answer == ISC_ANSWER_UNTESTED)
		return snprintf(buf, len, "not tested: outside the family (--primary names another "
				"comparison; random-effects t on %s, unadjusted %s)", what, pv);
	if (v->answer == ISC_ANSWER_CHANGED)
		return snprintf(buf, len, "changed: significant (Holm-adjusted %s in a family of %zu; "
				"random-effects t on %s, %s)", pa, v->family, what, pv);
	amount(x, sizeof(x), v->mde, unit);
	if (v->answer == ISC_ANSWER_EQUIVALENT) {
		fmt_p(pa, sizeof(pa), v->p_equiv_adj);
		return snprintf(buf, len, "no change larger than %s (equivalence, TOST: Holm-adjusted "
				"%s); this design detects changes larger than %s (random-effects t "
				"on %s, %s)", amount(y, sizeof(y), v->margin, unit), pa, x, what, pv);
	}
	runs_clause(v, unit, need, sizeof(need));
	if (v->no_answer)
		return snprintf(buf, len, "inconclusive: %s (random-effects t on %s, %s)",
				v->no_answer, what, pv);
	if (v->k_ref < ISC_VERDICT_MIN_RUNS || v->k < ISC_VERDICT_MIN_RUNS)
		return snprintf(buf, len, "inconclusive: %zu vs %zu runs cannot show the shape of the "
				"run-to-run variation (a verdict needs %d or more a side); if run "
				"effects are normal this design detects changes larger than %s%s "
				"(random-effects t on %s, %s)", v->k_ref, v->k, ISC_VERDICT_MIN_RUNS, x,
				need, what, pv);
	return snprintf(buf, len, "inconclusive: this design detects only changes larger than %s "
			"(%.0f%% power at the family's level)%s (random-effects t on %s, %s, "
			"Holm-adjusted %s)", x, 100 * ISC_VERDICT_POWER, need, what, pv, pa);
}

/* Why a part has no verdicts of its own. */
static const char *descriptive_why(const struct isc_diff *d, const struct isc_diff_part *p)
{
	if (p == &d->overall)
		return "descriptive: all groups together are a mixture whose group shares vary from "
		       "run to run, not a quantity a setting shifts; the verdicts are per group";
	return "descriptive: the only group, the same comparison as all datapoints";
}

/* Replicated: the runs' medians combined by precision, and the family's answer. */
static int run_verdict(const struct isc_diff *d, const struct isc_diff_part *p, size_t m,
		       const struct isc_diff_test *t, char *buf, size_t len)
{
	const char *metric = d->metrics[m], *ref = d->configs[0].name;
	char chg[96], ci[128], words[512];
	if (!t->q[0].valid)
		return snprintf(buf, len, "%s: no run-level comparison vs %s (%zu vs %zu runs): a run "
				"has no values here", metric, ref, t->rep_ref, t->rep);
	bool few = t->rep_ref < ISC_VERDICT_MIN_RUNS || t->rep < ISC_VERDICT_MIN_RUNS;
	change_and_ci(d, p, m, t, 0, few ? "95% CI if run effects are normal" : "95% CI", chg,
		      sizeof(chg), ci, sizeof(ci));
	if (!t->q[0].v.tested)
		return snprintf(buf, len, "%s: %s vs %s (%zu vs %zu runs): no test: %s", metric, chg,
				ref, t->rep_ref, t->rep, t->q[0].v.refusal);
	if (!isc_diff_part_tested(d, p) && !t->q[0].v.in_family)
		snprintf(words, sizeof(words), "%s", descriptive_why(d, p));
	else
		isc_verdict_words(&t->q[0].v, d->units[m], "run medians", words, sizeof(words));
	return snprintf(buf, len, "%s: %s vs %s (%zu vs %zu runs), %s, %s", metric, chg, ref,
			t->rep_ref, t->rep, ci, words);
}

/* The end of a one-run verdict: which side has one run. */
static void one_run_note(const struct isc_diff *d, const struct isc_diff_test *t, size_t c,
			 char *buf, size_t len)
{
	if (t->rep_ref == 1 && t->rep == 1)
		snprintf(buf, len, "%s", ISC_DIFF_ONE_RUN_NOTE);
	else
		snprintf(buf, len, "%s has one run (%zu vs %zu runs), so run-to-run variation is "
			 "unknown: for a verdict, repeat its runs (collect --matrix ... --repeat 3)",
			 d->configs[t->rep_ref == 1 ? 0 : c].name, t->rep_ref, t->rep);
}

int isc_diff_verdict(const struct isc_diff *d, const struct isc_diff_part *p, size_t m, size_t c,
		    char *buf, size_t len)
{
	const char *metric = d->metrics[m], *ref = d->configs[0].name;
	const struct isc_diff_test *t = isc_diff_get_test(d, p, m, c);
	size_t nref = p->nvals[m * d->nconfigs], n = p->nvals[m * d->nconfigs + c];
	if (!t)
		return snprintf(buf, len, "%s: no comparison vs %s (no values in %s)", metric, ref,
				nref ? d->configs[c].name : ref);
	if (t->level == ISC_LEVEL_RUN)
		return run_verdict(d, p, m, t, buf, len);
	char chg[96], ci[128], pv[32], note[256];
	change_and_ci(d, p, m, t, nref < n ? nref : n, "within-run 95% interval", chg, sizeof(chg),
		      ci, sizeof(ci));
	fmt_p(pv, sizeof(pv), t->mw_p);
	one_run_note(d, t, c, note, sizeof(note));
	const char *word = t->differs ? "differs in these runs" : "no difference in these runs";
	const char *why = t->differs || t->mw_p >= ISC_DIFF_ALPHA ? ""
			  : isnan(t->ci_lo) ? ", but too few values for an interval"
			  : ", but the interval includes 0";
	return snprintf(buf, len, "%s: %s vs %s, %s%s, %s (Mann\u2013Whitney %s%s); %s",
			metric, chg, ref, ci, isnan(t->ci_lo) ? ""
			: " (block bootstrap; run-to-run variation unknown)", word, pv, why, note);
}
