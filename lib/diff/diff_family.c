/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The family of verdicts of one call (docs/diff.md, "A family of verdicts"): every run-level
 * comparison of the tested parts (metric x med/99%/99.9% x configuration, per group when there
 * are groups) and the groups' shares, adjusted together by Holm's method; or the one
 * --primary comparison alone. The equivalence margin of each verdict comes from --margin.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "diff/diff_internal.h"
#include "text/util.h"

int isc_diff_parse_margin(const char *spec, struct isc_diff_margin *out)
{
	static const struct { const char *suffix; int kind; double scale; } units[] = {
		{ "%", ISC_MARGIN_RELATIVE, 0.01 }, { "ns", ISC_MARGIN_TIME_NS, 1 },
		{ "us", ISC_MARGIN_TIME_NS, 1e3 }, { "\u00b5s", ISC_MARGIN_TIME_NS, 1e3 },
		{ "ms", ISC_MARGIN_TIME_NS, 1e6 }, { "", ISC_MARGIN_BARE, 1 },
	};
	char *end;
	double x = strtod(spec, &end);
	for (size_t i = 0; end != spec && i < sizeof(units) / sizeof(units[0]); i++)
		if (!strcmp(end + strspn(end, " "), units[i].suffix) && x > 0 && isfinite(x)) {
			out->kind = units[i].kind;
			out->value = x * units[i].scale;
			return 0;
		}
	isc_err("diff: --margin '%s': expected a positive number, alone (the metric's unit) or "
	       "with %%, ns, us or ms", spec);
	return -1;
}

int isc_diff_parse_primary(const char *spec, struct isc_diff_primary *out)
{
	const char *c1 = strchr(spec, ':'), *c2 = c1 ? strchr(c1 + 1, ':') : NULL;
	size_t flen = c1 ? (c2 ? (size_t)(c2 - c1 - 1) : strlen(c1 + 1)) : 0;
	memset(out, 0, sizeof(*out));
	for (size_t k = 0; c1 && c1 > spec && k < ISC_DIFF_NQ; k++)
		if (strlen(isc_diff_q_name[k]) == flen && !strncmp(c1 + 1, isc_diff_q_name[k], flen)) {
			out->set = true;
			out->metric = isc_xstrndup(spec, (size_t)(c1 - spec));
			out->group = c2 ? isc_xstrdup(c2 + 1) : NULL;
			out->q = k;
			return 0;
		}
	isc_err("diff: --primary '%s': expected METRIC:FUNC[:GROUP] with FUNC med, 99%% or 99.9%%",
	       spec);
	return -1;
}

bool isc_diff_part_tested(const struct isc_diff *d, const struct isc_diff_part *p)
{
	return !p->descriptive && !(d->ngroups >= 2 && p == &d->overall);
}

bool isc_diff_is_primary(const struct isc_diff *d, const struct isc_diff_part *p, const char *metric,
			size_t q)
{
	const struct isc_diff_primary *pr = &d->primary;
	if (!pr->set)
		return isc_diff_part_tested(d, p);
	if (strcmp(pr->metric, metric) || pr->q != q)
		return false;
	return pr->group ? p->label && !strcmp(p->label, pr->group) : isc_diff_part_tested(d, p);
}

/* The margin of a verdict on a value of this unit: --margin, else ISC_DIFF_MARGIN_DEFAULT of
 * the reference's value. A share's margin is always relative. */
static double margin_for(const struct isc_diff *d, const char *unit, double ref, bool share)
{
	const struct isc_diff_margin *mg = &d->margin;
	double rel = mg->kind == ISC_MARGIN_RELATIVE ? mg->value : ISC_DIFF_MARGIN_DEFAULT;
	if (!share && mg->kind == ISC_MARGIN_BARE)
		return mg->value;
	if (!share && mg->kind == ISC_MARGIN_TIME_NS && !strcmp(unit, "us"))
		return mg->value / 1e3;
	if (!share && mg->kind == ISC_MARGIN_TIME_NS && !strcmp(unit, "ns"))
		return mg->value;
	double m = rel * fabs(ref);
	return m > 0 && isfinite(m) ? m : NAN;
}

void isc_diff_family_add(struct isc_diff *d, struct isc_verdict *v)
{
	if (!v->tested)
		return;
	d->family = isc_xrealloc(d->family, (d->nfamily + 1) * sizeof(*d->family));
	d->family[d->nfamily++] = v;
}

/* Copy each settled answer into the fields older callers read. */
static void sync_part(struct isc_diff *d, struct isc_diff_part *p)
{
	for (size_t cell = 0; cell < d->nmetrics * d->nconfigs; cell++) {
		struct isc_diff_test *t = &p->tests[cell];
		for (size_t k = 0; k < ISC_DIFF_NQ; k++)
			t->q[k].significant = t->q[k].valid && t->q[k].v.significant;
		t->significant = t->valid && t->level == ISC_LEVEL_RUN && t->q[0].significant;
	}
}

void isc_diff_family_settle(struct isc_diff *d)
{
	isc_verdict_settle(d->family, d->nfamily, ISC_DIFF_ALPHA);
	sync_part(d, &d->overall);
	for (size_t g = 0; g < d->ngroups; g++)
		sync_part(d, &d->groups[g]);
}

/* The run-level verdicts of part p that are candidates (tested part, or named by --primary);
 * an input shown for its values (isc_diff_opts.input_values) gives none. */
static void add_part(struct isc_diff *d, struct isc_diff_part *p)
{
	for (size_t m = 0; m < d->nmetrics; m++)
		for (size_t c = 1; c < d->nconfigs && !isc_diff_is_input(d, d->metrics[m]); c++) {
			struct isc_diff_test *t = &p->tests[m * d->nconfigs + c];
			if (!t->valid || t->level != ISC_LEVEL_RUN)
				continue;
			for (size_t k = 0; k < ISC_DIFF_NQ; k++) {
				struct isc_verdict *v = &t->q[k].v;
				if (!t->q[k].valid || !(isc_diff_part_tested(d, p) ||
							isc_diff_is_primary(d, p, d->metrics[m], k)))
					continue;
				v->margin = margin_for(d, d->units[m], v->ref_value, false);
				if (k > 0 && isc_diff_sizes_differ(d, c))
					v->no_answer = "the configurations' runs differ in size, and a "
						       "tail percentile's bias and skew with it "
						       "(--even-up compares like with like)";
				v->in_family = isc_diff_is_primary(d, p, d->metrics[m], k);
				isc_diff_family_add(d, v);
			}
		}
}

static void add_shares(struct isc_diff *d, size_t g)
{
	struct isc_diff_part *p = &d->groups[g];
	if (d->configs[0].nruns < 2)
		return;
	p->shares = isc_xcalloc(d->nconfigs, sizeof(*p->shares));
	for (size_t c = 1; c < d->nconfigs; c++) {
		struct isc_verdict *v = &p->shares[c];
		if (d->configs[c].nruns < 2)
			continue;
		diff_share_verdict(d, g, c, v);
		v->margin = margin_for(d, "", v->ref_value, true);
		v->in_family = !d->primary.set;
		isc_diff_family_add(d, v);
	}
}

/* --primary must name what is compared. */
static int check_primary(const struct isc_diff *d)
{
	const struct isc_diff_primary *pr = &d->primary;
	bool metric = false, group = !pr->group;
	for (size_t m = 0; m < d->nmetrics; m++)
		metric |= !strcmp(d->metrics[m], pr->metric);
	for (size_t g = 0; !group && g < d->ngroups; g++)
		group = !strcmp(d->groups[g].label, pr->group);
	if (metric && group)
		return 0;
	isc_err("diff: --primary: %s '%s' is not compared here", metric ? "group" : "metric",
	       metric ? pr->group : pr->metric);
	return -1;
}

int diff_family_build(struct isc_diff *d)
{
	if (d->primary.set && check_primary(d) < 0)
		return -1;
	if (d->ngroups == 1)
		d->groups[0].descriptive = true;
	add_part(d, &d->overall);
	for (size_t g = 0; g < d->ngroups; g++)
		add_part(d, &d->groups[g]);
	for (size_t g = 0; d->ngroups >= 2 && g < d->ngroups; g++)
		add_shares(d, g);
	isc_diff_family_settle(d);
	return 0;
}

int isc_diff_family_line(const struct isc_diff *d, char *buf, size_t len)
{
	size_t n = 0, untested = 0;
	for (size_t i = 0; i < d->nfamily; i++) {
		n += d->family[i]->in_family;
		untested += !d->family[i]->in_family;
	}
	if (d->primary.set)
		return snprintf(buf, len, "family: the primary comparison %s:%s%s%s against the "
				"reference, %zu verdict%s (Holm); %zu other run-level row%s "
				"descriptive (never \"significant\")", d->primary.metric,
				isc_diff_q_name[d->primary.q], d->primary.group ? ":" : "",
				d->primary.group ? d->primary.group : "", n, n == 1 ? "" : "s",
				untested, untested == 1 ? "" : "s");
	return snprintf(buf, len, "family: %zu run-level verdict%s (metric x med, 99%%, 99.9%% x "
			"configuration%s; 0/1 flags' shares), Holm-adjusted: a change is "
			"significant when its adjusted p < %.2g; --primary METRIC:FUNC tests one "
			"alone", n, n == 1 ? "" : "s",
			d->ngroups >= 2 ? ", per group, and the groups' shares" : "", ISC_DIFF_ALPHA);
}
