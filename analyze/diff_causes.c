/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * analyze diff --causes: per configuration (its runs pooled), the datapoints above its own
 * P% and at or below it by cause, as analyze stats --causes; per other configuration and
 * band, each cause's change of share against the reference, its p (isc_cause_change: Welch's
 * t on the runs' shares with two or more runs a side, else the two-proportion test of the
 * datapoints) and Holm's adjustment over the causes of that band and configuration.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stats/verdict.h"
#include "text/util.h"
#include "causes_states.h"
#include "diff_causes.h"

#define ALPHA 0.05

static size_t idx(const struct diff_causes_metric *m, size_t cfg, size_t band, size_t k)
{
	return (cfg * 2 + band) * m->nnames + k;
}

static void add_name(struct diff_causes_metric *m, const char *name)
{
	for (size_t i = 0; i < m->nnames; i++)
		if (!strcmp(m->names[i], name))
			return;
	m->names = isc_xrealloc(m->names, (m->nnames + 1) * sizeof(char *));
	m->names[m->nnames++] = isc_xstrdup(name);
}

/* The union of the configurations' causes in the order of one breakdown: by family, the most
 * frequent over all configurations first, then by name. */
static const struct diff_causes_metric *sort_metric;
static size_t sort_nconfigs;

static size_t total_of(const char *name)
{
	size_t n = 0;
	for (size_t c = 0; c < sort_nconfigs; c++) {
		const struct isc_cause *e = isc_causes_find(&sort_metric->pooled[c], name);
		n += e ? e->n[0] + e->n[1] : 0;
	}
	return n;
}

static int cmp_name(const void *a, const void *b)
{
	const char *x = *(const char *const *)a, *y = *(const char *const *)b;
	int fx = isc_cause_family_rank(x), fy = isc_cause_family_rank(y);
	size_t nx = total_of(x), ny = total_of(y);
	if (fx != fy)
		return fx - fy;
	if (nx != ny)
		return nx > ny ? -1 : 1;
	return strcmp(x, y);
}

static void sort_names(struct diff_causes_metric *m, size_t nconfigs)
{
	sort_metric = m;
	sort_nconfigs = nconfigs;
	qsort(m->names, m->nnames, sizeof(*m->names), cmp_name);
}

static void breakdowns(struct diff_causes_metric *m, const struct isc_diff *d, double pct)
{
	const struct isc_table **t = isc_xcalloc(d->nruns + 1, sizeof(*t));

	m->pooled = isc_xcalloc(d->nconfigs, sizeof(*m->pooled));
	m->per_run = isc_xcalloc(d->nruns, sizeof(*m->per_run));
	for (size_t r = 0; r < d->nruns; r++) {
		t[r] = d->runs[r]->dp;
		isc_causes_compute(&t[r], 1, m->name, &pct, 1, &m->per_run[r]);
	}
	for (size_t c = 0; c < d->nconfigs; c++) {
		const struct isc_diff_config *cf = &d->configs[c];
		for (size_t i = 0; i < cf->nruns; i++)
			t[i] = d->runs[cf->runs[i]]->dp;
		isc_causes_compute(t, cf->nruns, m->name, &pct, 1, &m->pooled[c]);
		for (size_t i = 0; i < m->pooled[c].nc; i++)
			add_name(m, m->pooled[c].c[i].name);
	}
	sort_names(m, d->nconfigs);
	free(t);
}

static const struct isc_causes **runs_of(const struct diff_causes_metric *m, const struct isc_diff *d,
					 size_t c)
{
	const struct isc_causes **v = isc_xcalloc(d->configs[c].nruns + 1, sizeof(*v));
	for (size_t i = 0; i < d->configs[c].nruns; i++)
		v[i] = &m->per_run[d->configs[c].runs[i]];
	return v;
}

/* The first run of configuration c without the count column cause name needs, or NULL. */
static const char *unmeasured_run(const struct isc_diff *d, size_t c, const char *name)
{
	int k = isc_cause_column_of(name);
	for (size_t i = 0; k >= 0 && i < d->configs[c].nruns; i++) {
		const struct isc_run *run = d->runs[d->configs[c].runs[i]];
		struct isc_cause_cols cc;
		if (!isc_cause_cols_find(run->dp, &cc) || !cc.cnt[k])
			return run->name;
	}
	return NULL;
}

/* The run that lacks the cause's column, the reference's first: no test then. */
static const char *unmeasured_in(const struct isc_diff *d, size_t c, const char *name)
{
	const char *r = unmeasured_run(d, 0, name);
	return r ? r : unmeasured_run(d, c, name);
}

static void changes(struct diff_causes_metric *m, const struct isc_diff *d)
{
	size_t total = d->nconfigs * 2 * m->nnames;
	const struct isc_causes **ref = runs_of(m, d, 0);
	double *p = isc_xcalloc(m->nnames + 1, sizeof(double));

	m->chg = isc_xcalloc(total + 1, sizeof(*m->chg));
	m->p_adj = isc_xcalloc(total + 1, sizeof(double));
	for (size_t c = 1; c < d->nconfigs; c++) {
		const struct isc_causes **oth = runs_of(m, d, c);
		for (size_t b = 0; b < 2; b++) {
			for (size_t k = 0; k < m->nnames; k++) {
				struct isc_cause_change *ch = &m->chg[idx(m, c, b, k)];
				isc_cause_change(&m->pooled[0], ref, d->configs[0].nruns, &m->pooled[c], oth,
						 d->configs[c].nruns, m->names[k], b, ch);
				if (unmeasured_in(d, c, m->names[k]))
					*ch = (struct isc_cause_change){ NAN, NAN, NULL };
				p[k] = ch->p;
			}
			isc_holm_adjust(p, m->nnames, &m->p_adj[idx(m, c, b, 0)]);
		}
		free(oth);
	}
	free(ref);
	free(p);
}

static bool latency(const char *name)
{
	return !strcmp(name, "WakeLatency") || !strcmp(name, "IntrLatency");
}

int diff_causes_compute(struct diff_causes *dc, const struct isc_diff *d, double pct, bool metrics_re)
{
	memset(dc, 0, sizeof(*dc));
	dc->pct = pct;
	for (size_t r = 0; r < d->nruns; r++) {
		struct isc_cause_cols cc;
		if (!isc_cause_cols_find(d->runs[r]->dp, &cc)) {
			isc_err("%s: --causes: no cause column (IRQCnt, SWIRQCnt, NMICnt, SMICnt): collect "
				"with --method bpf, hrt or tdt, without --no-causes", d->runs[r]->dp_path);
			return -1;
		}
		causes_warn_states(d->runs[r]->dp);
	}
	dc->m = isc_xcalloc(d->nmetrics + 1, sizeof(*dc->m));
	for (size_t i = 0; i < d->nmetrics; i++) {
		if (!metrics_re && !latency(d->metrics[i]))
			continue;
		struct diff_causes_metric *m = &dc->m[dc->nm++];
		m->name = d->metrics[i];
		breakdowns(m, d, pct);
		changes(m, d);
	}
	return 0;
}

void diff_causes_free(struct diff_causes *dc)
{
	for (size_t i = 0; i < dc->nm; i++) {
		struct diff_causes_metric *m = &dc->m[i];
		for (size_t k = 0; k < m->nnames; k++)
			free(m->names[k]);
		free(m->names);
		free(m->pooled);
		free(m->per_run);
		free(m->chg);
		free(m->p_adj);
	}
	free(dc->m);
	memset(dc, 0, sizeof(*dc));
}

/* Text */

static double share(const struct isc_causes *cs, const char *name, size_t band)
{
	const struct isc_cause *c = isc_causes_find(cs, name);
	return cs->band[band] ? (double)(c ? c->n[band] : 0) / (double)cs->band[band] : NAN;
}

static bool measured(const struct isc_causes *cs, const char *name)
{
	int k = isc_cause_column_of(name);
	return k < 0 || ((cs->measured >> k) & 1);
}

static const char *answer(const struct isc_cause_change *ch, double p_adj, const char *unmeasured,
			  char *buf, size_t size)
{
	if (unmeasured) {
		snprintf(buf, size, "not measured in %s", unmeasured);
		return buf;
	}
	if (!ch->method || isnan(p_adj))
		return "untested";
	if (p_adj >= ALPHA)
		return "-";
	return strcmp(ch->method, "welch-t-run-shares") ? "differs in these runs" : "changed";
}

static bool steal_class_shown(const struct diff_causes_metric *m, const struct isc_diff *d)
{
	for (size_t c = 0; c < d->nconfigs; c++)
		if ((m->pooled[c].measured >> ISC_CNT_STEAL) & 1)
			return true;
	return false;
}

/* The exclusive classes' shares per configuration (no test: the families carry the tests). */
static void text_parts(FILE *f, const struct diff_causes_metric *m, const struct isc_diff *d, size_t b)
{
	fprintf(f, "  exclusive classes (each datapoint in one)\n");
	for (size_t k = 0; k < ISC_NPARTS; k++) {
		if (k == ISC_PART_STEAL && !steal_class_shown(m, d))
			continue;
		fprintf(f, "  %-24s", isc_part_names[k]);
		for (size_t c = 0; c < d->nconfigs; c++) {
			const struct isc_causes *cs = &m->pooled[c];
			if (k == ISC_PART_STEAL && !((cs->measured >> ISC_CNT_STEAL) & 1))
				fprintf(f, " %12s", "not measured");
			else
				fprintf(f, " %11.1f%%", cs->band[b] ? 100.0 * (double)cs->part[b][k] /
					(double)cs->band[b] : NAN);
		}
		fputc('\n', f);
	}
}

static void text_band(FILE *f, const struct diff_causes_metric *m, const struct isc_diff *d, size_t b)
{
	fprintf(f, "  %s (shares; then per configuration its change in points against %s)\n  %-24s",
		b ? "above" : "at or below", d->configs[0].name, "cause");
	for (size_t c = 0; c < d->nconfigs; c++)
		fprintf(f, " %12.12s", d->configs[c].name);
	for (size_t c = 1; c < d->nconfigs; c++)
		fprintf(f, "   %10.10s %9s %9s %s", d->configs[c].name, "p", "p_adj", "answer");
	fprintf(f, "\n  %-24s", "all (rows)");
	for (size_t c = 0; c < d->nconfigs; c++)
		fprintf(f, " %12zu", m->pooled[c].band[b]);
	fputc('\n', f);
	for (size_t k = 0; k < m->nnames; k++) {
		fprintf(f, "  %-24s", m->names[k]);
		for (size_t c = 0; c < d->nconfigs; c++)
			if (measured(&m->pooled[c], m->names[k]))
				fprintf(f, " %11.1f%%", 100 * share(&m->pooled[c], m->names[k], b));
			else
				fprintf(f, " %12s", "not measured");
		for (size_t c = 1; c < d->nconfigs; c++) {
			const struct isc_cause_change *ch = &m->chg[idx(m, c, b, k)];
			double pa = m->p_adj[idx(m, c, b, k)];
			const char *lack = unmeasured_in(d, c, m->names[k]);
			char buf[160];
			if (lack)
				fprintf(f, "   %10s %9s %9s %s", "-", "-", "-", answer(ch, pa, lack, buf, sizeof(buf)));
			else
				fprintf(f, "   %+6.1f pts %9.2g %9.2g %s", 100 * ch->diff, ch->p, pa,
					answer(ch, pa, NULL, buf, sizeof(buf)));
		}
		fputc('\n', f);
	}
	text_parts(f, m, d, b);
}

static const char *level_text(const struct isc_diff *d)
{
	for (size_t c = 0; c < d->nconfigs; c++)
		if (d->configs[c].nruns < 2)
			return "one run in a configuration: the two-proportion test of the datapoints "
			       "(Fisher's exact test when an expected cell\n  is below 5, else z with the "
			       "variance of a share above an estimated percentile); run-to-run variation is\n"
			       "  unknown, so a small p says these runs differ";
	return "Welch's t on the runs' shares (each run's band at its own percentile; the run is "
	       "the unit of replication)";
}

void diff_causes_text(FILE *f, const struct diff_causes *dc, const struct isc_diff *d)
{
	for (size_t i = 0; i < dc->nm; i++) {
		const struct diff_causes_metric *m = &dc->m[i];
		fprintf(f, "\n%s by cause, above each configuration's %g%% and at or below it\n", m->name, dc->pct);
		for (size_t c = 0; c < d->nconfigs; c++) {
			char fams[64];
			isc_causes_family_list(m->pooled[c].measured, fams, sizeof(fams));
			fprintf(f, "  %s: %g%% %.3f, clean median %.3f (%zu datapoints with no %s in the "
				"window)\n", d->configs[c].name, dc->pct, m->pooled[c].thr[0],
				m->pooled[c].clean_med, m->pooled[c].nclean, fams);
		}
		fprintf(f, "  p: %s;\n  p_adj: Holm over the causes of one band and configuration\n",
			level_text(d));
		text_band(f, m, d, 1);
		text_band(f, m, d, 0);
	}
}

/* JSON */

static cJSON *num_or_null(double v)
{
	return isfinite(v) ? cJSON_CreateNumber(v) : cJSON_CreateNull();
}

static const char *const band_name[2] = { "at_or_below", "above" };

/* The exclusive classes of band b of configuration c; "steal only" as in the text. */
static void parts_json(cJSON *jb, const struct diff_causes_metric *m, const struct isc_diff *d, size_t c,
		       size_t b)
{
	const struct isc_causes *cs = &m->pooled[c];
	cJSON *jp = cJSON_AddObjectToObject(jb, "classes");
	for (size_t k = 0; k < ISC_NPARTS; k++) {
		bool known = k != ISC_PART_STEAL || ((cs->measured >> ISC_CNT_STEAL) & 1);
		if (k == ISC_PART_STEAL && !steal_class_shown(m, d))
			continue;
		cJSON *e = cJSON_AddObjectToObject(jp, isc_part_names[k]);
		cJSON_AddNumberToObject(e, "rows", (double)cs->part[b][k]);
		cJSON_AddItemToObject(e, "share", num_or_null(known && cs->band[b] ?
			(double)cs->part[b][k] / (double)cs->band[b] : NAN));
	}
}

static cJSON *config_json(const struct diff_causes_metric *m, const struct isc_diff *d, size_t c)
{
	const struct isc_causes *cs = &m->pooled[c];
	cJSON *o = cJSON_CreateObject();

	cJSON_AddStringToObject(o, "name", d->configs[c].name);
	cJSON_AddItemToObject(o, "threshold", num_or_null(cs->thr[0]));
	cJSON_AddItemToObject(o, "clean_median", num_or_null(cs->clean_med));
	cJSON_AddNumberToObject(o, "clean_rows", (double)cs->nclean);
	for (int b = 1; b >= 0; b--) {
		cJSON *jb = cJSON_AddObjectToObject(o, band_name[b]);
		cJSON_AddNumberToObject(jb, "rows", (double)cs->band[b]);
		cJSON *jc = cJSON_AddObjectToObject(jb, "causes");
		for (size_t k = 0; k < m->nnames; k++) {
			const struct isc_cause *e = isc_causes_find(cs, m->names[k]);
			size_t n = e ? e->n[b] : 0;
			cJSON *je = cJSON_AddObjectToObject(jc, m->names[k] + strspn(m->names[k], " "));
			bool known = measured(cs, m->names[k]);
			cJSON_AddNumberToObject(je, "rows", (double)n);
			cJSON_AddItemToObject(je, "share", num_or_null(known ? share(cs, m->names[k], (size_t)b) : NAN));
			cJSON_AddItemToObject(je, "excess_mean", num_or_null(n ? e->excess[b] / (double)n : NAN));
			if (!known)
				cJSON_AddStringToObject(je, "not_measured_in", unmeasured_run(d, c, m->names[k]));
		}
		parts_json(jb, m, d, c, (size_t)b);
	}
	return o;
}

static cJSON *change_json(const struct diff_causes_metric *m, const struct isc_diff *d, size_t c)
{
	cJSON *o = cJSON_CreateObject();
	for (int b = 1; b >= 0; b--) {
		cJSON *jb = cJSON_AddObjectToObject(o, band_name[b]);
		for (size_t k = 0; k < m->nnames; k++) {
			const struct isc_cause_change *ch = &m->chg[idx(m, c, (size_t)b, k)];
			double pa = m->p_adj[idx(m, c, (size_t)b, k)];
			cJSON *je = cJSON_AddObjectToObject(jb, m->names[k] + strspn(m->names[k], " "));
			cJSON_AddItemToObject(je, "diff", num_or_null(ch->diff));
			cJSON_AddItemToObject(je, "p", num_or_null(ch->p));
			cJSON_AddItemToObject(je, "p_adj", num_or_null(pa));
			if (ch->method)
				cJSON_AddStringToObject(je, "method", ch->method);
			else
				cJSON_AddNullToObject(je, "method");
			cJSON_AddBoolToObject(je, "beyond_chance", ch->method && pa < ALPHA);
			if (unmeasured_in(d, c, m->names[k]))
				cJSON_AddStringToObject(je, "not_measured_in", unmeasured_in(d, c, m->names[k]));
		}
	}
	return o;
}

cJSON *diff_causes_json(const struct diff_causes *dc, const struct isc_diff *d)
{
	cJSON *root = cJSON_CreateObject();
	for (size_t i = 0; i < dc->nm; i++) {
		const struct diff_causes_metric *m = &dc->m[i];
		cJSON *jm = cJSON_AddObjectToObject(root, m->name);
		cJSON *jc = cJSON_AddArrayToObject(jm, "configs");
		cJSON *jx = cJSON_AddArrayToObject(jm, "changes");
		cJSON_AddNumberToObject(jm, "pct", dc->pct);
		for (size_t c = 0; c < d->nconfigs; c++) {
			cJSON_AddItemToArray(jc, config_json(m, d, c));
			cJSON_AddItemToArray(jx, c ? change_json(m, d, c) : cJSON_CreateNull());
		}
	}
	return root;
}
