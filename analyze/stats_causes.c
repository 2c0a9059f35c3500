// SPDX-License-Identifier: GPL-2.0-only
/*
 * analyze stats --causes. For a metric M and a percentile P: T = P% of M's values (the
 * interpolation of --funcs); the clean datapoints are those with every count column that
 * the run has (IRQCnt, SWIRQCnt, NMICnt, SMICnt) at 0, and C their median of M. Then for the
 * band above T and the band at or below it: per cause, the datapoints with it, their share
 * of the band and the mean of M - C over them (the latency above the clean median that goes
 * with that cause). The causes overlap (a window can hold an IRQ and a softirq); "none" does
 * not overlap the others.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "stats/stats.h"
#include "text/util.h"
#include "stats_causes.h"

#define MAX_CAUSES 64

static const char *const count_cols[] = { "IRQCnt", "SWIRQCnt", "NMICnt", "SMICnt" };
#define NCOUNT (sizeof(count_cols) / sizeof(count_cols[0]))

const char *const stats_cause_columns[] = { "IRQCnt", "SWIRQCnt", "NMICnt", "SMICnt", "IRQTop",
					    "SWIRQTypes", NULL };

struct cause {
	char name[48];
	size_t n[2];        /* datapoints with it: [0] at or below T, [1] above */
	double excess[2];   /* sum of M - C */
};

struct causes {
	struct cause c[MAX_CAUSES];
	size_t nc;
	size_t band[2];
};

static struct cause *cause_get(struct causes *cs, const char *name)
{
	for (size_t i = 0; i < cs->nc; i++)
		if (!strcmp(cs->c[i].name, name))
			return &cs->c[i];
	if (cs->nc == MAX_CAUSES)
		return NULL;   /* more distinct sources than that: the rest are in their family */
	struct cause *c = &cs->c[cs->nc++];
	memset(c, 0, sizeof(*c));
	snprintf(c->name, sizeof(c->name), "%s", name);
	return c;
}

static void add(struct causes *cs, const char *name, int band, double excess)
{
	struct cause *c = cause_get(cs, name);
	if (c) {
		c->n[band]++;
		c->excess[band] += excess;
	}
}

static bool has(const struct isc_column *col, size_t row)
{
	return col && !isnan(col->num[row]) && col->num[row] > 0;
}

static const char *text(const struct isc_table *t, const struct isc_column *col, size_t row)
{
	if (!col || col->type != ISC_COL_TEXT || col->text[row] == ISC_TEXT_EMPTY)
		return "";
	return isc_table_str(t, col->text[row]);
}

/* One datapoint's causes, into its band. */
static void classify(const struct isc_table *t, const struct isc_column *const cnt[NCOUNT],
		     const struct isc_column *top, const struct isc_column *types, size_t row,
		     int band, double excess, struct causes *cs)
{
	static const char *const family[NCOUNT] = { "IRQ", "softirq", "NMI", "SMI" };
	char name[48], list[128];
	bool any = false;

	for (size_t k = 0; k < NCOUNT; k++) {
		if (!has(cnt[k], row))
			continue;
		any = true;
		add(cs, family[k], band, excess);
	}
	if (has(cnt[0], row) && *text(t, top, row)) {
		snprintf(name, sizeof(name), "  IRQ %.30s", text(t, top, row));
		add(cs, name, band, excess);
	}
	snprintf(list, sizeof(list), "%s", has(cnt[1], row) ? text(t, types, row) : "");
	for (char *save = NULL, *s = strtok_r(list, "+", &save); s; s = strtok_r(NULL, "+", &save)) {
		snprintf(name, sizeof(name), "  softirq %.30s", s);
		add(cs, name, band, excess);
	}
	if (!any)
		add(cs, "none", band, excess);
	cs->band[band]++;
}

/* Output order: IRQ, its sources, softirq, its types, NMI, SMI, none; within a family the most
 * frequent first, then by name. */
static int family_rank(const char *name)
{
	static const char *const order[] = { "IRQ", "  IRQ ", "softirq", "  softirq ", "NMI", "SMI", "none" };
	for (int i = 6; i >= 0; i--)
		if (!strncmp(name, order[i], strlen(order[i])))
			return i;
	return 7;
}

static int cmp_cause(const void *a, const void *b)
{
	const struct cause *x = a, *y = b;
	int fx = family_rank(x->name), fy = family_rank(y->name);
	size_t nx = x->n[0] + x->n[1], ny = y->n[0] + y->n[1];

	if (fx != fy)
		return fx - fy;
	if (nx != ny)
		return nx > ny ? -1 : 1;
	return strcmp(x->name, y->name);
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

/* The P% threshold and the clean median of M; NaN where undefined. */
static void thresholds(const struct isc_column *m, const struct isc_column *const cnt[NCOUNT],
		       size_t nrows, double pct, double *thr, double *clean_med, size_t *nclean)
{
	double *all = isc_xcalloc(nrows + 1, sizeof(double)), *clean = isc_xcalloc(nrows + 1, sizeof(double));
	size_t n = 0, nc = 0;

	for (size_t r = 0; r < nrows; r++) {
		bool busy = false;
		if (isnan(m->num[r]))
			continue;
		all[n++] = m->num[r];
		for (size_t k = 0; k < NCOUNT; k++)
			busy |= has(cnt[k], r);
		if (!busy)
			clean[nc++] = m->num[r];
	}
	qsort(all, n, sizeof(double), cmp_double);
	qsort(clean, nc, sizeof(double), cmp_double);
	*thr = n ? isc_quantile_sorted(all, n, pct / 100) : NAN;
	*clean_med = nc ? isc_quantile_sorted(clean, nc, 0.5) : NAN;
	*nclean = nc;
	free(all);
	free(clean);
}

static void print_text(FILE *f, const char *metric, double pct, double thr, double cmed, size_t nclean,
		       const struct causes *cs)
{
	fprintf(f, "\n%s by cause, above its %g%% (%.3f) and at or below it; clean median %.3f "
		"(%zu datapoints with no IRQ, softirq, NMI or SMI in the window)\n",
		metric, pct, thr, cmed, nclean);
	fprintf(f, "  %-24s %8s %8s %12s   %8s %8s %12s\n", "cause", "above", "share", "excess avg",
		"below", "share", "excess avg");
	fprintf(f, "  %-24s %8zu %8s %12s   %8zu %8s %12s\n", "all", cs->band[1], "100.0%", "",
		cs->band[0], "100.0%", "");
	for (size_t i = 0; i < cs->nc; i++) {
		const struct cause *c = &cs->c[i];
		fprintf(f, "  %-24s", c->name);
		for (int b = 1; b >= 0; b--) {
			double share = cs->band[b] ? 100.0 * (double)c->n[b] / (double)cs->band[b] : NAN;
			if (c->n[b] && isfinite(c->excess[b]))
				fprintf(f, " %8zu %7.1f%% %12.3f%s", c->n[b], share,
					c->excess[b] / (double)c->n[b], b ? "  " : "");
			else
				fprintf(f, " %8zu %7.1f%% %12s%s", c->n[b], share, "-", b ? "  " : "");
		}
		fputc('\n', f);
	}
}

static cJSON *num_or_null(double v)
{
	return isfinite(v) ? cJSON_CreateNumber(v) : cJSON_CreateNull();
}

static cJSON *to_json(double pct, double thr, double cmed, size_t nclean, const struct causes *cs)
{
	static const char *const band_name[2] = { "at_or_below", "above" };
	cJSON *o = cJSON_CreateObject();

	cJSON_AddNumberToObject(o, "pct", pct);
	cJSON_AddItemToObject(o, "threshold", num_or_null(thr));
	cJSON_AddItemToObject(o, "clean_median", num_or_null(cmed));
	cJSON_AddNumberToObject(o, "clean_rows", (double)nclean);
	for (int b = 1; b >= 0; b--) {
		cJSON *jb = cJSON_AddObjectToObject(o, band_name[b]);
		cJSON *jc = cJSON_AddObjectToObject(jb, "causes");
		cJSON_AddNumberToObject(jb, "rows", (double)cs->band[b]);
		for (size_t i = 0; i < cs->nc; i++) {
			const struct cause *c = &cs->c[i];
			const char *name = c->name + strspn(c->name, " ");
			cJSON *e = cJSON_AddObjectToObject(jc, name);
			cJSON_AddNumberToObject(e, "rows", (double)c->n[b]);
			cJSON_AddItemToObject(e, "share", num_or_null(cs->band[b] ? (double)c->n[b] / (double)cs->band[b] : NAN));
			cJSON_AddItemToObject(e, "excess_mean", num_or_null(c->n[b] ? c->excess[b] / (double)c->n[b] : NAN));
		}
	}
	return o;
}

int stats_causes(const struct isc_table *t, const char *const *metrics, size_t nmetrics, double pct,
		 FILE *out, cJSON *json)
{
	const struct isc_column *cnt[NCOUNT];
	const struct isc_column *top = isc_table_col(t, "IRQTop"), *types = isc_table_col(t, "SWIRQTypes");
	cJSON *jc = json ? cJSON_AddObjectToObject(json, "causes") : NULL;
	bool any = false;

	for (size_t k = 0; k < NCOUNT; k++) {
		cnt[k] = isc_table_col(t, count_cols[k]);
		if (cnt[k] && cnt[k]->type != ISC_COL_NUM)
			cnt[k] = NULL;
		any |= cnt[k] != NULL;
	}
	if (!any) {
		isc_err("%s: --causes: no cause column (IRQCnt, SWIRQCnt, NMICnt, SMICnt): collect "
			"with --method bpf, without --no-causes", t->path);
		return -1;
	}
	for (size_t i = 0; i < nmetrics; i++) {
		const struct isc_column *m = isc_table_col(t, metrics[i]);
		struct causes *cs;
		double thr, cmed;
		size_t nclean;

		if (!m || m->type != ISC_COL_NUM)
			continue;
		cs = isc_xcalloc(1, sizeof(*cs));
		thresholds(m, cnt, t->nrows, pct, &thr, &cmed, &nclean);
		for (size_t r = 0; r < t->nrows; r++)
			if (!isnan(m->num[r]))
				classify(t, cnt, top, types, r, m->num[r] > thr, m->num[r] - cmed, cs);
		qsort(cs->c, cs->nc, sizeof(cs->c[0]), cmp_cause);
		if (jc)
			cJSON_AddItemToObject(jc, metrics[i], to_json(pct, thr, cmed, nclean, cs));
		else
			print_text(out, metrics[i], pct, thr, cmed, nclean, cs);
		free(cs);
	}
	return 0;
}
