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

/* "median +8.8 us (+11.9%)" at the CI's resolution, and "95% CI [+8.5, +9.1]". */
static void change_and_ci(const struct isc_diff *d, const struct isc_diff_part *p, size_t m,
			  const struct isc_diff_test *t, size_t nmin, char *chg, size_t clen,
			  char *ci, size_t cilen)
{
	const char *unit = d->units[m];
	if (!strcmp(unit, "%"))
		unit = "";  /* "CC6%: median -0.3 (-0.3%)": the name says it already */
	int dec = decimals_for(t->ci_hi - t->ci_lo, t->med_diff), dmed = dec;
	if (t->med_diff != 0 && fabs(t->med_diff) < 0.5 * pow(10, -dec))
		dmed = decimals_for(0, t->med_diff * 100);  /* a change that rounds to 0: one digit */
	double med_ref = p->medians[m * d->nconfigs];
	char pct[48] = "", x[40], y[40];
	if (med_ref != 0 && !isnan(med_ref))
		snprintf(pct, sizeof(pct), " (%s%%)",
			 fmt_num(x, sizeof(x), 100 * (t->med_diff / fabs(med_ref)), 1));
	snprintf(chg, clen, "median %s%s%s%s", fmt_num(x, sizeof(x), t->med_diff, dmed),
		 *unit ? " " : "", unit, pct);
	if (isnan(t->ci_lo))
		snprintf(ci, cilen, "95%% CI n/a (%zu value%s)", nmin, nmin == 1 ? "" : "s");
	else
		snprintf(ci, cilen, "95%% CI [%s, %s]", fmt_num(x, sizeof(x), t->ci_lo, dec),
			 fmt_num(y, sizeof(y), t->ci_hi, dec));
}

/* Replicated: the verdict is Welch's t on the runs' medians. */
static int run_verdict(const struct isc_diff *d, const struct isc_diff_part *p, size_t m,
		       const struct isc_diff_test *t, char *buf, size_t len)
{
	const char *metric = d->metrics[m], *ref = d->configs[0].name;
	char chg[96], ci[96], pv[32];
	if (!t->q[0].valid)
		return snprintf(buf, len, "%s: no run-level comparison vs %s (%zu vs %zu runs): a run "
				"has no values here", metric, ref, t->rep_ref, t->rep);
	change_and_ci(d, p, m, t, 0, chg, sizeof(chg), ci, sizeof(ci));
	fmt_p(pv, sizeof(pv), t->q[0].p);
	return snprintf(buf, len, "%s: %s vs %s (%zu vs %zu runs), %s, %s (Welch t on run medians, "
			"%s)", metric, chg, ref, t->rep_ref, t->rep, ci,
			t->significant ? "significant" : "no significant change", pv);
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
	char chg[96], ci[96], pv[32];
	change_and_ci(d, p, m, t, nref < n ? nref : n, chg, sizeof(chg), ci, sizeof(ci));
	fmt_p(pv, sizeof(pv), t->mw_p);
	const char *word = t->differs ? "differs in these runs" : "no difference in these runs";
	const char *why = t->differs || t->mw_p >= ISC_DIFF_ALPHA ? ""
			  : isnan(t->ci_lo) ? ", but too few values for a CI" : ", but the CI includes 0";
	return snprintf(buf, len, "%s: %s vs %s, %s%s, %s (Mann\u2013Whitney %s%s); %s",
			metric, chg, ref, ci, isnan(t->ci_lo) ? "" : " (block bootstrap)", word, pv,
			why, ISC_DIFF_ONE_RUN_NOTE);
}
